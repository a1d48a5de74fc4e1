//! `kepi hex ...`: the hex geometry on the command line (distance, line, neighbours, line of sight),
//! with board labels ("0304", column then row) or axial coordinates ("3,-1").
//!
//! JSON: `distance` → `{"a", "b", "distance"}`; `line` → `{"hexes": ["0304", ...], "distance"}`;
//! `neighbours` → `{"hex", "neighbours": [{"direction", "hex"}]}`; `los` → `{"clear", "hexes",
//! "blocking"}`. A hex that cannot be read exits 2 naming it.

use clap::{Args, Subcommand};
use serde_json::json;

use super::{CliError, print_json};
use kepi_game::hex::{Direction, Hex, Layout, line_of_sight};

/// `kepi hex ...`
#[derive(Debug, Args)]
pub struct HexArgs {
    /// What to compute.
    #[command(subcommand)]
    pub action: HexAction,
    /// Which columns of the board are shoved half a hex down: odd-q (the default) or even-q.
    #[arg(long, global = true)]
    pub layout: Option<Layout>,
    /// Read the labels on this rule set's board (its numbering: fr1870 is even-q, the others
    /// odd-q), e.g. `--rules fr1870`.
    #[arg(long, global = true, value_name = "ID")]
    pub rules: Option<String>,
    /// Print JSON (a stable contract) instead of text.
    #[arg(long, global = true)]
    pub json: bool,
}

/// The hex commands.
#[derive(Debug, Subcommand)]
pub enum HexAction {
    /// Hexes between two hexes, counted as a unit moves.
    Distance {
        /// From: a label such as 0304 or axial q,r.
        #[arg(allow_hyphen_values = true)]
        a: String,
        /// To: a label such as 0507 or axial q,r.
        #[arg(allow_hyphen_values = true)]
        b: String,
    },
    /// The hexes on the straight line between two hexes, both ends included.
    Line {
        /// From: a label or axial q,r.
        #[arg(allow_hyphen_values = true)]
        a: String,
        /// To: a label or axial q,r.
        #[arg(allow_hyphen_values = true)]
        b: String,
    },
    /// The six neighbours of a hex, clockwise from N.
    #[command(alias = "neighbors")]
    Neighbours {
        /// The hex: a label or axial q,r.
        #[arg(allow_hyphen_values = true)]
        a: String,
    },
    /// Line of sight between two hexes over given heights (other hexes are height 0).
    Los {
        /// From: a label or axial q,r.
        #[arg(allow_hyphen_values = true)]
        a: String,
        /// To: a label or axial q,r.
        #[arg(allow_hyphen_values = true)]
        b: String,
        /// A hex's height as HEX=N (e.g. 0405=2); repeat for several.
        #[arg(long = "height", value_name = "HEX=N")]
        heights: Vec<String>,
    },
}

fn parse(s: &str, layout: Layout) -> Result<Hex, CliError> {
    Hex::parse(s, layout).map_err(|e| CliError::usage(e.to_string()))
}

/// The board's numbering: the rule set's (`--rules`), else `--layout`, else odd-q. Both given
/// and different is a usage error naming both.
fn layout_of(args: &HexArgs) -> Result<Layout, CliError> {
    let Some(id) = args.rules.as_deref() else {
        return Ok(args.layout.unwrap_or_default());
    };
    let system = kepi_game::registry::find(id.trim()).ok_or_else(|| {
        let ids: Vec<&str> = kepi_game::registry::all()
            .into_iter()
            .map(|s| kepi_game::registry::get(s).id())
            .collect();
        CliError::usage(format!(
            "--rules: no rule set `{id}` (accepted: {})",
            ids.join(", ")
        ))
    })?;
    let rules = kepi_game::registry::get(system);
    let layout = rules.hex_layout();
    match args.layout {
        Some(l) if l != layout => Err(CliError::usage(format!(
            "--layout {l} contradicts --rules {}: that board is numbered {layout}",
            rules.id()
        ))),
        _ => Ok(layout),
    }
}

/// Runs `kepi hex`.
pub fn run(args: &HexArgs) -> Result<(), CliError> {
    let layout = layout_of(args)?;
    let name = |h: Hex| h.label_or_axial(layout);
    match &args.action {
        HexAction::Distance { a, b } => {
            let (ha, hb) = (parse(a, layout)?, parse(b, layout)?);
            let d = ha.distance(hb);
            if args.json {
                print_json(&json!({"a": name(ha), "b": name(hb), "distance": d}))
            } else {
                outln!("{d}");
                Ok(())
            }
        }
        HexAction::Line { a, b } => {
            let (ha, hb) = (parse(a, layout)?, parse(b, layout)?);
            let hexes: Vec<String> = ha.line_to(hb).into_iter().map(name).collect();
            if args.json {
                print_json(&json!({"hexes": hexes, "distance": ha.distance(hb)}))
            } else {
                outln!("{}", hexes.join(" "));
                Ok(())
            }
        }
        HexAction::Neighbours { a } => {
            let h = parse(a, layout)?;
            let list: Vec<(Direction, String)> = Direction::ALL
                .into_iter()
                .map(|d| (d, name(h.neighbour(d))))
                .collect();
            if args.json {
                let n: Vec<serde_json::Value> = list
                    .iter()
                    .map(|(d, x)| json!({"direction": d.as_str(), "hex": x}))
                    .collect();
                print_json(&json!({"hex": name(h), "neighbours": n}))
            } else {
                for (d, x) in list {
                    outln!("{d:<3} {x}");
                }
                Ok(())
            }
        }
        HexAction::Los { a, b, heights } => {
            let (ha, hb) = (parse(a, layout)?, parse(b, layout)?);
            let mut map = std::collections::BTreeMap::new();
            for spec in heights {
                let (hs, ns) = spec.split_once('=').ok_or_else(|| {
                    CliError::usage(format!("--height: `{spec}` is not HEX=N (e.g. 0405=2)"))
                })?;
                let h = parse(hs, layout)?;
                let n: i32 = ns.trim().parse().map_err(|_| {
                    CliError::usage(format!(
                        "--height: `{ns}` is not a height (accepted: an integer)"
                    ))
                })?;
                map.insert(h, n);
            }
            let sight = line_of_sight(ha, hb, |h| map.get(&h).copied().unwrap_or(0));
            let hexes: Vec<String> = sight.line.iter().map(|h| name(*h)).collect();
            let blocking: Vec<String> = sight.blocking.iter().map(|h| name(*h)).collect();
            if args.json {
                print_json(&json!({"clear": sight.clear, "hexes": hexes, "blocking": blocking}))
            } else {
                if sight.clear {
                    outln!("clear: {}", hexes.join(" "));
                } else {
                    outln!("blocked by {}", blocking.join(" "));
                }
                Ok(())
            }
        }
    }
}
