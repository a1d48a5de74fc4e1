//! Fuzz the save parser (any version, migration, log replay and hash check): any input must give a
//! game or an error naming the file, never a panic. Run: `cd fuzz && cargo +nightly fuzz run save`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = kepi::store::parse_save(data, "fuzz.kepi.json");
});
