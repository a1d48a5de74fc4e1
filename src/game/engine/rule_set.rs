//! The rule-set trait: what the engine asks a rule set, and the handle a game is given.
//!
//! A game is handed its rule set once, when it is made or its save is read ([`RuleSetRef`], saved as
//! the rule set's id, exactly as saves always carried it); from then on the engine asks the
//! handle, never a registry. The implementations (`src/game/rules/<set>/set.rs`) and the list of them
//! (`src/game/registry`) sit above the engine.

use std::fmt;

use chrono::NaiveDate;
use serde_json::Value;

use crate::engine::flow::checklist::List;
use crate::engine::flow::{Event, Queue};
use crate::engine::game::clock::{Phase, Step};
use crate::engine::game::{Action, Counter, Flag, GameState, UnitState};
use crate::engine::play::Form;
use crate::engine::verbs::{Grammar, VerbSpec};
use crate::roster::{Arm, Quality, Side};
use crate::rules::{Outcome, RuleId, RuleSetId, Tables};

/// The part a rule set plays in a campaign (issue 30, [`RuleSet::campaign_part`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CampaignPart {
    /// A board game a campaign is played on: its combats may be fought as battles.
    Board,
    /// A table game a campaign's battles are fought with.
    Battle,
}

/// How a board game takes back a battle fought for one of its combats (issue 30, CAMP-C2,
/// CAMP-R1): what its [`RuleSet::campaign_return`] declares, so the campaign names no rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BattleReturn {
    /// CAMP-C2, CAMP-R1: the arms whose board units are places, not forces: they lose nothing
    /// from the table's losses and never retreat (1870's fortress card, FR-F1: a fortress is
    /// taken, not worn down). Empty: every engaged unit loses by the table.
    pub places: &'static [Arm],
    /// CAMP-R1: what the loser's engaged units do on the board after the battle.
    pub loser: AfterBattle,
}

/// CAMP-R1: what a battle's loser does on the board ([`BattleReturn::loser`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterBattle {
    /// Each engaged unit of the loser that is left and is no place carries this marker until it
    /// moves (1870: "must retreat", FR-C2): the rule set's marker kind.
    Marked(&'static crate::engine::game::UnitMarkerKind),
    /// The board game's combat has no retreats: nothing is marked, and this note (citing the
    /// rule) is logged with the return (SPI: the attackers advance only into a hex the defenders
    /// left, SPI-C4).
    Stays(&'static str),
}

/// One rule set, as the rest of kepi sees it. The defaults are those of a rule set with strength
/// only, no hexes, no checks and no scenario.
pub trait RuleSet: Send + Sync + 'static {
    /// The short id saves and the command line carry ("pk"); lower case ASCII, unique.
    fn id(&self) -> &'static str;

    /// Options a unit-less verb of `kepi game apply` takes from the game when they are not typed
    /// (`typed`: the words given, as `kepi resolve` reads them), as more words: SPI's `victory`
    /// counts the CP destroyed and isolated (SPI-W1). By default none.
    fn plain_defaults(&self, _verb: &str, _typed: &[String], _state: &GameState) -> Vec<String> {
        Vec::new()
    }

    /// Why a unit-less verb of `kepi game apply` cannot be made in this game because it names
    /// what is not there (`typed`: the words given): 1870's `siege --by` a unit the game does not
    /// have. Refused with exit 2 before anything is rolled or logged (issue 44: every verb refuses
    /// what names nothing in the game). By default nothing is refused.
    fn plain_refusal(&self, _verb: &str, _typed: &[String], _state: &GameState) -> Option<String> {
        None
    }

    /// What a unit-less verb of `kepi game apply` does to the game (its resolution's effects,
    /// applied with it as one step): 1870's `siege` lays a siege, `blockade` moves its calendar
    /// marker (FR-F1, FR-B1). By default nothing. Read from the state before it, so `kepi log
    /// verify` finds the same effects again.
    fn plain_effects(
        &self,
        _resolution: &crate::rules::Resolution<Value>,
        _state: &GameState,
    ) -> Vec<Action> {
        Vec::new()
    }

    /// What doing the due check `d` does to the units, applied with it as one step (SPI-S1: an
    /// isolated unit loses its CP); by default nothing (the umpire applies it by hand).
    fn due_effects(
        &self,
        _state: &GameState,
        _d: &crate::engine::flow::Due,
        _tables: &Tables,
    ) -> Vec<Action> {
        Vec::new()
    }

    /// The rule set's name as printed.
    fn title(&self) -> &'static str;

    /// True when the rule set plays on a hex map (the window's centre is then the map).
    fn uses_hexes(&self) -> bool {
        false
    }

    /// The phases of one game-turn, typed, in order, for the sides in order of play (never empty).
    fn phases(&self, sides: &[Side]) -> Vec<Phase>;

    /// Its table file, when it has one (`TableFile::of::<MyTables>()`): the registry reads it with
    /// the others (from `--tables DIR` when the folder has it, else its built-in text), `kepi
    /// tables` checks and dumps it, and the rule set reads it back with `tables.get::<MyTables>()`.
    /// By default none.
    fn table(&self) -> Option<crate::tables::TableFile> {
        None
    }

    /// The rule ids the rule set logs, beyond RULES.md's (which every built-in rule set uses): a
    /// save that names one of these reads back only while the rule set is registered.
    fn rule_ids(&self) -> &'static [&'static str] {
        &[]
    }

    /// The rule that defines the turn sequence (logged with each change of phase).
    fn turn_rule(&self) -> RuleId;

    /// The date a game-turn starts on: the scenario's date unless the rule set keeps a calendar.
    fn date_of_turn(
        &self,
        scenario_date: Option<NaiveDate>,
        _first_cell: u32,
        _turn: u32,
    ) -> Option<NaiveDate> {
        scenario_date
    }

    /// The dates game-turn (or calendar cell) `turn` covers, for a rule set that keeps a calendar
    /// (`kepi calendar`); None when it keeps none.
    fn calendar(
        &self,
        _turn: u32,
        _tables: &Tables,
    ) -> Option<Result<crate::rules::crt::CalendarEntry, crate::rules::RuleError>> {
        None
    }

    /// The part the rule set plays in a campaign (`kepi campaign`, the window's "Fight as a
    /// battle"); None (the default) when it takes none.
    fn campaign_part(&self) -> Option<CampaignPart> {
        None
    }

    /// The cells `u`, which must retreat, may retreat to now (FR-C2: one cell away, not into the
    /// enemy nor a cell the enemy controls unless a friend holds it); empty when none is open (a
    /// blocked retreat). What the map outlines and names. None (the default) where the rule set
    /// says nothing of where a retreat goes.
    fn retreat_cells(
        &self,
        _s: &GameState,
        _u: &UnitState,
    ) -> Option<Vec<crate::roster::Position>> {
        None
    }

    /// The units in one attack on one cell, for a rule set whose combat is between stacks and
    /// that plays a campaign's board ([`CampaignPart::Board`]; SPI-C2, FR-C1): `attackers` (ids,
    /// one side) against every enemy unit in `hex`, by id, or why not. What a campaign fights as
    /// a battle (CAMP-C1). By default refused: the set fights no battles between stacks.
    fn engage(
        &self,
        _state: &GameState,
        _attackers: &[String],
        _hex: crate::roster::Position,
    ) -> Result<(Vec<String>, Vec<String>), String> {
        Err(format!(
            "{} fights no combat between stacks on cells",
            self.title()
        ))
    }

    /// CAMP-C1: for a rule set a campaign's battles are fought with, the column of the campaign's
    /// conversion table that gives one table unit's strength in it (P&K's `pk_figures`, PW's
    /// `pw_sp`). None (the default): the set fights no campaign battles, or the table has no
    /// column for it, and a battle in it is refused rather than given another set's strengths.
    fn campaign_strength_column(&self) -> Option<&'static str> {
        None
    }

    /// CAMP-C2, CAMP-R1: for a board game a campaign is played on, how it takes back a battle
    /// fought for one of its combats: the arms that lose nothing and what the loser does
    /// ([`BattleReturn`]). None (the default): the set declares no way back, and the campaign
    /// refuses to make a battle of its combats (or to return one) rather than guess for it.
    fn campaign_return(&self) -> Option<BattleReturn> {
        None
    }

    /// A board game's due check when a battle fought for `hex` comes back won by the attackers
    /// and its defenders have left it: the rule and what it says (SPI-C4, FR-C2). By default
    /// none.
    fn advance_after_battle(
        &self,
        _hex: crate::roster::Position,
    ) -> Option<(&'static str, String)> {
        None
    }

    /// The dice the rule set rolls (an entered die of another kind is refused).
    fn dice(&self) -> &'static [crate::dice::Die] {
        &[crate::dice::Die::D6]
    }

    /// The markers a unit carries (the unit editor offers these only).
    fn flags(&self) -> &'static [Flag] {
        &[Flag::Moved, Flag::Fired]
    }

    /// The counts kept per unit.
    fn counters(&self) -> &'static [Counter] {
        &[Counter::Strength]
    }

    /// True when units have P&K's effectiveness levels (PK-E1).
    fn has_levels(&self) -> bool {
        false
    }

    /// True when units are in or out of supply (the unit editor sets it).
    fn has_supply(&self) -> bool {
        false
    }

    /// True when a fire can drift and the window offers the drift diagram.
    fn has_drift(&self) -> bool {
        false
    }

    /// With the `gui` feature, the window's Drift tab (offered when [`RuleSet::has_drift`]): the
    /// diagram of `game`'s last fire, with the resolver's `form` shown now. By default nothing.
    #[cfg(feature = "gui")]
    fn drift_ui(
        &self,
        _ui: &mut egui::Ui,
        _game: &crate::engine::game::Game,
        _form: Option<&Form>,
        _tables: &Tables,
    ) {
    }

    /// Issue 43: the rule set's unit card: the fields its cards use, what each accepts, its label
    /// and help ([`crate::roster::spec::CardSpec`]), declared once in the set's folder and read by
    /// the card loader, the writer, the CSV import and the builder. By default the generic card:
    /// every field and word, with [`RuleSet::qualities`], [`RuleSet::uses_hexes`] and
    /// [`RuleSet::strength_unit`].
    fn card_spec(&self) -> crate::roster::spec::CardSpec {
        crate::roster::spec::CardSpec::generic(
            self.title(),
            self.qualities(),
            self.uses_hexes(),
            self.strength_unit(Arm::Infantry),
        )
    }

    /// The qualities a card may give (none: the rule set has no classes).
    fn qualities(&self) -> &'static [Quality] {
        &[]
    }

    /// The leaders a card of `arm` has when it gives none.
    fn default_leaders(&self, _arm: Arm) -> u32 {
        0
    }

    /// What strength counts ("figures", "SP").
    fn strength_unit(&self, _arm: Arm) -> &'static str {
        "strength"
    }

    /// The fatigue scale printed on cards (0: the rule set keeps no fatigue).
    fn fatigue_max(&self) -> u32 {
        0
    }

    /// How the rule set's board numbers its hexes (which columns sit half a hex lower): every
    /// distance, adjacency, zone of control and retreat cell reads a label through it.
    fn hex_layout(&self) -> crate::hex::Layout {
        crate::hex::Layout::OddQ
    }

    /// The rule set's terrain table (issue 41): each terrain a map's cells and hexsides may carry,
    /// with its colour hint and its movement and combat effects as the text prints them (their
    /// provenance and rule id beside them; an effect the text does not print is `unknown`). A map
    /// file's terrain names are checked against it (`crate::map`). None (the default): the text
    /// prints no terrain table, and a map may carry the club's own (`[[terrain]]`).
    fn terrain_table(&self) -> Option<crate::map::TerrainTable> {
        None
    }

    /// The rule set's movement rules on a map (issue 42), as data: the costs that depend on the
    /// move so far, zones of control, stacking costs, closed countries, and what each arm does on
    /// the board ([`crate::engine::play::board::BoardRules`]). Applied by the map's search
    /// (`kepi game reach`, the window's shading, the cost of a move). None (the default): the
    /// terrain table's costs only, every enemy cell barred.
    fn board_rules(&self) -> Option<crate::engine::play::board::BoardRules> {
        None
    }

    /// Where `u` may go with `allowance` points when the rule set moves it otherwise than over
    /// the map's terrain (SPI-L1: an entrained unit along the rail line): what `kepi game reach`
    /// answers and the window's map shades for it, in place of the terrain's reach
    /// ([`crate::engine::play::board::board_reach`]). None (the default): the terrain's reach.
    fn own_reach(
        &self,
        _s: &GameState,
        _u: &UnitState,
        _allowance: u32,
    ) -> Option<crate::map::Reach> {
        None
    }

    /// The rule set's supply traced on a map (issue 42), as data: the limits, the zones that
    /// interrupt a supply line, the sources and what each arm is
    /// ([`crate::engine::play::supply::SupplyDecl`]), read with [`RuleSet::board_rules`]'s unit
    /// roles. Traced by `kepi game supply`, the window and the set's forms. None (the default):
    /// supply is the umpire's, as typed.
    fn supply_rules(&self) -> Option<crate::engine::play::supply::SupplyDecl> {
        None
    }

    /// Move and range as a roster prints them, where the rule set gives them.
    fn move_and_range(&self, _u: &UnitState, _t: &Tables) -> (Option<String>, Option<String>) {
        (None, None)
    }

    /// A unit's weapon range in hexes on the map, where the rule set reads one.
    fn hex_range(&self, _u: &UnitState, _date: Option<NaiveDate>, _t: &Tables) -> Option<u32> {
        None
    }

    /// Whether the map shades the acting unit's [`RuleSet::hex_range`] now: in `phase`, with the
    /// resolver on the form named `form` (issue 46: a range shaded while units move reads as a
    /// move allowance). By default in the fire phases; where the turn has no phase known, with
    /// the resolver on a form that fires. The phase decides where there is one: a fire form left
    /// open from the fire phase must not shade the movement phase's map.
    fn range_shaded(&self, phase: Option<Phase>, form: Option<&str>) -> bool {
        match phase {
            Some(p) => matches!(
                p.step,
                Step::ArtilleryFire | Step::RifleFire | Step::MovementAndFire
            ),
            None => form.is_some_and(|f| f.contains("fire")),
        }
    }

    /// True when the rule set's units move in `step` (`arriving`: a unit coming onto the map from
    /// off it): a move in another step is noted, never refused (issue 42: "any move in a phase
    /// that is not a movement phase"; the turn's rule, [`RuleSet::turn_rule`], says which). A move
    /// an open due check asks for (a retreat, a fall back, an advance after combat into the hex it
    /// names) is never noted. By default the movement steps ([`Step::Movement`],
    /// [`Step::MovementAndFire`]).
    fn moves_in(&self, step: Step, _arriving: bool) -> bool {
        matches!(step, Step::Movement | Step::MovementAndFire)
    }

    /// What is odd about moving `u` by `hexes` now (shown while dragging, logged with the move).
    fn move_warning(
        &self,
        _u: &UnitState,
        _hexes: u32,
        _date: Option<NaiveDate>,
        _t: &Tables,
    ) -> Option<String> {
        None
    }

    /// What the rules say against moving `u` to `to` now, beyond [`RuleSet::move_warning`]'s
    /// distance: a retreat or an advance after combat that breaks the text (1870 FR-C2, SPI EB
    /// units). Said while dragging and before `game apply` moves, logged with the move; the umpire
    /// goes ahead. Gathered by [`crate::engine::flow::move_notes`].
    /// `mp` is the move's cost in movement points ([`RuleSet::move_points`]), where counted.
    fn move_breaches(
        &self,
        _game: &crate::engine::game::Game,
        _u: &UnitState,
        _to: crate::roster::Position,
        _mp: Option<u32>,
    ) -> Vec<String> {
        Vec::new()
    }

    /// What moving `u` to `to` does to the board by the rule set's text, applied and logged
    /// with the move ([`Action::Move`]'s `effects`): the cell markers it puts on or takes off
    /// ([`Action::Mark`] of the set's [`RuleSet::cell_markers`]; SPI-E2's rail cut). Made by
    /// [`crate::engine::flow::move_action`] for every move a front end makes, and made again by
    /// `kepi log verify`. None by default.
    fn move_effects(
        &self,
        _s: &GameState,
        _u: &UnitState,
        _to: crate::roster::Position,
    ) -> Vec<Action> {
        Vec::new()
    }

    /// True when the rule set counts movement points ([`RuleSet::move_points`]; SPI).
    fn counts_movement_points(&self) -> bool {
        false
    }

    /// The movement points moving `u` to `to` now costs, where the rule set counts them (SPI):
    /// `stated` is the umpire's count from the printed map (`move UNIT HEX --mp N`). `None` (the
    /// default) where the rule set counts no points; `kepi game apply` then refuses `--mp`.
    fn move_points(
        &self,
        _game: &crate::engine::game::Game,
        _u: &UnitState,
        _to: crate::roster::Position,
        _stated: Option<u32>,
    ) -> Option<u32> {
        None
    }

    /// True when the map shows zones of control when it opens.
    fn zones_of_control(&self) -> bool {
        self.uses_hexes()
    }

    /// The rules an action by hand stands for (logged with it), beyond the generic ones.
    fn hand_rules(&self, _action: &Action) -> Vec<RuleId> {
        Vec::new()
    }

    /// The resolver forms, with default situations.
    fn forms(&self) -> Vec<Form>;

    /// The steps of the turn a form belongs to (empty: any time).
    fn form_steps(&self, _form: &str) -> &'static [Step] {
        &[]
    }

    /// True when the current phase waits for `u` to act.
    fn still_to_act(&self, s: &GameState, phase: Option<Phase>, u: &UnitState) -> bool;

    /// What else is odd about `u` resolving `form` now, beyond the phase and side (never refused).
    fn phase_warnings(&self, _s: &GameState, _form: &str, _u: &UnitState) -> Vec<String> {
        Vec::new()
    }

    /// True when `effect` is one a resolution of `action` records since issue 46 and earlier
    /// kepis did not log with the same result (SPI's and 1870's attackers marked as fired, PW's
    /// melee count): `kepi log verify` takes a result logged without all of them. None by default.
    fn recorded_since_issue_46(&self, _action: &str, _effect: &Action) -> bool {
        false
    }

    /// The kinds of marker the rule set puts on the board's cells (issue 45: SPI's Rail Cut
    /// markers, 1870's possession markers): the engine keeps them ([`Action::Mark`]) and the
    /// set's rules read them. None by default.
    fn cell_markers(&self) -> &'static [crate::engine::game::CellMarkerKind] {
        &[]
    }

    /// The roster's chip for flag `f` in the rule set's words (issue 45: what shows on the
    /// roster is the set's): by default the engine's ([`Flag::chip`]); a set words its own flags
    /// with their rule ids (1870's "must retreat one cell (FR-C2)").
    fn flag_chip(&self, f: Flag) -> Option<crate::engine::game::FlagChip> {
        f.chip()
    }

    /// The kinds of marker the rule set puts on its units beyond the engine's flags (issue 45):
    /// the engine keeps them ([`Action::MarkUnit`]), clears those of a turn when it ends, and the
    /// roster shows them; the set's rules read them ([`UnitState::has_mark`]). None by default.
    fn unit_markers(&self) -> &'static [crate::engine::game::UnitMarkerKind] {
        &[]
    }

    /// The markers of its kinds ([`RuleSet::unit_markers`]) a unit begins the game with, from its
    /// card (GSP-S1: a siege gun begins hidden). None by default.
    fn initial_marks(&self, unit: &crate::roster::Unit) -> Vec<&'static str> {
        let _ = unit;
        Vec::new()
    }

    /// The log revision ([`crate::engine::game::LOG_REVISION`]) since which kepi records
    /// `effect` among the effects of the rule set's `action` (`"move"` for a move's,
    /// [`RuleSet::move_effects`]): `kepi log verify` takes an entry of
    /// an earlier revision without it (an older kepi left it to the umpire), and an entry of that
    /// revision or later only with it. 0 (always recorded) by default.
    fn effect_revision(&self, _action: &str, _effect: &Action) -> u32 {
        0
    }

    /// What the check `d` asks as things stand in `s`, when the rule set says more than its queued
    /// words (1870's retreat, FR-C2: the cells open to it now). Derived each time it is shown, in
    /// the window and by `kepi game due`; the state keeps the queued words. None by default.
    fn due_now(&self, _s: &GameState, _d: &crate::engine::flow::Due) -> Option<String> {
        None
    }

    /// The words of the rule set's notes kepi gives since issue 42's audit and earlier kepis did
    /// not (a move or a roll they logged without them): `kepi log verify` takes an entry logged
    /// without a note holding one ([`crate::engine::play::breaches::noted_since_issue_42`]).
    /// None by default.
    fn noted_since_issue_42(&self) -> &'static [&'static str] {
        &[]
    }

    /// The words of the rule set's notes kepi gives since a later log revision than issue 42's,
    /// with that revision (SPI-L1's entrained move along no rail line, since 3): `kepi log
    /// verify` takes an entry of an earlier revision logged without such a note
    /// ([`crate::engine::play::breaches::same_but_newer`]). None by default.
    fn noted_since(&self) -> &'static [(u32, &'static str)] {
        &[]
    }

    /// The words of the rule set's notes whose judgment changed at a log revision, with that
    /// revision (SPI's allowance judged on the supply at the start of the Movement Phase, SPI-S1,
    /// since 4): in an entry of an earlier revision `kepi log verify` leaves such notes out of the
    /// comparison, logged or given now ([`crate::engine::play::breaches::same_but_newer`]).
    /// None by default.
    fn judged_anew_since(&self) -> &'static [(u32, &'static str)] {
        &[]
    }

    /// True when moving a unit answers the open check `due` (its retreat, withdrawal or fall
    /// back): such a move is not one made out of its phase
    /// ([`crate::engine::play::breaches::moved_out_of_phase`]). By default the checks queued as
    /// a move to make ([`crate::engine::flow::Queue::push_move`]).
    fn due_asks_move(&self, due: &crate::engine::flow::Due) -> bool {
        due.by_move
    }

    /// The label an earlier kepi logged a die of `action` under, when issue 46 renamed it (PW's
    /// melee dice say whose since: "attacker infantry melee" was "infantry melee"): `kepi log
    /// verify` takes the older label for the same die, value and place. None by default.
    fn dice_label_before_issue_46(&self, _action: &str, _label: &str) -> Option<String> {
        None
    }

    /// A logged resolution's outcome, typed, when kepi acts on it.
    fn outcome(&self, _action: &str, _outcome: &Value) -> Option<Outcome> {
        None
    }

    /// Queues the checks an action sets off (read the event, push onto the queue).
    fn checks(&self, _ev: &Event, _q: &mut Queue) {}

    /// Lists the steps of the current phase.
    fn checklist(&self, l: &mut List);

    /// The scenarios compiled in: (file name, TOML source).
    fn scenarios(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }

    /// `kepi resolve <id> ACTION`'s grammar (`src/game/rules/<set>/grammar.rs`): the actions that
    /// roll, declared once with clap; `kepi game apply` parses its resolution verbs' options with
    /// the same declarations. None (the default): the rule set has no `kepi resolve` command; its
    /// forms are still `kepi game apply` verbs.
    fn grammar(&self) -> Option<Grammar> {
        None
    }

    /// The resolution verbs of `kepi game apply` that speak `kepi resolve`'s options
    /// (`src/game/rules/<set>/verbs.rs`): one per resolver form, each naming its units and laying the
    /// options typed over the form pre-filled from them. A form with none is spoken in the generic
    /// grammar (`VERB UNIT [TARGET] [--set FIELD=VALUE]...`), as a rule set without a grammar's.
    fn verb_specs(&self) -> &'static [VerbSpec] {
        &[]
    }

    /// A line `kepi game apply --help` adds under the rule set's unit-less verbs, when they do
    /// more than roll (1870's siege and blockade keep the game's sieges and calendar).
    fn plain_verbs_note(&self) -> Option<&'static str> {
        None
    }
}

/// A game's rule set: a handle to its implementation, saved and compared as its id ("pk").
///
/// Only the registry makes one from an id ([`crate::registry`]: `From<RuleSetId>` and reading a save);
/// the engine only ever asks it ([`std::ops::Deref`] to the [`RuleSet`]).
#[derive(Clone, Copy)]
pub struct RuleSetRef(&'static dyn RuleSet);

impl RuleSetRef {
    /// The handle of a rule set (the registry's [`crate::registry::get`] and a test's own set).
    pub const fn of(rules: &'static dyn RuleSet) -> RuleSetRef {
        RuleSetRef(rules)
    }

    /// The rule set's id as the rules core names it.
    pub fn system(self) -> RuleSetId {
        RuleSetId::new_registered(self.0.id())
    }

    /// The typed outcome of a logged resolution, when it is one kepi acts on (None for a preview,
    /// an outcome kepi only shows, or one that does not read as its type).
    pub fn outcome_of(self, r: &crate::rules::Resolution<Value>) -> Option<Outcome> {
        let v = r.outcome.as_ref()?;
        self.0.outcome(&r.action, v)
    }
}

impl std::ops::Deref for RuleSetRef {
    type Target = dyn RuleSet;
    fn deref(&self) -> &Self::Target {
        self.0
    }
}

impl PartialEq for RuleSetRef {
    fn eq(&self, other: &Self) -> bool {
        self.0.id() == other.0.id()
    }
}

impl Eq for RuleSetRef {}

impl PartialEq<RuleSetId> for RuleSetRef {
    fn eq(&self, other: &RuleSetId) -> bool {
        self.0.id() == other.id()
    }
}

impl PartialEq<RuleSetRef> for RuleSetId {
    fn eq(&self, other: &RuleSetRef) -> bool {
        self.id() == other.0.id()
    }
}

impl std::hash::Hash for RuleSetRef {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.0.id().hash(h)
    }
}

impl fmt::Debug for RuleSetRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RuleSetRef({})", self.0.id())
    }
}

impl fmt::Display for RuleSetRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.id())
    }
}

impl serde::Serialize for RuleSetRef {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.id())
    }
}
