//! The host's events, told in order on a thread of their own (never under the game's lock).

#[allow(unused_imports)]
use super::*;

/// The host's events, told in order on a thread of their own from a queue of [`EVENT_QUEUE`]:
/// they are never told under the game's lock, so a reader of them that lags never holds up the
/// table. With the queue full, an event waits for room up to [`EVENT_WAIT`]; one that gets none
/// means the reader stopped reading (`kepi serve --json | sleep 100`), and events are then
/// dropped without waiting, counted, and said once the reader takes one again.
pub(super) struct EventQueue {
    pub(super) shared: Arc<(Mutex<Events>, Condvar)>,
}

/// The queue of events and what became of them.
#[derive(Default)]
pub(super) struct Events {
    pub(super) queue: VecDeque<Event>,
    /// The reader took no event for [`EVENT_WAIT`] with the queue full; cleared when it takes one.
    pub(super) stopped: bool,
    /// Events dropped so far.
    pub(super) dropped: u64,
    /// Events queued, and events told (so a stopping host can let the queue empty first).
    pub(super) queued: u64,
    pub(super) told: u64,
    /// The host is gone: the thread ends once the queue is empty.
    pub(super) closed: bool,
}

impl EventQueue {
    /// Starts the thread that tells `sink` each event in order.
    pub(super) fn start(sink: EventSink) -> EventQueue {
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

    pub(super) fn events(&self) -> MutexGuard<'_, Events> {
        self.shared.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Queues an event, waiting for room up to [`EVENT_WAIT`] (not at all while the reader has
    /// stopped): an event that gets none is dropped and counted. Never called under the game's
    /// lock.
    pub(super) fn tell(&self, e: Event) {
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
    pub(super) fn drain(&self, until: Instant) {
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
    pub(super) fn dropped(&self) -> u64 {
        self.events().dropped
    }
}

impl Drop for EventQueue {
    fn drop(&mut self) {
        self.events().closed = true;
        self.shared.1.notify_all();
    }
}
