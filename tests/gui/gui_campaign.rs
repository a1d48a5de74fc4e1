//! Issue 30 in the window: an SPI combat fought as a battle from the resolver ("Fight as a
//! battle", the battle's file chosen in the in-window dialog), its losses brought back from the
//! battle's File menu ("Return to the campaign", the conversion shown before Apply), the
//! campaign's log showing the result; and the buttons absent or disabled, with the reason, where
//! they do not apply. The same library steps as `kepi campaign battle|return`.

use super::common::{LAPTOP, METZ_FORTRESS, new_game, place, spi_metz_combat, tmp, window_of};

use std::path::Path;

use egui_kittest::kittest::{NodeT as _, Queryable};
use kepi::app::KepiApp;
use kepi::app::state::{AppState, Command};
use kepi::game::Action;

/// An SPI campaign saved at `dir/g.json` (when `save`): two German corps in 1010 and 1110 next to
/// the French corps of Metz in 1011, the resolver holding that combat.
fn spi_campaign(dir: &Path, save: bool) -> AppState {
    let mut app = new_game("spi-1870", 5);
    if save {
        app.handle(Command::SaveAs(dir.join("g.json")));
        assert!(app.store.is_some(), "{:?}", app.status);
    }
    spi_metz_combat(&mut app);
    app
}

fn strength(save: &Path, id: &str) -> u32 {
    let g = kepi::store::read_game(save).expect("reads").game;
    g.state().unit(id).expect("unit").strength
}

#[test]
fn an_spi_combat_fought_from_the_window_and_returned_from_it() {
    let dir = tmp("gui-campaign", "fight");
    let campaign = dir.join("g.json");
    let mut h = window_of(KepiApp::with_state(spi_campaign(&dir, true)), LAPTOP);
    h.run();
    // Beside Roll: the combat of two attackers on hex 1011.
    h.get_by_label("Fight as a battle…").click();
    h.run();
    assert!(
        h.query_by_label("Fight as a battle").is_some(),
        "the dialog"
    );
    // The conversion before anything is made: 3 CP a corps, 2 battalions a CP.
    assert_eq!(
        h.query_all_by_label_contains("6 battalions of 20").count(),
        2
    );
    h.get_by_label("Portable Wargame (Franco-Prussian), in SP")
        .click();
    h.run();
    assert_eq!(
        h.query_all_by_label_contains("6 battalions of 4").count(),
        2
    );
    assert!(h.query_by_label_contains("10 battalions of 4").is_some());
    h.get_by_label("Choose the battle's file…").click();
    h.run();
    // The in-window dialog, offering a new file in the campaign's folder.
    assert!(h.state().state.files.dialog.open);
    let battle = dir.join("campaign-battle.kepi.json");
    assert_eq!(h.state().state.files.dialog.chosen(), Some(battle.clone()));
    h.get_by_label("Make the battle here").click();
    h.run();
    // The battle is open: a PW game of the 22 table units; the campaign's combat is pending.
    let app = &h.state().state;
    let status = app.status.clone().expect("status");
    assert!(!status.error, "{}", status.text);
    assert_eq!(app.save_path(), Some(battle.clone()));
    assert_eq!(app.game.state().system, kepi::rules::pw::ID);
    assert_eq!(app.game.state().units.len(), 22);
    let c = kepi::store::read_game(&campaign).expect("campaign").game;
    assert!(c.state().due.iter().any(|d| d.rule.as_str() == "CAMP-B1"));
    // Losses on the table, as in `kepi campaign return`'s test: de-3-3-1 loses just over a CP's
    // worth (rounds to 1), fr-metz-5 one and a half (rounds up to 2).
    for (id, n) in [
        ("de-3-3-1-1", 4),
        ("de-3-3-1-2", 4),
        ("de-3-3-1-3", 1),
        ("fr-metz-5-1", 4),
        ("fr-metz-5-2", 4),
        ("fr-metz-5-3", 4),
    ] {
        h.state_mut()
            .state
            .handle(Command::Act(Action::LoseStrength { unit: id.into(), n }));
    }
    h.run();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Return to the campaign…").click();
    h.run();
    assert!(h.query_by_label("Return to the campaign").is_some());
    // The conversion, before it applies: each board unit, what its table units lost, rounding.
    assert!(h.query_by_label_contains("9 of 24").is_some());
    assert!(h.query_by_label_contains("12 of 40").is_some());
    assert_eq!(h.query_all_by_label_contains("nearest").count(), 3);
    assert!(h.query_by_label("-2").is_some(), "fr-metz-5 loses 2");
    // Apply waits for the ending.
    assert!(h.get_by_label("Apply").accesskit_node().is_disabled());
    h.get_by_label("German win").click();
    h.run();
    assert!(h.query_by_label_contains("German win the battle").is_some());
    assert_eq!(strength(&campaign, "de-3-3-1"), 3, "nothing applied yet");
    h.get_by_label("Apply").click();
    h.run();
    // The campaign is open again, with the losses; its log shows the result.
    let app = &h.state().state;
    let status = app.status.clone().expect("status");
    assert!(!status.error, "{}", status.text);
    assert_eq!(app.save_path(), Some(campaign.clone()));
    assert_eq!(app.game.state().system, kepi::rules::spi::ID);
    assert_eq!(
        app.game.state().unit("de-3-3-1").map(|u| u.strength),
        Some(2)
    );
    assert_eq!(
        app.game.state().unit("fr-metz-5").map(|u| u.strength),
        Some(3)
    );
    assert!(
        !app.game
            .state()
            .due
            .iter()
            .any(|d| d.rule.as_str() == "CAMP-B1")
    );
    h.state_mut().state.options.side_log = true;
    h.run();
    // The status line says it, and so does the log.
    assert!(
        h.query_all_by_label_contains("CAMP-R1 battle").count() >= 2,
        "in the log"
    );

    // Returned twice: the battle again, its dialog says so whole and Apply stays disabled.
    h.state_mut().state.handle(Command::Open(battle.clone()));
    h.run();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Return to the campaign…").click();
    h.run();
    h.get_by_label("Draw").click();
    h.run();
    assert!(
        h.query_by_label_contains("was already returned to the campaign")
            .is_some()
    );
    assert!(h.get_by_label("Apply").accesskit_node().is_disabled());
    drop(h);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_campaign_moved_since_is_refused_in_the_windows_words() {
    let dir = tmp("gui-campaign", "moved");
    let mut app = spi_campaign(&dir, true);
    app.dialogs.campaign.fight = Some(kepi::app::campaign::FightDialog {
        combat: kepi::app::campaign::combat_of(app.resolver.form(), app.game.state())
            .expect("a combat"),
        rules: kepi::rules::pk::ID,
        error: None,
    });
    let battle = dir.join("b.kepi.json");
    app.handle(Command::FightBattle(battle.clone()));
    assert_eq!(app.save_path(), Some(battle.clone()), "{:?}", app.status);
    assert_eq!(app.game.state().system, kepi::rules::pk::ID);
    std::fs::rename(dir.join("g.json"), dir.join("moved.json")).expect("rename");
    let mut h = window_of(KepiApp::with_state(app), LAPTOP);
    h.run();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Return to the campaign…").click();
    h.run();
    h.get_by_label("French win").click();
    h.run();
    assert!(
        h.query_by_label_contains("is not there (moved or renamed?)")
            .is_some()
    );
    assert!(h.get_by_label("Apply").accesskit_node().is_disabled());
    // Forced anyway: refused, nothing applied, the battle still open.
    h.state_mut()
        .state
        .handle(Command::ReturnToCampaign(Some(kepi::roster::Side::French)));
    let app = &h.state().state;
    assert!(app.status.as_ref().is_some_and(|s| s.error));
    assert_eq!(app.save_path(), Some(battle));
    assert!(
        app.dialogs
            .campaign
            .give
            .as_ref()
            .and_then(|d| d.error.as_deref())
            .is_some_and(|e| e.contains("nothing applied"))
    );
    drop(h);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_buttons_are_absent_or_disabled_with_the_reason_where_they_do_not_apply() {
    // A P&K game (the demo battle): no "Fight as a battle", no "Return to the campaign".
    let mut h = window_of(
        KepiApp::with_state(AppState::demo(1870).expect("demo")),
        LAPTOP,
    );
    h.run();
    assert!(h.query_by_label("Fight as a battle…").is_none());
    h.get_by_label("File").click();
    h.run();
    assert!(h.query_by_label("Save As…").is_some(), "the menu is open");
    assert!(h.query_by_label("Return to the campaign…").is_none());
    drop(h);

    // An SPI combat in a game with no file: disabled, saying why.
    let dir = tmp("gui-campaign", "unsaved");
    let app = spi_campaign(&dir, false);
    let why = kepi::app::campaign::fight_unavailable(&app).expect("a reason");
    assert!(why.contains("save the campaign first"), "{why}");
    let mut h = window_of(KepiApp::with_state(app), LAPTOP);
    h.run();
    assert!(
        h.get_by_label("Fight as a battle…")
            .accesskit_node()
            .is_disabled()
    );

    // Kept in kepi's own folder (never saved by the umpire): it would move at Save As, so the
    // same.
    let mut kept = new_game("spi-1870", 5);
    kept.data_dir = Some(dir.join("data"));
    place(&mut kept, &[("de-3-3-1", "1010")]);
    place(&mut kept, &[("fr-metz-5", "1011")]);
    kept.handle(Command::Select("de-3-3-1".into()));
    kept.handle(Command::Target("fr-metz-5".into()));
    assert!(kept.autosaved && kept.store.is_some());
    let why = kepi::app::campaign::fight_unavailable(&kept).expect("a reason");
    assert!(why.contains("save the campaign first"), "{why}");

    // An SPI game with no attacker picked: disabled, saying why.
    let mut app = new_game("spi-1870", 5);
    app.handle(Command::SaveAs(dir.join("other.json")));
    let why = kepi::app::campaign::fight_unavailable(&app).expect("a reason");
    assert!(why.contains("pick the attacking unit"), "{why}");
    drop(h);
    let _ = std::fs::remove_dir_all(&dir);
}

/// 1870 with a fortress in the hex, from the window: the fortress becomes batteries of fortress
/// guns that cost it nothing when they are silenced (FR-F1), the loser must retreat (FR-C2), and
/// the return dialog says both before Apply.
#[test]
fn an_1870_combat_on_a_fortress_fought_and_returned_from_the_window() {
    let dir = tmp("gui-campaign", "fr1870");
    let cards = dir.join("metz.toml");
    std::fs::write(&cards, METZ_FORTRESS).expect("write");
    let tables = kepi::registry::builtin_tables().expect("tables");
    let s = kepi::roster::load_roster_file(&cards).expect("scenario");
    let mut app = AppState::new_game(&s, 3, tables).expect("game");
    let campaign = dir.join("f.json");
    app.handle(Command::SaveAs(campaign.clone()));
    app.handle(Command::Select("de-vii".into()));
    app.handle(Command::Target("fr-3".into()));
    app.handle(Command::ToggleAttacker("de-1b".into()));
    let mut h = window_of(KepiApp::with_state(app), LAPTOP);
    h.run();
    h.get_by_label("Fight as a battle…").click();
    h.run();
    assert!(h.query_by_label_contains("Metz (defender)").is_some());
    h.get_by_label("Choose the battle's file…").click();
    h.run();
    h.get_by_label("Make the battle here").click();
    h.run();
    let app = &h.state().state;
    assert_eq!(
        app.game.state().system,
        kepi::rules::pk::ID,
        "{:?}",
        app.status
    );
    // P&K: 20 figures a battalion, 3 a point; the fortress 2 points of 6-gun batteries.
    let fort: u32 = app
        .game
        .state()
        .units
        .iter()
        .filter(|u| u.unit.id.starts_with("fort-metz-"))
        .map(|u| u.strength)
        .sum();
    assert_eq!(fort, 2 * 6);
    for (id, n) in [
        ("fr-3-1", 20),
        ("fr-3-2", 20),
        ("fr-3-3", 20),
        ("fr-3-4", 20),
        ("fort-metz-1", 6),
    ] {
        h.state_mut()
            .state
            .handle(Command::Act(Action::LoseStrength { unit: id.into(), n }));
    }
    h.run();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Return to the campaign…").click();
    h.run();
    h.get_by_label("German win").click();
    h.run();
    assert!(h.query_by_label_contains("fr-3 must retreat").is_some());
    assert!(h.query_by_label_contains("80 of 120").is_some());
    h.get_by_label("Apply").click();
    h.run();
    let app = &h.state().state;
    assert_eq!(app.save_path(), Some(campaign));
    let fr3 = app.game.state().unit("fr-3").expect("fr-3");
    assert_eq!(fr3.strength, 1);
    assert!(fr3.has_mark("must-retreat"));
    assert_eq!(
        app.game.state().unit("fort-metz").map(|u| u.strength),
        Some(2),
        "a fortress is taken, not worn down (FR-F1)"
    );
    drop(h);
    let _ = std::fs::remove_dir_all(&dir);
}
