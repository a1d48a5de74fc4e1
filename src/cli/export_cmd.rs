//! `kepi roster print`, `kepi cards`, `kepi export csv` and `kepi report`: the export commands.
//!
//! They need scenarios, card files and saves, which the game session owns, so every run function takes
//! a [`DocProvider`] that turns a [`Source`] into the plain view model ([`kepi_middle::export::RosterDoc`], [`kepi_middle::export::ReportDoc`],
//! [`kepi_middle::export::LogRowDoc`]s). The provider reports an unknown scenario or a broken file as an
//! [`ExportError::Source`] naming it (exit 2); these functions write the output atomically and report an unwritable path naming it.

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};

use super::CliError;
use kepi_middle::export::{self, ExportError, Paper, no_progress, write_atomic};

pub use kepi_middle::export::{DocProvider, Source};

fn cli_err(e: ExportError) -> CliError {
    match e {
        ExportError::Invalid(m) | ExportError::Source(m) => CliError::usage(m),
        // A target kepi refuses (a link, device or FIFO) is bad input: it names it.
        ExportError::Write { ref source, .. }
            if source.kind() == std::io::ErrorKind::InvalidInput =>
        {
            CliError::usage(e.to_string())
        }
        other => CliError::failed(other.to_string()),
    }
}

/// `--scenario NAME | --cards FILE | --save FILE`
#[derive(Debug, Clone, Args)]
#[group(required = true, multiple = false)]
pub struct RosterSourceArgs {
    /// Print the roster of this scenario (its starting order of battle): a built-in name (`kepi scenarios`) or a scenario .toml
    /// file, as `kepi game new --scenario` takes it.
    #[arg(long, value_name = "NAME")]
    pub scenario: Option<String>,
    /// Print the roster of this unit-card file.
    #[arg(long, value_name = "FILE")]
    pub cards: Option<PathBuf>,
    /// Print the current state of this saved game: losses crossed out, status noted.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
}

impl RosterSourceArgs {
    /// The chosen source (clap guarantees exactly one).
    pub fn source(&self) -> Result<Source, CliError> {
        match (&self.scenario, &self.cards, &self.save) {
            (Some(s), None, None) => Ok(Source::Scenario(s.clone())),
            (None, Some(c), None) => Ok(Source::Cards(c.clone())),
            (None, None, Some(s)) => Ok(Source::Save(s.clone())),
            _ => Err(CliError::usage(
                "give exactly one of --scenario, --cards or --save",
            )),
        }
    }
}

/// `--scenario NAME | --cards FILE`
#[derive(Debug, Clone, Args)]
#[group(required = true, multiple = false)]
pub struct CardsSourceArgs {
    /// Cards for the units of this scenario: a built-in name (`kepi scenarios`) or a scenario .toml
    /// file, as `kepi game new --scenario` takes it.
    #[arg(long, value_name = "NAME")]
    pub scenario: Option<String>,
    /// Cards for the units of this unit-card file.
    #[arg(long, value_name = "FILE")]
    pub cards: Option<PathBuf>,
}

impl CardsSourceArgs {
    /// The chosen source.
    pub fn source(&self) -> Result<Source, CliError> {
        match (&self.scenario, &self.cards) {
            (Some(s), None) => Ok(Source::Scenario(s.clone())),
            (None, Some(c)) => Ok(Source::Cards(c.clone())),
            _ => Err(CliError::usage("give exactly one of --scenario or --cards")),
        }
    }
}

/// `--scenario NAME | --save FILE`
#[derive(Debug, Clone, Args)]
#[group(required = true, multiple = false)]
pub struct CsvSourceArgs {
    /// Export the units (or empty log) of this scenario: a built-in name (`kepi scenarios`) or a scenario .toml
    /// file, as `kepi game new --scenario` takes it.
    #[arg(long, value_name = "NAME")]
    pub scenario: Option<String>,
    /// Export the units or the log of this saved game.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
}

impl CsvSourceArgs {
    /// The chosen source.
    pub fn source(&self) -> Result<Source, CliError> {
        match (&self.scenario, &self.save) {
            (Some(s), None) => Ok(Source::Scenario(s.clone())),
            (None, Some(c)) => Ok(Source::Save(c.clone())),
            _ => Err(CliError::usage("give exactly one of --scenario or --save")),
        }
    }
}

/// `kepi roster ...`
#[derive(Debug, Clone, Subcommand)]
pub enum RosterCmd {
    /// Print a club roster as PDF: per side the order of battle, per unit symbol, strength boxes,
    /// fatigue, leaders, weapon, move, range and status.
    Print(RosterPrintArgs),
}

/// `kepi roster print (--scenario NAME | --cards FILE | --save FILE) --pdf OUT.pdf [--paper a4|letter]`
#[derive(Debug, Clone, Args)]
pub struct RosterPrintArgs {
    /// What to print.
    #[command(flatten)]
    pub source: RosterSourceArgs,
    /// The PDF to write (replaced atomically).
    #[arg(long, value_name = "OUT.pdf")]
    pub pdf: PathBuf,
    /// Paper size.
    #[arg(long, value_enum, default_value_t = Paper::A4)]
    pub paper: Paper,
}

/// `--png DIR | --pdf OUT.pdf`
#[derive(Debug, Clone, Args)]
#[group(required = true, multiple = false)]
pub struct CardsOutArgs {
    /// Write one PNG per unit into this folder (created if missing), named from the unit ids.
    #[arg(long, value_name = "DIR")]
    pub png: Option<PathBuf>,
    /// Write sheets of nine cards with cut lines to this PDF.
    #[arg(long, value_name = "OUT.pdf")]
    pub pdf: Option<PathBuf>,
}

/// `kepi cards (--scenario NAME | --cards FILE) (--png DIR [--dpi 300] | --pdf OUT.pdf)`
#[derive(Debug, Clone, Args)]
pub struct CardsArgs {
    /// Whose cards.
    #[command(flatten)]
    pub source: CardsSourceArgs,
    /// Where to write them.
    #[command(flatten)]
    pub out: CardsOutArgs,
    /// Resolution of the PNG cards, default 300 (63 x 88 mm; 300 dpi gives 744 x 1039 px).
    #[arg(long, value_name = "DPI")]
    pub dpi: Option<u32>,
    /// Paper size of the PDF sheets.
    #[arg(long, value_enum, default_value_t = Paper::A4)]
    pub paper: Paper,
}

/// `kepi export ...`
#[derive(Debug, Clone, Subcommand)]
pub enum ExportCmd {
    /// Export units or the log as CSV for spreadsheets (RFC 4180).
    Csv(CsvArgs),
}

/// `--units OUT.csv | --log OUT.csv`
#[derive(Debug, Clone, Args)]
#[group(required = true, multiple = false)]
pub struct CsvOutArgs {
    /// One row per unit: side, group path, id, name, arm, class, strength, ..., status.
    #[arg(long, value_name = "OUT.csv")]
    pub units: Option<PathBuf>,
    /// One row per log entry: index, time, turn, phase, action, rule ids, dice, summary.
    #[arg(long, value_name = "OUT.csv")]
    pub log: Option<PathBuf>,
}

/// `kepi export csv (--scenario NAME | --save FILE) (--units OUT.csv | --log OUT.csv)`
#[derive(Debug, Clone, Args)]
pub struct CsvArgs {
    /// What to export from.
    #[command(flatten)]
    pub source: CsvSourceArgs,
    /// What to export, and where.
    #[command(flatten)]
    pub out: CsvOutArgs,
}

/// `--html OUT | --pdf OUT | --json`
#[derive(Debug, Clone, Args)]
#[group(required = true, multiple = false)]
pub struct ReportOutArgs {
    /// Write a self-contained HTML page (inline chart, no external files).
    #[arg(long, value_name = "OUT.html")]
    pub html: Option<PathBuf>,
    /// Write a PDF.
    #[arg(long, value_name = "OUT.pdf")]
    pub pdf: Option<PathBuf>,
    /// Print the report's data as one JSON object on stdout, for scripts: `entries` (each with
    /// `index`, `turn`, `time`, `actor`, `target`, `action`, `rule`, `rules`, `summary`, `dice`,
    /// `effects`, `notes`) and `casualties` (`turn`, `side`, `lost`), plus `chain_head` and `verified`.
    #[arg(long)]
    pub json: bool,
}

/// `kepi report SAVE (--html OUT | --pdf OUT | --json)`
#[derive(Debug, Clone, Args)]
pub struct ReportArgs {
    /// The saved game to report on.
    #[arg(value_name = "SAVE")]
    pub save: PathBuf,
    /// Where to write the report.
    #[command(flatten)]
    pub out: ReportOutArgs,
    /// Paper size of the PDF.
    #[arg(long, value_enum, default_value_t = Paper::A4)]
    pub paper: Paper,
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    write_atomic(path, bytes).map_err(cli_err)
}

/// Refuses an output that is one of a game's own files before anything is rendered (the write
/// refuses it again: see [`kepi_game::fsio::game_file`]); exit 2, naming the file and why.
fn check_out(path: &Path) -> Result<(), CliError> {
    kepi_game::fsio::refuse_game_file(path).map_err(|e| CliError::usage(e.to_string()))
}

/// Runs `kepi roster print`.
pub fn run_roster(cmd: &RosterCmd, p: &dyn DocProvider) -> Result<(), CliError> {
    let RosterCmd::Print(a) = cmd;
    check_out(&a.pdf)?;
    let doc = p.roster(&a.source.source()?).map_err(cli_err)?;
    let bytes = export::roster_pdf(&doc, a.paper).map_err(cli_err)?;
    write(&a.pdf, &bytes)?;
    let pages = export::roster_page_count(&doc, a.paper).map_err(cli_err)?;
    outln!(
        "wrote {} ({} units, {pages} pages, {})",
        a.pdf.display(),
        doc.units().len(),
        a.paper
    );
    Ok(())
}

/// The PNG resolution when `--dpi` is not given.
pub const DEFAULT_DPI: u32 = 300;

/// Runs `kepi cards`.
pub fn run_cards(a: &CardsArgs, p: &dyn DocProvider) -> Result<(), CliError> {
    if let Some(out) = &a.out.pdf {
        check_out(out)?;
    }
    let doc = p.roster(&a.source.source()?).map_err(cli_err)?;
    match (&a.out.png, &a.out.pdf) {
        (Some(dir), None) => {
            let dpi = a.dpi.unwrap_or(DEFAULT_DPI);
            let files = export::cards_png_dir(&doc, dir, dpi, &no_progress).map_err(cli_err)?;
            outln!(
                "wrote {} cards at {dpi} dpi into {}",
                files.len(),
                dir.display()
            );
        }
        (None, Some(pdf)) => {
            if a.dpi.is_some() {
                return Err(CliError::usage(
                    "--dpi: only with --png (PDF sheets are vector)",
                ));
            }
            let bytes = export::cards_pdf(&doc, a.paper).map_err(cli_err)?;
            write(pdf, &bytes)?;
            outln!(
                "wrote {} ({} cards, {} sheets)",
                pdf.display(),
                doc.units().len(),
                doc.units().len().div_ceil(9).max(1)
            );
        }
        _ => return Err(CliError::usage("give exactly one of --png or --pdf")),
    }
    Ok(())
}

/// Runs `kepi export csv`.
pub fn run_export(cmd: &ExportCmd, p: &dyn DocProvider) -> Result<(), CliError> {
    let ExportCmd::Csv(a) = cmd;
    let source = a.source.source()?;
    match (&a.out.units, &a.out.log) {
        (Some(out), None) => {
            check_out(out)?;
            let doc = p.roster(&source).map_err(cli_err)?;
            write(out, export::units_csv(&doc).as_bytes())?;
            outln!("wrote {} ({} units)", out.display(), doc.units().len());
        }
        (None, Some(out)) => {
            check_out(out)?;
            let rows = p.log(&source).map_err(cli_err)?;
            write(out, export::log_csv(&rows).as_bytes())?;
            outln!("wrote {} ({} log entries)", out.display(), rows.len());
        }
        _ => return Err(CliError::usage("give exactly one of --units or --log")),
    }
    Ok(())
}

/// Runs `kepi report`.
pub fn run_report(a: &ReportArgs, p: &dyn DocProvider) -> Result<(), CliError> {
    for out in [&a.out.html, &a.out.pdf].into_iter().flatten() {
        check_out(out)?;
    }
    let doc = p.report(&a.save).map_err(cli_err)?;
    match (&a.out.html, &a.out.pdf, a.out.json) {
        (Some(out), None, false) => {
            write(out, export::report_html(&doc).as_bytes())?;
            outln!("wrote {}", out.display());
        }
        (None, Some(out), false) => {
            let bytes = export::report_pdf(&doc, a.paper).map_err(cli_err)?;
            write(out, &bytes)?;
            outln!("wrote {}", out.display());
        }
        (None, None, true) => super::print_json(&export::ReportJson::from(&doc))?,
        _ => {
            return Err(CliError::usage(
                "give exactly one of --html, --pdf or --json",
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct T {
        #[command(subcommand)]
        cmd: Cmd,
    }

    #[derive(Debug, Subcommand)]
    enum Cmd {
        #[command(subcommand)]
        Roster(RosterCmd),
        Cards(CardsArgs),
        #[command(subcommand)]
        Export(ExportCmd),
        Report(ReportArgs),
    }

    fn parse(args: &[&str]) -> Result<Cmd, clap::Error> {
        T::try_parse_from(std::iter::once("kepi").chain(args.iter().copied())).map(|t| t.cmd)
    }

    #[test]
    fn roster_print_parses_and_rejects_two_sources() {
        let Ok(Cmd::Roster(RosterCmd::Print(a))) = parse(&[
            "roster",
            "print",
            "--scenario",
            "mlt",
            "--pdf",
            "o.pdf",
            "--paper",
            "letter",
        ]) else {
            panic!("did not parse");
        };
        assert_eq!(a.source.source().unwrap(), Source::Scenario("mlt".into()));
        assert_eq!(a.paper, Paper::Letter);
        assert!(
            parse(&[
                "roster",
                "print",
                "--scenario",
                "a",
                "--save",
                "b",
                "--pdf",
                "o.pdf"
            ])
            .is_err()
        );
        assert!(parse(&["roster", "print", "--pdf", "o.pdf"]).is_err());
        assert!(parse(&["roster", "print", "--scenario", "a"]).is_err());
        assert!(
            parse(&[
                "roster",
                "print",
                "--scenario",
                "a",
                "--pdf",
                "o",
                "--paper",
                "a3"
            ])
            .is_err()
        );
    }

    #[test]
    fn cards_needs_exactly_one_output() {
        let Ok(Cmd::Cards(a)) = parse(&["cards", "--cards", "c.toml", "--png", "out"]) else {
            panic!("did not parse");
        };
        assert_eq!(a.dpi, None);
        assert!(parse(&["cards", "--cards", "c.toml", "--png", "d", "--pdf", "x.pdf"]).is_err());
        assert!(parse(&["cards", "--save", "s", "--pdf", "x.pdf"]).is_err());
    }

    #[test]
    fn export_csv_and_report_parse() {
        assert!(parse(&["export", "csv", "--save", "s.kepi", "--log", "l.csv"]).is_ok());
        assert!(parse(&["export", "csv", "--cards", "c", "--units", "u.csv"]).is_err());
        assert!(parse(&["report", "s.kepi", "--html", "r.html"]).is_ok());
        assert!(parse(&["report", "s.kepi"]).is_err());
    }
}
