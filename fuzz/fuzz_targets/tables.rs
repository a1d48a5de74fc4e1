//! Fuzz the rule-table parser: any input must give tables or a located error, never a panic.
//! Run: `cd fuzz && cargo +nightly fuzz run tables` (cargo-fuzz needs nightly).
#![no_main]

use kepi::tables::RuleTable;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(src) = std::str::from_utf8(data) {
        let _ = kepi::rules::pk::PkTables::from_source("fuzz.toml", src);
        let _ = kepi::rules::gsp::GspTables::from_source("fuzz.toml", src);
        let _ = kepi::rules::pw::PwTables::from_source("fuzz.toml", src);
        let _ = kepi::rules::spi::SpiTables::from_source("fuzz.toml", src);
        let _ = kepi::rules::fr1870::Fr1870Tables::from_source("fuzz.toml", src);
    }
});
