//! SPI's resolver forms besides the combat (which is [`super::combat_form`], on what SPI shares
//! with 1870 in [`crate::board::form`]): a French unit raised at Chalons with the reinforcing combat
//! points (SPI-I1). Its situation panel is here too, behind the `gui` feature, as a rule set
//! added at run time would write it.

use serde::{Deserialize, Serialize};

use crate::board::form::one_unit_form;
use kepi_game::dice::DiceSource;
use kepi_game::engine::game::{Action, GameState};
use kepi_game::engine::play::refuse::name;
use kepi_game::engine::play::{Resolved, SetForm, done, from_tagged, tagged_value, unit};
use kepi_game::roster::Side;
use kepi_game::rules::{RuleError, Tables};

/// SPI-I1: "A French Combat unit with a Combat Strength of six ... may be raised to a Combat
/// Strength of eight ... There would be two reinforcing Combat Points remaining": the unit, its
/// strength now (from the game) and the reinforcing CP the umpire has to spend.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RaiseForm {
    /// The unit raised.
    pub actor: Option<String>,
    /// Its combat strength now.
    pub strength: u32,
    /// Reinforcing combat points to spend (the turn's reinforcement chart).
    pub pool: u32,
}

/// SPI-I1 as printed: the reinforcing points and when they come.
const RAISE_TEXT: &str = "\"The four French Combat Point reinforcements in Game-Turn 6 may be used \
                          by the French Player only in raising the Combat Strength of existing \
                          units\"";
/// The Game-Turn the reinforcing points arrive in (SPI-I1, the Reinforcement Chart's Aug. 16-18).
pub const RAISE_TURN: u32 = 6;
/// The reinforcing points of the whole game (SPI-I1: "+4").
pub const RAISE_POOL: u32 = 4;
/// SPI-H2 (E) as printed.
const RAIL_CONCENTRATED: &str =
    "\"Units may move by rail only when in a Concentrated Formation Status\"";

/// The notes of SPI's forms and moves kepi gives since issue 42's audit (earlier kepis did not):
/// `kepi log verify` takes an entry logged without them.
pub const NOTED_SINCE_ISSUE_42: &[&str] = &[
    RAISE_TEXT,
    RAIL_CONCENTRATED,
    crate::board::moves::STILL_HELD,
];

/// SPI-I1 (issue 42's audit): a raise before Game-Turn 6, when the four reinforcing Combat
/// Points arrive, and a raise spending `pool` points when fewer are left of the four over the game
/// (the earlier raises in effect, each its outcome's rise).
pub fn raise_breaches(game: &kepi_game::engine::game::Game, pool: u32) -> Vec<String> {
    let s = game.state();
    let mut out = Vec::new();
    if s.turn < RAISE_TURN {
        out.push(format!(
            "a raise in Game-Turn {}, before the reinforcing Combat Points arrive in Game-Turn \
             {RAISE_TURN} (SPI-I1: {RAISE_TEXT})",
            s.turn
        ));
    }
    let used: u32 = game
        .in_effect()
        .filter_map(|e| match e.action {
            Action::Resolved { resolution, .. } if resolution.action == "raise" => {
                let o = resolution.outcome.as_ref()?;
                let from = o.get("from")?.as_u64()?;
                let to = o.get("to")?.as_u64()?;
                u32::try_from(to.saturating_sub(from)).ok()
            }
            _ => None,
        })
        .fold(0u32, u32::saturating_add);
    let left = RAISE_POOL.saturating_sub(used);
    if pool > left {
        out.push(format!(
            "a raise from {pool} reinforcing Combat Points, when {left} of the game's \
             {RAISE_POOL} are left ({used} spent) (SPI-I1: {RAISE_TEXT})"
        ));
    }
    out
}

/// SPI-H2 (optional rule, Case E): entraining while in Extended Formation Status.
fn entrain_extended(u: &kepi_game::engine::game::UnitState) -> Option<String> {
    u.flag(kepi_game::engine::game::Flag::Extended).then(|| {
        format!(
            "{} entrains in Extended Formation Status (SPI-H2, Formation Case E: \
             {RAIL_CONCENTRATED})",
            u.unit.name
        )
    })
}

impl SetForm for RaiseForm {
    one_unit_form!("spi-raise", RaiseForm);

    fn name(&self) -> &'static str {
        "raise"
    }

    fn prefill(
        &mut self,
        state: &GameState,
        actor: Option<&str>,
        _target: Option<&str>,
        _tables: &Tables,
    ) {
        self.actor = actor.map(str::to_string);
        if let Some(u) = actor.and_then(|id| state.unit(id)) {
            self.strength = u.strength;
        }
    }

    /// Only a French unit still in the game is raised (the reinforcing points are French).
    fn refusal(&self, state: &GameState) -> Option<String> {
        let u = state.unit(self.actor.as_deref()?)?;
        if u.unit.side != Side::French {
            return Some(format!(
                "{} is {}: only French units are raised with reinforcing combat points (SPI-I1)",
                name(u),
                u.unit.side
            ));
        }
        if u.eliminated() {
            return Some(format!("{} is eliminated and cannot be raised", name(u)));
        }
        None
    }

    fn dice_used(&self) -> &'static [kepi_game::dice::Die] {
        &[]
    }

    /// Issue 42's audit: a raise before the reinforcing points arrive (Game-Turn 6) or spending
    /// more than the pool has left over the game ([`raise_breaches`]).
    fn breaches(
        &self,
        game: &kepi_game::engine::game::Game,
        _tables: &kepi_game::rules::Tables,
    ) -> Vec<String> {
        raise_breaches(game, self.pool)
    }

    fn resolve(
        &self,
        state: &GameState,
        _tables: &Tables,
        _dice: Option<&mut DiceSource>,
    ) -> Result<Resolved, RuleError> {
        let u = unit(state, self.actor.as_deref(), "unit")?;
        let res = super::raise(self.strength, self.pool);
        let mut fx = Vec::new();
        if let Some(o) = &res.outcome
            && o.to > u.strength
        {
            fx.push(Action::GainStrength {
                unit: u.unit.id.clone(),
                n: o.to - u.strength,
            });
        }
        Ok(done(res, fx))
    }

    #[cfg(feature = "gui")]
    fn situation_ui(&mut self, ui: &mut egui::Ui, _state: &GameState) {
        ui.horizontal(|ui| {
            ui.push_id("spi.raise.strength", |ui| {
                ui.add(
                    egui::DragValue::new(&mut self.strength)
                        .range(0..=crate::spi::CHALONS_RAISE_CAP)
                        .prefix("CP now "),
                );
            });
            ui.push_id("spi.raise.pool", |ui| {
                ui.add(
                    egui::DragValue::new(&mut self.pool)
                        .range(0..=99)
                        .prefix("reinforcing CP "),
                );
            });
        });
        ui.label(
            egui::RichText::new(
                "SPI-I1: raised at Chalons up to 8 CP; what is left stays in the pool",
            )
            .weak(),
        );
    }
}

/// SPI-E1 in play: an EB unit crossing a river hexside while opening an enemy rail line rolls a
/// d6: "If the die-roll result is a 1, 2, or 3, it may continue to move along the rail line ...
/// If the die-roll result is a 4, 5, or 6, the EB unit must stop, and move no further in the
/// Movement Phase." The roll is logged with the unit; a later move of it in the same phase is a
/// note ([`crate::spi::moves::move_breaches`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EbForm {
    /// The EB unit.
    pub actor: Option<String>,
}

impl SetForm for EbForm {
    one_unit_form!("spi-eb", EbForm);

    fn name(&self) -> &'static str {
        "eb"
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

    /// SPI-E1: only an EB unit (arm "railway") rolls.
    fn refusal(&self, state: &GameState) -> Option<String> {
        let u = state.unit(self.actor.as_deref()?)?;
        if u.unit.arm != kepi_game::roster::Arm::Railway {
            return Some(format!(
                "{} is not an EB unit: only EB units roll to cross a river hexside (SPI-E1)",
                name(u)
            ));
        }
        if u.eliminated() {
            return Some(format!("{} is not in the game", name(u)));
        }
        None
    }

    fn dice_used(&self) -> &'static [kepi_game::dice::Die] {
        &[kepi_game::dice::Die::D6]
    }

    /// SPI-E1: a second roll in the phase after a 4-6 (it "must stop").
    fn breaches(
        &self,
        game: &kepi_game::engine::game::Game,
        _tables: &kepi_game::rules::Tables,
    ) -> Vec<String> {
        match self.actor.as_deref().and_then(|id| game.state().unit(id)) {
            Some(u) if crate::spi::moves::eb_stopped(game, &u.unit.id) => {
                vec![format!(
                    "{} already rolled 4-6 at a river this phase (SPI-E1: it \"must stop, and move no \
                 further in the Movement Phase\")",
                    u.unit.name
                )]
            }
            _ => Vec::new(),
        }
    }

    fn resolve(
        &self,
        state: &GameState,
        tables: &Tables,
        dice: Option<&mut DiceSource>,
    ) -> Result<Resolved, RuleError> {
        unit(state, self.actor.as_deref(), "EB unit")?;
        let res = super::eb_river(tables.get::<crate::spi::SpiTables>(), dice)?;
        Ok(done(res, Vec::new()))
    }

    #[cfg(feature = "gui")]
    fn situation_ui(&mut self, ui: &mut egui::Ui, _state: &GameState) {
        ui.label(
            egui::RichText::new(
                "SPI-E1: an EB unit crossing a river hexside: d6 1-3 continues, 4-6 stops for the \
                 Movement Phase",
            )
            .weak(),
        );
    }
}

/// SPI-T1 (rail movement) and SPI-H2 (formation) in play: a unit entrains (3 MP, the marker on),
/// detrains (2 MP, the marker off) or changes formation status (4 MP). The points are logged with
/// the unit and counted against its allowance with its moves
/// ([`crate::spi::moves::spent_this_phase`]); over it, or over the side's entrained units, or next
/// to the enemy, is a note.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SpendForm {
    /// What costs the points.
    pub kind: super::movement::Spend,
    /// The unit.
    pub actor: Option<String>,
    /// Its side as the text names the player (from the card in a game).
    pub nation: Option<super::Nation>,
    /// Its supply state (from the game; supplied when not given).
    pub supply: Option<super::SupplyState>,
    /// Movement points it spent before this in the phase (the umpire's, in `kepi resolve`; the
    /// game counts its own from the log for the notes).
    pub spent: u32,
}

impl SpendForm {
    /// An empty form of one kind.
    pub fn of(kind: super::movement::Spend) -> SpendForm {
        SpendForm {
            kind,
            ..SpendForm::default()
        }
    }

    fn tag(&self) -> &'static str {
        match self.kind {
            super::movement::Spend::Entrain => "spi-entrain",
            super::movement::Spend::Detrain => "spi-detrain",
            super::movement::Spend::Formation => "spi-formation",
        }
    }
}

impl SetForm for SpendForm {
    one_unit_form!();

    fn name(&self) -> &'static str {
        self.kind.action()
    }

    fn prefill(
        &mut self,
        state: &GameState,
        actor: Option<&str>,
        _target: Option<&str>,
        _tables: &Tables,
    ) {
        self.actor = actor.map(str::to_string);
        if let Some(u) = actor.and_then(|id| state.unit(id)) {
            self.nation = Some(crate::spi::moves::nation(u.unit.side));
            self.supply = Some(crate::spi::moves::supply_in_play(state, u).0);
        }
    }

    /// The impossible: a fortification never moves; an EB unit has no formation status; a unit
    /// entrains only when not entrained and detrains only when entrained.
    fn refusal(&self, state: &GameState) -> Option<String> {
        use super::movement::Spend;
        use kepi_game::roster::Arm;
        let u = state.unit(self.actor.as_deref()?)?;
        if u.eliminated() {
            return Some(format!("{} is not in the game", name(u)));
        }
        match (self.kind, u.unit.arm) {
            (Spend::Formation, Arm::Railway | Arm::Fortress) => {
                return Some(format!(
                    "{} is not a combat unit: only combat units and dummies have a formation \
                     status (SPI-H2)",
                    name(u)
                ));
            }
            (_, Arm::Fortress) => {
                return Some(format!(
                    "{} is a fortification: \"A Fortification Counter may never be moved from \
                     its initial placement\" (SPI-T1, Movement Case A)",
                    name(u)
                ));
            }
            _ => {}
        }
        match (self.kind, u.carries(&crate::spi::marks::ENTRAINED)) {
            (Spend::Entrain, true) => Some(format!("{} is already entrained", name(u))),
            (Spend::Detrain, false) => Some(format!("{} is not entrained", name(u))),
            _ => None,
        }
    }

    fn dice_used(&self) -> &'static [kepi_game::dice::Die] {
        &[]
    }

    fn breaches(
        &self,
        game: &kepi_game::engine::game::Game,
        _tables: &kepi_game::rules::Tables,
    ) -> Vec<String> {
        match self.actor.as_deref().and_then(|id| game.state().unit(id)) {
            Some(u) => {
                let mut out = crate::spi::moves::spend_breaches(game, u, self.kind);
                if self.kind == super::movement::Spend::Entrain {
                    out.extend(entrain_extended(u));
                }
                out
            }
            None => Vec::new(),
        }
    }

    fn resolve(
        &self,
        state: &GameState,
        _tables: &Tables,
        _dice: Option<&mut DiceSource>,
    ) -> Result<Resolved, RuleError> {
        use super::movement::Spend;
        let u = unit(state, self.actor.as_deref(), "unit")?;
        let nation = self
            .nation
            .unwrap_or_else(|| crate::spi::moves::nation(u.unit.side));
        let res = super::movement::spend(
            self.kind,
            nation,
            self.supply.unwrap_or(super::SupplyState::Supplied),
            self.spent,
        );
        use kepi_game::engine::game::{Flag, FlagName};
        // SPI-H2: a formation change turns extended into concentrated and back, recorded so the
        // unit's combats and the unit editor read it.
        let (flag, on) = match self.kind {
            Spend::Entrain => (FlagName::mark(&crate::spi::marks::ENTRAINED), true),
            Spend::Detrain => (FlagName::mark(&crate::spi::marks::ENTRAINED), false),
            Spend::Formation => (Flag::Extended.into(), !u.flag(Flag::Extended)),
        };
        let fx = vec![Action::SetFlag {
            unit: u.unit.id.clone(),
            flag,
            on,
        }];
        Ok(done(res, fx))
    }

    #[cfg(feature = "gui")]
    fn situation_ui(&mut self, ui: &mut egui::Ui, _state: &GameState) {
        let (mp, _) = self.kind.cost();
        let text = match self.kind {
            super::movement::Spend::Entrain => format!(
                "SPI-T1 rail movement: entraining costs {mp} MP (errata); French one, German two \
                 entrained units a Movement Phase"
            ),
            super::movement::Spend::Detrain => {
                format!("SPI-T1 rail movement: detraining costs {mp} MP (errata)")
            }
            super::movement::Spend::Formation => {
                format!("SPI-H2: changing formation status costs {mp} MP")
            }
        };
        ui.label(egui::RichText::new(text).weak());
    }

    fn to_value(&self) -> serde_json::Value {
        tagged_value(self.tag(), self)
    }

    fn with_value(&self, v: &serde_json::Value) -> Option<Box<dyn SetForm>> {
        from_tagged::<SpendForm>(self.tag(), v)
            .filter(|f| f.kind == self.kind)
            .map(|f| Box::new(f) as Box<dyn SetForm>)
    }
}
