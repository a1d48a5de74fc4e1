//! The command line: declared once with clap derive; `kepi help` lists every command.
//!
//! Exit codes: 0 success; 1 a check that failed (e.g. `kepi log verify` on an edited log) or an I/O
//! failure; 2 a usage or input error, with a one-line message naming the bad input.
//!
//! Output goes through [`out`] (the `out!` / `outln!` macros), never `print!`: a reader that
//! closes early (`kepi odds 100d6 | head -1`) must stop kepi quietly with exit 0, as ripgrep does,
//! not panic. Warnings go through `errln!`, which ignores a closed stderr.

/// `print!` for commands: writes to stdout and returns early with [`CliError::closed_pipe`] (or an
/// I/O error) from the enclosing function when stdout cannot be written.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::out(format_args!($($arg)*))?
    };
}

/// `println!` for commands: as `out!`, with a line end.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::out(format_args!("{}\n", format_args!($($arg)*)))?
    };
}

/// `outln!` for a line that shows text from a game or a card (names, summaries, notes): control
/// characters are printed as escapes (`\u{1b}`) so a stored name cannot act on the terminal or
/// forge a line (issue 29).
macro_rules! textln {
    ($($arg:tt)*) => {
        $crate::out(format_args!(
            "{}\n",
            kepi_game::roster::shown(&format!($($arg)*))
        ))?
    };
}

/// `eprintln!` for commands: a warning on stderr; a closed stderr is ignored (nobody is listening).
/// Control characters in it (an argument echoed back) are escaped, as the binary's errors are.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "{}",
            kepi_game::roster::shown_lines(&format!($($arg)*))
        );
    }};
}

mod calendar_cmd;
pub mod campaign_cmd;
pub mod convert_cmd;
mod dice_cmds;
pub mod export_cmd;
pub mod game_cmd;
pub mod hex_cmd;
pub mod import_cmd;
pub mod map_cmd;
pub mod net_cmd;
pub mod resolve;
mod tables_cmd;

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// kepi: a desktop assistant for Franco-Prussian War wargames.
///
/// With no command, kepi opens its window with the demo battle. Every command below also answers
/// `--help`; JSON output (`--json`) is a stable contract for scripts.
#[derive(Debug, Parser)]
#[command(
    name = "kepi",
    version,
    propagate_version = true,
    disable_help_subcommand = false
)]
pub struct Cli {
    /// Folder of rule tables (`pk.toml`, `gsp.toml`, ...) overriding the built-in ones file by file.
    #[arg(long, global = true, value_name = "DIR")]
    pub tables: Option<PathBuf>,

    /// What to do; none opens the window.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Roll a dice expression (d6, 2d6, d10, d%, 3d6+2) and print the dice and the total.
    Roll(dice_cmds::RollArgs),
    /// Print the exact distribution of a dice expression, as reduced fractions.
    Odds(dice_cmds::OddsArgs),
    /// Resolve one mechanic of a rule set: modifiers with rule ids, dice, outcome and exact odds.
    Resolve(resolve::ResolveArgs),
    /// Check or print rule tables.
    Tables(tables_cmd::TablesArgs),
    /// List the bundled scenarios: {"name", "system", "title", "units"}.
    Scenarios(game_cmd::ScenariosArgs),
    /// Open the window on a saved game, as File > Open does (the journal's actions recovered).
    Open(OpenArgs),
    /// Play a game kept in a save file: new, show, apply actions, undo/redo, reveal the seed, share a
    /// copy without the seed, recover from the journal.
    #[command(after_help = game_cmd::apply_help())]
    Game(game_cmd::GameArgs),
    /// Check (chain, replay, dice against the seed, `--expect-head`) or print a game's log.
    Log(game_cmd::LogArgs),
    /// Print unit cards (`--png DIR` or `--pdf OUT.pdf`), validate card files (`cards check`), or
    /// import them from a spreadsheet's CSV (`cards import FILE.csv --rules ID --out FILE.toml`),
    /// or convert them to another rule set (`cards convert FILE --to SET --out FILE.toml`).
    Cards(game_cmd::CardFilesArgs),
    /// Print a club roster as PDF: `kepi roster print (--scenario NAME | --cards FILE | --save FILE) --pdf OUT.pdf`.
    #[command(subcommand)]
    Roster(export_cmd::RosterCmd),
    /// Export units or the log for spreadsheets: `kepi export csv ...`.
    #[command(subcommand)]
    Export(export_cmd::ExportCmd),
    /// A battle report of a saved game, as HTML or PDF: `kepi report SAVE (--html OUT | --pdf OUT)`.
    Report(export_cmd::ReportArgs),
    /// The dates of a turn of the SPI or 1870 calendar (SPI-T1, FR-T1).
    Calendar(calendar_cmd::CalendarArgs),
    /// A campaign on the board, its battles on the table: fight an SPI or 1870 combat as a P&K or
    /// PW battle (`battle`), bring its losses back (`return`), `abandon` it, list pending ones
    /// (`status`).
    #[command(subcommand_required = true)]
    Campaign(campaign_cmd::CampaignArgs),
    /// Hex geometry: distance, line, neighbours and line of sight between board hexes.
    Hex(hex_cmd::HexArgs),
    /// A club's map of its board (docs/MAPS.md): `check FILE` validates it (exit 2 naming file,
    /// line and field), `show FILE [--json]` prints it, `cell FILE 1640 [--json]` answers one cell,
    /// `import-vassal MODULE.vmod --board NAME --out DIR` imports a board from a VASSAL module,
    /// `align FILE --cell 0101=412,96.5 --cell 1210=1340,1020 [--check CELL=X,Y] [--write]` fits
    /// the picture of the board to the grid and prints (or writes) its `[picture]` table.
    #[command(subcommand_required = true)]
    Map(map_cmd::MapArgs),
    /// Host a game for the table's network: prints {"address", "seats": [{"seat", "code"}]} as its
    /// first line, serves until SIGINT/SIGTERM, then stops with the save caught up.
    Serve(net_cmd::ServeArgs),
    /// Join a hosted game with a seat's code: `show`, `apply VERB...` (as `kepi game apply`, at
    /// most 256 verbs a request) or
    /// `watch` the log as it is applied; the umpire's `pending`, `approve N`, `reject N` and
    /// `approval on|off` when players' resolutions wait for approval (`kepi serve --approve`);
    /// `kepi remote discover [--json]` lists the games advertised on the network.
    Remote(net_cmd::RemoteArgs),
}

/// A command that did not succeed: its exit code and a message naming the problem.
///
/// Code 0 is the one quiet stop: stdout was closed by its reader ([`CliError::closed_pipe`]); the
/// binary then exits 0 and prints nothing.
#[derive(Debug)]
pub struct CliError {
    /// 1 for a failed check or I/O, 2 for bad input, 0 for a closed stdout (stop quietly).
    pub code: u8,
    /// One line (or a few) for the terminal.
    pub message: String,
    /// Writing to stdout failed (closed or full): see [`stood`].
    stdout: bool,
}

impl CliError {
    /// Bad input or usage: exit 2.
    pub fn usage(message: impl Into<String>) -> Self {
        CliError {
            code: 2,
            message: message.into(),
            stdout: false,
        }
    }

    /// A failure that is not the user's typing (I/O, a failed verification): exit 1.
    pub fn failed(message: impl Into<String>) -> Self {
        CliError {
            code: 1,
            message: message.into(),
            stdout: false,
        }
    }

    /// stdout's reader went away (`kepi ... | head -1`): stop writing, exit 0, say nothing.
    pub fn closed_pipe() -> Self {
        CliError {
            code: 0,
            message: String::new(),
            stdout: true,
        }
    }

    /// Whether this is the quiet stop of a closed stdout rather than a failure to report.
    pub fn is_closed_pipe(&self) -> bool {
        self.code == 0
    }

    /// A failed write to stdout: a closed pipe stops quietly, anything else is an I/O failure.
    fn from_stdout(e: std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            CliError::closed_pipe()
        } else {
            CliError {
                stdout: true,
                ..CliError::failed(format!("cannot write to stdout: {e}"))
            }
        }
    }

    /// Whether writing to stdout failed (a closed pipe or a full or broken device).
    pub fn is_stdout(&self) -> bool {
        self.stdout
    }

    /// An exit with this code and message (a refusal passed on from a host).
    pub fn with_code(code: u8, message: impl Into<String>) -> Self {
        CliError {
            code,
            message: message.into(),
            stdout: false,
        }
    }
}

/// The exit of a command that changed a game (journaled it) and then printed: the exit status says
/// what happened to the game, so a stdout that could not be written after the change stood is not
/// a failure (a script retrying it would make the change twice). A closed stdout stops quietly; a
/// full or broken one is said on stderr. Other errors pass as they are.
pub(crate) fn stood(r: Result<(), CliError>) -> Result<(), CliError> {
    match r {
        Err(e) if e.is_stdout() => {
            if !e.is_closed_pipe() {
                errln!(
                    "kepi: {}; the game's change stood (it is in the journal: `kepi game show` shows it)",
                    e.message
                );
            }
            Ok(())
        }
        r => r,
    }
}

/// Writes text to stdout (what `out!` and `outln!` expand to); the one way commands print.
pub fn out(args: std::fmt::Arguments<'_>) -> Result<(), CliError> {
    use std::io::Write;
    std::io::stdout()
        .lock()
        .write_fmt(args)
        .map_err(CliError::from_stdout)
}

/// A move not made ([`kepi_middle::moves`]) exits with its kind's code: 2 for usage and refusals, 1 for a
/// failure.
impl From<kepi_middle::moves::MoveError> for CliError {
    fn from(e: kepi_middle::moves::MoveError) -> Self {
        CliError::with_code(e.code(), e.message)
    }
}

impl From<kepi_game::tables::TableError> for CliError {
    fn from(e: kepi_game::tables::TableError) -> Self {
        CliError::usage(e.to_string())
    }
}

impl From<kepi_game::dice::DiceError> for CliError {
    fn from(e: kepi_game::dice::DiceError) -> Self {
        CliError::usage(e.to_string())
    }
}

impl From<kepi_game::rules::RuleError> for CliError {
    fn from(e: kepi_game::rules::RuleError) -> Self {
        CliError::usage(e.to_string())
    }
}

/// Runs a parsed command line (not the window).
pub fn run(cli: &Cli, command: &Command) -> Result<(), CliError> {
    let tables = cli.tables.as_deref();
    match command {
        Command::Roll(a) => dice_cmds::roll(a),
        Command::Odds(a) => dice_cmds::odds(a),
        Command::Resolve(a) => resolve::run(a, tables),
        Command::Tables(a) => tables_cmd::run(a, tables),
        Command::Scenarios(a) => game_cmd::scenarios(a),
        Command::Game(a) => game_cmd::game(a, tables),
        Command::Log(a) => game_cmd::log(a, tables),
        Command::Cards(a) => game_cmd::cards(a, tables),
        Command::Roster(c) => export_cmd::run_roster(c, &docs(tables)?),
        Command::Export(c) => export_cmd::run_export(c, &docs(tables)?),
        Command::Report(a) => export_cmd::run_report(a, &docs(tables)?),
        Command::Calendar(a) => calendar_cmd::run(a, tables),
        Command::Hex(a) => hex_cmd::run(a),
        Command::Map(a) => map_cmd::run(a),
        Command::Campaign(a) => campaign_cmd::run(a, tables),
        Command::Serve(a) => net_cmd::serve(a, tables),
        Command::Remote(a) => net_cmd::remote(a),
        // The binary opens the window for `open` after [`OpenArgs::check`]; a library caller that
        // gets here has no window to open.
        Command::Open(a) => {
            a.check()?;
            Err(CliError::usage(
                "`kepi open` opens the window: run it from the kepi binary",
            ))
        }
    }
}

/// `kepi open SAVE`
#[derive(Debug, Clone, clap::Args)]
pub struct OpenArgs {
    /// The saved game to open in the window.
    #[arg(value_name = "SAVE")]
    pub save: PathBuf,
}

impl OpenArgs {
    /// The save must be a kepi save that reads (with its journal) before a window is opened for
    /// it: a typo or a broken file exits 2 naming it, rather than opening a window that says so.
    pub fn check(&self) -> Result<(), CliError> {
        match std::fs::metadata(&self.save) {
            Ok(m) if m.is_file() => {}
            Ok(_) => {
                return Err(CliError::usage(format!(
                    "SAVE: {} is not a file (give a kepi save)",
                    self.save.display()
                )));
            }
            Err(e) => {
                return Err(CliError::usage(format!(
                    "SAVE: cannot read {}: {e}",
                    self.save.display()
                )));
            }
        }
        kepi_game::store::read_game(&self.save)
            .map(|_| ())
            .map_err(|e| CliError::usage(format!("SAVE: {e}")))
    }
}

/// The game session's export provider, with the tables in force (for move and range).
pub fn docs(
    dir: Option<&std::path::Path>,
) -> Result<kepi_middle::export::from_game::GameDocs<'static>, CliError> {
    let tables: &'static kepi_game::rules::Tables = match dir {
        Some(d) => Box::leak(Box::new(kepi_game::registry::load_tables(Some(d))?)),
        None => kepi_game::registry::builtin_tables()?,
    };
    Ok(kepi_middle::export::from_game::GameDocs { tables })
}

/// Prints a value as pretty JSON on stdout.
pub fn print_json(v: &impl serde::Serialize) -> Result<(), CliError> {
    let s = serde_json::to_string_pretty(v)
        .map_err(|e| CliError::failed(format!("JSON output: {e}")))?;
    // A closed pipe (`kepi ... --json | head`) stops quietly, like every other output.
    out(format_args!("{s}\n"))
}

pub use kepi_game::dice::fresh_seed;

// This crate's unit tests are a program of their own, built with no rule set (none of them needs
// one: the command line's tests that play are tests/cli, through the binary).
#[cfg(test)]
kepi_game::rule_sets!(&[]);
