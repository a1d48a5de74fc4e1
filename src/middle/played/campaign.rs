//! Moved from `src/middle/campaign/mod.rs` (its unit tests that play a rule set).

mod tests {
    use crate::campaign::*;

    use crate::campaign::table::CampaignTable;

    use kepi_game::engine::game::GameState;
    use kepi_game::engine::rule_set::{CampaignPart, RuleSetRef};
    use kepi_game::roster::Side;
    use kepi_game::rules::RuleId;

    use chrono::{TimeZone, Utc};
    use kepi_game::engine::flow::checklist::List;
    use kepi_game::engine::game::clock::Phase;
    use kepi_game::engine::game::{Game, SeedSecret, UnitState};
    use kepi_game::engine::play::Form;
    use kepi_game::engine::rule_set::RuleSet;
    use kepi_game::registry::builtin_scenario;

    /// A board game a campaign could be played on that declares no way to take a battle back.
    struct NoWayBack;

    impl RuleSet for NoWayBack {
        fn id(&self) -> &'static str {
            "nowayback"
        }
        fn title(&self) -> &'static str {
            "No Way Back"
        }
        fn phases(&self, _sides: &[Side]) -> Vec<Phase> {
            Vec::new()
        }
        fn turn_rule(&self) -> RuleId {
            RuleId::new("CAMP-B1")
        }
        fn forms(&self) -> Vec<Form> {
            Vec::new()
        }
        fn still_to_act(&self, _s: &GameState, _p: Option<Phase>, _u: &UnitState) -> bool {
            false
        }
        fn checklist(&self, _l: &mut List) {}
        fn campaign_part(&self) -> Option<CampaignPart> {
            Some(CampaignPart::Board)
        }
    }

    static NO_WAY_BACK: NoWayBack = NoWayBack;

    /// Issue 45: a board game states how a battle comes back (`RuleSet::campaign_return`); one
    /// that states none is refused in words, not given another board game's losses and retreats.
    #[test]
    fn a_board_game_that_declares_no_way_back_is_refused() {
        let s = builtin_scenario("spi-1870").unwrap();
        let t = Utc.timestamp_opt(1_000_000, 0).single().unwrap();
        let seed = SeedSecret {
            seed: 1,
            salt: "t".into(),
        };
        let g = Game::new(&s, kepi_sets::spi::ID, seed, t);
        assert_eq!(battle_return(&g.state().system).unwrap().places, &[]);
        let mut state = g.state().clone();
        state.system = RuleSetRef::of(&NO_WAY_BACK);
        let attacker = state.units[0].unit.id.clone();
        let at = state.units[0].position;
        let table = CampaignTable::load(None).unwrap();
        let Err(e) = engage(&state, &[attacker], at, kepi_sets::pk::ID, &table) else {
            panic!("a battle was engaged for a board game with no way back");
        };
        let e = e.to_string();
        assert!(
            e.contains("No Way Back declares no way to take a battle's losses and result back"),
            "{e}"
        );
    }
}
