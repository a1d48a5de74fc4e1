//! Issue 29, "acknowledged data lost or hidden": a journal damaged by one copied line is reported by
//! every reader (never read as "no more entries") and `recover` keeps every acknowledged action; a
//! closed or full stdout never stops `kepi game apply` halfway or reports an action that stood as
//! failed; a file that is not a game gets no lock file; a backup's leftover link is cleared.

use std::path::Path;
use std::process::{Command, Stdio};

use super::common::{bin, kepi, new_game, notes, ok, tmp};

/// The log's length as `kepi game show --json` reports it.
fn entries(save: &str) -> usize {
    let log: serde_json::Value =
        serde_json::from_str(&ok(&["log", "show", save, "--json"])).unwrap();
    log.as_array().unwrap().len()
}

/// Which lines of a journal are copied onto its end.
type Copy = fn(&[&str]) -> Vec<String>;

#[test]
fn one_line_copied_onto_the_journal_is_reported_and_recover_keeps_every_action() {
    // (what is copied, the lines of the journal copied onto its end)
    let cases: [(&str, Copy); 4] = [
        ("seed-line", |l| vec![l[0].to_string()]),
        ("seed-and-start", |l| {
            vec![l[0].to_string(), l[1].to_string()]
        }),
        ("last-entry", |l| vec![l[l.len() - 1].to_string()]),
        ("a-middle-entry", |l| vec![l[2].to_string()]),
    ];
    for (name, copy) in cases {
        let dir = tmp("ack", &format!("copied-{name}"));
        let save = new_game(&dir, "mars-la-tour", "7");
        for n in ["one", "two", "three"] {
            ok(&["game", "apply", &save, "note", n]);
        }
        let jp = format!("{save}.journal");
        let text = std::fs::read_to_string(&jp).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let damaged = text.clone() + &(copy(&lines).join("\n") + "\n");
        std::fs::write(&jp, &damaged).unwrap();
        let first_copied = lines.len() + 1;
        for args in [
            vec!["game", "show", &save],
            vec!["log", "show", &save],
            vec!["log", "verify", &save],
            vec!["log", "verify", &jp],
            vec!["game", "apply", &save, "note", "four"],
        ] {
            let o = kepi(&args);
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(1), "{name}: kepi {args:?}: {err}");
            assert!(
                err.contains(&format!("line {first_copied}")),
                "{name}: kepi {args:?} names the copied line: {err}"
            );
            assert!(err.contains("kepi game recover"), "{name}: {err}");
        }
        // The refused apply wrote nothing.
        assert_eq!(std::fs::read_to_string(&jp).unwrap(), damaged, "{name}");
        let how = ok(&["game", "recover", &save]);
        assert!(
            how.contains(&format!("line {first_copied}")),
            "{name}: {how}"
        );
        assert_eq!(notes(&save), ["one", "two", "three"], "{name}");
        ok(&["game", "apply", &save, "note", "four"]);
        assert_eq!(notes(&save), ["one", "two", "three", "four"], "{name}");
        assert_eq!(entries(&save), 5, "{name}");
        ok(&["log", "verify", &jp]);
        ok(&["log", "verify", &save]);
        // The damaged journal is kept for whoever wants to look.
        assert_eq!(
            std::fs::read_to_string(format!("{jp}.damaged")).unwrap(),
            damaged,
            "{name}"
        );
    }
}

#[test]
fn a_journal_cut_short_of_its_save_is_reported() {
    let dir = tmp("ack", "cut-short");
    let save = new_game(&dir, "mars-la-tour", "7");
    ok(&["game", "apply", &save, "note", "one"]);
    ok(&["game", "compact", &save]);
    let jp = format!("{save}.journal");
    let text = std::fs::read_to_string(&jp).unwrap();
    // The journal's last whole line goes: the save already holds it.
    let kept: Vec<&str> = text.lines().collect();
    std::fs::write(&jp, kept[..kept.len() - 1].join("\n") + "\n").unwrap();
    let o = kepi(&["game", "apply", &save, "note", "two"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("cut off its end"), "{err}");
    ok(&["game", "recover", &save]);
    ok(&["game", "apply", &save, "note", "two"]);
    assert_eq!(notes(&save), ["one", "two"]);
}

/// `kepi game apply` with stdout going to `stdout`; returns (exit code, stderr).
fn apply_into(save: &str, stdout: Stdio, words: &[&str]) -> (Option<i32>, String) {
    let o = Command::new(bin())
        .args(["game", "apply", save, "--json"])
        .args(words)
        .stdout(stdout)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    (o.status.code(), String::from_utf8_lossy(&o.stderr).into())
}

const FOUR_VERBS: [&str; 8] = [
    "lose",
    "8e-ligne-1",
    "1",
    "note",
    "x",
    "next-phase",
    "note",
    "y",
];

#[test]
fn a_closed_stdout_applies_every_verb_and_exits_zero() {
    let dir = tmp("ack", "closed-stdout");
    let save = new_game(&dir, "mars-la-tour", "7");
    let before = entries(&save);
    // A pipe whose reader is gone before kepi writes anything: every write is EPIPE.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let (code, err) = apply_into(&save, Stdio::from(writer), &FOUR_VERBS);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(err, "", "a closed stdout stops quietly");
    assert_eq!(entries(&save), before + 4, "all four verbs stood");
    assert_eq!(notes(&save), ["x", "y"]);
}

#[test]
fn a_full_stdout_applies_every_verb_says_so_and_exits_zero() {
    let full = Path::new("/dev/full");
    if !full.exists() {
        eprintln!("no /dev/full on this system: skipped");
        return;
    }
    let dir = tmp("ack", "full-stdout");
    let save = new_game(&dir, "mars-la-tour", "7");
    let before = entries(&save);
    let out = std::fs::OpenOptions::new().write(true).open(full).unwrap();
    let (code, err) = apply_into(&save, Stdio::from(out), &FOUR_VERBS);
    assert_eq!(code, Some(0), "the actions stood: {err}");
    assert!(err.contains("cannot write to stdout"), "{err}");
    assert!(err.contains("stood"), "{err}");
    assert_eq!(entries(&save), before + 4);
    // A verb refused after two that stood still exits with the refusal.
    let out = std::fs::OpenOptions::new().write(true).open(full).unwrap();
    let (code, err) = apply_into(
        &save,
        Stdio::from(out),
        &["note", "z", "lose", "no-such-unit", "1"],
    );
    assert_ne!(code, Some(0), "{err}");
}

#[test]
fn a_file_that_is_not_a_game_gets_no_lock_file() {
    let dir = tmp("ack", "no-lock");
    let readme = dir.join("README.md");
    std::fs::write(&readme, "# notes\n").unwrap();
    let missing = dir.join("missing.json");
    for file in [&readme, &missing] {
        let f = file.display().to_string();
        for args in [
            vec!["game", "apply", &f, "note", "x"],
            vec!["game", "compact", &f],
            vec!["game", "reveal", &f],
        ] {
            let o = kepi(&args);
            assert_eq!(o.status.code(), Some(1), "kepi {args:?}");
        }
    }
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["README.md"]);
    assert_eq!(std::fs::read_to_string(&readme).unwrap(), "# notes\n");
    // A game's lock file stays (it is the lock).
    let save = new_game(&dir, "mars-la-tour", "7");
    assert!(Path::new(&format!("{save}.lock")).exists());
}

#[test]
fn a_backup_link_left_by_a_kill_is_cleared_when_the_game_is_next_opened() {
    let dir = tmp("ack", "bak-link");
    let save = new_game(&dir, "mars-la-tour", "7");
    let link = format!("{save}.bak.link");
    // What a kill between the hard link and its rename leaves.
    std::fs::hard_link(&save, &link).unwrap();
    ok(&["game", "apply", &save, "note", "x"]);
    assert!(!Path::new(&link).exists());
    assert_eq!(notes(&save), ["x"]);
}

#[test]
fn a_key_given_twice_or_unknown_in_a_save_or_journal_is_refused_naming_it() {
    let dir = tmp("ack", "keys");
    let save = new_game(&dir, "mars-la-tour", "7");
    ok(&["game", "apply", &save, "note", "x"]);
    ok(&["game", "compact", &save]);
    let text = std::fs::read_to_string(&save).unwrap();
    let jp = format!("{save}.journal");
    let journal = std::fs::read_to_string(&jp).unwrap();
    // (what, the save's text edited, what the error names)
    let edits: Vec<(&str, String, &str)> = vec![
        (
            "version twice",
            text.replacen("\"version\": 1,", "\"version\": 1,\n  \"version\": 1,", 1),
            "`version` appears twice",
        ),
        (
            "an unknown top-level member",
            text.replacen("\"version\": 1,", "\"version\": 1,\n  \"extra\": 5,", 1),
            "unknown field `extra`",
        ),
        (
            "an unknown member of a log entry",
            text.replacen("\"index\": 1,", "\"index\": 1, \"bogus\": true,", 1),
            "unknown field `bogus`",
        ),
        (
            "a log entry's turn twice",
            text.replacen("\"index\": 1,", "\"index\": 1, \"turn\": 9,", 1),
            "`turn` appears twice",
        ),
        (
            "an unknown member of an action",
            text.replacen(
                "\"type\": \"note\",",
                "\"type\": \"note\", \"by\": \"me\",",
                1,
            ),
            "unknown field `by`",
        ),
        (
            "an unknown member of the secret",
            text.replacen("\"salt\":", "\"pepper\": 1, \"salt\":", 1),
            "unknown field `pepper`",
        ),
    ];
    for (what, edited, named) in edits {
        assert_ne!(edited, text, "{what}: the edit applies");
        std::fs::write(&save, &edited).unwrap();
        let o = kepi(&["game", "show", &save]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{what}: {err}");
        assert!(err.contains(named), "{what}: {err}");
    }
    std::fs::write(&save, &text).unwrap();
    ok(&["game", "show", &save]);
    // The same in the journal's lines.
    let edited = journal.replacen("\"index\":1,", "\"index\":1,\"bogus\":true,", 1);
    assert_ne!(edited, journal);
    std::fs::write(&jp, &edited).unwrap();
    let o = kepi(&["log", "verify", &jp]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("unknown field `bogus`"), "{err}");
}
