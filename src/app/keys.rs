//! The keyboard: kepi's shortcuts (one list, shown in Help > Keyboard shortcuts and in the
//! buttons' tooltips), and the text fields they must never take a keystroke from.
//!
//! Every text field gets an id that depends only on its name and the scope it is drawn in, never
//! on what is laid out above it: a line that appears above a field while it is typed in (a "Set
//! by you" box, a note) no longer gives it a new id, so it keeps its focus and every key lands.
//! The plain-letter shortcuts (N, R) act only when no widget has the keyboard and the pointer is
//! not over a text field.

use std::hash::Hash;

use egui::{Id, Key, KeyboardShortcut, Modifiers, Response, Ui};

use super::state::{AppState, Command};

/// Every keyboard shortcut, with what it does (Help > Keyboard shortcuts lists these).
pub const SHORTCUTS: &[(&str, &str)] = &[
    (
        "Ctrl+S",
        "save (a game kept in kepi's folder asks where: Save As)",
    ),
    (
        "Ctrl+Z",
        "undo the last action (a whole resolution at once)",
    ),
    ("Ctrl+Shift+Z", "redo"),
    (
        "R",
        "roll and apply the resolver's form (dice \"mine\": apply the dice you typed)",
    ),
    ("N", "next phase (the next turn after the last phase)"),
    (
        "Enter",
        "in a unit's hex field: place it; in the dice tray: roll",
    ),
    ("Esc", "in a unit's hex field: drop what you typed"),
];

/// Why the plain letters never fire while you type (said under the list in Help).
pub const PLAIN_KEYS_NOTE: &str = "R and N act only when no text field has the keyboard and the \
     pointer is not over one: a letter typed into a field never rolls or changes the phase.";

/// The id of the field `name` in `ui`'s scope: the same every frame, whatever is drawn above it.
pub fn stable_id(ui: &Ui, name: impl Hash + std::fmt::Debug) -> Id {
    ui.scope_id().with(("kepi_field", name))
}

/// Adds a text field under a stable id (see the module's note) and notes when the pointer is
/// over it, so the plain-letter shortcuts keep still.
pub fn field(ui: &mut Ui, edit: egui::TextEdit<'_>, name: impl Hash + std::fmt::Debug) -> Response {
    let id = stable_id(ui, name);
    let r = ui.add(edit.id(id));
    if r.contains_pointer() {
        let pass = ui.ctx().cumulative_pass_nr();
        ui.ctx().data_mut(|d| d.insert_temp(pointer_key(), pass));
    }
    r
}

/// Draws `add` (a number field) in a scope of its own with a stable id, so the field's id, and
/// with it the focus while a value is typed, never depends on what is laid out above it.
pub fn stable<R>(
    ui: &mut Ui,
    name: impl Hash + std::fmt::Debug,
    add: impl FnOnce(&mut Ui) -> R,
) -> R {
    let id = stable_id(ui, name);
    ui.scope_builder(egui::UiBuilder::new().scope_id(id), add)
        .inner
}

fn pointer_key() -> Id {
    Id::unique("kepi_pointer_on_text_field")
}

/// The pointer was over a text field this pass.
fn pointer_on_field(ctx: &egui::Context) -> bool {
    let pass = ctx.cumulative_pass_nr();
    ctx.data(|d| d.get_temp::<u64>(pointer_key())) == Some(pass)
}

/// The modified shortcuts (Ctrl+S, Ctrl+Z, Ctrl+Shift+Z), taken before the panels draw.
pub fn modified(ctx: &egui::Context, out: &mut Vec<Command>) {
    let save = KeyboardShortcut::new(Modifiers::COMMAND, Key::S);
    let undo = KeyboardShortcut::new(Modifiers::COMMAND, Key::Z);
    let redo = KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    ctx.input_mut(|i| {
        // Redo first: Ctrl+Shift+Z also matches a plain Ctrl+Z check that ignores shift.
        if i.consume_shortcut(&redo) {
            out.push(Command::Redo);
        } else if i.consume_shortcut(&undo) {
            out.push(Command::Undo);
        }
        if i.consume_shortcut(&save) {
            out.push(Command::Save);
        }
    });
}

/// The plain letters N and R, taken after the panels drew (so a field focused this frame counts):
/// they act only when no widget had the keyboard at the frame's start or has it now, the pointer
/// is over no text field, and no dialog is open.
pub fn plain(ctx: &egui::Context, app: &AppState, focused_at_start: bool, out: &mut Vec<Command>) {
    if focused_at_start
        || ctx.egui_wants_keyboard_input()
        || pointer_on_field(ctx)
        || app.confirm.is_some()
        || app.file_dialog.open
    {
        return;
    }
    let (n, r) = ctx.input(|i| {
        let plain = i.modifiers.is_none();
        (
            plain && i.key_pressed(Key::N),
            plain && i.key_pressed(Key::R),
        )
    });
    if n {
        out.push(Command::NextPhase);
    }
    if r {
        if !app.own_dice {
            out.push(Command::ResolveAndApply {
                entered: Vec::new(),
            });
        } else if let Ok(entered) = app.resolver.entered_dice()
            && !entered.is_empty()
        {
            // Dice "mine": R applies the dice typed, never kepi's in their place.
            out.push(Command::ResolveAndApply { entered });
        }
    }
}

/// Adds a number field under a stable id (see [`stable`]).
pub fn number(
    ui: &mut Ui,
    drag: egui::DragValue<'_>,
    name: impl Hash + std::fmt::Debug,
) -> Response {
    stable(ui, name, |ui| ui.add(drag))
}
