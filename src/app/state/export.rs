//! Exports from the window: started on the export worker (a seat's view prints its own side
//! only), and collected when they finish.

use std::path::PathBuf;

use super::AppState;
use crate::exports::{ExportJob, ExportKind};
use kepi_game::engine::game::Game;

impl AppState {
    /// An export from a seat's view. It holds placeholders for the strengths hidden from it:
    /// printed, they would read as figures. The seat's own side prints (roster, cards, units);
    /// the reports, which read the whole log, are the umpire's.
    pub(super) fn export_seat_view(&mut self, kind: ExportKind, path: PathBuf) {
        match kind {
            ExportKind::RosterPdf
            | ExportKind::CardsPdf
            | ExportKind::CardsPng
            | ExportKind::UnitsCsv => {
                let mut own = self.game.state().clone();
                own.units.retain(|u| !u.strength_hidden);
                let own = Game::seat_view(own, self.game.log().to_vec());
                self.start_export(kind, path, Some(&own));
            }
            _ => self.err(
                "this window is shown the other side's strengths hidden: the battle report and the log are exported from the umpire's kepi",
            ),
        }
    }

    /// Starts an export of the game (or of `other`, a seat's own side).
    pub(super) fn start_export(&mut self, kind: ExportKind, path: PathBuf, other: Option<&Game>) {
        if self.dialogs.export_job.is_some() {
            self.err("an export is already running; wait for it to finish");
            return;
        }
        let game = other.unwrap_or(&self.game);
        match ExportJob::start(kind, path, self.settings.paper, game, self.tables) {
            Ok(job) => {
                self.ok(format!("{}...", job.kind.verb()));
                self.dialogs.export_job = Some(job);
            }
            Err(e) => self.err(e),
        }
    }

    /// Collects a finished export: its message goes to the status line. Called every frame; true
    /// while an export is still running (so the window keeps repainting its progress bar).
    pub fn poll_export(&mut self) -> bool {
        match self.dialogs.finished_export() {
            Some(Ok(msg)) => self.ok(msg),
            Some(Err(e)) => self.err(e),
            None => {}
        }
        self.dialogs.export_job.is_some()
    }
}
