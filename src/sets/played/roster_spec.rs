//! Moved from `src/game/roster/spec.rs` (its unit tests that play a rule set).

mod tests {
    use kepi_game::roster::spec::*;

    use kepi_game::roster::{Arm, Facing, Formation, Quality, Weapon};

    use kepi_game::roster::validate_roster;
    use kepi_game::rules::RuleSetId;

    /// A scenario of `system` with one card, `line` added to a plain infantry card.
    fn one_card(system: RuleSetId, line: &str) -> Result<kepi_game::roster::Scenario, String> {
        let src = format!(
            "system = \"{}\"\n[[unit]]\nname = \"A\"\nside = \"german\"\narm = \"infantry\"\nstrength = 4\n{line}\n",
            system.id()
        );
        validate_roster("t.toml", &src, None).map_err(|e| e.to_string())
    }

    /// The words of a vocabulary field, every one (what a card could say at all).
    fn vocabulary(field: Field) -> Vec<&'static str> {
        match field {
            Field::Arm => Arm::ALL.iter().map(|a| a.as_str()).collect(),
            Field::Quality => Quality::ALL.iter().map(|a| a.as_str()).collect(),
            Field::Weapon => Weapon::ALL.iter().map(|a| a.as_str()).collect(),
            Field::Formation => Formation::ALL.iter().map(|a| a.as_str()).collect(),
            Field::Facing => Facing::ALL.iter().map(|a| a.as_str()).collect(),
            Field::Side => kepi_game::roster::Side::ALL
                .iter()
                .map(|a| a.as_str())
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Each rule set's card: every word it offers loads in a card of that set, every other word of
    /// the vocabulary is refused with the card's own list as the accepted values; every number's
    /// range holds at both ends; its classes are the rule set's.
    #[test]
    fn each_sets_card_accepts_what_the_loader_accepts() {
        for system in crate::ALL {
            let spec = system.card_spec();
            assert_eq!(spec.title, system.title());
            for must in [Field::Name, Field::Side, Field::Arm, Field::Strength] {
                assert!(
                    spec.field(must).is_some_and(|f| f.required),
                    "{system} {must}"
                );
            }
            let qualities: Vec<&str> = system.qualities().iter().map(|q| q.as_str()).collect();
            assert_eq!(
                spec.field(Field::Quality)
                    .map_or(Vec::new(), |f| f.values().to_vec()),
                qualities,
                "{system}"
            );
            for field in [
                Field::Arm,
                Field::Quality,
                Field::Weapon,
                Field::Formation,
                Field::Facing,
            ] {
                let offered = spec.field(field).map_or(&[][..], |f| f.values());
                for word in vocabulary(field) {
                    // The arm replaces the card's own; the rest are added.
                    let line = format!("{field} = \"{word}\"");
                    let r = if field == Field::Arm {
                        let src = format!(
                            "system = \"{}\"\n[[unit]]\nname = \"A\"\nside = \"german\"\narm = \"{word}\"\nstrength = 4\n",
                            system.id()
                        );
                        validate_roster("t.toml", &src, None).map_err(|e| e.to_string())
                    } else {
                        one_card(system, &line)
                    };
                    if offered.contains(&word) {
                        assert!(r.is_ok(), "{system}: {line}: {r:?}");
                    } else {
                        let Err(e) = r else {
                            panic!("{system}: {line} is refused");
                        };
                        assert!(e.contains(&spec.accepted(field)), "{system}: {line}: {e}");
                    }
                }
            }
            for f in &spec.fields {
                if let Kind::Number { min, max, .. } = f.kind {
                    if matches!(f.field, Field::Strength) {
                        continue;
                    }
                    let key = f.field.key();
                    assert!(
                        one_card(system, &format!("{key} = {min}")).is_ok(),
                        "{system} {key}"
                    );
                    assert!(
                        one_card(system, &format!("{key} = {max}")).is_ok(),
                        "{system} {key}"
                    );
                    let e =
                        one_card(system, &format!("{key} = {}", i64::from(max) + 1)).unwrap_err();
                    assert!(
                        e.contains(&format!("{min} to {max}")),
                        "{system} {key}: {e}"
                    );
                }
            }
            let Some(Kind::Number { min, max, .. }) =
                spec.field(Field::Strength).map(|f| f.kind.clone())
            else {
                panic!("{system}: strength is a number");
            };
            let card = |n: u32| {
                format!(
                    "system = \"{}\"\n[[unit]]\nname = \"A\"\nside = \"german\"\narm = \"infantry\"\nstrength = {n}\n",
                    system.id()
                )
            };
            assert!(validate_roster("t", &card(min), None).is_ok());
            assert!(validate_roster("t", &card(max), None).is_ok());
            assert!(validate_roster("t", &card(max + 1), None).is_err());
            // The placing is the rule set's.
            let placing = match spec.field(Field::Hex).map(|f| &f.kind) {
                Some(Kind::Position { placing }) => *placing,
                other => panic!("{system}: hex is a position: {other:?}"),
            };
            assert_eq!(placing == Placing::Hex, system.uses_hexes(), "{system}");
        }
    }
}
