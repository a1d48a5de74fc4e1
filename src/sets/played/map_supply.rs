//! Moved from `src/game/map/supply.rs` (its unit tests that play a rule set).

mod tests {
    use kepi_game::map::supply::*;

    use kepi_game::hex::Hex;
    use kepi_game::hex::Layout;
    use kepi_game::map::{Map, Side};

    /// A small SPI test map, 12 x 6, France everywhere but column 12 (Germany): a French rail
    /// line off the west edge along row 03, the German "S" at 1201.
    const MAP: &str = r#"[map]
name = "supply test"
rules = "spi"
first = "0101"
last = "1206"
default_terrain = "clear"
default_country = "france"

[provenance]
source = "club"
drawn_by = "a test"
from = "nothing"

[countries]
germany = ["1201-1206"]

[[rail]]
path = ["0103", "0203", "0303", "0403", "0503", "0603"]

[[edge]]
role = "supply"
side = "french"
name = "west rail"
cells = ["0103"]

[[edge]]
role = "supply"
side = "german"
name = "S"
cells = ["1201"]
"#;

    fn h(label: &str) -> Hex {
        Hex::from_label(label, Layout::OddQ).unwrap()
    }

    fn map() -> Map {
        Map::from_source("t.toml", MAP).unwrap()
    }

    fn spi() -> SupplyRules {
        crate::spi::supply::supply_rules().rules
    }

    fn unit(id: &str, side: Side, at: &str) -> Piece {
        Piece {
            id: id.into(),
            side,
            hex: h(at),
            bars: true,
            zoc: true,
            shields: true,
            traces: true,
            fort: None,
        }
    }

    fn fort(id: &str, side: Side, at: &str, name: &str, capacity: Option<u32>) -> Piece {
        Piece {
            zoc: false,
            traces: false,
            fort: Some(Fort {
                name: name.into(),
                capacity,
            }),
            ..unit(id, side, at)
        }
    }

    /// SPI-S1 (issue 42's S19: "supply within 10/25 hexes"): "To be supplied, a unit must be able
    /// to trace at least one continuous path of hexes ... to a Supply Source for no more than ten
    /// hexes. To be considered unsupplied, a unit must be able to trace a path of hexes no more
    /// than twenty-five hexes long".
    #[test]
    fn supply_within_ten_and_twenty_five_hexes() {
        let m = map();
        let rules = SupplyRules {
            supplied: 2,
            unsupplied: 5,
            ..spi()
        };
        // The German "S" at 1201: 1203 is two cells away, 1206 five, 0606 beyond.
        let pieces = vec![
            unit("near", Side::German, "1203"),
            unit("mid", Side::German, "1206"),
            unit("far", Side::German, "0406"),
        ];
        let s = trace(&m, &rules, &pieces, Side::German, &[]);
        let near = s.get("near").unwrap();
        assert_eq!(
            (near.status, near.distance),
            (SupplyStatus::Supplied, Some(2))
        );
        assert_eq!(near.path, vec!["1203", "1202", "1201"]);
        assert_eq!(near.source.as_ref().unwrap().name, "S");
        assert_eq!(near.source.as_ref().unwrap().kind, SourceKind::Edge);
        let mid = s.get("mid").unwrap();
        assert_eq!(
            (mid.status, mid.distance),
            (SupplyStatus::Unsupplied, Some(5))
        );
        assert!(mid.interdicts.is_empty(), "simply too far: {mid:?}");
        let far = s.get("far").unwrap();
        assert_eq!((far.status, far.distance), (SupplyStatus::Isolated, None));
        assert!(far.path.is_empty() && far.source.is_none());
        assert_eq!(
            s.rules,
            vec!["SPI-E2", "SPI-F1", "SPI-S1", "SPI-S2", "SPI-Z1"]
        );
        // The text's own numbers: ten and twenty-five.
        let r = spi();
        assert_eq!((r.supplied, r.unsupplied), (10, 25));
    }

    /// SPI-S2: "The French Player may use all of the French rail lines leading from the west and
    /// south edges of the map as a Supply Source ... any hex along that rail line may be used as
    /// a Supply Source, if it has not been cut ... Supply Sources may only be traced from the edge
    /// of the map to the nearest hex that has been cut."
    #[test]
    fn the_french_rail_line_is_a_source_up_to_the_first_cut() {
        let m = map();
        let pieces = vec![unit("fr", Side::French, "0803")];
        let s = trace(&m, &spi(), &pieces, Side::French, &[]);
        let t = s.get("fr").unwrap();
        assert_eq!(t.distance, Some(2), "0603 is the line's last hex: {t:?}");
        let src = t.source.as_ref().unwrap();
        assert_eq!((src.kind, src.cell.as_str()), (SourceKind::Rail, "0603"));
        assert_eq!(src.name, "west rail");
        // Cut at 0403: 0403 and beyond are no sources; 0303 is.
        let s = trace(&m, &spi(), &pieces, Side::French, &[h("0403")]);
        let t = s.get("fr").unwrap();
        assert_eq!(t.distance, Some(5));
        assert_eq!(t.source.as_ref().unwrap().cell, "0303");
        assert_eq!(s.rail_stops.len(), 1);
        assert_eq!(
            (s.rail_stops[0].cell.as_str(), s.rail_stops[0].what),
            ("0403", ObstacleKind::Cut)
        );
        // An enemy unit standing on the line stops it too.
        let mut pieces = pieces;
        pieces.push(unit("de", Side::German, "0503"));
        let s = trace(&m, &spi(), &pieces, Side::French, &[]);
        assert!(s.sources.iter().all(|x| x.cell != "0603"));
        assert_eq!(s.rail_stops[0].what, ObstacleKind::EnemyUnit);
        assert_eq!(s.rail_stops[0].by, vec!["de".to_string()]);
    }

    /// SPI-S1: "a continuous path of hexes which does not pass through Enemy occupied or
    /// controlled hexes"; SPI-Z1 Case B: "Zones of Control do not extend across river hexsides".
    #[test]
    fn enemy_units_and_zones_of_control_interdict_and_are_named() {
        let m = map();
        let rules = SupplyRules {
            supplied: 2,
            ..spi()
        };
        // A German at 1102 next to the "S": its zone covers 1201 and 1202.
        let mut pieces = vec![
            unit("de", Side::German, "1203"),
            unit("fr", Side::French, "1102"),
        ];
        let s = trace(&m, &rules, &pieces, Side::German, &[]);
        let t = s.get("de").unwrap();
        assert_ne!(t.status, SupplyStatus::Supplied, "{t:?}");
        let zoc: Vec<&Obstacle> = t
            .interdicts
            .iter()
            .filter(|o| o.what == ObstacleKind::ZoneOfControl)
            .collect();
        assert!(!zoc.is_empty(), "{t:?}");
        assert_eq!(zoc[0].by, vec!["fr".to_string()]);
        assert_eq!(zoc[0].rule, "SPI-Z1");
        assert_eq!(t.blocked_path.first().map(String::as_str), Some("1203"));
        // Not across a river: the zone stops at the river round 1102's east sides.
        let river = format!("{MAP}[[river]]\nsides = [\"1102:ne\", \"1102:se\"]\n");
        let m = Map::from_source("t.toml", &river).unwrap();
        let s = trace(&m, &rules, &pieces, Side::German, &[]);
        assert_eq!(s.get("de").unwrap().status, SupplyStatus::Supplied);
        // An entrained unit (no zone) still bars its own cell.
        pieces[1].zoc = false;
        pieces[1].hex = h("1202");
        let m = map();
        let s = trace(&m, &rules, &pieces, Side::German, &[]);
        let t = s.get("de").unwrap();
        assert_eq!(t.status, SupplyStatus::Unsupplied, "round it: {t:?}");
        assert_eq!(t.distance, Some(3));
    }

    /// SPI-F1 Case E: "Extending on all hexes up to three hexes distant from the Fortification
    /// unit's hex, this Zone of Interdiction interrupts all forms of Enemy supply lines ... This
    /// Zone of Interdiction does not extend into hexes occupied by Enemy units or adjacent to
    /// them."
    #[test]
    fn a_fortress_interdicts_three_hexes_unless_masked() {
        let m = map();
        let rules = SupplyRules {
            supplied: 6,
            unsupplied: 6,
            ..spi()
        };
        let pieces = vec![
            unit("de", Side::German, "1205"),
            fort("verdun", Side::French, "0803", "Verdun", Some(1)),
        ];
        let s = trace(&m, &rules, &pieces, Side::German, &[]);
        let t = s.get("de").unwrap();
        assert_eq!(t.status, SupplyStatus::Supplied, "1205 to 1201: {t:?}");
        // Further west: the straight way from 0905 to 1201 (six cells) crosses Verdun's zone; the
        // way round it is seven: isolated within six, the zone named.
        let pieces = vec![
            unit("de", Side::German, "0905"),
            fort("verdun", Side::French, "0803", "Verdun", Some(1)),
        ];
        let s = trace(&m, &rules, &pieces, Side::German, &[]);
        let t = s.get("de").unwrap();
        assert_eq!(t.status, SupplyStatus::Isolated, "{t:?}");
        assert!(
            t.interdicts
                .iter()
                .any(|o| o.what == ObstacleKind::ZoneOfInterdiction && o.by == ["verdun"]),
            "{t:?}"
        );
        assert_eq!(t.interdicts[0].rule, "SPI-F1");
        // Masked: the zone does not extend into the unit's cell or next to it (the unit itself
        // masks its surroundings).
        let zone_next = kepi_game::map::supply::obstacles(
            &m,
            &rules,
            &pieces,
            Side::German,
            &BoardMarks::default(),
        );
        let i = m.grid.index(h("0904")).unwrap();
        assert!(zone_next[i].is_empty(), "next to the German unit: masked");
        let j = m.grid.index(h("0903")).unwrap();
        assert!(
            !zone_next[j].is_empty(),
            "0903: two from it, within three of 0803"
        );
    }

    /// SPI-S2: "each Fortification unit may be used as a Supply Source for one (and only one)
    /// Combat unit. The fortifications at Metz and Strasburg are exceptions to this: each of these
    /// may supply an indefinite number of Friendly units"; "Fortification units are always
    /// supplied" (SPI-S1).
    #[test]
    fn a_fortress_supplies_one_unit_and_metz_any_number() {
        let m = map();
        // Far from the rail line's end (0603) and the rail: row 06 east.
        let pieces = vec![
            unit("a", Side::French, "1006"),
            unit("b", Side::French, "1005"),
            fort("toul", Side::French, "1106", "Toul", Some(1)),
        ];
        let rules = SupplyRules {
            supplied: 2,
            unsupplied: 5,
            ..spi()
        };
        let s = trace(&m, &rules, &pieces, Side::French, &[]);
        let (a, b) = (s.get("a").unwrap(), s.get("b").unwrap());
        // Both are one cell from Toul; b is nearer the rail, so Toul goes to the one it helps
        // most, then nearest, then in roster order: a (both isolated without it, both 1 away).
        assert_eq!(a.status, SupplyStatus::Supplied, "{a:?}");
        assert_eq!(a.source.as_ref().unwrap().name, "Toul");
        assert!(a.note.as_ref().unwrap().contains("one unit each"));
        assert_ne!(b.status, SupplyStatus::Supplied, "{b:?}");
        assert!(b.note.as_ref().unwrap().contains("supplies other units"));
        let toul = s.get("toul").unwrap();
        assert_eq!(toul.status, SupplyStatus::Supplied);
        assert!(toul.note.as_ref().unwrap().contains("always supplied"));
        // Metz: any number.
        let mut pieces = pieces;
        pieces[2] = fort("metz", Side::French, "1106", "Metz", None);
        let s = trace(&m, &rules, &pieces, Side::French, &[]);
        assert_eq!(s.get("a").unwrap().status, SupplyStatus::Supplied);
        assert_eq!(s.get("b").unwrap().status, SupplyStatus::Supplied);
        // Deterministic: the same input, the same answer.
        assert_eq!(s, trace(&m, &rules, &pieces, Side::French, &[]));
    }

    /// SPI-E2 (EB units): "each EB unit may move four hexes ... along an Enemy rail line, and, by
    /// doing so, extend the point from which a supply line may be traced. This line must have
    /// been passed over by EB units describing a path leading back to the Player's Home Country,
    /// and not have been passed over by an Enemy Combat Unit since being secured by the EB unit."
    /// A German rail line from 1204 west into France along row 04, secured 1104-0704: the German
    /// far to the west draws on it; a gap in the secured hexes, or an enemy unit on the line, cuts
    /// off what lies beyond; a cut marker in France (a French line's) does not.
    #[test]
    fn a_secured_line_leading_back_home_is_a_source() {
        let text = format!(
            "{MAP}\n[[rail]]\npath = [\"1204\", \"1104\", \"1004\", \"0904\", \"0804\", \"0704\"]\n"
        );
        let m = Map::from_source("t.toml", &text).unwrap();
        let far = vec![unit("de", Side::German, "0106")];
        let secured = |cells: &[&str]| BoardMarks {
            secured: cells.iter().map(|c| h(c)).collect(),
            ..BoardMarks::default()
        };
        let line = ["1104", "1004", "0904", "0804", "0704"];
        // Without the line: too far from the "S".
        let s = trace_marked(&m, &spi(), &far, Side::German, &secured(&[]));
        assert_ne!(s.get("de").unwrap().status, SupplyStatus::Supplied);
        // With it: supplied from its western end.
        let s = trace_marked(&m, &spi(), &far, Side::German, &secured(&line));
        let t = s.get("de").unwrap();
        assert_eq!(t.status, SupplyStatus::Supplied, "{t:?}");
        let src = t.source.as_ref().unwrap();
        assert_eq!((src.kind, src.cell.as_str()), (SourceKind::Secured, "0704"));
        assert_eq!(src.kind.as_str(), "secured rail line");
        // A cut marker in France is the French line's: the German's secured line runs on.
        let mut marks = secured(&line);
        marks.cuts.push(h("0904"));
        let s = trace_marked(&m, &spi(), &far, Side::German, &marks);
        assert_eq!(s.get("de").unwrap().status, SupplyStatus::Supplied);
        // A gap (1104 no longer secured): the rest leads back to nothing.
        let s = trace_marked(&m, &spi(), &far, Side::German, &secured(&line[1..]));
        let t = s.get("de").unwrap();
        assert_ne!(t.status, SupplyStatus::Supplied, "{t:?}");
        assert!(s.sources.iter().all(|x| x.kind != SourceKind::Secured));
        // An enemy unit on 1004: the line stops there.
        let with_enemy = vec![
            unit("de", Side::German, "0106"),
            unit("fr", Side::French, "1004"),
        ];
        let s = trace_marked(&m, &spi(), &with_enemy, Side::German, &secured(&line));
        let ends: Vec<&str> = s
            .sources
            .iter()
            .filter(|x| x.kind == SourceKind::Secured)
            .map(|x| x.cell.as_str())
            .collect();
        assert_eq!(ends, ["1104"]);
        // The French have no line of the Germans': a secured hex in France is not theirs.
        let fr = vec![unit("fr", Side::French, "1106")];
        let s = trace_marked(&m, &spi(), &fr, Side::French, &secured(&line));
        assert!(s.sources.iter().all(|x| x.kind != SourceKind::Secured));
    }
}
