//! SPI's resolver forms besides the combat (which SPI shares with 1870 in
//! [`crate::rules::board::form`]): a French unit raised at Chalons with the reinforcing combat
//! points (SPI-I1). Its situation panel is here too, behind the `gui` feature, as a rule set
//! added at run time would write it.

use serde::{Deserialize, Serialize};

use crate::dice::DiceSource;
use crate::engine::game::{Action, GameState};
use crate::engine::play::refuse::name;
use crate::engine::play::{Resolved, SetForm, done, from_tagged, tagged_value, unit};
use crate::roster::Side;
use crate::rules::{RuleError, Tables};

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

impl SetForm for RaiseForm {
    fn name(&self) -> &'static str {
        "raise"
    }

    fn units(&self) -> (Option<&str>, Option<&str>) {
        (self.actor.as_deref(), None)
    }

    fn needs_target(&self) -> bool {
        false
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

    fn dice_used(&self) -> &'static [crate::dice::Die] {
        &[]
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
                        .range(0..=crate::rules::spi::CHALONS_RAISE_CAP)
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

    fn to_value(&self) -> serde_json::Value {
        tagged_value("spi-raise", self)
    }

    fn with_value(&self, v: &serde_json::Value) -> Option<Box<dyn SetForm>> {
        from_tagged::<RaiseForm>("spi-raise", v).map(|f| Box::new(f) as Box<dyn SetForm>)
    }

    fn boxed_clone(&self) -> Box<dyn SetForm> {
        Box::new(self.clone())
    }
}
