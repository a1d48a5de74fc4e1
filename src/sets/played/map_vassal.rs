//! Moved from `src/game/map/vassal.rs` (its unit tests need a rule set of kepi's).

mod tests {
    use kepi_game::hex::{Layout, Offset};

    use kepi_game::map::vassal::*;
    use kepi_game::rules::RuleSetId;

    fn grid(dx: f64, dy: f64, x0: i64, y0: i64, stagger: bool, h_off: i64) -> Board {
        Board {
            map: None,
            name: "Main".into(),
            image: None,
            size: (500, 500),
            grid: BoardGrid::Hex {
                grid: HexGridSpec {
                    dx,
                    dy,
                    x0,
                    y0,
                    sideways: false,
                    numbering: Some(Numbering {
                        class: HEX_NUMBERING.into(),
                        first: 'H',
                        sep: String::new(),
                        h_type: 'N',
                        v_type: 'N',
                        h_leading: 1,
                        v_leading: 1,
                        h_off,
                        v_off: 1,
                        h_descend: false,
                        v_descend: false,
                        stagger,
                    }),
                },
                zoned: false,
                other_zones: Vec::new(),
            },
        }
    }

    #[test]
    fn layouts_follow_stagger_and_offset() {
        // Not staggered, hOff 1: raw column 1 (label 02) is lower: even-q.
        let p = plan(&grid(84.0, 96.0, 0, 0, false, 1), 800, 600).unwrap();
        assert_eq!(p.layout, Layout::EvenQ);
        // Staggered, hOff 1: raw column 0 (label 01) is lower: odd-q.
        let p = plan(&grid(84.0, 96.0, 0, 0, true, 1), 800, 600).unwrap();
        assert_eq!(p.layout, Layout::OddQ);
        let p = plan(&grid(84.0, 96.0, 0, 0, true, 0), 800, 600).unwrap();
        assert_eq!(p.layout, Layout::EvenQ);
    }

    #[test]
    fn cells_on_the_picture_make_the_grid() {
        // Centres at x 40, 124, ... 796 (10 columns, < 800); staggered, hOff 1, vOff 1.
        let p = plan(&grid(84.0, 96.0, 40, 50, true, 1), 800, 600).unwrap();
        assert_eq!((p.first.col, p.last.col), (1, 10));
        // Even raw columns: rows at 50..530 (6 rows: ny 0..5 -> rows 1..6). Odd raw: y = 98 +
        // 96 ny - ... ny -1 at 2 -> row 1, up to ny 5 at 578 -> row 7: the rectangle is rows
        // 1-6 and the odd columns' row 7 is left off.
        assert_eq!((p.first.row, p.last.row), (1, 6));
        assert_eq!(p.left_off, 5);
        assert_eq!(p.alignment.origin, [40.0, 50.0]);
    }

    #[test]
    fn plain_names() {
        assert_eq!(plain_file_name("../../x.png", "b"), "x.png");
        assert_eq!(plain_file_name("..\\..\\evil.jpg", "b"), "evil.jpg");
        assert_eq!(plain_file_name("..", "b"), "b");
        assert_eq!(plain_file_name(".hidden", "b"), "hidden");
        assert_eq!(plain_file_name("Main Map (1)", "b"), "Main_Map_1_");
        assert_eq!(plain_file_name("con.png", "b"), "_con.png");
        assert_eq!(plain_file_name("", "b"), "b");
    }

    #[test]
    fn vassal_names_follow_its_format() {
        let Board {
            grid: BoardGrid::Hex { grid, .. },
            ..
        } = grid(84.0, 96.0, 0, 0, true, 1)
        else {
            unreachable!()
        };
        let n = grid.numbering.unwrap();
        assert_eq!(vassal_name(&n, 1, 1), "0101");
        let n2 = Numbering {
            sep: ".".into(),
            h_leading: 0,
            v_leading: 0,
            ..n.clone()
        };
        assert_eq!(vassal_name(&n2, 12, 3), "12.3");
    }

    #[test]
    fn headers() {
        let encoded = |format: image::ImageFormat| {
            let img = image::RgbImage::from_pixel(300, 200, image::Rgb([200, 180, 140]));
            let mut out = std::io::Cursor::new(Vec::new());
            img.write_to(&mut out, format).unwrap();
            out.into_inner()
        };
        let png = encoded(image::ImageFormat::Png);
        assert_eq!(
            picture_header(&png).unwrap(),
            Picture {
                format: "png",
                width: 300,
                height: 200
            }
        );
        let jpg = encoded(image::ImageFormat::Jpeg);
        assert_eq!(
            picture_header(&jpg).unwrap(),
            Picture {
                format: "jpeg",
                width: 300,
                height: 200
            }
        );
        // The header alone is enough (what `image_header` reads is the entry's first mebibyte): a
        // PNG cut a few bytes into its pixels.
        let idat = png.windows(4).position(|w| w == b"IDAT").unwrap();
        assert_eq!(picture_header(&png[..idat + 8]).unwrap().width, 300);
        assert!(picture_header(b"GIF89a....").unwrap_err().contains("GIF"));
        assert!(picture_header(b"<svg></svg>").unwrap_err().contains("SVG"));
        assert!(
            picture_header(b"\x89PNG\r\n\x1a\n\0\0")
                .unwrap_err()
                .contains("cannot read the size")
        );
    }

    // ---- modules built in memory -------------------------------------------------------------

    use std::io::{Cursor, Write};

    use kepi_game::map::Map;

    /// A black PNG of `w` x `h` pixels.
    fn png(w: u32, h: u32) -> Vec<u8> {
        let img = image::RgbImage::new(w, h);
        let mut out = Cursor::new(Vec::new());
        img.write_to(&mut out, image::ImageFormat::Png).unwrap();
        out.into_inner()
    }

    /// A zip of these entries, deflated.
    fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        for (name, bytes) in entries {
            w.start_file(*name, opts).unwrap();
            w.write_all(bytes).unwrap();
        }
        w.finish().unwrap().into_inner()
    }

    /// A build file with one map holding these boards' XML.
    fn build_file(boards: &str) -> String {
        format!(
            r#"<?xml version="1.0" encoding="UTF-8" standalone="no"?>
    <VASSAL.build.GameModule ModuleOther1="" VassalVersion="3.7.0" name="Test War" version="1.2">
    <VASSAL.build.module.Map mapName="Main Map"><VASSAL.build.module.map.BoardPicker>{boards}</VASSAL.build.module.map.BoardPicker></VASSAL.build.module.Map>
    </VASSAL.build.GameModule>"#
        )
    }

    /// A board with a hex grid and a numbering (attributes as VASSAL writes them).
    fn hex_board(name: &str, image: &str, grid: &str, numbering: &str) -> String {
        format!(
            r#"<VASSAL.build.module.map.boardPicker.Board image="{image}" name="{name}" reversible="false"><VASSAL.build.module.map.boardPicker.board.HexGrid color="0,0,0" cornersLegal="false" dotsVisible="false" edgesLegal="false" snapTo="true" visible="false" {grid}><VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering color="0,0,0" first="H" fontSize="9" hDrawOff="0" hLeading="1" locationFormat="$gridLocation$" rotateText="0" sep="" vDrawOff="0" vLeading="1" visible="false" {numbering}/></VASSAL.build.module.map.boardPicker.board.HexGrid></VASSAL.build.module.map.boardPicker.Board>"#
        )
    }

    fn spi() -> RuleSetId {
        "spi".parse().unwrap()
    }

    fn open(bytes: Vec<u8>) -> Result<Archive<Cursor<Vec<u8>>>, VassalError> {
        Archive::open("test.vmod", Cursor::new(bytes), Limits::DEFAULT)
    }

    /// Imports `board` from a module of `xml` and the given pictures.
    fn import_from(
        xml: &str,
        pictures: &[(&str, &[u8])],
        board: &str,
        rules: impl Into<Option<RuleSetId>>,
    ) -> Result<Imported, VassalError> {
        let mut entries: Vec<(&str, &[u8])> = vec![("buildFile.xml", xml.as_bytes())];
        entries.extend_from_slice(pictures);
        let mut a = open(zip_of(&entries))?;
        let m = a.module()?;
        let b = m.board(board, None)?.clone();
        import(&mut a, &m, &b, rules.into())
    }

    /// The `[picture]` numbers as written: origin, column, row, rotation, file.
    fn picture_numbers(text: &str) -> (f64, f64, f64, f64, f64, String) {
        let v: toml::Table = text.parse().unwrap();
        let p = v["picture"].as_table().unwrap();
        let o = p["origin"].as_array().unwrap();
        (
            o[0].as_float().unwrap(),
            o[1].as_float().unwrap(),
            p["column"].as_float().unwrap(),
            p["row"].as_float().unwrap(),
            p["rotation"].as_float().unwrap(),
            p["file"].as_str().unwrap().to_string(),
        )
    }

    /// VASSAL's centre of the cell it names (col, row), as its `HexGridNumbering.getCenterPoint`
    /// computes it from the numbers (Java's int casts), independent of the import's own code.
    fn vassal_location(g: &HexGridSpec, col: i64, row: i64) -> (i64, i64) {
        let n = g.numbering.as_ref().unwrap();
        let c = col - n.h_off;
        let mut r = row - n.v_off;
        if n.stagger && c % 2 != 0 {
            r -= 1;
        }
        let x = (c as f64 * g.dx) as i64 + g.x0;
        let y = if c % 2 == 0 {
            (r as f64 * g.dy) as i64
        } else {
            (r as f64 * g.dy + g.dy / 2.0) as i64
        } + g.y0;
        (x, y)
    }

    /// The spec's centre of kepi's cell (col, row): docs/MAPS.md, `[picture]`.
    fn spec_centre(text: &str, layout: Layout, first: Offset, col: i64, row: i64) -> (f64, f64) {
        let (ox, oy, column, row_px, _, _) = picture_numbers(text);
        let lower = |c: i64| match layout {
            Layout::OddQ => c.rem_euclid(2) == 1,
            Layout::EvenQ => c.rem_euclid(2) == 0,
        };
        let half = (f64::from(u8::from(lower(col)))
            - f64::from(u8::from(lower(i64::from(first.col)))))
            * row_px
            / 2.0;
        (
            ox + (col - i64::from(first.col)) as f64 * column,
            oy + (row - i64::from(first.row)) as f64 * row_px + half,
        )
    }

    fn grid_of(xml: &str) -> HexGridSpec {
        let m = parse_build_file("t", "buildFile.xml", xml, &Limits::DEFAULT).unwrap();
        match &m.boards[0].grid {
            BoardGrid::Hex { grid, .. } => grid.clone(),
            BoardGrid::Unsupported(w) => panic!("{w}"),
        }
    }

    #[test]
    fn a_plain_hex_board_imports_with_vassals_centres() {
        let xml = build_file(&hex_board(
            "Main",
            "map.png",
            r#"dx="84.0" dy="96.0" x0="40" y0="50" sideways="false""#,
            r#"hOff="1" vOff="1" stagger="true""#,
        ));
        let pic = png(800, 600);
        let imp = import_from(&xml, &[("images/map.png", &pic)], "Main", spi()).unwrap();
        assert_eq!(imp.map_file, "Main.toml");
        assert_eq!(imp.picture.as_ref().unwrap().0, "map.png");
        assert_eq!(imp.picture.as_ref().unwrap().1, pic);
        let p = &imp.plan;
        assert_eq!(
            (p.layout, p.first, p.last),
            (
                Layout::OddQ,
                Offset { col: 1, row: 1 },
                Offset { col: 10, row: 6 }
            )
        );
        // The map reads whole, its [picture] table as the checker reads it.
        let map = Map::from_source("Main.toml", &imp.map_text).unwrap();
        let pic = map.picture.as_ref().unwrap();
        assert_eq!(pic.file, "map.png");
        assert_eq!(pic.alignment.origin, [40.0, 50.0]);
        assert_eq!(map.grid.len(), 60);
        assert_eq!(map.provenance.source, kepi_game::map::Source::Vassal);
        assert!(
            map.provenance.from.contains("Test War 1.2"),
            "{}",
            map.provenance.from
        );
        let (_, _, column, row, rotation, file) = picture_numbers(&imp.map_text);
        assert_eq!(
            (column, row, rotation, file.as_str()),
            (84.0, 96.0, 0.0, "map.png")
        );
        // Every cell's centre where VASSAL puts the cell of that name.
        let g = grid_of(&xml);
        for col in 1..=10 {
            for row in 1..=6 {
                let v = vassal_location(&g, col, row);
                let s = spec_centre(&imp.map_text, p.layout, p.first, col, row);
                assert!(
                    (v.0 as f64 - s.0).abs() < 1e-9 && (v.1 as f64 - s.1).abs() < 1e-9,
                    "{col:02}{row:02}: VASSAL {v:?}, the map {s:?}"
                );
            }
        }
        // 0101 at (40, 50); 0201 half a cell higher (odd-q: 01 is the lower column).
        assert_eq!(vassal_location(&g, 2, 1), (124, 2));
    }

    #[test]
    fn a_fractional_unstaggered_grid_is_even_q_within_two_pixels() {
        // VASSAL's default geometry (dx = dy * sqrt(3) / 2 when dx is left out), not staggered.
        let xml = build_file(&hex_board(
            "Sheet",
            "sheet.png",
            r#"dy="64.5" x0="30" y0="33""#,
            r#"hOff="3" vOff="2" stagger="false""#,
        ));
        let pic = png(640, 480);
        let refused = import_from(&xml, &[("images/sheet.png", &pic)], "Sheet", spi()).unwrap_err();
        assert!(
            refused.message.contains("numbers its board odd-q")
                && refused.message.contains("--rules fr1870"),
            "{refused}"
        );
        let fr: RuleSetId = "fr1870".parse().unwrap();
        let imp = import_from(&xml, &[("images/sheet.png", &pic)], "Sheet", fr).unwrap();
        // Without a rule set: the one numbered even-q is taken.
        let chosen = import_from(&xml, &[("images/sheet.png", &pic)], "Sheet", None).unwrap();
        assert_eq!(chosen.rules, fr);
        let p = &imp.plan;
        assert_eq!(p.layout, Layout::EvenQ);
        assert_eq!(p.first, Offset { col: 3, row: 2 });
        Map::from_source("Sheet.toml", &imp.map_text).unwrap();
        let g = grid_of(&xml);
        assert!((g.dx - 64.5 * 3f64.sqrt() / 2.0).abs() < 1e-12);
        for col in i64::from(p.first.col)..=i64::from(p.last.col) {
            for row in i64::from(p.first.row)..=i64::from(p.last.row) {
                let v = vassal_location(&g, col, row);
                let s = spec_centre(&imp.map_text, p.layout, p.first, col, row);
                assert!(
                    (v.0 as f64 - s.0).abs() < 2.0 && (v.1 as f64 - s.1).abs() < 2.0,
                    "{col:02}{row:02}: VASSAL {v:?}, the map {s:?}"
                );
            }
        }
    }

    #[test]
    fn a_zoned_grids_background_hex_grid_imports_and_names_the_zones_left() {
        let board = r#"<VASSAL.build.module.map.boardPicker.Board image="z.png" name="Zoned"><VASSAL.build.module.map.boardPicker.board.ZonedGrid><VASSAL.build.module.map.boardPicker.board.mapgrid.Zone name="Turn track" path="0,0;100,0;100,20;0,20" useParentGrid="false"><VASSAL.build.module.map.boardPicker.board.SquareGrid dx="20" dy="20"/></VASSAL.build.module.map.boardPicker.board.mapgrid.Zone><VASSAL.build.module.map.boardPicker.board.HexGrid dx="50.0" dy="58.0" x0="25" y0="29"><VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering hOff="1" vOff="1"/></VASSAL.build.module.map.boardPicker.board.HexGrid></VASSAL.build.module.map.boardPicker.board.ZonedGrid></VASSAL.build.module.map.boardPicker.Board>"#;
        let xml = build_file(board);
        let imp = import_from(&xml, &[("images/z.png", &png(500, 400))], "Zoned", spi()).unwrap();
        assert!(
            imp.plan
                .notes
                .iter()
                .any(|n| n.contains("Turn track (SquareGrid)")),
            "{:?}",
            imp.plan.notes
        );
        Map::from_source("Zoned.toml", &imp.map_text).unwrap();
        // A hex grid inside a zone is not the plain case.
        let in_zone = board.replace(
            r#"<VASSAL.build.module.map.boardPicker.board.SquareGrid dx="20" dy="20"/>"#,
            r#"<VASSAL.build.module.map.boardPicker.board.HexGrid dx="20" dy="20"/>"#,
        );
        let e = import_from(
            &build_file(&in_zone),
            &[("images/z.png", &png(500, 400))],
            "Zoned",
            spi(),
        )
        .unwrap_err();
        assert!(e.message.contains("in zones (Turn track)"), "{e}");
    }

    #[test]
    fn refusals_name_the_file_and_what_is_wrong() {
        // Not a zip.
        let e = open(b"just some text, not a zip at all".to_vec()).unwrap_err();
        assert_eq!(e.file, "test.vmod");
        assert!(e.message.contains("not a zip"), "{e}");
        // A zip without a build file.
        let mut a = open(zip_of(&[("images/x.png", &png(10, 10))])).unwrap();
        let e = a.module().unwrap_err();
        assert!(e.message.contains("no buildFile.xml"), "{e}");
        // An older module's `buildFile` is read.
        let xml = build_file(&hex_board("A", "a.png", "", ""));
        let mut a = open(zip_of(&[("buildFile", xml.as_bytes())])).unwrap();
        assert_eq!(a.module().unwrap().boards[0].name, "A");
        // No such board: the boards there are named.
        let two = build_file(&format!(
            "{}{}",
            hex_board("North", "n.png", "", ""),
            hex_board("South", "s.png", "", "")
        ));
        let e = import_from(&two, &[], "East", spi()).unwrap_err();
        assert!(
            e.message.contains("no board named `East`")
                && e.message.contains("`Main Map / North`, `Main Map / South`"),
            "{e}"
        );
        // Sideways (pointy-topped) grids.
        let side = build_file(&hex_board("S", "s.png", r#"sideways="true""#, ""));
        let e = import_from(&side, &[("images/s.png", &png(300, 300))], "S", spi()).unwrap_err();
        assert!(
            e.message.contains("sideways") && e.message.contains("flat-topped"),
            "{e}"
        );
        // Alphabetic and descending numbering.
        let alpha = build_file(&hex_board("S", "s.png", "", r#"hType="A""#));
        let e = import_from(&alpha, &[("images/s.png", &png(300, 300))], "S", spi()).unwrap_err();
        assert!(e.message.contains("numbers columns with letters"), "{e}");
        let down = build_file(&hex_board("S", "s.png", "", r#"vDescend="true""#));
        let e = import_from(&down, &[("images/s.png", &png(300, 300))], "S", spi()).unwrap_err();
        assert!(e.message.contains("numbers rows descending"), "{e}");
        // More than 100 columns.
        let many = build_file(&hex_board(
            "S",
            "s.png",
            r#"dx="6.0" dy="8.0" x0="3" y0="4""#,
            "",
        ));
        let e = import_from(&many, &[("images/s.png", &png(700, 100))], "S", spi()).unwrap_err();
        assert!(
            e.message.contains("holds 117 columns") && e.message.contains("at most 100"),
            "{e}"
        );
        // A GIF picture.
        let e = import_from(
            &build_file(&hex_board("S", "s.gif", "", "")),
            &[("images/s.gif", b"GIF89a\x10\x00\x10\x00")],
            "S",
            spi(),
        )
        .unwrap_err();
        assert!(e.message.contains("is a GIF"), "{e}");
        // A picture the module does not hold.
        let e = import_from(
            &build_file(&hex_board("S", "gone.png", "", "")),
            &[],
            "S",
            spi(),
        )
        .unwrap_err();
        assert!(e.message.contains("no entry `images/gone.png`"), "{e}");
        // Not XML, and a DTD (entities are never expanded).
        let mut a = open(zip_of(&[("buildFile.xml", b"<a><b></a>")])).unwrap();
        assert!(a.module().unwrap_err().message.contains("not XML"));
        let dtd = "<?xml version=\"1.0\"?><!DOCTYPE a [<!ENTITY x \"xxxxxxxx\">]><a>&x;</a>";
        let mut a = open(zip_of(&[("buildFile.xml", dtd.as_bytes())])).unwrap();
        assert!(a.module().unwrap_err().message.contains("not XML"));
    }

    #[test]
    fn zip_bombs_and_caps_are_refused_while_reading() {
        // 20 MB of spaces deflate to a few kilobytes: refused for its ratio long before the cap.
        let bomb = vec![b' '; 20 * 1024 * 1024];
        let mut a = open(zip_of(&[("buildFile.xml", &bomb)])).unwrap();
        let e = a.module().unwrap_err();
        assert!(
            e.message
                .contains("`buildFile.xml` inflates to more than 100 times"),
            "{e}"
        );
        // With the ratio allowed, the size cap stops it (counted, not taken from the header).
        let limits = Limits {
            ratio: u64::MAX,
            build_file_bytes: 2 * 1024 * 1024,
            ..Limits::DEFAULT
        };
        let mut a = Archive::open(
            "test.vmod",
            Cursor::new(zip_of(&[("buildFile.xml", &bomb)])),
            limits,
        )
        .unwrap();
        let e = a.module().unwrap_err();
        assert!(e.message.contains("inflates past 2097152 bytes"), "{e}");
        // Too many entries, counted from the zip's directory record.
        let names: Vec<String> = (0..20).map(|i| format!("images/{i}.png")).collect();
        let entries: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), &b"x"[..])).collect();
        let limits = Limits {
            entries: 10,
            ..Limits::DEFAULT
        };
        let e = Archive::open("test.vmod", Cursor::new(zip_of(&entries)), limits).unwrap_err();
        assert!(e.message.contains("claims 20 entries"), "{e}");
        // A directory claimed larger than kepi reads (the end record's size field), refused unopened.
        let mut big = zip_of(&entries);
        let n = big.len();
        big[n - 10..n - 6].copy_from_slice(&0x7fff_ffffu32.to_le_bytes());
        let e = open(big).unwrap_err();
        assert!(
            e.message
                .contains("zip directory is larger than kepi reads"),
            "{e}"
        );
        // A module larger than the cap.
        let limits = Limits {
            module_bytes: 100,
            ..Limits::DEFAULT
        };
        let e = Archive::open("test.vmod", Cursor::new(zip_of(&entries)), limits).unwrap_err();
        assert!(
            e.message.contains("more than kepi reads (100 bytes)"),
            "{e}"
        );
        // Deep XML.
        let deep = format!("{}{}", "<a>".repeat(300), "</a>".repeat(300));
        let mut a = open(zip_of(&[("buildFile.xml", deep.as_bytes())])).unwrap();
        assert!(
            a.module()
                .unwrap_err()
                .message
                .contains("more than 256 deep")
        );
    }

    #[test]
    fn a_climbing_image_name_is_written_as_a_plain_name_inside_the_folder() {
        let xml = build_file(&hex_board("../../Evil Board", "../../x.png", "", ""));
        let pic = png(300, 300);
        let imp = import_from(
            &xml,
            &[("images/../../x.png", &pic)],
            "../../Evil Board",
            spi(),
        )
        .unwrap();
        assert_eq!(imp.picture.as_ref().unwrap().0, "x.png");
        assert_eq!(imp.map_file, "Evil_Board.toml");
        let root = std::env::temp_dir().join(format!("kepi-vassal-climb-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let out = root.join("a").join("b");
        let written = write_imported(&imp, &out, false).unwrap();
        assert_eq!(
            written,
            vec![out.join("x.png"), out.join("Evil_Board.toml")]
        );
        let mut all: Vec<String> = walk(&root);
        all.sort();
        assert_eq!(all, vec!["a/b/Evil_Board.toml", "a/b/x.png"]);
        // Again: refused without force, nothing changed; with force, replaced.
        std::fs::write(out.join("x.png"), b"mine").unwrap();
        let e = write_imported(&imp, &out, false).unwrap_err();
        assert!(
            matches!(&e, WriteError::Refused(m) if m.contains("already there: give --force")),
            "{e}"
        );
        assert_eq!(std::fs::read(out.join("x.png")).unwrap(), b"mine");
        write_imported(&imp, &out, true).unwrap();
        assert_eq!(std::fs::read(out.join("x.png")).unwrap(), pic);
        // A link in the map file's place is refused even with force, and not followed.
        std::fs::remove_file(out.join("Evil_Board.toml")).unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(root.join("target.toml"), out.join("Evil_Board.toml"))
                .unwrap();
            let e = write_imported(&imp, &out, true).unwrap_err();
            assert!(
                matches!(&e, WriteError::Refused(m) if m.contains("symbolic link")),
                "{e}"
            );
            assert!(!root.join("target.toml").exists());
        }
        // --out a file.
        let e = write_imported(&imp, &out.join("x.png"), false).unwrap_err();
        assert!(
            matches!(&e, WriteError::Refused(m) if m.contains("is not a folder")),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&root);
    }

    /// Every file under `root`, as paths relative to it.
    fn walk(root: &std::path::Path) -> Vec<String> {
        let mut out = Vec::new();
        let mut stack = vec![root.to_path_buf()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else {
                    out.push(p.strip_prefix(root).unwrap().display().to_string());
                }
            }
        }
        out
    }

    #[test]
    fn list_names_every_board_with_its_grid() {
        let xml = build_file(&format!(
            "{}{}",
            hex_board(
                "North",
                "n.png",
                r#"dx="84.0" dy="96.0" x0="40" y0="50""#,
                ""
            ),
            hex_board("Side", "s.png", r#"sideways="true""#, "")
        ));
        let mut a = open(zip_of(&[
            ("buildFile.xml", xml.as_bytes()),
            ("images/n.png", &png(800, 600)),
            ("images/s.png", &png(100, 100)),
        ]))
        .unwrap();
        let m = a.module().unwrap();
        assert_eq!(m.title(), "Test War 1.2");
        let l = list(&mut a, &m);
        assert_eq!(l.len(), 2);
        assert_eq!(l[0].title, "Main Map / North");
        let p = l[0].grid.as_ref().unwrap();
        assert_eq!(
            (p.first, p.last),
            (Offset { col: 1, row: 1 }, Offset { col: 10, row: 6 })
        );
        assert!(l[1].grid.as_ref().unwrap_err().contains("sideways"));
    }

    #[test]
    fn an_imported_board_writes_back_as_the_same_board() {
        let xml = build_file(&hex_board(
            "Main",
            "map.png",
            r#"dx="84.0" dy="96.0" x0="40" y0="50" sideways="false""#,
            r#"hOff="1" vOff="1" stagger="true""#,
        ));
        let pic = png(800, 600);
        let imp = import_from(&xml, &[("images/map.png", &pic)], "Main", spi()).unwrap();
        let map = Map::from_source("Main.toml", &imp.map_text).unwrap();
        let text = kepi_game::map::write::to_toml(&map);
        let back = Map::from_source("Main.toml", &text).unwrap();
        assert!(kepi_game::map::write::same_board(&map, &back), "{text}");
        assert!(text.contains("[picture]") && text.contains("source = \"vassal\""));
    }
}
