//! Impossible actions refused with exit 2 and the reason (issue 17), through the real binary: the
//! same checks (`kepi::play::refuse`) the window runs to disable its Roll button.

use super::common::{new_game, ok, refused, strength, tmp};

fn log_len(save: &str) -> usize {
    let v: serde_json::Value =
        serde_json::from_str(&ok(&["game", "show", save, "--json"])).unwrap();
    v.to_string().len()
}

#[test]
fn firing_or_meleeing_itself_or_a_friend_is_refused() {
    let d = tmp("refuse", "self");
    let save = new_game(&d, "mars-la-tour", "1");
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
    let d = tmp("refuse", "figures");
    let save = new_game(&d, "mars-la-tour", "1");
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
    let d = tmp("refuse", "dice");
    let save = new_game(&d, "mars-la-tour", "1");
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
    let d = tmp("refuse", "rally");
    let save = new_game(&d, "mars-la-tour", "1");
    ok(&["game", "apply", &save, "level", "55e-ligne-1", "routed"]);
    let e = refused(&["game", "apply", &save, "rally", "55e-ligne-1"]);
    assert!(e.contains("routed"), "{e}");
    ok(&["game", "apply", &save, "lose", "8e-ligne-1", "22"]);
    let e = refused(&["game", "apply", &save, "rally", "8e-ligne-1"]);
    assert!(e.contains("eliminated"), "{e}");
}

#[test]
fn cavalry_cannot_fire_as_artillery() {
    let d = tmp("refuse", "arm");
    let save = new_game(&d, "mars-la-tour", "1");
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

/// SPI-C3 through `kepi game apply`: `--flank` is refused (exit 2, nothing applied) unless the
/// attackers' hexes make a flanking attack ("participating attacking units in, or adjacent to,
/// every hex surrounding the Defender's hex"); attackers on opposite sides (0504 and 0506 around
/// 0505) make one. SPI-F1: the fortification and EB cards in the hex are read from the map, so the
/// text's "five ... in a Fortification unit with a strength of "two" would defend as ... "twelve""
/// holds, and the flank gives no benefit against it.
#[test]
fn spi_flank_needs_the_geometry_and_the_fort_comes_from_the_map() {
    let d = tmp("refuse", "spi-flank");
    let save = super::common::new_game(&d, "spi-1870", "4");
    ok(&[
        "game",
        "apply",
        &save,
        "move",
        "fr-metz-5",
        "0505",
        "move",
        "fort-sedan",
        "0505",
        "move",
        "fr-eb-1",
        "0505",
        "move",
        "de-2-5-1",
        "0504",
        "move",
        "de-2-5-2",
        "0605",
    ]);
    let before = log_len(&save);
    let e = refused(&[
        "game",
        "apply",
        &save,
        "combat",
        "--attackers",
        "de-2-5-1,de-2-5-2",
        "--hex",
        "0505",
        "--flank",
    ]);
    assert!(
        e.contains("not a flanking attack") && e.contains("SPI-C3") && e.contains("0506"),
        "{e}"
    );
    assert_eq!(log_len(&save), before, "nothing applied");
    ok(&["game", "apply", &save, "move", "de-2-5-2", "0506"]);
    let out = ok(&[
        "game",
        "apply",
        &save,
        "--json",
        "combat",
        "--attackers",
        "de-2-5-1,de-2-5-2",
        "--hex",
        "0505",
        "--flank",
        "--result",
        "-",
        "--dice",
        "d6=3",
    ]);
    let line: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(line["outcome"]["defence"], "12", "{line}");
    assert_eq!(
        line["outcome"]["attack"], "10",
        "no flank benefit against a fort: {line}"
    );
}

/// SPI-R1 (A): "the owning Player may distribute the Combat Point losses among the units involved
/// in any fashion he wishes, as long as the separate losses are equivalent to the total. Players on
/// the defensive in a hex with a Fortification unit may lose from either the Fortification unit or
/// any Combat units in the fort". `--losses UNIT=N,...` is that choice: checked (engaged units,
/// numbers, totals equal to the result), a bad one exits 2 naming `--losses` with nothing applied.
#[test]
fn spi_losses_are_the_owners_split() {
    let d = tmp("refuse", "spi-losses");
    let save = super::common::new_game(&d, "spi-1870", "4");
    ok(&[
        "game",
        "apply",
        &save,
        "move",
        "fr-metz-5",
        "0505",
        "move",
        "fort-sedan",
        "0505",
        "move",
        "fr-eb-1",
        "0505",
        "move",
        "de-2-5-1",
        "0504",
        "move",
        "de-2-5-2",
        "0506",
    ]);
    let combat = |losses: &str| -> Vec<String> {
        [
            "combat",
            "--attackers",
            "de-2-5-1,de-2-5-2",
            "--hex",
            "0505",
            "--result",
            "A2/D4",
            "--dice",
            "d6=3",
            "--losses",
            losses,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    };
    let before = log_len(&save);
    for (bad, says) in [
        ("fr-metz-5=3", "add up to 3, but the result takes 4"),
        ("fr-metz-5=6", "has 5 combat points"),
        (
            "fr-eb-1=1,fr-metz-5=4",
            "not an engaged combat or fortification unit",
        ),
        ("de-1-5-1=1", "not engaged"),
        ("fr-metz-5=x", "is not a number"),
        ("fr-metz-5", "is not UNIT=N"),
        ("fr-metz-5=2,fr-metz-5=2", "named twice"),
    ] {
        let mut a = vec!["game".to_string(), "apply".into(), save.clone()];
        a.extend(combat(bad));
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let e = refused(&a);
        assert!(e.contains("--losses") && e.contains(says), "{bad}: {e}");
    }
    assert_eq!(log_len(&save), before, "nothing applied");
    let mut a = vec!["game".to_string(), "apply".into(), save.clone()];
    a.extend(combat("fort-sedan=2,fr-metz-5=2,de-2-5-2=2"));
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    ok(&a);
    assert_eq!(strength(&save, "fort-sedan"), 0);
    assert_eq!(strength(&save, "fr-metz-5"), 3);
    assert_eq!(strength(&save, "fr-eb-1"), 1);
    assert_eq!(strength(&save, "de-2-5-2"), 3);
    assert_eq!(strength(&save, "de-2-5-1"), 5);
}

/// A CRT cell kepi does not know (RULES.md: "resolving into it asks the umpire to enter the result
/// from the printed chart"): the die is rolled first and named, nothing is applied; the result is
/// then entered and logged against that same die (kepi's seeded dice show the same face again, as
/// nothing moved them).
#[test]
fn an_unknown_cell_names_the_die_before_asking_for_the_result() {
    let d = tmp("refuse", "spi-unknown");
    let save = super::common::new_game(&d, "spi-1870", "4");
    ok(&[
        "game",
        "apply",
        &save,
        "move",
        "fr-metz-5",
        "0505",
        "move",
        "de-2-5-1",
        "0504",
    ]);
    let before = log_len(&save);
    let verb = ["combat", "--attackers", "de-2-5-1", "--hex", "0505"];
    let mut a = vec!["game", "apply", save.as_str()];
    a.extend_from_slice(&verb);
    let e = refused(&a);
    assert!(
        e.contains("--result") && e.contains("the die shows d6="),
        "{e}"
    );
    assert_eq!(log_len(&save), before, "nothing logged against the die");
    let face = e
        .split("the die shows d6=")
        .nth(1)
        .and_then(|t| t.chars().next())
        .and_then(|c| c.to_digit(10))
        .unwrap();
    let mut a = vec!["game", "apply", save.as_str(), "--json"];
    a.extend_from_slice(&verb);
    a.extend_from_slice(&["--result", "D1"]);
    let out = ok(&a);
    let line: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(line["outcome"]["die"], face, "{line}");
    assert_eq!(line["outcome"]["result"], "D1");
    assert_eq!(line["outcome"]["entered"], true);
    // Physical dice: the same, the die entered with the result.
    let mut a = vec!["game", "apply", save.as_str()];
    a.extend_from_slice(&verb);
    a.extend_from_slice(&["--dice", "d6=5"]);
    let e = refused(&a);
    assert!(e.contains("the die shows d6=5"), "{e}");
}

/// FR-C2 (E): "every unit engaged in the combat by the Defender is eliminated. The Attacker must
/// then eliminate, from among his units that took part in the combat, a total of combat points at
/// least equal to the total (taking the printed combat potential) lost by the Defender."
/// `--losses UNIT=N,...` is the attacker's choice (each N a unit's whole printed potential), checked;
/// a bad one exits 2 naming `--losses` with nothing applied. Without it kepi eliminates no attacker
/// and says so in the notes.
#[test]
fn fr1870_exchange_losses_are_the_attackers_choice() {
    let d = tmp("refuse", "fr-exchange");
    let save = super::common::new_game(&d, "fr1870-august", "4");
    // Cavalry 3 (2) in 2739, attacked by 1RC and 2RC (2 + 2): 2:1, an unprinted cell, E entered.
    let combat = |losses: Option<&str>| -> Vec<String> {
        let mut v: Vec<String> = [
            "game",
            "apply",
            &save,
            "--json",
            "combat",
            "--attackers",
            "fr-1rc,fr-2rc",
            "--hex",
            "2739",
            "--result",
            "E",
            "--dice",
            "d6=3",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        if let Some(l) = losses {
            v.push("--losses".into());
            v.push(l.into());
        }
        v
    };
    let before = log_len(&save);
    for (bad, says) in [
        ("fr-1rc=1", "eliminated whole"),
        ("fr-1rc=3", "has 2 potential"),
        ("fr-1rc=0", "add up to 0, but the exchange takes at least 2"),
        ("de-cav-3=2", "not an attacking unit"),
        ("fr-3rc=2", "not engaged"),
        ("fr-1rc=x", "is not a number"),
        ("fr-1rc", "is not UNIT=N"),
        ("fr-1rc=2,fr-1rc=2", "named twice"),
    ] {
        let a = combat(Some(bad));
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let e = refused(&a);
        assert!(e.contains("--losses") && e.contains(says), "{bad}: {e}");
    }
    assert_eq!(log_len(&save), before, "nothing applied");
    // A result that is not an exchange leaves nothing to choose.
    let e = refused(&[
        "game",
        "apply",
        &save,
        "combat",
        "--attackers",
        "fr-1rc,fr-2rc",
        "--hex",
        "2739",
        "--result",
        "DR",
        "--dice",
        "d6=3",
        "--losses",
        "fr-1rc=2",
    ]);
    assert!(
        e.contains("--losses") && e.contains("not an exchange"),
        "{e}"
    );
    assert_eq!(log_len(&save), before, "nothing applied");
    // The owner's choice: 2RC goes, at least the 2 the defender lost.
    let a = combat(Some("fr-2rc=2"));
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    ok(&a);
    assert_eq!(strength(&save, "de-cav-3"), 0);
    assert_eq!(strength(&save, "fr-2rc"), 0);
    assert_eq!(strength(&save, "fr-1rc"), 2);
    let shown = ok(&["log", "show", &save, "--json"]);
    assert!(
        shown.contains("the attacker's choice: 2RC (2) eliminated"),
        "{shown}"
    );
    // Without --losses (on a fresh game): kepi's default, said in the notes, nothing eliminated.
    let d = tmp("refuse", "fr-exchange-default");
    let save2 = super::common::new_game(&d, "fr1870-august", "4");
    let mut a = combat(None);
    a[2] = save2.clone();
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    ok(&a);
    let shown = ok(&["log", "show", &save2, "--json"]);
    assert!(
        shown.contains("no losses chosen"),
        "the default is said in the notes: {shown}"
    );
    assert_eq!(strength(&save2, "fr-1rc"), 2);
    assert_eq!(strength(&save2, "fr-2rc"), 2);
}

/// FR-C3 (E18): "When cavalry alone is attacked by infantry alone, the cavalry may refuse the
/// combat and retreat one cell" ... "if the Attacker engages cavalry, or if the Defender has
/// infantry on the cell containing the attacked cavalry, the cavalry may not refuse".
/// `--cavalry-refuses`: refused with the reason otherwise (exit 2, nothing applied); taken, no die
/// is rolled and the retreat is a note on the log.
#[test]
fn fr1870_cavalry_refuses_combat() {
    let d = tmp("refuse", "fr-cavalry-refuses");
    let save = super::common::new_game(&d, "fr1870-august", "4");
    let before = log_len(&save);
    // Cavalry attacking: refused.
    let e = refused(&[
        "game",
        "apply",
        &save,
        "combat",
        "--attackers",
        "fr-1rc",
        "--hex",
        "2739",
        "--cavalry-refuses",
    ]);
    assert!(e.contains("1RC") && e.contains("FR-C3"), "{e}");
    assert_eq!(log_len(&save), before, "nothing applied");
    // Infantry (Mar) with the cavalry in the attacked cell: refused.
    ok(&["game", "apply", &save, "move", "fr-mar", "2235"]);
    let e = refused(&[
        "game",
        "apply",
        &save,
        "combat",
        "--attackers",
        "de-1b",
        "--hex",
        "2235",
        "--cavalry-refuses",
    ]);
    assert!(e.contains("Mar") && e.contains("FR-C3"), "{e}");
    // Cavalry alone (3RC in 2235 once Mar leaves) attacked by infantry alone: no die.
    ok(&["game", "apply", &save, "move", "fr-mar", "2236"]);
    let out = ok(&[
        "game",
        "apply",
        &save,
        "--json",
        "combat",
        "--attackers",
        "de-1b,de-2b",
        "--hex",
        "2235",
        "--cavalry-refuses",
    ]);
    let line: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert!(
        line["dice"].as_array().is_none_or(|d| d.is_empty()),
        "no die: {line}"
    );
    // It must retreat one cell (FR-C2's marker; its next move answers the check).
    assert!(line.to_string().contains("3RC must-retreat on"), "{line}");
    let due: serde_json::Value =
        serde_json::from_str(&ok(&["game", "due", &save, "--json"])).unwrap();
    assert!(
        due.as_array()
            .unwrap()
            .iter()
            .any(|d| d["unit"] == "fr-3rc" && d["rule"] == "FR-C2"),
        "{due}"
    );
    assert_eq!(strength(&save, "fr-3rc"), 2);
}
