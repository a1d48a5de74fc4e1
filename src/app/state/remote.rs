//! Where the window's game is played ([`Mode`]: here, hosting or joined) and what the window asks
//! of the host while on the network: its seat ([`Remote`]), the requests it queues ([`Request`],
//! as the words of `kepi game apply`), the umpire's decisions, and the local game set aside while
//! a joined one shows ([`Stash`]).

use super::{AppState, BottomTab, Command};
use crate::resolver::ResolverState;
use kepi_game::engine::game::Game;
use kepi_game::store::Store;

/// Where the window's game is played. The network's connections (the host's thread, the
/// window's link) belong to the Host and Join dialogs' panel ([`crate::net_ui::NetUi`]); what the
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
    pub seat: Option<kepi_middle::net::Seat>,
    /// Why opening, saving or starting another game is refused while on the network.
    pub why: String,
    /// Requests made and not yet sent, oldest first.
    pub outbox: Vec<Request>,
    /// Players' requests waiting for the umpire's approval (the umpire's seat; kept current by
    /// the network side), shown in the Due panel.
    pub pending: Vec<kepi_middle::net::PendingRequest>,
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
    pub fn new(seat: Option<kepi_middle::net::Seat>, why: impl Into<String>) -> Remote {
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
            Some(kepi_middle::net::Seat::Player(side)) => Some(side),
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

impl AppState {
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

    /// The umpire's decision on a player's request waiting for approval, queued for the host.
    pub(super) fn decide(&mut self, request: u64, approve: bool, reason: Option<String>) {
        match self.mode.remote_mut() {
            Some(r) if r.seat == Some(kepi_middle::net::Seat::Umpire) => {
                r.decisions.push((request, approve, reason));
                let what = if approve { "approving" } else { "rejecting" };
                self.ok(format!("{what} request {request}…"));
            }
            _ => self.err("only the umpire's window on the network decides requests"),
        }
    }

    /// A change the window would make, asked of the host instead (the window is on the network):
    /// as the words of `kepi game apply`, queued for the network side to send. A player's seat
    /// makes resolutions only; anything else is refused here at once, as the host would.
    pub(super) fn ask_host(&mut self, cmd: Command) {
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
    pub(super) fn resolution_words(
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
        kepi_middle::moves::play::form_words(
            form,
            &self.resolver.extra_attackers,
            &changes,
            entered,
        )
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
}

/// "undo is the umpire's; the french seat makes resolutions with its own units".
pub(super) fn umpires_only(side: kepi_game::roster::Side, what: &str) -> String {
    format!(
        "{what} is the umpire's; the {} seat makes resolutions with its own units",
        side.as_str()
    )
}
