//! Who gets in, and how many (issue 29): no stranger, with or without a code, can stop the table.
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
//! - **Wrong codes**: at most [`MAX_FAILED_CODES`] a minute from one address, and at most
//!   [`GLOBAL_FAILED_CODES`] a minute from all the addresses that have not yet shown a right code,
//!   together; past that, such addresses are refused without their code being looked at. An
//!   address that showed a right code (the umpire's, the players'), and this computer's own
//!   (127.0.0.1, ::1), keeps its own allowance.
//!
//! What guessing needs: a code is 80 bits, and a game has 4 seats, so one guess is right with
//! probability 4 / 2^80, and a guesser needs 2^80 / 4 ≈ 3.0e23 guesses on average. At the global
//! budget a stranger gets 30 a minute: about 1.9e16 years. Even counting every known address as
//! the guesser's (10 a minute from each of at most [`MAX_KNOWN`], and this computer's two:
//! 2,610 a minute) it is about 2.2e14 years; unthrottled at a million guesses a second it would
//! be 9.6e9 years. Longer codes are not needed.

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

/// Wrong codes from one address within [`FAIL_WINDOW`] before that address is refused outright
/// until the window passes.
pub const MAX_FAILED_CODES: usize = 10;

/// Wrong codes within [`FAIL_WINDOW`] from all addresses that never showed a right code,
/// together, before all such addresses are refused until the window passes.
pub const GLOBAL_FAILED_CODES: usize = 30;

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

/// Why a code may not be looked at now.
#[derive(Debug, PartialEq, Eq)]
pub enum Shut {
    /// This address gave too many wrong codes.
    Address,
    /// Addresses the host does not know gave too many wrong codes between them.
    Everyone,
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
    /// has joined longest is dropped (its socket's reading end shut, so its thread wakes).
    pub fn joining(&mut self, stream: Option<TcpStream>) -> Ticket {
        if self.joining.len() >= MAX_HANDSHAKES
            && let Some(old) = self.joining.pop_front()
        {
            old.dropped.store(true, Ordering::SeqCst);
            if let Some(s) = &old.stream {
                let _ = s.shutdown(Shutdown::Read);
            }
        }
        let id = self.next;
        self.next += 1;
        let dropped = Arc::new(AtomicBool::new(false));
        self.joining.push_back(Joining {
            id,
            stream,
            dropped: Arc::clone(&dropped),
        });
        Ticket { id, dropped }
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

    /// Whether a code from `ip` may be looked at now and, when it may and it is wrong (`right`
    /// false), counts it: one step under the gate's lock, so connections guessing at once cannot
    /// slip past the budget between the look and the count.
    pub fn try_code(&mut self, ip: IpAddr, now: Instant, right: bool) -> Result<(), Shut> {
        self.may_try(ip, now)?;
        if !right {
            self.failed(ip, now);
        }
        Ok(())
    }

    /// Whether a code from `ip` may be looked at now.
    fn may_try(&mut self, ip: IpAddr, now: Instant) -> Result<(), Shut> {
        self.forget(now);
        if self
            .fails
            .get(&ip)
            .is_some_and(|v| v.len() >= MAX_FAILED_CODES)
        {
            return Err(Shut::Address);
        }
        if !self.knows(ip) && self.strangers.len() >= GLOBAL_FAILED_CODES {
            return Err(Shut::Everyone);
        }
        Ok(())
    }

    /// `ip` gave a wrong code.
    fn failed(&mut self, ip: IpAddr, now: Instant) {
        self.fails.entry(ip).or_default().push_back(now);
        if !self.knows(ip) {
            self.strangers.push_back(now);
        }
        self.forget(now);
    }

    /// Whether `ip` keeps its own allowance: it showed a right code, or it is this computer's
    /// own (127.0.0.1, ::1), so the umpire's kepi on the host's computer (the window's own
    /// connection) is never shut out by strangers' guesses, even right after a restart.
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

    #[test]
    fn rotating_the_address_does_not_get_past_the_global_budget() {
        let mut g = Gate::default();
        let now = Instant::now();
        let mut looked_at = 0;
        for k in 0..100u8 {
            let ip = IpAddr::from([127, 0, k / 10 + 1, k % 10 + 1]);
            if g.try_code(ip, now, false).is_ok() {
                looked_at += 1;
            }
        }
        assert_eq!(looked_at, GLOBAL_FAILED_CODES);
        assert_eq!(
            g.may_try(IpAddr::from([10, 9, 9, 9]), now),
            Err(Shut::Everyone)
        );
        // An address that showed a right code keeps its own allowance, and loses it alone.
        let umpire = IpAddr::from([192, 168, 1, 5]);
        g.known(umpire);
        assert_eq!(g.may_try(umpire, now), Ok(()));
        for _ in 0..MAX_FAILED_CODES {
            assert_eq!(g.try_code(umpire, now, false), Ok(()));
        }
        assert_eq!(g.may_try(umpire, now), Err(Shut::Address));
        // This computer's own address keeps its allowance from the start.
        assert_eq!(g.may_try(IpAddr::from([127, 0, 0, 1]), now), Ok(()));
        // A minute later everyone may try again.
        let later = now + FAIL_WINDOW;
        assert_eq!(g.may_try(IpAddr::from([10, 9, 9, 9]), later), Ok(()));
        assert_eq!(g.may_try(umpire, later), Ok(()));
    }

    #[test]
    fn joining_drops_the_oldest_and_seats_replace_their_oldest() {
        let mut g = Gate::default();
        let tickets: Vec<Ticket> = (0..MAX_HANDSHAKES + 3).map(|_| g.joining(None)).collect();
        assert_eq!(g.joining_now(), MAX_HANDSHAKES);
        let dropped: Vec<bool> = tickets
            .iter()
            .map(|t| t.dropped.load(Ordering::SeqCst))
            .collect();
        assert_eq!(dropped.iter().filter(|d| **d).count(), 3);
        assert!(dropped[..3].iter().all(|d| *d), "the oldest go first");
        g.joined(tickets[10].id);
        assert_eq!(g.joining_now(), MAX_HANDSHAKES - 1);

        let german = Seat::Player(crate::roster::Side::German);
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
