//! The map file as written: TOML read into these structs with every value's place in the file,
//! then checked into a [`super::Map`] (`check.rs`). Unknown keys are refused by serde with their
//! line and the keys accepted.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

/// A list of cells: each a label ("0304") or a block ("0304-0607").
pub(super) type CellList = Vec<Spanned<String>>;

/// The whole file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawMap {
    /// `[map]`: the grid and its defaults.
    pub map: RawHeader,
    /// `[provenance]`: who drew it, from what.
    pub provenance: Option<Spanned<RawProvenance>>,
    /// `[[terrain]]`: the club's own terrain entries.
    #[serde(default)]
    pub terrain: Vec<Spanned<RawTerrain>>,
    /// `[cells]`: terrain name = cells.
    #[serde(default)]
    pub cells: BTreeMap<Spanned<String>, CellList>,
    /// `[countries]`: country = cells.
    #[serde(default)]
    pub countries: BTreeMap<Spanned<String>, CellList>,
    /// `[[river]]`.
    #[serde(default)]
    pub river: Vec<Spanned<RawLine>>,
    /// `[[bridge]]`.
    #[serde(default)]
    pub bridge: Vec<Spanned<RawLine>>,
    /// `[[rail]]`.
    #[serde(default)]
    pub rail: Vec<Spanned<RawLine>>,
    /// `[[road]]`.
    #[serde(default)]
    pub road: Vec<Spanned<RawLine>>,
    /// `[[border]]`.
    #[serde(default)]
    pub border: Vec<Spanned<RawLine>>,
    /// `[[ridge]]`.
    #[serde(default)]
    pub ridge: Vec<Spanned<RawLine>>,
    /// `[[place]]`.
    #[serde(default)]
    pub place: Vec<Spanned<RawPlace>>,
    /// `[[edge]]`.
    #[serde(default)]
    pub edge: Vec<Spanned<RawEdge>>,
    /// `[[victory]]`.
    #[serde(default)]
    pub victory: Vec<Spanned<RawVictory>>,
    /// `[picture]`: the picture of the printed board and how the grid lies on it.
    pub picture: Option<Spanned<RawPicture>>,
}

/// `[picture]` (`picture.rs`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPicture {
    pub file: Spanned<String>,
    pub origin: Spanned<Vec<Spanned<f64>>>,
    pub column: Spanned<f64>,
    pub row: Spanned<f64>,
    pub rotation: Option<Spanned<f64>>,
    pub aligned: Option<Spanned<String>>,
}

/// `[map]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawHeader {
    pub name: Spanned<String>,
    pub rules: Spanned<String>,
    pub layout: Option<Spanned<String>>,
    pub first: Spanned<String>,
    pub last: Spanned<String>,
    pub default_terrain: Spanned<String>,
    pub default_country: Option<Spanned<String>>,
    pub note: Option<Spanned<String>>,
}

/// `[provenance]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawProvenance {
    pub source: Spanned<String>,
    pub drawn_by: Spanned<String>,
    pub from: Spanned<String>,
    pub note: Option<Spanned<String>>,
}

/// One `[[terrain]]` entry.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTerrain {
    pub name: Spanned<String>,
    pub applies: Option<Spanned<String>>,
    pub colour: Option<Spanned<String>>,
    pub movement: Option<Spanned<String>>,
    pub mp: Option<Spanned<i64>>,
    pub combat: Option<Spanned<String>>,
    pub other: Option<Spanned<String>>,
    pub rule: Option<Spanned<String>>,
}

/// One hexside feature entry (`[[river]]`, `[[rail]]`, ...).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawLine {
    pub name: Option<Spanned<String>>,
    pub sides: Option<Vec<Spanned<String>>>,
    pub path: Option<Vec<Spanned<String>>>,
    pub section: Option<Spanned<String>>,
    pub capacity: Option<Spanned<i64>>,
}

/// One or several words (`kind = "town"` or `kind = ["town", "port"]`).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(super) enum Words {
    One(String),
    Many(Vec<String>),
}

impl Words {
    pub fn list(&self) -> Vec<&str> {
        match self {
            Words::One(w) => vec![w.as_str()],
            Words::Many(v) => v.iter().map(String::as_str).collect(),
        }
    }
}

/// One `[[place]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPlace {
    pub name: Spanned<String>,
    pub cell: Spanned<String>,
    pub kind: Spanned<Words>,
    pub value: Option<Spanned<i64>>,
}

/// One `[[edge]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawEdge {
    pub role: Spanned<String>,
    pub side: Option<Spanned<String>>,
    pub name: Option<Spanned<String>>,
    pub cells: CellList,
    pub distance: Option<Spanned<i64>>,
    pub to: Option<Spanned<String>>,
}

/// One `[[victory]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawVictory {
    pub name: Spanned<String>,
    pub side: Option<Spanned<String>>,
    pub columns: Option<BTreeMap<Spanned<String>, Spanned<i64>>>,
    pub rows: Option<BTreeMap<Spanned<String>, Spanned<i64>>>,
    pub cells: Option<CellList>,
    pub value: Option<Spanned<i64>>,
}
