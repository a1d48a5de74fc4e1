//! The five rule sets kepi ships, each in its own folder, as pure functions over plain data
//! (issue 45): Pickelhaube & Kepi (`pk`), Portable Wargame FPW (`pw`), Graveyard St. Privat
//! (`gsp`), SPI Franco-Prussian War (`spi`) and 1870 (`fr1870`); `board` is what SPI's and 1870's
//! forms, panels and verbs truly share (it names neither).
//!
//! Each set implements `kepi_game::registry::RuleSet` in its folder (`<set>/set.rs`) and declares
//! its id there (`pk::ID` ...). This crate sits on `kepi-game` and beside the front ends: nothing
//! in `kepi-game`, `kepi-cli` or `kepi-window` names it. kepi's binary builds the program with
//! [`BUILT_IN`] (`kepi_game::rule_sets!`, in `src/lib.rs`).

#![warn(missing_docs)]

pub mod board;
pub mod fr1870;
pub mod gsp;
pub mod pk;
pub mod pw;
pub mod spi;

use kepi_game::registry::RuleSet;
use kepi_game::rules::RuleSetId;

/// The five rule sets kepi ships, in menu order: what kepi's composition root (`src/lib.rs`)
/// builds the program with (`kepi_game::rule_sets!`). Adding one to kepi itself is one line here.
pub static BUILT_IN: [&dyn RuleSet; 5] = [
    &pk::set::PkRules,
    &pw::set::PwRules,
    &gsp::set::GspRules,
    &spi::set::SpiRules,
    &fr1870::set::FrRules,
];

/// The ids of the five rule sets kepi ships ([`BUILT_IN`]'s, in its order; each is declared in
/// its set's folder).
pub const ALL: [RuleSetId; 5] = [pk::ID, pw::ID, gsp::ID, spi::ID, fr1870::ID];

// This crate's unit tests are a program of their own: they are built with the five rule sets.
#[cfg(test)]
kepi_game::rule_sets!(&BUILT_IN);

#[cfg(test)]
mod played;

#[cfg(test)]
mod tests {
    use super::*;
    use kepi_game::registry::{RegisterError, builtin_tables, find, get, register};

    #[test]
    fn built_in_ids_match_the_system_constants() {
        let ids: Vec<&str> = BUILT_IN.iter().map(|r| r.id()).collect();
        let consts: Vec<&str> = ALL.iter().map(|s| s.id()).collect();
        assert_eq!(ids, consts);
        for s in ALL {
            assert_eq!(get(s).id(), s.id());
            assert_eq!(find(&s.id().to_uppercase()), Some(s));
        }
        assert_eq!(find("nope"), None);
    }

    #[test]
    fn every_built_in_rule_sets_table_reads_once() {
        let t = builtin_tables().unwrap();
        let files: Vec<&str> = t.files().collect();
        assert_eq!(
            files,
            ["pk.toml", "pw.toml", "gsp.toml", "spi.toml", "fr1870.toml"]
        );
        for r in BUILT_IN {
            assert!(r.table().is_some(), "{} has its table", r.id());
        }
    }

    #[test]
    fn a_taken_or_bad_id_is_refused() {
        assert_eq!(
            register(BUILT_IN[0]),
            Err(RegisterError::Taken("pk")),
            "a built-in rule set is not registered twice"
        );
    }
}
