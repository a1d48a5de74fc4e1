//! `kepi map check|show|cell FILE`: a club's map of its board (issue 41, docs/MAPS.md), checked,
//! printed, or asked about one cell.
//!
//! FILE is a map file, or the name of one of kepi's own examples (`example-hex`, `example-1870`,
//! `example-pw`) where no file of that name is there. A map that does not read exits 2 naming the
//! file, line, field and the accepted values.
//!
//! `align FILE --cell CELL=X,Y --cell CELL=X,Y [--check CELL=X,Y] [--picture NAME] [--write]`
//! fits the picture of the board to the grid (`kepi_game::map::picture`) and prints, or writes,
//! the map's `[picture]` table; JSON: `file`, `picture` (`file`, `origin`, `column`, `row`,
//! `rotation`, `aligned`), `cells` and `check` (`[{cell, px, fitted, off}]`), `written`.
//!
//! JSON: `show` → the map ([`kepi_game::map::MapView`]: `file`, `name`, `rules`, `layout`, `first`,
//! `last`, `columns`, `rows`, `cells`, `provenance`, `terrain_table`, `default_terrain`,
//! `terrain`, `countries`, `no_country`, `hexsides`, `places`, `edges`, `victory`, `picture`); `cell` → one
//! cell ([`kepi_game::map::CellView`]: `file`, `cell`, `terrain`, `effects`, `country`, `places`,
//! `sides`, `edges`, `victory`).

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::{CliError, print_json};
use kepi_game::hex::Hex;
use kepi_game::map::picture::{self, Alignment, Picture};
use kepi_game::map::{Effect, Map, MapView, Terrain};

/// `kepi map ...`
#[derive(Debug, Args)]
pub struct MapArgs {
    /// What to do with the map.
    #[command(subcommand)]
    pub command: MapCommand,
}

/// The map commands.
#[derive(Debug, Subcommand)]
pub enum MapCommand {
    /// Check a map file: exit 0 with a one-line summary, or exit 2 naming file, line and field.
    Check {
        /// The map file (TOML, docs/MAPS.md), or one of kepi's own: example-hex, example-1870,
        /// example-pw.
        #[arg(value_name = "FILE")]
        file: String,
    },
    /// Print a map: grid, provenance, terrain table, cells per terrain and country, hexside
    /// features, places, edges and victory values.
    Show {
        /// The map file, or one of kepi's own (example-hex, example-1870, example-pw).
        #[arg(value_name = "FILE")]
        file: String,
        /// Print JSON (a stable contract) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// One cell of a map: its terrain with its effects, country, places, the features on its six
    /// sides, edge roles and victory values.
    Cell {
        /// The map file, or one of kepi's own (example-hex, example-1870, example-pw).
        #[arg(value_name = "FILE")]
        file: String,
        /// The cell: a four-digit label, column then row (e.g. 1640).
        #[arg(value_name = "CELL", allow_hyphen_values = true)]
        cell: String,
        /// Print JSON (a stable contract) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Import a board from a VASSAL module (.vmod): its picture and hex grid become a map file
    /// with the picture aligned and every cell the rule set's clear terrain, ready to paint.
    /// `--list` names the module's boards with their grids.
    #[command(name = "import-vassal")]
    ImportVassal(ImportVassalArgs),
    /// Align the picture of the board to the grid: two cells' centres clicked on the picture
    /// (`--cell 0101=412,96.5 --cell 1210=1340,1020`) give its origin, scale and rotation (a
    /// regular hex: row = column x 2/sqrt 3), printed as the map's `[picture]` table;
    /// `--check 0605=760,540` says how many pixels a third cell is off; `--write` rewrites the
    /// map file's `[picture]` table in place (nothing else of the file changes).
    Align {
        /// The map file (TOML, docs/MAPS.md).
        #[arg(value_name = "FILE")]
        file: String,
        /// A cell and the pixel of its centre on the picture, x then y (x right, y down from the
        /// picture's top-left corner): `0101=412,96.5`. Given twice.
        #[arg(long = "cell", value_name = "CELL=X,Y", allow_hyphen_values = true)]
        cells: Vec<String>,
        /// A third cell to check the fit on: `0605=760,540`; the pixels it is off are printed
        /// and kept in the table's `aligned` note.
        #[arg(long, value_name = "CELL=X,Y", allow_hyphen_values = true)]
        check: Option<String>,
        /// The picture's file name beside the map (PNG or JPEG); left out, the map's own
        /// `[picture] file`.
        #[arg(long, value_name = "NAME")]
        picture: Option<String>,
        /// Rewrite the map file's `[picture]` table with the fitted numbers (a temp file beside
        /// it, then renamed over it; never through a symbolic link).
        #[arg(long)]
        write: bool,
        /// Print JSON (a stable contract) instead of text.
        #[arg(long)]
        json: bool,
    },
}

/// `kepi map import-vassal MODULE.vmod --board NAME --out DIR [--rules R] [--force]`, or `--list`.
#[derive(Debug, Args)]
pub struct ImportVassalArgs {
    /// The VASSAL module: a .vmod file (a zip holding buildFile.xml and images/).
    #[arg(value_name = "MODULE")]
    pub module: PathBuf,
    /// The board to import, by its name in the module (`--list` names them).
    #[arg(long, value_name = "NAME", required_unless_present = "list")]
    pub board: Option<String>,
    /// The map window the board is on, where several boards share its name.
    #[arg(long, value_name = "MAP")]
    pub map: Option<String>,
    /// The folder to write NAME.toml and the board's picture in (made if missing).
    #[arg(long, value_name = "DIR", required_unless_present = "list")]
    pub out: Option<PathBuf>,
    /// The rule set the map is drawn for: a hex rule set (`kepi rules`) whose numbering is the
    /// board's. Without it, the one hex rule set whose numbering fits (where two fit, kepi asks).
    #[arg(long, value_name = "RULES")]
    pub rules: Option<String>,
    /// Replace the map file and picture if they are already in DIR.
    #[arg(long)]
    pub force: bool,
    /// Name the module's boards, their pictures and grids, and whether each imports.
    #[arg(long, conflicts_with_all = ["board", "out", "force"])]
    pub list: bool,
}

/// `kepi map align`'s arguments, read.
struct AlignArgs<'a> {
    file: &'a str,
    cells: &'a [String],
    check: Option<&'a str>,
    picture: Option<&'a str>,
    write: bool,
    json: bool,
}

/// Runs `kepi map`.
pub fn run(a: &MapArgs) -> Result<(), CliError> {
    match &a.command {
        MapCommand::ImportVassal(args) => import_vassal(args),
        MapCommand::Check { file } => {
            let map = Map::named(file)?;
            crate::out(format_args!(
                "{}\n",
                kepi_game::roster::shown(&map.summary())
            ))
        }
        MapCommand::Show { file, json } => {
            let map = Map::named(file)?;
            let v = map.view();
            if *json {
                return print_json(&v);
            }
            show_text(&v)
        }
        MapCommand::Align {
            file,
            cells,
            check,
            picture,
            write,
            json,
        } => align(&AlignArgs {
            file,
            cells,
            check: check.as_deref(),
            picture: picture.as_deref(),
            write: *write,
            json: *json,
        }),
        MapCommand::Cell { file, cell, json } => {
            let map = Map::named(file)?;
            let h = Hex::from_label(cell, map.grid.layout)
                .map_err(|e| CliError::usage(format!("CELL: {e}")))?;
            let Some(v) = map.cell_view(h) else {
                let g = &map.grid;
                return Err(CliError::usage(format!(
                    "CELL: {} is off the map {} (accepted: a cell from {:02}{:02} to {:02}{:02})",
                    cell.trim(),
                    map.file,
                    g.first.col,
                    g.first.row,
                    g.last.col,
                    g.last.row
                )));
            };
            if *json {
                return print_json(&v);
            }
            textln!("{}: cell {} ({})", v.file, v.cell, map.name);
            textln!("terrain  {}", v.terrain);
            effects_lines(v.effects, "  ")?;
            textln!(
                "country  {}",
                v.country.map_or("none given", |c| c.as_str())
            );
            for p in &v.places {
                textln!("place    {} ({})", p.name, kinds(p.kinds));
            }
            for s in &v.sides {
                if s.features.is_empty() {
                    continue;
                }
                for f in &s.features {
                    textln!(
                        "side {:<3} {} to {}: {}{}{}",
                        s.direction.as_str(),
                        s.hexside,
                        s.neighbour,
                        f.feature,
                        f.name.map(|n| format!(" ({n})")).unwrap_or_default(),
                        rail_words(f.section, f.capacity)
                    );
                    match f.effects {
                        Some(t) => effects_lines(Some(t), "    ")?,
                        None => textln!("    effects unknown: not in the terrain table"),
                    }
                }
            }
            for e in &v.edges {
                textln!(
                    "edge     {}{}{}",
                    e.role,
                    e.side.map(|s| format!(" ({s})")).unwrap_or_default(),
                    e.name.map(|n| format!(": {n}")).unwrap_or_default()
                );
            }
            for x in &v.victory {
                textln!("victory  {}: {}", x.name, x.value);
            }
            Ok(())
        }
    }
}

/// `CELL=X,Y` read on the map: the cell (on it) and the pixel; `arg` names the option in errors.
fn cell_px(map: &Map, text: &str, arg: &str) -> Result<(Hex, [f64; 2]), CliError> {
    const WORDS: &str =
        "CELL=X,Y: a cell of the map and its centre's pixel on the picture, such as 0101=412,96.5";
    let bad = |why: String| {
        CliError::usage(format!(
            "{arg} {}: {why} (accepted: {WORDS})",
            text.escape_debug()
        ))
    };
    let Some((c, p)) = text.split_once('=') else {
        return Err(bad("no `=` between the cell and its pixel".into()));
    };
    let h = Hex::from_label(c, map.grid.layout).map_err(|e| bad(e.to_string()))?;
    if !map.on_map(h) {
        return Err(bad(format!(
            "cell {} is off the map ({})",
            c.trim(),
            map.grid.span_label()
        )));
    }
    let Some((x, y)) = p.split_once(',') else {
        return Err(bad("the pixel is two numbers, x,y".into()));
    };
    let n = |s: &str| {
        s.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && v.abs() <= picture::MAX_ORIGIN_PX)
    };
    let (Some(x), Some(y)) = (n(x), n(y)) else {
        return Err(bad(format!(
            "`{}` is not two numbers of pixels (each within {})",
            p.escape_debug(),
            picture::MAX_ORIGIN_PX
        )));
    };
    Ok((h, [x, y]))
}

/// `kepi map align --json`.
#[derive(serde::Serialize)]
struct AlignOut<'a> {
    file: &'a str,
    picture: &'a Picture,
    cells: Vec<AlignCell>,
    check: Option<AlignCell>,
    written: bool,
}

/// A cell clicked: its label, the pixel given, where the fit puts it and how far off that is.
#[derive(serde::Serialize)]
struct AlignCell {
    cell: String,
    px: [f64; 2],
    fitted: [f64; 2],
    off: f64,
}

/// `kepi map align`: the fit, printed as the `[picture]` table, and with `--write` saved.
fn align(a: &AlignArgs<'_>) -> Result<(), CliError> {
    let map = Map::named(a.file)?;
    let [one, two] = a.cells else {
        return Err(CliError::usage(format!(
            "--cell: give exactly two cells with their pixels (--cell 0101=412,96.5 --cell 1210=1340,1020); {} given",
            a.cells.len()
        )));
    };
    let pa = cell_px(&map, one, "--cell")?;
    let pb = cell_px(&map, two, "--cell")?;
    let checked = a.check.map(|c| cell_px(&map, c, "--check")).transpose()?;
    let file = match (a.picture, &map.picture) {
        (Some(name), _) => {
            picture::plain_file_name(name).map_err(|why| {
                CliError::usage(format!(
                    "--picture: {why} (accepted: {})",
                    picture::FILE_WORDS
                ))
            })?;
            name.to_string()
        }
        (None, Some(p)) => p.file.clone(),
        (None, None) => {
            return Err(CliError::usage(format!(
                "--picture: {} has no [picture] table: name the picture file beside it (--picture board.jpg)",
                map.file
            )));
        }
    };
    let fit = Alignment::fit(&map.grid, pa, pb)
        .map_err(|why| CliError::usage(format!("--cell: {why}")))?;
    let g = &map.grid;
    let clicked = |(h, px): (Hex, [f64; 2])| {
        let fitted = fit.centre(g, h);
        AlignCell {
            cell: g.label(h),
            px,
            fitted,
            off: fit.check(g, h, px),
        }
    };
    let check = checked.map(clicked);
    let pic = Picture {
        file,
        alignment: fit,
        aligned: Some(picture::note(
            g,
            pa,
            pb,
            check.as_ref().zip(checked).map(|(c, (h, _))| (h, c.off)),
        )),
    };
    if a.write {
        if map.file.starts_with("<built-in ") {
            return Err(CliError::usage(format!(
                "FILE: {} is kepi's own map, compiled in: copy maps/{}.toml beside the picture and align the copy",
                map.file,
                a.file.trim()
            )));
        }
        picture::write_alignment(std::path::Path::new(a.file), &pic).map_err(|e| match e {
            picture::WriteError::Refused(m) => CliError::usage(format!("FILE: {m}")),
            picture::WriteError::Failed(m) => CliError::failed(m),
        })?;
    }
    if a.json {
        return print_json(&AlignOut {
            file: &map.file,
            picture: &pic,
            cells: vec![clicked(pa), clicked(pb)],
            check,
            written: a.write,
        });
    }
    textln!(
        "{}: {} fitted from {} and {}",
        map.file,
        pic.file,
        g.label(pa.0),
        g.label(pb.0)
    );
    if let Some(c) = &check {
        textln!(
            "check {}: clicked at ({}, {}), the fit puts it at ({}, {}): {} px off",
            c.cell,
            picture::num(c.px[0]),
            picture::num(c.px[1]),
            picture::num(c.fitted[0]),
            picture::num(c.fitted[1]),
            picture::num(c.off)
        );
    }
    for l in pic.table("\n").lines() {
        textln!("{l}");
    }
    if a.write {
        textln!("written to {} (its [picture] table only)", map.file);
    }
    Ok(())
}

fn kinds(k: &[kepi_game::map::PlaceKind]) -> String {
    k.iter().map(|k| k.as_str()).collect::<Vec<_>>().join(", ")
}

fn rail_words(section: Option<&str>, capacity: Option<u32>) -> String {
    let mut s = String::new();
    if let Some(x) = section {
        s.push_str(&format!(", section {x}"));
    }
    if let Some(c) = capacity {
        s.push_str(&format!(", capacity {c}"));
    }
    s
}

fn effect_words(e: &Effect) -> String {
    format!("{} [{}]", e.text, e.provenance)
}

/// A terrain entry's effects, one per line, each with its provenance; unknown when none.
fn effects_lines(t: Option<&Terrain>, indent: &str) -> Result<(), CliError> {
    let Some(t) = t else {
        textln!("{indent}effects unknown: no terrain table names it");
        return Ok(());
    };
    textln!("{indent}movement: {}", effect_words(&t.movement));
    textln!("{indent}combat:   {}", effect_words(&t.combat));
    if let Some(o) = &t.other {
        textln!("{indent}other:    {}", effect_words(o));
    }
    if let Some(r) = &t.rule {
        textln!("{indent}rule:     {r} ({})", declared_words(t));
    }
    Ok(())
}

/// Whose table an entry is from, in words.
fn declared_words(t: &Terrain) -> &'static str {
    match t.declared {
        kepi_game::map::Declared::Rules => "the rule set's table",
        kepi_game::map::Declared::Map => "the map's own table",
    }
}

/// `kepi map show` as text.
fn show_text(v: &MapView<'_>) -> Result<(), CliError> {
    textln!("{}: {}", v.file, v.name);
    if let Some(n) = v.note {
        textln!("  {n}");
    }
    textln!(
        "rules     {} ({}), numbered {}",
        v.rules,
        v.rules_title,
        v.layout
    );
    textln!(
        "grid      {}-{}: {} columns x {} rows, {} cells",
        v.first,
        v.last,
        v.columns,
        v.rows,
        v.cells
    );
    let p = v.provenance;
    textln!(
        "drawn     by {}, from: {} [{}]{}",
        p.drawn_by,
        p.from,
        p.source,
        p.note
            .as_deref()
            .map(|n| format!("; {n}"))
            .unwrap_or_default()
    );
    if let Some(p) = v.picture {
        textln!(
            "picture   {}{}",
            p.summary(),
            p.aligned
                .as_deref()
                .map(|n| format!("; aligned: {n}"))
                .unwrap_or_default()
        );
    }
    let t = &v.terrain_table;
    textln!(
        "terrain   {}{}{}",
        t.title,
        t.rule.map(|r| format!(" ({r})")).unwrap_or_default(),
        if t.checked {
            ""
        } else {
            ": names not checked, every effect unknown"
        }
    );
    for e in t.entries {
        textln!(
            "  {:<10} {:<7} movement: {}; combat: {}",
            e.name,
            e.applies.as_str(),
            effect_words(&e.movement),
            effect_words(&e.combat)
        );
    }
    textln!("cells     (default {})", v.default_terrain);
    for c in &v.terrain {
        textln!("  {:<10} {}", c.terrain, c.cells);
    }
    if !v.countries.is_empty() || v.no_country < v.cells {
        textln!("countries");
        for c in &v.countries {
            textln!("  {:<11} {}", c.country.as_str(), c.cells);
        }
        if v.no_country > 0 {
            textln!("  {:<11} {}", "none given", v.no_country);
        }
    }
    if !v.hexsides.is_empty() {
        textln!("hexsides");
        for l in &v.hexsides {
            textln!(
                "  {}{}{}: {}",
                l.feature.as_str(),
                l.name.map(|n| format!(" {n}")).unwrap_or_default(),
                rail_words(l.section, l.capacity),
                l.sides.join(" ")
            );
        }
    }
    if !v.places.is_empty() {
        textln!("places");
        for p in &v.places {
            textln!(
                "  {} {} ({}){}",
                p.cell,
                p.name,
                kinds(p.kinds),
                p.value.map(|x| format!(", value {x}")).unwrap_or_default()
            );
        }
    }
    if !v.edges.is_empty() {
        textln!("edges");
        for e in &v.edges {
            textln!(
                "  {}{}{}: {}{}{}",
                e.role,
                e.side.map(|s| format!(" ({s})")).unwrap_or_default(),
                e.name.map(|n| format!(" {n}")).unwrap_or_default(),
                e.cells.join(" "),
                e.distance
                    .map(|d| format!(", distance {d}"))
                    .unwrap_or_default(),
                e.to.map(|x| format!(", to {x}")).unwrap_or_default()
            );
        }
    }
    if !v.victory.is_empty() {
        textln!("victory");
        for x in &v.victory {
            let what = match (&x.values, &x.cells, x.value) {
                (Some(m), _, _) => m
                    .iter()
                    .map(|(k, n)| format!("{k}={n}"))
                    .collect::<Vec<_>>()
                    .join(" "),
                (None, Some(c), Some(n)) => format!("{} = {n}", c.join(" ")),
                _ => String::new(),
            };
            textln!(
                "  {}{} per {}: {}",
                x.name,
                x.side.map(|s| format!(" ({s})")).unwrap_or_default(),
                x.per,
                what
            );
        }
    }
    Ok(())
}

/// `kepi map import-vassal`: a module refused or a board that cannot be imported exits 2, as a
/// map file that does not read does; a file that could not be written exits 1.
fn import_vassal(a: &ImportVassalArgs) -> Result<(), CliError> {
    use kepi_game::map::vassal::{self, Limits, WriteError};
    let given: Option<kepi_game::rules::RuleSetId> = a
        .rules
        .as_deref()
        .map(str::parse)
        .transpose()
        .map_err(|e: String| CliError::usage(format!("--rules: {e}")))?;
    if let Some(rules) = given
        && !rules.uses_hexes()
    {
        let hexes: Vec<&str> = kepi_game::rules::RuleSetId::hex_sets()
            .into_iter()
            .map(|r| r.id())
            .collect();
        return Err(CliError::usage(format!(
            "--rules: {} is not played on a hex map (accepted: {})",
            rules.id(),
            hexes.join(", ")
        )));
    }
    let refused = |e: vassal::VassalError| CliError::usage(e.to_string());
    let mut archive = vassal::open_module(&a.module, Limits::DEFAULT).map_err(refused)?;
    let module = archive.module().map_err(refused)?;
    if a.list {
        textln!(
            "{}: {} ({} board{})",
            module.file,
            module.title(),
            module.boards.len(),
            if module.boards.len() == 1 { "" } else { "s" }
        );
        for l in vassal::list(&mut archive, &module) {
            textln!("board `{}`", l.title);
            match &l.picture {
                Some(Ok((img, p))) => {
                    textln!(
                        "  picture  images/{img}: {} {} x {}",
                        p.format,
                        p.width,
                        p.height
                    )
                }
                Some(Err(m)) => textln!("  picture  {m}"),
                None => textln!("  picture  none"),
            }
            match &l.grid {
                Ok(p) => {
                    textln!(
                        "  grid     {:02}{:02}-{:02}{:02}, {} x {} cells, {} (rules {}): importable",
                        p.first.col,
                        p.first.row,
                        p.last.col,
                        p.last.row,
                        p.last.col - p.first.col + 1,
                        p.last.row - p.first.row + 1,
                        p.layout,
                        kepi_game::rules::RuleSetId::hex_sets()
                            .into_iter()
                            .filter(|r| r.hex_layout() == p.layout)
                            .map(|r| r.id())
                            .collect::<Vec<_>>()
                            .join(", ")
                    );
                    for n in &p.notes {
                        textln!("           {n}");
                    }
                }
                Err(m) => textln!("  grid     not importable: {m}"),
            }
        }
        return Ok(());
    }
    let (Some(board), Some(out)) = (&a.board, &a.out) else {
        return Err(CliError::usage(
            "give --board NAME and --out DIR (or --list to name the module's boards)",
        ));
    };
    let b = module.board(board, a.map.as_deref()).map_err(refused)?;
    let imported = vassal::import(&mut archive, &module, b, given).map_err(refused)?;
    let written = vassal::write_imported(&imported, out, a.force).map_err(|e| match e {
        WriteError::Refused(m) => CliError::usage(m),
        WriteError::Failed(m) => CliError::failed(m),
    })?;
    let p = &imported.plan;
    let names: Vec<String> = written.iter().map(|w| w.display().to_string()).collect();
    textln!("wrote {}", names.join(" and "));
    textln!(
        "board `{}` of {}: {} x {} cells ({:02}{:02}-{:02}{:02}, {}, rules {}), every cell clear",
        imported.board,
        module.title(),
        p.last.col - p.first.col + 1,
        p.last.row - p.first.row + 1,
        p.first.col,
        p.first.row,
        p.last.col,
        p.last.row,
        p.layout,
        imported.rules
    );
    if let Some(info) = imported.picture_info {
        textln!(
            "picture {} x {} px, aligned from the module's grid: first cell at ({}, {}), column {} px, row {} px",
            info.width,
            info.height,
            picture::num(p.alignment.origin[0]),
            picture::num(p.alignment.origin[1]),
            picture::num(p.alignment.column),
            picture::num(p.alignment.row)
        );
    } else {
        textln!("the board has no picture: the map has none");
    }
    for n in &p.notes {
        textln!("note: {n}");
    }
    if let Some(map) = written.last() {
        textln!("check it: kepi map check {}", map.display());
    }
    Ok(())
}
