//! The current phase's steps per rule set, driven by the turn clock ([`crate::engine::game::clock`]).

use serde::Serialize;

use crate::engine::game::clock::Step;
use crate::engine::game::{GameState, Level, MAX_MELEES, UnitState};
use crate::engine::rule_set::Rules;
use crate::roster::{Arm, Side};
use crate::rules::RuleId;

use super::{army_strength, pw_defeated, pw_losses, sides};

/// One step of the current phase: what to do, for whom, and where kepi resolves it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Item {
    /// The mechanic.
    pub rule: RuleId,
    /// What happens, for people.
    pub what: String,
    /// The side it is for, when one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side: Option<Side>,
    /// The resolver form to open ([`Form::name`]), when kepi has one for this step.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub form: Option<String>,
    /// The units it concerns (the window pre-fills the first as the acting unit).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub units: Vec<String>,
}

/// True when the rule set's resolver offers a form of this name.
pub fn form_offered(rules: Rules, name: &str) -> bool {
    rules.forms().iter().any(|f| f.name() == name)
}

/// The side whose phase it is (None: both sides, or the umpire).
pub fn phase_side(s: &GameState) -> Option<Side> {
    s.phase_kind().and_then(|p| p.side)
}

/// The current phase's steps as a rule set lists them ([`crate::engine::rule_set::RuleSet::checklist`]).
pub struct List<'a> {
    s: &'a GameState,
    out: Vec<Item>,
}

impl<'a> List<'a> {
    /// The game.
    pub fn state(&self) -> &'a GameState {
        self.s
    }

    /// Lists a step: its rule, what to do, the side it is for, the resolver form that does it
    /// (kept only when the rule set offers that form) and the units it concerns.
    pub fn add(
        &mut self,
        rule: &'static str,
        what: impl Into<String>,
        side: Option<Side>,
        form: Option<&str>,
        units: Vec<String>,
    ) {
        self.out.push(Item {
            rule: RuleId::new(rule),
            what: what.into(),
            side,
            form: form
                .filter(|f| form_offered(self.s.system, f))
                .map(str::to_string),
            units,
        });
    }

    /// The ids of the units in play (arrived, not eliminated) that `keep` keeps.
    pub fn ids(&self, keep: impl Fn(&UnitState) -> bool) -> Vec<String> {
        self.s
            .units
            .iter()
            .filter(|u| {
                !u.eliminated() && u.unit.arrives.is_none_or(|t| t <= self.s.turn) && keep(u)
            })
            .map(|u| u.id().to_string())
            .collect()
    }

    /// Units due to arrive this turn (the scenario's `arrives`).
    pub fn arrivals(&mut self, rule: &'static str, side: Option<Side>) {
        let turn = self.s.turn;
        let units =
            self.ids(|u| u.unit.arrives == Some(turn) && side.is_none_or(|s| s == u.unit.side));
        if !units.is_empty() {
            self.add(
                rule,
                format!("{} unit(s) arrive this turn: place them", units.len()),
                side,
                None,
                units,
            );
        }
    }
}

fn artillery(u: &UnitState) -> bool {
    u.unit.arm == Arm::Artillery
}

/// The steps of the current phase, in order.
///
/// - PK-T1 part 1: d% initiative, the first player moves, artillery fires first, then units (PK-M1,
///   PK-A1, PK-F1); part 2 melees (PK-X1, PK-X7, PK-X5); part 3 a rally roll for every unit that
///   dropped a level (PK-E1); part 4 army morale (PK-W1).
/// - PW-T1 per half-turn: artillery fire (PW-A1), activation and movement (PW-T2), rifle fire by
///   active and inactive units (PW-R1), melee (PW-X1); the army's standing (PW-V1).
/// - GSP-A4: artillery fires after rifle fire, both sides at once, only guns that did not move or
///   unlimber this turn.
/// - SPI-T1 / FR-T1: reinforcements due this turn, movement (supply judged at its start, SPI-S1 /
///   FR-S1), combat, and at the end the calendar and the blockade markers (FR-B1).
pub fn checklist(s: &GameState) -> Vec<Item> {
    let mut l = List { s, out: Vec::new() };
    s.system.checklist(&mut l);
    l.out
}

pub(crate) fn pk(l: &mut List) {
    let s = l.s;
    match s.phase_kind().map(|p| p.step) {
        Some(Step::MovementAndFire) => {
            l.add(
                "PK-T1",
                "each side rolls d%: the high scorer must move first",
                None,
                None,
                Vec::new(),
            );
            l.arrivals("PK-T1", None);
            let to_move = l.ids(|u| !u.moved && u.level != Level::Routed);
            l.add(
                "PK-M1",
                "the first player moves, then the second",
                None,
                None,
                to_move,
            );
            let guns = l.ids(|u| artillery(u) && !u.limbered && !u.fired);
            l.add(
                "PK-A1",
                "artillery fires first: unlimbered batteries that have not fired",
                None,
                Some("artillery"),
                guns,
            );
            let rifles = l.ids(|u| {
                !artillery(u) && !u.fired && !u.muddled && u.unit.arm != Arm::Headquarters
            });
            l.add(
                "PK-F1",
                "then units fire (muddled units cannot fire, PK-X7)",
                None,
                Some("fire"),
                rifles,
            );
        }
        Some(Step::Melee) => {
            let can = l.ids(|u| {
                u.level == Level::Steady && u.melees < MAX_MELEES && u.unit.arm != Arm::Headquarters
            });
            l.add(
                "PK-X1",
                "melees: only a Steady unit initiates; only Steady or Shaken units accept",
                None,
                Some("melee"),
                can,
            );
            let spent = l.ids(|u| u.melees >= MAX_MELEES);
            if !spent.is_empty() {
                l.add(
                    "PK-X7",
                    format!(
                        "{} unit(s) have fought 3 melees this turn: no more",
                        spent.len()
                    ),
                    None,
                    None,
                    spent,
                );
            }
            let tired = l.ids(|u| u.fatigue > 0);
            l.add(
                "PK-X5",
                "fatigue check at the end of each melee move; pursuit when the opponent stood",
                None,
                Some("fatigue"),
                tired,
            );
        }
        Some(Step::UnitMorale) => {
            let mut dropped: Vec<String> = Vec::new();
            for d in s.due.iter() {
                if d.rule.as_str() == "PK-E1"
                    && let Some(u) = &d.unit
                    && !dropped.contains(u)
                {
                    dropped.push(u.clone());
                }
            }
            let what = if dropped.is_empty() {
                "unit morale: no unit waits for a rally roll".to_string()
            } else {
                format!(
                    "unit morale: a rally roll for each of the {} unit(s) that dropped a level",
                    dropped.len()
                )
            };
            l.add("PK-E1", what, None, Some("rally"), dropped);
        }
        _ => {
            for side in sides(s) {
                let (now, total) = army_strength(s, side);
                let pct = (now * 100).checked_div(total).unwrap_or(0);
                let what = if now * 4 < total {
                    format!(
                        "army morale: {now} of {total} ({pct}%), below 25%: roll d10 to return broken units as Shaken"
                    )
                } else {
                    format!("army morale: {now} of {total} ({pct}%), above 25%: no roll")
                };
                let broken = l.ids(|u| u.unit.side == side && u.level == Level::Broken);
                l.add("PK-W1", what, Some(side), None, broken);
            }
        }
    }
}

pub(crate) fn pw(l: &mut List) {
    let s = l.s;
    let side = phase_side(s);
    let mine = |u: &UnitState| side.is_none_or(|x| x == u.unit.side);
    match s.phase_kind().map(|p| p.step) {
        Some(Step::ArtilleryFire) => {
            let guns = l.ids(|u| mine(u) && artillery(u) && !u.fired);
            l.add(
                "PW-A1",
                "artillery fire (line of sight; guns that fire cannot move this turn)",
                side,
                Some("artillery"),
                guns,
            );
        }
        Some(Step::Movement) => {
            l.arrivals("PW-T1", side);
            let idle = l.ids(|u| mine(u) && !u.activated);
            l.add(
                "PW-T2",
                "activation: d6 >= 2 for Prussians and Redshirts, >= 3 for all others (Elite +1, Poor -1)",
                side,
                Some("activate"),
                idle,
            );
            let go = l.ids(|u| mine(u) && u.activated && !u.moved && !(artillery(u) && u.fired));
            l.add("PW-G1", "move the activated units (hexes)", side, None, go);
        }
        Some(Step::RifleFire) => {
            let rifles = l.ids(|u| !artillery(u) && u.unit.arm != Arm::Cavalry && !u.fired);
            l.add(
                "PW-R1",
                "rifle fire, active and inactive units (-1 if the firer moved)",
                None,
                Some("fire"),
                rifles,
            );
        }
        _ => {
            l.add(
                "PW-X1",
                "melee: each unit that tried to enter an enemy-held hex; both roll",
                side,
                Some("melee"),
                Vec::new(),
            );
        }
    }
    for side in sides(s) {
        let x = pw_losses(s, side);
        let what = if pw_defeated(s, side) {
            format!(
                "DEFEATED: lost {} of {} SP, {} of {} units",
                x.sp_lost, x.sp_total, x.units_lost, x.units_total
            )
        } else {
            format!(
                "lost {} of {} SP, {} of {} units (defeated at more than half)",
                x.sp_lost, x.sp_total, x.units_lost, x.units_total
            )
        };
        l.add("PW-V1", what, Some(side), None, Vec::new());
    }
}

pub(crate) fn gsp(l: &mut List) {
    let s = l.s;
    match s.phase_kind().map(|p| p.step) {
        Some(Step::Movement) => {
            let to_move = l.ids(|u| !u.moved);
            l.add(
                "GSP-A4",
                "movement: guns that move or unlimber this turn may not fire (mark them moved)",
                None,
                None,
                to_move,
            );
            let hidden = l.ids(|u| u.hidden);
            if !hidden.is_empty() {
                l.add(
                    "GSP-S1",
                    "the hidden siege gun is revealed when French units come adjacent or in; it may be brought on at the start of a Prussian turn",
                    Some(Side::German),
                    None,
                    hidden,
                );
            }
        }
        Some(Step::RifleFire) => l.add(
            "GSP-A4",
            "rifle fire and its casualties come before the artillery",
            None,
            None,
            Vec::new(),
        ),
        Some(Step::ArtilleryFire) => {
            let guns = l.ids(|u| artillery(u) && !u.moved && !u.limbered && !u.fired && !u.hidden);
            l.add(
                "GSP-A4",
                "artillery fire, both sides at once: only guns that did not move or unlimber; choose load and target sector, one d6 per gun",
                None,
                Some("artillery"),
                guns,
            );
            l.add(
                "GSP-A3",
                "shell and the siege gun roll 2d6 for accuracy of aim per hit",
                None,
                None,
                Vec::new(),
            );
        }
        _ => l.add(
            "GSP-C3",
            "close combat: gun crews and limber teams cannot attack; they defend at 3 CV",
            None,
            None,
            Vec::new(),
        ),
    }
}

/// What differs between the two board games' phases.
struct Board {
    /// SPI-S1 / FR-S1.
    supply_rule: &'static str,
    /// SPI-I1 / FR-T1.
    arrivals_rule: &'static str,
    /// SPI-C2 / FR-C1.
    combat_rule: &'static str,
    /// 1870 places arrivals at the start of movement (it has no reinforcement phase).
    arrivals_in_movement: bool,
    /// What being out of supply does.
    short_of_supply: &'static str,
}

fn board_phase(l: &mut List, b: &Board) {
    let (supply_rule, arrivals_rule) = (b.supply_rule, b.arrivals_rule);
    let s = l.s;
    let step = s.phase_kind().map(|p| p.step);
    let side = phase_side(s);
    let mine = |u: &UnitState| side.is_none_or(|x| x == u.unit.side);
    if step == Some(Step::Reinforcement) {
        let before = l.out.len();
        l.arrivals(arrivals_rule, side);
        if l.out.len() == before {
            l.add(
                arrivals_rule,
                "no reinforcements due this turn",
                side,
                None,
                Vec::new(),
            );
        }
    } else if step == Some(Step::Movement) {
        if b.arrivals_in_movement {
            l.arrivals(arrivals_rule, side);
        }
        let short = l.ids(|u| mine(u) && u.supply != crate::engine::game::Supply::Supplied);
        let what = if short.is_empty() {
            "supply is judged at the start of movement: every unit is supplied".to_string()
        } else {
            format!(
                "supply is judged at the start of movement: {} unit(s) {}",
                short.len(),
                b.short_of_supply
            )
        };
        l.add(supply_rule, what, side, None, short);
        let to_move = l.ids(|u| mine(u) && !u.moved);
        l.add(
            crate::engine::game::clock::turn_rule(s.system).as_str(),
            "movement",
            side,
            None,
            to_move,
        );
    } else if step == Some(Step::Combat) {
        let rule = b.combat_rule;
        let attackers = l.ids(|u| mine(u) && !u.fired && u.unit.arm != Arm::Fortress);
        l.add(
            rule,
            "combat: each unit attacks once, each enemy hex at most once; results apply at once",
            side,
            Some("combat"),
            attackers,
        );
    } else if step == Some(Step::AdvanceCalendars) {
        l.add(
            "FR-T1",
            "advance the turn calendar one cell",
            None,
            None,
            Vec::new(),
        );
        l.add(
            "FR-B1",
            "advance every blockade marker one cell toward SURRENDER",
            None,
            None,
            Vec::new(),
        );
    }
}

pub(crate) fn spi(l: &mut List) {
    board_phase(
        l,
        &Board {
            supply_rule: "SPI-S1",
            arrivals_rule: "SPI-I1",
            combat_rule: "SPI-C2",
            arrivals_in_movement: false,
            short_of_supply: "out of supply (halved; isolated: cannot attack, lose 1 CP at the end of the phase)",
        },
    );
}

pub(crate) fn fr(l: &mut List) {
    board_phase(
        l,
        &Board {
            supply_rule: "FR-S1",
            arrivals_rule: "FR-T1",
            combat_rule: "FR-C1",
            arrivals_in_movement: true,
            short_of_supply: "unsupplied (combat potential halved)",
        },
    );
}
