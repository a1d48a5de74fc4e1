//! File > Host this game… and File > Join a game… (issue 19): the window's side of the table on a
//! network ([`kepi_middle::net`]).
//!
//! Every network call runs on a worker thread ([`Link`] for a client, the host's own threads for
//! the host); the frame only reads channels, so a dead or slow host never freezes the window.
//!
//! Hosting: the window gives up its hold on the save (it is written once, by the host, which
//! journals and broadcasts every action) and follows the game as the umpire's seat over loopback,
//! like any other client. While hosting (and while joined) the window does not apply actions
//! itself: [`AppState::mode`] turns every change (an edit, undo, the next phase, a roll of the
//! resolver or the tray) into the words of `kepi game apply` and this module sends them as the
//! window's seat, so nothing is ever written twice or beside the host, and the window plays as it
//! does alone. A player's seat makes resolutions with its side's units; the umpire decides
//! players' requests (here or in the Due panel) and turns approval on and off here.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::state::{AppState, Command, Mode, Remote, Request, View, rolled_entry_status};
use kepi_game::engine::game::Game;
use kepi_middle::net::client::{Answer, Client, Incoming, PendingList, Replica};
use kepi_middle::net::discovery::Found;
use kepi_middle::net::host::{Event, EventSink, Host, HostOptions, SeatCode, Stopped};
use kepi_middle::net::{NetError, Seat};

/// How long a worker waits for the host at each step (connecting, an answer).
const STEP: Duration = Duration::from_secs(5);
/// How long a worker waits for news before it looks at its requests again.
const LISTEN: Duration = Duration::from_millis(100);
/// How often the window looks at its channels while on the network.
const REPAINT: Duration = Duration::from_millis(200);
/// The Host and Join dialogs' width.
const DIALOG_WIDTH: f32 = 460.0;
/// Most lines kept in a dialog's list of events or answers.
const KEEP: usize = 50;

/// Which network dialog the File menu asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NetDialog {
    /// File > Host this game…
    Host,
    /// File > Join a game…
    Join,
}

/// What the window asks a connected client's worker to do.
#[derive(Clone, Debug)]
pub enum Ask {
    /// The words of `kepi remote apply`.
    Apply {
        /// The words.
        words: Vec<String>,
        /// A resolver roll (its answer names the entry its result card shows).
        resolution: bool,
    },
    /// The requests waiting for the umpire (and whether approval is on).
    Pending,
    /// The umpire approves or rejects a waiting request.
    Decide {
        /// Its number.
        request: u64,
        /// Approve (apply it) or reject it.
        approve: bool,
        /// Why (a rejection's reason, logged and told to the player).
        reason: Option<String>,
    },
    /// The umpire turns approval on or off.
    SetApproval(bool),
}

/// What a client's worker tells the window.
#[derive(Debug)]
pub enum Update {
    /// Joined this seat (again, after a lost connection).
    Joined(Seat),
    /// The game as the host's log replays, verified.
    Game(Box<Game>),
    /// An answer to a decision, or the umpire's decision on a request: the text, and whether it
    /// is a refusal.
    Answer(String, bool),
    /// The answer to an [`Ask::Apply`]: the text, whether it is a refusal, the log indexes it
    /// made, and whether it was a resolver roll.
    Applied {
        /// For the status line and the dialog.
        text: String,
        /// A refusal (or a partial one).
        refused: bool,
        /// The entries it made.
        made: Vec<u64>,
        /// It was a resolver roll.
        resolution: bool,
    },
    /// The waiting requests.
    Pending(PendingList),
    /// The approval setting now.
    Approval(bool),
    /// The connection was lost; the worker tries again by itself.
    Lost(String),
    /// The host refused (a wrong code, another protocol, a log that does not verify): the worker
    /// stopped.
    Refused(String),
}

/// A client on its worker thread.
pub struct Link {
    asks: Sender<Ask>,
    updates: Receiver<Update>,
    stop: Arc<AtomicBool>,
    _thread: Option<JoinHandle<()>>,
}

impl Link {
    /// Starts a worker that joins `address` with `code`, follows the log and reconnects by itself.
    pub fn start(address: String, code: String) -> Link {
        let (asks, asked) = channel();
        let (tell, updates) = channel();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("kepi-link".into())
            .spawn(move || work(&address, &code, &asked, &tell, &flag));
        let thread = match thread {
            Ok(t) => Some(t),
            Err(e) => {
                let (tell, rx) = channel();
                let _ = tell.send(Update::Refused(format!(
                    "no thread for the connection: {e}"
                )));
                return Link {
                    asks,
                    updates: rx,
                    stop,
                    _thread: None,
                };
            }
        };
        Link {
            asks,
            updates,
            stop,
            _thread: thread,
        }
    }

    /// Queues a request for the worker.
    pub fn ask(&self, a: Ask) {
        let _ = self.asks.send(a);
    }

    /// What the worker said since the last call.
    pub fn poll(&self) -> Vec<Update> {
        self.updates.try_iter().collect()
    }

    /// Stops the worker and waits up to `wait` for it to close its connection politely: the
    /// window is closing, and a worker not waited for dies with the process, so the host would
    /// see the connection drop rather than the seat leave.
    fn finish(&mut self, wait: Duration) {
        self.stop.store(true, Ordering::SeqCst);
        let until = Instant::now() + wait;
        if let Some(t) = &self._thread {
            while !t.is_finished() && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(10));
            }
        }
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        // The worker notices within one listening step and closes its connection; it is not
        // waited for, so leaving never blocks the window.
        self.stop.store(true, Ordering::SeqCst);
    }
}

/// Waits `d` in short steps; false when told to stop meanwhile.
fn pause(d: Duration, stop: &AtomicBool) -> bool {
    let until = Instant::now() + d;
    while Instant::now() < until {
        if stop.load(Ordering::SeqCst) {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    !stop.load(Ordering::SeqCst)
}

/// The game a client's replica replays to (or, for a player's seat while strengths are hidden,
/// its view of the game), if any.
fn replayed(c: &Client) -> Option<Game> {
    c.replica().and_then(Replica::shown_game)
}

/// An answer as one line for the window. The answer to a resolver roll (`resolution`) that
/// was applied says each entry as the window alone says its own roll ([`rolled_entry_status`]:
/// the breaches gone ahead with first, then the outcome), so hosted, joined or alone, one roll
/// reads the same.
fn answer_text(a: &Answer, resolution: bool) -> (String, bool) {
    if resolution && a.held.is_none() && a.refused.is_none() {
        let rolled: Vec<String> = (a.entries.iter().map(rolled_entry_status))
            .chain(a.seen.iter().map(|e| match &e.entry {
                Some(entry) => rolled_entry_status(entry),
                None => e.summary().to_string(),
            }))
            .collect();
        if !rolled.is_empty() {
            return (rolled.join("; "), false);
        }
    }
    let made: Vec<String> = (a
        .entries
        .iter()
        .map(|e| format!("{}: {}", e.index, e.summary)))
    .chain(
        a.seen
            .iter()
            .map(|e| format!("{}: {}", e.index, e.summary())),
    )
    .collect();
    if let Some(r) = a.held {
        return (
            format!("request {r} is waiting for the umpire's approval"),
            false,
        );
    }
    match &a.refused {
        Some(r) if made.is_empty() => (format!("refused: {}", r.message), true),
        Some(r) => (
            format!("applied {}; then refused: {}", made.join("; "), r.message),
            true,
        ),
        None if made.is_empty() => ("done (nothing to log)".into(), false),
        None => (format!("applied {}", made.join("; ")), false),
    }
}

/// What the worker does after a step: go on with what it made, try the host again (after the
/// wait), or stop.
enum Step<T> {
    Go(T),
    Again,
    Stop,
}

/// The worker: connect, catch up, then listen and send, reconnecting after a lost connection.
fn work(
    address: &str,
    code: &str,
    asked: &Receiver<Ask>,
    tell: &Sender<Update>,
    stop: &AtomicBool,
) {
    let mut replica = Replica::new();
    let mut joined_once = false;
    // Waits between reconnections grow (with jitter) while the host keeps dropping this window.
    let mut backoff = kepi_middle::net::io::Backoff::default();
    while !stop.load(Ordering::SeqCst) {
        let c = match connect(
            address,
            code,
            &replica,
            joined_once,
            tell,
            stop,
            &mut backoff,
        ) {
            Step::Go(c) => c,
            Step::Again => continue,
            Step::Stop => return,
        };
        joined_once = true;
        let _ = tell.send(Update::Joined(c.welcome().seat));
        let c = match caught_up(c, tell, stop, &mut backoff, &mut replica) {
            Step::Go(c) => c,
            Step::Again => continue,
            Step::Stop => return,
        };
        // The waits start afresh only once a connection has held (Backoff::after): a host that
        // welcomes this window and drops it at once is not asked again four times a second.
        let joined_at = Instant::now();
        let Some((c, lost)) = converse(c, asked, tell, stop) else {
            return;
        };
        match lost {
            Ok(m) | Err(NetError::Connection(m)) => {
                let _ = tell.send(Update::Lost(m));
                replica = c.into_replica().unwrap_or_default();
                if !pause(backoff.after(joined_at.elapsed()), stop) {
                    return;
                }
            }
            Err(e) => {
                let _ = tell.send(Update::Refused(e.to_string()));
                return;
            }
        }
    }
}

/// Connects to the host with the game known so far (`replica`). A first join that reaches nobody
/// is said and not retried; a later one is retried after the wait; any other refusal stops.
fn connect(
    address: &str,
    code: &str,
    replica: &Replica,
    joined_once: bool,
    tell: &Sender<Update>,
    stop: &AtomicBool,
    backoff: &mut kepi_middle::net::io::Backoff,
) -> Step<Client> {
    match Client::connect(address, code, Some(replica.clone()), STEP) {
        Ok(c) => Step::Go(c),
        // A first join that reaches nobody is a typo or a host not started: said, not retried.
        Err(NetError::Connection(m)) if !joined_once => {
            let _ = tell.send(Update::Refused(format!(
                "{m}: check the address, and that the umpire's kepi is hosting"
            )));
            Step::Stop
        }
        Err(NetError::Connection(m)) => {
            let _ = tell.send(Update::Lost(m));
            if !pause(backoff.wait(), stop) {
                return Step::Stop;
            }
            Step::Again
        }
        Err(e) => {
            let _ = tell.send(Update::Refused(e.to_string()));
            Step::Stop
        }
    }
}

/// Catches up with the host's log. A player's seat while strengths are hidden has no whole log to
/// replay: it catches up its own view of the game (the host's state for the seat, the log as it
/// may read it). A lost connection keeps what was caught up (`replica`) and tries again.
fn caught_up(
    mut c: Client,
    tell: &Sender<Update>,
    stop: &AtomicBool,
    backoff: &mut kepi_middle::net::io::Backoff,
    replica: &mut Replica,
) -> Step<Client> {
    let caught = if c.welcome().hidden {
        c.catch_up_view(STEP.saturating_mul(6)).map(|_| ())
    } else {
        c.catch_up(STEP.saturating_mul(6)).map(|_| ())
    };
    match caught {
        Ok(()) => Step::Go(c),
        Err(NetError::Connection(m)) => {
            let _ = tell.send(Update::Lost(m));
            *replica = c.into_replica().unwrap_or_default();
            if !pause(backoff.wait(), stop) {
                return Step::Stop;
            }
            Step::Again
        }
        Err(other) => {
            let _ = tell.send(Update::Refused(other.to_string()));
            Step::Stop
        }
    }
}

/// The conversation once caught up: the game shown, then, until it ends, what the window asks
/// sent, the host listened to, and the game shown again whenever the log grew. Returns how it
/// ended (the host closing, or an error) with the client; `None` when the window stopped it
/// (the connection closed).
fn converse(
    mut c: Client,
    asked: &Receiver<Ask>,
    tell: &Sender<Update>,
    stop: &AtomicBool,
) -> Option<(Client, Result<String, NetError>)> {
    let mut shown = c.replica().map_or(0, Replica::len);
    if let Some(g) = replayed(&c) {
        let _ = tell.send(Update::Game(Box::new(g)));
    }
    let lost: Result<String, NetError> = loop {
        if stop.load(Ordering::SeqCst) {
            c.close();
            return None;
        }
        if let Err(e) = send_asks(&mut c, asked, tell) {
            break Err(e);
        }
        match listen(&mut c, tell) {
            Ok(Some(m)) => break Ok(m),
            Ok(None) => {}
            Err(e) => break Err(e),
        }
        let now = c.replica().map_or(0, Replica::len);
        if now != shown {
            shown = now;
            if let Some(g) = replayed(&c) {
                let _ = tell.send(Update::Game(Box::new(g)));
            }
        }
    };
    Some((c, lost))
}

/// Sends what the window asked, each answer told back; a refusal is an answer. Any other error
/// ends the connection (said for an apply first, so the window does not wait for it).
fn send_asks(c: &mut Client, asked: &Receiver<Ask>, tell: &Sender<Update>) -> Result<(), NetError> {
    while let Ok(a) = asked.try_recv() {
        // What was asked, should the connection break before the answer: the window
        // says so rather than leave it waiting (the log tells, once back, whether the
        // host applied it).
        let lost_ask = match &a {
            Ask::Apply { words, resolution } => Some(Update::Applied {
                text: format!(
                    "the connection broke while asking `{}`: once reconnected, the log shows whether the host applied it",
                    words.join(" ")
                ),
                refused: true,
                made: Vec::new(),
                resolution: *resolution,
            }),
            _ => None,
        };
        match ask(c, a) {
            Ok(u) => {
                let _ = tell.send(u);
            }
            Err(NetError::Refused(m)) => {
                let u = match lost_ask {
                    Some(Update::Applied { resolution, .. }) => Update::Applied {
                        text: format!("refused: {m}"),
                        refused: true,
                        made: Vec::new(),
                        resolution,
                    },
                    _ => Update::Answer(format!("refused: {m}"), true),
                };
                let _ = tell.send(u);
            }
            Err(e) => {
                if let Some(u) = lost_ask {
                    let _ = tell.send(u);
                }
                return Err(e);
            }
        }
    }
    Ok(())
}

/// One thing the window asked, sent to the host, and its answer as the window is told it.
fn ask(c: &mut Client, a: Ask) -> Result<Update, NetError> {
    match a {
        Ask::Apply { words, resolution } => c.apply(&words, STEP.saturating_mul(3)).map(|a| {
            let (text, refused) = answer_text(&a, resolution);
            let made = (a.entries.iter().map(|e| e.index))
                .chain(a.seen.iter().map(|e| e.index))
                .collect();
            Update::Applied {
                text,
                refused,
                made,
                resolution,
            }
        }),
        Ask::Pending => c.pending(STEP).map(Update::Pending),
        Ask::Decide {
            request,
            approve,
            reason,
        } => c
            .decide(request, approve, reason, STEP.saturating_mul(3))
            .map(|a| {
                let (t, bad) = answer_text(&a, false);
                Update::Answer(format!("request {request}: {t}"), bad)
            }),
        Ask::SetApproval(on) => c.set_approval(on, STEP).map(Update::Approval),
    }
}

/// Listens to the host a moment: the umpire's decision on a request this window made is told
/// back; the host closing ends the conversation with its words (`Some`).
fn listen(c: &mut Client, tell: &Sender<Update>) -> Result<Option<String>, NetError> {
    match c.next(Instant::now() + LISTEN) {
        Ok(Incoming::Decided(d)) => {
            let text = if d.approved {
                format!("the umpire approved request {}", d.request)
            } else {
                d.refused
                    .as_ref()
                    .map(|r| r.message.clone())
                    .unwrap_or_else(|| format!("the umpire rejected request {}", d.request))
            };
            let _ = tell.send(Update::Answer(text, !d.approved));
            Ok(None)
        }
        Ok(Incoming::Closing(m)) => Ok(Some(m)),
        Ok(Incoming::Entries(_) | Incoming::Idle) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The game this window hosts.
pub struct Hosting {
    /// The address players type.
    pub address: String,
    /// The address and port listened on (`0.0.0.0`: every interface).
    pub listening: std::net::SocketAddr,
    /// Who can reach it, in words ([`kepi_middle::net::host::reach`]).
    pub reach: String,
    /// The seats and their codes, umpire first.
    pub seats: Vec<SeatCode>,
    /// The save the host writes.
    pub save: PathBuf,
    /// Who is connected now (seat, address).
    pub connected: Vec<(Seat, String)>,
    /// What happened lately, newest last.
    pub events: Vec<String>,
    /// Whether players' resolutions wait for the umpire.
    pub approval: bool,
    /// Answers to the umpire's decisions, newest last.
    pub answers: Vec<(String, bool)>,
    /// The umpire's own connection (over loopback), which follows the game for the window.
    link: Link,
    heard: Receiver<Event>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<Result<Stopped, NetError>>>,
    /// Stop hosting was pressed; the host is catching the save up.
    pub stopping: bool,
}

/// How long closing the window waits for its host to catch the save up.
const STOP_WAIT: Duration = Duration::from_secs(10);

impl Drop for Hosting {
    /// The window closes (or the game is left) while hosting: the host is stopped and given a
    /// moment to tell the players and catch the save up, as Stop hosting does. The journal holds
    /// every acknowledged action whatever happens, so a host that takes longer loses nothing.
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let until = Instant::now() + STOP_WAIT;
        if let Some(t) = self.thread.take() {
            while !t.is_finished() && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(20));
            }
            if t.is_finished() {
                let _ = t.join();
            }
        }
    }
}

/// A seat this window joined.
pub struct Joined {
    /// The host's address.
    pub address: String,
    /// The seat, once the host said which.
    pub seat: Option<Seat>,
    /// Answers to requests and decisions on them, newest last.
    pub answers: Vec<(String, bool)>,
    /// The request being typed (the words of `kepi remote apply`).
    pub request: String,
    /// The connection is lost (why); the worker is reconnecting.
    pub lost: Option<String>,
    link: Link,
    /// The local game, given back on Leave.
    local: Option<super::state::Stash>,
}

/// The Join dialog's fields.
#[derive(Default)]
pub struct JoinForm {
    /// The typed address.
    pub address: String,
    /// The typed code.
    pub code: String,
    /// Games found on the network.
    pub found: Vec<Found>,
    /// Why the last join or discovery failed.
    pub error: Option<String>,
    discovering: Option<Receiver<Result<Vec<Found>, String>>>,
}

/// Where the Host dialog listens: who can reach the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BindChoice {
    /// 127.0.0.1: kepi on this computer only.
    ThisComputer,
    /// 0.0.0.0: every network this computer is on (players on their own laptops).
    LocalNetwork,
    /// One address of this computer, as typed ([`NetUi::bind_typed`]).
    Typed,
}

/// What the Host and Join dialogs ask of the window: they draw from the [`View`] and change the
/// game or the connections only through these, applied after the frame's dialogs are drawn.
#[derive(Debug)]
pub enum NetAction {
    /// "Host": start the host's thread for the game's save.
    StartHosting,
    /// "Leave": the joined game's link is dropped.
    Leave,
    /// A command of the window (a request approved or rejected).
    Do(Command),
}

/// The window's network side: the host's thread or the joined game's link (the controller,
/// polled each frame) and the Host and Join dialogs, drawn from the [`View`] with the state they
/// keep (the address typed, the games found), asking for changes as [`NetAction`]s.
pub struct NetUi {
    /// Where a hosted game listens.
    pub bind: BindChoice,
    /// The address typed for [`BindChoice::Typed`].
    pub bind_typed: String,
    /// The Host dialog is shown.
    pub host_open: bool,
    /// The Join dialog is shown.
    pub join_open: bool,
    /// Advertise a hosted game on the network (mDNS), as `kepi serve` does.
    pub advertise: bool,
    /// The game hosted, if any.
    pub hosting: Option<Hosting>,
    /// The seat joined, if any.
    pub joined: Option<Joined>,
    /// The Join dialog's fields.
    pub join: JoinForm,
    /// This machine's addresses, read when the Host dialog opens: the typed address is checked
    /// against them, and the field's hint is one of them.
    pub own: Vec<std::net::IpAddr>,
    /// Why the last Start hosting failed, said beside the button.
    pub host_error: Option<String>,
}

impl Default for NetUi {
    fn default() -> Self {
        NetUi {
            bind: BindChoice::LocalNetwork,
            bind_typed: String::new(),
            host_open: false,
            join_open: false,
            advertise: true,
            hosting: None,
            joined: None,
            join: JoinForm::default(),
            own: Vec::new(),
            host_error: None,
        }
    }
}

impl Drop for NetUi {
    /// The window closes while joined: the seat leaves politely (the host says "<seat> left").
    /// Leave does not wait: the worker closes by itself while the window goes on.
    fn drop(&mut self) {
        if let Some(j) = &mut self.joined {
            j.link.finish(Duration::from_secs(1));
        }
    }
}

/// Sends the requests the window made since the last frame ([`Remote::outbox`]), in order.
fn send_outbox(app: &mut AppState, link: &Link) {
    let Some(r) = app.mode.remote_mut() else {
        return;
    };
    for Request { words, resolution } in r.outbox.drain(..) {
        link.ask(Ask::Apply { words, resolution });
    }
}

/// The host's answer to a request the window sent: on the status line (what it applied, a roll
/// said as the window alone says it, or why not) and in the dialog's list; a resolver roll's result card shows
/// the entry it made.
fn applied(
    app: &mut AppState,
    answers: &mut Vec<(String, bool)>,
    text: String,
    refused: bool,
    made: &[u64],
    resolution: bool,
) {
    if resolution {
        if let Some(r) = app.mode.remote_mut() {
            r.waiting = r.waiting.saturating_sub(1);
        }
        if let Some(&last) = made.last() {
            app.resolved_remotely(last);
        }
    }
    app.set_status(text.clone(), refused);
    push(answers, (text, refused));
}

fn push(list: &mut Vec<(String, bool)>, line: (String, bool)) {
    list.push(line);
    if list.len() > KEEP {
        list.remove(0);
    }
}

impl NetUi {
    /// Opens a dialog the File menu asked for (a Join dialog looks for games at once).
    pub fn open(&mut self, d: NetDialog) {
        match d {
            NetDialog::Host => {
                self.host_open = true;
                self.own = kepi_middle::net::host::own_addresses();
            }
            NetDialog::Join => {
                self.join_open = true;
                if self.joined.is_none() {
                    self.discover();
                }
            }
        }
    }

    /// Looks for games on the network, on a worker thread.
    pub fn discover(&mut self) {
        if self.join.discovering.is_some() {
            return;
        }
        let (tx, rx) = channel();
        let spawned = std::thread::Builder::new()
            .name("kepi-discover".into())
            .spawn(move || {
                let found = kepi_middle::net::discovery::discover(Duration::from_secs(2))
                    .map_err(|e| e.to_string());
                let _ = tx.send(found);
            });
        match spawned {
            Ok(_) => self.join.discovering = Some(rx),
            Err(e) => self.join.error = Some(format!("cannot look for games: {e}")),
        }
    }

    /// The address the Host dialog's choice listens on, or why the typed one is not an address.
    pub fn bind_address(&self) -> Result<std::net::IpAddr, String> {
        match self.bind {
            BindChoice::ThisComputer => Ok(std::net::IpAddr::from([127, 0, 0, 1])),
            BindChoice::LocalNetwork => Ok(std::net::IpAddr::from([0, 0, 0, 0])),
            BindChoice::Typed => {
                let typed = self.bind_typed.trim();
                let ip: std::net::IpAddr = typed.parse().map_err(|_| {
                    let own: Vec<String> = self.own.iter().map(ToString::to_string).collect();
                    if own.is_empty() {
                        format!("`{typed}` is not an IP address of this computer")
                    } else {
                        format!(
                            "`{typed}` is not an IP address of this computer; its addresses are {}",
                            own.join(", ")
                        )
                    }
                })?;
                if kepi_middle::net::host::can_listen_on(ip, &self.own) {
                    Ok(ip)
                } else {
                    Err(kepi_middle::net::host::not_an_own_address(ip, &self.own))
                }
            }
        }
    }

    /// The typed address field's hint: this machine's address on a network (not loopback), or
    /// words when it has none.
    fn bind_hint(&self) -> String {
        self.own
            .iter()
            .find(|ip| ip.is_ipv4() && !ip.is_loopback())
            .map_or_else(|| "an address here".to_string(), ToString::to_string)
    }

    /// Whether the window is on the network (hosting or joined).
    pub fn active(&self) -> bool {
        self.hosting.is_some() || self.joined.is_some()
    }

    /// Starts hosting the game's save: the window lets go of the save, the host opens it, and the
    /// window follows the game as the umpire's seat.
    pub fn start_hosting(&mut self, app: &mut AppState) {
        if self.active() {
            return;
        }
        let Some(save) = app.save_path() else {
            app.set_status(
                "this game has no save file yet: save it first (File > Save As…), then host it",
                true,
            );
            return;
        };
        if app.unsaved() {
            app.set_status(
                "some actions of this game are not on disk: save it first, then host it",
                true,
            );
            return;
        }
        let bind = match self.bind_address() {
            Ok(ip) => ip,
            Err(e) => {
                app.set_status(format!("could not host this game: {e}"), true);
                self.host_error = Some(e);
                return;
            }
        };
        self.host_error = None;
        app.release_store();
        let (etx, heard) = channel::<Event>();
        let sink: EventSink = Arc::new(move |e: &Event| {
            let _ = etx.send(e.clone());
        });
        let options = HostOptions {
            bind,
            port: 0,
            new_codes: false,
        };
        let host = match Host::open(&save, &options, app.tables, sink) {
            Ok(h) => h,
            Err(e) => {
                app.open(&save);
                app.set_status(format!("could not host this game: {e}"), true);
                self.host_error = Some(e.to_string());
                return;
            }
        };
        let address = host.url();
        let listening = host.local_addr();
        let seats = host.seats();
        // The window's own umpire connection: over loopback when every interface listens.
        let local = match host.local_addr().ip() {
            std::net::IpAddr::V4(v4) if v4.is_unspecified() => {
                format!("ws://127.0.0.1:{}", host.local_addr().port())
            }
            std::net::IpAddr::V6(v6) if v6.is_unspecified() => {
                format!("ws://[::1]:{}", host.local_addr().port())
            }
            std::net::IpAddr::V4(v4) => format!("ws://{v4}:{}", host.local_addr().port()),
            std::net::IpAddr::V6(v6) => format!("ws://[{v6}]:{}", host.local_addr().port()),
        };
        let Some(umpire) = seats.iter().find(|s| s.seat == Seat::Umpire).cloned() else {
            app.open(&save);
            app.set_status("could not host this game: it has no umpire's seat", true);
            return;
        };
        let advert = self.advertise.then(|| host.advert());
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let spawned = std::thread::Builder::new()
            .name("kepi-host".into())
            .spawn(move || {
                // LAN discovery is a convenience: without multicast, players type the address.
                let _advertised = advert.and_then(|a| {
                    kepi_middle::net::discovery::Advertiser::start(&a, options.bind).ok()
                });
                host.serve(&flag)
            });
        let thread = match spawned {
            Ok(t) => t,
            Err(e) => {
                app.open(&save);
                app.set_status(format!("could not host this game: {e}"), true);
                return;
            }
        };
        let link = Link::start(local, umpire.code.clone());
        link.ask(Ask::Pending);
        app.mode = Mode::Hosting(Remote::new(
            Some(Seat::Umpire),
            "this window hosts its game: stop hosting to open another game or start a new one",
        ));
        app.set_status(format!("hosting {} at {address}", save.display()), false);
        self.hosting = Some(Hosting {
            address,
            listening,
            reach: kepi_middle::net::host::reach(listening.ip()),
            seats,
            save,
            connected: Vec::new(),
            events: Vec::new(),
            approval: false,
            answers: Vec::new(),
            link,
            heard,
            stop,
            thread: Some(thread),
            stopping: false,
        });
    }

    /// Stop hosting: the host closes every connection and catches the save up; once it has, the
    /// window opens the save again and plays it locally.
    pub fn stop_hosting(&mut self) {
        if let Some(h) = &mut self.hosting {
            h.stopping = true;
            h.stop.store(true, Ordering::SeqCst);
        }
    }

    /// Starts joining the typed address with the typed code.
    pub fn join(&mut self) {
        if self.active() {
            return;
        }
        let address = self.join.address.trim().to_string();
        let code = self.join.code.trim().to_string();
        if let Err(e) = kepi_middle::net::parse_address(&address) {
            self.join.error = Some(e.to_string());
            return;
        }
        if code.is_empty() {
            self.join.error =
                Some("type the seat's join code, as the umpire's kepi shows it".into());
            return;
        }
        self.join.error = None;
        self.joined = Some(Joined {
            link: Link::start(address.clone(), code),
            address,
            seat: None,
            answers: Vec::new(),
            request: String::new(),
            lost: None,
            local: None,
        });
    }

    /// Leave: back to the local game.
    pub fn leave(&mut self, app: &mut AppState) {
        if let Some(j) = self.joined.take() {
            app.mode = Mode::Local;
            if let Some(local) = j.local {
                app.restore(local);
            }
            app.set_status(format!("left the game at {}", j.address), false);
        }
    }

    /// The search for games on the network ended with `found` (what [`NetUi::poll`] does with
    /// the search's answer; the tests give one without a network).
    pub fn discovered(&mut self, found: Result<Vec<Found>, String>) {
        self.join.discovering = None;
        match found {
            Ok(f) => self.join.found = f,
            Err(e) => self.join.error = Some(e),
        }
    }

    /// Reads what the workers said; true while the window should keep looking.
    pub fn poll(&mut self, app: &mut AppState) -> bool {
        if let Some(rx) = &self.join.discovering
            && let Ok(found) = rx.try_recv()
        {
            self.discovered(found);
        }
        self.poll_hosting(app);
        self.poll_joined(app);
        self.active() || self.join.discovering.is_some()
    }

    fn poll_hosting(&mut self, app: &mut AppState) {
        let Some(h) = &mut self.hosting else {
            return;
        };
        let mut refresh = false;
        for e in h.heard.try_iter() {
            let line = match &e {
                Event::Connected { seat, peer } => {
                    h.connected.push((*seat, peer.clone()));
                    format!("{seat} joined from {peer}")
                }
                Event::Disconnected { seat, peer, reason } => {
                    h.connected.retain(|(_, p)| p != peer);
                    let who = seat.map(|s| s.name()).unwrap_or("a client");
                    // A seat that closed its connection simply left: no reason to show.
                    if reason == kepi_middle::net::host::CLOSED {
                        format!("{who} left")
                    } else {
                        format!("{who} left ({reason})")
                    }
                }
                Event::Applied {
                    seat,
                    index,
                    summary,
                } => {
                    // What the rules say against a waiting request changes with the game (a
                    // unit that has attacked since): asked again.
                    refresh |= app.mode.remote().is_some_and(|r| !r.pending.is_empty());
                    format!("{index} for {seat}: {summary}")
                }
                Event::Refused { peer, reason } => format!("refused {peer}: {reason}"),
                Event::Held {
                    seat,
                    request,
                    words,
                } => {
                    refresh = true;
                    format!("request {request} from {seat} waits: {words}")
                }
                Event::Decided {
                    request, approved, ..
                } => {
                    refresh = true;
                    format!(
                        "request {request} {}",
                        if *approved { "approved" } else { "rejected" }
                    )
                }
                Event::Approval { on } => {
                    refresh = true;
                    format!("approval {}", if *on { "on" } else { "off" })
                }
                Event::Warning { message } => format!("warning: {message}"),
            };
            h.events.push(line);
            if h.events.len() > KEEP {
                h.events.remove(0);
            }
        }
        if refresh {
            h.link.ask(Ask::Pending);
        }
        send_outbox(app, &h.link);
        if let Some(r) = app.mode.remote_mut() {
            for (request, approve, reason) in r.decisions.drain(..) {
                h.link.ask(Ask::Decide {
                    request,
                    approve,
                    reason,
                });
            }
        }
        for u in h.link.poll() {
            match u {
                Update::Game(g) => app.show_remote(*g),
                Update::Pending(p) => {
                    h.approval = p.approval;
                    // One list, the Due panel's and this dialog's.
                    if let Some(r) = app.mode.remote_mut() {
                        r.pending = p.requests;
                    }
                }
                Update::Approval(on) => h.approval = on,
                Update::Answer(t, bad) => {
                    app.set_status(t.clone(), bad);
                    push(&mut h.answers, (t, bad));
                }
                Update::Applied {
                    text,
                    refused,
                    made,
                    resolution,
                } => applied(app, &mut h.answers, text, refused, &made, resolution),
                Update::Lost(m) if !h.stopping => app.set_status(
                    format!("the window lost its own host ({m}); reconnecting…"),
                    true,
                ),
                Update::Refused(m) => {
                    app.set_status(format!("the host refused the window: {m}"), true)
                }
                Update::Joined(_) | Update::Lost(_) => {}
            }
        }
        let finished = h.thread.as_ref().is_none_or(JoinHandle::is_finished);
        if finished {
            let result = h.thread.take().map(JoinHandle::join);
            let save = h.save.clone();
            self.hosting = None;
            app.mode = Mode::Local;
            app.open(&save);
            match result {
                Some(Ok(Ok(s))) => app.set_status(
                    format!(
                        "stopped hosting: the save holds all {} log entries{}",
                        s.entries,
                        s.warning
                            .map(|w| format!(" (warning: {w})"))
                            .unwrap_or_default()
                    ),
                    false,
                ),
                Some(Ok(Err(e))) => app.set_status(format!("the host stopped: {e}"), true),
                _ => app.set_status(
                    "the host stopped unexpectedly; the journal holds every action",
                    true,
                ),
            }
        }
    }

    fn poll_joined(&mut self, app: &mut AppState) {
        let Some(j) = &mut self.joined else {
            return;
        };
        let mut refused = None;
        for u in j.link.poll() {
            match u {
                Update::Joined(seat) => {
                    if j.lost.take().is_some() {
                        app.set_status(format!("reconnected to {}", j.address), false);
                    }
                    j.seat = Some(seat);
                    if let Some(r) = app.mode.remote_mut() {
                        r.seat = Some(seat);
                    }
                }
                Update::Game(g) => {
                    if j.local.is_none() {
                        j.local = Some(app.stash());
                        let seat = j.seat.map(|s| s.name()).unwrap_or("a");
                        app.mode = Mode::Joined(Remote::new(
                            j.seat,
                            format!(
                                "this window has joined {}: leave it (File > Join a game…) to open another game or start a new one",
                                j.address
                            ),
                        ));
                        app.set_status(format!("joined {} as {seat}", j.address), false);
                    }
                    app.show_remote(*g);
                }
                Update::Answer(t, bad) => {
                    app.set_status(t.clone(), bad);
                    push(&mut j.answers, (t, bad));
                }
                Update::Applied {
                    text,
                    refused,
                    made,
                    resolution,
                } => applied(app, &mut j.answers, text, refused, &made, resolution),
                Update::Pending(_) | Update::Approval(_) => {}
                Update::Lost(m) => {
                    app.set_status(
                        format!("connection to {} lost ({m}); reconnecting…", j.address),
                        true,
                    );
                    j.lost = Some(m);
                }
                Update::Refused(m) => refused = Some(m),
            }
        }
        send_outbox(app, &j.link);
        if let Some(m) = refused {
            self.join.error = Some(m.clone());
            if let Some(j) = self.joined.take() {
                app.mode = Mode::Local;
                if let Some(local) = j.local {
                    app.restore(local);
                }
            }
            app.set_status(format!("not joined: {m}"), true);
        }
    }

    /// The Host and Join dialogs, kept within `free` (the window below its top bar, whose Undo and
    /// Redo they never cover), their tops fixed as their lists grow.
    pub fn ui(&mut self, ctx: &egui::Context, app: &mut AppState, free: egui::Rect) {
        let at = egui::pos2(
            (free.center().x - DIALOG_WIDTH / 2.0).max(free.left()),
            free.top() + 24.0,
        );
        if self.poll(app) {
            ctx.request_repaint_after(REPAINT);
        }
        // The dialogs read the game through the window's view and ask for what changes it.
        let mut asked = Vec::new();
        {
            let view = app.view();
            if self.host_open {
                let mut open = true;
                egui::Window::new("Host this game")
                    .open(&mut open)
                    .default_width(DIALOG_WIDTH)
                    .default_pos(at)
                    .constrain_to(free)
                    .show(ctx, |ui| asked.extend(self.host_ui(ui, &view)));
                self.host_open &= open;
            }
            if self.join_open {
                let mut open = true;
                egui::Window::new("Join a game")
                    .open(&mut open)
                    .default_width(DIALOG_WIDTH)
                    .default_pos(at)
                    .constrain_to(free)
                    .show(ctx, |ui| asked.extend(self.join_ui(ui, &view)));
                self.join_open &= open;
            }
        }
        for a in asked {
            match a {
                NetAction::StartHosting => self.start_hosting(app),
                NetAction::Leave => self.leave(app),
                NetAction::Do(c) => app.handle(c),
            }
        }
    }

    /// The Host dialog's content, drawn from `view`: what it asks, nothing done yet.
    pub fn host_ui(&mut self, ui: &mut egui::Ui, view: &View) -> Vec<NetAction> {
        let mut out = Vec::new();
        if self.joined.is_some() {
            ui.label("This window has joined another game: leave it first to host this one.");
            return out;
        }
        let Some(h) = &mut self.hosting else {
            match view.save_path {
                None => {
                    ui.label("This game has no save file yet: it must be saved first (File > Save As…), then hosted.");
                }
                Some(p) => self.host_setup_ui(ui, p, &mut out),
            }
            return out;
        };
        if h.stopping {
            ui.label("Stopping: the save is being caught up…");
            return out;
        }
        if hosting_ui(ui, h, view, &mut out) {
            self.stop_hosting();
        }
        out
    }

    /// Before hosting: who can join (this computer, the local network, an address typed), Start
    /// hosting with why not or who can reach it, and the save the host keeps (`save`).
    fn host_setup_ui(
        &mut self,
        ui: &mut egui::Ui,
        save: &std::path::Path,
        out: &mut Vec<NetAction>,
    ) {
        // Issue 46: the choices and Start hosting come first, at fixed places; what
        // changes (the reach or why not, the save's path) follows them, wrapped.
        ui.label("Who can join:");
        let chosen = self.bind;
        ui.radio_value(
            &mut self.bind,
            BindChoice::ThisComputer,
            "this computer only (127.0.0.1)",
        );
        ui.radio_value(
            &mut self.bind,
            BindChoice::LocalNetwork,
            "the local network (all interfaces)",
        );
        let hint = self.bind_hint();
        ui.horizontal(|ui| {
            ui.radio_value(&mut self.bind, BindChoice::Typed, "this address:");
            let typed = super::keys::field(
                ui,
                egui::TextEdit::singleline(&mut self.bind_typed)
                    .hint_text(hint)
                    .desired_width(160.0),
                "host_bind_address",
            );
            if typed.changed() {
                self.bind = BindChoice::Typed;
                self.host_error = None;
            }
        });
        if self.bind != chosen {
            self.host_error = None;
        }
        let bind = self.bind_address();
        ui.horizontal_wrapped(|ui| {
            if ui
                .add_enabled(bind.is_ok(), egui::Button::new("Start hosting"))
                .clicked()
            {
                out.push(NetAction::StartHosting);
            }
            // What hosting needs, beside the button: why not, or who can reach it.
            match (&bind, &self.host_error) {
                (Err(e), _) | (Ok(_), Some(e)) => {
                    ui.colored_label(ui.visuals().error_fg_color, e);
                }
                (Ok(ip), None) => {
                    let words = format!(
                        "Reachable from {}: anyone there with a join code can join.",
                        kepi_middle::net::host::reach(*ip)
                    );
                    if ip.is_unspecified() {
                        ui.colored_label(ui.visuals().warn_fg_color, words);
                    } else {
                        ui.label(words);
                    }
                }
            }
        });
        ui.separator();
        ui.label(format!(
            "Players join this game from their own kepi; the host (this window) keeps {} and applies every action.",
            save.display()
        ));
    }

    /// The Join dialog's content: what it asks, nothing done yet.
    pub fn join_ui(&mut self, ui: &mut egui::Ui, view: &View) -> Vec<NetAction> {
        let mut out = Vec::new();
        if self.hosting.is_some() {
            ui.label("This window hosts a game: stop hosting first to join another.");
            return out;
        }
        if let Some(j) = &mut self.joined {
            match (j.seat, &j.lost) {
                (_, Some(m)) => {
                    ui.colored_label(
                        ui.visuals().warn_fg_color,
                        format!("Connection lost ({m}); reconnecting…"),
                    );
                }
                (Some(seat), None) => {
                    ui.label(format!("Joined {} as the {seat} seat.", j.address));
                }
                (None, None) => {
                    ui.label(format!("Joining {}…", j.address));
                }
            }
            // The game's own verbs, never another rule set's (issue 46: "fire FIRER TARGET" in
            // an 1870 game).
            let system = view.state().system.system();
            ui.label(format!(
                "A request, in the words of `kepi remote apply`; this game's verbs: {}.",
                kepi_middle::moves::play::verbs_for(system).join(", ")
            ));
            let example = kepi_middle::moves::play::request_example(system).unwrap_or_default();
            ui.horizontal(|ui| {
                super::keys::field(
                    ui,
                    egui::TextEdit::singleline(&mut j.request)
                        .hint_text(example)
                        .desired_width(300.0),
                    "join_request",
                );
                if ui.button("Send request").clicked() {
                    let words: Vec<String> =
                        j.request.split_whitespace().map(str::to_string).collect();
                    if !words.is_empty() {
                        j.link.ask(Ask::Apply {
                            words,
                            resolution: false,
                        });
                        j.request.clear();
                    }
                }
            });
            for (t, bad) in j.answers.iter().rev().take(8) {
                if *bad {
                    ui.colored_label(ui.visuals().error_fg_color, t);
                } else {
                    ui.label(t);
                }
            }
            ui.separator();
            if ui.button("Leave").clicked() {
                out.push(NetAction::Leave);
            }
            return out;
        }
        // Rows rather than a grid: a grid's cell is as narrow as its column was, and an address
        // or a code needs to be read whole while typed.
        ui.horizontal(|ui| {
            let l = ui.add_sized([60.0, 20.0], egui::Label::new("Address"));
            super::keys::field(
                ui,
                egui::TextEdit::singleline(&mut self.join.address)
                    .hint_text("ws://HOST:PORT")
                    .desired_width(280.0),
                "join_address",
            )
            .labelled_by(l.id);
        });
        ui.horizontal(|ui| {
            let l = ui.add_sized([60.0, 20.0], egui::Label::new("Code"));
            super::keys::field(
                ui,
                egui::TextEdit::singleline(&mut self.join.code)
                    .hint_text("XXXX-XXXX-XXXX-XXXX")
                    .desired_width(280.0),
                "join_code",
            )
            .labelled_by(l.id);
        });
        if let Some(e) = &self.join.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        if ui.button("Join").clicked() {
            self.join();
        }
        ui.separator();
        ui.horizontal(|ui| {
            ui.strong("Games on this network");
            if self.join.discovering.is_some() {
                ui.spinner();
            } else if ui.button("Refresh").clicked() {
                self.discover();
            }
        });
        // Under the fields and Join: a game found while someone types its address or code
        // never moves them (issue 46: the list's first row, taller than the line it replaced,
        // moved the fields mid-word).
        if self.join.discovering.is_some() {
            ui.weak("Looking for games… (a typed address always works)");
        } else if self.join.found.is_empty() {
            ui.weak("None found (a typed address always works).");
        }
        for g in self.join.found.clone() {
            let label = format!("{}  ({})  {}", g.title, g.rules, g.address);
            let resp = ui.add_enabled(
                g.compatible,
                egui::Button::selectable(self.join.address == g.address, label),
            );
            if resp.clicked() {
                self.join.address = g.address.clone();
            }
        }
        out
    }
}

/// The game hosted, in the Host dialog: Stop hosting and the address, the seats and their codes,
/// the approval switch, the requests waiting, the last answers and the events. True when Stop
/// hosting was pressed.
fn hosting_ui(ui: &mut egui::Ui, h: &mut Hosting, view: &View, out: &mut Vec<NetAction>) -> bool {
    let stop = hosting_address_ui(ui, h);
    ui.separator();
    host_seats_ui(ui, h);
    ui.separator();
    let mut approval = h.approval;
    if ui
        .checkbox(&mut approval, "Players' resolutions wait for my approval")
        .changed()
    {
        h.link.ask(Ask::SetApproval(approval));
    }
    waiting_requests_ui(ui, view, out);
    host_answers_ui(ui, h);
    stop
}

/// Stop hosting first, at a place nothing above it changes (the events, answers and requests
/// below grow as the game goes on), then the address players type. True when Stop was pressed.
fn hosting_address_ui(ui: &mut egui::Ui, h: &Hosting) -> bool {
    let mut stop = false;
    ui.horizontal_wrapped(|ui| {
        if ui.button("Stop hosting").clicked() {
            stop = true;
        }
        ui.label(format!("Listening on {}: {}.", h.listening, h.reach));
    });
    ui.horizontal(|ui| {
        ui.label("Address:");
        ui.add(egui::Label::new(egui::RichText::new(&h.address).monospace()).selectable(true));
        if ui.small_button("Copy").clicked() {
            ui.ctx().copy_text(h.address.clone());
        }
    });
    stop
}

/// The seats, their join codes (to copy) and who is connected to each ("host_seats").
fn host_seats_ui(ui: &mut egui::Ui, h: &Hosting) {
    ui.strong("Seats and their join codes");
    egui::Grid::new("host_seats").striped(true).show(ui, |ui| {
        for s in &h.seats {
            let here = h
                .connected
                .iter()
                .filter(|(seat, _)| *seat == s.seat)
                .count();
            ui.label(s.seat.name());
            ui.add(egui::Label::new(egui::RichText::new(&s.code).monospace()).selectable(true));
            if ui
                .small_button("Copy")
                .on_hover_text(format!("copy the {} seat's code", s.seat))
                .clicked()
            {
                ui.ctx().copy_text(s.code.clone());
            }
            ui.label(match here {
                0 => String::new(),
                1 => "connected".to_string(),
                n => format!("{n} connected"),
            });
            ui.end_row();
        }
    });
}

/// The players' requests waiting for the umpire, each with Approve and Reject. They are the Due
/// panel's too: decided the same way, from one list.
fn waiting_requests_ui(ui: &mut egui::Ui, view: &View, out: &mut Vec<NetAction>) {
    let pending = view
        .mode
        .remote()
        .map(|r| r.pending.clone())
        .unwrap_or_default();
    if pending.is_empty() {
        ui.weak("No request is waiting.");
    } else {
        ui.strong("Waiting requests (also in the Due panel)");
    }
    for r in &pending {
        // The buttons first, so a long request never pushes them; its words and what the
        // rules say against it (read before deciding) wrap after them.
        ui.horizontal_wrapped(|ui| {
            for (approve, verb) in [(true, "Approve"), (false, "Reject")] {
                if ui.button(format!("{verb} {}", r.request)).clicked() {
                    out.push(NetAction::Do(Command::Decide {
                        request: r.request,
                        approve,
                        reason: None,
                    }));
                }
            }
            ui.label(format!("{}: {}", r.seat, r.text()));
        });
        for n in &r.notes {
            ui.colored_label(ui.visuals().warn_fg_color, format!("note: {n}"));
        }
    }
}

/// The last three answers to the umpire's decisions, newest first, then the host's events in
/// their scroll area ("host_events").
fn host_answers_ui(ui: &mut egui::Ui, h: &Hosting) {
    for (t, bad) in h.answers.iter().rev().take(3) {
        if *bad {
            ui.colored_label(ui.visuals().error_fg_color, t);
        } else {
            ui.label(t);
        }
    }
    ui.separator();
    egui::ScrollArea::vertical()
        .id_salt("host_events")
        .max_height(140.0)
        .show(ui, |ui| {
            for e in h.events.iter().rev() {
                ui.small(e);
            }
        });
}
