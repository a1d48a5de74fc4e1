//! `kepi resolve pk ...` (actions arrive with the rule-set issue).

use clap::Subcommand;

use super::Ctx;
use crate::cli::CliError;
use crate::rules::Resolution;

/// The pk actions.
#[derive(Debug, Subcommand)]
pub enum PkAction {}

/// Resolves one pk action.
pub fn run(action: &PkAction, _ctx: Ctx<'_>) -> Result<Resolution<serde_json::Value>, CliError> {
    match *action {}
}
