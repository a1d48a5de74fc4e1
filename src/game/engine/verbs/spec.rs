//! One resolution verb of `kepi game apply`, as a rule set declares it: the verb, its form, the
//! `kepi resolve` command whose options it takes ([`VerbSpec`]), and how the options typed are
//! read ([`Given`]) and laid over the form pre-filled from the units ([`Overlay`]). The rule sets
//! list theirs in their folders (`src/game/rules/<set>/verbs.rs`); `src/middle/moves/play.rs` parses and
//! applies them. Names no rule set.

use std::collections::BTreeSet;
use std::sync::Mutex;

use clap::parser::ValueSource;
use clap::{ArgMatches, Command};

use super::{MoveError, text_inches};
use crate::dice::Ratio;
use crate::engine::game::GameState;
use crate::engine::play::Form;
use crate::roster::Position;
use crate::rules::Tables;

/// How a verb names its units.
#[derive(Clone, Copy, Debug)]
pub enum Units {
    /// One unit (`rally UNIT`).
    One(&'static str),
    /// The acting unit and its target (`fire FIRER TARGET`).
    Two(&'static str, &'static str),
    /// Several attackers against every enemy unit in a hex (`--attackers A,B --hex HEX`, SPI-C2,
    /// FR-C1), engaged by the rule set's own [`Engage`].
    Hex(Engage),
}

/// Pre-fills a combat's form with the units engaged when `attackers` attack `hex` (every enemy
/// unit in it defends), or says why they cannot (a hex holding a friendly unit, attackers of two
/// sides); the form untouched then.
pub type Engage = fn(&mut Form, &GameState, &[String], Position) -> Result<(), String>;

/// Applies the options typed after a verb onto its pre-filled form.
pub type Overlay = fn(&Given, &mut Form, &Tables) -> Result<(), MoveError>;

/// One resolution verb of `kepi game apply`: its name, its form, the `kepi resolve` command whose
/// options it takes. A rule set lists its own ([`crate::engine::rule_set::RuleSet::verb_specs`],
/// `src/game/rules/<set>/verbs.rs`).
#[derive(Debug)]
pub struct VerbSpec {
    /// The verb.
    pub verb: &'static str,
    /// Other names of the verb (GSP `fire`, as `kepi resolve gsp fire`).
    pub aliases: &'static [&'static str],
    /// The resolver form's name ([`Form::name`]).
    pub form: &'static str,
    /// `kepi resolve SYSTEM <resolve>`: the command whose options the verb takes.
    pub resolve: &'static str,
    /// How the verb names its units.
    pub units: Units,
    /// Options that stay required in play: the units cannot give them (P&K range).
    pub required: &'static [&'static str],
    /// Options of `kepi resolve` that mean nothing in play, with why (the units give them).
    pub refused: &'static [(&'static str, &'static str)],
    /// Options only play has (hit choices, attackers and hex), declared with clap derive.
    pub extra: fn(Command) -> Command,
    /// What the verb does, with its rule ids, for `kepi game apply --help`.
    pub what: &'static str,
    /// Applies the typed options.
    pub overlay: Overlay,
}

impl VerbSpec {
    /// True when `word` names this verb.
    pub fn named(&self, word: &str) -> bool {
        self.verb == word || self.aliases.contains(&word)
    }

    /// The verb's units, for messages and help.
    pub fn units_usage(&self) -> String {
        match self.units {
            Units::One(a) => a.to_string(),
            Units::Two(a, b) => format!("{a} {b}"),
            Units::Hex(_) => "--attackers A,B,... --hex HEX".to_string(),
        }
    }
}

/// The options a player typed after a verb: only what was typed counts; the rest comes from the
/// units. Records which options an overlay read, so a test proves each option is applied.
#[derive(Debug)]
pub struct Given {
    m: ArgMatches,
    verb: &'static str,
    read: Mutex<BTreeSet<String>>,
    /// The game's scale: a distance typed (`--range 30cm`, or bare in its unit) is converted
    /// with it, once, to the text's inches the form holds (issue 28).
    scale: crate::rules::Scale,
}

impl Clone for Given {
    fn clone(&self) -> Self {
        Given {
            m: self.m.clone(),
            verb: self.verb,
            read: Mutex::new(BTreeSet::new()),
            scale: self.scale,
        }
    }
}

impl Given {
    /// The options typed after `verb` (`m`, parsed by the verb's grammar), at the game's `scale`.
    pub fn new(m: ArgMatches, verb: &'static str, scale: crate::rules::Scale) -> Given {
        Given {
            m,
            verb,
            read: Mutex::new(BTreeSet::new()),
            scale,
        }
    }

    /// What was typed, as clap parsed it.
    pub fn matches(&self) -> &ArgMatches {
        &self.m
    }

    /// The game's scale the distances typed are read at (issue 28).
    pub fn scale(&self) -> &crate::rules::Scale {
        &self.scale
    }

    /// The options an overlay has read so far (a test proves each option is applied).
    pub fn read(&self) -> BTreeSet<String> {
        self.read.lock().map(|r| r.clone()).unwrap_or_default()
    }

    /// An overlay called with another rule set's form (a wrong row in a rule set's verbs).
    pub fn mismatch(&self) -> MoveError {
        MoveError::failed(format!("internal: `{}` got another form", self.verb))
    }

    /// The typed value of option `id` (its clap id, the field name), or None when not typed.
    pub fn get<T: Clone + Send + Sync + 'static>(&self, id: &str) -> Result<Option<T>, MoveError> {
        if let Ok(mut r) = self.read.lock() {
            r.insert(id.to_string());
        }
        let internal = |e: clap::parser::MatchesError| {
            MoveError::failed(format!("internal: `{}` option `{id}`: {e}", self.verb))
        };
        if !self.m.try_contains_id(id).map_err(internal)?
            || self.m.value_source(id) != Some(ValueSource::CommandLine)
        {
            return Ok(None);
        }
        Ok(self.m.try_get_one::<T>(id).map_err(internal)?.cloned())
    }

    /// The typed values of a repeatable option.
    pub fn get_many<T: Clone + Send + Sync + 'static>(
        &self,
        id: &str,
    ) -> Result<Vec<T>, MoveError> {
        if let Ok(mut r) = self.read.lock() {
            r.insert(id.to_string());
        }
        if self.m.value_source(id) != Some(ValueSource::CommandLine) {
            return Ok(Vec::new());
        }
        Ok(self
            .m
            .try_get_many::<T>(id)
            .map_err(|e| {
                MoveError::failed(format!("internal: `{}` option `{id}`: {e}", self.verb))
            })?
            .map(|v| v.cloned().collect())
            .unwrap_or_default())
    }

    /// A typed distance option, in the text's inches at the game's scale (issue 28).
    pub fn distance(&self, id: &str) -> Result<Option<Ratio>, MoveError> {
        match self.get::<crate::rules::Distance>(id)? {
            Some(d) => text_inches(d, &self.scale, &format!("`{}` --{id}", self.verb)).map(Some),
            None => Ok(None),
        }
    }

    /// Options the verb handles outside its overlay (refused in play, or the units of a combat).
    pub fn mark(&self, ids: &[&str]) {
        if let Ok(mut r) = self.read.lock() {
            r.extend(ids.iter().map(|id| id.to_string()));
        }
    }

    /// A usage error about option `id`.
    pub fn bad(&self, long: &str, m: impl std::fmt::Display) -> MoveError {
        MoveError::usage(format!("`{} --{long}`: {m}", self.verb))
    }
}

/// Sets `slot` when the option was typed.
pub fn set<T>(slot: &mut T, v: Option<T>) {
    if let Some(v) = v {
        *slot = v;
    }
}

/// Sets an optional `slot` when the option was typed.
pub fn set_some<T>(slot: &mut Option<T>, v: Option<T>) {
    if let Some(v) = v {
        *slot = Some(v);
    }
}

/// A verb with no options beyond its `kepi resolve` command's ([`VerbSpec::extra`]).
pub fn no_extra(c: Command) -> Command {
    c
}

/// A verb whose `kepi resolve` command has no options (SPI-E1's `eb`).
pub fn no_options(_g: &Given, _f: &mut Form, _t: &Tables) -> Result<(), MoveError> {
    Ok(())
}
