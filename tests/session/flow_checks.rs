//! The umpire's flow: the checks each applied outcome sets off (kept in the game until done or
//! waived, taken away by undo), the phase checklists and who has done what.

use chrono::{TimeZone, Utc};
use kepi::dice::Die;
use kepi::flow::{Due, activity, checklist, checks_after};
use kepi::game::{Action, Counter, EntryKind, Game, GameState, Level, SeedSecret, Supply};
use kepi::play::Form;
use kepi::registry::builtin_scenario;
use kepi::roster::Side;
use kepi::rules::pk::form::{PkAction, PkForm};
use kepi::rules::pw::set::pw_defeated;
use kepi::rules::{Resolution, RuleSetId};

fn t(s: i64) -> chrono::DateTime<Utc> {
    Utc.timestamp_opt(1_700_000_000 + s, 0).unwrap()
}

fn game(scenario: &str, system: RuleSetId) -> Game {
    Game::new(
        &builtin_scenario(scenario).unwrap(),
        system,
        SeedSecret::new(1),
        t(0),
    )
}

fn act(g: &mut Game, a: Action) {
    g.act(a, t(1)).unwrap();
}

fn due<'a>(g: &'a Game, rule: &str) -> Vec<&'a Due> {
    g.state()
        .due
        .iter()
        .map(|d| &**d)
        .filter(|d| d.rule.as_str() == rule)
        .collect()
}

fn resolve_pk(
    g: &mut Game,
    name: &str,
    actor: &str,
    target: Option<&str>,
    set: impl Fn(&mut PkAction),
) {
    let tables = kepi::registry::builtin_tables().unwrap();
    let mut f = PkForm::all()
        .into_iter()
        .find(|f| f.name() == name)
        .unwrap();
    f.prefill(
        g.state(),
        Some(actor),
        target,
        tables.get::<kepi::rules::pk::PkTables>(),
    );
    set(&mut f.action);
    let form = Form::new(f);
    let mut units = vec![actor.to_string()];
    units.extend(target.map(str::to_string));
    g.resolve_about(units, &[], |s, d| form.resolve(s, tables, Some(d)), t(2))
        .unwrap();
}

/// PK-E1: a unit dropping below a level queues a rally roll for the end of the move; the rally
/// roll for that unit answers it.
#[test]
fn pk_e1_a_level_drop_queues_a_rally_roll_that_the_rally_answers() {
    let mut g = game("mars-la-tour", kepi::rules::pk::ID);
    act(
        &mut g,
        Action::SetLevel {
            unit: "55e-ligne-1".into(),
            level: Level::Shaken,
        },
    );
    let d = due(&g, "PK-E1");
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].unit.as_deref(), Some("55e-ligne-1"));
    assert_eq!(d[0].form.as_deref(), Some("rally"));
    assert!(d[0].what.contains("steady to shaken"), "{}", d[0].what);
    // A better level queues nothing; the same drop again while one is open queues no second roll.
    act(
        &mut g,
        Action::SetLevel {
            unit: "55e-ligne-1".into(),
            level: Level::Broken,
        },
    );
    assert_eq!(due(&g, "PK-E1").len(), 1);
    // The checklist of part 3 names the unit for its rally roll.
    for _ in 0..2 {
        act(&mut g, Action::NextPhase);
    }
    let items = checklist(g.state());
    assert!(items.iter().any(|i| i.rule.as_str() == "PK-E1"
        && i.units == ["55e-ligne-1"]
        && i.form.as_deref() == Some("rally")));
    resolve_pk(&mut g, "rally", "55e-ligne-1", None, |_| {});
    assert!(due(&g, "PK-E1").is_empty(), "the rally roll answers it");
    // A rally for another unit would not have.
}

/// PK-X5: each move of a melee gives fatigue, and each move queues the fatigue check for both
/// units; PK-X4: the loser of a move rolls for its flag; the fatigue check answers its due.
#[test]
fn pk_x5_a_two_move_melee_queues_fatigue_checks_each_move() {
    let mut g = game("mars-la-tour", kepi::rules::pk::ID);
    let (a, b) = ("12th-grenadiers-1", "55e-ligne-1");
    for mv in 1..=2u32 {
        resolve_pk(&mut g, "melee", a, Some(b), |x| {
            if let PkAction::Melee { a, b } = x {
                a.melee_move = mv;
                b.melee_move = mv;
            }
        });
        let checks = due(&g, "PK-X5");
        let fatigue: Vec<_> = checks
            .iter()
            .filter(|d| d.form.as_deref() == Some("fatigue"))
            .collect();
        assert_eq!(
            fatigue.len(),
            2 * mv as usize,
            "after move {mv}: {checks:?}"
        );
        assert!(fatigue.iter().any(|d| d.unit.as_deref() == Some(a)));
        assert!(fatigue.iter().any(|d| d.unit.as_deref() == Some(b)));
        // The loser of the move (if any) rolls for its flag.
        let e = g.log().last().unwrap();
        let EntryKind::Act {
            action: Action::Resolved { resolution, .. },
        } = &e.kind
        else {
            panic!("not a resolution")
        };
        let loser = resolution.outcome.as_ref().unwrap()["loser"]
            .as_str()
            .map(|l| if l == "a" { a } else { b });
        if let Some(l) = loser {
            assert!(
                due(&g, "PK-X4")
                    .iter()
                    .any(|d| d.unit.as_deref() == Some(l) && d.form.as_deref() == Some("flag")),
                "move {mv}: {:?} {:?}",
                resolution.outcome,
                g.state().due
            );
        }
    }
    assert_eq!(g.state().unit(a).unwrap().melees, 2, "PK-X7 counts melees");
    let ids: Vec<u64> = g.state().due.iter().map(|d| d.id).collect();
    let mut uniq = ids.clone();
    uniq.dedup();
    assert_eq!(ids, uniq, "ids are unique");
    // The fatigue check for a answers a's oldest fatigue check only.
    let oldest = due(&g, "PK-X5")
        .into_iter()
        .find(|d| d.unit.as_deref() == Some(a))
        .unwrap()
        .id;
    resolve_pk(&mut g, "fatigue", a, None, |_| {});
    assert!(g.state().due.iter().all(|d| d.id != oldest));
    assert_eq!(
        due(&g, "PK-X5")
            .iter()
            .filter(|d| d.unit.as_deref() == Some(a) && d.form.is_some())
            .count(),
        1
    );
}

/// PK-L1: a casualty applied by hand asks for the leader roll; a resolution rolls it itself.
#[test]
fn pk_l1_a_casualty_by_hand_asks_for_the_leader_roll() {
    let mut g = game("mars-la-tour", kepi::rules::pk::ID);
    resolve_pk(
        &mut g,
        "fire",
        "12th-grenadiers-1",
        Some("55e-ligne-1"),
        |_| {},
    );
    assert!(
        g.state().unit("55e-ligne-1").unwrap().strength < 22,
        "the fire killed figures"
    );
    assert!(
        due(&g, "PK-L1").is_empty(),
        "the fire rolled the leader d% itself"
    );
    act(
        &mut g,
        Action::LoseStrength {
            unit: "55e-ligne-1".into(),
            n: 1,
        },
    );
    assert_eq!(due(&g, "PK-L1").len(), 1);
}

/// PK-W1: an army falling below 25% of its starting strength rolls for army morale, once.
#[test]
fn pk_w1_army_below_a_quarter_queues_army_morale_once() {
    let mut g = game("mars-la-tour", kepi::rules::pk::ID);
    let french: Vec<String> = g
        .state()
        .units
        .iter()
        .filter(|u| u.unit.side == Side::French)
        .map(|u| u.unit.id.clone())
        .collect();
    for id in &french {
        act(
            &mut g,
            Action::SetCount {
                unit: id.clone(),
                counter: Counter::Strength,
                value: 0,
                notes: Vec::new(),
            },
        );
    }
    let w = due(&g, "PK-W1");
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].side, Some(Side::French));
}

/// PW-V1: the army that crosses half its SP is flagged defeated, once.
#[test]
fn pw_v1_an_army_crossing_half_its_sp_is_flagged_defeated() {
    let mut g = game("pw-skirmish", kepi::rules::pw::ID);
    // German: 4 + 4 + 4 + 4 + 2 + 4 = 22 SP in 6 units; defeated at 12 SP lost.
    for (u, n) in [("de-inf-1", 4), ("de-inf-2", 4), ("de-inf-3", 3)] {
        act(&mut g, Action::LoseStrength { unit: u.into(), n });
    }
    assert!(!pw_defeated(g.state(), Side::German));
    assert!(
        due(&g, "PW-V1").is_empty(),
        "11 of 22 is not more than half"
    );
    act(
        &mut g,
        Action::LoseStrength {
            unit: "de-jaeger".into(),
            n: 1,
        },
    );
    assert!(pw_defeated(g.state(), Side::German));
    let v = due(&g, "PW-V1");
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].side, Some(Side::German));
    assert!(v[0].what.contains("12 of 22 SP"), "{}", v[0].what);
    act(
        &mut g,
        Action::LoseStrength {
            unit: "de-jaeger".into(),
            n: 1,
        },
    );
    assert_eq!(due(&g, "PW-V1").len(), 1, "flagged once");
    assert!(!pw_defeated(g.state(), Side::French));
    let items = checklist(g.state());
    assert!(
        items
            .iter()
            .any(|i| i.rule.as_str() == "PW-V1" && i.what.starts_with("DEFEATED"))
    );
}

/// Waiving is an action: logged with its reason and the rule it waives, and undoable.
#[test]
fn waiving_a_check_is_logged() {
    let mut g = game("mars-la-tour", kepi::rules::pk::ID);
    act(
        &mut g,
        Action::LoseStrength {
            unit: "55e-ligne-1".into(),
            n: 2,
        },
    );
    let id = due(&g, "PK-L1")[0].id;
    let e = g
        .act(
            Action::WaiveDue {
                id,
                reason: "rolled at the table".into(),
            },
            t(3),
        )
        .unwrap()
        .clone();
    assert!(e.summary.starts_with("waived: PK-L1"), "{}", e.summary);
    assert!(e.summary.contains("rolled at the table"));
    assert!(e.rules.contains(&"PK-L1".to_string()));
    assert!(g.state().due.is_empty());
    assert!(
        g.act(
            Action::ResolveDue {
                id,
                effects: Vec::new()
            },
            t(4)
        )
        .is_err(),
        "gone"
    );
    g.undo(t(5)).unwrap();
    assert_eq!(g.state().due.len(), 1, "undoing the waiver brings it back");
}

/// Undo restores the earlier state, so the checks an undone action queued go with it.
#[test]
fn undo_removes_the_checks_an_undone_action_queued() {
    let mut g = game("mars-la-tour", kepi::rules::pk::ID);
    act(
        &mut g,
        Action::AddFatigue {
            unit: "12th-grenadiers-1".into(),
            n: 2,
        },
    );
    act(
        &mut g,
        Action::SetLevel {
            unit: "12th-grenadiers-1".into(),
            level: Level::Shaken,
        },
    );
    assert_eq!(g.state().due.len(), 2);
    let rally = due(&g, "PK-E1")[0].clone();
    g.undo(t(5)).unwrap();
    assert_eq!(g.state().due.len(), 1);
    assert!(due(&g, "PK-E1").is_empty());
    assert_eq!(
        due(&g, "PK-X5").len(),
        1,
        "the earlier action's check stays"
    );
    g.redo(t(6)).unwrap();
    assert_eq!(
        due(&g, "PK-E1"),
        vec![&rally],
        "redo queues it again, same id"
    );
    // Replaying the log rebuilds the same due list.
    let replayed = Game::from_log(g.log().to_vec(), None).unwrap();
    assert_eq!(replayed.state().due, g.state().due);
}

/// The pure function: same inputs, same checks; a waiver or a done check queues nothing.
#[test]
fn checks_after_is_pure() {
    let g = game("mars-la-tour", kepi::rules::pk::ID);
    let before = g.state().clone();
    let a = Action::SetLevel {
        unit: "55e-ligne-1".into(),
        level: Level::Broken,
    };
    let after = kepi::game::apply(&before, &a).unwrap();
    let mut bare = after.clone();
    bare.due = Default::default();
    bare.next_due = 0;
    let q = checks_after(&before, &a, &bare);
    let queued: Vec<Due> = after.due.iter().map(|d| (**d).clone()).collect();
    assert_eq!(q, queued);
    assert_eq!(q[0].id, 0);
    assert_eq!(after.next_due, 1);
}

/// SPI-S1: isolated units lose 1 CP at the end of their side's movement phase.
#[test]
fn spi_s1_isolated_units_at_the_end_of_movement() {
    let mut g = game("spi-1870", kepi::rules::spi::ID);
    let id = g
        .state()
        .units
        .iter()
        .find(|u| u.unit.side == Side::German && u.unit.arrives.is_none_or(|t| t <= 1))
        .unwrap()
        .unit
        .id
        .clone();
    act(
        &mut g,
        Action::SetSupply {
            unit: id.clone(),
            supply: Supply::Isolated,
        },
    );
    act(&mut g, Action::NextPhase); // German movement
    assert!(due(&g, "SPI-S1").is_empty());
    let items = checklist(g.state());
    assert!(
        items
            .iter()
            .any(|i| i.rule.as_str() == "SPI-S1" && i.units.contains(&id))
    );
    act(&mut g, Action::NextPhase); // German combat
    let s = due(&g, "SPI-S1");
    assert_eq!(s.len(), 1);
    assert_eq!(s[0].unit.as_deref(), Some(id.as_str()));
}

/// FR-B1 when the calendars advance; FR-C2 a disorganised unit disorganised again; reinforcements
/// due this turn appear in the checklist.
#[test]
fn fr_b1_blockade_and_fr_c2_disorganised_again() {
    let mut g = game("fr1870-august", kepi::rules::fr1870::ID);
    let id = g.state().units[0].unit.id.clone();
    for _ in 0..2 {
        act(
            &mut g,
            Action::SetFlag {
                unit: id.clone(),
                flag: "disorganised".parse().unwrap(),
                on: true,
            },
        );
    }
    assert_eq!(due(&g, "FR-C2").len(), 1);
    for _ in 0..4 {
        act(&mut g, Action::NextPhase);
    }
    assert_eq!(g.state().phase_name(), "Advance calendars");
    assert_eq!(due(&g, "FR-B1").len(), 1);
    act(&mut g, Action::NextPhase); // turn 2: reinforcements of turn 2
    let arriving: Vec<String> = g
        .state()
        .units
        .iter()
        .filter(|u| u.unit.arrives == Some(2) && u.unit.side == Side::French)
        .map(|u| u.unit.id.clone())
        .collect();
    if !arriving.is_empty() {
        let items = checklist(g.state());
        assert!(
            items
                .iter()
                .any(|i| i.what.contains("arrive this turn") && i.units == arriving),
            "{items:?}"
        );
    }
}

/// GSP-C2: a structure reaching its threshold in a resolution is destroyed.
#[test]
fn gsp_c2_a_structure_reaching_its_threshold() {
    let mut g = game("st-privat", kepi::rules::gsp::ID);
    let res = Resolution {
        system: kepi::rules::gsp::ID,
        action: "structure".into(),
        modifiers: vec![],
        dice: vec![],
        // The outcome as the rule writes it to the log (every field of the `structure` action's
        // outcome: the flow reads it back into that type).
        outcome: Some(serde_json::json!({
            "total": 11,
            "destroyed": true,
            "structure": {"kind": "small-building", "before": 8, "added": 3, "total": 11,
                          "threshold": 10, "destroyed": true, "destroyed_this_turn": true},
            "equipment": null,
            "cover_lost": true
        })),
        summary: "destroyed".into(),
        odds: vec![],
        rolled: None,
        notes: vec![],
    };
    g.resolve(&[(Die::D6, 3)], |_, _| Ok((res, vec![])), t(1))
        .unwrap();
    let c = due(&g, "GSP-C2");
    assert_eq!(c.len(), 1);
    assert!(c[0].what.contains("small-building destroyed"));
}

/// Who has done what: moves and fire are counted, and the new turn clears them.
#[test]
fn activity_and_end_of_turn_reset() {
    let mut g = game("mars-la-tour", kepi::rules::pk::ID);
    act(
        &mut g,
        Action::Move {
            effects: Vec::new(),
            unit: "12th-grenadiers-1".into(),
            to: "free".parse().unwrap(),
            notes: Vec::new(),
            mp: None,
        },
    );
    resolve_pk(
        &mut g,
        "fire",
        "12th-grenadiers-2",
        Some("55e-ligne-1"),
        |_| {},
    );
    let a = activity(g.state());
    assert_eq!(a.counts().0, 1);
    assert_eq!(a.counts().1, 1);
    for _ in 0..4 {
        act(&mut g, Action::NextPhase);
    }
    let a = activity(g.state());
    assert_eq!(a.turn, 2);
    assert_eq!(
        a.counts(),
        (0, 0, 0, 0),
        "NextPhase into a new turn clears the markers"
    );
}

/// Saves from before the due list load, and a state with nothing due serialises as before (so old
/// logs keep their hashes).
#[test]
fn old_states_load_and_hash_the_same() {
    let g = game("mars-la-tour", kepi::rules::pk::ID);
    let v = serde_json::to_value(g.state()).unwrap();
    assert!(v.get("due").is_none() && v.get("next_due").is_none());
    let back: GameState = serde_json::from_value(v).unwrap();
    assert_eq!(&back, g.state());
}
