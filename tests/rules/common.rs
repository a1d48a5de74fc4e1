//! What the rules test modules share: the built-in tables, dice entered by hand, a plain SPI
//! combat.

use kepi::dice::{DiceSource, Die};
use kepi::rules::spi::{SpiCombatInput, SpiUnit};
use kepi::tables::Tables;

/// The tables kepi ships.
pub fn tables() -> &'static Tables {
    kepi::registry::builtin_tables().expect("tables")
}

/// A dice source that reads `values` of `die`, in order, as if typed in.
pub fn entered(die: Die, values: &[u32]) -> DiceSource {
    let mut d = DiceSource::entered_only();
    for v in values {
        d.enter(die, *v).unwrap();
    }
    d
}

/// One d6 entered by hand showing `v`.
pub fn d6(v: u32) -> DiceSource {
    entered(Die::D6, &[v])
}

/// An SPI combat of one plain unit of `a` strength points against one of `d`, in the open.
pub fn spi_input(a: u32, d: u32) -> SpiCombatInput {
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
