//! Moved from `src/middle/moves/play.rs` (its unit tests that play a rule set).

mod tests {
    use crate::moves::play::*;

    use kepi_game::dice::{DiceSource, Die};

    use kepi_game::engine::play::Form;

    use kepi_game::engine::verbs::Given;

    /// Every form of every rule set has exactly one verb, and every verb and alias is known as
    /// one.
    #[test]
    fn every_form_has_a_verb() {
        for system in kepi_sets::ALL {
            let forms: Vec<&str> = Form::all_for(system).iter().map(Form::name).collect();
            let specs: Vec<&str> = specs_for(system).map(|s| s.form).collect();
            assert_eq!(forms, specs, "{system:?}");
            for spec in specs_for(system) {
                assert!(is_play_verb(spec.verb), "{}", spec.verb);
                for a in spec.aliases {
                    assert!(is_play_verb(a), "{a}");
                }
            }
        }
        assert!(!is_play_verb("move") && !is_play_verb("waive"));
    }

    /// A formation change logged before kepi recorded the formation (its effects without the
    /// marker) still verifies; a logged effect the result does not give is still reported.
    #[test]
    fn a_result_logged_before_a_marker_was_recorded_still_verifies() {
        use kepi_game::engine::game::{Action, Flag, FlagName, Game, SeedSecret};
        let scenario = kepi_game::registry::builtin_scenario("spi-1870").unwrap();
        let g = Game::new(
            &scenario,
            kepi_sets::spi::ID,
            SeedSecret {
                seed: 3,
                salt: "t".into(),
            },
            chrono::Utc::now(),
        );
        let tables = kepi_game::registry::builtin_tables().unwrap();
        let mut form = Form::all_for(kepi_sets::spi::ID)
            .into_iter()
            .find(|f| f.name() == "formation")
            .unwrap();
        form.prefill(g.state(), Some("fr-metz-5"), None, tables);
        let input = form.to_value();
        let (mut res, fx) = form
            .resolve(g.state(), tables, Some(&mut DiceSource::entered_only()))
            .unwrap();
        // Logged as `kepi game apply` logs it: with what the umpire went ahead with.
        res.notes.extend(
            kepi_game::engine::play::breaches::warnings(&form, &g, tables)
                .iter()
                .map(|w| format!("umpire went ahead: {w}")),
        );
        assert!(
            fx.iter().any(|a| matches!(
                a,
                Action::SetFlag {
                    flag: FlagName::Flag(Flag::Extended),
                    ..
                }
            )),
            "{fx:?}"
        );
        let logged = |effects: Vec<Action>| Action::Resolved {
            resolution: Box::new(res.clone()),
            effects,
            draws: 0,
            units: vec!["fr-metz-5".into()],
            input: None,
        };
        assert_eq!(
            recheck(
                &g,
                &input,
                &logged(fx.clone()),
                tables,
                kepi_game::engine::game::LOG_REVISION
            ),
            Ok(())
        );
        assert_eq!(
            recheck(
                &g,
                &input,
                &logged(Vec::new()),
                tables,
                kepi_game::engine::game::LOG_REVISION
            ),
            Ok(()),
            "as logged before the formation was recorded"
        );
        let wrong = vec![Action::LoseStrength {
            unit: "fr-metz-5".into(),
            n: 1,
        }];
        assert!(
            recheck(
                &g,
                &input,
                &logged(wrong),
                tables,
                kepi_game::engine::game::LOG_REVISION
            )
            .is_err()
        );
    }

    /// Issue 46: a PW melee's dice say whose ("attacker ...", "defender ..."); one logged before,
    /// labelled by arm only, still verifies, and a changed value is still reported.
    #[test]
    fn a_pw_melee_logged_with_its_older_dice_labels_still_verifies() {
        use kepi_game::engine::game::{Action, Game, SeedSecret};
        let scenario = kepi_game::registry::builtin_scenario("pw-skirmish").unwrap();
        let mut g = Game::new(
            &scenario,
            kepi_sets::pw::ID,
            SeedSecret {
                seed: 3,
                salt: "t".into(),
            },
            chrono::Utc::now(),
        );
        let tables = kepi_game::registry::builtin_tables().unwrap();
        let words: Vec<String> = ["move", "de-cav", "0303", "face", "de-cav", "s"]
            .iter()
            .map(|w| w.to_string())
            .collect();
        crate::moves::apply_in_memory(&mut g, &words, tables).unwrap();
        let mut form = Form::all_for(kepi_sets::pw::ID)
            .into_iter()
            .find(|f| f.name() == "melee")
            .unwrap();
        form.prefill(g.state(), Some("de-cav"), Some("fr-inf-3"), tables);
        let input = form.to_value();
        let mut dice = DiceSource::entered_only();
        dice.enter(Die::D6, 5).unwrap().enter(Die::D6, 2).unwrap();
        let (mut res, fx) = form.resolve(g.state(), tables, Some(&mut dice)).unwrap();
        res.notes.extend(
            kepi_game::engine::play::breaches::warnings(&form, &g, tables)
                .iter()
                .map(|w| format!("umpire went ahead: {w}")),
        );
        let labels: Vec<&str> = res.dice.iter().map(|d| d.label.as_str()).collect();
        assert_eq!(
            labels,
            ["attacker cavalry melee", "defender infantry melee"]
        );
        let logged = |res: &kepi_game::rules::Resolution<serde_json::Value>| Action::Resolved {
            resolution: Box::new(res.clone()),
            effects: fx.clone(),
            draws: 0,
            units: vec!["de-cav".into(), "fr-inf-3".into()],
            input: None,
        };
        assert_eq!(
            recheck(
                &g,
                &input,
                &logged(&res),
                tables,
                kepi_game::engine::game::LOG_REVISION
            ),
            Ok(())
        );
        let mut older = res.clone();
        for d in &mut older.dice {
            d.label = d.label.split_once(' ').unwrap().1.to_string();
        }
        assert_eq!(
            recheck(
                &g,
                &input,
                &logged(&older),
                tables,
                kepi_game::engine::game::LOG_REVISION
            ),
            Ok(()),
            "as logged before the dice said whose"
        );
        older.dice[1].label = "cavalry melee".into();
        assert!(
            recheck(
                &g,
                &input,
                &logged(&older),
                tables,
                kepi_game::engine::game::LOG_REVISION
            )
            .is_err()
        );
    }

    /// Every option of every verb's `kepi resolve` command is applied to the form or refused with
    /// a reason: an option added to `kepi resolve` and forgotten in play fails here.
    #[test]
    fn every_option_is_applied_or_refused() {
        let tables = kepi_game::registry::builtin_tables().unwrap();
        for system in kepi_sets::ALL {
            for spec in specs_for(system) {
                let cmd = spec_command(system, spec).unwrap();
                let m = cmd
                    .clone()
                    .mut_args(|a| a.required(false))
                    .try_get_matches_from(Vec::<String>::new())
                    .unwrap();
                let g = Given::new(m, spec.verb, kepi_game::rules::Scale::default());
                let mut form = Form::all_for(system)
                    .into_iter()
                    .find(|f| f.name() == spec.form)
                    .unwrap();
                (spec.overlay)(&g, &mut form, tables).unwrap();
                let read = g.read();
                for a in cmd.get_arguments() {
                    let id = a.get_id().as_str();
                    assert!(
                        id == "dice"
                            || read.contains(id)
                            || spec.refused.iter().any(|(r, _)| *r == id),
                        "`{}` ({system:?}): option `{id}` is neither applied nor refused",
                        spec.verb,
                    );
                }
            }
        }
    }
}
