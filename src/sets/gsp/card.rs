//! Graveyard St. Privat's unit card (issue 43): the fields a GSP card uses and what each accepts,
//! read by the card loader, the writer, the CSV import and the order-of-battle builder.

use kepi_game::roster::spec::{Builder, CardSpec, Placing};
use kepi_game::roster::{Arm, Formation, Weapon};

/// A GSP card: batteries and their targets on the table (GSP-A1, GSP-S1), no classes.
pub fn spec() -> CardSpec {
    let mut b = Builder::new("Graveyard St. Privat (artillery)")
        .common()
        .arms(
            &[
                Arm::Infantry,
                Arm::Cavalry,
                Arm::Artillery,
                Arm::Engineers,
                Arm::Headquarters,
            ],
            "GSP-A1: batteries fire; infantry and cavalry are their targets",
        )
        .strength(
            "Figures",
            "figures",
            "figures; a battery's guns (GSP-A1: one d6 per gun)",
        )
        .weapons(
            "Weapon or gun",
            Weapon::ALL,
            "GSP-A1: the gun type (hit chart); GSP-S1: a siege gun",
        )
        .formations(
            &[
                Formation::Line,
                Formation::Column,
                Formation::Skirmish,
                Formation::Mounted,
                Formation::Dismounted,
                Formation::Limbered,
                Formation::Unlimbered,
            ],
            "guns limbered or unlimbered; a target's order",
        )
        .leaders("leaders: none by default in GSP")
        .hierarchy()
        .position(
            Placing::Table,
            "measured play: the unit starts on the table, or off it until it arrives",
        )
        .facing("the starting facing")
        .tail(false);
    b.sort();
    b.build()
}
