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
//! A rule set that declares its movement rules as data ([`MoveRules`], issue 42; SPI's are
//! SPI-M1 and SPI-Z1) has them applied by [`reach_under`], given the units on the board as plain
//! data ([`Units`]): terrains whose extra cost is paid on the first such cell of the phase only
//! (SPI's rough, "two additional M.P.'s for first such hex entered in a given Movement Phase"),
//! zones of control (a cost to enter and to leave, a stop on entering, no move from one
//! controlled cell to another, not across the hexside features named), enemy units that do or
//! do not bar their cell, the cost of moving onto and off friendly units, and countries closed to
//! movement. The search's state is the cell and the first-only terrains already paid, so the
//! answer is exact (a cell reached cheaper by a way that paid the rough may cost more onward).
//!
//! Not applied, and said so in every answer ([`NOT_APPLIED`] without the rules; the rule set's
//! own list with them): rail movement and anything that changes the allowance (supply, SPI-S1):
//! the allowance given is used as it is. A bridge is not taken to cancel a river's cost (the
//! table does not say it does), and movement along roads is not applied (the table gives no cost
//! along them); each is said when the search crossed one.
//!
//! Rule-set neutral: the costs come from the table the map's rule set declares, the club's
//! entries and the rules the set declares; no rule set is named here.

use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};

use serde::Serialize;

use super::{Applies, Country, Feature, Map};
use crate::hex::{Direction, Hex, Hexside};

/// What an answer without the rule set's movement rules ([`MoveRules`]) says is not applied.
pub const NOT_APPLIED: &[&str] = &[
    "zones of control: not applied (the rule set declares no movement rules)",
    "costs that depend on the move so far (a terrain's first hex of the phase): not applied",
    "rail movement: not applied",
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

/// A terrain whose extra cost is paid on the first such cell entered in a movement phase only
/// (SPI-M1, the Terrain Effects Chart: rough, "two additional M.P.'s for first such hex entered
/// in a given Movement Phase; nothing additional thereafter in that Movement Phase").
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FirstOnly {
    /// The terrain's name in the table ("rough").
    pub terrain: String,
    /// What entering any such cell costs (SPI: the clear hex's one point).
    pub mp: u32,
    /// What the first such cell of the phase adds ("two additional M.P.'s").
    pub first: u32,
    /// The rule it comes from.
    pub rule: String,
}

/// Zones of control as a rule set declares them (SPI-Z1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ZocRules {
    /// Points to enter an enemy-controlled cell, beyond its cost ("three additional").
    pub enter: u32,
    /// Points to leave one ("one additional to leave").
    pub leave: u32,
    /// Movement ends on entering one ("must cease movement upon entering an Enemy controlled
    /// hex").
    pub stop: bool,
    /// No move from one controlled cell straight to another ("rigid").
    pub rigid: bool,
    /// Hexside features a zone does not extend across (SPI: rivers).
    pub not_across: Vec<Feature>,
    /// The rule it comes from.
    pub rule: String,
}

/// The cost of moving onto and off friendly units (SPI-M1, Movement Case K).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StackRules {
    /// Points to move onto a cell with a friendly unit paid for.
    pub onto: u32,
    /// Points to move off one.
    pub off: u32,
    /// The rule it comes from.
    pub rule: String,
}

/// A rule set's movement rules as data (issue 42): what [`reach_under`] applies beyond the
/// terrain table's costs. Declared by the rule set (`RuleSet::move_rules`); none here is named.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveRules {
    /// Terrains whose extra cost is paid on the first such cell of the phase only (at most
    /// [`MAX_FIRST_ONLY`] are tracked; any beyond are left at the table's cost).
    pub first_only: Vec<FirstOnly>,
    /// Zones of control, where the set has them.
    pub zoc: Option<ZocRules>,
    /// Stacking costs, where the set has them.
    pub stack: Option<StackRules>,
    /// Countries no unit may enter, with the rule (SPI-M1: Belgium and Luxembourg, Basic Game).
    pub closed: Vec<Country>,
    /// The rule that closes them.
    pub closed_rule: String,
    /// The rule that bars cells held by enemy units (SPI-M1, Movement Case I).
    pub enemy_rule: String,
    /// What the set's movement still does not apply, said in every answer.
    pub not_applied: Vec<String>,
}

impl MoveRules {
    /// The rule ids these rules apply, sorted, once each.
    pub fn rule_ids(&self) -> BTreeSet<String> {
        let mut ids: BTreeSet<String> = self.first_only.iter().map(|f| f.rule.clone()).collect();
        ids.extend(self.zoc.iter().map(|z| z.rule.clone()));
        ids.extend(self.stack.iter().map(|z| z.rule.clone()));
        if !self.closed.is_empty() {
            ids.insert(self.closed_rule.clone());
        }
        ids.insert(self.enemy_rule.clone());
        ids.retain(|s| !s.is_empty());
        ids
    }
}

/// How many first-only terrains the search tracks (its state holds one bit each).
pub const MAX_FIRST_ONLY: usize = 4;

/// An enemy unit's cell, as the rule set sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EnemyAt {
    /// The cell.
    pub hex: Hex,
    /// True when the mover may not enter it (SPI-M1 Case I: combat or fortification units).
    pub bars: bool,
    /// True when a unit there exerts a zone of control (SPI-Z1: unentrained combat units not in
    /// a fort).
    pub zoc: bool,
}

/// A friendly unit's cell, as the rule set sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FriendAt {
    /// The cell.
    pub hex: Hex,
    /// True when the mover pays to move onto and off it (SPI-M1 Case K).
    pub stack: bool,
    /// True when enemy zones of control do not extend into it (SPI-Z1 Cases D and F).
    pub shields: bool,
}

/// The units on the board as the search needs them: plain cells and flags, the rule set having
/// said what each unit does (`engine::play::board`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Units {
    /// The enemy's cells.
    pub enemy: Vec<EnemyAt>,
    /// The mover's side's cells (the mover left out).
    pub friends: Vec<FriendAt>,
}

impl Units {
    /// Enemy cells that bar entry and exert nothing (what [`reach`] is given).
    pub fn barring(enemy: &[Hex]) -> Units {
        Units {
            enemy: enemy
                .iter()
                .map(|h| EnemyAt {
                    hex: *h,
                    bars: true,
                    zoc: false,
                })
                .collect(),
            friends: Vec::new(),
        }
    }
}

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
    /// True when it is in an enemy zone of control: movement stops there (SPI-Z1 Case A).
    pub zoc: bool,
    /// The first-only terrains paid this phase once there ([`FirstOnly`]), where any.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub paid: Vec<String>,
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
    /// The rule ids of what was applied: the table's and each entry's whose cost was used, and
    /// the movement rules' ([`MoveRules::rule_ids`]) where given.
    pub rules: Vec<String>,
    /// What was not applied ([`NOT_APPLIED`] or the rule set's list, and the bridge or road
    /// notes where crossed).
    pub not_applied: Vec<String>,
    /// The cells in an enemy zone of control, by label (empty without zones of control).
    pub zoc: Vec<String>,
    /// True when the start is in an enemy zone of control (leaving costs, SPI-Z1 Case E).
    pub from_zoc: bool,
    /// The cells next to the reach not entered because their country is closed, by label.
    pub closed: Vec<String>,
    /// True when the rule set's movement rules were applied ([`MoveRules`]).
    pub movement_rules: bool,
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

/// What crossing the hexside `s` adds on `map`.
fn side_cost(map: &Map, s: Hexside) -> SideCost {
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
                match entry_cost(map, line.feature.as_str(), Applies::Hexside) {
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
            // Rail movement is not applied; crossing a rail line on foot costs the cell.
            Feature::Rail => {}
        }
    }
    c
}

/// SPI-Z1: the cells of `map` in an enemy zone of control under `zoc`, by cell index: the six
/// cells around each enemy cell whose units exert one ("The six hexagons immediately surrounding
/// a given Combat Unit"), not across the features named ("Zones of Control do not extend across
/// river hexsides"), not into cells the mover's side shields ("Enemy Zones of Control never
/// extend into hexes occupied by Friendly Combat Units").
pub fn controlled(map: &Map, zoc: &ZocRules, units: &Units) -> Vec<bool> {
    let grid = &map.grid;
    let mut out = vec![false; grid.len()];
    for e in units.enemy.iter().filter(|e| e.zoc) {
        for d in Direction::ALL {
            let next = e.hex.neighbour(d);
            let Some(j) = grid.index(next) else {
                continue;
            };
            let side = Hexside::new(e.hex, d);
            let cut = map
                .by_side
                .get(&side)
                .into_iter()
                .flatten()
                .filter_map(|i| map.lines.get(*i))
                .any(|l| zoc.not_across.contains(&l.feature));
            if !cut {
                out[j] = true;
            }
        }
    }
    for f in units.friends.iter().filter(|f| f.shields) {
        if let Some(i) = grid.index(f.hex) {
            out[i] = false;
        }
    }
    out
}

/// The cells a unit standing at `from` may reach on `map` with `allowance` movement points,
/// `enemy` being the cells held by enemy units, which are not entered; no rule set's movement
/// rules applied ([`reach_under`] with none). Pure.
pub fn reach(map: &Map, from: Hex, allowance: u32, enemy: &[Hex]) -> Result<Reach, OffMap> {
    reach_under(map, from, allowance, None, &Units::barring(enemy), &[])
}

/// The cells a unit standing at `from` may reach on `map` with `allowance` movement points under
/// the rule set's movement rules `rules` (None: the terrain table's costs only, every enemy cell
/// barred), the units on the board being `units`, `paid` the first-only terrains it has paid this
/// phase already (see the module's docs for what is and is not applied). Pure: the same input
/// gives the same answer.
/// Over 150 lines: one Dijkstra search; its setup, its loop over (cell, first-only terrains
/// paid) states and its answer share a dozen arrays, and the loop's cost terms read in the
/// order the rules give them.
pub fn reach_under(
    map: &Map,
    from: Hex,
    allowance: u32,
    rules: Option<&MoveRules>,
    units: &Units,
    paid: &[String],
) -> Result<Reach, OffMap> {
    let grid = &map.grid;
    let Some(start) = grid.index(from) else {
        return Err(OffMap {
            cell: grid.label(from),
            first: grid.label(Hex::from_offset(grid.first, grid.layout)),
            last: grid.label(Hex::from_offset(grid.last, grid.layout)),
        });
    };
    let n = grid.len();
    let first_only: &[FirstOnly] = rules.map_or(&[], |r| {
        &r.first_only[..r.first_only.len().min(MAX_FIRST_ONLY)]
    });
    // Each terrain's cost, once (the map keeps cells as indexes into its names), and its
    // first-only bit where it has one.
    let terrain_cost: Vec<(Cost, Option<(u8, u32)>)> = map
        .terrain_names
        .iter()
        .map(|t| match first_only.iter().position(|f| f.terrain == *t) {
            Some(k) => {
                let f = &first_only[k];
                (
                    Cost::Known(f.mp, Some(f.rule.clone())),
                    Some((1u8 << k, f.first)),
                )
            }
            None => (entry_cost(map, t, Applies::Cell), None),
        })
        .collect();
    let states = 1usize << first_only.len();
    let mut start_mask = 0u8;
    for (k, f) in first_only.iter().enumerate() {
        if paid.contains(&f.terrain) {
            start_mask |= 1 << k;
        }
    }
    let mut bars = vec![false; n];
    for e in units.enemy.iter().filter(|e| e.bars || rules.is_none()) {
        if let Some(i) = grid.index(e.hex) {
            bars[i] = true;
        }
    }
    let zoc = rules.and_then(|r| r.zoc.as_ref());
    let ctl = match zoc {
        Some(z) => controlled(map, z, units),
        None => Vec::new(),
    };
    let in_zoc = |i: usize| ctl.get(i).copied().unwrap_or(false);
    let stack = rules.and_then(|r| r.stack.as_ref());
    let mut stacked = vec![false; n];
    if stack.is_some() {
        for f in units.friends.iter().filter(|f| f.stack) {
            if let Some(i) = grid.index(f.hex) {
                stacked[i] = true;
            }
        }
    }
    let closed_countries: &[Country] = rules.map_or(&[], |r| &r.closed);
    const NONE: u32 = u32::MAX;
    // The search's state: cell * states + the first-only terrains paid.
    let mut best = vec![(NONE, NONE); n * states];
    let mut via: Vec<Option<usize>> = vec![None; n * states];
    let mut hexes: Vec<Option<Hex>> = vec![None; n];
    let mut unknown: Vec<Option<Unknown>> = vec![None; n];
    let mut enemy_seen = BTreeSet::new();
    let mut closed_seen = BTreeSet::new();
    let mut rules_used: BTreeSet<String> = map.terrain.rule.iter().cloned().collect();
    if let Some(r) = rules {
        rules_used.extend(r.rule_ids());
    }
    let (mut bridge, mut road) = (false, false);
    let mut heap = BinaryHeap::new();
    let s0 = start * states + usize::from(start_mask);
    best[s0] = (0, 0);
    hexes[start] = Some(from);
    heap.push(Reverse((0u32, 0u32, s0, from.q, from.r)));
    while let Some(Reverse((cost, steps, si, q, r))) = heap.pop() {
        if best[si] != (cost, steps) {
            continue;
        }
        let (i, mask) = (si / states, (si % states) as u8);
        let here = Hex::new(q, r);
        // SPI-Z1 Case A: "all units must cease movement upon entering an Enemy controlled hex".
        if i != start && in_zoc(i) && zoc.is_some_and(|z| z.stop) {
            // Still, the enemy's cells next to it are named.
            for d in Direction::ALL {
                let next = here.neighbour(d);
                if let Some(j) = grid.index(next).filter(|j| bars[*j]) {
                    enemy_seen.insert(j);
                    hexes[j] = Some(next);
                }
            }
            continue;
        }
        for d in Direction::ALL {
            let next = here.neighbour(d);
            let Some(j) = grid.index(next) else {
                continue; // off the map: never entered
            };
            if bars[j] {
                enemy_seen.insert(j);
                hexes[j] = Some(next);
                continue;
            }
            if !closed_countries.is_empty()
                && map
                    .cells
                    .get(j)
                    .and_then(|c| c.country)
                    .is_some_and(|c| closed_countries.contains(&c))
            {
                closed_seen.insert(j);
                hexes[j] = Some(next);
                continue;
            }
            // SPI-Z1: "Enemy units may not move directly from one Friendly controlled hex to
            // another".
            if in_zoc(i) && in_zoc(j) && zoc.is_some_and(|z| z.rigid) {
                continue;
            }
            let side = side_cost(map, Hexside::new(here, d));
            bridge |= side.bridge;
            road |= side.road;
            let cell = map
                .cells
                .get(j)
                .and_then(|c| terrain_cost.get(c.terrain as usize));
            let mut lacking = Vec::new();
            let mut enter = 0u32;
            let mut used = Vec::new();
            let mut next_mask = mask;
            match cell {
                Some((Cost::Known(mp, rule), first)) => {
                    enter = *mp;
                    used.extend(rule.iter().cloned());
                    if let Some((bit, add)) = first
                        && mask & bit == 0
                    {
                        enter = enter.saturating_add(*add);
                        next_mask |= bit;
                    }
                }
                Some((Cost::Lacking(name), _)) => lacking.push(name.clone()),
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
            let mut total = cost.saturating_add(enter).saturating_add(side.add);
            if let Some(z) = zoc {
                // SPI-Z1 Case E: "three additional Movement Points to enter an Enemy controlled
                // hex, and one additional to leave".
                if in_zoc(i) {
                    total = total.saturating_add(z.leave);
                }
                if in_zoc(j) {
                    total = total.saturating_add(z.enter);
                }
            }
            if let Some(st) = stack {
                // SPI-M1 Case K: "two additional Movement Points to move onto, and two
                // additional Movement Points to move off of, a Friendly Unit".
                if stacked[i] {
                    total = total.saturating_add(st.off);
                }
                if stacked[j] {
                    total = total.saturating_add(st.onto);
                }
            }
            if total > allowance {
                continue; // more than remain: not entered
            }
            rules_used.extend(used);
            rules_used.extend(side.rules);
            let key = (total, steps + 1);
            let sj = j * states + usize::from(next_mask);
            if key < best[sj] {
                best[sj] = key;
                via[sj] = Some(si);
                hexes[j] = Some(next);
                heap.push(Reverse((total, steps + 1, sj, next.q, next.r)));
            }
        }
    }
    let label = |i: usize| hexes[i].map(|h| grid.label(h)).unwrap_or_default();
    // Each cell's cheapest state.
    let best_state = |i: usize| -> Option<usize> {
        (0..states)
            .map(|m| i * states + m)
            .filter(|s| best[*s].0 != NONE)
            .min_by_key(|s| (best[*s], *s))
    };
    let mut cells: Vec<Reached> = (0..n)
        .filter(|i| *i != start)
        .filter_map(|i| {
            let s = best_state(i)?;
            let mask = s % states;
            Some(Reached {
                hex: hexes[i]?,
                cell: label(i),
                cost: best[s].0,
                steps: best[s].1,
                via: via[s].map(|v| label(v / states)).unwrap_or_default(),
                zoc: in_zoc(i),
                paid: first_only
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| mask & (1 << k) != 0)
                    .map(|(_, f)| f.terrain.clone())
                    .collect(),
            })
        })
        .collect();
    cells.sort_by(|a, b| (a.cost, &a.cell).cmp(&(b.cost, &b.cell)));
    let reached = |i: usize| i == start || best_state(i).is_some();
    // A cell reached by a known way is not of unknown cost, whatever another way lacks.
    let mut unknown: Vec<Unknown> = unknown
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !reached(*i))
        .filter_map(|(_, u)| u)
        .collect();
    unknown.sort_by(|a, b| a.cell.cmp(&b.cell));
    let lacking: BTreeSet<String> = unknown
        .iter()
        .flat_map(|u| u.lacking.iter().cloned())
        .collect();
    let mut enemy: Vec<String> = enemy_seen.into_iter().map(label).collect();
    enemy.sort();
    let mut closed: Vec<String> = closed_seen.into_iter().map(label).collect();
    closed.sort();
    let mut zoc_cells: Vec<String> = grid
        .cells()
        .zip(ctl.iter())
        .filter(|(_, c)| **c)
        .map(|(h, _)| grid.label(h))
        .collect();
    zoc_cells.sort();
    let mut not_applied: Vec<String> = match rules {
        Some(r) => r.not_applied.clone(),
        None => NOT_APPLIED.iter().map(|s| s.to_string()).collect(),
    };
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
        rules: rules_used.into_iter().collect(),
        not_applied,
        zoc: zoc_cells,
        from_zoc: in_zoc(start),
        closed,
        movement_rules: rules.is_some(),
    })
}
