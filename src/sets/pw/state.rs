//! The Portable Wargame's plain-data state: a unit on the hex map, the hits it takes (PW-H1), the
//! turn clock (PW-T1), breaking off (PW-X2), ranges in hexes (PW-G1), and the helpers that derive a
//! melee's or a shot's inputs from positions and facings.

use serde::{Deserialize, Serialize};

use super::resolve::{ArtilleryInput, MeleeInput, RifleInput};
use super::{PwTables, Quality, UnitKind, UnitType, vocab};
use kepi_game::hex::{Direction, Hex, aspect};
use kepi_game::rules::RuleError;

use std::fmt;
use std::str::FromStr;

vocab! {
    /// The two players. Which one is French is the scenario's business.
    Side {
        /// The first-named side.
        A => "a",
        /// The other side.
        B => "b",
    }
}

impl Side {
    /// The opponent.
    pub fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }
}

vocab! {
    /// PW-T1: the four phases of a half-turn, in order.
    Phase {
        /// 1. Artillery fire.
        ArtilleryFire => "artillery-fire",
        /// 2. Move activated units (PW-T2).
        Movement => "movement",
        /// 3. Rifle fire, by active and inactive units.
        RifleFire => "rifle-fire",
        /// 4. Resolve melees.
        Melee => "melee",
    }
}

impl Phase {
    /// The phase after this one, None after melee (the half-turn ends).
    pub fn next(self) -> Option<Phase> {
        match self {
            Phase::ArtilleryFire => Some(Phase::Movement),
            Phase::Movement => Some(Phase::RifleFire),
            Phase::RifleFire => Some(Phase::Melee),
            Phase::Melee => None,
        }
    }
}

/// PW-T1: the turn clock. Turns alternate (IGOUGO): each turn is the first side's half-turn then the
/// other's, each half-turn the four phases in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnClock {
    /// The turn, from 1.
    pub turn: u32,
    /// The side that moves first every turn (the defender moves second).
    pub first: Side,
    /// The side whose half-turn it is.
    pub side: Side,
    /// The current phase.
    pub phase: Phase,
}

impl TurnClock {
    /// Turn 1, the first side's artillery fire.
    pub fn new(first: Side) -> TurnClock {
        TurnClock {
            turn: 1,
            first,
            side: first,
            phase: Phase::ArtilleryFire,
        }
    }

    /// The clock for a battle whose defender is known (PW-T1: the defender goes second).
    pub fn with_defender(defender: Side) -> TurnClock {
        TurnClock::new(defender.other())
    }

    /// True in the second side's half-turn.
    pub fn is_second_half(&self) -> bool {
        self.side != self.first
    }

    /// PW-T1: moves to the next phase; after melee, to the other side's artillery fire, and after the
    /// second half-turn to the next turn. Returns true when a new half-turn began (units of the side
    /// now moving should be given [`PwUnit::start_half_turn`]).
    pub fn advance(&mut self) -> bool {
        match self.phase.next() {
            Some(p) => {
                self.phase = p;
                false
            }
            None => {
                if self.is_second_half() {
                    self.turn = self.turn.saturating_add(1);
                }
                self.side = self.side.other();
                self.phase = Phase::ArtilleryFire;
                true
            }
        }
    }
}

/// One unit on the hex map, as the Portable Wargame tracks it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PwUnit {
    /// Its name on the roster.
    pub name: String,
    /// Its row of the unit table (PW-U1).
    pub unit_type: UnitType,
    /// Elite, normal or poor (PW-T2).
    pub quality: Quality,
    /// Strength points now.
    pub sp: u32,
    /// Strength points at the start of the battle (for PW-V1).
    pub sp_start: u32,
    /// Where it stands.
    pub hex: Hex,
    /// The hexside it faces.
    pub facing: Direction,
    /// Activated this half-turn (PW-T2).
    #[serde(default)]
    pub activated: bool,
    /// Moved this half-turn (PW-R1: -1 to rifle fire).
    #[serde(default)]
    pub moved: bool,
    /// Fired this half-turn (PW-A1: guns that fire cannot move).
    #[serde(default)]
    pub fired: bool,
    /// Artillery that took a hit as "cannot fire or move" (PW-H1): silenced this half-turn.
    #[serde(default)]
    pub silenced: bool,
    /// PW-H1: silenced at its side's next half-turn.
    #[serde(default)]
    pub silenced_next_turn: bool,
}

impl PwUnit {
    /// A fresh unit at full strength (PW-U1).
    pub fn new(
        name: impl Into<String>,
        unit_type: UnitType,
        tables: &PwTables,
        hex: Hex,
        facing: Direction,
    ) -> PwUnit {
        let sp = tables.unit(unit_type).sp.v().clamp(1, 20) as u32;
        PwUnit {
            name: name.into(),
            unit_type,
            quality: Quality::Normal,
            sp,
            sp_start: sp,
            hex,
            facing,
            activated: false,
            moved: false,
            fired: false,
            silenced: false,
            silenced_next_turn: false,
        }
    }

    /// Its arm.
    pub fn kind(&self) -> UnitKind {
        self.unit_type.kind()
    }

    /// True once it has no strength points left.
    pub fn eliminated(&self) -> bool {
        self.sp == 0
    }

    /// At the start of its side's half-turn: flags cleared, a PW-H1 silence takes effect.
    pub fn start_half_turn(&mut self) {
        self.activated = false;
        self.moved = false;
        self.fired = false;
        self.silenced = self.silenced_next_turn;
        self.silenced_next_turn = false;
    }

    /// May it move now? It must be activated (PW-T2), not silenced (PW-H1), and guns that fired this
    /// turn cannot move (PW-A1).
    pub fn can_move(&self) -> bool {
        let guns_fired = self.kind() == UnitKind::Artillery && self.fired;
        !self.eliminated() && self.activated && !self.silenced && !guns_fired
    }

    /// May it fire now? Not when silenced (PW-H1), nor cavalry (range 0, PW-U1).
    pub fn can_fire(&self, tables: &PwTables) -> bool {
        !self.eliminated() && !self.silenced && tables.unit(self.unit_type).range.v() > 0
    }
}

/// PW-G1: is `to` within the weapon range of a `unit_type` at `from`, counted in hexes? A range of 0
/// never reaches (cavalry), and no unit fires into its own hex.
pub fn in_range(tables: &PwTables, unit_type: UnitType, from: Hex, to: Hex) -> bool {
    let d = from.distance(to) as i64;
    d >= 1 && d <= tables.unit(unit_type).range.v()
}

vocab! {
    /// PW-H1: what inflicted a hit (artillery hit by fire has its own choices).
    HitCause {
        /// Artillery or rifle fire.
        Fire => "fire",
        /// Melee.
        Melee => "melee",
    }
}

vocab! {
    /// PW-H1: the owner's choice for one hit.
    HitChoice {
        /// Lose one strength point.
        LoseSp => "lose-sp",
        /// Withdraw one hex.
        Withdraw => "withdraw",
        /// Artillery hit by fire only: neither fire nor move next turn.
        Silenced => "silenced",
    }
}

/// PW-H1: the choices the owner has for one hit: lose 1 SP or withdraw one hex; artillery hit by
/// fire: lose 1 SP or neither fire nor move next turn.
pub fn hit_choices(kind: UnitKind, cause: HitCause) -> [HitChoice; 2] {
    match (kind, cause) {
        (UnitKind::Artillery, HitCause::Fire) => [HitChoice::LoseSp, HitChoice::Silenced],
        _ => [HitChoice::LoseSp, HitChoice::Withdraw],
    }
}

/// PW-H1: one hit applied by the owner's choice; returns the unit afterwards. `withdraw_to` is the
/// adjacent hex a withdrawing unit goes to (required for [`HitChoice::Withdraw`]). Apply two hits
/// (a melee score of 8+) by calling this twice.
pub fn apply_hit(
    unit: &PwUnit,
    cause: HitCause,
    choice: HitChoice,
    withdraw_to: Option<Hex>,
) -> Result<PwUnit, RuleError> {
    let allowed = hit_choices(unit.kind(), cause);
    if !allowed.contains(&choice) {
        return Err(RuleError::input(
            "choice",
            format!(
                "{} hit by {cause} cannot choose {choice} (PW-H1)",
                unit.kind()
            ),
            format!("{}, {}", allowed[0], allowed[1]),
        ));
    }
    if unit.eliminated() {
        return Err(RuleError::input(
            "unit",
            format!("{} is already eliminated", unit.name),
            "a unit with strength points left",
        ));
    }
    let mut out = unit.clone();
    match choice {
        HitChoice::LoseSp => out.sp = out.sp.saturating_sub(1),
        HitChoice::Withdraw => {
            let to = withdraw_to.ok_or_else(|| {
                RuleError::input("withdraw-to", "withdrawing needs a hex", "an adjacent hex")
            })?;
            if unit.hex.distance(to) != 1 {
                return Err(RuleError::input(
                    "withdraw-to",
                    format!(
                        "{to} is {} hexes from {}; a withdrawal is one hex",
                        unit.hex.distance(to),
                        unit.hex
                    ),
                    "an adjacent hex",
                ));
            }
            out.hex = to;
        }
        HitChoice::Silenced => out.silenced_next_turn = true,
    }
    Ok(out)
}

/// PW-X2: where a unit breaking off a melee goes and how it ends facing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BreakOff {
    /// The hexes entered, in order (a straight line directly away from the enemy).
    pub path: Vec<Hex>,
    /// Where it ends.
    pub end: Hex,
    /// Its facing at the end: its back to the enemy, i.e. facing straight away.
    pub facing: Direction,
}

/// PW-X2: a unit breaking off voluntarily (not withdrawing from a hit) moves `hexes` in a straight
/// line directly away from the enemy and ends with its back to the enemy. "Directly away" is the
/// hexside opposite the enemy (for a non-adjacent enemy, opposite the bearing to it).
pub fn break_off(unit: Hex, enemy: Hex, hexes: u32) -> Result<BreakOff, RuleError> {
    let away = enemy
        .direction_to(unit)
        .or_else(|| enemy.bearing(unit))
        .ok_or_else(|| {
            RuleError::input(
                "enemy",
                "the enemy stands in the same hex",
                "an enemy in another hex",
            )
        })?;
    if hexes == 0 || hexes > 20 {
        return Err(RuleError::input(
            "hexes",
            format!("{hexes} hexes"),
            "1 to the unit's move",
        ));
    }
    let path: Vec<Hex> = (1..=hexes as i32).map(|i| unit.step(away, i)).collect();
    Ok(BreakOff {
        end: path.last().copied().unwrap_or(unit),
        path,
        facing: away,
    })
}

/// The ground a melee is fought over, as far as PW-X1 cares.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeleeGround {
    /// Height of the attacker's hex.
    pub attacker_height: i32,
    /// Height of the defender's hex.
    pub defender_height: i32,
    /// The attacker is in cover.
    pub attacker_cover: bool,
    /// The defender is in cover.
    pub defender_cover: bool,
}

/// PW-X1 from positions: the inputs of both sides' rolls when `attacker` tries to enter the
/// defender's (adjacent) hex. Flank or rear comes from each unit's facing via
/// [`kepi_game::hex::aspect`] (front = the faced hexside and its two neighbours); uphill from the two
/// heights; cover as given. Returns (attacker's input, defender's input).
pub fn melee_inputs(
    attacker: &PwUnit,
    defender: &PwUnit,
    ground: &MeleeGround,
) -> Result<(MeleeInput, MeleeInput), RuleError> {
    if attacker.hex.distance(defender.hex) != 1 {
        return Err(RuleError::input(
            "defender",
            format!(
                "{} at {} is not adjacent to {} at {}: melee is entering the enemy's hex",
                defender.name, defender.hex, attacker.name, attacker.hex
            ),
            "an adjacent enemy",
        ));
    }
    let flanked = |u: &PwUnit, by: &PwUnit| {
        aspect(u.hex, u.facing, by.hex).is_some_and(|a| a.is_flank_or_rear())
    };
    let a = MeleeInput {
        unit: attacker.kind(),
        sp: attacker.sp,
        enemy: defender.kind(),
        attacking_flank: flanked(defender, attacker),
        attacked_flank: flanked(attacker, defender),
        enemy_uphill: ground.defender_height > ground.attacker_height,
        enemy_cover: ground.defender_cover,
    };
    let d = MeleeInput {
        unit: defender.kind(),
        sp: defender.sp,
        enemy: attacker.kind(),
        attacking_flank: flanked(attacker, defender),
        attacked_flank: flanked(defender, attacker),
        enemy_uphill: ground.attacker_height > ground.defender_height,
        enemy_cover: ground.attacker_cover,
    };
    Ok((a, d))
}

/// PW-A1 from positions: a battery's fire input at a target hex (range counted in hexes, PW-G1).
/// Line of sight is the caller's check ([`kepi_game::hex::line_of_sight`]).
pub fn artillery_input(
    firer: &PwUnit,
    target: Hex,
    target_cover: bool,
) -> Result<ArtilleryInput, RuleError> {
    let army = firer.unit_type.gunnery().ok_or_else(|| {
        RuleError::input(
            "firer",
            format!("{} is not artillery", firer.name),
            "an artillery unit",
        )
    })?;
    if firer.silenced {
        return Err(RuleError::input(
            "firer",
            format!("{} is silenced this turn (PW-H1)", firer.name),
            "a unit that may fire",
        ));
    }
    Ok(ArtilleryInput {
        army,
        sp: firer.sp,
        target_cover,
        range: Some(firer.hex.distance(target)),
    })
}

/// PW-R1 from positions: an infantry unit's fire input at a target hex (moved this turn from its
/// state, range in hexes, PW-G1).
pub fn rifle_input(firer: &PwUnit, target: Hex, target_cover: bool) -> RifleInput {
    RifleInput {
        sp: firer.sp,
        moved: firer.moved,
        target_cover,
        firer: Some(firer.unit_type),
        range: Some(firer.hex.distance(target)),
    }
}

impl super::resolve::DefeatInput {
    /// PW-V1 from an army's units: SP lost against SP at the start, units with no SP left.
    pub fn from_units(units: &[PwUnit]) -> super::resolve::DefeatInput {
        super::resolve::DefeatInput {
            sp_lost: units.iter().map(|u| u.sp_start.saturating_sub(u.sp)).sum(),
            sp_total: units.iter().map(|u| u.sp_start).sum(),
            units_lost: units.iter().filter(|u| u.eliminated()).count() as u32,
            units_total: units.len() as u32,
        }
    }
}
