//! Issue 42, 1870 played on its board (FR-M1, Titles B and D; FR-F4), through the real binary: the
//! zones of control a move pays for and the supply lines traced on a club's map, each quoting its
//! sentence; the umpire's typed supply still wins, and a combat reads the map's.

use super::common::{
    apply_json, card, fr1870_header, game_of_scenario, json, ok, supplied_unit as unit, tmp,
};

/// A club's 1870 board, 12 x 8 cells (even columns half a cell lower), France throughout, with the
/// club's Terrain Table entry for clear (1 potential a cell, FR-M1): the French logistic base the
/// west edge (column 01), the German the east edge (column 12).
const MAP: &str = "[map]\nname = \"club board\"\nrules = \"fr1870\"\nlayout = \"even-q\"\n\
    first = \"0101\"\nlast = \"1208\"\ndefault_terrain = \"clear\"\ndefault_country = \"france\"\n\n\
    [provenance]\nsource = \"club\"\ndrawn_by = \"a test\"\nfrom = \"our printed table\"\n\n\
    [[terrain]]\nname = \"clear\"\nmovement = \"1 potential\"\nmp = 1\n\n\
    [[edge]]\nrole = \"supply\"\nside = \"french\"\nname = \"the west edge\"\ncells = [\"0101-0108\"]\n\n\
    [[edge]]\nrole = \"supply\"\nside = \"german\"\nname = \"the east edge\"\ncells = [\"1201-1208\"]\n";

/// A new 1870 game on the club's board: French `fr-a` (0203), `fr-b` (0403), `fr-c` (0603, 4
/// potential), `fr-far` (1007, 6); German `de-a` (1103, 3) and `de-b` (0305, 2).
fn game(name: &str) -> String {
    game_on(name, MAP)
}

/// [`game`] on the board `map`.
pub(super) fn game_on(name: &str, map: &str) -> String {
    game_marked(name, map, "")
}

/// [`game_on`] with `marks` (`[[mark]]` tables) between the scenario's header and its cards.
fn game_marked(name: &str, map: &str, marks: &str) -> String {
    let dir = tmp("fr1870-board", name);
    std::fs::write(dir.join("board.toml"), map).unwrap();
    let mut t = fr1870_header("fr1870-board", "Board", "map = \"board.toml\"\n");
    t.push_str(marks);
    for (id, side, strength, hex) in [
        ("fr-a", "french", 2, "0203"),
        ("fr-b", "french", 2, "0403"),
        ("fr-c", "french", 4, "0603"),
        ("fr-far", "french", 6, "1007"),
        ("de-a", "german", 3, "1103"),
        ("de-b", "german", 2, "0305"),
    ] {
        t.push_str(&card(id, side, "infantry", strength, hex, "movement = 4\n"));
    }
    game_of_scenario(&dir, "board-scenario.toml", &t)
}

/// FR-F4: "Any unit able to establish with its logistic base a line of communication consisting
/// of a series of cells controlled or occupied by friendly units is considered as supplied";
/// "The logistic base of the German player consists of the eastern and northern edges of the
/// map"; F5: "Any unit unable to establish a line of communication with its logistic base as
/// described in F4 is considered as not supplied." fr-c's line runs back through the cells fr-b
/// and fr-a control to the west edge; fr-far, alone in the south-east, has none (no isolated state in
/// 1870); the Germans next to their edge are supplied.
#[test]
fn kepi_game_supply_traces_1870s_lines_of_communication() {
    let save = game("supply");
    let v = json(&["game", "supply", &save, "--json"]);
    assert_eq!(v["from_map"], true, "{v}");
    let c = unit(&v, "fr-c");
    assert_eq!(
        (c["status"].as_str(), c["basis"].as_str()),
        (Some("supplied"), Some("map"))
    );
    let path: Vec<&str> = c["traced"]["path"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|x| x.as_str())
        .collect();
    assert_eq!(path.first(), Some(&"0603"));
    assert!(path.last().unwrap().starts_with("01"), "{path:?}");
    assert_eq!(c["traced"]["source"]["name"], "the west edge");
    let far = unit(&v, "fr-far");
    assert_eq!(far["status"], "unsupplied", "{far}");
    assert!(
        far["traced"]["interdicts"]
            .to_string()
            .contains("uncontrolled"),
        "{far}"
    );
    assert_eq!(unit(&v, "de-a")["status"], "supplied");
    let rules = v["sides"].to_string();
    assert!(rules.contains("FR-F4"), "{rules}");
    // The text counts in cells: so does the answer in words.
    let words = ok(&["game", "supply", &save, "fr-c"]);
    let n = path.len() - 1;
    assert!(
        words.contains(&format!("at 0603: {n} cells to the west edge")),
        "{words}"
    );
}

/// FR-F4: "The line of communication is cut as soon as an enemy unit occupies or controls one of
/// its cells, wherever that may be." de-b moved to 0304 controls the cells between fr-a and
/// fr-b: fr-c's line is cut. FR-S1 in play: "A non-supplied unit fights with its combat potential
/// halved": fr-c attacks with 2 of its 4. The umpire's typed state wins over the map's.
#[test]
fn a_cut_line_halves_a_combat_and_the_umpires_state_wins() {
    let save = game("cut");
    ok(&["game", "apply", &save, "set", "de-b", "position", "0304"]);
    let v = json(&["game", "supply", &save, "--json"]);
    assert_eq!(unit(&v, "fr-c")["status"], "unsupplied", "{v}");
    // de-a next to fr-c; the French combat phase: fr-c attacks it.
    ok(&["game", "apply", &save, "set", "de-a", "position", "0703"]);
    ok(&["game", "apply", &save, "next-phase"]);
    let attack = |save: &str| {
        apply_json(
            save,
            &[
                "combat",
                "--attackers",
                "fr-c",
                "--hex",
                "0703",
                "--dice",
                "d6=3",
                "--result",
                "R",
            ],
        )
        .pop()
        .unwrap()
    };
    let out = attack(&save);
    assert_eq!(out["outcome"]["attack"], "2", "halved: {out}");
    ok(&["log", "verify", &save]);
    ok(&["game", "apply", &save, "undo"]);
    ok(&["game", "apply", &save, "supply", "fr-c", "supplied"]);
    let v = json(&["game", "supply", &save, "--json"]);
    assert_eq!(
        (
            unit(&v, "fr-c")["status"].as_str(),
            unit(&v, "fr-c")["basis"].as_str()
        ),
        (Some("supplied"), Some("typed"))
    );
    let out = attack(&save);
    assert_eq!(out["outcome"]["attack"], "4", "the umpire's: {out}");
    ok(&["log", "verify", &save]);
}

/// FR-M1, D2: "To enter a cell controlled by an enemy unit, a unit must spend 1 additional point
/// of movement potential"; D3: "A unit entering a cell controlled by the enemy is not obliged to
/// stop its movement"; B8: "A unit may never enter a cell occupied by an enemy unit." fr-far
/// (movement 4) from 1007, de-a at 1005: the cells next to de-a cost one more, and the reach goes
/// on past them.
#[test]
fn kepi_game_reach_counts_1870s_zones_of_control() {
    let save = game("reach");
    ok(&["game", "apply", &save, "set", "de-a", "position", "1005"]);
    let v = json(&["game", "reach", &save, "fr-far", "--json"]);
    let cost = |cell: &str| {
        v["cells"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["cell"] == cell)
            .and_then(|c| c["cost"].as_u64())
    };
    // 1006 is next to both: 1 for clear + 1 to enter the enemy's zone; 1008 is not in it.
    assert_eq!((cost("1006"), cost("1008")), (Some(2), Some(1)), "{v}");
    // 0906, in the zone, by 0907 (1) and then 1 + 1.
    assert_eq!(cost("0906"), Some(3), "{v}");
    assert_eq!(cost("1005"), None, "the enemy's cell is never entered");
    assert!(v["rules"].to_string().contains("FR-M1"), "{v}");
    assert_eq!(v["movement_rules"], true);
}

/// [`MAP`] with a French rail section from 0407 to the east edge.
pub(super) fn map_with_section() -> String {
    format!(
        "{MAP}\n[[rail]]\nname = \"Ligne\"\nsection = \"Est\"\ncapacity = 2\n\
         path = [\"0407\", \"0507\", \"0607\", \"0707\", \"0807\", \"0907\", \"1007\", \
         \"1107\", \"1207\"]\n"
    )
}

/// FR-G1 (G3): "In enemy territory, every railway is in principle at the disposal of the enemy,
/// but the invader becomes master of a railway cell as soon as one of his units has passed over
/// that cell or occupied it. Markers are at the disposal of the players to indicate possession of
/// the sections of the networks"; FR-F4: "Cells controlled or occupied by friendly units may be
/// replaced by a railway link consisting of any number of sections at the player's disposal".
/// A French section from 0407 to the east edge: de-b on it has no line until the German player's
/// A marker is on the section (`mark possession-german`), and none again when it is taken off.
/// The marker is logged, undone, shown, and refused where it makes no sense.
#[test]
fn a_possession_marker_puts_a_french_section_at_the_german_players_disposal() {
    let save = game_on("possession", &map_with_section());
    ok(&["game", "apply", &save, "set", "de-b", "position", "0507"]);
    ok(&["game", "apply", &save, "set", "fr-far", "position", "0101"]);
    let status = |save: &str| {
        let v = json(&["game", "supply", save, "--json"]);
        unit(&v, "de-b")["status"].as_str().unwrap().to_string()
    };
    assert_eq!(status(&save), "unsupplied");
    ok(&["game", "apply", &save, "mark", "possession-german", "0807"]);
    assert_eq!(status(&save), "supplied");
    let shown = json(&["game", "show", &save, "--json"]);
    assert_eq!(
        shown["marks"],
        serde_json::json!([
            {"kind": "passage-german", "cell": "0507"},
            {"kind": "possession-german", "cell": "0807"}
        ]),
        "{shown}"
    );
    let log = ok(&["log", "show", &save]);
    assert!(
        log.contains("German possession (A) marked at 0807"),
        "{log}"
    );
    ok(&["log", "verify", &save]);
    ok(&["game", "apply", &save, "undo"]);
    assert_eq!(status(&save), "unsupplied");
    ok(&["game", "apply", &save, "redo"]);
    ok(&[
        "game",
        "apply",
        &save,
        "unmark",
        "possession-german",
        "0807",
    ]);
    assert_eq!(status(&save), "unsupplied");
    // The impossible is refused, naming what is accepted: another set's marker, a marker taken
    // off a cell without it, one put twice, one off the board's cells.
    let e = super::common::refused(&["game", "apply", &save, "mark", "rail-cut", "0807"]);
    assert!(e.contains("possession-german, possession-french"), "{e}");
    let e = super::common::refused(&[
        "game",
        "apply",
        &save,
        "unmark",
        "possession-german",
        "0807",
    ]);
    assert!(e.contains("carries no German possession (A) marker"), "{e}");
    ok(&["game", "apply", &save, "mark", "possession-french", "0907"]);
    let e = super::common::refused(&["game", "apply", &save, "mark", "possession-french", "0907"]);
    assert!(e.contains("already carries"), "{e}");
    let e = super::common::refused(&["game", "apply", &save, "mark", "possession-french", "off"]);
    assert!(e.contains("goes on a cell"), "{e}");
    ok(&["log", "verify", &save]);
}

/// FR-G1 (G3): "the invader becomes master of a railway cell as soon as one of his units has
/// passed over that cell or occupied it". de-b (0305) moves onto the French section at 0407:
/// the German passage marker there, with the move; then along the line to 0707: on the three
/// cells it passed (the line is a shortest way); back off the line, nothing. Not joined to any
/// German network (the board is France throughout), the section is neutralised, not his. One
/// undo takes a move's markers back with it; `kepi log verify` makes each again.
#[test]
fn a_units_move_along_the_enemys_rail_line_marks_its_passage() {
    let save = game_on("passage", &map_with_section());
    let passed = |save: &str| super::common::marked(save, "passage-german");
    let out = ok(&["game", "apply", &save, "move", "de-b", "0407"]);
    assert!(out.contains("German passage marked at 0407"), "{out}");
    assert_eq!(passed(&save), ["0407"]);
    ok(&["game", "apply", &save, "move", "de-b", "0707"]);
    assert_eq!(passed(&save), ["0407", "0507", "0607", "0707"]);
    ok(&["game", "apply", &save, "undo"]);
    assert_eq!(passed(&save), ["0407"]);
    ok(&["game", "apply", &save, "redo"]);
    ok(&["game", "apply", &save, "move", "de-b", "0706"]);
    assert_eq!(passed(&save), ["0407", "0507", "0607", "0707"]);
    // Neutralised: not at the German player's disposal, joined to no German network.
    let v = json(&["game", "supply", &save, "de-b", "--json"]);
    assert_eq!(unit(&v, "de-b")["status"], "unsupplied", "{v}");
    let out = ok(&["log", "verify", &save]);
    assert!(out.contains("log OK"), "{out}");
}

/// Issue 42: a situation's markers as printed ("Situation 2's eleven A cells") are the club's to
/// write in its scenario, `[[mark]]` tables: a game made from it has them on the board from the
/// start (in its first entry, so undo never takes them off), the supply reads them as it reads a
/// marker put in play, and `game show` lists them. A bad table is refused with exit 2, naming
/// the file, the line, the field and what it accepts.
#[test]
fn a_scenarios_markers_are_on_the_board_from_the_start() {
    let a = "\n[[mark]]\nkind = \"possession-german\"\ncell = \"0807\"\n";
    let save = game_marked("scenario-marks", &map_with_section(), a);
    let shown = json(&["game", "show", &save, "--json"]);
    assert_eq!(
        shown["marks"],
        serde_json::json!([{"kind": "possession-german", "cell": "0807"}]),
        "{shown}"
    );
    ok(&["game", "apply", &save, "set", "de-b", "position", "0507"]);
    ok(&["game", "apply", &save, "set", "fr-far", "position", "0101"]);
    let v = json(&["game", "supply", &save, "--json"]);
    assert_eq!(unit(&v, "de-b")["status"], "supplied", "{v}");
    ok(&["game", "apply", &save, "undo", "undo"]);
    assert_eq!(
        json(&["game", "show", &save, "--json"])["marks"],
        shown["marks"]
    );
    ok(&["log", "verify", &save]);
    // Refused, each naming its field and what it accepts.
    let dir = tmp("fr1870-board", "bad-marks");
    std::fs::write(dir.join("board.toml"), map_with_section()).unwrap();
    for (marks, field, accepted) in [
        (
            "[[mark]]\nkind = \"rail-cut\"\ncell = \"0807\"\n",
            "mark[0].kind",
            "possession-german, possession-french",
        ),
        (
            "[[mark]]\nkind = \"possession-french\"\ncell = \"1309\"\n",
            "mark[0].cell",
            "a cell of the map, 0101-1208",
        ),
        (
            "[[mark]]\nkind = \"possession-french\"\ncell = \"off\"\n",
            "mark[0].cell",
            "a cell's label",
        ),
        (
            "[[mark]]\nkind = \"possession-french\"\ncell = \"0807\"\n\n\
             [[mark]]\nkind = \"possession-french\"\ncell = \"0807\"\n",
            "mark[1].cell",
            "each marker once",
        ),
    ] {
        let mut t = fr1870_header("fr1870-board", "Board", "map = \"board.toml\"\n");
        t.push_str(marks);
        t.push_str(&card("fr-a", "french", "infantry", 2, "0203", ""));
        let f = dir.join("bad.toml");
        std::fs::write(&f, &t).unwrap();
        // The line of the field refused: the first kind, or the last cell.
        let key = if field.ends_with("kind") {
            "kind"
        } else {
            "cell"
        };
        let lines: Vec<usize> = (t.lines().enumerate())
            .filter(|(_, l)| l.starts_with(key))
            .map(|(i, _)| i + 1)
            .collect();
        let line = if key == "kind" {
            lines[0]
        } else {
            lines[lines.len() - 1]
        };
        let err = super::common::refused(&[
            "game",
            "new",
            "--scenario",
            &f.display().to_string(),
            "--out",
            &dir.join("g.json").display().to_string(),
        ]);
        assert!(
            err.contains(&format!("bad.toml:{line}:"))
                && err.contains(field)
                && err.contains(accepted),
            "{marks}: {err}"
        );
    }
}
