//! The window's state and the one place it changes: [`AppState::handle`] takes a [`Command`].
//!
//! Panels read the state and push commands; nothing else mutates the game. Every game change goes
//! through [`kepi_game::engine::game::Game`] (so it is logged and undoable) and, when the game has a file, through
//! [`kepi_game::store::Store`] (journal first, so nothing acknowledged is ever lost).
//!
//! This file keeps the types the panels see ([`View`], [`Command`], [`Panels`], [`Settings`]),
//! [`AppState`] itself and [`AppState::handle`]; the rest is split by concern: the groups
//! [`Guard`], [`Files`], [`Dialogs`] and [`Options`] (`groups.rs`), where the game is played
//! ([`Mode`], [`Remote`] and what is asked of the host, `remote.rs`), journalling a change
//! (`journal.rs`), opening, saving and replacing the game (`files.rs`), the last game's offer
//! ([`LastGame`], `last_game.rs`), exports (`export.rs`), a campaign's battles (`battles.rs`) and
//! the changes made by hand and by the resolver, with the status line they leave (`play.rs`).

mod battles;
mod export;
mod files;
mod groups;
mod journal;
mod last_game;
mod play;
mod remote;

pub use groups::{Dialogs, Files, Guard, Options};
pub use last_game::LastGame;
pub use play::{in_window_words, rolled_entry_status, rolled_status};
pub use remote::{Mode, Remote, Request, Stash};

use remote::umpires_only;

use std::path::PathBuf;

use chrono::Utc;

use super::dice_tray::DiceTray;
use super::exports::ExportKind;
use super::file_dialog::Purpose;
use super::resolver::ResolverState;
use kepi_game::dice::{DiceExpr, Die};
use kepi_game::engine::game::{Action, Game, GameState, SeedSecret};
use kepi_game::registry::builtin_scenario;
use kepi_game::roster::Scenario;
use kepi_game::rules::Tables;
use kepi_game::store::Store;
use kepi_middle::export::Paper;

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
    /// File > Import units from CSV…'s last mapping, (card field, column header), offered for
    /// the next file (issue 43).
    pub csv_columns: Vec<(String, String)>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            dark: true,
            scale: 1.15,
            recent: Vec::new(),
            paper: Paper::default(),
            last_folder: None,
            csv_columns: Vec::new(),
        }
    }
}

/// Something the window works out from the game (and its view options) and keeps until either
/// changes: at 2,000 units and 10,000 log entries, redoing it every frame cost more than drawing.
#[derive(Clone, Debug)]
pub struct Memo<K, V> {
    key: Option<K>,
    value: V,
}

impl<K, V: Default> Default for Memo<K, V> {
    fn default() -> Self {
        Memo {
            key: None,
            value: V::default(),
        }
    }
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
    /// The map editor (Board > Edit map, issue 41): the map being edited, its undo, its tools.
    pub map_edit: super::map_edit::MapEditor,
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
    /// Show the order-of-battle builder (File > New battle…, File > Edit order of battle…).
    ShowBuilder(crate::builder::Opening),
    /// Start a new game from the builder's order of battle ("Start this battle").
    StartBattle(Box<Scenario>),
    /// Print the builder's order of battle to `path`: its roster ("Print roster") or its unit
    /// cards ("Export cards"), as `kind` says.
    PrintBattle {
        /// The order of battle.
        scenario: Box<Scenario>,
        /// Where.
        path: PathBuf,
        /// What: [`crate::exports::ExportKind::RosterPdf`] or a card export.
        kind: crate::exports::ExportKind,
    },
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
    /// Issue 41: open the map editor (Board > Edit map): on the game's map, or on a file chosen.
    EditMap,
    /// A map file or module chosen for the map editor ([`Purpose::EditMap`],
    /// [`Purpose::SaveMapAs`], [`Purpose::VassalModule`]).
    MapFile(Purpose, PathBuf),
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
                | Command::ShowBuilder(_)
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
            | Command::StartBattle(_)
            | Command::Open(_)
            | Command::OpenLast
            | Command::Close
                if !self.guarded(&cmd) => {}
            Command::NewGame(name) => self.new_from_scenario(&name),
            Command::NewFromCards(path) => self.new_from_cards(&path),
            Command::StartBattle(s) => self.new_from_built(&s),
            Command::PrintBattle {
                scenario,
                path,
                kind,
            } => self.print_built(&scenario, path, kind),
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
            Command::EditMap => {
                let map = self.game.state().map.clone();
                if !self.panels.map_edit.edit_game_map(map.as_ref()) {
                    self.handle(Command::ChooseFile(Purpose::EditMap));
                }
            }
            Command::MapFile(purpose, path) => {
                let map = self.game.state().map.clone();
                self.panels.map_edit.chosen(purpose, &path, map.as_ref());
            }
            Command::ReturnToCampaign(winner) => self.return_to_campaign(winner),
            Command::SetOwnDice(_)
            | Command::SetLook { .. }
            | Command::ShowNet(_)
            | Command::ShowExport(_)
            | Command::ShowFight
            | Command::ShowReturn
            | Command::ShowBuilder(_) => self.show(cmd),
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
            Command::ShowBuilder(opening) => {
                let current = self.current_scenario();
                self.dialogs.builder.show(opening, Some(current));
            }
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
}
