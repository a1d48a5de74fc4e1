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
