//! The Help menu and its window: the keyboard shortcuts (from [`super::keys::SHORTCUTS`], the
//! table the key handling acts on), a one-page quick start for the umpire and for a player, and
//! the rule-id glossary with a filter.
//!
//! The panel owns its state (which page is open, the glossary's filter) and draws itself; it
//! changes nothing in the game.

use egui::{RichText, Ui};

use super::keys;

/// A page of Help.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Page {
    /// Help > Keyboard shortcuts.
    Shortcuts,
    /// Help > Quick start.
    QuickStart,
    /// Help > Rule glossary.
    Glossary,
}

impl Page {
    /// Every page, in menu order.
    pub const ALL: [Page; 3] = [Page::Shortcuts, Page::QuickStart, Page::Glossary];

    /// The page's title (its menu entry and tab).
    pub fn title(self) -> &'static str {
        match self {
            Page::Shortcuts => "Keyboard shortcuts",
            Page::QuickStart => "Quick start",
            Page::Glossary => "Rule glossary",
        }
    }
}

/// The umpire's quick start, one step a line.
pub const UMPIRE_START: &[&str] = &[
    "File > New from scenario picks a battle; the rule set comes with it. Your game is kept in kepi's folder from its first action (File > Save As puts it where you choose).",
    "The roster (left) holds every unit: strength, fatigue, level and markers. Click a unit to act with it; right-click or Ctrl-click another to make it the target (in hex rule sets, click on the map).",
    "The top bar shows the turn and phase; Next phase (Ctrl+Shift+N) moves on. The checklist at the top of the resolver says what the phase still waits for, and \"still to act\" lists those units in the roster.",
    "Due checks (rally, fatigue, morale) appear above the resolver when a result sets them off: Roll makes them, Mark done or Waive (with a reason) settles them by hand.",
    "Anything odd (a unit that already fired, the wrong phase) is a warning shown before you roll: you decide, and the log keeps the note with the roll.",
    "Every change is in the log (right) with its rule ids and dice, and can be undone (Ctrl+Z). Verify chain checks the log's hashes; File > Print and export writes rosters, cards and the battle report.",
    "File > Host this game lets players join from their own kepi; you approve or reject their requests in the Due panel.",
];

/// A player's quick start, one step a line.
pub const PLAYER_START: &[&str] = &[
    "Pick your unit in the roster (or on the map), then the enemy unit it acts against.",
    "Choose the action's tab in the resolver (fire, melee, rally...) and tick the situation: cover, enfilade, formation. Every modifier is listed with its rule id and where its value comes from.",
    "The exact odds of every outcome show before you roll. A \"house\" badge marks a value from kepi's defaults, not your printed card.",
    "Roll and apply (Ctrl+R) rolls kepi's seeded dice; with Dice: mine, type the dice you rolled at the table and Apply my dice. The result card says what happened; Undo this takes it back while nothing came after.",
    "Dice: mine asks for every die the action rolls, one field per group as the rules name them (GSP: hit dice (d6 x guns), then accuracy of aim (2d6 per hit); PW melee: attacker d6, defender d6). Fill every group of a known number; a group the roll needs only on some results (accuracy of aim, P&K's leader d%) may be left empty: kepi then rolls those dice and the card says plainly \"kepi rolled these\". A die typed and not rolled is refused.",
    "On the network your seat acts for your side only; the umpire's controls (Undo, Next phase) stay with the umpire.",
];

/// Help's window and what it shows.
#[derive(Debug, Default)]
pub struct HelpPanel {
    /// The page shown; `None` while the window is closed.
    pub open: Option<Page>,
    /// The glossary's filter (id, name or text).
    pub filter: String,
}

impl HelpPanel {
    /// The Help menu (in the top bar): one entry per page.
    pub fn menu_ui(&mut self, ui: &mut Ui) {
        ui.menu_button("Help", |ui| {
            for p in Page::ALL {
                if ui.button(p.title()).clicked() {
                    self.open = Some(p);
                    ui.close();
                }
            }
        });
    }

    /// Help's window, while a page is open.
    pub fn ui(&mut self, ctx: &egui::Context) {
        let Some(mut page) = self.open else {
            return;
        };
        let mut open = true;
        egui::Window::new("Help")
            .id(egui::Id::unique("kepi_help"))
            .open(&mut open)
            .default_size([560.0, 520.0])
            .collapsible(false)
            .show(ctx, |ui| {
                ui.horizontal(|ui| {
                    for p in Page::ALL {
                        ui.selectable_value(&mut page, p, p.title());
                    }
                });
                ui.separator();
                egui::ScrollArea::vertical()
                    .id_salt("help_page")
                    .auto_shrink([false, false])
                    .show(ui, |ui| match page {
                        Page::Shortcuts => shortcuts_ui(ui),
                        Page::QuickStart => quick_start_ui(ui),
                        Page::Glossary => glossary_ui(ui, &mut self.filter),
                    });
            });
        self.open = open.then_some(page);
    }
}

fn shortcuts_ui(ui: &mut Ui) {
    egui::Grid::new("help_shortcuts")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            for s in keys::SHORTCUTS {
                ui.label(RichText::new(s.keys).monospace().strong());
                ui.label(s.what);
                ui.end_row();
            }
        });
    ui.add_space(6.0);
    ui.label(RichText::new(keys::PLAIN_KEYS_NOTE).weak());
}

fn quick_start_ui(ui: &mut Ui) {
    for (title, steps) in [
        ("For the umpire", UMPIRE_START),
        ("For a player", PLAYER_START),
    ] {
        ui.heading(title);
        for (i, s) in steps.iter().enumerate() {
            ui.label(format!("{}. {s}", i + 1));
        }
        ui.add_space(8.0);
    }
}

/// Every rule id kepi knows: RULES.md's (with names) and those registered rule sets declare.
fn glossary_ui(ui: &mut Ui, filter: &mut String) {
    ui.horizontal(|ui| {
        let l = ui.label("Filter:");
        keys::field(
            ui,
            egui::TextEdit::singleline(filter)
                .hint_text("id, name or rule set")
                .desired_width(220.0),
            "help_glossary_filter",
        )
        .labelled_by(l.id);
    });
    ui.separator();
    let rows = glossary_rows(filter);
    if rows.is_empty() {
        ui.label(RichText::new("No rule id matches.").weak());
        return;
    }
    // Each row wraps in the window's width (a grid of three columns of whole lines widened Help,
    // moving its close button from under the pointer, issue 46): the id in a column of one
    // width, its name and the text it comes from under each other beside it.
    let id_w = ui.spacing().interact_size.x * 2.0;
    for (id, name, source) in rows {
        ui.horizontal_top(|ui| {
            let size = egui::vec2(id_w, ui.spacing().interact_size.y);
            ui.allocate_ui_with_layout(size, egui::Layout::left_to_right(egui::Align::Min), |ui| {
                ui.set_min_size(size);
                ui.label(RichText::new(id).monospace().strong());
            });
            ui.vertical(|ui| {
                ui.label(name);
                ui.label(RichText::new(source).weak());
            });
        });
        ui.add_space(2.0);
    }
}

/// The glossary's rows for `filter`: (id, name, the text it comes from).
pub fn glossary_rows(filter: &str) -> Vec<(String, String, String)> {
    let mut rows: Vec<(String, String, String)> = kepi_game::rules::glossary::filtered(filter)
        .map(|g| (g.id.to_string(), g.name.to_string(), g.source.to_string()))
        .collect();
    let f = filter.trim().to_lowercase();
    for system in kepi_game::registry::all() {
        let set = kepi_game::registry::get(system);
        for id in set.rule_ids() {
            let source = format!("{} (declared by the rule set)", set.title());
            let row = (
                id.to_string(),
                "a registered rule set's own".to_string(),
                source,
            );
            if f.is_empty()
                || [&row.0, &row.1, &row.2]
                    .iter()
                    .any(|t| t.to_lowercase().contains(&f))
            {
                rows.push(row);
            }
        }
    }
    rows
}
