//! The map file checked: the raw file (`raw.rs`) becomes a [`Map`] or the first [`MapError`],
//! naming the file, line, field and the accepted values. Nothing here panics on any input.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use toml::Spanned;

use super::picture::{Alignment, MAX_CELL_PX, MAX_ORIGIN_PX, Picture, plain_file_name};
use super::raw::{CellList, RawHeader, RawLine, RawMap, RawPicture, RawTerrain};
use super::terrain::{Applies, Declared, Effect, Source, Terrain, TerrainTable};
use super::{
    CellData, Country, Edge, EdgeRole, Feature, Grid, Line, Map, MapError, MapSource, Place,
    PlaceKind, Side, Victory, VictoryBy,
};
use crate::hex::{Direction, Hex, Hexside, Layout, Offset};
use crate::rules::{RuleId, RuleSetId};
use crate::tables::{Check, parse_toml};

/// The longest name or note a map may give (a name is one line).
const MAX_TEXT: usize = 200;

/// What a cell list item may be.
const CELL_ITEM: &str = "a four-digit cell label such as 0304, or a block of cells such as 0304-0607 (columns 03-06, rows 04-07)";

/// What a hexside may be written as.
const SIDE_ITEM: &str = "two adjacent cells such as 0304/0305, or a cell and one of its sides such as 0304:se (n, ne, se, s, sw, nw)";

/// The checker: the file's text for located errors, and the grid once it is known.
struct Ck<'a> {
    c: Check<'a>,
    src: &'a str,
    grid: Grid,
}

impl Ck<'_> {
    fn err(
        &self,
        span: Range<usize>,
        field: &str,
        message: impl Into<String>,
        accepted: impl Into<String>,
    ) -> MapError {
        self.c.error(span, field, message, accepted)
    }

    /// What "on the map" means, for errors.
    fn on_map_words(&self) -> String {
        let g = &self.grid;
        format!(
            "a cell from {:02}{:02} to {:02}{:02} (columns {:02}-{:02}, rows {:02}-{:02})",
            g.first.col,
            g.first.row,
            g.last.col,
            g.last.row,
            g.first.col,
            g.last.col,
            g.first.row,
            g.last.row
        )
    }

    /// A four-digit label read as a column and row.
    fn offset(&self, text: &str, span: Range<usize>, field: &str) -> Result<Offset, MapError> {
        let t = text.trim();
        if t.len() != 4 || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(self.err(
                span,
                field,
                format!("`{}` is not a cell label", shown(text)),
                "a four-digit label, column then row, such as 0304",
            ));
        }
        let n = |r: Range<usize>| t.get(r).and_then(|x| x.parse::<i32>().ok()).unwrap_or(-1);
        Ok(Offset {
            col: n(0..2),
            row: n(2..4),
        })
    }

    /// One cell on the map.
    fn cell(&self, s: &Spanned<String>, field: &str) -> Result<Hex, MapError> {
        let o = self.offset(s.get_ref(), s.span(), field)?;
        if !self.grid.holds(o) {
            return Err(self.err(
                s.span(),
                field,
                format!("cell {} is off the map", s.get_ref().trim()),
                self.on_map_words(),
            ));
        }
        Ok(Hex::from_offset(o, self.grid.layout))
    }

    /// The 1-based line of a place in the file.
    fn line(&self, span: Range<usize>) -> usize {
        crate::fsio::line_col(self.src, span.start).0
    }

    /// One item of a cell list: a cell, or a block of cells, each on the map.
    fn item(&self, item: &Spanned<String>, f: &str) -> Result<Vec<Hex>, MapError> {
        let text = item.get_ref().trim();
        let Some((a, b)) = text.split_once('-') else {
            if text.len() != 4 {
                return Err(self.err(
                    item.span(),
                    f,
                    format!("`{}` is not a cell or a block of cells", shown(text)),
                    CELL_ITEM,
                ));
            }
            return Ok(vec![self.cell(item, f)?]);
        };
        let bad_range = |why: &str| {
            self.err(
                item.span(),
                f,
                format!("`{}` is not a block of cells: {why}", shown(text)),
                CELL_ITEM,
            )
        };
        let (Ok(oa), Ok(ob)) = (
            self.offset(a, item.span(), f),
            self.offset(b, item.span(), f),
        ) else {
            return Err(bad_range("each end is a four-digit label"));
        };
        if oa.col > ob.col || oa.row > ob.row {
            return Err(bad_range(
                "the first cell's column and row come before the last's",
            ));
        }
        for o in [oa, ob] {
            if !self.grid.holds(o) {
                return Err(self.err(
                    item.span(),
                    f,
                    format!(
                        "block {text} reaches off the map at {:02}{:02}",
                        o.col, o.row
                    ),
                    self.on_map_words(),
                ));
            }
        }
        let mut out = Vec::new();
        for col in oa.col..=ob.col {
            for row in oa.row..=ob.row {
                out.push(Hex::from_offset(Offset { col, row }, self.grid.layout));
            }
        }
        Ok(out)
    }

    /// A list of cells and blocks, each on the map.
    fn cells(&self, list: &[Spanned<String>], field: &str) -> Result<Vec<Hex>, MapError> {
        let mut out = Vec::new();
        for (i, item) in list.iter().enumerate() {
            out.extend(self.item(item, &format!("{field}[{i}]"))?);
        }
        Ok(out)
    }

    /// A hexside with at least one of its cells on the map.
    fn side(&self, s: &Spanned<String>, field: &str) -> Result<Hexside, MapError> {
        let text = s.get_ref().trim();
        let bad = |why: String| self.err(s.span(), field, why, SIDE_ITEM);
        let side = if let Some((a, b)) = text.split_once('/') {
            let (Ok(oa), Ok(ob)) = (
                self.offset(a, s.span(), field),
                self.offset(b, s.span(), field),
            ) else {
                return Err(bad(format!("`{}` is not a hexside", shown(text))));
            };
            let (ha, hb) = (
                Hex::from_offset(oa, self.grid.layout),
                Hex::from_offset(ob, self.grid.layout),
            );
            Hexside::between(ha, hb).ok_or_else(|| {
                bad(format!(
                    "{} and {} are not adjacent, so no hexside lies between them",
                    a.trim(),
                    b.trim()
                ))
            })?
        } else if let Some((a, d)) = text.split_once(':') {
            let Ok(o) = self.offset(a, s.span(), field) else {
                return Err(bad(format!("`{}` is not a hexside", shown(text))));
            };
            let dir: Direction = d.parse().map_err(|_| {
                bad(format!(
                    "`{}` is not a side of a cell in `{}`",
                    shown(d),
                    shown(text)
                ))
            })?;
            Hexside::new(Hex::from_offset(o, self.grid.layout), dir)
        } else {
            return Err(bad(format!("`{}` is not a hexside", shown(text))));
        };
        let (a, b) = side.hexes();
        if !self.grid.contains(a) && !self.grid.contains(b) {
            return Err(self.err(
                s.span(),
                field,
                format!("hexside {text} is off the map (neither of its cells is on it)"),
                self.on_map_words(),
            ));
        }
        Ok(side)
    }

    /// A name or note: one line, not empty, at most [`MAX_TEXT`] characters.
    fn text(&self, s: &Spanned<String>, field: &str) -> Result<String, MapError> {
        let t = s.get_ref().trim();
        let accepted = format!("one line of text, 1 to {MAX_TEXT} characters");
        if t.is_empty() {
            return Err(self.err(s.span(), field, "is empty", accepted));
        }
        if t.chars().count() > MAX_TEXT || t.chars().any(char::is_control) {
            return Err(self.err(
                s.span(),
                field,
                "is not one line of text of at most 200 characters",
                accepted,
            ));
        }
        Ok(t.to_string())
    }

    fn opt_text(
        &self,
        s: &Option<Spanned<String>>,
        field: &str,
    ) -> Result<Option<String>, MapError> {
        s.as_ref().map(|s| self.text(s, field)).transpose()
    }

    /// A whole number in `lo..=hi`.
    fn number(&self, v: &Spanned<i64>, field: &str, lo: i64, hi: i64) -> Result<i64, MapError> {
        let x = *v.get_ref();
        if x < lo || x > hi {
            return Err(self.err(
                v.span(),
                field,
                format!("{x} is out of range"),
                format!("a whole number from {lo} to {hi}"),
            ));
        }
        Ok(x)
    }

    /// A word of a closed vocabulary.
    fn word<T: std::str::FromStr<Err = String>>(
        &self,
        s: &Spanned<String>,
        field: &str,
        accepted: String,
    ) -> Result<T, MapError> {
        s.get_ref()
            .parse()
            .map_err(|e: String| self.err(s.span(), field, shown(&e), accepted))
    }
}

/// Text from the file as an error shows it: control characters escaped, at most 60 characters.
/// What is wrong with a value the map file's checker and the map editor both refuse: the field
/// (of its table), what is wrong, what is accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Problem {
    /// The field, as the file names it in its table ("cells", "distance", "side", "value").
    pub field: &'static str,
    /// What is wrong.
    pub message: String,
    /// What would be accepted.
    pub accepted: String,
}

fn problem(field: &'static str, message: impl Into<String>, accepted: &str) -> Option<Problem> {
    Some(Problem {
        field,
        message: message.into(),
        accepted: accepted.to_string(),
    })
}

/// An edge role's values as read (cells on the map already): none of its cells, a rail-link or
/// sea route whose cell is not on the map's edge, a distance on a role without one or out of
/// range, a rail-link without its off-map distance (SPI-L1 case F), a supply source of no side
/// (SPI-S2, FR-F4). The file's checker and the editor ask this one function.
pub(super) fn edge_problem(grid: &Grid, e: &Edge) -> Option<Problem> {
    let role = e.role;
    if e.cells.is_empty() {
        return problem("cells", "an edge role names its cells", CELL_ITEM);
    }
    if matches!(role, EdgeRole::RailLink | EdgeRole::SeaRoute)
        && let Some(h) = e.cells.iter().find(|h| !grid.on_edge(**h))
    {
        return problem(
            "cells",
            format!(
                "cell {} is not on the map's edge, and a {role} leaves the map",
                grid.label(*h)
            ),
            "cells in the map's first or last column or row",
        );
    }
    let takes_distance = matches!(role, EdgeRole::RailLink | EdgeRole::SeaRoute);
    match e.distance {
        Some(_) if !takes_distance => {
            return problem(
                "distance",
                format!("a {role} has no distance"),
                "distance on a rail-link (its off-map distance) or a sea-route",
            );
        }
        Some(d) if d > 999 => {
            return problem(
                "distance",
                format!("{d} is out of range"),
                "a whole number from 0 to 999",
            );
        }
        None if role == EdgeRole::RailLink => {
            return problem(
                "distance",
                "a rail-link gives its off-map distance (SPI-L1 case F: the number in the box)",
                "distance = a whole number from 0 to 999",
            );
        }
        _ => {}
    }
    // SPI-S2, FR-F4: a supply source is one side's; traced for that side only.
    if role == EdgeRole::Supply && e.side.is_none() {
        return problem(
            "side",
            "a supply edge names whose source it is",
            "side = \"french\" or \"german\"",
        );
    }
    None
}

/// A victory entry's values as read (SPI-W1's penetration values, 1870's Moselle line): a value
/// out of -9999..=9999, a column or row not on the map, no column, row or cell. The file's
/// checker reads these from its text; the editor asks this function before it takes an entry.
pub(super) fn victory_problem(grid: &Grid, v: &Victory) -> Option<Problem> {
    let range = -9999..=9999;
    let bad = |n: i64| (!range.contains(&n)).then_some(n);
    match &v.by {
        VictoryBy::Columns(m) | VictoryBy::Rows(m) => {
            let columns = matches!(v.by, VictoryBy::Columns(_));
            let (lo, hi, what) = if columns {
                (grid.first.col, grid.last.col, "column")
            } else {
                (grid.first.row, grid.last.row, "row")
            };
            let field = if columns { "columns" } else { "rows" };
            if m.is_empty() {
                return problem(field, format!("no {what} given"), "one or more values");
            }
            if let Some(k) = m.keys().find(|k| !(lo..=hi).contains(*k)) {
                return problem(
                    field,
                    format!("{k:02} is not a {what} of the map"),
                    &format!("a two-digit {what} from {lo:02} to {hi:02}"),
                );
            }
            if let Some(n) = m.values().find_map(|n| bad(*n)) {
                return problem(
                    field,
                    format!("{n} is out of range"),
                    "a whole number from -9999 to 9999",
                );
            }
        }
        VictoryBy::Cells { cells, value } => {
            if cells.is_empty() {
                return problem("cells", "a line of cells names its cells", CELL_ITEM);
            }
            if let Some(n) = bad(*value) {
                return problem(
                    "value",
                    format!("{n} is out of range"),
                    "a whole number from -9999 to 9999",
                );
            }
        }
    }
    None
}

fn shown(s: &str) -> String {
    let mut out: String = s.chars().take(60).flat_map(char::escape_debug).collect();
    if s.chars().count() > 60 {
        out.push_str("...");
    }
    out
}

/// A terrain name: a lower-case word (letters, digits and `-`), starting with a letter.
pub(super) fn is_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 32
        && s.starts_with(|c: char| c.is_ascii_lowercase())
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

const NAME_WORDS: &str =
    "a lower-case word of letters, digits and `-`, starting with a letter (at most 32)";

/// Reads and checks a map's text, one section after another (each its own function below).
pub(super) fn check(file: &str, src: &str) -> Result<Map, MapError> {
    let raw: RawMap = parse_toml(file, src)?;
    let c = Check::new(file, src);
    let h = &raw.map;
    let (rules, layout) = rules_and_layout(&c, h)?;
    let mut ck = Ck {
        c,
        src,
        grid: Grid {
            layout,
            first: Offset { col: 0, row: 0 },
            last: Offset { col: 99, row: 99 },
        },
    };
    let first = ck.offset(h.first.get_ref(), h.first.span(), "map.first")?;
    let last = ck.offset(h.last.get_ref(), h.last.span(), "map.last")?;
    if first.col > last.col || first.row > last.row {
        return Err(ck.err(
            h.last.span(),
            "map.last",
            format!(
                "the map's last cell {} comes before its first {}",
                h.last.get_ref().trim(),
                h.first.get_ref().trim()
            ),
            "a last cell whose column and row are at least the first cell's",
        ));
    }
    ck.grid.first = first;
    ck.grid.last = last;
    let name = ck.text(&h.name, "map.name")?;
    let note = ck.opt_text(&h.note, "map.note")?;

    let provenance = provenance_of(&ck, &raw)?;
    let (table, terrain_checked) = terrain_table_of(&ck, &raw, rules)?;
    let names = TerrainNames {
        ck: &ck,
        table: &table,
        cell_names: table.names(Applies::Cell),
        checked: terrain_checked,
        rules,
    };
    let (default_terrain, terrain_names, mut cells) = painted(&ck, &raw, &names)?;
    place_countries(&ck, &raw, &mut cells)?;
    let (lines, by_side) = features_of(&ck, &raw)?;
    let places = places_of(&ck, &raw)?;
    let edges = edges_of(&ck, &raw)?;
    let victory = victory_of(&ck, &raw)?;
    let picture = raw
        .picture
        .as_ref()
        .map(|p| picture(&ck, p.get_ref()))
        .transpose()?;

    Ok(Map {
        file: file.to_string(),
        name,
        note,
        rules,
        grid: ck.grid,
        provenance,
        terrain: table,
        terrain_checked,
        default_terrain,
        terrain_names,
        cells,
        lines,
        by_side,
        places,
        edges,
        victory,
        picture,
    })
}

/// `[map] rules` and `layout`: the rule set the map is drawn for (one played on hexes) and its
/// numbering, which a layout given must not contradict.
fn rules_and_layout(c: &Check<'_>, h: &RawHeader) -> Result<(RuleSetId, Layout), MapError> {
    let rules: RuleSetId = h
        .rules
        .get_ref()
        .parse()
        .map_err(|e: String| c.error(h.rules.span(), "map.rules", shown(&e), ""))?;
    if !rules.uses_hexes() {
        let hexes: Vec<&str> = RuleSetId::hex_sets()
            .into_iter()
            .map(RuleSetId::id)
            .collect();
        return Err(c.error(
            h.rules.span(),
            "map.rules",
            format!("{} is not played on a hex map", rules.id()),
            hexes.join(", "),
        ));
    }
    let set_layout = rules.hex_layout();
    let layout = match &h.layout {
        None => set_layout,
        Some(l) => {
            let given: Layout = l
                .get_ref()
                .parse()
                .map_err(|e: String| c.error(l.span(), "map.layout", shown(&e), "odd-q, even-q"))?;
            if given != set_layout {
                return Err(c.error(
                    l.span(),
                    "map.layout",
                    format!(
                        "{given} contradicts the rule set: {}'s board is numbered {set_layout}",
                        rules.id()
                    ),
                    set_layout.as_str(),
                ));
            }
            given
        }
    };
    Ok((rules, layout))
}

/// `[provenance]`: who drew the map, from what, and whether it is kepi's, the club's or a VASSAL
/// module's.
fn provenance_of(ck: &Ck<'_>, raw: &RawMap) -> Result<MapSource, MapError> {
    let Some(p) = &raw.provenance else {
        return Err(ck.err(
            0..0,
            "provenance",
            "the map does not say who drew it and from what",
            "a [provenance] table with source (house or club), drawn_by and from",
        ));
    };
    let p = p.get_ref();
    let source = match p.source.get_ref().trim() {
        "house" => Source::House,
        "club" => Source::Club,
        "vassal" => Source::Vassal,
        other => {
            return Err(ck.err(
                p.source.span(),
                "provenance.source",
                format!("unknown map source `{}`", shown(other)),
                "house (kepi's own), club (the club's, from its printed board), vassal (imported from a VASSAL module)",
            ));
        }
    };
    Ok(MapSource {
        source,
        drawn_by: ck.text(&p.drawn_by, "provenance.drawn_by")?,
        from: ck.text(&p.from, "provenance.from")?,
        note: ck.opt_text(&p.note, "provenance.note")?,
    })
}

/// The terrain table in force: the rule set's entries, then the club's `[[terrain]]`; and
/// whether names are checked at all (false when neither gives a table, FR-M1).
fn terrain_table_of(
    ck: &Ck<'_>,
    raw: &RawMap,
    rules: RuleSetId,
) -> Result<(TerrainTable, bool), MapError> {
    let set_table = rules.terrain_table();
    let terrain_checked = set_table.is_some() || !raw.terrain.is_empty();
    let mut table = set_table.unwrap_or_else(|| TerrainTable {
        title: if raw.terrain.is_empty() {
            format!("none: {} prints no terrain table", rules.id())
        } else {
            "the club's terrain table".into()
        },
        rule: None,
        entries: Vec::new(),
    });
    for (i, t) in raw.terrain.iter().enumerate() {
        let entry = club_terrain(ck, t.get_ref(), &format!("terrain[{i}]"), &table, rules)?;
        table.entries.push(entry);
    }
    Ok((table, terrain_checked))
}

/// How a terrain name is checked against the table in force (`[cells]` keys and
/// `map.default_terrain`).
struct TerrainNames<'a> {
    ck: &'a Ck<'a>,
    table: &'a TerrainTable,
    /// The table's cell terrains, listed once for every name checked.
    cell_names: Vec<&'a str>,
    checked: bool,
    rules: RuleSetId,
}

impl TerrainNames<'_> {
    /// A cell terrain's name: one of the table's cell terrains when it is checked, else any name.
    fn check(&self, s: &Spanned<String>, field: &str) -> Result<String, MapError> {
        let cell_names = &self.cell_names;
        let n = s.get_ref().trim();
        if self.checked {
            if cell_names.contains(&n) {
                return Ok(n.to_string());
            }
            let why = if self.table.get(n, Applies::Hexside).is_some() {
                format!("`{n}` is drawn on hexsides, not cells: list it under [[{n}]]")
            } else {
                format!("unknown terrain `{}` for {}", shown(n), self.rules.id())
            };
            return Err(self.ck.err(
                s.span(),
                field,
                why,
                format!(
                    "{}; or a [[terrain]] entry of the club's own",
                    cell_names.join(", ")
                ),
            ));
        }
        if is_name(n) {
            Ok(n.to_string())
        } else {
            Err(self.ck.err(
                s.span(),
                field,
                format!("`{}` is not a terrain name", shown(n)),
                NAME_WORDS,
            ))
        }
    }
}

/// `map.default_terrain`, `map.default_country` and `[cells]`: every cell's terrain (each cell
/// painted once) and the default country; the terrain names in first-use order.
fn painted(
    ck: &Ck<'_>,
    raw: &RawMap,
    names: &TerrainNames<'_>,
) -> Result<(String, Vec<String>, Vec<CellData>), MapError> {
    let h = &raw.map;
    let default_terrain = names.check(&h.default_terrain, "map.default_terrain")?;
    let mut terrain_names = vec![default_terrain.clone()];
    let default_country = h
        .default_country
        .as_ref()
        .map(|s| ck.word::<Country>(s, "map.default_country", Country::accepted()))
        .transpose()?;
    let mut cells = vec![
        CellData {
            terrain: 0,
            country: default_country,
        };
        ck.grid.len()
    ];

    let mut painted: Vec<Option<(u16, usize)>> = vec![None; ck.grid.len()];
    for (key, list) in in_file_order(&raw.cells) {
        let field = format!("cells.{}", key.get_ref());
        let n = names.check(key, &field)?;
        let idx = match terrain_names.iter().position(|x| *x == n) {
            Some(i) => i,
            None => {
                terrain_names.push(n.clone());
                terrain_names.len() - 1
            }
        } as u16;
        for (j, item) in list.iter().enumerate() {
            let f = format!("{field}[{j}]");
            for h in ck.item(item, &f)? {
                let Some(i) = ck.grid.index(h) else { continue };
                if let Some((other, at)) = painted[i] {
                    let other = terrain_names.get(other as usize).map_or("", String::as_str);
                    return Err(ck.err(
                        item.span(),
                        &f,
                        format!(
                            "cell {} is given two terrains: {other} (line {at}) and {n}",
                            ck.grid.label(h)
                        ),
                        "each cell once (cells not listed are the default terrain)",
                    ));
                }
                painted[i] = Some((idx, ck.line(item.span())));
                cells[i].terrain = idx;
            }
        }
    }
    Ok((default_terrain, terrain_names, cells))
}

/// `[countries]`: each listed cell's country (each cell in one).
fn place_countries(ck: &Ck<'_>, raw: &RawMap, cells: &mut [CellData]) -> Result<(), MapError> {
    let mut placed: Vec<Option<(Country, usize)>> = vec![None; ck.grid.len()];
    for (key, list) in in_file_order(&raw.countries) {
        let field = format!("countries.{}", key.get_ref());
        let country: Country = ck.word(key, &field, Country::accepted())?;
        for (j, item) in list.iter().enumerate() {
            let f = format!("{field}[{j}]");
            for h in ck.item(item, &f)? {
                let Some(i) = ck.grid.index(h) else { continue };
                if let Some((other, at)) = placed[i] {
                    return Err(ck.err(
                        item.span(),
                        &f,
                        format!(
                            "cell {} is given two countries: {other} (line {at}) and {country}",
                            ck.grid.label(h)
                        ),
                        "each cell in one country (cells not listed are map.default_country)",
                    ));
                }
                placed[i] = Some((country, ck.line(item.span())));
                cells[i].country = Some(country);
            }
        }
    }
    Ok(())
}

/// The hexside features (`[[river]]`, `[[bridge]]`, `[[rail]]`, `[[road]]`, `[[border]]`,
/// `[[ridge]]`), in the file's order, and the features on each hexside; a bridge must cross a
/// river.
#[allow(clippy::type_complexity)]
fn features_of(
    ck: &Ck<'_>,
    raw: &RawMap,
) -> Result<(Vec<Line>, BTreeMap<Hexside, Vec<usize>>), MapError> {
    let mut lines = Vec::new();
    let mut bridges: Vec<(Hexside, Range<usize>, String)> = Vec::new();
    for (feature, list) in [
        (Feature::River, &raw.river),
        (Feature::Bridge, &raw.bridge),
        (Feature::Rail, &raw.rail),
        (Feature::Road, &raw.road),
        (Feature::Border, &raw.border),
        (Feature::Ridge, &raw.ridge),
    ] {
        for (i, l) in list.iter().enumerate() {
            let field = format!("{feature}[{i}]");
            let (line, spans) = feature_line(ck, feature, l, &field)?;
            if feature == Feature::Bridge {
                bridges.extend(
                    line.sides
                        .iter()
                        .zip(spans)
                        .map(|(s, sp)| (*s, sp, field.clone())),
                );
            }
            lines.push(line);
        }
    }
    let mut by_side: BTreeMap<Hexside, Vec<usize>> = BTreeMap::new();
    for (i, l) in lines.iter().enumerate() {
        for s in &l.sides {
            by_side.entry(*s).or_default().push(i);
        }
    }
    for (s, span, field) in bridges {
        let river = by_side
            .get(&s)
            .is_some_and(|v| v.iter().any(|i| lines[*i].feature == Feature::River));
        if !river {
            return Err(ck.err(
                span,
                &format!("{field}.sides"),
                format!(
                    "a bridge crosses a river, and no [[river]] runs along {}",
                    ck.grid.side_label(s)
                ),
                "a hexside some [[river]] lists",
            ));
        }
    }
    Ok((lines, by_side))
}

/// `[[place]]`: each place's name (once), cell, kinds and value.
fn places_of(ck: &Ck<'_>, raw: &RawMap) -> Result<Vec<Place>, MapError> {
    let mut places: Vec<Place> = Vec::new();
    let mut place_lines: Vec<usize> = Vec::new();
    for (i, p) in raw.place.iter().enumerate() {
        let f = format!("place[{i}]");
        let p = p.get_ref();
        let name = ck.text(&p.name, &format!("{f}.name"))?;
        if let Some(j) = places
            .iter()
            .position(|q| q.name.eq_ignore_ascii_case(&name))
        {
            return Err(ck.err(
                p.name.span(),
                &format!("{f}.name"),
                format!(
                    "place `{name}` is given twice (first on line {}); a place that is several things is one [[place]] with kind = [\"town\", \"port\"]",
                    place_lines[j]
                ),
                "each place's name once",
            ));
        }
        let cell = ck.cell(&p.cell, &format!("{f}.cell"))?;
        let mut kinds = Vec::new();
        for w in p.kind.get_ref().list() {
            let k: PlaceKind = w.parse().map_err(|e: String| {
                ck.err(
                    p.kind.span(),
                    &format!("{f}.kind"),
                    shown(&e),
                    PlaceKind::accepted(),
                )
            })?;
            if kinds.contains(&k) {
                return Err(ck.err(
                    p.kind.span(),
                    &format!("{f}.kind"),
                    format!("kind `{k}` is given twice"),
                    PlaceKind::accepted(),
                ));
            }
            kinds.push(k);
        }
        if kinds.is_empty() {
            return Err(ck.err(
                p.kind.span(),
                &format!("{f}.kind"),
                "no kind given",
                PlaceKind::accepted(),
            ));
        }
        let value = p
            .value
            .as_ref()
            .map(|v| ck.number(v, &format!("{f}.value"), 1, 99).map(|x| x as u32))
            .transpose()?;
        place_lines.push(ck.line(p.name.span()));
        places.push(Place {
            name,
            cell,
            kinds,
            value,
        });
    }
    Ok(places)
}

/// `[[edge]]`: each edge's role, side, cells and distance, checked against the grid.
fn edges_of(ck: &Ck<'_>, raw: &RawMap) -> Result<Vec<Edge>, MapError> {
    let mut edges = Vec::new();
    for (i, e) in raw.edge.iter().enumerate() {
        let f = format!("edge[{i}]");
        let e = e.get_ref();
        let role: EdgeRole = ck.word(&e.role, &format!("{f}.role"), EdgeRole::accepted())?;
        let side = e
            .side
            .as_ref()
            .map(|s| ck.word::<Side>(s, &format!("{f}.side"), Side::accepted()))
            .transpose()?;
        let cells = ck.cells(&e.cells, &format!("{f}.cells"))?;
        let distance = e
            .distance
            .as_ref()
            .map(|d| {
                ck.number(d, &format!("{f}.distance"), 0, 999)
                    .map(|n| n as u32)
            })
            .transpose()?;
        let edge = Edge {
            role,
            side,
            name: ck.opt_text(&e.name, &format!("{f}.name"))?,
            cells,
            distance,
            to: ck.opt_text(&e.to, &format!("{f}.to"))?,
        };
        if let Some(p) = edge_problem(&ck.grid, &edge) {
            let span = match p.field {
                "cells" => e.cells.first().map_or(e.role.span(), Spanned::span),
                "distance" => e.distance.as_ref().map_or(e.role.span(), Spanned::span),
                _ => e.role.span(),
            };
            return Err(ck.err(span, &format!("{f}.{}", p.field), p.message, p.accepted));
        }
        edges.push(edge);
    }
    Ok(edges)
}

/// `[[victory]]`: each entry's name, side and values, by columns, rows or a line of cells.
fn victory_of(ck: &Ck<'_>, raw: &RawMap) -> Result<Vec<Victory>, MapError> {
    let mut victory = Vec::new();
    for (i, v) in raw.victory.iter().enumerate() {
        let f = format!("victory[{i}]");
        let span = v.span();
        let v = v.get_ref();
        let name = ck.text(&v.name, &format!("{f}.name"))?;
        let side = v
            .side
            .as_ref()
            .map(|s| ck.word::<Side>(s, &format!("{f}.side"), Side::accepted()))
            .transpose()?;
        let given = [v.columns.is_some(), v.rows.is_some(), v.cells.is_some()];
        if given.iter().filter(|g| **g).count() != 1 {
            return Err(ck.err(
                span,
                &f,
                "a victory entry counts by exactly one of columns, rows or cells",
                "columns = { 05 = 10, ... }, rows = { 03 = 10, ... }, or cells = [...] with value",
            ));
        }
        if v.cells.is_none()
            && let Some(x) = &v.value
        {
            return Err(ck.err(
                x.span(),
                &format!("{f}.value"),
                "value goes with cells; columns and rows give a value each",
                "value with cells = [...]",
            ));
        }
        let by = if let Some(m) = &v.columns {
            VictoryBy::Columns(per_line(ck, m, &format!("{f}.columns"), true)?)
        } else if let Some(m) = &v.rows {
            VictoryBy::Rows(per_line(ck, m, &format!("{f}.rows"), false)?)
        } else {
            let list = v.cells.as_deref().unwrap_or(&[]);
            let cells = ck.cells(list, &format!("{f}.cells"))?;
            let Some(value) = &v.value else {
                return Err(ck.err(
                    span,
                    &format!("{f}.value"),
                    "a line of cells gives its value",
                    "value = a whole number from -9999 to 9999",
                ));
            };
            VictoryBy::Cells {
                cells,
                value: ck.number(value, &format!("{f}.value"), -9999, 9999)?,
            }
        };
        victory.push(Victory { name, side, by });
    }
    Ok(victory)
}

/// `[picture]`: a plain PNG or JPEG file name beside the map, finite numbers, a column and a
/// row above 0 (docs/MAPS.md, `picture.rs`).
fn picture(ck: &Ck<'_>, p: &RawPicture) -> Result<Picture, MapError> {
    let file = p.file.get_ref();
    plain_file_name(file).map_err(|why| {
        ck.err(
            p.file.span(),
            "picture.file",
            why,
            super::picture::FILE_WORDS,
        )
    })?;
    let number = |v: &Spanned<f64>, field: &str, lo: f64, hi: f64, words: &str| {
        let x = *v.get_ref();
        if x.is_finite() && x >= lo && x <= hi && !(lo == 0.0 && x == 0.0) {
            Ok(x)
        } else {
            Err(ck.err(v.span(), field, format!("{x} is out of range"), words))
        }
    };
    let origin_words = format!(
        "two numbers [x, y]: the first cell's centre in the picture's pixels, each from -{MAX_ORIGIN_PX} to {MAX_ORIGIN_PX}"
    );
    let origin = match p.origin.get_ref().as_slice() {
        [x, y] => [
            number(
                x,
                "picture.origin[0]",
                -MAX_ORIGIN_PX,
                MAX_ORIGIN_PX,
                &origin_words,
            )?,
            number(
                y,
                "picture.origin[1]",
                -MAX_ORIGIN_PX,
                MAX_ORIGIN_PX,
                &origin_words,
            )?,
        ],
        v => {
            return Err(ck.err(
                p.origin.span(),
                "picture.origin",
                format!("{} numbers given", v.len()),
                origin_words,
            ));
        }
    };
    let px_words = format!("a number of pixels above 0, at most {MAX_CELL_PX}");
    let column = number(&p.column, "picture.column", 0.0, MAX_CELL_PX, &px_words)?;
    let row = number(&p.row, "picture.row", 0.0, MAX_CELL_PX, &px_words)?;
    let rotation = p
        .rotation
        .as_ref()
        .map(|r| {
            number(
                r,
                "picture.rotation",
                -360.0,
                360.0,
                "degrees clockwise, from -360 to 360",
            )
        })
        .transpose()?
        .unwrap_or(0.0);
    Ok(Picture {
        file: file.clone(),
        alignment: Alignment {
            origin,
            column,
            row,
            rotation,
        },
        aligned: ck.opt_text(&p.aligned, "picture.aligned")?,
    })
}

/// A map's keys in the order the file gives them (serde's map is sorted by name).
fn in_file_order(m: &BTreeMap<Spanned<String>, CellList>) -> Vec<(&Spanned<String>, &CellList)> {
    let mut v: Vec<_> = m.iter().collect();
    v.sort_by_key(|(k, _)| k.span().start);
    v
}

/// Victory values per column or per row: two-digit keys on the map.
fn per_line(
    ck: &Ck<'_>,
    m: &BTreeMap<Spanned<String>, Spanned<i64>>,
    field: &str,
    columns: bool,
) -> Result<BTreeMap<i32, i64>, MapError> {
    let (lo, hi, what) = if columns {
        (ck.grid.first.col, ck.grid.last.col, "column")
    } else {
        (ck.grid.first.row, ck.grid.last.row, "row")
    };
    let mut out = BTreeMap::new();
    for (k, v) in m {
        let f = format!("{field}.{}", k.get_ref());
        let t = k.get_ref().trim();
        let n = (t.len() == 2 && t.bytes().all(|b| b.is_ascii_digit()))
            .then(|| t.parse::<i32>().ok())
            .flatten()
            .filter(|n| (lo..=hi).contains(n));
        let Some(n) = n else {
            return Err(ck.err(
                k.span(),
                &f,
                format!("`{}` is not a {what} of the map", shown(t)),
                format!("a two-digit {what} from {lo:02} to {hi:02}"),
            ));
        };
        out.insert(n, ck.number(v, &f, -9999, 9999)?);
    }
    if out.is_empty() {
        return Err(ck.err(
            0..0,
            field,
            format!("no {what} given"),
            format!("at least one {what} with its value"),
        ));
    }
    Ok(out)
}

/// One hexside feature entry: its sides from `sides` and `path`, with each side's span.
fn feature_line(
    ck: &Ck<'_>,
    feature: Feature,
    l: &Spanned<RawLine>,
    field: &str,
) -> Result<(Line, Vec<Range<usize>>), MapError> {
    let span = l.span();
    let l = l.get_ref();
    if feature != Feature::Rail {
        for (given, key) in [
            (l.section.as_ref().map(Spanned::span), "section"),
            (l.capacity.as_ref().map(Spanned::span), "capacity"),
        ] {
            if let Some(sp) = given {
                return Err(ck.err(
                    sp,
                    &format!("{field}.{key}"),
                    format!("only a [[rail]] has a {key} (FR-G1)"),
                    "name, sides, path",
                ));
            }
        }
    }
    let mut sides: Vec<Hexside> = Vec::new();
    let mut spans = Vec::new();
    let mut push = |s: Hexside, sp: Range<usize>, f: &str| -> Result<(), MapError> {
        if sides.contains(&s) {
            return Err(ck.err(
                sp,
                f,
                format!("hexside {} is given twice", ck.grid.side_label(s)),
                "each hexside once in an entry",
            ));
        }
        sides.push(s);
        spans.push(sp);
        Ok(())
    };
    for (i, s) in l.sides.iter().flatten().enumerate() {
        let f = format!("{field}.sides[{i}]");
        push(ck.side(s, &f)?, s.span(), &f)?;
    }
    let path = l.path.as_deref().unwrap_or(&[]);
    if path.len() == 1 {
        return Err(ck.err(
            path[0].span(),
            &format!("{field}.path"),
            "a path of one cell crosses no hexside",
            "two or more cells, each next to the one before",
        ));
    }
    let mut prev: Option<Hex> = None;
    for (i, s) in path.iter().enumerate() {
        let f = format!("{field}.path[{i}]");
        let h = ck.cell(s, &f)?;
        if let Some(p) = prev {
            let Some(side) = Hexside::between(p, h) else {
                return Err(ck.err(
                    s.span(),
                    &f,
                    format!(
                        "{} is not next to {}: a path goes from cell to neighbouring cell",
                        ck.grid.label(h),
                        ck.grid.label(p)
                    ),
                    format!("one of {}'s neighbours", ck.grid.label(p)),
                ));
            };
            push(side, s.span(), &f)?;
        }
        prev = Some(h);
    }
    if sides.is_empty() {
        return Err(ck.err(
            span,
            field,
            format!("a [[{feature}]] names its hexsides"),
            format!("sides = [{SIDE_ITEM}], or path = [cells, each next to the one before]"),
        ));
    }
    let capacity = l
        .capacity
        .as_ref()
        .map(|c| {
            ck.number(c, &format!("{field}.capacity"), 1, 99)
                .map(|x| x as u32)
        })
        .transpose()?;
    Ok((
        Line {
            feature,
            name: ck.opt_text(&l.name, &format!("{field}.name"))?,
            section: ck.opt_text(&l.section, &format!("{field}.section"))?,
            capacity,
            sides,
        },
        spans,
    ))
}

/// One of the club's `[[terrain]]` entries, provenance `club`; what it leaves out is unknown.
fn club_terrain(
    ck: &Ck<'_>,
    t: &RawTerrain,
    field: &str,
    table: &TerrainTable,
    rules: RuleSetId,
) -> Result<Terrain, MapError> {
    let name = t.name.get_ref().trim().to_string();
    if !is_name(&name) {
        return Err(ck.err(
            t.name.span(),
            &format!("{field}.name"),
            format!("`{}` is not a terrain name", shown(&name)),
            NAME_WORDS,
        ));
    }
    let applies = match &t.applies {
        None => Applies::Cell,
        Some(a) => match a.get_ref().trim() {
            "cell" => Applies::Cell,
            "hexside" => Applies::Hexside,
            other => {
                return Err(ck.err(
                    a.span(),
                    &format!("{field}.applies"),
                    format!("unknown `{}`", shown(other)),
                    "cell, hexside",
                ));
            }
        },
    };
    if applies == Applies::Hexside && name.parse::<Feature>().is_err() {
        return Err(ck.err(
            t.name.span(),
            &format!("{field}.name"),
            format!("`{name}` is not a hexside feature kepi draws"),
            Feature::accepted(),
        ));
    }
    if let Some(old) = table.get(&name, applies) {
        let whose = match old.declared {
            Declared::Rules => format!(
                "{}'s {} already has `{name}`{}: a map adds names, it never replaces the rule set's",
                rules.id(),
                table.title,
                old.rule
                    .as_deref()
                    .map(|r| format!(" ({r})"))
                    .unwrap_or_default()
            ),
            Declared::Map => format!("terrain `{name}` is given twice"),
        };
        let taken: BTreeSet<&str> = table.entries.iter().map(|e| e.name.as_str()).collect();
        return Err(ck.err(
            t.name.span(),
            &format!("{field}.name"),
            whose,
            format!(
                "a name not yet in the table (taken: {})",
                taken.into_iter().collect::<Vec<_>>().join(", ")
            ),
        ));
    }
    let colour = match &t.colour {
        None => None,
        Some(c) => {
            let v = c.get_ref().trim();
            let ok = v.len() == 7
                && v.starts_with('#')
                && v.bytes().skip(1).all(|b| b.is_ascii_hexdigit());
            if !ok {
                return Err(ck.err(
                    c.span(),
                    &format!("{field}.colour"),
                    format!("`{}` is not a colour", shown(v)),
                    "#rrggbb, such as #2f6b2f",
                ));
            }
            Some(v.to_ascii_lowercase())
        }
    };
    let effect = |s: &Option<Spanned<String>>, key: &str| -> Result<Effect, MapError> {
        Ok(match s {
            Some(s) => Effect {
                text: ck.text(s, &format!("{field}.{key}"))?,
                provenance: Source::Club,
            },
            None => Effect::unknown("not given"),
        })
    };
    let rule = match &t.rule {
        None => None,
        Some(r) => Some(
            RuleId::parse(r.get_ref())
                .ok_or_else(|| {
                    ck.err(
                        r.span(),
                        &format!("{field}.rule"),
                        format!("unknown rule id `{}`", shown(r.get_ref())),
                        "a rule id of RULES.md, such as FR-M1",
                    )
                })?
                .to_string(),
        ),
    };
    Ok(Terrain {
        movement: effect(&t.movement, "movement")?,
        combat: effect(&t.combat, "combat")?,
        other: t
            .other
            .as_ref()
            .map(|o| {
                Ok::<_, MapError>(Effect {
                    text: ck.text(o, &format!("{field}.other"))?,
                    provenance: Source::Club,
                })
            })
            .transpose()?,
        mp: t
            .mp
            .as_ref()
            .map(|m| {
                ck.number(m, &format!("{field}.mp"), 0, 99)
                    .map(|x| x as u32)
            })
            .transpose()?,
        name,
        applies,
        colour,
        rule,
        declared: Declared::Map,
    })
}
