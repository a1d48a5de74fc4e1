//! The real `kepi` binary: `kepi resolve pw ...` and `kepi hex ...` JSON contracts and exit codes.

use super::common::{json, kepi};

use serde_json::Value;

fn odds_total_is_one(v: &Value) {
    // every p is "num/den"; add them exactly with a common denominator
    let mut num: i128 = 0;
    let mut den: i128 = 1;
    for o in v["odds"].as_array().unwrap() {
        let p = o["p"].as_str().unwrap();
        let (n, d) = p.split_once('/').unwrap_or((p, "1"));
        let (n, d): (i128, i128) = (n.parse().unwrap(), d.parse().unwrap());
        num = num * d + n * den;
        den *= d;
    }
    assert_eq!(num, den, "odds {v}");
}

#[test]
fn activate_contract() {
    let v = json(&[
        "resolve", "pw", "activate", "--army", "prussian", "--d6", "2", "--json",
    ]);
    assert_eq!(v["outcome"]["score"], 2);
    assert_eq!(v["outcome"]["active"], true);
    odds_total_is_one(&v);
    let v = json(&[
        "resolve",
        "pw",
        "activate",
        "--army",
        "german",
        "--quality",
        "poor",
        "--d6",
        "3",
        "--json",
    ]);
    assert_eq!(v["outcome"]["score"], 2);
    assert_eq!(v["outcome"]["active"], false);
    assert_eq!(v["modifiers"][0]["rule"], "PW-T2");
}

#[test]
fn artillery_contract() {
    let v = json(&[
        "resolve",
        "pw",
        "artillery",
        "--army",
        "french-imperial",
        "--sp",
        "4",
        "--target-cover",
        "--d6",
        "5",
        "--json",
    ]);
    // 5 - 1 (Imperial) - 1 (cover) + 1 (SP 4) = 4: a hit
    assert_eq!(v["outcome"]["score"], 4);
    assert_eq!(v["outcome"]["hits"], 1);
    assert_eq!(v["system"], "pw");
    odds_total_is_one(&v);
}

#[test]
fn rifle_contract() {
    let v = json(&[
        "resolve", "pw", "rifle", "--sp", "4", "--moved", "--d6", "3", "--json",
    ]);
    assert_eq!(v["outcome"]["score"], 3);
    assert_eq!(v["outcome"]["hits"], 0);
    odds_total_is_one(&v);
}

#[test]
fn melee_contract() {
    let v = json(&[
        "resolve",
        "pw",
        "melee",
        "--unit",
        "cavalry",
        "--sp",
        "2",
        "--enemy",
        "artillery",
        "--attacking-flank",
        "--d6",
        "6",
        "--json",
    ]);
    assert_eq!(v["outcome"]["score"], 9);
    assert_eq!(v["outcome"]["hits"], 2);
    odds_total_is_one(&v);
    let v = json(&[
        "resolve",
        "pw",
        "melee",
        "--unit",
        "infantry",
        "--sp",
        "3",
        "--enemy",
        "infantry",
        "--attacked-flank",
        "--enemy-uphill",
        "--enemy-cover",
        "--odds",
        "--json",
    ]);
    assert!(v["outcome"].is_null());
    odds_total_is_one(&v);
}

#[test]
fn defeat_contract() {
    let v = json(&[
        "resolve",
        "pw",
        "defeat",
        "--sp-lost",
        "11",
        "--sp-total",
        "20",
        "--units-lost",
        "1",
        "--units-total",
        "6",
        "--json",
    ]);
    assert_eq!(v["outcome"]["defeated"], true);
    assert_eq!(v["odds"].as_array().unwrap().len(), 1);
    odds_total_is_one(&v);
    let v = json(&[
        "resolve",
        "pw",
        "defeat",
        "--sp-lost",
        "10",
        "--sp-total",
        "20",
        "--units-lost",
        "3",
        "--units-total",
        "6",
        "--json",
    ]);
    assert_eq!(v["outcome"]["defeated"], false);
}

#[test]
fn seeded_roll_replays() {
    let a = json(&[
        "resolve", "pw", "rifle", "--sp", "3", "--seed", "42", "--json",
    ]);
    let b = json(&[
        "resolve", "pw", "rifle", "--sp", "3", "--seed", "42", "--json",
    ]);
    assert_eq!(a["outcome"], b["outcome"]);
    assert_eq!(a["seed"], 42);
}

#[test]
fn bad_input_exits_2() {
    for args in [
        &["resolve", "pw", "activate", "--army", "austrian", "--json"][..],
        &[
            "resolve",
            "pw",
            "artillery",
            "--army",
            "prussian",
            "--sp",
            "0",
            "--json",
        ],
        &[
            "resolve",
            "pw",
            "artillery",
            "--army",
            "prussian",
            "--sp",
            "4",
            "--range",
            "13",
        ],
        &["resolve", "pw", "rifle", "--sp", "4", "--unit", "cavalry"],
        &["resolve", "pw", "rifle", "--sp", "4", "--d6", "7"],
        &[
            "resolve",
            "pw",
            "defeat",
            "--sp-lost",
            "5",
            "--sp-total",
            "4",
            "--units-lost",
            "0",
            "--units-total",
            "1",
        ],
        &["hex", "distance", "0304", "zz99"],
        &["hex", "line", "0304", "123"],
        &["hex", "los", "0101", "0104", "--height", "0102"],
    ] {
        let out = kepi(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty());
    }
    let out = kepi(&["hex", "distance", "0304", "zz99"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("zz99"));
    let out = kepi(&[
        "resolve",
        "pw",
        "artillery",
        "--army",
        "prussian",
        "--sp",
        "0",
    ]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("--sp"));
}

#[test]
fn hex_distance_and_line() {
    let v = json(&["hex", "distance", "0304", "0507", "--json"]);
    assert_eq!(v["distance"], 4);
    let v = json(&["hex", "distance", "0,0", "-2,1", "--json"]);
    assert_eq!(v["distance"], 2);
    let out = kepi(&["hex", "distance", "0000", "1000"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "10");
    let v = json(&["hex", "line", "0101", "0104", "--json"]);
    assert_eq!(
        v["hexes"],
        serde_json::json!(["0101", "0102", "0103", "0104"])
    );
    let v = json(&["hex", "neighbours", "0304", "--json"]);
    let n: Vec<&str> = v["neighbours"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["hex"].as_str().unwrap())
        .collect();
    assert_eq!(n, ["0303", "0404", "0405", "0305", "0205", "0204"]);
    let v = json(&["hex", "los", "0101", "0104", "--height", "0102=1", "--json"]);
    assert_eq!(v["clear"], false);
    assert_eq!(v["blocking"], serde_json::json!(["0102"]));
    let v = json(&[
        "hex", "distance", "0304", "0507", "--layout", "even-q", "--json",
    ]);
    assert_eq!(v["distance"], 4);
}

/// Issue 46: a target one hex away is "1 hex away" ("1 hexes" before); two are "2 hexes".
#[test]
fn one_hex_is_singular() {
    let v = json(&[
        "resolve",
        "pw",
        "rifle",
        "--sp",
        "4",
        "--unit",
        "french-infantry",
        "--range",
        "1",
        "--json",
    ]);
    let labels: Vec<&str> = v["modifiers"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["label"].as_str())
        .collect();
    assert!(
        labels.contains(&"target 1 hex away: in range"),
        "{labels:?}"
    );
    assert!(!v.to_string().contains("1 hexes"), "{v}");
    let v = json(&[
        "resolve",
        "pw",
        "rifle",
        "--sp",
        "4",
        "--unit",
        "french-infantry",
        "--range",
        "2",
        "--json",
    ]);
    assert!(v.to_string().contains("target 2 hexes away"), "{v}");
}
