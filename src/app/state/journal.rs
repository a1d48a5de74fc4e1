//! Keeping the game on disk as it changes: each change journalled (and the status line told how
//! that went, [`Persisted`]), the save rewritten when the journal is ahead of it, and the store let
//! go for a host.

use super::AppState;

/// What journalling a change came to.
pub(super) enum Persisted {
    /// On disk (in the journal); with a warning when the save could not catch up.
    Done(Option<String>),
    /// The journal could not be written: the change was taken back (it never reappears).
    Dropped(String),
    /// Nowhere to keep the game (kepi's folder cannot be written): the change stands in memory
    /// only, and closing or replacing the game asks first.
    AtRisk(String),
}

impl AppState {
    /// Lets go of the save (rewritten first, its lock released) so a host can open it.
    pub fn release_store(&mut self) {
        self.compact();
        self.store = None;
        self.autosaved = false;
        self.saved_len = self.game.log().len();
    }

    /// True when some of the game's actions are not on disk (a write failed, or there is nowhere
    /// to keep the game): dropping the game now would lose them, so the guards ask first.
    pub fn unsaved(&self) -> bool {
        self.game.log().len() != self.saved_len
    }

    /// Rewrites the full save when the journal is ahead of it (on idle, on close, before another
    /// game replaces this one). Nothing is at stake: the journal already holds every action.
    pub fn compact(&mut self) {
        if let Some(store) = self.store.as_mut()
            && store.behind() > 0
            && let Err(e) = store.compact(&self.game)
        {
            let msg =
                format!("could not rewrite the save (the journal still holds every action): {e}");
            self.err(msg);
        }
    }

    /// Starts rewriting the save off the window's thread when the journal is ahead of it (the
    /// table is idle); [`AppState::poll_store`] hears how it went.
    pub fn compact_idle(&mut self) {
        if let Some(store) = self.store.as_mut()
            && store.behind() > 0
        {
            store.in_background();
            if let Err(e) = store.compact_soon(&self.game) {
                let msg = format!(
                    "could not rewrite the save (the journal still holds every action): {e}"
                );
                self.err(msg);
            }
        }
    }

    /// Takes the result of a save rewrite that finished off the window's thread (once a frame);
    /// a failure goes to the status line. True while one is still running.
    pub fn poll_store(&mut self) -> bool {
        let Some(store) = self.store.as_mut() else {
            return false;
        };
        if let Some(w) = store.poll() {
            self.err(format!("could not rewrite the save: {w}"));
        }
        self.store.as_ref().is_some_and(|s| s.rewriting())
    }

    /// Journals the new log entries (so a crash loses nothing); a game nobody saved gets its file
    /// in kepi's folder at its first action. See [`Persisted`] for what each outcome means.
    pub(super) fn persist(&mut self) -> Persisted {
        self.last_change = Some(std::time::Instant::now());
        let Some(store) = self.store.as_mut() else {
            return match self.keep_in_data_dir() {
                Ok(()) => Persisted::Done(None),
                Err(e) => Persisted::AtRisk(format!(
                    "this game is not on disk ({e}): use File > Save As before closing"
                )),
            };
        };
        // The save is rewritten off the window's thread (every COMPACT_EVERY actions and on idle):
        // a frame never waits for it. The journal line is written and fsynced here.
        store.in_background();
        match store.record(&self.game) {
            Ok(r) => {
                self.saved_len = self.game.log().len();
                Persisted::Done(r.save_warning)
            }
            Err(e) => {
                let rewound = self.game.rewind(self.saved_len);
                let mut msg = format!("could not write the journal, so it was not done: {e}");
                if let Err(r) = rewound {
                    msg.push_str(&format!(" (and the game could not be rebuilt: {r})"));
                }
                Persisted::Dropped(msg)
            }
        }
    }

    /// Journals a change just made to the game and says so on the status line: its summary, with
    /// the save's warning if the save is behind, or why it was not done. True when the change
    /// stands (it may still be at risk: then the status line says so in the error colour).
    pub(super) fn commit(&mut self, summary: String) -> bool {
        // A battle its campaign already took back: said after every action (never refused).
        let summary = match &self.dialogs.campaign.returned {
            Some(r) => format!("{summary} (warning: {r})"),
            None => summary,
        };
        match self.persist() {
            Persisted::Done(None) => self.ok(summary),
            Persisted::Done(Some(w)) => self.ok(format!("{summary} (warning: {w})")),
            Persisted::AtRisk(e) => self.err(format!("{summary}; but {e}")),
            Persisted::Dropped(e) => {
                self.err(e);
                return false;
            }
        }
        true
    }
}
