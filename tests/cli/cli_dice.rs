//! The dice commands' contract: `kepi roll`, `kepi odds`, exit codes (DICE-1..3).

use std::process::Command;

fn kepi(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kepi"))
        .args(args)
        .output()
        .expect("run kepi");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn roll_with_a_seed_is_reproducible_json() {
    let (c1, a, _) = kepi(&["roll", "d%", "--seed", "7", "--json"]);
    let (c2, b, _) = kepi(&["roll", "d%", "--seed", "7", "--json"]);
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
    let (_, out, _) = kepi(&["roll", "2d6", "--seed", "3", "--json"]);
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
    let (code, out, _) = kepi(&["odds", "2d6", "--json"]);
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

#[test]
fn bad_input_exits_2_naming_it() {
    let (code, _, err) = kepi(&["roll", "2x6"]);
    assert_eq!(code, 2);
    assert!(err.contains("2x6"), "{err}");
    let (code, _, err) = kepi(&["roll", "d6", "--seed", "minus"]);
    assert_eq!(code, 2);
    assert!(err.contains("--seed"), "{err}");
    let (code, _, err) = kepi(&["tables", "check", "/no/such/folder"]);
    assert_eq!(code, 2);
    assert!(err.contains("/no/such/folder"), "{err}");
}

#[test]
fn help_lists_the_commands() {
    let (code, out, _) = kepi(&["help"]);
    assert_eq!(code, 0);
    for cmd in ["roll", "odds", "resolve", "tables"] {
        assert!(out.contains(cmd), "help lists {cmd}:\n{out}");
    }
}

#[test]
fn tables_check_reports_the_built_ins() {
    let (code, out, _) = kepi(&["tables", "check"]);
    assert_eq!(code, 0, "{out}");
    for f in ["pk.toml", "pw.toml", "gsp.toml", "spi.toml", "fr1870.toml"] {
        assert!(out.contains(f));
    }
}

#[test]
fn a_broken_table_names_file_line_and_accepted_values() {
    let dir = std::env::temp_dir().join(format!("kepi-bad-tables-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(dir.join("pk.toml"), "system = \"pk\"\nbogus = 1\n").expect("write");
    let (code, _, err) = kepi(&["tables", "check", dir.to_str().expect("utf8")]);
    assert_eq!(code, 2);
    assert!(err.contains("pk.toml:2"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
