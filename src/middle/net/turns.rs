//! Whose work on the game goes next (issue 44): one seat's requests cannot starve the others.
//!
//! Every connection thread that works on the hosted game (a request, a join's welcome and
//! catch-up, the list of held requests, the umpire's decision) first takes a *turn*, and takes the
//! game's lock under it; one turn is held at a time. When a turn ends, the next goes:
//! - to the umpire's seat, if any of its connections is waiting (the oldest of them);
//! - else round-robin over the seats: to the first seat after the one served last, in the game's
//!   order of seats, that has a connection waiting; within a seat, to its oldest waiting one.
//!
//! So the umpire waits at most for the one turn in progress, and anyone else for that one, the
//! umpire's, and at most one turn of each other seat: a seat with all its connections sending
//! long requests gets one turn a round, as every other seat does. A turn is at most one request,
//! and a request at most [`super::MAX_REQUEST_VERBS`] verbs, which bounds how long a turn lasts.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard};

use super::Seat;

/// The host's turns: who holds one, who waits for one.
pub struct Turns {
    queue: Mutex<Queue>,
    changed: Condvar,
}

/// Who holds the turn and who waits, in the order they asked.
struct Queue {
    /// The seats in the game's order (the round-robin's order).
    order: Vec<Seat>,
    /// The ticket holding the turn.
    holder: Option<u64>,
    /// Waiting tickets and their seats, oldest first.
    waiting: VecDeque<(u64, Seat)>,
    /// The seat other than the umpire's served last.
    last: Option<Seat>,
    /// The next ticket.
    next: u64,
}

/// A turn held; the next one goes when this is dropped (also when its thread panics).
pub struct Turn<'a> {
    turns: &'a Turns,
    ticket: u64,
}

impl Turns {
    /// Turns over `order`'s seats (the game's: umpire, sides, spectator).
    pub fn new(order: Vec<Seat>) -> Turns {
        Turns {
            queue: Mutex::new(Queue {
                order,
                holder: None,
                waiting: VecDeque::new(),
                last: None,
                next: 0,
            }),
            changed: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Queue> {
        // Nothing panics while holding it; carry on with it all the same.
        self.queue.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Waits for a turn of `seat`'s, as the rule says.
    pub fn take(&self, seat: Seat) -> Turn<'_> {
        let mut q = self.lock();
        let ticket = q.next;
        q.next += 1;
        q.waiting.push_back((ticket, seat));
        if q.holder.is_none() {
            q.grant();
        }
        while q.holder != Some(ticket) {
            q = self.changed.wait(q).unwrap_or_else(|p| p.into_inner());
        }
        Turn {
            turns: self,
            ticket,
        }
    }

    /// Connections waiting for a turn now.
    pub fn waiting(&self) -> usize {
        self.lock().waiting.len()
    }
}

impl Queue {
    /// Gives the turn to the next waiting ticket by the rule (nobody holds it when none waits).
    fn grant(&mut self) {
        self.holder = None;
        if let Some((ticket, seat)) = self.pick().and_then(|at| self.waiting.remove(at)) {
            self.holder = Some(ticket);
            if seat != Seat::Umpire {
                self.last = Some(seat);
            }
        }
    }

    /// Where in `waiting` the next turn's ticket is.
    fn pick(&self) -> Option<usize> {
        let of = |seat: Seat| self.waiting.iter().position(|(_, s)| *s == seat);
        if let Some(at) = of(Seat::Umpire) {
            return Some(at);
        }
        let n = self.order.len();
        let after = self
            .last
            .and_then(|l| self.order.iter().position(|s| *s == l))
            .map_or(0, |i| i + 1);
        (0..n)
            .filter_map(|k| self.order.get((after + k) % n).copied())
            .find_map(of)
            // A seat outside the order (there is none): the oldest waiting.
            .or_else(|| (!self.waiting.is_empty()).then_some(0))
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        let mut q = self.turns.lock();
        if q.holder == Some(self.ticket) {
            q.grant();
        }
        drop(q);
        self.turns.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kepi_game::roster::Side;
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    const GERMAN: Seat = Seat::Player(Side::German);
    const FRENCH: Seat = Seat::Player(Side::French);

    fn seats() -> Vec<Seat> {
        vec![Seat::Umpire, GERMAN, FRENCH, Seat::Spectator]
    }

    /// The order turns go in for `waiting` (queued in this order) after `last` was served.
    fn served(last: Option<Seat>, waiting: &[Seat]) -> Vec<Seat> {
        let mut q = Queue {
            order: seats(),
            holder: None,
            waiting: waiting
                .iter()
                .enumerate()
                .map(|(k, s)| (k as u64, *s))
                .collect(),
            last,
            next: waiting.len() as u64,
        };
        let mut out = Vec::new();
        loop {
            q.grant();
            let Some(t) = q.holder else { break };
            out.push(waiting[t as usize]);
        }
        out
    }

    /// Issue 44: the umpire goes first, then the seats take turns, however many requests one of
    /// them has waiting.
    #[test]
    fn the_umpire_goes_first_and_seats_take_turns() {
        let w = [GERMAN, GERMAN, GERMAN, GERMAN, FRENCH, Seat::Umpire, FRENCH];
        assert_eq!(
            served(Some(GERMAN), &w),
            [Seat::Umpire, FRENCH, GERMAN, FRENCH, GERMAN, GERMAN, GERMAN]
        );
        // Eight connections of one seat queued before the spectator's one: it is second.
        let mut w = vec![GERMAN; 8];
        w.push(Seat::Spectator);
        let order = served(Some(GERMAN), &w);
        assert_eq!(order[0], Seat::Spectator, "{order:?}");
        let order = served(None, &w);
        assert_eq!(order[..2], [GERMAN, Seat::Spectator], "{order:?}");
        assert!(served(None, &[]).is_empty());
    }

    /// The same with threads: while one turn is held, a seat queues five and the others one
    /// each; the umpire's turn comes next and the seat with five gets one a round.
    #[test]
    fn threads_waiting_for_turns_are_served_in_that_order() {
        let turns = Arc::new(Turns::new(seats()));
        let order = Arc::new(Mutex::new(Vec::new()));
        let held = turns.take(GERMAN);
        let queued = |n: usize| {
            let deadline = Instant::now() + Duration::from_secs(10);
            while turns.waiting() < n {
                assert!(Instant::now() < deadline, "threads did not queue");
                std::thread::yield_now();
            }
        };
        let mut threads = Vec::new();
        let mut spawn = |seat: Seat, n: usize| {
            let (turns, order) = (Arc::clone(&turns), Arc::clone(&order));
            threads.push(std::thread::spawn(move || {
                let _t = turns.take(seat);
                order.lock().unwrap().push(seat);
            }));
            // Each is queued before the next starts, so the queue's order is known.
            queued(n);
        };
        for k in 0..5 {
            spawn(GERMAN, k + 1);
        }
        spawn(FRENCH, 6);
        spawn(Seat::Spectator, 7);
        spawn(Seat::Umpire, 8);
        drop(held);
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(
            *order.lock().unwrap(),
            [
                Seat::Umpire,
                FRENCH,
                Seat::Spectator,
                GERMAN,
                GERMAN,
                GERMAN,
                GERMAN,
                GERMAN
            ]
        );
    }
}
