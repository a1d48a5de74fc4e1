//! `kepi calendar RULE_SET --turn N`: the dates a turn (SPI) or calendar cell (1870) covers, for a rule set that keeps a calendar.
//!
//! JSON: `{"turn", "start", "end", "marks"?}` with ISO dates (SPI-T1, FR-T1).

use clap::Args;

use super::{CliError, print_json};
use kepi_game::rules::{RuleSetId, Tables};

/// The rule sets that keep a calendar (a game-turn has its dates, [`RuleSet::date_of_turn`]), as
/// `kepi calendar`'s first word: the registry's, a rule set registered at run time included.
///
/// [`RuleSet::date_of_turn`]: kepi_game::engine::rule_set::RuleSet::date_of_turn
fn calendar_rule_sets() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        kepi_game::registry::all()
            .into_iter()
            .filter(|s| {
                kepi_game::registry::get(*s)
                    .date_of_turn(None, 1, 1)
                    .is_some()
            })
            .map(|s| clap::builder::PossibleValue::new(s.id()).help(s.title())),
    )
}

/// `kepi calendar ...`
#[derive(Debug, Args)]
pub struct CalendarArgs {
    /// The rule set (one that keeps a calendar).
    #[arg(value_parser = calendar_rule_sets(), value_name = "RULE_SET")]
    pub system: String,
    /// The game-turn (SPI) or calendar cell (1870), from 1.
    #[arg(long, value_name = "N")]
    pub turn: u32,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `kepi calendar`.
pub fn run(a: &CalendarArgs, tables_dir: Option<&std::path::Path>) -> Result<(), CliError> {
    let loaded;
    let tables: &Tables = match tables_dir {
        Some(d) => {
            loaded = kepi_game::registry::load_tables(Some(d))?;
            &loaded
        }
        None => kepi_game::registry::builtin_tables()?,
    };
    let system: RuleSetId = a.system.parse().map_err(CliError::usage)?;
    let entry = kepi_game::registry::get(system)
        .calendar(a.turn, tables)
        .ok_or_else(|| CliError::usage(format!("{system} keeps no calendar")))??;
    if a.json {
        return print_json(&entry);
    }
    outln!(
        "turn {}: {} to {}",
        entry.turn,
        entry.start.format("%-d %b %Y"),
        entry.end.format("%-d %b %Y")
    );
    for m in &entry.marks {
        outln!("  {m}");
    }
    Ok(())
}
