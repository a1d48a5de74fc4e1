//! Every rule set's tables together: what a game, the command line and the window are handed.
//!
//! Each rule set's tables are its own type in its folder (`rules/<set>/`), read from one TOML file
//! by [`crate::tables::RuleTable`]; this aggregate sits above the table machinery so that the
//! machinery never names a rule set (one-way layers, docs/ARCHITECTURE.md).

use std::path::Path;
use std::sync::OnceLock;

use serde::Serialize;

use crate::tables::{Provenance, RuleTable, TableError, folder_source};

/// All five rule sets' tables.
#[derive(Debug)]
pub struct Tables {
    /// Pickelhaube & Kepi.
    pub pk: crate::rules::pk::PkTables,
    /// Portable Wargame.
    pub pw: crate::rules::pw::PwTables,
    /// Graveyard St. Privat.
    pub gsp: crate::rules::gsp::GspTables,
    /// SPI Franco-Prussian War.
    pub spi: crate::rules::spi::SpiTables,
    /// 1870.
    pub fr1870: crate::rules::fr1870::Fr1870Tables,
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

impl Tables {
    /// Loads every table, overriding the built-ins with the files found in `dir`.
    pub fn load(dir: Option<&Path>) -> Result<Tables, TableError> {
        Ok(Tables {
            pk: RuleTable::load(dir)?,
            pw: RuleTable::load(dir)?,
            gsp: RuleTable::load(dir)?,
            spi: RuleTable::load(dir)?,
            fr1870: RuleTable::load(dir)?,
        })
    }

    /// The shipped tables, parsed once.
    pub fn builtin() -> Result<&'static Tables, TableError> {
        static BUILTIN: OnceLock<Result<Tables, TableError>> = OnceLock::new();
        BUILTIN
            .get_or_init(|| Tables::load(None))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The files and their shipped text, for `kepi tables check` and `kepi tables dump`.
    pub fn builtin_files() -> [(&'static str, &'static str); 5] {
        use crate::rules::{
            fr1870::Fr1870Tables, gsp::GspTables, pk::PkTables, pw::PwTables, spi::SpiTables,
        };
        [
            (PkTables::FILE, PkTables::BUILTIN),
            (PwTables::FILE, PwTables::BUILTIN),
            (GspTables::FILE, GspTables::BUILTIN),
            (SpiTables::FILE, SpiTables::BUILTIN),
            (Fr1870Tables::FILE, Fr1870Tables::BUILTIN),
        ]
    }

    /// Validates a folder: every table file in it must load; reports provenance counts per file.
    pub fn check_dir(dir: Option<&Path>) -> Result<Vec<TableReport>, TableError> {
        Tables::load(dir)?;
        let mut out = Vec::new();
        for (file, builtin) in Tables::builtin_files() {
            let found = folder_source(dir, file)?;
            let from_folder = found.is_some();
            let src = found.map(|(_, s)| s).unwrap_or_else(|| builtin.to_string());
            let mut values = [0usize; 4];
            for (i, p) in Provenance::ALL.iter().enumerate() {
                values[i] = count_provenance(&src, p.as_str());
            }
            out.push(TableReport {
                file: file.to_string(),
                from_folder,
                values,
            });
        }
        Ok(out)
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_tables_load() {
        Tables::builtin().unwrap();
    }
}
