//! What SPI's and 1870's combat forms share as board games in play (SPI-C1..C5, FR-C1, FR-C2):
//! one attack on one hex, the attacker the acting unit, the defenders the target and the enemy
//! units stacked with it (all defend together, SPI-C2, FR-C1). Here are the units engaged
//! ([`engage_hex`]), the one engine-facing form both are ([`HexCombatForm`], which names what
//! differs, and its blanket `SetForm`), the attackers' marks, the combat limits read from the log
//! ([`combat_breaches`], worded by each set's [`Texts`]) and the helpers both forms call (a CRT
//! cell kepi does not know asks the umpire for the printed result, [`ask_for_result`]). Each set's
//! own form is in its folder: `rules/spi/combat_form.rs`, `rules/fr1870/combat_form.rs`.

use serde::Serialize;

use kepi_game::dice::DiceSource;
use kepi_game::engine::game::Game;
use kepi_game::engine::game::{Action, Flag, FlagName, GameState, UnitState};
use kepi_game::engine::play::Resolved;
use kepi_game::engine::play::board::hex_in;
use kepi_game::engine::play::unit;
use kepi_game::roster::Position;
use kepi_game::rules::RuleError;

/// The acting unit and the units defending the target's hex (the target first), by id.
fn engaged(
    state: &GameState,
    actor: Option<&str>,
    target: Option<&str>,
) -> (Vec<String>, Vec<String>) {
    let attackers: Vec<String> = actor
        .and_then(|id| state.unit(id))
        .map(|u| vec![u.unit.id.clone()])
        .unwrap_or_default();
    let mut defenders = Vec::new();
    if let Some(t) = target.and_then(|id| state.unit(id)) {
        defenders.push(t.unit.id.clone());
        if matches!(t.position, Position::Hex { .. }) {
            for u in &state.units {
                if u.unit.id != t.unit.id
                    && u.position == t.position
                    && u.unit.side == t.unit.side
                    && !u.eliminated()
                {
                    defenders.push(u.unit.id.clone());
                }
            }
        }
    }
    (attackers, defenders)
}

/// SPI-C2 / FR-C1: the units in one attack on one hex: `attackers` (ids, all of one side, none
/// eliminated) against every enemy unit standing in `hex` (they all defend together). Refused: no
/// attacker, attackers of both sides, a hex that is not a hex of the map, a hex holding a unit of
/// the attackers' own side (an attack on a friendly hex), a hex with no enemy in it. Returns the
/// attackers and the defenders, by id, in roster order for the defenders.
pub fn engage_hex(
    state: &GameState,
    attackers: &[String],
    hex: Position,
) -> Result<(Vec<String>, Vec<String>), String> {
    let first = attackers
        .first()
        .ok_or_else(|| "no attacker: name them with --attackers A,B,...".to_string())?;
    let lead = state
        .unit(first)
        .ok_or_else(|| format!("no unit `{first}` in this game"))?;
    let mut ids = Vec::new();
    for id in attackers {
        let u = state
            .unit(id)
            .ok_or_else(|| format!("no unit `{id}` in this game"))?;
        if u.unit.side != lead.unit.side {
            return Err(format!(
                "{} ({}) and {} ({}) are on opposite sides: attackers attack together from one side",
                lead.unit.name, lead.unit.side, u.unit.name, u.unit.side
            ));
        }
        if u.eliminated() {
            return Err(format!("{} is eliminated and cannot attack", u.unit.name));
        }
        if !ids.contains(&u.unit.id) {
            ids.push(u.unit.id.clone());
        }
    }
    if !matches!(hex, Position::Hex { .. }) {
        return Err(format!(
            "`{hex}` is not a hex of the map (a hex label such as 0304)"
        ));
    }
    let here: Vec<&UnitState> = state
        .units
        .iter()
        .filter(|u| u.position == hex && !u.eliminated())
        .collect();
    if let Some(f) = here.iter().find(|u| u.unit.side == lead.unit.side) {
        return Err(format!(
            "hex {hex} holds {} of the attackers' own side ({}): a unit cannot attack a friendly hex",
            f.unit.name, lead.unit.side
        ));
    }
    let defenders: Vec<String> = here.iter().map(|u| u.unit.id.clone()).collect();
    if defenders.is_empty() {
        return Err(format!(
            "hex {hex} holds no enemy unit: there is nothing to attack"
        ));
    }
    Ok((ids, defenders))
}

pub(crate) fn units<'a>(
    state: &'a GameState,
    ids: &[String],
    field: &str,
) -> Result<Vec<&'a UnitState>, RuleError> {
    ids.iter().map(|id| unit(state, Some(id), field)).collect()
}

pub(crate) fn entered(e: &Option<String>) -> Option<&str> {
    e.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

/// SPI-C1, FR-C1: a rolled die on a chart cell kepi does not know, with no result entered: nothing
/// is applied or logged, and the error names the die, so the printed result is entered for the die
/// that produced it. Nothing moved the seeded dice, so the next roll with kepi's dice shows the
/// same face; physical dice are entered again with the result. (RULES.md, data provenance: an
/// `unknown` cell "asks the umpire to enter the result from the printed chart".)
pub(crate) fn ask_for_result(
    odds: &str,
    die: Option<u32>,
    modified: Option<i32>,
    valid: Option<&str>,
) -> RuleError {
    let die = match (die, modified) {
        (Some(d), Some(m)) if i64::from(d) != i64::from(m) => format!("d6={d} (modified {m})"),
        (Some(d), _) => format!("d6={d}"),
        _ => "the die".to_string(),
    };
    RuleError::input(
        "--result",
        format!(
            "the die shows {die}; kepi does not know the {odds} cell for it, so nothing was \
             applied: enter the result printed on your chart for this die and {}",
            kepi_game::rules::SAME_FACE
        ),
        valid
            .unwrap_or("the result printed on your chart")
            .to_string(),
    )
}

/// What SPI's and 1870's combat forms differ in, for the one engine-facing form both are (issue
/// 27: a built-in rule set goes through the same trait a registered one uses, its tables passed
/// in). The rest, the units engaged in one attack on one hex (SPI-C2, FR-C1), the combat limits
/// read from the log and the attackers added after a pick, is one piece of code for both.
pub trait HexCombatForm:
    Clone + std::fmt::Debug + Serialize + serde::de::DeserializeOwned + Send + Sync + 'static
{
    /// The form's tag in a save ("spi", "fr1870").
    const TAG: &'static str;
    /// How the game words its combat limits.
    fn texts(&self) -> &'static Texts;
    /// The acting unit and the target, by id.
    fn acting(&self) -> (Option<&str>, Option<&str>);
    /// Sets the acting unit and the target.
    fn set_acting(&mut self, actor: Option<String>, target: Option<String>);
    /// The attacking units and the defending ones, by id.
    fn engaged_ids(&self) -> (&[String], &[String]);
    /// SPI-R1, FR-C2: the owners' `--losses`.
    fn losses_mut(&mut self) -> &mut Vec<(String, u32)>;
    /// SPI-C1, FR-C1: the result typed for a cell kepi does not know.
    fn entered_result_mut(&mut self) -> &mut Option<String>;
    /// SPI-C1, FR-C1: why the result typed does not read as one of the game's chart, or None
    /// (nothing typed, or a result) ([`kepi_game::rules::crt::typed_result`], as `--result` reads it).
    fn typed_result_error(&self) -> Option<String>;
    /// SPI-C2, FR-C1: sets the units engaged from the game (see [`engage_hex`]).
    fn engage(&mut self, state: &GameState, attackers: &[String], defenders: &[String]);
    /// SPI-C2, FR-C1: sets the acting unit, the target and the units engaged with them.
    fn engage_acting(&mut self, state: &GameState, actor: Option<&str>, target: Option<&str>) {
        let (a, d) = engaged(state, actor, target);
        self.engage(state, &a, &d);
        self.set_acting(actor.map(str::to_string), target.map(str::to_string));
    }
    /// Why the combat is impossible now.
    fn combat_refusal(&self, state: &GameState) -> Option<String>;
    /// Resolves with the game's tables.
    fn resolve_in(
        &self,
        state: &GameState,
        tables: &kepi_game::rules::Tables,
        dice: Option<&mut DiceSource>,
    ) -> Result<Resolved, RuleError>;
    /// The situation panel.
    #[cfg(feature = "gui")]
    fn panel(&mut self, ui: &mut egui::Ui, state: &GameState);
    /// What the game's own text says against this combat beyond the limits both games share
    /// (1870 FR-F1, H5: a unit that stormed a fortress fighting in the following Combat Phase).
    /// By default nothing.
    fn own_breaches(&self, _game: &Game) -> Vec<String> {
        Vec::new()
    }
    /// Drops what the game's own form typed for one roll (1870's fortress choice), after
    /// [`kepi_game::engine::play::SetForm::clear_typed`]'s result and losses. By default nothing.
    fn clear_own_typed(&mut self) {}
}

/// What is the same in both games' combat forms: the accessors of their common fields (`actor`,
/// `target`, `attacker_ids`, `defender_ids`, `losses`, `entered_result`), the engagement from the
/// game (each form's `prefill_engaged`) and the resolution with the game's own table (`$tables`,
/// read from the tables in play).
macro_rules! hex_combat_fields {
    ($tables:ty) => {
        fn engage(
            &mut self,
            state: &kepi_game::engine::game::GameState,
            attackers: &[String],
            defenders: &[String],
        ) {
            self.prefill_engaged(state, attackers, defenders)
        }
        fn resolve_in(
            &self,
            state: &kepi_game::engine::game::GameState,
            tables: &kepi_game::rules::Tables,
            dice: Option<&mut kepi_game::dice::DiceSource>,
        ) -> Result<kepi_game::engine::play::Resolved, kepi_game::rules::RuleError> {
            self.resolve(state, tables.get::<$tables>(), dice)
        }
        fn acting(&self) -> (Option<&str>, Option<&str>) {
            (self.actor.as_deref(), self.target.as_deref())
        }
        fn set_acting(&mut self, actor: Option<String>, target: Option<String>) {
            (self.actor, self.target) = (actor, target);
        }
        fn engaged_ids(&self) -> (&[String], &[String]) {
            (&self.attacker_ids, &self.defender_ids)
        }
        fn losses_mut(&mut self) -> &mut Vec<(String, u32)> {
            &mut self.losses
        }
        fn entered_result_mut(&mut self) -> &mut Option<String> {
            &mut self.entered_result
        }
    };
}
pub(crate) use hex_combat_fields;

/// SPI's and 1870's combat form as the engine sees it: one attack on one hex (SPI-C2, FR-C1).
/// A trait of kepi-game's, implemented here for each game's form (`hex_combat_set_form!(SpiForm)`):
/// Rust takes no blanket impl of another crate's trait.
macro_rules! hex_combat_set_form {
    ($form:ty) => {
        impl kepi_game::engine::play::SetForm for $form {
            #[cfg(feature = "gui")]
            fn situation_ui(
                &mut self,
                ui: &mut egui::Ui,
                state: &kepi_game::engine::game::GameState,
            ) {
                self.panel(ui, state);
            }

            fn name(&self) -> &'static str {
                "combat"
            }

            fn units(&self) -> (Option<&str>, Option<&str>) {
                self.acting()
            }

            fn needs_target(&self) -> bool {
                true
            }

            fn prefill(
                &mut self,
                state: &kepi_game::engine::game::GameState,
                actor: Option<&str>,
                target: Option<&str>,
                _tables: &kepi_game::rules::Tables,
            ) {
                self.engage_acting(state, actor, target)
            }

            fn refusal(&self, state: &kepi_game::engine::game::GameState) -> Option<String> {
                self.combat_refusal(state)
            }

            fn unreadable(&self) -> Option<String> {
                self.typed_result_error()
                    .map(|e| format!("result from your printed chart: {e}"))
            }

            fn resolve(
                &self,
                state: &kepi_game::engine::game::GameState,
                tables: &kepi_game::rules::Tables,
                dice: Option<&mut kepi_game::dice::DiceSource>,
            ) -> Result<kepi_game::engine::play::Resolved, kepi_game::rules::RuleError> {
                let rolling = dice.is_some();
                let (res, mut fx) = self.resolve_in(state, tables, dice)?;
                if rolling {
                    fx.extend($crate::board::form::attacked_marks(
                        state,
                        self.engaged_ids().0,
                    ));
                }
                Ok((res, fx))
            }

            fn breaches(
                &self,
                game: &kepi_game::engine::game::Game,
                _tables: &kepi_game::rules::Tables,
            ) -> Vec<String> {
                let (a, d) = self.engaged_ids();
                let mut out = $crate::board::form::combat_breaches(game, a, d, self.texts());
                out.extend(self.own_breaches(game));
                out
            }

            fn engaged(&self) -> Option<(&[String], &[String])> {
                Some(self.engaged_ids())
            }

            fn with_attackers(
                &mut self,
                state: &kepi_game::engine::game::GameState,
                extra: &[String],
            ) {
                let (ids, defenders) = self.engaged_ids();
                if let Some(all) = $crate::board::form::more_attackers(state, ids, extra) {
                    let defenders = defenders.to_vec();
                    let (a, t) = self.acting();
                    let (a, t) = (a.map(str::to_string), t.map(str::to_string));
                    self.engage(state, &all, &defenders);
                    self.set_acting(a, t);
                }
            }

            fn clear_typed(&mut self) {
                *self.entered_result_mut() = None;
                self.losses_mut().clear();
                self.clear_own_typed();
            }

            fn to_value(&self) -> serde_json::Value {
                kepi_game::engine::play::tagged_value(
                    <$form as $crate::board::form::HexCombatForm>::TAG,
                    self,
                )
            }

            fn with_value(
                &self,
                v: &serde_json::Value,
            ) -> Option<Box<dyn kepi_game::engine::play::SetForm>> {
                kepi_game::engine::play::from_tagged::<$form>(
                    <$form as $crate::board::form::HexCombatForm>::TAG,
                    v,
                )
                .map(|f| Box::new(f) as Box<dyn kepi_game::engine::play::SetForm>)
            }

            fn boxed_clone(&self) -> Box<dyn kepi_game::engine::play::SetForm> {
                Box::new(self.clone())
            }
        }
    };
}
pub(crate) use hex_combat_set_form;

/// SPI-C2 case C, FR-C1 E3: each attacker (`ids`) has attacked this combat phase, marked as
/// fired (issue 46): the checklist, the roster's "still to act" and `kepi game checklist` read the
/// mark ([`kepi_game::engine::flow::activity::board_still_to_act`]), as the breach check reads the log.
pub(crate) fn attacked_marks(state: &GameState, ids: &[String]) -> Vec<Action> {
    ids.iter()
        .filter_map(|id| state.unit(id))
        .map(|u| Action::SetFlag {
            unit: u.unit.id.clone(),
            flag: Flag::Fired.into(),
            on: true,
        })
        .collect()
}

/// True for an attacker's mark ([`attacked_marks`]) in a combat's effects: what SPI and 1870
/// record since issue 46 (`kepi log verify` takes a combat logged before without them).
pub(crate) fn is_attacked_mark(action: &str, effect: &Action) -> bool {
    action == "combat"
        && matches!(
            effect,
            Action::SetFlag {
                flag: FlagName::Flag(Flag::Fired),
                on: true,
                ..
            }
        )
}

/// The engine plumbing of a one-unit form of SPI or 1870 besides the combat (SPI-I1, SPI-E1,
/// SPI-T1, SPI-H2, FR-G1, FR-K1), the same for each: the acting unit alone and no target; with a
/// tag and the form's type, saved under that tag.
macro_rules! one_unit_form {
    () => {
        fn units(&self) -> (Option<&str>, Option<&str>) {
            (self.actor.as_deref(), None)
        }

        fn needs_target(&self) -> bool {
            false
        }

        fn boxed_clone(&self) -> Box<dyn kepi_game::engine::play::SetForm> {
            Box::new(self.clone())
        }
    };
    ($tag:literal, $ty:ty) => {
        $crate::board::form::one_unit_form!();

        fn to_value(&self) -> serde_json::Value {
            kepi_game::engine::play::tagged_value($tag, self)
        }

        fn with_value(
            &self,
            v: &serde_json::Value,
        ) -> Option<Box<dyn kepi_game::engine::play::SetForm>> {
            kepi_game::engine::play::from_tagged::<$ty>($tag, v)
                .map(|f| Box::new(f) as Box<dyn kepi_game::engine::play::SetForm>)
        }
    };
}
pub(crate) use one_unit_form;

/// SPI-C2, FR-C1: the attackers `ids` with the units of `extra` of the lead attacker's side still
/// fighting, or None when that adds nobody (others are left out, not refused: a pick may go stale).
pub(crate) fn more_attackers(
    state: &GameState,
    ids: &[String],
    extra: &[String],
) -> Option<Vec<String>> {
    let lead = ids.first().and_then(|id| state.unit(id))?;
    let mut all = ids.to_vec();
    for e in extra {
        if let Some(u) = state.unit(e)
            && u.unit.side == lead.unit.side
            && !u.eliminated()
            && !all.contains(&u.unit.id)
        {
            all.push(u.unit.id.clone());
        }
    }
    (all != ids).then_some(all)
}

/// How one board game words its combat limits.
pub struct Texts {
    /// The adjacency rule, cited.
    pub adjacent: &'static str,
    /// The once-per-phase rule for attackers, cited.
    pub attack_once: &'static str,
    /// The once-per-phase rule for defenders, cited.
    pub attacked_once: &'static str,
    /// True when a unit that defended may not attack (1870 E3: "offensively or defensively").
    pub fights_once: bool,
}

/// The attackers and defenders (ids) of each hex combat in effect this turn and phase.
fn combats_this_phase(game: &Game) -> Vec<(Vec<String>, Vec<String>)> {
    let s = game.state();
    let ids = |v: &serde_json::Value, key: &str| -> Vec<String> {
        v.get(key)
            .and_then(|a| a.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    game.in_effect()
        .rev()
        .take_while(|e| e.entry.turn == s.turn && e.entry.phase == s.phase_name())
        .filter_map(|e| match e.action {
            Action::Resolved {
                resolution,
                input: Some(input),
                ..
            } if resolution.action == "combat" => {
                Some((ids(input, "attacker_ids"), ids(input, "defender_ids")))
            }
            _ => None,
        })
        .collect()
}

pub(crate) fn combat_breaches(
    game: &Game,
    attackers: &[String],
    defenders: &[String],
    t: &Texts,
) -> Vec<String> {
    let s = game.state();
    let mut out = Vec::new();
    let layout = s.system.hex_layout();
    let unit = |id: &String| s.unit(id);
    let defending = defenders.iter().filter_map(unit).next();
    let hex = defending.map(|d| d.position);
    for a in attackers.iter().filter_map(unit) {
        match (
            hex_in(a.position, layout),
            hex.and_then(|h| hex_in(h, layout)),
        ) {
            (None, Some(_)) => out.push(format!(
                "{} is not on the map ({}): it is next to no hex ({})",
                a.unit.name, a.position, t.adjacent
            )),
            (Some(from), Some(to)) if from.distance(to) != 1 => out.push(format!(
                "{} in {} is {} hexes from {} ({})",
                a.unit.name,
                a.position,
                from.distance(to),
                hex.map(|h| h.to_string()).unwrap_or_default(),
                t.adjacent
            )),
            _ => {}
        }
    }
    let before = combats_this_phase(game);
    let attacked = |id: &str| before.iter().any(|(a, _)| a.iter().any(|x| x == id));
    let defended = |id: &str| before.iter().any(|(_, d)| d.iter().any(|x| x == id));
    for a in attackers.iter().filter_map(unit) {
        if attacked(a.id()) {
            out.push(format!(
                "{} has already attacked this combat phase ({})",
                a.unit.name, t.attack_once
            ));
        } else if t.fights_once && defended(a.id()) {
            out.push(format!(
                "{} has already defended this combat phase ({})",
                a.unit.name, t.attack_once
            ));
        }
    }
    for d in defenders.iter().filter_map(unit).filter(|d| fights(d)) {
        if defended(d.id()) {
            out.push(format!(
                "{} has already been attacked this combat phase ({})",
                d.unit.name, t.attacked_once
            ));
        } else if t.fights_once && attacked(d.id()) {
            out.push(format!(
                "{} has already attacked this combat phase ({})",
                d.unit.name, t.attacked_once
            ));
        }
    }
    out
}

/// A unit that fights in a hex combat (not a fortress card, an EB unit or a dummy).
fn fights(u: &UnitState) -> bool {
    !matches!(
        u.unit.arm,
        kepi_game::roster::Arm::Fortress
            | kepi_game::roster::Arm::Railway
            | kepi_game::roster::Arm::Dummy
    )
}

/// What the sets' combat-form tests share: a built-in scenario as a game, and a time after it.
#[cfg(test)]
pub(crate) mod testing {
    use chrono::{TimeZone, Utc};
    use kepi_game::engine::game::{Game, SeedSecret};
    use kepi_game::registry::builtin_scenario;
    use kepi_game::rules::RuleSetId;

    /// The built-in scenario `name` as a new game of `system`, seeded.
    pub(crate) fn game(name: &str, system: RuleSetId) -> Game {
        let s = builtin_scenario(name).unwrap();
        Game::new(
            &s,
            system,
            SeedSecret {
                seed: 3,
                salt: "t".into(),
            },
            Utc.timestamp_opt(1_000_000, 0).single().unwrap(),
        )
    }

    /// A time after the game was made.
    pub(crate) fn now() -> chrono::DateTime<Utc> {
        Utc.timestamp_opt(1_000_010, 0).single().unwrap()
    }
}
