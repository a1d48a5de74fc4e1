//! The club roster: per side (each from a fresh page) the order of battle, and per unit its symbol,
//! name, class, strength boxes (losses crossed out), fatigue and leader boxes, weapon, move, range
//! and status (and, in a battle made from a campaign, the board unit it came from: issue 30); a
//! header on every page and "page i of n" in the footer.

use super::draw::{
    Canvas, Flow, Fonts, GREY, INK, LIGHT, Op, PT, RED, boxes_width, fonts, side_fill,
};
use super::model::{GroupDoc, RosterDoc, SideDoc, UnitDoc};
use super::{ExportError, Paper, Progress, no_progress, pdf};

const MARGIN: f32 = 12.0;
const HEADER_H: f32 = 17.0;
const FOOTER_H: f32 = 10.0;
const SIDE_H: f32 = 9.0;
const GROUP_H: f32 = 6.0;
const UNIT_H: f32 = 10.0;
const STATUS_H: f32 = 3.4;
const INDENT: f32 = 2.5;
const MAX_DEPTH_INDENT: usize = 4;
/// Strength boxes per row on the roster, and the most boxes drawn before a bar is used instead.
const BOX: f32 = 2.4;
const BOX_GAP: f32 = 0.4;
const BOXES_MAX_ROWS: u32 = 2;

/// The roster of `doc` as a PDF on `paper`.
pub fn roster_pdf(doc: &RosterDoc, paper: Paper) -> Result<Vec<u8>, ExportError> {
    roster_pdf_progress(doc, paper, &no_progress)
}

/// [`roster_pdf`] reporting `(pages done, pages)` as it renders.
pub fn roster_pdf_progress(
    doc: &RosterDoc,
    paper: Paper,
    progress: Progress,
) -> Result<Vec<u8>, ExportError> {
    let fonts = fonts()?;
    let pages = layout(doc, paper, fonts);
    let pages = decorate(doc, paper, fonts, pages);
    pdf::render(
        &pages,
        paper.size_mm(),
        &format!("{} roster", doc.title),
        progress,
    )
}

/// The number of pages [`roster_pdf`] makes for `doc` on `paper`.
pub fn roster_page_count(doc: &RosterDoc, paper: Paper) -> Result<usize, ExportError> {
    Ok(layout(doc, paper, fonts()?).len())
}

/// Column positions for a page.
struct Cols {
    left: f32,
    right: f32,
    /// Strength boxes column.
    b: f32,
    b_w: f32,
    /// Fatigue / leaders / weapon column.
    c: f32,
}

impl Cols {
    /// The columns for `doc` on `paper`: the last column starts where the widest unit's fatigue,
    /// leaders, weapon, move and range end at the right margin (issue 46: "chassepot-carbine
    /// move 12\" (18\") range" lost its value, and a long line ran past the margin), at 71.5% of
    /// the width when they fit there, never so far left that the strength boxes lose two groups
    /// of five.
    fn new(paper: Paper, doc: &RosterDoc, fonts: &Fonts) -> Cols {
        let (w, _) = paper.size_mm();
        let left = MARGIN;
        let right = w - MARGIN;
        let width = right - left;
        let b = left + width * 0.37;
        let mut need: f32 = 0.0;
        for (_, _, u) in doc.units() {
            need = need.max(details_width(fonts, u));
        }
        let c = (left + width * 0.715)
            .min(right - need)
            .max(b + boxes_width(10, BOX, BOX_GAP) + 2.0);
        Cols {
            left,
            right,
            b,
            b_w: c - b - 2.0,
            c,
        }
    }

    /// Strength boxes per row: the most whole groups of five that fit.
    fn per_row(&self) -> u32 {
        let mut n = 5;
        while boxes_width(n + 5, BOX, BOX_GAP) <= self.b_w {
            n += 5;
        }
        n
    }
}

const SMALL: f32 = 6.5 * PT;
const VALUE: f32 = 7.0 * PT;

/// A unit's weapon, move and range as the roster prints them: (label, value) pairs.
fn details(u: &UnitDoc) -> impl Iterator<Item = (&'static str, &String)> {
    [("", &u.weapon), ("move ", &u.move_), ("range ", &u.range)]
        .into_iter()
        .filter_map(|(label, v)| v.as_ref().map(|v| (label, v)))
}

/// The width of a unit's last column: its fatigue and leaders line, or its weapon, move and
/// range line, whichever is longer (as [`unit_row`] draws them).
fn details_width(fonts: &Fonts, u: &UnitDoc) -> f32 {
    let fatigue = if u.fatigue_max <= 8 {
        boxes_width(u.fatigue_max, BOX, BOX_GAP) + 2.5
    } else {
        fonts.width(true, VALUE, &format!("{}/{}", u.fatigue, u.fatigue_max)) + 2.0
    };
    let leaders = if u.leaders_max <= 6 {
        boxes_width(u.leaders_max, BOX, BOX_GAP)
    } else {
        fonts.width(true, VALUE, &format!("{}/{}", u.leaders, u.leaders_max))
    };
    let first = fonts.width(false, SMALL, "Fatigue")
        + 1.0
        + fatigue
        + fonts.width(false, SMALL, "Leaders")
        + 1.0
        + leaders;
    let second: f32 = details(u)
        .map(|(label, v)| fonts.width(false, SMALL, label) + fonts.width(false, VALUE, v) + 2.0)
        .sum();
    first.max(second)
}

fn unit_height(u: &UnitDoc) -> f32 {
    if u.status.is_empty() {
        UNIT_H
    } else {
        UNIT_H + STATUS_H
    }
}

/// Lays out the body of every page (no header or footer).
fn layout(doc: &RosterDoc, paper: Paper, fonts: &Fonts) -> Vec<Vec<Op>> {
    let (_, h) = paper.size_mm();
    let cols = Cols::new(paper, doc, fonts);
    let mut flow = Flow::new(fonts, MARGIN + HEADER_H, h - MARGIN - FOOTER_H);
    for (si, side) in doc.sides.iter().enumerate() {
        if si > 0 {
            flow.new_page();
        }
        side_heading(&mut flow.canvas, &cols, flow.y, side, si, false);
        flow.y += SIDE_H;
        if side.groups.is_empty() {
            flow.canvas.text(
                cols.left + 2.0,
                flow.y + 4.0,
                8.0 * PT,
                false,
                GREY,
                "(no units)",
            );
            flow.y += GROUP_H;
        }
        let mut trail = Vec::new();
        for g in &side.groups {
            group(&mut flow, &cols, side, si, g, &mut trail);
        }
    }
    flow.finish()
}

/// Starts a new page if `h` does not fit, repeating on the new page the side heading and the
/// headings of the formations `trail` (outermost first) the next line belongs to.
fn ensure(flow: &mut Flow, cols: &Cols, side: &SideDoc, si: usize, trail: &[&GroupDoc], h: f32) {
    if flow.ensure(h) {
        side_heading(&mut flow.canvas, cols, flow.y, side, si, true);
        flow.y += SIDE_H;
        for (depth, g) in trail.iter().enumerate() {
            group_heading(flow, cols, g, depth, true);
        }
    }
}

/// The height of a formation's heading with what must stay with it on its page: its first unit,
/// or (a formation holding only sub-formations) its first sub-formation's heading and its own
/// first line, so a heading never ends a page alone.
fn lead_height(g: &GroupDoc) -> f32 {
    GROUP_H
        + match (g.units.first(), g.groups.first()) {
            (Some(u), _) => unit_height(u),
            (None, Some(sub)) => lead_height(sub),
            (None, None) => 0.0,
        }
}

/// One formation's heading line at `depth`; `continued` on a page after its first.
fn group_heading(flow: &mut Flow, cols: &Cols, g: &GroupDoc, depth: usize, continued: bool) {
    let x = cols.left + depth.min(MAX_DEPTH_INDENT) as f32 * INDENT;
    let y = flow.y;
    let c = &mut flow.canvas;
    let size = (9.5 - depth.min(3) as f32 * 0.5) * PT;
    let name = if continued {
        format!("{} (continued)", g.name)
    } else {
        g.name.clone()
    };
    let w = c.text_fit(x, y + 4.3, size, true, INK, &name, cols.right - x - 30.0);
    if !g.level.is_empty() {
        c.text(x + w + 2.0, y + 4.3, 7.0 * PT, false, GREY, &g.level);
    }
    c.line(x, y + 5.5, cols.right, y + 5.5, 0.15, LIGHT);
    flow.y += GROUP_H;
}

fn group<'a>(
    flow: &mut Flow,
    cols: &Cols,
    side: &SideDoc,
    si: usize,
    g: &'a GroupDoc,
    trail: &mut Vec<&'a GroupDoc>,
) {
    let depth = trail.len();
    // Keep the heading with its first line (through headings of sub-formations).
    ensure(flow, cols, side, si, trail, lead_height(g));
    group_heading(flow, cols, g, depth, false);
    trail.push(g);
    for u in &g.units {
        let h = unit_height(u);
        ensure(flow, cols, side, si, trail, h);
        unit_row(&mut flow.canvas, cols, flow.y, u, &side.name, si, depth + 1);
        flow.y += h;
    }
    for sub in &g.groups {
        group(flow, cols, side, si, sub, trail);
    }
    trail.pop();
}

fn side_heading(c: &mut Canvas, cols: &Cols, y: f32, side: &SideDoc, si: usize, continued: bool) {
    c.fill_rect(
        cols.left,
        y,
        cols.right - cols.left,
        SIDE_H - 2.0,
        side_fill(&side.name, si),
    );
    let name = if continued {
        format!("{} (continued)", side.name)
    } else {
        side.name.clone()
    };
    c.text_fit(
        cols.left + 2.0,
        y + 5.0,
        12.0 * PT,
        true,
        INK,
        &name,
        cols.right - cols.left - 60.0,
    );
    let (mut n, mut s, mut m) = (0u64, 0u64, 0u64);
    fn walk(g: &GroupDoc, n: &mut u64, s: &mut u64, m: &mut u64) {
        for u in &g.units {
            *n += 1;
            *s += u.strength as u64;
            *m += u.max_strength as u64;
        }
        for sub in &g.groups {
            walk(sub, n, s, m);
        }
    }
    for g in &side.groups {
        walk(g, &mut n, &mut s, &mut m);
    }
    let summary = format!(
        "{} · strength {s}/{m}",
        kepi_game::rules::count(n, "unit", "units")
    );
    c.text_right(cols.right - 2.0, y + 5.0, 8.0 * PT, false, INK, &summary);
}

#[allow(clippy::too_many_arguments)]
fn unit_row(c: &mut Canvas, cols: &Cols, y: f32, u: &UnitDoc, side: &str, si: usize, depth: usize) {
    let x = cols.left + depth.min(MAX_DEPTH_INDENT) as f32 * INDENT;
    // Symbol and name.
    c.symbol(u.arm, x, y + 1.2, 7.0, 4.7, side_fill(side, si), 0.25);
    let name_x = x + 9.0;
    let name_w = cols.b - name_x - 2.0;
    c.text_two_lines(
        name_x,
        (y + 4.4, y + 3.0, 2.6),
        (8.5 * PT, 6.8 * PT),
        true,
        INK,
        u.display_name(),
        name_w,
    );
    let mut line2 = Vec::new();
    if let Some(cl) = &u.class {
        line2.push(cl.clone());
    }
    line2.push(format!(
        "{}/{} {}",
        u.strength, u.max_strength, u.strength_unit
    ));
    // Issue 30: a battle's table unit names the campaign's board unit it came from (CAMP-C1).
    if let Some(from) = &u.from {
        line2.push(format!("from {from}"));
    }
    c.text_fit(
        name_x,
        y + 8.2,
        7.0 * PT,
        false,
        GREY,
        &line2.join(" · "),
        name_w,
    );

    // Strength boxes, losses crossed; a bar when there are too many to tick.
    let per_row = cols.per_row();
    if u.max_strength <= per_row * BOXES_MAX_ROWS {
        c.boxes(
            cols.b,
            y + 1.2,
            u.max_strength,
            per_row,
            BOX,
            BOX_GAP,
            u.strength,
            0,
        );
    } else {
        c.bar(cols.b, y + 1.5, cols.b_w, 3.0, u.strength, u.max_strength);
    }

    // Fatigue and leaders.
    let mut cx = cols.c;
    let small = 6.5 * PT;
    cx += c.text(cx, y + 3.3, small, false, GREY, "Fatigue") + 1.0;
    if u.fatigue_max <= 8 {
        c.boxes(
            cx,
            y + 1.2,
            u.fatigue_max,
            8,
            BOX,
            BOX_GAP,
            u.fatigue_max,
            u.fatigue,
        );
        cx += boxes_width(u.fatigue_max, BOX, BOX_GAP) + 2.5;
    } else {
        cx += c.text(
            cx,
            y + 3.3,
            7.0 * PT,
            true,
            INK,
            &format!("{}/{}", u.fatigue, u.fatigue_max),
        ) + 2.0;
    }
    cx += c.text(cx, y + 3.3, small, false, GREY, "Leaders") + 1.0;
    if u.leaders_max <= 6 {
        c.boxes(cx, y + 1.2, u.leaders_max, 6, BOX, BOX_GAP, u.leaders, 0);
    } else {
        c.text(
            cx,
            y + 3.3,
            7.0 * PT,
            true,
            INK,
            &format!("{}/{}", u.leaders, u.leaders_max),
        );
    }

    // Weapon, move, range: the column is as wide as the widest unit's (`Cols::new`), so each
    // prints whole; never past the margin.
    let mut kx = cols.c;
    let limit = cols.right;
    for (label, v) in details(u) {
        if !label.is_empty() {
            kx += c.text_fit(kx, y + 8.2, small, false, GREY, label, limit - kx);
        }
        kx += c.text_fit(kx, y + 8.2, VALUE, false, INK, v, limit - kx) + 2.0;
    }

    if !u.status.is_empty() {
        c.text_fit(
            name_x,
            y + 11.6,
            7.0 * PT,
            true,
            RED,
            &u.status.join(", "),
            cols.right - name_x,
        );
    }
    let bottom = y + unit_height(u) - 0.2;
    c.line(x, bottom, cols.right, bottom, 0.1, LIGHT);
}

/// Adds the header and the "page i of n" footer to every page.
fn decorate(doc: &RosterDoc, paper: Paper, fonts: &Fonts, pages: Vec<Vec<Op>>) -> Vec<Vec<Op>> {
    let (w, h) = paper.size_mm();
    let n = pages.len();
    let (left, right) = (MARGIN, w - MARGIN);
    let mut facts = vec![
        format!("Scenario: {}", doc.scenario),
        format!("Rules: {}", doc.system),
    ];
    if let Some(d) = &doc.date {
        facts.push(format!("Date: {d}"));
    }
    match (doc.turn, &doc.phase) {
        (Some(t), Some(p)) => facts.push(format!("Turn {t}, {p}")),
        (Some(t), None) => facts.push(format!("Turn {t}")),
        (None, Some(p)) => facts.push(p.clone()),
        (None, None) => {}
    }
    let facts = facts.join("   ·   ");
    // Issue 28: the scale beside "Order of battle", where the facts line cannot crowd it out.
    let (heading, title_room) = match &doc.scale {
        Some(s) => (format!("Order of battle  ·  {s}"), 68.0),
        None => ("Order of battle".to_string(), 35.0),
    };
    // In the footer, never cut: 16 hex digits are plenty to note at the table, and
    // `kepi log verify SAVE --expect-head` takes any unique prefix of 8 or more.
    let footer = match &doc.chain_head {
        Some(h) => format!(
            "kepi  ·  Log head: {}",
            h.chars().take(16).collect::<String>()
        ),
        None => "kepi".to_string(),
    };
    pages
        .into_iter()
        .enumerate()
        .map(|(i, body)| {
            let mut c = Canvas::new(fonts);
            let y = MARGIN;
            c.text_fit(
                left,
                y + 5.5,
                14.0 * PT,
                true,
                INK,
                &doc.title,
                right - left - title_room,
            );
            c.text_right(right, y + 5.5, 8.0 * PT, false, GREY, &heading);
            c.text_fit(left, y + 11.0, 8.0 * PT, false, INK, &facts, right - left);
            c.line(left, y + 13.5, right, y + 13.5, 0.4, INK);
            let fy = h - MARGIN;
            c.line(left, fy - 4.0, right, fy - 4.0, 0.15, LIGHT);
            c.text(left, fy, 7.0 * PT, false, GREY, &footer);
            c.text_right(
                right,
                fy,
                8.0 * PT,
                false,
                INK,
                &format!("page {} of {}", i + 1, n),
            );
            let mut ops = c.ops;
            ops.extend(body);
            ops
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_side_starts_a_page_and_pages_grow_with_units() {
        let small = RosterDoc::sample(4);
        assert_eq!(roster_page_count(&small, Paper::A4).unwrap(), 2);
        let big = RosterDoc::sample(400);
        let a4 = roster_page_count(&big, Paper::A4).unwrap();
        let letter = roster_page_count(&big, Paper::Letter).unwrap();
        assert!(a4 > 10, "{a4}");
        assert!(letter >= a4, "letter is shorter: {letter} vs {a4}");
    }

    #[test]
    fn nothing_is_drawn_below_the_footer_line() {
        let doc = RosterDoc::sample(120);
        let f = fonts().unwrap();
        let (_, h) = Paper::A4.size_mm();
        for page in layout(&doc, Paper::A4, f) {
            for op in page {
                if let Op::Text { y, .. } = op {
                    assert!(y <= h - MARGIN - FOOTER_H + 0.01, "text at {y}");
                }
            }
        }
    }

    #[test]
    fn empty_roster_still_makes_one_page() {
        let mut doc = RosterDoc::sample(0);
        doc.sides.clear();
        assert_eq!(roster_page_count(&doc, Paper::A4).unwrap(), 1);
        let pdf = roster_pdf(&doc, Paper::A4).unwrap();
        assert!(pdf.starts_with(b"%PDF"));
    }

    /// Issue 26: a page that ends inside a formation starts the next page with the headings of
    /// every formation the next line belongs to ("Cavalry / 5th Cavalry Division" above the
    /// brigade), and no heading is ever the last line of a page. Checked for every page break of
    /// rosters of 10 to 150 units, with a corps heading that holds only divisions.
    #[test]
    fn headings_repeat_after_a_page_break_and_never_end_a_page() {
        fn filled(g: &GroupDoc) -> bool {
            !g.units.is_empty() || g.groups.iter().any(filled)
        }
        fn rename(g: &mut GroupDoc, path: &str, n: &mut usize) {
            // A formation with no unit at all prints its heading alone, as it should.
            g.groups.retain(filled);
            g.name = format!("{path}/{}", g.name.replace(' ', "_"));
            for u in &mut g.units {
                *n += 1;
                u.name = format!("U{n:04}");
                u.status.clear();
            }
            let p = g.name.clone();
            for sub in &mut g.groups {
                rename(sub, &p, n);
            }
        }
        let f = fonts().unwrap();
        for units in (10..150).step_by(7) {
            let mut doc = RosterDoc::sample(units);
            for side in &mut doc.sides {
                // A corps that holds only its divisions: its heading has no unit of its own.
                let corps = GroupDoc {
                    name: "Cavalry".into(),
                    level: "corps".into(),
                    units: Vec::new(),
                    groups: std::mem::take(&mut side.groups),
                };
                side.groups = vec![corps];
            }
            let mut n = 0;
            let mut chains: Vec<(String, Vec<String>)> = Vec::new();
            for side in &mut doc.sides {
                for g in &mut side.groups {
                    rename(g, "", &mut n);
                }
                fn walk(g: &GroupDoc, up: &mut Vec<String>, out: &mut Vec<(String, Vec<String>)>) {
                    up.push(g.name.clone());
                    for u in &g.units {
                        out.push((u.name.clone(), up.clone()));
                    }
                    for sub in &g.groups {
                        walk(sub, up, out);
                    }
                    up.pop();
                }
                for g in &side.groups {
                    walk(g, &mut Vec::new(), &mut chains);
                }
            }
            let heading = |t: &str| t.starts_with('/');
            for (pi, page) in layout(&doc, Paper::A4, f).into_iter().enumerate() {
                let texts: Vec<String> = page
                    .into_iter()
                    .filter_map(|op| match op {
                        Op::Text { text, .. } => Some(text),
                        _ => None,
                    })
                    .filter(|t| heading(t) || t.starts_with('U'))
                    .collect();
                if let Some(last) = texts.last() {
                    assert!(!heading(last), "{units} units, page {pi} ends with {last}");
                }
                let Some(k) = texts.iter().position(|t| t.starts_with('U')) else {
                    continue;
                };
                let (_, up) = chains.iter().find(|(u, _)| *u == texts[k]).unwrap();
                let above: Vec<&str> = texts[..k]
                    .iter()
                    .map(|t| t.trim_end_matches(" (continued)"))
                    .collect();
                assert_eq!(
                    above, *up,
                    "{units} units, page {pi}: headings above {}",
                    texts[k]
                );
            }
        }
    }
}
