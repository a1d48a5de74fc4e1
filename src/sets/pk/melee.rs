//! Melee (PK-X1..X7): initiating and accepting, the counter roll, counting ranks, the matrix and
//! modifiers, both sides' casualties, the loser's flag, fatigue, pursuit, falling back, limits.

use serde::{Deserialize, Serialize};

use super::common::{
    Hit, Lines, Side, cas_label, lf_value, need_positive, roll_leader, rolls_since, with_leader,
};
use super::{Class, Facing, Formation, Level, Officer, PkTables, Position};
use kepi_game::dice::{DiceSource, Die, Dist, Ratio};
use kepi_game::rules::{Effect, Resolution, RuleError, odds_from, rolled_line};
use kepi_game::tables::{Provenance, Sourced};

/// One side of a melee, as a session holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct MeleeInput {
    /// Figures in the first rank in contact (on move 2+ the whole unit; a battery: all its points).
    pub figures: u32,
    /// Figures in the second rank (counts only when two ranks count and it has 50% of the first).
    pub second_rank: u32,
    /// Class.
    pub class: Class,
    /// This side's formation.
    pub formation: Formation,
    /// The opponent's formation.
    pub opponent: Formation,
    /// Ranks that count, when the umpire sets it (1 or 2); else from the situation.
    pub ranks: Option<u8>,
    /// Where this side strikes the opponent.
    pub facing: Facing,
    /// This side charged in (charge bonus).
    pub charge: bool,
    /// This side joined a melee in progress: charge bonus, no flank/rear advantage.
    pub joined: bool,
    /// Move of the melee, 1 for the first (on move 2+ everyone fights, no flank/rear advantage).
    pub melee_move: u32,
    /// This side is disordered (-2, no advantages but square and defended positions).
    pub disordered: bool,
    /// The opponent is disordered: LF doubled.
    pub target_disordered: bool,
    /// The opponent is muddled: it fights as if taken in the rear (PK-X7).
    pub target_muddled: bool,
    /// This side defends a building or barrier.
    pub position: Position,
    /// Figures in the opponent, when known: losses never exceed them.
    pub target_figures: Option<u32>,
    /// A general or staff officer with the opponent (PK-L1).
    pub target_officer: Option<Officer>,
}

impl Default for MeleeInput {
    fn default() -> Self {
        MeleeInput {
            figures: 0,
            second_rank: 0,
            class: Class::Line,
            formation: Formation::Line,
            opponent: Formation::Line,
            ranks: None,
            facing: Facing::Front,
            charge: false,
            joined: false,
            melee_move: 1,
            disordered: false,
            target_disordered: false,
            target_muddled: false,
            position: Position::Open,
            target_figures: None,
            target_officer: None,
        }
    }
}

/// What one side inflicts in one move of melee.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeleeOutcome {
    /// The exact LF.
    pub lf: Ratio,
    /// The LF as a number.
    pub lf_value: f64,
    /// The opponent's DF.
    pub df: i64,
    /// Figures the opponent removes.
    pub casualties: u32,
    /// PK-L1: the opponent lost a leader (null when no casualties).
    pub leader_lost: Option<bool>,
    /// PK-L1: the opponent's attached officer who fell instead.
    pub officer_lost: Option<Officer>,
    /// PK-X5: fatigue points this side gains for the move.
    pub fatigue_gained: i64,
    /// The d10 read.
    pub d10: u32,
}

fn matrix(t: &PkTables, own: Formation, opp: Formation) -> &Sourced<i64> {
    let m = &t.melee.matrix;
    let row = match own {
        Formation::Line => &m.line,
        Formation::Column => &m.column,
        Formation::Square => &m.square,
        Formation::Skirmish => &m.skirmish,
        Formation::Cavalry => &m.cavalry,
        Formation::Battery => &m.battery,
    };
    match opp {
        Formation::Line => &row.line,
        Formation::Column => &row.column,
        Formation::Square => &row.square,
        Formation::Skirmish => &row.skirmish,
        Formation::Cavalry => &row.cavalry,
        Formation::Battery => &row.battery,
    }
}

/// PK-X3: the figures that count: two ranks for squares against cavalry, moving columns and
/// flank/rear attacks (a 2nd rank needs 50% of the 1st); all figures from move 2; a battery counts
/// all its points. Returns the count and the lines explaining it.
fn counting(
    input: &MeleeInput,
    facing: Facing,
    t: &PkTables,
    l: &mut Lines,
) -> Result<i64, RuleError> {
    let first = i64::from(input.figures);
    let second = i64::from(input.second_rank);
    if input.formation == Formation::Battery {
        l.base(
            "battery: all its points",
            first + second,
            "PK-X3",
            Provenance::Seed,
        );
        return Ok(first + second);
    }
    if input.melee_move >= 2 {
        l.base(
            "move 2+: all figures fight",
            first + second,
            "PK-X3",
            Provenance::Seed,
        );
        return Ok(first + second);
    }
    let two = match input.ranks {
        Some(1) => false,
        Some(2) => true,
        Some(n) => {
            return Err(RuleError::input("ranks", format!("{n} ranks"), "1 or 2"));
        }
        None => {
            (input.formation == Formation::Square && input.opponent == Formation::Cavalry)
                || input.formation == Formation::Column
                || facing != Facing::Front
        }
    };
    l.base("figures (1st rank)", first, "PK-X3", Provenance::Seed);
    if two && second > 0 {
        let min = &t.rules.second_rank_min;
        if Ratio::int(second) >= Ratio::int(first) * min.v() {
            l.push(
                "2nd rank",
                Effect::Add(Ratio::int(second)),
                "PK-X3",
                min.provenance,
            );
            return Ok(first + second);
        }
        l.note(
            "2nd rank under 50% of the 1st: does not count",
            "PK-X3",
            min.provenance,
        );
    } else if two {
        l.note(
            "two ranks count (figures given are both ranks)",
            "PK-X3",
            Provenance::Seed,
        );
    }
    Ok(first)
}

/// Builds one side's lines and hit arithmetic.
pub(crate) fn plan(input: &MeleeInput, t: &PkTables) -> Result<(Lines, Hit), RuleError> {
    need_positive(input.figures, "figures")?;
    let mut l = Lines::default();
    let mut facing = input.facing;
    if input.target_muddled && facing == Facing::Front {
        facing = Facing::Rear;
        l.note(
            "opponent muddled: fights as if taken in the rear",
            "PK-X7",
            Provenance::Seed,
        );
    }
    if facing != Facing::Front && (input.joined || input.melee_move >= 2) {
        facing = Facing::Front;
        l.note(
            "flank/rear advantage lasts one move and not for units joining",
            "PK-X3",
            Provenance::Seed,
        );
    }
    if facing != Facing::Front && input.disordered {
        facing = Facing::Front;
        l.note(
            "disordered: no flank/rear advantage",
            "PK-F6",
            Provenance::Seed,
        );
    }
    let mut fixed = counting(input, facing, t, &mut l)?;
    let mut factor = Ratio::ONE;
    let cm = input.class.modifier(t);
    fixed += cm.v();
    l.add(format!("class: {}", input.class), cm, "PK-C1");
    l.note("d10", "PK-X3", Provenance::Seed);
    if input.disordered {
        fixed += t.fire.disordered_add.v();
        l.add("disordered", &t.fire.disordered_add, "PK-F6");
    }
    // PK-X3: a flank or rear attack's advantage replaces the charge bonus. The text's worked
    // example is a unit "charging an enemy unit in flank" whose AV is "10 (the number of figures)
    // + 1 (veteran status) + 5 (the d10 roll) + 5 (flank modifier) = 21", with no charge bonus;
    // and "Units entering a melee in progress get their charge bonus but no flank or rear
    // advantages" pairs the two as alternatives. So the bonus counts only when striking the front.
    if (input.charge || input.joined) && facing != Facing::Front {
        l.note(
            "charging in flank/rear: the flank/rear advantage replaces the charge bonus",
            "PK-X3",
            Provenance::Seed,
        );
    } else if input.charge || input.joined {
        if input.disordered {
            l.note("disordered: no charge bonus", "PK-F6", Provenance::Seed);
        } else {
            fixed += t.melee.charge_add.v();
            l.add(
                if input.joined {
                    "joined melee: charge bonus"
                } else {
                    "charge"
                },
                &t.melee.charge_add,
                "PK-X3",
            );
        }
    }
    let mv = matrix(t, input.formation, input.opponent);
    if mv.v() != 0 {
        if input.disordered && mv.v() > 0 && input.formation != Formation::Square {
            l.note("disordered: no matrix advantage", "PK-F6", Provenance::Seed);
        } else {
            fixed += mv.v();
            l.add(
                format!("matrix: {} vs {}", input.formation, input.opponent),
                mv,
                "PK-X3",
            );
        }
    }
    match input.position {
        Position::Open => {}
        Position::Building => {
            fixed += t.melee.building_add.v();
            l.add("defending a building", &t.melee.building_add, "PK-X3");
        }
        Position::Barrier => {
            fixed += t.melee.barrier_add.v();
            l.add("defending a barrier", &t.melee.barrier_add, "PK-X3");
        }
    }
    match facing {
        Facing::Front => {}
        Facing::Flank => {
            fixed += t.melee.flank_add.v();
            factor = factor * t.melee.flank_times.v();
            l.add("flank attack", &t.melee.flank_add, "PK-X3");
            l.times("flank attack", &t.melee.flank_times, "PK-X3");
        }
        Facing::Rear => {
            fixed += t.melee.rear_add.v();
            factor = factor * t.melee.rear_times.v();
            l.add("rear attack", &t.melee.rear_add, "PK-X3");
            l.times("rear attack", &t.melee.rear_times, "PK-X3");
        }
    }
    if input.target_disordered {
        factor = factor * t.fire.vs_disordered_times.v();
        l.times("opponent disordered", &t.fire.vs_disordered_times, "PK-F6");
    }
    let dv = if input.opponent == Formation::Skirmish {
        &t.dv.skirmish
    } else {
        &t.dv.formed
    };
    l.target("opponent's DV", dv.v(), "PK-X3", dv.provenance);
    let mut hit = Hit::new(fixed, dv.v(), input.target_figures);
    hit.factor = factor;
    Ok((l, hit))
}

fn roll_side(
    input: &MeleeInput,
    hit: &Hit,
    t: &PkTables,
    d10: u32,
    dice: &mut DiceSource,
    label: &str,
) -> Result<MeleeOutcome, RuleError> {
    let c = hit.casualties(d10);
    let leader = roll_leader(dice, c, t.rules.leader_min.v(), label)?;
    let lf = hit.lf(d10);
    Ok(MeleeOutcome {
        lf,
        lf_value: lf_value(lf),
        df: hit.df,
        casualties: c,
        leader_lost: leader,
        officer_lost: if leader == Some(true) {
            input.target_officer
        } else {
            None
        },
        fatigue_gained: input.class.row(t).fatigue.v(),
        d10,
    })
}

/// PK-X3, PK-L1: what one side inflicts in one move of melee (the other side resolves its own).
pub fn melee(
    input: &MeleeInput,
    t: &PkTables,
    dice: Option<&mut DiceSource>,
) -> Result<Resolution<MeleeOutcome>, RuleError> {
    let (l, hit) = plan(input, t)?;
    let dist = with_leader(
        &Dist::die(Die::D10).map(|&d| hit.casualties(d)),
        t.rules.leader_min.v(),
    );
    let odds = odds_from(&dist, |(c, ld)| cas_label(*c, *ld));
    let (outcome, rolls, summary) = match dice {
        None => (None, Vec::new(), "odds only".to_string()),
        Some(dice) => {
            let start = dice.rolls().len();
            let d10 = dice.roll(Die::D10, "melee d10")?;
            let o = roll_side(input, &hit, t, d10, dice, "opponent leader d%")?;
            let s = format!(
                "d10 {d10}: LF {} vs DF {}: {}",
                o.lf,
                o.df,
                cas_label(o.casualties, o.leader_lost)
            );
            (Some(o), rolls_since(dice, start), s)
        }
    };
    let rolled = outcome
        .as_ref()
        .and_then(|o| rolled_line(&odds, &cas_label(o.casualties, o.leader_lost)));
    Ok(Resolution {
        system: crate::pk::ID,
        action: "melee".into(),
        modifiers: l.0,
        dice: rolls,
        outcome,
        summary,
        odds,
        rolled,
        notes: vec![
            "both sides take casualties: resolve the opponent too (or use melee-both)".into(),
        ],
    })
}

/// Both sides of one move of melee.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeleeBothOutcome {
    /// What side A inflicts on B.
    pub a: MeleeOutcome,
    /// What side B inflicts on A.
    pub b: MeleeOutcome,
    /// The side that lost more figures this move (house reading of "lost a melee"); null when equal.
    pub loser: Option<Side>,
}

/// The loser of a move: the side that lost more figures; none on equal losses (house reading).
pub fn melee_loser(a_lost: u32, b_lost: u32) -> Option<Side> {
    match a_lost.cmp(&b_lost) {
        std::cmp::Ordering::Greater => Some(Side::A),
        std::cmp::Ordering::Less => Some(Side::B),
        std::cmp::Ordering::Equal => None,
    }
}

/// PK-X3, PK-L1: both sides of one move of melee at once. Rolls A's d10, B's d10, then the leader
/// d% of B (if A inflicted casualties) and of A.
pub fn melee_both(
    a: &MeleeInput,
    b: &MeleeInput,
    t: &PkTables,
    dice: Option<&mut DiceSource>,
) -> Result<Resolution<MeleeBothOutcome>, RuleError> {
    let (la, ha) = plan(a, t)?;
    let (lb, hb) = plan(b, t)?;
    let mut lines = Lines::default();
    for m in la.0 {
        let mut m = m;
        m.label = format!("A: {}", m.label);
        lines.0.push(m);
    }
    for m in lb.0 {
        let mut m = m;
        m.label = format!("B: {}", m.label);
        lines.0.push(m);
    }
    let lmin = t.rules.leader_min.v();
    let da = with_leader(&Dist::die(Die::D10).map(|&d| ha.casualties(d)), lmin);
    let db = with_leader(&Dist::die(Die::D10).map(|&d| hb.casualties(d)), lmin);
    let dist = da.zip(&db, |x, y| (*x, *y));
    type Both = ((u32, Option<bool>), (u32, Option<bool>));
    let label = |((ca, lda), (cb, ldb)): &Both| {
        format!(
            "B loses {}; A loses {}",
            cas_label(*ca, *lda),
            cas_label(*cb, *ldb)
        )
    };
    let odds = odds_from(&dist, label);
    let (outcome, rolls, summary) = match dice {
        None => (None, Vec::new(), "odds only".to_string()),
        Some(dice) => {
            let start = dice.rolls().len();
            let d10a = dice.roll(Die::D10, "A melee d10")?;
            let d10b = dice.roll(Die::D10, "B melee d10")?;
            let oa = roll_side(a, &ha, t, d10a, dice, "B leader d%")?;
            let ob = roll_side(b, &hb, t, d10b, dice, "A leader d%")?;
            let loser = melee_loser(ob.casualties, oa.casualties);
            let s = format!(
                "A LF {} -> B loses {}; B LF {} -> A loses {}",
                oa.lf,
                cas_label(oa.casualties, oa.leader_lost),
                ob.lf,
                cas_label(ob.casualties, ob.leader_lost)
            );
            (
                Some(MeleeBothOutcome {
                    a: oa,
                    b: ob,
                    loser,
                }),
                rolls_since(dice, start),
                s,
            )
        }
    };
    let rolled = outcome.as_ref().and_then(|o| {
        let both = (
            (o.a.casualties, o.a.leader_lost),
            (o.b.casualties, o.b.leader_lost),
        );
        rolled_line(&odds, &label(&both))
    });
    Ok(Resolution {
        system: crate::pk::ID,
        action: "melee-both".into(),
        modifiers: lines.0,
        dice: rolls,
        outcome,
        summary,
        odds,
        rolled,
        notes: vec!["the loser rolls for its flag (PK-X4); both check fatigue (PK-X5)".into()],
    })
}

/// PK-X1: only a Steady unit initiates melee.
pub fn may_initiate(level: Level) -> bool {
    level == Level::Steady
}

/// PK-X1: only a Steady or Shaken unit accepts melee.
pub fn accepts_melee(level: Level) -> bool {
    matches!(level, Level::Steady | Level::Shaken)
}

/// PK-X2: the options a counter roll may buy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CounterOption {
    /// Change position.
    ChangePosition,
    /// Change formation.
    ChangeFormation,
    /// Counter-charge.
    CounterCharge,
    /// Skirmishers withdraw.
    Withdraw,
}

impl CounterOption {
    /// Every option.
    pub const ALL: [CounterOption; 4] = [
        CounterOption::ChangePosition,
        CounterOption::ChangeFormation,
        CounterOption::CounterCharge,
        CounterOption::Withdraw,
    ];
    /// The kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            CounterOption::ChangePosition => "change-position",
            CounterOption::ChangeFormation => "change-formation",
            CounterOption::CounterCharge => "counter-charge",
            CounterOption::Withdraw => "withdraw",
        }
    }
    fn need(self, t: &PkTables) -> &Sourced<i64> {
        match self {
            CounterOption::ChangePosition => &t.counter.change_position,
            CounterOption::ChangeFormation => &t.counter.change_formation,
            CounterOption::CounterCharge => &t.counter.counter_charge,
            CounterOption::Withdraw => &t.counter.withdraw,
        }
    }
}

impl std::fmt::Display for CounterOption {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for CounterOption {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        CounterOption::ALL
            .into_iter()
            .find(|o| o.as_str() == s.trim().to_ascii_lowercase())
            .ok_or_else(|| {
                format!("unknown counter option `{s}` (accepted: change-position, change-formation, counter-charge, withdraw)")
            })
    }
}

/// The situation of a unit about to be charged (PK-X2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CounterInput {
    /// The target's class.
    pub class: Class,
    /// What it wants to do.
    pub option: CounterOption,
    /// The target has already moved this turn.
    pub target_moved: bool,
    /// Its side has already moved this turn: no options at all.
    pub side_moved: bool,
    /// The attacker's move before contact, in URTs of the target (less than 1: must stand).
    pub attacker_urts: Ratio,
    /// The target is in skirmish order (only skirmishers may withdraw).
    pub skirmish: bool,
}

impl Default for CounterInput {
    fn default() -> Self {
        CounterInput {
            class: Class::Line,
            option: CounterOption::ChangeFormation,
            target_moved: false,
            side_moved: false,
            attacker_urts: Ratio::ONE,
            skirmish: false,
        }
    }
}

/// The counter roll's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CounterOutcome {
    /// The unit may carry out its option.
    pub success: bool,
    /// It had to accept the melee as it stands, without a roll.
    pub must_stand: bool,
    /// d10 + class, when rolled.
    pub score: Option<i64>,
}

/// PK-X2: the Melee Counter Roll. A side that already moved has no options; a target that had not
/// moved, charged by an attacker using less than 1 of its URTs, must stand; otherwise d10 + class
/// against the Counter Rolls Table.
pub fn counter_roll(
    input: &CounterInput,
    t: &PkTables,
    dice: Option<&mut DiceSource>,
) -> Result<Resolution<CounterOutcome>, RuleError> {
    let mut l = Lines::default();
    let mut notes = Vec::new();
    if input.option == CounterOption::Withdraw && !input.skirmish {
        return Err(RuleError::input(
            "option",
            "only skirmishers may withdraw",
            "change-position, change-formation, counter-charge",
        ));
    }
    let forced = if input.side_moved {
        l.note(
            "its side has already moved: no options",
            "PK-X2",
            Provenance::Seed,
        );
        true
    } else if !input.target_moved && input.attacker_urts < Ratio::ONE {
        l.note(
            "attacker used less than 1 URT of the target: accept as it stands",
            "PK-X2",
            Provenance::Seed,
        );
        true
    } else {
        false
    };
    if forced {
        notes.push("no roll: the unit accepts the melee as it stands".into());
        let o = CounterOutcome {
            success: false,
            must_stand: true,
            score: None,
        };
        let outcome = dice.map(|_| o);
        return Ok(Resolution {
            system: crate::pk::ID,
            action: "counter".into(),
            modifiers: l.0,
            dice: Vec::new(),
            summary: "must stand".into(),
            odds: vec![kepi_game::rules::OddsLine {
                outcome: "must stand".into(),
                p: kepi_game::dice::Prob::ONE,
            }],
            rolled: outcome.as_ref().map(|_| 0),
            outcome,
            notes,
        });
    }
    let cm = input.class.modifier(t);
    l.add(format!("class: {}", input.class), cm, "PK-C1");
    l.note("d10", "PK-X2", Provenance::Seed);
    let need = input.option.need(t);
    l.target(
        format!("needed to {}", input.option),
        need.v(),
        "PK-X2",
        need.provenance,
    );
    let ok = |d: u32| cm.v() + i64::from(d) >= need.v();
    let dist = Dist::die(Die::D10).map(|&d| ok(d));
    let label = |s: &bool| {
        if *s {
            format!("may {}", input.option)
        } else {
            "must stand".to_string()
        }
    };
    let odds = odds_from(&dist, label);
    let (outcome, rolls, summary) = match dice {
        None => (None, Vec::new(), "odds only".to_string()),
        Some(dice) => {
            let start = dice.rolls().len();
            let d = dice.roll(Die::D10, "counter d10")?;
            let score = cm.v() + i64::from(d);
            let o = CounterOutcome {
                success: ok(d),
                must_stand: !ok(d),
                score: Some(score),
            };
            let s = format!(
                "score {score} vs {}: {}",
                need.v(),
                if o.success { "success" } else { "must stand" }
            );
            (Some(o), rolls_since(dice, start), s)
        }
    };
    let rolled = outcome
        .as_ref()
        .and_then(|o| rolled_line(&odds, &label(&o.success)));
    Ok(Resolution {
        system: crate::pk::ID,
        action: "counter".into(),
        modifiers: l.0,
        dice: rolls,
        outcome,
        summary,
        odds,
        rolled,
        notes,
    })
}

/// The loser's flag roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlagOutcome {
    /// d10 + class.
    pub score: i64,
    /// The flag is lost (score 6 or less).
    pub flag_lost: bool,
}

/// PK-X4: the loser of a melee rolls d10 + class; 6 or less loses its flag.
pub fn flag(
    class: Class,
    t: &PkTables,
    dice: Option<&mut DiceSource>,
) -> Result<Resolution<FlagOutcome>, RuleError> {
    let mut l = Lines::default();
    let cm = class.modifier(t);
    let max = &t.rules.flag_lost_max;
    l.add(format!("class: {class}"), cm, "PK-C1");
    l.note("d10", "PK-X4", Provenance::Seed);
    l.target("flag lost at or below", max.v(), "PK-X4", max.provenance);
    let score = |d: u32| cm.v() + i64::from(d);
    let dist = Dist::die(Die::D10).map(|&d| score(d) <= max.v());
    let label = |x: &bool| {
        if *x {
            "flag lost".to_string()
        } else {
            "flag kept".to_string()
        }
    };
    let odds = odds_from(&dist, label);
    let (outcome, rolls, summary) = match dice {
        None => (None, Vec::new(), "odds only".to_string()),
        Some(dice) => {
            let start = dice.rolls().len();
            let d = dice.roll(Die::D10, "flag d10")?;
            let o = FlagOutcome {
                score: score(d),
                flag_lost: score(d) <= max.v(),
            };
            let s = format!(
                "score {}: {}",
                o.score,
                if o.flag_lost {
                    "flag lost"
                } else {
                    "flag kept"
                }
            );
            (Some(o), rolls_since(dice, start), s)
        }
    };
    let rolled = outcome
        .as_ref()
        .and_then(|o| rolled_line(&odds, &label(&o.flag_lost)));
    Ok(Resolution {
        system: crate::pk::ID,
        action: "flag".into(),
        modifiers: l.0,
        dice: rolls,
        outcome,
        summary,
        odds,
        rolled,
        notes: Vec::new(),
    })
}

/// PK-X5: fatigue points after `moves` moves of melee (they reset when the melee ends).
pub fn fatigue_points(class: Class, moves: u32, t: &PkTables) -> i64 {
    class.row(t).fatigue.v().saturating_mul(i64::from(moves))
}

/// PK-X5, PK-C1: the provenance of a fatigue total added up from the class fatigue values: that of
/// the weakest class value (all `house` in the shipped tables, the card being unprinted).
pub fn fatigue_provenance(t: &PkTables) -> Provenance {
    Class::ALL.iter().fold(Provenance::Seed, |p, c| {
        p.weakest(c.row(t).fatigue.provenance)
    })
}

/// The end-of-move fatigue check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FatigueOutcome {
    /// The d10 (no class modifier).
    pub score: i64,
    /// The unit falls back (the d10 did not reach its fatigue total).
    pub falls_back: bool,
    /// Inches it falls back (0 when it holds).
    pub fall_back_inches: i64,
}

/// PK-X5: at the end of each melee move roll d10 (no class): below the fatigue total the unit falls
/// back 4". `source` is where the total comes from: a total added up from the class fatigue values
/// (Combat Card A, not printed) is `house` like them (issue 17); a total the umpire read off his own
/// card is `seed`.
pub fn fatigue_check(
    fatigue: i64,
    source: Provenance,
    t: &PkTables,
    dice: Option<&mut DiceSource>,
) -> Result<Resolution<FatigueOutcome>, RuleError> {
    kepi_game::rules::limits::FATIGUE.check("fatigue", fatigue)?;
    let mut l = Lines::default();
    l.note("d10, no class modifier", "PK-X5", Provenance::Seed);
    l.target(
        "fatigue points: the d10 must reach",
        fatigue,
        "PK-X5",
        source,
    );
    let back = &t.rules.fatigue_fall_back;
    let falls = |d: u32| i64::from(d) < fatigue;
    let dist = Dist::die(Die::D10).map(|&d| falls(d));
    let label = |x: &bool| {
        if *x {
            format!("falls back {}\"", back.v())
        } else {
            "holds".to_string()
        }
    };
    let odds = odds_from(&dist, label);
    let (outcome, rolls, summary) = match dice {
        None => (None, Vec::new(), "odds only".to_string()),
        Some(dice) => {
            let start = dice.rolls().len();
            let d = dice.roll(Die::D10, "fatigue d10")?;
            let f = falls(d);
            let o = FatigueOutcome {
                score: i64::from(d),
                falls_back: f,
                fall_back_inches: if f { back.v() } else { 0 },
            };
            let s = format!(
                "d10 {d} vs fatigue {fatigue}: {}",
                if f { "falls back" } else { "holds" }
            );
            (Some(o), rolls_since(dice, start), s)
        }
    };
    let rolled = outcome
        .as_ref()
        .and_then(|o| rolled_line(&odds, &label(&o.falls_back)));
    Ok(Resolution {
        system: crate::pk::ID,
        action: "fatigue".into(),
        modifiers: l.0,
        dice: rolls,
        outcome,
        summary,
        odds,
        rolled,
        notes: Vec::new(),
    })
}

/// A pursuit after the opponent withdrew.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PursuitInput {
    /// Figures of the unit that stood.
    pub stander_figures: u32,
    /// Figures of the unit that withdrew.
    pub withdrawer_figures: u32,
    /// The stander's class.
    pub class: Class,
    /// A general or staff officer holds the victor back.
    pub held_back: bool,
}

/// The pursuit roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PursuitOutcome {
    /// (stander - withdrawer) + class + d10.
    pub score: i64,
    /// The victor advances and the melee continues (20+), unless held back.
    pub advances: bool,
    /// The melee continues next move; otherwise it is over (fatigue resets).
    pub melee_continues: bool,
}

/// PK-X5: pursuit: (stander's figures - withdrawer's) + class + d10; 20+ the victor advances and the
/// melee continues; a general or staff officer can hold it back; no pursuit ends the melee.
pub fn pursuit(
    input: &PursuitInput,
    t: &PkTables,
    dice: Option<&mut DiceSource>,
) -> Result<Resolution<PursuitOutcome>, RuleError> {
    let mut l = Lines::default();
    let diff = i64::from(input.stander_figures) - i64::from(input.withdrawer_figures);
    l.base(
        format!(
            "figures: {} - {}",
            input.stander_figures, input.withdrawer_figures
        ),
        diff,
        "PK-X5",
        Provenance::Seed,
    );
    let cm = input.class.modifier(t);
    l.add(format!("class: {}", input.class), cm, "PK-C1");
    l.note("d10", "PK-X5", Provenance::Seed);
    let min = &t.rules.pursuit_min;
    l.target("advances at", min.v(), "PK-X5", min.provenance);
    if input.held_back {
        l.note(
            "held back by a general or staff officer",
            "PK-X5",
            Provenance::Seed,
        );
    }
    let score = |d: u32| diff + cm.v() + i64::from(d);
    let adv = |d: u32| score(d) >= min.v() && !input.held_back;
    let dist = Dist::die(Die::D10).map(|&d| adv(d));
    let label = |x: &bool| {
        if *x {
            "advances, melee continues".to_string()
        } else {
            "no pursuit, melee over".to_string()
        }
    };
    let odds = odds_from(&dist, label);
    let (outcome, rolls, summary) = match dice {
        None => (None, Vec::new(), "odds only".to_string()),
        Some(dice) => {
            let start = dice.rolls().len();
            let d = dice.roll(Die::D10, "pursuit d10")?;
            let o = PursuitOutcome {
                score: score(d),
                advances: adv(d),
                melee_continues: adv(d),
            };
            let s = format!(
                "score {}: {}",
                o.score,
                if o.advances { "advances" } else { "no pursuit" }
            );
            (Some(o), rolls_since(dice, start), s)
        }
    };
    let rolled = outcome
        .as_ref()
        .and_then(|o| rolled_line(&odds, &label(&o.advances)));
    Ok(Resolution {
        system: crate::pk::ID,
        action: "pursuit".into(),
        modifiers: l.0,
        dice: rolls,
        outcome,
        summary,
        odds,
        rolled,
        notes: Vec::new(),
    })
}

/// What happens at the end of a melee move when units dropped below an effectiveness level (PK-X6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelDropResult {
    /// Side A falls back (6").
    pub a_falls_back: bool,
    /// Side B falls back (6").
    pub b_falls_back: bool,
    /// Inches each faller falls back.
    pub inches: i64,
    /// The melee continues next move (a Steady opponent followed).
    pub melee_continues: bool,
}

/// PK-X6: a unit that falls below a level falls back 6"; a Steady opponent follows and the melee
/// continues; if both fell, both fall back and the melee is over.
pub fn level_drop(
    a_dropped: bool,
    b_dropped: bool,
    a_level: Level,
    b_level: Level,
    t: &PkTables,
) -> LevelDropResult {
    let inches = t.rules.level_fall_back.v();
    let continues = match (a_dropped, b_dropped) {
        (true, false) => b_level == Level::Steady,
        (false, true) => a_level == Level::Steady,
        _ => false,
    };
    LevelDropResult {
        a_falls_back: a_dropped,
        b_falls_back: b_dropped,
        inches,
        melee_continues: continues,
    }
}

/// PK-X7: may a unit fight another melee this turn (at most 3)?
pub fn may_fight_melee(melees_this_turn: u32, t: &PkTables) -> bool {
    melees_this_turn < t.rules.max_melees_per_turn.v()
}
