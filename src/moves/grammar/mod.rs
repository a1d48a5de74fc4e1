//! The grammar of a resolution: `kepi resolve SYSTEM ACTION`'s options per rule set, declared once
//! with clap and spoken by `kepi resolve`, `kepi game apply`'s resolution verbs, the host of
//! `kepi serve` and the window's networked requests alike. Running one returns the
//! [`Resolution`]; printing it is the command line's business (`src/cli/resolve`).

pub mod fr1870;
pub mod gsp;
pub mod pk;
pub mod pw;
pub mod spi;

use clap::Subcommand;

use super::MoveError;
pub use crate::engine::verbs::{Ctx, text_inches};
use crate::rules::Resolution;

/// The rule sets.
#[derive(Debug, Subcommand)]
pub enum ResolveSystem {
    /// Pickelhaube & Kepi (d10, d%).
    #[command(subcommand)]
    Pk(pk::PkAction),
    /// Portable Wargame, Franco-Prussian variant (d6, hexes).
    #[command(subcommand)]
    Pw(pw::PwAction),
    /// Graveyard St. Privat artillery (d6, 2d6 accuracy of aim).
    #[command(subcommand)]
    Gsp(gsp::GspAction),
    /// SPI Franco-Prussian War (odds-ratio CRT).
    #[command(subcommand)]
    Spi(spi::SpiAction),
    /// 1870 (odds-ratio CRT).
    #[command(subcommand)]
    Fr1870(fr1870::Fr1870Action),
}

/// The clap declaration of `kepi resolve SYSTEM FORM` (before the global dice flags join it):
/// `kepi game apply` parses a resolution verb's options with it, so each option is declared once,
/// here, for both commands.
pub fn form_command(system: &str, form: &str) -> Option<clap::Command> {
    command_tree()
        .find_subcommand(system)?
        .find_subcommand(form)
        .cloned()
}

/// Resolves one parsed `kepi resolve SYSTEM ACTION`: the same call from the command and from
/// `kepi game apply` (whose unit-less verbs are these actions, rolled with the game's dice).
pub fn run_system(
    system: &ResolveSystem,
    ctx: Ctx<'_>,
) -> Result<Resolution<serde_json::Value>, MoveError> {
    let scale = ctx.scale;
    match system {
        ResolveSystem::Pk(x) => pk::run(x, ctx),
        ResolveSystem::Pw(x) => pw::run(x, ctx),
        ResolveSystem::Gsp(x) => gsp::run(x, ctx),
        ResolveSystem::Spi(x) => spi::run(x, ctx),
        ResolveSystem::Fr1870(x) => fr1870::run(x, ctx),
    }
    .map_err(|e| e.at_scale(&scale))
}

/// The `kepi resolve` command tree (every rule set and action), for `kepi game apply` to parse a
/// unit-less resolution verb with.
/// Built once per process: every command line builds `kepi game apply`'s help from it.
pub fn command_tree() -> &'static clap::Command {
    use clap::Subcommand as _;
    static TREE: std::sync::OnceLock<clap::Command> = std::sync::OnceLock::new();
    TREE.get_or_init(|| ResolveSystem::augment_subcommands(clap::Command::new("resolve")))
}
