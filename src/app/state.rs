//! The window's state and the one place it changes: [`AppState::handle`] takes a [`Command`].
//!
//! Panels read the state and push commands; nothing else mutates the game. Every game change goes
//! through [`kepi_game::engine::game::Game`] (so it is logged and undoable) and, when the game has a file, through
//! [`kepi_game::store::Store`] (journal first, so nothing acknowledged is ever lost).

use std::path::{Path, PathBuf};

use chrono::Utc;

use super::dice_tray::DiceTray;
use super::exports::{ExportDialog, ExportJob, ExportKind};
use super::file_dialog::{FileDialog, Native, Purpose};
use super::resolver::ResolverState;
use kepi_game::dice::{DiceExpr, Die};
use kepi_game::engine::game::{Action, Game, GameState, SeedSecret};
use kepi_game::export::Paper;
use kepi_game::registry::builtin_scenario;
use kepi_game::roster::Scenario;
use kepi_game::rules::Tables;
use kepi_game::store::Store;

/// The bottom tabs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum BottomTab {
    /// The resolver (the centre's first tab in the rule sets played with a tape measure).
    Resolver,
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
    /// The folder a file dialog last chose a file in (Open, Save As, an export...): the next
    /// dialog starts there when the game has no file of the user's own (issue 46: Save As
    /// started in the home folder).
    pub last_folder: Option<PathBuf>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            dark: true,
            scale: 1.15,
            recent: Vec::new(),
            paper: Paper::default(),
            last_folder: None,
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

/// What a panel reads in a frame: the game and what the user picked, borrowed from the window's
/// state. A panel keeps its own state (its filters, folded groups, rows held under the pointer,
/// a reason being typed) and answers with [`Command`]s, egui_demo_lib's habit: it is drawn with
/// `ui(&mut self, ui, &View) -> Vec<Command>` and can be drawn and tested alone.
#[derive(Clone, Copy)]
pub struct View<'a> {
    /// The game.
    pub game: &'a Game,
    /// The rule tables.
    pub tables: &'static Tables,
    /// The acting unit.
    pub selected: Option<&'a str>,
    /// The target.
    pub target: Option<&'a str>,
    /// Where the game is played.
    pub mode: &'a Mode,
    /// "I roll my own dice".
    pub own_dice: bool,
    /// The settings kept between runs (the recent files, the theme and scale).
    pub settings: &'a Settings,
    /// An export is running (another waits for it).
    pub exporting: bool,
    /// The save the game is kept in, if it has one (the Host dialog names it).
    pub save_path: Option<&'a std::path::Path>,
    /// That save is kepi's own, in its folder, made at the game's first action (it moves where
    /// the user chooses at the first Save As).
    pub autosaved: bool,
    /// Some actions are not on disk (the status line says so in the error colour).
    pub unsaved: bool,
}

impl<'a> View<'a> {
    /// A view of `game` alone, as a panel drawn by itself sees it: nothing picked, played here,
    /// kepi's dice, no file.
    pub fn bare(
        game: &'a Game,
        tables: &'static Tables,
        mode: &'a Mode,
        settings: &'a Settings,
    ) -> View<'a> {
        View {
            game,
            tables,
            selected: None,
            target: None,
            mode,
            own_dice: false,
            settings,
            exporting: false,
            save_path: None,
            autosaved: false,
            unsaved: false,
        }
    }

    /// The game is kept in a file the user chose (not in kepi's folder, where it moves at its
    /// first Save As).
    pub fn own_file(&self) -> bool {
        self.save_path.is_some() && !self.autosaved
    }

    /// The game state.
    pub fn state(&self) -> &'a GameState {
        self.game.state()
    }

    /// Why `what` (undo, redo, the next phase) is not this window's to do, if it is not: a
    /// player's seat on the network leaves it to the umpire. The top bar disables those buttons
    /// with this on hover, as [`AppState::handle`] would refuse them.
    pub fn not_yours(&self, what: &str) -> Option<String> {
        let side = self.mode.side()?;
        Some(umpires_only(side, what))
    }
}

/// The panels that keep their own state (see [`View`]).
#[derive(Default)]
pub struct Panels {
    /// The roster: its search, filters and folded groups, and its rows for them.
    pub roster: super::roster::RosterPanel,
    /// The log: its filters and the last Verify.
    pub log: super::log_panel::LogPanel,
    /// The due checks: the rows held under the pointer, the reasons being typed.
    pub due: super::due::DuePanel,
    /// The map (hex rule sets): hex size, overlay, the board drawn so far, a drag under way.
    pub map: super::map::MapPanel,
    /// The rolls without a unit: the verb picked and the options typed for its next roll.
    pub other_rolls: super::other_rolls::OtherRollsPanel,
    /// The dice tray: the expression and the dice typed for its next roll.
    pub tray: DiceTray,
    /// The strength chart's points for the current log.
    pub charts: super::charts::ChartCache,
    /// The top bar and its menus (File, View, Help), with the Help window it opens.
    pub top_bar: super::top_bar::TopBar,
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
    /// A free roll of the game's dice from the dice tray (DICE-2), logged; `entered` holds the
    /// player's own dice, one value per die, or nothing for kepi's dice.
    Roll {
        /// What to roll.
        expr: DiceExpr,
        /// The physical dice read out, in order.
        entered: Vec<u32>,
    },
    /// Select the acting unit.
    Select(String),
    /// Select the target unit.
    Target(String),
    /// SPI-C2, FR-C1: add a unit to the hex combat's attackers, or take it out (Ctrl-click in the
    /// roster or on the map).
    ToggleAttacker(String),
    /// The words of `kepi game apply` (a roll without a unit: P&K initiative, SPI victory...),
    /// applied as that command applies them (issue 28).
    Words(Vec<String>),
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
    /// Roll the form a due check asks for, for its unit (with kepi's dice; in own-dice mode the
    /// form only opens, for the player to type the dice). The resolution answers this check only.
    RollDue(u64),
    /// The umpire approves or rejects a player's request waiting for approval (on the network).
    Decide {
        /// The request's number.
        request: u64,
        /// Approve (the host applies it) or reject it.
        approve: bool,
        /// Why, for a rejection (logged, and told to the player).
        reason: Option<String>,
    },
    /// List in the roster only the units the phase still waits for.
    ShowStillToAct,
    /// Start a new game from a bundled scenario.
    NewGame(String),
    /// Start a new game from a unit-card file (a scenario or order of battle in TOML).
    NewFromCards(PathBuf),
    /// Open a game file.
    Open(PathBuf),
    /// Save (to the chosen file; a game kept in kepi's folder asks for one: Save As).
    Save,
    /// Save to this file (the game moves there from kepi's folder).
    SaveAs(PathBuf),
    /// Choose a file for `Purpose`: the desktop's dialog when it has one, else the in-window one.
    ChooseFile(Purpose),
    /// Close the window (asks first when something could be lost).
    Close,
    /// The answer "Discard" to "this game has actions not on disk": do what was asked anyway.
    Discard,
    /// The answer "Cancel": do nothing.
    CancelGuard,
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
    /// Issue 30: fight the combat of "Fight as a battle" as a battle saved to this new file
    /// (`kepi campaign battle`), then open the battle.
    FightBattle(PathBuf),
    /// "I roll my own dice" (true) or kepi's (false).
    SetOwnDice(bool),
    /// The theme and the UI scale (View menu).
    SetLook {
        /// Dark theme.
        dark: bool,
        /// UI scale.
        scale: f32,
    },
    /// Show the network's Host or Join dialog.
    ShowNet(super::net_ui::NetDialog),
    /// Show the print and export dialog on this kind, named beside the game's save.
    ShowExport(ExportKind),
    /// Issue 30: show "Fight as a battle" for the resolver's combat.
    ShowFight,
    /// Issue 30: show "Return to the campaign" for the battle open.
    ShowReturn,
    /// Issue 30: bring the battle open back to its campaign with this winner (None: a draw), as
    /// `kepi campaign return` does, then open the campaign.
    ReturnToCampaign(Option<kepi_game::roster::Side>),
}

impl Command {
    /// A dialog or an option asked for, changing nothing in the game: the window handles it at
    /// once, so the dialog shows (or the dice fields appear) in the frame it was asked in, as
    /// when the panels set it themselves.
    pub fn shows_only(&self) -> bool {
        matches!(
            self,
            Command::SetOwnDice(_)
                | Command::SetLook { .. }
                | Command::ShowNet(_)
                | Command::ShowExport(_)
                | Command::ShowFight
                | Command::ShowReturn
        )
    }
}

/// A message in the status line.
#[derive(Clone, Debug, PartialEq)]
pub struct Status {
    /// The text.
    pub text: String,
    /// Shown in the error colour.
    pub error: bool,
}

/// The whole window's state: the game (with where it is kept), what the user picked, where it is
/// played, the panels and the resolver, and a few groups by concern (the close guard, the file
/// dialogs, the dialogs over the workspace, the window's options). Everything that changes the
/// game goes through [`AppState::handle`].
pub struct AppState {
    /// The game being played.
    pub game: Game,
    /// Its file: chosen by the user, or kepi's own from the game's first action (`autosaved`);
    /// every action is journalled there before it shows.
    pub store: Option<Store>,
    /// The store lives in kepi's folder: no file was chosen yet (Ctrl+S asks for one).
    pub autosaved: bool,
    /// Log length known to be on disk (in the journal); a longer log could still be lost.
    pub saved_len: usize,
    /// Where games nobody saved are kept (`<data dir>/kepi/games`); `None` keeps nothing, so the
    /// first action leaves the game at risk and the guards ask before it is dropped.
    pub data_dir: Option<PathBuf>,
    /// When the game last changed (the full save is rewritten once the table is idle).
    pub last_change: Option<std::time::Instant>,
    /// The rule tables.
    pub tables: &'static Tables,
    /// Acting unit.
    pub selected: Option<String>,
    /// Target unit.
    pub target: Option<String>,
    /// Where the game is played: here, or on the network (hosting it, or joined to a host), where
    /// the host applies every action and the window's changes go to it as requests
    /// ([`Remote::outbox`]).
    pub mode: Mode,
    /// The panels that keep their own state (see [`View`]).
    pub panels: Panels,
    /// The resolver: its forms, the dice typed, the last roll's card.
    pub resolver: ResolverState,
    /// "This game has actions not on disk" and closing the window.
    pub guard: Guard,
    /// Choosing files: the desktop's dialogs or the in-window one.
    pub files: Files,
    /// The dialogs over the workspace (export, network, campaign, the last game's offer).
    pub dialogs: Dialogs,
    /// What the window shows and how the dice are rolled.
    pub options: Options,
    /// Persistent settings.
    pub settings: Settings,
    /// Status line.
    pub status: Option<Status>,
}

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
    discarding: bool,
}

impl Guard {
    /// Lets `cmd` run unless something could be lost (`unsaved`) and it was not answered
    /// "Discard": then it waits for the answer.
    fn lets(&mut self, cmd: &Command, unsaved: bool) -> bool {
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
    fn cancel(&mut self) {
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
        super::file_dialog::home()
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
    pub net: Option<super::net_ui::NetDialog>,
    /// "Fight as a battle" and "Return to the campaign" (issue 30).
    pub campaign: super::campaign::CampaignUi,
    /// The last game, offered at start ("continue" or "recover").
    pub last_game: Option<LastGame>,
}

impl Dialogs {
    /// A finished export's message (the dialog closes once it succeeded); `None` while one runs
    /// or none does.
    fn finished_export(&mut self) -> Option<Result<String, String>> {
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
    fn for_system(system: kepi_game::rules::RuleSetId) -> Options {
        Options {
            bottom: BottomTab::first(system),
            side_log: false,
            scroll_to_top: true,
            own_dice: false,
        }
    }
}

impl BottomTab {
    /// The tab a game of `system` opens on: the map for a hex rule set, else the resolver.
    pub fn first(system: kepi_game::rules::RuleSetId) -> BottomTab {
        if crate::map::has_map(system) {
            BottomTab::Map
        } else {
            BottomTab::Resolver
        }
    }
}

/// Where the window's game is played. The network's connections (the host's thread, the
/// window's link) belong to the Host and Join dialogs' panel ([`super::net_ui::NetUi`]); what the
/// game needs to know of them is here, once.
#[derive(Debug, Default)]
pub enum Mode {
    /// The window keeps the game and its save.
    #[default]
    Local,
    /// The window hosts its game and follows it as the umpire's seat.
    Hosting(Remote),
    /// The window has joined a host's game as a seat.
    Joined(Remote),
}

impl Mode {
    /// The window's seat and requests while on the network.
    pub fn remote(&self) -> Option<&Remote> {
        match self {
            Mode::Local => None,
            Mode::Hosting(r) | Mode::Joined(r) => Some(r),
        }
    }

    /// [`Mode::remote`], to change.
    pub fn remote_mut(&mut self) -> Option<&mut Remote> {
        match self {
            Mode::Local => None,
            Mode::Hosting(r) | Mode::Joined(r) => Some(r),
        }
    }

    /// On the network: the host applies every action.
    pub fn on_network(&self) -> bool {
        !matches!(self, Mode::Local)
    }

    /// The side whose units this window acts with (a player's seat), if any.
    pub fn side(&self) -> Option<kepi_game::roster::Side> {
        self.remote().and_then(Remote::side)
    }
}

/// The window on the network (hosting, or joined to a host): its seat, and what it asks the host.
///
/// The host is the only writer of the game, so the window never applies an action itself: an
/// edit, an undo, a phase, a tray roll or a resolver roll becomes the words of `kepi game apply`
/// ([`AppState::handle`]) and waits here until the network side sends it. Its answer comes back
/// as the host's log; a refusal is said on the status line.
#[derive(Debug)]
pub struct Remote {
    /// The seat this window holds (the umpire's while hosting; a joined seat once the host said).
    pub seat: Option<kepi_game::net::Seat>,
    /// Why opening, saving or starting another game is refused while on the network.
    pub why: String,
    /// Requests made and not yet sent, oldest first.
    pub outbox: Vec<Request>,
    /// Players' requests waiting for the umpire's approval (the umpire's seat; kept current by
    /// the network side), shown in the Due panel.
    pub pending: Vec<kepi_game::net::PendingRequest>,
    /// The umpire's decisions on them not yet sent: (request, approve, reason).
    pub decisions: Vec<(u64, bool, Option<String>)>,
    /// Resolver rolls asked of the host and not answered yet: the resolver's Roll waits for the
    /// answer, so a second click does not roll twice.
    pub waiting: u32,
}

/// One request for the host.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// The words of `kepi game apply`.
    pub words: Vec<String>,
    /// A resolver roll: its result card shows the entry it makes.
    pub resolution: bool,
}

impl Remote {
    /// On the network as `seat` (None until the host says), refusing file commands with `why`.
    pub fn new(seat: Option<kepi_game::net::Seat>, why: impl Into<String>) -> Remote {
        Remote {
            seat,
            why: why.into(),
            outbox: Vec::new(),
            pending: Vec::new(),
            decisions: Vec::new(),
            waiting: 0,
        }
    }

    /// The side whose units this window acts with (a player's seat), if any.
    pub fn side(&self) -> Option<kepi_game::roster::Side> {
        match self.seat {
            Some(kepi_game::net::Seat::Player(side)) => Some(side),
            _ => None,
        }
    }
}

/// The local game set aside while the window shows a joined one (given back on Leave).
pub struct Stash {
    game: Game,
    store: Option<Store>,
    autosaved: bool,
    saved_len: usize,
}

/// The game kepi had open last time, offered when the window opens on the demo battle.
#[derive(Clone, Debug, PartialEq)]
pub struct LastGame {
    /// Its save.
    pub path: PathBuf,
    /// Its journal was written after its save: kepi stopped before the save caught up, and opening
    /// the game recovers the actions the journal holds.
    pub needs_recovery: bool,
    /// kepi stopped without closing it: the "running" marker the window keeps beside an open
    /// game was left behind ([`kepi_game::store::running`]); its line (when and by which kepi it was
    /// opened).
    pub unclean: Option<String>,
}

impl LastGame {
    /// The most recent game in `recent` that still exists. Only file times are read (two `stat`
    /// calls), so this costs nothing at start; opening the game does the real recovery.
    pub fn find(recent: &[PathBuf]) -> Option<LastGame> {
        LastGame::find_with(recent, None)
    }

    /// [`LastGame::find`], also looking at the games kepi keeps in `data_dir` (games nobody saved
    /// to a file of their own): the newest of those wins over the recent list's first when it was
    /// played more recently, so a battle played without ever choosing a file is offered too.
    pub fn find_with(recent: &[PathBuf], data_dir: Option<&Path>) -> Option<LastGame> {
        let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        let touched = |p: &Path| modified(p).max(modified(&kepi_game::store::journal_path(p)));
        let mut best = recent.iter().find(|p| p.is_file()).cloned();
        // A game kepi stopped without closing comes first: the newest of those with their marker
        // left (read only where a marker stands: one `stat` per game).
        let left = |p: &Path| {
            kepi_game::fsio::present(&kepi_game::store::running::marker_path(p))
                .then(|| kepi_game::store::running::left_behind(p))
                .flatten()
        };
        let mut unclean: Option<(PathBuf, String)> = None;
        let consider = |p: &Path, unclean: &mut Option<(PathBuf, String)>| {
            if let Some(line) = left(p)
                && unclean
                    .as_ref()
                    .is_none_or(|(u, _)| touched(p) > touched(u))
            {
                *unclean = Some((p.to_path_buf(), line));
            }
        };
        for p in recent.iter().filter(|p| p.is_file()) {
            consider(p, &mut unclean);
        }
        if let Some(dir) = data_dir
            && let Ok(rd) = std::fs::read_dir(dir.join("games"))
        {
            for e in rd.flatten().take(10_000) {
                let p = e.path();
                let is_save = p
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().ends_with(".kepi.json"));
                if !is_save || !p.is_file() {
                    continue;
                }
                consider(&p, &mut unclean);
                if best.as_ref().is_none_or(|b| touched(&p) > touched(b)) {
                    best = Some(p);
                }
            }
        }
        if let Some((path, line)) = unclean {
            return Some(LastGame {
                path,
                needs_recovery: true,
                unclean: Some(line),
            });
        }
        let path = best?;
        let needs_recovery = match (
            modified(&kepi_game::store::journal_path(&path)),
            modified(&path),
        ) {
            (Some(j), Some(s)) => j > s,
            _ => false,
        };
        Some(LastGame {
            path,
            needs_recovery,
            unclean: None,
        })
    }
}

/// What journalling a change came to.
enum Persisted {
    /// On disk (in the journal); with a warning when the save could not catch up.
    Done(Option<String>),
    /// The journal could not be written: the change was taken back (it never reappears).
    Dropped(String),
    /// Nowhere to keep the game (kepi's folder cannot be written): the change stands in memory
    /// only, and closing or replacing the game asks first.
    AtRisk(String),
}

/// Whether a command changes the game or replaces it (refused while the window is on the network:
/// the host applies every action).
fn changes_game(cmd: &Command) -> bool {
    matches!(
        cmd,
        Command::Act(_)
            | Command::Undo
            | Command::Redo
            | Command::NextPhase
            | Command::Roll { .. }
            | Command::ResolveAndApply { .. }
            | Command::Words(_)
            | Command::RollDue(_)
            | Command::NewGame(_)
            | Command::NewFromCards(_)
            | Command::Open(_)
            | Command::Save
            | Command::SaveAs(_)
            | Command::OpenLast
            | Command::Discard
    )
}

/// The scenario the window opens with.
pub const DEMO_SCENARIO: &str = "mars-la-tour";

/// The [`View`] of an `AppState`'s fields, borrowed field by field so that a panel beside it can
/// be borrowed mutably at once ([`AppState::split`], [`AppState::split_resolver`]).
macro_rules! view_of {
    ($s:ident) => {
        $crate::state::View {
            game: &$s.game,
            tables: $s.tables,
            selected: $s.selected.as_deref(),
            target: $s.target.as_deref(),
            mode: &$s.mode,
            own_dice: $s.options.own_dice,
            settings: &$s.settings,
            exporting: $s.dialogs.export_job.is_some(),
            save_path: $s.store.as_ref().map(|s| s.path()),
            autosaved: $s.autosaved,
            unsaved: $s.unsaved(),
        }
    };
}
pub(super) use view_of;

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
        Ok(AppState::with_game(game, None, tables))
    }

    /// A fresh workspace on `game` (and its file, when it has one): nothing selected, the bottom
    /// tab the rule set is played with, default settings.
    fn with_game(game: Game, store: Option<Store>, tables: &'static Tables) -> AppState {
        let system = game.state().system.system();
        AppState {
            saved_len: game.log().len(),
            game,
            store,
            autosaved: false,
            data_dir: None,
            last_change: None,
            tables,
            selected: None,
            target: None,
            mode: Mode::Local,
            panels: Panels::default(),
            resolver: ResolverState::new(system),
            guard: Guard::default(),
            files: Files::default(),
            dialogs: Dialogs::default(),
            options: Options::for_system(system),
            settings: Settings::default(),
            status: None,
        }
    }

    /// The panels, with the view they are drawn from (borrowed side by side).
    pub fn split(&mut self) -> (View<'_>, &mut Panels) {
        let view = view_of!(self);
        (view, &mut self.panels)
    }

    /// What the panels read, on its own (the Host and Join dialogs, drawn beside the state).
    pub fn view(&self) -> View<'_> {
        view_of!(self)
    }

    /// The resolver, with the view it is drawn from (borrowed side by side).
    pub fn split_resolver(&mut self) -> (View<'_>, &mut ResolverState) {
        let view = view_of!(self);
        (view, &mut self.resolver)
    }

    /// The save this game is kept in, if it has one.
    pub fn save_path(&self) -> Option<PathBuf> {
        self.store.as_ref().map(|s| s.path().to_path_buf())
    }

    /// Says something in the status line (in the error colour when `error`).
    pub fn set_status(&mut self, text: impl Into<String>, error: bool) {
        self.status = Some(Status {
            text: text.into(),
            error,
        });
    }

    /// Lets go of the save (rewritten first, its lock released) so a host can open it.
    pub fn release_store(&mut self) {
        self.compact();
        self.store = None;
        self.autosaved = false;
        self.saved_len = self.game.log().len();
    }

    /// Shows a game as the network has it (a host's log, replayed and verified): the window's
    /// game becomes it; nothing is written here. A game of another rule set gets a fresh resolver.
    pub fn show_remote(&mut self, game: Game) {
        let system = game.state().system.system();
        if system != self.game.state().system {
            self.resolver = ResolverState::new(system);
            self.options.bottom = BottomTab::first(system);
            self.selected = None;
            self.target = None;
        }
        self.saved_len = game.log().len();
        self.game = game;
        self.last_change = None;
    }

    /// Sets the local game aside (its file still held), to show a joined one.
    pub fn stash(&mut self) -> Stash {
        self.compact();
        let game = self.game.clone();
        Stash {
            game,
            store: self.store.take(),
            autosaved: std::mem::replace(&mut self.autosaved, false),
            saved_len: self.saved_len,
        }
    }

    /// Gives back the local game set aside by [`AppState::stash`].
    pub fn restore(&mut self, s: Stash) {
        let Stash {
            game,
            store,
            autosaved,
            saved_len,
        } = s;
        self.show_remote(game);
        self.store = store;
        self.autosaved = autosaved;
        self.saved_len = saved_len;
    }

    /// Switches to another game's workspace, keeping what belongs to the user rather than the
    /// game: settings, the dice mode (who rolls is the umpire's choice at this table, and no save
    /// says otherwise: issue 46, it went back to kepi's dice at every opening and when hosting
    /// stopped, which reopens the save) and an export still running.
    fn switch_to(&mut self, mut fresh: AppState) {
        self.compact();
        fresh.settings = std::mem::take(&mut self.settings);
        fresh.options.own_dice = self.options.own_dice;
        fresh.dialogs.export_job = self.dialogs.export_job.take();
        fresh.data_dir = self.data_dir.take();
        fresh.files.native = self.files.native;
        fresh.files.dialog.folder = std::mem::take(&mut self.files.dialog.folder);
        *self = fresh;
    }

    /// The demo battle.
    pub fn demo(seed: u64) -> Result<AppState, String> {
        let tables = kepi_game::registry::builtin_tables().map_err(|e| e.to_string())?;
        let scenario = builtin_scenario(DEMO_SCENARIO)?;
        AppState::new_game(&scenario, seed, tables)
    }

    /// The game state.
    pub fn state(&self) -> &GameState {
        self.game.state()
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

    /// A file in kepi's folder for a game nobody saved yet: the scenario's name and the time.
    fn autosave_path(&self) -> Option<PathBuf> {
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
    fn keep_in_data_dir(&mut self) -> Result<(), String> {
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

    /// Runs `cmd` unless something could be lost: then asks first (Save As / Discard / Cancel).
    fn guarded(&mut self, cmd: &Command) -> bool {
        let unsaved = self.unsaved();
        self.guard.lets(cmd, unsaved)
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

    /// Journals the new log entries (so a crash loses nothing); a game nobody saved gets its file
    /// in kepi's folder at its first action. See [`Persisted`] for what each outcome means.
    fn persist(&mut self) -> Persisted {
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
    fn commit(&mut self, summary: String) -> bool {
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

    /// The one place the window changes anything.
    pub fn handle(&mut self, cmd: Command) {
        let now = Utc::now();
        if self.mode.on_network() && changes_game(&cmd) {
            return self.ask_host(cmd);
        }
        self.chose(&cmd);
        match cmd {
            Command::Act(action) => self.act(action, now),
            // The status says what the log says ("undo: ..."): "undone: undo: ..." said it twice
            // (issue 46).
            Command::Undo => {
                let done = self.game.undo(now).map(|e| e.summary.clone());
                self.logged(done, "");
            }
            Command::Redo => {
                let done = self.game.redo(now).map(|e| e.summary.clone());
                self.logged(done, "");
            }
            Command::NextPhase => self.handle(Command::Act(Action::NextPhase)),
            Command::Words(words) => self.apply_words(&words),
            Command::Roll { expr, entered } => self.tray_roll(&expr, &entered, now),
            Command::Select(id) => self.pick(|app| app.selected = Some(id)),
            Command::ToggleAttacker(id) => self.pick(|app| app.resolver.toggle_attacker(&id)),
            Command::Target(id) => self.pick(|app| app.target = Some(id)),
            Command::ResolveAndApply { entered } => self.resolve_and_apply(&entered, now),
            Command::ShowStillToAct => {
                self.panels.roster.options.only_to_act = true;
                self.panels.roster.options.hide_eliminated = true;
            }
            Command::RollDue(id) => self.roll_due(id),
            Command::Decide {
                request,
                approve,
                reason,
            } => self.decide(request, approve, reason),
            Command::OpenForm {
                form,
                actor,
                target,
            } => {
                self.clear_form_error();
                self.open_form(&form, actor, target)
            }
            Command::NewGame(_)
            | Command::NewFromCards(_)
            | Command::Open(_)
            | Command::OpenLast
            | Command::Close
                if !self.guarded(&cmd) => {}
            Command::NewGame(name) => self.new_from_scenario(&name),
            Command::NewFromCards(path) => self.new_from_cards(&path),
            Command::Open(path) => self.open(&path),
            Command::Save if self.store.is_none() || self.autosaved => {
                self.handle(Command::ChooseFile(Purpose::SaveAs));
            }
            Command::Save => self.save(),
            Command::ChooseFile(purpose) => self.choose_file(purpose),
            Command::Close => {
                self.compact();
                self.guard.close_now = true;
            }
            Command::Discard => {
                if let Some(cmd) = self.guard.confirm.take() {
                    self.guard.discarding = true;
                    self.handle(*cmd);
                    self.guard.discarding = false;
                }
            }
            Command::CancelGuard => self.guard.cancel(),
            Command::Export { kind, path } if self.game.is_seat_view() => {
                self.export_seat_view(kind, path)
            }
            Command::Export { kind, path } => self.start_export(kind, path, None),
            Command::OpenLast => {
                if let Some(last) = self.dialogs.last_game.take() {
                    if last.unclean.is_some() {
                        self.recover_and_open(&last.path);
                    } else {
                        self.open(&last.path);
                    }
                }
            }
            Command::DismissLast => self.dialogs.last_game = None,
            Command::SaveAs(path) => self.save_as(&path),
            Command::FightBattle(path) => self.fight_battle(&path),
            Command::ReturnToCampaign(winner) => self.return_to_campaign(winner),
            Command::SetOwnDice(_)
            | Command::SetLook { .. }
            | Command::ShowNet(_)
            | Command::ShowExport(_)
            | Command::ShowFight
            | Command::ShowReturn => self.show(cmd),
        }
    }

    /// One action by hand (an edit, a move). A move logs what the rules say against it (the map
    /// showed it while dragging), the same notes `kepi game apply move` logs.
    fn act(&mut self, action: Action, now: chrono::DateTime<Utc>) {
        let action = match action {
            Action::Move { unit, to, mp, .. } => {
                kepi_game::engine::flow::move_action(&self.game, unit, to, mp, self.tables)
            }
            other => other,
        };
        let done = self
            .game
            .act(action, now)
            .cloned()
            .map(|e| status_of(&e, self.game.state()));
        self.logged(done, "");
    }

    /// A free roll of the dice tray (DICE-2): its typed dice are for this roll only.
    fn tray_roll(&mut self, expr: &DiceExpr, entered: &[u32], now: chrono::DateTime<Utc>) {
        match self.game.roll_entered(expr, entered, now) {
            Ok(e) => {
                let s = e.summary.clone();
                self.panels.tray.error = None;
                self.panels.tray.entered_text.clear();
                self.commit(s);
            }
            Err(e) => {
                self.panels.tray.error = Some(e.to_string());
                self.err(e.to_string());
            }
        }
    }

    /// A change of the units picked (acting, target, a hex combat's attackers): the resolver's
    /// form is filled again for them, and a complaint about the last pick is cleared.
    fn pick(&mut self, change: impl FnOnce(&mut AppState)) {
        self.clear_form_error();
        change(self);
        self.resolver.prefill(
            self.game.state(),
            self.selected.as_deref(),
            self.target.as_deref(),
            self.tables,
        );
    }

    /// The umpire's decision on a player's request waiting for approval, queued for the host.
    fn decide(&mut self, request: u64, approve: bool, reason: Option<String>) {
        match self.mode.remote_mut() {
            Some(r) if r.seat == Some(kepi_game::net::Seat::Umpire) => {
                r.decisions.push((request, approve, reason));
                let what = if approve { "approving" } else { "rejecting" };
                self.ok(format!("{what} request {request}…"));
            }
            _ => self.err("only the umpire's window on the network decides requests"),
        }
    }

    /// A new game of a bundled scenario, freshly seeded.
    fn new_from_scenario(&mut self, name: &str) {
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
    fn new_from_cards(&mut self, path: &Path) {
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

    /// An export from a seat's view. It holds placeholders for the strengths hidden from it:
    /// printed, they would read as figures. The seat's own side prints (roster, cards, units);
    /// the reports, which read the whole log, are the umpire's.
    fn export_seat_view(&mut self, kind: ExportKind, path: PathBuf) {
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

    /// Issue 30, CAMP-B1: makes the battle of the "Fight as a battle" dialog at `out` exactly as
    /// `kepi campaign battle` does ([`kepi_game::campaign::ops::make_battle`]), with the campaign's
    /// pending combat journalled, then opens it. Refused: said whole in the dialog and the status
    /// line, nothing applied.
    fn fight_battle(&mut self, out: &Path) {
        use kepi_game::campaign::ops::{self, BattleOrder, Front};
        let Some(dialog) = self.dialogs.campaign.fight.take() else {
            return self.err("no combat to fight as a battle: press \"Fight as a battle\" first");
        };
        let refused = |app: &mut AppState, mut dialog: super::campaign::FightDialog, m: String| {
            dialog.error = Some(m.clone());
            app.dialogs.campaign.fight = Some(dialog);
            app.err(m);
        };
        if let Some(why) = super::campaign::fight_unavailable(self) {
            return refused(self, dialog, why);
        }
        let table = match kepi_game::campaign::CampaignTable::load(None) {
            Ok(t) => t,
            Err(e) => return refused(self, dialog, format!("{e}; nothing applied")),
        };
        let Some(store) = self.store.as_mut() else {
            return refused(self, dialog, "save the campaign first".into());
        };
        let campaign = store.path().to_path_buf();
        let order = BattleOrder {
            attackers: &dialog.combat.attackers,
            hex: dialog.combat.hex,
            rules: dialog.rules,
            out,
            seed: kepi_game::dice::fresh_seed(),
        };
        let made = ops::make_battle(&mut self.game, store, &campaign, &order, &table);
        match made {
            Ok(made) => {
                self.saved_len = self.game.log().len();
                self.last_change = Some(std::time::Instant::now());
                self.remember(&campaign);
                let e = &made.link.engagement;
                let mut msg = format!(
                    "a {} battle for hex {} ({} table units) in {}; the campaign's combat is \
                     pending (check #{})",
                    e.rules.title(),
                    e.hex,
                    e.units.len(),
                    out.display(),
                    e.pending
                );
                for w in &made.warnings {
                    msg.push_str(&format!(" (warning: {w})"));
                }
                self.open(out);
                if self.save_path().as_deref() == Some(out) {
                    self.ok(msg);
                } else {
                    let why = self
                        .status
                        .as_ref()
                        .map(|s| s.text.clone())
                        .unwrap_or_default();
                    self.err(format!("{msg}; but the battle did not open here: {why}"));
                }
            }
            Err(e) => refused(self, dialog, e.say(Front::Window)),
        }
    }

    /// Issue 30, CAMP-C2 and CAMP-R1: brings the battle open back to its campaign exactly as
    /// `kepi campaign return` does ([`kepi_game::campaign::ops::give_back`]), then opens the campaign
    /// (or says where it is). Refused: said whole in the dialog and the status line, nothing
    /// applied.
    fn return_to_campaign(&mut self, winner: Option<kepi_game::roster::Side>) {
        use kepi_game::campaign::ops::{self, Front};
        let mut dialog = self.dialogs.campaign.give.take();
        let result = (|| -> Result<(PathBuf, ops::GivenBack), String> {
            if self.mode.on_network() {
                return Err("on the network: the battle is returned from the host's kepi".into());
            }
            if self.unsaved() {
                return Err(
                    "the battle has actions not on disk: save it first (File > Save As); nothing \
                     applied"
                        .into(),
                );
            }
            let battle = self.save_path().ok_or_else(|| {
                "this battle has no file: save it first (File > Save As); nothing applied"
                    .to_string()
            })?;
            let link = ops::link_in(&self.game, &battle).map_err(|e| e.say(Front::Window))?;
            let path = ops::campaign_path(&link, None).map_err(|e| e.say(Front::Window))?;
            ops::give_back(&self.game, &battle, &link, &path, winner, false)
                .map(|g| (path, g))
                .map_err(|e| e.say(Front::Window))
        })();
        match result {
            Ok((path, given)) => {
                let lost: Vec<String> = given
                    .returned
                    .losses
                    .iter()
                    .map(|l| format!("{} -{}", l.unit, l.lost))
                    .collect();
                let mut msg = format!(
                    "returned to the campaign {}: {} ({})",
                    path.display(),
                    given.resolution.summary,
                    lost.join(", ")
                );
                for w in &given.warnings {
                    msg.push_str(&format!(" (warning: {w})"));
                }
                self.open(&path);
                if self.save_path().as_deref() == Some(path.as_path()) {
                    self.ok(msg);
                } else {
                    let why = self
                        .status
                        .as_ref()
                        .map(|s| s.text.clone())
                        .unwrap_or_default();
                    self.err(format!(
                        "{msg}; the campaign is at {} (it did not open here: {why})",
                        path.display()
                    ));
                }
            }
            Err(m) => {
                if let Some(d) = dialog.as_mut() {
                    d.error = Some(m.clone());
                }
                self.dialogs.campaign.give = dialog;
                self.err(m);
            }
        }
    }

    /// An action, undo or redo done (its summary, to keep on disk and show) or refused.
    fn logged(&mut self, done: Result<String, kepi_game::engine::game::ActionError>, prefix: &str) {
        match done {
            Ok(summary) => {
                self.commit(format!("{prefix}{summary}"));
            }
            Err(e) => self.err(e.to_string()),
        }
    }

    /// A dialog or an option the panels asked for (nothing in the game changes).
    fn show(&mut self, cmd: Command) {
        match cmd {
            Command::SetOwnDice(own) => self.options.own_dice = own,
            Command::SetLook { dark, scale } => {
                self.settings.dark = dark;
                self.settings.scale = scale;
            }
            Command::ShowNet(d) => self.dialogs.net = Some(d),
            Command::ShowExport(kind) => {
                let folder = self.dialog_folder();
                self.dialogs.export.show_for(kind, Some(folder.as_path()));
            }
            Command::ShowFight => {
                if let Some(combat) =
                    super::campaign::combat_of(self.resolver.form(), self.game.state())
                    && let Some(rules) = kepi_game::registry::playing(
                        kepi_game::engine::rule_set::CampaignPart::Battle,
                    )
                    .first()
                    .copied()
                {
                    self.dialogs.campaign.fight = Some(super::campaign::FightDialog {
                        combat,
                        rules,
                        error: None,
                    });
                }
            }
            Command::ShowReturn => {
                self.dialogs.campaign.give = Some(super::campaign::ReturnDialog {
                    ending: super::campaign::Ending::Unsaid,
                    preview: None,
                    error: None,
                });
            }
            _ => {}
        }
    }

    /// A change the window would make, asked of the host instead (the window is on the network):
    /// as the words of `kepi game apply`, queued for the network side to send. A player's seat
    /// makes resolutions only; anything else is refused here at once, as the host would.
    fn ask_host(&mut self, cmd: Command) {
        let Some(remote) = self.mode.remote() else {
            return;
        };
        let player = remote.side();
        let why = remote.why.clone();
        let umpires = |what: &str| match player {
            Some(side) => Err(umpires_only(side, what)),
            None => Ok(()),
        };
        // What the status line says was asked: the action as the log will word it.
        let mut asked = None;
        let request = match cmd {
            // A due check's roll opens its form and rolls it: through the resolver, below.
            Command::RollDue(id) => return self.roll_due(id),
            // Ctrl+S: nothing to do here, and nothing wrong either.
            Command::Save => {
                return self.ok("the host keeps the save: every action is journaled as it applies");
            }
            Command::Act(action) => umpires("changing a unit by hand").and_then(|()| {
                asked = Some(action.describe(self.game.state()));
                serde_json::to_string(&action)
                    .map(|j| vec!["action".to_string(), j])
                    .map_err(|e| e.to_string())
            }),
            Command::Undo => umpires("undo").map(|()| vec!["undo".to_string()]),
            Command::Redo => umpires("redo").map(|()| vec!["redo".to_string()]),
            Command::NextPhase => umpires("the next phase").map(|()| vec!["next-phase".into()]),
            // The host checks the words against the seat, as `kepi remote apply` has them.
            Command::Words(words) => Ok(words),
            Command::Roll { expr, entered } => umpires("a roll of the tray").map(|()| {
                let mut w = vec!["roll".to_string(), expr.to_string()];
                if !entered.is_empty() {
                    let v: Vec<String> = entered.iter().map(u32::to_string).collect();
                    w.push("--dice".into());
                    w.push(v.join(","));
                }
                w
            }),
            // One roll at a time: a second click (or R) before the host answered is not a
            // second roll.
            Command::ResolveAndApply { .. } if remote.waiting > 0 => Err(
                "a roll is waiting for the host's answer; roll again once it is in the log".into(),
            ),
            Command::ResolveAndApply { entered } => self.resolution_words(&entered),
            _ => Err(why),
        };
        match request {
            Ok(words) => {
                let resolution = words.first().is_some_and(|w| w == "form");
                self.panels.tray.entered_text.clear();
                let asked = asked.unwrap_or_else(|| words.join(" "));
                self.ok(format!("asked the host: {asked}…"));
                if let Some(r) = self.mode.remote_mut() {
                    r.waiting += u32::from(resolution);
                    r.outbox.push(Request { words, resolution });
                }
            }
            Err(e) => self.err(e),
        }
    }

    /// The resolver's form as the words of `kepi game apply form ...`: its units, a combat's other
    /// attackers, only the fields the user changed, and the dice entered; the host derives the
    /// rest from its own game. Refused here when the form cannot be rolled now.
    fn resolution_words(
        &mut self,
        entered: &[(kepi_game::dice::Die, u32)],
    ) -> Result<Vec<String>, String> {
        self.resolver.derive(self.game.state(), self.tables);
        let form = self
            .resolver
            .form()
            .ok_or("this rule set has no resolver actions")?;
        if let Some(why) = form.refusal(self.game.state()) {
            return Err(why);
        }
        if let (Some(side), Some(actor)) = (
            self.mode.side(),
            form.units().0.and_then(|a| self.game.state().unit(a)),
        ) && actor.unit.side != side
        {
            return Err(format!(
                "{} is a {} unit; the {} seat acts only with {} units",
                actor.unit.name,
                actor.unit.side.as_str(),
                side.as_str(),
                side.as_str()
            ));
        }
        let changes = self.resolver.changes();
        kepi_game::moves::play::form_words(form, &self.resolver.extra_attackers, &changes, entered)
            .ok_or_else(|| {
                if form.needs_target() {
                    "pick the acting unit and its target first".to_string()
                } else {
                    "pick the acting unit first".to_string()
                }
            })
    }

    /// The host answered a resolution this window asked for with the entry `index`: the result
    /// card shows it once the host's log holds it.
    pub fn resolved_remotely(&mut self, index: u64) {
        self.resolver.last_rolled = Some(index);
        self.resolver.last_form = Some(self.resolver.current);
        self.resolver.clear_typed();
    }

    /// Rolls the resolver's form and applies it, one undo step. The roll uses the units as they
    /// are now, whatever happened since the last frame.
    fn resolve_and_apply(
        &mut self,
        entered: &[(kepi_game::dice::Die, u32)],
        now: chrono::DateTime<Utc>,
    ) {
        let tables = self.tables;
        // The roll uses the units as they are now, whatever happened since the last frame.
        self.resolver.derive(self.game.state(), tables);
        let form = self.resolver.clone();
        let units: Vec<String> = form
            .form()
            .map(|f| {
                // The target is logged only for a form that has one: a rally or fatigue
                // roll is about its unit alone, whoever was last picked as a target.
                let (a, t) = f.units();
                let t = t.filter(|_| f.needs_target());
                a.into_iter().chain(t).map(str::to_string).collect()
            })
            .unwrap_or_default();
        // What is odd about this roll now (phase, side, a unit that already acted) goes
        // into the log entry with it: the umpire went ahead, and the log says so.
        let warnings = form
            .form()
            .map(|f| kepi_game::engine::play::breaches::warnings(f, &self.game))
            .unwrap_or_default();
        // Logged with the resolution, so `kepi log verify` can resolve it again (issue 29).
        let input = form.form().and_then(|f| serde_json::to_value(f).ok());
        let result = self.game.resolve_logged(
            units,
            input,
            entered,
            |state, dice| {
                form.resolve_with_effects(state, tables, dice)
                    .map(|(mut r, effects)| {
                        r.notes
                            .extend(warnings.iter().map(|w| format!("umpire went ahead: {w}")));
                        (r, effects)
                    })
            },
            now,
        );
        match result {
            Ok(e) => {
                // Issue 46: what the umpire went ahead with leads, so the one-line status never
                // cuts it off its end.
                let s = rolled_entry_status(e);
                self.resolver.last_rolled = self.game.log().last().map(|e| e.index);
                self.resolver.last_form = Some(self.resolver.current);
                if self.commit(s) {
                    self.resolver.clear_typed();
                } else {
                    self.resolver.last_rolled = None;
                }
            }
            Err(e) => {
                let text = in_window_words(&e.to_string());
                self.err(text.clone());
                self.resolver.form_error = Some(text);
            }
        }
    }

    /// The words of `kepi game apply` applied to the window's game (a roll without a unit), then
    /// recorded; what they made is said in the status line as the log says it, a refusal with
    /// the words that were refused.
    fn apply_words(&mut self, words: &[String]) {
        let before = self.game.log().len();
        let applied = kepi_game::moves::apply_in_memory(&mut self.game, words, self.tables);
        let said: Vec<String> = self.game.log()[before.min(self.game.log().len())..]
            .iter()
            .map(|e| status_of(e, self.game.state()))
            .collect();
        if !said.is_empty() {
            self.commit(said.join("; "));
        }
        if let Err(e) = applied {
            self.err(format!(
                "{}: {}",
                words.join(" "),
                in_window_words(&e.to_string())
            ));
        }
    }

    /// The units were picked again: a status line still saying why the form did not roll (a
    /// unit missing then) is stale, and goes.
    fn clear_form_error(&mut self) {
        if let Some(t) = self.resolver.form_error.take()
            && self.status.as_ref().is_some_and(|s| s.error && s.text == t)
        {
            self.status = None;
        }
    }

    /// A due check's "Roll": opens its form for its unit and, with kepi's dice, rolls it.
    fn roll_due(&mut self, id: u64) {
        let Some(due) = self.state().due.iter().find(|d| d.id == id).cloned() else {
            return self.err(format!("due check #{id} is no longer open"));
        };
        let (Some(form), Some(unit)) = (due.form.clone(), due.unit.clone()) else {
            return self.err(format!(
                "due check #{id} has no form to roll: make it at the table and mark it done"
            ));
        };
        self.handle(Command::OpenForm {
            form,
            actor: Some(unit),
            target: None,
        });
        if !self.options.own_dice {
            self.handle(Command::ResolveAndApply {
                entered: Vec::new(),
            });
        }
    }

    /// Opens a resolver form, with its units when given.
    fn open_form(&mut self, form: &str, actor: Option<String>, target: Option<String>) {
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

    /// Save: everything on disk, the save rewritten (the journal already holds every action).
    fn save(&mut self) {
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
    fn save_as(&mut self, path: &Path) {
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
    fn choose_file(&mut self, purpose: Purpose) {
        let folder = self.dialog_folder();
        if self.files.native {
            match super::file_dialog::native(purpose, &folder) {
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
    fn chose(&mut self, cmd: &Command) {
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

    /// Starts an export of the game (or of `other`, a seat's own side).
    fn start_export(&mut self, kind: ExportKind, path: PathBuf, other: Option<&Game>) {
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

    fn remember(&mut self, path: &Path) {
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
    fn open_with(
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
                    kepi_game::campaign::ops::returned_already(&self.game).map(|r| r.say());
                if let Some(r) = &self.dialogs.campaign.returned {
                    notes.push(format!("warning: {r}"));
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

/// "undo is the umpire's; the french seat makes resolutions with its own units".
fn umpires_only(side: kepi_game::roster::Side, what: &str) -> String {
    format!(
        "{what} is the umpire's; the {} seat makes resolutions with its own units",
        side.as_str()
    )
}

/// An entry as the status line says it: its line and the notes logged with it, from the one
/// formatter the log panel, the card, `kepi log show` and the report use.
fn status_of(e: &kepi_game::engine::game::LogEntry, state: &GameState) -> String {
    let t = kepi_game::engine::game::entry_text(e, state);
    std::iter::once(t.line)
        .chain(t.notes)
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The status line after a roll, from the entry it logged: the breaches its notes say someone
/// went ahead with (the umpire, a seat, an approved request: [`breach_of`]), then its outcome
/// ([`rolled_status`]). The one line a roll in this window and the host's answer to a roll this
/// window asked for both say (issue 46: a joined window said the host's summary alone).
///
/// [`breach_of`]: kepi_game::engine::play::breaches::breach_of
pub fn rolled_entry_status(e: &kepi_game::engine::game::LogEntry) -> String {
    let breaches: Vec<String> = match &e.kind {
        kepi_game::engine::game::EntryKind::Act {
            action: Action::Resolved { resolution, .. },
        } => resolution
            .notes
            .iter()
            .filter_map(|n| kepi_game::engine::play::breaches::breach_of(n))
            .map(str::to_string)
            .collect(),
        _ => Vec::new(),
    };
    rolled_status(&breaches, &e.summary)
}

/// The status line after a roll: the breaches the umpire went ahead with first, each citing its
/// rule by id alone (the card and the log keep the text quoted: "1RC has already attacked this
/// combat phase (SPI-C2)"), then the outcome (issue 46: at the end, a breach was cut off the
/// one-line status).
pub fn rolled_status(breaches: &[String], summary: &str) -> String {
    if breaches.is_empty() {
        return summary.to_string();
    }
    let said: Vec<String> = breaches.iter().map(|b| cited_by_id(b)).collect();
    format!("went ahead: {} · {summary}", said.join("; "))
}

/// A breach whose last parenthesis quotes its rule ("... (SPI-C2, case C: \"No unit may
/// ...\")"), with the rule's id alone in it ("... (SPI-C2)"); any other breach as it is.
fn cited_by_id(breach: &str) -> String {
    let rule_id = |inside: &str| -> Option<String> {
        let id: String = inside
            .chars()
            .take_while(|c| !matches!(c, ',' | ':' | ' '))
            .collect();
        let (set, rest) = id.split_once('-')?;
        (!set.is_empty()
            && set.chars().all(|c| c.is_ascii_uppercase())
            && rest.starts_with(|c: char| c.is_ascii_uppercase()))
        .then_some(id)
    };
    breach
        .strip_suffix(')')
        .and_then(|b| b.rfind(" (").map(|at| (at, &b[at + 2..])))
        .and_then(|(at, inside)| rule_id(inside).map(|id| format!("{} ({id})", &breach[..at])))
        .unwrap_or_else(|| breach.to_string())
}

/// A refusal in the window's words: the command-line option it names is the field the window
/// shows for it (issue 26: "errors ... phrased in command-line flags").
pub fn in_window_words(text: &str) -> String {
    const FIELDS: &[(&str, &str)] = &[
        ("--result: ", "result from your printed chart"),
        ("--to: ", "to cell"),
        ("--at: ", "lands at cell"),
        ("--port: ", "port"),
    ];
    FIELDS
        .iter()
        .find_map(|(flag, field)| {
            text.strip_prefix(flag)
                .map(|rest| format!("{field}: {rest}"))
        })
        .unwrap_or_else(|| text.to_string())
}

#[cfg(test)]
mod tests {
    use super::rolled_status;

    #[test]
    fn a_rolls_status_leads_with_what_the_umpire_went_ahead_with() {
        let breaches = [
            "1RC has already attacked this combat phase (SPI-C2, case C: \"No unit may attack more than once per Combat Phase\")".to_string(),
            "2RC in 2040 is 3 hexes from 2138 (FR-C1, E8: \"All units fight in contact\")".to_string(),
            "a unit (its own words)".to_string(),
        ];
        assert_eq!(
            rolled_status(&breaches, "odds 2:1, die 4: A1/D2"),
            "went ahead: 1RC has already attacked this combat phase (SPI-C2); 2RC in 2040 is 3 hexes from 2138 (FR-C1); a unit (its own words) · odds 2:1, die 4: A1/D2"
        );
        assert_eq!(rolled_status(&[], "odds 2:1"), "odds 2:1");
    }
}
