//! Moved from `src/game/map/write.rs` (its unit tests need a rule set of kepi's).

mod tests {
    use kepi_game::hex::Layout;
    use kepi_game::hex::{Hex, Offset};
    use kepi_game::map::BUILTIN;
    use kepi_game::map::picture::WriteError;

    use kepi_game::map::Map;
    use kepi_game::map::write::*;

    fn round_trip(m: &Map) -> Map {
        let text = to_toml(m);
        Map::from_source("back.toml", &text).unwrap_or_else(|e| panic!("{e}\n{text}"))
    }

    #[test]
    fn every_example_map_reads_back_as_the_same_board() {
        for (name, _) in BUILTIN {
            let m = Map::named(name).unwrap();
            let back = round_trip(&m);
            assert!(same_board(&m, &back), "{name}:\n{}", to_toml(&m));
            // And writing again gives the same text (a fixed point).
            assert_eq!(to_toml(&m), to_toml(&back), "{name}");
        }
    }

    #[test]
    fn uniform_rectangles_are_one_block() {
        let m = Map::named("example-hex").unwrap();
        let text = to_toml(&m);
        assert!(
            text.contains("rough = [\"0203-0305\", \"0807-0909\", \"1102\"]"),
            "{text}"
        );
        let t8 = to_toml(&Map::named("example-1870").unwrap());
        assert!(
            t8.contains("cells = [\"1001-1008\"]"),
            "an edge's run is a block: {t8}"
        );
        let rail = text.split("[[rail]]").nth(1).unwrap();
        assert!(rail.contains("path = ["), "a rail chain is a path: {rail}");
        let g = m.grid;
        assert_eq!(blocks(&g, |_| true), vec!["\"0101-1210\"".to_string()]);
        assert!(blocks(&g, |_| false).is_empty());
    }

    #[test]
    fn blocks_cover_each_cell_once_whatever_the_shape() {
        let m = Map::named("example-1870").unwrap();
        let g = m.grid;
        // A checkerboard and a diagonal: every wanted cell in exactly one block.
        let picks: [fn(Offset) -> bool; 2] = [
            |o: Offset| (o.col + o.row) % 2 == 0,
            |o: Offset| o.col == o.row || o.row > 6,
        ];
        for pick in picks {
            let want = |h: Hex| pick(h.to_offset(Layout::EvenQ));
            let items = blocks(&g, want);
            let src = format!(
                "[map]\nname=\"x\"\nrules=\"spi\"\nfirst=\"0101\"\nlast=\"1008\"\ndefault_terrain=\"clear\"\n[provenance]\nsource=\"club\"\ndrawn_by=\"x\"\nfrom=\"x\"\n[cells]\nrough = [{}]\n",
                items.join(", ")
            );
            let back = Map::from_source("b.toml", &src).unwrap();
            for h in back.grid.cells() {
                let o = h.to_offset(Layout::OddQ);
                let h8 = Hex::from_offset(o, Layout::EvenQ);
                assert_eq!(back.terrain_of(h) == Some("rough"), want(h8), "{o:?}");
            }
        }
    }

    #[test]
    fn a_map_with_no_country_on_some_cells_lists_every_country() {
        let m = Map::named("example-hex").unwrap();
        let back = round_trip(&m);
        assert!(same_board(&m, &back));
        let none = m.country_counts().1;
        assert_eq!(none, back.country_counts().1);
    }

    #[test]
    fn save_writes_a_file_that_loads_and_refuses_links_and_game_files() {
        let dir = std::env::temp_dir().join(format!("kepi-write-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let m = Map::named("example-1870").unwrap();
        let path = dir.join("ours.toml");
        save(&m, &path).unwrap();
        let back = Map::load(&path).unwrap();
        assert!(same_board(&m, &back));
        #[cfg(unix)]
        {
            let link = dir.join("link.toml");
            std::os::unix::fs::symlink(&path, &link).unwrap();
            assert!(matches!(save(&m, &link), Err(WriteError::Refused(_))));
        }
        // A save's journal beside it makes it a game's own file.
        let game = dir.join("game.kepi");
        std::fs::write(&game, "x").unwrap();
        std::fs::write(dir.join("game.kepi.journal"), "x").unwrap();
        let e = save(&m, &game).unwrap_err();
        assert!(matches!(e, WriteError::Refused(_)), "{e}");
        assert_eq!(std::fs::read_to_string(&game).unwrap(), "x");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
