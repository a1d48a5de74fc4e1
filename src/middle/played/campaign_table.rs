//! Moved from `src/middle/campaign/table.rs` (its unit tests that play a rule set).

mod tests {
    use crate::campaign::table::*;

    use kepi_game::roster::Arm;
    use kepi_game::tables::RuleTable;

    #[test]
    fn the_builtin_table_loads_and_rounds() {
        let t = CampaignTable::load(None).unwrap();
        assert!(!t.convert.is_empty());
        assert_eq!(Rounding::Nearest.apply(1, 2), 1);
        assert_eq!(Rounding::Nearest.apply(2, 5), 0);
        assert_eq!(Rounding::Down.apply(9, 5), 1);
        assert_eq!(Rounding::Up.apply(6, 5), 2);
        let e = t
            .row(kepi_sets::spi::ID, Arm::Railway, "Prussia", "x")
            .unwrap_err();
        assert!(e.to_string().contains("railway"), "{e}");
    }

    #[test]
    fn a_bad_row_names_its_field() {
        let src = CampaignTable::BUILTIN.replacen(
            "per_point = { value = 2",
            "per_point = { value = 0",
            1,
        );
        let e = CampaignTable::from_source("c.toml", &src).unwrap_err();
        assert!(e.field.contains("per_point"), "{e}");
        assert!(e.line > 0, "{e}");
    }
}
