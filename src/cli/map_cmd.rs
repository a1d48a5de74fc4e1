//! `kepi map check|show|cell FILE`: a club's map of its board (issue 41, docs/MAPS.md), checked,
//! printed, or asked about one cell.
//!
//! FILE is a map file, or the name of one of kepi's own examples (`example-hex`, `example-1870`,
//! `example-pw`) where no file of that name is there. A map that does not read exits 2 naming the
//! file, line, field and the accepted values.
//!
//! JSON: `show` → the map ([`kepi_game::map::MapView`]: `file`, `name`, `rules`, `layout`, `first`,
//! `last`, `columns`, `rows`, `cells`, `provenance`, `terrain_table`, `default_terrain`,
//! `terrain`, `countries`, `no_country`, `hexsides`, `places`, `edges`, `victory`); `cell` → one
//! cell ([`kepi_game::map::CellView`]: `file`, `cell`, `terrain`, `effects`, `country`, `places`,
//! `sides`, `edges`, `victory`).

use clap::{Args, Subcommand};

use super::{CliError, print_json};
use kepi_game::hex::Hex;
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
}

/// Runs `kepi map`.
pub fn run(a: &MapArgs) -> Result<(), CliError> {
    match &a.command {
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
