//! The board's map in the Map tab (issue 41): the bundled PW skirmish carries kepi's own example
//! table, so its terrains show in the legend and the hovered cell's line names its terrain, its
//! place and the features on its sides; a game without a map shows none of it.

#![cfg(feature = "gui")]

use super::common::{map_panel, new_game};
use egui_kittest::kittest::Queryable;
use kepi::app::state::Command;

#[test]
fn the_pw_skirmish_is_drawn_on_its_map_with_a_legend_and_the_cell_named_on_hover() {
    let app = new_game("pw-skirmish", 3);
    let map = app
        .state()
        .map
        .as_ref()
        .expect("the skirmish carries its map");
    assert_eq!(map.file, "<built-in example-pw>");
    let mut h = map_panel(app);
    h.run();
    assert!(h.query_by_label("map").is_some(), "the map's legend");
    for terrain in ["clear", "cover", "hill"] {
        assert!(
            h.query_by_label(terrain).is_some(),
            "{terrain} in the legend"
        );
    }
    // The French battalion stands in the village: hovering it names the cell.
    h.get_by_label("1er bataillon, 93e de ligne").hover();
    h.run();
    h.run();
    assert!(
        h.query_by_label_contains("Hex 0503 · cover · Flavigny-le-Petit (town)")
            .is_some(),
        "the hovered cell's terrain and place"
    );
}

#[test]
fn the_distance_line_keeps_its_words_and_adds_the_cell() {
    let mut app = new_game("pw-skirmish", 3);
    app.handle(Command::Select("de-art".into()));
    let mut h = map_panel(app);
    h.run();
    h.get_by_label("1er bataillon, 93e de ligne").hover();
    h.run();
    h.run();
    assert!(
        h.query_by_label_contains("to 0503: ").is_some()
            && h.query_by_label_contains("· cover · Flavigny-le-Petit (town)")
                .is_some(),
        "distance, then the cell"
    );
}

#[test]
fn a_game_without_a_map_has_no_legend() {
    let app = new_game("spi-1870", 3);
    assert!(app.state().map.is_none());
    let mut h = map_panel(app);
    h.run();
    assert!(h.query_by_label("map").is_none());
}

/// Issue 41: in a movement phase, the unit picked shows the cells it may reach with their cost
/// (PW-U1's move of 2 for infantry; the table's one point a hex), and the hovered cell says it;
/// in a fire phase nothing is shaded (issue 46).
#[test]
fn the_unit_picked_shows_its_reach_in_a_movement_phase_only() {
    let mut app = new_game("pw-skirmish", 3);
    app.handle(Command::Select("de-inf-1".into()));
    let fire_phase = app.state().phase_name().to_string();
    let mut h = map_panel(app);
    h.run();
    h.get_by_label("1st Prussian Infantry").hover();
    h.run();
    h.run();
    assert!(
        h.query_by_label_contains("MP to reach").is_none(),
        "no reach in {fire_phase}"
    );
    // On to the German movement phase.
    let mut guard = 0;
    while !h
        .state()
        .state()
        .phase_name()
        .to_lowercase()
        .contains("movement")
    {
        h.state_mut().handle(Command::NextPhase);
        guard += 1;
        assert!(guard < 10, "no movement phase");
    }
    h.run();
    // de-inf-1 stands at 0201; the hex below it, 0202, is open ground: one point.
    let from = h.get_by_label("1st Prussian Infantry").rect().center();
    h.hover_at(from + egui::vec2(0.0, 28.0 * 1.732));
    h.run();
    h.run();
    assert!(
        h.query_by_label_contains("to 0202: 1 hex").is_some()
            && h.query_by_label_contains("· clear · road · 1 of 2 MP to reach (1 step)")
                .is_some(),
        "the cell below costs one point"
    );
    let reach = kepi::engine::play::board::unit_reach(h.state().state(), "de-inf-1", None)
        .unwrap()
        .reach;
    assert!(reach.cells.iter().any(|c| c.cost == 2), "{reach:?}");
}

/// Issue 41, "a traced supply line (highlighted)" (SPI-S1, SPI-S2): on kepi's example board, the
/// German unit picked near the "S" (1205) is supplied from the map; the hover line says so and
/// where from, as `kepi game supply` does (the line drawn is the same answer's path).
#[test]
fn the_unit_picked_shows_its_supply_traced_on_the_map() {
    let mut app = spi_on_example_board();
    super::common::place(&mut app, &[("de-2-5-1", "1004")]);
    app.handle(Command::Select("de-2-5-1".into()));
    let mut h = map_panel(app);
    h.run();
    h.get_by_label("German 5 (area 2, #1)").hover();
    h.run();
    h.run();
    assert!(
        h.query_by_label_contains("German 5 (area 2, #1) supply: supplied (from the map: ")
            .is_some(),
        "the supply status in the hover line"
    );
    assert!(h.query_by_label_contains("hexes to S at 1205").is_some());
    let x = kepi::engine::play::supply::unit_supply(h.state().state(), "de-2-5-1").unwrap();
    let t = x.traced.unwrap();
    assert_eq!(t.path.first().map(String::as_str), Some("1004"));
    assert_eq!(t.path.last().map(String::as_str), Some("1205"));
    assert_eq!(t.hexes.len(), t.path.len(), "the polyline's cells");
}

/// The rail network the unit picked's side may use (issue 41), as SPI-S2 traces it: the French
/// rail line from the west edge (0105) east along row 05, within France (the border runs east of
/// column 09), stopped where a German unit stands on it (0705): "trace the rail line from the edge
/// of the map ... to the nearest hex that has been cut".
#[test]
fn the_unit_picked_shows_the_rail_network_its_side_may_use() {
    let mut app = spi_on_example_board();
    super::common::place(&mut app, &[("fr-metz-5", "0304")]);
    let cell = |l: &str| kepi::hex::Hex::from_label(l, kepi::hex::Layout::OddQ).unwrap();
    let (cells, stops) =
        kepi::app::map::rail_network(app.state(), kepi::roster::Side::French).expect("a network");
    for c in ["0105", "0505", "0905"] {
        assert!(cells.contains(&cell(c)), "{c}");
    }
    assert!(
        !cells.contains(&cell("1005")),
        "Germany's side of the border"
    );
    assert!(stops.is_empty(), "{stops:?}");
    // A German unit on the line cuts it there.
    super::common::place(&mut app, &[("de-2-5-1", "0705")]);
    let (cells, stops) =
        kepi::app::map::rail_network(app.state(), kepi::roster::Side::French).expect("a network");
    assert!(cells.contains(&cell("0605")));
    assert!(!cells.contains(&cell("0805")), "past the cut");
    assert_eq!(stops, vec![cell("0705")]);
    // The Germans have no rail source on this map: nothing drawn for them.
    assert!(kepi::app::map::rail_network(app.state(), kepi::roster::Side::German).is_none());
    // Drawn with the unit picked, on the map panel.
    app.handle(Command::Select("fr-metz-5".into()));
    let mut h = map_panel(app);
    h.run();
    h.get_by_label("French 5 (Metz)");
}

/// Issue 45's cell markers in the window (SPI-E2's Rail Cut marker): the map's "markers" list
/// offers the rule set's kinds; with "rail cut" picked, a click on a cell (a counter's too) puts
/// the marker on it, logged, and the French rail network stops there; a second click takes it
/// off; "off" gives clicks back to the units.
#[test]
fn a_rail_cut_marker_is_put_on_a_cell_with_a_click_and_stops_the_rail_network() {
    let mut app = spi_on_example_board();
    super::common::place(&mut app, &[("fr-metz-5", "0304"), ("fr-forbach-8", "0705")]);
    let cell = |l: &str| kepi::hex::Hex::from_label(l, kepi::hex::Layout::OddQ).unwrap();
    let (cells, _) =
        kepi::app::map::rail_network(app.state(), kepi::roster::Side::French).expect("a network");
    assert!(cells.contains(&cell("0805")), "the line runs past 0705");
    let mut h = map_panel(app);
    h.run();
    h.get_by_role_and_label(egui::accesskit::Role::ComboBox, "markers")
        .click();
    h.run();
    h.get_by_label("rail cut").click();
    h.run();
    let at = h.get_by_label("French 8 (Forbach)").rect().center();
    let click = |h: &mut egui_kittest::Harness<'_, kepi::app::state::AppState>| {
        h.drag_at(at);
        h.run();
        h.drop_at(at);
        h.run();
    };
    click(&mut h);
    let marks = h.state().state().marks.clone();
    assert_eq!(marks.len(), 1, "{marks:?}");
    assert_eq!(
        (marks[0].kind.as_str(), marks[0].cell.to_string()),
        ("rail-cut", "0705".into())
    );
    assert_eq!(
        h.state().selected,
        None,
        "the click marked; it picked no unit"
    );
    let (cells, stops) =
        kepi::app::map::rail_network(h.state().state(), kepi::roster::Side::French)
            .expect("a network");
    assert!(!cells.contains(&cell("0805")), "past the cut");
    assert_eq!(stops, vec![cell("0705")]);
    // A second click takes it off; the log holds both.
    click(&mut h);
    assert!(h.state().state().marks.is_empty());
    let log = h.state().game.log().len();
    assert!(log >= 3, "{log}");
}

/// SPI-E2 (EB units Case F): "When a Prussian unit moves into ... a French Home Country rail
/// line, it \"cuts\" that rail line. Place a \"Rail Cut\" marker on that hex." Dragging a German
/// unit from 0704 onto the French line at 0705 says so on the map before the drop; the drop
/// makes the move and puts the marker, one log entry, and one undo takes both back.
#[test]
fn a_german_unit_dragged_onto_the_french_rail_line_cuts_it() {
    use kepi::game::{Action, EntryKind};
    let mut app = spi_on_example_board();
    super::common::place(&mut app, &[("de-2-5-1", "0704")]);
    assert!(app.state().marks.is_empty(), "0704 is off the rail line");
    let mut h = map_panel(app);
    h.run();
    let from = h.get_by_label("German 5 (area 2, #1)").rect().center();
    let to = super::common::drag_down(&mut h, from, 1.0);
    assert!(
        h.query_by_label_contains("this move: rail cut marked at 0705 (SPI-E2)")
            .is_some(),
        "the map says what the drop will do"
    );
    h.drop_at(to);
    h.run();
    let app = h.state_mut();
    let marks = app.state().marks.clone();
    assert_eq!(marks.len(), 1, "{marks:?}");
    assert_eq!(
        (marks[0].kind.as_str(), marks[0].cell.to_string()),
        ("rail-cut", "0705".into())
    );
    match app.game.log().last().map(|e| (&e.kind, &e.summary)) {
        Some((
            EntryKind::Act {
                action: Action::Move { to, effects, .. },
            },
            summary,
        )) => {
            assert_eq!(to.to_string(), "0705");
            assert_eq!(effects.len(), 1, "{effects:?}");
            assert!(summary.ends_with("; rail cut marked at 0705"), "{summary}");
        }
        other => panic!("a move last, got {other:?}"),
    }
    app.handle(Command::Undo);
    assert!(app.state().marks.is_empty(), "one undo takes both back");
    assert_eq!(
        app.state().unit("de-2-5-1").map(|u| u.position.to_string()),
        Some("0704".into())
    );
}

/// SPI-E2 (EB units): "each EB unit may move four hexes (regardless of terrain) along an Enemy
/// rail line, and, by doing so, extend the point from which a supply line may be traced."
/// Dragging the German EB unit from 1105 (Germany) along the Eastern line to 0705 says, in one
/// line on the map before the drop, which hexes of France it secures; the drop makes the move
/// and puts the three markers, one log entry, and one undo takes them all back.
#[test]
fn an_eb_unit_dragged_along_the_enemys_line_secures_it() {
    let mut app = spi_on_example_board();
    super::common::place(&mut app, &[("de-eb-1", "1105")]);
    let mut h = map_panel(app);
    h.run();
    let from = h.get_by_label("German EB unit 1").rect().center();
    // Four columns west along row 05 (odd columns alike): 1.5 hex sizes of 28 points each.
    let to = from + egui::vec2(-4.0 * 1.5 * 28.0, 0.0);
    h.drag_at(from);
    h.run();
    h.hover_at(from + egui::vec2(-20.0, 0.0));
    h.run();
    h.hover_at(to);
    h.run();
    assert!(
        h.query_by_label_contains(
            "this move: secured line marked at 0905; secured line marked at 0805; secured line \
             marked at 0705 (SPI-E2)"
        )
        .is_some(),
        "the map says what the drop will do, in one line"
    );
    h.drop_at(to);
    h.run();
    let app = h.state_mut();
    let marks: Vec<(String, String)> = app
        .state()
        .marks
        .iter()
        .map(|m| (m.kind.clone(), m.cell.to_string()))
        .collect();
    let secured = |c: &str| ("secured".to_string(), c.to_string());
    assert_eq!(marks, [secured("0705"), secured("0805"), secured("0905")]);
    app.handle(Command::Undo);
    assert!(app.state().marks.is_empty(), "one undo takes them all back");
}

/// Issue 45: the roster's chips are in the rule set's words. An entrained SPI unit shows "Ent",
/// its meaning with SPI's rule on hover (SPI-L1), as SPI declares it, not the window.
#[test]
fn an_entrained_spi_unit_shows_its_chip_in_spis_words() {
    use kepi::game::Action;
    let mut app = new_game("spi-1870", 3);
    app.handle(Command::Act(Action::SetFlag {
        unit: "fr-metz-5".into(),
        flag: "entrained".parse().unwrap(),
        on: true,
    }));
    let kind = app
        .state()
        .system
        .unit_markers()
        .iter()
        .find(|k| k.name == "entrained")
        .expect("SPI declares it");
    assert!(kind.what.contains("SPI-L1"), "{kind:?}");
    app.panels.roster.options.filter = "Metz".into();
    let mut h = super::common::roster_of(app);
    h.run();
    assert!(h.query_by_label("French 5 (Metz)").is_some());
    assert!(h.query_by_label("Ent").is_some(), "the chip on its row");
}

/// Issue 42: "Edit order of battle…" opens the game's cards with the markers the game started
/// with (a scenario's `[[mark]]`), so saving the order of battle keeps them; a marker put in
/// play since is not the scenario's.
#[test]
fn edit_order_of_battle_keeps_the_scenarios_starting_markers() {
    use kepi::game::Action;
    let tables = kepi::registry::builtin_tables().expect("tables");
    let mut s = kepi::registry::builtin_scenario("spi-1870").expect("scenario");
    s.map = Some(kepi::map::MapFile::named("example-hex").expect("the example board"));
    s.marks = vec![kepi::roster::ScenarioMark {
        kind: "rail-cut".into(),
        cell: "0805".parse().expect("cell"),
    }];
    let mut app = kepi::app::state::AppState::new_game(&s, 3, tables).expect("game");
    assert_eq!(app.state().marks.len(), 1, "on the board from the start");
    app.handle(Command::Act(Action::Mark {
        kind: "rail-cut".into(),
        cell: "0405".parse().expect("cell"),
        on: true,
    }));
    assert_eq!(app.state().marks.len(), 2);
    app.handle(Command::ShowBuilder(kepi::app::builder::Opening::Current));
    let oob = app.dialogs.builder.oob.as_ref().expect("opened");
    let saved = oob.to_scenario().expect("the cards read");
    assert_eq!(saved.marks, s.marks);
}

/// A new SPI game (seed 3) of the built-in scenario on kepi's example board.
fn spi_on_example_board() -> kepi::app::state::AppState {
    let tables = kepi::registry::builtin_tables().expect("tables");
    let mut s = kepi::registry::builtin_scenario("spi-1870").expect("scenario");
    s.map = Some(kepi::map::MapFile::named("example-hex").expect("the example board"));
    kepi::app::state::AppState::new_game(&s, 3, tables).expect("game")
}
