//! Issue 46, wrong numbers: who has acted this turn as `kepi game checklist` counts it (SPI's and
//! 1870's attackers, PW's melees), 1870's retreat cells (FR-C2) and `kepi game apply --json`'s
//! summary of a fatigue check, through the real binary.

use super::common::{FR1870_ATTACK, json, kepi, new_game, ok, play, tmp};

/// `kepi game checklist SAVE --json`'s activity row of `id`.
fn row(list: &serde_json::Value, id: &str) -> serde_json::Value {
    list["activity"]["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["id"] == id)
        .unwrap_or_else(|| panic!("no activity row for {id}: {list}"))
        .clone()
}

/// The units the checklist's open combat item still waits for.
fn waited_for(list: &serde_json::Value) -> Vec<String> {
    list["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["form"] == "combat")
        .flat_map(|i| i["units"].as_array().cloned().unwrap_or_default())
        .map(|u| u.as_str().unwrap().to_string())
        .collect()
}

/// 1870, the French combat phase, played ([`FR1870_ATTACK`]).
fn fr_attacked(name: &str) -> String {
    let save = new_game(&tmp("acted", name), "fr1870-august", "3");
    play(&save, FR1870_ATTACK);
    save
}

/// Issue 46: after two 1870 units attacked, the checklist counts them as having acted and no
/// longer waits for them, as the resolver's warning says they have attacked.
#[test]
fn fr1870_attackers_are_marked_as_having_acted() {
    let save = fr_attacked("fr-acted");
    let list = json(&["game", "checklist", &save, "--json"]);
    for id in ["fr-1rc", "fr-2rc"] {
        let r = row(&list, id);
        assert_eq!(r["fired"], true, "{r}");
        assert_eq!(r["to_act"], false, "{r}");
    }
    assert_eq!(row(&list, "fr-3rc")["to_act"], true);
    assert_eq!(waited_for(&list), ["fr-3rc"], "{list}");
    let text = ok(&["game", "checklist", &save]);
    assert!(
        text.contains("2 fired") && text.contains("1 still to act in this phase"),
        "{text}"
    );
    // The resolver warns of a second attack by 1RC: the same fact the checklist reads.
    let again = ok(&[
        "game",
        "apply",
        &save,
        "combat",
        "--attackers",
        "fr-1rc",
        "--hex",
        "2138",
        "--dice",
        "d6=1",
        "--result",
        "AE",
    ]);
    assert!(
        again.contains("1RC has already attacked this combat phase"),
        "{again}"
    );
    ok(&["log", "verify", &save]);
}

/// Issue 46: the same in SPI: two German units attack the French unit at 0102; both are marked
/// and the checklist's count falls by two.
#[test]
fn spi_attackers_are_marked_as_having_acted() {
    let save = new_game(&tmp("acted", "spi-acted"), "spi-1870", "3");
    ok(&[
        "game",
        "apply",
        &save,
        "move",
        "de-2-5-1",
        "0101",
        "move",
        "de-2-5-2",
        "0202",
        "move",
        "fr-metz-5",
        "0102",
        "next-phase",
        "next-phase",
    ]);
    let before = json(&["game", "checklist", &save, "--json"]);
    let to_act = |l: &serde_json::Value| {
        l["activity"]["units"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|u| u["to_act"] == true)
            .count()
    };
    assert!(waited_for(&before).contains(&"de-2-5-1".to_string()));
    ok(&[
        "game",
        "apply",
        &save,
        "combat",
        "--attackers",
        "de-2-5-1,de-2-5-2",
        "--hex",
        "0102",
        "--dice",
        "d6=3",
        "--result",
        "-",
    ]);
    let after = json(&["game", "checklist", &save, "--json"]);
    assert_eq!(to_act(&after), to_act(&before) - 2, "{after}");
    for id in ["de-2-5-1", "de-2-5-2"] {
        assert_eq!(row(&after, id)["fired"], true);
        assert_eq!(row(&after, id)["to_act"], false);
        assert!(!waited_for(&after).contains(&id.to_string()), "{after}");
    }
    let text = ok(&["game", "checklist", &save]);
    assert!(text.contains("2 fired"), "{text}");
    ok(&["log", "verify", &save]);
}

/// Issue 46: FR-C2 (E13) "It is forbidden to retreat onto a cell controlled by the enemy if that
/// cell does not contain a friendly unit": of the cells around 2138, only 2237 is neither held by
/// 1RC (2037) or 2RC (2139) nor next to one of them. The retreat check names it alone, and a
/// retreat to 2137 (next to 1RC) is logged with the breach.
#[test]
fn fr1870_retreat_cells_leave_out_cells_the_enemy_controls() {
    let save = fr_attacked("fr-retreat-cells");
    let due = json(&["game", "due", &save, "--json"]);
    let check = due
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["rule"] == "FR-C2" && c["unit"] == "de-inf-1")
        .unwrap_or_else(|| panic!("no retreat check: {due}"))
        .clone();
    let what = check["what"].as_str().unwrap();
    assert!(what.ends_with(": to 2237"), "{what}");
    for next_to_the_enemy in ["2137", "2038", "2238"] {
        assert!(!what.contains(next_to_the_enemy), "{what}");
    }
    let moved = ok(&["game", "apply", &save, "move", "de-inf-1", "2137"]);
    assert!(
        moved.contains("next to the enemy and holding no friendly unit"),
        "{moved}"
    );
    ok(&["game", "apply", &save, "undo"]);
    let moved = ok(&["game", "apply", &save, "move", "de-inf-1", "2237"]);
    assert!(!moved.contains("umpire went ahead"), "{moved}");
}

/// Issue 46: a PW melee counts both units as having been in melee this turn.
#[test]
fn pw_melee_counts_both_units_in_melee() {
    let save = new_game(&tmp("acted", "pw-melee"), "pw-skirmish", "3");
    ok(&[
        "game", "apply", &save, "move", "de-cav", "0303", "face", "de-cav", "s",
    ]);
    let before = ok(&["game", "checklist", &save]);
    assert!(before.contains("0 in melee"), "{before}");
    ok(&[
        "game",
        "apply",
        &save,
        "melee",
        "de-cav",
        "fr-inf-3",
        "--dice",
        "d6=3,d6=4",
    ]);
    let text = ok(&["game", "checklist", &save]);
    assert!(text.contains("2 in melee"), "{text}");
    let list = json(&["game", "checklist", &save, "--json"]);
    for id in ["de-cav", "fr-inf-3"] {
        assert_eq!(row(&list, id)["melees"], 1, "{list}");
    }
    ok(&["log", "verify", &save]);
}

/// Issue 46: `kepi game apply --json`'s summary of a P&K fatigue check names the unit checked, as
/// `kepi log show` does.
#[test]
fn apply_json_summary_of_a_fatigue_check_names_the_unit() {
    let save = new_game(&tmp("acted", "fatigue-summary"), "mars-la-tour", "3");
    let o = kepi(&[
        "game",
        "apply",
        &save,
        "--json",
        "fatigue-check",
        "12th-grenadiers-1",
        "--dice",
        "d10=3",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    let line: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    let summary = line["summary"].as_str().unwrap();
    assert!(summary.contains("I/12th Grenadiers"), "{summary}");
    assert!(summary.starts_with("pk fatigue"), "{summary}");
}
