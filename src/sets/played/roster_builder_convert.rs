//! Moved from `src/game/roster/builder/convert.rs` (its unit tests that play a rule set).

mod tests {

    use kepi_game::roster::builder::{Key, OrderOfBattle};

    use kepi_game::registry::builtin_scenario;
    use kepi_game::roster::Field;
    use kepi_game::roster::builder::{NodePath, Op};
    use kepi_game::rules::RuleSetId;

    fn of(name: &str) -> OrderOfBattle {
        let s = builtin_scenario(name).unwrap();
        OrderOfBattle::from_scenario(&s, None)
    }

    fn system(name: &str) -> RuleSetId {
        builtin_scenario(name).unwrap().system.unwrap()
    }

    /// Every node of the tree, by path.
    fn paths(o: &OrderOfBattle) -> Vec<NodePath> {
        o.tree().nodes.iter().map(|n| n.path.clone()).collect()
    }

    #[test]
    fn pk_to_pw_carries_what_means_the_same_and_asks_the_strength() {
        let pk = of("mars-la-tour");
        let pw = system("pw-skirmish");
        let (o, r) = pk.convert(pw);
        assert_eq!(o.header.system, Some(pw));
        assert_eq!(o.spec, pw.card_spec());
        assert_eq!(o.len(), pk.len());
        assert_eq!(paths(&o), paths(&pk), "the same tree");
        assert_eq!(o.can_undo(), None, "a new document");
        for (a, b) in pk.drafts().zip(o.drafts()) {
            for f in [
                Field::Id,
                Field::Name,
                Field::Side,
                Field::Nation,
                Field::Arm,
                Field::Army,
                Field::Corps,
                Field::Division,
                Field::Brigade,
                Field::Weapon,
            ] {
                assert_eq!(a.get(f), b.get(f), "{} {f}", a.label());
            }
            // Figures are not strength points: asked, never invented.
            assert!(!b.has(Field::Strength));
            let e = o.error_at(b.key, Field::Strength).expect("strength asked");
            let had = format!("had {} figures", a.get(Field::Strength));
            assert!(e.message.contains(&had), "{}", e.message);
            assert!(e.message.contains("SP"), "{}", e.message);
            assert_eq!(e.accepted, pw.card_spec().accepted(Field::Strength));
            // A class PW has is carried; one it has not is asked, saying what P&K had.
            match a.get(Field::Quality) {
                "elite" => assert_eq!(b.get(Field::Quality), "elite"),
                "" => assert!(b.asked(Field::Quality).is_none()),
                q => {
                    assert!(!b.has(Field::Quality));
                    let e = o.error_at(b.key, Field::Quality).expect("quality asked");
                    assert!(e.message.contains(&format!("`{q}`")), "{}", e.message);
                    assert!(e.message.contains("Pickelhaube & Kepi"), "{}", e.message);
                    assert_eq!(e.accepted, "elite, normal, poor");
                }
            }
            assert!(!b.has(Field::Formation), "PW's card has no formation");
        }
        assert!(r.dropped.get(&Field::Formation).is_some_and(|n| *n > 0));
        assert!(r.asked.iter().any(|(_, f, _)| *f == Field::Strength));
        assert_eq!(r.asked.len(), o.errors().len());
        assert_eq!(o.to_scenario().map(|_| ()), Err(o.errors().len()));
    }

    #[test]
    fn filling_the_asked_fields_makes_a_battle_and_undo_asks_again() {
        let (mut o, _) = of("mars-la-tour").convert(system("pw-skirmish"));
        let asked: Vec<(Key, Field)> = o.errors().iter().map(|e| (e.key, e.field)).collect();
        let (k0, f0) = asked[0];
        for (key, field) in asked {
            let value = match field {
                Field::Strength => "4",
                Field::Quality => "",
                other => panic!("{other} asked"),
            };
            o.apply(Op::Set {
                key,
                field,
                value: value.into(),
            })
            .unwrap();
        }
        assert!(o.errors().is_empty(), "{:?}", o.errors());
        let s = o.to_scenario().unwrap();
        assert_eq!(s.system, Some(system("pw-skirmish")));
        // Undoing an answer asks again.
        while o.undo() {}
        assert!(o.error_at(k0, f0).is_some());
    }

    #[test]
    fn pw_to_spi_asks_an_arm_it_has_not_and_keeps_hexes() {
        let pw = of("pw-skirmish");
        let spi = system("spi-1870");
        let (o, r) = pw.convert(spi);
        let art = o
            .drafts()
            .find(|d| d.get(Field::Name) == "Prussian Field Battery")
            .unwrap();
        assert!(!art.has(Field::Arm));
        let e = o.error_at(art.key, Field::Arm).expect("arm asked");
        assert!(e.message.contains("`artillery`"), "{}", e.message);
        assert_eq!(e.accepted, spi.card_spec().accepted(Field::Arm));
        assert_eq!(art.get(Field::Hex), "0302");
        assert_eq!(art.get(Field::Movement), "2", "MP on both cards");
        assert_eq!(art.get(Field::Facing), "s");
        let inf = o
            .drafts()
            .find(|d| d.get(Field::Arm) == "infantry")
            .unwrap();
        assert!(o.error_at(inf.key, Field::Arm).is_none());
        let e = o.error_at(inf.key, Field::Strength).expect("SP are not CP");
        assert!(e.message.contains("had 4 SP"), "{}", e.message);
        for f in [Field::Quality, Field::Weapon] {
            assert!(!inf.has(f));
            assert!(r.dropped.contains_key(&f), "{f}");
        }
        assert!(o.header.map.is_none(), "PW's board is not SPI's");
        assert!(
            r.header_dropped.iter().any(|h| h.starts_with("map:")),
            "{:?}",
            r.header_dropped
        );
    }

    #[test]
    fn figures_carry_between_two_cards_that_count_figures() {
        let pk = of("mars-la-tour");
        let (o, _) = pk.convert(system("st-privat"));
        for (a, b) in pk.drafts().zip(o.drafts()) {
            assert_eq!(a.get(Field::Strength), b.get(Field::Strength));
        }
        assert!(
            o.errors().iter().all(|e| e.field != Field::Strength),
            "{:?}",
            o.errors()
        );
    }

    #[test]
    fn pw_to_pk_keeps_the_hexes_and_drops_the_movement() {
        let pw = of("pw-skirmish");
        let (o, r) = pw.convert(system("mars-la-tour"));
        for (a, b) in pw.drafts().zip(o.drafts()) {
            assert_eq!(a.get(Field::Hex), b.get(Field::Hex));
            assert_eq!(a.get(Field::Arrives), b.get(Field::Arrives));
            assert!(!b.has(Field::Movement), "P&K's card has no movement");
            // PW's normal is not a P&K class.
            if a.get(Field::Quality) == "normal" {
                assert!(o.error_at(b.key, Field::Quality).is_some());
            }
        }
        assert!(r.dropped.get(&Field::Movement).is_some_and(|n| *n > 0));
    }

    #[test]
    fn a_converted_file_opens_again_with_its_fields_to_fill() {
        let (o, _) = of("mars-la-tour").convert(system("pw-skirmish"));
        let text = o.draft_toml();
        assert!(
            text.contains("# TO FILL: strength: Pickelhaube & Kepi had 20 figures"),
            "{text}"
        );
        let back = OrderOfBattle::from_source("pw.toml", &text, None).unwrap();
        assert_eq!(back.header.system, o.header.system);
        assert_eq!(back.len(), o.len());
        for (a, b) in o.drafts().zip(back.drafts()) {
            let av: Vec<_> = a.values().collect();
            let bv: Vec<_> = b.values().collect();
            assert_eq!(av, bv);
        }
        // The same fields to fill (a missing strength says so; an optional class asked by the
        // conversion is in the file's comment).
        let fields =
            |o: &OrderOfBattle, f: Field| o.errors().iter().filter(|e| e.field == f).count();
        assert_eq!(fields(&back, Field::Strength), fields(&o, Field::Strength));
    }
}
