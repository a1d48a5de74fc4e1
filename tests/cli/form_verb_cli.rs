//! The verbs a window on the network sends its host (issue 19), usable by any script too:
//! `form NAME UNIT [TARGET] [--attacker] [--set PATH=VALUE] [--dice]` (any resolver form, pre-filled
//! from the units, only the fields set changed), `action JSON` (one action as the log writes it,
//! never a roll) and `roll EXPR --dice V,...`.

use serde_json::Value;

use super::common::{apply, kepi, log_len, new_game, ok, strength, tmp};

const FIRER: &str = "12th-grenadiers-1";
const TARGET: &str = "55e-ligne-1";

/// Runs `kepi game apply SAVE WORDS...`, expects exit 2, returns stderr.
fn refused(save: &str, words: &[&str]) -> String {
    let mut a = vec!["game", "apply", save];
    a.extend_from_slice(words);
    let o = kepi(&a);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(o.status.code(), Some(2), "kepi {a:?}: {err}");
    err
}

#[test]
fn form_rolls_what_the_named_verb_rolls_and_set_changes_only_that_field() {
    let dir = tmp("form-verb", "same");
    // Same game twice (same seed): the named verb on one, the form verb on the other.
    for d in ["a", "b"] {
        std::fs::create_dir_all(dir.join(d)).expect("dir");
    }
    let a = new_game(&dir.join("a"), "mars-la-tour", "7");
    let b = new_game(&dir.join("b"), "mars-la-tour", "7");
    let named = apply(&a, &["fire", FIRER, TARGET, "--dice", "d10=10,d%=20"]);
    let form = apply(
        &b,
        &["form", "fire", FIRER, TARGET, "--dice", "d10=10,d%=20"],
    );
    assert_eq!(
        named["outcome"], form["outcome"],
        "same situation, same dice"
    );
    assert_eq!(named["summary"], form["summary"]);
    // A field set: the same as the named verb's option for it.
    let named = apply(
        &a,
        &["fire", FIRER, TARGET, "--enfilade", "--dice", "d10=6,d%=40"],
    );
    let form = apply(
        &b,
        &[
            "form",
            "fire",
            FIRER,
            TARGET,
            "--set",
            "action.enfilade=true",
            "--dice",
            "d10=6,d%=40",
        ],
    );
    assert_eq!(named["outcome"], form["outcome"]);
    assert_ne!(named["outcome"], Value::Null);
    // kepi's own dice: the seeded dice of each game, so the two games agree roll for roll.
    let named = apply(&a, &["fire", FIRER, TARGET]);
    let form = apply(&b, &["form", "fire", FIRER, TARGET]);
    assert_eq!(named["outcome"], form["outcome"]);
    assert_eq!(strength(&a, TARGET), strength(&b, TARGET));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn form_refuses_what_does_not_fit_and_applies_nothing() {
    let dir = tmp("form-verb", "bad");
    let save = new_game(&dir, "mars-la-tour", "7");
    let before = log_len(&save);
    let e = refused(&save, &["form", "volley", FIRER, TARGET]);
    assert!(
        e.contains("volley") && e.contains("accepted") && e.contains("fire"),
        "{e}"
    );
    let e = refused(
        &save,
        &["form", "fire", FIRER, TARGET, "--set", "action.bayonets=3"],
    );
    assert!(
        e.contains("bayonets") && e.contains("enfilade"),
        "names the fields: {e}"
    );
    let e = refused(
        &save,
        &[
            "form",
            "fire",
            FIRER,
            TARGET,
            "--set",
            "action.figures=many",
        ],
    );
    assert!(e.contains("not a value"), "{e}");
    let e = refused(
        &save,
        &["form", "fire", FIRER, TARGET, "--set", "actor=55e-ligne-1"],
    );
    assert!(e.contains("actor"), "the units are not set this way: {e}");
    let e = refused(&save, &["form", "fire", FIRER]);
    assert!(e.contains("UNIT TARGET"), "{e}");
    let e = refused(&save, &["form", "fire", FIRER, FIRER]);
    assert!(
        e.contains("itself") || e.contains("own"),
        "a unit never fires at itself: {e}"
    );
    let e = refused(&save, &["form", "fire", FIRER, TARGET, "--dice", "d6=3"]);
    assert!(e.contains("d6"), "{e}");
    let e = refused(&save, &["form", "fire", FIRER, TARGET, "--loud"]);
    assert!(e.contains("--loud") && e.contains("--set"), "{e}");
    assert_eq!(log_len(&save), before, "nothing applied");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn action_takes_a_logged_action_but_never_dice() {
    let dir = tmp("form-verb", "action");
    let save = new_game(&dir, "mars-la-tour", "7");
    let full = strength(&save, TARGET);
    let line = apply(
        &save,
        &[
            "action",
            &format!(r#"{{"type":"lose-strength","unit":"{TARGET}","n":2}}"#),
        ],
    );
    assert!(
        line["summary"].as_str().is_some_and(|s| s.contains('2')),
        "{line}"
    );
    assert_eq!(strength(&save, TARGET), full - 2);
    // A roll as the log wrote it, sent back: refused (dice are never sent).
    ok(&["game", "apply", &save, "roll", "d6"]);
    let log: Value = serde_json::from_str(&ok(&["log", "show", &save, "--json"])).expect("json");
    let rolled = log
        .as_array()
        .and_then(|l| l.last())
        .map(|e| e["action"].clone())
        .expect("the roll's action");
    assert_eq!(rolled["type"], "roll", "{rolled}");
    let before = log_len(&save);
    let e = refused(&save, &["action", &rolled.to_string()]);
    assert!(e.contains("dice are rolled here"), "{e}");
    let e = refused(&save, &["action", "{not json"]);
    assert!(
        e.contains("`action`") && e.contains("lose-strength"),
        "shows an example: {e}"
    );
    // More than the unit has is refused by the game, as the `lose` verb is.
    let o = kepi(&[
        "game",
        "apply",
        &save,
        "action",
        &format!(r#"{{"type":"lose-strength","unit":"{TARGET}","n":999}}"#),
    ]);
    assert_ne!(o.status.code(), Some(0));
    assert_eq!(log_len(&save), before);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn roll_takes_the_dice_thrown_at_the_table() {
    let dir = tmp("form-verb", "roll");
    let save = new_game(&dir, "mars-la-tour", "7");
    let line = apply(&save, &["roll", "2d6", "--dice", "3,5"]);
    assert!(
        line["summary"].as_str().is_some_and(|s| s.contains('8')),
        "3 + 5: {line}"
    );
    let e = refused(&save, &["roll", "2d6", "--dice", "3"]);
    assert!(e.contains("2 value"), "{e}");
    let e = refused(&save, &["roll", "d6", "--dice", "7"]);
    assert!(e.contains('7') || e.contains("1-6"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}
