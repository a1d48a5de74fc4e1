//! The window's state and the one place it changes: [`AppState::handle`] takes a [`Command`].
//!
//! Panels read the state and push commands; nothing else mutates the game. Every game change goes
//! through [`crate::game::Game`] (so it is logged and undoable) and, when the game has a file, through
//! [`crate::store::Store`] (journal first, so nothing acknowledged is ever lost).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use chrono::Utc;

use super::dice_tray::DiceTray;
use super::exports::{ExportDialog, ExportJob, ExportKind};
use super::resolver::ResolverState;
use crate::dice::Die;
use crate::export::Paper;
use crate::game::{Action, Game, GameState, SeedSecret};
use crate::roster::{Scenario, builtin_scenario};
use crate::store::Store;
use crate::tables::Tables;

/// The bottom tabs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum BottomTab {
    /// Hex map (hex rule sets).
    Map,
    /// Accuracy-of-aim drift (Graveyard St. Privat).
    Drift,
    /// Strength per side per turn.
    Charts,
    /// Dice tray.
    Dice,
}

/// Settings kept between runs (fields added later take their default when an older kepi saved them).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Dark theme.
    pub dark: bool,
    /// UI scale (1.0 normal; 1.5 reads at arm's length).
    pub scale: f32,
    /// Recent game files, newest first.
    pub recent: Vec<PathBuf>,
    /// Paper for printed exports.
    pub paper: Paper,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            dark: true,
            scale: 1.15,
            recent: Vec::new(),
            paper: Paper::default(),
        }
    }
}

/// Something the window works out from the game (and its view options) and keeps until either
/// changes: at 2,000 units and 10,000 log entries, redoing it every frame cost more than drawing.
#[derive(Clone, Debug, Default)]
pub struct Memo<K, V> {
    key: Option<K>,
    value: V,
}

impl<K: PartialEq, V> Memo<K, V> {
    /// The value for `key`, made again only when the key changed since the last call.
    pub fn get(&mut self, key: K, make: impl FnOnce() -> V) -> &V {
        if self.key.as_ref() != Some(&key) {
            self.value = make();
            self.key = Some(key);
        }
        &self.value
    }
}

/// What identifies the game's state for a [`Memo`]: the log's length and its last hash (every
/// change to the game, undo included, adds an entry; another game has another chain).
pub fn game_key(game: &Game) -> (usize, String) {
    let log = game.log();
    (
        log.len(),
        log.last().map(|e| e.hash.clone()).unwrap_or_default(),
    )
}

/// The roster's rows, kept per state of the game and roster options (shared with the frame that
/// draws them).
pub type RosterRows = Memo<((usize, String), RosterView), std::sync::Arc<Vec<super::roster::Row>>>;

/// Roster view options.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RosterView {
    /// Text filter on names, ids, formations.
    pub filter: String,
    /// Hide eliminated units.
    pub hide_eliminated: bool,
    /// Only units that have not yet moved or fired this turn.
    pub only_to_act: bool,
    /// Collapsed group keys ("german", "german/III Corps").
    pub collapsed: HashSet<String>,
}

/// Log view options.
#[derive(Clone, Debug, Default)]
pub struct LogView {
    /// Text filter (unit, summary).
    pub filter: String,
    /// Rule id filter ("PK-F").
    pub rule: String,
    /// Only this turn.
    pub turn: Option<u32>,
    /// Result of the last Verify.
    pub verified: Option<Result<String, String>>,
}

/// Everything the panels send.
#[derive(Clone, Debug)]
pub enum Command {
    /// Apply one action (an edit in the roster, a move).
    Act(Action),
    /// Undo the last action (whole resolutions at once).
    Undo,
    /// Redo.
    Redo,
    /// Next phase (next turn after the last).
    NextPhase,
    /// Select the acting unit.
    Select(String),
    /// Select the target unit.
    Target(String),
    /// Resolve the resolver's current form with kepi's dice or the entered ones, and apply it.
    ResolveAndApply {
        /// Physical dice entered, in order.
        entered: Vec<(Die, u32)>,
    },
    /// Show a resolver form pre-filled for these units (a checklist step or a due check).
    OpenForm {
        /// The form's name ("rally").
        form: String,
        /// The acting unit.
        actor: Option<String>,
        /// The target.
        target: Option<String>,
    },
    /// Start a new game from a bundled scenario.
    NewGame(String),
    /// Start a new game from a unit-card file (a scenario or order of battle in TOML).
    NewFromCards(PathBuf),
    /// Open a game file.
    Open(PathBuf),
    /// Save (to the current file, or ask for one).
    Save,
    /// Save to this file.
    SaveAs(PathBuf),
    /// Export (print roster, cards, report, CSV) to this file or folder, on a worker thread.
    Export {
        /// What to write.
        kind: ExportKind,
        /// Where.
        path: PathBuf,
    },
    /// Open the last game, recovering what its journal holds beyond its save.
    OpenLast,
    /// Dismiss the "continue your last game" offer.
    DismissLast,
}

/// A message in the status line.
#[derive(Clone, Debug, PartialEq)]
pub struct Status {
    /// The text.
    pub text: String,
    /// Shown in the error colour.
    pub error: bool,
}

/// The whole window's state.
pub struct AppState {
    /// The game being played.
    pub game: Game,
    /// Its file, once saved; every action is journalled there.
    pub store: Option<Store>,
    /// Log length at the last successful save (unsaved when the log is longer).
    pub saved_len: usize,
    /// The rule tables.
    pub tables: &'static Tables,
    /// Acting unit.
    pub selected: Option<String>,
    /// Target unit.
    pub target: Option<String>,
    /// Roster options.
    pub roster: RosterView,
    /// Log options.
    pub log: LogView,
    /// The resolver's forms.
    pub resolver: ResolverState,
    /// Bottom tab.
    pub bottom: BottomTab,
    /// "I roll my own dice".
    pub own_dice: bool,
    /// The dice tray.
    pub tray: DiceTray,
    /// Persistent settings.
    pub settings: Settings,
    /// Status line.
    pub status: Option<Status>,
    /// Path typed in the Save As / Open field (when no native dialog is available).
    pub path_text: String,
    /// The print and export dialog.
    pub export: ExportDialog,
    /// The export running on its worker thread, if any.
    pub export_job: Option<ExportJob>,
    /// The last game, offered at start ("continue" or "recover").
    pub last_game: Option<LastGame>,
    /// The strength chart's points for the current log.
    pub chart: super::charts::ChartCache,
    /// The roster's rows for the current log and roster options.
    pub roster_rows: RosterRows,
}

/// The game kepi had open last time, offered when the window opens on the demo battle.
#[derive(Clone, Debug, PartialEq)]
pub struct LastGame {
    /// Its save.
    pub path: PathBuf,
    /// Its journal was written after its save: kepi stopped before the save caught up, and opening
    /// the game recovers the actions the journal holds.
    pub needs_recovery: bool,
}

impl LastGame {
    /// The most recent game in `recent` that still exists. Only file times are read (two `stat`
    /// calls), so this costs nothing at start; opening the game does the real recovery.
    pub fn find(recent: &[PathBuf]) -> Option<LastGame> {
        let path = recent.iter().find(|p| p.is_file())?.clone();
        let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        let needs_recovery = match (
            modified(&crate::store::journal_path(&path)),
            modified(&path),
        ) {
            (Some(j), Some(s)) => j > s,
            _ => false,
        };
        Some(LastGame {
            path,
            needs_recovery,
        })
    }
}

/// The scenario the window opens with.
pub const DEMO_SCENARIO: &str = "mars-la-tour";

impl AppState {
    /// A new game of a bundled scenario, not yet saved.
    pub fn new_game(
        scenario: &Scenario,
        seed: u64,
        tables: &'static Tables,
    ) -> Result<AppState, String> {
        let system = scenario
            .system
            .ok_or_else(|| format!("scenario `{}` names no rule set", scenario.name))?;
        let game = Game::new(scenario, system, SeedSecret::new(seed), Utc::now());
        Ok(AppState::with_game(game, None, tables, seed ^ 0x5eed))
    }

    /// A fresh workspace on `game` (and its file, when it has one): nothing selected, the bottom
    /// tab the rule set is played with, default settings.
    fn with_game(
        game: Game,
        store: Option<Store>,
        tables: &'static Tables,
        tray_seed: u64,
    ) -> AppState {
        let system = game.state().system;
        AppState {
            saved_len: game.log().len(),
            game,
            store,
            tables,
            selected: None,
            target: None,
            roster: RosterView::default(),
            log: LogView::default(),
            resolver: ResolverState::new(system),
            bottom: if matches!(system, crate::rules::System::Gsp) {
                BottomTab::Drift
            } else if crate::app::map::has_map(system) {
                BottomTab::Map
            } else {
                BottomTab::Charts
            },
            own_dice: false,
            tray: DiceTray::new(tray_seed),
            settings: Settings::default(),
            status: None,
            path_text: String::new(),
            export: ExportDialog::default(),
            export_job: None,
            last_game: None,
            chart: Default::default(),
            roster_rows: Default::default(),
        }
    }

    /// Switches to another game's workspace, keeping what belongs to the user rather than the
    /// game: settings and an export still running.
    fn switch_to(&mut self, mut fresh: AppState) {
        fresh.settings = std::mem::take(&mut self.settings);
        fresh.export_job = self.export_job.take();
        *self = fresh;
    }

    /// The demo battle.
    pub fn demo(seed: u64) -> Result<AppState, String> {
        let tables = Tables::builtin().map_err(|e| e.to_string())?;
        let scenario = builtin_scenario(DEMO_SCENARIO)?;
        AppState::new_game(&scenario, seed, tables)
    }

    /// The game state.
    pub fn state(&self) -> &GameState {
        self.game.state()
    }

    /// True when there are actions not yet in a save.
    pub fn unsaved(&self) -> bool {
        self.game.log().len() != self.saved_len
    }

    fn ok(&mut self, text: impl Into<String>) {
        self.status = Some(Status {
            text: text.into(),
            error: false,
        });
    }

    fn err(&mut self, text: impl Into<String>) {
        self.status = Some(Status {
            text: text.into(),
            error: true,
        });
    }

    /// Journals the new log entries when the game has a file (so a crash loses nothing).
    ///
    /// `Err` (the journal could not be written): the entries are not recorded and are dropped from
    /// the game in memory too, so a failed action never reappears. `Ok(Some(warning))`: recorded,
    /// but the save is behind its journal (it catches up when the game is next opened).
    fn persist(&mut self) -> Result<Option<String>, String> {
        let Some(store) = self.store.as_mut() else {
            return Ok(None);
        };
        match store.record(&self.game) {
            Ok(r) => {
                self.saved_len = self.game.log().len();
                Ok(r.save_warning)
            }
            Err(e) => {
                let rewound = self.game.rewind(self.saved_len);
                let mut msg = format!("could not write the journal, so it was not done: {e}");
                if let Err(r) = rewound {
                    msg.push_str(&format!(" (and the game could not be rebuilt: {r})"));
                }
                Err(msg)
            }
        }
    }

    /// Journals a change just made to the game and says so on the status line: its summary, with
    /// the save's warning if the save is behind, or why it was not done.
    fn commit(&mut self, summary: String) {
        match self.persist() {
            Ok(None) => self.ok(summary),
            Ok(Some(w)) => self.ok(format!("{summary} (warning: {w})")),
            Err(e) => self.err(e),
        }
    }

    /// The one place the window changes anything.
    pub fn handle(&mut self, cmd: Command) {
        let now = Utc::now();
        match cmd {
            Command::Act(action) => match self.game.act(action, now) {
                Ok(e) => {
                    let s = e.summary.clone();
                    self.commit(s);
                }
                Err(e) => self.err(e.to_string()),
            },
            Command::Undo => match self.game.undo(now) {
                Ok(e) => {
                    let s = format!("undone: {}", e.summary);
                    self.commit(s);
                }
                Err(e) => self.err(e.to_string()),
            },
            Command::Redo => match self.game.redo(now) {
                Ok(e) => {
                    let s = format!("redone: {}", e.summary);
                    self.commit(s);
                }
                Err(e) => self.err(e.to_string()),
            },
            Command::NextPhase => self.handle(Command::Act(Action::NextPhase)),
            Command::Select(id) => {
                self.selected = Some(id);
                self.resolver.prefill(
                    self.game.state(),
                    self.selected.as_deref(),
                    self.target.as_deref(),
                    self.tables,
                );
            }
            Command::Target(id) => {
                self.target = Some(id);
                self.resolver.prefill(
                    self.game.state(),
                    self.selected.as_deref(),
                    self.target.as_deref(),
                    self.tables,
                );
            }
            Command::ResolveAndApply { entered } => {
                let tables = self.tables;
                let form = self.resolver.clone();
                let units: Vec<String> = form
                    .form()
                    .map(|f| {
                        let (a, t) = f.units();
                        a.into_iter().chain(t).map(str::to_string).collect()
                    })
                    .unwrap_or_default();
                let result = self.game.resolve_about(
                    units,
                    &entered,
                    |state, dice| form.resolve_with_effects(state, tables, dice),
                    now,
                );
                match result {
                    Ok(e) => {
                        let s = e.summary.clone();
                        self.resolver.last_rolled = self.game.log().last().map(|e| e.index);
                        self.commit(s);
                        if self.status.as_ref().is_some_and(|st| st.error) {
                            self.resolver.last_rolled = None;
                        }
                    }
                    Err(e) => self.err(e.to_string()),
                }
            }
            Command::OpenForm {
                form,
                actor,
                target,
            } => {
                if let Some(i) = self.resolver.forms.iter().position(|f| f.name() == form) {
                    self.resolver.current = i;
                }
                if actor.is_some() {
                    self.selected = actor;
                }
                if target.is_some() {
                    self.target = target;
                }
                self.resolver.prefill(
                    self.game.state(),
                    self.selected.as_deref(),
                    self.target.as_deref(),
                    self.tables,
                );
            }
            Command::NewGame(name) => match builtin_scenario(&name)
                .and_then(|s| AppState::new_game(&s, crate::cli::fresh_seed(), self.tables))
            {
                Ok(fresh) => {
                    self.switch_to(fresh);
                    self.ok(format!("new game: {name}"));
                }
                Err(e) => self.err(e),
            },
            Command::NewFromCards(path) => match crate::roster::load_roster_file(&path)
                .map_err(|e| e.to_string())
                .and_then(|s| AppState::new_game(&s, crate::cli::fresh_seed(), self.tables))
            {
                Ok(fresh) => {
                    let units = fresh.state().units.len();
                    self.switch_to(fresh);
                    self.ok(format!(
                        "new game from {} ({units} units); save it to keep it",
                        path.display()
                    ));
                }
                Err(e) => self.err(format!(
                    "could not import the unit cards: {e} (the current game is unchanged)"
                )),
            },
            Command::Open(path) => self.open(&path),
            Command::Save => match self.store.as_ref().map(|s| s.path().to_path_buf()) {
                Some(_) => self.commit("saved".into()),
                None => self.err("choose a file: File > Save As"),
            },
            Command::Export { kind, path } => self.start_export(kind, path),
            Command::OpenLast => {
                if let Some(last) = self.last_game.take() {
                    self.open(&last.path);
                }
            }
            Command::DismissLast => self.last_game = None,
            Command::SaveAs(path) => match Store::create(&path, &self.game) {
                Ok(store) => {
                    self.store = Some(store);
                    self.saved_len = self.game.log().len();
                    self.remember(&path);
                    self.ok(format!("saved to {}", path.display()));
                }
                Err(e) => self.err(e.to_string()),
            },
        }
    }

    fn start_export(&mut self, kind: ExportKind, path: PathBuf) {
        if self.export_job.is_some() {
            self.err("an export is already running; wait for it to finish");
            return;
        }
        match ExportJob::start(kind, path, self.settings.paper, &self.game, self.tables) {
            Ok(job) => {
                self.ok(format!("{}...", job.kind.verb()));
                self.export_job = Some(job);
            }
            Err(e) => self.err(e),
        }
    }

    /// Collects a finished export: its message goes to the status line. Called every frame; true
    /// while an export is still running (so the window keeps repainting its progress bar).
    pub fn poll_export(&mut self) -> bool {
        let Some(job) = self.export_job.as_mut() else {
            return false;
        };
        match job.poll() {
            None => true,
            Some(result) => {
                self.export_job = None;
                match result {
                    Ok(msg) => {
                        self.export.open = false;
                        self.ok(msg);
                    }
                    Err(e) => self.err(format!("export failed: {e}")),
                }
                false
            }
        }
    }

    fn remember(&mut self, path: &Path) {
        let recent = &mut self.settings.recent;
        recent.retain(|p| p != path);
        recent.insert(0, path.to_path_buf());
        recent.truncate(8);
    }

    /// Opens a game file (recovering a newer journal), keeping the current game on any error.
    pub fn open(&mut self, path: &Path) {
        match Store::open(path) {
            Ok(opened) => {
                let mut notes = opened.warnings.clone();
                if opened.recovered > 0 {
                    notes.push(format!(
                        "recovered {} action(s) from the journal",
                        opened.recovered
                    ));
                }
                let fresh = AppState::with_game(
                    opened.game,
                    Some(opened.store),
                    self.tables,
                    crate::cli::fresh_seed(),
                );
                self.switch_to(fresh);
                self.remember(path);
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
