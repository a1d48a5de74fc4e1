//! Issue 44: no command of kepi writes onto a game's own files (its save, journal, lock, seats
//! file, backup, or what recover set aside): it refuses with exit 2, naming the file and why, and
//! every file of the game is left byte for byte as it was.

use std::collections::BTreeMap;
use std::path::Path;

use super::common::{kepi, ok};

/// Every file in `dir`, by name, with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().to_string(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

fn refused(args: &[&str], file: &str) {
    let o = kepi(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(file), "{args:?} names {file}: {err}");
    assert!(
        err.contains("a game's own files"),
        "{args:?} says why: {err}"
    );
}

#[test]
fn exports_never_write_over_a_games_own_files() {
    let dir = super::common::tmp("own-files", "exports");
    let save = super::common::new_game(&dir, "mars-la-tour", "44");
    ok(&["game", "apply", &save, "note", "one", "note", "two"]);
    // A save on disk before the last one, so there is a backup (`.bak`).
    ok(&["game", "compact", &save]);
    ok(&["game", "apply", &save, "note", "three"]);
    ok(&["game", "compact", &save]);
    ok(&["game", "apply", &save, "note", "four"]);
    let journal = format!("{save}.journal");
    let lock = format!("{save}.lock");
    let bak = format!("{save}.bak");
    let seats = format!("{save}.seats");
    let set_aside = format!("{save}.journal.damaged");
    std::fs::write(
        &seats,
        "{\n  \"format\": \"kepi-seats\",\n  \"seats\": [],\n  \"key\": \"00\"\n}",
    )
    .unwrap();
    for p in [&journal, &lock, &bak, &seats] {
        assert!(Path::new(p).exists(), "{p}");
    }
    // Copies under other names are recognised by their content.
    let journal_copy = dir.join("notes.txt").display().to_string();
    std::fs::copy(&journal, &journal_copy).unwrap();
    let save_copy = dir.join("other.json").display().to_string();
    std::fs::copy(&save, &save_copy).unwrap();
    let before = snapshot(&dir);
    let sc = "mars-la-tour";
    refused(
        &["export", "csv", "--save", &save, "--units", &journal],
        &journal,
    );
    refused(&["export", "csv", "--save", &save, "--log", &save], &save);
    refused(&["report", &save, "--html", &journal], &journal);
    refused(&["report", &save, "--pdf", &seats], &seats);
    refused(&["report", &save, "--pdf", &save], &save);
    refused(&["report", &save, "--html", &set_aside], &set_aside);
    refused(&["cards", "--scenario", sc, "--pdf", &lock], &lock);
    refused(&["cards", "--scenario", sc, "--pdf", &journal], &journal);
    refused(&["roster", "print", "--save", &save, "--pdf", &bak], &bak);
    refused(
        &["roster", "print", "--scenario", sc, "--pdf", &save],
        &save,
    );
    refused(
        &["roster", "print", "--save", &save, "--pdf", &journal],
        &journal,
    );
    refused(
        &["export", "csv", "--save", &save, "--units", &journal_copy],
        &journal_copy,
    );
    refused(&["report", &save, "--html", &save_copy], &save_copy);
    refused(&["game", "share", &save, &journal], &journal);
    refused(&["game", "share", &save, &seats], &seats);
    // A new game is not made onto another's seats file, journal or set-aside copy either.
    for out in [&seats, &set_aside] {
        let o = kepi(&["game", "new", "--scenario", sc, "--out", out]);
        assert_ne!(o.status.code(), Some(0), "{out}");
    }
    assert_eq!(snapshot(&dir), before, "every file as it was");
    // Files that are no game's are written as ever, and a players' copy is replaced by the next.
    let csv = dir.join("units.csv").display().to_string();
    ok(&["export", "csv", "--save", &save, "--units", &csv]);
    let copy = dir.join("players.json").display().to_string();
    ok(&["game", "share", &save, &copy]);
    ok(&["game", "share", &save, &copy]);
    ok(&["log", "verify", &save]);
    assert_eq!(super::common::notes(&save), ["one", "two", "three", "four"]);
}

/// The same guard in the library the window's export dialog writes through.
#[test]
fn the_windows_writer_refuses_alike() {
    let dir = super::common::tmp("own-files", "library");
    let save = super::common::new_game(&dir, "mars-la-tour", "44");
    let journal = format!("{save}.journal");
    let before = snapshot(&dir);
    for p in [&save, &journal, &format!("{save}.lock")] {
        let e = kepi::export::write_atomic(Path::new(p), b"x").unwrap_err();
        assert!(e.to_string().contains("a game's own files"), "{e}");
    }
    assert_eq!(snapshot(&dir), before);
}
