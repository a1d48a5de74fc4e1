//! A sixth rule set that lives in tests only, registered through the same trait as kepi's five
//! (docs/ADDING_A_RULE_SET.md): it is played, checked, saved, read back and reported like them.
//!
//! "Volley" is a toy rule set: each side in turn moves then fires; a volley rolls one d6 and hits
//! on 5 or 6 (the target loses 1 strength point); a unit brought down to 1 point takes a morale
//! test (a due check answered by the "morale" form).

use chrono::{TimeZone, Utc};
use kepi::dice::{DiceSource, Die, Prob};
use kepi::flow::checklist::List;
use kepi::flow::{Event, Queue, activity, checklist};
use kepi::game::clock::{Phase, Step};
use kepi::game::{Action, Game, GameState, SeedSecret, UnitState};
use kepi::play::{Custom, CustomForm, Form, Resolved};
use kepi::roster::{Arm, Side, builtin_scenario};
use kepi::rules::{ModifierLine, OddsLine, Resolution, RuleError, RuleId, System};
use kepi::ruleset::{self, RuleSet};
use kepi::store::{SaveFile, parse_save};
use kepi::tables::{Provenance, Tables};
use serde_json::{Value, json};

struct Volley;

const SCENARIO: &str = r#"
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
    fn strength_unit(&self, _arm: Arm) -> &'static str {
        "companies"
    }
    fn forms(&self) -> Vec<Form> {
        vec![
            Form::Custom(Custom(Box::new(VolleyForm::new("fire")))),
            Form::Custom(Custom(Box::new(VolleyForm::new("morale")))),
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
        // VOL-M1: a unit brought down to 1 point tests its morale.
        for a in ev.changes() {
            if let Action::LoseStrength { unit, .. } = a
                && ev.after().unit(unit).is_some_and(|u| u.strength == 1)
            {
                q.push_once(
                    "VOL-M1",
                    Some(unit),
                    None,
                    "morale test".into(),
                    Some("morale"),
                );
            }
        }
        // Its own outcome type, read by serde, never by a JSON path.
        if let Some(VolleyOutcome { hit: true }) = ev.outcome_as::<VolleyOutcome>() {
            assert_eq!(ev.resolution().map(|r| r.action.as_str()), Some("fire"));
        }
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
struct VolleyOutcome {
    hit: bool,
}

#[derive(Clone, Debug)]
struct VolleyForm {
    name: &'static str,
    actor: Option<String>,
    target: Option<String>,
    /// Derived from the target's strength each time the form is pre-filled.
    target_strength: u32,
}

impl VolleyForm {
    fn new(name: &'static str) -> Self {
        VolleyForm {
            name,
            actor: None,
            target: None,
            target_strength: 0,
        }
    }
}

impl CustomForm for VolleyForm {
    fn name(&self) -> &'static str {
        self.name
    }
    fn units(&self) -> (Option<&str>, Option<&str>) {
        (self.actor.as_deref(), self.target.as_deref())
    }
    fn needs_target(&self) -> bool {
        self.name == "fire"
    }
    fn prefill(&mut self, state: &GameState, actor: Option<&str>, target: Option<&str>) {
        self.actor = actor.map(str::to_string);
        self.target = target.map(str::to_string);
        self.target_strength = target.and_then(|t| state.unit(t)).map_or(0, |u| u.strength);
    }
    fn refusal(&self, _state: &GameState) -> Option<String> {
        (self.name == "fire" && self.actor.is_some() && self.actor == self.target)
            .then(|| "a unit cannot fire at itself".to_string())
    }
    fn resolve(
        &self,
        state: &GameState,
        dice: Option<&mut DiceSource>,
    ) -> Result<Resolved, RuleError> {
        let rule = RuleId::new(if self.name == "fire" {
            "VOL-F1"
        } else {
            "VOL-M1"
        });
        let mut res = Resolution::<VolleyOutcome> {
            system: ruleset::find("volley").unwrap(),
            action: self.name.to_string(),
            modifiers: vec![ModifierLine::new(
                "hits on 5 or 6",
                kepi::rules::Effect::Target(kepi::dice::Ratio::new(5, 1)),
                rule,
                Provenance::House,
            )],
            dice: Vec::new(),
            outcome: None,
            summary: String::new(),
            odds: vec![
                OddsLine {
                    outcome: "hit".into(),
                    p: Prob::new(1, 3),
                },
                OddsLine {
                    outcome: "miss".into(),
                    p: Prob::new(2, 3),
                },
            ],
            rolled: None,
            notes: Vec::new(),
        };
        let Some(dice) = dice else {
            return Ok((res.erase(), Vec::new()));
        };
        let value = dice.roll(Die::D6, "volley d6")?;
        let hit = value >= 5;
        res.dice = dice.take_rolls();
        res.rolled = Some(if hit { 0 } else { 1 });
        res.summary = if hit { "hit" } else { "miss" }.to_string();
        res.outcome = Some(VolleyOutcome { hit });
        let mut effects = Vec::new();
        if let Some(a) = &self.actor {
            effects.push(Action::SetFlag {
                unit: a.clone(),
                flag: kepi::game::Flag::Fired,
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
        json!({"name": self.name, "actor": self.actor, "target": self.target,
               "target_strength": self.target_strength})
    }
    fn with_value(&self, v: &Value) -> Option<Box<dyn CustomForm>> {
        let mut f = self.clone();
        f.target_strength = u32::try_from(v.get("target_strength")?.as_u64()?).ok()?;
        Some(Box::new(f))
    }
    fn boxed_clone(&self) -> Box<dyn CustomForm> {
        Box::new(self.clone())
    }
}

static VOLLEY: Volley = Volley;

fn system() -> System {
    ruleset::register(&VOLLEY).expect("the test rule set registers")
}

fn t(s: i64) -> chrono::DateTime<Utc> {
    Utc.timestamp_opt(1_700_000_000 + s, 0).unwrap()
}

fn form(system: System, name: &str) -> Form {
    Form::all_for(system)
        .into_iter()
        .find(|f| f.name() == name)
        .unwrap()
}

/// Fires A at B with seeded dice until a volley hits; returns the game.
fn game_after_a_hit(system: System) -> Game {
    let scenario = builtin_scenario("volley-test").unwrap();
    assert_eq!(scenario.system, Some(system));
    let tables = Tables::builtin().unwrap();
    for seed in 0..50 {
        let mut g = Game::new(&scenario, system, SeedSecret::new(seed), t(0));
        g.act(Action::NextPhase, t(1)).unwrap();
        let mut f = form(system, "fire");
        f.prefill(g.state(), Some("a"), Some("b"), &tables);
        g.resolve_about(
            vec!["a".into(), "b".into()],
            &[],
            |s, d| f.resolve(s, &tables, Some(d)),
            t(2),
        )
        .unwrap();
        if g.state().unit("b").unwrap().strength == 1 {
            return g;
        }
    }
    panic!("no hit in 50 seeds");
}

#[test]
fn registers_once_and_refuses_a_taken_id() {
    let s = system();
    assert_eq!(
        system(),
        s,
        "registering the same rule set again is harmless"
    );
    assert_eq!("volley".parse::<System>(), Ok(s));
    assert_eq!(s.title(), "Volley (tests)");
    assert!(ruleset::all().contains(&s));
    assert!(
        System::ALL.iter().all(|b| *b < s),
        "built-in rule sets list first"
    );
    struct Impostor;
    impl RuleSet for Impostor {
        fn id(&self) -> &'static str {
            "volley"
        }
        fn title(&self) -> &'static str {
            "not volley"
        }
        fn phases(&self, _: &[Side]) -> Vec<Phase> {
            vec![Phase::both(Step::Movement)]
        }
        fn turn_rule(&self) -> RuleId {
            RuleId::new("X")
        }
        fn forms(&self) -> Vec<Form> {
            Vec::new()
        }
        fn still_to_act(&self, _: &GameState, _: Option<Phase>, _: &UnitState) -> bool {
            false
        }
        fn checklist(&self, _: &mut List) {}
    }
    static IMPOSTOR: Impostor = Impostor;
    assert!(ruleset::register(&IMPOSTOR).is_err());
    assert_eq!(ruleset::get(s).title(), "Volley (tests)");
}

#[test]
fn plays_through_the_clock_the_forms_and_the_checks() {
    let system = system();
    let scenario = builtin_scenario("volley-test").unwrap();
    let mut g = Game::new(&scenario, system, SeedSecret::new(3), t(0));
    assert_eq!(g.state().phase_name(), "German movement");
    g.act(Action::NextPhase, t(1)).unwrap();
    assert_eq!(
        g.state().phase_kind(),
        Some(Phase::of(Side::German, Step::RifleFire))
    );
    // The checklist and activity ask the rule set.
    let items = checklist(g.state());
    assert_eq!(items[0].rule.as_str(), "VOL-F1");
    assert_eq!(items[0].form.as_deref(), Some("fire"));
    assert_eq!(activity(g.state()).to_act(), vec!["a"]);
    // A form that does not fit the phase is noted, never refused.
    assert!(
        kepi::flow::phase_warnings(g.state(), "fire", Some("b"))
            .iter()
            .any(|w| w.contains("French"))
    );
    // The impossible is refused.
    let tables = Tables::builtin().unwrap();
    let mut own = form(system, "fire");
    own.prefill(g.state(), Some("a"), Some("a"), &tables);
    assert!(own.resolve(g.state(), &tables, None).is_err());
    // The odds before the roll are exact and sum to 1.
    let mut f = form(system, "fire");
    f.prefill(g.state(), Some("a"), Some("b"), &tables);
    let (preview, none) = f.resolve(g.state(), &tables, None).unwrap();
    assert!(none.is_empty());
    assert_eq!(preview.odds_total(), Prob::new(1, 1));

    let g = game_after_a_hit(system);
    let s = g.state();
    assert_eq!(s.unit("b").unwrap().strength, 1);
    assert!(s.unit("a").unwrap().fired);
    let due: Vec<_> = s
        .due
        .iter()
        .filter(|d| d.rule.as_str() == "VOL-M1")
        .collect();
    assert_eq!(due.len(), 1, "a unit down to 1 point tests its morale");
    assert_eq!(due[0].form.as_deref(), Some("morale"));
    assert_eq!(due[0].unit.as_deref(), Some("b"));
    // The effects, as the result card and report print them, come from the states.
    let last = g.in_effect().next_back().unwrap();
    let effects = last.effects();
    assert!(effects.iter().any(|e| e.unit == "b"), "{effects:?}");
}

#[test]
fn a_due_check_is_answered_by_its_own_form() {
    let system = system();
    let mut g = game_after_a_hit(system);
    let tables = Tables::builtin().unwrap();
    let mut f = form(system, "morale");
    f.prefill(g.state(), Some("b"), None, &tables);
    g.resolve_about(
        vec!["b".into()],
        &[],
        |s, d| f.resolve(s, &tables, Some(d)),
        t(3),
    )
    .unwrap();
    assert!(
        g.state().due.iter().all(|d| d.rule.as_str() != "VOL-M1"),
        "the morale roll answers the morale check"
    );
}

#[test]
fn a_save_reads_back_replays_and_verifies() {
    let system = system();
    let g = game_after_a_hit(system);
    let bytes = serde_json::to_vec(&SaveFile::of(&g)).unwrap();
    let text = String::from_utf8(bytes.clone()).unwrap();
    assert!(text.contains("\"volley\""), "the save carries the id");
    let back = parse_save(&bytes, "volley.json").unwrap();
    assert_eq!(back.head(), g.head());
    assert_eq!(back.state().unit("b").unwrap().strength, 1);
    assert_eq!(back.state().system, system);
}

#[test]
fn an_unknown_rule_set_in_a_save_names_the_accepted_ids() {
    let _ = system();
    let err = "napoleonics".parse::<System>().unwrap_err();
    assert!(
        err.contains("pk") && err.contains("fr1870") && err.contains("volley"),
        "{err}"
    );
}
