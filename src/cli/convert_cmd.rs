//! `kepi cards convert FILE --to SET --out FILE.toml`: the same troops for another rule set
//! (issue 43), converted by [`kepi_game::roster::builder::OrderOfBattle::convert`] from the two
//! sets' cards. What means the same is carried over; what the new set needs and the old card
//! cannot give is left out, with a `# TO FILL:` comment above its card saying what the old card
//! had, so the builder (or `kepi cards check`) shows each field to fill.

use std::path::{Path, PathBuf};

use clap::Args;
use serde::Serialize;

use super::{CliError, print_json};
use kepi_game::roster::Field;
use kepi_game::roster::builder::OrderOfBattle;
use kepi_game::roster::shown;
use kepi_game::rules::RuleSetId;

/// Fields to fill the text output lists before "and N more".
const LISTED: usize = 30;

/// `kepi cards convert FILE --to SET --out FILE.toml [--force] [--json]`
#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// The card file whose troops are converted (a scenario with its `system`).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The rule set to convert to (`kepi scenarios` lists the rule sets).
    #[arg(long, value_name = "SET", value_parser = parse_rules)]
    pub to: RuleSetId,
    /// The card file to write (refused when it exists, unless --force; never through a link).
    #[arg(long, value_name = "FILE.toml")]
    pub out: PathBuf,
    /// Replace --out when it exists.
    #[arg(long)]
    pub force: bool,
    /// Print JSON: {"file", "from", "to", "out", "cards", "carried", "to_fill": [{"unit",
    /// "field", "message", "accepted"}], "dropped": [{"field", "cards"}], "header_dropped"}.
    #[arg(long)]
    pub json: bool,
}

fn parse_rules(s: &str) -> Result<RuleSetId, String> {
    s.parse()
}

/// A field left to fill, for `--json`.
#[derive(Serialize)]
struct FillOut {
    unit: String,
    field: Field,
    message: String,
    accepted: String,
}

/// A field the new set's card has not, for `--json`.
#[derive(Serialize)]
struct DroppedOut {
    field: Field,
    cards: usize,
}

/// What a conversion did, for `--json`.
#[derive(Serialize)]
struct ConvertOut {
    file: String,
    from: Option<String>,
    to: String,
    out: String,
    cards: usize,
    carried: usize,
    to_fill: Vec<FillOut>,
    dropped: Vec<DroppedOut>,
    header_dropped: Vec<String>,
}

/// Runs `kepi cards convert`.
pub fn run(a: &ConvertArgs) -> Result<(), CliError> {
    let out = a.out.as_path();
    kepi_game::fsio::refuse_game_file(out).map_err(|e| CliError::usage(format!("--out: {e}")))?;
    if out.extension().is_none_or(|e| e != "toml") {
        return Err(CliError::usage(format!(
            "--out: {} is not a .toml card file",
            out.display()
        )));
    }
    if std::fs::symlink_metadata(out).is_ok() && !a.force {
        return Err(CliError::usage(format!(
            "--out: {} exists; give --force to replace it",
            out.display()
        )));
    }
    kepi_game::fsio::check_replaceable(out).map_err(|e| CliError::usage(format!("--out: {e}")))?;
    let name = a.file.display().to_string();
    let text = kepi_game::fsio::read_regular_string(
        &a.file,
        kepi_game::tables::MAX_FILE_BYTES,
        "card file",
    )
    .map_err(|e| CliError::usage(format!("FILE: {}", e.message())))?;
    let dir = a.file.parent().map(Path::to_path_buf);
    let oob = OrderOfBattle::from_source(&name, &text, dir.as_deref())
        .map_err(|e| CliError::usage(e.to_string()))?;
    let from = oob.header.system;
    if from == Some(a.to) {
        return Err(CliError::usage(format!(
            "--to: {} is already a {} card file (`{}`)",
            shown(&name),
            a.to.title(),
            a.to.id()
        )));
    }
    let (converted, report) = oob.convert(a.to);
    kepi_game::fsio::write_output(out, converted.draft_toml().as_bytes())
        .map_err(|e| CliError::failed(e.to_string()))?;
    let to_fill: Vec<FillOut> = converted
        .errors()
        .iter()
        .map(|e| FillOut {
            unit: converted
                .draft(e.key)
                .map_or("?", |d| d.label())
                .to_string(),
            field: e.field,
            message: e.message.clone(),
            accepted: e.accepted.clone(),
        })
        .collect();
    let r = ConvertOut {
        file: name,
        from: from.map(|s| s.id().to_string()),
        to: a.to.id().to_string(),
        out: out.display().to_string(),
        cards: converted.len(),
        carried: report.carried,
        to_fill,
        dropped: report
            .dropped
            .iter()
            .map(|(f, n)| DroppedOut {
                field: *f,
                cards: *n,
            })
            .collect(),
        header_dropped: report.header_dropped,
    };
    if a.json {
        return print_json(&r);
    }
    outln!(
        "wrote {} ({} unit cards for {} from {}: {} fields carried, {} to fill)",
        shown(&r.out),
        r.cards,
        r.to,
        shown(&r.file),
        r.carried,
        r.to_fill.len()
    );
    if !r.dropped.is_empty() {
        let dropped: Vec<String> = r
            .dropped
            .iter()
            .map(|d| format!("{} ({} cards)", d.field, d.cards))
            .collect();
        outln!(
            "not on a {} card, left out: {}",
            a.to.title(),
            dropped.join(", ")
        );
    }
    for h in &r.header_dropped {
        textln!("left out of the header: {h}");
    }
    if !r.to_fill.is_empty() {
        outln!(
            "to fill (each marked `# TO FILL:` in the file; the window's order-of-battle builder opens it, each at its field):"
        );
        for f in r.to_fill.iter().take(LISTED) {
            textln!(
                "  {}, {}: {} (accepted: {})",
                f.unit,
                f.field,
                f.message,
                f.accepted
            );
        }
        if r.to_fill.len() > LISTED {
            outln!("  ... and {} more", r.to_fill.len() - LISTED);
        }
    }
    Ok(())
}
