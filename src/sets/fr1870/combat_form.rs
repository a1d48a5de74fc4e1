//! 1870 combat in play (FR-C1, FR-C2, FR-C3, FR-S1, FR-F1) between units of a game: the combat
//! form ([`FrForm`]), the fortresses, sieges and besiegers it reads from the game (FR-F1, H7, I2),
//! the cavalry's refusal and retreat (FR-C3), the exchange's losses at the attacker's choice and
//! each unit's fate (FR-C2), its refusals and how 1870 words its combat limits. What it shares
//! with SPI's combat form (the units engaged on one hex, the engine-facing form, the limits read
//! from the log) is [`crate::board::form`].

use serde::{Deserialize, Serialize};

use crate::board::form::{
    HexCombatForm, Texts, ask_for_result, entered, hex_combat_fields, hex_combat_set_form, units,
};
use crate::fr1870::marks::{DISORGANISED, MUST_RETREAT, STORMED};
use crate::fr1870::{
    self, Fate, FortressRole, Fr1870Tables, FrCombatInput, FrFortress, FrUnit, GarrisonChoice,
};
use kepi_game::dice::DiceSource;
use kepi_game::engine::game::{Action, FlagName, GameState, Supply, UnitState};
use kepi_game::engine::play::refuse::{name, opposed};
use kepi_game::engine::play::{Resolved, done, lose};
use kepi_game::roster::Arm;
use kepi_game::rules::RuleError;

/// FR-C1, FR-S1: a unit's potential, arm, disorganisation and supply as 1870 sees them.
///
/// FR-S1, FR-F4: its supply is the game's (from the map where the game traces it, the umpire's
/// typed state winning; else the umpire's), looked up in `all`.
pub fn fr_unit(all: &kepi_game::engine::play::supply::GameSupply, u: &UnitState) -> FrUnit {
    FrUnit {
        name: Some(u.unit.name.clone()),
        potential: u.strength,
        arm: if u.unit.arm == Arm::Cavalry {
            fr1870::Arm::Cavalry
        } else {
            fr1870::Arm::Infantry
        },
        disorganised: u.carries(&DISORGANISED),
        supplied: all
            .get(&u.unit.id)
            .map_or(u.supply == Supply::Supplied, |x| {
                x.status == kepi_game::map::supply::SupplyStatus::Supplied
            }),
        fortress_multiplied: false,
        can_retreat: true,
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
    /// FR-F1 (H11): the defending units (ids) the occupied fortress multiplies and supplies, "at
    /// the player's choice" (`--multiplied`, the window's ticks); None: the defender's best
    /// ([`fr1870::garrison`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub multiplied: Option<Vec<String>>,
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
            multiplied: None,
        }]
    }

    /// Sets the units and their potentials, arms, disorganisation and supply from the game.
    pub fn prefill(&mut self, state: &GameState, actor: Option<&str>, target: Option<&str>) {
        self.engage_acting(state, actor, target)
    }

    /// FR-C1: sets several attackers against every unit in a hex (see [`crate::board::form::engage_hex`]): the first
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
        let all = kepi_game::engine::play::supply::game_supply(state);
        self.input.attackers = att.iter().map(|u| fr_unit(&all, u)).collect();
        self.input.defenders = def.iter().map(|u| fr_unit(&all, u)).collect();
        if let Some((c, _)) = def_fort {
            self.input.fortress = Some(if def.is_empty() {
                FrFortress::new(c, FortressRole::DefendsUnoccupied)
            } else {
                // FR-F1 (H11): the defender's best until he chooses (the rule recomputes it with
                // the game's tables; the built-in ones show it in the form).
                self.input.defenders = fr1870::garrison(
                    &self.input.defenders,
                    c,
                    kepi_game::tables::builtin::<Fr1870Tables>(),
                );
                FrFortress {
                    choice: Some(GarrisonChoice::Best),
                    ..FrFortress::new(c, FortressRole::DefendsOccupied)
                }
            });
        } else if let Some((c, occupied)) = att_fort {
            self.input.fortress = Some(FrFortress::new(
                c,
                if occupied {
                    FortressRole::GarrisonAttacks
                } else {
                    FortressRole::SupportsRelief
                },
            ));
        } else if let Some(c) = sally(state, &att) {
            self.input.fortress = Some(FrFortress::new(c, FortressRole::GarrisonAttacks));
        }
        self.entered_result = None;
        self.losses.clear();
        self.cavalry_refuses = false;
        self.multiplied = None;
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
        let input = self.chosen_input(state)?;
        let mut res = fr1870::combat_with_result(&input, t, dice, entered(&self.entered_result))?;
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
            if e.fortress_taken {
                taken_fortress(state, &self.attacker_ids, &self.defender_ids, &mut fx);
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
    /// FR-F1 (H11): the combat's input with the defender's choice of the units the occupied
    /// fortress multiplies and supplies ([`FrForm::multiplied`]) laid over kepi's best; Err names
    /// `--multiplied` when the choice does not fit (no occupied fortress, a unit not in it, more
    /// units than its coefficient).
    fn chosen_input(&self, state: &GameState) -> Result<FrCombatInput, RuleError> {
        let mut input = self.input.clone();
        let Some(ids) = &self.multiplied else {
            return Ok(input);
        };
        let accepted = "the ids of units defending in the occupied fortress, at most its value \
                        (FR-F1, H11)";
        let Some(f) = input
            .fortress
            .as_mut()
            .filter(|f| f.role == FortressRole::DefendsOccupied)
        else {
            return Err(RuleError::input(
                "--multiplied",
                "no occupied fortress defends in this combat",
                accepted,
            ));
        };
        if ids.len() > f.coefficient as usize {
            return Err(RuleError::input(
                "--multiplied",
                format!(
                    "{} units chosen for a fortress of value {}",
                    ids.len(),
                    f.coefficient
                ),
                accepted,
            ));
        }
        f.choice = Some(GarrisonChoice::Chosen);
        let fighting: Vec<&str> = self
            .defender_ids
            .iter()
            .filter(|id| {
                state.unit(id).is_some_and(|u| {
                    !matches!(u.unit.arm, Arm::Fortress | Arm::Railway | Arm::Dummy)
                })
            })
            .map(String::as_str)
            .collect();
        if let Some(bad) = ids.iter().find(|id| !fighting.contains(&id.as_str())) {
            return Err(RuleError::input(
                "--multiplied",
                format!("`{bad}` does not defend in the fortress"),
                accepted,
            ));
        }
        for (u, id) in input.defenders.iter_mut().zip(&fighting) {
            u.fortress_multiplied = ids.iter().any(|x| x == id);
        }
        Ok(input)
    }

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
                        flag: FlagName::mark(&MUST_RETREAT),
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

/// FR-F1 (H11): "in attack, the potential of the fortress is added to the potential of the
/// occupying units": the coefficient of a fortress of the attackers' side in a cell an attacker
/// attacks from (its garrison sallies out), the highest when they come out of several.
fn sally(state: &GameState, attackers: &[&UnitState]) -> Option<u32> {
    state
        .units
        .iter()
        .filter(|f| f.unit.arm == Arm::Fortress && !f.eliminated())
        .filter(|f| {
            attackers
                .iter()
                .any(|a| a.position == f.position && a.unit.side == f.unit.side)
        })
        .map(|f| f.strength)
        .max()
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

/// FR-F1 (H12): "When the besieging units attack, the fortress is taken only in case of result
/// "E" or "DE". In case of result "E", it may happen that all of the besieger's units are
/// eliminated, but the fortress nevertheless passes into his possession"; "indicate the taking of
/// possession of the fortress by an appropriate marker"; "All the advantages of the fortress pass
/// immediately to its new possessor, even if all the besieging units have been eliminated." Each
/// fortress card defending passes to the attackers' side (its card's side is the possession
/// marker kepi keeps), and the siege of a fortress it ends is lifted. A fortified camp's siege
/// stays laid: there H12 applies "fortified cell by fortified cell" (I1), the other cells still
/// besieged. Since log revision 2 ([`kepi_game::engine::game::LOG_REVISION`]; an earlier kepi left
/// the fortress to the umpire, and its entries verify without these effects).
fn taken_fortress(
    state: &GameState,
    attackers: &[String],
    defenders: &[String],
    fx: &mut Vec<Action>,
) {
    let Some(side) = attackers
        .iter()
        .find_map(|id| state.unit(id))
        .map(|u| u.unit.side)
    else {
        return;
    };
    let forts: Vec<&UnitState> = defenders
        .iter()
        .filter_map(|id| state.unit(id))
        .filter(|u| u.unit.arm == Arm::Fortress && u.unit.side != side)
        .collect();
    for f in &forts {
        fx.push(Action::Possess {
            unit: f.unit.id.clone(),
            side,
        });
    }
    for g in state.sieges.iter().filter(|g| {
        g.capitulated.is_none()
            && g.besieger == side
            && !is_camp(g)
            && forts.iter().any(|f| g.covers(f.position))
    }) {
        fx.push(Action::SetSiege {
            place: g.place.clone(),
            siege: None,
        });
    }
}

/// I2: "Rule H7 does not apply to fortified camps" (Metz, Paris).
fn is_camp(g: &kepi_game::engine::game::Siege) -> bool {
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
) -> impl Iterator<Item = (&'a kepi_game::engine::game::Siege, Vec<String>)> + 'a {
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
        if !u.carries(&DISORGANISED) {
            fx.push(Action::SetFlag {
                unit: u.unit.id.clone(),
                flag: FlagName::mark(&DISORGANISED),
                on: true,
            });
        }
    };
    // FR-C2: the unit carries "must retreat" until it moves (the map offers the cells); a
    // blocked or off-map retreat eliminates it, which the umpire applies.
    let retreat = |fx: &mut Vec<Action>| {
        fx.push(Action::SetFlag {
            unit: u.unit.id.clone(),
            flag: FlagName::mark(&MUST_RETREAT),
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

impl HexCombatForm for FrForm {
    fn typed_result_error(&self) -> Option<String> {
        entered(&self.entered_result).and_then(|t| {
            kepi_game::rules::crt::typed_result::<crate::fr1870::FrCell>(
                t,
                crate::fr1870::FrResult::ACCEPTED,
            )
            .err()
        })
    }
    const TAG: &'static str = "fr1870";
    hex_combat_fields!(crate::fr1870::Fr1870Tables);
    /// How 1870 words its combat limits (FR-C1).
    fn texts(&self) -> &'static Texts {
        &FR1870
    }
    fn combat_refusal(&self, state: &GameState) -> Option<String> {
        fr_refusal(self, state)
    }
    /// FR-F1 (H5): a unit that stormed a fortress this turn attacking; FR-L1 (Situation 3 b): a
    /// unit shut up in Metz attacking without Bazaine's 6 this phase.
    fn own_breaches(&self, game: &kepi_game::engine::game::Game) -> Vec<String> {
        let s = game.state();
        let mut out: Vec<String> = self
            .attacker_ids
            .iter()
            .filter_map(|id| s.unit(id))
            .filter(|u| u.carries(&STORMED))
            .map(|u| {
                format!(
                    "{} stormed a fortress this turn and fights in the {} phase (FR-F1, H5: {})",
                    u.unit.name,
                    s.phase_name(),
                    super::form::H5_NO_COMBAT
                )
            })
            .collect();
        out.extend(bazaine_breaches(game, &self.attacker_ids));
        out
    }
    fn clear_own_typed(&mut self) {
        self.multiplied = None;
    }
    #[cfg(feature = "gui")]
    fn panel(&mut self, ui: &mut egui::Ui, state: &GameState) {
        super::panel::fr_situation_ui(ui, self, state);
    }
}

hex_combat_set_form!(FrForm);

/// True when `u` is "shut up in Metz": in a cell of a siege of Metz laid by the other side and not
/// yet capitulated (the siege's cells, `siege --place Metz --cell ...`).
fn in_metz(s: &GameState, u: &UnitState) -> bool {
    s.sieges.iter().any(|g| {
        g.place.trim().eq_ignore_ascii_case("metz")
            && g.capitulated.is_none()
            && g.besieger != u.unit.side
            && g.covers(u.position)
    })
}

/// FR-L1, Situation 3, special rule b: once Bazaine's die has been rolled in a game ("This
/// restriction lasts for the whole game"), a unit shut up in Metz attacking in a Combat Phase
/// whose die was not a 6, or before the die of this phase was rolled, is noted (the umpire
/// decides). Nothing is noted in a game where the die was never rolled: the rule is optional
/// ("If you wish to introduce into the game the attitude of Bazaine").
fn bazaine_breaches(game: &kepi_game::engine::game::Game, attackers: &[String]) -> Vec<String> {
    let s = game.state();
    let rolls: Vec<(bool, Option<bool>)> = game
        .in_effect()
        .filter_map(|e| match e.action {
            Action::Resolved { resolution, .. } if resolution.action == "bazaine" => {
                let this_phase = e.entry.turn == s.turn && e.entry.phase == s.phase_name();
                let may = resolution
                    .outcome
                    .as_ref()
                    .and_then(|o| o.get("may_attack"))
                    .and_then(serde_json::Value::as_bool);
                Some((this_phase, may))
            }
            _ => None,
        })
        .collect();
    if rolls.is_empty() {
        return Vec::new();
    }
    let now = rolls.iter().rev().find(|(here, _)| *here).map(|(_, m)| *m);
    let why = match now {
        Some(Some(true)) => return Vec::new(),
        Some(_) => "Bazaine's die this phase was not a 6",
        None => "Bazaine's die has not been rolled this phase (`bazaine`)",
    };
    attackers
        .iter()
        .filter_map(|id| s.unit(id))
        .filter(|u| in_metz(s, u))
        .map(|u| {
            format!(
                "{} attacks out of Metz: {why} (FR-L1, Situation 3 b: {})",
                u.unit.name,
                fr1870::BAZAINE
            )
        })
        .collect()
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

pub(crate) const FR1870: Texts = Texts {
    adjacent: "FR-C1, E8: \"All units fight in contact, that is, by occupying the cell adjacent to \
               that occupied by the unit or enemy stack they confront\"",
    attack_once: "FR-C1, E3: \"Within the same Combat Phase, a unit may fight, offensively or \
                  defensively, only once\"",
    attacked_once: "FR-C1, E3: \"Within the same Combat Phase, a unit may fight, offensively or \
                    defensively, only once\"",
    fights_once: true,
};

/// 1870, FR-C2 (after-combat movements, rules 11, 13, 15).
pub(crate) const AFTER_COMBAT: crate::board::moves::MoveTexts = crate::board::moves::MoveTexts {
    advance_rule: "FR-C2",
    advance: "E15, FR-C2: \"Any cell evacuated by the loser following a combat may be occupied by \
              the winner with units that took part in the combat concerning that cell\"",
    retreat: Some(crate::board::moves::RetreatTexts {
        one_cell: "E11, FR-C2: after-combat movements \"take place only over a distance of one \
                   cell\"",
        not_controlled: "E13, FR-C2: \"It is forbidden to retreat onto a cell controlled by the \
                         enemy if that cell does not contain a friendly unit\"",
    }),
};

#[cfg(test)]
mod tests {
    use super::*;
    use kepi_game::dice::Die;

    use crate::board::form::testing::{game, now};
    use kepi_game::rules::Tables;

    /// FR-C1: below 1:3 the attacker is always eliminated; both stacked defenders defend together.
    #[test]
    fn fr1870_below_the_table_eliminates_the_attacker() {
        let t = &Tables::default();
        let mut g = game("fr1870-august", crate::fr1870::ID);
        let mut f = FrForm::all().remove(0);
        f.prefill(g.state(), Some("fr-1rc"), Some("de-1b"));
        assert_eq!(
            f.defender_ids,
            vec!["de-1b".to_string(), "de-2b".to_string()]
        );
        g.resolve(
            &[(Die::D6, 4)],
            |s, d| f.resolve(s, t.get::<crate::fr1870::Fr1870Tables>(), Some(d)),
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
        let mut g = game("fr1870-august", crate::fr1870::ID);
        let mut f = FrForm::all().remove(0);
        f.prefill(g.state(), Some("fr-1rc"), Some("de-cav-3"));
        g.resolve(
            &[(Die::D6, 2)],
            |s, d| f.resolve(s, t.get::<crate::fr1870::Fr1870Tables>(), Some(d)),
            now(),
        )
        .unwrap();
        assert!(g.state().unit("fr-1rc").unwrap().carries(&DISORGANISED));
        assert!(g.state().unit("de-cav-3").unwrap().carries(&DISORGANISED));
        g.undo(now()).unwrap();
        assert!(!g.state().unit("de-cav-3").unwrap().carries(&DISORGANISED));
        f.entered_result = Some("DR".into());
        let e = g
            .resolve(
                &[(Die::D6, 5)],
                |s, d| f.resolve(s, t.get::<crate::fr1870::Fr1870Tables>(), Some(d)),
                now(),
            )
            .unwrap();
        assert!(e.summary.contains("DR"), "{}", e.summary);
        let last = g.log().last().unwrap();
        let kepi_game::engine::game::EntryKind::Act {
            action: Action::Resolved { effects, .. },
        } = &last.kind
        else {
            panic!()
        };
        // FR-C2: the defender carries "must retreat" until its next move.
        assert!(matches!(
            &effects[0],
            Action::SetFlag {
                flag: FlagName::Mark(m),
                on: true,
                ..
            } if m == MUST_RETREAT.name
        ));
        assert!(g.state().unit("de-cav-3").unwrap().carries(&MUST_RETREAT));
    }
}
