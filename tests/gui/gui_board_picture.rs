//! The picture of the printed board under the map (issue 41, docs/MAPS.md "The picture of the
//! board"): a map whose `[picture]` names a PNG beside it shows it (the legend row says its file
//! and size, with the "Picture" and "Terrain colours" checkboxes); a missing picture says which
//! file is not found; and "Align picture…" fits it from two cells clicked on the board, their
//! numbers typed, and saves the numbers to the map file.

#![cfg(feature = "gui")]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::common::{map_panel, tmp};
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use kepi::app::state::AppState;

/// The first cell's centre, a column and a row (a regular hex: 6 x 2/sqrt 3) in the picture.
const PICTURE: &str = "\n[picture]\nfile = \"board.png\"\norigin = [8.0, 8.0]\ncolumn = 6.0\nrow = 6.928203230275509\n";

/// kepi's PW example table with a `[picture]` in `dir` (and a 64 x 48 PNG beside it when `png`),
/// and the skirmish played on it.
fn skirmish_on_a_picture(dir: &Path, png: bool) -> (AppState, PathBuf) {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/example-pw.toml"))
            .unwrap()
            + PICTURE;
    let file = dir.join("board.toml");
    std::fs::write(&file, text).unwrap();
    if png {
        let img = image::RgbaImage::from_fn(64, 48, |x, y| {
            image::Rgba([(x * 4) as u8, (y * 5) as u8, 90, 255])
        });
        img.save(dir.join("board.png")).unwrap();
    }
    let tables = kepi::registry::builtin_tables().unwrap();
    let mut sc = kepi::registry::builtin_scenario("pw-skirmish").unwrap();
    sc.map = Some(kepi::map::MapFile::named(file.to_str().unwrap()).unwrap());
    (AppState::new_game(&sc, 3, tables).unwrap(), file)
}

/// Frames until a label containing `text` shows (the picture is decoded on a thread of its own).
fn until_shown(h: &mut Harness<'_, AppState>, text: &str) {
    let start = Instant::now();
    while h.query_by_label_contains(text).is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "`{text}` never showed"
        );
        std::thread::sleep(Duration::from_millis(10));
        h.step();
    }
    h.run();
}

#[test]
fn a_map_with_a_picture_shows_it_under_the_grid() {
    let dir = tmp("gui-picture", "shows");
    let (app, _) = skirmish_on_a_picture(&dir, true);
    let mut h = map_panel(app);
    h.run();
    until_shown(&mut h, "Picture: board.png 64x48");
    assert!(h.query_by_label("Picture").is_some(), "its checkbox");
    assert!(h.query_by_label("Terrain colours").is_some());
    assert!(h.query_by_label("Align picture…").is_some());
    // The legend's terrains are still there beside it.
    assert!(h.query_by_label("cover").is_some());
}

#[test]
fn a_missing_picture_says_which_file_and_why() {
    let dir = tmp("gui-picture", "missing");
    let (app, _) = skirmish_on_a_picture(&dir, false);
    let mut h = map_panel(app);
    h.run();
    until_shown(&mut h, "Picture: board.png: not found beside the map");
    // And one that does not read names it too.
    let dir2 = tmp("gui-picture", "junk");
    let (app, _) = skirmish_on_a_picture(&dir2, false);
    std::fs::write(dir2.join("board.png"), b"not a picture").unwrap();
    let mut h = map_panel(app);
    h.run();
    until_shown(&mut h, "is not a PNG or JPEG picture");
}

#[test]
fn aligning_from_two_cells_clicked_saves_the_numbers_to_the_map_file() {
    let dir = tmp("gui-picture", "align");
    let (app, file) = skirmish_on_a_picture(&dir, true);
    let mut h = map_panel(app);
    h.run();
    until_shown(&mut h, "Picture: board.png 64x48");
    // Where two cells' centres are: the counters of the units standing on them, drawn a little
    // below the centre (0.12 of the hex size, 28).
    let centre = |h: &Harness<'_, AppState>, unit: &str| {
        h.get_by_label(unit).rect().center() - egui::vec2(0.0, 28.0 * 0.12)
    };
    let a = centre(&h, "1st Prussian Infantry"); // 0201
    let b = centre(&h, "1er bataillon, 93e de ligne"); // 0503
    // The placement row sits right above the board: the align mode's row moves both alike.
    let row = |h: &Harness<'_, AppState>| h.get_by_label_contains("on the map").rect().min.y;
    let before = row(&h);
    h.get_by_label("Align picture…").click();
    h.run();
    let down = egui::vec2(0.0, row(&h) - before);
    let (a, b) = (a + down, b + down);
    assert!(h.query_by_label_contains("Click a cell's centre").is_some());
    for p in [a, b] {
        h.drag_at(p);
        h.run();
        h.drop_at(p);
        h.run();
    }
    // The first cell's number, typed again: the keystrokes land in its field.
    h.get_by_role_and_label(Role::TextInput, "First cell:")
        .focus();
    h.run();
    for _ in 0..4 {
        h.key_press(egui::Key::Backspace);
        h.run();
    }
    h.get_by_role_and_label(Role::TextInput, "First cell:")
        .type_text("0201");
    h.run();
    assert_eq!(
        h.get_by_role_and_label(Role::TextInput, "Second cell:")
            .value()
            .as_deref(),
        Some("0503"),
        "pre-filled with the cell under the click"
    );
    let fitted = [
        h.get_by_label_contains("Fitted: first cell at (").value(),
        h.get_by_label_contains("px, rotation").value(),
    ]
    .map(Option::unwrap_or_default)
    .join(", ");
    // Where the counters' centres put the clicks is only near the cells' centres (the exact
    // geometry is the unit tests' `each_cells_centre_on_the_picture_lands_on_its_centre_on_screen`):
    // the fit is near the picture's own numbers (8, 8), 6 px. The align row keeps its height as
    // cells are clicked, so the second click lands where the board was when it was aimed.
    let numbers: Vec<f64> = fitted
        .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .filter_map(|w| w.parse().ok())
        .collect();
    let [x, y, column, _row, rotation] = numbers[..] else {
        panic!("{fitted}");
    };
    assert!((x - 8.0).abs() < 1.0 && (y - 8.0).abs() < 1.0, "{fitted}");
    assert!((column - 6.0).abs() < 0.5, "{fitted}");
    assert!(rotation.abs() < 3.0, "{fitted}");
    h.get_by_label("Save to the map file").click();
    h.run();
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("aligned = \"two cells: 0201 at ("), "{text}");
    assert!(h.query_by_label_contains("Align picture").is_some());
    assert!(
        h.query_by_label_contains("Save to the map file").is_none(),
        "the align mode is closed"
    );
    // The map file still reads as the same map, with the new note.
    let map = kepi::map::Map::load(&file).unwrap();
    assert!(map.picture.unwrap().aligned.unwrap().contains("0503"));
}
