//! 1870's unit card (issue 43): the fields a counter's card uses and what each accepts, read by
//! the card loader, the writer, the CSV import and the order-of-battle builder.

use kepi_game::roster::Arm;
use kepi_game::roster::spec::{Builder, CardSpec, Placing};

/// The arms a 1870 card may have.
pub const ARMS: &[Arm] = &[
    Arm::Infantry,
    Arm::Cavalry,
    Arm::Fortress,
    Arm::Railway,
    Arm::Dummy,
    Arm::Headquarters,
];

/// A 1870 counter: a division or detached brigade (A5) with its combat potential on the cell map
/// (FR-L1, FR-M1), fortresses (FR-F1); no classes, weapons or formations.
pub fn spec() -> CardSpec {
    let mut b = Builder::new("1870")
        .common()
        .arms(
            ARMS,
            "A5: divisions and detached brigades; FR-F1: fortresses",
        )
        .strength(
            "Combat potential",
            "potential",
            "the counter's combat potential",
        )
        .leaders("leaders: none in 1870")
        .hierarchy()
        .position(
            Placing::Hex,
            "FR-L1: the starting cell (four digits, column then row), or off (a reinforcement)",
        )
        .facing("the starting facing")
        .tail(true);
    b.sort();
    b.build()
}
