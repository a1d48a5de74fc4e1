//! The game session as a library: replay, undo/redo exactness, the resolution extension point,
//! count invariants, card validation and save migration.

use super::common::mlt_game;

use chrono::{TimeZone, Utc};
use kepi::dice::{DiceExpr, Die, Ratio};
use kepi::game::{
    Action, ActionError, Counter, EntryKind, Flag, Game, Level, MAX_FATIGUE, SeedSecret, apply,
    verify_chain,
};
use kepi::registry::builtin_scenario;
use kepi::roster::{Position, Scenario, validate_roster};
use kepi::rules::{Effect, ModifierLine, Resolution, RuleId};
use kepi::store::{SaveFile, parse_save};
use kepi::tables::Provenance;
use proptest::prelude::*;

fn t(s: i64) -> chrono::DateTime<Utc> {
    Utc.timestamp_opt(1_000_000 + s, 0).single().unwrap()
}

fn mlt() -> Scenario {
    builtin_scenario("mars-la-tour").unwrap()
}

/// A fake P&K fire resolution: d10 + 18 figures against DF 10, losses = floor(LF / DF).
fn fake_fire(
    target: &str,
) -> impl FnOnce(
    &kepi::game::GameState,
    &mut kepi::dice::DiceSource,
) -> Result<(Resolution<serde_json::Value>, Vec<Action>), kepi::rules::RuleError>
+ '_ {
    move |_state, dice| {
        let d = dice.roll(Die::D10, "fire d10")?;
        let pct = dice.roll(Die::Pct, "leader d%")?;
        let lf = 18 + d;
        let losses = lf / 10;
        let res = Resolution {
            system: kepi::rules::pk::ID,
            action: "fire".into(),
            modifiers: vec![ModifierLine::new(
                "figures",
                Effect::Base(Ratio::int(18)),
                RuleId::new("PK-F1"),
                Provenance::Seed,
            )],
            dice: dice.rolls().to_vec(),
            outcome: Some(serde_json::json!({ "casualties": losses, "leader_lost": pct >= 86 })),
            summary: format!("{losses} casualties"),
            odds: Vec::new(),
            rolled: None,
            notes: Vec::new(),
        };
        let mut effects = vec![Action::LoseStrength {
            unit: target.to_string(),
            n: losses,
        }];
        if pct >= 86 {
            effects.push(Action::LoseLeader {
                unit: target.to_string(),
            });
        }
        effects.push(Action::AddFatigue {
            unit: target.to_string(),
            n: 2,
        });
        Ok((res, effects))
    }
}

fn script(g: &mut Game) {
    let mut k = 1;
    let mut now = || {
        k += 1;
        t(k)
    };
    g.act(
        Action::LoseStrength {
            unit: "12th-grenadiers-1".into(),
            n: 3,
        },
        now(),
    )
    .unwrap();
    g.roll(&"2d6".parse::<DiceExpr>().unwrap(), now()).unwrap();
    g.resolve(&[], fake_fire("8e-ligne-1"), now()).unwrap();
    g.act(
        Action::SetFlag {
            unit: "8e-ligne-1".into(),
            flag: Flag::Disordered.into(),
            on: true,
        },
        now(),
    )
    .unwrap();
    g.act(Action::NextPhase, now()).unwrap();
    g.undo(now()).unwrap();
    g.roll(&"d%".parse::<DiceExpr>().unwrap(), now()).unwrap();
    g.act(
        Action::Move {
            effects: Vec::new(),
            unit: "16th-uhlans".into(),
            to: Position::Off,
            notes: Vec::new(),
            mp: None,
        },
        now(),
    )
    .unwrap();
    g.act(
        Action::SetLevel {
            unit: "16th-uhlans".into(),
            level: Level::Shaken,
        },
        now(),
    )
    .unwrap();
}

#[test]
fn seed_and_actions_replay_exactly() {
    let mut a = mlt_game(7);
    script(&mut a);
    let mut b = mlt_game(7);
    script(&mut b);
    assert_eq!(a.state(), b.state(), "same seed + actions: same state");
    assert_eq!(a.log(), b.log(), "and the same log, hash for hash");
    // From the log alone.
    let c = Game::from_log(a.log().to_vec(), a.secret().cloned()).unwrap();
    assert_eq!(c.state(), a.state());
    // Through a save.
    let bytes = serde_json::to_vec(&SaveFile::of(&a)).unwrap();
    let d = parse_save(&bytes, "mem").unwrap();
    assert_eq!(d.state(), a.state());
    assert_eq!(d.head(), a.head());
    // Every seeded die re-rolls from the seed.
    assert_eq!(a.audit_dice(7).unwrap(), 2 + 2 + 1);
    assert!(a.audit_dice(8).is_err());
    // A different seed gives different dice.
    let mut e = mlt_game(8);
    script(&mut e);
    assert_ne!(e.log()[2].dice, a.log()[2].dice);
}

#[test]
fn undo_and_redo_are_exact_and_dice_never_rewind() {
    let mut g = mlt_game(3);
    let before = g.state().clone();
    g.resolve(&[], fake_fire("8e-ligne-1"), t(1)).unwrap();
    let after = g.state().clone();
    let draws = after.dice.draws;
    assert!(draws > 0);
    g.undo(t(2)).unwrap();
    let mut expect = before.clone();
    expect.dice.draws = draws; // dice already rolled stay rolled
    assert_eq!(g.state(), &expect, "undo restores the whole resolution");
    g.redo(t(3)).unwrap();
    assert_eq!(g.state(), &after, "redo reapplies it exactly");
    // A re-roll after undo is a new roll with new dice.
    g.undo(t(4)).unwrap();
    g.resolve(&[], fake_fire("8e-ligne-1"), t(5)).unwrap();
    assert!(g.state().dice.draws > draws);
    let EntryKind::Act {
        action: Action::Resolved { resolution, .. },
    } = &g.log().last().unwrap().kind
    else {
        panic!("resolution logged");
    };
    assert_eq!(resolution.dice.len(), 2);
    assert!(
        g.redo(t(6)).is_err(),
        "a new action clears the redo history"
    );
    // Many undos back to the start, then redos forward.
    let mut h = mlt_game(4);
    let mut states = vec![h.state().clone()];
    for i in 0..10 {
        h.act(
            Action::AddFatigue {
                unit: "3rd-jaeger".into(),
                n: i,
            },
            t(i as i64),
        )
        .unwrap();
        states.push(h.state().clone());
    }
    for i in (0..10).rev() {
        h.undo(t(100)).unwrap();
        assert_eq!(h.state(), &states[i]);
    }
    assert!(h.undo(t(101)).is_err());
    for s in states.iter().skip(1) {
        h.redo(t(102)).unwrap();
        assert_eq!(h.state(), s);
    }
    verify_chain(h.log()).unwrap();
}

#[test]
fn a_resolution_is_all_or_nothing() {
    let mut g = mlt_game(5);
    let before = g.state().clone();
    let r = g.resolve(
        &[(Die::D10, 4)],
        |_s, dice| {
            dice.roll(Die::D10, "fire d10")?;
            Ok((
                Resolution {
                    system: kepi::rules::pk::ID,
                    action: "fire".into(),
                    modifiers: vec![],
                    dice: dice.rolls().to_vec(),
                    outcome: Some(serde_json::json!({"casualties": 50})),
                    summary: "50 casualties".into(),
                    odds: vec![],
                    rolled: None,
                    notes: vec![],
                },
                vec![
                    Action::AddFatigue {
                        unit: "8e-ligne-1".into(),
                        n: 1,
                    },
                    Action::LoseStrength {
                        unit: "8e-ligne-1".into(),
                        n: 50,
                    },
                ],
            ))
        },
        t(1),
    );
    assert!(matches!(r, Err(ActionError::OutOfRange { .. })), "{r:?}");
    assert_eq!(
        g.state(),
        &before,
        "nothing of a refused resolution applies"
    );
    assert_eq!(g.log().len(), 1);
    // Entered dice are used and logged as entered.
    g.resolve(
        &[(Die::D10, 9), (Die::Pct, 90)],
        fake_fire("8e-ligne-1"),
        t(2),
    )
    .unwrap();
    let u = g.state().unit("8e-ligne-1").unwrap();
    assert_eq!(u.strength, 22 - 2);
    assert_eq!(u.leaders, 2, "d% 90 >= 86: a leader falls (PK-L1)");
    assert!(g.log()[1].rules.contains(&"PK-F1".to_string()));
}

#[test]
fn next_phase_wraps_into_a_new_turn_and_clears_markers() {
    let mut g = mlt_game(1);
    g.act(
        Action::Move {
            effects: Vec::new(),
            unit: "3rd-jaeger".into(),
            to: Position::Free,
            notes: Vec::new(),
            mp: None,
        },
        t(1),
    )
    .unwrap();
    assert!(g.state().unit("3rd-jaeger").unwrap().moved);
    for _ in 0..4 {
        g.act(Action::NextPhase, t(2)).unwrap();
    }
    assert_eq!(g.state().turn, 2);
    assert_eq!(g.state().phase, 0);
    assert!(!g.state().unit("3rd-jaeger").unwrap().moved);
    assert_eq!(g.state().date.unwrap().to_string(), "1870-08-16");
    // The board games advance the calendar: SPI-T1, 3 days a turn.
    let spi = builtin_scenario("spi-1870").unwrap();
    let mut s = Game::new(&spi, kepi::rules::spi::ID, SeedSecret::new(1), t(0));
    for _ in 0..6 {
        s.act(Action::NextPhase, t(1)).unwrap();
    }
    assert_eq!(s.state().turn, 2);
    assert_eq!(s.state().date.unwrap().to_string(), "1870-08-04");
    let fr = builtin_scenario("fr1870-august").unwrap();
    let f = Game::new(&fr, kepi::rules::fr1870::ID, SeedSecret::new(1), t(0));
    assert_eq!(f.state().phases.len(), 5);
    assert_eq!(f.state().phase_name(), "French movement");
}

#[test]
fn edits_break_the_chain_at_the_edited_entry() {
    let mut g = mlt_game(9);
    script(&mut g);
    let mut log = g.log().to_vec();
    log[3].summary.push('!');
    assert_eq!(verify_chain(&log).unwrap_err().index, 3);
    let mut log = g.log().to_vec();
    log.remove(4);
    assert_eq!(verify_chain(&log).unwrap_err().index, 4);
    let mut log = g.log().to_vec();
    let extra = log[2].clone();
    log.insert(5, extra);
    assert_eq!(verify_chain(&log).unwrap_err().index, 5);
}

#[test]
fn reveal_checks_the_commitment() {
    let mut g = mlt_game(11);
    script(&mut g);
    g.reveal(t(50)).unwrap();
    assert_eq!(g.state().dice.revealed, Some(11));
    assert!(g.reveal(t(51)).is_err());
    let again = Game::from_log(g.log().to_vec(), None).unwrap();
    assert_eq!(again.state(), g.state());
    // A forged reveal does not replay.
    let mut log = g.log().to_vec();
    let last = log.last_mut().unwrap();
    last.kind = EntryKind::Reveal {
        seed: 12,
        salt: "s".into(),
    };
    last.hash = kepi::game::entry_hash(last);
    assert!(Game::from_log(log, None).is_err());
}

#[test]
fn v0_saves_migrate_and_newer_saves_are_refused() {
    let mut g = mlt_game(21);
    script(&mut g);
    let mut v = serde_json::to_value(SaveFile::of(&g)).unwrap();
    // Make it look like a v0 save: bare seed, no format, version 0 (and a v0 commitment: no salt).
    let v0 = {
        let mut h = Game::new(
            &mlt(),
            kepi::rules::pk::ID,
            SeedSecret {
                seed: 21,
                salt: String::new(),
            },
            t(0),
        );
        script(&mut h);
        let mut v0 = serde_json::to_value(SaveFile::of(&h)).unwrap();
        let m = v0.as_object_mut().unwrap();
        m.remove("secret");
        m.remove("format");
        m.insert("seed".into(), 21.into());
        m.insert("version".into(), 0.into());
        v0
    };
    let game = parse_save(&serde_json::to_vec(&v0).unwrap(), "old.json").unwrap();
    assert_eq!(game.secret().unwrap().seed, 21);
    assert_eq!(game.secret().unwrap().salt, "");
    v["version"] = 99.into();
    let err = parse_save(&serde_json::to_vec(&v).unwrap(), "new.json")
        .unwrap_err()
        .to_string();
    assert!(err.contains("new.json") && err.contains("newer"), "{err}");
}

#[test]
fn bad_cards_are_located() {
    let src = "name = \"x\"\nsystem = \"pk\"\n\n[[unit]]\nname = \"A\"\nside = \"german\"\narm = \"infantry\"\nstrength = 10\n\n[[unit]]\nname = \"B\"\nside = \"german\"\narm = \"infantry\"\nquality = \"poor\"\nstrength = 10\n";
    let e = validate_roster("cards/x.toml", src, None).unwrap_err();
    assert_eq!(e.file, "cards/x.toml");
    assert_eq!(e.line, 14);
    assert_eq!(e.field, "unit[1].quality");
    assert!(e.accepted.contains("veteran"), "{e}");
    let e = validate_roster(
        "y.toml",
        "[[unit]]\nname = \"A\"\nside = \"swiss\"\narm = \"infantry\"\nstrength = 1\n",
        None,
    )
    .unwrap_err();
    assert_eq!((e.line, e.field.as_str()), (3, "unit[0].side"));
    assert!(e.accepted.contains("french"));
    let e = validate_roster(
        "z.toml",
        "[[unit]]\nname = \"A\"\nside = \"french\"\narm = \"infantry\"\nstrength = 0\n",
        None,
    )
    .unwrap_err();
    assert_eq!(e.field, "unit[0].strength");
    assert_eq!(e.accepted, "1 to 1000");
    let e = validate_roster(
        "w.toml",
        "[[unit]]\nname = \"A\"\nside = \"french\"\narm = \"infantry\"\nstrength = 3\nimage = \"../../etc/passwd\"\n",
        None,
    )
    .unwrap_err();
    assert_eq!(e.field, "unit[0].image");
    assert_eq!(e.line, 6);
    let e = validate_roster(
        "v.toml",
        "[[unit]]\nname = \"A\"\nside = \"french\"\narm = \"infantry\"\nstrength = 3\ncolour = \"blue\"\n",
        None,
    )
    .unwrap_err();
    assert!(e.message.contains("colour"), "{e}");
    let e = validate_roster(
        "dup.toml",
        "[[unit]]\nname = \"A\"\nside = \"french\"\narm = \"infantry\"\nstrength = 3\n[[unit]]\nname = \"a\"\nside = \"french\"\narm = \"infantry\"\nstrength = 3\n",
        None,
    )
    .unwrap_err();
    assert_eq!(e.line, 7);
    assert!(e.message.contains("already used"));
}

#[test]
fn scenarios_are_historical_and_sized() {
    let mlt = mlt();
    let names: Vec<&str> = mlt.units.iter().map(|u| u.name.as_str()).collect();
    assert!(names.iter().any(|n| n.contains("12th Grenadiers")));
    assert!(
        names
            .iter()
            .any(|n| n.contains("7th (Magdeburg) Cuirassiers"))
    );
    assert!(names.iter().any(|n| n.contains("mitrailleuses")));
    assert!(mlt.units.iter().all(|u| u.leaders == 3), "PK-L1");
    let sp = builtin_scenario("st-privat").unwrap();
    assert_eq!(sp.system, Some(kepi::rules::gsp::ID));
    for side in [kepi::roster::Side::German, kepi::roster::Side::French] {
        assert!(sp.units.iter().filter(|u| u.side == side).count() >= 12);
    }
    let pw = builtin_scenario("pw-skirmish").unwrap();
    assert!(
        pw.units
            .iter()
            .all(|u| u.position.hex().is_some() && u.facing.is_some())
    );
    let spi = builtin_scenario("spi-1870").unwrap();
    let german = |reinforcements: bool| -> u32 {
        spi.units
            .iter()
            .filter(|u| {
                u.side == kepi::roster::Side::German
                    && u.arm == kepi::roster::Arm::Infantry
                    && u.arrives.is_some() == reinforcements
            })
            .map(|u| u.strength)
            .sum()
    };
    assert_eq!(
        german(false),
        5 + 6 + 3 * 5 + 3 * 6 + 2 * 3 + 2 * 5 + 2 * 6,
        "SPI-I1, the initial forces"
    );
    // The Reinforcement Chart's German "one 5*", "one 3*", "one 5*" (Game-Turns 4 to 6).
    assert_eq!(german(true), 5 + 3 + 5, "SPI-I1, the reinforcements");
    let fr = builtin_scenario("fr1870-august").unwrap();
    assert_eq!(
        fr.units
            .iter()
            .find(|u| u.id == "fr-1rc")
            .unwrap()
            .position
            .to_string(),
        "2037"
    );
    assert_eq!(
        fr.units.iter().find(|u| u.id == "fr-mar").unwrap().arrives,
        Some(6)
    );
}

fn arb_action() -> impl Strategy<Value = Action> {
    let units = prop::sample::select(vec![
        "12th-grenadiers-1".to_string(),
        "3rd-jaeger".to_string(),
        "far3-light-1".to_string(),
        "8e-ligne-1".to_string(),
    ]);
    let counters = prop::sample::select(Counter::ALL.to_vec());
    prop_oneof![
        (units.clone(), 0u32..40).prop_map(|(unit, n)| Action::LoseStrength { unit, n }),
        (units.clone(), 0u32..40).prop_map(|(unit, n)| Action::GainStrength { unit, n }),
        (units.clone(), 0u32..150).prop_map(|(unit, n)| Action::AddFatigue { unit, n }),
        units.clone().prop_map(|unit| Action::LoseLeader { unit }),
        units.clone().prop_map(|unit| Action::ResetFatigue { unit }),
        (units, counters, 0u32..200).prop_map(|(unit, counter, value)| Action::SetCount {
            unit,
            counter,
            value,
            notes: Vec::new(),
        }),
        Just(Action::NextPhase),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn no_sequence_drives_a_count_out_of_range(actions in prop::collection::vec(arb_action(), 1..60)) {
        let mut g = mlt_game(1);
        for (i, a) in actions.into_iter().enumerate() {
            let before = g.state().clone();
            if g.act(a, t(i as i64)).is_err() {
                prop_assert_eq!(g.state(), &before, "a refused action changes nothing");
            }
            for u in &g.state().units {
                prop_assert!(u.strength <= u.max_strength);
                prop_assert!(u.leaders <= u.max_leaders);
                prop_assert!(u.fatigue <= MAX_FATIGUE);
                prop_assert!(u.melees <= kepi::game::MAX_MELEES);
            }
            if i % 7 == 3 {
                let _ = g.undo(t(0));
            }
        }
        let replayed = Game::from_log(g.log().to_vec(), g.secret().cloned()).unwrap();
        prop_assert_eq!(replayed.state(), g.state());
    }
}

#[test]
fn apply_is_pure() {
    let g = mlt_game(1);
    let s = g.state().clone();
    let a = Action::LoseStrength {
        unit: "3rd-jaeger".into(),
        n: 2,
    };
    let n1 = apply(&s, &a).unwrap();
    let n2 = apply(&s, &a).unwrap();
    assert_eq!(n1, n2);
    assert_eq!(&s, g.state());
    assert!(matches!(
        apply(
            &s,
            &Action::LoseStrength {
                unit: "nobody".into(),
                n: 1
            }
        ),
        Err(ActionError::UnknownUnit { .. })
    ));
    let nested = Action::Resolved {
        resolution: Box::new(Resolution {
            system: kepi::rules::pk::ID,
            action: "x".into(),
            modifiers: vec![],
            dice: vec![],
            outcome: None,
            summary: String::new(),
            odds: vec![],
            rolled: None,
            notes: vec![],
        }),
        effects: vec![Action::NextPhase],
        draws: 0,
        units: vec![],
        input: None,
    };
    let inner = Action::Resolved {
        resolution: Box::new(Resolution {
            system: kepi::rules::pk::ID,
            action: "y".into(),
            modifiers: vec![],
            dice: vec![],
            outcome: None,
            summary: String::new(),
            odds: vec![],
            rolled: None,
            notes: vec![],
        }),
        effects: vec![nested],
        draws: 0,
        units: vec![],
        input: None,
    };
    assert!(
        apply(&s, &inner).is_err(),
        "no resolution inside a resolution"
    );
}

#[test]
fn every_entry_kind_reads_back_as_written() {
    // Start, act, resolution, roll, undo, redo and reveal entries: each is written with its kind's
    // members beside the common ones and must read back equal (and so hash the same).
    let mut g = mlt_game(11);
    script(&mut g);
    g.undo(t(100)).unwrap();
    g.redo(t(101)).unwrap();
    g.reveal(t(102)).unwrap();
    for e in g.log() {
        let json = serde_json::to_string(e).unwrap();
        let back: kepi::game::LogEntry = serde_json::from_str(&json).unwrap();
        assert_eq!(&back, e, "{json}");
        assert_eq!(kepi::game::entry_hash(&back), e.hash);
    }
    let kinds: Vec<&str> = g
        .log()
        .iter()
        .map(|e| match e.kind {
            EntryKind::Start { .. } => "start",
            EntryKind::Act { .. } => "act",
            EntryKind::Undo => "undo",
            EntryKind::Redo => "redo",
            EntryKind::Reveal { .. } => "reveal",
        })
        .collect();
    for k in ["start", "act", "undo", "redo", "reveal"] {
        assert!(kinds.contains(&k), "{k} missing from {kinds:?}");
    }
    // An act entry without its action is refused, naming the missing member.
    let mut v = serde_json::to_value(&g.log()[1]).unwrap();
    v.as_object_mut().unwrap().remove("action");
    let err = serde_json::from_value::<kepi::game::LogEntry>(v).unwrap_err();
    assert!(err.to_string().contains("missing field `action`"), "{err}");
}
