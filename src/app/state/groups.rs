//! The window's state in groups by concern, each with the methods that touch only it: the guard
//! before something could be lost ([`Guard`]), choosing files ([`Files`]), the dialogs over the
//! workspace ([`Dialogs`]) and the window's options ([`Options`]).

use std::path::{Path, PathBuf};

use super::{BottomTab, Command, LastGame};
use crate::exports::{ExportDialog, ExportJob};
use crate::file_dialog::FileDialog;

/// The guard before something could be lost: "this game has actions not on disk" (Save As /
/// Discard / Cancel) before the game is closed or replaced, and closing the window.
#[derive(Debug, Default)]
pub struct Guard {
    /// What waits for an answer to "this game has actions not on disk" (Save As / Discard / Cancel).
    pub confirm: Option<Box<Command>>,
    /// What to do once Save As has succeeded (the guarded command the user chose to save before).
    pub after_save: Option<Box<Command>>,
    /// The window should close now (the guard was answered).
    pub close_now: bool,
    /// The window may close without asking again.
    pub allow_close: bool,
    /// Set while a confirmed (discarding) command runs, so the guard lets it through.
    pub(super) discarding: bool,
}

impl Guard {
    /// Lets `cmd` run unless something could be lost (`unsaved`) and it was not answered
    /// "Discard": then it waits for the answer.
    pub(super) fn lets(&mut self, cmd: &Command, unsaved: bool) -> bool {
        if unsaved && !self.discarding {
            self.confirm = Some(Box::new(cmd.clone()));
            return false;
        }
        true
    }

    /// The answer "Save As": what waited runs once the game is saved.
    pub fn save_first(&mut self) {
        self.after_save = self.confirm.take();
    }

    /// The answer "Cancel": nothing waits any more.
    pub(super) fn cancel(&mut self) {
        self.confirm = None;
        self.after_save = None;
    }

    /// True once when the window should close now; from then on it closes without asking.
    pub fn take_close(&mut self) -> bool {
        let now = std::mem::take(&mut self.close_now);
        if now {
            self.allow_close = true;
        }
        now
    }
}

/// Choosing files: the desktop's dialogs (rfd) when there are any, else the in-window dialog.
#[derive(Default)]
pub struct Files {
    /// Use the desktop's file dialogs; otherwise, or when one fails, the in-window dialog.
    pub native: bool,
    /// The in-window file dialog.
    pub dialog: FileDialog,
}

impl Files {
    /// The folder a file dialog opens in: the game's own (`game_dir`, a file the user chose),
    /// the last one a dialog chose a file in (`last`, kept between runs), the last one the
    /// in-window dialog listed, or home.
    pub fn folder(&self, game_dir: Option<&Path>, last: Option<&Path>) -> PathBuf {
        if let Some(dir) = game_dir
            && !dir.as_os_str().is_empty()
        {
            return dir.to_path_buf();
        }
        if let Some(dir) = last
            && dir.is_dir()
        {
            return dir.to_path_buf();
        }
        if !self.dialog.folder.as_os_str().is_empty() {
            return self.dialog.folder.clone();
        }
        crate::file_dialog::home()
    }
}

/// The dialogs over the workspace, and what runs behind them.
#[derive(Default)]
pub struct Dialogs {
    /// The print and export dialog.
    pub export: ExportDialog,
    /// The export running on its worker thread, if any.
    pub export_job: Option<ExportJob>,
    /// A network dialog the File menu asked for (taken by the window each frame).
    pub net: Option<crate::net_ui::NetDialog>,
    /// "Fight as a battle" and "Return to the campaign" (issue 30).
    pub campaign: crate::campaign::CampaignUi,
    /// The last game, offered at start ("continue" or "recover").
    pub last_game: Option<LastGame>,
    /// The order-of-battle builder (issue 43).
    pub builder: crate::builder::BuilderWindow,
}

impl Dialogs {
    /// A finished export's message (the dialog closes once it succeeded); `None` while one runs
    /// or none does.
    pub(super) fn finished_export(&mut self) -> Option<Result<String, String>> {
        let result = self.export_job.as_mut()?.poll()?;
        self.export_job = None;
        if result.is_ok() {
            self.export.open = false;
        }
        Some(result.map_err(|e| format!("export failed: {e}")))
    }
}

/// What the window shows and how the dice are rolled (the user's choices, not the game's).
#[derive(Clone, Debug)]
pub struct Options {
    /// The centre's tab.
    pub bottom: BottomTab,
    /// Hex rule sets: the right column shows the log (else the resolver beside the map).
    pub side_log: bool,
    /// The resolver opens scrolled to its top on the first frame of a game: egui keeps scroll
    /// offsets between runs, and a restart opened it scrolled down to an old warning.
    pub scroll_to_top: bool,
    /// "I roll my own dice".
    pub own_dice: bool,
}

impl Options {
    /// A game of `system`'s first view: the map for a hex rule set, else the resolver.
    pub(super) fn for_system(system: kepi_game::rules::RuleSetId) -> Options {
        Options {
            bottom: BottomTab::first(system),
            side_log: false,
            scroll_to_top: true,
            own_dice: false,
        }
    }
}
