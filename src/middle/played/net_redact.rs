//! Moved from `src/middle/net/redact.rs` (its unit tests that play a rule set).

mod tests {
    use crate::net::redact::*;

    use kepi_game::engine::game::Action;
    use kepi_game::engine::game::{Game, LogEntry};
    use kepi_game::roster::Side;

    /// The demo battle with a few actions: a note (no unit), a loss on a german unit, one on a
    /// french unit.
    fn game() -> Game {
        let scenario = kepi_game::registry::builtin_scenario("mars-la-tour").expect("scenario");
        let system = scenario.system.expect("a rule set");
        let now = chrono::Utc::now();
        let mut g = Game::new(
            &scenario,
            system,
            kepi_game::engine::game::SeedSecret::new(1870),
            now,
        );
        g.act(
            Action::Note {
                text: "dawn".into(),
            },
            now,
        )
        .expect("note");
        for unit in ["12th-grenadiers-1", "8e-ligne-1"] {
            g.act(
                Action::LoseStrength {
                    unit: unit.into(),
                    n: 1,
                },
                now,
            )
            .expect("loss");
        }
        g
    }

    fn key() -> ChainKey {
        ChainKey::parse(&"5a".repeat(32)).expect("a key")
    }

    fn seen_by_german(g: &Game) -> Vec<SeatEntry> {
        SeatChains::new(key()).seen(Side::German, g.log(), g.state(), 0..g.log().len(), true)
    }

    fn german_head(g: &Game) -> String {
        SeatChains::new(key()).head(Side::German, g.log(), g.state())
    }

    #[test]
    fn a_seat_sees_its_own_and_neutral_entries_whole_and_the_others_as_chain_places() {
        let g = game();
        let seen = seen_by_german(&g);
        let hidden: Vec<bool> = seen.iter().map(|e| e.hidden).collect();
        // The start (the whole roster), the note, the german loss, the french loss.
        assert_eq!(hidden, [true, false, false, true]);
        let mut log = SeenLog::default();
        for e in seen {
            assert_eq!(log.push(e), Ok(true));
        }
        // The seat's own chain, not the log's: no hash of the log reaches the seat.
        assert_eq!(log.head(), german_head(&g));
        for e in g.log() {
            assert!(
                log.entries
                    .iter()
                    .all(|s| s.hash != e.hash && s.prev != e.hash),
                "entry {}'s hash was sent",
                e.index
            );
        }
        // The same entry again is no news; a catch-up after a reconnection may resend it.
        let again = seen_by_german(&g).pop().expect("an entry");
        assert_eq!(log.push(again), Ok(false));
    }

    #[test]
    fn a_forged_or_reordered_entry_is_refused() {
        let g = game();
        let seen = seen_by_german(&g);
        let mut log = SeenLog::default();
        log.push(seen[0].clone()).expect("start");
        // A whole entry whose body was changed (the figures lost) no longer hashes to its hash.
        let mut forged = seen[1].clone();
        if let Some(w) = &mut forged.entry {
            w.summary = "the Guard routs".into();
        }
        let e = log.push(forged).expect_err("forged");
        assert!(e.contains("hashes to"), "{e}");
        // A body under another entry's header.
        let mut swapped = seen[1].clone();
        swapped.entry = seen[2].entry.clone();
        assert!(log.push(swapped).is_err());
        // A hidden entry that carries a body, or a whole one without.
        let mut leaky = seen[1].clone();
        leaky.hidden = true;
        assert!(log.push(leaky).is_err());
        // Skipping an entry, or one that links elsewhere.
        assert!(
            log.push(seen[2].clone())
                .expect_err("skip")
                .contains("skipped")
        );
        let mut unlinked = seen[1].clone();
        unlinked.prev = "0".repeat(64);
        assert!(log.push(unlinked).is_err());
        // The true entry still goes in: nothing above was kept.
        assert_eq!(log.push(seen[1].clone()), Ok(true));
        // And an entry already held cannot be replaced by another.
        let mut other = seen[1].clone();
        other.time += chrono::Duration::seconds(1);
        assert!(log.push(other).expect_err("changed").contains("changed"));
    }

    #[test]
    fn a_seats_state_keeps_its_own_units_and_has_placeholders_for_the_others() {
        let g = game();
        let s = seat_state(&g, Side::German);
        for (mine, real) in s.units.iter().zip(&g.state().units) {
            if real.unit.side == Side::German {
                assert_eq!(mine.strength, real.strength);
                assert_eq!(mine.leaders, real.leaders);
                assert!(!mine.strength_hidden);
            } else {
                assert!(mine.strength_hidden);
                assert_eq!(mine.strength, PLACEHOLDER, "{}", mine.unit.id);
                assert_eq!(mine.unit.strength, PLACEHOLDER, "the card too");
                assert_eq!((mine.leaders, mine.unit.leaders, mine.fatigue), (0, 0, 0));
                assert_eq!(mine.eliminated(), real.eliminated());
                assert_eq!(mine.position, real.position, "the table sees where it is");
            }
        }
        // Checks about the other side's units, or naming them, are not the seat's to see.
        let mut st = g.state().clone();
        let due = |unit: Option<&str>, what: &str| kepi_game::engine::flow::Due {
            id: 0,
            rule: kepi_game::rules::RuleId::new("PK-X5"),
            unit: unit.map(str::to_string),
            side: None,
            what: what.to_string(),
            form: None,
            at: None,
            by_move: false,
            turn: 1,
            phase: String::new(),
        };
        st.due.push(due(Some("12th-grenadiers-1"), "fatigue check"));
        st.due.push(due(Some("8e-ligne-1"), "fatigue check"));
        st.due.push(due(None, "I/8e de ligne lost a third: morale"));
        st.due.push(due(None, "end of turn"));
        let kept: Vec<String> = seat_state_of(&st, Side::German)
            .due
            .iter()
            .map(|d| format!("{:?} {}", d.unit, d.what))
            .collect();
        assert!(kept.contains(&"Some(\"12th-grenadiers-1\") fatigue check".to_string()));
        assert!(kept.contains(&"None end of turn".to_string()));
        assert!(
            !kept
                .iter()
                .any(|k| k.contains("8e-ligne") || k.contains("I/8e")),
            "{kept:?}"
        );
        // The shown game: the log as the seat may read it, each hidden entry at its place.
        let mut log = SeenLog::default();
        for e in seen_by_german(&g) {
            log.push(e).expect("verifies");
        }
        assert!(log.game().is_none(), "no state sent yet");
        log.state = Some(Box::new(s));
        let shown = log.game().expect("a game");
        assert!(shown.is_seat_view() && !shown.can_undo());
        let summaries: Vec<&str> = shown.log().iter().map(|e| e.summary.as_str()).collect();
        assert_eq!(summaries.len(), g.log().len());
        assert!(summaries[3].contains("hidden"), "{summaries:?}");
        assert_eq!(summaries[1], g.log()[1].summary);
        // "Verify chain" on it: the links and the whole entries hold; a changed one does not.
        assert_eq!(verify_seat_log(shown.log()), Ok(german_head(&g)));
        let mut changed = shown.log().to_vec();
        changed[1].summary = "the Guard routs".into();
        assert_eq!(verify_seat_log(&changed), Err(1));
    }

    #[test]
    fn the_view_and_refusals_hide_the_other_sides_strengths() {
        let g = game();
        let v = seat_view(&g, Side::German, german_head(&g));
        assert_eq!(v["head"], german_head(&g));
        assert!(v["dice_draws"].is_null());
        let units = v["units"].as_array().expect("units");
        for u in units {
            let own = u["side"] == "german";
            assert_eq!(u["hidden"], !own);
            for f in HIDDEN_FIELDS {
                assert_eq!(u[*f].is_null(), !own, "{f} of {}", u["id"]);
            }
        }
        let told = scrub("8e-ligne-1 has 21, cannot lose 30", g.state(), Side::German);
        assert!(!told.contains("21"), "{told}");
        let own = scrub("12th-grenadiers-1 has 19", g.state(), Side::German);
        assert_eq!(own, "12th-grenadiers-1 has 19");
    }
    #[test]
    fn a_hidden_entry_carries_nothing_a_guess_can_be_checked_against() {
        let g = game();
        let seen = seen_by_german(&g);
        let truth = &g.log()[3];
        assert!(seen[3].hidden && seen[3].entry.is_none(), "the French loss");
        // Everything the seat was sent that a guess could be hashed to.
        let sent: Vec<&str> = seen
            .iter()
            .flat_map(|e| [e.hash.as_str(), e.prev.as_str()])
            .collect();
        // The probe of issue 29: each loss the entry could be, made exactly as the log makes it.
        let before = Game::from_log(g.log()[..3].to_vec(), None).expect("replays");
        let (mut tried, mut found_by_log_hash, mut recovered) = (0, Vec::new(), Vec::new());
        for n in 0..=60u32 {
            let mut guessing = before.clone();
            let Ok(guess) = guessing
                .act(
                    Action::LoseStrength {
                        unit: "8e-ligne-1".into(),
                        n,
                    },
                    truth.time,
                )
                .cloned()
            else {
                continue;
            };
            tried += 1;
            // Control: were the log's hash sent, as before issue 29, the guess would check out.
            if guess.hash == truth.hash {
                found_by_log_hash.push(n);
            }
            // The guess hashed as the log does, and as a whole body in the seat's chain.
            let as_seat_body = body(&guess, &seen[3].prev, None);
            if sent.contains(&guess.hash.as_str()) || sent.contains(&as_seat_body.hash.as_str()) {
                recovered.push(n);
            }
        }
        assert!(tried > 10, "{tried} guesses");
        assert_eq!(found_by_log_hash, [1], "the probe itself works");
        assert!(recovered.is_empty(), "recovered {recovered:?}");
    }

    #[test]
    fn the_reveal_opens_every_hidden_entry_and_the_seat_checks_each() {
        let mut g = game();
        let mut chains = SeatChains::new(key());
        let mut log = SeenLog::default();
        for e in chains.seen(Side::German, g.log(), g.state(), 0..g.log().len(), true) {
            log.push(e).expect("verifies");
        }
        let held = log.entries.clone();
        g.reveal(chrono::Utc::now()).expect("reveal");
        let len = g.log().len();
        let batch = chains.seen(Side::German, g.log(), g.state(), len - 1..len, true);
        // The start and the French loss, opened, then the reveal itself.
        let indices: Vec<u64> = batch.iter().map(|e| e.index).collect();
        assert_eq!(indices, [0, 3, 4]);
        // A forged opening is refused: another body, or another secret.
        let mut forged = batch[1].clone();
        if let Some(w) = &mut forged.entry {
            w.summary = "8e-ligne-1 loses 5".into();
        }
        assert!(log.push(forged).is_err());
        let mut wrong_secret = batch[1].clone();
        if let Some(w) = &mut wrong_secret.entry {
            w.prev = format!("{}:{}", batch[1].prev, "0".repeat(64));
        }
        assert!(log.push(wrong_secret).is_err());
        for e in batch {
            assert_eq!(log.push(e), Ok(true));
        }
        // Opened: the log's entry in the seat's chain, under the hash the seat held all along.
        let opened = log.entries[3].entry.as_ref().expect("opened");
        assert_eq!(opened.kind, g.log()[3].kind);
        assert_eq!(opened.summary, g.log()[3].summary);
        assert_eq!(log.entries[3].hash, held[3].hash);
        assert!(log.entries[0].entry.is_some(), "the start too");
        // Sent again, an opening is no news; the window's Verify chain holds over them.
        let again = chains.seen(Side::German, g.log(), g.state(), 3..4, false);
        assert_eq!(log.push(again[0].clone()), Ok(false));
        log.state = Some(Box::new(seat_state(&g, Side::German)));
        let shown = log.game().expect("a game");
        assert_eq!(
            verify_seat_log(shown.log()),
            Ok(chains.head(Side::German, g.log(), g.state()))
        );
    }

    /// Issue 44: a resolution the rules cannot finish for a seat with hidden strengths is
    /// logged for the umpire with the die it rolled spent, so no later answer shows that die
    /// as the next one; the log replays with it.
    #[test]
    fn a_resolution_the_rules_cannot_finish_spends_its_dice_in_the_log() {
        let mut g = game();
        let now = chrono::Utc::now();
        let d6: kepi_game::dice::DiceExpr = "d6".parse().expect("an expression");
        let first = |e: &LogEntry| e.dice.first().map(|r| r.value);
        // What kepi's next die is, on a copy.
        let next = first(&g.clone().roll(&d6, now).expect("a roll").clone());
        let before = g.state().dice.draws;
        let made = g
            .resolve_logged_or_hand_over(
                Vec::new(),
                Some(serde_json::json!({"target": "8e-ligne-1"})),
                &[],
                |_, dice| {
                    dice.roll(kepi_game::dice::Die::D6, "CRT d6").map_err(|e| {
                        kepi_game::rules::RuleError::input("dice", e.to_string(), "d6")
                    })?;
                    Err(kepi_game::rules::RuleError::input(
                        "--result",
                        format!(
                            "kepi does not know the 3:1 cell; {}",
                            kepi_game::rules::SAME_FACE
                        ),
                        "a result",
                    ))
                },
                now,
            )
            .expect("logged, not refused")
            .clone();
        assert_eq!(first(&made), next, "the die rolled for it is logged");
        assert!(made.summary.contains("not applied") && made.summary.contains("--dice d6="));
        assert!(!made.summary.contains("same face"), "{}", made.summary);
        assert_eq!(g.state().dice.draws, before + 1, "and spent");
        let after = g.roll(&d6, now).expect("a roll").clone();
        assert_eq!(g.state().dice.draws, before + 2, "the next roll moves on");
        assert!(after.dice.len() == 1);
        // It names the other side's unit: a german seat sees its place only.
        let seen = seen_by_german(&g);
        assert!(seen[made.index as usize].hidden);
        let replayed = Game::from_log(g.log().to_vec(), None).expect("the log replays");
        // And `kepi log verify`'s audit passes it: a hand-over is no forgery.
        let tables = kepi_game::registry::builtin_tables().expect("the shipped tables");
        replayed
            .audit_outcomes(|game, action, rev| {
                crate::moves::play::recheck_act(game, action, tables, rev)
            })
            .expect("a handed-over resolution verifies");
    }
    #[test]
    fn a_seat_is_not_told_how_far_the_dice_went() {
        let mut g = game();
        let now = chrono::Utc::now();
        let d6: kepi_game::dice::DiceExpr = "2d6".parse().expect("an expression");
        g.roll(&d6, now).expect("a roll");
        g.roll(&d6, now).expect("another");
        let seen = seen_by_german(&g);
        let draws = |e: &LogEntry| match &e.kind {
            kepi_game::engine::game::EntryKind::Act {
                action: Action::Roll { draws, .. },
            } => Some(*draws),
            _ => None,
        };
        // The log counts the dice; the rolls the seat reads whole say 0.
        assert!(g.log().iter().filter_map(draws).max() > Some(0));
        let whole: Vec<u64> = seen
            .iter()
            .filter_map(|e| e.entry.as_ref().and_then(draws))
            .collect();
        assert_eq!(whole, [0, 0]);
        assert_eq!(seat_state(&g, Side::German).dice.draws, 0);
        let mut log = SeenLog::default();
        for e in seen {
            log.push(e).expect("the seat's chain holds");
        }
    }
}
