//! SPI Franco-Prussian War: worked examples of the seed, each citing its id.

use super::common::{d6, spi_input};

use kepi::dice::{Prob, Ratio};
use kepi::rules::spi::{
    self, Around, Formation, SpiLoss, SpiResult, SpiUnit, SupplyState, VictoryLevel,
};
use kepi::tables::Provenance;
use proptest::prelude::*;

fn t() -> &'static spi::SpiTables {
    kepi::tables::builtin::<kepi::rules::spi::SpiTables>()
}

#[test]
fn spi_c1_26_against_9_is_2_to_1_and_the_crt_is_unknown() {
    let mut dice = d6(4);
    let r = spi::combat(&spi_input(26, 9), t(), Some(&mut dice)).unwrap();
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
    let r =
        spi::combat_with_result(&spi_input(12, 6), t(), Some(&mut dice), Some("A1/D2")).unwrap();
    let o = r.outcome.unwrap();
    assert!(o.entered);
    assert_eq!(o.result.unwrap().to_string(), "A1/D2");
    assert!(r.notes.iter().any(|n| n.contains("entered by the umpire")));
    let mut dice = d6(3);
    assert!(spi::combat_with_result(&spi_input(12, 6), t(), Some(&mut dice), Some("XX")).is_err());
}

#[test]
fn spi_f1_a_5_in_a_fort_of_2_defends_at_12() {
    let mut i = spi_input(24, 5);
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
    let mut i = spi_input(12, 6);
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
    let mut i = spi_input(8, 4);
    i.attackers[0].supply = SupplyState::Isolated;
    assert!(spi::combat(&i, t(), None).is_err());
    i.hasty = true;
    let r = spi::combat(&i, t(), None).unwrap();
    assert!(r.summary.starts_with("1:1"), "{}", r.summary);
    let mut i = spi_input(8, 8);
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
    let mut i = spi_input(8, 2);
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
    let mut d = spi_input(8, 2);
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
    let mut i = spi_input(8, 4);
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
    let mut i = spi_input(12, 6);
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
        let mut i = spi_input(a, d);
        i.fortress = Some(fort);
        i.flank = flank;
        i.defender_rough = rough;
        let r = spi::combat(&i, t(), None).unwrap();
        prop_assert_eq!(r.odds_total(), Prob::ONE);
    }
}

/// Issue 17: SPI combats built from a game's units and hexes (kepi::rules::spi::combat_form), not typed-in numbers.
mod from_the_map {
    use chrono::{TimeZone, Utc};
    use kepi::dice::Die;
    use kepi::game::{Action, Game, GameState, SeedSecret};
    use kepi::hex::{Direction, Hex, Layout};
    use kepi::play::Form;
    use kepi::play::board::position_of;
    use kepi::registry::builtin_scenario;
    use kepi::roster::{Arm, Position};

    use kepi::rules::Effect;
    use kepi::rules::board::form::engage_hex;
    use kepi::rules::spi::combat_form::SpiForm;

    fn now() -> chrono::DateTime<Utc> {
        Utc.timestamp_opt(1_000_000, 0).single().unwrap()
    }

    /// The SPI scenario, plus a French dummy counter and a German one (Standard Game, SPI-H1).
    fn game() -> Game {
        let mut s = builtin_scenario("spi-1870").unwrap();
        for (id, like) in [("fr-dummy-1", "fr-metz-5"), ("de-dummy-1", "de-2-5-1")] {
            let mut d = s.units.iter().find(|u| u.id == like).unwrap().clone();
            d.id = id.into();
            d.name = format!("{} dummy", d.side);
            d.arm = Arm::Dummy;
            s.units.push(d);
        }
        Game::new(
            &s,
            kepi::rules::spi::ID,
            SeedSecret {
                seed: 5,
                salt: "t".into(),
            },
            now(),
        )
    }

    fn centre() -> Hex {
        Hex::from_label("0505", Layout::OddQ).unwrap()
    }

    /// The hex `steps` hexsides clockwise from N around 0505 (0 = N), as a roster position.
    fn around(steps: i32) -> Position {
        position_of(centre().neighbour(Direction::N.rotate(steps))).unwrap()
    }

    fn place(g: &mut Game, unit: &str, to: Position) {
        g.act(
            Action::Move {
                effects: Vec::new(),
                unit: unit.into(),
                to,
                notes: Vec::new(),
                mp: None,
            },
            now(),
        )
        .unwrap();
    }

    fn form(s: &GameState, attackers: &[&str]) -> SpiForm {
        let ids: Vec<String> = attackers.iter().map(|a| a.to_string()).collect();
        let hex = position_of(centre()).unwrap();
        let (a, d) = engage_hex(s, &ids, hex).unwrap();
        let mut f = SpiForm::all().remove(0);
        f.prefill_engaged(s, &a, &d);
        f
    }

    fn preview(s: &GameState, f: &SpiForm) -> kepi::rules::Resolution<serde_json::Value> {
        Form::new(f.clone())
            .resolve(s, kepi::registry::builtin_tables().unwrap(), None)
            .unwrap()
            .0
    }

    fn line<'a>(
        r: &'a kepi::rules::Resolution<serde_json::Value>,
        starts: &str,
    ) -> &'a kepi::rules::ModifierLine {
        r.modifiers
            .iter()
            .find(|m| m.label.starts_with(starts))
            .unwrap_or_else(|| panic!("no line `{starts}`: {:?}", r.modifiers))
    }

    /// SPI-F1, seed 000, Fortification Cases (B): "Thus a Combat unit with a Combat Strength of
    /// "five" in a Fortification unit with a strength of "two" would defend as a combined Combat
    /// Strength of "twelve."" The fortification and the EB unit are cards on the map, in the hex:
    /// the fort fortifies, the EB unit adds nothing (EB Units, case D: "EB units are not in any way
    /// similar to Combat or Fortification units").
    #[test]
    fn spi_f1_five_in_a_fortification_of_two_defends_as_twelve_on_the_map() {
        let mut g = game();
        let hex = position_of(centre()).unwrap();
        for u in ["fr-metz-5", "fort-sedan", "fr-eb-1"] {
            place(&mut g, u, hex);
        }
        place(&mut g, "de-2-5-1", around(0));
        place(&mut g, "de-2-5-2", around(1));
        let f = form(g.state(), &["de-2-5-1", "de-2-5-2"]);
        assert_eq!(f.input.fortress, Some(2));
        assert_eq!(
            f.input.defenders.len(),
            1,
            "only the combat unit is a defender"
        );
        let r = preview(g.state(), &f);
        assert!(r.summary.contains("10 : 12"), "{}", r.summary);
        let total = line(&r, "defence strength, total");
        assert_eq!(total.effect, Effect::Base(kepi::dice::Ratio::int(12)));
        assert_eq!(total.rule.as_str(), "SPI-C1");
        let unit = line(&r, "defender 1 (French 5 (Metz)): 5 doubled (in the fort)");
        assert_eq!(unit.effect, Effect::Add(kepi::dice::Ratio::int(10)));
        assert_eq!(unit.rule.as_str(), "SPI-F1");
        let own = line(&r, "fortification's own strength");
        assert_eq!(own.effect, Effect::Add(kepi::dice::Ratio::int(2)));
        let eb = line(&r, "defender French EB unit 1: EB unit, not a combat unit");
        assert_eq!(eb.effect, Effect::Note);
        assert_eq!(eb.rule.as_str(), "SPI-E1");
        let fort = r
            .modifiers
            .iter()
            .find(|m| m.label.contains("fortification unit, strength 2"))
            .unwrap();
        assert_eq!(
            (fort.effect.clone(), fort.rule.as_str()),
            (Effect::Note, "SPI-F1")
        );
        let att = line(&r, "attacker 2 (German 5 (area 2, #2)): 5");
        assert_eq!(att.effect, Effect::Add(kepi::dice::Ratio::int(5)));
        assert_eq!(
            line(&r, "attack strength, total").effect,
            Effect::Base(kepi::dice::Ratio::int(10))
        );
    }

    /// SPI-R1 (A): "Players on the defensive in a hex with a Fortification unit may lose from either
    /// the Fortification unit or any Combat units in the fort": by default the combat unit first,
    /// then the fort; the EB unit loses nothing.
    #[test]
    fn spi_r1_losses_fall_on_the_fort_after_its_garrison_never_on_the_eb_unit() {
        let mut g = game();
        let hex = position_of(centre()).unwrap();
        for u in ["fr-metz-5", "fort-sedan", "fr-eb-1"] {
            place(&mut g, u, hex);
        }
        place(&mut g, "de-2-5-1", around(0));
        let mut f = form(g.state(), &["de-2-5-1"]);
        f.entered_result = Some("D6".into());
        let t = kepi::registry::builtin_tables().unwrap();
        let spi = Form::new(f);
        g.resolve(&[(Die::D6, 2)], |s, d| spi.resolve(s, t, Some(d)), now())
            .unwrap();
        assert_eq!(g.state().unit("fr-metz-5").unwrap().strength, 0);
        assert_eq!(g.state().unit("fort-sedan").unwrap().strength, 1);
        assert_eq!(g.state().unit("fr-eb-1").unwrap().strength, 1);
    }

    /// SPI-H1, seed 000 (Standard Game, Combat Phase): "First, the Defender reveals the identity of
    /// the units which are about to be attacked. If they should be Dummy units, they are removed,
    /// and the attacker may advance after combat". A hex of dummies only is no combat; a dummy
    /// stacked with a real unit adds nothing and is removed all the same.
    #[test]
    fn spi_h1_dummies_are_revealed_removed_and_add_nothing() {
        let t = kepi::registry::builtin_tables().unwrap();
        let hex = position_of(centre()).unwrap();
        let mut g = game();
        place(&mut g, "fr-dummy-1", hex);
        place(&mut g, "de-2-5-1", around(0));
        let f = form(g.state(), &["de-2-5-1"]);
        assert!(f.input.dummies_only);
        let spi = Form::new(f);
        let e = g
            .resolve(&[(Die::D6, 4)], |s, d| spi.resolve(s, t, Some(d)), now())
            .unwrap();
        assert!(e.summary.contains("dummy"), "{}", e.summary);
        assert!(g.state().unit("fr-dummy-1").unwrap().eliminated());
        assert_eq!(g.state().unit("de-2-5-1").unwrap().strength, 5);

        let mut g = game();
        place(&mut g, "fr-dummy-1", hex);
        place(&mut g, "fr-metz-5", hex);
        place(&mut g, "de-2-5-1", around(0));
        let mut f = form(g.state(), &["de-2-5-1"]);
        assert!(!f.input.dummies_only);
        let r = preview(g.state(), &f);
        assert!(r.summary.contains("5 : 5"), "{}", r.summary);
        let d = line(&r, "defender french dummy: dummy counter");
        assert_eq!(
            (d.effect.clone(), d.rule.as_str()),
            (Effect::Note, "SPI-H1")
        );
        f.entered_result = Some("-".into());
        let spi = Form::new(f);
        g.resolve(&[(Die::D6, 4)], |s, d| spi.resolve(s, t, Some(d)), now())
            .unwrap();
        assert!(g.state().unit("fr-dummy-1").unwrap().eliminated());
        assert_eq!(g.state().unit("fr-metz-5").unwrap().strength, 5);
    }

    /// SPI-F1 (B) "nor may the Combat Strength of the Fortification unit be applied offensively";
    /// EB units (case D) are not combat units; SPI-H1 (Q) "Dummy counters may not" attack.
    #[test]
    fn spi_fortifications_eb_units_and_dummies_cannot_attack() {
        let hex = position_of(centre()).unwrap();
        for (u, want) in [
            ("fort-sedan", "SPI-F1"),
            ("fr-eb-1", "SPI-E1"),
            ("fr-dummy-1", "SPI-H1"),
        ] {
            // The French attacking a German hex: put a German unit in the centre instead.
            let mut g2 = game();
            place(&mut g2, "de-2-5-1", hex);
            place(&mut g2, u, around(0));
            let f = form(g2.state(), &[u]);
            let why = Form::new(f).refusal(g2.state()).unwrap();
            assert!(why.contains(want), "{u}: {why}");
        }
        // A German dummy against the French hex, too.
        let mut g = game();
        place(&mut g, "fr-metz-5", hex);
        place(&mut g, "de-dummy-1", around(3));
        let why = Form::new(form(g.state(), &["de-dummy-1"]))
            .refusal(g.state())
            .unwrap();
        assert!(why.contains("dummy"), "{why}");
    }

    /// SPI-C3, seed 000, Combat case J: "in order to conduct a Flanking Attack the Attacking Player
    /// must have participating attacking units in, or adjacent to, every hex surrounding the
    /// Defender's hex." Read from the attackers' hexes: opposite sides or a triangle qualify; two
    /// neighbours, a gap of one, a unit off the map or not adjacent do not, and the refusal says why.
    #[test]
    fn spi_c3_flank_is_read_from_the_map() {
        let hex = position_of(centre()).unwrap();
        let att = ["de-2-5-1", "de-2-5-2", "de-2-5-3"];
        let cases: [(&[i32], Option<&str>); 5] = [
            (&[0, 3], None),
            (&[0, 2, 4], None),
            (&[0, 1], Some("not a flanking attack")),
            (&[0, 2], Some("not a flanking attack")),
            (&[1, 3, 5], None),
        ];
        for (steps, refused) in cases {
            let mut g = game();
            place(&mut g, "fr-metz-5", hex);
            for (u, s) in att.iter().zip(steps) {
                place(&mut g, u, around(*s));
            }
            let mut f = form(g.state(), &att[..steps.len()]);
            f.input.flank = true;
            let why = Form::new(f.clone()).refusal(g.state());
            match refused {
                None => {
                    assert_eq!(why, None, "{steps:?}");
                    let r = preview(g.state(), &f);
                    let x = line(&r, "flanking attack");
                    assert_eq!(x.effect, Effect::Times(kepi::dice::Ratio::int(2)));
                }
                Some(w) => {
                    let why = why.unwrap_or_default();
                    assert!(
                        why.contains(w) && why.contains("SPI-C3"),
                        "{steps:?}: {why}"
                    );
                    assert!(
                        Form::new(f)
                            .resolve(g.state(), kepi::registry::builtin_tables().unwrap(), None)
                            .is_err()
                    );
                }
            }
        }
        // An attacker two hexes away, or still off the map.
        let mut g = game();
        place(&mut g, "fr-metz-5", hex);
        place(&mut g, "de-2-5-1", around(0));
        let far = position_of(centre().step(Direction::S, 2)).unwrap();
        place(&mut g, "de-2-5-2", far);
        let mut f = form(g.state(), &["de-2-5-1", "de-2-5-2", "de-2-5-3"]);
        f.input.flank = true;
        let why = Form::new(f).refusal(g.state()).unwrap();
        assert!(why.contains("not next to"), "{why}");
        let mut f = form(g.state(), &["de-2-5-1", "de-2-5-3"]);
        f.input.flank = true;
        let why = Form::new(f).refusal(g.state()).unwrap();
        assert!(why.contains("not on the map"), "{why}");
    }

    /// SPI-H1 (N): "only one unit may be the attacker in any Hasty Attack".
    #[test]
    fn spi_h1_a_hasty_attack_has_one_attacker() {
        let hex = position_of(centre()).unwrap();
        let mut g = game();
        place(&mut g, "fr-metz-5", hex);
        place(&mut g, "de-2-5-1", around(0));
        place(&mut g, "de-2-5-2", around(3));
        let mut f = form(g.state(), &["de-2-5-1", "de-2-5-2"]);
        f.input.hasty = true;
        let why = Form::new(f.clone()).refusal(g.state()).unwrap();
        assert!(why.contains("one unit") && why.contains("SPI-H1"), "{why}");
        let mut f = form(g.state(), &["de-2-5-1"]);
        f.input.hasty = true;
        assert_eq!(Form::new(f).refusal(g.state()), None);
    }
}
