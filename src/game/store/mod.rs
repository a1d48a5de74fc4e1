//! Saves that lose nothing: an atomic JSON save, an append-only journal, recovery and migration.
//!
//! A game lives in three files beside each other:
//! - `FILE` — the save: `{"format": "kepi-save", "version": 1, "secret", "state", "log"}`, written
//!   atomically (temp file in the same folder, fsync, rename, fsync the folder);
//! - `FILE.journal` — JSON lines, appended and fsynced *before* an action is reported done: a first
//!   line with the seed secret, then one line per log entry (each carrying its chained hash);
//! - `FILE.bak` — the previous good save.
//!
//! **When an action counts.** An action is acknowledged once its journal line is fsynced. If the
//! journal append fails (a full disk, a read-only folder), the journal is cut back to its previous
//! length (`set_len` + fsync), the action is reported failed (the CLI exits 1) and the caller drops it
//! from the game in memory too ([`Game::rewind`]): a failed action never appears later. If only the
//! save rewrite fails afterwards, the action *is* acknowledged ([`Recorded::save_warning`] carries a
//! warning; the CLI prints `ok` and exits 0): the save catches up from the journal the next time the
//! game is opened for writing.
//!
//! On open, the save is parsed (a clear error names the file, line and column where it breaks), its
//! log is replayed and must reproduce its state, and any journal entries beyond the save are checked
//! (their chain must continue from the save's head and, when the save holds the seed, their seeded
//! dice must come from it) before they are replayed and reported (recovery); a journal line that
//! fails is an error naming it, and only `kepi game recover` opens the game without it. A save whose
//! own dice do not verify against its seed is refused for writing ([`Store::open`]) but can still be
//! viewed ([`read_game`]). A torn last journal line (a write cut off by a crash, never acknowledged)
//! is ignored with a warning. A save that does not load is never overwritten: `recover` rebuilds the
//! game from the journal (or the backup) instead, reading the journal line by line and keeping
//! every action that continues the chain (see `recover.rs`); what it replaces it sets aside under a
//! name never used before. Files are size-limited and hold no paths kepi
//! would follow, so a save shared by another club cannot make kepi read or write elsewhere.
//!
//! Viewing ([`read_game`]) takes no lock and writes nothing, so a game on read-only media can be
//! shown and verified. Saves carry an explicit `version`: 1, or 0 (kepi's first drafts, migrated);
//! anything else is refused, and no migration ever drops the dice seed.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::engine::game::{Game, GameState, LogEntry, ReplayError, SeedSecret, verify_chain_from};
use crate::roster::check_image_path;

mod background;
mod journal;
mod recover;
pub mod running;

pub use journal::{
    Journal, JournalLine, parse_journal, parse_journal_tail, read_journal, read_journal_tail,
};

pub use recover::recover;

/// The format name in every save.
pub const FORMAT: &str = "kepi-save";
/// The save format version this kepi writes.
pub const VERSION: u32 = 1;
/// Largest save or journal kepi reads.
pub const MAX_SAVE_BYTES: u64 = 64 * 1024 * 1024;
/// Largest journal kepi writes: an action that would take the journal past it is refused (not
/// acknowledged), so kepi never writes a journal it then refuses to read. The save holds the same
/// entries plus the state; the margin below [`MAX_SAVE_BYTES`] is the state's room, and a save too
/// large to be written indented is written compact.
pub const MAX_JOURNAL_BYTES: u64 = 48 * 1024 * 1024;
const _: () = assert!(MAX_JOURNAL_BYTES < MAX_SAVE_BYTES);

/// A save file's content. A member kepi does not know is refused, not dropped.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveFile {
    /// Always "kepi-save".
    pub format: String,
    /// Format version ([`VERSION`]).
    pub version: u32,
    /// The seed of kepi's dice and its salt (not part of the log until revealed); absent from a
    /// players' copy (`kepi game share`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<SeedSecret>,
    /// The state now (for readers; it must equal the replay of the log).
    pub state: GameState,
    /// The hash-chained log, from the start of the game.
    pub log: Vec<LogEntry>,
}

/// A save written from a borrowed game: the same fields in the same order as [`SaveFile`], so the
/// same bytes, without copying a 10,000-entry log to write it.
#[derive(Serialize)]
struct SaveRef<'a> {
    format: &'a str,
    version: u32,
    // A copy without the seed (`kepi game share`) has no `secret` member at all; reading a save
    // without one gives `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    secret: Option<&'a SeedSecret>,
    state: &'a GameState,
    log: &'a [LogEntry],
}

impl<'a> SaveRef<'a> {
    fn of(game: &'a Game) -> SaveRef<'a> {
        SaveRef {
            format: FORMAT,
            version: VERSION,
            secret: game.secret(),
            state: game.state(),
            log: game.log(),
        }
    }
}

/// Keeps the save on disk as `FILE.bak` before it is replaced: a hard link to it where the file
/// system has them (nothing copied; the new save gets a new file), else a copy of `prev`, the bytes
/// kepi last wrote there. A `.bak` that is a symbolic link, device or FIFO is refused, not replaced.
fn keep_backup(path: &Path, prev: &[u8]) -> Result<(), StoreError> {
    let bak = backup_path(path);
    crate::fsio::check_replaceable(&bak).map_err(fs_err)?;
    let link = sibling(path, ".bak.link");
    let _ = std::fs::remove_file(&link);
    if std::fs::hard_link(path, &link).is_ok() {
        if std::fs::rename(&link, &bak).is_ok() {
            return Ok(());
        }
        let _ = std::fs::remove_file(&link);
    }
    write_atomic(&bak, prev)
}

impl SaveFile {
    /// The save of a game.
    pub fn of(game: &Game) -> SaveFile {
        SaveFile {
            format: FORMAT.into(),
            version: VERSION,
            secret: game.secret().cloned(),
            state: game.state().clone(),
            log: game.log().to_vec(),
        }
    }

    /// The game it holds: the log is replayed and must give the saved state.
    pub fn into_game(self, file: &str) -> Result<Game, StoreError> {
        let game = Game::from_log(self.log, self.secret).map_err(|e| StoreError::Invalid {
            file: file.into(),
            message: e.to_string(),
        })?;
        if game.state() != &self.state {
            return Err(StoreError::Invalid {
                file: file.into(),
                message: "the saved state does not match its log (the state was edited)".into(),
            });
        }
        for u in &game.state().units {
            if let Some(im) = &u.unit.image {
                check_image_path(im, None).map_err(|m| StoreError::Invalid {
                    file: file.into(),
                    message: format!("unit `{}` image: {m}", u.unit.id),
                })?;
            }
        }
        Ok(game)
    }
}

/// What went wrong with a save or journal. Every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Reading or writing failed.
    #[error("{file}: {message}")]
    Io {
        /// The file.
        file: String,
        /// What happened.
        message: String,
    },
    /// The file is not well-formed (truncated, edited, not a kepi save).
    #[error("{file}:{line}:{column}: {message}{hint}")]
    Corrupt {
        /// The file.
        file: String,
        /// 1-based line (0 unknown).
        line: usize,
        /// 1-based column, or byte offset for journals.
        column: usize,
        /// What is wrong.
        message: String,
        /// What to do.
        hint: String,
    },
    /// Well-formed but not a valid game (broken chain, state not matching the log).
    #[error("{file}: {message}")]
    Invalid {
        /// The file.
        file: String,
        /// What is wrong.
        message: String,
    },
    /// A save from a newer kepi.
    #[error(
        "{file}: format version {found} is newer than this kepi reads (up to {VERSION}); update kepi"
    )]
    TooNew {
        /// The file.
        file: String,
        /// Its version.
        found: u64,
    },
    /// The game refused the action.
    #[error(transparent)]
    Action(#[from] crate::engine::game::ActionError),
}

/// A refused or failed file operation, naming the file.
fn fs_err(e: crate::fsio::FsError) -> StoreError {
    StoreError::Io {
        file: e.path.display().to_string(),
        message: e.message(),
    }
}

/// The one real path of a save, so one game has one lock and one journal: a save that is a symbolic
/// link is resolved to its target; otherwise its folder is resolved and its name kept. A dangling
/// link is refused (kepi never writes through one).
fn real_save_path(path: &Path) -> Result<PathBuf, StoreError> {
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    if is_link {
        return std::fs::canonicalize(path).map_err(|e| {
            io(
                path,
                format!("is a symbolic link that does not resolve ({e}); kepi never writes through a dangling link"),
            )
        });
    }
    let name = path
        .file_name()
        .ok_or_else(|| io(path, "does not name a file"))?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let real = std::fs::canonicalize(dir)
        .map_err(|e| io(path, format!("cannot resolve its folder: {e}")))?;
    Ok(real.join(name))
}

fn io(path: &Path, e: impl std::fmt::Display) -> StoreError {
    StoreError::Io {
        file: path.display().to_string(),
        message: e.to_string(),
    }
}

/// The journal beside a save.
pub fn journal_path(save: &Path) -> PathBuf {
    sibling(save, ".journal")
}

/// Takes the lock of a game file, or says who holds it. The lock file is never a symbolic link.
///
/// Every way into a save (create, open, recover) starts here, so this is also where a path that is
/// not a file is refused: `kepi game new --out /dev/null` must not put `null.lock` and a renamed
/// save into /dev (as root it would replace the device), and a folder is not a game.
fn lock(save: &Path) -> Result<Held, StoreError> {
    if let Ok(m) = std::fs::metadata(save)
        && !m.is_file()
    {
        return Err(io(save, "is not a regular file (a game is kept in a file)"));
    }
    let lp = sibling(save, ".lock");
    let created = std::fs::symlink_metadata(&lp).is_err();
    let f = crate::fsio::open_nofollow(
        &lp,
        OpenOptions::new().create(true).truncate(false).write(true),
        "lock file",
    )
    .map_err(fs_err)?;
    // A lock held for a moment (a `kepi game apply` finishing, or a process being started by this
    // one that has not yet closed its inherited copy of the lock) is waited for briefly; a game
    // really open elsewhere is refused after that.
    for _ in 0..LOCK_TRIES {
        match f.try_lock() {
            Ok(()) => {
                // Left by a backup interrupted between its link and its rename (see
                // [`keep_backup`]); the lock says no other kepi is making one now.
                let _ = std::fs::remove_file(sibling(save, ".bak.link"));
                return Ok(Held {
                    file: f,
                    created,
                    path: lp,
                });
            }
            Err(std::fs::TryLockError::WouldBlock) => {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(io(&lp, e)),
        }
    }
    Err(io(
        save,
        "is open in another kepi (the window, or a command still running); close it and try again",
    ))
}

/// How many times [`lock`] tries, 20 ms apart, before saying the game is open elsewhere.
const LOCK_TRIES: usize = 10;

/// A game's lock, held while it lives.
#[derive(Debug)]
struct Held {
    file: File,
    /// This kepi made the lock file (there was none).
    created: bool,
    path: PathBuf,
}

impl Held {
    /// Gives the lock up after the file given was found not to be a game kepi can open (not a
    /// save): the lock file made for it goes too, so `kepi game apply README.md ...` leaves no
    /// `README.md.lock` behind. A lock file that was there before stays. (No `kepi game new` can
    /// be waiting on it: that refuses a file that exists.)
    fn release_unused(self, err: &StoreError, save: &Path) {
        if self.created && err.file() == Some(save.display().to_string().as_str()) {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

impl StoreError {
    /// The file the error names.
    pub fn file(&self) -> Option<&str> {
        match self {
            StoreError::Io { file, .. }
            | StoreError::Corrupt { file, .. }
            | StoreError::Invalid { file, .. }
            | StoreError::TooNew { file, .. } => Some(file),
            StoreError::Action(_) => None,
        }
    }
}

/// The backup beside a save.
pub fn backup_path(save: &Path) -> PathBuf {
    sibling(save, ".bak")
}

fn sibling(save: &Path, ext: &str) -> PathBuf {
    let mut s = save.as_os_str().to_os_string();
    s.push(ext);
    PathBuf::from(s)
}

/// Reads a save of at most [`MAX_SAVE_BYTES`], as a regular file (see
/// [`crate::fsio::read_regular`]: no device, FIFO or dangling link is read).
pub fn read_bytes_limited(path: &Path) -> Result<Vec<u8>, StoreError> {
    crate::fsio::read_regular(path, MAX_SAVE_BYTES, "kepi save").map_err(fs_err)
}

/// Reads a file of a game folder (journal, backup): as [`read_bytes_limited`], and never through a
/// symbolic link, which could point anywhere.
fn read_folder_file(path: &Path, what: &str) -> Result<Vec<u8>, StoreError> {
    crate::fsio::read_regular_nofollow(path, MAX_SAVE_BYTES, what).map_err(fs_err)
}

/// Writes a file atomically (see [`crate::fsio::write_atomic`]): a temp file in the same folder,
/// fsync, rename over, fsync the folder. A crash leaves either the old file or the new one, never a
/// mix; a target that is a symbolic link, device or FIFO is refused.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    crate::fsio::write_atomic(path, bytes).map_err(fs_err)
}

fn sync_dir(dir: &Path) {
    crate::fsio::sync_dir(dir);
}

/// The save versions this kepi reads, for error messages.
const ACCEPTED_VERSIONS: &str = "1, or 0 for kepi's first drafts";

/// Migrates an older save's JSON to the current version, one step at a time.
///
/// The version must be stated: a save without `"version"`, or with one that is not a whole number
/// kepi knows, is refused naming the file and the accepted versions (it is not guessed to be the
/// oldest format). Version 0 (kepi's first drafts) is recognised only by an explicit `"version": 0`;
/// it kept the seed as a bare `"seed"` number, with no salt and no `format` field, where version 1
/// keeps `{"secret": {"seed", "salt"}}`. A v0 commitment was made with an empty salt, so the migrated
/// secret has `salt: ""`. No migration drops the seed: a v0 `seed` that is not a whole number from
/// 0 to 2^64-1 is an error, as is a v0 save that already has a `secret`.
pub fn migrate(mut v: serde_json::Value, file: &str) -> Result<serde_json::Value, StoreError> {
    let invalid = |message: String| StoreError::Invalid {
        file: file.into(),
        message,
    };
    let Some(m) = v.as_object_mut() else {
        return Err(invalid("not a kepi save (expected a JSON object)".into()));
    };
    let version = match m.get("version") {
        None => {
            return Err(invalid(format!(
                "no format `version` (accepted: {ACCEPTED_VERSIONS}); is this a kepi save?"
            )));
        }
        Some(x) => match x.as_u64() {
            Some(n) => n,
            None => {
                return Err(invalid(format!(
                    "format version {x} is not one kepi reads (accepted: {ACCEPTED_VERSIONS})"
                )));
            }
        },
    };
    if version > u64::from(VERSION) {
        return Err(StoreError::TooNew {
            file: file.into(),
            found: version,
        });
    }
    if version == 0 {
        if m.contains_key("secret") {
            return Err(invalid(
                "a version 0 save keeps its seed as `seed`, but this one has a `secret`: is its version wrong?"
                    .into(),
            ));
        }
        let secret = match m.remove("seed") {
            None => serde_json::Value::Null,
            Some(s) if s.is_u64() => serde_json::json!({ "seed": s, "salt": "" }),
            Some(s) => {
                return Err(invalid(format!(
                    "field `seed`: {s} is not a dice seed (a whole number from 0 to {})",
                    u64::MAX
                )));
            }
        };
        m.insert("secret".into(), secret);
        m.insert("format".into(), FORMAT.into());
        m.insert("version".into(), 1.into());
    }
    Ok(v)
}

/// Parses a save's bytes (any supported version) into a game.
pub fn parse_save(bytes: &[u8], file: &str) -> Result<Game, StoreError> {
    let corrupt = |e: serde_json::Error| {
        StoreError::Corrupt {
        file: file.into(),
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
        hint: "; the save is damaged. `kepi game recover FILE` rebuilds it from the journal or the .bak backup"
            .into(),
    }
    };
    // A current save reads straight into its types; anything else (an older version to migrate,
    // or a damaged file whose error must name the field) takes the slower road through a JSON value.
    if let Ok(save) = serde_json::from_slice::<SaveFile>(bytes)
        && save.format == FORMAT
        && save.version == VERSION
    {
        return save.into_game(file);
    }
    // A `Value` keeps the last of a key given twice; the typed road above refused it.
    serde_json::from_slice::<crate::fsio::NoDuplicateKeys>(bytes).map_err(corrupt)?;
    let v: serde_json::Value = serde_json::from_slice(bytes).map_err(corrupt)?;
    if let Some(f) = v.get("format").and_then(|f| f.as_str())
        && f != FORMAT
    {
        return Err(StoreError::Invalid {
            file: file.into(),
            message: format!("not a kepi save (format `{f}`)"),
        });
    }
    let v = migrate(v, file)?;
    let save: SaveFile = serde_path_to_error::deserialize(v).map_err(|e| StoreError::Invalid {
        file: file.into(),
        message: format!("field `{}`: {}", e.path(), e.inner()),
    })?;
    save.into_game(file)
}

/// An open game file: the game, and what opening it found.
#[derive(Debug)]
pub struct Opened {
    /// The game (with any journal entries recovered).
    pub game: Game,
    /// The store to record further actions with.
    pub store: Store,
    /// How many journal entries were newer than the save and were replayed.
    pub recovered: usize,
    /// Warnings (torn journal line, a save that could not catch up with its journal).
    pub warnings: Vec<String>,
}

/// A game file read for viewing ([`read_game`]): no lock was taken and nothing was written.
#[derive(Debug)]
pub struct Viewed {
    /// The game (with the journal entries newer than the save replayed in memory).
    pub game: Game,
    /// How many journal entries were newer than the save.
    pub recovered: usize,
    /// Warnings (torn journal line, dice that do not verify against the save's seed).
    pub warnings: Vec<String>,
}

/// What [`Store::record`] did when the action was acknowledged.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[must_use = "a save warning must be shown: the save is behind its journal"]
pub struct Recorded {
    /// Set when the journal holds the action (it is acknowledged) but the save could not be
    /// rewritten: tell the user; the save catches up from the journal when the game is next opened.
    pub save_warning: Option<String>,
}

/// What `kepi game recover` does about a journal line kepi did not write.
const RECOVER_HINT: &str =
    "`kepi game recover FILE` opens the game without it (and the lines after it)";

/// A game file read and checked, before anyone decides whether to write to it.
struct Loaded {
    game: Game,
    bytes: Vec<u8>,
    journal: Journal,
    recovered: usize,
    /// The whole log's seeded dice against the save's seed (`None`: this copy has no seed). A
    /// failure is always in the save's part: a failing journal entry is an error of [`load`].
    dice: Option<Result<usize, ReplayError>>,
}

/// Reads a save and its journal: the save must load, the journal must agree with it where they
/// overlap, and its entries beyond the save must continue the save's chain and (with the seed known)
/// roll the seed's dice before they are replayed.
fn load(path: &Path) -> Result<Loaded, StoreError> {
    let bytes = read_bytes_limited(path)?;
    let mut game = parse_save(&bytes, &path.display().to_string())?;
    let Extended {
        journal,
        recovered,
        dice,
    } = extend(&mut game, path)?;
    Ok(Loaded {
        game,
        bytes,
        journal,
        recovered,
        dice,
    })
}

/// What [`extend`] read and did.
struct Extended {
    journal: Journal,
    recovered: usize,
    dice: Option<Result<usize, ReplayError>>,
}

/// Extends a save's game with its journal's entries beyond it: the journal's tail must agree with
/// the save where they overlap, continue its chain, and (with the seed known) roll the seed's dice.
fn extend(game: &mut Game, save: &Path) -> Result<Extended, StoreError> {
    let jp = journal_path(save);
    let saved = game.log().len();
    let journal = read_journal_tail(&jp, saved)?;
    let mut recovered = 0;
    let jfile = jp.display().to_string();
    let line_of = |k: usize| journal.lines.get(k).copied().unwrap_or(0);
    if let Some(first) = journal.entries.first() {
        let start = first.index as usize;
        if start > saved {
            return Err(StoreError::Invalid {
                file: jfile,
                message: format!(
                    "journal starts at entry {start}, after the save's last ({saved})"
                ),
            });
        }
        for (k, e) in journal.entries.iter().enumerate() {
            let i = e.index as usize;
            if i < saved {
                // The journal must agree with the save where they overlap.
                if game.log().get(i).map(|s| &s.hash) != Some(&e.hash) {
                    return Err(StoreError::Invalid {
                        file: jfile,
                        message: format!(
                            "journal line {} (log entry {i}) differs from the save's: this journal belongs to another game (move it away to open the save)",
                            line_of(k)
                        ),
                    });
                }
            } else {
                game.replay(e.clone()).map_err(|err| StoreError::Invalid {
                    file: jfile.clone(),
                    message: format!(
                        "journal line {} (log entry {i}) does not continue the save: {err}; {RECOVER_HINT}",
                        line_of(k)
                    ),
                })?;
                recovered += 1;
            }
        }
    }
    let dice = game.secret().map(|s| game.audit_dice(s.seed));
    if let Some(Err(ReplayError::Entry { index, message })) = &dice
        && *index >= saved
    {
        let k = journal
            .entries
            .iter()
            .position(|e| e.index as usize == *index)
            .unwrap_or(0);
        return Err(StoreError::Invalid {
            file: jfile,
            message: format!(
                "journal line {} (log entry {index}) is not what kepi wrote: its dice do not come from the game's seed ({message}); {RECOVER_HINT}",
                line_of(k)
            ),
        });
    }
    Ok(Extended {
        journal,
        recovered,
        dice,
    })
}

/// Extends a game read from the save at `save` with the journal entries beyond it, checked as
/// [`Store::open`] checks them (`kepi log verify` on a save, which has already read and verified
/// the save itself). Returns how many entries the journal added.
pub fn extend_with_journal(game: &mut Game, save: &Path) -> Result<usize, StoreError> {
    extend(game, save).map(|x| x.recovered)
}

/// Reads a game for viewing (`kepi game show`, `kepi log show`, ...): the save and its journal are
/// checked as by [`Store::open`], but no lock is taken and nothing is written, so a game on read-only
/// media (or open in the window) can be looked at. Journal entries newer than the save are replayed
/// in memory only. Dice that do not verify against the save's seed are a warning here (writing to
/// such a save is refused).
pub fn read_game(path: &Path) -> Result<Viewed, StoreError> {
    let loaded = load(path)?;
    let mut warnings = loaded.journal.warnings;
    if let Some(Err(e)) = &loaded.dice {
        warnings.push(format!(
            "{}: log {e}: the dice do not come from the game's seed (the save was edited; see `kepi log verify`)",
            path.display()
        ));
    }
    Ok(Viewed {
        game: loaded.game,
        recovered: loaded.recovered,
        warnings,
    })
}

/// Writes a players' copy of a game to `out`: the same state and log, without the seed secret.
/// The log keeps the seed's commitment, so the copy verifies and its dice can be checked once the
/// seed is revealed. The caller decides whether `out` may be replaced.
pub fn share(game: &Game, out: &Path) -> Result<(), StoreError> {
    let save = SaveRef {
        secret: None,
        ..SaveRef::of(game)
    };
    let bytes =
        serde_json::to_vec_pretty(&save).map_err(|e| io(out, format!("cannot serialize: {e}")))?;
    write_atomic(out, &bytes)
}

/// Writes a game's changes: journal first, then the save. Holds an OS lock on `FILE.lock` while it
/// lives (released by the OS even if the process is killed), so two kepi processes never interleave
/// writes to one game.
#[derive(Debug)]
pub struct Store {
    _lock: File,
    path: PathBuf,
    journal_entries: usize,
    journal_good_len: u64,
    has_secret_line: bool,
    last_good: Option<Vec<u8>>,
    /// Log entries the save on disk holds (the journal may hold more: see [`COMPACT_EVERY`]).
    saved_entries: usize,
    stats: WriteStats,
    limits: Limits,
    /// The save's writer off this thread ([`Store::in_background`]).
    background: Option<background::Writer>,
    /// The window's "running" marker beside the save ([`Store::mark_running`]), removed with the
    /// store unless the thread panics.
    running: Option<running::Running>,
}

/// The largest journal and save a [`Store`] writes ([`MAX_JOURNAL_BYTES`], [`MAX_SAVE_BYTES`]);
/// the tests make them small.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    journal: u64,
    save: u64,
}

impl Drop for Store {
    /// A rewrite still running off the thread finishes before the lock is let go, and the
    /// "running" marker goes before it too (a kepi opening the game next writes its own).
    fn drop(&mut self) {
        self.background = None;
        self.running = None;
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            journal: MAX_JOURNAL_BYTES,
            save: MAX_SAVE_BYTES,
        }
    }
}

/// How far the save may fall behind its journal before [`Store::record`] rewrites it. An action is
/// durable once its journal line is fsynced; rewriting the whole save (6 MB at 10,000 actions) for
/// every click made each action cost 47 ms at that size. Now the save is rewritten on idle, on close
/// ([`Store::compact`]) and every this many actions, so recording costs the same at action 10 and
/// action 10,000, and opening replays at most this many journal lines beyond the save.
pub const COMPACT_EVERY: usize = 256;

/// What a [`Store`] has written since it was made (for the tests and benchmarks that check the
/// save is not rewritten per action, and the bytes each action costs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteStats {
    /// Journal appends (one per recorded batch of entries).
    pub journal_appends: u64,
    /// Whole saves written.
    pub save_writes: u64,
    /// Bytes written to the journal and the save.
    pub bytes_written: u64,
}

impl Store {
    /// The save's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Keeps a "running" marker beside the save while this store lives (the window does for a
    /// game it has open, a host while it serves: see [`running`]); true when it was written. A marker that cannot be written (a link or another
    /// file where it goes, a read-only folder) is no error: the next start only says less.
    pub fn mark_running(&mut self) -> bool {
        if self.running.is_none() {
            self.running = running::Running::mark(&self.path);
        }
        self.running.is_some()
    }

    /// Removes the "running" marker: the game is closed cleanly (the window closing).
    pub fn clear_running(&mut self) {
        if let Some(r) = self.running.take() {
            r.clear();
        }
    }

    /// How many journalled log entries the save on disk does not hold yet (rewritten by
    /// [`Store::compact`], or by [`Store::record`] every [`COMPACT_EVERY`]).
    pub fn behind(&self) -> usize {
        self.journal_entries.saturating_sub(self.saved_entries)
    }

    /// What this store has written so far.
    pub fn stats(&self) -> WriteStats {
        self.stats
    }

    /// Journals anything new, then rewrites the whole save (on idle, on close, on Save), so the
    /// next open reads the save alone. The journal already held every action: a failure here loses
    /// nothing.
    pub fn compact(&mut self, game: &Game) -> Result<(), StoreError> {
        self.append_journal(game)?;
        if let Some(bg) = self.background.as_mut() {
            let done = bg.wait_whole(game);
            self.apply_done(done.as_ref());
        }
        let never_written = self.last_good.is_none() && self.background.is_none();
        if self.saved_entries != game.log().len() || never_written {
            self.write_save(game)?;
        }
        Ok(())
    }

    /// Creates a new game file; refuses to overwrite an existing save. Fails (leaving no journal
    /// behind) unless both the journal and the save are written.
    pub fn create(path: &Path, game: &Game) -> Result<Store, StoreError> {
        let path = &real_save_path(path)?;
        let held = lock(path)?;
        crate::fsio::remove_stale_temps(path);
        if path.exists() {
            let e = io(
                path,
                "already exists; choose another file (kepi never overwrites a game)",
            );
            held.release_unused(&e, path);
            return Err(e);
        }
        let jp = journal_path(path);
        // A journal without its save: what a `create` killed between its two writes leaves (a
        // seed line and the start, nothing acknowledged) is replaced; anything more is a game
        // whose save was lost, which only `recover` may touch.
        if crate::fsio::present(&jp) {
            let refusal = match read_journal(&jp) {
                Ok(j) if j.entries.len() <= 1 => None,
                // A link, a device, a folder: said as it is.
                Err(e @ StoreError::Io { .. }) => Some(e),
                _ => Some(io(
                    &jp,
                    format!(
                        "is there without its save and may hold a game's actions; `kepi game recover {}` rebuilds the game from it, or move it away",
                        path.display()
                    ),
                )),
            };
            if let Some(e) = refusal {
                held.release_unused(&e, &jp);
                return Err(e);
            }
            std::fs::remove_file(&jp).map_err(|e| io(&jp, e))?;
        }
        // Never a new game onto another's journal, lock, seats file, backup or set-aside copy.
        if let Err(e) = crate::fsio::refuse_game_file(path) {
            let e = fs_err(e);
            held.release_unused(&e, path);
            return Err(e);
        }
        let mut store = Store {
            _lock: held.file,
            path: path.to_path_buf(),
            journal_entries: 0,
            journal_good_len: 0,
            has_secret_line: false,
            last_good: None,
            saved_entries: 0,
            stats: WriteStats::default(),
            limits: Limits::default(),
            background: None,
            running: None,
        };
        store.append_journal(game)?;
        if let Err(e) = store.write_save(game) {
            let _ = std::fs::remove_file(&jp);
            return Err(e);
        }
        Ok(store)
    }

    /// Opens a game file for writing, recovering journal entries newer than the save (see the
    /// module doc for what they must pass). Refuses a save whose seeded dice do not come from its
    /// seed: kepi does not add to an edited game.
    pub fn open(path: &Path) -> Result<Opened, StoreError> {
        let path = &real_save_path(path)?;
        // A missing save is said before any lock file is made for it. (Its lock file is not
        // removed after the fact instead: a `kepi game new` of that name waiting on it would then
        // hold a lock no later kepi sees.)
        if std::fs::symlink_metadata(path).is_err() {
            read_bytes_limited(path)?;
        }
        let held = lock(path)?;
        crate::fsio::remove_stale_temps(path);
        let loaded = match load(path) {
            Ok(l) => l,
            Err(e) => {
                held.release_unused(&e, path);
                return Err(e);
            }
        };
        if let Some(Err(e)) = &loaded.dice {
            return Err(StoreError::Invalid {
                file: path.display().to_string(),
                message: format!(
                    "log {e}: the dice do not come from the game's seed, so the save was edited; kepi will not add to it (`kepi log verify` shows the break)"
                ),
            });
        }
        let Loaded {
            game,
            bytes,
            journal,
            recovered,
            ..
        } = loaded;
        let mut store = Store {
            _lock: held.file,
            path: path.to_path_buf(),
            journal_entries: journal
                .entries
                .last()
                .map(|e| e.index as usize + 1)
                .unwrap_or(0),
            journal_good_len: journal.good_len,
            has_secret_line: journal.secret.is_some() || journal.good_len > 0,
            last_good: Some(bytes),
            saved_entries: game.log().len().saturating_sub(recovered),
            stats: WriteStats::default(),
            limits: Limits::default(),
            background: None,
            running: None,
        };
        let mut warnings = journal.warnings;
        if recovered > 0
            && let Some(w) = store.record(&game)?.save_warning
        {
            warnings.push(w);
        }
        Ok(Opened {
            game,
            store,
            recovered,
            warnings,
        })
    }

    /// Records the game's new log entries: appends them to the journal and fsyncs it; every
    /// [`COMPACT_EVERY`] entries it also rewrites the save atomically (keeping the previous one as
    /// `.bak`), so a click costs a journal line, not a 6 MB save.
    ///
    /// `Ok` means acknowledged: the journal holds the entries, nothing is lost whatever happens next
    /// (a [`Recorded::save_warning`] says the save itself is behind and will catch up from the
    /// journal). `Err` means the entries were *not* recorded: the journal was cut back to where it
    /// was, and the caller must drop them from the game ([`Game::rewind`]) so they never reappear.
    pub fn record(&mut self, game: &Game) -> Result<Recorded, StoreError> {
        self.append_journal(game)?;
        if self.background.is_some() {
            // A rewrite that finished is heard here too (the window also polls every frame); a
            // new one is started here, once the save is that far behind, and done off this thread.
            let save_warning = self.poll();
            if self.behind() >= COMPACT_EVERY
                && let Some(bg) = self.background.as_mut()
                && !bg.busy()
            {
                bg.submit(game);
            }
            return Ok(Recorded { save_warning });
        }
        if self.behind() < COMPACT_EVERY {
            return Ok(Recorded::default());
        }
        Ok(Recorded {
            save_warning: self.write_save(game).err().map(|e| self.behind_warning(&e)),
        })
    }

    /// Appends the game's entries the journal does not have yet, and fsyncs. On any failure the
    /// journal is cut back to its previous length, so nothing of a failed append is ever replayed.
    fn append_journal(&mut self, game: &Game) -> Result<(), StoreError> {
        let jp = journal_path(&self.path);
        let new: Vec<&LogEntry> = game.log().iter().skip(self.journal_entries).collect();
        if new.is_empty() && self.has_secret_line {
            return Ok(());
        }
        let mut buf = Vec::new();
        if !self.has_secret_line
            && let Some(secret) = game.secret()
        {
            serde_json::to_writer(&mut buf, &JournalLine::Secret(secret.clone()))
                .map_err(|e| io(&jp, e))?;
            buf.push(b'\n');
        }
        for e in &new {
            serde_json::to_writer(&mut buf, &JournalLine::Entry(Box::new((*e).clone())))
                .map_err(|e| io(&jp, e))?;
            buf.push(b'\n');
        }
        let mut f = crate::fsio::open_nofollow(
            &jp,
            OpenOptions::new().create(true).append(true),
            "journal",
        )
        .map_err(|e| {
            io(
                &jp,
                format!("cannot append the action: {}; it was not made", e.message()),
            )
        })?;
        let len = f.metadata().map(|m| m.len()).map_err(|e| io(&jp, e))?;
        // Where the good lines end: anything after (a torn line from an interrupted write) is cut
        // off before appending, and a failed append is cut back to here.
        let base = len.min(self.journal_good_len);
        if base + buf.len() as u64 > self.limits.journal {
            return Err(io(
                &jp,
                format!(
                    "cannot append the action: the journal would pass {} MiB ({} entries so far), the most kepi keeps for one game, so the action was not made; the game as it stands is safe and opens as before (long notes fill it fastest)",
                    self.limits.journal / (1024 * 1024),
                    self.journal_entries
                ),
            ));
        }
        if len > base {
            f.set_len(base).map_err(|e| io(&jp, e))?;
        }
        if let Err(e) = f.write_all(&buf).and_then(|()| f.sync_all()) {
            let cut = f.set_len(base).and_then(|()| f.sync_all());
            return Err(io(
                &jp,
                match cut {
                    Ok(()) => format!(
                        "cannot append the action: {e}; the journal was cut back to before it, so the action was not made"
                    ),
                    Err(c) => format!(
                        "cannot append the action: {e}; cutting the journal back failed too ({c}): the action was not made, but its line may be replayed when the game is next opened"
                    ),
                },
            ));
        }
        if len == 0
            && let Some(d) = jp.parent()
        {
            sync_dir(d);
        }
        self.journal_good_len = base + buf.len() as u64;
        self.journal_entries = game.log().len();
        self.stats.journal_appends += 1;
        self.stats.bytes_written += buf.len() as u64;
        self.has_secret_line = true;
        Ok(())
    }

    /// Writes the save atomically, keeping the previous one as `.bak`.
    fn write_save(&mut self, game: &Game) -> Result<(), StoreError> {
        if let Some(bg) = self.background.as_mut() {
            // One writer: the background one, waited for.
            let running = bg.wait_whole(game);
            self.apply_done(running.as_ref());
            let Some(bg) = self.background.as_mut() else {
                return Ok(());
            };
            bg.submit(game);
            let done = bg.wait_whole(game);
            self.apply_done(done.as_ref());
            return done.map_or(Ok(()), |d| d.result.map(|_| ()));
        }
        let bytes = write_save_file(
            &self.path,
            self.limits,
            &SaveRef::of(game),
            self.last_good.as_deref(),
        )?;
        self.stats.save_writes += 1;
        self.stats.bytes_written += bytes.len() as u64;
        self.saved_entries = game.log().len();
        self.last_good = Some(bytes);
        Ok(())
    }

    /// Rewrites the save off this thread from now on (the window): [`Store::record`] then starts
    /// the rewrite every [`COMPACT_EVERY`] actions and returns at once; [`Store::poll`] says when
    /// it is done. [`Store::compact`] still waits for it. At 11,000 entries a rewrite took 78 ms,
    /// a frame the table saw.
    pub fn in_background(&mut self) {
        if self.background.is_none() {
            self.background = background::Writer::new(
                self.path.clone(),
                self.limits,
                self.last_good.clone(),
                self.saved_entries,
            );
            if self.background.is_some() {
                self.last_good = None;
            }
        }
    }

    /// Journals anything new and starts rewriting the save off this thread, unless a rewrite is
    /// running already (on idle in the window). Without [`Store::in_background`], as
    /// [`Store::compact`].
    pub fn compact_soon(&mut self, game: &Game) -> Result<(), StoreError> {
        self.append_journal(game)?;
        match self.background.as_mut() {
            Some(bg) => {
                if self.saved_entries != game.log().len() && !bg.busy() {
                    bg.submit(game);
                }
                Ok(())
            }
            None => self.compact(game),
        }
    }

    /// What a background rewrite finished with since the last call: `Some(message)` when it
    /// failed (the journal still holds every action; the save catches up from it when the game is
    /// next opened). Call it once a frame.
    pub fn poll(&mut self) -> Option<String> {
        let done = self.background.as_mut()?.try_done()?;
        self.apply_done(Some(&done));
        if done.resend {
            return None;
        }
        done.result.err().map(|e| self.behind_warning(&e))
    }

    /// What a save that could not be rewritten means, the one wording whichever thread wrote it.
    fn behind_warning(&self, e: &StoreError) -> String {
        format!(
            "{e}; the action is kept in {} and the save will catch up from it when the game is next opened",
            journal_path(&self.path).display()
        )
    }

    /// Whether a background rewrite of the save is running.
    pub fn rewriting(&self) -> bool {
        self.background.as_ref().is_some_and(|b| b.busy())
    }

    fn apply_done(&mut self, done: Option<&background::Done>) {
        if let Some(d) = done
            && let Ok(bytes) = d.result
        {
            self.stats.save_writes += 1;
            self.stats.bytes_written += bytes;
            self.saved_entries = d.entries;
        }
    }
}

/// Serializes a save, checks it reads back whole, keeps the one on disk as `.bak` and writes it
/// atomically; returns what was written. Indented for a reader, unless that makes it larger than
/// kepi reads: then compact (the same JSON). Never larger than kepi reads: the journal keeps the
/// actions meanwhile.
fn write_save_file(
    path: &Path,
    limits: Limits,
    save: &SaveRef<'_>,
    prev: Option<&[u8]>,
) -> Result<Vec<u8>, StoreError> {
    let cannot = |e: serde_json::Error| io(path, format!("cannot serialize: {e}"));
    let mut bytes = serde_json::to_vec_pretty(save).map_err(cannot)?;
    if bytes.len() as u64 > limits.save {
        bytes = serde_json::to_vec(save).map_err(cannot)?;
    }
    if bytes.len() as u64 > limits.save {
        return Err(io(
            path,
            format!(
                "refusing to write a save of {} bytes, more than the {} kepi reads",
                bytes.len(),
                limits.save
            ),
        ));
    }
    // Never replace a good save with something that does not read back.
    let check: SaveFile = serde_json::from_slice(&bytes)
        .map_err(|e| io(path, format!("refusing to write an unreadable save: {e}")))?;
    if check.log.len() != save.log.len() {
        return Err(io(path, "refusing to write an incomplete save"));
    }
    if let Some(prev) = prev {
        keep_backup(path, prev)?;
    }
    write_atomic(path, &bytes)?;
    Ok(bytes)
}

/// Removes a game's files (save, journal, backup, lock): a game kept in kepi's folder that Save As
/// moved elsewhere. Best effort: whatever is left is a harmless copy of a game saved elsewhere.
pub fn remove_game_files(save: &Path) {
    for p in [
        save.to_path_buf(),
        journal_path(save),
        backup_path(save),
        sibling(save, ".lock"),
        running::marker_path(save),
    ] {
        let _ = std::fs::remove_file(p);
    }
}

/// A store's failure as the move language says it (`kepi game apply`): a refused action is the
/// umpire's to fix (exit 2), anything else a failure (exit 1).
impl From<StoreError> for crate::engine::verbs::MoveError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Action(a) => Self::refused(a.to_string()),
            other => Self::failed(other.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Two units, no rule set named.
    const SCENARIO: &str = r#"
name = "t"
title = "A store's test"
sides = ["german", "french"]

[[unit]]
id = "g1"
name = "German 1"
side = "german"
arm = "infantry"
strength = 20

[[unit]]
id = "f1"
name = "French 1"
side = "french"
arm = "infantry"
strength = 20
"#;

    /// A new game and its store in a fresh temp folder `kepi-store-NAME-PID`.
    fn new_stored_game(name: &str) -> (PathBuf, PathBuf, Game, Store) {
        let dir = std::env::temp_dir().join(format!("kepi-store-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let save = dir.join("g.json");
        // This crate is tested with no rule set: the game's is the registry's last resort,
        // registered so that the save reads back (the store keeps bytes, whatever the rules).
        let none = crate::registry::register(&crate::registry::Unregistered).unwrap();
        let sc = crate::roster::validate_scenarios(&[("t.toml", SCENARIO)])
            .unwrap()
            .remove(0);
        let game = Game::new(&sc, none, SeedSecret::new(1), chrono::Utc::now());
        let store = Store::create(&save, &game).unwrap();
        (dir, save, game, store)
    }

    /// Issue 29: 300 notes of 4 KB per call filled a 67 MB journal every command then refused.
    /// With the limits made small, the action that would pass the journal's is refused (not
    /// acknowledged, nothing appended), a save too large indented is written compact, and
    /// everything acknowledged opens.
    #[test]
    fn kepi_never_writes_a_journal_or_save_larger_than_it_reads() {
        use crate::engine::game::Action;
        use chrono::Utc;
        let (dir, save, mut game, mut store) = new_stored_game("limits");
        let journal = 256 * 1024;
        store.limits.journal = journal;
        let note = "x".repeat(4000);
        let mut acknowledged = 0;
        let refused = loop {
            let before = game.log().len();
            game.act(Action::Note { text: note.clone() }, Utc::now())
                .unwrap();
            let jlen = std::fs::metadata(journal_path(&save)).unwrap().len();
            match store.record(&game) {
                Ok(r) => {
                    assert_eq!(r.save_warning, None);
                    acknowledged += 1;
                }
                Err(e) => {
                    // Nothing of the refused action reached the journal.
                    assert_eq!(std::fs::metadata(journal_path(&save)).unwrap().len(), jlen);
                    game.rewind(before).unwrap();
                    break e.to_string();
                }
            }
            assert!(acknowledged < 1000, "never refused");
        };
        assert!(refused.contains("the action was not made"), "{refused}");
        assert!(acknowledged >= 10, "{acknowledged}");
        assert!(std::fs::metadata(journal_path(&save)).unwrap().len() <= journal);
        // Between the indented and the compact save's size: the compact one is written.
        let pretty = serde_json::to_vec_pretty(&SaveRef::of(&game))
            .unwrap()
            .len() as u64;
        let compact = serde_json::to_vec(&SaveRef::of(&game)).unwrap().len() as u64;
        assert!(compact < pretty);
        store.limits.save = (pretty + compact) / 2;
        store.compact(&game).unwrap();
        assert_eq!(std::fs::metadata(&save).unwrap().len(), compact);
        // Smaller than even the compact one: refused, and the journal still holds everything.
        store.limits.save = compact - 1;
        game.act(Action::Note { text: "y".into() }, Utc::now())
            .unwrap();
        assert!(store.compact(&game).is_err());
        drop(store);
        let opened = Store::open(&save).unwrap();
        assert_eq!(opened.game.log().len(), game.log().len());
        assert_eq!(opened.game.log().len(), acknowledged + 2);
        drop(opened);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The background writer's copy of the log, read from the save on disk, can be out of step
    /// (here: it has no copy at all): it writes nothing, and is then sent the whole log.
    #[test]
    fn a_background_writer_out_of_step_is_sent_the_whole_log_and_writes_nothing_wrong() {
        use crate::engine::game::Action;
        use chrono::Utc;
        let (dir, save, mut game, mut store) = new_stored_game("step");
        store.last_good = None;
        store.in_background();
        let mut warnings = Vec::new();
        for i in 0..2 * COMPACT_EVERY {
            game.act(
                Action::Note {
                    text: format!("n{i}"),
                },
                Utc::now(),
            )
            .unwrap();
            warnings.extend(store.record(&game).unwrap().save_warning);
        }
        assert_eq!(warnings, Vec::<String>::new(), "out of step is no failure");
        store.compact(&game).unwrap();
        assert_eq!(store.behind(), 0);
        let on_disk = parse_save(&std::fs::read(&save).unwrap(), "g").unwrap();
        assert_eq!(on_disk.head(), game.head());
        assert_eq!(on_disk.log().len(), game.log().len());
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn refused(v: serde_json::Value) -> String {
        migrate(v, "club/game.json")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    }

    #[test]
    fn a_missing_or_odd_version_is_refused_naming_the_file_and_the_accepted_versions() {
        for v in [
            json!({"format": FORMAT, "state": {}, "log": []}),
            json!({"format": FORMAT, "version": "1"}),
            json!({"format": FORMAT, "version": 1.0}),
            json!({"format": FORMAT, "version": -1}),
            json!({"format": FORMAT, "version": null}),
        ] {
            let e = refused(v);
            assert!(e.starts_with("club/game.json: "), "{e}");
            assert!(e.contains("accepted: 1, or 0"), "{e}");
        }
        assert!(refused(json!({"version": 2})).contains("newer"));
        assert!(refused(json!([1])).contains("not a kepi save"));
    }

    #[test]
    fn version_0_is_recognised_only_when_stated_and_keeps_its_seed() {
        let v = migrate(json!({"version": 0, "seed": 1870u64, "log": []}), "f").unwrap();
        assert_eq!(v["secret"], json!({"seed": 1870u64, "salt": ""}));
        assert_eq!(v["version"], 1);
        assert_eq!(v["format"], FORMAT);
        let v = migrate(json!({"version": 0, "log": []}), "f").unwrap();
        assert!(v["secret"].is_null(), "no seed to keep");
        for seed in [
            json!("1870"),
            json!(-3),
            json!(1.5),
            json!(null),
            json!({"seed": 1}),
        ] {
            let e = refused(json!({"version": 0, "seed": seed}));
            assert!(e.contains("`seed`") && e.contains("club/game.json"), "{e}");
        }
        let e = refused(json!({"version": 0, "secret": {"seed": 1, "salt": ""}}));
        assert!(e.contains("`secret`"), "{e}");
        // The current version passes through untouched.
        let cur = json!({"format": FORMAT, "version": VERSION, "secret": null});
        assert_eq!(migrate(cur.clone(), "f").unwrap(), cur);
    }
}
