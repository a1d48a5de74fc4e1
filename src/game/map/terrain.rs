//! A terrain table: the names a map's cells and hexsides may carry, each with its movement and
//! combat effects as the text prints them, and where each effect comes from.
//!
//! A rule set declares its own ([`crate::engine::rule_set::RuleSet::terrain_table`]: SPI's Terrain
//! Effects Chart, SPI-M1 and SPI-C5; the Portable Wargame's cover and uphill, PW-R1 and PW-X1). A
//! map may add the club's own entries (`[[terrain]]`, provenance `club`): 1870's Terrain Table is
//! not in the text (FR-M1), so without the club's entries its effects are `unknown`. No effect is
//! ever invented: one the text does not print is [`Source::Unknown`].

use std::fmt;

use serde::Serialize;

use crate::tables::Provenance;

/// Where a terrain effect (or a map) comes from: RULES.md's four provenances, plus the club's own
/// data (DESIGN.md, "The club's own data").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// Printed in the rule text.
    Seed,
    /// Computed from the rule text (the note says how).
    Derived,
    /// kepi's own (its example maps): not a publisher's.
    House,
    /// The club's own: entered by the club from its printed board or chart.
    Club,
    /// Imported from the club's VASSAL module (`kepi map import-vassal`): the grid and picture
    /// from the module, the rest the club's to paint (a map's provenance only).
    Vassal,
    /// Not known: the text does not print it and nobody entered it.
    Unknown,
}

impl Source {
    /// All six, in order of trust.
    pub const ALL: [Source; 6] = [
        Source::Seed,
        Source::Derived,
        Source::House,
        Source::Club,
        Source::Vassal,
        Source::Unknown,
    ];

    /// The word used in files and JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Seed => "seed",
            Source::Derived => "derived",
            Source::House => "house",
            Source::Club => "club",
            Source::Vassal => "vassal",
            Source::Unknown => "unknown",
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<Provenance> for Source {
    fn from(p: Provenance) -> Source {
        match p {
            Provenance::Seed => Source::Seed,
            Provenance::Derived => Source::Derived,
            Provenance::House => Source::House,
            Provenance::Unknown => Source::Unknown,
        }
    }
}

/// What a terrain entry is drawn on: a whole cell (clear, rough) or the side between two cells
/// (river, ridge).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Applies {
    /// A cell's terrain (`[cells]` and `default_terrain` name these).
    Cell,
    /// A hexside feature (`[[river]]`, `[[ridge]]`... take their effects from these).
    Hexside,
}

impl Applies {
    /// The word used in files and JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Applies::Cell => "cell",
            Applies::Hexside => "hexside",
        }
    }
}

impl fmt::Display for Applies {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One effect of a terrain (on movement, on combat, or other), in the text's words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Effect {
    /// What it does, as the text (or the club) words it.
    pub text: String,
    /// Where it comes from.
    pub provenance: Source,
}

impl Effect {
    /// An effect printed in the rule text.
    pub fn seed(text: impl Into<String>) -> Effect {
        Effect {
            text: text.into(),
            provenance: Source::Seed,
        }
    }

    /// An effect computed from the rule text (`text` says how).
    pub fn derived(text: impl Into<String>) -> Effect {
        Effect {
            text: text.into(),
            provenance: Source::Derived,
        }
    }

    /// An effect the text does not print: `why` says where it would be.
    pub fn unknown(why: impl Into<String>) -> Effect {
        Effect {
            text: why.into(),
            provenance: Source::Unknown,
        }
    }
}

/// Where a terrain entry was declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Declared {
    /// In the rule set's own terrain table.
    Rules,
    /// In the map file (`[[terrain]]`, the club's own).
    Map,
}

/// One terrain: its name, what it is drawn on and its effects.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Terrain {
    /// The name maps use (`rough`, `river`): lower case.
    pub name: String,
    /// A cell's terrain or a hexside feature.
    pub applies: Applies,
    /// A colour hint for drawing it (`#rrggbb`), where one is given.
    pub colour: Option<String>,
    /// Its effect on movement.
    pub movement: Effect,
    /// Its effect on combat.
    pub combat: Effect,
    /// Any other effect the text prints (SPI: "Zones of Control do not extend through river
    /// hexsides"), where it prints one.
    pub other: Option<Effect>,
    /// The movement points (1870: potentials) it costs where the text gives one number: to enter
    /// a cell, or added to cross a hexside. None where the cost is not one number.
    pub mp: Option<u32>,
    /// The rule id the entry comes from (RULES.md: `SPI-M1`), where there is one.
    pub rule: Option<String>,
    /// Whose table declared it.
    pub declared: Declared,
}

/// A rule set's terrain table, or a map's table with the club's entries added.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TerrainTable {
    /// The table's name as the text calls it ("Terrain Effects Chart").
    pub title: String,
    /// The rule id of the table (`SPI-M1`), where there is one.
    pub rule: Option<String>,
    /// Its entries, cells first as declared.
    pub entries: Vec<Terrain>,
}

impl TerrainTable {
    /// The entry of this name drawn on `applies`, if the table has it.
    pub fn get(&self, name: &str, applies: Applies) -> Option<&Terrain> {
        self.entries
            .iter()
            .find(|t| t.name == name && t.applies == applies)
    }

    /// The names of the entries drawn on `applies`, in the table's order.
    pub fn names(&self, applies: Applies) -> Vec<&str> {
        self.entries
            .iter()
            .filter(|t| t.applies == applies)
            .map(|t| t.name.as_str())
            .collect()
    }
}
