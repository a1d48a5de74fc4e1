//! GSP-A3 accuracy of aim: the 3x3 drift grid with each sector's 2d6 totals and exact probability,
//! and after a roll, where the shells landed. The window draws this model as the drift diagram.

use serde::{Deserialize, Serialize};

use super::GspTables;
use super::types::{Cell, Col, Row};
use kepi_game::dice::{DiceSource, Die, Dist, Prob};
use kepi_game::rules::{
    Effect, ModifierLine, Resolution, RuleError, RuleId, odds_from, rolled_line,
};
use kepi_game::tables::Provenance;

/// One sector of the drift diagram.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DriftCell {
    /// The sector.
    pub cell: Cell,
    /// Its label for people ("over-left", "on target").
    pub label: String,
    /// Row index in the drawing (0 = over, at the top).
    pub row: usize,
    /// Column index in the drawing (0 = left as seen from the gun).
    pub col: usize,
    /// The 2d6 totals that land here.
    pub totals: Vec<u32>,
    /// Exact chance that one A.O.A. roll lands here ("4/9" for on target).
    pub p: Prob,
    /// Shells that landed here in the resolution drawn (0 for a preview).
    pub shells: u32,
}

/// GSP-A3: the whole drift diagram, always drawn with over at the top and the gun below it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DriftModel {
    /// The nine sectors, row by row from over to short, left to right as seen from the gun.
    pub cells: Vec<DriftCell>,
    /// How the printed chart is read (kept in the table file; a club can turn it).
    pub orientation: String,
    /// Provenance of that reading (house: the chart does not name its rows).
    pub provenance: Provenance,
    /// Total shells drawn.
    pub shells: u32,
}

impl DriftModel {
    /// The sector drawn at a row and column (0-based, over at the top).
    pub fn at(&self, row: usize, col: usize) -> Option<&DriftCell> {
        self.cells.iter().find(|c| c.row == row && c.col == col)
    }

    /// The drawn sector of a cell.
    pub fn cell(&self, cell: Cell) -> Option<&DriftCell> {
        self.cells.iter().find(|c| c.cell == cell)
    }
}

/// GSP-A3: the exact distribution of one A.O.A. roll over the nine sectors.
pub fn landing_dist(tables: &GspTables) -> Dist<Cell> {
    landing_dist_of(&tables.aoa_landings())
}

/// [`landing_dist`] from the grid already read ([`GspTables::aoa_landings`]).
fn landing_dist_of(land: &[Option<Cell>; 13]) -> Dist<Cell> {
    // 2d6: a total t comes up on 6 - |t - 7| of the 36 pairs.
    Dist::from_weights((2..=12u32).map(|t| {
        (
            land[t as usize].unwrap_or(Cell::OnTarget),
            u64::from(6 - t.abs_diff(7)),
        )
    }))
}

/// GSP-A3: the drift diagram: each sector's label, 2d6 totals and exact chance, plus how many of
/// `landed` fell in each (pass `&[]` for the preview).
pub fn drift_model(tables: &GspTables, landed: &[Cell]) -> DriftModel {
    let land = tables.aoa_landings();
    let dist = landing_dist_of(&land);
    let row_of = |r: Row| Row::ALL.iter().position(|x| *x == r).unwrap_or(0);
    let col_of = |c: Col| Col::ALL.iter().position(|x| *x == c).unwrap_or(0);
    let cells = Row::ALL
        .iter()
        .flat_map(|r| Col::ALL.iter().map(move |c| Cell::new(*r, *c)))
        .map(|cell| DriftCell {
            cell,
            label: if cell == Cell::OnTarget {
                "on target".to_string()
            } else {
                cell.to_string()
            },
            row: row_of(cell.row()),
            col: col_of(cell.col()),
            totals: (2..=12u32)
                .filter(|t| land[*t as usize] == Some(cell))
                .collect(),
            p: dist.p(&cell),
            shells: landed.iter().filter(|l| **l == cell).count() as u32,
        })
        .collect();
    let rows: Vec<String> = tables
        .aoa
        .rows
        .get()
        .iter()
        .map(ToString::to_string)
        .collect();
    let cols: Vec<String> = tables
        .aoa
        .columns
        .get()
        .iter()
        .map(ToString::to_string)
        .collect();
    DriftModel {
        cells,
        orientation: format!(
            "printed chart read as rows (top to bottom) {} and columns {}; over = beyond the target, away from the gun; left and right as seen from the gun",
            rows.join("/"),
            cols.join("/")
        ),
        provenance: tables.aoa_provenance(),
        shells: landed.len() as u32,
    }
}

/// The `aoa` action's outcome: one accuracy-of-aim roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AoaOutcome {
    /// The two dice.
    pub dice: [u32; 2],
    /// Their total.
    pub total: u32,
    /// Where the shell lands.
    pub landing: Cell,
    /// The diagram with this shell drawn.
    pub drift: DriftModel,
}

/// GSP-A3: rolls (or previews) one accuracy-of-aim roll: 2d6 on the grid.
pub fn aoa(
    tables: &GspTables,
    dice: Option<&mut DiceSource>,
) -> Result<Resolution<AoaOutcome>, RuleError> {
    let dist = landing_dist(tables);
    let label = |c: &Cell| c.to_string();
    let odds = odds_from(&dist, label);
    let outcome = match dice {
        Some(src) => {
            let start = src.rolls().len();
            let a = src.roll(Die::D6, "A.O.A. die 1")?;
            let b = src.roll(Die::D6, "A.O.A. die 2")?;
            let total = a + b;
            let landing = tables.aoa_cell(total).unwrap_or(Cell::OnTarget);
            Some((
                AoaOutcome {
                    dice: [a, b],
                    total,
                    landing,
                    drift: drift_model(tables, &[landing]),
                },
                src.rolls()[start..].to_vec(),
            ))
        }
        None => None,
    };
    let (outcome, rolls) = match outcome {
        Some((o, r)) => (Some(o), r),
        None => (None, Vec::new()),
    };
    let rolled = outcome
        .as_ref()
        .and_then(|o| rolled_line(&odds, &label(&o.landing)));
    Ok(Resolution {
        system: crate::gsp::ID,
        action: "aoa".into(),
        modifiers: vec![aoa_line(tables)],
        dice: rolls,
        summary: match &outcome {
            Some(o) => format!(
                "A.O.A. {}+{} = {}: lands {}",
                o.dice[0], o.dice[1], o.total, o.landing
            ),
            None => "A.O.A.: 2d6 on the 3x3 grid".into(),
        },
        outcome,
        odds,
        rolled,
        notes: Vec::new(),
    })
}

/// The modifier line that states how the grid is read.
pub fn aoa_line(tables: &GspTables) -> ModifierLine {
    ModifierLine::new(
        "A.O.A. 2d6 per hit: top row over, bottom row short, left/right as seen from the gun",
        Effect::Note,
        RuleId::new("GSP-A3"),
        tables.aoa_provenance(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grid_has_exact_odds() {
        let t = kepi_game::tables::builtin::<crate::gsp::GspTables>();
        let m = drift_model(t, &[Cell::Over, Cell::Over, Cell::OnTarget]);
        assert_eq!(m.cells.len(), 9);
        let on = m.cell(Cell::OnTarget).unwrap();
        assert_eq!(on.p, Prob::new(16, 36));
        assert_eq!((on.row, on.col), (1, 1));
        assert_eq!(on.shells, 1);
        assert_eq!(m.cell(Cell::Over).unwrap().shells, 2);
        assert_eq!(m.at(0, 0).unwrap().cell, Cell::OverLeft);
        assert_eq!(m.at(0, 0).unwrap().p, Prob::new(1, 36));
        assert_eq!(m.at(2, 2).unwrap().totals, vec![10]);
        let total: Prob = m.cells.iter().map(|c| c.p).sum();
        assert_eq!(total, Prob::ONE);
        assert_eq!(m.provenance, Provenance::House);
    }
}
