//! Files from outside are hostile: the one place kepi opens, reads and replaces files it was pointed at.
//!
//! A table folder, a card file or a save shared by another club may hold a symbolic link to
//! `/dev/zero`, a FIFO, a socket or a folder where a file was expected. Reading goes through
//! [`read_regular`]: it opens without blocking (a FIFO never hangs kepi), checks the *opened* handle
//! is a regular file (no device, FIFO, socket or folder is ever read) and enforces its size cap while
//! reading, never trusting the size on disk. A dangling link is an error naming the link, never a
//! silent "file absent". Writing goes through [`write_atomic`]: kepi never writes through a link or
//! over a device, FIFO or socket; it writes a recognisable temp file beside the target, fsyncs it and
//! renames it over, so a crash leaves the old file or the new one. [`remove_stale_temps`] tidies the
//! temps a killed kepi left behind. Errors are [`FsError`]s naming the file; callers convert them into
//! their own error types.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// What is wrong with a file kepi was asked to read or write.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FsProblem {
    /// Nothing is there.
    #[error("{what} not found")]
    Missing {
        /// What the file is for ("table file", "save").
        what: String,
    },
    /// A symbolic link whose target does not exist.
    #[error("is a symbolic link to a file that does not exist; a {what} must be a regular file")]
    Dangling {
        /// What the file is for.
        what: String,
    },
    /// A symbolic link where kepi never follows one (writes, a game's journal, lock and backup).
    #[error(
        "is a symbolic link; kepi never writes through links or over devices, and a {what} must be a regular file"
    )]
    Link {
        /// What the file is for.
        what: String,
    },
    /// A device, FIFO, socket or folder where a regular file was expected.
    #[error("is {kind}, not a regular file; a {what} must be a regular file")]
    NotRegular {
        /// What it is ("a FIFO (named pipe)", "a folder", "a character device").
        kind: &'static str,
        /// What the file is for.
        what: String,
    },
    /// A target kepi refuses to replace.
    #[error("is {kind}; kepi never writes through links or over devices, FIFOs or sockets")]
    NotReplaceable {
        /// What it is.
        kind: &'static str,
    },
    /// One of a game's own files (see [`game_file`]), which no output of kepi replaces.
    #[error(
        "is {what}; kepi never writes over a game's own files (save, journal, lock, seats, backup, running marker, or what `kepi game recover` set aside): choose another file"
    )]
    GameFile {
        /// What it is, in words ("the journal of the game g.json").
        what: String,
    },
    /// Larger than kepi reads for this kind of file.
    #[error("{what} is larger than {cap} bytes, the most kepi reads")]
    TooLarge {
        /// What the file is for.
        what: String,
        /// The cap in bytes.
        cap: u64,
    },
    /// Not UTF-8 text.
    #[error("line {line}, column {column}: not UTF-8 text; a {what} must be saved as UTF-8")]
    NotUtf8 {
        /// What the file is for.
        what: String,
        /// 1-based line of the first bad byte.
        line: usize,
        /// 1-based column (in characters) of the first bad byte.
        column: usize,
    },
    /// The operating system refused.
    #[error("cannot {action}: {message}")]
    Io {
        /// "read", "write", "open", "replace".
        action: &'static str,
        /// What the operating system said.
        message: String,
        /// Its kind, so callers keep exit codes and retries right.
        kind: std::io::ErrorKind,
    },
}

/// A file kepi refused or could not read or write: which file, and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}: {problem}", path.display())]
pub struct FsError {
    /// The file, as the user named it (a link is named, not its target).
    pub path: PathBuf,
    /// What was wrong.
    pub problem: FsProblem,
}

impl FsError {
    fn new(path: &Path, problem: FsProblem) -> FsError {
        FsError {
            path: path.to_path_buf(),
            problem,
        }
    }

    fn io(path: &Path, action: &'static str, e: &std::io::Error) -> FsError {
        FsError::new(
            path,
            FsProblem::Io {
                action,
                message: e.to_string(),
                kind: e.kind(),
            },
        )
    }

    /// The problem without the file name, for error types that keep the file in its own field.
    pub fn message(&self) -> String {
        self.problem.to_string()
    }

    /// The closest `std::io::ErrorKind`: refusals are `InvalidInput`, OS errors keep theirs.
    pub fn io_kind(&self) -> std::io::ErrorKind {
        match &self.problem {
            FsProblem::Io { kind, .. } => *kind,
            FsProblem::Missing { .. } | FsProblem::Dangling { .. } => std::io::ErrorKind::NotFound,
            _ => std::io::ErrorKind::InvalidInput,
        }
    }

    /// As a `std::io::Error` (for error types built around one); the message keeps the problem.
    pub fn into_io(self) -> std::io::Error {
        let kind = self.io_kind();
        match self.problem {
            FsProblem::Io { message, .. } => std::io::Error::new(kind, message),
            problem => std::io::Error::new(kind, problem.to_string()),
        }
    }
}

/// What a non-regular file is, in words.
fn kind_of(meta: &Metadata) -> &'static str {
    let ft = meta.file_type();
    if ft.is_dir() {
        return "a folder";
    }
    if ft.is_symlink() {
        return "a symbolic link";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if ft.is_char_device() {
            return "a character device";
        }
        if ft.is_block_device() {
            return "a block device";
        }
        if ft.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

fn not_regular(path: &Path, meta: &Metadata, what: &str) -> FsError {
    FsError::new(
        path,
        FsProblem::NotRegular {
            kind: kind_of(meta),
            what: what.to_string(),
        },
    )
}

/// Does anything (a file, a folder, a link, even a dangling one) sit at `path`? A present but
/// unreadable entry counts as there, so the reader reports it instead of falling back silently.
pub fn present(path: &Path) -> bool {
    match std::fs::symlink_metadata(path) {
        Ok(_) => true,
        Err(e) => e.kind() != std::io::ErrorKind::NotFound,
    }
}

/// Flags for opening a file kepi reads or appends to: never blocking (a FIFO with no writer would
/// hang the open), and, when `follow` is false, never through a symbolic link.
#[cfg(unix)]
fn hostile_flags(opts: &mut OpenOptions, follow: bool) {
    use std::os::unix::fs::OpenOptionsExt;
    let mut flags = libc::O_NONBLOCK;
    if !follow {
        flags |= libc::O_NOFOLLOW;
    }
    opts.custom_flags(flags);
}

#[cfg(not(unix))]
fn hostile_flags(_opts: &mut OpenOptions, _follow: bool) {}

/// Checks what sits at `path` before opening it: a dangling link, a link where none is followed, or
/// anything but a regular file is refused without opening it (opening some devices has effects).
fn precheck(path: &Path, what: &str, follow: bool) -> Result<(), FsError> {
    let lmeta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(FsError::new(
                path,
                FsProblem::Missing {
                    what: what.to_string(),
                },
            ));
        }
        Err(e) => return Err(FsError::io(path, "read", &e)),
    };
    if lmeta.file_type().is_symlink() {
        if !follow {
            return Err(FsError::new(
                path,
                FsProblem::Link {
                    what: what.to_string(),
                },
            ));
        }
        return match std::fs::metadata(path) {
            Ok(m) if m.is_file() => Ok(()),
            Ok(m) => Err(not_regular(path, &m, what)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(FsError::new(
                path,
                FsProblem::Dangling {
                    what: what.to_string(),
                },
            )),
            Err(e) => Err(FsError::io(path, "read", &e)),
        };
    }
    if !lmeta.is_file() {
        return Err(not_regular(path, &lmeta, what));
    }
    Ok(())
}

/// Maps an open error: `ELOOP` under `O_NOFOLLOW` is a link (it appeared after the check).
fn open_error(path: &Path, what: &str, action: &'static str, e: &std::io::Error) -> FsError {
    #[cfg(unix)]
    if e.raw_os_error() == Some(libc::ELOOP) {
        return FsError::new(
            path,
            FsProblem::Link {
                what: what.to_string(),
            },
        );
    }
    if e.kind() == std::io::ErrorKind::NotFound {
        return FsError::new(
            path,
            FsProblem::Missing {
                what: what.to_string(),
            },
        );
    }
    FsError::io(path, action, e)
}

/// Opens `path` for reading and checks the opened handle is a regular file.
fn open_for_read(path: &Path, what: &str, follow: bool) -> Result<(File, Metadata), FsError> {
    precheck(path, what, follow)?;
    let mut opts = OpenOptions::new();
    opts.read(true);
    hostile_flags(&mut opts, follow);
    let f = opts
        .open(path)
        .map_err(|e| open_error(path, what, "read", &e))?;
    // The entry may have been swapped between the check and the open: what counts is the handle.
    let meta = f.metadata().map_err(|e| FsError::io(path, "read", &e))?;
    if !meta.is_file() {
        return Err(not_regular(path, &meta, what));
    }
    Ok((f, meta))
}

fn read_capped(
    path: &Path,
    f: File,
    meta: &Metadata,
    cap: u64,
    what: &str,
) -> Result<Vec<u8>, FsError> {
    let too_large = || {
        FsError::new(
            path,
            FsProblem::TooLarge {
                what: what.to_string(),
                cap,
            },
        )
    };
    if meta.len() > cap {
        return Err(too_large());
    }
    // The size on disk only sizes the buffer; the cap is enforced on the bytes actually read.
    let mut buf = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    f.take(cap.saturating_add(1))
        .read_to_end(&mut buf)
        .map_err(|e| FsError::io(path, "read", &e))?;
    if buf.len() as u64 > cap {
        return Err(too_large());
    }
    Ok(buf)
}

/// Reads a regular file of at most `cap` bytes; `what` names its role in errors ("table file").
///
/// Symbolic links to regular files are followed; a dangling link, a device, FIFO, socket or folder
/// is refused with an error naming `path` and what it is, and nothing of it is read.
pub fn read_regular(path: &Path, cap: u64, what: &str) -> Result<Vec<u8>, FsError> {
    let (f, meta) = open_for_read(path, what, true)?;
    read_capped(path, f, &meta, cap, what)
}

/// Like [`read_regular`], but a symbolic link at `path` is refused too: for the files of a game
/// folder (journal, backup), which kepi writes and must never follow out of the folder.
pub fn read_regular_nofollow(path: &Path, cap: u64, what: &str) -> Result<Vec<u8>, FsError> {
    let (f, meta) = open_for_read(path, what, false)?;
    read_capped(path, f, &meta, cap, what)
}

/// Opens a file from outside to read it as a stream (a VASSAL module, read entry by entry):
/// links to regular files followed, never blocking, and only a regular file.
pub fn open_regular(path: &Path, what: &str) -> Result<File, FsError> {
    open_for_read(path, what, true).map(|(f, _)| f)
}

/// Opens a file of a game folder to read it as a stream (`kepi game recover` reads a journal of
/// any size line by line): never through a symbolic link, never blocking, and only a regular file.
pub fn open_regular_nofollow(path: &Path, what: &str) -> Result<File, FsError> {
    open_for_read(path, what, false).map(|(f, _)| f)
}

/// 1-based line and column of a byte offset.
pub fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(src.len());
    let before = &src[..src.floor_char_boundary(offset)];
    let line = before.matches('\n').count() + 1;
    let column = before
        .rsplit('\n')
        .next()
        .map(|l| l.chars().count())
        .unwrap_or(0)
        + 1;
    (line, column)
}

/// [`read_regular`] for text: the bytes must be UTF-8, else the error gives the line and column of
/// the first bad byte (and never echoes the file's content).
pub fn read_regular_string(path: &Path, cap: u64, what: &str) -> Result<String, FsError> {
    let bytes = read_regular(path, cap, what)?;
    String::from_utf8(bytes).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let before = std::str::from_utf8(bytes.get(..good).unwrap_or_default()).unwrap_or("");
        let (line, column) = line_col(before, before.len());
        FsError::new(
            path,
            FsProblem::NotUtf8 {
                what: what.to_string(),
                line,
                column,
            },
        )
    })
}

/// Opens a file of a game folder (journal, lock) with `opts`, never through a symbolic link and
/// never blocking, and checks the opened handle is a regular file.
pub fn open_nofollow(path: &Path, opts: &mut OpenOptions, what: &str) -> Result<File, FsError> {
    if let Ok(m) = std::fs::symlink_metadata(path) {
        if m.file_type().is_symlink() {
            return Err(FsError::new(
                path,
                FsProblem::Link {
                    what: what.to_string(),
                },
            ));
        }
        if !m.is_file() {
            return Err(not_regular(path, &m, what));
        }
    }
    hostile_flags(opts, false);
    let f = opts
        .open(path)
        .map_err(|e| open_error(path, what, "open", &e))?;
    let meta = f.metadata().map_err(|e| FsError::io(path, "open", &e))?;
    if !meta.is_file() {
        return Err(not_regular(path, &meta, what));
    }
    Ok(f)
}

/// Refuses to replace anything but a regular file (or nothing): a link, device, FIFO, socket or
/// folder at `path` is an error saying what it is.
pub fn check_replaceable(path: &Path) -> Result<(), FsError> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() || !m.is_file() => Err(FsError::new(
            path,
            FsProblem::NotReplaceable { kind: kind_of(&m) },
        )),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(FsError::io(path, "write", &e)),
    }
}

/// What one of a game's own files is: [`game_file`]'s answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameFile {
    /// A save: a journal (or a lock, with the save there) is beside it.
    Save,
    /// Recognised only by its content as a kepi save, with no journal or lock beside it: a
    /// game's save all the same, or a players' copy (`kepi game share` may replace its own).
    SaveByContent,
    /// A save's journal, lock, seats file, running marker, backup or a copy `kepi game recover`
    /// set aside, named by its suffix beside the save it belongs to, or recognised by its content.
    Beside {
        /// "journal", "lock", "seats file", "backup", "copy set aside by `kepi game recover`".
        role: &'static str,
        /// The save it belongs to, when it is beside one.
        save: Option<PathBuf>,
    },
}

impl GameFile {
    /// In words, for the refusal.
    pub fn describe(&self, path: &Path) -> String {
        match self {
            GameFile::Save => {
                let ext = if present(&with_suffix(path, ".journal")) {
                    ".journal"
                } else {
                    ".lock"
                };
                format!("a game's save (its {} is beside it)", name_with(path, ext))
            }
            GameFile::SaveByContent => "a kepi save (its content says so)".into(),
            GameFile::Beside {
                role,
                save: Some(save),
            } => format!("the {role} of the game {}", save.display()),
            GameFile::Beside { role, save: None } => format!("a kepi {role} (its content says so)"),
        }
    }
}

fn name_with(path: &Path, ext: &str) -> String {
    let mut s = path
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_default();
    s.push(ext);
    s.to_string_lossy().into_owned()
}

fn with_suffix(path: &Path, ext: &str) -> PathBuf {
    let mut s = path.as_os_str().to_os_string();
    s.push(ext);
    PathBuf::from(s)
}

/// The files kepi keeps beside a save `S`, by suffix: `S.journal`, `S.lock`, `S.seats`, `S.bak`
/// (and `S.bak.link`, a backup being made), `S.running` (the window has the game open), and what `kepi game recover` set aside: `S.damaged`,
/// `S.journal.damaged` and their numbered copies `S.damaged.2`, `S.journal.damaged.3`, ...
const BESIDE: [(&str, &str); 8] = [
    (
        ".journal.damaged",
        "journal set aside by `kepi game recover`",
    ),
    (".damaged", "save set aside by `kepi game recover`"),
    (".journal", "journal"),
    (".lock", "lock"),
    (".seats", "seats file"),
    (".running", "running marker"),
    (".bak.link", "backup"),
    (".bak", "backup"),
];

/// How much of an existing file [`game_file`] reads to recognise a kepi save or journal.
const SNIFF_BYTES: u64 = 64 * 1024;

/// What a file's first bytes say it is: a kepi journal (its first line is a seed or an entry
/// line), a kepi save (`"format": "kepi-save"`, or a first draft's `{"version": 0`), a seats file.
fn sniff(path: &Path) -> Option<GameFile> {
    let (f, _) = open_for_read(path, "file", false).ok()?;
    let mut buf = Vec::new();
    f.take(SNIFF_BYTES).read_to_end(&mut buf).ok()?;
    // Whitespace (and a byte-order mark an editor may have added) is no part of what it is.
    let bytes = buf.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&buf);
    let squeezed: Vec<u8> = bytes
        .iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    let journal = GameFile::Beside {
        role: "journal",
        save: None,
    };
    if squeezed.starts_with(b"{\"secret\":{") || squeezed.starts_with(b"{\"entry\":{") {
        return Some(journal);
    }
    if !squeezed.starts_with(b"{") {
        return None;
    }
    let has = |needle: &[u8]| squeezed.windows(needle.len()).any(|w| w == needle);
    if has(b"\"format\":\"kepi-seats\"") {
        return Some(GameFile::Beside {
            role: "seats file",
            save: None,
        });
    }
    if has(b"\"format\":\"kepi-save\"") || squeezed.starts_with(b"{\"version\":0") {
        return Some(GameFile::SaveByContent);
    }
    None
}

/// Whether `path` is one of a game's own files, which no output of kepi (an export, a players'
/// copy, a new game) may replace: writing over them lost whole games (issue 44), and while
/// `kepi serve` held the game it went on acknowledging actions into a journal that was gone.
///
/// A file is recognised by where it stands *and* by what it holds, so neither a renamed file nor
/// an odd name slips through:
/// - a save: `PATH.journal` is beside it, or `PATH.lock` with `PATH` there (every kepi that opens
///   a game makes both; a damaged save that no longer reads as one is still recognised);
/// - a file named as one kepi keeps beside a save (`S.journal`, `S.lock`, `S.seats`, `S.bak`,
///   `S.damaged`, `S.journal.damaged`, `S.damaged.2`, ...) while `S` or its journal is there,
///   even before that file exists (a journal or seats file the host will write);
/// - an existing file whose first bytes are a kepi journal, save or seats file, wherever it is
///   and whatever its name (a journal copied away, a save moved without its journal).
pub fn game_file(path: &Path) -> Option<GameFile> {
    if present(&with_suffix(path, ".journal"))
        || (present(path) && present(&with_suffix(path, ".lock")))
    {
        return Some(GameFile::Save);
    }
    if let Some(name) = path.file_name().and_then(|n| n.to_str()) {
        // `S.damaged.N`, `S.journal.damaged.N`: a numbered copy set aside.
        let unnumbered = match name.rsplit_once('.') {
            Some((head, n))
                if head.ends_with(".damaged")
                    && !n.is_empty()
                    && n.bytes().all(|b| b.is_ascii_digit()) =>
            {
                head
            }
            _ => name,
        };
        for (suffix, role) in BESIDE {
            let Some(stem) = unnumbered.strip_suffix(suffix) else {
                continue;
            };
            if stem.is_empty() {
                continue;
            }
            let save = path.with_file_name(stem);
            if present(&save) || present(&with_suffix(&save, ".journal")) {
                return Some(GameFile::Beside {
                    role,
                    save: Some(save),
                });
            }
        }
    }
    sniff(path)
}

/// Refuses a path that is one of a game's own files ([`game_file`]), naming it and what it is.
/// Every writer of a path a user named calls this (through [`write_output`], or itself when it
/// writes otherwise), so the window and the command line refuse alike.
pub fn refuse_game_file(path: &Path) -> Result<(), FsError> {
    match game_file(path) {
        Some(g) => Err(FsError::new(
            path,
            FsProblem::GameFile {
                what: g.describe(path),
            },
        )),
        None => Ok(()),
    }
}

/// Writes a file a user named (an export, a dumped table): [`refuse_game_file`], then
/// [`write_atomic`]. Only the store writes a game's own files, with [`write_atomic`] itself.
pub fn write_output(path: &Path, bytes: &[u8]) -> Result<(), FsError> {
    refuse_game_file(path)?;
    write_atomic(path, bytes)
}

/// The marker in every temp file kepi writes: `.NAME.kepi-tmp-PID-N`.
const TEMP_MARK: &str = ".kepi-tmp-";

fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Writes `bytes` to `path` atomically: a new temp file beside it (created exclusively, so an
/// existing file or link of that name is never followed), fsync, rename over `path`, fsync the
/// folder. A crash leaves the old file or the new one, never a mix; on failure the temp is removed.
/// Refuses when `path` is a symbolic link, device, FIFO, socket or folder (see [`check_replaceable`]).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), FsError> {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let Some(name) = path.file_name() else {
        return Err(FsError::new(
            path,
            FsProblem::Io {
                action: "write",
                message: "not a file name".into(),
                kind: std::io::ErrorKind::InvalidInput,
            },
        ));
    };
    check_replaceable(path)?;
    let dir = folder_of(path);
    let tmp = dir.join(format!(
        ".{}{TEMP_MARK}{}-{}",
        name.to_string_lossy(),
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let result = (|| {
        let mut f = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .map_err(|e| FsError::io(path, "write", &e))?;
        f.write_all(bytes)
            .map_err(|e| FsError::io(path, "write", &e))?;
        f.sync_all().map_err(|e| FsError::io(path, "write", &e))?;
        drop(f);
        // The target may have been swapped for a link or device since the check; refuse still.
        check_replaceable(path)?;
        std::fs::rename(&tmp, path).map_err(|e| FsError::io(path, "replace", &e))?;
        sync_dir(&dir);
        Ok(())
    })();
    if result.is_err() {
        // Best effort: the temp may not exist if creating it was what failed.
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Flushes a folder's entries (a rename or a new file) to disk; best effort.
pub fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

/// Is the process that wrote a temp still running? A live writer's temp is not stale.
fn writer_alive(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return false;
        };
        // SAFETY: kill with signal 0 sends nothing; it only asks whether the process exists.
        let r = unsafe { libc::kill(pid, 0) };
        r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
    }
    #[cfg(not(unix))]
    false
}

/// The writer's process id if `file_name` is a kepi temp for `target` (any target when `None`).
fn temp_pid(file_name: &str, target: Option<&str>) -> Option<u32> {
    let rest = file_name.strip_prefix('.')?;
    let i = rest.rfind(TEMP_MARK)?;
    let (base, tail) = (&rest[..i], &rest[i + TEMP_MARK.len()..]);
    if base.is_empty() || target.is_some_and(|t| t != base) {
        return None;
    }
    let (pid, n) = tail.split_once('-')?;
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    pid.parse().ok()
}

/// Deletes the temp files a killed kepi left behind: for a file, its own temps beside it; for a
/// folder, every kepi temp in it. Temps of a kepi still running are kept. Returns how many went.
pub fn remove_stale_temps(dir_or_file: &Path) -> usize {
    let is_dir = std::fs::symlink_metadata(dir_or_file).is_ok_and(|m| m.is_dir());
    let (dir, target) = if is_dir {
        (dir_or_file.to_path_buf(), None)
    } else {
        match dir_or_file.file_name() {
            Some(n) => (
                folder_of(dir_or_file),
                Some(n.to_string_lossy().to_string()),
            ),
            None => return 0,
        }
    };
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(pid) = temp_pid(name, target.as_deref()) else {
            continue;
        };
        // Only plain files: a folder or anything else under that name is not ours.
        let ours = entry
            .file_type()
            .is_ok_and(|t| t.is_file() || t.is_symlink());
        if ours && !writer_alive(pid) && std::fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// A JSON document read only to refuse an object that has the same key twice: serde_json keeps
/// the last silently when reading into a map or a `Value`, so `{"turn": 1, "turn": 9}` would read
/// as whichever an editor put last. `serde_json::from_slice::<NoDuplicateKeys>(bytes)` fails on the
/// first duplicate with its line and column.
pub struct NoDuplicateKeys;

impl<'de> serde::Deserialize<'de> for NoDuplicateKeys {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NoDuplicateKeysVisitor)
    }
}

struct NoDuplicateKeysVisitor;

impl<'de> serde::de::Visitor<'de> for NoDuplicateKeysVisitor {
    type Value = NoDuplicateKeys;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<NoDuplicateKeys, E> {
        Ok(NoDuplicateKeys)
    }

    fn visit_i64<E>(self, _: i64) -> Result<NoDuplicateKeys, E> {
        Ok(NoDuplicateKeys)
    }

    fn visit_u64<E>(self, _: u64) -> Result<NoDuplicateKeys, E> {
        Ok(NoDuplicateKeys)
    }

    fn visit_f64<E>(self, _: f64) -> Result<NoDuplicateKeys, E> {
        Ok(NoDuplicateKeys)
    }

    fn visit_str<E>(self, _: &str) -> Result<NoDuplicateKeys, E> {
        Ok(NoDuplicateKeys)
    }

    fn visit_unit<E>(self) -> Result<NoDuplicateKeys, E> {
        Ok(NoDuplicateKeys)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(
        self,
        mut seq: A,
    ) -> Result<NoDuplicateKeys, A::Error> {
        while seq.next_element::<NoDuplicateKeys>()?.is_some() {}
        Ok(NoDuplicateKeys)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(
        self,
        mut map: A,
    ) -> Result<NoDuplicateKeys, A::Error> {
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if seen.contains(&key) {
                return Err(serde::de::Error::custom(format!(
                    "the key `{key}` appears twice in one object"
                )));
            }
            map.next_value::<NoDuplicateKeys>()?;
            seen.insert(key);
        }
        Ok(NoDuplicateKeys)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("kepi-fsio-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn line_col_counts_from_one() {
        assert_eq!(line_col("ab\ncd", 4), (2, 2));
    }

    #[test]
    fn reads_a_regular_file_under_the_cap() {
        let d = tmp("ok");
        let p = d.join("a.toml");
        std::fs::write(&p, "x = 1\n").unwrap();
        assert_eq!(
            read_regular_string(&p, 100, "table file").unwrap(),
            "x = 1\n"
        );
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_file_over_the_cap_is_refused() {
        let d = tmp("cap");
        let p = d.join("big.toml");
        std::fs::write(&p, vec![b'a'; 11]).unwrap();
        let e = read_regular(&p, 10, "table file").unwrap_err();
        assert!(
            matches!(e.problem, FsProblem::TooLarge { cap: 10, .. }),
            "{e}"
        );
        assert!(e.to_string().contains("big.toml"), "{e}");
        assert_eq!(read_regular(&p, 11, "table file").unwrap().len(), 11);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn devices_folders_and_dangling_links_are_refused() {
        let d = tmp("kinds");
        let zero = d.join("zero.toml");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        let e = read_regular(&zero, 1 << 30, "table file").unwrap_err();
        assert!(e.to_string().contains("character device"), "{e}");
        assert!(e.to_string().contains("zero.toml"), "{e}");
        let e = read_regular(Path::new("/dev/null"), 10, "card file").unwrap_err();
        assert!(e.to_string().contains("character device"), "{e}");
        let e = read_regular(&d, 10, "table file").unwrap_err();
        assert!(e.to_string().contains("a folder"), "{e}");
        let dangling = d.join("gone.toml");
        std::os::unix::fs::symlink(d.join("nowhere"), &dangling).unwrap();
        let e = read_regular(&dangling, 10, "table file").unwrap_err();
        assert!(matches!(e.problem, FsProblem::Dangling { .. }), "{e}");
        assert!(e.to_string().contains("gone.toml"), "{e}");
        let real = d.join("real.toml");
        std::fs::write(&real, "ok").unwrap();
        let link = d.join("link.toml");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        assert_eq!(read_regular(&link, 10, "table file").unwrap(), b"ok");
        let e = read_regular_nofollow(&link, 10, "journal").unwrap_err();
        assert!(matches!(e.problem, FsProblem::Link { .. }), "{e}");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let d = tmp("fifo");
        let p = d.join("table.toml");
        let c = std::ffi::CString::new(p.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let (tx, rx) = std::sync::mpsc::channel();
        let p2 = p.clone();
        std::thread::spawn(move || {
            let _ = tx.send(read_regular(&p2, 100, "table file"));
        });
        let r = rx
            .recv_timeout(std::time::Duration::from_secs(5))
            .expect("reading a FIFO must not block");
        let e = r.unwrap_err();
        assert!(e.to_string().contains("FIFO"), "{e}");
        let e = open_nofollow(&p, OpenOptions::new().append(true), "journal").unwrap_err();
        assert!(e.to_string().contains("FIFO"), "{e}");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn non_utf8_is_located() {
        let d = tmp("utf8");
        let p = d.join("a.toml");
        std::fs::write(&p, b"ab\ncd\xffe").unwrap();
        let e = read_regular_string(&p, 100, "table file").unwrap_err();
        assert_eq!(
            e.problem,
            FsProblem::NotUtf8 {
                what: "table file".into(),
                line: 2,
                column: 3
            }
        );
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn write_atomic_refuses_links_and_devices() {
        let d = tmp("write");
        let real = d.join("real.txt");
        std::fs::write(&real, "old").unwrap();
        let link = d.join("link.txt");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let e = write_atomic(&link, b"new").unwrap_err();
        assert!(e.to_string().contains("never writes through links"), "{e}");
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read(&real).unwrap(), b"old");
        let dangling = d.join("dangling.txt");
        std::os::unix::fs::symlink(d.join("nowhere"), &dangling).unwrap();
        assert!(write_atomic(&dangling, b"x").is_err());
        assert!(!d.join("nowhere").exists());
        let e = write_atomic(Path::new("/dev/null"), b"x").unwrap_err();
        assert!(e.to_string().contains("character device"), "{e}");
        write_atomic(&real, b"new").unwrap();
        assert_eq!(std::fs::read(&real).unwrap(), b"new");
        let names: Vec<String> = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
            .collect();
        assert!(names.iter().all(|n| !n.contains(TEMP_MARK)), "{names:?}");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_games_own_files_are_known_by_their_place_and_their_content() {
        let d = tmp("own");
        let at = |n: &str| d.join(n);
        let save = at("g.json");
        std::fs::write(
            &save,
            "\u{feff}{\n  \"format\": \"kepi-save\",\n  \"version\": 1\n}",
        )
        .unwrap();
        assert_eq!(game_file(&save), Some(GameFile::SaveByContent));
        std::fs::write(at("g.json.journal"), "{\"secret\":{\"seed\":1}}\n").unwrap();
        assert_eq!(game_file(&save), Some(GameFile::Save));
        // Beside the save, by name, there or not yet.
        for name in [
            "g.json.journal",
            "g.json.lock",
            "g.json.seats",
            "g.json.running",
            "g.json.bak",
            "g.json.damaged",
            "g.json.journal.damaged",
            "g.json.damaged.3",
            "g.json.journal.damaged.12",
        ] {
            assert!(
                matches!(
                    game_file(&at(name)),
                    Some(GameFile::Beside { save: Some(_), .. })
                ),
                "{name}"
            );
        }
        // By content, whatever the name.
        std::fs::write(at("notes.txt"), "\n{\"entry\":{\"index\":0,\"x\":1}}\n").unwrap();
        std::fs::write(at("seats.bin"), "{ \"format\" : \"kepi-seats\" }").unwrap();
        std::fs::write(at("old.json"), "{\"version\": 0, \"seed\": 3}").unwrap();
        assert!(matches!(
            game_file(&at("notes.txt")),
            Some(GameFile::Beside { save: None, .. })
        ));
        assert!(matches!(
            game_file(&at("seats.bin")),
            Some(GameFile::Beside { save: None, .. })
        ));
        assert_eq!(game_file(&at("old.json")), Some(GameFile::SaveByContent));
        // Not a game's.
        std::fs::write(at("report.html"), "<html>kepi-save</html>").unwrap();
        std::fs::write(at("data.json"), "{\"format\": \"csv\"}").unwrap();
        for name in [
            "report.html",
            "data.json",
            "out.csv",
            "g.json.pdf",
            "h.damaged",
            "g.json.damaged.x",
        ] {
            assert_eq!(game_file(&at(name)), None, "{name}");
        }
        let e = write_output(&at("g.json.seats"), b"x").unwrap_err();
        assert!(e.to_string().contains("the seats file of the game"), "{e}");
        assert_eq!(e.io_kind(), std::io::ErrorKind::InvalidInput);
        assert!(!at("g.json.seats").exists());
        write_output(&at("out.csv"), b"a,b").unwrap();
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn stale_temps_of_dead_writers_are_removed() {
        let d = tmp("stale");
        let target = d.join("g.json");
        // A pid far above any pid_max: no such process.
        let dead = d.join(".g.json.kepi-tmp-2000000000-0");
        let other = d.join(".h.json.kepi-tmp-2000000000-0");
        let live = d.join(format!(".g.json.kepi-tmp-{}-7", std::process::id()));
        let unrelated = d.join(".g.json.tmp");
        for p in [&dead, &other, &live, &unrelated] {
            std::fs::write(p, "x").unwrap();
        }
        assert_eq!(remove_stale_temps(&target), 1);
        assert!(!dead.exists() && other.exists() && live.exists() && unrelated.exists());
        assert_eq!(remove_stale_temps(&d), 1);
        assert!(!other.exists() && live.exists());
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn temp_names_parse() {
        assert_eq!(temp_pid(".a.b.kepi-tmp-12-3", Some("a.b")), Some(12));
        assert_eq!(temp_pid(".a.b.kepi-tmp-12-3", Some("a")), None);
        assert_eq!(temp_pid(".a.kepi-tmp-12-", None), None);
        assert_eq!(temp_pid("a.kepi-tmp-12-3", None), None);
    }
}
