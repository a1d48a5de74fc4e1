//! Issue 46: own dice, every die labelled. A PW melee's log says which side rolled which d6; a
//! GSP battery's dice entered for the hits only leave the accuracy-of-aim dice to kepi, and
//! `kepi game apply` says plainly that kepi rolled those; a die entered and not used is refused;
//! the GSP battle report's PDF holds every die of a battery's fire (wrapped, never cut).

use std::process::Command;

use crate::common::{kepi, new_game, ok, tmp};

/// The dice of the last entry of `kepi log show --json`: (label, value, source).
fn last_dice(save: &str) -> Vec<(String, u64, String)> {
    let log: serde_json::Value =
        serde_json::from_str(&ok(&["log", "show", save, "--json"])).unwrap();
    let last = log.as_array().unwrap().last().unwrap().clone();
    last["dice"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["label"].as_str().unwrap().to_string(),
                d["value"].as_u64().unwrap(),
                d["source"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn pw_melee_dice_say_which_side_rolled_which() {
    let dir = tmp("own-dice", "pw-melee");
    let save = new_game(&dir, "pw-skirmish", "5");
    ok(&[
        "game", "apply", &save, "move", "de-cav", "0303", "face", "de-cav", "s",
    ]);
    ok(&[
        "game",
        "apply",
        &save,
        "melee",
        "de-cav",
        "fr-inf-3",
        "--dice",
        "d6=5,d6=2",
    ]);
    let dice = last_dice(&save);
    assert_eq!(dice.len(), 2, "{dice:?}");
    assert!(
        dice[0].0.starts_with("attacker ") && dice[0].1 == 5,
        "the attacker's d6 first: {dice:?}"
    );
    assert!(
        dice[1].0.starts_with("defender ") && dice[1].1 == 2,
        "the defender's d6 second: {dice:?}"
    );
    assert!(dice.iter().all(|d| d.2 == "entered"), "{dice:?}");
    // The log's text says it too.
    let text = ok(&["log", "show", &save]);
    assert!(
        text.contains("attacker cavalry melee") && text.contains("defender infantry melee"),
        "{text}"
    );
    // What is logged resolves again to the same labels.
    ok(&["log", "verify", &save]);
}

#[test]
fn gsp_dice_kepi_rolled_are_said_and_extra_dice_refused() {
    let dir = tmp("own-dice", "gsp-aoa");
    let save = new_game(&dir, "st-privat", "3");
    // One gun, a hit die of 3 at its sector: a hit, whose two A.O.A. dice were not entered.
    let out = ok(&[
        "game",
        "apply",
        &save,
        "artillery",
        "gfar-heavy-1",
        "9e-ligne-1",
        "--guns",
        "1",
        "--dice",
        "d6=3",
    ]);
    let dice = last_dice(&save);
    assert_eq!(dice[0], ("hit die".to_string(), 3, "entered".to_string()));
    let seeded: Vec<&String> = dice
        .iter()
        .filter(|d| d.2 == "seeded")
        .map(|d| &d.0)
        .collect();
    assert_eq!(seeded, ["A.O.A. die 1", "A.O.A. die 2"], "{dice:?}");
    assert!(
        out.contains("kepi rolled these (none entered for them; the rest are yours): A.O.A. die 1"),
        "the output says which dice kepi rolled: {out}"
    );
    // All three entered: nothing of kepi's, nothing said.
    ok(&["game", "apply", &save, "undo"]);
    let out = ok(&[
        "game",
        "apply",
        &save,
        "artillery",
        "gfar-heavy-1",
        "9e-ligne-1",
        "--guns",
        "1",
        "--dice",
        "d6=3,d6=3,d6=4",
    ]);
    assert!(!out.contains("kepi rolled"), "{out}");
    assert!(last_dice(&save).iter().all(|d| d.2 == "entered"));
    // A fourth die is refused, naming what is left over; nothing is logged.
    ok(&["game", "apply", &save, "undo"]);
    let before = last_dice(&save);
    let o = kepi(&[
        "game",
        "apply",
        &save,
        "artillery",
        "gfar-heavy-1",
        "9e-ligne-1",
        "--guns",
        "1",
        "--dice",
        "d6=3,d6=3,d6=4,d6=6",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("more dice entered than this roll uses (d6=6 left over"),
        "{err}"
    );
    assert_eq!(last_dice(&save), before);
}

#[test]
fn gsp_report_pdf_holds_every_die() {
    let dir = tmp("own-dice", "gsp-report");
    let save = new_game(&dir, "st-privat", "3");
    // Six guns, each a hit (3 at this sector), each with its two A.O.A. dice: eighteen dice.
    let hits = ["3"; 6];
    let aoa = ["1", "2", "3", "4", "5", "6", "6", "5", "4", "3", "2", "1"];
    let dice: Vec<String> = hits
        .iter()
        .chain(aoa.iter())
        .map(|v| format!("d6={v}"))
        .collect();
    ok(&[
        "game",
        "apply",
        &save,
        "artillery",
        "gfar-heavy-1",
        "9e-ligne-1",
        "--guns",
        "6",
        "--dice",
        &dice.join(","),
    ]);
    let pdf = dir.join("report.pdf");
    ok(&["report", &save, "--pdf", pdf.to_str().unwrap()]);
    let Ok(out) = Command::new("pdftotext")
        .arg(pdf.as_os_str())
        .arg("-")
        .output()
    else {
        eprintln!("pdftotext not found: the PDF's text is not checked");
        return;
    };
    // A die's label may break across lines: compare with the whitespace folded.
    let text = String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(!text.contains('…'), "the dice list is cut: {text}");
    for gun in 1..=6 {
        let die = format!("hit die, gun {gun} d6=3");
        assert!(text.contains(&die), "{die} missing from the report: {text}");
        for (k, v) in [(1, aoa[2 * (gun - 1)]), (2, aoa[2 * (gun - 1) + 1])] {
            let die = format!("A.O.A. die {k}, gun {gun} d6={v}");
            assert!(text.contains(&die), "{die} missing from the report: {text}");
        }
    }
    assert!(text.contains("GSP-A3"), "the rules after the dice: {text}");
}
