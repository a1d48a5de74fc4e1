//! The map as the editor changes it (issue 41, "The map editor"): edits are values ([`Edit`])
//! applied to a [`Map`], each returning the edit that undoes it; an [`Editor`] keeps the map with
//! its undo and redo stacks, and a stroke (a drag across cells) is one step of them.
//!
//! An edit is checked as it is applied, with the words of the map file's checker (a terrain the
//! table does not know, a cell off the map, a bridge with no river under it, a place named twice):
//! a refused edit changes nothing. Whatever else the loader checks (a rail link's distance...) is
//! checked again when the map is saved ([`super::write::checked_text`]).

use std::collections::BTreeMap;

use crate::hex::{Hex, Hexside};

use super::check::is_name;
use super::{Applies, Country, Edge, Feature, Line, Map, Place, Victory, VictoryBy};

/// The longest text the map file takes (a name, a section).
const MAX_TEXT: usize = 200;

/// One change to a map, as a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edit {
    /// These cells get this terrain (a brush stroke).
    Paint {
        /// The cells.
        cells: Vec<Hex>,
        /// A cell terrain of the map's table.
        terrain: String,
    },
    /// Each cell gets its own terrain (the undo of a paint).
    Terrains(Vec<(Hex, String)>),
    /// These cells get this country, or none.
    SetCountry {
        /// The cells.
        cells: Vec<Hex>,
        /// The country (None: no country).
        country: Option<Country>,
    },
    /// Each cell gets its own country (the undo of a fill).
    Countries(Vec<(Hex, Option<Country>)>),
    /// The feature on this hexside comes off where it is, or goes on where it is not: into the
    /// entry of that feature with the same name, section and capacity (a new one if none).
    /// Taking a river off a side takes its bridge off too.
    ToggleSide {
        /// The hexside.
        side: Hexside,
        /// River, rail, road, bridge, border or ridge.
        feature: Feature,
        /// The entry's name (the Moselle), where given.
        name: Option<String>,
        /// A rail section's name (FR-G1).
        section: Option<String>,
        /// A rail section's capacity (FR-G1).
        capacity: Option<u32>,
    },
    /// The hexside features become these (the undo of a toggle).
    Lines(Vec<Line>),
    /// A place is added, or replaces the place of the same name (case ignored).
    Place(Place),
    /// The place of this name (case ignored) is taken off.
    RemovePlace(String),
    /// The places become these (the undo of a place edit).
    Places(Vec<Place>),
    /// The edges' roles become these.
    Edges(Vec<Edge>),
    /// The victory values become these.
    Victory(Vec<Victory>),
}

/// Why an edit was refused: what is wrong and what is accepted (the map checker's words).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditError {
    /// What is wrong.
    pub message: String,
    /// What would be accepted.
    pub accepted: String,
}

impl std::fmt::Display for EditError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (accepted: {})", self.message, self.accepted)
    }
}

fn refuse(message: impl Into<String>, accepted: impl Into<String>) -> EditError {
    EditError {
        message: message.into(),
        accepted: accepted.into(),
    }
}

/// A line of text the file takes (trimmed), or why not; None for an empty optional one.
fn one_line(what: &str, s: &str) -> Result<String, EditError> {
    let t = s.trim();
    if t.is_empty() || t.chars().count() > MAX_TEXT || t.chars().any(char::is_control) {
        return Err(refuse(
            format!("the {what} is not one line of text"),
            format!("one line of text, 1 to {MAX_TEXT} characters"),
        ));
    }
    Ok(t.to_string())
}

fn opt_line(what: &str, s: &Option<String>) -> Result<Option<String>, EditError> {
    match s {
        Some(x) if !x.trim().is_empty() => one_line(what, x).map(Some),
        _ => Ok(None),
    }
}

impl Map {
    fn on_map_or_refuse(&self, cells: &[Hex]) -> Result<(), EditError> {
        match cells.iter().find(|h| !self.on_map(**h)) {
            Some(h) => Err(refuse(
                format!("cell {} is off the map", self.grid.label(*h)),
                format!("a cell from {}", self.grid.span_label()),
            )),
            None => Ok(()),
        }
    }

    /// The index of a cell terrain name, added to the map's names if new; refused where the
    /// table does not know it (or, unchecked, where it is not a terrain name).
    fn terrain_index(&mut self, name: &str) -> Result<u16, EditError> {
        let n = name.trim();
        if self.terrain_checked {
            let names = self.terrain.names(Applies::Cell);
            if !names.contains(&n) {
                return Err(refuse(
                    format!("unknown terrain `{n}` for {}", self.rules.id()),
                    names.join(", "),
                ));
            }
        } else if !is_name(n) {
            return Err(refuse(
                format!("`{n}` is not a terrain name"),
                "a lower-case word of letters, digits and `-`, starting with a letter",
            ));
        }
        if let Some(i) = self.terrain_names.iter().position(|x| x == n) {
            return Ok(i as u16);
        }
        self.terrain_names.push(n.to_string());
        Ok((self.terrain_names.len() - 1) as u16)
    }

    fn set_terrains(&mut self, changes: &[(Hex, String)]) -> Result<Edit, EditError> {
        let cells: Vec<Hex> = changes.iter().map(|(h, _)| *h).collect();
        self.on_map_or_refuse(&cells)?;
        let mut idx = Vec::with_capacity(changes.len());
        for (_, t) in changes {
            idx.push(self.terrain_index(t)?);
        }
        let mut undo = Vec::with_capacity(changes.len());
        for ((h, _), t) in changes.iter().zip(idx) {
            let Some(i) = self.grid.index(*h) else {
                continue;
            };
            let old = self.terrain_of(*h).unwrap_or_default().to_string();
            if let Some(c) = self.cells.get_mut(i) {
                c.terrain = t;
            }
            undo.push((*h, old));
        }
        undo.reverse();
        Ok(Edit::Terrains(undo))
    }

    fn set_countries(&mut self, changes: &[(Hex, Option<Country>)]) -> Result<Edit, EditError> {
        let cells: Vec<Hex> = changes.iter().map(|(h, _)| *h).collect();
        self.on_map_or_refuse(&cells)?;
        let mut undo = Vec::with_capacity(changes.len());
        for (h, c) in changes {
            if let Some(i) = self.grid.index(*h)
                && let Some(cell) = self.cells.get_mut(i)
            {
                undo.push((*h, cell.country));
                cell.country = *c;
            }
        }
        undo.reverse();
        Ok(Edit::Countries(undo))
    }

    /// Rebuilds the hexside index after the lines changed.
    fn reindex(&mut self) {
        let mut by_side: BTreeMap<Hexside, Vec<usize>> = BTreeMap::new();
        for (i, l) in self.lines.iter().enumerate() {
            for s in &l.sides {
                by_side.entry(*s).or_default().push(i);
            }
        }
        self.by_side = by_side;
    }

    fn set_lines(&mut self, lines: Vec<Line>) -> Edit {
        let old = std::mem::replace(&mut self.lines, lines);
        self.reindex();
        Edit::Lines(old)
    }

    fn toggle_side(
        &mut self,
        side: Hexside,
        feature: Feature,
        name: &Option<String>,
        section: &Option<String>,
        capacity: Option<u32>,
    ) -> Result<Edit, EditError> {
        let (a, b) = side.hexes();
        if !self.on_map(a) && !self.on_map(b) {
            return Err(refuse(
                format!(
                    "hexside {} is off the map (neither of its cells is on it)",
                    self.grid.side_label(side)
                ),
                format!("a hexside of a cell from {}", self.grid.span_label()),
            ));
        }
        let name = opt_line("name", name)?;
        let (section, capacity) = if feature == Feature::Rail {
            if let Some(c) = capacity
                && !(1..=99).contains(&c)
            {
                return Err(refuse(
                    format!("capacity {c} is out of range"),
                    "1 to 99 (FR-G1)",
                ));
            }
            (opt_line("section", section)?, capacity)
        } else {
            (None, None)
        };
        let mut lines = self.lines.clone();
        let present = lines
            .iter()
            .any(|l| l.feature == feature && l.sides.contains(&side));
        if present {
            let off: &[Feature] = if feature == Feature::River {
                &[Feature::River, Feature::Bridge]
            } else {
                std::slice::from_ref(&feature)
            };
            for l in lines.iter_mut().filter(|l| off.contains(&l.feature)) {
                l.sides.retain(|s| *s != side);
            }
            lines.retain(|l| !l.sides.is_empty());
        } else {
            if feature == Feature::Bridge
                && !lines
                    .iter()
                    .any(|l| l.feature == Feature::River && l.sides.contains(&side))
            {
                return Err(refuse(
                    format!(
                        "a bridge crosses a river, and no river runs along {}",
                        self.grid.side_label(side)
                    ),
                    "a hexside with a river",
                ));
            }
            match lines.iter_mut().find(|l| {
                l.feature == feature
                    && l.name == name
                    && l.section == section
                    && l.capacity == capacity
            }) {
                Some(l) => l.sides.push(side),
                None => {
                    // Kept grouped by feature, as the file lists them and reads them back.
                    let at = lines
                        .iter()
                        .position(|l| l.feature > feature)
                        .unwrap_or(lines.len());
                    lines.insert(
                        at,
                        Line {
                            feature,
                            name,
                            section,
                            capacity,
                            sides: vec![side],
                        },
                    );
                }
            }
        }
        Ok(self.set_lines(lines))
    }

    fn check_place(&self, p: &Place) -> Result<Place, EditError> {
        self.on_map_or_refuse(&[p.cell])?;
        if p.kinds.is_empty() {
            return Err(refuse("no kind given", super::PlaceKind::accepted()));
        }
        if let Some(v) = p.value
            && !(1..=99).contains(&v)
        {
            return Err(refuse(format!("value {v} is out of range"), "1 to 99"));
        }
        let mut kinds = Vec::new();
        for k in &p.kinds {
            if !kinds.contains(k) {
                kinds.push(*k);
            }
        }
        Ok(Place {
            name: one_line("place's name", &p.name)?,
            cell: p.cell,
            kinds,
            value: p.value,
        })
    }

    fn set_places(&mut self, places: Vec<Place>) -> Result<Edit, EditError> {
        for (i, p) in places.iter().enumerate() {
            if places[..i]
                .iter()
                .any(|q| q.name.eq_ignore_ascii_case(&p.name))
            {
                return Err(refuse(
                    format!("place `{}` is given twice", p.name),
                    "each place's name once",
                ));
            }
        }
        Ok(Edit::Places(std::mem::replace(&mut self.places, places)))
    }

    /// The map's edge roles as `edges`, each checked as the map file's checker checks it
    /// ([`super::check::edge_problem`]): an edge the file would refuse is refused here, so the
    /// editor never holds a map it cannot save.
    fn set_edges(&mut self, edges: Vec<Edge>) -> Result<Edit, EditError> {
        for e in &edges {
            self.on_map_or_refuse(&e.cells)?;
            if let Some(p) = super::check::edge_problem(&self.grid, e) {
                return Err(refuse(
                    format!("{} edge: {}", e.role, p.message),
                    p.accepted,
                ));
            }
        }
        Ok(Edit::Edges(std::mem::replace(&mut self.edges, edges)))
    }

    /// The map's victory values as `victory`, each checked as the map file's checker checks it
    /// ([`super::check::victory_problem`]).
    fn set_victory(&mut self, victory: Vec<Victory>) -> Result<Edit, EditError> {
        for v in &victory {
            if let VictoryBy::Cells { cells, .. } = &v.by {
                self.on_map_or_refuse(cells)?;
            }
            if let Some(p) = super::check::victory_problem(&self.grid, v) {
                return Err(refuse(format!("{}: {}", v.name, p.message), p.accepted));
            }
        }
        Ok(Edit::Victory(std::mem::replace(&mut self.victory, victory)))
    }

    /// Applies `edit`: returns the edit that undoes it, or why it is refused (the map unchanged).
    pub fn apply(&mut self, edit: &Edit) -> Result<Edit, EditError> {
        match edit {
            Edit::Paint { cells, terrain } => {
                let changes: Vec<(Hex, String)> =
                    cells.iter().map(|h| (*h, terrain.clone())).collect();
                self.set_terrains(&changes)
            }
            Edit::Terrains(changes) => self.set_terrains(changes),
            Edit::SetCountry { cells, country } => {
                let changes: Vec<(Hex, Option<Country>)> =
                    cells.iter().map(|h| (*h, *country)).collect();
                self.set_countries(&changes)
            }
            Edit::Countries(changes) => self.set_countries(changes),
            Edit::ToggleSide {
                side,
                feature,
                name,
                section,
                capacity,
            } => self.toggle_side(*side, *feature, name, section, *capacity),
            Edit::Lines(lines) => Ok(self.set_lines(lines.clone())),
            Edit::Place(p) => {
                let p = self.check_place(p)?;
                let mut places = self.places.clone();
                match places
                    .iter_mut()
                    .find(|q| q.name.eq_ignore_ascii_case(&p.name))
                {
                    Some(q) => *q = p,
                    None => places.push(p),
                }
                self.set_places(places)
            }
            Edit::RemovePlace(name) => {
                let mut places = self.places.clone();
                places.retain(|q| !q.name.eq_ignore_ascii_case(name.trim()));
                self.set_places(places)
            }
            Edit::Places(places) => {
                for p in places {
                    self.check_place(p)?;
                }
                self.set_places(places.clone())
            }
            Edit::Edges(edges) => self.set_edges(edges.clone()),
            Edit::Victory(v) => self.set_victory(v.clone()),
        }
    }
}

/// One undo step: the edits done, in order, and the edits that undo them, in the order done.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Step {
    /// The edits, in the order applied.
    pub done: Vec<Edit>,
    /// Their undoing edits, in the same order (undone last first).
    pub undo: Vec<Edit>,
}

/// A map being edited: the map, its undo and redo stacks, and the stroke under way.
#[derive(Clone, Debug)]
pub struct Editor {
    /// The map as it is now.
    pub map: Map,
    undo: Vec<Step>,
    redo: Vec<Step>,
    stroke: Option<Step>,
    /// How many steps are done since the map was last saved (negative: undone past it);
    /// None once the saved state cannot be reached by undo or redo.
    since_save: Option<i64>,
}

impl Editor {
    /// Starts editing `map`, as saved.
    pub fn new(map: Map) -> Editor {
        Editor {
            map,
            undo: Vec::new(),
            redo: Vec::new(),
            stroke: None,
            since_save: Some(0),
        }
    }

    /// Applies one edit as a step of its own, or as part of the stroke under way.
    pub fn apply(&mut self, edit: Edit) -> Result<(), EditError> {
        let inverse = self.map.apply(&edit)?;
        match &mut self.stroke {
            Some(s) => {
                s.done.push(edit);
                s.undo.push(inverse);
            }
            None => self.push(Step {
                done: vec![edit],
                undo: vec![inverse],
            }),
        }
        Ok(())
    }

    fn push(&mut self, step: Step) {
        if step.done.is_empty() {
            return;
        }
        self.undo.push(step);
        // A new step makes the redo stack unreachable; the saved state too if it was there.
        if !self.redo.is_empty() && self.since_save.is_some_and(|n| n < 0) {
            self.since_save = None;
        }
        self.redo.clear();
        self.since_save = self.since_save.map(|n| n + 1);
    }

    /// Starts a stroke: every edit until [`Editor::end_stroke`] is one undo step.
    pub fn begin_stroke(&mut self) {
        self.end_stroke();
        self.stroke = Some(Step::default());
    }

    /// Ends the stroke under way (if any) as one undo step.
    pub fn end_stroke(&mut self) {
        if let Some(s) = self.stroke.take() {
            self.push(s);
        }
    }

    /// True while a stroke is under way.
    pub fn in_stroke(&self) -> bool {
        self.stroke.is_some()
    }

    fn replay(&mut self, edits: &[Edit]) {
        for e in edits {
            // Each edit was applied (or undone) on this very map before: it applies again.
            let _ = self.map.apply(e);
        }
    }

    /// Undoes the last step; false when there is none.
    pub fn undo(&mut self) -> bool {
        self.end_stroke();
        let Some(step) = self.undo.pop() else {
            return false;
        };
        let back: Vec<Edit> = step.undo.iter().rev().cloned().collect();
        self.replay(&back);
        self.redo.push(step);
        self.since_save = self.since_save.map(|n| n - 1);
        true
    }

    /// Redoes the last undone step; false when there is none.
    pub fn redo(&mut self) -> bool {
        self.end_stroke();
        let Some(step) = self.redo.pop() else {
            return false;
        };
        let done = step.done.clone();
        self.replay(&done);
        self.undo.push(step);
        self.since_save = self.since_save.map(|n| n + 1);
        true
    }

    /// How many steps can be undone.
    pub fn undo_len(&self) -> usize {
        self.undo.len()
    }

    /// How many steps can be redone.
    pub fn redo_len(&self) -> usize {
        self.redo.len()
    }

    /// True when the map differs from the one last saved (or opened).
    pub fn unsaved(&self) -> bool {
        self.stroke.as_ref().is_some_and(|s| !s.done.is_empty()) || self.since_save != Some(0)
    }

    /// Marks the map as saved now.
    pub fn saved(&mut self) {
        self.end_stroke();
        self.since_save = Some(0);
    }
}
