//! `kepi resolve pw ...` (actions arrive with the rule-set issue).

use clap::Subcommand;

use super::Ctx;
use crate::cli::CliError;
use crate::rules::Resolution;

/// The pw actions.
#[derive(Debug, Subcommand)]
pub enum PwAction {}

/// Resolves one pw action.
pub fn run(action: &PwAction, _ctx: Ctx<'_>) -> Result<Resolution<serde_json::Value>, CliError> {
    match *action {}
}
