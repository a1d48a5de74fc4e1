//! Fuzz the journal parser (JSON lines, torn last line, hash chain): any input must give a journal
//! or an error naming the file and line, never a panic.
//! Run: `cd fuzz && cargo +nightly fuzz run journal`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = kepi::store::parse_journal(data, "fuzz.kepi.json.journal");
});
