//! The odds-ratio board games in play: SPI Franco-Prussian War combat (SPI-C1..C5, SPI-R1) and 1870
//! combat (FR-C1, FR-C2, FR-S1) between units of a game. The attacker is the acting unit, the
//! defenders the target and the enemy units stacked with it (all defend together, SPI-C2). A CRT
//! cell kepi does not know asks the umpire for the printed result (`entered_result`).

use serde::{Deserialize, Serialize};

use super::{Resolved, done, lose, unit};
use crate::dice::DiceSource;
use crate::game::{Action, Flag, GameState, Supply, UnitState};
use crate::roster::{Arm, Formation as CardFormation, Position};
use crate::rules::RuleError;
use crate::rules::fr1870::{self, Fate, Fr1870Tables, FrCombatInput, FrUnit};
use crate::rules::spi::{self, SpiCombatInput, SpiLoss, SpiTables, SpiUnit, SupplyState};

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

/// The engaged units' ids (see [`engaged`]) and each side's combat units made by `unit`.
type Sides<U> = ((Vec<String>, Vec<U>), (Vec<String>, Vec<U>));

fn engaged_as<U>(
    state: &GameState,
    actor: Option<&str>,
    target: Option<&str>,
    unit: impl Fn(&UnitState) -> U,
) -> Sides<U> {
    let (a, d) = engaged(state, actor, target);
    let make = |ids: &[String]| {
        ids.iter()
            .filter_map(|id| state.unit(id))
            .map(&unit)
            .collect()
    };
    let (ua, ud) = (make(&a), make(&d));
    ((a, ua), (d, ud))
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
        strength: u.strength,
        supply: spi_supply(u.supply),
        formation: if u.unit.formation == Some(CardFormation::Extended) {
            spi::Formation::Extended
        } else {
            spi::Formation::Concentrated
        },
        entrained: u.entrained,
    }
}

/// FR-C1, FR-S1: a unit's potential, arm, disorganisation and supply as 1870 sees them.
pub fn fr_unit(u: &UnitState) -> FrUnit {
    FrUnit {
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
        }]
    }

    /// The action's name.
    pub fn name(&self) -> &'static str {
        "combat"
    }

    /// Sets the units and their strengths, supply, formation and train from the game.
    pub fn prefill(&mut self, state: &GameState, actor: Option<&str>, target: Option<&str>) {
        self.actor = actor.map(str::to_string);
        self.target = target.map(str::to_string);
        (
            (self.attacker_ids, self.input.attackers),
            (self.defender_ids, self.input.defenders),
        ) = engaged_as(state, actor, target, spi_unit);
        self.entered_result = None;
    }

    /// SPI-C2: sets several attackers against every unit in a hex (see [`engage_hex`]): the first
    /// attacker acts, the first defender is the target; strengths, supply, formation and train come
    /// from the units.
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
        self.input.attackers = engaged_units(state, attackers, spi_unit);
        self.input.defenders = engaged_units(state, defenders, spi_unit);
        self.entered_result = None;
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
        let res = spi::combat_with_result(&self.input, t, dice, entered(&self.entered_result))?;
        let mut fx = Vec::new();
        if rolling && let Some(r) = res.outcome.as_ref().and_then(|o| o.result) {
            let att = units(state, &self.attacker_ids, "attacker")?;
            let def = units(state, &self.defender_ids, "defender")?;
            spi_losses(&def, r.defender, &mut fx);
            spi_losses(&att, r.attacker, &mut fx);
        }
        Ok(done(res, fx))
    }
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
        }]
    }

    /// The action's name.
    pub fn name(&self) -> &'static str {
        "combat"
    }

    /// Sets the units and their potentials, arms, disorganisation and supply from the game.
    pub fn prefill(&mut self, state: &GameState, actor: Option<&str>, target: Option<&str>) {
        self.actor = actor.map(str::to_string);
        self.target = target.map(str::to_string);
        (
            (self.attacker_ids, self.input.attackers),
            (self.defender_ids, self.input.defenders),
        ) = engaged_as(state, actor, target, fr_unit);
        self.entered_result = None;
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
        self.actor = attackers.first().cloned();
        self.target = defenders.first().cloned();
        self.attacker_ids = attackers.to_vec();
        self.defender_ids = defenders.to_vec();
        self.input.attackers = engaged_units(state, attackers, fr_unit);
        self.input.defenders = engaged_units(state, defenders, fr_unit);
        self.entered_result = None;
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
        let res = fr1870::combat_with_result(&self.input, t, dice, entered(&self.entered_result))?;
        let mut fx = Vec::new();
        if rolling && let Some(e) = res.outcome.as_ref().and_then(|o| o.effects.as_ref()) {
            let att = units(state, &self.attacker_ids, "attacker")?;
            let def = units(state, &self.defender_ids, "defender")?;
            for (us, fates) in [(&att, &e.attackers), (&def, &e.defenders)] {
                for (u, fate) in us.iter().zip(fates) {
                    fate_effects(u, *fate, &mut fx);
                }
            }
            if let Some(n) = e.attacker_must_lose {
                fx.push(Action::Note {
                    text: format!(
                        "FR-C2 exchange: the attacker eliminates engaged units of at least {n} potential"
                    ),
                });
            }
        }
        Ok(done(res, fx))
    }
}

/// FR-C2: one unit's fate as actions.
fn fate_effects(u: &UnitState, fate: Fate, fx: &mut Vec<Action>) {
    let name = &u.unit.name;
    let disorganise = |fx: &mut Vec<Action>| {
        if !u.disorganised {
            fx.push(Action::SetFlag {
                unit: u.unit.id.clone(),
                flag: Flag::Disorganised,
                on: true,
            });
        }
    };
    let retreat = |fx: &mut Vec<Action>| {
        fx.push(Action::Note {
            text: format!("FR-C2: {name} retreats one cell"),
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

/// The rule set's view of each engaged unit that exists, in the order given (SPI-C2, FR-C1).
fn engaged_units<U>(state: &GameState, ids: &[String], view: fn(&UnitState) -> U) -> Vec<U> {
    ids.iter()
        .filter_map(|id| state.unit(id))
        .map(view)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Die;
    use crate::game::{Game, SeedSecret};
    use crate::roster::builtin_scenario;
    use crate::rules::System;
    use crate::tables::Tables;
    use chrono::{TimeZone, Utc};

    fn game(name: &str, system: System) -> Game {
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
        let t = Tables::builtin().unwrap();
        let mut g = game("spi-1870", System::Spi);
        let mut f = SpiForm::all().remove(0);
        f.prefill(g.state(), Some("de-2-5-1"), Some("fr-metz-5"));
        assert_eq!(f.input.attackers[0].strength, 5);
        assert_eq!(f.input.defenders[0].strength, 5);
        let e = g
            .resolve(&[(Die::D6, 3)], |s, d| f.resolve(s, &t.spi, Some(d)), now())
            .unwrap();
        assert!(e.summary.contains("enter the result"), "{}", e.summary);
        assert_eq!(g.state().unit("fr-metz-5").unwrap().strength, 5);
        f.entered_result = Some("A1/D2".into());
        g.resolve(&[(Die::D6, 3)], |s, d| f.resolve(s, &t.spi, Some(d)), now())
            .unwrap();
        assert_eq!(g.state().unit("fr-metz-5").unwrap().strength, 3);
        assert_eq!(g.state().unit("de-2-5-1").unwrap().strength, 4);
        g.undo(now()).unwrap();
        assert_eq!(g.state().unit("fr-metz-5").unwrap().strength, 5);
    }

    /// SPI-S1: an unsupplied attacker attacks at half strength.
    #[test]
    fn spi_supply_from_the_unit_state() {
        let t = Tables::builtin().unwrap();
        let mut g = game("spi-1870", System::Spi);
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
        let (res, _) = f.resolve(g.state(), &t.spi, None).unwrap();
        assert!(res.summary.starts_with("1:2"), "{}", res.summary);
    }

    /// FR-C1: below 1:3 the attacker is always eliminated; both stacked defenders defend together.
    #[test]
    fn fr1870_below_the_table_eliminates_the_attacker() {
        let t = Tables::builtin().unwrap();
        let mut g = game("fr1870-august", System::Fr1870);
        let mut f = FrForm::all().remove(0);
        f.prefill(g.state(), Some("fr-1rc"), Some("de-1b"));
        assert_eq!(
            f.defender_ids,
            vec!["de-1b".to_string(), "de-2b".to_string()]
        );
        g.resolve(
            &[(Die::D6, 4)],
            |s, d| f.resolve(s, &t.fr1870, Some(d)),
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
        let t = Tables::builtin().unwrap();
        let mut g = game("fr1870-august", System::Fr1870);
        let mut f = FrForm::all().remove(0);
        f.prefill(g.state(), Some("fr-1rc"), Some("de-cav-3"));
        g.resolve(
            &[(Die::D6, 2)],
            |s, d| f.resolve(s, &t.fr1870, Some(d)),
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
                |s, d| f.resolve(s, &t.fr1870, Some(d)),
                now(),
            )
            .unwrap();
        assert!(e.summary.contains("DR"), "{}", e.summary);
        let last = g.log().last().unwrap();
        let crate::game::EntryKind::Act {
            action: Action::Resolved { effects, .. },
        } = &last.kind
        else {
            panic!()
        };
        assert!(matches!(&effects[0], Action::Note { text } if text.contains("retreats")));
    }
}
