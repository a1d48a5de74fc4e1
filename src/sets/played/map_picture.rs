//! Moved from `src/game/map/picture.rs` (its unit tests need a rule set of kepi's).

mod tests {
    use kepi_game::hex::Offset;
    use kepi_game::hex::{Hex, Layout};
    use kepi_game::map::Grid;
    use kepi_game::map::picture::*;

    use std::path::PathBuf;

    fn grid(layout: Layout, first: (i32, i32), last: (i32, i32)) -> Grid {
        Grid {
            layout,
            first: Offset {
                col: first.0,
                row: first.1,
            },
            last: Offset {
                col: last.0,
                row: last.1,
            },
        }
    }

    fn cell(g: &Grid, l: &str) -> Hex {
        Hex::from_label(l, g.layout).unwrap()
    }

    fn close(a: [f64; 2], b: [f64; 2], tol: f64) -> bool {
        (a[0] - b[0]).hypot(a[1] - b[1]) < tol
    }

    #[test]
    fn the_first_cell_is_the_origin_and_columns_and_rows_step_as_the_spec_says() {
        let g = grid(Layout::OddQ, (1, 1), (12, 10));
        let a = Alignment {
            origin: [412.0, 96.5],
            column: 84.0,
            row: 97.0,
            rotation: 0.0,
        };
        assert_eq!(a.centre(&g, cell(&g, "0101")), [412.0, 96.5]);
        // 0102: one row down.
        assert_eq!(a.centre(&g, cell(&g, "0102")), [412.0, 193.5]);
        // 0201: column 02 sits half a row higher than the odd first column (odd-q).
        assert_eq!(a.centre(&g, cell(&g, "0201")), [496.0, 48.0]);
        assert_eq!(a.centre(&g, cell(&g, "0301")), [580.0, 96.5]);
        // Even-q, first column 01: even columns lower.
        let e = grid(Layout::EvenQ, (1, 1), (12, 10));
        assert_eq!(a.centre(&e, cell(&e, "0201")), [496.0, 145.0]);
        // A first column that sits lower itself: 02 in even-q, the next column higher.
        let e2 = grid(Layout::EvenQ, (2, 1), (12, 10));
        assert_eq!(a.centre(&e2, cell(&e2, "0301")), [496.0, 48.0]);
    }

    #[test]
    fn centre_and_cell_at_round_trip_odd_and_even_q_turned_or_not() {
        for layout in [Layout::OddQ, Layout::EvenQ] {
            for first in [(1, 1), (2, 3), (0, 0)] {
                let g = grid(layout, first, (first.0 + 13, first.1 + 9));
                for (rotation, row) in [(0.0, 97.0), (12.5, 84.0 * REGULAR_RATIO), (-90.0, 60.0)] {
                    let a = Alignment {
                        origin: [300.0, -40.0],
                        column: 84.0,
                        row,
                        rotation,
                    };
                    for h in g.cells() {
                        let c = a.centre(&g, h);
                        assert_eq!(a.cell_at(&g, c), Some(h), "{layout:?} {first:?} {rotation}");
                        // A little off the centre is still the cell.
                        let near = [c[0] + 15.0, c[1] - 12.0];
                        assert_eq!(a.cell_at(&g, near), Some(h));
                    }
                    // Far outside the map: no cell.
                    assert_eq!(a.cell_at(&g, [-1e5, -1e5]), None);
                    assert_eq!(a.cell_at(&g, [f64::NAN, 0.0]), None);
                }
            }
        }
    }

    #[test]
    fn a_fit_from_two_cells_finds_the_alignment_back() {
        for layout in [Layout::OddQ, Layout::EvenQ] {
            let g = grid(layout, (1, 1), (12, 10));
            for rotation in [0.0, 7.0, -33.0, 90.0, 180.0] {
                let truth = Alignment {
                    origin: [412.0, 96.5],
                    column: 84.0,
                    row: 84.0 * REGULAR_RATIO,
                    rotation,
                };
                let (a, b) = (cell(&g, "0101"), cell(&g, "1210"));
                let fit =
                    Alignment::fit(&g, (a, truth.centre(&g, a)), (b, truth.centre(&g, b))).unwrap();
                assert!((fit.column - 84.0).abs() < 1e-9, "{fit:?}");
                assert!((fit.row / fit.column - REGULAR_RATIO).abs() < 1e-12);
                assert!(
                    (normal_degrees(fit.rotation - rotation)).abs() < 1e-9,
                    "{rotation}: {fit:?}"
                );
                assert!(close(fit.origin, truth.origin, 1e-6), "{fit:?}");
                for h in g.cells() {
                    assert!(fit.check(&g, h, truth.centre(&g, h)) < 1e-6);
                }
                // Two cells in one column fit as well.
                let (c, d) = (cell(&g, "0303"), cell(&g, "0308"));
                let f2 =
                    Alignment::fit(&g, (c, truth.centre(&g, c)), (d, truth.centre(&g, d))).unwrap();
                assert!(close(f2.origin, truth.origin, 1e-6), "{f2:?}");
            }
        }
    }

    #[test]
    fn a_third_cell_says_how_far_off_the_fit_is() {
        let g = grid(Layout::OddQ, (1, 1), (12, 10));
        let a = Alignment {
            origin: [100.0, 100.0],
            column: 50.0,
            row: 50.0 * REGULAR_RATIO,
            rotation: 0.0,
        };
        let h = cell(&g, "0605");
        let c = a.centre(&g, h);
        assert!((a.check(&g, h, [c[0] + 3.0, c[1] + 4.0]) - 5.0).abs() < 1e-9);
        let n = note(
            &g,
            (cell(&g, "0101"), [412.0, 96.5]),
            (cell(&g, "1210"), [1340.0, 1020.0]),
            Some((h, 1.234)),
        );
        assert_eq!(
            n,
            "two cells: 0101 at (412, 96.5), 1210 at (1340, 1020); checked on 0605, 1.2 px off"
        );
    }

    #[test]
    fn a_fit_refuses_the_same_cell_or_pixel_twice_and_cells_off_the_map() {
        let g = grid(Layout::OddQ, (1, 1), (12, 10));
        let (a, b) = (cell(&g, "0101"), cell(&g, "1210"));
        let e = Alignment::fit(&g, (a, [1.0, 2.0]), (a, [50.0, 60.0])).unwrap_err();
        assert!(e.contains("0101 is given twice"), "{e}");
        let e = Alignment::fit(&g, (a, [1.0, 2.0]), (b, [1.0, 2.0])).unwrap_err();
        assert!(e.contains("same pixel"), "{e}");
        let e = Alignment::fit(&g, (a, [1.0, 2.0]), (cell(&g, "1311"), [9.0, 9.0])).unwrap_err();
        assert!(e.contains("1311 is off the map"), "{e}");
        let e = Alignment::fit(&g, (a, [1.0, 2.0]), (b, [f64::INFINITY, 9.0])).unwrap_err();
        assert!(e.contains("not a number"), "{e}");
        let e = Alignment::fit(&g, (a, [1.0, 2.0]), (b, [2.0, 2.0])).unwrap_err();
        assert!(e.contains("under 2"), "{e}");
    }

    #[test]
    fn the_table_is_written_as_the_spec_gives_it() {
        let p = Picture {
            file: "board.jpg".into(),
            alignment: Alignment {
                origin: [412.0, 96.5],
                column: 84.0,
                row: 97.0,
                rotation: 0.0,
            },
            aligned: Some("two cells".into()),
        };
        assert_eq!(
            p.table("\n"),
            "[picture]\nfile = \"board.jpg\"\norigin = [412.0, 96.5]\ncolumn = 84.0\nrow = 97.0\nrotation = 0.0\naligned = \"two cells\"\n"
        );
        assert_eq!(num(-0.0001), "0");
        assert_eq!(num(84.12345), "84.123");
    }

    #[test]
    fn the_table_replaces_only_itself() {
        let t = "[picture]\nfile = \"b.png\"\n";
        let src = "[map]\nname = \"x\" # keep\n\n[picture]\nfile = \"a.png\"\ncolumn = 3\n\n# the next table\n[provenance]\nsource = \"club\"\n";
        assert_eq!(
            replace_table(src, t).unwrap(),
            "[map]\nname = \"x\" # keep\n\n[picture]\nfile = \"b.png\"\n\n# the next table\n[provenance]\nsource = \"club\"\n"
        );
        // Last in the file, or absent: appended after a blank line.
        let src = "[map]\nname = \"x\"\n[ picture ] # here\nfile = \"a.png\"";
        assert_eq!(
            replace_table(src, t).unwrap(),
            "[map]\nname = \"x\"\n[picture]\nfile = \"b.png\"\n"
        );
        assert_eq!(
            replace_table("[map]\nname = \"x\"", t).unwrap(),
            "[map]\nname = \"x\"\n\n[picture]\nfile = \"b.png\"\n"
        );
        assert_eq!(eol_of("a\r\nb"), "\r\n");
        assert_eq!(eol_of("a\nb"), "\n");
    }

    #[test]
    fn a_fitted_picture_is_written_into_a_map_and_reads_back() {
        let src = "[map]\nname = \"t\"\nrules = \"spi\"\nfirst = \"0101\"\nlast = \"0505\"\ndefault_terrain = \"clear\"\n\n[provenance]\nsource = \"club\"\ndrawn_by = \"c\"\nfrom = \"b\"\n";
        let map = kepi_game::map::Map::from_source("t.toml", src).unwrap();
        let g = map.grid;
        let fit = Alignment::fit(
            &g,
            (cell(&g, "0101"), [10.123_456, 20.987_65]),
            (cell(&g, "0505"), [400.333_333, 380.777_7]),
        )
        .unwrap();
        let pic = Picture {
            file: "b.png".into(),
            alignment: fit,
            aligned: Some("by \"hand\"".into()),
        };
        let out = with_picture("t.toml", src, &pic).unwrap();
        assert!(out.starts_with(src), "{out}");
        let back = kepi_game::map::Map::from_source("t.toml", &out)
            .unwrap()
            .picture
            .unwrap();
        assert_eq!(back, pic.as_written());
        assert!((back.alignment.column - fit.column).abs() < 1e-3);
        // A picture given as an inline table is not rewritten: nothing is, and it says why.
        let inline = format!(
            "picture = {{ file = \"a.png\", origin = [1, 2], column = 3, row = 4 }}\n{src}"
        );
        let e = with_picture("t.toml", &inline, &pic).unwrap_err();
        assert!(e.contains("edit it by hand"), "{e}");
    }

    #[test]
    fn file_names_are_plain_pictures_beside_the_map() {
        assert!(plain_file_name("board.jpg").is_ok());
        assert!(plain_file_name("Board Scan.JPEG").is_ok());
        for bad in [
            "",
            "../board.png",
            "maps/board.png",
            "c:board.png",
            "..",
            "board.gif",
            "a\u{7}.png",
            " board.png",
        ] {
            assert!(plain_file_name(bad).is_err(), "{bad:?}");
        }
        let p = Picture {
            file: "b.png".into(),
            alignment: Alignment {
                origin: [0.0, 0.0],
                column: 1.0,
                row: 1.0,
                rotation: 0.0,
            },
            aligned: None,
        };
        assert_eq!(
            picture_path("maps/board.toml", &p),
            Some(PathBuf::from("maps/b.png"))
        );
        assert_eq!(picture_path("board.toml", &p), Some(PathBuf::from("b.png")));
        assert_eq!(picture_path("<built-in example-pw>", &p), None);
    }
}
