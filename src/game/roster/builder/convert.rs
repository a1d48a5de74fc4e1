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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::builtin_scenario;
    use crate::roster::builder::{NodePath, Op};

    fn of(name: &str) -> OrderOfBattle {
        let s = builtin_scenario(name).unwrap();
        OrderOfBattle::from_scenario(&s, None)
    }

    fn system(name: &str) -> RuleSetId {
        builtin_scenario(name).unwrap().system.unwrap()
    }

    /// Every node of the tree, by path.
    fn paths(o: &OrderOfBattle) -> Vec<NodePath> {
        o.tree().nodes.iter().map(|n| n.path.clone()).collect()
    }

    #[test]
    fn pk_to_pw_carries_what_means_the_same_and_asks_the_strength() {
        let pk = of("mars-la-tour");
        let pw = system("pw-skirmish");
        let (o, r) = pk.convert(pw);
        assert_eq!(o.header.system, Some(pw));
        assert_eq!(o.spec, pw.card_spec());
        assert_eq!(o.len(), pk.len());
        assert_eq!(paths(&o), paths(&pk), "the same tree");
        assert_eq!(o.can_undo(), None, "a new document");
        for (a, b) in pk.drafts().zip(o.drafts()) {
            for f in [
                Field::Id,
                Field::Name,
                Field::Side,
                Field::Nation,
                Field::Arm,
                Field::Army,
                Field::Corps,
                Field::Division,
                Field::Brigade,
                Field::Weapon,
            ] {
                assert_eq!(a.get(f), b.get(f), "{} {f}", a.label());
            }
            // Figures are not strength points: asked, never invented.
            assert!(!b.has(Field::Strength));
            let e = o.error_at(b.key, Field::Strength).expect("strength asked");
            let had = format!("had {} figures", a.get(Field::Strength));
            assert!(e.message.contains(&had), "{}", e.message);
            assert!(e.message.contains("SP"), "{}", e.message);
            assert_eq!(e.accepted, pw.card_spec().accepted(Field::Strength));
            // A class PW has is carried; one it has not is asked, saying what P&K had.
            match a.get(Field::Quality) {
                "elite" => assert_eq!(b.get(Field::Quality), "elite"),
                "" => assert!(b.asked(Field::Quality).is_none()),
                q => {
                    assert!(!b.has(Field::Quality));
                    let e = o.error_at(b.key, Field::Quality).expect("quality asked");
                    assert!(e.message.contains(&format!("`{q}`")), "{}", e.message);
                    assert!(e.message.contains("Pickelhaube & Kepi"), "{}", e.message);
                    assert_eq!(e.accepted, "elite, normal, poor");
                }
            }
            assert!(!b.has(Field::Formation), "PW's card has no formation");
        }
        assert!(r.dropped.get(&Field::Formation).is_some_and(|n| *n > 0));
        assert!(r.asked.iter().any(|(_, f, _)| *f == Field::Strength));
        assert_eq!(r.asked.len(), o.errors().len());
        assert_eq!(o.to_scenario().map(|_| ()), Err(o.errors().len()));
    }

    #[test]
    fn filling_the_asked_fields_makes_a_battle_and_undo_asks_again() {
        let (mut o, _) = of("mars-la-tour").convert(system("pw-skirmish"));
        let asked: Vec<(Key, Field)> = o.errors().iter().map(|e| (e.key, e.field)).collect();
        let (k0, f0) = asked[0];
        for (key, field) in asked {
            let value = match field {
                Field::Strength => "4",
                Field::Quality => "",
                other => panic!("{other} asked"),
            };
            o.apply(Op::Set {
                key,
                field,
                value: value.into(),
            })
            .unwrap();
        }
        assert!(o.errors().is_empty(), "{:?}", o.errors());
        let s = o.to_scenario().unwrap();
        assert_eq!(s.system, Some(system("pw-skirmish")));
        // Undoing an answer asks again.
        while o.undo() {}
        assert!(o.error_at(k0, f0).is_some());
    }

    #[test]
    fn pw_to_spi_asks_an_arm_it_has_not_and_keeps_hexes() {
        let pw = of("pw-skirmish");
        let spi = system("spi-1870");
        let (o, r) = pw.convert(spi);
        let art = o
            .drafts()
            .find(|d| d.get(Field::Name) == "Prussian Field Battery")
            .unwrap();
        assert!(!art.has(Field::Arm));
        let e = o.error_at(art.key, Field::Arm).expect("arm asked");
        assert!(e.message.contains("`artillery`"), "{}", e.message);
        assert_eq!(e.accepted, spi.card_spec().accepted(Field::Arm));
        assert_eq!(art.get(Field::Hex), "0302");
        assert_eq!(art.get(Field::Movement), "2", "MP on both cards");
        assert_eq!(art.get(Field::Facing), "s");
        let inf = o
            .drafts()
            .find(|d| d.get(Field::Arm) == "infantry")
            .unwrap();
        assert!(o.error_at(inf.key, Field::Arm).is_none());
        let e = o.error_at(inf.key, Field::Strength).expect("SP are not CP");
        assert!(e.message.contains("had 4 SP"), "{}", e.message);
        for f in [Field::Quality, Field::Weapon] {
            assert!(!inf.has(f));
            assert!(r.dropped.contains_key(&f), "{f}");
        }
        assert!(o.header.map.is_none(), "PW's board is not SPI's");
        assert!(
            r.header_dropped.iter().any(|h| h.starts_with("map:")),
            "{:?}",
            r.header_dropped
        );
    }

    #[test]
    fn figures_carry_between_two_cards_that_count_figures() {
        let pk = of("mars-la-tour");
        let (o, _) = pk.convert(system("st-privat"));
        for (a, b) in pk.drafts().zip(o.drafts()) {
            assert_eq!(a.get(Field::Strength), b.get(Field::Strength));
        }
        assert!(
            o.errors().iter().all(|e| e.field != Field::Strength),
            "{:?}",
            o.errors()
        );
    }

    #[test]
    fn pw_to_pk_keeps_the_hexes_and_drops_the_movement() {
        let pw = of("pw-skirmish");
        let (o, r) = pw.convert(system("mars-la-tour"));
        for (a, b) in pw.drafts().zip(o.drafts()) {
            assert_eq!(a.get(Field::Hex), b.get(Field::Hex));
            assert_eq!(a.get(Field::Arrives), b.get(Field::Arrives));
            assert!(!b.has(Field::Movement), "P&K's card has no movement");
            // PW's normal is not a P&K class.
            if a.get(Field::Quality) == "normal" {
                assert!(o.error_at(b.key, Field::Quality).is_some());
            }
        }
        assert!(r.dropped.get(&Field::Movement).is_some_and(|n| *n > 0));
    }

    #[test]
    fn a_converted_file_opens_again_with_its_fields_to_fill() {
        let (o, _) = of("mars-la-tour").convert(system("pw-skirmish"));
        let text = o.draft_toml();
        assert!(
            text.contains("# TO FILL: strength: Pickelhaube & Kepi had 20 figures"),
            "{text}"
        );
        let back = OrderOfBattle::from_source("pw.toml", &text, None).unwrap();
        assert_eq!(back.header.system, o.header.system);
        assert_eq!(back.len(), o.len());
        for (a, b) in o.drafts().zip(back.drafts()) {
            let av: Vec<_> = a.values().collect();
            let bv: Vec<_> = b.values().collect();
            assert_eq!(av, bv);
        }
        // The same fields to fill (a missing strength says so; an optional class asked by the
        // conversion is in the file's comment).
        let fields =
            |o: &OrderOfBattle, f: Field| o.errors().iter().filter(|e| e.field == f).count();
        assert_eq!(fields(&back, Field::Strength), fields(&o, Field::Strength));
    }
}
