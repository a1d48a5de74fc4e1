//! Saves that lose nothing: an atomic JSON save, an append-only journal, recovery and migration.
//!
//! A game lives in three files beside each other:
//! - `FILE` — the save: `{"format": "kepi-save", "version": 1, "secret", "state", "log"}`, written
//!   atomically (temp file in the same folder, fsync, rename, fsync the folder);
//! - `FILE.journal` — JSON lines, appended and fsynced *before* an action is reported done: a first
//!   line with the seed secret, then one line per log entry (each carrying its chained hash);
//! - `FILE.bak` — the previous good save.
//!
//! On open, the save is parsed (a clear error names the file, line and column where it breaks), its
//! log is replayed and must reproduce its state, and any journal entries beyond the save are replayed
//! and reported (recovery). A torn last journal line (a write cut off by a crash, never acknowledged)
//! is ignored with a warning. A save that does not load is never overwritten: `recover` rebuilds the
//! game from the journal (or the backup) instead. Files are size-limited and hold no paths kepi
//! would follow, so a save shared by another club cannot make kepi read or write elsewhere.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::game::{Game, GameState, LogEntry, SeedSecret, verify_chain_from};
use crate::roster::check_image_path;

/// The format name in every save.
pub const FORMAT: &str = "kepi-save";
/// The save format version this kepi writes.
pub const VERSION: u32 = 1;
/// Largest save or journal kepi reads.
pub const MAX_SAVE_BYTES: u64 = 64 * 1024 * 1024;

/// A save file's content.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SaveFile {
    /// Always "kepi-save".
    pub format: String,
    /// Format version ([`VERSION`]).
    pub version: u32,
    /// The seed of kepi's dice and its salt (not part of the log until revealed).
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
    Action(#[from] crate::game::ActionError),
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
fn lock(save: &Path) -> Result<File, StoreError> {
    if let Ok(m) = std::fs::metadata(save)
        && !m.is_file()
    {
        return Err(io(save, "is not a regular file (a game is kept in a file)"));
    }
    let lp = sibling(save, ".lock");
    let f = crate::fsio::open_nofollow(
        &lp,
        OpenOptions::new().create(true).truncate(false).write(true),
        "lock file",
    )
    .map_err(fs_err)?;
    match f.try_lock() {
        Ok(()) => Ok(f),
        Err(std::fs::TryLockError::WouldBlock) => Err(io(
            save,
            "is open in another kepi (the window, or a command still running); close it and try again",
        )),
        Err(std::fs::TryLockError::Error(e)) => Err(io(&lp, e)),
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

/// Migrates an older save's JSON to the current version, one step at a time.
///
/// Version 0 (kepi's first drafts) kept the seed as a bare `"seed"` number, with no salt and no
/// `format` field; version 1 keeps `{"secret": {"seed", "salt"}}`. A v0 commitment was made with an
/// empty salt, so the migrated secret has `salt: ""`.
pub fn migrate(mut v: serde_json::Value, file: &str) -> Result<serde_json::Value, StoreError> {
    let version = v.get("version").and_then(|x| x.as_u64()).unwrap_or(0);
    if version > u64::from(VERSION) {
        return Err(StoreError::TooNew {
            file: file.into(),
            found: version,
        });
    }
    if version == 0 {
        let Some(m) = v.as_object_mut() else {
            return Err(StoreError::Invalid {
                file: file.into(),
                message: "not a kepi save (expected a JSON object)".into(),
            });
        };
        let seed = m.remove("seed");
        m.insert(
            "secret".into(),
            match seed {
                Some(s) if s.is_u64() => serde_json::json!({ "seed": s, "salt": "" }),
                _ => serde_json::Value::Null,
            },
        );
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

/// One line of the journal.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum JournalLine {
    /// The seed secret (first line).
    Secret(SeedSecret),
    /// A log entry.
    Entry(LogEntry),
}

/// A journal as read: its secret, its entries, and where the good bytes end.
#[derive(Clone, Debug, Default)]
pub struct Journal {
    /// The seed secret, if the journal has it.
    pub secret: Option<SeedSecret>,
    /// The entries, in order, with their chain checked.
    pub entries: Vec<LogEntry>,
    /// Bytes up to the end of the last complete line.
    pub good_len: u64,
    /// Warnings (a torn last line).
    pub warnings: Vec<String>,
}

/// Reads a journal. A missing file is an empty journal. A torn last line (no newline, unparsable) is
/// ignored with a warning; any other bad line is an error naming the line and byte offset.
pub fn read_journal(path: &Path) -> Result<Journal, StoreError> {
    // A dangling link is not "no journal": it is refused, like any link in a game folder.
    if !crate::fsio::present(path) {
        return Ok(Journal::default());
    }
    let bytes = read_folder_file(path, "journal")?;
    parse_journal(&bytes, &path.display().to_string())
}

/// Parses a journal's bytes (`file` names it in errors); see [`read_journal`]. The fuzz target and
/// the malformed corpus call this directly.
pub fn parse_journal(bytes: &[u8], file: &str) -> Result<Journal, StoreError> {
    let file = file.to_string();
    let mut j = Journal::default();
    let mut offset = 0usize;
    let mut line_no = 0usize;
    while offset < bytes.len() {
        line_no += 1;
        let rest = bytes.get(offset..).unwrap_or_default();
        let (line, complete) = match rest.iter().position(|&b| b == b'\n') {
            Some(i) => (rest.get(..i).unwrap_or_default(), true),
            None => (rest, false),
        };
        let next = offset + line.len() + usize::from(complete);
        if line.iter().all(|b| b.is_ascii_whitespace()) {
            offset = next;
            if complete {
                j.good_len = next as u64;
            }
            continue;
        }
        match serde_json::from_slice::<JournalLine>(line) {
            Ok(_) if !complete => {
                j.warnings.push(format!(
                    "{file}: line {line_no} (byte {offset}) has no end of line: an interrupted write, ignored"
                ));
                break;
            }
            Ok(JournalLine::Secret(s)) => j.secret = Some(s),
            Ok(JournalLine::Entry(e)) => j.entries.push(e),
            Err(_) if !complete => {
                j.warnings.push(format!(
                    "{file}: line {line_no} (byte {offset}) is incomplete (an interrupted write, never acknowledged) and was ignored"
                ));
                break;
            }
            Err(e) => {
                return Err(StoreError::Corrupt {
                    file,
                    line: line_no,
                    column: offset,
                    message: format!("journal line {line_no} (byte {offset}) is damaged: {e}"),
                    hint: String::new(),
                });
            }
        }
        offset = next;
        j.good_len = next as u64;
    }
    if let Some(first) = j.entries.first() {
        let start = first.index;
        verify_chain_from(&j.entries, start, &first.prev).map_err(|b| StoreError::Invalid {
            file: file.clone(),
            message: format!(
                "journal chain broken at log entry {}: {}",
                b.index, b.reason
            ),
        })?;
    }
    Ok(j)
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
    /// Warnings (torn journal line).
    pub warnings: Vec<String>,
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
}

impl Store {
    /// The save's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Creates a new game file; refuses to overwrite an existing save.
    pub fn create(path: &Path, game: &Game) -> Result<Store, StoreError> {
        let path = &real_save_path(path)?;
        let held = lock(path)?;
        crate::fsio::remove_stale_temps(path);
        if path.exists() {
            return Err(io(
                path,
                "already exists; choose another file (kepi never overwrites a game)",
            ));
        }
        let jp = journal_path(path);
        if jp.exists() {
            std::fs::remove_file(&jp).map_err(|e| io(&jp, e))?;
        }
        let mut store = Store {
            _lock: held,
            path: path.to_path_buf(),
            journal_entries: 0,
            journal_good_len: 0,
            has_secret_line: false,
            last_good: None,
        };
        store.record(game)?;
        Ok(store)
    }

    /// Opens a game file, recovering journal entries newer than the save.
    pub fn open(path: &Path) -> Result<Opened, StoreError> {
        let path = &real_save_path(path)?;
        let file = path.display().to_string();
        let held = lock(path)?;
        crate::fsio::remove_stale_temps(path);
        let bytes = read_bytes_limited(path)?;
        let mut game = parse_save(&bytes, &file)?;
        let jp = journal_path(path);
        let journal = read_journal(&jp)?;
        let saved = game.log().len();
        let mut recovered = 0;
        let jfile = jp.display().to_string();
        if let Some(first) = journal.entries.first() {
            let start = first.index as usize;
            // The journal must agree with the save where they overlap.
            for e in &journal.entries {
                let i = e.index as usize;
                if i < saved {
                    if game.log().get(i).map(|s| &s.hash) != Some(&e.hash) {
                        return Err(StoreError::Invalid {
                            file: jfile,
                            message: format!(
                                "journal entry {i} differs from the save's: this journal belongs to another game (move it away to open the save)"
                            ),
                        });
                    }
                } else {
                    game.replay(e.clone()).map_err(|err| StoreError::Invalid {
                        file: jfile.clone(),
                        message: format!("cannot recover: {err}"),
                    })?;
                    recovered += 1;
                }
            }
            if start > saved {
                return Err(StoreError::Invalid {
                    file: jfile,
                    message: format!(
                        "journal starts at entry {start}, after the save's last ({saved})"
                    ),
                });
            }
        }
        let mut store = Store {
            _lock: held,
            path: path.to_path_buf(),
            journal_entries: journal
                .entries
                .last()
                .map(|e| e.index as usize + 1)
                .unwrap_or(0),
            journal_good_len: journal.good_len,
            has_secret_line: journal.secret.is_some() || journal.good_len > 0,
            last_good: Some(bytes),
        };
        if recovered > 0 {
            store.record(&game)?;
        }
        Ok(Opened {
            game,
            store,
            recovered,
            warnings: journal.warnings,
        })
    }

    /// Records the game's new log entries: appends them to the journal and fsyncs it, then writes
    /// the save atomically (keeping the previous one as `.bak`). When this returns Ok, nothing is
    /// lost whatever happens next.
    pub fn record(&mut self, game: &Game) -> Result<(), StoreError> {
        let jp = journal_path(&self.path);
        let new: Vec<&LogEntry> = game.log().iter().skip(self.journal_entries).collect();
        if !new.is_empty() || !self.has_secret_line {
            let mut f = crate::fsio::open_nofollow(
                &jp,
                OpenOptions::new().create(true).append(true),
                "journal",
            )
            .map_err(fs_err)?;
            let len = f.metadata().map(|m| m.len()).map_err(|e| io(&jp, e))?;
            if len > self.journal_good_len {
                // A torn line from an interrupted write: cut it off before appending.
                f.set_len(self.journal_good_len).map_err(|e| io(&jp, e))?;
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
                serde_json::to_writer(&mut buf, &JournalLine::Entry((*e).clone()))
                    .map_err(|e| io(&jp, e))?;
                buf.push(b'\n');
            }
            f.write_all(&buf).map_err(|e| io(&jp, e))?;
            f.sync_all().map_err(|e| io(&jp, e))?;
            if len == 0
                && let Some(d) = jp.parent()
            {
                sync_dir(d);
            }
            self.journal_good_len = self.journal_good_len.min(len) + buf.len() as u64;
            self.journal_entries = game.log().len();
            self.has_secret_line = true;
        }
        let bytes = serde_json::to_vec_pretty(&SaveRef::of(game))
            .map_err(|e| io(&self.path, format!("cannot serialize: {e}")))?;
        // Never replace a good save with something that does not read back.
        let check: SaveFile = serde_json::from_slice(&bytes).map_err(|e| {
            io(
                &self.path,
                format!("refusing to write an unreadable save: {e}"),
            )
        })?;
        if check.log.len() != game.log().len() {
            return Err(io(&self.path, "refusing to write an incomplete save"));
        }
        if let Some(prev) = &self.last_good {
            keep_backup(&self.path, prev)?;
        }
        write_atomic(&self.path, &bytes)?;
        self.last_good = Some(bytes);
        Ok(())
    }
}

/// Rebuilds a damaged save from its journal (or, failing that, its `.bak` plus the journal). The
/// damaged file is kept as `FILE.damaged`. Returns the game and where it came from.
pub fn recover(path: &Path) -> Result<(Game, String), StoreError> {
    let path = &real_save_path(path)?;
    let held = lock(path)?;
    crate::fsio::remove_stale_temps(path);
    let jp = journal_path(path);
    let journal = read_journal(&jp)?;
    let from_journal = if journal.entries.first().map(|e| e.index) == Some(0) {
        Game::from_log(journal.entries.clone(), journal.secret.clone())
            .map(|g| {
                (
                    g,
                    format!(
                        "rebuilt from {} ({} entries)",
                        jp.display(),
                        journal.entries.len()
                    ),
                )
            })
            .ok()
    } else {
        None
    };
    let (game, how) = match from_journal {
        Some(x) => x,
        None => {
            let bak = backup_path(path);
            let bytes = read_folder_file(&bak, "backup")?;
            let mut g = parse_save(&bytes, &bak.display().to_string())?;
            let mut n = 0;
            let saved = g.log().len();
            for e in journal.entries.iter().filter(|e| e.index as usize >= saved) {
                if g.replay(e.clone()).is_err() {
                    break;
                }
                n += 1;
            }
            (
                g,
                format!("restored from {} and {n} journal entries", bak.display()),
            )
        }
    };
    if path.exists() {
        let damaged = sibling(path, ".damaged");
        std::fs::rename(path, &damaged).map_err(|e| io(path, e))?;
    }
    let mut store = Store {
        _lock: held,
        path: path.to_path_buf(),
        journal_entries: journal
            .entries
            .last()
            .map(|e| e.index as usize + 1)
            .unwrap_or(0),
        journal_good_len: journal.good_len,
        has_secret_line: journal.secret.is_some(),
        last_good: None,
    };
    store.record(&game)?;
    Ok((game, how))
}
