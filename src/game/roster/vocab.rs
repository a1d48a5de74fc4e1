//! The closed vocabularies of unit cards: sides, arms, classes, weapons, formations, facings.
//!
//! Each is an enum with `ALL`, `Display` and `FromStr` (the kebab-case words of the card files and the
//! command line), so a card can only say what kepi understands, and an error lists what it accepts.

/// Declares a closed vocabulary: the enum, its `ALL`, `as_str`, `accepted`, `Display` and `FromStr`.
macro_rules! vocab {
    (
        $(#[$m:meta])*
        $name:ident, $what:literal {
            $( $(#[$vm:meta])* $var:ident = $s:literal $(| $alias:literal)* ),+ $(,)?
        }
    ) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, ::serde::Serialize, ::serde::Deserialize)]
        pub enum $name {
            $( $(#[$vm])* #[serde(rename = $s)] $var ),+
        }

        impl $name {
            /// Every value, in the order menus list them.
            pub const ALL: &'static [$name] = &[$($name::$var),+];

            /// The word used in card files, JSON and on the command line.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$var => $s),+
                }
            }

            /// The accepted words, comma-separated (for error messages).
            pub fn accepted() -> String {
                Self::ALL.iter().map(|v| v.as_str()).collect::<Vec<_>>().join(", ")
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                let t = s.trim().to_ascii_lowercase().replace(['_', ' '], "-");
                $(
                    if t == $s $(|| t == $alias)* {
                        return Ok($name::$var);
                    }
                )+
                Err(format!("unknown {} `{}` (accepted: {})", $what, s, Self::accepted()))
            }
        }
    };
}

pub(crate) use vocab;

vocab! {
    /// The two sides of the war. Nations (Prussia, Bavaria, Saxony, France) are a card's `nation`.
    Side, "side" {
        /// The French Empire, then the Republic.
        French = "french" | "france",
        /// Prussia and the German states.
        German = "german" | "prussian" | "germany" | "prussia",
    }
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::French => Side::German,
            Side::German => Side::French,
        }
    }

    /// The side's colour, the one every place that tells the sides apart draws them with: the
    /// map's counters and zones, the strength chart, the printed report's bars and the roster's
    /// and cards' bands (issue 46: the map and the chart gave the sides different colours).
    /// French blue, German grey, as the counters of the period's games have them; each reads
    /// under white text and against a dark or a white page.
    pub fn rgb(self) -> [u8; 3] {
        match self {
            Side::French => [50, 100, 190],
            Side::German => [110, 115, 125],
        }
    }

    /// Capitalised, for phase names and headings.
    pub fn title(self) -> &'static str {
        match self {
            Side::French => "French",
            Side::German => "German",
        }
    }
}

vocab! {
    /// The arm of service of a unit.
    Arm, "arm" {
        /// Foot, in line, column or skirmish order.
        Infantry = "infantry" | "inf",
        /// Mounted troops.
        Cavalry = "cavalry" | "cav",
        /// Guns, batteries, mitrailleuses.
        Artillery = "artillery" | "art" | "guns",
        /// Pioneers and sappers.
        Engineers = "engineers" | "pioneers",
        /// Railway repair troops (SPI's EB units).
        Railway = "railway" | "eb",
        /// A fortification or fortress garrison counter.
        Fortress = "fortress" | "fortification",
        /// A general and his staff.
        Headquarters = "headquarters" | "hq" | "general",
        /// SPI-H1: a dummy counter (Standard Game): a unit in every way but combat, where it is
        /// revealed and removed.
        Dummy = "dummy",
    }
}

vocab! {
    /// A unit's class or quality: Elite/Veteran/Line in Pickelhaube & Kepi (PK-C1), Elite/Normal/Poor in
    /// the Portable Wargame (PW-T2). The board games have none.
    Quality, "class" {
        /// Elite (both miniatures rule sets).
        Elite = "elite",
        /// Veteran (Pickelhaube & Kepi).
        Veteran = "veteran",
        /// Line (Pickelhaube & Kepi).
        Line = "line",
        /// Normal (Portable Wargame).
        Normal = "normal" | "average",
        /// Poor (Portable Wargame).
        Poor = "poor",
    }
}

vocab! {
    /// Small arms and guns of 1870 (PK-F1, PK-A1, GSP-A1).
    Weapon, "weapon" {
        /// French Chassepot rifle.
        Chassepot = "chassepot",
        /// Prussian Dreyse needle gun.
        NeedleGun = "needle-gun" | "dreyse" | "needle",
        /// Muzzle-loading rifle (gardes mobiles).
        Mlr = "mlr" | "muzzle-loading-rifle",
        /// Chassepot carbine (mounted).
        ChassepotCarbine = "chassepot-carbine",
        /// Needle carbine (mounted).
        NeedleCarbine = "needle-carbine",
        /// Muzzle-loading carbine.
        MlrCarbine = "mlr-carbine",
        /// Sabre.
        Sabre = "sabre" | "sword",
        /// Lance.
        Lance = "lance",
        /// Prussian 4-pounder C/64 (breech-loading rifled).
        Prussian4pdr = "prussian-4pdr" | "c64-4pdr",
        /// Prussian 6-pounder C/64 (breech-loading rifled).
        Prussian6pdr = "prussian-6pdr" | "c64-6pdr",
        /// French 4-pounder La Hitte (muzzle-loading rifled).
        French4pdr = "french-4pdr" | "la-hitte-4pdr",
        /// French 12-pounder (muzzle-loading rifled).
        French12pdr = "french-12pdr",
        /// Reffye mitrailleuse.
        Mitrailleuse = "mitrailleuse" | "reffye",
        /// Prussian siege gun (GSP-S1).
        SiegeGun = "siege-gun" | "siege",
    }
}

impl Weapon {
    /// The field armies' weapons: every small arm, edged weapon and field gun, the siege gun left
    /// out (GSP-S1 alone has one). The cards of P&K and the Portable Wargame offer these
    /// (issue 43), Graveyard St. Privat all of [`Weapon::ALL`].
    pub const FIELD: &'static [Weapon] = &[
        Weapon::Chassepot,
        Weapon::NeedleGun,
        Weapon::Mlr,
        Weapon::ChassepotCarbine,
        Weapon::NeedleCarbine,
        Weapon::MlrCarbine,
        Weapon::Sabre,
        Weapon::Lance,
        Weapon::Prussian4pdr,
        Weapon::Prussian6pdr,
        Weapon::French4pdr,
        Weapon::French12pdr,
        Weapon::Mitrailleuse,
    ];
}

vocab! {
    /// A unit's formation or order.
    Formation, "formation" {
        /// Line.
        Line = "line",
        /// Column (march or company columns).
        Column = "column",
        /// Attack column.
        AttackColumn = "attack-column",
        /// Skirmish order (also unlimbered guns in P&K, PK-A2).
        Skirmish = "skirmish" | "open-order",
        /// Square.
        Square = "square",
        /// Mounted.
        Mounted = "mounted",
        /// Dismounted.
        Dismounted = "dismounted",
        /// Limbered guns.
        Limbered = "limbered",
        /// Unlimbered guns.
        Unlimbered = "unlimbered",
        /// Concentrated (SPI-H2).
        Concentrated = "concentrated",
        /// Extended (SPI-H2).
        Extended = "extended",
    }
}

vocab! {
    /// Which way a unit faces: eight compass points (hex rule sets use the six that fit their grid).
    Facing, "facing" {
        /// North.
        N = "n" | "north",
        /// North-east.
        Ne = "ne" | "north-east",
        /// East.
        E = "e" | "east",
        /// South-east.
        Se = "se" | "south-east",
        /// South.
        S = "s" | "south",
        /// South-west.
        Sw = "sw" | "south-west",
        /// West.
        W = "w" | "west",
        /// North-west.
        Nw = "nw" | "north-west",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip() {
        let field: Vec<Weapon> = Weapon::ALL
            .iter()
            .copied()
            .filter(|w| *w != Weapon::SiegeGun)
            .collect();
        assert_eq!(Weapon::FIELD, field.as_slice());
        for w in Weapon::ALL {
            assert_eq!(w.as_str().parse::<Weapon>(), Ok(*w));
            assert_eq!(
                serde_json::to_string(w).unwrap(),
                format!("\"{}\"", w.as_str())
            );
        }
        assert_eq!("Prussian".parse::<Side>(), Ok(Side::German));
        let e = "dragoon".parse::<Arm>().unwrap_err();
        assert!(e.contains("accepted: infantry, cavalry"), "{e}");
    }
}
