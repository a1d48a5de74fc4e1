//! The rule-set registry: the rule sets kepi was built with and any registered since, found by id.
//!
//! This is the one place a rule set is looked up by its id. The registry names no rule set: the
//! ones a program is built with are its composition root's to say (kepi's binary and facade,
//! `src/lib.rs`, with [`crate::rule_sets!`]: one line, read through [`built_in`]); a rule set added
//! at run time (a test's, or a club's build) registers with [`register`] and is then played,
//! saved, checked and reported like the built-in ones. A game is handed its rule set here, once:
//! when it is made (`RuleSetRef::from(RuleSetId)`) or its save is read (the `Deserialize` of
//! [`RuleSetRef`]); below this layer the engine asks that handle and never an id. Reading an id also
//! checks it is known, with one message listing the ids there are ([`RuleSetId`]'s `FromStr`). See
//! docs/ADDING_A_RULE_SET.md and docs/ARCHITECTURE.md.

use std::sync::RwLock;

pub use crate::engine::rule_set::{RuleSet, RuleSetRef};
use crate::roster::Scenario;
use crate::rules::RuleSetId;
use crate::tables::{TableError, Tables};

/// The hook the composition root fills at link time ([`crate::rule_sets!`]).
mod hook {
    unsafe extern "Rust" {
        /// The rule sets the program is built with, in menu order. Defined once per program by
        /// [`crate::rule_sets!`]: a program that links this crate without saying which rule sets
        /// it plays does not link ("undefined symbol: kepi_rule_sets").
        pub safe fn kepi_rule_sets() -> &'static [&'static dyn super::RuleSet];
    }
}

/// Says which rule sets a program is built with, in menu order: the one line a composition root
/// writes (kepi's is in `src/lib.rs`; a crate's own unit tests write theirs under `#[cfg(test)]`).
/// The registry reads them through [`built_in`](crate::registry::built_in).
///
/// ```ignore
/// kepi_game::rule_sets!(&kepi_sets::BUILT_IN);
/// ```
#[macro_export]
macro_rules! rule_sets {
    ($sets:expr) => {
        #[doc(hidden)]
        #[unsafe(no_mangle)]
        pub fn kepi_rule_sets() -> &'static [&'static dyn $crate::engine::rule_set::RuleSet] {
            $sets
        }
    };
}

/// The rule sets the program was built with, in menu order (what its composition root gave
/// [`crate::rule_sets!`]); [`all`] lists these and any registered since.
pub fn built_in() -> &'static [&'static dyn RuleSet] {
    hook::kepi_rule_sets()
}

/// Rule sets registered at run time, after the built-in ones.
static REGISTERED: RwLock<Vec<&'static dyn RuleSet>> = RwLock::new(Vec::new());

fn registered() -> Vec<&'static dyn RuleSet> {
    REGISTERED
        .read()
        .map(|v| v.clone())
        .unwrap_or_else(|e| e.into_inner().clone())
}

fn every() -> impl Iterator<Item = &'static dyn RuleSet> {
    built_in().iter().copied().chain(registered())
}

/// Why a rule set could not be registered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RegisterError {
    /// The id is taken.
    #[error("a rule set with id `{0}` is already registered")]
    Taken(&'static str),
    /// The id is not lower case ASCII letters and digits.
    #[error("rule set id `{0}` must be 1-16 lower case ASCII letters or digits")]
    BadId(&'static str),
}

/// Registers a rule set and returns its [`RuleSetId`]. Registering the same rule set (same object)
/// again returns the same `RuleSetId`; another rule set with a taken id is refused.
pub fn register(rules: &'static dyn RuleSet) -> Result<RuleSetId, RegisterError> {
    let id = rules.id();
    if id.is_empty()
        || id.len() > 16
        || !id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    {
        return Err(RegisterError::BadId(id));
    }
    let mut list = REGISTERED.write().unwrap_or_else(|e| e.into_inner());
    let same = |r: &&'static dyn RuleSet| std::ptr::addr_eq(*r as *const _, rules as *const _);
    if list.iter().any(same) {
        return Ok(RuleSetId::new_registered(id));
    }
    if built_in().iter().chain(list.iter()).any(|r| r.id() == id) {
        return Err(RegisterError::Taken(id));
    }
    list.push(rules);
    crate::rules::RuleId::declare(rules.rule_ids());
    Ok(RuleSetId::new_registered(id))
}

/// The rule set behind a [`RuleSetId`]. A `RuleSetId` is a rule set's own (its constant, or
/// [`register`]'s answer), so this finds it in any program built with that rule set; were it ever
/// not found, the first rule set there is answers, and in a program built with none,
/// [`Unregistered`].
pub fn get(system: RuleSetId) -> &'static dyn RuleSet {
    // The built-in rule sets answer without taking the lock (this is asked per unit per frame).
    if let Some(r) = built_in().iter().find(|r| r.id() == system.id()) {
        return *r;
    }
    registered()
        .into_iter()
        .find(|r| r.id() == system.id())
        .unwrap_or_else(first_set)
}

/// The first rule set in menu order, or [`Unregistered`] in a program built with none.
fn first_set() -> &'static dyn RuleSet {
    every().next().unwrap_or(&Unregistered)
}

/// What answers for a rule set in a program built with none ([`get`]'s last resort, never met
/// in kepi): one movement phase for both sides, no forms, nothing to check.
pub struct Unregistered;

impl RuleSet for Unregistered {
    fn id(&self) -> &'static str {
        "none"
    }
    fn title(&self) -> &'static str {
        "no rule set (this program was built with none)"
    }
    fn phases(&self, _sides: &[crate::roster::Side]) -> Vec<crate::engine::game::clock::Phase> {
        vec![crate::engine::game::clock::Phase {
            side: None,
            step: crate::engine::game::clock::Step::Movement,
            number: 0,
        }]
    }
    fn turn_rule(&self) -> crate::rules::RuleId {
        crate::rules::RuleId::new("CAMP-R1")
    }
    fn forms(&self) -> Vec<crate::engine::play::Form> {
        Vec::new()
    }
    fn still_to_act(
        &self,
        _s: &crate::engine::game::GameState,
        _phase: Option<crate::engine::game::clock::Phase>,
        _u: &crate::engine::game::UnitState,
    ) -> bool {
        false
    }
    fn checklist(&self, _l: &mut crate::engine::flow::checklist::List<'_>) {}
}

/// The handle a game is given for a [`RuleSetId`] ([`get`]).
pub fn rules(system: RuleSetId) -> RuleSetRef {
    RuleSetRef::of(get(system))
}

impl From<RuleSetId> for RuleSetRef {
    fn from(system: RuleSetId) -> RuleSetRef {
        rules(system)
    }
}

/// The rule set with this id (case and surrounding blanks ignored), if one is registered.
pub fn find(id: &str) -> Option<RuleSetId> {
    let id = id.trim().to_ascii_lowercase();
    every()
        .find(|r| r.id() == id)
        .map(|r| RuleSetId::new_registered(r.id()))
}

/// The first rule set in menu order: what a card that names none is printed as.
pub fn first() -> RuleSetId {
    RuleSetId::new_registered(first_set().id())
}

/// Every rule set, built-in ones first, in menu order.
pub fn all() -> Vec<RuleSetId> {
    every().map(|r| RuleSetId::new_registered(r.id())).collect()
}

/// The rule sets that play `part` in a campaign, in menu order (`kepi campaign battle --rules`
/// and the window's fight dialog offer the [`CampaignPart::Battle`] ones).
///
/// [`CampaignPart::Battle`]: crate::engine::rule_set::CampaignPart::Battle
pub fn playing(part: crate::engine::rule_set::CampaignPart) -> Vec<RuleSetId> {
    every()
        .filter(|r| r.campaign_part() == Some(part))
        .map(|r| RuleSetId::new_registered(r.id()))
        .collect()
}

/// A rule set's place in menu order.
pub fn position(system: RuleSetId) -> usize {
    every()
        .position(|r| r.id() == system.id())
        .unwrap_or(usize::MAX)
}

/// Every compiled-in scenario of every rule set: (file name, TOML source).
pub fn scenarios() -> Vec<(&'static str, &'static str)> {
    every()
        .flat_map(|r| r.scenarios().iter().copied())
        .collect()
}

/// Every compiled-in scenario, validated.
pub fn builtin_scenarios() -> Result<Vec<Scenario>, crate::roster::CardError> {
    crate::roster::validate_scenarios(&scenarios())
}

/// A compiled-in scenario by name, or the list of names as the error.
pub fn builtin_scenario(name: &str) -> Result<Scenario, String> {
    crate::roster::pick_scenario(builtin_scenarios(), name)
}

/// What `--scenario` names, for every command that takes one (`kepi game new`, the exports): a
/// scenario `.toml` file that is there, else a compiled-in scenario by name. One reading, so a file
/// one command accepts the others accept too (issue 44).
pub fn scenario_named(name: &str) -> Result<Scenario, String> {
    let path = std::path::Path::new(name);
    if name.ends_with(".toml") && path.is_file() {
        crate::roster::load_roster_file(path).map_err(|e| e.to_string())
    } else {
        builtin_scenario(name)
    }
}

/// The table files of every rule set there is, in menu order ([`RuleSet::table`]).
pub fn table_files() -> Vec<crate::tables::TableFile> {
    every().filter_map(|r| r.table()).collect()
}

/// Every rule set's tables, each file from `dir` when it is there, else its built-in text
/// (`--tables DIR`).
pub fn load_tables(dir: Option<&std::path::Path>) -> Result<Tables, TableError> {
    Tables::load(&table_files(), dir)
}

/// The shipped tables, read once. A rule set registered later reads its own built-in table when
/// it asks ([`Tables::get`]).
pub fn builtin_tables() -> Result<&'static Tables, TableError> {
    static BUILTIN: std::sync::OnceLock<Result<Tables, TableError>> = std::sync::OnceLock::new();
    BUILTIN
        .get_or_init(|| load_tables(None))
        .as_ref()
        .map_err(Clone::clone)
}

/// `kepi tables check`: every rule set's table file in `dir` must read; provenance counts per file.
pub fn check_tables(
    dir: Option<&std::path::Path>,
) -> Result<Vec<crate::tables::TableReport>, TableError> {
    crate::tables::check_dir(&table_files(), dir)
}

/// What the layers below ask of a rule set named by id where a file names it (a card file's
/// `system`): answered here, by the rule set registered under that id.
impl RuleSetId {
    /// The rule set's name as printed ("Pickelhaube & Kepi").
    pub fn title(self) -> &'static str {
        get(self).title()
    }

    /// The rule set's unit card ([`RuleSet::card_spec`], issue 43).
    pub fn card_spec(self) -> crate::roster::spec::CardSpec {
        get(self).card_spec()
    }

    /// The qualities a card of this rule set may give ([`RuleSet::qualities`]).
    pub fn qualities(self) -> &'static [crate::roster::Quality] {
        get(self).qualities()
    }

    /// The leaders a card of `arm` has when it gives none ([`RuleSet::default_leaders`]).
    pub fn default_leaders(self, arm: crate::roster::Arm) -> u32 {
        get(self).default_leaders(arm)
    }

    /// The names of the markers the rule set puts on cells ([`RuleSet::cell_markers`]): what a
    /// scenario's `[[mark]]` accepts.
    pub fn cell_marker_names(self) -> Vec<&'static str> {
        get(self).cell_markers().iter().map(|k| k.name).collect()
    }

    /// True when the rule set plays on a hex map ([`RuleSet::uses_hexes`]).
    pub fn uses_hexes(self) -> bool {
        get(self).uses_hexes()
    }

    /// How the rule set's board numbers its cells ([`RuleSet::hex_layout`]): a map file's grid.
    pub fn hex_layout(self) -> crate::hex::Layout {
        get(self).hex_layout()
    }

    /// The rule set's terrain table ([`RuleSet::terrain_table`]), which a map's terrain names
    /// are checked against (issue 41).
    pub fn terrain_table(self) -> Option<crate::map::TerrainTable> {
        get(self).terrain_table()
    }

    /// The rule sets played on a hex map, in menu order (what a map file's `rules` accepts).
    pub fn hex_sets() -> Vec<RuleSetId> {
        every()
            .filter(|r| r.uses_hexes())
            .map(|r| RuleSetId::new_registered(r.id()))
            .collect()
    }
}

impl PartialOrd for RuleSetId {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Menu order: the order of registration (the five built-in rule sets first, as listed in `ALL`).
impl Ord for RuleSetId {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        position(*self)
            .cmp(&position(*other))
            .then_with(|| self.id().cmp(other.id()))
    }
}

/// An id is read here, where it is checked against the rule sets there are.
impl std::str::FromStr for RuleSetId {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        find(s).ok_or_else(|| {
            let ids: Vec<&str> = all().into_iter().map(RuleSetId::id).collect();
            unknown_id(s, &ids)
        })
    }
}

/// The refusal of an id no rule set has, listing the ids there are.
fn unknown_id(s: &str, ids: &[&str]) -> String {
    if ids.is_empty() {
        return format!("unknown rule set `{s}` (this program was built with none)");
    }
    format!("unknown rule set `{s}` (accepted: {})", ids.join(", "))
}

impl<'de> serde::Deserialize<'de> for RuleSetId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let id = std::borrow::Cow::<'de, str>::deserialize(d)?;
        id.parse().map_err(serde::de::Error::custom)
    }
}

/// A save's `system` is read into the game's handle here: the game is handed its rule set once.
impl<'de> serde::Deserialize<'de> for RuleSetRef {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        RuleSetId::deserialize(d).map(rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_built_with_no_rule_set_reads_no_id() {
        // This crate's tests are built with no rule set (the store's register `Unregistered`,
        // which answers to "none", whenever they run).
        assert!(built_in().is_empty());
        assert_eq!(find("pk"), None);
        assert_eq!(get(RuleSetId::new_registered("pk")).id(), "none");
        let e = "pk".parse::<RuleSetId>().unwrap_err();
        assert!(e.starts_with("unknown rule set `pk` ("), "{e}");
        assert_eq!(
            unknown_id("pk", &[]),
            "unknown rule set `pk` (this program was built with none)"
        );
        assert_eq!(
            unknown_id("x", &["pk", "pw"]),
            "unknown rule set `x` (accepted: pk, pw)"
        );
    }
}
