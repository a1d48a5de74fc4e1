//! `kepi resolve spi ...`: SPI Franco-Prussian War combat, victory, EB river rolls and orders of battle.
//!
//! `combat` JSON outcome: `{"odds": "2:1", "result": "A1/D2" | null, "message"?, "valid_results"?,
//! "die", "modified_die", "attack", "defence", "entered", "advance_after_combat"}`; `victory`:
//! `{"level": "French Marginal Victory", "net_vp", "id"}`.

use clap::Subcommand;

use crate::spi::{self, Formation, Nation, SpiCombatInput, SpiUnit, SupplyState};
use kepi_game::engine::verbs::Ctx;
use kepi_game::engine::verbs::MoveError;
use kepi_game::rules::Resolution;
use kepi_game::rules::limits;

/// The spi actions.
#[derive(Debug, Subcommand)]
pub enum SpiAction {
    /// Resolve one attack on one hex (SPI-C1..C5, S1, F1, H1, H2).
    Combat {
        /// Total attacking combat strength (printed; for a hasty attack, the points allocated).
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::STRENGTH), allow_negative_numbers = true, value_name = "N")]
        attack: u32,
        /// Total defending combat strength of the units in the hex (printed, without the fort).
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::STRENGTH), allow_negative_numbers = true, value_name = "N")]
        defend: u32,
        /// SPI-C3: the attack is a flanking attack (attack doubled; no benefit against a fort). In
        /// `kepi game apply`, refused (exit 2, with the hexes left open) unless the attackers'
        /// hexes make one: attackers in, or next to, every hex around the defender.
        #[arg(long)]
        flank: bool,
        /// SPI-S1: the attackers' supply state.
        #[arg(long, value_name = "STATE", default_value = "supplied")]
        attacker_supply: SupplyState,
        /// SPI-S1: the defenders' supply state.
        #[arg(long, value_name = "STATE", default_value = "supplied")]
        defender_supply: SupplyState,
        /// SPI-F1: strength of the fortification unit in the hex (defenders doubled, plus this). In
        /// `kepi game apply`, read from the fortification units (arm "fortress") in --hex.
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::STRENGTH), allow_negative_numbers = true, value_name = "N")]
        fortress: Option<u32>,
        /// SPI-H1: a hasty attack by one unit (allocated strength halved).
        #[arg(long)]
        hasty: bool,
        /// SPI-H1: the defending hex holds dummy counters only (revealed and removed). In `kepi
        /// game apply`, read from the cards (arm "dummy") in --hex: dummies add nothing and are
        /// removed when attacked; EB units (arm "railway") add nothing either.
        #[arg(long)]
        dummy: bool,
        /// SPI-H2: the attackers are in extended formation (halved).
        #[arg(long)]
        attacker_extended: bool,
        /// SPI-H2: the defenders are in extended formation (halved).
        #[arg(long)]
        defender_extended: bool,
        /// SPI-C5: the defenders are entrained (defend at half).
        #[arg(long)]
        entrained: bool,
        /// SPI-C5: the defender is in rough terrain (die +1).
        #[arg(long)]
        rough: bool,
        /// SPI-C5: every attacker attacks through a ridge hexside (die +1).
        #[arg(long)]
        ridge: bool,
        /// SPI-C5: every attacker attacks through a river hexside (die +1).
        #[arg(long)]
        river: bool,
        /// The result read off your printed CRT when kepi does not know the cell ("A1/D2", "DE", "-").
        #[arg(long, value_name = "RESULT", value_parser = spi::SpiResult::typed_arg)]
        result: Option<String>,
    },
    /// SPI-W1: the level of victory for a net score (German VP minus French VP).
    /// Give `--net-vp`, or the tally and kepi adds it up (in `kepi game apply` the CP destroyed
    /// and isolated are counted from the game, and on the game's map the German advance's award
    /// and the French penetration; type the rest).
    Victory {
        /// Net victory points, German minus French (may be negative).
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<i64>(limits::VICTORY_POINTS), value_name = "N", allow_negative_numbers = true)]
        net_vp: Option<i64>,
        /// French CP destroyed (5 German VP each).
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::ARMY_SP), value_name = "CP")]
        french_cp_destroyed: Option<u32>,
        /// French CP isolated at the end (3 German VP each).
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::ARMY_SP), value_name = "CP")]
        french_cp_isolated: Option<u32>,
        /// The printed row award (10-184) of the most advanced supplied German unit.
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::POINTS), value_name = "VP")]
        german_row_vp: Option<u32>,
        /// German CP exited off the west edge from a supplied hex (10 German VP each).
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::ARMY_SP), value_name = "CP")]
        german_cp_exited: Option<u32>,
        /// German CP destroyed (5 French VP each).
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::ARMY_SP), value_name = "CP")]
        german_cp_destroyed: Option<u32>,
        /// German CP isolated at the end (3 French VP each).
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::ARMY_SP), value_name = "CP")]
        german_cp_isolated: Option<u32>,
        /// Hexes of penetration of the deepest supplied French unit (50 French VP each).
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::HEXES), value_name = "HEXES")]
        french_hexes_penetrated: Option<u32>,
        /// The cell of the most advanced supplied German unit whose award --german-row-vp is
        /// (in `kepi game apply`, where the game's map gives it), said in its line.
        #[arg(long, value_name = "CELL", value_parser = cell_label)]
        german_row_at: Option<String>,
        /// Where the award --german-row-vp comes from (seed, derived, house, unknown): in `kepi
        /// game apply`, the game's map's values (house on kepi's example board); seed if not
        /// given (the printed map's). Said in its line.
        #[arg(long, value_name = "PROVENANCE")]
        german_row_from: Option<kepi_game::tables::Provenance>,
        /// The cell of the French unit whose penetration --french-hexes-penetrated is (in `kepi
        /// game apply`, where the game's map gives it), said in its line.
        #[arg(long, value_name = "CELL", value_parser = cell_label)]
        french_penetration_at: Option<String>,
    },
    /// SPI-E1: an EB unit crossing a river hexside (d6 1-3 continues, 4-6 stops).
    Eb,
    /// SPI-I1: a French unit raised at Chalons with reinforcing combat points (up to 8 CP).
    Raise {
        /// The unit's combat strength now (in `kepi game apply`, the unit's).
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::STRENGTH), value_name = "CP")]
        strength: Option<u32>,
        /// Reinforcing combat points to spend.
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::ARMY_SP), value_name = "CP")]
        pool: u32,
    },
    /// SPI-T1 rail movement: entraining (3 MP, errata; French one, German two units a phase).
    Entrain(SpendArgs),
    /// SPI-T1 rail movement: detraining (2 MP, errata).
    Detrain(SpendArgs),
    /// SPI-H2: a change of formation status (4 MP).
    Formation(SpendArgs),
    /// SPI-O1: one die picks both sides' orders of battle (the printed numbering).
    Oob,
}

/// SPI-T1, SPI-S1: the unit whose movement points are spent (in `kepi game apply`, the unit's
/// side and supply; the points spent before are counted from the log for the notes).
#[derive(Debug, clap::Args)]
pub struct SpendArgs {
    /// The unit's player: french (allowance 6) or german (8).
    #[arg(long, value_name = "SIDE")]
    side: Option<Nation>,
    /// SPI-S1: its supply state at the start of the phase (unsupplied and isolated halve the
    /// allowance).
    #[arg(long, value_name = "STATE")]
    supply: Option<SupplyState>,
    /// Movement points it spent before this in the phase.
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::COUNT), value_name = "MP", default_value = "0")]
    spent: u32,
}

/// SPI-T1, SPI-H2: one spend resolution.
fn spend(
    kind: spi::movement::Spend,
    a: &SpendArgs,
) -> Result<Resolution<serde_json::Value>, MoveError> {
    let Some(side) = a.side else {
        return Err(MoveError::usage(format!(
            "`{}`: give --side french|german (the allowance is six or eight)",
            kind.action()
        )));
    };
    Ok(spi::movement::spend(
        kind,
        side,
        a.supply.unwrap_or(SupplyState::Supplied),
        a.spent,
    )
    .erase())
}

fn unit(strength: u32, supply: SupplyState, extended: bool, entrained: bool) -> SpiUnit {
    SpiUnit {
        name: None,
        strength,
        supply,
        formation: if extended {
            Formation::Extended
        } else {
            Formation::Concentrated
        },
        entrained,
    }
}

/// Resolves one spi action.
pub fn run(action: &SpiAction, ctx: Ctx<'_>) -> Result<Resolution<serde_json::Value>, MoveError> {
    let t = ctx.tables.get::<crate::spi::SpiTables>();
    match action {
        SpiAction::Combat {
            attack,
            defend,
            flank,
            attacker_supply,
            defender_supply,
            fortress,
            hasty,
            dummy,
            attacker_extended,
            defender_extended,
            entrained,
            rough,
            ridge,
            river,
            result,
        } => {
            if *attack == 0 {
                return Err(MoveError::usage(
                    "--attack: 0 is no attack (accepted: 1 or more)",
                ));
            }
            if *defend == 0 && fortress.unwrap_or(0) == 0 && !dummy {
                return Err(MoveError::usage(
                    "--defend: 0 with no fortress (accepted: 1 or more, or --fortress N, or --dummy)",
                ));
            }
            let input = SpiCombatInput {
                attackers: vec![unit(*attack, *attacker_supply, *attacker_extended, false)],
                defenders: if *defend > 0 {
                    vec![unit(
                        *defend,
                        *defender_supply,
                        *defender_extended,
                        *entrained,
                    )]
                } else {
                    Vec::new()
                },
                fortress: *fortress,
                flank: *flank,
                hasty: *hasty,
                dummies_only: *dummy,
                defender_rough: *rough,
                all_through_ridge: *ridge,
                all_through_river: *river,
            };
            Ok(spi::combat_with_result(&input, t, ctx.dice, result.as_deref())?.erase())
        }
        SpiAction::Victory {
            net_vp,
            french_cp_destroyed,
            french_cp_isolated,
            german_row_vp,
            german_cp_exited,
            german_cp_destroyed,
            german_cp_isolated,
            french_hexes_penetrated,
            german_row_at,
            german_row_from,
            french_penetration_at,
        } => {
            let tally = [
                french_cp_destroyed,
                french_cp_isolated,
                german_row_vp,
                german_cp_exited,
                german_cp_destroyed,
                german_cp_isolated,
                french_hexes_penetrated,
            ];
            match (net_vp, tally.iter().any(|x| x.is_some())) {
                (Some(net), false) => Ok(spi::victory(*net, t).erase()),
                (Some(_), true) => Err(MoveError::usage(
                    "`victory`: give --net-vp or the tally (--french-cp-destroyed ...), not both",
                )),
                (None, false) => Err(MoveError::usage(
                    "`victory`: give --net-vp N, or the tally (--french-cp-destroyed, \
                     --french-cp-isolated, --german-row-vp, --german-cp-exited, \
                     --german-cp-destroyed, --german-cp-isolated, --french-hexes-penetrated)",
                )),
                (None, true) => {
                    let v = spi::VictoryTally {
                        french_cp_destroyed: french_cp_destroyed.unwrap_or(0),
                        french_cp_isolated: french_cp_isolated.unwrap_or(0),
                        german_row_vp: german_row_vp.unwrap_or(0),
                        german_cp_exited: german_cp_exited.unwrap_or(0),
                        german_cp_destroyed: german_cp_destroyed.unwrap_or(0),
                        german_cp_isolated: german_cp_isolated.unwrap_or(0),
                        french_hexes_penetrated: french_hexes_penetrated.unwrap_or(0),
                    };
                    let at = spi::VictoryWhere {
                        german_row: german_row_at.clone(),
                        german_row_from: *german_row_from,
                        french_penetration: french_penetration_at.clone(),
                    };
                    Ok(spi::victory_from_tally(&v, &at, t)?.erase())
                }
            }
        }
        SpiAction::Eb => Ok(spi::eb_river(t, ctx.dice)?.erase()),
        SpiAction::Entrain(a) => spend(spi::movement::Spend::Entrain, a),
        SpiAction::Detrain(a) => spend(spi::movement::Spend::Detrain, a),
        SpiAction::Formation(a) => spend(spi::movement::Spend::Formation, a),
        SpiAction::Raise { strength, pool } => match strength {
            Some(s) => Ok(spi::raise(*s, *pool).erase()),
            None => Err(MoveError::usage(
                "`raise`: give --strength CP (the unit's combat strength now)",
            )),
        },
        SpiAction::Oob => {
            let g = spi::printed_numbering(t, Nation::German);
            let f = spi::printed_numbering(t, Nation::French);
            Ok(spi::pick_oob(&g, &f, ctx.dice)?.erase())
        }
    }
}

/// A cell's label as `--german-row-at` and `--french-penetration-at` take it: four digits,
/// column then row ("0605").
fn cell_label(s: &str) -> Result<String, String> {
    let t = s.trim();
    if t.len() == 4 && t.bytes().all(|b| b.is_ascii_digit()) {
        Ok(t.to_string())
    } else {
        Err(format!(
            "`{s}` is not a cell: four digits, column then row, e.g. 0605"
        ))
    }
}
