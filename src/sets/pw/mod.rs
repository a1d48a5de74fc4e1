//! Portable Wargame, Franco-Prussian variant (seed 003), played on hexes: the unit table (PW-U1),
//! activation (PW-T2), artillery and rifle fire (PW-A1, PW-R1), melee (PW-X1), breaking off (PW-X2),
//! hits (PW-H1), army defeat (PW-V1), the turn sequence (PW-T1) and ranges in hexes (PW-G1).
//!
//! Every roll is one d6 against a target number with modifiers; each resolution maps the d6's exact
//! distribution through the same function that reads a rolled die, so preview and roll agree. The
//! positional rules (flank or rear, ranges, breaking off) use [`kepi_game::hex`]. Every number comes from
//! `tables/pw.toml` with its provenance.

pub mod card;
mod checklist;
mod checks;
pub mod form;
pub mod grammar;
pub mod outcome;
#[cfg(feature = "gui")]
pub mod panel;
mod resolve;
pub mod set;
mod state;
pub mod verbs;

pub use resolve::{
    ActivationInput, ActivationOutcome, ArtilleryInput, DefeatInput, DefeatOutcome, FireOutcome,
    FirstSideOutcome, MeleeInput, MeleeOutcome, RifleInput, activate, artillery, defeat,
    first_side, melee, melee_hits, rifle,
};
pub use state::{
    BreakOff, HitCause, HitChoice, MeleeGround, Phase, PwUnit, Side, TurnClock, apply_hit,
    artillery_input, break_off, hit_choices, in_range, melee_inputs, rifle_input,
};

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use kepi_game::tables::{Check, RuleTable, Sourced, TableError};

/// Declares a closed vocabulary: an enum with `ALL`, `as_str`, `Display`, `FromStr` and serde, all
/// spelling each value the same kebab-case way.
macro_rules! vocab {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $v:ident => $s:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum $name {
            $($(#[$vm])* #[serde(rename = $s)] $v),+
        }

        impl $name {
            /// Every value, in menu order.
            pub const ALL: &'static [$name] = &[$($name::$v),+];

            /// The kebab-case name used in files, JSON and on the command line.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$v => $s),+
                }
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
                        let names: Vec<&str> = $name::ALL.iter().map(|v| v.as_str()).collect();
                        format!("unknown value `{s}` (accepted: {})", names.join(", "))
                    })
            }
        }
    };
}
pub(crate) use vocab;

vocab! {
    /// PW-T2: whose staff work a unit's activation depends on.
    Army {
        /// Prussians: activate on 2+.
        Prussian => "prussian",
        /// Garibaldi's Redshirts: activate on 2+.
        Garibaldi => "garibaldi",
        /// The French (Imperial or Republican): 3+.
        French => "french",
        /// Non-Prussian Germans (Bavarians, Saxons, Württembergers, Badeners...): 3+.
        German => "german",
    }
}

vocab! {
    /// PW-T2: a unit's quality.
    Quality {
        /// +1 to the activation roll.
        Elite => "elite",
        /// No modifier.
        Normal => "normal",
        /// -1 to the activation roll.
        Poor => "poor",
    }
}

vocab! {
    /// PW-A1: whose guns (the army modifier and, with PW-U1, the range).
    Gunnery {
        /// Prussian guns: +1, range 12.
        Prussian => "prussian",
        /// French Imperial guns: -1, range 6.
        FrenchImperial => "french-imperial",
        /// French Republican guns: range 9.
        FrenchRepublican => "french-republican",
        /// Non-Prussian German guns: range 9.
        German => "german",
    }
}

vocab! {
    /// PW-X1: the three arms.
    UnitKind {
        /// Infantry.
        Infantry => "infantry",
        /// Cavalry.
        Cavalry => "cavalry",
        /// Artillery.
        Artillery => "artillery",
    }
}

vocab! {
    /// PW-U1: the rows of the unit table.
    UnitType {
        /// French infantry: SP 4, move 2, range 4.
        FrenchInfantry => "french-infantry",
        /// German infantry: SP 4, move 2, range 3.
        GermanInfantry => "german-infantry",
        /// Cavalry (either side): SP 2, move 3, no fire.
        Cavalry => "cavalry",
        /// French Imperial artillery: SP 4, move 2, range 6.
        FrenchImperialArtillery => "french-imperial-artillery",
        /// French Republican artillery: SP 4, move 2, range 9.
        FrenchRepublicanArtillery => "french-republican-artillery",
        /// Non-Prussian German artillery: SP 4, move 2, range 9.
        GermanArtillery => "german-artillery",
        /// Prussian artillery: SP 4, move 2, range 12.
        PrussianArtillery => "prussian-artillery",
    }
}

impl UnitType {
    /// The arm this type fights as.
    pub fn kind(self) -> UnitKind {
        match self {
            UnitType::FrenchInfantry | UnitType::GermanInfantry => UnitKind::Infantry,
            UnitType::Cavalry => UnitKind::Cavalry,
            UnitType::FrenchImperialArtillery
            | UnitType::FrenchRepublicanArtillery
            | UnitType::GermanArtillery
            | UnitType::PrussianArtillery => UnitKind::Artillery,
        }
    }

    /// The guns' army for PW-A1 (None for infantry and cavalry).
    pub fn gunnery(self) -> Option<Gunnery> {
        match self {
            UnitType::FrenchImperialArtillery => Some(Gunnery::FrenchImperial),
            UnitType::FrenchRepublicanArtillery => Some(Gunnery::FrenchRepublican),
            UnitType::GermanArtillery => Some(Gunnery::German),
            UnitType::PrussianArtillery => Some(Gunnery::Prussian),
            _ => None,
        }
    }
}

impl Gunnery {
    /// The unit-table row of these guns (PW-U1).
    pub fn unit_type(self) -> UnitType {
        match self {
            Gunnery::Prussian => UnitType::PrussianArtillery,
            Gunnery::FrenchImperial => UnitType::FrenchImperialArtillery,
            Gunnery::FrenchRepublican => UnitType::FrenchRepublicanArtillery,
            Gunnery::German => UnitType::GermanArtillery,
        }
    }
}

/// One row of the unit table (PW-U1).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitRow {
    /// Strength points at full strength.
    pub sp: Sourced<i64>,
    /// Move, in hexes (PW-G1).
    #[serde(rename = "move")]
    pub move_hexes: Sourced<i64>,
    /// Weapon range, in hexes (0: does not fire).
    pub range: Sourced<i64>,
}

/// PW-U1: the unit table, one row per [`UnitType`].
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct UnitTable {
    /// French infantry.
    pub french_infantry: UnitRow,
    /// German infantry.
    pub german_infantry: UnitRow,
    /// Cavalry.
    pub cavalry: UnitRow,
    /// French Imperial artillery.
    pub french_imperial_artillery: UnitRow,
    /// French Republican artillery.
    pub french_republican_artillery: UnitRow,
    /// Non-Prussian German artillery.
    pub german_artillery: UnitRow,
    /// Prussian artillery.
    pub prussian_artillery: UnitRow,
}

impl UnitTable {
    /// The row of one type.
    pub fn row(&self, t: UnitType) -> &UnitRow {
        match t {
            UnitType::FrenchInfantry => &self.french_infantry,
            UnitType::GermanInfantry => &self.german_infantry,
            UnitType::Cavalry => &self.cavalry,
            UnitType::FrenchImperialArtillery => &self.french_imperial_artillery,
            UnitType::FrenchRepublicanArtillery => &self.french_republican_artillery,
            UnitType::GermanArtillery => &self.german_artillery,
            UnitType::PrussianArtillery => &self.prussian_artillery,
        }
    }
}

/// PW-T2: activation thresholds and quality modifiers.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ActivationTable {
    /// Prussians need this score.
    pub prussian: Sourced<i64>,
    /// Garibaldi's Redshirts need this score.
    pub garibaldi: Sourced<i64>,
    /// Everyone else, non-Prussian Germans too.
    pub others: Sourced<i64>,
    /// Elite modifier to the roll.
    pub elite: Sourced<i64>,
    /// Poor modifier to the roll.
    pub poor: Sourced<i64>,
}

impl ActivationTable {
    /// The score an army's units need.
    pub fn needs(&self, army: Army) -> &Sourced<i64> {
        match army {
            Army::Prussian => &self.prussian,
            Army::Garibaldi => &self.garibaldi,
            Army::French | Army::German => &self.others,
        }
    }
}

/// The strength-point thresholds of fire and melee ("more than 3", "fewer than 3", cavalry "fewer
/// than 2").
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct StrengthTable {
    /// More than this many SP is strong.
    pub strong_above: Sourced<i64>,
    /// Fewer than this many SP is weak.
    pub weak_below: Sourced<i64>,
    /// Cavalry with fewer than this many SP is weak in melee.
    pub cavalry_weak_below: Sourced<i64>,
}

/// PW-A1: artillery fire.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ArtilleryTable {
    /// Score needed for a hit.
    pub needs: Sourced<i64>,
    /// Prussian guns.
    pub prussian: Sourced<i64>,
    /// French Imperial guns.
    pub french_imperial: Sourced<i64>,
    /// Target in cover.
    pub target_cover: Sourced<i64>,
    /// Firers with more than 3 SP.
    pub strong: Sourced<i64>,
    /// Firers with fewer than 3 SP.
    pub weak: Sourced<i64>,
}

/// PW-R1: rifle fire.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RifleTable {
    /// Score needed for a hit.
    pub needs: Sourced<i64>,
    /// Firers moved this turn.
    pub moved: Sourced<i64>,
    /// Target in cover.
    pub target_cover: Sourced<i64>,
    /// Firers with more than 3 SP.
    pub strong: Sourced<i64>,
    /// Firers with fewer than 3 SP.
    pub weak: Sourced<i64>,
}

/// PW-X1: one row of the type-against-type modifiers (the unit rolling against each enemy arm).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VersusRow {
    /// Against infantry.
    pub infantry: Sourced<i64>,
    /// Against cavalry.
    pub cavalry: Sourced<i64>,
    /// Against artillery.
    pub artillery: Sourced<i64>,
}

impl VersusRow {
    /// The modifier against one arm.
    pub fn against(&self, enemy: UnitKind) -> &Sourced<i64> {
        match enemy {
            UnitKind::Infantry => &self.infantry,
            UnitKind::Cavalry => &self.cavalry,
            UnitKind::Artillery => &self.artillery,
        }
    }
}

/// PW-X1: the type-against-type modifiers, by the arm rolling.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VersusTable {
    /// Infantry rolling.
    pub infantry: VersusRow,
    /// Cavalry rolling.
    pub cavalry: VersusRow,
    /// Artillery rolling.
    pub artillery: VersusRow,
}

impl VersusTable {
    /// The modifier for `unit` fighting `enemy`.
    pub fn get(&self, unit: UnitKind, enemy: UnitKind) -> &Sourced<i64> {
        match unit {
            UnitKind::Infantry => self.infantry.against(enemy),
            UnitKind::Cavalry => self.cavalry.against(enemy),
            UnitKind::Artillery => self.artillery.against(enemy),
        }
    }
}

/// PW-X1: melee.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct MeleeTable {
    /// Score needed for one hit.
    pub needs: Sourced<i64>,
    /// Modified score for two hits.
    pub two_hits_at: Sourced<i64>,
    /// Attacking in flank or rear.
    pub attacking_flank: Sourced<i64>,
    /// Being attacked in flank or rear.
    pub attacked_flank: Sourced<i64>,
    /// Enemy uphill.
    pub enemy_uphill: Sourced<i64>,
    /// Enemy in cover.
    pub enemy_cover: Sourced<i64>,
    /// Infantry or artillery with more than 3 SP.
    pub strong: Sourced<i64>,
    /// Infantry or artillery with fewer than 3 SP.
    pub weak: Sourced<i64>,
    /// Cavalry with fewer than 2 SP.
    pub cavalry_weak: Sourced<i64>,
    /// Arm against arm.
    pub versus: VersusTable,
}

/// PW-T1: how the first side is diced for.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct TurnTable {
    /// Side A goes first on a d6 of this or less (house: the seed gives no method).
    pub first_a_up_to: Sourced<i64>,
}

/// The Portable Wargame tables (`tables/pw.toml`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PwTables {
    /// The rule set id, "pw".
    pub system: String,
    /// PW-U1.
    pub units: UnitTable,
    /// PW-T2.
    pub activation: ActivationTable,
    /// Strength thresholds (PW-A1, PW-R1, PW-X1).
    pub strength: StrengthTable,
    /// PW-A1.
    pub artillery: ArtilleryTable,
    /// PW-R1.
    pub rifle: RifleTable,
    /// PW-X1.
    pub melee: MeleeTable,
    /// PW-T1.
    pub turn: TurnTable,
}

impl RuleTable for PwTables {
    const FILE: &'static str = "pw.toml";
    const BUILTIN: &'static str = include_str!("../../../tables/pw.toml");

    fn validate(&self, check: &Check<'_>) -> Result<(), TableError> {
        if self.system != "pw" {
            return Err(check.error(
                0..0,
                "system",
                format!("`{}` is not this file's rule set", self.system),
                "pw",
            ));
        }
        for t in UnitType::ALL {
            let row = self.units.row(*t);
            let name = t.as_str();
            check.range(&row.sp, &format!("units.{name}.sp"), 1, 20)?;
            check.range(&row.move_hexes, &format!("units.{name}.move"), 0, 20)?;
            check.range(&row.range, &format!("units.{name}.range"), 0, 50)?;
        }
        let a = &self.activation;
        for (v, f) in [
            (&a.prussian, "activation.prussian"),
            (&a.garibaldi, "activation.garibaldi"),
            (&a.others, "activation.others"),
        ] {
            check.range(v, f, 1, 7)?;
        }
        for (v, f) in [(&a.elite, "activation.elite"), (&a.poor, "activation.poor")] {
            check.range(v, f, -6, 6)?;
        }
        let s = &self.strength;
        check.range(&s.strong_above, "strength.strong-above", 0, 20)?;
        check.range(&s.weak_below, "strength.weak-below", 0, 20)?;
        check.range(&s.cavalry_weak_below, "strength.cavalry-weak-below", 0, 20)?;
        let art = &self.artillery;
        check.range(&art.needs, "artillery.needs", 1, 12)?;
        let rif = &self.rifle;
        check.range(&rif.needs, "rifle.needs", 1, 12)?;
        let m = &self.melee;
        check.range(&m.needs, "melee.needs", 1, 12)?;
        check.range(&m.two_hits_at, "melee.two-hits-at", m.needs.v(), 20)?;
        let mods: [(&Sourced<i64>, &str); 14] = [
            (&art.prussian, "artillery.prussian"),
            (&art.french_imperial, "artillery.french-imperial"),
            (&art.target_cover, "artillery.target-cover"),
            (&art.strong, "artillery.strong"),
            (&art.weak, "artillery.weak"),
            (&rif.moved, "rifle.moved"),
            (&rif.target_cover, "rifle.target-cover"),
            (&rif.strong, "rifle.strong"),
            (&rif.weak, "rifle.weak"),
            (&m.attacking_flank, "melee.attacking-flank"),
            (&m.attacked_flank, "melee.attacked-flank"),
            (&m.enemy_uphill, "melee.enemy-uphill"),
            (&m.enemy_cover, "melee.enemy-cover"),
            (&m.strong, "melee.strong"),
        ];
        for (v, f) in mods {
            check.range(v, f, -6, 6)?;
        }
        check.range(&m.weak, "melee.weak", -6, 6)?;
        check.range(&m.cavalry_weak, "melee.cavalry-weak", -6, 6)?;
        for u in UnitKind::ALL {
            for e in UnitKind::ALL {
                check.range(
                    m.versus.get(*u, *e),
                    &format!("melee.versus.{u}.{e}"),
                    -6,
                    6,
                )?;
            }
        }
        check.range(&self.turn.first_a_up_to, "turn.first-a-up-to", 0, 6)?;
        Ok(())
    }
}

impl PwTables {
    /// PW-U1: the row of one unit type.
    pub fn unit(&self, t: UnitType) -> &UnitRow {
        self.units.row(t)
    }
}

/// Portable Wargame, Franco-Prussian variant (d6, hexes). Its id, what saves and cards carry as `system`.
pub const ID: kepi_game::rules::RuleSetId = kepi_game::rules::RuleSetId::new_registered("pw");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_loads() {
        let t = kepi_game::tables::builtin::<crate::pw::PwTables>();
        assert_eq!(t.unit(UnitType::PrussianArtillery).range.v(), 12);
    }

    #[test]
    fn vocab_round_trips() {
        for t in UnitType::ALL {
            assert_eq!(t.as_str().parse::<UnitType>(), Ok(*t));
            let j = serde_json::to_string(t).unwrap();
            assert_eq!(j, format!("\"{}\"", t.as_str()));
        }
        assert!(
            "hussars"
                .parse::<UnitKind>()
                .unwrap_err()
                .contains("infantry")
        );
    }
}
