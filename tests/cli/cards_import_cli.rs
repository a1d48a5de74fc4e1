//! `kepi cards import` (issue 43): a spreadsheet's CSV made unit cards, checked as `kepi cards
//! check` checks them; `kepi export csv --units` then `kepi cards import` gives the same cards
//! (in the roster's order).

use std::path::Path;

use super::common::{json, ok, run, tmp};

/// A bundled scenario exported as CSV, imported for its own rule set, gives the same cards.
fn round_trip(scenario: &str, rules: &str) {
    let dir = tmp("cards-import", scenario);
    let csv = dir.join("units.csv");
    let out = dir.join("back.toml");
    ok(&[
        "export",
        "csv",
        "--scenario",
        scenario,
        "--units",
        csv.to_str().unwrap(),
    ]);
    ok(&[
        "cards",
        "import",
        csv.to_str().unwrap(),
        "--rules",
        rules,
        "--out",
        out.to_str().unwrap(),
    ]);
    let original = kepi::registry::builtin_scenario(scenario).unwrap();
    let back = kepi::roster::load_roster_file(&out).unwrap();
    assert_eq!(back.system, original.system);
    assert_eq!(back.sides, original.sides);
    // The export lists the units as the roster prints them (side, then army > corps > division
    // > brigade), so the cards come back in that order: the same cards, compared by id.
    let by_id = |units: &[kepi::roster::Unit]| {
        let mut v = units.to_vec();
        v.sort_by(|a, b| a.id.cmp(&b.id));
        v
    };
    assert_eq!(back.units.len(), original.units.len(), "{scenario}");
    assert_eq!(by_id(&back.units), by_id(&original.units), "{scenario}");
    // And `cards check` reads the written file.
    let checked = json(&["cards", "check", out.to_str().unwrap(), "--json"]);
    assert_eq!(checked[0]["units"], original.units.len());
}

/// A game in play exported (its units' strength now below their card's) imports as the cards
/// the game began with: the card's strength and leaders are read from `max_strength` and
/// `leaders_max`, not from what the game has left.
#[test]
fn cards_import_of_a_game_in_play_gives_the_cards_it_began_with() {
    let dir = tmp("cards-import", "in-play");
    let save = super::common::new_game(&dir, "mars-la-tour", "3");
    ok(&["game", "apply", &save, "lose", "12th-grenadiers-1", "6"]);
    let csv = dir.join("units.csv");
    let out = dir.join("back.toml");
    ok(&[
        "export",
        "csv",
        "--save",
        &save,
        "--units",
        csv.to_str().unwrap(),
    ]);
    ok(&[
        "cards",
        "import",
        csv.to_str().unwrap(),
        "--rules",
        "pk",
        "--out",
        out.to_str().unwrap(),
    ]);
    let original = kepi::registry::builtin_scenario("mars-la-tour").unwrap();
    let back = kepi::roster::load_roster_file(&out).unwrap();
    let card = |s: &kepi::roster::Scenario| {
        s.units
            .iter()
            .find(|u| u.id == "12th-grenadiers-1")
            .map(|u| (u.strength, u.leaders))
            .unwrap()
    };
    assert_eq!(card(&back), card(&original));
}

#[test]
fn cards_import_round_trips_pk() {
    round_trip("mars-la-tour", "pk");
}

#[test]
fn cards_import_round_trips_pw() {
    round_trip("pw-skirmish", "pw");
}

#[test]
fn cards_import_round_trips_gsp() {
    round_trip("st-privat", "gsp");
}

#[test]
fn cards_import_round_trips_spi() {
    round_trip("spi-1870", "spi");
}

#[test]
fn cards_import_round_trips_fr1870() {
    round_trip("fr1870-august", "fr1870");
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

/// A club's spreadsheet: `;` separators, a byte-order mark, its own headers (one chosen with
/// `--column`), a quoted note with a line break; extra columns are said, not refused.
#[test]
fn cards_import_reads_a_clubs_spreadsheet() {
    let dir = tmp("cards-import", "club");
    let csv = write(
        &dir,
        "club.csv",
        "\u{feff}Name;Side;Arm;Figures;Class;Gun or rifle;Painted by\r\n\
         I/12th;german;infantry;20;veteran;needle-gun;Anna\r\n\
         \"2e RI; 1er bataillon\";french;infantry;22;line;chassepot;\"Bob\"\r\n\
         Guns;german;artillery;6;line;prussian-4pdr;\"Cy\nand Dee\"\r\n",
    );
    let out = dir.join("club.toml");
    let (code, stdout, stderr) = run(&[
        "cards",
        "import",
        &csv,
        "--rules",
        "pk",
        "--out",
        out.to_str().unwrap(),
        "--column",
        "weapon=Gun or rifle",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("3 unit cards for pk"), "{stdout}");
    assert!(
        stderr.contains("Painted by"),
        "the column read for nothing is said: {stderr}"
    );
    let s = kepi::roster::load_roster_file(&out).unwrap();
    assert_eq!(s.units.len(), 3);
    assert_eq!(s.units[1].name, "2e RI; 1er bataillon");
    assert_eq!(s.units[2].weapon, Some(kepi::roster::Weapon::Prussian4pdr));
    assert_eq!(s.units[0].leaders, 3, "PK-L1's default");
    assert_eq!(s.name, "club");
    // Not replaced without --force; replaced with it.
    let (code, _, err) = run(&[
        "cards",
        "import",
        &csv,
        "--rules",
        "pk",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--out") && err.contains("--force"), "{err}");
    ok(&[
        "cards",
        "import",
        &csv,
        "--rules",
        "pk",
        "--out",
        out.to_str().unwrap(),
        "--force",
    ]);
}

/// A bad value names the file, the row's line, the column's header, the field and what the rule
/// set's card accepts; nothing is written.
#[test]
fn cards_import_names_the_row_the_column_and_the_accepted_values() {
    let dir = tmp("cards-import", "bad");
    let csv = write(
        &dir,
        "bad.csv",
        "name,side,arm,strength,quality\nA,german,infantry,4,normal\nB,german,infantry,4,veteran\n",
    );
    let out = dir.join("bad.toml");
    let (code, _, err) = run(&[
        "cards",
        "import",
        &csv,
        "--rules",
        "pw",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("bad.csv:3:"), "{err}");
    assert!(err.contains("quality (column \"quality\", row 2)"), "{err}");
    assert!(err.contains("elite, normal, poor"), "{err}");
    assert!(!out.exists(), "nothing written");
    // The dry run shows the first rows as cards with their errors, and writes nothing.
    let v = json(&[
        "cards",
        "import",
        &csv,
        "--rules",
        "pw",
        "--dry-run",
        "--json",
    ]);
    assert_eq!(v["rows"], 2);
    assert_eq!(v["cards"], 1);
    assert_eq!(v["errors"][0]["row"], 2);
    assert_eq!(v["errors"][0]["line"], 3);
    assert!(
        v["preview"][0]["card"]
            .as_str()
            .unwrap()
            .contains("quality = \"normal\"")
    );
    assert!(
        v["preview"][1]["error"]
            .as_str()
            .unwrap()
            .contains("elite, normal, poor")
    );
    let text = ok(&["cards", "import", &csv, "--rules", "pw", "--dry-run"]);
    assert!(
        text.contains("# row 1 (line 2)") && text.contains("[[unit]]"),
        "{text}"
    );
    assert!(!out.exists());
}

/// A missing required column, a --column naming a header the file lacks, an unknown rule set or
/// field: exit 2 naming the argument.
#[test]
fn cards_import_bad_arguments_exit_2_naming_them() {
    let dir = tmp("cards-import", "args");
    let csv = write(&dir, "c.csv", "name,side,arm\nA,german,infantry\n");
    let out = dir.join("c.toml");
    let o = out.to_str().unwrap();
    for (args, said) in [
        (vec!["--rules", "pk", "--out", o], "no column for strength"),
        (vec!["--rules", "chess", "--out", o], "--rules"),
        (
            vec!["--rules", "pk", "--out", o, "--column", "strength=Figures"],
            "--column strength=Figures",
        ),
        (
            vec!["--rules", "pk", "--out", o, "--column", "power=arm"],
            "--column",
        ),
        (vec!["--rules", "pk"], "--out"),
    ] {
        let mut full = vec!["cards", "import", csv.as_str()];
        full.extend(args.iter().copied());
        let (code, _, err) = run(&full);
        assert_eq!(code, 2, "{full:?}: {err}");
        assert!(err.contains(said), "{full:?}: {err}");
    }
    // Never written through a link.
    #[cfg(unix)]
    {
        let good = write(
            &dir,
            "g.csv",
            "name,side,arm,strength\nA,german,infantry,4\n",
        );
        let target = dir.join("target.toml");
        std::fs::write(&target, "keep").unwrap();
        let link = dir.join("link.toml");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let (code, _, err) = run(&[
            "cards",
            "import",
            &good,
            "--rules",
            "pk",
            "--out",
            link.to_str().unwrap(),
            "--force",
        ]);
        assert_eq!(code, 2, "{err}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep");
    }
}
