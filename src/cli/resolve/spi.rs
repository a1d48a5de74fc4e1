//! `kepi resolve spi ...` (actions arrive with the rule-set issue).

use clap::Subcommand;

use super::Ctx;
use crate::cli::CliError;
use crate::rules::Resolution;

/// The spi actions.
#[derive(Debug, Subcommand)]
pub enum SpiAction {}

/// Resolves one spi action.
pub fn run(action: &SpiAction, _ctx: Ctx<'_>) -> Result<Resolution<serde_json::Value>, CliError> {
    match *action {}
}
