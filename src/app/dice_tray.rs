//! The dice tray: d6, 2d6, d10 and d% buttons, an expression field, and the game's free rolls
//! (DICE-1, DICE-2).
//!
//! A roll here is a roll of the game: it comes from the game's seeded dice (or the physical dice the
//! player types in, under the window's one "I roll my own dice" setting), is logged with a hash like
//! every action, and is undone and replayed with the game. The history is read from the game's log
//! each frame, so it is never a second, diverging record.

use egui::RichText;

use super::state::Command;
use kepi_game::dice::{DiceExpr, RollSource};
use kepi_game::engine::game::{Action, EntryKind, Game};

/// How many of the latest rolls the tray lists.
pub const TRAY_HISTORY: usize = 200;

/// One of the game's free rolls, as the tray lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct TrayRoll {
    /// The log entry's index.
    pub index: u64,
    /// The game-turn it was rolled in.
    pub turn: u32,
    /// The expression ("2d6").
    pub expr: String,
    /// Each die, in order.
    pub dice: Vec<u32>,
    /// The total.
    pub total: i64,
    /// kepi's roll or the player's.
    pub source: RollSource,
}

/// The game's free rolls (`Action::Roll` entries), newest first, at most `limit`.
pub fn tray_rolls(game: &Game, limit: usize) -> Vec<TrayRoll> {
    game.log()
        .iter()
        .rev()
        .filter_map(|e| match &e.kind {
            EntryKind::Act {
                action: Action::Roll {
                    expr, dice, total, ..
                },
            } => Some(TrayRoll {
                index: e.index,
                turn: e.turn,
                expr: expr.to_string(),
                dice: dice.iter().map(|d| d.value).collect(),
                total: *total,
                source: if !dice.is_empty() && dice.iter().all(|d| d.source == RollSource::Entered)
                {
                    RollSource::Entered
                } else {
                    RollSource::Seeded
                },
            }),
            _ => None,
        })
        .take(limit)
        .collect()
}

/// Reads "3 5" or "3,5" as die values (checked against the die by the game when it logs them).
pub fn parse_entered(text: &str) -> Result<Vec<u32>, String> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<u32>()
                .map_err(|_| format!("`{s}` is not a number"))
        })
        .collect()
}

/// The tray's own fields: what is being typed, and the last problem to show. Everything else (the
/// dice, the history, the own-dice setting) belongs to the game and the window.
#[derive(Clone, Debug)]
pub struct DiceTray {
    /// The expression field.
    pub expr_text: String,
    /// The entered values field (own-dice mode): "3 5" for 2d6.
    pub entered_text: String,
    /// The last problem to show (bad expression, die out of range).
    pub error: Option<String>,
}

impl Default for DiceTray {
    fn default() -> Self {
        DiceTray {
            expr_text: "3d6+2".to_string(),
            entered_text: String::new(),
            error: None,
        }
    }
}

impl DiceTray {
    /// The command a click on a die button (or Roll) sends: kepi's dice, or the values typed in
    /// own-dice mode (an unreadable value is shown here and nothing is sent).
    fn roll_command(&mut self, expr: DiceExpr, own_dice: bool) -> Option<Command> {
        self.error = None;
        if !own_dice {
            return Some(Command::Roll {
                expr,
                entered: Vec::new(),
            });
        }
        match parse_entered(&self.entered_text) {
            Ok(v) if v.is_empty() => {
                self.error = Some(format!(
                    "type the {} value(s) you rolled for {expr} first",
                    expr.count
                ));
                None
            }
            Ok(entered) => Some(Command::Roll { expr, entered }),
            Err(e) => {
                self.error = Some(e);
                None
            }
        }
    }

    /// The tray panel: sends [`Command::Roll`]; lists the game's rolls.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        game: &Game,
        own_dice: &mut bool,
        out: &mut Vec<Command>,
    ) {
        ui.horizontal(|ui| {
            ui.radio_value(own_dice, false, "kepi rolls");
            ui.radio_value(own_dice, true, "enter my own dice");
        });
        if *own_dice {
            ui.horizontal(|ui| {
                ui.label("my dice:");
                super::keys::field(
                    ui,
                    egui::TextEdit::singleline(&mut self.entered_text)
                        .hint_text("e.g. 3 5")
                        .desired_width(90.0),
                    "tray_my_dice",
                );
            });
        }
        ui.horizontal(|ui| {
            for (label, expr) in [("d6", "d6"), ("2d6", "2d6"), ("d10", "d10"), ("d%", "d%")] {
                if ui.button(RichText::new(label).size(18.0)).clicked()
                    && let Ok(e) = expr.parse::<DiceExpr>()
                {
                    out.extend(self.roll_command(e, *own_dice));
                }
            }
            ui.separator();
            let field = super::keys::field(
                ui,
                egui::TextEdit::singleline(&mut self.expr_text)
                    .hint_text("NdM+K")
                    .desired_width(90.0),
                "tray_expr",
            );
            let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if ui.button("Roll").clicked() || enter {
                match self.expr_text.parse::<DiceExpr>() {
                    Ok(e) => out.extend(self.roll_command(e, *own_dice)),
                    Err(e) => self.error = Some(e.to_string()),
                }
            }
        });
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        ui.small("Rolls here are the game's: seeded, logged, undone with Ctrl+Z.");
        ui.separator();
        let rolls = tray_rolls(game, TRAY_HISTORY);
        egui::ScrollArea::vertical()
            .auto_shrink([false, true])
            .show(ui, |ui| {
                if rolls.is_empty() {
                    ui.weak("No rolls yet.");
                }
                for r in &rolls {
                    let dice: Vec<String> = r.dice.iter().map(u32::to_string).collect();
                    let who = if r.source == RollSource::Entered {
                        " (entered)"
                    } else {
                        ""
                    };
                    ui.label(format!(
                        "#{}  turn {}  {}: [{}] = {}{}",
                        r.index,
                        r.turn,
                        r.expr,
                        dice.join(" "),
                        r.total,
                        who
                    ));
                }
            });
    }
}
