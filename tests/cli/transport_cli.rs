//! Issue 28: 1870's railways (FR-G1, the text's G2-G5) and the sea (FR-K1, K1-K5) in play,
//! through the real binary: `rail` and `sea` as verbs of `kepi game apply`, each moving its unit,
//! logging what the text says against it ("umpire went ahead: ...") and refusing only the
//! impossible. The railway map, the sections' capacities, the ports' cells and the arrowed sea
//! routes are on the printed map, not in the seed: the umpire types what he reads off it.

use std::path::Path;

use super::common::{apply_json as apply, kepi, log_len, notes_of, ok};

fn position(save: &str, id: &str) -> String {
    let v: serde_json::Value =
        serde_json::from_str(&ok(&["game", "show", save, "--json"])).unwrap();
    v["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["id"] == id)
        .map(|u| u["position"].as_str().unwrap_or_default().to_string())
        .unwrap()
}

/// The checklist's row of the units at sea (FR-K1), in the phase being played.
fn at_sea_row(save: &str) -> Option<serde_json::Value> {
    super::common::checklist_items(save)
        .into_iter()
        .find(|i| i["rule"] == "FR-K1")
}

/// Six French infantry units at 2034..., one German at 2041 (its zone covers 2040), and a German
/// fortress that never moves.
fn game(dir: &Path) -> String {
    let mut t = String::from(
        "name = \"fr1870-transport\"\nsystem = \"fr1870\"\ntitle = \"Transport\"\n\
         date = \"1870-08-01\"\nfirst_cell = 1\nsides = [\"french\", \"german\"]\n\n",
    );
    let mut unit = |id: &str, side: &str, arm: &str, hex: &str| {
        let nation = if side == "french" {
            "France"
        } else {
            "Prussia"
        };
        t.push_str(&format!(
            "[[unit]]\nid = \"{id}\"\nname = \"{id}\"\nside = \"{side}\"\nnation = \"{nation}\"\n\
             arm = \"{arm}\"\nstrength = 3\nhex = \"{hex}\"\n\n"
        ));
    };
    for (i, hex) in ["2034", "1020", "1520", "1220", "1320", "0620"]
        .iter()
        .enumerate()
    {
        unit(&format!("fr-{}", i + 1), "french", "infantry", hex);
    }
    unit("de-1", "german", "infantry", "2041");
    unit("de-fort", "german", "fortress", "3010");
    let f = dir.join("transport.toml");
    std::fs::write(&f, t).unwrap();
    super::common::new_game(dir, &f.display().to_string(), "5")
}

#[test]
fn a_railway_transport_moves_the_unit_and_notes_what_the_text_forbids() {
    let dir = super::common::tmp("transport", "rail");
    let save = game(&dir);
    // G5: "a railway movement may reach at most 12 cells: 1 before embarking, 10 on the line and
    // 1 on disembarking": 11 cells, nothing to say.
    let line = &apply(&save, &["rail", "fr-1", "--to", "2045"])[0];
    assert!(notes_of(line).is_empty(), "{line}");
    assert_eq!(position(&save, "fr-1"), "2045");
    let log: serde_json::Value =
        serde_json::from_str(&ok(&["log", "show", &save, "--json"])).unwrap();
    let last = log.as_array().unwrap().last().unwrap();
    assert_eq!(last["action"]["resolution"]["action"], "rail");
    assert!(
        last["rules"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r == "FR-G1"),
        "{last}"
    );
    // "a unit may make only one railway transport per turn": noted, and done.
    let line = &apply(&save, &["rail", "fr-1", "--to", "2046"])[0];
    let said = notes_of(line);
    assert!(
        said.iter().any(|n| n.starts_with("umpire went ahead")
            && n.contains("only one railway transport per turn")),
        "{said:?}"
    );
    assert_eq!(position(&save, "fr-1"), "2046");
    // 13 cells: beyond the 12.
    let line = &apply(&save, &["rail", "fr-2", "--to", "1033"])[0];
    assert!(
        notes_of(line)
            .iter()
            .any(|n| n.contains("at most 12 cells")),
        "{line}"
    );
    // Into the German unit's zone (2041 controls 2040) with no friendly unit there (G2, G3).
    let line = &apply(&save, &["rail", "fr-3", "--to", "2040"])[0];
    assert!(
        notes_of(line)
            .iter()
            .any(|n| n.contains("controlled by the enemy")),
        "{line}"
    );
}

#[test]
fn a_sections_capacity_is_the_umpires_reading_of_the_map() {
    // G5: "this capacity is indicated, for each section, at the junctions, as a number of
    // transportable units (3 = 3 counters transportable by this railway)".
    let dir = super::common::tmp("transport", "capacity");
    let save = game(&dir);
    let words = |u: &'static str, to: &'static str| {
        vec![
            "rail",
            u,
            "--to",
            to,
            "--section",
            "Paris-Orléans",
            "--capacity",
            "2",
        ]
    };
    assert!(notes_of(&apply(&save, &words("fr-4", "1225"))[0]).is_empty());
    assert!(notes_of(&apply(&save, &words("fr-5", "1325"))[0]).is_empty());
    let third = &apply(&save, &words("fr-6", "0625"))[0];
    assert!(
        notes_of(third)
            .iter()
            .any(|n| n.contains("Paris-Orléans carries 2 unit(s) and 2 went on it")),
        "{third}"
    );
}

#[test]
fn what_the_game_counts_is_refused_as_an_option_and_a_fortress_never_moves() {
    let dir = super::common::tmp("transport", "refused");
    let save = game(&dir);
    let before = log_len(&save);
    for words in [
        &["rail", "fr-1", "--to", "2040", "--earlier", "0"][..],
        &["rail", "fr-1"][..],
        &["rail", "de-fort", "--to", "3012"][..],
        &["rail", "fr-1", "--to", "a field"][..],
        &["sea", "fr-1", "--to", "counter3"][..],
        &["sea", "fr-1", "--to", "port"][..],
    ] {
        let mut args = vec!["game", "apply", &save];
        args.extend_from_slice(words);
        let out = kepi(&args);
        assert_eq!(out.status.code(), Some(2), "{words:?}: {out:?}");
        assert!(!out.stderr.is_empty(), "{words:?} says why");
    }
    assert_eq!(log_len(&save), before, "nothing logged");
}

#[test]
fn le_havre_to_counter_one_and_back_by_the_western_edge_the_next_turn() {
    // K2: "in turn 8 a unit passes from Le Havre to counter No. 1, and in turn 9 it will re-enter
    // play by the western edge".
    let dir = super::common::tmp("transport", "sea");
    let save = game(&dir);
    let line = &apply(
        &save,
        &["sea", "fr-6", "--to", "counter1", "--from-port", "le havre"],
    )[0];
    assert!(notes_of(line).is_empty(), "{line}");
    assert_eq!(position(&save, "fr-6"), "off");
    // At sea: the movement phase's checklist lists it, to land or to go on.
    let row = at_sea_row(&save).unwrap_or_else(|| panic!("no FR-K1 row"));
    assert_eq!(row["units"], serde_json::json!(["fr-6"]), "{row}");
    assert_eq!(row["form"], "sea", "{row}");
    // The same movement phase: one passage a phase.
    let line = &apply(&save, &["sea", "fr-6", "--to", "west", "--at", "0420"])[0];
    assert!(
        notes_of(line)
            .iter()
            .any(|n| n.contains("carried out in 1 movement phase")),
        "{line}"
    );
    assert_eq!(position(&save, "fr-6"), "0420");
    ok(&["game", "apply", &save, "undo"]);
    assert_eq!(position(&save, "fr-6"), "off", "undone: at sea again");
    // The next turn's French movement phase: back by the western edge, nothing to say.
    apply(
        &save,
        &[
            "next-phase",
            "next-phase",
            "next-phase",
            "next-phase",
            "next-phase",
        ],
    );
    assert!(at_sea_row(&save).is_some(), "still at sea the next turn");
    let line = &apply(&save, &["sea", "fr-6", "--to", "west", "--at", "0420"])[0];
    assert!(notes_of(line).is_empty(), "{line}");
    assert_eq!(position(&save, "fr-6"), "0420");
    assert!(at_sea_row(&save).is_none(), "landed: no longer at sea");
    // What the log records of the landing: back by the western edge (K5's line), and never a
    // port it did not sail from.
    let log: serde_json::Value =
        serde_json::from_str(&ok(&["log", "show", &save, "--json"])).unwrap();
    let r = &log.as_array().unwrap().last().unwrap()["action"]["resolution"];
    assert_eq!(r["outcome"]["to"], "west", "{r}");
    assert_eq!(r["outcome"]["at"], "0420", "{r}");
    assert_ne!(r["outcome"]["from"], "port", "{r}");
    assert!(
        r["modifiers"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["label"].as_str().unwrap().contains("may move one cell")),
        "{r}"
    );
}

#[test]
fn only_the_french_sail_and_four_at_most_are_in_transit() {
    // K2: "only French units may make a sea voyage"; "the number of units in transit
    // simultaneously may never exceed 4 for all the counters together".
    let dir = super::common::tmp("transport", "transit");
    let save = game(&dir);
    for u in ["fr-2", "fr-3", "fr-4", "fr-5"] {
        let line = &apply(&save, &["sea", u, "--to", "counter1"])[0];
        assert!(notes_of(line).is_empty(), "{u}: {line}");
    }
    let fifth = &apply(&save, &["sea", "fr-6", "--to", "counter1"])[0];
    assert!(
        notes_of(fifth)
            .iter()
            .any(|n| n.contains("5 units in transit")),
        "{fifth}"
    );
    let german = &apply(&save, &["sea", "de-1", "--to", "counter1"])[0];
    assert!(
        notes_of(german)
            .iter()
            .any(|n| n.contains("only French units")),
        "{german}"
    );
}
