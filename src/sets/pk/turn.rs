//! The game turn (PK-T1): d% initiative and the four parts of a turn.

use serde::{Deserialize, Serialize};

use super::PkTables;
use super::common::{Lines, Side, rolls_since};
use kepi_game::dice::{DiceSource, Die, Dist};
use kepi_game::rules::{Resolution, RuleError, odds_from, rolled_line};
use kepi_game::tables::Provenance;

/// PK-T1: the four parts of a turn.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default,
)]
#[serde(rename_all = "kebab-case")]
pub enum TurnPart {
    /// Part 1: movement and fire (artillery fires first; each unit fires once).
    #[default]
    MovementAndFire,
    /// Part 2: melee.
    Melee,
    /// Part 3: unit morale.
    UnitMorale,
    /// Part 4: army morale.
    ArmyMorale,
}

impl TurnPart {
    /// The four parts in order.
    pub const ALL: [TurnPart; 4] = [
        TurnPart::MovementAndFire,
        TurnPart::Melee,
        TurnPart::UnitMorale,
        TurnPart::ArmyMorale,
    ];

    /// The next part, and whether a new turn starts.
    pub fn next(self) -> (TurnPart, bool) {
        match self {
            TurnPart::MovementAndFire => (TurnPart::Melee, false),
            TurnPart::Melee => (TurnPart::UnitMorale, false),
            TurnPart::UnitMorale => (TurnPart::ArmyMorale, false),
            TurnPart::ArmyMorale => (TurnPart::MovementAndFire, true),
        }
    }

    /// The part's number as printed (1-4).
    pub fn number(self) -> u8 {
        match self {
            TurnPart::MovementAndFire => 1,
            TurnPart::Melee => 2,
            TurnPart::UnitMorale => 3,
            TurnPart::ArmyMorale => 4,
        }
    }
}

/// The initiative roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InitiativeOutcome {
    /// "a" or "b": the high scorer, who must move first; "tie": both roll again.
    pub first: String,
    /// Side A's d%.
    pub score_a: u32,
    /// Side B's d%.
    pub score_b: u32,
}

fn first(a: u32, b: u32) -> Option<Side> {
    match a.cmp(&b) {
        std::cmp::Ordering::Greater => Some(Side::A),
        std::cmp::Ordering::Less => Some(Side::B),
        std::cmp::Ordering::Equal => None,
    }
}

fn first_str(f: Option<Side>) -> &'static str {
    match f {
        Some(Side::A) => "a",
        Some(Side::B) => "b",
        None => "tie",
    }
}

/// PK-T1: each side rolls d%; the high scorer must move first. A tie is reported as "tie" (the text
/// does not say; both roll again), so the preview's odds and the roll always agree.
pub fn initiative(
    t: &PkTables,
    dice: Option<&mut DiceSource>,
) -> Result<Resolution<InitiativeOutcome>, RuleError> {
    let _ = t;
    let mut l = Lines::default();
    l.note(
        "each side rolls d%: the high scorer must move first",
        "PK-T1",
        Provenance::Seed,
    );
    l.note(
        "then any eligible artillery fires first, then units",
        "PK-T1",
        Provenance::Seed,
    );
    let d = Dist::die(Die::Pct);
    let dist = d.zip(&d, |a, b| first_str(first(*a, *b)));
    let label = |f: &&str| match *f {
        "a" => "A moves first".to_string(),
        "b" => "B moves first".to_string(),
        _ => "tie: roll again".to_string(),
    };
    let odds = odds_from(&dist, label);
    let (outcome, rolls, summary) = match dice {
        None => (None, Vec::new(), "odds only".to_string()),
        Some(dice) => {
            let start = dice.rolls().len();
            let a = dice.roll(Die::Pct, "A initiative d%")?;
            let b = dice.roll(Die::Pct, "B initiative d%")?;
            let f = first_str(first(a, b));
            let o = InitiativeOutcome {
                first: f.into(),
                score_a: a,
                score_b: b,
            };
            (
                Some(o),
                rolls_since(dice, start),
                format!("A {a} vs B {b}: {f}"),
            )
        }
    };
    let rolled = outcome
        .as_ref()
        .and_then(|o| rolled_line(&odds, &label(&o.first.as_str())));
    Ok(Resolution {
        system: crate::pk::ID,
        action: "initiative".into(),
        modifiers: l.0,
        dice: rolls,
        outcome,
        summary,
        odds,
        rolled,
        notes: vec!["on a tie both sides roll again (kepi reading; the text is silent)".into()],
    })
}
