//! Issue 30: a campaign on the board, its battles on the table. An SPI or 1870 combat fought as a
//! P&K or PW battle (`kepi campaign battle`), its losses carried back (`kepi campaign return`),
//! abandoned (`kepi campaign abandon`), and every bad input refused with nothing applied.

use std::collections::BTreeMap;
use std::path::Path;

use super::common::{METZ_FORTRESS, due, json, kepi, ok, tmp};

/// Every file of a folder and its bytes (lock files apart: taking a lock is not a change).
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| !e.file_name().to_string_lossy().ends_with(".lock"))
        .filter(|e| e.path().is_file())
        .map(|e| {
            (
                e.file_name().to_string_lossy().to_string(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

/// Runs kepi, which must refuse with exit 2 naming `needle`; the folder is byte-identical after.
fn refused(dir: &Path, args: &[&str], needle: &str) -> String {
    let before = files(dir);
    let o = kepi(args);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(o.status.code(), Some(2), "kepi {args:?}: {err}");
    assert!(
        err.contains(needle),
        "kepi {args:?}: `{needle}` not in {err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(files(dir), before, "kepi {args:?} changed files");
    err
}

fn unit(save: &str, id: &str) -> serde_json::Value {
    let show = json(&["game", "show", save, "--json"]);
    show["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["id"] == id)
        .unwrap_or_else(|| panic!("no {id}"))
        .clone()
}

/// An SPI campaign: two German corps in 1010 and 1110 next to the French corps of Metz in 1011.
fn spi_campaign(dir: &Path) -> String {
    let save = super::common::new_game(dir, "spi-1870", "5");
    ok(&[
        "game",
        "apply",
        &save,
        "move",
        "de-3-3-1",
        "1010",
        "move",
        "de-3-3-2",
        "1110",
        "move",
        "fr-metz-5",
        "1011",
    ]);
    save
}

/// Sum of the table units' strength per board unit.
fn sums(units: &serde_json::Value) -> BTreeMap<String, u64> {
    let mut m = BTreeMap::new();
    for u in units.as_array().unwrap() {
        *m.entry(u["from"].as_str().unwrap().to_string())
            .or_default() += u["strength"].as_u64().unwrap();
    }
    m
}

fn loss(out: &serde_json::Value, id: &str) -> u64 {
    out["losses"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["unit"] == id)
        .unwrap()["lost"]
        .as_u64()
        .unwrap()
}

/// The done-when of issue 30 for SPI: the battle's units add up to the board's strength by the
/// table (SPI: 2 units a CP; PW 4 SP, P&K 20 figures a battalion), losses come back rounded as the
/// table says (nearest, a half up), the campaign's log names the battle's head, both logs verify.
#[test]
fn an_spi_combat_fought_as_a_pw_and_a_pk_battle_comes_back_by_the_table() {
    for (rules, per_unit) in [("pw", 4u64), ("pk", 20)] {
        let d = tmp("campaign", &format!("spi-{rules}"));
        let c = spi_campaign(&d);
        let b = d.join("battle.json").display().to_string();
        let out = json(&[
            "campaign",
            "battle",
            &c,
            "--attackers",
            "de-3-3-1,de-3-3-2",
            "--hex",
            "1011",
            "--rules",
            rules,
            "--out",
            &b,
            "--seed",
            "7",
            "--json",
        ]);
        assert_eq!(out["hex"], "1011");
        assert!(out["battle"].as_str().unwrap().ends_with("battle.json"));
        assert!(out["campaign"].as_str().unwrap().ends_with("g.json"));
        let s = sums(&out["units"]);
        assert_eq!(s["de-3-3-1"], 3 * 2 * per_unit, "{rules}");
        assert_eq!(s["de-3-3-2"], 3 * 2 * per_unit, "{rules}");
        assert_eq!(s["fr-metz-5"], 5 * 2 * per_unit, "{rules}");
        let side_of = |from: &str| {
            out["units"]
                .as_array()
                .unwrap()
                .iter()
                .find(|u| u["from"] == from)
                .unwrap()["side"]
                .clone()
        };
        assert_eq!(side_of("de-3-3-1"), "german");
        assert_eq!(side_of("fr-metz-5"), "french");
        // The battle is a game of the engaged units, dated by the campaign's calendar.
        let show = json(&["game", "show", &b, "--json"]);
        assert_eq!(show["system"], rules);
        assert_eq!(show["date"], "1870-08-01");
        assert_eq!(show["units"].as_array().unwrap().len(), 22);
        assert!(show["title"].as_str().unwrap().contains("1011"));
        // The campaign: a due check "battle pending", listed by status.
        let pending = due(&c);
        assert!(
            pending.iter().any(|x| x["rule"] == "CAMP-B1"),
            "{pending:?}"
        );
        let st = json(&["campaign", "status", &c, "--json"]);
        assert_eq!(st["pending"].as_array().unwrap().len(), 1);
        assert_eq!(st["pending"][0]["hex"], "1011");
        // The campaign goes on elsewhere meanwhile.
        ok(&["game", "apply", &c, "move", "de-1-5-1", "0505"]);
        // Losses on the table: de-3-3-1 loses 1 unit and a bit (just over one CP's worth: rounds
        // to 1); fr-metz-5 three units (1.5 CP: rounds up to 2).
        let lose = |id: &str, n: u64| {
            ok(&["game", "apply", &b, "lose", id, &n.to_string()]);
        };
        lose("de-3-3-1-1", per_unit);
        lose("de-3-3-1-2", per_unit);
        lose("de-3-3-1-3", 1);
        lose("fr-metz-5-1", per_unit);
        lose("fr-metz-5-2", per_unit);
        lose("fr-metz-5-3", per_unit);
        let bhead = json(&["game", "show", &b, "--json"])["head"]
            .as_str()
            .unwrap()
            .to_string();
        // Shown before it is applied: nothing changes.
        let before = files(&d);
        let dry = json(&[
            "campaign",
            "return",
            &b,
            "--winner",
            "german",
            "--dry-run",
            "--json",
        ]);
        assert_eq!(files(&d), before, "--dry-run applied something");
        assert_eq!(loss(&dry, "de-3-3-1"), 1);
        assert_eq!(loss(&dry, "de-3-3-2"), 0);
        assert_eq!(loss(&dry, "fr-metz-5"), 2);
        let back = json(&["campaign", "return", &b, "--winner", "german", "--json"]);
        assert_eq!(back["losses"], dry["losses"]);
        assert_eq!(unit(&c, "de-3-3-1")["strength"], 2);
        assert_eq!(unit(&c, "fr-metz-5")["strength"], 3);
        let chead = back["head"].as_str().unwrap();
        assert_eq!(json(&["game", "show", &c, "--json"])["head"], chead);
        // The campaign's log names the battle's save and head; both logs verify, the battle's
        // against the head the campaign names.
        let log = json(&["log", "show", &c, "--json"]);
        let last = log.as_array().unwrap().last().unwrap().clone();
        let summary = last["summary"].as_str().unwrap();
        assert!(summary.contains(&bhead), "{summary}");
        assert!(summary.contains("battle.json"), "{summary}");
        assert!(
            !due(&c).iter().any(|x| x["rule"] == "CAMP-B1"),
            "the return does the pending check"
        );
        ok(&["log", "verify", &c, "--expect-head", chead]);
        ok(&["log", "verify", &b, "--expect-head", &bhead]);
        // Returned twice: refused, nothing applied.
        refused(
            &d,
            &["campaign", "return", &b, "--winner", "german"],
            "already returned",
        );
    }
}

/// Abandoning the battle resolves the combat on the chart: the pending check is answered by the
/// combat, and the battle can no longer come back.
#[test]
fn abandoning_a_battle_resolves_the_combat_on_the_chart() {
    let d = tmp("campaign", "spi-abandon");
    let c = spi_campaign(&d);
    let b = d.join("b.json").display().to_string();
    ok(&[
        "campaign",
        "battle",
        &c,
        "--attackers",
        "de-3-3-1,de-3-3-2",
        "--hex",
        "1011",
        "--rules",
        "pk",
        "--out",
        &b,
        "--seed",
        "1",
    ]);
    ok(&[
        "campaign", "abandon", &b, "--", "--dice", "d6=4", "--result", "D1",
    ]);
    assert!(
        due(&c).iter().all(|x| x["rule"] != "CAMP-B1"),
        "{:?}",
        due(&c)
    );
    assert_eq!(unit(&c, "fr-metz-5")["strength"], 4);
    let st = json(&["campaign", "status", &c, "--json"]);
    assert!(st["pending"].as_array().unwrap().is_empty());
    ok(&["log", "verify", &c]);
    refused(&d, &["campaign", "return", &b, "--draw"], "is gone");
}

fn fr_campaign(dir: &Path) -> String {
    let sc = dir.join("metz.toml");
    std::fs::write(&sc, METZ_FORTRESS).unwrap();
    let save = dir.join("f.json").display().to_string();
    ok(&[
        "game",
        "new",
        "--scenario",
        &sc.display().to_string(),
        "--out",
        &save,
        "--seed",
        "3",
    ]);
    save
}

/// 1870 with a fortress in the hex (FR-F1): its coefficient becomes batteries of fortress guns,
/// which lose it nothing; the loser retreats (FR-C2 "must retreat") and the victor may occupy
/// the vacated cell; the date is the campaign calendar's (cell 6: 16 August).
#[test]
fn an_1870_combat_on_a_fortress_fought_as_a_battle() {
    for (rules, per_unit) in [("pw", 4u64), ("pk", 20)] {
        let d = tmp("campaign", &format!("fr-{rules}"));
        let c = fr_campaign(&d);
        let b = d.join("battle.json").display().to_string();
        let out = json(&[
            "campaign",
            "battle",
            &c,
            "--attackers",
            "de-vii,de-1b",
            "--hex",
            "1011",
            "--rules",
            rules,
            "--out",
            &b,
            "--json",
        ]);
        let s = sums(&out["units"]);
        let fort = if rules == "pk" { 6 } else { 4 };
        assert_eq!(s["de-vii"], 4 * 3 * per_unit);
        assert_eq!(s["de-1b"], 3 * 3 * per_unit);
        assert_eq!(s["fr-3"], 2 * 3 * per_unit);
        assert_eq!(s["fort-metz"], 2 * fort);
        assert_eq!(json(&["game", "show", &b, "--json"])["date"], "1870-08-16");
        // The French division loses 4 of its 6 battalions (4/3 points: 1), the fortress's guns
        // are silenced (nothing), VII loses 2 battalions (2/3: 1).
        for k in 1..=4 {
            ok(&[
                "game",
                "apply",
                &b,
                "lose",
                &format!("fr-3-{k}"),
                &per_unit.to_string(),
            ]);
        }
        ok(&[
            "game",
            "apply",
            &b,
            "lose",
            "fort-metz-1",
            &fort.to_string(),
        ]);
        ok(&[
            "game",
            "apply",
            &b,
            "lose",
            "de-vii-1",
            &per_unit.to_string(),
        ]);
        ok(&[
            "game",
            "apply",
            &b,
            "lose",
            "de-vii-2",
            &per_unit.to_string(),
        ]);
        let back = json(&["campaign", "return", &b, "--winner", "german", "--json"]);
        assert_eq!(loss(&back, "fr-3"), 1);
        assert_eq!(loss(&back, "fort-metz"), 0);
        assert_eq!(loss(&back, "de-vii"), 1);
        assert_eq!(loss(&back, "de-1b"), 0);
        assert_eq!(unit(&c, "fr-3")["strength"], 1);
        assert_eq!(unit(&c, "fort-metz")["strength"], 2);
        let fr3 = unit(&c, "fr-3");
        assert!(fr3.to_string().contains("must-retreat"), "{fr3}");
        let checks = due(&c);
        assert!(
            checks
                .iter()
                .any(|x| x["rule"] == "FR-C2" && x["unit"] == "fr-3"),
            "{checks:?}"
        );
        assert!(
            checks
                .iter()
                .any(|x| x["rule"] == "FR-C2" && x["hex"] == "1011" && x["side"] == "german"),
            "{checks:?}"
        );
        ok(&["log", "verify", &c]);
        ok(&["log", "verify", &b]);
    }
}

/// 1870 abandoned: the combat on the chart answers the pending battle.
#[test]
fn an_1870_battle_abandoned_is_resolved_on_the_chart() {
    let d = tmp("campaign", "fr-abandon");
    let c = fr_campaign(&d);
    let b = d.join("b.json").display().to_string();
    ok(&[
        "campaign",
        "battle",
        &c,
        "--attackers",
        "de-vii,de-1b",
        "--hex",
        "1011",
        "--rules",
        "pw",
        "--out",
        &b,
    ]);
    ok(&[
        "campaign", "abandon", &b, "--", "--dice", "d6=4", "--result", "DR",
    ]);
    assert!(due(&c).iter().all(|x| x["rule"] != "CAMP-B1"));
    assert!(unit(&c, "fr-3").to_string().contains("must-retreat"));
    let log = json(&["log", "show", &c, "--json"]);
    let last = log.as_array().unwrap().last().unwrap().clone();
    assert!(
        last["summary"].as_str().unwrap().contains("combat"),
        "{last}"
    );
    ok(&["log", "verify", &c]);
}

/// Bad input: a combat that cannot be fought, a campaign that moved or changed, a table with a
/// gap, bad flags. Each a clear error (exit 2) and nothing applied: the folder byte-identical.
#[test]
fn bad_input_is_refused_and_nothing_is_applied() {
    let d = tmp("campaign", "bad");
    let c = spi_campaign(&d);
    let b = d.join("b.json").display().to_string();
    let battle = |extra: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = [
            "campaign", "battle", &c, "--rules", "pw", "--out", &b, "--seed", "2",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let run = |extra: &[&str], needle: &str| {
        let args = battle(extra);
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(&d, &a, needle);
        assert!(!Path::new(&b).exists());
    };
    // No defenders: an empty hex.
    run(
        &["--attackers", "de-3-3-1", "--hex", "0909"],
        "no enemy unit",
    );
    // One side only: attackers of both sides; an attack on a friendly hex.
    run(
        &["--attackers", "de-3-3-1,fr-metz-5", "--hex", "1111"],
        "opposite sides",
    );
    run(&["--attackers", "de-3-3-2", "--hex", "1010"], "friendly");
    // Not a unit, not a hex, not a battle rule set.
    run(&["--attackers", "nobody", "--hex", "1011"], "nobody");
    run(&["--attackers", "de-3-3-1", "--hex", "zz"], "--hex");
    run(&["--attackers", "de-3-3-1", "--hex", "off"], "--hex");
    run(
        &["--attackers", "de-3-3-1", "--hex", "1011", "--rules", "gsp"],
        "--rules",
    );
    // A conversion table with a gap: no SPI infantry row.
    let tables = d.join("tables");
    std::fs::create_dir_all(&tables).unwrap();
    let src =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tables/campaign.toml"))
            .unwrap();
    let gap = src.replace(
        "board = \"spi\"\narm = \"infantry\"",
        "board = \"spi\"\narm = \"engineers\"",
    );
    std::fs::write(tables.join("campaign.toml"), gap).unwrap();
    let t = tables.display().to_string();
    let mut args = battle(&["--attackers", "de-3-3-1", "--hex", "1011"]);
    args.splice(0..0, ["--tables".to_string(), t.clone()]);
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let e = refused(&d, &a, "no row for spi infantry");
    assert!(e.contains("campaign.toml"), "{e}");
    assert!(!Path::new(&b).exists());
    // A malformed table names file, line and field.
    std::fs::write(
        tables.join("campaign.toml"),
        src.replacen("per_point = { value = 2", "per_point = { value = 99", 1),
    )
    .unwrap();
    let e = refused(&d, &a, "per_point");
    assert!(e.contains("campaign.toml:"), "{e}");

    // A battle, then its campaign moved, changed, or the return asked badly.
    ok(
        &battle(&["--attackers", "de-3-3-1,de-3-3-2", "--hex", "1011"])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    refused(&d, &["campaign", "return", &b], "--winner");
    refused(
        &d,
        &["campaign", "return", &b, "--winner", "martians"],
        "--winner",
    );
    refused(
        &d,
        &["campaign", "return", &b, "--winner", "german", "--draw"],
        "--draw",
    );
    refused(
        &d,
        &["campaign", "return", &c, "--draw"],
        "not a campaign's battle",
    );
    let moved = d.join("moved.json");
    std::fs::rename(&c, &moved).unwrap();
    // The journal goes with its save (as Save As moves both).
    let _ = std::fs::rename(format!("{c}.journal"), d.join("moved.json.journal"));
    refused(&d, &["campaign", "return", &b, "--draw"], "--campaign");
    refused(&d, &["campaign", "abandon", &b], "--campaign");
    // Another game at the campaign's place: refused, naming what to do.
    super::common::new_game(&d, "spi-1870", "9");
    refused(
        &d,
        &["campaign", "return", &b, "--draw"],
        "not the campaign",
    );
    // The moved campaign, named: the return goes through.
    let m = moved.display().to_string();
    let back = json(&[
        "campaign",
        "return",
        &b,
        "--draw",
        "--campaign",
        &m,
        "--json",
    ]);
    assert!(
        back["losses"]
            .as_array()
            .unwrap()
            .iter()
            .all(|l| l["lost"] == 0)
    );
    ok(&["log", "verify", &m]);
    refused(
        &d,
        &["campaign", "return", &b, "--draw", "--campaign", &m],
        "already returned",
    );
}

/// `kepi help campaign` lists the verbs (the contract).
#[test]
fn campaign_help_lists_its_verbs() {
    let help = ok(&["campaign", "--help"]);
    for v in ["battle", "return", "abandon", "status"] {
        assert!(help.contains(v), "{help}");
    }
    let top = ok(&["--help"]);
    assert!(top.contains("campaign"), "{top}");
}

/// A campaign changed since the battle began: its pending record undone, or the file replaced by
/// an older copy of the same game. Each refused, saying what to do, nothing applied.
#[test]
fn a_campaign_changed_since_is_refused() {
    let d = tmp("campaign", "changed");
    let c = spi_campaign(&d);
    ok(&["game", "compact", &c]);
    let old = std::fs::read(&c).unwrap();
    let old_journal = std::fs::read(format!("{c}.journal")).unwrap();
    let b = d.join("b.json").display().to_string();
    let make = || {
        ok(&[
            "campaign",
            "battle",
            &c,
            "--attackers",
            "de-3-3-1",
            "--hex",
            "1011",
            "--rules",
            "pw",
            "--out",
            &b,
        ])
    };
    make();
    // The older copy: it never had the battle's entry.
    let new = std::fs::read(&c).unwrap();
    let new_journal = std::fs::read(format!("{c}.journal")).unwrap();
    std::fs::write(&c, &old).unwrap();
    std::fs::write(format!("{c}.journal"), &old_journal).unwrap();
    refused(
        &d,
        &["campaign", "return", &b, "--winner", "french"],
        "restore the campaign",
    );
    std::fs::write(&c, &new).unwrap();
    std::fs::write(format!("{c}.journal"), &new_journal).unwrap();
    // The pending record undone.
    ok(&["game", "apply", &c, "undo"]);
    refused(
        &d,
        &["campaign", "return", &b, "--winner", "french"],
        "is gone",
    );
    refused(&d, &["campaign", "abandon", &b], "is gone");
    ok(&["log", "verify", &c]);
}

/// Issue 46: a battle its campaign already took back stays playable, and `kepi game apply` on it
/// says that nothing done there reaches the campaign (a warning: exit 0).
#[test]
fn a_battle_returned_already_plays_on_with_a_warning() {
    let d = tmp("campaign", "returned-warning");
    let c = spi_campaign(&d);
    let b = d.join("battle.json").display().to_string();
    ok(&[
        "campaign",
        "battle",
        &c,
        "--attackers",
        "de-3-3-1,de-3-3-2",
        "--hex",
        "1011",
        "--rules",
        "pw",
        "--out",
        &b,
        "--seed",
        "7",
    ]);
    let warned = |o: &std::process::Output| {
        String::from_utf8_lossy(&o.stderr).contains("this battle was returned to the campaign")
    };
    let before = kepi(&["game", "apply", &b, "note", "before"]);
    assert!(before.status.success());
    assert!(!warned(&before), "not returned yet");
    ok(&["campaign", "return", &b, "--winner", "german"]);
    let campaign_before = std::fs::read(&c).unwrap();
    let after = kepi(&["game", "apply", &b, "note", "after the return"]);
    let err = String::from_utf8_lossy(&after.stderr).to_string();
    assert_eq!(after.status.code(), Some(0), "never refused: {err}");
    assert!(warned(&after), "{err}");
    assert!(err.contains("g.json"), "names the campaign: {err}");
    assert!(err.contains("do not reach the campaign"), "{err}");
    assert!(
        String::from_utf8_lossy(&after.stdout).contains("after the return"),
        "applied"
    );
    assert_eq!(
        std::fs::read(&c).unwrap(),
        campaign_before,
        "campaign untouched"
    );
}
