//! Issue 42, SPI's movement and zones of control computed from a map, through the real binary:
//! `kepi game reach` on a small SPI test map (rough, a river, Belgium), and the text's rough
//! terrain (S18) and zones of control (S17) in play, each quoting its sentence. A breach is a
//! note printed with `game apply --json` and logged with the move (the umpire goes ahead); the
//! log then verifies (every note is what the move on the game before it gives).

use super::common::{apply, json, noted, notes_of, ok};

/// A 10 x 10 SPI map: rough at 0502 and 0501 (north of 0503, in a line), a river along 0505's
/// south side, column 01 Belgium, the rest France.
const MAP: &str = "[map]\nname = \"spi test\"\nrules = \"spi\"\nfirst = \"0101\"\n\
    last = \"1010\"\ndefault_terrain = \"clear\"\ndefault_country = \"france\"\n\n\
    [provenance]\nsource = \"club\"\ndrawn_by = \"a test\"\nfrom = \"nothing\"\n\n\
    [cells]\nrough = [\"0502\", \"0501\"]\n\n[countries]\nbelgium = [\"0101-0110\"]\n\n\
    [[river]]\nsides = [\"0505:s\"]\n";

/// A new SPI game on the test map, in its German movement phase: the German 5s de-2-5-1 at 0503
/// and de-2-5-2 at 0703, the French fr-metz-5 at 0505, everyone else off the map.
fn game(name: &str) -> String {
    let save = super::common::spi_game_on_map("spi-map", name, "spi-test.toml", MAP);
    super::common::place(
        &save,
        &[
            ("de-2-5-1", "0503"),
            ("de-2-5-2", "0703"),
            ("fr-metz-5", "0505"),
        ],
    );
    ok(&["game", "apply", &save, "next-phase"]);
    let v = super::common::show(&save);
    assert_eq!(v["phase"], "German movement", "{}", v["phase"]);
    save
}

/// The reached cell `label` of a `game reach --json` answer: (cost, zoc).
fn cell(v: &serde_json::Value, label: &str) -> Option<(u64, bool)> {
    v["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["cell"] == label)
        .map(|c| (c["cost"].as_u64().unwrap(), c["zoc"].as_bool().unwrap()))
}

/// A move's cost as its summary gives it ("... (3 MP)").
fn cost(line: &serde_json::Value) -> String {
    let s = line["summary"].as_str().unwrap();
    s.rsplit_once('(')
        .map(|(_, c)| c.trim_end_matches(')').to_string())
        .unwrap_or_default()
}

/// The zones the window shades are the ones the moves pay for (SPI-Z1, "Zones of Control do not
/// extend across river hexsides"): the French zone the map panel reads
/// (`controlled_cells`) is the reach's `zoc` list for a German unit, and it stops at 0505's river
/// (0506, south of it, is not controlled; the six cells around 0505 were shaded before).
#[test]
fn the_shaded_zones_are_the_zones_the_moves_pay_for() {
    let save = game("zones");
    let state = kepi::store::read_game(std::path::Path::new(&save))
        .unwrap()
        .game
        .state()
        .clone();
    let layout = state.system.hex_layout();
    let french: Vec<String> =
        kepi::engine::play::board::controlled_cells(&state, kepi::roster::Side::French)
            .unwrap()
            .iter()
            .map(|h| h.label(layout).unwrap())
            .collect();
    let v = json(&["game", "reach", &save, "de-2-5-1", "--json"]);
    let mut zoc: Vec<String> = v["zoc"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    zoc.sort();
    let mut sorted = french.clone();
    sorted.sort();
    assert_eq!(sorted, zoc, "{v}");
    assert!(sorted.contains(&"0504".to_string()), "{sorted:?}");
    assert!(!sorted.contains(&"0506".to_string()), "{sorted:?}");
    assert_eq!(
        sorted.len(),
        5,
        "six around 0505, less the one across the river: {sorted:?}"
    );
    // The German zones, seen by the French: around 0503 and 0703 (no river there).
    let german =
        kepi::engine::play::board::controlled_cells(&state, kepi::roster::Side::German).unwrap();
    assert_eq!(
        german.len(),
        10,
        "0603 and 0604 are next to both: {german:?}"
    );
}

/// `kepi game reach` on an SPI game with a map: the chart's costs, rough's first hex, the
/// French unit's zone of control (not across the river), Belgium closed; the JSON keys of issue
/// 41 kept, the new ones added.
#[test]
fn reach_on_an_spi_map_applies_zones_of_control_rough_and_belgium() {
    let save = game("reach");
    let v = json(&["game", "reach", &save, "de-2-5-1", "--json"]);
    for key in [
        "unit",
        "from",
        "allowance",
        "cells",
        "unknown",
        "lacking",
        "enemy",
        "rules",
        "not_applied",
        "zoc",
        "from_zoc",
        "closed",
        "movement_rules",
    ] {
        assert!(v.get(key).is_some(), "reach --json has `{key}`: {v}");
    }
    assert_eq!(v["rules"], serde_json::json!(["SPI-M1", "SPI-Z1"]));
    assert_eq!(v["movement_rules"], true);
    // SPI-Z1 Case E: "three additional Movement Points to enter an Enemy controlled hex".
    assert_eq!(cell(&v, "0504"), Some((4, true)), "{v}");
    // SPI-M1: rough, 1 + 2 for the first, nothing additional for the second.
    assert_eq!(cell(&v, "0502"), Some((3, false)));
    assert_eq!(cell(&v, "0501"), Some((4, false)));
    // Case I: the French hex is not entered.
    assert_eq!(cell(&v, "0505"), None);
    assert_eq!(v["enemy"], serde_json::json!(["0505"]));
    // SPI-Z1 Case B: not across the river on 0505's south side.
    let zoc: Vec<&str> = v["zoc"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert!(zoc.contains(&"0504") && !zoc.contains(&"0506"), "{zoc:?}");
    assert_eq!(
        zoc.len(),
        5,
        "six around 0505, one across the river: {zoc:?}"
    );
    // Every controlled cell reached is a stop: nothing is entered from one.
    for c in v["cells"].as_array().unwrap() {
        let via = c["via"].as_str().unwrap();
        assert!(
            !zoc.contains(&via),
            "{} entered from {via}, a controlled cell",
            c["cell"]
        );
    }
    // Belgium (column 01) is closed.
    assert!(
        v["cells"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| !c["cell"].as_str().unwrap().starts_with("01")),
        "{v}"
    );
    assert!(!v["closed"].as_array().unwrap().is_empty(), "{v}");
    assert!(
        v["unknown"].as_array().unwrap().is_empty(),
        "rough has a cost: {v}"
    );
    // The text output names the stops and the zones.
    let text = ok(&["game", "reach", &save, "de-2-5-1"]);
    for want in [
        "0504  cost  4",
        "zoc (stops)",
        "paid rough",
        "enemy zones of control: ",
        "closed to movement (not entered): ",
        "rail movement (SPI-L1): not applied",
    ] {
        assert!(text.contains(want), "reach has {want:?}:\n{text}");
    }
}

/// S18, SPI-M1, the Terrain Effects Chart: rough terrain costs "two additional M.P.'s for first
/// such hex entered in a given Movement Phase; nothing additional thereafter in that Movement
/// Phase". Movement Case M: "A unit may not move into a hex if it does not possess sufficient
/// remaining Movement Points to enter that hex."
#[test]
fn s18_rough_terrain_first_hex_of_the_phase_in_play() {
    let save = game("rough");
    let line = apply(&save, &["move", "de-2-5-1", "0502"]);
    assert_eq!(cost(&line), "3 MP", "1 + 2 for the first rough hex: {line}");
    assert!(notes_of(&line).is_empty(), "{line}");
    let line = apply(&save, &["move", "de-2-5-1", "0501"]);
    assert_eq!(cost(&line), "1 MP", "nothing additional thereafter: {line}");
    // 4 spent of 8: five clear hexes east cost 5, more than the 4 that remain (noted).
    let line = apply(&save, &["move", "de-2-5-1", "1001"]);
    assert_eq!(cost(&line), "5 MP", "{line}");
    assert!(
        noted(
            &notes_of(&line),
            "spends 9 MP this Movement Phase, over its allowance of 8"
        ),
        "{line}"
    );
    // The umpire's count wins.
    ok(&["game", "apply", &save, "undo"]);
    let line = apply(&save, &["move", "de-2-5-1", "0601", "--mp", "2"]);
    assert_eq!(cost(&line), "2 MP", "{line}");
    ok(&["log", "verify", &save]);
}

/// S17, SPI-Z1: "These Zones of Control are termed "rigid" since Enemy units may not move
/// directly from one Friendly controlled hex to another, even if of another Enemy unit." Case A:
/// "all units must cease movement upon entering an Enemy controlled hex; they may move no further
/// during that Movement Phase." Case E: "It costs three additional Movement Points to enter an
/// Enemy controlled hex, and one additional to leave." SPI-M1 Case I: "Units may never enter a
/// hex containing Enemy Combat or Fortification Units." Case F: "No Enemy movement is permitted
/// during a Player's Movement Phase." Basic Game: "Units may never enter Belgium or Luxemburg".
#[test]
fn s17_zones_of_control_in_play() {
    let save = game("zoc");
    // Into the French zone: 1 + 3.
    let line = apply(&save, &["move", "de-2-5-1", "0504"]);
    assert_eq!(cost(&line), "4 MP", "{line}");
    assert!(notes_of(&line).is_empty(), "{line}");
    // On from it in the same phase: past the stop (Case A).
    let line = apply(&save, &["move", "de-2-5-1", "0503"]);
    assert!(
        noted(&notes_of(&line), "SPI-Z1, Zones of Control Case A"),
        "{line}"
    );
    ok(&["game", "apply", &save, "undo"]);
    // The French hex itself (Case I).
    let line = apply(&save, &["move", "de-2-5-2", "0505"]);
    assert!(noted(&notes_of(&line), "Movement Case I"), "{line}");
    ok(&["game", "apply", &save, "undo"]);
    // Belgium.
    let line = apply(&save, &["move", "de-2-5-2", "0103"]);
    assert!(
        noted(&notes_of(&line), "Units may never enter Belgium"),
        "{line}"
    );
    ok(&["game", "apply", &save, "undo"]);
    // The French unit in the German movement phase (Case F).
    let line = apply(&save, &["move", "fr-metz-5", "0506"]);
    assert!(noted(&notes_of(&line), "Movement Case F"), "{line}");
    ok(&["game", "apply", &save, "undo"]);
    // Next phase round: de-2-5-1 starts at 0504, in the zone. Leaving costs one more; straight
    // to another controlled hex is a breach (rigid).
    for _ in 0..6 {
        ok(&["game", "apply", &save, "next-phase"]);
        if super::common::show(&save)["phase"] == "German movement" {
            break;
        }
    }
    let v = json(&["game", "reach", &save, "de-2-5-1", "--json"]);
    assert_eq!(v["from_zoc"], true, "{v}");
    assert_eq!(cell(&v, "0503"), Some((2, false)), "1 + 1 to leave: {v}");
    let zoc: Vec<String> = v["zoc"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    // 0605 is next to both 0504 and 0505 (odd-q: odd columns sit half a hex lower).
    assert!(zoc.contains(&"0605".to_string()), "{zoc:?}");
    let via = |label: &str| {
        v["cells"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["cell"] == label)
            .map(|c| c["via"].clone())
    };
    assert_ne!(
        via("0605"),
        Some(serde_json::json!("0504")),
        "not entered straight from 0504"
    );
    let line = apply(&save, &["move", "de-2-5-1", "0605"]);
    assert!(
        noted(
            &notes_of(&line),
            "from one enemy-controlled hex (0504) to another"
        ),
        "{line}"
    );
    ok(&["game", "apply", &save, "undo"]);
    let line = apply(&save, &["move", "de-2-5-1", "0503"]);
    assert_eq!(cost(&line), "2 MP", "{line}");
    assert!(notes_of(&line).is_empty(), "{line}");
    ok(&["log", "verify", &save]);
}

/// The words and lines of the last `victory` logged in `save`.
fn last_victory(save: &str) -> (Vec<String>, Vec<(String, String)>) {
    let log: serde_json::Value =
        serde_json::from_str(&ok(&["log", "show", save, "--json"])).unwrap();
    let e = log.as_array().unwrap().last().unwrap().clone();
    let words = e["action"]["input"]["resolve"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap().to_string())
        .collect();
    let lines = e["action"]["resolution"]["modifiers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let s = |k: &str| m[k].as_str().unwrap_or_default().to_string();
            (s("label"), s("value"))
        })
        .collect();
    (words, lines)
}

/// SPI-W1 on kepi's example board (its German `[[victory]]` column values 01 = 60 ... 06 = 10,
/// house; Germany east of column 09): "The furthest supplied German unit from the
/// Franco-Prussian border awards the German Player the number of Victory Points designated on
/// the south edge of the map, according to the column of hexes that this unit is in"; "For each
/// hex that a French unit is distant from the Franco-German border, the French receive fifty
/// Victory Points. This unit must be supplied at the end of the game". de-2-5-1 at 0405 (column
/// 04: 30) is further than de-2-5-2 at 0705 (no value); fr-metz-5 at 1106 is two hexes from the
/// nearest French hex: 30 - 100 = -70, a French Decisive Victory. The words the map gave are
/// logged with the verb (`log verify` resolves them again); a count the umpire types wins; an
/// isolated German unit does not count.
#[test]
fn victory_counts_the_german_advance_and_the_french_penetration_on_the_map() {
    let save = super::common::spi_game_in(&super::common::tmp("spi-map", "victory"), "example-hex");
    super::common::place(
        &save,
        &[
            ("de-2-5-1", "0405"),
            ("de-2-5-2", "0705"),
            ("fr-metz-5", "1106"),
        ],
    );
    let v = apply(&save, &["victory"]);
    assert_eq!(v["outcome"]["net_vp"], -70, "{v}");
    assert_eq!(v["outcome"]["level"], "French Decisive Victory");
    let (words, lines) = last_victory(&save);
    let joined = words.join(" ");
    assert!(
        joined.contains("--german-row-vp 30 --german-row-at 0405 --german-row-from house")
            && joined.contains("--french-hexes-penetrated 2 --french-penetration-at 1106"),
        "{joined}"
    );
    // The award's line says where the values come from: kepi's example board's are house.
    let log = json(&["log", "show", &save, "--json"]);
    let award = log.as_array().unwrap().last().unwrap()["action"]["resolution"]["modifiers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| {
            m["label"]
                .as_str()
                .unwrap()
                .starts_with("German VP, the map's award")
        })
        .cloned()
        .unwrap();
    assert_eq!(award["provenance"], "house", "{award}");
    assert!(
        lines.contains(&(
            "German VP, the map's award where the most advanced supplied unit stands (0405)".into(),
            "+30".into()
        )),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|(l, v)| l
            == "French VP (subtracted), hexes of penetration (the map: from 1106): 2 x 50 VP"
            && v == "-100"),
        "{lines:?}"
    );
    // The umpire's count wins.
    let v = apply(&save, &["victory", "--german-row-vp", "60"]);
    assert_eq!(v["outcome"]["net_vp"], -40, "{v}");
    let (words, _) = last_victory(&save);
    assert!(!words.join(" ").contains("--german-row-at"), "{words:?}");
    // An isolated German unit is not the furthest supplied one: no valued cell is held.
    ok(&["game", "apply", &save, "supply", "de-2-5-1", "isolated"]);
    let v = apply(&save, &["victory"]);
    let (words, _) = last_victory(&save);
    assert!(!words.join(" ").contains("--german-row-vp"), "{words:?}");
    // Its 5 CP count as isolated for the French (3 VP each).
    assert!(
        words.join(" ").contains("--german-cp-isolated 5"),
        "{words:?}"
    );
    assert!(v["outcome"]["net_vp"].as_i64().unwrap() < -100, "{v}");
    let out = ok(&["log", "verify", &save]);
    assert!(out.contains("log OK"), "{out}");
}
