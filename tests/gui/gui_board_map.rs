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
