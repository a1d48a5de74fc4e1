//! `kepi tables check [DIR]` and `kepi tables dump`.

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};

use super::{CliError, print_json};

/// `kepi tables ...`
#[derive(Debug, Args)]
pub struct TablesArgs {
    /// What to do with the tables.
    #[command(subcommand)]
    pub command: TablesCommand,
}

/// Table subcommands.
#[derive(Debug, Subcommand)]
pub enum TablesCommand {
    /// Validate a folder of tables (or the built-in ones): every file must load; counts values by provenance.
    Check {
        /// Folder with pk.toml, pw.toml, gsp.toml, spi.toml, fr1870.toml (any subset).
        dir: Option<PathBuf>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Write the built-in tables into a folder, as a starting point for a club's own.
    Dump {
        /// Folder to write into (created if missing; existing files are not overwritten).
        dir: PathBuf,
    },
}

/// Runs a tables subcommand.
pub fn run(a: &TablesArgs, global_dir: Option<&Path>) -> Result<(), CliError> {
    match &a.command {
        TablesCommand::Check { dir, json } => {
            let dir = dir.as_deref().or(global_dir);
            if let Some(d) = dir
                && !d.is_dir()
            {
                return Err(CliError::usage(format!(
                    "DIR: `{}` is not a folder",
                    d.display()
                )));
            }
            let report = kepi_game::registry::check_tables(dir)?;
            if *json {
                return print_json(&report);
            }
            for r in &report {
                let [s, d, h, u] = r.values;
                outln!(
                    "{:<12} {:<9} ok: {s} seed, {d} derived, {h} house, {u} unknown",
                    r.file,
                    if r.from_folder {
                        "(folder)"
                    } else {
                        "(built-in)"
                    }
                );
            }
            Ok(())
        }
        TablesCommand::Dump { dir } => {
            std::fs::create_dir_all(dir)
                .map_err(|e| CliError::failed(format!("{}: {e}", dir.display())))?;
            for f in kepi_game::registry::table_files() {
                let (file, text) = (f.file, f.builtin);
                let p = dir.join(file);
                // A dangling link is "there" too: kepi never writes through it.
                if kepi_game::fsio::present(&p) {
                    kepi_game::fsio::check_replaceable(&p)
                        .map_err(|e| CliError::usage(e.to_string()))?;
                    errln!("{}: exists, left as it is", p.display());
                    continue;
                }
                kepi_game::fsio::write_output(&p, text.as_bytes()).map_err(|e| {
                    if e.io_kind() == std::io::ErrorKind::InvalidInput {
                        CliError::usage(e.to_string())
                    } else {
                        CliError::failed(e.to_string())
                    }
                })?;
                outln!("{}", p.display());
            }
            Ok(())
        }
    }
}
