//! Portable Wargame (seed 003): every modifier line of the seed as a table-driven case citing its
//! id, every unit-table cell, hits, turn sequence, defeat, and exact odds.

use super::common::d6;

use kepi::dice::Prob;
use kepi::hex::{Direction, Hex};
use kepi::rules::pw::{
    self, ActivationInput, Army, ArtilleryInput, DefeatInput, Gunnery, HitCause, HitChoice,
    MeleeGround, MeleeInput, Phase, PwTables, PwUnit, Quality, RifleInput, Side, TurnClock,
    UnitKind, UnitType,
};
use kepi::rules::{Effect, Resolution};
use serde::Serialize;

fn t() -> &'static PwTables {
    kepi::tables::builtin::<kepi::rules::pw::PwTables>()
}

/// The sum of the +N/-N lines of a resolution.
fn added<O: Serialize>(r: &Resolution<O>) -> i64 {
    r.modifiers
        .iter()
        .filter_map(|m| match &m.effect {
            Effect::Add(v) => Some(v.floor()),
            _ => None,
        })
        .sum()
}

fn p(r: &Resolution<impl Serialize>, label: &str) -> Prob {
    r.odds
        .iter()
        .find(|o| o.outcome == label)
        .map(|o| o.p)
        .unwrap_or(Prob::ZERO)
}

/// PW-U1: every cell of the unit table.
#[test]
fn pw_u1_unit_table() {
    let rows = [
        (UnitType::FrenchInfantry, 4, 2, 4),
        (UnitType::GermanInfantry, 4, 2, 3),
        (UnitType::Cavalry, 2, 3, 0),
        (UnitType::FrenchImperialArtillery, 4, 2, 6),
        (UnitType::FrenchRepublicanArtillery, 4, 2, 9),
        (UnitType::GermanArtillery, 4, 2, 9),
        (UnitType::PrussianArtillery, 4, 2, 12),
    ];
    assert_eq!(rows.len(), UnitType::ALL.len());
    for (ty, sp, mv, range) in rows {
        let row = t().unit(ty);
        assert_eq!(
            (row.sp.v(), row.move_hexes.v(), row.range.v()),
            (sp, mv, range),
            "PW-U1 {ty}"
        );
        assert_eq!(row.sp.provenance.as_str(), "seed");
        assert!(row.sp.quote.is_some());
    }
}

/// PW-T2: (army, quality, d6, score, active).
#[test]
fn pw_t2_activation() {
    let cases = [
        (Army::Prussian, Quality::Normal, 1, 1, false),
        (Army::Prussian, Quality::Normal, 2, 2, true),
        (Army::Garibaldi, Quality::Normal, 2, 2, true),
        (Army::French, Quality::Normal, 2, 2, false),
        (Army::French, Quality::Normal, 3, 3, true),
        (Army::German, Quality::Normal, 2, 2, false), // non-Prussian Germans need 3
        (Army::German, Quality::Normal, 3, 3, true),
        (Army::French, Quality::Elite, 2, 3, true), // Elite +1
        (Army::Prussian, Quality::Poor, 2, 1, false), // Poor -1
        (Army::Garibaldi, Quality::Poor, 3, 2, true),
    ];
    for (army, quality, roll, score, active) in cases {
        let mut dice = d6(roll);
        let r = pw::activate(&ActivationInput { army, quality }, t(), Some(&mut dice)).unwrap();
        let o = r.outcome.clone().unwrap();
        assert_eq!(
            (o.score, o.active),
            (score, active),
            "PW-T2 {army} {quality} d6 {roll}"
        );
        assert!(r.rule_ids().iter().all(|id| id.as_str() == "PW-T2"));
        assert_eq!(r.dice.len(), 1);
    }
    let odds = [
        (Army::Prussian, Quality::Normal, Prob::new(5, 6)),
        (Army::French, Quality::Normal, Prob::new(2, 3)),
        (Army::French, Quality::Elite, Prob::new(5, 6)),
        (Army::French, Quality::Poor, Prob::new(1, 2)),
        (Army::Prussian, Quality::Elite, Prob::ONE),
    ];
    for (army, quality, want) in odds {
        let r = pw::activate(&ActivationInput { army, quality }, t(), None).unwrap();
        assert!(r.outcome.is_none());
        assert_eq!(p(&r, "active"), want, "PW-T2 odds {army} {quality}");
    }
}

/// PW-A1: (guns, sp, cover, d6, modifier total, hits). Needs 4.
#[test]
fn pw_a1_artillery_fire() {
    let cases = [
        (Gunnery::Prussian, 4, false, 2, 2, 1), // Prussian +1, SP > 3 +1
        (Gunnery::Prussian, 3, false, 2, 1, 0), // Prussian +1 only
        (Gunnery::FrenchImperial, 3, false, 4, -1, 0), // French Imperial -1
        (Gunnery::FrenchImperial, 4, false, 4, 0, 1),
        (Gunnery::FrenchRepublican, 3, false, 4, 0, 1), // no modifier
        (Gunnery::FrenchRepublican, 3, false, 3, 0, 0),
        (Gunnery::German, 3, true, 4, -1, 0), // target in cover -1
        (Gunnery::German, 2, false, 5, -1, 1), // SP < 3 -1
        (Gunnery::German, 1, true, 6, -2, 1),
        (Gunnery::FrenchImperial, 2, true, 6, -3, 0), // -3: needs 7, impossible
    ];
    for (army, sp, cover, roll, m, hits) in cases {
        let input = ArtilleryInput {
            army,
            sp,
            target_cover: cover,
            range: None,
        };
        let mut dice = d6(roll);
        let r = pw::artillery(&input, t(), Some(&mut dice)).unwrap();
        assert_eq!(added(&r), m, "PW-A1 {army} sp {sp} cover {cover}");
        let o = r.outcome.clone().unwrap();
        assert_eq!(o.score, roll as i64 + m);
        assert_eq!(o.hits, hits, "PW-A1 {army} sp {sp} d6 {roll}");
        assert!(r.rule_ids().iter().all(|id| id.as_str() == "PW-A1"));
    }
    let r = pw::artillery(
        &ArtilleryInput {
            army: Gunnery::Prussian,
            sp: 4,
            target_cover: false,
            range: None,
        },
        t(),
        None,
    )
    .unwrap();
    assert_eq!(p(&r, "1 hit"), Prob::new(5, 6));
    // PW-G1: range checked in hexes against PW-U1
    let far = ArtilleryInput {
        army: Gunnery::FrenchImperial,
        sp: 4,
        target_cover: false,
        range: Some(7),
    };
    assert!(pw::artillery(&far, t(), None).is_err());
    let near = ArtilleryInput {
        range: Some(6),
        ..far
    };
    let r = pw::artillery(&near, t(), None).unwrap();
    assert!(r.rule_ids().iter().any(|id| id.as_str() == "PW-G1"));
}

/// PW-R1: (sp, moved, cover, d6, modifier total, hits). Needs 4.
#[test]
fn pw_r1_rifle_fire() {
    let cases = [
        (3, false, false, 4, 0, 1),
        (3, false, false, 3, 0, 0),
        (3, true, false, 4, -1, 0),  // moved -1
        (3, false, true, 4, -1, 0),  // cover -1
        (4, false, false, 3, 1, 1),  // SP > 3 +1
        (2, false, false, 4, -1, 0), // SP < 3 -1
        (4, true, false, 3, 0, 0),
        (2, true, true, 6, -3, 0),
        (1, false, true, 6, -2, 1),
    ];
    for (sp, moved, cover, roll, m, hits) in cases {
        let input = RifleInput {
            sp,
            moved,
            target_cover: cover,
            firer: None,
            range: None,
        };
        let mut dice = d6(roll);
        let r = pw::rifle(&input, t(), Some(&mut dice)).unwrap();
        assert_eq!(added(&r), m, "PW-R1 sp {sp} moved {moved} cover {cover}");
        assert_eq!(r.outcome.clone().unwrap().hits, hits, "PW-R1 d6 {roll}");
    }
    let base = RifleInput {
        sp: 4,
        moved: false,
        target_cover: false,
        firer: Some(UnitType::GermanInfantry),
        range: Some(4),
    };
    assert!(
        pw::rifle(&base, t(), None).is_err(),
        "German rifles reach 3"
    );
    let french = RifleInput {
        firer: Some(UnitType::FrenchInfantry),
        ..base.clone()
    };
    assert!(
        pw::rifle(&french, t(), None).is_ok(),
        "French rifles reach 4"
    );
    let cav = RifleInput {
        firer: Some(UnitType::Cavalry),
        range: None,
        ..base.clone()
    };
    assert!(pw::rifle(&cav, t(), None).is_err(), "no dismounted fire");
    let zero = RifleInput { sp: 0, ..base };
    assert!(pw::rifle(&zero, t(), None).is_err());
}

fn mi(unit: UnitKind, sp: u32, enemy: UnitKind) -> MeleeInput {
    MeleeInput {
        unit,
        sp,
        enemy,
        attacking_flank: false,
        attacked_flank: false,
        enemy_uphill: false,
        enemy_cover: false,
    }
}

/// PW-X1: every modifier line, one at a time.
#[test]
fn pw_x1_melee_modifiers() {
    use UnitKind::*;
    let base = mi(Infantry, 3, Infantry);
    let cases: Vec<(&str, MeleeInput, i64)> = vec![
        ("no modifier", base.clone(), 0),
        (
            "attacking in flank or rear +1",
            MeleeInput {
                attacking_flank: true,
                ..base.clone()
            },
            1,
        ),
        (
            "being attacked in flank or rear -1",
            MeleeInput {
                attacked_flank: true,
                ..base.clone()
            },
            -1,
        ),
        (
            "enemy uphill -1",
            MeleeInput {
                enemy_uphill: true,
                ..base.clone()
            },
            -1,
        ),
        (
            "enemy in cover -1",
            MeleeInput {
                enemy_cover: true,
                ..base.clone()
            },
            -1,
        ),
        ("infantry SP > 3 +1", mi(Infantry, 4, Infantry), 1),
        ("artillery SP > 3 +1", mi(Artillery, 4, Artillery), 1),
        ("infantry SP < 3 -1", mi(Infantry, 2, Infantry), -1),
        ("artillery SP < 3 -1", mi(Artillery, 1, Artillery), -1),
        ("cavalry SP < 2 -1", mi(Cavalry, 1, Cavalry), -1),
        ("cavalry SP 2: none", mi(Cavalry, 2, Cavalry), 0),
        (
            "cavalry SP 4: no strength bonus",
            mi(Cavalry, 4, Cavalry),
            0,
        ),
        ("cavalry fighting infantry +1", mi(Cavalry, 2, Infantry), 1),
        ("infantry fighting cavalry -1", mi(Infantry, 3, Cavalry), -1),
        (
            "cavalry fighting artillery +2",
            mi(Cavalry, 2, Artillery),
            2,
        ),
        (
            "artillery fighting cavalry -2",
            mi(Artillery, 3, Cavalry),
            -2,
        ),
        (
            "infantry fighting artillery +1",
            mi(Infantry, 3, Artillery),
            1,
        ),
        (
            "artillery fighting infantry -1",
            mi(Artillery, 3, Infantry),
            -1,
        ),
        ("infantry v infantry: none", mi(Infantry, 3, Infantry), 0),
        (
            "everything at once",
            MeleeInput {
                attacking_flank: true,
                attacked_flank: true,
                enemy_uphill: true,
                enemy_cover: true,
                ..mi(Artillery, 2, Cavalry)
            },
            -5,
        ),
    ];
    for (what, input, m) in cases {
        let r = pw::melee(&input, t(), None).unwrap();
        assert_eq!(added(&r), m, "PW-X1 {what}");
        assert!(
            r.rule_ids().iter().all(|id| id.as_str() == "PW-X1"),
            "{what}"
        );
        assert_eq!(r.odds_total(), Prob::ONE);
    }
}

/// PW-X1: needs 4, a modified 8+ is two hits.
#[test]
fn pw_x1_melee_hits() {
    use UnitKind::*;
    let cases = [
        (mi(Infantry, 3, Infantry), 3, 3, 0),
        (mi(Infantry, 3, Infantry), 4, 4, 1),
        (mi(Infantry, 3, Infantry), 6, 6, 1),
        (mi(Infantry, 4, Artillery), 6, 8, 2), // +1 SP, +1 v artillery
        (mi(Infantry, 4, Artillery), 5, 7, 1),
        (
            MeleeInput {
                attacking_flank: true,
                ..mi(Cavalry, 2, Artillery)
            },
            5,
            8,
            2,
        ),
    ];
    for (input, roll, score, hits) in cases {
        let mut dice = d6(roll);
        let r = pw::melee(&input, t(), Some(&mut dice)).unwrap();
        let o = r.outcome.clone().unwrap();
        assert_eq!(
            (o.score, o.hits),
            (score, hits),
            "PW-X1 {input:?} d6 {roll}"
        );
    }
    let r = pw::melee(
        &MeleeInput {
            attacking_flank: true,
            ..mi(Cavalry, 2, Artillery)
        },
        t(),
        None,
    )
    .unwrap();
    // +3: 1 -> 4 (one hit) ... 5 and 6 -> 8, 9 (two hits)
    assert_eq!(p(&r, "0 hits"), Prob::ZERO);
    assert_eq!(p(&r, "1 hit"), Prob::new(2, 3));
    assert_eq!(p(&r, "2 hits"), Prob::new(1, 3));
}

/// DICE-3: every combination's odds sum to exactly 1, and a rolled die lands on an outcome the
/// preview gave positive odds.
#[test]
fn odds_sum_to_one_everywhere() {
    for sp in 1..=5u32 {
        for flags in 0..16u32 {
            let b = |i: u32| flags & (1 << i) != 0;
            for u in UnitKind::ALL {
                for e in UnitKind::ALL {
                    let input = MeleeInput {
                        unit: *u,
                        sp,
                        enemy: *e,
                        attacking_flank: b(0),
                        attacked_flank: b(1),
                        enemy_uphill: b(2),
                        enemy_cover: b(3),
                    };
                    let preview = pw::melee(&input, t(), None).unwrap();
                    assert_eq!(preview.odds_total(), Prob::ONE);
                    for roll in 1..=6 {
                        let r = pw::melee(&input, t(), Some(&mut d6(roll))).unwrap();
                        let hits = r.outcome.clone().unwrap().hits;
                        let label = if hits == 1 {
                            "1 hit".to_string()
                        } else {
                            format!("{hits} hits")
                        };
                        assert!(p(&preview, &label) > Prob::ZERO);
                    }
                }
            }
            for g in Gunnery::ALL {
                let input = ArtilleryInput {
                    army: *g,
                    sp,
                    target_cover: b(0),
                    range: None,
                };
                assert_eq!(
                    pw::artillery(&input, t(), None).unwrap().odds_total(),
                    Prob::ONE
                );
            }
            let input = RifleInput {
                sp,
                moved: b(0),
                target_cover: b(1),
                firer: None,
                range: None,
            };
            assert_eq!(
                pw::rifle(&input, t(), None).unwrap().odds_total(),
                Prob::ONE
            );
        }
    }
    for a in Army::ALL {
        for q in Quality::ALL {
            let r = pw::activate(
                &ActivationInput {
                    army: *a,
                    quality: *q,
                },
                t(),
                None,
            )
            .unwrap();
            assert_eq!(r.odds_total(), Prob::ONE);
        }
    }
}

/// PW-V1: more than half the SP OR more than half the units.
#[test]
fn pw_v1_defeat() {
    let cases = [
        (10, 20, 0, 6, false), // exactly half the SP: not yet
        (11, 20, 0, 6, true),
        (0, 20, 3, 6, false), // exactly half the units: not yet
        (5, 20, 4, 6, true),
        (4, 9, 4, 9, false),
        (5, 9, 0, 9, true),
        (0, 9, 5, 9, true),
        (0, 1, 0, 1, false),
    ];
    for (sp_lost, sp_total, units_lost, units_total, defeated) in cases {
        let r = pw::defeat(&DefeatInput {
            sp_lost,
            sp_total,
            units_lost,
            units_total,
        })
        .unwrap();
        assert_eq!(
            r.outcome.clone().unwrap().defeated,
            defeated,
            "PW-V1 {sp_lost}/{sp_total} {units_lost}/{units_total}"
        );
        assert_eq!(r.odds_total(), Prob::ONE);
        assert_eq!(r.odds.len(), 1);
        assert!(r.dice.is_empty());
    }
    assert!(
        pw::defeat(&DefeatInput {
            sp_lost: 3,
            sp_total: 2,
            units_lost: 0,
            units_total: 1
        })
        .is_err()
    );
    assert!(
        pw::defeat(&DefeatInput {
            sp_lost: 0,
            sp_total: 2,
            units_lost: 0,
            units_total: 0
        })
        .is_err()
    );
    // from units
    let mut a = PwUnit::new(
        "a",
        UnitType::FrenchInfantry,
        t(),
        Hex::new(0, 0),
        Direction::N,
    );
    let b = PwUnit::new("b", UnitType::Cavalry, t(), Hex::new(1, 0), Direction::N);
    a.sp = 0;
    let input = DefeatInput::from_units(&[a, b]);
    assert_eq!(
        input,
        DefeatInput {
            sp_lost: 4,
            sp_total: 6,
            units_lost: 1,
            units_total: 2
        }
    );
    assert!(pw::defeat(&input).unwrap().outcome.unwrap().by_sp);
}

/// PW-H1: the owner's choices and their effects.
#[test]
fn pw_h1_hits() {
    let guns = PwUnit::new(
        "guns",
        UnitType::PrussianArtillery,
        t(),
        Hex::new(0, 0),
        Direction::N,
    );
    assert_eq!(
        pw::hit_choices(UnitKind::Artillery, HitCause::Fire),
        [HitChoice::LoseSp, HitChoice::Silenced]
    );
    assert_eq!(
        pw::hit_choices(UnitKind::Artillery, HitCause::Melee),
        [HitChoice::LoseSp, HitChoice::Withdraw]
    );
    assert_eq!(
        pw::hit_choices(UnitKind::Infantry, HitCause::Fire),
        [HitChoice::LoseSp, HitChoice::Withdraw]
    );
    // artillery hit by fire may not withdraw, but may be silenced
    assert!(
        pw::apply_hit(
            &guns,
            HitCause::Fire,
            HitChoice::Withdraw,
            Some(Hex::new(0, 1))
        )
        .is_err()
    );
    let mut s = pw::apply_hit(&guns, HitCause::Fire, HitChoice::Silenced, None).unwrap();
    assert_eq!(s.sp, 4);
    assert!(s.silenced_next_turn);
    s.start_half_turn();
    s.activated = true;
    assert!(s.silenced && !s.can_move() && !s.can_fire(t()));
    s.start_half_turn();
    s.activated = true;
    assert!(!s.silenced && s.can_move() && s.can_fire(t()));
    // guns that fired cannot move (PW-A1)
    s.fired = true;
    assert!(!s.can_move());
    // infantry: withdraw one hex, or lose SP down to elimination
    let inf = PwUnit::new(
        "inf",
        UnitType::GermanInfantry,
        t(),
        Hex::new(0, 0),
        Direction::N,
    );
    assert!(pw::apply_hit(&inf, HitCause::Fire, HitChoice::Silenced, None).is_err());
    assert!(pw::apply_hit(&inf, HitCause::Melee, HitChoice::Withdraw, None).is_err());
    assert!(
        pw::apply_hit(
            &inf,
            HitCause::Melee,
            HitChoice::Withdraw,
            Some(Hex::new(0, 2))
        )
        .is_err()
    );
    let w = pw::apply_hit(
        &inf,
        HitCause::Melee,
        HitChoice::Withdraw,
        Some(Hex::new(0, 1)),
    )
    .unwrap();
    assert_eq!((w.hex, w.sp), (Hex::new(0, 1), 4));
    let mut u = inf.clone();
    for _ in 0..4 {
        u = pw::apply_hit(&u, HitCause::Fire, HitChoice::LoseSp, None).unwrap();
    }
    assert!(u.eliminated());
    assert!(pw::apply_hit(&u, HitCause::Fire, HitChoice::LoseSp, None).is_err());
}

/// PW-T1: alternate half-turns, four phases in order, defender second.
#[test]
fn pw_t1_turn_sequence() {
    let mut c = TurnClock::with_defender(Side::A);
    assert_eq!(
        (c.turn, c.side, c.phase),
        (1, Side::B, Phase::ArtilleryFire)
    );
    let mut seen = Vec::new();
    for _ in 0..8 {
        seen.push((c.turn, c.side, c.phase));
        c.advance();
    }
    use Phase::*;
    assert_eq!(
        seen,
        vec![
            (1, Side::B, ArtilleryFire),
            (1, Side::B, Movement),
            (1, Side::B, RifleFire),
            (1, Side::B, Melee),
            (1, Side::A, ArtilleryFire),
            (1, Side::A, Movement),
            (1, Side::A, RifleFire),
            (1, Side::A, Melee),
        ]
    );
    assert_eq!((c.turn, c.side, c.phase), (2, Side::B, ArtilleryFire));
    // defender known: certain; otherwise dice (house: 1-3 side A)
    let r = pw::first_side(Some(Side::B), t(), None).unwrap();
    assert_eq!(r.outcome.unwrap().first, Side::A);
    let r = pw::first_side(None, t(), None).unwrap();
    assert_eq!(r.odds_total(), Prob::ONE);
    assert_eq!(r.odds.len(), 2);
    assert!(r.uses_house_values());
    for (roll, first) in [(1, Side::A), (3, Side::A), (4, Side::B), (6, Side::B)] {
        let r = pw::first_side(None, t(), Some(&mut d6(roll))).unwrap();
        assert_eq!(r.outcome.unwrap().first, first);
    }
}

/// PW-G1: ranges counted in hexes.
#[test]
fn pw_g1_ranges_in_hexes() {
    let o = Hex::new(0, 0);
    assert!(pw::in_range(
        t(),
        UnitType::PrussianArtillery,
        o,
        o.step(Direction::S, 12)
    ));
    assert!(!pw::in_range(
        t(),
        UnitType::PrussianArtillery,
        o,
        o.step(Direction::S, 13)
    ));
    assert!(pw::in_range(
        t(),
        UnitType::GermanInfantry,
        o,
        o.step(Direction::NE, 3)
    ));
    assert!(!pw::in_range(
        t(),
        UnitType::GermanInfantry,
        o,
        o.step(Direction::NE, 4)
    ));
    assert!(!pw::in_range(
        t(),
        UnitType::Cavalry,
        o,
        o.neighbour(Direction::N)
    ));
    assert!(!pw::in_range(t(), UnitType::FrenchInfantry, o, o));
    let guns = PwUnit::new("g", UnitType::FrenchImperialArtillery, t(), o, Direction::N);
    let input = pw::artillery_input(&guns, o.step(Direction::S, 7), false).unwrap();
    assert!(
        pw::artillery(&input, t(), None).is_err(),
        "7 hexes is beyond 6"
    );
    let mut inf = PwUnit::new("i", UnitType::FrenchInfantry, t(), o, Direction::N);
    inf.moved = true;
    let input = pw::rifle_input(&inf, o.step(Direction::N, 2), true);
    assert!(input.moved && input.target_cover && input.range == Some(2));
}

/// PW-X1 from positions and facings (flank or rear via the hex geometry).
#[test]
fn pw_x1_flags_from_positions() {
    let d = PwUnit::new(
        "def",
        UnitType::FrenchInfantry,
        t(),
        Hex::new(0, 0),
        Direction::N,
    );
    // attacker coming from the S hex, facing N into the defender: the defender's rear
    let a = PwUnit::new("att", UnitType::Cavalry, t(), Hex::new(0, 1), Direction::N);
    let ground = MeleeGround {
        defender_height: 1,
        defender_cover: true,
        ..MeleeGround::default()
    };
    let (ai, di) = pw::melee_inputs(&a, &d, &ground).unwrap();
    assert!(ai.attacking_flank && !ai.attacked_flank && ai.enemy_uphill && ai.enemy_cover);
    assert!(!di.attacking_flank && di.attacked_flank && !di.enemy_uphill && !di.enemy_cover);
    assert_eq!((ai.unit, ai.enemy), (UnitKind::Cavalry, UnitKind::Infantry));
    // from the front (N hex, facing S)
    let a = PwUnit::new("att", UnitType::Cavalry, t(), Hex::new(0, -1), Direction::S);
    let (ai, di) = pw::melee_inputs(&a, &d, &MeleeGround::default()).unwrap();
    assert!(!ai.attacking_flank && !di.attacked_flank);
    // from the SE hexside: a flank
    let a = PwUnit::new("att", UnitType::Cavalry, t(), Hex::new(1, 0), Direction::NW);
    let (ai, _) = pw::melee_inputs(&a, &d, &MeleeGround::default()).unwrap();
    assert!(ai.attacking_flank);
    // not adjacent: no melee
    let far = PwUnit::new("far", UnitType::Cavalry, t(), Hex::new(0, 3), Direction::N);
    assert!(pw::melee_inputs(&far, &d, &MeleeGround::default()).is_err());
}

/// PW-X2: break off in a straight line directly away, back to the enemy.
#[test]
fn pw_x2_break_off() {
    let u = Hex::new(0, 0);
    let enemy = u.neighbour(Direction::N);
    let b = pw::break_off(u, enemy, 2).unwrap();
    assert_eq!(b.path, vec![Hex::new(0, 1), Hex::new(0, 2)]);
    assert_eq!(b.end, Hex::new(0, 2));
    assert_eq!(b.facing, Direction::S);
    let enemy = u.neighbour(Direction::SW);
    let b = pw::break_off(u, enemy, 1).unwrap();
    assert_eq!(
        (b.end, b.facing),
        (u.neighbour(Direction::NE), Direction::NE)
    );
    assert!(pw::break_off(u, u, 1).is_err());
}

#[test]
fn table_errors_are_located() {
    use kepi::tables::{Check, RuleTable, parse_toml};
    let src = PwTables::BUILTIN.replace("range = { value = 12,", "range = { value = 99,");
    let tables: PwTables = parse_toml("pw.toml", &src).unwrap();
    let e = tables.validate(&Check::new("pw.toml", &src)).unwrap_err();
    assert!(e.field.contains("prussian-artillery.range"), "{e}");
    assert!(e.line > 0);
}
