//! Moved from `src/game/engine/game/clock.rs` (its unit tests that play a rule set).

mod tests {
    use chrono::NaiveDate;
    use kepi_game::engine::game::clock::*;

    use kepi_game::roster::Side;

    fn d(m: u32, day: u32) -> Option<NaiveDate> {
        NaiveDate::from_ymd_opt(1870, m, day)
    }

    #[test]
    fn fr_t1_calendar_cells() {
        assert_eq!(date_of_turn(crate::fr1870::ID, None, 7, 1), d(8, 19));
        assert_eq!(date_of_turn(crate::fr1870::ID, None, 12, 1), d(9, 3));
        assert_eq!(date_of_turn(crate::fr1870::ID, None, 32, 1), d(11, 2));
        assert_eq!(date_of_turn(crate::fr1870::ID, None, 51, 1), d(12, 29));
        assert_eq!(date_of_turn(crate::fr1870::ID, None, 1, 7), d(8, 19));
    }

    #[test]
    fn spi_t1_turn_11_is_aug_31() {
        assert_eq!(date_of_turn(crate::spi::ID, None, 1, 1), d(8, 1));
        assert_eq!(date_of_turn(crate::spi::ID, None, 1, 11), d(8, 31));
    }

    #[test]
    fn phase_counts() {
        let s = [Side::German, Side::French];
        assert_eq!(phases_for(crate::pk::ID, &s).len(), 4);
        assert_eq!(phases_for(crate::pw::ID, &s).len(), 8);
        assert_eq!(phases_for(crate::spi::ID, &s).len(), 6);
        assert_eq!(phases_for(crate::fr1870::ID, &s).len(), 5);
        assert!(phases_for(crate::pw::ID, &s)[0].starts_with("German"));
    }
}

mod phase_names {
    use kepi_game::engine::game::clock::*;
    use kepi_game::roster::Side;
    use kepi_game::rules::RuleSetId;

    /// The typed phases display exactly as the names saves and logs have always carried: a save
    /// made before phases were typed replays, and its log reads the same.
    #[test]
    fn typed_phases_keep_the_saved_names() {
        let both = [Side::German, Side::French];
        let names = |s: RuleSetId| phases_for(s, &both);
        assert_eq!(
            names(crate::pk::ID),
            [
                "Part 1: movement and fire",
                "Part 2: melee",
                "Part 3: unit morale",
                "Part 4: army morale"
            ]
        );
        assert_eq!(
            names(crate::pw::ID)[..4],
            [
                "German half-turn: 1 artillery fire",
                "German half-turn: 2 movement",
                "German half-turn: 3 rifle fire",
                "German half-turn: 4 melee"
            ]
        );
        assert_eq!(
            names(crate::pw::ID)[4],
            "French half-turn: 1 artillery fire"
        );
        assert_eq!(
            phases_for(crate::pw::ID, &[Side::French, Side::German])[0],
            "French half-turn: 1 artillery fire"
        );
        assert_eq!(
            names(crate::gsp::ID),
            [
                "Movement",
                "Rifle fire",
                "Artillery fire (both sides at once)",
                "Close combat"
            ]
        );
        assert_eq!(
            names(crate::spi::ID),
            [
                "German reinforcement",
                "German movement",
                "German combat",
                "French reinforcement",
                "French movement",
                "French combat"
            ]
        );
        assert_eq!(
            names(crate::fr1870::ID),
            [
                "French movement",
                "French combat",
                "German movement",
                "German combat",
                "Advance calendars"
            ]
        );
    }
}
