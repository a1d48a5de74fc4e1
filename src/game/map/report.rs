//! What `kepi map show` and `kepi map cell` answer, as plain data: the JSON contract
//! (docs/MAPS.md names every key) and what the text output is printed from. Cells are named by
//! their labels ("0304"), hexsides by their two cells ("0304/0305").

use std::collections::BTreeMap;

use serde::Serialize;

use super::terrain::Terrain;
use super::{
    Country, Edge, EdgeRole, Feature, Line, Map, MapSource, Place, PlaceKind, Side, VictoryBy,
};
use crate::hex::{Direction, Hex};

/// The terrain table in force.
#[derive(Clone, Debug, Serialize)]
pub struct TableView<'a> {
    /// Its name ("Terrain Effects Chart").
    pub title: &'a str,
    /// Its rule id, where there is one.
    pub rule: Option<&'a str>,
    /// False when no table checks the names (every effect unknown).
    pub checked: bool,
    /// Its entries: the rule set's, then the map's.
    pub entries: &'a [Terrain],
}

/// How many cells have one terrain.
#[derive(Clone, Debug, Serialize)]
pub struct TerrainCount<'a> {
    /// The terrain.
    pub terrain: &'a str,
    /// How many cells.
    pub cells: usize,
}

/// How many cells are in one country.
#[derive(Clone, Debug, Serialize)]
pub struct CountryCount {
    /// The country.
    pub country: Country,
    /// How many cells.
    pub cells: usize,
}

/// One hexside feature entry.
#[derive(Clone, Debug, Serialize)]
pub struct LineView<'a> {
    /// river, bridge, rail, road, border, ridge.
    pub feature: Feature,
    /// Its name, where given.
    pub name: Option<&'a str>,
    /// A rail section's name (FR-G1).
    pub section: Option<&'a str>,
    /// A rail section's capacity (FR-G1).
    pub capacity: Option<u32>,
    /// Its hexsides ("0304/0305").
    pub sides: Vec<String>,
}

/// One place.
#[derive(Clone, Debug, Serialize)]
pub struct PlaceView<'a> {
    /// Its name.
    pub name: &'a str,
    /// Its cell.
    pub cell: String,
    /// What it is.
    pub kinds: &'a [PlaceKind],
    /// A value the board prints for it, where given.
    pub value: Option<u32>,
}

/// One edge role.
#[derive(Clone, Debug, Serialize)]
pub struct EdgeView<'a> {
    /// supply, entry, rail-link, sea-route.
    pub role: EdgeRole,
    /// Whose, where one side's.
    pub side: Option<Side>,
    /// Its name, where given.
    pub name: Option<&'a str>,
    /// Its cells.
    pub cells: Vec<String>,
    /// A rail link's off-map distance (or a sea route's), where given.
    pub distance: Option<u32>,
    /// Where it leads, where given.
    pub to: Option<&'a str>,
}

/// One victory entry.
#[derive(Clone, Debug, Serialize)]
pub struct VictoryView<'a> {
    /// Its name.
    pub name: &'a str,
    /// Who scores it, where one side does.
    pub side: Option<Side>,
    /// column, row or cells.
    pub per: &'static str,
    /// Per column or row: the two-digit column or row and its value.
    pub values: Option<BTreeMap<String, i64>>,
    /// Per cells: the cells.
    pub cells: Option<Vec<String>>,
    /// Per cells: the value.
    pub value: Option<i64>,
}

/// `kepi map show --json`: the whole map.
#[derive(Clone, Debug, Serialize)]
pub struct MapView<'a> {
    /// The file it was read from.
    pub file: &'a str,
    /// Its name.
    pub name: &'a str,
    /// A note, where given.
    pub note: Option<&'a str>,
    /// The rule set's id.
    pub rules: &'static str,
    /// The rule set's name.
    pub rules_title: &'static str,
    /// odd-q or even-q.
    pub layout: &'static str,
    /// The first cell ("0101").
    pub first: String,
    /// The last cell ("1210").
    pub last: String,
    /// How many columns.
    pub columns: usize,
    /// How many rows.
    pub rows: usize,
    /// How many cells.
    pub cells: usize,
    /// Who drew it, from what.
    pub provenance: &'a MapSource,
    /// The terrain table in force.
    pub terrain_table: TableView<'a>,
    /// The terrain of cells not listed.
    pub default_terrain: &'a str,
    /// Cells per terrain (only terrains with cells).
    pub terrain: Vec<TerrainCount<'a>>,
    /// Cells per country (only countries with cells).
    pub countries: Vec<CountryCount>,
    /// Cells given no country.
    pub no_country: usize,
    /// The hexside features.
    pub hexsides: Vec<LineView<'a>>,
    /// The places.
    pub places: Vec<PlaceView<'a>>,
    /// The edges' roles.
    pub edges: Vec<EdgeView<'a>>,
    /// The victory values.
    pub victory: Vec<VictoryView<'a>>,
    /// The picture under the grid (`file`, `origin`, `column`, `row`, `rotation`, `aligned`);
    /// null where the map gives none.
    pub picture: Option<&'a super::Picture>,
}

/// A feature on one side of a cell, with its effects from the terrain table.
#[derive(Clone, Debug, Serialize)]
pub struct SideFeature<'a> {
    /// What it is.
    pub feature: Feature,
    /// Its name, where given.
    pub name: Option<&'a str>,
    /// A rail section's name.
    pub section: Option<&'a str>,
    /// A rail section's capacity.
    pub capacity: Option<u32>,
    /// Its entry in the terrain table; null where the table has none (its effects unknown).
    pub effects: Option<&'a Terrain>,
}

/// One of a cell's six sides.
#[derive(Clone, Debug, Serialize)]
pub struct SideView<'a> {
    /// n, ne, se, s, sw, nw.
    pub direction: Direction,
    /// The hexside ("0304/0305").
    pub hexside: String,
    /// The cell across it.
    pub neighbour: String,
    /// Whether the cell across it is on the map.
    pub neighbour_on_map: bool,
    /// The features along it.
    pub features: Vec<SideFeature<'a>>,
}

/// A victory value a cell has.
#[derive(Clone, Debug, Serialize)]
pub struct CellVictory<'a> {
    /// The entry's name.
    pub name: &'a str,
    /// Who scores it.
    pub side: Option<Side>,
    /// The value.
    pub value: i64,
}

/// `kepi map cell --json`: one cell.
#[derive(Clone, Debug, Serialize)]
pub struct CellView<'a> {
    /// The map file.
    pub file: &'a str,
    /// The cell ("1640").
    pub cell: String,
    /// Its terrain's name.
    pub terrain: &'a str,
    /// Its terrain's entry with the effects; null where no table has it (unknown).
    pub effects: Option<&'a Terrain>,
    /// Its country; null where the map gives none.
    pub country: Option<Country>,
    /// The places in it.
    pub places: Vec<PlaceView<'a>>,
    /// Its six sides, clockwise from n.
    pub sides: Vec<SideView<'a>>,
    /// The edge roles it has.
    pub edges: Vec<EdgeView<'a>>,
    /// The victory values it has.
    pub victory: Vec<CellVictory<'a>>,
}

impl Map {
    fn place_view<'a>(&self, p: &'a Place) -> PlaceView<'a> {
        PlaceView {
            name: &p.name,
            cell: self.grid.label(p.cell),
            kinds: &p.kinds,
            value: p.value,
        }
    }

    fn edge_view<'a>(&self, e: &'a Edge) -> EdgeView<'a> {
        EdgeView {
            role: e.role,
            side: e.side,
            name: e.name.as_deref(),
            cells: e.cells.iter().map(|h| self.grid.label(*h)).collect(),
            distance: e.distance,
            to: e.to.as_deref(),
        }
    }

    fn line_view<'a>(&self, l: &'a Line) -> LineView<'a> {
        LineView {
            feature: l.feature,
            name: l.name.as_deref(),
            section: l.section.as_deref(),
            capacity: l.capacity,
            sides: l.sides.iter().map(|s| self.grid.side_label(*s)).collect(),
        }
    }

    /// The whole map as `kepi map show --json` prints it.
    pub fn view(&self) -> MapView<'_> {
        let g = &self.grid;
        let (countries, no_country) = self.country_counts();
        MapView {
            file: &self.file,
            name: &self.name,
            note: self.note.as_deref(),
            rules: self.rules.id(),
            rules_title: self.rules.title(),
            layout: g.layout.as_str(),
            first: format!("{:02}{:02}", g.first.col, g.first.row),
            last: format!("{:02}{:02}", g.last.col, g.last.row),
            columns: g.columns(),
            rows: g.rows(),
            cells: g.len(),
            provenance: &self.provenance,
            terrain_table: TableView {
                title: &self.terrain.title,
                rule: self.terrain.rule.as_deref(),
                checked: self.terrain_checked,
                entries: &self.terrain.entries,
            },
            default_terrain: &self.default_terrain,
            terrain: self
                .terrain_counts()
                .into_iter()
                .map(|(terrain, cells)| TerrainCount { terrain, cells })
                .collect(),
            countries: countries
                .into_iter()
                .map(|(country, cells)| CountryCount { country, cells })
                .collect(),
            no_country,
            hexsides: self.lines.iter().map(|l| self.line_view(l)).collect(),
            places: self.places.iter().map(|p| self.place_view(p)).collect(),
            edges: self.edges.iter().map(|e| self.edge_view(e)).collect(),
            victory: self
                .victory
                .iter()
                .map(|v| {
                    let two = |m: &BTreeMap<i32, i64>| {
                        m.iter().map(|(k, x)| (format!("{k:02}"), *x)).collect()
                    };
                    let (per, values, cells, value) = match &v.by {
                        VictoryBy::Columns(m) => ("column", Some(two(m)), None, None),
                        VictoryBy::Rows(m) => ("row", Some(two(m)), None, None),
                        VictoryBy::Cells { cells, value } => (
                            "cells",
                            None,
                            Some(cells.iter().map(|h| g.label(*h)).collect()),
                            Some(*value),
                        ),
                    };
                    VictoryView {
                        name: &v.name,
                        side: v.side,
                        per,
                        values,
                        cells,
                        value,
                    }
                })
                .collect(),
            picture: self.picture.as_ref(),
        }
    }

    /// One cell as `kepi map cell --json` prints it; None off the map.
    pub fn cell_view(&self, h: Hex) -> Option<CellView<'_>> {
        let terrain = self.terrain_of(h)?;
        let sides = self
            .sides_of(h)
            .into_iter()
            .map(|(d, s, lines)| {
                let n = h.neighbour(d);
                SideView {
                    direction: d,
                    hexside: self.grid.side_label(s),
                    neighbour: self.grid.label(n),
                    neighbour_on_map: self.on_map(n),
                    features: lines
                        .into_iter()
                        .map(|l| SideFeature {
                            feature: l.feature,
                            name: l.name.as_deref(),
                            section: l.section.as_deref(),
                            capacity: l.capacity,
                            effects: self
                                .terrain
                                .get(l.feature.as_str(), super::Applies::Hexside),
                        })
                        .collect(),
                }
            })
            .collect();
        Some(CellView {
            file: &self.file,
            cell: self.grid.label(h),
            terrain,
            effects: self.terrain_entry(h),
            country: self.country_of(h),
            places: self
                .places_at(h)
                .into_iter()
                .map(|p| self.place_view(p))
                .collect(),
            sides,
            edges: self
                .edges_at(h)
                .into_iter()
                .map(|e| self.edge_view(e))
                .collect(),
            victory: self
                .victory_at(h)
                .into_iter()
                .map(|(v, value)| CellVictory {
                    name: &v.name,
                    side: v.side,
                    value,
                })
                .collect(),
        })
    }
}
