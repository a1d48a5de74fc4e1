//! 1870 on a map (issue 42): its movement (FR-M1, Titles B and D) and its supply (FR-F4) declared
//! as data for the map's search and trace (`RuleSet::board_rules`, `RuleSet::supply_rules`). The
//! terrain's costs are the club's table entered with the map (the text does not print it, FR-M1):
//! unknown until entered, and said so in every answer.

use kepi_game::engine::game::CellMarkerKind;
use kepi_game::engine::play::board::{BoardRules, UnitRoles};
use kepi_game::engine::play::supply::{SupplyDecl, SupplyRoles};
use kepi_game::map::supply::SupplyRules;
use kepi_game::map::{Country, MoveRules, Side, ZocRules};
use kepi_game::roster::Arm;

/// D2: "To enter a cell controlled by an enemy unit, a unit must spend 1 additional point of
/// movement potential."
pub const ZOC_ENTER_MP: u32 = 1;

/// Counters that are not units (markers: "Markers have a stacking value of zero", C2): they
/// control no cell and bar no move.
const NOT_UNITS: &[Arm] = &[Arm::Railway, Arm::Dummy, Arm::Headquarters];

/// Every arm a 1870 card may have: none keeps the enemy's control out of its cell (D7: "for each
/// player, the cell is controlled by the enemy").
const EVERY_ARM: &[Arm] = super::card::ARMS;

/// FR-G1 (G3): "Markers are at the disposal of the players to indicate possession of the sections
/// of the networks"; the situations place "an A marker on the cells ... to indicate the French
/// railway sections at the disposal of the German player". The A marker: the rail section
/// through the cell is the German player's.
pub const POSSESSION_GERMAN: CellMarkerKind = CellMarkerKind {
    name: "possession-german",
    label: "German possession (A)",
    tag: "A",
    rule: "FR-G1",
    what: "an A marker: the rail section through this cell is at the German player's disposal \
           (G3), for rail transport and supply lines (FR-F4)",
};

/// FR-G1 (G3): the French player's possession marker (F): the rail section through the cell, in
/// Germany, is the French player's.
pub const POSSESSION_FRENCH: CellMarkerKind = CellMarkerKind {
    name: "possession-french",
    label: "French possession (F)",
    tag: "F",
    rule: "FR-G1",
    what: "an F marker: the rail section through this cell is at the French player's disposal \
           (G3), for rail transport and supply lines (FR-F4)",
};

/// FR-G1 (G3): "the invader becomes master of a railway cell as soon as one of his units has
/// passed over that cell or occupied it". A German unit has passed over or occupied this rail
/// cell of France ([`move_effects`] puts it where a German move ends and along the rail line it
/// followed).
pub const PASSAGE_GERMAN: CellMarkerKind = CellMarkerKind {
    name: "passage-german",
    label: "German passage",
    tag: "a",
    rule: "FR-G1",
    what: "a German unit has passed over or occupied this rail cell of France (G3): the section            is at the German player's disposal once every cell of it is his and it joins his            network; until then it is neutralised, no one's (FR-F4)",
};

/// FR-G1 (G3): a French unit has passed over or occupied this rail cell of Germany.
pub const PASSAGE_FRENCH: CellMarkerKind = CellMarkerKind {
    name: "passage-french",
    label: "French passage",
    tag: "f",
    rule: "FR-G1",
    what: "a French unit has passed over or occupied this rail cell of Germany (G3): the section            is at the French player's disposal once every cell of it is his and it joins his            network; until then it is neutralised, no one's (FR-F4)",
};

/// The possession and passage markers, in the order the rule set declares them.
pub const MARKERS: &[CellMarkerKind] = &[
    POSSESSION_GERMAN,
    POSSESSION_FRENCH,
    PASSAGE_GERMAN,
    PASSAGE_FRENCH,
];

/// A side's home country and its passage marker (G3).
fn passage_of(side: kepi_game::roster::Side) -> (Country, &'static str) {
    match side {
        kepi_game::roster::Side::French => (Country::France, PASSAGE_FRENCH.name),
        kepi_game::roster::Side::German => (Country::Germany, PASSAGE_GERMAN.name),
    }
}

/// FR-G1 (G3): what moving `u` to `to` does to the rail network on the game's map, logged with
/// the move ([`kepi_game::engine::rule_set::RuleSet::move_effects`]): "the invader becomes master
/// of a railway cell as soon as one of his units has passed over that cell or occupied it". A
/// unit's move puts its side's passage marker ([`PASSAGE_GERMAN`], [`PASSAGE_FRENCH`]) on the
/// rail cells of the enemy's country it ends in and, where it ends on a rail line from a cell of
/// the same network and that line is a shortest way between the two cells, on those it passed
/// along it (none twice). Any other way it went is the umpire's to mark (`mark passage-german
/// CELL`). A unit coming onto the map (set up, arriving) is placed, not moved: it passes over
/// nothing; markers (R counters, headquarters) are not units. None without a map.
pub fn move_effects(
    s: &kepi_game::engine::game::GameState,
    u: &kepi_game::engine::game::UnitState,
    to: kepi_game::roster::Position,
) -> Vec<kepi_game::engine::game::Action> {
    use kepi_game::engine::play::board::{hex_in, position_in};
    use kepi_game::map::Feature;
    use kepi_game::roster::Position;
    let Some(map) = s.board() else {
        return Vec::new();
    };
    if to == u.position || u.eliminated() || u.position == Position::Off {
        return Vec::new();
    }
    if NOT_UNITS.contains(&u.unit.arm) {
        return Vec::new();
    }
    let layout = map.grid.layout;
    let (Some(from), Some(dest)) = (
        hex_in(u.position, layout).filter(|h| map.on_map(*h)),
        hex_in(to, layout).filter(|h| map.on_map(*h)),
    ) else {
        return Vec::new();
    };
    let (_, kind) = passage_of(u.unit.side);
    let (enemy, _) = passage_of(u.unit.side.other());
    let along = map.way_along(from, dest, Feature::Rail);
    let cells = if along.len() == from.distance(dest) as usize {
        along
    } else if map.touches(dest, Feature::Rail) {
        vec![dest]
    } else {
        Vec::new()
    };
    cells
        .into_iter()
        .filter(|h| map.country_of(*h) == Some(enemy))
        .filter_map(|h| position_in(h, layout))
        .filter(|p| !s.marked(kind, *p))
        .map(|p| kepi_game::engine::game::Action::Mark {
            kind: kind.to_string(),
            cell: p,
            on: true,
        })
        .collect()
}

/// FR-M1 on a map:
///
/// - D1: "The 6 cells surrounding the cell occupied by a unit are controlled cells of that
///   unit"; H8: "An unbesieged fortress, even if unoccupied, controls the 6 adjacent cells".
/// - D2: "To enter a cell controlled by an enemy unit, a unit must spend 1 additional point";
///   D3: "not obliged to stop its movement"; D4: "To leave a cell controlled by the enemy, no
///   additional potential is to be spent"; D5: "may leave a cell controlled by the enemy and
///   enter directly another cell controlled by the enemy"; D7: a cell controlled by both sides
///   is, "for each player, ... controlled by the enemy".
/// - B8: "A unit may never enter a cell occupied by an enemy unit."
/// - The costs per cell and cell boundary: the club's Terrain Table, entered with the map.
pub fn board_rules() -> BoardRules {
    BoardRules {
        moves: MoveRules {
            first_only: Vec::new(),
            zoc: Some(ZocRules {
                enter: ZOC_ENTER_MP,
                leave: 0,
                stop: false,
                rigid: false,
                not_across: Vec::new(),
                rule: "FR-M1".into(),
            }),
            stack: None,
            closed: Vec::new(),
            closed_rule: String::new(),
            enemy_rule: "FR-M1".into(),
            not_applied: vec![
                "the stacking limit (C2: 4 units a cell, \"taken into account only at the end of \
                 the Movement Phase\"): not checked by the reach"
                    .into(),
                "a besieged fortress's control (H8: it \"no longer controls\" its cells) and the \
                 besiegers' (H7): counted as any unit's"
                    .into(),
                "rail transport (FR-G1): the reach is on foot; `rail` moves by the section".into(),
            ],
        },
        roles: UnitRoles {
            no_zoc: NOT_UNITS,
            in_transit: None,
            no_zoc_beside: &[],
            passable: NOT_UNITS,
            no_stack: EVERY_ARM,
            stack_free: &[],
            no_shield: EVERY_ARM,
        },
    }
}

/// FR-F1 (H11): "a number of units equal to the coefficient of the fortress may be considered as
/// supplied by the fortress"; FR-F4: "any unit besieged in a fortified camp (Metz and Paris) is
/// considered as supplied": a fortified camp (the map's kind, or Metz and Paris by name) supplies
/// every unit in it, a fortress as many as its value (its card's strength).
fn capacity(name: &str, value: u32, camp: bool) -> Option<u32> {
    let named = ["metz", "paris"].contains(&name.trim().to_lowercase().as_str());
    (!(camp || named)).then_some(value)
}

/// FR-F4 on a map:
///
/// - "Any unit able to establish with its logistic base a line of communication consisting of a
///   series of cells controlled or occupied by friendly units is considered as supplied. Cells
///   controlled or occupied by friendly units may be replaced by a railway link consisting of any
///   number of sections at the player's disposal" (G2, G3: in friendly territory, while "no cell
///   of the section" is "occupied or controlled by the other player").
/// - "The logistic base of the German player consists of the eastern and northern edges of the
///   map"; the French, "the southern edge of the map; the western edge of the map; the ports":
///   the map's supply edges of each side and its ports.
/// - "The length of the line of communication is of no importance, nor is its shape. The line of
///   communication is cut as soon as an enemy unit occupies or controls one of its cells ... A
///   cell controlled by the enemy but occupied by a friendly unit ensures logistic
///   communication."
/// - F5: "Any unit unable to establish a line ... is considered as not supplied" (no isolated
///   state); the fortified camps' besieged and H11's garrisons as [`capacity`] says.
pub fn supply_rules() -> SupplyDecl {
    SupplyDecl {
        rules: SupplyRules {
            supplied: u32::MAX,
            unsupplied: u32::MAX,
            zoc: board_rules().moves.zoc,
            interdiction: 0,
            rail_home: Vec::new(),
            rule: "FR-F4".into(),
            source_rule: "FR-F4".into(),
            interdiction_rule: String::new(),
            not_applied: vec![
                "the invader's rail sections (FR-G1 G3): his possession markers (`mark \
                 possession-german CELL`), and the cells his units passed over: kepi marks where \
                 a move ends and the rail line it followed where that is a shortest way; any \
                 other way is the umpire's to mark (`mark passage-german CELL`)"
                    .into(),
                "a besieged fortress's control (H8) and the besiegers' (H7): counted as any \
                 unit's"
                    .into(),
            ],
            own_line: Some("FR-F4".into()),
            rail_line: vec![
                (Side::French, Country::France),
                (Side::German, Country::Germany),
            ],
            secured: None,
            ports: vec![Side::French],
            forts_inside: true,
            // FR-F4: the text counts in cells.
            cell_words: ["cell", "cells"],
        },
        roles: SupplyRoles {
            forts: &[Arm::Fortress],
            untraced: NOT_UNITS,
            capacity,
            occupied_shields: true,
            cut_marker: None,
            possession_markers: &[
                (POSSESSION_GERMAN.name, kepi_game::roster::Side::German),
                (POSSESSION_FRENCH.name, kepi_game::roster::Side::French),
            ],
            passage_markers: &[
                (PASSAGE_GERMAN.name, kepi_game::roster::Side::German),
                (PASSAGE_FRENCH.name, kepi_game::roster::Side::French),
            ],
            secured_marker: None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kepi_game::hex::{Hex, Layout};
    use kepi_game::map::Map;
    use kepi_game::map::supply::{Fort, ObstacleKind, Piece, SourceKind, SupplyStatus, trace};

    /// A 1870 test board, 8 x 5 cells (even columns half a cell lower), France throughout: the
    /// French logistic base the west edge (column 01) and the port of Portville (0501), the
    /// German the east edge (column 08); a rail section along row 03 from the west edge to 0603;
    /// a fortified camp at 0801 (Metz) and a fortress at 0805 (Toul).
    const MAP: &str = r#"[map]
name = "FR-F4 test"
rules = "fr1870"
layout = "even-q"
first = "0101"
last = "0805"
default_terrain = "clear"
default_country = "france"

[provenance]
source = "club"
drawn_by = "a test"
from = "nothing"

[[terrain]]
name = "clear"

[[rail]]
name = "Ligne"
section = "West - Centre"
capacity = 2
path = ["0103", "0203", "0303", "0403", "0503", "0603"]

[[place]]
name = "Portville"
cell = "0501"
kind = "port"

[[place]]
name = "Metz"
cell = "0801"
kind = "fortified-camp"

[[place]]
name = "Toul"
cell = "0805"
kind = "fortress"

[[edge]]
role = "supply"
side = "french"
name = "the west edge"
cells = ["0101-0105"]

[[edge]]
role = "supply"
side = "german"
name = "the east edge"
cells = ["0801-0805"]
"#;

    /// A 1870 test board, 8 x 5 cells, France west of column 06 and Germany from it, the
    /// logistic bases the west (French) and east (German) edges; three rail sections along row
    /// 03: Ost in Germany, Grenze across the border, Innen in France.
    const MAP_ACROSS: &str = r#"[map]
name = "G3 test"
rules = "fr1870"
layout = "even-q"
first = "0101"
last = "0805"
default_terrain = "clear"
default_country = "france"

[provenance]
source = "club"
drawn_by = "a test"
from = "nothing"

[countries]
germany = ["0601-0805"]

[[terrain]]
name = "clear"

[[rail]]
name = "Ligne"
section = "Ost"
path = ["0803", "0703", "0603"]

[[rail]]
name = "Ligne"
section = "Grenze"
path = ["0603", "0503", "0403"]

[[rail]]
name = "Ligne"
section = "Innen"
path = ["0403", "0303", "0203", "0103"]

[[edge]]
role = "supply"
side = "french"
name = "the west edge"
cells = ["0101-0105"]

[[edge]]
role = "supply"
side = "german"
name = "the east edge"
cells = ["0801-0805"]
"#;

    fn h(label: &str) -> Hex {
        Hex::from_label(label, Layout::EvenQ).unwrap()
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

    fn fort(id: &str, at: &str, name: &str, value: u32, camp: bool) -> Piece {
        Piece {
            traces: false,
            fort: Some(Fort {
                name: name.into(),
                capacity: capacity(name, value, camp),
            }),
            ..unit(id, Side::French, at)
        }
    }

    /// The board without its rail section.
    fn without_rail() -> Map {
        let text = MAP.replace(
            "path = [\"0103\", \"0203\", \"0303\", \"0403\", \"0503\", \"0603\"]",
            "path = [\"0704\", \"0705\"]",
        );
        Map::from_source("t.toml", &text).unwrap()
    }

    fn status(m: &Map, pieces: &[Piece], id: &str) -> SupplyStatus {
        let side = pieces.iter().find(|p| p.id == id).unwrap().side;
        trace(m, &supply_rules().rules, pieces, side, &[])
            .get(id)
            .unwrap()
            .status
    }

    /// FR-F4: "Any unit able to establish with its logistic base a line of communication
    /// consisting of a series of cells controlled or occupied by friendly units is considered as
    /// supplied"; "The length of the line of communication is of no importance"; F5: "Any unit
    /// unable to establish a line of communication ... is considered as not supplied" (not
    /// isolated: 1870 has two states).
    #[test]
    fn a_line_runs_through_cells_friendly_units_occupy_or_control() {
        let m = without_rail();
        let chain = vec![
            unit("a", Side::French, "0203"),
            unit("b", Side::French, "0403"),
            unit("c", Side::French, "0603"),
        ];
        let s = trace(&m, &supply_rules().rules, &chain, Side::French, &[]);
        let c = s.get("c").unwrap();
        assert_eq!(c.status, SupplyStatus::Supplied);
        assert_eq!(c.path.first().map(String::as_str), Some("0603"));
        assert_eq!(c.source.as_ref().unwrap().kind, SourceKind::Edge);
        assert_eq!(s.rules, vec!["FR-F4".to_string(), "FR-M1".to_string()]);
        // Alone, the same unit has no line: not supplied, and the answer says why.
        let alone = vec![unit("c", Side::French, "0603")];
        let s = trace(&m, &supply_rules().rules, &alone, Side::French, &[]);
        let c = s.get("c").unwrap();
        assert_eq!(c.status, SupplyStatus::Unsupplied);
        assert!(
            c.interdicts
                .iter()
                .any(|o| o.what == ObstacleKind::Uncontrolled && o.rule == "FR-F4"),
            "{:?}",
            c.interdicts
        );
    }

    /// FR-F4: "The line of communication is cut as soon as an enemy unit occupies or controls one
    /// of its cells, wherever that may be. A cell controlled by the enemy but occupied by a
    /// friendly unit ensures logistic communication."
    #[test]
    fn enemy_control_cuts_a_line_unless_a_friendly_unit_stands_in_the_cell() {
        let m = without_rail();
        let mut pieces = vec![
            unit("a", Side::French, "0203"),
            unit("b", Side::French, "0403"),
            unit("c", Side::French, "0603"),
        ];
        assert_eq!(status(&m, &pieces, "c"), SupplyStatus::Supplied);
        // A German unit between a and b: in 0304, controlling 0303 (the other way).
        pieces.push(unit("de", Side::German, "0304"));
        let cut = status(&m, &pieces, "c");
        // A French unit in 0303 keeps the line, the enemy's control notwithstanding.
        pieces.push(unit("d", Side::French, "0303"));
        let kept = status(&m, &pieces, "c");
        assert_eq!(
            (cut, kept),
            (SupplyStatus::Unsupplied, SupplyStatus::Supplied)
        );
    }

    /// FR-F4: "Cells controlled or occupied by friendly units may be replaced by a railway link
    /// consisting of any number of sections at the player's disposal"; G2: "For a railway (or a
    /// section) to be at the disposal of a player, no cell of the section must be occupied or
    /// controlled by the other player."
    #[test]
    fn a_rail_section_at_the_players_disposal_carries_the_line() {
        let m = Map::from_source("t.toml", MAP).unwrap();
        let mut pieces = vec![unit("c", Side::French, "0603")];
        assert_eq!(status(&m, &pieces, "c"), SupplyStatus::Supplied);
        let s = trace(&m, &supply_rules().rules, &pieces, Side::French, &[]);
        assert_eq!(s.get("c").unwrap().path.len(), 6, "along the section");
        // A German unit next to the section: no longer at the French player's disposal.
        pieces.push(unit("de", Side::German, "0402"));
        assert_eq!(status(&m, &pieces, "c"), SupplyStatus::Unsupplied);
    }

    /// FR-G1 (G3): "the invader becomes master of a railway cell as soon as one of his units has
    /// passed over that cell or occupied it ... A section is at the disposal of the invader when
    /// his units have passed over the cells containing the railways and the section is connected
    /// to the network of friendly territory. If the section has only been occupied but not
    /// connected to friendly territory, the section is neutralised: it cannot be used by the
    /// invader, but the invaded player may no longer use it either." Germany east of column 05;
    /// sections Ost (0803-0603, Germany), Grenze (0603-0403, across the border) and Innen
    /// (0403-0103, France). The German at 0202 has a line once his units have passed over every
    /// French cell of Grenze and Innen; over Innen alone, Innen is joined to nothing: not his,
    /// and no longer the French unit's at 0404 either.
    #[test]
    fn a_section_the_invader_passed_over_is_his_once_joined_to_his_network() {
        use kepi_game::map::supply::{BoardMarks, trace_marked};
        let text = MAP_ACROSS;
        let m = Map::from_source("t.toml", text).unwrap();
        let rules = supply_rules().rules;
        let passed = |cells: &[&str]| BoardMarks {
            passed: cells.iter().map(|c| (Side::German, h(c))).collect(),
            ..BoardMarks::default()
        };
        let german = |marks: &BoardMarks| {
            let de = vec![unit("de", Side::German, "0202")];
            trace_marked(&m, &rules, &de, Side::German, marks)
                .get("de")
                .unwrap()
                .status
        };
        let french = |marks: &BoardMarks| {
            let fr = vec![unit("fr", Side::French, "0404")];
            trace_marked(&m, &rules, &fr, Side::French, marks)
                .get("fr")
                .unwrap()
                .status
        };
        assert_eq!(german(&passed(&[])), SupplyStatus::Unsupplied);
        assert_eq!(french(&passed(&[])), SupplyStatus::Supplied);
        let all = passed(&["0103", "0203", "0303", "0403", "0503"]);
        assert_eq!(german(&all), SupplyStatus::Supplied);
        assert_eq!(french(&all), SupplyStatus::Unsupplied);
        // Innen passed over, Grenze not (0503): Innen is neutralised.
        let innen = passed(&["0103", "0203", "0303", "0403"]);
        assert_eq!(german(&innen), SupplyStatus::Unsupplied);
        assert_eq!(french(&innen), SupplyStatus::Unsupplied);
        // One cell of Innen passed over: neutralised for the French too.
        assert_eq!(french(&passed(&["0303"])), SupplyStatus::Unsupplied);
        // A possession marker says so whatever was passed over.
        let marked = BoardMarks {
            held: vec![(Side::German, h("0303"))],
            ..BoardMarks::default()
        };
        assert_eq!(french(&marked), SupplyStatus::Unsupplied);
    }

    /// FR-F4: the French logistic base includes "the ports of Dunkerque, Calais, Boulogne,
    /// Dieppe, Le Havre and Caen": the map's ports are French sources, not German ones.
    #[test]
    fn the_french_ports_are_french_sources() {
        let m = without_rail();
        let fr = vec![unit("c", Side::French, "0601")];
        let s = trace(&m, &supply_rules().rules, &fr, Side::French, &[]);
        let c = s.get("c").unwrap();
        assert_eq!(c.status, SupplyStatus::Supplied);
        assert_eq!(c.source.as_ref().unwrap().kind, SourceKind::Port);
        let de = vec![unit("g", Side::German, "0601")];
        assert_eq!(status(&m, &de, "g"), SupplyStatus::Unsupplied);
    }

    /// FR-F4: "any unit besieged in a fortified camp (Metz and Paris) is considered as supplied";
    /// FR-F1 (H11): "a fortress of value 2, if occupied by 4 units, will automatically supply 2,
    /// the other 2 not being supplied". A fortress supplies the units in it, not a line traced to
    /// it.
    #[test]
    fn a_camp_supplies_its_besieged_and_a_fortress_as_many_as_its_value() {
        let m = without_rail();
        let pieces = vec![
            fort("metz", "0801", "Metz", 3, true),
            unit("m1", Side::French, "0801"),
            unit("m2", Side::French, "0801"),
            unit("m3", Side::French, "0801"),
            unit("m4", Side::French, "0801"),
            fort("toul", "0805", "Toul", 2, false),
            unit("t1", Side::French, "0805"),
            unit("t2", Side::French, "0805"),
            unit("t3", Side::French, "0805"),
            unit("near", Side::French, "0703"),
        ];
        let s = trace(&m, &supply_rules().rules, &pieces, Side::French, &[]);
        let st = |id: &str| s.get(id).unwrap().status;
        for id in ["m1", "m2", "m3", "m4"] {
            assert_eq!(st(id), SupplyStatus::Supplied, "{id} in the camp");
        }
        let in_toul = ["t1", "t2", "t3"]
            .iter()
            .filter(|id| st(id) == SupplyStatus::Supplied)
            .count();
        assert_eq!(in_toul, 2, "a fortress of value 2 supplies 2");
        assert_eq!(st("near"), SupplyStatus::Unsupplied, "not by a line to it");
    }
}
