//! "Volley", a toy rule set that lives in tests only (docs/ADDING_A_RULE_SET.md), shared by the
//! rules and window tests: each side in turn moves then fires; a volley rolls one d6 and hits on 5
//! or 6 (the target loses 1 strength point); a unit brought down to 1 point takes a morale test (a
//! due check answered by the "morale" form). Its one table, `volley.toml` (the die that hits), is
//! read with the five's: built in, or from `--tables DIR`.
#![allow(dead_code)]

use kepi::dice::{DiceSource, Die, Prob};
use kepi::flow::checklist::List;
use kepi::flow::{Event, Queue};
use kepi::game::clock::{Phase, Step};
use kepi::game::{Action, GameState, MarkerLasts, UnitMarkerKind, UnitState};
use kepi::play::{Form, Resolved, SetForm};
use kepi::registry::{self, RuleSet};
use kepi::roster::{Arm, Side};
use kepi::rules::{ModifierLine, OddsLine, Resolution, RuleError, RuleId, RuleSetId};
use kepi::tables::{Check, Provenance, RuleTable, Sourced, TableError, TableFile};
use serde_json::{Value, json};

pub struct Volley;

/// VOL-M1: a unit that fails its morale test wavers until the turn ends; a wavering unit that
/// fires is noted. A marker of Volley's own (issue 45): declared here, kept by the engine.
pub const WAVERING: UnitMarkerKind = UnitMarkerKind {
    name: "wavering",
    label: "wavering",
    tag: "Wav",
    rule: "VOL-M1",
    what: "wavering: failed its morale test; it should not fire this turn",
    tone: kepi::game::Tone::Warn,
    lasts: MarkerLasts::Turn,
    aliases: &[],
};

/// Volley's table: the lowest d6 that hits (VOL-F1).
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VolleyTables {
    pub system: String,
    pub hit_on: Sourced<i64>,
}

pub const TABLE: &str = r#"system = "volley"
hit_on = { value = 5, provenance = "house", note = "a rule set of the tests" }
"#;

impl RuleTable for VolleyTables {
    const FILE: &'static str = "volley.toml";
    const BUILTIN: &'static str = TABLE;
    fn validate(&self, check: &Check<'_>) -> Result<(), TableError> {
        check.range(&self.hit_on, "hit_on", 1, 6)
    }
}

pub const SCENARIO: &str = r#"
name = "volley-test"
system = "volley"
title = "Two companies (a rule set of the tests)"
sides = ["german", "french"]

[[unit]]
id = "a"
name = "A Company"
side = "german"
arm = "infantry"
strength = 2

[[unit]]
id = "b"
name = "B Company"
side = "french"
arm = "infantry"
strength = 2
"#;

impl RuleSet for Volley {
    fn id(&self) -> &'static str {
        "volley"
    }
    fn table(&self) -> Option<TableFile> {
        Some(TableFile::of::<VolleyTables>())
    }
    fn title(&self) -> &'static str {
        "Volley (tests)"
    }
    fn phases(&self, sides: &[Side]) -> Vec<Phase> {
        sides
            .iter()
            .flat_map(|s| {
                [
                    Phase::of(*s, Step::Movement),
                    Phase::of(*s, Step::RifleFire),
                ]
            })
            .collect()
    }
    fn turn_rule(&self) -> RuleId {
        RuleId::new("VOL-T1")
    }
    fn rule_ids(&self) -> &'static [&'static str] {
        &["VOL-T1", "VOL-F1", "VOL-M1"]
    }
    /// Volley's battles could be a campaign's, but the campaign's conversion table has no
    /// strength column for it (no `campaign_strength_column`): such a battle is refused, not
    /// given another set's strengths.
    fn campaign_part(&self) -> Option<kepi::engine::rule_set::CampaignPart> {
        Some(kepi::engine::rule_set::CampaignPart::Battle)
    }
    fn strength_unit(&self, _arm: Arm) -> &'static str {
        "companies"
    }
    fn forms(&self) -> Vec<Form> {
        vec![
            Form::new(VolleyForm::new("fire")),
            Form::new(VolleyForm::new("morale")),
        ]
    }
    fn form_steps(&self, form: &str) -> &'static [Step] {
        if form == "fire" {
            &[Step::RifleFire]
        } else {
            &[]
        }
    }
    fn still_to_act(&self, _s: &GameState, phase: Option<Phase>, u: &UnitState) -> bool {
        phase.is_some_and(|p| p.side == Some(u.unit.side) && p.step == Step::RifleFire) && !u.fired
    }
    fn checks(&self, ev: &Event, q: &mut Queue) {
        // VOL-M1: a hit that brings the target down to 1 point asks for its morale test. The hit is
        // read from the rule set's own outcome type (serde, never a JSON path): if that reading
        // broke, no morale check would be queued and the tests that expect one would fail.
        if let Some(VolleyOutcome { hit: true }) = ev.outcome_as::<VolleyOutcome>()
            && let Some(target) = ev.units().get(1)
            && ev.after().unit(target).is_some_and(|u| u.strength == 1)
        {
            q.push_once(
                "VOL-M1",
                Some(target),
                None,
                "morale test".into(),
                Some("morale"),
            );
        }
    }
    fn unit_markers(&self) -> &'static [UnitMarkerKind] {
        &[WAVERING]
    }
    fn checklist(&self, l: &mut List) {
        let s = l.state();
        if s.phase_kind().map(|p| p.step) == Some(Step::RifleFire) {
            let side = s.phase_kind().and_then(|p| p.side);
            let units = l.ids(|u| Some(u.unit.side) == side && !u.fired);
            l.add("VOL-F1", "volleys", side, Some("fire"), units);
        }
    }
    fn scenarios(&self) -> &'static [(&'static str, &'static str)] {
        &[("volley-test.toml", SCENARIO)]
    }
}

#[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
pub struct VolleyOutcome {
    pub hit: bool,
}

#[derive(Clone, Debug)]
struct VolleyForm {
    name: &'static str,
    actor: Option<String>,
    target: Option<String>,
    /// Derived from the target's strength each time the form is pre-filled.
    target_strength: u32,
    /// The target is in cover: a volley hits on one more (VOL-F1), ticked in the form's
    /// situation panel or typed as `--set cover=true`.
    cover: bool,
}

impl VolleyForm {
    fn new(name: &'static str) -> Self {
        VolleyForm {
            name,
            actor: None,
            target: None,
            target_strength: 0,
            cover: false,
        }
    }
}

impl SetForm for VolleyForm {
    fn name(&self) -> &'static str {
        self.name
    }
    fn units(&self) -> (Option<&str>, Option<&str>) {
        (self.actor.as_deref(), self.target.as_deref())
    }
    fn needs_target(&self) -> bool {
        self.name == "fire"
    }
    fn prefill(
        &mut self,
        state: &GameState,
        actor: Option<&str>,
        target: Option<&str>,
        _tables: &kepi::rules::Tables,
    ) {
        self.actor = actor.map(str::to_string);
        self.target = target.map(str::to_string);
        self.target_strength = target.and_then(|t| state.unit(t)).map_or(0, |u| u.strength);
    }
    /// VOL-M1: a wavering unit should not fire (the umpire decides).
    fn breaches(&self, game: &kepi::game::Game, _tables: &kepi::rules::Tables) -> Vec<String> {
        match self.actor.as_deref().and_then(|a| game.state().unit(a)) {
            Some(u) if self.name == "fire" && u.has_mark(WAVERING.name) => {
                vec![format!(
                    "{} is wavering (VOL-M1): it should not fire",
                    u.unit.name
                )]
            }
            _ => Vec::new(),
        }
    }
    fn refusal(&self, _state: &GameState) -> Option<String> {
        (self.name == "fire" && self.actor.is_some() && self.actor == self.target)
            .then(|| "a unit cannot fire at itself".to_string())
    }
    fn resolve(
        &self,
        state: &GameState,
        tables: &kepi::rules::Tables,
        dice: Option<&mut DiceSource>,
    ) -> Result<Resolved, RuleError> {
        let cover = i64::from(self.name == "fire" && self.cover);
        let hit_on = (tables.get::<VolleyTables>().hit_on.v() + cover).clamp(1, 6);
        let rule = RuleId::new(if self.name == "fire" {
            "VOL-F1"
        } else {
            "VOL-M1"
        });
        let mut res = Resolution::<VolleyOutcome> {
            system: registry::find("volley").unwrap(),
            action: self.name.to_string(),
            modifiers: vec![ModifierLine::new(
                format!("hits on {hit_on} or more"),
                kepi::rules::Effect::Target(kepi::dice::Ratio::new(i128::from(hit_on), 1)),
                rule,
                Provenance::House,
            )],
            dice: Vec::new(),
            outcome: None,
            summary: String::new(),
            odds: vec![
                OddsLine {
                    outcome: "hit".into(),
                    p: Prob::new(i128::from(7 - hit_on), 6),
                },
                OddsLine {
                    outcome: "miss".into(),
                    p: Prob::new(i128::from(hit_on - 1), 6),
                },
            ],
            rolled: None,
            notes: Vec::new(),
        };
        let Some(dice) = dice else {
            return Ok((res.erase(), Vec::new()));
        };
        let value = dice.roll(Die::D6, "volley d6")?;
        let hit = i64::from(value) >= hit_on;
        res.dice = dice.take_rolls();
        res.rolled = Some(if hit { 0 } else { 1 });
        res.summary = if hit { "hit" } else { "miss" }.to_string();
        res.outcome = Some(VolleyOutcome { hit });
        let mut effects = Vec::new();
        if let Some(a) = &self.actor {
            effects.push(Action::SetFlag {
                unit: a.clone(),
                flag: kepi::game::Flag::Fired.into(),
                on: true,
            });
        }
        if self.name == "fire"
            && hit
            && let Some(t) = self.target.as_ref().and_then(|t| state.unit(t))
            && t.strength > 0
        {
            effects.push(Action::LoseStrength {
                unit: t.unit.id.clone(),
                n: 1,
            });
        }
        Ok((res.erase(), effects))
    }
    fn to_value(&self) -> Value {
        json!({"form": "volley", "name": self.name, "actor": self.actor, "target": self.target,
               "target_strength": self.target_strength, "cover": self.cover})
    }
    fn with_value(&self, v: &Value) -> Option<Box<dyn SetForm>> {
        if v.get("form")? != "volley" || v.get("name")? != self.name {
            return None;
        }
        let unit = |k: &str| match v.get(k) {
            Some(Value::String(s)) => Some(Some(s.clone())),
            Some(Value::Null) | None => Some(None),
            Some(_) => None,
        };
        let mut f = self.clone();
        f.actor = unit("actor")?;
        f.target = unit("target")?;
        f.target_strength = u32::try_from(v.get("target_strength")?.as_u64()?).ok()?;
        f.cover = match v.get("cover") {
            Some(c) => c.as_bool()?,
            None => false,
        };
        Some(Box::new(f))
    }
    /// Its situation panel: the one thing the units do not say.
    #[cfg(feature = "gui")]
    fn situation_ui(&mut self, ui: &mut egui::Ui, _state: &GameState) {
        if self.name == "fire" {
            ui.checkbox(&mut self.cover, "target in cover (hits on one more)");
        } else {
            ui.label("morale: the situation is set from the unit.");
        }
    }
    fn boxed_clone(&self) -> Box<dyn SetForm> {
        Box::new(self.clone())
    }
}

pub static VOLLEY: Volley = Volley;

pub fn system() -> RuleSetId {
    registry::register(&VOLLEY).expect("the test rule set registers")
}
