//! SPI's movement: the movement allowance and what costs movement points (a move, a change of
//! formation, entraining and detraining), rail movement's numbers and the EB unit's four hexes.
//! Pure: the game's side of it (what a unit spent this phase, the notes) is in
//! [`crate::spi::moves`].
//!
//! kepi ships no printed map of SPI: a club enters its own (docs/MAPS.md), and a game that
//! carries one has its moves counted on it under SPI's movement rules (issue 42: the Terrain
//! Effects Chart, rough's first hex of the phase, zones of control, stacking, Belgium and
//! Luxembourg; declared as data in `set.rs`, `board_rules`). `move UNIT HEX --mp N` states a
//! move's cost as the umpire counts it, which wins; without a map kepi counts what the board
//! shows (one point a hex entered, two onto and two off a friendly combat unit; one point per
//! eighteen hexes by rail). What a unit spent this phase is read from the log, so an undo takes
//! its points back. Breaches are notes; nothing is refused.

use serde::{Deserialize, Serialize};

use super::{Nation, SupplyState};
use kepi_game::rules::{Effect, ModifierLine, Resolution, RuleId, odds_from};
use kepi_game::tables::Provenance;

/// SPI-T1 (the movement phase), Movement Case A: "The Movement Allowance of each Prussian
/// Combat unit is eight Movement Points."
pub const GERMAN_ALLOWANCE: u32 = 8;
/// SPI-T1, Movement Case A: "The Movement Allowance of each French Combat unit is six Movement
/// Points."
pub const FRENCH_ALLOWANCE: u32 = 6;
/// SPI-E1 (EB units), Movement Case A: "Each EB unit may move up to four hexes along a rail line
/// (regardless of terrain) in a given Movement Phase."
pub const EB_HEXES: u32 = 4;
/// SPI-T1, Movement Case K and Stacking Case A: "two additional Movement Points to move onto,
/// and two additional Movement Points to move off of, a Friendly Unit".
pub const STACK_MP: u32 = 2;
/// SPI-H2: "to change Formation Status requires an expenditure of four Movement Points".
pub const FORMATION_MP: u32 = 4;
/// SPI-T1, Rail Movement (errata): "The Terrain Effects Chart gives the Movement Point cost for
/// entraining as three Movement Points ... The Terrain Effects Chart is correct."
pub const ENTRAIN_MP: u32 = 3;
/// SPI-T1, Rail Movement (errata): "... and for detraining as two Movement Points".
pub const DETRAIN_MP: u32 = 2;
/// SPI-T1, Rail Movement: "the Combat Unit, once entrained, may move up to eighteen hexes along
/// the rail line by expending one Movement Point".
pub const RAIL_HEXES_PER_MP: u32 = 18;

/// SPI-T1, Rail Movement: the Movement Points a rail move of `hexes` along the line costs, one per
/// eighteen hexes begun ([`RAIL_HEXES_PER_MP`]): a move's cost and the map's rail reach alike.
pub fn rail_mp(hexes: u32) -> u32 {
    hexes.div_ceil(RAIL_HEXES_PER_MP)
}

/// SPI-M1, the Terrain Effects Chart: rough terrain costs "two additional M.P.'s for first such
/// hex entered in a given Movement Phase; nothing additional thereafter in that Movement Phase".
pub const ROUGH_FIRST_MP: u32 = 2;
/// SPI-Z1 Case E: "It costs three additional Movement Points to enter an Enemy controlled hex".
pub const ZOC_ENTER_MP: u32 = 3;
/// SPI-Z1 Case E: "... and one additional to leave."
pub const ZOC_LEAVE_MP: u32 = 1;

/// SPI-T1, Rail Movement Case E: "The French Player is limited to one Combat Unit, and the
/// German to two" entrained in a Movement Phase.
pub fn entrain_limit(nation: Nation) -> u32 {
    match nation {
        Nation::French => 1,
        Nation::German => 2,
    }
}

fn seed(label: impl Into<String>, e: Effect, rule: &'static str) -> ModifierLine {
    ModifierLine::new(label, e, RuleId::new(rule), Provenance::Seed)
}

/// SPI-T1 and SPI-S1: a combat unit's movement allowance, as lines: eight German, six French
/// (Movement Case A), halved when unsupplied or isolated (Supply Case D: "the Combat Strength and
/// Movement Allowance of unsupplied units are halved. Isolated units also have their movement
/// abilities halved").
pub fn allowance(nation: Nation, supply: SupplyState) -> (u32, Vec<ModifierLine>) {
    let (base, label) = match nation {
        Nation::German => (
            GERMAN_ALLOWANCE,
            "Movement Allowance of each Prussian Combat unit: eight Movement Points (Movement A)",
        ),
        Nation::French => (
            FRENCH_ALLOWANCE,
            "Movement Allowance of each French Combat unit: six Movement Points (Movement A)",
        ),
    };
    let mut lines = vec![seed(
        label,
        Effect::Base(kepi_game::dice::Ratio::int(i64::from(base))),
        "SPI-T1",
    )];
    let n = match supply {
        SupplyState::Supplied => base,
        SupplyState::Unsupplied | SupplyState::Isolated => {
            lines.push(seed(
                format!("{supply}: Movement Allowance halved (Supply Case D)"),
                Effect::Times(kepi_game::dice::Ratio::new(1, 2)),
                "SPI-S1",
            ));
            base / 2
        }
    };
    (n, lines)
}

/// What costs movement points besides a move (SPI-H2, SPI-T1 rail movement).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Spend {
    /// Rail Movement, step one: "an 'entrained' marker is placed on the unit" (3 MP, errata).
    #[default]
    Entrain,
    /// Rail Movement, step three: "a unit detrains by expending one additional Movement Point and
    /// removing the entrained marker" (2 MP, errata).
    Detrain,
    /// SPI-H2: a change of formation status (4 MP).
    Formation,
}

impl Spend {
    /// The verb and the resolution's action ("entrain").
    pub fn action(self) -> &'static str {
        match self {
            Spend::Entrain => "entrain",
            Spend::Detrain => "detrain",
            Spend::Formation => "formation",
        }
    }

    /// What it costs, and the line that says so.
    pub fn cost(self) -> (u32, ModifierLine) {
        match self {
            Spend::Entrain => (
                ENTRAIN_MP,
                seed(
                    "to entrain: three additional M.P.'s (Terrain Effects Chart; errata: \"The \
                     Terrain Effects Chart is correct\")",
                    Effect::Add(kepi_game::dice::Ratio::int(i64::from(ENTRAIN_MP))),
                    "SPI-T1",
                ),
            ),
            Spend::Detrain => (
                DETRAIN_MP,
                seed(
                    "to detrain: two additional M.P.'s (Terrain Effects Chart; errata)",
                    Effect::Add(kepi_game::dice::Ratio::int(i64::from(DETRAIN_MP))),
                    "SPI-T1",
                ),
            ),
            Spend::Formation => (
                FORMATION_MP,
                seed(
                    "to change Formation Status requires an expenditure of four Movement Points",
                    Effect::Add(kepi_game::dice::Ratio::int(i64::from(FORMATION_MP))),
                    "SPI-H2",
                ),
            ),
        }
    }
}

/// What a spend resolution logs: the unit's points spent and its allowance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpendOutcome {
    /// Movement points this costs.
    pub mp: u32,
    /// The unit's movement allowance this phase.
    pub allowance: u32,
}

/// SPI-T1 (rail movement) and SPI-H2 (formation) as a resolution (no dice): the allowance, the
/// cost, and the points the unit has left after it (`spent` before it, from the log in a game).
pub fn spend(
    kind: Spend,
    nation: Nation,
    supply: SupplyState,
    spent: u32,
) -> Resolution<SpendOutcome> {
    let (allow, mut modifiers) = allowance(nation, supply);
    if spent > 0 {
        modifiers.push(seed(
            "Movement Points already spent this Movement Phase",
            Effect::Add(kepi_game::dice::Ratio::int(i64::from(spent))),
            "SPI-T1",
        ));
    }
    let (mp, line) = kind.cost();
    modifiers.push(line);
    let total = spent + mp;
    let summary = if spent == 0 {
        format!("{}: {mp} MP of an allowance of {allow}", kind.action())
    } else if total > allow {
        format!(
            "{}: {mp} MP, {total} of {allow} this Movement Phase ({} over)",
            kind.action(),
            total - allow
        )
    } else {
        format!(
            "{}: {mp} MP, {total} of {allow} this Movement Phase",
            kind.action()
        )
    };
    Resolution {
        system: crate::spi::ID,
        action: kind.action().to_string(),
        modifiers,
        dice: Vec::new(),
        outcome: Some(SpendOutcome {
            mp,
            allowance: allow,
        }),
        odds: odds_from(&kepi_game::dice::Dist::certain(summary.clone()), |s| {
            s.clone()
        }),
        summary,
        rolled: Some(0),
        notes: Vec::new(),
    }
}
