//! One grammar (issue 15, item 5): every resolver form of every rule set is a verb of
//! `kepi game apply`, pre-filled from the units, with `kepi resolve`'s option names, `--dice`, and
//! an `"outcome"` in its JSON line that is the very object `kepi resolve ... --json` prints.
//!
//! The table below has one row per form of every rule set. Each row starts a game of a bundled
//! scenario of that rule set with a fixed seed, rolls the verb with kepi's seeded dice (exit 0, an
//! outcome object, the log one entry longer), then the same verb with physical dice, whose outcome
//! must equal what `kepi resolve` prints for the same situation and the same dice.

use serde_json::Value;

use super::common::{apply, log_len, ok, refused, show, tmp};

/// One form of one rule set.
struct Row {
    /// The rule set, for messages.
    system: &'static str,
    /// A bundled scenario of that rule set.
    scenario: &'static str,
    /// Verbs that set the scene (move units into hexes, unlimber a battery).
    setup: &'static [&'static str],
    /// The verb, its units and options.
    verb: &'static [&'static str],
    /// The physical dice for `--dice`.
    dice: &'static str,
    /// Where in the outcome, and the `kepi resolve` command (with the same dice) that must print
    /// the same object there.
    oracle: &'static [(&'static str, &'static [&'static str])],
}

const ROWS: &[Row] = &[
    Row {
        system: "pk",
        scenario: "mars-la-tour",
        setup: &[],
        verb: &["fire", "12th-grenadiers-1", "55e-ligne-1", "--enfilade"],
        dice: "d10=10,d%=20",
        oracle: &[(
            "",
            &[
                "pk",
                "fire",
                "--figures",
                "20",
                "--class",
                "veteran",
                "--weapon",
                "needle",
                "--enfilade",
                "--target-figures",
                "22",
                "--d10",
                "10",
                "--dpct",
                "20",
            ],
        )],
    },
    Row {
        system: "pk",
        scenario: "mars-la-tour",
        setup: &["flag", "far3-light-1", "limbered", "off"],
        verb: &["artillery", "far3-light-1", "55e-ligne-1", "--range", "20"],
        dice: "d10=9,d%=50",
        oracle: &[(
            "",
            &[
                "pk",
                "artillery",
                "--gun",
                "blr",
                "--points",
                "6",
                "--class",
                "veteran",
                "--range",
                "20",
                "--target-figures",
                "22",
                "--d10",
                "9",
                "--dpct",
                "50",
            ],
        )],
    },
    Row {
        system: "pk",
        scenario: "mars-la-tour",
        setup: &[],
        verb: &["melee", "12th-grenadiers-1", "55e-ligne-1", "--charge"],
        dice: "d10=7,d10=4,d%=50,d%=50",
        oracle: &[(
            "",
            &[
                "pk",
                "melee-both",
                "--a-figures",
                "20",
                "--a-class",
                "veteran",
                "--a-formation",
                "column",
                "--a-charge",
                "--b-figures",
                "22",
                "--b-class",
                "line",
                "--b-formation",
                "line",
                "--d10",
                "7",
                "--d10",
                "4",
                "--dpct",
                "50",
                "--dpct",
                "50",
            ],
        )],
    },
    Row {
        system: "pk",
        scenario: "mars-la-tour",
        setup: &["level", "55e-ligne-1", "shaken"],
        verb: &["rally", "55e-ligne-1", "--brigaded"],
        dice: "d10=6",
        oracle: &[(
            "",
            &["pk", "rally", "--class", "line", "--brigaded", "--d10", "6"],
        )],
    },
    Row {
        system: "pk",
        scenario: "mars-la-tour",
        setup: &[],
        verb: &["flag-roll", "55e-ligne-1"],
        dice: "d10=2",
        oracle: &[("", &["pk", "flag", "--class", "line", "--d10", "2"])],
    },
    Row {
        system: "pk",
        scenario: "mars-la-tour",
        setup: &["fatigue", "55e-ligne-1", "5"],
        verb: &["fatigue-check", "55e-ligne-1"],
        dice: "d10=3",
        oracle: &[("", &["pk", "fatigue", "--fatigue", "5", "--d10", "3"])],
    },
    Row {
        system: "pw",
        scenario: "pw-skirmish",
        setup: &[],
        verb: &["activate", "de-inf-1"],
        dice: "d6=1",
        oracle: &[(
            "",
            &[
                "pw",
                "activate",
                "--army",
                "prussian",
                "--quality",
                "normal",
                "--d6",
                "1",
            ],
        )],
    },
    Row {
        system: "pw",
        scenario: "pw-skirmish",
        setup: &[],
        verb: &["artillery", "de-art", "fr-inf-3"],
        dice: "d6=6",
        oracle: &[(
            "",
            &[
                "pw",
                "artillery",
                "--army",
                "prussian",
                "--sp",
                "4",
                "--range",
                "2",
                "--d6",
                "6",
            ],
        )],
    },
    Row {
        system: "pw",
        scenario: "pw-skirmish",
        setup: &[],
        verb: &["rifle", "de-inf-2", "fr-inf-3", "--target-cover"],
        dice: "d6=5",
        oracle: &[(
            "",
            &[
                "pw",
                "rifle",
                "--sp",
                "4",
                "--unit",
                "german-infantry",
                "--range",
                "3",
                "--target-cover",
                "--d6",
                "5",
            ],
        )],
    },
    Row {
        system: "pw",
        scenario: "pw-skirmish",
        setup: &["move", "de-cav", "0303", "face", "de-cav", "s"],
        verb: &["melee", "de-cav", "fr-inf-3"],
        dice: "d6=6,d6=2",
        oracle: &[
            (
                "/a",
                &[
                    "pw", "melee", "--unit", "cavalry", "--sp", "2", "--enemy", "infantry", "--d6",
                    "6",
                ],
            ),
            (
                "/b",
                &[
                    "pw", "melee", "--unit", "infantry", "--sp", "4", "--enemy", "cavalry", "--d6",
                    "2",
                ],
            ),
        ],
    },
    Row {
        system: "gsp",
        scenario: "st-privat",
        setup: &[],
        verb: &["artillery", "gfar-heavy-1", "9e-ligne-1", "--guns", "1"],
        dice: "d6=3,d6=3,d6=4",
        oracle: &[(
            "",
            &[
                "gsp",
                "fire",
                "--gun",
                "prussian-4-6pdr-shell",
                "--sector",
                "3",
                "--guns",
                "1",
                "--at",
                "on-target:infantry=14",
                "--d6",
                "3",
                "--d6",
                "3",
                "--d6",
                "4",
            ],
        )],
    },
    Row {
        system: "spi",
        scenario: "spi-1870",
        setup: &["move", "de-2-5-1", "0101", "move", "fr-metz-5", "0102"],
        verb: &[
            "combat",
            "--attackers",
            "de-2-5-1",
            "--hex",
            "0102",
            "--result",
            "A1/D2",
        ],
        dice: "d6=3",
        oracle: &[(
            "",
            &[
                "spi", "combat", "--attack", "5", "--defend", "5", "--result", "A1/D2", "--d6", "3",
            ],
        )],
    },
    Row {
        system: "fr1870",
        scenario: "fr1870-august",
        setup: &["move", "de-4b", "3001"],
        // 2 against 4 is 1:2, a column the seed prints whole: kepi's seeded die and the entered
        // one both land on a known cell (an unknown cell without --result is refused, naming the die).
        verb: &["combat", "--attackers", "fr-1rc", "--hex", "2544"],
        dice: "d6=2",
        oracle: &[(
            "",
            &[
                "fr1870", "combat", "--attack", "2", "--defend", "4", "--d6", "2",
            ],
        )],
    },
];

/// Every form of every rule set through `kepi game apply`, seeded and with dice entered.
#[test]
fn every_form_of_every_rule_set_is_an_apply_verb() {
    let mut seen = std::collections::BTreeSet::new();
    for (n, row) in ROWS.iter().enumerate() {
        let d = tmp("grammar", &format!("row{n}"));
        let save = super::common::new_game(&d, row.scenario, "11");
        assert_eq!(show(&save)["system"], row.system, "{}", row.scenario);
        if !row.setup.is_empty() {
            let mut a = vec!["game", "apply", save.as_str()];
            a.extend_from_slice(row.setup);
            ok(&a);
        }
        let what = format!("{} {:?}", row.system, row.verb);
        // Kepi's seeded dice: exit 0, an outcome object, one more log entry.
        let before = log_len(&save);
        let line = apply(&save, row.verb);
        assert!(line["outcome"].is_object(), "{what}: {line}");
        assert!(
            !line["dice"].as_array().unwrap().is_empty(),
            "{what}: rolled"
        );
        assert_eq!(log_len(&save), before + 1, "{what}: logged");
        ok(&["game", "apply", &save, "undo"]);
        // The same verb with the dice entered: the outcome `kepi resolve` prints for them.
        let mut words = row.verb.to_vec();
        words.extend(["--dice", row.dice]);
        let line = apply(&save, &words);
        for (at, resolve) in row.oracle {
            let mut r = vec!["resolve"];
            r.extend_from_slice(resolve);
            r.push("--json");
            let want: Value = serde_json::from_str(&ok(&r)).unwrap();
            let got = line["outcome"].pointer(at).cloned().unwrap_or(Value::Null);
            assert_eq!(
                got,
                want["outcome"],
                "{what} with --dice {}: outcome{at} is not `kepi resolve {}`'s",
                row.dice,
                resolve.join(" ")
            );
        }
        ok(&["log", "verify", &save]);
        seen.insert((row.system, row.verb[0]));
    }
    // One row per form of every rule set.
    assert_eq!(seen.len(), 13, "{seen:?}");
}

/// A die the resolution does not roll is refused in every rule set, not ignored.
#[test]
fn unused_dice_are_refused() {
    let d = tmp("grammar", "dice");
    let pw = super::common::new_game(&d, "pw-skirmish", "3");
    let before = log_len(&pw);
    for die in ["d10=3", "d7=2", "d%=40"] {
        let e = refused(&["game", "apply", &pw, "activate", "de-inf-1", "--dice", die]);
        assert!(e.contains("does not roll"), "{die}: {e}");
    }
    let d = tmp("grammar", "dice-fr");
    let fr = super::common::new_game(&d, "fr1870-august", "3");
    let e = refused(&[
        "game",
        "apply",
        &fr,
        "combat",
        "--attackers",
        "fr-1rc",
        "--hex",
        "2545",
        "--dice",
        "d10=3",
    ]);
    assert!(e.contains("does not roll"), "{e}");
    assert_eq!(log_len(&pw), before, "nothing applied");
}

/// More dice of a kind the roll uses than it rolls: refused, nothing applied.
#[test]
fn dice_left_over_are_refused() {
    let d = tmp("grammar", "leftover");
    let save = super::common::new_game(&d, "mars-la-tour", "3");
    let before = log_len(&save);
    let e = refused(&[
        "game",
        "apply",
        &save,
        "flag-roll",
        "55e-ligne-1",
        "--dice",
        "d10=3,d10=4",
    ]);
    assert!(
        e.contains("more dice entered") && e.contains("d10=3"),
        "{e}"
    );
    assert_eq!(log_len(&save), before, "nothing applied");
}

/// What the units set, an option clears: `--flag=off` over a disordered firer fires as
/// `kepi resolve` does without `--disordered`.
#[test]
fn a_flag_the_units_set_can_be_cleared() {
    let d = tmp("grammar", "flag-off");
    let save = super::common::new_game(&d, "mars-la-tour", "3");
    ok(&[
        "game",
        "apply",
        &save,
        "flag",
        "12th-grenadiers-1",
        "disordered",
        "on",
    ]);
    let fire = |extra: &[&str]| {
        let mut w = vec!["fire", "12th-grenadiers-1", "55e-ligne-1"];
        w.extend_from_slice(extra);
        w.extend(["--dice", "d10=10,d%=20", "undo"]);
        let mut a = vec!["game", "apply", save.as_str(), "--json"];
        a.extend_from_slice(&w);
        let out = ok(&a);
        let first: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
        first["outcome"].clone()
    };
    let resolve = |extra: &[&str]| {
        let mut r = vec![
            "resolve",
            "pk",
            "fire",
            "--figures",
            "20",
            "--class",
            "veteran",
            "--weapon",
            "needle",
            "--target-figures",
            "22",
            "--d10",
            "10",
            "--dpct",
            "20",
            "--json",
        ];
        r.extend_from_slice(extra);
        let v: Value = serde_json::from_str(&ok(&r)).unwrap();
        v["outcome"].clone()
    };
    assert_eq!(fire(&[]), resolve(&["--disordered"]), "the unit's disorder");
    assert_eq!(fire(&["--disordered=off"]), resolve(&[]), "cleared");
    assert_ne!(fire(&[]), fire(&["--disordered=off"]));
}

/// A bad option names the option and the accepted values.
#[test]
fn bad_options_name_the_option_and_the_accepted_values() {
    let d = tmp("grammar", "opts");
    let save = super::common::new_game(&d, "mars-la-tour", "3");
    let e = refused(&[
        "game",
        "apply",
        &save,
        "rally",
        "55e-ligne-1",
        "--general-death",
        "maybe",
    ]);
    assert!(
        e.contains("--general-death") && e.contains("none, nearby, with-unit"),
        "{e}"
    );
    let e = refused(&[
        "game",
        "apply",
        &save,
        "fire",
        "12th-grenadiers-1",
        "55e-ligne-1",
        "--cover",
        "moat",
    ]);
    assert!(e.contains("--cover") && e.contains("stone-building"), "{e}");
    let e = refused(&[
        "game",
        "apply",
        &save,
        "fire",
        "12th-grenadiers-1",
        "55e-ligne-1",
        "--enfilade=maybe",
    ]);
    assert!(e.contains("--enfilade") && e.contains("on, off"), "{e}");
    let e = refused(&[
        "game",
        "apply",
        &save,
        "flag-roll",
        "55e-ligne-1",
        "--bogus",
    ]);
    assert!(
        e.contains("--bogus") && e.contains("accepted: --class"),
        "{e}"
    );
    // `kepi resolve`'s name and the old spelling both work: --target-officer and --officer.
    for o in ["--target-officer", "--officer"] {
        ok(&[
            "game",
            "apply",
            &save,
            "fire",
            "12th-grenadiers-1",
            "55e-ligne-1",
            o,
            "general",
            "undo",
        ]);
    }
    let d = tmp("grammar", "opts-spi");
    let spi = super::common::new_game(&d, "spi-1870", "3");
    ok(&[
        "game",
        "apply",
        &spi,
        "move",
        "de-2-5-1",
        "0101",
        "move",
        "fr-metz-5",
        "0102",
    ]);
    let e = refused(&[
        "game",
        "apply",
        &spi,
        "combat",
        "--attackers",
        "de-2-5-1",
        "--hex",
        "0102",
        "--attack",
        "9",
    ]);
    assert!(e.contains("--attack") && e.contains("--attackers"), "{e}");
}

/// A verb of another rule set is refused, listing the game's own verbs; a shared name is the
/// game's rule set's verb.
#[test]
fn verbs_are_the_game_rule_sets() {
    let d = tmp("grammar", "clash");
    let pw = super::common::new_game(&d, "pw-skirmish", "3");
    let e = refused(&["game", "apply", &pw, "fire", "de-inf-2", "fr-inf-3"]);
    assert!(
        e.contains("Pickelhaube & Kepi") && e.contains("activate, artillery, rifle, melee"),
        "{e}"
    );
    let line = apply(&pw, &["artillery", "de-art", "fr-inf-3"]);
    let rules: Vec<&str> = line["rules"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(rules.iter().any(|r| r.starts_with("PW-")), "{rules:?}");
    let d = tmp("grammar", "clash-pk");
    let pk = super::common::new_game(&d, "mars-la-tour", "3");
    let e = refused(&[
        "game",
        "apply",
        &pk,
        "combat",
        "--attackers",
        "12th-grenadiers-1",
        "--hex",
        "0101",
    ]);
    assert!(e.contains("fire, artillery, melee, rally"), "{e}");
}

/// A combat takes every enemy in the hex; a friendly or empty hex is refused.
#[test]
fn combat_hexes_are_enemy_hexes() {
    let d = tmp("grammar", "hex");
    let save = super::common::new_game(&d, "spi-1870", "3");
    ok(&[
        "game",
        "apply",
        &save,
        "move",
        "de-2-5-1",
        "0101",
        "move",
        "de-2-5-2",
        "0201",
        "move",
        "fr-metz-5",
        "0102",
        "move",
        "de-2-6-1",
        "0202",
    ]);
    let e = refused(&[
        "game",
        "apply",
        &save,
        "combat",
        "--attackers",
        "de-2-5-1",
        "--hex",
        "0202",
    ]);
    assert!(e.contains("friendly"), "{e}");
    let e = refused(&[
        "game",
        "apply",
        &save,
        "combat",
        "--attackers",
        "de-2-5-1",
        "--hex",
        "0909",
    ]);
    assert!(e.contains("no enemy"), "{e}");
    let e = refused(&[
        "game",
        "apply",
        &save,
        "combat",
        "--attackers",
        "de-2-5-1,fr-metz-5",
        "--hex",
        "0102",
    ]);
    assert!(e.contains("opposite sides"), "{e}");
    // Units moved into place earlier in the same script attack: the hex is checked when rolled.
    let d2 = tmp("grammar", "hex-script");
    let other = super::common::new_game(&d2, "spi-1870", "3");
    let line = apply(
        &other,
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
            "-",
        ],
    );
    assert_eq!(line["outcome"]["odds"], "1:1", "{line}");
    // Two attackers together: 10 against 5 is 2:1.
    let line = apply(
        &save,
        &[
            "combat",
            "--attackers",
            "de-2-5-1,de-2-5-2",
            "--hex",
            "0102",
            "--dice",
            "d6=3",
            "--result",
            "-",
        ],
    );
    assert_eq!(line["outcome"]["odds"], "2:1", "{line}");
}

/// The `kepi resolve` actions no form covers are verbs too: rolled with the game's dice (or the
/// dice entered), logged, with `kepi resolve`'s outcome; they change no unit.
#[test]
fn unit_less_actions_are_verbs_too() {
    let rows: &[(&str, &[&str], &[&str])] = &[
        (
            "mars-la-tour",
            &["initiative", "--dice", "d%=40,d%=70"],
            &["pk", "initiative", "--dpct", "40", "--dpct", "70"],
        ),
        (
            "mars-la-tour",
            &[
                "pursuit",
                "--stander-figures",
                "10",
                "--withdrawer-figures",
                "8",
                "--class",
                "line",
                "--dice",
                "d10=9",
            ],
            &[
                "pk",
                "pursuit",
                "--stander-figures",
                "10",
                "--withdrawer-figures",
                "8",
                "--class",
                "line",
                "--d10",
                "9",
            ],
        ),
        (
            "pw-skirmish",
            &["first-side", "--dice", "d6=2"],
            &["pw", "first-side", "--d6", "2"],
        ),
        (
            "st-privat",
            &["aoa", "--dice", "d6=3,d6=4"],
            &["gsp", "aoa", "--d6", "3", "--d6", "4"],
        ),
        // SPI-E1's `eb` names its EB unit now (tests/cli/spi_movement_cli.rs): the stop binds
        // to it.
        (
            "spi-1870",
            &["oob", "--dice", "d6=2"],
            &["spi", "oob", "--d6", "2"],
        ),
        // FR-F1 (H5)'s `storm` names its stormer now and plays on the units
        // (tests/cli/fortress_cli.rs): the stormer occupies the fortress it takes.
    ];
    for (n, (scenario, words, resolve)) in rows.iter().enumerate() {
        let d = tmp("grammar", &format!("plain{n}"));
        let save = super::common::new_game(&d, scenario, "5");
        let before = log_len(&save);
        let line = apply(&save, words);
        assert_eq!(log_len(&save), before + 1, "{words:?}: logged");
        let mut r = vec!["resolve"];
        r.extend_from_slice(resolve);
        r.push("--json");
        let want: Value = serde_json::from_str(&ok(&r)).unwrap();
        assert_eq!(line["outcome"], want["outcome"], "{words:?}");
        // Seeded: exit 0 and an outcome.
        let mut seeded: Vec<&str> = words.to_vec();
        if let Some(p) = seeded.iter().position(|w| *w == "--dice") {
            seeded.truncate(p);
        }
        assert!(apply(&save, &seeded)["outcome"].is_object(), "{seeded:?}");
        ok(&["log", "verify", &save]);
    }
    let d = tmp("grammar", "plain-bad");
    let save = super::common::new_game(&d, "mars-la-tour", "5");
    let e = refused(&["game", "apply", &save, "initiative", "--dice", "d6=3"]);
    assert!(e.contains("does not roll a d6"), "{e}");
    let e = refused(&["game", "apply", &save, "pursuit", "--class", "line"]);
    assert!(e.contains("--stander-figures"), "{e}");
    let e = refused(&["game", "apply", &save, "victory", "--net-vp", "3"]);
    assert!(
        e.contains("SPI Franco-Prussian War") && e.contains("initiative"),
        "{e}"
    );
}

/// `kepi game apply --help` documents the verbs of every rule set.
#[test]
fn help_lists_the_verbs_per_rule_set() {
    let help = ok(&["game", "apply", "--help"]);
    for s in [
        "Pickelhaube & Kepi (pk)",
        "Portable Wargame",
        "Graveyard St. Privat",
        "SPI Franco-Prussian War",
        "1870 (fr1870)",
        "fire FIRER TARGET",
        "artillery BATTERY TARGET --range DISTANCE",
        "activate UNIT",
        "rifle FIRER TARGET",
        "artillery|fire BATTERY TARGET",
        "combat --attackers A,B,... --hex HEX",
        "--dice DIE=VALUE",
        "--general-death",
        "fire-first, collapse, melee-both",
        "victory, oob",
        "eb EB-UNIT",
        "entrain UNIT",
        "formation UNIT",
        "storm",
    ] {
        assert!(help.contains(s), "help lacks `{s}`:\n{help}");
    }
}
