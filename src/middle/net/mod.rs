//! The table on a network: the umpire's kepi hosts the game, players' kepis join it (issue 19).
//!
//! The umpire's kepi is the authority ([`host`]): it holds the save, the journal and the dice seed,
//! checks each request against the seat that made it, applies it through the same path as
//! `kepi game apply` ([`crate::moves::apply_verbs`]), acknowledges it only once its journal
//! line is fsynced, and sends the new log entries to everyone connected. A client ([`client`])
//! keeps a replica of the log that it replays and whose hash chain it verifies entry by entry, so
//! a host that sent an edited history would be caught; a client that reconnects catches up from
//! the last entry it holds.
//!
//! When the umpire requires approval ([`host::Host::set_approval`], `kepi serve --approve`), a
//! player's resolution is checked, then held as a numbered [`PendingRequest`] instead of applied;
//! the umpire's [`ClientMsg::Decide`] applies it (and logs the approval as a note) or logs its
//! rejection, and the player's connection is sent [`HostMsg::Decided`].
//!
//! When the scenario says `hide_strengths = true` or the umpire serves with
//! [`host::Host::set_hide_strengths`] (`kepi serve --hide-strengths`), each player seat is sent
//! its own view ([`redact`]): log entries naming the other side's units as their place in a
//! chain of the seat's own (no guess of them can be checked), and the game with those units'
//! strengths null; the umpire and spectator get all.
//!
//! Transport: WebSocket over TCP (tungstenite, no async runtime), one JSON message per WebSocket
//! text message, each tagged with its `type`; [`PROTOCOL_VERSION`] is checked in the first one.
//! This module compiles without the window (`--no-default-features`).

pub mod client;
pub mod discovery;
pub mod gate;
pub mod host;
pub mod io;
pub mod redact;
pub mod turns;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use kepi_game::engine::game::{GameState, LogEntry};
use kepi_game::roster::Side;

/// The protocol both ends speak; a client with another version is refused by name in the host's
/// first answer, so an old kepi at the table says "update kepi" instead of misreading messages.
///
/// 2: the umpire's approval of players' resolutions (held requests, `pending`, `decide`).
/// 3: hidden strengths ([`redact`]): a player seat may be sent [`HostMsg::Seen`] and the `seen`
/// and `view` of answers instead of whole log entries.
/// 4: a player seat with hidden strengths holds a chain of its own ([`redact::SeatChains`]):
/// no hash of the log reaches it, and its hidden entries come opened once the seed is revealed.
pub const PROTOCOL_VERSION: u32 = 4;

/// The port `kepi serve` listens on when none is given (the year of the war).
pub const DEFAULT_PORT: u16 = 1870;

/// Largest message the host reads from a client: requests are a few verbs, so anything bigger is
/// an attack or a bug, and the connection is closed before the message is kept in memory.
pub const MAX_REQUEST_BYTES: usize = 64 * 1024;

/// Most verbs one request may have (issue 44); the host refuses more, saying this bound, and
/// applies none of them. A request is worked on in one turn ([`turns`]), so this bounds how long
/// anyone else waits for it. The room: a turn of the largest scenario (spi-1870, 39 units) with
/// four verbs for every unit of both sides (a move, a resolution, two markers) is 156 verbs; the
/// window sends one verb a request. A script with more sends several requests.
pub const MAX_REQUEST_VERBS: usize = 256;

/// Largest message a client reads from the host: a batch of log entries (the first carries the
/// scenario's whole roster), well under the size of a save kepi reads.
pub const MAX_HOST_MESSAGE_BYTES: usize = 64 << 20;

/// How many log entries the host puts in one catch-up message, so a 10,000-entry catch-up is a
/// stream of moderate messages rather than one huge one.
pub const CATCH_UP_BATCH: usize = 500;

/// A message from a client to the host.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// The first message of every connection: who the client is and what it already holds.
    Hello {
        /// [`PROTOCOL_VERSION`] of the client.
        protocol: u32,
        /// The seat's join code, as shown by the host.
        code: String,
        /// The number of log entries the client already holds (it is sent the rest, then every new
        /// entry); `None`: the client follows no log (a one-off `kepi remote apply`).
        #[serde(default)]
        from: Option<u64>,
    },
    /// The verbs of `kepi game apply`, applied in order for the seat.
    Apply {
        /// The client's number for this request, echoed in the answer.
        id: u64,
        /// The words, exactly as `kepi game apply` takes them.
        words: Vec<String>,
    },
    /// The requests held for the umpire's approval: the umpire is sent all of them, a player
    /// those of their own seat. Answered with [`HostMsg::PendingList`].
    Pending {
        /// The client's number for this request, echoed in the answer.
        id: u64,
    },
    /// The umpire's decision on a held request: approved, it is applied (with the player's own
    /// dice if they entered them, else the host's seeded dice) and the approval logged;
    /// rejected, the rejection (and its reason) is logged. Answered with [`HostMsg::Applied`].
    Decide {
        /// The client's number for this request, echoed in the answer.
        id: u64,
        /// The held request's number, as [`HostMsg::Held`] and the pending list give it.
        request: u64,
        /// Approve (apply it) or reject it.
        approve: bool,
        /// Why (a rejection's reason, for the player and the log).
        #[serde(default)]
        reason: Option<String>,
    },
    /// The umpire turns the approval of players' resolutions on or off. Answered with
    /// [`HostMsg::Approval`]. Requests already held stay held until decided.
    SetApproval {
        /// The client's number for this request, echoed in the answer.
        id: u64,
        /// Whether players' resolutions wait for the umpire.
        on: bool,
    },
}

/// A message from the host to a client.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum HostMsg {
    /// The answer to a good [`ClientMsg::Hello`].
    Welcome(Welcome),
    /// Log entries, in order: the catch-up after the welcome, then every new entry as it is
    /// journaled.
    Entries {
        /// The entries.
        entries: Vec<LogEntry>,
    },
    /// What [`HostMsg::Entries`] is for a player seat while strengths are hidden
    /// ([`Welcome::hidden`]): the entries as that seat may see them, and the game as it sees it
    /// after them ([`redact::seat_view`]).
    Seen {
        /// The entries, in order (hidden ones as their place in the chain only).
        entries: Vec<redact::SeatEntry>,
        /// The seat's view of the game after them (on the last message of a batch).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        view: Option<serde_json::Value>,
        /// For a player seat while strengths are hidden: the game state as it may hold it
        /// ([`redact::seat_state`]), so a window can show the seat's view.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        state: Option<Box<kepi_game::engine::game::GameState>>,
    },
    /// The answer to [`ClientMsg::Apply`]: the entries it made (each already journaled and
    /// fsynced), and why it stopped if it did not make them all.
    Applied {
        /// The request's id.
        id: u64,
        /// The entries made, in order.
        entries: Vec<LogEntry>,
        /// Why the request (or a verb of it, after those in `entries`) was refused.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        refused: Option<Refusal>,
        /// For a player seat while strengths are hidden: the entries made, as that seat sees
        /// them (`entries` is then empty).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        seen: Vec<redact::SeatEntry>,
        /// For a player seat while strengths are hidden: the game as it sees it now.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        view: Option<serde_json::Value>,
        /// For a player seat while strengths are hidden: the game state as it may hold it
        /// ([`redact::seat_state`]), so a window can show the seat's view.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        state: Option<Box<kepi_game::engine::game::GameState>>,
    },
    /// The answer to a player's [`ClientMsg::Apply`] while the umpire approves resolutions: the
    /// request passed the seat's and the rules' checks and waits as `request`; nothing is applied
    /// yet. A [`HostMsg::Decided`] follows on this connection when the umpire decides.
    Held {
        /// The request's id.
        id: u64,
        /// The held request's number (the umpire approves or rejects it by this number).
        request: u64,
        /// What it is waiting for, for the user.
        message: String,
    },
    /// The umpire decided a request this connection made: approved, the entries it made (and,
    /// if the rules refused it by then, why); rejected, `refused` says so with the reason.
    Decided {
        /// The held request's number.
        request: u64,
        /// Whether the umpire approved it.
        approved: bool,
        /// The entries it made, in order (none when rejected).
        entries: Vec<LogEntry>,
        /// Why it made nothing (or not all it asked): the rejection, or the rules' refusal.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        refused: Option<Refusal>,
        /// For a player seat while strengths are hidden: the entries made, as that seat sees
        /// them (`entries` is then empty).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        seen: Vec<redact::SeatEntry>,
        /// For a player seat while strengths are hidden: the game as it sees it now.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        view: Option<serde_json::Value>,
        /// For a player seat while strengths are hidden: the game state as it may hold it
        /// ([`redact::seat_state`]), so a window can show the seat's view.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        state: Option<Box<kepi_game::engine::game::GameState>>,
    },
    /// The answer to [`ClientMsg::Pending`].
    PendingList {
        /// The request's id.
        id: u64,
        /// Whether players' resolutions wait for the umpire now.
        approval: bool,
        /// The held requests, oldest first.
        requests: Vec<PendingRequest>,
    },
    /// The answer to [`ClientMsg::SetApproval`]: the setting now.
    Approval {
        /// The request's id.
        id: u64,
        /// Whether players' resolutions wait for the umpire.
        on: bool,
    },
    /// The connection is refused or broken (wrong code, other protocol, malformed message); the
    /// host closes it after this.
    Error {
        /// Why, for the user.
        message: String,
    },
    /// The host is stopping (the umpire stopped `kepi serve`); the save is caught up.
    Closing {
        /// Why.
        message: String,
    },
}

/// What the host says about the game when a client joins.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Welcome {
    /// The host's [`PROTOCOL_VERSION`].
    pub protocol: u32,
    /// The seat the code opened.
    pub seat: Seat,
    /// The game's title.
    pub title: String,
    /// Log entries the host holds now.
    pub entries: u64,
    /// The hash of the last of them (the chain head), which the replica must reach.
    pub head: String,
    /// Whether players' resolutions wait for the umpire's approval.
    #[serde(default)]
    pub approval: bool,
    /// Whether this seat is sent its own view ([`redact`]): the other side's strengths hidden,
    /// [`HostMsg::Seen`] instead of [`HostMsg::Entries`].
    #[serde(default)]
    pub hidden: bool,
}

/// A player's request held for the umpire's approval.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PendingRequest {
    /// Its number (the umpire approves or rejects it by this number).
    pub request: u64,
    /// The seat that asked.
    pub seat: Seat,
    /// The words asked, as `kepi game apply` takes them.
    pub words: Vec<String>,
    /// When it was asked (UTC).
    pub asked: chrono::DateTime<chrono::Utc>,
    /// What the rules say against it on the game as it is ("not adjacent", "already attacked"):
    /// the umpire reads them before approving (issue 46). Sent to the umpire's seat only.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl PendingRequest {
    /// The request as one line of words, for the umpire's list and the log.
    pub fn text(&self) -> String {
        self.words.join(" ")
    }
}

/// Why the host did not do (all of) a request: the code and message `kepi game apply` would
/// have exited with.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Refusal {
    /// 2 for a request the seat may not make or the rules refuse, 1 for a failure on the host.
    pub code: u8,
    /// The reason.
    pub message: String,
}

/// A seat at the table: what a join code lets its holder do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Seat {
    /// Everything `kepi game apply` does.
    Umpire,
    /// Resolutions with this side's units (with their own dice if they like).
    Player(Side),
    /// Reads the game and its log.
    Spectator,
}

impl Seat {
    /// The seats of a game: the umpire, one per side in order of play, a spectator.
    pub fn of(state: &GameState) -> Vec<Seat> {
        let mut seats = vec![Seat::Umpire];
        seats.extend(state.sides.iter().map(|s| Seat::Player(*s)));
        seats.push(Seat::Spectator);
        seats
    }

    /// The seat's name as printed and as typed: `umpire`, the side (`german`), `spectator`.
    pub fn name(self) -> &'static str {
        match self {
            Seat::Umpire => "umpire",
            Seat::Player(s) => s.as_str(),
            Seat::Spectator => "spectator",
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Seat {
    type Err = String;
    fn from_str(s: &str) -> Result<Seat, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "umpire" => Ok(Seat::Umpire),
            "spectator" => Ok(Seat::Spectator),
            other => other.parse::<Side>().map(Seat::Player).map_err(|_| {
                format!("`{s}` is not a seat (accepted: umpire, german, french, spectator)")
            }),
        }
    }
}

impl Serialize for Seat {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Seat {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Seat, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// The resolution verbs a player's seat may make (with its own units).
/// Whether `seat` may make the verb `asked` in `state`: the umpire anything; a player only
/// resolutions whose acting unit is on their side (with kepi's dice or their own); a spectator
/// nothing. Every other verb (set, lose, gain, next-phase, undo, redo, reveal, waive, ...) is the
/// umpire's. The reason names the verb and the seat.
pub fn permit(seat: Seat, asked: &crate::moves::Asked, state: &GameState) -> Result<(), String> {
    match seat {
        Seat::Umpire => Ok(()),
        Seat::Spectator => Err(format!(
            "`{}`: the spectator seat reads the game and makes no actions",
            asked.verb
        )),
        Seat::Player(side) => match &asked.resolution_by {
            None => Err(format!(
                "`{}` is the umpire's; the {side} seat makes resolutions ({}) with {side} units",
                asked.verb,
                crate::moves::play::form_verbs_for(state.system.system()).join(", "),
                side = side.as_str()
            )),
            Some(actor) => {
                let unit = state.find(actor).map_err(|e| e.to_string())?;
                if unit.unit.side == side {
                    Ok(())
                } else {
                    Err(format!(
                        "`{}`: {} is a {} unit; the {} seat acts only with {} units",
                        asked.verb,
                        unit.unit.id,
                        unit.unit.side.as_str(),
                        side.as_str(),
                        side.as_str()
                    ))
                }
            }
        },
    }
}

/// A seat's join code: 80 bits from the operating system's entropy, written as 16 characters of
/// Crockford's base 32 in groups of four (`7K2M-Q9XD-...`), easy to read out across a table.
#[derive(Clone, PartialEq, Eq)]
pub struct Code(String);

/// Crockford's base 32 alphabet: no I, L, O or U, so a code read aloud is not misheard.
const CROCKFORD: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// Bytes of entropy in a code (80 bits: more than the 64 the issue asks).
const CODE_BYTES: usize = 10;

impl Code {
    /// A new code from the OS's entropy (`getrandom`); an OS that cannot give any is an error
    /// rather than a weaker code.
    pub fn generate() -> Result<Code, NetError> {
        let mut b = [0u8; CODE_BYTES];
        getrandom::fill(&mut b)
            .map_err(|e| NetError::Host(format!("no entropy from the OS for join codes: {e}")))?;
        let mut bits: u128 = 0;
        for x in b {
            bits = (bits << 8) | u128::from(x);
        }
        let mut s = String::with_capacity(19);
        for i in 0..16 {
            if i > 0 && i % 4 == 0 {
                s.push('-');
            }
            let k = ((bits >> (5 * (15 - i))) & 31) as usize;
            s.push(char::from(CROCKFORD[k]));
        }
        Ok(Code(s))
    }

    /// A code as stored (`kepi serve` keeps its codes beside the save); `None` if it is not one.
    pub fn parse(s: &str) -> Option<Code> {
        let n = normalize(s);
        (n.len() == 16).then(|| Code(s.trim().to_ascii_uppercase()))
    }

    /// The code as shown.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether `typed` is this code, compared in constant time (after case, dashes, spaces and
    /// the look-alikes O/I/L are normalised), so the time taken says nothing about how much of a
    /// guess was right.
    pub fn matches(&self, typed: &str) -> bool {
        let a = normalize(&self.0);
        let b = normalize(typed);
        if a.len() != b.len() {
            return false;
        }
        a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
    }
}

impl fmt::Debug for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A code is a secret: never in a debug print or a log.
        f.write_str("Code(..)")
    }
}

/// A typed code in its canonical form: upper case, no separators, O read as 0 and I/L as 1. At
/// most 64 characters are looked at, so a huge "code" costs nothing.
fn normalize(s: &str) -> String {
    s.chars()
        .take(64)
        .filter(|c| !matches!(c, '-' | ' ' | '_'))
        .map(|c| match c.to_ascii_uppercase() {
            'O' => '0',
            'I' | 'L' => '1',
            u => u,
        })
        .collect()
}

/// What went wrong on the network side. Each variant reads as a sentence for the user.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    /// The address given is not one kepi can connect to or listen on.
    #[error("{0}")]
    Address(String),
    /// Connecting, reading or writing failed (the host is gone, the network dropped).
    #[error("{0}")]
    Connection(String),
    /// The host refused the connection (wrong code, other protocol version).
    #[error("the host refused: {0}")]
    Refused(String),
    /// The other end sent something that is not the protocol (or a log that does not verify).
    #[error("{0}")]
    Protocol(String),
    /// The host could not start or keep the game (the save, the port).
    #[error("{0}")]
    Host(String),
    /// The save could not be opened or written.
    #[error(transparent)]
    Store(#[from] kepi_game::store::StoreError),
}

/// A `ws://HOST:PORT` address from what a user typed: `ws://HOST:PORT`, `HOST:PORT` or `HOST`
/// (port [`DEFAULT_PORT`]). Only plain `ws://` is spoken (a table's LAN), so `wss://` and
/// anything else are refused by name.
pub fn parse_address(typed: &str) -> Result<(String, u16), NetError> {
    let t = typed.trim();
    let rest = match t.split_once("://") {
        Some(("ws", r)) => r,
        Some((scheme, _)) => {
            return Err(NetError::Address(format!(
                "ADDRESS `{typed}`: `{scheme}://` is not spoken (kepi hosts plain ws:// on the table's network)"
            )));
        }
        None => t,
    };
    let rest = rest.trim_end_matches('/');
    if rest.is_empty() || rest.contains('/') || rest.contains('@') {
        return Err(NetError::Address(format!(
            "ADDRESS `{typed}` is not ws://HOST:PORT (e.g. ws://192.168.1.20:{DEFAULT_PORT})"
        )));
    }
    // [v6]:port, host:port, or a bare host.
    let (host, port) = if let Some(r) = rest.strip_prefix('[') {
        match r.split_once(']') {
            Some((h, "")) => (h.to_string(), None),
            Some((h, p)) => match p.strip_prefix(':') {
                Some(p) => (h.to_string(), Some(p)),
                None => (h.to_string(), Some(p)),
            },
            None => (String::new(), None),
        }
    } else {
        match rest.rsplit_once(':') {
            Some((h, p)) if !h.contains(':') => (h.to_string(), Some(p)),
            _ => (rest.to_string(), None),
        }
    };
    if host.is_empty() {
        return Err(NetError::Address(format!(
            "ADDRESS `{typed}` names no host (e.g. ws://192.168.1.20:{DEFAULT_PORT})"
        )));
    }
    let port = match port {
        None => DEFAULT_PORT,
        Some(p) => p.parse::<u16>().ok().filter(|p| *p != 0).ok_or_else(|| {
            NetError::Address(format!(
                "ADDRESS `{typed}`: `{p}` is not a port (1 to 65535)"
            ))
        })?,
    };
    Ok((host, port))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_80_bits_in_groups_and_compare_forgivingly() {
        let a = Code::generate().unwrap();
        let b = Code::generate().unwrap();
        assert_ne!(a, b);
        assert_eq!(a.as_str().len(), 19);
        assert_eq!(a.as_str().matches('-').count(), 3);
        assert!(a.matches(a.as_str()));
        assert!(a.matches(&a.as_str().to_ascii_lowercase().replace('-', " ")));
        assert!(!a.matches(b.as_str()));
        assert!(!a.matches(""));
        assert!(!a.matches(&"A".repeat(100_000)));
        assert_eq!(format!("{a:?}"), "Code(..)");
    }

    #[test]
    fn addresses() {
        assert_eq!(
            parse_address("ws://127.0.0.1:9000").unwrap(),
            ("127.0.0.1".into(), 9000)
        );
        assert_eq!(
            parse_address("localhost").unwrap(),
            ("localhost".into(), DEFAULT_PORT)
        );
        assert_eq!(parse_address("[::1]:80").unwrap(), ("::1".into(), 80));
        for bad in [
            "wss://x:1",
            "http://x",
            "x:0",
            "x:99999",
            "",
            "ws://",
            "x/y",
        ] {
            assert!(parse_address(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn messages_round_trip_and_unknown_fields_are_refused() {
        let m = ClientMsg::Apply {
            id: 3,
            words: vec!["lose".into(), "x".into(), "1".into()],
        };
        let s = serde_json::to_string(&m).unwrap();
        assert!(s.contains(r#""type":"apply""#), "{s}");
        assert_eq!(serde_json::from_str::<ClientMsg>(&s).unwrap(), m);
        assert!(
            serde_json::from_str::<ClientMsg>(
                r#"{"type":"apply","id":1,"words":[],"path":"/etc"}"#
            )
            .is_err()
        );
        assert_eq!("German".parse::<Seat>(), Ok(Seat::Player(Side::German)));
    }
}
