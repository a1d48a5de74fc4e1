//! The CLI contract of the SPI and 1870 commands, with the real binary.

use super::common::run_json;

#[test]
fn spi_combat_unknown_cell() {
    let (code, v, _) = run_json(&[
        "resolve", "spi", "combat", "--attack", "26", "--defend", "9", "--d6", "4", "--json",
    ]);
    assert_eq!(code, 0);
    let o = &v["outcome"];
    assert_eq!(o["odds"], "2:1");
    assert!(o["result"].is_null());
    assert_eq!(o["message"], "enter the result from your printed chart");
    assert!(v["notes"][0].as_str().unwrap().contains("enter the result"));
}

#[test]
fn spi_combat_fort_flank_supply_and_entered_result() {
    let (code, v, _) = run_json(&[
        "resolve",
        "spi",
        "combat",
        "--attack",
        "24",
        "--defend",
        "5",
        "--fortress",
        "2",
        "--flank",
        "--d6",
        "2",
        "--result",
        "A2",
        "--json",
    ]);
    assert_eq!(code, 0);
    assert_eq!(v["outcome"]["odds"], "2:1");
    assert_eq!(v["outcome"]["defence"], "12");
    assert_eq!(v["outcome"]["result"], "A2");
    assert_eq!(v["outcome"]["entered"], true);
    let (code, v, _) = run_json(&[
        "resolve",
        "spi",
        "combat",
        "--attack",
        "8",
        "--defend",
        "8",
        "--attacker-supply",
        "unsupplied",
        "--defender-supply",
        "isolated",
        "--odds",
        "--json",
    ]);
    assert_eq!(code, 0);
    assert!(v["outcome"].is_null());
    assert!(v["summary"].as_str().unwrap().starts_with("1:1"));
}

#[test]
fn spi_victory_levels() {
    for (net, level) in [
        ("90", "French Marginal Victory"),
        ("120", "Draw"),
        ("-5", "French Decisive Victory"),
        ("250", "German Decisive Victory"),
    ] {
        let (code, v, _) = run_json(&["resolve", "spi", "victory", "--net-vp", net, "--json"]);
        assert_eq!(code, 0, "{net}");
        assert_eq!(v["outcome"]["level"], level);
    }
}

#[test]
fn fr1870_combat_and_storm() {
    let (code, v, _) = run_json(&[
        "resolve", "fr1870", "combat", "--attack", "2", "--defend", "4", "--d6", "4", "--json",
    ]);
    assert_eq!(code, 0);
    assert_eq!(v["outcome"]["odds"], "1:2");
    assert_eq!(v["outcome"]["result"], "AD,DD");
    let (_, v, _) = run_json(&[
        "resolve", "fr1870", "combat", "--attack", "1", "--defend", "5", "--json", "--seed", "3",
    ]);
    assert_eq!(v["outcome"]["result"], "AE");
    let (_, v, _) = run_json(&[
        "resolve",
        "fr1870",
        "combat",
        "--attack",
        "3",
        "--defend",
        "1",
        "--d6",
        "3",
        "--die-mod",
        "-1",
        "--json",
    ]);
    assert_eq!(v["outcome"]["odds"], "3:1");
    assert!(v["outcome"]["result"].is_null());
    assert_eq!(v["outcome"]["modified_die"], 2);
    let (code, v, _) = run_json(&["resolve", "fr1870", "storm", "--d6", "5", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(v["outcome"]["taken"], true);
    let (_, v, _) = run_json(&["resolve", "fr1870", "storm", "--d6", "2", "--json"]);
    assert_eq!(v["outcome"]["taken"], false);
}

#[test]
fn calendars() {
    for (sys, turn, start, end) in [
        ("spi", "1", "1870-08-01", "1870-08-03"),
        ("spi", "11", "1870-08-31", "1870-09-02"),
        ("fr1870", "7", "1870-08-19", "1870-08-21"),
        ("fr1870", "61", "1871-01-28", "1871-01-30"),
    ] {
        let (code, v, _) = run_json(&["calendar", sys, "--turn", turn, "--json"]);
        assert_eq!(code, 0);
        assert_eq!(v["turn"].as_u64().unwrap().to_string(), turn);
        assert_eq!(v["start"], start);
        assert_eq!(v["end"], end);
    }
}

#[test]
fn bad_input_exits_2() {
    for args in [
        &["calendar", "spi", "--turn", "12", "--json"][..],
        &["calendar", "fr1870", "--turn", "0", "--json"][..],
        &[
            "resolve",
            "spi",
            "combat",
            "--attack",
            "5",
            "--defend",
            "5",
            "--attacker-supply",
            "sometimes",
            "--json",
        ][..],
        &[
            "resolve",
            "spi",
            "combat",
            "--attack",
            "5",
            "--defend",
            "5",
            "--attacker-supply",
            "isolated",
            "--json",
        ][..],
        &[
            "resolve", "spi", "combat", "--attack", "0", "--defend", "5", "--json",
        ][..],
        &[
            "resolve", "spi", "combat", "--attack", "5", "--defend", "5", "--d6", "7", "--json",
        ][..],
        &[
            "resolve", "spi", "combat", "--attack", "5", "--defend", "5", "--d6", "2", "--result",
            "Q9", "--json",
        ][..],
        &[
            "resolve", "fr1870", "combat", "--attack", "1", "--defend", "3", "--d6", "6",
            "--result", "DE", "--json",
        ][..],
        &["resolve", "fr1870", "storm", "--value", "2", "--json"][..],
    ] {
        let (code, _, err) = run_json(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(!err.is_empty());
    }
}

/// SPI-I1 in play: "A French Combat unit with a Combat Strength of six ... may be raised to a
/// Combat Strength of eight ... There would be two reinforcing Combat Points remaining."
#[test]
fn spi_raise_at_chalons_in_play() {
    let d = super::common::tmp("crt", "raise");
    let save = super::common::new_game(&d, "spi-1870", "3");
    super::common::ok(&["game", "apply", &save, "lose", "fr-chalons-8", "2"]);
    let out = super::common::ok(&[
        "game",
        "apply",
        &save,
        "--json",
        "raise",
        "fr-chalons-8",
        "--pool",
        "4",
    ]);
    let line: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(line["outcome"]["from"], 6, "{line}");
    assert_eq!(line["outcome"]["to"], 8, "{line}");
    assert_eq!(line["outcome"]["pool_left"], 2, "{line}");
    let show: serde_json::Value =
        serde_json::from_str(&super::common::ok(&["game", "show", &save, "--json"])).unwrap();
    let u = show["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["id"] == "fr-chalons-8")
        .unwrap()
        .clone();
    assert_eq!(u["strength"], 8);
    super::common::ok(&["log", "verify", &save]);
    // A German unit has no French reinforcing points: refused, nothing logged.
    let o = super::common::kepi(&["game", "apply", &save, "raise", "de-1-5-1", "--pool", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("only French units"));
}

/// Issue 46: a chart result typed that is none is refused before anything is resolved, exit 2,
/// naming `--result` and the forms each chart prints (the window's Roll says the same, from the
/// same reading, `kepi::rules::crt::typed_result`), whatever the die or the cell.
#[test]
fn a_typed_result_that_is_none_names_the_option_and_the_accepted_forms() {
    for (args, forms) in [
        (
            &[
                "resolve", "spi", "combat", "--attack", "26", "--defend", "9", "--d6", "4",
                "--result", "BAD",
            ][..],
            &["An/Dn", "AE/Dn", "- (no effect)"][..],
        ),
        (
            &[
                "resolve", "spi", "combat", "--attack", "5", "--defend", "5", "--result", "A1/Q",
            ][..],
            &["An/Dn"][..],
        ),
        (
            &[
                "resolve", "fr1870", "combat", "--attack", "1", "--defend", "3", "--result",
                "AD,XX",
            ][..],
            &["AE, AD, R, DR, DD, DRD, E, DE", "AD,DD"][..],
        ),
    ] {
        let (code, _, err) = run_json(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("--result"), "{args:?}: {err}");
        assert!(err.contains("is not a result of the chart"), "{err}");
        for f in forms {
            assert!(err.contains(f), "{args:?} says {f}: {err}");
        }
    }
    // A result that reads is taken as before.
    let (code, v, err) = run_json(&[
        "resolve", "spi", "combat", "--attack", "26", "--defend", "9", "--d6", "4", "--result",
        "a2", "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["outcome"]["result"], "A2");
}
