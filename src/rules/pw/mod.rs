//! Portable Wargame: rules not yet implemented (see the rule-set issue).

use serde::Deserialize;

use crate::tables::{Check, RuleTable, TableError};

/// The Portable Wargame tables (`tables/pw.toml`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PwTables {
    /// The rule set id, "pw".
    pub system: String,
}

impl RuleTable for PwTables {
    const FILE: &'static str = "pw.toml";
    const BUILTIN: &'static str = include_str!("../../../tables/pw.toml");

    fn validate(&self, check: &Check<'_>) -> Result<(), TableError> {
        if self.system != "pw" {
            return Err(check.error(
                0..0,
                "system",
                format!("`{}` is not this file's rule set", self.system),
                "pw",
            ));
        }
        Ok(())
    }
}
