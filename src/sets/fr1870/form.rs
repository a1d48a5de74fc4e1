//! 1870's resolver forms besides the combat (which is [`super::combat_form`], on what 1870 shares
//! with SPI in [`crate::board::form`]): a railway transport (FR-G1), a passage by sea (FR-K1), with
//! what the game knows read from its log (transports this turn, units carried on a section, where
//! a unit at sea is), and storming a fortress from the move (FR-F1, H5). Their situation panels
//! are here too, behind the `gui` feature.

use serde::{Deserialize, Serialize};

use super::transport::{self, RailInput, SeaInput, SeaPlace};
use crate::board::form::one_unit_form;
use kepi_game::dice::DiceSource;
use kepi_game::engine::game::{Action, FlagName, Game, GameState, InEffect, UnitState};
use kepi_game::engine::play::board::hex_in;
use kepi_game::engine::play::refuse::name;
use kepi_game::engine::play::{Resolved, SetForm, done, unit};
use kepi_game::hex::Layout;
use kepi_game::roster::{Arm, Position};
use kepi_game::rules::{RuleError, Tables};

/// A unit's cell as the 1870 map numbers it, when it stands on one.
fn cell_of(u: &UnitState) -> Option<String> {
    hex_in(u.position, Layout::EvenQ).map(|h| h.label_or_axial(Layout::EvenQ))
}

/// The impossible for any transport: a unit out of the game, a fortress.
fn cannot_move(u: &UnitState) -> Option<String> {
    if u.eliminated() {
        return Some(format!("{} is not in the game", name(u)));
    }
    (u.unit.arm == Arm::Fortress).then(|| format!("{} is a fortress: it never moves", name(u)))
}

/// The logged resolutions of `action` in effect, newest first, with their acting unit and outcome.
fn resolved<'g>(
    game: &'g Game,
    action: &'g str,
) -> impl Iterator<Item = (InEffect<'g>, &'g str, &'g serde_json::Value)> {
    game.in_effect().rev().filter_map(move |e| match e.action {
        Action::Resolved {
            resolution, units, ..
        } if resolution.action == action => {
            let u = units.first()?.as_str();
            Some((e, u, resolution.outcome.as_ref()?))
        }
        _ => None,
    })
}

/// FR-G1 ("a unit may make only one railway transport per turn"): `id`'s railway transports this
/// game-turn.
pub fn rail_moves_this_turn(game: &Game, id: &str) -> u32 {
    let turn = game.state().turn;
    let n = resolved(game, "rail")
        .filter(|(e, u, _)| e.entry.turn == turn && *u == id)
        .count();
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// FR-G1: the units carried on the section named `section` in this movement phase.
pub fn carried_on_section(game: &Game, section: &str) -> u32 {
    let s = game.state();
    let (turn, phase) = (s.turn, s.phase_name().to_string());
    let n = resolved(game, "rail")
        .filter(|(e, _, _)| e.entry.turn == turn && e.entry.phase == phase)
        .filter(|(_, _, o)| {
            o.get("section")
                .and_then(serde_json::Value::as_str)
                .is_some_and(|x| x.trim().eq_ignore_ascii_case(section.trim()))
        })
        .count();
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// FR-K1: where `u` is at sea (a transport counter), from its last passage, while it is off the
/// map; None when it is on the map or never sailed.
pub fn at_sea(game: &Game, u: &UnitState) -> Option<SeaPlace> {
    if u.position != Position::Off || u.eliminated() {
        return None;
    }
    let (_, _, o) = resolved(game, "sea").find(|(_, who, _)| *who == u.unit.id)?;
    let to: SeaPlace = serde_json::from_value(o.get("to")?.clone()).ok()?;
    to.at_sea().then_some(to)
}

/// FR-K1: the units in transit now, on both counters, but `except`.
pub fn in_transit(game: &Game, except: &str) -> u32 {
    let n = game
        .state()
        .units
        .iter()
        .filter(|u| u.unit.id != except && at_sea(game, u).is_some())
        .count();
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// FR-K1: `id`'s passages by sea in this movement phase.
fn passages_this_phase(game: &Game, id: &str) -> u32 {
    let s = game.state();
    let (turn, phase) = (s.turn, s.phase_name().to_string());
    let n = resolved(game, "sea")
        .filter(|(e, u, _)| e.entry.turn == turn && e.entry.phase == phase && *u == id)
        .count();
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// FR-G1: a unit carried by railway to a cell, with what the umpire reads off the printed map (the
/// cells on the line, the section and its capacity).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RailForm {
    /// The unit carried.
    pub actor: Option<String>,
    /// The cell it arrives in.
    pub to: String,
    /// Cells on the line, as counted on the map (None: not counted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// The section used, as the umpire names it ("" when not named).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub section: String,
    /// Its capacity printed at its junction (None: not given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capacity: Option<u32>,
}

impl RailForm {
    /// The pure input, with what the game knows (its log for `game`, the state otherwise).
    fn input(&self, state: &GameState, game: Option<&Game>) -> Option<RailInput> {
        let u = state.unit(self.actor.as_deref()?)?;
        let section = (!self.section.trim().is_empty()).then(|| self.section.trim().to_string());
        let to_hex = kepi_game::hex::Hex::from_label(self.to.trim(), Layout::EvenQ).ok();
        let here = |other: &UnitState| hex_in(other.position, Layout::EvenQ);
        let enemies: Vec<_> = state
            .units
            .iter()
            .filter(|o| o.unit.side != u.unit.side && !o.eliminated())
            .filter_map(here)
            .collect();
        let friends_in = to_hex.is_some_and(|t| {
            state
                .units
                .iter()
                .any(|o| o.unit.side == u.unit.side && o.unit.id != u.unit.id && here(o) == Some(t))
        });
        Some(RailInput {
            unit: u.unit.name.clone(),
            from: cell_of(u),
            to: self.to.clone(),
            line: self.line,
            earlier_this_turn: game.map_or(0, |g| rail_moves_this_turn(g, &u.unit.id)),
            carried_on_section: match (game, &section) {
                (Some(g), Some(s)) => carried_on_section(g, s),
                _ => 0,
            },
            section,
            capacity: self.capacity,
            to_enemy_held: to_hex.is_some_and(|t| enemies.contains(&t)),
            to_enemy_controlled: to_hex
                .is_some_and(|t| !friends_in && enemies.iter().any(|e| e.distance(t) == 1)),
        })
    }
}

impl SetForm for RailForm {
    one_unit_form!("fr-rail", RailForm);

    fn name(&self) -> &'static str {
        "rail"
    }

    fn prefill(
        &mut self,
        _state: &GameState,
        actor: Option<&str>,
        _target: Option<&str>,
        _tables: &Tables,
    ) {
        self.actor = actor.map(str::to_string);
    }

    fn refusal(&self, state: &GameState) -> Option<String> {
        cannot_move(state.unit(self.actor.as_deref()?)?)
    }

    fn dice_used(&self) -> &'static [kepi_game::dice::Die] {
        &[]
    }

    fn breaches(&self, game: &Game, _tables: &kepi_game::rules::Tables) -> Vec<String> {
        self.input(game.state(), Some(game))
            .map(|i| transport::rail_breaches(&i))
            .unwrap_or_default()
    }

    /// The cell is the umpire's to type for this transport only.
    fn clear_typed(&mut self) {
        self.to.clear();
        self.line = None;
    }

    fn resolve(
        &self,
        state: &GameState,
        _tables: &Tables,
        _dice: Option<&mut DiceSource>,
    ) -> Result<Resolved, RuleError> {
        let u = unit(state, self.actor.as_deref(), "unit")?;
        if self.to.trim().is_empty() {
            return Err(RuleError::input(
                "--to",
                "no cell given",
                "the cell it arrives in, such as 2034",
            ));
        }
        let i = self
            .input(state, None)
            .ok_or_else(|| RuleError::input("unit", "no unit chosen", "a unit of the roster"))?;
        let res = transport::rail(&i)?;
        let to: Position = self.to.trim().parse().map_err(|e: String| {
            RuleError::input("--to", e, "the cell it arrives in, such as 2034")
        })?;
        let fx = vec![Action::Move {
            effects: Vec::new(),
            unit: u.unit.id.clone(),
            to,
            notes: Vec::new(),
            mp: None,
        }];
        Ok(done(res, fx))
    }

    #[cfg(feature = "gui")]
    fn situation_ui(&mut self, ui: &mut egui::Ui, _state: &GameState) {
        use kepi_game::engine::play::kit;
        ui.label(
            egui::RichText::new(
                "FR-G1: at most 10 cells on the line, 1 before embarking and 1 after; one railway \
                 transport a turn; the section's capacity is printed at its junction",
            )
            .weak(),
        );
        ui.horizontal_wrapped(|ui| {
            let l = ui.label("to cell");
            kit::field(
                ui,
                egui::TextEdit::singleline(&mut self.to)
                    .desired_width(56.0)
                    .hint_text("2034"),
                "rail_to",
            )
            .labelled_by(l.id);
            let l = ui.label("section");
            kit::field(
                ui,
                egui::TextEdit::singleline(&mut self.section)
                    .desired_width(110.0)
                    .hint_text("as on the map"),
                "rail_section",
            )
            .labelled_by(l.id);
        });
        ui.horizontal_wrapped(|ui| {
            optional_number(ui, "cells on the line", &mut self.line, "rail_line");
            optional_number(ui, "capacity", &mut self.capacity, "rail_capacity");
        });
    }
}

/// A number the umpire may give or leave out: a tick, then its field.
#[cfg(feature = "gui")]
fn optional_number(ui: &mut egui::Ui, label: &str, value: &mut Option<u32>, id: &str) {
    let mut on = value.is_some();
    if ui.checkbox(&mut on, label).changed() {
        *value = on.then_some(value.unwrap_or(1));
    }
    if let Some(n) = value {
        kepi_game::engine::play::kit::number(ui, egui::DragValue::new(n).range(0..=60), id);
    }
}

/// FR-K1: one passage by sea (a port, a transport counter, an edge of the map).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeaForm {
    /// The unit sailing.
    pub actor: Option<String>,
    /// Where a unit on the map embarks from: a port (the default) or the western or southern
    /// edge. A unit at sea sails from its counter, read from the game.
    pub from: SeaPlace,
    /// The port it embarks at, when it does.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub from_port: String,
    /// Where it goes.
    pub to: SeaPlace,
    /// The port it goes to, when it goes to one.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub port: String,
    /// The cell it lands on, back on the map.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub at: String,
}

impl Default for SeaForm {
    fn default() -> Self {
        SeaForm {
            actor: None,
            from: SeaPlace::Port,
            from_port: String::new(),
            to: SeaPlace::Counter1,
            port: String::new(),
            at: String::new(),
        }
    }
}

impl SeaForm {
    /// The pure input: where the unit is from the game's log when it is at sea, else as typed.
    fn input(&self, state: &GameState, game: Option<&Game>) -> Option<SeaInput> {
        let u = state.unit(self.actor.as_deref()?)?;
        let from = match (u.position, game.and_then(|g| at_sea(g, u))) {
            (_, Some(counter)) => Some(counter),
            (Position::Hex { .. }, None) => Some(self.from),
            // Off the map: at sea on the counter the log says (only the game's log knows which,
            // so a resolution made from the state alone records it as unknown rather than
            // guessing), or never sailed.
            _ => None,
        };
        let text = |s: &str| (!s.trim().is_empty()).then(|| s.trim().to_string());
        Some(SeaInput {
            unit: u.unit.name.clone(),
            side: Some(u.unit.side.as_str().to_string()),
            from,
            from_port: text(&self.from_port),
            to: self.to,
            to_port: text(&self.port),
            at: text(&self.at),
            in_transit: game.map_or(0, |g| in_transit(g, &u.unit.id)),
            passages_this_phase: game.map_or(0, |g| passages_this_phase(g, &u.unit.id)),
        })
    }
}

impl SetForm for SeaForm {
    one_unit_form!("fr-sea", SeaForm);

    fn name(&self) -> &'static str {
        "sea"
    }

    fn prefill(
        &mut self,
        _state: &GameState,
        actor: Option<&str>,
        _target: Option<&str>,
        _tables: &Tables,
    ) {
        self.actor = actor.map(str::to_string);
    }

    fn refusal(&self, state: &GameState) -> Option<String> {
        cannot_move(state.unit(self.actor.as_deref()?)?)
    }

    fn dice_used(&self) -> &'static [kepi_game::dice::Die] {
        &[]
    }

    fn breaches(&self, game: &Game, _tables: &kepi_game::rules::Tables) -> Vec<String> {
        self.input(game.state(), Some(game))
            .map(|i| transport::sea_breaches(&i))
            .unwrap_or_default()
    }

    /// The landing cell is for this passage only.
    fn clear_typed(&mut self) {
        self.at.clear();
    }

    fn resolve(
        &self,
        state: &GameState,
        _tables: &Tables,
        _dice: Option<&mut DiceSource>,
    ) -> Result<Resolved, RuleError> {
        let u = unit(state, self.actor.as_deref(), "unit")?;
        let i = self
            .input(state, None)
            .ok_or_else(|| RuleError::input("unit", "no unit chosen", "a unit of the roster"))?;
        let res = transport::sea(&i)?;
        let to = match (&res.outcome, self.to.at_sea()) {
            // To a transport counter: off the map.
            (_, true) => Some(Position::Off),
            (Some(o), false) => match &o.at {
                Some(c) => Some(c.parse::<Position>().map_err(|e: String| {
                    RuleError::input("--at", e, "the cell it lands on, such as 0420")
                })?),
                None => None,
            },
            (None, false) => None,
        };
        let mut fx: Vec<Action> = to
            .filter(|p| *p != u.position)
            .map(|to| Action::Move {
                effects: Vec::new(),
                unit: u.unit.id.clone(),
                to,
                notes: Vec::new(),
                mp: None,
            })
            .into_iter()
            .collect();
        // FR-K1: at sea from a passage to a counter or an edge until it lands (the checklist
        // lists the units in transit from this mark).
        let sea = self.to.at_sea();
        if u.carries(&crate::fr1870::marks::AT_SEA) != sea {
            fx.push(Action::SetFlag {
                unit: u.unit.id.clone(),
                flag: FlagName::mark(&crate::fr1870::marks::AT_SEA),
                on: sea,
            });
        }
        Ok(done(res, fx))
    }

    #[cfg(feature = "gui")]
    fn situation_ui(&mut self, ui: &mut egui::Ui, _state: &GameState) {
        use kepi_game::engine::play::kit;
        ui.label(
            egui::RichText::new(
                "FR-K1: port, counter 1, counter 2, the western or southern edge: one passage a \
                 movement phase (port to port within one); four units in transit at most; French \
                 units only",
            )
            .weak(),
        );
        ui.horizontal_wrapped(|ui| {
            kit::pick(
                ui,
                "embarks from (a unit on the map)",
                &mut self.from,
                &[SeaPlace::Port, SeaPlace::West, SeaPlace::South],
            );
            kit::pick(ui, "to", &mut self.to, SeaPlace::ALL);
        });
        ui.horizontal_wrapped(|ui| {
            if self.to == SeaPlace::Port {
                let l = ui.label("port");
                kit::field(
                    ui,
                    egui::TextEdit::singleline(&mut self.port)
                        .desired_width(90.0)
                        .hint_text("Le Havre"),
                    "sea_port",
                )
                .labelled_by(l.id);
            }
            if !self.to.at_sea() {
                let l = ui.label("lands at cell");
                kit::field(
                    ui,
                    egui::TextEdit::singleline(&mut self.at)
                        .desired_width(56.0)
                        .hint_text("0420"),
                    "sea_at",
                )
                .labelled_by(l.id);
            }
        });
    }
}

/// FR-F1 (H5) as printed: what may be stormed.
pub(crate) const H5_WHAT: &str = "\"When an infantry unit arrives on a cell adjacent to an enemy \
                                  fortress that is unoccupied and of value 1, this unit may \
                                  attempt to take it immediately\"";
/// FR-F1 (H5): when.
pub(crate) const H5_WHEN: &str = "\"this combat took place during the player's Movement Phase\"";
/// FR-F1 (H5): the stormer stops.
pub(crate) const H5_STOPS: &str = "\"it may go no further during this phase\"";
/// FR-F1 (H5): the stormer does not fight.
pub(crate) const H5_NO_COMBAT: &str = "\"the unit thus engaged, whether or not it has taken the \
                                       fortress, may not fight in the following Combat Phase\"";

/// FR-F1 (H5): an infantry unit storms an unoccupied enemy fortress of value 1 next to it, from
/// the move. The fortress is a fortress card of the other side (its strength the coefficient);
/// taken, the stormer occupies its cell and the fortress passes to its side; either way the
/// stormer is marked for the turn ([`crate::fr1870::marks::STORMED`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StormForm {
    /// The storming unit.
    pub actor: Option<String>,
    /// The fortress's cell ("": the enemy fortress next to the unit, when there is one).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub fortress: String,
}

/// A fighting unit (not a fortress card, a railway unit or a dummy).
fn fights(u: &UnitState) -> bool {
    !matches!(u.unit.arm, Arm::Fortress | Arm::Railway | Arm::Dummy) && !u.eliminated()
}

impl StormForm {
    /// The enemy fortress card it storms: the one in the cell typed, or the one next to the unit
    /// when only one is; Err says why none.
    fn fortress_of<'s>(
        &self,
        state: &'s GameState,
        u: &UnitState,
    ) -> Result<&'s UnitState, String> {
        let enemy_fort = |f: &&UnitState| {
            f.unit.arm == Arm::Fortress && f.unit.side != u.unit.side && !f.eliminated()
        };
        let typed = self.fortress.trim();
        if !typed.is_empty() {
            let at: Position = typed
                .parse()
                .map_err(|e: String| format!("--fortress: {e}"))?;
            return state
                .units
                .iter()
                .filter(enemy_fort)
                .find(|f| f.position == at)
                .ok_or_else(|| format!("no enemy fortress in cell {at} (FR-F1, H5: {H5_WHAT})"));
        }
        let here = hex_in(u.position, Layout::EvenQ);
        let near: Vec<&UnitState> = state
            .units
            .iter()
            .filter(enemy_fort)
            .filter(|f| {
                here.zip(hex_in(f.position, Layout::EvenQ))
                    .is_some_and(|(a, b)| a.distance(b) == 1)
            })
            .collect();
        match near.as_slice() {
            [one] => Ok(one),
            [] => Err(format!(
                "no enemy fortress next to {}: name its cell with --fortress (FR-F1, H5)",
                name(u)
            )),
            _ => Err(format!(
                "{} enemy fortresses next to {}: name the one stormed with --fortress",
                near.len(),
                name(u)
            )),
        }
    }

    /// The storming unit, its fortress and the pure input (FR-F1). An occupied fortress is
    /// rolled for as the umpire went ahead (the breach is noted, [`SetForm::breaches`]).
    fn parts<'s>(
        &self,
        state: &'s GameState,
    ) -> Result<(&'s UnitState, &'s UnitState, super::StormInput), RuleError> {
        let u = unit(state, self.actor.as_deref(), "unit")?;
        let f = self
            .fortress_of(state, u)
            .map_err(|why| RuleError::input("--fortress", why, "the cell of an enemy fortress"))?;
        let input = super::StormInput {
            value: f.strength,
            occupied: false,
            infantry: u.unit.arm == Arm::Infantry,
        };
        Ok((u, f, input))
    }
}

impl SetForm for StormForm {
    one_unit_form!("fr-storm", StormForm);

    fn name(&self) -> &'static str {
        "storm"
    }

    fn prefill(
        &mut self,
        _state: &GameState,
        actor: Option<&str>,
        _target: Option<&str>,
        _tables: &Tables,
    ) {
        self.actor = actor.map(str::to_string);
    }

    /// FR-F1 (H5, H6): only an infantry unit storms, only an enemy fortress of value 1 ("Fortresses
    /// of value 2 and 3 may not be taken without a siege").
    fn refusal(&self, state: &GameState) -> Option<String> {
        let u = state.unit(self.actor.as_deref()?)?;
        if let Some(why) = cannot_move(u) {
            return Some(why);
        }
        let f = match self.fortress_of(state, u) {
            Ok(f) => f,
            Err(why) => return Some(why),
        };
        if u.unit.arm != Arm::Infantry {
            return Some(format!(
                "{} is {}: only an infantry unit may storm a fortress (FR-F1, H5: {H5_WHAT})",
                name(u),
                u.unit.arm
            ));
        }
        (f.strength != 1).then(|| {
            format!(
                "{} is of value {}: \"Fortresses of value 2 and 3 may not be taken without a \
                 siege\" (FR-F1, H6)",
                name(f),
                f.strength
            )
        })
    }

    /// FR-F1 (H5), issue 42: storming an occupied fortress, out of the player's Movement Phase,
    /// from a cell not next to it, or a second time this turn: noted, the umpire decides.
    fn breaches(&self, game: &Game, _tables: &kepi_game::rules::Tables) -> Vec<String> {
        let s = game.state();
        let Ok((u, f, _)) = self.parts(s) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let garrison: Vec<&str> = s
            .units
            .iter()
            .filter(|g| g.position == f.position && g.unit.side == f.unit.side && fights(g))
            .map(|g| g.unit.name.as_str())
            .collect();
        if !garrison.is_empty() {
            out.push(format!(
                "{} storms {} at {}, occupied by {} (FR-F1, H5: {H5_WHAT})",
                name(u),
                name(f),
                f.position,
                garrison.join(", ")
            ));
        }
        let phase = s.phase_kind();
        if phase.is_some_and(|p| {
            p.step != kepi_game::engine::game::clock::Step::Movement
                || p.side.is_some_and(|x| x != u.unit.side)
        }) {
            out.push(format!(
                "{} storms {} in the {} phase (FR-F1, H5: {H5_WHEN})",
                name(u),
                name(f),
                s.phase_name()
            ));
        }
        let near = hex_in(u.position, Layout::EvenQ)
            .zip(hex_in(f.position, Layout::EvenQ))
            .is_some_and(|(a, b)| a.distance(b) == 1);
        if !near {
            out.push(format!(
                "{} is not next to {} at {} (FR-F1, H5: {H5_WHAT})",
                name(u),
                name(f),
                f.position
            ));
        }
        if u.carries(&crate::fr1870::marks::STORMED) {
            out.push(format!(
                "{} stormed a fortress already this turn (FR-F1, H5: {H5_STOPS})",
                name(u)
            ));
        }
        out
    }

    /// The fortress's cell is typed for this storm only.
    fn clear_typed(&mut self) {
        self.fortress.clear();
    }

    /// FR-F1 (H5): "on a 1, 2 or 3 the fortress is not taken; on a 4, 5 or 6 the fortress is
    /// taken; the player takes possession of the fortress immediately by occupying the cell with
    /// the unit that attacked"; "the unit thus engaged, whether or not it has taken the fortress,
    /// may not fight in the following Combat Phase": the stormer is marked for the turn, and
    /// taken, the fortress passes to its side and the stormer moves into its cell.
    fn resolve(
        &self,
        state: &GameState,
        tables: &Tables,
        dice: Option<&mut DiceSource>,
    ) -> Result<Resolved, RuleError> {
        let (u, f, input) = self.parts(state)?;
        let mut res = super::storm(&input, tables.get::<super::Fr1870Tables>(), dice)?;
        let mut fx = Vec::new();
        if let Some(o) = res.outcome.as_ref() {
            fx.push(Action::SetFlag {
                unit: u.unit.id.clone(),
                flag: FlagName::mark(&crate::fr1870::marks::STORMED),
                on: true,
            });
            if o.taken {
                fx.push(Action::Possess {
                    unit: f.unit.id.clone(),
                    side: u.unit.side,
                });
                if u.position != f.position {
                    fx.push(Action::Move {
                        effects: Vec::new(),
                        unit: u.unit.id.clone(),
                        to: f.position,
                        notes: Vec::new(),
                        mp: None,
                    });
                }
                res.notes.push(format!(
                    "FR-F1 (H5): {} takes possession of {} and occupies cell {}",
                    name(u),
                    name(f),
                    f.position
                ));
            }
            res.notes.push(format!(
                "FR-F1 (H5): {} may go no further this phase and may not fight in the following \
                 Combat Phase (marked stormed for the turn)",
                name(u)
            ));
        }
        Ok(done(res, fx))
    }

    #[cfg(feature = "gui")]
    fn situation_ui(&mut self, ui: &mut egui::Ui, _state: &GameState) {
        use kepi_game::engine::play::kit;
        ui.label(
            egui::RichText::new(
                "FR-F1 (H5): an infantry unit next to an unoccupied enemy fortress of value 1, in \
                 its Movement Phase: d6 4-6 takes it; either way it stops and does not fight in \
                 the following Combat Phase",
            )
            .weak(),
        );
        ui.horizontal_wrapped(|ui| {
            let l = ui.label("fortress cell");
            kit::field(
                ui,
                egui::TextEdit::singleline(&mut self.fortress)
                    .desired_width(56.0)
                    .hint_text("next to it"),
                "storm_fortress",
            )
            .labelled_by(l.id);
        });
    }
}
