//! The save's writer off the window's thread ([`super::Store::in_background`]).
//!
//! An action is durable once its journal line is fsynced on the caller's thread; rewriting the
//! whole save (serialize, read back, keep `.bak`, write atomically) is catching up, and at 11,000
//! entries it took a 78 ms frame. Here it runs on a thread of its own, one rewrite at a time. The
//! thread keeps its own copy of the log, first read from the save on disk (on the thread, not the
//! window's), then sent only the entries since: each rewrite costs the window the clone of a few
//! hundred entries and of the state (units and due checks are shared). A copy out of step (its
//! length or last hash not the game's) is never written: the writer says so and is sent the whole
//! log.

use std::path::PathBuf;
use std::sync::mpsc;

use super::{FORMAT, Limits, SaveFile, SaveRef, StoreError, VERSION, io, write_save_file};
use crate::engine::game::{Game, GameState, LogEntry, SeedSecret};

/// One rewrite: the log entries from `from` on, and the game's state, secret and head now.
struct Job {
    from: usize,
    entries: Vec<LogEntry>,
    head: String,
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
    /// The thread's copy of the log was out of step: nothing was written, and the next rewrite
    /// sends it everything (not a failure to tell anyone about).
    pub resend: bool,
}

/// The writer: its thread, the way to it and back.
#[derive(Debug)]
pub(super) struct Writer {
    path: PathBuf,
    jobs: Option<mpsc::Sender<Job>>,
    done: mpsc::Receiver<Done>,
    thread: Option<std::thread::JoinHandle<()>>,
    /// Log entries the thread's copy holds (as far as this side knows).
    sent: usize,
    busy: bool,
}

impl Writer {
    /// Starts the thread (`None` if it cannot be: the caller goes on writing in line).
    /// `last_good` is the save on disk as kepi wrote or read it, holding `saved` log entries: the
    /// thread's first copy of the log, and the backup's copy when the file system cannot link.
    pub fn new(
        path: PathBuf,
        limits: Limits,
        last_good: Option<Vec<u8>>,
        saved: usize,
    ) -> Option<Writer> {
        let (jobs, rx) = mpsc::channel::<Job>();
        let (tx, done) = mpsc::channel();
        let at = path.clone();
        let thread = std::thread::Builder::new()
            .name("kepi-save".into())
            .spawn(move || {
                let mut log: Vec<LogEntry> = last_good
                    .as_deref()
                    .and_then(|b| serde_json::from_slice::<SaveFile>(b).ok())
                    .map(|s| s.log)
                    .unwrap_or_default();
                let mut last_good = last_good;
                for job in rx {
                    let done = write(&at, limits, &mut log, &mut last_good, job);
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
            sent: saved,
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
        let from = self.sent.min(log.len());
        let job = Job {
            from,
            entries: log.get(from..).unwrap_or_default().to_vec(),
            head: game.head(),
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

    /// Waits for the running rewrite, if any. A copy found out of step is sent the whole log and
    /// waited for again.
    pub fn wait_whole(&mut self, game: &Game) -> Option<Done> {
        let done = self.wait()?;
        if done.resend {
            self.submit(game);
            return self.wait();
        }
        Some(done)
    }

    /// Waits for the running rewrite, if any.
    pub fn wait(&mut self) -> Option<Done> {
        if !self.busy {
            return None;
        }
        self.busy = false;
        let done = self.done.recv().unwrap_or_else(|_| self.stopped());
        Some(self.heard(done))
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
        Some(self.heard(done))
    }

    fn heard(&mut self, done: Done) -> Done {
        if done.resend {
            self.sent = 0;
        }
        done
    }

    fn stopped(&self) -> Done {
        Done {
            entries: 0,
            result: Err(io(
                &self.path,
                "the save's writer thread stopped, so the save was not rewritten",
            )),
            resend: false,
        }
    }
}

/// One rewrite on the thread: the copy of the log brought up to the job's, checked against the
/// game's length and head, then written.
fn write(
    path: &std::path::Path,
    limits: Limits,
    log: &mut Vec<LogEntry>,
    last_good: &mut Option<Vec<u8>>,
    job: Job,
) -> Done {
    let in_step = log.len() == job.from;
    if in_step {
        log.extend(job.entries);
    }
    if !in_step || log.last().map(|e| e.hash.as_str()) != Some(job.head.as_str()) {
        log.clear();
        return Done {
            entries: 0,
            result: Err(io(
                path,
                "the save's writer had another copy of the log; the save was not rewritten",
            )),
            resend: true,
        };
    }
    let save = SaveRef {
        format: FORMAT,
        version: VERSION,
        secret: job.secret.as_ref(),
        state: &job.state,
        log,
    };
    let result = write_save_file(path, limits, &save, last_good.as_deref()).map(|bytes| {
        let n = bytes.len() as u64;
        *last_good = Some(bytes);
        n
    });
    Done {
        entries: log.len(),
        result,
        resend: false,
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
