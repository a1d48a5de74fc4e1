//! SPI Franco-Prussian War: worked examples of the seed, each citing its id.

use kepi::dice::{DiceSource, Die, Prob, Ratio};
use kepi::rules::spi::{
    self, Around, Formation, SpiCombatInput, SpiLoss, SpiResult, SpiUnit, SupplyState, VictoryLevel,
};
use kepi::tables::{Provenance, Tables};
use proptest::prelude::*;

fn t() -> &'static spi::SpiTables {
    &Tables::builtin().unwrap().spi
}

fn input(a: u32, d: u32) -> SpiCombatInput {
    SpiCombatInput {
        attackers: vec![SpiUnit::plain(a)],
        defenders: vec![SpiUnit::plain(d)],
        fortress: None,
        flank: false,
        hasty: false,
        dummies_only: false,
        defender_rough: false,
        all_through_ridge: false,
        all_through_river: false,
    }
}

fn d6(v: u32) -> DiceSource {
    let mut s = DiceSource::entered_only();
    s.enter(Die::D6, v).unwrap();
    s
}

#[test]
fn spi_c1_26_against_9_is_2_to_1_and_the_crt_is_unknown() {
    let mut dice = d6(4);
    let r = spi::combat(&input(26, 9), t(), Some(&mut dice)).unwrap();
    let o = r.outcome.clone().unwrap();
    assert_eq!(o.odds, "2:1");
    assert_eq!(o.result, None);
    assert_eq!(
        o.message.as_deref(),
        Some("enter the result from your printed chart")
    );
    assert!(r.notes.iter().any(|n| n.contains("valid results")));
    assert_eq!(r.odds.len(), 1);
    assert_eq!(r.odds[0].outcome, "unknown: enter from your printed chart");
    assert_eq!(r.odds_total(), Prob::ONE);
}

#[test]
fn spi_c1_every_crt_cell_is_unknown_in_the_seed() {
    for (col, cells) in &t().crt {
        for (die, c) in cells {
            assert_eq!(c.provenance, Provenance::Unknown, "{col} {die}");
        }
    }
}

#[test]
fn spi_c1_an_entered_result_is_logged_as_entered() {
    let mut dice = d6(3);
    let r = spi::combat_with_result(&input(12, 6), t(), Some(&mut dice), Some("A1/D2")).unwrap();
    let o = r.outcome.unwrap();
    assert!(o.entered);
    assert_eq!(o.result.unwrap().to_string(), "A1/D2");
    assert!(r.notes.iter().any(|n| n.contains("entered by the umpire")));
    let mut dice = d6(3);
    assert!(spi::combat_with_result(&input(12, 6), t(), Some(&mut dice), Some("XX")).is_err());
}

#[test]
fn spi_f1_a_5_in_a_fort_of_2_defends_at_12() {
    let mut i = input(24, 5);
    i.fortress = Some(2);
    let r = spi::combat(&i, t(), None).unwrap();
    assert!(r.summary.contains("24 : 12"), "{}", r.summary);
    assert_eq!(spi::fort_defence(&[Ratio::int(5)], 2, t()), Ratio::int(12));
    assert_eq!(spi::fort_strength("Metz", t()), Some(6));
    assert_eq!(spi::fort_strength("verdun", t()), Some(3));
    assert_eq!(t().forts.len(), 12);
}

#[test]
fn spi_c3_flank_doubles_but_not_against_a_fort() {
    let mut i = input(12, 6);
    i.flank = true;
    assert!(
        spi::combat(&i, t(), None)
            .unwrap()
            .summary
            .starts_with("4:1")
    );
    i.fortress = Some(2);
    // 12 (no doubling) : 6*2+2 = 14 -> 1:2
    assert!(
        spi::combat(&i, t(), None)
            .unwrap()
            .summary
            .starts_with("1:2")
    );
}

#[test]
fn spi_c3_flanking_geometry() {
    use Around::*;
    let opp = [Attacker, Empty, Empty, Attacker, Empty, Empty];
    let tri = [Attacker, Empty, Attacker, Empty, Attacker, Empty];
    let pair = [Attacker, Attacker, Empty, Empty, Empty, Empty];
    let gap = [Attacker, Empty, Attacker, Empty, Empty, Empty];
    assert!(spi::is_flanking(opp));
    assert!(spi::is_flanking(tri));
    assert!(!spi::is_flanking(pair));
    assert!(!spi::is_flanking(gap));
    assert!(spi::is_flanking_from([
        false, true, false, false, true, false
    ]));
    assert!(!spi::flank_applies(opp, true, true));
    assert!(!spi::flank_applies(opp, false, false));
    assert!(spi::flank_applies(opp, true, false));
    // An outside report of "adjacent to an attacker" counts too.
    assert!(!spi::is_flanking([
        Attacker,
        Empty,
        Empty,
        AdjacentToAttacker,
        Empty,
        Empty
    ]));
    assert!(spi::is_flanking([
        Attacker,
        Empty,
        AdjacentToAttacker,
        Attacker,
        Empty,
        Empty
    ]));
}

#[test]
fn spi_s1_supply_states_and_effects() {
    assert_eq!(spi::supply_state(Some(10), t()), SupplyState::Supplied);
    assert_eq!(spi::supply_state(Some(11), t()), SupplyState::Unsupplied);
    assert_eq!(spi::supply_state(Some(25), t()), SupplyState::Unsupplied);
    assert_eq!(spi::supply_state(Some(26), t()), SupplyState::Isolated);
    assert_eq!(spi::supply_state(None, t()), SupplyState::Isolated);
    let e = spi::supply_effects(SupplyState::Isolated, t());
    assert_eq!(e.attack, None);
    assert_eq!(e.defence, Ratio::new(1, 2));
    // Standard Game: an isolated 8 is a 7 after its first movement phase.
    assert_eq!(spi::isolation_attrition(8, 1, t()), 7);
    assert_eq!(spi::isolation_attrition(2, 5, t()), 0);
    assert_eq!(spi::fort_supply_capacity("Metz"), None);
    assert_eq!(spi::fort_supply_capacity("Toul"), Some(1));
}

#[test]
fn spi_s1_isolated_cannot_attack_except_hasty() {
    let mut i = input(8, 4);
    i.attackers[0].supply = SupplyState::Isolated;
    assert!(spi::combat(&i, t(), None).is_err());
    i.hasty = true;
    let r = spi::combat(&i, t(), None).unwrap();
    assert!(r.summary.starts_with("1:1"), "{}", r.summary);
    let mut i = input(8, 8);
    i.attackers[0].supply = SupplyState::Unsupplied;
    i.defenders[0].supply = SupplyState::Isolated;
    assert!(
        spi::combat(&i, t(), None)
            .unwrap()
            .summary
            .starts_with("1:1")
    );
}

#[test]
fn spi_h1_hasty_and_dummies() {
    let mut i = input(8, 2);
    i.hasty = true;
    assert!(
        spi::combat(&i, t(), None)
            .unwrap()
            .summary
            .starts_with("2:1")
    );
    i.attackers.push(SpiUnit::plain(3));
    assert!(spi::combat(&i, t(), None).is_err(), "one unit only");
    assert_eq!(spi::hasty_strength(1, 8, t()).unwrap(), Ratio::new(1, 2));
    assert!(spi::hasty_strength(9, 8, t()).is_err());
    let mut d = input(8, 2);
    d.dummies_only = true;
    let mut dice = d6(1);
    let o = spi::combat(&d, t(), Some(&mut dice))
        .unwrap()
        .outcome
        .unwrap();
    assert!(o.advance_after_combat);
    assert!(o.message.unwrap().contains("dummy"));
}

#[test]
fn spi_h2_extended_halves_attack_and_defence() {
    let mut i = input(8, 4);
    i.attackers[0].formation = Formation::Extended;
    assert!(
        spi::combat(&i, t(), None)
            .unwrap()
            .summary
            .starts_with("1:1")
    );
    i.defenders[0].formation = Formation::Extended;
    assert!(
        spi::combat(&i, t(), None)
            .unwrap()
            .summary
            .starts_with("2:1")
    );
    // "allocated one Combat Strength Point to make a Hasty Attack ... one-half": extended alone.
    assert!(spi::has_zoc(Formation::Extended));
    assert!(!spi::has_zoc(Formation::Concentrated));
    assert!(spi::may_use_rail(Formation::Concentrated));
    assert_eq!(spi::formation_change_cost(t()), 4);
}

#[test]
fn spi_c5_terrain_die_and_entrained() {
    let mut i = input(12, 6);
    i.defenders[0].entrained = true;
    i.defender_rough = true;
    i.all_through_river = true;
    let r = spi::combat(&i, t(), None).unwrap();
    assert!(r.summary.starts_with("4:1"));
    assert_eq!(
        r.rule_ids()
            .iter()
            .filter(|id| id.as_str() == "SPI-C5")
            .count(),
        1
    );
    let mut dice = d6(6);
    let o = spi::combat(&i, t(), Some(&mut dice))
        .unwrap()
        .outcome
        .unwrap();
    assert_eq!(o.modified_die, Some(8));
}

#[test]
fn spi_c2_each_unit_and_hex_once() {
    use spi::PlannedAttack;
    let ok = [
        PlannedAttack {
            attackers: vec![1, 2],
            hexes: vec![10, 11],
        },
        PlannedAttack {
            attackers: vec![3],
            hexes: vec![12],
        },
    ];
    assert!(spi::check_attacks(&ok).is_ok());
    let twice = [
        PlannedAttack {
            attackers: vec![1],
            hexes: vec![10],
        },
        PlannedAttack {
            attackers: vec![1],
            hexes: vec![11],
        },
    ];
    assert!(spi::check_attacks(&twice).is_err());
    let hex = [
        PlannedAttack {
            attackers: vec![1],
            hexes: vec![10],
        },
        PlannedAttack {
            attackers: vec![2],
            hexes: vec![10],
        },
    ];
    assert!(spi::check_attacks(&hex).is_err());
}

#[test]
fn spi_c4_advance_and_r1_losses() {
    assert!(spi::advance_after_combat(&[0, 0], 0));
    assert!(!spi::advance_after_combat(&[0, 1], 0));
    assert!(!spi::advance_after_combat(&[0], 2));
    // An 8 losing two combat points becomes a 6.
    assert_eq!(spi::spread_losses(&[8], 2, &[2]).unwrap(), vec![6]);
    assert_eq!(spi::spread_losses(&[5, 2], 3, &[1, 2]).unwrap(), vec![4, 0]);
    assert!(spi::spread_losses(&[5, 2], 3, &[0, 3]).is_err());
    assert!(spi::spread_losses(&[5, 2], 3, &[1, 1]).is_err());
    assert_eq!(spi::spread_losses(&[2], 5, &[2]).unwrap(), vec![0]);
    let r: SpiResult = "AE/D2".parse().unwrap();
    assert_eq!(r.attacker, SpiLoss::Eliminated);
    assert_eq!(r.defender, SpiLoss::Cp(2));
}

#[test]
fn spi_w1_victory_levels() {
    let cases = [
        (-40, VictoryLevel::FrenchDecisive),
        (60, VictoryLevel::FrenchDecisive),
        (61, VictoryLevel::FrenchSubstantial),
        (80, VictoryLevel::FrenchSubstantial),
        (81, VictoryLevel::FrenchMarginal),
        (100, VictoryLevel::FrenchMarginal),
        (101, VictoryLevel::Draw),
        (130, VictoryLevel::Draw),
        (131, VictoryLevel::GermanMarginal),
        (150, VictoryLevel::GermanMarginal),
        (151, VictoryLevel::GermanSubstantial),
        (199, VictoryLevel::GermanSubstantial),
        (200, VictoryLevel::GermanDecisive),
        (999, VictoryLevel::GermanDecisive),
    ];
    for (net, want) in cases {
        assert_eq!(spi::victory_level(net, t()), want, "{net}");
    }
    assert_eq!(
        spi::victory(90, t()).outcome.unwrap().level,
        "French Marginal Victory"
    );
    let s = spi::victory_points(
        &spi::VictoryTally {
            french_cp_destroyed: 10,
            french_cp_isolated: 2,
            german_row_vp: 40,
            german_cp_exited: 1,
            german_cp_destroyed: 4,
            german_cp_isolated: 0,
            french_hexes_penetrated: 1,
        },
        t(),
    )
    .unwrap();
    assert_eq!((s.german, s.french, s.net), (50 + 6 + 40 + 10, 20 + 50, 36));
}

#[test]
fn spi_e1_and_o1_rolls() {
    for (die, cont) in [(1, true), (3, true), (4, false), (6, false)] {
        let mut dice = d6(die);
        assert_eq!(
            spi::eb_river(t(), Some(&mut dice))
                .unwrap()
                .outcome
                .unwrap()
                .continues,
            cont
        );
    }
    assert_eq!(spi::eb_river(t(), None).unwrap().odds_total(), Prob::ONE);
    let g = spi::printed_numbering(t(), spi::Nation::German);
    let f = spi::printed_numbering(t(), spi::Nation::French);
    let mut dice = d6(6);
    let o = spi::pick_oob(&g, &f, Some(&mut dice))
        .unwrap()
        .outcome
        .unwrap();
    assert_eq!((o.german.as_str(), o.french.as_str()), ("A", "M"));
    let mut bad = g.clone();
    bad.insert("B".into(), 6);
    assert!(spi::pick_oob(&bad, &f, None).is_err());
}

#[test]
fn spi_t1_turns_and_i1_forces() {
    let e = spi::spi_turn(6, t()).unwrap();
    assert_eq!(
        (e.start.to_string(), e.end.to_string()),
        ("1870-08-16".into(), "1870-08-18".into())
    );
    assert!(e.marks.iter().any(|m| m.contains("Chalons")));
    assert!(spi::spi_turn(12, t()).is_err());
    assert!(spi::spi_turn(0, t()).is_err());
    let basic = spi::forces(t(), None);
    let french_initial_cp: u32 = basic
        .iter()
        .filter(|r| {
            r.nation == spi::Nation::French && r.turn == 0 && r.kind == spi::ForceKind::Combat
        })
        .map(|r| r.count.unwrap_or(0) * r.strength)
        .sum();
    assert_eq!(french_initial_cp, 8 + 5 + 24 + 20);
    let german_initial_cp: u32 = basic
        .iter()
        .filter(|r| {
            r.nation == spi::Nation::German && r.turn == 0 && r.kind == spi::ForceKind::Combat
        })
        .map(|r| r.count.unwrap_or(0) * r.strength)
        .sum();
    assert_eq!(german_initial_cp, 11 + 33 + 28);
    assert!(!spi::forces(t(), Some("L")).is_empty());
}

proptest! {
    #[test]
    fn spi_odds_sum_to_one(a in 1u32..60, d in 1u32..60, fort in 0u32..7, flank: bool, rough: bool) {
        let mut i = input(a, d);
        i.fortress = Some(fort);
        i.flank = flank;
        i.defender_rough = rough;
        let r = spi::combat(&i, t(), None).unwrap();
        prop_assert_eq!(r.odds_total(), Prob::ONE);
    }
}
