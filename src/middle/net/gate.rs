//! Who gets in, and how many (issues 29 and 44): no stranger, with or without a code, can stop the
//! table, and nobody's wrong codes keep a right code out.
//!
//! - **Joining** (the WebSocket handshake and the hello, before a code is known) has a deadline
//!   for the whole of it ([`HANDSHAKE_DEADLINE`]), and at most [`MAX_HANDSHAKES`] connections are
//!   joining at once: a new one past that drops the one that has been joining longest (told
//!   "host is full" in words). A real client joins in milliseconds, so sockets that trickle bytes
//!   or say nothing are the ones dropped, and everyone else still gets in.
//! - **Seats**: each seat holds at most [`MAX_PER_SEAT`] connections; a new one drops the seat's
//!   *oldest* (told that a newer connection replaced it), so a stale or hostile connection never
//!   locks out whoever holds the code now. Seats do not share their room: the umpire's is
//!   reserved to the umpire's code, so players' and spectators' connections never crowd it out.
//! - **A right code is always let in**, whatever wrong codes came before, from any address
//!   (its own, 127.0.0.1's, a stranger's) and however many: it is never counted nor refused.
//! - **Wrong codes** are limited as a resource only: a wrong code's answer is held back
//!   [`FAIL_DELAY`] (slowing a guesser down) while its address gave fewer than
//!   [`MAX_FAILED_CODES`] in the last [`FAIL_WINDOW`], the addresses that never showed a right
//!   code fewer than [`GLOBAL_FAILED_CODES`] between them (one that showed a right code, and
//!   this computer's own, keep their own allowance), and fewer than [`MAX_HELD_WRONG`] are held
//!   at once. Past that the wrong code is answered at once and its connection closed: nothing of
//!   the host's is held for it. Nothing of this is kept on disk, so a restarted host starts
//!   afresh.
//!
//! What guessing needs: a code is 80 bits, and a game has 4 seats, so one guess is right with
//! probability 4 / 2^80, and a guesser needs 2^80 / 4 ≈ 3.0e23 guesses on average: at a million
//! guesses a second, unthrottled, 9.6e9 years (a host answers a few thousand handshakes a
//! second at most). The codes need no lock-out to be safe from guessing, so there is none.

use std::collections::{HashMap, HashSet, VecDeque};
use std::net::{IpAddr, Shutdown, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::Seat;

/// Connections joining (handshake and hello) at once; a new one past this drops the oldest.
pub const MAX_HANDSHAKES: usize = 32;

/// The whole of a handshake and hello, however the bytes trickle in.
pub const HANDSHAKE_DEADLINE: Duration = Duration::from_secs(5);

/// Connections one seat may hold at once; a new one drops the seat's oldest.
pub const MAX_PER_SEAT: usize = 8;

/// Wrong codes from one address within [`FAIL_WINDOW`] whose answer is held back
/// [`FAIL_DELAY`]; the address's wrong codes past this are answered at once (and closed).
pub const MAX_FAILED_CODES: usize = 10;

/// Wrong codes within [`FAIL_WINDOW`] from all addresses that never showed a right code,
/// together, whose answer is held back; past this theirs are answered at once (and closed).
pub const GLOBAL_FAILED_CODES: usize = 30;

/// Wrong codes held back at once, whoever sent them: a flood of them never holds more of the
/// host's connection threads than this.
pub const MAX_HELD_WRONG: usize = 8;

/// How long a wrong code's answer is held back (within the budgets above).
pub const FAIL_DELAY: Duration = Duration::from_millis(200);

/// The window over which wrong codes are counted.
pub const FAIL_WINDOW: Duration = Duration::from_secs(60);

/// Addresses remembered as having shown a right code (the oldest is forgotten past this).
pub const MAX_KNOWN: usize = 256;

/// One connection that is joining: how to drop it.
struct Joining {
    id: u64,
    stream: Option<TcpStream>,
    dropped: Arc<AtomicBool>,
}

/// One connection in a seat: how to tell it to go.
struct Seated {
    conn: u64,
    replaced: Arc<AtomicBool>,
}

/// Which limit on wrong codes a wrong code came past (it is answered at once).
#[derive(Debug, PartialEq, Eq)]
pub enum Shut {
    /// This address gave [`MAX_FAILED_CODES`] wrong codes in the window.
    Address,
    /// Addresses the host does not know gave [`GLOBAL_FAILED_CODES`] between them.
    Everyone,
    /// [`MAX_HELD_WRONG`] wrong codes are being held back already.
    Held,
}

impl Shut {
    /// In words, for the wrong code's answer and the host's event.
    pub fn said(&self, ip: IpAddr) -> String {
        match self {
            Shut::Address => format!("{MAX_FAILED_CODES} wrong codes from {ip} this minute"),
            Shut::Everyone => format!(
                "{GLOBAL_FAILED_CODES} wrong codes this minute from addresses this host does not know"
            ),
            Shut::Held => format!("{MAX_HELD_WRONG} wrong codes are being answered already"),
        }
    }
}

/// What the gate makes of a code ([`Gate::code`]).
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A right code: in.
    In,
    /// A wrong code, answered after [`FAIL_DELAY`]; [`Gate::answered`] once it is.
    Held,
    /// A wrong code past a limit, answered at once.
    Past(Shut),
}

/// The host's admission control.
#[derive(Default)]
pub struct Gate {
    joining: VecDeque<Joining>,
    next: u64,
    seats: HashMap<Seat, VecDeque<Seated>>,
    fails: HashMap<IpAddr, VecDeque<Instant>>,
    strangers: VecDeque<Instant>,
    known: VecDeque<IpAddr>,
    known_set: HashSet<IpAddr>,
    /// Wrong codes being held back now.
    held: usize,
}

/// A joining connection's place at the gate ([`Gate::joining`]).
pub struct Ticket {
    /// Its number at the gate.
    pub id: u64,
    /// Set when a newer connection pushed it out (it is told "host is full").
    pub dropped: Arc<AtomicBool>,
}

impl Gate {
    /// A new connection starts joining; when [`MAX_HANDSHAKES`] are already joining, the one that
    /// has joined longest is dropped (its socket's reading end shut, so its thread wakes, tells
    /// it "host is full" and ends). Returns its ticket, and whether one was dropped: the host then
    /// stops counting the dropped one's thread among its live connections at once, rather than
    /// when that thread gets to end (under load, later), so a flood of strangers never fills the
    /// count with connections already let go.
    pub fn joining(&mut self, stream: Option<TcpStream>) -> (Ticket, bool) {
        let mut pushed = false;
        if self.joining.len() >= MAX_HANDSHAKES
            && let Some(old) = self.joining.pop_front()
        {
            old.dropped.store(true, Ordering::SeqCst);
            if let Some(s) = &old.stream {
                let _ = s.shutdown(Shutdown::Read);
            }
            pushed = true;
        }
        let id = self.next;
        self.next += 1;
        let dropped = Arc::new(AtomicBool::new(false));
        self.joining.push_back(Joining {
            id,
            stream,
            dropped: Arc::clone(&dropped),
        });
        (Ticket { id, dropped }, pushed)
    }

    /// A connection finished joining (in, refused or gone).
    pub fn joined(&mut self, id: u64) {
        self.joining.retain(|j| j.id != id);
    }

    /// Connections joining now.
    pub fn joining_now(&self) -> usize {
        self.joining.len()
    }

    /// A connection takes its seat; when the seat is full its oldest connection is told to go.
    /// Returns the flag set when this one is replaced in turn.
    pub fn seat(&mut self, seat: Seat, conn: u64) -> Arc<AtomicBool> {
        let q = self.seats.entry(seat).or_default();
        while q.len() >= MAX_PER_SEAT {
            if let Some(old) = q.pop_front() {
                old.replaced.store(true, Ordering::SeqCst);
            }
        }
        let replaced = Arc::new(AtomicBool::new(false));
        q.push_back(Seated {
            conn,
            replaced: Arc::clone(&replaced),
        });
        replaced
    }

    /// A connection left its seat.
    pub fn unseat(&mut self, seat: Seat, conn: u64) {
        if let Some(q) = self.seats.get_mut(&seat) {
            q.retain(|s| s.conn != conn);
        }
    }

    /// What to do with a code from `ip` that was `right` or not, in one step under the gate's
    /// lock (so connections guessing at once cannot slip past a limit between the look and the
    /// count). A right code is in, whatever came before; it is not counted. A wrong one is held
    /// back (and counted) while within the limits, else answered at once (and not counted: the
    /// counts stay within the limits, so they take bounded memory however fast the guessing).
    pub fn code(&mut self, ip: IpAddr, now: Instant, right: bool) -> Verdict {
        if right {
            self.known(ip);
            return Verdict::In;
        }
        self.forget(now);
        let shut = if self
            .fails
            .get(&ip)
            .is_some_and(|v| v.len() >= MAX_FAILED_CODES)
        {
            Some(Shut::Address)
        } else if !self.knows(ip) && self.strangers.len() >= GLOBAL_FAILED_CODES {
            Some(Shut::Everyone)
        } else if self.held >= MAX_HELD_WRONG {
            Some(Shut::Held)
        } else {
            None
        };
        if let Some(shut) = shut {
            return Verdict::Past(shut);
        }
        self.fails.entry(ip).or_default().push_back(now);
        if !self.knows(ip) {
            self.strangers.push_back(now);
        }
        self.held += 1;
        Verdict::Held
    }

    /// A held wrong code was answered.
    pub fn answered(&mut self) {
        self.held = self.held.saturating_sub(1);
    }

    /// Whether `ip` keeps its own allowance of held-back wrong codes (its typos are answered as
    /// ever, whatever strangers guess): it showed a right code, or it is this computer's own
    /// (127.0.0.1, ::1). Its right codes are let in either way ([`Gate::code`]).
    fn knows(&self, ip: IpAddr) -> bool {
        self.known_set.contains(&ip)
            || ip == IpAddr::from([127, 0, 0, 1])
            || ip == IpAddr::from(std::net::Ipv6Addr::LOCALHOST)
    }

    /// `ip` gave a right code: it keeps its own allowance from now on.
    pub fn known(&mut self, ip: IpAddr) {
        if self.known_set.insert(ip) {
            self.known.push_back(ip);
            if self.known.len() > MAX_KNOWN
                && let Some(old) = self.known.pop_front()
            {
                self.known_set.remove(&old);
            }
        }
    }

    /// Drops counts older than the window, so the maps cannot grow without bound.
    fn forget(&mut self, now: Instant) {
        let old = |t: &Instant| now.saturating_duration_since(*t) >= FAIL_WINDOW;
        while self.strangers.front().is_some_and(old) {
            self.strangers.pop_front();
        }
        self.fails.retain(|_, v| {
            while v.front().is_some_and(old) {
                v.pop_front();
            }
            !v.is_empty()
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 44: wrong codes from this address, from 127.0.0.1 and from a hundred others, past
    /// every limit, and a right code from each is still let in; the limits only decide which wrong
    /// codes are held back.
    #[test]
    fn a_right_code_is_let_in_whatever_wrong_codes_came_before() {
        let mut g = Gate::default();
        let now = Instant::now();
        let mut held = 0;
        for k in 0..100u8 {
            let ip = IpAddr::from([10, 0, k / 10 + 1, k % 10 + 1]);
            match g.code(ip, now, false) {
                Verdict::Held => {
                    held += 1;
                    g.answered();
                }
                Verdict::Past(s) => assert_eq!(s, Shut::Everyone),
                Verdict::In => panic!("a wrong code let in"),
            }
        }
        assert_eq!(held, GLOBAL_FAILED_CODES);
        let me = IpAddr::from([127, 0, 0, 1]);
        for _ in 0..MAX_FAILED_CODES {
            assert_eq!(g.code(me, now, false), Verdict::Held);
            g.answered();
        }
        assert_eq!(g.code(me, now, false), Verdict::Past(Shut::Address));
        // Right codes: from this computer, from a guessing address, from a new one.
        assert_eq!(g.code(me, now, true), Verdict::In);
        assert_eq!(g.code(IpAddr::from([10, 0, 1, 1]), now, true), Verdict::In);
        assert_eq!(g.code(IpAddr::from([10, 9, 9, 9]), now, true), Verdict::In);
        // A host restarted keeps nothing: a fresh gate.
        assert_eq!(Gate::default().code(me, now, true), Verdict::In);
        // An address that showed a right code keeps its own allowance for its typos.
        let player = IpAddr::from([192, 168, 1, 5]);
        assert_eq!(g.code(player, now, true), Verdict::In);
        assert_eq!(g.code(player, now, false), Verdict::Held);
        g.answered();
        // Held back at once: at most MAX_HELD_WRONG.
        let mut g = Gate::default();
        for k in 0..MAX_HELD_WRONG as u8 {
            assert_eq!(
                g.code(IpAddr::from([10, 1, 0, k]), now, false),
                Verdict::Held
            );
        }
        assert_eq!(
            g.code(IpAddr::from([10, 2, 0, 1]), now, false),
            Verdict::Past(Shut::Held)
        );
        assert_eq!(g.code(IpAddr::from([10, 2, 0, 1]), now, true), Verdict::In);
        g.answered();
        assert_eq!(
            g.code(IpAddr::from([10, 2, 0, 1]), now, false),
            Verdict::Held
        );
        // A minute later the window is empty again.
        let mut g = Gate::default();
        for _ in 0..MAX_FAILED_CODES {
            g.code(me, now, false);
            g.answered();
        }
        assert_eq!(g.code(me, now, false), Verdict::Past(Shut::Address));
        assert_eq!(g.code(me, now + FAIL_WINDOW, false), Verdict::Held);
    }

    #[test]
    fn joining_drops_the_oldest_and_seats_replace_their_oldest() {
        let mut g = Gate::default();
        let (tickets, pushed): (Vec<Ticket>, Vec<bool>) =
            (0..MAX_HANDSHAKES + 3).map(|_| g.joining(None)).unzip();
        assert_eq!(g.joining_now(), MAX_HANDSHAKES);
        // Each of the last three pushed one out (the host stops counting it then).
        assert_eq!(pushed.iter().filter(|p| **p).count(), 3);
        assert!(pushed[MAX_HANDSHAKES..].iter().all(|p| *p));
        let dropped: Vec<bool> = tickets
            .iter()
            .map(|t| t.dropped.load(Ordering::SeqCst))
            .collect();
        assert_eq!(dropped.iter().filter(|d| **d).count(), 3);
        assert!(dropped[..3].iter().all(|d| *d), "the oldest go first");
        g.joined(tickets[10].id);
        assert_eq!(g.joining_now(), MAX_HANDSHAKES - 1);

        let german = Seat::Player(kepi_game::roster::Side::German);
        let flags: Vec<_> = (0..MAX_PER_SEAT as u64 + 2)
            .map(|c| g.seat(german, c))
            .collect();
        let gone: Vec<bool> = flags.iter().map(|f| f.load(Ordering::SeqCst)).collect();
        assert_eq!(gone.iter().filter(|d| **d).count(), 2);
        assert!(gone[0] && gone[1]);
        // The umpire's seat is its own: players' connections never take its room.
        let umpire = g.seat(Seat::Umpire, 100);
        assert!(!umpire.load(Ordering::SeqCst));
        g.unseat(german, 5);
        assert_eq!(g.seats[&german].len(), MAX_PER_SEAT - 1);
    }
}
