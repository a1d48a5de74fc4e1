//! The save's writer off the window's thread ([`super::Store::in_background`]).
//!
//! An action is durable once its journal line is fsynced on the caller's thread; rewriting the
//! whole save (serialize, read back, keep `.bak`, write atomically) is catching up, and at 11,000
//! entries it took a 78 ms frame. Here it runs on a thread of its own, one rewrite at a time. The
//! thread keeps its own copy of the log: each rewrite is sent only the entries since the last one
//! and the state (cheap to clone: units and due checks are shared).

use std::path::PathBuf;
use std::sync::mpsc;

use super::{FORMAT, Limits, SaveRef, StoreError, VERSION, io, write_save_file};
use crate::game::{Game, GameState, LogEntry, SeedSecret};

/// One rewrite: the log entries beyond those sent before, and the game's state and secret now.
struct Job {
    entries: Vec<LogEntry>,
    state: GameState,
    secret: Option<SeedSecret>,
}

/// What a rewrite did.
#[derive(Debug)]
pub(super) struct Done {
    /// Log entries the save holds when it succeeded (the job's log).
    pub entries: usize,
    /// The bytes written, or why the save was not replaced.
    pub result: Result<u64, StoreError>,
}

/// The writer: its thread, the way to it and back.
#[derive(Debug)]
pub(super) struct Writer {
    path: PathBuf,
    jobs: Option<mpsc::Sender<Job>>,
    done: mpsc::Receiver<Done>,
    thread: Option<std::thread::JoinHandle<()>>,
    /// Log entries the thread's copy holds.
    sent: usize,
    busy: bool,
}

impl Writer {
    /// Starts the thread (`None` if it cannot be: the caller goes on writing in line).
    /// `last_good` is the save on disk as kepi wrote or read it (the backup's copy when the file
    /// system cannot link).
    pub fn new(path: PathBuf, limits: Limits, last_good: Option<Vec<u8>>) -> Option<Writer> {
        let (jobs, rx) = mpsc::channel::<Job>();
        let (tx, done) = mpsc::channel();
        let at = path.clone();
        let thread = std::thread::Builder::new()
            .name("kepi-save".into())
            .spawn(move || {
                let mut log: Vec<LogEntry> = Vec::new();
                let mut last_good = last_good;
                for job in rx {
                    log.extend(job.entries);
                    let save = SaveRef {
                        format: FORMAT,
                        version: VERSION,
                        secret: job.secret.as_ref(),
                        state: &job.state,
                        log: &log,
                    };
                    let result =
                        write_save_file(&at, limits, &save, last_good.as_deref()).map(|bytes| {
                            let n = bytes.len() as u64;
                            last_good = Some(bytes);
                            n
                        });
                    let done = Done {
                        entries: log.len(),
                        result,
                    };
                    if tx.send(done).is_err() {
                        break;
                    }
                }
            })
            .ok()?;
        Some(Writer {
            path,
            jobs: Some(jobs),
            done,
            thread: Some(thread),
            sent: 0,
            busy: false,
        })
    }

    /// Whether a rewrite is running.
    pub fn busy(&self) -> bool {
        self.busy
    }

    /// Starts rewriting the save as `game` has it (call [`Writer::wait`] first if busy: one
    /// rewrite at a time, so the thread's copy of the log stays in order).
    pub fn submit(&mut self, game: &Game) {
        let log = game.log();
        let job = Job {
            entries: log.get(self.sent..).unwrap_or_default().to_vec(),
            state: game.state().clone(),
            secret: game.secret().cloned(),
        };
        if self.jobs.as_ref().is_some_and(|j| j.send(job).is_ok()) {
            self.sent = log.len();
        } else {
            // The thread stopped: said by the next `wait`.
            self.jobs = None;
        }
        self.busy = true;
    }

    /// Waits for the running rewrite, if any.
    pub fn wait(&mut self) -> Option<Done> {
        if !self.busy {
            return None;
        }
        self.busy = false;
        Some(self.done.recv().unwrap_or_else(|_| self.stopped()))
    }

    /// The running rewrite's result if it has finished.
    pub fn try_done(&mut self) -> Option<Done> {
        if !self.busy {
            return None;
        }
        let done = match self.done.try_recv() {
            Ok(d) => d,
            Err(mpsc::TryRecvError::Empty) => return None,
            Err(mpsc::TryRecvError::Disconnected) => self.stopped(),
        };
        self.busy = false;
        Some(done)
    }

    fn stopped(&self) -> Done {
        Done {
            entries: 0,
            result: Err(io(
                &self.path,
                "the save's writer thread stopped, so the save was not rewritten",
            )),
        }
    }
}

impl Drop for Writer {
    /// Lets the running rewrite finish (the save is never left half-renamed when the lock goes).
    fn drop(&mut self) {
        self.jobs = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
