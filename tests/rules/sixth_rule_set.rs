//! A sixth rule set that lives in tests only ("Volley", tests/shared/volley.rs), registered through
//! the same trait as kepi's five (docs/ADDING_A_RULE_SET.md): it is played, checked, saved, read
//! back and reported like them.

#[path = "../shared/volley.rs"]
mod volley;

use volley::system;

use chrono::{TimeZone, Utc};
use kepi::dice::Prob;
use kepi::flow::checklist::List;
use kepi::flow::{activity, checklist};
use kepi::game::clock::{Phase, Step};
use kepi::game::{Action, Game, GameState, SeedSecret, UnitState};
use kepi::play::Form;
use kepi::registry::builtin_scenario;
use kepi::registry::{self, RuleSet};
use kepi::roster::Side;
use kepi::rules::{RuleId, RuleSetId};
use kepi::store::{SaveFile, parse_save};

fn t(s: i64) -> chrono::DateTime<Utc> {
    Utc.timestamp_opt(1_700_000_000 + s, 0).unwrap()
}

fn form(system: RuleSetId, name: &str) -> Form {
    Form::all_for(system)
        .into_iter()
        .find(|f| f.name() == name)
        .unwrap()
}

/// Fires A at B with seeded dice until a volley hits; returns the game.
fn game_after_a_hit(system: RuleSetId) -> Game {
    let scenario = builtin_scenario("volley-test").unwrap();
    assert_eq!(scenario.system, Some(system));
    let tables = kepi::registry::builtin_tables().unwrap();
    for seed in 0..50 {
        let mut g = Game::new(&scenario, system, SeedSecret::new(seed), t(0));
        g.act(Action::NextPhase, t(1)).unwrap();
        let mut f = form(system, "fire");
        f.prefill(g.state(), Some("a"), Some("b"), tables);
        g.resolve_about(
            vec!["a".into(), "b".into()],
            &[],
            |s, d| f.resolve(s, tables, Some(d)),
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
    assert_eq!("volley".parse::<RuleSetId>(), Ok(s));
    assert_eq!(s.title(), "Volley (tests)");
    assert!(registry::all().contains(&s));
    assert!(
        kepi::registry::ALL.iter().all(|b| *b < s),
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
    assert!(registry::register(&IMPOSTOR).is_err());
    assert_eq!(registry::get(s).title(), "Volley (tests)");
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
    let tables = kepi::registry::builtin_tables().unwrap();
    let mut own = form(system, "fire");
    own.prefill(g.state(), Some("a"), Some("a"), tables);
    assert!(own.resolve(g.state(), tables, None).is_err());
    // The odds before the roll are exact and sum to 1.
    let mut f = form(system, "fire");
    f.prefill(g.state(), Some("a"), Some("b"), tables);
    let (preview, none) = f.resolve(g.state(), tables, None).unwrap();
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
    let tables = kepi::registry::builtin_tables().unwrap();
    let mut f = form(system, "morale");
    f.prefill(g.state(), Some("b"), None, tables);
    g.resolve_about(
        vec!["b".into()],
        &[],
        |s, d| f.resolve(s, tables, Some(d)),
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
    let err = "napoleonics".parse::<RuleSetId>().unwrap_err();
    assert!(
        err.contains("pk") && err.contains("fr1870") && err.contains("volley"),
        "{err}"
    );
}

/// Issue 45: a campaign's battle takes its table units' strength from the column its rule set
/// names (CAMP-C1); a battle set that names none is refused in words, where kepi used to give any
/// set other than P&K the Portable Wargame's strength points.
#[test]
fn a_campaign_battle_in_a_set_without_a_strength_column_is_refused() {
    let system = system();
    let spi = builtin_scenario("spi-1870").unwrap();
    let game = Game::new(&spi, spi.system.unwrap(), SeedSecret::new(1), t(0));
    let table = kepi::campaign::CampaignTable::load(None).unwrap();
    let attacker = game.state().units[0].unit.id.clone();
    let at = game.state().units[0].position;
    let Err(err) = kepi::campaign::engage(game.state(), &[attacker], at, system, &table) else {
        panic!("a battle in a set without a strength column was engaged");
    };
    let err = err.to_string();
    assert!(err.contains("no strength column for Volley"), "{err}");
    assert!(err.contains("pk_figures and pw_sp"), "{err}");
}

/// Issue 43: troops convert to and from a registered rule set from its card alone (the generic
/// card here): Volley counts its strength in its own word, so P&K's figures are asked for, and a
/// Volley card converts back to P&K with its names and order of battle.
#[test]
fn troops_convert_to_and_from_a_registered_rule_set() {
    use kepi::roster::Field;
    use kepi::roster::builder::OrderOfBattle;
    let volley = system();
    let pk = OrderOfBattle::from_scenario(&builtin_scenario("mars-la-tour").unwrap(), None);
    let (o, _) = pk.convert(volley);
    assert_eq!(o.header.system, Some(volley));
    assert_eq!(o.spec, volley.card_spec());
    assert_eq!(o.len(), pk.len());
    let unit = |o: &OrderOfBattle| -> Option<&'static str> {
        match o.spec.field(Field::Strength).map(|f| &f.kind) {
            Some(kepi::roster::spec::Kind::Number { unit, .. }) => *unit,
            _ => None,
        }
    };
    for (a, b) in pk.drafts().zip(o.drafts()) {
        assert_eq!(a.get(Field::Name), b.get(Field::Name));
        assert_eq!(a.get(Field::Brigade), b.get(Field::Brigade));
        // The generic card takes every formation and weapon; a class only when the set has them.
        assert_eq!(a.get(Field::Formation), b.get(Field::Formation));
        assert_eq!(a.get(Field::Weapon), b.get(Field::Weapon));
        if o.spec.uses(Field::Quality) {
            assert_eq!(a.get(Field::Quality), b.get(Field::Quality));
        } else {
            assert!(!b.has(Field::Quality));
        }
        if unit(&o) == unit(&pk) {
            assert_eq!(a.get(Field::Strength), b.get(Field::Strength));
        } else {
            assert!(o.error_at(b.key, Field::Strength).is_some());
        }
    }
    // Back from Volley's own scenario to P&K: names and sides kept.
    let s = volley_scenario();
    let v = OrderOfBattle::from_scenario(&s, None);
    let pk_id = builtin_scenario("mars-la-tour").unwrap().system.unwrap();
    let (back, _) = v.convert(pk_id);
    let names: Vec<&str> = back.drafts().map(|d| d.get(Field::Name)).collect();
    assert_eq!(names, ["A Company", "B Company"]);
    assert_eq!(back.header.system, Some(pk_id));
}

fn volley_scenario() -> kepi::roster::Scenario {
    system();
    kepi::roster::validate_roster("volley.toml", volley::SCENARIO, None).unwrap()
}
