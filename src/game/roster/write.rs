//! Writing an order of battle back as the `[[unit]]` TOML a person would write (issue 43).
//!
//! [`to_toml`] writes a [`Scenario`] afresh: the scenario header, then the cards in their order,
//! a comment line wherever the order of battle (army > corps > division > brigade) changes from
//! the card before, and in each card only the fields that are set (a value the loader would give
//! by itself, such as P&K's 3 leaders, PK-L1, is left out), in the fixed order of
//! [`Field::ALL`]. Reading it back gives the same cards.
//!
//! [`save_over`] saves a scenario over the text it was opened from, editing that document in
//! place ([`toml_edit`]): every comment, blank line and layout of the hand-written file is kept,
//! and only the values that changed are touched; a card that is new is written as [`to_toml`]
//! writes it. Saving an unchanged scenario gives the file back byte for byte.

use std::path::Path;

use toml_edit::{ArrayOfTables, DocumentMut, Item, Table};

use super::{Field, Oob, Position, Scenario, Unit, default_leaders, validate_roster};
use crate::rules::RuleSetId;

/// One value of a card file.
#[derive(Clone, Debug, PartialEq, Eq)]
enum V {
    /// A string.
    S(String),
    /// A whole number.
    I(i64),
    /// True or false.
    B(bool),
    /// A list of strings.
    L(Vec<String>),
}

impl V {
    fn text(s: &str) -> Option<V> {
        (!s.is_empty()).then(|| V::S(s.to_string()))
    }

    fn int(n: u32) -> V {
        V::I(i64::from(n))
    }

    /// As TOML text.
    fn encode(&self, out: &mut String) {
        match self {
            V::S(s) => basic_string(s, out),
            V::I(n) => out.push_str(&n.to_string()),
            V::B(b) => out.push_str(if *b { "true" } else { "false" }),
            V::L(items) => {
                out.push('[');
                for (k, s) in items.iter().enumerate() {
                    if k > 0 {
                        out.push_str(", ");
                    }
                    basic_string(s, out);
                }
                out.push(']');
            }
        }
    }

    /// As a [`toml_edit`] value.
    fn edit(&self) -> toml_edit::Value {
        match self {
            V::S(s) => toml_edit::Value::from(s.as_str()),
            V::I(n) => toml_edit::Value::from(*n),
            V::B(b) => toml_edit::Value::from(*b),
            V::L(items) => toml_edit::Value::Array(items.iter().map(String::as_str).collect()),
        }
    }
}

/// A TOML basic string: quotes, backslashes and control characters escaped.
#[doc(hidden)] // public for the tests of this module played with kepi's rule sets (src/sets/played)
pub fn basic_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The scenario header's keys and values, in the order a file writes them (None: not written).
fn header_values(s: &Scenario, base_dir: Option<&Path>) -> Vec<(&'static str, Option<V>)> {
    vec![
        ("name", V::text(&s.name)),
        ("system", s.system.map(|x| V::S(x.id().to_string()))),
        ("title", V::text(&s.title)),
        (
            "date",
            s.date.map(|d| V::S(d.format("%Y-%m-%d").to_string())),
        ),
        (
            "first_cell",
            (s.first_cell != 1).then(|| V::int(s.first_cell)),
        ),
        (
            "sides",
            (!s.sides.is_empty())
                .then(|| V::L(s.sides.iter().map(|x| x.as_str().to_string()).collect())),
        ),
        (
            "scale",
            (!s.scale.is_text()).then(|| V::S(s.scale.to_string())),
        ),
        (
            "map",
            s.map.as_ref().map(|m| V::S(map_name(&m.file, base_dir))),
        ),
        ("hide_strengths", s.hide_strengths.then_some(V::B(true))),
        ("notes", V::text(&s.notes)),
    ]
}

/// How a scenario names its map: one of kepi's own by name, else the file, relative to the
/// scenario's folder when it is inside it.
fn map_name(file: &str, base_dir: Option<&Path>) -> String {
    if let Some(name) = file
        .strip_prefix("<built-in ")
        .and_then(|f| f.strip_suffix('>'))
    {
        return name.to_string();
    }
    if let Some(dir) = base_dir
        && let Ok(rel) = Path::new(file).strip_prefix(dir)
    {
        return rel.to_string_lossy().replace('\\', "/");
    }
    file.to_string()
}

/// Where a card that gives no `hex` starts: off when it arrives later or plays on hexes, else
/// on the table (as the loader reads it).
fn implied_position(u: &Unit, system: Option<RuleSetId>) -> Position {
    if u.arrives.is_some() || system.is_some_and(|s| s.uses_hexes()) {
        Position::Off
    } else {
        Position::Free
    }
}

/// A card's fields and values, in [`Field::ALL`]'s order (None: not written; the loader gives the
/// same value by itself).
fn card_values(u: &Unit, system: Option<RuleSetId>) -> Vec<(Field, Option<V>)> {
    let o = &u.oob;
    Field::ALL
        .into_iter()
        .map(|f| {
            let v = match f {
                Field::Id => Some(V::S(u.id.clone())),
                Field::Name => Some(V::S(u.name.clone())),
                Field::Side => Some(V::S(u.side.as_str().to_string())),
                Field::Nation => V::text(&u.nation),
                Field::Arm => Some(V::S(u.arm.as_str().to_string())),
                Field::Quality => u.quality.map(|q| V::S(q.as_str().to_string())),
                Field::Strength => Some(V::int(u.strength)),
                Field::Weapon => u.weapon.map(|w| V::S(w.as_str().to_string())),
                Field::Formation => u.formation.map(|w| V::S(w.as_str().to_string())),
                Field::Leaders => {
                    (u.leaders != default_leaders(system, u.arm)).then(|| V::int(u.leaders))
                }
                Field::Army => o.army.as_deref().map(|s| V::S(s.to_string())),
                Field::Corps => o.corps.as_deref().map(|s| V::S(s.to_string())),
                Field::Division => o.division.as_deref().map(|s| V::S(s.to_string())),
                Field::Brigade => o.brigade.as_deref().map(|s| V::S(s.to_string())),
                Field::Hex => (u.position != implied_position(u, system))
                    .then(|| V::S(u.position.to_string())),
                Field::Facing => u.facing.map(|x| V::S(x.as_str().to_string())),
                Field::Location => u.location.as_deref().map(|s| V::S(s.to_string())),
                Field::Arrives => u.arrives.map(V::int),
                Field::Movement => u.movement.map(V::int),
                Field::Image => u.image.as_deref().map(|s| V::S(s.to_string())),
                Field::Notes => V::text(&u.notes),
            };
            (f, v)
        })
        .collect()
}

/// A card's fields as the text a form holds (what [`card_values`] writes; a value the loader
/// gives by itself is absent), for the order-of-battle builder.
pub(crate) fn card_texts(u: &Unit, system: Option<RuleSetId>) -> Vec<(Field, String)> {
    card_values(u, system)
        .into_iter()
        .filter_map(|(f, v)| match v? {
            V::S(s) => Some((f, s)),
            V::I(n) => Some((f, n.to_string())),
            V::B(b) => Some((f, b.to_string())),
            V::L(l) => Some((f, l.join(", "))),
        })
        .collect()
}

/// The comment lines that open a card whose order of battle differs from the card before's: one
/// line per level from the first that changed ("# Army: Second Army", "#   Corps: III Corps").
fn hierarchy_comment(prev: Option<&Oob>, now: &Oob) -> String {
    let levels = |o: &Oob| {
        [
            o.army.clone(),
            o.corps.clone(),
            o.division.clone(),
            o.brigade.clone(),
        ]
    };
    let now_l = levels(now);
    let first_changed = match prev {
        None => 0,
        Some(p) => {
            let prev_l = levels(p);
            match (0..4).find(|&k| prev_l[k] != now_l[k]) {
                Some(k) => k,
                None => return String::new(),
            }
        }
    };
    let mut out = String::new();
    for (k, (word, name)) in ["Army", "Corps", "Division", "Brigade"]
        .iter()
        .zip(now_l.iter())
        .enumerate()
        .skip(first_changed)
    {
        if let Some(name) = name {
            // Names hold no control characters (the loader refuses them); a line break here
            // would end the comment, so make sure.
            let name: String = name.chars().filter(|c| !c.is_control()).collect();
            out.push_str(&format!("# {}{word}: {name}\n", "  ".repeat(k)));
        }
    }
    out
}

/// The scenario as the `[[unit]]` TOML a person would write (see the module doc).
pub fn to_toml(s: &Scenario) -> String {
    to_toml_in(s, None)
}

/// [`to_toml`] for a file in `base_dir`: a map file inside it is named relative to it.
pub fn to_toml_in(s: &Scenario, base_dir: Option<&Path>) -> String {
    let mut out = String::with_capacity(256 + s.units.len() * 320);
    for (key, v) in header_values(s, base_dir) {
        if let Some(v) = v {
            out.push_str(key);
            out.push_str(" = ");
            v.encode(&mut out);
            out.push('\n');
        }
    }
    push_marks(&mut out, &s.marks);
    let mut prev: Option<&Unit> = None;
    for u in &s.units {
        out.push('\n');
        if prev.is_none_or(|p| p.side != u.side) {
            out.push_str(&format!("# {} side\n", u.side.title()));
        }
        out.push_str(&hierarchy_comment(
            prev.filter(|p| p.side == u.side).map(|p| &p.oob),
            &u.oob,
        ));
        push_card(&mut out, u, s.system);
        prev = Some(u);
    }
    out
}

/// A card that need not read yet: its fields as text, and the notes written above it.
pub(crate) type DraftCard = (Vec<(Field, String)>, Vec<String>);

/// An order of battle whose cards need not all read yet (a conversion's, its asked fields left
/// out): the header as [`to_toml_in`] writes it, then each card's given fields in [`Field::ALL`]'s
/// order, under the side and hierarchy comments, with a comment line above the card for each
/// `note` (a field left to fill). The builder opens it with each missing field's error.
pub(crate) fn draft_toml(
    header: &Scenario,
    cards: &[DraftCard],
    base_dir: Option<&Path>,
) -> String {
    let mut out = String::with_capacity(256 + cards.len() * 360);
    for (key, v) in header_values(header, base_dir) {
        if let Some(v) = v {
            out.push_str(key);
            out.push_str(" = ");
            v.encode(&mut out);
            out.push('\n');
        }
    }
    push_marks(&mut out, &header.marks);
    let get = |c: &[(Field, String)], f: Field| {
        c.iter()
            .find(|(g, _)| *g == f)
            .map(|(_, v)| v.clone())
            .filter(|v| !v.is_empty())
    };
    let oob = |c: &[(Field, String)]| Oob {
        army: get(c, Field::Army),
        corps: get(c, Field::Corps),
        division: get(c, Field::Division),
        brigade: get(c, Field::Brigade),
    };
    let mut prev: Option<(Option<String>, Oob)> = None;
    for (fields, notes) in cards {
        let side = get(fields, Field::Side);
        let now = oob(fields);
        out.push('\n');
        let same_side = prev.as_ref().is_some_and(|(s, _)| *s == side);
        if !same_side {
            let title = side
                .as_deref()
                .and_then(|s| s.parse::<super::Side>().ok())
                .map_or("No", |s| s.title());
            out.push_str(&format!("# {title} side\n"));
        }
        out.push_str(&hierarchy_comment(
            prev.as_ref().filter(|_| same_side).map(|(_, o)| o),
            &now,
        ));
        for note in notes {
            let note: String = note.chars().filter(|c| !c.is_control()).collect();
            out.push_str(&format!("# TO FILL: {note}\n"));
        }
        out.push_str("[[unit]]\n");
        for f in Field::ALL {
            let Some(v) = get(fields, f) else {
                continue;
            };
            let number = matches!(
                f,
                Field::Strength | Field::Leaders | Field::Arrives | Field::Movement
            );
            let v = match v.trim().parse::<i64>() {
                Ok(n) if number => V::I(n),
                _ => V::S(v),
            };
            out.push_str(f.key());
            out.push_str(" = ");
            v.encode(&mut out);
            out.push('\n');
        }
        prev = Some((side, now));
    }
    out
}

/// The scenario's markers at the start as `[[mark]]` tables, after the header.
fn push_marks(out: &mut String, marks: &[super::ScenarioMark]) {
    for m in marks {
        out.push_str("\n[[mark]]\nkind = ");
        V::S(m.kind.clone()).encode(out);
        out.push_str("\ncell = ");
        V::S(m.cell.to_string()).encode(out);
        out.push('\n');
    }
}

/// The `[[mark]]` tables of `marks`, as [`push_marks`] writes them, for a document edited in
/// place.
fn mark_tables(marks: &[super::ScenarioMark]) -> ArrayOfTables {
    let mut a = ArrayOfTables::new();
    for m in marks {
        let mut t = Table::new();
        t.insert("kind", toml_edit::value(m.kind.clone()));
        t.insert("cell", toml_edit::value(m.cell.to_string()));
        a.push(t);
    }
    a
}

fn push_card(out: &mut String, u: &Unit, system: Option<RuleSetId>) {
    out.push_str("[[unit]]\n");
    for (f, v) in card_values(u, system) {
        if let Some(v) = v {
            out.push_str(f.key());
            out.push_str(" = ");
            v.encode(out);
            out.push('\n');
        }
    }
}

/// One card as the `[[unit]]` table a file would hold (what `kepi cards import --dry-run` shows).
pub fn card_toml(u: &Unit, system: Option<RuleSetId>) -> String {
    let mut out = String::new();
    push_card(&mut out, u, system);
    out
}

/// Sets `key` of `table` to `v` (None: removes it), keeping the key's comments and the value's
/// own (a comment after it on its line).
fn set_value(table: &mut Table, key: &str, v: Option<&V>) {
    match v {
        None => {
            table.remove(key);
        }
        Some(v) => {
            let mut new = v.edit();
            if let Some(Item::Value(old)) = table.get_mut(key) {
                *new.decor_mut() = old.decor().clone();
                *old = new;
            } else {
                table.insert(key, Item::Value(new));
            }
        }
    }
}

/// A new `[[unit]]` table for `u`, its fields in the fixed order.
fn fresh_table(u: &Unit, system: Option<RuleSetId>, prefix: String) -> Table {
    let mut t = Table::new();
    for (f, v) in card_values(u, system) {
        if let Some(v) = v {
            t.insert(f.key(), Item::Value(v.edit()));
        }
    }
    t.decor_mut().set_prefix(format!("\n{prefix}"));
    t
}

/// Saves `new` over `original`, the text it was opened from (in `base_dir`), keeping that file's
/// comments and layout (see the module doc). When `original` does not read as a card file, or
/// holds its cards as an inline array, the scenario is written afresh ([`to_toml_in`]).
pub fn save_over(original: &str, new: &Scenario, base_dir: Option<&Path>) -> String {
    let Ok(old) = validate_roster("<original>", original, base_dir) else {
        return to_toml_in(new, base_dir);
    };
    save_over_opened(original, &old, new, base_dir)
}

/// [`save_over`] for a caller that still holds `old`, the scenario `original` read as when it was
/// opened (the builder does): the original is not read and checked a second time, which is most
/// of a save's time for an order of battle of thousands of cards (issue 43: saving <= 50 ms).
/// `old` must be what `original` reads as; a caller that is not sure calls [`save_over`].
pub fn save_over_opened(
    original: &str,
    old: &Scenario,
    new: &Scenario,
    base_dir: Option<&Path>,
) -> String {
    let Ok(mut doc) = original.parse::<DocumentMut>() else {
        return to_toml_in(new, base_dir);
    };
    let root = doc.as_table_mut();
    let had_units = root.contains_key("unit");
    if had_units && !matches!(root.get("unit"), Some(Item::ArrayOfTables(_))) {
        return to_toml_in(new, base_dir);
    }
    let before = header_values(old, base_dir);
    for ((key, v), (_, was)) in header_values(new, base_dir).iter().zip(before.iter()) {
        if v != was {
            set_value(root, key, v.as_ref());
        }
    }
    // The markers at the start: kept as written while unchanged, else written again.
    if new.marks != old.marks {
        root.remove("mark");
        if !new.marks.is_empty() {
            root.insert("mark", Item::ArrayOfTables(mark_tables(&new.marks)));
        }
    }
    let mut tables: Vec<Option<Table>> = match root.remove("unit") {
        Some(Item::ArrayOfTables(a)) => a.into_iter().map(Some).collect(),
        _ => Vec::new(),
    };
    let mut out = ArrayOfTables::new();
    let mut prev: Option<&Unit> = None;
    // Each old card's place by its id: one look-up per card, not a scan (linear in the cards).
    let mut old_at: std::collections::HashMap<&str, usize> =
        std::collections::HashMap::with_capacity(old.units.len());
    for (j, o) in old.units.iter().enumerate() {
        old_at.entry(o.id.as_str()).or_insert(j);
    }
    for u in &new.units {
        let kept = old_at
            .get(u.id.as_str())
            .and_then(|&j| Some((j, tables.get_mut(j)?.take()?)));
        let mut table = match kept {
            Some((j, mut t)) => {
                let was = card_values(&old.units[j], old.system);
                for ((f, v), (_, w)) in card_values(u, new.system).iter().zip(was.iter()) {
                    if v != w {
                        set_value(&mut t, f.key(), v.as_ref());
                    }
                }
                t
            }
            None => {
                let side = if prev.is_none_or(|p| p.side != u.side) {
                    format!("# {} side\n", u.side.title())
                } else {
                    String::new()
                };
                let oob =
                    hierarchy_comment(prev.filter(|p| p.side == u.side).map(|p| &p.oob), &u.oob);
                fresh_table(u, new.system, format!("{side}{oob}"))
            }
        };
        table.set_position(Some(
            isize::try_from(out.len()).unwrap_or(isize::MAX - 1) + 1,
        ));
        out.push(table);
        prev = Some(u);
    }
    if !out.is_empty() {
        doc.as_table_mut().insert("unit", Item::ArrayOfTables(out));
    }
    doc.to_string()
}
