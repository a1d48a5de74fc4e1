//! The table on a network in the window (issue 19): File > Host this game… hosts the open save
//! and shows its seats' codes; File > Join a game… joins a loopback host with a code, shows the
//! host's game, and follows what other clients do.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use kepi::app::KepiApp;
use kepi::app::state::AppState;
use kepi::net::Seat;
use kepi::net::client::Client;
use kepi::net::host::{Event, Host, HostOptions, SeatCode};
use kepi::store::Store;
use kepi::tables::Tables;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kepi-gui-net-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// A save of the demo battle at `dir/game.kepi.json`.
fn save_in(dir: &Path) -> PathBuf {
    let path = dir.join("game.kepi.json");
    let state = AppState::demo(1870).expect("demo battle");
    drop(Store::create(&path, &state.game).expect("save"));
    path
}

fn harness(state: AppState) -> Harness<'static, KepiApp> {
    let mut app = KepiApp::with_state(state);
    // The tests stay off the LAN: no mDNS advertisement.
    app.net.advertise = false;
    Harness::builder()
        .with_size(egui::vec2(1366.0, 768.0))
        .build_ui_state(|ui, app: &mut KepiApp| app.ui(ui), app)
}

/// Steps the window until `done` holds (or fails after a deadline).
fn until(h: &mut Harness<'static, KepiApp>, what: &str, done: impl Fn(&KepiApp) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(15);
    while !done(h.state()) {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
        h.step();
    }
    // Discovery's spinner keeps repainting: a fixed number of frames, not `run`.
    h.run_steps(2);
}

/// A host of `save` on loopback, serving on its own thread until the flag is set.
struct TestHost {
    address: String,
    seats: Vec<SeatCode>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl TestHost {
    fn start(save: &Path) -> TestHost {
        let tables = Tables::builtin().expect("tables");
        let host = Host::open(
            save,
            &HostOptions {
                bind: std::net::IpAddr::from([127, 0, 0, 1]),
                port: 0,
                new_codes: true,
            },
            tables,
            Arc::new(|_: &Event| {}),
        )
        .expect("host");
        let address = host.url();
        let seats = host.seats();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let _ = host.serve(&flag);
        });
        TestHost {
            address,
            seats,
            stop,
            thread: Some(thread),
        }
    }

    fn code(&self, seat: Seat) -> String {
        self.seats
            .iter()
            .find(|s| s.seat == seat)
            .map(|s| s.code.clone())
            .expect("seat")
    }
}

impl Drop for TestHost {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[test]
fn host_this_game_shows_four_seats_with_codes_and_stops_back_to_the_save() {
    let dir = tmp("host");
    let save = save_in(&dir);
    let mut state = AppState::demo(1).expect("demo");
    state.open(&save);
    assert!(state.store.is_some(), "{:?}", state.status);
    let mut h = harness(state);
    h.run();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Host this game…").click();
    h.run();
    assert!(h.query_by_label("Host this game").is_some());
    h.get_by_label("Start hosting").click();
    h.run();
    let seats = h
        .state()
        .net
        .hosting
        .as_ref()
        .map(|x| x.seats.clone())
        .expect("hosting");
    let names: Vec<&str> = seats.iter().map(|s| s.seat.name()).collect();
    assert_eq!(names, ["umpire", "german", "french", "spectator"]);
    for s in &seats {
        assert!(
            h.query_by_label(&s.code).is_some(),
            "the {} seat's code is shown",
            s.seat
        );
    }
    // The window follows the game as the umpire's seat, and does not change it itself.
    until(&mut h, "the window's own umpire connection", |a| {
        a.net
            .hosting
            .as_ref()
            .is_some_and(|x| x.connected.iter().any(|(s, _)| *s == Seat::Umpire))
    });
    assert!(h.state().state.remote.is_some());
    let before = h.state().state.game.log().len();
    h.get_by_label("Next phase >").click();
    h.run();
    assert_eq!(h.state().state.game.log().len(), before, "refused locally");
    // A player's request while approval is on waits for the umpire, who approves it here.
    h.get_by_label("Players' resolutions wait for my approval")
        .click();
    until(&mut h, "approval on", |a| {
        a.net.hosting.as_ref().is_some_and(|x| x.approval)
    });
    h.get_by_label("Stop hosting").click();
    until(&mut h, "the host to stop", |a| {
        a.net.hosting.is_none() && a.state.store.is_some()
    });
    assert!(h.state().state.remote.is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_game_without_a_save_must_be_saved_before_it_is_hosted() {
    let mut h = harness(AppState::demo(1).expect("demo"));
    h.run();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Host this game…").click();
    h.run();
    assert!(
        h.query_by_label_contains("it must be saved first")
            .is_some()
    );
    assert!(h.query_by_label("Start hosting").is_none());
}

fn join(h: &mut Harness<'static, KepiApp>, address: &str, code: &str) {
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Join a game…").click();
    h.run_steps(2);
    assert!(h.query_by_label("Join a game").is_some());
    h.state_mut().net.join.address = address.to_string();
    h.state_mut().net.join.code = code.to_string();
    h.run_steps(2);
    h.get_by_label("Join").click();
    h.run_steps(2);
}

#[test]
fn join_with_a_wrong_code_is_refused() {
    let dir = tmp("wrong");
    let host = TestHost::start(&save_in(&dir));
    let mut h = harness(AppState::demo(2).expect("demo"));
    h.run_steps(2);
    join(&mut h, &host.address, "0000-0000-0000-0000");
    until(&mut h, "the refusal", |a| a.net.join.error.is_some());
    assert!(h.query_all_by_label_contains("wrong code").next().is_some());
    assert!(h.state().net.joined.is_none());
    assert!(h.state().state.remote.is_none());
}

#[test]
fn join_with_a_right_code_shows_the_hosts_game_and_follows_its_log() {
    let dir = tmp("right");
    let save = save_in(&dir);
    let host = TestHost::start(&save);
    // The local game is another scenario, so the host's units are plainly the host's.
    let mut h = harness(AppState::demo(3).expect("demo"));
    h.run_steps(2);
    let local_len = h.state().state.game.log().len();
    join(
        &mut h,
        &host.address,
        &host.code(Seat::Player(kepi::roster::Side::German)),
    );
    until(&mut h, "the host's game", |a| {
        a.state.remote.is_some() && a.net.joined.as_ref().is_some_and(|j| j.seat.is_some())
    });
    let hosts = kepi::store::read_game(&save).expect("read").game;
    let unit = hosts
        .state()
        .units
        .first()
        .map(|u| u.unit.name.clone())
        .expect("a unit");
    assert!(
        h.query_all_by_label_contains(&unit).next().is_some(),
        "{unit} shown"
    );
    // Another client (the umpire's script) acts; the joined window's log shows it.
    let mut umpire = Client::connect(
        &host.address,
        &host.code(Seat::Umpire),
        None,
        Duration::from_secs(5),
    )
    .expect("umpire connects");
    umpire
        .apply(
            &["note".to_string(), "the Guard moves up".to_string()],
            Duration::from_secs(5),
        )
        .expect("note applied");
    umpire.close();
    until(&mut h, "the umpire's note", |a| {
        a.state
            .game
            .log()
            .last()
            .is_some_and(|e| e.summary.contains("the Guard moves up"))
    });
    // The player's seat may not write notes: the request is refused with the host's reason.
    if let Some(j) = h.state_mut().net.joined.as_mut() {
        j.request = "note hello".into();
    }
    h.run_steps(2);
    h.get_by_label("Send request").click();
    until(&mut h, "the answer", |a| {
        a.net.joined.as_ref().is_some_and(|j| {
            j.answers
                .iter()
                .any(|(t, bad)| *bad && t.contains("umpire"))
        })
    });
    // Leave: the local game is back.
    h.get_by_label("Leave").click();
    h.run_steps(2);
    assert!(h.state().state.remote.is_none());
    assert_eq!(h.state().state.game.log().len(), local_len);
    drop(host);
    let _ = std::fs::remove_dir_all(&dir);
}
