//! 1870 in the rule-set registry ([`crate::registry`]).

use chrono::NaiveDate;

use crate::engine::flow::checklist::List;
use crate::engine::flow::{Event, Queue};
use crate::engine::game::clock::{Phase, Step};
use crate::engine::game::{Flag, GameState, UnitState};
use crate::engine::play::Form;
use crate::engine::rule_set::RuleSet;
use crate::roster::{Arm, Side};
use crate::rules::RuleId;

/// 1870 (odds-ratio CRT).
pub struct FrRules;

impl RuleSet for FrRules {
    fn id(&self) -> &'static str {
        "fr1870"
    }

    fn title(&self) -> &'static str {
        "1870"
    }

    fn uses_hexes(&self) -> bool {
        true
    }

    /// The map (I10, FR-L1): cells are numbered column then row, with the even columns half a cell
    /// lower (even-q): I10's "a unit occupying cell 1640 may besiege Neuf-Brisach [1541] and
    /// Sélestat [1741] simultaneously" needs 1640 next to both, and so do Situation 1's line
    /// 1438 - 1339 - 1239 and Paris's cells 2117, 2216, 2217.
    fn hex_layout(&self) -> crate::hex::Layout {
        crate::hex::Layout::EvenQ
    }

    /// FR-T1: French move, French combat, German move, German combat, advance calendars.
    fn phases(&self, _sides: &[Side]) -> Vec<Phase> {
        vec![
            Phase::of(Side::French, Step::Movement),
            Phase::of(Side::French, Step::Combat),
            Phase::of(Side::German, Step::Movement),
            Phase::of(Side::German, Step::Combat),
            Phase::both(Step::AdvanceCalendars),
        ]
    }

    fn turn_rule(&self) -> RuleId {
        RuleId::new("FR-T1")
    }

    /// FR-T1: turn n is calendar cell `first_cell + n - 1`.
    fn date_of_turn(&self, _: Option<NaiveDate>, first_cell: u32, turn: u32) -> Option<NaiveDate> {
        crate::engine::game::clock::calendar_date(first_cell, turn)
    }

    /// FR-C2: disorganisation; moved and fired.
    fn flags(&self) -> &'static [Flag] {
        &[
            Flag::Moved,
            Flag::Fired,
            Flag::Disorganised,
            Flag::MustRetreat,
        ]
    }

    /// FR-S1: supply.
    fn has_supply(&self) -> bool {
        true
    }

    fn strength_unit(&self, _arm: Arm) -> &'static str {
        "potential"
    }

    fn forms(&self) -> Vec<Form> {
        crate::rules::board::form::FrForm::all()
            .into_iter()
            .map(Form::new)
            .collect()
    }

    /// FR-T1: combat in the combat phases.
    fn form_steps(&self, form: &str) -> &'static [Step] {
        match form {
            "combat" => &[Step::Combat],
            _ => &[],
        }
    }

    fn still_to_act(&self, _s: &GameState, phase: Option<Phase>, u: &UnitState) -> bool {
        crate::engine::flow::activity::board_still_to_act(phase, u)
    }

    fn outcome(&self, action: &str, v: &serde_json::Value) -> Option<crate::rules::Outcome> {
        match action {
            "combat" => crate::rules::outcome::typed(v)
                .map(|o| crate::rules::Outcome::FrCombat(Box::new(o))),
            _ => None,
        }
    }

    fn checks(&self, ev: &Event, q: &mut Queue) {
        super::checks::checks(ev, q);
    }

    fn move_breaches(
        &self,
        game: &crate::engine::game::Game,
        u: &UnitState,
        to: crate::roster::Position,
        _mp: Option<u32>,
    ) -> Vec<String> {
        crate::rules::board::moves::move_breaches(game, u, to, &crate::rules::board::moves::FR1870)
    }

    fn checklist(&self, l: &mut List) {
        super::checklist::steps(l);
    }

    fn scenarios(&self) -> &'static [(&'static str, &'static str)] {
        &[(
            "fr1870-august.toml",
            include_str!("../../../unit-cards/scenarios/fr1870-august.toml"),
        )]
    }
}
