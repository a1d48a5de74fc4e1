//! Issue 42, SPI's supply computed from a map (SPI-S1, SPI-S2, SPI-F1), through the real binary:
//! `kepi game supply` on a small SPI test map (a French rail line off the west edge, the German
//! "S", a French fortress), the umpire's typed state kept apart and winning, the answer without a
//! map, and play reading it (the isolated unit's check at the end of its movement phase), each
//! quoting its sentence.

use super::common::{json, ok, run, supplied_unit as unit, tmp};

/// A 14 x 6 SPI map: France, columns 13-14 Germany; a French rail line off the west edge along
/// row 03 to 0603 (the French `supply` edge at 0103), the German "S" at 1401.
pub(super) const MAP: &str = "[map]\nname = \"supply test\"\nrules = \"spi\"\nfirst = \"0101\"\n\
    last = \"1406\"\ndefault_terrain = \"clear\"\ndefault_country = \"france\"\n\n\
    [provenance]\nsource = \"club\"\ndrawn_by = \"a test\"\nfrom = \"nothing\"\n\n\
    [countries]\ngermany = [\"1301-1406\"]\n\n\
    [[rail]]\npath = [\"0103\", \"0203\", \"0303\", \"0403\", \"0503\", \"0603\"]\n\n\
    [[edge]]\nrole = \"supply\"\nside = \"french\"\nname = \"west rail\"\ncells = [\"0103\"]\n\n\
    [[edge]]\nrole = \"supply\"\nside = \"german\"\nname = \"S\"\ncells = [\"1401\"]\n";

/// A new SPI game on the test map: de-2-5-1 at 1203 (near the "S"), de-2-5-2 at 0205 (west of
/// the French fortress of Verdun at 0703, whose zone of interdiction walls it off), fr-metz-5 at
/// 0505 (near the rail line), everyone else off the map.
pub(super) fn game(name: &str) -> String {
    let save = super::common::spi_game_on_map("spi-supply", name, "supply-test.toml", MAP);
    super::common::place(
        &save,
        &[
            ("de-2-5-1", "1203"),
            ("de-2-5-2", "0205"),
            ("fr-metz-5", "0505"),
            ("fort-verdun", "0703"),
        ],
    );
    save
}

/// A map that names no supply edge of a side leaves that side's supply to the umpire.
#[test]
fn a_side_without_a_supply_edge_is_the_umpires() {
    let dir = tmp("spi-supply", "no-edge");
    let map = dir.join("no-edge.toml");
    let text = MAP.split("[[edge]]").next().unwrap();
    std::fs::write(&map, text).unwrap();
    let save = dir.join("g.json").display().to_string();
    ok(&[
        "game",
        "new",
        "--scenario",
        "spi-1870",
        "--out",
        &save,
        "--seed",
        "3",
        "--map",
        map.to_str().unwrap(),
    ]);
    ok(&[
        "game", "apply", &save, "set", "de-2-5-1", "position", "1203",
    ]);
    let v = json(&["game", "supply", &save, "de-2-5-1", "--json"]);
    let u = unit(&v, "de-2-5-1");
    assert_eq!(
        (u["status"].as_str(), u["basis"].as_str()),
        (Some("supplied"), Some("umpire"))
    );
    assert!(u["traced"].is_null(), "{v}");
}

/// SPI-S1 (issue 42's S19, "supply within 10/25 hexes"): "To be supplied, a unit must be able to
/// trace at least one continuous path of hexes which does not pass through Enemy occupied or
/// controlled hexes to a Supply Source for no more than ten hexes"; SPI-S2: "The Germans have a
/// single Supply Source which is marked with an 'S'", "the French rail lines leading from the west
/// and south edges"; SPI-F1 Case E: the zone of interdiction "interrupts all forms of Enemy supply
/// lines".
#[test]
fn supply_is_traced_on_the_map_with_its_path_source_and_what_interdicts() {
    let save = game("traced");
    let v = json(&["game", "supply", &save, "--json"]);
    assert_eq!(v["from_map"], true, "{v}");
    // Near the "S": supplied, the path ending there.
    let near = unit(&v, "de-2-5-1");
    assert_eq!(
        (near["status"].as_str(), near["basis"].as_str()),
        (Some("supplied"), Some("map"))
    );
    let t = &near["traced"];
    assert_eq!(t["source"]["name"], "S");
    assert_eq!(t["source"]["kind"], "edge");
    assert_eq!(t["source"]["cell"], "1401");
    let path: Vec<&str> = t["path"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(path.first(), Some(&"1203"));
    assert_eq!(path.last(), Some(&"1401"));
    assert_eq!(t["distance"].as_u64(), Some(path.len() as u64 - 1));
    assert!(t["distance"].as_u64().unwrap() <= 10);
    // The French unit draws on the rail line.
    let fr = unit(&v, "fr-metz-5");
    assert_eq!(fr["status"], "supplied");
    assert_eq!(fr["traced"]["source"]["kind"], "rail");
    assert_eq!(fr["traced"]["source"]["name"], "west rail");
    // West of Verdun: every way east crosses its zone of interdiction: isolated, and why.
    let cut_off = unit(&v, "de-2-5-2");
    assert_eq!(cut_off["status"], "isolated", "{cut_off}");
    let t = &cut_off["traced"];
    assert!(t["path"].as_array().unwrap().is_empty());
    let zone: Vec<&serde_json::Value> = t["interdicts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["what"] == "zone-of-interdiction")
        .collect();
    assert!(!zone.is_empty(), "{t}");
    assert_eq!(zone[0]["by"][0], "fort-verdun");
    assert_eq!(zone[0]["rule"], "SPI-F1");
    // A fortification is always supplied; an EB unit off the map is not traced.
    assert_eq!(unit(&v, "fort-verdun")["status"], "supplied");
    assert!(
        v["units"]
            .as_array()
            .unwrap()
            .iter()
            .all(|u| u["unit"] != "de-eb-1")
    );
    let rules = &v["sides"][0]["rules"];
    assert_eq!(
        rules,
        &serde_json::json!(["SPI-E2", "SPI-F1", "SPI-S1", "SPI-S2", "SPI-Z1"])
    );
    // The text says the same.
    let text = ok(&["game", "supply", &save]);
    assert!(text.contains("supply traced on the map"), "{text}");
    assert!(text.contains("hexes to S at 1401 (edge)"), "{text}");
    assert!(
        text.contains("zone of interdiction of fort-verdun (SPI-F1)"),
        "{text}"
    );
    // One unit: its answer and its side's.
    let one = json(&["game", "supply", &save, "de-2-5-1", "--json"]);
    assert_eq!(one["units"].as_array().unwrap().len(), 1);
    assert_eq!(one["sides"].as_array().unwrap().len(), 1);
    assert_eq!(one["sides"][0]["side"], "german");
}

/// The umpire's typed state wins in play, kept apart from the map's: `supply UNIT STATE`.
#[test]
fn the_umpires_typed_state_overrides_the_map_and_is_marked() {
    let save = game("typed");
    ok(&["game", "apply", &save, "supply", "de-2-5-1", "unsupplied"]);
    let v = json(&["game", "supply", &save, "de-2-5-1", "--json"]);
    let u = unit(&v, "de-2-5-1");
    assert_eq!(
        (
            u["status"].as_str(),
            u["basis"].as_str(),
            u["typed"].as_str()
        ),
        (Some("unsupplied"), Some("typed"), Some("unsupplied"))
    );
    assert_eq!(u["traced"]["status"], "supplied", "the map's kept apart");
    let text = ok(&["game", "supply", &save, "de-2-5-1"]);
    assert!(
        text.contains("typed by the umpire (wins in play); the map says supplied"),
        "{text}"
    );
}

/// Without a map, supply is the umpire's, as before issue 42, and the answer says so.
#[test]
fn without_a_map_supply_is_the_umpires() {
    let save = super::common::new_game(&tmp("spi-supply", "no-map"), "spi-1870", "3");
    ok(&["game", "apply", &save, "supply", "fr-metz-5", "isolated"]);
    let v = json(&["game", "supply", &save, "--json"]);
    assert_eq!(v["from_map"], false);
    assert!(
        v["umpire"]
            .as_str()
            .unwrap()
            .contains("supply is the umpire's"),
        "{v}"
    );
    let u = unit(&v, "fr-metz-5");
    assert_eq!(
        (u["status"].as_str(), u["basis"].as_str()),
        (Some("isolated"), Some("typed"))
    );
    assert!(u["traced"].is_null());
    assert_eq!(unit(&v, "de-2-5-1")["basis"], "umpire");
    let text = ok(&["game", "supply", &save]);
    assert!(text.contains("this game has no map"), "{text}");
}

/// Exit 2 naming the bad argument: an unknown unit, a unit not traced (off the map).
#[test]
fn a_bad_unit_exits_2_naming_it() {
    let save = game("bad");
    let (code, _, err) = run(&["game", "supply", &save, "nobody"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("UNIT") && err.contains("nobody"), "{err}");
    let (code, _, err) = run(&["game", "supply", &save, "de-1-5-1"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not traced for supply"), "{err}");
    let (code, _, err) = run(&["game", "supply", &save, "de-eb-1", "--json"]);
    assert_eq!(code, 2, "{err}");
}

/// SPI-S1, Standard Game Case O: "Isolated units lose one Combat Point from their Combat Strength
/// at the end of each Friendly Movement Phase that they are isolated": isolated as the map traces
/// it, a check to answer (never applied silently); SPI-S1: "Isolated units ... are unable to
/// attack", and the combat's lines say where the state comes from.
#[test]
fn play_reads_the_maps_supply() {
    let save = game("play");
    // German movement, then on: the check for the isolated unit, worded from the map.
    ok(&["game", "apply", &save, "next-phase", "next-phase"]);
    let iso = super::common::due_of(&save, "SPI-S1");
    assert_eq!(iso.len(), 1, "{iso:?}");
    assert_eq!(iso[0]["unit"], "de-2-5-2");
    let what = iso[0]["what"].as_str().unwrap();
    assert!(
        what.contains("isolated (from the map") && what.contains("loses 1 CP"),
        "{what}"
    );
}

/// SPI-E2 (Case F): "When a Prussian unit moves into a rail line hex ... of a French Home Country
/// rail line, it \"cuts\" that rail line. Place a \"Rail Cut\" marker on that hex"; (Case E)
/// "Supply lines may not be traced by rail through a cut rail line"; SPI-S2: "Supply Sources may
/// only be traced from the edge of the map to the nearest hex that has been cut". A marker at
/// 0303 stops the French rail line there: fr-metz-5's source is no longer the rail cell next to
/// it, and the stop is named; taken off (the repair), the line is whole again.
#[test]
fn a_rail_cut_marker_stops_the_rail_line_as_a_source() {
    let save = game("cut-marker");
    let source = |save: &str| {
        let v = json(&["game", "supply", save, "--json"]);
        unit(&v, "fr-metz-5")["traced"]["source"]["cell"]
            .as_str()
            .map(String::from)
    };
    let whole = source(&save);
    ok(&["game", "apply", &save, "mark", "rail-cut", "0303"]);
    let cut = source(&save);
    assert_ne!(whole, cut, "the rail cell beyond the cut is no source");
    let v = json(&["game", "supply", &save, "--json"]);
    assert!(
        v["sides"].to_string().contains("\"cut\""),
        "the stop is named: {v}"
    );
    ok(&["game", "apply", &save, "unmark", "rail-cut", "0303"]);
    assert_eq!(source(&save), whole);
    ok(&["log", "verify", &save]);
}

/// The supply test map with a German rail line too, 1302-1304 in Germany.
fn map_with_german_rail() -> String {
    format!("{MAP}\n[[rail]]\npath = [\"1302\", \"1303\", \"1304\"]\n")
}

/// The rail cut markers `game show --json` lists.
fn cuts(save: &str) -> Vec<String> {
    super::common::marked(save, "rail-cut")
}

/// SPI-E2, Rail Movement Case D: "a rail line which has been moved onto by an Enemy Unit during
/// the course of a game may not be used for rail movement at all subsequently. This is signified
/// by placing a \"rail cut\" marker on that hex"; EB units Case F: "When a Prussian unit moves
/// into ... a French Home Country rail line, it \"cuts\" that rail line. Place a \"Rail Cut\"
/// marker on that hex"; Case E: "When a French unit moves ... into a German Home Country rail
/// line, it \"cuts\" that rail line ... To repair a cut, a Friendly EB unit must simply move into
/// the cut hex, and remove the marker." kepi puts the marker with the move (one entry, one undo)
/// and takes it off when a German EB unit enters the cut; a move in its own country or off the
/// rail cuts nothing; `kepi log verify` makes each again.
#[test]
fn a_unit_moving_onto_the_enemys_rail_line_cuts_it_and_an_eb_unit_repairs_it() {
    let save = super::common::spi_game_on_map(
        "spi-supply",
        "moved-onto",
        "supply-test.toml",
        &map_with_german_rail(),
    );
    super::common::place(
        &save,
        &[
            ("de-2-5-2", "0205"),
            ("fr-metz-5", "1205"),
            ("de-eb-1", "1304"),
            ("de-2-5-1", "1203"),
        ],
    );
    assert_eq!(cuts(&save), Vec::<String>::new());
    // A German unit onto the French rail line at 0303: cut, with the move.
    let out = ok(&["game", "apply", &save, "move", "de-2-5-2", "0303"]);
    assert!(out.contains("rail cut marked at 0303"), "{out}");
    assert_eq!(cuts(&save), ["0303"]);
    // One undo takes the move and its marker back together.
    ok(&["game", "apply", &save, "undo"]);
    assert_eq!(cuts(&save), Vec::<String>::new());
    ok(&["game", "apply", &save, "move", "de-2-5-2", "0303"]);
    // A French unit onto the German line at 1303: cut, and the German player is due his two EB
    // units at the cut (Case E: "The German Player receives an EB unit on both sides of the
    // \"cut\" in his next Movement Phase"); the German cut at 0303 gives the French none (Case F).
    ok(&["game", "apply", &save, "move", "fr-metz-5", "1303"]);
    assert_eq!(cuts(&save), ["0303", "1303"]);
    let asked = super::common::due_of(&save, "SPI-E2");
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert_eq!(asked[0]["side"], "german", "{asked:?}");
    assert!(
        asked[0]["what"]
            .as_str()
            .unwrap()
            .contains("place a German EB unit on each side of the cut"),
        "{asked:?}"
    );
    // A German unit in its own country, and a French one off the rail, cut nothing.
    ok(&["game", "apply", &save, "move", "de-2-5-1", "1302"]);
    ok(&["game", "apply", &save, "move", "fr-metz-5", "1205"]);
    assert_eq!(cuts(&save), ["0303", "1303"]);
    // The German EB unit moves into the cut in Germany and repairs it.
    let out = ok(&["game", "apply", &save, "move", "de-eb-1", "1303"]);
    assert!(out.contains("rail cut taken off 1303"), "{out}");
    assert_eq!(cuts(&save), ["0303"]);
    let log = ok(&["log", "show", &save]);
    assert!(
        log.contains("moves to 0303") && log.contains("rail cut marked at 0303"),
        "{log}"
    );
    let out = ok(&["log", "verify", &save]);
    assert!(out.contains("log OK"), "{out}");
}

/// An SPI game on the test map with a German rail line from 1304 west along row 04 into France
/// (to 0804): de-eb-1 at 1304, de-2-5-2 at 0106 (too far from the "S" to be supplied), French 5
/// at 1106.
pub(super) fn secured_line_game(name: &str) -> String {
    let map = format!(
        "{}\n[[rail]]\npath = [\"1304\", \"1204\", \"1104\", \"1004\", \"0904\", \"0804\"]\n",
        map_with_german_rail()
    );
    let save = super::common::spi_game_on_map("spi-supply", name, "supply-test.toml", &map);
    super::common::place(
        &save,
        &[
            ("de-eb-1", "1304"),
            ("de-2-5-2", "0106"),
            ("fr-metz-5", "1106"),
        ],
    );
    save
}

/// SPI-E2, EB units: "each EB unit may move four hexes (regardless of terrain) along an Enemy rail
/// line, and, by doing so, extend the point from which a supply line may be traced. This line
/// must have been passed over by EB units describing a path leading back to the Player's Home
/// Country, and not have been passed over by an Enemy Combat Unit since being secured"; Case E:
/// "When a French unit moves into a rail line hex previously secured by a German EB unit ... it
/// \"cuts\" that rail line. Place a \"Rail Cut\" marker on that hex." On the test map with a
/// German line from 1304 west along row 04: de-eb-1's move from 1304 to 0904 secures the four
/// hexes of France it passes (one entry, one undo); de-2-5-2 at 0106, too far from the "S", is
/// supplied from the line's end; French 5 moving onto 1104 takes that hex off the line and cuts
/// it, and de-2-5-2 is supplied no more; `kepi log verify` makes each again.
#[test]
fn an_eb_units_secured_line_carries_supply_until_an_enemy_cuts_it() {
    let save = secured_line_game("secured");
    let supply = |save: &str| json(&["game", "supply", save, "de-2-5-2", "--json"]);
    assert_eq!(unit(&supply(&save), "de-2-5-2")["status"], "unsupplied");
    let out = ok(&["game", "apply", &save, "move", "de-eb-1", "0904"]);
    assert!(
        out.contains("secured line marked at 1204") && out.contains("secured line marked at 0904"),
        "{out}"
    );
    assert_eq!(
        super::common::marked(&save, "secured"),
        ["0904", "1004", "1104", "1204"]
    );
    let v = supply(&save);
    let t = unit(&v, "de-2-5-2");
    assert_eq!(t["status"], "supplied", "{v}");
    assert_eq!(t["traced"]["source"]["kind"], "secured", "{v}");
    assert_eq!(t["traced"]["source"]["cell"], "0904", "{v}");
    let text = ok(&["game", "supply", &save, "de-2-5-2"]);
    assert!(
        text.contains("hexes to EB-secured line at 0904 (secured rail line)"),
        "{text}"
    );
    // The French unit onto the secured line at 1104: off the line, and cut.
    let out = ok(&["game", "apply", &save, "move", "fr-metz-5", "1104"]);
    assert!(
        out.contains("secured line taken off 1104") && out.contains("rail cut marked at 1104"),
        "{out}"
    );
    assert_eq!(
        super::common::marked(&save, "secured"),
        ["0904", "1004", "1204"]
    );
    assert_eq!(cuts(&save), ["1104"]);
    let v = supply(&save);
    assert_ne!(unit(&v, "de-2-5-2")["status"], "supplied", "{v}");
    // The German player is due his EB units at the cut (Case E).
    let asked = super::common::due_of(&save, "SPI-E2");
    assert!(asked.iter().any(|d| d["side"] == "german"), "{asked:?}");
    let out = ok(&["log", "verify", &save]);
    assert!(out.contains("log OK"), "{out}");
    // One undo takes the move and both its markers back together.
    ok(&["game", "apply", &save, "undo"]);
    assert_eq!(
        super::common::marked(&save, "secured"),
        ["0904", "1004", "1104", "1204"]
    );
    assert_eq!(cuts(&save), Vec::<String>::new());
}

/// SPI-W1: "10 Victory Points for each German Combat unit Strength Point moved off the west edge
/// of the map, if the hex exited from is supplied at the end of the game." de-2-5-2 (5 CP) moves
/// off the map from 0106, on the west edge, supplied by the EB-secured line to 0904: the unit is
/// marked, the hex too, with the move; `victory` counts its 5 CP (50 VP) while 0106 is supplied,
/// none once the French cut the line. Back on the map, the unit loses its mark.
#[test]
fn german_cp_moved_off_the_west_edge_count_while_the_exit_is_supplied() {
    let save = secured_line_game("exit-west");
    ok(&["game", "apply", &save, "move", "de-eb-1", "0904"]);
    let out = ok(&["game", "apply", &save, "move", "de-2-5-2", "off"]);
    assert!(
        out.contains("west edge exit marked at 0106") && out.contains("moved off the west edge"),
        "{out}"
    );
    assert_eq!(super::common::marked(&save, "exit-west"), ["0106"]);
    // The French EB units wait off the map: a move off it enters no hex of theirs and pushes none
    // back (SPI-E1 Case C; kepi of log revision 5 and before asked it, and its saves replay so).
    assert_eq!(
        super::common::due_of(&save, "SPI-E1"),
        Vec::<serde_json::Value>::new()
    );
    let words = |save: &str| -> String {
        let v = json(&["log", "show", save, "--json"]);
        let e = v.as_array().unwrap().last().unwrap().clone();
        e["action"]["input"]["resolve"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_str().unwrap().to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    super::common::apply(&save, &["victory"]);
    assert!(
        words(&save).contains("--german-cp-exited 5"),
        "{}",
        words(&save)
    );
    let log = json(&["log", "show", &save, "--json"]);
    let lines = &log.as_array().unwrap().last().unwrap()["action"]["resolution"]["modifiers"];
    assert!(
        lines.as_array().unwrap().iter().any(|m| m["label"]
            == "German VP, CP exited off the west edge: 5 x 10 VP"
            && m["value"] == "+50"),
        "{lines}"
    );
    // The French cut the secured line at 1104: 0106 is supplied no more.
    ok(&["game", "apply", &save, "move", "fr-metz-5", "1104"]);
    super::common::apply(&save, &["victory"]);
    assert!(
        words(&save).contains("--german-cp-exited 0"),
        "{}",
        words(&save)
    );
    let out = ok(&["log", "verify", &save]);
    assert!(out.contains("log OK"), "{out}");
    // Back onto the map (an off-map rail link, Movement Case F): the mark comes off.
    let marks = |save: &str| {
        let v = json(&["game", "show", save, "--json"]);
        v["units"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["id"] == "de-2-5-2")
            .map(|u| u["marks"].clone())
            .unwrap()
    };
    assert_eq!(marks(&save), serde_json::json!(["exited-west"]));
    let out = ok(&["game", "apply", &save, "move", "de-2-5-2", "0106"]);
    assert!(out.contains("moved off the west edge"), "{out}");
    assert_eq!(marks(&save), serde_json::Value::Null);
}

/// SPI-E2, EB units Case G: "Once an EB unit has cleared a rail line in the Enemy Home Country, it
/// may not be used by the opposing Player for Rail Movement." A German-secured hex at 0403 on the
/// French line stops the entrained French 5's rail movement there, as a cut does.
#[test]
fn a_line_the_enemy_has_secured_is_closed_to_rail_movement() {
    let save = entrained_on_the_line("secured-rail");
    ok(&["game", "apply", &save, "mark", "secured", "0403"]);
    let through = super::common::apply(&save, &["move", "fr-metz-5", "0503"]);
    assert!(
        super::common::noted(&super::common::notes_of(&through), "no rail line of France"),
        "{through}"
    );
    let out = ok(&["log", "verify", &save]);
    assert!(out.contains("log OK"), "{out}");
}

/// An SPI game on the test map in the French movement phase, fr-metz-5 entrained at 0203 on the
/// French rail line, de-2-5-1 at 1203.
pub(super) fn entrained_on_the_line(name: &str) -> String {
    let save = super::common::spi_game_on_map("spi-supply", name, "supply-test.toml", MAP);
    super::common::place(&save, &[("fr-metz-5", "0203"), ("de-2-5-1", "1203")]);
    for _ in 0..8 {
        let v = json(&["game", "show", &save, "--json"]);
        if v["phase"] == "French movement" {
            break;
        }
        ok(&["game", "apply", &save, "next-phase"]);
    }
    assert_eq!(
        json(&["game", "show", &save, "--json"])["phase"],
        "French movement"
    );
    ok(&[
        "game",
        "apply",
        &save,
        "flag",
        "fr-metz-5",
        "entrained",
        "on",
    ]);
    save
}

/// `move UNIT CELL` in the game, which must cost `mp` movement points; its notes.
fn moved(save: &str, unit: &str, to: &str, mp: u32) -> Vec<String> {
    let line = super::common::apply(save, &["move", unit, to]);
    assert!(
        line["summary"]
            .as_str()
            .unwrap()
            .ends_with(&format!("({mp} MP)")),
        "{line}"
    );
    super::common::notes_of(&line)
}

/// SPI-L1 on the map, Rail Movement Case A: "\"A unit moving on a rail line\" is defined as one
/// which is moving from one rail hex to another across hexsides crossed by the rail line itself";
/// Case C: "French Combat Units may only use rail lines in France"; Case D: a line "moved onto
/// by an Enemy Unit ... may not be used for rail movement at all subsequently". fr-metz-5,
/// entrained at 0203 in the French movement phase, goes along the line to 0503 (one point, no
/// note); off the line to 0505, and through a cut, each is noted with the move (the umpire goes
/// ahead), and the log verifies.
#[test]
fn an_entrained_unit_moves_along_its_rail_line_on_the_map() {
    let save = entrained_on_the_line("rail-move");
    let notes = moved(&save, "fr-metz-5", "0503", 1);
    assert!(
        !notes.iter().any(|n| n.contains("no rail line")),
        "{notes:?}"
    );
    let off = super::common::apply(&save, &["move", "fr-metz-5", "0505"]);
    let notes = super::common::notes_of(&off);
    assert!(
        super::common::noted(
            &notes,
            "no rail line of France leads from 0503 to 0505 for French 5 (Metz) (SPI-L1"
        ),
        "{notes:?}"
    );
    ok(&["game", "apply", &save, "undo"]);
    ok(&["game", "apply", &save, "mark", "rail-cut", "0403"]);
    let through = super::common::apply(&save, &["move", "fr-metz-5", "0203"]);
    assert!(
        super::common::noted(&super::common::notes_of(&through), "no rail line of France"),
        "{through}"
    );
    let out = ok(&["log", "verify", &save]);
    assert!(out.contains("log OK"), "{out}");
}

/// SPI-L1 on the map, the reach: "the Combat Unit, once entrained, may move up to eighteen hexes
/// along the rail line by expending one Movement Point". `kepi game reach` for the entrained
/// French 5 at 0203 answers the line's hexes in France (0103 to 0603, 1 MP each), not the hex
/// beside it (0204) nor one off the line (0505); past a Rail Cut at 0403 (Case D: a cut line "may
/// not be used for rail movement") it reaches 0303 and no further.
#[test]
fn an_entrained_units_reach_runs_along_its_rail_line() {
    let save = entrained_on_the_line("rail-reach");
    let reach = |save: &str| {
        let v = json(&["game", "reach", save, "fr-metz-5", "--json"]);
        let cells: Vec<(String, u64)> = v["cells"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["cell"].as_str().unwrap().to_string(),
                    c["cost"].as_u64().unwrap(),
                )
            })
            .collect();
        (v, cells)
    };
    let (v, cells) = reach(&save);
    let labels: Vec<&str> = cells.iter().map(|(c, _)| c.as_str()).collect();
    assert_eq!(labels, ["0103", "0303", "0403", "0503", "0603"], "{v}");
    assert!(cells.iter().all(|(_, mp)| *mp == 1), "{v}");
    assert_eq!(v["rules"], serde_json::json!(["SPI-L1"]), "{v}");
    assert!(
        v["not_applied"][0].as_str().unwrap().contains("Case F"),
        "{v}"
    );
    ok(&["game", "apply", &save, "mark", "rail-cut", "0403"]);
    let (v, cells) = reach(&save);
    let labels: Vec<&str> = cells.iter().map(|(c, _)| c.as_str()).collect();
    assert_eq!(labels, ["0103", "0303"], "{v}");
}

/// SPI-S1: "Units are determined to be supplied, unsupplied, or isolated for movement purposes at
/// the beginning of their Movement Phase." de-2-5-1 begins the German Movement Phase at 0503,
/// supplied (9 hexes to the "S"), and moves out of supply to 0203 (3 MP): its next move to 0206
/// (6 MP in all) is within the eight points it began with, not noted against a halved four; one
/// more to 0210 (10) is noted over the eight, unhalved. The log verifies.
#[test]
fn the_allowance_is_judged_on_the_supply_at_the_start_of_the_movement_phase() {
    let save = super::common::spi_game_on_map("spi-supply", "phase-start", "supply-test.toml", MAP);
    super::common::place(&save, &[("de-2-5-1", "0503")]);
    ok(&["game", "apply", &save, "next-phase"]);
    let status = |save: &str| {
        let v = json(&["game", "supply", save, "--json"]);
        unit(&v, "de-2-5-1")["status"].as_str().unwrap().to_string()
    };
    assert_eq!(status(&save), "supplied");
    ok(&["game", "apply", &save, "move", "de-2-5-1", "0203"]);
    assert_eq!(status(&save), "unsupplied");
    let notes = moved(&save, "de-2-5-1", "0206", 3);
    assert!(
        !notes.iter().any(|n| n.contains("over its allowance")),
        "{notes:?}"
    );
    let third = super::common::apply(&save, &["move", "de-2-5-1", "0210"]);
    let notes = super::common::notes_of(&third);
    assert!(
        super::common::noted(
            &notes,
            "spends 10 MP this Movement Phase, over its allowance of 8 (SPI-T1, Movement Case A;"
        ),
        "{notes:?}"
    );
    let out = ok(&["log", "verify", &save]);
    assert!(out.contains("log OK"), "{out}");
}
