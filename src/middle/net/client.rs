//! A client of a hosted game (`kepi remote`, the window's Join): joins a seat with its code, keeps
//! a replica of the log that it replays and verifies entry by entry, and sends requests.
//!
//! The replica trusts nothing it is sent: every entry must carry the next index, link to the
//! replica's head and hash to its own hash, and replay on the state so far (the first must start
//! the game). A host that sent an edited or reordered history is caught at the first bad entry.
//! After a lost connection, [`Client::connect`] with the same [`Replica`] catches up from the
//! entries it holds.

use std::collections::VecDeque;
use std::net::ToSocketAddrs;
use std::time::{Duration, Instant};

use tungstenite::protocol::WebSocketConfig;
use tungstenite::{Message, WebSocket};

use super::io::Tcp;
use super::redact::{SeatEntry, SeenLog};
use super::{
    ClientMsg, HostMsg, MAX_HOST_MESSAGE_BYTES, NetError, PROTOCOL_VERSION, PendingRequest,
    Refusal, Welcome, parse_address,
};
use kepi_game::engine::game::{Game, LogEntry};

/// A verified copy of a hosted game's log, and the game it replays to.
#[derive(Clone, Debug, Default)]
pub struct Replica {
    game: Option<Game>,
    /// A player seat's copy while strengths are hidden: linkage checked for every entry, hashes
    /// for the whole ones; no game is replayed (the host sends the seat's view instead).
    seen: SeenLog,
}

impl Replica {
    /// An empty replica (it is sent the whole log).
    pub fn new() -> Replica {
        Replica::default()
    }

    /// Entries held.
    pub fn len(&self) -> u64 {
        self.game
            .as_ref()
            .map_or(self.seen.entries.len() as u64, |g| g.log().len() as u64)
    }

    /// A player seat's log while strengths are hidden (empty otherwise).
    pub fn seen(&self) -> &SeenLog {
        &self.seen
    }

    /// The head this replica reached: its game's, or its hidden log's.
    pub fn head(&self) -> String {
        match &self.game {
            Some(g) => g.head(),
            None => self.seen.head().to_string(),
        }
    }

    /// Takes entries as a player seat sees them while strengths are hidden, and the view after
    /// them; returns those that were new.
    pub fn push_seen(
        &mut self,
        entries: Vec<SeatEntry>,
        view: Option<serde_json::Value>,
        state: Option<Box<kepi_game::engine::game::GameState>>,
    ) -> Result<Vec<SeatEntry>, NetError> {
        if self.game.is_some() {
            return Err(NetError::Protocol(
                "the host sent a hidden view to a seat that follows the whole log".into(),
            ));
        }
        let mut new = Vec::new();
        for e in entries {
            if self
                .seen
                .push(e.clone())
                .map_err(|m| NetError::Protocol(format!("the host's log does not verify: {m}")))?
            {
                new.push(e);
            }
        }
        if view.is_some() {
            self.seen.view = view;
        }
        if state.is_some() {
            self.seen.state = state;
        }
        Ok(new)
    }

    /// Whether no entry is held yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The game replayed so far (`None` before the first entry).
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// The game for a window: the one replayed, or for a player seat while strengths are hidden
    /// its view ([`SeenLog::game`]); `None` before there is one.
    pub fn shown_game(&self) -> Option<Game> {
        self.game.clone().or_else(|| self.seen.game())
    }

    /// Takes one entry from the host: an entry already held must be the very same one;
    /// the next must continue the chain and replay. Returns whether it was new.
    pub fn push(&mut self, e: LogEntry) -> Result<bool, NetError> {
        if !self.seen.entries.is_empty() {
            return Err(NetError::Protocol(
                "the host sent whole entries to a seat it shows hidden strengths".into(),
            ));
        }
        let len = self.len();
        if e.index < len {
            let same = self
                .game
                .as_ref()
                .and_then(|g| g.log().get(e.index as usize))
                .is_some_and(|have| *have == e);
            return if same {
                Ok(false)
            } else {
                Err(NetError::Protocol(format!(
                    "the host sent another entry {} than the one this replica verified: the log was changed",
                    e.index
                )))
            };
        }
        if e.index > len {
            return Err(NetError::Protocol(format!(
                "the host skipped from entry {len} to {}",
                e.index
            )));
        }
        match &mut self.game {
            None => {
                let g = Game::from_log(vec![e], None).map_err(|err| {
                    NetError::Protocol(format!("the host's log does not verify: {err}"))
                })?;
                self.game = Some(g);
            }
            Some(g) => g.replay(e).map_err(|err| {
                NetError::Protocol(format!("the host's log does not verify: {err}"))
            })?,
        }
        Ok(true)
    }
}

/// A connection to a host, joined to one seat.
pub struct Client {
    ws: WebSocket<Tcp>,
    welcome: Welcome,
    replica: Option<Replica>,
    next_id: u64,
    /// Decisions on this client's held requests that arrived while it waited for something else.
    decisions: VecDeque<Decision>,
    /// Entries new to this client's hidden log, not yet taken ([`Client::take_seen`]).
    seen_new: Vec<SeatEntry>,
}

/// What a host message did to the client, for a caller reading the stream.
#[derive(Debug)]
pub enum Incoming {
    /// New entries, verified and added to the replica (possibly none new).
    Entries(Vec<LogEntry>),
    /// The host is stopping.
    Closing(String),
    /// The umpire decided a request this client made (held for approval).
    Decided(Decision),
    /// Nothing arrived in time.
    Idle,
}

/// The umpire's decision on a held request (the entries are in the replica too, if it follows).
#[derive(Clone, Debug)]
pub struct Decision {
    /// The held request's number.
    pub request: u64,
    /// Whether the umpire approved it.
    pub approved: bool,
    /// The entries it made, in order.
    pub entries: Vec<LogEntry>,
    /// The rejection (with its reason), or the rules' refusal of the approved request.
    pub refused: Option<Refusal>,
    /// The entries it made as this seat sees them, while strengths are hidden (`entries` is
    /// then empty).
    pub seen: Vec<SeatEntry>,
}

/// The requests held for the umpire, as this seat may see them.
#[derive(Clone, Debug)]
pub struct PendingList {
    /// Whether players' resolutions wait for the umpire now.
    pub approval: bool,
    /// The held requests, oldest first.
    pub requests: Vec<PendingRequest>,
}

/// An answer to one of this client's messages, by its id.
enum Reply {
    Answer(Answer),
    Pending(PendingList),
    Approval(bool),
}

/// The answer to a request: the entries it made (journaled on the host) and, if it stopped, why.
#[derive(Debug)]
pub struct Answer {
    /// Entries made, in order.
    pub entries: Vec<LogEntry>,
    /// Why (the rest of) the request was refused.
    pub refused: Option<Refusal>,
    /// The request is held for the umpire's approval as this number (nothing applied yet; a
    /// [`Decision`] follows, see [`Client::wait_decision`]).
    pub held: Option<u64>,
    /// The entries made as this seat sees them, while strengths are hidden (`entries` is then
    /// empty).
    pub seen: Vec<SeatEntry>,
    /// This seat's view of the game after the request, while strengths are hidden.
    pub view: Option<serde_json::Value>,
}

fn config() -> WebSocketConfig {
    WebSocketConfig::default()
        .max_message_size(Some(MAX_HOST_MESSAGE_BYTES))
        .max_frame_size(Some(MAX_HOST_MESSAGE_BYTES))
}

fn conn_err(what: &str, e: impl std::fmt::Display) -> NetError {
    NetError::Connection(format!("{what}: {e}"))
}

fn is_timeout(e: &tungstenite::Error) -> bool {
    matches!(e, tungstenite::Error::Io(io) if matches!(io.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut))
}

/// The client's WebSocket handshake (EINTR retried by [`Tcp`]); a host that is full says so in
/// words (`host is full: N connections`), passed on as a connection error.
fn handshake(
    url: &str,
    tcp: Tcp,
    address: &str,
    timeout: Duration,
) -> Result<(WebSocket<Tcp>, tungstenite::handshake::client::Response), NetError> {
    use tungstenite::HandshakeError;
    // To read the rest of a refusal's words should they come after its headers.
    let spare = tcp.get().try_clone().ok();
    match tungstenite::client::client_with_config(url, tcp, Some(config())) {
        Ok(done) => Ok(done),
        // A read timeout mid-handshake: the socket's own timeout already bounded the wait.
        Err(HandshakeError::Interrupted(_)) => Err(NetError::Connection(format!(
            "WebSocket handshake with {address}: the host did not answer in time"
        ))),
        Err(HandshakeError::Failure(tungstenite::Error::Http(resp))) => {
            let said = refusal_body(&resp, spare, timeout);
            let said = if said.is_empty() {
                format!("HTTP {}", resp.status())
            } else {
                said
            };
            Err(NetError::Connection(format!("{address}: {said}")))
        }
        Err(HandshakeError::Failure(e)) => {
            Err(conn_err(&format!("WebSocket handshake with {address}"), e))
        }
    }
}

/// The words of an HTTP refusal (a full host's 503): the body the handshake already read, then
/// the rest of its `Content-Length` from the socket (within `timeout`), as printable text of at
/// most 200 characters (a hostile host cannot reach the terminal raw).
fn refusal_body(
    resp: &tungstenite::handshake::client::Response,
    spare: Option<std::net::TcpStream>,
    timeout: Duration,
) -> String {
    use std::io::Read as _;
    const MAX: usize = 1024;
    let mut body = resp.body().clone().unwrap_or_default();
    let want = resp
        .headers()
        .get("content-length")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<usize>().ok())
        .unwrap_or(0)
        .min(MAX);
    if let Some(s) = spare
        && body.len() < want
    {
        let mut tcp = Tcp::new(s);
        tcp.set_deadline(Some(Instant::now() + timeout));
        let mut buf = [0u8; MAX];
        while body.len() < want {
            match tcp.read(&mut buf[..want - body.len()]) {
                Ok(0) | Err(_) => break,
                Ok(n) => body.extend_from_slice(&buf[..n]),
            }
        }
    }
    String::from_utf8_lossy(&body)
        .chars()
        .filter(|c| !c.is_control())
        .take(200)
        .collect::<String>()
        .trim()
        .to_string()
}

impl Client {
    /// Connects to `address` (`ws://HOST:PORT`), opens the seat of `code`, and, when `replica` is
    /// given, asks for the entries after those it holds (then every new one). Waits at most
    /// `timeout` for each step.
    pub fn connect(
        address: &str,
        code: &str,
        replica: Option<Replica>,
        timeout: Duration,
    ) -> Result<Client, NetError> {
        let (host, port) = parse_address(address)?;
        let addrs: Vec<_> = (host.as_str(), port)
            .to_socket_addrs()
            .map_err(|e| NetError::Address(format!("ADDRESS `{address}`: {e}")))?
            .collect();
        let mut last = None;
        let mut stream = None;
        for a in addrs {
            match super::io::connect(&a, timeout) {
                Ok(s) => {
                    stream = Some(s);
                    break;
                }
                Err(e) => last = Some(e),
            }
        }
        let stream = stream.ok_or_else(|| {
            conn_err(
                &format!("cannot reach {address}"),
                last.map(|e| e.to_string())
                    .unwrap_or_else(|| "no address".into()),
            )
        })?;
        let _ = stream.set_nodelay(true);
        stream
            .set_read_timeout(Some(timeout))
            .and_then(|()| stream.set_write_timeout(Some(timeout)))
            .map_err(|e| conn_err("socket", e))?;
        let host_part = if host.contains(':') {
            format!("[{host}]")
        } else {
            host.clone()
        };
        let url = format!("ws://{host_part}:{port}/");
        let (mut ws, _) = handshake(url.as_str(), Tcp::new(stream), address, timeout)?;
        let hello = ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            code: code.to_string(),
            from: replica.as_ref().map(Replica::len),
        };
        let text = serde_json::to_string(&hello).map_err(|e| NetError::Protocol(e.to_string()))?;
        ws.send(Message::text(text))
            .map_err(|e| conn_err("sending the hello", e))?;
        let welcome = match read_msg(&mut ws, Instant::now() + timeout)? {
            Some(HostMsg::Welcome(w)) => w,
            Some(HostMsg::Error { message }) => return Err(NetError::Refused(message)),
            Some(other) => {
                return Err(NetError::Protocol(format!(
                    "the host answered the hello with {other:?}"
                )));
            }
            None => return Err(NetError::Connection("the host did not answer".into())),
        };
        if welcome.protocol != PROTOCOL_VERSION {
            return Err(NetError::Refused(format!(
                "the host speaks protocol {}, this kepi {PROTOCOL_VERSION}: update the older kepi",
                welcome.protocol
            )));
        }
        Ok(Client {
            ws,
            welcome,
            replica,
            next_id: 1,
            decisions: VecDeque::new(),
            seen_new: Vec::new(),
        })
    }

    /// What the host said on joining (the seat, the log's length and head then).
    pub fn welcome(&self) -> &Welcome {
        &self.welcome
    }

    /// The replica, if this client follows the log.
    pub fn replica(&self) -> Option<&Replica> {
        self.replica.as_ref()
    }

    /// Gives the replica back (to reconnect with after a lost connection).
    pub fn into_replica(self) -> Option<Replica> {
        self.replica
    }

    /// Reads until the replica holds every entry the host had on joining and its head is the
    /// host's head then; returns the game it replays to.
    pub fn catch_up(&mut self, timeout: Duration) -> Result<&Game, NetError> {
        if self.welcome.hidden {
            return Err(NetError::Protocol(
                "this seat is shown the game with the other side's strengths hidden: it has no whole log to replay (catch_up_view)".into(),
            ));
        }
        let want = self.welcome.entries;
        let deadline = Instant::now() + timeout;
        while self.replica.as_ref().map_or(0, Replica::len) < want {
            if Instant::now() >= deadline {
                return Err(NetError::Connection(
                    "the catch-up did not finish in time".into(),
                ));
            }
            if let Incoming::Closing(m) = self.next(deadline)? {
                return Err(NetError::Connection(m));
            }
        }
        let game = self
            .replica
            .as_ref()
            .and_then(Replica::game)
            .ok_or_else(|| NetError::Protocol("the host sent no log".into()))?;
        let at = game
            .log()
            .get(want.saturating_sub(1) as usize)
            .map(|e| e.hash.as_str());
        if at != Some(self.welcome.head.as_str()) {
            return Err(NetError::Protocol(format!(
                "the replayed log does not reach the host's head {}",
                self.welcome.head
            )));
        }
        Ok(game)
    }

    /// A player seat's [`Client::catch_up`] while strengths are hidden ([`Welcome::hidden`]):
    /// reads until every entry the host had on joining is held, their chain links up to the
    /// host's head then (and each whole entry hashes right), and returns the seat's view of the
    /// game (`kepi game show --json`'s shape, see [`super::redact`]).
    pub fn catch_up_view(&mut self, timeout: Duration) -> Result<serde_json::Value, NetError> {
        if !self.welcome.hidden {
            return Err(NetError::Protocol(
                "this seat is sent the whole log: replay it (catch_up)".into(),
            ));
        }
        let want = self.welcome.entries;
        let deadline = Instant::now() + timeout;
        loop {
            let r = self
                .replica
                .as_ref()
                .ok_or_else(|| NetError::Protocol("this client follows no log".into()))?;
            if r.len() >= want && r.seen().view.is_some() {
                break;
            }
            if Instant::now() >= deadline {
                return Err(NetError::Connection(
                    "the catch-up did not finish in time".into(),
                ));
            }
            if let Incoming::Closing(m) = self.next(deadline)? {
                return Err(NetError::Connection(m));
            }
        }
        let seen = self.replica.as_ref().map(Replica::seen);
        let at = seen
            .and_then(|s| s.entries.get(want.saturating_sub(1) as usize))
            .map(|e| e.hash.as_str());
        if want > 0 && at != Some(self.welcome.head.as_str()) {
            return Err(NetError::Protocol(format!(
                "the log's chain does not reach the host's head {}",
                self.welcome.head
            )));
        }
        seen.and_then(|s| s.view.clone())
            .ok_or_else(|| NetError::Protocol("the host sent no view".into()))
    }

    /// The entries new to this client's hidden log since the last call (a player seat while
    /// strengths are hidden; see [`Client::catch_up_view`]).
    pub fn take_seen(&mut self) -> Vec<SeatEntry> {
        std::mem::take(&mut self.seen_new)
    }

    /// Reads one message (waiting until `deadline`): entries go into the replica (verified).
    /// A decision that arrived while this client waited for an answer comes first.
    pub fn next(&mut self, deadline: Instant) -> Result<Incoming, NetError> {
        if let Some(d) = self.decisions.pop_front() {
            return Ok(Incoming::Decided(d));
        }
        match read_msg(&mut self.ws, deadline)? {
            None => Ok(Incoming::Idle),
            Some(m) => self.take(m).map(|(inc, _)| inc),
        }
    }

    /// Handles one host message; an answer to one of this client's messages is handed back too.
    fn take(&mut self, m: HostMsg) -> Result<(Incoming, Option<(u64, Reply)>), NetError> {
        match m {
            HostMsg::Entries { entries } => Ok((Incoming::Entries(self.absorb(entries)?), None)),
            HostMsg::Seen {
                entries,
                view,
                state,
            } => {
                self.absorb_seen(entries, view, state)?;
                Ok((Incoming::Entries(Vec::new()), None))
            }
            HostMsg::Applied {
                id,
                entries,
                refused,
                seen,
                view,
                state,
            } => {
                self.absorb(entries.clone())?;
                self.absorb_seen(seen.clone(), view.clone(), state)?;
                let a = Answer {
                    entries,
                    refused,
                    held: None,
                    seen,
                    view,
                };
                Ok((Incoming::Idle, Some((id, Reply::Answer(a)))))
            }
            HostMsg::Held { id, request, .. } => {
                let a = Answer {
                    entries: Vec::new(),
                    refused: None,
                    held: Some(request),
                    seen: Vec::new(),
                    view: None,
                };
                Ok((Incoming::Idle, Some((id, Reply::Answer(a)))))
            }
            HostMsg::Decided {
                request,
                approved,
                entries,
                refused,
                seen,
                view,
                state,
            } => {
                self.absorb(entries.clone())?;
                self.absorb_seen(seen.clone(), view, state)?;
                let d = Decision {
                    request,
                    approved,
                    entries,
                    refused,
                    seen,
                };
                Ok((Incoming::Decided(d), None))
            }
            HostMsg::PendingList {
                id,
                approval,
                requests,
            } => Ok((
                Incoming::Idle,
                Some((id, Reply::Pending(PendingList { approval, requests }))),
            )),
            HostMsg::Approval { id, on } => Ok((Incoming::Idle, Some((id, Reply::Approval(on))))),
            HostMsg::Closing { message } => Ok((Incoming::Closing(message), None)),
            HostMsg::Error { message } => Err(NetError::Refused(message)),
            HostMsg::Welcome(_) => Err(NetError::Protocol("a second welcome".into())),
        }
    }

    /// Adds entries as a hidden seat sees them to the replica (when following), keeping the new
    /// ones for [`Client::take_seen`]. A client that follows no log checks them alone.
    fn absorb_seen(
        &mut self,
        entries: Vec<SeatEntry>,
        view: Option<serde_json::Value>,
        state: Option<Box<kepi_game::engine::game::GameState>>,
    ) -> Result<(), NetError> {
        if entries.is_empty() && view.is_none() && state.is_none() {
            return Ok(());
        }
        if !self.welcome.hidden {
            return Err(NetError::Protocol(
                "the host sent a hidden view to a seat it said sees everything".into(),
            ));
        }
        match &mut self.replica {
            Some(r) => {
                let new = r.push_seen(entries, view, state)?;
                self.seen_new.extend(new);
            }
            None => {
                // No log followed (a one-off apply): each whole entry must still hash right
                // and the entries link to one another.
                let mut prev: Option<String> = None;
                for e in &entries {
                    if let Some(p) = &prev
                        && *p != e.prev
                    {
                        return Err(NetError::Protocol(format!(
                            "the host's entries do not link at entry {}",
                            e.index
                        )));
                    }
                    if let Some(w) = &e.entry
                        && (kepi_game::engine::game::entry_hash(w) != e.hash
                            || w.index != e.index
                            || w.prev != e.prev)
                    {
                        return Err(NetError::Protocol(format!(
                            "the host's entry {} does not verify",
                            e.index
                        )));
                    }
                    prev = Some(e.hash.clone());
                }
            }
        }
        Ok(())
    }

    /// Adds entries to the replica (when following); returns those that were new.
    fn absorb(&mut self, entries: Vec<LogEntry>) -> Result<Vec<LogEntry>, NetError> {
        let Some(r) = &mut self.replica else {
            return Ok(entries);
        };
        let mut new = Vec::new();
        for e in entries {
            if r.push(e.clone())? {
                new.push(e);
            }
        }
        Ok(new)
    }

    /// Sends the words of `kepi game apply` for this seat and waits (at most `timeout`) for the
    /// answer; entries that arrive meanwhile go into the replica. While the umpire approves
    /// players' resolutions, a player's answer is [`Answer::held`].
    pub fn apply(&mut self, words: &[String], timeout: Duration) -> Result<Answer, NetError> {
        let words = words.to_vec();
        match self.call(|id| ClientMsg::Apply { id, words }, timeout)? {
            Reply::Answer(a) => Ok(a),
            _ => Err(NetError::Protocol(
                "the host answered a request with something else".into(),
            )),
        }
    }

    /// The requests held for the umpire (all of them for the umpire, a player's own).
    pub fn pending(&mut self, timeout: Duration) -> Result<PendingList, NetError> {
        match self.call(|id| ClientMsg::Pending { id }, timeout)? {
            Reply::Pending(p) => Ok(p),
            Reply::Answer(Answer {
                refused: Some(r), ..
            }) => Err(NetError::Refused(r.message)),
            _ => Err(NetError::Protocol(
                "the host answered `pending` with something else".into(),
            )),
        }
    }

    /// The umpire approves or rejects a held request; the answer holds the entries it made (the
    /// approved resolution and the note of the decision).
    pub fn decide(
        &mut self,
        request: u64,
        approve: bool,
        reason: Option<String>,
        timeout: Duration,
    ) -> Result<Answer, NetError> {
        let m = |id| ClientMsg::Decide {
            id,
            request,
            approve,
            reason,
        };
        match self.call(m, timeout)? {
            Reply::Answer(a) => Ok(a),
            _ => Err(NetError::Protocol(
                "the host answered a decision with something else".into(),
            )),
        }
    }

    /// The umpire turns the approval of players' resolutions on or off; returns the setting.
    pub fn set_approval(&mut self, on: bool, timeout: Duration) -> Result<bool, NetError> {
        match self.call(|id| ClientMsg::SetApproval { id, on }, timeout)? {
            Reply::Approval(on) => Ok(on),
            Reply::Answer(Answer {
                refused: Some(r), ..
            }) => Err(NetError::Refused(r.message)),
            _ => Err(NetError::Protocol(
                "the host answered `approval` with something else".into(),
            )),
        }
    }

    /// Waits until `deadline` for the umpire's decision on held request `request` (`None`: not
    /// decided yet). Entries arriving meanwhile go into the replica.
    pub fn wait_decision(
        &mut self,
        request: u64,
        deadline: Instant,
    ) -> Result<Option<Decision>, NetError> {
        if let Some(at) = self.decisions.iter().position(|d| d.request == request) {
            return Ok(self.decisions.remove(at));
        }
        loop {
            let Some(m) = read_msg(&mut self.ws, deadline)? else {
                return Ok(None);
            };
            match self.take(m)? {
                (Incoming::Decided(d), _) if d.request == request => return Ok(Some(d)),
                (Incoming::Decided(d), _) => self.decisions.push_back(d),
                (Incoming::Closing(m), _) => return Err(NetError::Connection(m)),
                _ => {}
            }
        }
    }

    /// Sends a message built with the next id and waits (at most `timeout`) for its answer.
    fn call(
        &mut self,
        build: impl FnOnce(u64) -> ClientMsg,
        timeout: Duration,
    ) -> Result<Reply, NetError> {
        let id = self.next_id;
        self.next_id += 1;
        let text =
            serde_json::to_string(&build(id)).map_err(|e| NetError::Protocol(e.to_string()))?;
        self.ws
            .send(Message::text(text))
            .map_err(|e| conn_err("sending the request", e))?;
        let deadline = Instant::now() + timeout;
        loop {
            let Some(m) = read_msg(&mut self.ws, deadline)? else {
                return Err(NetError::Connection(
                    "no answer from the host in time (the action may still have been made; `kepi remote ... show` tells)".into(),
                ));
            };
            match self.take(m)? {
                (_, Some((got, reply))) if got == id => return Ok(reply),
                (Incoming::Closing(m), _) => return Err(NetError::Connection(m)),
                (Incoming::Decided(d), _) => self.decisions.push_back(d),
                _ => {}
            }
        }
    }

    /// Sends raw text as one message (tests of the host's handling of malformed input).
    pub fn send_raw(&mut self, text: &str) -> Result<(), NetError> {
        self.ws
            .send(Message::text(text.to_string()))
            .map_err(|e| conn_err("sending", e))
    }

    /// Closes the connection politely.
    pub fn close(mut self) {
        let _ = self.ws.close(None);
        let _ = self.ws.flush();
    }
}

/// Reads the next protocol message, waiting through socket timeouts until `deadline`; `None` when
/// nothing came in time.
fn read_msg(ws: &mut WebSocket<Tcp>, deadline: Instant) -> Result<Option<HostMsg>, NetError> {
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Ok(None);
        }
        let _ = ws
            .get_mut()
            .set_read_timeout(Some(left.max(Duration::from_millis(1))));
        match ws.read() {
            Ok(Message::Text(t)) => {
                return serde_json::from_str::<HostMsg>(&t).map(Some).map_err(|e| {
                    NetError::Protocol(format!("the host sent something kepi does not read: {e}"))
                });
            }
            Ok(Message::Close(_)) => {
                return Err(NetError::Connection(
                    "the host closed the connection".into(),
                ));
            }
            Ok(Message::Binary(_)) => {
                return Err(NetError::Protocol("the host sent a binary message".into()));
            }
            Ok(_) => continue,
            Err(e) if is_timeout(&e) => continue,
            Err(tungstenite::Error::ConnectionClosed | tungstenite::Error::AlreadyClosed) => {
                return Err(NetError::Connection(
                    "the host closed the connection".into(),
                ));
            }
            Err(e) => return Err(conn_err("connection to the host", e)),
        }
    }
}
