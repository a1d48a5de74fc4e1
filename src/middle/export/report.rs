//! The battle report: the scenario, the forces at the end, casualties per side per turn as a bar
//! chart, every resolution turn by turn with its dice and rule ids, and the log's verification hash.
//! As one self-contained HTML file (inline CSS and SVG, all text escaped) or as a PDF.

use std::fmt::Write as _;

use super::draw::{Canvas, Flow, Fonts, GREY, INK, LIGHT, Op, PT, RED, Rgb, fonts, side_colour};
use super::model::{ReportDoc, ResolutionDoc, TurnDoc};
use super::{ExportError, Paper, Progress, no_progress, pdf};

/// Escapes text for HTML element content and attribute values.
pub(crate) fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

fn hex(c: Rgb) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

/// Side names in order: the roster's sides first, then any others named in the casualties.
fn side_names(doc: &ReportDoc) -> Vec<String> {
    let mut names: Vec<String> = doc.roster.sides.iter().map(|s| s.name.clone()).collect();
    for (_, per_side) in &doc.casualties {
        for (s, _) in per_side {
            if !names.contains(s) {
                names.push(s.clone());
            }
        }
    }
    names
}

fn casualty(doc: &ReportDoc, turn_idx: usize, side: &str) -> u32 {
    doc.casualties
        .get(turn_idx)
        .map(|(_, v)| v.iter().filter(|(s, _)| s == side).map(|(_, n)| *n).sum())
        .unwrap_or(0)
}

/// A round axis maximum at or above `m`.
fn nice_max(m: u32) -> u32 {
    let m = m.max(1);
    let mut step = 1u32;
    loop {
        for k in [1, 2, 5] {
            let v = k * step;
            if v >= m {
                return v;
            }
        }
        step = step.saturating_mul(10);
    }
}

/// How many intervals to split the axis `0..=top` into so every tick is a whole number
/// (`top` is 1, 2 or 5 times a power of ten).
fn axis_ticks(top: u32) -> u32 {
    if top >= 5 { 5 } else { top.max(1) }
}

/// Casualties as an inline SVG grouped bar chart (one group per turn, one bar per side).
fn chart_svg(doc: &ReportDoc) -> String {
    let sides = side_names(doc);
    if doc.casualties.is_empty() || sides.is_empty() {
        return "<p class=\"muted\">No casualties recorded.</p>".to_string();
    }
    let (w, h) = (640.0f32, 260.0f32);
    let (l, r, t, b) = (44.0, 12.0, 30.0, 34.0);
    let (plot_w, plot_h) = (w - l - r, h - t - b);
    let max = doc
        .casualties
        .iter()
        .flat_map(|(_, v)| v.iter().map(|(_, n)| *n))
        .max()
        .unwrap_or(0);
    let top = nice_max(max);
    let n = doc.casualties.len() as f32;
    let gw = plot_w / n;
    let bw = gw * 0.8 / sides.len() as f32;
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\" aria-label=\"Casualties per side per turn\">"
    );
    let ticks = axis_ticks(top);
    for i in 0..=ticks {
        let v = top as f32 * i as f32 / ticks as f32;
        let y = t + plot_h - plot_h * i as f32 / ticks as f32;
        let _ = write!(
            s,
            "<line x1=\"{l}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#ddd\"/><text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" text-anchor=\"end\">{}</text>",
            l + plot_w,
            l - 4.0,
            y + 3.5,
            v.round()
        );
    }
    for (ti, (turn, _)) in doc.casualties.iter().enumerate() {
        let gx = l + gw * ti as f32 + gw * 0.1;
        for (si, side) in sides.iter().enumerate() {
            let v = casualty(doc, ti, side);
            let bh = plot_h * v as f32 / top as f32;
            let _ = write!(
                s,
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{}\"><title>Turn {turn}, {}: {v}</title></rect>",
                gx + bw * si as f32,
                t + plot_h - bh,
                bw.max(0.5),
                bh,
                hex(side_colour(side, si)),
                esc(side)
            );
        }
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" text-anchor=\"middle\">T{turn}</text>",
            l + gw * ti as f32 + gw / 2.0,
            t + plot_h + 14.0
        );
    }
    let _ = write!(
        s,
        "<line x1=\"{l}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#333\"/>",
        t + plot_h,
        l + plot_w,
        t + plot_h
    );
    let mut lx = l;
    for (si, side) in sides.iter().enumerate() {
        let _ = write!(
            s,
            "<rect x=\"{lx:.1}\" y=\"8\" width=\"10\" height=\"10\" fill=\"{}\"/><text x=\"{:.1}\" y=\"17\" font-size=\"11\">{}</text>",
            hex(side_colour(side, si)),
            lx + 14.0,
            esc(side)
        );
        lx += 24.0 + side.chars().count() as f32 * 6.5;
    }
    let _ = write!(
        s,
        "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" text-anchor=\"middle\">turn</text></svg>",
        l + plot_w / 2.0,
        h - 4.0
    );
    s
}

/// The report as one self-contained HTML page.
pub fn report_html(doc: &ReportDoc) -> String {
    let r = &doc.roster;
    let mut s = String::new();
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{} - battle report</title>\n<style>\n\
body{{font-family:'DejaVu Sans',Verdana,sans-serif;max-width:60em;margin:2em auto;padding:0 1em;color:#1e1e1e}}\n\
h1{{margin-bottom:.2em}} .muted{{color:#666}} table{{border-collapse:collapse;width:100%;margin:.5em 0 1.5em}}\n\
th,td{{border-bottom:1px solid #ddd;padding:.25em .5em;text-align:left;vertical-align:top;font-size:.9em}}\n\
code{{font-size:.9em}} .ok{{color:#2a7a2a}} .bad{{color:#aa1414;font-weight:bold}} .status{{color:#aa1414}}\n\
</style>\n</head>\n<body>\n",
        esc(&r.title)
    );
    let _ = writeln!(s, "<h1>{}</h1>", esc(&r.title));
    let mut facts = vec![
        format!("Scenario: {}", esc(&r.scenario)),
        format!("Rules: {}", esc(&r.system)),
    ];
    if let Some(d) = &r.date {
        facts.push(format!("Date: {}", esc(d)));
    }
    if let Some(t) = r.turn {
        facts.push(format!("Turn {t}"));
    }
    if let Some(p) = &r.phase {
        facts.push(esc(p));
    }
    let _ = writeln!(s, "<p class=\"muted\">{}</p>", facts.join(" &middot; "));
    let verdict = if doc.verified {
        "<span class=\"ok\">verified</span>"
    } else {
        "<span class=\"bad\">NOT VERIFIED</span>"
    };
    let _ = writeln!(
        s,
        "<p>Log chain head: <code>{}</code> ({verdict})</p>",
        esc(&doc.chain_head)
    );

    let _ = writeln!(s, "<h2>Casualties per turn</h2>\n{}", chart_svg(doc));
    let sides = side_names(doc);
    if !doc.casualties.is_empty() {
        s.push_str("<table><tr><th>Turn</th>");
        for side in &sides {
            let _ = write!(s, "<th>{}</th>", esc(side));
        }
        s.push_str("</tr>\n");
        for (ti, (turn, _)) in doc.casualties.iter().enumerate() {
            let _ = write!(s, "<tr><td>{turn}</td>");
            for side in &sides {
                let _ = write!(s, "<td>{}</td>", casualty(doc, ti, side));
            }
            s.push_str("</tr>\n");
        }
        s.push_str("<tr><th>Total</th>");
        for side in &sides {
            let total: u32 = (0..doc.casualties.len())
                .map(|ti| casualty(doc, ti, side))
                .sum();
            let _ = write!(s, "<th>{total}</th>");
        }
        s.push_str("</tr></table>\n");
    }

    s.push_str("<h2>Turn by turn</h2>\n");
    if doc.turns.is_empty() {
        s.push_str("<p class=\"muted\">No resolutions logged.</p>\n");
    }
    for t in &doc.turns {
        let label = t
            .label
            .as_ref()
            .map(|l| format!(" &middot; {}", esc(l)))
            .unwrap_or_default();
        let _ = writeln!(s, "<h3>Turn {}{label}</h3>", t.turn);
        s.push_str("<table><tr><th>Time</th><th>Units</th><th>Action</th><th>Result</th><th>Dice</th><th>Rules</th></tr>\n");
        for res in &t.resolutions {
            let _ = writeln!(
                s,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td><code>{}</code></td><td><code>{}</code></td></tr>",
                esc(&res.time),
                esc(&res.who()),
                esc(&res.action),
                esc(&res.result()),
                esc(&res.dice),
                esc(&res.rule_ids.join(" "))
            );
        }
        s.push_str("</table>\n");
    }

    s.push_str("<h2>Forces</h2>\n");
    for side in &r.sides {
        let _ = writeln!(s, "<h3>{}</h3>", esc(&side.name));
        s.push_str(
            "<table><tr><th>Unit</th><th>Formation</th><th>Strength</th><th>Status</th></tr>\n",
        );
        for (sd, path, u) in r.units() {
            if !std::ptr::eq(sd, side) {
                continue;
            }
            let _ = writeln!(
                s,
                "<tr><td>{}</td><td>{}</td><td>{}/{} {}</td><td class=\"status\">{}</td></tr>",
                esc(u.display_name()),
                esc(&path.join(" > ")),
                u.strength,
                u.max_strength,
                esc(&u.strength_unit),
                esc(&u.status.join(", "))
            );
        }
        s.push_str("</table>\n");
    }
    s.push_str("<p class=\"muted\">Made by kepi.</p>\n</body>\n</html>\n");
    s
}

/// The report as a PDF on `paper`.
pub fn report_pdf(doc: &ReportDoc, paper: Paper) -> Result<Vec<u8>, ExportError> {
    report_pdf_progress(doc, paper, &no_progress)
}

const M: f32 = 15.0;

/// [`report_pdf`] reporting `(pages done, pages)` as it renders.
pub fn report_pdf_progress(
    doc: &ReportDoc,
    paper: Paper,
    progress: Progress,
) -> Result<Vec<u8>, ExportError> {
    let fonts = fonts()?;
    let (paper_w, paper_h) = paper.size_mm();
    let (left, right) = (M, paper_w - M);
    let width = right - left;
    let mut f = Flow::new(fonts, M, paper_h - M - 8.0);
    let r = &doc.roster;

    title_block(&mut f, doc, left, right);

    // Casualties chart.
    heading(&mut f, left, "Casualties per turn");
    chart_pdf(&mut f, doc, left, width);

    // Turns.
    heading(&mut f, left, "Turn by turn");
    for t in &doc.turns {
        turn_pdf(&mut f, t, left, right);
    }
    if doc.turns.is_empty() {
        f.canvas.text(
            left,
            f.y + 4.0,
            8.0 * PT,
            false,
            GREY,
            "No resolutions logged.",
        );
        f.y += 6.0;
    }
    let pages = with_footers(f.finish(), fonts, &r.title, paper_h, left, right);
    pdf::render(
        &pages,
        paper.size_mm(),
        &format!("{} battle report", r.title),
        progress,
    )
}

/// The report's title block: the title, the scenario, rules, date and turn, the log's chain head
/// and whether it verified, and a rule under them.
fn title_block(f: &mut Flow<'_>, doc: &ReportDoc, left: f32, right: f32) {
    let fonts = f.canvas.fonts;
    let width = right - left;
    let r = &doc.roster;
    f.canvas
        .text_fit(left, f.y + 6.0, 16.0 * PT, true, INK, &r.title, width);
    f.y += 9.0;
    let mut facts = vec![
        format!("Scenario: {}", r.scenario),
        format!("Rules: {}", r.system),
    ];
    if let Some(d) = &r.date {
        facts.push(format!("Date: {d}"));
    }
    if let Some(t) = r.turn {
        facts.push(format!("Turn {t}"));
    }
    for line in fonts.wrap(false, 8.5 * PT, &facts.join("  ·  "), width) {
        f.canvas.text(left, f.y + 3.5, 8.5 * PT, false, INK, &line);
        f.y += 4.2;
    }
    let verdict = if doc.verified {
        "verified"
    } else {
        "NOT VERIFIED"
    };
    let w = f
        .canvas
        .text(left, f.y + 3.5, 8.0 * PT, false, GREY, "Log chain head: ");
    let hw = f.canvas.text_fit(
        left + w,
        f.y + 3.5,
        7.0 * PT,
        false,
        INK,
        &doc.chain_head,
        width - w - 25.0,
    );
    f.canvas.text(
        left + w + hw + 2.0,
        f.y + 3.5,
        8.0 * PT,
        true,
        if doc.verified { Rgb(42, 122, 42) } else { RED },
        verdict,
    );
    f.y += 6.0;
    f.canvas.line(left, f.y, right, f.y, 0.4, INK);
    f.y += 4.0;
}

/// One turn: its heading, kept with its first resolution, then each resolution.
fn turn_pdf(f: &mut Flow<'_>, t: &TurnDoc, left: f32, right: f32) {
    let fonts = f.canvas.fonts;
    let width = right - left;
    // Keep the turn heading with its first resolution.
    let first = t
        .resolutions
        .first()
        .map(|r| 8.2 + fonts.wrap(false, 8.0 * PT, &r.result(), width - 6.0).len() as f32 * 3.6)
        .unwrap_or(0.0);
    f.ensure(6.0 + first);
    let label = match &t.label {
        Some(l) => format!("Turn {} · {l}", t.turn),
        None => format!("Turn {}", t.turn),
    };
    f.canvas
        .text_fit(left, f.y + 4.0, 10.0 * PT, true, INK, &label, width);
    f.y += 6.0;
    for res in &t.resolutions {
        resolution_pdf(f, res, left, right);
    }
    f.y += 2.0;
}

/// One resolution, kept on one page: its time, action and units, its result, and its dice and
/// rule ids, each wrapped.
fn resolution_pdf(f: &mut Flow<'_>, res: &ResolutionDoc, left: f32, right: f32) {
    let fonts = f.canvas.fonts;
    let width = right - left;
    let head = format!("{}  {}  {}", res.time, res.action, res.who());
    let body = fonts.wrap(false, 8.0 * PT, &res.result(), width - 6.0);
    // Wrapped, never elided: a battery's hit dice and its accuracy-of-aim dice run past
    // one line, and a report that cut them ("A.O.A. die…") hid the dice behind a result.
    let tail = fonts.wrap(
        false,
        7.0 * PT,
        &format!("dice {}   rules {}", res.dice, res.rule_ids.join(" ")),
        width - 6.0,
    );
    let h = 4.0 + body.len() as f32 * 3.6 + tail.len() as f32 * 3.2 + 1.0;
    f.ensure(h);
    f.canvas.text_fit(
        left + 2.0,
        f.y + 3.2,
        8.0 * PT,
        true,
        INK,
        &head,
        width - 2.0,
    );
    f.y += 4.0;
    for line in &body {
        f.canvas
            .text(left + 6.0, f.y + 3.0, 8.0 * PT, false, INK, line);
        f.y += 3.6;
    }
    for line in &tail {
        f.canvas
            .text(left + 6.0, f.y + 3.0, 7.0 * PT, false, GREY, line);
        f.y += 3.2;
    }
    f.y += 1.0;
    f.canvas
        .line(left + 2.0, f.y - 0.4, right, f.y - 0.4, 0.1, LIGHT);
}

/// Each page with its footer: a rule, the report's title and "page N of M".
fn with_footers(
    pages: Vec<Vec<Op>>,
    fonts: &Fonts,
    title: &str,
    paper_h: f32,
    left: f32,
    right: f32,
) -> Vec<Vec<Op>> {
    let width = right - left;
    let n = pages.len();
    pages
        .into_iter()
        .enumerate()
        .map(|(i, mut ops)| {
            let mut c = Canvas::new(fonts);
            c.line(
                left,
                paper_h - M - 4.0,
                right,
                paper_h - M - 4.0,
                0.15,
                LIGHT,
            );
            c.text_fit(
                left,
                paper_h - M,
                7.0 * PT,
                false,
                GREY,
                &format!("{title} · battle report"),
                width - 30.0,
            );
            c.text_right(
                right,
                paper_h - M,
                8.0 * PT,
                false,
                INK,
                &format!("page {} of {}", i + 1, n),
            );
            ops.extend(c.ops);
            ops
        })
        .collect()
}

fn heading(f: &mut Flow, left: f32, text: &str) {
    f.ensure(14.0);
    f.canvas.text(left, f.y + 5.0, 12.0 * PT, true, INK, text);
    f.y += 8.0;
}

fn chart_pdf(f: &mut Flow, doc: &ReportDoc, left: f32, width: f32) {
    let sides = side_names(doc);
    if doc.casualties.is_empty() || sides.is_empty() {
        f.canvas.text(
            left,
            f.y + 4.0,
            8.0 * PT,
            false,
            GREY,
            "No casualties recorded.",
        );
        f.y += 8.0;
        return;
    }
    let h = 60.0;
    f.ensure(h + 16.0);
    let fonts: &Fonts = f.canvas.fonts;
    let c = &mut f.canvas;
    // Legend.
    let mut lx = left;
    for (si, side) in sides.iter().enumerate() {
        c.fill_rect(lx, f.y + 0.5, 3.0, 3.0, side_colour(side, si));
        let w = c.text(lx + 4.5, f.y + 3.2, 8.0 * PT, false, INK, side);
        lx += 10.0 + w;
    }
    let top_y = f.y + 7.0;
    let axis_x = left + 10.0;
    let plot_w = width - 12.0;
    let max = doc
        .casualties
        .iter()
        .flat_map(|(_, v)| v.iter().map(|(_, n)| *n))
        .max()
        .unwrap_or(0);
    let top = nice_max(max);
    let ticks = axis_ticks(top);
    for i in 0..=ticks {
        let y = top_y + h - h * i as f32 / ticks as f32;
        c.line(axis_x, y, axis_x + plot_w, y, 0.1, LIGHT);
        let label = ((top as f32 * i as f32 / ticks as f32).round() as u32).to_string();
        let w = fonts.width(false, 6.5 * PT, &label);
        c.text(axis_x - 1.5 - w, y + 0.8, 6.5 * PT, false, GREY, &label);
    }
    let n = doc.casualties.len() as f32;
    let gw = plot_w / n;
    let bw = gw * 0.8 / sides.len() as f32;
    for (ti, (turn, _)) in doc.casualties.iter().enumerate() {
        let gx = axis_x + gw * ti as f32 + gw * 0.1;
        for (si, side) in sides.iter().enumerate() {
            let v = casualty(doc, ti, side);
            let bh = h * v as f32 / top as f32;
            c.fill_rect(
                gx + bw * si as f32,
                top_y + h - bh,
                bw,
                bh,
                side_colour(side, si),
            );
        }
        if gw >= 5.0 || ti % 5 == 0 {
            c.text_center(
                axis_x + gw * ti as f32 + gw / 2.0,
                top_y + h + 3.5,
                6.5 * PT,
                false,
                GREY,
                &format!("T{turn}"),
                gw.max(8.0),
            );
        }
    }
    c.line(axis_x, top_y + h, axis_x + plot_w, top_y + h, 0.3, INK);
    f.y = top_y + h + 8.0;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup() {
        assert_eq!(esc("<b>&\"'"), "&lt;b&gt;&amp;&quot;&#39;");
    }

    #[test]
    fn nice_axis() {
        assert_eq!(nice_max(0), 1);
        assert_eq!(nice_max(3), 5);
        assert_eq!(nice_max(7), 10);
        assert_eq!(nice_max(11), 20);
        assert_eq!(nice_max(51), 100);
        for top in [1, 2, 5, 10, 20, 50, 100, 200] {
            assert_eq!(top % axis_ticks(top), 0, "{top}");
        }
    }

    #[test]
    fn html_has_chart_hash_and_escaped_text() {
        let mut doc = ReportDoc::sample(8, 3);
        doc.roster.title = "<script>alert(1)</script>".into();
        let html = report_html(&doc);
        assert!(!html.contains("<script>"));
        assert!(html.contains("&lt;script&gt;"));
        assert!(html.contains("<svg"));
        assert!(html.contains(&doc.chain_head));
        assert!(html.contains("PK-F1 PK-F3"));
        assert!(html.contains("&lt;holds&gt; &amp; &quot;stands&quot;"));
    }
}
