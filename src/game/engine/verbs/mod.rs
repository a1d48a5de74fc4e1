//! What a rule set's move language is made of, below the rule sets: the typed [`MoveError`]
//! (usage, refused, failed) every verb and `kepi resolve` action answers with, the range-checked
//! number parsers of their flags ([`num`]), and what a `kepi resolve` action is run with ([`Ctx`],
//! [`text_inches`]), and a resolution verb of `kepi game apply` as a rule set declares it
//! ([`VerbSpec`], [`Given`]). The rule sets declare their grammars with these in their own folders
//! (`src/game/rules/<set>/grammar.rs`); `src/middle/moves` speaks them. Names no rule set.

pub mod num;
pub mod spec;

pub use spec::{Engage, Given, Overlay, Units, VerbSpec, no_extra, no_options, set, set_some};

use std::fmt;

use crate::dice::DiceSource;
use crate::engine::game::ActionError;
use crate::rules::Tables;

/// What kind of "no" a move got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveErrorKind {
    /// The words do not parse (an unknown verb, a bad number, a missing unit): fix the typing.
    Usage,
    /// The words parse but the game refuses them (the impossible: a unit that is not there, a die
    /// the rule set does not roll, an undo with nothing to undo).
    Refused,
    /// Not the user's doing: the journal or the save could not be written.
    Failed,
}

/// A move that was not made, and why, in words for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveError {
    /// Usage, refused or failed.
    pub kind: MoveErrorKind,
    /// One line (or a few) naming the problem.
    pub message: String,
}

impl MoveError {
    /// The same error with the distances of its message printed at a game's scale (issue 28):
    /// a refusal names the range as the umpire measured it.
    pub fn at_scale(self, scale: &crate::rules::Scale) -> Self {
        MoveError {
            kind: self.kind,
            message: scale.localize(&self.message),
        }
    }

    /// Words that do not parse.
    pub fn usage(message: impl Into<String>) -> Self {
        MoveError {
            kind: MoveErrorKind::Usage,
            message: message.into(),
        }
    }

    /// Words the game refuses.
    pub fn refused(message: impl Into<String>) -> Self {
        MoveError {
            kind: MoveErrorKind::Refused,
            message: message.into(),
        }
    }

    /// A failure that is not the user's typing (I/O).
    pub fn failed(message: impl Into<String>) -> Self {
        MoveError {
            kind: MoveErrorKind::Failed,
            message: message.into(),
        }
    }
}

impl MoveErrorKind {
    /// The exit status a command gives it (the command line's, and the host's answer to a remote
    /// `kepi remote apply`, which exits with it): 2 for usage and refusals, 1 for a failure.
    pub fn code(self) -> u8 {
        match self {
            MoveErrorKind::Usage | MoveErrorKind::Refused => 2,
            MoveErrorKind::Failed => 1,
        }
    }
}

impl MoveError {
    /// [`MoveErrorKind::code`] of this error.
    pub fn code(&self) -> u8 {
        self.kind.code()
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for MoveError {}

impl From<ActionError> for MoveError {
    fn from(e: ActionError) -> Self {
        MoveError::refused(e.to_string())
    }
}

impl From<crate::tables::TableError> for MoveError {
    fn from(e: crate::tables::TableError) -> Self {
        MoveError::usage(e.to_string())
    }
}

impl From<crate::dice::DiceError> for MoveError {
    fn from(e: crate::dice::DiceError) -> Self {
        MoveError::usage(e.to_string())
    }
}

impl From<crate::rules::RuleError> for MoveError {
    fn from(e: crate::rules::RuleError) -> Self {
        MoveError::usage(e.to_string())
    }
}

/// What an action needs besides its own arguments.
pub struct Ctx<'a> {
    /// The rule tables in force.
    pub tables: &'a Tables,
    /// The dice: None with `--odds` (preview only).
    pub dice: Option<&'a mut DiceSource>,
    /// The scale distances are typed at (issue 28): a game's, or `kepi resolve --scale`; the
    /// text's own (inches, factor 1) otherwise. A bare `--range 30` is read in its unit.
    pub scale: crate::rules::Scale,
}

/// A distance typed at the table (`--range 30cm`), in the text's inches at `scale`, exactly; a
/// usage error naming the flag when it cannot be converted.
pub fn text_inches(
    d: crate::rules::Distance,
    scale: &crate::rules::Scale,
    flag: &str,
) -> Result<crate::dice::Ratio, MoveError> {
    scale
        .text_inches(d)
        .map_err(|e| MoveError::usage(format!("{flag} {d}: {e}")))
}

/// What a rule set's `kepi resolve` action resolves to.
pub type Resolved = Result<crate::rules::Resolution<serde_json::Value>, MoveError>;

/// Runs one parsed action from the matches of a rule set's command.
type Run = Box<dyn Fn(&clap::ArgMatches, Ctx<'_>) -> Resolved + Send + Sync>;

/// A rule set's `kepi resolve <id> ACTION` grammar, declared once with clap in the rule set's
/// folder (`src/game/rules/<set>/grammar.rs`) and returned by
/// [`crate::engine::rule_set::RuleSet::grammar`]: `kepi resolve` and `kepi game apply`'s
/// resolution verbs parse with it, and it runs what they parsed.
pub struct Grammar {
    /// The one line `kepi resolve --help` says of the rule set.
    about: &'static str,
    /// Adds the actions to the rule set's command.
    actions: fn(clap::Command) -> clap::Command,
    /// Resolves one parsed action from the matches of the rule set's command.
    run: Run,
}

impl Grammar {
    /// The grammar of the actions `A` (a clap-derived subcommand enum), resolved by `run`, under
    /// the one line `about`.
    pub fn of<A>(about: &'static str, run: fn(&A, Ctx<'_>) -> Resolved) -> Grammar
    where
        A: clap::Subcommand + clap::FromArgMatches + 'static,
    {
        Grammar {
            about,
            actions: A::augment_subcommands,
            run: Box::new(move |m: &clap::ArgMatches, ctx: Ctx<'_>| {
                let action = A::from_arg_matches(m).map_err(|e| MoveError::usage(e.to_string()))?;
                run(&action, ctx)
            }),
        }
    }

    /// `kepi resolve <id>`: the command named by the rule set's id, with its actions.
    pub fn command(&self, id: &'static str) -> clap::Command {
        let cmd = clap::Command::new(id)
            .subcommand_required(true)
            .arg_required_else_help(true);
        (self.actions)(cmd).about(self.about).long_about(None)
    }

    /// Resolves one parsed `kepi resolve <id> ACTION` (`m`: the matches of [`Grammar::command`]).
    pub fn run(&self, m: &clap::ArgMatches, ctx: Ctx<'_>) -> Resolved {
        (self.run)(m, ctx)
    }
}
