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

    /// True when `feature` runs along the side between `a` and `b` (false when not adjacent).
    pub fn side_has(&self, a: Hex, b: Hex, feature: Feature) -> bool {
        Hexside::between(a, b)
            .is_some_and(|s| self.features_on(s).iter().any(|l| l.feature == feature))
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

/// The map file read and checked: kepi's own examples, the queries, and every malformed case
/// refused with its file, line, field and accepted values. (Inline, as a rule set's own tests are:
/// a test map names the rule set it is drawn for.)
#[cfg(test)]
mod tests {
    use super::*;

    /// A small SPI map: lines 1-11; a test appends from line 12 on.
    const BASE: &str = r#"[map]
    name = "test board"
    rules = "spi"
    first = "0101"
    last = "0505"
    default_terrain = "clear"

    [provenance]
    source = "club"
    drawn_by = "the club"
    from = "our printed board"
    "#;

    fn with(extra: &str) -> Result<Map, MapError> {
        Map::from_source("t.toml", &format!("{BASE}{extra}"))
    }

    /// The error for `extra` appended to [`BASE`].
    fn refused(extra: &str) -> MapError {
        match with(extra) {
            Ok(_) => panic!("accepted:\n{extra}"),
            Err(e) => e,
        }
    }

    fn hex(label: &str, layout: Layout) -> Hex {
        Hex::from_label(label, layout).unwrap()
    }

    #[test]
    fn kepis_own_maps_read() {
        for (name, _) in BUILTIN {
            let m = Map::named(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(m.provenance.source, Source::House, "{name}");
            assert!(m.summary().contains(": ok: "), "{}", m.summary());
        }
    }

    #[test]
    fn the_example_board_knows_every_cell() {
        let m = Map::named("example-hex").unwrap();
        let l = m.grid.layout;
        assert_eq!(m.rules.id(), "spi");
        assert_eq!(l, Layout::OddQ);
        assert_eq!(
            (m.grid.columns(), m.grid.rows(), m.grid.len()),
            (12, 10, 120)
        );
        // rough: 0203-0305 (2 x 3), 0807-0909 (2 x 3) and 1102.
        assert_eq!(m.terrain_counts(), vec![("clear", 107), ("rough", 13)]);
        let rough = m.terrain_entry(hex("0204", l)).unwrap();
        assert_eq!(rough.name, "rough");
        assert_eq!(rough.movement.provenance, Source::Seed);
        assert_eq!(rough.rule.as_deref(), Some("SPI-M1"));
        assert!(rough.combat.text.contains("[cut]"), "SPI-C5: cut text kept");
        assert_eq!(m.terrain_of(hex("0101", l)), Some("clear"));
        assert_eq!(m.terrain_of(hex("1301", l)), None, "off the map");
        assert_eq!(m.country_of(hex("0101", l)), Some(Country::Belgium));
        assert_eq!(m.country_of(hex("1205", l)), Some(Country::Germany));
        assert_eq!(m.country_of(hex("1001", l)), Some(Country::Luxembourg));
        assert_eq!(m.country_of(hex("0505", l)), Some(Country::France));
        let v = m.places_at(hex("0605", l));
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].kinds, vec![PlaceKind::Town, PlaceKind::Fortress]);
        // The river runs between columns 06 and 07; the rail crosses it on the bridge.
        let (a, b) = (hex("0605", l), hex("0705", l));
        assert!(m.side_has(a, b, Feature::River));
        assert!(m.side_has(a, b, Feature::Bridge));
        assert!(m.side_has(a, b, Feature::Rail));
        assert!(!m.side_has(hex("0604", l), hex("0605", l), Feature::River));
        let rails: Vec<_> = m
            .lines
            .iter()
            .filter(|x| x.feature == Feature::Rail)
            .collect();
        assert_eq!(rails.len(), 2);
        assert_eq!(rails[1].section.as_deref(), Some("Vieuxbourg - Neudorf"));
        assert_eq!(rails[1].sides.len(), 6);
        let edges = m.edges_at(hex("0105", l));
        assert!(
            edges
                .iter()
                .any(|e| e.role == EdgeRole::RailLink && e.distance == Some(6))
        );
        let vp = m.victory_at(hex("0305", l));
        assert_eq!(vp.len(), 1);
        assert_eq!(vp[0].1, 40);
        assert!(m.victory_at(hex("0705", l)).is_empty());
    }

    #[test]
    fn a_cell_view_names_its_sides_and_effects() {
        let m = Map::named("example-hex").unwrap();
        let v = m.cell_view(hex("0605", Layout::OddQ)).unwrap();
        assert_eq!(v.cell, "0605");
        assert_eq!(v.terrain, "clear");
        assert_eq!(v.country, Some(Country::France));
        assert_eq!(v.sides.len(), 6);
        let se = v
            .sides
            .iter()
            .find(|s| s.direction == Direction::SE)
            .unwrap();
        assert_eq!(se.neighbour, "0705");
        let feats: Vec<Feature> = se.features.iter().map(|f| f.feature).collect();
        assert!(feats.contains(&Feature::River) && feats.contains(&Feature::Bridge));
        let river = se
            .features
            .iter()
            .find(|f| f.feature == Feature::River)
            .unwrap();
        assert!(
            river
                .effects
                .unwrap()
                .other
                .as_ref()
                .unwrap()
                .text
                .contains("Zones of Control")
        );
        let bridge = se
            .features
            .iter()
            .find(|f| f.feature == Feature::Bridge)
            .unwrap();
        assert!(bridge.effects.is_none(), "SPI's chart prints no bridge");
        assert!(m.cell_view(hex("1311", Layout::OddQ)).is_none());
    }

    #[test]
    fn the_1870_example_carries_the_clubs_table_with_unknown_effects() {
        let m = Map::named("example-1870").unwrap();
        assert_eq!(m.grid.layout, Layout::EvenQ, "FR numbering");
        assert!(m.terrain_checked);
        let forest = m.terrain_entry(hex("0302", Layout::EvenQ)).unwrap();
        assert_eq!(forest.declared, Declared::Map);
        assert_eq!(
            forest.movement.provenance,
            Source::Unknown,
            "FR-M1: never invented"
        );
        let rail = m.lines.iter().find(|l| l.feature == Feature::Rail).unwrap();
        assert_eq!(rail.capacity, Some(3));
        assert!(m.place_named("camp de vaux").unwrap().kinds == [PlaceKind::FortifiedCamp]);
        assert_eq!(m.place_named("Vieuxbourg").unwrap().value, Some(2));
        let line = m.victory_at(hex("0603", Layout::EvenQ));
        assert_eq!(line[0].1, 10);
    }

    #[test]
    fn without_any_terrain_table_names_are_free_and_effects_unknown() {
        let src = BASE.replace("\"spi\"", "\"fr1870\"") + "[cells]\nforet = [\"0102\"]\n";
        let m = Map::from_source("t.toml", &src).unwrap();
        assert!(!m.terrain_checked);
        assert_eq!(m.terrain_of(hex("0102", Layout::EvenQ)), Some("foret"));
        assert!(m.terrain_entry(hex("0102", Layout::EvenQ)).is_none());
        assert!(m.summary().contains("names unchecked"), "{}", m.summary());
    }

    #[test]
    fn the_pw_table_prints_cover_and_uphill_only() {
        let m = Map::named("example-pw").unwrap();
        let cover = m.terrain.get("cover", Applies::Cell).unwrap();
        assert_eq!(cover.combat.provenance, Source::Seed);
        assert_eq!(cover.movement.provenance, Source::Unknown);
        assert_eq!(
            m.terrain_entry(hex("0705", Layout::OddQ)).unwrap().name,
            "hill"
        );
    }

    #[test]
    fn an_unknown_terrain_names_line_field_and_the_accepted_names() {
        let e = refused("[cells]\nforest = [\"0101\"]\n");
        assert_eq!(
            (e.file.as_str(), e.line, e.field.as_str()),
            ("t.toml", 13, "cells.forest")
        );
        assert!(e.message.contains("unknown terrain `forest`"), "{e}");
        assert!(e.accepted.contains("clear, rough"), "{e}");
        let e = refused("[cells]\nriver = [\"0101\"]\n");
        assert!(e.message.contains("hexsides"), "{e}");
        let e = Map::from_source("t.toml", &BASE.replace("\"clear\"", "\"plain\"")).unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (6, "map.default_terrain"));
    }

    #[test]
    fn a_cell_off_the_grid_or_badly_written_is_refused() {
        let e = refused("[cells]\nrough = [\"0101\",\n  \"0606\"]\n");
        assert_eq!((e.line, e.field.as_str()), (14, "cells.rough[1]"));
        assert!(e.message.contains("off the map"), "{e}");
        assert!(e.accepted.contains("0101 to 0505"), "{e}");
        let e = refused("[cells]\nrough = [\"01x1\"]\n");
        assert_eq!((e.line, e.field.as_str()), (13, "cells.rough[0]"));
        assert!(e.message.contains("not a cell"), "{e}");
        let e = refused("[[place]]\nname = \"X\"\ncell = \"12345\"\nkind = \"town\"\n");
        assert_eq!((e.line, e.field.as_str()), (14, "place[0].cell"));
        assert!(e.accepted.contains("four-digit"), "{e}");
    }

    #[test]
    fn a_bad_range_is_refused() {
        let e = refused("[cells]\nrough = [\"0303-0101\"]\n");
        assert_eq!((e.line, e.field.as_str()), (13, "cells.rough[0]"));
        assert!(e.message.contains("not a block"), "{e}");
        let e = refused("[cells]\nrough = [\"0101-0909\"]\n");
        assert!(e.message.contains("off the map at 0909"), "{e}");
        let e = Map::from_source(
            "t.toml",
            &BASE.replace("last = \"0505\"", "last = \"0001\""),
        )
        .unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (5, "map.last"));
    }

    #[test]
    fn a_bad_hexside_is_refused() {
        let e = refused("[[river]]\nsides = [\"0101/0303\"]\n");
        assert_eq!((e.line, e.field.as_str()), (13, "river[0].sides[0]"));
        assert!(e.message.contains("not adjacent"), "{e}");
        assert!(e.accepted.contains("0304:se"), "{e}");
        let e = refused("[[river]]\nsides = [\"0101:up\"]\n");
        assert!(e.message.contains("not a side"), "{e}");
        let e = refused("[[river]]\nsides = [\"0909:n\"]\n");
        assert!(e.message.contains("off the map"), "{e}");
        let e = refused("[[road]]\npath = [\"0101\", \"0303\"]\n");
        assert_eq!(e.field, "road[0].path[1]");
        assert!(e.message.contains("not next to 0101"), "{e}");
        let e = refused("[[river]]\nsection = \"x\"\nsides = [\"0101:s\"]\n");
        assert_eq!((e.line, e.field.as_str()), (13, "river[0].section"));
        let e = refused("[[bridge]]\nsides = [\"0101:s\"]\n");
        assert!(e.message.contains("no [[river]]"), "{e}");
        let e = refused("[[river]]\nname = \"x\"\n");
        assert!(e.message.contains("names its hexsides"), "{e}");
    }

    #[test]
    fn a_hexside_at_the_edge_and_a_bridge_on_a_river_are_taken() {
        let m = with(
            "[[river]]\nsides = [\"0101:n\", \"0101:s\"]\n[[bridge]]\nsides = [\"0101/0102\"]\n",
        )
        .unwrap();
        let (a, b) = (hex("0101", Layout::OddQ), hex("0102", Layout::OddQ));
        assert!(m.side_has(a, b, Feature::Bridge));
        assert!(m.side_has(b, a, Feature::River), "either way round");
    }

    #[test]
    fn a_duplicate_place_is_refused_naming_the_first() {
        let e = refused(
            "[[place]]\nname = \"Metz\"\ncell = \"0101\"\nkind = \"town\"\n[[place]]\nname = \"metz\"\ncell = \"0202\"\nkind = \"fortress\"\n",
        );
        assert_eq!((e.line, e.field.as_str()), (17, "place[1].name"));
        assert!(e.message.contains("first on line 13"), "{e}");
        let e = refused("[[place]]\nname = \"X\"\ncell = \"0101\"\nkind = \"castle\"\n");
        assert_eq!(e.field, "place[0].kind");
        assert!(e.accepted.contains("fortified-camp"), "{e}");
    }

    #[test]
    fn an_unknown_country_names_the_accepted_ones() {
        let e = refused("[countries]\nprussia = [\"0101\"]\n");
        assert_eq!((e.line, e.field.as_str()), (13, "countries.prussia"));
        assert!(
            e.accepted.contains("germany") && e.accepted.contains("sea"),
            "{e}"
        );
        let e = refused("[countries]\ngermany = [\"0101\"]\nfrance = [\"0101-0202\"]\n");
        assert_eq!((e.line, e.field.as_str()), (14, "countries.france[0]"));
        assert!(e.message.contains("two countries"), "{e}");
    }

    #[test]
    fn a_cell_given_two_terrains_is_refused() {
        let src = BASE.replace("\"spi\"", "\"pw\"")
            + "[cells]\ncover = [\"0101-0202\"]\nhill = [\"0202\"]\n";
        let e = Map::from_source("t.toml", &src).unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (14, "cells.hill[0]"));
        assert!(e.message.contains("cover (line 13) and hill"), "{e}");
    }

    #[test]
    fn an_unknown_key_is_refused_with_the_accepted_keys() {
        let e = refused("[[place]]\nname = \"X\"\ncell = \"0101\"\nkind = \"town\"\nsize = 3\n");
        assert_eq!(e.line, 16, "{e}");
        assert!(e.message.contains("size"), "{e}");
        assert!(e.accepted.contains("kind"), "{e}");
        let e = refused("[forest]\nx = 1\n");
        assert_eq!(e.line, 12, "{e}");
        assert!(e.accepted.contains("victory"), "{e}");
    }

    #[test]
    fn the_grid_and_the_rule_set_are_checked() {
        let e = Map::from_source("t.toml", &BASE.replace("\"spi\"", "\"pk\"")).unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (3, "map.rules"));
        assert!(e.accepted.contains("spi"), "{e}");
        let e = Map::from_source("t.toml", &BASE.replace("\"spi\"", "\"chess\"")).unwrap_err();
        assert!(
            e.message.contains("chess") && e.message.contains("fr1870"),
            "{e}"
        );
        let e = Map::from_source(
            "t.toml",
            &BASE.replace("rules = \"spi\"", "rules = \"spi\"\nlayout = \"even-q\""),
        )
        .unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (4, "map.layout"));
        assert_eq!(e.accepted, "odd-q");
        let cut = BASE.split("[provenance]").next().unwrap();
        let e = Map::from_source("t.toml", cut).unwrap_err();
        assert_eq!(e.field, "provenance");
        let e = Map::from_source("t.toml", &BASE.replace("\"club\"", "\"publisher\"")).unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (9, "provenance.source"));
    }

    #[test]
    fn the_clubs_terrain_adds_names_and_never_replaces_the_printed_ones() {
        let e = refused("[[terrain]]\nname = \"rough\"\nmovement = \"free\"\n");
        assert_eq!((e.line, e.field.as_str()), (13, "terrain[0].name"));
        assert!(e.message.contains("never replaces"), "{e}");
        let m = with(
            "[[terrain]]\nname = \"marsh\"\ncolour = \"#40A040\"\nmovement = \"3 MP\"\nmp = 3\nrule = \"spi-m1\"\n[cells]\nmarsh = [\"0303\"]\n",
        )
        .unwrap();
        let t = m.terrain_entry(hex("0303", Layout::OddQ)).unwrap();
        assert_eq!((t.movement.provenance, t.mp), (Source::Club, Some(3)));
        assert_eq!(t.combat.provenance, Source::Unknown);
        assert_eq!(t.colour.as_deref(), Some("#40a040"));
        assert_eq!(t.rule.as_deref(), Some("SPI-M1"));
        let e = refused("[[terrain]]\nname = \"marsh\"\ncolour = \"green\"\n");
        assert_eq!(e.field, "terrain[0].colour");
        let e = refused("[[terrain]]\nname = \"canal\"\napplies = \"hexside\"\n");
        assert!(e.accepted.contains("river"), "{e}");
        let e = refused("[[terrain]]\nname = \"Big Wood\"\n");
        assert!(e.accepted.contains("lower-case"), "{e}");
    }

    #[test]
    fn edges_and_victory_are_checked() {
        let e = refused("[[edge]]\nrole = \"rail-link\"\ncells = [\"0105\"]\n");
        assert_eq!((e.line, e.field.as_str()), (13, "edge[0].distance"));
        let e = refused("[[edge]]\nrole = \"rail-link\"\ncells = [\"0303\"]\ndistance = 3\n");
        assert!(e.message.contains("not on the map's edge"), "{e}");
        let e = refused("[[edge]]\nrole = \"supply\"\ncells = [\"0303\"]\ndistance = 3\n");
        assert_eq!(e.field, "edge[0].distance");
        let e = refused("[[edge]]\nrole = \"depot\"\ncells = [\"0303\"]\n");
        assert!(e.accepted.contains("sea-route"), "{e}");
        let e = refused("[[victory]]\nname = \"x\"\ncolumns = { 09 = 3 }\n");
        assert_eq!((e.line, e.field.as_str()), (14, "victory[0].columns.09"));
        let e = refused("[[victory]]\nname = \"x\"\ncolumns = { 01 = 3 }\nrows = { 01 = 2 }\n");
        assert!(e.message.contains("exactly one"), "{e}");
        let e = refused("[[victory]]\nname = \"x\"\ncells = [\"0101\"]\n");
        assert_eq!(e.field, "victory[0].value");
        let m =
            with("[[victory]]\nname = \"line\"\nside = \"french\"\nrows = { 02 = 7 }\n").unwrap();
        assert_eq!(m.victory_at(hex("0402", Layout::OddQ))[0].1, 7);
    }

    #[test]
    fn hostile_text_never_panics_and_files_are_read_capped() {
        for junk in [
            "",
            "[map]",
            "\u{0}\u{1}",
            "[map]\nname = 3\n",
            "[map]\nname=\"x\"\nrules=\"spi\"\nfirst=\"9999\"\nlast=\"0000\"\ndefault_terrain=\"clear\"\n",
        ] {
            assert!(Map::from_source("j.toml", junk).is_err(), "{junk:?}");
        }
        let name = format!("{BASE}[map2]\n\u{202e}");
        assert!(Map::from_source("j.toml", &name).is_err());
        let dir = std::env::temp_dir();
        let e = Map::load(&dir).unwrap_err();
        assert_eq!(e.line, 0);
        let e = Map::named("no-such-map.toml").unwrap_err();
        assert!(e.accepted.contains("example-hex"), "{e}");
    }

    /// The `[picture]` table as docs/MAPS.md gives it: a line each, from line 12 on.
    fn picture(file: &str, origin: &str, column: &str, row: &str, extra: &str) -> String {
        format!(
            "[picture]\nfile = {file}\norigin = {origin}\ncolumn = {column}\nrow = {row}\n{extra}"
        )
    }

    #[test]
    fn a_picture_table_is_read_with_its_alignment() {
        let m = with(&picture(
            "\"board.jpg\"",
            "[412, 96.5]",
            "84.0",
            "97.0",
            "rotation = -1.5\naligned = \"two cells: 0101 at (412, 96.5), 1210 at (1340, 1020); checked on 0605, 1.2 px off\"\n",
        ))
        .unwrap();
        let p = m.picture.as_ref().unwrap();
        assert_eq!(p.file, "board.jpg");
        assert_eq!(p.alignment.origin, [412.0, 96.5]);
        assert_eq!((p.alignment.column, p.alignment.row), (84.0, 97.0));
        assert_eq!(p.alignment.rotation, -1.5);
        assert!(p.aligned.as_deref().unwrap().starts_with("two cells"));
        let m = with(&picture("\"b.PNG\"", "[0, 0]", "10", "12", "")).unwrap();
        assert_eq!(
            m.picture.unwrap().alignment.rotation,
            0.0,
            "rotation defaults to 0"
        );
        assert_eq!(Map::named("example-hex").unwrap().picture, None);
    }

    #[test]
    fn a_bad_picture_table_names_line_field_and_what_is_accepted() {
        let e = refused(&picture("\"../board.jpg\"", "[1, 2]", "84.0", "97.0", ""));
        assert_eq!((e.line, e.field.as_str()), (13, "picture.file"));
        assert!(e.message.contains("is a path"), "{e}");
        assert!(e.accepted.contains("beside the map file"), "{e}");
        let e = refused(&picture("\"board.gif\"", "[1, 2]", "84.0", "97.0", ""));
        assert!(e.message.contains("not a PNG or JPEG"), "{e}");
        let e = refused(&picture("\"b.png\"", "[1]", "84.0", "97.0", ""));
        assert_eq!((e.line, e.field.as_str()), (14, "picture.origin"));
        assert!(e.accepted.contains("two numbers"), "{e}");
        let e = refused(&picture("\"b.png\"", "[1, inf]", "84.0", "97.0", ""));
        assert_eq!((e.line, e.field.as_str()), (14, "picture.origin[1]"));
        let e = refused(&picture("\"b.png\"", "[1, 2]", "0.0", "97.0", ""));
        assert_eq!((e.line, e.field.as_str()), (15, "picture.column"));
        assert!(e.accepted.contains("above 0"), "{e}");
        let e = refused(&picture("\"b.png\"", "[1, 2]", "84", "-97.0", ""));
        assert_eq!((e.line, e.field.as_str()), (16, "picture.row"));
        let e = refused(&picture("\"b.png\"", "[1, 2]", "84", "nan", ""));
        assert_eq!((e.line, e.field.as_str()), (16, "picture.row"));
        let e = refused(&picture(
            "\"b.png\"",
            "[1, 2]",
            "84",
            "97",
            "rotation = 400\n",
        ));
        assert_eq!((e.line, e.field.as_str()), (17, "picture.rotation"));
        assert!(e.accepted.contains("degrees clockwise"), "{e}");
        let e = refused(&picture("\"b.png\"", "[1, 2]", "84", "97", "scale = 2\n"));
        assert_eq!(e.line, 17, "{e}");
        assert!(e.accepted.contains("rotation"), "{e}");
        let e = refused("[picture]\nfile = \"b.png\"\ncolumn = 84.0\nrow = 97.0\n");
        assert!(e.message.contains("origin"), "{e}");
        let e = refused(&picture("\"b.png\"", "[1, 2]", "\"wide\"", "97", ""));
        assert_eq!(e.line, 15, "{e}");
    }

    #[test]
    fn a_large_map_reads_whole() {
        let mut src = BASE.replace("last = \"0505\"", "last = \"6040\"");
        src.push_str("[cells]\nrough = [\"0101-3020\", \"3121-6040\"]\n");
        let m = Map::from_source("big.toml", &src).unwrap();
        assert_eq!(m.grid.len(), 2400);
        assert_eq!(m.terrain_counts(), vec![("clear", 1200), ("rough", 1200)]);
    }
}
