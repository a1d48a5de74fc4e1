//! Graveyard St. Privat: rules not yet implemented (see the rule-set issue).

use serde::Deserialize;

use crate::tables::{Check, RuleTable, TableError};

/// The Graveyard St. Privat tables (`tables/gsp.toml`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GspTables {
    /// The rule set id, "gsp".
    pub system: String,
}

impl RuleTable for GspTables {
    const FILE: &'static str = "gsp.toml";
    const BUILTIN: &'static str = include_str!("../../../tables/gsp.toml");

    fn validate(&self, check: &Check<'_>) -> Result<(), TableError> {
        if self.system != "gsp" {
            return Err(check.error(
                0..0,
                "system",
                format!("`{}` is not this file's rule set", self.system),
                "gsp",
            ));
        }
        Ok(())
    }
}
