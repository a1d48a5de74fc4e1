//! CSV for spreadsheets (RFC 4180): a header row, CRLF line ends, and fields quoted when they hold a
//! comma, a quote, a line break or surrounding spaces, with quotes doubled.

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

fn row(out: &mut String, fields: &[String]) {
    let line: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
    out.push_str(&line.join(","));
    out.push_str("\r\n");
}

/// One row per unit: side, group path, id, name, arm, class, strength, max, unit, fatigue, fatigue
/// max, leaders, leaders max, weapon, move, range, status (markers joined with "; ").
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
        ]
        .map(String::from),
    );
    for (side, path, u) in doc.units() {
        row(
            &mut out,
            &[
                side.name.clone(),
                path.join(" > "),
                u.id.clone(),
                u.name.clone(),
                u.arm.to_string(),
                u.class.clone().unwrap_or_default(),
                u.strength.to_string(),
                u.max_strength.to_string(),
                u.strength_unit.clone(),
                u.fatigue.to_string(),
                u.fatigue_max.to_string(),
                u.leaders.to_string(),
                u.leaders_max.to_string(),
                u.weapon.clone().unwrap_or_default(),
                u.move_.clone().unwrap_or_default(),
                u.range.clone().unwrap_or_default(),
                u.status.join("; "),
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
        .map(String::from),
    );
    for r in rows {
        row(
            &mut out,
            &[
                r.index.to_string(),
                r.time.clone(),
                r.turn.to_string(),
                r.phase.clone(),
                r.action.clone(),
                r.rule_ids.join(" "),
                r.dice.clone(),
                r.summary.clone(),
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
    fn units_csv_has_a_row_per_unit() {
        let doc = RosterDoc::sample(10);
        let csv = units_csv(&doc);
        assert_eq!(csv.matches("\r\n").count(), 11);
        assert!(csv.starts_with("side,group_path,id,name,arm"));
    }
}
