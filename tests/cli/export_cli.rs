//! The export commands' run functions over a fake document provider (the session's real provider
//! plugs into the same trait).

use super::common::{bin, tmp};

use std::path::Path;

use kepi::cli::export_cmd::{
    CardsArgs, CardsOutArgs, CardsSourceArgs, CsvArgs, CsvOutArgs, CsvSourceArgs, DocProvider,
    ExportCmd, ReportArgs, ReportOutArgs, RosterCmd, RosterPrintArgs, RosterSourceArgs, Source,
    run_cards, run_export, run_report, run_roster,
};
use kepi::export::{ExportError, LogRowDoc, Paper, ReportDoc, RosterDoc};

struct Fake;

impl DocProvider for Fake {
    fn roster(&self, source: &Source) -> Result<RosterDoc, ExportError> {
        match source {
            Source::Scenario(n) if n == "mars-la-tour" => Ok(RosterDoc::sample(12)),
            Source::Scenario(n) => Err(ExportError::Source(format!(
                "--scenario {n}: unknown scenario"
            ))),
            Source::Cards(p) | Source::Save(p) => {
                Err(ExportError::Source(format!("{}: broken", p.display())))
            }
        }
    }
    fn log(&self, _: &Source) -> Result<Vec<LogRowDoc>, ExportError> {
        Ok(vec![])
    }
    fn report(&self, save: &Path) -> Result<ReportDoc, ExportError> {
        if save.ends_with("good.kepi") {
            Ok(ReportDoc::sample(10, 3))
        } else {
            Err(ExportError::Source(format!(
                "{}: not a save",
                save.display()
            )))
        }
    }
}

fn scenario(name: &str) -> RosterSourceArgs {
    RosterSourceArgs {
        scenario: Some(name.into()),
        cards: None,
        save: None,
    }
}

#[test]
fn roster_print_writes_a_pdf_and_names_bad_input() {
    let dir = tmp("export-cli", "roster");
    let out = dir.join("r.pdf");
    let cmd = RosterCmd::Print(RosterPrintArgs {
        source: scenario("mars-la-tour"),
        pdf: out.clone(),
        paper: Paper::A4,
    });
    run_roster(&cmd, &Fake).unwrap();
    assert!(std::fs::read(&out).unwrap().starts_with(b"%PDF"));

    let bad = RosterCmd::Print(RosterPrintArgs {
        source: scenario("atlantis"),
        pdf: dir.join("x.pdf"),
        paper: Paper::A4,
    });
    let e = run_roster(&bad, &Fake).unwrap_err();
    assert_eq!(e.code, 2);
    assert!(e.message.contains("atlantis"));
    assert!(!dir.join("x.pdf").exists());

    let unwritable = dir.join("nope").join("r.pdf");
    let cmd = RosterCmd::Print(RosterPrintArgs {
        source: scenario("mars-la-tour"),
        pdf: unwritable.clone(),
        paper: Paper::Letter,
    });
    let e = run_roster(&cmd, &Fake).unwrap_err();
    assert_eq!(e.code, 1);
    assert!(
        e.message.contains(&unwritable.display().to_string()),
        "{}",
        e.message
    );
}

#[test]
fn cards_png_and_pdf() {
    let dir = tmp("export-cli", "cards");
    let src = CardsSourceArgs {
        scenario: Some("mars-la-tour".into()),
        cards: None,
    };
    let a = CardsArgs {
        source: src.clone(),
        out: CardsOutArgs {
            png: Some(dir.join("png")),
            pdf: None,
        },
        dpi: Some(100),
        paper: Paper::A4,
    };
    run_cards(&a, &Fake).unwrap();
    assert_eq!(std::fs::read_dir(dir.join("png")).unwrap().count(), 12);
    let a = CardsArgs {
        source: src.clone(),
        out: CardsOutArgs {
            png: None,
            pdf: Some(dir.join("c.pdf")),
        },
        dpi: None,
        paper: Paper::A4,
    };
    run_cards(&a, &Fake).unwrap();
    assert!(dir.join("c.pdf").exists());
    let a = CardsArgs {
        source: src,
        out: CardsOutArgs {
            png: Some(dir.join("png2")),
            pdf: None,
        },
        dpi: Some(0),
        paper: Paper::A4,
    };
    let e = run_cards(&a, &Fake).unwrap_err();
    assert_eq!(e.code, 2);
    assert!(e.message.contains("dpi"));
    let a = CardsArgs {
        source: CardsSourceArgs {
            scenario: Some("mars-la-tour".into()),
            cards: None,
        },
        out: CardsOutArgs {
            png: None,
            pdf: Some(dir.join("d.pdf")),
        },
        dpi: Some(150),
        paper: Paper::A4,
    };
    let e = run_cards(&a, &Fake).unwrap_err();
    assert_eq!(e.code, 2);
    assert!(e.message.contains("--dpi"));
    assert!(!dir.join("d.pdf").exists());
}

#[test]
fn csv_and_report() {
    let dir = tmp("export-cli", "csv");
    let cmd = ExportCmd::Csv(CsvArgs {
        source: CsvSourceArgs {
            scenario: Some("mars-la-tour".into()),
            save: None,
        },
        out: CsvOutArgs {
            units: Some(dir.join("u.csv")),
            log: None,
        },
    });
    run_export(&cmd, &Fake).unwrap();
    let csv = std::fs::read_to_string(dir.join("u.csv")).unwrap();
    assert_eq!(csv.lines().count(), 13);
    let cmd = ExportCmd::Csv(CsvArgs {
        source: CsvSourceArgs {
            scenario: Some("mars-la-tour".into()),
            save: None,
        },
        out: CsvOutArgs {
            units: None,
            log: Some(dir.join("l.csv")),
        },
    });
    run_export(&cmd, &Fake).unwrap();
    assert!(
        std::fs::read_to_string(dir.join("l.csv"))
            .unwrap()
            .starts_with("index,time,turn")
    );

    let a = ReportArgs {
        save: "good.kepi".into(),
        out: ReportOutArgs {
            html: Some(dir.join("r.html")),
            pdf: None,
            json: false,
        },
        paper: Paper::A4,
    };
    run_report(&a, &Fake).unwrap();
    assert!(
        std::fs::read_to_string(dir.join("r.html"))
            .unwrap()
            .contains("<svg")
    );
    let a = ReportArgs {
        save: "good.kepi".into(),
        out: ReportOutArgs {
            html: None,
            pdf: Some(dir.join("r.pdf")),
            json: false,
        },
        paper: Paper::Letter,
    };
    run_report(&a, &Fake).unwrap();
    let a = ReportArgs {
        save: "bad.kepi".into(),
        out: ReportOutArgs {
            html: Some(dir.join("b.html")),
            pdf: None,
            json: false,
        },
        paper: Paper::A4,
    };
    let e = run_report(&a, &Fake).unwrap_err();
    assert!(e.message.contains("bad.kepi"));
    assert!(!dir.join("b.html").exists());
}

/// Issue 18, class 8: a card named like a formula is exported as text, and numbers stay numbers.
#[test]
fn units_csv_neutralises_a_formula_named_card() {
    let dir = tmp("export-cli", "formula");
    let src = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("unit-cards/scenarios/pw-skirmish.toml"),
    )
    .unwrap();
    let evil = src.replacen(
        "name = \"1st Prussian Infantry\"",
        "name = \"=HYPERLINK(\\\"http://x\\\",\\\"y\\\")\"",
        1,
    );
    assert_ne!(evil, src);
    std::fs::write(dir.join("evil.toml"), evil).unwrap();
    let kepi = |args: &[&str]| {
        let out = std::process::Command::new(bin())
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "kepi {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    kepi(&[
        "game",
        "new",
        "--scenario",
        "./evil.toml",
        "--out",
        "g.kepi",
        "--seed",
        "1",
    ]);
    kepi(&["export", "csv", "--save", "g.kepi", "--units", "units.csv"]);
    let csv = std::fs::read_to_string(dir.join("units.csv")).unwrap();
    let row = csv.lines().find(|l| l.contains("HYPERLINK")).unwrap();
    assert!(
        row.contains(",\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\","),
        "{row}"
    );
    assert!(!row.contains(",=HYPERLINK"), "{row}");
    // strength, max_strength: kepi's own numbers, written as numbers.
    assert!(row.contains(",4,4,SP,"), "{row}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 46: the printed P&K roster's last column fits at the right margin in A4 and Letter, and
/// the carbine's range prints with its value ("chassepot-carbine move 12\" (18\") range" had
/// none). Read back with poppler's `pdftotext` (skipped with a note where it is missing).
#[test]
fn pk_roster_prints_every_column_inside_the_margin() {
    use std::process::Command;
    let dir = super::common::tmp("export", "pk-roster-margin");
    for paper in ["a4", "letter"] {
        let pdf = dir.join(format!("r-{paper}.pdf"));
        let pdf_s = pdf.to_str().unwrap();
        super::common::ok(&[
            "roster",
            "print",
            "--scenario",
            "mars-la-tour",
            "--pdf",
            pdf_s,
            "--paper",
            paper,
        ]);
        let Ok(out) = Command::new("pdftotext")
            .args(["-layout", pdf_s, "-"])
            .output()
        else {
            eprintln!("pdftotext not found: the PDF's text is not checked");
            return;
        };
        let text = String::from_utf8_lossy(&out.stdout);
        let carbine: Vec<&str> = text
            .lines()
            .filter(|l| l.contains("chassepot-carbine"))
            .collect();
        assert!(!carbine.is_empty(), "{paper}: no carbine in\n{text}");
        for l in carbine {
            let after = l.split("range").nth(1).unwrap_or_default().trim();
            assert!(
                after.starts_with(|c: char| c.is_ascii_digit()) && after.contains('"'),
                "{paper}: the carbine's range has no value: {l}"
            );
        }
        // Every word inside the page's 12 mm margins.
        let out = Command::new("pdftotext")
            .args(["-bbox", pdf_s, "-"])
            .output()
            .unwrap();
        let html = String::from_utf8_lossy(&out.stdout);
        let attr = |tag: &str, name: &str| -> f32 {
            let k = tag.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
            tag[k..].split('"').next().unwrap().parse().unwrap()
        };
        let mut width = 0.0;
        let mut words = 0;
        for tag in html.split('<') {
            if tag.starts_with("page ") {
                width = attr(tag, "width");
            } else if tag.starts_with("word ") {
                words += 1;
                let right = attr(tag, "xMax");
                let margin = 12.0 / 25.4 * 72.0;
                assert!(
                    right <= width - margin + 1.0,
                    "{paper}: a word ends at {right} pt, past the margin at {} pt: {tag}",
                    width - margin
                );
            }
        }
        assert!(words > 100, "{paper}: {words} words read");
    }
}
