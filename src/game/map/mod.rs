//! The board as data (issue 41): a club's map of its printed board, read from a documented TOML
//! file (docs/MAPS.md) and checked into a [`Map`] that knows every cell.
//!
//! The file is read raw (`raw.rs`, serde with every value's place in the file) and then checked
//! (`check.rs`, shakmaty's `Setup` -> `Position`): the grid in the rule set's numbering, each
//! cell's terrain by the names of the rule set's terrain table ([`TerrainTable`], declared by the
//! set, `RuleSet::terrain_table`) or the club's own `[[terrain]]` entries, hexside features
//! (river, bridge, rail with its section and capacity, road, border, ridge), places, countries,
//! the edges' roles and the victory values, and who drew it from what. Whatever is wrong is a
//! [`MapError`] naming the file, line, field and the accepted values; a file from outside is read
//! with a size cap as a regular file only ([`crate::fsio::read_regular_string`]); nothing panics.
//!
//! kepi ships no publisher's map: its examples (`maps/`, [`BUILTIN`]) are its own, `house`.
//!
//! This module uses only the hex geometry, the tables' provenance and errors, the file reader and
//! the rules' vocabulary (the rule set's id, read and asked through its registered set): it names
//! no rule set.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use std::str::FromStr;

use serde::Serialize;

use crate::hex::{Direction, Hex, Hexside, Layout, Offset};
use crate::rules::RuleSetId;
use crate::tables::TableError;

mod carried;
mod check;
pub mod edit;
pub mod picture;
mod raw;
pub mod reach;
mod report;
pub mod supply;
pub mod terrain;
pub mod vassal;
pub mod write;

pub use carried::{MapFile, text_sha256};
pub use picture::{Alignment, Picture};
pub use reach::{
    EnemyAt, FirstOnly, FriendAt, MoveRules, OffMap, Reach, Reached, StackRules, Units, Unknown,
    ZocRules, controlled, reach, reach_under,
};
pub use report::{CellView, MapView};
pub use terrain::{Applies, Declared, Effect, Source, Terrain, TerrainTable};

/// A map that could not be read: file, line, column, field, what is wrong and what is accepted
/// (the tables' and cards' error, so every data file of kepi speaks alike).
pub type MapError = TableError;

/// The largest map file kepi reads.
pub const MAX_MAP_BYTES: u64 = 4 * 1024 * 1024;

/// kepi's own example maps, compiled in (house provenance; not a publisher's map): (name, TOML).
/// `kepi map check example-hex` finds them by name where no file of that name is there.
pub const BUILTIN: &[(&str, &str)] = &[
    (
        "example-hex",
        include_str!("../../../maps/example-hex.toml"),
    ),
    (
        "example-1870",
        include_str!("../../../maps/example-1870.toml"),
    ),
    ("example-pw", include_str!("../../../maps/example-pw.toml")),
];

/// Declares a closed vocabulary: an enum with `ALL`, `as_str`, `Display`, `FromStr` (the error
/// lists the accepted words) and a lower-case JSON form.
macro_rules! vocabulary {
    ($(#[$m:meta])* $name:ident, $what:literal { $($(#[$vm:meta])* $v:ident = $s:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
        pub enum $name {
            $($(#[$vm])* #[serde(rename = $s)] $v),+
        }

        impl $name {
            /// Every value, in the order files and output list them.
            pub const ALL: &'static [$name] = &[$($name::$v),+];

            /// The word used in files and JSON.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$v => $s),+
                }
            }

            /// The accepted words, comma separated (for errors).
            pub fn accepted() -> String {
                Self::ALL.iter().map(|v| v.as_str()).collect::<Vec<_>>().join(", ")
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
                Self::ALL
                    .iter()
                    .copied()
                    .find(|v| v.as_str() == t)
                    .ok_or_else(|| format!("unknown {} `{s}`", $what))
            }
        }
    };
}

vocabulary! {
    /// A cell's country (SPI-L1 and SPI-S2: home countries for rail and supply; SPI-M1: Belgium
    /// and Luxembourg closed in the Basic Game).
    Country, "country" {
        /// France.
        France = "france",
        /// Germany (Prussia and its allies).
        Germany = "germany",
        /// Belgium.
        Belgium = "belgium",
        /// Luxembourg.
        Luxembourg = "luxembourg",
        /// Switzerland.
        Switzerland = "switzerland",
        /// The sea (1870's sea routes, FR-K1).
        Sea = "sea",
    }
}

vocabulary! {
    /// A feature drawn on hexsides.
    Feature, "hexside feature" {
        /// A river (SPI-M1, SPI-C5, SPI-Z1).
        River = "river",
        /// A bridge across a river.
        Bridge = "bridge",
        /// A rail line (SPI-L1; 1870's sections with their capacity, FR-G1).
        Rail = "rail",
        /// A road.
        Road = "road",
        /// A border between countries.
        Border = "border",
        /// A ridge (SPI-C5).
        Ridge = "ridge",
    }
}

vocabulary! {
    /// What a place is (a cell may be several: a town and a port).
    PlaceKind, "place kind" {
        /// A town (SPI-I1's towns, where units start).
        Town = "town",
        /// A fortress (SPI-F1, FR-F1).
        Fortress = "fortress",
        /// A fortified camp (1870's French supply, FR-F4).
        FortifiedCamp = "fortified-camp",
        /// A port (1870's sea transport, FR-K1).
        Port = "port",
    }
}

vocabulary! {
    /// The part edge cells play.
    EdgeRole, "edge role" {
        /// A supply source (SPI-S2, FR-F4).
        Supply = "supply",
        /// Where reinforcements enter (SPI's "S" hex, SPI-I1).
        Entry = "entry",
        /// A rail line leaving the map, linked off the map at a distance (SPI-L1 case F).
        RailLink = "rail-link",
        /// A sea route off the map (FR-K1).
        SeaRoute = "sea-route",
    }
}

vocabulary! {
    /// The two sides of the board games.
    Side, "side" {
        /// The French player.
        French = "french",
        /// The German player.
        German = "german",
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
}

/// The board's grid: its numbering and its first and last column and row (so off-map is known).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Which columns sit half a cell lower (the rule set's numbering).
    pub layout: Layout,
    /// The first column and row.
    pub first: Offset,
    /// The last column and row.
    pub last: Offset,
}

impl Grid {
    /// How many columns.
    pub fn columns(&self) -> usize {
        (self.last.col - self.first.col + 1).max(0) as usize
    }

    /// How many rows.
    pub fn rows(&self) -> usize {
        (self.last.row - self.first.row + 1).max(0) as usize
    }

    /// How many cells.
    pub fn len(&self) -> usize {
        self.columns() * self.rows()
    }

    /// True when the grid has no cell (never, for a checked map).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// True when the cell at this column and row is on the map.
    pub fn holds(&self, o: Offset) -> bool {
        (self.first.col..=self.last.col).contains(&o.col)
            && (self.first.row..=self.last.row).contains(&o.row)
    }

    /// True when the hex is on the map.
    pub fn contains(&self, h: Hex) -> bool {
        self.holds(h.to_offset(self.layout))
    }

    /// The cell's place in grid order (column by column), None off the map.
    pub fn index(&self, h: Hex) -> Option<usize> {
        let o = h.to_offset(self.layout);
        self.holds(o).then(|| {
            (o.col - self.first.col) as usize * self.rows() + (o.row - self.first.row) as usize
        })
    }

    /// Every cell, column by column.
    pub fn cells(&self) -> impl Iterator<Item = Hex> + '_ {
        (self.first.col..=self.last.col).flat_map(move |col| {
            (self.first.row..=self.last.row)
                .map(move |row| Hex::from_offset(Offset { col, row }, self.layout))
        })
    }

    /// True when the cell is on the map's outer edge (first or last column or row).
    pub fn on_edge(&self, h: Hex) -> bool {
        let o = h.to_offset(self.layout);
        self.holds(o)
            && (o.col == self.first.col
                || o.col == self.last.col
                || o.row == self.first.row
                || o.row == self.last.row)
    }

    /// The cell's label ("0304"); off the board's numbering, its axial form.
    pub fn label(&self, h: Hex) -> String {
        h.label_or_axial(self.layout)
    }

    /// A hexside as `0304/0305` (its two cells, the owning cell first).
    pub fn side_label(&self, s: Hexside) -> String {
        let (a, b) = s.hexes();
        format!("{}/{}", self.label(a), self.label(b))
    }

    /// The first and last cell as `0101-1210`.
    pub fn span_label(&self) -> String {
        format!(
            "{:02}{:02}-{:02}{:02}",
            self.first.col, self.first.row, self.last.col, self.last.row
        )
    }
}

/// Who drew the map and from what (shown with it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MapSource {
    /// `house` (kepi's own) or `club` (the club's, from its printed board).
    pub source: Source,
    /// Who drew it.
    pub drawn_by: String,
    /// From what (the printed board, a scan, a VASSAL module...).
    pub from: String,
    /// Anything else worth saying.
    pub note: Option<String>,
}

/// One hexside feature entry: a river, a rail section... and the hexsides it runs along.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// What it is.
    pub feature: Feature,
    /// Its name (the Moselle), where given.
    pub name: Option<String>,
    /// A rail section's name (FR-G1), rail only.
    pub section: Option<String>,
    /// A rail section's capacity (FR-G1), rail only.
    pub capacity: Option<u32>,
    /// The hexsides, in the file's order.
    pub sides: Vec<Hexside>,
}

/// A named place on the map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// Its name as printed.
    pub name: String,
    /// Its cell.
    pub cell: Hex,
    /// What it is (one or more).
    pub kinds: Vec<PlaceKind>,
    /// A value the board prints for it (1870's fortress value, FR-F1), where given.
    pub value: Option<u32>,
}

/// Edge cells with a role.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    /// The role.
    pub role: EdgeRole,
    /// Whose it is, where it is one side's.
    pub side: Option<Side>,
    /// Its name, where given.
    pub name: Option<String>,
    /// Its cells.
    pub cells: Vec<Hex>,
    /// A rail link's off-map distance in cells (SPI-L1 case F); a sea route's where given.
    pub distance: Option<u32>,
    /// Where it leads, where given.
    pub to: Option<String>,
}

/// What a victory entry counts by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VictoryBy {
    /// A value per column (SPI-W1's penetration numbers).
    Columns(BTreeMap<i32, i64>),
    /// A value per row.
    Rows(BTreeMap<i32, i64>),
    /// One value for a line of cells (1870's Moselle line).
    Cells {
        /// The cells.
        cells: Vec<Hex>,
        /// The value.
        value: i64,
    },
}

/// Victory values printed on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Victory {
    /// Its name.
    pub name: String,
    /// Who scores it, where one side does.
    pub side: Option<Side>,
    /// Per column, per row or for a line of cells.
    pub by: VictoryBy,
}

impl Victory {
    /// The value this entry gives a cell, None where it gives none.
    pub fn value_at(&self, h: Hex, layout: Layout) -> Option<i64> {
        let o = h.to_offset(layout);
        match &self.by {
            VictoryBy::Columns(m) => m.get(&o.col).copied(),
            VictoryBy::Rows(m) => m.get(&o.row).copied(),
            VictoryBy::Cells { cells, value } => cells.contains(&h).then_some(*value),
        }
    }
}

/// One cell's data, kept densely in grid order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct CellData {
    /// Index into [`Map::terrain_names`].
    terrain: u16,
    country: Option<Country>,
}

/// The refusal of a map name that is neither a file nor one of kepi's own.
fn not_found(name: &str) -> MapError {
    let names: Vec<&str> = BUILTIN.iter().map(|(n, _)| *n).collect();
    TableError {
        file: name.to_string(),
        line: 0,
        column: 0,
        field: String::new(),
        message: "no such file".into(),
        accepted: format!(
            "a map file (docs/MAPS.md), or one of kepi's own: {}",
            names.join(", ")
        ),
    }
}

/// A checked map: every cell known, every name in the terrain table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    /// The file it was read from (`<built-in example-hex>` for kepi's own).
    pub file: String,
    /// Its name.
    pub name: String,
    /// A note about it, where given.
    pub note: Option<String>,
    /// The rule set it is drawn for.
    pub rules: RuleSetId,
    /// Its grid.
    pub grid: Grid,
    /// Who drew it, from what.
    pub provenance: MapSource,
    /// The terrain table in force: the rule set's entries, then the club's from the file.
    pub terrain: TerrainTable,
    /// False when neither the rule set nor the file gives a terrain table: names are then not
    /// checked and every effect is unknown (1870 without the club's table, FR-M1).
    pub terrain_checked: bool,
    /// The terrain of every cell not listed.
    pub default_terrain: String,
    terrain_names: Vec<String>,
    cells: Vec<CellData>,
    /// The hexside features, in the file's order.
    pub lines: Vec<Line>,
    by_side: BTreeMap<Hexside, Vec<usize>>,
    /// The places, in the file's order.
    pub places: Vec<Place>,
    /// The edges' roles, in the file's order.
    pub edges: Vec<Edge>,
    /// The victory values, in the file's order.
    pub victory: Vec<Victory>,
    /// The picture of the printed board under the grid and how the grid lies on it (`[picture]`),
    /// where given. Only its numbers: the image is read by the window ([`picture::load_image`]).
    pub picture: Option<Picture>,
}

impl Map {
    /// Reads and checks a map's text; `file` names it in errors.
    pub fn from_source(file: &str, src: &str) -> Result<Map, MapError> {
        check::check(file, src)
    }

    /// Reads and checks a map file: a regular UTF-8 file of at most [`MAX_MAP_BYTES`].
    pub fn load(path: &Path) -> Result<Map, MapError> {
        let src = carried::read(path)?;
        Map::from_source(&path.display().to_string(), &src)
    }

    /// What a command names: a file that is there, else one of kepi's own maps by name
    /// ([`BUILTIN`]); neither is an error naming the file and the built-in names.
    pub fn named(name: &str) -> Result<Map, MapError> {
        let path = Path::new(name);
        if crate::fsio::present(path) {
            return Map::load(path);
        }
        if let Some((n, src)) = BUILTIN.iter().find(|(n, _)| *n == name.trim()) {
            return Map::from_source(&format!("<built-in {n}>"), src);
        }
        Err(not_found(name))
    }

    /// True when the cell is on the map.
    pub fn on_map(&self, h: Hex) -> bool {
        self.grid.contains(h)
    }

    /// The cell's terrain name, None off the map.
    pub fn terrain_of(&self, h: Hex) -> Option<&str> {
        let c = self.cells.get(self.grid.index(h)?)?;
        self.terrain_names
            .get(c.terrain as usize)
            .map(String::as_str)
    }

    /// The cell's terrain entry with its effects, None off the map or where the table has none.
    pub fn terrain_entry(&self, h: Hex) -> Option<&Terrain> {
        self.terrain.get(self.terrain_of(h)?, Applies::Cell)
    }

    /// The cell's country, None off the map or where the file gives none.
    pub fn country_of(&self, h: Hex) -> Option<Country> {
        self.cells.get(self.grid.index(h)?)?.country
    }

    /// The features on one hexside.
    pub fn features_on(&self, side: Hexside) -> Vec<&Line> {
        self.by_side
            .get(&side)
            .map(|v| v.iter().filter_map(|i| self.lines.get(*i)).collect())
            .unwrap_or_default()
    }

    /// True when `feature` runs along one of `h`'s six sides (a rail hex: SPI-E2, FR-G1).
    pub fn touches(&self, h: Hex, feature: Feature) -> bool {
        Direction::ALL.into_iter().any(|d| {
            self.features_on(Hexside::new(h, d))
                .iter()
                .any(|l| l.feature == feature)
        })
    }

    /// True when `feature` runs along the side between `a` and `b` (false when not adjacent).
    pub fn side_has(&self, a: Hex, b: Hex, feature: Feature) -> bool {
        Hexside::between(a, b)
            .is_some_and(|s| self.features_on(s).iter().any(|l| l.feature == feature))
    }

    /// The cells of the fewest along hexsides that carry `feature` from `from` to `to`, `from`
    /// left out and `to` last (the first found, searching the six directions in order, where
    /// two ways are as short); empty when no such line joins them (or `from` is `to`). SPI-E2:
    /// an EB unit's way along a rail line; FR-G1 G3: the rail cells a unit passed over.
    pub fn way_along(&self, from: Hex, to: Hex, feature: Feature) -> Vec<Hex> {
        if from == to {
            return Vec::new();
        }
        let mut came: std::collections::HashMap<Hex, Hex> = std::collections::HashMap::new();
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(h) = queue.pop_front() {
            if h == to {
                let mut way = vec![h];
                let mut at = h;
                while let Some(prev) = came.get(&at).copied().filter(|p| *p != from) {
                    way.push(prev);
                    at = prev;
                }
                way.reverse();
                return way;
            }
            for d in Direction::ALL {
                let next = h.neighbour(d);
                if next == from
                    || came.contains_key(&next)
                    || !self.on_map(next)
                    || !self
                        .features_on(Hexside::new(h, d))
                        .iter()
                        .any(|l| l.feature == feature)
                {
                    continue;
                }
                came.insert(next, h);
                queue.push_back(next);
            }
        }
        Vec::new()
    }

    /// The features on each of a cell's six sides, clockwise from N.
    pub fn sides_of(&self, h: Hex) -> Vec<(Direction, Hexside, Vec<&Line>)> {
        Direction::ALL
            .into_iter()
            .map(|d| {
                let s = Hexside::new(h, d);
                (d, s, self.features_on(s))
            })
            .collect()
    }

    /// The places in a cell.
    pub fn places_at(&self, h: Hex) -> Vec<&Place> {
        self.places.iter().filter(|p| p.cell == h).collect()
    }

    /// The place of this name (case ignored).
    pub fn place_named(&self, name: &str) -> Option<&Place> {
        self.places
            .iter()
            .find(|p| p.name.eq_ignore_ascii_case(name.trim()))
    }

    /// The edge roles a cell has.
    pub fn edges_at(&self, h: Hex) -> Vec<&Edge> {
        self.edges.iter().filter(|e| e.cells.contains(&h)).collect()
    }

    /// The victory values a cell has: each entry that gives it one, with the value.
    pub fn victory_at(&self, h: Hex) -> Vec<(&Victory, i64)> {
        self.victory
            .iter()
            .filter_map(|v| v.value_at(h, self.grid.layout).map(|x| (v, x)))
            .collect()
    }

    /// How many cells have each terrain, in the order the table lists them (names the table
    /// does not list, when unchecked, after them by name); terrains with no cell left out.
    pub fn terrain_counts(&self) -> Vec<(&str, usize)> {
        let mut n = vec![0usize; self.terrain_names.len()];
        for c in &self.cells {
            if let Some(x) = n.get_mut(c.terrain as usize) {
                *x += 1;
            }
        }
        let mut out: Vec<(&str, usize)> = Vec::new();
        for t in self.terrain.names(Applies::Cell) {
            if let Some(i) = self.terrain_names.iter().position(|x| x == t)
                && n[i] > 0
            {
                out.push((t, n[i]));
            }
        }
        let mut rest: Vec<(&str, usize)> = self
            .terrain_names
            .iter()
            .zip(&n)
            .filter(|(name, k)| **k > 0 && !out.iter().any(|(o, _)| o == name))
            .map(|(name, k)| (name.as_str(), *k))
            .collect();
        rest.sort();
        out.extend(rest);
        out
    }

    /// How many cells each country has, in [`Country::ALL`]'s order, then the cells with none.
    pub fn country_counts(&self) -> (Vec<(Country, usize)>, usize) {
        let out: Vec<(Country, usize)> = Country::ALL
            .iter()
            .map(|c| {
                (
                    *c,
                    self.cells.iter().filter(|x| x.country == Some(*c)).count(),
                )
            })
            .filter(|(_, n)| *n > 0)
            .collect();
        let none = self.cells.iter().filter(|x| x.country.is_none()).count();
        (out, none)
    }

    /// The one-line summary `kepi map check` prints.
    pub fn summary(&self) -> String {
        let g = &self.grid;
        format!(
            "{}: ok: {} (rules {}): {} cells ({} x {}, {}); terrains {}{}; hexsides with features {}; places {}; edge roles {}; victory entries {}; drawn by {} ({})",
            self.file,
            self.name,
            self.rules,
            g.len(),
            g.columns(),
            g.rows(),
            g.span_label(),
            self.terrain_counts().len(),
            if self.terrain_checked {
                ""
            } else {
                " (names unchecked: no terrain table)"
            },
            self.by_side.len(),
            self.places.len(),
            self.edges.len(),
            self.victory.len(),
            self.provenance.drawn_by,
            self.provenance.source,
        )
    }
}
