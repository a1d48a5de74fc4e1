//! Issue 15 item 2: a resolution knows which odds line its dice produced (`Resolution::rolled`).
//!
//! One table row per resolution function of every rule set that sets `rolled`, with the inputs the
//! worked-example tests use. Each row is resolved with seeded dice over many seeds (`rolled` is
//! Some, in range, on a line of non-zero probability) and as a preview (`rolled` is None, and the
//! preview's JSON has no `rolled` key). Rows decided by one die are also resolved with every face
//! entered: the share of faces landing on each line is exactly that line's printed odds, so the index
//! is the line the dice made and not merely some line.

use super::common::{spi_input, tables};

use std::collections::BTreeMap;

use kepi::dice::{DiceSource, Die, Prob, Ratio};
use kepi::rules::fr1870::{self, FrCombatInput, StormInput};
use kepi::rules::gsp::{
    self, Cell, Cover, CrewInput, DamageState, FireInput as GspFireInput, GunType, Occupants,
    SectorContents, StructureInput, StructureKind,
};
use kepi::rules::pk::{
    self, Building, Class, Facing, Gun, artillery::ArtilleryInput, fire::FireInput,
    fire::FiringFirstSide, melee::CounterInput, melee::MeleeInput, melee::PursuitInput,
    morale::ArmyInput, morale::RallyInput,
};
use kepi::rules::pw::{
    self, ActivationInput, Army, ArtilleryInput as PwArtilleryInput, DefeatInput, Gunnery,
    MeleeInput as PwMeleeInput, Quality, RifleInput, UnitKind,
};
use kepi::rules::spi::{self};
use kepi::rules::{Resolution, RuleError};
use kepi::tables::Provenance;
use serde_json::Value;

type Resolve = Box<dyn Fn(Option<&mut DiceSource>) -> Result<Resolution<Value>, RuleError>>;

/// One resolution function with fixed inputs.
struct Row {
    /// The function and the rule id its doc cites.
    name: &'static str,
    /// Resolves with these dice (None: the preview).
    resolve: Resolve,
    /// The one die that decides it, when there is just one: every face is then entered in turn.
    one_die: Option<Die>,
    /// No dice at all: the outcome is certain and given even without dice.
    certain: bool,
}

fn row(
    name: &'static str,
    one_die: Option<Die>,
    f: impl Fn(Option<&mut DiceSource>) -> Result<Resolution<Value>, RuleError> + 'static,
) -> Row {
    Row {
        name,
        resolve: Box::new(f),
        one_die,
        certain: false,
    }
}

fn certain(
    name: &'static str,
    f: impl Fn(Option<&mut DiceSource>) -> Result<Resolution<Value>, RuleError> + 'static,
) -> Row {
    Row {
        name,
        resolve: Box::new(f),
        one_die: None,
        certain: true,
    }
}

fn pk_ai(gun: Gun, points: u32, range: i64) -> ArtilleryInput {
    ArtilleryInput {
        gun,
        points,
        class: Class::Line,
        range: Ratio::int(range),
        ..Default::default()
    }
}

fn pk_rows() -> Vec<Row> {
    let t = || tables().get::<kepi::rules::pk::PkTables>();
    let melee_a = MeleeInput {
        figures: 10,
        class: Class::Veteran,
        facing: Facing::Flank,
        target_figures: Some(8),
        ..Default::default()
    };
    let melee_b = MeleeInput {
        figures: 8,
        class: Class::Line,
        target_figures: Some(10),
        ..Default::default()
    };
    let (ma, mb, mc) = (melee_a.clone(), melee_a.clone(), melee_b.clone());
    vec![
        row("pk fire (PK-F1, PK-L1)", None, move |d| {
            let input = FireInput {
                figures: 12,
                class: Class::Veteran,
                target_figures: Some(10),
                ..Default::default()
            };
            Ok(pk::fire::fire(&input, t(), d)?.erase())
        }),
        row("pk firing first (PK-F2)", None, move |d| {
            let a = FiringFirstSide {
                class: Class::Veteran,
                ..Default::default()
            };
            let b = FiringFirstSide {
                disordered: true,
                ..Default::default()
            };
            Ok(pk::fire::firing_first(&a, &b, t(), d)?.erase())
        }),
        row("pk melee (PK-X3, PK-L1)", None, move |d| {
            Ok(pk::melee::melee(&ma, t(), d)?.erase())
        }),
        row("pk melee both (PK-X3, PK-L1)", None, move |d| {
            Ok(pk::melee::melee_both(&mb, &mc, t(), d)?.erase())
        }),
        row("pk counter roll (PK-X2)", Some(Die::D10), move |d| {
            let input = CounterInput {
                class: Class::Veteran,
                target_moved: true,
                ..Default::default()
            };
            Ok(pk::melee::counter_roll(&input, t(), d)?.erase())
        }),
        row("pk counter roll, must stand (PK-X2)", None, move |d| {
            let input = CounterInput {
                side_moved: true,
                ..Default::default()
            };
            Ok(pk::melee::counter_roll(&input, t(), d)?.erase())
        }),
        row("pk flag (PK-X4)", Some(Die::D10), move |d| {
            Ok(pk::melee::flag(Class::Line, t(), d)?.erase())
        }),
        row("pk fatigue check (PK-X5)", Some(Die::D10), move |d| {
            Ok(pk::melee::fatigue_check(6, Provenance::Seed, t(), d)?.erase())
        }),
        row("pk pursuit (PK-X5)", Some(Die::D10), move |d| {
            let input = PursuitInput {
                stander_figures: 16,
                withdrawer_figures: 6,
                class: Class::Veteran,
                held_back: false,
            };
            Ok(pk::melee::pursuit(&input, t(), d)?.erase())
        }),
        row("pk rally (PK-E1)", Some(Die::D10), move |d| {
            let input = RallyInput {
                class: Class::Veteran,
                leaders_lost: 1,
                figures_lost: Some(4),
                ..Default::default()
            };
            Ok(pk::morale::rally(&input, t(), d)?.erase())
        }),
        row("pk army morale (PK-W1)", Some(Die::D10), move |d| {
            let input = ArmyInput {
                start_figures: 100,
                figures: 20,
                broken_units: 5,
                modifier: 1,
            };
            Ok(pk::morale::army_morale(&input, t(), d)?.erase())
        }),
        row("pk army morale, no roll (PK-W1)", None, move |d| {
            let input = ArmyInput {
                start_figures: 100,
                figures: 80,
                broken_units: 2,
                modifier: 0,
            };
            Ok(pk::morale::army_morale(&input, t(), d)?.erase())
        }),
        row("pk initiative (PK-T1)", None, move |d| {
            Ok(pk::turn::initiative(t(), d)?.erase())
        }),
        row("pk artillery (PK-A1..A3, PK-L1)", None, move |d| {
            let input = ArtilleryInput {
                target_figures: Some(8),
                ..pk_ai(Gun::Blr, 6, 20)
            };
            Ok(pk::artillery::artillery(&input, t(), d)?.erase())
        }),
        row("pk artillery, counter-battery (PK-A3)", None, move |d| {
            let input = ArtilleryInput {
                counter_battery: true,
                target_points: Some(6),
                target_figures: Some(6),
                ..pk_ai(Gun::Blr, 10, 10)
            };
            Ok(pk::artillery::artillery(&input, t(), d)?.erase())
        }),
        row("pk artillery, building (PK-A4)", Some(Die::D10), move |d| {
            let input = ArtilleryInput {
                building: Some(Building::Wooden),
                building_points: Some(4),
                ..pk_ai(Gun::Blr, 6, 20)
            };
            Ok(pk::artillery::artillery(&input, t(), d)?.erase())
        }),
        row("pk building collapse (PK-A4)", None, move |d| {
            Ok(pk::artillery::building_collapse(20, Some(5), t(), d)?.erase())
        }),
    ]
}

fn pw_rows() -> Vec<Row> {
    let t = || tables().get::<kepi::rules::pw::PwTables>();
    vec![
        row("pw activate (PW-T2)", Some(Die::D6), move |d| {
            let input = ActivationInput {
                army: Army::French,
                quality: Quality::Poor,
            };
            Ok(pw::activate(&input, t(), d)?.erase())
        }),
        row("pw artillery (PW-A1)", Some(Die::D6), move |d| {
            let input = PwArtilleryInput {
                army: Gunnery::Prussian,
                sp: 4,
                target_cover: true,
                range: None,
            };
            Ok(pw::artillery(&input, t(), d)?.erase())
        }),
        row("pw rifle (PW-R1)", Some(Die::D6), move |d| {
            let input = RifleInput {
                sp: 2,
                moved: true,
                target_cover: false,
                firer: None,
                range: None,
            };
            Ok(pw::rifle(&input, t(), d)?.erase())
        }),
        row("pw melee (PW-X1)", Some(Die::D6), move |d| {
            let input = PwMeleeInput {
                unit: UnitKind::Cavalry,
                sp: 3,
                enemy: UnitKind::Artillery,
                attacking_flank: true,
                attacked_flank: false,
                enemy_uphill: false,
                enemy_cover: false,
            };
            Ok(pw::melee(&input, t(), d)?.erase())
        }),
        row("pw first side (PW-T1)", Some(Die::D6), move |d| {
            Ok(pw::first_side(None, t(), d)?.erase())
        }),
        certain("pw first side, a defender (PW-T1)", move |d| {
            Ok(pw::first_side(Some(pw::Side::B), t(), d)?.erase())
        }),
        certain("pw defeat (PW-V1)", move |_| {
            let input = DefeatInput {
                sp_lost: 10,
                sp_total: 18,
                units_lost: 2,
                units_total: 6,
            };
            Ok(pw::defeat(&input)?.erase())
        }),
    ]
}

fn gsp_rows() -> Vec<Row> {
    let t = || tables().get::<kepi::rules::gsp::GspTables>();
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
    let mut one_shell = GspFireInput::new(GunType::Prussian46Shell, 3);
    one_shell
        .sectors
        .insert(Cell::OnTarget, behind_wall.clone());
    let mut battery = one_shell.clone();
    battery.guns = 3;
    vec![
        row(
            "gsp fire, one AP gun (GSP-A1, GSP-C1)",
            Some(Die::D6),
            move |d| {
                let mut input = GspFireInput::new(GunType::Prussian46Ap, 1);
                input.cover = Cover::Woods;
                Ok(gsp::fire(&input, t(), d)?.erase())
            },
        ),
        row(
            "gsp fire, one shell gun at a wall (GSP-A3, GSP-C2)",
            None,
            move |d| Ok(gsp::fire(&one_shell, t(), d)?.erase()),
        ),
        row("gsp fire, a battery (GSP-A4)", None, move |d| {
            Ok(gsp::fire(&battery, t(), d)?.erase())
        }),
        row("gsp aoa (GSP-A3)", None, move |d| {
            Ok(gsp::aoa(t(), d)?.erase())
        }),
        row("gsp crew (GSP-C3)", Some(Die::D6), move |d| {
            let input = CrewInput {
                hits: 0,
                hit_die: None,
                cannoneers: Some(2),
                horses: Some(1),
            };
            Ok(gsp::crew(&input, t(), d)?.erase())
        }),
        row("gsp siege position (GSP-S1)", None, move |d| {
            Ok(gsp::siege_position(Some("B4"), t(), d)?.erase())
        }),
        certain("gsp structure (GSP-C2)", move |_| {
            let input = StructureInput {
                kind: StructureKind::Wall,
                damage_so_far: 2,
                pips: 3,
                equipment: None,
            };
            Ok(gsp::structure(&input, t())?.erase())
        }),
    ]
}

fn spi_rows() -> Vec<Row> {
    let t = || tables().get::<kepi::rules::spi::SpiTables>();
    vec![
        row("spi combat, 2:1 (SPI-C1)", Some(Die::D6), move |d| {
            Ok(spi::combat(&spi_input(26, 9), t(), d)?.erase())
        }),
        row(
            "spi combat, 1:2 in rough (SPI-C1, SPI-C2)",
            Some(Die::D6),
            move |d| {
                let mut i = spi_input(6, 12);
                i.defender_rough = true;
                Ok(spi::combat(&i, t(), d)?.erase())
            },
        ),
        row("spi combat, dummies (SPI-H1)", None, move |d| {
            let mut i = spi_input(8, 2);
            i.dummies_only = true;
            Ok(spi::combat(&i, t(), d)?.erase())
        }),
        row("spi oob (SPI-O1)", Some(Die::D6), move |d| {
            let g = spi::printed_numbering(t(), spi::Nation::German);
            let f = spi::printed_numbering(t(), spi::Nation::French);
            Ok(spi::pick_oob(&g, &f, d)?.erase())
        }),
        row("spi eb river (SPI-E1)", Some(Die::D6), move |d| {
            Ok(spi::eb_river(t(), d)?.erase())
        }),
        certain("spi victory (SPI-W1)", move |_| {
            Ok(spi::victory(90, t()).erase())
        }),
    ]
}

fn fr_rows() -> Vec<Row> {
    let t = || tables().get::<kepi::rules::fr1870::Fr1870Tables>();
    vec![
        row("fr combat, 1:2 (FR-C1)", Some(Die::D6), move |d| {
            Ok(fr1870::combat(&FrCombatInput::plain(1, 2), t(), d)?.erase())
        }),
        row(
            "fr combat, 1:1 half unknown (FR-C1)",
            Some(Die::D6),
            move |d| Ok(fr1870::combat(&FrCombatInput::plain(3, 3), t(), d)?.erase()),
        ),
        row("fr combat, below the table (FR-C1)", None, move |d| {
            Ok(fr1870::combat(&FrCombatInput::plain(1, 9), t(), d)?.erase())
        }),
        row("fr storm (FR-F1)", Some(Die::D6), move |d| {
            let input = StormInput {
                value: 1,
                occupied: false,
                infantry: true,
            };
            Ok(fr1870::storm(&input, t(), d)?.erase())
        }),
    ]
}

fn all_rows() -> Vec<Row> {
    let mut rows = pk_rows();
    rows.extend(pw_rows());
    rows.extend(gsp_rows());
    rows.extend(spi_rows());
    rows.extend(fr_rows());
    rows
}

/// `rolled` names a line of the odds that could happen.
fn assert_rolled(name: &str, r: &Resolution<Value>, how: &str) -> usize {
    assert!(r.outcome.is_some(), "{name} {how}: no outcome");
    let i = r
        .rolled
        .unwrap_or_else(|| panic!("{name} {how}: rolled is None ({})", r.summary));
    assert!(
        i < r.odds.len(),
        "{name} {how}: rolled {i} of {} lines",
        r.odds.len()
    );
    assert!(
        r.odds[i].p > Prob::ZERO,
        "{name} {how}: rolled line `{}` has probability 0",
        r.odds[i].outcome
    );
    i
}

#[test]
fn rolled_names_a_possible_line_for_every_seed() {
    for row in all_rows() {
        for seed in 0..300u64 {
            let mut d = DiceSource::seeded(seed);
            let r = (row.resolve)(Some(&mut d))
                .unwrap_or_else(|e| panic!("{} seed {seed}: {e}", row.name));
            let i = assert_rolled(row.name, &r, &format!("seed {seed}"));
            if r.odds.len() == 1 {
                assert_eq!(i, 0, "{}: a certain outcome is line 0", row.name);
            }
        }
    }
}

#[test]
fn a_preview_has_no_rolled_line() {
    for row in all_rows() {
        let r = (row.resolve)(None).unwrap_or_else(|e| panic!("{} preview: {e}", row.name));
        assert_eq!(r.odds_total(), Prob::ONE, "{}", row.name);
        let json = serde_json::to_value(&r).expect("json");
        if row.certain {
            // No dice at all: the outcome is given, and it is the one line.
            assert_eq!(r.rolled, Some(0), "{}", row.name);
            assert_eq!(json["rolled"], 0, "{}", row.name);
        } else {
            assert_eq!(r.rolled, None, "{}", row.name);
            assert!(
                json.get("rolled").is_none(),
                "{}: a preview's JSON has no rolled key",
                row.name
            );
        }
    }
}

#[test]
fn every_face_lands_on_its_printed_line() {
    for row in all_rows() {
        let Some(die) = row.one_die else { continue };
        let (lo, hi) = die.range();
        let faces = i128::from(hi - lo + 1);
        let mut hits: BTreeMap<usize, i128> = BTreeMap::new();
        let mut odds = Vec::new();
        for face in lo..=hi {
            let mut d = DiceSource::entered_only();
            d.enter(die, face).expect("face");
            let r = (row.resolve)(Some(&mut d))
                .unwrap_or_else(|e| panic!("{} face {face}: {e}", row.name));
            let i = assert_rolled(row.name, &r, &format!("face {face}"));
            *hits.entry(i).or_default() += 1;
            odds = r.odds;
        }
        for (i, line) in odds.iter().enumerate() {
            let n = hits.get(&i).copied().unwrap_or(0);
            assert_eq!(
                Prob::new(n, faces),
                line.p,
                "{}: line `{}` came up on {n} of {faces} faces",
                row.name,
                line.outcome
            );
        }
    }
}

#[test]
fn a_log_entry_without_rolled_still_reads() {
    let r = pw_rows()
        .into_iter()
        .next()
        .map(|row| (row.resolve)(Some(&mut DiceSource::seeded(7))))
        .expect("row")
        .expect("resolution");
    let mut json = serde_json::to_value(&r).expect("json");
    assert!(json.get("rolled").is_some());
    if let Some(o) = json.as_object_mut() {
        o.remove("rolled");
    }
    let back: Resolution<Value> = serde_json::from_value(json.clone()).expect("old entry");
    assert_eq!(back.rolled, None);
    // And it writes back exactly as it was read: the saved form of old entries does not change.
    assert_eq!(serde_json::to_value(&back).expect("json"), json);
}
