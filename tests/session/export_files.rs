//! Exports checked with real readers: poppler's `pdftotext` and `pdfinfo` for PDFs (skipped with a note
//! when poppler is missing) and the image crate for PNGs.

use super::common::tmp;

use std::path::Path;
use std::process::Command;

use kepi::export::{
    self, CardCtx, Paper, ReportDoc, RosterDoc, card_png, cards_pdf, cards_png_dir, no_progress,
    report_pdf, roster_page_count, roster_pdf, write_atomic,
};

fn have(tool: &str) -> bool {
    let ok = Command::new(tool).arg("-v").output().is_ok();
    if !ok {
        eprintln!("note: `{tool}` not found (poppler-utils); skipping the check that needs it");
    }
    ok
}

fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn pdf_text(path: &Path) -> Option<String> {
    if !have("pdftotext") {
        return None;
    }
    let out = Command::new("pdftotext")
        .arg(path)
        .arg("-")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "pdftotext failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(squash(&String::from_utf8_lossy(&out.stdout)))
}

fn pdf_pages(path: &Path) -> Option<usize> {
    if !have("pdfinfo") {
        return None;
    }
    let out = Command::new("pdfinfo").arg(path).output().unwrap();
    assert!(
        out.status.success(),
        "pdfinfo failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let line = text
        .lines()
        .find(|l| l.starts_with("Pages:"))
        .expect("a Pages: line");
    Some(line.trim_start_matches("Pages:").trim().parse().unwrap())
}

fn pdf_fonts(path: &Path) -> Option<String> {
    if !have("pdffonts") {
        return None;
    }
    let out = Command::new("pdffonts").arg(path).output().unwrap();
    Some(String::from_utf8_lossy(&out.stdout).to_string())
}

#[test]
fn roster_pdf_has_every_unit_name_the_pages_it_says_and_embedded_fonts() {
    let doc = RosterDoc::sample(40);
    let dir = tmp("export-files", "roster");
    for paper in Paper::ALL {
        let bytes = roster_pdf(&doc, paper).unwrap();
        assert!(bytes.starts_with(b"%PDF-"));
        let path = dir.join(format!("roster-{paper}.pdf"));
        write_atomic(&path, &bytes).unwrap();
        let expected = roster_page_count(&doc, paper).unwrap();
        if let Some(n) = pdf_pages(&path) {
            assert_eq!(n, expected, "{paper}");
        }
        if let Some(text) = pdf_text(&path) {
            for (side, _, u) in doc.units() {
                assert!(
                    text.contains(&squash(&u.name)),
                    "{paper}: missing unit {:?}",
                    u.name
                );
                assert!(text.contains(&side.name));
            }
            assert!(text.contains(&format!("page 1 of {expected}")), "{text}");
            assert!(text.contains(&format!("page {expected} of {expected}")));
            assert!(text.contains("Pickelhaube & Kepi"));
            assert!(text.contains("16 August 1870"));
            assert!(text.contains("Turn 3"));
            assert!(text.contains("Shaken"));
            assert!(text.contains("Dreyse needle gun"));
        }
        if let Some(fonts) = pdf_fonts(&path) {
            // Every font embedded ("emb" column "yes") and it is our DejaVu.
            assert!(fonts.contains("DejaVuSans"), "{fonts}");
            for line in fonts.lines().skip(2) {
                assert!(line.contains(" yes "), "font not embedded: {line}");
            }
        }
    }
}

#[test]
fn roster_pdf_progress_counts_pages() {
    let doc = RosterDoc::sample(60);
    let seen = std::cell::RefCell::new(Vec::new());
    let bytes =
        export::roster_pdf_progress(&doc, Paper::A4, &|d, t| seen.borrow_mut().push((d, t)))
            .unwrap();
    assert!(!bytes.is_empty());
    let seen = seen.into_inner();
    let n = roster_page_count(&doc, Paper::A4).unwrap();
    assert_eq!(seen.len(), n);
    assert_eq!(seen.last(), Some(&(n, n)));
}

#[test]
fn roster_progress_from_a_worker_thread() {
    let progress = std::sync::Arc::new(export::AtomicProgress::new());
    let p = progress.clone();
    let handle = std::thread::spawn(move || {
        let doc = RosterDoc::sample(30);
        export::roster_pdf_progress(&doc, Paper::A4, &|d, t| p.report(d, t)).map(|b| b.len())
    });
    let len = handle.join().unwrap().unwrap();
    assert!(len > 0);
    assert_eq!(progress.fraction(), 1.0);
}

#[test]
fn card_png_size_matches_dpi_and_decodes() {
    let doc = RosterDoc::sample(3);
    let (_, _, u) = doc.units()[0];
    for (dpi, w, h) in [(300, 744, 1039), (150, 372, 520)] {
        let img = card_png(u, &CardCtx::default(), dpi).unwrap();
        assert_eq!((img.width(), img.height()), (w, h));
    }
    let dir = tmp("export-files", "cards");
    let files = cards_png_dir(&doc, &dir.join("out"), 300, &no_progress).unwrap();
    assert_eq!(files.len(), 3);
    for f in &files {
        let img = image::open(f).unwrap();
        assert_eq!((img.width(), img.height()), (744, 1039));
        // Not blank: the card has ink on it.
        let dark = img.to_rgba8().pixels().filter(|p| p[0] < 100).count();
        assert!(dark > 1000, "{dark} dark pixels in {}", f.display());
    }
    let names: Vec<_> = files
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().to_string())
        .collect();
    assert_eq!(names, ["p-1.png", "p-2.png", "f-1.png"]);
}

#[test]
fn duplicate_and_unsafe_ids_make_distinct_safe_files() {
    let mut doc = RosterDoc::sample(3);
    for side in &mut doc.sides {
        fn set(g: &mut kepi::export::GroupDoc) {
            for u in &mut g.units {
                u.id = "../x".into();
            }
            for s in &mut g.groups {
                set(s);
            }
        }
        for g in &mut side.groups {
            set(g);
        }
    }
    let dir = tmp("export-files", "dupes");
    let files = cards_png_dir(&doc, &dir, 72, &no_progress).unwrap();
    let names: Vec<_> = files
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().to_string())
        .collect();
    assert_eq!(names, ["___x.png", "___x-2.png", "___x-3.png"]);
    assert!(files.iter().all(|f| f.parent() == Some(dir.as_path())));
}

#[test]
fn card_sheets_hold_nine_and_name_every_unit() {
    let doc = RosterDoc::sample(20);
    let dir = tmp("export-files", "sheets");
    let path = dir.join("cards.pdf");
    write_atomic(&path, &cards_pdf(&doc, Paper::Letter).unwrap()).unwrap();
    if let Some(n) = pdf_pages(&path) {
        assert_eq!(n, 3);
    }
    if let Some(text) = pdf_text(&path) {
        for (_, _, u) in doc.units() {
            assert!(
                text.contains(&squash(&u.name)) || text.contains(&u.id),
                "missing {:?}",
                u.name
            );
        }
    }
}

#[test]
fn report_pdf_has_turns_dice_and_hash() {
    let doc = ReportDoc::sample(12, 4);
    let dir = tmp("export-files", "report");
    let path = dir.join("report.pdf");
    write_atomic(&path, &report_pdf(&doc, Paper::A4).unwrap()).unwrap();
    if let Some(text) = pdf_text(&path) {
        assert!(text.contains("Turn 4"));
        assert!(text.contains("PK-F1 PK-F3"));
        assert!(text.contains("verified"));
        assert!(text.contains(&doc.chain_head[..16]), "{text}");
        assert!(text.contains(&doc.turns[0].resolutions[0].dice));
    }
}

#[test]
fn unwritable_path_is_an_error_naming_it_and_leaves_nothing() {
    let dir = tmp("export-files", "unwritable");
    // A missing folder.
    let missing = dir.join("no-such-folder").join("roster.pdf");
    let e = write_atomic(&missing, b"%PDF").unwrap_err();
    assert!(
        e.to_string().contains(&missing.display().to_string()),
        "{e}"
    );
    // A path that is a folder: the temp file is written, the rename fails, the temp file goes.
    let target = dir.join("taken");
    std::fs::create_dir(&target).unwrap();
    std::fs::write(target.join("keep"), b"k").unwrap();
    let e = write_atomic(
        &target,
        &roster_pdf(&RosterDoc::sample(5), Paper::A4).unwrap(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("taken"), "{e}");
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 1, "left behind: {left:?}");
    // Cards into a folder that cannot be created (a file is in the way).
    let file = dir.join("a-file");
    std::fs::write(&file, b"x").unwrap();
    let e = cards_png_dir(&RosterDoc::sample(2), &file.join("sub"), 300, &no_progress).unwrap_err();
    assert!(e.to_string().contains("a-file"), "{e}");
}

fn odd_units() -> Vec<kepi::export::UnitDoc> {
    let base = RosterDoc::sample(1).units()[0].2.clone();
    let mut big = base.clone();
    big.name = "Garde-Artillerie-Brigade (massed batteries of the Guard Corps, Prince August of Württemberg)".into();
    big.strength = 120;
    big.max_strength = 150;
    big.strength_unit = "points".into();
    big.fatigue_max = 12;
    big.leaders_max = 9;
    big.status = vec!["Shaken".into(); 12];
    let mut zero = base.clone();
    zero.name = String::new();
    zero.id = String::new();
    zero.max_strength = 0;
    zero.strength = 0;
    zero.fatigue_max = 0;
    zero.leaders_max = 0;
    zero.class = None;
    zero.weapon = None;
    zero.move_ = None;
    zero.range = None;
    let mut over = base.clone();
    over.name = "Лейб-гвардии 第一 ☃ <&>".into();
    over.strength = 30;
    over.max_strength = 20;
    over.fatigue = 9;
    over.leaders = 5;
    over.arm = kepi::export::Arm::Other;
    vec![big, zero, over]
}

#[test]
fn odd_units_still_render() {
    let mut doc = RosterDoc::sample(2);
    doc.sides[0].groups[0].units = odd_units();
    doc.sides.push(kepi::export::SideDoc {
        name: "Empty side".into(),
        groups: vec![],
    });
    for paper in Paper::ALL {
        assert!(roster_pdf(&doc, paper).unwrap().starts_with(b"%PDF"));
        assert!(cards_pdf(&doc, paper).unwrap().starts_with(b"%PDF"));
    }
    assert_eq!(roster_page_count(&doc, Paper::A4).unwrap(), 3);
    for u in odd_units() {
        let img = card_png(&u, &CardCtx::default(), 96).unwrap();
        assert_eq!(img.width(), 238);
    }
    let dir = tmp("export-files", "odd");
    let path = dir.join("odd.pdf");
    write_atomic(&path, &roster_pdf(&doc, Paper::A4).unwrap()).unwrap();
    if let Some(text) = pdf_text(&path) {
        assert!(text.contains("120/150 points"), "{text}");
        assert!(text.contains("Empty side"));
    }
    let u = &odd_units()[0];
    card_png(u, &CardCtx::default(), 100)
        .unwrap()
        .save(dir.join("big.png"))
        .unwrap();
    eprintln!("odd card at {}", dir.join("big.png").display());
}

/// A roster printed from a game carries the log's chain head, to note at the table and check later
/// with `kepi log verify SAVE --expect-head HASH` (issue 18).
#[test]
fn a_game_roster_prints_the_log_head() {
    let sc = kepi::registry::builtin_scenario("mars-la-tour").unwrap();
    let mut game = kepi::game::Game::new(
        &sc,
        kepi::rules::pk::ID,
        kepi::game::SeedSecret::new(5),
        chrono::Utc::now(),
    );
    game.act(
        kepi::game::Action::Note {
            text: "head".into(),
        },
        chrono::Utc::now(),
    )
    .unwrap();
    let tables = kepi::registry::builtin_tables().unwrap();
    let doc = export::from_game::game_roster_doc(&game, tables);
    let head = game.head();
    assert_eq!(doc.chain_head.as_deref(), Some(head.as_str()));
    let dir = tmp("export-files", "roster-head");
    let path = dir.join("roster.pdf");
    write_atomic(&path, &roster_pdf(&doc, Paper::A4).unwrap()).unwrap();
    if let Some(text) = pdf_text(&path) {
        assert!(
            text.contains(&format!("Log head: {}", &head[..16])),
            "{text}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 30: the roster of a battle made from a campaign prints, for each table unit, the board
/// unit it came from (read back from the PDF as a reader would).
#[test]
fn a_campaign_battles_roster_names_the_board_unit_of_each_table_unit() {
    use kepi::campaign::{CampaignTable, ops};
    use kepi::game::{Action, Game, SeedSecret};

    let dir = tmp("export-files", "campaign-roster");
    let s = kepi::registry::builtin_scenario("spi-1870").unwrap();
    let mut game = Game::new(
        &s,
        kepi::rules::spi::ID,
        SeedSecret::new(5),
        chrono::Utc::now(),
    );
    for (unit, hex) in [
        ("de-3-3-1", "1010"),
        ("de-3-3-2", "1110"),
        ("fr-metz-5", "1011"),
    ] {
        game.act(
            Action::Move {
                effects: Vec::new(),
                unit: unit.into(),
                to: hex.parse().unwrap(),
                notes: Vec::new(),
                mp: None,
            },
            chrono::Utc::now(),
        )
        .unwrap();
    }
    let campaign = dir.join("g.json");
    let mut store = kepi::store::Store::create(&campaign, &game).unwrap();
    let out = dir.join("battle.json");
    let attackers = ["de-3-3-1".to_string(), "de-3-3-2".to_string()];
    ops::make_battle(
        &mut game,
        &mut store,
        &campaign,
        &ops::BattleOrder {
            attackers: &attackers,
            hex: "1011".parse().unwrap(),
            rules: kepi::rules::pw::ID,
            out: &out,
            seed: 7,
        },
        &CampaignTable::load(None).unwrap(),
    )
    .unwrap();
    let battle = kepi::store::read_game(&out).unwrap().game;
    let doc =
        export::from_game::game_roster_doc(&battle, kepi::registry::builtin_tables().unwrap());
    let units: Vec<_> = doc
        .sides
        .iter()
        .flat_map(|s| &s.groups)
        .flat_map(|g| g.units.iter().chain(g.groups.iter().flat_map(|x| &x.units)))
        .collect();
    assert!(
        units
            .iter()
            .any(|u| u.id == "fr-metz-5-3" && u.from.as_deref() == Some("fr-metz-5"))
    );
    let pdf = dir.join("roster.pdf");
    write_atomic(&pdf, &roster_pdf(&doc, Paper::A4).unwrap()).unwrap();
    let Some(text) = pdf_text(&pdf) else {
        return;
    };
    for from in ["from de-3-3-1", "from de-3-3-2", "from fr-metz-5"] {
        assert!(text.contains(from), "`{from}` not in the roster: {text}");
    }
    // A game that is no campaign's battle prints no "from".
    let plain =
        export::from_game::game_roster_doc(&game, kepi::registry::builtin_tables().unwrap());
    let pdf = dir.join("plain.pdf");
    write_atomic(&pdf, &roster_pdf(&plain, Paper::A4).unwrap()).unwrap();
    if let Some(text) = pdf_text(&pdf) {
        assert!(!text.contains("from de-"), "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
