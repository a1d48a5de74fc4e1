//! `kepi calendar spi|fr1870 --turn N`: the dates a turn (SPI) or calendar cell (1870) covers.
//!
//! JSON: `{"turn", "start", "end", "marks"?}` with ISO dates (SPI-T1, FR-T1).

use clap::{Args, ValueEnum};

use super::{CliError, print_json};
use crate::rules::{System, Tables};

/// The rule sets with a three-day calendar.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CalendarSystem {
    /// SPI Franco-Prussian War: game-turns 1-11 (1 Aug - 2 Sep 1870).
    Spi,
    /// 1870: calendar cells from 1 (1 Aug 1870); the situations end at cell 61 (30 Jan 1871).
    Fr1870,
}

impl CalendarSystem {
    /// The rule set, whose calendar `kepi calendar` prints ([`crate::engine::rule_set::RuleSet::calendar`]).
    fn system(self) -> System {
        match self {
            CalendarSystem::Spi => System::Spi,
            CalendarSystem::Fr1870 => System::Fr1870,
        }
    }
}

/// `kepi calendar ...`
#[derive(Debug, Args)]
pub struct CalendarArgs {
    /// The rule set.
    #[arg(value_enum)]
    pub system: CalendarSystem,
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
            loaded = crate::registry::load_tables(Some(d))?;
            &loaded
        }
        None => crate::registry::builtin_tables()?,
    };
    let system = a.system.system();
    let entry = crate::registry::get(system)
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
