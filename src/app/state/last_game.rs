//! The game kepi had open last time ([`LastGame`]), found from the recent files and kepi's own
//! folder by file times alone, and offered when the window opens.

use std::path::{Path, PathBuf};

/// The game kepi had open last time, offered when the window opens on the demo battle.
#[derive(Clone, Debug, PartialEq)]
pub struct LastGame {
    /// Its save.
    pub path: PathBuf,
    /// Its journal was written after its save: kepi stopped before the save caught up, and opening
    /// the game recovers the actions the journal holds.
    pub needs_recovery: bool,
    /// kepi stopped without closing it: the "running" marker the window keeps beside an open
    /// game was left behind ([`kepi_game::store::running`]); its line (when and by which kepi it was
    /// opened).
    pub unclean: Option<String>,
}

impl LastGame {
    /// The most recent game in `recent` that still exists. Only file times are read (two `stat`
    /// calls), so this costs nothing at start; opening the game does the real recovery.
    pub fn find(recent: &[PathBuf]) -> Option<LastGame> {
        LastGame::find_with(recent, None)
    }

    /// [`LastGame::find`], also looking at the games kepi keeps in `data_dir` (games nobody saved
    /// to a file of their own): the newest of those wins over the recent list's first when it was
    /// played more recently, so a battle played without ever choosing a file is offered too.
    pub fn find_with(recent: &[PathBuf], data_dir: Option<&Path>) -> Option<LastGame> {
        let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        let touched = |p: &Path| modified(p).max(modified(&kepi_game::store::journal_path(p)));
        let mut best = recent.iter().find(|p| p.is_file()).cloned();
        // A game kepi stopped without closing comes first: the newest of those with their marker
        // left (read only where a marker stands: one `stat` per game).
        let left = |p: &Path| {
            kepi_game::fsio::present(&kepi_game::store::running::marker_path(p))
                .then(|| kepi_game::store::running::left_behind(p))
                .flatten()
        };
        let mut unclean: Option<(PathBuf, String)> = None;
        let consider = |p: &Path, unclean: &mut Option<(PathBuf, String)>| {
            if let Some(line) = left(p)
                && unclean
                    .as_ref()
                    .is_none_or(|(u, _)| touched(p) > touched(u))
            {
                *unclean = Some((p.to_path_buf(), line));
            }
        };
        for p in recent.iter().filter(|p| p.is_file()) {
            consider(p, &mut unclean);
        }
        if let Some(dir) = data_dir
            && let Ok(rd) = std::fs::read_dir(dir.join("games"))
        {
            for e in rd.flatten().take(10_000) {
                let p = e.path();
                let is_save = p
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().ends_with(".kepi.json"));
                if !is_save || !p.is_file() {
                    continue;
                }
                consider(&p, &mut unclean);
                if best.as_ref().is_none_or(|b| touched(&p) > touched(b)) {
                    best = Some(p);
                }
            }
        }
        if let Some((path, line)) = unclean {
            return Some(LastGame {
                path,
                needs_recovery: true,
                unclean: Some(line),
            });
        }
        let path = best?;
        let needs_recovery = match (
            modified(&kepi_game::store::journal_path(&path)),
            modified(&path),
        ) {
            (Some(j), Some(s)) => j > s,
            _ => false,
        };
        Some(LastGame {
            path,
            needs_recovery,
            unclean: None,
        })
    }
}
