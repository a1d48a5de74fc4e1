//! The keyboard: kepi's shortcuts (one list, shown in Help > Keyboard shortcuts and in the
//! buttons' tooltips), and the text fields they must never take a keystroke from.
//!
//! Every text field gets an id that depends only on its name and the scope it is drawn in, never
//! on what is laid out above it: a line that appears above a field while it is typed in (a "Set
//! by you" box, a note) no longer gives it a new id, so it keeps its focus and every key lands.
//! No bare letter changes the game (issue 46): Roll is Ctrl+R and Next phase Ctrl+Shift+N, keys
//! no text field takes and nobody types by accident; they keep still while Help or a dialog is
//! open.

use egui::{Key, Modifiers};

use super::resolver::ResolverState;
use super::state::{Command, View};

/// What a shortcut does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Does {
    /// Save (Save As for a game kept in kepi's folder).
    Save,
    /// Undo the last action.
    Undo,
    /// Redo.
    Redo,
    /// Roll and apply the resolver's form.
    Roll,
    /// Next phase.
    NextPhase,
    /// In a hex field or the dice tray: place or roll (the field acts on it itself).
    Enter,
    /// In a hex field: drop what was typed (the field acts on it itself).
    Escape,
}

impl Does {
    /// True for what changes the game by itself (Roll, Next phase): taken by [`playing`], after
    /// the panels, and never while Help or a dialog is open.
    pub fn plays(self) -> bool {
        matches!(self, Does::Roll | Does::NextPhase)
    }
}

/// The modifiers a shortcut is pressed with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mods {
    /// The key alone.
    Plain,
    /// Ctrl (Cmd on a Mac).
    Command,
    /// Ctrl+Shift (Cmd+Shift on a Mac).
    CommandShift,
}

impl Mods {
    /// As egui spells it.
    pub fn egui(self) -> Modifiers {
        match self {
            Mods::Plain => Modifiers::NONE,
            Mods::Command => Modifiers::COMMAND,
            Mods::CommandShift => Modifiers::COMMAND | Modifiers::SHIFT,
        }
    }
}

/// One keyboard shortcut: the keys, what they do, and how the window says it.
#[derive(Clone, Copy, Debug)]
pub struct Shortcut {
    /// The key.
    pub key: Key,
    /// Pressed with.
    pub mods: Mods,
    /// What it does.
    pub does: Does,
    /// As shown ("Ctrl+Z").
    pub keys: &'static str,
    /// What it does, for Help.
    pub what: &'static str,
    /// The window's key handler acts on it ([`modified`], [`playing`]); false for the keys a field
    /// takes itself (Enter, Esc).
    pub global: bool,
}

/// Every keyboard shortcut: the one table Help > Keyboard shortcuts lists, the buttons' tooltips
/// name, and [`modified`] and [`playing`] act on (a key they act on is found here or not at all).
pub const SHORTCUTS: &[Shortcut] = &[
    Shortcut {
        key: Key::S,
        mods: Mods::Command,
        does: Does::Save,
        keys: "Ctrl+S",
        what: "save (a game kept in kepi's folder asks where: Save As)",
        global: true,
    },
    Shortcut {
        key: Key::Z,
        mods: Mods::Command,
        does: Does::Undo,
        keys: "Ctrl+Z",
        what: "undo the last action (a whole resolution at once); in a text field, undo its typing",
        global: true,
    },
    Shortcut {
        key: Key::Z,
        mods: Mods::CommandShift,
        does: Does::Redo,
        keys: "Ctrl+Shift+Z",
        what: "redo; in a text field, redo its typing",
        global: true,
    },
    Shortcut {
        key: Key::R,
        mods: Mods::Command,
        does: Does::Roll,
        keys: "Ctrl+R",
        what: "roll and apply the resolver's form (dice \"mine\": apply the dice you typed)",
        global: true,
    },
    Shortcut {
        key: Key::N,
        mods: Mods::CommandShift,
        does: Does::NextPhase,
        keys: "Ctrl+Shift+N",
        what: "next phase (the next turn after the last phase)",
        global: true,
    },
    Shortcut {
        key: Key::Enter,
        mods: Mods::Plain,
        does: Does::Enter,
        keys: "Enter",
        what: "in a unit's hex field: place it; in the dice tray: roll",
        global: false,
    },
    Shortcut {
        key: Key::Escape,
        mods: Mods::Plain,
        does: Does::Escape,
        keys: "Esc",
        what: "in a unit's hex field: drop what you typed",
        global: false,
    },
];

/// The keys that do `does`, as shown ("Ctrl+Z"): what a button's tooltip names.
pub fn keys_for(does: Does) -> &'static str {
    SHORTCUTS
        .iter()
        .find(|s| s.does == does)
        .map_or("", |s| s.keys)
}

/// A button's tooltip: its shortcut, then what it does ("Ctrl+Z · undo the last action").
pub fn tip(does: Does, what: &str) -> String {
    format!("{} · {what}", keys_for(does))
}

/// The status line's reminder of the shortcuts, from the table.
pub fn reminder() -> String {
    let parts: Vec<String> = SHORTCUTS
        .iter()
        .filter(|s| s.global)
        .map(|s| {
            let short = s.what.split([' ', ';', '(']).next().unwrap_or(s.what);
            format!("{} {short}", s.keys)
        })
        .collect();
    format!(
        "Ready. Shortcuts: {} · Help lists them all",
        parts.join(" · ")
    )
}

/// Why no key typed into a field changes the game (said under the list in Help).
pub const PLAIN_KEYS_NOTE: &str = "No letter on its own changes the game: rolling and the next \
     phase take Ctrl (Ctrl+R, Ctrl+Shift+N), so nothing typed into a field, or beside one, rolls \
     or moves the clock; they keep still while Help or a dialog is open. \
     Ctrl+Z in a text field undoes its typing, not the game.";

pub use kepi_game::engine::play::kit::{field, stable, stable_id};

/// The command a shortcut gives, if any (Roll with dice "mine" only once dice are typed).
fn command(does: Does, view: &View, resolver: &ResolverState) -> Option<Command> {
    match does {
        Does::Save => Some(Command::Save),
        Does::Undo => Some(Command::Undo),
        Does::Redo => Some(Command::Redo),
        Does::NextPhase => Some(Command::NextPhase),
        Does::Roll if !view.own_dice => Some(Command::ResolveAndApply {
            entered: Vec::new(),
        }),
        // Dice "mine": R applies the dice typed, never kepi's in their place.
        Does::Roll => match resolver.entered_dice() {
            Ok(entered) if !entered.is_empty() => Some(Command::ResolveAndApply { entered }),
            _ => None,
        },
        Does::Enter | Does::Escape => None,
    }
}

/// The modified shortcuts of [`SHORTCUTS`] (Ctrl+S, Ctrl+Z, Ctrl+Shift+Z), taken before the
/// panels draw. While a text field has the keyboard (`typing`), Ctrl+Z and Ctrl+Shift+Z are left
/// to it: they undo its typing, not the game.
pub fn modified(
    ctx: &egui::Context,
    view: &View,
    resolver: &ResolverState,
    typing: bool,
    out: &mut Vec<Command>,
) {
    // Exactly these modifiers: Ctrl+Shift+S is not Ctrl+S (egui's logical match ignores Shift).
    ctx.input_mut(|i| {
        for s in SHORTCUTS.iter().filter(|s| s.global && !s.does.plays()) {
            if typing && matches!(s.does, Does::Undo | Does::Redo) {
                continue;
            }
            if take_exact(i, s)
                && let Some(c) = command(s.does, view, resolver)
            {
                out.push(c);
            }
        }
    });
}

/// Takes this frame's presses of `s`'s key with exactly its modifiers (Ctrl+Shift+S is not
/// Ctrl+S: egui's logical match ignores Shift); true when there was one.
fn take_exact(i: &mut egui::InputState, s: &Shortcut) -> bool {
    let want = s.mods.egui();
    let mut hit = false;
    i.events.retain(|e| {
        let this = matches!(e, egui::Event::Key { key, pressed: true, modifiers, .. }
            if *key == s.key && modifiers.matches_exact(want));
        hit |= this;
        !this
    });
    hit
}

/// The shortcuts of [`SHORTCUTS`] that play ([`Does::plays`]: Ctrl+R, Ctrl+Shift+N), taken after
/// the panels drew: they act with exactly their modifiers (a bare R or N never does, issue 46),
/// whether or not a field has the keyboard, and keep still while Help or a dialog is open
/// (`held`).
pub fn playing(
    ctx: &egui::Context,
    view: &View,
    resolver: &ResolverState,
    held: bool,
    out: &mut Vec<Command>,
) {
    if held {
        return;
    }
    // A number field that does not read stops the roll, as it greys out the button.
    let unreadable = !kepi_game::engine::play::kit::unparsed(ctx).is_empty();
    for s in SHORTCUTS.iter().filter(|s| s.global && s.does.plays()) {
        if s.does == Does::Roll && unreadable {
            continue;
        }
        if ctx.input_mut(|i| take_exact(i, s))
            && let Some(c) = command(s.does, view, resolver)
        {
            out.push(c);
        }
    }
}

pub use kepi_game::engine::play::kit::number;

/// Keeps every typed key when a click follows it in the same frame.
///
/// egui takes the focus from a text field at a press elsewhere before the field reads the frame's
/// keys, so what was typed in the frame of the click was lost: "ws://127.0.0.1:43261" typed and the
/// code field clicked at once (a quick hand, a paste, a slow software-rendered frame) left
/// "ws://127.0.0.1:" (issue 46: every keystroke lands). The window hands each frame's raw input to
/// [`InputSplitter::split`] first: a press that comes after typing waits, with everything after it,
/// for the next frame, in order.
#[derive(Debug, Default)]
pub struct InputSplitter {
    /// Events held from the last frame, given first to the next.
    held: Vec<egui::Event>,
}

impl InputSplitter {
    /// Puts the events held from the last frame before `events`, then holds back, from the first
    /// pointer press that follows a typed key or text, that press and all after it. True when
    /// something is held (the caller asks for another frame).
    pub fn split(&mut self, events: &mut Vec<egui::Event>) -> bool {
        if !self.held.is_empty() {
            let mut all = std::mem::take(&mut self.held);
            all.append(events);
            *events = all;
        }
        let typed = |e: &egui::Event| {
            matches!(
                e,
                egui::Event::Text(_)
                    | egui::Event::Paste(_)
                    | egui::Event::Key { pressed: true, .. }
            )
        };
        let press = |e: &egui::Event| matches!(e, egui::Event::PointerButton { pressed: true, .. });
        let at = events
            .iter()
            .position(typed)
            .and_then(|first| events.iter().skip(first).position(press).map(|p| first + p));
        if let Some(at) = at {
            self.held = events.split_off(at);
        }
        !self.held.is_empty()
    }
}
