//! Fuzz the unit-card and order-of-battle parser: any input must give a roster or an error naming
//! the file, never a panic. Run: `cd fuzz && cargo +nightly fuzz run cards`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(src) = std::str::from_utf8(data) {
        // No folder: image paths are checked for shape only, nothing on disk is read.
        let _ = kepi::roster::validate_roster("fuzz.toml", src, None);
    }
});
