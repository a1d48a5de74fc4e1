//! Issue 46, files and the frame around the game: the in-window file dialog keeps one size and its
//! buttons their place whatever the folder holds, and does not take the click that opened it; a
//! file dialog starts in the folder last used; the top bar's date is never cut at 1366x768; a
//! battle its campaign already took back says so; a kepi killed with a game open says so at the
//! next start and recovers it; a campaign battle's roster rows keep their numbers.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command as Process, Stdio};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use kepi::app::KepiApp;
use kepi::app::file_dialog::{DEFAULT_SAVE_NAME, Purpose};
use kepi::app::state::{AppState, Command};
use kepi::game::Action;
use kepi::registry::builtin_scenario;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kepi-gui-files46-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn harness(state: AppState) -> Harness<'static, KepiApp> {
    Harness::builder()
        .with_size(egui::vec2(1366.0, 768.0))
        .build_ui_state(
            |ui, app: &mut KepiApp| app.ui(ui),
            KepiApp::with_state(state),
        )
}

/// The demo battle with kepi's folder at `data` and the in-window file dialogs.
fn demo_in(data: &Path) -> AppState {
    let mut state = AppState::demo(1870).expect("demo battle");
    state.data_dir = Some(data.to_path_buf());
    state.files.native = false;
    state
}

fn rect(h: &Harness<'_, KepiApp>, label: &str) -> egui::Rect {
    h.get_by_label(label).rect()
}

/// A folder of `n` games and `d` sub-folders.
fn folder_of(dir: &Path, games: usize, folders: usize) {
    std::fs::create_dir_all(dir).expect("folder");
    for k in 0..games {
        std::fs::write(dir.join(format!("game-{k:03}.json")), b"{}").expect("file");
    }
    for k in 0..folders {
        std::fs::create_dir_all(dir.join(format!("sub-{k:02}"))).expect("sub");
    }
}

#[test]
fn the_file_dialog_keeps_its_size_and_its_buttons_in_place() {
    let dir = tmp("dialog-size");
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).expect("empty");
    let full = dir.join(format!("{}-a-folder-with-a-long-name", "very".repeat(20)));
    folder_of(&full, 60, 12);
    let mut state = demo_in(&dir);
    state.settings.last_folder = Some(empty.clone());
    let mut h = harness(state);
    h.run();
    h.state_mut()
        .state
        .handle(Command::ChooseFile(Purpose::SaveAs));
    h.run();
    assert_eq!(h.state().state.files.dialog.folder, empty);
    assert!(
        h.query_by_label("No folders or .json games here.")
            .is_some()
    );
    let save = rect(&h, "Save here");
    let cancel = rect(&h, "Cancel");
    let up = rect(&h, "Up");
    // A folder of sixty games and a path too long for the window: nothing moves.
    h.state_mut().state.files.dialog.go_to(full.clone());
    h.run();
    assert!(h.query_by_label("game-000.json").is_some(), "listed");
    assert_eq!(rect(&h, "Save here"), save, "Save here stays");
    assert_eq!(rect(&h, "Cancel"), cancel, "Cancel stays");
    assert_eq!(rect(&h, "Up"), up, "Up stays");
    // No row under the buttons: a click on Save here saves (a row there once took it and
    // changed the path).
    let rows = h.query_all_by_label_contains("sub-").count();
    assert!(rows >= 8, "{rows} rows");
    // The window is as wide as before: the path is shown by its end, whole on hover.
    let screen = h.ctx.content_rect();
    assert!(screen.contains(save.center()) && screen.contains(cancel.center()));
    // Back up to a folder of two entries: still in place.
    h.get_by_label("Up").click();
    h.run();
    assert_eq!(h.state().state.files.dialog.folder, dir);
    assert_eq!(rect(&h, "Save here"), save);
    assert_eq!(rect(&h, "Cancel"), cancel);
    h.state_mut().state.files.dialog.go_to(full.clone());
    h.run();
    h.get_by_label("Save here").click();
    h.run();
    let app = &h.state().state;
    assert_eq!(
        app.save_path(),
        Some(full.join(DEFAULT_SAVE_NAME)),
        "{:?}",
        app.status
    );
    drop(h);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_dialog_opening_under_the_pointer_does_not_take_that_click() {
    let dir = tmp("opening-click");
    folder_of(&dir.join("games"), 0, 0);
    std::fs::write(dir.join("a.json"), b"{}").expect("a.json");
    let mut state = demo_in(&dir);
    state.settings.last_folder = Some(dir.clone());
    let mut h = harness(state);
    h.run();
    let open = |h: &mut Harness<'_, KepiApp>| {
        h.state_mut()
            .state
            .handle(Command::ChooseFile(Purpose::SaveAs));
    };
    open(&mut h);
    h.run();
    let row = rect(&h, "a.json").center();
    let offered = dir.join(DEFAULT_SAVE_NAME);
    assert_eq!(h.state().state.files.dialog.chosen(), Some(offered.clone()));
    // Closed, then opened again in the very frame a click lands where the row is.
    h.get_by_label("Cancel").click();
    h.step();
    assert!(!h.state().state.files.dialog.open);
    open(&mut h);
    let press = |pressed| egui::Event::PointerButton {
        pos: row,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    };
    h.event(egui::Event::PointerMoved(row));
    h.event(press(true));
    h.event(press(false));
    h.run();
    assert!(h.state().state.files.dialog.open);
    assert_eq!(
        h.state().state.files.dialog.chosen(),
        Some(offered),
        "the click that opened the dialog picked nothing"
    );
    // A press held from before the dialog showed, let go on the row: not taken either.
    h.get_by_label("Cancel").click();
    h.run();
    h.event(egui::Event::PointerMoved(row));
    h.event(press(true));
    h.step();
    open(&mut h);
    h.step();
    h.step();
    h.event(press(false));
    h.run();
    assert_eq!(
        h.state().state.files.dialog.chosen(),
        Some(dir.join(DEFAULT_SAVE_NAME))
    );
    // A click of its own picks the row.
    h.get_by_label("a.json").click();
    h.run();
    assert_eq!(
        h.state().state.files.dialog.chosen(),
        Some(dir.join("a.json"))
    );
    drop(h);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn save_as_and_export_start_in_the_folder_last_used() {
    let dir = tmp("last-folder");
    let data = dir.join("data");
    let club = dir.join("club");
    std::fs::create_dir_all(&club).expect("club");
    let mut app = demo_in(&data);
    // A game kept in kepi's folder (never saved): Save As once offered the home folder.
    app.handle(Command::NextPhase);
    assert!(app.autosaved);
    app.handle(Command::ChooseFile(Purpose::SaveAs));
    let d = &app.files.dialog;
    assert!(d.open);
    assert_ne!(d.folder, data.join("games"), "never kepi's own folder");
    // The game is saved in the club's folder through the dialog.
    app.files.dialog.path = club.join("first.kepi.json").display().to_string();
    let chosen = app.files.dialog.chosen().expect("path");
    app.files.dialog.open = false;
    app.handle(Command::SaveAs(chosen));
    assert_eq!(app.settings.last_folder.as_deref(), Some(club.as_path()));
    // A new game, kept by kepi: Save As starts in the club's folder, not home.
    app.handle(Command::NewGame("pw-skirmish".into()));
    app.handle(Command::NextPhase);
    assert!(app.autosaved, "{:?}", app.status);
    app.handle(Command::ChooseFile(Purpose::SaveAs));
    assert_eq!(app.files.dialog.folder, club);
    assert_eq!(
        app.files.dialog.chosen(),
        Some(club.join(DEFAULT_SAVE_NAME))
    );
    app.files.dialog.open = false;
    // So does the export dialog.
    app.handle(Command::ShowExport(
        kepi::app::exports::ExportKind::RosterPdf,
    ));
    assert!(
        Path::new(&app.dialogs.export.path).starts_with(&club),
        "{}",
        app.dialogs.export.path
    );
    // The next start remembers it (the settings are kept between runs).
    let settings = app.settings.clone();
    let mut next = demo_in(&data);
    next.settings = settings;
    next.handle(Command::ChooseFile(Purpose::Open));
    assert_eq!(next.files.dialog.folder, club);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_top_bar_shows_the_whole_date_at_1366() {
    for name in [
        "pw-skirmish",
        "st-privat",
        "spi-1870",
        "fr1870-august",
        "mars-la-tour",
    ] {
        let mut state = AppState::demo(1870).expect("demo");
        state.handle(Command::NewGame(name.into()));
        let Some(date) = state.game.state().date else {
            continue;
        };
        let date = date.format("%-d %b %Y").to_string();
        let mut h = harness(state);
        h.run();
        let node = h
            .query_by_label(&date)
            .unwrap_or_else(|| panic!("{name}: the date {date} is a label of its own"));
        let shown = node.rect();
        let needs = h.ctx.fonts_mut(|f| {
            f.layout_no_wrap(
                date.clone(),
                egui::FontId::proportional(15.0),
                egui::Color32::WHITE,
            )
            .size()
            .x
        });
        assert!(
            shown.width() + 0.5 >= needs,
            "{name}: {date} needs {needs} and has {}",
            shown.width()
        );
        let screen = h.ctx.content_rect();
        assert!(screen.contains(shown.right_bottom()), "{name}: on screen");
        // The turn and phase are whole too.
        let phase = format!(
            "Turn {} - {}",
            h.state().state.game.state().turn,
            h.state().state.game.state().phase_name()
        );
        let p = h.get_by_label(&phase).rect();
        let needs = h.ctx.fonts_mut(|f| {
            f.layout_no_wrap(
                phase.clone(),
                egui::FontId::proportional(15.0),
                egui::Color32::WHITE,
            )
            .size()
            .x
        });
        assert!(p.width() + 0.5 >= needs, "{name}: {phase} cut");
        // The bar's last control, the dice mode's "mine", is on the screen whole.
        let mine = h.get_by_label("mine").rect();
        assert!(
            mine.right() <= screen.right(),
            "{name}: \"mine\" at {mine:?} runs past {screen:?}"
        );
    }
}

/// An SPI campaign saved at `dir/g.json`, the resolver holding the combat of two German corps on
/// the French corps of Metz in 1011 (as `gui_campaign.rs` sets it up).
fn spi_campaign(dir: &Path) -> AppState {
    let tables = kepi::registry::builtin_tables().expect("tables");
    let s = builtin_scenario("spi-1870").expect("scenario");
    let mut app = AppState::new_game(&s, 5, tables).expect("game");
    app.handle(Command::SaveAs(dir.join("g.json")));
    for (unit, hex) in [
        ("de-3-3-1", "1010"),
        ("de-3-3-2", "1110"),
        ("fr-metz-5", "1011"),
    ] {
        app.handle(Command::Act(Action::Move {
            effects: Vec::new(),
            unit: unit.into(),
            to: hex.parse().expect("hex"),
            notes: Vec::new(),
            mp: None,
        }));
    }
    app.handle(Command::Select("de-3-3-1".into()));
    app.handle(Command::Target("fr-metz-5".into()));
    app.handle(Command::ToggleAttacker("de-3-3-2".into()));
    app
}

/// The campaign's battle made in `dir` (the window open on it).
fn battle_of(dir: &Path) -> (AppState, PathBuf) {
    let mut app = spi_campaign(dir);
    app.handle(Command::ShowFight);
    let battle = dir.join("battle.kepi.json");
    app.handle(Command::FightBattle(battle.clone()));
    assert_eq!(app.save_path(), Some(battle.clone()), "{:?}", app.status);
    (app, battle)
}

#[test]
fn a_battle_returned_already_says_so_and_stays_playable() {
    let dir = tmp("returned");
    let (mut app, battle) = battle_of(&dir);
    assert_eq!(app.dialogs.campaign.returned, None, "not returned yet");
    app.handle(Command::ShowReturn);
    app.handle(Command::ReturnToCampaign(Some(kepi::roster::Side::German)));
    assert_eq!(
        app.save_path(),
        Some(dir.join("g.json")),
        "{:?}",
        app.status
    );
    // The battle opened again: a banner says it, in the window.
    app.handle(Command::Open(battle.clone()));
    let said = app.dialogs.campaign.returned.clone().expect("said");
    assert!(said.contains("returned to the campaign"), "{said}");
    assert!(said.contains("g.json"), "{said}");
    assert!(said.contains("do not reach the campaign"), "{said}");
    let mut h = harness(app);
    h.run();
    assert!(
        h.query_by_label_contains("Returned already: this battle was returned")
            .is_some(),
        "the banner"
    );
    // Acting on it: done (never refused), and the status line warns.
    let before = h.state().state.game.log().len();
    h.get_by_label("Next phase >").click();
    h.run();
    let app = &h.state().state;
    assert_eq!(app.game.log().len(), before + 1, "played on");
    let status = app.status.clone().expect("status");
    assert!(
        status.text.contains("do not reach the campaign"),
        "{}",
        status.text
    );
    drop(h);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_campaign_battles_roster_rows_keep_their_numbers() {
    let dir = tmp("roster");
    let (app, _) = battle_of(&dir);
    let mut h = harness(app);
    h.run();
    let screen = h.ctx.content_rect();
    let names: Vec<String> = h
        .state()
        .state
        .game
        .state()
        .units
        .iter()
        .map(|u| u.unit.name.clone())
        .collect();
    let painted: Vec<String> = painted_texts(&h)
        .into_iter()
        .map(|t| {
            t.trim_start_matches("> ")
                .trim_start_matches("@ ")
                .to_string()
        })
        .collect();
    let (mut rows, mut cut) = (0, 0);
    for name in &names {
        // A row drawn on screen is read out by its whole name (a cut one too).
        let Some(node) = h.query_by_label(name) else {
            continue;
        };
        if !screen.contains(node.rect().center()) {
            continue;
        }
        rows += 1;
        if painted.contains(name) {
            continue;
        }
        // Drawn cut (a row below the list's edge is not drawn at all).
        let number = name.rsplit(' ').next().expect("last word");
        let drawn: Vec<&String> = painted
            .iter()
            .filter(|t| {
                t.split_once('…')
                    .is_some_and(|(head, _)| !head.is_empty() && name.starts_with(head))
            })
            .collect();
        if drawn.is_empty() {
            continue;
        }
        cut += 1;
        assert!(
            drawn.iter().any(|t| t.ends_with(&format!("… {number}"))),
            "{name} is drawn without its number: {drawn:?}"
        );
    }
    assert!(rows >= 8, "{rows} unit rows on screen");
    assert!(
        cut >= 1,
        "at 1366x768 some names are too long for the roster"
    );
    // No text drawn is a name cut before its number.
    for t in &painted {
        if let Some(head) = t.strip_suffix('…') {
            assert!(
                !names.iter().any(|n| n.starts_with(head)),
                "{t} is a name cut at its end"
            );
        }
    }
    // The group rows: the count of units has its own room, never cut.
    let groups: Vec<&String> = painted.iter().filter(|t| t.starts_with("· ")).collect();
    assert!(!groups.is_empty(), "group counts drawn: {painted:?}");
    drop(h);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The texts painted in the last frame.
fn painted_texts(h: &Harness<'_, KepiApp>) -> Vec<String> {
    let out = h.output();
    let mut v = Vec::new();
    for clipped in &out.shapes {
        collect_texts(&clipped.shape, &mut v);
    }
    v
}

fn collect_texts(shape: &egui::Shape, v: &mut Vec<String>) {
    match shape {
        egui::Shape::Text(t) => {
            let text: String = t.galley.rows.iter().map(|r| r.row.text()).collect();
            v.push(text);
        }
        egui::Shape::Vec(shapes) => {
            for s in shapes {
                collect_texts(s, v);
            }
        }
        _ => {}
    }
}

/// The child of the kill test: opens the save at `KEPI_RUNNING_CHILD_SAVE` in the window's state,
/// plays, rewrites the save (so its journal is no newer than it: the case the start missed),
/// prints "ready N" and waits to be killed.
#[test]
#[ignore = "run by the kill test as a child process"]
fn running_marker_child() {
    let Some(save) = std::env::var_os("KEPI_RUNNING_CHILD_SAVE") else {
        return;
    };
    let save = PathBuf::from(save);
    let mut state = AppState::demo(7).expect("demo");
    state.handle(Command::Open(save.clone()));
    if state.save_path() != Some(save) {
        println!("failed {:?}", state.status);
        return;
    }
    for _ in 0..3 {
        state.handle(Command::NextPhase);
    }
    state.compact();
    println!("ready {}", state.game.log().len());
    std::thread::sleep(std::time::Duration::from_secs(60));
}

#[test]
fn after_kill_9_the_next_start_says_kepi_stopped_uncleanly_and_recovers() {
    let dir = tmp("kill");
    let save = dir.join("club.kepi.json");
    {
        let mut app = AppState::demo(3).expect("demo");
        app.handle(Command::SaveAs(save.clone()));
        assert!(save.exists(), "{:?}", app.status);
    }
    assert!(
        !kepi::store::running::marker_path(&save).exists(),
        "a clean close leaves no marker"
    );
    let exe = std::env::current_exe().expect("test binary");
    let mut child = Process::new(&exe)
        .args([
            "--ignored",
            "--exact",
            "gui_files46::running_marker_child",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("KEPI_RUNNING_CHILD_SAVE", &save)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("child");
    let out = child.stdout.take().expect("stdout");
    let mut played = None;
    for line in BufReader::new(out).lines() {
        let Ok(line) = line else { break };
        // libtest's "test NAME ... " is on the same line.
        if let Some((_, n)) = line.split_once("ready ") {
            played = n.trim().parse::<usize>().ok();
            break;
        }
        assert!(!line.contains("failed "), "the child: {line}");
    }
    let _ = child.kill(); // SIGKILL
    let _ = child.wait();
    let played = played.expect("the child played");
    assert!(
        kepi::store::running::marker_path(&save).exists(),
        "kill -9 leaves the marker"
    );
    // The next start: the last game is offered with the word that kepi stopped uncleanly.
    let mut state = AppState::demo(1870).expect("demo");
    state.data_dir = Some(dir.join("data"));
    state.settings.recent = vec![save.clone()];
    let mut state_for_window = state;
    state_for_window.dialogs.last_game = kepi::app::state::LastGame::find_with(
        &state_for_window.settings.recent,
        state_for_window.data_dir.as_deref(),
    );
    let mut h = harness(state_for_window);
    h.run();
    assert!(
        h.query_by_label_contains("kepi stopped uncleanly last time")
            .is_some(),
        "said at start"
    );
    h.get_by_label("Recover and open").click();
    h.run();
    let app = &h.state().state;
    assert_eq!(app.save_path(), Some(save.clone()), "{:?}", app.status);
    assert_eq!(app.game.log().len(), played, "every action back");
    assert!(app.dialogs.last_game.is_none());
    // Open again now: the marker is this kepi's; closed cleanly, it goes.
    assert!(kepi::store::running::marker_path(&save).exists());
    drop(h);
    assert!(!kepi::store::running::marker_path(&save).exists());
    // A clean stop: the next start offers the game without the word.
    let last = kepi::app::state::LastGame::find(std::slice::from_ref(&save)).expect("offered");
    assert_eq!(last.unclean, None);
    let _ = std::fs::remove_dir_all(&dir);
}
