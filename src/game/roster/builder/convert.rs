//! "Use these troops with another rule set" (issue 43): a copy of an order of battle for another
//! rule set, driven by the two sets' cards ([`CardSpec`]) and naming no rule set.
//!
//! A field the target card uses is carried over when it means the same on both cards: the same
//! field of the same kind (words for words, a position for a position), a number counted in the
//! same unit (figures for figures; the leaders and the arrival turn count nothing), and a value the
//! target's own checks accept. What the target cannot take is left empty and asked for: the field
//! shows an error saying what the source had (a strength in another unit, an arm the target does not
//! accept), so nothing is invented. A field the target's card does not use is dropped and counted.

use std::collections::BTreeMap;

use super::{Draft, Key, OrderOfBattle, check_draft};
use crate::roster::spec::{FieldSpec, Kind, Placing, plural};
use crate::roster::{CardSpec, Field, card_spec_for};
use crate::rules::RuleSetId;

/// What a conversion carried, asked and dropped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Conversion {
    /// Fields carried over, over all cards.
    pub carried: usize,
    /// Fields left to fill: the card, the field, what the source had (the field's error).
    pub asked: Vec<(Key, Field, String)>,
    /// Fields the target's card does not use, with how many cards gave them.
    pub dropped: BTreeMap<Field, usize>,
    /// Header values that do not hold for the target ("map: drawn for ..."), dropped.
    pub header_dropped: Vec<String>,
}

/// Whether a source field's value can mean the same on the target's card.
enum Meaning {
    /// The same: carried when the target's checks accept the value.
    Same,
    /// Not the same: asked, with the reason.
    Differs(String),
}

/// How a source field's kind compares with the target's (`source` None: the source card does not
/// declare the field, but the draft gives it).
fn meaning(source: Option<&FieldSpec>, target: &FieldSpec, value: &str, from: &str) -> Meaning {
    let Some(source) = source else {
        return Meaning::Same;
    };
    match (&source.kind, &target.kind) {
        (Kind::Text { .. } | Kind::Choice { .. }, Kind::Text { .. } | Kind::Choice { .. })
        | (Kind::Position { .. }, Kind::Position { .. }) => Meaning::Same,
        (Kind::Number { unit: a, .. }, Kind::Number { unit: b, .. }) if a == b => Meaning::Same,
        (Kind::Number { unit: a, .. }, Kind::Number { unit: b, .. }) => {
            let counted = |u: &Option<&'static str>| u.unwrap_or("nothing");
            Meaning::Differs(format!(
                "{from} had {value} {}; this card counts {}: give the {}",
                counted(a),
                counted(b),
                target.label.to_lowercase()
            ))
        }
        _ => Meaning::Differs(format!(
            "{from} had `{value}` here, a {} on its card: give the {}",
            source.label.to_lowercase(),
            target.label.to_lowercase()
        )),
    }
}

/// The message of a value carried that the target's checks refuse.
fn refused(from: &str, value: &str, target: &FieldSpec) -> String {
    format!(
        "{from} had `{value}`, which this card does not accept: choose the {}",
        target.label.to_lowercase()
    )
}

fn title_of(spec: &CardSpec) -> &'static str {
    if spec.title.is_empty() {
        "the source card"
    } else {
        spec.title
    }
}

impl OrderOfBattle {
    /// A copy of this order of battle for rule set `to` (see the module doc): a new document
    /// (no file, no undo), and what was carried, asked and dropped.
    pub fn convert(&self, to: RuleSetId) -> (OrderOfBattle, Conversion) {
        self.convert_to(Some(to), card_spec_for(Some(to)))
    }

    /// [`OrderOfBattle::convert`] to the card `spec` of `system`.
    pub fn convert_to(
        &self,
        system: Option<RuleSetId>,
        spec: CardSpec,
    ) -> (OrderOfBattle, Conversion) {
        let from = title_of(&self.spec);
        let mut report = Conversion::default();
        let mut drafts = Vec::with_capacity(self.drafts.len());
        for d in &self.drafts {
            let mut out = Draft::new(d.key, Vec::new());
            let mut carried: Vec<(Field, String)> = Vec::new();
            for (field, value) in d.values() {
                let Some(target) = spec.field(field) else {
                    *report.dropped.entry(field).or_insert(0) += 1;
                    continue;
                };
                match meaning(self.spec.field(field), target, value, from) {
                    Meaning::Same => {
                        out.set(field, value.to_string());
                        carried.push((field, value.to_string()));
                    }
                    Meaning::Differs(why) => {
                        out.asked.insert(field, why);
                    }
                }
            }
            // A value of the same meaning the target's checks refuse (an arm it has not, a
            // position off its kind of board) is taken away and asked for.
            for e in check_draft(&out, system, &spec, self.base_dir.as_deref()) {
                if let Some((_, value)) = carried.iter().find(|(f, _)| *f == e.field)
                    && let Some(target) = spec.field(e.field)
                {
                    let note = refused(from, value, target);
                    out.set(e.field, String::new());
                    out.asked.insert(e.field, note);
                }
            }
            // A field the target requires and the source's card has not.
            for f in spec.fields.iter().filter(|f| f.required) {
                if !out.has(f.field)
                    && !out.asked.contains_key(&f.field)
                    && !self.spec.uses(f.field)
                {
                    let note = format!(
                        "{from} has no {}: give the {}",
                        plural(f.field),
                        f.label.to_lowercase()
                    );
                    out.asked.insert(f.field, note);
                }
            }
            report.carried += out.values.len();
            report
                .asked
                .extend(out.asks().map(|(f, v)| (d.key, f, v.to_string())));
            drafts.push(out);
        }
        let mut header = self.header.clone();
        header.system = system;
        if let Some(m) = header.map.take() {
            match m.map() {
                Ok(board) if Some(board.rules) == system => header.map = Some(m),
                Ok(board) => report
                    .header_dropped
                    .push(format!("map: {} is drawn for {}", m.file, board.rules)),
                Err(_) => report
                    .header_dropped
                    .push(format!("map: {} does not read", m.file)),
            }
        }
        let on_table = |s: &CardSpec| {
            matches!(
                s.field(Field::Hex).map(|f| &f.kind),
                Some(Kind::Position {
                    placing: Placing::Table
                })
            )
        };
        let measured_on_both = on_table(&self.spec) && on_table(&spec);
        if !header.scale.is_text() && !measured_on_both {
            report.header_dropped.push(format!(
                "scale: {} (not measured on this board)",
                header.scale
            ));
            header.scale = crate::rules::Scale::default();
        }
        let next_key = self.next_key;
        let mut oob = OrderOfBattle::from_parts(header, Vec::new(), self.base_dir.as_deref());
        oob.spec = spec;
        oob.drafts = drafts.into_iter().map(std::sync::Arc::new).collect();
        oob.next_key = next_key;
        oob.refresh();
        (oob, report)
    }
}
