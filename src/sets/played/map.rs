//! Moved from `src/game/map/mod.rs` (its unit tests need a rule set of kepi's).

/// The map file read and checked: kepi's own examples, the queries, and every malformed case
/// refused with its file, line, field and accepted values. (Inline, as a rule set's own tests are:
/// a test map names the rule set it is drawn for.)
mod tests {
    use kepi_game::hex::{Direction, Hex, Layout};

    use kepi_game::map::terrain::{Applies, Declared, Source};
    use kepi_game::map::*;

    /// A small SPI map: lines 1-11; a test appends from line 12 on.
    const BASE: &str = r#"[map]
    name = "test board"
    rules = "spi"
    first = "0101"
    last = "0505"
    default_terrain = "clear"

    [provenance]
    source = "club"
    drawn_by = "the club"
    from = "our printed board"
    "#;

    fn with(extra: &str) -> Result<Map, MapError> {
        Map::from_source("t.toml", &format!("{BASE}{extra}"))
    }

    /// The error for `extra` appended to [`BASE`].
    fn refused(extra: &str) -> MapError {
        match with(extra) {
            Ok(_) => panic!("accepted:\n{extra}"),
            Err(e) => e,
        }
    }

    fn hex(label: &str, layout: Layout) -> Hex {
        Hex::from_label(label, layout).unwrap()
    }

    #[test]
    fn kepis_own_maps_read() {
        for (name, _) in BUILTIN {
            let m = Map::named(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(m.provenance.source, Source::House, "{name}");
            assert!(m.summary().contains(": ok: "), "{}", m.summary());
        }
    }

    #[test]
    fn the_example_board_knows_every_cell() {
        let m = Map::named("example-hex").unwrap();
        let l = m.grid.layout;
        assert_eq!(m.rules.id(), "spi");
        assert_eq!(l, Layout::OddQ);
        assert_eq!(
            (m.grid.columns(), m.grid.rows(), m.grid.len()),
            (12, 10, 120)
        );
        // rough: 0203-0305 (2 x 3), 0807-0909 (2 x 3) and 1102.
        assert_eq!(m.terrain_counts(), vec![("clear", 107), ("rough", 13)]);
        let rough = m.terrain_entry(hex("0204", l)).unwrap();
        assert_eq!(rough.name, "rough");
        assert_eq!(rough.movement.provenance, Source::Seed);
        assert_eq!(rough.rule.as_deref(), Some("SPI-M1"));
        assert!(rough.combat.text.contains("[cut]"), "SPI-C5: cut text kept");
        assert_eq!(m.terrain_of(hex("0101", l)), Some("clear"));
        assert_eq!(m.terrain_of(hex("1301", l)), None, "off the map");
        assert_eq!(m.country_of(hex("0101", l)), Some(Country::Belgium));
        assert_eq!(m.country_of(hex("1205", l)), Some(Country::Germany));
        assert_eq!(m.country_of(hex("1001", l)), Some(Country::Luxembourg));
        assert_eq!(m.country_of(hex("0505", l)), Some(Country::France));
        let v = m.places_at(hex("0605", l));
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].kinds, vec![PlaceKind::Town, PlaceKind::Fortress]);
        // The river runs between columns 06 and 07; the rail crosses it on the bridge.
        let (a, b) = (hex("0605", l), hex("0705", l));
        assert!(m.side_has(a, b, Feature::River));
        assert!(m.side_has(a, b, Feature::Bridge));
        assert!(m.side_has(a, b, Feature::Rail));
        assert!(!m.side_has(hex("0604", l), hex("0605", l), Feature::River));
        let rails: Vec<_> = m
            .lines
            .iter()
            .filter(|x| x.feature == Feature::Rail)
            .collect();
        assert_eq!(rails.len(), 2);
        assert_eq!(rails[1].section.as_deref(), Some("Vieuxbourg - Neudorf"));
        assert_eq!(rails[1].sides.len(), 6);
        let edges = m.edges_at(hex("0105", l));
        assert!(
            edges
                .iter()
                .any(|e| e.role == EdgeRole::RailLink && e.distance == Some(6))
        );
        let vp = m.victory_at(hex("0305", l));
        assert_eq!(vp.len(), 1);
        assert_eq!(vp[0].1, 40);
        assert!(m.victory_at(hex("0705", l)).is_empty());
    }

    #[test]
    fn a_cell_view_names_its_sides_and_effects() {
        let m = Map::named("example-hex").unwrap();
        let v = m.cell_view(hex("0605", Layout::OddQ)).unwrap();
        assert_eq!(v.cell, "0605");
        assert_eq!(v.terrain, "clear");
        assert_eq!(v.country, Some(Country::France));
        assert_eq!(v.sides.len(), 6);
        let se = v
            .sides
            .iter()
            .find(|s| s.direction == Direction::SE)
            .unwrap();
        assert_eq!(se.neighbour, "0705");
        let feats: Vec<Feature> = se.features.iter().map(|f| f.feature).collect();
        assert!(feats.contains(&Feature::River) && feats.contains(&Feature::Bridge));
        let river = se
            .features
            .iter()
            .find(|f| f.feature == Feature::River)
            .unwrap();
        assert!(
            river
                .effects
                .unwrap()
                .other
                .as_ref()
                .unwrap()
                .text
                .contains("Zones of Control")
        );
        let bridge = se
            .features
            .iter()
            .find(|f| f.feature == Feature::Bridge)
            .unwrap();
        assert!(bridge.effects.is_none(), "SPI's chart prints no bridge");
        assert!(m.cell_view(hex("1311", Layout::OddQ)).is_none());
    }

    #[test]
    fn the_1870_example_carries_the_clubs_table_with_unknown_effects() {
        let m = Map::named("example-1870").unwrap();
        assert_eq!(m.grid.layout, Layout::EvenQ, "FR numbering");
        assert!(m.terrain_checked);
        let forest = m.terrain_entry(hex("0302", Layout::EvenQ)).unwrap();
        assert_eq!(forest.declared, Declared::Map);
        assert_eq!(
            forest.movement.provenance,
            Source::Unknown,
            "FR-M1: never invented"
        );
        let rail = m.lines.iter().find(|l| l.feature == Feature::Rail).unwrap();
        assert_eq!(rail.capacity, Some(3));
        assert!(m.place_named("camp de vaux").unwrap().kinds == [PlaceKind::FortifiedCamp]);
        assert_eq!(m.place_named("Vieuxbourg").unwrap().value, Some(2));
        let line = m.victory_at(hex("0603", Layout::EvenQ));
        assert_eq!(line[0].1, 10);
    }

    #[test]
    fn without_any_terrain_table_names_are_free_and_effects_unknown() {
        let src = BASE.replace("\"spi\"", "\"fr1870\"") + "[cells]\nforet = [\"0102\"]\n";
        let m = Map::from_source("t.toml", &src).unwrap();
        assert!(!m.terrain_checked);
        assert_eq!(m.terrain_of(hex("0102", Layout::EvenQ)), Some("foret"));
        assert!(m.terrain_entry(hex("0102", Layout::EvenQ)).is_none());
        assert!(m.summary().contains("names unchecked"), "{}", m.summary());
    }

    #[test]
    fn the_pw_table_prints_cover_and_uphill_only() {
        let m = Map::named("example-pw").unwrap();
        let cover = m.terrain.get("cover", Applies::Cell).unwrap();
        assert_eq!(cover.combat.provenance, Source::Seed);
        assert_eq!(cover.movement.provenance, Source::Unknown);
        assert_eq!(
            m.terrain_entry(hex("0705", Layout::OddQ)).unwrap().name,
            "hill"
        );
    }

    #[test]
    fn an_unknown_terrain_names_line_field_and_the_accepted_names() {
        let e = refused("[cells]\nforest = [\"0101\"]\n");
        assert_eq!(
            (e.file.as_str(), e.line, e.field.as_str()),
            ("t.toml", 13, "cells.forest")
        );
        assert!(e.message.contains("unknown terrain `forest`"), "{e}");
        assert!(e.accepted.contains("clear, rough"), "{e}");
        let e = refused("[cells]\nriver = [\"0101\"]\n");
        assert!(e.message.contains("hexsides"), "{e}");
        let e = Map::from_source("t.toml", &BASE.replace("\"clear\"", "\"plain\"")).unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (6, "map.default_terrain"));
    }

    #[test]
    fn a_cell_off_the_grid_or_badly_written_is_refused() {
        let e = refused("[cells]\nrough = [\"0101\",\n  \"0606\"]\n");
        assert_eq!((e.line, e.field.as_str()), (14, "cells.rough[1]"));
        assert!(e.message.contains("off the map"), "{e}");
        assert!(e.accepted.contains("0101 to 0505"), "{e}");
        let e = refused("[cells]\nrough = [\"01x1\"]\n");
        assert_eq!((e.line, e.field.as_str()), (13, "cells.rough[0]"));
        assert!(e.message.contains("not a cell"), "{e}");
        let e = refused("[[place]]\nname = \"X\"\ncell = \"12345\"\nkind = \"town\"\n");
        assert_eq!((e.line, e.field.as_str()), (14, "place[0].cell"));
        assert!(e.accepted.contains("four-digit"), "{e}");
    }

    #[test]
    fn a_bad_range_is_refused() {
        let e = refused("[cells]\nrough = [\"0303-0101\"]\n");
        assert_eq!((e.line, e.field.as_str()), (13, "cells.rough[0]"));
        assert!(e.message.contains("not a block"), "{e}");
        let e = refused("[cells]\nrough = [\"0101-0909\"]\n");
        assert!(e.message.contains("off the map at 0909"), "{e}");
        let e = Map::from_source(
            "t.toml",
            &BASE.replace("last = \"0505\"", "last = \"0001\""),
        )
        .unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (5, "map.last"));
    }

    #[test]
    fn a_bad_hexside_is_refused() {
        let e = refused("[[river]]\nsides = [\"0101/0303\"]\n");
        assert_eq!((e.line, e.field.as_str()), (13, "river[0].sides[0]"));
        assert!(e.message.contains("not adjacent"), "{e}");
        assert!(e.accepted.contains("0304:se"), "{e}");
        let e = refused("[[river]]\nsides = [\"0101:up\"]\n");
        assert!(e.message.contains("not a side"), "{e}");
        let e = refused("[[river]]\nsides = [\"0909:n\"]\n");
        assert!(e.message.contains("off the map"), "{e}");
        let e = refused("[[road]]\npath = [\"0101\", \"0303\"]\n");
        assert_eq!(e.field, "road[0].path[1]");
        assert!(e.message.contains("not next to 0101"), "{e}");
        let e = refused("[[river]]\nsection = \"x\"\nsides = [\"0101:s\"]\n");
        assert_eq!((e.line, e.field.as_str()), (13, "river[0].section"));
        let e = refused("[[bridge]]\nsides = [\"0101:s\"]\n");
        assert!(e.message.contains("no [[river]]"), "{e}");
        let e = refused("[[river]]\nname = \"x\"\n");
        assert!(e.message.contains("names its hexsides"), "{e}");
    }

    #[test]
    fn a_hexside_at_the_edge_and_a_bridge_on_a_river_are_taken() {
        let m = with(
            "[[river]]\nsides = [\"0101:n\", \"0101:s\"]\n[[bridge]]\nsides = [\"0101/0102\"]\n",
        )
        .unwrap();
        let (a, b) = (hex("0101", Layout::OddQ), hex("0102", Layout::OddQ));
        assert!(m.side_has(a, b, Feature::Bridge));
        assert!(m.side_has(b, a, Feature::River), "either way round");
    }

    #[test]
    fn a_duplicate_place_is_refused_naming_the_first() {
        let e = refused(
            "[[place]]\nname = \"Metz\"\ncell = \"0101\"\nkind = \"town\"\n[[place]]\nname = \"metz\"\ncell = \"0202\"\nkind = \"fortress\"\n",
        );
        assert_eq!((e.line, e.field.as_str()), (17, "place[1].name"));
        assert!(e.message.contains("first on line 13"), "{e}");
        let e = refused("[[place]]\nname = \"X\"\ncell = \"0101\"\nkind = \"castle\"\n");
        assert_eq!(e.field, "place[0].kind");
        assert!(e.accepted.contains("fortified-camp"), "{e}");
    }

    #[test]
    fn an_unknown_country_names_the_accepted_ones() {
        let e = refused("[countries]\nprussia = [\"0101\"]\n");
        assert_eq!((e.line, e.field.as_str()), (13, "countries.prussia"));
        assert!(
            e.accepted.contains("germany") && e.accepted.contains("sea"),
            "{e}"
        );
        let e = refused("[countries]\ngermany = [\"0101\"]\nfrance = [\"0101-0202\"]\n");
        assert_eq!((e.line, e.field.as_str()), (14, "countries.france[0]"));
        assert!(e.message.contains("two countries"), "{e}");
    }

    #[test]
    fn a_cell_given_two_terrains_is_refused() {
        let src = BASE.replace("\"spi\"", "\"pw\"")
            + "[cells]\ncover = [\"0101-0202\"]\nhill = [\"0202\"]\n";
        let e = Map::from_source("t.toml", &src).unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (14, "cells.hill[0]"));
        assert!(e.message.contains("cover (line 13) and hill"), "{e}");
    }

    #[test]
    fn an_unknown_key_is_refused_with_the_accepted_keys() {
        let e = refused("[[place]]\nname = \"X\"\ncell = \"0101\"\nkind = \"town\"\nsize = 3\n");
        assert_eq!(e.line, 16, "{e}");
        assert!(e.message.contains("size"), "{e}");
        assert!(e.accepted.contains("kind"), "{e}");
        let e = refused("[forest]\nx = 1\n");
        assert_eq!(e.line, 12, "{e}");
        assert!(e.accepted.contains("victory"), "{e}");
    }

    #[test]
    fn the_grid_and_the_rule_set_are_checked() {
        let e = Map::from_source("t.toml", &BASE.replace("\"spi\"", "\"pk\"")).unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (3, "map.rules"));
        assert!(e.accepted.contains("spi"), "{e}");
        let e = Map::from_source("t.toml", &BASE.replace("\"spi\"", "\"chess\"")).unwrap_err();
        assert!(
            e.message.contains("chess") && e.message.contains("fr1870"),
            "{e}"
        );
        let e = Map::from_source(
            "t.toml",
            &BASE.replace("rules = \"spi\"", "rules = \"spi\"\nlayout = \"even-q\""),
        )
        .unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (4, "map.layout"));
        assert_eq!(e.accepted, "odd-q");
        let cut = BASE.split("[provenance]").next().unwrap();
        let e = Map::from_source("t.toml", cut).unwrap_err();
        assert_eq!(e.field, "provenance");
        let e = Map::from_source("t.toml", &BASE.replace("\"club\"", "\"publisher\"")).unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (9, "provenance.source"));
    }

    #[test]
    fn the_clubs_terrain_adds_names_and_never_replaces_the_printed_ones() {
        let e = refused("[[terrain]]\nname = \"rough\"\nmovement = \"free\"\n");
        assert_eq!((e.line, e.field.as_str()), (13, "terrain[0].name"));
        assert!(e.message.contains("never replaces"), "{e}");
        let m = with(
            "[[terrain]]\nname = \"marsh\"\ncolour = \"#40A040\"\nmovement = \"3 MP\"\nmp = 3\nrule = \"spi-m1\"\n[cells]\nmarsh = [\"0303\"]\n",
        )
        .unwrap();
        let t = m.terrain_entry(hex("0303", Layout::OddQ)).unwrap();
        assert_eq!((t.movement.provenance, t.mp), (Source::Club, Some(3)));
        assert_eq!(t.combat.provenance, Source::Unknown);
        assert_eq!(t.colour.as_deref(), Some("#40a040"));
        assert_eq!(t.rule.as_deref(), Some("SPI-M1"));
        let e = refused("[[terrain]]\nname = \"marsh\"\ncolour = \"green\"\n");
        assert_eq!(e.field, "terrain[0].colour");
        let e = refused("[[terrain]]\nname = \"canal\"\napplies = \"hexside\"\n");
        assert!(e.accepted.contains("river"), "{e}");
        let e = refused("[[terrain]]\nname = \"Big Wood\"\n");
        assert!(e.accepted.contains("lower-case"), "{e}");
    }

    #[test]
    fn edges_and_victory_are_checked() {
        let e = refused("[[edge]]\nrole = \"rail-link\"\ncells = [\"0105\"]\n");
        assert_eq!((e.line, e.field.as_str()), (13, "edge[0].distance"));
        let e = refused("[[edge]]\nrole = \"rail-link\"\ncells = [\"0303\"]\ndistance = 3\n");
        assert!(e.message.contains("not on the map's edge"), "{e}");
        let e = refused("[[edge]]\nrole = \"supply\"\ncells = [\"0303\"]\ndistance = 3\n");
        assert_eq!(e.field, "edge[0].distance");
        let e = refused("[[edge]]\nrole = \"depot\"\ncells = [\"0303\"]\n");
        assert!(e.accepted.contains("sea-route"), "{e}");
        let e = refused("[[victory]]\nname = \"x\"\ncolumns = { 09 = 3 }\n");
        assert_eq!((e.line, e.field.as_str()), (14, "victory[0].columns.09"));
        let e = refused("[[victory]]\nname = \"x\"\ncolumns = { 01 = 3 }\nrows = { 01 = 2 }\n");
        assert!(e.message.contains("exactly one"), "{e}");
        let e = refused("[[victory]]\nname = \"x\"\ncells = [\"0101\"]\n");
        assert_eq!(e.field, "victory[0].value");
        let m =
            with("[[victory]]\nname = \"line\"\nside = \"french\"\nrows = { 02 = 7 }\n").unwrap();
        assert_eq!(m.victory_at(hex("0402", Layout::OddQ))[0].1, 7);
    }

    #[test]
    fn hostile_text_never_panics_and_files_are_read_capped() {
        for junk in [
            "",
            "[map]",
            "\u{0}\u{1}",
            "[map]\nname = 3\n",
            "[map]\nname=\"x\"\nrules=\"spi\"\nfirst=\"9999\"\nlast=\"0000\"\ndefault_terrain=\"clear\"\n",
        ] {
            assert!(Map::from_source("j.toml", junk).is_err(), "{junk:?}");
        }
        let name = format!("{BASE}[map2]\n\u{202e}");
        assert!(Map::from_source("j.toml", &name).is_err());
        let dir = std::env::temp_dir();
        let e = Map::load(&dir).unwrap_err();
        assert_eq!(e.line, 0);
        let e = Map::named("no-such-map.toml").unwrap_err();
        assert!(e.accepted.contains("example-hex"), "{e}");
    }

    /// The `[picture]` table as docs/MAPS.md gives it: a line each, from line 12 on.
    fn picture(file: &str, origin: &str, column: &str, row: &str, extra: &str) -> String {
        format!(
            "[picture]\nfile = {file}\norigin = {origin}\ncolumn = {column}\nrow = {row}\n{extra}"
        )
    }

    #[test]
    fn a_picture_table_is_read_with_its_alignment() {
        let m = with(&picture(
            "\"board.jpg\"",
            "[412, 96.5]",
            "84.0",
            "97.0",
            "rotation = -1.5\naligned = \"two cells: 0101 at (412, 96.5), 1210 at (1340, 1020); checked on 0605, 1.2 px off\"\n",
        ))
        .unwrap();
        let p = m.picture.as_ref().unwrap();
        assert_eq!(p.file, "board.jpg");
        assert_eq!(p.alignment.origin, [412.0, 96.5]);
        assert_eq!((p.alignment.column, p.alignment.row), (84.0, 97.0));
        assert_eq!(p.alignment.rotation, -1.5);
        assert!(p.aligned.as_deref().unwrap().starts_with("two cells"));
        let m = with(&picture("\"b.PNG\"", "[0, 0]", "10", "12", "")).unwrap();
        assert_eq!(
            m.picture.unwrap().alignment.rotation,
            0.0,
            "rotation defaults to 0"
        );
        assert_eq!(Map::named("example-hex").unwrap().picture, None);
    }

    #[test]
    fn a_bad_picture_table_names_line_field_and_what_is_accepted() {
        let e = refused(&picture("\"../board.jpg\"", "[1, 2]", "84.0", "97.0", ""));
        assert_eq!((e.line, e.field.as_str()), (13, "picture.file"));
        assert!(e.message.contains("is a path"), "{e}");
        assert!(e.accepted.contains("beside the map file"), "{e}");
        let e = refused(&picture("\"board.gif\"", "[1, 2]", "84.0", "97.0", ""));
        assert!(e.message.contains("not a PNG or JPEG"), "{e}");
        let e = refused(&picture("\"b.png\"", "[1]", "84.0", "97.0", ""));
        assert_eq!((e.line, e.field.as_str()), (14, "picture.origin"));
        assert!(e.accepted.contains("two numbers"), "{e}");
        let e = refused(&picture("\"b.png\"", "[1, inf]", "84.0", "97.0", ""));
        assert_eq!((e.line, e.field.as_str()), (14, "picture.origin[1]"));
        let e = refused(&picture("\"b.png\"", "[1, 2]", "0.0", "97.0", ""));
        assert_eq!((e.line, e.field.as_str()), (15, "picture.column"));
        assert!(e.accepted.contains("above 0"), "{e}");
        let e = refused(&picture("\"b.png\"", "[1, 2]", "84", "-97.0", ""));
        assert_eq!((e.line, e.field.as_str()), (16, "picture.row"));
        let e = refused(&picture("\"b.png\"", "[1, 2]", "84", "nan", ""));
        assert_eq!((e.line, e.field.as_str()), (16, "picture.row"));
        let e = refused(&picture(
            "\"b.png\"",
            "[1, 2]",
            "84",
            "97",
            "rotation = 400\n",
        ));
        assert_eq!((e.line, e.field.as_str()), (17, "picture.rotation"));
        assert!(e.accepted.contains("degrees clockwise"), "{e}");
        let e = refused(&picture("\"b.png\"", "[1, 2]", "84", "97", "scale = 2\n"));
        assert_eq!(e.line, 17, "{e}");
        assert!(e.accepted.contains("rotation"), "{e}");
        let e = refused("[picture]\nfile = \"b.png\"\ncolumn = 84.0\nrow = 97.0\n");
        assert!(e.message.contains("origin"), "{e}");
        let e = refused(&picture("\"b.png\"", "[1, 2]", "\"wide\"", "97", ""));
        assert_eq!(e.line, 15, "{e}");
    }

    #[test]
    fn a_large_map_reads_whole() {
        let mut src = BASE.replace("last = \"0505\"", "last = \"6040\"");
        src.push_str("[cells]\nrough = [\"0101-3020\", \"3121-6040\"]\n");
        let m = Map::from_source("big.toml", &src).unwrap();
        assert_eq!(m.grid.len(), 2400);
        assert_eq!(m.terrain_counts(), vec![("clear", 1200), ("rough", 1200)]);
    }
}
