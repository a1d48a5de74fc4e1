//! Pickelhaube & Kepi: rules not yet implemented (see the rule-set issue).

use serde::Deserialize;

use crate::tables::{Check, RuleTable, TableError};

/// The Pickelhaube & Kepi tables (`tables/pk.toml`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PkTables {
    /// The rule set id, "pk".
    pub system: String,
}

impl RuleTable for PkTables {
    const FILE: &'static str = "pk.toml";
    const BUILTIN: &'static str = include_str!("../../../tables/pk.toml");

    fn validate(&self, check: &Check<'_>) -> Result<(), TableError> {
        if self.system != "pk" {
            return Err(check.error(
                0..0,
                "system",
                format!("`{}` is not this file's rule set", self.system),
                "pk",
            ));
        }
        Ok(())
    }
}
