//! Graveyard St. Privat worked examples and table checks (GSP-A1..A4, C1..C3, S1).

use super::common::entered;

use std::collections::BTreeMap;

use kepi::dice::{DiceSource, Die, Prob};
use kepi::rules::gsp::{
    self, Casualties, Cell, Cover, CrewInput, DamageState, FireInput, GspTables, GunStatus,
    GunType, Occupants, SectorContents, StructureInput, StructureKind, Target,
};
use proptest::prelude::*;

fn t() -> &'static GspTables {
    kepi::tables::builtin::<kepi::rules::gsp::GspTables>()
}

/// GSP-A1: the hit chart as transcribed in RULES.md: (sector, [AP46, shell46, siege, AP4, shell4, mitr]).
const CHART: [(u32, [&[u32]; 6]); 8] = [
    (
        1,
        [&[2, 3, 4, 5], &[], &[], &[2, 3, 4], &[], &[2, 3, 4, 5, 6]],
    ),
    (
        2,
        [&[2, 3, 4], &[], &[], &[2, 3], &[2, 3, 4, 5], &[2, 3, 4, 5]],
    ),
    (
        3,
        [&[2, 3], &[2, 3, 4, 5], &[], &[], &[2, 3, 4], &[2, 3, 4]],
    ),
    (4, [&[], &[2, 3, 4], &[2, 3, 4, 5, 6], &[], &[2, 3], &[]]),
    (5, [&[], &[2, 3], &[2, 3, 4, 5], &[], &[], &[]]),
    (6, [&[], &[], &[2, 3, 4], &[], &[], &[]]),
    (7, [&[], &[], &[2, 3, 4], &[], &[], &[]]),
    (8, [&[], &[], &[2, 3, 4], &[], &[], &[]]),
];

const GUNS: [GunType; 6] = [
    GunType::Prussian46Ap,
    GunType::Prussian46Shell,
    GunType::PrussianSiege,
    GunType::French4Ap,
    GunType::French4Shell,
    GunType::Mitrailleuse,
];

#[test]
fn gsp_a1_every_chart_cell_every_face() {
    for (sector, row) in CHART {
        for (gun, faces) in GUNS.iter().zip(row) {
            for face in 1..=6 {
                let want_hit = faces.contains(&face);
                assert_eq!(
                    t().is_hit(*gun, sector, face),
                    want_hit,
                    "{gun} sector {sector} face {face}"
                );
                // Through the resolution: direct fire needs no A.O.A.; shell gets 3,4 (on target).
                let mut d = entered(Die::D6, &[face, 3, 4]);
                let r = gsp::fire(&FireInput::new(*gun, sector), t(), Some(&mut d)).unwrap();
                let shot = &r.outcome.unwrap().guns[0];
                assert_eq!(shot.hit, want_hit, "{gun} sector {sector} face {face}");
                assert_eq!(shot.personnel_hits, if want_hit { face } else { 0 });
                assert_eq!(
                    shot.landing,
                    (want_hit && gun.drifts()).then_some(Cell::OnTarget)
                );
            }
        }
    }
    assert!(gsp::fire(&FireInput::new(GunType::PrussianSiege, 9), t(), None).is_err());
    assert!(gsp::fire(&FireInput::new(GunType::PrussianSiege, 0), t(), None).is_err());
}

#[test]
fn gsp_a3_every_aoa_total() {
    let want = [
        (2, Cell::OverLeft),
        (3, Cell::Left),
        (4, Cell::ShortLeft),
        (5, Cell::Over),
        (6, Cell::OnTarget),
        (7, Cell::OnTarget),
        (8, Cell::OnTarget),
        (9, Cell::Short),
        (10, Cell::ShortRight),
        (11, Cell::Right),
        (12, Cell::OverRight),
    ];
    for (total, cell) in want {
        assert_eq!(t().aoa_cell(total), Some(cell), "total {total}");
        let (a, b) = if total <= 7 {
            (1, total - 1)
        } else {
            (6, total - 6)
        };
        let mut d = entered(Die::D6, &[3, a, b]);
        let r = gsp::fire(
            &FireInput::new(GunType::Prussian46Shell, 3),
            t(),
            Some(&mut d),
        )
        .unwrap();
        let o = r.outcome.unwrap();
        assert_eq!(o.guns[0].landing, Some(cell));
        assert_eq!(o.guns[0].aoa_total, Some(total));
        assert_eq!(o.cells[0].cell, cell);
        assert_eq!(o.drift.unwrap().cell(cell).unwrap().shells, 1);
    }
    let m = gsp::drift_model(t(), &[]);
    assert_eq!(m.cell(Cell::OnTarget).unwrap().p, Prob::new(16, 36));
    assert_eq!(m.cell(Cell::ShortLeft).unwrap().p, Prob::new(3, 36));
    assert_eq!(m.cells.iter().map(|c| c.p).sum::<Prob>(), Prob::ONE);
}

#[test]
fn gsp_a2_direct_fire_needs_line_of_sight_and_does_not_drift() {
    let mut input = FireInput::new(GunType::Mitrailleuse, 1);
    input.line_of_sight = false;
    let e = gsp::fire(&input, t(), None).unwrap_err().to_string();
    assert!(e.contains("line of sight"), "{e}");
    let mut input = FireInput::new(GunType::Prussian46Shell, 3);
    input.line_of_sight = false;
    assert!(gsp::fire(&input, t(), None).is_ok());
    let mut d = entered(Die::D6, &[6]);
    let r = gsp::fire(&FireInput::new(GunType::Mitrailleuse, 1), t(), Some(&mut d)).unwrap();
    assert_eq!(r.dice.len(), 1, "no A.O.A. dice for direct fire");
    assert!(r.outcome.unwrap().drift.is_none());
}

#[test]
fn gsp_c1_cover_deducts_and_never_below_zero() {
    for (cover, ded) in [
        (Cover::None, 0),
        (Cover::Woods, 1),
        (Cover::Town, 1),
        (Cover::Mountain, 1),
        (Cover::Building, 2),
        (Cover::Wall, 2),
        (Cover::Fortified, 1),
    ] {
        for face in 2..=5 {
            let mut input = FireInput::new(GunType::Prussian46Ap, 1);
            input.cover = cover;
            let mut d = entered(Die::D6, &[face]);
            let r = gsp::fire(&input, t(), Some(&mut d)).unwrap();
            let shot = &r.outcome.unwrap().guns[0];
            assert_eq!(
                shot.personnel_hits,
                face.saturating_sub(ded),
                "{cover} {face}"
            );
        }
    }
}

#[test]
fn gsp_c1_mixed_sector_example() {
    // 2 cavalry + 3 infantry; the extra point of an uneven split goes against the infantry.
    let occ = Occupants {
        infantry: 3,
        cavalry: 2,
        ..Occupants::default()
    };
    for (hits, inf, cav) in [(2, 1, 1), (3, 2, 1), (4, 2, 2), (5, 3, 2)] {
        let c = gsp::damage::share_hits(&occ, &[(hits, hits)], t());
        assert_eq!((c.infantry, c.cavalry), (inf, cav), "{hits}");
    }
    let mut input = FireInput::new(GunType::Mitrailleuse, 1);
    input.sectors.insert(
        Cell::OnTarget,
        SectorContents {
            occupants: occ,
            ..SectorContents::default()
        },
    );
    let mut d = entered(Die::D6, &[5]);
    let o = gsp::fire(&input, t(), Some(&mut d))
        .unwrap()
        .outcome
        .unwrap();
    assert_eq!(
        o.cells[0].casualties,
        Some(Casualties {
            infantry: 3,
            cavalry: 2,
            ..Casualties::default()
        })
    );
}

#[test]
fn gsp_c2_thresholds_and_split() {
    for (kind, threshold) in [
        (StructureKind::Wall, 5),
        (StructureKind::SmallBuilding, 10),
        (StructureKind::LargeBridge, 15),
        (StructureKind::Limber, 3),
        (StructureKind::LightGun, 6),
        (StructureKind::SiegeGun, 12),
    ] {
        assert_eq!(t().threshold(kind), threshold);
        for so_far in 0..threshold {
            let r = gsp::structure(
                &StructureInput {
                    kind,
                    damage_so_far: so_far,
                    pips: 2,
                    equipment: None,
                },
                t(),
            )
            .unwrap();
            let o = r.outcome.unwrap();
            assert_eq!(o.total, so_far + 2);
            assert_eq!(o.destroyed, so_far + 2 >= threshold, "{kind} {so_far}");
        }
    }
    // Wall with a light gun behind: 5 pips -> 3 on the wall, 2 on the gun.
    let o = gsp::structure(
        &StructureInput {
            kind: StructureKind::Wall,
            damage_so_far: 0,
            pips: 5,
            equipment: Some(DamageState {
                kind: StructureKind::LightGun,
                damage_so_far: 4,
            }),
        },
        t(),
    )
    .unwrap()
    .outcome
    .unwrap();
    assert_eq!((o.structure.added, o.equipment.unwrap().added), (3, 2));
    assert!(!o.destroyed);
    assert!(o.equipment.unwrap().destroyed);
}

#[test]
fn gsp_c2_cover_falls_in_the_same_turn_and_ap_does_no_damage() {
    let behind_wall = SectorContents {
        occupants: Occupants {
            infantry: 6,
            ..Occupants::default()
        },
        cover: Cover::Wall,
        structure: Some(DamageState {
            kind: StructureKind::Wall,
            damage_so_far: 2,
        }),
        equipment: None,
    };
    let mut input = FireInput::new(GunType::Prussian46Shell, 3);
    input.sectors.insert(Cell::OnTarget, behind_wall.clone());
    // 3 pips bring the wall to 5: it falls, and the men take the full 3.
    let mut d = entered(Die::D6, &[3, 3, 4]);
    let o = gsp::fire(&input, t(), Some(&mut d))
        .unwrap()
        .outcome
        .unwrap();
    assert!(o.cells[0].cover_fell);
    assert_eq!(o.guns[0].personnel_hits, 3);
    // 2 pips: the wall stands (4 of 5), cover -2 -> 0 hits.
    let mut d = entered(Die::D6, &[2, 3, 4]);
    let o = gsp::fire(&input, t(), Some(&mut d))
        .unwrap()
        .outcome
        .unwrap();
    assert!(!o.cells[0].cover_fell);
    assert_eq!(o.guns[0].personnel_hits, 0);
    // A battery: the second gun's shell topples the wall, so the first gun's hits count in full too.
    input.guns = 2;
    let mut d = entered(Die::D6, &[2, 2, 3, 4, 3, 4]);
    let o = gsp::fire(&input, t(), Some(&mut d))
        .unwrap()
        .outcome
        .unwrap();
    assert_eq!(o.guns.iter().map(|g| g.personnel_hits).sum::<u32>(), 4);
    // AP fire does no damage to structures.
    let mut input = FireInput::new(GunType::Prussian46Ap, 1);
    input.sectors.insert(Cell::OnTarget, behind_wall);
    let mut d = entered(Die::D6, &[5]);
    let o = gsp::fire(&input, t(), Some(&mut d))
        .unwrap()
        .outcome
        .unwrap();
    assert_eq!(o.cells[0].structure.unwrap().added, 0);
    assert_eq!(o.guns[0].personnel_hits, 3);
}

#[test]
fn gsp_c3_crews() {
    for (die, hits, horses, cannoneers) in [
        (2, 1, 1, 0),
        (2, 2, 1, 1),
        (4, 3, 2, 1),
        (6, 6, 3, 3),
        (3, 1, 0, 1),
        (3, 3, 1, 2),
        (5, 4, 2, 2),
        (5, 5, 2, 3),
    ] {
        let r = gsp::crew(
            &CrewInput {
                hits,
                hit_die: Some(die),
                ..CrewInput::default()
            },
            t(),
            None,
        )
        .unwrap();
        let o = r.outcome.unwrap();
        assert_eq!(
            (o.horses, o.cannoneers),
            (horses, cannoneers),
            "{die} {hits}"
        );
    }
    // Caps: 1 horse left, 3 hits on an even die -> 1 horse, 2 cannoneers.
    let o = gsp::crew(
        &CrewInput {
            hits: 3,
            hit_die: Some(4),
            horses: Some(1),
            cannoneers: Some(5),
        },
        t(),
        None,
    )
    .unwrap()
    .outcome
    .unwrap();
    assert_eq!((o.horses, o.cannoneers), (1, 2));
    assert_eq!(t().crew.defence_cv.v(), 3);
    assert!(
        gsp::crew(
            &CrewInput {
                hits: 4,
                hit_die: Some(3),
                ..CrewInput::default()
            },
            t(),
            None
        )
        .is_err()
    );
}

#[test]
fn gsp_a4_and_s1_eligibility() {
    let mut input = FireInput::new(GunType::PrussianSiege, 4);
    input.status = GunStatus {
        hidden: true,
        ..GunStatus::default()
    };
    let e = gsp::fire(&input, t(), None).unwrap_err().to_string();
    assert!(e.contains("hidden"), "{e}");
    input.status = GunStatus {
        moved_this_turn: true,
        ..GunStatus::default()
    };
    assert!(gsp::fire(&input, t(), None).is_err());
    // The siege gun's fortified sector deducts 1.
    let mut input = FireInput::new(GunType::French4Shell, 2);
    input.cover = Cover::Fortified;
    let mut d = entered(Die::D6, &[5, 3, 4]);
    let o = gsp::fire(&input, t(), Some(&mut d)).unwrap();
    assert_eq!(o.outcome.unwrap().guns[0].personnel_hits, 4);
    assert!(o.modifiers.iter().any(|m| m.rule.as_str() == "GSP-S1"));
}

#[test]
fn gsp_a1_range_in_inches_and_centimetres() {
    let mut input = FireInput::new(GunType::PrussianSiege, 1);
    input.target = Target::Range {
        range: "40".parse().unwrap(),
        sector_length: None,
    };
    let r = gsp::fire(&input, t(), None).unwrap();
    assert!(r.summary.contains("sector 4"), "{}", r.summary);
    input.target = Target::Range {
        range: "100cm".parse().unwrap(),
        sector_length: Some("25cm".parse().unwrap()),
    };
    assert_eq!(gsp::fire_odds(&input, t()).unwrap().sector, 4);
}

#[test]
fn odds_are_exact_and_sum_to_one() {
    // GSP-A1: Prussian shell at sector 3 hits on 2-5: 4/6; landing on target given a hit: 16/36.
    let input = FireInput::new(GunType::Prussian46Shell, 3);
    let o = gsp::fire_odds(&input, t()).unwrap();
    assert_eq!(o.p_hit, Prob::new(2, 3));
    let on = o
        .landing_given_hit
        .iter()
        .find(|c| c.value == Cell::OnTarget)
        .unwrap();
    assert_eq!(on.p, Prob::new(16, 36));
    let r = gsp::fire(&input, t(), None).unwrap();
    assert_eq!(r.odds_total(), Prob::ONE);
    assert!(r.outcome.is_none());
    // Wall at 3 of 5 on target: falls when a hit (2+ pips) lands on target: 2/3 * 4/9.
    let mut input = FireInput::new(GunType::Prussian46Shell, 3);
    input.sectors.insert(
        Cell::OnTarget,
        SectorContents {
            structure: Some(DamageState {
                kind: StructureKind::Wall,
                damage_so_far: 3,
            }),
            cover: Cover::Wall,
            ..SectorContents::default()
        },
    );
    let o = gsp::fire_odds(&input, t()).unwrap();
    let c = o.cells.iter().find(|c| c.cell == Cell::OnTarget).unwrap();
    assert_eq!(c.structure_falls, Some(Prob::new(8, 27)));
    for c in &o.cells {
        assert_eq!(
            c.personnel_hits.iter().map(|x| x.p).sum::<Prob>(),
            Prob::ONE
        );
    }
    // A battery of 3: guns hitting is binomial.
    let mut input = FireInput::new(GunType::Mitrailleuse, 1);
    input.guns = 3;
    let r = gsp::fire(&input, t(), None).unwrap();
    assert_eq!(r.odds_total(), Prob::ONE);
    assert_eq!(r.odds.last().unwrap().p, Prob::new(125, 216));
}

#[test]
fn battery_groups_by_landing_sector() {
    let mut input = FireInput::new(GunType::Prussian46Shell, 4);
    input.guns = 3;
    let mut map = BTreeMap::new();
    map.insert(
        Cell::Over,
        SectorContents {
            occupants: Occupants {
                cavalry: 4,
                ..Occupants::default()
            },
            cover: Cover::Woods,
            ..SectorContents::default()
        },
    );
    input.sectors = map;
    // Hit dice 4, 1 (miss), 3; A.O.A. 2+3 = 5 (over), 3+4 = 7 (on target).
    let mut d = entered(Die::D6, &[4, 1, 3, 2, 3, 3, 4]);
    let r = gsp::fire(&input, t(), Some(&mut d)).unwrap();
    let o = r.outcome.unwrap();
    assert_eq!(o.hits, 2);
    assert_eq!(o.guns[0].landing, Some(Cell::Over));
    assert_eq!(o.guns[0].personnel_hits, 3, "woods -1 where it landed");
    assert_eq!(o.guns[1].landing, None);
    assert_eq!(o.guns[2].landing, Some(Cell::OnTarget));
    let over = o.cells.iter().find(|c| c.cell == Cell::Over).unwrap();
    assert_eq!(over.casualties.unwrap().cavalry, 3);
    assert_eq!(r.dice.len(), 7);
}

proptest! {
    #[test]
    fn any_fire_odds_sum_to_one(gun in 0usize..6, sector in 1u32..=8, cover in 0usize..7, guns in 1u32..=3) {
        let mut input = FireInput::new(GUNS[gun], sector);
        input.cover = Cover::ALL[cover];
        input.guns = guns;
        let r = gsp::fire(&input, t(), None).unwrap();
        prop_assert_eq!(r.odds_total(), Prob::ONE);
        let o = gsp::fire_odds(&input, t()).unwrap();
        prop_assert_eq!(o.personnel_hits.iter().map(|c| c.p).sum::<Prob>(), Prob::ONE);
    }

    #[test]
    fn casualties_never_exceed_men(inf in 0u32..5, cav in 0u32..5, seed in 0u64..1000) {
        let mut input = FireInput::new(GunType::PrussianSiege, 4);
        input.guns = 4;
        input.sectors.insert(Cell::OnTarget, SectorContents {
            occupants: Occupants { infantry: inf, cavalry: cav, ..Occupants::default() },
            ..SectorContents::default()
        });
        let mut d = DiceSource::seeded(seed);
        let o = gsp::fire(&input, t(), Some(&mut d)).unwrap().outcome.unwrap();
        for c in &o.cells {
            if let Some(cas) = c.casualties {
                prop_assert!(cas.infantry <= inf && cas.cavalry <= cav);
                prop_assert_eq!(cas.total() + cas.unabsorbed, c.personnel_hits);
            }
        }
    }
}
