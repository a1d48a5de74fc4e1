//! The closed vocabularies of P&K: classes, weapons, cover, guns, formations, levels, officers.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::tables::{ClassRow, PkTables};
use kepi_game::tables::Sourced;

macro_rules! vocab {
    ($(#[$m:meta])* $name:ident, $what:literal { $($(#[$vm:meta])* $var:ident => $s:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(rename_all = "kebab-case")]
        pub enum $name { $($(#[$vm])* $var),+ }

        impl $name {
            /// Every value, in menu order.
            pub const ALL: &'static [$name] = &[$($name::$var),+];

            /// The kebab-case word used on the command line and in files.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$var => $s),+ }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for $name {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                let t = s.trim().to_ascii_lowercase().replace('_', "-");
                $name::ALL.iter().copied().find(|v| v.as_str() == t).ok_or_else(|| {
                    let all: Vec<&str> = $name::ALL.iter().map(|v| v.as_str()).collect();
                    format!("unknown {} `{s}` (accepted: {})", $what, all.join(", "))
                })
            }
        }
    };
}

vocab!(
    /// PK-C1: soldier classes.
    Class, "class" {
        /// Elite.
        Elite => "elite",
        /// Veteran (+1, seed).
        Veteran => "veteran",
        /// Line.
        Line => "line",
    }
);

#[allow(clippy::derivable_impls)]
impl Default for Class {
    fn default() -> Self {
        Class::Line
    }
}

impl Class {
    /// The class's row of the Class Mod Table.
    pub fn row(self, t: &PkTables) -> &ClassRow {
        match self {
            Class::Elite => &t.class.elite,
            Class::Veteran => &t.class.veteran,
            Class::Line => &t.class.line,
        }
    }

    /// PK-C1: the class modifier with its provenance.
    pub fn modifier(self, t: &PkTables) -> &Sourced<i64> {
        &self.row(t).modifier
    }
}

vocab!(
    /// PK-F1: rifles and carbines.
    Weapon, "weapon" {
        /// French Chassepot rifle.
        Chassepot => "chassepot",
        /// Prussian Dreyse needle gun.
        Needle => "needle",
        /// Muzzle-loading rifle (gardes mobiles).
        Mlr => "mlr",
        /// Chassepot carbine.
        ChassepotCarbine => "chassepot-carbine",
        /// Needle carbine.
        NeedleCarbine => "needle-carbine",
        /// Muzzle-loading carbine.
        MlrCarbine => "mlr-carbine",
    }
);

#[allow(clippy::derivable_impls)]
impl Default for Weapon {
    fn default() -> Self {
        Weapon::Chassepot
    }
}

impl Weapon {
    /// The weapon's range row.
    pub fn row(self, t: &PkTables) -> &super::tables::RifleRow {
        let r = &t.rifles;
        match self {
            Weapon::Chassepot => &r.chassepot,
            Weapon::Needle => &r.needle,
            Weapon::Mlr => &r.mlr,
            Weapon::ChassepotCarbine => &r.chassepot_carbine,
            Weapon::NeedleCarbine => &r.needle_carbine,
            Weapon::MlrCarbine => &r.mlr_carbine,
        }
    }

    /// True for the carbine versions.
    pub fn is_carbine(self) -> bool {
        matches!(
            self,
            Weapon::ChassepotCarbine | Weapon::NeedleCarbine | Weapon::MlrCarbine
        )
    }
}

vocab!(
    /// PK-F5: cover types (added to the target's DV).
    Cover, "cover" {
        /// In the open.
        None => "none",
        /// Fences, hedges, low walls (linear; howitzers ignore it).
        Fence => "fence",
        /// Trenches and earthworks (linear; normal cover even against howitzers).
        Trench => "trench",
        /// Woods, 2" or more inside.
        Woods => "woods",
        /// A wooden building (+3, seed).
        WoodenBuilding => "wooden-building",
        /// A stone building.
        StoneBuilding => "stone-building",
    }
);

#[allow(clippy::derivable_impls)]
impl Default for Cover {
    fn default() -> Self {
        Cover::None
    }
}

impl Cover {
    /// The cover's DV addition; None for the open.
    pub fn value(self, t: &PkTables) -> Option<&Sourced<i64>> {
        let c = &t.cover;
        match self {
            Cover::None => None,
            Cover::Fence => Some(&c.fence),
            Cover::Trench => Some(&c.trench),
            Cover::Woods => Some(&c.woods),
            Cover::WoodenBuilding => Some(&c.wooden_building),
            Cover::StoneBuilding => Some(&c.stone_building),
        }
    }

    /// PK-F5: linear cover protects the front only.
    pub fn is_linear(self) -> bool {
        matches!(self, Cover::Fence | Cover::Trench)
    }

    /// PK-F5: "Howitzers get full score against troops in buildings and behind fences."
    pub fn ignored_by_howitzers(self) -> bool {
        matches!(
            self,
            Cover::Fence | Cover::WoodenBuilding | Cover::StoneBuilding
        )
    }
}

vocab!(
    /// PK-A1: gun types.
    Gun, "gun" {
        /// Muzzle-loading rifled gun (French La Hitte).
        Mlr => "mlr",
        /// Breech-loading rifled gun (Prussian Krupp).
        Blr => "blr",
        /// Howitzer: MLR table without a short range.
        Howitzer => "howitzer",
        /// The mitrailleuse volley gun (its own table, no canister).
        Mitrailleuse => "mitrailleuse",
    }
);

#[allow(clippy::derivable_impls)]
impl Default for Gun {
    fn default() -> Self {
        Gun::Blr
    }
}

vocab!(
    /// PK-A1: range bands.
    RangeBand, "range band" {
        /// Short.
        Short => "short",
        /// Medium.
        Medium => "medium",
        /// Long.
        Long => "long",
        /// Canister range, firing canister.
        Canister => "canister",
    }
);

vocab!(
    /// PK-A4: building construction.
    Building, "building" {
        /// Wooden: 5 points of damage per hit (seed).
        Wooden => "wooden",
        /// Stone: 2 points of damage per hit (seed).
        Stone => "stone",
    }
);

vocab!(
    /// PK-X3: formations in the Melee Matrix.
    Formation, "formation" {
        /// Infantry in line.
        Line => "line",
        /// Infantry in column (a moving column counts 2 ranks).
        Column => "column",
        /// Infantry in square (counts 2 ranks against cavalry).
        Square => "square",
        /// Skirmish order.
        Skirmish => "skirmish",
        /// Formed cavalry.
        Cavalry => "cavalry",
        /// An artillery battery (counts all its points).
        Battery => "battery",
    }
);

#[allow(clippy::derivable_impls)]
impl Default for Formation {
    fn default() -> Self {
        Formation::Line
    }
}

vocab!(
    /// PK-X3: where an attack comes in.
    Facing, "facing" {
        /// Frontal.
        Front => "front",
        /// Flank: 4 x (AV + 5) (seed).
        Flank => "flank",
        /// Rear.
        Rear => "rear",
    }
);

#[allow(clippy::derivable_impls)]
impl Default for Facing {
    fn default() -> Self {
        Facing::Front
    }
}

vocab!(
    /// PK-X3: a defended position in melee.
    Position, "position" {
        /// In the open.
        Open => "open",
        /// Defending a building.
        Building => "building",
        /// Defending a barrier (wall, hedge, earthwork).
        Barrier => "barrier",
    }
);

#[allow(clippy::derivable_impls)]
impl Default for Position {
    fn default() -> Self {
        Position::Open
    }
}

vocab!(
    /// PK-E1: the four levels of effectiveness.
    Level, "level" {
        /// Steady: may initiate and accept melee.
        Steady => "steady",
        /// Shaken: may accept melee.
        Shaken => "shaken",
        /// Broken: lost for victory purposes, may return as Shaken (PK-W1).
        Broken => "broken",
        /// Routed: lost, never restored.
        Routed => "routed",
    }
);

#[allow(clippy::derivable_impls)]
impl Default for Level {
    fn default() -> Self {
        Level::Steady
    }
}

vocab!(
    /// PK-L2: generals and staff officers.
    Officer, "officer" {
        /// A general.
        General => "general",
        /// A staff officer.
        Staff => "staff",
    }
);

vocab!(
    /// PK-D1: what disorders a unit.
    DisorderCause, "disorder cause" {
        /// It has just waded a stream.
        WadedStream => "waded-stream",
        /// It has just finished a melee.
        FinishedMelee => "finished-melee",
        /// It charged and did not reach its objective.
        ChargeFellShort => "charge-fell-short",
    }
);

vocab!(
    /// PK-D1: what muddles a unit.
    MuddleCause, "muddle cause" {
        /// Forced into a friendly unit.
        ForcedIntoFriend => "forced-into-friend",
        /// Ran into a friendly unit by accident.
        RanIntoFriend => "ran-into-friend",
        /// Forced into a melee while wading a stream or river.
        MeleeWhileWading => "melee-while-wading",
    }
);

vocab!(
    /// PK-M1: kinds of troops in the Movement Table.
    TroopKind, "troop kind" {
        /// Formed infantry.
        FormedInfantry => "formed-infantry",
        /// Light infantry in skirmish order.
        SkirmishInfantry => "skirmish-infantry",
        /// Formed cavalry.
        Cavalry => "cavalry",
        /// Light cavalry in skirmish order.
        LightCavalry => "light-cavalry",
        /// Foot artillery.
        FootArtillery => "foot-artillery",
        /// Horse artillery.
        HorseArtillery => "horse-artillery",
        /// A general or staff officer.
        General => "general",
    }
);

vocab!(
    /// PK-U1: activities on the URT Table.
    Activity, "activity" {
        /// Change formation.
        ChangeFormation => "change-formation",
        /// Battalion in line pivots (30 degrees per URT, one end fixed).
        PivotBattalion => "pivot-battalion",
        /// Brigade in line pivots (15 degrees per URT).
        PivotBrigade => "pivot-brigade",
        /// Disordered unit reorganises, stationary.
        Reorganise => "reorganise",
        /// Untangle a muddle (3 URTs of the lowest class).
        UntangleMuddle => "untangle-muddle",
        /// Limber or unlimber.
        Limber => "limber",
        /// Pass through a friendly unit.
        PassageOfLines => "passage-of-lines",
    }
);

vocab!(
    /// PK-V1: terrain an observer or target stands in.
    Terrain, "terrain" {
        /// Open ground.
        Open => "open",
        /// Light woods.
        LightWoods => "light-woods",
        /// Heavy woods.
        HeavyWoods => "heavy-woods",
    }
);

#[allow(clippy::derivable_impls)]
impl Default for Terrain {
    fn default() -> Self {
        Terrain::Open
    }
}
