//! Movement, URTs, visibility and disorder (PK-M1, PK-U1, PK-V1, PK-D1): plain helpers, no dice.

use serde::{Deserialize, Serialize};

use super::{Activity, Class, DisorderCause, Formation, MuddleCause, PkTables, TroopKind};
use kepi_game::dice::Ratio;
use kepi_game::rules::RuleError;

/// PK-M1: (normal, charge-or-run) maximum move in inches for a kind of troops.
pub fn move_rates(kind: TroopKind, t: &PkTables) -> (i64, i64) {
    let m = &t.movement;
    let row = match kind {
        TroopKind::FormedInfantry => &m.formed_infantry,
        TroopKind::SkirmishInfantry => &m.skirmish_infantry,
        TroopKind::Cavalry => &m.cavalry,
        TroopKind::LightCavalry => &m.light_cavalry,
        TroopKind::FootArtillery => &m.foot_artillery,
        TroopKind::HorseArtillery => &m.horse_artillery,
        TroopKind::General => &m.general,
    };
    (row.normal.v(), row.charge.v())
}

/// A unit's situation when it wants to charge (formed) or run (skirmishers).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ChargeInput {
    /// Its kind of troops.
    pub kind: Option<TroopKind>,
    /// The move number now (1, 2, ...).
    pub move_number: u32,
    /// The move of its last charge or run, if any.
    pub last_charge: Option<u32>,
    /// Disordered (cavalry cannot charge).
    pub disordered: bool,
    /// It fought a melee in the previous move (PK-X7: no charge).
    pub meleed_last_move: bool,
    /// For formed troops: the charge is to engage the enemy.
    pub to_engage: bool,
}

/// PK-M1, PK-X7, PK-F6: may the unit charge (formed troops, only to engage) or run (skirmishers)
/// this move? Every 4th move; never the move after a melee; disordered cavalry cannot charge.
/// `Err` carries the reason.
pub fn may_charge(input: &ChargeInput, t: &PkTables) -> Result<(), String> {
    let every = t.rules.charge_every.v();
    let Some(kind) = input.kind else {
        return Err("give the kind of troops".into());
    };
    let formed = matches!(kind, TroopKind::FormedInfantry | TroopKind::Cavalry);
    let light = matches!(kind, TroopKind::SkirmishInfantry | TroopKind::LightCavalry);
    if !formed && !light {
        return Err(format!("{kind} neither charges nor runs"));
    }
    if let Some(last) = input.last_charge
        && input.move_number < last.saturating_add(every)
    {
        return Err(format!(
            "charges and runs come every {every}th move (last on move {last})"
        ));
    }
    if input.meleed_last_move && formed {
        return Err("no charge in the move after a melee (PK-X7)".into());
    }
    if input.disordered && kind == TroopKind::Cavalry {
        return Err("disordered cavalry cannot charge (PK-F6)".into());
    }
    if formed && !input.to_engage {
        return Err("formed troops charge only to engage the enemy".into());
    }
    Ok(())
}

/// PK-U1: URTs an activity takes (`amount` degrees for pivots, else a count of times).
pub fn activity_urts(activity: Activity, amount: u32, t: &PkTables) -> Result<Ratio, RuleError> {
    let u = &t.urt;
    let per = |v: i64| Ratio::int(v) * Ratio::int(i64::from(amount.max(1)));
    Ok(match activity {
        Activity::ChangeFormation => per(u.change_formation.v()),
        Activity::Reorganise => per(u.reorganise.v()),
        Activity::Limber => per(u.limber.v()),
        Activity::PassageOfLines => per(u.passage_of_lines.v()),
        Activity::UntangleMuddle => per(t.rules.muddle_urts.v()),
        Activity::PivotBattalion => {
            Ratio::new(i128::from(amount), i128::from(u.battalion_degrees.v()))
                * Ratio::int(u.pivot_battalion.v())
        }
        Activity::PivotBrigade => {
            Ratio::new(i128::from(amount), i128::from(u.brigade_degrees.v()))
                * Ratio::int(u.pivot_brigade.v())
        }
    })
}

/// PK-U1, PK-C1: the time of an activity as a fraction of a move for a class (URTs x the class's URT;
/// pivots round up to whole URTs).
pub fn activity_time(
    class: Class,
    activity: Activity,
    amount: u32,
    t: &PkTables,
) -> Result<Ratio, RuleError> {
    let mut urts = activity_urts(activity, amount, t)?;
    if matches!(activity, Activity::PivotBattalion | Activity::PivotBrigade) {
        urts = Ratio::int(urts.ceil());
    }
    Ok(urts * class.row(t).urt.v())
}

/// PK-U1: what an activity cost a unit, logged with its URTs and the move they take.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UrtOutcome {
    /// The activity.
    pub activity: Activity,
    /// URTs it takes (pivots rounded up to whole URTs).
    pub urts: Ratio,
    /// The part of a move that is, for the unit's class.
    pub of_a_move: Ratio,
}

/// PK-U1, PK-C1 as a resolution (no dice): the URTs of the activity (the URT Table), the class's
/// URT as a fraction of a move (the Class Mod Table) and their product, each a line with its
/// provenance. `amount` is the degrees of a pivot, else how many times.
pub fn urt(
    class: Class,
    activity: Activity,
    amount: u32,
    t: &PkTables,
) -> Result<kepi_game::rules::Resolution<UrtOutcome>, RuleError> {
    use kepi_game::rules::{Effect, ModifierLine, Resolution, RuleId, odds_from};
    let mut urts = activity_urts(activity, amount, t)?;
    if matches!(activity, Activity::PivotBattalion | Activity::PivotBrigade) {
        urts = Ratio::int(urts.ceil());
    }
    let u = &t.urt;
    let per = match activity {
        Activity::ChangeFormation => u.change_formation.provenance,
        Activity::Reorganise => u.reorganise.provenance,
        Activity::Limber => u.limber.provenance,
        Activity::PassageOfLines => u.passage_of_lines.provenance,
        Activity::UntangleMuddle => t.rules.muddle_urts.provenance,
        Activity::PivotBattalion => u
            .pivot_battalion
            .provenance
            .weakest(u.battalion_degrees.provenance),
        Activity::PivotBrigade => u
            .pivot_brigade
            .provenance
            .weakest(u.brigade_degrees.provenance),
    };
    let row = class.row(t);
    let of_a_move = urts * row.urt.v();
    let what = match activity {
        Activity::PivotBattalion | Activity::PivotBrigade => format!("{activity} {amount} degrees"),
        _ if amount > 1 => format!("{activity} x{amount}"),
        _ => activity.to_string(),
    };
    let summary = format!("{what}: {urts} URT = {of_a_move} of a move ({class})");
    Ok(Resolution {
        system: crate::pk::ID,
        action: "urt".to_string(),
        modifiers: vec![
            ModifierLine::new(
                format!("{what}: URTs (URT Table)"),
                Effect::Base(urts),
                RuleId::new("PK-U1"),
                per,
            ),
            ModifierLine::new(
                format!("one URT of a {class} unit, in moves (Class Mod Table)"),
                Effect::Times(row.urt.v()),
                RuleId::new("PK-C1"),
                row.urt.provenance,
            ),
        ],
        dice: Vec::new(),
        outcome: Some(UrtOutcome {
            activity,
            urts,
            of_a_move,
        }),
        odds: odds_from(&kepi_game::dice::Dist::certain(summary.clone()), |s| {
            s.clone()
        }),
        summary,
        rolled: Some(0),
        notes: Vec::new(),
    })
}

/// PK-D1, PK-U1: a muddle takes 3 URTs of the lowest class among the units tangled.
pub fn untangle_time(classes: &[Class], t: &PkTables) -> Ratio {
    let slowest = classes
        .iter()
        .map(|c| c.row(t).urt.v())
        .max()
        .unwrap_or(Ratio::ZERO);
    slowest * Ratio::int(t.rules.muddle_urts.v())
}

// PK-V1 lives in `super::visibility`; its plain helpers are named here too, where they were.
pub use super::visibility::{Obstacle, VisibilityInput, obstacle_height, sees_over, visibility};

/// PK-F5: does a unit in woods get the cover (at least 2" inside)?
pub fn woods_cover_applies(depth_inches: Ratio, t: &PkTables) -> bool {
    depth_inches >= Ratio::int(t.cover.woods_depth.v())
}

/// PK-D1: a disordered unit's limits, as the session shows them.
pub fn disorder_effects(cause: DisorderCause) -> &'static str {
    let _ = cause;
    "-2 on d10 rolls; infantry no firing advantages; cavalry cannot charge; no melee advantage but \
     square and defended barriers/houses; attackers double their LF; 1 URT stationary to reorganise"
}

/// PK-D1: a muddled unit's limits.
pub fn muddle_effects(cause: MuddleCause) -> &'static str {
    let _ = cause;
    "3 URTs of the lowest class to untangle; none may fire; attacked in melee it fights as if taken in the rear"
}

/// PK-X3: a formation counts two ranks in melee against this opponent (without flank/rear).
pub fn counts_two_ranks(own: Formation, opponent: Formation) -> bool {
    (own == Formation::Square && opponent == Formation::Cavalry) || own == Formation::Column
}
