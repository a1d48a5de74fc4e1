//! SPI-W1 in a game: what `kepi game apply victory` (without `--net-vp`) counts from the game
//! where the umpire did not type it, as more words of the verb (logged with it, so `kepi log
//! verify` resolves the same tally again).
//!
//! - Each side's combat unit strength points destroyed (the cards' starting strength less what is
//!   left) and isolated now (the supply in play: the map's where it traces, the umpire's typed
//!   state winning). "No Victory Points are received for Enemy Fortification units destroyed, or
//!   the progress of other units such as EB units": fortifications, EB units and dummies count
//!   for nothing.
//! - On the game's map: "The furthest supplied German unit from the Franco-Prussian border awards
//!   the German Player the number of Victory Points designated on the south edge of the map,
//!   according to the column of hexes that this unit is in" (the map's German `[[victory]]`
//!   values, where the club entered them), and "For each hex that a French unit is distant from
//!   the Franco-German border, the French receive fifty Victory Points. This unit must be
//!   supplied at the end of the game, and may not draw this supply from a Fortification unit"
//!   (the deepest such French unit in Germany, counted in hexes to the nearest French hex).
//!
//!   The German award's line says where the values come from: the map's provenance (house on
//!   kepi's own example board), as `--german-row-from`.
//!
//! - The CP of German combat units moved off the west edge, where every hex they left by is
//!   supplied now ([`EXITED_WEST`], [`EXIT_WEST`], put with their moves).
//!
//! Left to the umpire: the CP exited where some exit hexes are supplied and some not, and units
//! whose only supply is a fortress counted as isolated (the supply in play counts a fortress's
//! supply; the text does not for victory).

use kepi_game::engine::game::UnitState;
use kepi_game::engine::game::{CellMarkerKind, GameState, MarkerLasts, UnitMarkerKind};
use kepi_game::engine::play::board::hex_in;
use kepi_game::engine::play::supply::{Basis, GameSupply, UnitSupply, game_supply};
use kepi_game::map::supply::{SourceKind, SupplyStatus};
use kepi_game::map::{Country, Map};
use kepi_game::roster::{Arm, Side};

/// SPI-W1: "10 Victory Points for each German Combat unit Strength Point moved off the west edge
/// of the map, if the hex exited from is supplied at the end of the game." On a German combat
/// unit that moved off the map from a hex of its west edge (the map's first column); taken off
/// when it comes back onto the map (Movement Case F's off-map rail links).
pub const EXITED_WEST: UnitMarkerKind = UnitMarkerKind {
    name: "exited-west",
    label: "moved off the west edge",
    tag: "W",
    rule: "SPI-W1",
    what: "moved off the west edge of the map: its CP count 10 German VP each at the end if the \
           hex it left by is supplied (SPI-W1)",
    tone: kepi_game::engine::game::Tone::Info,
    lasts: MarkerLasts::UntilTakenOff,
    aliases: &[],
};

/// SPI-W1: a hex of the west edge German combat units moved off the map from ([`EXITED_WEST`]),
/// whose supply at the end decides whether their CP count.
pub const EXIT_WEST: CellMarkerKind = CellMarkerKind {
    name: "exit-west",
    label: "west edge exit",
    tag: "W",
    rule: "SPI-W1",
    what: "German combat units moved off the map from this hex of the west edge: their CP count \
           10 German VP each if it is supplied at the end of the game (SPI-W1)",
};

/// SPI-W1: what moving `u` to `to` does to the markers of the units moved off the west edge
/// (logged with the move): a German combat unit moving off the map from a hex of the map's
/// first column is marked [`EXITED_WEST`] and the hex [`EXIT_WEST`] (none twice); one coming
/// back onto the map loses its mark. Only the move's ends are known to kepi.
pub fn exit_effects(
    s: &GameState,
    map: &Map,
    u: &UnitState,
    to: kepi_game::roster::Position,
) -> Vec<kepi_game::engine::game::Action> {
    use kepi_game::engine::game::Action;
    use kepi_game::roster::Position;
    let mut out = Vec::new();
    if u.unit.side != Side::German || !counts(u) || u.eliminated() || to == u.position {
        return out;
    }
    let mark_unit = |on| Action::MarkUnit {
        unit: u.unit.id.clone(),
        kind: EXITED_WEST.name.to_string(),
        on,
    };
    if u.position == Position::Off {
        if u.carries(&EXITED_WEST) {
            out.push(mark_unit(false));
        }
        return out;
    }
    let layout = map.grid.layout;
    let west = hex_in(u.position, layout)
        .filter(|h| map.on_map(*h) && h.to_offset(layout).col == map.grid.first.col);
    if to == Position::Off && west.is_some() {
        if !u.carries(&EXITED_WEST) {
            out.push(mark_unit(true));
        }
        if !s.marked(EXIT_WEST.name, u.position) {
            out.push(Action::Mark {
                kind: EXIT_WEST.name.to_string(),
                cell: u.position,
                on: true,
            });
        }
    }
    out
}

/// SPI-W1: the CP of the German combat units off the map that moved off its west edge
/// ([`EXITED_WEST`]), where every hex they left by ([`EXIT_WEST`]) is supplied now as for a
/// German combat unit standing in it (one of those units, in each in turn; 0 where none is);
/// None where none moved off, or where some of those hexes are supplied and others not (kepi
/// does not pair a unit with its hex: the count is then the umpire's to type).
fn german_exited(state: &GameState) -> Option<u32> {
    let gone: Vec<&UnitState> = state
        .units
        .iter()
        .filter(|u| {
            u.unit.side == Side::German
                && counts(u)
                && !u.eliminated()
                && u.position == kepi_game::roster::Position::Off
                && u.carries(&EXITED_WEST)
        })
        .collect();
    let exits: Vec<kepi_game::roster::Position> = state
        .marks
        .iter()
        .filter(|m| m.kind == EXIT_WEST.name)
        .map(|m| m.cell)
        .collect();
    if gone.is_empty() || exits.is_empty() {
        return None;
    }
    // One of them standing in each exit hex in turn, traced on the board as it stands.
    let stand_in = gone[0].unit.id.as_str();
    let supplied: Vec<bool> = exits
        .iter()
        .map(|at| {
            let mut probe = state.clone();
            if let Some(u) = probe.units.iter_mut().find(|u| u.unit.id == stand_in) {
                u.position = *at;
                u.supply_typed = false;
            }
            game_supply(&probe).get(stand_in).map(|x| x.status) == Some(SupplyStatus::Supplied)
        })
        .collect();
    if supplied.iter().all(|s| *s) {
        Some(gone.iter().map(|u| u.strength).sum())
    } else if supplied.iter().all(|s| !*s) {
        Some(0)
    } else {
        None
    }
}

/// True for a unit whose strength points count for victory: a combat unit (not a fortification,
/// an EB unit or a dummy counter).
fn counts(u: &UnitState) -> bool {
    !matches!(u.unit.arm, Arm::Dummy | Arm::Fortress | Arm::Railway)
}

/// The words `victory` takes from the game where `typed` does not give them (none when the net
/// is typed).
pub fn game_defaults(typed: &[String], state: &GameState) -> Vec<String> {
    let given = |flag: &str| {
        typed
            .iter()
            .any(|w| w == flag || w.starts_with(&format!("{flag}=")))
    };
    if given("--net-vp") {
        return Vec::new();
    }
    let supply = game_supply(state);
    let status = |u: &UnitState| supply.get(&u.unit.id).map(|x| x.status);
    let count = |side: Side, isolated: bool| -> u32 {
        state
            .units
            .iter()
            .filter(|u| u.unit.side == side && counts(u))
            .map(|u| {
                if !isolated {
                    u.max_strength.saturating_sub(u.strength)
                } else if status(u) == Some(SupplyStatus::Isolated) {
                    u.strength
                } else {
                    0
                }
            })
            .sum()
    };
    let mut out = Vec::new();
    for (flag, side, isolated) in [
        ("--french-cp-destroyed", Side::French, false),
        ("--french-cp-isolated", Side::French, true),
        ("--german-cp-destroyed", Side::German, false),
        ("--german-cp-isolated", Side::German, true),
    ] {
        if !given(flag) {
            out.push(flag.to_string());
            out.push(count(side, isolated).to_string());
        }
    }
    if let Some(map) = super::moves::game_map(state) {
        if !given("--german-row-vp")
            && let Some((vp, at)) = german_advance(state, map, &supply)
        {
            out.extend([
                "--german-row-vp".to_string(),
                vp.to_string(),
                "--german-row-at".to_string(),
                at,
                "--german-row-from".to_string(),
                provenance_of(map.provenance.source).as_str().to_string(),
            ]);
        }
        if !given("--german-cp-exited")
            && let Some(cp) = german_exited(state)
        {
            out.extend(["--german-cp-exited".to_string(), cp.to_string()]);
        }
        if !given("--french-hexes-penetrated")
            && let Some((n, at)) = french_penetration(state, map, &supply)
        {
            out.extend([
                "--french-hexes-penetrated".to_string(),
                n.to_string(),
                "--french-penetration-at".to_string(),
                at,
            ]);
        }
    }
    out
}

/// The provenance of a value read from a map of `source`: kepi's own example board's are house
/// (invented), a map drawn from the printed board (the club's, a VASSAL module's, one the text
/// prints) gives the printed values (seed), derived and unknown as they say.
fn provenance_of(source: kepi_game::map::Source) -> kepi_game::tables::Provenance {
    use kepi_game::map::Source;
    use kepi_game::tables::Provenance;
    match source {
        Source::House => Provenance::House,
        Source::Derived => Provenance::Derived,
        Source::Unknown => Provenance::Unknown,
        Source::Seed | Source::Club | Source::Vassal => Provenance::Seed,
    }
}

/// The units of `side` on the map that count, supplied in play, with their cell.
fn supplied_on_map<'a>(
    state: &'a GameState,
    map: &'a Map,
    supply: &'a GameSupply,
    side: Side,
) -> impl Iterator<Item = (&'a UnitSupply, kepi_game::hex::Hex)> + 'a {
    state
        .units
        .iter()
        .filter(move |u| u.unit.side == side && !u.eliminated() && counts(u))
        .filter_map(move |u| {
            let h = hex_in(u.position, map.grid.layout).filter(|h| map.on_map(*h))?;
            let x = supply.get(&u.unit.id)?;
            (x.status == SupplyStatus::Supplied).then_some((x, h))
        })
}

/// The map's award where the most advanced supplied German unit stands, and its cell: the
/// highest German value of the map's `[[victory]]` entries among the cells of supplied German
/// combat units (the first in roster order on a tie). None where the map gives the Germans no
/// values; 0 where no supplied unit stands on a valued cell.
fn german_advance(state: &GameState, map: &Map, supply: &GameSupply) -> Option<(u32, String)> {
    let german =
        |v: &kepi_game::map::Victory| v.side.is_none_or(|s| s == kepi_game::map::Side::German);
    if !map.victory.iter().any(german) {
        return None;
    }
    let mut best: Option<(i64, kepi_game::hex::Hex)> = None;
    for (_, h) in supplied_on_map(state, map, supply, Side::German) {
        let value = map
            .victory_at(h)
            .into_iter()
            .filter(|(v, _)| german(v))
            .map(|(_, x)| x)
            .max();
        if let Some(x) = value
            && best.is_none_or(|(b, _)| x > b)
        {
            best = Some((x, h));
        }
    }
    let (vp, h) = best?;
    Some((u32::try_from(vp.max(0)).unwrap_or(0), map.grid.label(h)))
}

/// The deepest supplied French unit in Germany, not supplied by a fortification, in hexes to the
/// nearest French hex of the map, and its cell. None where no such unit is in Germany or the
/// map has no French hex.
fn french_penetration(state: &GameState, map: &Map, supply: &GameSupply) -> Option<(u32, String)> {
    let france: Vec<kepi_game::hex::Hex> = map
        .grid
        .cells()
        .filter(|h| map.country_of(*h) == Some(Country::France))
        .collect();
    let mut best: Option<(u32, kepi_game::hex::Hex)> = None;
    for (x, h) in supplied_on_map(state, map, supply, Side::French) {
        let from_fortress = x.basis == Basis::Map
            && x.traced
                .as_ref()
                .and_then(|t| t.source.as_ref())
                .is_some_and(|s| s.kind == SourceKind::Fortress);
        if map.country_of(h) != Some(Country::Germany) || from_fortress {
            continue;
        }
        let Some(n) = france.iter().map(|f| f.distance(h)).min() else {
            continue;
        };
        if best.is_none_or(|(b, _)| n > b) {
            best = Some((n, h));
        }
    }
    best.map(|(n, h)| (n, map.grid.label(h)))
}
