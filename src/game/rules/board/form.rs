//! The odds-ratio board games in play: SPI Franco-Prussian War combat (SPI-C1..C5, SPI-R1) and 1870
//! combat (FR-C1, FR-C2, FR-S1) between units of a game. The attacker is the acting unit, the
//! defenders the target and the enemy units stacked with it (all defend together, SPI-C2). A CRT
//! cell kepi does not know asks the umpire for the printed result (`entered_result`).

use serde::{Deserialize, Serialize};

use crate::dice::DiceSource;
use crate::engine::game::Game;
use crate::engine::game::{Action, Flag, GameState, Supply, UnitState};
use crate::engine::play::board::{hex_in, position_in};
use crate::engine::play::refuse::{name, opposed};
use crate::engine::play::{Resolved, done, lose, unit};
use crate::roster::{Arm, Position};
use crate::rules::fr1870::{
    self, Fate, FortressRole, Fr1870Tables, FrCombatInput, FrFortress, FrUnit,
};
use crate::rules::spi::{self, SpiCombatInput, SpiLoss, SpiTables, SpiUnit, SupplyState};
use crate::rules::{Effect, ModifierLine, RuleError, RuleId};
use crate::tables::Provenance;

/// The acting unit and the units defending the target's hex (the target first), by id.
fn engaged(
    state: &GameState,
    actor: Option<&str>,
    target: Option<&str>,
) -> (Vec<String>, Vec<String>) {
    let attackers: Vec<String> = actor
        .and_then(|id| state.unit(id))
        .map(|u| vec![u.unit.id.clone()])
        .unwrap_or_default();
    let mut defenders = Vec::new();
    if let Some(t) = target.and_then(|id| state.unit(id)) {
        defenders.push(t.unit.id.clone());
        if matches!(t.position, Position::Hex { .. }) {
            for u in &state.units {
                if u.unit.id != t.unit.id
                    && u.position == t.position
                    && u.unit.side == t.unit.side
                    && !u.eliminated()
                {
                    defenders.push(u.unit.id.clone());
                }
            }
        }
    }
    (attackers, defenders)
}

/// SPI-C2 / FR-C1: the units in one attack on one hex: `attackers` (ids, all of one side, none
/// eliminated) against every enemy unit standing in `hex` (they all defend together). Refused: no
/// attacker, attackers of both sides, a hex that is not a hex of the map, a hex holding a unit of
/// the attackers' own side (an attack on a friendly hex), a hex with no enemy in it. Returns the
/// attackers and the defenders, by id, in roster order for the defenders.
pub fn engage_hex(
    state: &GameState,
    attackers: &[String],
    hex: Position,
) -> Result<(Vec<String>, Vec<String>), String> {
    let first = attackers
        .first()
        .ok_or_else(|| "no attacker: name them with --attackers A,B,...".to_string())?;
    let lead = state
        .unit(first)
        .ok_or_else(|| format!("no unit `{first}` in this game"))?;
    let mut ids = Vec::new();
    for id in attackers {
        let u = state
            .unit(id)
            .ok_or_else(|| format!("no unit `{id}` in this game"))?;
        if u.unit.side != lead.unit.side {
            return Err(format!(
                "{} ({}) and {} ({}) are on opposite sides: attackers attack together from one side",
                lead.unit.name, lead.unit.side, u.unit.name, u.unit.side
            ));
        }
        if u.eliminated() {
            return Err(format!("{} is eliminated and cannot attack", u.unit.name));
        }
        if !ids.contains(&u.unit.id) {
            ids.push(u.unit.id.clone());
        }
    }
    if !matches!(hex, Position::Hex { .. }) {
        return Err(format!(
            "`{hex}` is not a hex of the map (a hex label such as 0304)"
        ));
    }
    let here: Vec<&UnitState> = state
        .units
        .iter()
        .filter(|u| u.position == hex && !u.eliminated())
        .collect();
    if let Some(f) = here.iter().find(|u| u.unit.side == lead.unit.side) {
        return Err(format!(
            "hex {hex} holds {} of the attackers' own side ({}): a unit cannot attack a friendly hex",
            f.unit.name, lead.unit.side
        ));
    }
    let defenders: Vec<String> = here.iter().map(|u| u.unit.id.clone()).collect();
    if defenders.is_empty() {
        return Err(format!(
            "hex {hex} holds no enemy unit: there is nothing to attack"
        ));
    }
    Ok((ids, defenders))
}

/// SPI-C3: whether the attackers' hexes make their attack on `hex` a flanking attack. The text:
/// "in order to conduct a Flanking Attack the Attacking Player must have participating attacking
/// units in, or adjacent to, every hex surrounding the Defender's hex" (two units directly
/// opposite, or three in a triangle, are the minimum). Every attacker must stand on the map next
/// to the hex ("Only those Friendly units directly adjacent to a given Enemy unit may participate",
/// SPI-C1 case A). Err says why not, naming the units or the hexes left open.
pub fn spi_flank_geometry(
    state: &GameState,
    attackers: &[String],
    hex: Position,
) -> Result<(), String> {
    let layout = state.system.hex_layout();
    let centre = hex_in(hex, layout).ok_or_else(|| {
        "the defending hex is not on the map: a flanking attack is read from the map (SPI-C3)"
            .to_string()
    })?;
    let mut ring = [false; 6];
    for u in attackers.iter().filter_map(|id| state.unit(id)) {
        let Some(h) = hex_in(u.position, layout) else {
            return Err(format!(
                "{} is not on the map: a flanking attack is read from the attackers' hexes (SPI-C3)",
                u.unit.name
            ));
        };
        if h.distance(centre) != 1 {
            return Err(format!(
                "{} in {} is not next to {hex}: only adjacent units attack (SPI-C1 case A)",
                u.unit.name, u.position
            ));
        }
        for (i, n) in centre.neighbours().into_iter().enumerate() {
            ring[i] |= n == h;
        }
    }
    if spi::is_flanking_from(ring) {
        return Ok(());
    }
    // The ring hexes neither held nor next to a held one (ring neighbours are adjacent).
    let open: Vec<String> = centre
        .neighbours()
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !(ring[*i] || ring[(i + 5) % 6] || ring[(i + 1) % 6]))
        .map(|(_, n)| position_in(n, layout).map_or_else(|| format!("{n:?}"), |p| p.to_string()))
        .collect();
    Err(format!(
        "not a flanking attack: no attacker in or next to {} around {hex}; it needs attackers on \
         two opposite sides of the hex or three in a triangle (SPI-C3)",
        open.join(", ")
    ))
}

fn units<'a>(
    state: &'a GameState,
    ids: &[String],
    field: &str,
) -> Result<Vec<&'a UnitState>, RuleError> {
    ids.iter().map(|id| unit(state, Some(id), field)).collect()
}

fn entered(e: &Option<String>) -> Option<&str> {
    e.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

/// SPI-S1: the game's supply state as SPI's.
pub fn spi_supply(s: Supply) -> SupplyState {
    match s {
        Supply::Supplied => SupplyState::Supplied,
        Supply::Unsupplied => SupplyState::Unsupplied,
        Supply::Isolated => SupplyState::Isolated,
    }
}

/// SPI-C1, SPI-S1, SPI-H2, SPI-C5: a unit's strength, supply, formation and train as SPI sees them.
pub fn spi_unit(u: &UnitState) -> SpiUnit {
    SpiUnit {
        name: Some(u.unit.name.clone()),
        strength: u.strength,
        supply: spi_supply(u.supply),
        // SPI-H2: as changed in play, else the card's.
        formation: if u.flag(crate::engine::game::Flag::Extended) {
            spi::Formation::Extended
        } else {
            spi::Formation::Concentrated
        },
        entrained: u.entrained,
    }
}

/// What a unit is in an SPI combat: only combat units have a strength that attacks or defends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpiRole {
    /// SPI-C1: a combat unit: its strength attacks or defends.
    Combat,
    /// SPI-F1: a fortification unit: "an intrinsic Combat Strength of their own, which may only be
    /// used on the defensive"; combat units in its hex defend doubled.
    Fortification,
    /// SPI-E1 (EB units, case D): "EB units are not in any way similar to Combat or Fortification
    /// units": they neither attack nor defend and add nothing.
    Eb,
    /// SPI-H1: a dummy counter, real "in every manner, except on the battlefield": revealed and
    /// removed when attacked, it adds nothing and may not attack.
    Dummy,
}

/// SPI-C1, SPI-F1, SPI-E1, SPI-H1: a unit's part in a combat, from its card's arm.
pub fn spi_role(u: &UnitState) -> SpiRole {
    match u.unit.arm {
        Arm::Fortress => SpiRole::Fortification,
        Arm::Railway => SpiRole::Eb,
        Arm::Dummy => SpiRole::Dummy,
        _ => SpiRole::Combat,
    }
}

/// SPI-C1, SPI-F1, SPI-H1: one side's combat units as SPI sees them, the fortification strength
/// in the hex (the sum of its fortification units, none when 0) and whether only dummy counters
/// hold it (no combat unit, no fortification, at least one dummy).
fn spi_side(state: &GameState, ids: &[String]) -> (Vec<SpiUnit>, Option<u32>, bool) {
    let us: Vec<&UnitState> = ids.iter().filter_map(|id| state.unit(id)).collect();
    let combat: Vec<SpiUnit> = us
        .iter()
        .filter(|u| spi_role(u) == SpiRole::Combat)
        .map(|u| spi_unit(u))
        .collect();
    let fort: u32 = us
        .iter()
        .filter(|u| spi_role(u) == SpiRole::Fortification)
        .map(|u| u.strength)
        .sum();
    let dummies = us.iter().any(|u| spi_role(u) == SpiRole::Dummy);
    let only_dummies = dummies && combat.is_empty() && fort == 0;
    (combat, (fort > 0).then_some(fort), only_dummies)
}

/// FR-C1, FR-S1: a unit's potential, arm, disorganisation and supply as 1870 sees them.
pub fn fr_unit(u: &UnitState) -> FrUnit {
    FrUnit {
        name: Some(u.unit.name.clone()),
        potential: u.strength,
        arm: if u.unit.arm == Arm::Cavalry {
            fr1870::Arm::Cavalry
        } else {
            fr1870::Arm::Infantry
        },
        disorganised: u.disorganised,
        supplied: u.supply == Supply::Supplied,
        fortress_multiplied: false,
        can_retreat: true,
    }
}

/// An SPI combat form.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpiForm {
    /// Acting unit id (the attacker).
    pub actor: Option<String>,
    /// Target unit id (the defender losses go to first).
    pub target: Option<String>,
    /// The attacking units, in the order of `input.attackers`.
    pub attacker_ids: Vec<String>,
    /// The defending units, in the order of `input.defenders` (the target first).
    pub defender_ids: Vec<String>,
    /// The combat's inputs.
    pub input: SpiCombatInput,
    /// SPI-C1: the result read off the printed chart for a cell kepi does not know ("A1/D2").
    #[serde(default)]
    pub entered_result: Option<String>,
    /// SPI-R1: the owner's split of combat point losses over the engaged units, unit id and CP
    /// (`--losses UNIT=N,...`); a side none of whose units is named takes kepi's default order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub losses: Vec<(String, u32)>,
}

impl SpiForm {
    /// The one SPI action: combat.
    pub fn all() -> Vec<SpiForm> {
        vec![SpiForm {
            actor: None,
            target: None,
            attacker_ids: Vec::new(),
            defender_ids: Vec::new(),
            input: SpiCombatInput {
                attackers: Vec::new(),
                defenders: Vec::new(),
                fortress: None,
                flank: false,
                hasty: false,
                dummies_only: false,
                defender_rough: false,
                all_through_ridge: false,
                all_through_river: false,
            },
            entered_result: None,
            losses: Vec::new(),
        }]
    }

    /// Sets the units and their strengths, supply, formation and train from the game.
    pub fn prefill(&mut self, state: &GameState, actor: Option<&str>, target: Option<&str>) {
        self.engage_acting(state, actor, target)
    }

    /// SPI-C2: sets several attackers against every unit in a hex (see [`engage_hex`]): the first
    /// attacker acts, the first defender is the target; strengths, supply, formation and train come
    /// from the units. Only combat units count (SPI-C1): the hex's fortification units give
    /// `input.fortress` (SPI-F1), EB units add nothing (SPI-E1), dummy counters alone make it a
    /// dummies-only hex (SPI-H1). `attacker_ids` and `defender_ids` keep every engaged unit.
    pub fn prefill_engaged(
        &mut self,
        state: &GameState,
        attackers: &[String],
        defenders: &[String],
    ) {
        self.actor = attackers.first().cloned();
        self.target = defenders.first().cloned();
        self.attacker_ids = attackers.to_vec();
        self.defender_ids = defenders.to_vec();
        (self.input.attackers, _, _) = spi_side(state, attackers);
        (
            self.input.defenders,
            self.input.fortress,
            self.input.dummies_only,
        ) = spi_side(state, defenders);
        self.entered_result = None;
        self.losses.clear();
    }

    /// Issue 17: a line for each engaged unit that is not a combat unit, naming it and saying
    /// what it adds (the combat units' and the fortification's values are the engine's lines).
    fn role_lines(&self, state: &GameState) -> Vec<ModifierLine> {
        let mut out = Vec::new();
        for (side, ids) in [
            ("attacker", &self.attacker_ids),
            ("defender", &self.defender_ids),
        ] {
            for u in ids.iter().filter_map(|id| state.unit(id)) {
                let (label, rule) = match spi_role(u) {
                    SpiRole::Combat => continue,
                    SpiRole::Fortification => (
                        format!(
                            "{side} {}: fortification unit, strength {} (defence only; combat \
                             units in it defend doubled)",
                            u.unit.name, u.strength
                        ),
                        "SPI-F1",
                    ),
                    SpiRole::Eb => (
                        format!(
                            "{side} {}: EB unit, not a combat unit: adds nothing",
                            u.unit.name
                        ),
                        "SPI-E1",
                    ),
                    SpiRole::Dummy => (
                        format!(
                            "{side} {}: dummy counter, revealed and removed: adds nothing",
                            u.unit.name
                        ),
                        "SPI-H1",
                    ),
                };
                out.push(ModifierLine::new(
                    label,
                    Effect::Note,
                    RuleId::new(rule),
                    Provenance::Seed,
                ));
            }
        }
        out
    }

    /// SPI-C1..C5: resolves; with dice and a known (or entered) result, SPI-R1's losses in combat
    /// points fall on the chosen unit first (the target; the acting unit), then the others.
    pub fn resolve(
        &self,
        state: &GameState,
        t: &SpiTables,
        dice: Option<&mut DiceSource>,
    ) -> Result<Resolved, RuleError> {
        let rolling = dice.is_some();
        let mut res = spi::combat_with_result(&self.input, t, dice, entered(&self.entered_result))?;
        let mut lines = self.role_lines(state);
        lines.append(&mut res.modifiers);
        res.modifiers = lines;
        let mut fx = Vec::new();
        if !rolling {
            return Ok(done(res, fx));
        }
        if let Some(o) = res.outcome.as_ref()
            && o.result.is_none()
            && !self.input.dummies_only
        {
            return Err(ask_for_result(
                &o.odds,
                o.die,
                o.modified_die,
                o.valid_results.as_deref(),
            ));
        }
        let att = units(state, &self.attacker_ids, "attacker")?;
        let def = units(state, &self.defender_ids, "defender")?;
        // SPI-H1: "If they should be Dummy units, they are removed": revealed by the combat,
        // whatever its result.
        for u in def.iter().filter(|u| spi_role(u) == SpiRole::Dummy) {
            lose(u, u.strength, &mut fx);
        }
        for (id, _) in &self.losses {
            let ok = att
                .iter()
                .chain(&def)
                .any(|u| &u.unit.id == id && loss_order(&[*u]).len() == 1);
            if !ok {
                return Err(RuleError::input(
                    "--losses",
                    format!("`{id}` is not an engaged combat or fortification unit"),
                    "ids of the attackers and of the units in the attacked hex (SPI-R1)",
                ));
            }
        }
        if let Some(r) = res.outcome.as_ref().and_then(|o| o.result) {
            split_losses(
                &loss_order(&def),
                r.defender,
                &self.losses,
                "defender",
                &mut fx,
            )?;
            split_losses(
                &loss_order(&att),
                r.attacker,
                &self.losses,
                "attacker",
                &mut fx,
            )?;
        }
        Ok(done(res, fx))
    }
}

/// SPI-C1, FR-C1: a rolled die on a chart cell kepi does not know, with no result entered: nothing
/// is applied or logged, and the error names the die, so the printed result is entered for the die
/// that produced it. Nothing moved the seeded dice, so the next roll with kepi's dice shows the
/// same face; physical dice are entered again with the result. (RULES.md, data provenance: an
/// `unknown` cell "asks the umpire to enter the result from the printed chart".)
fn ask_for_result(
    odds: &str,
    die: Option<u32>,
    modified: Option<i32>,
    valid: Option<&str>,
) -> RuleError {
    let die = match (die, modified) {
        (Some(d), Some(m)) if i64::from(d) != i64::from(m) => format!("d6={d} (modified {m})"),
        (Some(d), _) => format!("d6={d}"),
        _ => "the die".to_string(),
    };
    RuleError::input(
        "--result",
        format!(
            "the die shows {die}; kepi does not know the {odds} cell for it, so nothing was \
             applied: enter the result printed on your chart for this die and {}",
            crate::rules::SAME_FACE
        ),
        valid
            .unwrap_or("the result printed on your chart")
            .to_string(),
    )
}

/// SPI-R1: the units that can take combat point losses, in the default order: the combat units,
/// then the fortification ("Players on the defensive in a hex with a Fortification unit may lose
/// from either the Fortification unit or any Combat units in the fort"). EB units and dummies take
/// none.
fn loss_order<'a>(us: &[&'a UnitState]) -> Vec<&'a UnitState> {
    let of = |r: SpiRole| us.iter().copied().filter(move |u| spi_role(u) == r);
    of(SpiRole::Combat)
        .chain(of(SpiRole::Fortification))
        .collect()
}

/// SPI-R1 (A): "the owning Player may distribute the Combat Point losses among the units involved
/// in any fashion he wishes, as long as the separate losses are equivalent to the total". The
/// owner's split (`chosen`, unit id and CP) for this side's units `us`, checked against the
/// result: each unit at most its strength, the sum the loss (or all the side has, when the loss is
/// more). No entry for this side: kepi's default order ([`spi_losses`]).
fn split_losses(
    us: &[&UnitState],
    loss: SpiLoss,
    chosen: &[(String, u32)],
    side: &str,
    fx: &mut Vec<Action>,
) -> Result<(), RuleError> {
    let mine: Vec<(&UnitState, u32)> = chosen
        .iter()
        .filter_map(|(id, n)| us.iter().find(|u| &u.unit.id == id).map(|u| (*u, *n)))
        .collect();
    if mine.is_empty() {
        spi_losses(us, loss, fx);
        return Ok(());
    }
    let accepted = "UNIT=N,... over the side's engaged units, adding up to the combat points the \
                    result takes (SPI-R1)";
    let due = match loss {
        SpiLoss::Cp(n) => n.min(us.iter().map(|u| u.strength).sum()),
        SpiLoss::None | SpiLoss::Eliminated => {
            return Err(RuleError::input(
                "--losses",
                format!(
                    "the result leaves the {side} no combat points to spread ({}), yet --losses \
                     names {}",
                    if loss == SpiLoss::None {
                        "it loses nothing"
                    } else {
                        "every unit is eliminated"
                    },
                    mine.iter()
                        .map(|(u, _)| u.unit.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                accepted,
            ));
        }
    };
    for (u, n) in &mine {
        if *n > u.strength {
            return Err(RuleError::input(
                "--losses",
                format!(
                    "{}={n}: {} has {} combat points",
                    u.unit.id, u.unit.name, u.strength
                ),
                accepted,
            ));
        }
    }
    let sum: u32 = mine.iter().map(|(_, n)| n).sum();
    if sum != due {
        return Err(RuleError::input(
            "--losses",
            format!(
                "the {side}'s losses add up to {sum}, but the result takes {due} combat points"
            ),
            accepted,
        ));
    }
    for (u, n) in mine {
        lose(u, n, fx);
    }
    Ok(())
}

/// SPI-R1: combat points lost, spread over the units in order (the owner's default: the first unit
/// takes them until it is gone); eliminated: every unit.
fn spi_losses(us: &[&UnitState], loss: SpiLoss, fx: &mut Vec<Action>) {
    match loss {
        SpiLoss::None => {}
        SpiLoss::Cp(mut n) => {
            for u in us {
                if n == 0 {
                    break;
                }
                n -= lose(u, n, fx);
            }
        }
        SpiLoss::Eliminated => {
            for u in us {
                lose(u, u.strength, fx);
            }
        }
    }
}

/// A 1870 combat form.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FrForm {
    /// Acting unit id (the attacker).
    pub actor: Option<String>,
    /// Target unit id.
    pub target: Option<String>,
    /// The attacking units, in the order of `input.attackers`.
    pub attacker_ids: Vec<String>,
    /// The defending units, in the order of `input.defenders` (the target first).
    pub defender_ids: Vec<String>,
    /// The combat's inputs.
    pub input: FrCombatInput,
    /// FR-C1: the result read off the printed chart for a cell kepi does not know ("AD,DR").
    #[serde(default)]
    pub entered_result: Option<String>,
    /// FR-C2 (E): the attacker's choice of the units he eliminates in an exchange, unit id and
    /// printed potential (`--losses UNIT=N,...`); none named: kepi eliminates none and notes the
    /// potential the owner must still remove.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub losses: Vec<(String, u32)>,
    /// FR-C3: the attacked cavalry refuses combat and retreats one cell (no die is rolled).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cavalry_refuses: bool,
}

impl FrForm {
    /// The one 1870 action: combat.
    pub fn all() -> Vec<FrForm> {
        let mut input = FrCombatInput::plain(1, 1);
        input.attackers.clear();
        input.defenders.clear();
        vec![FrForm {
            actor: None,
            target: None,
            attacker_ids: Vec::new(),
            defender_ids: Vec::new(),
            input,
            entered_result: None,
            losses: Vec::new(),
            cavalry_refuses: false,
        }]
    }

    /// Sets the units and their potentials, arms, disorganisation and supply from the game.
    pub fn prefill(&mut self, state: &GameState, actor: Option<&str>, target: Option<&str>) {
        self.engage_acting(state, actor, target)
    }

    /// FR-C1: sets several attackers against every unit in a hex (see [`engage_hex`]): the first
    /// attacker acts, the first defender is the target; potentials, arms, disorganisation and
    /// supply come from the units.
    pub fn prefill_engaged(
        &mut self,
        state: &GameState,
        attackers: &[String],
        defenders: &[String],
    ) {
        // H7: the besiegers of a fortress defend as one whole.
        let defenders = &with_besiegers(state, defenders);
        self.actor = attackers.first().cloned();
        self.target = defenders.first().cloned();
        self.attacker_ids = attackers.to_vec();
        self.defender_ids = defenders.to_vec();
        let (att, att_fort) = fr_side(state, attackers);
        let (def, def_fort) = fr_side(state, defenders);
        self.input.fortress = None;
        self.input.attackers = att.iter().map(|u| fr_unit(u)).collect();
        self.input.defenders = def.iter().map(|u| fr_unit(u)).collect();
        if let Some((c, _)) = def_fort {
            let role = if def.is_empty() {
                FortressRole::DefendsUnoccupied
            } else {
                self.input.defenders = fr1870::garrison(&self.input.defenders, c);
                FortressRole::DefendsOccupied
            };
            self.input.fortress = Some(FrFortress {
                coefficient: c,
                role,
            });
        } else if let Some((c, occupied)) = att_fort {
            self.input.fortress = Some(FrFortress {
                coefficient: c,
                role: if occupied {
                    FortressRole::GarrisonAttacks
                } else {
                    FortressRole::SupportsRelief
                },
            });
        }
        self.entered_result = None;
        self.losses.clear();
        self.cavalry_refuses = false;
        fr_sieges(state, attackers, defenders, &mut self.input);
    }

    /// FR-C1, FR-C2: resolves; with dice and a known (or entered) result, each unit's fate:
    /// eliminated loses all its strength, disorganised is marked, retreats are noted for the umpire.
    pub fn resolve(
        &self,
        state: &GameState,
        t: &Fr1870Tables,
        dice: Option<&mut DiceSource>,
    ) -> Result<Resolved, RuleError> {
        let rolling = dice.is_some();
        if self.cavalry_refuses {
            return self.cavalry_retreats(state, t, rolling);
        }
        let mut res =
            fr1870::combat_with_result(&self.input, t, dice, entered(&self.entered_result))?;
        res.notes.extend(besiegers_note(state, &self.defender_ids));
        if rolling
            && let Some(o) = res.outcome.as_ref()
            && o.result.is_none()
        {
            return Err(ask_for_result(
                &o.odds,
                o.die,
                o.modified_die,
                o.valid_results.as_deref(),
            ));
        }
        let mut fx = Vec::new();
        let mut no_attacker_left = false;
        if rolling && let Some(e) = res.outcome.as_ref().and_then(|o| o.effects.as_ref()) {
            // FR-F1: the fates are the fighting units' (fortress cards are the fortress, not units).
            let fighting = |ids: &[String], field: &str| -> Result<Vec<&UnitState>, RuleError> {
                Ok(units(state, ids, field)?
                    .into_iter()
                    .filter(|u| !matches!(u.unit.arm, Arm::Fortress | Arm::Railway | Arm::Dummy))
                    .collect())
            };
            let att = fighting(&self.attacker_ids, "attacker")?;
            let def = fighting(&self.defender_ids, "defender")?;
            for (us, fates) in [(&att, &e.attackers), (&def, &e.defenders)] {
                for (u, fate) in us.iter().zip(fates) {
                    fate_effects(u, *fate, &mut fx);
                }
            }
            if e.besieger_disorganises_one {
                fx.push(Action::Note {
                    text: "FR-F1: the besieger disorganises one of his units, at his choice"
                        .to_string(),
                });
            }
            let gone: Vec<&str> = att
                .iter()
                .zip(&e.attackers)
                .filter(|(_, f)| **f == Fate::Eliminated)
                .map(|(u, _)| u.unit.id.as_str())
                .collect();
            let chosen = exchange_losses(&att, e.attacker_must_lose, &self.losses)?;
            for u in &chosen {
                if !gone.contains(&u.unit.id.as_str()) {
                    lose(u, u.strength, &mut fx);
                }
            }
            // FR-C2: "the victor may occupy the vacated cell": not when no attacker is left.
            no_attacker_left = !att.is_empty()
                && att.iter().all(|u| {
                    gone.contains(&u.unit.id.as_str())
                        || chosen.iter().any(|c| c.unit.id == u.unit.id)
                });
            if let Some(n) = e.attacker_must_lose {
                if chosen.is_empty() {
                    // FR-C2: the default when the owner named no unit: kepi eliminates none and
                    // leaves the choice to him, as a check due (FR-C2 E, queued by the rule
                    // set's checks) and a note on the log.
                    res.notes.push(format!(
                        "FR-C2 E: no losses chosen (--losses, or the window's chooser): kepi \
                         eliminated no attacking unit; the attacker still eliminates engaged \
                         units of at least {n} printed potential, at his choice (a check is due)"
                    ));
                    fx.push(Action::Note {
                        text: format!(
                            "FR-C2 exchange: the attacker eliminates engaged units of at least {n} potential"
                        ),
                    });
                } else {
                    let names: Vec<String> = chosen
                        .iter()
                        .map(|u| format!("{} ({})", u.unit.name, u.strength))
                        .collect();
                    res.notes.push(format!(
                        "FR-C2 E: the attacker's choice: {} eliminated, at least {n} printed \
                         potential",
                        names.join(", ")
                    ));
                }
            }
        }
        if no_attacker_left
            && let Some(e) = res.outcome.as_mut().and_then(|o| o.effects.as_mut())
            && e.may_advance
        {
            e.may_advance = false;
            let advance = "FR-C2: the victor may occupy";
            e.notes.retain(|n| !n.starts_with(advance));
            res.notes.retain(|n| !n.starts_with(advance));
            res.notes.push(
                "FR-C2: every attacking unit is eliminated: no one advances into the vacated cell"
                    .to_string(),
            );
        }
        Ok(done(res, fx))
    }
}

impl FrForm {
    /// FR-C3: why the cavalry may not refuse this combat (see [`fr1870::cavalry_refusal`]), when
    /// the form says it does; None otherwise.
    pub fn cavalry_refusal(&self) -> Option<String> {
        if !self.cavalry_refuses {
            return None;
        }
        fr1870::cavalry_refusal(&self.input).err()
    }

    /// FR-C3: the cavalry refuses combat: no die; with `apply`, each defending unit's retreat is a
    /// "must retreat" marker, as a DR result's unit does (the owner moves it one cell).
    fn cavalry_retreats(
        &self,
        state: &GameState,
        t: &Fr1870Tables,
        apply: bool,
    ) -> Result<Resolved, RuleError> {
        let res = fr1870::cavalry_refuses(&self.input, t)?;
        let mut fx = Vec::new();
        if apply {
            for u in units(state, &self.defender_ids, "defender")? {
                // It carries "must retreat" until it moves, as a DR result's unit does (FR-C2).
                if u.unit.arm == Arm::Cavalry {
                    fx.push(Action::SetFlag {
                        unit: u.unit.id.clone(),
                        flag: Flag::MustRetreat,
                        on: true,
                    });
                }
            }
        }
        Ok(done(res, fx))
    }
}

/// FR-C2 (E): "The Attacker must then eliminate, from among his units that took part in the
/// combat, a total of combat points at least equal to the total (taking the printed combat
/// potential) lost by the Defender." The owner's choice (`chosen`: unit id and potential) among the
/// attacking units `att`, checked: each an engaged attacker, named once, N its whole printed
/// potential (a counter is eliminated whole, which is why the text says "at least"; 0 leaves it),
/// the sum at least `must_lose` (or every attacker, when they have less). Returns the units to
/// eliminate; none when nothing is chosen. Err names `--losses` when the choice does not fit the
/// result (no exchange, or too little).
fn exchange_losses<'a>(
    att: &[&'a UnitState],
    must_lose: Option<u32>,
    chosen: &[(String, u32)],
) -> Result<Vec<&'a UnitState>, RuleError> {
    let accepted = "UNIT=N,... over the attacking units, each N the unit's printed potential (it is \
                    eliminated), adding up to at least the potential the defender lost (FR-C2 E)";
    if chosen.is_empty() {
        return Ok(Vec::new());
    }
    let Some(due) = must_lose else {
        return Err(RuleError::input(
            "--losses",
            "the result is not an exchange (E): the owner has no losses to choose",
            accepted,
        ));
    };
    let mut out: Vec<&UnitState> = Vec::new();
    let mut sum = 0;
    for (id, n) in chosen {
        let Some(u) = att.iter().copied().find(|u| &u.unit.id == id) else {
            return Err(RuleError::input(
                "--losses",
                format!(
                    "`{id}` is not an attacking unit of this combat: in an exchange every \
                     defending unit is eliminated and the attacker chooses among his own"
                ),
                accepted,
            ));
        };
        if *n > u.strength {
            return Err(RuleError::input(
                "--losses",
                format!("{id}={n}: {} has {} potential", u.unit.name, u.strength),
                accepted,
            ));
        }
        if *n == 0 {
            continue;
        }
        if *n != u.strength {
            return Err(RuleError::input(
                "--losses",
                format!(
                    "{id}={n}: a unit is eliminated whole, so {} loses its {} potential or \
                     nothing",
                    u.unit.name, u.strength
                ),
                accepted,
            ));
        }
        sum += n;
        out.push(u);
    }
    let due = due.min(att.iter().map(|u| u.strength).sum());
    if sum < due {
        return Err(RuleError::input(
            "--losses",
            format!(
                "the attacker's losses add up to {sum}, but the exchange takes at least {due} \
                 printed potential"
            ),
            accepted,
        ));
    }
    Ok(out)
}

/// FR-F1: one side's units that fight (fortress cards apart) and its fortress's coefficient (the
/// fortress card's strength; several cards add up), with whether units of the side stand in the
/// fortress's cell (occupied: its garrison attacks with it; unoccupied: it adds its coefficient to
/// friends attacking the besieger from outside, "it may not by itself execute any attack").
fn fr_side<'a>(state: &'a GameState, ids: &[String]) -> (Vec<&'a UnitState>, Option<(u32, bool)>) {
    let us: Vec<&UnitState> = ids.iter().filter_map(|id| state.unit(id)).collect();
    let forts: Vec<&UnitState> = us
        .iter()
        .copied()
        .filter(|u| u.unit.arm == Arm::Fortress)
        .collect();
    let fighting: Vec<&UnitState> = us
        .iter()
        .copied()
        .filter(|u| !matches!(u.unit.arm, Arm::Fortress | Arm::Railway | Arm::Dummy))
        .collect();
    let coefficient: u32 = forts.iter().map(|u| u.strength).sum();
    let occupied = fighting
        .iter()
        .any(|u| forts.iter().any(|f| f.position == u.position));
    (
        fighting,
        (coefficient > 0).then_some((coefficient, occupied)),
    )
}

/// FR-F1 in play: the game's sieges (laid with `siege`) say who besieges whom. "1 is subtracted
/// from the number given by the die each time the besieger fights a defensive combat"; "besieged
/// and besieging units may fight combats, but the results "DR" have no effect on either side";
/// "when the besieging units attack, the fortress is taken only in case of result "E" or "DE"".
/// A place that capitulated is besieged no more.
fn fr_sieges(
    state: &GameState,
    attackers: &[String],
    defenders: &[String],
    input: &mut FrCombatInput,
) {
    input.besieger_defending = false;
    input.siege_combat = false;
    input.assault = false;
    for g in state.sieges.iter().filter(|g| g.capitulated.is_none()) {
        let besieger = |id: &String| g.by.contains(id);
        let in_place = |id: &String| state.unit(id).is_some_and(|u| g.covers(u.position));
        let besieged = |id: &String| {
            state
                .unit(id)
                .is_some_and(|u| g.covers(u.position) && u.unit.side != g.besieger)
        };
        let camp = is_camp(g);
        if defenders.iter().any(besieger) {
            input.besieger_defending = !camp;
            if attackers.iter().any(besieged) {
                input.siege_combat = true;
            }
        }
        if attackers.iter().any(besieger) && defenders.iter().any(in_place) {
            input.siege_combat = true;
            input.assault = true;
        }
    }
}

/// I2: "Rule H7 does not apply to fortified camps" (Metz, Paris).
fn is_camp(g: &crate::engine::game::Siege) -> bool {
    g.calendar.as_ref().map_or_else(
        || fr1870::siege::kind_of(&g.place, None) != fr1870::BlockadeKind::Fortress,
        |c| c.kind != "fortress",
    )
}

/// The sieges of a fortress (not a fortified camp, I2) still laid whose besiegers include one of
/// `defenders`, with those of its besiegers still fighting.
fn besieging<'a>(
    state: &'a GameState,
    defenders: &'a [String],
) -> impl Iterator<Item = (&'a crate::engine::game::Siege, Vec<String>)> + 'a {
    state
        .sieges
        .iter()
        .filter(|g| g.capitulated.is_none() && !is_camp(g))
        .filter(|g| defenders.iter().any(|d| g.by.contains(d)))
        .map(|g| {
            let by =
                g.by.iter()
                    .filter(|id| state.unit(id).is_some_and(|u| !u.eliminated()))
                    .cloned()
                    .collect();
            (g, by)
        })
}

/// FR-F1 (H7): "the besieging forces are always treated as an inseparable whole in case of combat
/// against the besieged or an outside force": a combat against one besieger of a fortress is
/// fought against all of them, added to the defenders after those named.
fn with_besiegers(state: &GameState, defenders: &[String]) -> Vec<String> {
    let mut out = defenders.to_vec();
    for (_, by) in besieging(state, defenders) {
        for id in by {
            if !out.contains(&id) {
                out.push(id);
            }
        }
    }
    out
}

/// The note of H7 when a combat's defenders are a fortress's besiegers, more than one.
fn besiegers_note(state: &GameState, defenders: &[String]) -> Option<String> {
    let (g, by) = besieging(state, defenders).find(|(_, by)| by.len() > 1)?;
    let names: Vec<String> = by
        .iter()
        .map(|id| state.unit(id).map_or(id.clone(), |u| u.unit.name.clone()))
        .collect();
    Some(format!(
        "FR-F1 (H7): the besiegers of {} defend as one inseparable whole: {}",
        g.place,
        names.join(", ")
    ))
}

/// FR-C2: one unit's fate as actions.
fn fate_effects(u: &UnitState, fate: Fate, fx: &mut Vec<Action>) {
    let disorganise = |fx: &mut Vec<Action>| {
        if !u.disorganised {
            fx.push(Action::SetFlag {
                unit: u.unit.id.clone(),
                flag: Flag::Disorganised,
                on: true,
            });
        }
    };
    // FR-C2: the unit carries "must retreat" until it moves (the map offers the cells); a
    // blocked or off-map retreat eliminates it, which the umpire applies.
    let retreat = |fx: &mut Vec<Action>| {
        fx.push(Action::SetFlag {
            unit: u.unit.id.clone(),
            flag: Flag::MustRetreat,
            on: true,
        });
    };
    match fate {
        Fate::Unchanged => {}
        Fate::Disorganised => disorganise(fx),
        Fate::Retreats => retreat(fx),
        Fate::DisorganisedRetreats => {
            disorganise(fx);
            retreat(fx);
        }
        Fate::Eliminated => {
            lose(u, u.strength, fx);
        }
    }
}

/// What SPI's and 1870's combat forms differ in, for the one engine-facing form both are (issue
/// 27: a built-in rule set goes through the same trait a registered one uses, its tables passed
/// in). The rest, the units engaged in one attack on one hex (SPI-C2, FR-C1), the combat limits
/// read from the log and the attackers added after a pick, is one piece of code for both.
pub trait HexCombatForm:
    Clone + std::fmt::Debug + Serialize + serde::de::DeserializeOwned + Send + Sync + 'static
{
    /// The form's tag in a save ("spi", "fr1870").
    const TAG: &'static str;
    /// How the game words its combat limits.
    fn texts(&self) -> &'static Texts;
    /// The acting unit and the target, by id.
    fn acting(&self) -> (Option<&str>, Option<&str>);
    /// Sets the acting unit and the target.
    fn set_acting(&mut self, actor: Option<String>, target: Option<String>);
    /// The attacking units and the defending ones, by id.
    fn engaged_ids(&self) -> (&[String], &[String]);
    /// SPI-R1, FR-C2: the owners' `--losses`.
    fn losses_mut(&mut self) -> &mut Vec<(String, u32)>;
    /// SPI-C1, FR-C1: the result typed for a cell kepi does not know.
    fn entered_result_mut(&mut self) -> &mut Option<String>;
    /// SPI-C1, FR-C1: why the result typed does not read as one of the game's chart, or None
    /// (nothing typed, or a result) ([`crate::rules::crt::typed_result`], as `--result` reads it).
    fn typed_result_error(&self) -> Option<String>;
    /// SPI-C2, FR-C1: sets the units engaged from the game (see [`engage_hex`]).
    fn engage(&mut self, state: &GameState, attackers: &[String], defenders: &[String]);
    /// SPI-C2, FR-C1: sets the acting unit, the target and the units engaged with them.
    fn engage_acting(&mut self, state: &GameState, actor: Option<&str>, target: Option<&str>) {
        let (a, d) = engaged(state, actor, target);
        self.engage(state, &a, &d);
        self.set_acting(actor.map(str::to_string), target.map(str::to_string));
    }
    /// Why the combat is impossible now.
    fn combat_refusal(&self, state: &GameState) -> Option<String>;
    /// Resolves with the game's tables.
    fn resolve_in(
        &self,
        state: &GameState,
        tables: &crate::rules::Tables,
        dice: Option<&mut DiceSource>,
    ) -> Result<Resolved, RuleError>;
    /// The situation panel.
    #[cfg(feature = "gui")]
    fn panel(&mut self, ui: &mut egui::Ui, state: &GameState);
}

/// What is the same in both games' combat forms: the accessors of their common fields (`actor`,
/// `target`, `attacker_ids`, `defender_ids`, `losses`, `entered_result`), the engagement from the
/// game (each form's `prefill_engaged`) and the resolution with the game's own table (`$tables`,
/// read from the tables in play).
macro_rules! hex_combat_fields {
    ($tables:ty) => {
        fn engage(&mut self, state: &GameState, attackers: &[String], defenders: &[String]) {
            self.prefill_engaged(state, attackers, defenders)
        }
        fn resolve_in(
            &self,
            state: &GameState,
            tables: &crate::rules::Tables,
            dice: Option<&mut DiceSource>,
        ) -> Result<Resolved, RuleError> {
            self.resolve(state, tables.get::<$tables>(), dice)
        }
        fn acting(&self) -> (Option<&str>, Option<&str>) {
            (self.actor.as_deref(), self.target.as_deref())
        }
        fn set_acting(&mut self, actor: Option<String>, target: Option<String>) {
            (self.actor, self.target) = (actor, target);
        }
        fn engaged_ids(&self) -> (&[String], &[String]) {
            (&self.attacker_ids, &self.defender_ids)
        }
        fn losses_mut(&mut self) -> &mut Vec<(String, u32)> {
            &mut self.losses
        }
        fn entered_result_mut(&mut self) -> &mut Option<String> {
            &mut self.entered_result
        }
    };
}

impl HexCombatForm for SpiForm {
    fn typed_result_error(&self) -> Option<String> {
        entered(&self.entered_result).and_then(|t| {
            crate::rules::crt::typed_result::<crate::rules::spi::SpiResult>(
                t,
                crate::rules::spi::SpiResult::ACCEPTED,
            )
            .err()
        })
    }
    const TAG: &'static str = "spi";
    hex_combat_fields!(crate::rules::spi::SpiTables);
    /// How SPI words its combat limits (SPI-C2).
    fn texts(&self) -> &'static Texts {
        &SPI
    }
    fn combat_refusal(&self, state: &GameState) -> Option<String> {
        spi_refusal(self, state)
    }
    #[cfg(feature = "gui")]
    fn panel(&mut self, ui: &mut egui::Ui, state: &GameState) {
        super::panel::spi_situation_ui(ui, self, state);
    }
}

impl HexCombatForm for FrForm {
    fn typed_result_error(&self) -> Option<String> {
        entered(&self.entered_result).and_then(|t| {
            crate::rules::crt::typed_result::<crate::rules::fr1870::FrCell>(
                t,
                crate::rules::fr1870::FrResult::ACCEPTED,
            )
            .err()
        })
    }
    const TAG: &'static str = "fr1870";
    hex_combat_fields!(crate::rules::fr1870::Fr1870Tables);
    /// How 1870 words its combat limits (FR-C1).
    fn texts(&self) -> &'static Texts {
        &FR1870
    }
    fn combat_refusal(&self, state: &GameState) -> Option<String> {
        fr_refusal(self, state)
    }
    #[cfg(feature = "gui")]
    fn panel(&mut self, ui: &mut egui::Ui, state: &GameState) {
        super::panel::fr_situation_ui(ui, self, state);
    }
}

/// SPI's and 1870's combat form as the engine sees it: one attack on one hex (SPI-C2, FR-C1).
impl<F: HexCombatForm> crate::engine::play::SetForm for F {
    #[cfg(feature = "gui")]
    fn situation_ui(&mut self, ui: &mut egui::Ui, state: &GameState) {
        self.panel(ui, state);
    }

    fn name(&self) -> &'static str {
        "combat"
    }

    fn units(&self) -> (Option<&str>, Option<&str>) {
        self.acting()
    }

    fn needs_target(&self) -> bool {
        true
    }

    fn prefill(
        &mut self,
        state: &GameState,
        actor: Option<&str>,
        target: Option<&str>,
        _tables: &crate::rules::Tables,
    ) {
        self.engage_acting(state, actor, target)
    }

    fn refusal(&self, state: &GameState) -> Option<String> {
        self.combat_refusal(state)
    }

    fn unreadable(&self) -> Option<String> {
        self.typed_result_error()
            .map(|e| format!("result from your printed chart: {e}"))
    }

    fn resolve(
        &self,
        state: &GameState,
        tables: &crate::rules::Tables,
        dice: Option<&mut DiceSource>,
    ) -> Result<Resolved, RuleError> {
        let rolling = dice.is_some();
        let (res, mut fx) = self.resolve_in(state, tables, dice)?;
        if rolling {
            fx.extend(attacked_marks(state, self.engaged_ids().0));
        }
        Ok((res, fx))
    }

    fn breaches(&self, game: &crate::engine::game::Game) -> Vec<String> {
        let (a, d) = self.engaged_ids();
        combat_breaches(game, a, d, self.texts())
    }

    fn engaged(&self) -> Option<(&[String], &[String])> {
        Some(self.engaged_ids())
    }

    fn with_attackers(&mut self, state: &GameState, extra: &[String]) {
        let (ids, defenders) = self.engaged_ids();
        if let Some(all) = more_attackers(state, ids, extra) {
            let defenders = defenders.to_vec();
            let (a, t) = self.acting();
            let (a, t) = (a.map(str::to_string), t.map(str::to_string));
            self.engage(state, &all, &defenders);
            self.set_acting(a, t);
        }
    }

    fn clear_typed(&mut self) {
        *self.entered_result_mut() = None;
        self.losses_mut().clear();
    }

    fn to_value(&self) -> serde_json::Value {
        crate::engine::play::tagged_value(F::TAG, self)
    }

    fn with_value(&self, v: &serde_json::Value) -> Option<Box<dyn crate::engine::play::SetForm>> {
        crate::engine::play::from_tagged::<F>(F::TAG, v)
            .map(|f| Box::new(f) as Box<dyn crate::engine::play::SetForm>)
    }

    fn boxed_clone(&self) -> Box<dyn crate::engine::play::SetForm> {
        Box::new(self.clone())
    }
}

/// SPI-C2 case C, FR-C1 E3: each attacker (`ids`) has attacked this combat phase, marked as
/// fired (issue 46): the checklist, the roster's "still to act" and `kepi game checklist` read the
/// mark ([`crate::engine::flow::activity::board_still_to_act`]), as the breach check reads the log.
fn attacked_marks(state: &GameState, ids: &[String]) -> Vec<Action> {
    ids.iter()
        .filter_map(|id| state.unit(id))
        .map(|u| Action::SetFlag {
            unit: u.unit.id.clone(),
            flag: Flag::Fired,
            on: true,
        })
        .collect()
}

/// True for an attacker's mark ([`attacked_marks`]) in a combat's effects: what SPI and 1870
/// record since issue 46 (`kepi log verify` takes a combat logged before without them).
pub(crate) fn is_attacked_mark(action: &str, effect: &Action) -> bool {
    action == "combat"
        && matches!(
            effect,
            Action::SetFlag {
                flag: Flag::Fired,
                on: true,
                ..
            }
        )
}

/// The engine plumbing of a one-unit form of SPI or 1870 besides the combat (SPI-I1, SPI-E1,
/// SPI-T1, SPI-H2, FR-G1, FR-K1), the same for each: the acting unit alone and no target; with a
/// tag and the form's type, saved under that tag.
macro_rules! one_unit_form {
    () => {
        fn units(&self) -> (Option<&str>, Option<&str>) {
            (self.actor.as_deref(), None)
        }

        fn needs_target(&self) -> bool {
            false
        }

        fn boxed_clone(&self) -> Box<dyn crate::engine::play::SetForm> {
            Box::new(self.clone())
        }
    };
    ($tag:literal, $ty:ty) => {
        $crate::rules::board::form::one_unit_form!();

        fn to_value(&self) -> serde_json::Value {
            crate::engine::play::tagged_value($tag, self)
        }

        fn with_value(
            &self,
            v: &serde_json::Value,
        ) -> Option<Box<dyn crate::engine::play::SetForm>> {
            crate::engine::play::from_tagged::<$ty>($tag, v)
                .map(|f| Box::new(f) as Box<dyn crate::engine::play::SetForm>)
        }
    };
}
pub(crate) use one_unit_form;

/// SPI-C2, FR-C1: the attackers `ids` with the units of `extra` of the lead attacker's side still
/// fighting, or None when that adds nobody (others are left out, not refused: a pick may go stale).
fn more_attackers(state: &GameState, ids: &[String], extra: &[String]) -> Option<Vec<String>> {
    let lead = ids.first().and_then(|id| state.unit(id))?;
    let mut all = ids.to_vec();
    for e in extra {
        if let Some(u) = state.unit(e)
            && u.unit.side == lead.unit.side
            && !u.eliminated()
            && !all.contains(&u.unit.id)
        {
            all.push(u.unit.id.clone());
        }
    }
    (all != ids).then_some(all)
}

/// SPI: the attacker and the defending hex are enemies; only combat units attack (SPI-F1: a
/// fortification's strength "may only be used on the defensive"; SPI-E1: EB units are not combat
/// units; SPI-H1: "Dummy counters may not" make hasty attacks and are not real in combat); a hasty
/// attack has one attacker (SPI-H1); a flanking attack only where the attackers' hexes make one
/// (SPI-C3, read from the map).
pub fn spi_refusal(f: &SpiForm, state: &GameState) -> Option<String> {
    if let Some(why) = opposed(state, f.actor.as_deref(), f.target.as_deref(), "attack") {
        return Some(why);
    }
    for u in f.attacker_ids.iter().filter_map(|id| state.unit(id)) {
        let why = match spi_role(u) {
            SpiRole::Combat => continue,
            SpiRole::Fortification => {
                "is a fortification: its strength may only be used on the defensive (SPI-F1)"
            }
            SpiRole::Eb => "is an EB unit, not a combat unit: it cannot attack (SPI-E1)",
            SpiRole::Dummy => "is a dummy counter: dummies cannot attack (SPI-H1)",
        };
        return Some(format!("{} {why}", name(u)));
    }
    if f.input.hasty && f.attacker_ids.len() > 1 {
        return Some(format!(
            "a hasty attack is made by one unit, not {} (SPI-H1)",
            f.attacker_ids.len()
        ));
    }
    if f.input.flank {
        let hex = f
            .defender_ids
            .iter()
            .filter_map(|id| state.unit(id))
            .map(|u| u.position)
            .next()?;
        if let Err(why) = spi_flank_geometry(state, &f.attacker_ids, hex) {
            return Some(why);
        }
    }
    None
}

/// 1870: the attacker and the defender are enemies; a fortress "may not by itself execute any
/// attack against an enemy unit" (FR-F1); cavalry refuses combat only as FR-C3 allows.
pub fn fr_refusal(f: &FrForm, state: &GameState) -> Option<String> {
    if let Some(why) = opposed(state, f.actor.as_deref(), f.target.as_deref(), "attack") {
        return Some(why);
    }
    // FR-C3: the cavalry refuses combat only when the text allows it.
    if let Some(why) = f.cavalry_refusal() {
        return Some(why);
    }
    let att: Vec<&UnitState> = f
        .attacker_ids
        .iter()
        .filter_map(|id| state.unit(id))
        .collect();
    match att.first() {
        Some(u) if att.iter().all(|u| u.unit.arm == Arm::Fortress) => Some(format!(
            "{} is a fortress: it may not by itself execute any attack (FR-F1)",
            name(u)
        )),
        _ => None,
    }
}

/// How one board game words its combat limits.
pub struct Texts {
    /// The adjacency rule, cited.
    adjacent: &'static str,
    /// The once-per-phase rule for attackers, cited.
    attack_once: &'static str,
    /// The once-per-phase rule for defenders, cited.
    attacked_once: &'static str,
    /// True when a unit that defended may not attack (1870 E3: "offensively or defensively").
    fights_once: bool,
}

pub(crate) const SPI: Texts = Texts {
    adjacent: "SPI-C2, Combat case A: \"Only those Friendly units directly adjacent to a given \
               Enemy unit may participate in the attack upon that Enemy unit\"",
    attack_once: "SPI-C2, case C: \"No unit may attack more than once per Combat Phase\"",
    attacked_once: "SPI-C2, case C: \"No Enemy unit may be attacked more than once per Combat \
                    Phase\"",
    fights_once: false,
};

pub(crate) const FR1870: Texts = Texts {
    adjacent: "FR-C1, E8: \"All units fight in contact, that is, by occupying the cell adjacent to \
               that occupied by the unit or enemy stack they confront\"",
    attack_once: "FR-C1, E3: \"Within the same Combat Phase, a unit may fight, offensively or \
                  defensively, only once\"",
    attacked_once: "FR-C1, E3: \"Within the same Combat Phase, a unit may fight, offensively or \
                    defensively, only once\"",
    fights_once: true,
};

/// The attackers and defenders (ids) of each hex combat in effect this turn and phase.
fn combats_this_phase(game: &Game) -> Vec<(Vec<String>, Vec<String>)> {
    let s = game.state();
    let ids = |v: &serde_json::Value, key: &str| -> Vec<String> {
        v.get(key)
            .and_then(|a| a.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    game.in_effect()
        .rev()
        .take_while(|e| e.entry.turn == s.turn && e.entry.phase == s.phase_name())
        .filter_map(|e| match e.action {
            Action::Resolved {
                resolution,
                input: Some(input),
                ..
            } if resolution.action == "combat" => {
                Some((ids(input, "attacker_ids"), ids(input, "defender_ids")))
            }
            _ => None,
        })
        .collect()
}

pub(crate) fn combat_breaches(
    game: &Game,
    attackers: &[String],
    defenders: &[String],
    t: &Texts,
) -> Vec<String> {
    let s = game.state();
    let mut out = Vec::new();
    let layout = s.system.hex_layout();
    let unit = |id: &String| s.unit(id);
    let defending = defenders.iter().filter_map(unit).next();
    let hex = defending.map(|d| d.position);
    for a in attackers.iter().filter_map(unit) {
        match (
            hex_in(a.position, layout),
            hex.and_then(|h| hex_in(h, layout)),
        ) {
            (None, Some(_)) => out.push(format!(
                "{} is not on the map ({}): it is next to no hex ({})",
                a.unit.name, a.position, t.adjacent
            )),
            (Some(from), Some(to)) if from.distance(to) != 1 => out.push(format!(
                "{} in {} is {} hexes from {} ({})",
                a.unit.name,
                a.position,
                from.distance(to),
                hex.map(|h| h.to_string()).unwrap_or_default(),
                t.adjacent
            )),
            _ => {}
        }
    }
    let before = combats_this_phase(game);
    let attacked = |id: &str| before.iter().any(|(a, _)| a.iter().any(|x| x == id));
    let defended = |id: &str| before.iter().any(|(_, d)| d.iter().any(|x| x == id));
    for a in attackers.iter().filter_map(unit) {
        if attacked(a.id()) {
            out.push(format!(
                "{} has already attacked this combat phase ({})",
                a.unit.name, t.attack_once
            ));
        } else if t.fights_once && defended(a.id()) {
            out.push(format!(
                "{} has already defended this combat phase ({})",
                a.unit.name, t.attack_once
            ));
        }
    }
    for d in defenders.iter().filter_map(unit).filter(|d| fights(d)) {
        if defended(d.id()) {
            out.push(format!(
                "{} has already been attacked this combat phase ({})",
                d.unit.name, t.attacked_once
            ));
        } else if t.fights_once && attacked(d.id()) {
            out.push(format!(
                "{} has already attacked this combat phase ({})",
                d.unit.name, t.attacked_once
            ));
        }
    }
    out
}

/// A unit that fights in a hex combat (not a fortress card, an EB unit or a dummy).
fn fights(u: &UnitState) -> bool {
    !matches!(
        u.unit.arm,
        crate::roster::Arm::Fortress | crate::roster::Arm::Railway | crate::roster::Arm::Dummy
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Die;
    use crate::engine::game::{Game, SeedSecret};
    use crate::registry::builtin_scenario;
    use crate::rules::RuleSetId;
    use crate::rules::Tables;
    use chrono::{TimeZone, Utc};

    fn game(name: &str, system: RuleSetId) -> Game {
        let s = builtin_scenario(name).unwrap();
        Game::new(
            &s,
            system,
            SeedSecret {
                seed: 3,
                salt: "t".into(),
            },
            Utc.timestamp_opt(1_000_000, 0).single().unwrap(),
        )
    }

    fn now() -> chrono::DateTime<Utc> {
        Utc.timestamp_opt(1_000_010, 0).single().unwrap()
    }

    /// SPI-C1: the CRT is not in the seed; without an entry the roll asks for the printed result
    /// and changes nothing; with one, SPI-R1's losses fall on the target, then the attacker.
    #[test]
    fn spi_unknown_cell_then_entered_result() {
        let t = &Tables::default();
        let mut g = game("spi-1870", RuleSetId::Spi);
        let mut f = SpiForm::all().remove(0);
        f.prefill(g.state(), Some("de-2-5-1"), Some("fr-metz-5"));
        assert_eq!(f.input.attackers[0].strength, 5);
        assert_eq!(f.input.defenders[0].strength, 5);
        let before = g.log().len();
        let e = g
            .resolve(
                &[(Die::D6, 3)],
                |s, d| f.resolve(s, t.get::<crate::rules::spi::SpiTables>(), Some(d)),
                now(),
            )
            .unwrap_err()
            .to_string();
        assert!(e.contains("d6=3") && e.contains("--result"), "{e}");
        assert_eq!(g.log().len(), before, "nothing logged against the die");
        assert_eq!(g.state().unit("fr-metz-5").unwrap().strength, 5);
        f.entered_result = Some("A1/D2".into());
        g.resolve(
            &[(Die::D6, 3)],
            |s, d| f.resolve(s, t.get::<crate::rules::spi::SpiTables>(), Some(d)),
            now(),
        )
        .unwrap();
        assert_eq!(g.state().unit("fr-metz-5").unwrap().strength, 3);
        assert_eq!(g.state().unit("de-2-5-1").unwrap().strength, 4);
        g.undo(now()).unwrap();
        assert_eq!(g.state().unit("fr-metz-5").unwrap().strength, 5);
    }

    /// SPI-S1: an unsupplied attacker attacks at half strength.
    #[test]
    fn spi_supply_from_the_unit_state() {
        let t = &Tables::default();
        let mut g = game("spi-1870", RuleSetId::Spi);
        g.act(
            Action::SetSupply {
                unit: "de-2-5-1".into(),
                supply: Supply::Unsupplied,
            },
            now(),
        )
        .unwrap();
        let mut f = SpiForm::all().remove(0);
        f.prefill(g.state(), Some("de-2-5-1"), Some("fr-metz-5"));
        assert_eq!(f.input.attackers[0].supply, SupplyState::Unsupplied);
        let (res, _) = f
            .resolve(g.state(), t.get::<crate::rules::spi::SpiTables>(), None)
            .unwrap();
        assert!(res.summary.starts_with("1:2"), "{}", res.summary);
    }

    /// SPI-H2: a unit's formation as changed in play is the one its combats read ("halved
    /// (extended)" in attack and defence); before any change, the card's (concentrated here).
    #[test]
    fn spi_formation_from_the_unit_state() {
        let t = &Tables::default();
        let mut g = game("spi-1870", RuleSetId::Spi);
        let mut f = SpiForm::all().remove(0);
        f.prefill(g.state(), Some("de-2-5-1"), Some("fr-metz-5"));
        assert_eq!(f.input.attackers[0].formation, spi::Formation::Concentrated);
        g.act(
            Action::SetFlag {
                unit: "de-2-5-1".into(),
                flag: crate::engine::game::Flag::Extended,
                on: true,
            },
            now(),
        )
        .unwrap();
        f.prefill(g.state(), Some("de-2-5-1"), Some("fr-metz-5"));
        assert_eq!(f.input.attackers[0].formation, spi::Formation::Extended);
        let (res, _) = f
            .resolve(g.state(), t.get::<crate::rules::spi::SpiTables>(), None)
            .unwrap();
        assert!(
            res.modifiers
                .iter()
                .any(|m| m.label.contains("halved (extended)") && m.rule.as_str() == "SPI-H2"),
            "{:?}",
            res.modifiers
        );
    }

    /// FR-C1: below 1:3 the attacker is always eliminated; both stacked defenders defend together.
    #[test]
    fn fr1870_below_the_table_eliminates_the_attacker() {
        let t = &Tables::default();
        let mut g = game("fr1870-august", RuleSetId::Fr1870);
        let mut f = FrForm::all().remove(0);
        f.prefill(g.state(), Some("fr-1rc"), Some("de-1b"));
        assert_eq!(
            f.defender_ids,
            vec!["de-1b".to_string(), "de-2b".to_string()]
        );
        g.resolve(
            &[(Die::D6, 4)],
            |s, d| f.resolve(s, t.get::<crate::rules::fr1870::Fr1870Tables>(), Some(d)),
            now(),
        )
        .unwrap();
        assert_eq!(g.state().unit("fr-1rc").unwrap().strength, 0);
        assert_eq!(g.state().unit("de-1b").unwrap().strength, 4);
    }

    /// FR-C2: a printed 1:1 cell (die 2: AD,DD) disorganises both; an unprinted one takes the
    /// umpire's entry (die 5: "DR": the defender retreats, a note).
    #[test]
    fn fr1870_printed_and_entered_results() {
        let t = &Tables::default();
        let mut g = game("fr1870-august", RuleSetId::Fr1870);
        let mut f = FrForm::all().remove(0);
        f.prefill(g.state(), Some("fr-1rc"), Some("de-cav-3"));
        g.resolve(
            &[(Die::D6, 2)],
            |s, d| f.resolve(s, t.get::<crate::rules::fr1870::Fr1870Tables>(), Some(d)),
            now(),
        )
        .unwrap();
        assert!(g.state().unit("fr-1rc").unwrap().disorganised);
        assert!(g.state().unit("de-cav-3").unwrap().disorganised);
        g.undo(now()).unwrap();
        assert!(!g.state().unit("de-cav-3").unwrap().disorganised);
        f.entered_result = Some("DR".into());
        let e = g
            .resolve(
                &[(Die::D6, 5)],
                |s, d| f.resolve(s, t.get::<crate::rules::fr1870::Fr1870Tables>(), Some(d)),
                now(),
            )
            .unwrap();
        assert!(e.summary.contains("DR"), "{}", e.summary);
        let last = g.log().last().unwrap();
        let crate::engine::game::EntryKind::Act {
            action: Action::Resolved { effects, .. },
        } = &last.kind
        else {
            panic!()
        };
        // FR-C2: the defender carries "must retreat" until its next move.
        assert!(matches!(
            &effects[0],
            Action::SetFlag {
                flag: Flag::MustRetreat,
                on: true,
                ..
            }
        ));
        assert!(g.state().unit("de-cav-3").unwrap().must_retreat);
    }

    /// An SPI combat on a friend is refused (`SetForm::refusal`), and the window's overrides
    /// never set the units of a combat (`engine::play::overrides`).
    #[test]
    fn spi_refuses_friends_and_overrides_leave_the_units() {
        let g = game("spi-1870", RuleSetId::Spi);
        let first = crate::engine::play::Form::all_for(RuleSetId::Spi)
            .into_iter()
            .next()
            .unwrap();
        let ids = vec![(vec!["attacker_ids".to_string()], serde_json::json!(["x"]))];
        assert!(crate::engine::play::overrides::apply_changes(&first, &ids).is_err());
        let mut f = crate::engine::play::Form::all_for(RuleSetId::Spi)
            .into_iter()
            .find(|f| f.name() == "combat")
            .unwrap();
        f.prefill(
            g.state(),
            Some("de-1-5-1"),
            Some("de-1-6-1"),
            &Tables::default(),
        );
        assert!(f.refusal(g.state()).unwrap().contains("friendly"));
    }
}
