//! Tampering with a game's files (issue 18, class 7), through the real binary: every forger here
//! recomputes the hash chain, so only the seed's dice, the journal checks or a head noted at the
//! table can catch the edit. Each `caught(...)` call is one tamper case; the count is reported in
//! docs/PERFORMANCE.md.

use std::path::Path;

use super::common::{
    FR1870_ATTACK, SPI_ATTACK, caught, forgery_caught, kepi, new_game, ok, play, tmp,
};

use kepi::game::{EntryKind, GENESIS, LogEntry, entry_hash};

/// A seed long enough not to turn up by chance in the hex of a hash.
const SEED: &str = "8675309123";

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
    let dir = tmp("tamper", "dice");
    let save = new_game(&dir, "st-privat", SEED);
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
    let dir = tmp("tamper", "journal");
    let save = new_game(&dir, "st-privat", SEED);
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
    let dir = tmp("tamper", "head");
    let save = new_game(&dir, "st-privat", SEED);
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
    let dir = tmp("tamper", "share");
    let save = new_game(&dir, "st-privat", SEED);
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

// Issue 44: every member of every entry is the entry's input or what `kepi log verify`
// recomputes from it, the dice and the game before it. Each forger below edits one member and
// recomputes the whole chain; verify must exit 1 naming the entry and the member.

/// The P&K, SPI and 1870 games whose resolutions the forgers edit: (scenario, words).
const PLAYED: &[(&str, &[&str])] = &[
    (
        "mars-la-tour",
        &["fire", "12th-grenadiers-1", "55e-ligne-1", "--range", "10"],
    ),
    (
        "spi-1870",
        &[
            "move",
            "de-2-5-1",
            "0101",
            "move",
            "fr-metz-5",
            "0102",
            "combat",
            "--attackers",
            "de-2-5-1",
            "--hex",
            "0102",
            "--dice",
            "d6=3",
            "--result",
            "A1/D2",
        ],
    ),
    (
        "fr1870-august",
        &[
            "move",
            "de-4b",
            "3001",
            "combat",
            "--attackers",
            "fr-1rc",
            "--hex",
            "2544",
            "--dice",
            "d6=2",
        ],
    ),
];

/// A game of `scenario` with `words` applied and compacted into the save (the forger edits the
/// save); returns the save.
fn played(area: &str, scenario: &str, words: &[&str]) -> String {
    let dir = tmp("tamper", area);
    let save = new_game(&dir, scenario, SEED);
    play(&save, words);
    ok(&["game", "compact", &save]);
    ok(&["log", "verify", &save]);
    save
}

/// Writes a save whose log's JSON has been edited by `edit`, the chain recomputed over what kepi
/// reads of each entry (a member kepi does not read is not hashed: the forger leaves it in).
fn forge_json(save: &str, edit: impl FnOnce(&mut Vec<serde_json::Value>)) {
    let mut s = read(save);
    let mut raw: Vec<serde_json::Value> = serde_json::from_value(s["log"].clone()).unwrap();
    edit(&mut raw);
    let mut prev = GENESIS.to_string();
    for r in raw.iter_mut() {
        let mut e: LogEntry = serde_json::from_value(r.clone()).unwrap();
        e.prev = prev.clone();
        e.hash = entry_hash(&e);
        r["prev"] = prev.clone().into();
        r["hash"] = e.hash.clone().into();
        prev = e.hash;
    }
    s["log"] = raw.into();
    std::fs::write(save, serde_json::to_string_pretty(&s).unwrap()).unwrap();
    let _ = std::fs::remove_file(format!("{save}.journal"));
}

/// The index of the last resolution entry in the save.
fn last_resolution(save: &str) -> usize {
    read(save)["log"]
        .as_array()
        .unwrap()
        .iter()
        .rposition(|e| e["action"]["type"] == "resolved")
        .unwrap()
}

/// `kepi log verify SAVE` exits 1 naming `entry N` and the member; returns stderr.
fn refused(save: &str, entry: usize, member: &str) -> String {
    forgery_caught(save, entry, &[&format!("`{member}")])
}

/// The resolution of entry `i`, to edit.
fn resolution_mut(
    log: &mut [LogEntry],
    i: usize,
) -> &mut kepi::rules::Resolution<serde_json::Value> {
    match &mut log[i].kind {
        EntryKind::Act {
            action: kepi::game::Action::Resolved { resolution, .. },
        } => resolution,
        _ => panic!("entry {i} is no resolution"),
    }
}

/// Each of the three games, its save's good bytes and its last resolution's index.
fn each_game(area: &str) -> Vec<(String, Vec<u8>, usize)> {
    PLAYED
        .iter()
        .map(|(scenario, words)| {
            let save = played(&format!("{area}-{scenario}"), scenario, words);
            let good = std::fs::read(&save).unwrap();
            let at = last_resolution(&save);
            (save, good, at)
        })
        .collect()
}

#[test]
fn verify_names_a_removed_umpire_went_ahead_note() {
    // A transport by rail twice in a turn: the second is logged with what the umpire went ahead
    // with (FR-G1, "only one railway transport per turn").
    let save = played(
        "note-removed",
        "fr1870-august",
        &[
            "rail", "fr-1rc", "--to", "2545", "rail", "fr-1rc", "--to", "2546",
        ],
    );
    let at = last_resolution(&save);
    let notes = read(&save)["log"][at]["action"]["resolution"]["notes"].clone();
    assert!(
        notes.to_string().contains("umpire went ahead"),
        "the second transport has no breach note: {notes}"
    );
    forge(&save, |log| {
        resolution_mut(log, at)
            .notes
            .retain(|n| !n.starts_with("umpire went ahead"))
    });
    refused(&save, at, "resolution.notes");
}

#[test]
fn verify_names_a_breach_note_hidden_by_a_capacity_edit() {
    // A section that carries 1 unit, two transports on it this phase: the second breaches FR-G1.
    let words = |u: &'static str, to: &'static str| {
        [
            "rail",
            u,
            "--to",
            to,
            "--section",
            "Metz-Nancy",
            "--capacity",
            "1",
        ]
    };
    let mut all = words("fr-1rc", "2545").to_vec();
    all.extend(words("fr-2rc", "2546"));
    let save = played("capacity", "fr1870-august", &all);
    let at = last_resolution(&save);
    let good = std::fs::read(&save).unwrap();
    // The note alone removed.
    forge(&save, |log| {
        resolution_mut(log, at)
            .notes
            .retain(|n| !n.contains("capacity"))
    });
    refused(&save, at, "resolution.notes");
    // The logged --capacity raised to 5 in the input, so that it gives no note, and the note
    // removed: the capacity's modifier line still says 1.
    std::fs::write(&save, &good).unwrap();
    forge(&save, |log| {
        if let EntryKind::Act {
            action: kepi::game::Action::Resolved { input: Some(i), .. },
        } = &mut log[at].kind
        {
            let found = raise_capacity(i);
            assert!(found, "no capacity in the input: {i}");
        }
        resolution_mut(log, at)
            .notes
            .retain(|n| !n.contains("capacity"));
    });
    refused(&save, at, "resolution.modifiers");
}

/// Sets every `capacity` member of a form's JSON to 5; true when there was one.
fn raise_capacity(v: &mut serde_json::Value) -> bool {
    match v {
        serde_json::Value::Object(o) => {
            let mut found = false;
            for (k, x) in o.iter_mut() {
                if k == "capacity" {
                    *x = 5.into();
                    found = true;
                } else {
                    found |= raise_capacity(x);
                }
            }
            found
        }
        serde_json::Value::Array(a) => {
            let mut found = false;
            for x in a.iter_mut() {
                found |= raise_capacity(x);
            }
            found
        }
        _ => false,
    }
}

#[test]
fn verify_names_an_edited_modifier_value_in_pk_spi_and_1870() {
    for (save, _, at) in each_game("mod-value") {
        forge(&save, |log| {
            let r = resolution_mut(log, at);
            let m = r.modifiers.first_mut().expect("a modifier line");
            m.value.push('0');
        });
        refused(&save, at, "resolution.modifiers[0].value");
    }
}

#[test]
fn verify_names_an_edited_modifier_label_in_pk_spi_and_1870() {
    for (save, _, at) in each_game("mod-label") {
        forge(&save, |log| {
            let r = resolution_mut(log, at);
            let m = r.modifiers.last_mut().expect("a modifier line");
            m.label = "the umpire's favour".into();
        });
        refused(&save, at, "resolution.modifiers[");
        let err = refused(&save, at, "resolution.modifiers");
        assert!(err.contains("].label"), "{err}");
    }
}

#[test]
fn verify_names_an_edited_modifier_provenance_in_pk_spi_and_1870() {
    for (save, _, at) in each_game("mod-provenance") {
        forge(&save, |log| {
            let r = resolution_mut(log, at);
            let m = r.modifiers.first_mut().expect("a modifier line");
            m.provenance = if m.provenance == kepi::tables::Provenance::House {
                kepi::tables::Provenance::Unknown
            } else {
                kepi::tables::Provenance::House
            };
        });
        refused(&save, at, "resolution.modifiers[0].provenance");
    }
}

#[test]
fn verify_names_a_removed_modifier_line_in_pk_spi_and_1870() {
    for (save, _, at) in each_game("mod-removed") {
        forge(&save, |log| {
            let r = resolution_mut(log, at);
            r.modifiers.pop().expect("a modifier line");
        });
        refused(&save, at, "resolution.modifiers");
    }
}

#[test]
fn verify_names_edited_odds() {
    for (save, _, at) in each_game("odds") {
        forge(&save, |log| {
            let r = resolution_mut(log, at);
            let o = r.odds.first_mut().expect("an odds line");
            o.outcome.push_str(" (and a medal)");
        });
        refused(&save, at, "resolution.odds[0]");
    }
}

#[test]
fn verify_names_an_edited_rolled_line() {
    for (save, _, at) in each_game("rolled") {
        forge(&save, |log| {
            let r = resolution_mut(log, at);
            let n = r.odds.len();
            r.rolled = match r.rolled {
                Some(k) if n > 1 => Some((k + 1) % n),
                Some(_) => None,
                None => Some(0),
            };
        });
        refused(&save, at, "resolution.rolled");
    }
}

#[test]
fn verify_names_an_edited_units_list() {
    for (save, _, at) in each_game("units") {
        forge(&save, |log| {
            if let EntryKind::Act {
                action: kepi::game::Action::Resolved { units, .. },
            } = &mut log[at].kind
            {
                assert!(!units.is_empty());
                units.reverse();
                units.push("ghost-battalion".into());
            }
        });
        refused(&save, at, "units");
    }
}

#[test]
fn verify_names_an_edited_turn() {
    let (save, _, at) = each_game("turn").remove(0);
    forge(&save, |log| log[at].turn += 1);
    refused(&save, at, "turn");
}

#[test]
fn verify_names_an_edited_phase() {
    let (save, _, at) = each_game("phase").remove(0);
    forge(&save, |log| {
        log[at].phase = "a phase of the forger's".into()
    });
    refused(&save, at, "phase");
}

#[test]
fn verify_names_a_time_going_backwards() {
    let dir = tmp("tamper", "time");
    let save = new_game(&dir, "st-privat", SEED);
    ok(&["game", "apply", &save, "note", "a", "note", "b"]);
    ok(&["game", "compact", &save]);
    forge(&save, |log| {
        log[2].time = log[1].time - chrono::Duration::hours(3);
    });
    refused(&save, 2, "time");
}

#[test]
fn verify_names_edited_top_level_rules() {
    let (save, good, at) = each_game("rules").remove(0);
    forge(&save, |log| log[at].rules.push("PK-L2".into()));
    refused(&save, at, "rules");
    // A hand action's rules too (a phase advanced cites the turn rule).
    std::fs::write(&save, &good).unwrap();
    ok(&["game", "apply", &save, "next-phase"]);
    ok(&["game", "compact", &save]);
    let n = read(&save)["log"].as_array().unwrap().len() - 1;
    forge(&save, |log| log[n].rules.clear());
    refused(&save, n, "rules");
}

#[test]
fn verify_names_an_edited_undo_summary() {
    let dir = tmp("tamper", "undo");
    let save = new_game(&dir, "st-privat", SEED);
    ok(&["game", "apply", &save, "note", "the bridge holds", "undo"]);
    ok(&["game", "compact", &save]);
    forge(&save, |log| {
        log[2].summary = "undo: note: the bridge fell".into()
    });
    refused(&save, 2, "summary");
}

/// Adds `extra` at the JSON pointer `at` of entry `i`, the chain recomputed: verify refuses it
/// naming the entry and the member's path.
fn unknown_member_refused(save: &str, i: usize, at: &str, path: &str) {
    let good = std::fs::read(save).unwrap();
    forge_json(save, |raw| {
        let o = raw[i]
            .pointer_mut(at)
            .and_then(|v| v.as_object_mut())
            .unwrap_or_else(|| panic!("no object at {at}"));
        o.insert("extra".into(), serde_json::json!({"forged": true}));
    });
    caught(
        &["log", "verify", save],
        1,
        &[&format!("entry {i}"), path, "extra"],
    );
    std::fs::write(save, good).unwrap();
}

#[test]
fn verify_refuses_an_unknown_member_in_the_starts_units() {
    let dir = tmp("tamper", "unknown-units");
    let save = new_game(&dir, "st-privat", SEED);
    ok(&["game", "compact", &save]);
    unknown_member_refused(&save, 0, "/initial/units/0", "initial.units[0].extra");
}

#[test]
fn verify_refuses_an_unknown_member_in_the_order_of_battle() {
    let dir = tmp("tamper", "unknown-oob");
    let save = new_game(&dir, "st-privat", SEED);
    ok(&["game", "compact", &save]);
    unknown_member_refused(
        &save,
        0,
        "/initial/units/0/unit/oob",
        "initial.units[0].unit.oob.extra",
    );
}

#[test]
fn verify_refuses_an_unknown_member_in_the_dice_commitment() {
    let dir = tmp("tamper", "unknown-dice");
    let save = new_game(&dir, "st-privat", SEED);
    ok(&["game", "compact", &save]);
    unknown_member_refused(&save, 0, "/initial/dice", "initial.dice.extra");
}

#[test]
fn verify_refuses_an_unknown_member_in_a_modifier() {
    let (save, _, at) = each_game("unknown-modifier").remove(0);
    unknown_member_refused(
        &save,
        at,
        "/action/resolution/modifiers/0",
        "action.resolution.modifiers[0].extra",
    );
}

#[test]
fn verify_refuses_an_unknown_member_in_the_odds() {
    let (save, _, at) = each_game("unknown-odds").remove(0);
    unknown_member_refused(
        &save,
        at,
        "/action/resolution/odds/0",
        "action.resolution.odds[0].extra",
    );
}

#[test]
fn verify_refuses_an_unknown_member_in_a_journal_line() {
    // A member nested in the start's units is not read, so the line's hash still holds: only
    // the reader's check of what it dropped can see it, in the journal and in the save read
    // with it.
    let dir = tmp("tamper", "unknown-journal");
    let save = new_game(&dir, "st-privat", SEED);
    ok(&["game", "apply", &save, "note", "a"]);
    let journal = format!("{save}.journal");
    let text = std::fs::read_to_string(&journal).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let start = lines
        .iter()
        .position(|l| l.contains("\"kind\":\"start\""))
        .unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&lines[start]).unwrap();
    v["entry"]["initial"]["units"][1]["extra"] = "forged".into();
    lines[start] = v.to_string();
    std::fs::write(&journal, lines.join("\n") + "\n").unwrap();
    caught(
        &["log", "verify", &journal],
        1,
        &["entry 0", "`initial.units[1].extra`"],
    );
    // The save holds the start itself; its journal's copy of the line is read with it.
    caught(
        &["log", "verify", &save],
        1,
        &["entry 0", "`initial.units[1].extra`"],
    );
}

#[test]
fn logs_an_older_kepi_wrote_still_verify() {
    // The corpus's journal as kepi wrote it on 2026-12-02 (its last line torn): its good lines
    // hold every member as kepi writes it today.
    let dir = tmp("tamper", "older");
    let journal = dir.join("older.journal");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/journal/torn-last-line.jsonl"),
        &journal,
    )
    .unwrap();
    let out = ok(&["log", "verify", journal.to_str().unwrap()]);
    assert!(out.contains("log OK: 4 entries"), "{out}");
}

/// Games the kepi before issues 44 and 46 saved (built from commit 0e57629, one per rule set, in
/// tests/corpus/older/: a P&K fire with its dice entered, an undo and a redo; a PW melee and
/// artillery; a GSP battery's fire; an SPI and an 1870 combat with the chart's result typed; and
/// one P&K game whose actions are still in its journal) open, replay, pass `kepi log verify` with
/// every member recomputed, and go on: an action applied to each verifies too. Those kepis logged
/// SPI's and 1870's attackers without their fired mark, PW's melee without its count and its dice
/// by arm only. A PW game the kepi of commit 75220e9 saved (2026-12-06-pw-hits: a rifle hit taken
/// as a withdrawal) holds PW-H1's note as that kepi worded it, "takes 1 hit(s)". The games the
/// kepi of commit 4bdac9f saved (`2026-12-07-*-breaches`, before issue 42 noted the breaches) hold
/// every breach issue 42 notes now, logged without its note: a PW move outside a movement phase,
/// without an activation and in the enemy's half-turn, an eliminated unit's strength set back; P&K
/// disordered cavalry charging and a charge the move after a melee; a GSP battery unlimbered this
/// turn firing; 1870 moves into an enemy cell, twice in a phase and into a cell the loser holds;
/// an SPI game on kepi's example map with a raise before Game-Turn 6, entraining in extended
/// formation and a move in a combat phase. The games the kepi of commit 47a7f74 saved (log
/// revision 1, before 1870's supply lines, H12's possession and SPI's terrain read from the map):
/// 1870 on its example board with a fortress stormed, Vieuxbourg besieged and taken on DE (which
/// that kepi left German) and a combat whose supply was the umpire's; SPI on its example board with
/// a combat into rough terrain across a ridge typed by hand (`--rough --ridge`), once compacted
/// and once with its actions still in its journal. The games the kepi of commit e0e1f16 saved
/// (log revision 4, before moves logged SPI's secured lines and west-edge exits and 1870's
/// passage of units): `2026-12-07-spi-eb-exit-rev4` and `2026-12-07-fr-passage-rev4`.
#[test]
fn games_the_previous_kepi_saved_open_replay_and_verify() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/older");
    let dir = tmp("tamper", "previous-kepi");
    for name in [
        "2026-12-05-pk",
        "2026-12-05-pw",
        "2026-12-05-gsp",
        "2026-12-05-spi",
        "2026-12-05-fr",
        "2026-12-05-pk-journal",
        "2026-12-06-pw-hits",
        "2026-12-07-pw-breaches",
        "2026-12-07-pk-breaches",
        "2026-12-07-gsp-breaches",
        "2026-12-07-fr-breaches",
        "2026-12-07-spi-breaches",
        "2026-12-07-fr-fortresses-map",
        "2026-12-07-spi-map",
        "2026-12-07-spi-map-journal",
        "2026-12-07-spi-rail-rev2",
        "2026-12-07-spi-eb-exit-rev4",
        "2026-12-07-fr-passage-rev4",
        "2026-12-07-pk-marks-rev5",
        "2026-12-07-fr-marks-rev5",
    ] {
        let set = name;
        let name = format!("{name}.json");
        let save = dir.join(&name);
        std::fs::copy(corpus.join(&name), &save).unwrap();
        let journal = corpus.join(format!("{name}.journal"));
        if journal.exists() {
            std::fs::copy(&journal, dir.join(format!("{name}.journal"))).unwrap();
        }
        if set == "2026-12-06-pw-hits" {
            let text = std::fs::read_to_string(&save).unwrap();
            assert!(
                text.contains("takes 1 hit(s)"),
                "the fixture holds the older words"
            );
        }
        if set.ends_with("-breaches") {
            let text = std::fs::read_to_string(&save).unwrap();
            assert!(
                !text.contains("not a movement phase"),
                "{set}: the fixture was logged before the breaches were noted"
            );
        }
        let save = save.to_str().unwrap();
        let shown: serde_json::Value =
            serde_json::from_str(&ok(&["game", "show", save, "--json"])).unwrap();
        assert!(shown.is_object(), "{set}: {shown}");
        if set == "2026-12-07-fr-fortresses-map" {
            // Logged at revision 1: the DE assault on Vieuxbourg left the fortress German (H12's
            // possession is an effect only since revision 2), and replay keeps what was logged.
            let text = std::fs::read_to_string(save).unwrap();
            assert!(text.contains("\"rev\": 1") && !text.contains("\"rev\": 2"));
            let side = |id: &str| {
                shown["units"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|u| u["id"] == id)
                    .map(|u| u["side"].clone())
            };
            assert_eq!(side("fort-vb"), Some("german".into()), "{set}");
            assert_eq!(side("fort-sm"), Some("french".into()), "{set}: the storm's");
        }
        if set == "2026-12-07-spi-rail-rev2" {
            // The kepi of log revision 2 (e591fe6) moved German units onto France's rail line at
            // 0705 and 0203 and put no Rail Cut marker (SPI-E2 is a move's effect since revision
            // 3): replay keeps what was logged. Its over-the-allowance note was judged on the
            // board as it stood (SPI-S1 since revision 4).
            let text = std::fs::read_to_string(save).unwrap();
            assert!(text.contains("\"rev\": 2") && !text.contains("\"rev\": 3"));
            assert!(text.contains("over its allowance of 8"), "{set}");
            assert!(shown.get("marks").is_none(), "{set}: {shown}");
            // Today's kepi cuts the line with its own move, logged with it.
            ok(&["game", "apply", save, "move", "de-2-5-1", "0605"]);
            let now: serde_json::Value =
                serde_json::from_str(&ok(&["game", "show", save, "--json"])).unwrap();
            assert_eq!(
                now["marks"],
                serde_json::json!([{"kind": "rail-cut", "cell": "0605"}]),
                "{set}"
            );
        }
        if set.ends_with("-rev4") {
            // The kepi of log revision 4 (e0e1f16): an SPI EB unit moved along the German line
            // into France, a German unit off the west edge, a French unit onto the line; a 1870
            // German unit along a French section. It logged no secured line, exit or passage
            // (moves' effects since revision 5): replay keeps what was logged.
            let text = std::fs::read_to_string(save).unwrap();
            assert!(text.contains("\"rev\": 4") && !text.contains("\"rev\": 5"));
            assert!(shown.get("marks").is_none(), "{set}: {shown}");
        }
        if set == "2026-12-07-spi-eb-exit-rev4" {
            // That kepi also asked for the French EB units waiting off the map to be pushed back
            // by the German move off it (SPI-E1 Case C; none since revision 6): replay keeps the
            // three checks it saved.
            assert_eq!(super::common::due_of(save, "SPI-E1").len(), 3, "{set}");
        }
        if set.ends_with("-marks-rev5") {
            // The kepi of log revision 5 (a33f027) kept the five sets' own markers as fields
            // of the unit (P&K's muddle and lost flag; 1870's disorganisation, passage at sea and
            // storm) and set them as flags; today's kepi keeps them as its sets' markers and
            // shows them where it always did.
            let flags = |id: &str| -> Vec<String> {
                shown["units"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|u| u["id"] == id)
                    .map(|u| serde_json::from_value(u["flags"].clone()).unwrap())
                    .unwrap()
            };
            let want: &[(&str, &str)] = if set.starts_with("2026-12-07-pk") {
                &[
                    ("12th-grenadiers-1", "muddled"),
                    ("55e-ligne-1", "flag-lost"),
                ]
            } else {
                &[
                    ("fr-1rc", "disorganised"),
                    ("fr-2rc", "at-sea"),
                    ("fr-3rc", "stormed"),
                ]
            };
            for (id, flag) in want {
                assert!(flags(id).iter().any(|f| f == flag), "{set}: {id} {flag}");
            }
        }
        let out = ok(&["log", "verify", save]);
        assert!(out.contains("log OK"), "{set}: {out}");
        // Every fixture but the 1870 passage's (moves only) holds a resolution to resolve again.
        assert!(
            set == "2026-12-07-fr-passage-rev4" || !out.contains("0 resolution(s) resolved again"),
            "{set}: its resolutions are resolved again: {out}"
        );
        ok(&["game", "apply", save, "note", "read by today's kepi"]);
        let out = ok(&["log", "verify", save]);
        assert!(out.contains("log OK"), "{set} after a new action: {out}");
    }
}

#[test]
fn verify_names_a_removed_move_note() {
    // PW-U1: infantry moves 2 hexes; 5 is logged with what the umpire went ahead with.
    let dir = tmp("tamper", "move-note");
    let save = new_game(&dir, "pw-skirmish", SEED);
    ok(&[
        "game",
        "apply",
        &save,
        "next-phase",
        "move",
        "de-inf-1",
        "0206",
    ]);
    ok(&["game", "compact", &save]);
    let at = read(&save)["log"].as_array().unwrap().len() - 1;
    assert!(
        read(&save)["log"][at]["action"]["notes"]
            .to_string()
            .contains("umpire went ahead"),
        "the move has no note"
    );
    forge(&save, |log| {
        if let EntryKind::Act {
            action: kepi::game::Action::Move { notes, .. },
        } = &mut log[at].kind
        {
            notes.clear();
        }
    });
    refused(&save, at, "action.notes");
}

#[test]
fn verify_names_an_edited_roll_total() {
    let dir = tmp("tamper", "roll-total");
    let save = new_game(&dir, "st-privat", SEED);
    ok(&["game", "apply", &save, "roll", "2d6+1"]);
    ok(&["game", "compact", &save]);
    // The total raised by 3 and the entry's summary written to match, as a careful forger would.
    forge(&save, |log| {
        if let EntryKind::Act {
            action: kepi::game::Action::Roll { total, .. },
        } = &mut log[1].kind
        {
            *total += 3;
        }
        let before = kepi::game::Game::from_log(log[..1].to_vec(), None).unwrap();
        if let EntryKind::Act { action } = &log[1].kind {
            log[1].summary = action.describe(before.state());
        }
    });
    refused(&save, 1, "action.total");
}

#[test]
fn verify_names_edited_draws_in_a_players_copy() {
    // The players' copy has no seed to re-roll the dice from; the stream's position still shows:
    // a seeded die moves it on.
    let dir = tmp("tamper", "draws");
    let save = new_game(&dir, "st-privat", SEED);
    ok(&["game", "apply", &save, "roll", "d6"]);
    let out = dir.join("players.json").display().to_string();
    ok(&["game", "share", &save, &out]);
    ok(&["log", "verify", &out]);
    forge(&out, |log| {
        if let EntryKind::Act {
            action: kepi::game::Action::Roll { draws, .. },
        } = &mut log[1].kind
        {
            *draws = 0;
        }
    });
    // The saved state's position with it, or the state would not be its log's.
    let mut s = read(&out);
    s["state"]["dice"]["draws"] = 0.into();
    std::fs::write(&out, serde_json::to_string_pretty(&s).unwrap()).unwrap();
    refused(&out, 1, "action.draws");
}

/// Issue 46: a resolution earlier kepis logged without what it now records with it (the fired
/// mark of an SPI or 1870 combat's attackers, the melee count of a PW melee's two units): the
/// same game as a kepi before issue 46 saved it, its summary without them too.
fn as_before_issue_46(save: &str, at: usize) {
    use kepi::game::{Action, Counter, Flag, FlagName};
    forge(save, |log| {
        let e = &mut log[at];
        if let EntryKind::Act {
            action: Action::Resolved { effects, .. },
        } = &mut e.kind
        {
            let n = effects.len();
            effects.retain(|a| {
                !matches!(
                    a,
                    Action::SetFlag {
                        flag: FlagName::Flag(Flag::Fired),
                        ..
                    } | Action::SetCount {
                        counter: Counter::Melees,
                        ..
                    }
                )
            });
            assert!(effects.len() < n, "entry {at} records no issue-46 mark");
        }
        e.summary = summary_without(&e.summary, |p| {
            p.ends_with("fired on") || p.contains(" melees ")
        });
    });
    // The state that log replays to: in these games only the combat or the melee marked a unit.
    unmark_state(save, |_| true);
}

/// An entry's summary without the effects' parts `drop` picks (as the action describes them).
fn summary_without(summary: &str, mut drop: impl FnMut(&str) -> bool) -> String {
    let (head, fx) = summary.split_once(" => ").unwrap_or((summary, ""));
    let kept: Vec<&str> = fx
        .split("; ")
        .filter(|p| !p.is_empty() && !drop(p))
        .collect();
    if kept.is_empty() {
        head.to_string()
    } else {
        format!("{head} => {}", kept.join("; "))
    }
}

/// The save's state with the fired mark off (for the units `off` picks) and no melee counted,
/// as a log whose marks were removed replays to (the forger keeps the two in step).
fn unmark_state(save: &str, off: impl Fn(&str) -> bool) {
    let mut s = read(save);
    for u in s["state"]["units"].as_array_mut().unwrap() {
        let id = u["id"]
            .as_str()
            .or(u["unit"]["id"].as_str())
            .unwrap_or_default()
            .to_string();
        if off(&id) {
            u["fired"] = false.into();
        }
        u["melees"] = 0.into();
    }
    std::fs::write(save, serde_json::to_string_pretty(&s).unwrap()).unwrap();
}

/// The SPI, 1870 and PW games whose combat or melee records issue 46's marks: (scenario, words).
const MARKED: &[(&str, &[&str])] = &[
    ("spi-1870", SPI_ATTACK),
    ("fr1870-august", FR1870_ATTACK),
    (
        "pw-skirmish",
        &[
            "move",
            "de-cav",
            "0303",
            "face",
            "de-cav",
            "s",
            "melee",
            "de-cav",
            "fr-inf-3",
            "--dice",
            "d6=3,d6=4",
        ],
    ),
];

/// Issue 46: a game logged before SPI's and 1870's combats marked their attackers and PW's melees
/// counted, as that kepi saved it, still verifies: `log verify` takes exactly that older form of
/// those resolutions' effects.
#[test]
fn verify_accepts_a_combat_or_melee_logged_before_issue_46() {
    for (scenario, words) in MARKED {
        let save = played(&format!("before-46-{scenario}"), scenario, words);
        let at = last_resolution(&save);
        as_before_issue_46(&save, at);
        let v = ok(&["log", "verify", &save]);
        assert!(v.contains("log OK"), "{scenario}: {v}");
    }
}

/// Issue 46: the older form is taken for those forms only, and whole: a P&K fire or a PW rifle
/// shot logged without its fired mark, or a 1870 combat with one attacker's mark of two removed,
/// is still refused, naming the effects.
#[test]
fn verify_still_names_a_removed_fired_mark_elsewhere() {
    use kepi::game::{Action, Flag, FlagName};
    let drop_fired = |save: &str, at: usize, keep_first: bool| {
        let mut dropped: Vec<String> = Vec::new();
        forge(save, |log| {
            if let EntryKind::Act {
                action: Action::Resolved { effects, .. },
            } = &mut log[at].kind
            {
                let mut seen = false;
                effects.retain(|a| {
                    let fired = matches!(
                        a,
                        Action::SetFlag {
                            flag: FlagName::Flag(Flag::Fired),
                            ..
                        }
                    );
                    let keep = !fired || (keep_first && !seen);
                    seen |= fired;
                    if !keep && let Action::SetFlag { unit, .. } = a {
                        dropped.push(unit.clone());
                    }
                    keep
                });
            }
            let mut seen = false;
            log[at].summary = summary_without(&log[at].summary, |p| {
                let fired = p.ends_with("fired on");
                let drop = fired && (seen || !keep_first);
                seen |= fired;
                drop
            });
        });
        unmark_state(save, |id| dropped.iter().any(|d| d == id));
    };
    let pk = played(
        "fired-removed-pk",
        "mars-la-tour",
        &["fire", "12th-grenadiers-1", "55e-ligne-1", "--range", "10"],
    );
    let at = last_resolution(&pk);
    drop_fired(&pk, at, false);
    refused(&pk, at, "effects");
    let pw = played(
        "fired-removed-pw",
        "pw-skirmish",
        &[
            "move", "de-inf-1", "0403", "rifle", "de-inf-1", "fr-inf-1", "--dice", "d6=4",
        ],
    );
    let at = last_resolution(&pw);
    drop_fired(&pw, at, false);
    refused(&pw, at, "effects");
    let (scenario, words) = MARKED[1];
    let fr = played("fired-half-removed-fr", scenario, words);
    let at = last_resolution(&fr);
    drop_fired(&fr, at, true);
    refused(&fr, at, "effects");
}

/// Issue 46: PW-H1's notes count in words ("takes 1 hit and withdraws 1 hex"); a game an earlier
/// kepi logged with "takes 1 hit(s) and withdraws 1 hex(es)" still verifies, and a note whose
/// count was changed does not.
#[test]
fn pw_hit_notes_verify_in_their_older_bracketed_words() {
    let dir = tmp("tamper", "pw-hit-words");
    let save = new_game(&dir, "pw-skirmish", SEED);
    // Fire until a hit lands (seeded: the same every run); each fire after the first is a breach
    // the umpire goes ahead with, logged, never refused.
    let mut at = None;
    for _ in 0..30 {
        ok(&[
            "game", "apply", &save, "rifle", "de-inf-2", "fr-inf-3", "--hit", "withdraw",
        ]);
        ok(&["game", "compact", &save]);
        let i = last_resolution(&save);
        let effects = read(&save)["log"][i]["action"]["effects"].to_string();
        if effects.contains("PW-H1") {
            at = Some(i);
            break;
        }
    }
    let at = at.expect("no rifle fire hit in 30 seeded rolls");
    let note = |log: &serde_json::Value| -> String {
        log["action"]["effects"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|e| e["text"].as_str())
            .find(|t| t.starts_with("PW-H1"))
            .unwrap()
            .to_string()
    };
    let now = note(&read(&save)["log"][at]);
    assert!(
        !now.contains("(s)") && !now.contains("(es)") && now.contains(" hit"),
        "{now}"
    );
    ok(&["game", "compact", &save]);
    ok(&["log", "verify", &save]);
    let older = kepi::rules::marks_before_issue_46(&now);
    assert!(older.contains("hit(s)"), "{older}");
    // The note as a whole older entry has it: in its effects and in its summary.
    let set_note = |text: String| {
        move |raw: &mut Vec<serde_json::Value>| {
            let was = note(&raw[at]);
            let summary = raw[at]["summary"].as_str().unwrap().replace(&was, &text);
            raw[at]["summary"] = summary.into();
            for e in raw[at]["action"]["effects"].as_array_mut().unwrap() {
                if e["text"].as_str().is_some_and(|t| t.starts_with("PW-H1")) {
                    e["text"] = text.clone().into();
                }
            }
        }
    };
    forge_json(&save, set_note(older));
    let out = ok(&["log", "verify", &save]);
    assert!(out.contains("log OK"), "{out}");
    forge_json(&save, set_note(now.replacen(" takes ", " takes 9", 1)));
    refused(&save, at, "effects");
}

/// Issue 42's breaches are noted since log revision 1 (`rev` on each entry): `kepi log verify`
/// excuses a missing one only in an entry an earlier kepi wrote (revision 0). A note cut from an
/// entry written now is caught; so is the entry's revision set back to 0 to hide the cut, as a
/// log's revisions never go down. (A forger who sets every entry back to 0 makes the whole log
/// read as an earlier kepi's, whose entries did not note these breaches: that stays excused.)
#[test]
fn a_breach_note_cut_from_an_entry_written_now_is_caught() {
    let dir = tmp("tamper", "rev");
    let save = new_game(&dir, "pw-skirmish", SEED);
    // Before next-phase the skirmish is not in a movement phase (PW-T1).
    ok(&["game", "apply", &save, "move", "de-inf-1", "0206"]);
    ok(&["game", "compact", &save]);
    let log = read(&save)["log"].clone();
    let at = log.as_array().unwrap().len() - 1;
    assert_eq!(
        log[at]["rev"],
        kepi::game::LOG_REVISION,
        "an entry written now carries its revision"
    );
    assert!(
        log[at]["action"]["notes"]
            .to_string()
            .contains("not a movement phase"),
        "the move out of its phase is noted: {}",
        log[at]["action"]["notes"]
    );
    let cut = |log: &mut Vec<LogEntry>| {
        if let EntryKind::Act {
            action: kepi::game::Action::Move { notes, .. },
        } = &mut log[at].kind
        {
            notes.retain(|n| !n.contains("not a movement phase"));
        }
    };
    let original = std::fs::read_to_string(&save).unwrap();
    forge(&save, cut);
    refused(&save, at, "action.notes");
    // The entry set back to revision 0 to look older: its revision is below the one before it.
    std::fs::write(&save, &original).unwrap();
    forge(&save, |log| {
        cut(log);
        log[at].rev = 0;
    });
    refused(&save, at, "rev");
    // Every entry set back to 0: the log reads as an earlier kepi's, and verifies as one.
    std::fs::write(&save, &original).unwrap();
    forge(&save, |log| {
        cut(log);
        log.iter_mut().for_each(|e| e.rev = 0);
    });
    let out = ok(&["log", "verify", &save]);
    assert!(out.contains("log OK"), "{out}");
}

/// FR-F1, H12: since log revision 2 a fortress its besiegers take passes to them and the siege is
/// lifted as effects of the combat. Cut from an entry written now, `kepi log verify` says so; a
/// log an earlier kepi wrote (revision 1, which left the fortress to the umpire) still verifies
/// without them.
#[test]
fn a_fortress_taken_by_assault_cut_from_an_entry_is_caught_but_not_from_an_older_one() {
    let dir = tmp("tamper", "h12");
    let save = super::fortress_cli::scenario(&dir);
    ok(&[
        "game", "apply", &save, "siege", "--place", "Oc", "--cell", "4010", "--by", "fr-oc",
    ]);
    ok(&["game", "apply", &save, "next-phase"]);
    ok(&[
        "game",
        "apply",
        &save,
        "combat",
        "--attackers",
        "fr-oc",
        "--hex",
        "4010",
        "--dice",
        "d6=4",
        "--result",
        "DE",
    ]);
    ok(&["game", "compact", &save]);
    let log = read(&save)["log"].clone();
    let at = log.as_array().unwrap().len() - 1;
    assert_eq!(
        log[at]["rev"],
        kepi::game::LOG_REVISION,
        "an entry written now carries its revision"
    );
    let effects = log[at]["action"]["effects"].to_string();
    assert!(
        effects.contains("possess") && effects.contains("set-siege"),
        "{effects}"
    );
    let cut = |log: &mut Vec<LogEntry>| {
        let e = &mut log[at];
        if let EntryKind::Act {
            action: kepi::game::Action::Resolved { effects, .. },
        } = &mut e.kind
        {
            effects.retain(|a| {
                !matches!(
                    a,
                    kepi::game::Action::Possess { .. } | kepi::game::Action::SetSiege { .. }
                )
            });
        }
        e.summary = summary_without(&e.summary, |p| {
            p.contains("possession") || p.contains("no longer besieged")
        });
    };
    // The state that log replays to: the fortress German and besieged still, as the siege's
    // entry laid it (the forger keeps the two in step).
    fn laid(v: &serde_json::Value) -> Option<serde_json::Value> {
        match v {
            serde_json::Value::Object(m) if m.get("type") == Some(&"set-siege".into()) => {
                m.get("siege").cloned()
            }
            serde_json::Value::Object(m) => m.values().find_map(laid),
            serde_json::Value::Array(a) => a.iter().find_map(laid),
            _ => None,
        }
    }
    let sieges_before = serde_json::Value::Array(vec![laid(&log).unwrap()]);
    let keep_state = |save: &str| {
        let mut s = read(save);
        s["state"]["sieges"] = sieges_before.clone();
        for u in s["state"]["units"].as_array_mut().unwrap() {
            if u["unit"]["id"] == "fort-oc" {
                u["unit"]["side"] = "german".into();
            }
        }
        std::fs::write(save, serde_json::to_string_pretty(&s).unwrap()).unwrap();
    };
    // The whole log as the kepi of revision 1 wrote it: the assault left the fortress alone.
    caught_now_but_not_before(&save, at, "effects", 2, cut, keep_state);
}

/// SPI-E2: since log revision 3 a move logs the rail cut it makes as its effect. Cut from an entry
/// written now (the state kept in step), `kepi log verify` says so; the same log as an earlier
/// kepi wrote it (revision 2, which left the marker to the umpire) still verifies without it.
#[test]
fn a_rail_cut_cut_from_a_move_is_caught_but_not_from_an_older_one() {
    let save = super::spi_supply_cli::game("tamper-cut");
    ok(&["game", "apply", &save, "move", "de-2-5-2", "0303"]);
    ok(&["game", "compact", &save]);
    let log = read(&save)["log"].clone();
    let at = log.as_array().unwrap().len() - 1;
    assert_eq!(log[at]["rev"], kepi::game::LOG_REVISION);
    let fx = &log[at]["action"]["effects"];
    assert_eq!(
        (
            &fx[0]["type"],
            &fx[0]["kind"],
            &fx[0]["on"],
            &fx[0]["cell"]["col"]
        ),
        (&"mark".into(), &"rail-cut".into(), &true.into(), &3.into()),
        "{fx}"
    );
    move_effects_caught_now_but_not_before(&save, at, "SPI-E2", 3);
}

/// SPI-E2: since log revision 5 an EB unit's move logs the enemy's rail hexes it secures as its
/// effects. Cut from an entry written now (the state kept in step), `kepi log verify` says so;
/// the same log as an earlier kepi wrote it (revision 4, which left the line to the umpire) still
/// verifies without them.
#[test]
fn a_secured_line_cut_from_an_eb_move_is_caught_but_not_from_an_older_one() {
    let save = super::spi_supply_cli::secured_line_game("tamper-secured");
    ok(&["game", "apply", &save, "move", "de-eb-1", "0904"]);
    ok(&["game", "compact", &save]);
    let log = read(&save)["log"].clone();
    let at = log.as_array().unwrap().len() - 1;
    assert_eq!(log[at]["rev"], kepi::game::LOG_REVISION);
    let fx = log[at]["action"]["effects"].as_array().unwrap();
    assert_eq!(fx.len(), 4, "{fx:?}");
    assert!(
        fx.iter().all(|e| e["kind"] == "secured" && e["on"] == true),
        "{fx:?}"
    );
    move_effects_caught_now_but_not_before(&save, at, "SPI-E2", 5);
}

/// FR-G1 (G3): since log revision 5 a move logs the passage markers of the enemy's rail cells its
/// unit passed over. Cut from an entry written now (the state kept in step), `kepi log verify`
/// says so; the same log as an earlier kepi wrote it (revision 4) still verifies without them.
#[test]
fn a_passage_cut_from_a_1870_move_is_caught_but_not_from_an_older_one() {
    let save = super::fr1870_board_cli::game_on(
        "tamper-passage",
        &super::fr1870_board_cli::map_with_section(),
    );
    ok(&["game", "apply", &save, "move", "de-b", "0407"]);
    ok(&["game", "compact", &save]);
    let log = read(&save)["log"].clone();
    let at = log.as_array().unwrap().len() - 1;
    assert_eq!(log[at]["rev"], kepi::game::LOG_REVISION);
    assert_eq!(log[at]["action"]["effects"][0]["kind"], "passage-german");
    move_effects_caught_now_but_not_before(&save, at, "FR-G1", 5);
}

/// SPI-W1: since log revision 5 a German unit's move off the west edge logs its mark and its
/// exit hex's as its effects. Cut from an entry written now (the state kept in step), `kepi log
/// verify` says so; the same log as an earlier kepi wrote it (revision 4, which left the count
/// to the umpire) still verifies without them.
#[test]
fn an_exit_cut_from_a_move_off_the_west_edge_is_caught_but_not_from_an_older_one() {
    let save = super::spi_supply_cli::secured_line_game("tamper-exit");
    // The French EB units onto the map first: an entry set back to revision 5 would push those
    // waiting off it back (SPI-E1 Case C, mended in revision 6), a check the forged state lacks.
    super::common::place(
        &save,
        &[
            ("fr-eb-1", "0101"),
            ("fr-eb-2", "0201"),
            ("fr-eb-3", "0301"),
        ],
    );
    ok(&["game", "apply", &save, "move", "de-2-5-2", "off"]);
    ok(&["game", "compact", &save]);
    let log = read(&save)["log"].clone();
    let at = log.as_array().unwrap().len() - 1;
    let fx = log[at]["action"]["effects"].to_string();
    assert!(
        fx.contains("exited-west") && fx.contains("exit-west"),
        "{fx}"
    );
    move_effects_caught_now_but_not_before(&save, at, "SPI-W1", 5);
}

/// SPI-L1: since log revision 3 an entrained unit's move along no rail line is noted with the
/// move. Cut from an entry written now, `kepi log verify` says so; an entry an earlier kepi wrote
/// (revision 2) without it still verifies.
#[test]
fn a_rail_movement_note_cut_from_a_move_is_caught_but_not_from_an_older_one() {
    let save = super::spi_supply_cli::entrained_on_the_line("tamper-rail-move");
    ok(&["game", "apply", &save, "move", "fr-metz-5", "0505"]);
    ok(&["game", "compact", &save]);
    let log = read(&save)["log"].clone();
    let at = log.as_array().unwrap().len() - 1;
    assert!(
        log[at]["action"]["notes"]
            .to_string()
            .contains("no rail line of France"),
        "{}",
        log[at]
    );
    let cut = |log: &mut Vec<LogEntry>| {
        if let EntryKind::Act {
            action: kepi::game::Action::Move { notes, .. },
        } = &mut log[at].kind
        {
            notes.retain(|n| !n.contains("no rail line"));
        }
    };
    caught_now_but_not_before(&save, at, "action.notes", 3, cut, |_| {});
}

/// [`caught_now_but_not_before`] for the markers a move puts on the board or its unit (its
/// `effects`, and its summary after "; " and its rule `rule` with them), recorded since log
/// revision `since`: the saved state kept in step (its markers gone).
fn move_effects_caught_now_but_not_before(save: &str, at: usize, rule: &str, since: u32) {
    let cut = |log: &mut Vec<LogEntry>| {
        let e = &mut log[at];
        if let EntryKind::Act {
            action: kepi::game::Action::Move { effects, .. },
        } = &mut e.kind
        {
            effects.clear();
        }
        // "... moves to 0904; secured line marked at 1204; ...": the move alone.
        e.summary = e.summary.split("; ").next().unwrap_or_default().to_string();
        e.rules.retain(|r| r != rule);
    };
    // The board's markers and the units' (a unit moved off the west edge, SPI-W1).
    let no_marks = |save: &str| {
        let mut s = read(save);
        let state = s["state"].as_object_mut().unwrap();
        state
            .remove("marks")
            .expect("the state had the move's markers");
        for u in state["units"].as_array_mut().unwrap() {
            u.as_object_mut().unwrap().remove("marks");
        }
        std::fs::write(save, serde_json::to_string_pretty(&s).unwrap()).unwrap();
    };
    caught_now_but_not_before(save, at, "action.effects", since, cut, no_marks);
}

/// What kepi records since log revision `since`, cut from entry `at` of `save` by `cut` (the
/// saved state kept in step by `keep`): written now, `kepi log verify` refuses it naming
/// `member`; the same log with every entry set back to the revision before (an earlier kepi,
/// which did not record it) verifies.
fn caught_now_but_not_before(
    save: &str,
    at: usize,
    member: &str,
    since: u32,
    cut: impl Fn(&mut Vec<LogEntry>),
    keep: impl Fn(&str),
) {
    let original = std::fs::read_to_string(save).unwrap();
    forge(save, &cut);
    keep(save);
    refused(save, at, member);
    std::fs::write(save, &original).unwrap();
    forge(save, |log| {
        cut(log);
        log.iter_mut().for_each(|e| e.rev = e.rev.min(since - 1));
    });
    keep(save);
    let out = ok(&["log", "verify", save]);
    assert!(out.contains("log OK"), "{out}");
}

/// SPI-S1: since log revision 4 the allowance is judged on the supply at the start of the
/// Movement Phase. A move an earlier kepi logged judged it on the board as it stood, and may note
/// an allowance halved by the move before it: such an entry (revision 3) verifies with that note;
/// the same note slipped into an entry written now is caught.
#[test]
fn an_allowance_judged_the_old_way_verifies_in_an_older_entry_only() {
    let save = super::common::spi_game_on_map(
        "tamper",
        "allowance",
        "supply-test.toml",
        super::spi_supply_cli::MAP,
    );
    super::common::place(&save, &[("de-2-5-1", "0503")]);
    ok(&["game", "apply", &save, "next-phase"]);
    ok(&["game", "apply", &save, "move", "de-2-5-1", "0203"]);
    ok(&["game", "apply", &save, "move", "de-2-5-1", "0206"]);
    ok(&["game", "compact", &save]);
    let at = read(&save)["log"].as_array().unwrap().len() - 1;
    let old_note = "umpire went ahead: German 5 (area 2, #1) spends 6 MP this Movement Phase, \
                    over its allowance of 4 (SPI-T1, Movement Case A, halved: unsupplied, SPI-S1)";
    let slip = |log: &mut Vec<LogEntry>| {
        if let EntryKind::Act {
            action: kepi::game::Action::Move { notes, .. },
        } = &mut log[at].kind
        {
            notes.push(old_note.to_string());
        }
    };
    let original = std::fs::read_to_string(&save).unwrap();
    forge(&save, slip);
    refused(&save, at, "action.notes");
    std::fs::write(&save, &original).unwrap();
    forge(&save, |log| {
        slip(log);
        log.iter_mut().for_each(|e| e.rev = e.rev.min(3));
    });
    let out = ok(&["log", "verify", &save]);
    assert!(out.contains("log OK"), "{out}");
}
