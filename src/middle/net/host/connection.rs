//! One connection: the handshake, the gate, the welcome and catch-up, and the conversation with a joined client.

#[allow(unused_imports)]
use super::*;

pub(super) fn config() -> WebSocketConfig {
    WebSocketConfig::default()
        .max_message_size(Some(MAX_REQUEST_BYTES))
        .max_frame_size(Some(MAX_REQUEST_BYTES))
        .read_buffer_size(16 * 1024)
        .write_buffer_size(0)
}

/// Serializes a host message (it is always serializable; a failure is reported as an error
/// message rather than a panic).
pub(super) fn encode(m: &HostMsg) -> Message {
    match serde_json::to_string(m) {
        Ok(s) => Message::text(s),
        Err(e) => Message::text(format!(
            r#"{{"type":"error","message":"the host could not encode its answer: {}"}}"#,
            e.to_string().replace(['"', '\\'], "'")
        )),
    }
}

pub(super) fn is_timeout(e: &tungstenite::Error) -> bool {
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
pub(super) fn ended(e: &tungstenite::Error) -> Option<&'static str> {
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
pub(super) fn refuse(ws: &mut WebSocket<Tcp>, message: &str) {
    let _ = ws.send(encode(&HostMsg::Error {
        message: message.to_string(),
    }));
    let _ = ws.close(None);
    let _ = ws.flush();
}

/// What a connection pushed out of the gate, or refused at the thread cap, is told.
pub(super) fn full_text(n: usize) -> String {
    format!("host is full: {n} connections; try again in a moment")
}

/// Tells a connection that has not finished its WebSocket handshake that the host is full, as an
/// HTTP answer a client reads, in one write (best effort, never waiting); then reads away what
/// the client had sent, so closing does not reset the connection over the answer.
pub(super) fn full_http(stream: &TcpStream, n: usize) {
    use std::io::Read as _;
    let body = full_text(n);
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut s = stream;
    let _ = s.set_nonblocking(true);
    let _ = crate::net::io::retry(|| s.write(answer.as_bytes()));
    let _ = s.shutdown(std::net::Shutdown::Write);
    // At most 64 KB: a client that keeps sending does not keep the accept thread.
    let mut sink = [0u8; 4096];
    for _ in 0..16 {
        if !matches!(crate::net::io::retry(|| s.read(&mut sink)), Ok(n) if n > 0) {
            break;
        }
    }
}

/// The WebSocket handshake, within `deadline` for the whole of it; on failure, why.
pub(super) fn handshake(tcp: Tcp, deadline: Instant) -> Result<WebSocket<Tcp>, String> {
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
pub(super) fn read_until(
    ws: &mut WebSocket<Tcp>,
    deadline: Instant,
) -> Result<Message, tungstenite::Error> {
    loop {
        match ws.read() {
            Err(e) if is_timeout(&e) && Instant::now() < deadline => continue,
            other => return other,
        }
    }
}

/// A connection's place at the gate until it has a seat: it leaves it on every path (dropped).
struct Place<'a>(&'a Shared, u64);

impl Drop for Place<'_> {
    fn drop(&mut self) {
        self.0.gate().joined(self.1);
    }
}

/// One client, from handshake to close: the handshake, the hello, the seat its code opens, the
/// welcome and catch-up taken under the broadcast lock, then the conversation; the seat is given
/// up when it ends.
pub(super) fn connection(shared: &Shared, stream: TcpStream, peer: SocketAddr, ticket: Ticket) {
    // Until it has a seat the connection holds a place at the gate; it leaves it on every path.
    let place = Place(shared, ticket.id);
    let peer_s = peer.to_string();
    let Some((mut ws, spare, deadline)) = opened(shared, stream, peer, &ticket) else {
        return;
    };
    let Some((code, from)) = hello(shared, &mut ws, &peer_s, &ticket, deadline) else {
        return;
    };
    let Some(seat) = seat_of(shared, &mut ws, peer, &code, place) else {
        return;
    };
    drop(spare);
    ws.get_mut().set_deadline(None);
    let conn = shared.next_conn.fetch_add(1, Ordering::SeqCst);
    let replaced = shared.gate().seat(seat, conn);
    let (tx, rx) = sync_channel::<Message>(QUEUE_PER_CLIENT);
    let kicked = Arc::new(AtomicBool::new(false));
    let (welcome, catch_up, hide) = welcome_of(shared, seat, conn, from, tx, &kicked);
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

/// The socket set up and its WebSocket handshake made, with a second handle on the socket (to
/// tell it "host is full" should a newer connection push it out mid-handshake) and the deadline
/// the hello must come by too. A failed handshake is an event, and `None`.
fn opened(
    shared: &Shared,
    stream: TcpStream,
    peer: SocketAddr,
    ticket: &Ticket,
) -> Option<(WebSocket<Tcp>, Option<TcpStream>, Instant)> {
    let _ = stream.set_nodelay(true);
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    // One deadline for the handshake and the hello together, however slowly the bytes come.
    let deadline = Instant::now() + HANDSHAKE_DEADLINE;
    // To tell it "host is full" should a newer connection push it out mid-handshake.
    let spare = stream.try_clone().ok();
    let mut tcp = Tcp::new(stream);
    tcp.set_deadline(Some(deadline));
    match handshake(tcp, deadline) {
        Ok(ws) => Some((ws, spare, deadline)),
        Err(why) => {
            let why = if ticket.dropped.load(Ordering::SeqCst) {
                if let Some(s) = &spare {
                    full_http(s, MAX_HANDSHAKES);
                }
                format!("host is full: {MAX_HANDSHAKES} connections joining; it waited longest")
            } else {
                why
            };
            refused(shared, peer.to_string(), why);
            None
        }
    }
}

/// The connection refused before it had a seat, as an event.
fn refused(shared: &Shared, peer: String, reason: String) {
    shared.event(Event::Refused { peer, reason });
}

/// The client's hello, read by `deadline`: its join code and how much of the log it holds. A
/// missing, malformed or other-protocol hello is refused (said to the client and, but for a
/// message that is not a hello, as an event), and `None`.
fn hello(
    shared: &Shared,
    ws: &mut WebSocket<Tcp>,
    peer: &str,
    ticket: &Ticket,
    deadline: Instant,
) -> Option<(String, Option<u64>)> {
    let hello = match read_until(ws, deadline) {
        Ok(Message::Text(t)) => serde_json::from_str::<ClientMsg>(&t).map_err(|e| e.to_string()),
        Ok(_) => Err("the first message must be a JSON hello".to_string()),
        Err(_) if ticket.dropped.load(Ordering::SeqCst) => {
            let why = full_text(MAX_HANDSHAKES);
            refuse(ws, &why);
            refused(shared, peer.to_string(), why);
            return None;
        }
        Err(e) if is_timeout(&e) => Err(format!(
            "no hello within {} s",
            HANDSHAKE_DEADLINE.as_secs()
        )),
        Err(e) => Err(e.to_string()),
    };
    match hello {
        Ok(ClientMsg::Hello {
            protocol,
            code,
            from,
        }) => {
            if protocol != PROTOCOL_VERSION {
                let why = format!(
                    "protocol version {protocol}; this host speaks {PROTOCOL_VERSION} (update kepi)"
                );
                refuse(ws, &why);
                refused(shared, peer.to_string(), why);
                return None;
            }
            Some((code, from))
        }
        Ok(_) => {
            refuse(ws, "the first message must be a hello");
            None
        }
        Err(e) => {
            let why = format!("malformed hello: {e}");
            refuse(ws, &why);
            refused(shared, peer.to_string(), why);
            None
        }
    }
}

/// The seat `code` opens. Every code is compared (in constant time), so which seat matched does
/// not show in the time. The gate hears the attempt, then the connection leaves its place there
/// (`place`); a wrong code is refused (held back while within the gate's limits, else at once:
/// [`crate::net::gate`]), and `None`.
fn seat_of(
    shared: &Shared,
    ws: &mut WebSocket<Tcp>,
    peer: SocketAddr,
    code: &str,
    place: Place,
) -> Option<Seat> {
    let mut seat = None;
    for (s, c) in &shared.seats {
        if c.matches(code) {
            seat = Some(*s);
        }
    }
    // A right code is in, whatever wrong codes came before; a wrong one's answer is held back
    // while within the gate's limits, else given at once ([`crate::net::gate`]).
    let ip = peer.ip();
    let verdict = shared.gate().code(ip, Instant::now(), seat.is_some());
    drop(place);
    if seat.is_none() {
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
        refuse(ws, &why);
        refused(shared, peer.to_string(), why);
    }
    seat
}

/// The welcome and the catch-up for a client of `seat` holding `from` entries, taken under the
/// lock that broadcasts go out under, so no entry falls between them and the first broadcast;
/// the client joins the direct answers and (when it follows the log) the followers there. No
/// catch-up when the client holds more entries than the host. Also the side hidden from it.
fn welcome_of(
    shared: &Shared,
    seat: Seat,
    conn: u64,
    from: Option<u64>,
    tx: SyncSender<Message>,
    kicked: &Arc<AtomicBool>,
) -> (Welcome, Option<CatchUp>, Option<Side>) {
    let mut core = shared.core_for(seat);
    let hide = crate::net::redact::hidden_side(seat, core.hiding());
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
                kicked: Arc::clone(kicked),
                hide,
            },
        );
    }
    (welcome, catch_up, hide)
}

/// A client that joined a seat: its connection number, address and queue.
pub(super) struct Joined {
    pub(super) seat: Seat,
    pub(super) conn: u64,
    pub(super) peer: String,
    pub(super) rx: Receiver<Message>,
    pub(super) kicked: Arc<AtomicBool>,
    /// Set when a newer connection of the same seat took this one's room ([`crate::net::gate`]).
    pub(super) replaced: Arc<AtomicBool>,
    /// The side whose own view this client gets (strengths hidden), if any.
    pub(super) hide: Option<Side>,
}

/// What a client is sent after its welcome: the log after what it holds, whole or as its seat
/// sees it (with the view after it).
pub(super) enum CatchUp {
    Whole(Vec<LogEntry>),
    Seen(
        Vec<crate::net::redact::SeatEntry>,
        serde_json::Value,
        Box<kepi_game::engine::game::GameState>,
    ),
}

/// The conversation with a joined client; returns why it ended. First its welcome and catch-up;
/// then, each round, whether it must end (the host stopping, a queue overflowed, a newer
/// connection of the seat), the entries queued for it, and one request read and answered.
pub(super) fn serve_client(
    shared: &Shared,
    ws: &mut WebSocket<Tcp>,
    joined: &Joined,
    welcome: Welcome,
    catch_up: CatchUp,
) -> String {
    if let Err(why) = send_catch_up(ws, welcome, catch_up) {
        return why;
    }
    let _ = ws.get_mut().set_read_timeout(Some(POLL));
    loop {
        if let Some(why) = must_end(shared, ws, joined) {
            return why;
        }
        if let Err(why) = forward_queue(ws, &joined.rx) {
            return why;
        }
        let req = match read_request(ws) {
            Read::Request(req) => req,
            Read::Nothing => continue,
            Read::End(why) => return why,
        };
        if let Err(why) = answer(shared, ws, joined, req) {
            return why;
        }
    }
}

/// Why a connection ended on a failed write: [`CLOSED`] or [`DROPPED`], else the error.
fn write_failed(e: &tungstenite::Error) -> String {
    ended(e).map_or_else(|| format!("write failed: {e}"), str::to_string)
}

/// The welcome, then the log after what the client holds in batches (whole, or as its seat sees
/// it with the view and state after the last batch), flushed. `Err`: why the connection ended.
fn send_catch_up(
    ws: &mut WebSocket<Tcp>,
    welcome: Welcome,
    catch_up: CatchUp,
) -> Result<(), String> {
    if let Err(e) = ws.write(encode(&HostMsg::Welcome(welcome))) {
        return Err(write_failed(&e));
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
            return Err(write_failed(&e));
        }
    }
    if let Err(e) = ws.flush() {
        return Err(write_failed(&e));
    }
    Ok(())
}

/// Why the conversation must end now, said to the client first: the host stopping (the save is
/// caught up), the client's queue overflowed, or a newer connection of its seat took its room.
fn must_end(shared: &Shared, ws: &mut WebSocket<Tcp>, joined: &Joined) -> Option<String> {
    let Joined {
        kicked,
        replaced,
        seat,
        ..
    } = joined;
    if shared.stop.load(Ordering::SeqCst) {
        let _ = ws.send(encode(&HostMsg::Closing {
            message: "the host stopped; the save is caught up".into(),
        }));
        let _ = ws.close(None);
        let _ = ws.flush();
        return Some("the host stopped".into());
    }
    if kicked.load(Ordering::SeqCst) {
        refuse(
            ws,
            "too slow: your queue of log entries overflowed; reconnect to catch up",
        );
        return Some("too slow (queue full)".into());
    }
    if replaced.load(Ordering::SeqCst) {
        let why = format!(
            "a newer connection of the {seat} seat replaced this one (a seat holds at most {MAX_PER_SEAT}; the oldest goes)"
        );
        refuse(ws, &why);
        return Some(why);
    }
    None
}

/// Writes what is queued for the client (the entries broadcast since), flushed when there was
/// any. `Err`: why the connection ended.
fn forward_queue(ws: &mut WebSocket<Tcp>, rx: &Receiver<Message>) -> Result<(), String> {
    let mut wrote = false;
    loop {
        match rx.try_recv() {
            Ok(m) => {
                if let Err(e) = ws.write(m) {
                    return Err(write_failed(&e));
                }
                wrote = true;
            }
            Err(TryRecvError::Empty) => break,
            Err(TryRecvError::Disconnected) => return Err("dropped".into()),
        }
    }
    if wrote && let Err(e) = ws.flush() {
        return Err(write_failed(&e));
    }
    Ok(())
}

/// What reading the client a moment gave.
enum Read {
    /// A request.
    Request(ClientMsg),
    /// Nothing to answer (no message yet, a ping, a pong, a frame).
    Nothing,
    /// The conversation ends, for this reason (said to the client when it broke the protocol).
    End(String),
}

/// Reads one message from the client (until the read timeout): a JSON request, nothing, or why
/// the conversation ends (a close, an error, a message too large, binary or malformed).
fn read_request(ws: &mut WebSocket<Tcp>) -> Read {
    let msg = match ws.read() {
        Ok(m) => m,
        Err(e) if is_timeout(&e) => return Read::Nothing,
        Err(tungstenite::Error::Capacity(c)) => {
            let why = format!("message too large ({c}); the limit is {MAX_REQUEST_BYTES} bytes");
            refuse(ws, &why);
            return Read::End(why);
        }
        Err(e) => {
            return Read::End(ended(&e).map_or_else(|| format!("{e}"), str::to_string));
        }
    };
    let text = match msg {
        Message::Text(t) => t,
        Message::Close(_) => {
            let _ = ws.flush();
            return Read::End(CLOSED.into());
        }
        Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => return Read::Nothing,
        Message::Binary(_) => {
            let why = "a binary message (the protocol is JSON text)".to_string();
            refuse(ws, &why);
            return Read::End(why);
        }
    };
    match serde_json::from_str::<ClientMsg>(&text) {
        Ok(r) => Read::Request(r),
        Err(e) => {
            let why = format!("malformed message: {e}");
            refuse(ws, &why);
            Read::End(why)
        }
    }
}

/// Answers one request: what goes before the answer, the answer, then the events it made. A
/// second hello is refused. `Err`: why the connection ended.
fn answer(
    shared: &Shared,
    ws: &mut WebSocket<Tcp>,
    joined: &Joined,
    req: ClientMsg,
) -> Result<(), String> {
    let Answered {
        before,
        answer,
        events,
    } = match req {
        ClientMsg::Hello { .. } => {
            let why = "a second hello on one connection".to_string();
            refuse(ws, &why);
            return Err(why);
        }
        ClientMsg::Apply { id, words } => apply(shared, joined, id, &words),
        ClientMsg::Pending { id } => pending_list(shared, joined, id),
        ClientMsg::Decide {
            id,
            request,
            approve,
            reason,
        } => decide(shared, joined, id, request, approve, reason),
        ClientMsg::SetApproval { id, on } => set_approval(shared, joined, id, on),
    };
    for m in before {
        if let Err(e) = ws.write(m) {
            return Err(write_failed(&e));
        }
    }
    let sent = ws.send(answer);
    for e in events {
        shared.event(e);
    }
    if let Err(e) = sent {
        return Err(write_failed(&e));
    }
    Ok(())
}
