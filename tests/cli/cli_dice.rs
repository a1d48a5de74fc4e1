//! The dice commands' contract: `kepi roll`, `kepi odds`, exit codes (DICE-1..3).

use super::common::{run, tmp};

#[test]
fn roll_with_a_seed_is_reproducible_json() {
    let (c1, a, _) = run(&["roll", "d%", "--seed", "7", "--json"]);
    let (c2, b, _) = run(&["roll", "d%", "--seed", "7", "--json"]);
    assert_eq!((c1, c2), (0, 0));
    assert_eq!(a, b);
    let v: serde_json::Value = serde_json::from_str(&a).expect("json");
    assert_eq!(v["expr"], "d%");
    assert_eq!(v["seed"], 7);
    let total = v["total"].as_i64().expect("total");
    assert!((1..=100).contains(&total));
    assert_eq!(v["dice"].as_array().map(Vec::len), Some(1));
}

#[test]
fn two_d6_keeps_both_dice() {
    let (_, out, _) = run(&["roll", "2d6", "--seed", "3", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let dice: Vec<i64> = v["dice"]
        .as_array()
        .expect("dice")
        .iter()
        .filter_map(|d| d.as_i64())
        .collect();
    assert_eq!(dice.len(), 2);
    assert_eq!(
        dice.iter().sum::<i64>(),
        v["total"].as_i64().expect("total")
    );
}

#[test]
fn odds_of_seven_on_2d6_is_one_sixth() {
    let (code, out, _) = run(&["odds", "2d6", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let seven = v["outcomes"]
        .as_array()
        .expect("outcomes")
        .iter()
        .find(|o| o["value"] == 7)
        .expect("7");
    assert_eq!(seven["p"], "1/6");
}

/// Every "p" of `kepi odds EXPR --json` as (value, numerator, denominator).
fn odds_json(expr: &str) -> Vec<(i64, num_bigint::BigUint, num_bigint::BigUint)> {
    let (code, out, err) = run(&["odds", expr, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["expr"], expr);
    v["outcomes"]
        .as_array()
        .expect("outcomes")
        .iter()
        .map(|o| {
            let p = o["p"].as_str().expect("p is a string");
            let (n, d) = p.split_once('/').expect("num/den");
            (
                o["value"].as_i64().expect("value"),
                n.parse().expect("numerator"),
                d.parse().expect("denominator"),
            )
        })
        .collect()
}

/// The fractions sum to exactly 1 over the common denominator `total`.
fn sums_to_one(
    lines: &[(i64, num_bigint::BigUint, num_bigint::BigUint)],
    total: &num_bigint::BigUint,
) {
    let mut sum = num_bigint::BigUint::ZERO;
    for (_, n, d) in lines {
        assert_eq!(total % d, num_bigint::BigUint::ZERO);
        sum += n * (total / d);
    }
    assert_eq!(&sum, total);
}

#[test]
fn odds_of_100d2_are_exact_beyond_64_bits() {
    let lines = odds_json("100d2");
    assert_eq!(lines.len(), 101);
    let total = num_bigint::BigUint::from(2u8).pow(100);
    sums_to_one(&lines, &total);
    // C(100,50) by the multiplicative formula, an independent route to the middle count.
    let mut c = num_bigint::BigUint::from(1u8);
    for k in 1..=50u32 {
        c = c * (50 + k) / k;
    }
    let (_, n, d) = lines.iter().find(|l| l.0 == 150).expect("150");
    assert_eq!(n * &total, c * d);
    let (code, text, _) = run(&["odds", "100d2"]);
    assert_eq!(code, 0);
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("150 "))
        .expect("150 line");
    assert!(line.contains("8.0%"), "{line}");
}

#[test]
fn odds_of_100d6_are_exact_beyond_128_bits() {
    let lines = odds_json("100d6");
    assert_eq!(lines.len(), 501);
    assert_eq!((lines[0].0, lines[500].0), (100, 600));
    let total = num_bigint::BigUint::from(6u8).pow(100);
    sums_to_one(&lines, &total);
    // Only one way to roll 100 ones.
    assert_eq!(
        (&lines[0].1, &lines[0].2),
        (&num_bigint::BigUint::from(1u8), &total)
    );
}

#[test]
fn odds_too_large_exit_2_naming_the_limit() {
    let (code, _, err) = run(&["odds", "1000000d6"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("1000000d6") && err.contains("100 dice"),
        "{err}"
    );
}

#[test]
fn bad_input_exits_2_naming_it() {
    let (code, _, err) = run(&["roll", "2x6"]);
    assert_eq!(code, 2);
    assert!(err.contains("2x6"), "{err}");
    let (code, _, err) = run(&["roll", "d6", "--seed", "minus"]);
    assert_eq!(code, 2);
    assert!(err.contains("--seed"), "{err}");
    let (code, _, err) = run(&["tables", "check", "/no/such/folder"]);
    assert_eq!(code, 2);
    assert!(err.contains("/no/such/folder"), "{err}");
}

#[test]
fn help_lists_the_commands() {
    let (code, out, _) = run(&["help"]);
    assert_eq!(code, 0);
    for cmd in ["roll", "odds", "resolve", "tables"] {
        assert!(out.contains(cmd), "help lists {cmd}:\n{out}");
    }
}

#[test]
fn tables_check_reports_the_built_ins() {
    let (code, out, _) = run(&["tables", "check"]);
    assert_eq!(code, 0, "{out}");
    for f in ["pk.toml", "pw.toml", "gsp.toml", "spi.toml", "fr1870.toml"] {
        assert!(out.contains(f));
    }
}

#[test]
fn a_broken_table_names_file_line_and_accepted_values() {
    let dir = tmp("cli-dice", "bad-tables");
    std::fs::write(dir.join("pk.toml"), "system = \"pk\"\nbogus = 1\n").expect("write");
    let (code, _, err) = run(&["tables", "check", dir.to_str().expect("utf8")]);
    assert_eq!(code, 2);
    assert!(err.contains("pk.toml:2"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
