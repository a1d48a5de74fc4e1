//! Issue 28 through the real binary: the texts' numbers (1870's board, GSP's crew), the breaches
//! an umpire is warned of (noted before and logged after, the move still made) and the impossible
//! moves refused with exit 2 and nothing logged.

use std::path::PathBuf;

use super::common::{kepi, ok};

fn tmp(name: &str) -> PathBuf {
    super::common::tmp("rules28", name)
}

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok(args)).unwrap()
}

/// 1870, I10: "a unit occupying cell 1640 may besiege Neuf-Brisach and Sélestat simultaneously"
/// (Neuf-Brisach 1541, Sélestat 1741): on 1870's board the three are neighbours.
#[test]
fn hex_distance_on_the_1870_board() {
    for b in ["1541", "1741"] {
        let v = json(&["hex", "distance", "1640", b, "--rules", "fr1870", "--json"]);
        assert_eq!(v["distance"], 1, "1640-{b}: {v}");
    }
    // Situation 1's line 1438 - 1339 - 1239, and Paris's cells 2117, 2216, 2217.
    for (a, b) in [("1438", "1339"), ("1339", "1239"), ("2117", "2216"), ("2117", "2217")] {
        assert_eq!(ok(&["hex", "distance", a, b, "--rules", "fr1870"]).trim(), "1");
    }
    // The default board (odd-q) is unchanged, and the two flags must agree.
    assert_eq!(ok(&["hex", "distance", "1640", "1541"]).trim(), "2");
    assert_eq!(
        ok(&["hex", "distance", "1640", "1541", "--rules", "fr1870", "--layout", "even-q"]).trim(),
        "1"
    );
    for bad in [
        &["hex", "distance", "1640", "1541", "--rules", "fr1870", "--layout", "odd-q"][..],
        &["hex", "distance", "1640", "1541", "--rules", "chess"][..],
        &["hex", "distance", "1640", "1541", "--rules", ""][..],
    ] {
        let o = kepi(bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        assert!(String::from_utf8_lossy(&o.stderr).contains("--"), "{bad:?}");
    }
}

/// GSP-C3: "If the hit die roll was even, the First hit goes on a team horse. If it was odd, on a
/// cannoneer."
#[test]
fn gsp_crew_first_hit_follows_the_die() {
    let out = ok(&["resolve", "gsp", "crew", "--hits", "3", "--d6", "3"]);
    assert!(out.contains("first on a cannoneer"), "{out}");
    let v = json(&["resolve", "gsp", "crew", "--hits", "3", "--d6", "3", "--json"]);
    assert_eq!(v["outcome"]["first"], "cannoneer");
    assert_eq!(v["outcome"]["cannoneers"], 2);
    let v = json(&["resolve", "gsp", "crew", "--hits", "1", "--d6", "2", "--json"]);
    assert_eq!(v["outcome"]["first"], "horse");
}
