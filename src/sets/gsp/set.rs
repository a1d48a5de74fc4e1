//! Graveyard St. Privat (artillery) in the rule-set registry ([`kepi_game::registry`]).

use serde_json::Value;

use super::outcome::GspOutcome;
use kepi_game::engine::flow::checklist::List;
use kepi_game::engine::flow::{Event, Queue};
use kepi_game::engine::game::clock::{Phase, Step};
use kepi_game::engine::game::{Flag, GameState, UnitState};
use kepi_game::engine::play::Form;
use kepi_game::engine::rule_set::RuleSet;
use kepi_game::roster::{Arm, Side};
use kepi_game::rules::{Outcome, RuleId, outcome::typed};

/// Graveyard St. Privat, artillery (d6, 2d6 drift).
pub struct GspRules;

impl RuleSet for GspRules {
    fn table(&self) -> Option<kepi_game::tables::TableFile> {
        Some(kepi_game::tables::TableFile::of::<crate::gsp::GspTables>())
    }

    fn id(&self) -> &'static str {
        "gsp"
    }

    /// Issue 43: the unit card, declared in `card.rs`.
    fn card_spec(&self) -> kepi_game::roster::spec::CardSpec {
        super::card::spec()
    }

    fn title(&self) -> &'static str {
        "Graveyard St. Privat (artillery)"
    }

    fn grammar(&self) -> Option<kepi_game::engine::verbs::Grammar> {
        let about = "Graveyard St. Privat artillery (d6, 2d6 accuracy of aim)";
        Some(kepi_game::engine::verbs::Grammar::of(
            about,
            super::grammar::run,
        ))
    }

    /// GSP-A4 gives only the artillery step (after rifle fire, both sides at once); the rest of the
    /// turn is kepi's reading (house): movement, rifle fire, artillery fire, close combat.
    fn phases(&self, _sides: &[Side]) -> Vec<Phase> {
        [
            Step::Movement,
            Step::RifleFire,
            Step::ArtilleryFire,
            Step::CloseCombat,
        ]
        .map(Phase::both)
        .to_vec()
    }

    fn turn_rule(&self) -> RuleId {
        RuleId::new("GSP-A4")
    }

    fn noted_since_issue_42(&self) -> &'static [&'static str] {
        super::form::NOTED_SINCE_ISSUE_42
    }

    /// GSP-A4: limbered guns; moved and fired.
    fn flags(&self) -> &'static [Flag] {
        &[Flag::Limbered, Flag::Moved, Flag::Fired]
    }

    /// GSP-S1: hidden guns.
    fn unit_markers(&self) -> &'static [kepi_game::engine::game::UnitMarkerKind] {
        super::marks::UNIT_MARKERS
    }

    /// GSP-S1: a siege gun begins hidden.
    fn initial_marks(&self, unit: &kepi_game::roster::Unit) -> Vec<&'static str> {
        if unit.weapon == Some(kepi_game::roster::Weapon::SiegeGun) {
            vec![super::marks::HIDDEN.name]
        } else {
            Vec::new()
        }
    }

    /// GSP-A3: fire drifts (the window's drift diagram).
    fn has_drift(&self) -> bool {
        true
    }

    #[cfg(feature = "gui")]
    fn drift_ui(
        &self,
        ui: &mut egui::Ui,
        game: &kepi_game::engine::game::Game,
        form: Option<&Form>,
        tables: &kepi_game::rules::Tables,
    ) {
        super::panel::drift_ui(ui, game, form, tables);
    }

    fn strength_unit(&self, _arm: Arm) -> &'static str {
        "figures"
    }

    fn forms(&self) -> Vec<Form> {
        crate::gsp::form::GspForm::all()
            .into_iter()
            .map(Form::new)
            .collect()
    }

    /// `kepi game apply`'s verbs of the forms (`verbs.rs`).
    fn verb_specs(&self) -> &'static [kepi_game::engine::verbs::VerbSpec] {
        super::verbs::SPECS
    }

    /// GSP-A4: the artillery fires in its own step.
    fn form_steps(&self, form: &str) -> &'static [Step] {
        match form {
            "artillery" => &[Step::ArtilleryFire],
            _ => &[],
        }
    }

    /// GSP-A4: guns that did not move or unlimber fire in the artillery phase.
    fn still_to_act(&self, _s: &GameState, phase: Option<Phase>, u: &UnitState) -> bool {
        let guns = u.unit.arm == Arm::Artillery;
        match phase.map(|p| p.step) {
            Some(Step::Movement) => !u.moved,
            Some(Step::RifleFire) => !guns && !u.fired,
            Some(Step::ArtilleryFire) => {
                guns && !u.moved && !u.limbered && !u.fired && !u.carries(&super::marks::HIDDEN)
            }
            _ => false,
        }
    }

    fn outcome(&self, action: &str, v: &Value) -> Option<Outcome> {
        let o = match action {
            "structure" => typed(v).map(GspOutcome::Structure),
            "fire" => typed(v).map(|o| GspOutcome::Fire(Box::new(o))),
            _ => None,
        };
        o.map(Outcome::new)
    }

    fn checks(&self, ev: &Event, q: &mut Queue) {
        super::checks::checks(ev, q);
    }

    fn checklist(&self, l: &mut List) {
        super::checklist::steps(l);
    }

    fn scenarios(&self) -> &'static [(&'static str, &'static str)] {
        &[(
            "st-privat.toml",
            include_str!("../../../unit-cards/scenarios/st-privat.toml"),
        )]
    }
}
