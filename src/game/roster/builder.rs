//! The order-of-battle builder's model (issue 43): a scenario's cards as drafts a form edits, the
//! tree they make (sides > army > corps > division > brigade > units, from the cards' own
//! hierarchy fields), the operations on it as values with undo and redo, each card's errors by
//! field (the checks of `kepi cards check`, [`super::validate_roster`]'s per card) and the totals
//! per node in the rule set's own unit word.
//!
//! It reads the rule set's [`CardSpec`] and names no rule set: a sixth set's card works here as
//! its spec says. Plain data, no window: the window's builder (`src/app/builder`) draws it.
//!
//! A draft holds each field as the text a form shows (absent: not given, the loader's default), so
//! a card that does not read yet (a name left empty, a hex mistyped) stays in the order of battle
//! with its errors beside its fields. A tree node exists while a card names it; the sides are the
//! scenario's (a new battle's sides are there before any card).

#[doc(hidden)] // public for the tests of this module played with kepi's rule sets (src/sets/played)
pub mod convert;

pub use convert::Conversion;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use toml::Spanned;

use super::spec::Kind;
use super::{
    CardError, CardSpec, Field, RawRoster, Scenario, Side, UnitCard, card_spec_for, slug,
    validate_card, validate_roster,
};
use crate::rules::RuleSetId;
use crate::tables::{Check, parse_toml};

/// A draft's stable key: it never changes while the builder is open, whatever is renamed or
/// moved, so a window's widgets keep their ids.
pub type Key = u64;

/// The name a unit added in the builder starts with ("New unit", "New unit 2" ...).
const NEW_UNIT: &str = "New unit";

/// One card as the form edits it: each field's text; an absent field is not given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Draft {
    /// Stable key.
    pub key: Key,
    values: BTreeMap<Field, String>,
    /// Fields a conversion to another rule set left to ask ([`OrderOfBattle::convert`]): what
    /// the source card had, shown as the field's error until the field is set (even to nothing).
    asked: BTreeMap<Field, String>,
}

impl Draft {
    /// A draft with these fields.
    pub fn new(key: Key, values: impl IntoIterator<Item = (Field, String)>) -> Draft {
        let mut d = Draft {
            key,
            values: BTreeMap::new(),
            asked: BTreeMap::new(),
        };
        for (f, v) in values {
            d.set(f, v);
        }
        d
    }

    /// The text of `field` ("" when not given).
    pub fn get(&self, field: Field) -> &str {
        self.values.get(&field).map_or("", String::as_str)
    }

    /// True when the card gives `field`.
    pub fn has(&self, field: Field) -> bool {
        self.values.contains_key(&field)
    }

    /// Sets `field`; an empty text takes it away (not given). Either answers the field's ask.
    pub fn set(&mut self, field: Field, value: String) {
        self.asked.remove(&field);
        if value.is_empty() {
            self.values.remove(&field);
        } else {
            self.values.insert(field, value);
        }
    }

    /// What a conversion asks of `field` (what the source card had), until the field is set.
    pub fn asked(&self, field: Field) -> Option<&str> {
        self.asked.get(&field).map(String::as_str)
    }

    /// Every field a conversion asks, in file order, with what the source had.
    pub fn asks(&self) -> impl Iterator<Item = (Field, &str)> {
        self.asked.iter().map(|(f, v)| (*f, v.as_str()))
    }

    /// The fields given, in file order.
    pub fn values(&self) -> impl Iterator<Item = (Field, &str)> {
        self.values.iter().map(|(f, v)| (*f, v.as_str()))
    }

    /// Its place in the tree.
    pub fn path(&self) -> NodePath {
        NodePath {
            side: self.get(Field::Side).to_string(),
            levels: Level::BELOW_SIDE
                .into_iter()
                .filter(|l| self.has(l.field()))
                .map(|l| (l, self.get(l.field()).to_string()))
                .collect(),
        }
    }

    /// Its name, or "(no name)".
    pub fn label(&self) -> &str {
        match self.get(Field::Name) {
            "" => "(no name)",
            n => n,
        }
    }
}

/// A level of the order of battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// A side.
    Side,
    /// An army.
    Army,
    /// A corps.
    Corps,
    /// A division.
    Division,
    /// A brigade.
    Brigade,
}

impl Level {
    /// The levels a card names below its side, outermost first.
    pub const BELOW_SIDE: [Level; 4] = [Level::Army, Level::Corps, Level::Division, Level::Brigade];

    /// The card's field that names it.
    pub fn field(self) -> Field {
        match self {
            Level::Side => Field::Side,
            Level::Army => Field::Army,
            Level::Corps => Field::Corps,
            Level::Division => Field::Division,
            Level::Brigade => Field::Brigade,
        }
    }

    /// "Army", "Corps" ...
    pub fn title(self) -> &'static str {
        match self {
            Level::Side => "Side",
            Level::Army => "Army",
            Level::Corps => "Corps",
            Level::Division => "Division",
            Level::Brigade => "Brigade",
        }
    }

    /// The level below (None below a brigade: units).
    pub fn below(self) -> Option<Level> {
        match self {
            Level::Side => Some(Level::Army),
            Level::Army => Some(Level::Corps),
            Level::Corps => Some(Level::Division),
            Level::Division => Some(Level::Brigade),
            Level::Brigade => None,
        }
    }
}

/// Where a node is: its side and the named levels down to it (a level a card leaves out is
/// skipped: a corps straight under its side).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodePath {
    /// The side's word ("german").
    pub side: String,
    /// (level, name), outermost first.
    pub levels: Vec<(Level, String)>,
}

impl NodePath {
    /// A side's node.
    pub fn side(side: Side) -> NodePath {
        NodePath {
            side: side.as_str().to_string(),
            levels: Vec::new(),
        }
    }

    /// The node's level.
    pub fn level(&self) -> Level {
        self.levels.last().map_or(Level::Side, |(l, _)| *l)
    }

    /// The node's name (the side's word for a side).
    pub fn name(&self) -> &str {
        self.levels.last().map_or(self.side.as_str(), |(_, n)| n)
    }

    /// The child `name` at `level`.
    pub fn child(&self, level: Level, name: &str) -> NodePath {
        let mut p = self.clone();
        p.levels.push((level, name.to_string()));
        p
    }

    /// The parent (None for a side).
    pub fn parent(&self) -> Option<NodePath> {
        let mut p = self.clone();
        p.levels.pop()?;
        Some(p)
    }

    /// True when `other` is this node or below it.
    pub fn holds(&self, other: &NodePath) -> bool {
        self.side == other.side && other.levels.starts_with(&self.levels)
    }

    /// "German > Second Army > III Corps".
    pub fn label(&self) -> String {
        let mut out = match self.side.parse::<Side>() {
            Ok(s) => s.title().to_string(),
            Err(_) => self.side.clone(),
        };
        for (_, n) in &self.levels {
            out.push_str(" > ");
            out.push_str(n);
        }
        out
    }
}

/// Units and strength under a node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Cards.
    pub units: usize,
    /// Strength summed (a strength that does not read counts 0).
    pub strength: u64,
}

/// A node of the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// Where it is.
    pub path: NodePath,
    /// Child nodes (indices into [`Tree::nodes`]), in the order the cards first name them.
    pub children: Vec<usize>,
    /// The cards directly under it (indices into [`OrderOfBattle::drafts`]).
    pub units: Vec<usize>,
    /// Everything under it.
    pub totals: Totals,
}

/// The order of battle as a tree.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tree {
    /// Every node; the sides first.
    pub nodes: Vec<Node>,
    /// The sides' nodes.
    pub roots: Vec<usize>,
}

impl Tree {
    /// The node at `path`.
    pub fn find(&self, path: &NodePath) -> Option<&Node> {
        self.nodes.iter().find(|n| &n.path == path)
    }
}

/// One error of one card: the field, what is wrong, what is accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    /// The card's key.
    pub key: Key,
    /// The field.
    pub field: Field,
    /// What is wrong.
    pub message: String,
    /// What the field accepts.
    pub accepted: String,
}

/// An operation on the order of battle: a value, applied by [`OrderOfBattle::apply`], undone by
/// [`OrderOfBattle::undo`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// Sets one field of one card ("" takes it away). Typing in one field is one undo step.
    Set {
        /// The card.
        key: Key,
        /// The field.
        field: Field,
        /// The new text.
        value: String,
    },
    /// A new card under `parent` (its side and levels), named "New unit" (numbered when taken).
    AddUnit {
        /// Where.
        parent: NodePath,
    },
    /// A new node named `name` at the level below `parent`, holding one new card.
    AddNode {
        /// Where.
        parent: NodePath,
        /// Its name.
        name: String,
    },
    /// Renames a node: every card under it.
    Rename {
        /// The node.
        node: NodePath,
        /// The new name.
        name: String,
    },
    /// A copy of a node (a brigade with its battalions) beside it, its name numbered on, its
    /// units renumbered I/, II/, III/ ... after the numbers their regiment already has.
    Duplicate {
        /// The node.
        node: NodePath,
    },
    /// Moves a card under another node.
    MoveUnit {
        /// The card.
        key: Key,
        /// The new parent.
        to: NodePath,
    },
    /// Moves a node (with everything under it) under another node of a higher level.
    MoveNode {
        /// The node.
        node: NodePath,
        /// The new parent.
        to: NodePath,
    },
    /// Deletes a card.
    DeleteUnit {
        /// The card.
        key: Key,
    },
    /// Deletes a node and every card under it.
    DeleteNode {
        /// The node.
        node: NodePath,
    },
    /// Adds cards at the end (a CSV import): each one's fields.
    AddCards {
        /// The cards' fields.
        cards: Vec<Vec<(Field, String)>>,
    },
}

impl Op {
    /// What it does, for Undo's tooltip.
    pub fn describe(&self) -> String {
        match self {
            Op::Set { field, .. } => format!("edit {field}"),
            Op::AddUnit { .. } => "add a unit".into(),
            Op::AddNode { parent, .. } => format!(
                "add a {}",
                parent
                    .level()
                    .below()
                    .map_or("unit", Level::title)
                    .to_lowercase()
            ),
            Op::Rename { node, .. } => format!("rename {}", node.name()),
            Op::Duplicate { node } => format!("duplicate {}", node.name()),
            Op::MoveUnit { .. } => "move a unit".into(),
            Op::MoveNode { node, .. } => format!("move {}", node.name()),
            Op::DeleteUnit { .. } => "delete a unit".into(),
            Op::DeleteNode { node } => format!("delete {}", node.name()),
            Op::AddCards { cards } => format!("import {} cards", cards.len()),
        }
    }
}

/// What an undo step restores.
#[derive(Clone, Debug)]
struct Step {
    op: Op,
    drafts: Vec<Arc<Draft>>,
    next_key: Key,
}

/// Undo keeps this many steps.
const UNDO_DEPTH: usize = 500;

/// An order of battle open in the builder.
#[derive(Clone, Debug)]
pub struct OrderOfBattle {
    /// The scenario's header (name, rule set, title, sides ...); its `units` are unused.
    pub header: Scenario,
    /// The rule set's card.
    pub spec: CardSpec,
    /// The cards, in file order.
    drafts: Vec<Arc<Draft>>,
    next_key: Key,
    undo: Vec<Step>,
    redo: Vec<Step>,
    /// The cards folder images must stay in.
    base_dir: Option<PathBuf>,
    errors: Vec<FieldError>,
    /// Each card's own errors, with the card they were found in: a card unchanged since (the
    /// same `Arc`: an edit makes a new one, as this holds a second reference) is not checked
    /// again, so typing in one field checks one card, not the whole order of battle.
    checked: HashMap<Key, (Arc<Draft>, Vec<FieldError>)>,
    tree: Tree,
    /// Changes with every edit, undo and redo ([`OrderOfBattle::revision`]).
    revision: u64,
}

/// The last revision given to any order of battle: revisions are unique across documents, so a
/// window's cache keyed by one never mistakes another document (or a copy's later edit) for it.
static REVISIONS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

impl OrderOfBattle {
    /// A new battle of `system` named `name` between `sides`, with no cards.
    pub fn new_battle(system: Option<RuleSetId>, name: &str, sides: Vec<Side>) -> OrderOfBattle {
        let mut header = super::csv_import::scenario_of(system, name, Vec::new());
        header.sides = sides;
        OrderOfBattle::from_parts(header, Vec::new(), None)
    }

    /// The builder of a validated scenario.
    pub fn from_scenario(s: &Scenario, base_dir: Option<&Path>) -> OrderOfBattle {
        let cards = s
            .units
            .iter()
            .map(|u| super::write::card_texts(u, s.system))
            .collect();
        let mut header = s.clone();
        header.units = Vec::new();
        OrderOfBattle::from_parts(header, cards, base_dir)
    }

    /// The builder of a card file's text: its header must read (as the loader reads it), its
    /// cards need only be TOML of the card's fields; a card that does not pass the checks opens
    /// with its errors.
    pub fn from_source(
        file: &str,
        src: &str,
        base_dir: Option<&Path>,
    ) -> Result<OrderOfBattle, CardError> {
        let raw: Result<RawRoster, _> = parse_toml(file, src);
        let mut doc: toml_edit::DocumentMut = src.parse().map_err(|e: toml_edit::TomlError| {
            Check::new(file, src).error(e.span().unwrap_or(0..0), "", e.to_string(), "TOML")
        })?;
        let units = doc.remove("unit");
        let cards: Vec<Vec<(Field, String)>> = match raw {
            Ok(raw) => raw.units.iter().map(raw_texts).collect(),
            // A card missing a required field or giving a number as text (a converted file's
            // fields left to fill) opens with its errors; anything else is the loader's error.
            Err(e) => units.as_ref().and_then(lenient_cards).ok_or(e)?,
        };
        let mut header = validate_roster(file, &doc.to_string(), base_dir)?;
        header.units = Vec::new();
        // The sides the cards name and the header does not list, so the tree shows them.
        for (_, v) in cards.iter().flatten().filter(|(f, _)| *f == Field::Side) {
            if let Ok(side) = v.parse::<Side>()
                && !header.sides.contains(&side)
            {
                header.sides.push(side);
            }
        }
        Ok(OrderOfBattle::from_parts(header, cards, base_dir))
    }

    fn from_parts(
        header: Scenario,
        cards: Vec<Vec<(Field, String)>>,
        base_dir: Option<&Path>,
    ) -> OrderOfBattle {
        let spec = card_spec_for(header.system);
        let drafts: Vec<Arc<Draft>> = cards
            .into_iter()
            .enumerate()
            .map(|(k, c)| Arc::new(Draft::new(k as Key, c)))
            .collect();
        let mut oob = OrderOfBattle {
            next_key: drafts.len() as Key,
            header,
            spec,
            drafts,
            undo: Vec::new(),
            redo: Vec::new(),
            base_dir: base_dir.map(Path::to_path_buf),
            errors: Vec::new(),
            checked: HashMap::new(),
            tree: Tree::default(),
            revision: 0,
        };
        oob.refresh();
        oob
    }

    /// The cards, in file order.
    pub fn drafts(&self) -> impl ExactSizeIterator<Item = &Draft> {
        self.drafts.iter().map(|d| &**d)
    }

    /// How many cards.
    pub fn len(&self) -> usize {
        self.drafts.len()
    }

    /// True when there is no card.
    pub fn is_empty(&self) -> bool {
        self.drafts.is_empty()
    }

    /// The card at index `i`.
    pub fn draft_at(&self, i: usize) -> Option<&Draft> {
        self.drafts.get(i).map(|d| &**d)
    }

    /// The card with `key`.
    pub fn draft(&self, key: Key) -> Option<&Draft> {
        self.drafts.iter().find(|d| d.key == key).map(|d| &**d)
    }

    /// The tree.
    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    /// Every card's errors, in card order then field order.
    pub fn errors(&self) -> &[FieldError] {
        &self.errors
    }

    /// The errors of the card with `key`.
    pub fn errors_of(&self, key: Key) -> impl Iterator<Item = &FieldError> {
        self.errors.iter().filter(move |e| e.key == key)
    }

    /// The error of one field of one card.
    pub fn error_at(&self, key: Key, field: Field) -> Option<&FieldError> {
        self.errors_of(key).find(|e| e.field == field)
    }

    /// What the strength counts ("figures", "SP"), from the card.
    pub fn strength_unit(&self) -> &'static str {
        match self.spec.field(Field::Strength).map(|f| &f.kind) {
            Some(Kind::Number { unit: Some(u), .. }) => u,
            _ => "strength",
        }
    }

    /// True when there is something to undo; what.
    pub fn can_undo(&self) -> Option<String> {
        self.undo.last().map(|s| s.op.describe())
    }

    /// True when there is something to redo; what.
    pub fn can_redo(&self) -> Option<String> {
        self.redo.last().map(|s| s.op.describe())
    }

    /// Undoes the last operation.
    pub fn undo(&mut self) -> bool {
        let Some(step) = self.undo.pop() else {
            return false;
        };
        let now = Step {
            op: step.op.clone(),
            drafts: std::mem::replace(&mut self.drafts, step.drafts),
            next_key: self.next_key,
        };
        self.redo.push(now);
        self.refresh();
        true
    }

    /// Redoes the last operation undone.
    pub fn redo(&mut self) -> bool {
        let Some(step) = self.redo.pop() else {
            return false;
        };
        let before = Step {
            op: step.op.clone(),
            drafts: std::mem::replace(&mut self.drafts, step.drafts),
            next_key: step.next_key,
        };
        self.next_key = self.next_key.max(step.next_key);
        self.undo.push(before);
        self.refresh();
        true
    }

    /// Applies `op`; an operation that cannot be done says why and changes nothing. Returns the
    /// key of the card it made (or moved), when one.
    pub fn apply(&mut self, op: Op) -> Result<Option<Key>, String> {
        let before = self.drafts.clone();
        let next_key = self.next_key;
        let made = self.run(&op);
        if made.is_err() {
            self.drafts = before;
            self.next_key = next_key;
            return made;
        }
        // Typing in one field of one card is one step.
        let merges = matches!((&op, self.undo.last()), (
            Op::Set { key, field, .. },
            Some(Step { op: Op::Set { key: k2, field: f2, .. }, .. }),
        ) if key == k2 && field == f2);
        if !merges {
            self.undo.push(Step {
                op,
                drafts: before,
                next_key,
            });
            if self.undo.len() > UNDO_DEPTH {
                self.undo.remove(0);
            }
        }
        self.redo.clear();
        self.refresh();
        made
    }

    fn fresh_key(&mut self) -> Key {
        let k = self.next_key;
        self.next_key += 1;
        k
    }

    fn index_of(&self, key: Key) -> Result<usize, String> {
        self.drafts
            .iter()
            .position(|d| d.key == key)
            .ok_or_else(|| "that unit is no longer in the order of battle".to_string())
    }

    /// A name no card has: `base`, else `base 2`, `base 3` ...
    fn free_name(&self, base: &str) -> String {
        let taken = |n: &str| self.drafts.iter().any(|d| d.get(Field::Name) == n);
        if !taken(base) {
            return base.to_string();
        }
        (2..)
            .map(|k| format!("{base} {k}"))
            .find(|n| !taken(n))
            .unwrap_or_else(|| base.to_string())
    }

    /// A new card under `parent`: its side and levels, the card's first arm and least strength.
    fn new_card(&mut self, parent: &NodePath) -> Draft {
        let key = self.fresh_key();
        let mut values = vec![(Field::Name, self.free_name(NEW_UNIT))];
        values.extend(self.new_values(parent));
        Draft::new(key, values)
    }

    /// What a new card under `parent` holds besides its name.
    fn new_values(&self, parent: &NodePath) -> Vec<(Field, String)> {
        let mut values = vec![(Field::Side, parent.side.clone())];
        if let Some(arm) = self.spec.field(Field::Arm).and_then(|f| f.values().first()) {
            values.push((Field::Arm, arm.to_string()));
        }
        if let Some(Kind::Number { min, .. }) = self.spec.field(Field::Strength).map(|f| &f.kind) {
            values.push((Field::Strength, min.to_string()));
        }
        values.extend(
            parent
                .levels
                .iter()
                .map(|(l, n)| (l.field(), n.to_string())),
        );
        values
    }

    /// The last card standing straight under `parent` as an add made it and nobody changed it
    /// since ("New unit 3", the card's first arm, its least strength, nothing else): the
    /// placeholder a new level under `parent` takes down with it.
    fn placeholder_in(&self, parent: &NodePath) -> Option<usize> {
        let want = self.new_values(parent);
        self.drafts.iter().rposition(|d| {
            let name = d.get(Field::Name);
            let numbered = name
                .strip_prefix(NEW_UNIT)
                .is_some_and(|n| n.is_empty() || n.trim_start().parse::<u32>().is_ok());
            numbered
                && d.path() == *parent
                && d.asks().next().is_none()
                && d.values().count() == want.len() + 1
                && want.iter().all(|(f, v)| d.get(*f) == v)
        })
    }

    /// Where a new card under `parent` goes: after the last card under it, else at the end.
    fn insert_at(&self, parent: &NodePath) -> usize {
        self.drafts
            .iter()
            .rposition(|d| parent.holds(&d.path()))
            .map_or(self.drafts.len(), |i| i + 1)
    }

    fn run(&mut self, op: &Op) -> Result<Option<Key>, String> {
        match op {
            Op::Set { key, field, value } => {
                let i = self.index_of(*key)?;
                Arc::make_mut(&mut self.drafts[i]).set(*field, value.clone());
                Ok(Some(*key))
            }
            Op::AddUnit { parent } => {
                let d = self.new_card(parent);
                let key = d.key;
                let at = self.insert_at(parent);
                self.drafts.insert(at, Arc::new(d));
                Ok(Some(key))
            }
            Op::AddNode { parent, name } => {
                let level = parent
                    .level()
                    .below()
                    .ok_or("a brigade holds units, not another level")?;
                let name = name.trim();
                if name.is_empty() {
                    return Err(format!("the new {} needs a name", level.title()));
                }
                // Building army > corps > division > brigade leaves one unit, in the brigade,
                // not an untouched "New unit" at every level: a new level takes the placeholder
                // the level above was made with down with it.
                if let Some(i) = self.placeholder_in(parent) {
                    let d = Arc::make_mut(&mut self.drafts[i]);
                    d.set(level.field(), name.to_string());
                    return Ok(Some(d.key));
                }
                let d = self.new_card(&parent.child(level, name));
                let key = d.key;
                let at = self.insert_at(parent);
                self.drafts.insert(at, Arc::new(d));
                Ok(Some(key))
            }
            Op::Rename { node, name } => {
                let name = name.trim();
                let level = node.level();
                if level == Level::Side {
                    return Err("a side keeps its name (french or german)".into());
                }
                if name.is_empty() {
                    return Err(format!("a {} needs a name", level.title().to_lowercase()));
                }
                for d in &mut self.drafts {
                    if node.holds(&d.path()) {
                        Arc::make_mut(d).set(level.field(), name.to_string());
                    }
                }
                Ok(None)
            }
            Op::Duplicate { node } => self.duplicate(node),
            Op::MoveUnit { key, to } => {
                let i = self.index_of(*key)?;
                let d = Arc::make_mut(&mut self.drafts[i]);
                d.set(Field::Side, to.side.clone());
                for l in Level::BELOW_SIDE {
                    d.set(l.field(), String::new());
                }
                for (l, n) in &to.levels {
                    d.set(l.field(), n.clone());
                }
                // The card goes after the last one of its new parent.
                let moved = self.drafts.remove(i);
                let at = self.insert_at(to);
                self.drafts.insert(at, moved);
                Ok(Some(*key))
            }
            Op::MoveNode { node, to } => {
                let level = node.level();
                if level == Level::Side {
                    return Err("a side does not move".into());
                }
                if to.level() >= level {
                    return Err(format!(
                        "a {} goes under a {} or higher",
                        level.title().to_lowercase(),
                        Level::BELOW_SIDE
                            .into_iter()
                            .rev()
                            .find(|l| *l < level)
                            .unwrap_or(Level::Side)
                            .title()
                            .to_lowercase()
                    ));
                }
                if node.holds(to) {
                    return Err(format!("{} cannot go under itself", node.name()));
                }
                let mut moved = Vec::new();
                let mut kept = Vec::new();
                for d in std::mem::take(&mut self.drafts) {
                    if node.holds(&d.path()) {
                        moved.push(d);
                    } else {
                        kept.push(d);
                    }
                }
                self.drafts = kept;
                let tail_from = node.levels.len() - 1;
                for d in &mut moved {
                    let path = d.path();
                    let d = Arc::make_mut(d);
                    d.set(Field::Side, to.side.clone());
                    for l in Level::BELOW_SIDE {
                        d.set(l.field(), String::new());
                    }
                    for (l, n) in to.levels.iter().chain(path.levels.iter().skip(tail_from)) {
                        d.set(l.field(), n.clone());
                    }
                }
                let at = self.insert_at(to);
                self.drafts.splice(at..at, moved);
                Ok(None)
            }
            Op::DeleteUnit { key } => {
                let i = self.index_of(*key)?;
                self.drafts.remove(i);
                Ok(None)
            }
            Op::DeleteNode { node } => {
                if node.levels.is_empty() {
                    return Err("a side is not deleted; delete its armies".into());
                }
                self.drafts.retain(|d| !node.holds(&d.path()));
                Ok(None)
            }
            Op::AddCards { cards } => {
                for c in cards {
                    let key = self.fresh_key();
                    self.drafts.push(Arc::new(Draft::new(key, c.clone())));
                }
                Ok(None)
            }
        }
    }

    /// [`Op::Duplicate`].
    fn duplicate(&mut self, node: &NodePath) -> Result<Option<Key>, String> {
        let level = node.level();
        if level == Level::Side {
            return Err("a side is not duplicated".into());
        }
        let parent = node.parent().ok_or("a side is not duplicated")?;
        let siblings: Vec<String> = self
            .drafts
            .iter()
            .filter_map(|d| {
                let p = d.path();
                (p.levels.len() >= node.levels.len()
                    && parent.holds(&p)
                    && p.levels.get(node.levels.len() - 1).map(|x| x.0) == Some(level))
                .then(|| p.levels[node.levels.len() - 1].1.clone())
            })
            .collect();
        let mut name = next_name(node.name());
        while siblings.contains(&name) {
            name = next_name(&name);
        }
        let copies: Vec<Draft> = self
            .drafts
            .iter()
            .filter(|d| node.holds(&d.path()))
            .map(|d| (**d).clone())
            .collect();
        if copies.is_empty() {
            return Err(format!("{} holds no units", node.name()));
        }
        // The highest battalion number each regiment has on this side.
        let mut highest: HashMap<String, u32> = HashMap::new();
        for d in self
            .drafts
            .iter()
            .filter(|d| d.get(Field::Side) == node.side)
        {
            let (n, base) = battalion(d.get(Field::Name));
            let e = highest.entry(base.to_string()).or_insert(0);
            *e = (*e).max(n.unwrap_or(1));
        }
        let mut first = None;
        let mut out = Vec::with_capacity(copies.len());
        for mut d in copies {
            d.key = self.fresh_key();
            first.get_or_insert(d.key);
            d.set(level.field(), name.clone());
            let (_, base) = battalion(d.get(Field::Name));
            let base = base.to_string();
            let n = highest.entry(base.clone()).or_insert(0);
            *n += 1;
            d.set(Field::Name, format!("{}/{base}", roman(*n)));
            if d.has(Field::Id) {
                d.set(Field::Id, String::new());
            }
            out.push(Arc::new(d));
        }
        let at = self.insert_at(node);
        self.drafts.splice(at..at, out);
        Ok(first)
    }

    /// The document's revision: a number no other state of any order of battle has had, new
    /// with every edit, undo and redo (a window caches what it draws from the tree by it).
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Recomputes the tree and the errors, under a new revision.
    fn refresh(&mut self) {
        self.revision = REVISIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        self.tree = build_tree(&self.header.sides, &self.drafts);
        self.errors = self.check_all();
    }

    /// Every card's errors (see the module doc): each card's own, checked again only where the
    /// card changed ([`OrderOfBattle::checked`]), then the ids repeated across cards.
    fn check_all(&mut self) -> Vec<FieldError> {
        let mut checked = HashMap::with_capacity(self.drafts.len());
        for d in &self.drafts {
            let errs = match self.checked.remove(&d.key) {
                Some((was, errs)) if Arc::ptr_eq(&was, d) => errs,
                _ => check_draft(d, self.header.system, &self.spec, self.base_dir.as_deref()),
            };
            checked.insert(d.key, (Arc::clone(d), errs));
        }
        self.checked = checked;
        let mut out = Vec::new();
        let mut ids: HashMap<String, usize> = HashMap::with_capacity(self.drafts.len());
        for (i, d) in self.drafts.iter().enumerate() {
            let errs = self
                .checked
                .get(&d.key)
                .map(|(_, e)| e.as_slice())
                .unwrap_or_default();
            let clean = errs.is_empty();
            out.extend(errs.iter().cloned());
            if clean {
                let id = match d.get(Field::Id) {
                    "" => slug(d.get(Field::Name).trim()),
                    id => id.trim().to_string(),
                };
                if let Some(&j) = ids.get(&id) {
                    let other = self.drafts.get(j).map_or("", |o| o.label());
                    out.push(FieldError {
                        key: d.key,
                        field: if d.has(Field::Id) {
                            Field::Id
                        } else {
                            Field::Name
                        },
                        message: format!("id `{id}` is already used by `{other}`"),
                        accepted: "a unique id: give one of the two its own id or name".into(),
                    });
                } else {
                    ids.insert(id, i);
                }
            }
        }
        out
    }

    /// The cards as a card file, whatever their errors (a conversion's, its asked fields left
    /// out): each card with a `# TO FILL:` comment line per error, saying the field, what is
    /// wrong and what it accepts. [`OrderOfBattle::from_source`] opens it with the same cards.
    pub fn draft_toml(&self) -> String {
        let cards: Vec<super::write::DraftCard> = self
            .drafts
            .iter()
            .map(|d| {
                let fields = d.values().map(|(f, v)| (f, v.to_string())).collect();
                let notes = self
                    .errors_of(d.key)
                    .map(|e| format!("{}: {} (accepted: {})", e.field, e.message, e.accepted))
                    .collect();
                (fields, notes)
            })
            .collect();
        super::write::draft_toml(&self.header, &cards, self.base_dir.as_deref())
    }

    /// The scenario, when no card has an error (else the number of errors).
    pub fn to_scenario(&self) -> Result<Scenario, usize> {
        if !self.errors.is_empty() {
            return Err(self.errors.len());
        }
        let check = Check::new("<builder>", "");
        let mut units = Vec::with_capacity(self.drafts.len());
        for (i, d) in self.drafts.iter().enumerate() {
            let card = card_of(d).map_err(|_| 1usize)?;
            let u = validate_card(
                &check,
                &card,
                i,
                self.header.system,
                &self.spec,
                self.base_dir.as_deref(),
            )
            .map_err(|_| 1usize)?;
            units.push(u);
        }
        let mut s = self.header.clone();
        for u in &units {
            if !s.sides.contains(&u.side) {
                s.sides.push(u.side);
            }
        }
        s.units = units;
        Ok(s)
    }
}

/// A raw card's fields as text.
fn raw_texts(c: &UnitCard) -> Vec<(Field, String)> {
    let s = |v: &Option<Spanned<String>>| v.as_ref().map(|x| x.get_ref().clone());
    let n = |v: &Option<Spanned<i64>>| v.as_ref().map(|x| x.get_ref().to_string());
    [
        (Field::Id, s(&c.id)),
        (Field::Name, Some(c.name.get_ref().clone())),
        (Field::Side, Some(c.side.get_ref().clone())),
        (Field::Nation, s(&c.nation)),
        (Field::Arm, Some(c.arm.get_ref().clone())),
        (Field::Quality, s(&c.quality)),
        (Field::Strength, Some(c.strength.get_ref().to_string())),
        (Field::Weapon, s(&c.weapon)),
        (Field::Formation, s(&c.formation)),
        (Field::Leaders, n(&c.leaders)),
        (Field::Army, s(&c.army)),
        (Field::Corps, s(&c.corps)),
        (Field::Division, s(&c.division)),
        (Field::Brigade, s(&c.brigade)),
        (Field::Hex, s(&c.hex)),
        (Field::Facing, s(&c.facing)),
        (Field::Location, s(&c.location)),
        (Field::Arrives, n(&c.arrives)),
        (Field::Movement, n(&c.movement)),
        (Field::Image, s(&c.image)),
        (Field::Notes, s(&c.notes)),
    ]
    .into_iter()
    .filter_map(|(f, v)| Some((f, v?)))
    .collect()
}

/// The `[[unit]]` tables' fields as text, when every key is a card field and every value a
/// string or a whole number (None otherwise).
fn lenient_cards(units: &toml_edit::Item) -> Option<Vec<Vec<(Field, String)>>> {
    let tables = units.as_array_of_tables()?;
    tables
        .iter()
        .map(|t| {
            t.iter()
                .map(|(k, v)| {
                    let field = Field::from_key(k)?;
                    let v = v.as_value()?;
                    let text = match (v.as_str(), v.as_integer()) {
                        (Some(s), _) => s.to_string(),
                        (_, Some(n)) => n.to_string(),
                        _ => return None,
                    };
                    Some((field, text))
                })
                .collect()
        })
        .collect()
}

/// What makes a draft not a card at all: a required field missing, a number that does not read.
type Unreadable = Vec<(Field, String, String)>;

/// A draft as the card the loader reads (spans empty), or what keeps it from being one.
fn card_of(d: &Draft) -> Result<UnitCard, Unreadable> {
    let mut bad: Unreadable = Vec::new();
    let sp = |s: &str| Spanned::new(0..0, s.to_string());
    let text = |f: Field| d.has(f).then(|| sp(d.get(f)));
    let req = |f: Field, bad: &mut Unreadable| {
        if !d.has(f) {
            bad.push((f, format!("a unit needs a {f}"), String::new()));
        }
        sp(d.get(f))
    };
    let name = req(Field::Name, &mut bad);
    let side = req(Field::Side, &mut bad);
    let arm = req(Field::Arm, &mut bad);
    let num = |f: Field, bad: &mut Unreadable| -> Option<Spanned<i64>> {
        let t = d.get(f).trim();
        if !d.has(f) {
            return None;
        }
        match t.parse::<i64>() {
            Ok(n) => Some(Spanned::new(0..0, n)),
            Err(_) => {
                bad.push((f, format!("`{t}` is not a whole number"), String::new()));
                None
            }
        }
    };
    let strength = if d.has(Field::Strength) {
        num(Field::Strength, &mut bad)
    } else {
        bad.push((
            Field::Strength,
            "a unit needs a strength".into(),
            String::new(),
        ));
        None
    };
    let leaders = num(Field::Leaders, &mut bad);
    let arrives = num(Field::Arrives, &mut bad);
    let movement = num(Field::Movement, &mut bad);
    if !bad.is_empty() {
        return Err(bad);
    }
    Ok(UnitCard {
        id: text(Field::Id),
        name,
        side,
        nation: text(Field::Nation),
        arm,
        quality: text(Field::Quality),
        strength: strength.unwrap_or_else(|| Spanned::new(0..0, 0)),
        weapon: text(Field::Weapon),
        formation: text(Field::Formation),
        leaders,
        notes: text(Field::Notes),
        image: text(Field::Image),
        army: text(Field::Army),
        corps: text(Field::Corps),
        division: text(Field::Division),
        brigade: text(Field::Brigade),
        hex: text(Field::Hex),
        facing: text(Field::Facing),
        location: text(Field::Location),
        arrives,
        movement,
    })
}

/// A value that passes the loader's checks for a field (`spec`'s first choice, least number),
/// put in place of a field with an error to find the next one.
fn placeholder(spec: &CardSpec, field: Field) -> Option<String> {
    match spec.field(field).map(|f| &f.kind) {
        Some(Kind::Choice { values }) => values.first().map(|v| v.to_string()),
        Some(Kind::Number { min, .. }) => Some(min.to_string()),
        _ => match field {
            Field::Name => Some("unit".into()),
            Field::Side => Some("german".into()),
            _ => None,
        },
    }
}

/// A draft's errors: the loader's checks of its card (`validate_card`), every field that has one
/// (a field with an error is set aside and the card checked again, so each error shows at once).
#[doc(hidden)] // public for the tests of this module played with kepi's rule sets (src/sets/played)
pub fn check_draft(
    d: &Draft,
    system: Option<RuleSetId>,
    spec: &CardSpec,
    base_dir: Option<&Path>,
) -> Vec<FieldError> {
    let mut out: Vec<FieldError> = Vec::new();
    let mut work = d.clone();
    let check = Check::new("<builder>", "");
    for _ in 0..=Field::ALL.len() {
        let card = match card_of(&work) {
            Ok(c) => c,
            Err(bad) => {
                for (field, message, _) in bad {
                    out.push(FieldError {
                        key: d.key,
                        field,
                        message,
                        accepted: spec.accepted(field),
                    });
                    work.set(field, placeholder(spec, field).unwrap_or_default());
                }
                continue;
            }
        };
        match validate_card(&check, &card, 0, system, spec, base_dir) {
            Ok(_) => break,
            Err(e) => {
                let Some(field) = e.field.strip_prefix("unit[0].").and_then(Field::from_key) else {
                    break;
                };
                if out.iter().any(|x| x.field == field) {
                    break;
                }
                out.push(FieldError {
                    key: d.key,
                    field,
                    message: e.message,
                    accepted: e.accepted,
                });
                work.set(field, placeholder(spec, field).unwrap_or_default());
            }
        }
    }
    // A field a conversion asks of is an error until set, saying what the source card had.
    for (field, note) in d.asks() {
        match out.iter_mut().find(|e| e.field == field) {
            Some(e) => e.message = note.to_string(),
            None => out.push(FieldError {
                key: d.key,
                field,
                message: note.to_string(),
                accepted: spec.accepted(field),
            }),
        }
    }
    out.sort_by_key(|e| e.field);
    out
}

/// The tree of `drafts` under `sides` (a side only a card names comes after them).
fn build_tree(sides: &[Side], drafts: &[Arc<Draft>]) -> Tree {
    let mut tree = Tree::default();
    let mut index: HashMap<(usize, Level, String), usize> = HashMap::new();
    let mut roots: HashMap<String, usize> = HashMap::new();
    let mut root = |tree: &mut Tree, side: &str| -> usize {
        *roots.entry(side.to_string()).or_insert_with(|| {
            tree.nodes.push(Node {
                path: NodePath {
                    side: side.to_string(),
                    levels: Vec::new(),
                },
                children: Vec::new(),
                units: Vec::new(),
                totals: Totals::default(),
            });
            tree.roots.push(tree.nodes.len() - 1);
            tree.nodes.len() - 1
        })
    };
    for s in sides {
        root(&mut tree, s.as_str());
    }
    for (i, d) in drafts.iter().enumerate() {
        let strength = d.get(Field::Strength).trim().parse::<u64>().unwrap_or(0);
        let mut at = root(&mut tree, d.get(Field::Side));
        let mut on_path = vec![at];
        for l in Level::BELOW_SIDE {
            if !d.has(l.field()) {
                continue;
            }
            let name = d.get(l.field()).to_string();
            let next = match index.get(&(at, l, name.clone())) {
                Some(&n) => n,
                None => {
                    let path = tree.nodes[at].path.child(l, &name);
                    tree.nodes.push(Node {
                        path,
                        children: Vec::new(),
                        units: Vec::new(),
                        totals: Totals::default(),
                    });
                    let n = tree.nodes.len() - 1;
                    tree.nodes[at].children.push(n);
                    index.insert((at, l, name), n);
                    n
                }
            };
            at = next;
            on_path.push(at);
        }
        tree.nodes[at].units.push(i);
        for n in on_path {
            let t = &mut tree.nodes[n].totals;
            t.units += 1;
            t.strength += strength;
        }
    }
    tree
}

/// A battalion's number and its regiment: "II/12th Grenadiers" is (2, "12th Grenadiers"); a name
/// without a Roman number in front is (None, the name).
pub fn battalion(name: &str) -> (Option<u32>, &str) {
    if let Some((num, rest)) = name.split_once('/')
        && let Some(n) = from_roman(num.trim())
    {
        return (Some(n), rest.trim_start());
    }
    (None, name)
}

fn from_roman(s: &str) -> Option<u32> {
    (1..=40).find(|&n| roman(n) == s)
}

/// 1 to 3999 in Roman numerals ("IV").
pub fn roman(mut n: u32) -> String {
    const R: [(u32, &str); 13] = [
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ];
    let mut out = String::new();
    for (v, s) in R {
        while n >= v {
            out.push_str(s);
            n -= v;
        }
    }
    out
}

/// The name after `name`: its last number counted on ("1st Brigade" > "2nd Brigade",
/// "Brigade 4" > "Brigade 5"), else " 2" added.
pub fn next_name(name: &str) -> String {
    let bytes: Vec<char> = name.chars().collect();
    let end = bytes.iter().rposition(|c| c.is_ascii_digit());
    let Some(end) = end else {
        return format!("{name} 2");
    };
    let start = bytes[..=end]
        .iter()
        .rposition(|c| !c.is_ascii_digit())
        .map_or(0, |i| i + 1);
    let digits: String = bytes[start..=end].iter().collect();
    let Ok(n) = digits.parse::<u64>() else {
        return format!("{name} 2");
    };
    let n = n + 1;
    let rest: String = bytes[end + 1..].iter().collect();
    let head: String = bytes[..start].iter().collect();
    const SUFFIXES: [&str; 4] = ["st", "nd", "rd", "th"];
    let (rest, suffixed) = match SUFFIXES.iter().find(|s| rest.starts_with(**s)) {
        Some(s) => (rest[s.len()..].to_string(), true),
        None => (rest, false),
    };
    let suffix = if !suffixed {
        ""
    } else {
        match (n % 10, n % 100) {
            (_, 11..=13) => "th",
            (1, _) => "st",
            (2, _) => "nd",
            (3, _) => "rd",
            _ => "th",
        }
    };
    format!("{head}{n}{suffix}{rest}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering() {
        assert_eq!(roman(4), "IV");
        assert_eq!(roman(14), "XIV");
        assert_eq!(battalion("II/12th"), (Some(2), "12th"));
        assert_eq!(battalion("12th"), (None, "12th"));
        assert_eq!(battalion("a/b"), (None, "a/b"));
        assert_eq!(next_name("1st Brigade"), "2nd Brigade");
        assert_eq!(next_name("11th Brigade"), "12th Brigade");
        assert_eq!(next_name("Brigade 9"), "Brigade 10");
        assert_eq!(next_name("Guard"), "Guard 2");
    }
}
