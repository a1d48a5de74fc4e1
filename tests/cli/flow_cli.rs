//! The umpire's flow on the command line, through the real binary: a scripted P&K fire that kills
//! figures, the due list (`kepi game due`), resolving and waiving checks, the checklist.

use super::common::{due, json, kepi, new_game, ok, strength, tmp};

#[test]
fn a_scripted_pk_fire_kills_figures_and_is_logged() {
    let d = tmp("flow", "fire");
    let save = new_game(&d, "mars-la-tour", "1");
    let before = strength(&save, "55e-ligne-1");
    let out = ok(&[
        "game",
        "apply",
        &save,
        "--json",
        "fire",
        "12th-grenadiers-1",
        "55e-ligne-1",
        "--enfilade",
        "--cover",
        "none",
        "--dice",
        "d10=10,d%=20",
    ]);
    let line: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    let rules: Vec<&str> = line["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    assert!(
        rules.contains(&"PK-F1") && rules.contains(&"PK-F3"),
        "{rules:?}"
    );
    let after = strength(&save, "55e-ligne-1");
    assert!(
        after < before,
        "the fire killed figures: {before} -> {after}"
    );
    // The firer is marked as having fired, and the checklist knows it.
    let c = json(&["game", "checklist", &save, "--json"]);
    let firer = c["activity"]["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["id"] == "12th-grenadiers-1")
        .unwrap()
        .clone();
    assert_eq!(firer["fired"], true);
    let fire_item = c["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["rule"] == "PK-F1")
        .unwrap()
        .clone();
    assert_eq!(fire_item["form"], "fire");
    assert!(
        !fire_item["units"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!("12th-grenadiers-1"))
    );
    // The leader d% was rolled inside the fire: nothing due for it. A casualty by hand asks for one.
    assert!(due(&save).iter().all(|x| x["rule"] != "PK-L1"));
    ok(&["game", "apply", &save, "lose", "55e-ligne-1", "1"]);
    let list = due(&save);
    let l1 = list.iter().find(|x| x["rule"] == "PK-L1").unwrap();
    assert_eq!(l1["unit"], "55e-ligne-1");
    assert_eq!(l1["queued_at"]["turn"], 1);
    assert!(l1["id"].is_u64() && l1["what"].is_string());
    // Resolve it; the log says so with the rule it answered.
    let id = l1["id"].as_u64().unwrap().to_string();
    let done = ok(&["game", "apply", &save, "--json", "resolve-due", &id]);
    assert!(done.contains("\"PK-L1\""), "{done}");
    assert!(due(&save).iter().all(|x| x["rule"] != "PK-L1"));
}

#[test]
fn a_level_drop_queues_a_rally_roll_that_the_rally_verb_answers() {
    let d = tmp("flow", "rally");
    let save = new_game(&d, "mars-la-tour", "1");
    ok(&["game", "apply", &save, "level", "55e-ligne-1", "shaken"]);
    let list = due(&save);
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["rule"], "PK-E1");
    assert_eq!(list[0]["form"], "rally");
    let text = ok(&["game", "due", &save]);
    assert!(text.contains("rally 55e-ligne-1"), "{text}");
    ok(&[
        "game",
        "apply",
        &save,
        "rally",
        "55e-ligne-1",
        "--dice",
        "d10=6",
    ]);
    assert!(due(&save).is_empty());
}

#[test]
fn a_two_move_melee_by_script() {
    let d = tmp("flow", "melee");
    let save = new_game(&d, "mars-la-tour", "1");
    ok(&[
        "game",
        "apply",
        &save,
        "melee",
        "12th-grenadiers-1",
        "55e-ligne-1",
        "--charge",
        "melee",
        "12th-grenadiers-1",
        "55e-ligne-1",
        "--move",
        "2",
    ]);
    let fatigue = due(&save)
        .into_iter()
        .filter(|x| x["rule"] == "PK-X5" && x["form"] == "fatigue")
        .count();
    assert_eq!(fatigue, 4, "two units, two moves");
    ok(&["game", "apply", &save, "fatigue-check", "12th-grenadiers-1"]);
    let fatigue = due(&save)
        .into_iter()
        .filter(|x| x["rule"] == "PK-X5" && x["form"] == "fatigue")
        .count();
    assert_eq!(fatigue, 3);
}

#[test]
fn waiving_is_logged_and_undo_takes_checks_away() {
    let d = tmp("flow", "waive");
    let save = new_game(&d, "mars-la-tour", "1");
    ok(&["game", "apply", &save, "lose", "55e-ligne-1", "2"]);
    let id = due(&save)[0]["id"].as_u64().unwrap().to_string();
    ok(&[
        "game",
        "apply",
        &save,
        "waive",
        &id,
        "rolled on the table",
        "note",
        "after the waiver",
    ]);
    assert!(due(&save).is_empty());
    let log = json(&["log", "show", &save, "--json"]);
    let entries = log.as_array().unwrap();
    let w = entries
        .iter()
        .find(|e| e["summary"].as_str().unwrap().starts_with("waived"))
        .unwrap();
    assert!(
        w["summary"]
            .as_str()
            .unwrap()
            .contains("rolled on the table")
    );
    assert!(
        entries
            .iter()
            .any(|e| e["summary"] == "note: after the waiver")
    );
    // Undo the note and the waiver: the check is back; undo the loss: it is gone.
    ok(&["game", "apply", &save, "undo", "undo"]);
    assert_eq!(due(&save).len(), 1);
    ok(&["game", "apply", &save, "undo"]);
    assert!(due(&save).is_empty());
    ok(&["log", "verify", &save]);
}

#[test]
fn bad_resolution_verbs_are_refused_whole() {
    let d = tmp("flow", "bad");
    let save = new_game(&d, "mars-la-tour", "1");
    for args in [
        vec!["fire", "12th-grenadiers-1", "55e-ligne-1", "--bogus"],
        vec!["fire", "12th-grenadiers-1"],
        vec!["artillery", "12th-grenadiers-1", "55e-ligne-1"],
        vec![
            "fire",
            "12th-grenadiers-1",
            "55e-ligne-1",
            "--dice",
            "d10=11",
        ],
        vec!["waive", "x"],
    ] {
        let mut all = vec!["game", "apply", save.as_str(), "lose", "55e-ligne-1", "1"];
        all.extend(args.iter().copied());
        let o = kepi(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(!String::from_utf8_lossy(&o.stderr).is_empty());
    }
    assert_eq!(strength(&save, "55e-ligne-1"), 22, "nothing applied");
    let help = ok(&["game", "apply", "--help"]);
    for v in [
        "fire FIRER TARGET",
        "artillery BATTERY TARGET --range DISTANCE",
        "melee ATTACKER DEFENDER",
        "rally UNIT",
        "resolve-due ID",
        "waive ID [REASON]",
    ] {
        assert!(help.contains(v), "help lacks {v}");
    }
}

/// FR-C2: "retreat one cell ... the victor may occupy the vacated cell". A DR marks the defender
/// "must retreat" with a check its move answers, and the vacated cell is a check about that hex
/// (`"hex"` in `kepi game due --json`), which the map shows.
#[test]
fn an_1870_retreat_is_a_move_to_make_and_the_vacated_cell_an_advance() {
    let d = tmp("flow", "fr-retreat");
    let save = super::common::new_game(&d, "fr1870-august", "3");
    ok(&["game", "apply", &save, "move", "de-4b", "3001"]);
    // 2 against 4 is 1:2; die 6 is DR (seed: "1 vs 2 AE AE AE AD AD AD,DD R DR").
    ok(&[
        "game",
        "apply",
        &save,
        "combat",
        "--attackers",
        "fr-1rc",
        "--hex",
        "2544",
        "--dice",
        "d6=6",
    ]);
    let checks = due(&save);
    let retreat = checks
        .iter()
        .find(|c| c["rule"] == "FR-C2" && c["unit"] == "de-3b")
        .unwrap_or_else(|| panic!("a retreat check for de-3b: {checks:?}"));
    assert!(
        retreat["what"]
            .as_str()
            .unwrap()
            .contains("retreat one cell")
    );
    let advance = checks
        .iter()
        .find(|c| c["rule"] == "FR-C2" && c["hex"] == "2544")
        .unwrap_or_else(|| panic!("an advance check on 2544: {checks:?}"));
    assert_eq!(advance["side"], "french");
    let show = json(&["game", "show", &save, "--json"]);
    let unit = show["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["id"] == "de-3b")
        .unwrap()
        .clone();
    assert!(unit.to_string().contains("must-retreat"), "{unit}");
    // The retreat is the next move: it answers the check and clears the marker.
    ok(&["game", "apply", &save, "move", "de-3b", "2644"]);
    let checks = due(&save);
    assert!(
        !checks.iter().any(|c| c["unit"] == "de-3b"),
        "the move answered the retreat: {checks:?}"
    );
    assert!(
        checks.iter().any(|c| c["hex"] == "2544"),
        "the advance stays until done"
    );
    let show = json(&["game", "show", &save, "--json"]);
    let unit = show["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["id"] == "de-3b")
        .unwrap()
        .clone();
    assert!(!unit.to_string().contains("must-retreat"), "{unit}");
}

/// SPI-S1 (Standard Game): "isolated units lose 1 CP at the end of each friendly movement phase".
/// Doing the check (`resolve-due`) takes the CP off in the same logged step, and undo puts it
/// back; waiving it leaves the unit as it was.
#[test]
fn spi_isolation_loss_is_applied_by_doing_its_check() {
    let d = tmp("flow", "spi-isolated");
    let save = super::common::new_game(&d, "spi-1870", "4");
    let units = json(&["game", "show", &save, "--json"])["units"]
        .as_array()
        .unwrap()
        .clone();
    let german: Vec<String> = units
        .iter()
        .filter(|u| u["side"] == "german" && u["strength"].as_u64().unwrap_or(0) > 1)
        .filter(|u| u["arrives"].is_null() || u["arrives"].as_u64() <= Some(1))
        .map(|u| u["id"].as_str().unwrap().to_string())
        .take(2)
        .collect();
    assert_eq!(german.len(), 2, "two German units on the map at start");
    let (a, b) = (&german[0], &german[1]);
    let (a0, b0) = (strength(&save, a), strength(&save, b));
    ok(&[
        "game",
        "apply",
        &save,
        "supply",
        a,
        "isolated",
        "supply",
        b,
        "isolated",
        "next-phase",
        "next-phase",
    ]);
    let open: Vec<serde_json::Value> = due(&save)
        .into_iter()
        .filter(|x| x["rule"] == "SPI-S1")
        .collect();
    assert_eq!(open.len(), 2, "{open:?}");
    let id_of = |unit: &str| {
        open.iter().find(|x| x["unit"] == unit).unwrap()["id"]
            .as_u64()
            .unwrap()
            .to_string()
    };
    let out = ok(&["game", "apply", &save, "--json", "resolve-due", &id_of(a)]);
    let line: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    let summary = line["summary"].as_str().unwrap();
    assert!(
        summary.contains("isolated") && summary.contains("lose"),
        "the log line says the check and its loss: {summary}"
    );
    assert_eq!(strength(&save, a), a0 - 1, "the CP is off");
    ok(&[
        "game",
        "apply",
        &save,
        "waive",
        &id_of(b),
        "the umpire rules it supplied",
    ]);
    assert_eq!(strength(&save, b), b0, "a waived check takes nothing");
    ok(&["game", "apply", &save, "undo", "undo"]);
    assert_eq!(strength(&save, a), a0, "undo gives the CP back");
    ok(&["log", "verify", &save]);
}

/// SPI-W1 in play: "5 VP per enemy CP destroyed, 3 per CP isolated at the end, ... German 10-184
/// by row of the most advanced supplied unit": `victory` counts the CP destroyed and isolated from
/// the game, the umpire types the row award, and `log verify` resolves it again from the words.
#[test]
fn spi_victory_is_counted_from_the_game() {
    let d = tmp("flow", "spi-victory");
    let save = super::common::new_game(&d, "spi-1870", "4");
    let units = json(&["game", "show", &save, "--json"])["units"]
        .as_array()
        .unwrap()
        .clone();
    let first = |side: &str| {
        units
            .iter()
            .find(|u| u["side"] == side && u["strength"].as_u64().unwrap_or(0) >= 3)
            .map(|u| u["id"].as_str().unwrap().to_string())
            .unwrap()
    };
    let (fr, de) = (first("french"), first("german"));
    let fr_left = strength(&save, &fr) - 3;
    ok(&[
        "game", "apply", &save, "lose", &fr, "3", "lose", &de, "1", "supply", &fr, "isolated",
    ]);
    let out = ok(&[
        "game",
        "apply",
        &save,
        "--json",
        "victory",
        "--german-row-vp",
        "40",
    ]);
    let line: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    // German: 3 CP destroyed x 5 + the isolated unit's CP x 3 + 40; French: 1 x 5.
    let net = 15 + 3 * fr_left as i64 + 40 - 5;
    assert_eq!(line["outcome"]["net_vp"], net, "{line}");
    let notes = line["notes"].to_string();
    assert!(notes.contains("French 5 VP"), "{notes}");
    // The same count on its own, with a line per item of the tally.
    let v: serde_json::Value = serde_json::from_str(&ok(&[
        "resolve",
        "spi",
        "victory",
        "--french-cp-destroyed",
        "3",
        "--german-row-vp",
        "40",
        "--json",
    ]))
    .unwrap();
    let mods = v["modifiers"].to_string();
    assert!(mods.contains("French CP destroyed: 3 x 5 VP"), "{mods}");
    assert_eq!(v["outcome"]["net_vp"], 55);
    ok(&["log", "verify", &save]);
    // Typed counts win; --net-vp alone is the printed level as before.
    let out = ok(&[
        "game", "apply", &save, "--json", "victory", "--net-vp", "120",
    ]);
    let line: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(line["outcome"]["net_vp"], 120);
    let o = kepi(&["resolve", "spi", "victory"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("--net-vp"), "{err}");
}
