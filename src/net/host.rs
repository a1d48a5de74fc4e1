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
use crate::engine::game::{Game, LogEntry};
use crate::engine::play::breaches::WentAhead;
use crate::moves::MoveError;
use crate::moves::{apply_verbs, check_verbs};
use crate::roster::Side;
use crate::rules::Tables;
use crate::store::Store;

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
        Box<crate::engine::game::GameState>,
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
        Box<crate::engine::game::GameState>,
    ) {
        let range = match (made.first(), made.last()) {
            (Some(a), Some(b)) => a.index as usize..b.index as usize + 1,
            _ => 0..0,
        };
        let reveals = made
            .iter()
            .any(|e| matches!(e.kind, crate::engine::game::EntryKind::Reveal { .. }));
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

/// The host's events, told in order on a thread of their own from a queue of [`EVENT_QUEUE`]:
/// they are never told under the game's lock, so a reader of them that lags never holds up the
/// table. With the queue full, an event waits for room up to [`EVENT_WAIT`]; one that gets none
/// means the reader stopped reading (`kepi serve --json | sleep 100`), and events are then
/// dropped without waiting, counted, and said once the reader takes one again.
struct EventQueue {
    shared: Arc<(Mutex<Events>, Condvar)>,
}

/// The queue of events and what became of them.
#[derive(Default)]
struct Events {
    queue: VecDeque<Event>,
    /// The reader took no event for [`EVENT_WAIT`] with the queue full; cleared when it takes one.
    stopped: bool,
    /// Events dropped so far.
    dropped: u64,
    /// Events queued, and events told (so a stopping host can let the queue empty first).
    queued: u64,
    told: u64,
    /// The host is gone: the thread ends once the queue is empty.
    closed: bool,
}

impl EventQueue {
    /// Starts the thread that tells `sink` each event in order.
    fn start(sink: EventSink) -> EventQueue {
        let shared = Arc::new((Mutex::new(Events::default()), Condvar::new()));
        let theirs = Arc::clone(&shared);
        let _ = std::thread::Builder::new()
            .name("kepi-events".into())
            .spawn(move || {
                let (lock, changed) = &*theirs;
                let events = || lock.lock().unwrap_or_else(|p| p.into_inner());
                let mut said = 0;
                loop {
                    let mut q = events();
                    let e = loop {
                        if let Some(e) = q.queue.pop_front() {
                            break e;
                        }
                        if q.closed {
                            return;
                        }
                        q = changed.wait(q).unwrap_or_else(|p| p.into_inner());
                    };
                    // Taken: there is room, and the reader is reading (it took the one before).
                    q.stopped = false;
                    drop(q);
                    changed.notify_all();
                    sink(&e);
                    let mut q = events();
                    q.told += 1;
                    let dropped = q.dropped;
                    drop(q);
                    changed.notify_all();
                    if dropped > said {
                        said = dropped;
                        sink(&Event::Warning {
                            message: format!(
                                "{dropped} events were not told: their reader stopped reading (the game went on)"
                            ),
                        });
                    }
                }
            });
        EventQueue { shared }
    }

    fn events(&self) -> MutexGuard<'_, Events> {
        self.shared.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Queues an event, waiting for room up to [`EVENT_WAIT`] (not at all while the reader has
    /// stopped): an event that gets none is dropped and counted. Never called under the game's
    /// lock.
    fn tell(&self, e: Event) {
        let changed = &self.shared.1;
        let deadline = Instant::now() + EVENT_WAIT;
        let mut q = self.events();
        while q.queue.len() >= EVENT_QUEUE && !q.stopped {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                q.stopped = true;
                break;
            }
            q = changed
                .wait_timeout(q, left)
                .map(|(q, _)| q)
                .unwrap_or_else(|p| p.into_inner().0);
        }
        if q.queue.len() >= EVENT_QUEUE {
            q.dropped += 1;
            return;
        }
        q.queue.push_back(e);
        q.queued += 1;
        drop(q);
        changed.notify_all();
    }

    /// Waits until every queued event has been told, or `until`; not at all while the reader has
    /// stopped reading.
    fn drain(&self, until: Instant) {
        let changed = &self.shared.1;
        let mut q = self.events();
        while !q.stopped && q.told < q.queued {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return;
            }
            q = changed
                .wait_timeout(q, left)
                .map(|(q, _)| q)
                .unwrap_or_else(|p| p.into_inner().0);
        }
    }

    /// Events dropped so far.
    fn dropped(&self) -> u64 {
        self.events().dropped
    }
}

impl Drop for EventQueue {
    fn drop(&mut self) {
        self.events().closed = true;
        self.shared.1.notify_all();
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

/// The codes file beside a save: `SAVE.seats`, readable by its owner only.
#[derive(Serialize, Deserialize)]
struct SeatsFile {
    format: String,
    seats: Vec<SeatCode>,
}

/// A seat and its code, as `kepi serve` prints them and keeps them.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SeatCode {
    /// The seat.
    pub seat: Seat,
    /// Its join code.
    pub code: String,
}

const SEATS_FORMAT: &str = "kepi-seats";

fn seats_path(save: &Path) -> PathBuf {
    let mut s = save.as_os_str().to_os_string();
    s.push(".seats");
    PathBuf::from(s)
}

/// The seats' codes: those kept beside the save (so players' codes survive a restart of the
/// host) when they cover exactly these seats, else new ones, kept.
fn seat_codes(save: &Path, seats: &[Seat], fresh: bool) -> Result<Vec<(Seat, Code)>, NetError> {
    let path = seats_path(save);
    if !fresh
        && let Ok(bytes) = crate::fsio::read_regular_nofollow(&path, 64 * 1024, "seats file")
        && let Ok(file) = serde_json::from_slice::<SeatsFile>(&bytes)
        && file.format == SEATS_FORMAT
        && file.seats.len() == seats.len()
        && file.seats.iter().zip(seats).all(|(a, b)| a.seat == *b)
    {
        let kept: Option<Vec<(Seat, Code)>> = file
            .seats
            .iter()
            .map(|s| Code::parse(&s.code).map(|c| (s.seat, c)))
            .collect();
        if let Some(k) = kept {
            return Ok(k);
        }
    }
    let mut out = Vec::new();
    for s in seats {
        out.push((*s, Code::generate()?));
    }
    let file = SeatsFile {
        format: SEATS_FORMAT.into(),
        seats: out
            .iter()
            .map(|(s, c)| SeatCode {
                seat: *s,
                code: c.as_str().to_string(),
            })
            .collect(),
    };
    let bytes = serde_json::to_vec_pretty(&file)
        .map_err(|e| NetError::Host(format!("{}: {e}", path.display())))?;
    write_private(&path, &bytes)
        .map_err(|e| NetError::Host(format!("{}: cannot keep the codes: {e}", path.display())))?;
    Ok(out)
}

/// The key of the player seats' chains ([`super::redact::ChainKey`]), kept in `SAVE.seats`
/// beside the codes (`"key"`), so a seat's chain is the same after a restart of the host. A
/// seats file without one (older, or just written with new codes) is given a new one.
fn seat_key(save: &Path, fresh: bool) -> Result<super::redact::ChainKey, NetError> {
    let path = seats_path(save);
    let bad = |e: String| {
        NetError::Host(format!(
            "{}: cannot keep the seats' key: {e}",
            path.display()
        ))
    };
    let mut file: serde_json::Value =
        crate::fsio::read_regular_nofollow(&path, 64 * 1024, "seats file")
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_else(|| serde_json::json!({}));
    if !fresh
        && let Some(key) = file
            .get("key")
            .and_then(|k| k.as_str())
            .and_then(super::redact::ChainKey::parse)
    {
        return Ok(key);
    }
    let key = super::redact::ChainKey::generate().map_err(bad)?;
    let Some(obj) = file.as_object_mut() else {
        return Err(bad("the seats file is not a JSON object".into()));
    };
    obj.insert("key".into(), serde_json::Value::String(key.to_hex()));
    let bytes = serde_json::to_vec_pretty(&file).map_err(|e| bad(e.to_string()))?;
    write_private(&path, &bytes).map_err(|e| bad(e.to_string()))?;
    Ok(key)
}

/// Writes a file only its owner can read (the codes are secrets): a new temp file created with
/// mode 0600, fsynced, renamed over the old one.
fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    crate::fsio::check_replaceable(path).map_err(|e| std::io::Error::other(e.message()))?;
    let tmp = {
        let mut s = path.as_os_str().to_os_string();
        s.push(format!(".tmp-{}", std::process::id()));
        PathBuf::from(s)
    };
    let _ = std::fs::remove_file(&tmp);
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    let result = (|| {
        let mut f = opts.open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
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
    pub fn serve(self, stop: &AtomicBool) -> Result<Stopped, NetError> {
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
                    let ticket = self.shared.gate().joining(stream.try_clone().ok());
                    self.shared.live.fetch_add(1, Ordering::SeqCst);
                    let shared = Arc::clone(&self.shared);
                    let id = ticket.id;
                    let spawned = std::thread::Builder::new()
                        .name(format!("kepi-conn-{peer}"))
                        .spawn(move || {
                            connection(&shared, stream, peer, ticket);
                            shared.live.fetch_sub(1, Ordering::SeqCst);
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

/// Who can reach a host listening on `bind`, in words: "this computer only" for a loopback
/// address; for every interface (`0.0.0.0`, `::`), each network this computer is on, with its
/// addresses; else the one network of that address.
pub fn reach(bind: IpAddr) -> String {
    if bind.is_loopback() {
        return format!("this computer only ({bind})");
    }
    if !bind.is_unspecified() {
        return format!("the network of {bind} only");
    }
    let mut ips: Vec<IpAddr> = if_addrs::get_if_addrs()
        .unwrap_or_default()
        .iter()
        .map(if_addrs::Interface::ip)
        .filter(|ip| bind.is_ipv6() || ip.is_ipv4())
        .collect();
    ips.sort();
    ips.dedup();
    let listed: Vec<String> = ips.iter().map(IpAddr::to_string).collect();
    if listed.is_empty() {
        "every network of this computer (all interfaces)".into()
    } else {
        format!(
            "every network of this computer (all interfaces: {})",
            listed.join(", ")
        )
    }
}

/// This machine's own addresses (every interface's, loopback included), sorted: those a host can
/// listen on besides every interface (`0.0.0.0`, `::`).
pub fn own_addresses() -> Vec<IpAddr> {
    let mut ips: Vec<IpAddr> = if_addrs::get_if_addrs()
        .unwrap_or_default()
        .iter()
        .map(if_addrs::Interface::ip)
        .collect();
    ips.sort();
    ips.dedup();
    ips
}

/// Whether a host can listen on `ip` here: every interface, loopback, or one of `own` (this
/// machine's addresses; an empty list, when the OS would not say, lets the OS decide).
pub fn can_listen_on(ip: IpAddr, own: &[IpAddr]) -> bool {
    ip.is_unspecified() || ip.is_loopback() || own.is_empty() || own.contains(&ip)
}

/// Why a host cannot listen on `ip`, in words, with `own` (this machine's addresses): "192.0.2.1
/// is not an address of this machine; pick one of 10.0.0.5, 127.0.0.1, or 0.0.0.0 (every network
/// of this computer)".
pub fn not_an_own_address(ip: IpAddr, own: &[IpAddr]) -> String {
    let own: Vec<String> = own
        .iter()
        .filter(|a| a.is_ipv4() == ip.is_ipv4())
        .map(IpAddr::to_string)
        .collect();
    let every = if ip.is_ipv4() { "0.0.0.0" } else { "::" };
    if own.is_empty() {
        format!(
            "{ip} is not an address of this machine; pick {every} (every network of this computer)"
        )
    } else {
        format!(
            "{ip} is not an address of this machine; pick one of {}, or {every} (every network of this computer)",
            own.join(", ")
        )
    }
}

/// The warning when a host listens on every interface (`None` otherwise).
pub fn exposure_warning(addr: SocketAddr) -> Option<String> {
    addr.ip().is_unspecified().then(|| {
        format!(
            "listening on every interface: anyone who can reach this computer on port {} can try a join code (--bind 127.0.0.1 keeps the game to this computer; --bind ADDR to one network)",
            addr.port()
        )
    })
}

/// This machine's address on the local network: the one the OS would send from towards a
/// private address (a UDP socket is "connected", which sends nothing).
fn lan_ip() -> Option<IpAddr> {
    let s = std::net::UdpSocket::bind(("0.0.0.0", 0)).ok()?;
    s.connect(("192.168.0.1", 9)).ok()?;
    let ip = s.local_addr().ok()?.ip();
    (!ip.is_unspecified()).then_some(ip)
}

fn config() -> WebSocketConfig {
    WebSocketConfig::default()
        .max_message_size(Some(MAX_REQUEST_BYTES))
        .max_frame_size(Some(MAX_REQUEST_BYTES))
        .read_buffer_size(16 * 1024)
        .write_buffer_size(0)
}

/// Serializes a host message (it is always serializable; a failure is reported as an error
/// message rather than a panic).
fn encode(m: &HostMsg) -> Message {
    match serde_json::to_string(m) {
        Ok(s) => Message::text(s),
        Err(e) => Message::text(format!(
            r#"{{"type":"error","message":"the host could not encode its answer: {}"}}"#,
            e.to_string().replace(['"', '\\'], "'")
        )),
    }
}

fn is_timeout(e: &tungstenite::Error) -> bool {
    matches!(e, tungstenite::Error::Io(io) if matches!(io.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut))
}

/// Why a client's connection ended when it closed it politely (the Disconnected event's reason):
/// the window says "<seat> left" for it, not an error.
pub const CLOSED: &str = "closed";
/// Why a client's connection ended when it went without closing (its kepi stopped, its network
/// went away): said in words, not as the WebSocket library's "protocol error".
pub const DROPPED: &str =
    "the connection ended without a goodbye (the other kepi stopped or its network went)";

/// The connection ended, as `e` says: [`CLOSED`] or [`DROPPED`]; `None` for any other error.
fn ended(e: &tungstenite::Error) -> Option<&'static str> {
    use tungstenite::error::ProtocolError;
    match e {
        tungstenite::Error::ConnectionClosed | tungstenite::Error::AlreadyClosed => Some(CLOSED),
        tungstenite::Error::Protocol(ProtocolError::ResetWithoutClosingHandshake) => Some(DROPPED),
        tungstenite::Error::Io(io)
            if matches!(
                io.kind(),
                std::io::ErrorKind::ConnectionReset
                    | std::io::ErrorKind::ConnectionAborted
                    | std::io::ErrorKind::BrokenPipe
                    | std::io::ErrorKind::UnexpectedEof
            ) =>
        {
            Some(DROPPED)
        }
        _ => None,
    }
}

/// Sends an error and closes (best effort: the client may be gone already).
fn refuse(ws: &mut WebSocket<Tcp>, message: &str) {
    let _ = ws.send(encode(&HostMsg::Error {
        message: message.to_string(),
    }));
    let _ = ws.close(None);
    let _ = ws.flush();
}

/// What a connection pushed out of the gate, or refused at the thread cap, is told.
fn full_text(n: usize) -> String {
    format!("host is full: {n} connections; try again in a moment")
}

/// Tells a connection that has not finished its WebSocket handshake that the host is full, as an
/// HTTP answer a client reads, in one write (best effort, never waiting); then reads away what
/// the client had sent, so closing does not reset the connection over the answer.
fn full_http(stream: &TcpStream, n: usize) {
    use std::io::Read as _;
    let body = full_text(n);
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut s = stream;
    let _ = s.set_nonblocking(true);
    let _ = super::io::retry(|| s.write(answer.as_bytes()));
    let _ = s.shutdown(std::net::Shutdown::Write);
    // At most 64 KB: a client that keeps sending does not keep the accept thread.
    let mut sink = [0u8; 4096];
    for _ in 0..16 {
        if !matches!(super::io::retry(|| s.read(&mut sink)), Ok(n) if n > 0) {
            break;
        }
    }
}

/// The WebSocket handshake, within `deadline` for the whole of it; on failure, why.
fn handshake(tcp: Tcp, deadline: Instant) -> Result<WebSocket<Tcp>, String> {
    use tungstenite::HandshakeError;
    let mut step = tungstenite::accept_with_config(tcp, Some(config()));
    loop {
        match step {
            Ok(ws) => return Ok(ws),
            Err(HandshakeError::Interrupted(mid)) => {
                if Instant::now() >= deadline {
                    return Err(format!(
                        "no WebSocket handshake within {} s",
                        HANDSHAKE_DEADLINE.as_secs()
                    ));
                }
                step = mid.handshake();
            }
            Err(HandshakeError::Failure(e)) => {
                return Err(format!("not a WebSocket handshake: {e}"));
            }
        }
    }
}

/// Reads one message, waiting through read timeouts until `deadline`.
fn read_until(ws: &mut WebSocket<Tcp>, deadline: Instant) -> Result<Message, tungstenite::Error> {
    loop {
        match ws.read() {
            Err(e) if is_timeout(&e) && Instant::now() < deadline => continue,
            other => return other,
        }
    }
}

/// One client, from handshake to close.
fn connection(shared: &Shared, stream: TcpStream, peer: SocketAddr, ticket: Ticket) {
    // Until it has a seat the connection holds a place at the gate; it leaves it on every path.
    struct Place<'a>(&'a Shared, u64);
    impl Drop for Place<'_> {
        fn drop(&mut self) {
            self.0.gate().joined(self.1);
        }
    }
    let place = Place(shared, ticket.id);
    let peer_s = peer.to_string();
    let _ = stream.set_nodelay(true);
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    // One deadline for the handshake and the hello together, however slowly the bytes come.
    let deadline = Instant::now() + HANDSHAKE_DEADLINE;
    // To tell it "host is full" should a newer connection push it out mid-handshake.
    let spare = stream.try_clone().ok();
    let mut tcp = Tcp::new(stream);
    tcp.set_deadline(Some(deadline));
    let dropped = |shared: &Shared, why: String| {
        shared.event(Event::Refused {
            peer: peer.to_string(),
            reason: why,
        });
    };
    let mut ws = match handshake(tcp, deadline) {
        Ok(ws) => ws,
        Err(why) => {
            let why = if ticket.dropped.load(Ordering::SeqCst) {
                if let Some(s) = &spare {
                    full_http(s, MAX_HANDSHAKES);
                }
                format!("host is full: {MAX_HANDSHAKES} connections joining; it waited longest")
            } else {
                why
            };
            dropped(shared, why);
            return;
        }
    };
    let hello = match read_until(&mut ws, deadline) {
        Ok(Message::Text(t)) => serde_json::from_str::<ClientMsg>(&t).map_err(|e| e.to_string()),
        Ok(_) => Err("the first message must be a JSON hello".to_string()),
        Err(_) if ticket.dropped.load(Ordering::SeqCst) => {
            let why = full_text(MAX_HANDSHAKES);
            refuse(&mut ws, &why);
            dropped(shared, why);
            return;
        }
        Err(e) if is_timeout(&e) => Err(format!(
            "no hello within {} s",
            HANDSHAKE_DEADLINE.as_secs()
        )),
        Err(e) => Err(e.to_string()),
    };
    let (code, from) = match hello {
        Ok(ClientMsg::Hello {
            protocol,
            code,
            from,
        }) => {
            if protocol != PROTOCOL_VERSION {
                let why = format!(
                    "protocol version {protocol}; this host speaks {PROTOCOL_VERSION} (update kepi)"
                );
                refuse(&mut ws, &why);
                shared.event(Event::Refused {
                    peer: peer_s,
                    reason: why,
                });
                return;
            }
            (code, from)
        }
        Ok(_) => {
            refuse(&mut ws, "the first message must be a hello");
            return;
        }
        Err(e) => {
            let why = format!("malformed hello: {e}");
            refuse(&mut ws, &why);
            shared.event(Event::Refused {
                peer: peer_s,
                reason: why,
            });
            return;
        }
    };
    // Every code is compared (in constant time), so which seat matched does not show in the time.
    let mut seat = None;
    for (s, c) in &shared.seats {
        if c.matches(&code) {
            seat = Some(*s);
        }
    }
    // A right code is in, whatever wrong codes came before; a wrong one's answer is held back
    // while within the gate's limits, else given at once ([`super::gate`]).
    let ip = peer.ip();
    let verdict = shared.gate().code(ip, Instant::now(), seat.is_some());
    drop(place);
    let Some(seat) = seat else {
        let why = match verdict {
            Verdict::Past(shut) => format!(
                "wrong code: no seat of this game has it (answered at once: {})",
                shut.said(ip)
            ),
            Verdict::Held | Verdict::In => {
                std::thread::sleep(FAIL_DELAY);
                shared.gate().answered();
                "wrong code: no seat of this game has it".to_string()
            }
        };
        refuse(&mut ws, &why);
        shared.event(Event::Refused {
            peer: peer_s,
            reason: why,
        });
        return;
    };
    drop(spare);
    ws.get_mut().set_deadline(None);
    let conn = shared.next_conn.fetch_add(1, Ordering::SeqCst);
    let replaced = shared.gate().seat(seat, conn);
    let (tx, rx) = sync_channel::<Message>(QUEUE_PER_CLIENT);
    let kicked = Arc::new(AtomicBool::new(false));
    // The welcome and the catch-up are taken under the lock that broadcasts go out under, so no
    // entry falls between them and the first broadcast.
    let (welcome, catch_up, hide) = {
        let mut core = shared.core_for(seat);
        let hide = super::redact::hidden_side(seat, core.hiding());
        let len = core.game.log().len() as u64;
        let welcome = Welcome {
            protocol: PROTOCOL_VERSION,
            seat,
            title: core.game.state().title.to_string(),
            entries: len,
            head: core.head_for(hide),
            approval: core.approval,
            hidden: hide.is_some(),
        };
        let catch_up: Option<CatchUp> = match from {
            Some(f) if f > len => None,
            Some(f) => Some(match hide {
                None => CatchUp::Whole(
                    core.game
                        .log()
                        .get(f as usize..)
                        .unwrap_or_default()
                        .to_vec(),
                ),
                Some(side) => {
                    let (entries, view, state) = core.seen_by(side, f as usize..len as usize, true);
                    CatchUp::Seen(entries, view, state)
                }
            }),
            None => Some(CatchUp::Whole(Vec::new())),
        };
        if catch_up.is_some() {
            core.direct.insert(conn, tx.clone());
        }
        if catch_up.is_some() && from.is_some() {
            core.followers.insert(
                conn,
                Outbox {
                    tx,
                    kicked: Arc::clone(&kicked),
                    hide,
                },
            );
        }
        (welcome, catch_up, hide)
    };
    let Some(catch_up) = catch_up else {
        refuse(
            &mut ws,
            "you hold more log entries than the host: this is another game (or its save was cut back)",
        );
        shared.gate().unseat(seat, conn);
        return;
    };
    shared.event(Event::Connected {
        seat,
        peer: peer_s.clone(),
    });
    let joined = Joined {
        seat,
        conn,
        peer: peer_s.clone(),
        rx,
        kicked,
        replaced,
        hide,
    };
    let reason = serve_client(shared, &mut ws, &joined, welcome, catch_up);
    {
        let mut core = shared.core();
        core.followers.remove(&conn);
        core.direct.remove(&conn);
    }
    shared.gate().unseat(seat, conn);
    shared.event(Event::Disconnected {
        seat: Some(seat),
        peer: peer_s,
        reason,
    });
}

/// A client that joined a seat: its connection number, address and queue.
struct Joined {
    seat: Seat,
    conn: u64,
    peer: String,
    rx: Receiver<Message>,
    kicked: Arc<AtomicBool>,
    /// Set when a newer connection of the same seat took this one's room ([`super::gate`]).
    replaced: Arc<AtomicBool>,
    /// The side whose own view this client gets (strengths hidden), if any.
    hide: Option<Side>,
}

/// What a client is sent after its welcome: the log after what it holds, whole or as its seat
/// sees it (with the view after it).
enum CatchUp {
    Whole(Vec<LogEntry>),
    Seen(
        Vec<super::redact::SeatEntry>,
        serde_json::Value,
        Box<crate::engine::game::GameState>,
    ),
}

/// The conversation with a joined client; returns why it ended.
fn serve_client(
    shared: &Shared,
    ws: &mut WebSocket<Tcp>,
    joined: &Joined,
    welcome: Welcome,
    catch_up: CatchUp,
) -> String {
    let Joined {
        rx,
        kicked,
        replaced,
        seat,
        ..
    } = joined;
    if let Err(e) = ws.write(encode(&HostMsg::Welcome(welcome))) {
        return ended(&e).map_or_else(|| format!("write failed: {e}"), str::to_string);
    }
    let messages: Vec<Message> = match catch_up {
        CatchUp::Whole(entries) => entries
            .chunks(CATCH_UP_BATCH)
            .map(|chunk| {
                encode(&HostMsg::Entries {
                    entries: chunk.to_vec(),
                })
            })
            .collect(),
        CatchUp::Seen(entries, view, state) => {
            let n = entries.chunks(CATCH_UP_BATCH).count().max(1);
            let (mut view, mut state) = (Some(view), Some(state));
            (0..n)
                .map(|k| {
                    let chunk = entries
                        .get(k * CATCH_UP_BATCH..((k + 1) * CATCH_UP_BATCH).min(entries.len()))
                        .unwrap_or_default();
                    encode(&HostMsg::Seen {
                        entries: chunk.to_vec(),
                        view: if k + 1 == n { view.take() } else { None },
                        state: if k + 1 == n { state.take() } else { None },
                    })
                })
                .collect()
        }
    };
    for m in messages {
        if let Err(e) = ws.write(m) {
            return ended(&e).map_or_else(|| format!("write failed: {e}"), str::to_string);
        }
    }
    if let Err(e) = ws.flush() {
        return ended(&e).map_or_else(|| format!("write failed: {e}"), str::to_string);
    }
    let _ = ws.get_mut().set_read_timeout(Some(POLL));
    loop {
        if shared.stop.load(Ordering::SeqCst) {
            let _ = ws.send(encode(&HostMsg::Closing {
                message: "the host stopped; the save is caught up".into(),
            }));
            let _ = ws.close(None);
            let _ = ws.flush();
            return "the host stopped".into();
        }
        if kicked.load(Ordering::SeqCst) {
            refuse(
                ws,
                "too slow: your queue of log entries overflowed; reconnect to catch up",
            );
            return "too slow (queue full)".into();
        }
        if replaced.load(Ordering::SeqCst) {
            let why = format!(
                "a newer connection of the {seat} seat replaced this one (a seat holds at most {MAX_PER_SEAT}; the oldest goes)"
            );
            refuse(ws, &why);
            return why;
        }
        let mut wrote = false;
        loop {
            match rx.try_recv() {
                Ok(m) => {
                    if let Err(e) = ws.write(m) {
                        return ended(&e)
                            .map_or_else(|| format!("write failed: {e}"), str::to_string);
                    }
                    wrote = true;
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => return "dropped".into(),
            }
        }
        if wrote && let Err(e) = ws.flush() {
            return ended(&e).map_or_else(|| format!("write failed: {e}"), str::to_string);
        }
        let msg = match ws.read() {
            Ok(m) => m,
            Err(e) if is_timeout(&e) => continue,
            Err(tungstenite::Error::Capacity(c)) => {
                let why =
                    format!("message too large ({c}); the limit is {MAX_REQUEST_BYTES} bytes");
                refuse(ws, &why);
                return why;
            }
            Err(e) => {
                return ended(&e).map_or_else(|| format!("{e}"), str::to_string);
            }
        };
        let text = match msg {
            Message::Text(t) => t,
            Message::Close(_) => {
                let _ = ws.flush();
                return CLOSED.into();
            }
            Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => continue,
            Message::Binary(_) => {
                let why = "a binary message (the protocol is JSON text)".to_string();
                refuse(ws, &why);
                return why;
            }
        };
        let req = match serde_json::from_str::<ClientMsg>(&text) {
            Ok(r) => r,
            Err(e) => {
                let why = format!("malformed message: {e}");
                refuse(ws, &why);
                return why;
            }
        };
        match req {
            ClientMsg::Hello { .. } => {
                let why = "a second hello on one connection".to_string();
                refuse(ws, &why);
                return why;
            }
            other => {
                let Answered {
                    before,
                    answer,
                    events,
                } = match other {
                    ClientMsg::Apply { id, words } => apply(shared, joined, id, &words),
                    ClientMsg::Pending { id } => pending_list(shared, joined, id),
                    ClientMsg::Decide {
                        id,
                        request,
                        approve,
                        reason,
                    } => decide(shared, joined, id, request, approve, reason),
                    ClientMsg::SetApproval { id, on } => set_approval(shared, joined, id, on),
                    ClientMsg::Hello { .. } => continue,
                };
                for m in before {
                    if let Err(e) = ws.write(m) {
                        return ended(&e)
                            .map_or_else(|| format!("write failed: {e}"), str::to_string);
                    }
                }
                let sent = ws.send(answer);
                for e in events {
                    shared.event(e);
                }
                if let Err(e) = sent {
                    return ended(&e).map_or_else(|| format!("write failed: {e}"), str::to_string);
                }
            }
        }
    }
}

/// Queues `made` for every follower but `skip` (whose own entries come back in its answer),
/// each as its seat sees it; a follower whose queue is full is marked to be dropped, one gone is
/// forgotten.
fn broadcast(core: &mut Core, skip: u64, made: &[LogEntry]) {
    if made.is_empty() {
        return;
    }
    let whole = encode(&HostMsg::Entries {
        entries: made.to_vec(),
    });
    let mut by_side: HashMap<Side, Message> = HashMap::new();
    let sides: Vec<Side> = core
        .followers
        .iter()
        .filter(|(k, _)| **k != skip)
        .filter_map(|(_, out)| out.hide)
        .collect();
    for side in sides {
        if let std::collections::hash_map::Entry::Vacant(v) = by_side.entry(side) {
            v.insert(seen_msg(core, made, side));
        }
    }
    let mut gone = Vec::new();
    let followers = &mut core.followers;
    for (k, out) in followers.iter() {
        if *k == skip {
            continue;
        }
        let m = match out.hide.and_then(|side| by_side.get(&side)) {
            None => whole.clone(),
            Some(m) => m.clone(),
        };
        match out.tx.try_send(m) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => out.kicked.store(true, Ordering::SeqCst),
            Err(TrySendError::Disconnected(_)) => gone.push(*k),
        }
    }
    for k in gone {
        followers.remove(&k);
    }
}

/// `made` as `side`'s seat sees it, with its view of the game now.
fn seen_msg(core: &mut Core, made: &[LogEntry], side: Side) -> Message {
    let (entries, view, state) = core.seen_made(side, made);
    encode(&HostMsg::Seen {
        entries,
        view: Some(view),
        state: Some(state),
    })
}

/// What [`record`] made: the entries (journaled and fsynced), the save's warnings, and why it
/// stopped if it did.
struct Made {
    entries: Vec<LogEntry>,
    warnings: Vec<String>,
    refused: Option<Refusal>,
}

/// Applies `words` for `seat` (its permission checked) through `kepi game apply`'s path; for a
/// player seat the other side's strengths are hidden from, a resolution the rules cannot finish
/// is logged as not applied, for the umpire (issue 44), rather than refused. What the rules say
/// against a resolution is logged as the seat went ahead with it, or (`approved`) as the umpire
/// approving the seat's request: a player's own action is never "umpire went ahead".
fn record(shared: &Shared, core: &mut Core, seat: Seat, words: &[String], approved: bool) -> Made {
    let hidden = super::redact::hidden_side(seat, core.hiding()).is_some();
    let ahead = match seat {
        Seat::Umpire => WentAhead::Umpire,
        _ if approved => WentAhead::Approved(seat.name()),
        _ => WentAhead::Seat(seat.name()),
    };
    let Core { game, store, .. } = core;
    let mut entries: Vec<LogEntry> = Vec::new();
    let mut warnings: Vec<String> = Vec::new();
    let result = crate::moves::apply_verbs_going_ahead::<MoveError>(
        game,
        store,
        words,
        shared.tables,
        &|asked, state| super::permit(seat, asked, state).map_err(MoveError::refused),
        &mut |entry, recorded, _| {
            warnings.extend(recorded.save_warning);
            entries.push(entry.clone());
            Ok(())
        },
        hidden,
        ahead,
    );
    Made {
        entries,
        warnings,
        refused: result.err().map(|e| Refusal {
            code: e.code(),
            message: e.message,
        }),
    }
}

/// An answer that makes nothing: the request is refused with `code` and `message`.
fn refused_answer(id: u64, rx: &Receiver<Message>, code: u8, message: String) -> Answered {
    Answered {
        before: rx.try_iter().collect(),
        answer: encode(&HostMsg::Applied {
            id,
            entries: Vec::new(),
            refused: Some(Refusal { code, message }),
            seen: Vec::new(),
            view: None,
            state: None,
        }),
        events: Vec::new(),
    }
}

/// The answer to a request made while the host is stopping.
fn stopping(id: u64, rx: &Receiver<Message>) -> Answered {
    refused_answer(
        id,
        rx,
        1,
        "the host is stopping; nothing was applied".into(),
    )
}

/// Applies a request for a seat under the game's lock, queues its entries for everyone else, and
/// returns what this client must be sent first (entries queued for it before its own), its
/// answer, and the events to tell once it is sent. A player's request while the umpire approves
/// resolutions is checked (seat and rules' parsing) and held instead.
fn apply(shared: &Shared, joined: &Joined, id: u64, words: &[String]) -> Answered {
    let Joined {
        seat,
        conn,
        peer,
        rx,
        hide,
        ..
    } = joined;
    let (seat, conn) = (*seat, *conn);
    let mut core = shared.core_for(seat);
    // Once the host is stopping, the save is being caught up: nothing more is taken.
    if shared.stop.load(Ordering::SeqCst) {
        return stopping(id, rx);
    }
    if let Some(refused) = too_many_verbs(shared, &core, joined, id, words) {
        return refused;
    }
    if let Some(refused) = misjudged(shared, &core, joined, id, words) {
        return refused;
    }
    if core.approval && matches!(seat, Seat::Player(_)) {
        return hold(shared, &mut core, joined, id, words);
    }
    let Made {
        entries: made,
        warnings,
        refused,
    } = record(shared, &mut core, seat, words, false);
    broadcast(&mut core, conn, &made);
    // Entries from earlier requests still queued for this client go out before its answer, so it
    // receives the log in order.
    let before: Vec<Message> = rx.try_iter().collect();
    let answer = answer_for(&mut core, *hide, id, made.clone(), refused.clone());
    drop(core);
    // Events are told after the lock is released and the answer sent (by the caller): a slow
    // reader of them never holds up the game or the client.
    let mut events: Vec<Event> = warnings
        .into_iter()
        .map(|message| Event::Warning { message })
        .collect();
    events.extend(made.iter().map(|e| Event::Applied {
        seat,
        index: e.index,
        summary: e.summary.clone(),
    }));
    if let Some(r) = &refused {
        events.push(Event::Refused {
            peer: format!("{peer} ({seat})"),
            reason: r.message.clone(),
        });
    }
    Answered {
        before,
        answer,
        events,
    }
}

/// The answer to a request that made `made`: whole, or as `hide`'s seat sees it.
fn answer_for(
    core: &mut Core,
    hide: Option<Side>,
    id: u64,
    made: Vec<LogEntry>,
    refused: Option<Refusal>,
) -> Message {
    match hide {
        None => encode(&HostMsg::Applied {
            id,
            entries: made,
            refused,
            seen: Vec::new(),
            view: None,
            state: None,
        }),
        Some(side) => {
            let (seen, view, state) = core.seen_made(side, &made);
            encode(&HostMsg::Applied {
                id,
                entries: Vec::new(),
                refused: refused.map(|r| Refusal {
                    code: r.code,
                    message: super::redact::scrub(&r.message, core.game.state(), side),
                }),
                seen,
                view: Some(view),
                state: Some(state),
            })
        }
    }
}

/// A request of more than [`MAX_REQUEST_VERBS`] verbs: its refusal, saying the bound (`None`:
/// within it, or words that do not parse, refused as ever by what follows). The count depends
/// on the words and the units' names only, never on a hidden strength.
fn too_many_verbs(
    shared: &Shared,
    core: &Core,
    joined: &Joined,
    id: u64,
    words: &[String],
) -> Option<Answered> {
    // A verb is one word at least.
    if words.len() <= MAX_REQUEST_VERBS {
        return None;
    }
    let n = check_verbs::<MoveError>(words, core.game.state(), shared.tables, &|_, _| Ok(()))
        .ok()?
        .len();
    if n <= MAX_REQUEST_VERBS {
        return None;
    }
    let why = too_many_verbs_said(n);
    let mut a = refused_answer(id, &joined.rx, 2, why.clone());
    a.events.push(Event::Refused {
        peer: format!("{} ({})", joined.peer, joined.seat),
        reason: why,
    });
    Some(a)
}

/// The refusal of a request of `n` verbs, over [`MAX_REQUEST_VERBS`].
pub fn too_many_verbs_said(n: usize) -> String {
    format!(
        "this request has {n} verbs; a request may have at most {MAX_REQUEST_VERBS} (nothing was applied: send them as several requests)"
    )
}

/// A request of a seat the other side's strengths are hidden from, judged against what it may
/// know ([`super::redact::judge`]): its refusal, or `None` to go on.
fn misjudged(
    shared: &Shared,
    core: &Core,
    joined: &Joined,
    id: u64,
    words: &[String],
) -> Option<Answered> {
    let side = joined.hide?;
    let seat = joined.seat;
    let e = super::redact::judge(
        words,
        core.game.state(),
        side,
        shared.tables,
        &|asked, state| super::permit(seat, asked, state).map_err(MoveError::refused),
    )
    .err()?;
    let told = super::redact::scrub(&e.message, core.game.state(), side);
    let mut a = refused_answer(id, &joined.rx, e.code(), told);
    a.events.push(Event::Refused {
        peer: format!("{} ({seat})", joined.peer),
        reason: e.message,
    });
    Some(a)
}

/// Holds a player's request for the umpire: it is parsed and its permission checked now (a
/// request that would be refused is refused at once), then kept, and the player told its number.
fn hold(shared: &Shared, core: &mut Core, joined: &Joined, id: u64, words: &[String]) -> Answered {
    let Joined {
        seat,
        conn,
        peer,
        rx,
        ..
    } = joined;
    let seat = *seat;
    let checked = check_verbs(words, core.game.state(), shared.tables, &|asked, state| {
        super::permit(seat, asked, state).map_err(MoveError::refused)
    });
    if let Err(e) = checked {
        let told = match joined.hide {
            Some(side) => super::redact::scrub(&e.message, core.game.state(), side),
            None => e.message.clone(),
        };
        let mut a = refused_answer(id, rx, e.code(), told);
        a.events.push(Event::Refused {
            peer: format!("{peer} ({seat})"),
            reason: e.message,
        });
        return a;
    }
    if core.pending.iter().filter(|h| h.req.seat == seat).count() >= MAX_PENDING_PER_SEAT {
        return refused_answer(
            id,
            rx,
            2,
            format!(
                "{MAX_PENDING_PER_SEAT} requests of the {seat} seat are already waiting for the umpire; ask again once some are decided"
            ),
        );
    }
    let request = core.next_request;
    core.next_request += 1;
    let req = PendingRequest {
        request,
        seat,
        words: words.to_vec(),
        asked: chrono::Utc::now(),
        notes: Vec::new(),
    };
    let text = req.text();
    core.pending.push(Held { req, conn: *conn });
    Answered {
        before: rx.try_iter().collect(),
        answer: encode(&HostMsg::Held {
            id,
            request,
            message: format!("request {request} is waiting for the umpire's approval"),
        }),
        events: vec![Event::Held {
            seat,
            request,
            words: text,
        }],
    }
}

/// The held requests this seat may see: all for the umpire, its own for a player, none for a
/// spectator.
fn pending_list(shared: &Shared, joined: &Joined, id: u64) -> Answered {
    let Joined { seat, rx, .. } = joined;
    let seat = *seat;
    let core = shared.core_for(seat);
    // The umpire reads what the rules say against each request now, before deciding it.
    let requests: Vec<PendingRequest> = core
        .pending
        .iter()
        .filter(|h| seat == Seat::Umpire || h.req.seat == seat)
        .map(|h| {
            let mut req = h.req.clone();
            if seat == Seat::Umpire {
                req.notes = crate::moves::request_warnings(&req.words, &core.game, shared.tables);
            }
            req
        })
        .collect();
    let approval = core.approval;
    drop(core);
    Answered {
        before: rx.try_iter().collect(),
        answer: encode(&HostMsg::PendingList {
            id,
            approval,
            requests,
        }),
        events: Vec::new(),
    }
}

/// The umpire turns approval on or off.
fn set_approval(shared: &Shared, joined: &Joined, id: u64, on: bool) -> Answered {
    let Joined { seat, rx, .. } = joined;
    if *seat != Seat::Umpire {
        return refused_answer(
            id,
            rx,
            2,
            format!("approval is the umpire's to turn on or off, not the {seat} seat's"),
        );
    }
    shared.core().approval = on;
    Answered {
        before: rx.try_iter().collect(),
        answer: encode(&HostMsg::Approval { id, on }),
        events: vec![Event::Approval { on }],
    }
}

/// The longest rejection reason kept (a reason is a sentence, not a document).
const MAX_REASON_CHARS: usize = 500;

/// The umpire approves or rejects a held request. Approved, the player's words are applied for
/// the player's seat (its permission checked again against the game as it is now) and a note
/// logs the approval; rejected, a note logs the rejection and its reason. The player's
/// connection, if still there, is told the decision; everyone else gets the entries.
fn decide(
    shared: &Shared,
    joined: &Joined,
    id: u64,
    request: u64,
    approve: bool,
    reason: Option<String>,
) -> Answered {
    let Joined { seat, conn, rx, .. } = joined;
    let conn = *conn;
    if *seat != Seat::Umpire {
        return refused_answer(
            id,
            rx,
            2,
            format!("approving and rejecting requests is the umpire's, not the {seat} seat's"),
        );
    }
    let mut core = shared.core_for(Seat::Umpire);
    if shared.stop.load(Ordering::SeqCst) {
        return stopping(id, rx);
    }
    let Some(at) = core.pending.iter().position(|h| h.req.request == request) else {
        let held: Vec<String> = core
            .pending
            .iter()
            .map(|h| h.req.request.to_string())
            .collect();
        let message = if held.is_empty() {
            format!("no request {request} is waiting (none is)")
        } else {
            format!(
                "no request {request} is waiting (waiting: {})",
                held.join(", ")
            )
        };
        return refused_answer(id, rx, 2, message);
    };
    let held = core.pending.remove(at);
    let asker = held.req.seat;
    let text = held.req.text();
    let reason: Option<String> = reason
        .map(|r| r.trim().chars().take(MAX_REASON_CHARS).collect::<String>())
        .filter(|r| !r.is_empty());
    let mut warnings = Vec::new();
    let mut made = Vec::new();
    // How many of `made` are the player's resolution (the rest are the umpire's note).
    let mut by_player = 0;
    let (to_player, refused) = if approve {
        let m = record(shared, &mut core, asker, &held.req.words, true);
        warnings.extend(m.warnings);
        let note = match &m.refused {
            None => format!("umpire approved {asker}'s request {request}: {text}"),
            Some(r) => format!(
                "umpire approved {asker}'s request {request}: {text} (not applied: {})",
                r.message
            ),
        };
        let n = record(
            shared,
            &mut core,
            Seat::Umpire,
            &["note".into(), note],
            false,
        );
        warnings.extend(n.warnings);
        let to_player = HostMsg::Decided {
            request,
            approved: true,
            entries: m.entries.clone(),
            refused: m.refused.clone(),
            seen: Vec::new(),
            view: None,
            state: None,
        };
        by_player = m.entries.len();
        made.extend(m.entries);
        made.extend(n.entries);
        (to_player, m.refused.or(n.refused))
    } else {
        let note = match &reason {
            Some(r) => format!("umpire rejected {asker}'s request {request}: {text} ({r})"),
            None => format!("umpire rejected {asker}'s request {request}: {text}"),
        };
        let n = record(
            shared,
            &mut core,
            Seat::Umpire,
            &["note".into(), note],
            false,
        );
        warnings.extend(n.warnings);
        made.extend(n.entries);
        let to_player = HostMsg::Decided {
            request,
            approved: false,
            entries: Vec::new(),
            refused: Some(Refusal {
                code: 2,
                message: match &reason {
                    Some(r) => format!("the umpire rejected request {request}: {r}"),
                    None => format!("the umpire rejected request {request}"),
                },
            }),
            seen: Vec::new(),
            view: None,
            state: None,
        };
        (to_player, n.refused)
    };
    broadcast(&mut core, conn, &made);
    // A player seat with hidden strengths is told its decision as it sees it.
    let to_player = match (super::redact::hidden_side(asker, core.hiding()), to_player) {
        (
            Some(side),
            HostMsg::Decided {
                request,
                approved,
                entries,
                refused,
                ..
            },
        ) => {
            let (seen, view, state) = core.seen_made(side, &entries);
            HostMsg::Decided {
                request,
                approved,
                seen,
                view: Some(view),
                state: Some(state),
                entries: Vec::new(),
                refused: refused.map(|r| Refusal {
                    code: r.code,
                    message: super::redact::scrub(&r.message, core.game.state(), side),
                }),
            }
        }
        (_, m) => m,
    };
    if let Some(tx) = core.direct.get(&held.conn)
        && held.conn != conn
    {
        // A player whose queue is full or gone reads the decision in the log instead.
        let _ = tx.try_send(encode(&to_player));
    }
    let before: Vec<Message> = rx.try_iter().collect();
    drop(core);
    let mut events: Vec<Event> = warnings
        .into_iter()
        .map(|message| Event::Warning { message })
        .collect();
    events.extend(made.iter().enumerate().map(|(k, e)| Event::Applied {
        seat: if k < by_player { asker } else { Seat::Umpire },
        index: e.index,
        summary: e.summary.clone(),
    }));
    events.push(Event::Decided {
        request,
        seat: asker,
        approved: approve,
        reason: if approve {
            refused.as_ref().map(|r| r.message.clone())
        } else {
            reason
        },
    });
    Answered {
        before,
        answer: encode(&HostMsg::Applied {
            id,
            entries: made,
            refused,
            seen: Vec::new(),
            view: None,
            state: None,
        }),
        events,
    }
}

/// What [`apply`] leaves to send and tell.
struct Answered {
    /// Entries queued for this client before its own, to send first.
    before: Vec<Message>,
    /// Its answer.
    answer: Message,
    /// What to tell the umpire once the answer is sent.
    events: Vec<Event>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 29: the default bind is every interface; kepi says so, and what it exposes.
    #[test]
    fn what_a_bind_exposes_is_said_in_words() {
        let every = SocketAddr::from(([0, 0, 0, 0], 1870));
        let w = exposure_warning(every).unwrap_or_default();
        assert!(
            w.contains("every interface") && w.contains("port 1870"),
            "{w}"
        );
        assert!(w.contains("--bind 127.0.0.1"), "{w}");
        assert!(exposure_warning(SocketAddr::from(([127, 0, 0, 1], 1870))).is_none());
        assert!(exposure_warning(SocketAddr::from(([192, 168, 1, 20], 1870))).is_none());
        assert_eq!(
            reach(IpAddr::from([127, 0, 0, 1])),
            "this computer only (127.0.0.1)"
        );
        assert!(reach(IpAddr::from([192, 168, 1, 20])).contains("192.168.1.20 only"));
        assert!(reach(IpAddr::from([0, 0, 0, 0])).starts_with("every network of this computer"));
    }
}
