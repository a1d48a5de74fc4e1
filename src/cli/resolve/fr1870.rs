//! `kepi resolve fr1870 ...` (actions arrive with the rule-set issue).

use clap::Subcommand;

use super::Ctx;
use crate::cli::CliError;
use crate::rules::Resolution;

/// The fr1870 actions.
#[derive(Debug, Subcommand)]
pub enum Fr1870Action {}

/// Resolves one fr1870 action.
pub fn run(
    action: &Fr1870Action,
    _ctx: Ctx<'_>,
) -> Result<Resolution<serde_json::Value>, CliError> {
    match *action {}
}
