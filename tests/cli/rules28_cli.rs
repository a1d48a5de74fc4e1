//! Issue 28 through the real binary: the texts' numbers (1870's board, GSP's crew), the breaches
//! an umpire is warned of (noted before and logged after, the move still made) and the impossible
//! moves refused with exit 2 and nothing logged.

use super::common::{due, json, kepi, log_len, noted, ok, tmp};

/// 1870, I10: "a unit occupying cell 1640 may besiege Neuf-Brisach and Sélestat simultaneously"
/// (Neuf-Brisach 1541, Sélestat 1741): on 1870's board the three are neighbours.
#[test]
fn hex_distance_on_the_1870_board() {
    for b in ["1541", "1741"] {
        let v = json(&["hex", "distance", "1640", b, "--rules", "fr1870", "--json"]);
        assert_eq!(v["distance"], 1, "1640-{b}: {v}");
    }
    // Situation 1's line 1438 - 1339 - 1239, and Paris's cells 2117, 2216, 2217.
    for (a, b) in [
        ("1438", "1339"),
        ("1339", "1239"),
        ("2117", "2216"),
        ("2117", "2217"),
    ] {
        assert_eq!(
            ok(&["hex", "distance", a, b, "--rules", "fr1870"]).trim(),
            "1"
        );
    }
    // The default board (odd-q) is unchanged, and the two flags must agree.
    assert_eq!(ok(&["hex", "distance", "1640", "1541"]).trim(), "2");
    assert_eq!(
        ok(&[
            "hex", "distance", "1640", "1541", "--rules", "fr1870", "--layout", "even-q"
        ])
        .trim(),
        "1"
    );
    for bad in [
        &[
            "hex", "distance", "1640", "1541", "--rules", "fr1870", "--layout", "odd-q",
        ][..],
        &["hex", "distance", "1640", "1541", "--rules", "chess"][..],
        &["hex", "distance", "1640", "1541", "--rules", ""][..],
    ] {
        let o = kepi(bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        assert!(String::from_utf8_lossy(&o.stderr).contains("--"), "{bad:?}");
    }
}

/// GSP-C3: "If the hit die roll was even, the First hit goes on a team horse. If it was odd, on a
/// cannoneer."
#[test]
fn gsp_crew_first_hit_follows_the_die() {
    let out = ok(&["resolve", "gsp", "crew", "--hits", "3", "--d6", "3"]);
    assert!(out.contains("first on a cannoneer"), "{out}");
    let v = json(&[
        "resolve", "gsp", "crew", "--hits", "3", "--d6", "3", "--json",
    ]);
    assert_eq!(v["outcome"]["first"], "cannoneer");
    assert_eq!(v["outcome"]["cannoneers"], 2);
    let v = json(&[
        "resolve", "gsp", "crew", "--hits", "1", "--d6", "2", "--json",
    ]);
    assert_eq!(v["outcome"]["first"], "horse");
}

/// FR-C2, E: "every unit engaged in the combat by the Defender is eliminated. The Attacker must then
/// eliminate, from among his units that took part in the combat, a total of combat points at
/// least equal to the total (taking the printed combat potential) lost by the Defender." Entered
/// without `--losses`, the attacker's part is a check due for his side, not only a note.
#[test]
fn fr1870_exchange_without_losses_leaves_a_check_due() {
    let d = tmp("rules28", "fr-exchange");
    let save = super::common::new_game(&d, "fr1870-august", "3");
    // 1RC + 2RC (4) against Cavalry 3 (2): 2:1, a cell the seed does not print; E entered.
    let v = json(&[
        "game",
        "apply",
        &save,
        "--json",
        "combat",
        "--attackers",
        "fr-1rc,fr-2rc",
        "--hex",
        "2739",
        "--dice",
        "d6=4",
        "--result",
        "E",
    ]);
    assert_eq!(v["outcome"]["effects"]["attacker_must_lose"], 2, "{v}");
    let checks = due(&save);
    let c = checks
        .iter()
        .find(|c| c["rule"] == "FR-C2" && c["what"].as_str().unwrap().contains("exchange"))
        .unwrap_or_else(|| panic!("an exchange check: {checks:?}"));
    assert_eq!(c["side"], "french");
    assert!(c["what"].as_str().unwrap().contains("at least 2"), "{c}");
    // The victors survive: the vacated cell is still offered.
    assert!(checks.iter().any(|c| c["hex"] == "2739"), "{checks:?}");
}

/// FR-C2: "the victor may occupy the vacated cell": when the exchange takes every attacking unit,
/// no one is left to advance, and none is offered; chosen losses leave no check.
#[test]
fn fr1870_exchange_that_takes_every_attacker_offers_no_advance() {
    let d = tmp("rules28", "fr-exchange-all");
    let save = super::common::new_game(&d, "fr1870-august", "3");
    let v = json(&[
        "game",
        "apply",
        &save,
        "--json",
        "combat",
        "--attackers",
        "fr-1rc",
        "--hex",
        "2739",
        "--dice",
        "d6=5",
        "--result",
        "E",
        "--losses",
        "fr-1rc=2",
    ]);
    assert_eq!(v["outcome"]["effects"]["may_advance"], false, "{v}");
    assert!(
        !v.to_string().contains("the victor may occupy"),
        "no advance offered: {v}"
    );
    assert_eq!(due(&save), Vec::<serde_json::Value>::new());
}

/// The notes of a `game apply --json` line (the last line printed).
fn line_notes(out: &str) -> Vec<String> {
    let line: serde_json::Value =
        serde_json::from_str(out.lines().last().unwrap_or_default()).unwrap();
    line["notes"]
        .as_array()
        .unwrap_or_else(|| panic!("a resolution's line carries \"notes\": {line}"))
        .iter()
        .map(|n| n.as_str().unwrap().to_string())
        .collect()
}

/// The notes logged with the game's last resolution (`kepi log show --json`).
fn logged_notes(save: &str) -> Vec<String> {
    let log = json(&["log", "show", save, "--json"]);
    let last = log.as_array().unwrap().last().unwrap().clone();
    last["action"]["resolution"]["notes"]
        .as_array()
        .unwrap_or_else(|| panic!("the last entry is a resolution: {last}"))
        .iter()
        .map(|n| n.as_str().unwrap().to_string())
        .collect()
}

/// A breach is a note shown with the roll and logged with it, and the roll is still made.
fn went_ahead(out: &str, save: &str, want: &[&str]) {
    let shown = line_notes(out);
    let logged = logged_notes(save);
    for w in want {
        for (what, notes) in [("printed", &shown), ("logged", &logged)] {
            assert!(
                notes
                    .iter()
                    .any(|n| n.starts_with("umpire went ahead:") && n.contains(w)),
                "{what} notes name `{w}`: {notes:?}"
            );
        }
    }
}

/// SPI-C2, Combat case A: "Only those Friendly units directly adjacent to a given Enemy unit may
/// participate in the attack upon that Enemy unit." Case C: "No unit may attack more than once per
/// Combat Phase. No Enemy unit may be attacked more than once per Combat Phase."
#[test]
fn spi_combat_breaches_are_noted_and_the_umpire_goes_ahead() {
    let d = tmp("rules28", "spi-breach");
    let save = super::common::new_game(&d, "spi-1870", "3");
    ok(&[
        "game",
        "apply",
        &save,
        "move",
        "fr-metz-5",
        "1010",
        "move",
        "de-2-5-1",
        "1011",
        "move",
        "de-2-5-2",
        "1018",
    ]);
    let before = log_len(&save);
    let out = ok(&[
        "game",
        "apply",
        &save,
        "--json",
        "combat",
        "--attackers",
        "de-2-5-1,de-2-5-2,de-2-5-3",
        "--hex",
        "1010",
        "--dice",
        "d6=3",
        "--result",
        "A1/D2",
    ]);
    assert_eq!(log_len(&save), before + 1, "the combat was made");
    went_ahead(
        &out,
        &save,
        &["is 8 hexes from 1010", "case A", "is not on the map"],
    );
    let adjacent = line_notes(&out);
    assert!(
        !adjacent
            .iter()
            .any(|n| n.contains("de-2-5-1") || n.contains("2/5/1 in 1011")),
        "the adjacent attacker is not named: {adjacent:?}"
    );
    // The same unit again, on the same hex, in the same phase.
    let out = ok(&[
        "game",
        "apply",
        &save,
        "--json",
        "combat",
        "--attackers",
        "de-2-5-1",
        "--hex",
        "1010",
        "--dice",
        "d6=3",
        "--result",
        "A1/D2",
    ]);
    went_ahead(
        &out,
        &save,
        &[
            "has already attacked this combat phase",
            "No unit may attack more than once per Combat Phase",
            "has already been attacked this combat phase",
            "No Enemy unit may be attacked more than once per Combat Phase",
        ],
    );
}

/// SPI-H1, Combat Case O: "Units making Hasty Attacks may allocate only a portion of their Combat
/// Strength to the attack. Thus a Combat unit with a Combat Strength of "8" might allocate only
/// one Combat Point to the attack." Case P: the allocation is "halved for odds computation".
/// Issue 42: in play, `--attack N` with `--hasty` is that allocation (it was refused).
#[test]
fn spi_a_hasty_attack_allocates_part_of_its_strength_in_play() {
    let d = tmp("rules28", "spi-hasty");
    let save = super::common::new_game(&d, "spi-1870", "3");
    ok(&[
        "game",
        "apply",
        &save,
        "move",
        "fr-metz-5",
        "1010",
        "move",
        "de-2-5-1",
        "1011",
    ]);
    let combat = |extra: &[&str]| {
        let mut args = vec![
            "game",
            "apply",
            &save,
            "--json",
            "combat",
            "--attackers",
            "de-2-5-1",
            "--hex",
            "1010",
        ];
        args.extend_from_slice(extra);
        kepi(&args)
    };
    // Not a hasty attack: the strength is the unit's, `--attack` is refused and says why.
    let o = combat(&["--attack", "2"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--hasty --attack N") && err.contains("SPI-H1"),
        "{err}"
    );
    // More than the unit has is impossible.
    let o = combat(&["--hasty", "--attack", "6"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("more than the unit's 5"), "{err}");
    let before = log_len(&save);
    // Two of its five points, halved: 1 against 5.
    let o = combat(&[
        "--hasty", "--attack", "2", "--dice", "d6=3", "--result", "A1",
    ]);
    assert!(o.status.success(), "{o:?}");
    let line: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(line["outcome"]["attack"], "1", "{line}");
    assert_eq!(line["outcome"]["odds"], "1:5", "{line}");
    assert_eq!(log_len(&save), before + 1);
    // No allocation: the unit's whole strength, halved (Case P): after the A1 above it has 4,
    // so 2 against 5, 1:3.
    let o = combat(&["--hasty", "--dice", "d6=3", "--result", "A1"]);
    assert!(o.status.success(), "{o:?}");
    let line: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(line["outcome"]["attack"], "2", "{line}");
    assert_eq!(line["outcome"]["odds"], "1:3", "{line}");
}

/// FR-C1, E1/E8: "All units fight in contact, that is, by occupying the cell adjacent to that
/// occupied by the unit or enemy stack they confront." E3: "Within the same Combat Phase, a unit
/// may fight, offensively or defensively, only once": a unit that defended does not attack.
#[test]
fn fr1870_combat_breaches_are_noted_and_the_umpire_goes_ahead() {
    let d = tmp("rules28", "fr-breach");
    let save = super::common::new_game(&d, "fr1870-august", "3");
    // 2738 is next to 2739 (the same column); 2037 is 7 cells away.
    ok(&["game", "apply", &save, "move", "fr-1rc", "2738"]);
    let out = ok(&[
        "game",
        "apply",
        &save,
        "--json",
        "combat",
        "--attackers",
        "fr-1rc,fr-2rc",
        "--hex",
        "2739",
        "--dice",
        "d6=4",
        "--result",
        "AD",
    ]);
    went_ahead(&out, &save, &["2RC in 2139 is 6 hexes from 2739", "E8"]);
    assert!(!line_notes(&out).iter().any(|n| n.contains("1RC in")));
    // Cavalry 3 defended in this phase; now it attacks 1RC, which attacked.
    let before = log_len(&save);
    let out = ok(&[
        "game",
        "apply",
        &save,
        "--json",
        "combat",
        "--attackers",
        "de-cav-3",
        "--hex",
        "2738",
        "--dice",
        "d6=1",
        "--result",
        "AD",
    ]);
    assert_eq!(log_len(&save), before + 1, "the combat was made");
    went_ahead(
        &out,
        &save,
        &[
            "Cavalry 3 has already defended this combat phase",
            "1RC has already attacked this combat phase",
            "offensively or defensively, only once",
        ],
    );
}

/// PW-X1: "Melee happens when a unit tries to enter a hex held by the enemy": not from 4 hexes.
#[test]
fn pw_melee_at_a_distance_is_noted() {
    let d = tmp("rules28", "pw-breach");
    let save = super::common::new_game(&d, "pw-skirmish", "3");
    assert_eq!(ok(&["hex", "distance", "0201", "0503"]).trim(), "4");
    let out = ok(&[
        "game", "apply", &save, "--json", "melee", "de-inf-1", "fr-inf-1",
    ]);
    went_ahead(&out, &save, &["is 4 hexes from", "PW-X1"]);
}

/// PK-X1: "Only a Steady unit can initiate melee. Only a Steady or Shaken unit will accept melee."
#[test]
fn pk_melee_by_a_shaken_unit_against_a_broken_one_is_noted() {
    let d = tmp("rules28", "pk-breach");
    let save = super::common::new_game(&d, "mars-la-tour", "3");
    let steady = ok(&[
        "game",
        "apply",
        &save,
        "--json",
        "melee",
        "12th-grenadiers-1",
        "55e-ligne-1",
    ]);
    assert!(!line_notes(&steady).iter().any(|n| n.contains("PK-X1")));
    ok(&["game", "apply", &save, "undo"]);
    ok(&[
        "game",
        "apply",
        &save,
        "level",
        "12th-grenadiers-1",
        "shaken",
        "level",
        "55e-ligne-1",
        "broken",
    ]);
    let out = ok(&[
        "game",
        "apply",
        &save,
        "--json",
        "melee",
        "12th-grenadiers-1",
        "55e-ligne-1",
    ]);
    went_ahead(
        &out,
        &save,
        &[
            "is shaken (PK-X1: \"Only a Steady unit can initiate melee.\")",
            "is broken (PK-X1: \"Only a Steady or Shaken unit will accept melee.\")",
        ],
    );
}

/// Refused: exit 2, the reason on stderr, nothing logged.
fn refused(save: &str, args: &[&str], why: &str) {
    let before = log_len(save);
    let mut all = vec!["game", "apply", save];
    all.extend_from_slice(args);
    let o = kepi(&all);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(why), "{args:?}: {err}");
    assert_eq!(log_len(save), before, "{args:?}: nothing logged");
}

/// GSP-A1: the hit chart has one column per piece ("4/6 PDR AP 4/6 PDR Shell SIEGE 4 PDR AP 4 PDR
/// Shell Mitrailleuse"): a battery fires its own piece, not another's.
#[test]
fn a_gsp_battery_cannot_fire_a_gun_it_does_not_have() {
    let d = tmp("rules28", "gsp-gun");
    let save = super::common::new_game(&d, "st-privat", "3");
    refused(
        &save,
        &[
            "artillery",
            "6e-corps-batterie-4-a",
            "1st-foot-guards-1",
            "--gun",
            "prussian-siege",
        ],
        "is a battery of french-4pdr: it cannot fire as prussian-siege",
    );
    refused(
        &save,
        &[
            "artillery",
            "saxon-light-1",
            "9e-ligne-1",
            "--gun",
            "mitrailleuse",
        ],
        "is a battery of prussian-4-6pdr: it cannot fire as mitrailleuse",
    );
    // Its own piece fires.
    ok(&[
        "game",
        "apply",
        &save,
        "artillery",
        "saxon-light-1",
        "9e-ligne-1",
        "--gun",
        "prussian-4-6pdr-shell",
    ]);
}

/// PK-F1: "There are 3 types of rifles. The French Chassepot, The Prussian Needle Gun, and the
/// muzzle loading rifles used by the French gardes mobiles. There was a version of each in
/// carbines form." Sabre-armed cuirassiers have nothing to fire.
#[test]
fn sabre_armed_cuirassiers_cannot_fire() {
    let d = tmp("rules28", "pk-sabre");
    let save = super::common::new_game(&d, "mars-la-tour", "3");
    refused(
        &save,
        &["fire", "7th-cuirassiers", "55e-ligne-1"],
        "carries a sabre, no firearm: it cannot fire",
    );
}

/// An eliminated unit is out of play: `gain` does not bring it back (SPI: French 10 (Bitche) would
/// stand again in a hex a German unit has since entered).
#[test]
fn gain_does_not_bring_an_eliminated_unit_back() {
    let d = tmp("rules28", "gain-eliminated");
    let save = super::common::new_game(&d, "spi-1870", "3");
    ok(&[
        "game",
        "apply",
        &save,
        "move",
        "fr-bitche-10",
        "1010",
        "lose",
        "fr-bitche-10",
        "10",
        "move",
        "de-2-5-1",
        "1010",
    ]);
    refused(&save, &["gain", "fr-bitche-10", "2"], "is eliminated");
    // Eliminated by an earlier verb of the same request: refused there, the verbs before stand.
    let before = log_len(&save);
    let o = kepi(&[
        "game",
        "apply",
        &save,
        "lose",
        "fr-worth-10",
        "10",
        "gain",
        "fr-worth-10",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        log_len(&save),
        before + 1,
        "the loss stands, the gain is not made"
    );
    // A unit still in play gains as before.
    ok(&[
        "game", "apply", &save, "lose", "de-2-5-1", "1", "gain", "de-2-5-1", "1",
    ]);
}

/// FR-R1: "stacking limit 4 units per cell"; units over it at the end of a movement phase are
/// eliminated. Five German units ending their movement in 2545 leave a check due about that cell
/// (the map shows it); the French movement with no cell over the limit leaves none.
#[test]
fn fr1870_stacking_over_the_limit_is_due() {
    let dir = tmp("rules28", "stacking");
    let save = super::common::new_game(&dir, "fr1870-august", "1");
    ok(&["game", "apply", &save, "next-phase"]);
    assert!(
        due(&save).is_empty(),
        "French movement: nothing over the limit"
    );
    ok(&[
        "game",
        "apply",
        &save,
        "next-phase",
        "move",
        "de-inf-1",
        "2545",
        "move",
        "de-inf-2",
        "2545",
        "move",
        "de-inf-3",
        "2545",
        "next-phase",
    ]);
    let d = due(&save);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0]["rule"], "FR-R1");
    assert_eq!(d[0]["hex"], "2545");
    assert_eq!(d[0]["side"], "german");
    let what = d[0]["what"].as_str().unwrap();
    assert!(
        what.starts_with("5 units end movement in cell 2545")
            && what.contains("stacking limit of 4; eliminate 1 of them"),
        "{what}"
    );
    // Undo takes the check back with the phase.
    ok(&["game", "apply", &save, "undo"]);
    assert!(due(&save).is_empty());
}

/// The notes printed with a `game apply --json` move's line and the notes logged with it.
fn move_notes(out: &str, save: &str) -> (Vec<String>, Vec<String>) {
    let line: serde_json::Value =
        serde_json::from_str(out.lines().last().unwrap_or_default()).unwrap();
    assert!(
        line["summary"].as_str().unwrap().contains("moves to"),
        "{line}"
    );
    let printed = line["notes"]
        .as_array()
        .map(|a| a.iter().map(|n| n.as_str().unwrap().to_string()).collect())
        .unwrap_or_default();
    let log = json(&["log", "show", save, "--json"]);
    let last = log.as_array().unwrap().last().unwrap().clone();
    let logged = last["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap().to_string())
        .collect();
    (printed, logged)
}

/// 1870, after-combat movements. Rule 11: they "take place only over a distance of one cell";
/// rule 13: "It is forbidden to retreat onto a cell controlled by the enemy if that cell does not
/// contain a friendly unit"; rule 15: the evacuated cell "may be occupied by the winner with units
/// that took part in the combat concerning that cell". Each breach is noted with the move (printed
/// and logged) and the move is made: the umpire decides.
#[test]
fn fr1870_retreat_and_advance_breaches_are_noted_with_the_move() {
    let dr = |save: &str| {
        ok(&["game", "apply", save, "move", "fr-1rc", "2738"]);
        ok(&[
            "game",
            "apply",
            save,
            "combat",
            "--attackers",
            "fr-1rc",
            "--hex",
            "2739",
            "--dice",
            "d6=4",
            "--result",
            "DR",
        ]);
        assert!(
            due(save)
                .iter()
                .any(|c| c["unit"] == "de-cav-3" && c["rule"] == "FR-C2"),
            "the retreat is due: {:?}",
            due(save)
        );
    };
    // E11: two cells back, nowhere near the enemy.
    let save = super::common::new_game(&tmp("rules28", "fr-after-combat-a"), "fr1870-august", "3");
    dr(&save);
    let out = ok(&["game", "apply", &save, "--json", "move", "de-cav-3", "2741"]);
    let (printed, logged) = move_notes(&out, &save);
    for notes in [&printed, &logged] {
        assert!(noted(notes, "Cavalry 3 retreats 2 cells"), "{notes:?}");
        assert!(noted(notes, "E11"), "{notes:?}");
        assert!(!noted(notes, "E13"), "{notes:?}");
    }
    let v = json(&["game", "show", &save, "--json"]);
    let cav = v["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["id"] == "de-cav-3")
        .unwrap()
        .clone();
    assert_eq!(cav["position"], "2741", "the umpire's move is made: {cav}");
    // E15: 2RC did not fight for 2739; 1RC did.
    let out = ok(&["game", "apply", &save, "--json", "move", "fr-2rc", "2739"]);
    let (printed, logged) = move_notes(&out, &save);
    for notes in [&printed, &logged] {
        assert!(
            noted(
                notes,
                "2RC did not take part in the combat that vacated 2739"
            ),
            "{notes:?}"
        );
        assert!(noted(notes, "E15"), "{notes:?}");
    }
    // The text output says it too, under the move's line.
    let text = ok(&["log", "show", &save]);
    assert!(
        text.contains("note: umpire went ahead: 2RC did not take part"),
        "{text}"
    );
    // E13: one cell back, but into 2838, next to 1RC in 2738 and empty of Germans.
    assert_eq!(
        ok(&["hex", "distance", "2838", "2738", "--rules", "fr1870"]).trim(),
        "1"
    );
    let save = super::common::new_game(&tmp("rules28", "fr-after-combat-b"), "fr1870-august", "3");
    dr(&save);
    let out = ok(&["game", "apply", &save, "--json", "move", "de-cav-3", "2838"]);
    let (printed, logged) = move_notes(&out, &save);
    for notes in [&printed, &logged] {
        assert!(
            noted(notes, "Cavalry 3 retreats into 2838, next to the enemy"),
            "{notes:?}"
        );
        assert!(noted(notes, "E13"), "{notes:?}");
        assert!(!noted(notes, "E11"), "{notes:?}");
    }
    // An advance by the unit that fought is no breach: no notes at all.
    let out = ok(&["game", "apply", &save, "--json", "move", "fr-1rc", "2739"]);
    let (printed, logged) = move_notes(&out, &save);
    assert!(
        printed.is_empty() && logged.is_empty(),
        "{printed:?} {logged:?}"
    );
}

/// SPI, EB units Case C: "EB units may not be destroyed. If an Enemy unit attempts to move into the
/// same hex as an EB unit, it is moved back down the secured rail line toward the Friendly
/// Country". A German unit entering a French EB unit's hex leaves a move due for the EB unit;
/// moving it answers the check.
#[test]
fn spi_an_eb_unit_entered_by_the_enemy_is_pushed_back() {
    let d = tmp("rules28", "spi-eb");
    let save = super::common::new_game(&d, "spi-1870", "3");
    ok(&["game", "apply", &save, "move", "fr-eb-1", "1010"]);
    ok(&["game", "apply", &save, "move", "de-2-5-1", "1010"]);
    let checks = due(&save);
    let c = checks
        .iter()
        .find(|c| c["unit"] == "fr-eb-1")
        .unwrap_or_else(|| panic!("the EB unit's move back is due: {checks:?}"));
    assert_eq!(c["rule"], "SPI-E1");
    assert!(
        c["what"]
            .as_str()
            .unwrap()
            .contains("back down its secured rail line"),
        "{c}"
    );
    ok(&["game", "apply", &save, "move", "fr-eb-1", "1110"]);
    assert!(
        !due(&save).iter().any(|c| c["unit"] == "fr-eb-1"),
        "moving it answers the check"
    );
    // A French unit entering its own EB unit's hex pushes nothing.
    ok(&["game", "apply", &save, "move", "fr-eb-2", "1212"]);
    let fr = json(&["game", "show", &save, "--json"])["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["side"] == "french" && u["arm"] == "infantry")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    ok(&["game", "apply", &save, "move", &fr, "1212"]);
    assert!(!due(&save).iter().any(|c| c["unit"] == "fr-eb-2"));
}
