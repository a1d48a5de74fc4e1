//! The Portable Wargame's unit card (issue 43): the fields a PW card uses and what each accepts,
//! read by the card loader, the writer, the CSV import and the order-of-battle builder.

use kepi_game::roster::spec::{Builder, CardSpec, Placing};
use kepi_game::roster::{Arm, Quality, Weapon};

/// PW-T2: the three qualities.
pub const QUALITIES: &[Quality] = &[Quality::Elite, Quality::Normal, Quality::Poor];

/// A PW card: units of strength points on a hex grid (PW-U1, PW-T2, PW-R1, PW-A1).
pub fn spec() -> CardSpec {
    let mut b = Builder::new("Portable Wargame (Franco-Prussian)")
        .common()
        .arms(
            &[
                Arm::Infantry,
                Arm::Cavalry,
                Arm::Artillery,
                Arm::Engineers,
                Arm::Headquarters,
            ],
            "PW-U1: infantry, cavalry, artillery (the unit table), engineers or a commander",
        )
        .quality("Quality", QUALITIES, "PW-T2: elite, normal or poor")
        .strength(
            "Strength points",
            "SP",
            "PW-U1: strength points (infantry 4, cavalry 2, artillery 4)",
        )
        .weapons(
            "Weapon",
            Weapon::FIELD,
            "PW-R1, PW-A1: the weapon gives the range in hexes",
        )
        .leaders("leaders: none by default in PW")
        .hierarchy()
        .position(
            Placing::Hex,
            "the starting hex (four digits, column then row), or off",
        )
        .facing("the starting facing")
        .tail(true);
    b.sort();
    b.build()
}
