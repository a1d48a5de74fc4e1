//! What the CLI test modules share: tests/shared/run.rs (the binary, a scratch folder, running
//! kepi, a new game) and the readers of what kepi prints about a game.

pub use super::games::*;
pub use super::host::TestHost;
pub use super::run::*;

use serde_json::Value;

/// The texts of the notes in a game's log, in order (`kepi log show --json`).
pub fn notes(save: &str) -> Vec<String> {
    let log: Value = serde_json::from_str(&ok(&["log", "show", save, "--json"])).unwrap();
    log.as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "act" && e["action"]["type"] == "note")
        .map(|e| e["action"]["text"].as_str().unwrap().to_string())
        .collect()
}

/// The JSON lines `kepi game apply SAVE --json WORDS...` prints, one per applied action.
pub fn apply_json(save: &str, words: &[&str]) -> Vec<Value> {
    let mut args = vec!["game", "apply", save, "--json"];
    args.extend_from_slice(words);
    ok(&args)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A `game apply --json` line's notes (absent when none).
pub fn notes_of(v: &Value) -> Vec<String> {
    v.get("notes")
        .and_then(|n| n.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|n| n.as_str())
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

/// The rows of `kepi game checklist --json` for the phase being played.
pub fn checklist_items(save: &str) -> Vec<Value> {
    let v: Value = serde_json::from_str(&ok(&["game", "checklist", save, "--json"])).unwrap();
    v["items"].as_array().cloned().unwrap_or_default()
}

/// `kepi game show SAVE --json`.
pub fn show(save: &str) -> Value {
    json(&["game", "show", save, "--json"])
}

/// The strength of unit `id` as `kepi game show` gives it.
pub fn strength(save: &str, id: &str) -> u64 {
    show(save)["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["id"] == id)
        .and_then(|u| u["strength"].as_u64())
        .unwrap_or_else(|| panic!("no strength for {id}"))
}

/// The rows of `kepi game due SAVE --json`.
pub fn due(save: &str) -> Vec<Value> {
    json(&["game", "due", save, "--json"])
        .as_array()
        .unwrap()
        .clone()
}

/// The game's open due checks of rule `rule` (`kepi game due --json`).
pub fn due_of(save: &str, rule: &str) -> Vec<Value> {
    due(save)
        .into_iter()
        .filter(|d| d["rule"] == rule)
        .collect()
}

/// How many entries the game's log holds (`kepi log show --json`).
pub fn log_len(save: &str) -> usize {
    json(&["log", "show", save, "--json"])
        .as_array()
        .unwrap()
        .len()
}

/// `kepi game apply SAVE WORDS...`, which must succeed; returns stdout.
pub fn play(save: &str, words: &[&str]) -> String {
    let mut args = vec!["game", "apply", save];
    args.extend_from_slice(words);
    ok(&args)
}

/// `kepi game apply SAVE --json WORDS...`: the last JSON line.
pub fn apply(save: &str, words: &[&str]) -> Value {
    apply_json(save, words).pop().expect("a line")
}

/// Runs kepi, which must refuse: exit 2, no panic; returns stderr.
pub fn refused(args: &[&str]) -> String {
    let o = kepi(args);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(o.status.code(), Some(2), "kepi {args:?}: {err}");
    assert!(!err.contains("panicked"), "kepi {args:?}: {err}");
    err
}

/// Whether one of `notes` says the umpire went ahead despite a rule, naming `want`.
pub fn noted(notes: &[String], want: &str) -> bool {
    notes
        .iter()
        .any(|n| n.starts_with("umpire went ahead:") && n.contains(want))
}

/// Runs kepi, which must fail with exit `code`, without a panic, its stderr holding every one of
/// `needles`; returns stderr. Each call is one forgery or bad input caught.
pub fn caught(args: &[&str], code: i32, needles: &[&str]) -> String {
    let o = kepi(args);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(
        o.status.code(),
        Some(code),
        "kepi {args:?} should fail: {err}{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(!err.contains("panicked"), "kepi {args:?}: {err}");
    for n in needles {
        assert!(err.contains(n), "kepi {args:?}: `{n}` not in: {err}");
    }
    err
}

/// `kepi log verify SAVE` fails (exit 1) naming `entry N` and each of `needles`; returns stderr.
pub fn forgery_caught(save: &str, entry: usize, needles: &[&str]) -> String {
    let entry = format!("entry {entry}");
    let mut all = vec![entry.as_str()];
    all.extend_from_slice(needles);
    caught(&["log", "verify", save], 1, &all)
}

/// A new SPI game (seed 3) on the map `text`, written as `file` in a temp folder of `area`/`name`;
/// returns the save's path. Each test then places its units with [`place`].
pub fn spi_game_on_map(area: &str, name: &str, file: &str, text: &str) -> String {
    let dir = tmp(area, name);
    let map = dir.join(file);
    std::fs::write(&map, text).unwrap();
    spi_game_in(&dir, map.to_str().unwrap())
}

/// A new SPI game (seed 3) saved in `dir`, on `map` (a map file, or one of kepi's own by name).
pub fn spi_game_in(dir: &std::path::Path, map: &str) -> String {
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
        map,
    ]);
    save
}

/// Each unit set at its cell (`game apply SAVE set UNIT position CELL ...`, one batch).
pub fn place(save: &str, at: &[(&str, &str)]) {
    let mut args = vec!["game", "apply", save];
    for (unit, cell) in at {
        args.extend(["set", unit, "position", cell]);
    }
    ok(&args);
}

/// One `[[unit]]` card of a test scenario: id and name `id`, its side's nation (France or
/// Prussia), then `extra` lines ("movement = 4\n"), if any.
pub fn card(id: &str, side: &str, arm: &str, strength: u32, hex: &str, extra: &str) -> String {
    let nation = if side == "french" {
        "France"
    } else {
        "Prussia"
    };
    format!(
        "[[unit]]\nid = \"{id}\"\nname = \"{id}\"\nside = \"{side}\"\nnation = \"{nation}\"\n\
         arm = \"{arm}\"\nstrength = {strength}\nhex = \"{hex}\"\n{extra}\n"
    )
}

/// The header of a 1870 test scenario named `name` from calendar cell 1, French first, with
/// `extra` lines ("map = \"board.toml\"\n").
pub fn fr1870_header(name: &str, title: &str, extra: &str) -> String {
    format!(
        "name = \"{name}\"\nsystem = \"fr1870\"\ntitle = \"{title}\"\ndate = \"1870-08-01\"\n\
         first_cell = 1\nsides = [\"french\", \"german\"]\n{extra}\n"
    )
}

/// Writes the scenario `text` as `file` in `dir`, starts a game of it (seed 3) and returns the
/// save's path (`dir/g.json`).
pub fn game_of_scenario(dir: &std::path::Path, file: &str, text: &str) -> String {
    let f = dir.join(file);
    std::fs::write(&f, text).unwrap();
    let save = dir.join("g.json").display().to_string();
    ok(&[
        "game",
        "new",
        "--scenario",
        &f.display().to_string(),
        "--out",
        &save,
        "--seed",
        "3",
    ]);
    save
}

/// The unit `id` of a `kepi game supply --json` answer.
pub fn supplied_unit<'a>(v: &'a Value, id: &str) -> &'a Value {
    v["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["unit"] == id)
        .unwrap_or_else(|| panic!("no {id} in {v}"))
}

/// `kepi game apply SAVE next-phase`, `n` times.
pub fn next_phases(save: &str, n: usize) {
    for _ in 0..n {
        ok(&["game", "apply", save, "next-phase"]);
    }
}

/// Runs kepi in the folder `dir` (relative paths are its); returns its output.
pub fn kepi_in(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(bin())
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

/// The cells of the markers of `kind` that `game show --json` lists, in its order.
pub fn marked(save: &str, kind: &str) -> Vec<String> {
    let v = json(&["game", "show", save, "--json"]);
    v["marks"]
        .as_array()
        .map(|m| {
            m.iter()
                .filter(|x| x["kind"] == kind)
                .filter_map(|x| x["cell"].as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}
