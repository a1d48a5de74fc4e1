//! Where the game is kept and what replaces it: a new game (from a scenario or unit cards), Open
//! (and recovering the last game), Save and Save As, kepi's own folder for a game nobody saved,
//! the recent files, and the file dialogs' folder.

use std::path::{Path, PathBuf};

use chrono::Utc;

use super::journal::Persisted;
use super::{AppState, Command};
use crate::file_dialog::{Native, Purpose};
use kepi_game::registry::builtin_scenario;
use kepi_game::store::Store;

impl AppState {
    /// Switches to another game's workspace, keeping what belongs to the user rather than the
    /// game: settings, the dice mode (who rolls is the umpire's choice at this table, and no save
    /// says otherwise: issue 46, it went back to kepi's dice at every opening and when hosting
    /// stopped, which reopens the save) and an export still running.
    pub(super) fn switch_to(&mut self, mut fresh: AppState) {
        self.compact();
        fresh.settings = std::mem::take(&mut self.settings);
        fresh.options.own_dice = self.options.own_dice;
        fresh.dialogs.export_job = self.dialogs.export_job.take();
        fresh.data_dir = self.data_dir.take();
        fresh.files.native = self.files.native;
        fresh.files.dialog.folder = std::mem::take(&mut self.files.dialog.folder);
        fresh.dialogs.builder = std::mem::take(&mut self.dialogs.builder);
        *self = fresh;
    }

    /// A file in kepi's folder for a game nobody saved yet: the scenario's name and the time.
    pub(super) fn autosave_path(&self) -> Option<PathBuf> {
        let dir = self.data_dir.as_ref()?.join("games");
        let stem: String = self
            .game
            .state()
            .scenario
            .chars()
            .map(|c| {
                if c.is_alphanumeric() || c == '-' {
                    c
                } else {
                    '-'
                }
            })
            .take(60)
            .collect();
        let when = Utc::now().format("%Y-%m-%d-%H%M%S");
        (0..100)
            .map(|n| {
                let suffix = if n == 0 {
                    String::new()
                } else {
                    format!("-{n}")
                };
                dir.join(format!("{stem}-{when}{suffix}.kepi.json"))
            })
            .find(|p| !p.exists() && !kepi_game::store::journal_path(p).exists())
    }

    /// Gives a never-saved game its file in kepi's folder, at its first action.
    pub(super) fn keep_in_data_dir(&mut self) -> Result<(), String> {
        let path = self
            .autosave_path()
            .ok_or_else(|| "kepi has no folder to keep it in".to_string())?;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        let mut store = Store::create(&path, &self.game).map_err(|e| e.to_string())?;
        store.mark_running();
        self.store = Some(store);
        self.autosaved = true;
        self.saved_len = self.game.log().len();
        self.remember(&path);
        Ok(())
    }

    /// A new game of a bundled scenario, freshly seeded.
    pub(super) fn new_from_scenario(&mut self, name: &str) {
        match builtin_scenario(name)
            .and_then(|s| AppState::new_game(&s, kepi_game::dice::fresh_seed(), self.tables))
        {
            Ok(fresh) => {
                self.switch_to(fresh);
                self.ok(format!("new game: {name}"));
            }
            Err(e) => self.err(e),
        }
    }

    /// A new game from a unit-card file; the current game is unchanged when it cannot be read.
    pub(super) fn new_from_cards(&mut self, path: &Path) {
        match kepi_game::roster::load_roster_file(path)
            .map_err(|e| e.to_string())
            .and_then(|s| AppState::new_game(&s, kepi_game::dice::fresh_seed(), self.tables))
        {
            Ok(fresh) => {
                let units = fresh.state().units.len();
                self.switch_to(fresh);
                self.ok(format!("new game from {} ({units} units)", path.display()));
            }
            Err(e) => self.err(format!(
                "could not import the unit cards: {e} (the current game is unchanged)"
            )),
        }
    }

    /// A new game from the builder's order of battle (issue 43), as [`AppState::new_from_cards`]
    /// makes one from a file; the builder closes.
    pub(super) fn new_from_built(&mut self, s: &kepi_game::roster::Scenario) {
        match AppState::new_game(s, kepi_game::dice::fresh_seed(), self.tables) {
            Ok(fresh) => {
                let units = fresh.state().units.len();
                self.switch_to(fresh);
                self.dialogs.builder.open = false;
                self.ok(format!("new game from the order of battle ({units} units)"));
            }
            Err(e) => self.err(format!(
                "could not start the battle: {e} (the current game is unchanged)"
            )),
        }
    }

    /// The builder's "Print roster": the roster of a game made from its order of battle, written
    /// to `path` on the export's worker.
    pub(super) fn print_built(
        &mut self,
        s: &kepi_game::roster::Scenario,
        path: PathBuf,
        kind: crate::exports::ExportKind,
    ) {
        let Some(system) = s.system else {
            return self.err("the order of battle names no rule set");
        };
        let game = kepi_game::engine::game::Game::new(
            s,
            system,
            kepi_game::engine::game::SeedSecret::new(kepi_game::dice::fresh_seed()),
            Utc::now(),
        );
        match crate::exports::ExportJob::start(kind, path, self.settings.paper, &game, self.tables)
        {
            Ok(job) => self.dialogs.export_job = Some(job),
            Err(e) => self.err(e),
        }
    }

    /// The current game's order of battle as a scenario (File > Edit order of battle…).
    pub(super) fn current_scenario(&self) -> kepi_game::roster::Scenario {
        let st = self.game.state();
        kepi_game::roster::Scenario {
            name: st.scenario.to_string(),
            system: Some(st.system.system()),
            title: st.title.to_string(),
            date: st.start_date,
            first_cell: st.first_cell,
            sides: st.sides.clone(),
            notes: String::new(),
            hide_strengths: st.hide_strengths,
            scale: st.scale,
            map: st.map.clone(),
            // The markers the game started with, as its cards are the ones it started with.
            marks: match self.game.log().first().map(|e| &e.kind) {
                Some(kepi_game::engine::game::EntryKind::Start { initial }) => initial
                    .marks
                    .iter()
                    .map(|m| kepi_game::roster::ScenarioMark {
                        kind: m.kind.clone(),
                        cell: m.cell,
                    })
                    .collect(),
                _ => Vec::new(),
            },
            units: st.units.iter().map(|u| (*u.unit).clone()).collect(),
        }
    }

    /// Save: everything on disk, the save rewritten (the journal already holds every action).
    pub(super) fn save(&mut self) {
        let compacted = match self.persist() {
            Persisted::Dropped(e) | Persisted::AtRisk(e) => Err(e),
            Persisted::Done(_) => match self.store.as_mut() {
                Some(store) => store.compact(&self.game).map_err(|e| {
                    format!("could not write the save (the journal holds every action): {e}")
                }),
                None => Ok(()),
            },
        };
        match compacted {
            Ok(()) => self.ok("saved"),
            Err(e) => self.err(e),
        }
    }

    /// Save As: a new file with the whole game (save and journal); a game kept in kepi's folder
    /// moves there (its old files are removed once the new ones are on disk).
    pub(super) fn save_as(&mut self, path: &Path) {
        match Store::create(path, &self.game) {
            Ok(mut store) => {
                store.mark_running();
                let old = self.store.replace(store);
                let was_autosaved = std::mem::replace(&mut self.autosaved, false);
                self.saved_len = self.game.log().len();
                if let Some(old) = old
                    && was_autosaved
                {
                    let old_path = old.path().to_path_buf();
                    drop(old);
                    kepi_game::store::remove_game_files(&old_path);
                    self.settings.recent.retain(|p| p != &old_path);
                }
                self.remember(path);
                self.ok(format!("saved to {}", path.display()));
                if let Some(next) = self.guard.after_save.take() {
                    self.handle(*next);
                }
            }
            Err(e) => self.err(format!("could not save: {e}")),
        }
    }

    /// Asks for a file: the desktop's dialog when there is one (falling back to the in-window
    /// dialog when it cannot show), else the in-window dialog.
    pub(super) fn choose_file(&mut self, purpose: Purpose) {
        let folder = self.dialog_folder();
        if self.files.native {
            match crate::file_dialog::native(purpose, &folder) {
                Native::Chosen(p) => return self.handle(purpose.command(p)),
                Native::Cancelled => return,
                Native::Unavailable => self.files.native = false,
            }
        }
        self.files.dialog.show_for(purpose, folder);
    }

    /// The folder a file dialog (and the export dialog) opens in: the current game's, the last
    /// one a dialog chose, or home.
    pub fn dialog_folder(&self) -> PathBuf {
        let game_dir = self
            .store
            .as_ref()
            .filter(|_| !self.autosaved)
            .and_then(|s| s.path().parent());
        self.files
            .folder(game_dir, self.settings.last_folder.as_deref())
    }

    /// Remembers the folder of a file the user chose (to open, save, import, make a battle or
    /// export into), for the next dialog; kepi's own folder is never remembered.
    pub(super) fn chose(&mut self, cmd: &Command) {
        let path = match cmd {
            Command::SaveAs(p)
            | Command::Open(p)
            | Command::NewFromCards(p)
            | Command::FightBattle(p)
            | Command::Export { path: p, .. } => p,
            _ => return,
        };
        let Some(folder) = path.parent().filter(|f| !f.as_os_str().is_empty()) else {
            return;
        };
        if self
            .data_dir
            .as_deref()
            .is_some_and(|d| folder.starts_with(d))
        {
            return;
        }
        self.settings.last_folder = Some(folder.to_path_buf());
    }

    pub(super) fn remember(&mut self, path: &Path) {
        let recent = &mut self.settings.recent;
        recent.retain(|p| p != path);
        recent.insert(0, path.to_path_buf());
        recent.truncate(8);
    }

    /// Opens a game file (recovering a newer journal), keeping the current game on any error.
    pub fn open(&mut self, path: &Path) {
        self.open_with(path, Store::open(path), None);
    }

    /// "Recover and open" the game kepi had open when it stopped without closing: opened as
    /// File > Open does (the journal's actions beyond the save replayed); when that fails (a
    /// journal cut mid-line or damaged), rebuilt first as `kepi game recover` does
    /// ([`kepi_game::store::recover`]: every action that continues the chain kept, what it replaces
    /// set aside), then opened.
    pub fn recover_and_open(&mut self, path: &Path) {
        let first = Store::open(path);
        if first.is_ok() {
            return self.open_with(path, first, None);
        }
        drop(first);
        match kepi_game::store::recover(path) {
            Ok((_, said)) => self.open_with(path, Store::open(path), Some(said)),
            Err(e) => self.err(format!(
                "could not recover {}: {e} (the current game is unchanged)",
                path.display()
            )),
        }
    }

    /// [`AppState::open`] of what `Store::open` gave for `path`; `recovered` says what a
    /// recover did first.
    pub(super) fn open_with(
        &mut self,
        path: &Path,
        opened: Result<kepi_game::store::Opened, kepi_game::store::StoreError>,
        recovered: Option<String>,
    ) {
        match opened {
            Ok(mut opened) => {
                opened.store.mark_running();
                let mut notes = opened.warnings.clone();
                notes.extend(recovered);
                if opened.recovered > 0 {
                    notes.push(format!(
                        "recovered {} from the journal",
                        kepi_game::rules::count(opened.recovered, "action", "actions")
                    ));
                }
                let fresh = AppState::with_game(opened.game, Some(opened.store), self.tables);
                self.switch_to(fresh);
                self.remember(path);
                self.dialogs.campaign.returned =
                    kepi_middle::campaign::ops::returned_already(&self.game).map(|r| r.say());
                if let Some(r) = &self.dialogs.campaign.returned {
                    notes.push(format!("warning: {r}"));
                }
                // The board's map the game carries: a file changed since is named (issue 41).
                if let Some(m) = self.game.state().map.as_ref().and_then(|m| m.open_note()) {
                    notes.push(format!("warning: {m}"));
                }
                let mut msg = format!("opened {}", path.display());
                for n in notes {
                    msg.push_str("; ");
                    msg.push_str(&n);
                }
                self.ok(msg);
            }
            Err(e) => self.err(format!(
                "could not open: {e} (the current game is unchanged)"
            )),
        }
    }
}
