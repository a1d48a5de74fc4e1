//! SPI Franco-Prussian War in the rule-set registry ([`kepi_game::registry`]).

use chrono::NaiveDate;

use kepi_game::engine::flow::checklist::List;
use kepi_game::engine::flow::{Event, Queue};
use kepi_game::engine::game::clock::{Phase, Step};
use kepi_game::engine::game::{Action, Flag, GameState, UnitState};
use kepi_game::engine::play::Form;
use kepi_game::engine::rule_set::RuleSet;
use kepi_game::map::{Applies, Declared, Effect, Terrain, TerrainTable};
use kepi_game::roster::{Arm, Side};
use kepi_game::rules::RuleId;

/// SPI Franco-Prussian War (odds-ratio CRT).
pub struct SpiRules;

/// One entry of the chart: every effect as the seed prints it.
#[allow(clippy::too_many_arguments)]
fn chart_entry(
    name: &str,
    applies: Applies,
    colour: &str,
    movement: &str,
    combat: &str,
    other: &str,
    mp: Option<u32>,
    rule: &str,
) -> Terrain {
    Terrain {
        name: name.into(),
        applies,
        colour: Some(colour.into()),
        movement: Effect::seed(movement),
        combat: Effect::seed(combat),
        other: Some(Effect::seed(other)),
        mp,
        rule: Some(rule.into()),
        declared: Declared::Rules,
    }
}

/// SPI-M1 and SPI-C5: the Terrain Effects Chart (the seed's "Terrain Effects Chart", a rotated
/// fold-out whose Combat Effects column is partly cut on the scan: the legible words are quoted
/// with `[cut]` where they stop, never completed). SPI-L1: rail movement's costs are the chart's
/// "other movement costs" (the errata: "The Terrain Effects Chart is correct"). The chart prints
/// nothing for bridges, roads or borders: a map's are shown with unknown effects.
pub fn terrain_chart() -> TerrainTable {
    TerrainTable {
        title: "Terrain Effects Chart".into(),
        rule: Some("SPI-M1".into()),
        entries: vec![
            chart_entry(
                "clear",
                Applies::Cell,
                "#e8e0c0",
                "one Movement Point per hex",
                "none",
                "none",
                Some(1),
                "SPI-M1",
            ),
            chart_entry(
                "rough",
                Applies::Cell,
                "#a08850",
                "two additional M.P.'s for first such hex entered in a given Movement Phase; nothing additional thereafter in that Movement Phase",
                "attacker adds \"one\" to the defender's die-roll when the defender is in Rough Terrain [cut]",
                "none",
                None,
                "SPI-M1",
            ),
            chart_entry(
                "ridge",
                Applies::Hexside,
                "#7a5a30",
                "none",
                "if all units are attacking through ridge hexsides, attacker adds \"one\" to die roll [cut]",
                "none",
                Some(0),
                "SPI-C5",
            ),
            chart_entry(
                "river",
                Applies::Hexside,
                "#3a70c0",
                "one additional M.P. to cross such hexside",
                "if all attacking units [attack] through such hexside, attacker adds \"one\" to die roll [cut]",
                "Zones of Control do not extend through river hexsides",
                Some(1),
                "SPI-M1",
            ),
            chart_entry(
                "rail",
                Applies::Hexside,
                "#303030",
                "to entrain three additional M.P.'s; once entrained, up to eighteen hexes along the rail line by expending one Movement Point; to detrain two additional M.P.'s",
                "while entrained, units defend at one-half normal Combat Strength [cut]",
                "entrained units have no Zone of Control; units may only move by rail in their home country",
                None,
                "SPI-L1",
            ),
        ],
    }
}

/// SPI's movement rules on a map (issue 42), as data for the map's search:
///
/// - SPI-M1, the Terrain Effects Chart: clear "one Movement Point per hex"; rough "two
///   additional M.P.'s for first such hex entered in a given Movement Phase; nothing additional
///   thereafter in that Movement Phase" (a rough hex is entered for the clear hex's one point
///   plus two the first time); river hexsides "one additional M.P. to cross such hexside" (the
///   chart's `mp`, [`terrain_chart`]).
/// - SPI-M1 Case I: "Units may never enter a hex containing Enemy Combat or Fortification
///   Units." EB units "do not impede Enemy movement" (SPI-E1, EB Case D).
/// - SPI-M1 Case K: "a movement penalty of two additional Movement Points to move onto, and two
///   additional Movement Points to move off of, a Friendly Unit. Note that EB and entrained
///   Combat Units (whether moving or being moved over) are ignored"; Fortification Case A:
///   "They may be moved through freely by Friendly units, without any stacking or unstacking
///   penalty".
/// - SPI-Z1: "Enemy units may not move directly from one Friendly controlled hex to another";
///   Case A "all units must cease movement upon entering an Enemy controlled hex"; Case B "Zones
///   of Control do not extend across river hexsides"; Case C "Only unentrained Combat Units have
///   a Zone of Control"; Case D "Combat Units in the same hex as Fortification units lose their
///   Zone of Control ... Enemy Zones of Control do not extend into hexes occupied by Friendly
///   Fortification Units"; Case E "three additional Movement Points to enter an Enemy controlled
///   hex, and one additional to leave"; Case F "Enemy Zones of Control never extend into hexes
///   occupied by Friendly Combat Units".
/// - SPI-M1 (Basic Game): "Units may never enter Belgium or Luxemburg, in this Basic Game."
///
/// Not applied: rail movement (SPI-L1) and supply's halving of the allowance (SPI-S1), said in
/// every answer.
pub fn board_rules() -> kepi_game::engine::play::board::BoardRules {
    use super::movement::{ROUGH_FIRST_MP, STACK_MP, ZOC_ENTER_MP, ZOC_LEAVE_MP};
    use kepi_game::map::{Country, Feature, FirstOnly, MoveRules, StackRules, ZocRules};
    use kepi_game::roster::Arm;
    kepi_game::engine::play::board::BoardRules {
        moves: MoveRules {
            first_only: vec![FirstOnly {
                terrain: "rough".into(),
                mp: 1,
                first: ROUGH_FIRST_MP,
                rule: "SPI-M1".into(),
            }],
            zoc: Some(ZocRules {
                enter: ZOC_ENTER_MP,
                leave: ZOC_LEAVE_MP,
                stop: true,
                rigid: true,
                not_across: vec![Feature::River],
                rule: "SPI-Z1".into(),
            }),
            stack: Some(StackRules {
                onto: STACK_MP,
                off: STACK_MP,
                rule: "SPI-M1".into(),
            }),
            closed: vec![Country::Belgium, Country::Luxembourg],
            closed_rule: "SPI-M1".into(),
            enemy_rule: "SPI-M1".into(),
            not_applied: vec![
                "rail movement (SPI-L1): not applied; an entrained unit's reach is counted on foot"
                    .into(),
                "changes to the allowance (supply, SPI-S1): not applied; the allowance given is \
                 used"
                    .into(),
            ],
        },
        roles: kepi_game::engine::play::board::UnitRoles {
            no_zoc: &[Arm::Fortress, Arm::Railway],
            in_transit: Some(super::marks::ENTRAINED.name),
            no_zoc_beside: &[Arm::Fortress],
            passable: &[Arm::Railway],
            no_stack: &[Arm::Railway, Arm::Fortress],
            stack_free: &[Arm::Fortress],
            no_shield: &[Arm::Railway],
        },
    }
}

impl RuleSet for SpiRules {
    /// SPI-M1, SPI-C5, SPI-L1: the Terrain Effects Chart as the seed prints it ([`terrain_chart`]).
    fn terrain_table(&self) -> Option<TerrainTable> {
        Some(terrain_chart())
    }

    /// SPI-E2: the Rail Cut marker ([`super::supply::RAIL_CUT`]) and the EB units' secured
    /// lines ([`super::supply::SECURED`]); SPI-W1: the west edge's exits
    /// ([`super::victory::EXIT_WEST`]).
    fn cell_markers(&self) -> &'static [kepi_game::engine::game::CellMarkerKind] {
        &[
            super::supply::RAIL_CUT,
            super::supply::SECURED,
            super::victory::EXIT_WEST,
        ]
    }

    /// SPI-M1, SPI-Z1: movement on a map ([`board_rules`]).
    fn board_rules(&self) -> Option<kepi_game::engine::play::board::BoardRules> {
        Some(board_rules())
    }

    /// SPI-S1, SPI-S2, SPI-F1: supply traced on a map ([`super::supply::supply_rules`]).
    fn supply_rules(&self) -> Option<kepi_game::engine::play::supply::SupplyDecl> {
        Some(super::supply::supply_rules())
    }

    fn table(&self) -> Option<kepi_game::tables::TableFile> {
        Some(kepi_game::tables::TableFile::of::<crate::spi::SpiTables>())
    }

    fn id(&self) -> &'static str {
        "spi"
    }

    /// SPI-C2: a combat may be fought as a battle (issue 30).
    fn campaign_part(&self) -> Option<kepi_game::engine::rule_set::CampaignPart> {
        Some(kepi_game::engine::rule_set::CampaignPart::Board)
    }

    /// FR-C2 (E11, E13), SPI-C4: one cell away, none the enemy holds or controls unless a
    /// friend stands there ([`crate::board::moves::retreat_cells`]).
    fn retreat_cells(
        &self,
        s: &GameState,
        u: &UnitState,
    ) -> Option<Vec<kepi_game::roster::Position>> {
        Some(crate::board::moves::retreat_cells(s, u))
    }

    /// SPI-C2 / FR-C1: every enemy unit in the hex defends together
    /// ([`crate::board::form::engage_hex`]).
    fn engage(
        &self,
        state: &GameState,
        attackers: &[String],
        hex: kepi_game::roster::Position,
    ) -> Result<(Vec<String>, Vec<String>), String> {
        crate::board::form::engage_hex(state, attackers, hex)
    }

    /// CAMP-C2, CAMP-R1: every engaged unit loses by the table, a fortification too (SPI-F1: its
    /// strength is combat points); SPI combat has no retreats (SPI-C4).
    fn campaign_return(&self) -> Option<kepi_game::engine::rule_set::BattleReturn> {
        Some(kepi_game::engine::rule_set::BattleReturn {
            places: &[],
            loser: kepi_game::engine::rule_set::AfterBattle::Stays(
                "CAMP-R1: SPI combat has no retreats; the attackers advance only into a hex the \
                 defenders left (SPI-C4)",
            ),
        })
    }

    /// SPI-C4: after a battle won by the attackers, the hex its defenders left (issue 30).
    fn advance_after_battle(
        &self,
        hex: kepi_game::roster::Position,
    ) -> Option<(&'static str, String)> {
        Some((
            "SPI-C4",
            format!("hex {hex} is vacated: the attackers may advance into it now, no MP"),
        ))
    }

    /// Issue 43: the unit card, declared in `card.rs`.
    fn card_spec(&self) -> kepi_game::roster::spec::CardSpec {
        super::card::spec()
    }

    fn title(&self) -> &'static str {
        "SPI Franco-Prussian War"
    }

    fn grammar(&self) -> Option<kepi_game::engine::verbs::Grammar> {
        let about = "SPI Franco-Prussian War (odds-ratio CRT)";
        Some(kepi_game::engine::verbs::Grammar::of(
            about,
            super::grammar::run,
        ))
    }

    fn uses_hexes(&self) -> bool {
        true
    }

    /// SPI-T1: German then French player-turns, each reinforcement, movement, combat.
    fn phases(&self, _sides: &[Side]) -> Vec<Phase> {
        [Side::German, Side::French]
            .iter()
            .flat_map(|s| {
                [Step::Reinforcement, Step::Movement, Step::Combat].map(|step| Phase::of(*s, step))
            })
            .collect()
    }

    fn turn_rule(&self) -> RuleId {
        RuleId::new("SPI-T1")
    }

    /// SPI-T1: turn n is calendar cell `first_cell + n - 1`.
    fn date_of_turn(&self, _: Option<NaiveDate>, first_cell: u32, turn: u32) -> Option<NaiveDate> {
        kepi_game::engine::game::clock::calendar_date(first_cell, turn)
    }

    /// SPI-T1: the days game-turn `turn` covers.
    fn calendar(
        &self,
        turn: u32,
        tables: &kepi_game::rules::Tables,
    ) -> Option<Result<kepi_game::rules::crt::CalendarEntry, kepi_game::rules::RuleError>> {
        Some(super::spi_turn(turn, tables.get::<crate::spi::SpiTables>()))
    }

    /// The formation (SPI-H2); moved and fired. Entraining is SPI's own marker
    /// ([`crate::spi::marks::ENTRAINED`]).
    fn flags(&self) -> &'static [Flag] {
        &[Flag::Moved, Flag::Fired, Flag::Extended]
    }

    /// The roster's words for SPI's formation, with its rule (SPI-H2).
    fn flag_chip(&self, f: Flag) -> Option<kepi_game::engine::game::FlagChip> {
        use kepi_game::engine::game::{FlagChip, Tone};
        match f {
            Flag::Extended => Some(FlagChip {
                tag: "Ext",
                what: "extended formation (SPI-H2)",
                tone: Tone::Info,
            }),
            f => f.chip(),
        }
    }

    /// SPI-S1: supply.
    fn has_supply(&self) -> bool {
        true
    }

    fn strength_unit(&self, _arm: Arm) -> &'static str {
        "CP"
    }

    fn forms(&self) -> Vec<Form> {
        let mut forms: Vec<Form> = crate::spi::combat_form::SpiForm::all()
            .into_iter()
            .map(Form::new)
            .collect();
        forms.push(Form::new(super::form::RaiseForm::default()));
        forms.push(Form::new(super::form::EbForm::default()));
        for kind in [
            super::movement::Spend::Entrain,
            super::movement::Spend::Detrain,
            super::movement::Spend::Formation,
        ] {
            forms.push(Form::new(super::form::SpendForm::of(kind)));
        }
        forms
    }

    /// `kepi game apply`'s verbs of the forms (`verbs.rs`).
    fn verb_specs(&self) -> &'static [kepi_game::engine::verbs::VerbSpec] {
        super::verbs::SPECS
    }

    /// SPI-T1: combat in the combat phase.
    fn form_steps(&self, form: &str) -> &'static [Step] {
        match form {
            "combat" => &[Step::Combat],
            "raise" => &[Step::Reinforcement],
            "eb" | "entrain" | "detrain" | "formation" => &[Step::Movement],
            _ => &[],
        }
    }

    fn still_to_act(&self, _s: &GameState, phase: Option<Phase>, u: &UnitState) -> bool {
        kepi_game::engine::flow::activity::board_still_to_act(phase, u)
    }

    fn recorded_since_issue_46(
        &self,
        action: &str,
        effect: &kepi_game::engine::game::Action,
    ) -> bool {
        crate::board::form::is_attacked_mark(action, effect)
    }

    fn noted_since_issue_42(&self) -> &'static [&'static str] {
        super::form::NOTED_SINCE_ISSUE_42
    }

    /// SPI-L1: an entrained unit's move along no rail line of its home country, noted since log
    /// revision 3 ([`crate::spi::moves::rail_route`]).
    fn noted_since(&self) -> &'static [(u32, &'static str)] {
        &[(3, crate::spi::moves::NO_RAIL_LINE)]
    }

    /// SPI-S1: the allowance is judged on the supply at the start of the Movement Phase since log
    /// revision 4 (before, on the board as it stood at each move).
    fn judged_anew_since(&self) -> &'static [(u32, &'static str)] {
        &[(4, crate::spi::moves::OVER_ALLOWANCE)]
    }

    fn outcome(&self, action: &str, v: &serde_json::Value) -> Option<kepi_game::rules::Outcome> {
        match action {
            "combat" => kepi_game::rules::outcome::typed(v)
                .map(kepi_game::rules::Outcome::new::<super::SpiCombatOutcome>),
            _ => None,
        }
    }

    fn checks(&self, ev: &Event, q: &mut Queue) {
        super::checks::checks(ev, q);
        super::moves::eb_pushed_back(ev, q);
        super::moves::german_ebs_for_a_cut(ev.before(), ev.action(), q);
    }

    /// SPI-C4 (an advance by a unit that did not fight) and SPI's movement: over the allowance
    /// (SPI-T1, SPI-S1), an EB unit beyond four hexes or stopped by its river roll (SPI-E1), rail
    /// movement next to the enemy ([`crate::spi::moves::move_breaches`]).
    fn move_breaches(
        &self,
        game: &kepi_game::engine::game::Game,
        u: &UnitState,
        to: kepi_game::roster::Position,
        mp: Option<u32>,
    ) -> Vec<String> {
        let mut out =
            crate::board::moves::move_breaches(game, u, to, &super::combat_form::AFTER_COMBAT);
        out.extend(crate::spi::moves::move_breaches(game, u, to, mp));
        out
    }

    /// SPI-E2: a unit moving onto the enemy's home rail line cuts it, an EB unit moving into a
    /// cut of its own country repairs it ([`crate::spi::moves::move_effects`]).
    /// SPI-E2: the EB units' secured lines ([`super::supply::SECURED`]) are logged with their
    /// moves since log revision 5; an earlier kepi left them to the umpire.
    fn effect_revision(&self, action: &str, effect: &Action) -> u32 {
        match (action, effect) {
            ("move", Action::Mark { kind, .. })
                if kind == super::supply::SECURED.name
                    || kind == super::victory::EXIT_WEST.name =>
            {
                5
            }
            ("move", Action::MarkUnit { kind, .. }) if kind == super::victory::EXITED_WEST.name => {
                5
            }
            _ => 0,
        }
    }

    /// SPI-W1: German combat units moved off the west edge ([`super::victory::EXITED_WEST`]).
    fn unit_markers(&self) -> &'static [kepi_game::engine::game::UnitMarkerKind] {
        &[super::marks::ENTRAINED, super::victory::EXITED_WEST]
    }

    fn move_effects(
        &self,
        s: &GameState,
        u: &UnitState,
        to: kepi_game::roster::Position,
    ) -> Vec<Action> {
        crate::spi::moves::move_effects(s, u, to)
    }

    fn own_reach(
        &self,
        s: &GameState,
        u: &UnitState,
        allowance: u32,
    ) -> Option<kepi_game::map::Reach> {
        crate::spi::moves::rail_reach(s, u, allowance)
    }

    /// SPI-M1 ("only in the friendly movement phase, advance after combat excepted"), SPI-T1:
    /// units move in the Movement Phase; reinforcements come onto the map in the Reinforcement
    /// Phase.
    fn moves_in(&self, step: Step, arriving: bool) -> bool {
        step == Step::Movement || (arriving && step == Step::Reinforcement)
    }

    /// SPI-T1: movement points (eight German, six French).
    fn counts_movement_points(&self) -> bool {
        true
    }

    /// SPI-T1: a move's cost, the umpire's or counted from the board
    /// ([`crate::spi::moves::move_points`]).
    fn move_points(
        &self,
        game: &kepi_game::engine::game::Game,
        u: &UnitState,
        to: kepi_game::roster::Position,
        stated: Option<u32>,
    ) -> Option<u32> {
        crate::spi::moves::move_points(game, u, to, stated)
    }

    fn checklist(&self, l: &mut List) {
        super::checklist::steps(l);
    }

    /// SPI-W1 in a game: `victory` without `--net-vp` counts from the game what it knows
    /// ([`crate::spi::victory::game_defaults`]): each side's CP destroyed and isolated and,
    /// on the game's map, the German advance's award and the French penetration; a count typed
    /// wins.
    fn plain_defaults(&self, verb: &str, typed: &[String], state: &GameState) -> Vec<String> {
        if verb != "victory" {
            return Vec::new();
        }
        crate::spi::victory::game_defaults(typed, state)
    }

    /// SPI-S1 (Standard Game): "isolated units lose 1 CP at the end of each friendly movement
    /// phase": doing the check takes the CP off (the table's `supply.isolated_loss_per_phase`);
    /// waiving it does not. The check was queued when the unit ended its movement isolated, so
    /// that is what counts, not its supply when the umpire gets to the check.
    fn due_effects(
        &self,
        state: &GameState,
        d: &kepi_game::engine::flow::Due,
        tables: &kepi_game::rules::Tables,
    ) -> Vec<kepi_game::engine::game::Action> {
        if d.rule.as_str() != "SPI-S1" {
            return Vec::new();
        }
        let Some(u) = d.unit.as_deref().and_then(|id| state.unit(id)) else {
            return Vec::new();
        };
        let after = super::mechanics::isolation_attrition(
            u.strength,
            1,
            tables.get::<crate::spi::SpiTables>(),
        );
        let n = u.strength - after;
        if n == 0 {
            return Vec::new();
        }
        vec![kepi_game::engine::game::Action::LoseStrength {
            unit: u.unit.id.clone(),
            n,
        }]
    }

    fn scenarios(&self) -> &'static [(&'static str, &'static str)] {
        &[(
            "spi-1870.toml",
            include_str!("../../../unit-cards/scenarios/spi-1870.toml"),
        )]
    }
}
