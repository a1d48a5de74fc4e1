//! Every worked example of the five texts (issue 17), one test each, quoting the sentence it checks.
//!
//! Found by reading the seeds for "example", "for instance", "e.g.", "thus" and "means". Examples that
//! only illustrate the map (1870's cell 1640 beside two fortresses, the port transit counters) or the
//! sequence of play (PW's "Player A ... first fires any guns") have no arithmetic for kepi to check and
//! are left out; so is SPI's "a Movement Allowance of 6 can expend six Movement Points" (a definition).

use super::common::{entered, spi_input, tables};

use kepi::dice::{Die, Ratio};
use kepi::rules::fr1870::{self, FortressRole, FrCombatInput, FrFortress, FrUnit};
use kepi::rules::gsp::{self, Occupants};
use kepi::rules::pk::{
    self, Activity, Building, Class, Cover, Facing, Gun, artillery::ArtilleryInput,
    fire::FireInput, melee::MeleeInput,
};
use kepi::rules::pw::{self, ArtilleryInput as PwArtilleryInput, Gunnery};
use kepi::rules::spi::{self, Formation, SpiCombatInput};

// ---------------------------------------------------------------- Pickelhaube & Kepi (seed 002)

/// PK-X3: "a veteran 10 man infantry unit charging an enemy unit in flank makes a d10 roll of 6 ...
/// 10 (the number of figures) + 1 (veteran status) + 5 (the d10 roll) + 5 (flank modifier) = 21. This
/// is multiplied by 4 for a result of 84. The target unit's DV is 10 and the attacking unit causes 8
/// casualties." The unit is charging, so the example holds with charge ticked: the flank advantage
/// replaces the charge bonus (the d10 term is the 5 of the arithmetic).
#[test]
fn pk_x3_flank_charge_example_84_and_8_casualties() {
    for charge in [false, true] {
        let input = MeleeInput {
            figures: 10,
            class: Class::Veteran,
            facing: Facing::Flank,
            charge,
            ..Default::default()
        };
        let mut d = entered(Die::D10, &[5]);
        d.enter(Die::Pct, 50).expect("d%");
        let o = pk::melee::melee(
            &input,
            tables().get::<kepi::rules::pk::PkTables>(),
            Some(&mut d),
        )
        .expect("melee")
        .outcome
        .expect("outcome");
        assert_eq!(
            (o.lf, o.df, o.casualties),
            (Ratio::int(84), 10, 8),
            "\"This is multiplied by 4 for a result of 84 ... causes 8 casualties\" (charge {charge})"
        );
    }
}

/// PK-F5: "For example, an infantry unit in a wooden building would have a DF of 10+3=13."
#[test]
fn pk_f5_wooden_building_df_13() {
    let input = FireInput {
        figures: 10,
        class: Class::Line,
        cover: Cover::WoodenBuilding,
        ..Default::default()
    };
    let mut d = entered(Die::D10, &[5]);
    d.enter(Die::Pct, 50).expect("d%");
    let o = pk::fire::fire(
        &input,
        tables().get::<kepi::rules::pk::PkTables>(),
        Some(&mut d),
    )
    .expect("fire")
    .outcome
    .expect("outcome");
    assert_eq!(o.df, 13, "\"a DF of 10+3=13\"");
}

/// PK-U1, PK-C1: "For example it takes 1 URT to change formation which means an elite unit takes 1/3
/// move while a line unit takes ½ move."
#[test]
fn pk_u1_change_formation_elite_third_line_half() {
    let t = tables().get::<kepi::rules::pk::PkTables>();
    let time = |c| pk::movement::activity_time(c, Activity::ChangeFormation, 1, t).expect("urt");
    assert_eq!(
        time(Class::Elite),
        Ratio::new(1, 3),
        "\"an elite unit takes 1/3 move\""
    );
    assert_eq!(
        time(Class::Line),
        Ratio::new(1, 2),
        "\"a line unit takes ½ move\""
    );
}

/// PK-A4: "When artillery fires at a building and the AV equals or exceeds the DV of the building it
/// causes 5 points if damage to wooden buildings and 2 points to stone buildings": a flat amount,
/// however far the LF passes the DV.
#[test]
fn pk_a4_building_damage_is_flat_5_or_2() {
    let t = tables().get::<kepi::rules::pk::PkTables>();
    for (b, dmg) in [(Building::Wooden, 5), (Building::Stone, 2)] {
        let input = ArtilleryInput {
            gun: Gun::Blr,
            points: 30,
            class: Class::Veteran,
            range: Ratio::int(10),
            building: Some(b),
            building_points: Some(20),
            ..Default::default()
        };
        let mut d = entered(Die::D10, &[10]);
        let o = pk::artillery::artillery(&input, t, Some(&mut d))
            .expect("artillery")
            .outcome
            .expect("outcome");
        assert!(o.lf >= Ratio::int(2 * o.df), "the LF passes twice the DV");
        assert_eq!(
            o.building_damage,
            Some(dmg),
            "\"it causes 5 points if damage to wooden buildings and 2 points to stone buildings\""
        );
        assert_eq!(o.building_points_left, Some(20 - dmg));
    }
}

// ---------------------------------------------------------------- Portable Wargame (seed 003)

/// PW-A1: "an artillery unit at full strength, ie with four strength points, gets +1, which means it
/// only needs to roll a 3 to score a hit."
#[test]
fn pw_a1_full_strength_artillery_needs_a_3() {
    let input = PwArtilleryInput {
        army: Gunnery::German,
        sp: 4,
        target_cover: false,
        range: None,
    };
    let hits = |face| {
        let mut d = entered(Die::D6, &[face]);
        pw::artillery(
            &input,
            tables().get::<kepi::rules::pw::PwTables>(),
            Some(&mut d),
        )
        .expect("artillery")
        .outcome
        .expect("outcome")
        .hits
    };
    assert_eq!(hits(3), 1, "\"it only needs to roll a 3 to score a hit\"");
    assert_eq!(hits(2), 0, "a 2 misses");
}

// ---------------------------------------------------------------- Graveyard St. Privat (seed 004)

/// GSP-C1: "Examples: Sector contains 2 Cavalry men (1 tray) and 3 Infantry men (1 tray) (Note: The
/// extra point, as in the "4" and "5" roll, will be applied against Infantry)".
#[test]
fn gsp_c1_extra_point_against_infantry() {
    let occ = Occupants {
        infantry: 3,
        cavalry: 2,
        ..Occupants::default()
    };
    for (hits, inf, cav) in [(4, 2, 2), (5, 3, 2)] {
        let c = gsp::damage::share_hits(
            &occ,
            &[(hits, hits)],
            tables().get::<kepi::rules::gsp::GspTables>(),
        );
        assert_eq!(
            (c.infantry, c.cavalry),
            (inf, cav),
            "\"The extra point, as in the 4 and 5 roll, will be applied against Infantry\" ({hits})"
        );
    }
}

// ---------------------------------------------------------------- SPI Franco-Prussian War (seed 000)

fn spi_totals(i: &SpiCombatInput) -> (String, String, String) {
    let mut d = entered(Die::D6, &[3]);
    let o = spi::combat(
        i,
        tables().get::<kepi::rules::spi::SpiTables>(),
        Some(&mut d),
    )
    .expect("combat")
    .outcome
    .expect("outcome");
    (o.odds, o.attack, o.defence)
}

/// SPI-C1: "For example, an attack of 26 Combat Points against 9 Combat Points would round off to a
/// two-to-one odds situation."
#[test]
fn spi_c1_26_against_9_is_two_to_one() {
    let (odds, _, _) = spi_totals(&spi_input(26, 9));
    assert_eq!(odds, "2:1", "\"26 Combat Points against 9 ... two-to-one\"");
}

/// SPI-C3: "an attack with twelve Combat Strength Points is treated as if twenty-four Strength Points
/// were being used".
#[test]
fn spi_c3_flanking_twelve_counts_twenty_four() {
    let mut i = spi_input(12, 8);
    i.flank = true;
    let (odds, attack, _) = spi_totals(&i);
    assert_eq!(attack, "24", "\"twelve ... treated as if twenty-four\"");
    assert_eq!(odds, "3:1");
}

/// SPI-F1: "Thus a Combat unit with a Combat Strength of "five" in a Fortification unit with a strength
/// of "two" would defend as a combined Combat Strength of "twelve.""
#[test]
fn spi_f1_five_in_a_fort_of_two_defends_twelve() {
    let t = tables().get::<kepi::rules::spi::SpiTables>();
    assert_eq!(
        spi::fort_defence(&[Ratio::int(5)], 2, t),
        Ratio::int(12),
        "\"would defend as a combined Combat Strength of twelve\""
    );
    let mut i = spi_input(24, 5);
    i.fortress = Some(2);
    let (odds, _, defence) = spi_totals(&i);
    assert_eq!((odds.as_str(), defence.as_str()), ("2:1", "12"));
}

/// SPI-I1: "a French Combat unit with a Combat Strength of six is brought to Chalons; it may be raised
/// to a Combat Strength of eight ... There would be two reinforcing Combat Points remaining."
#[test]
fn spi_i1_six_raised_to_eight_two_points_left() {
    assert_eq!(
        spi::raise_at_chalons(6, 4),
        (8, 2),
        "\"raised to a Combat Strength of eight ... two reinforcing Combat Points remaining\""
    );
    assert_eq!(spi::raise_at_chalons(8, 4), (8, 4), "never above eight");
    assert_eq!(spi::raise_at_chalons(3, 4), (7, 0), "no more than the pool");
}

/// SPI-H1: "Thus a Combat unit with a Combat Strength of "8" might allocate only one Combat Point to
/// the attack", halved for the odds (case P).
#[test]
fn spi_h1_eight_may_allocate_one() {
    let t = tables().get::<kepi::rules::spi::SpiTables>();
    assert_eq!(
        spi::hasty_strength(1, 8, t).expect("allocation"),
        Ratio::new(1, 2),
        "\"might allocate only one Combat Point to the attack\""
    );
    assert!(spi::hasty_strength(9, 8, t).is_err(), "no more than it has");
}

/// SPI-S1: "Thus an isolated Combat unit with a Combat Strength of "8" would be reduced to "7" at the
/// end of its first Friendly Movement Phase that it was isolated."
#[test]
fn spi_s1_isolated_eight_becomes_seven() {
    assert_eq!(
        spi::isolation_attrition(8, 1, tables().get::<kepi::rules::spi::SpiTables>()),
        7,
        "\"would be reduced to 7\""
    );
}

/// SPI-H2 (C): "Thus if a Player allocated one Combat Strength Point to make a Hasty Attack, for combat
/// odds purposes, it would be treated as one-half of a Combat Point." The extended and hasty halvings
/// do not compound.
#[test]
fn spi_h2_extended_hasty_one_point_counts_one_half() {
    let mut i = spi_input(1, 1);
    i.hasty = true;
    i.attackers[0].formation = Formation::Extended;
    let (_, attack, _) = spi_totals(&i);
    assert_eq!(
        attack, "1/2",
        "\"it would be treated as one-half of a Combat Point\""
    );
    // Extended alone, in normal combat: halved once too.
    let mut n = spi_input(8, 4);
    n.attackers[0].formation = Formation::Extended;
    assert_eq!(spi_totals(&n).1, "4");
}

// ---------------------------------------------------------------- 1870 (seed 001)

/// FR-S1: "a non-supplied "D" unit therefore has a combat potential 4 times lower than that printed on
/// the counter".
#[test]
fn fr_s1_unsupplied_disorganised_is_a_quarter() {
    let mut i = FrCombatInput::plain(2, 8);
    i.defenders[0].supplied = false;
    i.defenders[0].disorganised = true;
    let r = fr1870::combat(
        &i,
        tables().get::<kepi::rules::fr1870::Fr1870Tables>(),
        None,
    )
    .expect("combat");
    assert!(
        r.summary.starts_with("1:1: 2 : 2"),
        "\"4 times lower than that printed on the counter\": {}",
        r.summary
    );
}

/// FR-F1, FR-S1: "similarly for a besieged unit benefiting from a fortification, whose potential is
/// then divided by 2 (state "D") then multiplied by the coefficient of the fortress".
#[test]
fn fr_f1_disorganised_garrison_halved_then_multiplied() {
    let mut i = FrCombatInput::plain(6, 4);
    i.defenders[0] = FrUnit {
        disorganised: true,
        fortress_multiplied: true,
        ..FrUnit::infantry(4)
    };
    i.fortress = Some(FrFortress {
        coefficient: 3,
        role: FortressRole::DefendsOccupied,
        choice: None,
    });
    let r = fr1870::combat(
        &i,
        tables().get::<kepi::rules::fr1870::Fr1870Tables>(),
        None,
    )
    .expect("combat");
    assert!(
        r.summary.starts_with("1:1: 6 : 6"),
        "\"divided by 2 (state D) then multiplied by the coefficient\": {}",
        r.summary
    );
}

/// FR-B1: "example: if Metz capitulates in turn 8, the besiegers may leave it only in turn 10".
#[test]
fn fr_b1_metz_besiegers_leave_two_turns_later() {
    assert_eq!(
        fr1870::blockade::metz_besiegers_may_leave(8),
        10,
        "\"if Metz capitulates in turn 8, the besiegers may leave it only in turn 10\""
    );
}

/// SPI-I1: order of battle M's reinforcement "4c+4": "+4 refers to the four Combat Points that the
/// French receive at Chalons." kepi keeps the four points beside the 4-strength unit.
#[test]
fn spi_i1_order_m_keeps_its_four_combat_points() {
    let m = spi::forces(tables().get::<kepi::rules::spi::SpiTables>(), Some("M"));
    assert!(
        m.iter().any(|r| r.kind == spi::ForceKind::CombatPoints
            && r.count == Some(4)
            && r.turn == 2
            && r.place.starts_with("Chalons")),
        "\"+4 refers to the four Combat Points that the French receive at Chalons\""
    );
}

/// Issue 17: the two scenarios that share French battalions (6e Corps at Mars-la-Tour and at St.
/// Privat) give each the same division and brigade, and each file says where its order of battle
/// comes from (the seeds give none).
#[test]
fn scenarios_agree_on_shared_battalions() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("unit-cards/scenarios");
    let load = |f: &str| {
        let text = std::fs::read_to_string(dir.join(f)).expect("scenario");
        assert!(
            text.contains("# Order of battle:"),
            "{f} says where its order of battle comes from"
        );
        let v: toml::Value = toml::from_str(&text).expect("toml");
        v["unit"]
            .as_array()
            .expect("units")
            .iter()
            .map(|u| {
                let s = |k: &str| u.get(k).and_then(|x| x.as_str()).unwrap_or("").to_string();
                (s("name"), (s("division"), s("brigade")))
            })
            .collect::<std::collections::BTreeMap<_, _>>()
    };
    let mlt = load("mars-la-tour.toml");
    let stp = load("st-privat.toml");
    let mut shared = 0;
    for (name, place) in &mlt {
        if let Some(other) = stp.get(name) {
            shared += 1;
            assert_eq!(place, other, "{name}");
        }
    }
    assert!(shared >= 3, "I/4e, I/10e, I/93e, I/94e ... are in both");
    assert_eq!(
        mlt["I/10e de ligne"].1, "1re Brigade (Péchot)",
        "I/10e: Péchot's brigade"
    );
    assert_eq!(
        mlt["I/94e de ligne"].1, "2e Brigade (Colin)",
        "I/94e: Colin's"
    );
}
