//! Board > Edit map (issue 41, "The map editor"): a map file opened in the editor, a cell painted
//! with a click, a run painted with one drag (one undo step), a river put on a hexside, undo and
//! redo (buttons and Ctrl+Z / Ctrl+Y), and "Save map" writing a file that reads back as the board
//! the editor shows; a bare letter typed in a field changes nothing but the field.

#![cfg(feature = "gui")]

use std::path::{Path, PathBuf};

use super::common::{LAPTOP, app, demo, tmp};
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use kepi::app::KepiApp;
use kepi::app::file_dialog::Purpose;
use kepi::app::state::Command;
use kepi::hex::{Direction, Hex, Hexside, Layout};
use kepi::map::{Feature, Map};

/// kepi's SPI example map copied to `dir`, opened in the editor of the whole window.
fn editor_on_example(dir: &Path) -> (Harness<'static, KepiApp>, PathBuf) {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/example-hex.toml"),
    )
    .unwrap();
    let file = dir.join("board.toml");
    std::fs::write(&file, text).unwrap();
    let mut h = demo(LAPTOP);
    h.run();
    app(&mut h).handle(Command::MapFile(Purpose::EditMap, file.clone()));
    h.run();
    (h, file)
}

fn map<'a>(h: &'a Harness<'_, KepiApp>) -> &'a Map {
    h.state().state.panels.map_edit.map().unwrap()
}

fn at(h: &Harness<'_, KepiApp>, label: &str, dir: Option<Direction>) -> egui::Pos2 {
    h.state()
        .state
        .panels
        .map_edit
        .screen_of(label, dir)
        .unwrap()
}

fn cell(label: &str) -> Hex {
    Hex::from_label(label, Layout::OddQ).unwrap()
}

fn click(h: &mut Harness<'_, KepiApp>, p: egui::Pos2) {
    h.drag_at(p);
    h.run();
    h.drop_at(p);
    h.run();
}

#[test]
fn paint_drag_river_undo_redo_save_and_reload() {
    let dir = tmp("gui-map-edit", "paint");
    let (mut h, file) = editor_on_example(&dir);
    let log_before = app(&mut h).game.log().len();
    assert!(h.query_by_label("Terrain brush").is_some());
    assert!(h.query_by_label("Close editor").is_some());
    // The legend shows each terrain with its effects from the rule set's table.
    h.get_by_label("rough").click();
    h.run();
    assert!(
        h.query_by_label_contains("rough: movement:").is_some(),
        "the chosen terrain's effects"
    );
    // A click paints one cell.
    assert_eq!(map(&h).terrain_of(cell("0101")), Some("clear"));
    let p = at(&h, "0101", None);
    click(&mut h, p);
    assert_eq!(map(&h).terrain_of(cell("0101")), Some("rough"));
    // One drag paints a run: 0106 to 0110, through the cells between (one undo step).
    let (from, to) = (at(&h, "0106", None), at(&h, "0110", None));
    h.drag_at(from);
    h.run();
    h.hover_at(from + (to - from) * 0.5);
    h.run();
    h.drop_at(to);
    h.run();
    for c in ["0106", "0107", "0108", "0109", "0110"] {
        assert_eq!(map(&h).terrain_of(cell(c)), Some("rough"), "{c}");
    }
    // A river on 0303's south-east side.
    h.get_by_label("Hexsides").click();
    h.run();
    let side = Hexside::new(cell("0303"), Direction::SE);
    let (a, b) = side.hexes();
    assert!(!map(&h).side_has(a, b, Feature::River));
    let p = at(&h, "0303", Some(Direction::SE));
    click(&mut h, p);
    assert!(
        map(&h).side_has(a, b, Feature::River),
        "{:?}",
        h.state().state.panels.map_edit.said()
    );
    // Undo (the button) takes the river off; Ctrl+Z the run; redo (Ctrl+Y) puts it back.
    h.get_by_label("Undo edit").click();
    h.run();
    assert!(!map(&h).side_has(a, b, Feature::River));
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(
        map(&h).terrain_of(cell("0108")),
        Some("clear"),
        "the whole drag undone"
    );
    assert_eq!(
        map(&h).terrain_of(cell("0101")),
        Some("rough"),
        "the click kept"
    );
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Y);
    h.run();
    assert_eq!(map(&h).terrain_of(cell("0108")), Some("rough"));
    h.get_by_label("Redo edit").click();
    h.run();
    assert!(map(&h).side_has(a, b, Feature::River));
    assert_eq!(
        app(&mut h).game.log().len(),
        log_before,
        "Ctrl+Z undid the map, not the game"
    );
    // Save, and the file reads back as the board in the editor.
    h.get_by_label("Save map").click();
    h.run();
    let back = Map::load(&file).unwrap();
    assert!(kepi::map::write::same_board(map(&h), &back));
    assert!(back.side_has(a, b, Feature::River));
    assert_eq!(back.terrain_of(cell("0110")), Some("rough"));
    assert!(!h.state().state.panels.map_edit.unsaved());
}

#[test]
fn a_bare_letter_in_a_field_lands_there_and_closing_asks_about_changes() {
    let dir = tmp("gui-map-edit", "keys");
    let (mut h, _) = editor_on_example(&dir);
    let log_before = app(&mut h).game.log().len();
    h.get_by_label("Places").click();
    h.run();
    let field = h.get_by_role_and_label(Role::TextInput, "Place name:");
    field.focus();
    h.run();
    h.get_by_role_and_label(Role::TextInput, "Place name:")
        .type_text("Neuville n z");
    h.run();
    assert_eq!(
        h.get_by_role_and_label(Role::TextInput, "Place name:")
            .value()
            .as_deref(),
        Some("Neuville n z")
    );
    assert_eq!(app(&mut h).game.log().len(), log_before, "no key played");
    let p = at(&h, "0404", None);
    click(&mut h, p);
    assert!(map(&h).place_named("Neuville n z").is_some());
    h.get_by_label("Close editor").click();
    h.run();
    assert!(
        h.query_by_label("Save the map before closing the editor?")
            .is_some()
    );
    h.get_by_label("Discard changes").click();
    h.run();
    assert!(!h.state().state.panels.map_edit.open);
    assert!(h.query_by_label("Terrain brush").is_none());
}

/// File > Import board from VASSAL… (issue 41): a module built here (an 800 x 600 picture, a
/// staggered hex grid), its boards listed in the dialog, "Import and edit" writes the map beside
/// the module and opens it in the editor with the picture drawn under the grid; a cell painted
/// over the picture lands on the board.
#[test]
fn a_vassal_module_imports_from_the_window_and_its_picture_is_under_the_editor_grid() {
    let dir = tmp("gui-map-edit", "vassal");
    let module = super::vmod::write_test_module(&dir);
    let mut h = demo(LAPTOP);
    h.run();
    app(&mut h).handle(Command::MapFile(Purpose::VassalModule, module));
    h.run();
    h.get_by_label("Import board from VASSAL");
    h.get_by_label_contains("Main — cells 0101-1006");
    h.get_by_label_contains("Side — not imported");
    // Its numbering fits two hex sets: the club picks, the button waits till then.
    h.get_by_label_contains("This board's numbering fits pw and spi: pick its rule set.");
    assert!(
        h.get_by_label("Import and edit")
            .accesskit_node()
            .is_disabled()
    );
    h.get_by_label("spi").click();
    h.run();
    assert!(h.query_by_label_contains("pick its rule set").is_none());
    h.get_by_label("Import and edit").click();
    h.run();
    assert!(
        h.query_by_label("Import and edit").is_none(),
        "the dialog closes once the map is written"
    );
    let written = h
        .state()
        .state
        .panels
        .map_edit
        .path()
        .unwrap()
        .to_path_buf();
    assert!(
        written.starts_with(dir.join("maps")),
        "{}",
        written.display()
    );
    assert!(written.exists());
    assert_eq!(map(&h).grid.label(cell("0101")), "0101");
    // The picture is decoded on a thread of its own: frames until it is drawn.
    let start = std::time::Instant::now();
    while !h.state().state.panels.map_edit.picture_drawn() {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(20),
            "the picture was never drawn"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
        h.step();
    }
    h.run();
    h.get_by_label_contains("Picture: map.png 800x600");
    // The editor's row has the picture's checkboxes.
    h.get_by_label("Picture");
    h.get_by_label("Terrain colours");
    // Painting over the picture: every cell is clear until painted; rough on 0303.
    assert_eq!(map(&h).terrain_of(cell("0303")), Some("clear"));
    h.get_by_label("rough").click();
    h.run();
    let p = at(&h, "0303", None);
    click(&mut h, p);
    assert_eq!(map(&h).terrain_of(cell("0303")), Some("rough"));
    assert!(h.state().state.panels.map_edit.picture_drawn());
}
