//! PK-V1, visibility, on the real binary: `kepi resolve pk visibility`'s JSON contract
//! (`visible`, `limit`, `lines`), its refusals naming the flag, and the sight of a fire and a
//! battery's fire: a target not seen is noted before the roll and logged ("umpire went ahead:
//! target not visible: ... (PK-V1: ...)"), never refused, and the log verifies.

use super::common::{apply, caught, log_len, new_game, noted, notes_of, ok, play, run_json, tmp};

use serde_json::Value;

/// `kepi resolve pk visibility WORDS --json`: its outcome.
fn visibility(words: &[&str]) -> Value {
    let mut a = vec!["resolve", "pk", "visibility"];
    a.extend_from_slice(words);
    a.push("--json");
    let (code, v, err) = run_json(&a);
    assert_eq!(code, 0, "{words:?}: {err}");
    assert!(v["dice"].as_array().unwrap().is_empty(), "no dice: {v}");
    v["outcome"].clone()
}

/// PK-V1: "Visibility in clear weather is 60”. It increases 5” per contour for a maximum of
/// 15”." Two contours see 70": a target at 70" is seen, one at 71" is not; 4 contours still 75".
#[test]
fn the_limit_is_exact_and_the_limit_itself_is_seen() {
    let o = visibility(&["--range", "70", "--observer-contours", "2"]);
    assert_eq!(o["visible"], true, "{o}");
    assert_eq!(o["limit"], "70");
    let lines = o["lines"].as_array().unwrap();
    assert!(lines.len() >= 3, "{o}");
    assert!(lines.iter().all(|l| l["rule"] == "PK-V1"), "{o}");
    assert_eq!(lines[0]["provenance"], "seed");
    let o = visibility(&["--range", "71", "--observer-contours", "2"]);
    assert_eq!(o["visible"], false);
    assert_eq!(o["why"][0], "beyond 70\" visibility");
    assert_eq!(
        visibility(&["--range", "1", "--observer-contours", "4"])["limit"],
        "75"
    );
    // A distance reads like --range: 180cm is 70 7/8 inches, past 70.
    let o = visibility(&["--range", "180cm", "--observer-contours", "2"]);
    assert_eq!(o["visible"], false, "{o}");
}

/// PK-V1: "an observer outside light woods can only see 4” into the woods or 2” into heavy
/// woods"; "Otherwise there is 4” of dead space behind it."
#[test]
fn woods_and_dead_ground() {
    let o = visibility(&[
        "--range",
        "20",
        "--target-in",
        "heavy-woods",
        "--target-depth",
        "3",
    ]);
    assert_eq!(o["visible"], false);
    assert!(o["why"][0].as_str().unwrap().contains("2\" in"), "{o}");
    let o = visibility(&[
        "--range",
        "20",
        "--observer-contours",
        "3",
        "--obstacle",
        "hill:2",
        "--behind",
        "4",
    ]);
    assert_eq!(
        (o["visible"].clone(), o["dead_ground"].clone()),
        (false.into(), true.into())
    );
    let o = visibility(&[
        "--range",
        "20",
        "--observer-contours",
        "4",
        "--obstacle",
        "hill:2",
        "--behind",
        "1",
    ]);
    assert_eq!(o["visible"], true, "2 contours above sees over: {o}");
}

/// Bad values exit 2 naming the flag and what it takes.
#[test]
fn bad_sight_values_name_their_flag() {
    let base = ["resolve", "pk", "visibility", "--range", "10"];
    for (extra, needles) in [
        (
            &["--observer-contours", "101"][..],
            &["--observer-contours", "0 to 100"][..],
        ),
        (&["--obstacle", "river"], &["--obstacle", "hill:CONTOURS"]),
        (&["--obstacle", "hill:0"], &["--obstacle", "1 to 100"]),
        (&["--target-in", "swamp"], &["--target-in", "light-woods"]),
        (&["--target-depth=-1"], &["--target-depth"]),
        (&["--behind", "2"], &["--obstacle"]),
    ] {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        caught(&args, 2, needles);
    }
    caught(&["resolve", "pk", "visibility"], 2, &["--range"]);
}

/// PK-V1 on `kepi resolve pk fire` and `artillery`: the sight's lines in the resolution, the
/// verdict among them; no sight, no PK-V1 line.
#[test]
fn fire_and_artillery_carry_the_sight_lines() {
    let fire = |extra: &[&str]| {
        let mut a = vec![
            "resolve",
            "pk",
            "fire",
            "--figures",
            "10",
            "--class",
            "line",
            "--range",
            "12",
            "--d10",
            "5",
            "--dpct",
            "50",
            "--json",
        ];
        a.extend_from_slice(extra);
        let (code, v, err) = run_json(&a);
        assert_eq!(code, 0, "{err}");
        v["modifiers"].as_array().unwrap().clone()
    };
    let pk_v1 = |m: &[Value]| {
        m.iter()
            .filter(|l| l["rule"] == "PK-V1")
            .map(|l| l["label"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert!(pk_v1(&fire(&[])).is_empty());
    let lines = pk_v1(&fire(&["--observer-in", "heavy-woods"]));
    assert!(
        lines
            .last()
            .unwrap()
            .starts_with("target not visible: beyond 10\" visibility"),
        "{lines:?}"
    );
    let lines = pk_v1(&fire(&["--sight"]));
    assert_eq!(lines.last().unwrap(), "target visible", "{lines:?}");
    let (code, v, err) = run_json(&[
        "resolve",
        "pk",
        "artillery",
        "--gun",
        "blr",
        "--points",
        "4",
        "--class",
        "line",
        "--range",
        "30",
        "--observer-in",
        "light-woods",
        "--d10",
        "5",
        "--dpct",
        "50",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        v["modifiers"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["label"] == "target not visible: beyond 20\" visibility"),
        "{v}"
    );
}

/// `kepi game apply`: a fire or a battery's fire at a target not seen is noted and logged (the
/// umpire went ahead), made all the same, and the log verifies; a fire given no sight logs no
/// `sight` in its input, as before.
#[test]
fn an_unseen_target_is_noted_logged_and_verifies() {
    let save = new_game(&tmp("visibility", "apply"), "mars-la-tour", "3");
    let n = log_len(&save);
    let v = apply(
        &save,
        &[
            "fire",
            "12th-grenadiers-1",
            "55e-ligne-1",
            "--range",
            "12",
            "--observer-in",
            "heavy-woods",
        ],
    );
    let notes = notes_of(&v);
    assert!(
        noted(
            &notes,
            "target not visible: beyond 10\" visibility (PK-V1: "
        ),
        "{notes:?}"
    );
    assert!(log_len(&save) > n, "made all the same");
    play(&save, &["flag", "far3-light-1", "limbered", "off"]);
    let v = apply(
        &save,
        &[
            "artillery",
            "far3-light-1",
            "55e-ligne-1",
            "--range",
            "10",
            "--observer-contours",
            "3",
            "--obstacle",
            "building:2",
            "--behind",
            "3",
        ],
    );
    let notes = notes_of(&v);
    assert!(noted(&notes, "dead ground behind building:2"), "{notes:?}");
    assert!(noted(&notes, "take no casualties"), "{notes:?}");
    apply(&save, &["fire", "52nd-infantry-1", "8e-ligne-1"]);
    let log: Value = serde_json::from_str(&ok(&["log", "show", &save, "--json"])).unwrap();
    let entries = log.as_array().unwrap();
    let logged = |i: usize| serde_json::to_string(&entries[entries.len() - i]).unwrap();
    assert!(!logged(1).contains("\"sight\""), "{}", logged(1));
    assert!(logged(1).contains("52nd-infantry-1"), "{}", logged(1));
    assert!(logged(2).contains("umpire went ahead: target not visible"));
    let out = ok(&["log", "verify", &save]);
    assert!(out.contains("log OK"), "{out}");
}

/// A club's own `[visibility]` (`--tables DIR`) gives one limit before the roll and in it: the
/// note said before the fire and logged with it reads the game's table, as the resolution's
/// PK-V1 lines do. At 12" from heavy woods the text's 10" does not see; the club's 16" does, so
/// the fire is not noted, and its lines say 16.
#[test]
fn a_clubs_visibility_table_gives_the_same_limit_to_the_note_and_the_lines() {
    let dir = tmp("visibility", "club-table");
    let tables = dir.join("tables");
    std::fs::create_dir_all(&tables).unwrap();
    let pk = include_str!("../../tables/pk.toml");
    let club = pk.replace(
        "heavy_woods = { value = 10, provenance = \"seed\"",
        "heavy_woods = { value = 16, provenance = \"house\"",
    );
    assert_ne!(pk, club, "the heavy woods line was found");
    std::fs::write(tables.join("pk.toml"), club).unwrap();
    let t = tables.display().to_string();
    let save = new_game(&dir, "mars-la-tour", "3");
    let fire = [
        "fire",
        "12th-grenadiers-1",
        "55e-ligne-1",
        "--range",
        "12",
        "--observer-in",
        "heavy-woods",
    ];
    let fire_notes = |save: &str, tables: &[&str]| {
        let mut args = tables.to_vec();
        args.extend(["game", "apply", save, "--json"]);
        args.extend(fire);
        let out = ok(&args);
        let v: Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
        notes_of(&v)
    };
    // The text's table: beyond 10", noted.
    let text = new_game(&tmp("visibility", "text-table"), "mars-la-tour", "3");
    let notes = fire_notes(&text, &[]);
    assert!(noted(&notes, "beyond 10\" visibility"), "{notes:?}");
    // In play with the club's table: no note, and the lines say 16.
    let notes = fire_notes(&save, &["--tables", &t]);
    assert!(
        !notes.iter().any(|n| n.contains("not visible")),
        "{notes:?}"
    );
    let log: Value = serde_json::from_str(&ok(&["log", "show", &save, "--json"])).unwrap();
    let last = log.as_array().unwrap().last().unwrap();
    let limit = last["action"]["resolution"]["modifiers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["label"] == "visibility inside heavy woods (inches)")
        .map(|m| {
            (
                m["value"].clone(),
                m["rule"].clone(),
                m["provenance"].clone(),
            )
        });
    assert_eq!(
        limit,
        Some(("16".into(), "PK-V1".into(), "house".into())),
        "{last}"
    );
    assert!(!last.to_string().contains("not visible"), "{last}");
    let out = ok(&["--tables", &t, "log", "verify", &save]);
    assert!(out.contains("log OK"), "{out}");
}
