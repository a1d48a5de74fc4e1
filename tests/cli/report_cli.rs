//! `kepi report SAVE --json|--html`: the battle as it stands. Undone actions are absent, every entry
//! names its actor and target in their roles, and casualties per side per turn are the sum of the
//! entries' effects (issue 15: the report listed undone actions, named the target as the firer, and
//! its casualties were empty although units had lost figures).

use serde_json::Value;

use crate::common::{kepi, new_game, ok, tmp};

fn report_json(save: &str) -> Value {
    serde_json::from_str(&ok(&["report", save, "--json"])).unwrap()
}

#[test]
fn report_is_what_is_in_effect_with_roles_and_casualties_from_effects() {
    let dir = tmp("report", "roles");
    let save = new_game(&dir, "mars-la-tour", "3");
    ok(&[
        "game",
        "apply",
        &save,
        "fire",
        "12th-grenadiers-1",
        "55e-ligne-1",
        "--range",
        "10",
    ]);
    // A loss by hand, undone: it must not appear, nor count.
    ok(&[
        "game",
        "apply",
        &save,
        "lose",
        "52nd-infantry-1",
        "3",
        "undo",
    ]);
    ok(&[
        "game",
        "apply",
        &save,
        "fire",
        "12th-grenadiers-2",
        "55e-ligne-1",
        "next-phase",
    ]);
    // A French loss by hand that stands: an umpire's correction counts like a result.
    ok(&["game", "apply", &save, "lose", "12th-grenadiers-1", "1"]);

    let r = report_json(&save);
    let entries = r["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 3, "{entries:#?}");
    for e in &entries[..2] {
        assert_eq!(e["action"], "pk fire");
        assert_eq!(e["target"], "I/55e de ligne", "the target in its role");
        assert!(e["actor"].as_str().unwrap().contains("12th Grenadiers"));
        assert!(e["rule"].as_str().unwrap().starts_with("PK-F"));
    }
    assert!(
        entries
            .iter()
            .all(|e| !e["summary"].as_str().unwrap().contains("52nd")),
        "the undone loss is absent"
    );
    assert_eq!(entries[2]["actor"], "I/12th Grenadiers (2nd Brandenburg)");
    assert_eq!(entries[2]["target"], Value::Null);

    // Casualties per side add up to the strength effects, and match the units' losses.
    let mut from_effects = std::collections::BTreeMap::<String, u64>::new();
    for e in entries {
        for x in e["effects"].as_array().unwrap() {
            if x["what"] == "strength" {
                let lost = x["before"].as_u64().unwrap() - x["after"].as_u64().unwrap();
                *from_effects
                    .entry(x["side"].as_str().unwrap().to_string())
                    .or_default() += lost;
            }
        }
    }
    let mut from_casualties = std::collections::BTreeMap::<String, u64>::new();
    for c in r["casualties"].as_array().unwrap() {
        assert_eq!(c["turn"], 1);
        *from_casualties
            .entry(c["side"].as_str().unwrap().to_lowercase())
            .or_default() += c["lost"].as_u64().unwrap();
    }
    assert_eq!(from_effects.get("german"), Some(&1));
    assert!(from_effects.get("french").copied().unwrap_or(0) > 0);
    assert_eq!(from_effects, from_casualties);
    let show: Value = serde_json::from_str(&ok(&["game", "show", &save, "--json"])).unwrap();
    let french_lost: u64 = show["units"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|u| u["side"] == "french")
        .map(|u| u["max_strength"].as_u64().unwrap() - u["strength"].as_u64().unwrap())
        .sum();
    assert_eq!(from_casualties["french"], french_lost);

    // The HTML prints the same: the roles, and no undone action.
    let html_path = dir.join("r.html");
    ok(&["report", &save, "--html", html_path.to_str().unwrap()]);
    let html = std::fs::read_to_string(&html_path).unwrap();
    assert!(
        html.contains("I/12th Grenadiers (2nd Brandenburg) -&gt; I/55e de ligne"),
        "roles in HTML"
    );
    assert!(
        !html.contains("I/52nd Infantry (6th Brandenburg) loses 3"),
        "undone loss absent"
    );
}

#[test]
fn report_output_options_are_exclusive() {
    let dir = tmp("report", "args");
    let save = new_game(&dir, "mars-la-tour", "1");
    let o = kepi(&["report", &save, "--json", "--html", "x.html"]);
    assert_eq!(o.status.code(), Some(2));
    let o = kepi(&["report", &save]);
    assert_eq!(o.status.code(), Some(2));
}
