//! The `kepi` binary: no command opens the window; a command runs on the command line.

use std::process::ExitCode;

use clap::Parser;
use kepi::cli::{Cli, run};

fn main() -> ExitCode {
    let cli = Cli::parse();
    match &cli.command {
        Some(command) => match run(&cli, command) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("kepi: {}", e.message);
                ExitCode::from(e.code)
            }
        },
        None => open_window(),
    }
}

#[cfg(feature = "gui")]
fn open_window() -> ExitCode {
    match kepi::app::run_native() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("kepi: cannot open the window: {e}");
            ExitCode::from(1)
        }
    }
}

#[cfg(not(feature = "gui"))]
fn open_window() -> ExitCode {
    eprintln!("kepi: this build has no window (built without the `gui` feature); try `kepi help`");
    ExitCode::from(2)
}
