//! The range of every number a user can give a rule (issue 29: `--situation-a 9223372036854775807`
//! wrapped to a negative score). One table, read by the rules (which refuse anything outside it
//! whoever called them) and by the command line's range-checked parser
//! (`kepi_middle::moves::num::within`), so a flag's help, its refusal and the rule agree.
//!
//! The bounds are the rules' own where they give one (a d6 has 6 faces, a PW unit at most 20 SP,
//! 1870's die corrections at most 10) and otherwise generous for any table (an army of 10,000
//! figures), always far below where an `i64` or a `u32` could wrap.

/// An inclusive range of whole numbers a rule accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// The least accepted value.
    pub lo: i64,
    /// The greatest accepted value.
    pub hi: i64,
}

impl Limit {
    /// True when `v` is accepted.
    pub fn contains(self, v: i64) -> bool {
        (self.lo..=self.hi).contains(&v)
    }

    /// "LO to HI", as refusals print it.
    pub fn accepted(self) -> String {
        format!("{} to {}", self.lo, self.hi)
    }

    /// `v` or an input error naming `field` and this range.
    pub fn check(self, field: &str, v: impl Into<i64>) -> Result<(), super::RuleError> {
        let v = v.into();
        if self.contains(v) {
            Ok(())
        } else {
            Err(super::RuleError::input(
                field,
                format!("{v} is out of range"),
                self.accepted(),
            ))
        }
    }
}

const fn lim(lo: i64, hi: i64) -> Limit {
    Limit { lo, hi }
}

/// Figures of a unit, a rank, an army or a building's occupants (P&K; the rules refuse a firing or
/// fighting unit of 0 themselves).
pub const FIGURES: Limit = lim(0, 10_000);
/// Units of an army (broken units that could return, units lost).
pub const UNITS: Limit = lim(0, 10_000);
/// A modifier added to one die roll (P&K situation, army modifiers): a d10 or d% is decided well
/// inside +-100.
pub const ROLL_MODIFIER: Limit = lim(-100, 100);
/// P&K fatigue points (PK-X5; a melee of 100 moves gives far less).
pub const FATIGUE: Limit = lim(0, 1_000);
/// Moves of a melee (P&K), from the first.
pub const MELEE_MOVES: Limit = lim(0, 100);
/// Leaders lost by one unit (P&K: a brigaded unit has 6).
pub const LEADERS: Limit = lim(0, 6);
/// Points of a battery or a building (P&K).
pub const POINTS: Limit = lim(0, 1_000);
/// A d% entered by hand.
pub const DPCT: Limit = lim(1, 100);
/// Combat strength or potential of one attack or defence (SPI, 1870).
pub const STRENGTH: Limit = lim(0, 10_000);
/// SPI net victory points (German minus French).
pub const VICTORY_POINTS: Limit = lim(-100_000, 100_000);
/// 1870: a die correction from the Terrain Table.
pub const DIE_MOD: Limit = lim(-10, 10);
/// 1870: a fortress's value (FR-F1: 1 to 3).
pub const FORTRESS_VALUE: Limit = lim(1, 3);
/// Cells of a blockade calendar (moved, or from a start to SURRENDER; FR-B1).
pub const CALENDAR_CELLS: Limit = lim(-200, 200);
/// A game-turn.
pub const TURN: Limit = lim(1, 10_000);
/// A 1870 starting situation (FR-L1).
pub const SITUATION: Limit = lim(1, 5);
/// PW strength points lost or at the start of an army (20 per unit at most).
pub const ARMY_SP: Limit = lim(0, 200_000);
/// PW: a unit's strength points (PW-U1: at most 20).
pub const PW_SP: Limit = lim(1, 20);
/// A count of hexes (ranges on the map).
pub const HEXES: Limit = lim(0, 10_000);
/// GSP: guns firing together.
pub const GUNS: Limit = lim(0, 100);
/// GSP: degrees a gun turned.
pub const DEGREES: Limit = lim(0, 360);
/// GSP: shell pips on a structure (earlier turns included).
pub const PIPS: Limit = lim(0, 1_000);
/// GSP: personnel hits, cannoneers or horses of one gun.
pub const CREW: Limit = lim(0, 100);
/// GSP: a range sector.
pub const SECTOR: Limit = lim(0, 100);
/// A count a `kepi game apply` verb adds, removes or sets on a unit (strength, fatigue, leaders).
pub const COUNT: Limit = lim(0, 100_000);
/// Inches on the table (P&K ranges, moves in URTs).
pub const INCHES: Limit = lim(0, 10_000);
/// P&K heights in contours (PK-V1: an observer's hill and storeys, a hill or building between):
/// the text's tallest thing is heavy woods, 4 contours; a table's hills stay well inside 100.
pub const CONTOURS: Limit = lim(0, 100);
