//! The Portable Wargame in play: activation, artillery and rifle fire and melee between units of a
//! game on the hex map, with flank, rear and range derived from the units' hexes and facings, and
//! each hit resolved by the owner's recorded choice (PW-H1).

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use crate::pw::{
    self, ActivationInput, Army, ArtilleryInput, Gunnery, HitCause, HitChoice, MeleeGround,
    MeleeInput, PwTables, PwUnit, Quality, RifleInput, UnitKind, UnitType,
};
use kepi_game::dice::{DiceSource, Roll};
use kepi_game::engine::game::{Action, Flag, GameState, UnitState};
use kepi_game::engine::play::board::{direction_of, hex_in, hex_of, position_of};
use kepi_game::engine::play::refuse::{name, opposed, over};
use kepi_game::engine::play::{Resolved, done, lose, unit};
use kepi_game::hex::Direction;
use kepi_game::roster::{self, Arm, Position};
use kepi_game::rules::{OddsLine, Resolution, RuleError, count};

/// The French Republic was proclaimed on 4 September 1870: from then on French guns are
/// Republican (PW-U1, PW-A1).
fn republic() -> NaiveDate {
    NaiveDate::from_ymd_opt(1870, 9, 4).unwrap_or_default()
}

fn french(u: &UnitState) -> bool {
    let n = u.unit.nation.to_lowercase();
    n.contains("fr") || u.unit.side == roster::Side::French
}

fn prussian(u: &UnitState) -> bool {
    u.unit.nation.to_lowercase().contains("prussia")
}

/// PW-U1: a card's row of the unit table, from its arm and nation (French guns are Imperial
/// before 4 September 1870, Republican after; German guns Prussian or non-Prussian).
pub fn unit_type_of(u: &UnitState, date: Option<NaiveDate>) -> UnitType {
    match u.unit.arm {
        Arm::Cavalry => UnitType::Cavalry,
        Arm::Artillery if french(u) => {
            if date.is_some_and(|d| d >= republic()) {
                UnitType::FrenchRepublicanArtillery
            } else {
                UnitType::FrenchImperialArtillery
            }
        }
        Arm::Artillery if prussian(u) => UnitType::PrussianArtillery,
        Arm::Artillery => UnitType::GermanArtillery,
        _ if french(u) => UnitType::FrenchInfantry,
        _ => UnitType::GermanInfantry,
    }
}

/// PW-T2: whose staff work a card's activation depends on.
pub fn army_of(u: &UnitState) -> Army {
    let n = u.unit.nation.to_lowercase();
    if n.contains("garibaldi") || n.contains("redshirt") {
        Army::Garibaldi
    } else if french(u) {
        Army::French
    } else if prussian(u) {
        Army::Prussian
    } else {
        Army::German
    }
}

/// PW-T2: a card's quality (elite, poor, otherwise normal).
pub fn quality_of(u: &UnitState) -> Quality {
    match u.unit.quality {
        Some(roster::Quality::Elite) => Quality::Elite,
        Some(roster::Quality::Poor) => Quality::Poor,
        _ => Quality::Normal,
    }
}

/// A unit of the game as the Portable Wargame sees it: None when it is not on a hex. A unit
/// without a hexside facing faces north (flank and rear then count from there).
pub fn pw_unit(u: &UnitState, date: Option<NaiveDate>) -> Option<PwUnit> {
    let hex = hex_of(u.position)?;
    Some(PwUnit {
        name: u.unit.name.clone(),
        unit_type: unit_type_of(u, date),
        quality: quality_of(u),
        sp: u.strength,
        sp_start: u.max_strength,
        hex,
        facing: u.facing.and_then(direction_of).unwrap_or(Direction::N),
        activated: u.activated,
        moved: u.moved,
        fired: u.fired,
        silenced: false,
        silenced_next_turn: false,
    })
}

/// PW-U1, PW-G1: a unit's weapon range in hexes (0: does not fire), when it is on the map.
pub fn range_of(u: &UnitState, date: Option<NaiveDate>, t: &PwTables) -> u32 {
    u32::try_from(t.unit(unit_type_of(u, date)).range.v()).unwrap_or(0)
}

/// PW-U1: a unit's movement allowance in hexes, from its type's row of the unit table.
pub fn move_of(u: &UnitState, date: Option<NaiveDate>, t: &PwTables) -> u32 {
    u32::try_from(t.unit(unit_type_of(u, date)).move_hexes.v()).unwrap_or(0)
}

/// PW-U1, PW-G1, PW-A1: what is odd about moving `u` by `hexes` hexes (beyond its allowance, or
/// guns that fired this turn): said to the umpire and logged, never refused.
pub fn move_warning(
    u: &UnitState,
    hexes: u32,
    date: Option<NaiveDate>,
    t: &PwTables,
) -> Option<String> {
    let allowance = move_of(u, date, t);
    let mut why = Vec::new();
    if hexes > allowance {
        why.push(format!(
            "{}, beyond its allowance of {allowance} (PW-U1)",
            kepi_game::rules::count(hexes, "hex", "hexes")
        ));
    }
    if u.fired && u.unit.arm == kepi_game::roster::Arm::Artillery {
        why.push("guns that fired cannot move this turn (PW-A1)".to_string());
    }
    (!why.is_empty()).then(|| format!("{} moved {}", u.unit.name, why.join("; ")))
}

/// What the text says of a move without an activation (PW-T2).
const NOT_ACTIVATED: &str =
    "\"Move activated units. To be active, a unit needs to roll a minimum die score\"";
/// What the text says of a withdrawal (PW-H1).
const ONE_HEX: &str = "\"lose a strength point or withdraw one square\"";
/// What the text says of the half-turns (PW-T1).
const HALF_TURNS: &str = "\"Turns are alternate (aka IGOUGO)\"";

/// The notes of [`move_breaches`], which earlier kepis did not give (issue 42): `kepi log verify`
/// takes a move logged without them.
pub const NOTED_SINCE_ISSUE_42: &[&str] = &[NOT_ACTIVATED, ONE_HEX, HALF_TURNS];

/// What the text says against moving `u` to `to` now (issue 42's audit), the umpire deciding: a
/// withdrawal after hits farther than one hex a hit (PW-H1: "lose a strength point or withdraw
/// one square"; the unit's open PW-H1 checks are its hits); otherwise a move in the other side's
/// half-turn (PW-T1: "Turns are alternate (aka IGOUGO)"), and a move in its own movement phase
/// by a unit not activated (PW-T2: "Move activated units. To be active, a unit needs to roll a
/// minimum die score").
pub fn move_breaches(s: &GameState, u: &UnitState, to: Position) -> Vec<String> {
    let mut out = Vec::new();
    if to == u.position || u.position == Position::Off || to == Position::Off {
        return out;
    }
    let name = &u.unit.name;
    let hits = s
        .due
        .iter()
        .filter(|d| d.rule.as_str() == "PW-H1" && d.unit.as_deref() == Some(u.unit.id.as_str()))
        .count() as u32;
    if hits > 0 {
        if let (Some(a), Some(b)) = (hex_of(u.position), hex_of(to))
            && a.distance(b) > hits
        {
            out.push(format!(
                "{name} withdraws {} for {} (PW-H1: {ONE_HEX})",
                count(a.distance(b), "hex", "hexes"),
                count(hits, "hit", "hits")
            ));
        }
        return out;
    }
    let Some(phase) = s.phase_kind() else {
        return out;
    };
    if let Some(side) = phase.side.filter(|side| *side != u.unit.side) {
        out.push(format!(
            "{name} is {}, and this is the {} half-turn (PW-T1: {HALF_TURNS})",
            u.unit.side.title(),
            side.title()
        ));
    } else if phase.step == kepi_game::engine::game::clock::Step::Movement && !u.activated {
        out.push(format!(
            "{name} moves without an activation (PW-T2: {NOT_ACTIVATED})"
        ));
    }
    out
}

fn kind_of(u: &UnitState, date: Option<NaiveDate>) -> UnitKind {
    unit_type_of(u, date).kind()
}

/// The PW actions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "kebab-case")]
pub enum PwAction {
    /// PW-T2 activation.
    Activate(ActivationInput),
    /// PW-A1 artillery fire; the target's owner resolves a hit by `hit` (PW-H1).
    Artillery {
        /// The fire's inputs.
        input: ArtilleryInput,
        /// The target owner's choice for a hit.
        hit: HitChoice,
    },
    /// PW-R1 rifle fire; the target's owner resolves a hit by `hit` (PW-H1).
    Rifle {
        /// The fire's inputs.
        input: RifleInput,
        /// The target owner's choice for a hit.
        hit: HitChoice,
    },
    /// PW-X1 melee, both sides rolling.
    Melee {
        /// The attacker's roll (acting unit).
        a: MeleeInput,
        /// The defender's roll (target).
        b: MeleeInput,
        /// The attacker's owner's choice for hits taken.
        a_hit: HitChoice,
        /// The defender's owner's choice for hits taken.
        b_hit: HitChoice,
    },
}

/// A PW resolver form: the action, its units, its situation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PwForm {
    /// Acting unit id.
    pub actor: Option<String>,
    /// Target unit id.
    pub target: Option<String>,
    /// The action and its inputs.
    pub action: PwAction,
}

fn melee_default() -> MeleeInput {
    MeleeInput {
        unit: UnitKind::Infantry,
        sp: 4,
        enemy: UnitKind::Infantry,
        attacking_flank: false,
        attacked_flank: false,
        enemy_uphill: false,
        enemy_cover: false,
    }
}

/// The outcome of a melee: both sides' rolls.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PwMeleeBoth {
    /// The attacker's roll (its hits fall on the defender).
    pub a: pw::MeleeOutcome,
    /// The defender's roll (its hits fall on the attacker).
    pub b: pw::MeleeOutcome,
}

fn hits_label(h: u32) -> String {
    match h {
        1 => "1 hit".to_string(),
        n => format!("{n} hits"),
    }
}

impl PwForm {
    /// PW-A1 / PW-R1 fire applied: the target takes the hits as its owner chose (PW-H1), and the
    /// firer is marked as having fired.
    fn fire_effects(
        &self,
        state: &GameState,
        who: &str,
        hits: Option<u32>,
        choice: HitChoice,
    ) -> Result<Vec<Action>, RuleError> {
        let a = unit(state, self.actor.as_deref(), who)?;
        let b = unit(state, self.target.as_deref(), "target")?;
        let mut fx = Vec::new();
        if let Some(h) = hits {
            hit_effects(state, b, Some(a), h, HitCause::Fire, choice, &mut fx)?;
        }
        fx.push(Action::SetFlag {
            unit: a.unit.id.clone(),
            flag: Flag::Fired.into(),
            on: true,
        });
        Ok(fx)
    }

    /// One form per action, with default situations.
    pub fn all() -> Vec<PwForm> {
        [
            PwAction::Activate(ActivationInput {
                army: Army::Prussian,
                quality: Quality::Normal,
            }),
            PwAction::Artillery {
                input: ArtilleryInput {
                    army: Gunnery::Prussian,
                    sp: 4,
                    target_cover: false,
                    range: None,
                },
                hit: HitChoice::LoseSp,
            },
            PwAction::Rifle {
                input: RifleInput {
                    sp: 4,
                    moved: false,
                    target_cover: false,
                    firer: None,
                    range: None,
                },
                hit: HitChoice::LoseSp,
            },
            PwAction::Melee {
                a: melee_default(),
                b: melee_default(),
                a_hit: HitChoice::LoseSp,
                b_hit: HitChoice::LoseSp,
            },
        ]
        .into_iter()
        .map(|action| PwForm {
            actor: None,
            target: None,
            action,
        })
        .collect()
    }

    /// The action's name.
    pub fn name(&self) -> &'static str {
        match self.action {
            PwAction::Activate(_) => "activate",
            PwAction::Artillery { .. } => "artillery",
            PwAction::Rifle { .. } => "rifle",
            PwAction::Melee { .. } => "melee",
        }
    }

    /// True when the action has a target.
    pub fn needs_target(&self) -> bool {
        !matches!(self.action, PwAction::Activate(_))
    }

    /// Sets the units and pre-sets every input kepi knows from their state and positions: SP,
    /// types, moved, range in hexes (PW-G1) and, in melee, flank or rear from the facings (PW-X1).
    pub fn prefill(
        &mut self,
        state: &GameState,
        actor: Option<&str>,
        target: Option<&str>,
        _t: &PwTables,
    ) {
        self.actor = actor.map(str::to_string);
        self.target = target.map(str::to_string);
        let date = state.date.or(state.start_date);
        let a = actor.and_then(|id| state.unit(id));
        let b = target.and_then(|id| state.unit(id));
        let pa = a.and_then(|u| pw_unit(u, date));
        let pb = b.and_then(|u| pw_unit(u, date));
        match &mut self.action {
            PwAction::Activate(i) => {
                if let Some(a) = a {
                    i.army = army_of(a);
                    i.quality = quality_of(a);
                }
            }
            PwAction::Artillery { input, hit } => {
                if let Some(a) = a {
                    input.sp = a.strength;
                    if let Some(g) = unit_type_of(a, date).gunnery() {
                        input.army = g;
                    }
                }
                input.range = match (&pa, &pb) {
                    (Some(pa), Some(pb)) => Some(pa.hex.distance(pb.hex)),
                    _ => None,
                };
                if let (Some(pa), Some(pb)) = (&pa, &pb)
                    && let Ok(i) = pw::artillery_input(
                        pa,
                        pb.hex,
                        cover_on_map(state, pb.hex).unwrap_or(input.target_cover),
                    )
                {
                    *input = i;
                }
                if let Some(b) = b
                    && !pw::hit_choices(kind_of(b, date), HitCause::Fire).contains(hit)
                {
                    *hit = HitChoice::LoseSp;
                }
            }
            PwAction::Rifle { input, hit } => {
                if let Some(a) = a {
                    input.sp = a.strength;
                    input.moved = a.moved;
                    input.firer = Some(unit_type_of(a, date));
                }
                if let (Some(pa), Some(pb)) = (&pa, &pb) {
                    let cover = cover_on_map(state, pb.hex).unwrap_or(input.target_cover);
                    *input = pw::rifle_input(pa, pb.hex, cover);
                } else {
                    input.range = None;
                }
                if let Some(b) = b
                    && !pw::hit_choices(kind_of(b, date), HitCause::Fire).contains(hit)
                {
                    *hit = HitChoice::LoseSp;
                }
            }
            PwAction::Melee { a: ia, b: ib, .. } => {
                if let Some(a) = a {
                    ia.unit = kind_of(a, date);
                    ia.sp = a.strength;
                    ib.enemy = ia.unit;
                }
                if let Some(b) = b {
                    ib.unit = kind_of(b, date);
                    ib.sp = b.strength;
                    ia.enemy = ib.unit;
                }
                ia.attacking_flank = false;
                ia.attacked_flank = false;
                ib.attacking_flank = false;
                ib.attacked_flank = false;
                if let (Some(pa), Some(pb)) = (&pa, &pb) {
                    // A hill on the map is the higher ground; without a map (or off it) the
                    // heights are not known and the uphill ticks stay as they were.
                    let heights = terrain_on_map(state, pa.hex)
                        .zip(terrain_on_map(state, pb.hex))
                        .map(|(ta, tb)| (i32::from(ta == HILL), i32::from(tb == HILL)));
                    let ground = MeleeGround {
                        attacker_height: heights.map_or(0, |h| h.0),
                        defender_height: heights.map_or(0, |h| h.1),
                        attacker_cover: cover_on_map(state, pa.hex).unwrap_or(ib.enemy_cover),
                        defender_cover: cover_on_map(state, pb.hex).unwrap_or(ia.enemy_cover),
                    };
                    if let Ok((x, y)) = pw::melee_inputs(pa, pb, &ground) {
                        let (up_a, up_b) = match heights {
                            Some(_) => (x.enemy_uphill, y.enemy_uphill),
                            None => (ia.enemy_uphill, ib.enemy_uphill),
                        };
                        *ia = MeleeInput {
                            enemy_uphill: up_a,
                            ..x
                        };
                        *ib = MeleeInput {
                            enemy_uphill: up_b,
                            ..y
                        };
                    }
                }
            }
        }
    }

    /// Resolves; with dice, the outcome becomes actions on the units.
    pub fn resolve(
        &self,
        state: &GameState,
        t: &PwTables,
        dice: Option<&mut DiceSource>,
    ) -> Result<Resolved, RuleError> {
        let rolling = dice.is_some();
        match &self.action {
            PwAction::Activate(i) => {
                let res = pw::activate(i, t, dice)?;
                let mut fx = Vec::new();
                if rolling && res.outcome.as_ref().is_some_and(|o| o.active) {
                    let a = unit(state, self.actor.as_deref(), "unit")?;
                    if !a.activated {
                        fx.push(Action::SetFlag {
                            unit: a.unit.id.clone(),
                            flag: Flag::Activated.into(),
                            on: true,
                        });
                    }
                }
                Ok(done(res, fx))
            }
            PwAction::Artillery { input, hit } => {
                let res = pw::artillery(input, t, dice)?;
                let hits = res.outcome.as_ref().map(|o| o.hits);
                let fx = if rolling {
                    self.fire_effects(state, "battery", hits, *hit)?
                } else {
                    Vec::new()
                };
                Ok(done(res, fx))
            }
            PwAction::Rifle { input, hit } => {
                let res = pw::rifle(input, t, dice)?;
                let hits = res.outcome.as_ref().map(|o| o.hits);
                let fx = if rolling {
                    self.fire_effects(state, "firer", hits, *hit)?
                } else {
                    Vec::new()
                };
                Ok(done(res, fx))
            }
            PwAction::Melee { a, b, a_hit, b_hit } => {
                let mut dice = dice;
                let ra = pw::melee(a, t, dice.as_deref_mut())?;
                let rb = pw::melee(b, t, dice)?;
                let res = melee_both(ra, rb);
                let mut fx = Vec::new();
                if rolling && let Some(o) = &res.outcome {
                    let ua = unit(state, self.actor.as_deref(), "attacker")?;
                    let ub = unit(state, self.target.as_deref(), "defender")?;
                    hit_effects(
                        state,
                        ub,
                        Some(ua),
                        o.a.hits,
                        HitCause::Melee,
                        *b_hit,
                        &mut fx,
                    )?;
                    hit_effects(
                        state,
                        ua,
                        Some(ub),
                        o.b.hits,
                        HitCause::Melee,
                        *a_hit,
                        &mut fx,
                    )?;
                    // Issue 46: both units have been in melee this turn (the checklist's count).
                    melee_marks(&[ua, ub], &mut fx);
                }
                Ok(done(res, fx))
            }
        }
    }
}

/// PW-X1: each unit of a melee has fought one more this turn (the melee count P&K keeps too,
/// PK-X7), up to the counter's bound.
fn melee_marks(us: &[&UnitState], fx: &mut Vec<Action>) {
    for u in us {
        if u.melees < kepi_game::engine::game::MAX_MELEES {
            fx.push(Action::SetCount {
                unit: u.unit.id.clone(),
                counter: kepi_game::engine::game::Counter::Melees,
                value: u.melees + 1,
                notes: Vec::new(),
            });
        }
    }
}

/// PW-X1: both sides' melee rolls as one resolution, with the joint odds of the two.
fn melee_both(
    ra: Resolution<pw::MeleeOutcome>,
    rb: Resolution<pw::MeleeOutcome>,
) -> Resolution<PwMeleeBoth> {
    let mut modifiers = Vec::new();
    for (who, r) in [("attacker", &ra), ("defender", &rb)] {
        for m in &r.modifiers {
            let mut m = m.clone();
            m.label = format!("{who}: {}", m.label);
            modifiers.push(m);
        }
    }
    let mut odds = Vec::new();
    for x in &ra.odds {
        for y in &rb.odds {
            odds.push(OddsLine {
                outcome: format!("attacker {}, defender {}", x.outcome, y.outcome),
                p: x.p * y.p,
            });
        }
    }
    let outcome = match (ra.outcome, rb.outcome) {
        (Some(a), Some(b)) => Some(PwMeleeBoth { a, b }),
        _ => None,
    };
    let summary = match &outcome {
        Some(o) => format!(
            "attacker {}, defender {} (attacker score {}, defender score {})",
            hits_label(o.a.hits),
            hits_label(o.b.hits),
            o.a.score,
            o.b.score
        ),
        None => format!("attacker {}; defender {}", ra.summary, rb.summary),
    };
    // Issue 46: each side's die says whose it is ("attacker infantry melee"), not only its arm.
    let side = |who: &'static str, dice: Vec<Roll>| {
        dice.into_iter().map(move |mut d| {
            d.label = format!("{who} {}", d.label);
            d
        })
    };
    let dice: Vec<Roll> = side("attacker", ra.dice)
        .chain(side("defender", rb.dice))
        .collect();
    Resolution {
        system: crate::pw::ID,
        action: "melee".into(),
        modifiers,
        dice,
        outcome,
        summary,
        odds,
        // the joint line of the two sides' rolled lines, in the order the loop above builds them
        rolled: ra.rolled.zip(rb.rolled).map(|(x, y)| x * rb.odds.len() + y),
        notes: vec![
            "PW-X1: both sides roll; each side's hits fall on the other".into(),
            "PW-H1: each hit costs 1 SP or a one-hex withdrawal, the owner's choice".into(),
        ],
    }
}

/// PW-H1: `hits` on unit `u`, resolved by its owner's `choice`: lose SP (the default), withdraw
/// one hex (directly away from `from` when the hex is free, else a note for the umpire), or, for
/// artillery hit by fire, neither fire nor move next turn (a note: the game tracks no such marker).
fn hit_effects(
    state: &GameState,
    u: &UnitState,
    from: Option<&UnitState>,
    hits: u32,
    cause: HitCause,
    choice: HitChoice,
    fx: &mut Vec<Action>,
) -> Result<(), RuleError> {
    if hits == 0 {
        return Ok(());
    }
    let date = state.date.or(state.start_date);
    let allowed = pw::hit_choices(kind_of(u, date), cause);
    let choice = if allowed.contains(&choice) {
        choice
    } else {
        fx.push(Action::Note {
            text: format!(
                "PW-H1: {} cannot choose {choice}; it loses SP instead",
                u.unit.name
            ),
        });
        HitChoice::LoseSp
    };
    let name = &u.unit.name;
    match choice {
        HitChoice::LoseSp => {
            lose(u, hits, fx);
        }
        HitChoice::Withdraw => {
            let here = hex_of(u.position);
            let away = match (here, from.and_then(|f| hex_of(f.position))) {
                (Some(h), Some(e)) => e.direction_to(h).or_else(|| e.bearing(h)),
                _ => None,
            };
            let dest = match (here, away) {
                (Some(h), Some(d)) => position_of(h.step(d, hits as i32)),
                _ => None,
            };
            let free = dest.is_some_and(|p| {
                !state
                    .units
                    .iter()
                    .any(|o| o.unit.id != u.unit.id && o.position == p && !o.eliminated())
            });
            match dest {
                Some(to) if free => {
                    fx.push(Action::Note {
                        text: format!(
                            "PW-H1: {name} takes {} and withdraws to {to}",
                            count(hits, "hit", "hits")
                        ),
                    });
                    fx.push(Action::Move {
                        effects: Vec::new(),
                        unit: u.unit.id.clone(),
                        to,
                        notes: Vec::new(),
                        mp: None,
                    });
                }
                _ => fx.push(Action::Note {
                    text: format!(
                        "PW-H1: {name} takes {} and withdraws {}: move it on the map",
                        count(hits, "hit", "hits"),
                        count(hits, "hex", "hexes")
                    ),
                }),
            }
        }
        HitChoice::Silenced => fx.push(Action::Note {
            text: format!(
                "PW-H1: {name} takes {} and can neither fire nor move next turn",
                count(hits, "hit", "hits")
            ),
        }),
    }
    Ok(())
}

/// The pw form as the engine sees it (issue 27: a built-in rule set goes through the same trait
/// a registered one uses, its tables passed in).
impl kepi_game::engine::play::SetForm for PwForm {
    #[cfg(feature = "gui")]
    fn situation_ui(&mut self, ui: &mut egui::Ui, _state: &GameState) {
        super::panel::pw_situation_ui(ui, self);
    }

    fn name(&self) -> &'static str {
        PwForm::name(self)
    }

    fn units(&self) -> (Option<&str>, Option<&str>) {
        (self.actor.as_deref(), self.target.as_deref())
    }

    fn needs_target(&self) -> bool {
        PwForm::needs_target(self)
    }

    fn prefill(
        &mut self,
        state: &GameState,
        actor: Option<&str>,
        target: Option<&str>,
        tables: &kepi_game::rules::Tables,
    ) {
        self.prefill(state, actor, target, tables.get::<crate::pw::PwTables>())
    }

    fn refusal(&self, state: &GameState) -> Option<String> {
        refusal(self, state)
    }

    /// PW-X1: a melee is one d6 a side, the attacker's first; every other action one d6.
    fn dice_groups(&self) -> Vec<kepi_game::dice::DiceGroup> {
        use kepi_game::dice::{DiceGroup, Die};
        match self.action {
            PwAction::Melee { .. } => vec![
                DiceGroup::exactly("attacker d6", Die::D6, 1),
                DiceGroup::exactly("defender d6", Die::D6, 1),
            ],
            _ => vec![DiceGroup::exactly("d6", Die::D6, 1)],
        }
    }

    fn breaches(
        &self,
        game: &kepi_game::engine::game::Game,
        _tables: &kepi_game::rules::Tables,
    ) -> Vec<String> {
        if self.name() != "melee" {
            return Vec::new();
        }
        melee_breaches(game.state(), self.actor.as_deref(), self.target.as_deref())
    }

    fn resolve(
        &self,
        state: &GameState,
        tables: &kepi_game::rules::Tables,
        dice: Option<&mut DiceSource>,
    ) -> Result<Resolved, RuleError> {
        PwForm::resolve(self, state, tables.get::<crate::pw::PwTables>(), dice)
    }

    fn to_value(&self) -> serde_json::Value {
        kepi_game::engine::play::tagged_value("pw", self)
    }

    fn with_value(
        &self,
        v: &serde_json::Value,
    ) -> Option<Box<dyn kepi_game::engine::play::SetForm>> {
        kepi_game::engine::play::from_tagged::<PwForm>("pw", v)
            .map(|f| Box::new(f) as Box<dyn kepi_game::engine::play::SetForm>)
    }

    fn boxed_clone(&self) -> Box<dyn kepi_game::engine::play::SetForm> {
        Box::new(self.clone())
    }
}

/// Portable Wargame: fire and melee against the enemy; guns fire as artillery, foot as rifles.
pub fn refusal(f: &PwForm, state: &GameState) -> Option<String> {
    let actor = f.actor.as_deref().and_then(|id| state.unit(id));
    let arm = |want: Arm, form: &str| {
        let a = actor?;
        (a.unit.arm != want).then(|| {
            format!(
                "{} is {}: the {form} form is for {want} (PW-U1)",
                name(a),
                a.unit.arm
            )
        })
    };
    match &f.action {
        PwAction::Activate(_) => None,
        PwAction::Artillery { input, .. } => arm(Arm::Artillery, "artillery")
            .or_else(|| opposed(state, f.actor.as_deref(), f.target.as_deref(), "fire at"))
            .or_else(|| over(actor, input.sp, "strength points")),
        PwAction::Rifle { input, .. } => arm(Arm::Infantry, "rifle fire")
            .or_else(|| opposed(state, f.actor.as_deref(), f.target.as_deref(), "fire at"))
            .or_else(|| over(actor, input.sp, "strength points")),
        PwAction::Melee { a, .. } => {
            opposed(state, f.actor.as_deref(), f.target.as_deref(), "melee")
                .or_else(|| over(actor, a.sp, "strength points"))
        }
    }
}

/// PW-X1: "Melee happens when a unit tries to enter a hex held by the enemy": the two are
/// neighbours (the board is odd-q; see [`kepi_game::engine::rule_set::RuleSet::hex_layout`]).
pub(crate) fn melee_breaches(
    s: &GameState,
    actor: Option<&str>,
    target: Option<&str>,
) -> Vec<String> {
    let layout = s.system.hex_layout();
    let (Some(a), Some(b)) = (
        actor.and_then(|id| s.unit(id)),
        target.and_then(|id| s.unit(id)),
    ) else {
        return Vec::new();
    };
    let at = |p: Position| hex_in(p, layout);
    match (at(a.position), at(b.position)) {
        (Some(x), Some(y)) if x.distance(y) > 1 => vec![format!(
            "{} in {} is {} hexes from {} in {}: a melee is a unit entering the enemy's hex, from \
             next to it (PW-X1: \"Melee happens when a unit tries to enter a hex held by the \
             enemy\")",
            a.unit.name,
            a.position,
            x.distance(y),
            b.unit.name,
            b.position
        )],
        _ => Vec::new(),
    }
}

/// The terrain the game's board map gives `hex` (issue 41), where the game carries a map that
/// knows the cell.
fn terrain_on_map(state: &GameState, hex: kepi_game::hex::Hex) -> Option<&str> {
    state.board()?.terrain_of(hex)
}

/// The Portable Wargame's terrain names its resolver reads from a map (its terrain table,
/// `set.rs`): a unit in cover (PW-A1, PW-R1, PW-X1) and on a hill (PW-X1's uphill).
const COVER: &str = "cover";
const HILL: &str = "hill";

/// Whether the map shows `hex` as cover: pre-fills "target in cover" and a melee's cover, where
/// the map knows the cell; `None` (no map, or off it) leaves what was there. The umpire's tick
/// still wins (the window keeps it apart as set by the user).
fn cover_on_map(state: &GameState, hex: kepi_game::hex::Hex) -> Option<bool> {
    terrain_on_map(state, hex).map(|t| t == COVER)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{TimeZone, Utc};
    use kepi_game::engine::game::{Game, SeedSecret};
    use kepi_game::hex::Layout;
    use kepi_game::registry::builtin_scenario;
    use kepi_game::roster::Facing;
    use kepi_game::rules::Tables;

    fn game() -> Game {
        let s = builtin_scenario("pw-skirmish").unwrap();
        Game::new(
            &s,
            crate::pw::ID,
            SeedSecret {
                seed: 7,
                salt: "t".into(),
            },
            Utc.timestamp_opt(1_000_000, 0).single().unwrap(),
        )
    }

    fn form(name: &str, g: &Game, a: &str, b: Option<&str>) -> PwForm {
        let t = kepi_game::tables::builtin::<crate::pw::PwTables>();
        let mut f = PwForm::all()
            .into_iter()
            .find(|f| f.name() == name)
            .unwrap();
        f.prefill(g.state(), Some(a), b, t);
        f
    }

    fn mv(g: &mut Game, id: &str, label: &str) {
        let now = Utc.timestamp_opt(1_000_001, 0).single().unwrap();
        g.act(
            Action::Move {
                effects: Vec::new(),
                unit: id.into(),
                to: label.parse().unwrap(),
                notes: Vec::new(),
                mp: None,
            },
            now,
        )
        .unwrap();
    }

    #[test]
    fn hexes_and_facings_convert() {
        let p: Position = "0304".parse().unwrap();
        let h = hex_of(p).unwrap();
        assert_eq!(h.label(Layout::OddQ).as_deref(), Some("0304"));
        assert_eq!(position_of(h), Some(p));
        assert_eq!(direction_of(Facing::Sw), Some(Direction::SW));
        assert_eq!(direction_of(Facing::E), None);
    }

    /// Issue 41 (PW-R1, PW-A1): the skirmish carries kepi's example table, where the village
    /// (0503) and the wood (0201) are cover: firing at a unit there pre-fills "target in cover";
    /// at one in the open it does not; without a map nothing is pre-filled.
    #[test]
    fn the_map_prefills_target_in_cover() {
        let g = game();
        assert!(g.state().map.is_some());
        let cover = |name: &str, a: &str, b: &str, g: &Game| match form(name, g, a, Some(b)).action
        {
            PwAction::Rifle { input, .. } => input.target_cover,
            PwAction::Artillery { input, .. } => input.target_cover,
            _ => unreachable!(),
        };
        assert!(
            cover("rifle", "de-inf-2", "fr-inf-1", &g),
            "the village is cover"
        );
        assert!(!cover("rifle", "de-inf-2", "fr-inf-3", &g), "0304 is open");
        assert!(cover("artillery", "de-art", "fr-inf-1", &g));
        let mut s = builtin_scenario("pw-skirmish").unwrap();
        s.map = None;
        let bare = Game::new(
            &s,
            crate::pw::ID,
            SeedSecret {
                seed: 7,
                salt: "t".into(),
            },
            Utc.timestamp_opt(1_000_000, 0).single().unwrap(),
        );
        assert!(
            !cover("rifle", "de-inf-2", "fr-inf-1", &bare),
            "no map, no cover"
        );
    }

    /// PW-G1, PW-R1: range counted in hexes from the two positions.
    #[test]
    fn rifle_range_from_positions() {
        let g = game();
        let f = form("rifle", &g, "de-inf-2", Some("fr-inf-3"));
        let PwAction::Rifle { input, .. } = &f.action else {
            panic!()
        };
        assert_eq!(input.range, Some(3));
        assert_eq!(input.firer, Some(UnitType::GermanInfantry));
        let t = &Tables::default();
        assert!(
            f.resolve(g.state(), t.get::<crate::pw::PwTables>(), None)
                .is_ok()
        );
    }

    /// PW-A1 + PW-H1: a hit costs the target 1 SP by default and the guns are marked as fired.
    #[test]
    fn artillery_hit_loses_sp_and_marks_fired() {
        let t = &Tables::default();
        let mut g = game();
        let f = form("artillery", &g, "de-art", Some("fr-inf-3"));
        let PwAction::Artillery { input, .. } = &f.action else {
            panic!()
        };
        assert_eq!(input.army, Gunnery::Prussian);
        assert_eq!(input.range, Some(2));
        // d6 6: Prussian +1, SP 4 > 3 +1: a hit.
        let now = Utc.timestamp_opt(1_000_002, 0).single().unwrap();
        g.resolve(
            &[(kepi_game::dice::Die::D6, 6)],
            |s, d| f.resolve(s, t.get::<crate::pw::PwTables>(), Some(d)),
            now,
        )
        .unwrap();
        assert_eq!(g.state().unit("fr-inf-3").unwrap().strength, 3);
        assert!(g.state().unit("de-art").unwrap().fired);
        g.undo(now).unwrap();
        assert_eq!(g.state().unit("fr-inf-3").unwrap().strength, 4);
    }

    /// PW-X1: attacking into the rear of a unit facing away gives +1 / -1 from the facings.
    #[test]
    fn melee_flank_from_facings_and_both_sides_hit() {
        let t = &Tables::default();
        let mut g = game();
        // fr-inf-3 at 0304 faces north; its rear hexside is south (0305).
        mv(&mut g, "de-cav", "0305");
        let now = Utc.timestamp_opt(1_000_002, 0).single().unwrap();
        g.act(
            Action::Face {
                unit: "de-cav".into(),
                facing: Some(Facing::N),
            },
            now,
        )
        .unwrap();
        let f = form("melee", &g, "de-cav", Some("fr-inf-3"));
        let PwAction::Melee { a, b, .. } = &f.action else {
            panic!()
        };
        assert!(a.attacking_flank && !a.attacked_flank);
        assert!(b.attacked_flank && !b.attacking_flank);
        assert_eq!((a.unit, a.enemy), (UnitKind::Cavalry, UnitKind::Infantry));
        let (preview, fx) = f
            .resolve(g.state(), t.get::<crate::pw::PwTables>(), None)
            .unwrap();
        assert!(fx.is_empty());
        assert_eq!(preview.odds_total(), kepi_game::dice::Prob::ONE);
        // Both roll 6: cavalry 6 +1 flank +1 v infantry = 8: two hits; infantry 6 -1 attacked in
        // flank -1 v cavalry (+1 strong) = 5: one hit; cavalry SP 2 keeps its 2 SP minus 1.
        let now = Utc.timestamp_opt(1_000_003, 0).single().unwrap();
        g.resolve(
            &[(kepi_game::dice::Die::D6, 6), (kepi_game::dice::Die::D6, 6)],
            |s, d| f.resolve(s, t.get::<crate::pw::PwTables>(), Some(d)),
            now,
        )
        .unwrap();
        assert_eq!(g.state().unit("fr-inf-3").unwrap().strength, 2);
        assert_eq!(g.state().unit("de-cav").unwrap().strength, 1);
    }

    /// PW-H1: the owner's recorded choice to withdraw moves the unit directly away.
    #[test]
    fn withdraw_choice_moves_away() {
        let t = &Tables::default();
        let mut g = game();
        let mut f = form("artillery", &g, "de-art", Some("fr-inf-3"));
        if let PwAction::Artillery { hit, .. } = &mut f.action {
            *hit = HitChoice::Withdraw;
        }
        let now = Utc.timestamp_opt(1_000_004, 0).single().unwrap();
        g.resolve(
            &[(kepi_game::dice::Die::D6, 6)],
            |s, d| f.resolve(s, t.get::<crate::pw::PwTables>(), Some(d)),
            now,
        )
        .unwrap();
        let u = g.state().unit("fr-inf-3").unwrap();
        assert_eq!(u.strength, 4);
        assert_eq!(u.position.to_string(), "0305");
    }

    /// PW-T2: an activated unit is marked.
    #[test]
    fn activation_sets_the_flag() {
        let t = &Tables::default();
        let mut g = game();
        let f = form("activate", &g, "de-inf-1", None);
        let PwAction::Activate(i) = &f.action else {
            panic!()
        };
        assert_eq!(i.army, Army::Prussian);
        let now = Utc.timestamp_opt(1_000_005, 0).single().unwrap();
        g.resolve(
            &[(kepi_game::dice::Die::D6, 5)],
            |s, d| f.resolve(s, t.get::<crate::pw::PwTables>(), Some(d)),
            now,
        )
        .unwrap();
        assert!(g.state().unit("de-inf-1").unwrap().activated);
    }

    /// A melee on a friend and artillery fire by another arm are refused (`SetForm::refusal`).
    #[test]
    fn refuses_friends_and_wrong_arms() {
        let g = game();
        let why = |name: &str, a: &str, b: &str| {
            let mut f = kepi_game::engine::play::Form::all_for(crate::pw::ID)
                .into_iter()
                .find(|f| f.name() == name)
                .unwrap();
            f.prefill(g.state(), Some(a), Some(b), &Tables::default());
            f.refusal(g.state())
        };
        assert!(
            why("melee", "de-inf-1", "de-inf-2")
                .unwrap()
                .contains("friendly")
        );
        assert!(
            why("artillery", "de-cav", "fr-inf-1")
                .unwrap()
                .contains("for artillery")
        );
    }
}
