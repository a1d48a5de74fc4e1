//! Moved from `src/game/roster/csv_import.rs` (its unit tests that play a rule set).

mod tests {
    use kepi_game::roster::csv_import::*;

    use kepi_game::roster::spec::Field;

    fn csv(s: &str) -> Csv {
        read_csv("t.csv", s.as_bytes()).unwrap()
    }

    #[test]
    fn headers_match_keys_labels_and_aliases_and_the_rest_is_ignored() {
        let spec = crate::pk::ID.card_spec();
        let c = csv("Name,SIDE,Arm,Figures,class,Fatigue\n");
        let m = map_columns(&c.header.cells, &[], &spec).unwrap();
        assert_eq!(m.column(Field::Strength), Some(3), "the P&K label");
        assert_eq!(m.column(Field::Quality), Some(4), "an alias");
        assert_eq!(m.ignored, ["Fatigue"]);
        let m = map_columns(&c.header.cells, &[(Field::Notes, "fatigue".into())], &spec).unwrap();
        assert_eq!(m.column(Field::Notes), Some(5));
        let e =
            map_columns(&c.header.cells, &[(Field::Notes, "Remarks".into())], &spec).unwrap_err();
        assert!(
            e.contains("no column \"Remarks\"") && e.contains("\"Fatigue\""),
            "{e}"
        );
        let e = map_columns(&csv("Name,Side\n").header.cells, &[], &spec).unwrap_err();
        assert!(e.contains("no column for arm, strength"), "{e}");
    }

    #[test]
    fn a_bad_value_names_the_row_line_header_and_the_accepted_values() {
        let c = csv(
            "name,side,arm,strength,weapon type\nA,german,infantry,20,needle-gun\nB,german,infantry,20,chassepot\nC,german,infantry,x,\n",
        );
        let m = map_columns(
            &c.header.cells,
            &[(Field::Weapon, "weapon type".into())],
            &crate::spi::ID.card_spec(),
        )
        .unwrap();
        let imp = import("t.csv", &c, &m, Some(crate::spi::ID), None);
        let errs: Vec<String> = imp.errors().map(ToString::to_string).collect();
        assert_eq!(errs.len(), 3, "{errs:?}");
        assert!(errs[0].starts_with("t.csv:2:"), "{}", errs[0]);
        assert!(
            errs[0].contains("weapon (column \"weapon type\", row 1)"),
            "{}",
            errs[0]
        );
        assert!(
            errs[0].contains("none: SPI Franco-Prussian War has no weapons"),
            "{}",
            errs[0]
        );
        assert!(
            errs[2].contains("`x` is not a whole number") && errs[2].contains("1 to 1000"),
            "{}",
            errs[2]
        );
        let m = map_columns(&c.header.cells, &[], &crate::pk::ID.card_spec()).unwrap();
        let imp = import("t.csv", &c, &m, Some(crate::pk::ID), None);
        assert_eq!(imp.units().len(), 2);
        assert_eq!(imp.mapping.ignored, ["weapon type"]);
    }

    #[test]
    fn a_missing_cell_and_a_repeated_id() {
        let c = csv(
            "name,side,arm,strength\nA,german,infantry,4\n,german,infantry,4\nA,german,infantry,4\n",
        );
        let m = map_columns(&c.header.cells, &[], &crate::pw::ID.card_spec()).unwrap();
        let imp = import("t.csv", &c, &m, Some(crate::pw::ID), None);
        let errs: Vec<String> = imp.errors().map(ToString::to_string).collect();
        assert!(
            errs[0].contains("t.csv:3:") && errs[0].contains("the row has no name"),
            "{errs:?}"
        );
        assert!(errs[1].contains("already used by row 1"), "{errs:?}");
    }
}
