//! The roster: sides > formations > units, virtualised, with strength bars, fatigue and status chips;
//! values editable in place (each edit is an action, so undoable).

use egui::{Color32, RichText, Sense, Stroke, StrokeKind, Ui, vec2};

use std::collections::HashSet;

use super::state::{Command, View};
use super::widgets::chip;
use kepi_game::engine::game::{Action, Counter, Flag, GameState, Level, Tone, UnitState};
use kepi_game::engine::rule_set::RuleSetRef;

/// One row of the flattened roster.
#[derive(Clone, Debug, PartialEq)]
pub enum Row {
    /// A group header: key (for collapsing), label, depth, units under it.
    Group {
        /// Path key.
        key: String,
        /// Label.
        label: String,
        /// Nesting depth.
        depth: usize,
        /// Units under it (after filtering).
        count: usize,
    },
    /// A unit: index into `GameState::units`, depth.
    Unit {
        /// Index.
        index: usize,
        /// Depth.
        depth: usize,
    },
}

fn matches(u: &UnitState, filter: &str) -> bool {
    if filter.is_empty() {
        return true;
    }
    let f = filter.to_lowercase();
    u.unit.name.to_lowercase().contains(&f)
        || u.unit.id.contains(&f)
        || u.unit
            .oob
            .path()
            .iter()
            .any(|p| p.to_lowercase().contains(&f))
}

/// Flattens the roster into rows: side, then each level of the order of battle, then units. Units
/// keep their roster order; a group header appears where its path first appears. O(units).
pub fn rows(state: &GameState, view: &RosterView) -> Vec<Row> {
    use std::collections::HashMap;
    let mut out = Vec::new();
    // A player's seat: its own side first (its roster), the others after (their targets).
    let mut sides: Vec<&kepi_game::roster::Side> = state.sides.iter().collect();
    if let Some(own) = view.seat_side {
        sides.sort_by_key(|s| **s != own);
    }
    for side in sides {
        let side_key = side.to_string();
        let units: Vec<usize> = state
            .units
            .iter()
            .enumerate()
            .filter(|(_, u)| u.unit.side == *side)
            .filter(|(_, u)| matches(u, &view.filter))
            .filter(|(_, u)| !(view.hide_eliminated && u.eliminated()))
            .filter(|(_, u)| {
                !view.only_to_act || kepi_game::engine::flow::is_still_to_act(state, u)
            })
            .map(|(i, _)| i)
            .collect();
        // Group keys per unit, and how many units each group holds.
        let mut counts: HashMap<String, usize> = HashMap::new();
        let mut keyed: Vec<(usize, Vec<(String, String)>)> = units
            .iter()
            .map(|&i| {
                let mut key = side_key.clone();
                let groups = state.units[i]
                    .unit
                    .oob
                    .path()
                    .iter()
                    .map(|name| {
                        key.push('/');
                        key.push_str(name);
                        *counts.entry(key.clone()).or_default() += 1;
                        (key.clone(), name.to_string())
                    })
                    .collect();
                (i, groups)
            })
            .collect();
        // Keep each group together even when its units are not adjacent in the card file.
        keyed.sort_by(|a, b| a.1.iter().map(|g| &g.0).cmp(b.1.iter().map(|g| &g.0)));
        let label = match view.seat_side {
            Some(own) if own != *side => {
                format!("targets: {}", side_title(state, side))
            }
            _ => side_title(state, side),
        };
        out.push(Row::Group {
            key: side_key.clone(),
            label,
            depth: 0,
            count: units.len(),
        });
        if view.closed(&side_key) {
            continue;
        }
        let mut open: Vec<String> = Vec::new();
        for (i, groups) in keyed {
            let common = open
                .iter()
                .zip(&groups)
                .take_while(|(a, (k, _))| *a == k)
                .count();
            open.truncate(common);
            for (key, name) in groups.iter().skip(common) {
                open.push(key.clone());
                if open[..open.len() - 1]
                    .iter()
                    .any(|k| view.collapsed.contains(k))
                {
                    continue;
                }
                out.push(Row::Group {
                    key: key.clone(),
                    label: name.clone(),
                    depth: open.len(),
                    count: counts.get(key).copied().unwrap_or(0),
                });
            }
            if !open.iter().any(|k| view.collapsed.contains(k)) {
                out.push(Row::Unit {
                    index: i,
                    depth: groups.len() + 1,
                });
            }
        }
    }
    out
}

fn side_title(state: &GameState, side: &kepi_game::roster::Side) -> String {
    let units = state.units.iter().filter(|u| u.unit.side == *side);
    // A player's seat while strengths are hidden: no sum of placeholders.
    if units.clone().any(|u| u.strength_hidden) {
        return format!("{side}  (strengths hidden)");
    }
    let (now, max) = units.fold((0u32, 0u32), |(a, b), u| {
        (a + u.strength, b + u.max_strength)
    });
    format!("{side}  ({now}/{max})")
}

/// Level chip colour.
pub fn level_color(l: Level) -> Color32 {
    match l {
        Level::Steady => Color32::from_rgb(70, 150, 90),
        Level::Shaken => Color32::from_rgb(210, 170, 50),
        Level::Broken => Color32::from_rgb(220, 110, 40),
        Level::Routed => Color32::from_rgb(200, 60, 60),
    }
}

/// A strength bar: filled part = strength / max.
pub fn strength_bar(ui: &mut Ui, now: u32, max: u32, width: f32) {
    let (rect, resp) = ui.allocate_exact_size(vec2(width, 12.0), Sense::hover());
    let frac = if max == 0 {
        0.0
    } else {
        now as f32 / max as f32
    };
    let mut fill = rect;
    fill.set_width(rect.width() * frac.clamp(0.0, 1.0));
    let color = if frac > 0.66 {
        Color32::from_rgb(70, 150, 90)
    } else if frac > 0.33 {
        Color32::from_rgb(210, 170, 50)
    } else {
        Color32::from_rgb(200, 70, 60)
    };
    ui.painter().rect_filled(fill, 2.0, color);
    ui.painter().rect_stroke(
        rect,
        2.0,
        Stroke::new(1.0, ui.visuals().weak_text_color()),
        StrokeKind::Inside,
    );
    resp.on_hover_text(format!("{now} of {max}"));
}

/// The markers of a unit as short chips, the whole word on hover: a roster row stays one line.
/// `system`: the unit's rule set, whose words the chips are (issue 45).
pub fn markers_ui(ui: &mut Ui, u: &UnitState, system: RuleSetRef) {
    // A level hidden from this seat is a placeholder: no chip says "steady".
    if u.strength_hidden {
        chip(ui, "?", Color32::GRAY).on_hover_text("level hidden from your seat");
    } else {
        chip(ui, &level_short(u.level), level_color(u.level)).on_hover_text(u.level.to_string());
    }
    for (text, full, c) in markers(u, system) {
        chip(ui, text, c).on_hover_text(full);
    }
}

/// A unit's markers as the roster's chips: short text, the whole on hover, colour (each row draws
/// them and counts them for its width; nothing is allocated). The engine's flags the unit
/// carries, in the rule set's words (`RuleSet::flag_chip`), then the rule set's own kinds
/// (`RuleSet::unit_markers`, issue 45), as the set declares them.
fn markers<'a>(
    u: &'a UnitState,
    system: RuleSetRef,
) -> impl Iterator<Item = (&'static str, &'static str, Color32)> + 'a {
    let color = |tone: Tone| match tone {
        Tone::Info => Color32::from_rgb(90, 130, 190),
        Tone::Warn => Color32::from_rgb(210, 150, 40),
        Tone::Alarm => Color32::from_rgb(200, 60, 60),
    };
    let flags = Flag::ALL
        .iter()
        .filter(|f| u.flag(**f))
        .filter_map(move |f| system.flag_chip(*f))
        .map(move |c| (c.tag, c.what, color(c.tone)));
    let declared = system
        .unit_markers()
        .iter()
        .filter(|k| u.has_mark(k.name))
        .map(move |k| (k.tag, k.what, color(k.tone)));
    flags.chain(declared)
}

/// Height of every roster row: one line each, so the virtualised list fills the panel.
pub const ROSTER_ROW_H: f32 = 24.0;
/// Width a unit row needs after its name: the strength bar and numbers, fatigue, and one short
/// chip per marker (the name gets the rest, elided, the whole on hover). Measured in the row's
/// fonts: a guess of 34 points a chip cut the last one at the row's end (1870's "sea" after
/// "mv": issue 46). `bar`: with the strength bar (a narrow column leaves it out, and keeps the
/// numbers and every chip).
fn right_width(ui: &Ui, u: &UnitState, system: RuleSetRef, bar: bool) -> f32 {
    let gap = ui.spacing().item_spacing.x;
    let small = egui::TextStyle::Small.resolve(ui.style());
    let mono = egui::FontId::monospace(small.size);
    let painter = ui.painter();
    let text_w = |t: String, font: &egui::FontId| {
        painter
            .layout_no_wrap(t, font.clone(), Color32::WHITE)
            .size()
            .x
    };
    // kit::chip: the text, 5 points of margin each side and its 1-point stroke.
    let chip_w = |t: &str| text_w(t.to_string(), &small) + 2.0 * 5.0 + 2.0 + gap;
    let strength = if u.strength_hidden {
        text_w("?".into(), &mono) + gap
    } else {
        let bar = if bar { STRENGTH_BAR_W + gap } else { 0.0 };
        bar + text_w(format!("{}/{}", u.strength, u.max_strength), &mono) + gap
    };
    let fatigue = if u.fatigue > 0 {
        text_w(format!("f{}", u.fatigue), &small) + gap
    } else {
        0.0
    };
    let level = if u.strength_hidden {
        chip_w("?")
    } else {
        chip_w(&level_short(u.level))
    };
    let chips: f32 = markers(u, system).map(|(t, _, _)| chip_w(t)).sum();
    // The gap after the name, and a little room for the row's own rounding.
    gap + strength + fatigue + level + chips + 4.0
}

/// The roster's strength bar, where the column has room for it.
const STRENGTH_BAR_W: f32 = 44.0;
/// The least of a unit's name a roster row shows (elided, the whole on hover).
const NAME_MIN_W: f32 = 32.0;

/// A level's chip: its first two letters, the first capitalised ("St", "Sh").
fn level_short(l: Level) -> String {
    let level = l.to_string();
    let mut short: String = level.chars().take(2).collect();
    if let Some(first) = short.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    short
}

/// A child Ui laid out left to right in `rect` (allocated by the caller), so a row's content can
/// never make it taller or move the rows below.
fn row_ui(ui: &mut Ui, rect: egui::Rect) -> Ui {
    ui.new_child(
        egui::UiBuilder::new()
            .max_rect(rect)
            .layout(egui::Layout::left_to_right(egui::Align::Center)),
    )
}

/// The roster's rows, kept per state of the game and roster options (shared with the frame that
/// draws them).
pub type RosterRows = super::state::Memo<((usize, String), RosterView), std::sync::Arc<Vec<Row>>>;

/// Roster view options.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RosterView {
    /// Text filter on names, ids, formations.
    pub filter: String,
    /// Hide eliminated units.
    pub hide_eliminated: bool,
    /// Only the units the phase still waits for ([`kepi_game::engine::flow::is_still_to_act`], the
    /// checklist's count).
    pub only_to_act: bool,
    /// Collapsed group keys ("german", "german/III Corps").
    pub collapsed: HashSet<String>,
    /// A player's seat on the network: this side's roster comes first and open; the other
    /// sides' start closed (opened to pick a target). Derived each frame from the seat.
    pub seat_side: Option<kepi_game::roster::Side>,
    /// The other sides opened by the player (they start closed; see `seat_side`).
    pub opened: HashSet<String>,
}

impl RosterView {
    /// Whether the group `key` is closed now: a side other than the seat's is closed until
    /// opened, any other group until collapsed.
    pub fn closed(&self, key: &str) -> bool {
        if self.foreign(key) {
            !self.opened.contains(key)
        } else {
            self.collapsed.contains(key)
        }
    }

    /// Opens a closed group, or closes an open one.
    pub fn toggle(&mut self, key: &str) {
        let set = if self.foreign(key) {
            &mut self.opened
        } else {
            &mut self.collapsed
        };
        if !set.remove(key) {
            set.insert(key.to_string());
        }
    }

    /// `key` is a side's header, and not the seat's side.
    fn foreign(&self, key: &str) -> bool {
        self.seat_side
            .is_some_and(|own| !key.contains('/') && key != own.to_string())
    }
}

/// The roster panel: its options and its rows for them (kept while neither the game nor the
/// options change).
#[derive(Default)]
pub struct RosterPanel {
    /// Search, filters, folded groups.
    pub options: RosterView,
    /// The rows for the current game and options.
    rows: RosterRows,
    /// Names fitted to their room, kept (only names too long for it are measured again).
    fitted: Fitted,
}

/// Unit names too long for their row, fitted to it by [`fit_keeping_number`] and kept by name and
/// width: a row is drawn every frame, and fitting measures the name a few times.
#[derive(Default)]
struct Fitted {
    kept: std::collections::HashMap<(String, u32), String>,
}

impl Fitted {
    /// At most this many fitted names are kept (then the cache starts again).
    const MAX: usize = 4096;

    /// `text` as it fits in `width` in the body font: whole, or fitted by
    /// [`fit_keeping_number`].
    fn fit(&mut self, ui: &Ui, text: &str, width: f32) -> String {
        let fits = |t: &str| super::widgets::text_width(ui, t, egui::TextStyle::Body) <= width;
        if fits(text) {
            return text.to_string();
        }
        let key = (text.to_string(), width.to_bits());
        if let Some(v) = self.kept.get(&key) {
            return v.clone();
        }
        let v = fit_keeping_number(text, fits);
        if self.kept.len() >= Self::MAX {
            self.kept.clear();
        }
        self.kept.insert(key, v.clone());
        v
    }
}

/// `text` cut to what `fits`, keeping its last word when that holds a digit ("Prussian 5th
/// Infantry Division battalion 7" -> "Prussian 5th Infa… 7"), else its start with "…" (the whole
/// is on hover). The longest start that fits is found by halving.
pub fn fit_keeping_number(text: &str, fits: impl Fn(&str) -> bool) -> String {
    if fits(text) {
        return text.to_string();
    }
    let last = text
        .rsplit_once(' ')
        .map(|(_, l)| l)
        .filter(|l| l.chars().any(|c| c.is_ascii_digit()) && l.chars().count() <= 12);
    let tail = last.map_or_else(|| "…".to_string(), |l| format!("… {l}"));
    let chars: Vec<char> = text.chars().collect();
    let head_max = chars
        .len()
        .saturating_sub(last.map_or(0, |l| l.chars().count() + 1));
    let with = |n: usize| -> String {
        let head: String = chars.iter().take(n).collect();
        format!("{}{tail}", head.trim_end())
    };
    let (mut lo, mut hi) = (0, head_max);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if fits(&with(mid)) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    with(lo)
}

impl RosterPanel {
    /// Draws the roster: a click picks the acting unit, a right-click the target, Ctrl-click an
    /// attacker of a hex combat. The search and filters first, then the rows ("roster_rows"),
    /// laid out only for those in view: group headers fold on a click, units as
    /// [`RosterPanel::unit_row_ui`] draws them.
    pub fn ui(&mut self, ui: &mut Ui, view: &View) -> Vec<Command> {
        let mut out = Vec::new();
        self.filters_ui(ui);
        // Derived each frame: a player's seat on the network sees its own side's roster first.
        self.options.seat_side = view.mode.side();
        let key = (super::state::game_key(view.game), self.options.clone());
        let options = &self.options;
        let rows = self
            .rows
            .get(key, || std::sync::Arc::new(rows(view.state(), options)))
            .clone();
        let row_h = ROSTER_ROW_H;
        let mut toggle: Option<String> = None;
        egui::ScrollArea::vertical()
            .id_salt("roster_rows")
            .auto_shrink([false, false])
            .show_rows(ui, row_h, rows.len(), |ui, range| {
                let state = view.state();
                for row in &rows[range] {
                    let (rect, _) =
                        ui.allocate_exact_size(vec2(ui.available_width(), row_h), Sense::hover());
                    let mut ui = row_ui(ui, rect);
                    match row {
                        Row::Group {
                            key,
                            label,
                            depth,
                            count,
                        } => {
                            if self.group_row_ui(&mut ui, rect, key, label, *depth, *count) {
                                toggle = Some(key.clone());
                            }
                        }
                        Row::Unit { index, depth } => {
                            let Some(u) = state.units.get(*index) else {
                                continue;
                            };
                            self.unit_row_ui(&mut ui, rect, view, u, *depth, &mut out);
                        }
                    }
                }
            });
        if let Some(k) = toggle {
            self.options.toggle(&k);
        }
        out
    }

    /// The roster's heading with its search ("roster_search"), the filters, and how to pick.
    fn filters_ui(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            ui.heading("Roster");
            super::keys::field(
                ui,
                egui::TextEdit::singleline(&mut self.options.filter)
                    .hint_text("search units")
                    .desired_width(140.0),
                "roster_search",
            );
        });
        ui.horizontal(|ui| {
            ui.checkbox(&mut self.options.hide_eliminated, "hide eliminated");
            ui.checkbox(&mut self.options.only_to_act, "still to act");
        });
        ui.label(
            RichText::new("click: acting unit · right-click: target")
                .small()
                .weak(),
        );
        ui.separator();
    }

    /// A group's header row at `rect`: folded or open, its label and how many units are under it.
    /// True when it was clicked (to fold or open it).
    fn group_row_ui(
        &self,
        ui: &mut Ui,
        rect: egui::Rect,
        key: &str,
        label: &str,
        depth: usize,
        count: usize,
    ) -> bool {
        let row_h = ROSTER_ROW_H;
        let indent = depth as f32 * 12.0;
        ui.add_space(indent);
        let open = !self.options.closed(key);
        let arrow = if open { "[-]" } else { "[+]" };
        // The count has its own room at the row's end, never elided (issue
        // 46: a campaign battle's long formation names cut it off); the name
        // takes the rest, elided, whole on hover.
        let count = format!("· {count}");
        let count_w = super::widgets::text_width(ui, &count, egui::TextStyle::Body)
            + ui.spacing().item_spacing.x
            + 4.0;
        let count = RichText::new(count).strong();
        let name_w = (rect.width() - indent - count_w).max(NAME_MIN_W);
        let (slot, _) = ui.allocate_exact_size(vec2(name_w, row_h), Sense::hover());
        let mut name_ui = row_ui(ui, slot);
        let text = RichText::new(format!("{arrow} {label}")).strong();
        let r = name_ui
            .add(
                egui::Label::new(text)
                    .truncate()
                    .show_tooltip_when_elided(false)
                    .sense(Sense::click()),
            )
            .on_hover_text(label);
        let c = ui.add(egui::Label::new(count).sense(Sense::click()));
        r.clicked() || c.clicked()
    }

    /// A unit's row at `rect`: its name (marked when acting or target, struck out when
    /// eliminated; a click picks it), then its strength, fatigue and markers.
    fn unit_row_ui(
        &mut self,
        ui: &mut Ui,
        rect: egui::Rect,
        view: &View,
        u: &UnitState,
        depth: usize,
        out: &mut Vec<Command>,
    ) {
        let row_h = ROSTER_ROW_H;
        let selected = view.selected == Some(u.id());
        let target = view.target == Some(u.id());
        let indent = depth as f32 * 12.0;
        ui.add_space(indent);
        let mark = if selected {
            "> "
        } else if target {
            "@ "
        } else {
            ""
        };
        let room = rect.width() - indent;
        let system = view.state().system;
        let bar = room - right_width(ui, u, system, true) >= 60.0;
        let name_w = (room - right_width(ui, u, system, bar)).max(NAME_MIN_W);
        // A name too long for its room keeps its number at the end (a campaign
        // battle's units differ only there: "... Division battalion 7"; issue
        // 46), the whole on hover.
        let whole = format!("{mark}{}", u.unit.name);
        let shown = self.fitted.fit(ui, &whole, name_w - 2.0);
        let mut name = RichText::new(shown);
        if selected {
            name = name.strong().color(ui.visuals().selection.stroke.color);
        } else if target {
            name = name.strong().color(Color32::from_rgb(220, 120, 60));
        }
        if u.eliminated() {
            name = name.strikethrough();
        }
        // The name takes what the row's strength and markers leave, elided (the
        // whole on hover): never a second line.
        // In a narrow column the strength bar goes (its numbers stay) before a
        // chip would be cut at the edge.
        let (slot, _) = ui.allocate_exact_size(vec2(name_w, row_h), Sense::hover());
        let mut name_ui = row_ui(ui, slot);
        let r = name_ui
            .add(
                egui::Label::new(name)
                    .truncate()
                    .show_tooltip_when_elided(false)
                    .sense(Sense::click()),
            )
            .on_hover_text(&u.unit.name);
        // Read out (and found by a test) as the whole name, as drawn when it fits.
        r.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, &whole));
        // SPI-C2, FR-C1: Ctrl-click adds or removes an attacker of the hex combat.
        if r.clicked() && ui.input(|i| i.modifiers.command) {
            out.push(Command::ToggleAttacker(u.id().to_string()));
        } else if r.clicked() {
            out.push(Command::Select(u.id().to_string()));
        }
        if r.secondary_clicked() {
            out.push(Command::Target(u.id().to_string()));
        }
        if u.strength_hidden {
            ui.label(RichText::new("?").monospace().small())
                .on_hover_text(
                    "this unit's strength is hidden from your seat (the umpire's kepi has it)",
                );
        } else {
            if bar {
                strength_bar(ui, u.strength, u.max_strength, STRENGTH_BAR_W);
            }
            ui.label(
                RichText::new(format!("{}/{}", u.strength, u.max_strength))
                    .monospace()
                    .small(),
            );
        }
        if u.fatigue > 0 {
            ui.label(RichText::new(format!("f{}", u.fatigue)).small())
                .on_hover_text(format!("{} fatigue", u.fatigue));
        }
        markers_ui(ui, u, system);
    }
}

/// In-place editor for the selected unit: every change is an action (undoable).
pub fn unit_editor_ui(ui: &mut Ui, view: &View, out: &mut Vec<Command>) {
    let Some(u) = view.selected.and_then(|id| view.state().unit(id)) else {
        ui.label(RichText::new("Select a unit in the roster to edit it.").weak());
        return;
    };
    let id = u.id().to_string();
    ui.horizontal(|ui| {
        ui.strong(&u.unit.name);
        ui.label(
            RichText::new(format!(
                "{} · {} · {}",
                u.unit.side,
                u.unit.arm,
                u.unit.quality.map(|q| q.to_string()).unwrap_or_default()
            ))
            .weak(),
        );
    });
    if u.strength_hidden {
        ui.label(
            RichText::new(
                "This unit's strength, fatigue, level and leaders are hidden from your seat: \
                 the umpire's kepi has them, and rolls against it with them.",
            )
            .weak(),
        );
        return;
    }
    egui::Grid::new("unit_editor")
        .num_columns(2)
        .show(ui, |ui| {
            let system = view.state().system.system();
            for &counter in Counter::for_system(system) {
                let label = counter.to_string();
                let label = label.as_str();
                let (now, max) = u.count(counter);
                ui.label(label);
                ui.horizontal(|ui| {
                    if ui
                        .small_button(format!("{label} -1"))
                        .on_hover_text(format!("{label} -1"))
                        .clicked()
                        && now > 0
                    {
                        out.push(Command::Act(Action::SetCount {
                            unit: id.clone(),
                            counter,
                            value: now - 1,
                            notes: Vec::new(),
                        }));
                    }
                    ui.label(RichText::new(format!("{now}")).monospace().strong());
                    if ui
                        .small_button(format!("{label} +1"))
                        .on_hover_text(format!("{label} +1"))
                        .clicked()
                        && now < max
                    {
                        out.push(Command::Act(Action::SetCount {
                            unit: id.clone(),
                            counter,
                            value: now + 1,
                            notes: Vec::new(),
                        }));
                    }
                    if counter.has_rule_maximum() {
                        ui.label(RichText::new(format!("of {max}")).weak());
                    }
                });
                ui.end_row();
            }
            if kepi_game::engine::game::has_levels(system) {
                ui.label("level");
                ui.horizontal(|ui| {
                    for l in Level::ALL.iter().copied() {
                        if ui.selectable_label(u.level == l, l.to_string()).clicked()
                            && u.level != l
                        {
                            out.push(Command::Act(Action::SetLevel {
                                unit: id.clone(),
                                level: l,
                            }));
                        }
                    }
                });
                ui.end_row();
            }
            ui.label("markers");
            // A wrapped row in a grid cell is drawn over the next row (egui #7688): the markers are
            // one wrapped block inside a vertical cell, whose height the grid reads.
            ui.vertical(|ui| {
                ui.horizontal_wrapped(|ui| {
                    for &f in Flag::for_system(system) {
                        let on = u.flag(f);
                        if ui.selectable_label(on, f.to_string()).clicked() {
                            out.push(Command::Act(Action::SetFlag {
                                unit: id.clone(),
                                flag: f.into(),
                                on: !on,
                            }));
                        }
                    }
                    // The rule set's own kinds (issue 45), with what each means on hover.
                    for k in kepi_game::registry::get(system).unit_markers() {
                        let on = u.has_mark(k.name);
                        if ui
                            .selectable_label(on, k.label)
                            .on_hover_text(format!("{} ({})", k.what, k.rule))
                            .clicked()
                        {
                            out.push(Command::Act(
                                kepi_game::engine::game::unit_wire::mark_action(
                                    id.clone(),
                                    k.name,
                                    !on,
                                ),
                            ));
                        }
                    }
                });
            });
            ui.end_row();
            if kepi_game::registry::get(system).has_supply() {
                ui.label("supply");
                ui.horizontal(|ui| {
                    for sup in kepi_game::engine::game::Supply::ALL.iter().copied() {
                        if ui
                            .selectable_label(u.supply == sup, sup.to_string())
                            .clicked()
                            && u.supply != sup
                        {
                            out.push(Command::Act(Action::SetSupply {
                                unit: id.clone(),
                                supply: sup,
                            }));
                        }
                    }
                });
                ui.end_row();
            }
            if kepi_game::registry::get(system).uses_hexes() {
                let label = ui.label("hex").id;
                hex_field_ui(ui, view.state(), u, &id, label, true, out);
                ui.end_row();
            }
        });
    unit_details_ui(ui, u);
}

/// Where a unit of a hex rule set stands: its hex (or off the map), typed and placed with Enter or
/// Place. The field shows the unit's position now unless the umpire is typing in it, so undo or a
/// move on the map shows at once. Units come onto the map from off it this way (a scenario's
/// reinforcements, the SPI scenario's whole order of battle).
///
/// Text that is no position is said short in the field's row ("not a hex: type one like 2739"),
/// whole on the field's and the message's hover and, with `refusal_below` (the unit editor, not
/// the row above the map, which keeps its height), wrapped under the field (issue 46: the whole
/// refusal was cut to the row's width).
pub(crate) fn hex_field_ui(
    ui: &mut Ui,
    state: &kepi_game::engine::game::GameState,
    u: &UnitState,
    id: &str,
    label: egui::Id,
    refusal_below: bool,
    out: &mut Vec<Command>,
) {
    if !refusal_below {
        hex_field_row(ui, state, u, id, label, out);
        return;
    }
    ui.vertical(|ui| {
        if let Some(full) = hex_field_row(ui, state, u, id, label, out) {
            // Wrapped to the row's width, under it.
            let width = ui.min_rect().width();
            ui.scope(|ui| {
                ui.set_max_width(width);
                ui.add(
                    egui::Label::new(RichText::new(full).color(ui.visuals().warn_fg_color)).wrap(),
                );
            });
        }
    });
}

/// The hex field's row ([`hex_field_ui`]): the field, Move or Place, off map and what the field
/// says of its text; the whole refusal when the text is no position.
fn hex_field_row(
    ui: &mut Ui,
    state: &kepi_game::engine::game::GameState,
    u: &UnitState,
    id: &str,
    label: egui::Id,
    out: &mut Vec<Command>,
) -> Option<String> {
    let key = ui.make_persistent_id(("unit_hex_field", id));
    let typing: Option<String> = ui.data_mut(|d| d.get_temp(key));
    let mut text = typing.clone().unwrap_or_else(|| match u.position {
        kepi_game::roster::Position::Hex { .. } => u.position.to_string(),
        _ => String::new(),
    });
    let on_map = matches!(u.position, kepi_game::roster::Position::Hex { .. });
    // A hex of this game's board, not another's ("0304" on 1870's map: issue 46).
    let example = super::map::example_hex(state);
    ui.horizontal(|ui| -> Option<String> {
        let field = super::keys::field(
            ui,
            egui::TextEdit::singleline(&mut text)
                .desired_width(48.0)
                .hint_text(example.as_str()),
            ("unit_hex", id),
        )
        .labelled_by(label);
        let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        let place = ui
            .button(if on_map { "Move" } else { "Place" })
            .on_hover_text("put the unit on this hex (undoable)")
            .clicked();
        let parsed = text.trim().parse::<kepi_game::roster::Position>();
        let mut done = false;
        if enter || place {
            match &parsed {
                // A unit off the map is placed (no "mv" mark, logged as a placement); one on
                // it moves.
                Ok(to) if *to != u.position && !on_map => {
                    out.push(Command::Act(Action::Place {
                        unit: id.to_string(),
                        to: *to,
                    }));
                    done = true;
                }
                Ok(to) if *to != u.position => {
                    out.push(Command::Act(Action::Move {
                        unit: id.to_string(),
                        to: *to,
                        notes: Vec::new(),
                        mp: None,
                        effects: Vec::new(),
                    }));
                    done = true;
                }
                Ok(_) => done = true,
                Err(_) => {}
            }
        }
        if on_map
            && ui
                .small_button("off map")
                .on_hover_text("take the unit off the map (undoable)")
                .clicked()
        {
            out.push(Command::Act(Action::Move {
                unit: id.to_string(),
                to: kepi_game::roster::Position::Off,
                notes: Vec::new(),
                mp: None,
                effects: Vec::new(),
            }));
            done = true;
        }
        let escape = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Escape));
        let pending = (typing.is_some() || field.changed()) && !done && !escape;
        // What the field says of the text sits in a slot of fixed width, elided (whole on
        // hover): a long message appearing with the first key widened the row and moved the
        // field from under the pointer mid-word ("0303" read "0", issue 26).
        let refusal = match (&parsed, text.trim().is_empty()) {
            (Err(e), false) => Some(format!(
                "{e}; a hex label is its column then its row, e.g. {example}"
            )),
            _ => None,
        };
        let (said, hover) = if let Some(full) = &refusal {
            // Short enough for the slot: the whole refusal on hover (and, in the unit editor,
            // under the field).
            field.clone().on_hover_text(full.as_str());
            (
                RichText::new(format!("not a hex: type one like {example}"))
                    .color(ui.visuals().warn_fg_color),
                full.clone(),
            )
        } else if pending && parsed.as_ref().is_ok_and(|p| *p != u.position) {
            let t = "not placed yet (Enter or Place; Esc to drop)";
            (RichText::new(t).weak(), t.to_string())
        } else if !on_map {
            (
                RichText::new("off the map").weak(),
                "off the map".to_string(),
            )
        } else {
            (RichText::new(""), String::new())
        };
        let h = ui.spacing().interact_size.y;
        let w = ui.available_width().clamp(0.0, 220.0);
        let (slot, _) = ui.allocate_exact_size(egui::vec2(w, h), egui::Sense::hover());
        let mut said_ui = ui.new_child(
            egui::UiBuilder::new()
                .max_rect(slot)
                .layout(egui::Layout::left_to_right(egui::Align::Center)),
        );
        let r = said_ui.add(
            egui::Label::new(said)
                .truncate()
                .show_tooltip_when_elided(false),
        );
        if !hover.is_empty() {
            r.on_hover_text(hover);
        }
        // What is typed is kept apart until it is placed or dropped; the field shows the unit's
        // position otherwise.
        ui.data_mut(|d| {
            if pending {
                d.insert_temp(key, text.clone());
            } else {
                d.remove::<String>(key);
            }
        });
        refusal
    })
    .inner
}

/// Everything else kepi knows about a unit, read from its card and its state: where it stands in the
/// order of battle, its position and facing, weapon, formation, supply, arrival, notes.
fn unit_details_ui(ui: &mut Ui, u: &UnitState) {
    let card = &u.unit;
    let oob: Vec<&str> = [
        &card.oob.army,
        &card.oob.corps,
        &card.oob.division,
        &card.oob.brigade,
    ]
    .into_iter()
    .filter_map(|x| x.as_deref())
    .collect();
    let mut rows: Vec<(&str, String)> = vec![
        ("id", card.id.clone()),
        ("nation", card.nation.clone()),
        ("order of battle", oob.join(" > ")),
        ("position", u.position.to_string()),
        (
            "facing",
            u.facing.map(|f| f.to_string()).unwrap_or_default(),
        ),
        ("supply", u.supply.to_string()),
        (
            "weapon",
            card.weapon.map(|w| w.to_string()).unwrap_or_default(),
        ),
        (
            "formation",
            card.formation.map(|f| f.to_string()).unwrap_or_default(),
        ),
        ("leaders", format!("{} of {}", u.leaders, u.max_leaders)),
        ("melees this turn", u.melees.to_string()),
        ("location", card.location.clone().unwrap_or_default()),
        (
            "arrives",
            card.arrives
                .map(|t| format!("turn {t}"))
                .unwrap_or_default(),
        ),
        ("notes", card.notes.clone()),
    ];
    rows.retain(|(_, v)| !v.is_empty());
    egui::CollapsingHeader::new("Details")
        .id_salt("unit_details")
        .show(ui, |ui| {
            egui::Grid::new("unit_details_grid")
                .num_columns(2)
                .show(ui, |ui| {
                    for (k, v) in rows {
                        ui.label(RichText::new(k).weak());
                        ui.add(egui::Label::new(v).wrap());
                        ui.end_row();
                    }
                });
        });
}

#[cfg(test)]
mod tests {
    use super::fit_keeping_number;

    #[test]
    fn a_cut_name_keeps_its_number_at_the_end() {
        // One "point" a character: a name fits when it has at most 20.
        let fits = |t: &str| t.chars().count() <= 20;
        let cut = fit_keeping_number("Prussian 5th Infantry Division battalion 7", fits);
        assert_eq!(cut, "Prussian 5th Infa… 7");
        assert!(fits(&cut));
        let cut = fit_keeping_number("Prussian 5th Infantry Division battalion 12", fits);
        assert!(cut.ends_with("… 12") && fits(&cut), "{cut}");
        // No number at the end: its start, elided.
        let cut = fit_keeping_number("Garde-Füsilier-Regiment of the Guard", fits);
        assert_eq!(cut, "Garde-Füsilier-Regi…");
        assert_eq!(
            fit_keeping_number("2/12th Grenadiers", fits),
            "2/12th Grenadiers"
        );
        // Nothing fits: what it can.
        assert_eq!(
            fit_keeping_number("abc 7", |t| t.chars().count() <= 3),
            "… 7"
        );
    }
}
