//! Supply traced on a map (issue 41, "What kepi then shows"; issue 42, "Computed from the map"):
//! the answer `kepi game supply` prints and the window highlights, from this one function.
//!
//! [`trace`] takes the map, a rule set's supply rules as plain data ([`SupplyRules`], declared by
//! the set: SPI's are SPI-S1 and SPI-S2) and the pieces on the board ([`Piece`]: cells and what
//! each does, the rule set having said it), and answers, for every unit of one side that traces
//! supply, its state (supplied, unsupplied, isolated), the path traced cell by cell, the source at
//! its end and its length; for a unit not supplied, what stands in the way on the way with the
//! fewest obstacles within the limit (an enemy unit, a cell in an enemy zone of control, a cell in
//! an enemy fortification's zone of interdiction) and, where a rail line is stopped, the cut.
//!
//! - A path runs from the unit's cell to a source, counted in cells entered (the source's
//!   counted, the unit's own not): within `supplied` it is supplied, within `unsupplied`
//!   unsupplied, else isolated (SPI-S1: "no more than ten hexes", "no more than twenty-five").
//! - It never enters a cell held by an enemy piece that `bars` (SPI-S1: "does not pass through
//!   Enemy occupied or controlled hexes"; EB units "do not impede ... supply lines"), nor a cell in
//!   an enemy zone of control (the movement rules' zones: not across the features named, not into
//!   cells of the tracer's pieces that `shield`, SPI-Z1), nor a cell in an enemy fortification's
//!   zone of interdiction (`interdiction` cells around it, "not into hexes occupied by Enemy units
//!   or adjacent to them", SPI-F1 Case E).
//! - Sources: the side's `supply` edge cells of the map; for a side whose rail lines are sources
//!   (`rail_home`), every cell reached from such an edge cell along rail hexsides within its home
//!   country, stopping at the first cut, enemy-held or interdicted cell (SPI-S2: "traced from the
//!   edge of the map to the nearest hex that has been cut"); the side's fortifications that supply
//!   any number of units; and those that supply a limited number, allocated deterministically: a
//!   fortress goes to the units it improves most (supplied before unsupplied), nearest first, then
//!   in the order the pieces are given (the roster's), until its capacity is spent; each answer
//!   says so, and the umpire may type another choice.
//!
//! Rule-set neutral: the numbers, zones and sources come from the rules the set declares; no rule
//! set is named here.

use std::collections::VecDeque;
use std::fmt;

use serde::Serialize;

use super::{Country, EdgeRole, Feature, Map, Side, ZocRules};
use crate::hex::{Direction, Hex, Hexside};

/// A rule set's supply rules as data (issue 42): what [`trace`] applies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SupplyRules {
    /// The longest path, in cells, of a supplied unit (SPI-S1: ten).
    pub supplied: u32,
    /// The longest path of an unsupplied unit; beyond, isolated (SPI-S1: twenty-five).
    pub unsupplied: u32,
    /// Enemy zones of control a path may not enter (the movement rules' own, SPI-Z1), if any.
    pub zoc: Option<ZocRules>,
    /// The radius of an enemy fortification's zone of interdiction in cells (SPI-F1 Case E:
    /// three); 0 for none.
    pub interdiction: u32,
    /// Sides whose supply edge cells extend along rail hexsides within their home country
    /// (SPI-S2: the French rail lines off the west and south edges).
    pub rail_home: Vec<(Side, Country)>,
    /// The rule of the states and paths (SPI-S1).
    pub rule: String,
    /// The rule of the sources (SPI-S2).
    pub source_rule: String,
    /// The rule of the zone of interdiction (SPI-F1).
    pub interdiction_rule: String,
    /// What is still not applied, said in every answer.
    pub not_applied: Vec<String>,
    /// FR-F4: a line runs only through cells occupied or controlled by the tracer's pieces (its
    /// zones of control, `zoc`'s reach without its enemy), or along rail sections at its
    /// disposal; the rule's id. None where a line need only avoid the enemy (SPI-S1). With it
    /// there is no length limit and no isolated state: a unit with no line is not supplied.
    pub own_line: Option<String>,
    /// FR-F4, FR-G1: sides whose rail sections within their home country carry a line in place
    /// of controlled cells while no cell of the section is held or controlled by the enemy
    /// (unless a friendly piece stands in it).
    pub rail_line: Vec<(Side, Country)>,
    /// SPI-E2: the lines a side's EB units secure in the enemy's country, where the rule set
    /// has them ([`SecuredLines`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secured: Option<SecuredLines>,
    /// FR-F4: sides whose ports (the map's places of kind `port`) are sources.
    pub ports: Vec<Side>,
    /// FR-F1 (H11), FR-F4: a fortress supplies the units in its own cell only (its capacity of
    /// them), not lines traced to it (SPI-S2).
    pub forts_inside: bool,
    /// What the rule set's text calls a cell, one and many (SPI's "hex", "hexes"; 1870's "cell",
    /// "cells"): the words a path's length is said in ([`Traced::length`]).
    pub cell_words: [&'static str; 2],
}

/// SPI-E2: sides whose rail lines secured by their EB units in the enemy's home country
/// ([`BoardMarks::secured`]) are sources where they lead back, cell by secured cell along rail
/// hexsides, to the side's own home country: "This line must have been passed over by EB units
/// describing a path leading back to the Player's Home Country". A secured cell is the side's
/// whose enemy's home country it lies in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SecuredLines {
    /// Each side with its home country.
    pub homes: Vec<(Side, Country)>,
    /// The rule's id (SPI-E2).
    pub rule: String,
    /// What the rule set calls such a line, the name its sources are given ("EB-secured line").
    pub name: String,
}

impl SupplyRules {
    /// The rule ids applied, sorted, once each.
    pub fn rule_ids(&self) -> Vec<String> {
        let mut ids = vec![self.rule.clone(), self.source_rule.clone()];
        ids.extend(self.own_line.iter().cloned());
        ids.extend(self.secured.iter().map(|l| l.rule.clone()));
        if self.interdiction > 0 {
            ids.push(self.interdiction_rule.clone());
        }
        ids.extend(self.zoc.iter().map(|z| z.rule.clone()));
        ids.retain(|s| !s.is_empty());
        ids.sort();
        ids.dedup();
        ids
    }
}

/// A fortification as a supply source (SPI-S2) and a centre of interdiction (SPI-F1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fort {
    /// Its name (the map's place, or the card's location).
    pub name: String,
    /// How many units it supplies; None for any number (SPI-S2: Metz and Strasburg).
    pub capacity: Option<u32>,
}

/// A piece on the board as supply sees it: plain flags, the rule set having said what each does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Its id (named in answers).
    pub id: String,
    /// Its side.
    pub side: Side,
    /// Its cell.
    pub hex: Hex,
    /// True when it blocks the other side's supply lines through its cell (combat units, dummy
    /// counters, fortifications; not EB units).
    pub bars: bool,
    /// True when it exerts a zone of control.
    pub zoc: bool,
    /// True when the other side's zones of control do not extend into its cell, and it masks the
    /// other side's zones of interdiction (SPI-Z1 Case F, SPI-F1 Case E).
    pub shields: bool,
    /// True when its supply is traced (combat units and dummy counters).
    pub traces: bool,
    /// A fortification: always supplied, a source, a zone of interdiction.
    pub fort: Option<Fort>,
}

/// SPI-S1's three states.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SupplyStatus {
    /// A path within the supplied limit.
    Supplied,
    /// A path within the unsupplied limit.
    Unsupplied,
    /// No path within either.
    Isolated,
}

impl SupplyStatus {
    /// The word used in output.
    pub fn as_str(self) -> &'static str {
        match self {
            SupplyStatus::Supplied => "supplied",
            SupplyStatus::Unsupplied => "unsupplied",
            SupplyStatus::Isolated => "isolated",
        }
    }
}

impl fmt::Display for SupplyStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What kind of source a path ends at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SourceKind {
    /// A supply edge cell of the map (SPI-S2: the German "S").
    Edge,
    /// A rail cell traced from a supply edge (SPI-S2: the French rail lines).
    Rail,
    /// A fortification (SPI-S2).
    Fortress,
    /// A port of the side's logistic base (FR-F4).
    Port,
    /// A rail cell secured by the side's EB units, leading back to its home country (SPI-E2).
    Secured,
}

impl SourceKind {
    /// The word used in text.
    pub fn as_str(self) -> &'static str {
        match self {
            SourceKind::Edge => "edge",
            SourceKind::Rail => "rail line",
            SourceKind::Fortress => "fortress",
            SourceKind::Port => "port",
            SourceKind::Secured => "secured rail line",
        }
    }
}

/// A source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Source {
    /// What it is.
    pub kind: SourceKind,
    /// The edge's or fortress's name (a rail cell: its edge's).
    pub name: String,
    /// Its cell's label.
    pub cell: String,
    /// Its cell.
    #[serde(skip)]
    pub hex: Hex,
}

/// What stands in a supply line's way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ObstacleKind {
    /// A cell held by an enemy piece.
    EnemyUnit,
    /// A cell in an enemy zone of control.
    ZoneOfControl,
    /// A cell in an enemy fortification's zone of interdiction.
    ZoneOfInterdiction,
    /// A rail line cut (a marker given), stopping its trace from the edge.
    Cut,
    /// A cell no friendly piece occupies or controls, off any rail section at the side's
    /// disposal (FR-F4).
    Uncontrolled,
}

impl ObstacleKind {
    /// The words used in text.
    pub fn as_str(self) -> &'static str {
        match self {
            ObstacleKind::EnemyUnit => "enemy unit",
            ObstacleKind::ZoneOfControl => "enemy zone of control",
            ObstacleKind::ZoneOfInterdiction => "zone of interdiction",
            ObstacleKind::Cut => "rail cut",
            ObstacleKind::Uncontrolled => "no friendly unit occupies or controls it",
        }
    }
}

/// One obstacle: a cell, what it is and whose.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Obstacle {
    /// The cell's label.
    pub cell: String,
    /// What it is.
    pub what: ObstacleKind,
    /// The enemy pieces it comes from (the unit there, the units exerting the zone, the
    /// fortification), by id; empty for a cut.
    pub by: Vec<String>,
    /// The rule.
    pub rule: String,
}

/// One unit's supply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Traced {
    /// The unit's id.
    pub unit: String,
    /// Its cell's label.
    pub cell: String,
    /// Its state.
    pub status: SupplyStatus,
    /// The path's length in cells entered (None when isolated).
    pub distance: Option<u32>,
    /// The path, the unit's cell first, the source's last (empty when isolated).
    pub path: Vec<String>,
    /// The path's cells.
    #[serde(skip)]
    pub hexes: Vec<Hex>,
    /// The source at its end.
    pub source: Option<Source>,
    /// For a unit not supplied: what stands in the way on the way with the fewest obstacles
    /// within the limit it missed (supplied for an unsupplied unit, unsupplied for an isolated
    /// one), in path order; empty when nothing does (the sources are simply too far).
    pub interdicts: Vec<Obstacle>,
    /// That way, the unit's cell first (empty when there is none within the limit).
    pub blocked_path: Vec<String>,
    /// What else to know (a fortification always supplied; a fortress's unit allocated).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The rule set's words for a cell ([`SupplyRules::cell_words`]).
    #[serde(skip)]
    pub cell_words: [&'static str; 2],
}

impl Traced {
    /// The path's length in the rule set's words ("1 hex", "4 hexes"; 1870's "3 cells"): what
    /// the window, the combat lines and `kepi game supply` say. None when no path reaches a
    /// source.
    pub fn length(&self) -> Option<String> {
        self.distance.map(|n| {
            let [one, many] = self.cell_words;
            if n == 1 {
                format!("1 {one}")
            } else {
                format!("{n} {many}")
            }
        })
    }
}

/// Every unit of one side that traces supply, and what the trace was made of.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SideSupply {
    /// The side.
    pub side: Side,
    /// Each unit, in the pieces' order.
    pub units: Vec<Traced>,
    /// The sources: edge, rail and fortress cells (a fortress of limited capacity included).
    pub sources: Vec<Source>,
    /// Where a rail line's trace from the edge stopped, and why.
    pub rail_stops: Vec<Obstacle>,
    /// The rules applied ([`SupplyRules::rule_ids`]).
    pub rules: Vec<String>,
    /// What was not applied.
    pub not_applied: Vec<String>,
}

impl SideSupply {
    /// The answer for one unit, by id.
    pub fn get(&self, id: &str) -> Option<&Traced> {
        self.units.iter().find(|t| t.unit == id)
    }
}

/// The obstacles each cell holds for `side`'s supply lines (empty: free), by cell index.
#[doc(hidden)] // public for the tests of this module played with kepi's rule sets (src/sets/played)
pub fn obstacles(
    map: &Map,
    rules: &SupplyRules,
    pieces: &[Piece],
    side: Side,
    marks: &BoardMarks,
) -> Vec<Vec<Obstacle>> {
    let grid = &map.grid;
    let mut out: Vec<Vec<Obstacle>> = vec![Vec::new(); grid.len()];
    let ours: Vec<&Piece> = pieces.iter().filter(|p| p.side == side).collect();
    let theirs: Vec<&Piece> = pieces.iter().filter(|p| p.side != side).collect();
    let mut shielded = vec![false; grid.len()];
    for p in ours.iter().filter(|p| p.shields) {
        if let Some(i) = grid.index(p.hex) {
            shielded[i] = true;
        }
    }
    let push = |out: &mut Vec<Vec<Obstacle>>, i: usize, h: Hex, what, by: &str, rule: &str| {
        let cell = &mut out[i];
        match cell.iter_mut().find(|o| o.what == what) {
            Some(o) => {
                if !o.by.iter().any(|b| b == by) {
                    o.by.push(by.to_string());
                }
            }
            None => cell.push(Obstacle {
                cell: grid.label(h),
                what,
                by: vec![by.to_string()],
                rule: rule.to_string(),
            }),
        }
    };
    // SPI-S1: "does not pass through Enemy occupied ... hexes".
    for p in theirs.iter().filter(|p| p.bars) {
        if let Some(i) = grid.index(p.hex) {
            push(
                &mut out,
                i,
                p.hex,
                ObstacleKind::EnemyUnit,
                &p.id,
                &rules.rule,
            );
        }
    }
    // SPI-S1: "... or controlled hexes"; SPI-Z1 Cases B and F: not across rivers, not into cells
    // of the tracer's combat units.
    if let Some(z) = &rules.zoc {
        for p in theirs.iter().filter(|p| p.zoc) {
            for d in Direction::ALL {
                let next = p.hex.neighbour(d);
                let Some(j) = grid.index(next) else {
                    continue;
                };
                let across = map
                    .features_on(Hexside::new(p.hex, d))
                    .iter()
                    .any(|l| z.not_across.contains(&l.feature));
                if !across && !shielded[j] {
                    push(
                        &mut out,
                        j,
                        next,
                        ObstacleKind::ZoneOfControl,
                        &p.id,
                        &z.rule,
                    );
                }
            }
        }
    }
    if let Some(rule) = &rules.own_line {
        for (i, h) in uncontrolled(map, rules, (side, &ours), &out, marks) {
            out[i].push(Obstacle {
                cell: grid.label(h),
                what: ObstacleKind::Uncontrolled,
                by: Vec::new(),
                rule: rule.clone(),
            });
        }
    }
    // SPI-F1 Case E: "all hexes up to three hexes distant from the Fortification unit's hex ...
    // does not extend into hexes occupied by Enemy units or adjacent to them".
    if rules.interdiction > 0 {
        let mut masked = vec![false; grid.len()];
        for p in ours.iter().filter(|p| p.shields) {
            for h in std::iter::once(p.hex).chain(Direction::ALL.map(|d| p.hex.neighbour(d))) {
                if let Some(i) = grid.index(h) {
                    masked[i] = true;
                }
            }
        }
        for p in theirs.iter().filter(|p| p.fort.is_some()) {
            for h in p.hex.disc(rules.interdiction) {
                if let Some(i) = grid.index(h)
                    && !masked[i]
                {
                    push(
                        &mut out,
                        i,
                        h,
                        ObstacleKind::ZoneOfInterdiction,
                        &p.id,
                        &rules.interdiction_rule,
                    );
                }
            }
        }
    }
    out
}

/// FR-F4: the cells a line of `ours` may not run through, with their hexes: "a line of
/// communication consisting of a series of cells controlled or occupied by friendly units";
/// "Cells controlled or occupied by friendly units may be replaced by a railway link consisting
/// of any number of sections at the player's disposal" (FR-G1: "no cell of the section must be
/// occupied or controlled by the other player. A railway cell controlled by the enemy but
/// occupied by a friendly unit may be used"; "In friendly territory, every railway is in
/// principle at the disposal of the player"). `enemy` holds the enemy's obstacles already found
/// (its units and zones, a friendly unit's cell left out of its zones).
///
/// G3: "In enemy territory, every railway is in principle at the disposal of the enemy, but the
/// invader becomes master of a railway cell as soon as one of his units has passed over that cell
/// or occupied it. Markers are at the disposal of the players to indicate possession of the
/// sections of the networks. A section is at the disposal of the invader when his units have
/// passed over the cells containing the railways and the section is connected to the network of
/// friendly territory. If the section has only been occupied but not connected to friendly
/// territory, the section is neutralised: it cannot be used by the invader, but the invaded
/// player may no longer use it either." A section (a rail line of the map) is at `side`'s
/// disposal when no enemy holds or controls a cell of it and either a possession marker of
/// `side` is on one of its cells (`marks.held`: the marker says so, wherever it runs) or, no
/// marker of the other side being on it, every cell of it is in `side`'s home country or one
/// `side`'s units have passed over (`marks.passed`), no cell of it has been passed over by the
/// other side's, and it joins `side`'s home country through such sections. A section the other
/// side's units have passed over but that is not at its disposal is neutralised: no one's.
fn uncontrolled(
    map: &Map,
    rules: &SupplyRules,
    (side, ours): (Side, &[&Piece]),
    enemy: &[Vec<Obstacle>],
    marks: &BoardMarks,
) -> Vec<(usize, Hex)> {
    let grid = &map.grid;
    let hexes: Vec<Hex> = grid.cells().collect();
    let mut held = vec![false; grid.len()];
    for p in ours {
        let Some(i) = grid.index(p.hex) else { continue };
        held[i] = true;
        if !p.zoc {
            continue;
        }
        for d in Direction::ALL {
            let across = rules.zoc.as_ref().is_some_and(|z| {
                map.features_on(Hexside::new(p.hex, d))
                    .iter()
                    .any(|l| z.not_across.contains(&l.feature))
            });
            if let Some(j) = grid.index(p.hex.neighbour(d))
                && !across
            {
                held[j] = true;
            }
        }
    }
    let home = rules
        .rail_line
        .iter()
        .find(|(s, _)| *s == side)
        .map(|(_, c)| *c);
    if let Some(country) = home {
        let on = |list: &[(Side, Hex)], cells: &[usize], by: Side| {
            cells.iter().any(|i| {
                list.iter()
                    .any(|(s, h)| *s == by && grid.index(*h) == Some(*i))
            })
        };
        let passed = |i: usize, by: Side| {
            marks
                .passed
                .iter()
                .any(|(s, h)| *s == by && grid.index(*h) == Some(i))
        };
        let home_cell = |i: usize| map.country_of(hexes[i]) == Some(country);
        let sections: Vec<Vec<usize>> = map
            .lines
            .iter()
            .filter(|l| l.feature == Feature::Rail)
            .map(|line| {
                let mut cells: Vec<usize> = Vec::new();
                for (a, b) in line.sides.iter().map(|h| h.hexes()) {
                    cells.extend([a, b].into_iter().filter_map(|h| grid.index(h)));
                }
                cells.sort_unstable();
                cells.dedup();
                cells
            })
            .collect();
        // Sections of cells `side` is master of (its country's, or passed over), none of them
        // marked for or passed over by the other side; then those joined to its country.
        let master: Vec<bool> = sections
            .iter()
            .map(|cells| {
                !cells.is_empty()
                    && !on(&marks.held, cells, side.other())
                    && cells.iter().all(|i| home_cell(*i) || passed(*i, side))
                    && !cells.iter().any(|i| passed(*i, side.other()))
            })
            .collect();
        // The network: its country's sections and those its possession markers give it.
        let mut joined: Vec<bool> = sections
            .iter()
            .zip(&master)
            .map(|(cells, m)| {
                (*m && cells.iter().any(|i| home_cell(*i))) || on(&marks.held, cells, side)
            })
            .collect();
        // Joined through shared cells: a search over the sections, each cell's listed once.
        let mut at_cell: Vec<Vec<usize>> = vec![Vec::new(); grid.len()];
        for (k, cells) in sections.iter().enumerate() {
            cells.iter().for_each(|c| at_cell[*c].push(k));
        }
        let mut queue: VecDeque<usize> = (0..sections.len()).filter(|k| joined[*k]).collect();
        while let Some(k) = queue.pop_front() {
            for c in &sections[k] {
                for j in &at_cell[*c] {
                    if !joined[*j] && master[*j] {
                        joined[*j] = true;
                        queue.push_back(*j);
                    }
                }
            }
        }
        for (k, cells) in sections.iter().enumerate() {
            if joined[k] && cells.iter().all(|i| enemy[*i].is_empty()) {
                cells.iter().for_each(|i| held[*i] = true);
            }
        }
    }
    hexes
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !held[*i])
        .collect()
}

/// The state of a path of `d` cells under `rules`.
fn status_of(rules: &SupplyRules, d: Option<u32>) -> SupplyStatus {
    match d {
        Some(_) if rules.own_line.is_some() => SupplyStatus::Supplied,
        Some(d) if d <= rules.supplied => SupplyStatus::Supplied,
        Some(d) if d <= rules.unsupplied => SupplyStatus::Unsupplied,
        // FR-F4: "Any unit unable to establish a line of communication with its logistic base
        // ... is considered as not supplied" (two states, no limit).
        _ if rules.own_line.is_some() => SupplyStatus::Unsupplied,
        _ => SupplyStatus::Isolated,
    }
}

/// How far a line is searched under `rules`: SPI-S1's unsupplied limit, or the whole board where
/// the length "is of no importance" (FR-F4).
fn depth(rules: &SupplyRules, n: usize) -> u32 {
    if rules.own_line.is_some() {
        u32::try_from(n).unwrap_or(u32::MAX)
    } else {
        rules.unsupplied
    }
}

/// How many cells deep the way with the fewest obstacles is searched for a unit in `status`
/// (the limit it missed): at most [`EXPLAIN_DEPTH`] cells where lines have no limit (FR-F4), as
/// that search holds a row of the board per step.
fn missed_limit(rules: &SupplyRules, status: SupplyStatus) -> u32 {
    let limit = match status {
        SupplyStatus::Supplied => 0,
        SupplyStatus::Unsupplied if rules.own_line.is_some() => EXPLAIN_DEPTH,
        SupplyStatus::Unsupplied => rules.supplied,
        SupplyStatus::Isolated => rules.unsupplied,
    };
    limit.min(EXPLAIN_DEPTH.max(rules.unsupplied))
}

/// The deepest search for what stands in a line's way where lines have no limit (FR-F4).
const EXPLAIN_DEPTH: u32 = 40;

/// A breadth-first search from `seeds` (cell indexes) through free cells, `limit` cells deep:
/// each cell's distance and the cell it was reached from (towards the seed), and its seed.
struct Field {
    dist: Vec<u32>,
    parent: Vec<usize>,
    seed: Vec<usize>,
}

const FAR: u32 = u32::MAX;

fn bfs(map: &Map, hexes: &[Hex], free: &[bool], seeds: &[usize], limit: u32) -> Field {
    let n = hexes.len();
    let mut f = Field {
        dist: vec![FAR; n],
        parent: vec![usize::MAX; n],
        seed: vec![usize::MAX; n],
    };
    let mut q = VecDeque::new();
    for &s in seeds {
        if free[s] && f.dist[s] == FAR {
            f.dist[s] = 0;
            f.seed[s] = s;
            q.push_back(s);
        }
    }
    while let Some(i) = q.pop_front() {
        let d = f.dist[i];
        if d >= limit {
            continue;
        }
        for dir in Direction::ALL {
            let Some(j) = map.grid.index(hexes[i].neighbour(dir)) else {
                continue;
            };
            if free[j] && f.dist[j] == FAR {
                f.dist[j] = d + 1;
                f.parent[j] = i;
                f.seed[j] = f.seed[i];
                q.push_back(j);
            }
        }
    }
    f
}

/// The path from `i` back to its seed along `parent`.
fn walk(parent: &[usize], mut i: usize) -> Vec<usize> {
    let mut out = vec![i];
    while let Some(&p) = parent.get(i).filter(|p| **p != usize::MAX) {
        out.push(p);
        i = p;
        if out.len() > parent.len() {
            break;
        }
    }
    out
}

/// SPI-S1, SPI-S2, SPI-F1: the supply of every piece of `side` that traces it (and its
/// fortifications, always supplied) on `map` under `rules`, the pieces on the board being
/// `pieces` (both sides, in the roster's order) and `cuts` the rail cuts marked. Pure: the same
/// input gives the same answer. See the module's docs for what is applied.
pub fn trace(
    map: &Map,
    rules: &SupplyRules,
    pieces: &[Piece],
    side: Side,
    cuts: &[Hex],
) -> SideSupply {
    let marks = BoardMarks {
        cuts: cuts.to_vec(),
        ..BoardMarks::default()
    };
    trace_marked(map, rules, pieces, side, &marks)
}

/// SPI-E2: the cells of `side`'s secured rail lines that are sources, into `source_at`. EB units
/// "represent the furthest point along an Enemy rail line from which supply may be drawn"; "This
/// line must have been passed over by EB units describing a path leading back to the Player's
/// Home Country, and not have been passed over by an Enemy Combat Unit since being secured by the
/// EB unit." A secured cell in the enemy's home country is a source when a chain of such cells,
/// joined by rail hexsides, leads to a cell of the side's own home country that no cut marks;
/// an enemy piece or an enemy fortification's zone of interdiction in a cell of the chain stops it
/// there (SPI-F1 Case E: "traced from a rail line or along one"), as it stops the French rail
/// lines. An enemy unit that moved onto the line took its cell off it (the rule set's move), so
/// the chain is broken there; cuts within the enemy's country are the enemy's own lines' and do
/// not stop it.
fn secured_sources(
    map: &Map,
    rules: &SupplyRules,
    side: Side,
    marks: &BoardMarks,
    (hexes, obst): (&[Hex], &[Vec<Obstacle>]),
    source_at: &mut [Option<Source>],
) {
    let Some(lines) = &rules.secured else {
        return;
    };
    let Some(home) = lines
        .homes
        .iter()
        .find(|(s, _)| *s == side)
        .map(|(_, c)| *c)
    else {
        return;
    };
    let grid = &map.grid;
    let enemy_homes: Vec<Country> = lines
        .homes
        .iter()
        .filter(|(s, _)| *s != side)
        .map(|(_, c)| *c)
        .collect();
    let n = source_at.len();
    let mut ours = vec![false; n];
    for h in &marks.secured {
        if let Some(i) = grid.index(*h)
            && map.country_of(*h).is_some_and(|c| enemy_homes.contains(&c))
        {
            ours[i] = true;
        }
    }
    let stopped = |i: usize| {
        obst[i]
            .iter()
            .any(|o| o.what != ObstacleKind::ZoneOfControl)
    };
    let rail = |h: Hex, d: Direction| {
        map.features_on(Hexside::new(h, d))
            .iter()
            .any(|l| l.feature == Feature::Rail)
    };
    let cut_at = |h: Hex| marks.cuts.contains(&h);
    let mut seen = vec![false; n];
    let mut q = VecDeque::new();
    for i in (0..n).filter(|i| ours[*i] && !stopped(*i)) {
        let h = hexes[i];
        let home_side = Direction::ALL.iter().any(|d| {
            let next = h.neighbour(*d);
            rail(h, *d)
                && map.country_of(next) == Some(home)
                && !cut_at(next)
                && grid.index(next).is_some_and(|j| !stopped(j))
        });
        if home_side {
            seen[i] = true;
            q.push_back(i);
        }
    }
    while let Some(k) = q.pop_front() {
        if source_at[k].is_none() {
            source_at[k] = Some(Source {
                kind: SourceKind::Secured,
                name: lines.name.clone(),
                cell: grid.label(hexes[k]),
                hex: hexes[k],
            });
        }
        for d in Direction::ALL {
            let next = hexes[k].neighbour(d);
            let Some(j) = grid.index(next) else {
                continue;
            };
            if !seen[j] && ours[j] && !stopped(j) && rail(hexes[k], d) {
                seen[j] = true;
                q.push_back(j);
            }
        }
    }
}

/// The markers on the board that supply reads (issue 45), as the rule set names them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoardMarks {
    /// Cells where a rail line is cut (SPI-E2's Rail Cut markers).
    pub cuts: Vec<Hex>,
    /// Cells whose rail section a side holds (1870's possession markers, FR-G1 G3: "Markers are
    /// at the disposal of the players to indicate possession of the sections of the networks").
    pub held: Vec<(Side, Hex)>,
    /// Rail cells of the enemy's country a side's units have passed over or occupied (FR-G1 G3:
    /// "the invader becomes master of a railway cell as soon as one of his units has passed over
    /// that cell or occupied it").
    pub passed: Vec<(Side, Hex)>,
    /// Rail cells an EB unit has secured (SPI-E2's secured lines, [`SupplyRules::secured`]).
    pub secured: Vec<Hex>,
}

/// [`trace`] with the board's markers: the cuts, and the rail sections each side holds by a
/// possession marker on one of their cells (for [`SupplyRules::rail_line`]: such a section is at
/// its holder's disposal in the enemy's country, and no longer at the other side's).
/// Over 150 lines: the trace's steps (the sources, the unlimited sources' field, each unit's
/// answer, the limited fortresses' allocation, what interdicts) share the cell arrays they
/// build; each step is marked by its comment.
pub fn trace_marked(
    map: &Map,
    rules: &SupplyRules,
    pieces: &[Piece],
    side: Side,
    marks: &BoardMarks,
) -> SideSupply {
    let cuts = &marks.cuts;
    let grid = &map.grid;
    let hexes: Vec<Hex> = grid.cells().collect();
    let n = hexes.len();
    let obst = obstacles(map, rules, pieces, side, marks);
    let free: Vec<bool> = obst.iter().map(Vec::is_empty).collect();
    let label = |i: usize| grid.label(hexes[i]);

    // Sources: the side's supply edges, their rail lines, its unlimited fortifications.
    let mut source_at: Vec<Option<Source>> = vec![None; n];
    let mut rail_stops: Vec<Obstacle> = Vec::new();
    // A rail cell beyond a stop: the stop (its obstacle), for the interdiction answer.
    let mut beyond: Vec<Option<Obstacle>> = vec![None; n];
    let mut cut = vec![false; n];
    for c in cuts {
        if let Some(i) = grid.index(*c) {
            cut[i] = true;
        }
    }
    let home = rules
        .rail_home
        .iter()
        .find(|(s, _)| *s == side)
        .map(|(_, c)| *c);
    for e in map
        .edges
        .iter()
        .filter(|e| e.role == EdgeRole::Supply && e.side == Some(side))
    {
        let name = e.name.clone().unwrap_or_else(|| "supply edge".to_string());
        for h in &e.cells {
            let Some(i) = grid.index(*h) else {
                continue;
            };
            if source_at[i].is_none() {
                source_at[i] = Some(Source {
                    kind: SourceKind::Edge,
                    name: name.clone(),
                    cell: label(i),
                    hex: hexes[i],
                });
            }
            let Some(country) = home else {
                continue;
            };
            // SPI-S2: "trace the rail line from the edge of the map ... to the nearest hex that
            // has been cut"; SPI-F1 Case E: interdiction interrupts supply "traced from a rail
            // line or along one". Cells past a stop are remembered with it.
            let stop_of = |j: usize| -> Option<Obstacle> {
                if cut[j] {
                    return Some(Obstacle {
                        cell: label(j),
                        what: ObstacleKind::Cut,
                        by: Vec::new(),
                        rule: rules.source_rule.clone(),
                    });
                }
                obst[j]
                    .iter()
                    .find(|o| o.what != ObstacleKind::ZoneOfControl)
                    .cloned()
            };
            let mut seen = vec![false; n];
            let mut q = VecDeque::new();
            seen[i] = true;
            q.push_back((i, stop_of(i)));
            while let Some((k, stopped)) = q.pop_front() {
                match &stopped {
                    None => {
                        if source_at[k].is_none() {
                            source_at[k] = Some(Source {
                                kind: SourceKind::Rail,
                                name: name.clone(),
                                cell: label(k),
                                hex: hexes[k],
                            });
                        }
                    }
                    Some(o) => {
                        if o.cell == label(k) && !rail_stops.contains(o) {
                            rail_stops.push(o.clone());
                        }
                        if beyond[k].is_none() {
                            beyond[k] = Some(o.clone());
                        }
                    }
                }
                for d in Direction::ALL {
                    let next = hexes[k].neighbour(d);
                    let Some(j) = grid.index(next) else {
                        continue;
                    };
                    if seen[j]
                        || map.country_of(next) != Some(country)
                        || !map
                            .features_on(Hexside::new(hexes[k], d))
                            .iter()
                            .any(|l| l.feature == Feature::Rail)
                    {
                        continue;
                    }
                    seen[j] = true;
                    q.push_back((j, stopped.clone().or_else(|| stop_of(j))));
                }
            }
        }
    }
    secured_sources(map, rules, side, marks, (&hexes, &obst), &mut source_at);
    // FR-F4: "the ports of Dunkerque, Calais, Boulogne, Dieppe, Le Havre and Caen".
    if rules.ports.contains(&side) {
        for p in map
            .places
            .iter()
            .filter(|p| p.kinds.contains(&super::PlaceKind::Port))
        {
            if let Some(i) = grid.index(p.cell)
                && source_at[i].is_none()
            {
                source_at[i] = Some(Source {
                    kind: SourceKind::Port,
                    name: p.name.clone(),
                    cell: label(i),
                    hex: hexes[i],
                });
            }
        }
    }
    let ours: Vec<(usize, &Piece)> = pieces
        .iter()
        .enumerate()
        .filter(|(_, p)| p.side == side)
        .collect();
    let mut limited: Vec<(usize, &Piece, u32)> = Vec::new();
    for (k, p) in &ours {
        let (Some(f), Some(i)) = (&p.fort, grid.index(p.hex)) else {
            continue;
        };
        match f.capacity {
            // FR-F4: "any unit besieged in a fortified camp (Metz and Paris) is considered as
            // supplied": the units in it, not lines traced to it.
            None if rules.forts_inside => limited.push((*k, *p, u32::MAX)),
            None => {
                source_at[i] = Some(Source {
                    kind: SourceKind::Fortress,
                    name: f.name.clone(),
                    cell: label(i),
                    hex: hexes[i],
                })
            }
            Some(c) if c > 0 => limited.push((*k, *p, c)),
            Some(_) => {}
        }
    }
    let seeds: Vec<usize> = (0..n).filter(|i| source_at[*i].is_some()).collect();
    let field = bfs(map, &hexes, &free, &seeds, depth(rules, n));

    // Each tracing unit's answer from the unlimited sources.
    let mut units: Vec<Traced> = Vec::new();
    let mut unit_cell: Vec<Option<usize>> = Vec::new();
    for (_, p) in &ours {
        let i = grid.index(p.hex);
        if p.fort.is_some() {
            units.push(Traced {
                unit: p.id.clone(),
                cell: grid.label(p.hex),
                status: SupplyStatus::Supplied,
                distance: Some(0),
                path: vec![grid.label(p.hex)],
                hexes: vec![p.hex],
                source: i.and_then(|i| source_at[i].clone()),
                interdicts: Vec::new(),
                blocked_path: Vec::new(),
                note: Some(format!(
                    "fortification units are always supplied ({})",
                    rules.rule
                )),
                cell_words: rules.cell_words,
            });
            unit_cell.push(None);
            continue;
        }
        if !p.traces {
            continue;
        }
        let d = i.map(|i| field.dist[i]).filter(|d| *d != FAR);
        let (path, src) = match (i, d) {
            (Some(i), Some(_)) => {
                let w = walk(&field.parent, i);
                (w, source_at[field.seed[i]].clone())
            }
            _ => (Vec::new(), None),
        };
        units.push(Traced {
            unit: p.id.clone(),
            cell: grid.label(p.hex),
            status: status_of(rules, d),
            distance: d,
            path: path.iter().map(|j| label(*j)).collect(),
            hexes: path.iter().map(|j| hexes[*j]).collect(),
            source: src,
            interdicts: Vec::new(),
            blocked_path: Vec::new(),
            note: None,
            cell_words: rules.cell_words,
        });
        unit_cell.push(i);
    }

    // SPI-S2: fortresses of limited capacity, allocated deterministically.
    let mut fort_sources: Vec<Source> = Vec::new();
    let mut candidates: Vec<(SupplyStatus, u32, usize, usize, Vec<usize>)> = Vec::new();
    for (fi, (_, p, _)) in limited.iter().enumerate() {
        let Some(s) = grid.index(p.hex) else {
            continue;
        };
        let name = p.fort.as_ref().map(|f| f.name.clone()).unwrap_or_default();
        fort_sources.push(Source {
            kind: SourceKind::Fortress,
            name,
            cell: label(s),
            hex: hexes[s],
        });
        let deep = if rules.forts_inside {
            0
        } else {
            depth(rules, n)
        };
        let f = bfs(map, &hexes, &free, &[s], deep);
        for (ui, t) in units.iter().enumerate() {
            let Some(c) = unit_cell[ui] else { continue };
            if f.dist[c] == FAR {
                continue;
            }
            let st = status_of(rules, Some(f.dist[c]));
            if st < t.status {
                candidates.push((st, f.dist[c], ui, fi, walk(&f.parent, c)));
            }
        }
    }
    candidates.sort_by_key(|c| (c.0, c.1, c.2, c.3));
    let mut left: Vec<u32> = limited.iter().map(|(_, _, c)| *c).collect();
    let mut given = vec![false; units.len()];
    for (st, d, ui, fi, path) in &candidates {
        if given[*ui] || left[*fi] == 0 {
            continue;
        }
        left[*fi] -= 1;
        given[*ui] = true;
        let src = fort_sources.get(*fi).cloned();
        let t = &mut units[*ui];
        t.status = *st;
        t.distance = Some(*d);
        t.path = path.iter().map(|j| label(*j)).collect();
        t.hexes = path.iter().map(|j| hexes[*j]).collect();
        t.note = Some(format!(
            "supplied from the fortress {} ({}: one unit each; kepi gives a fortress to the units \
             it helps most, nearest first, then in roster order; the umpire may type another)",
            src.as_ref().map_or("", |s| s.name.as_str()),
            rules.source_rule
        ));
        t.source = src;
    }
    for (st, _, ui, fi, _) in &candidates {
        if !given[*ui]
            && units[*ui].note.is_none()
            && let Some(s) = fort_sources.get(*fi)
        {
            units[*ui].note = Some(format!(
                "the fortress {} could make it {st}, but supplies other units ({}: one unit each)",
                s.name, rules.source_rule
            ));
        }
    }

    // What interdicts: for a unit not supplied, the way within the limit it missed with the
    // fewest obstacles (then the fewest cells), from the sources and the rail cells past a stop.
    let mut need: Vec<u32> = units
        .iter()
        .map(|t| missed_limit(rules, t.status))
        .collect();
    need.sort_unstable();
    need.dedup();
    for limit in need.into_iter().filter(|l| *l > 0) {
        let ways = fewest(map, &hexes, &obst, &source_at, &beyond, limit);
        for (ui, t) in units.iter_mut().enumerate() {
            let missed = missed_limit(rules, t.status);
            let Some(c) = unit_cell.get(ui).copied().flatten() else {
                continue;
            };
            if missed != limit {
                continue;
            }
            if let Some(cells) = ways.way(c) {
                let mut found = Vec::new();
                for j in &cells {
                    found.extend(obst[*j].iter().cloned());
                }
                if let Some(last) = cells.last()
                    && source_at[*last].is_none()
                    && let Some(o) = &beyond[*last]
                {
                    found.push(o.clone());
                }
                t.interdicts = found;
                t.blocked_path = cells.iter().map(|j| label(*j)).collect();
            }
        }
    }
    let mut sources: Vec<Source> = source_at.into_iter().flatten().collect();
    sources.extend(fort_sources);
    let mut not_applied = rules.not_applied.clone();
    if home.is_none() && map.edges.iter().all(|e| e.side != Some(side)) {
        not_applied.push(format!("the map names no supply edge of the {side} side"));
    }
    SideSupply {
        side,
        units,
        sources,
        rail_stops,
        rules: rules.rule_ids(),
        not_applied,
    }
}

/// The ways with the fewest obstacles, `limit` cells deep, from the sources (free or not) and
/// the rail cells past a stop (one obstacle more).
struct Ways {
    /// cost[step * n + cell]: the fewest obstacles on a way of `step` cells from a source.
    cost: Vec<u32>,
    parent: Vec<usize>,
    n: usize,
    limit: usize,
}

impl Ways {
    /// The way for the unit at cell `c`: its cells, the unit's first.
    fn way(&self, c: usize) -> Option<Vec<usize>> {
        let (_, s) = (0..=self.limit)
            .map(|s| (self.cost[s * self.n + c], s))
            .filter(|(k, _)| *k != FAR)
            .min()?;
        let mut out = vec![c];
        let (mut step, mut i) = (s, c);
        while step > 0 {
            let p = self.parent[step * self.n + i];
            if p == usize::MAX {
                break;
            }
            step -= 1;
            i = p;
            out.push(i);
        }
        Some(out)
    }
}

fn fewest(
    map: &Map,
    hexes: &[Hex],
    obst: &[Vec<Obstacle>],
    source_at: &[Option<Source>],
    beyond: &[Option<Obstacle>],
    limit: u32,
) -> Ways {
    let n = hexes.len();
    let limit = limit as usize;
    let mut w = Ways {
        cost: vec![FAR; n * (limit + 1)],
        parent: vec![usize::MAX; n * (limit + 1)],
        n,
        limit,
    };
    let weight = |j: usize| u32::from(!obst[j].is_empty());
    for (i, (src, past)) in source_at.iter().zip(beyond).enumerate() {
        let seed = if src.is_some() {
            Some(weight(i))
        } else {
            past.as_ref().map(|_| weight(i) + 1)
        };
        if let Some(c) = seed {
            w.cost[i] = c;
        }
    }
    for step in 0..limit {
        for (i, here) in hexes.iter().enumerate() {
            let c = w.cost[step * n + i];
            if c == FAR {
                continue;
            }
            for d in Direction::ALL {
                let Some(j) = map.grid.index(here.neighbour(d)) else {
                    continue;
                };
                let k = (step + 1) * n + j;
                let nc = c + weight(j);
                if nc < w.cost[k] {
                    w.cost[k] = nc;
                    w.parent[k] = i;
                }
            }
        }
    }
    w
}
