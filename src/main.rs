//! The `kepi` binary: no command opens the window (`kepi open SAVE` opens it on a game); a command
//! runs on the command line.

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use kepi::cli::{Cli, Command, run};

fn main() -> ExitCode {
    let cli = Cli::parse();
    match &cli.command {
        Some(Command::Open(a)) => match a.check() {
            Ok(()) => open_window(Some(a.save.clone())),
            Err(e) => {
                say(format_args!("kepi: {}", e.message));
                ExitCode::from(e.code)
            }
        },
        Some(command) => match run(&cli, command) {
            Ok(()) => ExitCode::SUCCESS,
            // stdout's reader went away (`kepi odds 100d6 | head -1`): a quiet, successful stop.
            Err(e) if e.is_closed_pipe() => ExitCode::SUCCESS,
            Err(e) => {
                say(format_args!("kepi: {}", e.message));
                ExitCode::from(e.code)
            }
        },
        None => open_window(None),
    }
}

#[cfg(feature = "gui")]
fn open_window(save: Option<std::path::PathBuf>) -> ExitCode {
    match kepi::app::run_native(save) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            say(format_args!("kepi: cannot open the window: {e}"));
            ExitCode::from(1)
        }
    }
}

#[cfg(not(feature = "gui"))]
fn open_window(_save: Option<std::path::PathBuf>) -> ExitCode {
    say(format_args!(
        "kepi: this build has no window (built without the `gui` feature); try `kepi help`"
    ));
    ExitCode::from(2)
}

/// One line on stderr; a closed stderr is ignored (`eprintln!` would panic and exit 101). Control
/// characters an argument brought into the message are escaped (issue 44).
fn say(line: std::fmt::Arguments<'_>) {
    let _ = writeln!(
        std::io::stderr(),
        "{}",
        kepi::roster::shown_lines(&line.to_string())
    );
}
