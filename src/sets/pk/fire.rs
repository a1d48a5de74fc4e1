//! Rifle and carbine fire (PK-F1, PK-F3..F7) and firing first (PK-F2).

use serde::{Deserialize, Serialize};

use super::common::{
    Hit, Lines, Side, cas_label, lf_value, need_positive, rolls_since, with_leader,
};
use super::visibility::{Sight, fire_sight};
use super::{Class, Cover, Officer, PkTables, Weapon};
use kepi_game::dice::{DiceSource, Die, Dist, Ratio};
use kepi_game::rules::{Effect, Resolution, RuleError, limits, odds_from, rolled_line};
use kepi_game::tables::Provenance;

/// What a unit's fire needs: the firer's and the target's state, as a session holds them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct FireInput {
    /// Figures firing (for skirmishers: the stands in range).
    pub figures: u32,
    /// The firer's class.
    pub class: Class,
    /// The firer's weapon.
    pub weapon: Weapon,
    /// The firer is in skirmish order: no tactical advantages.
    pub skirmish: bool,
    /// Mounted firearms: LF halved.
    pub mounted: bool,
    /// Firing into the target's flank or rear (PK-F3).
    pub enfilade: bool,
    /// The target is cavalry advancing or charging at the firer (PK-F4).
    pub vs_cavalry: bool,
    /// The firer is disordered (PK-F6).
    pub disordered: bool,
    /// The firer is muddled: it may not fire (PK-X7).
    pub muddled: bool,
    /// The target is disordered: LF doubled (PK-F6).
    pub target_disordered: bool,
    /// The target is in skirmish order (its DV comes from `dv.skirmish`).
    pub target_skirmish: bool,
    /// The target's cover (PK-F5).
    pub cover: Cover,
    /// Range in inches, when measured: checked against the weapon; short range gives a bonus.
    pub range: Option<Ratio>,
    /// Supporting fire at an enemy attacking an adjacent friend (PK-F7): one volley at long range.
    pub supporting: bool,
    /// For supporting fire: inches from the friendly unit being attacked.
    pub friend_distance: Option<Ratio>,
    /// Figures in the target, when known: losses never exceed them.
    pub target_figures: Option<u32>,
    /// A general or staff officer with the target: he is the leader casualty (PK-L1).
    pub target_officer: Option<Officer>,
    /// PK-V1: the sight, when the umpire gives it: a target not seen is warned of, not refused.
    /// Left out of the JSON when not given, so a fire logged before it reads and hashes as it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sight: Option<Sight>,
}

/// What the umpire applies after fire.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FireOutcome {
    /// The exact LF ("84", "31/2").
    pub lf: Ratio,
    /// The LF as a number, for convenience.
    pub lf_value: f64,
    /// The target's DF (DV + cover).
    pub df: i64,
    /// Figures the target removes.
    pub casualties: u32,
    /// PK-L1: a leader fell (d% 86+); null when there were no casualties (no roll).
    pub leader_lost: Option<bool>,
    /// PK-L1: the attached officer who fell instead of a leader.
    pub officer_lost: Option<Officer>,
    /// The d10 read.
    pub d10: u32,
    /// The leader d% read, when rolled.
    pub dpct: Option<u32>,
}

/// Builds the modifier lines and the hit arithmetic of one fire.
pub(crate) fn plan(input: &FireInput, t: &PkTables) -> Result<(Lines, Hit), RuleError> {
    need_positive(input.figures, "figures")?;
    if input.muddled {
        return Err(RuleError::input(
            "muddled",
            "a muddled unit may not fire (PK-X7)",
            "untangle it first (3 URTs of the lowest class)",
        ));
    }
    let mut l = Lines::default();
    let mut fixed = i64::from(input.figures);
    let mut factor = Ratio::ONE;
    l.base("figures firing (AV)", fixed, "PK-F1", Provenance::Seed);
    let cm = input.class.modifier(t);
    fixed += cm.v();
    l.add(format!("class: {}", input.class), cm, "PK-C1");
    l.note("d10", "PK-F1", Provenance::Seed);

    // Tactical advantages: none for skirmishers (PK-F1) or disordered infantry (PK-F6).
    let wants_advantage = input.enfilade || input.vs_cavalry || input.range.is_some();
    let advantages = !input.skirmish && !input.disordered;
    skirmish_notes(&mut l, input, wants_advantage);
    if input.disordered {
        let d = &t.fire.disordered_add;
        fixed += d.v();
        l.add("disordered", d, "PK-F6");
        if wants_advantage {
            l.note(
                "disordered infantry: no firing advantages",
                "PK-F6",
                Provenance::Seed,
            );
        }
    }
    range_lines(&mut l, t, input, advantages, &mut fixed)?;
    support_lines(&mut l, t, input)?;
    if input.enfilade && advantages {
        let f = &t.fire;
        fixed += f.enfilade_add.v();
        factor = factor * f.enfilade_times.v();
        l.add("enfilade", &f.enfilade_add, "PK-F3");
        l.times("enfilade", &f.enfilade_times, "PK-F3");
    }
    if input.vs_cavalry && advantages {
        vs_cavalry_lines(&mut l, t, input, &mut fixed, &mut factor);
    }
    if input.mounted {
        let m = &t.fire.mounted_times;
        factor = factor * m.v();
        l.times("mounted firearms", m, "PK-F1");
    }
    if input.target_disordered {
        let d = &t.fire.vs_disordered_times;
        factor = factor * d.v();
        l.times("target disordered", d, "PK-F6");
    }
    let (df, _) = target_df(
        &mut l,
        t,
        input.target_skirmish,
        input.cover,
        input.enfilade,
        false,
    );
    // PK-V1: the sight's lines last, with the warning when the target is not seen.
    fire_sight(&mut l, input.sight.as_ref(), input.range, t)?;
    let mut hit = Hit::new(fixed, df, input.target_figures);
    hit.factor = factor;
    Ok((l, hit))
}

/// PK-F1, PK-F3, PK-F4: the notes saying skirmishers get no tactical advantages (no enfilade, no
/// bonus against cavalry) when the fire asks for them.
fn skirmish_notes(l: &mut Lines, input: &FireInput, wants_advantage: bool) {
    if input.skirmish && wants_advantage {
        l.note(
            "skirmishers: no tactical advantages",
            "PK-F1",
            Provenance::Seed,
        );
        if input.enfilade {
            l.note("skirmishers: no enfilade", "PK-F3", Provenance::Seed);
        }
        if input.vs_cavalry {
            l.note(
                "skirmishers: no bonus against cavalry",
                "PK-F4",
                Provenance::Seed,
            );
        }
    }
}

/// PK-F1, PK-F7: a measured range checked against the weapon's, its lines (the weapon's range,
/// the range measured, the short band's edge) and the short-range bonus (none for supporting
/// fire, one volley at long range), added to `fixed`.
fn range_lines(
    l: &mut Lines,
    t: &PkTables,
    input: &FireInput,
    advantages: bool,
    fixed: &mut i64,
) -> Result<(), RuleError> {
    if let Some(r) = input.range {
        let row = input.weapon.row(t);
        if r <= Ratio::ZERO || r > Ratio::int(row.range.v()) {
            return Err(RuleError::input(
                "range",
                format!("{r}\" is out of the {}'s range", input.weapon),
                format!("more than 0 and at most {}\"", row.range.v()),
            ));
        }
        l.target(
            format!("{} range (inches)", input.weapon),
            row.range.v(),
            "PK-F1",
            row.range.provenance,
        );
        // Issue 28: the measured range and the short band's edge, printed at the game's scale
        // (a range on the edge is short: the text's "up to").
        l.push(
            "measured range (inches)",
            kepi_game::rules::Effect::Target(r),
            "PK-F1",
            Provenance::Seed,
        );
        l.target(
            format!("{} short range up to (inches)", input.weapon),
            row.short.v(),
            "PK-F1",
            row.short.provenance,
        );
        if r <= Ratio::int(row.short.v()) && advantages {
            if input.supporting {
                l.note(
                    "supporting fire: one volley at long range",
                    "PK-F7",
                    Provenance::Seed,
                );
            } else {
                let s = &t.fire.short_range_add;
                *fixed += s.v();
                l.add("short range", s, "PK-F1");
            }
        }
    }
    Ok(())
}

/// PK-F7: supporting fire: the friend attacked must be within the support distance.
fn support_lines(l: &mut Lines, t: &PkTables, input: &FireInput) -> Result<(), RuleError> {
    if input.supporting {
        let max = &t.rules.support_distance;
        if let Some(d) = input.friend_distance
            && (d < Ratio::ZERO || d > Ratio::int(max.v()))
        {
            return Err(RuleError::input(
                "friend_distance",
                format!("{d}\" is too far for supporting fire"),
                format!("0 to {}\"", max.v()),
            ));
        }
        l.target(
            "supporting fire: friend within (inches)",
            max.v(),
            "PK-F7",
            max.provenance,
        );
    }
    Ok(())
}

/// PK-F4: fire at cavalry advancing or charging: a bonus (added to `fixed`, multiplied into
/// `factor`) for formed infantry with rifles, by rifle type; none for carbines or mounted fire.
fn vs_cavalry_lines(
    l: &mut Lines,
    t: &PkTables,
    input: &FireInput,
    fixed: &mut i64,
    factor: &mut Ratio,
) {
    let f = &t.fire;
    if input.mounted || input.weapon.is_carbine() {
        l.note(
            "vs cavalry: only formed infantry with rifles gets a bonus",
            "PK-F4",
            Provenance::Seed,
        );
    } else if input.weapon == Weapon::Mlr {
        *fixed += f.vs_cavalry_mlr_add.v();
        *factor = *factor * f.vs_cavalry_mlr_times.v();
        l.add(
            "vs cavalry: muzzle-loading rifle",
            &f.vs_cavalry_mlr_add,
            "PK-F4",
        );
        l.times(
            "vs cavalry: muzzle-loading rifle",
            &f.vs_cavalry_mlr_times,
            "PK-F4",
        );
    } else {
        *fixed += f.vs_cavalry_breech_add.v();
        *factor = *factor * f.vs_cavalry_breech_times.v();
        l.add(
            format!("vs cavalry: {}", input.weapon),
            &f.vs_cavalry_breech_add,
            "PK-F4",
        );
        l.times(
            format!("vs cavalry: {}", input.weapon),
            &f.vs_cavalry_breech_times,
            "PK-F4",
        );
    }
}

/// PK-F5: the target's DF = DV + cover (linear cover protects the front only; howitzers ignore
/// buildings and fences). Adds the lines; returns the DF and whether cover counted.
pub(crate) fn target_df(
    l: &mut Lines,
    t: &PkTables,
    skirmish: bool,
    cover: Cover,
    from_flank: bool,
    howitzer: bool,
) -> (i64, bool) {
    let dv = if skirmish {
        &t.dv.skirmish
    } else {
        &t.dv.formed
    };
    let mut df = dv.v();
    l.target(
        if skirmish {
            "target DV (skirmish order)"
        } else {
            "target DV"
        },
        df,
        "PK-F1",
        dv.provenance,
    );
    let Some(c) = cover.value(t) else {
        return (df, false);
    };
    if from_flank && cover.is_linear() {
        l.note(
            format!("{cover}: linear cover, flank or rear open"),
            "PK-F5",
            Provenance::Seed,
        );
        return (df, false);
    }
    if howitzer && cover.ignored_by_howitzers() {
        l.note(
            format!("howitzer: full score against {cover}"),
            "PK-F5",
            Provenance::Seed,
        );
        return (df, false);
    }
    df += c.v();
    l.target(
        format!("DF with cover: {cover} (+{})", c.v()),
        df,
        "PK-F5",
        c.provenance,
    );
    (df, true)
}

/// PK-F1, PK-F3..F7, PK-L1: one unit's fire (with its sight, PK-V1). Rolls d10, then d% for the
/// leader when there were casualties. `dice: None` gives the odds only.
pub fn fire(
    input: &FireInput,
    t: &PkTables,
    dice: Option<&mut DiceSource>,
) -> Result<Resolution<FireOutcome>, RuleError> {
    let (lines, hit) = plan(input, t)?;
    let min = t.rules.leader_min.v();
    let dist = with_leader(&Dist::die(Die::D10).map(|&d| hit.casualties(d)), min);
    let odds = odds_from(&dist, |(c, l)| cas_label(*c, *l));
    let mut notes = Vec::new();
    if input.target_officer.is_some() {
        notes
            .push("an officer is with the target: a leader casualty is the officer (PK-L1)".into());
    }
    let (outcome, rolls, summary) = match dice {
        None => (None, Vec::new(), "odds only".to_string()),
        Some(dice) => {
            let start = dice.rolls().len();
            let d10 = dice.roll(Die::D10, "fire d10")?;
            let (cas, leader) = fire_result(&hit, min, d10, || {
                Ok::<_, RuleError>(dice.roll(Die::Pct, "leader d%")?)
            })?;
            let dpct = leader.and_then(|_| dice.rolls().last().map(|r| r.value));
            let officer_lost = match leader {
                Some(true) => input.target_officer,
                _ => None,
            };
            let lf = hit.lf(d10);
            let summary = format!(
                "d10 {d10}: LF {lf} vs DF {}: {}",
                hit.df,
                cas_label(cas, leader)
            );
            (
                Some(FireOutcome {
                    lf,
                    lf_value: lf_value(lf),
                    df: hit.df,
                    casualties: cas,
                    leader_lost: leader,
                    officer_lost,
                    d10,
                    dpct,
                }),
                rolls_since(dice, start),
                summary,
            )
        }
    };
    let rolled = outcome
        .as_ref()
        .and_then(|o| rolled_line(&odds, &cas_label(o.casualties, o.leader_lost)));
    Ok(Resolution {
        system: crate::pk::ID,
        action: "fire".into(),
        modifiers: lines.0,
        dice: rolls,
        outcome,
        summary,
        odds,
        rolled,
        notes,
    })
}

/// PK-F1, PK-L1: the casualties of a d10 and, when there are any, the leader roll (`pct` is called
/// only then). The one function both [`fire`] and [`FirePlan::roll`] decide by, so the full
/// resolution and the Monte Carlo fast path cannot disagree.
fn fire_result<E>(
    hit: &Hit,
    leader_min: u32,
    d10: u32,
    pct: impl FnOnce() -> Result<u32, E>,
) -> Result<(u32, Option<bool>), E> {
    let cas = hit.casualties(d10);
    if cas == 0 {
        return Ok((0, None));
    }
    Ok((cas, Some(pct()? >= leader_min)))
}

/// A fire planned once and rolled many times: the Monte Carlo fast path (issue 10). It keeps only
/// the hit arithmetic, and [`FirePlan::roll`] gives the casualties and the leader result from the
/// dice with no strings, modifier lines or odds: exactly what [`fire`] would give from the same
/// dice (PK-F1, PK-L1).
#[derive(Clone, Debug)]
pub struct FirePlan {
    hit: Hit,
    leader_min: u32,
}

impl FirePlan {
    /// Plans a fire (the same checks as [`fire`]).
    pub fn new(input: &FireInput, t: &PkTables) -> Result<FirePlan, RuleError> {
        let (_, hit) = plan(input, t)?;
        Ok(FirePlan {
            hit,
            leader_min: t.rules.leader_min.v(),
        })
    }

    /// The outcome of given dice: casualties and, when there were any, whether a leader fell
    /// (`dpct` is read only then).
    pub fn outcome(&self, d10: u32, dpct: u32) -> (u32, Option<bool>) {
        fire_result(&self.hit, self.leader_min, d10, || {
            Ok::<_, std::convert::Infallible>(dpct)
        })
        .unwrap_or((0, None))
    }

    /// Rolls the fire's dice (d10, then d% only on casualties, as [`fire`] does) without recording
    /// them, and returns the casualties and the leader result.
    pub fn roll(&self, dice: &mut DiceSource) -> Result<(u32, Option<bool>), RuleError> {
        let d10 = dice.roll_quiet(Die::D10)?;
        fire_result(&self.hit, self.leader_min, d10, || {
            Ok::<_, RuleError>(dice.roll_quiet(Die::Pct)?)
        })
    }
}

/// One side of a firing-first roll (PK-F2).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct FiringFirstSide {
    /// The unit's class.
    pub class: Class,
    /// Situation modifier (the same additions its fire would get).
    pub situation: i64,
    /// Disordered: -2 on the d10.
    pub disordered: bool,
}

/// Who fires first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FiringFirstOutcome {
    /// The side that fires first; null when both fire simultaneously (a tie).
    pub first: Option<Side>,
    /// Side A's score.
    pub score_a: i64,
    /// Side B's score.
    pub score_b: i64,
}

fn ff_fixed(s: &FiringFirstSide, t: &PkTables) -> i64 {
    s.class
        .modifier(t)
        .v()
        .saturating_add(s.situation)
        .saturating_add(if s.disordered {
            t.fire.disordered_add.v()
        } else {
            0
        })
}

/// PK-F2: when two units fire at each other each rolls d10 + class + situation; the higher fires
/// first; ties fire simultaneously.
pub fn firing_first(
    a: &FiringFirstSide,
    b: &FiringFirstSide,
    t: &PkTables,
    dice: Option<&mut DiceSource>,
) -> Result<Resolution<FiringFirstOutcome>, RuleError> {
    limits::ROLL_MODIFIER.check("situation-a", a.situation)?;
    limits::ROLL_MODIFIER.check("situation-b", b.situation)?;
    let mut l = Lines::default();
    for (name, s) in [("A", a), ("B", b)] {
        l.add(
            format!("{name} class: {}", s.class),
            s.class.modifier(t),
            "PK-C1",
        );
        if s.situation != 0 {
            l.push(
                format!("{name} situation"),
                Effect::Add(Ratio::int(s.situation)),
                "PK-F2",
                Provenance::Seed,
            );
        }
        if s.disordered {
            l.add(
                format!("{name} disordered"),
                &t.fire.disordered_add,
                "PK-F6",
            );
        }
    }
    l.note(
        "higher d10 + class + situation fires first; ties simultaneous",
        "PK-F2",
        Provenance::Seed,
    );
    let (fa, fb) = (ff_fixed(a, t), ff_fixed(b, t));
    let decide = |da: u32, db: u32| {
        let (sa, sb) = (fa.saturating_add(da.into()), fb.saturating_add(db.into()));
        match sa.cmp(&sb) {
            std::cmp::Ordering::Greater => Some(Side::A),
            std::cmp::Ordering::Less => Some(Side::B),
            std::cmp::Ordering::Equal => None,
        }
    };
    let d = Dist::die(Die::D10);
    let dist = d.zip(&d, |x, y| decide(*x, *y));
    let odds = odds_from(&dist, |f| first_label(*f));
    let (outcome, rolls, summary) = match dice {
        None => (None, Vec::new(), "odds only".to_string()),
        Some(dice) => {
            let start = dice.rolls().len();
            let da = dice.roll(Die::D10, "A firing-first d10")?;
            let db = dice.roll(Die::D10, "B firing-first d10")?;
            let first = decide(da, db);
            let o = FiringFirstOutcome {
                first,
                score_a: fa + i64::from(da),
                score_b: fb + i64::from(db),
            };
            let s = format!("A {} vs B {}: {}", o.score_a, o.score_b, first_label(first));
            (Some(o), rolls_since(dice, start), s)
        }
    };
    let rolled_first = outcome
        .as_ref()
        .and_then(|o| rolled_line(&odds, &first_label(o.first)));
    Ok(Resolution {
        system: crate::pk::ID,
        action: "fire-first".into(),
        modifiers: l.0,
        dice: rolls,
        outcome,
        summary,
        rolled: rolled_first,
        odds,
        notes: Vec::new(),
    })
}

fn first_label(f: Option<Side>) -> String {
    match f {
        Some(Side::A) => "A fires first".into(),
        Some(Side::B) => "B fires first".into(),
        None => "simultaneous".into(),
    }
}
