//! SPI's movement in a game ([`crate::spi::movement`] has the numbers): the movement
//! points a unit spent this movement phase, read from the log (its moves, formation changes,
//! entraining and detraining: an undo takes them back), a move's cost counted from the board or
//! the game's map (issue 42: SPI-M1, SPI-Z1), and
//! what the text says against a move, an entraining or a detraining (the umpire goes ahead), and
//! the EB unit an enemy pushes back (SPI-E1, EB units Case C).

use crate::spi::marks::ENTRAINED;
use crate::spi::movement::{EB_HEXES, STACK_MP, Spend, allowance, entrain_limit, rail_mp};
use crate::spi::{Nation, SupplyState};
use kepi_game::engine::flow::{Event, Queue};
use kepi_game::engine::game::{Action, Game, GameState, Supply, UnitState};
use kepi_game::engine::play::board::{board_reach, hex_in};
use kepi_game::roster::{Arm, Position, Side};

/// The engine's supply state as SPI-S1 names it.
pub fn supply_state(s: Supply) -> SupplyState {
    match s {
        Supply::Supplied => SupplyState::Supplied,
        Supply::Unsupplied => SupplyState::Unsupplied,
        Supply::Isolated => SupplyState::Isolated,
    }
}

/// The side as SPI's text names the player.
pub fn nation(side: Side) -> Nation {
    match side {
        Side::French => Nation::French,
        Side::German => Nation::German,
    }
}

/// SPI-S1: a unit's supply in play and the words saying where it comes from: traced on the
/// game's map where it carries one, the umpire's typed state winning and marked so
/// ([`kepi_game::engine::play::supply::unit_supply`]); else the umpire's typed state. On the board
/// `s` as it stands: combat's "at the instant of combat"; movement's is judged on the board as the
/// phase began ([`supply_for_movement`]).
pub fn supply_in_play(s: &GameState, u: &UnitState) -> (SupplyState, String) {
    supply_from(&kepi_game::engine::play::supply::game_supply(s), u)
}

/// [`supply_in_play`] read from a game's supply worked out once (`game_supply`).
pub fn supply_from(
    all: &kepi_game::engine::play::supply::GameSupply,
    u: &UnitState,
) -> (SupplyState, String) {
    use kepi_game::engine::play::supply::supply_of;
    match all.get(&u.unit.id) {
        Some(x) => (supply_state(supply_of(x.status)), x.says()),
        None => (
            supply_state(u.supply),
            format!("{} (the umpire's)", u.supply),
        ),
    }
}

/// SPI-S1: "Units are determined to be supplied, unsupplied, or isolated for movement purposes at
/// the beginning of their Movement Phase. Their supply condition for combat is determined at the
/// instant of combat." In a movement phase, the supply the game's map traces for the unit on
/// the board as it was when the phase began (the state before the phase's first entry, or now
/// when nothing happened in it yet), so a unit that moves out of supply keeps the allowance it
/// began with. The umpire's typed state wins as it stands now (typed during the phase, it is
/// his judgment of it), as does a game without a map; outside a movement phase, as it stands.
pub fn supply_for_movement(game: &Game, u: &UnitState) -> (SupplyState, String) {
    let s = game.state();
    if !in_movement_phase(s) || u.supply_typed || game_map(s).is_none() {
        return supply_in_play(s, u);
    }
    let Some(start) = this_phase(game).last().map(|e| e.before) else {
        return supply_in_play(s, u);
    };
    let at_start = start.unit(&u.unit.id).unwrap_or(u);
    let (state, says) = supply_in_play(start, at_start);
    (state, format!("{says} at the start of the Movement Phase"))
}

/// The words of the note a unit spending more than its allowance gives ([`move_breaches`],
/// [`spend_breaches`]), judged on the supply at the start of the phase since log revision 4.
pub const OVER_ALLOWANCE: &str = "over its allowance";

/// A unit's allowance in this movement phase (its side and its supply when the phase began,
/// SPI-M1 and SPI-S1: [`supply_for_movement`]).
pub fn unit_allowance(game: &Game, u: &UnitState) -> u32 {
    allowance(nation(u.unit.side), supply_for_movement(game, u).0).0
}

/// The log entries of the phase being played (newest first).
fn this_phase(game: &Game) -> impl Iterator<Item = kepi_game::engine::game::InEffect<'_>> {
    let s = game.state();
    let turn = s.turn;
    let phase = s.phase_name().to_string();
    game.in_effect()
        .rev()
        .take_while(move |e| e.entry.turn == turn && e.entry.phase == phase)
}

/// The acting unit of a logged resolution of `action`, and its outcome.
fn resolved_by<'a>(a: &'a Action, action: &str) -> Option<(&'a str, &'a serde_json::Value)> {
    match a {
        Action::Resolved {
            resolution, units, ..
        } if resolution.action == action => {
            Some((units.first()?.as_str(), resolution.outcome.as_ref()?))
        }
        _ => None,
    }
}

/// SPI-T1, Movement Case E: the movement points `id` has spent in this movement phase (its moves'
/// costs, entraining, detraining, formation changes), from the log; unused points are not carried
/// from one phase to the next.
pub fn spent_this_phase(game: &Game, id: &str) -> u32 {
    this_phase(game)
        .map(|e| match e.action {
            Action::Move {
                unit, mp: Some(n), ..
            } if unit == id => *n,
            a => [Spend::Entrain, Spend::Detrain, Spend::Formation]
                .iter()
                .filter_map(|k| resolved_by(a, k.action()))
                .filter(|(u, _)| *u == id)
                .filter_map(|(_, o)| o.get("mp").and_then(serde_json::Value::as_u64))
                .map(|n| u32::try_from(n).unwrap_or(u32::MAX))
                .sum(),
        })
        .fold(0u32, u32::saturating_add)
}

/// SPI-E1: true when `id` rolled 4-6 crossing a river this phase ("the EB unit must stop, and
/// move no further in the Movement Phase").
pub fn eb_stopped(game: &Game, id: &str) -> bool {
    this_phase(game).any(|e| {
        resolved_by(e.action, "eb").is_some_and(|(u, o)| {
            u == id && o.get("continues").and_then(serde_json::Value::as_bool) == Some(false)
        })
    })
}

/// SPI-E1, Movement Case A: the hexes `id` has moved this phase (an EB unit's four).
fn hexes_this_phase(game: &Game, id: &str) -> u32 {
    let layout = game.state().system.hex_layout();
    this_phase(game)
        .filter_map(|e| match e.action {
            Action::Move { unit, to, .. } if unit == id => {
                let from = hex_in(e.before.unit(id)?.position, layout)?;
                Some(from.distance(hex_in(*to, layout)?))
            }
            _ => None,
        })
        .sum()
}

/// SPI-T1, Rail Movement Case E: the units of `side` entrained in this movement phase (those
/// that began it entrained count: "if the French Player began a Movement Phase with a unit
/// entrained, he would not be able to entrain another unit in that same Movement Phase").
pub fn entrained_this_phase(game: &Game, side: Side) -> Vec<String> {
    let mut ids: Vec<String> = Vec::new();
    let mut add = |s: &GameState| {
        for u in s.units.iter().filter(|u| {
            u.carries(&ENTRAINED)
                && u.unit.side == side
                && !u.eliminated()
                && u.unit.arm != Arm::Railway
        }) {
            if !ids.contains(&u.unit.id) {
                ids.push(u.unit.id.clone());
            }
        }
    };
    add(game.state());
    for e in this_phase(game) {
        add(e.before);
    }
    ids
}

/// A combat unit on the board (dummies are: they "must pay additional Movement Points to stack
/// with Friendly units"); not a fortification, an EB unit or an entrained unit.
fn combat_unit(u: &UnitState) -> bool {
    !u.eliminated() && !u.carries(&ENTRAINED) && !matches!(u.unit.arm, Arm::Fortress | Arm::Railway)
}

/// SPI-T1, Movement Case K and Stacking Case B: another friendly combat unit at `at` that the
/// mover pays for (none on a hex with a friendly fortification unit).
fn friend_to_pay_for(s: &GameState, u: &UnitState, at: Position) -> bool {
    let friends = |o: &&UnitState| {
        o.unit.id != u.unit.id && o.unit.side == u.unit.side && !o.eliminated() && o.position == at
    };
    s.units.iter().filter(friends).any(combat_unit)
        && !s
            .units
            .iter()
            .filter(friends)
            .any(|o| o.unit.arm == Arm::Fortress)
}

/// True in a movement phase (moves in a combat phase are advances after combat: "This optional
/// advance does not expend any Movement Points", Combat Case K).
fn in_movement_phase(s: &GameState) -> bool {
    s.phase_kind()
        .is_none_or(|p| p.step == kepi_game::engine::game::clock::Step::Movement)
}

/// How far the map's search looks to count a move's cost: beyond any allowance, so a move costing
/// more than remains is counted and noted, not lost.
const MAP_SEARCH_MP: u32 = 64;

/// The game's map, where it carries one that reads (SPI-M1's movement and SPI-C5's combat
/// terrain read it).
pub(crate) fn game_map(s: &GameState) -> Option<&kepi_game::map::Map> {
    s.board()
}

/// SPI-M1 (the Terrain Effects Chart): the first-only terrains (rough) `id` has paid this
/// movement phase: each of its moves this phase, in order, counted again on the map from the
/// game as it was before it (the cheapest legal way there); none without a map.
pub fn paid_this_phase(game: &Game, id: &str) -> Vec<String> {
    let mut moves: Vec<_> = this_phase(game)
        .filter_map(|e| match e.action {
            Action::Move { unit, to, .. } if unit == id => Some((e.before, *to)),
            _ => None,
        })
        .collect();
    moves.reverse();
    let mut paid: Vec<String> = Vec::new();
    for (before, to) in moves {
        let Some(map) = game_map(before) else {
            return paid;
        };
        let Some(u) = before.unit(id) else {
            continue;
        };
        let Some(h) = hex_in(to, map.grid.layout) else {
            continue;
        };
        if let Ok(r) = board_reach(before, u, MAP_SEARCH_MP, &paid)
            && let Some(c) = r.get(h)
        {
            for t in &c.paid {
                if !paid.contains(t) {
                    paid.push(t.clone());
                }
            }
        }
    }
    paid
}

/// The map's reach of `u` now (SPI-M1, SPI-Z1 applied, what it paid this phase counted), looking
/// [`MAP_SEARCH_MP`] far; None without a usable map or off it.
fn map_reach(game: &Game, u: &UnitState) -> Option<kepi_game::map::Reach> {
    let s = game.state();
    game_map(s)?;
    let paid = paid_this_phase(game, &u.unit.id);
    board_reach(s, u, MAP_SEARCH_MP, &paid).ok()
}

/// SPI-T1, SPI-M1: what moving `u` to `to` costs. `stated`: the umpire's count from the printed
/// map, which wins. Else, in a movement phase, on the game's map where it carries one: the
/// cheapest legal way there under SPI's movement rules ([`super::set::board_rules`]: the
/// Terrain Effects Chart, rough's first hex of the phase, zones of control, stacking). Without a
/// map (or with no legal way there, which the notes say), kepi's count from the board along the
/// shortest path over clear terrain: one point a hex entered (Movement Case D), two onto and two
/// off a friendly combat unit (Case K; not with entrained or EB units, nor on a friendly
/// fortification's hex, Stacking Case B). An entrained unit one point per eighteen hexes along
/// the rail line (Rail Movement). EB units move by hexes, not points (`None`), as
/// fortifications do not move at all.
pub fn move_points(game: &Game, u: &UnitState, to: Position, stated: Option<u32>) -> Option<u32> {
    if stated.is_some() {
        return stated;
    }
    let s = game.state();
    if matches!(u.unit.arm, Arm::Railway | Arm::Fortress) || !in_movement_phase(s) {
        return None;
    }
    let layout = s.system.hex_layout();
    let hexes = hex_in(u.position, layout)?.distance(hex_in(to, layout)?);
    if u.carries(&ENTRAINED) {
        // Along the rail line on the game's map where it carries one, else as the crow flies.
        let along = rail_route(s, u, to).and_then(Result::ok).unwrap_or(hexes);
        return Some(rail_mp(along));
    }
    if hexes > 0
        && let Some(r) = map_reach(game, u)
        && let Some(c) = hex_in(to, layout).and_then(|h| r.get(h))
    {
        return Some(c.cost);
    }
    let mut mp = hexes;
    if hexes > 0 && friend_to_pay_for(s, u, u.position) {
        mp += STACK_MP;
    }
    if hexes > 0 && friend_to_pay_for(s, u, to) {
        mp += STACK_MP;
    }
    Some(mp)
}

/// The words of the note an entrained unit's move along no rail line gives ([`rail_route`]),
/// noted since log revision 3 ([`kepi_game::engine::rule_set::RuleSet::noted_since`]).
pub const NO_RAIL_LINE: &str = "no rail line of";

/// What the rail line says of an entrained unit's move (SPI-L1): the hexes along it, or why no
/// rail line leads there. None without a map or where either end is off it.
///
/// - Rail Movement Case A: "\"A unit moving on a rail line\" is defined as one which is moving
///   from one rail hex to another across hexsides crossed by the rail line itself";
/// - Case C: "French Combat Units may only use rail lines in France, and German Combat Units may
///   only use rail lines in Germany";
/// - Case D: "a rail line which has been moved onto by an Enemy Unit during the course of a game
///   may not be used for rail movement at all subsequently" (a Rail Cut marker, or an enemy unit
///   standing on it);
/// - Case B: "Units may not move by rail ... in hexes adjacent to Enemy Combat or Fortification
///   Units": the way passes no such hex (its end is Case B's own note).
///
/// The off-map links between rail lines (Case F) are not followed: such a move is the umpire's.
pub fn rail_route(s: &GameState, u: &UnitState, to: Position) -> Option<Result<u32, String>> {
    let ways = rail_ways(s, u)?;
    let (map, from) = (ways.map, ways.from);
    let dest = hex_in(to, map.grid.layout).filter(|h| map.on_map(*h))?;
    let country = home_country(u.unit.side).1;
    let label = |h: kepi_game::hex::Hex| map.grid.label(h);
    let why = |what: String| {
        Err(format!(
            "{NO_RAIL_LINE} {} leads from {} to {} for {}{what} (SPI-L1, Rail Movement Case A: \
             \"Units may not move by rail directly from one rail hex to another if the two hexes \
             are not connected by a rail line across the hexside\"; Case C: \"only use rail lines \
             in\" their home country; Case D: a cut line \"may not be used for rail movement\")",
            country,
            label(from),
            label(dest),
            u.unit.name
        ))
    };
    if from == dest {
        return Some(Ok(0));
    }
    if map.country_of(dest) != Some(ways.home) {
        return Some(why(format!(": {} is not in {country}", label(dest))));
    }
    Some(match ways.reached.get(&dest) {
        Some((n, _)) => Ok(*n),
        None => why(String::new()),
    })
}

/// A side's home country on the map, and its name as the text writes it (SPI-L1 Case C, SPI-E2).
fn home_country(side: Side) -> (kepi_game::map::Country, &'static str) {
    match side {
        Side::French => (kepi_game::map::Country::France, "France"),
        Side::German => (kepi_game::map::Country::Germany, "Germany"),
    }
}

/// The rail hexes an entrained unit reaches from where it stands ([`rail_ways`]).
struct RailWays<'a> {
    map: &'a kepi_game::map::Map,
    from: kepi_game::hex::Hex,
    home: kepi_game::map::Country,
    /// Each hex reached: the hexes walked along the line, and the hex it is entered from.
    reached: std::collections::HashMap<kepi_game::hex::Hex, (u32, kepi_game::hex::Hex)>,
}

/// SPI-L1: the rail hexes of its home country `u` may move to along the rail line from where it
/// stands, by the rules [`rail_route`] cites (Cases A to D), walked breadth first: through no
/// cut and no enemy unit, and on past no hex next to an enemy combat or fortification unit (such
/// a hex is reached, Case B's note is its move's own). None without a usable map or off it.
fn rail_ways<'a>(s: &'a GameState, u: &UnitState) -> Option<RailWays<'a>> {
    use kepi_game::hex::{Direction, Hexside};
    use kepi_game::map::Feature;
    let map = game_map(s)?;
    let layout = map.grid.layout;
    let from = hex_in(u.position, layout).filter(|h| map.on_map(*h))?;
    let home = home_country(u.unit.side).0;
    // Case D's cuts; and Case G: "Once an EB unit has cleared a rail line in the Enemy Home
    // Country, it may not be used by the opposing Player for Rail Movement" (a hex of the home
    // country secured by the enemy's EB units).
    let cut = |h: kepi_game::hex::Hex| {
        kepi_game::engine::play::board::position_in(h, layout).is_some_and(|p| {
            s.marked(super::supply::RAIL_CUT.name, p) || s.marked(super::supply::SECURED.name, p)
        }) || s.units.iter().any(|o| {
            o.unit.side != u.unit.side && !o.eliminated() && hex_in(o.position, layout) == Some(h)
        })
    };
    let next_to_enemy = |h: kepi_game::hex::Hex| {
        s.units.iter().any(|o| {
            o.unit.side != u.unit.side
                && !o.eliminated()
                && o.unit.arm != Arm::Railway
                && o.unit.arm != Arm::Dummy
                && hex_in(o.position, layout).is_some_and(|x| x.distance(h) == 1)
        })
    };
    let mut reached = std::collections::HashMap::new();
    let mut queue = std::collections::VecDeque::from([(from, 0u32)]);
    while let Some((h, n)) = queue.pop_front() {
        for d in Direction::ALL {
            let next = h.neighbour(d);
            if next == from
                || reached.contains_key(&next)
                || !map.on_map(next)
                || map.country_of(next) != Some(home)
                || !map
                    .features_on(Hexside::new(h, d))
                    .iter()
                    .any(|l| l.feature == Feature::Rail)
                || cut(next)
            {
                continue;
            }
            reached.insert(next, (n + 1, h));
            if !next_to_enemy(next) {
                queue.push_back((next, n + 1));
            }
        }
    }
    Some(RailWays {
        map,
        from,
        home,
        reached,
    })
}

/// SPI-L1: where entrained `u` may go by rail with `allowance` Movement Points, one point per
/// eighteen hexes along the line ([`rail_mp`]): what `kepi game reach` answers and the
/// window's map shades for an entrained unit (its move is counted the same way,
/// [`move_points`]). None for a unit not entrained, or without a usable map.
pub fn rail_reach(s: &GameState, u: &UnitState, allowance: u32) -> Option<kepi_game::map::Reach> {
    if !u.carries(&ENTRAINED) {
        return None;
    }
    let ways = rail_ways(s, u)?;
    let label = |h: kepi_game::hex::Hex| ways.map.grid.label(h);
    let mut cells: Vec<kepi_game::map::Reached> = ways
        .reached
        .iter()
        .map(|(h, (n, via))| (*h, *n, *via, rail_mp(*n)))
        .filter(|(_, _, _, cost)| *cost <= allowance)
        .map(|(h, n, via, cost)| kepi_game::map::Reached {
            hex: h,
            cell: label(h),
            cost,
            steps: n,
            via: label(via),
            zoc: false,
            paid: Vec::new(),
        })
        .collect();
    cells.sort_by(|a, b| (a.cost, &a.cell).cmp(&(b.cost, &b.cell)));
    Some(kepi_game::map::Reach {
        from: label(ways.from),
        allowance,
        cells,
        unknown: Vec::new(),
        lacking: Vec::new(),
        enemy: Vec::new(),
        rules: vec!["SPI-L1".to_string()],
        not_applied: vec![RAIL_NOT_FOLLOWED.to_string()],
        zoc: Vec::new(),
        from_zoc: false,
        closed: Vec::new(),
        movement_rules: true,
    })
}

/// What an entrained unit's reach leaves to the umpire (SPI-L1).
pub const RAIL_NOT_FOLLOWED: &str = "by rail along the lines of its home country only: the \
    off-map links between lines (Rail Movement Case F) are the umpire's";

/// True when `id` has moved this movement phase.
fn moved_this_phase(game: &Game, id: &str) -> bool {
    this_phase(game).any(|e| matches!(e.action, Action::Move { unit, .. } if unit == id))
}

/// What the map says against moving combat unit `u` to `to` in its movement phase (SPI-M1,
/// SPI-Z1): a move on from an enemy-controlled hex it entered this phase, a move from one
/// controlled hex straight to another, into Belgium or Luxembourg, or where no legal way leads.
fn map_breaches(game: &Game, u: &UnitState, to: Position, out: &mut Vec<String>) {
    let s = game.state();
    let (Some(map), Some(r)) = (game_map(s), map_reach(game, u)) else {
        return;
    };
    let Some(dest) = hex_in(to, map.grid.layout).filter(|h| map.on_map(*h)) else {
        return;
    };
    let name = &u.unit.name;
    let label = map.grid.label(dest);
    let mut said = false;
    if r.from_zoc && moved_this_phase(game, &u.unit.id) {
        said = true;
        out.push(format!(
            "{name} entered an enemy-controlled hex ({}) this Movement Phase and moves on (SPI-Z1, \
             Zones of Control Case A: \"all units must cease movement upon entering an Enemy \
             controlled hex; they may move no further during that Movement Phase\")",
            r.from
        ));
    }
    let from = hex_in(u.position, map.grid.layout);
    if r.from_zoc && from.is_some_and(|f| f.distance(dest) == 1) && r.zoc.contains(&label) {
        said = true;
        out.push(format!(
            "{name} moves from one enemy-controlled hex ({}) to another ({label}) (SPI-Z1: \
             \"Enemy units may not move directly from one Friendly controlled hex to another, \
             even if of another Enemy unit\")",
            r.from
        ));
    }
    if let Some(c) = map.country_of(dest).filter(|c| {
        matches!(
            c,
            kepi_game::map::Country::Belgium | kepi_game::map::Country::Luxembourg
        )
    }) {
        said = true;
        out.push(format!(
            "{name} enters {label} in {c} (SPI-M1, Basic Game: \"Units may never enter Belgium \
             or Luxemburg, in this Basic Game\")"
        ));
    }
    let barred = s.units.iter().any(|o| bars(o, u.unit.side, to));
    if !said && !barred && r.get(dest).is_none() {
        out.push(format!(
            "no legal way from {} to {label} on the map (SPI-M1, SPI-Z1: enemy units, zones of \
             control, closed countries; Movement Case H: \"Zones of Control and the Terrain \
             Effects Chart affect movement\")",
            r.from
        ));
    }
}

/// SPI-E2 (Rail Movement Case D; EB units Cases A-F): what moving `u` to `to` does to the rail
/// lines on the game's map, logged with the move
/// ([`kepi_game::engine::rule_set::RuleSet::move_effects`]):
///
/// - "When a French unit moves ... into a German Home Country rail line, it \"cuts\" that rail
///   line. Place a \"Rail Cut\" marker on that hex" (Case E; Case F the same for a Prussian unit
///   in France; Case D: "a rail line which has been moved onto by an Enemy Unit ... may not be
///   used for rail movement at all subsequently"): a unit other than an EB unit entering a hex of
///   the enemy's home country that a rail hexside touches puts a [`super::supply::RAIL_CUT`] there
///   (none twice).
/// - "each EB unit may move four hexes ... along an Enemy rail line, and, by doing so, extend the
///   point from which a supply line may be traced": an EB unit secures
///   ([`super::supply::SECURED`]) the hexes of the enemy's home country along its way by rail to
///   where its move ends (the fewest hexes along rail hexsides, the first found where two ways are
///   as short), those not secured already. None when no rail line leads there.
/// - "When a French unit moves into a rail line hex previously secured by a German EB unit ... it
///   \"cuts\" that rail line. Place a \"Rail Cut\" marker on that hex" (and Case F for a
///   Prussian unit): a unit other than an EB unit entering a hex of its own country secured by the
///   enemy takes it off the secured line, and puts a Rail Cut marker there (none twice); an EB
///   unit moving on into it secures it again.
/// - "To repair a cut, a Friendly EB unit must simply move into the cut hex, and remove the
///   marker": an EB unit entering a cut hex of its own country takes the marker off.
///
/// Only the hex the move ends in (and an EB unit's way by rail) is known to kepi: the rail hexes
/// a unit passes through on its way are the umpire's to mark (`mark rail-cut HEX`, `unmark
/// secured HEX`). A unit coming onto the map from off it (its set-up, an arrival) is placed, not
/// moved: it cuts and secures nothing. None without a map, off the map, or in a hex with no
/// country.
///
/// And SPI-W1's German units moved off the west edge ([`super::victory::exit_effects`]).
pub fn move_effects(s: &GameState, u: &UnitState, to: Position) -> Vec<Action> {
    let Some(map) = game_map(s) else {
        return Vec::new();
    };
    let mut out = super::victory::exit_effects(s, map, u, to);
    out.extend(rail_effects(s, map, u, to));
    out
}

/// SPI-E2: [`move_effects`] on the rail lines.
fn rail_effects(
    s: &GameState,
    map: &kepi_game::map::Map,
    u: &UnitState,
    to: Position,
) -> Vec<Action> {
    use super::supply::{RAIL_CUT, SECURED};
    use kepi_game::map::Feature;
    let layout = map.grid.layout;
    let Some(dest) = hex_in(to, layout).filter(|h| map.on_map(*h)) else {
        return Vec::new();
    };
    // A unit coming onto the map (set up, or arriving) is placed, not moved onto the line.
    if to == u.position || u.eliminated() || u.position == Position::Off {
        return Vec::new();
    }
    let Some(country) = map.country_of(dest) else {
        return Vec::new();
    };
    let own = home_country(u.unit.side).0;
    let enemy = home_country(u.unit.side.other()).0;
    let on_rail = map.touches(dest, Feature::Rail);
    let mark = |kind: &str, cell: Position, on: bool| Action::Mark {
        kind: kind.to_string(),
        cell,
        on,
    };
    let cut = s.marked(RAIL_CUT.name, to);
    let mut out = Vec::new();
    if u.unit.arm == Arm::Railway {
        if cut && country == own {
            out.push(mark(RAIL_CUT.name, to, false));
        }
        let from = hex_in(u.position, layout).filter(|h| map.on_map(*h));
        for h in from
            .map(|f| map.way_along(f, dest, Feature::Rail))
            .unwrap_or_default()
        {
            let Some(at) = kepi_game::engine::play::board::position_in(h, layout) else {
                continue;
            };
            if map.country_of(h) == Some(enemy) && !s.marked(SECURED.name, at) {
                out.push(mark(SECURED.name, at, true));
            }
        }
    } else {
        let secured = country == own && s.marked(SECURED.name, to);
        if secured {
            out.push(mark(SECURED.name, to, false));
        }
        if !cut && on_rail && (country == enemy || secured) {
            out.push(mark(RAIL_CUT.name, to, true));
        }
    }
    out
}

/// True when `o` is an enemy of `side` at `to` whose hex may not be entered (SPI-M1, Movement
/// Case I: combat and fortification units; EB units "do not impede Enemy movement", SPI-E1).
fn bars(o: &UnitState, side: Side, to: Position) -> bool {
    o.unit.side != side && !o.eliminated() && o.position == to && o.unit.arm != Arm::Railway
}

/// Enemy combat or fortification units next to (or in) `to` (Rail Movement Case B, EB Case I).
fn enemy_next_to(s: &GameState, side: Side, to: Position, eb_too: bool) -> Option<String> {
    let layout = s.system.hex_layout();
    let dest = hex_in(to, layout)?;
    s.units
        .iter()
        .filter(|o| o.unit.side != side && !o.eliminated() && o.unit.arm != Arm::Dummy)
        .filter(|o| eb_too || o.unit.arm != Arm::Railway)
        .find(|o| hex_in(o.position, layout).is_some_and(|h| h.distance(dest) <= 1))
        .map(|o| o.unit.name.clone())
}

/// What SPI's movement rules say against moving `u` to `to` now at a cost of `mp` points: over
/// the allowance (SPI-T1 Movement Cases A, M; SPI-S1 halved), an EB unit beyond its four hexes,
/// after its river roll stopped it (SPI-E1), next to the enemy (EB Case I); a rail move next to
/// the enemy (Rail Movement Case B); a fortification moved (Movement Case A); into a hex with
/// enemy combat or fortification units (SPI-M1, Movement Case I); in the other side's movement
/// phase (Case F); and, on the game's map, what [`map_breaches`] says (SPI-Z1, Belgium).
pub fn move_breaches(game: &Game, u: &UnitState, to: Position, mp: Option<u32>) -> Vec<String> {
    let s = game.state();
    let name = &u.unit.name;
    let mut out = Vec::new();
    if to == u.position || to == Position::Off || u.position == Position::Off {
        return out;
    }
    match u.unit.arm {
        Arm::Fortress => out.push(format!(
            "{name} is a fortification (SPI-T1, Movement Case A: \"A Fortification Counter may \
             never be moved from its initial placement\")"
        )),
        Arm::Railway => {
            let pushed_back = s
                .due
                .iter()
                .any(|d| d.by_move && d.unit.as_deref() == Some(u.unit.id.as_str()));
            if eb_stopped(game, &u.unit.id) {
                out.push(format!(
                    "{name} rolled 4-6 at a river this phase (SPI-E1: \"the EB unit must stop, \
                     and move no further in the Movement Phase\")"
                ));
            }
            let layout = s.system.hex_layout();
            if let (Some(a), Some(b)) = (hex_in(u.position, layout), hex_in(to, layout)) {
                let total = hexes_this_phase(game, &u.unit.id) + a.distance(b);
                if total > EB_HEXES && !pushed_back && in_movement_phase(s) {
                    out.push(format!(
                        "{name} moves {total} hexes this Movement Phase (SPI-E1, Movement Case \
                         A: \"Each EB unit may move up to four hexes along a rail line\")"
                    ));
                }
            }
            if !pushed_back && let Some(e) = enemy_next_to(s, u.unit.side, to, true) {
                out.push(format!(
                    "{name} moves next to {e} (SPI-E1, EB Case I: \"EB units may not \
                     voluntarily move adjacent to, or onto, Enemy Combat or Fortification Units, \
                     or Enemy EB units\")"
                ));
            }
        }
        _ => {
            if let Some(e) = s.units.iter().find(|o| bars(o, u.unit.side, to)) {
                out.push(format!(
                    "{name} enters {to}, held by {} (SPI-M1, Movement Case I: \"Units may never \
                     enter a hex containing Enemy Combat or Fortification Units\")",
                    e.unit.name
                ));
            }
            if let Some(side) = s
                .phase_kind()
                .filter(|p| p.step == kepi_game::engine::game::clock::Step::Movement)
                .and_then(|p| p.side)
                .filter(|side| *side != u.unit.side)
            {
                out.push(format!(
                    "{name} is {}, and this is the {} Movement Phase (SPI-M1, Movement Case F: \
                     \"No Enemy movement is permitted during a Player's Movement Phase\")",
                    u.unit.side.title(),
                    side.title()
                ));
            }
            if in_movement_phase(s) && !u.carries(&ENTRAINED) {
                map_breaches(game, u, to, &mut out);
            }
            if let Some(mp) = mp.filter(|_| in_movement_phase(s)) {
                let allow = unit_allowance(game, u);
                let total = spent_this_phase(game, &u.unit.id).saturating_add(mp);
                if total > allow {
                    let (supply, says) = supply_for_movement(game, u);
                    let halved = if supply == SupplyState::Supplied {
                        String::new()
                    } else {
                        format!(", halved: {says}, SPI-S1")
                    };
                    out.push(format!(
                        "{name} spends {total} MP this Movement Phase, over its allowance of \
                         {allow} (SPI-T1, Movement Case A{halved}; Case M: \"A unit may not move \
                         into a hex if it does not possess sufficient remaining Movement \
                         Points\")"
                    ));
                }
            }
            if u.carries(&ENTRAINED)
                && in_movement_phase(s)
                && let Some(Err(why)) = rail_route(s, u, to)
            {
                out.push(why);
            }
            if u.carries(&ENTRAINED)
                && let Some(e) = enemy_next_to(s, u.unit.side, to, false)
            {
                out.push(format!(
                    "{name} moves by rail next to {e} (SPI-T1, Rail Movement Case B: \"Units \
                     may not move by rail, entrain, or detrain in hexes adjacent to Enemy Combat \
                     or Fortification Units\")"
                ));
            }
        }
    }
    out
}

/// What SPI's text says against `u` entraining, detraining or changing formation now: over the
/// allowance, over the side's entrained units this phase (Rail Movement Case E), next to the
/// enemy (Rail Movement Case B).
pub fn spend_breaches(game: &Game, u: &UnitState, kind: Spend) -> Vec<String> {
    let s = game.state();
    let name = &u.unit.name;
    let mut out = Vec::new();
    let (mp, _) = kind.cost();
    let allow = unit_allowance(game, u);
    let total = spent_this_phase(game, &u.unit.id).saturating_add(mp);
    if total > allow {
        out.push(format!(
            "{name} spends {total} MP this Movement Phase, over its allowance of {allow} \
             (SPI-T1, Movement Case A; SPI-S1 halves it unless supplied)"
        ));
    }
    if kind == Spend::Entrain {
        let mut ids = entrained_this_phase(game, u.unit.side);
        if !ids.contains(&u.unit.id) {
            ids.push(u.unit.id.clone());
        }
        let limit = entrain_limit(nation(u.unit.side));
        if ids.len() as u32 > limit {
            out.push(format!(
                "{} units of the {} player entrained this Movement Phase, over {limit} (SPI-T1, \
                 Rail Movement Case E: \"The French Player is limited to one Combat Unit, and \
                 the German to two\")",
                ids.len(),
                u.unit.side.title()
            ));
        }
    }
    if kind != Spend::Formation
        && let Some(e) = enemy_next_to(s, u.unit.side, u.position, false)
    {
        out.push(format!(
            "{name} {}s next to {e} (SPI-T1, Rail Movement Case B: \"Units may not move by rail, \
             entrain, or detrain in hexes adjacent to Enemy Combat or Fortification Units\")",
            kind.action()
        ));
    }
    out
}

/// SPI-E2, EB units Case E: "When a French unit moves ... into a German Home Country rail line, it
/// \"cuts\" that rail line. Place a \"Rail Cut\" marker on that hex. The German Player receives
/// an EB unit on both sides of the \"cut\" in his next Movement Phase." A move whose effects put a
/// Rail Cut marker ([`move_effects`]) and whose unit is French asks the German player for them,
/// at the cut (Case F: "The French Player does not receive additional EB units"). Read from the
/// move's logged effects, so a move an earlier kepi logged (without them) asks nothing.
pub(crate) fn german_ebs_for_a_cut(before: &GameState, action: &Action, q: &mut Queue) {
    let Action::Move { unit, effects, .. } = action else {
        return;
    };
    let Some(mover) = before.unit(unit).filter(|m| m.unit.side == Side::French) else {
        return;
    };
    for e in effects {
        if let Action::Mark {
            kind,
            cell,
            on: true,
        } = e
            && kind == super::supply::RAIL_CUT.name
        {
            q.push_at(
                "SPI-E2",
                Some(Side::German),
                *cell,
                format!(
                    "{} cut the rail line at {cell}: place a German EB unit on each side of the cut \
                     in the German Movement Phase (SPI-E2, EB units Case E: \"The German Player \
                     receives an EB unit on both sides of the 'cut' in his next Movement \
                     Phase\")",
                    mover.unit.name
                ),
            );
        }
    }
}

/// The log revision since which a move off the map pushes no EB unit back ([`eb_pushed_back`]).
pub(crate) const NO_PUSH_OFF_MAP_SINCE: u32 = 6;

/// SPI, EB units Case C: "If an Enemy unit attempts to move into the same hex as an EB unit, it is
/// moved back down the secured rail line toward the Friendly Country until the Enemy unit ceases
/// to push it back." A combat unit's move into a hex holding enemy EB units queues their move
/// back (moving the EB unit answers it). A move off the map enters no hex: since log revision
/// [`NO_PUSH_OFF_MAP_SINCE`] it pushes no EB unit back (before, it queued a push for every enemy EB
/// unit also off the map, and an older entry replays with it, as that kepi saved it).
pub(crate) fn eb_pushed_back(ev: &Event, q: &mut Queue) {
    let (before, action) = (ev.before(), ev.action());
    let Action::Move { unit, to, .. } = action else {
        return;
    };
    if to.hex().is_none() && ev.revision() >= NO_PUSH_OFF_MAP_SINCE {
        return;
    }
    let Some(mover) = before.unit(unit).filter(|m| crate::board::moves::fights(m)) else {
        return;
    };
    for eb in before.units.iter().filter(|o| {
        o.unit.arm == Arm::Railway
            && !o.eliminated()
            && o.unit.side != mover.unit.side
            && o.position == *to
    }) {
        q.push_move(
            "SPI-E1",
            &eb.unit.id,
            format!(
                "{} entered {to}: move {} back down its secured rail line toward its own country, \
                 past any enemy unit (EB units, Case C: EB units may not be destroyed)",
                mover.unit.name, eb.unit.name
            ),
        );
    }
}
