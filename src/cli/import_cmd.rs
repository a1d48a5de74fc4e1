//! `kepi cards import FILE.csv --rules ID --out FILE.toml`: unit cards from a spreadsheet (issue
//! 43), read and checked by [`kepi_game::roster::csv_import`] and written by
//! [`kepi_game::roster::write`].

use std::path::{Path, PathBuf};

use clap::Args;
use serde::Serialize;

use super::{CliError, print_json};
use kepi_game::roster::csv_import::{
    Import, MAX_CSV_BYTES, import, map_columns, read_csv, scenario_of,
};
use kepi_game::roster::write::{card_toml, to_toml_in};
use kepi_game::roster::{CardError, Field, shown, validate_roster};
use kepi_game::rules::RuleSetId;

/// Rows `--dry-run` shows as cards.
const PREVIEW_ROWS: usize = 10;
/// Row errors an import that fails lists before "and N more".
const LISTED_ERRORS: usize = 20;

/// `kepi cards import FILE.csv --rules ID (--out FILE.toml | --dry-run) [--column FIELD=HEADER]...`
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The spreadsheet's CSV: a header row naming the columns, `,` or `;` between cells, UTF-8
    /// (with or without a byte-order mark), cells quoted as RFC 4180 says.
    #[arg(value_name = "FILE.csv")]
    pub file: PathBuf,
    /// The rule set the cards are for: its card says which fields there are and what each
    /// accepts (`kepi scenarios` lists the rule sets).
    #[arg(long, value_name = "ID", value_parser = parse_rules)]
    pub rules: RuleSetId,
    /// The card file to write (refused when it exists, unless --force; never through a link).
    #[arg(long, value_name = "FILE.toml", required_unless_present = "dry_run")]
    pub out: Option<PathBuf>,
    /// Read a field from this column, e.g. `--column strength=Figures` (repeatable). Without it
    /// a column is read for a field when its header is the field's name, its label on the rule
    /// set's card, or a usual other name ("class" for quality), case ignored.
    #[arg(long, value_name = "FIELD=HEADER", value_parser = parse_column)]
    pub column: Vec<(Field, String)>,
    /// Write nothing: show the columns read, the first rows as cards, and every row's error.
    #[arg(long)]
    pub dry_run: bool,
    /// Replace --out when it exists.
    #[arg(long)]
    pub force: bool,
    /// Print JSON: {"file", "rules", "separator", "columns": [{"field", "header"}], "ignored",
    /// "rows", "cards", "errors": [{"row", "line", "column", "field", "message", "accepted"}],
    /// "preview": [{"row", "line", "card", "error"}], "out"}.
    #[arg(long)]
    pub json: bool,
}

fn parse_rules(s: &str) -> Result<RuleSetId, String> {
    s.parse()
}

fn parse_column(s: &str) -> Result<(Field, String), String> {
    let fields = || {
        Field::ALL
            .iter()
            .map(|f| f.key())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let Some((field, header)) = s.split_once('=') else {
        return Err(format!(
            "`{s}` is not FIELD=HEADER (e.g. strength=Figures; fields: {})",
            fields()
        ));
    };
    let f = Field::from_key(field.trim().to_ascii_lowercase().as_str())
        .ok_or_else(|| format!("unknown field `{field}` (accepted: {})", fields()))?;
    if header.trim().is_empty() {
        return Err(format!("`{s}`: the column's header is empty"));
    }
    Ok((f, header.to_string()))
}

/// One error, for `--json`.
#[derive(Serialize)]
struct ErrorOut {
    row: usize,
    line: usize,
    column: usize,
    field: String,
    message: String,
    accepted: String,
}

/// One previewed row, for `--json`.
#[derive(Serialize)]
struct PreviewOut {
    row: usize,
    line: usize,
    card: Option<String>,
    error: Option<String>,
}

/// A column read, for `--json`.
#[derive(Serialize)]
struct ColumnOut {
    field: Field,
    header: String,
}

/// What an import did, for `--json`.
#[derive(Serialize)]
struct ImportOut {
    file: String,
    rules: String,
    separator: String,
    columns: Vec<ColumnOut>,
    ignored: Vec<String>,
    rows: usize,
    cards: usize,
    errors: Vec<ErrorOut>,
    preview: Vec<PreviewOut>,
    out: Option<String>,
}

fn report(a: &ImportArgs, header: &[String], imp: &Import, out: Option<&Path>) -> ImportOut {
    let errors = imp
        .rows
        .iter()
        .filter_map(|r| {
            r.unit.as_ref().err().map(|e| ErrorOut {
                row: r.row,
                line: e.line,
                column: e.column,
                field: e.field.clone(),
                message: e.message.clone(),
                accepted: e.accepted.clone(),
            })
        })
        .collect();
    let preview = if a.dry_run {
        imp.rows
            .iter()
            .take(PREVIEW_ROWS)
            .map(|r| PreviewOut {
                row: r.row,
                line: r.line,
                card: r.unit.as_ref().ok().map(|u| card_toml(u, Some(a.rules))),
                error: r.unit.as_ref().err().map(ToString::to_string),
            })
            .collect()
    } else {
        Vec::new()
    };
    ImportOut {
        file: a.file.display().to_string(),
        rules: a.rules.id().to_string(),
        separator: imp.separator.to_string(),
        columns: imp
            .mapping
            .columns
            .iter()
            .map(|(f, c)| ColumnOut {
                field: *f,
                header: header.get(*c).cloned().unwrap_or_default(),
            })
            .collect(),
        ignored: imp.mapping.ignored.clone(),
        rows: imp.rows.len(),
        cards: imp.rows.iter().filter(|r| r.unit.is_ok()).count(),
        errors,
        preview,
        out: out.map(|p| p.display().to_string()),
    }
}

fn card_error(e: CardError) -> CliError {
    CliError::usage(e.to_string())
}

/// Runs `kepi cards import`.
pub fn run(a: &ImportArgs) -> Result<(), CliError> {
    let out = match (&a.out, a.dry_run) {
        (Some(out), false) => Some(out.as_path()),
        _ => None,
    };
    if let Some(out) = out {
        kepi_game::fsio::refuse_game_file(out)
            .map_err(|e| CliError::usage(format!("--out: {e}")))?;
        if std::fs::symlink_metadata(out).is_ok() && !a.force {
            return Err(CliError::usage(format!(
                "--out: {} exists; give --force to replace it",
                out.display()
            )));
        }
        kepi_game::fsio::check_replaceable(out)
            .map_err(|e| CliError::usage(format!("--out: {e}")))?;
        if out.extension().is_none_or(|e| e != "toml") {
            return Err(CliError::usage(format!(
                "--out: {} is not a .toml card file",
                out.display()
            )));
        }
    }
    let name = a.file.display().to_string();
    let bytes = kepi_game::fsio::read_regular(&a.file, MAX_CSV_BYTES as u64, "CSV file")
        .map_err(|e| CliError::usage(e.message()))?;
    let csv = read_csv(&name, &bytes).map_err(card_error)?;
    let spec = a.rules.card_spec();
    let mapping = map_columns(&csv.header.cells, &a.column, &spec).map_err(CliError::usage)?;
    let base_dir: PathBuf = out
        .and_then(Path::parent)
        .filter(|d| !d.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let imp = import(&name, &csv, &mapping, Some(a.rules), Some(&base_dir));
    let header: Vec<String> = csv.header.cells.iter().map(|c| c.text.clone()).collect();
    if a.dry_run {
        let r = report(a, &header, &imp, None);
        if a.json {
            return print_json(&r);
        }
        return print_dry_run(&r);
    }
    let Some(out) = out else {
        return Err(CliError::usage(
            "--out: give the card file to write, or --dry-run",
        ));
    };
    let errors: Vec<String> = imp.errors().map(ToString::to_string).collect();
    if !errors.is_empty() {
        let mut msg = format!(
            "{} of {} rows do not read as {} cards; nothing written:",
            errors.len(),
            imp.rows.len(),
            a.rules.title()
        );
        for e in errors.iter().take(LISTED_ERRORS) {
            msg.push_str("\n  ");
            msg.push_str(e);
        }
        if errors.len() > LISTED_ERRORS {
            msg.push_str(&format!(
                "\n  ... and {} more",
                errors.len() - LISTED_ERRORS
            ));
        }
        return Err(CliError::usage(msg));
    }
    if imp.rows.is_empty() {
        return Err(CliError::usage(format!(
            "{name}: no rows of units under the header"
        )));
    }
    let stem = out
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    let scenario = scenario_of(Some(a.rules), &stem, imp.units());
    let text = to_toml_in(&scenario, Some(&base_dir));
    // What is written reads back as the same cards, or nothing is written.
    let back = validate_roster(&out.display().to_string(), &text, Some(&base_dir))
        .map_err(|e| CliError::failed(format!("the written cards do not read back: {e}")))?;
    if back.units != scenario.units {
        return Err(CliError::failed(
            "the written cards do not read back as the same cards; nothing written",
        ));
    }
    kepi_game::fsio::write_output(out, text.as_bytes())
        .map_err(|e| CliError::failed(e.to_string()))?;
    if a.json {
        return print_json(&report(a, &header, &imp, Some(out)));
    }
    outln!(
        "wrote {} ({} unit cards for {} from {})",
        shown(&out.display().to_string()),
        scenario.units.len(),
        a.rules.id(),
        shown(&name)
    );
    if !imp.mapping.ignored.is_empty() {
        errln!(
            "kepi: columns read for no field: {}",
            imp.mapping.ignored.join(", ")
        );
    }
    Ok(())
}

fn print_dry_run(r: &ImportOut) -> Result<(), CliError> {
    outln!(
        "{}: {} rows, {} read as {} cards, {} with errors (separator `{}`)",
        shown(&r.file),
        r.rows,
        r.cards,
        r.rules,
        r.errors.len(),
        r.separator
    );
    for c in &r.columns {
        textln!("  {:<10} <- \"{}\"", c.field.key(), c.header);
    }
    if !r.ignored.is_empty() {
        textln!("  not read: {}", r.ignored.join(", "));
    }
    for p in &r.preview {
        outln!("");
        outln!("# row {} (line {})", p.row, p.line);
        match (&p.card, &p.error) {
            (Some(card), _) => textln!("{}", card.trim_end()),
            (None, Some(e)) => textln!("error: {e}"),
            _ => {}
        }
    }
    let later: Vec<&ErrorOut> = r.errors.iter().filter(|e| e.row > PREVIEW_ROWS).collect();
    if !later.is_empty() {
        outln!("");
        outln!("errors in later rows:");
        for e in later.iter().take(LISTED_ERRORS) {
            textln!(
                "  row {} line {}: field `{}`: {} (accepted: {})",
                e.row,
                e.line,
                e.field,
                e.message,
                e.accepted
            );
        }
        if later.len() > LISTED_ERRORS {
            outln!("  ... and {} more", later.len() - LISTED_ERRORS);
        }
    }
    Ok(())
}
