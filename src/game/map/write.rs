//! Writing a [`Map`] back as the TOML of docs/MAPS.md a person would write (issue 41, the map
//! editor's "Save map"): `[map]`, `[provenance]`, the club's `[[terrain]]` entries, `[cells]` and
//! `[countries]` with the cells of a uniform rectangle written as one block (`"0203-0305"`), the
//! hexside features (a rail's or road's chain of cells as a `path`, the rest as `sides`), places,
//! edges, victory values and `[picture]` as [`Picture::table`] writes it.
//!
//! [`save`] never writes what the loader would refuse: the text is read back and checked, and
//! must be the same board ([`same_board`]), before a byte is written; it is written with a temp
//! file renamed over the old one, never through a link, never over a game's own files
//! ([`crate::fsio::write_output`]).

use std::path::Path;

use crate::hex::{Hex, Hexside, Offset};

use super::picture::WriteError;
use super::terrain::{Declared, Source};
use super::{Applies, Country, Feature, Grid, Line, Map, VictoryBy};

/// Lines longer than this are broken after a list item.
const WIDTH: usize = 96;

fn quoted(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

fn label(o: Offset) -> String {
    format!("{:02}{:02}", o.col, o.row)
}

/// `key = [items]` on one line, or broken over several indented lines when long.
fn list(key: &str, items: &[String]) -> String {
    let one = format!("{key} = [{}]", items.join(", "));
    if one.len() <= WIDTH {
        return one + "\n";
    }
    let mut out = format!("{key} = [\n");
    let mut line = String::from(" ");
    for it in items {
        if line.len() + it.len() + 2 > WIDTH && line.len() > 1 {
            out.push_str(line.trim_end());
            out.push('\n');
            line = String::from(" ");
        }
        line.push(' ');
        line.push_str(it);
        line.push(',');
    }
    out.push_str(line.trim_end());
    out.push_str("\n]\n");
    out
}

/// The cells for which `want` holds, as blocks: each a cell (`"0304"`) or the largest uniform
/// rectangle found from it column by column (`"0304-0607"`), every cell in exactly one block.
pub fn blocks(grid: &Grid, want: impl Fn(Hex) -> bool) -> Vec<String> {
    let (cols, rows) = (grid.columns(), grid.rows());
    let at = |c: usize, r: usize| {
        Hex::from_offset(
            Offset {
                col: grid.first.col + c as i32,
                row: grid.first.row + r as i32,
            },
            grid.layout,
        )
    };
    let mut wanted = vec![false; cols * rows];
    for c in 0..cols {
        for r in 0..rows {
            wanted[c * rows + r] = want(at(c, r));
        }
    }
    let mut out = Vec::new();
    for c in 0..cols {
        for r in 0..rows {
            if !wanted[c * rows + r] {
                continue;
            }
            let mut r2 = r;
            while r2 + 1 < rows && wanted[c * rows + r2 + 1] {
                r2 += 1;
            }
            let mut c2 = c;
            while c2 + 1 < cols && (r..=r2).all(|y| wanted[(c2 + 1) * rows + y]) {
                c2 += 1;
            }
            for x in c..=c2 {
                for y in r..=r2 {
                    wanted[x * rows + y] = false;
                }
            }
            let a = at(c, r).to_offset(grid.layout);
            let b = at(c2, r2).to_offset(grid.layout);
            out.push(if a == b {
                quoted(&label(a))
            } else {
                quoted(&format!("{}-{}", label(a), label(b)))
            });
        }
    }
    out
}

/// A hexside as `"0304:se"`, from whichever of its cells is on the map.
fn side_item(grid: &Grid, s: Hexside) -> String {
    let (a, b) = s.hexes();
    let text = if grid.contains(a) || !grid.contains(b) {
        format!("{}:{}", grid.label(a), s.dir.as_str())
    } else {
        format!("{}:{}", grid.label(b), s.dir.opposite().as_str())
    };
    quoted(&text)
}

/// The cells of a chain whose consecutive sides are `sides` in order, every cell on the map;
/// None when the sides do not make one.
fn chain(grid: &Grid, sides: &[Hexside]) -> Option<Vec<Hex>> {
    let first = sides.first()?;
    let (a, b) = first.hexes();
    'start: for (c0, c1) in [(a, b), (b, a)] {
        let mut cells = vec![c0, c1];
        for s in &sides[1..] {
            let (x, y) = s.hexes();
            let last = *cells.last()?;
            let next = if x == last {
                y
            } else if y == last {
                x
            } else {
                continue 'start;
            };
            cells.push(next);
        }
        if cells.iter().all(|h| grid.contains(*h)) {
            return Some(cells);
        }
    }
    None
}

fn line_entry(grid: &Grid, l: &Line) -> String {
    let mut s = format!("\n[[{}]]\n", l.feature.as_str());
    if let Some(n) = &l.name {
        s += &format!("name = {}\n", quoted(n));
    }
    if let Some(n) = &l.section {
        s += &format!("section = {}\n", quoted(n));
    }
    if let Some(c) = l.capacity {
        s += &format!("capacity = {c}\n");
    }
    let path = matches!(l.feature, Feature::Rail | Feature::Road)
        .then(|| chain(grid, &l.sides))
        .flatten();
    match path {
        Some(cells) => {
            let items: Vec<String> = cells.iter().map(|h| quoted(&grid.label(*h))).collect();
            s += &list("path", &items);
        }
        None => {
            let items: Vec<String> = l.sides.iter().map(|x| side_item(grid, *x)).collect();
            s += &list("sides", &items);
        }
    }
    s
}

/// The map as the TOML of docs/MAPS.md: a file [`Map::from_source`] reads back as the same board.
/// Over 150 lines: the file's sections one after another, in docs/MAPS.md's order, so it reads
/// against that page (and against `check.rs`, which reads them back).
pub fn to_toml(map: &Map) -> String {
    let g = &map.grid;
    let mut s = String::from("[map]\n");
    s += &format!("name = {}\n", quoted(&map.name));
    s += &format!("rules = {}\n", quoted(map.rules.id()));
    s += &format!("layout = {}\n", quoted(g.layout.as_str()));
    s += &format!("first = {}\n", quoted(&label(g.first)));
    s += &format!("last = {}\n", quoted(&label(g.last)));
    s += &format!("default_terrain = {}\n", quoted(&map.default_terrain));
    // The commonest country is the default where every cell has one.
    let countries: Vec<Option<Country>> = g.cells().map(|h| map.country_of(h)).collect();
    let default_country = if countries.iter().all(Option::is_some) {
        Country::ALL
            .iter()
            .copied()
            .max_by_key(|c| {
                (
                    countries.iter().filter(|x| **x == Some(*c)).count(),
                    std::cmp::Reverse(*c),
                )
            })
            .filter(|_| !countries.is_empty())
    } else {
        None
    };
    if let Some(c) = default_country {
        s += &format!("default_country = {}\n", quoted(c.as_str()));
    }
    if let Some(n) = &map.note {
        s += &format!("note = {}\n", quoted(n));
    }

    let p = &map.provenance;
    s += "\n[provenance]\n";
    s += &format!("source = {}\n", quoted(p.source.as_str()));
    s += &format!("drawn_by = {}\n", quoted(&p.drawn_by));
    s += &format!("from = {}\n", quoted(&p.from));
    if let Some(n) = &p.note {
        s += &format!("note = {}\n", quoted(n));
    }

    for t in map
        .terrain
        .entries
        .iter()
        .filter(|t| t.declared == Declared::Map)
    {
        s += "\n[[terrain]]\n";
        s += &format!("name = {}\n", quoted(&t.name));
        if t.applies == Applies::Hexside {
            s += "applies = \"hexside\"\n";
        }
        if let Some(c) = &t.colour {
            s += &format!("colour = {}\n", quoted(c));
        }
        if t.movement.provenance == Source::Club {
            s += &format!("movement = {}\n", quoted(&t.movement.text));
        }
        if let Some(mp) = t.mp {
            s += &format!("mp = {mp}\n");
        }
        if t.combat.provenance == Source::Club {
            s += &format!("combat = {}\n", quoted(&t.combat.text));
        }
        if let Some(o) = &t.other {
            s += &format!("other = {}\n", quoted(&o.text));
        }
        if let Some(r) = &t.rule {
            s += &format!("rule = {}\n", quoted(r));
        }
    }

    // Each terrain but the default, in the order the map first met them.
    let mut cell_lines = String::new();
    for name in map.terrain_names.iter().skip(1) {
        if *name == map.default_terrain {
            continue;
        }
        let items = blocks(g, |h| map.terrain_of(h) == Some(name.as_str()));
        if !items.is_empty() {
            cell_lines += &list(&bare_key(name), &items);
        }
    }
    if !cell_lines.is_empty() {
        s += "\n[cells]\n";
        s += &cell_lines;
    }

    let mut country_lines = String::new();
    for c in Country::ALL {
        if Some(*c) == default_country {
            continue;
        }
        let items = blocks(g, |h| map.country_of(h) == Some(*c));
        if !items.is_empty() {
            country_lines += &list(c.as_str(), &items);
        }
    }
    if !country_lines.is_empty() {
        s += "\n[countries]\n";
        s += &country_lines;
    }

    // The checker reads the features grouped in this order; written so, they read back in it.
    for f in Feature::ALL {
        for l in map.lines.iter().filter(|l| l.feature == *f) {
            s += &line_entry(g, l);
        }
    }

    for pl in &map.places {
        s += "\n[[place]]\n";
        s += &format!("name = {}\n", quoted(&pl.name));
        s += &format!("cell = {}\n", quoted(&g.label(pl.cell)));
        let kinds: Vec<String> = pl.kinds.iter().map(|k| quoted(k.as_str())).collect();
        if kinds.len() == 1 {
            s += &format!("kind = {}\n", kinds[0]);
        } else {
            s += &format!("kind = [{}]\n", kinds.join(", "));
        }
        if let Some(v) = pl.value {
            s += &format!("value = {v}\n");
        }
    }

    for e in &map.edges {
        s += "\n[[edge]]\n";
        s += &format!("role = {}\n", quoted(e.role.as_str()));
        if let Some(side) = e.side {
            s += &format!("side = {}\n", quoted(side.as_str()));
        }
        if let Some(n) = &e.name {
            s += &format!("name = {}\n", quoted(n));
        }
        s += &list("cells", &cells_in_order(g, &e.cells));
        if let Some(d) = e.distance {
            s += &format!("distance = {d}\n");
        }
        if let Some(t) = &e.to {
            s += &format!("to = {}\n", quoted(t));
        }
    }

    for v in &map.victory {
        s += "\n[[victory]]\n";
        s += &format!("name = {}\n", quoted(&v.name));
        if let Some(side) = v.side {
            s += &format!("side = {}\n", quoted(side.as_str()));
        }
        match &v.by {
            VictoryBy::Columns(m) | VictoryBy::Rows(m) => {
                let key = if matches!(v.by, VictoryBy::Columns(_)) {
                    "columns"
                } else {
                    "rows"
                };
                let items: Vec<String> = m.iter().map(|(k, x)| format!("{k:02} = {x}")).collect();
                s += &format!("{key} = {{ {} }}\n", items.join(", "));
            }
            VictoryBy::Cells { cells, value } => {
                s += &list("cells", &cells_in_order(g, cells));
                s += &format!("value = {value}\n");
            }
        }
    }

    if let Some(pic) = &map.picture {
        s += "\n";
        s += &pic.table("\n");
    }
    s
}

/// A list of cells kept in its order (an edge's and a victory line's cells are a list, not a
/// set): where consecutive cells run as a block reads them (column by column, each column's rows
/// in order), the block (`"1001-1008"`), else the cell.
fn cells_in_order(g: &Grid, cells: &[Hex]) -> Vec<String> {
    let offs: Vec<Offset> = cells.iter().map(|h| h.to_offset(g.layout)).collect();
    let on = |o: Offset| g.holds(o);
    let mut out = Vec::new();
    let mut i = 0;
    while i < offs.len() {
        let a = offs[i];
        if !on(a) {
            out.push(quoted(&g.label(cells[i])));
            i += 1;
            continue;
        }
        let mut h = 1;
        while offs.get(i + h)
            == Some(&Offset {
                col: a.col,
                row: a.row + h as i32,
            })
        {
            h += 1;
        }
        let mut w = 1;
        'cols: loop {
            let start = i + w * h;
            for k in 0..h {
                let want = Offset {
                    col: a.col + w as i32,
                    row: a.row + k as i32,
                };
                if offs.get(start + k) != Some(&want) || !on(want) {
                    break 'cols;
                }
            }
            w += 1;
        }
        let b = Offset {
            col: a.col + w as i32 - 1,
            row: a.row + h as i32 - 1,
        };
        out.push(if w * h == 1 || !on(b) {
            quoted(&label(a))
        } else {
            quoted(&format!("{}-{}", label(a), label(b)))
        });
        i += if on(b) { w * h } else { 1 };
    }
    out
}

/// A terrain name as a TOML key: bare where it may be (every checked name is), else quoted.
fn bare_key(name: &str) -> String {
    if !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        name.to_string()
    } else {
        quoted(name)
    }
}

/// True when two maps describe the same board: every field but the file they were read from,
/// each cell's terrain by name (not by the order the file listed the names) and the picture's
/// numbers as [`Picture::table`] writes them.
///
/// [`Picture::table`]: super::Picture::table
pub fn same_board(a: &Map, b: &Map) -> bool {
    a.name == b.name
        && a.note == b.note
        && a.rules == b.rules
        && a.grid == b.grid
        && a.provenance == b.provenance
        && a.terrain == b.terrain
        && a.terrain_checked == b.terrain_checked
        && a.default_terrain == b.default_terrain
        && a.grid
            .cells()
            .all(|h| a.terrain_of(h) == b.terrain_of(h) && a.country_of(h) == b.country_of(h))
        && a.lines == b.lines
        && a.places == b.places
        && a.edges == b.edges
        && a.victory == b.victory
        && a.picture.as_ref().map(|p| p.as_written()) == b.picture.as_ref().map(|p| p.as_written())
}

/// The text to save for `map`, checked: it reads back ([`Map::from_source`], as `file`) as the
/// same board. An edit the loader would refuse (a bridge with no river under it, a rail link off
/// the edge) is refused here, naming what the loader says.
pub fn checked_text(map: &Map, file: &str) -> Result<String, WriteError> {
    let text = to_toml(map);
    let back = Map::from_source(file, &text).map_err(|e| {
        WriteError::Refused(format!(
            "the map would not read back, so it is not saved: {e}"
        ))
    })?;
    if !same_board(map, &back) {
        return Err(WriteError::Refused(format!(
            "{file}: the written map does not read back as the same board, so it is not saved"
        )));
    }
    Ok(text)
}

/// Saves `map` at `path` ([`checked_text`]): through a temp file renamed over the old one, never
/// through a symbolic link, never over a game's own files. Returns the text written.
pub fn save(map: &Map, path: &Path) -> Result<String, WriteError> {
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(WriteError::Refused(format!(
            "{}: is a symbolic link; kepi never writes through links: name the map file itself",
            path.display()
        )));
    }
    let text = checked_text(map, &path.display().to_string())?;
    crate::fsio::write_output(path, text.as_bytes()).map_err(|e| {
        if e.io_kind() == std::io::ErrorKind::InvalidInput
            || matches!(e.problem, crate::fsio::FsProblem::GameFile { .. })
        {
            WriteError::Refused(e.to_string())
        } else {
            WriteError::Failed(e.to_string())
        }
    })?;
    Ok(text)
}
