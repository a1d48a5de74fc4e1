//! Moved from `src/game/roster/mod.rs` (its unit tests that play a rule set).

mod tests {
    use kepi_game::roster::*;

    use kepi_game::rules::RuleSetId;

    use kepi_game::registry::{builtin_scenario, builtin_scenarios};

    #[test]
    fn builtin_scenarios_validate() {
        let all = builtin_scenarios().unwrap();
        assert_eq!(all.len(), 5);
        let mlt = builtin_scenario(DEMO_SCENARIO).unwrap();
        assert_eq!(mlt.system, Some(crate::pk::ID));
        for side in [Side::German, Side::French] {
            assert!(mlt.units.iter().filter(|u| u.side == side).count() >= 12);
        }
    }

    /// A misspelt `system` names the file, line and field, and accepts the registry's rule sets.
    #[test]
    fn an_unknown_rule_set_lists_the_registrys() {
        let e = validate_roster("club.toml", "name = \"x\"\nsystem = \"chess\"\n", None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("club.toml") && e.contains(":2"), "{e}");
        assert!(
            e.contains("system") && e.contains("unknown rule set `chess`"),
            "{e}"
        );
        for id in kepi_game::registry::all().into_iter().map(RuleSetId::id) {
            assert!(e.contains(id), "{id} accepted: {e}");
        }
    }
}
