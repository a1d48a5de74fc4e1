//! What the map panel draws of a game's board map (issue 41): each cell's terrain in its table's
//! colour, the hexside features (rivers, bridges, rail lines, roads, borders, ridges) on the sides
//! they run along, the places' names, and the words the hovered cell's line says about it. Drawn
//! from the map the game carries ([`kepi_game::map::MapFile`]), under the grid, the overlays and
//! the units. The geometry is the panel's: a cell's centre comes from `centre`.

use egui::{Color32, Painter, Pos2, Shape, Stroke, vec2};
use kepi_game::hex::Hex;
use kepi_game::map::{Applies, Feature, Map, Reach, Terrain};

use crate::map::hex_corners;
use crate::text_cache::TextCache;

/// A terrain's colour: the table's `colour` ("#e8e0c0"), else one made from its name, so two
/// terrains without colours still differ.
pub fn colour_of(t: &Terrain) -> Color32 {
    t.colour
        .as_deref()
        .and_then(parse_colour)
        .unwrap_or_else(|| named_colour(&t.name))
}

/// "#rrggbb" as a colour.
fn parse_colour(s: &str) -> Option<Color32> {
    let h = s.trim().strip_prefix('#')?;
    if h.len() != 6 || !h.is_ascii() {
        return None;
    }
    let byte = |i: usize| u8::from_str_radix(&h[i..i + 2], 16).ok();
    Some(Color32::from_rgb(byte(0)?, byte(2)?, byte(4)?))
}

/// A muted colour from a name (FNV-1a), for a terrain its table gives none.
fn named_colour(name: &str) -> Color32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in name.bytes() {
        h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    let [r, g, b, _] = h.to_le_bytes();
    Color32::from_rgb(120 + r / 3, 120 + g / 3, 110 + b / 3)
}

/// The colour and width a hexside feature is drawn with.
fn feature_stroke(f: Feature, size: f32) -> Stroke {
    let w = (size / 9.0).max(1.5);
    match f {
        Feature::River => Stroke::new(w * 1.6, Color32::from_rgb(58, 112, 192)),
        Feature::Bridge => Stroke::new(w * 2.4, Color32::from_rgb(150, 110, 70)),
        Feature::Rail => Stroke::new(w, Color32::from_rgb(40, 40, 40)),
        Feature::Road => Stroke::new(w, Color32::from_rgb(170, 130, 80)),
        Feature::Border => Stroke::new(w * 0.8, Color32::from_rgb(170, 60, 160)),
        Feature::Ridge => Stroke::new(w * 1.4, Color32::from_rgb(120, 90, 50)),
    }
}

/// Each cell of `cells` on the map, filled with its terrain's colour at `alpha` (faint, so the
/// grid's labels, the overlays and the picture of the board under it read through).
pub fn paint_terrain(
    painter: &Painter,
    map: &Map,
    cells: &[Hex],
    centre: &dyn Fn(Hex) -> Pos2,
    size: f32,
    alpha: f32,
) {
    for &h in cells {
        let Some(t) = map.terrain_entry(h) else {
            continue;
        };
        painter.add(Shape::convex_polygon(
            hex_corners(centre(h), size).to_vec(),
            colour_of(t).gamma_multiply(alpha),
            Stroke::NONE,
        ));
    }
}

/// The cells of `cells` whose centre is on screen (the painter's clip and a margin of two cells):
/// what a frame draws of a board of thousands of cells (issue 41: a frame is 4 ms at most).
pub fn on_screen(
    painter: &Painter,
    cells: impl IntoIterator<Item = Hex>,
    centre: &dyn Fn(Hex) -> Pos2,
    size: f32,
) -> Vec<Hex> {
    let seen = painter.clip_rect().expand(size * 2.0);
    cells
        .into_iter()
        .filter(|h| seen.contains(centre(*h)))
        .collect()
}

/// Each cell's outline, and its label (where `label` gives one) at the top of the cell: the map
/// panel's grid and the map editor's.
pub fn paint_grid(
    painter: &Painter,
    text: &mut TextCache,
    cells: &[Hex],
    centre: &dyn Fn(Hex) -> Pos2,
    size: f32,
    label: &dyn Fn(Hex) -> Option<String>,
    visuals: &egui::Visuals,
) {
    let line = Stroke::new(1.0, visuals.weak_text_color().gamma_multiply(0.6));
    for h in cells {
        let c = centre(*h);
        let mut pts = hex_corners(c, size).to_vec();
        pts.push(pts[0]);
        painter.add(Shape::line(pts, line));
        if let Some(l) = label(*h) {
            text.paint(
                painter,
                (c + vec2(0.0, -size * 0.62), egui::Align2::CENTER_CENTER),
                &l,
                ((size * 0.30).max(7.0), false),
                visuals.weak_text_color(),
            );
        }
    }
}

/// The two corners a hexside runs between: the corners of `a` nearest `b`'s centre.
fn side_ends(a: Pos2, b: Pos2, size: f32) -> [Pos2; 2] {
    let mut corners = hex_corners(a, size);
    corners.sort_by(|p, q| p.distance_sq(b).total_cmp(&q.distance_sq(b)));
    [corners[0], corners[1]]
}

/// Every hexside feature of the map whose side touches `cells`: a river or ridge along the side,
/// a rail line or road from centre to centre across it (the line it is), a bridge across it.
pub fn paint_features(
    painter: &Painter,
    map: &Map,
    cells: &[Hex],
    centre: &dyn Fn(Hex) -> Pos2,
    size: f32,
) {
    let cells: std::collections::HashSet<Hex> = cells.iter().copied().collect();
    for line in &map.lines {
        let stroke = feature_stroke(line.feature, size);
        for side in &line.sides {
            let (a, b) = side.hexes();
            if !cells.contains(&a) && !cells.contains(&b) {
                continue;
            }
            let (ca, cb) = (centre(a), centre(b));
            match line.feature {
                Feature::Rail | Feature::Road => {
                    painter.line_segment([ca, cb], stroke);
                    if line.feature == Feature::Rail {
                        // Sleepers across the line, so a rail reads apart from a road.
                        let mid = ca + (cb - ca) * 0.5;
                        let across = (cb - ca).rot90().normalized() * size * 0.12;
                        painter.line_segment([mid - across, mid + across], stroke);
                    }
                }
                Feature::Bridge => {
                    let mid = ca + (cb - ca) * 0.5;
                    let along = (cb - ca).normalized() * size * 0.25;
                    painter.line_segment([mid - along, mid + along], stroke);
                }
                Feature::River | Feature::Border | Feature::Ridge => {
                    painter.line_segment(side_ends(ca, cb, size), stroke);
                }
            }
        }
    }
}

/// The rail network a side may use (issue 41), as its rule set traces it (SPI-S2: the French
/// rail lines from the map's edges, within France, to the first cut): each rail hexside of the map
/// between two cells of `cells` drawn over the line in the side's colour, and a cross on each
/// cell where the trace stopped (`stops`, a cut or an enemy unit).
pub fn paint_rail_network(
    painter: &Painter,
    map: &Map,
    (cells, stops): (&std::collections::HashSet<Hex>, &[Hex]),
    centre: &dyn Fn(Hex) -> Pos2,
    size: f32,
    colour: Color32,
) {
    let stroke = Stroke::new((size / 5.0).max(2.5), colour.gamma_multiply(0.85));
    for line in map.lines.iter().filter(|l| l.feature == Feature::Rail) {
        for side in &line.sides {
            let (a, b) = side.hexes();
            if cells.contains(&a) && cells.contains(&b) {
                painter.line_segment([centre(a), centre(b)], stroke);
            }
        }
    }
    let cross = Stroke::new((size / 7.0).max(2.0), Color32::from_rgb(200, 40, 40));
    for h in stops {
        let c = centre(*h);
        let d = size * 0.3;
        painter.line_segment([c + vec2(-d, -d), c + vec2(d, d)], cross);
        painter.line_segment([c + vec2(-d, d), c + vec2(d, -d)], cross);
    }
}

/// The cells a unit may reach (issue 41): each tinted, its cost in points at the top of the cell;
/// a cell of unknown cost marked "?" (the table gives no number for its terrain or a side crossed).
pub fn paint_reach(
    painter: &Painter,
    texts: &mut TextCache,
    reach: &Reach,
    centre: &dyn Fn(Hex) -> Pos2,
    size: f32,
    text: Color32,
) {
    let tint = Color32::from_rgba_unmultiplied(90, 170, 230, 60);
    let font = ((size * 0.28).max(7.0), false);
    for c in &reach.cells {
        let at = centre(c.hex);
        painter.add(Shape::convex_polygon(
            hex_corners(at, size * 0.94).to_vec(),
            tint,
            Stroke::NONE,
        ));
        let pos = (at + vec2(size * 0.55, 0.0), egui::Align2::CENTER_CENTER);
        texts.paint(painter, pos, &c.cost.to_string(), font, text);
    }
    for u in &reach.unknown {
        let pos = (
            centre(u.hex) + vec2(size * 0.55, 0.0),
            egui::Align2::CENTER_CENTER,
        );
        texts.paint(painter, pos, "?", font, text);
    }
}

/// The unit's supply line (SPI-S1, issue 41's "a traced supply line (highlighted)"): the path
/// traced from its cell to the source as a polyline, green when supplied, amber when unsupplied,
/// with a ring on the source; for an isolated unit, the way with the fewest obstacles dashed in
/// red and a red ring on each cell in the way.
pub fn paint_supply(
    painter: &Painter,
    t: &kepi_game::map::supply::Traced,
    layout: kepi_game::hex::Layout,
    centre: &dyn Fn(Hex) -> Pos2,
    size: f32,
) {
    use kepi_game::map::supply::SupplyStatus;
    let width = (size * 0.12).max(2.0);
    let colour = match t.status {
        SupplyStatus::Supplied => Color32::from_rgb(40, 150, 60),
        SupplyStatus::Unsupplied => Color32::from_rgb(220, 150, 30),
        SupplyStatus::Isolated => Color32::from_rgb(200, 40, 40),
    };
    let pts: Vec<Pos2> = t.hexes.iter().map(|h| centre(*h)).collect();
    if pts.len() > 1 {
        painter.add(Shape::line(pts.clone(), Stroke::new(width, colour)));
    }
    if let Some(end) = pts.last() {
        painter.circle_stroke(*end, size * 0.45, Stroke::new(width, colour));
    }
    if t.status == SupplyStatus::Supplied {
        return;
    }
    let red = Color32::from_rgb(200, 40, 40);
    let at = |label: &str| Hex::from_label(label, layout).ok().map(centre);
    let blocked: Vec<Pos2> = t.blocked_path.iter().filter_map(|l| at(l)).collect();
    if blocked.len() > 1 {
        painter.extend(Shape::dashed_line(
            &blocked,
            Stroke::new(width * 0.6, red),
            size * 0.3,
            size * 0.2,
        ));
    }
    for o in &t.interdicts {
        if let Some(p) = at(&o.cell) {
            painter.circle_stroke(p, size * 0.6, Stroke::new(width * 0.6, red));
        }
    }
}

/// What the hovered cell's line says of the reach there: "2 MP to reach (1 step)", or the
/// cost unknown and what lacks one; `None` outside the reach.
pub fn reach_words(reach: &Reach, h: Hex) -> Option<String> {
    if let Some(c) = reach.cells.iter().find(|c| c.hex == h) {
        return Some(format!(
            "{} of {} MP to reach ({}){}",
            c.cost,
            reach.allowance,
            kepi_game::rules::count(c.steps, "step", "steps"),
            if c.zoc {
                ", in an enemy zone of control: the move stops there"
            } else {
                ""
            }
        ));
    }
    let u = reach.unknown.iter().find(|u| u.hex == h)?;
    Some(format!(
        "cost unknown here: the table gives no cost for {}",
        u.lacking.join(", ")
    ))
}

/// The places' names under their cells' centres.
pub fn paint_places(
    painter: &Painter,
    text: &mut TextCache,
    map: &Map,
    cells: &[Hex],
    centre: &dyn Fn(Hex) -> Pos2,
    size: f32,
    colour: Color32,
) {
    let cells: std::collections::HashSet<Hex> = cells.iter().copied().collect();
    for p in map.places.iter().filter(|p| cells.contains(&p.cell)) {
        text.paint(
            painter,
            (
                centre(p.cell) + vec2(0.0, size * 0.62),
                egui::Align2::CENTER_CENTER,
            ),
            &p.name,
            ((size * 0.26).max(7.0), false),
            colour,
        );
    }
}

/// What the hovered cell's line says of the map there: its terrain, place and the features on its
/// sides ("cover · Flavigny-le-Petit (town) · river, road"); `None` off the map.
pub fn cell_words(map: &Map, h: Hex) -> Option<String> {
    let terrain = map.terrain_of(h)?;
    let mut words = vec![terrain.to_string()];
    for p in map.places_at(h) {
        let kinds: Vec<&str> = p.kinds.iter().map(|k| k.as_str()).collect();
        words.push(format!("{} ({})", p.name, kinds.join(", ")));
    }
    let mut features: Vec<&str> = map
        .sides_of(h)
        .iter()
        .flat_map(|(_, _, lines)| lines.iter().map(|l| l.feature.as_str()))
        .collect();
    features.sort_unstable();
    features.dedup();
    if !features.is_empty() {
        words.push(features.join(", "));
    }
    Some(words.join(" · "))
}

/// The legend: each terrain drawn on cells with its colour, in the table's order.
pub fn legend(map: &Map) -> Vec<(String, Color32)> {
    let used = map.terrain_counts();
    map.terrain
        .entries
        .iter()
        .filter(|t| t.applies == Applies::Cell)
        .filter(|t| used.iter().any(|(n, c)| *n == t.name && *c > 0))
        .map(|t| (t.name.clone(), colour_of(t)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_read_from_the_table_or_are_made_from_the_name() {
        assert_eq!(
            parse_colour("#e8e0c0"),
            Some(Color32::from_rgb(0xe8, 0xe0, 0xc0))
        );
        assert_eq!(parse_colour("e8e0c0"), None);
        assert_eq!(parse_colour("#e8e0"), None);
        assert_eq!(parse_colour("#é8e0c0"), None);
        assert_ne!(named_colour("forest"), named_colour("mountain"));
        assert_eq!(named_colour("forest"), named_colour("forest"));
    }

    #[test]
    fn a_cell_is_described_by_its_terrain_place_and_sides() {
        let map = kepi_game::map::Map::named("example-pw").unwrap();
        let h = Hex::parse("0503", map.grid.layout).unwrap();
        let words = cell_words(&map, h).unwrap();
        assert!(
            words.starts_with("cover · Flavigny-le-Petit (town)"),
            "{words}"
        );
        assert!(words.contains("river") && words.contains("road"), "{words}");
        let off = Hex::parse("0909", map.grid.layout).unwrap();
        assert_eq!(cell_words(&map, off), None);
        let legend: Vec<String> = legend(&map).into_iter().map(|(n, _)| n).collect();
        assert!(legend.contains(&"cover".to_string()), "{legend:?}");
    }

    #[test]
    fn a_hexside_runs_between_the_two_corners_nearest_the_neighbour() {
        let a = Pos2::new(0.0, 0.0);
        let b = Pos2::new(0.0, 20.0 * 3f32.sqrt());
        let [p, q] = side_ends(a, b, 20.0);
        assert!(
            (p.y - 10.0 * 3f32.sqrt()).abs() < 0.01 && (q.y - p.y).abs() < 0.01,
            "{p:?} {q:?}"
        );
    }
}
