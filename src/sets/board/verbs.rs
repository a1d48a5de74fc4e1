//! What SPI's and 1870's combat verbs of `kepi game apply` share: the attackers and the hex they
//! attack (SPI-C2, FR-C1), the units engaged there, and the owners' `--losses` (SPI-R1, FR-C2).

use clap::Args;

use super::form::{HexCombatForm, engage_hex};
use kepi_game::engine::game::GameState;
use kepi_game::engine::play::Form;
use kepi_game::engine::verbs::{Given, MoveError, set_some};
use kepi_game::roster::Position;

/// SPI-C2, FR-C1: the units of one attack on one hex.
#[derive(Debug, Args)]
pub struct HexOpt {
    /// The attacking units, comma-separated ids or names (all of one side).
    #[arg(long, value_name = "A,B,...", value_delimiter = ',', required = true)]
    attackers: Vec<String>,
    /// The hex attacked: every enemy unit in it defends (a hex holding a friendly unit is refused).
    #[arg(long, value_name = "HEX", required = true)]
    hex: Position,
}

/// SPI-C2, FR-C1: the form of a combat pre-filled with the units engaged when `attackers` attack
/// `hex` (every enemy unit in it defends); why they cannot, the form untouched, otherwise. `F` is
/// the set's combat form (`engage::<SpiForm>` in SPI's verbs); a form of another type is left as
/// it is.
pub fn engage<F: HexCombatForm + kepi_game::engine::play::SetForm>(
    form: &mut Form,
    state: &GameState,
    attackers: &[String],
    hex: Position,
) -> Result<(), String> {
    let (a, d) = engage_hex(state, attackers, hex)?;
    if let Some(f) = form.get_mut::<F>() {
        f.engage(state, &a, &d);
    }
    Ok(())
}

/// SPI-C1..C5, FR-C1..C2: a combat verb's options over its form, the same for both games around
/// what differs (`situation`, the game's own options over its combat input): first the owners'
/// `--losses` (SPI-R1, FR-C2 (E); each unit engaged and named once, the totals checked against
/// the result when it is known), last `--result`, the printed result of a cell kepi does not know
/// (SPI-C1, FR-C1). Err when the form is not `F`'s.
pub fn combat_overlay<F: HexCombatForm + kepi_game::engine::play::SetForm>(
    g: &Given,
    f: &mut Form,
    situation: impl FnOnce(&mut F) -> Result<(), MoveError>,
) -> Result<(), MoveError> {
    let Some(x) = f.get_mut::<F>() else {
        return Err(g.mismatch());
    };
    let (attacker_ids, defender_ids) = x.engaged_ids();
    let losses = parse_losses(g, attacker_ids, defender_ids)?;
    x.losses_mut().extend(losses);
    situation(x)?;
    set_some(x.entered_result_mut(), g.get::<String>("result")?);
    g.mark(&["attack", "defend", "attackers", "hex"]);
    Ok(())
}

/// SPI-R1, FR-C2: `--losses UNIT=N,...` as unit ids and numbers, each unit engaged (an attacker or
/// a unit in --hex) and named once; the numbers are checked against the result when it is known.
pub fn parse_losses(
    g: &Given,
    attacker_ids: &[String],
    defender_ids: &[String],
) -> Result<Vec<(String, u32)>, MoveError> {
    let mut losses: Vec<(String, u32)> = Vec::new();
    for pair in g.get_many::<String>("losses")? {
        let (id, n) = pair
            .split_once('=')
            .ok_or_else(|| g.bad("losses", format!("`{pair}` is not UNIT=N")))?;
        let id = id.trim();
        let n: u32 =
            kepi_game::engine::verbs::num::parse_within(n, kepi_game::rules::limits::STRENGTH)
                .map_err(|m| g.bad("losses", format!("in `{pair}`: {m}")))?;
        // A blank form (the hex checked later, after a script's moves) has no units yet.
        if !attacker_ids.is_empty()
            && !attacker_ids
                .iter()
                .chain(defender_ids.iter())
                .any(|u| u == id)
        {
            return Err(g.bad(
                "losses",
                format!("`{id}` is not engaged in this combat (attackers and units in --hex)"),
            ));
        }
        if losses.iter().any(|(u, _)| u == id) {
            return Err(g.bad("losses", format!("`{id}` is named twice")));
        }
        losses.push((id.to_string(), n));
    }
    Ok(losses)
}
