//! Moved from `src/game/roster/builder.rs` (its unit tests that play a rule set).

mod tests {
    use kepi_game::roster::builder::*;

    use kepi_game::roster::{Field, Side, validate_roster};
    use kepi_game::rules::RuleSetId;

    use kepi_game::registry::builtin_scenario;

    fn pk() -> OrderOfBattle {
        let s = builtin_scenario("mars-la-tour").unwrap();
        OrderOfBattle::from_scenario(&s, None)
    }

    fn system() -> RuleSetId {
        builtin_scenario("mars-la-tour").unwrap().system.unwrap()
    }

    /// Two sides, a unit each, as a new battle is built.
    fn two_sides() -> (OrderOfBattle, Key, Key) {
        let mut o = OrderOfBattle::new_battle(
            Some(system()),
            "club-battle",
            vec![Side::German, Side::French],
        );
        let g = o
            .apply(Op::AddNode {
                parent: NodePath::side(Side::German),
                name: "Second Army".into(),
            })
            .unwrap()
            .unwrap();
        let f = o
            .apply(Op::AddNode {
                parent: NodePath::side(Side::French),
                name: "Army of the Rhine".into(),
            })
            .unwrap()
            .unwrap();
        (o, g, f)
    }

    #[test]
    fn a_scenario_opens_as_its_tree_and_saves_back_the_same() {
        let s = builtin_scenario("mars-la-tour").unwrap();
        let o = pk();
        assert!(o.errors().is_empty(), "{:?}", o.errors());
        assert_eq!(o.to_scenario().unwrap(), s);
        let roots: Vec<&str> = o
            .tree()
            .roots
            .iter()
            .map(|&r| o.tree().nodes[r].path.side.as_str())
            .collect();
        assert_eq!(roots.len(), 2);
        let total: usize = o
            .tree()
            .roots
            .iter()
            .map(|&r| o.tree().nodes[r].totals.units)
            .sum();
        assert_eq!(total, s.units.len());
    }

    /// Issue 42: a scenario's markers at the start (`[[mark]]`) are the header's: the builder
    /// opens a file with them and saves them back, as it does the map and the scale.
    #[test]
    fn a_scenarios_markers_survive_the_builder() {
        let src = "name = \"t\"\nsystem = \"spi\"\n[[mark]]\nkind = \"rail-cut\"\n\
                   cell = \"0805\"\n[[unit]]\nname = \"A\"\nside = \"french\"\n\
                   arm = \"infantry\"\nstrength = 5\nhex = \"0101\"\n";
        let o = OrderOfBattle::from_source("t.toml", src, None).unwrap();
        let s = o.to_scenario().unwrap();
        assert_eq!(s.marks.len(), 1);
        assert_eq!(s, validate_roster("t.toml", src, None).unwrap());
    }

    #[test]
    fn every_bundled_scenario_opens_clean_and_round_trips() {
        for (file, src) in kepi_game::registry::scenarios() {
            let s = validate_roster(file, src, None).unwrap();
            let o = OrderOfBattle::from_source(file, src, None).unwrap();
            assert!(o.errors().is_empty(), "{file}: {:?}", o.errors());
            assert_eq!(o.to_scenario().unwrap(), s, "{file}");
        }
    }

    #[test]
    fn adding_builds_the_tree_with_totals() {
        let (mut o, g, _) = two_sides();
        let army = NodePath::side(Side::German).child(Level::Army, "Second Army");
        // The army's untouched placeholder goes down into the new corps.
        let moved = o
            .apply(Op::AddNode {
                parent: army.clone(),
                name: "III Corps".into(),
            })
            .unwrap();
        assert_eq!(moved, Some(g));
        let node = o.tree().find(&army).unwrap();
        assert_eq!(node.totals.units, 1);
        assert_eq!(node.children.len(), 1);
        assert!(node.units.is_empty(), "no stray unit left on the army");
        assert_eq!(o.draft(g).unwrap().get(Field::Corps), "III Corps");
        // Down to a brigade: still one unit, in the brigade.
        let corps = army.child(Level::Corps, "III Corps");
        o.apply(Op::AddNode {
            parent: corps.clone(),
            name: "5th Division".into(),
        })
        .unwrap();
        let division = corps.child(Level::Division, "5th Division");
        o.apply(Op::AddNode {
            parent: division.clone(),
            name: "10th Brigade".into(),
        })
        .unwrap();
        assert_eq!(o.len(), 2, "the German placeholder and the French one");
        assert_eq!(
            o.draft(g).unwrap().path(),
            division.child(Level::Brigade, "10th Brigade")
        );
        // A unit someone changed stays where it is: a new level then gets a card of its own.
        o.apply(Op::Set {
            key: g,
            field: Field::Strength,
            value: "20".into(),
        })
        .unwrap();
        o.apply(Op::AddNode {
            parent: division.clone(),
            name: "9th Brigade".into(),
        })
        .unwrap();
        assert_eq!(o.len(), 3);
        let node = o.tree().find(&army).unwrap();
        assert_eq!(node.totals.units, 2);
        assert_eq!(node.totals.strength, 21);
        assert_eq!(o.strength_unit(), "figures");
        assert!(o.errors().is_empty(), "{:?}", o.errors());
        // One undo puts the 9th Brigade's card away, the next the 20 figures.
        assert!(o.undo());
        assert_eq!(o.len(), 2);
        let s = o.to_scenario().unwrap();
        assert_eq!(s.units.len(), 2);
        assert_eq!(s.sides, vec![Side::German, Side::French]);
    }

    #[test]
    fn errors_are_per_field_and_go_when_fixed() {
        let (mut o, g, _) = two_sides();
        o.apply(Op::Set {
            key: g,
            field: Field::Strength,
            value: "5000".into(),
        })
        .unwrap();
        o.apply(Op::Set {
            key: g,
            field: Field::Name,
            value: String::new(),
        })
        .unwrap();
        o.apply(Op::Set {
            key: g,
            field: Field::Facing,
            value: "up".into(),
        })
        .unwrap();
        let fields: Vec<Field> = o.errors_of(g).map(|e| e.field).collect();
        assert_eq!(fields, vec![Field::Name, Field::Strength, Field::Facing]);
        let e = o.error_at(g, Field::Strength).unwrap();
        assert!(e.message.contains("out of range"), "{e:?}");
        assert!(e.accepted.contains("1 to"), "{e:?}");
        assert_eq!(o.to_scenario(), Err(3));
        o.apply(Op::Set {
            key: g,
            field: Field::Strength,
            value: "18".into(),
        })
        .unwrap();
        o.apply(Op::Set {
            key: g,
            field: Field::Name,
            value: "I/12th".into(),
        })
        .unwrap();
        o.apply(Op::Set {
            key: g,
            field: Field::Facing,
            value: "north".into(),
        })
        .unwrap();
        assert!(o.errors().is_empty(), "{:?}", o.errors());
        // A word the card does not offer is the loader's own message.
        o.apply(Op::Set {
            key: g,
            field: Field::Arm,
            value: "railway".into(),
        })
        .unwrap();
        let e = o.error_at(g, Field::Arm).unwrap();
        assert_eq!(e.accepted, o.spec.accepted(Field::Arm));
    }

    #[test]
    fn repeated_ids_are_an_error_on_the_later_card() {
        let (mut o, g, f) = two_sides();
        let name = o.draft(g).unwrap().get(Field::Name).to_string();
        o.apply(Op::Set {
            key: f,
            field: Field::Name,
            value: name,
        })
        .unwrap();
        let e: Vec<&FieldError> = o.errors().iter().collect();
        assert_eq!(e.len(), 1);
        assert_eq!((e[0].key, e[0].field), (f, Field::Name));
    }

    #[test]
    fn rename_renames_every_card_under_the_node() {
        let (mut o, _, _) = two_sides();
        let army = NodePath::side(Side::German).child(Level::Army, "Second Army");
        o.apply(Op::AddUnit {
            parent: army.clone(),
        })
        .unwrap();
        o.apply(Op::Rename {
            node: army,
            name: "First Army".into(),
        })
        .unwrap();
        let n = o
            .drafts()
            .filter(|d| d.get(Field::Army) == "First Army")
            .count();
        assert_eq!(n, 2);
        assert!(
            o.apply(Op::Rename {
                node: NodePath::side(Side::German),
                name: "x".into()
            })
            .is_err()
        );
    }

    fn brigade(o: &mut OrderOfBattle) -> NodePath {
        let div = NodePath::side(Side::German)
            .child(Level::Army, "Second Army")
            .child(Level::Corps, "III Corps")
            .child(Level::Division, "5th Division");
        let b = div.child(Level::Brigade, "9th Brigade");
        let k = o
            .apply(Op::AddNode {
                parent: div,
                name: "9th Brigade".into(),
            })
            .unwrap()
            .unwrap();
        o.apply(Op::Set {
            key: k,
            field: Field::Name,
            value: "I/8th Grenadiers".into(),
        })
        .unwrap();
        let k2 = o.apply(Op::AddUnit { parent: b.clone() }).unwrap().unwrap();
        o.apply(Op::Set {
            key: k2,
            field: Field::Name,
            value: "II/8th Grenadiers".into(),
        })
        .unwrap();
        b
    }

    #[test]
    fn a_duplicated_brigade_is_numbered_on_and_its_battalions_renumbered() {
        let (mut o, _, _) = two_sides();
        let b = brigade(&mut o);
        o.apply(Op::Duplicate { node: b.clone() }).unwrap();
        let copy = b.parent().unwrap().child(Level::Brigade, "10th Brigade");
        let names: Vec<String> = o
            .drafts()
            .filter(|d| copy.holds(&d.path()))
            .map(|d| d.get(Field::Name).to_string())
            .collect();
        assert_eq!(names, ["III/8th Grenadiers", "IV/8th Grenadiers"]);
        assert!(o.errors().is_empty(), "{:?}", o.errors());
        // Undo takes the copy away, redo brings it back.
        assert!(o.undo());
        assert!(o.tree().find(&copy).is_none());
        assert!(o.redo());
        assert_eq!(o.tree().find(&copy).unwrap().totals.units, 2);
    }

    #[test]
    fn moving_a_unit_and_a_node() {
        let (mut o, g, f) = two_sides();
        let b = brigade(&mut o);
        // The French card moves into the brigade, and to the German side with it.
        o.apply(Op::MoveUnit {
            key: f,
            to: b.clone(),
        })
        .unwrap();
        assert_eq!(o.draft(f).unwrap().path(), b);
        // The brigade moves straight under the army.
        let army = NodePath::side(Side::German).child(Level::Army, "Second Army");
        o.apply(Op::MoveNode {
            node: b.clone(),
            to: army.clone(),
        })
        .unwrap();
        let moved = army.child(Level::Brigade, "9th Brigade");
        assert_eq!(o.tree().find(&moved).unwrap().totals.units, 3);
        assert!(o.tree().find(&b).is_none());
        // A corps does not go under a brigade.
        let e = o
            .apply(Op::MoveNode {
                node: army.clone(),
                to: moved,
            })
            .unwrap_err();
        assert!(e.contains("army goes under"), "{e}");
        assert!(o.draft(g).is_some());
    }

    #[test]
    fn delete_and_undo() {
        let (mut o, g, _) = two_sides();
        let army = NodePath::side(Side::German).child(Level::Army, "Second Army");
        o.apply(Op::DeleteNode { node: army.clone() }).unwrap();
        assert!(o.draft(g).is_none());
        assert_eq!(o.tree().roots.len(), 2, "the side stays");
        o.undo();
        assert!(o.draft(g).is_some());
        o.apply(Op::DeleteUnit { key: g }).unwrap();
        assert!(o.draft(g).is_none());
        assert_eq!(o.can_undo().as_deref(), Some("delete a unit"));
    }

    #[test]
    fn typing_in_one_field_is_one_undo_step() {
        let (mut o, g, _) = two_sides();
        for v in ["I", "I/", "I/1", "I/12"] {
            o.apply(Op::Set {
                key: g,
                field: Field::Name,
                value: v.into(),
            })
            .unwrap();
        }
        o.undo();
        assert_eq!(o.draft(g).unwrap().get(Field::Name), "New unit");
    }

    #[test]
    fn a_file_with_a_bad_card_opens_with_the_error_at_its_field() {
        let src = format!(
            "name = \"t\"\nsystem = \"{}\"\n[[unit]]\nname = \"A\"\nside = \"german\"\narm = \"infantry\"\nstrength = 9999\nhex = \"nowhere\"\n",
            system().id()
        );
        assert!(validate_roster("t.toml", &src, None).is_err());
        let o = OrderOfBattle::from_source("t.toml", &src, None).unwrap();
        let fields: Vec<Field> = o.errors().iter().map(|e| e.field).collect();
        assert_eq!(fields, vec![Field::Strength, Field::Hex]);
    }

    #[test]
    fn every_change_is_a_new_revision_no_other_document_has() {
        let (mut o, g, _) = two_sides();
        let (other, _, _) = two_sides();
        assert_ne!(o.revision(), other.revision());
        let mut seen = vec![o.revision(), other.revision()];
        o.apply(Op::Set {
            key: g,
            field: Field::Name,
            value: "I/12th".into(),
        })
        .unwrap();
        seen.push(o.revision());
        o.undo();
        seen.push(o.revision());
        o.redo();
        seen.push(o.revision());
        let mut unique = seen.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), seen.len(), "{seen:?}");
        // A refused edit changes nothing, revision included.
        let r = o.revision();
        assert!(o.apply(Op::DeleteUnit { key: 9999 }).is_err());
        assert_eq!(o.revision(), r);
    }

    #[test]
    fn imported_cards_join_at_the_end() {
        let (mut o, _, _) = two_sides();
        o.apply(Op::AddCards {
            cards: vec![vec![
                (Field::Name, "Zouaves".into()),
                (Field::Side, "french".into()),
                (Field::Arm, "infantry".into()),
                (Field::Strength, "20".into()),
            ]],
        })
        .unwrap();
        assert_eq!(o.drafts().len(), 3);
        assert!(o.errors().is_empty());
    }
}
