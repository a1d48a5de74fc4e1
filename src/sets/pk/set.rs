//! Pickelhaube & Kepi in the rule-set registry ([`kepi_game::registry`]).

use serde_json::Value;

use super::outcome::PkOutcome;
use kepi_game::engine::flow::checklist::List;
use kepi_game::engine::flow::{Event, Queue};
use kepi_game::engine::game::clock::{Phase, Step};
use kepi_game::engine::game::{Action, Counter, Flag, GameState, MAX_MELEES, UnitState};
use kepi_game::engine::play::Form;
use kepi_game::engine::rule_set::RuleSet;
use kepi_game::roster::{Arm, Quality, Side};
use kepi_game::rules::Tables;
use kepi_game::rules::{Outcome, RuleId, outcome::typed};

/// Pickelhaube & Kepi (d10, d%).
pub struct PkRules;

impl RuleSet for PkRules {
    fn table(&self) -> Option<kepi_game::tables::TableFile> {
        Some(kepi_game::tables::TableFile::of::<crate::pk::PkTables>())
    }

    fn id(&self) -> &'static str {
        "pk"
    }

    /// A campaign's battle may be fought with P&K (issue 30).
    fn campaign_part(&self) -> Option<kepi_game::engine::rule_set::CampaignPart> {
        Some(kepi_game::engine::rule_set::CampaignPart::Battle)
    }

    fn campaign_strength_column(&self) -> Option<&'static str> {
        Some("pk_figures")
    }

    /// Issue 43: the unit card, declared in `card.rs`.
    fn card_spec(&self) -> kepi_game::roster::spec::CardSpec {
        super::card::spec()
    }

    fn title(&self) -> &'static str {
        "Pickelhaube & Kepi"
    }

    fn grammar(&self) -> Option<kepi_game::engine::verbs::Grammar> {
        let about = "Pickelhaube & Kepi (d10, d%)";
        Some(kepi_game::engine::verbs::Grammar::of(
            about,
            super::grammar::run,
        ))
    }

    /// PK-T1: four parts (movement and fire, melee, unit morale, army morale), both sides at once.
    fn phases(&self, _sides: &[Side]) -> Vec<Phase> {
        [
            Step::MovementAndFire,
            Step::Melee,
            Step::UnitMorale,
            Step::ArmyMorale,
        ]
        .map(Phase::both)
        .to_vec()
    }

    fn turn_rule(&self) -> RuleId {
        RuleId::new("PK-T1")
    }

    /// PK-F1 d10 scores, PK-L1 d% for leaders.
    fn dice(&self) -> &'static [kepi_game::dice::Die] {
        &[kepi_game::dice::Die::D10, kepi_game::dice::Die::Pct]
    }

    /// P&K's disorder and limber (PK-D1, PK-A2); moved and fired.
    fn flags(&self) -> &'static [Flag] {
        &[Flag::Disordered, Flag::Limbered, Flag::Moved, Flag::Fired]
    }

    /// P&K's muddle and lost flag (PK-D1, PK-X4).
    fn unit_markers(&self) -> &'static [kepi_game::engine::game::UnitMarkerKind] {
        super::marks::UNIT_MARKERS
    }

    /// Fatigue and leaders (PK-X5, PK-L1) besides strength.
    fn counters(&self) -> &'static [Counter] {
        &[Counter::Strength, Counter::Fatigue, Counter::Leaders]
    }

    /// PK-E1: effectiveness levels.
    fn has_levels(&self) -> bool {
        true
    }

    /// PK-C1: elite, veteran, line.
    fn qualities(&self) -> &'static [Quality] {
        super::card::CLASSES
    }

    /// PK-L1: 3 leaders per unit or gun.
    fn default_leaders(&self, arm: Arm) -> u32 {
        match arm {
            Arm::Infantry | Arm::Cavalry | Arm::Artillery | Arm::Engineers => 3,
            _ => 0,
        }
    }

    fn strength_unit(&self, arm: Arm) -> &'static str {
        if arm == Arm::Artillery {
            "points"
        } else {
            "figures"
        }
    }

    /// PK-X5: the fatigue track printed on cards.
    fn fatigue_max(&self) -> u32 {
        12
    }

    /// PK-M1, PK-F1, PK-A1: move (charge) and range.
    fn move_and_range(&self, u: &UnitState, t: &Tables) -> (Option<String>, Option<String>) {
        use crate::pk::TroopKind;
        let kind = match u.unit.arm {
            Arm::Cavalry => TroopKind::Cavalry,
            Arm::Artillery => TroopKind::FootArtillery,
            _ if u.unit.formation == Some(kepi_game::roster::Formation::Skirmish) => {
                TroopKind::SkirmishInfantry
            }
            _ => TroopKind::FormedInfantry,
        };
        let (normal, charge) =
            crate::pk::movement::move_rates(kind, t.get::<crate::pk::PkTables>());
        let range = if u.unit.arm == Arm::Artillery {
            t.get::<crate::pk::PkTables>().artillery.range.v()
        } else {
            crate::pk::form::weapon_of(u)
                .row(t.get::<crate::pk::PkTables>())
                .range
                .v()
        };
        (
            Some(format!("{normal}\" ({charge}\")")),
            Some(format!("{range}\"")),
        )
    }

    /// PK-L1 (a leader lost by hand), PK-X5 (fatigue), PK-E1 (a level set by hand).
    fn hand_rules(&self, action: &Action) -> Vec<RuleId> {
        match action {
            Action::LoseLeader { .. } => vec![RuleId::new("PK-L1")],
            Action::AddFatigue { .. } | Action::ResetFatigue { .. } => vec![RuleId::new("PK-X5")],
            Action::SetLevel { .. } => vec![RuleId::new("PK-E1")],
            _ => Vec::new(),
        }
    }

    fn forms(&self) -> Vec<Form> {
        crate::pk::form::PkForm::all()
            .into_iter()
            .map(Form::new)
            .collect()
    }

    /// `kepi game apply`'s verbs of the forms (`verbs.rs`).
    fn verb_specs(&self) -> &'static [kepi_game::engine::verbs::VerbSpec] {
        super::verbs::SPECS
    }

    /// PK-X5, PK-X6: a unit falling back after a melee, or pursued, is moved by its owner.
    fn due_asks_move(&self, due: &kepi_game::engine::flow::Due) -> bool {
        due.by_move || due.rule.as_str() == "PK-X5" || due.rule.as_str() == "PK-X6"
    }

    fn noted_since_issue_42(&self) -> &'static [&'static str] {
        super::form::NOTED_SINCE_ISSUE_42
    }

    /// PK-T1, PK-X5, PK-X6: units move in part 1 and, in melee, in part 2 (falling back,
    /// following, pursuing); not in the morale parts.
    fn moves_in(&self, step: Step, _arriving: bool) -> bool {
        matches!(step, Step::MovementAndFire | Step::Melee)
    }

    /// PK-T1: fire in part 1, melee in part 2.
    fn form_steps(&self, form: &str) -> &'static [Step] {
        match form {
            "fire" | "artillery" => &[Step::MovementAndFire],
            "melee" => &[Step::Melee],
            _ => &[],
        }
    }

    /// PK-T1: part 1 moves and fires; part 2 melees (PK-X7).
    fn still_to_act(&self, _s: &GameState, phase: Option<Phase>, u: &UnitState) -> bool {
        match phase.map(|p| p.step) {
            Some(Step::MovementAndFire) => {
                !u.moved || (!u.fired && !u.carries(&super::marks::MUDDLED))
            }
            Some(Step::Melee) => u.fatigue > 0 && u.melees < MAX_MELEES,
            _ => false,
        }
    }

    /// PK-X7: at most three melee moves a turn.
    fn phase_warnings(&self, _s: &GameState, form: &str, u: &UnitState) -> Vec<String> {
        if form == "melee" && u.melees >= MAX_MELEES {
            vec![format!(
                "{} has fought {} melee moves this turn (PK-X7: at most {MAX_MELEES})",
                u.unit.name, u.melees
            )]
        } else {
            Vec::new()
        }
    }

    fn outcome(&self, action: &str, v: &Value) -> Option<Outcome> {
        let o = match action {
            "fire" => typed(v).map(PkOutcome::Fire),
            "artillery" => typed(v).map(PkOutcome::Artillery),
            "melee" | "melee-both" => typed(v).map(PkOutcome::Melee),
            "fatigue" => typed(v).map(PkOutcome::Fatigue),
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
            "mars-la-tour.toml",
            include_str!("../../../unit-cards/scenarios/mars-la-tour.toml"),
        )]
    }
}
