//! Moved from `src/game/roster/write.rs` (its unit tests need a rule set of kepi's).

mod tests {
    use kepi_game::registry::scenarios;
    use kepi_game::roster::validate_roster;
    use kepi_game::roster::write::*;

    /// Every bundled scenario: load, write afresh, load again gives the same scenario.
    fn round_trip(file: &str) {
        let (_, src) = scenarios().into_iter().find(|(f, _)| *f == file).unwrap();
        let s = validate_roster(file, src, None).unwrap();
        let written = to_toml(&s);
        let back = validate_roster("<written>", &written, None)
            .unwrap_or_else(|e| panic!("{e}\n{written}"));
        assert_eq!(back, s, "{file}");
        // Saved over its own text unchanged, the file comes back byte for byte.
        assert_eq!(save_over(src, &s, None), src, "{file}");
        // The builder's save (the opened scenario held) writes what the full save writes.
        let mut changed = s.clone();
        if let Some(u) = changed.units.first_mut() {
            u.strength += 1;
        }
        assert_eq!(
            save_over_opened(src, &s, &changed, None),
            save_over(src, &changed, None),
            "{file}"
        );
    }

    #[test]
    fn mars_la_tour_round_trips() {
        round_trip("mars-la-tour.toml");
    }

    #[test]
    fn pw_skirmish_round_trips() {
        round_trip("pw-skirmish.toml");
    }

    #[test]
    fn st_privat_round_trips() {
        round_trip("st-privat.toml");
    }

    #[test]
    fn spi_1870_round_trips() {
        round_trip("spi-1870.toml");
    }

    #[test]
    fn fr1870_august_round_trips() {
        round_trip("fr1870-august.toml");
    }

    /// Issue 42: a scenario's markers at the start (`[[mark]]`) are written back, read back the
    /// same, kept as written (with their comments) by a save that does not change them, and
    /// written again by one that does.
    #[test]
    fn a_scenarios_markers_round_trip() {
        let src = "name = \"t\"\nsystem = \"spi\"\n\n# cut by the Uhlans\n[[mark]]\n\
                   kind = \"rail-cut\"\ncell = \"0805\"\n\n[[unit]]\nname = \"A\"\n\
                   side = \"french\"\narm = \"infantry\"\nstrength = 5\nhex = \"0101\"\n";
        let s = validate_roster("t.toml", src, None).unwrap();
        assert_eq!(
            s.marks,
            [kepi_game::roster::ScenarioMark {
                kind: "rail-cut".into(),
                cell: "0805".parse().unwrap(),
            }]
        );
        let written = to_toml(&s);
        assert!(
            written.contains("[[mark]]\nkind = \"rail-cut\"\ncell = \"0805\"\n"),
            "{written}"
        );
        assert_eq!(validate_roster("w.toml", &written, None).unwrap(), s);
        let mut changed = s.clone();
        changed.units[0].strength = 4;
        let kept = save_over(src, &changed, None);
        assert!(kept.contains("# cut by the Uhlans\n[[mark]]"), "{kept}");
        changed.marks[0].cell = "0905".parse().unwrap();
        let moved = save_over(src, &changed, None);
        assert_eq!(
            validate_roster("m.toml", &moved, None).unwrap(),
            changed,
            "{moved}"
        );
        assert_eq!(save_over_opened(src, &s, &changed, None), moved);
        changed.marks.clear();
        let none = save_over(src, &changed, None);
        assert!(!none.contains("[[mark]]"), "{none}");
        assert_eq!(validate_roster("n.toml", &none, None).unwrap(), changed);
    }

    #[test]
    fn only_set_fields_in_the_fixed_order_with_the_hierarchy_in_comments() {
        let src = r#"name = "t"
system = "pk"
[[unit]]
name = "I/12th"
side = "german"
arm = "infantry"
strength = 20
army = "Second Army"
corps = "III Corps"
[[unit]]
name = "II/12th"
side = "german"
arm = "infantry"
strength = 20
leaders = 2
army = "Second Army"
corps = "X Corps"
"#;
        let s = validate_roster("t.toml", src, None).unwrap();
        let w = to_toml(&s);
        assert!(
            w.contains("# German side\n# Army: Second Army\n#   Corps: III Corps\n[[unit]]"),
            "{w}"
        );
        assert!(w.contains("\n#   Corps: X Corps\n[[unit]]"), "{w}");
        // PK-L1's default 3 leaders is not written; 2 is.
        assert_eq!(w.matches("leaders = ").count(), 1, "{w}");
        assert!(!w.contains("hex ="), "{w}");
        let first = w.find("[[unit]]").unwrap();
        let card = &w[first..];
        let order: Vec<usize> = ["id =", "name =", "side =", "arm =", "strength =", "army ="]
            .iter()
            .map(|k| card.find(k).unwrap())
            .collect();
        assert!(order.windows(2).all(|p| p[0] < p[1]), "{card}");
    }

    #[test]
    fn a_hand_written_file_keeps_its_comments_when_a_card_changes_and_one_is_added() {
        let src = "# My club's battle\nname = \"t\" # the name\nsystem = \"pw\"\n\n# the Guard\n[[unit]]\nname = \"A\"\nside = \"german\"\narm = \"infantry\"\nstrength = 4 # full\nhex = \"0101\"\n";
        let mut s = validate_roster("t.toml", src, None).unwrap();
        s.units[0].strength = 3;
        let mut b = s.units[0].clone();
        b.id = "b".into();
        b.name = "B \"the second\"".into();
        s.units.push(b);
        let w = save_over(src, &s, None);
        assert!(
            w.starts_with("# My club's battle\nname = \"t\" # the name\n"),
            "{w}"
        );
        assert!(w.contains("# the Guard\n[[unit]]"), "{w}");
        assert!(w.contains("strength = 3 # full"), "{w}");
        let back = validate_roster("t.toml", &w, None).unwrap_or_else(|e| panic!("{e}\n{w}"));
        assert_eq!(back, s);
    }

    #[test]
    fn text_is_escaped() {
        let mut out = String::new();
        basic_string("a \"b\" \\ c\nd\u{7}", &mut out);
        assert_eq!(out, "\"a \\\"b\\\" \\\\ c\\nd\\u0007\"");
    }
}
