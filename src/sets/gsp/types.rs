//! The closed vocabularies of Graveyard St. Privat artillery: guns and loads, cover, the nine sectors of
//! the accuracy-of-aim grid, structures and equipment, arms and crew members.
//!
//! Every vocabulary is an enum with `ALL`, `Display` and `FromStr` over the kebab-case words the
//! command line, the table file and the JSON use, so no rule code ever compares strings.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Declares a closed vocabulary: the enum, `ALL`, `as_str`, `Display`, `FromStr` and serde names.
macro_rules! vocabulary {
    (
        $(#[$m:meta])* $name:ident, $what:literal {
            $($(#[$vm:meta])* $var:ident = $s:literal),+ $(,)?
        }
    ) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum $name {
            $($(#[$vm])* #[serde(rename = $s)] $var),+
        }

        impl $name {
            /// Every value, in the order menus list them.
            pub const ALL: &'static [$name] = &[$($name::$var),+];

            /// The kebab-case word used on the command line, in the table file and in JSON.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$var => $s),+
                }
            }

            /// The accepted words, comma-separated (for error messages).
            pub fn accepted() -> String {
                $name::ALL.iter().map(|v| v.as_str()).collect::<Vec<_>>().join(", ")
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
                let t = s.trim().to_ascii_lowercase();
                $name::ALL
                    .iter()
                    .copied()
                    .find(|v| v.as_str() == t)
                    .ok_or_else(|| {
                        format!("`{s}` is not {} (accepted: {})", $what, $name::accepted())
                    })
            }
        }
    };
}

vocabulary! {
    /// GSP-A1: the six columns of the hit chart, a gun with its load.
    GunType, "a gun type" {
        /// Prussian 4 or 6 pounder firing anti-personnel shot (direct fire).
        Prussian46Ap = "prussian-4-6pdr-ap",
        /// Prussian 4 or 6 pounder firing shell (high trajectory, drifts).
        Prussian46Shell = "prussian-4-6pdr-shell",
        /// The Prussian siege gun (high trajectory, drifts).
        PrussianSiege = "prussian-siege",
        /// French 4 pounder firing anti-personnel shot (direct fire).
        French4Ap = "french-4pdr-ap",
        /// French 4 pounder firing shell (high trajectory, drifts).
        French4Shell = "french-4pdr-shell",
        /// The French mitrailleuse (direct fire).
        Mitrailleuse = "mitrailleuse",
    }
}

vocabulary! {
    /// GSP-A4: the pieces on the table, before a load is chosen.
    Piece, "a piece" {
        /// Prussian 4 or 6 pounder field gun (chooses AP or shell).
        Prussian46 = "prussian-4-6pdr",
        /// The Prussian siege gun (shell only).
        PrussianSiege = "prussian-siege",
        /// French 4 pounder field gun (chooses AP or shell).
        French4 = "french-4pdr",
        /// The French mitrailleuse (no load to choose).
        Mitrailleuse = "mitrailleuse",
    }
}

vocabulary! {
    /// GSP-A4: the load a 4/6 pounder chooses before firing.
    Load, "a load" {
        /// Anti-personnel shot: direct fire, needs line of sight.
        Ap = "ap",
        /// Shell: high trajectory, rolls for accuracy of aim.
        Shell = "shell",
    }
}

vocabulary! {
    /// GSP-C1: the protective cover of the men where a shell lands.
    Cover, "a cover" {
        /// In the open.
        None = "none",
        /// In woods (-1 pip).
        Woods = "woods",
        /// In a town (-1 pip).
        Town = "town",
        /// In mountains (-1 pip).
        Mountain = "mountain",
        /// Inside a building (-2 pips).
        Building = "building",
        /// Directly behind a wall (-2 pips).
        Wall = "wall",
        /// The siege gun's fortified sector (-1 pip, GSP-S1).
        Fortified = "fortified",
    }
}

vocabulary! {
    /// GSP-A3: a row of the accuracy-of-aim grid, as kepi reads it.
    Row, "a grid row" {
        /// Beyond the target, away from the gun.
        Over = "over",
        /// Level with the target.
        Level = "level",
        /// Between the gun and the target.
        Short = "short",
    }
}

vocabulary! {
    /// GSP-A3: a column of the accuracy-of-aim grid, as seen from the gun.
    Col, "a grid column" {
        /// Left of the target, as seen from the gun.
        Left = "left",
        /// In line with the target.
        Centre = "centre",
        /// Right of the target, as seen from the gun.
        Right = "right",
    }
}

vocabulary! {
    /// GSP-A3: the nine sectors a shell can land in, around and on the target sector.
    Cell, "a landing sector" {
        /// Over and left.
        OverLeft = "over-left",
        /// Over (beyond the target).
        Over = "over",
        /// Over and right.
        OverRight = "over-right",
        /// Left of the target.
        Left = "left",
        /// The target sector itself.
        OnTarget = "on-target",
        /// Right of the target.
        Right = "right",
        /// Short and left.
        ShortLeft = "short-left",
        /// Short (between gun and target).
        Short = "short",
        /// Short and right.
        ShortRight = "short-right",
    }
}

vocabulary! {
    /// GSP-C2: structures and pieces of equipment that shell pips accumulate on.
    StructureKind, "a structure or equipment" {
        /// A 4" wall section (5).
        Wall = "wall",
        /// A small building (10).
        SmallBuilding = "small-building",
        /// A large bridge (15).
        LargeBridge = "large-bridge",
        /// A limber (3).
        Limber = "limber",
        /// A light artillery piece (6).
        LightGun = "light-gun",
        /// The siege gun (12).
        SiegeGun = "siege-gun",
    }
}

vocabulary! {
    /// GSP-C1/C3: the kinds of men a personnel hit can fall on.
    Arm, "an arm" {
        /// Infantry (takes the extra point in a mixed sector).
        Infantry = "infantry",
        /// Cavalry.
        Cavalry = "cavalry",
        /// A gun crew and its limber team.
        Crew = "crew",
    }
}

vocabulary! {
    /// GSP-C3: who of a gun crew and team a personnel hit kills.
    CrewMember, "a crew member" {
        /// A team horse (with or without driver).
        Horse = "horse",
        /// A cannoneer (also while riding the limber).
        Cannoneer = "cannoneer",
    }
}

vocabulary! {
    /// GSP-S1: the terrain where the siege gun would be placed.
    Terrain, "a terrain" {
        /// Open ground (or anything not listed).
        Open = "open",
        /// Woods.
        Woods = "woods",
        /// Mountains.
        Mountain = "mountain",
        /// A town.
        Town = "town",
    }
}

vocabulary! {
    /// The two sides.
    Side, "a side" {
        /// The Prussians (and their allies).
        Prussian = "prussian",
        /// The French.
        French = "french",
    }
}

/// No cover: the default for a sector nobody described.
#[allow(clippy::derivable_impls)] // the enum comes from `vocabulary!`, which derives no Default
impl Default for Cover {
    fn default() -> Self {
        Cover::None
    }
}

impl GunType {
    /// The piece firing.
    pub fn piece(self) -> Piece {
        match self {
            GunType::Prussian46Ap | GunType::Prussian46Shell => Piece::Prussian46,
            GunType::PrussianSiege => Piece::PrussianSiege,
            GunType::French4Ap | GunType::French4Shell => Piece::French4,
            GunType::Mitrailleuse => Piece::Mitrailleuse,
        }
    }

    /// The load, for the pieces that choose one (4/6 pounders).
    pub fn load(self) -> Option<Load> {
        match self {
            GunType::Prussian46Ap | GunType::French4Ap => Some(Load::Ap),
            GunType::Prussian46Shell | GunType::French4Shell => Some(Load::Shell),
            GunType::PrussianSiege | GunType::Mitrailleuse => None,
        }
    }

    /// GSP-A2: AP shot and mitrailleuse fire are direct and need line of sight.
    pub fn needs_line_of_sight(self) -> bool {
        matches!(
            self,
            GunType::Prussian46Ap | GunType::French4Ap | GunType::Mitrailleuse
        )
    }

    /// GSP-A2/A3: shell and siege fire are high trajectory and roll for accuracy of aim.
    pub fn drifts(self) -> bool {
        !self.needs_line_of_sight()
    }

    /// GSP-C2: shell fire (the siege gun fires shell) damages structures and equipment.
    pub fn damages_structures(self) -> bool {
        self.drifts()
    }

    /// The side that fields the gun.
    pub fn side(self) -> Side {
        self.piece().side()
    }

    /// The chart's column heading.
    pub fn title(self) -> &'static str {
        match self {
            GunType::Prussian46Ap => "Prussian 4/6 pdr AP",
            GunType::Prussian46Shell => "Prussian 4/6 pdr shell",
            GunType::PrussianSiege => "Prussian siege gun",
            GunType::French4Ap => "French 4 pdr AP",
            GunType::French4Shell => "French 4 pdr shell",
            GunType::Mitrailleuse => "Mitrailleuse",
        }
    }
}

impl Piece {
    /// GSP-A4: only the 4/6 pounders choose a load.
    pub fn chooses_load(self) -> bool {
        matches!(self, Piece::Prussian46 | Piece::French4)
    }

    /// The side that fields the piece.
    pub fn side(self) -> Side {
        match self {
            Piece::Prussian46 | Piece::PrussianSiege => Side::Prussian,
            Piece::French4 | Piece::Mitrailleuse => Side::French,
        }
    }
}

impl Cell {
    /// The sector at a row and column of the grid.
    pub fn new(row: Row, col: Col) -> Cell {
        match (row, col) {
            (Row::Over, Col::Left) => Cell::OverLeft,
            (Row::Over, Col::Centre) => Cell::Over,
            (Row::Over, Col::Right) => Cell::OverRight,
            (Row::Level, Col::Left) => Cell::Left,
            (Row::Level, Col::Centre) => Cell::OnTarget,
            (Row::Level, Col::Right) => Cell::Right,
            (Row::Short, Col::Left) => Cell::ShortLeft,
            (Row::Short, Col::Centre) => Cell::Short,
            (Row::Short, Col::Right) => Cell::ShortRight,
        }
    }

    /// The row (over, level, short).
    pub fn row(self) -> Row {
        match self {
            Cell::OverLeft | Cell::Over | Cell::OverRight => Row::Over,
            Cell::Left | Cell::OnTarget | Cell::Right => Row::Level,
            Cell::ShortLeft | Cell::Short | Cell::ShortRight => Row::Short,
        }
    }

    /// The column (left, centre, right as seen from the gun).
    pub fn col(self) -> Col {
        match self {
            Cell::OverLeft | Cell::Left | Cell::ShortLeft => Col::Left,
            Cell::Over | Cell::OnTarget | Cell::Short => Col::Centre,
            Cell::OverRight | Cell::Right | Cell::ShortRight => Col::Right,
        }
    }
}

impl StructureKind {
    /// True for equipment (limber, guns); false for structures (wall, building, bridge).
    pub fn is_equipment(self) -> bool {
        matches!(
            self,
            StructureKind::Limber | StructureKind::LightGun | StructureKind::SiegeGun
        )
    }

    /// The cover a standing structure gives the men in or behind it, if any.
    pub fn gives_cover(self) -> Option<Cover> {
        match self {
            StructureKind::Wall => Some(Cover::Wall),
            StructureKind::SmallBuilding => Some(Cover::Building),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip() {
        for g in GunType::ALL {
            assert_eq!(g.as_str().parse::<GunType>().unwrap(), *g);
            assert_eq!(
                serde_json::to_value(g).unwrap(),
                serde_json::json!(g.as_str())
            );
        }
        for c in Cell::ALL {
            assert_eq!(Cell::new(c.row(), c.col()), *c);
            assert_eq!(c.to_string().parse::<Cell>().unwrap(), *c);
        }
        let e = "grape".parse::<GunType>().unwrap_err();
        assert!(e.contains("mitrailleuse"), "{e}");
    }

    #[test]
    fn direct_and_indirect_fire() {
        assert!(GunType::Mitrailleuse.needs_line_of_sight());
        assert!(GunType::French4Ap.needs_line_of_sight());
        assert!(GunType::PrussianSiege.drifts());
        assert!(GunType::Prussian46Shell.damages_structures());
        assert!(!GunType::Prussian46Ap.damages_structures());
        assert!(Piece::French4.chooses_load());
        assert!(!Piece::Mitrailleuse.chooses_load());
    }
}
