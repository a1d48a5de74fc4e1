//! SPI Franco-Prussian War: rules not yet implemented (see the rule-set issue).

use serde::Deserialize;

use crate::tables::{Check, RuleTable, TableError};

/// The SPI Franco-Prussian War tables (`tables/spi.toml`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpiTables {
    /// The rule set id, "spi".
    pub system: String,
}

impl RuleTable for SpiTables {
    const FILE: &'static str = "spi.toml";
    const BUILTIN: &'static str = include_str!("../../../tables/spi.toml");

    fn validate(&self, check: &Check<'_>) -> Result<(), TableError> {
        if self.system != "spi" {
            return Err(check.error(
                0..0,
                "system",
                format!("`{}` is not this file's rule set", self.system),
                "spi",
            ));
        }
        Ok(())
    }
}
