//! The `kepi resolve pk ...` JSON contract, on the real binary.

use super::common::run_json;

use serde_json::Value;

fn outcome(args: &[&str]) -> Value {
    let mut a = vec!["resolve", "pk"];
    a.extend_from_slice(args);
    a.push("--json");
    let (code, v, err) = run_json(&a);
    assert_eq!(code, 0, "{args:?}: {err}");
    v["outcome"].clone()
}

fn has_keys(o: &Value, keys: &[&str]) {
    for k in keys {
        assert!(o.get(k).is_some(), "missing `{k}` in {o}");
    }
}

/// PK-X3 worked example (d10 5; the text says 6 but adds 5).
#[test]
fn melee_worked_example() {
    let o = outcome(&[
        "melee",
        "--figures",
        "10",
        "--class",
        "veteran",
        "--flank",
        "--d10",
        "5",
        "--dpct",
        "20",
    ]);
    has_keys(&o, &["lf", "df", "casualties"]);
    assert_eq!(o["lf"], "84");
    assert_eq!(o["lf_value"], 84.0);
    assert_eq!(o["df"], 10);
    assert_eq!(o["casualties"], 8);
}

#[test]
fn fire_contract_with_a_half() {
    let o = outcome(&[
        "fire",
        "--figures",
        "10",
        "--class",
        "veteran",
        "--enfilade",
        "--d10",
        "5",
        "--dpct",
        "90",
    ]);
    has_keys(&o, &["lf", "df", "casualties", "leader_lost"]);
    assert_eq!(o["lf"], "57/2");
    assert_eq!(o["lf_value"], 28.5);
    assert_eq!(o["casualties"], 2);
    assert_eq!(o["leader_lost"], true);
    let none = outcome(&["fire", "--figures", "1", "--class", "line", "--d10", "1"]);
    assert_eq!(none["casualties"], 0);
    assert!(none["leader_lost"].is_null());
}

#[test]
fn fire_is_seeded_and_odds_print_no_outcome() {
    let a = run_json(&[
        "resolve",
        "pk",
        "fire",
        "--figures",
        "12",
        "--class",
        "line",
        "--seed",
        "4",
        "--json",
    ]);
    let b = run_json(&[
        "resolve",
        "pk",
        "fire",
        "--figures",
        "12",
        "--class",
        "line",
        "--seed",
        "4",
        "--json",
    ]);
    assert_eq!(a.1, b.1);
    assert_eq!(a.1["seed"], 4);
    let (code, v, _) = run_json(&[
        "resolve",
        "pk",
        "fire",
        "--figures",
        "12",
        "--class",
        "line",
        "--odds",
        "--json",
    ]);
    assert_eq!(code, 0);
    assert!(v["outcome"].is_null());
    assert!(!v["odds"].as_array().expect("odds").is_empty());
}

#[test]
fn artillery_contract() {
    let o = outcome(&[
        "artillery",
        "--gun",
        "blr",
        "--points",
        "6",
        "--class",
        "line",
        "--range",
        "20",
        "--d10",
        "5",
        "--dpct",
        "50",
    ]);
    has_keys(&o, &["lf", "df", "casualties", "guns_hit", "points_lost"]);
    assert!(o["guns_hit"].is_null() && o["points_lost"].is_null());
    let cb = outcome(&[
        "artillery",
        "--gun",
        "blr",
        "--points",
        "6",
        "--class",
        "line",
        "--range",
        "20",
        "--counter-battery",
        "--target-points",
        "6",
        "--d10",
        "10",
        "--dpct",
        "86",
    ]);
    assert_eq!(cb["guns_hit"], true);
    assert_eq!(cb["points_lost"], 2);
}

#[test]
fn small_rolls_contract() {
    assert_eq!(
        outcome(&["fatigue", "--fatigue", "5", "--d10", "4"])["falls_back"],
        true
    );
    let p = outcome(&[
        "pursuit",
        "--stander-figures",
        "20",
        "--withdrawer-figures",
        "8",
        "--class",
        "veteran",
        "--d10",
        "7",
    ]);
    assert_eq!(
        (p["score"].as_i64(), p["advances"].as_bool()),
        (Some(20), Some(true))
    );
    assert_eq!(
        outcome(&["flag", "--class", "line", "--d10", "6"])["flag_lost"],
        true
    );
    let r = outcome(&[
        "rally",
        "--class",
        "veteran",
        "--leaders-lost",
        "1",
        "--officer",
        "general",
        "--d10",
        "9",
    ]);
    assert_eq!(
        (r["score"].as_i64(), r["figures_back"].as_i64()),
        (Some(10), Some(2))
    );
    assert_eq!(
        outcome(&["initiative", "--dpct-a", "40", "--dpct-b", "70"])["first"],
        "b"
    );
    assert_eq!(
        outcome(&["initiative", "--dpct", "70", "--dpct", "70"])["first"],
        "tie"
    );
    let both = outcome(&[
        "melee-both",
        "--a-figures",
        "12",
        "--a-class",
        "elite",
        "--a-charge",
        "--b-figures",
        "10",
        "--b-class",
        "line",
        "--d10",
        "7",
        "--d10",
        "9",
        "--dpct",
        "10",
        "--dpct",
        "10",
    ]);
    assert_eq!(both["a"]["casualties"], 2);
    assert_eq!(both["b"]["casualties"], 1);
    assert_eq!(both["loser"], "b");
}

#[test]
fn bad_input_exits_2() {
    for args in [
        vec![
            "resolve",
            "pk",
            "fire",
            "--figures",
            "10",
            "--class",
            "sergeant",
            "--json",
        ],
        vec![
            "resolve",
            "pk",
            "fire",
            "--figures",
            "10",
            "--class",
            "line",
            "--range",
            "100",
            "--json",
        ],
        vec![
            "resolve",
            "pk",
            "fire",
            "--figures",
            "0",
            "--class",
            "line",
            "--json",
        ],
        vec![
            "resolve",
            "pk",
            "artillery",
            "--gun",
            "blr",
            "--points",
            "6",
            "--class",
            "line",
            "--range",
            "61",
            "--json",
        ],
        vec![
            "resolve",
            "pk",
            "melee",
            "--figures",
            "10",
            "--class",
            "line",
            "--ranks",
            "3",
            "--json",
        ],
        vec![
            "resolve",
            "pk",
            "fire",
            "--figures",
            "10",
            "--class",
            "line",
            "--d10",
            "11",
            "--json",
        ],
    ] {
        let (code, _, err) = run_json(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(!err.is_empty());
    }
}

/// PK-U1, PK-C1 in play: "it takes 1 URT to change formation which means an elite unit takes 1/3
/// move while a line unit takes ½ move": `urt UNIT --activity ...` reads the class off the card,
/// logs the time with both tables' lines, and `log verify` resolves it again.
#[test]
fn urt_of_an_activity_is_offered_in_play() {
    let d = super::common::tmp("pk", "urt");
    let save = super::common::new_game(&d, "mars-la-tour", "2");
    let line = |unit: &str, more: &[&str]| -> serde_json::Value {
        let mut args = vec!["game", "apply", &save, "--json", "urt", unit];
        args.extend_from_slice(more);
        serde_json::from_str(super::common::ok(&args).lines().next().unwrap()).unwrap()
    };
    let elite = line("3rd-jaeger", &["--activity", "change-formation"]);
    assert_eq!(elite["outcome"]["of_a_move"], "1/3", "{elite}");
    let l = line("66e-ligne-1", &["--activity", "change-formation"]);
    assert_eq!(l["outcome"]["of_a_move"], "1/2", "{l}");
    // A battalion in line pivots 30 degrees per URT: 45 degrees rounds up to 2 URTs.
    let p = line(
        "66e-ligne-1",
        &["--activity", "pivot-battalion", "--amount", "45"],
    );
    assert_eq!(p["outcome"]["urts"], "2", "{p}");
    assert_eq!(p["outcome"]["of_a_move"], "1", "{p}");
    super::common::ok(&["log", "verify", &save]);
    let o = super::common::kepi(&["game", "apply", &save, "urt", "66e-ligne-1"]);
    assert_eq!(o.status.code(), Some(2), "--activity is required");
}

/// Issue 46: one figure back is "1 figure back", in the odds and in the result ("1 figures
/// back" before).
#[test]
fn rally_says_one_figure_in_the_singular() {
    let mut found = false;
    for d in 1..=10 {
        let d = d.to_string();
        let (code, v, err) = run_json(&[
            "resolve", "pk", "rally", "--class", "line", "--d10", &d, "--json",
        ]);
        assert_eq!(code, 0, "{err}");
        let text = v.to_string();
        assert!(!text.contains("1 figures"), "{text}");
        if v["outcome"]["figures_back"] == 1 {
            assert!(
                v["summary"].as_str().unwrap().ends_with(": 1 figure back"),
                "{}",
                v["summary"]
            );
            found = true;
        }
    }
    let (_, v, _) = run_json(&["resolve", "pk", "rally", "--class", "line", "--json"]);
    let odds: Vec<&str> = v["odds"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|o| o["outcome"].as_str())
        .collect();
    assert!(odds.contains(&"1 figure back"), "{odds:?}");
    assert!(found || odds.contains(&"1 figure back"));
}
