//! Printing and export: club rosters (PDF), unit cards (PNG and PDF sheets), CSV and battle reports.
//!
//! Everything here is a pure function of the plain view model in [`model`], so the window, the command
//! line and the tests drive it the same way. Layout is done once, in millimetres, into a display list
//! (`draw::Op`) which two back ends render: krilla for PDF (embedded, subsetted DejaVu Sans, selectable
//! text) and a small rasteriser over `ab_glyph` for PNG. Files are written with [`write_atomic`], so a
//! failed export never leaves a partial file behind looking complete.

mod card;
mod csv;
mod draw;
pub mod from_game;
pub mod model;
mod pdf;
mod raster;
mod report;
mod roster;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

pub use card::{
    CARD_H_MM, CARD_W_MM, CardCtx, card_png, card_px, cards_pdf, cards_pdf_progress, cards_png_dir,
};
pub use csv::{csv_field, log_csv, text_field, units_csv};
pub use model::{
    Arm, CasualtyJson, GroupDoc, LogRowDoc, ReportDoc, ReportEntryJson, ReportJson, ResolutionDoc,
    RosterDoc, SideDoc, TurnDoc, UnitDoc,
};
pub use report::{report_html, report_pdf, report_pdf_progress};
pub use roster::{roster_page_count, roster_pdf, roster_pdf_progress};

/// An export that could not be made; file errors name the file.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// A file or folder could not be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file or folder the user asked for.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// The PDF library refused the document.
    #[error("PDF generation failed: {0}")]
    Pdf(String),
    /// PNG encoding failed.
    #[error("PNG encoding failed: {0}")]
    Png(String),
    /// The bundled font could not be read (a build problem, not a user one).
    #[error("bundled font unreadable: {0}")]
    Font(String),
    /// A parameter out of range (e.g. a DPI of 0).
    #[error("{0}")]
    Invalid(String),
    /// What to print could not be had: an unknown scenario, or a card file or save that is missing
    /// or broken (the message names it). Bad input, like [`ExportError::Invalid`].
    #[error("{0}")]
    Source(String),
}

/// Where a roster comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A built-in or installed scenario, by name.
    Scenario(String),
    /// A unit-card file (TOML) with an order of battle.
    Cards(PathBuf),
    /// A saved game: the current state, with losses and status.
    Save(PathBuf),
}

/// Turns sources into view models; implemented by the game session ([`from_game::GameDocs`]) and
/// by fakes in tests, so printing never depends on how scenarios and saves are read.
pub trait DocProvider {
    /// The roster of a scenario, a card file or a save.
    fn roster(&self, source: &Source) -> Result<RosterDoc, ExportError>;
    /// The log rows of a save (a scenario has an empty log).
    fn log(&self, source: &Source) -> Result<Vec<LogRowDoc>, ExportError>;
    /// The battle report of a save.
    fn report(&self, save: &Path) -> Result<ReportDoc, ExportError>;
}

/// Paper sizes for printed output.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Default,
    serde::Serialize,
    serde::Deserialize,
    clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum Paper {
    /// ISO A4, 210 x 297 mm.
    #[default]
    A4,
    /// US Letter, 8.5 x 11 in.
    Letter,
}

impl Paper {
    /// Every paper size.
    pub const ALL: [Paper; 2] = [Paper::A4, Paper::Letter];

    /// Width and height in millimetres, portrait.
    pub fn size_mm(self) -> (f32, f32) {
        match self {
            Paper::A4 => (210.0, 297.0),
            Paper::Letter => (215.9, 279.4),
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Paper::A4 => "a4",
            Paper::Letter => "letter",
        }
    }
}

impl std::fmt::Display for Paper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Paper {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Paper::ALL
            .into_iter()
            .find(|p| p.as_str().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown paper {s:?} (expected a4 or letter)"))
    }
}

/// A progress callback: `(done, total)`, called from whatever thread runs the export.
pub type Progress<'a> = &'a dyn Fn(usize, usize);

/// A progress callback that ignores progress.
pub fn no_progress(_done: usize, _total: usize) {}

/// Progress shared with another thread: the export's worker calls [`AtomicProgress::report`], the
/// window reads [`AtomicProgress::fraction`] each frame to draw a progress bar.
#[derive(Debug, Default)]
pub struct AtomicProgress {
    done: AtomicUsize,
    total: AtomicUsize,
}

impl AtomicProgress {
    /// Nothing done yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records progress; pass `&|d, t| p.report(d, t)` as a [`Progress`].
    pub fn report(&self, done: usize, total: usize) {
        self.total.store(total, Ordering::Relaxed);
        self.done.store(done, Ordering::Relaxed);
    }

    /// `(done, total)` as last reported.
    pub fn get(&self) -> (usize, usize) {
        (
            self.done.load(Ordering::Relaxed),
            self.total.load(Ordering::Relaxed),
        )
    }

    /// Done as a fraction in 0..=1 (0 before the first report).
    pub fn fraction(&self) -> f32 {
        let (d, t) = self.get();
        if t == 0 {
            0.0
        } else {
            (d as f32 / t as f32).clamp(0.0, 1.0)
        }
    }
}

/// Writes `bytes` to `path` atomically: into a temporary file in the same folder, flushed to disk,
/// then renamed over `path` (see [`kepi_game::fsio::write_atomic`]). Temps a killed kepi left for `path`
/// are removed first. A target that is a symbolic link, device, FIFO, socket or folder, or one of a
/// game's own files (save, journal, lock, seats, backup: [`kepi_game::fsio::game_file`]), is refused
/// and left as it is. On any failure the temporary file is removed and the error names `path`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), ExportError> {
    kepi_game::fsio::remove_stale_temps(path);
    write_atomic_no_tidy(path, bytes)
}

/// [`write_atomic`] without the tidying, for many files into one folder tidied once.
fn write_atomic_no_tidy(path: &Path, bytes: &[u8]) -> Result<(), ExportError> {
    kepi_game::fsio::write_output(path, bytes).map_err(|e| ExportError::Write {
        path: path.to_path_buf(),
        source: e.into_io(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_parses_and_prints() {
        for p in Paper::ALL {
            assert_eq!(p.to_string().parse::<Paper>(), Ok(p));
        }
        assert_eq!("A4".parse::<Paper>(), Ok(Paper::A4));
        assert!("a3".parse::<Paper>().is_err());
    }

    #[test]
    fn atomic_progress_fraction() {
        let p = AtomicProgress::new();
        assert_eq!(p.fraction(), 0.0);
        let f: Progress = &|d, t| p.report(d, t);
        f(1, 4);
        assert_eq!(p.get(), (1, 4));
        assert!((p.fraction() - 0.25).abs() < 1e-6);
    }

    #[test]
    fn write_atomic_replaces_and_leaves_no_temp() {
        let dir = std::env::temp_dir().join(format!("kepi-wa-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("out.txt");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        let names: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(names.len(), 1);
        let bad = dir.join("missing-sub").join("x.pdf");
        let e = write_atomic(&bad, b"x").unwrap_err();
        assert!(e.to_string().contains("missing-sub"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
