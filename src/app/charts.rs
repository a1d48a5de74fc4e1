//! Charts: strength per side per turn, derived from the actions applied (undone ones excluded).

use std::collections::BTreeMap;

use egui::Ui;

use super::state::{Memo, game_key};
use kepi_game::engine::game::{Game, strength_by_turn};
use kepi_game::roster::Side;

/// The chart's points per side and its last turn, worked out once per change of the log
/// (deriving them walks every applied action).
pub type ChartCache = Memo<(usize, String), (BTreeMap<Side, Vec<[f64; 2]>>, u32)>;

fn points(game: &Game) -> (BTreeMap<Side, Vec<[f64; 2]>>, u32) {
    let rows = strength_by_turn(game);
    let last_turn = rows.iter().map(|(t, _, _)| *t).max().unwrap_or(1);
    let mut sides: BTreeMap<Side, Vec<[f64; 2]>> = BTreeMap::new();
    for (turn, side, s) in rows {
        sides.entry(side).or_default().push([turn as f64, s as f64]);
    }
    (sides, last_turn)
}

/// The strength chart.
pub fn charts_ui(ui: &mut Ui, game: &Game, cache: &mut ChartCache) {
    use egui_plot::{Legend, Line, Plot, PlotPoints};
    let (sides, last_turn) = cache.get(game_key(game), || points(game));
    let last_turn = *last_turn;
    ui.label("Strength per side per turn (figures, guns or SP)");
    Plot::new("strength_chart")
        .legend(Legend::default())
        .height(ui.available_height().max(120.0))
        .x_axis_label("turn")
        // From turn 1 and zero strength, so a battle's first turn is not a lone dot in a
        // window of negative turns, and losses read against the whole.
        .include_x(1.0)
        .include_x(f64::from(last_turn.max(2)))
        .include_y(0.0)
        .show(ui, |p| {
            for (side, pts) in sides {
                // The side's own colour, the map's (issue 46: the plot's own palette differed).
                p.line(
                    Line::new(side.to_string(), PlotPoints::from(pts.clone()))
                        .color(super::map::side_colour(*side))
                        .width(2.0),
                );
            }
        });
}
