//! The cells a unit may reach on a map, with their cost (issue 41, "What kepi then shows"): the
//! answer `kepi game reach` prints and the window shades, from this one function.
//!
//! [`reach`] is Dijkstra over the map's cells from the unit's cell, within its movement
//! allowance. Entering a cell costs what the terrain table in force gives its terrain (`mp`:
//! SPI-M1's "one Movement Point per hex", PW-G1's one hex of a move, a club's `[[terrain]]`
//! entry for 1870, FR-M1), plus the `mp` of each hexside feature crossed on the way in that the
//! table gives one for (a river's "one additional M.P." in SPI-M1, a ridge's none). Nothing is
//! invented: where the table gives no number (an entry whose `mp` is None, a terrain or feature
//! the table does not list), the cell is reported as of unknown cost, naming what lacked one,
//! and the search does not go beyond it. A cell held by an enemy unit is not entered, nor a cell
//! off the map; a cell that needs more points than remain is not entered (SPI-M1).
//!
//! Not applied here, and said so in every answer ([`NOT_APPLIED`], issue 42): zones of control,
//! costs that depend on the move so far (SPI-M1's rough terrain, "two additional M.P.'s for first
//! such hex entered in a given Movement Phase"), rail movement, stacking costs, countries closed
//! to movement, and anything that changes the allowance (supply, SPI-S1): the allowance given is
//! used as it is. A bridge is not taken to cancel a river's cost (the table does not say it
//! does), and movement along roads is not applied (the table gives no cost along them); each is
//! said when the search crossed one.
//!
//! Rule-set neutral: the costs come from the table the map's rule set declares and the club's
//! entries; no rule set is named here.

use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};

use serde::Serialize;

use super::{Applies, Feature, Map};
use crate::hex::{Direction, Hex, Hexside};

/// What every answer says is not applied (issue 42 will apply the first four).
pub const NOT_APPLIED: &[&str] = &[
    "zones of control: not applied (issue 42)",
    "costs that depend on the move so far (a terrain's first hex of the phase): not applied (issue 42)",
    "rail movement: not applied (issue 42)",
    "stacking costs and friendly units in the way: not applied",
    "countries closed to movement: not applied",
    "changes to the allowance (supply, formation): not applied; the allowance given is used",
];

/// Said when the search crossed a bridge: the river's cost stands.
pub const BRIDGE_NOT_APPLIED: &str =
    "bridges: not applied (the table does not say a bridge cancels a river's cost)";

/// Said when the search crossed a road: the cell's cost stands.
pub const ROAD_NOT_APPLIED: &str =
    "roads: not applied (the table gives no cost for moving along them)";

/// A cell the unit may reach, with what the cheapest way there costs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Reached {
    /// The cell.
    #[serde(skip)]
    pub hex: Hex,
    /// Its label ("0304").
    pub cell: String,
    /// Movement points spent to stand in it, by the cheapest way.
    pub cost: u32,
    /// Cells entered on that way (its path's length).
    pub steps: u32,
    /// The cell it is entered from on that way (the path back, cell by cell).
    pub via: String,
}

/// A cell next to the reach whose cost to enter is not known: the search stops before it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Unknown {
    /// The cell.
    #[serde(skip)]
    pub hex: Hex,
    /// Its label.
    pub cell: String,
    /// Movement points spent to stand next to it, by the cheapest way.
    pub spent: u32,
    /// Cells entered to stand next to it, plus one for it.
    pub steps: u32,
    /// The cell it would be entered from.
    pub via: String,
    /// What lacked a cost: the cell's terrain and/or the hexside features crossed (`cover`,
    /// `river`), as the table names them.
    pub lacking: Vec<String>,
}

/// The cells a unit may reach from one cell with its allowance, and why the search stopped where
/// it did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Reach {
    /// The cell it starts from.
    pub from: String,
    /// The movement allowance searched with.
    pub allowance: u32,
    /// The cells it may reach (the start left out), cheapest first, then by label.
    pub cells: Vec<Reached>,
    /// The cells next to the reach whose cost is not known, by label.
    pub unknown: Vec<Unknown>,
    /// Every name that lacked a cost (terrain and features), sorted.
    pub lacking: Vec<String>,
    /// The cells next to the reach held by an enemy unit: not entered, by label.
    pub enemy: Vec<String>,
    /// The rule ids of what was applied: the table's and each entry's whose cost was used.
    pub rules: Vec<String>,
    /// What was not applied ([`NOT_APPLIED`], and the bridge or road notes where crossed).
    pub not_applied: Vec<String>,
}

impl Reach {
    /// The reached cell at `h`, if any.
    pub fn get(&self, h: Hex) -> Option<&Reached> {
        self.cells.iter().find(|c| c.hex == h)
    }
}

/// Why there is no answer: the start is not a cell of the map.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{cell} is off the map ({first} to {last})")]
pub struct OffMap {
    /// The cell asked for.
    pub cell: String,
    /// The map's first cell.
    pub first: String,
    /// The map's last cell.
    pub last: String,
}

/// What entering a cell or crossing a side costs: a number with the rule it comes from, or the
/// name that has none.
#[derive(Clone, Debug)]
enum Cost {
    Known(u32, Option<String>),
    Lacking(String),
}

/// The cost of a table entry by name: its `mp`, or the name where it has none.
fn entry_cost(map: &Map, name: &str, applies: Applies) -> Cost {
    match map.terrain.get(name, applies) {
        Some(t) => match t.mp {
            Some(mp) => Cost::Known(mp, t.rule.clone()),
            None => Cost::Lacking(name.to_string()),
        },
        None => Cost::Lacking(name.to_string()),
    }
}

/// What crossing one hexside adds: the known points, and the names lacking a cost.
struct SideCost {
    add: u32,
    lacking: Vec<String>,
    rules: Vec<String>,
    bridge: bool,
    road: bool,
}

/// The cells a unit standing at `from` may reach on `map` with `allowance` movement points,
/// `enemy` being the cells held by enemy units (see the module's docs for what is and is not
/// applied). Pure: the same map, cell, allowance and enemy cells give the same answer.
pub fn reach(map: &Map, from: Hex, allowance: u32, enemy: &[Hex]) -> Result<Reach, OffMap> {
    let grid = &map.grid;
    let Some(start) = grid.index(from) else {
        return Err(OffMap {
            cell: grid.label(from),
            first: grid.label(Hex::from_offset(grid.first, grid.layout)),
            last: grid.label(Hex::from_offset(grid.last, grid.layout)),
        });
    };
    let n = grid.len();
    // Each terrain's cost, once (the map keeps cells as indexes into its names).
    let terrain_cost: Vec<Cost> = map
        .terrain_names
        .iter()
        .map(|t| entry_cost(map, t, Applies::Cell))
        .collect();
    let feature_cost = |f: Feature| entry_cost(map, f.as_str(), Applies::Hexside);
    let side_cost = |s: Hexside| -> SideCost {
        let mut c = SideCost {
            add: 0,
            lacking: Vec::new(),
            rules: Vec::new(),
            bridge: false,
            road: false,
        };
        for line in map
            .by_side
            .get(&s)
            .into_iter()
            .flatten()
            .filter_map(|i| map.lines.get(*i))
        {
            match line.feature {
                Feature::River | Feature::Ridge | Feature::Border => {
                    match feature_cost(line.feature) {
                        Cost::Known(mp, rule) => {
                            c.add = c.add.saturating_add(mp);
                            c.rules.extend(rule);
                        }
                        Cost::Lacking(name) => {
                            if !c.lacking.contains(&name) {
                                c.lacking.push(name);
                            }
                        }
                    }
                }
                Feature::Bridge => c.bridge = true,
                Feature::Road => c.road = true,
                // Rail movement is issue 42; crossing a rail line on foot costs the cell.
                Feature::Rail => {}
            }
        }
        c
    };
    let mut held = vec![false; n];
    for h in enemy {
        if let Some(i) = grid.index(*h) {
            held[i] = true;
        }
    }
    const NONE: u32 = u32::MAX;
    let mut best = vec![(NONE, NONE); n];
    let mut via: Vec<Option<usize>> = vec![None; n];
    let mut hexes: Vec<Option<Hex>> = vec![None; n];
    let mut unknown: Vec<Option<Unknown>> = vec![None; n];
    let mut enemy_seen = BTreeSet::new();
    let mut rules: BTreeSet<String> = map.terrain.rule.iter().cloned().collect();
    let (mut bridge, mut road) = (false, false);
    let mut heap = BinaryHeap::new();
    best[start] = (0, 0);
    hexes[start] = Some(from);
    heap.push(Reverse((0u32, 0u32, start, from.q, from.r)));
    while let Some(Reverse((cost, steps, i, q, r))) = heap.pop() {
        if best[i] != (cost, steps) {
            continue;
        }
        let here = Hex::new(q, r);
        for d in Direction::ALL {
            let next = here.neighbour(d);
            let Some(j) = grid.index(next) else {
                continue; // off the map: never entered
            };
            if held[j] {
                enemy_seen.insert(j);
                hexes[j] = Some(next);
                continue;
            }
            let side = side_cost(Hexside::new(here, d));
            bridge |= side.bridge;
            road |= side.road;
            let cell = map
                .cells
                .get(j)
                .and_then(|c| terrain_cost.get(c.terrain as usize));
            let mut lacking = Vec::new();
            let mut enter = 0u32;
            let mut used = Vec::new();
            match cell {
                Some(Cost::Known(mp, rule)) => {
                    enter = *mp;
                    used.extend(rule.iter().cloned());
                }
                Some(Cost::Lacking(name)) => lacking.push(name.clone()),
                None => lacking.push(map.terrain_of(next).unwrap_or("?").to_string()),
            }
            lacking.extend(side.lacking);
            if !lacking.is_empty() {
                // Not known: reported (the cheapest way to stand next to it), never expanded.
                if cost < allowance {
                    let better = unknown[j].as_ref().is_none_or(|u| cost < u.spent);
                    if better {
                        unknown[j] = Some(Unknown {
                            hex: next,
                            cell: grid.label(next),
                            spent: cost,
                            steps: steps + 1,
                            via: grid.label(here),
                            lacking,
                        });
                    }
                }
                continue;
            }
            let total = cost.saturating_add(enter).saturating_add(side.add);
            if total > allowance {
                continue; // more than remain: not entered
            }
            rules.extend(used);
            rules.extend(side.rules);
            let key = (total, steps + 1);
            if key < best[j] {
                best[j] = key;
                via[j] = Some(i);
                hexes[j] = Some(next);
                heap.push(Reverse((total, steps + 1, j, next.q, next.r)));
            }
        }
    }
    let label = |i: usize| hexes[i].map(|h| grid.label(h)).unwrap_or_default();
    let mut cells: Vec<Reached> = (0..n)
        .filter(|i| *i != start && best[*i].0 != NONE)
        .filter_map(|i| {
            Some(Reached {
                hex: hexes[i]?,
                cell: label(i),
                cost: best[i].0,
                steps: best[i].1,
                via: via[i].map(label).unwrap_or_default(),
            })
        })
        .collect();
    cells.sort_by(|a, b| (a.cost, &a.cell).cmp(&(b.cost, &b.cell)));
    // A cell reached by a known way is not of unknown cost, whatever another way lacks.
    let mut unknown: Vec<Unknown> = unknown
        .into_iter()
        .enumerate()
        .filter(|(i, _)| *i != start && best[*i].0 == NONE)
        .filter_map(|(_, u)| u)
        .collect();
    unknown.sort_by(|a, b| a.cell.cmp(&b.cell));
    let lacking: BTreeSet<String> = unknown
        .iter()
        .flat_map(|u| u.lacking.iter().cloned())
        .collect();
    let mut enemy: Vec<String> = enemy_seen.into_iter().map(label).collect();
    enemy.sort();
    let mut not_applied: Vec<String> = NOT_APPLIED.iter().map(|s| s.to_string()).collect();
    if bridge {
        not_applied.push(BRIDGE_NOT_APPLIED.into());
    }
    if road {
        not_applied.push(ROAD_NOT_APPLIED.into());
    }
    Ok(Reach {
        from: grid.label(from),
        allowance,
        cells,
        unknown,
        lacking: lacking.into_iter().collect(),
        enemy,
        rules: rules.into_iter().collect(),
        not_applied,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::Layout;

    /// A small SPI map, 5 x 5, where the chart gives costs: clear 1, river +1, ridge 0.
    const SPI: &str = r#"[map]
name = "reach test"
rules = "spi"
first = "0101"
last = "0505"
default_terrain = "clear"

[provenance]
source = "club"
drawn_by = "a test"
from = "nothing"
"#;

    fn h(label: &str) -> Hex {
        Hex::from_label(label, Layout::OddQ).unwrap()
    }

    fn map(extra: &str) -> Map {
        Map::from_source("t.toml", &format!("{SPI}{extra}")).unwrap()
    }

    fn cost(r: &Reach, label: &str) -> Option<u32> {
        r.get(h(label)).map(|c| c.cost)
    }

    #[test]
    fn clear_cells_cost_one_each_within_the_allowance() {
        let m = map("");
        let r = reach(&m, h("0303"), 2, &[]).unwrap();
        // Two rings around 0303 on an open 5 x 5 board: 6 + 12 cells.
        assert_eq!(r.cells.len(), 18);
        assert_eq!(cost(&r, "0302"), Some(1));
        assert_eq!(cost(&r, "0301"), Some(2));
        assert_eq!(r.get(h("0301")).unwrap().steps, 2);
        assert_eq!(r.get(h("0301")).unwrap().via, "0302");
        assert_eq!(cost(&r, "0303"), None, "the start is left out");
        assert!(r.unknown.is_empty() && r.lacking.is_empty());
        assert_eq!(r.rules, vec!["SPI-M1".to_string()]);
        assert!(r.not_applied.iter().any(|s| s.contains("zones of control")));
        // Off the map is never entered: from a corner, fewer cells.
        let c = reach(&m, h("0101"), 1, &[]).unwrap();
        assert_eq!(c.cells.len(), 3, "0102, 0201, 0202: {:?}", c.cells);
    }

    #[test]
    fn a_river_adds_one_and_a_bridge_does_not_cancel_it() {
        // The river runs along 0303's north side.
        let m = map("[[river]]\nsides = [\"0303:n\"]\n[[bridge]]\nsides = [\"0303:n\"]\n");
        let r = reach(&m, h("0303"), 2, &[]).unwrap();
        assert_eq!(cost(&r, "0302"), Some(2), "clear 1 + river 1 (SPI-M1)");
        assert_eq!(cost(&r, "0304"), Some(1));
        assert!(r.not_applied.iter().any(|s| s.starts_with("bridges")));
        let r = reach(&m, h("0303"), 1, &[]).unwrap();
        assert_eq!(cost(&r, "0302"), None, "more than remain: not entered");
    }

    #[test]
    fn rough_has_no_single_cost_and_is_reported_not_expanded() {
        let m = map("[cells]\nrough = [\"0302\"]\n");
        let r = reach(&m, h("0303"), 3, &[]).unwrap();
        assert_eq!(cost(&r, "0302"), None);
        let u = r.unknown.iter().find(|u| u.cell == "0302").unwrap();
        assert_eq!(
            (u.spent, u.steps, u.lacking.clone()),
            (0, 1, vec!["rough".into()])
        );
        assert_eq!(r.lacking, vec!["rough".to_string()]);
        // 0301 is reached round the rough cell: 3 MP.
        assert_eq!(cost(&r, "0301"), Some(3));
    }

    #[test]
    fn enemy_cells_are_not_entered_and_named() {
        let m = map("");
        let r = reach(&m, h("0303"), 2, &[h("0302")]).unwrap();
        assert_eq!(cost(&r, "0302"), None);
        assert_eq!(r.enemy, vec!["0302".to_string()]);
        assert_eq!(
            cost(&r, "0301"),
            None,
            "two cells away only through the enemy"
        );
        let r = reach(&m, h("0303"), 3, &[h("0302")]).unwrap();
        assert_eq!(cost(&r, "0301"), Some(3), "around it, by 0203 and 0202");
    }

    #[test]
    fn a_table_without_costs_gives_none_and_invents_none() {
        // 1870 without the club's table: every terrain unknown (FR-M1).
        let m = Map::from_source("t.toml", &SPI.replace("\"spi\"", "\"fr1870\"")).unwrap();
        let r = reach(&m, h("0303"), 5, &[]).unwrap();
        assert!(r.cells.is_empty());
        assert_eq!(r.unknown.len(), 6);
        assert_eq!(r.lacking, vec!["clear".to_string()]);
        // The PW example: clear is one hex (PW-G1), cover and the brook are not in the text.
        let m = Map::named("example-pw").unwrap();
        let r = reach(&m, h("0402"), 2, &[]).unwrap();
        let u = r.unknown.iter().find(|u| u.cell == "0503").unwrap();
        assert_eq!((u.spent, u.via.as_str()), (1, "0502"));
        assert_eq!(u.lacking, vec!["cover".to_string()]);
        // 0403 lies across the brook from 0402 (no cost in the text), but is reached by 0502.
        assert_eq!(cost(&r, "0403"), Some(2));
        let r = reach(&m, h("0301"), 1, &[]).unwrap();
        let u = r.unknown.iter().find(|u| u.cell == "0302").unwrap();
        assert_eq!(
            u.lacking,
            vec!["river".to_string()],
            "the brook: not in the text"
        );
        assert_eq!(r.rules, vec!["PW-G1".to_string()]);
    }

    #[test]
    fn off_the_map_start_is_refused() {
        let m = map("");
        let e = reach(&m, h("0909"), 2, &[]).unwrap_err();
        assert_eq!(e.to_string(), "0909 is off the map (0101 to 0505)");
    }
}
