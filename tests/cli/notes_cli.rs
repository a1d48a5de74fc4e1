//! Issue 26, nothing recorded is hidden: a note logged with a roll is printed by `kepi log show`
//! (text and JSON) and by the battle report (JSON and HTML), from the window's one formatter;
//! every line names its acting unit; and GSP's second fire in a turn is a note, as in P&K.

use serde_json::Value;

use super::common::{json, new_game, ok, tmp};

/// Fires `verb` twice with the same unit and checks the note everywhere the CLI prints the log.
fn second_fire_noted_everywhere(area: &str, scenario: &str, verb: &[&str], actor_name: &str) {
    let dir = tmp("notes", area);
    let save = new_game(&dir, scenario, "3");
    for _ in 0..2 {
        let mut args = vec!["game", "apply", save.as_str()];
        args.extend_from_slice(verb);
        ok(&args);
    }
    let want = "umpire went ahead:";
    // log show, text: the note on its own line under the entry, the line naming its unit.
    let text = ok(&["log", "show", &save]);
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("note: umpire went ahead:")
                && l.contains("already fired this turn")),
        "{text}"
    );
    // log show --json: "notes" and "text" beside the entry as logged.
    let log = json(&["log", "show", &save, "--json"]);
    let last = log.as_array().unwrap().last().unwrap();
    let notes: Vec<&str> = last["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with(want) && n.contains("already fired")),
        "{last}"
    );
    assert!(
        last["text"].as_str().unwrap().contains(actor_name),
        "{last}"
    );
    assert!(last["summary"].is_string(), "the logged summary is kept");
    // The report: JSON and HTML.
    let r = json(&["report", &save, "--json"]);
    let entries = r["entries"].as_array().unwrap();
    let e = entries.last().unwrap();
    assert!(
        e["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n.as_str().unwrap().starts_with(want)),
        "{e}"
    );
    let html_path = dir.join("r.html");
    ok(&["report", &save, "--html", html_path.to_str().unwrap()]);
    let html = std::fs::read_to_string(&html_path).unwrap();
    assert!(html.contains("note: umpire went ahead:"), "report HTML");
}

#[test]
fn pk_second_fire_note_is_printed_by_log_show_and_the_report() {
    second_fire_noted_everywhere(
        "pk",
        "mars-la-tour",
        &["fire", "12th-grenadiers-1", "55e-ligne-1", "--range", "10"],
        "12th Grenadiers",
    );
}

#[test]
fn gsp_second_fire_is_a_note_not_a_refusal() {
    second_fire_noted_everywhere(
        "gsp",
        "st-privat",
        &["artillery", "gfar-heavy-1", "9e-ligne-1"],
        "Heavy",
    );
}

/// PK-X5: a fatigue check's line ("pk fatigue: d10 5 vs fatigue 2: holds") names its unit in
/// `kepi log show`, text and JSON.
#[test]
fn a_fatigue_checks_line_names_its_unit() {
    let dir = tmp("notes", "fatigue");
    let save = new_game(&dir, "mars-la-tour", "3");
    ok(&[
        "game",
        "apply",
        &save,
        "melee",
        "12th-grenadiers-1",
        "55e-ligne-1",
        "--charge",
    ]);
    ok(&["game", "apply", &save, "fatigue-check", "12th-grenadiers-1"]);
    let log = json(&["log", "show", &save, "--json"]);
    let last = log.as_array().unwrap().last().unwrap();
    let text = last["text"].as_str().unwrap();
    assert!(text.starts_with("pk fatigue (I/12th Grenadiers"), "{text}");
    let shown = ok(&["log", "show", &save]);
    assert!(shown.contains(text), "{shown}");
}
