//! 1870: rules not yet implemented (see the rule-set issue).

use serde::Deserialize;

use crate::tables::{Check, RuleTable, TableError};

/// The 1870 tables (`tables/fr1870.toml`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fr1870Tables {
    /// The rule set id, "fr1870".
    pub system: String,
}

impl RuleTable for Fr1870Tables {
    const FILE: &'static str = "fr1870.toml";
    const BUILTIN: &'static str = include_str!("../../../tables/fr1870.toml");

    fn validate(&self, check: &Check<'_>) -> Result<(), TableError> {
        if self.system != "fr1870" {
            return Err(check.error(
                0..0,
                "system",
                format!("`{}` is not this file's rule set", self.system),
                "fr1870",
            ));
        }
        Ok(())
    }
}
