//! What every test binary that runs kepi shares: the binary, a scratch folder, running kepi and
//! reading what it prints, a new game. Each binary's `common` module re-exports it (with its own
//! helpers), so a helper is written once in tests/.
#![allow(dead_code)] // each test binary uses a part

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The kepi binary: `KEPI_BIN` when set (a build folder shared by several checkouts can hold
/// another checkout's binary at the usual place), else the one cargo built for these tests.
pub fn bin() -> String {
    std::env::var("KEPI_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_kepi").to_string())
}

/// A fresh, empty scratch folder `AREA-NAME` under cargo's test temp dir (`AREA` names the test
/// file, so that two files' tests of the same name never share a folder).
pub fn tmp(area: &str, name: &str) -> PathBuf {
    fresh(Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{area}-{name}")))
}

/// `dir`, emptied of whatever an earlier run left there and created.
pub fn fresh(dir: PathBuf) -> PathBuf {
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs kepi with `args`.
pub fn kepi(args: &[&str]) -> Output {
    Command::new(bin()).args(args).output().unwrap()
}

/// Runs kepi with `args`: its exit code (-1 when killed), stdout and stderr.
pub fn run(args: &[&str]) -> (i32, String, String) {
    let o = kepi(args);
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Runs kepi with `args`: its exit code, stdout read as JSON (`null` when it is not) and stderr.
pub fn run_json(args: &[&str]) -> (i32, serde_json::Value, String) {
    let (code, out, err) = run(args);
    (
        code,
        serde_json::from_str(&out).unwrap_or(serde_json::Value::Null),
        err,
    )
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

/// Runs kepi, which must succeed; returns stdout read as JSON.
pub fn json(args: &[&str]) -> serde_json::Value {
    parse(&ok(args))
}

/// `text` read as JSON (a line kepi printed, a message a host sent).
pub fn parse(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap()
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
