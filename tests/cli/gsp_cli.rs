//! The `kepi resolve gsp ...` JSON contract, through the real binary.

use super::common::run_json;

#[test]
fn fire_one_gun_shell_with_aoa() {
    let (code, v, err) = run_json(&[
        "resolve",
        "gsp",
        "fire",
        "--gun",
        "prussian-4-6pdr-shell",
        "--sector",
        "3",
        "--cover",
        "woods",
        "--d6",
        "4",
        "--aoa",
        "1,1",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let o = &v["outcome"];
    assert_eq!(o["hit"], true);
    assert_eq!(o["personnel_hits"], 3);
    assert_eq!(o["landing"], "over-left");
    assert_eq!(v["system"], "gsp");
    assert_eq!(o["drift"]["cells"].as_array().unwrap().len(), 9);
}

#[test]
fn fire_direct_has_null_landing_and_miss() {
    let (code, v, _) = run_json(&[
        "resolve",
        "gsp",
        "fire",
        "--gun",
        "mitrailleuse",
        "--sector",
        "1",
        "--d6",
        "6",
        "--json",
    ]);
    assert_eq!(code, 0);
    assert_eq!(v["outcome"]["hit"], true);
    assert_eq!(v["outcome"]["personnel_hits"], 6);
    assert!(v["outcome"]["landing"].is_null());
    let (_, v, _) = run_json(&[
        "resolve",
        "gsp",
        "fire",
        "--gun",
        "french-4pdr-ap",
        "--sector",
        "1",
        "--d6",
        "1",
        "--json",
    ]);
    assert_eq!(v["outcome"]["hit"], false);
    assert_eq!(v["outcome"]["personnel_hits"], 0);
    assert!(v["outcome"]["landing"].is_null());
}

#[test]
fn fire_battery_by_range() {
    let (code, v, err) = run_json(&[
        "resolve",
        "gsp",
        "fire",
        "--gun",
        "prussian-siege",
        "--range",
        "121.92cm",
        "--guns",
        "2",
        "--d6",
        "5",
        "--d6",
        "1",
        "--aoa",
        "6,6",
        "--at",
        "over-right:infantry=3,cavalry=2",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let guns = v["outcome"]["guns"].as_array().unwrap();
    assert_eq!(guns.len(), 2);
    assert_eq!(guns[0]["landing"], "over-right");
    assert_eq!(guns[0]["personnel_hits"], 5);
    assert_eq!(guns[1]["hit"], false);
    assert!(guns[1]["landing"].is_null());
    let cells = v["outcome"]["cells"].as_array().unwrap();
    let c = cells.iter().find(|c| c["cell"] == "over-right").unwrap();
    assert_eq!(c["casualties"]["infantry"], 3);
    assert_eq!(c["casualties"]["cavalry"], 2);
}

#[test]
fn fire_odds_only() {
    let (code, v, _) = run_json(&[
        "resolve",
        "gsp",
        "fire",
        "--gun",
        "prussian-4-6pdr-shell",
        "--sector",
        "3",
        "--odds",
        "--json",
    ]);
    assert_eq!(code, 0);
    assert!(v["outcome"].is_null());
    let miss = v["odds"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["outcome"] == "miss")
        .unwrap();
    assert_eq!(miss["p"], "1/3");
}

#[test]
fn structure_and_crew() {
    let (code, v, _) = run_json(&[
        "resolve",
        "gsp",
        "structure",
        "--kind",
        "small-building",
        "--damage-so-far",
        "7",
        "--pips",
        "3",
        "--json",
    ]);
    assert_eq!(code, 0);
    assert_eq!(v["outcome"]["total"], 10);
    assert_eq!(v["outcome"]["destroyed"], true);
    let (code, v, _) = run_json(&[
        "resolve", "gsp", "crew", "--d6", "3", "--hits", "3", "--json",
    ]);
    assert_eq!(code, 0);
    assert_eq!(v["outcome"]["horses"], 1);
    assert_eq!(v["outcome"]["cannoneers"], 2);
}

#[test]
fn bad_input_exits_2() {
    for args in [
        &[
            "resolve",
            "gsp",
            "fire",
            "--gun",
            "mitrailleuse",
            "--sector",
            "1",
            "--d6",
            "7",
            "--json",
        ][..],
        &[
            "resolve",
            "gsp",
            "fire",
            "--gun",
            "mitrailleuse",
            "--sector",
            "1",
            "--no-los",
        ][..],
        &[
            "resolve",
            "gsp",
            "fire",
            "--gun",
            "prussian-siege",
            "--sector",
            "4",
            "--hidden",
        ][..],
        &["resolve", "gsp", "fire", "--gun", "cannon", "--sector", "1"][..],
        &[
            "resolve",
            "gsp",
            "fire",
            "--gun",
            "mitrailleuse",
            "--sector",
            "9",
        ][..],
        &[
            "resolve",
            "gsp",
            "fire",
            "--gun",
            "prussian-siege",
            "--sector",
            "4",
            "--aoa",
            "3,4",
        ][..],
        &[
            "resolve",
            "gsp",
            "fire",
            "--gun",
            "prussian-siege",
            "--sector",
            "4",
            "--d6",
            "3",
            "--aoa",
            "3,9",
        ][..],
        &["resolve", "gsp", "crew", "--d6", "2", "--hits", "3"][..],
        &[
            "resolve",
            "gsp",
            "structure",
            "--kind",
            "tower",
            "--pips",
            "3",
        ][..],
    ] {
        let (code, _, err) = run_json(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(!err.is_empty());
    }
}
