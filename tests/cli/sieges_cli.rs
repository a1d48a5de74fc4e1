//! Issue 28: 1870's sieges, blockade calendar and surrender points in play (FR-F1, FR-B1, FR-L1),
//! through the real binary: `siege`, `blockade` and `points` as verbs of `kepi game apply`, the
//! calendar's check due at Advance calendars, the capitulation due when a marker reaches SURRENDER.
//!
//! The printed blockade calendar is not in the seed ("the general and blockade calendars referred
//! to throughout the rules are not reproduced"): how many cells lie between METZ-2 and SURRENDER is
//! the umpire's reading of his printed calendar (`--steps`), never a number kepi ships.

use std::path::Path;

use super::common::{
    apply_json as apply, card, due, fr1870_header, game_of_scenario, json, kepi, noted, notes_of,
    ok, tmp,
};

/// The last resolution in the game's log (its modifier lines, rule ids and provenance).
fn last_resolution(save: &str) -> serde_json::Value {
    let log = json(&["log", "show", save, "--json"]);
    log.as_array().unwrap().last().unwrap()["action"]["resolution"].clone()
}

/// Metz's cells in these tests: the seed prints only "Metz (2435)"; a fortified camp "extends over
/// several cells" and Metz holds up to 28 units (M4: 23 to 28) at 4 a cell, so the test gives it
/// 2435 and five of its neighbours.
const METZ: [&str; 6] = ["2435", "2335", "2535", "2336", "2536", "2434"];

/// A scenario on 1870's board from calendar cell 1: 22 French infantry in Metz (4 a cell), German
/// infantry at 2436 (next to Metz), 2636 (next to Thionville, 2635, and to Metz's 2536) and 1640
/// (I10's cell), Neuf-Brisach (1541, a value-2 fortress card) held by one French unit.
fn scenario(dir: &Path) -> String {
    scenario_ringed(dir, true)
}

/// The cells around Metz (I2: what its besieger must hold or control), in 1870's numbering.
fn metz_ring() -> Vec<String> {
    use kepi::engine::play::board::{hex_in, position_in};
    let layout = kepi::registry::get(kepi::rules::fr1870::ID).hex_layout();
    let camp: Vec<_> = METZ
        .iter()
        .map(|c| hex_in(c.parse().unwrap(), layout).unwrap())
        .collect();
    let mut ring: Vec<String> = camp
        .iter()
        .flat_map(|h| h.neighbours())
        .filter(|h| !camp.contains(h))
        .map(|h| position_in(h, layout).unwrap().to_string())
        .collect();
    ring.sort();
    ring.dedup();
    ring
}

/// [`scenario`], with German infantry on every cell around Metz (`ringed`, I2: the camp
/// encircled) or only `de-metz` beside it.
fn scenario_ringed(dir: &Path, ringed: bool) -> String {
    let mut t = fr1870_header("fr1870-sieges", "Sieges", "");
    let unit = |id: &str, side: &str, arm: &str, strength: u32, hex: &str| {
        card(id, side, arm, strength, hex, "")
    };
    for i in 0..22 {
        t.push_str(&unit(
            &format!("fr-{}", i + 1),
            "french",
            "infantry",
            2,
            METZ[i / 4],
        ));
    }
    t.push_str(&unit("de-metz", "german", "infantry", 3, "2436"));
    t.push_str(&unit("de-2636", "german", "infantry", 3, "2636"));
    t.push_str(&unit("de-1640", "german", "infantry", 3, "1640"));
    t.push_str(&unit("de-1542", "german", "infantry", 2, "1542"));
    t.push_str(&unit("fort-nb", "french", "fortress", 2, "1541"));
    t.push_str(&unit("fr-nb", "french", "infantry", 4, "1541"));
    if ringed {
        for (i, cell) in metz_ring().iter().enumerate() {
            if !["2436", "2636"].contains(&cell.as_str()) {
                t.push_str(&unit(
                    &format!("de-ring-{i}"),
                    "german",
                    "infantry",
                    1,
                    cell,
                ));
            }
        }
    }
    game_of_scenario(dir, "sieges.toml", &t)
}

/// Situation 2: "Sieges: ... Metz (2435). Place the blockade marker METZ-2 on the cell METZ-2 of
/// the blockade calendar", laid in play, with `steps` cells to SURRENDER read off the printed
/// calendar.
/// The next phase, then Neuf-Brisach's garrison (fr-nb) sorties against the besieger at 1640,
/// the d6 typed as `die` and the umpire's reading of his printed chart `result` (the cells kepi
/// does not know: the seed prints part of the CRT). The garrison attacks out of its fortress, so
/// Neuf-Brisach's coefficient (2) is added to its 4 (FR-F1, H11).
fn sortie_against_1640(save: &str, die: u32, result: &str) -> Vec<serde_json::Value> {
    apply(save, &["next-phase"]);
    apply(
        save,
        &[
            "combat",
            "--attackers",
            "fr-nb",
            "--hex",
            "1640",
            "--dice",
            &format!("d6={die}"),
            "--result",
            result,
        ],
    )
}

fn besiege_metz(save: &str, steps: &str) -> serde_json::Value {
    let cells = METZ.join(",");
    let out = apply(
        save,
        &[
            "siege", "--place", "Metz", "--cell", &cells, "--by", "de-metz", "--start", "METZ-2",
            "--steps", steps,
        ],
    );
    out[0].clone()
}

/// Plays to the end of the turn (Advance calendars) and does the calendar's check for `place`.
fn end_turn_held(save: &str, place: &str) -> Vec<serde_json::Value> {
    apply(
        save,
        &["next-phase", "next-phase", "next-phase", "next-phase"],
    );
    let d = due(save);
    let check = d
        .iter()
        .find(|d| {
            d["rule"] == "FR-B1"
                && d["what"]
                    .as_str()
                    .unwrap()
                    .starts_with(&format!("{place}:"))
        })
        .unwrap_or_else(|| panic!("no FR-B1 check for {place}: {d:?}"));
    let id = check["id"].to_string();
    let out = apply(save, &["resolve-due", &id]);
    apply(save, &["next-phase"]);
    out
}

/// FR-B1, I6: "the units of the besieger occupy the fortified camp and may leave it only after
/// having stayed there for one complete turn (example: if Metz capitulates in turn 8, the besiegers
/// may leave it only in turn 10)". In play: Metz besieged on turn 1 on METZ-2 with 8 cells to
/// SURRENDER (the umpire's reading; the calendar is not in the seed), the calendar's check done at
/// the end of each turn; the marker reaches SURRENDER in turn 8, the capitulation is a check due
/// that eliminates the besieged units; a besieger leaving Metz in turn 9 is noted, in turn 10 not.
#[test]
fn metz_capitulates_in_turn_8_and_its_besiegers_leave_in_turn_10() {
    let save = scenario(&tmp("sieges", "metz-i6"));
    let laid = besiege_metz(&save, "8");
    assert_eq!(laid["outcome"]["start"], "METZ-2", "{laid}");
    assert!(laid["rules"].as_array().unwrap().contains(&"FR-B1".into()));
    for turn in 1..=7 {
        let out = end_turn_held(&save, "Metz");
        let s = out[0]["summary"].as_str().unwrap();
        assert!(
            s.contains(&format!("blockade marker {turn} cell(s) from METZ-2")),
            "turn {turn}: {s}"
        );
        assert!(
            due(&save)
                .iter()
                .all(|d| !d["what"].as_str().unwrap().contains("capitulates"))
        );
    }
    // Turn 8: the marker reaches SURRENDER.
    let out = end_turn_held(&save, "Metz");
    assert!(
        out[0]["summary"]
            .as_str()
            .unwrap()
            .contains("capitulated on turn 8"),
        "{out:?}"
    );
    // (end_turn_held went on to turn 9; the capitulation check was queued in turn 8.)
    let d = due(&save);
    let cap = d
        .iter()
        .find(|d| {
            d["what"]
                .as_str()
                .unwrap()
                .starts_with("Metz capitulates (turn 8)")
        })
        .unwrap_or_else(|| panic!("{d:?}"));
    assert_eq!(cap["rule"], "FR-B1");
    assert!(
        cap["what"]
            .as_str()
            .unwrap()
            .contains("may leave it only in turn 10"),
        "{cap}"
    );
    let done = apply(&save, &["resolve-due", &cap["id"].to_string()]);
    let s = done[0]["summary"].as_str().unwrap();
    assert_eq!(s.matches("(2 -> 0)").count(), 22, "{s}");
    // The besieger occupies the fortified camp (turn 9, German movement) and would leave it at once.
    apply(&save, &["next-phase", "next-phase"]);
    apply(&save, &["move", "de-metz", "2435"]);
    let left = apply(&save, &["move", "de-metz", "2436"]);
    let notes = notes_of(&left[0]);
    assert!(
        notes.iter().any(|n| n
            .contains("Metz capitulated in turn 8, so the besiegers may leave it only in turn 10")),
        "{left:?}"
    );
    assert_eq!(
        left[0]["summary"], "de-metz moves to 2436",
        "the umpire went ahead"
    );
    // Turn 10: it may leave.
    apply(&save, &["undo"]);
    apply(&save, &["next-phase"; 5]);
    assert_eq!(json(&["game", "show", &save, "--json"])["turn"], 10);
    let left = apply(&save, &["move", "de-metz", "2436"]);
    assert!(notes_of(&left[0]).is_empty(), "{left:?}");
    ok(&["log", "verify", &save]);
}

/// I2, I5: "the besieger must encircle them completely with his units or with cells controlled by
/// them"; "if at the end of a turn the blockade is broken (there is around the fortified camp at
/// least 1 cell that is neither occupied nor controlled by the besieger), the blockade marker does
/// not advance (the supplies arrive) and it is turned over". Metz besieged by one unit beside it:
/// the calendar's check names the open cells, and doing it turns the marker over; with the ring
/// held, the check says so and doing it advances the marker.
#[test]
fn metz_not_encircled_is_a_broken_blockade() {
    let save = scenario_ringed(&tmp("sieges", "metz-i2"), false);
    besiege_metz(&save, "8");
    apply(
        &save,
        &["next-phase", "next-phase", "next-phase", "next-phase"],
    );
    let d = due(&save);
    let check = d
        .iter()
        .find(|d| d["rule"] == "FR-B1" && d["what"].as_str().unwrap().starts_with("Metz:"))
        .unwrap_or_else(|| panic!("{d:?}"));
    let what = check["what"].as_str().unwrap();
    assert!(
        what.contains("the blockade is broken: cells ")
            && what.contains("neither occupied nor controlled by the besieger (I2, I5)"),
        "{what}"
    );
    // 2436 is de-metz's own cell, and 2535 is Metz: neither is open.
    assert!(!what.contains("2436,") && !what.contains("2535"), "{what}");
    let out = apply(&save, &["resolve-due", &check["id"].to_string()]);
    let s = out[0]["summary"].as_str().unwrap();
    assert!(
        s.contains("blockade marker 0 cell(s) from METZ-2, turned over"),
        "{s}"
    );

    let save = scenario(&tmp("sieges", "metz-i2-ringed"));
    besiege_metz(&save, "8");
    apply(
        &save,
        &["next-phase", "next-phase", "next-phase", "next-phase"],
    );
    let d = due(&save);
    let what = d
        .iter()
        .find_map(|d| d["what"].as_str().filter(|w| w.starts_with("Metz:")))
        .unwrap_or_else(|| panic!("{d:?}"));
    assert!(what.contains("encircled by the besieger's units"), "{what}");
}

/// Situation 2, FR-L1: "Points: each player receives 2 points per enemy unit eliminated." and "By
/// maintaining the blockade of Metz, the German player secures 44 points upon the surrender of the
/// fortified camp". 44 is 2 points for each of 22 units (the text does not print the garrison):
/// with 22 French units shut in Metz, `points --situation 2` counts 44 for the German player once
/// Metz surrenders, and says so before.
#[test]
fn situation_2_the_german_player_secures_44_points_upon_the_surrender_of_metz() {
    let save = scenario(&tmp("sieges", "metz-44"));
    besiege_metz(&save, "1");
    let before = apply(&save, &["points", "--situation", "2"]);
    assert_eq!(before[0]["outcome"]["german"], 0, "{before:?}");
    let notes = notes_of(&before[0]);
    assert!(
        notes.iter().any(|n| n
            .contains("22 French unit(s) besieged in Metz: its surrender would eliminate them, 44 German points")),
        "{notes:?}"
    );
    end_turn_held(&save, "Metz");
    let cap = due(&save)
        .into_iter()
        .find(|d| d["what"].as_str().unwrap().starts_with("Metz capitulates"))
        .unwrap();
    apply(&save, &["resolve-due", &cap["id"].to_string()]);
    let after = apply(&save, &["points", "--situation", "2"]);
    let o = &after[0]["outcome"];
    assert_eq!(o["german"], 44, "{after:?}");
    assert_eq!(o["french"], 0);
    assert_eq!(o["leader"], "german");
    let r = last_resolution(&save);
    let line = r["modifiers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["label"] == "German points, French units eliminated: 22 x 2")
        .unwrap_or_else(|| panic!("{after:?}"));
    assert_eq!(
        (line["rule"].as_str(), line["provenance"].as_str()),
        (Some("FR-L1"), Some("seed"))
    );
    // The words logged are the counted ones, so the log resolves it again.
    ok(&["log", "verify", &save]);
    // By hand, the same tally.
    let v = json(&[
        "resolve",
        "fr1870",
        "points",
        "--situation",
        "2",
        "--french-eliminated",
        "22",
        "--json",
    ]);
    assert_eq!(v["outcome"]["german"], 44);
}

/// FR-F1, I10: "one and the same unit occupying a cell adjacent to several fortresses may besiege
/// them simultaneously (example: a unit occupying cell 1640 may besiege Neuf-Brisach and Sélestat
/// simultaneously)". Neuf-Brisach is 1541 and Sélestat 1741 (Situation 4's markers); both sieges
/// are laid by the unit at 1640 without a note, and from then "1 is subtracted from the number
/// given by the die each time the besieger fights a defensive combat": the garrison's sortie
/// against it takes the die -1 (FR-F1) and DR has no effect.
#[test]
fn one_unit_at_1640_besieges_neuf_brisach_and_selestat() {
    let save = scenario(&tmp("sieges", "i10"));
    for (place, cell) in [("Neuf-Brisach", "1541"), ("Sélestat", "1741")] {
        let out = apply(
            &save,
            &["siege", "--place", place, "--cell", cell, "--by", "de-1640"],
        );
        // Neuf-Brisach's card (value 2) and its one unit: no marker (its stores feed 2 units).
        assert_eq!(
            out[0]["outcome"]["start"],
            serde_json::Value::Null,
            "{out:?}"
        );
        let notes = notes_of(&out[0]);
        assert!(
            notes.iter().all(|n| !n.contains("umpire went ahead")),
            "{place}: {notes:?}"
        );
        assert!(
            out[0]["summary"]
                .as_str()
                .unwrap()
                .contains("besieged by german (de-1640)")
        );
    }
    // A sortie of the garrison against the besieger: the besieger's die -1, DR without effect.
    let c = sortie_against_1640(&save, 2, "AD,DR");
    let r = last_resolution(&save);
    let mods = r["modifiers"].as_array().unwrap();
    assert!(
        mods.iter().any(|m| m["rule"] == "FR-F1"
            && m["value"] == "-1"
            && m["label"] == "die: the besieger defends"),
        "{mods:?}"
    );
    assert_eq!(c[0]["outcome"]["modified_die"], 1, "{c:?}");
    // 4 + 2 (H11: "in attack, the potential of the fortress is added to the potential of the
    // occupying units") against 3 is 2:1; the umpire reads AD,DR for die 1: the besieger's DR has
    // no effect, the AD counts.
    assert_eq!(c[0]["outcome"]["attack"], "6", "{c:?}");
    assert_eq!(c[0]["outcome"]["result"], "AD,DR", "{c:?}");
    assert_eq!(
        c[0]["outcome"]["effects"]["defenders"][0], "unchanged",
        "{c:?}"
    );
    assert_eq!(
        c[0]["outcome"]["effects"]["attackers"][0], "disorganised",
        "{c:?}"
    );
}

/// FR-F1, H7: "if the besieger engages several units, these achieve the effective encirclement of
/// the fortress, but the besieging forces are always treated as an inseparable whole in case of
/// combat against the besieged or an outside force". Neuf-Brisach besieged by the units at 1640
/// and 1542: the garrison's sortie against 1640 is fought against both, and the line says why.
#[test]
fn the_besiegers_of_neuf_brisach_defend_as_one_whole() {
    let save = scenario(&tmp("sieges", "h7"));
    apply(
        &save,
        &[
            "siege",
            "--place",
            "Neuf-Brisach",
            "--cell",
            "1541",
            "--by",
            "de-1640,de-1542",
        ],
    );
    let c = sortie_against_1640(&save, 6, "R");
    let notes = notes_of(&c[0]);
    assert!(
        notes.iter().any(|n| n
            == "FR-F1 (H7): the besiegers of Neuf-Brisach defend as one inseparable whole: de-1640, de-1542"),
        "{notes:?}"
    );
    let r = last_resolution(&save);
    let labels: Vec<&str> = r["modifiers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["label"].as_str().unwrap())
        .collect();
    assert!(
        labels.iter().any(|l| l.contains("de-1542")),
        "the unit at 1542 defends too: {labels:?}"
    );
    // 4 + 2 (the fortress, H11) against 3 + 2: 1:1 (rounded down), not 2:1 (against 3 alone).
    assert!(
        r["summary"].as_str().unwrap().starts_with("1:1"),
        "{}",
        r["summary"]
    );
}

/// I10: "a unit may in no case besiege a fortress and a fortified camp simultaneously: a unit
/// occupying cell 2636 may not besiege Thionville and Metz at the same time". The umpire is told
/// (and decides); a besieger not adjacent to a fortress is told too.
#[test]
fn a_unit_at_2636_may_not_besiege_thionville_and_metz() {
    let save = scenario(&tmp("sieges", "i10-camp"));
    let t = apply(
        &save,
        &[
            "siege",
            "--place",
            "Thionville",
            "--cell",
            "2635",
            "--by",
            "de-2636",
        ],
    );
    assert!(notes_of(&t[0]).is_empty(), "{t:?}");
    let cells = METZ.join(",");
    let m = apply(
        &save,
        &[
            "siege", "--place", "Metz", "--cell", &cells, "--by", "de-2636",
        ],
    );
    let notes = notes_of(&m[0]);
    assert!(
        notes.iter().any(|n| n.contains(
            "umpire went ahead: \"a unit may in no case besiege a fortress and a fortified camp simultaneously\""
        )),
        "{notes:?}"
    );
    // Metz's 22 units put its marker on M3 (I13: "M3: 15 to 22").
    assert_eq!(m[0]["outcome"]["start"], "M3", "{m:?}");
    // The calendar is not in the seed: no SURRENDER without the umpire's reading.
    assert!(
        notes
            .iter()
            .any(|n| n.contains("the blockade calendar is not in the seed")),
        "{notes:?}"
    );
    let far = apply(
        &save,
        &[
            "siege", "--place", "Toul", "--cell", "2033", "--by", "de-1640",
        ],
    );
    let notes = notes_of(&far[0]);
    assert!(
        notes
            .iter()
            .any(|n| n.contains("the besieger stands on a cell adjacent to the fortress")),
        "{notes:?}"
    );
}

/// FR-B1, I5: "If at the end of a turn the blockade is broken ..., the blockade marker does not
/// advance (the supplies arrive) and it is turned over. If another turn ends with the marker turned
/// over, it is moved back one cell (the reserves are rebuilt). If the blockade is re-established,
/// the marker is turned face up again and resumes its normal progression in the same operation.
/// It should be noted that only the blockade of a fortified camp can be broken". Paris's marker
/// starts on PARIS-0 (I12).
#[test]
fn a_broken_blockade_of_paris_flips_then_moves_back_then_resumes() {
    let save = scenario(&tmp("sieges", "paris"));
    let p = apply(
        &save,
        &[
            "siege",
            "--place",
            "Paris",
            "--cell",
            "2117,2216,2217",
            "--besieger",
            "german",
        ],
    );
    assert_eq!(p[0]["outcome"]["start"], "PARIS-0", "{p:?}");
    for (end, event, advanced, flipped) in [
        ("held", "advanced", 1, false),
        ("broken", "flipped", 1, true),
        ("broken", "moved-back", 0, true),
        ("held", "resumed", 1, false),
    ] {
        let out = apply(&save, &["blockade", "--place", "Paris", "--end", end]);
        let o = &out[0]["outcome"];
        assert_eq!(o["event"], event, "{end}: {out:?}");
        assert_eq!(o["marker"]["advanced"], advanced, "{end}: {out:?}");
        assert_eq!(o["marker"]["flipped"], flipped, "{end}: {out:?}");
        assert!(
            out[0]["rules"]
                .as_array()
                .unwrap()
                .contains(&"FR-B1".into())
        );
    }
    // The checklist of Advance calendars says where the marker stands, SURRENDER unknown.
    apply(&save, &["next-phase"; 4]);
    let list = ok(&["game", "checklist", &save]);
    assert!(
        list.contains("Paris: blockade marker 1 cell(s) from PARIS-0; SURRENDER not known (the calendar is not in the seed)"),
        "{list}"
    );
    apply(&save, &["next-phase"]);
    // I8: "it is sufficient for a single German unit to occupy just one of these cells for Paris
    // to be considered taken".
    apply(&save, &["move", "de-metz", "2216"]);
    let d = due(&save);
    assert!(
        d.iter().any(|d| d["rule"] == "FR-B1"
            && d["what"]
                .as_str()
                .unwrap()
                .contains("de-metz occupies cell 2216 of Paris: Paris is taken")),
        "{d:?}"
    );
    // I8: "The capitulation (or storming) of Paris immediately ends the game with victory for the
    // German player": the umpire reads SURRENDER off his calendar; the due eliminates nothing.
    let end = apply(
        &save,
        &["blockade", "--place", "Paris", "--end", "surrender"],
    );
    assert_eq!(end[0]["outcome"]["capitulates"], true, "{end:?}");
    let d = due(&save);
    let cap = d
        .iter()
        .find(|d| d["what"].as_str().unwrap().starts_with("Paris capitulates"))
        .unwrap_or_else(|| panic!("{d:?}"));
    assert!(
        cap["what"]
            .as_str()
            .unwrap()
            .ends_with("the game ends with victory for the German player")
    );
    let done = apply(&save, &["resolve-due", &cap["id"].to_string()]);
    assert!(
        !done[0]["summary"].as_str().unwrap().contains("loses"),
        "{done:?}"
    );
    // A fortress's siege is lifted, not broken: refused with exit 2, nothing logged.
    apply(
        &save,
        &[
            "siege",
            "--place",
            "Belfort",
            "--cell",
            "1338",
            "--besieger",
            "german",
            "--coefficient",
            "3",
            "--garrison",
            "4",
        ],
    );
    let before = json(&["log", "show", &save, "--json"])
        .as_array()
        .unwrap()
        .len();
    let o = kepi(&[
        "game", "apply", &save, "blockade", "--place", "Belfort", "--end", "broken",
    ]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("only the blockade of a fortified camp"));
    assert_eq!(
        json(&["log", "show", &save, "--json"])
            .as_array()
            .unwrap()
            .len(),
        before
    );
    let lifted = apply(
        &save,
        &["blockade", "--place", "Belfort", "--end", "lifted"],
    );
    assert!(
        lifted[0]["summary"]
            .as_str()
            .unwrap()
            .contains("Belfort: no longer besieged"),
        "{lifted:?}"
    );
    ok(&["log", "verify", &save]);
}

/// Issue 44: every verb refuses what names nothing in the game (exit 2, nothing logged): `siege
/// --by` a unit the game does not have, or text with an escape in it; `--place` with control
/// characters or a page of text. The refusal echoes no raw control character.
#[test]
fn siege_refuses_besiegers_and_places_that_name_nothing() {
    let save = scenario(&tmp("sieges", "names-nothing"));
    let logged = || {
        json(&["log", "show", &save, "--json"])
            .as_array()
            .unwrap()
            .len()
    };
    let before = logged();
    let long = "x".repeat(500);
    for (by, place, says) in [
        ("de-nowhere", "Neuf-Brisach", "de-nowhere"),
        ("de-1640,ghost", "Neuf-Brisach", "ghost"),
        ("\u{1b}[2Jde-1640", "Neuf-Brisach", "--by"),
        ("de-1640", "Neuf\u{1b}[31m-Brisach", "--place"),
        ("de-1640", long.as_str(), "--place"),
        ("de-1640", "  ", "--place"),
    ] {
        let o = kepi(&[
            "game", "apply", &save, "siege", "--place", place, "--cell", "1541", "--by", by,
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(
            o.status.code(),
            Some(2),
            "--by {by:?} --place {place:?}: {err}"
        );
        assert!(err.contains(says), "--by {by:?} --place {place:?}: {err}");
        assert!(!err.contains('\u{1b}'), "a raw escape echoed: {err:?}");
        assert!(err.len() < 400, "the refusal echoes the page: {err}");
    }
    assert_eq!(logged(), before, "a refused siege logged something");
    // The real one is made.
    let out = apply(
        &save,
        &[
            "siege",
            "--place",
            "Neuf-Brisach",
            "--cell",
            "1541",
            "--by",
            "de-1640",
        ],
    );
    assert_eq!(out[0]["outcome"]["place"], "Neuf-Brisach", "{out:?}");
}

/// FR-L1, Situation 3, special rule b: "If you wish to introduce into the game the attitude of
/// Bazaine, proceed as follows: at the start of each of his combat phases, the French player
/// rolls the die. If he obtains a 6, the units shut up in Metz have the right to attack (...); if
/// he obtains anything other than a 6, these units remain inactive during that phase (...). This
/// restriction lasts for the whole game." In play: `bazaine` rolls it (1/6 exactly); a unit in
/// besieged Metz attacking after a 3, or in a later Combat Phase before its die, is noted before
/// the roll and in the log (the umpire decides); after a 6 it is not; a game that never rolls the
/// die notes nothing (the rule is optional).
#[test]
fn bazaines_die_lets_the_units_in_metz_attack_only_on_a_6() {
    let save = scenario_ringed(&tmp("sieges", "bazaine"), false);
    besiege_metz(&save, "8");
    apply(&save, &["next-phase"]);
    let sortie = |save: &str| {
        apply(
            save,
            &[
                "combat",
                "--attackers",
                "fr-1",
                "--hex",
                "2436",
                "--dice",
                "d6=3",
            ],
        )
        .pop()
        .unwrap()
    };
    let metz = "attacks out of Metz";
    let never = sortie(&save);
    assert!(!noted(&notes_of(&never), metz), "{never}");
    apply(&save, &["undo"]);

    let die = apply(&save, &["bazaine", "--dice", "d6=3"]).pop().unwrap();
    assert_eq!(die["outcome"]["may_attack"], false, "{die}");
    let odds = json(&["resolve", "fr1870", "bazaine", "--odds", "--json"]).to_string();
    assert!(
        odds.contains("\"1/6\"") && odds.contains("\"5/6\"") && odds.contains("may attack"),
        "{odds}"
    );
    let out = sortie(&save);
    assert!(
        noted(
            &notes_of(&out),
            "fr-1 attacks out of Metz: Bazaine's die this phase was not a 6"
        ),
        "{out}"
    );
    ok(&["log", "verify", &save]);
    apply(&save, &["undo", "undo"]);

    apply(&save, &["bazaine", "--dice", "d6=6"]);
    let out = sortie(&save);
    assert!(!noted(&notes_of(&out), metz), "{out}");
    ok(&["log", "verify", &save]);

    // The next turn's French Combat Phase: the die of turn 1 does not carry over.
    apply(
        &save,
        &["next-phase", "next-phase", "next-phase", "next-phase"],
    );
    let out = apply(
        &save,
        &[
            "combat",
            "--attackers",
            "fr-2",
            "--hex",
            "2436",
            "--dice",
            "d6=3",
        ],
    )
    .pop()
    .unwrap();
    assert!(
        noted(
            &notes_of(&out),
            "Bazaine's die has not been rolled this phase"
        ),
        "{out}"
    );
    ok(&["log", "verify", &save]);
}
