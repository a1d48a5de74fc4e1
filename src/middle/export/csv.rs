//! CSV for spreadsheets (RFC 4180): a header row, CRLF line ends, and fields quoted when they hold a
//! comma, a quote, a line break or surrounding spaces, with quotes doubled.
//!
//! Formula injection (OWASP "CSV Injection"): a spreadsheet runs a cell that starts with `=`, `+`,
//! `-` or `@` (or tab / carriage return / line feed before one) as a formula, so a unit card named
//! `=HYPERLINK("http://x","y")` would become a live link. The rule here:
//! - every **text** cell (names, ids, sides, weapons, statuses, log summaries: anything a card, a
//!   scenario or a log can carry) that starts with one of those characters, after any leading spaces,
//!   or with their full-width forms (`＝＋－＠`), is written with a single quote `'` in front and
//!   quoted, so the spreadsheet shows it as text ([`text_field`]);
//! - **number** cells kepi computes itself (strengths, fatigue, turns, indices: `u32`/`u64` values
//!   formatted by kepi) are written as they are, so a spreadsheet can still sum them ([`csv_field`]).
//!   They cannot carry user text, and a number is never a formula.

use std::fmt::Display;

use super::model::{LogRowDoc, RosterDoc};

/// One CSV field, quoted if it needs to be.
pub fn csv_field(s: &str) -> String {
    let needs = s.contains([',', '"', '\r', '\n'])
        || s.starts_with(' ')
        || s.ends_with(' ')
        || s.starts_with('\t')
        || s.ends_with('\t');
    if needs {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Whether a spreadsheet could read this text as a formula (see the module doc): one rule, the
/// card import's, which takes the guard off again ([`kepi_game::roster::csv_import::looks_like_formula`]).
fn looks_like_formula(s: &str) -> bool {
    kepi_game::roster::csv_import::looks_like_formula(s)
}

/// One text cell (from a card, a scenario or a log): neutralised with a leading `'` and quoted when
/// a spreadsheet would take it for a formula, else as [`csv_field`].
pub fn text_field(s: &str) -> String {
    if looks_like_formula(s) {
        format!("\"'{}\"", s.replace('"', "\"\""))
    } else {
        csv_field(s)
    }
}

/// One cell of a row: text from the data, or a number kepi computed.
enum Cell {
    /// Neutralised against formulas ([`text_field`]).
    Text(String),
    /// Written as it is ([`csv_field`]): kepi formats it, it carries no user text.
    Number(String),
}

/// A number cell.
fn num(n: impl Display) -> Cell {
    Cell::Number(n.to_string())
}

/// A text cell.
fn text(s: impl Into<String>) -> Cell {
    Cell::Text(s.into())
}

fn row(out: &mut String, fields: &[Cell]) {
    let line: Vec<String> = fields
        .iter()
        .map(|f| match f {
            // Issue 29: a control character (ESC, BEL, DEL, C1) from an older save is written as
            // an escape, never raw; line breaks and tabs stay, quoted as RFC 4180 says.
            Cell::Text(s) => text_field(&kepi_game::roster::shown_keeping_lines(s)),
            Cell::Number(s) => csv_field(s),
        })
        .collect();
    out.push_str(&line.join(","));
    out.push_str("\r\n");
}

/// One row per unit: side, group path, id, name, arm, class, strength, max, unit, fatigue, fatigue
/// max, leaders, leaders max, weapon, move, range, status (markers joined with "; "), then the
/// rest of the unit's card as its file writes it (issue 43: `kepi cards import` reads the file
/// back as the same cards): nation, army, corps, division, brigade, formation, hex, facing,
/// location, arrives, movement, image, notes. `arm` is the card's word (`fortress`, `railway`).
pub fn units_csv(doc: &RosterDoc) -> String {
    let mut out = String::new();
    row(
        &mut out,
        &[
            "side",
            "group_path",
            "id",
            "name",
            "arm",
            "class",
            "strength",
            "max_strength",
            "strength_unit",
            "fatigue",
            "fatigue_max",
            "leaders",
            "leaders_max",
            "weapon",
            "move",
            "range",
            "status",
            "nation",
            "army",
            "corps",
            "division",
            "brigade",
            "formation",
            "hex",
            "facing",
            "location",
            "arrives",
            "movement",
            "image",
            "notes",
        ]
        .map(text),
    );
    for (side, path, u) in doc.units() {
        let card = u.card.as_deref();
        let opt = |f: &dyn Fn(&kepi_game::roster::Unit) -> Option<String>| {
            text(card.and_then(f).unwrap_or_default())
        };
        let opt_num = |n: Option<u32>| match n {
            Some(n) => num(n),
            None => Cell::Number(String::new()),
        };
        row(
            &mut out,
            &[
                text(side.name.clone()),
                text(path.join(" > ")),
                text(u.id.clone()),
                text(u.name.clone()),
                text(card.map_or_else(|| u.arm.to_string(), |c| c.arm.to_string())),
                text(u.class.clone().unwrap_or_default()),
                num(u.strength),
                num(u.max_strength),
                text(u.strength_unit.clone()),
                num(u.fatigue),
                num(u.fatigue_max),
                num(u.leaders),
                num(u.leaders_max),
                text(u.weapon.clone().unwrap_or_default()),
                text(u.move_.clone().unwrap_or_default()),
                text(u.range.clone().unwrap_or_default()),
                text(u.status.join("; ")),
                opt(&|c| Some(c.nation.clone())),
                opt(&|c| c.oob.army.clone()),
                opt(&|c| c.oob.corps.clone()),
                opt(&|c| c.oob.division.clone()),
                opt(&|c| c.oob.brigade.clone()),
                opt(&|c| c.formation.map(|f| f.to_string())),
                opt(&|c| Some(c.position.to_string())),
                opt(&|c| c.facing.map(|f| f.to_string())),
                opt(&|c| c.location.clone()),
                opt_num(card.and_then(|c| c.arrives)),
                opt_num(card.and_then(|c| c.movement)),
                opt(&|c| c.image.clone()),
                opt(&|c| Some(c.notes.clone())),
            ],
        );
    }
    out
}

/// One row per log entry: index, time, turn, phase, action, rule ids (joined with " "), dice,
/// summary.
pub fn log_csv(rows: &[LogRowDoc]) -> String {
    let mut out = String::new();
    row(
        &mut out,
        &[
            "index", "time", "turn", "phase", "action", "rule_ids", "dice", "summary",
        ]
        .map(text),
    );
    for r in rows {
        row(
            &mut out,
            &[
                num(r.index),
                text(r.time.clone()),
                num(r.turn),
                text(r.phase.clone()),
                text(r.action.clone()),
                text(r.rule_ids.join(" ")),
                text(r.dice.clone()),
                text(r.summary.clone()),
            ],
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_follows_rfc_4180() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field(""), "");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("two\nlines"), "\"two\nlines\"");
        assert_eq!(csv_field(" padded"), "\" padded\"");
        assert_eq!(csv_field("6\""), "\"6\"\"\"");
    }

    #[test]
    fn formula_like_text_is_neutralised() {
        assert_eq!(
            text_field("=HYPERLINK(\"http://x\",\"y\")"),
            "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""
        );
        assert_eq!(text_field("+1"), "\"'+1\"");
        assert_eq!(text_field("-2"), "\"'-2\"");
        assert_eq!(text_field("@SUM(A1)"), "\"'@SUM(A1)\"");
        assert_eq!(text_field("\t=1"), "\"'\t=1\"");
        assert_eq!(text_field("\r=1"), "\"'\r=1\"");
        assert_eq!(text_field("  =1+1"), "\"'  =1+1\"");
        assert_eq!(text_field("＝1+1"), "\"'＝1+1\"");
        assert_eq!(text_field("＠x"), "\"'＠x\"");
        // Ordinary text is left alone; a formula sign inside the text is harmless.
        assert_eq!(text_field("1st Grenadiers"), "1st Grenadiers");
        assert_eq!(text_field("a=b"), "a=b");
        assert_eq!(text_field("é"), "é");
        assert_eq!(text_field(""), "");
        assert_eq!(text_field("x, y"), "\"x, y\"");
    }

    #[test]
    fn numbers_stay_numbers_and_text_cells_are_neutralised() {
        fn first(g: &mut crate::export::model::GroupDoc) -> Option<&mut crate::export::UnitDoc> {
            if g.units.is_empty() {
                g.groups.iter_mut().find_map(first)
            } else {
                g.units.first_mut()
            }
        }
        let mut doc = RosterDoc::sample(1);
        let unit = doc
            .sides
            .iter_mut()
            .flat_map(|s| s.groups.iter_mut())
            .find_map(first)
            .unwrap();
        unit.name = "=HYPERLINK(\"http://x\",\"y\")".into();
        unit.weapon = Some("-rifle".into());
        let csv = units_csv(&doc);
        assert!(
            csv.contains(",\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\","),
            "{csv}"
        );
        assert!(csv.contains(",\"'-rifle\","), "{csv}");
        assert!(!csv.contains(",=HYPERLINK"), "{csv}");

        let rows = vec![LogRowDoc {
            index: 3,
            time: "2024-01-01".into(),
            turn: 2,
            phase: "fire".into(),
            action: "@cmd".into(),
            rule_ids: vec!["PK-F3".into()],
            dice: "-".into(),
            summary: "+A1".into(),
        }];
        let csv = log_csv(&rows);
        let line = csv.lines().nth(1).unwrap();
        assert_eq!(line, "3,2024-01-01,2,fire,\"'@cmd\",PK-F3,\"'-\",\"'+A1\"");
    }

    #[test]
    fn units_csv_has_a_row_per_unit() {
        let doc = RosterDoc::sample(10);
        let csv = units_csv(&doc);
        assert_eq!(csv.matches("\r\n").count(), 11);
        assert!(csv.starts_with("side,group_path,id,name,arm"));
    }
}
