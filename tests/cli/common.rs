//! What every CLI test module shares: the binary, a scratch folder, running kepi, a new game.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The kepi binary: `KEPI_BIN` when set (a build folder shared by several checkouts can hold
/// another checkout's binary at the usual place), else the one cargo built for these tests.
pub fn bin() -> String {
    std::env::var("KEPI_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_kepi").to_string())
}

/// A fresh, empty scratch folder `AREA-NAME` under cargo's test temp dir.
pub fn tmp(area: &str, name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{area}-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs kepi with `args`.
pub fn kepi(args: &[&str]) -> Output {
    Command::new(bin()).args(args).output().unwrap()
}

/// Runs kepi, which must succeed; returns stdout.
pub fn ok(args: &[&str]) -> String {
    let o = kepi(args);
    assert!(
        o.status.success(),
        "kepi {args:?} failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// `kepi game new` of `scenario` with `seed` into `DIR/g.json`; returns the save's path.
pub fn new_game(dir: &Path, scenario: &str, seed: &str) -> String {
    let save = dir.join("g.json").display().to_string();
    ok(&[
        "game",
        "new",
        "--scenario",
        scenario,
        "--out",
        &save,
        "--seed",
        seed,
    ]);
    save
}

/// The texts of the notes in a game's log, in order (`kepi log show --json`).
pub fn notes(save: &str) -> Vec<String> {
    let log: serde_json::Value =
        serde_json::from_str(&ok(&["log", "show", save, "--json"])).unwrap();
    log.as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "act" && e["action"]["type"] == "note")
        .map(|e| e["action"]["text"].as_str().unwrap().to_string())
        .collect()
}

/// The JSON lines `kepi game apply SAVE --json WORDS...` prints, one per applied action.
pub fn apply_json(save: &str, words: &[&str]) -> Vec<serde_json::Value> {
    let mut args = vec!["game", "apply", save, "--json"];
    args.extend_from_slice(words);
    ok(&args)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A `game apply --json` line's notes (absent when none).
pub fn notes_of(v: &serde_json::Value) -> Vec<String> {
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
pub fn checklist_items(save: &str) -> Vec<serde_json::Value> {
    let v: serde_json::Value =
        serde_json::from_str(&ok(&["game", "checklist", save, "--json"])).unwrap();
    v["items"].as_array().cloned().unwrap_or_default()
}
