//! Issue 29, "Wrong answers": hostile numbers, control characters in names and forged outcomes.
//! Each is refused or caught with a clean error naming what was wrong: never a panic, never a
//! wrong answer.

use crate::common::{forgery_caught, new_game, ok, play, refused, tmp};

const I64_MAX: &str = "9223372036854775807";
const I64_MIN: &str = "-9223372036854775808";

/// (`kepi resolve` words, the flag, its accepted range, a value inside the range the rule takes
/// at each end): several resolvers of each of the five rule sets.
const RANGED: &[(&str, &str, i64, i64, i64, i64)] = &[
    (
        "pk fire-first --class-a line --class-b elite",
        "situation-a",
        -100,
        100,
        -100,
        100,
    ),
    (
        "pk fire-first --class-a line --class-b elite",
        "situation-b",
        -100,
        100,
        -100,
        100,
    ),
    (
        "pk army --start-figures 100 --figures 10",
        "modifier",
        -100,
        100,
        -100,
        100,
    ),
    (
        "pk army --start-figures 100 --figures 10",
        "broken-units",
        0,
        10_000,
        0,
        10_000,
    ),
    (
        "pk fire --figures 10 --class line",
        "target-figures",
        0,
        10_000,
        0,
        10_000,
    ),
    ("pk fire --class line", "figures", 0, 10_000, 1, 10_000),
    ("pk fatigue", "fatigue", 0, 1_000, 0, 1_000),
    (
        "pk melee --figures 10 --class line",
        "melee-move",
        0,
        100,
        1,
        100,
    ),
    (
        "pk collapse --building-points 3",
        "occupants",
        0,
        10_000,
        0,
        10_000,
    ),
    ("pk initiative --dpct-b 5", "dpct-a", 1, 100, 1, 100),
    ("pw artillery --army prussian", "sp", 1, 20, 1, 20),
    (
        "pw melee --unit infantry --enemy cavalry",
        "sp",
        1,
        20,
        1,
        20,
    ),
    (
        "pw defeat --sp-lost 3 --units-lost 1 --units-total 5",
        "sp-total",
        0,
        200_000,
        3,
        200_000,
    ),
    (
        "pw defeat --sp-lost 3 --sp-total 9 --units-total 5",
        "units-lost",
        0,
        10_000,
        0,
        5,
    ),
    (
        "gsp structure --kind wall --pips 3",
        "damage-so-far",
        0,
        1_000,
        0,
        1_000,
    ),
    ("gsp crew --hits 2", "cannoneers", 0, 100, 0, 100),
    ("gsp crew --hits 2", "horses", 0, 100, 0, 100),
    (
        "gsp fire --gun prussian-4-6pdr-shell --sector 3",
        "turned",
        0,
        360,
        0,
        360,
    ),
    ("spi combat --defend 5", "attack", 0, 10_000, 1, 10_000),
    (
        "spi combat --attack 10 --defend 5",
        "fortress",
        0,
        10_000,
        0,
        10_000,
    ),
    (
        "spi victory",
        "net-vp",
        -100_000,
        100_000,
        -100_000,
        100_000,
    ),
    ("fr1870 combat --attack 10", "defend", 0, 10_000, 1, 10_000),
    (
        "fr1870 combat --attack 10 --defend 5",
        "die-mod",
        -10,
        10,
        -10,
        10,
    ),
    ("fr1870 storm", "value", 1, 3, 1, 1),
];

/// Every ranged flag of the table: i64::MAX, i64::MIN, a 30-digit number and one past each end
/// are refused naming the flag and its range; the values at the ends resolve. Returns the number
/// of hostile values tried.
#[test]
fn every_number_outside_its_range_is_refused_naming_flag_and_range() {
    let mut hostile = 0;
    for &(words, flag, lo, hi, in_lo, in_hi) in RANGED {
        let base: Vec<&str> = std::iter::once("resolve")
            .chain(words.split(' '))
            .chain(["--seed", "3"])
            .collect();
        let long = format!("--{flag}");
        let accepted = format!("accepted: {lo} to {hi}");
        for v in [
            I64_MAX.to_string(),
            I64_MIN.to_string(),
            "999999999999999999999999999999".to_string(),
            "4294967296".to_string(),
            (lo - 1).to_string(),
            (hi + 1).to_string(),
        ] {
            let mut args = base.clone();
            args.extend([long.as_str(), v.as_str()]);
            let err = refused(&args);
            assert!(
                err.contains(&long) && err.contains(&accepted),
                "kepi {args:?}: {err}"
            );
            hostile += 1;
        }
        for v in [in_lo.to_string(), in_hi.to_string()] {
            let mut args = base.clone();
            args.extend([long.as_str(), v.as_str()]);
            ok(&args);
        }
    }
    assert_eq!(hostile, 6 * RANGED.len());
}

/// The issue's case: a wrapped score was printed ("A -9223372036854775804") and logged.
#[test]
fn the_wrapping_situation_and_army_modifier_are_refused() {
    let err = refused(&[
        "resolve",
        "pk",
        "fire-first",
        "--class-a",
        "line",
        "--class-b",
        "elite",
        "--situation-a",
        I64_MAX,
    ]);
    assert!(
        err.contains("--situation-a") && err.contains("-100 to 100"),
        "{err}"
    );
    let err = refused(&[
        "resolve",
        "pk",
        "army",
        "--start-figures",
        "100",
        "--figures",
        "10",
        "--modifier",
        I64_MAX,
    ]);
    assert!(
        err.contains("--modifier") && err.contains("-100 to 100"),
        "{err}"
    );
}

/// `kepi game apply` takes the same flags with the same parser, and its own counts are ranged:
/// nothing is logged by a refused line, and the log still verifies.
#[test]
fn game_apply_refuses_out_of_range_numbers_and_logs_nothing() {
    let dir = tmp("input", "apply-ranges");
    let save = new_game(&dir, "mars-la-tour", "1870");
    let before = ok(&["log", "show", &save]);
    let cases: &[&[&str]] = &[
        &[
            "army",
            "--start-figures",
            "100",
            "--figures",
            "10",
            "--modifier",
            I64_MAX,
        ],
        &[
            "army",
            "--start-figures",
            "100",
            "--figures",
            "10",
            "--modifier",
            I64_MIN,
        ],
        &["army", "--start-figures", "4294967296", "--figures", "10"],
        &[
            "fire",
            "12th-grenadiers-1",
            "55e-ligne-1",
            "--target-figures",
            "10001",
        ],
        &["lose", "12th-grenadiers-1", "4294967296"],
        &["gain", "12th-grenadiers-1", "-1"],
        &["fatigue", "12th-grenadiers-1", I64_MAX],
        &["set", "12th-grenadiers-1", "strength", "100001"],
    ];
    for verb in cases {
        let mut args = vec!["game", "apply", &save];
        args.extend_from_slice(verb);
        let err = refused(&args);
        assert!(err.contains("accepted:"), "kepi {args:?}: {err}");
    }
    assert_eq!(ok(&["log", "show", &save]), before);
    ok(&["log", "verify", &save]);
}

/// The control characters the card reader refuses: C0 (ESC, BEL, NUL, a line break, a tab), DEL
/// and C1 (CSI, NEL).
const CONTROLS: &[(&str, &str)] = &[
    ("\\u001B]0;pwned\\u0007", "\\u{1b}"),
    ("\\u0007", "\\u{7}"),
    ("\\u0000", "\\u{0}"),
    ("\\n  forged-line", "\\u{a}"),
    ("\\r", "\\u{d}"),
    ("\\t", "\\u{9}"),
    ("\\u007F", "\\u{7f}"),
    ("\\u009B31m", "\\u{9b}"),
    ("\\u0085", "\\u{85}"),
];

/// A card's text field with a control character is refused naming the file, line, field and what
/// is accepted, like any card error (cards check, game new, roster print); a note may hold line
/// breaks. Returns nothing; counts 9 x 8 hostile cards.
#[test]
fn control_characters_in_cards_are_refused_at_their_line() {
    let dir = tmp("input", "card-controls");
    let card = |field: &str, value: &str| {
        let mut s = String::from("system = \"pk\"\nname = \"evil\"\ntitle = \"T\"\n[[unit]]\n");
        for (f, v) in [
            ("name", "Good Name"),
            ("side", "french"),
            ("arm", "infantry"),
            ("quality", "line"),
            ("nation", "France"),
            ("army", "Rhine"),
            ("corps", "II"),
            ("division", "1st"),
            ("brigade", "2nd"),
            ("location", "Metz"),
            ("notes", "fine"),
        ] {
            let v = if f == field { value } else { v };
            s.push_str(&format!("{f} = \"{v}\"\n"));
        }
        s.push_str("strength = 10\n");
        if field == "title" {
            s = s.replace("title = \"T\"", &format!("title = \"{value}\""));
        }
        s
    };
    let fields = [
        ("name", 5, "unit[0].name"),
        ("nation", 9, "unit[0].nation"),
        ("army", 10, "unit[0].army"),
        ("corps", 11, "unit[0].corps"),
        ("division", 12, "unit[0].division"),
        ("brigade", 13, "unit[0].brigade"),
        ("location", 14, "unit[0].location"),
        ("title", 3, "title"),
    ];
    let mut tried = 0;
    for (field, line, named) in fields {
        for (raw, escaped) in CONTROLS {
            let file = dir.join("bad.toml");
            std::fs::write(&file, card(field, &format!("Bad{raw}Name"))).unwrap();
            let path = file.to_str().unwrap();
            let err = refused(&["cards", "check", path]);
            assert!(
                err.contains(&format!("bad.toml:{line}:"))
                    && err.contains(named)
                    && err.contains(escaped)
                    && err.contains("no control characters"),
                "{field} {raw}: {err}"
            );
            let out = dir.join("g.json");
            let err = refused(&[
                "game",
                "new",
                "--scenario",
                path,
                "--out",
                out.to_str().unwrap(),
            ]);
            assert!(err.contains(named), "{err}");
            assert!(!out.exists());
            tried += 1;
        }
    }
    assert_eq!(tried, 72);
    // A note may run over several lines (a tab too); an ESC in it is refused.
    let file = dir.join("notes.toml");
    std::fs::write(&file, card("notes", "line one\\n\\tline two")).unwrap();
    ok(&["cards", "check", file.to_str().unwrap()]);
    std::fs::write(&file, card("notes", "bad\\u001B[2J")).unwrap();
    let err = refused(&["cards", "check", file.to_str().unwrap()]);
    assert!(
        err.contains("unit[0].notes") && err.contains("\\u{1b}"),
        "{err}"
    );
}

/// One game per rule set, with the resolutions its verbs make (forms between units and
/// unit-less actions): (scenario, words of `kepi game apply`).
const GAMES: &[(&str, &[&str])] = &[
    (
        "mars-la-tour",
        &[
            "fire",
            "12th-grenadiers-1",
            "55e-ligne-1",
            "--range",
            "10",
            "army",
            "--start-figures",
            "100",
            "--figures",
            "10",
            "--modifier",
            "3",
            "initiative",
            "lose",
            "52nd-infantry-1",
            "2",
        ],
    ),
    ("pw-skirmish", &["activate", "de-inf-1", "first-side"]),
    (
        "st-privat",
        &["artillery", "gfar-heavy-1", "9e-ligne-1", "--guns", "1"],
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
            "--result",
            "A1/D2",
            "--dice",
            "d6=3",
            "victory",
            "--net-vp",
            "5",
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

/// A game of `scenario` with `words` applied; returns the save.
fn played(area: &str, scenario: &str, words: &[&str]) -> String {
    let dir = tmp("input", area);
    let save = new_game(&dir, scenario, "29");
    play(&save, words);
    save
}

use kepi::game::{Action, EntryKind, GENESIS, Game, LogEntry, entry_hash};

/// Rewrites the save's journal as a forger would: `edit` the entries, then recompute every
/// entry's hash and link.
fn forge_journal(save: &str, edit: impl FnOnce(&mut Vec<LogEntry>)) {
    let path = format!("{save}.journal");
    let text = std::fs::read_to_string(&path).unwrap();
    let (mut head, mut log) = (Vec::new(), Vec::new());
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        match v.get("entry") {
            Some(e) => log.push(serde_json::from_value::<LogEntry>(e.clone()).unwrap()),
            None => head.push(line.to_string()),
        }
    }
    edit(&mut log);
    let mut prev = GENESIS.to_string();
    for e in &mut log {
        e.prev = prev;
        e.hash = entry_hash(e);
        prev = e.hash.clone();
    }
    let mut out = head.join("\n");
    for e in &log {
        out.push('\n');
        out.push_str(&serde_json::json!({ "entry": e }).to_string());
    }
    out.push('\n');
    std::fs::write(&path, out).unwrap();
}

/// The entry's summary as kepi writes it for its (edited) action: what a careful forger writes.
fn resummarise(log: &mut [LogEntry], i: usize) {
    let before = Game::from_log(log[..i].to_vec(), None).unwrap();
    if let EntryKind::Act { action } = &log[i].kind {
        log[i].summary = action.describe(before.state());
    }
}

/// The first resolution entry whose action is `what` ("fire", "army"...), or any when "".
fn resolution_at(log: &[LogEntry], what: &str) -> usize {
    log.iter()
        .position(|e| {
            matches!(&e.kind, EntryKind::Act { action: Action::Resolved { resolution, .. } }
                if what.is_empty() || resolution.action == what)
        })
        .unwrap()
}

/// Untouched journals of all five rule sets verify, every resolution resolved again.
#[test]
fn untouched_logs_of_every_rule_set_verify_with_every_resolution_resolved_again() {
    for (scenario, words) in GAMES {
        let save = played(&format!("verify-{scenario}"), scenario, words);
        let out = ok(&["log", "verify", &save]);
        let n = words
            .iter()
            .filter(|w| {
                [
                    "fire",
                    "army",
                    "initiative",
                    "activate",
                    "first-side",
                    "artillery",
                    "combat",
                    "victory",
                ]
                .contains(w)
            })
            .count();
        assert!(
            out.contains(&format!("; {n} resolution(s) resolved again")),
            "{scenario}: {out}"
        );
    }
}

/// Issue 29's forgeries, the chain recomputed each time: a fire's casualties and summary
/// rewritten (with its effect and the entry's summary to match), an effect edited under its old
/// summary, a lose-strength `n` 2 -> 5 under "loses 2", a unit-less roll's outcome, a result's
/// words; and one outcome value forged in a resolution of each other rule set.
#[test]
fn forged_outcomes_are_caught_by_log_verify() {
    let (scenario, words) = GAMES[0];
    let save = played("forge-pk", scenario, words);
    let journal = format!("{save}.journal");
    let good = std::fs::read(&journal).unwrap();
    let log_of = || -> Vec<LogEntry> {
        let mut log = Vec::new();
        forge_journal(&save, |l| log = l.clone());
        log
    };
    let log = log_of();
    let fire = resolution_at(&log, "fire");
    let mut forged = 0;

    // 1. Casualties c -> c + 7 everywhere a forger can write them: the outcome, the result's
    // words, the effect and the entry's summary.
    forge_journal(&save, |log| {
        if let EntryKind::Act {
            action:
                Action::Resolved {
                    resolution,
                    effects,
                    ..
                },
        } = &mut log[fire].kind
        {
            let c = resolution.outcome.as_ref().unwrap()["casualties"]
                .as_u64()
                .unwrap();
            resolution.outcome.as_mut().unwrap()["casualties"] = (c + 7).into();
            resolution.summary = resolution
                .summary
                .replace(&format!("{c} casualties"), &format!("{} casualties", c + 7));
            for e in effects.iter_mut() {
                if let Action::LoseStrength { n, .. } = e {
                    *n = (c + 7) as u32;
                }
            }
        }
        resummarise(log, fire);
    });
    forgery_caught(&save, fire, &["casualties: logged", "dice give"]);
    forged += 1;

    // 2. Only the effect: the unit loses 5 more, the summary still says what the dice gave.
    std::fs::write(&journal, &good).unwrap();
    forge_journal(&save, |log| {
        if let EntryKind::Act {
            action: Action::Resolved { effects, .. },
        } = &mut log[fire].kind
        {
            for e in effects.iter_mut() {
                if let Action::LoseStrength { n, .. } = e {
                    *n += 5;
                }
            }
        }
    });
    forgery_caught(&save, fire, &["but its action gives"]);
    forged += 1;

    // 3. The effect and the entry's summary, the outcome left: the effects are not the outcome's.
    std::fs::write(&journal, &good).unwrap();
    forge_journal(&save, |log| {
        if let EntryKind::Act {
            action: Action::Resolved { effects, .. },
        } = &mut log[fire].kind
        {
            for e in effects.iter_mut() {
                if let Action::LoseStrength { n, .. } = e {
                    *n += 5;
                }
            }
        }
        resummarise(log, fire);
    });
    forgery_caught(&save, fire, &["effects", "not what its outcome gives"]);
    forged += 1;

    // 4. The issue's case: a lose-strength `n` 2 -> 5 under the summary "loses 2".
    std::fs::write(&journal, &good).unwrap();
    let lose = log
        .iter()
        .position(|e| {
            matches!(
                &e.kind,
                EntryKind::Act {
                    action: Action::LoseStrength { .. }
                }
            )
        })
        .unwrap();
    forge_journal(&save, |log| {
        if let EntryKind::Act {
            action: Action::LoseStrength { n, .. },
        } = &mut log[lose].kind
        {
            assert_eq!(*n, 2);
            *n = 5;
        }
        assert!(log[lose].summary.contains("loses 2"));
    });
    forgery_caught(&save, lose, &["loses 2", "loses 5"]);
    forged += 1;

    // 5. A unit-less roll (army morale): its outcome and summary rewritten consistently.
    std::fs::write(&journal, &good).unwrap();
    let army = resolution_at(&log, "army");
    forge_journal(&save, |log| {
        if let EntryKind::Act {
            action: Action::Resolved { resolution, .. },
        } = &mut log[army].kind
        {
            let o = resolution.outcome.as_mut().unwrap();
            let s = o["score"].as_i64().unwrap();
            o["score"] = (s + 4).into();
            resolution.summary = resolution
                .summary
                .replace(&format!("score {s}"), &format!("score {}", s + 4));
        }
        resummarise(log, army);
    });
    forgery_caught(&save, army, &["score: logged"]);
    forged += 1;

    // 6. The result's words only ("3 casualties" -> "9 casualties"), the numbers left.
    std::fs::write(&journal, &good).unwrap();
    forge_journal(&save, |log| {
        if let EntryKind::Act {
            action: Action::Resolved { resolution, .. },
        } = &mut log[fire].kind
        {
            resolution.summary.push_str(", and the colonel fell");
        }
        resummarise(log, fire);
    });
    forgery_caught(
        &save,
        fire,
        &["the colonel fell", "its input and dice give"],
    );
    forged += 1;
    std::fs::write(&journal, &good).unwrap();
    ok(&["log", "verify", &save]);

    // 7-10. One outcome value of a resolution of each other rule set, with the words to match.
    for (scenario, words) in &GAMES[1..] {
        let save = played(&format!("forge-{scenario}"), scenario, words);
        let mut at = 0;
        forge_journal(&save, |log| {
            at = resolution_at(log, "");
            if let EntryKind::Act {
                action: Action::Resolved { resolution, .. },
            } = &mut log[at].kind
            {
                let o = resolution
                    .outcome
                    .as_mut()
                    .unwrap()
                    .as_object_mut()
                    .unwrap();
                let (k, v) = o
                    .iter_mut()
                    .find(|(_, v)| v.is_u64() || v.is_boolean())
                    .unwrap();
                *v = match v.as_u64() {
                    Some(n) => (n + 1).into(),
                    None => (!v.as_bool().unwrap()).into(),
                };
                let k = k.clone();
                resolution.summary.push_str(&format!(" ({k} forged)"));
            }
            resummarise(log, at);
        });
        forgery_caught(&save, at, &["logged", "dice give"]);
        forged += 1;
    }
    assert_eq!(forged, 10);
}
