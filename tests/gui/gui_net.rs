//! The table on a network in the window (issue 19): File > Host this game… hosts the open save
//! and shows its seats' codes; File > Join a game… joins a loopback host with a code, shows the
//! host's game, and follows what other clients do.

use super::common::{LAPTOP, TestHost, tmp, window_of};

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use kepi::app::KepiApp;
use kepi::app::state::{AppState, Mode};
use kepi::net::Seat;
use kepi::net::client::Client;
use kepi::store::Store;

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
    window_of(app, LAPTOP)
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

#[test]
fn host_this_game_shows_four_seats_with_codes_and_stops_back_to_the_save() {
    let dir = tmp("gui-net", "host");
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
    assert!(matches!(h.state().state.mode, Mode::Hosting(_)));
    // The umpire plays in this window as ever: the next phase goes to the host, which applies it.
    let before = h.state().state.game.log().len();
    h.get_by_label("Next phase >").click();
    until(&mut h, "the next phase, applied by the host", |a| {
        a.state.game.log().len() == before + 1
    });
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
    assert!(matches!(h.state().state.mode, Mode::Local));
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
    let dir = tmp("gui-net", "wrong");
    let host = TestHost::start(&save_in(&dir));
    let mut h = harness(AppState::demo(2).expect("demo"));
    h.run_steps(2);
    join(&mut h, &host.address, "0000-0000-0000-0000");
    until(&mut h, "the refusal", |a| a.net.join.error.is_some());
    assert!(h.query_all_by_label_contains("wrong code").next().is_some());
    assert!(h.state().net.joined.is_none());
    assert!(matches!(h.state().state.mode, Mode::Local));
}

#[test]
fn join_with_a_right_code_shows_the_hosts_game_and_follows_its_log() {
    let dir = tmp("gui-net", "right");
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
        matches!(a.state.mode, Mode::Joined(_))
            && a.net.joined.as_ref().is_some_and(|j| j.seat.is_some())
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
    assert!(matches!(h.state().state.mode, Mode::Local));
    assert_eq!(h.state().state.game.log().len(), local_len);
    drop(host);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A window (its own game a demo of `seed`) joined to `host` as the german seat, its Join dialog
/// closed.
fn joined_as_german(host: &TestHost, seed: u64) -> Harness<'static, KepiApp> {
    let german = Seat::Player(kepi::roster::Side::German);
    let mut h = harness(AppState::demo(seed).expect("demo"));
    h.run_steps(2);
    join(&mut h, &host.address, &host.code(german));
    until(&mut h, "the host's game as the german seat", |a| {
        a.state
            .mode
            .remote()
            .is_some_and(|r| r.seat == Some(german))
    });
    h.state_mut().net.join_open = false;
    h.run_steps(2);
    h
}

const FIRER: &str = "12th-grenadiers-1";
const TARGET: &str = "8e-ligne-1";

fn last_resolution(app: &KepiApp) -> Option<(String, Vec<u32>)> {
    app.state
        .game
        .log()
        .iter()
        .rev()
        .find_map(|e| match &e.kind {
            kepi::game::EntryKind::Act {
                action: kepi::game::Action::Resolved { resolution, .. },
            } => Some((
                resolution.summary.clone(),
                resolution.dice.iter().map(|d| d.value).collect(),
            )),
            _ => None,
        })
}

fn strength(app: &KepiApp, id: &str) -> u32 {
    app.state.state().unit(id).map_or(0, |u| u.strength)
}

/// Starts hosting `save` from the window's File menu and waits for its own umpire connection.
fn host_in_window(save: &Path, seed: u64) -> Harness<'static, KepiApp> {
    let mut state = AppState::demo(seed).expect("demo");
    state.open(save);
    assert!(state.store.is_some(), "{:?}", state.status);
    let mut h = harness(state);
    h.run();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Host this game…").click();
    h.run();
    h.get_by_label("Start hosting").click();
    h.run();
    until(&mut h, "the window's own umpire connection", |a| {
        a.net
            .hosting
            .as_ref()
            .is_some_and(|x| x.connected.iter().any(|(s, _)| *s == Seat::Umpire))
            && a.state
                .mode
                .remote()
                .is_some_and(|r| r.seat == Some(Seat::Umpire))
    });
    h
}

#[test]
fn the_umpire_plays_in_the_hosting_window_and_the_host_rolls_the_same_as_alone() {
    use kepi::app::state::Command;
    let dir = tmp("gui-net", "umpire-plays");
    let save = save_in(&dir);
    let mut h = host_in_window(&save, 5);
    // Issue 46: the window handed its save to the host, which keeps its "running" marker (a
    // kill -9 now is said at the next start).
    let marker = kepi::store::running::marker_path(&save);
    let deadline = Instant::now() + Duration::from_secs(15);
    while !marker.exists() {
        assert!(
            Instant::now() < deadline,
            "the host keeps the save's marker"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // Close the dialog: the umpire plays in the window itself.
    h.state_mut().net.host_open = false;
    h.run();
    let full = strength(h.state(), TARGET);
    h.state_mut().state.handle(Command::Select(FIRER.into()));
    h.state_mut().state.handle(Command::Target(TARGET.into()));
    h.run();
    let before = h.state().state.game.log().len();
    h.get_by_label("Roll and apply").click();
    h.step();
    // Asked, not yet answered: a second roll now (R, or a second click) is not a second roll.
    assert_eq!(h.state().state.mode.remote().map(|r| r.waiting), Some(1));
    h.state_mut().state.handle(Command::ResolveAndApply {
        entered: Vec::new(),
    });
    let status = h.state().state.status.clone().expect("a status");
    assert!(
        status.error && status.text.contains("waiting"),
        "{status:?}"
    );
    until(&mut h, "the fire, rolled by the host", |a| {
        a.state.game.log().len() == before + 1 && last_resolution(a).is_some()
    });
    until(&mut h, "the answer", |a| {
        a.state.mode.remote().is_some_and(|r| r.waiting == 0)
    });
    h.run_steps(5);
    assert_eq!(
        h.state().state.game.log().len(),
        before + 1,
        "one roll, not two"
    );
    let hosted = last_resolution(h.state()).expect("a resolution");
    assert!(
        strength(h.state(), TARGET) < full,
        "seed 1870 kills figures"
    );
    assert!(
        h.query_by_label_contains("Result: ").is_some(),
        "the result card shows the host's entry"
    );
    // The same fire in a window alone, on the same game: the same dice and the same result.
    let mut alone = AppState::demo(1870).expect("demo");
    alone.handle(Command::Select(FIRER.into()));
    alone.handle(Command::Target(TARGET.into()));
    alone.handle(Command::ResolveAndApply {
        entered: Vec::new(),
    });
    let local = alone
        .game
        .log()
        .last()
        .and_then(|e| match &e.kind {
            kepi::game::EntryKind::Act {
                action: kepi::game::Action::Resolved { resolution, .. },
            } => Some((
                resolution.summary.clone(),
                resolution
                    .dice
                    .iter()
                    .map(|d| d.value)
                    .collect::<Vec<u32>>(),
            )),
            _ => None,
        })
        .expect("a local resolution");
    assert_eq!(hosted, local, "one function resolves, hosted or not");
    // A loss by hand (the roster's edit), then undo: both through the host.
    h.state_mut()
        .state
        .handle(Command::Act(kepi::game::Action::LoseStrength {
            unit: FIRER.into(),
            n: 1,
        }));
    let firer = strength(h.state(), FIRER);
    until(&mut h, "the loss by hand", |a| {
        strength(a, FIRER) + 1 == firer
    });
    h.state_mut().state.handle(Command::Undo);
    until(&mut h, "the undo", |a| strength(a, FIRER) == firer);
    let shown = h.state().state.game.log().len();
    // Stop hosting: the save on disk holds what the window showed.
    h.state_mut().net.stop_hosting();
    until(&mut h, "the host to stop", |a| {
        a.net.hosting.is_none() && a.state.store.is_some()
    });
    let on_disk = kepi::store::read_game(&save).expect("read").game;
    assert_eq!(on_disk.log().len(), shown);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_player_window_rolls_its_own_units_and_is_refused_the_umpires_things() {
    use kepi::app::state::Command;
    use kepi::roster::Side;
    let dir = tmp("gui-net", "player-rolls");
    let save = save_in(&dir);
    let host = TestHost::start(&save);
    let mut h = joined_as_german(&host, 3);
    // The seat's own side is the roster; the other side's units are targets, closed at first.
    let rows = kepi::app::roster::rows(
        h.state().state.state(),
        &h.state().state.panels.roster.options,
    );
    let first_side = rows.first().map(|r| match r {
        kepi::app::roster::Row::Group { key, .. } => key.clone(),
        kepi::app::roster::Row::Unit { .. } => String::new(),
    });
    assert_eq!(first_side.as_deref(), Some("german"));
    assert!(
        rows.iter().any(
            |r| matches!(r, kepi::app::roster::Row::Group { label, depth: 0, .. }
            if label.starts_with("targets: french"))
        ),
        "the french side is offered as targets"
    );
    assert!(
        !rows
            .iter()
            .any(|r| matches!(r, kepi::app::roster::Row::Unit { index, .. }
            if h.state().state.state().units[*index].unit.side == Side::French)),
        "no french unit listed until the side is opened"
    );
    // A fire with a german unit: asked of the host, rolled there, shown here.
    let full = strength(h.state(), TARGET);
    h.state_mut().state.handle(Command::Select(FIRER.into()));
    h.state_mut().state.handle(Command::Target(TARGET.into()));
    h.run_steps(2);
    h.get_by_label("Roll and apply").click();
    until(&mut h, "the player's fire", |a| {
        last_resolution(a).is_some() && strength(a, TARGET) < full
    });
    until(&mut h, "its result card", |a| {
        a.state.resolver.last_rolled.is_some()
    });
    assert!(h.query_by_label_contains("Result: ").is_some());
    // Undo is the umpire's: refused at once, nothing sent.
    let len = h.state().state.game.log().len();
    h.state_mut().state.handle(Command::Undo);
    let status = h.state().state.status.clone().expect("a status");
    assert!(status.error && status.text.contains("umpire"), "{status:?}");
    // A french unit is not the german seat's to roll.
    h.state_mut().state.handle(Command::Select(TARGET.into()));
    h.state_mut().state.handle(Command::Target(FIRER.into()));
    h.state_mut().state.handle(Command::ResolveAndApply {
        entered: Vec::new(),
    });
    let status = h.state().state.status.clone().expect("a status");
    assert!(status.error && status.text.contains("german"), "{status:?}");
    h.run_steps(5);
    assert_eq!(h.state().state.game.log().len(), len, "nothing applied");
    drop(host);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn players_requests_wait_in_the_umpires_due_panel_to_be_approved_or_rejected() {
    use kepi::roster::Side;
    let dir = tmp("gui-net", "due-approval");
    let save = save_in(&dir);
    let mut h = host_in_window(&save, 6);
    h.get_by_label("Players' resolutions wait for my approval")
        .click();
    until(&mut h, "approval on", |a| {
        a.net.hosting.as_ref().is_some_and(|x| x.approval)
    });
    // Close the Host dialog: the decisions are made in the Due panel.
    h.state_mut().net.host_open = false;
    h.run();
    let (address, code) = {
        let x = h.state().net.hosting.as_ref().expect("hosting");
        let code = x
            .seats
            .iter()
            .find(|s| s.seat == Seat::Player(Side::German))
            .map(|s| s.code.clone())
            .expect("german seat");
        (x.address.replace("0.0.0.0", "127.0.0.1"), code)
    };
    let local = format!(
        "ws://127.0.0.1:{}",
        address.rsplit(':').next().unwrap_or_default()
    );
    let mut player = Client::connect(&local, &code, None, Duration::from_secs(5)).expect("player");
    let words = |w: &[&str]| w.iter().map(|x| x.to_string()).collect::<Vec<String>>();
    let a = player
        .apply(&words(&["fire", FIRER, TARGET]), Duration::from_secs(5))
        .expect("held");
    let first = a.held.expect("held for approval");
    let b = player
        .apply(&words(&["rally", FIRER]), Duration::from_secs(5))
        .expect("held");
    let second = b.held.expect("held for approval");
    until(&mut h, "both requests in the Due panel", |a| {
        a.state.mode.remote().is_some_and(|r| r.pending.len() == 2)
    });
    assert!(
        h.query_by_label_contains("Waiting for your approval: 2")
            .is_some()
    );
    let before = h.state().state.game.log().len();
    h.get_by_label(&format!("Approve {first}")).click();
    until(&mut h, "the approved fire", |a| {
        last_resolution(a).is_some() && a.state.mode.remote().is_some_and(|r| r.pending.len() == 1)
    });
    assert!(h.state().state.game.log().len() > before);
    // A rejection with its reason: logged, and nothing rolled.
    let field = egui::accesskit::Role::TextInput;
    h.get_by_role_and_label(field, "Reason for a rejection:")
        .focus();
    h.run();
    h.get_by_role_and_label(field, "Reason for a rejection:")
        .type_text("out of range");
    h.run();
    h.get_by_label(&format!("Reject {second}")).click();
    until(&mut h, "the rejection in the log", |a| {
        a.state
            .game
            .log()
            .iter()
            .any(|e| e.summary.contains("rejected") && e.summary.contains("out of range"))
    });
    until(&mut h, "nothing left waiting", |a| {
        a.state.mode.remote().is_some_and(|r| r.pending.is_empty())
    });
    assert!(
        h.query_by_label_contains("Waiting for your approval")
            .is_none()
    );
    player.close();
    h.state_mut().net.stop_hosting();
    until(&mut h, "the host to stop", |a| a.net.hosting.is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_joined_window_says_when_its_host_is_lost_and_reconnects_by_itself() {
    use kepi::roster::Side;
    let dir = tmp("gui-net", "reconnect");
    let save = save_in(&dir);
    let host = TestHost::start_on(&save, 0, true);
    let port = host
        .address
        .rsplit(':')
        .next()
        .and_then(|p| p.parse::<u16>().ok())
        .expect("port");
    let code = host.code(Seat::Player(Side::French));
    let umpire = host.code(Seat::Umpire);
    let mut h = harness(AppState::demo(4).expect("demo"));
    h.run_steps(2);
    join(&mut h, &host.address, &code);
    until(&mut h, "the host's game", |a| a.state.mode.on_network());
    // The host goes away (the umpire's laptop sleeps): the window says so and keeps the game.
    drop(host);
    until(&mut h, "the lost connection", |a| {
        a.net.joined.as_ref().is_some_and(|j| j.lost.is_some())
    });
    let status = h.state().state.status.clone().expect("a status");
    assert!(
        status.text.contains("lost") && status.text.contains("reconnecting"),
        "{status:?}"
    );
    assert!(h.state().state.mode.on_network(), "still showing the game");
    // The host comes back on the same port with the same codes: the window rejoins by itself
    // and follows what happens next.
    let host = TestHost::start_on(&save, port, false);
    assert_eq!(
        host.code(Seat::Player(Side::French)),
        code,
        "the save's codes"
    );
    until(&mut h, "the reconnection", |a| {
        a.net.joined.as_ref().is_some_and(|j| j.lost.is_none())
    });
    let mut u =
        Client::connect(&host.address, &umpire, None, Duration::from_secs(5)).expect("umpire");
    u.apply(
        &["note".to_string(), "after the storm".to_string()],
        Duration::from_secs(5),
    )
    .expect("note");
    u.close();
    until(&mut h, "the note made after the reconnection", |a| {
        a.state
            .game
            .log()
            .last()
            .is_some_and(|e| e.summary.contains("after the storm"))
    });
    drop(host);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_player_window_with_hidden_strengths_shows_its_side_and_rolls_without_seeing_the_enemy() {
    use kepi::app::state::Command;
    use kepi::roster::Side;
    let dir = tmp("gui-net", "hidden");
    let save = save_in(&dir);
    let host = TestHost::start_with(&save, 0, true, true);
    let mut h = joined_as_german(&host, 8);
    let real = kepi::store::read_game(&save).expect("read").game;
    let real_target = real
        .state()
        .unit(TARGET)
        .map(|u| u.strength)
        .expect("target");
    {
        let s = h.state().state.state();
        assert!(h.state().state.game.is_seat_view());
        for u in &s.units {
            let french = u.unit.side == Side::French;
            assert_eq!(u.strength_hidden, french, "{}", u.unit.id);
            if french {
                assert_ne!(
                    u.strength, real_target,
                    "a placeholder, not {}'s figures",
                    u.unit.id
                );
                assert_eq!(u.unit.strength, u.strength, "its card says no more");
            }
        }
    }
    let rows = kepi::app::roster::rows(
        h.state().state.state(),
        &h.state().state.panels.roster.options,
    );
    assert!(
        rows.iter().any(
            |r| matches!(r, kepi::app::roster::Row::Group { label, depth: 0, .. }
            if label.contains("french") && label.contains("strengths hidden"))
        ),
        "no sum of the french strengths"
    );
    // The german seat fires at a french unit: the host rolls with the real figures.
    h.state_mut().state.handle(Command::Select(FIRER.into()));
    h.state_mut().state.handle(Command::Target(TARGET.into()));
    h.run_steps(2);
    assert!(
        h.query_by_label_contains("so no odds are shown").is_some(),
        "the resolver says why it shows no odds"
    );
    assert!(h.query_by_label_contains("Exact odds").is_none());
    assert!(h.query_by_label_contains("(? infantry)").is_some());
    let len = h.state().state.game.log().len();
    h.get_by_label("Roll and apply").click();
    until(&mut h, "the fire's entry", |a| {
        a.state.game.log().len() > len
    });
    until(&mut h, "its result card", |a| {
        a.state.resolver.last_rolled.is_some()
    });
    h.run_steps(2);
    // The entry names the french unit: this seat holds its place in the chain only.
    let last = h
        .state()
        .state
        .game
        .log()
        .last()
        .cloned()
        .expect("an entry");
    assert!(last.summary.contains("hidden"), "{}", last.summary);
    assert!(h.query_by_label_contains("Result: (hidden").is_some());
    // Nothing printed from placeholders: the seat's own side prints, the reports do not.
    h.state_mut().state.handle(Command::Export {
        kind: kepi::app::exports::ExportKind::ReportHtml,
        path: dir.join("report.html"),
    });
    let status = h.state().state.status.clone().expect("a status");
    assert!(status.error && status.text.contains("umpire"), "{status:?}");
    assert!(!dir.join("report.html").exists());
    let csv = dir.join("units.csv");
    h.state_mut().state.handle(Command::Export {
        kind: kepi::app::exports::ExportKind::UnitsCsv,
        path: csv.clone(),
    });
    until(&mut h, "the german units' CSV", |a| {
        a.state.dialogs.export_job.is_none() && csv.exists()
    });
    let text = std::fs::read_to_string(&csv).expect("csv");
    assert!(text.contains(FIRER), "{text}");
    assert!(
        !text.contains(TARGET),
        "no french unit, no placeholder: {text}"
    );
    drop(host);
    let after = kepi::store::read_game(&save).expect("read").game;
    let hit = after
        .state()
        .unit(TARGET)
        .map(|u| u.strength)
        .expect("target");
    assert!(
        hit < real_target,
        "the host's fire hit with the real figures"
    );
    // The entry is the log's last, in the seat's own chain (issue 29: no hash of the log).
    assert_eq!(after.log().len() as u64, last.index + 1);
    assert_ne!(after.log().last().map(|e| e.hash.clone()), Some(last.hash));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn joining_an_address_where_no_host_listens_is_said_at_once_not_retried() {
    // A port nothing listens on: taken, then let go.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port");
    let mut h = harness(AppState::demo(9).expect("demo"));
    h.run_steps(2);
    join(
        &mut h,
        &format!("ws://127.0.0.1:{port}"),
        "0000-0000-0000-0000",
    );
    until(&mut h, "the refusal", |a| a.net.join.error.is_some());
    let e = h.state().net.join.error.clone().unwrap_or_default();
    assert!(e.contains("check the address"), "{e}");
    assert!(h.state().net.joined.is_none(), "not left reconnecting");
    assert!(matches!(h.state().state.mode, Mode::Local));
}

/// Issue 29: the Host dialog says who can reach the game and lets the umpire choose: this
/// computer only, the local network (every interface), or a typed address.
#[test]
fn the_host_dialog_chooses_who_can_join_and_says_so() {
    let dir = tmp("gui-net", "bind");
    let save = save_in(&dir);
    let mut state = AppState::demo(1).expect("demo");
    state.open(&save);
    let mut h = harness(state);
    h.run();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Host this game…").click();
    h.run();
    // Every interface by default, said as such.
    assert!(
        h.query_by_label_contains("every network of this computer")
            .is_some()
    );
    // A typed address that is not one: said, and hosting waits.
    h.get_by_label("this address:").click();
    h.run();
    h.state_mut().net.bind_typed = "not-an-ip".into();
    h.run();
    assert!(h.query_by_label_contains("is not an IP address").is_some());
    assert!(h.state().net.bind_address().is_err());
    // This computer only.
    h.get_by_label("this computer only (127.0.0.1)").click();
    h.run();
    assert_eq!(
        h.state().net.bind,
        kepi::app::net_ui::BindChoice::ThisComputer
    );
    assert!(
        h.query_by_label_contains("Reachable from this computer only")
            .is_some()
    );
    h.get_by_label("Start hosting").click();
    h.run();
    let listening = h
        .state()
        .net
        .hosting
        .as_ref()
        .map(|x| x.listening)
        .expect("hosting");
    assert!(listening.ip().is_loopback(), "{listening}");
    // The window's own umpire connection reaches a host bound to loopback.
    until(&mut h, "the window's own umpire connection", |a| {
        a.net
            .hosting
            .as_ref()
            .is_some_and(|x| x.connected.iter().any(|(s, _)| *s == Seat::Umpire))
    });
    assert!(
        h.query_by_label_contains("Listening on 127.0.0.1:")
            .is_some()
    );
    h.get_by_label("Stop hosting").click();
    until(&mut h, "the host to stop", |a| a.net.hosting.is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 46: "Stop hosting" stays where it is as events arrive; the Host window sits below the top
/// bar (Undo and Redo are never covered); a player who closes normally "left", one whose kepi
/// went away left in words, never "WebSocket protocol error"; the dice mode chosen stays once
/// hosting stops.
#[test]
fn stop_hosting_keeps_still_clear_of_undo_and_a_player_closing_just_left() {
    use kepi::app::state::Command;
    use kepi::roster::Side;
    let dir = tmp("gui-net", "still");
    let save = save_in(&dir);
    let mut h = host_in_window(&save, 7);
    h.state_mut().state.handle(Command::SetOwnDice(true));
    h.run_steps(2);
    let stop = h.get_by_label("Stop hosting").rect();
    // The window's title is its top: below Undo and Redo, which it never covers.
    let title = h.get_by_label("Host this game").rect();
    for under in ["Undo", "Redo"] {
        let r = h.get_by_label(under).rect();
        assert!(
            title.top() > r.bottom(),
            "the Host window (title {title:?}) covers {under} {r:?}"
        );
    }
    let port = h
        .state()
        .net
        .hosting
        .as_ref()
        .map(|x| x.listening.port())
        .expect("hosting");
    let code = h
        .state()
        .net
        .hosting
        .as_ref()
        .and_then(|x| {
            x.seats
                .iter()
                .find(|s| s.seat == Seat::Player(Side::German))
                .map(|s| s.code.clone())
        })
        .expect("german seat");
    let local = format!("ws://127.0.0.1:{port}");
    // One player closes as kepi does on Leave or on closing its window; another's kepi vanishes.
    let polite = Client::connect(&local, &code, None, Duration::from_secs(5)).expect("player");
    polite.close();
    until(&mut h, "the player who closed to have left", |a| {
        a.net
            .hosting
            .as_ref()
            .is_some_and(|x| x.events.iter().any(|e| e == "german left"))
    });
    let gone = Client::connect(&local, &code, None, Duration::from_secs(5)).expect("player");
    drop(gone);
    until(&mut h, "the vanished player to have left", |a| {
        a.net.hosting.as_ref().is_some_and(|x| {
            x.events
                .iter()
                .any(|e| e.starts_with("german left (") && e.contains("without a goodbye"))
        })
    });
    let events = h
        .state()
        .net
        .hosting
        .as_ref()
        .map(|x| x.events.clone())
        .unwrap_or_default();
    assert!(
        !events
            .iter()
            .any(|e| e.contains("WebSocket") || e.contains("error")),
        "{events:?}"
    );
    assert!(
        events.len() >= 4,
        "joins and leaves were listed: {events:?}"
    );
    assert_eq!(
        h.get_by_label("Stop hosting").rect(),
        stop,
        "Stop hosting stays put as events arrive"
    );
    h.get_by_label("Stop hosting").click();
    until(&mut h, "the host to stop", |a| {
        a.net.hosting.is_none() && a.state.store.is_some()
    });
    assert!(
        h.state().state.options.own_dice,
        "the dice mode chosen stays once hosting stops"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 46: the Host dialog's rows stay put whatever the save's path; a typed address this
/// machine does not have is said beside Start hosting, in words, with the ones it has; the
/// address field's hint is not a made-up address.
#[test]
fn the_host_dialog_keeps_its_rows_and_says_a_foreign_address_in_words() {
    let dir = tmp("gui-net", "rows");
    let short = save_in(&dir);
    let deep = dir.join("a-folder-with-a-rather-long-name-for-the-club-campaign-of-1870-and-71/and-another-one-below-it-for-the-second-battle");
    std::fs::create_dir_all(&deep).expect("deep dir");
    let long = save_in(&deep);
    let mut state = AppState::demo(1).expect("demo");
    state.open(&short);
    let mut h = harness(state);
    h.run();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Host this game…").click();
    h.run();
    let rows = |h: &Harness<'static, KepiApp>| {
        [
            "this computer only (127.0.0.1)",
            "the local network (all interfaces)",
            "this address:",
            "Start hosting",
        ]
        .map(|l| h.get_by_label(l).rect())
    };
    let before = rows(&h);
    h.state_mut().state.open(&long);
    h.run();
    assert!(
        h.query_all_by_label_contains("and-another-one-below-it")
            .next()
            .is_some()
    );
    assert_eq!(rows(&h), before, "the rows do not move with the path");
    // An address of no interface here (TEST-NET-1): said before anything is tried.
    h.get_by_label("this address:").click();
    h.run();
    h.state_mut().net.bind_typed = "192.0.2.1".into();
    h.run();
    assert!(
        h.query_all_by_label_contains("192.0.2.1 is not an address of this machine; pick one of")
            .next()
            .is_some(),
        "the address said in words"
    );
    assert!(h.query_all_by_label_contains("os error").next().is_none());
    assert!(h.state().net.bind_address().is_err());
    // Beside the button, not above it: the button has not moved.
    assert_eq!(rows(&h), before);
    // The field's hint is this machine's own address (or words), never 192.168.1.20.
    let own = kepi::net::host::own_addresses();
    assert!(!own.is_empty());
    let v4 = own
        .iter()
        .find(|ip| ip.is_ipv4() && !ip.is_loopback())
        .map(ToString::to_string);
    if let Some(mine) = v4 {
        h.state_mut().net.bind_typed = mine.clone();
        h.run();
        assert_eq!(
            h.state().net.bind_address().map(|ip| ip.to_string()),
            Ok(mine)
        );
    }
    drop(h);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 46: a player's request waits in the umpire's queue with what the rules say against it
/// ("6 hexes from", E8), before the umpire approves; approved, the log says the umpire overrode
/// them for the french seat (not "umpire went ahead").
#[test]
fn a_waiting_request_shows_its_breaches_and_its_approval_is_logged_as_the_umpire_overriding() {
    use kepi::roster::Side;
    let dir = tmp("gui-net", "breach-queue");
    let tables = kepi::registry::builtin_tables().expect("tables");
    let scenario = kepi::registry::builtin_scenario("fr1870-august").expect("1870");
    let game = AppState::new_game(&scenario, 3, tables).expect("1870 game");
    let save = dir.join("game.kepi.json");
    drop(Store::create(&save, &game.game).expect("save"));
    let mut h = host_in_window(&save, 3);
    h.get_by_label("Players' resolutions wait for my approval")
        .click();
    until(&mut h, "approval on", |a| {
        a.net.hosting.as_ref().is_some_and(|x| x.approval)
    });
    let (port, code) = {
        let x = h.state().net.hosting.as_ref().expect("hosting");
        let code = x
            .seats
            .iter()
            .find(|s| s.seat == Seat::Player(Side::French))
            .map(|s| s.code.clone())
            .expect("french seat");
        (x.listening.port(), code)
    };
    let local = format!("ws://127.0.0.1:{port}");
    let mut player = Client::connect(&local, &code, None, Duration::from_secs(5)).expect("player");
    let combat: Vec<String> = [
        "combat",
        "--attackers",
        "fr-1rc,fr-2rc",
        "--hex",
        "2739",
        "--dice",
        "d6=4",
        "--result",
        "AD",
    ]
    .iter()
    .map(|w| w.to_string())
    .collect();
    let held = player
        .apply(&combat, Duration::from_secs(5))
        .expect("held")
        .held
        .expect("held for approval");
    until(&mut h, "the request with its notes", |a| {
        a.state
            .mode
            .remote()
            .is_some_and(|r| r.pending.iter().any(|p| !p.notes.is_empty()))
    });
    // In the Host dialog and the Due panel alike, before it is decided.
    let shown = h
        .query_all_by_label_contains("2RC in 2139 is 6 hexes from 2739")
        .count();
    assert!(shown >= 2, "the breach shows in both queues ({shown})");
    h.query_all_by_label(&format!("Approve {held}"))
        .next()
        .expect("Approve")
        .click();
    until(&mut h, "the approved combat", |a| {
        last_resolution(a).is_some()
    });
    let notes = |a: &KepiApp| -> Vec<String> {
        a.state
            .game
            .log()
            .iter()
            .rev()
            .find_map(|e| match &e.kind {
                kepi::game::EntryKind::Act {
                    action: kepi::game::Action::Resolved { resolution, .. },
                } => Some(resolution.notes.clone()),
                _ => None,
            })
            .unwrap_or_default()
    };
    let approved = notes(h.state());
    assert!(
        approved.iter().any(
            |n| n.starts_with("umpire approved french's request, overriding: ")
                && n.contains("6 hexes from 2739")
        ),
        "{approved:?}"
    );
    assert!(
        !approved.iter().any(|n| n.starts_with("umpire went ahead")),
        "{approved:?}"
    );
    player.close();
    h.state_mut().net.stop_hosting();
    until(&mut h, "the host to stop", |a| a.net.hosting.is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 46: a joined 1870 window's request field is hinted with 1870's own verbs (combat), not
/// another rule set's "fire FIRER TARGET".
#[test]
fn a_joined_window_names_its_games_own_verbs() {
    let dir = tmp("gui-net", "verbs");
    let tables = kepi::registry::builtin_tables().expect("tables");
    let scenario = kepi::registry::builtin_scenario("fr1870-august").expect("1870");
    let game = AppState::new_game(&scenario, 3, tables).expect("1870 game");
    let save = dir.join("game.kepi.json");
    drop(Store::create(&save, &game.game).expect("save"));
    let host = TestHost::start(&save);
    let mut h = joined_as_german(&host, 2);
    h.state_mut().net.join_open = true;
    h.run_steps(2);
    assert!(
        h.query_all_by_label_contains("this game's verbs: combat, rail, sea")
            .next()
            .is_some(),
        "1870's own verbs named"
    );
    assert!(h.query_all_by_label_contains("fire").next().is_none());
    assert_eq!(
        kepi::moves::play::request_example(kepi::rules::fr1870::ID).as_deref(),
        Some("combat --attackers UNIT,UNIT --hex HEX")
    );
    drop(h);
    drop(host);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 46: a game found on the network while an address is being typed does not move the
/// address and code fields (the list is under them and Join): the keys go on landing in place.
#[test]
fn a_game_found_while_typing_does_not_move_the_join_fields() {
    use egui::accesskit::Role;
    let mut h = harness(AppState::demo(2).expect("demo"));
    h.run_steps(2);
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Join a game…").click();
    h.run_steps(2);
    let fields = |h: &Harness<'static, KepiApp>| {
        (
            h.get_by_role_and_label(Role::TextInput, "Address").rect(),
            h.get_by_role_and_label(Role::TextInput, "Code").rect(),
            h.get_by_label("Join").rect(),
        )
    };
    let before = fields(&h);
    // The search ends with two games found (one of an older kepi, shown but not joinable).
    let found = (0..2)
        .map(|i| kepi::net::discovery::Found {
            address: format!("ws://192.0.2.{i}:4000"),
            title: format!("Game {i}"),
            rules: "pk".into(),
            protocol: 1,
            compatible: i == 0,
        })
        .collect();
    h.state_mut().net.discovered(Ok(found));
    h.run_steps(2);
    assert!(h.query_by_label_contains("Game 1").is_some());
    assert_eq!(fields(&h), before, "the fields and Join moved");
}

/// Issue 46: a joined window's status after a roll says what the same roll says in a window
/// alone: the breach gone ahead with first ("went ahead: ... has already fired this turn"), then
/// the outcome, not the host's summary alone.
#[test]
fn a_joined_windows_roll_leads_its_status_with_its_breaches_as_a_local_roll_does() {
    use kepi::app::state::Command;
    let dir = tmp("gui-net", "remote-status");
    let save = save_in(&dir);
    // The same game, for a window alone (kept on disk, so its status says no more than the roll).
    let copy = save_in(&tmp("gui-net", "remote-status-alone"));
    let host = TestHost::start(&save);
    let mut h = joined_as_german(&host, 3);
    h.state_mut().state.handle(Command::Select(FIRER.into()));
    h.state_mut().state.handle(Command::Target(TARGET.into()));
    h.run_steps(2);
    let before = h.state().state.game.log().len();
    for n in 1..=2 {
        h.state_mut().state.handle(Command::ResolveAndApply {
            entered: Vec::new(),
        });
        until(&mut h, "the host's answer to the fire", |a| {
            a.state.game.log().len() == before + n
                && a.state.mode.remote().is_some_and(|r| r.waiting == 0)
        });
    }
    let remote = h.state().state.status.clone().expect("a status");
    // The same two fires in a window alone, on the same game (the save's seed).
    let mut alone = AppState::demo(3).expect("demo");
    alone.open(&copy);
    assert!(alone.store.is_some(), "{:?}", alone.status);
    alone.handle(Command::Select(FIRER.into()));
    alone.handle(Command::Target(TARGET.into()));
    for _ in 0..2 {
        alone.handle(Command::ResolveAndApply {
            entered: Vec::new(),
        });
    }
    let local = alone.status.clone().expect("a status");
    assert!(
        local.text.starts_with("went ahead: ") && local.text.contains("already fired"),
        "{local:?}"
    );
    assert_eq!(remote.text, local.text, "one roll, one status line");
    assert!(!remote.error, "{remote:?}");
    drop(h);
    drop(host);
    let _ = std::fs::remove_dir_all(&dir);
    if let Some(d) = copy.parent() {
        let _ = std::fs::remove_dir_all(d);
    }
}
