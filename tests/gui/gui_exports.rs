//! File > Print roster / Export cards / Battle report from the window, driven headless with
//! egui_kittest: the dialog, the worker thread, the progress bar and the files it writes (issue 9);
//! and the offer to continue or recover the last game at start (issue 8).

use super::common::{DESK, demo, tmp, window_of};

use std::path::PathBuf;
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use kepi::app::KepiApp;
use kepi::app::exports::ExportKind;
use kepi::app::state::{Command, LastGame};

/// Runs frames until the export's worker is done (the window polls it each frame).
fn run_until_exported(h: &mut Harness<'_, KepiApp>) {
    let start = Instant::now();
    while h.state().state.dialogs.export_job.is_some() {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "export did not finish"
        );
        std::thread::sleep(Duration::from_millis(20));
        h.step();
    }
    h.run();
}

#[test]
fn print_roster_from_the_file_menu() {
    let dir = tmp("gui-exports", "roster");
    let out = dir.join("club-roster.pdf");
    let mut h = demo(DESK);
    h.run();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Print roster…").click();
    h.run();
    // The dialog is open on the roster, offering a file name.
    assert!(h.query_by_label("Print and export").is_some());
    assert!(h.state().state.dialogs.export.open);
    assert_eq!(h.state().state.dialogs.export.kind, ExportKind::RosterPdf);
    assert!(h.state().state.dialogs.export.path.ends_with("roster.pdf"));
    h.state_mut().state.dialogs.export.path = out.display().to_string();
    h.run();
    h.get_by_label("Export").click();
    // From here the window repaints on its own (the progress bar): step, don't wait to settle.
    h.step();
    run_until_exported(&mut h);
    let bytes = std::fs::read(&out).expect("roster written");
    assert!(bytes.starts_with(b"%PDF"), "a PDF");
    let status = h.state().state.status.clone().expect("status");
    assert!(!status.error, "{}", status.text);
    assert!(status.text.contains("roster printed"), "{}", status.text);
    assert!(status.text.contains("pages"), "{}", status.text);
    // The dialog closes when the file is written.
    assert!(!h.state().state.dialogs.export.open);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cards_and_report_choose_their_kind_in_the_dialog() {
    let dir = tmp("gui-exports", "kinds");
    let mut h = demo(DESK);
    h.run();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Export cards…").click();
    h.run();
    // Switch to PNG cards: the path becomes a folder name.
    h.get_by_label(ExportKind::CardsPng.label()).click();
    h.run();
    assert_eq!(h.state().state.dialogs.export.kind, ExportKind::CardsPng);
    assert!(h.state().state.dialogs.export.path.ends_with("cards"));
    let cards = dir.join("cards");
    h.state_mut().state.dialogs.export.path = cards.display().to_string();
    h.run();
    h.get_by_label("Export").click();
    // From here the window repaints on its own (the progress bar): step, don't wait to settle.
    h.step();
    run_until_exported(&mut h);
    let n_units = h.state().state.state().units.len();
    let pngs = std::fs::read_dir(&cards)
        .expect("cards folder")
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "png"))
        })
        .count();
    assert_eq!(pngs, n_units, "one card per unit");

    // The battle report, as HTML, straight through the command the dialog sends.
    let report = dir.join("report.html");
    h.state_mut().state.handle(Command::Export {
        kind: ExportKind::ReportHtml,
        path: report.clone(),
    });
    run_until_exported(&mut h);
    let html = std::fs::read_to_string(&report).expect("report written");
    assert!(html.contains("<html"), "an HTML page");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unwritable_path_is_reported_and_the_window_goes_on() {
    let mut h = demo(DESK);
    // kepi's folder, where the game goes at its first action.
    h.state_mut().state.data_dir = Some(tmp("gui-exports", "unwritable-data"));
    h.run();
    let bad = tmp("gui-exports", "bad")
        .join("no-such-folder")
        .join("roster.pdf");
    h.state_mut().state.handle(Command::Export {
        kind: ExportKind::RosterPdf,
        path: bad.clone(),
    });
    run_until_exported(&mut h);
    let status = h.state().state.status.clone().expect("status");
    assert!(status.error, "{}", status.text);
    assert!(status.text.contains("no-such-folder"), "{}", status.text);
    assert!(!bad.exists());
    // The window still works: an edit goes through.
    h.state_mut().state.handle(Command::NextPhase);
    assert!(!h.state().state.status.as_ref().is_some_and(|s| s.error));
}

#[test]
fn a_long_export_shows_progress_while_the_window_keeps_drawing() {
    // Card sheets of the demo battle take long enough in a debug build to catch the worker
    // part-way; on a machine fast enough to finish first, only the end state is checked.
    let mut h = demo(DESK);
    h.run();
    let dir = tmp("gui-exports", "progress");
    let out = dir.join("big.pdf");
    h.state_mut().state.handle(Command::Export {
        kind: ExportKind::CardsPdf,
        path: out.clone(),
    });
    // While it runs, frames still draw (each step returns) and the status line shows a bar.
    h.step();
    if h.state().state.dialogs.export_job.is_some() {
        assert!(
            h.query_all_by_label_contains("drawing unit cards")
                .next()
                .is_some(),
            "progress shown while the export runs"
        );
        // A second export is refused, not queued behind the user's back.
        h.state_mut().state.handle(Command::Export {
            kind: ExportKind::RosterPdf,
            path: dir.join("second.pdf"),
        });
        assert!(
            h.state()
                .state
                .status
                .as_ref()
                .is_some_and(|s| s.error && s.text.contains("already running"))
        );
    }
    run_until_exported(&mut h);
    assert!(out.exists());
    assert!(!dir.join("second.pdf").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_last_game_is_offered_and_recovered_from_its_journal() {
    let dir = tmp("gui-exports", "last");
    let save = dir.join("battle.kepi.json");
    // Save a game, then make one more move that reaches the journal but not the save (as when
    // kepi is killed between the two writes).
    let mut h = demo(DESK);
    h.run();
    h.state_mut().state.handle(Command::SaveAs(save.clone()));
    h.state_mut().state.handle(Command::NextPhase);
    // The save is rewritten on idle, close and Save (the journal holds every action): Save.
    h.state_mut().state.handle(Command::Save);
    let len = h.state().state.game.log().len();
    let saved = std::fs::read(&save).expect("save");
    drop(h);
    // Roll the save back to before the last move, and make the journal newer than it.
    let old = kepi::store::parse_save(&saved, "save").expect("parses");
    assert_eq!(old.log().len(), len);
    let mut older = old.log().to_vec();
    older.pop();
    let game = kepi::game::Game::from_log(older, old.secret().cloned()).expect("replays");
    let bytes = serde_json::to_vec(&kepi::store::SaveFile::of(&game)).expect("json");
    std::fs::write(&save, bytes).expect("write");
    // The journal newer than the save: its modification time set a minute later, not waited for.
    let journal = kepi::store::journal_path(&save);
    let saved_at = std::fs::metadata(&save)
        .and_then(|m| m.modified())
        .expect("save mtime");
    std::fs::File::options()
        .write(true)
        .open(&journal)
        .and_then(|f| f.set_modified(saved_at + Duration::from_secs(60)))
        .expect("journal mtime");

    let last = LastGame::find(std::slice::from_ref(&save)).expect("offered");
    assert!(last.needs_recovery);
    let mut app = KepiApp::new(1870, None).expect("demo");
    app.state.dialogs.last_game = Some(last);
    let mut h = window_of(app, DESK);
    h.run();
    h.get_by_label("Recover and open").click();
    h.run();
    let app = &h.state().state;
    assert_eq!(app.game.log().len(), len, "the journal's last move is back");
    assert!(app.dialogs.last_game.is_none());
    let status = app.status.clone().expect("status");
    assert!(status.text.contains("recovered 1"), "{}", status.text);
    drop(h);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn not_now_dismisses_the_offer() {
    let dir = tmp("gui-exports", "dismiss");
    let save = dir.join("g.kepi.json");
    std::fs::write(&save, b"{}").expect("write");
    let mut app = KepiApp::new(1870, None).expect("demo");
    app.state.dialogs.last_game = LastGame::find(&[dir.join("gone.json"), save.clone()]);
    assert_eq!(
        app.state.dialogs.last_game.as_ref().map(|l| l.path.clone()),
        Some(save)
    );
    let mut h = window_of(app, DESK);
    h.run();
    assert!(h.query_by_label("Continue your last game").is_some());
    h.get_by_label("Not now").click();
    h.run();
    assert!(h.query_by_label("Continue your last game").is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn import_unit_cards_from_a_typed_path_and_refuse_a_broken_file() {
    let dir = tmp("gui-exports", "import");
    let good = dir.join("my-club.toml");
    std::fs::write(
        &good,
        r#"name = "club-skirmish"
system = "pw"
title = "Club skirmish"
sides = ["german", "french"]

[[unit]]
id = "de-1"
name = "Club Jaeger"
side = "german"
nation = "Prussia"
arm = "infantry"
quality = "elite"
strength = 4
weapon = "needle-gun"
hex = "0201"

[[unit]]
id = "fr-1"
name = "Club Chasseurs"
side = "french"
nation = "France"
arm = "infantry"
quality = "normal"
strength = 4
weapon = "chassepot"
hex = "0504"
"#,
    )
    .expect("write cards");
    let bad = dir.join("broken.toml");
    std::fs::write(&bad, "name = \"x\"\nsystem = \"warhammer\"\n").expect("write");

    let mut h = demo(DESK);
    h.run();
    // A broken file: the error names the file, line and field; the demo battle stays.
    let before = h.state().state.state().units.len();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("New from unit-card file…").click();
    h.run();
    assert!(
        h.state().state.files.dialog.open,
        "the in-window dialog opened"
    );
    h.state_mut().state.files.dialog.path = bad.display().to_string();
    h.run();
    h.get_by_label("Import these cards").click();
    h.run();
    let app = &h.state().state;
    let status = app.status.clone().expect("status");
    assert!(status.error, "{}", status.text);
    assert!(status.text.contains("broken.toml:2"), "{}", status.text);
    assert!(status.text.contains("system"), "{}", status.text);
    assert_eq!(
        app.state().units.len(),
        before,
        "the current game is unchanged"
    );

    // A good file: a new game with its two units, in the roster.
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("New from unit-card file…").click();
    h.run();
    h.state_mut().state.files.dialog.path = good.display().to_string();
    h.run();
    h.get_by_label("Import these cards").click();
    h.run();
    let app = &h.state().state;
    assert_eq!(app.state().units.len(), 2);
    assert_eq!(&*app.state().scenario, "club-skirmish");
    assert!(
        h.query_all_by_label_contains("Club Jaeger")
            .next()
            .is_some()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 44: the window's export writes through the same guard as the command line: onto the
/// journal of the game it holds open (or its save), it is refused, naming the file, and the
/// game's files are left byte for byte; the window goes on.
#[test]
fn an_export_onto_the_games_own_files_is_refused() {
    let mut h = demo(DESK);
    h.run();
    let dir = tmp("gui-exports", "own-files");
    let save = dir.join("g.json");
    h.state_mut().state.handle(Command::SaveAs(save.clone()));
    h.state_mut().state.handle(Command::NextPhase);
    // The save caught up, so no rewrite on idle changes it while the exports run.
    h.state_mut().state.handle(Command::Save);
    let journal = kepi::store::journal_path(&save);
    let files = |p: &PathBuf| std::fs::read(p).expect("game file");
    let before = (files(&save), files(&journal));
    for (kind, path) in [
        (ExportKind::UnitsCsv, journal.clone()),
        (ExportKind::ReportHtml, journal.clone()),
        (ExportKind::RosterPdf, save.clone()),
    ] {
        h.state_mut().state.handle(Command::Export {
            kind,
            path: path.clone(),
        });
        run_until_exported(&mut h);
        let status = h.state().state.status.clone().expect("status");
        assert!(status.error, "{}", status.text);
        assert!(
            status.text.contains("a game's own files") && status.text.contains("g.json"),
            "{}",
            status.text
        );
    }
    assert_eq!((files(&save), files(&journal)), before);
    // The game goes on, into the journal it holds.
    h.state_mut().state.handle(Command::NextPhase);
    assert!(!h.state().state.status.as_ref().is_some_and(|s| s.error));
}
