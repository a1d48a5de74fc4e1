//! Every rule set's tables together, each found by its type: what a game, the command line and
//! the window are handed.
//!
//! Each rule set's tables are its own type in its folder (`rules/<set>/`), one TOML file read by
//! [`RuleTable`]. A rule set says which with `RuleSet::table` ([`TableFile::of`]); the registry
//! loads the files of the rule sets it has into one [`Tables`], and a rule set reads its own back
//! with [`Tables::get`]. Nothing here names a rule set, so a sixth one's table is loaded, checked
//! and overridden by `--tables DIR` like the five's (one-way layers, docs/ARCHITECTURE.md).

use std::any::{Any, TypeId};
use std::fmt;
use std::path::Path;
use std::sync::{Mutex, OnceLock};

use serde::Serialize;

use super::{Provenance, RuleTable, TableError, folder_source};

/// A loaded table, kept as the rule set's own type.
type Loaded = Box<dyn Any + Send + Sync>;

/// A rule set's table file: its name, its shipped text and how to read it as its type.
#[derive(Clone, Copy)]
pub struct TableFile {
    /// The file name inside `tables/` ("pk.toml").
    pub file: &'static str,
    /// The shipped text.
    pub builtin: &'static str,
    ty: fn() -> TypeId,
    load: fn(Option<&Path>) -> Result<Loaded, TableError>,
}

impl TableFile {
    /// The table file of the table type `T`.
    pub fn of<T: RuleTable + Send + Sync + 'static>() -> TableFile {
        TableFile {
            file: T::FILE,
            builtin: T::BUILTIN,
            ty: TypeId::of::<T>,
            load: |dir| T::load(dir).map(|t| Box::new(t) as Loaded),
        }
    }
}

impl fmt::Debug for TableFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TableFile({})", self.file)
    }
}

/// The tables of every rule set the registry has, each kept as its own type.
#[derive(Default)]
pub struct Tables {
    loaded: Vec<(TypeId, &'static str, Loaded)>,
}

impl fmt::Debug for Tables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.loaded.iter().map(|(_, file, _)| file))
            .finish()
    }
}

impl Tables {
    /// Loads the given table files, each from `dir` when it is there, else its built-in text. A
    /// file named twice is read once.
    pub fn load(files: &[TableFile], dir: Option<&Path>) -> Result<Tables, TableError> {
        let mut out = Tables::default();
        for f in files {
            let ty = (f.ty)();
            if out.loaded.iter().any(|(t, _, _)| *t == ty) {
                continue;
            }
            out.loaded.push((ty, f.file, (f.load)(dir)?));
        }
        Ok(out)
    }

    /// The table files these tables were read from, in order.
    pub fn files(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.loaded.iter().map(|(_, file, _)| *file)
    }

    /// A rule set's tables, by their type. Tables made by the registry hold every registered rule
    /// set's; a type they lack (a rule set registered after they were read) is its built-in text.
    ///
    /// # Panics
    ///
    /// Only when `T`'s built-in text, compiled into kepi, does not read: a bug the tests catch
    /// (every rule set's built-in table is read by `cargo test`).
    pub fn get<T: RuleTable + Send + Sync + 'static>(&self) -> &T {
        let ty = TypeId::of::<T>();
        self.loaded
            .iter()
            .find(|(t, _, _)| *t == ty)
            .and_then(|(_, _, v)| v.downcast_ref::<T>())
            .unwrap_or_else(|| builtin::<T>())
    }
}

/// The built-in tables of one type, read once and kept for the life of the program.
///
/// # Panics
///
/// Only when `T`'s built-in text, compiled into kepi, does not read (see [`Tables::get`]).
pub fn builtin<T: RuleTable + Send + Sync + 'static>() -> &'static T {
    type Kept = Vec<(TypeId, &'static (dyn Any + Send + Sync))>;
    static KEPT: OnceLock<Mutex<Kept>> = OnceLock::new();
    let ty = TypeId::of::<T>();
    let mut kept = KEPT
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(v) = kept
        .iter()
        .find(|(t, _)| *t == ty)
        .and_then(|(_, v)| v.downcast_ref::<T>())
    {
        return v;
    }
    let t: &'static T = match T::load(None) {
        Ok(t) => Box::leak(Box::new(t)),
        // The shipped text is kepi's own, read by the tests: not something a user can change.
        #[allow(
            clippy::panic,
            reason = "kepi's own compiled-in table, read by every test run"
        )]
        Err(e) => panic!("the built-in {} does not read: {e}", T::FILE),
    };
    kept.push((ty, t));
    t
}

/// What `kepi tables check` found in a folder.
#[derive(Clone, Debug, Serialize)]
pub struct TableReport {
    /// File name.
    pub file: String,
    /// Read from the folder (true) or the built-in default (false).
    pub from_folder: bool,
    /// Number of values by provenance, in the order seed, derived, house, unknown.
    pub values: [usize; 4],
}

/// Validates a folder: every table file in it must load; reports provenance counts per file.
pub fn check_dir(files: &[TableFile], dir: Option<&Path>) -> Result<Vec<TableReport>, TableError> {
    Tables::load(files, dir)?;
    let mut out = Vec::new();
    for f in files {
        let found = folder_source(dir, f.file)?;
        let from_folder = found.is_some();
        let src = found
            .map(|(_, s)| s)
            .unwrap_or_else(|| f.builtin.to_string());
        let mut values = [0usize; 4];
        for (i, p) in Provenance::ALL.iter().enumerate() {
            values[i] = count_provenance(&src, p.as_str());
        }
        out.push(TableReport {
            file: f.file.to_string(),
            from_folder,
            values,
        });
    }
    Ok(out)
}

/// Counts `provenance = "x"` entries in a TOML text (after it has parsed, so this is exact enough).
fn count_provenance(src: &str, word: &str) -> usize {
    let needle = format!("\"{word}\"");
    src.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .map(|l| {
            l.match_indices("provenance")
                .filter(|(i, _)| {
                    l[*i..]
                        .trim_start_matches("provenance")
                        .trim_start()
                        .trim_start_matches('=')
                        .trim_start()
                        .starts_with(&needle)
                })
                .count()
        })
        .sum()
}
