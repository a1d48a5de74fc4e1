//! Where units stand on a hex board: a roster position as a hex of the grid and back, a card's
//! facing as a hexside (PW-G1, SPI and 1870 maps). Shared by every rule set played on hexes.

use crate::hex::{self, Direction, Layout, Offset};
use crate::roster::{self, Arm, Facing, Position, Side};

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

/// What a rule set's units do on the board for movement (issue 42), by arm: who exerts a zone of
/// control, who bars a cell, who is paid for when stacking. Plain data the rule set declares
/// ([`BoardRules`]); [`board_units`] reads a game's units through it for [`crate::map::reach_under`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitRoles {
    /// Arms whose units exert no zone of control (SPI-Z1: fortifications, EB units).
    pub no_zoc: &'static [Arm],
    /// The unit marker of units in transit ([`crate::engine::game::UnitMarkerKind`]: SPI's
    /// `entrained`): they exert no zone of control (SPI-Z1 Case C), are not paid for when
    /// stacking, nor is such a mover charged (SPI-M1 Case K).
    pub in_transit: Option<&'static str>,
    /// A unit sharing its cell with a unit of one of these arms exerts none (SPI-Z1 Case D: "in"
    /// the fort).
    pub no_zoc_beside: &'static [Arm],
    /// Enemy arms that do not bar their cell (SPI-E1: EB units "do not impede Enemy movement").
    pub passable: &'static [Arm],
    /// Friendly arms not paid for when stacking; units in transit are not either, nor is such a
    /// mover charged ([`UnitRoles::in_transit`], SPI-M1 Case K).
    pub no_stack: &'static [Arm],
    /// A cell holding a friendly unit of one of these arms costs no stacking (SPI-F1 Case A:
    /// "moved through freely by Friendly units, without any stacking or unstacking penalty").
    pub stack_free: &'static [Arm],
    /// Friendly arms whose cell enemy zones do not extend into: every other arm does (SPI-Z1
    /// Cases D and F).
    pub no_shield: &'static [Arm],
}

impl UnitRoles {
    /// True when `u` is in transit ([`UnitRoles::in_transit`]).
    pub fn transits(&self, u: &crate::engine::game::UnitState) -> bool {
        self.in_transit.is_some_and(|m| u.has_mark(m))
    }
}

/// A rule set's movement rules on a map (issue 42): the costs and zones as data for the map's
/// search, and what its units do ([`crate::engine::rule_set::RuleSet::board_rules`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardRules {
    /// The costs, zones of control and closed countries.
    pub moves: crate::map::MoveRules,
    /// What each arm does on the board.
    pub roles: UnitRoles,
}

/// The units of `s` on `layout`'s board as the map's search sees them for mover `u` under
/// `roles` (eliminated units and units off the map left out).
pub fn board_units(
    s: &crate::engine::game::GameState,
    u: &crate::engine::game::UnitState,
    roles: &UnitRoles,
    layout: Layout,
) -> crate::map::Units {
    let mover = Mover {
        id: Some(&u.unit.id),
        side: u.unit.side,
        stacks: !roles.transits(u) && !roles.no_stack.contains(&u.unit.arm),
    };
    units_seen_by(s, &mover, roles, layout)
}

/// Who the board is seen by: a unit moving (left out of the units), or any unit of a side.
struct Mover<'a> {
    /// The mover's id, left out (None: no unit in particular).
    id: Option<&'a str>,
    side: Side,
    /// Whether the mover pays for stacking (SPI-M1 Case K).
    stacks: bool,
}

/// The units of `s` on `layout`'s board as `mover` sees them under `roles`: the one reading of
/// the arms' roles that the reach, the supply trace and the shaded zones share.
fn units_seen_by(
    s: &crate::engine::game::GameState,
    mover: &Mover,
    roles: &UnitRoles,
    layout: Layout,
) -> crate::map::Units {
    let live = |o: &&crate::engine::game::UnitState| !o.eliminated() && o.position != Position::Off;
    let beside = |o: &crate::engine::game::UnitState, arms: &[Arm]| {
        s.units.iter().filter(live).any(|x| {
            x.unit.id != o.unit.id && x.position == o.position && arms.contains(&x.unit.arm)
        })
    };
    let mut units = crate::map::Units::default();
    for o in s
        .units
        .iter()
        .filter(live)
        .filter(|o| Some(o.unit.id.as_str()) != mover.id)
    {
        let Some(hex) = hex_in(o.position, layout) else {
            continue;
        };
        if o.unit.side != mover.side {
            let without = roles.no_zoc.contains(&o.unit.arm)
                || roles.transits(o)
                || beside(o, roles.no_zoc_beside);
            units.enemy.push(crate::map::EnemyAt {
                hex,
                bars: !roles.passable.contains(&o.unit.arm),
                zoc: !without,
            });
        } else {
            let stack = mover.stacks
                && !roles.transits(o)
                && !roles.no_stack.contains(&o.unit.arm)
                && !roles.stack_free.contains(&o.unit.arm)
                && !beside(o, roles.stack_free);
            units.friends.push(crate::map::FriendAt {
                hex,
                stack,
                shields: !roles.no_shield.contains(&o.unit.arm),
            });
        }
    }
    units
}

/// SPI-Z1: the cells `side`'s units control on the game's map, as the map's search applies them to
/// the other side's moves ([`crate::map::controlled`]: who exerts a zone, not across rivers, not
/// into cells the other side shields), in the grid's order. None when the game has no usable map or its rule
/// set declares no zones of control on it ([`crate::engine::rule_set::RuleSet::board_rules`]):
/// the window then shades the six cells around each unit. What the map panel shades, so it shows
/// the zones the moves pay for.
pub fn controlled_cells(s: &crate::engine::game::GameState, side: Side) -> Option<Vec<hex::Hex>> {
    let rules = s.system.board_rules()?;
    let zoc = rules.moves.zoc.as_ref()?;
    let map = s.board()?;
    let layout = map.grid.layout;
    let mover = Mover {
        id: None,
        side: side.other(),
        stacks: false,
    };
    let units = units_seen_by(s, &mover, &rules.roles, layout);
    let marked = crate::map::controlled(map, zoc, &units);
    Some(
        map.grid
            .cells()
            .zip(marked)
            .filter_map(|(h, c)| c.then_some(h))
            .collect(),
    )
}

/// The cells `u` may reach on its game's map with `allowance` points, `paid` the first-only
/// terrains it paid this phase already: the rule set's own answer where it moves `u` otherwise
/// ([`crate::engine::rule_set::RuleSet::own_reach`]: SPI's entrained units by rail), else under
/// the rule set's movement rules where it declares them
/// ([`crate::engine::rule_set::RuleSet::board_rules`]), else the terrain table's costs with
/// every enemy cell barred. Refused, in words, when the game has no usable map or `u` is not on
/// it.
pub fn board_reach(
    s: &crate::engine::game::GameState,
    u: &crate::engine::game::UnitState,
    allowance: u32,
    paid: &[String],
) -> Result<crate::map::Reach, String> {
    let carried = s
        .map
        .as_ref()
        .ok_or("this game has no map: kepi game new --map FILE, docs/MAPS.md")?;
    let map = carried
        .map()
        .map_err(|why| format!("this game's map cannot be used: {why}"))?;
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
    if let Some(r) = s.system.own_reach(s, u, allowance) {
        return Ok(r);
    }
    let r = match s.system.board_rules() {
        Some(rules) => {
            let units = board_units(s, u, &rules.roles, layout);
            crate::map::reach_under(map, from, allowance, Some(&rules.moves), &units, paid)
        }
        None => {
            let enemy: Vec<hex::Hex> = s
                .units
                .iter()
                .filter(|o| o.unit.side != u.unit.side && !o.eliminated())
                .filter_map(|o| hex_in(o.position, layout))
                .collect();
            crate::map::reach(map, from, allowance, &enemy)
        }
    };
    r.map_err(|e| e.to_string())
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
/// moves), from the start of a movement phase (nothing paid yet). Under the rule set's movement
/// rules where it declares them ([`board_reach`]: SPI's zones of control, rough, stacking,
/// closed countries); else cells held by the other side's units are not entered. Refused, in
/// words for the umpire, when the game carries no map (or one that does not read), the unit is
/// not known or not on the map, or no allowance is given or on its card.
pub fn unit_reach(
    s: &crate::engine::game::GameState,
    key: &str,
    allowance: Option<u32>,
) -> Result<UnitReach, String> {
    if s.map.is_none() {
        return Err("this game has no map: kepi game new --map FILE, docs/MAPS.md".into());
    }
    let u = s.find(key).map_err(|e| e.to_string())?;
    let Some(allowance) = allowance.or(u.unit.movement) else {
        // The map's refusals (unusable, the unit off it) come before the allowance's.
        board_reach(s, u, 0, &[])?;
        return Err(format!(
            "unit {} has no movement allowance on its card: give one (--allowance N)",
            u.unit.id
        ));
    };
    let reach = board_reach(s, u, allowance, &[])?;
    Ok(UnitReach {
        unit: u.unit.id.clone(),
        reach,
    })
}
