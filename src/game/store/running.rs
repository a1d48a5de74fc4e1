//! The "running" marker beside a save the window has open or a host serves (`FILE.running`):
//! written when the game is opened (a host: when it starts serving, `kepi_middle::net::host::Host::serve`,
//! in the window or `kepi serve`), removed when it is closed cleanly (another game opened, the
//! window closed, the host stopped by its button or a signal). One left
//! behind says kepi stopped without closing (killed, the machine off, a crash), so the next start
//! says so and offers "Recover and open" (issue 46: the README said it did; after `kill -9` it did
//! not, since the journal and the save could both be up to date).
//!
//! The marker is a game's own file (`crate::fsio` refuses any output onto it); it is written only
//! as a new regular file, never through a symbolic link and never over another file that is there
//! (a game's save, journal or anything else): then no marker is kept and nothing is said.

use std::fs::OpenOptions;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The marker's suffix after the save's name.
pub const SUFFIX: &str = ".running";

/// At most this much of a marker is read (it holds one line).
const MAX_MARKER_BYTES: u64 = 1024;

/// The marker beside `save`.
pub fn marker_path(save: &Path) -> PathBuf {
    super::sibling(save, SUFFIX)
}

/// A marker this kepi wrote: removed when dropped, unless the thread is panicking (a crash is
/// not a clean stop), or by [`Running::clear`].
#[derive(Debug)]
pub struct Running {
    path: PathBuf,
}

impl Running {
    /// Writes the marker beside `save`: when it was opened and by which process. None (and
    /// nothing written) when something is at the marker's path already (a leftover marker is
    /// replaced only when it is a regular file and a marker), or it cannot be written.
    pub fn mark(save: &Path) -> Option<Running> {
        let path = marker_path(save);
        if let Ok(m) = std::fs::symlink_metadata(&path) {
            // A marker left by a kepi that stopped: the game is open again, so it is this one's.
            let leftover =
                m.is_file() && !m.file_type().is_symlink() && read_marker(&path).is_some();
            if !leftover || std::fs::remove_file(&path).is_err() {
                return None;
            }
        }
        // Never a marker onto one of a game's own files, even under this name.
        if crate::fsio::game_file(&path).is_some_and(|g| !is_marker_role(&g)) {
            return None;
        }
        let mut opts = OpenOptions::new();
        opts.write(true).create_new(true);
        let mut f = crate::fsio::open_nofollow(&path, &mut opts, "running marker").ok()?;
        let line = format!(
            "kepi {} (process {}) opened this game at {}\n",
            env!("CARGO_PKG_VERSION"),
            std::process::id(),
            chrono::Utc::now().format("%Y-%m-%d %H:%M UTC")
        );
        if f.write_all(line.as_bytes())
            .and_then(|()| f.sync_all())
            .is_err()
        {
            drop(f);
            let _ = std::fs::remove_file(&path);
            return None;
        }
        Some(Running { path })
    }

    /// Removes the marker: the game was closed cleanly.
    pub fn clear(self) {
        let _ = std::fs::remove_file(&self.path);
        std::mem::forget(self);
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Whether `g` is what [`crate::fsio::game_file`] calls a marker beside its save.
fn is_marker_role(g: &crate::fsio::GameFile) -> bool {
    matches!(g, crate::fsio::GameFile::Beside { role, .. } if *role == "running marker")
}

/// What a marker left beside `save` says (its one line), when there is one and no kepi holds the
/// game now: kepi stopped without closing it. Read without following a link and at most a
/// kilobyte. A game open in another kepi (its lock held) has a marker that is no leftover.
pub fn left_behind(save: &Path) -> Option<String> {
    let line = read_marker(&marker_path(save))?;
    (!held_elsewhere(save)).then_some(line)
}

/// Whether a kepi holds `save`'s lock now (the lock file is opened, never made, and let go at
/// once).
fn held_elsewhere(save: &Path) -> bool {
    let mut opts = OpenOptions::new();
    opts.read(true).write(true);
    let Ok(f) = crate::fsio::open_nofollow(&super::sibling(save, ".lock"), &mut opts, "lock file")
    else {
        return false;
    };
    matches!(f.try_lock(), Err(std::fs::TryLockError::WouldBlock))
}

fn read_marker(path: &Path) -> Option<String> {
    let f = crate::fsio::open_regular_nofollow(path, "running marker").ok()?;
    let mut text = String::new();
    f.take(MAX_MARKER_BYTES).read_to_string(&mut text).ok()?;
    let line = text.lines().next()?.trim();
    line.starts_with("kepi ").then(|| line.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("kepi-running-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_marker_is_removed_on_a_clean_close_and_left_by_a_stop() {
        let d = dir("clean");
        let save = d.join("g.json");
        std::fs::write(&save, b"{}").unwrap();
        let m = Running::mark(&save).unwrap();
        assert!(left_behind(&save).is_some_and(|l| l.contains("opened this game at")));
        drop(m);
        assert_eq!(left_behind(&save), None, "a clean close removes it");
        let m = Running::mark(&save).unwrap();
        std::mem::forget(m); // as kill -9 leaves it
        assert!(left_behind(&save).is_some());
        // Opened again: the leftover becomes this kepi's marker.
        let m = Running::mark(&save).unwrap();
        m.clear();
        assert!(!marker_path(&save).exists());
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn never_through_a_link_nor_over_another_file() {
        let d = dir("link");
        let save = d.join("g.json");
        std::fs::write(&save, b"{}").unwrap();
        // Something else at the marker's name is never replaced.
        std::fs::write(marker_path(&save), b"the club's notes").unwrap();
        assert!(Running::mark(&save).is_none());
        assert_eq!(
            std::fs::read(marker_path(&save)).unwrap(),
            b"the club's notes"
        );
        std::fs::remove_file(marker_path(&save)).unwrap();
        #[cfg(unix)]
        {
            let target = d.join("elsewhere");
            std::os::unix::fs::symlink(&target, marker_path(&save)).unwrap();
            assert!(Running::mark(&save).is_none());
            assert!(!target.exists(), "nothing written through the link");
            assert_eq!(left_behind(&save), None);
        }
        let _ = std::fs::remove_dir_all(&d);
    }
}
