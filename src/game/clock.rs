//! The turn clock: each rule set's phases and, where it has one, the historical date of a turn.

use chrono::{Days, NaiveDate};

use crate::roster::Side;
use crate::rules::{RuleId, System};

/// The phases of one game-turn, in order, for a rule set and its sides in order of play.
///
/// - PK-T1: four parts (movement and fire, melee, unit morale, army morale).
/// - PW-T1: alternate half-turns, each with four phases (artillery fire, movement, rifle fire, melee).
/// - GSP-A4 gives only the artillery step (after rifle fire, both sides at once); the rest of the
///   turn is kepi's reading (house): movement, rifle fire, artillery fire, close combat.
/// - SPI-T1: German then French player-turns, each reinforcement, movement, combat.
/// - FR-T1: French move, French combat, German move, German combat, advance calendars.
pub fn phases_for(system: System, sides: &[Side]) -> Vec<String> {
    let order: Vec<Side> = if sides.is_empty() {
        vec![Side::German, Side::French]
    } else {
        sides.to_vec()
    };
    match system {
        System::Pk => [
            "Part 1: movement and fire",
            "Part 2: melee",
            "Part 3: unit morale",
            "Part 4: army morale",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
        System::Pw => order
            .iter()
            .flat_map(|s| {
                ["1 artillery fire", "2 movement", "3 rifle fire", "4 melee"]
                    .map(|p| format!("{} half-turn: {p}", s.title()))
            })
            .collect(),
        System::Gsp => [
            "Movement",
            "Rifle fire",
            "Artillery fire (both sides at once)",
            "Close combat",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
        System::Spi => [Side::German, Side::French]
            .iter()
            .flat_map(|s| {
                ["reinforcement", "movement", "combat"].map(|p| format!("{} {p}", s.title()))
            })
            .collect(),
        System::Fr1870 => [
            "French movement",
            "French combat",
            "German movement",
            "German combat",
            "Advance calendars",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
    }
}

/// The rule that defines a rule set's turn sequence (logged with each change of phase).
pub fn turn_rule(system: System) -> RuleId {
    match system {
        System::Pk => RuleId::new("PK-T1"),
        System::Pw => RuleId::new("PW-T1"),
        System::Gsp => RuleId::new("GSP-A4"),
        System::Spi => RuleId::new("SPI-T1"),
        System::Fr1870 => RuleId::new("FR-T1"),
    }
}

/// 1 August 1870: calendar cell 1 of both board games.
pub fn campaign_start() -> NaiveDate {
    NaiveDate::from_ymd_opt(1870, 8, 1).unwrap_or_default()
}

/// The date a game-turn starts on.
///
/// SPI-T1 / FR-T1: turn n is calendar cell `first_cell + n - 1`, which starts on 1 Aug 1870 +
/// 3(cell - 1) days (cell 7 = 19 Aug, cell 12 = 3 Sep). The miniatures rule sets fight one day: the
/// scenario's date.
pub fn date_of_turn(
    system: System,
    scenario_date: Option<NaiveDate>,
    first_cell: u32,
    turn: u32,
) -> Option<NaiveDate> {
    match system {
        System::Spi | System::Fr1870 => {
            let cell = u64::from(first_cell.max(1)) + u64::from(turn.max(1)) - 1;
            campaign_start().checked_add_days(Days::new(3 * (cell - 1)))
        }
        _ => scenario_date,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(m: u32, day: u32) -> Option<NaiveDate> {
        NaiveDate::from_ymd_opt(1870, m, day)
    }

    #[test]
    fn fr_t1_calendar_cells() {
        assert_eq!(date_of_turn(System::Fr1870, None, 7, 1), d(8, 19));
        assert_eq!(date_of_turn(System::Fr1870, None, 12, 1), d(9, 3));
        assert_eq!(date_of_turn(System::Fr1870, None, 32, 1), d(11, 2));
        assert_eq!(date_of_turn(System::Fr1870, None, 51, 1), d(12, 29));
        assert_eq!(date_of_turn(System::Fr1870, None, 1, 7), d(8, 19));
    }

    #[test]
    fn spi_t1_turn_11_is_aug_31() {
        assert_eq!(date_of_turn(System::Spi, None, 1, 1), d(8, 1));
        assert_eq!(date_of_turn(System::Spi, None, 1, 11), d(8, 31));
    }

    #[test]
    fn phase_counts() {
        let s = [Side::German, Side::French];
        assert_eq!(phases_for(System::Pk, &s).len(), 4);
        assert_eq!(phases_for(System::Pw, &s).len(), 8);
        assert_eq!(phases_for(System::Spi, &s).len(), 6);
        assert_eq!(phases_for(System::Fr1870, &s).len(), 5);
        assert!(phases_for(System::Pw, &s)[0].starts_with("German"));
    }
}
