//! The changes made at the table: an action by hand, a tray roll, the units picked, the resolver's
//! roll, the words of `kepi game apply` and a due check's roll; and the status line each leaves
//! (the entry as the log says it, what the umpire went ahead with first, refusals in the window's
//! words).

use chrono::Utc;

use super::{AppState, Command};
use kepi_game::dice::DiceExpr;
use kepi_game::engine::game::{Action, GameState};

impl AppState {
    /// One action by hand (an edit, a move). A move logs what the rules say against it (the map
    /// showed it while dragging), the same notes `kepi game apply move` logs.
    pub(super) fn act(&mut self, action: Action, now: chrono::DateTime<Utc>) {
        let action = match action {
            Action::Move { unit, to, mp, .. } => {
                kepi_game::engine::flow::move_action(&self.game, unit, to, mp, self.tables)
            }
            Action::SetCount {
                unit,
                counter,
                value,
                ..
            } => kepi_game::engine::flow::set_count_action(self.game.state(), unit, counter, value),
            other => other,
        };
        let done = self
            .game
            .act(action, now)
            .cloned()
            .map(|e| status_of(&e, self.game.state()));
        self.logged(done, "");
    }

    /// A free roll of the dice tray (DICE-2): its typed dice are for this roll only.
    pub(super) fn tray_roll(
        &mut self,
        expr: &DiceExpr,
        entered: &[u32],
        now: chrono::DateTime<Utc>,
    ) {
        match self.game.roll_entered(expr, entered, now) {
            Ok(e) => {
                let s = e.summary.clone();
                self.panels.tray.error = None;
                self.panels.tray.entered_text.clear();
                self.commit(s);
            }
            Err(e) => {
                self.panels.tray.error = Some(e.to_string());
                self.err(e.to_string());
            }
        }
    }

    /// A change of the units picked (acting, target, a hex combat's attackers): the resolver's
    /// form is filled again for them, and a complaint about the last pick is cleared.
    pub(super) fn pick(&mut self, change: impl FnOnce(&mut AppState)) {
        self.clear_form_error();
        change(self);
        self.resolver.prefill(
            self.game.state(),
            self.selected.as_deref(),
            self.target.as_deref(),
            self.tables,
        );
    }

    /// An action, undo or redo done (its summary, to keep on disk and show) or refused.
    pub(super) fn logged(
        &mut self,
        done: Result<String, kepi_game::engine::game::ActionError>,
        prefix: &str,
    ) {
        match done {
            Ok(summary) => {
                self.commit(format!("{prefix}{summary}"));
            }
            Err(e) => self.err(e.to_string()),
        }
    }

    /// Rolls the resolver's form and applies it, one undo step. The roll uses the units as they
    /// are now, whatever happened since the last frame.
    pub(super) fn resolve_and_apply(
        &mut self,
        entered: &[(kepi_game::dice::Die, u32)],
        now: chrono::DateTime<Utc>,
    ) {
        let tables = self.tables;
        // The roll uses the units as they are now, whatever happened since the last frame.
        self.resolver.derive(self.game.state(), tables);
        let form = self.resolver.clone();
        let units: Vec<String> = form
            .form()
            .map(|f| {
                // The target is logged only for a form that has one: a rally or fatigue
                // roll is about its unit alone, whoever was last picked as a target.
                let (a, t) = f.units();
                let t = t.filter(|_| f.needs_target());
                a.into_iter().chain(t).map(str::to_string).collect()
            })
            .unwrap_or_default();
        // What is odd about this roll now (phase, side, a unit that already acted) goes
        // into the log entry with it: the umpire went ahead, and the log says so.
        let warnings = form
            .form()
            .map(|f| kepi_game::engine::play::breaches::warnings(f, &self.game, self.tables))
            .unwrap_or_default();
        // Logged with the resolution, so `kepi log verify` can resolve it again (issue 29).
        let input = form.form().and_then(|f| serde_json::to_value(f).ok());
        let result = self.game.resolve_logged(
            units,
            input,
            entered,
            |state, dice| {
                form.resolve_with_effects(state, tables, dice)
                    .map(|(mut r, effects)| {
                        r.notes
                            .extend(warnings.iter().map(|w| format!("umpire went ahead: {w}")));
                        (r, effects)
                    })
            },
            now,
        );
        match result {
            Ok(e) => {
                // Issue 46: what the umpire went ahead with leads, so the one-line status never
                // cuts it off its end.
                let s = rolled_entry_status(e);
                self.resolver.last_rolled = self.game.log().last().map(|e| e.index);
                self.resolver.last_form = Some(self.resolver.current);
                if self.commit(s) {
                    self.resolver.clear_typed();
                } else {
                    self.resolver.last_rolled = None;
                }
            }
            Err(e) => {
                let text = in_window_words(&e.to_string());
                self.err(text.clone());
                self.resolver.form_error = Some(text);
            }
        }
    }

    /// The words of `kepi game apply` applied to the window's game (a roll without a unit), then
    /// recorded; what they made is said in the status line as the log says it, a refusal with
    /// the words that were refused.
    pub(super) fn apply_words(&mut self, words: &[String]) {
        let before = self.game.log().len();
        let applied = kepi_middle::moves::apply_in_memory(&mut self.game, words, self.tables);
        let said: Vec<String> = self.game.log()[before.min(self.game.log().len())..]
            .iter()
            .map(|e| status_of(e, self.game.state()))
            .collect();
        if !said.is_empty() {
            self.commit(said.join("; "));
        }
        if let Err(e) = applied {
            self.err(format!(
                "{}: {}",
                words.join(" "),
                in_window_words(&e.to_string())
            ));
        }
    }

    /// The units were picked again: a status line still saying why the form did not roll (a
    /// unit missing then) is stale, and goes.
    pub(super) fn clear_form_error(&mut self) {
        if let Some(t) = self.resolver.form_error.take()
            && self.status.as_ref().is_some_and(|s| s.error && s.text == t)
        {
            self.status = None;
        }
    }

    /// A due check's "Roll": opens its form for its unit and, with kepi's dice, rolls it.
    pub(super) fn roll_due(&mut self, id: u64) {
        let Some(due) = self.state().due.iter().find(|d| d.id == id).cloned() else {
            return self.err(format!("due check #{id} is no longer open"));
        };
        let (Some(form), Some(unit)) = (due.form.clone(), due.unit.clone()) else {
            return self.err(format!(
                "due check #{id} has no form to roll: make it at the table and mark it done"
            ));
        };
        self.handle(Command::OpenForm {
            form,
            actor: Some(unit),
            target: None,
        });
        if !self.options.own_dice {
            self.handle(Command::ResolveAndApply {
                entered: Vec::new(),
            });
        }
    }

    /// Opens a resolver form, with its units when given.
    pub(super) fn open_form(&mut self, form: &str, actor: Option<String>, target: Option<String>) {
        if let Some(i) = self.resolver.forms.iter().position(|f| f.name() == form) {
            self.resolver.current = i;
        }
        if actor.is_some() {
            self.selected = actor;
        }
        if target.is_some() {
            self.target = target;
        }
        self.resolver.prefill(
            self.game.state(),
            self.selected.as_deref(),
            self.target.as_deref(),
            self.tables,
        );
    }
}

/// An entry as the status line says it: its line and the notes logged with it, from the one
/// formatter the log panel, the card, `kepi log show` and the report use.
pub(super) fn status_of(e: &kepi_game::engine::game::LogEntry, state: &GameState) -> String {
    let t = kepi_game::engine::game::entry_text(e, state);
    std::iter::once(t.line)
        .chain(t.notes)
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The status line after a roll, from the entry it logged: the breaches its notes say someone
/// went ahead with (the umpire, a seat, an approved request: [`breach_of`]), then its outcome
/// ([`rolled_status`]). The one line a roll in this window and the host's answer to a roll this
/// window asked for both say (issue 46: a joined window said the host's summary alone).
///
/// [`breach_of`]: kepi_game::engine::play::breaches::breach_of
pub fn rolled_entry_status(e: &kepi_game::engine::game::LogEntry) -> String {
    let breaches: Vec<String> = match &e.kind {
        kepi_game::engine::game::EntryKind::Act {
            action: Action::Resolved { resolution, .. },
        } => resolution
            .notes
            .iter()
            .filter_map(|n| kepi_game::engine::play::breaches::breach_of(n))
            .map(str::to_string)
            .collect(),
        _ => Vec::new(),
    };
    rolled_status(&breaches, &e.summary)
}

/// The status line after a roll: the breaches the umpire went ahead with first, each citing its
/// rule by id alone (the card and the log keep the text quoted: "1RC has already attacked this
/// combat phase (SPI-C2)"), then the outcome (issue 46: at the end, a breach was cut off the
/// one-line status).
pub fn rolled_status(breaches: &[String], summary: &str) -> String {
    if breaches.is_empty() {
        return summary.to_string();
    }
    let said: Vec<String> = breaches.iter().map(|b| cited_by_id(b)).collect();
    format!("went ahead: {} · {summary}", said.join("; "))
}

/// A breach whose last parenthesis quotes its rule ("... (SPI-C2, case C: \"No unit may
/// ...\")"), with the rule's id alone in it ("... (SPI-C2)"); any other breach as it is.
pub(super) fn cited_by_id(breach: &str) -> String {
    let rule_id = |inside: &str| -> Option<String> {
        let id: String = inside
            .chars()
            .take_while(|c| !matches!(c, ',' | ':' | ' '))
            .collect();
        let (set, rest) = id.split_once('-')?;
        (!set.is_empty()
            && set.chars().all(|c| c.is_ascii_uppercase())
            && rest.starts_with(|c: char| c.is_ascii_uppercase()))
        .then_some(id)
    };
    breach
        .strip_suffix(')')
        .and_then(|b| b.rfind(" (").map(|at| (at, &b[at + 2..])))
        .and_then(|(at, inside)| rule_id(inside).map(|id| format!("{} ({id})", &breach[..at])))
        .unwrap_or_else(|| breach.to_string())
}

/// A refusal in the window's words: the command-line option it names is the field the window
/// shows for it (issue 26: "errors ... phrased in command-line flags").
pub fn in_window_words(text: &str) -> String {
    const FIELDS: &[(&str, &str)] = &[
        ("--result: ", "result from your printed chart"),
        ("--to: ", "to cell"),
        ("--at: ", "lands at cell"),
        ("--port: ", "port"),
    ];
    FIELDS
        .iter()
        .find_map(|(flag, field)| {
            text.strip_prefix(flag)
                .map(|rest| format!("{field}: {rest}"))
        })
        .unwrap_or_else(|| text.to_string())
}

#[cfg(test)]
mod tests {
    use super::rolled_status;

    #[test]
    fn a_rolls_status_leads_with_what_the_umpire_went_ahead_with() {
        let breaches = [
            "1RC has already attacked this combat phase (SPI-C2, case C: \"No unit may attack more than once per Combat Phase\")".to_string(),
            "2RC in 2040 is 3 hexes from 2138 (FR-C1, E8: \"All units fight in contact\")".to_string(),
            "a unit (its own words)".to_string(),
        ];
        assert_eq!(
            rolled_status(&breaches, "odds 2:1, die 4: A1/D2"),
            "went ahead: 1RC has already attacked this combat phase (SPI-C2); 2RC in 2040 is 3 hexes from 2138 (FR-C1); a unit (its own words) · odds 2:1, die 4: A1/D2"
        );
        assert_eq!(rolled_status(&[], "odds 2:1"), "odds 2:1");
    }
}
