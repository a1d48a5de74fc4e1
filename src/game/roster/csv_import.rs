//! Unit cards from a spreadsheet's CSV (issue 43, `kepi cards import`).
//!
//! [`read_csv`] is a small RFC 4180 reader, bounded (file size, rows, columns, cell length): a
//! header row, quoted fields with doubled quotes and line breaks inside, CRLF or LF, UTF-8 with or
//! without a byte-order mark, and `,` or `;` between fields (the one the header row uses; some
//! spreadsheets write `;` where the decimal mark is a comma).
//!
//! [`map_columns`] matches each card field ([`Field`]) to a column: by default a header equal to
//! the field's key ("weapon"), its label on the rule set's card ("Figures", "Class") or a usual
//! alias ("class" for quality), case and blanks ignored; the caller's choices come first.
//!
//! [`import`] makes each row a card with the span of every cell, and checks it with the card
//! loader's own checks (`validate_card`, reading the rule set's [`CardSpec`]): an error names the
//! file, the row's line and column in the CSV, the column's header, the field and the accepted
//! values. What `kepi export csv --units` writes reads back as the same cards.

use std::ops::Range;

use serde::Serialize;
use toml::Spanned;

use super::spec::{CardSpec, Field};
use super::{CardError, Scenario, Unit, UnitCard, card_spec_for, slug, validate_card};
use crate::rules::RuleSetId;
use crate::tables::Check;

/// Largest CSV file read.
pub const MAX_CSV_BYTES: usize = 4 * 1024 * 1024;
/// Most data rows read.
pub const MAX_ROWS: usize = 20_000;
/// Most columns in a row.
pub const MAX_COLUMNS: usize = 200;
/// Longest cell, in bytes.
pub const MAX_CELL_BYTES: usize = 16 * 1024;

/// One cell: its text (unquoted) and its bytes in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    /// The text, quotes removed and doubled quotes made single.
    pub text: String,
    /// Where it is in the file (with its quotes), for located errors.
    pub span: Range<usize>,
}

/// One row: its cells, and the line it starts on (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// 1-based line of the file the row starts on.
    pub line: usize,
    /// The cells.
    pub cells: Vec<Cell>,
}

/// A CSV file read: the header row and the data rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Csv {
    /// The text, without a byte-order mark.
    pub text: String,
    /// The field separator found: `,` or `;`.
    pub separator: char,
    /// The header row.
    pub header: Row,
    /// The data rows (blank lines skipped).
    pub rows: Vec<Row>,
}

fn csv_error(
    file: &str,
    text: &str,
    at: usize,
    field: &str,
    message: String,
    accepted: &str,
) -> CardError {
    Check::new(file, text).error(at..at, field, message, accepted)
}

/// The separator the header row uses: `;` when it has more semicolons than commas outside
/// quotes, else `,`.
fn separator_of(text: &str) -> char {
    let (mut commas, mut semis, mut quoted) = (0usize, 0usize, false);
    for c in text.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => commas += 1,
            ';' if !quoted => semis += 1,
            '\n' if !quoted => break,
            _ => {}
        }
    }
    if semis > commas { ';' } else { ',' }
}

/// Reads a CSV file's bytes (see the module doc); `file` names it in errors.
pub fn read_csv(file: &str, bytes: &[u8]) -> Result<Csv, CardError> {
    let plain = |message: String| CardError {
        file: file.to_string(),
        line: 0,
        column: 0,
        field: String::new(),
        message,
        accepted: String::new(),
    };
    if bytes.len() > MAX_CSV_BYTES {
        return Err(plain(format!(
            "the file is {} bytes; at most {MAX_CSV_BYTES} are read",
            bytes.len()
        )));
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = std::str::from_utf8(bytes)
        .map_err(|e| {
            let mut err = plain(format!("not UTF-8 text ({e})"));
            err.accepted =
                "a CSV saved as UTF-8 (\"CSV UTF-8\" in the spreadsheet's Save As)".into();
            err
        })?
        .to_string();
    let separator = separator_of(&text);
    let mut rows = parse_rows(file, &text, separator)?;
    if rows.is_empty() {
        return Err(csv_error(
            file,
            &text,
            0,
            "",
            "the file has no header row".into(),
            "a first row naming the columns, e.g. name,side,arm,strength",
        ));
    }
    let header = rows.remove(0);
    Ok(Csv {
        text,
        separator,
        header,
        rows,
    })
}

/// The rows of `text`, each with its cells and spans; blank lines are skipped.
fn parse_rows(file: &str, text: &str, sep: char) -> Result<Vec<Row>, CardError> {
    let b = text.as_bytes();
    let sep = sep as u8;
    let mut rows = Vec::new();
    let mut i = 0usize;
    let mut line = 1usize;
    while i < b.len() {
        let row_line = line;
        let mut cells = Vec::new();
        loop {
            // One cell from i.
            let start = i;
            let mut cell = String::new();
            if b.get(i) == Some(&b'"') {
                i += 1;
                let mut from = i;
                loop {
                    match b.get(i) {
                        None => {
                            return Err(csv_error(
                                file,
                                text,
                                start,
                                "",
                                "a quoted cell is not closed".into(),
                                "a closing \" for every opening one (a \" inside is written \"\")",
                            ));
                        }
                        Some(b'"') if b.get(i + 1) == Some(&b'"') => {
                            cell.push_str(&text[from..=i]);
                            i += 2;
                            from = i;
                        }
                        Some(b'"') => {
                            cell.push_str(&text[from..i]);
                            i += 1;
                            break;
                        }
                        Some(b'\n') => {
                            line += 1;
                            i += 1;
                        }
                        Some(_) => i += 1,
                    }
                }
                // After the closing quote: a separator, a line end or the end.
                match b.get(i) {
                    None | Some(b'\n') => {}
                    Some(b'\r') if matches!(b.get(i + 1), None | Some(b'\n')) => {}
                    Some(c) if *c == sep => {}
                    Some(_) => {
                        return Err(csv_error(
                            file,
                            text,
                            i,
                            "",
                            "text after a quoted cell's closing quote".into(),
                            "a separator or a line end after the closing \"",
                        ));
                    }
                }
            } else {
                while let Some(&c) = b.get(i) {
                    if c == sep || c == b'\n' {
                        break;
                    }
                    i += 1;
                }
                let mut end = i;
                if end > start && b.get(end - 1) == Some(&b'\r') && b.get(i) != Some(&sep) {
                    end -= 1;
                }
                cell.push_str(&text[start..end]);
            }
            if cell.len() > MAX_CELL_BYTES {
                return Err(csv_error(
                    file,
                    text,
                    start,
                    "",
                    format!("a cell of {} bytes", cell.len()),
                    &format!("cells of at most {MAX_CELL_BYTES} bytes"),
                ));
            }
            cells.push(Cell {
                text: cell,
                span: start..i,
            });
            if cells.len() > MAX_COLUMNS {
                return Err(csv_error(
                    file,
                    text,
                    start,
                    "",
                    format!("more than {MAX_COLUMNS} columns"),
                    &format!("at most {MAX_COLUMNS} columns"),
                ));
            }
            match b.get(i) {
                Some(c) if *c == sep => {
                    i += 1;
                    continue;
                }
                Some(b'\r') => {
                    i += 1;
                    if b.get(i) == Some(&b'\n') {
                        i += 1;
                    }
                    line += 1;
                    break;
                }
                Some(b'\n') => {
                    i += 1;
                    line += 1;
                    break;
                }
                _ => break,
            }
        }
        let blank = cells.len() == 1 && cells.first().is_some_and(|c| c.text.trim().is_empty());
        if !blank {
            if rows.len() > MAX_ROWS {
                return Err(csv_error(
                    file,
                    text,
                    i.min(text.len()),
                    "",
                    format!("more than {MAX_ROWS} rows"),
                    &format!("at most {MAX_ROWS} rows of units"),
                ));
            }
            rows.push(Row {
                line: row_line,
                cells,
            });
        }
    }
    Ok(rows)
}

/// A header or label as compared: lower case, blanks, '-' and '_' as one '_'.
fn norm(s: &str) -> String {
    let mut out = String::new();
    for c in s.trim().chars().flat_map(char::to_lowercase) {
        if c.is_whitespace() || c == '-' || c == '_' {
            if !out.is_empty() && !out.ends_with('_') {
                out.push('_');
            }
        } else {
            out.push(c);
        }
    }
    out.trim_end_matches('_').to_string()
}

/// Usual other headers for a field (a spreadsheet's or kepi's export's).
fn aliases(field: Field) -> &'static [&'static str] {
    match field {
        Field::Quality => &["class"],
        Field::Hex => &["position", "cell"],
        Field::Movement => &["movement_allowance", "mp"],
        Field::Name => &["unit"],
        _ => &[],
    }
}

/// Which column each card field is read from.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Mapping {
    /// (field, column index), in [`Field::ALL`]'s order.
    pub columns: Vec<(Field, usize)>,
    /// The headers of the columns read for no field (shown, not an error).
    pub ignored: Vec<String>,
}

impl Mapping {
    /// The fields every card needs that no column is read for (a row cannot make a card without
    /// them: [`row_card`]'s `required`).
    pub fn missing(&self) -> Vec<&'static str> {
        [Field::Name, Field::Side, Field::Arm, Field::Strength]
            .into_iter()
            .filter(|f| self.column(*f).is_none())
            .map(Field::key)
            .collect()
    }

    /// The column `field` is read from.
    pub fn column(&self, field: Field) -> Option<usize> {
        self.columns
            .iter()
            .find(|(f, _)| *f == field)
            .map(|(_, c)| *c)
    }
}

/// Matches card fields to the header's columns (see the module doc). `chosen`: (field, header)
/// the caller gives (`--column FIELD=HEADER`), matched first; a header it names that the file
/// does not have is an error listing the headers there are. A field the card requires with no
/// column is an error naming it and the headers.
pub fn map_columns(
    header: &[Cell],
    chosen: &[(Field, String)],
    spec: &CardSpec,
) -> Result<Mapping, String> {
    let m = match_columns(header, chosen, spec)?;
    let missing = m.missing();
    if !missing.is_empty() {
        return Err(format!(
            "no column for {} (its columns: {}); name one with --column FIELD=HEADER",
            missing.join(", "),
            listed(header)
        ));
    }
    Ok(m)
}

/// Whether `header` has a column named `name`, matched as [`map_columns`] matches names (case,
/// blanks, `-` and `_` aside).
pub fn has_column(header: &[Cell], name: &str) -> bool {
    let n = norm(name);
    header.iter().any(|c| norm(&c.text) == n)
}

/// The headers as an error lists them.
fn listed(header: &[Cell]) -> String {
    header
        .iter()
        .map(|c| format!("\"{}\"", crate::roster::shown(&c.text)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// [`map_columns`] without asking for the columns a card needs: what the window's mapping grid
/// starts from (the user then picks the missing ones; [`Mapping::missing`] says which). Refused
/// only when a column `chosen` names is not in the file.
pub fn match_columns(
    header: &[Cell],
    chosen: &[(Field, String)],
    spec: &CardSpec,
) -> Result<Mapping, String> {
    let headers: Vec<String> = header.iter().map(|c| norm(&c.text)).collect();
    let mut taken = vec![false; headers.len()];
    let mut columns: Vec<(Field, usize)> = Vec::new();
    for (field, name) in chosen {
        let n = norm(name);
        let Some(k) = headers.iter().position(|h| *h == n) else {
            return Err(format!(
                "--column {field}={name}: the file has no column \"{name}\" (its columns: {})",
                listed(header)
            ));
        };
        columns.retain(|(f, _)| f != field);
        columns.push((*field, k));
        if let Some(t) = taken.get_mut(k) {
            *t = true;
        }
    }
    for field in Field::ALL {
        if columns.iter().any(|(f, _)| *f == field) {
            continue;
        }
        // `kepi export csv --units` of a game in play gives the strength and leaders now and the
        // card's own as `max_strength` and `leaders_max`: the card is read from those first.
        let mut names: Vec<String> = match field {
            Field::Strength => vec!["max_strength".to_string()],
            Field::Leaders => vec!["leaders_max".to_string()],
            _ => Vec::new(),
        };
        names.push(field.key().to_string());
        if let Some(f) = spec.field(field) {
            names.push(norm(f.label));
        }
        names.extend(aliases(field).iter().map(|a| a.to_string()));
        let found = names.iter().find_map(|n| {
            headers
                .iter()
                .enumerate()
                .position(|(k, h)| h == n && !taken.get(k).copied().unwrap_or(true))
        });
        if let Some(k) = found {
            columns.push((field, k));
            if let Some(t) = taken.get_mut(k) {
                *t = true;
            }
        }
    }
    columns.sort();
    let ignored = header
        .iter()
        .zip(&taken)
        .filter(|(_, t)| !**t)
        .map(|(c, _)| c.text.clone())
        .collect();
    Ok(Mapping { columns, ignored })
}

/// One row of the CSV as imported: its card, or the error that stops it.
#[derive(Clone, Debug)]
pub struct RowResult {
    /// 1-based line the row starts on.
    pub line: usize,
    /// 1-based data row (the header not counted).
    pub row: usize,
    /// The card, when the row reads.
    pub unit: Result<Unit, CardError>,
}

/// A CSV imported: every row's card or error.
#[derive(Clone, Debug)]
pub struct Import {
    /// The columns read.
    pub mapping: Mapping,
    /// The separator found.
    pub separator: char,
    /// The rows, in order.
    pub rows: Vec<RowResult>,
}

impl Import {
    /// The rows' errors.
    pub fn errors(&self) -> impl Iterator<Item = &CardError> {
        self.rows.iter().filter_map(|r| r.unit.as_ref().err())
    }

    /// The cards of the rows that read.
    pub fn units(&self) -> Vec<Unit> {
        self.rows
            .iter()
            .filter_map(|r| r.unit.as_ref().ok().cloned())
            .collect()
    }
}

/// Whether a spreadsheet could read this text as a formula (OWASP "CSV Injection"): it starts,
/// after any leading spaces, with `=`, `+`, `-`, `@`, a tab or a line break, or their full-width
/// forms. `kepi export csv` writes such a text cell with a `'` in front (`kepi_middle::export`'s CSV);
/// the import takes it off again.
pub fn looks_like_formula(s: &str) -> bool {
    const TRIGGERS: [char; 11] = ['=', '+', '-', '@', '\t', '\r', '\n', '＝', '＋', '－', '＠'];
    s.starts_with(TRIGGERS) || s.trim_start_matches(' ').starts_with(TRIGGERS)
}

/// A spreadsheet's undoing of kepi's own guard against formulas (`kepi export csv` writes a text
/// cell that starts with `=`, `+`, `-` or `@` with a `'` in front): the `'` is taken off again.
fn unguarded(s: &str) -> &str {
    match s.strip_prefix('\'') {
        Some(rest) if looks_like_formula(rest) => rest,
        _ => s,
    }
}

/// A cell's text as the card's `field` reads it: the export's guard against formulas taken off,
/// trimmed (notes kept as written).
pub fn cell_text(field: Field, cell: &Cell) -> &str {
    let t = unguarded(&cell.text);
    if field == Field::Notes { t } else { t.trim() }
}

/// The row's cards, checked as the card loader checks a `[[unit]]` card of `system` (see the
/// module doc); images stay inside `base_dir`. Ids repeated across rows are errors on the later
/// row.
pub fn import(
    file: &str,
    csv: &Csv,
    mapping: &Mapping,
    system: Option<RuleSetId>,
    base_dir: Option<&std::path::Path>,
) -> Import {
    let spec = card_spec_for(system);
    let check = Check::new(file, &csv.text);
    let mut rows: Vec<RowResult> = Vec::with_capacity(csv.rows.len());
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (k, row) in csv.rows.iter().enumerate() {
        let unit = row_card(&check, csv, row, k, mapping, &spec).and_then(|card| {
            validate_card(&check, &card, k, system, &spec, base_dir)
                .map_err(|e| located(e, k, csv, mapping))
        });
        let unit = unit.and_then(|u| match seen.get(&u.id) {
            Some(first) => {
                let (span, header) = cell_of(csv, row, mapping, Field::Id)
                    .or_else(|| cell_of(csv, row, mapping, Field::Name))
                    .unwrap_or((row_span(row), String::new()));
                Err(check.error(
                    span,
                    &field_label(Field::Id, &header, k),
                    format!("id `{}` is already used by row {}", u.id, first + 1),
                    "a unique id: give one of the two rows its own id (an id column)",
                ))
            }
            None => {
                seen.insert(u.id.clone(), k);
                Ok(u)
            }
        });
        rows.push(RowResult {
            line: row.line,
            row: k + 1,
            unit,
        });
    }
    Import {
        mapping: mapping.clone(),
        separator: csv.separator,
        rows,
    }
}

fn row_span(row: &Row) -> Range<usize> {
    row.cells.first().map_or(0..0, |c| c.span.clone())
}

/// The cell of `field` in `row`, with its column's header.
fn cell_of(
    csv: &Csv,
    row: &Row,
    mapping: &Mapping,
    field: Field,
) -> Option<(Range<usize>, String)> {
    let k = mapping.column(field)?;
    let cell = row.cells.get(k)?;
    let header = csv
        .header
        .cells
        .get(k)
        .map(|c| c.text.clone())
        .unwrap_or_default();
    Some((cell.span.clone(), header))
}

/// How an error names a field of row `k`: `arm (column "Arm", row 3)`.
fn field_label(field: Field, header: &str, k: usize) -> String {
    if header.is_empty() {
        format!("{field} (row {})", k + 1)
    } else {
        format!(
            "{field} (column \"{}\", row {})",
            crate::roster::shown(header),
            k + 1
        )
    }
}

/// The loader's error for row `k` (field `unit[k].FIELD`) named as the CSV's column and row.
fn located(mut e: CardError, k: usize, csv: &Csv, mapping: &Mapping) -> CardError {
    let field = e
        .field
        .strip_prefix(&format!("unit[{k}]."))
        .and_then(Field::from_key);
    if let Some(field) = field {
        let header = mapping
            .column(field)
            .and_then(|c| csv.header.cells.get(c))
            .map(|c| c.text.clone())
            .unwrap_or_default();
        e.field = field_label(field, &header, k);
    }
    e
}

/// A row as the card it would be in a card file, each value with its cell's span.
fn row_card(
    check: &Check<'_>,
    csv: &Csv,
    row: &Row,
    k: usize,
    mapping: &Mapping,
    spec: &CardSpec,
) -> Result<UnitCard, CardError> {
    let text = |f: Field| -> Option<Spanned<String>> {
        let col = mapping.column(f)?;
        let cell = row.cells.get(col)?;
        let t = cell_text(f, cell);
        (!t.is_empty()).then(|| Spanned::new(cell.span.clone(), t.to_string()))
    };
    let required = |f: Field| -> Result<Spanned<String>, CardError> {
        text(f).ok_or_else(|| {
            let (span, header) =
                cell_of(csv, row, mapping, f).unwrap_or((row_span(row), String::new()));
            check.error(
                span,
                &field_label(f, &header, k),
                format!("the row has no {f}"),
                spec.accepted(f),
            )
        })
    };
    let number = |f: Field| -> Result<Option<Spanned<i64>>, CardError> {
        let Some(t) = text(f) else {
            return Ok(None);
        };
        let span = t.span();
        let s = t.into_inner();
        // A spreadsheet may write a whole number as "20.0".
        let digits = s.strip_suffix(".0").unwrap_or(&s);
        digits
            .parse::<i64>()
            .map(|n| Some(Spanned::new(span.clone(), n)))
            .map_err(|_| {
                let header = cell_of(csv, row, mapping, f)
                    .map(|(_, h)| h)
                    .unwrap_or_default();
                check.error(
                    span,
                    &field_label(f, &header, k),
                    format!("`{}` is not a whole number", crate::roster::shown(&s)),
                    spec.accepted(f),
                )
            })
    };
    let strength = match number(Field::Strength)? {
        Some(n) => n,
        None => {
            let r = required(Field::Strength)?;
            Spanned::new(r.span(), 0)
        }
    };
    Ok(UnitCard {
        id: text(Field::Id),
        name: required(Field::Name)?,
        side: required(Field::Side)?,
        nation: text(Field::Nation),
        arm: required(Field::Arm)?,
        quality: text(Field::Quality),
        strength,
        weapon: text(Field::Weapon),
        formation: text(Field::Formation),
        leaders: number(Field::Leaders)?,
        notes: text(Field::Notes),
        image: text(Field::Image),
        army: text(Field::Army),
        corps: text(Field::Corps),
        division: text(Field::Division),
        brigade: text(Field::Brigade),
        hex: text(Field::Hex),
        facing: text(Field::Facing),
        location: text(Field::Location),
        arrives: number(Field::Arrives)?,
        movement: number(Field::Movement)?,
    })
}

/// The scenario an import makes: the rule set, a name made from `name` (the output's file name),
/// and the rows' cards in order.
pub fn scenario_of(system: Option<RuleSetId>, name: &str, units: Vec<Unit>) -> Scenario {
    let mut sides = Vec::new();
    for u in &units {
        if !sides.contains(&u.side) {
            sides.push(u.side);
        }
    }
    Scenario {
        name: slug(name),
        system,
        title: String::new(),
        date: None,
        first_cell: 1,
        sides,
        notes: String::new(),
        hide_strengths: false,
        scale: crate::rules::Scale::default(),
        map: None,
        marks: Vec::new(),
        units,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn csv(s: &str) -> Csv {
        read_csv("t.csv", s.as_bytes()).unwrap()
    }

    fn texts(r: &Row) -> Vec<&str> {
        r.cells.iter().map(|c| c.text.as_str()).collect()
    }

    #[test]
    fn quotes_doubled_quotes_and_line_breaks_inside() {
        let c = csv("name,notes\r\n\"A, the first\",\"said \"\"go\"\"\nand went\"\r\nB,\r\n");
        assert_eq!(c.rows.len(), 2);
        assert_eq!(texts(&c.rows[0]), ["A, the first", "said \"go\"\nand went"]);
        assert_eq!(c.rows[0].line, 2);
        assert_eq!(c.rows[1].line, 4, "the line break inside a cell counts");
        assert_eq!(texts(&c.rows[1]), ["B", ""]);
    }

    #[test]
    fn a_byte_order_mark_and_semicolons() {
        let c = read_csv("t.csv", "\u{feff}name;strength\nA;20,5\n".as_bytes()).unwrap();
        assert_eq!(c.separator, ';');
        assert_eq!(texts(&c.header), ["name", "strength"]);
        assert_eq!(texts(&c.rows[0]), ["A", "20,5"]);
    }

    #[test]
    fn broken_quotes_name_the_line() {
        let e = read_csv("t.csv", b"name\n\"open\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("not closed"), "{e}");
        let e = read_csv("t.csv", b"name\n\"a\"b\n").unwrap_err();
        assert!(e.message.contains("after a quoted cell"), "{e}");
    }

    #[test]
    fn bounded() {
        let big = vec![b'a'; MAX_CSV_BYTES + 1];
        assert!(read_csv("t.csv", &big).is_err());
        let cell = format!("name\n{}\n", "a".repeat(MAX_CELL_BYTES + 1));
        assert!(read_csv("t.csv", cell.as_bytes()).is_err());
        let cols = format!("{}\n", vec!["a"; MAX_COLUMNS + 1].join(","));
        assert!(read_csv("t.csv", cols.as_bytes()).is_err());
        assert!(read_csv("t.csv", b"\xff\xfe").is_err());
    }
}
