//! Moved from `src/game/map/reach.rs` (its unit tests that play a rule set).

mod tests {
    use kepi_game::map::reach::*;

    use kepi_game::hex::Layout;
    use kepi_game::hex::{Direction, Hex};
    use kepi_game::map::Map;

    /// A small SPI map, 5 x 5, where the chart gives costs: clear 1, river +1, ridge 0.
    const SPI: &str = r#"[map]
name = "reach test"
rules = "spi"
first = "0101"
last = "0505"
default_terrain = "clear"

[provenance]
source = "club"
drawn_by = "a test"
from = "nothing"
"#;

    fn h(label: &str) -> Hex {
        Hex::from_label(label, Layout::OddQ).unwrap()
    }

    fn map(extra: &str) -> Map {
        Map::from_source("t.toml", &format!("{SPI}{extra}")).unwrap()
    }

    fn cost(r: &Reach, label: &str) -> Option<u32> {
        r.get(h(label)).map(|c| c.cost)
    }

    #[test]
    fn clear_cells_cost_one_each_within_the_allowance() {
        let m = map("");
        let r = reach(&m, h("0303"), 2, &[]).unwrap();
        // Two rings around 0303 on an open 5 x 5 board: 6 + 12 cells.
        assert_eq!(r.cells.len(), 18);
        assert_eq!(cost(&r, "0302"), Some(1));
        assert_eq!(cost(&r, "0301"), Some(2));
        assert_eq!(r.get(h("0301")).unwrap().steps, 2);
        assert_eq!(r.get(h("0301")).unwrap().via, "0302");
        assert_eq!(cost(&r, "0303"), None, "the start is left out");
        assert!(r.unknown.is_empty() && r.lacking.is_empty());
        assert_eq!(r.rules, vec!["SPI-M1".to_string()]);
        assert!(r.not_applied.iter().any(|s| s.contains("zones of control")));
        // Off the map is never entered: from a corner, fewer cells.
        let c = reach(&m, h("0101"), 1, &[]).unwrap();
        assert_eq!(c.cells.len(), 3, "0102, 0201, 0202: {:?}", c.cells);
    }

    #[test]
    fn a_river_adds_one_and_a_bridge_does_not_cancel_it() {
        // The river runs along 0303's north side.
        let m = map("[[river]]\nsides = [\"0303:n\"]\n[[bridge]]\nsides = [\"0303:n\"]\n");
        let r = reach(&m, h("0303"), 2, &[]).unwrap();
        assert_eq!(cost(&r, "0302"), Some(2), "clear 1 + river 1 (SPI-M1)");
        assert_eq!(cost(&r, "0304"), Some(1));
        assert!(r.not_applied.iter().any(|s| s.starts_with("bridges")));
        let r = reach(&m, h("0303"), 1, &[]).unwrap();
        assert_eq!(cost(&r, "0302"), None, "more than remain: not entered");
    }

    #[test]
    fn rough_has_no_single_cost_and_is_reported_not_expanded() {
        let m = map("[cells]\nrough = [\"0302\"]\n");
        let r = reach(&m, h("0303"), 3, &[]).unwrap();
        assert_eq!(cost(&r, "0302"), None);
        let u = r.unknown.iter().find(|u| u.cell == "0302").unwrap();
        assert_eq!(
            (u.spent, u.steps, u.lacking.clone()),
            (0, 1, vec!["rough".into()])
        );
        assert_eq!(r.lacking, vec!["rough".to_string()]);
        // 0301 is reached round the rough cell: 3 MP.
        assert_eq!(cost(&r, "0301"), Some(3));
    }

    #[test]
    fn enemy_cells_are_not_entered_and_named() {
        let m = map("");
        let r = reach(&m, h("0303"), 2, &[h("0302")]).unwrap();
        assert_eq!(cost(&r, "0302"), None);
        assert_eq!(r.enemy, vec!["0302".to_string()]);
        assert_eq!(
            cost(&r, "0301"),
            None,
            "two cells away only through the enemy"
        );
        let r = reach(&m, h("0303"), 3, &[h("0302")]).unwrap();
        assert_eq!(cost(&r, "0301"), Some(3), "around it, by 0203 and 0202");
    }

    #[test]
    fn a_table_without_costs_gives_none_and_invents_none() {
        // 1870 without the club's table: every terrain unknown (FR-M1).
        let m = Map::from_source("t.toml", &SPI.replace("\"spi\"", "\"fr1870\"")).unwrap();
        let r = reach(&m, h("0303"), 5, &[]).unwrap();
        assert!(r.cells.is_empty());
        assert_eq!(r.unknown.len(), 6);
        assert_eq!(r.lacking, vec!["clear".to_string()]);
        // The PW example: clear is one hex (PW-G1), cover and the brook are not in the text.
        let m = Map::named("example-pw").unwrap();
        let r = reach(&m, h("0402"), 2, &[]).unwrap();
        let u = r.unknown.iter().find(|u| u.cell == "0503").unwrap();
        assert_eq!((u.spent, u.via.as_str()), (1, "0502"));
        assert_eq!(u.lacking, vec!["cover".to_string()]);
        // 0403 lies across the brook from 0402 (no cost in the text), but is reached by 0502.
        assert_eq!(cost(&r, "0403"), Some(2));
        let r = reach(&m, h("0301"), 1, &[]).unwrap();
        let u = r.unknown.iter().find(|u| u.cell == "0302").unwrap();
        assert_eq!(
            u.lacking,
            vec!["river".to_string()],
            "the brook: not in the text"
        );
        assert_eq!(r.rules, vec!["PW-G1".to_string()]);
    }

    #[test]
    fn off_the_map_start_is_refused() {
        let m = map("");
        let e = reach(&m, h("0909"), 2, &[]).unwrap_err();
        assert_eq!(e.to_string(), "0909 is off the map (0101 to 0505)");
    }
    // ---- issue 42: SPI's movement rules (SPI-M1, SPI-Z1) applied, as the set declares them.

    fn spi_rules() -> MoveRules {
        crate::spi::set::board_rules().moves
    }

    fn enemy(label: &str, zoc: bool) -> EnemyAt {
        EnemyAt {
            hex: h(label),
            bars: true,
            zoc,
        }
    }

    fn under(m: &Map, from: &str, mp: u32, units: &Units, paid: &[&str]) -> Reach {
        let paid: Vec<String> = paid.iter().map(|s| s.to_string()).collect();
        reach_under(m, h(from), mp, Some(&spi_rules()), units, &paid).unwrap()
    }

    /// SPI-M1, the Terrain Effects Chart: rough is "two additional M.P.'s for first such hex
    /// entered in a given Movement Phase; nothing additional thereafter in that Movement Phase".
    #[test]
    fn rough_costs_two_more_on_the_first_such_hex_of_the_phase_only() {
        // 0302 and 0301 rough, north of 0303 in a line.
        let m = map("[cells]\nrough = [\"0302\", \"0301\"]\n");
        let r = under(&m, "0303", 8, &Units::default(), &[]);
        assert_eq!(cost(&r, "0302"), Some(3), "1 + 2 for the first rough hex");
        assert_eq!(r.get(h("0302")).unwrap().paid, vec!["rough".to_string()]);
        assert_eq!(cost(&r, "0301"), Some(4), "the second: nothing additional");
        assert!(r.unknown.is_empty(), "rough has a cost under the rules");
        assert_eq!(r.rules, vec!["SPI-M1".to_string(), "SPI-Z1".to_string()]);
        assert!(r.movement_rules);
        assert!(
            r.not_applied
                .iter()
                .any(|s| s.starts_with("rail movement (SPI-L1)"))
        );
        assert!(
            !r.not_applied
                .iter()
                .any(|s| s.starts_with("zones of control"))
        );
        // Paid earlier this phase: one point each.
        let r = under(&m, "0303", 8, &Units::default(), &["rough"]);
        assert_eq!((cost(&r, "0302"), cost(&r, "0301")), (Some(1), Some(2)));
        // Exact, not greedy: with 3 MP, 0302 (3) is reached, 0301 (4) is not.
        let r = under(&m, "0303", 3, &Units::default(), &[]);
        assert_eq!((cost(&r, "0302"), cost(&r, "0301")), (Some(3), None));
    }

    /// SPI-Z1 Case A: "all units must cease movement upon entering an Enemy controlled hex";
    /// Case E: "It costs three additional Movement Points to enter an Enemy controlled hex".
    #[test]
    fn a_zone_of_control_costs_three_more_and_stops_the_move() {
        let m = map("");
        let units = Units {
            enemy: vec![enemy("0305", true)],
            friends: Vec::new(),
        };
        let r = under(&m, "0303", 8, &units, &[]);
        let zoc: Vec<Hex> = Direction::ALL
            .iter()
            .map(|d| h("0305").neighbour(*d))
            .collect();
        assert_eq!(cost(&r, "0304"), Some(4), "1 + 3 to enter");
        assert!(r.get(h("0304")).unwrap().zoc);
        assert_eq!(cost(&r, "0305"), None, "Case I: the enemy's hex");
        assert_eq!(r.enemy, vec!["0305".to_string()]);
        // Every controlled cell reached is a stop: no cell is entered from one.
        for c in r.cells.iter().filter(|c| c.zoc) {
            assert!(zoc.contains(&c.hex), "{} is next to 0305", c.cell);
            assert!(
                r.cells.iter().all(|o| o.via != c.cell),
                "nothing entered from {} (rigid)",
                c.cell
            );
        }
        assert_eq!(r.zoc.len(), zoc.iter().filter(|x| m.on_map(**x)).count());
        assert!(!r.from_zoc);
    }

    /// SPI-Z1: "Enemy units may not move directly from one Friendly controlled hex to another";
    /// Case E: "one additional to leave".
    #[test]
    fn no_move_from_one_controlled_hex_to_another_and_leaving_costs_one() {
        let m = map("");
        let units = Units {
            enemy: vec![enemy("0301", true)],
            friends: Vec::new(),
        };
        // 0302 is next to 0301: it starts controlled.
        let r = under(&m, "0302", 8, &units, &[]);
        assert!(r.from_zoc);
        for d in Direction::ALL {
            let n = h("0302").neighbour(d);
            let both = h("0301").distance(n) == 1;
            match r.get(n) {
                Some(c) if both => {
                    assert_ne!(
                        c.via, "0302",
                        "{} is controlled too: not entered directly",
                        c.cell
                    );
                    assert!(c.cost >= 1 + 1 + 1 + 3, "round by a free cell: {c:?}");
                }
                Some(c) => assert_eq!(c.cost, 2, "1 + 1 to leave"),
                None => assert!(both || n == h("0301") || !m.on_map(n)),
            }
        }
    }

    /// SPI-Z1 Case B: "Zones of Control do not extend across river hexsides" (the chart: "Zones
    /// of Control do not extend through river hexsides").
    #[test]
    fn a_zone_of_control_does_not_extend_across_a_river() {
        // The river runs along 0303's south side; the enemy stands at 0303.
        let m = map("[[river]]\nsides = [\"0303:s\"]\n");
        let units = Units {
            enemy: vec![enemy("0303", true)],
            friends: Vec::new(),
        };
        let r = under(&m, "0305", 8, &units, &[]);
        let c = r.get(h("0304")).unwrap();
        assert_eq!(
            (c.cost, c.zoc),
            (1, false),
            "across the river: not controlled"
        );
        assert!(!r.zoc.contains(&"0304".to_string()));
        assert!(r.zoc.contains(&"0302".to_string()));
        // 0304 is no stop: 0304's other cells are reached on from it.
        assert!(r.cells.iter().any(|o| o.via == "0304"));
    }

    /// SPI-Z1 Case C: "Only unentrained Combat Units have a Zone of Control"; SPI-E1 (EB Case D):
    /// EB units "have no Zones of Control, nor do they impede Enemy movement".
    #[test]
    fn units_without_a_zone_of_control_and_eb_units_entered() {
        let m = map("");
        // An entrained unit: no zone, but its hex is not entered (a combat unit).
        let units = Units {
            enemy: vec![enemy("0305", false)],
            friends: Vec::new(),
        };
        let r = under(&m, "0303", 8, &units, &[]);
        assert_eq!(cost(&r, "0304"), Some(1));
        assert!(r.zoc.is_empty());
        assert_eq!(cost(&r, "0305"), None);
        // An EB unit: no zone, and its hex is entered.
        let units = Units {
            enemy: vec![EnemyAt {
                hex: h("0305"),
                bars: false,
                zoc: false,
            }],
            friends: Vec::new(),
        };
        let r = under(&m, "0303", 8, &units, &[]);
        assert_eq!(cost(&r, "0305"), Some(2));
        assert!(r.enemy.is_empty());
        // Without the rules every enemy cell is barred, as before.
        let r = reach_under(&m, h("0303"), 8, None, &units, &[]).unwrap();
        assert_eq!(cost(&r, "0305"), None);
    }

    /// SPI-M1 (Basic Game): "Units may never enter Belgium or Luxemburg, in this Basic Game."
    #[test]
    fn belgium_and_luxembourg_are_closed() {
        let src = format!(
            "{}[countries]\nbelgium = [\"0101-0501\"]\nluxembourg = [\"0105\"]\n",
            SPI.replace(
                "default_terrain",
                "default_country = \"france\"\ndefault_terrain"
            )
        );
        let m = Map::from_source("t.toml", &src).unwrap();
        let r = under(&m, "0303", 8, &Units::default(), &[]);
        for closed in ["0101", "0301", "0501", "0105"] {
            assert_eq!(cost(&r, closed), None, "{closed} is closed");
        }
        assert!(r.closed.contains(&"0301".to_string()), "{:?}", r.closed);
        assert_eq!(r.cells.len(), 25 - 1 - 6, "{:?}", r.cells);
        // Without the rules (a set that declares none) they are entered.
        let r = reach(&m, h("0303"), 8, &[]).unwrap();
        assert_eq!(cost(&r, "0301"), Some(2));
    }

    /// SPI-M1 Case K: "two additional Movement Points to move onto, and two additional Movement
    /// Points to move off of, a Friendly Unit"; SPI-Z1 Case F: "Enemy Zones of Control never
    /// extend into hexes occupied by Friendly Combat Units".
    #[test]
    fn stacking_costs_two_on_and_two_off_and_friends_shield_from_zones() {
        let m = map("");
        let friend = |stack, shields| FriendAt {
            hex: h("0302"),
            stack,
            shields,
        };
        let units = Units {
            enemy: Vec::new(),
            friends: vec![friend(true, true)],
        };
        let r = under(&m, "0303", 8, &units, &[]);
        assert_eq!(cost(&r, "0302"), Some(3), "1 + 2 onto");
        // Starting on a friend: 2 off.
        let mut on = units.clone();
        on.friends[0].hex = h("0303");
        let r = under(&m, "0303", 8, &on, &[]);
        assert_eq!(cost(&r, "0302"), Some(3), "1 + 2 off");
        // Not paid for (an entrained or EB unit): 1.
        let units = Units {
            enemy: Vec::new(),
            friends: vec![friend(false, true)],
        };
        assert_eq!(cost(&under(&m, "0303", 8, &units, &[]), "0302"), Some(1));
        // The friend at 0302 stands next to an enemy at 0301: no zone there.
        let units = Units {
            enemy: vec![enemy("0301", true)],
            friends: vec![friend(false, true)],
        };
        let r = under(&m, "0303", 8, &units, &[]);
        assert_eq!(
            (cost(&r, "0302"), r.get(h("0302")).unwrap().zoc),
            (Some(1), false)
        );
    }
}
