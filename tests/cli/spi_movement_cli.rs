//! Issue 28, SPI's movement in play through the real binary: the movement allowance and the
//! points a unit spends in a phase (moves, formation changes, entraining and detraining), rail
//! movement's limits, and the EB unit's river roll. Each test quotes the text it plays; a breach
//! is a note printed and logged with the action (the umpire goes ahead), the impossible is
//! refused with exit 2 and nothing logged.

use super::common::{apply, kepi, noted, notes_of, ok};

fn game(name: &str) -> String {
    super::common::new_game(&super::common::tmp("spi-move", name), "spi-1870", "3")
}

/// The checklist row of `rule` whose words start with `what`, in the phase being played.
fn checklist_row(save: &str, rule: &str, what: &str) -> serde_json::Value {
    let items = super::common::checklist_items(save);
    items
        .iter()
        .find(|i| i["rule"] == rule && i["what"].as_str().unwrap_or("").starts_with(what))
        .cloned()
        .unwrap_or_else(|| panic!("no {rule} `{what}` row: {items:?}"))
}

/// The log's length.
fn logged(save: &str) -> usize {
    let log: serde_json::Value =
        serde_json::from_str(&ok(&["log", "show", save, "--json"])).unwrap();
    log.as_array().unwrap().len()
}

/// Refused with exit 2 and nothing logged; the error's text.
fn refused(save: &str, words: &[&str]) -> String {
    let before = logged(save);
    let mut args = vec!["game", "apply", save];
    args.extend_from_slice(words);
    let o = kepi(&args);
    assert_eq!(o.status.code(), Some(2), "{words:?}");
    assert_eq!(logged(save), before, "{words:?} logged nothing");
    String::from_utf8_lossy(&o.stderr).to_string()
}

/// The phase being played.
fn phase(save: &str) -> String {
    let v: serde_json::Value =
        serde_json::from_str(&ok(&["game", "show", save, "--json"])).unwrap();
    v["phase"].as_str().unwrap_or_default().to_string()
}

/// On to the next French movement phase.
fn to_french_movement(save: &str) {
    for _ in 0..6 {
        ok(&["game", "apply", save, "next-phase"]);
        if phase(save) == "French movement" {
            return;
        }
    }
    panic!("no French movement phase: {}", phase(save));
}

/// SPI Movement, Case A: "The Movement Allowance of each Prussian Combat unit is eight Movement
/// Points. The Movement Allowance of each French Combat unit is six Movement Points." Case D: "each
/// unit expends one Movement Point of its total Movement (point) Allowance for each hex entered";
/// Case M: "A unit may not move into a hex if it does not possess sufficient remaining Movement
/// Points". Supply Case D: "the Combat Strength and Movement Allowance of unsupplied units are
/// halved". Case E: unused points are not carried from one phase to another.
#[test]
fn spi_movement_allowance_in_play() {
    let save = game("allowance");
    // Placed in the reinforcement phase: no points counted off the map.
    ok(&[
        "game",
        "apply",
        &save,
        "move",
        "de-2-5-1",
        "1010",
        "move",
        "fr-metz-5",
        "3010",
        "move",
        "fr-forbach-8",
        "3210",
        "next-phase",
    ]);
    // Eight hexes in a line, eight points: within the German allowance.
    let line = apply(&save, &["move", "de-2-5-1", "1018"]);
    assert!(
        line["summary"].as_str().unwrap().ends_with("(8 MP)"),
        "{line}"
    );
    assert!(notes_of(&line).is_empty(), "{line}");
    // A ninth point is over.
    let line = apply(&save, &["move", "de-2-5-1", "1019"]);
    assert!(
        noted(
            &notes_of(&line),
            "spends 9 MP this Movement Phase, over its allowance of 8"
        ),
        "{line}"
    );
    assert!(noted(&notes_of(&line), "SPI-T1"), "{line}");
    // The move is made: the umpire decides.
    let v: serde_json::Value =
        serde_json::from_str(&ok(&["game", "show", &save, "--json"])).unwrap();
    let u = v["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["id"] == "de-2-5-1")
        .unwrap()
        .clone();
    assert_eq!(u["position"], "1019", "{u}");
    // The umpire's count from the printed map wins (a river, +1 MP): an undo takes the points
    // back, so 7 hexes at --mp 8 is within.
    ok(&["game", "apply", &save, "undo", "undo"]);
    let line = apply(&save, &["move", "de-2-5-1", "1017", "--mp", "8"]);
    assert!(
        line["summary"].as_str().unwrap().ends_with("(8 MP)"),
        "{line}"
    );
    assert!(notes_of(&line).is_empty(), "{line}");

    // French: six.
    to_french_movement(&save);
    let line = apply(&save, &["move", "fr-metz-5", "3016"]);
    assert!(notes_of(&line).is_empty(), "{line}");
    let line = apply(&save, &["move", "fr-metz-5", "3017"]);
    assert!(
        noted(
            &notes_of(&line),
            "spends 7 MP this Movement Phase, over its allowance of 6"
        ),
        "{line}"
    );
    // Unsupplied: halved to three.
    ok(&[
        "game",
        "apply",
        &save,
        "supply",
        "fr-forbach-8",
        "unsupplied",
    ]);
    let line = apply(&save, &["move", "fr-forbach-8", "3213"]);
    assert!(notes_of(&line).is_empty(), "{line}");
    let line = apply(&save, &["move", "fr-forbach-8", "3214"]);
    assert!(
        noted(
            &notes_of(&line),
            "spends 4 MP this Movement Phase, over its allowance of 3"
        ),
        "{line}"
    );
    assert!(
        noted(
            &notes_of(&line),
            "halved: unsupplied (typed by the umpire), SPI-S1"
        ),
        "{line}"
    );
    super::common::ok(&["log", "verify", &save]);
}

/// SPI Movement, Case K: "they are forced to pay a movement penalty of two additional Movement
/// Points to move onto, and two additional Movement Points to move off of, a Friendly Unit. Note
/// that EB and entrained Combat Units (whether moving or being moved over) are ignored".
#[test]
fn spi_stacking_costs_two_onto_and_two_off() {
    let save = game("stacking");
    ok(&[
        "game",
        "apply",
        &save,
        "move",
        "de-2-5-1",
        "1010",
        "move",
        "de-2-5-2",
        "1012",
        "move",
        "de-eb-1",
        "1014",
        "next-phase",
    ]);
    // Onto a friend two hexes away: 2 + 2.
    let line = apply(&save, &["move", "de-2-5-2", "1010"]);
    assert!(
        line["summary"].as_str().unwrap().ends_with("(4 MP)"),
        "{line}"
    );
    // Off it again, one hex: 1 + 2 off.
    let line = apply(&save, &["move", "de-2-5-2", "1011"]);
    assert!(
        line["summary"].as_str().unwrap().ends_with("(3 MP)"),
        "{line}"
    );
    // Onto an EB unit: no penalty (ignored for stacking).
    let line = apply(&save, &["move", "de-2-5-1", "1014"]);
    assert!(
        line["summary"].as_str().unwrap().ends_with("(4 MP)"),
        "{line}"
    );
    // Another rule set counts no points: --mp is refused.
    let pk = super::common::new_game(
        &super::common::tmp("spi-move", "pk-mp"),
        "mars-la-tour",
        "3",
    );
    let show: serde_json::Value =
        serde_json::from_str(&ok(&["game", "show", &pk, "--json"])).unwrap();
    let id = show["units"][0]["id"].as_str().unwrap().to_string();
    let err = refused(&pk, &["move", &id, "off", "--mp", "3"]);
    assert!(err.contains("counts no movement points"), "{err}");
    let err = refused(&save, &["move", "de-2-5-1", "1015", "--mp", "lots"]);
    assert!(err.contains("--mp"), "{err}");
}

/// SPI-H2: "Units may begin the game in either Formation status that they wish, but to change
/// Formation Status requires an expenditure of four Movement Points."
#[test]
fn spi_formation_change_costs_four_movement_points() {
    let save = game("formation");
    ok(&["game", "apply", &save, "move", "fr-metz-5", "3010"]);
    to_french_movement(&save);
    let line = apply(&save, &["formation", "fr-metz-5"]);
    assert_eq!(line["outcome"]["mp"], 4, "{line}");
    assert_eq!(line["outcome"]["allowance"], 6, "{line}");
    assert!(
        line["rules"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r == "SPI-H2"),
        "{line}"
    );
    assert!(notes_of(&line).is_empty(), "{line}");
    // The change is recorded: the unit is now extended (SPI-H2), shown with the result and kept
    // in the game, where its combats read it.
    assert!(
        line["summary"].as_str().unwrap().contains("extended on"),
        "{line}"
    );
    let show: serde_json::Value =
        serde_json::from_str(&ok(&["game", "show", &save, "--json"])).unwrap();
    let unit = show["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["id"] == "fr-metz-5")
        .unwrap()
        .clone();
    assert_eq!(
        unit["flags"],
        serde_json::json!(["moved", "extended"]),
        "the unit's flags name its formation: {unit}"
    );
    // Two hexes more is six: within; a third is over.
    let line = apply(&save, &["move", "fr-metz-5", "3012"]);
    assert!(notes_of(&line).is_empty(), "{line}");
    let line = apply(&save, &["move", "fr-metz-5", "3013"]);
    assert!(
        noted(
            &notes_of(&line),
            "spends 7 MP this Movement Phase, over its allowance of 6"
        ),
        "{line}"
    );
    // A fortification has no formation status: refused, nothing logged.
    let err = refused(&save, &["formation", "fort-metz"]);
    assert!(err.contains("SPI-H2"), "{err}");
}

/// SPI Rail Movement: "The French Player may have one Combat Unit entrained each Movement Phase.
/// The German Player may have two entrained Combat Units each Movement Phase." "the Combat Unit,
/// once entrained, may move up to eighteen hexes along the rail line by expending one Movement
/// Point." Errata: "The Terrain Effects Chart gives the Movement Point cost for entraining as
/// three Movement Points, and for detraining as two Movement Points ... The Terrain Effects Chart
/// is correct." Case B: "Units may not move by rail, entrain, or detrain in hexes adjacent to
/// Enemy Combat or Fortification Units."
#[test]
fn spi_rail_movement_in_play() {
    let save = game("rail");
    ok(&[
        "game",
        "apply",
        &save,
        "move",
        "de-2-5-1",
        "1001",
        "move",
        "de-2-5-2",
        "1201",
        "move",
        "de-2-5-3",
        "1401",
        "move",
        "fr-metz-5",
        "1438",
        "next-phase",
    ]);
    // Entraining: three points, the marker on.
    let line = apply(&save, &["entrain", "de-2-5-1"]);
    assert_eq!(line["outcome"]["mp"], 3, "{line}");
    assert!(notes_of(&line).is_empty(), "{line}");
    let v: serde_json::Value =
        serde_json::from_str(&ok(&["game", "show", &save, "--json"])).unwrap();
    let u = v["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["id"] == "de-2-5-1")
        .unwrap()
        .clone();
    assert!(
        u["flags"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f == "entrained"),
        "{u}"
    );
    // Thirty-six hexes along the line: two points (3 + 2 = 5 of 8).
    let line = apply(&save, &["move", "de-2-5-1", "1037"]);
    assert!(
        line["summary"].as_str().unwrap().ends_with("(2 MP)"),
        "{line}"
    );
    assert!(notes_of(&line).is_empty(), "{line}");
    // Detraining next to the French unit at 1438 (Case B): two points, the marker off, noted.
    assert_eq!(ok(&["hex", "distance", "1037", "1438"]).trim(), "4");
    let line = apply(&save, &["move", "de-2-5-1", "1337"]);
    assert!(
        noted(&notes_of(&line), "moves by rail next to"),
        "Case B: {line}"
    );
    let line = apply(&save, &["detrain", "de-2-5-1"]);
    assert_eq!(line["outcome"]["mp"], 2, "{line}");
    assert!(noted(&notes_of(&line), "Rail Movement Case B"), "{line}");
    // 3 + 2 + 1 + 2 = 8: within.
    assert!(!noted(&notes_of(&line), "over its allowance"), "{line}");
    // The checklist's rail movement row lists the entrained units.
    let row = checklist_row(&save, "SPI-T1", "rail movement");
    assert!(
        row["what"].as_str().unwrap().contains("entrain 3 MP"),
        "{row}"
    );
    // The German second entrained unit is within the limit; the third is over.
    let line = apply(&save, &["entrain", "de-2-5-2"]);
    assert!(notes_of(&line).is_empty(), "{line}");
    let line = apply(&save, &["entrain", "de-2-5-3"]);
    assert!(
        noted(
            &notes_of(&line),
            "3 units of the German player entrained this Movement Phase, over 2"
        ),
        "{line}"
    );
    // The impossible: entraining an entrained unit, detraining one that is not.
    let err = refused(&save, &["entrain", "de-2-5-2"]);
    assert!(err.contains("already entrained"), "{err}");
    let err = refused(&save, &["detrain", "de-2-5-1"]);
    assert!(err.contains("not entrained"), "{err}");
    // Issue 42: each verb of one request sees the state the verbs before it left, so a unit
    // entrained and detrained in one batch is not refused as "not entrained".
    let before = logged(&save);
    ok(&[
        "game", "apply", &save, "entrain", "de-2-5-1", "detrain", "de-2-5-1",
    ]);
    assert_eq!(logged(&save), before + 2, "both logged");
    // The same verb twice is refused the second time, after the first stands.
    let o = kepi(&[
        "game", "apply", &save, "entrain", "de-2-5-1", "entrain", "de-2-5-1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("already entrained"),
        "{o:?}"
    );
    assert_eq!(logged(&save), before + 3, "the first entrain stands");
    ok(&["game", "apply", &save, "detrain", "de-2-5-1"]);
    // French: one.
    ok(&["game", "apply", &save, "move", "fr-forbach-8", "3001"]);
    to_french_movement(&save);
    let line = apply(&save, &["entrain", "fr-forbach-8"]);
    assert!(notes_of(&line).is_empty(), "{line}");
    let line = apply(&save, &["entrain", "fr-metz-5"]);
    assert!(
        noted(
            &notes_of(&line),
            "2 units of the French player entrained this Movement Phase, over 1"
        ),
        "{line}"
    );
    super::common::ok(&["log", "verify", &save]);
}

/// SPI EB units, Case H (SPI-E1): "If the die-roll result is a 1, 2, or 3, it may continue to move
/// along the rail line, and finish its movement. If the die-roll result is a 4, 5, or 6, the EB
/// unit must stop, and move no further in the Movement Phase. On the following Friendly Movement
/// Phase, the EB unit may continue its movement." Movement Case A: "Each EB unit may move up to
/// four hexes along a rail line".
#[test]
fn spi_eb_river_crossing_in_play() {
    let save = game("eb");
    ok(&[
        "game",
        "apply",
        &save,
        "move",
        "de-eb-1",
        "1010",
        "move",
        "de-eb-2",
        "1210",
        "next-phase",
    ]);
    // The movement phase's checklist lists the side's EB units on the map and the roll.
    let row = checklist_row(&save, "SPI-E1", "EB units");
    assert_eq!(
        row["units"],
        serde_json::json!(["de-eb-1", "de-eb-2"]),
        "{row}"
    );
    // 1-3: it continues.
    let line = apply(&save, &["eb", "de-eb-1", "--dice", "d6=3"]);
    assert_eq!(line["outcome"]["continues"], true, "{line}");
    assert!(
        line["rules"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r == "SPI-E1"),
        "{line}"
    );
    let line = apply(&save, &["move", "de-eb-1", "1012"]);
    assert!(notes_of(&line).is_empty(), "{line}");
    // Up to four hexes: a fifth is noted.
    let line = apply(&save, &["move", "de-eb-1", "1015"]);
    assert!(
        noted(&notes_of(&line), "moves 5 hexes this Movement Phase"),
        "{line}"
    );
    // 4-6: it stops; a later move this phase is noted, and made.
    let line = apply(&save, &["eb", "de-eb-2", "--dice", "d6=4"]);
    assert_eq!(line["outcome"]["continues"], false, "{line}");
    let line = apply(&save, &["move", "de-eb-2", "1211"]);
    assert!(
        noted(
            &notes_of(&line),
            "must stop, and move no further in the Movement Phase"
        ),
        "{line}"
    );
    // On the following friendly movement phase it may continue.
    for _ in 0..6 {
        ok(&["game", "apply", &save, "next-phase"]);
    }
    assert_eq!(phase(&save), "German movement");
    let line = apply(&save, &["move", "de-eb-2", "1212"]);
    assert!(notes_of(&line).is_empty(), "{line}");
    // Only an EB unit rolls: refused, nothing logged.
    let err = refused(&save, &["eb", "de-1-5-1", "--dice", "d6=2"]);
    assert!(err.contains("not an EB unit"), "{err}");
    super::common::ok(&["log", "verify", &save]);
}

/// SPI-I1, the Reinforcement Chart as the seed prints it: "Aug. 1-3 | 1 | one 7*, south edge of
/// map"; "Aug. 10-12 | 4 | ... | one 5*"; "Aug. 13-15 | 5 | ... | one 3*"; "Aug. 16-18 | 6 | one
/// 8: Chalons, 4 Combat Points | one 5*". The bundled scenario carries them as cards with
/// `arrives`: each side's reinforcement phase of that turn lists them to place, and no other.
#[test]
fn the_reinforcement_chart_brings_its_units_in_their_turns() {
    let save = game("reinforcements");
    let arriving = |save: &str| -> Vec<String> {
        super::common::checklist_items(save)
            .iter()
            .filter(|i| i["rule"] == "SPI-I1")
            .flat_map(|i| i["units"].as_array().cloned().unwrap_or_default())
            .filter_map(|u| u.as_str().map(String::from))
            .collect()
    };
    // Turn 1: the German reinforcement phase brings nothing, the French one the 7.
    assert!(arriving(&save).is_empty());
    ok(&[
        "game",
        "apply",
        &save,
        "next-phase",
        "next-phase",
        "next-phase",
    ]);
    assert_eq!(arriving(&save), vec!["fr-reinf-1-7"]);
    // On to turn 4's German reinforcement phase (six phases a turn).
    super::common::next_phases(&save, 15);
    let shown = super::common::show(&save);
    assert_eq!(
        (shown["turn"].as_u64(), shown["phase"].as_str()),
        (Some(4), Some("German reinforcement"))
    );
    assert_eq!(arriving(&save), vec!["de-reinf-4-5"]);
    super::common::next_phases(&save, 6);
    assert_eq!(arriving(&save), vec!["de-reinf-5-3"]);
    super::common::next_phases(&save, 6);
    assert_eq!(arriving(&save), vec!["de-reinf-6-5"]);
    ok(&[
        "game",
        "apply",
        &save,
        "next-phase",
        "next-phase",
        "next-phase",
    ]);
    assert_eq!(arriving(&save), vec!["fr-reinf-6-8"]);
}
