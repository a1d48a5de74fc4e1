//! The host: the umpire's kepi serving its game to the table (`kepi serve`).
//!
//! One thread accepts connections; each connection has its own thread, which reads the client's
//! requests and writes what is queued for it. The game (the [`Game`], its [`Store`] and who is
//! connected) sits behind one mutex: a request is parsed, checked against the seat, applied,
//! journaled and fsynced under it, then its entries are queued for every other client (a bounded
//! queue each: a client too slow to keep up is dropped, and catches up when it reconnects, rather
//! than holding up the table) and answered to its maker. Nothing a client sends can make the host
//! stop or read a file: a malformed, oversized or unexpected message closes that connection only.

use std::collections::HashMap;
use std::io::Write as _;
use std::net::{IpAddr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TryRecvError, TrySendError, sync_channel};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use tungstenite::protocol::WebSocketConfig;
use tungstenite::{Message, WebSocket};

use super::{
    CATCH_UP_BATCH, ClientMsg, Code, HostMsg, MAX_REQUEST_BYTES, NetError, PROTOCOL_VERSION,
    Refusal, Seat, Welcome,
};
use crate::cli::CliError;
use crate::cli::game_cmd::apply_verbs;
use crate::game::{Game, LogEntry};
use crate::store::Store;
use crate::tables::Tables;

/// Messages queued for one client before it counts as too slow and is dropped.
pub const QUEUE_PER_CLIENT: usize = 1024;

/// Connections served at once; more are refused, so a flood of sockets cannot exhaust threads.
pub const MAX_CONNECTIONS: usize = 64;

/// Wrong codes from one address within [`FAIL_WINDOW`] before that address is refused outright
/// until the window passes.
pub const MAX_FAILED_CODES: usize = 10;

/// The window over which wrong codes are counted.
pub const FAIL_WINDOW: Duration = Duration::from_secs(60);

/// How long a wrong code is held before it is answered (slows any guessing down further).
const FAIL_DELAY: Duration = Duration::from_millis(200);

/// How long a new connection has for its WebSocket handshake and its hello.
const HELLO_TIMEOUT: Duration = Duration::from_secs(10);

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
}

/// The game and who follows it; one mutex.
struct Core {
    game: Game,
    store: Store,
    followers: HashMap<u64, Outbox>,
}

/// Wrong codes by address.
#[derive(Default)]
struct FailLimiter {
    by_ip: HashMap<IpAddr, Vec<Instant>>,
}

impl FailLimiter {
    fn blocked(&mut self, ip: IpAddr) -> bool {
        let now = Instant::now();
        let v = self.by_ip.entry(ip).or_default();
        v.retain(|t| now.duration_since(*t) < FAIL_WINDOW);
        v.len() >= MAX_FAILED_CODES
    }
    fn failed(&mut self, ip: IpAddr) {
        self.by_ip.entry(ip).or_default().push(Instant::now());
        // Forget quiet addresses so the map cannot grow without bound.
        let now = Instant::now();
        self.by_ip.retain(|_, v| {
            v.last()
                .is_some_and(|t| now.duration_since(*t) < FAIL_WINDOW)
        });
    }
}

/// What every connection thread shares.
struct Shared {
    core: Mutex<Core>,
    seats: Vec<(Seat, Code)>,
    tables: &'static Tables,
    stop: Arc<AtomicBool>,
    limiter: Mutex<FailLimiter>,
    events: EventSink,
    next_conn: AtomicU64,
    live: AtomicU64,
}

impl Shared {
    fn core(&self) -> MutexGuard<'_, Core> {
        // A connection thread that panicked while holding the lock left the game as it was before
        // or after a whole action (every change is one `record`), so carry on with it.
        self.core.lock().unwrap_or_else(|p| p.into_inner())
    }
    fn event(&self, e: Event) {
        (self.events)(&e);
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
        for w in &opened.warnings {
            events(&Event::Warning { message: w.clone() });
        }
        let seats = Seat::of(opened.game.state());
        let codes = seat_codes(save, &seats, options.new_codes)?;
        let listener = TcpListener::bind((options.bind, options.port)).map_err(|e| {
            NetError::Address(format!(
                "cannot listen on {}:{}: {e}",
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
                }),
                seats: codes,
                tables,
                stop: Arc::new(AtomicBool::new(false)),
                limiter: Mutex::new(FailLimiter::default()),
                events,
                next_conn: AtomicU64::new(0),
                live: AtomicU64::new(0),
            }),
        })
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

    /// Serves until `stop` is set (a signal, the window's Stop button), then closes every
    /// connection and rewrites the save so it holds every action.
    pub fn serve(self, stop: &AtomicBool) -> Result<Stopped, NetError> {
        let mut threads: Vec<JoinHandle<()>> = Vec::new();
        while !stop.load(Ordering::SeqCst) {
            match self.listener.accept() {
                Ok((stream, peer)) => {
                    threads.retain(|t| !t.is_finished());
                    if self.shared.live.load(Ordering::SeqCst) as usize >= MAX_CONNECTIONS {
                        self.shared.event(Event::Refused {
                            peer: peer.to_string(),
                            reason: format!("more than {MAX_CONNECTIONS} connections"),
                        });
                        drop(stream);
                        continue;
                    }
                    self.shared.live.fetch_add(1, Ordering::SeqCst);
                    let shared = Arc::clone(&self.shared);
                    let spawned = std::thread::Builder::new()
                        .name(format!("kepi-conn-{peer}"))
                        .spawn(move || {
                            connection(&shared, stream, peer);
                            shared.live.fetch_sub(1, Ordering::SeqCst);
                        });
                    match spawned {
                        Ok(t) => threads.push(t),
                        Err(e) => {
                            self.shared.live.fetch_sub(1, Ordering::SeqCst);
                            self.shared.event(Event::Refused {
                                peer: peer.to_string(),
                                reason: format!("no thread for it: {e}"),
                            });
                        }
                    }
                }
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
        let Core { game, store, .. } = &mut *core;
        let warning = store.compact(game).err().map(|e| e.to_string());
        Ok(Stopped {
            entries: game.log().len(),
            head: game.head(),
            warning,
        })
    }
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

/// Sends an error and closes (best effort: the client may be gone already).
fn refuse(ws: &mut WebSocket<TcpStream>, message: &str) {
    let _ = ws.send(encode(&HostMsg::Error {
        message: message.to_string(),
    }));
    let _ = ws.close(None);
    let _ = ws.flush();
}

/// Reads one message, waiting through read timeouts until `deadline`.
fn read_until(
    ws: &mut WebSocket<TcpStream>,
    deadline: Instant,
) -> Result<Message, tungstenite::Error> {
    loop {
        match ws.read() {
            Err(e) if is_timeout(&e) && Instant::now() < deadline => continue,
            other => return other,
        }
    }
}

/// One client, from handshake to close.
fn connection(shared: &Shared, stream: TcpStream, peer: SocketAddr) {
    let peer_s = peer.to_string();
    let _ = stream.set_nodelay(true);
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_read_timeout(Some(HELLO_TIMEOUT));
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    let mut ws = match tungstenite::accept_with_config(stream, Some(config())) {
        Ok(ws) => ws,
        Err(e) => {
            shared.event(Event::Refused {
                peer: peer_s,
                reason: format!("not a WebSocket handshake: {e}"),
            });
            return;
        }
    };
    let hello = match read_until(&mut ws, Instant::now() + HELLO_TIMEOUT) {
        Ok(Message::Text(t)) => serde_json::from_str::<ClientMsg>(&t).map_err(|e| e.to_string()),
        Ok(_) => Err("the first message must be a JSON hello".to_string()),
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
    let ip = peer.ip();
    let blocked = shared
        .limiter
        .lock()
        .map(|mut l| l.blocked(ip))
        .unwrap_or(true);
    if blocked {
        let why = format!("too many wrong codes from {ip}; wait a minute");
        refuse(&mut ws, &why);
        shared.event(Event::Refused {
            peer: peer_s,
            reason: why,
        });
        return;
    }
    // Every code is compared (in constant time), so which seat matched does not show in the time.
    let mut seat = None;
    for (s, c) in &shared.seats {
        if c.matches(&code) {
            seat = Some(*s);
        }
    }
    let Some(seat) = seat else {
        if let Ok(mut l) = shared.limiter.lock() {
            l.failed(ip);
        }
        std::thread::sleep(FAIL_DELAY);
        refuse(&mut ws, "wrong code: no seat of this game has it");
        shared.event(Event::Refused {
            peer: peer_s,
            reason: "wrong code".into(),
        });
        return;
    };
    let conn = shared.next_conn.fetch_add(1, Ordering::SeqCst);
    let (tx, rx) = sync_channel::<Message>(QUEUE_PER_CLIENT);
    let kicked = Arc::new(AtomicBool::new(false));
    // The welcome and the catch-up are taken under the lock that broadcasts go out under, so no
    // entry falls between them and the first broadcast.
    let (welcome, catch_up) = {
        let mut core = shared.core();
        let log = core.game.log();
        let len = log.len() as u64;
        let welcome = Welcome {
            protocol: PROTOCOL_VERSION,
            seat,
            title: core.game.state().title.to_string(),
            entries: len,
            head: core.game.head(),
        };
        let catch_up: Option<Vec<LogEntry>> = match from {
            Some(f) if f > len => None,
            Some(f) => Some(log.get(f as usize..).unwrap_or_default().to_vec()),
            None => Some(Vec::new()),
        };
        if catch_up.is_some() && from.is_some() {
            core.followers.insert(
                conn,
                Outbox {
                    tx,
                    kicked: Arc::clone(&kicked),
                },
            );
        }
        (welcome, catch_up)
    };
    let Some(catch_up) = catch_up else {
        refuse(
            &mut ws,
            "you hold more log entries than the host: this is another game (or its save was cut back)",
        );
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
    };
    let reason = serve_client(shared, &mut ws, &joined, welcome, catch_up);
    shared.core().followers.remove(&conn);
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
}

/// The conversation with a joined client; returns why it ended.
fn serve_client(
    shared: &Shared,
    ws: &mut WebSocket<TcpStream>,
    joined: &Joined,
    welcome: Welcome,
    catch_up: Vec<LogEntry>,
) -> String {
    let Joined { rx, kicked, .. } = joined;
    if let Err(e) = ws.write(encode(&HostMsg::Welcome(welcome))) {
        return format!("write failed: {e}");
    }
    for chunk in catch_up.chunks(CATCH_UP_BATCH) {
        let m = encode(&HostMsg::Entries {
            entries: chunk.to_vec(),
        });
        if let Err(e) = ws.write(m) {
            return format!("write failed: {e}");
        }
    }
    if let Err(e) = ws.flush() {
        return format!("write failed: {e}");
    }
    let _ = ws.get_ref().set_read_timeout(Some(POLL));
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
        let mut wrote = false;
        loop {
            match rx.try_recv() {
                Ok(m) => {
                    if let Err(e) = ws.write(m) {
                        return format!("write failed: {e}");
                    }
                    wrote = true;
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => return "dropped".into(),
            }
        }
        if wrote && let Err(e) = ws.flush() {
            return format!("write failed: {e}");
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
            Err(tungstenite::Error::ConnectionClosed | tungstenite::Error::AlreadyClosed) => {
                return "closed".into();
            }
            Err(e) => return format!("{e}"),
        };
        let text = match msg {
            Message::Text(t) => t,
            Message::Close(_) => {
                let _ = ws.flush();
                return "closed".into();
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
            ClientMsg::Apply { id, words } => {
                let Answered {
                    before,
                    answer,
                    events,
                } = apply(shared, joined, id, &words);
                for m in before {
                    if let Err(e) = ws.write(m) {
                        return format!("write failed: {e}");
                    }
                }
                let sent = ws.send(answer);
                for e in events {
                    shared.event(e);
                }
                if let Err(e) = sent {
                    return format!("write failed: {e}");
                }
            }
        }
    }
}

/// Applies a request for a seat under the game's lock, queues its entries for everyone else, and
/// returns what this client must be sent first (entries queued for it before its own), its
/// answer, and the events to tell once it is sent.
fn apply(shared: &Shared, joined: &Joined, id: u64, words: &[String]) -> Answered {
    let Joined {
        seat,
        conn,
        peer,
        rx,
        ..
    } = joined;
    let (seat, conn) = (*seat, *conn);
    let mut made: Vec<LogEntry> = Vec::new();
    let mut warnings: Vec<String> = Vec::new();
    let mut core = shared.core();
    let Core {
        game,
        store,
        followers,
    } = &mut *core;
    // Once the host is stopping, the save is being caught up: nothing more is taken.
    if shared.stop.load(Ordering::SeqCst) {
        return Answered {
            before: rx.try_iter().collect(),
            answer: encode(&HostMsg::Applied {
                id,
                entries: Vec::new(),
                refused: Some(Refusal {
                    code: 1,
                    message: "the host is stopping; nothing was applied".into(),
                }),
            }),
            events: Vec::new(),
        };
    }
    let result = apply_verbs(
        game,
        store,
        words,
        shared.tables,
        &|asked, state| super::permit(seat, asked, state).map_err(CliError::usage),
        &mut |entry, recorded| {
            warnings.extend(recorded.save_warning);
            made.push(entry.clone());
            Ok(())
        },
    );
    if !made.is_empty() {
        let m = encode(&HostMsg::Entries {
            entries: made.clone(),
        });
        let mut gone = Vec::new();
        for (k, out) in followers.iter() {
            // This client's own entries come back in its answer, not its queue.
            if *k == conn {
                continue;
            }
            match out.tx.try_send(m.clone()) {
                Ok(()) => {}
                Err(TrySendError::Full(_)) => out.kicked.store(true, Ordering::SeqCst),
                Err(TrySendError::Disconnected(_)) => gone.push(*k),
            }
        }
        for k in gone {
            followers.remove(&k);
        }
    }
    // Entries from earlier requests still queued for this client go out before its answer, so it
    // receives the log in order.
    let before: Vec<Message> = rx.try_iter().collect();
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
    let refused = result.err().map(|e| Refusal {
        code: e.code,
        message: e.message,
    });
    if let Some(r) = &refused {
        events.push(Event::Refused {
            peer: format!("{peer} ({seat})"),
            reason: r.message.clone(),
        });
    }
    Answered {
        before,
        answer: encode(&HostMsg::Applied {
            id,
            entries: made,
            refused,
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
