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
//! Left to the umpire: the CP exited off the west edge (kepi does not know which edge a unit
//! left by), and units whose only supply is a fortress counted as isolated (the supply in play
//! counts a fortress's supply; the text does not for victory).

use kepi_game::engine::game::GameState;
use kepi_game::engine::game::UnitState;
use kepi_game::engine::play::board::hex_in;
use kepi_game::engine::play::supply::{Basis, GameSupply, UnitSupply, game_supply};
use kepi_game::map::supply::{SourceKind, SupplyStatus};
use kepi_game::map::{Country, Map};
use kepi_game::roster::{Arm, Side};

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
