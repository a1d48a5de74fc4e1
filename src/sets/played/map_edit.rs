//! Moved from `src/game/map/edit.rs` (its unit tests need a rule set of kepi's).

mod tests {
    use kepi_game::hex::{Direction, Layout};
    use kepi_game::hex::{Hex, Hexside};
    use kepi_game::map::edit::*;
    use kepi_game::map::write::same_board;
    use kepi_game::map::{Country, Edge, Feature, Line, Map, Place, Victory, VictoryBy};
    use kepi_game::map::{EdgeRole, PlaceKind};

    fn hex(l: &str) -> Hex {
        Hex::from_label(l, Layout::OddQ).unwrap()
    }

    fn example() -> Map {
        Map::named("example-hex").unwrap()
    }

    /// What the map file refuses the editor refuses, so it never holds a map it cannot save:
    /// a supply edge of no side (SPI-S2), a rail-link without its distance (SPI-L1 case F), a
    /// victory value out of range; the map is unchanged after each.
    #[test]
    fn edges_and_victory_the_file_would_refuse_are_refused() {
        let mut m = example();
        let before = m.clone();
        let edge = |role, side, distance| Edge {
            role,
            side,
            name: None,
            cells: vec![hex("0101")],
            distance,
            to: None,
        };
        let mut edges = m.edges.clone();
        edges.push(edge(EdgeRole::Supply, None, None));
        let e = m.apply(&Edit::Edges(edges)).unwrap_err();
        assert!(e.message.contains("names whose source it is"), "{e}");
        let mut edges = m.edges.clone();
        edges.push(edge(EdgeRole::RailLink, None, None));
        let e = m.apply(&Edit::Edges(edges)).unwrap_err();
        assert!(e.message.contains("off-map distance"), "{e}");
        let mut victory = m.victory.clone();
        victory.push(Victory {
            name: "too much".into(),
            side: None,
            by: VictoryBy::Cells {
                cells: vec![hex("0101")],
                value: 10_000,
            },
        });
        let e = m.apply(&Edit::Victory(victory)).unwrap_err();
        assert!(e.accepted.contains("-9999 to 9999"), "{e}");
        assert!(same_board(&m, &before));
        // Accepted where the file accepts it, and the map then writes and reads back.
        let mut edges = m.edges.clone();
        edges.push(edge(
            EdgeRole::Supply,
            Some(kepi_game::map::Side::German),
            None,
        ));
        m.apply(&Edit::Edges(edges)).unwrap();
        let text = kepi_game::map::write::to_toml(&m);
        assert!(Map::from_source("edited.toml", &text).is_ok(), "{text}");
    }

    #[test]
    fn paint_and_its_undo() {
        let mut m = example();
        let before = m.clone();
        let undo = m
            .apply(&Edit::Paint {
                cells: vec![hex("0101"), hex("0204")],
                terrain: "rough".into(),
            })
            .unwrap();
        assert_eq!(m.terrain_of(hex("0101")), Some("rough"));
        assert_eq!(m.terrain_of(hex("0204")), Some("rough"));
        m.apply(&undo).unwrap();
        assert!(same_board(&m, &before));
    }

    #[test]
    fn an_unknown_terrain_or_a_cell_off_the_map_changes_nothing() {
        let mut m = example();
        let before = m.clone();
        let e = m
            .apply(&Edit::Paint {
                cells: vec![hex("0101")],
                terrain: "forest".into(),
            })
            .unwrap_err();
        assert!(e.message.contains("unknown terrain `forest`"), "{e}");
        assert!(e.accepted.contains("rough"), "{e}");
        let e = m
            .apply(&Edit::Paint {
                cells: vec![hex("0101"), hex("1311")],
                terrain: "rough".into(),
            })
            .unwrap_err();
        assert!(e.message.contains("off the map"), "{e}");
        assert_eq!(m, before);
    }

    #[test]
    fn toggling_a_river_twice_is_nothing_and_takes_its_bridge_off() {
        let mut m = example();
        let before = m.clone();
        let side = Hexside::new(hex("0303"), Direction::SE);
        let river = Edit::ToggleSide {
            side,
            feature: Feature::River,
            name: None,
            section: None,
            capacity: None,
        };
        m.apply(&river).unwrap();
        let (a, b) = side.hexes();
        assert!(m.side_has(a, b, Feature::River));
        let bridge = Edit::ToggleSide {
            side,
            feature: Feature::Bridge,
            name: None,
            section: None,
            capacity: None,
        };
        m.apply(&bridge).unwrap();
        assert!(m.side_has(b, a, Feature::Bridge));
        m.apply(&river).unwrap();
        assert!(!m.side_has(a, b, Feature::River));
        assert!(!m.side_has(a, b, Feature::Bridge), "no bridge left alone");
        assert!(same_board(&m, &before));
        let e = m.apply(&bridge).unwrap_err();
        assert!(e.message.contains("no river"), "{e}");
    }

    #[test]
    fn a_rail_side_joins_its_section() {
        let mut m = Map::named("example-1870").unwrap();
        let l = Layout::EvenQ;
        let side = Hexside::between(
            Hex::from_label("0104", l).unwrap(),
            Hex::from_label("0204", l).unwrap(),
        )
        .unwrap();
        m.apply(&Edit::ToggleSide {
            side,
            feature: Feature::Rail,
            name: Some("Ligne de l'Est".into()),
            section: Some("Portville - Vieuxbourg".into()),
            capacity: Some(3),
        })
        .unwrap();
        let rails: Vec<&Line> = m
            .lines
            .iter()
            .filter(|x| x.feature == Feature::Rail)
            .collect();
        assert_eq!(rails.len(), 2, "joined the section, no new entry");
        assert_eq!(rails[0].sides.len(), 5);
        let e = m
            .apply(&Edit::ToggleSide {
                side,
                feature: Feature::Rail,
                name: None,
                section: None,
                capacity: Some(100),
            })
            .unwrap_err();
        assert!(e.accepted.contains("1 to 99"), "{e}");
    }

    #[test]
    fn places_countries_edges_and_victory_undo() {
        let mut m = example();
        let before = m.clone();
        let mut undo = Vec::new();
        for e in [
            Edit::Place(Place {
                name: " Neuville ".into(),
                cell: hex("0303"),
                kinds: vec![PlaceKind::Town, PlaceKind::Town],
                value: None,
            }),
            Edit::SetCountry {
                cells: vec![hex("0303"), hex("0304")],
                country: Some(Country::Germany),
            },
            Edit::Edges(vec![Edge {
                role: EdgeRole::Entry,
                side: None,
                name: None,
                cells: vec![hex("0101")],
                distance: None,
                to: None,
            }]),
            Edit::Victory(Vec::new()),
        ] {
            undo.push(m.apply(&e).unwrap());
        }
        let p = m.place_named("neuville").unwrap();
        assert_eq!((p.name.as_str(), p.kinds.len()), ("Neuville", 1));
        assert_eq!(m.country_of(hex("0304")), Some(Country::Germany));
        assert!(m.victory.is_empty());
        let e = m
            .apply(&Edit::Place(Place {
                name: "x".into(),
                cell: hex("0303"),
                kinds: vec![],
                value: None,
            }))
            .unwrap_err();
        assert!(e.accepted.contains("fortified-camp"), "{e}");
        for u in undo.iter().rev() {
            m.apply(u).unwrap();
        }
        assert!(same_board(&m, &before));
        m.apply(&Edit::RemovePlace("vieuxbourg".into())).unwrap();
        assert!(m.place_named("Vieuxbourg").is_none());
    }

    #[test]
    fn a_stroke_is_one_step_and_undo_redo_walk_it() {
        let mut ed = Editor::new(example());
        let start = ed.map.clone();
        assert!(!ed.unsaved());
        ed.begin_stroke();
        for c in ["0101", "0102", "0103", "0102"] {
            ed.apply(Edit::Paint {
                cells: vec![hex(c)],
                terrain: "rough".into(),
            })
            .unwrap();
        }
        ed.end_stroke();
        assert_eq!(ed.undo_len(), 1);
        assert!(ed.unsaved());
        let painted = ed.map.clone();
        ed.apply(Edit::SetCountry {
            cells: vec![hex("0101")],
            country: None,
        })
        .unwrap();
        assert_eq!(ed.undo_len(), 2);
        assert!(ed.undo() && ed.undo());
        assert!(!ed.undo(), "nothing left");
        assert!(same_board(&ed.map, &start));
        assert!(!ed.unsaved(), "back where it was saved");
        assert!(ed.redo());
        assert!(same_board(&ed.map, &painted));
        ed.saved();
        assert!(!ed.unsaved());
        assert!(ed.undo());
        assert!(ed.unsaved());
        // A new step after an undo past the save: the saved state is gone from the stacks.
        ed.apply(Edit::Paint {
            cells: vec![hex("0505")],
            terrain: "rough".into(),
        })
        .unwrap();
        assert_eq!(ed.redo_len(), 0);
        assert!(ed.unsaved());
        assert!(ed.undo());
        assert!(ed.unsaved());
    }

    #[test]
    fn an_edited_map_saves_and_reads_back_equal() {
        let mut ed = Editor::new(example());
        ed.apply(Edit::Paint {
            cells: ed.map.grid.cells().take(30).collect(),
            terrain: "rough".into(),
        })
        .unwrap();
        ed.apply(Edit::ToggleSide {
            side: Hexside::new(hex("0909"), Direction::N),
            feature: Feature::Rail,
            name: Some("Nord".into()),
            section: None,
            capacity: None,
        })
        .unwrap();
        let text = kepi_game::map::write::checked_text(&ed.map, "e.toml").unwrap();
        let back = Map::from_source("e.toml", &text).unwrap();
        assert!(same_board(&ed.map, &back));
    }
}
