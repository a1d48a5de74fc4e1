//! The dice tray: d6, 2d6, d10 and d% buttons, an expression field, "enter my own dice", and a roll
//! history with timestamps (DICE-1, DICE-2).

use chrono::{DateTime, Local};
use egui::RichText;

use crate::dice::{DiceExpr, DiceSource, RollSource};

/// One line of the tray's history.
#[derive(Clone, Debug)]
pub struct TrayEntry {
    /// When it was rolled or entered.
    pub at: DateTime<Local>,
    /// The expression.
    pub expr: String,
    /// Each die, in order.
    pub dice: Vec<u32>,
    /// The total.
    pub total: i64,
    /// kepi's roll or the player's.
    pub source: RollSource,
}

/// The tray's state: the seeded source, the mode, the field contents and the history.
pub struct DiceTray {
    /// kepi's dice (seeded, so a session's rolls replay).
    pub source: DiceSource,
    /// "I roll my own dice": the buttons ask for values instead of rolling.
    pub own_dice: bool,
    /// The expression field.
    pub expr_text: String,
    /// The entered values field (own-dice mode): "3 5" for 2d6.
    pub entered_text: String,
    /// Newest last.
    pub history: Vec<TrayEntry>,
    /// The last problem to show (bad expression, die out of range).
    pub error: Option<String>,
}

impl DiceTray {
    /// A tray rolling from `seed`.
    pub fn new(seed: u64) -> Self {
        DiceTray {
            source: DiceSource::seeded(seed),
            own_dice: false,
            expr_text: "3d6+2".to_string(),
            entered_text: String::new(),
            history: Vec::new(),
            error: None,
        }
    }

    /// Rolls (or, in own-dice mode, reads the entered values for) an expression and records it.
    pub fn roll(&mut self, expr: &DiceExpr) {
        self.error = None;
        let result = if self.own_dice {
            self.read_entered(expr)
        } else {
            self.source
                .roll_expr(expr)
                .map(|r| (r.dice, r.total))
                .map_err(|e| e.to_string())
        };
        match result {
            Ok((dice, total)) => {
                self.history.push(TrayEntry {
                    at: Local::now(),
                    expr: expr.to_string(),
                    dice,
                    total,
                    source: if self.own_dice {
                        RollSource::Entered
                    } else {
                        RollSource::Seeded
                    },
                });
                self.entered_text.clear();
            }
            Err(e) => self.error = Some(e),
        }
    }

    fn read_entered(&self, expr: &DiceExpr) -> Result<(Vec<u32>, i64), String> {
        let die = expr.die();
        let values: Vec<u32> = self
            .entered_text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|s| !s.is_empty())
            .map(|s| {
                s.parse::<u32>()
                    .map_err(|_| format!("`{s}` is not a number"))
            })
            .collect::<Result<_, _>>()?;
        if values.len() != expr.count as usize {
            return Err(format!(
                "{expr} needs {} value(s), got {}",
                expr.count,
                values.len()
            ));
        }
        for v in &values {
            die.check(*v).map_err(|e| e.to_string())?;
        }
        let total = values.iter().map(|&v| v as i64).sum::<i64>() + expr.modifier;
        Ok((values, total))
    }

    /// The tray panel.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        ui.heading("Dice tray");
        ui.horizontal(|ui| {
            ui.radio_value(&mut self.own_dice, false, "kepi rolls");
            ui.radio_value(&mut self.own_dice, true, "enter my own dice");
        });
        if self.own_dice {
            ui.horizontal(|ui| {
                ui.label("my dice:");
                ui.add(
                    egui::TextEdit::singleline(&mut self.entered_text)
                        .hint_text("e.g. 3 5")
                        .desired_width(90.0),
                );
            });
        }
        ui.horizontal(|ui| {
            for (label, expr) in [("d6", "d6"), ("2d6", "2d6"), ("d10", "d10"), ("d%", "d%")] {
                if ui.button(RichText::new(label).size(18.0)).clicked()
                    && let Ok(e) = expr.parse::<DiceExpr>()
                {
                    self.roll(&e);
                }
            }
        });
        ui.horizontal(|ui| {
            let field = ui.add(
                egui::TextEdit::singleline(&mut self.expr_text)
                    .hint_text("NdM+K")
                    .desired_width(90.0),
            );
            let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if ui.button("Roll").clicked() || enter {
                match self.expr_text.parse::<DiceExpr>() {
                    Ok(e) => self.roll(&e),
                    Err(e) => self.error = Some(e.to_string()),
                }
            }
        });
        if let Some(seed) = self.source.seed() {
            ui.small(format!("seed {seed}"));
        }
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        ui.separator();
        egui::ScrollArea::vertical()
            .max_height(260.0)
            .show(ui, |ui| {
                for e in self.history.iter().rev() {
                    let dice: Vec<String> = e.dice.iter().map(u32::to_string).collect();
                    let who = if e.source == RollSource::Entered {
                        " (entered)"
                    } else {
                        ""
                    };
                    ui.label(format!(
                        "{}  {}: [{}] = {}{}",
                        e.at.format("%H:%M:%S"),
                        e.expr,
                        dice.join(" "),
                        e.total,
                        who
                    ));
                }
            });
    }
}
