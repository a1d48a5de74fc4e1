//! `kepi resolve gsp ...` (actions arrive with the rule-set issue).

use clap::Subcommand;

use super::Ctx;
use crate::cli::CliError;
use crate::rules::Resolution;

/// The gsp actions.
#[derive(Debug, Subcommand)]
pub enum GspAction {}

/// Resolves one gsp action.
pub fn run(action: &GspAction, _ctx: Ctx<'_>) -> Result<Resolution<serde_json::Value>, CliError> {
    match *action {}
}
