//! `kepi resolve fr1870 ...`: 1870 combat, storming a fortress, sieges, the blockade calendar and a
//! situation's points.
//!
//! `combat` JSON outcome: `{"odds": "1:2", "result": "AD,DD" | null, "message"?, "valid_results"?,
//! "die", "modified_die", "attack", "defence", "entered", "effects"}`; `storm`: `{"taken", "die"}`;
//! `bazaine`: `{"may_attack", "die"}`;
//! `siege`: `{"place", "cell", "kind", "by", "start", "steps"}`; `blockade`: `{"place", "kind",
//! "event", "marker", "capitulates", "turn"?, "besiegers_leave_on"?}`; `points`: `{"situation",
//! "french", "german", "leader", "margin"}`; `rail`: `{"unit", "from", "to", "cells", "line"?,
//! "section"?}`; `sea`: `{"unit", "from"?, "from_port"?, "to", "port"?, "at"?}`.

use clap::Subcommand;

use crate::fr1870::siege::{self, BlockadeEnd, PointsInput, SiegeInput, TurnInput};
use crate::fr1870::transport::{self, RailInput, SeaInput, SeaPlace};
use crate::fr1870::{
    self, Arm, FortressRole, FrCombatInput, FrFortress, FrUnit, GarrisonChoice, StormInput,
};
use kepi_game::engine::verbs::Ctx;
use kepi_game::engine::verbs::MoveError;
use kepi_game::rules::Resolution;
use kepi_game::rules::limits;

/// The fr1870 actions.
#[derive(Debug, Subcommand)]
pub enum Fr1870Action {
    /// Resolve one combat (FR-C1, FR-C2, FR-S1, FR-F1).
    Combat {
        /// Total attacking combat potential (printed).
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::STRENGTH), allow_negative_numbers = true, value_name = "N")]
        attack: u32,
        /// Total defending combat potential (printed, terrain already counted), or the units one
        /// by one with --garrison.
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::STRENGTH), allow_negative_numbers = true, value_name = "N", required_unless_present = "garrison", conflicts_with = "garrison")]
        defend: Option<u32>,
        /// The defending units one by one, each its printed potential, `d` after it when
        /// disorganised ("6d,5,4"): what an occupied fortress weighs unit by unit (FR-F1, H11).
        #[arg(long, value_name = "P[d],...", value_delimiter = ',')]
        garrison: Vec<String>,
        /// FR-F1 (H11): the defenders occupy a fortress of this value (1-3): it multiplies the
        /// defence of as many units and supplies them, the others unsupplied (halved).
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::FORTRESS_VALUE), allow_negative_numbers = true, value_name = "N", conflicts_with = "from_fortress")]
        fortress: Option<u32>,
        /// FR-F1 (H11): the units the occupied fortress multiplies and supplies, "at the player's
        /// choice" (default: the defender's best). In `kepi resolve`, their places in --garrison
        /// (1 = the first); in `kepi game apply combat`, the ids of units in --hex.
        #[arg(long, value_name = "UNIT,...", value_delimiter = ',')]
        multiplied: Vec<String>,
        /// FR-F1 (H11): the attackers sally out of their occupied fortress of this value: its
        /// coefficient is added to the attack.
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::FORTRESS_VALUE), allow_negative_numbers = true, value_name = "N")]
        from_fortress: Option<u32>,
        /// Die correction from your Terrain Table (not in the seed), e.g. -1.
        #[arg(
            long, value_parser = kepi_game::engine::verbs::num::within::<i32>(limits::DIE_MOD),
            value_name = "N",
            default_value_t = 0,
            allow_negative_numbers = true
        )]
        die_mod: i32,
        /// FR-S1: the attackers are not supplied (halved, rounded down).
        #[arg(long)]
        attacker_unsupplied: bool,
        /// FR-S1: the defenders are not supplied (halved, rounded up).
        #[arg(long)]
        defender_unsupplied: bool,
        /// FR-S1: the attackers are disorganised (halved; a second D eliminates them).
        #[arg(long)]
        attacker_disorganised: bool,
        /// FR-S1: the defenders are disorganised.
        #[arg(long)]
        defender_disorganised: bool,
        /// FR-F1: the defender is a besieger (die -1).
        #[arg(long)]
        besieger_defending: bool,
        /// FR-F1: besieged against besiegers (DR has no effect).
        #[arg(long)]
        siege: bool,
        /// FR-F1: the besiegers assault the fortress (taken only on E or DE).
        #[arg(long)]
        assault: bool,
        /// FR-C2: the defenders cannot retreat (blocked, full stack, off the map): a retreat eliminates.
        #[arg(long)]
        no_retreat: bool,
        /// The result read off your printed CRT when kepi does not know the cell ("AD", "AD,DD").
        #[arg(long, value_name = "RESULT", value_parser = crate::fr1870::FrCell::typed_arg)]
        result: Option<String>,
    },
    /// FR-F1: storm an unoccupied enemy fortress of value 1 from the move (d6 4-6 taken).
    Storm {
        /// The fortress's value (only 1 can be stormed).
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::FORTRESS_VALUE), allow_negative_numbers = true, value_name = "N", default_value_t = 1)]
        value: u32,
        /// The fortress is occupied (cannot be stormed).
        #[arg(long)]
        occupied: bool,
        /// The storming unit is cavalry (only infantry may storm).
        #[arg(long)]
        cavalry: bool,
    },
    /// FR-L1 (Situation 3, special rule b): Bazaine's die at the start of a French Combat Phase:
    /// on a 6 the units shut up in Metz may attack this phase, else they remain inactive (they
    /// may always defend). Once rolled in a game the restriction holds for the whole game.
    Bazaine,
    /// FR-F1, FR-B1: lay a siege on a place (a "Siege" marker; its blockade marker on the calendar).
    /// In a game the besiegers' cells and arms, the garrison and what they besiege already come
    /// from the game; the game keeps the siege.
    Siege(Box<SiegeArgs>),
    /// FR-B1: a blockade marker at the end of a turn (held, broken, lifted, or on SURRENDER). In a
    /// game the marker (--start, --advanced, --flipped, --steps) and --turn come from the game.
    Blockade {
        /// The place.
        #[arg(long, value_name = "NAME")]
        place: String,
        /// How the turn ended: held, broken, lifted, surrender.
        #[arg(long, value_name = "END")]
        end: BlockadeEnd,
        /// fortress, metz or paris (default: by the name).
        #[arg(long, value_name = "KIND")]
        kind: Option<String>,
        /// The marker's starting cell ("METZ-2", "PARIS-0", "[2] +3").
        #[arg(long, value_name = "CELL")]
        start: Option<String>,
        /// Cells the marker has moved from its start.
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<i32>(limits::CALENDAR_CELLS), value_name = "N", default_value_t = 0, allow_negative_numbers = true)]
        advanced: i32,
        /// The marker is turned over (broken last turn).
        #[arg(long)]
        flipped: bool,
        /// Cells from the start to SURRENDER, read off your printed calendar (not in the seed).
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::HEXES), value_name = "N")]
        steps: Option<u32>,
        /// The game-turn that ends (Metz's besiegers leave two turns after it capitulates).
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::TURN), value_name = "N")]
        turn: Option<u32>,
    },
    /// FR-L1: a situation's points (2-5: 2 per enemy unit eliminated; 1: the printed conditions).
    /// In a game the units eliminated are counted from the game.
    Points {
        /// The situation, 1-5.
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::SITUATION), value_name = "N")]
        situation: u32,
        /// French units eliminated (German points).
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::UNITS), value_name = "N", default_value_t = 0)]
        french_eliminated: u32,
        /// German units eliminated (French points).
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::UNITS), value_name = "N", default_value_t = 0)]
        german_eliminated: u32,
        /// Situation 1: the conditions met, by their printed order (1-5).
        #[arg(long, value_name = "N,...", value_delimiter = ',', value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::SITUATION))]
        met: Vec<u32>,
        /// French units still besieged in Metz (in a game: from the game).
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::UNITS), value_name = "N")]
        in_metz: Option<u32>,
    },
    /// FR-G1 (the text's G5): a railway transport, at most 12 cells (no dice).
    Rail(RailArgs),
    /// FR-K1 (the text's K2): one passage by sea: port, counter, edge (no dice).
    Sea(SeaArgs),
}

/// `rail`'s options (FR-G1). The railway map is not in the seed: the cells on the line and a
/// section's capacity are read off the printed map.
#[derive(Debug, clap::Args)]
pub struct RailArgs {
    /// The cell it stands on (in a game: the unit's; none: a reinforcement coming onto the map).
    #[arg(long, value_name = "CELL")]
    pub from: Option<String>,
    /// The cell it arrives in.
    #[arg(long, value_name = "CELL")]
    pub to: String,
    /// Cells on the line, as counted on the printed map (10 at most).
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::HEXES), value_name = "N")]
    pub line: Option<u32>,
    /// The section of line used, as you name it ("Metz-Nancy").
    #[arg(long, value_name = "NAME")]
    pub section: Option<String>,
    /// The section's capacity in units, printed at its junction.
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::UNITS), value_name = "N")]
    pub capacity: Option<u32>,
    /// The unit's railway transports earlier this turn (in a game: from the log).
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::COUNT), value_name = "N", default_value_t = 0)]
    pub earlier: u32,
    /// Units carried on the section this phase already (in a game: from the log).
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::UNITS), value_name = "N", default_value_t = 0)]
    pub carried: u32,
    /// An enemy unit stands in the arrival cell (in a game: from the units).
    #[arg(long)]
    pub enemy_held: bool,
    /// The arrival cell is controlled by the enemy and no friendly unit is in it (in a game: from
    /// the units).
    #[arg(long)]
    pub enemy_controlled: bool,
}

/// `sea`'s options (FR-K1). The ports' cells and the arrowed routes are on the printed map.
#[derive(Debug, clap::Args)]
pub struct SeaArgs {
    /// The unit's side (in a game: its card's): only French units sail.
    #[arg(long, value_name = "SIDE")]
    pub side: Option<String>,
    /// Where it is: port, counter1, counter2, west or south (in a game, a unit at sea is on its
    /// counter by the log; a unit on the map embarks from a port unless told).
    #[arg(long, value_name = "PLACE")]
    pub from: Option<SeaPlace>,
    /// The port it embarks at.
    #[arg(long, value_name = "PORT")]
    pub from_port: Option<String>,
    /// Where it goes: port, counter1, counter2, west or south.
    #[arg(long, value_name = "PLACE")]
    pub to: SeaPlace,
    /// The port it goes to (Dunkerque, Calais, Boulogne, Dieppe, Le Havre, Caen).
    #[arg(long, value_name = "PORT")]
    pub port: Option<String>,
    /// The cell it lands on, back on the map (a port's cell, or an edge cell).
    #[arg(long, value_name = "CELL")]
    pub at: Option<String>,
    /// Units in transit now, this one not counted (in a game: from the log).
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::UNITS), value_name = "N", default_value_t = 0)]
    pub in_transit: u32,
    /// The unit's passages this movement phase already (in a game: from the log).
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::COUNT), value_name = "N", default_value_t = 0)]
    pub passages: u32,
}

/// A resolution with what the text says against it as its notes (`kepi resolve`: nobody went
/// ahead yet; in a game the breaches are logged by the verb, "umpire went ahead: ...").
fn with_breaches<O>(mut r: Resolution<O>, said: Vec<String>) -> Resolution<O> {
    r.notes.extend(said);
    r
}

/// `siege`'s options (FR-F1, FR-B1); boxed, so `kepi resolve` stays small.
#[derive(Debug, clap::Args)]
pub struct SiegeArgs {
    /// The place ("Metz", "Paris", "Neuf-Brisach").
    #[arg(long, value_name = "NAME")]
    pub place: String,
    /// The place's cell ("1541"); a fortified camp's cells, comma-separated ("2117,2216,2217").
    #[arg(long, value_name = "CELL,...", value_delimiter = ',', required = true)]
    pub cell: Vec<String>,
    /// fortress, metz or paris (default: by the name; Metz and Paris are the fortified camps).
    #[arg(long, value_name = "KIND")]
    pub kind: Option<String>,
    /// The besieging units (in a game: unit ids or names of one side).
    #[arg(long, value_name = "UNIT,...", value_delimiter = ',')]
    pub by: Vec<String>,
    /// The cells the besiegers stand on, one per --by unit (in a game: from the units).
    #[arg(long, value_name = "CELL,...", value_delimiter = ',')]
    pub besieger_cell: Vec<String>,
    /// None of the besiegers is infantry (in a game: from the units).
    #[arg(long)]
    pub no_infantry: bool,
    /// The kinds of the places the besiegers besiege already (I10; in a game: from the game).
    #[arg(long, value_name = "KIND,...", value_delimiter = ',')]
    pub also_besieging: Vec<String>,
    /// The besieging side, french or german (in a game: the --by units').
    #[arg(long, value_name = "SIDE")]
    pub besieger: Option<String>,
    /// The fortress's value, 1-3 (its blockade marker when the garrison exceeds its stores).
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::FORTRESS_VALUE), value_name = "N")]
    pub coefficient: Option<u32>,
    /// The units in the place (in a game: the other side's units in its cell).
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::UNITS), value_name = "N")]
    pub garrison: Option<u32>,
    /// The blockade calendar cell a situation gives ("METZ-2"), over the one the garrison gives.
    #[arg(long, value_name = "CELL")]
    pub start: Option<String>,
    /// Cells from the start to SURRENDER, read off your printed calendar (not in the seed).
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::HEXES), value_name = "N")]
    pub steps: Option<u32>,
}

/// A place's kind as typed.
fn kind(k: &Option<String>) -> Result<Option<fr1870::BlockadeKind>, MoveError> {
    match k {
        None => Ok(None),
        Some(w) => siege::kind_from_word(&w.trim().to_ascii_lowercase())
            .map(Some)
            .ok_or_else(|| {
                MoveError::usage(format!("--kind: `{w}` (accepted: fortress, metz, paris)"))
            }),
    }
}

/// Resolves one fr1870 action.
/// Over 150 lines: one match with an arm per `kepi resolve fr1870` action.
pub fn run(
    action: &Fr1870Action,
    ctx: Ctx<'_>,
) -> Result<Resolution<serde_json::Value>, MoveError> {
    let t = ctx.tables.get::<crate::fr1870::Fr1870Tables>();
    match action {
        Fr1870Action::Combat {
            attack,
            defend,
            garrison,
            fortress,
            multiplied,
            from_fortress,
            die_mod,
            attacker_unsupplied,
            defender_unsupplied,
            attacker_disorganised,
            defender_disorganised,
            besieger_defending,
            siege,
            assault,
            no_retreat,
            result,
        } => {
            if *attack == 0 {
                return Err(MoveError::usage(
                    "--attack: 0 is no attack (accepted: 1 or more)",
                ));
            }
            if *defend == Some(0) {
                return Err(MoveError::usage(
                    "--defend: 0 is no defence (accepted: 1 or more)",
                ));
            }
            let mk = |p: u32, unsupplied: bool, dis: bool, retreat: bool| FrUnit {
                name: None,
                potential: p,
                arm: Arm::Infantry,
                disorganised: dis,
                supplied: !unsupplied,
                fortress_multiplied: false,
                can_retreat: retreat,
            };
            let defenders = match defend {
                Some(d) => vec![(*d, false)],
                None => garrison_units(garrison)?,
            };
            let mut defenders: Vec<FrUnit> = defenders
                .into_iter()
                .map(|(p, d)| {
                    mk(
                        p,
                        *defender_unsupplied,
                        *defender_disorganised || d,
                        !no_retreat,
                    )
                })
                .collect();
            let fortress = match (fortress, from_fortress) {
                (Some(c), _) => Some(FrFortress {
                    choice: Some(if multiplied.is_empty() {
                        GarrisonChoice::Best
                    } else {
                        GarrisonChoice::Chosen
                    }),
                    ..FrFortress::new(*c, FortressRole::DefendsOccupied)
                }),
                (None, Some(c)) => Some(FrFortress::new(*c, FortressRole::GarrisonAttacks)),
                (None, None) => None,
            };
            mark_multiplied(multiplied, fortress.is_some(), &mut defenders)?;
            let input = FrCombatInput {
                attackers: vec![mk(
                    *attack,
                    *attacker_unsupplied,
                    *attacker_disorganised,
                    true,
                )],
                defenders,
                fortress,
                die_mod: *die_mod,
                besieger_defending: *besieger_defending,
                siege_combat: *siege || *assault,
                assault: *assault,
            };
            Ok(fr1870::combat_with_result(&input, t, ctx.dice, result.as_deref())?.erase())
        }
        Fr1870Action::Storm {
            value,
            occupied,
            cavalry,
        } => {
            let input = StormInput {
                value: *value,
                occupied: *occupied,
                infantry: !cavalry,
            };
            Ok(fr1870::storm(&input, t, ctx.dice)?.erase())
        }
        Fr1870Action::Bazaine => Ok(fr1870::bazaine(ctx.dice)?.erase()),
        Fr1870Action::Siege(a) => Ok(siege::lay_siege(&siege_input(a)?, t)?.erase()),
        Fr1870Action::Blockade {
            place,
            end,
            kind: k,
            start,
            advanced,
            flipped,
            steps,
            turn,
        } => {
            let input = TurnInput {
                place: place.clone(),
                kind: kind(k)?,
                end: *end,
                start: start.clone(),
                advanced: *advanced,
                flipped: *flipped,
                steps: *steps,
                turn: *turn,
            };
            Ok(siege::blockade_turn(&input, t)?.erase())
        }
        Fr1870Action::Points {
            situation,
            french_eliminated,
            german_eliminated,
            met,
            in_metz,
        } => {
            let input = PointsInput {
                situation: *situation,
                french_eliminated: *french_eliminated,
                german_eliminated: *german_eliminated,
                met: met.clone(),
                in_metz: *in_metz,
            };
            Ok(siege::points(&input, t)?.erase())
        }
        Fr1870Action::Rail(a) => {
            let input = rail_input(a);
            let said = transport::rail_breaches(&input);
            Ok(with_breaches(transport::rail(&input)?, said).erase())
        }
        Fr1870Action::Sea(a) => {
            let input = sea_input(a);
            let said = transport::sea_breaches(&input);
            Ok(with_breaches(transport::sea(&input)?, said).erase())
        }
    }
}

/// `--garrison` as typed: each unit's printed potential and whether it is disorganised (`6d`).
fn garrison_units(typed: &[String]) -> Result<Vec<(u32, bool)>, MoveError> {
    if typed.is_empty() {
        return Err(MoveError::usage(
            "--defend or --garrison: the defence is missing (accepted: --defend N, or --garrison \
             P[d],...)",
        ));
    }
    typed
        .iter()
        .map(|w| {
            let t = w.trim();
            let (n, d) = match t.strip_suffix(['d', 'D']) {
                Some(n) => (n, true),
                None => (t, false),
            };
            let p = kepi_game::engine::verbs::num::parse_within(n, limits::STRENGTH)
                .map_err(|m| MoveError::usage(format!("--garrison: `{w}`: {m} (accepted: P or Pd, e.g. 6d)")))?;
            if p == 0 {
                return Err(MoveError::usage(format!(
                    "--garrison: `{w}`: 0 is no unit (accepted: 1 or more, `d` after a disorganised one)"
                )));
            }
            Ok((p, d))
        })
        .collect()
}

/// FR-F1 (H11): `--multiplied` as places in the defenders (1 = the first), marked on them; none
/// typed leaves the defender's best. Refused without `--fortress`, past the last unit or twice.
fn mark_multiplied(
    typed: &[String],
    fortress: bool,
    defenders: &mut [FrUnit],
) -> Result<(), MoveError> {
    if typed.is_empty() {
        return Ok(());
    }
    if !fortress {
        return Err(MoveError::usage(
            "--multiplied: no occupied fortress (accepted with --fortress N)",
        ));
    }
    let n = defenders.len();
    for w in typed {
        let i: usize = w
            .trim()
            .parse()
            .ok()
            .filter(|i| (1..=n).contains(i))
            .ok_or_else(|| {
                MoveError::usage(format!(
                    "--multiplied: `{w}` is not a defending unit's place (accepted: 1 to {n}, the \
                 order of --garrison)"
                ))
            })?;
        let u = &mut defenders[i - 1];
        if u.fortress_multiplied {
            return Err(MoveError::usage(format!(
                "--multiplied: `{w}` is named twice"
            )));
        }
        u.fortress_multiplied = true;
    }
    Ok(())
}

/// The siege `kepi resolve fr1870 siege` lays (FR-F1, FR-B1), its words read: `--besieger` and
/// `--kind`, then `--also-besieging` (said as itself).
fn siege_input(a: &SiegeArgs) -> Result<SiegeInput, MoveError> {
    let SiegeArgs {
        place,
        cell,
        kind: k,
        by,
        besieger_cell,
        no_infantry,
        also_besieging,
        besieger,
        coefficient,
        garrison,
        start,
        steps,
    } = a;
    if let Some(b) = besieger
        && !matches!(b.trim().to_ascii_lowercase().as_str(), "french" | "german")
    {
        return Err(MoveError::usage(format!(
            "--besieger: `{b}` (accepted: french, german)"
        )));
    }
    let also = also_besieging
        .iter()
        .map(|w| kind(&Some(w.clone())).map(|k| k.unwrap_or(fr1870::BlockadeKind::Fortress)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| MoveError::usage(e.message.replace("--kind", "--also-besieging")))?;
    Ok(SiegeInput {
        place: place.clone(),
        cells: cell.clone(),
        kind: kind(k)?,
        by: by.clone(),
        by_cells: besieger_cell.clone(),
        no_infantry: *no_infantry,
        also_besieging: also,
        besieger: besieger.clone(),
        coefficient: *coefficient,
        garrison: *garrison,
        start: start.clone(),
        steps: *steps,
    })
}

/// The railway transport `kepi resolve fr1870 rail` asks (FR-G1), for "the unit".
fn rail_input(a: &RailArgs) -> RailInput {
    RailInput {
        unit: "the unit".to_string(),
        from: a.from.clone(),
        to: a.to.clone(),
        line: a.line,
        earlier_this_turn: a.earlier,
        section: a.section.clone(),
        capacity: a.capacity,
        carried_on_section: a.carried,
        to_enemy_held: a.enemy_held,
        to_enemy_controlled: a.enemy_controlled,
    }
}

/// The passage by sea `kepi resolve fr1870 sea` asks (FR-K1), for "the unit".
fn sea_input(a: &SeaArgs) -> SeaInput {
    SeaInput {
        unit: "the unit".to_string(),
        side: a.side.clone(),
        from: a.from,
        from_port: a.from_port.clone(),
        to: a.to,
        to_port: a.port.clone(),
        at: a.at.clone(),
        in_transit: a.in_transit,
        passages_this_phase: a.passages,
    }
}
