//! Pickelhaube & Kepi worked examples, one table row per mechanic, each citing its PK id.

use kepi::dice::{DiceSource, Die, Prob, Ratio};
use kepi::rules::pk::{
    self, Activity, Building, Class, Cover, Facing, Formation, Gun, Level, Officer, PkTables,
    Position, Terrain, TroopKind, Weapon, artillery::ArtilleryInput, fire::FireInput,
    melee::MeleeInput, morale::RallyInput,
};
use kepi::tables::RuleTable;

fn t() -> &'static PkTables {
    kepi::tables::builtin::<kepi::rules::pk::PkTables>()
}

fn dice(d10: &[u32], pct: &[u32]) -> DiceSource {
    let mut d = DiceSource::entered_only();
    for v in d10 {
        d.enter(Die::D10, *v).expect("d10");
    }
    for v in pct {
        d.enter(Die::Pct, *v).expect("d%");
    }
    d
}

/// The seed's worked example (PK-X3): veteran, 10 figures, flank: 10 + 1 + 5 + 5 = 21, x4 = 84 vs
/// DV 10: 8 casualties. The text says "a d10 roll of 6" and then adds 5; kepi reproduces the
/// arithmetic, so the d10 here is 5 (with a 6 the LF would be 88, still 8 casualties).
#[test]
fn pk_x3_worked_example_flank_attack() {
    let input = MeleeInput {
        figures: 10,
        class: Class::Veteran,
        facing: Facing::Flank,
        charge: false,
        ..Default::default()
    };
    let mut d = dice(&[5], &[50]);
    let r = pk::melee::melee(&input, t(), Some(&mut d)).expect("melee");
    let o = r.outcome.clone().expect("outcome");
    assert_eq!(o.lf, Ratio::int(84));
    assert_eq!(o.df, 10);
    assert_eq!(o.casualties, 8);
    assert_eq!(o.leader_lost, Some(false));
    assert_eq!(r.odds_total(), Prob::ONE);
    let ids: Vec<&str> = r.rule_ids().iter().map(|i| i.as_str()).collect();
    assert!(ids.contains(&"PK-X3") && ids.contains(&"PK-C1"), "{ids:?}");
    // With the "6" of the prose the LF is 88 and still 8 casualties.
    let mut d = dice(&[6], &[50]);
    let o6 = pk::melee::melee(&input, t(), Some(&mut d))
        .expect("melee")
        .outcome
        .expect("o");
    assert_eq!((o6.lf, o6.casualties), (Ratio::int(88), 8));
}

struct FireRow {
    id: &'static str,
    input: FireInput,
    d10: u32,
    lf: &'static str,
    df: i64,
    casualties: u32,
}

fn fi(figures: u32, class: Class) -> FireInput {
    FireInput {
        figures,
        class,
        ..Default::default()
    }
}

#[test]
fn fire_rows() {
    let rows = vec![
        // PK-F1: AV = figures + class + d10; 12 + 1 + 7 = 20 vs 10: 2.
        FireRow {
            id: "PK-F1",
            input: fi(12, Class::Veteran),
            d10: 7,
            lf: "20",
            df: 10,
            casualties: 2,
        },
        // PK-C1: line 0, elite +2.
        FireRow {
            id: "PK-C1",
            input: fi(12, Class::Line),
            d10: 7,
            lf: "19",
            df: 10,
            casualties: 1,
        },
        FireRow {
            id: "PK-C1",
            input: fi(12, Class::Elite),
            d10: 7,
            lf: "21",
            df: 10,
            casualties: 2,
        },
        // PK-F1: mounted firearms halved: (8 + 0 + 3) / 2 = 11/2.
        FireRow {
            id: "PK-F1",
            input: FireInput {
                mounted: true,
                weapon: Weapon::NeedleCarbine,
                ..fi(8, Class::Line)
            },
            d10: 3,
            lf: "11/2",
            df: 10,
            casualties: 0,
        },
        // PK-F3: enfilade 1.5 x (10 + 1 + 5 + 3) = 57/2.
        FireRow {
            id: "PK-F3",
            input: FireInput {
                enfilade: true,
                ..fi(10, Class::Veteran)
            },
            d10: 5,
            lf: "57/2",
            df: 10,
            casualties: 2,
        },
        // PK-F3 / PK-F1: skirmishers get no enfilade.
        FireRow {
            id: "PK-F3",
            input: FireInput {
                enfilade: true,
                skirmish: true,
                ..fi(10, Class::Veteran)
            },
            d10: 5,
            lf: "16",
            df: 10,
            casualties: 1,
        },
        // PK-F4: Chassepot vs cavalry 3 x (10 + 0 + 4 + 5) = 57.
        FireRow {
            id: "PK-F4",
            input: FireInput {
                vs_cavalry: true,
                ..fi(10, Class::Line)
            },
            d10: 4,
            lf: "57",
            df: 10,
            casualties: 5,
        },
        // PK-F4: needle the same.
        FireRow {
            id: "PK-F4",
            input: FireInput {
                vs_cavalry: true,
                weapon: Weapon::Needle,
                ..fi(10, Class::Line)
            },
            d10: 4,
            lf: "57",
            df: 10,
            casualties: 5,
        },
        // PK-F4: MLR 2 x (10 + 4 + 3) = 34.
        FireRow {
            id: "PK-F4",
            input: FireInput {
                vs_cavalry: true,
                weapon: Weapon::Mlr,
                ..fi(10, Class::Line)
            },
            d10: 4,
            lf: "34",
            df: 10,
            casualties: 3,
        },
        // PK-F4: skirmishers no bonus.
        FireRow {
            id: "PK-F4",
            input: FireInput {
                vs_cavalry: true,
                skirmish: true,
                ..fi(10, Class::Line)
            },
            d10: 4,
            lf: "14",
            df: 10,
            casualties: 1,
        },
        // PK-F5: wooden building DF 10 + 3 = 13.
        FireRow {
            id: "PK-F5",
            input: FireInput {
                cover: Cover::WoodenBuilding,
                ..fi(15, Class::Line)
            },
            d10: 10,
            lf: "25",
            df: 13,
            casualties: 1,
        },
        // PK-F5: linear cover does not protect the flank.
        FireRow {
            id: "PK-F5",
            input: FireInput {
                cover: Cover::Fence,
                enfilade: true,
                ..fi(9, Class::Line)
            },
            d10: 4,
            lf: "24",
            df: 10,
            casualties: 2,
        },
        // PK-F6: disordered firer -2 and no advantages: 10 + 0 + 6 - 2 = 14.
        FireRow {
            id: "PK-F6",
            input: FireInput {
                disordered: true,
                enfilade: true,
                ..fi(10, Class::Line)
            },
            d10: 6,
            lf: "14",
            df: 10,
            casualties: 1,
        },
        // PK-F6: target disordered doubles: 2 x (10 + 6) = 32.
        FireRow {
            id: "PK-F6",
            input: FireInput {
                target_disordered: true,
                ..fi(10, Class::Line)
            },
            d10: 6,
            lf: "32",
            df: 10,
            casualties: 3,
        },
        // PK-F1 short range +2 (house), formed only.
        FireRow {
            id: "PK-F1",
            input: FireInput {
                range: Some(Ratio::int(5)),
                ..fi(10, Class::Line)
            },
            d10: 6,
            lf: "18",
            df: 10,
            casualties: 1,
        },
        // PK-F7: supporting fire is one volley at long range: no short-range bonus.
        FireRow {
            id: "PK-F7",
            input: FireInput {
                range: Some(Ratio::int(5)),
                supporting: true,
                ..fi(10, Class::Line)
            },
            d10: 6,
            lf: "16",
            df: 10,
            casualties: 1,
        },
        // Losses never exceed the figures present.
        FireRow {
            id: "PK-F1",
            input: FireInput {
                target_figures: Some(2),
                target_disordered: true,
                ..fi(30, Class::Elite)
            },
            d10: 10,
            lf: "84",
            df: 10,
            casualties: 2,
        },
    ];
    for row in rows {
        let mut d = dice(&[row.d10], &[50]);
        let r = pk::fire::fire(&row.input, t(), Some(&mut d))
            .unwrap_or_else(|e| panic!("{}: {e}", row.id));
        let o = r.outcome.clone().expect("outcome");
        assert_eq!(o.lf.to_string(), row.lf, "{} {:?}", row.id, row.input);
        assert_eq!(o.df, row.df, "{}", row.id);
        assert_eq!(o.casualties, row.casualties, "{}", row.id);
        assert_eq!(
            o.leader_lost.is_some(),
            o.casualties > 0,
            "{}: PK-L1 roll only on casualties",
            row.id
        );
        assert_eq!(r.odds_total(), Prob::ONE, "{}", row.id);
        assert!(
            r.rule_ids().iter().any(|i| i.as_str() == row.id),
            "{} not cited: {:?}",
            row.id,
            r.rule_ids()
        );
    }
}

#[test]
fn pk_l1_leader_roll_86_plus_and_officer() {
    let input = FireInput {
        target_officer: Some(Officer::General),
        ..fi(20, Class::Line)
    };
    for (pct, lost) in [(85, false), (86, true), (100, true), (1, false)] {
        let mut d = dice(&[5], &[pct]);
        let o = pk::fire::fire(&input, t(), Some(&mut d))
            .expect("fire")
            .outcome
            .expect("o");
        assert_eq!(o.leader_lost, Some(lost), "PK-L1 d% {pct}");
        assert_eq!(
            o.officer_lost,
            if lost { Some(Officer::General) } else { None }
        );
    }
    // No casualty: no d% is rolled.
    let mut d = dice(&[1], &[]);
    let o = pk::fire::fire(&fi(1, Class::Line), t(), Some(&mut d))
        .expect("fire")
        .outcome
        .expect("o");
    assert_eq!((o.casualties, o.leader_lost), (0, None));
    // PK-L1 odds: a hit certain -> leader lost exactly 15/100.
    let r = pk::fire::fire(&fi(30, Class::Line), t(), None).expect("fire");
    let lost: Prob = r
        .odds
        .iter()
        .filter(|l| l.outcome.contains("leader lost"))
        .map(|l| l.p)
        .sum();
    assert_eq!(lost, Prob::new(3, 20));
}

#[test]
fn pk_f1_errors_and_muddle() {
    assert!(
        pk::fire::fire(
            &FireInput {
                range: Some(Ratio::int(25)),
                ..fi(5, Class::Line)
            },
            t(),
            None
        )
        .is_err()
    );
    assert!(pk::fire::fire(&fi(0, Class::Line), t(), None).is_err());
    // PK-X7: muddled units may not fire.
    assert!(
        pk::fire::fire(
            &FireInput {
                muddled: true,
                ..fi(5, Class::Line)
            },
            t(),
            None
        )
        .is_err()
    );
}

#[test]
fn pk_f2_firing_first() {
    use pk::Side;
    use pk::fire::FiringFirstSide;
    let a = FiringFirstSide {
        class: Class::Elite,
        ..Default::default()
    };
    let b = FiringFirstSide {
        class: Class::Line,
        ..Default::default()
    };
    for (da, db, want) in [(3, 5, None), (3, 4, Some(Side::A)), (1, 4, Some(Side::B))] {
        let mut d = dice(&[da, db], &[]);
        let o = pk::fire::firing_first(&a, &b, t(), Some(&mut d))
            .expect("ff")
            .outcome
            .expect("o");
        assert_eq!(o.first, want, "PK-F2 {da} {db}");
    }
    assert_eq!(
        pk::fire::firing_first(&a, &b, t(), None)
            .expect("ff")
            .odds_total(),
        Prob::ONE
    );
}

struct ArtRow {
    id: &'static str,
    input: ArtilleryInput,
    d10: u32,
    pct: Vec<u32>,
    lf: &'static str,
    casualties: u32,
    guns_hit: Option<bool>,
    points_lost: Option<u32>,
}

fn ai(gun: Gun, points: u32, range: i64) -> ArtilleryInput {
    ArtilleryInput {
        gun,
        points,
        class: Class::Line,
        range: Ratio::int(range),
        ..Default::default()
    }
}

#[test]
fn artillery_rows() {
    let rows = vec![
        // PK-A1: BLR medium (+3): 6 + 3 + 0 + 5 = 14.
        ArtRow {
            id: "PK-A1",
            input: ai(Gun::Blr, 6, 20),
            d10: 5,
            pct: vec![50],
            lf: "14",
            casualties: 1,
            guns_hit: None,
            points_lost: None,
        },
        // PK-A1: MLR long (-2): 6 - 2 + 5 = 9: miss.
        ArtRow {
            id: "PK-A1",
            input: ai(Gun::Mlr, 6, 50),
            d10: 5,
            pct: vec![],
            lf: "9",
            casualties: 0,
            guns_hit: None,
            points_lost: None,
        },
        // PK-A1: canister column (+6) and +2: 6 + 6 + 2 + 5 = 19.
        ArtRow {
            id: "PK-A1",
            input: ArtilleryInput {
                canister: true,
                ..ai(Gun::Mlr, 6, 6)
            },
            d10: 5,
            pct: vec![50],
            lf: "19",
            casualties: 1,
            guns_hit: None,
            points_lost: None,
        },
        // PK-A1: howitzers have no short range: medium (+1) at 10".
        ArtRow {
            id: "PK-A1",
            input: ai(Gun::Howitzer, 6, 10),
            d10: 5,
            pct: vec![50],
            lf: "12",
            casualties: 1,
            guns_hit: None,
            points_lost: None,
        },
        // PK-A1: mitrailleuse own table, short +6.
        ArtRow {
            id: "PK-A1",
            input: ai(Gun::Mitrailleuse, 4, 8),
            d10: 10,
            pct: vec![50],
            lf: "20",
            casualties: 2,
            guns_hit: None,
            points_lost: None,
        },
        // PK-A1: downhill +1, uphill -1.
        ArtRow {
            id: "PK-A1",
            input: ArtilleryInput {
                downhill: true,
                ..ai(Gun::Blr, 6, 20)
            },
            d10: 5,
            pct: vec![50],
            lf: "15",
            casualties: 1,
            guns_hit: None,
            points_lost: None,
        },
        ArtRow {
            id: "PK-A1",
            input: ArtilleryInput {
                uphill: true,
                ..ai(Gun::Blr, 6, 20)
            },
            d10: 5,
            pct: vec![50],
            lf: "13",
            casualties: 1,
            guns_hit: None,
            points_lost: None,
        },
        // PK-A3: counter-battery -5; hit; d% 86 hits the guns: 6 points lose 2.
        ArtRow {
            id: "PK-A3",
            input: ArtilleryInput {
                counter_battery: true,
                target_points: Some(6),
                ..ai(Gun::Blr, 6, 20)
            },
            d10: 10,
            pct: vec![86],
            lf: "14",
            casualties: 0,
            guns_hit: Some(true),
            points_lost: Some(2),
        },
        // PK-A3: d% 85: the hit goes against the crew as skirmishers (then the leader d%).
        ArtRow {
            id: "PK-A3",
            input: ArtilleryInput {
                counter_battery: true,
                target_points: Some(6),
                ..ai(Gun::Blr, 6, 20)
            },
            d10: 10,
            pct: vec![85, 10],
            lf: "14",
            casualties: 1,
            guns_hit: Some(false),
            points_lost: Some(0),
        },
        // PK-A3: no hit: no d% at all.
        ArtRow {
            id: "PK-A3",
            input: ArtilleryInput {
                counter_battery: true,
                ..ai(Gun::Blr, 6, 20)
            },
            d10: 1,
            pct: vec![],
            lf: "5",
            casualties: 0,
            guns_hit: Some(false),
            points_lost: Some(0),
        },
        // PK-F5: howitzers ignore a wooden building's cover.
        ArtRow {
            id: "PK-F5",
            input: ArtilleryInput {
                cover: Cover::WoodenBuilding,
                ..ai(Gun::Howitzer, 6, 20)
            },
            d10: 5,
            pct: vec![50],
            lf: "12",
            casualties: 1,
            guns_hit: None,
            points_lost: None,
        },
        // PK-F3 for artillery: 1.5 x (6 + 3 + 5 + 3) = 51/2.
        ArtRow {
            id: "PK-F3",
            input: ArtilleryInput {
                enfilade: true,
                ..ai(Gun::Blr, 6, 20)
            },
            d10: 5,
            pct: vec![50],
            lf: "51/2",
            casualties: 2,
            guns_hit: None,
            points_lost: None,
        },
    ];
    for row in rows {
        let mut d = dice(&[row.d10], &row.pct);
        let r = pk::artillery::artillery(&row.input, t(), Some(&mut d))
            .unwrap_or_else(|e| panic!("{}: {e}", row.id));
        let o = r.outcome.clone().expect("outcome");
        assert_eq!(o.lf.to_string(), row.lf, "{} {:?}", row.id, row.input);
        assert_eq!(o.casualties, row.casualties, "{}", row.id);
        assert_eq!(o.guns_hit, row.guns_hit, "{}", row.id);
        assert_eq!(o.points_lost, row.points_lost, "{}", row.id);
        assert!(!d.has_entered(), "{}: every entered die used", row.id);
        assert_eq!(r.odds_total(), Prob::ONE, "{}", row.id);
        assert!(
            r.rule_ids().iter().any(|i| i.as_str() == row.id),
            "{} not cited",
            row.id
        );
    }
}

#[test]
fn pk_a1_limits() {
    assert!(
        pk::artillery::artillery(&ai(Gun::Blr, 6, 61), t(), None).is_err(),
        "60\" range"
    );
    assert!(pk::artillery::artillery(&ai(Gun::Mitrailleuse, 6, 31), t(), None).is_err());
    assert!(
        pk::artillery::artillery(
            &ArtilleryInput {
                canister: true,
                ..ai(Gun::Blr, 6, 20)
            },
            t(),
            None
        )
        .is_err()
    );
    assert!(
        pk::artillery::artillery(
            &ArtilleryInput {
                canister: true,
                over_friends: true,
                ..ai(Gun::Blr, 6, 6)
            },
            t(),
            None
        )
        .is_err()
    );
    assert!(
        pk::artillery::artillery(
            &ArtilleryInput {
                limbered: true,
                ..ai(Gun::Blr, 6, 20)
            },
            t(),
            None
        )
        .is_err()
    );
}

#[test]
fn pk_a2_a3_points() {
    // PK-A2: the AV falls with the points.
    let lf = |p: u32| {
        let mut d = dice(&[5], &[50]);
        pk::artillery::artillery(&ai(Gun::Blr, p, 20), t(), Some(&mut d))
            .expect("a")
            .outcome
            .expect("o")
            .lf
    };
    assert_eq!(lf(6) - lf(4), Ratio::int(2));
    // PK-A3: 1/3 of the points, rounded down, at least 1.
    assert_eq!(pk::artillery::guns_hit_points(6, t()), 2);
    assert_eq!(pk::artillery::guns_hit_points(2, t()), 1);
    assert_eq!(pk::artillery::guns_hit_points(9, t()), 3);
}

#[test]
fn pk_a4_buildings() {
    for (b, dmg) in [(Building::Wooden, 5), (Building::Stone, 2)] {
        let input = ArtilleryInput {
            building: Some(b),
            building_points: Some(4),
            ..ai(Gun::Blr, 10, 20)
        };
        let mut d = dice(&[5], &[]);
        let o = pk::artillery::artillery(&input, t(), Some(&mut d))
            .expect("a")
            .outcome
            .expect("o");
        assert_eq!(o.building_damage, Some(dmg), "PK-A4 {b}");
        assert_eq!(o.building_collapses, Some(dmg >= 4));
    }
    // Only roundshot and shell.
    let input = ArtilleryInput {
        building: Some(Building::Wooden),
        canister: true,
        ..ai(Gun::Blr, 6, 6)
    };
    assert!(pk::artillery::artillery(&input, t(), None).is_err());
    // Collapse: the building's points as an AV against the occupants.
    let mut d = dice(&[10], &[90]);
    let o = pk::artillery::building_collapse(20, Some(5), t(), Some(&mut d))
        .expect("c")
        .outcome
        .expect("o");
    assert_eq!(
        (o.lf, o.casualties, o.leader_lost),
        (Ratio::int(30), 3, Some(true))
    );
}

struct MeleeRow {
    id: &'static str,
    input: MeleeInput,
    d10: u32,
    lf: &'static str,
    casualties: u32,
}

fn mi(figures: u32, class: Class) -> MeleeInput {
    MeleeInput {
        figures,
        class,
        ..Default::default()
    }
}

#[test]
fn melee_rows() {
    let rows = vec![
        // PK-X3: front, line vs line: 10 + 0 + 5.
        MeleeRow {
            id: "PK-X3",
            input: mi(10, Class::Line),
            d10: 5,
            lf: "15",
            casualties: 1,
        },
        // PK-X3: charge +3 (house).
        MeleeRow {
            id: "PK-X3",
            input: MeleeInput {
                charge: true,
                ..mi(10, Class::Line)
            },
            d10: 5,
            lf: "18",
            casualties: 1,
        },
        // PK-X3: a 2nd rank at 50% counts for a column; under 50% it does not.
        MeleeRow {
            id: "PK-X3",
            input: MeleeInput {
                formation: Formation::Column,
                second_rank: 5,
                ..mi(10, Class::Line)
            },
            d10: 5,
            lf: "20",
            casualties: 2,
        },
        MeleeRow {
            id: "PK-X3",
            input: MeleeInput {
                formation: Formation::Column,
                second_rank: 4,
                ..mi(10, Class::Line)
            },
            d10: 5,
            lf: "15",
            casualties: 1,
        },
        // PK-X3: line front counts 1 rank only.
        MeleeRow {
            id: "PK-X3",
            input: MeleeInput {
                second_rank: 10,
                ..mi(10, Class::Line)
            },
            d10: 5,
            lf: "15",
            casualties: 1,
        },
        // PK-X3: square vs cavalry counts 2 ranks and gets the matrix +4.
        MeleeRow {
            id: "PK-X3",
            input: MeleeInput {
                formation: Formation::Square,
                opponent: Formation::Cavalry,
                second_rank: 6,
                ..mi(6, Class::Line)
            },
            d10: 5,
            lf: "21",
            casualties: 2,
        },
        // PK-X3: move 2: all figures, flank advantage gone.
        MeleeRow {
            id: "PK-X3",
            input: MeleeInput {
                facing: Facing::Flank,
                melee_move: 2,
                second_rank: 4,
                ..mi(10, Class::Line)
            },
            d10: 5,
            lf: "19",
            casualties: 1,
        },
        // PK-X3: defending a building +5 (house).
        MeleeRow {
            id: "PK-X3",
            input: MeleeInput {
                position: Position::Building,
                ..mi(10, Class::Line)
            },
            d10: 5,
            lf: "20",
            casualties: 2,
        },
        // PK-F6: disordered -2, loses its charge bonus; the opponent's LF doubles against it.
        MeleeRow {
            id: "PK-F6",
            input: MeleeInput {
                disordered: true,
                charge: true,
                ..mi(10, Class::Line)
            },
            d10: 5,
            lf: "13",
            casualties: 1,
        },
        MeleeRow {
            id: "PK-F6",
            input: MeleeInput {
                target_disordered: true,
                ..mi(10, Class::Line)
            },
            d10: 5,
            lf: "30",
            casualties: 3,
        },
        // PK-X7: a muddled opponent fights as if taken in the rear: 5 x (10 + 5 + 5) = 100.
        MeleeRow {
            id: "PK-X7",
            input: MeleeInput {
                target_muddled: true,
                ..mi(10, Class::Line)
            },
            d10: 5,
            lf: "100",
            casualties: 10,
        },
    ];
    for row in rows {
        let mut d = dice(&[row.d10], &[50]);
        let r = pk::melee::melee(&row.input, t(), Some(&mut d))
            .unwrap_or_else(|e| panic!("{}: {e}", row.id));
        let o = r.outcome.clone().expect("outcome");
        assert_eq!(o.lf.to_string(), row.lf, "{} {:?}", row.id, row.input);
        assert_eq!(o.casualties, row.casualties, "{}", row.id);
        assert_eq!(r.odds_total(), Prob::ONE);
        assert!(
            r.rule_ids().iter().any(|i| i.as_str() == row.id),
            "{} not cited",
            row.id
        );
    }
}

#[test]
fn pk_x3_both_sides_take_casualties() {
    let a = MeleeInput {
        charge: true,
        ..mi(12, Class::Elite)
    };
    let b = mi(10, Class::Line);
    let mut d = dice(&[7, 9], &[90, 10]);
    let r = pk::melee::melee_both(&a, &b, t(), Some(&mut d)).expect("both");
    let o = r.outcome.clone().expect("o");
    assert_eq!((o.a.lf, o.a.casualties), (Ratio::int(24), 2));
    assert_eq!((o.b.lf, o.b.casualties), (Ratio::int(19), 1));
    assert_eq!(o.a.leader_lost, Some(true), "B's leader roll d% 90");
    assert_eq!(o.loser, Some(pk::Side::B));
    assert_eq!(r.odds_total(), Prob::ONE);
}

/// PK-X1 (Steady initiates; Steady or Shaken accept) and PK-X2 (the counter roll).
#[test]
fn pk_x1_x2_initiate_accept_counter() {
    use pk::melee::{CounterInput, CounterOption, accepts_melee, counter_roll, may_initiate};
    assert!(may_initiate(Level::Steady) && !may_initiate(Level::Shaken));
    assert!(accepts_melee(Level::Shaken) && !accepts_melee(Level::Broken));
    // Attacker used less than 1 URT of an unmoved target: must stand, no roll.
    let forced = CounterInput {
        attacker_urts: Ratio::new(1, 2),
        ..Default::default()
    };
    let r = counter_roll(&forced, t(), Some(&mut dice(&[], &[]))).expect("c");
    assert!(r.outcome.expect("o").must_stand);
    assert!(r.dice.is_empty());
    // Side already moved: no options.
    let moved = CounterInput {
        side_moved: true,
        ..Default::default()
    };
    assert!(
        counter_roll(&moved, t(), Some(&mut dice(&[], &[])))
            .expect("c")
            .outcome
            .expect("o")
            .must_stand
    );
    // Otherwise d10 + class vs the table (change formation 7).
    let free = CounterInput {
        class: Class::Veteran,
        ..Default::default()
    };
    for (d10, ok) in [(6, true), (5, false)] {
        let o = counter_roll(&free, t(), Some(&mut dice(&[d10], &[])))
            .expect("c")
            .outcome
            .expect("o");
        assert_eq!(o.success, ok, "PK-X2 d10 {d10}");
    }
    // Only skirmishers withdraw.
    let w = CounterInput {
        option: CounterOption::Withdraw,
        ..Default::default()
    };
    assert!(counter_roll(&w, t(), None).is_err());
}

#[test]
fn pk_x4_flag() {
    for (class, d10, lost) in [
        (Class::Line, 6, true),
        (Class::Line, 7, false),
        (Class::Veteran, 5, true),
        (Class::Veteran, 6, false),
    ] {
        let o = pk::melee::flag(class, t(), Some(&mut dice(&[d10], &[])))
            .expect("f")
            .outcome
            .expect("o");
        assert_eq!(o.flag_lost, lost, "PK-X4 {class} {d10}");
    }
    let r = pk::melee::flag(Class::Line, t(), None).expect("f");
    assert_eq!(
        r.odds
            .iter()
            .find(|l| l.outcome == "flag lost")
            .map(|l| l.p),
        Some(Prob::new(3, 5))
    );
}

#[test]
fn pk_x5_fatigue_and_pursuit() {
    assert_eq!(pk::melee::fatigue_points(Class::Line, 2, t()), 6);
    for (fatigue, d10, back) in [(5, 4, true), (5, 5, false), (0, 1, false)] {
        let o = pk::melee::fatigue_check(
            fatigue,
            kepi::tables::Provenance::Seed,
            t(),
            Some(&mut dice(&[d10], &[])),
        )
        .expect("f")
        .outcome
        .expect("o");
        assert_eq!(o.falls_back, back, "PK-X5 fatigue {fatigue} d10 {d10}");
        assert_eq!(o.fall_back_inches, if back { 4 } else { 0 });
    }
    use pk::melee::PursuitInput;
    let p = PursuitInput {
        stander_figures: 20,
        withdrawer_figures: 8,
        class: Class::Veteran,
        held_back: false,
    };
    for (d10, adv) in [(7, true), (6, false)] {
        let o = pk::melee::pursuit(&p, t(), Some(&mut dice(&[d10], &[])))
            .expect("p")
            .outcome
            .expect("o");
        assert_eq!(o.advances, adv, "PK-X5 pursuit 12 + 1 + {d10}");
    }
    let held = PursuitInput {
        held_back: true,
        ..p
    };
    assert!(
        !pk::melee::pursuit(&held, t(), Some(&mut dice(&[10], &[])))
            .expect("p")
            .outcome
            .expect("o")
            .advances
    );
}

/// PK-X6 (falling back 6", split casualties) and PK-X7 (3 melees a turn).
#[test]
fn pk_x6_x7_level_drop_split_limits() {
    let r = pk::melee::level_drop(true, false, Level::Shaken, Level::Steady, t());
    assert!(r.a_falls_back && r.melee_continues && r.inches == 6);
    let r = pk::melee::level_drop(true, true, Level::Shaken, Level::Shaken, t());
    assert!(r.a_falls_back && r.b_falls_back && !r.melee_continues);
    assert_eq!(pk::split_casualties(5), (3, 2));
    assert!(pk::melee::may_fight_melee(2, t()) && !pk::melee::may_fight_melee(3, t()));
}

#[test]
fn pk_e1_levels_and_rally() {
    use pk::morale::{dropped_level, level, may_close};
    assert_eq!(level(20, 20, t()), Level::Steady);
    assert_eq!(level(14, 20, t()), Level::Shaken);
    assert_eq!(level(9, 20, t()), Level::Broken);
    assert_eq!(level(4, 20, t()), Level::Routed);
    assert!(dropped_level(15, 14, 20, t()));
    assert!(!may_close(Level::Shaken));
    // PK-E1 / PK-L1 / PK-L2: 9 + 1 - 2 + 2 = 10: two figures back (bands 6, 9).
    let input = RallyInput {
        class: Class::Veteran,
        leaders_lost: 1,
        officer: Some(Officer::General),
        ..Default::default()
    };
    let r = pk::morale::rally(&input, t(), Some(&mut dice(&[9], &[]))).expect("r");
    let o = r.outcome.clone().expect("o");
    assert_eq!((o.score, o.figures_back), (10, 2));
    let ids: Vec<&str> = r.rule_ids().iter().map(|i| i.as_str()).collect();
    assert!(ids.contains(&"PK-L1") && ids.contains(&"PK-L2") && ids.contains(&"PK-E1"));
    // Brigaded: -1 per leader; cap by figures lost.
    let b = RallyInput {
        class: Class::Line,
        leaders_lost: 2,
        brigaded: true,
        figures_lost: Some(1),
        ..Default::default()
    };
    let o = pk::morale::rally(&b, t(), Some(&mut dice(&[10], &[])))
        .expect("r")
        .outcome
        .expect("o");
    assert_eq!((o.score, o.figures_back), (8, 1));
    // A fallen general: -3.
    let g = RallyInput {
        general_death: pk::morale::GeneralDeath::Nearby,
        ..Default::default()
    };
    let o = pk::morale::rally(&g, t(), Some(&mut dice(&[10], &[])))
        .expect("r")
        .outcome
        .expect("o");
    assert_eq!(o.score, 7);
    assert!(
        pk::morale::rally(
            &RallyInput {
                leaders_lost: 4,
                ..Default::default()
            },
            t(),
            None
        )
        .is_err()
    );
}

#[test]
fn pk_l2_officers() {
    assert_eq!(pk::morale::officers_for(6, 1), (1, 1));
    assert_eq!(pk::morale::officers_for(16, 2), (3, 4));
}

/// PK-W1: army below 25%, broken units back as Shaken, victory points 1-4.
#[test]
fn pk_w1_army_and_victory() {
    use pk::morale::{ArmyInput, Objective, army_morale, unit_lost, victory_points};
    let above = ArmyInput {
        start_figures: 100,
        figures: 30,
        broken_units: 3,
        modifier: 0,
    };
    let r = army_morale(&above, t(), Some(&mut dice(&[], &[]))).expect("a");
    assert!(!r.outcome.expect("o").below_threshold);
    let below = ArmyInput {
        figures: 20,
        ..above
    };
    let o = army_morale(&below, t(), Some(&mut dice(&[9], &[])))
        .expect("a")
        .outcome
        .expect("o");
    assert_eq!(o.units_back, 2);
    let o = army_morale(
        &ArmyInput {
            broken_units: 1,
            ..below
        },
        t(),
        Some(&mut dice(&[10], &[])),
    )
    .expect("a")
    .outcome
    .expect("o");
    assert_eq!(o.units_back, 1, "never more than are broken");
    let obj = |p, h| Objective {
        name: "x".into(),
        points: p,
        held_by_a: h,
    };
    assert_eq!(
        victory_points(
            &[obj(3, Some(true)), obj(2, Some(false)), obj(4, None)],
            t()
        )
        .expect("vp"),
        (3, 2)
    );
    assert!(victory_points(&[obj(5, Some(true))], t()).is_err());
    assert!(
        unit_lost(Level::Broken, 5) && unit_lost(Level::Steady, 0) && !unit_lost(Level::Shaken, 5)
    );
}

#[test]
fn pk_t1_initiative_and_parts() {
    use pk::turn::{TurnPart, initiative};
    for (a, b, f) in [(40, 70, "b"), (90, 25, "a"), (50, 50, "tie")] {
        let o = initiative(t(), Some(&mut dice(&[], &[a, b])))
            .expect("i")
            .outcome
            .expect("o");
        assert_eq!(o.first, f, "PK-T1 {a} {b}");
    }
    let r = initiative(t(), None).expect("i");
    assert_eq!(r.odds_total(), Prob::ONE);
    assert_eq!(
        r.odds
            .iter()
            .find(|l| l.outcome.starts_with("tie"))
            .map(|l| l.p),
        Some(Prob::new(1, 100))
    );
    assert_eq!(
        TurnPart::ArmyMorale.next(),
        (TurnPart::MovementAndFire, true)
    );
    assert_eq!(TurnPart::ALL.map(TurnPart::number), [1, 2, 3, 4]);
}

#[test]
fn pk_u1_m1_v1_d1_helpers() {
    use pk::movement::*;
    // PK-U1 / PK-C1: 1 URT = 1/3 move elite, 1/2 line.
    assert_eq!(
        activity_time(Class::Elite, Activity::ChangeFormation, 1, t()).expect("u"),
        Ratio::new(1, 3)
    );
    assert_eq!(
        activity_time(Class::Line, Activity::ChangeFormation, 1, t()).expect("u"),
        Ratio::new(1, 2)
    );
    assert_eq!(
        activity_urts(Activity::PivotBattalion, 60, t()).expect("u"),
        Ratio::int(2)
    );
    assert_eq!(
        activity_urts(Activity::PivotBrigade, 30, t()).expect("u"),
        Ratio::int(2)
    );
    assert_eq!(
        untangle_time(&[Class::Elite, Class::Line], t()),
        Ratio::new(3, 2)
    );
    // PK-M1: every 4th move, not after a melee, disordered cavalry never.
    let c = ChargeInput {
        kind: Some(TroopKind::Cavalry),
        move_number: 5,
        last_charge: Some(1),
        to_engage: true,
        ..Default::default()
    };
    assert!(may_charge(&c, t()).is_ok());
    assert!(
        may_charge(
            &ChargeInput {
                move_number: 4,
                ..c.clone()
            },
            t()
        )
        .is_err()
    );
    assert!(
        may_charge(
            &ChargeInput {
                meleed_last_move: true,
                ..c.clone()
            },
            t()
        )
        .is_err()
    );
    assert!(
        may_charge(
            &ChargeInput {
                disordered: true,
                ..c.clone()
            },
            t()
        )
        .is_err()
    );
    assert!(
        may_charge(
            &ChargeInput {
                to_engage: false,
                ..c.clone()
            },
            t()
        )
        .is_err()
    );
    assert_eq!(move_rates(TroopKind::FormedInfantry, t()), (6, 9));
    // PK-V1.
    let v = |c, o, tg| {
        visibility(
            &VisibilityInput {
                observer_contours: c,
                observer_in: o,
                target_in: tg,
            },
            t(),
        )
    };
    assert_eq!(v(0, Terrain::Open, Terrain::Open), 60);
    assert_eq!(v(2, Terrain::Open, Terrain::Open), 70);
    assert_eq!(v(9, Terrain::Open, Terrain::Open), 75);
    assert_eq!(v(0, Terrain::LightWoods, Terrain::Open), 20);
    assert_eq!(v(0, Terrain::HeavyWoods, Terrain::Open), 10);
    assert_eq!(v(0, Terrain::Open, Terrain::LightWoods), 4);
    assert_eq!(v(0, Terrain::Open, Terrain::HeavyWoods), 2);
    assert_eq!(obstacle_height(Obstacle::Building { storeys: 2 }, t()), 2);
    assert_eq!(obstacle_height(Obstacle::HeavyWoods, t()), 4);
    assert!(sees_over(4, 2, Ratio::int(1), t()));
    assert!(!sees_over(3, 2, Ratio::int(3), t()));
    assert!(sees_over(3, 2, Ratio::int(5), t()));
    assert!(woods_cover_applies(Ratio::int(2), t()) && !woods_cover_applies(Ratio::int(1), t()));
    // PK-D1: the causes are closed vocabularies.
    assert_eq!(pk::DisorderCause::ALL.len(), 3);
    assert_eq!(pk::MuddleCause::ALL.len(), 3);
    assert_eq!(
        "waded-stream".parse::<pk::DisorderCause>(),
        Ok(pk::DisorderCause::WadedStream)
    );
    assert!(!disorder_effects(pk::DisorderCause::FinishedMelee).is_empty());
    assert!(counts_two_ranks(Formation::Square, Formation::Cavalry));
}

#[test]
fn vocabularies_round_trip() {
    for c in Cover::ALL {
        assert_eq!(c.as_str().parse::<Cover>(), Ok(*c));
        assert_eq!(
            serde_json::to_value(c).expect("json"),
            serde_json::json!(c.as_str())
        );
    }
    for w in Weapon::ALL {
        assert_eq!(w.to_string().parse::<Weapon>(), Ok(*w));
    }
    assert!(
        "musket"
            .parse::<Weapon>()
            .unwrap_err()
            .contains("chassepot")
    );
}

#[test]
fn every_table_value_has_provenance_and_seed_values_quote() {
    let src = PkTables::BUILTIN;
    for line in src.lines().filter(|l| l.contains("value =")) {
        assert!(line.contains("provenance ="), "{line}");
        if line.contains("\"seed\"") {
            assert!(
                line.contains("quote ="),
                "seed value without a quote: {line}"
            );
        } else {
            assert!(
                line.contains("note ="),
                "house/derived value without a note: {line}"
            );
        }
    }
    PkTables::from_source("pk.toml", src).expect("valid");
}
