//! SPI Franco-Prussian War's unit card (issue 43): the fields an SPI counter's card uses and
//! what each accepts, read by the card loader, the writer, the CSV import and the
//! order-of-battle builder.

use kepi_game::roster::spec::{Builder, CardSpec, Placing};
use kepi_game::roster::{Arm, Formation};

/// An SPI counter: combat strength and movement allowance on the hex map (SPI-I1, SPI-M1), no
/// classes or weapons.
pub fn spec() -> CardSpec {
    let mut b = Builder::new("SPI Franco-Prussian War")
        .common()
        .arms(
            &[
                Arm::Infantry,
                Arm::Cavalry,
                Arm::Railway,
                Arm::Fortress,
                Arm::Dummy,
                Arm::Headquarters,
            ],
            "SPI-I1: combat units, EB railway units, fortifications (SPI-F1); SPI-H1: a dummy",
        )
        .strength(
            "Combat strength",
            "CP",
            "SPI-I1: the combat strength as printed",
        )
        .formations(
            &[Formation::Concentrated, Formation::Extended],
            "SPI-H2 (optional): concentrated or extended",
        )
        .leaders("leaders: none in SPI")
        .hierarchy()
        .position(
            Placing::Hex,
            "the starting hex; off until placed (SPI-I1 places by town or area: see location)",
        )
        .facing("the starting facing")
        .tail(true);
    b.sort();
    b.build()
}
