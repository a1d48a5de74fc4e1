//! 1870: worked examples of the seed, each citing its id.

use super::common::d6;

use kepi::dice::Prob;
use kepi::rules::fr1870::{
    self, Arm, BlockadeEvent, BlockadeKind, Fate, FortressRole, FrCell, FrCombatInput, FrFortress,
    FrResult, FrUnit, Refusal, StormInput, TurnEnd, blockade,
};
use kepi::tables::Provenance;
use proptest::prelude::*;

fn t() -> &'static fr1870::Fr1870Tables {
    kepi::tables::builtin::<kepi::rules::fr1870::Fr1870Tables>()
}

fn roll(i: &FrCombatInput, face: u32) -> fr1870::FrCombatOutcome {
    let mut dice = d6(face);
    fr1870::combat(i, t(), Some(&mut dice))
        .unwrap()
        .outcome
        .unwrap()
}

/// FR-C1: every printed cell (row, modified die) -> result.
#[test]
fn fr_c1_every_printed_cell() {
    let printed: [(&str, u32, u32, &[&str]); 3] = [
        (
            "1:3",
            1,
            3,
            &["AE", "AE", "AE", "AE", "AD", "AD", "AD", "R"],
        ),
        (
            "1:2",
            1,
            2,
            &["AE", "AE", "AE", "AD", "AD", "AD,DD", "R", "DR"],
        ),
        ("1:1", 1, 1, &["AD", "AD", "AD,DR", "AD,DD"]),
    ];
    let mut seed_cells = 0;
    for (row, a, d, cells) in printed {
        for (i, want) in cells.iter().enumerate() {
            let die = i as i32 - 1;
            // Reach modified die `die` with a face of 1 and a modifier, or a face of die.
            let (face, m) = if die >= 1 {
                (die as u32, 0)
            } else {
                (1, die - 1)
            };
            let mut inp = FrCombatInput::plain(a, d);
            inp.die_mod = m;
            let o = roll(&inp, face);
            assert_eq!(o.odds, row);
            assert_eq!(o.modified_die, Some(die));
            assert_eq!(
                o.result.as_ref().map(|r| r.to_string()).as_deref(),
                Some(*want),
                "{row} die {die}"
            );
            let cell = t()
                .crt
                .get(row)
                .and_then(|c| c.get(&die.to_string()))
                .unwrap();
            assert_eq!(cell.provenance, Provenance::Seed);
            seed_cells += 1;
        }
    }
    assert_eq!(seed_cells, 20);
    let known = t()
        .crt
        .values()
        .flat_map(|c| c.values())
        .filter(|c| c.provenance == Provenance::Seed)
        .count();
    assert_eq!(known, 20, "only the printed cells are seed");
}

#[test]
fn fr_c1_unknown_cells_ask_the_umpire() {
    let o = roll(&FrCombatInput::plain(4, 2), 3);
    assert_eq!(o.odds, "2:1");
    assert_eq!(o.result, None);
    assert_eq!(
        o.message.as_deref(),
        Some("enter the result from your printed chart")
    );
    let mut dice = d6(3);
    let r = fr1870::combat_with_result(
        &FrCombatInput::plain(4, 2),
        t(),
        Some(&mut dice),
        Some("DR"),
    )
    .unwrap();
    let o = r.outcome.unwrap();
    assert!(o.entered);
    assert_eq!(o.result.unwrap().to_string(), "DR");
    // A printed cell cannot be overridden.
    let mut dice = d6(6);
    assert!(
        fr1870::combat_with_result(
            &FrCombatInput::plain(1, 3),
            t(),
            Some(&mut dice),
            Some("DE")
        )
        .is_err()
    );
    // The 1:1 row is known on 1-2 and unknown on 3-6: odds show both.
    let p = fr1870::combat(&FrCombatInput::plain(3, 3), t(), None).unwrap();
    assert_eq!(p.odds_total(), Prob::ONE);
    let unknown = p
        .odds
        .iter()
        .find(|l| l.outcome.starts_with("unknown"))
        .unwrap();
    assert_eq!(unknown.p, Prob::new(4, 6));
}

#[test]
fn fr_c1_outside_the_table() {
    let o = roll(&FrCombatInput::plain(1, 4), 6);
    assert_eq!(o.result.unwrap().to_string(), "AE");
    assert_eq!(o.die, None, "no die needed");
    let o = roll(&FrCombatInput::plain(2, 7), 6);
    assert_eq!(o.result.unwrap().to_string(), "AE", "1 against 3.5");
    let o = roll(&FrCombatInput::plain(7, 1), 1);
    assert_eq!(o.result.unwrap().to_string(), "DE");
    let o = roll(&FrCombatInput::plain(6, 1), 1);
    assert_eq!(o.odds, "6:1");
    assert_eq!(o.result, None);
}

#[test]
fn fr_s1_unsupplied_sum_first_round_down_in_attack_up_in_defence() {
    let mut i = FrCombatInput::plain(3, 3);
    i.attackers = vec![
        FrUnit {
            supplied: false,
            ..FrUnit::infantry(3)
        },
        FrUnit {
            supplied: false,
            ..FrUnit::infantry(2)
        },
    ];
    // attack: (3+2)/2 = 2.5 -> 2 ; defence 3 -> 1:2
    let r = fr1870::combat(&i, t(), None).unwrap();
    assert!(r.summary.starts_with("1:2: 2 : 3"), "{}", r.summary);
    let mut i = FrCombatInput::plain(6, 5);
    i.defenders[0].supplied = false;
    // defence 5/2 = 2.5 -> 3 ; 6:3 = 2:1
    assert!(
        fr1870::combat(&i, t(), None)
            .unwrap()
            .summary
            .starts_with("2:1: 6 : 3")
    );
    // Disorganised and unsupplied: x1/4.
    let mut i = FrCombatInput::plain(2, 8);
    i.defenders[0].supplied = false;
    i.defenders[0].disorganised = true;
    assert!(
        fr1870::combat(&i, t(), None)
            .unwrap()
            .summary
            .starts_with("1:1: 2 : 2")
    );
}

#[test]
fn fr_c2_effects() {
    let i = FrCombatInput::plain(1, 2);
    let e = fr1870::apply_result(&"AD,DD".parse::<FrCell>().unwrap(), &i);
    assert_eq!(e.attackers, vec![Fate::Disorganised]);
    assert_eq!(e.defenders, vec![Fate::Disorganised]);
    // A disorganised unit disorganised again is eliminated.
    let mut j = i.clone();
    j.attackers[0].disorganised = true;
    let e = fr1870::apply_result(&"AD".parse().unwrap(), &j);
    assert_eq!(e.attackers, vec![Fate::Eliminated]);
    // Retreat blocked eliminates; a retreat vacates the cell.
    let e = fr1870::apply_result(&"DR".parse().unwrap(), &i);
    assert_eq!(e.defenders, vec![Fate::Retreats]);
    assert!(e.may_advance);
    let mut k = i.clone();
    k.defenders[0].can_retreat = false;
    assert_eq!(
        fr1870::apply_result(&"DRD".parse().unwrap(), &k).defenders,
        vec![Fate::Eliminated]
    );
    assert_eq!(
        fr1870::apply_result(&"DRD".parse().unwrap(), &i).defenders,
        vec![Fate::DisorganisedRetreats]
    );
    // Exchange: the attacker loses at least the defender's printed potential.
    let e = fr1870::apply_result(&"E".parse().unwrap(), &FrCombatInput::plain(9, 4));
    assert_eq!(e.attacker_must_lose, Some(4));
    assert_eq!(e.defenders, vec![Fate::Eliminated]);
    assert!(fr1870::apply_result(&"AE".parse().unwrap(), &i).attackers == vec![Fate::Eliminated]);
    assert!(!fr1870::apply_result(&"R".parse().unwrap(), &i).may_advance);
    assert_eq!(FrResult::ALL.len(), 8);
    assert!("AD,XX".parse::<FrCell>().is_err());
}

#[test]
fn fr_f1_fortresses() {
    // Besieged: DR ignored, D always applies.
    let mut i = FrCombatInput::plain(4, 2);
    i.siege_combat = true;
    let e = fr1870::apply_result(&"DRD".parse().unwrap(), &i);
    assert_eq!(e.defenders, vec![Fate::Disorganised]);
    // Assault: taken only on E or DE; DE disorganises one besieger; E adds the coefficient.
    i.assault = true;
    i.fortress = Some(FrFortress {
        coefficient: 2,
        role: FortressRole::DefendsOccupied,
        choice: None,
    });
    assert!(!fr1870::apply_result(&"DD".parse().unwrap(), &i).fortress_taken);
    let e = fr1870::apply_result(&"DE".parse().unwrap(), &i);
    assert!(e.fortress_taken && e.besieger_disorganises_one);
    // H12: "disorganise one of the besieger's units, at the besieger's choice": said in the notes.
    assert!(
        e.notes
            .iter()
            .any(|n| n.contains("disorganises one of his units, at his choice")),
        "{:?}",
        e.notes
    );
    let e = fr1870::apply_result(&"E".parse().unwrap(), &i);
    assert!(e.fortress_taken);
    assert_eq!(e.attacker_must_lose, Some(2 + 2));
    // Besieger defending: die -1 reaches the -1 column.
    let mut b = FrCombatInput::plain(1, 3);
    b.besieger_defending = true;
    let o = roll(&b, 1);
    assert_eq!(o.modified_die, Some(0));
    // Occupied fortress of value 2: multiplies two units; the others unsupplied.
    let g = fr1870::garrison(
        &[
            FrUnit::infantry(3),
            FrUnit::infantry(5),
            FrUnit::infantry(4),
            FrUnit::infantry(2),
        ],
        2,
        t(),
    );
    assert_eq!(
        g.iter()
            .filter(|u| u.fortress_multiplied)
            .map(|u| u.potential)
            .collect::<Vec<_>>(),
        vec![5, 4]
    );
    let mut f = FrCombatInput::plain(30, 1);
    f.defenders = g;
    f.fortress = Some(FrFortress {
        coefficient: 2,
        role: FortressRole::DefendsOccupied,
        choice: None,
    });
    // 5*2 + 4*2 + ceil((3+2)/2) = 18 + 3 = 21 -> 30:21 = 1:1
    assert!(
        fr1870::combat(&f, t(), None)
            .unwrap()
            .summary
            .starts_with("1:1: 30 : 21")
    );
    // Unoccupied fortress defends with its coefficient.
    let mut u = FrCombatInput::plain(4, 1);
    u.defenders.clear();
    u.fortress = Some(FrFortress {
        coefficient: 2,
        role: FortressRole::DefendsUnoccupied,
        choice: None,
    });
    assert!(
        fr1870::combat(&u, t(), None)
            .unwrap()
            .summary
            .starts_with("2:1")
    );
}

#[test]
fn fr_f1_storm() {
    for (die, taken) in [(1, false), (3, false), (4, true), (6, true)] {
        let mut dice = d6(die);
        let i = StormInput {
            value: 1,
            occupied: false,
            infantry: true,
        };
        assert_eq!(
            fr1870::storm(&i, t(), Some(&mut dice))
                .unwrap()
                .outcome
                .unwrap()
                .taken,
            taken
        );
    }
    assert!(
        fr1870::storm(
            &StormInput {
                value: 2,
                occupied: false,
                infantry: true
            },
            t(),
            None
        )
        .is_err()
    );
    assert!(
        fr1870::storm(
            &StormInput {
                value: 1,
                occupied: true,
                infantry: true
            },
            t(),
            None
        )
        .is_err()
    );
    assert!(
        fr1870::storm(
            &StormInput {
                value: 1,
                occupied: false,
                infantry: false
            },
            t(),
            None
        )
        .is_err()
    );
    let p = fr1870::storm(
        &StormInput {
            value: 1,
            occupied: false,
            infantry: true,
        },
        t(),
        None,
    )
    .unwrap();
    assert_eq!(p.odds_total(), Prob::ONE);
    assert_eq!(
        p.odds.iter().find(|l| l.outcome == "taken").unwrap().p,
        Prob::new(1, 2)
    );
}

#[test]
fn fr_b1_blockade_state_machine() {
    assert_eq!(blockade::start_paris().start, "PARIS-0");
    for (units, cell) in [
        (0, "M1"),
        (7, "M1"),
        (8, "M2"),
        (14, "M2"),
        (15, "M3"),
        (22, "M3"),
        (23, "M4"),
        (28, "M4"),
    ] {
        assert_eq!(blockade::start_metz(units, t()).unwrap().start, cell);
    }
    assert!(blockade::start_metz(29, t()).is_err());
    assert_eq!(
        blockade::start_fortress("Toul", 2, 2, t()).unwrap(),
        None,
        "stores suffice"
    );
    assert_eq!(
        blockade::start_fortress("Toul", 2, 3, t())
            .unwrap()
            .unwrap()
            .start,
        "[2] +3"
    );
    assert!(blockade::start_fortress("Toul", 2, 5, t()).is_err());

    let m = blockade::start_metz(10, t()).unwrap();
    let s = blockade::end_turn(&m, TurnEnd::Held, t()).unwrap();
    assert_eq!(s.event, BlockadeEvent::Advanced);
    assert_eq!(s.surrendered, None, "calendar length unknown");
    let m = s.state.unwrap();
    assert_eq!(m.advanced, 1);
    let s = blockade::end_turn(&m, TurnEnd::Broken, t()).unwrap();
    assert_eq!(s.event, BlockadeEvent::Flipped);
    let m = s.state.unwrap();
    assert!(m.flipped && m.advanced == 1);
    let s = blockade::end_turn(&m, TurnEnd::Broken, t()).unwrap();
    assert_eq!(s.event, BlockadeEvent::MovedBack);
    let m = s.state.unwrap();
    assert!(m.flipped && m.advanced == 0);
    let s = blockade::end_turn(&m, TurnEnd::Held, t()).unwrap();
    assert_eq!(s.event, BlockadeEvent::Resumed);
    let m = s.state.unwrap();
    assert!(!m.flipped && m.advanced == 1);
    let s = blockade::end_turn(&m, TurnEnd::Lifted, t()).unwrap();
    assert_eq!(s.event, BlockadeEvent::Removed);
    assert!(s.state.is_none());

    let f = blockade::start_fortress("Belfort", 1, 3, t())
        .unwrap()
        .unwrap();
    assert!(
        blockade::end_turn(&f, TurnEnd::Broken, t()).is_err(),
        "a fortress's siege is lifted, not broken"
    );

    let c = blockade::capitulate(&blockade::start_cell("Metz", BlockadeKind::Metz, "METZ-2"));
    assert_eq!(c.event, BlockadeEvent::Surrendered);
    assert!(c.notes.iter().any(|n| n.contains("eliminated")));
    assert_eq!(blockade::metz_besiegers_may_leave(8), 10);
    assert!(blockade::capitulate(&blockade::start_paris()).notes[0].contains("German"));
    assert!(blockade::paris_taken(1));
}

#[test]
fn fr_b1_surrender_when_the_calendar_is_filled() {
    use kepi::tables::RuleTable;
    let src = <fr1870::Fr1870Tables as RuleTable>::BUILTIN;
    let filled = src.replacen(
        "\"M1\" = { value = 0, provenance = \"unknown\"",
        "\"M1\" = { value = 2, provenance = \"house\"",
        1,
    );
    let tt = fr1870::Fr1870Tables::from_source("test.toml", &filled).unwrap();
    let m = blockade::start_metz(3, &tt).unwrap();
    let s = blockade::end_turn(&m, TurnEnd::Held, &tt).unwrap();
    assert_eq!(s.surrendered, Some(false));
    let s = blockade::end_turn(&s.state.unwrap(), TurnEnd::Held, &tt).unwrap();
    assert_eq!(s.event, BlockadeEvent::Surrendered);
}

#[test]
fn fr_c3_cavalry_refusing_combat() {
    use Arm::*;
    assert_eq!(
        fr1870::cavalry_may_refuse(&[Infantry, Infantry], &[Cavalry], true),
        Refusal::MayRefuse
    );
    assert!(matches!(
        fr1870::cavalry_may_refuse(&[Infantry, Cavalry], &[Cavalry], true),
        Refusal::MustFight(_)
    ));
    assert!(matches!(
        fr1870::cavalry_may_refuse(&[Infantry], &[Cavalry, Infantry], true),
        Refusal::MustFight(_)
    ));
    assert!(matches!(
        fr1870::cavalry_may_refuse(&[Infantry], &[Cavalry], false),
        Refusal::MustFight(_)
    ));
}

#[test]
fn fr_r1_stacking_and_r_counters() {
    assert_eq!(fr1870::stacking_excess(4, t()), 0);
    assert_eq!(fr1870::stacking_excess(6, t()), 2);
    assert!(fr1870::may_rebuild(Arm::Infantry, true, Arm::Infantry));
    assert!(!fr1870::may_rebuild(Arm::Infantry, true, Arm::Cavalry));
    assert!(!fr1870::may_rebuild(Arm::Cavalry, false, Arm::Cavalry));
}

#[test]
fn fr_t1_calendar_and_l1_situations() {
    let e = fr1870::fr_cell(7, t()).unwrap();
    assert_eq!(e.start.to_string(), "1870-08-19");
    assert!(e.marks.iter().any(|m| m.starts_with("D2")));
    assert_eq!(
        fr1870::fr_cell(12, t()).unwrap().start.to_string(),
        "1870-09-03"
    );
    assert_eq!(
        fr1870::fr_cell(32, t()).unwrap().start.to_string(),
        "1870-11-02"
    );
    assert_eq!(
        fr1870::fr_cell(51, t()).unwrap().start.to_string(),
        "1870-12-29"
    );
    let last = fr1870::fr_cell(61, t()).unwrap();
    assert_eq!(last.end.to_string(), "1871-01-30");
    assert!(
        last.marks.iter().any(|m| m.starts_with("F4"))
            && last.marks.iter().any(|m| m.starts_with("F5"))
    );
    assert!(!fr1870::is_bad_season(43, t()));
    assert!(fr1870::is_bad_season(44, t()));
    assert!(fr1870::fr_cell(0, t()).is_err());
    // Situation ends as printed: 11 = 2 Sep, 31 = 1 Nov.
    assert_eq!(
        fr1870::fr_cell(11, t()).unwrap().end.to_string(),
        "1870-09-02"
    );
    assert_eq!(
        fr1870::fr_cell(31, t()).unwrap().end.to_string(),
        "1870-11-01"
    );

    assert_eq!(t().situations.len(), 5);
    let s1 = fr1870::situation(1, t()).unwrap();
    assert_eq!(
        (s1.start_cell.v(), s1.end_cell.v(), s1.turns.v()),
        (1, 11, 11)
    );
    let sc = fr1870::score_situation(s1, &[2, 3, 4], 0, 0).unwrap();
    assert_eq!((sc.french, sc.german), (5, 15));
    let s2 = fr1870::situation(2, t()).unwrap();
    assert_eq!(s2.blockade.as_deref(), Some("METZ-2"));
    let sc = fr1870::score_situation(s2, &[], 3, 22).unwrap();
    assert_eq!((sc.french, sc.german, sc.margin), (6, 44, 38));
    assert!(fr1870::situation(6, t()).is_err());
}

proptest! {
    #[test]
    fn fr_odds_sum_to_one(a in 1u32..40, d in 1u32..40, m in -3i32..3, besieger: bool) {
        let mut i = FrCombatInput::plain(a, d);
        i.die_mod = m;
        i.besieger_defending = besieger;
        prop_assert_eq!(fr1870::combat(&i, t(), None).unwrap().odds_total(), Prob::ONE);
    }
}

/// FR-F1 from the map (issue 17): a fortress card (arm "fortress", its strength the coefficient) in
/// the attacked cell fortifies the units with it. Seed 001, rule H11: "a fortress of value 2
/// occupied by 4 units will double the combat potential in defence of 2 of them, at the player's
/// choice, while the other 2 will fight in defence as in attack with a potential halved".
#[test]
fn fr_f1_a_fortress_of_value_2_with_4_units_on_the_map() {
    use chrono::{TimeZone, Utc};
    use kepi::game::{Action, Game, SeedSecret};
    use kepi::play::Form;
    use kepi::registry::builtin_scenario;
    use kepi::roster::Arm;

    use kepi::rules::board::form::engage_hex;
    use kepi::rules::fr1870::combat_form::FrForm;
    let now = Utc.timestamp_opt(1_000_000, 0).single().unwrap();
    let mut s = builtin_scenario("fr1870-august").unwrap();
    let mut fort = s.units.iter().find(|u| u.id == "de-1b").unwrap().clone();
    fort.id = "de-fortress".into();
    fort.name = "Fortress (value 2)".into();
    fort.arm = Arm::Fortress;
    fort.strength = 2;
    s.units.push(fort);
    let mut g = Game::new(
        &s,
        kepi::rules::fr1870::ID,
        SeedSecret {
            seed: 1,
            salt: "t".into(),
        },
        now,
    );
    let cell = g.state().unit("de-1b").unwrap().position;
    for u in ["de-3b", "de-4b"] {
        g.act(
            Action::Move {
                effects: Vec::new(),
                unit: u.into(),
                to: cell,
                notes: Vec::new(),
                mp: None,
            },
            now,
        )
        .unwrap();
    }
    let attackers = vec!["fr-1rc".to_string(), "fr-2rc".to_string()];
    let (a, d) = engage_hex(g.state(), &attackers, cell).unwrap();
    assert_eq!(d.len(), 5, "four units and the fortress card defend: {d:?}");
    let mut f = FrForm::all().remove(0);
    f.prefill_engaged(g.state(), &a, &d);
    assert_eq!(
        f.input.defenders.len(),
        4,
        "the fortress card is not a unit"
    );
    assert_eq!(
        f.input.fortress,
        Some(FrFortress {
            coefficient: 2,
            role: FortressRole::DefendsOccupied,
            choice: Some(kepi::rules::fr1870::GarrisonChoice::Best),
        })
    );
    let doubled = f
        .input
        .defenders
        .iter()
        .filter(|u| u.fortress_multiplied)
        .count();
    assert_eq!(doubled, 2);
    let (r, _) = Form::new(f)
        .resolve(g.state(), kepi::registry::builtin_tables().unwrap(), None)
        .unwrap();
    // 4x2 + 4x2 + (4 + 4) / 2 = 20 against the two French 2s.
    assert!(r.summary.ends_with("4 : 20"), "{}", r.summary);
    assert_eq!(
        r.modifiers
            .iter()
            .filter(|m| m.label.contains("x2 (fortress)") && m.rule.as_str() == "FR-F1")
            .count(),
        2
    );
}

/// FR-F1 (H10): an unoccupied fortress "may not by itself execute any attack against an enemy unit".
#[test]
fn fr_f1_a_fortress_alone_cannot_attack() {
    use chrono::{TimeZone, Utc};
    use kepi::game::{Game, SeedSecret};
    use kepi::play::Form;
    use kepi::registry::builtin_scenario;
    use kepi::roster::Arm;

    use kepi::rules::board::form::engage_hex;
    use kepi::rules::fr1870::combat_form::FrForm;
    let now = Utc.timestamp_opt(1_000_000, 0).single().unwrap();
    let mut s = builtin_scenario("fr1870-august").unwrap();
    let mut fort = s.units.iter().find(|u| u.id == "fr-1rc").unwrap().clone();
    fort.id = "fr-fortress".into();
    fort.arm = Arm::Fortress;
    s.units.push(fort);
    let g = Game::new(
        &s,
        kepi::rules::fr1870::ID,
        SeedSecret {
            seed: 1,
            salt: "t".into(),
        },
        now,
    );
    let cell = g.state().unit("de-1b").unwrap().position;
    let (a, d) = engage_hex(g.state(), &["fr-fortress".to_string()], cell).unwrap();
    let mut f = FrForm::all().remove(0);
    f.prefill_engaged(g.state(), &a, &d);
    let why = Form::new(f).refusal(g.state()).unwrap();
    assert!(why.contains("FR-F1"), "{why}");
}

/// FR-C1 (E9): "the points of the units engaged by the Defender in this combat are added together
/// ... one then has the total points of the Defender" (and the same for the Attacker). Issue 17:
/// each unit's line names it, and each side's total is a line of its own.
#[test]
fn fr_c1_each_unit_named_and_both_totals_shown() {
    let mut i = FrCombatInput::plain(3, 2);
    i.attackers = vec![
        FrUnit {
            name: Some("1B (1st Bavarian Division)".into()),
            ..FrUnit::infantry(4)
        },
        FrUnit {
            name: Some("2B (2nd Bavarian Division)".into()),
            ..FrUnit::infantry(4)
        },
    ];
    i.defenders[0] = FrUnit {
        name: Some("1RC".into()),
        arm: Arm::Cavalry,
        ..FrUnit::infantry(2)
    };
    let r = fr1870::combat(&i, t(), None).unwrap();
    let labels: Vec<&str> = r.modifiers.iter().map(|m| m.label.as_str()).collect();
    for want in [
        "attacker 1 (1B (1st Bavarian Division)): 4 infantry",
        "attacker 2 (2B (2nd Bavarian Division)): 4 infantry",
        "defender 1 (1RC): 2 cavalry",
        "attack potential, total",
        "defence potential, total",
    ] {
        assert!(labels.contains(&want), "{want}: {labels:?}");
    }
    let total = |l: &str| {
        r.modifiers
            .iter()
            .find(|m| m.label == l)
            .map(|m| m.value.clone())
            .unwrap()
    };
    assert_eq!(total("attack potential, total"), "8");
    assert_eq!(total("defence potential, total"), "2");
    // `kepi resolve` sides are plain numbers: no name key in the JSON.
    let plain = serde_json::to_value(FrUnit::infantry(3)).unwrap();
    assert!(plain.get("name").is_none(), "{plain}");
}

/// FR-C3 (E18): "When cavalry alone is attacked by infantry alone, the cavalry may refuse the
/// combat and retreat one cell ... if the Attacker engages cavalry, or if the Defender has infantry
/// on the cell containing the attacked cavalry, the cavalry may not refuse the combat"; "if these
/// impossibilities cannot be respected, the cavalry is obliged to accept the combat". Taken: no
/// die, every defender retreats, the attacker may occupy the cell.
#[test]
fn fr_c3_cavalry_refuses_combat_in_a_combat() {
    let cav = |n: &str| FrUnit {
        name: Some(n.into()),
        arm: Arm::Cavalry,
        ..FrUnit::infantry(2)
    };
    let mut i = FrCombatInput::plain(4, 2);
    i.defenders = vec![cav("1RC"), cav("2RC")];
    assert_eq!(fr1870::cavalry_refusal(&i), Ok(()));
    let r = fr1870::cavalry_refuses(&i, t()).unwrap();
    assert!(r.dice.is_empty(), "no die");
    assert_eq!(r.odds.len(), 1);
    assert_eq!(r.odds[0].p, Prob::ONE);
    let o = r.outcome.unwrap();
    let e = o.effects.unwrap();
    assert_eq!(e.defenders, vec![Fate::Retreats, Fate::Retreats]);
    assert_eq!(e.attackers, vec![Fate::Unchanged]);
    assert!(e.may_advance);
    assert!(r.notes.iter().any(|n| n.contains("FR-C3")), "{:?}", r.notes);
    // Cavalry among the attackers.
    let mut j = i.clone();
    j.attackers.push(cav("3RC"));
    let why = fr1870::cavalry_refusal(&j).unwrap_err();
    assert!(why.contains("3RC") && why.contains("FR-C3"), "{why}");
    // Infantry in the attacked cell.
    let mut j = i.clone();
    j.defenders.push(FrUnit::infantry(3));
    let why = fr1870::cavalry_refusal(&j).unwrap_err();
    assert!(why.contains("infantry") && why.contains("FR-C3"), "{why}");
    // No cell to retreat to.
    let mut j = i.clone();
    j.defenders[1].can_retreat = false;
    let why = fr1870::cavalry_refusal(&j).unwrap_err();
    assert!(why.contains("2RC") && why.contains("obliged"), "{why}");
    assert!(fr1870::cavalry_refuses(&j, t()).is_err());
}

/// FR-F1 (H11): "it follows that a fortress of value 2 occupied by 4 units will double the combat
/// potential in defence of 2 of them, at the player's choice, while the other 2 will fight in
/// defence as in attack with a potential halved". Two disorganised 6s and two 4s: by printed
/// potential the 6s would be doubled (3x2 + 3x2 + (4 + 4)/2 = 16); the defender's best doubles the
/// 4s (4x2 + 4x2 + (3 + 3)/2 = 19), and the line says whose choice it is.
#[test]
fn fr_f1_the_fortress_multiplies_the_defenders_best() {
    let d6 = FrUnit {
        disorganised: true,
        ..FrUnit::infantry(6)
    };
    let units = [d6.clone(), d6, FrUnit::infantry(4), FrUnit::infantry(4)];
    let g = fr1870::garrison(&units, 2, t());
    assert_eq!(
        g.iter().map(|u| u.fortress_multiplied).collect::<Vec<_>>(),
        vec![false, false, true, true]
    );
    assert_eq!(
        g.iter().map(|u| u.supplied).collect::<Vec<_>>(),
        vec![false, false, true, true],
        "the fortress supplies the units it multiplies, the others are unsupplied"
    );
    let mut i = FrCombatInput::plain(19, 1);
    i.defenders = units.to_vec();
    i.fortress = Some(FrFortress {
        coefficient: 2,
        role: FortressRole::DefendsOccupied,
        choice: Some(fr1870::GarrisonChoice::Best),
    });
    let r = fr1870::combat(&i, t(), None).unwrap();
    assert!(r.summary.starts_with("1:1: 19 : 19"), "{}", r.summary);
    assert!(
        r.modifiers
            .iter()
            .any(|m| m.rule.as_str() == "FR-F1" && m.label.contains("the defender's best")),
        "{:?}",
        r.modifiers
    );
    // The defender's own choice: the two 6s.
    i.defenders[0].fortress_multiplied = true;
    i.defenders[1].fortress_multiplied = true;
    i.fortress = Some(FrFortress {
        coefficient: 2,
        role: FortressRole::DefendsOccupied,
        choice: Some(fr1870::GarrisonChoice::Chosen),
    });
    let r = fr1870::combat(&i, t(), None).unwrap();
    assert!(r.summary.starts_with("1:1: 19 : 16"), "{}", r.summary);
}
