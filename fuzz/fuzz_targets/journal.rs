//! Fuzz the journal parsers (JSON lines, torn last line, hash chain): the full reader and the tail
//! reader that opening a game uses. Any input must give a journal or an error naming the file and
//! line, never a panic. Run: `bash fuzz/run.sh journal 60`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = kepi::store::parse_journal(data, "fuzz.kepi.json.journal");
    // The tail from the start, from the middle and from beyond any entry.
    for from in [0, 3, usize::MAX] {
        let _ = kepi::store::parse_journal_tail(data, "fuzz.kepi.json.journal", from);
    }
});
