//! Supply in a game, from its map where it carries one (issues 41 and 42): the units read through
//! the rule set's declaration ([`SupplyDecl`], `RuleSet::supply_rules`) into the map's pieces and
//! traced by [`crate::map::supply::trace`], with the umpire's typed state kept apart and winning
//! where typed. What `kepi game supply` prints, the window highlights and SPI's forms read.
//! Without a map (or a rule set that declares no supply on one) supply is the umpire's, as typed,
//! and every answer says so. No rule set is named here.

use serde::Serialize;

use crate::engine::game::{GameState, Supply, UnitState};
use crate::map::supply::{Fort, Piece, SideSupply, SupplyRules, SupplyStatus, Traced};
use crate::map::{Map, PlaceKind};
use crate::roster::{Arm, Position, Side};

use super::board::{BoardRules, hex_in};

/// What a rule set's units are for supply, by arm (the rest as its movement roles say).
#[derive(Clone, Debug)]
pub struct SupplyRoles {
    /// Fortifications: always supplied, sources, zones of interdiction (SPI-S1, SPI-S2, SPI-F1).
    pub forts: &'static [Arm],
    /// Units whose supply is not traced (SPI: EB units, not combat units).
    pub untraced: &'static [Arm],
    /// How many units a fortress supplies, from its name, its card's strength and whether the
    /// map makes its cell a fortified camp; None for any number (SPI-S2: Metz and Strasburg;
    /// FR-F1 H11: its coefficient; FR-F4: a fortified camp's besieged, all).
    pub capacity: fn(&str, u32, bool) -> Option<u32>,
    /// True when a cell a friendly piece occupies carries a line whatever the enemy controls
    /// (FR-F4: "A cell controlled by the enemy but occupied by a friendly unit ensures logistic
    /// communication"); else the movement roles' shielding (SPI-Z1 Cases D and F).
    pub occupied_shields: bool,
    /// The cell marker ([`crate::engine::game::CellMarkerKind`]) that cuts a rail line (SPI-E2's
    /// Rail Cut marker), if the set has one.
    pub cut_marker: Option<&'static str>,
    /// The cell markers by which a side holds the rail section through the cell (1870's
    /// possession markers, FR-G1), with that side.
    pub possession_markers: &'static [(&'static str, Side)],
    /// The cell markers by which a side's units have passed over a rail cell of the enemy's
    /// country (1870's passage markers, FR-G1 G3), with that side.
    pub passage_markers: &'static [(&'static str, Side)],
    /// The cell marker by which an EB unit secures a rail cell of the enemy's country for its
    /// side's supply (SPI-E2's secured lines, [`SupplyRules::secured`]), if the set has one.
    pub secured_marker: Option<&'static str>,
}

/// A rule set's supply on a map, declared as data (`RuleSet::supply_rules`).
#[derive(Clone, Debug)]
pub struct SupplyDecl {
    /// The tracing's numbers, zones and sources.
    pub rules: SupplyRules,
    /// What each arm is.
    pub roles: SupplyRoles,
}

/// A roster side as the map names it.
pub fn map_side(s: Side) -> crate::map::Side {
    match s {
        Side::French => crate::map::Side::French,
        Side::German => crate::map::Side::German,
    }
}

/// The engine's supply state as the map's.
pub fn status_of(s: Supply) -> SupplyStatus {
    match s {
        Supply::Supplied => SupplyStatus::Supplied,
        Supply::Unsupplied => SupplyStatus::Unsupplied,
        Supply::Isolated => SupplyStatus::Isolated,
    }
}

/// The map's supply state as the engine's.
pub fn supply_of(s: SupplyStatus) -> Supply {
    match s {
        SupplyStatus::Supplied => Supply::Supplied,
        SupplyStatus::Unsupplied => Supply::Unsupplied,
        SupplyStatus::Isolated => Supply::Isolated,
    }
}

/// The live units of `s` on `map` as supply's pieces, under the set's movement roles and supply
/// roles (eliminated units and units off the map left out).
pub fn pieces(s: &GameState, map: &Map, board: &BoardRules, roles: &SupplyRoles) -> Vec<Piece> {
    let layout = map.grid.layout;
    let live = |o: &&UnitState| !o.eliminated() && o.position != Position::Off;
    let beside = |o: &UnitState, arms: &[Arm]| {
        s.units.iter().filter(live).any(|x| {
            x.unit.id != o.unit.id && x.position == o.position && arms.contains(&x.unit.arm)
        })
    };
    let r = &board.roles;
    let mut out = Vec::new();
    for o in s.units.iter().filter(live) {
        let Some(hex) = hex_in(o.position, layout).filter(|h| map.on_map(*h)) else {
            continue;
        };
        let fort = roles.forts.contains(&o.unit.arm).then(|| {
            let places = map.places_at(hex);
            let camp = places
                .iter()
                .any(|p| p.kinds.contains(&PlaceKind::FortifiedCamp));
            let name = places
                .into_iter()
                .find(|p| {
                    p.kinds.contains(&PlaceKind::Fortress)
                        || p.kinds.contains(&PlaceKind::FortifiedCamp)
                })
                .map(|p| p.name.clone())
                .or_else(|| o.unit.location.clone())
                .unwrap_or_else(|| o.unit.name.clone());
            Fort {
                capacity: (roles.capacity)(&name, o.strength, camp),
                name,
            }
        });
        out.push(Piece {
            id: o.unit.id.clone(),
            side: map_side(o.unit.side),
            hex,
            bars: !r.passable.contains(&o.unit.arm),
            zoc: !(r.no_zoc.contains(&o.unit.arm) || r.transits(o) || beside(o, r.no_zoc_beside)),
            shields: roles.occupied_shields || !r.no_shield.contains(&o.unit.arm),
            traces: fort.is_none() && !roles.untraced.contains(&o.unit.arm),
            fort,
        });
    }
    out
}

/// The board's markers supply reads (issue 45): the cells of the set's cut marker, those of its
/// possession and passage markers with the side each gives (FR-G1), and those of its secured
/// lines (SPI-E2).
pub fn board_marks(
    s: &GameState,
    map: &Map,
    roles: &SupplyRoles,
) -> crate::map::supply::BoardMarks {
    let layout = map.grid.layout;
    let cell = |m: &crate::engine::game::CellMark| hex_in(m.cell, layout);
    crate::map::supply::BoardMarks {
        cuts: s
            .marks
            .iter()
            .filter(|m| roles.cut_marker == Some(m.kind.as_str()))
            .filter_map(cell)
            .collect(),
        held: s
            .marks
            .iter()
            .filter_map(|m| {
                let (_, side) = roles
                    .possession_markers
                    .iter()
                    .find(|(k, _)| *k == m.kind)?;
                Some((map_side(*side), cell(m)?))
            })
            .collect(),
        passed: s
            .marks
            .iter()
            .filter_map(|m| {
                let (_, side) = roles.passage_markers.iter().find(|(k, _)| *k == m.kind)?;
                Some((map_side(*side), cell(m)?))
            })
            .collect(),
        secured: s
            .marks
            .iter()
            .filter(|m| roles.secured_marker == Some(m.kind.as_str()))
            .filter_map(cell)
            .collect(),
    }
}

/// Where a unit's state in play comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Basis {
    /// Traced on the game's map.
    Map,
    /// Typed by the umpire (overriding the map's, where there is one).
    Typed,
    /// The umpire's: no map, or the rule set traces none on one.
    Umpire,
}

/// One unit's supply in a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UnitSupply {
    /// The unit's id.
    pub unit: String,
    /// Its side.
    pub side: crate::map::Side,
    /// The state play uses: the typed one where the umpire typed it, else the map's.
    pub status: SupplyStatus,
    /// Where `status` comes from.
    pub basis: Basis,
    /// The umpire's typed state, where typed (it wins over the map's).
    pub typed: Option<SupplyStatus>,
    /// The map's answer: path, source, distance and what interdicts (None without a map).
    pub traced: Option<Traced>,
}

impl UnitSupply {
    /// The modifier line's words for its supply in play: "unsupplied (from the map: 14 hexes to
    /// S)", "isolated (typed by the umpire; the map says supplied)".
    pub fn says(&self) -> String {
        match (&self.basis, &self.traced) {
            (Basis::Map, Some(t)) => format!("{} (from the map{})", self.status, reach_words(t)),
            (Basis::Typed, Some(t)) if t.status != self.status => format!(
                "{} (typed by the umpire; the map says {})",
                self.status, t.status
            ),
            (Basis::Typed, _) => format!("{} (typed by the umpire)", self.status),
            _ => format!("{} (the umpire's)", self.status),
        }
    }
}

/// ": 4 hexes to S at 0101" for a traced path (1870: ": 3 cells to Portville at 0204"); "" for
/// none.
fn reach_words(t: &Traced) -> String {
    match (t.length(), &t.source) {
        (Some(d), Some(s)) => format!(": {d} to {} at {}", s.name, s.cell),
        _ => String::new(),
    }
}

/// Every unit's supply in a game, both sides.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameSupply {
    /// True when traced on the game's map.
    pub from_map: bool,
    /// Why it is not, where it is not ("this game has no map: supply is the umpire's ...").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub umpire: Option<String>,
    /// Each unit traced (fortifications included; units not traced left out), in roster order.
    pub units: Vec<UnitSupply>,
    /// Each side's trace: sources, rail stops, rules, what is not applied (empty without a map).
    pub sides: Vec<SideSupply>,
}

impl GameSupply {
    /// The answer for one unit, by id.
    pub fn get(&self, id: &str) -> Option<&UnitSupply> {
        self.units.iter().find(|u| u.unit == id)
    }
}

/// The typed state where typed.
fn typed(u: &UnitState) -> Option<SupplyStatus> {
    u.supply_typed.then(|| status_of(u.supply))
}

/// Every unit's supply in `s`: traced on its map under the rule set's declaration where both are
/// there, the umpire's typed state winning where typed; else the umpire's (as typed, supplied
/// until typed), with the reason.
pub fn game_supply(s: &GameState) -> GameSupply {
    let umpire = |why: String| GameSupply {
        from_map: false,
        umpire: Some(why),
        units: s
            .units
            .iter()
            .filter(|u| !u.eliminated())
            .map(|u| UnitSupply {
                unit: u.unit.id.clone(),
                side: map_side(u.unit.side),
                status: status_of(u.supply),
                basis: if u.supply_typed {
                    Basis::Typed
                } else {
                    Basis::Umpire
                },
                typed: typed(u),
                traced: None,
            })
            .collect(),
        sides: Vec::new(),
    };
    let (Some(decl), Some(board)) = (s.system.supply_rules(), s.system.board_rules()) else {
        return umpire(format!(
            "the rule set {} traces no supply on a map: supply is the umpire's (kepi game apply \
             SAVE supply UNIT STATE)",
            s.system.id()
        ));
    };
    let Some(carried) = &s.map else {
        return umpire(
            "this game has no map: supply is the umpire's (kepi game apply SAVE supply UNIT \
             STATE; kepi game new --map FILE, docs/MAPS.md)"
                .into(),
        );
    };
    let map = match carried.map() {
        Ok(m) => m,
        Err(why) => {
            return umpire(format!(
                "this game's map cannot be used ({why}): supply is the umpire's"
            ));
        }
    };
    let pieces = pieces(s, map, &board, &decl.roles);
    let marks = board_marks(s, map, &decl.roles);
    // A side the map names no supply edge for: its supply stays the umpire's (a club's map that
    // does not mark its sources does not isolate every unit).
    let sourced = |side: crate::map::Side| {
        map.edges
            .iter()
            .any(|e| e.role == crate::map::EdgeRole::Supply && e.side == Some(side))
    };
    let sides: Vec<SideSupply> = [crate::map::Side::French, crate::map::Side::German]
        .into_iter()
        .filter(|side| sourced(*side))
        .map(|side| crate::map::supply::trace_marked(map, &decl.rules, &pieces, side, &marks))
        .collect();
    if sides.is_empty() {
        return umpire(
            "this game's map names no supply source (an [[edge]] with role = \"supply\" and its \
             side, docs/MAPS.md): supply is the umpire's"
                .into(),
        );
    }
    let units = s
        .units
        .iter()
        .filter_map(|u| {
            if !sourced(map_side(u.unit.side)) && !u.eliminated() {
                return Some(UnitSupply {
                    unit: u.unit.id.clone(),
                    side: map_side(u.unit.side),
                    status: status_of(u.supply),
                    basis: if u.supply_typed {
                        Basis::Typed
                    } else {
                        Basis::Umpire
                    },
                    typed: typed(u),
                    traced: None,
                });
            }
            let traced = sides.iter().find_map(|x| x.get(&u.unit.id)).cloned()?;
            let t = typed(u);
            Some(UnitSupply {
                unit: u.unit.id.clone(),
                side: map_side(u.unit.side),
                status: t.unwrap_or(traced.status),
                basis: if t.is_some() {
                    Basis::Typed
                } else {
                    Basis::Map
                },
                typed: t,
                traced: Some(traced),
            })
        })
        .collect();
    GameSupply {
        from_map: true,
        umpire: None,
        units,
        sides,
    }
}

/// One unit's supply in play (SPI-S1): from the map where the game traces it, else the umpire's.
/// None when the unit is not traced (an EB unit, a unit off the map) on a map that traces supply.
pub fn unit_supply(s: &GameState, id: &str) -> Option<UnitSupply> {
    game_supply(s).units.into_iter().find(|u| u.unit == id)
}
