//! The host: the umpire's kepi serving its game to the table (`kepi serve`).
//!
//! One thread accepts connections; each connection has its own thread, which reads the client's
//! requests and writes what is queued for it. The game (the [`Game`], its [`Store`] and who is
//! connected) sits behind one mutex, taken in turns ([`super::turns`]: the umpire's first, then
//! the seats round-robin, so no seat's requests starve another's): a request (at most
//! [`super::MAX_REQUEST_VERBS`] verbs) is parsed, checked against the seat, applied, journaled
//! and fsynced under it, then its entries are queued for every other client (a bounded queue
//! each: a client too slow to keep up is dropped, and catches up when it reconnects, rather than
//! holding up the table) and answered to its maker. Nothing a client sends can make the host
//! stop or read a file: a malformed, oversized or unexpected message closes that connection only.

use std::collections::HashMap;
use std::collections::VecDeque;
use std::io::Write as _;
use std::net::{IpAddr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TryRecvError, TrySendError, sync_channel};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use tungstenite::protocol::WebSocketConfig;
use tungstenite::{Message, WebSocket};

use super::gate::{
    FAIL_DELAY, Gate, HANDSHAKE_DEADLINE, MAX_HANDSHAKES, MAX_PER_SEAT, Ticket, Verdict,
};
use super::io::Tcp;
use super::turns::{Turn, Turns};
use super::{
    CATCH_UP_BATCH, ClientMsg, Code, HostMsg, MAX_REQUEST_BYTES, MAX_REQUEST_VERBS, NetError,
    PROTOCOL_VERSION, PendingRequest, Refusal, Seat, Welcome,
};
use crate::moves::MoveError;
use crate::moves::{apply_verbs, check_verbs};
use kepi_game::engine::game::{Game, LogEntry};
use kepi_game::engine::play::breaches::WentAhead;
use kepi_game::roster::Side;
use kepi_game::rules::Tables;
use kepi_game::store::Store;

mod address;
mod connection;
mod events;
mod requests;
mod seats;

use address::lan_ip;
pub use address::{can_listen_on, exposure_warning, not_an_own_address, own_addresses, reach};
use connection::*;
pub use connection::{CLOSED, DROPPED};
use events::*;
pub use requests::too_many_verbs_said;
use requests::*;
pub use seats::SeatCode;
use seats::*;

/// Messages queued for one client before it counts as too slow and is dropped.
pub const QUEUE_PER_CLIENT: usize = 1024;

/// Threads serving connections at once, besides those [`super::gate`] lets in: past this a new
/// connection is told "host is full: N connections" and closed, so a flood of sockets cannot
/// exhaust threads.
pub const MAX_CONNECTIONS: usize = 64;

pub use super::gate::{FAIL_WINDOW, MAX_FAILED_CODES};

/// Events waiting to be told (the `kepi serve` output, the window's dialog). A request makes up
/// to [`super::MAX_REQUEST_VERBS`] events at once, so this rides out bursts of several; when it
/// is full, whoever tells the next event waits for room ([`EVENT_WAIT`]).
pub const EVENT_QUEUE: usize = 1024;

/// How long an event waits for room in a full queue before its reader counts as stopped (it
/// took no event for that long: `kepi serve --json | sleep 100`). Only then are events dropped
/// (counted, and said once the reader is back), without waiting again until it takes one: a
/// reader that keeps reading, however fast events come, loses none.
pub const EVENT_WAIT: Duration = Duration::from_secs(2);

/// Requests one seat may have waiting for the umpire at once; more are refused until some are
/// decided, so a player (or a script) cannot fill the host's memory with held requests.
pub const MAX_PENDING_PER_SEAT: usize = 32;

/// How often a connection's thread looks at its queue and the stop flag while its client is quiet.
const POLL: Duration = Duration::from_millis(15);

/// How long a write to a client may block before the client counts as gone.
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// What to do when starting a host.
#[derive(Clone, Debug)]
pub struct HostOptions {
    /// Address to listen on (`0.0.0.0`: every interface of the machine).
    pub bind: IpAddr,
    /// Port; 0 picks a free one.
    pub port: u16,
    /// Make new join codes instead of reusing those kept beside the save.
    pub new_codes: bool,
}

/// Something worth telling the umpire, passed to the host's event callback.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A client joined a seat.
    Connected {
        /// The seat.
        seat: Seat,
        /// Its address.
        peer: String,
    },
    /// A client left (or was dropped).
    Disconnected {
        /// The seat, if it got that far.
        seat: Option<Seat>,
        /// Its address.
        peer: String,
        /// Why.
        reason: String,
    },
    /// A log entry was journaled for a seat.
    Applied {
        /// Who asked.
        seat: Seat,
        /// The entry's index.
        index: u64,
        /// What it did.
        summary: String,
    },
    /// A request or a connection was refused.
    Refused {
        /// Its address.
        peer: String,
        /// Why.
        reason: String,
    },
    /// A player's request is held for the umpire's approval.
    Held {
        /// Who asked.
        seat: Seat,
        /// The held request's number.
        request: u64,
        /// What it asks (the words).
        words: String,
    },
    /// The umpire approved or rejected a held request (the log holds the decision).
    Decided {
        /// The held request's number.
        request: u64,
        /// Who had asked.
        seat: Seat,
        /// Approved (and applied) or rejected.
        approved: bool,
        /// The rejection's reason, or why the rules refused the approved request.
        #[serde(skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// Approval of players' resolutions was turned on or off.
    Approval {
        /// Whether players' resolutions wait for the umpire now.
        on: bool,
    },
    /// A warning about the save (it is behind its journal; the action stands).
    Warning {
        /// What.
        message: String,
    },
}

/// The callback a host reports [`Event`]s to (the `kepi serve` output, the window's host dialog).
pub type EventSink = Arc<dyn Fn(&Event) + Send + Sync>;

/// One connected client's queue.
struct Outbox {
    tx: SyncSender<Message>,
    kicked: Arc<AtomicBool>,
    /// The side whose own view this client gets (strengths hidden), if any.
    hide: Option<Side>,
}

/// A player's request held for the umpire, and the connection to tell the decision.
struct Held {
    req: PendingRequest,
    conn: u64,
}

/// The game and who follows it; one mutex.
struct Core {
    game: Game,
    store: Store,
    followers: HashMap<u64, Outbox>,
    /// Every joined connection's queue (followers or not), for answers that come later: the
    /// decision on a held request goes to the connection that asked.
    direct: HashMap<u64, SyncSender<Message>>,
    /// Whether players' resolutions wait for the umpire's approval.
    approval: bool,
    /// Requests held for the umpire, oldest first. They live as long as the host; one still held
    /// when the host stops is logged as undecided (never dropped silently).
    pending: Vec<Held>,
    /// The number the next held request gets (from 1).
    next_request: u64,
    /// `kepi serve --hide-strengths`: player seats get their own view even if the scenario does
    /// not ask for it.
    hide: bool,
    /// The player seats' own chains while strengths are hidden ([`super::redact::SeatChains`]).
    chains: super::redact::SeatChains,
}

impl Core {
    /// Whether player seats get their own view: the host's option or the scenario's key.
    fn hiding(&self) -> bool {
        self.hide || self.game.state().hide_strengths
    }

    /// The head a seat's replica must reach: the log's, or for `hide`'s seat its own chain's.
    fn head_for(&mut self, hide: Option<Side>) -> String {
        match hide {
            None => self.game.head(),
            Some(side) => self.chains.head(side, self.game.log(), self.game.state()),
        }
    }

    /// The log's entries `range` as `side`'s seat receives them (hidden ones opened first when
    /// `open_before` and the seed is revealed), with its view and state of the game now.
    fn seen_by(
        &mut self,
        side: Side,
        range: std::ops::Range<usize>,
        open_before: bool,
    ) -> (
        Vec<super::redact::SeatEntry>,
        serde_json::Value,
        Box<kepi_game::engine::game::GameState>,
    ) {
        let Core { game, chains, .. } = self;
        let entries = chains.seen(side, game.log(), game.state(), range, open_before);
        let head = chains.head(side, game.log(), game.state());
        (
            entries,
            super::redact::seat_view(game, side, head),
            Box::new(super::redact::seat_state(game, side)),
        )
    }

    /// [`Core::seen_by`] for entries just made: the seed's reveal among them opens the hidden
    /// entries before them.
    fn seen_made(
        &mut self,
        side: Side,
        made: &[LogEntry],
    ) -> (
        Vec<super::redact::SeatEntry>,
        serde_json::Value,
        Box<kepi_game::engine::game::GameState>,
    ) {
        let range = match (made.first(), made.last()) {
            (Some(a), Some(b)) => a.index as usize..b.index as usize + 1,
            _ => 0..0,
        };
        let reveals = made
            .iter()
            .any(|e| matches!(e.kind, kepi_game::engine::game::EntryKind::Reveal { .. }));
        self.seen_by(side, range, reveals)
    }
}

/// What every connection thread shares.
struct Shared {
    core: Mutex<Core>,
    seats: Vec<(Seat, Code)>,
    tables: &'static Tables,
    stop: Arc<AtomicBool>,
    gate: Mutex<Gate>,
    /// Whose work on the game goes next ([`super::turns`]).
    turns: Turns,
    events: EventQueue,
    next_conn: AtomicU64,
    live: AtomicU64,
}

impl Shared {
    fn core(&self) -> MutexGuard<'_, Core> {
        // A connection thread that panicked while holding the lock left the game as it was before
        // or after a whole action (every change is one `record`), so carry on with it.
        self.core.lock().unwrap_or_else(|p| p.into_inner())
    }
    /// The game for work of `seat`'s, in its turn ([`super::turns`]): every connection thread
    /// takes the game this way for anything longer than a glance.
    fn core_for(&self, seat: Seat) -> Turned<'_> {
        let turn = self.turns.take(seat);
        Turned {
            core: self.core(),
            _turn: turn,
        }
    }
    fn event(&self, e: Event) {
        self.events.tell(e);
    }
    fn gate(&self) -> MutexGuard<'_, Gate> {
        self.gate.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The game taken in a turn ([`Shared::core_for`]): the lock goes first, then the turn.
struct Turned<'a> {
    core: MutexGuard<'a, Core>,
    _turn: Turn<'a>,
}

impl std::ops::Deref for Turned<'_> {
    type Target = Core;
    fn deref(&self) -> &Core {
        &self.core
    }
}

impl std::ops::DerefMut for Turned<'_> {
    fn deref_mut(&mut self) -> &mut Core {
        &mut self.core
    }
}

/// A game being hosted: listening, with its seats' codes.
pub struct Host {
    listener: TcpListener,
    shared: Arc<Shared>,
    address: SocketAddr,
    save: PathBuf,
}

/// What a host that stopped leaves: the save, caught up.
#[derive(Clone, Debug)]
pub struct Stopped {
    /// Log entries in the save.
    pub entries: usize,
    /// The chain head.
    pub head: String,
    /// The save could not be rewritten (the journal still holds everything).
    pub warning: Option<String>,
    /// Events that could not be told because their reader stopped reading (it took none for
    /// [`EVENT_WAIT`]).
    pub dropped_events: u64,
}

impl Host {
    /// Opens the save for writing (taking its lock, catching it up from its journal), makes or
    /// reuses the seats' codes and starts listening. Nothing is served until [`Host::serve`].
    pub fn open(
        save: &Path,
        options: &HostOptions,
        tables: &'static Tables,
        events: EventSink,
    ) -> Result<Host, NetError> {
        let opened = Store::open(save)?;
        let events = EventQueue::start(events);
        for w in &opened.warnings {
            events.tell(Event::Warning { message: w.clone() });
        }
        let seats = Seat::of(opened.game.state());
        // Beside the save's real file, as its journal and lock are (a symlinked save's `.seats`
        // went beside the link, everything else beside its target).
        let real = opened.store.path().to_path_buf();
        let codes = seat_codes(&real, &seats, options.new_codes)?;
        let listener = TcpListener::bind((options.bind, options.port)).map_err(|e| {
            // An address this machine does not have is said in words, with the ones it has,
            // not as the OS's "os error 99".
            let why = if e.kind() == std::io::ErrorKind::AddrNotAvailable {
                not_an_own_address(options.bind, &own_addresses())
            } else {
                e.to_string()
            };
            NetError::Address(format!(
                "cannot listen on {}:{}: {why}",
                options.bind, options.port
            ))
        })?;
        let address = listener
            .local_addr()
            .map_err(|e| NetError::Host(format!("cannot read the port: {e}")))?;
        listener
            .set_nonblocking(true)
            .map_err(|e| NetError::Host(format!("cannot listen: {e}")))?;
        Ok(Host {
            listener,
            address,
            save: save.to_path_buf(),
            shared: Arc::new(Shared {
                core: Mutex::new(Core {
                    game: opened.game,
                    store: opened.store,
                    followers: HashMap::new(),
                    direct: HashMap::new(),
                    approval: false,
                    pending: Vec::new(),
                    next_request: 1,
                    hide: false,
                    chains: super::redact::SeatChains::new(seat_key(&real, options.new_codes)?),
                }),
                seats: codes,
                tables,
                stop: Arc::new(AtomicBool::new(false)),
                gate: Mutex::new(Gate::default()),
                turns: Turns::new(seats.clone()),
                events,
                next_conn: AtomicU64::new(0),
                live: AtomicU64::new(0),
            }),
        })
    }

    /// Connections served at once: those joining (and as many again being dropped), and every
    /// seat's full room, within [`MAX_CONNECTIONS`] at least.
    fn max_threads(&self) -> usize {
        (2 * MAX_HANDSHAKES + self.shared.seats.len() * MAX_PER_SEAT).max(MAX_CONNECTIONS)
    }

    /// The address and port listened on.
    pub fn local_addr(&self) -> SocketAddr {
        self.address
    }

    /// The address players type: `ws://HOST:PORT`, with this machine's address on the local
    /// network when listening on every interface.
    pub fn url(&self) -> String {
        let ip = if self.address.ip().is_unspecified() {
            lan_ip().unwrap_or(IpAddr::from([127, 0, 0, 1]))
        } else {
            self.address.ip()
        };
        match ip {
            IpAddr::V6(v6) => format!("ws://[{v6}]:{}", self.address.port()),
            IpAddr::V4(v4) => format!("ws://{v4}:{}", self.address.port()),
        }
    }

    /// The seats and their codes, umpire first.
    pub fn seats(&self) -> Vec<SeatCode> {
        self.shared
            .seats
            .iter()
            .map(|(s, c)| SeatCode {
                seat: *s,
                code: c.as_str().to_string(),
            })
            .collect()
    }

    /// The save being served.
    pub fn save(&self) -> &Path {
        &self.save
    }

    /// What LAN discovery advertises about this game (no code: codes are never advertised).
    pub fn advert(&self) -> super::discovery::Advert {
        let core = self.shared.core();
        let state = core.game.state();
        super::discovery::Advert {
            title: state.title.to_string(),
            rules: state.system.id().to_string(),
            protocol: PROTOCOL_VERSION,
            port: self.address.port(),
        }
    }

    /// Whether players' resolutions wait for the umpire's approval (`kepi serve --approve`; the
    /// umpire's seat can turn it on and off while serving).
    pub fn set_approval(&self, on: bool) {
        self.shared.core().approval = on;
    }

    /// Player seats are sent their own view, the other side's strengths hidden
    /// (`kepi serve --hide-strengths`; a scenario with `hide_strengths = true` hides them
    /// whatever this says). Set it before serving: clients already joined keep what they got.
    pub fn set_hide_strengths(&self, on: bool) {
        self.shared.core().hide = on;
    }

    /// Whether player seats are sent their own view (the option or the scenario's key).
    pub fn hide_strengths(&self) -> bool {
        self.shared.core().hiding()
    }

    /// Whether players' resolutions wait for the umpire's approval now.
    pub fn approval(&self) -> bool {
        self.shared.core().approval
    }

    /// The requests held for the umpire's approval now, oldest first.
    pub fn pending(&self) -> Vec<PendingRequest> {
        self.shared
            .core()
            .pending
            .iter()
            .map(|h| h.req.clone())
            .collect()
    }

    /// Serves until `stop` is set (a signal, the window's Stop button), then closes every
    /// connection and rewrites the save so it holds every action.
    ///
    /// While it serves, the host keeps the save's "running" marker ([`kepi_game::store::running`],
    /// never through a link nor over another file), as the window keeps it for a game it has
    /// open, and removes it on this clean stop: a host killed (`kill -9`, the power cut) leaves
    /// it, so the next start says kepi stopped uncleanly (issue 46: hosting handed the save over
    /// and nothing kept the marker).
    pub fn serve(self, stop: &AtomicBool) -> Result<Stopped, NetError> {
        self.shared.core().store.mark_running();
        let mut threads: Vec<JoinHandle<()>> = Vec::new();
        while !stop.load(Ordering::SeqCst) {
            match self.listener.accept() {
                Ok((stream, peer)) => {
                    threads.retain(|t| !t.is_finished());
                    let live = self.shared.live.load(Ordering::SeqCst) as usize;
                    if live >= self.max_threads() {
                        full_http(&stream, live);
                        self.shared.event(Event::Refused {
                            peer: peer.to_string(),
                            reason: format!("host is full: {live} connections"),
                        });
                        continue;
                    }
                    // A joining connection has its place at the gate before its thread starts,
                    // so a flood of new ones pushes out the one that has been joining longest.
                    let (ticket, pushed) = self.shared.gate().joining(stream.try_clone().ok());
                    if pushed {
                        // The one pushed out counts no more: its thread is ending (its count
                        // is not taken again when it does, `dropped` being set).
                        self.shared.live.fetch_sub(1, Ordering::SeqCst);
                    }
                    self.shared.live.fetch_add(1, Ordering::SeqCst);
                    let shared = Arc::clone(&self.shared);
                    let id = ticket.id;
                    let dropped = Arc::clone(&ticket.dropped);
                    let spawned = std::thread::Builder::new()
                        .name(format!("kepi-conn-{peer}"))
                        .spawn(move || {
                            connection(&shared, stream, peer, ticket);
                            if !dropped.load(Ordering::SeqCst) {
                                shared.live.fetch_sub(1, Ordering::SeqCst);
                            }
                        });
                    match spawned {
                        Ok(t) => threads.push(t),
                        Err(e) => {
                            self.shared.gate().joined(id);
                            self.shared.live.fetch_sub(1, Ordering::SeqCst);
                            self.shared.event(Event::Refused {
                                peer: peer.to_string(),
                                reason: format!("no thread for it: {e}"),
                            });
                        }
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(e) => {
                    // A connection that failed before it was accepted (reset, out of files):
                    // not the host's end.
                    self.shared.event(Event::Warning {
                        message: format!("accept: {e}"),
                    });
                    std::thread::sleep(Duration::from_millis(50));
                }
            }
        }
        self.shared.stop.store(true, Ordering::SeqCst);
        let deadline = Instant::now() + Duration::from_secs(3);
        for t in threads {
            while !t.is_finished() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(5));
            }
            if t.is_finished() {
                let _ = t.join();
            }
        }
        let mut core = self.shared.core();
        let Core {
            game,
            store,
            pending,
            ..
        } = &mut *core;
        // Requests still held are not lost silently: each is logged as undecided (the player
        // asks again in the next session) and told to the umpire (once the lock is released).
        let mut told = Vec::new();
        for h in std::mem::take(pending) {
            let text = format!(
                "{}'s request {} was not decided before the host stopped: {}",
                h.req.seat,
                h.req.request,
                h.req.text()
            );
            let words = ["note".to_string(), text.clone()];
            let noted = apply_verbs::<MoveError>(
                game,
                store,
                &words,
                self.shared.tables,
                &|_, _| Ok(()),
                &mut |_, _, _| Ok(()),
            );
            let message = match noted {
                Ok(()) => text,
                Err(e) => format!("{text} (and it could not be logged: {})", e.message),
            };
            told.push(message);
        }
        let warning = store.compact(game).err().map(|e| e.to_string());
        // A clean stop (the journal holds every action, whether or not the save caught up).
        store.clear_running();
        let (entries, head) = (game.log().len(), game.head());
        drop(core);
        for message in told {
            self.shared.event(Event::Warning { message });
        }
        // The last events (who left, requests left undecided) reach their reader before the
        // host says it stopped, unless that reader is not reading.
        self.shared
            .events
            .drain(Instant::now() + Duration::from_secs(2));
        Ok(Stopped {
            entries,
            head,
            warning,
            dropped_events: self.shared.events.dropped(),
        })
    }
}
