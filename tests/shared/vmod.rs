//! VASSAL modules built for the tests (issue 41, `kepi map import-vassal`): a zip holding a
//! `buildFile.xml` and a generated PNG, written into a scratch folder.

use std::io::{Cursor, Write};
use std::path::{Path, PathBuf};

/// A black PNG of `w` x `h` pixels.
pub fn png(w: u32, h: u32) -> Vec<u8> {
    let img = image::RgbImage::new(w, h);
    let mut out = Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

/// A zip of these entries, deflated.
pub fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in entries {
        w.start_file(*name, opts).unwrap();
        w.write_all(bytes).unwrap();
    }
    w.finish().unwrap().into_inner()
}

/// A build file of module "Test War" 1.2 with one map ("Main Map") holding these boards.
pub fn build_file(boards: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<VASSAL.build.GameModule VassalVersion="3.7.0" name="Test War" version="1.2">
<VASSAL.build.module.Map mapName="Main Map"><VASSAL.build.module.map.BoardPicker>{boards}</VASSAL.build.module.map.BoardPicker></VASSAL.build.module.Map>
</VASSAL.build.GameModule>"#
    )
}

/// A board with a hex grid (`grid`: its attributes) and a numbering (`numbering`: its).
pub fn hex_board(name: &str, image: &str, grid: &str, numbering: &str) -> String {
    format!(
        r#"<VASSAL.build.module.map.boardPicker.Board image="{image}" name="{name}" reversible="false"><VASSAL.build.module.map.boardPicker.board.HexGrid color="0,0,0" snapTo="true" visible="false" {grid}><VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering first="H" hLeading="1" hType="N" sep="" vLeading="1" vType="N" {numbering}/></VASSAL.build.module.map.boardPicker.board.HexGrid></VASSAL.build.module.map.boardPicker.Board>"#
    )
}

/// The module of the tests: board "Main" (800 x 600 picture `map.png`, cells 84 x 96 px from
/// 40,50, numbered 0101 on, staggered: SPI's odd-q, 0101-1006) and a sideways board "Side".
pub fn test_module() -> Vec<u8> {
    let xml = build_file(&format!(
        "{}{}",
        hex_board(
            "Main",
            "map.png",
            r#"dx="84.0" dy="96.0" x0="40" y0="50""#,
            r#"hOff="1" vOff="1""#
        ),
        hex_board("Side", "side.png", r#"sideways="true""#, "")
    ));
    zip_of(&[
        ("buildFile.xml", xml.as_bytes()),
        ("images/map.png", &png(800, 600)),
        ("images/side.png", &png(200, 200)),
    ])
}

/// Writes the test module as `DIR/test.vmod`; returns its path.
pub fn write_test_module(dir: &Path) -> PathBuf {
    let p = dir.join("test.vmod");
    std::fs::write(&p, test_module()).unwrap();
    p
}
