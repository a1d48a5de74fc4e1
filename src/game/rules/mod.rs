//! The rules' shared vocabulary: what every rule set resolves into and is named by.
//!
//! A rule set resolves its mechanics into a [`Resolution`]: modifier lines with rule ids and
//! provenance, the dice, the outcome and the exact odds. The window, the CLI and the tests all call
//! these same functions. The five sets kepi ships live in their own crate, `kepi-sets`
//! (`src/sets`), above this one; the odds-ratio CRT engine SPI and 1870 share is here (`crt`).

pub mod crt;
pub mod glossary;
pub mod limits;
pub mod outcome;
mod resolution;
pub mod scale;

pub use crate::tables::{TableReport, Tables};
pub use outcome::Outcome;
pub use resolution::{
    ALL_RULE_IDS, BY_HAND, Effect, ModifierLine, OddsLine, Resolution, RuleError, RuleId,
    RuleSetId, count, marks_before_issue_46, odds_from, rolled_line, words_before_issue_46,
};
pub use scale::{Distance, Scale};

/// SPI-C1, FR-C1: how a roll into a chart cell kepi does not know ends its refusal: the seeded
/// dice did not move, so the same roll shows the same die. The host of `kepi serve` spends those
/// dice for a seat with hidden strengths instead (issue 44) and words it otherwise.
pub const SAME_FACE: &str =
    "roll again (kepi's dice show the same face; dice of your own are entered again)";
