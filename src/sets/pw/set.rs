//! The Portable Wargame (Franco-Prussian) in the rule-set registry ([`kepi_game::registry`]).

use chrono::NaiveDate;
use serde_json::Value;

use super::outcome::PwOutcome;
use kepi_game::engine::flow::checklist::List;
use kepi_game::engine::flow::{Event, Queue};
use kepi_game::engine::game::clock::{Phase, Step};
use kepi_game::engine::game::{Flag, GameState, UnitState};
use kepi_game::engine::play::Form;
use kepi_game::engine::rule_set::RuleSet;
use kepi_game::map::{Applies, Declared, Effect, Terrain, TerrainTable};
use kepi_game::roster::{Arm, Quality, Side};
use kepi_game::rules::Tables;
use kepi_game::rules::{Outcome, RuleId, outcome::typed};

/// The Portable Wargame, Franco-Prussian variant (d6, hexes).
pub struct PwRules;

/// What the variant's text does not print: Cordery's book, which it does not reproduce ("ALL
/// OTHER RULES: As in The Portable Wargame").
const NOT_IN_THE_TEXT: &str =
    "not in the text (\"as in The Portable Wargame\", which the variant does not reproduce)";

/// The terrain the variant's text names, with only the effects it prints. PW-G1: movement is
/// counted in hexes, so open ground costs one hex of a unit's move (derived). PW-A1, PW-R1:
/// "Target in cover: -1"; PW-X1: "Enemy in cover: -1", "Enemy uphill: -1". Which terrain gives
/// cover, and what woods, towns, hills and rivers cost to move through, are Cordery's, not the
/// text's: `unknown` (a club adds its own in the map's `[[terrain]]`).
pub fn terrain_table() -> TerrainTable {
    TerrainTable {
        title: "terrain named by the text (PW-A1, PW-R1, PW-X1)".into(),
        rule: Some("PW-G1".into()),
        entries: vec![
            Terrain {
                name: "clear".into(),
                applies: Applies::Cell,
                colour: Some("#dfe8c0".into()),
                movement: Effect::derived(
                    "one hex of the unit's move (PW-G1: movement is counted in hexes)",
                ),
                combat: Effect::derived(
                    "none: no modifier of PW-A1, PW-R1 or PW-X1 applies in the open",
                ),
                other: None,
                mp: Some(1),
                rule: Some("PW-G1".into()),
                declared: Declared::Rules,
            },
            Terrain {
                name: "cover".into(),
                applies: Applies::Cell,
                colour: Some("#4a7a3a".into()),
                movement: Effect::unknown(NOT_IN_THE_TEXT),
                combat: Effect::seed(
                    "Target in cover: -1 (artillery fire PW-A1, rifle fire PW-R1); Enemy in cover: -1 (melee PW-X1)",
                ),
                other: None,
                mp: None,
                rule: Some("PW-R1".into()),
                declared: Declared::Rules,
            },
            Terrain {
                name: "hill".into(),
                applies: Applies::Cell,
                colour: Some("#b89868".into()),
                movement: Effect::unknown(NOT_IN_THE_TEXT),
                combat: Effect::seed("Enemy uphill: -1 (melee PW-X1)"),
                other: None,
                mp: None,
                rule: Some("PW-X1".into()),
                declared: Declared::Rules,
            },
        ],
    }
}

impl RuleSet for PwRules {
    /// PW-G1, PW-A1, PW-R1, PW-X1: the terrain the text names ([`terrain_table`]).
    fn terrain_table(&self) -> Option<TerrainTable> {
        Some(terrain_table())
    }

    fn table(&self) -> Option<kepi_game::tables::TableFile> {
        Some(kepi_game::tables::TableFile::of::<crate::pw::PwTables>())
    }

    fn id(&self) -> &'static str {
        "pw"
    }

    /// A campaign's battle may be fought with the Portable Wargame (issue 30).
    fn campaign_part(&self) -> Option<kepi_game::engine::rule_set::CampaignPart> {
        Some(kepi_game::engine::rule_set::CampaignPart::Battle)
    }

    fn campaign_strength_column(&self) -> Option<&'static str> {
        Some("pw_sp")
    }

    /// Issue 43: the unit card, declared in `card.rs`.
    fn card_spec(&self) -> kepi_game::roster::spec::CardSpec {
        super::card::spec()
    }

    fn title(&self) -> &'static str {
        "Portable Wargame (Franco-Prussian)"
    }

    fn grammar(&self) -> Option<kepi_game::engine::verbs::Grammar> {
        let about = "Portable Wargame, Franco-Prussian variant (d6, hexes)";
        Some(kepi_game::engine::verbs::Grammar::of(
            about,
            super::grammar::run,
        ))
    }

    fn uses_hexes(&self) -> bool {
        true
    }

    /// PW-T1: alternate half-turns, each with four numbered phases (artillery fire, movement, rifle
    /// fire, melee), in the scenario's order of play.
    fn phases(&self, sides: &[Side]) -> Vec<Phase> {
        let order = if sides.is_empty() {
            &[Side::German, Side::French][..]
        } else {
            sides
        };
        order
            .iter()
            .flat_map(|s| {
                [
                    Step::ArtilleryFire,
                    Step::Movement,
                    Step::RifleFire,
                    Step::Melee,
                ]
                .into_iter()
                .zip(1u8..)
                .map(|(step, number)| Phase {
                    side: Some(*s),
                    step,
                    number,
                })
            })
            .collect()
    }

    fn turn_rule(&self) -> RuleId {
        RuleId::new("PW-T1")
    }

    /// PW-T2: activation; moved and fired.
    fn flags(&self) -> &'static [Flag] {
        &[Flag::Moved, Flag::Fired, Flag::Activated]
    }

    /// PW-T2: elite, normal, poor.
    fn qualities(&self) -> &'static [Quality] {
        super::card::QUALITIES
    }

    fn strength_unit(&self, _arm: Arm) -> &'static str {
        "SP"
    }

    /// PW-R1 / PW-A1: the weapon's range in hexes on the day.
    fn hex_range(&self, u: &UnitState, date: Option<NaiveDate>, t: &Tables) -> Option<u32> {
        Some(crate::pw::form::range_of(
            u,
            date,
            t.get::<crate::pw::PwTables>(),
        ))
    }

    /// PW-T1: the range matters in the artillery and rifle fire phases (PW-A1, PW-R1), not while
    /// units move or melee; with no phase known, with the resolver on one of those fires.
    fn range_shaded(&self, phase: Option<Phase>, form: Option<&str>) -> bool {
        match phase {
            Some(p) => matches!(p.step, Step::ArtilleryFire | Step::RifleFire),
            None => matches!(form, Some("artillery" | "rifle")),
        }
    }

    /// PW-U1 / PW-A1: a move beyond the allowance, or guns that fired moving.
    fn move_warning(
        &self,
        u: &UnitState,
        hexes: u32,
        date: Option<NaiveDate>,
        t: &Tables,
    ) -> Option<String> {
        crate::pw::form::move_warning(u, hexes, date, t.get::<crate::pw::PwTables>())
    }

    /// PW-T1, PW-T2, PW-H1 (issue 42's audit): a move without an activation, a withdrawal
    /// farther than its hits, a move in the enemy's half-turn
    /// ([`crate::pw::form::move_breaches`]).
    fn move_breaches(
        &self,
        game: &kepi_game::engine::game::Game,
        u: &UnitState,
        to: kepi_game::roster::Position,
        _mp: Option<u32>,
    ) -> Vec<String> {
        crate::pw::form::move_breaches(game.state(), u, to)
    }

    /// PW-H1: a hit may be taken as a withdrawal of one hex, which the owner moves.
    fn due_asks_move(&self, due: &kepi_game::engine::flow::Due) -> bool {
        due.by_move || due.rule.as_str() == "PW-H1"
    }

    fn noted_since_issue_42(&self) -> &'static [&'static str] {
        crate::pw::form::NOTED_SINCE_ISSUE_42
    }

    /// The Portable Wargame has no zones of control.
    fn zones_of_control(&self) -> bool {
        false
    }

    fn forms(&self) -> Vec<Form> {
        crate::pw::form::PwForm::all()
            .into_iter()
            .map(Form::new)
            .collect()
    }

    /// `kepi game apply`'s verbs of the forms (`verbs.rs`).
    fn verb_specs(&self) -> &'static [kepi_game::engine::verbs::VerbSpec] {
        super::verbs::SPECS
    }

    /// PW-T1: each form in its phase.
    fn form_steps(&self, form: &str) -> &'static [Step] {
        match form {
            "artillery" => &[Step::ArtilleryFire],
            "activate" => &[Step::Movement],
            "rifle" => &[Step::RifleFire],
            "melee" => &[Step::Melee],
            _ => &[],
        }
    }

    /// Issue 46 (PW-X1: "both roll d6"): a melee's dice say whose; earlier kepis labelled them by arm only.
    fn dice_label_before_issue_46(&self, action: &str, label: &str) -> Option<String> {
        (action == "melee")
            .then(|| {
                label
                    .strip_prefix("attacker ")
                    .or_else(|| label.strip_prefix("defender "))
            })
            .flatten()
            .map(str::to_string)
    }

    /// Issue 46: a melee counts both units' melees; earlier kepis logged it without.
    fn recorded_since_issue_46(
        &self,
        action: &str,
        effect: &kepi_game::engine::game::Action,
    ) -> bool {
        action == "melee"
            && matches!(
                effect,
                kepi_game::engine::game::Action::SetCount {
                    counter: kepi_game::engine::game::Counter::Melees,
                    ..
                }
            )
    }

    /// PW-T1: the active side's guns fire, its units activate and move; rifle fire by all.
    fn still_to_act(&self, _s: &GameState, phase: Option<Phase>, u: &UnitState) -> bool {
        let side_ok = phase.and_then(|p| p.side).is_none_or(|x| x == u.unit.side);
        let guns = u.unit.arm == Arm::Artillery;
        match phase.map(|p| p.step) {
            Some(Step::ArtilleryFire) => side_ok && guns && !u.fired,
            Some(Step::Movement) => side_ok && (!u.activated || !u.moved),
            Some(Step::RifleFire) => !guns && u.unit.arm != Arm::Cavalry && !u.fired,
            _ => false,
        }
    }

    fn outcome(&self, action: &str, v: &Value) -> Option<Outcome> {
        let o = match action {
            "artillery" | "rifle" => typed(v).map(PwOutcome::Fire),
            "melee" => typed(v).map(PwOutcome::Melee),
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
            "pw-skirmish.toml",
            include_str!("../../../unit-cards/scenarios/pw-skirmish.toml"),
        )]
    }
}

/// PW-V1: an army's losses against its starting strength, as the rule's input.
pub fn pw_losses(s: &GameState, side: kepi_game::roster::Side) -> super::DefeatInput {
    let army = s.units.iter().filter(|u| u.unit.side == side);
    let (mut sp_lost, mut sp_total, mut units_lost, mut units_total) = (0, 0, 0, 0);
    for u in army {
        sp_total += u.max_strength;
        sp_lost += u.max_strength.saturating_sub(u.strength);
        units_total += 1;
        if u.eliminated() {
            units_lost += 1;
        }
    }
    super::DefeatInput {
        sp_lost,
        sp_total,
        units_lost,
        units_total,
    }
}

/// PW-V1: true when an army has lost more than half its strength points or more than half its units.
pub fn pw_defeated(s: &GameState, side: kepi_game::roster::Side) -> bool {
    super::defeat(&pw_losses(s, side))
        .ok()
        .and_then(|r| r.outcome)
        .is_some_and(|o| o.defeated)
}
