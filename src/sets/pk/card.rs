//! Pickelhaube & Kepi's unit card (issue 43): the fields a P&K card uses and what each accepts,
//! read by the card loader, the writer, the CSV import and the order-of-battle builder.

use kepi_game::roster::spec::{Builder, CardSpec, Placing};
use kepi_game::roster::{Arm, Formation, Quality, Weapon};

/// PK-C1: the three classes.
pub const CLASSES: &[Quality] = &[Quality::Elite, Quality::Veteran, Quality::Line];

/// A P&K card: battalions, regiments of cavalry and batteries on the table (PK-C1, PK-F1, PK-A1,
/// PK-L1), positioned by tape measure.
pub fn spec() -> CardSpec {
    let mut b = Builder::new("Pickelhaube & Kepi")
        .common()
        .arms(
            &[
                Arm::Infantry,
                Arm::Cavalry,
                Arm::Artillery,
                Arm::Engineers,
                Arm::Headquarters,
            ],
            "infantry battalion, cavalry regiment, battery (PK-A1), pioneers or a general",
        )
        .quality("Class", CLASSES, "PK-C1: elite, veteran or line")
        .strength(
            "Figures",
            "figures",
            "figures (a battalion of 16-24); a battery's points (PK-A2)",
        )
        .weapons(
            "Weapon",
            Weapon::FIELD,
            "PK-F1: the small arm (range and fire); PK-A1: the gun (MLR or BLR table)",
        )
        .formations(
            &[
                Formation::Line,
                Formation::Column,
                Formation::AttackColumn,
                Formation::Skirmish,
                Formation::Square,
                Formation::Mounted,
                Formation::Dismounted,
                Formation::Limbered,
                Formation::Unlimbered,
            ],
            "PK-M1: the starting formation (guns: limbered or unlimbered, PK-A2)",
        )
        .leaders("PK-L1: 3 per unit or gun when not given, outside the figure count")
        .hierarchy()
        .position(
            Placing::Table,
            "measured play: the unit starts on the table, or off it until it arrives",
        )
        .facing("PK-F1: fire within 45 degrees of the front")
        .tail(false);
    b.sort();
    b.build()
}
