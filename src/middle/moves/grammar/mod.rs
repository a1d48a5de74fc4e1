//! The grammar of a resolution: `kepi resolve SYSTEM ACTION`'s options per rule set, each declared
//! once with clap in the rule set's own folder ([`kepi_game::engine::rule_set::RuleSet::grammar`],
//! `src/game/rules/<set>/grammar.rs`) and spoken by `kepi resolve`, `kepi game apply`'s resolution
//! verbs, the host of `kepi serve` and the window's networked requests alike. The command tree is
//! built from the registry's rule sets, in menu order. Running one returns the [`Resolution`];
//! printing it is the command line's business (`src/cli/resolve`).

use std::sync::Mutex;

use clap::{ArgMatches, Command, FromArgMatches, Subcommand};

use super::MoveError;
pub use kepi_game::engine::verbs::{Ctx, text_inches};
use kepi_game::registry::RuleSetRef;
use kepi_game::rules::{Resolution, RuleSetId};

/// One parsed `kepi resolve SYSTEM ACTION`: the rule set, and the matches of its command (its
/// action and options), run by the rule set itself ([`run_system`]).
#[derive(Clone, Debug)]
pub struct ResolveRuleSet {
    rules: RuleSetRef,
    matches: ArgMatches,
}

impl ResolveRuleSet {
    /// The rule set the action is of.
    pub fn rules(&self) -> RuleSetRef {
        self.rules
    }
}

/// The rule sets that have a `kepi resolve` grammar, with it, in menu order.
fn grammars() -> impl Iterator<Item = Command> {
    kepi_game::registry::all().into_iter().filter_map(|s| {
        let rules = RuleSetRef::from(s);
        rules.grammar().map(|g| g.command(rules.id()))
    })
}

impl Subcommand for ResolveRuleSet {
    fn augment_subcommands(cmd: Command) -> Command {
        grammars().fold(cmd, Command::subcommand)
    }

    fn augment_subcommands_for_update(cmd: Command) -> Command {
        Self::augment_subcommands(cmd)
    }

    fn has_subcommand(name: &str) -> bool {
        command_tree().find_subcommand(name).is_some()
    }
}

impl FromArgMatches for ResolveRuleSet {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let missing = || clap::Error::new(clap::error::ErrorKind::MissingSubcommand);
        let (name, sub) = m.subcommand().ok_or_else(missing)?;
        let system = kepi_game::registry::find(name)
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidSubcommand))?;
        Ok(ResolveRuleSet {
            rules: RuleSetRef::from(system),
            matches: sub.clone(),
        })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

/// The clap declaration of `kepi resolve SYSTEM FORM` (before the global dice flags join it):
/// `kepi game apply` parses a resolution verb's options with it, so each option is declared once,
/// in the rule set's grammar, for both commands.
pub fn form_command(system: &str, form: &str) -> Option<clap::Command> {
    command_tree()
        .find_subcommand(system)?
        .find_subcommand(form)
        .cloned()
}

/// Resolves one parsed `kepi resolve SYSTEM ACTION`: the same call from the command and from
/// `kepi game apply` (whose unit-less verbs are these actions, rolled with the game's dice).
pub fn run_system(
    system: &ResolveRuleSet,
    ctx: Ctx<'_>,
) -> Result<Resolution<serde_json::Value>, MoveError> {
    let scale = ctx.scale;
    let grammar = system.rules.grammar().ok_or_else(|| {
        MoveError::usage(format!(
            "{} has no `kepi resolve` actions",
            system.rules.title()
        ))
    })?;
    grammar
        .run(&system.matches, ctx)
        .map_err(|e| e.at_scale(&scale))
}

/// The `kepi resolve` command tree (every rule set with a grammar, and its actions), for
/// `kepi game apply` to parse a unit-less resolution verb with.
/// Built once per process for the rule sets registered (every command line builds `kepi game
/// apply`'s help from it); again only if a rule set is registered after it was built.
pub fn command_tree() -> &'static clap::Command {
    type Built = (Vec<RuleSetId>, &'static Command);
    static TREES: Mutex<Vec<Built>> = Mutex::new(Vec::new());
    let sets = kepi_game::registry::all();
    let mut trees = TREES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, tree)) = trees.iter().find(|(k, _)| *k == sets) {
        return tree;
    }
    let tree: &'static Command = Box::leak(Box::new(ResolveRuleSet::augment_subcommands(
        Command::new("resolve"),
    )));
    trees.push((sets, tree));
    tree
}
