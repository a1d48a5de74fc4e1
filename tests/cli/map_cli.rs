//! `kepi map check|show|cell` (issue 41, docs/MAPS.md) with the real binary: kepi's own example
//! maps from a clone (`maps/`) and by name, a malformed map refused with exit 2 naming the file,
//! line and field, and the JSON keys `show` and `cell` answer with.

use std::path::Path;

use super::common::{caught, json, ok, run, tmp};

/// kepi's example board in the clone.
fn example(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("maps")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn check_passes_kepis_own_maps_with_a_one_line_summary() {
    for f in ["example-hex.toml", "example-1870.toml", "example-pw.toml"] {
        let out = ok(&["map", "check", &example(f)]);
        assert_eq!(out.lines().count(), 1, "{out}");
        assert!(out.contains(": ok: "), "{out}");
    }
    let out = ok(&["map", "check", "example-hex"]);
    assert!(
        out.contains("<built-in example-hex>") && out.contains("120 cells"),
        "{out}"
    );
}

#[test]
fn check_refuses_a_malformed_map_naming_file_line_and_field() {
    let dir = tmp("map-cli", "malformed");
    let bad = dir.join("bad.toml");
    let text = std::fs::read_to_string(example("example-hex.toml"))
        .unwrap()
        .replace("rough = [", "forest = [");
    std::fs::write(&bad, &text).unwrap();
    let line = text
        .lines()
        .position(|l| l.starts_with("forest = ["))
        .unwrap()
        + 1;
    let err = caught(
        &["map", "check", bad.to_str().unwrap()],
        2,
        &[
            &format!("bad.toml:{line}:"),
            "field `cells.forest`",
            "unknown terrain `forest`",
            "clear, rough",
        ],
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    // Off the grid, and a key the format does not have.
    std::fs::write(
        &bad,
        text.replace("forest = [\"0203-0305\"", "rough = [\"1311\""),
    )
    .unwrap();
    caught(
        &["map", "check", bad.to_str().unwrap()],
        2,
        &["off the map", "cells.rough[0]", "0101 to 1210"],
    );
    std::fs::write(
        &bad,
        text.replace("[[place]]\n", "[[place]]\npopulation = 3\n"),
    )
    .unwrap();
    caught(
        &["map", "check", bad.to_str().unwrap()],
        2,
        &["population", "bad.toml:"],
    );
    // Not a file kepi reads, and no such map.
    caught(
        &["map", "check", dir.to_str().unwrap()],
        2,
        &["map-cli-malformed"],
    );
    caught(&["map", "show", "no-such-map"], 2, &["example-hex"]);
}

#[test]
fn show_json_gives_the_whole_map() {
    let v = json(&["map", "show", &example("example-hex.toml"), "--json"]);
    for key in [
        "file",
        "name",
        "note",
        "rules",
        "rules_title",
        "layout",
        "first",
        "last",
        "columns",
        "rows",
        "cells",
        "provenance",
        "terrain_table",
        "default_terrain",
        "terrain",
        "countries",
        "no_country",
        "hexsides",
        "places",
        "edges",
        "victory",
    ] {
        assert!(v.get(key).is_some(), "show --json has `{key}`: {v}");
    }
    assert_eq!(v["rules"], "spi");
    assert_eq!(
        (v["first"].as_str(), v["last"].as_str()),
        (Some("0101"), Some("1210"))
    );
    assert_eq!(v["cells"], 120);
    assert_eq!(v["provenance"]["source"], "house");
    assert_eq!(v["provenance"]["drawn_by"], "kepi");
    assert_eq!(v["terrain_table"]["title"], "Terrain Effects Chart");
    assert_eq!(v["terrain_table"]["checked"], true);
    let rough = &v["terrain_table"]["entries"][1];
    assert_eq!(rough["name"], "rough");
    assert_eq!(rough["movement"]["provenance"], "seed");
    assert_eq!(rough["rule"], "SPI-M1");
    assert_eq!(v["terrain"][1]["terrain"], "rough");
    assert_eq!(v["terrain"][1]["cells"], 13);
    let rail = v["hexsides"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["feature"] == "rail")
        .unwrap();
    assert_eq!(rail["section"], "Saint-Aubin - Vieuxbourg");
    assert_eq!(rail["sides"][0], "0105/0205");
    let link = v["edges"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["role"] == "rail-link")
        .unwrap();
    assert_eq!(link["distance"], 6);
    assert_eq!(v["victory"][0]["per"], "column");
    assert_eq!(v["victory"][0]["values"]["03"], 40);
    let text = ok(&["map", "show", &example("example-hex.toml")]);
    for want in [
        "Terrain Effects Chart",
        "rough",
        "Vieuxbourg",
        "rail-link",
        "[house]",
    ] {
        assert!(text.contains(want), "show has {want}:\n{text}");
    }
}

#[test]
fn cell_json_answers_one_cell() {
    let v = json(&[
        "map",
        "cell",
        &example("example-hex.toml"),
        "0605",
        "--json",
    ]);
    for key in [
        "file", "cell", "terrain", "effects", "country", "places", "sides", "edges", "victory",
    ] {
        assert!(v.get(key).is_some(), "cell --json has `{key}`: {v}");
    }
    assert_eq!(v["cell"], "0605");
    assert_eq!(v["terrain"], "clear");
    assert_eq!(
        v["effects"]["movement"]["text"],
        "one Movement Point per hex"
    );
    assert_eq!(v["country"], "france");
    assert_eq!(v["places"][0]["name"], "Vieuxbourg");
    assert_eq!(v["places"][0]["kinds"][1], "fortress");
    let sides = v["sides"].as_array().unwrap();
    assert_eq!(sides.len(), 6);
    let se = sides.iter().find(|s| s["direction"] == "se").unwrap();
    assert_eq!(se["neighbour"], "0705");
    assert_eq!(se["neighbour_on_map"], true);
    let feats: Vec<&str> = se["features"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["feature"].as_str().unwrap())
        .collect();
    assert!(feats.contains(&"river") && feats.contains(&"bridge") && feats.contains(&"rail"));
    let bridge = se["features"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["feature"] == "bridge")
        .unwrap();
    assert!(bridge["effects"].is_null(), "SPI's chart prints no bridge");
    // An edge role and a victory value.
    let w = json(&["map", "cell", "example-hex", "0105", "--json"]);
    assert!(
        w["edges"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["role"] == "rail-link")
    );
    assert_eq!(w["victory"][0]["value"], 60);
    // 1870's club table: effects unknown, never invented (FR-M1).
    let f = json(&["map", "cell", "example-1870", "0302", "--json"]);
    assert_eq!(f["terrain"], "forest");
    assert_eq!(f["effects"]["movement"]["provenance"], "unknown");
    assert_eq!(f["effects"]["declared"], "map");
    let text = ok(&["map", "cell", "example-hex", "0605"]);
    assert!(
        text.contains("river") && text.contains("Vieuxbourg"),
        "{text}"
    );
}

#[test]
fn cell_refuses_a_cell_off_the_map_or_badly_written() {
    caught(
        &["map", "cell", "example-hex", "1311"],
        2,
        &["off the map", "1210"],
    );
    caught(
        &["map", "cell", "example-hex", "x"],
        2,
        &["CELL", "four digits"],
    );
}

#[test]
fn help_documents_the_map_commands() {
    let (code, out, _) = run(&["help"]);
    assert_eq!(code, 0);
    assert!(out.contains("map") && out.contains("MAPS.md"), "{out}");
    let (code, out, _) = run(&["help", "map"]);
    assert_eq!(code, 0);
    for sub in ["check", "show", "cell"] {
        assert!(out.contains(sub), "kepi help map lists {sub}:\n{out}");
    }
}

/// A PW scenario beside its own map file, as a club writes one (issue 41).
fn club_scenario(dir: &Path, map_line: &str) -> String {
    let pw = Path::new(env!("CARGO_MANIFEST_DIR")).join("unit-cards/scenarios/pw-skirmish.toml");
    let text: String = std::fs::read_to_string(pw)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("map = "))
        .map(|l| format!("{l}\n"))
        .collect();
    let text = text.replacen("\n[[unit]]", &format!("\n{map_line}\n\n[[unit]]"), 1);
    let file = dir.join("club.toml");
    std::fs::write(&file, text).unwrap();
    file.display().to_string()
}

#[test]
fn a_game_carries_the_map_its_scenario_names_and_names_a_changed_file() {
    let dir = tmp("map-cli", "carried");
    std::fs::create_dir_all(dir.join("maps")).unwrap();
    let map_file = dir.join("maps/board.toml");
    std::fs::copy(example("example-pw.toml"), &map_file).unwrap();
    let scenario = club_scenario(&dir, "map = \"maps/board.toml\"");
    let save = dir.join("g.json");
    let save = save.to_str().unwrap();
    let made = json(&[
        "game",
        "new",
        "--scenario",
        &scenario,
        "--out",
        save,
        "--seed",
        "1",
        "--json",
    ]);
    assert!(
        made["map"].as_str().unwrap().ends_with("maps/board.toml"),
        "{made}"
    );
    let shown = json(&["game", "show", save, "--json"]);
    let map = &shown["map"];
    assert_eq!(map["reads"], true, "{shown}");
    assert_eq!(map["sha256"].as_str().unwrap().len(), 64);
    assert!(map["name"].as_str().unwrap().contains("kepi"), "{map}");
    // The save holds the text: the game opens the same with the file gone...
    let sha = map["sha256"].clone();
    std::fs::rename(&map_file, dir.join("maps/elsewhere.toml")).unwrap();
    let (code, again, err) = super::common::run_json(&["game", "show", save, "--json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(again["map"]["sha256"], sha);
    assert!(!err.contains("warning"), "{err}");
    // ...and a file changed since is named, never used.
    let text = std::fs::read_to_string(dir.join("maps/elsewhere.toml")).unwrap();
    std::fs::write(&map_file, format!("{text}\n# redrawn\n")).unwrap();
    let (code, again, err) = super::common::run_json(&["game", "show", save, "--json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(again["map"]["sha256"], sha);
    assert!(
        err.contains("maps/board.toml has changed since this game began")
            && err.contains("the game keeps the map it began with"),
        "{err}"
    );
    // The log still verifies: the map is in its first entry, under the hash chain.
    ok(&["log", "verify", save]);
}

#[test]
fn game_new_map_sets_the_map_and_refuses_one_that_does_not_fit() {
    let dir = tmp("map-cli", "override");
    let save = dir.join("g.json");
    let save = save.to_str().unwrap();
    let made = json(&[
        "game",
        "new",
        "--scenario",
        "pw-skirmish",
        "--out",
        save,
        "--seed",
        "1",
        "--map",
        "example-pw",
        "--json",
    ]);
    assert_eq!(made["map"], "<built-in example-pw>", "{made}");
    // A map drawn for another rule set, a map the units stand off, and no map at all: exit 2,
    // naming the option, and no save is made.
    let other = dir.join("h.json");
    let other = other.to_str().unwrap();
    let args = |map: &'static str| {
        vec![
            "game",
            "new",
            "--scenario",
            "pw-skirmish",
            "--out",
            other,
            "--seed",
            "1",
            "--map",
            map,
        ]
    };
    caught(
        &args("example-hex"),
        2,
        &["--map:", "drawn for spi", "this scenario is pw"],
    );
    caught(
        &args("nowhere.toml"),
        2,
        &["--map:", "nowhere.toml", "no such file", "example-pw"],
    );
    assert!(!Path::new(other).exists());
    let small = dir.join("small.toml");
    std::fs::write(
        &small,
        "[map]\nname = \"small\"\nrules = \"pw\"\nfirst = \"0101\"\nlast = \"0303\"\n\
         default_terrain = \"clear\"\n\n[provenance]\nsource = \"house\"\ndrawn_by = \"a test\"\n\
         from = \"nothing\"\n",
    )
    .unwrap();
    let small = small.to_str().unwrap();
    let (code, _, err) = run(&[
        "game",
        "new",
        "--scenario",
        "pw-skirmish",
        "--out",
        other,
        "--seed",
        "1",
        "--map",
        small,
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--map:") && err.contains("is off the map"),
        "{err}"
    );
}

#[test]
fn a_scenario_naming_a_map_that_is_not_there_is_refused_at_its_line() {
    let dir = tmp("map-cli", "scenario-refused");
    let scenario = club_scenario(&dir, "map = \"maps/missing.toml\"");
    let line = std::fs::read_to_string(&scenario)
        .unwrap()
        .lines()
        .position(|l| l.starts_with("map = "))
        .unwrap()
        + 1;
    caught(
        &["cards", "check", &scenario],
        2,
        &[&format!("club.toml:{line}:"), "field `map`", "example-pw"],
    );
    // A shared scenario cannot make kepi read a file outside its folder.
    let outside = dir.join("outside.toml");
    std::fs::copy(example("example-pw.toml"), &outside).unwrap();
    std::fs::create_dir_all(dir.join("club")).unwrap();
    for (map, needle) in [
        ("../outside.toml", "leaves the scenario's folder"),
        ("/etc/hostname", "leaves the scenario's folder"),
    ] {
        let text = std::fs::read_to_string(&scenario)
            .unwrap()
            .replace("map = \"maps/missing.toml\"", &format!("map = \"{map}\""));
        let inner = dir.join("club/club.toml");
        std::fs::write(&inner, text).unwrap();
        caught(
            &["cards", "check", inner.to_str().unwrap()],
            2,
            &["field `map`", needle],
        );
    }
}

/// `kepi game reach` on the Portable Wargame skirmish, which carries kepi's example table:
/// open ground is one hex of a move (PW-G1); cover and the brook have no cost in the text, so
/// the cells behind them are reported unknown, never counted.
#[test]
fn reach_on_the_pw_table_counts_hexes_and_names_what_has_no_cost() {
    let dir = tmp("map-cli", "reach-pw");
    let save = dir.join("g.json");
    let save = save.to_str().unwrap();
    ok(&[
        "game",
        "new",
        "--scenario",
        "pw-skirmish",
        "--out",
        save,
        "--seed",
        "1",
    ]);
    let v = json(&["game", "reach", save, "de-inf-3", "--json"]);
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
    ] {
        assert!(v.get(key).is_some(), "reach --json has `{key}`: {v}");
    }
    assert_eq!(
        (&v["unit"], &v["from"], &v["allowance"]),
        (&"de-inf-3".into(), &"0401".into(), &2.into())
    );
    let cell = |label: &str| {
        v["cells"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["cell"] == label)
            .cloned()
    };
    // By hand on maps/example-pw.toml: 0401's neighbours on the table are 0301, 0402 and
    // 0501 (one hex each); 0502 and 0302 are two; 0403 lies across the brook.
    let c = cell("0402").unwrap();
    assert_eq!(
        (&c["cost"], &c["steps"], &c["via"]),
        (&1.into(), &1.into(), &"0401".into())
    );
    assert_eq!(cell("0502").unwrap()["cost"], 2);
    assert_eq!(cell("0302").unwrap()["cost"], 2);
    assert_eq!(v["cells"].as_array().unwrap().len(), 8, "{v}");
    assert!(
        cell("0403").is_none(),
        "across the brook: no cost in the text"
    );
    let unknown = v["unknown"].as_array().unwrap();
    let brook = unknown.iter().find(|u| u["cell"] == "0403").unwrap();
    assert_eq!(brook["lacking"][0], "river");
    assert_eq!(
        (&brook["spent"], &brook["via"]),
        (&1.into(), &"0402".into())
    );
    let wood = unknown.iter().find(|u| u["cell"] == "0201").unwrap();
    assert_eq!(wood["lacking"][0], "cover");
    assert_eq!(v["lacking"], serde_json::json!(["cover", "river"]));
    // The village's French defenders are not entered.
    assert_eq!(v["enemy"], serde_json::json!(["0503"]));
    assert_eq!(v["rules"], serde_json::json!(["PW-G1"]));
    assert!(
        v["not_applied"].as_array().unwrap().contains(
            &"zones of control: not applied (the rule set declares no movement rules)".into()
        ),
        "{v}"
    );
    // The text says the same, and --allowance searches with another number.
    let text = ok(&["game", "reach", save, "de-inf-3"]);
    for want in [
        "de-inf-3 at 0401, allowance 2 MP: 8 cells",
        "0403  after 1 MP from 0402: no cost for river",
        "held by the enemy (not entered): 0503",
        "zones of control: not applied (the rule set declares no movement rules)",
    ] {
        assert!(text.contains(want), "reach has {want:?}:\n{text}");
    }
    let one = json(&[
        "game",
        "reach",
        save,
        "3rd Prussian Infantry (Grenadiers)",
        "--allowance",
        "1",
        "--json",
    ]);
    assert_eq!(one["allowance"], 1);
    assert_eq!(one["cells"].as_array().unwrap().len(), 3, "{one}");
}

/// `kepi game reach` on an SPI game with a club's small map where the chart gives costs
/// (SPI-M1: clear 1 MP, a river hexside +1, rough +2 for the first such hex of the phase) and
/// SPI's zones of control apply (SPI-Z1), each cost checked against a hand count.
#[test]
fn reach_on_an_spi_map_gives_the_charts_costs() {
    let dir = tmp("map-cli", "reach-spi");
    let map = dir.join("small.toml");
    std::fs::write(
        &map,
        "[map]\nname = \"small\"\nrules = \"spi\"\nfirst = \"0101\"\nlast = \"0505\"\n\
         default_terrain = \"clear\"\n\n[provenance]\nsource = \"club\"\ndrawn_by = \"a test\"\n\
         from = \"nothing\"\n\n[cells]\nrough = [\"0304\"]\n\n\
         [[river]]\nsides = [\"0303:n\", \"0303:ne\"]\n",
    )
    .unwrap();
    let save = dir.join("g.json");
    let save = save.to_str().unwrap();
    ok(&[
        "game",
        "new",
        "--scenario",
        "spi-1870",
        "--out",
        save,
        "--seed",
        "1",
        "--map",
        map.to_str().unwrap(),
    ]);
    // Placed by hand (SPI-I1 places by town): a German 5 at 0303, the French at 0203 beside it.
    ok(&[
        "game",
        "apply",
        save,
        "set",
        "de-1-5-1",
        "position",
        "0303",
        "set",
        "fr-metz-5",
        "position",
        "0203",
    ]);
    let v = json(&["game", "reach", save, "de-1-5-1", "--json"]);
    assert_eq!(v["allowance"], 8, "the card's movement (SPI-M1: German 8)");
    assert_eq!(v["from"], "0303");
    let got = |label: &str| -> Option<(u64, u64, String)> {
        v["cells"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["cell"] == label)
            .map(|c| {
                (
                    c["cost"].as_u64().unwrap(),
                    c["steps"].as_u64().unwrap(),
                    c["via"].as_str().unwrap().to_string(),
                )
            })
    };
    // Hand count (odd-q: 0303's neighbours are 0302 n, 0403 ne, 0404 se, 0304 s, 0204 sw,
    // 0203 nw). The river is on its n and ne sides. SPI's movement rules apply (issue 42): the
    // French at 0203 control 0202, 0302, 0303, 0204, 0102 and 0103 (SPI-Z1), so the German
    // starts in a zone of control: leaving costs 1 more, and no move goes straight to 0302 or
    // 0204, controlled too; entering one costs 3 more and stops there.
    assert_eq!(
        got("0404"),
        Some((2, 1, "0303".into())),
        "clear 1 + leave 1"
    );
    assert_eq!(
        got("0403"),
        Some((3, 1, "0303".into())),
        "clear 1 + river 1 + leave 1"
    );
    // Rough: 1 + 2 for the first rough hex of the phase + leave 1.
    assert_eq!(got("0304"), Some((4, 1, "0303".into())));
    // 0302 is controlled: round by 0403, 3 + 1 + 3 to enter.
    assert_eq!(got("0302"), Some((7, 2, "0403".into())));
    assert_eq!(got("0301"), Some((5, 3, "0402".into())));
    // 0101: round the controlled cells by 0402, 0301 and 0201.
    assert_eq!(got("0101"), Some((7, 5, "0201".into())));
    // 0305: round the rough cell by 0404 and 0405.
    assert_eq!(got("0305"), Some((4, 3, "0405".into())));
    assert_eq!(got("0203"), None);
    assert_ne!(got("0204").map(|c| c.2), Some("0303".into()), "rigid");
    assert!(v["unknown"].as_array().unwrap().is_empty(), "{v}");
    assert_eq!(v["from_zoc"], true);
    assert_eq!(
        v["zoc"],
        serde_json::json!(["0102", "0103", "0202", "0204", "0302", "0303"])
    );
    assert_eq!(v["enemy"], serde_json::json!(["0203"]));
    assert_eq!(v["rules"], serde_json::json!(["SPI-M1", "SPI-Z1"]));
    // A unit still off the map, a unit kepi does not know: exit 2.
    caught(
        &["game", "reach", save, "fr-chalons-8"],
        2,
        &["fr-chalons-8 is not on the map", "0101-0505"],
    );
    caught(&["game", "reach", save, "nobody"], 2, &["nobody"]);
    // A game without a map says how to give it one.
    let bare = dir.join("bare.json");
    let bare = bare.to_str().unwrap();
    ok(&[
        "game",
        "new",
        "--scenario",
        "spi-1870",
        "--out",
        bare,
        "--seed",
        "1",
    ]);
    caught(
        &["game", "reach", bare, "de-1-5-1"],
        2,
        &["this game has no map: kepi game new --map FILE, docs/MAPS.md"],
    );
    let (code, out, _) = run(&["game", "--help"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("reach"),
        "kepi game --help lists reach:\n{out}"
    );
}

/// A map named relative to the folder `game new` runs in is carried with its whole path, so the
/// save, opened later from another folder, still finds the file (the changed-file check, the
/// picture beside it).
#[test]
fn a_map_named_relative_to_the_folder_is_carried_with_its_whole_path() {
    let dir = tmp("map-cli", "relative");
    std::fs::copy(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/example-hex.toml"),
        dir.join("board.toml"),
    )
    .unwrap();
    let save = dir.join("g.json");
    let o = super::common::kepi_in(
        &dir,
        &[
            "game",
            "new",
            "--scenario",
            "spi-1870",
            "--out",
            "g.json",
            "--seed",
            "1",
            "--map",
            "board.toml",
        ],
    );
    assert!(o.status.success(), "{o:?}");
    let shown = json(&["game", "show", save.to_str().unwrap(), "--json"]);
    let file = shown["map"]["file"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(std::path::Path::new(&file).is_absolute(), "{shown}");
    assert!(file.ends_with("board.toml"), "{file}");
    // Changed on disk: noticed from here, another folder than the one it was named in.
    let mut text = std::fs::read_to_string(dir.join("board.toml")).unwrap();
    text.push_str("\n# edited\n");
    std::fs::write(dir.join("board.toml"), text).unwrap();
    let (_, out, err) = super::common::run(&["game", "show", save.to_str().unwrap()]);
    assert!(
        format!("{out}{err}").contains("has changed since this game began"),
        "{out}\n{err}"
    );
}

/// A scenario named bare on the command line, in the folder kepi runs in ("club.toml"), finds the
/// map beside it: the scenario's folder is the current one (it was the empty path, which no
/// folder check could resolve).
#[test]
fn a_scenario_named_bare_in_the_current_folder_finds_its_map() {
    let dir = tmp("map-cli", "bare-scenario");
    std::fs::create_dir_all(dir.join("maps")).unwrap();
    std::fs::copy(example("example-pw.toml"), dir.join("maps/board.toml")).unwrap();
    club_scenario(&dir, "map = \"maps/board.toml\"");
    let o = super::common::kepi_in(
        &dir,
        &[
            "game",
            "new",
            "--scenario",
            "club.toml",
            "--out",
            "g.json",
            "--seed",
            "1",
        ],
    );
    assert!(o.status.success(), "{o:?}");
    let shown = json(&[
        "game",
        "show",
        dir.join("g.json").to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(shown["map"]["reads"], true, "{shown}");
}
