//! Play: the bridge between a game in progress and the rule sets.
//!
//! A [`Form`] is one resolver action (a fire, a melee, a rally roll...) with the acting and target
//! units and the situation. [`Form::prefill`] sets the situation from the units' live state (class,
//! figures, disorder, formation...), [`Form::resolve`] calls the rule set's pure function and turns
//! the outcome into [`Action`]s on the units, so one resolution is one undo step. The window, the
//! command line (`kepi game apply FILE fire ...`) and the tests all go through here.

pub mod board;
pub mod breaches;
#[cfg(feature = "gui")]
pub mod kit;
pub mod overrides;
pub mod refuse;
pub mod supply;

use std::any::Any;

use serde::{Serialize, de::DeserializeOwned};

use crate::dice::{DiceGroup, DiceSource, Die};
use crate::engine::game::{Action, GameState, UnitState};
use crate::engine::rule_set::RuleSetRef;
use crate::rules::Tables;
use crate::rules::{Resolution, RuleError};

/// One resolver action of a rule set: its units and situation, pre-filled from the game, resolved
/// into odds or an outcome with its effects. The five rule sets kepi ships implement it exactly as
/// a rule set registered at run time does ([`crate::registry::register`]): the engine never names
/// a rule set, it asks the form (issue 27).
pub trait SetForm: Any + std::fmt::Debug + Send + Sync {
    /// The action's name ("fire", "melee").
    fn name(&self) -> &'static str;
    /// The acting unit and the target.
    fn units(&self) -> (Option<&str>, Option<&str>);
    /// True when the action needs a target unit.
    fn needs_target(&self) -> bool {
        true
    }
    /// Sets the units and pre-sets the situation from their live state; `tables` are the game's
    /// (the built-in ones or a club's `--tables DIR`).
    fn prefill(
        &mut self,
        state: &GameState,
        actor: Option<&str>,
        target: Option<&str>,
        tables: &Tables,
    );
    /// Why the action is impossible now, or None (see [`refuse`]). The window disables its Roll
    /// button with this reason, `kepi game apply` exits 2 with it.
    fn refusal(&self, _state: &GameState) -> Option<String> {
        None
    }
    /// What was typed into the form that does not read (a chart result that is none), saying
    /// what to type, or None: the window greys Roll with it, in Roll's row (issue 46). By default
    /// a form has nothing typed of the kind.
    fn unreadable(&self) -> Option<String> {
        None
    }
    /// The dice it rolls: any other die entered for it is refused, not silently ignored.
    fn dice_used(&self) -> &'static [Die] {
        &[Die::D6]
    }
    /// The dice it rolls, grouped and labelled in the rule set's words, in the order it rolls
    /// them: what the window asks for in "I roll my own dice" mode. By default one group per die
    /// of [`SetForm::dice_used`], named by the die, as many as the roll needs.
    fn dice_groups(&self) -> Vec<DiceGroup> {
        self.dice_used()
            .iter()
            .map(|d| DiceGroup::if_needed(d.to_string(), *d))
            .collect()
    }
    /// With `dice` None the preview (odds only, no effects); with dice the outcome and its effects
    /// on the units. [`Form::resolve`] has checked [`SetForm::refusal`] first.
    fn resolve(
        &self,
        state: &GameState,
        tables: &Tables,
        dice: Option<&mut DiceSource>,
    ) -> Result<Resolved, RuleError>;
    /// Units of the acting side added to the action (SPI-C2, FR-C1: a hex combat's other
    /// attackers, the window's Ctrl-clicked ones, `form ... --attacker`). By default the form has
    /// one actor and ignores them.
    fn with_attackers(&mut self, _state: &GameState, _extra: &[String]) {}
    /// The attackers and defenders engaged, by id, when the form is a combat between stacks
    /// (SPI-C2, FR-C1: what a campaign fights as a battle). By default None.
    fn engaged(&self) -> Option<(&[String], &[String])> {
        None
    }
    /// What resolving it now breaks of the rule set's text, given the game so far and the game's
    /// tables (the ones its resolution reads: a club's own table gives the same limits before the
    /// roll as in it). The umpire decides: shown before the roll and logged with it, never
    /// refused. By default nothing.
    fn breaches(&self, _game: &crate::engine::game::Game, _tables: &Tables) -> Vec<String> {
        Vec::new()
    }
    /// Drops what was typed for one roll (a chart result, a loss split): after a roll the next
    /// asks again (issue 26). By default a form keeps nothing of the kind.
    fn clear_typed(&mut self) {}
    /// The situation in the window's resolver. By default the form says its situation comes from
    /// the units.
    #[cfg(feature = "gui")]
    fn situation_ui(&mut self, ui: &mut egui::Ui, _state: &GameState) {
        ui.label(format!(
            "{}: the situation is set from the units.",
            self.name()
        ));
    }
    /// The units and situation as a JSON object with the key `"form"` naming the form's kind
    /// (what saves record as a resolution's input and the window's overrides compare).
    fn to_value(&self) -> serde_json::Value;
    /// A copy with the units and situation of `v` (None when `v` does not fit the form).
    fn with_value(&self, v: &serde_json::Value) -> Option<Box<dyn SetForm>>;
    /// A copy.
    fn boxed_clone(&self) -> Box<dyn SetForm>;
}

/// Refuses entered dice a resolution did not use (issue 17: never silently dropped): the one
/// check behind `kepi game apply --dice` and the window's own dice, `field` naming where they
/// were entered ("--dice", "My dice"). Entered values are matched to the dice in the order the
/// resolution rolls them, per die ([`DiceSource::roll`]); what is not entered kepi rolls, and
/// [`crate::dice::kepi_rolled`] says so.
pub fn all_dice_used(dice: &DiceSource, field: &str) -> Result<(), RuleError> {
    let left = dice.left_over();
    if left.is_empty() {
        return Ok(());
    }
    let rolled: Vec<String> = dice
        .rolls()
        .iter()
        .map(|r| format!("{} {}={}", r.label, r.die, r.value))
        .collect();
    let left: Vec<String> = left.iter().map(|(d, v)| format!("{d}={v}")).collect();
    Err(RuleError::input(
        field,
        format!(
            "more dice entered than this roll uses ({} left over; it rolled {})",
            left.join(", "),
            if rolled.is_empty() {
                "none".to_string()
            } else {
                rolled.join(", ")
            }
        ),
        "only the dice the roll uses, in the order it rolls them",
    ))
}

/// `x` as a JSON object with `"form": tag` added: how a form built on serde writes
/// [`SetForm::to_value`].
pub fn tagged_value<T: Serialize>(tag: &str, x: &T) -> serde_json::Value {
    let mut v = serde_json::to_value(x).unwrap_or(serde_json::Value::Null);
    if let Some(o) = v.as_object_mut() {
        o.insert("form".into(), tag.into());
    }
    v
}

/// The form written by [`tagged_value`] with `tag`, or None when `v` is another kind.
pub fn from_tagged<T: DeserializeOwned>(tag: &str, v: &serde_json::Value) -> Option<T> {
    let mut o = v.as_object()?.clone();
    if o.remove("form")?.as_str()? != tag {
        return None;
    }
    serde_json::from_value(serde_json::Value::Object(o)).ok()
}

/// One resolver action (a fire, a melee, a rally roll...) of the game's rule set.
#[derive(Debug)]
pub struct Form(Box<dyn SetForm>);

impl Clone for Form {
    fn clone(&self) -> Self {
        Form(self.0.boxed_clone())
    }
}

impl PartialEq for Form {
    fn eq(&self, other: &Self) -> bool {
        self.0.name() == other.0.name() && self.0.to_value() == other.0.to_value()
    }
}

impl Serialize for Form {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.to_value().serialize(s)
    }
}

/// A resolution and what it does to the units.
pub type Resolved = (Resolution<serde_json::Value>, Vec<Action>);

impl Form {
    /// A rule set's form.
    pub fn new(f: impl SetForm) -> Form {
        Form(Box::new(f))
    }

    /// The resolver actions a rule set offers, with default situations.
    pub fn all_for(rules: impl Into<RuleSetRef>) -> Vec<Form> {
        rules.into().forms()
    }

    /// The form of `rules` written as `v` (its [`SetForm::to_value`]), or None when none of the
    /// rule set's forms reads it.
    pub fn from_value(rules: impl Into<RuleSetRef>, v: &serde_json::Value) -> Option<Form> {
        Form::all_for(rules).iter().find_map(|f| f.with_value(v))
    }

    /// The rule set's own form, when it is a `T`.
    pub fn get<T: SetForm>(&self) -> Option<&T> {
        let any: &dyn Any = &*self.0;
        any.downcast_ref()
    }

    /// The rule set's own form, when it is a `T`, to change.
    pub fn get_mut<T: SetForm>(&mut self) -> Option<&mut T> {
        let any: &mut dyn Any = &mut *self.0;
        any.downcast_mut()
    }

    /// The rule set's form, to change through its trait (its situation panel).
    pub fn inner_mut(&mut self) -> &mut dyn SetForm {
        &mut *self.0
    }

    /// The action's name ("fire", "melee").
    pub fn name(&self) -> &'static str {
        self.0.name()
    }

    /// The acting unit and the target, when the form has them.
    pub fn units(&self) -> (Option<&str>, Option<&str>) {
        self.0.units()
    }

    /// True when the action needs a target unit.
    pub fn needs_target(&self) -> bool {
        self.0.needs_target()
    }

    /// Sets the units and pre-sets the situation from their live state.
    pub fn prefill(
        &mut self,
        state: &GameState,
        actor: Option<&str>,
        target: Option<&str>,
        tables: &Tables,
    ) {
        self.0.prefill(state, actor, target, tables)
    }

    /// Why this action is impossible for its units now (see [`refuse`]), or None. The window
    /// disables its Roll button with this reason, `kepi game apply` exits 2 with it.
    pub fn refusal(&self, state: &GameState) -> Option<String> {
        self.0.refusal(state)
    }

    /// What was typed into the form that does not read (see [`SetForm::unreadable`]).
    pub fn unreadable(&self) -> Option<String> {
        self.0.unreadable()
    }

    /// The dice the form rolls.
    pub fn dice_used(&self) -> &'static [Die] {
        self.0.dice_used()
    }

    /// The dice the form rolls, grouped and labelled, in the order it rolls them (see
    /// [`SetForm::dice_groups`]).
    pub fn dice_groups(&self) -> Vec<DiceGroup> {
        self.0.dice_groups()
    }

    /// Resolves: with `dice` None the preview (odds only, no effects); with dice the outcome and its
    /// effects on the units.
    pub fn resolve(
        &self,
        state: &GameState,
        tables: &Tables,
        dice: Option<&mut DiceSource>,
    ) -> Result<Resolved, RuleError> {
        if let Some(why) = self.refusal(state) {
            return Err(RuleError::input(
                "units",
                why,
                "other units or settings: this action is impossible",
            ));
        }
        self.0.resolve(state, tables, dice)
    }

    /// SPI-C2, FR-C1: a hex combat form's attackers are the acting unit and `extra` units of its
    /// side still fighting (the window's Ctrl-clicked ones, `form ... --attacker`); others are
    /// left out, not refused: a pick may go stale. Other forms are left as they are.
    pub fn with_attackers(&mut self, state: &GameState, extra: &[String]) {
        self.0.with_attackers(state, extra)
    }

    /// The attackers and defenders of a combat between stacks (see [`SetForm::engaged`]).
    pub fn engaged(&self) -> Option<(&[String], &[String])> {
        self.0.engaged()
    }

    /// What resolving it now breaks of the rule set's text (see [`SetForm::breaches`]).
    pub fn breaches(&self, game: &crate::engine::game::Game, tables: &Tables) -> Vec<String> {
        self.0.breaches(game, tables)
    }

    /// Drops the values typed for one roll (see [`SetForm::clear_typed`]).
    pub fn clear_typed(&mut self) {
        self.0.clear_typed()
    }

    /// The units and situation as JSON (see [`SetForm::to_value`]).
    pub fn to_value(&self) -> serde_json::Value {
        self.0.to_value()
    }

    /// This form with the units and situation of `v` (its JSON form, as [`overrides`] edits it),
    /// or None when `v` does not fit it.
    pub fn with_value(&self, v: &serde_json::Value) -> Option<Form> {
        self.0.with_value(v).map(Form)
    }
}

/// Looks a unit up for a form, with an error naming the field.
pub fn unit<'a>(
    state: &'a GameState,
    id: Option<&str>,
    field: &str,
) -> Result<&'a UnitState, RuleError> {
    let id = id.ok_or_else(|| RuleError::input(field, "no unit chosen", "a unit of the roster"))?;
    state.unit(id).ok_or_else(|| {
        RuleError::input(
            field,
            format!("no unit `{id}` in this game"),
            "a unit id of the roster",
        )
    })
}

/// The strength loss of a unit as actions: never more than it has.
pub fn lose(u: &UnitState, n: u32, out: &mut Vec<Action>) -> u32 {
    let n = n.min(u.strength);
    if n > 0 {
        out.push(Action::LoseStrength {
            unit: u.unit.id.clone(),
            n,
        });
    }
    n
}

/// Erases a typed resolution and pairs it with its effects.
pub fn done<O: Serialize>(res: Resolution<O>, effects: Vec<Action>) -> Resolved {
    (res.erase(), effects)
}
