//! Issue 28, "Measured play at the club's scale", through the real binary: "A P&K game at 1/2
//! scale in centimetres prints every distance in cm at half value, and a typed `--range 30cm`
//! falls in the band the text gives for 30 cm at that scale." The scale is set by the scenario
//! or by the umpire (`scale cm 1/2`, logged); distances are read and printed at it; the rules keep
//! the text's inches; a game at the text's own scale saves exactly as before.

use std::path::Path;
use std::process::Command;

use super::common::{json, kepi, new_game, ok, tmp};

fn last_entry(save: &str) -> serde_json::Value {
    let log = json(&["log", "show", save, "--json"]);
    log.as_array().unwrap().last().unwrap().clone()
}

fn labels(res: &serde_json::Value) -> Vec<(String, String)> {
    res["modifiers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["label"].as_str().unwrap().to_string(),
                m["value"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The done-when of the issue, in play: `scale cm 1/2` logged, the battery's `--range 30cm` is
/// 23.62" of the text (30 / 2.54 x 2), the MLR's medium band (over 15", up to 36"); at the text's
/// own scale the same 30 cm is 11.81", short. The band edges print in cm at half value.
#[test]
fn pk_half_scale_in_cm_reads_and_prints_centimetres() {
    let dir = tmp("scale", "pk-half");
    let save = new_game(&dir, "mars-la-tour", "7");
    let before = json(&["game", "show", &save, "--json"]);
    assert_eq!(
        before["scale"],
        serde_json::json!({"unit": "in", "factor": "1"})
    );

    let line = ok(&["game", "apply", &save, "--json", "scale", "cm", "1/2"]);
    let v: serde_json::Value = serde_json::from_str(line.trim()).unwrap();
    assert!(
        v["summary"]
            .as_str()
            .unwrap()
            .contains("scale: cm at 1/2 (12 inches of the text are 15.24cm on the table)"),
        "{v}"
    );
    let show = json(&["game", "show", &save, "--json"]);
    assert_eq!(
        show["scale"],
        serde_json::json!({"unit": "cm", "factor": "1/2"})
    );
    let e = last_entry(&save);
    assert_eq!(
        e["action"],
        serde_json::json!({"type": "scale", "scale": {"unit": "cm", "factor": "1/2"}})
    );

    // The battery fires at 30 cm: medium band.
    ok(&[
        "game",
        "apply",
        &save,
        "flag",
        "2e-corps-batterie-4",
        "limbered",
        "off",
        "artillery",
        "2e-corps-batterie-4",
        "12th-grenadiers-1",
        "--range",
        "30cm",
        "--dice",
        "d10=5",
    ]);
    let e = last_entry(&save);
    let res = &e["action"]["resolution"];
    // The log keeps the text's inches: 30 cm at 1/2 is 3000/127" of the text.
    assert_eq!(e["action"]["input"]["action"]["range"], "3000/127", "{e}");
    let l = labels(res);
    assert!(
        l.iter()
            .any(|(label, v)| label == "mlr medium range (over 15\", up to 36\")" && v == "+1"),
        "{l:?}"
    );

    // The same shot printed at the game's scale by `kepi resolve --scale`: every distance in cm
    // at half value.
    let r = json(&[
        "resolve",
        "pk",
        "artillery",
        "--gun",
        "mlr",
        "--points",
        "6",
        "--class",
        "line",
        "--range",
        "30cm",
        "--scale",
        "cm 1/2",
        "--d10",
        "5",
        "--json",
    ]);
    let l = labels(&r);
    assert!(
        l.contains(&("measured range".into(), "30cm".into())),
        "{l:?}"
    );
    assert!(
        l.contains(&(
            "mlr medium range (over 19.05cm, up to 45.72cm)".into(),
            "+1".into()
        )),
        "{l:?}"
    );
    let text = ok(&[
        "resolve",
        "pk",
        "artillery",
        "--gun",
        "mlr",
        "--points",
        "6",
        "--class",
        "line",
        "--range",
        "30cm",
        "--scale",
        "cm 1/2",
        "--d10",
        "5",
    ]);
    assert!(!text.contains('"'), "an inch left in:\n{text}");

    // At the text's scale 30 cm is 11.81": short.
    let r = json(&[
        "resolve",
        "pk",
        "artillery",
        "--gun",
        "mlr",
        "--points",
        "6",
        "--class",
        "line",
        "--range",
        "30cm",
        "--d10",
        "5",
        "--json",
    ]);
    assert!(
        labels(&r)
            .iter()
            .any(|(label, _)| label.starts_with("mlr short range")),
        "{r}"
    );
}

/// A range on a band's edge is the edge (the text's "up to": the shorter band), converted
/// exactly: the short band ends at 15" of the text, 19.05 cm at 1/2; 19.06 cm is medium. A bare
/// number is read in the game's unit, and an inch typed is an inch of the table.
#[test]
fn band_edges_are_exact_and_bare_numbers_are_the_games_unit() {
    let band = |range: &str| -> String {
        let r = json(&[
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
            range,
            "--scale",
            "cm 1/2",
            "--odds",
            "--json",
        ]);
        labels(&r)
            .into_iter()
            .find(|(l, _)| l.starts_with("blr "))
            .unwrap()
            .0
    };
    assert!(
        band("19.05cm").starts_with("blr short"),
        "{}",
        band("19.05cm")
    );
    assert!(band("19.05").starts_with("blr short"));
    assert!(band("19.06cm").starts_with("blr medium"));
    // 7.5 inches of the table is 15" of the text: short; 7.51in is medium.
    assert!(band("7.5in").starts_with("blr short"));
    assert!(band("7.51\"").starts_with("blr medium"));
    // The medium band ends at 36" of the text: 45.72 cm.
    assert!(band("45.72").starts_with("blr medium"));
    assert!(band("45.73").starts_with("blr long"));
    // Beyond 60" of the text (76.2 cm) is refused, in cm, exit 2.
    let o = kepi(&[
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
        "76.21cm",
        "--scale",
        "cm 1/2",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("at most 76.2cm"), "{err}");
    for bad in ["30mm", "-3", "x"] {
        let flag = format!("--range={bad}");
        let o = kepi(&[
            "resolve",
            "pk",
            "artillery",
            "--gun",
            "blr",
            "--points",
            "6",
            "--class",
            "line",
            &flag,
        ]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("accepted"),
            "{bad}"
        );
    }
    let o = kepi(&[
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
        "3",
        "--scale",
        "mm",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("in, cm"));
}

/// In play, a refused range names the distance as measured, and nothing is logged; a bad scale
/// verb is refused with exit 2; undo takes the scale back.
#[test]
fn refusals_and_undo_at_a_scale() {
    let dir = tmp("scale", "refuse");
    let save = new_game(&dir, "mars-la-tour", "3");
    ok(&["game", "apply", &save, "scale", "cm", "1/2"]);
    let n = json(&["log", "show", &save, "--json"])
        .as_array()
        .unwrap()
        .len();
    let o = kepi(&[
        "game",
        "apply",
        &save,
        "fire",
        "12th-grenadiers-1",
        "8e-ligne-1",
        "--range",
        "31",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("31cm is out of the needle's range") && err.contains("at most 22.86cm"),
        "{err}"
    );
    for bad in [&["scale", "mm"][..], &["scale", "cm", "0"], &["scale"]] {
        let mut args = vec!["game", "apply", save.as_str()];
        args.extend_from_slice(bad);
        let o = kepi(&args);
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
    }
    assert_eq!(
        json(&["log", "show", &save, "--json"])
            .as_array()
            .unwrap()
            .len(),
        n
    );
    ok(&["game", "apply", &save, "undo"]);
    assert_eq!(
        json(&["game", "show", &save, "--json"])["scale"]["unit"],
        "in"
    );
    ok(&["log", "verify", &save]);
}

/// A game at the text's own scale saves exactly as before the setting existed: no "scale" key
/// in the save or its log; a game at another scale verifies its chain.
#[test]
fn the_texts_scale_saves_as_before() {
    let dir = tmp("scale", "old");
    let save = new_game(&dir, "mars-la-tour", "5");
    ok(&["game", "apply", &save, "note", "a 12\" move"]);
    let text = std::fs::read_to_string(&save).unwrap();
    assert!(!text.contains("\"scale\""), "{text}");
    ok(&["game", "apply", &save, "scale", "in", "2/3"]);
    ok(&["log", "verify", &save]);
    // The umpire's own note is his text: never rewritten.
    let out = ok(&["log", "show", &save]);
    assert!(out.contains("a 12\" move"), "{out}");
}

/// The scenario sets the scale (`scale = "cm 1/2"`); a wrong one names the accepted values.
#[test]
fn the_scenario_sets_the_scale() {
    let dir = tmp("scale", "scenario");
    let src = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("unit-cards/scenarios/mars-la-tour.toml"),
    )
    .unwrap();
    let good = dir.join("half.toml");
    std::fs::write(&good, format!("scale = \"cm 1/2\"\n{src}")).unwrap();
    let save = dir.join("g.json").display().to_string();
    ok(&[
        "game",
        "new",
        "--scenario",
        good.to_str().unwrap(),
        "--out",
        &save,
        "--seed",
        "1",
    ]);
    assert_eq!(
        json(&["game", "show", &save, "--json"])["scale"],
        serde_json::json!({"unit": "cm", "factor": "1/2"})
    );
    for bad in ["scale = \"mm\"", "scale = 3", "scale = \"cm 0\""] {
        let f = dir.join("bad.toml");
        std::fs::write(&f, format!("{bad}\n{src}")).unwrap();
        let o = kepi(&[
            "game",
            "new",
            "--scenario",
            f.to_str().unwrap(),
            "--out",
            dir.join("bad.json").to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("scale") && err.contains("accepted"),
            "{bad}: {err}"
        );
    }
}

/// The roster of a game at cm 1/2 prints its moves and ranges in cm at half value (the needle
/// gun's 18" is 22.86 cm; a 6" move is 7.62 cm), and says the scale in its header.
#[test]
fn roster_pdf_prints_centimetres() {
    let dir = tmp("scale", "pdf");
    let save = new_game(&dir, "mars-la-tour", "9");
    ok(&["game", "apply", &save, "scale", "cm", "1/2"]);
    let pdf = dir.join("roster.pdf");
    ok(&[
        "roster",
        "print",
        "--save",
        &save,
        "--pdf",
        pdf.to_str().unwrap(),
    ]);
    let csv = dir.join("units.csv");
    ok(&[
        "export",
        "csv",
        "--save",
        &save,
        "--units",
        csv.to_str().unwrap(),
    ]);
    let csv = std::fs::read_to_string(&csv).unwrap();
    assert!(
        csv.contains("7.62cm (11.43cm)") && csv.contains("22.86cm"),
        "{csv}"
    );
    assert!(!csv.contains("\"\"\""), "an inch left in the CSV:\n{csv}");
    let Ok(out) = Command::new("pdftotext")
        .arg(pdf.as_os_str())
        .arg("-")
        .output()
    else {
        eprintln!("pdftotext not found: the PDF's text is not checked");
        return;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("distances in cm at 1/2"), "{text}");
    assert!(text.contains("move 7.62cm (11.43cm)"), "{text}");
    assert!(text.contains("22.86cm"), "{text}");
    assert!(!text.contains("6\""), "an inch left in the PDF:\n{text}");
}

/// GSP-A1 at a scale: the sector length (12" of the text, a house value) is 15.24 cm on the
/// table at cm 1/2, so 15.24 cm is sector 1 and 15.25 cm sector 2; 30 cm is 23.62" of the text,
/// sector 2 (at the text's own scale 30 cm is 11.81", sector 1). In play, the battery's `--range`
/// follows the game's scale.
#[test]
fn gsp_sectors_at_a_scale() {
    let sector = |range: &str, scale: Option<&str>| -> u64 {
        let mut a = vec!["resolve", "gsp", "range", "--range", range, "--json"];
        if let Some(s) = scale {
            a.extend(["--scale", s]);
        }
        json(&a)["outcome"]["sector"].as_u64().unwrap()
    };
    assert_eq!(sector("30cm", None), 1);
    assert_eq!(sector("30cm", Some("cm 1/2")), 2);
    assert_eq!(sector("15.24", Some("cm 1/2")), 1);
    assert_eq!(sector("15.25", Some("cm 1/2")), 2);
    let text = ok(&[
        "resolve", "gsp", "range", "--range", "30", "--scale", "cm 1/2",
    ]);
    assert!(
        text.contains("range 30cm / sector 15.24cm -> range sector"),
        "{text}"
    );

    let dir = tmp("scale", "gsp");
    let save = new_game(&dir, "st-privat", "4");
    ok(&["game", "apply", &save, "scale", "cm", "1/2"]);
    ok(&[
        "game",
        "apply",
        &save,
        "fire",
        "gfar-light-1",
        "9e-ligne-1",
        "--range",
        "30",
    ]);
    let e = last_entry(&save);
    let res = &e["action"]["resolution"];
    let l = labels(res);
    assert!(
        l.iter()
            .any(|(label, v)| label.contains("-> range sector") && v == "2"),
        "{l:?}"
    );
}

/// The battle report prints a resolution's line at the game's scale, as `kepi log show` does:
/// GSP's sector of a 30 cm range at cm 1/2 reads in centimetres, not in the text's inches.
#[test]
fn the_battle_report_prints_distances_at_the_games_scale() {
    let dir = tmp("scale", "report");
    let save = new_game(&dir, "st-privat", "3");
    ok(&["game", "apply", &save, "scale", "cm", "1/2"]);
    ok(&["game", "apply", &save, "range", "--range", "30cm"]);
    let report = json(&["report", &save, "--json"]);
    let summaries: Vec<String> = report["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["summary"].as_str().unwrap().to_string())
        .collect();
    assert!(
        summaries.contains(&"30cm is range sector 2 (sectors of 15.24cm)".to_string()),
        "{summaries:?}"
    );
    let shown = ok(&["log", "show", &save]);
    assert!(
        shown.contains("30cm is range sector 2 (sectors of 15.24cm)"),
        "{shown}"
    );
}
