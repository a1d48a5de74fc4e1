//! Impossible actions refused with exit 2 and the reason (issue 17), through the real binary: the
//! same checks (`kepi::play::refuse`) the window runs to disable its Roll button.

use std::path::{Path, PathBuf};

use super::common::{kepi, ok};

fn tmp(name: &str) -> PathBuf {
    super::common::tmp("refuse", name)
}

/// Runs kepi, expects exit 2, returns stderr.
fn refused(args: &[&str]) -> String {
    let o = kepi(args);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(o.status.code(), Some(2), "kepi {args:?}: {err}");
    err
}

fn new_game(dir: &Path) -> String {
    super::common::new_game(dir, "mars-la-tour", "1")
}

fn log_len(save: &str) -> usize {
    let v: serde_json::Value =
        serde_json::from_str(&ok(&["game", "show", save, "--json"])).unwrap();
    v.to_string().len()
}

#[test]
fn firing_or_meleeing_itself_or_a_friend_is_refused() {
    let d = tmp("self");
    let save = new_game(&d);
    let before = log_len(&save);
    let apply = |rest: &[&str]| {
        let mut a = vec!["game", "apply", save.as_str()];
        a.extend_from_slice(rest);
        refused(&a)
    };
    let e = apply(&["fire", "12th-grenadiers-1", "12th-grenadiers-1"]);
    assert!(e.contains("itself"), "{e}");
    let e = apply(&["fire", "12th-grenadiers-1", "52nd-infantry-1"]);
    assert!(e.contains("friendly"), "{e}");
    let e = apply(&["melee", "12th-grenadiers-1", "12th-grenadiers-2"]);
    assert!(e.contains("friendly"), "{e}");
    let e = apply(&["artillery", "far3-light-1", "far3-heavy-1", "--range", "20"]);
    assert!(e.contains("friendly"), "{e}");
    assert_eq!(log_len(&save), before, "nothing applied");
}

#[test]
fn more_figures_than_the_unit_has_is_refused() {
    let d = tmp("figures");
    let save = new_game(&d);
    let e = refused(&[
        "game",
        "apply",
        &save,
        "fire",
        "12th-grenadiers-1",
        "55e-ligne-1",
        "--figures",
        "99",
    ]);
    assert!(
        e.contains("99 figures firing") && e.contains("which has 20"),
        "{e}"
    );
}

#[test]
fn a_die_the_resolution_does_not_roll_is_an_error() {
    let d = tmp("dice");
    let save = new_game(&d);
    for die in ["d7=3", "d6=3"] {
        let e = refused(&[
            "game",
            "apply",
            &save,
            "fire",
            "12th-grenadiers-1",
            "55e-ligne-1",
            "--dice",
            die,
        ]);
        assert!(e.contains("does not roll"), "{die}: {e}");
    }
    let e = refused(&[
        "resolve",
        "pk",
        "fire",
        "--figures",
        "10",
        "--class",
        "line",
        "--d6",
        "3",
    ]);
    assert!(e.contains("does not roll"), "{e}");
    let e = refused(&[
        "resolve", "spi", "combat", "--attack", "6", "--defend", "3", "--d10", "3",
    ]);
    assert!(e.contains("does not roll") || e.contains("--d10"), "{e}");
}

#[test]
fn routed_or_eliminated_units_do_not_rally() {
    let d = tmp("rally");
    let save = new_game(&d);
    ok(&["game", "apply", &save, "level", "55e-ligne-1", "routed"]);
    let e = refused(&["game", "apply", &save, "rally", "55e-ligne-1"]);
    assert!(e.contains("routed"), "{e}");
    ok(&["game", "apply", &save, "lose", "8e-ligne-1", "22"]);
    let e = refused(&["game", "apply", &save, "rally", "8e-ligne-1"]);
    assert!(e.contains("eliminated"), "{e}");
}

#[test]
fn cavalry_cannot_fire_as_artillery() {
    let d = tmp("arm");
    let save = new_game(&d);
    let e = refused(&[
        "game",
        "apply",
        &save,
        "artillery",
        "7th-cuirassiers",
        "55e-ligne-1",
        "--range",
        "20",
    ]);
    assert!(e.contains("only artillery"), "{e}");
    let e = refused(&[
        "game",
        "apply",
        &save,
        "fire",
        "far3-light-1",
        "55e-ligne-1",
    ]);
    assert!(e.contains("artillery form"), "{e}");
}

/// `kepi open SAVE` opens the window on a game; a save that is not there exits 2 naming it,
/// before any window opens.
#[test]
fn open_refuses_a_missing_save_naming_it() {
    let o = crate::common::kepi(&["open", "/no/such/kepi-save.json"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("SAVE") && err.contains("/no/such/kepi-save.json"),
        "{err}"
    );
    let o = crate::common::kepi(&["open", "/tmp"]);
    assert_eq!(o.status.code(), Some(2));
    // A file that is not a save is reported, not opened.
    let dir = crate::common::tmp("refusals", "open-junk");
    let junk = dir.join("junk.kepi");
    std::fs::write(&junk, b"not a save").unwrap();
    let o = crate::common::kepi(&["open", junk.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("junk.kepi"));
    let help = crate::common::ok(&["help"]);
    assert!(help.contains("open"), "kepi help lists open");
}
