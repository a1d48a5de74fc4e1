//! Where units stand on a hex board: a roster position as a hex of the grid and back, a card's
//! facing as a hexside (PW-G1, SPI and 1870 maps). Shared by every rule set played on hexes.

use crate::hex::{self, Direction, Layout, Offset};
use crate::roster::{self, Facing, Position};

/// PW-G1: a roster position as a hex of the grid (board labels are odd-q, column then row).
pub fn hex_of(p: Position) -> Option<hex::Hex> {
    hex_in(p, Layout::OddQ)
}

/// A roster position as a hex of a board numbered in `layout` (a rule set's
/// [`crate::engine::rule_set::RuleSet::hex_layout`]).
pub fn hex_in(p: Position, layout: Layout) -> Option<hex::Hex> {
    p.hex().map(|h| {
        hex::Hex::from_offset(
            Offset {
                col: i32::from(h.col),
                row: i32::from(h.row),
            },
            layout,
        )
    })
}

/// A grid hex as a roster position (None off the printable 0-99 labels).
pub fn position_of(h: hex::Hex) -> Option<Position> {
    position_in(h, Layout::OddQ)
}

/// A hex of a board numbered in `layout` as a roster position (None off the 0-99 labels).
pub fn position_in(h: hex::Hex, layout: Layout) -> Option<Position> {
    let o = h.to_offset(layout);
    let col = u8::try_from(o.col).ok().filter(|c| *c <= 99)?;
    let row = u8::try_from(o.row).ok().filter(|r| *r <= 99)?;
    Some(Position::from(roster::Hex { col, row }))
}

/// A card's facing as a hexside of a flat-topped hex. East and west point at a hex corner, not a
/// hexside, so they give no facing (and no flank or rear).
pub fn direction_of(f: Facing) -> Option<Direction> {
    match f {
        Facing::N => Some(Direction::N),
        Facing::Ne => Some(Direction::NE),
        Facing::Se => Some(Direction::SE),
        Facing::S => Some(Direction::S),
        Facing::Sw => Some(Direction::SW),
        Facing::Nw => Some(Direction::NW),
        Facing::E | Facing::W => None,
    }
}

/// A unit's reachable cells on its game's map (issue 41): what `kepi game reach` prints and the
/// window shades, from [`crate::map::reach`].
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct UnitReach {
    /// The unit's id.
    pub unit: String,
    /// The cells, their costs and what was not applied.
    #[serde(flatten)]
    pub reach: crate::map::Reach,
}

/// The cells unit `key` (an id or exact name) may reach on the game's map with `allowance`
/// movement points, or its card's `movement` when None (SPI-M1: 8 German, 6 French; PW-U1's
/// moves). Cells held by the other side's units that are left are not entered; what the search
/// applies and does not is [`crate::map::reach`]'s. Refused, in words for the umpire, when the
/// game carries no map (or one that does not read), the unit is not known or not on the map, or
/// no allowance is given or on its card.
pub fn unit_reach(
    s: &crate::engine::game::GameState,
    key: &str,
    allowance: Option<u32>,
) -> Result<UnitReach, String> {
    let carried = s
        .map
        .as_ref()
        .ok_or("this game has no map: kepi game new --map FILE, docs/MAPS.md")?;
    let map = carried
        .map()
        .map_err(|why| format!("this game's map cannot be used: {why}"))?;
    let u = s.find(key).map_err(|e| e.to_string())?;
    let layout = map.grid.layout;
    let from = hex_in(u.position, layout)
        .filter(|h| map.on_map(*h))
        .ok_or_else(|| {
            format!(
                "unit {} is not on the map (it is at {}; the map is {})",
                u.unit.id,
                u.position,
                map.grid.span_label()
            )
        })?;
    let allowance = allowance.or(u.unit.movement).ok_or_else(|| {
        format!(
            "unit {} has no movement allowance on its card: give one (--allowance N)",
            u.unit.id
        )
    })?;
    let enemy: Vec<hex::Hex> = s
        .units
        .iter()
        .filter(|o| o.unit.side != u.unit.side && !o.eliminated())
        .filter_map(|o| hex_in(o.position, layout))
        .collect();
    let reach = crate::map::reach(map, from, allowance, &enemy).map_err(|e| e.to_string())?;
    Ok(UnitReach {
        unit: u.unit.id.clone(),
        reach,
    })
}
