//! Tampering with a game's files (issue 18, class 7), through the real binary: every forger here
//! recomputes the hash chain, so only the seed's dice, the journal checks or a head noted at the
//! table can catch the edit. Each `caught(...)` call is one tamper case; the count is reported in
//! docs/PERFORMANCE.md.

use std::path::{Path, PathBuf};

use super::common::{kepi, ok};

use kepi::game::{EntryKind, GENESIS, LogEntry, entry_hash};

/// A seed long enough not to turn up by chance in the hex of a hash.
const SEED: &str = "8675309123";

fn tmp(name: &str) -> PathBuf {
    super::common::tmp("tamper", name)
}

/// Asserts `kepi args` fails with `code` and its stderr contains every one of `needles`; returns
/// stderr. Each call is one tamper case caught.
fn caught(args: &[&str], code: i32, needles: &[&str]) -> String {
    let o = kepi(args);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(
        o.status.code(),
        Some(code),
        "kepi {args:?} should fail: {err}{}",
        String::from_utf8_lossy(&o.stdout)
    );
    for n in needles {
        assert!(err.contains(n), "kepi {args:?}: `{n}` not in: {err}");
    }
    err
}

fn new_game(dir: &Path) -> String {
    super::common::new_game(dir, "st-privat", SEED)
}

fn read(save: &str) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(save).unwrap()).unwrap()
}

/// Writes a save whose log has been edited by `edit`, with the whole chain recomputed (a forger
/// who knows how the hashes are made).
fn forge(save: &str, edit: impl FnOnce(&mut Vec<LogEntry>)) {
    let mut s = read(save);
    let mut log: Vec<LogEntry> = serde_json::from_value(s["log"].clone()).unwrap();
    edit(&mut log);
    rechain(&mut log, GENESIS);
    s["log"] = serde_json::to_value(&log).unwrap();
    std::fs::write(save, serde_json::to_string_pretty(&s).unwrap()).unwrap();
    // The journal would give the forger away (it disagrees with the save): they delete it.
    let _ = std::fs::remove_file(format!("{save}.journal"));
}

fn rechain(log: &mut [LogEntry], genesis: &str) {
    let mut prev = genesis.to_string();
    for e in log.iter_mut() {
        e.prev = prev.clone();
        e.hash = entry_hash(e);
        prev = e.hash.clone();
    }
}

/// The dice of entry `i`'s action and of the entry itself (the forger edits both).
fn edit_dice(e: &mut LogEntry, f: impl Fn(&mut kepi::dice::Roll)) {
    if let EntryKind::Act {
        action: kepi::game::Action::Roll { dice, .. },
    } = &mut e.kind
    {
        dice.iter_mut().for_each(&f);
    }
    e.dice.iter_mut().for_each(f);
}

#[test]
fn a_relabelled_or_edited_die_is_caught_before_the_reveal() {
    let dir = tmp("dice");
    let save = new_game(&dir);
    ok(&[
        "game", "apply", &save, "roll", "d6", "roll", "2d6", "note", "x",
    ]);
    // The forger edits the save: bring it up to date with its journal first.
    ok(&["game", "compact", &save]);
    let v = ok(&["log", "verify", &save]);
    assert!(v.contains("3 seeded dice match the seed"), "{v}");
    let good = std::fs::read(&save).unwrap();
    let good_journal = std::fs::read(format!("{save}.journal")).unwrap();

    // 1-2. The first roll's die relabelled "entered", value unchanged: the seeded stream moved with
    // no seeded die to account for it.
    forge(&save, |log| {
        edit_dice(&mut log[1], |d| d.source = kepi::dice::RollSource::Entered)
    });
    caught(&["log", "verify", &save], 1, &["entry 1", "relabelled"]);
    caught(
        &["game", "apply", &save, "note", "more"],
        1,
        &["will not add"],
    );

    // 3-4. Relabelled with another value, and the dice position put back so the entry looks
    // untouched: the next roll's dice then come from the wrong place in the stream.
    std::fs::write(&save, &good).unwrap();
    forge(&save, |log| {
        edit_dice(&mut log[1], |d| {
            d.source = kepi::dice::RollSource::Entered;
            d.value = d.value % 6 + 1;
        });
        if let EntryKind::Act {
            action: kepi::game::Action::Roll { draws, total, .. },
        } = &mut log[1].kind
        {
            *draws = 0;
            *total = *total % 6 + 1;
        }
    });
    caught(&["log", "verify", &save], 1, &["entry 2"]);
    caught(&["game", "apply", &save, "roll", "d6"], 1, &["seed"]);

    // 5-6. A seeded die's value edited: the seed, held in the umpire's save, gives another.
    std::fs::write(&save, &good).unwrap();
    forge(&save, |log| {
        edit_dice(&mut log[2], |d| d.value = d.value % 6 + 1)
    });
    caught(&["log", "verify", &save], 1, &["entry 2", "seed gives"]);
    caught(&["game", "reveal", &save], 1, &["will not add"]);

    // 7. Only the dice the log shows edited (the action's dice left alone).
    std::fs::write(&save, &good).unwrap();
    forge(&save, |log| {
        log[1].dice[0].value = log[1].dice[0].value % 6 + 1;
    });
    caught(&["log", "verify", &save], 1, &["entry 1", "differ"]);

    // The untouched game still verifies and plays on.
    std::fs::write(&save, &good).unwrap();
    std::fs::write(format!("{save}.journal"), &good_journal).unwrap();
    ok(&["log", "verify", &save]);
    ok(&["game", "apply", &save, "roll", "d6"]);
}

/// The last journal line, as a log entry.
fn last_journal_entry(journal: &str) -> LogEntry {
    let text = std::fs::read_to_string(journal).unwrap();
    let line: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    serde_json::from_value(line["entry"].clone()).unwrap()
}

fn append_line(journal: &str, e: &LogEntry) {
    let mut text = std::fs::read_to_string(journal).unwrap();
    text.push_str(&serde_json::to_string(&serde_json::json!({ "entry": e })).unwrap());
    text.push('\n');
    std::fs::write(journal, text).unwrap();
}

fn notes_and_rolls(save: &str) -> usize {
    let log: serde_json::Value =
        serde_json::from_str(&ok(&["log", "show", save, "--json"])).unwrap();
    log.as_array().unwrap().len()
}

#[test]
fn a_forged_journal_line_is_not_replayed() {
    let dir = tmp("journal");
    let save = new_game(&dir);
    let journal = format!("{save}.journal");
    ok(&["game", "apply", &save, "note", "a"]);
    let save_bytes = std::fs::read(&save).unwrap();
    let journal_bytes = std::fs::read(&journal).unwrap();
    // The real next roll, taken as the forger's template, then the files put back.
    ok(&["game", "apply", &save, "roll", "d6"]);
    let real = last_journal_entry(&journal);
    std::fs::write(&save, &save_bytes).unwrap();
    std::fs::write(&journal, &journal_bytes).unwrap();
    let lines = journal_bytes.iter().filter(|&&b| b == b'\n').count();
    let forged_line = format!("journal line {}", lines + 1);

    // 8-10. A roll whose die is changed, the line correctly chained to the save's head: the seed
    // gives another die. Viewing, applying and verifying all refuse it, naming the line.
    let mut e = real.clone();
    edit_dice(&mut e, |d| d.value = d.value % 6 + 1);
    e.hash = entry_hash(&e);
    append_line(&journal, &e);
    caught(&["game", "show", &save], 1, &[&forged_line, "recover"]);
    caught(&["game", "apply", &save, "note", "b"], 1, &[&forged_line]);
    caught(&["log", "verify", &journal], 1, &["entry 2", "seed"]);
    // Only explicit recovery opens the game, without the forged line.
    let out = ok(&["game", "recover", &save]);
    assert!(out.contains("left out"), "{out}");
    assert_eq!(notes_and_rolls(&save), 2, "start and the note, no roll");
    ok(&["log", "verify", &save]);
    ok(&["log", "verify", &journal]);
    ok(&["game", "apply", &save, "roll", "d6"]);

    // 11. A line that does not continue the save's chain (forged from scratch, wrong link).
    let before = notes_and_rolls(&save);
    let mut e = last_journal_entry(&journal);
    e.index += 1;
    e.hash = entry_hash(&e);
    append_line(&journal, &e);
    caught(
        &["game", "show", &save],
        1,
        &["journal line", "chain broken", "recover"],
    );
    ok(&["game", "recover", &save]);
    assert_eq!(notes_and_rolls(&save), before);
}

#[test]
fn a_head_noted_at_the_table_catches_a_recomputed_chain() {
    let dir = tmp("head");
    let save = new_game(&dir);
    ok(&[
        "game",
        "apply",
        &save,
        "note",
        "the bridge holds",
        "lose",
        "1st-foot-guards-1",
        "1",
    ]);
    ok(&["game", "compact", &save]);
    let head = read(&save)["log"].as_array().unwrap().last().unwrap()["hash"]
        .as_str()
        .unwrap()
        .to_string();
    // A match, in full and by a prefix of 8 hex digits: exit 0, JSON says so.
    let out = ok(&["log", "verify", &save, "--expect-head", &head]);
    assert!(out.contains("expected head"), "{out}");
    let j: serde_json::Value = serde_json::from_str(&ok(&[
        "log",
        "verify",
        &save,
        "--expect-head",
        &head[..8],
        "--json",
    ]))
    .unwrap();
    assert_eq!(j["ok"], true);
    assert_eq!(j["head"], head.as_str());
    assert_eq!(j["expected_head"], &head[..8]);
    assert_eq!(j["head_matches"], true);
    assert!(j["entries"].is_u64());
    // Too short or not hex: a usage error.
    caught(
        &["log", "verify", &save, "--expect-head", "abc"],
        2,
        &["--expect-head"],
    );

    // 12. The note edited and the chain recomputed: the chain holds, only the head gives it away.
    // (A forger who leaves the entry's summary as it was is caught by `log verify` alone, issue
    // 29: the summary must be the one its action gives.)
    let good = std::fs::read(&save).unwrap();
    forge(&save, |log| {
        if let EntryKind::Act {
            action: kepi::game::Action::Note { text },
        } = &mut log[1].kind
        {
            *text = "the bridge fell".into();
        }
    });
    caught(
        &["log", "verify", &save],
        1,
        &["entry 1", "the bridge fell"],
    );
    std::fs::write(&save, &good).unwrap();
    forge(&save, |log| {
        if let EntryKind::Act {
            action: kepi::game::Action::Note { text },
        } = &mut log[1].kind
        {
            *text = "the bridge fell".into();
        }
        log[1].summary = "note: the bridge fell".into();
    });
    ok(&["log", "verify", &save]);
    caught(
        &["log", "verify", &save, "--expect-head", &head],
        1,
        &["not the expected"],
    );
    let o = kepi(&["log", "verify", &save, "--expect-head", &head, "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["ok"], false);
    assert_eq!(j["head_matches"], false);
    assert_eq!(j["expected_head"], head.as_str());
    assert!(j["reason"].as_str().unwrap().contains("not the expected"));
}

#[test]
fn a_shared_copy_has_no_seed_and_verifies() {
    let dir = tmp("share");
    let save = new_game(&dir);
    ok(&[
        "game",
        "apply",
        &save,
        "roll",
        "2d6",
        "note",
        "for the players",
    ]);
    let out = dir.join("players.json").display().to_string();
    ok(&["game", "share", &save, &out]);
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(!text.contains(SEED), "the seed is in the copy");
    assert!(!text.contains("secret"), "a secret is in the copy");
    assert!(!text.contains("salt"), "the salt is in the copy");
    let v = ok(&["log", "verify", &out]);
    assert!(
        v.contains("not checkable until the seed is revealed"),
        "{v}"
    );
    ok(&["game", "show", &out]);
    ok(&["game", "due", &out]);
    ok(&["log", "show", &out]);
    // The same head as the umpire's save; sharing again replaces the players' copy.
    let j: serde_json::Value =
        serde_json::from_str(&ok(&["log", "verify", &out, "--json"])).unwrap();
    let h: serde_json::Value =
        serde_json::from_str(&ok(&["log", "verify", &save, "--json"])).unwrap();
    assert_eq!(j["head"], h["head"]);
    assert!(j["dice_checked"].is_null());
    assert_eq!(h["dice_checked"], 2);
    ok(&["game", "share", &save, &out]);
    // Never over the save itself, nor over another file.
    caught(&["game", "share", &save, &save], 2, &["is SAVE"]);
    let other = dir.join("other.txt");
    std::fs::write(&other, "keep me").unwrap();
    caught(
        &["game", "share", &save, other.to_str().unwrap()],
        2,
        &["not a players' copy"],
    );
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "keep me");
    // After the reveal, the players' copy's dice can be checked.
    ok(&["game", "reveal", &save]);
    ok(&["game", "share", &save, &out]);
    let v = ok(&["log", "verify", &out]);
    assert!(
        v.contains("seed revealed, 2 seeded dice match the seed"),
        "{v}"
    );
    let help = ok(&["game", "--help"]);
    assert!(help.contains("share"), "{help}");
}
