//! What a rule set's move language is made of, below the rule sets: the typed [`MoveError`]
//! (usage, refused, failed) every verb and `kepi resolve` action answers with, the range-checked
//! number parsers of their flags ([`num`]), and what a `kepi resolve` action is run with ([`Ctx`],
//! [`text_inches`]). The rule sets declare their grammars with these in their own folders
//! (`src/rules/<set>/grammar.rs`); `src/moves` speaks them. Names no rule set.

pub mod num;

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
