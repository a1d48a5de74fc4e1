//! The hex rule sets in the window, driven headless with egui_kittest: the Portable Wargame resolver
//! (PW-A1 fire with the PW-H1 hit choice, rolled and undone) and the Map tab (PW-G1 distances,
//! select, target and drag-to-move).

#![cfg(feature = "gui")]

use super::common::{
    LAPTOP, demo, last_resolution, map_panel, new_game, place, resolver, strength, window_of,
};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable};
use kepi::app::KepiApp;
use kepi::app::state::{AppState, Command};
use kepi::game::{Action, EntryKind};
use kepi::registry::builtin_scenario;

/// PW-A1 + PW-H1: the battery fires at the French battalion 2 hexes away; the hits it rolled cost
/// the target SP (the default choice), the guns are marked as fired, and undo restores both.
#[test]
fn pw_artillery_roll_and_apply_then_undo() {
    let mut app = new_game("pw-skirmish", 11);
    app.handle(Command::Select("de-art".into()));
    app.handle(Command::Target("fr-inf-3".into()));
    app.resolver.current = app
        .resolver
        .forms
        .iter()
        .position(|f| f.name() == "artillery")
        .unwrap();
    let log_before = app.game.log().len();
    let mut h = resolver(app, (1000.0, 1000.0));
    h.run();
    assert!(h.query_by_label_contains("target 2 hexes away").is_some());
    h.get_by_label("Roll and apply").click();
    h.run();
    let app = h.state();
    assert_eq!(app.game.log().len(), log_before + 1);
    let resolution = last_resolution(app);
    let hits = resolution.outcome.as_ref().unwrap()["hits"]
        .as_u64()
        .unwrap() as u32;
    assert_eq!(strength(app, "fr-inf-3"), 4 - hits);
    assert!(app.state().unit("de-art").unwrap().fired);
    assert!(h.query_by_label_contains("Result:").is_some());
    h.get_by_label("Undo this").click();
    h.run();
    let app = h.state();
    assert_eq!(strength(app, "fr-inf-3"), 4);
    assert!(!app.state().unit("de-art").unwrap().fired);
}

/// PW-X1 with physical dice: both sides roll 6; the Uhlans hit the battalion's rear for two hits.
#[test]
fn pw_melee_with_my_dice_hits_both_sides() {
    let mut app = new_game("pw-skirmish", 5);
    let now = chrono::Utc::now();
    app.game
        .act(
            Action::Move {
                effects: Vec::new(),
                unit: "de-cav".into(),
                to: "0305".parse().unwrap(),
                notes: Vec::new(),
                mp: None,
            },
            now,
        )
        .unwrap();
    app.game
        .act(
            Action::Face {
                unit: "de-cav".into(),
                facing: Some(kepi::roster::Facing::N),
            },
            now,
        )
        .unwrap();
    app.handle(Command::Select("de-cav".into()));
    app.handle(Command::Target("fr-inf-3".into()));
    app.resolver.current = app
        .resolver
        .forms
        .iter()
        .position(|f| f.name() == "melee")
        .unwrap();
    app.options.own_dice = true;
    assert!(app.resolver.type_dice("attacker d6", "6"));
    assert!(app.resolver.type_dice("defender d6", "6"));
    let mut h = resolver(app, (1000.0, 1000.0));
    h.run();
    h.get_by_label("Apply my dice").click();
    h.run();
    let app = h.state();
    assert_eq!(strength(app, "fr-inf-3"), 2);
    assert_eq!(strength(app, "de-cav"), 1);
}

/// The Map tab: units are drawn as named widgets; with a unit selected, hovering another shows the
/// distance in hexes (PW-G1) and whether it is in the weapon's range (PW-U1).
#[test]
fn map_shows_units_and_the_distance_label() {
    let mut app = new_game("pw-skirmish", 3);
    app.handle(Command::Select("de-art".into()));
    let mut h = map_panel(app);
    h.run();
    for name in [
        "Prussian Field Battery",
        "1er bataillon, 94e de ligne",
        "Prussian Uhlans",
    ] {
        assert!(h.query_by_label(name).is_some(), "{name} on the map");
    }
    h.get_by_label("1er bataillon, 94e de ligne").hover();
    h.run();
    h.run();
    assert!(
        h.query_by_label_contains(
            "Distance from Prussian Field Battery to 0304: 2 hexes · in range (12)"
        )
        .is_some(),
        "distance label"
    );
}

/// The Map tab: click selects, right-click targets, dragging a unit one hex down moves it.
#[test]
fn map_click_target_and_drag_to_move() {
    let mut h = map_panel(new_game("pw-skirmish", 4));
    h.run();
    h.get_by_label("1st Prussian Infantry").click();
    h.run();
    assert_eq!(h.state().selected.as_deref(), Some("de-inf-1"));
    h.get_by_label("2e bataillon, 93e de ligne")
        .click_secondary();
    h.run();
    assert_eq!(h.state().target.as_deref(), Some("fr-inf-2"));
    // de-inf-1 stands at 0201; one hex straight down is 0202 (a hex is sqrt3 x 28 points tall).
    let from = h.get_by_label("1st Prussian Infantry").rect().center();
    let to = super::common::drag_down(&mut h, from, 1.0);
    h.drop_at(to);
    h.run();
    let app = h.state();
    assert_eq!(
        app.state().unit("de-inf-1").unwrap().position.to_string(),
        "0202"
    );
    assert!(app.state().unit("de-inf-1").unwrap().moved);
    assert!(app.game.can_undo());
}

/// Issue 20: a move beyond the allowance (PW-U1: infantry 2 hexes) is noted while dragging and in
/// the log, never refused.
#[test]
fn a_move_beyond_the_allowance_is_noted_and_made() {
    let mut h = map_panel(new_game("pw-skirmish", 4));
    h.run();
    // de-inf-1 at 0201; three hexes straight down is 0204.
    let from = h.get_by_label("1st Prussian Infantry").rect().center();
    let to = super::common::drag_down(&mut h, from, 3.0);
    assert!(
        h.query_by_label_contains("beyond its allowance of 2 (PW-U1)")
            .is_some(),
        "noted while dragging"
    );
    h.drop_at(to);
    h.run();
    let app = h.state();
    assert_eq!(
        app.state().unit("de-inf-1").unwrap().position.to_string(),
        "0204",
        "the umpire's move is made"
    );
    // The note is the move's own: one log entry, which keeps it (issue 28).
    let last = app.game.log().last().unwrap();
    assert!(last.summary.contains("moves to 0204"), "{}", last.summary);
    let said = kepi::engine::game::entry_text(last, app.state());
    assert!(
        said.notes
            .iter()
            .any(|n| n.contains("umpire went ahead: 1st Prussian Infantry moved 3 hexes")),
        "{:?}",
        said.notes
    );
}

/// SPI-C2 in the window: Ctrl-click on the map adds a second attacker to the hex combat and takes
/// it out again; the resolver names each unit with its contribution and shows both sums (SPI-C1:
/// "Total up the Combat Strengths of the Attacking units"), the fortification in the hex counted
/// as SPI-F1 says (5 in a fort of 2: 12).
#[test]
fn spi_ctrl_click_adds_attackers_and_the_resolver_shows_each_contribution() {
    let mut app = new_game("spi-1870", 3);
    place(
        &mut app,
        &[
            ("fr-metz-5", "0505"),
            ("fort-sedan", "0505"),
            ("de-2-5-1", "0504"),
            ("de-2-5-2", "0506"),
        ],
    );
    app.handle(Command::Select("de-2-5-1".into()));
    app.handle(Command::Target("fr-metz-5".into()));
    let attackers = |app: &AppState| match app
        .resolver
        .form()
        .and_then(|f| f.get::<kepi::rules::spi::combat_form::SpiForm>())
    {
        Some(f) => f.attacker_ids.clone(),
        None => panic!("an SPI combat form"),
    };
    assert_eq!(attackers(&app), vec!["de-2-5-1".to_string()]);
    let mut h = map_panel(app);
    h.run();
    h.get_by_label("German 5 (area 2, #2)")
        .click_modifiers(egui::Modifiers::COMMAND);
    h.run();
    assert_eq!(
        attackers(h.state()),
        vec!["de-2-5-1".to_string(), "de-2-5-2".to_string()]
    );
    let app = h.into_state();
    let mut r = resolver(app, (1000.0, 1000.0));
    r.run();
    for line in [
        "attacker 1 (German 5 (area 2, #1)): 5",
        "attacker 2 (German 5 (area 2, #2)): 5",
        "attack strength, total",
        "defender 1 (French 5 (Metz)): 5 doubled (in the fort)",
        "fortification's own strength",
        "defence strength, total",
    ] {
        assert!(r.query_by_label_contains(line).is_some(), "{line}");
    }
    assert!(r.query_by_label_contains("10 : 12").is_some());
    let app = r.into_state();
    let mut h = map_panel(app);
    h.run();
    h.get_by_label("German 5 (area 2, #2)")
        .click_modifiers(egui::Modifiers::COMMAND);
    h.run();
    assert_eq!(attackers(h.state()), vec!["de-2-5-1".to_string()]);
}

/// SPI-R1 (A) in the window: the losses chooser's split (here set on the form as its fields do)
/// goes with the Roll: "Players on the defensive in a hex with a Fortification unit may lose from
/// either the Fortification unit or any Combat units in the fort". A split that does not add up to
/// the result is refused and nothing is applied.
#[test]
fn spi_window_roll_applies_the_owners_loss_split() {
    let mut app = new_game("spi-1870", 3);
    place(
        &mut app,
        &[
            ("fr-metz-5", "0505"),
            ("fort-sedan", "0505"),
            ("de-2-5-1", "0504"),
        ],
    );
    app.handle(Command::Select("de-2-5-1".into()));
    app.handle(Command::Target("fr-metz-5".into()));
    let split = |app: &mut AppState, losses: Vec<(&str, u32)>| {
        let i = app.resolver.current;
        let Some(f) = app
            .resolver
            .forms
            .get_mut(i)
            .and_then(|f| f.get_mut::<kepi::rules::spi::combat_form::SpiForm>())
        else {
            panic!("an SPI form")
        };
        f.losses = losses
            .into_iter()
            .map(|(u, n)| (u.to_string(), n))
            .collect();
        f.entered_result = Some("D3".into());
    };
    // The chooser lists the units that can take losses.
    let mut r = resolver(app, (1000.0, 1000.0));
    r.run();
    r.get_by_label("Losses: owner's choice (SPI-R1)").click();
    r.run();
    assert!(r.query_by_label("Fortification Sedan").is_some());
    let mut app = r.into_state();
    let log = app.game.log().len();
    split(&mut app, vec![("fort-sedan", 1)]);
    app.handle(Command::ResolveAndApply {
        entered: vec![(kepi::dice::Die::D6, 4)],
    });
    assert_eq!(
        app.game.log().len(),
        log,
        "1 of 3: refused, nothing applied"
    );
    split(&mut app, vec![("fort-sedan", 2), ("fr-metz-5", 1)]);
    app.handle(Command::ResolveAndApply {
        entered: vec![(kepi::dice::Die::D6, 4)],
    });
    assert_eq!(app.game.log().len(), log + 1);
    assert_eq!(strength(&app, "fort-sedan"), 0);
    assert_eq!(strength(&app, "fr-metz-5"), 4);
}

/// SPI-F1: a fortification on the map is its own hexagonal counter, and says so on hover.
#[test]
fn a_fortification_on_the_map_says_what_it_is() {
    let mut app = new_game("spi-1870", 3);
    place(&mut app, &[("fort-sedan", "0505")]);
    let mut h = map_panel(app);
    h.run();
    h.get_by_label("Fortification Sedan").hover();
    h.run();
    assert!(
        h.query_by_label_contains("fortification, strength 2")
            .is_some()
    );
}

/// SPI-C3 in the window: ticking "flanking attack" when the attackers stand side by side (0504
/// and 0605 around 0505) disables Roll and shows why; opposite sides (0504, 0506) make it one.
#[test]
fn spi_flank_box_needs_the_map_geometry() {
    let mut app = new_game("spi-1870", 3);
    place(
        &mut app,
        &[
            ("fr-metz-5", "0505"),
            ("de-2-5-1", "0504"),
            ("de-2-5-2", "0605"),
        ],
    );
    app.handle(Command::Select("de-2-5-1".into()));
    app.handle(Command::Target("fr-metz-5".into()));
    app.handle(Command::ToggleAttacker("de-2-5-2".into()));
    let mut h = resolver(app, (1000.0, 1000.0));
    h.run();
    h.get_by_label("flanking attack").click();
    h.run();
    assert!(h.query_by_label_contains("not a flanking attack").is_some());
    assert!(
        h.get_by_label("Roll and apply")
            .accesskit_node()
            .is_disabled()
    );
    place(h.state_mut(), &[("de-2-5-2", "0506")]);
    h.run();
    h.run();
    assert!(h.query_by_label_contains("not a flanking attack").is_none());
    assert!(
        !h.get_by_label("Roll and apply")
            .accesskit_node()
            .is_disabled()
    );
}

/// SPI-C5 in the window, the Terrain Effects Chart: "attacker adds "one" to the defender's
/// die-roll when the defender is in Rough Terrain". On kepi's example board the French unit in
/// rough 1102 is attacked from 1103: "defender in rough" is ticked from the map, marked "(map)",
/// and the preview has the die line; unticking it is the umpire's, marked "(set by you)" and
/// listed under "Set by you", and the die line goes.
#[test]
fn spi_rough_terrain_is_ticked_from_the_map() {
    let tables = kepi::registry::builtin_tables().expect("tables");
    let mut s = builtin_scenario("spi-1870").expect("scenario");
    s.map = Some(kepi::map::MapFile::named("example-hex").expect("the example board"));
    let mut app = AppState::new_game(&s, 3, tables).expect("game");
    place(&mut app, &[("fr-metz-5", "1102"), ("de-2-5-1", "1103")]);
    app.handle(Command::Select("de-2-5-1".into()));
    app.handle(Command::Target("fr-metz-5".into()));
    let mut h = resolver(app, (1000.0, 1000.0));
    h.run();
    let ticked = |h: &Harness<'_, AppState>| {
        h.get_by_label("defender in rough")
            .accesskit_node()
            .toggled()
            == Some(egui::accesskit::Toggled::True)
    };
    assert!(ticked(&h), "rough from the map");
    // Rough, and ridge and river (not ticked: 1103 faces 1102 across no ridge or river).
    assert_eq!(h.query_all_by_label("(map)").count(), 3);
    assert!(
        h.query_by_label_contains("defender in rough terrain (map, 1102)")
            .is_some()
    );
    h.get_by_label("defender in rough").click();
    h.run();
    h.run();
    assert!(!ticked(&h), "the umpire's untick wins");
    assert!(h.query_by_label("(set by you)").is_some());
    assert_eq!(h.query_all_by_label("(map)").count(), 2);
    assert!(h.query_by_label_contains("Set by you").is_some());
    assert!(
        h.query_by_label_contains("defender in rough terrain (map")
            .is_none()
    );
}

#[test]
fn a_unit_comes_onto_the_map_from_the_map_or_the_unit_editor() {
    // Issue 17: the SPI scenario has its whole order of battle off the map, and the map said "give
    // them a hex in the unit editor", which had no hex field.
    use egui::accesskit::Role;
    let mut h = demo(egui::vec2(1366.0, 1000.0));
    h.state_mut()
        .state
        .handle(Command::NewGame("spi-1870".into()));
    h.run();
    assert!(
        h.query_by_label_contains("pick one in the roster to place it here")
            .is_some()
    );
    let (id, name, was) = {
        let u = &h.state().state.state().units[0];
        (u.unit.id.clone(), u.unit.name.clone(), u.position)
    };
    assert_eq!(was, kepi::roster::Position::Off);
    h.state_mut().state.handle(Command::Select(id.clone()));
    h.run();
    let on_map = format!("{name}: hex");
    let type_in = |h: &mut Harness<'_, KepiApp>, label: &str, text: &str| {
        h.get_by_role_and_label(Role::TextInput, label).focus();
        h.run();
        h.get_by_role_and_label(Role::TextInput, label)
            .type_text(text);
        h.run();
        h.key_press(egui::Key::Enter);
        h.run();
        h.run();
    };
    // A typo is named, and nothing moves.
    type_in(&mut h, &on_map, "99x");
    assert!(
        h.query_by_label_contains("not a hex: type one like")
            .is_some()
    );
    assert_eq!(h.state().state.state().unit(&id).unwrap().position, was);
    // Esc drops what was typed.
    h.get_by_role_and_label(Role::TextInput, &on_map).focus();
    h.run();
    h.key_press(egui::Key::Escape);
    h.run();
    h.run();
    assert!(h.query_by_label_contains("not a hex").is_none());
    // A hex places it, as one undoable action.
    type_in(&mut h, &on_map, "1012");
    assert_eq!(
        h.state()
            .state
            .state()
            .unit(&id)
            .unwrap()
            .position
            .to_string(),
        "1012"
    );
    assert!(
        h.query_by_label("Move").is_some(),
        "placed: the editor moves it now"
    );
    // Undo takes it off again, and the fields follow the unit.
    h.state_mut().state.handle(Command::Undo);
    h.run();
    assert_eq!(h.state().state.state().unit(&id).unwrap().position, was);
    // The unit editor's own field places it too.
    h.get_by_role_and_label(Role::TextInput, "hex")
        .scroll_to_me();
    h.run();
    type_in(&mut h, "hex", "0911");
    assert_eq!(
        h.state()
            .state
            .state()
            .unit(&id)
            .unwrap()
            .position
            .to_string(),
        "0911"
    );
}

/// FR-C2 (E) in the window: "The Attacker must then eliminate, from among his units that took part
/// in the combat, a total of combat points at least equal to the total (taking the printed combat
/// potential) lost by the Defender." The chooser lists the attacking units; the Roll applies the
/// choice, or refuses one that falls short with nothing applied. FR-C3's box is there too.
#[test]
fn fr1870_window_roll_applies_the_attackers_exchange_choice() {
    let mut app = new_game("fr1870-august", 3);
    app.handle(Command::Select("fr-1rc".into()));
    app.handle(Command::Target("de-cav-3".into()));
    let choose = |app: &mut AppState, losses: Vec<(&str, u32)>| {
        let i = app.resolver.current;
        let Some(f) = app
            .resolver
            .forms
            .get_mut(i)
            .and_then(|f| f.get_mut::<kepi::rules::fr1870::combat_form::FrForm>())
        else {
            panic!("a 1870 form")
        };
        f.losses = losses
            .into_iter()
            .map(|(u, n)| (u.to_string(), n))
            .collect();
        // 2 : 2, die 3: a cell the seed does not print; the umpire reads E off his chart.
        f.entered_result = Some("E".into());
    };
    let mut r = resolver(app, (1000.0, 1000.0));
    r.run();
    assert!(
        r.query_by_label("cavalry refuses combat and retreats (FR-C3)")
            .is_some()
    );
    r.get_by_label("Losses: owner's choice (FR-C2 exchange)")
        .click();
    r.run();
    assert!(r.query_by_label("1RC: eliminated (2 potential)").is_some());
    let mut app = r.into_state();
    let log = app.game.log().len();
    choose(&mut app, vec![("fr-1rc", 0)]);
    app.handle(Command::ResolveAndApply {
        entered: vec![(kepi::dice::Die::D6, 3)],
    });
    assert_eq!(
        app.game.log().len(),
        log,
        "0 of at least 2: refused, nothing applied"
    );
    assert_eq!(strength(&app, "de-cav-3"), 2);
    choose(&mut app, vec![("fr-1rc", 2)]);
    app.handle(Command::ResolveAndApply {
        entered: vec![(kepi::dice::Die::D6, 3)],
    });
    assert_eq!(app.game.log().len(), log + 1);
    assert_eq!(strength(&app, "de-cav-3"), 0);
    assert_eq!(strength(&app, "fr-1rc"), 0);
}

/// FR-C3 in the window: "if the Attacker engages cavalry ... the cavalry may not refuse the
/// combat": ticking the box with 1RC (cavalry) attacking disables Roll and says why; Cavalry 3
/// attacked by infantry alone (Mar) may refuse: Roll applies with no die and notes the retreat.
#[test]
fn fr1870_cavalry_refuses_box_follows_the_text() {
    let mut app = new_game("fr1870-august", 3);
    app.handle(Command::Select("fr-1rc".into()));
    app.handle(Command::Target("de-cav-3".into()));
    let mut h = resolver(app, (1000.0, 1000.0));
    h.run();
    h.get_by_label("cavalry refuses combat and retreats (FR-C3)")
        .click();
    h.run();
    assert!(
        h.query_by_label_contains("attacks and is cavalry")
            .is_some()
    );
    assert!(
        h.get_by_label("Roll and apply")
            .accesskit_node()
            .is_disabled()
    );
    let mut app = h.into_state();
    place(&mut app, &[("fr-mar", "2738")]);
    app.handle(Command::Select("fr-mar".into()));
    app.handle(Command::Target("de-cav-3".into()));
    let i = app.resolver.current;
    let Some(f) = app
        .resolver
        .forms
        .get_mut(i)
        .and_then(|f| f.get_mut::<kepi::rules::fr1870::combat_form::FrForm>())
    else {
        panic!("a 1870 form")
    };
    f.cavalry_refuses = true;
    let log = app.game.log().len();
    app.handle(Command::ResolveAndApply {
        entered: Vec::new(),
    });
    assert_eq!(app.game.log().len(), log + 1);
    let Some(EntryKind::Act {
        action: Action::Resolved { effects, .. },
    }) = app.game.log().last().map(|e| &e.kind)
    else {
        panic!("a resolution")
    };
    // It retreats: the "must retreat" marker (FR-C2), which its next move clears.
    assert!(
        effects.iter().any(|a| matches!(
            a,
            Action::SetFlag { unit, flag: kepi::game::FlagName::Mark(m), on: true }
                if unit == "de-cav-3" && m == "must-retreat"
        )),
        "{effects:?}"
    );
    assert!(
        app.state()
            .unit("de-cav-3")
            .unwrap()
            .has_mark("must-retreat")
    );
    assert_eq!(strength(&app, "de-cav-3"), 2);
}

/// FR-C2 in the window: a unit the result sends back carries "must retreat"; selected, the map
/// says where it may go, and dragging it one cell answers the retreat check. A hex a combat
/// vacated is named for the victors.
#[test]
fn an_1870_retreat_is_offered_on_the_map_and_the_drag_answers_it() {
    let mut app = new_game("fr1870-august", 3);
    place(&mut app, &[("de-4b", "3001")]);
    // 2 against 4 is 1:2; die 6 is DR (seed: "1 vs 2 AE AE AE AD AD AD,DD R DR").
    app.handle(Command::Select("fr-1rc".into()));
    app.handle(Command::Target("de-3b".into()));
    app.handle(Command::OpenForm {
        form: "combat".into(),
        actor: Some("fr-1rc".into()),
        target: Some("de-3b".into()),
    });
    app.handle(Command::ResolveAndApply {
        entered: vec![(kepi::dice::Die::D6, 6)],
    });
    assert!(
        app.state().unit("de-3b").unwrap().has_mark("must-retreat"),
        "{:?}",
        app.status
    );
    assert!(app.state().due.iter().any(|d| d.by_move));
    let mut h = map_panel(app);
    h.run();
    assert!(
        h.query_by_label_contains("the victor may occupy it")
            .is_some(),
        "the vacated cell is named on the map"
    );
    // de-4b went far off (3001): the board is tall, so bring the unit into view first.
    h.get_by_label("3B (3rd Bavarian Division)").scroll_to_me();
    h.run();
    h.get_by_label("3B (3rd Bavarian Division)").click();
    h.run();
    h.run();
    assert_eq!(h.state().selected.as_deref(), Some("de-3b"));
    assert!(
        h.query_by_label_contains("must retreat one cell (FR-C2)")
            .is_some()
    );
    // One cell straight down (a hex is sqrt3 x 28 points tall).
    let from = h.get_by_label("3B (3rd Bavarian Division)").rect().center();
    let to = super::common::drag_down(&mut h, from, 1.0);
    h.drop_at(to);
    h.run();
    let app = h.state();
    let u = app.state().unit("de-3b").unwrap();
    assert!(!u.has_mark("must-retreat"), "moved: no longer must retreat");
    assert!(
        !app.state().due.iter().any(|d| d.by_move),
        "the drag answered it"
    );
}

/// Nothing moves under the mouse: picking an 1870 combat's units fills the resolver with modifier
/// lines as long as "defender 1 (Cavalry 4): 2 cavalry halved (disorganised)"; they are elided in
/// their column rather than widening the resolver's panel, which moved Roll to the left.
#[test]
fn picking_a_combats_units_does_not_move_roll() {
    let mut app = new_game("fr1870-august", 3);
    for (unit, flag) in [("fr-2rc", "disorganised"), ("de-cav-4", "disorganised")] {
        app.handle(Command::Act(Action::SetFlag {
            unit: unit.into(),
            flag: flag.parse().unwrap(),
            on: true,
        }));
    }
    place(&mut app, &[("de-cav-4", "2140")]);
    let mut h = Harness::builder()
        .with_size(LAPTOP)
        .build_ui_state(|ui, app: &mut KepiApp| app.ui(ui), KepiApp::with_state(app));
    h.run_steps(4);
    let before = h.get_by_label("Roll and apply").rect();
    h.state_mut().state.handle(Command::Select("fr-2rc".into()));
    h.state_mut()
        .state
        .handle(Command::Target("de-cav-4".into()));
    h.run_steps(6);
    assert!(
        h.query_all_by_label_contains("2 cavalry hal")
            .next()
            .is_some(),
        "the long modifier lines are there"
    );
    let after = h.get_by_label("Roll and apply").rect();
    assert_eq!(before.left(), after.left(), "Roll stays where it was");
}

fn fr1870_after_a_retreat_result() -> AppState {
    let mut app = new_game("fr1870-august", 3);
    place(&mut app, &[("de-4b", "3001")]);
    // 2 against 4 is 1:2; die 6 is DR: 3B must retreat from 2544.
    app.handle(Command::Select("fr-1rc".into()));
    app.handle(Command::Target("de-3b".into()));
    app.handle(Command::OpenForm {
        form: "combat".into(),
        actor: Some("fr-1rc".into()),
        target: Some("de-3b".into()),
    });
    app.handle(Command::ResolveAndApply {
        entered: vec![(kepi::dice::Die::D6, 6)],
    });
    app.handle(Command::Select("de-cav-4".into()));
    app
}

/// FR-C2 after a combat: what the map and the due list say about the cell the combat "vacated"
/// follows who stands in it each frame: the defenders while they have not retreated, nobody once
/// they have, the victors once they advance. The check itself stays as queued.
#[test]
fn an_1870_vacated_cell_is_named_for_who_holds_it_now() {
    let app = fr1870_after_a_retreat_result();
    let due = app
        .state()
        .due
        .iter()
        .find(|d| d.at.is_some())
        .unwrap()
        .clone();
    assert!(
        due.what.contains("is vacated"),
        "queued as it was: {}",
        due.what
    );
    let mut h = map_panel(app);
    h.run();
    assert!(h.query_by_label_contains("is vacated").is_none());
    assert!(
        h.query_by_label_contains(
            "2544 is still held by the defenders (3B (3rd Bavarian Division))"
        )
        .is_some()
    );
    let mut app = h.into_state();
    place(&mut app, &[("de-3b", "2645")]);
    let mut h = map_panel(app);
    h.run();
    assert!(
        h.query_by_label_contains("2544 is vacated: the victor may occupy it")
            .is_some()
    );
    let mut app = h.into_state();
    place(&mut app, &[("fr-1rc", "2544")]);
    let d = app.state().due.iter().find(|d| d.at.is_some()).unwrap();
    assert_eq!(d.what, due.what, "the check is not changed");
    assert_eq!(
        d.describe_now(app.state()),
        "FR-C2 French army: cell 2544 advanced into by 1RC: mark done when the advance is over"
    );
    let mut h = map_panel(app);
    h.run();
    assert!(
        h.query_by_label_contains("2544 advanced into by 1RC")
            .is_some()
    );
    assert!(h.query_by_label_contains("is vacated").is_none());
}

/// Nothing moves under the mouse: dragging the topmost unit (3RC, 2235) two rows down used to
/// shrink the board by two rows, so every hex slid up under the pointer.
#[test]
fn an_1870_drag_does_not_scroll_the_board() {
    let app = new_game("fr1870-august", 3);
    let mut h = map_panel(app);
    h.run();
    let other = h.get_by_label("Cavalry 3").rect();
    let from = h.get_by_label("3RC").rect().center();
    let to = super::common::drag_down(&mut h, from, 2.0);
    h.drop_at(to);
    h.run();
    h.run();
    assert_eq!(
        h.state()
            .state()
            .unit("fr-3rc")
            .unwrap()
            .position
            .to_string(),
        "2237"
    );
    assert_eq!(h.get_by_label("Cavalry 3").rect(), other);
}

/// Issue 28, FR-G1 in the window: 1870's rail tab carries the picked unit to the cell typed; a
/// second transport the same turn is noted before Apply ("a unit may make only one railway
/// transport per turn") and logged with the umpire going ahead.
#[test]
fn fr1870_rail_from_the_window_moves_the_unit_and_notes_a_second_transport() {
    let mut app = new_game("fr1870-august", 3);
    app.handle(Command::Select("fr-1rc".into()));
    let mut r = resolver(app, (1000.0, 1000.0));
    r.run();
    r.get_by_label("rail").click();
    r.run();
    // Said in the window's words, not the command line's (`--to`).
    assert!(
        r.query_by_label_contains("to cell: no cell given")
            .is_some(),
        "the field to fill, named as the window names it"
    );
    let field = egui::accesskit::Role::TextInput;
    r.get_by_role_and_label(field, "to cell").focus();
    r.run();
    r.get_by_role_and_label(field, "to cell").type_text("2047");
    r.run();
    assert!(
        r.query_by_label_contains("only one railway transport")
            .is_none(),
        "nothing to say yet"
    );
    r.get_by_label("Apply").click();
    r.run();
    let pos = |r: &Harness<'_, AppState>| {
        r.state()
            .state()
            .unit("fr-1rc")
            .map(|u| u.position.to_string())
            .unwrap()
    };
    assert_eq!(pos(&r), "2047");
    // The cell typed was for that transport: asked again.
    r.get_by_role_and_label(field, "to cell").focus();
    r.run();
    r.get_by_role_and_label(field, "to cell").type_text("2048");
    r.run();
    assert!(
        r.query_by_label_contains("only one railway transport per turn")
            .is_some(),
        "said before Apply"
    );
    r.get_by_label("Apply").click();
    r.run();
    assert_eq!(pos(&r), "2048", "the umpire decides");
    let last = r.state().game.log().last().unwrap().clone();
    let EntryKind::Act {
        action: Action::Resolved { resolution, .. },
    } = &last.kind
    else {
        panic!("a resolution")
    };
    assert!(
        resolution
            .notes
            .iter()
            .any(|n| n.starts_with("umpire went ahead") && n.contains("only one railway")),
        "{:?}",
        resolution.notes
    );
}

/// Issue 46: the hex field above the map moved with the picked unit's name length. It stands at
/// one place whatever unit is picked (the name elided in a box of one width, whole on hover).
#[test]
fn the_maps_hex_field_stands_still_whatever_unit_is_picked() {
    use egui::accesskit::Role;
    let mut h = demo(LAPTOP);
    h.state_mut()
        .state
        .handle(Command::NewGame("spi-1870".into()));
    h.run();
    let units: Vec<(String, String)> = h
        .state()
        .state
        .state()
        .units
        .iter()
        .map(|u| (u.unit.id.clone(), u.unit.name.clone()))
        .collect();
    let shortest = units.iter().min_by_key(|(_, n)| n.len()).expect("a unit");
    let longest = units.iter().max_by_key(|(_, n)| n.len()).expect("a unit");
    assert!(
        longest.1.len() > shortest.1.len() + 3,
        "names of different lengths"
    );
    let mut at = Vec::new();
    for (id, name) in [shortest, longest] {
        h.state_mut().state.handle(Command::Select(id.clone()));
        h.run();
        at.push(
            h.get_by_role_and_label(Role::TextInput, &format!("{name}: hex"))
                .rect()
                .left(),
        );
    }
    assert_eq!(at[0], at[1], "the field moved with the name");
}

/// Issue 46: the selected unit's weapon range is shaded in the fire phases only (PW-T1: artillery
/// fire, rifle fire), not in the movement phase, even with a fire form left open in the resolver.
#[test]
fn pw_range_is_shaded_in_the_fire_phases_only() {
    let mut app = new_game("pw-skirmish", 3);
    app.handle(Command::Select("de-art".into()));
    assert_eq!(
        app.state().phase_kind().map(|p| p.step),
        Some(kepi::game::clock::Step::ArtilleryFire)
    );
    let mut h = map_panel(app);
    h.run();
    assert!(
        h.query_by_label_contains("shaded: weapon range").is_some(),
        "artillery fire phase"
    );
    h.state_mut().handle(Command::NextPhase);
    h.state_mut().panels.map.set_form(Some("artillery"));
    h.run();
    assert_eq!(
        h.state().state().phase_kind().map(|p| p.step),
        Some(kepi::game::clock::Step::Movement)
    );
    assert!(
        h.query_by_label_contains("shaded: weapon range").is_none(),
        "not in the movement phase"
    );
    h.state_mut().handle(Command::NextPhase);
    h.run();
    assert!(
        h.query_by_label_contains("shaded: weapon range").is_some(),
        "rifle fire phase"
    );
}

/// Issue 46: no two counters of a game carry the same label (SPI's "German 5 (area 2, #1)" and
/// "#2" both read "G5A2"), in every scenario played on a map.
#[test]
fn every_counter_label_is_its_own() {
    let tables = kepi::registry::builtin_tables().unwrap();
    for name in ["spi-1870", "fr1870-august", "pw-skirmish"] {
        let s = builtin_scenario(name).unwrap();
        let app = AppState::new_game(&s, 1, tables).unwrap();
        let units = &app.state().units;
        let labels = kepi::app::map::counter_labels(
            units
                .iter()
                .map(|u| (u.unit.id.as_str(), u.unit.name.as_str())),
        );
        assert_eq!(labels.len(), units.len());
        for (i, l) in labels.iter().enumerate() {
            assert!(!l.is_empty(), "{name}: {}", units[i].unit.name);
            if let Some(j) = labels[..i].iter().position(|o| o == l) {
                panic!(
                    "{name}: {} and {} both read {l}",
                    units[j].unit.name, units[i].unit.name
                );
            }
        }
    }
    let labels = kepi::app::map::counter_labels(
        [
            ("de-2-5-1", "German 5 (area 2, #1)"),
            ("de-2-5-2", "German 5 (area 2, #2)"),
            ("de-1-5-1", "German 5 (area 1, #1)"),
        ]
        .into_iter(),
    );
    assert_eq!(labels, ["G5A2·1", "G5A2·2", "G5A1"]);
}

/// Issue 46: at 1366x768 the shaded range's legend is read whole inside the map's column ("shaded:
/// weapo" ran past its edge beside the map's tools), in the row that says where units come on.
#[test]
fn the_shaded_range_is_said_whole_inside_the_map_column() {
    let mut app = new_game("pw-skirmish", 3);
    app.handle(Command::Select("de-art".into()));
    let mut h = window_of(KepiApp::with_state(app), LAPTOP);
    h.run();
    let legend = h.get_by_label_contains("shaded: weapon range");
    let tools = h.get_by_label_contains("zones of control").rect();
    let column = h.get_by_label("Map").rect();
    assert!(
        legend.rect().top() > tools.bottom(),
        "under the tools, not beside them: {:?} / {tools:?}",
        legend.rect()
    );
    assert!(
        legend.rect().right() < column.left() + 500.0,
        "inside the map's column: {:?}",
        legend.rect()
    );
}

/// Issue 46: a hex field's refusal was cut to its row ("... is not a position (accepted: a hex
/// label like 0304, ..."). The row above the map says it short and keeps its height (the whole
/// refusal on hover); the unit editor says it short too and whole, wrapped, under its field.
#[test]
fn a_hex_fields_refusal_is_said_whole_without_making_the_maps_row_taller() {
    use egui::accesskit::Role;
    let mut h = demo(egui::vec2(1366.0, 1000.0));
    h.state_mut()
        .state
        .handle(Command::NewGame("spi-1870".into()));
    h.run();
    let (id, name) = {
        let u = &h.state().state.state().units[0];
        (u.unit.id.clone(), u.unit.name.clone())
    };
    h.state_mut().state.handle(Command::Select(id));
    h.run();
    let type_typo = |h: &mut Harness<'_, KepiApp>, label: &str| {
        h.get_by_role_and_label(Role::TextInput, label).focus();
        h.run();
        h.get_by_role_and_label(Role::TextInput, label)
            .type_text("99x");
        h.run();
        h.run();
    };
    let drop_typed = |h: &mut Harness<'_, KepiApp>, label: &str| {
        h.get_by_role_and_label(Role::TextInput, label).focus();
        h.run();
        h.key_press(egui::Key::Escape);
        h.run();
        h.run();
    };
    // Above the map: short, in the row, which keeps its place and height.
    let on_map = format!("{name}: hex");
    let field = h.get_by_role_and_label(Role::TextInput, &on_map).rect();
    type_typo(&mut h, &on_map);
    let short = h.get_by_label_contains("not a hex: type one like").rect();
    assert_eq!(
        h.get_by_role_and_label(Role::TextInput, &on_map).rect(),
        field
    );
    assert!(
        short.top() < field.bottom() && short.bottom() > field.top(),
        "in the field's row: {short:?} {field:?}"
    );
    assert!(
        h.query_by_label_contains("is not a position").is_none(),
        "the whole refusal is the hover's above the map"
    );
    h.get_by_role_and_label(Role::TextInput, &on_map).hover();
    h.run();
    assert!(
        h.query_by_label_contains("is not a position").is_some(),
        "on the field's hover"
    );
    drop_typed(&mut h, &on_map);
    // The unit editor: short in the row, whole and wrapped under the field.
    type_typo(&mut h, "hex");
    let field = h.get_by_role_and_label(Role::TextInput, "hex").rect();
    let whole = h.get_by_label_contains("is not a position (accepted: a hex label like 0304, free, off); a hex label is its column then its row, e.g. ");
    assert!(
        whole.rect().top() >= field.bottom() && whole.rect().width() > 2.0 * field.width(),
        "under the field, as wide as its row: {:?} {field:?}",
        whole.rect()
    );
    assert!(
        h.query_by_label_contains("not a hex: type one like")
            .is_some()
    );
}

/// FR-F1 (H11) in the window: an occupied fortress multiplies "a number of units equal to the
/// coefficient of the fortress", "at the player's choice". A value-1 fortress card in 1B and 2B's
/// cell: kepi ticks the defender's best; ticking 2B instead (and 1B off) makes it the defender's
/// choice, which the roll applies and its FR-F1 line says.
#[test]
fn fr1870_the_fortress_choice_is_ticked_in_the_window() {
    let mut s = builtin_scenario("fr1870-august").expect("scenario");
    let mut fort = s
        .units
        .iter()
        .find(|u| u.id == "de-1b")
        .expect("1B")
        .clone();
    fort.id = "de-fortress".into();
    fort.name = "Fortress (value 1)".into();
    fort.arm = kepi::roster::Arm::Fortress;
    fort.strength = 1;
    s.units.push(fort);
    let tables = kepi::registry::builtin_tables().expect("tables");
    let mut app = AppState::new_game(&s, 3, tables).expect("game");
    app.handle(Command::Select("fr-1rc".into()));
    app.handle(Command::Target("de-1b".into()));
    let mut r = resolver(app, (1000.0, 1000.0));
    r.run();
    r.get_by_label_contains("Fortress of value 1: units multiplied and supplied")
        .click();
    r.run();
    r.get_by_label("1B (1st Bavarian Division) (4 potential)")
        .click();
    r.run();
    r.get_by_label("2B (2nd Bavarian Division) (4 potential)")
        .click();
    r.run();
    let mut app = r.into_state();
    let i = app.resolver.current;
    let chosen = app
        .resolver
        .forms
        .get(i)
        .and_then(|f| f.get::<kepi::rules::fr1870::combat_form::FrForm>())
        .and_then(|f| f.multiplied.clone());
    assert_eq!(chosen, Some(vec!["de-2b".to_string()]));
    app.handle(Command::ResolveAndApply {
        entered: vec![(kepi::dice::Die::D6, 1)],
    });
    let lines: Vec<String> = last_resolution(&app)
        .modifiers
        .iter()
        .filter(|m| m.rule.as_str() == "FR-F1")
        .map(|m| m.label.clone())
        .collect();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("2B (2nd Bavarian Division) (the defender's choice")),
        "{lines:?}"
    );
}
