//! The order-of-battle builder in the window (issue 43): a battle built from nothing, an error
//! beside its field that goes when fixed, a duplicated brigade renumbered, undo, save and reopen,
//! and "Start this battle".

use std::fmt::Write as _;

use super::common::{app, tmp, window};

use egui::accesskit::Role;
use egui_kittest::kittest::{NodeT as _, Queryable};
use kepi::app::builder::{Opening, Selection};
use kepi::app::state::Command;
use kepi::roster::builder::{Level, NodePath, Op, OrderOfBattle};
use kepi::roster::{Field, Side};

type H = egui_kittest::Harness<'static, kepi::app::KepiApp>;

/// The window at 1366x768 with File > New battle… answered: the first rule set, two sides.
fn new_battle() -> H {
    let mut h = window(None);
    app(&mut h).handle(Command::ShowBuilder(Opening::New));
    h.run();
    h.get_by_label("Create the battle").click();
    h.run();
    assert!(app(&mut h).dialogs.builder.oob.is_some());
    h
}

fn oob(h: &mut H) -> &mut OrderOfBattle {
    app(h)
        .dialogs
        .builder
        .oob
        .as_mut()
        .expect("an order of battle")
}

/// True when some widget's label holds `text`.
fn shows(h: &H, text: &str) -> bool {
    h.query_all_by_label_contains(text).next().is_some()
}

/// Clicks the tree's row whose label starts with `start`.
fn click_row(h: &mut H, start: &str) {
    h.get_by_label_contains(start).click();
    h.run();
}

#[test]
fn two_sides_built_from_nothing_an_error_at_its_field_goes_when_fixed() {
    let mut h = new_battle();
    click_row(&mut h, "Side: German");
    h.get_by_label("Add army").click();
    h.run();
    click_row(&mut h, "Side: French");
    h.get_by_label("Add army").click();
    h.run();
    assert_eq!(oob(&mut h).drafts().len(), 2);
    assert!(oob(&mut h).errors().is_empty());
    // The new unit is selected: its form shows the card's fields.
    let key = match app(&mut h).dialogs.builder.selected.clone() {
        Some(Selection::Unit(k)) => k,
        other => panic!("a unit selected, got {other:?}"),
    };
    h.get_by_role_and_label(Role::TextInput, "Arrives").focus();
    h.run();
    h.get_by_role_and_label(Role::TextInput, "Arrives")
        .type_text("0");
    h.run();
    h.run();
    assert!(
        oob(&mut h).error_at(key, Field::Arrives).is_some(),
        "arrives 0 is refused"
    );
    assert!(shows(&h, "0 is out of range"));
    assert!(shows(&h, "1 error to fix"));
    // Saved as it stands, the error a `# TO FILL:` line: it opens again with the error at its
    // field (nothing is lost for want of a value).
    let file = tmp("gui-builder", "draft").join("draft.toml");
    let said = app(&mut h).dialogs.builder.save_to(&file).unwrap();
    assert!(said.contains("with 1 error to fix"), "{said}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("# TO FILL:"), "{text}");
    let back = OrderOfBattle::from_source("draft.toml", &text, file.parent()).unwrap();
    assert_eq!(back.drafts().len(), 2);
    assert_eq!(back.errors().len(), 1);
    assert_eq!(back.errors()[0].field, Field::Arrives);
    // Start this battle waits while an error remains.
    assert!(
        h.get_by_label("Start this battle")
            .accesskit_node()
            .is_disabled()
    );
    // Typed on to 05: in range, the error goes.
    h.get_by_role_and_label(Role::TextInput, "Arrives")
        .type_text("5");
    h.run();
    h.run();
    assert!(
        oob(&mut h).errors().is_empty(),
        "{:?}",
        oob(&mut h).errors()
    );
    assert!(!shows(&h, "0 is out of range"));
    assert_eq!(oob(&mut h).draft(key).unwrap().get(Field::Arrives), "05");
    assert!(
        !h.get_by_label("Start this battle")
            .accesskit_node()
            .is_disabled()
    );
}

/// A German brigade of two battalions in the builder, its node selected.
fn with_brigade(h: &mut H) -> NodePath {
    let div = NodePath::side(Side::German)
        .child(Level::Army, "Second Army")
        .child(Level::Corps, "III Corps")
        .child(Level::Division, "5th Division");
    let b = div.child(Level::Brigade, "9th Brigade");
    let o = oob(h);
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
    let k = o.apply(Op::AddUnit { parent: b.clone() }).unwrap().unwrap();
    o.apply(Op::Set {
        key: k,
        field: Field::Name,
        value: "II/8th Grenadiers".into(),
    })
    .unwrap();
    h.run();
    b
}

#[test]
fn a_duplicated_brigade_is_renumbered_and_ctrl_z_takes_it_back() {
    let mut h = new_battle();
    with_brigade(&mut h);
    click_row(&mut h, "Brigade: 9th Brigade");
    h.get_by_label("Duplicate").click();
    h.run();
    assert!(shows(&h, "Brigade: 10th Brigade"));
    assert!(shows(&h, "III/8th Grenadiers"));
    assert!(shows(&h, "IV/8th Grenadiers"));
    let before = app(&mut h).game.log().len();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert!(!shows(&h, "III/8th Grenadiers"));
    assert_eq!(oob(&mut h).drafts().len(), 2);
    assert_eq!(
        app(&mut h).game.log().len(),
        before,
        "Ctrl+Z undid the builder, not the game"
    );
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Y);
    h.run();
    assert!(shows(&h, "IV/8th Grenadiers"));
}

#[test]
fn saved_and_opened_again_the_cards_are_the_same_and_the_battle_starts() {
    let mut h = new_battle();
    with_brigade(&mut h);
    click_row(&mut h, "Side: French");
    h.get_by_label("Add army").click();
    h.run();
    let dir = tmp("gui-builder", "save");
    let file = dir.join("club.toml");
    h.get_by_role_and_label(Role::TextInput, "File").focus();
    h.run();
    h.get_by_role_and_label(Role::TextInput, "File")
        .type_text(&file.display().to_string());
    h.run();
    h.get_by_label("Save as").click();
    h.run();
    let built = oob(&mut h).to_scenario().unwrap();
    let text = std::fs::read_to_string(&file).expect("saved");
    let back = kepi::roster::validate_roster("club.toml", &text, Some(&dir)).unwrap();
    assert_eq!(back, built);
    let reopened = OrderOfBattle::from_source("club.toml", &text, Some(&dir)).unwrap();
    assert_eq!(reopened.to_scenario().unwrap(), built);
    // Print roster and Export cards, from the builder: PDFs beside the file.
    for (button, what) in [("Print roster", "roster"), ("Export cards", "cards")] {
        h.get_by_label(button).click();
        h.step();
        let start = std::time::Instant::now();
        while app(&mut h).dialogs.export_job.is_some() {
            assert!(
                start.elapsed() < std::time::Duration::from_secs(120),
                "{button} never finished"
            );
            std::thread::sleep(std::time::Duration::from_millis(10));
            h.step();
        }
        let pdf = dir.join(format!("{}-{what}.pdf", built.name));
        let bytes = std::fs::read(&pdf).unwrap_or_else(|e| panic!("{}: {e}", pdf.display()));
        assert!(bytes.starts_with(b"%PDF"), "{button}: a PDF");
    }
    // Start this battle: a game of exactly these units.
    h.get_by_label("Start this battle").click();
    h.run();
    let ids: Vec<String> = app(&mut h)
        .state()
        .units
        .iter()
        .map(|u| u.unit.id.clone())
        .collect();
    let want: Vec<String> = built.units.iter().map(|u| u.id.clone()).collect();
    assert_eq!(ids, want);
    assert!(!app(&mut h).dialogs.builder.open, "the builder closed");
    // A battle built here has a name and no title: the log's first line says its name (it
    // said " begins; dice seed commitment ..." at 1366x768).
    let first = app(&mut h).game.log()[0].summary.clone();
    assert!(!built.name.is_empty() && built.title.is_empty());
    assert!(
        first.starts_with(&format!("{} begins;", built.name)),
        "{first}"
    );
}

#[test]
fn edit_order_of_battle_opens_the_current_games_units() {
    let mut h = window(Some("st-privat"));
    let n = app(&mut h).state().units.len();
    app(&mut h).handle(Command::ShowBuilder(Opening::Current));
    // The builder's first frames size its new window and tree (seven frames to settle).
    h.run_steps(8);
    let o = oob(&mut h);
    assert_eq!(o.drafts().len(), n);
    assert!(o.errors().is_empty(), "{:?}", o.errors());
}

/// "Use these troops with another rule set": Mars-la-Tour's P&K troops for the Portable Wargame
/// open as a new, unsaved order of battle; each strength P&K counted in figures is an error at its
/// field saying so; filled in, the error goes.
#[test]
fn troops_converted_to_another_rule_set_ask_for_what_they_cannot_carry() {
    let mut h = window(Some("mars-la-tour"));
    app(&mut h).handle(Command::ShowBuilder(Opening::Current));
    h.run_steps(8);
    let pk = oob(&mut h).clone();
    let pw = kepi::registry::builtin_scenario("pw-skirmish")
        .unwrap()
        .system
        .unwrap();
    h.get_by_label("Use these troops with another rule set…")
        .click();
    h.run();
    h.get_by_label("Convert to").click();
    h.run();
    h.get_by_label(pw.title()).click();
    h.run();
    h.get_by_label("Convert").click();
    h.run();
    let b = &app(&mut h).dialogs.builder;
    assert!(b.path.is_none(), "a new document, not saved yet");
    let o = b.oob.as_ref().unwrap();
    assert_eq!(o.header.system, Some(pw));
    assert_eq!(o.len(), pk.len());
    let names =
        |o: &OrderOfBattle| -> Vec<String> { o.drafts().map(|d| d.label().to_string()).collect() };
    assert_eq!(names(o), names(&pk));
    h.run();
    assert!(
        shows(&h, &format!("a copy for {}", pw.title())),
        "the status says what was done"
    );
    // The first card's strength, asked: its error in the list, a click goes to the field.
    let first = oob(&mut h).drafts().next().unwrap().key;
    let name = oob(&mut h).draft(first).unwrap().label().to_string();
    let n = oob(&mut h).errors().len();
    assert!(n >= pk.len(), "a strength to fill on every card");
    let message = oob(&mut h)
        .error_at(first, Field::Strength)
        .expect("strength asked")
        .message
        .clone();
    assert!(
        message.contains("Pickelhaube & Kepi had 20 figures"),
        "{message}"
    );
    h.get_by_label(&format!("{name}, strength: {message}"))
        .click();
    h.run();
    h.run();
    assert_eq!(
        app(&mut h).dialogs.builder.selected,
        Some(Selection::Unit(first))
    );
    assert!(shows(&h, "had 20 figures; this card counts SP"));
    h.get_by_role_and_label(Role::TextInput, "Strength points")
        .type_text("4");
    h.run();
    h.run();
    assert!(oob(&mut h).error_at(first, Field::Strength).is_none());
    assert_eq!(oob(&mut h).draft(first).unwrap().get(Field::Strength), "4");
    assert_eq!(oob(&mut h).errors().len(), n - 1);
    // Save is not offered for a file it never had; Save as waits for the errors.
    assert!(h.query_by_label("Save").is_none());
}

/// Move by drag: a battalion dragged in the tree onto another brigade moves there, one edit that
/// Ctrl+Z puts back; a brigade dragged onto another division moves with its units.
#[test]
fn a_unit_dragged_onto_another_brigade_moves_there_and_ctrl_z_puts_it_back() {
    let mut h = new_battle();
    let b9 = with_brigade(&mut h);
    let div = b9.parent().unwrap();
    let other = oob(&mut h)
        .apply(Op::AddNode {
            parent: div.clone(),
            name: "10th Brigade".into(),
        })
        .unwrap()
        .unwrap();
    h.run();
    let key = oob(&mut h)
        .drafts()
        .find(|d| d.get(Field::Name) == "II/8th Grenadiers")
        .unwrap()
        .key;
    let undo_depth = |h: &mut H| oob(h).can_undo();
    let before = undo_depth(&mut h);
    let drag = |h: &mut H, what: &str, onto: &str| {
        let from = h.get_by_label_contains(what).rect().center();
        let to = h.get_by_label_contains(onto).rect().center();
        h.drag_at(from);
        h.run();
        h.hover_at(from + egui::vec2(0.0, 6.0));
        h.run();
        h.hover_at(to);
        h.run();
        h.drop_at(to);
        h.run();
        h.run();
    };
    drag(&mut h, "II/8th Grenadiers", "Brigade: 10th Brigade");
    let d = oob(&mut h).draft(key).unwrap().clone();
    assert_eq!(d.get(Field::Brigade), "10th Brigade");
    assert_eq!(d.path(), div.child(Level::Brigade, "10th Brigade"));
    let tree = oob(&mut h).tree().clone();
    assert_eq!(tree.find(&b9).unwrap().totals.units, 1);
    assert_eq!(
        tree.find(&div.child(Level::Brigade, "10th Brigade"))
            .unwrap()
            .totals
            .units,
        2
    );
    assert_eq!(oob(&mut h).can_undo().as_deref(), Some("move a unit"));
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(
        oob(&mut h).draft(key).unwrap().get(Field::Brigade),
        "9th Brigade"
    );
    assert_eq!(undo_depth(&mut h), before, "one edit, undone");
    assert!(oob(&mut h).draft(other).is_some());
    // A brigade dragged onto the army: it moves there with its units.
    let army = div.parent().unwrap().parent().unwrap();
    drag(&mut h, "Brigade: 9th Brigade", "Army: Second Army");
    let moved = army.child(Level::Brigade, "9th Brigade");
    assert_eq!(oob(&mut h).tree().find(&moved).unwrap().totals.units, 2);
    assert!(oob(&mut h).tree().find(&b9).is_none());
    assert_eq!(oob(&mut h).can_undo().as_deref(), Some("move 9th Brigade"));
}

/// The tree's rows are kept between frames (issue 43's frame budget) and rebuilt when a node is
/// closed or opened and when the order of battle changes.
#[test]
fn closing_and_opening_a_node_and_an_edit_redraw_the_tree() {
    let mut h = new_battle();
    with_brigade(&mut h);
    assert!(shows(&h, "II/8th Grenadiers"));
    // Side, army, corps, division, brigade: the brigade's arrow is the fifth.
    h.query_all_by_label("⏷")
        .nth(4)
        .expect("the brigade's arrow")
        .click();
    h.run();
    h.run();
    assert!(!shows(&h, "II/8th Grenadiers"), "closed");
    assert!(shows(&h, "Brigade: 9th Brigade"));
    h.get_by_label("⏵").click();
    h.run();
    h.run();
    assert!(shows(&h, "II/8th Grenadiers"), "open again");
    let key = oob(&mut h)
        .drafts()
        .find(|d| d.get(Field::Name) == "II/8th Grenadiers")
        .unwrap()
        .key;
    oob(&mut h)
        .apply(Op::Set {
            key,
            field: Field::Name,
            value: "II/9th Grenadiers".into(),
        })
        .unwrap();
    h.run();
    assert!(shows(&h, "II/9th Grenadiers"), "the edit is drawn");
    assert!(!shows(&h, "II/8th Grenadiers"));
}

/// File > Import units from CSV… (issue 43: "a CSV of 50 units from a spreadsheet imported"): a
/// club's sheet of 50 battalions and batteries, semicolons and a column kepi has no field for,
/// read in the window, its columns matched by name, the first rows previewed, and the 50 rows
/// added to the open order of battle as cards with no error, under their brigades.
#[test]
fn a_clubs_spreadsheet_of_fifty_units_is_imported_from_the_window() {
    let dir = tmp("gui-builder", "csv50");
    let mut text = String::from("Name;Side;Arm;Figures;Army;Corps;Brigade;Painted by\r\n");
    for i in 1..=50 {
        let (side, army, arm, figures) = if i % 2 == 0 {
            ("german", "Second Army", "infantry", 20)
        } else {
            ("french", "Army of the Rhine", "infantry", 22)
        };
        let (arm, figures) = if i % 10 == 0 {
            ("artillery", 6)
        } else {
            (arm, figures)
        };
        writeln!(
            text,
            "Unit {i};{side};{arm};{figures};{army};Corps {};Brigade {};Anna\r",
            1 + i % 2,
            1 + i % 5
        )
        .unwrap();
    }
    let csv = dir.join("club.csv");
    std::fs::write(&csv, text).unwrap();
    let mut h = new_battle();
    h.get_by_label("Import units from CSV…").click();
    h.run();
    h.get_by_role_and_label(Role::TextInput, "CSV file").click();
    h.run();
    h.get_by_role_and_label(Role::TextInput, "CSV file")
        .type_text(csv.to_str().unwrap());
    h.run();
    h.get_by_label("Read").click();
    h.run();
    assert!(shows(&h, "50 rows, 0 with an error"));
    assert!(shows(&h, "row 1: Unit 1 (French, infantry, 22 figures)"));
    h.get_by_label("Import 50 rows").click();
    h.run();
    let o = oob(&mut h);
    assert_eq!(o.len(), 50);
    assert!(o.errors().is_empty(), "{:?}", o.errors());
    let s = o.to_scenario().unwrap();
    assert_eq!(
        s.units.iter().filter(|u| u.side == Side::German).count(),
        25
    );
    let b3 = NodePath::side(Side::German)
        .child(Level::Army, "Second Army")
        .child(Level::Corps, "Corps 1")
        .child(Level::Brigade, "Brigade 3");
    assert_eq!(
        o.tree().find(&b3).unwrap().totals.units,
        5,
        "units 2, 12 ... 42"
    );
}

/// The unit's form offers its rule set's card and nothing else (issue 43: "the fields its rule
/// set uses and no others, each offering only what that rule set accepts"): for a bundled battle
/// of each of the five sets, every field of the set's card is on the form, a field only another
/// set's card has is not, and the arm's list offers exactly the arms the set accepts.
#[test]
fn each_rule_sets_form_offers_its_own_fields_and_choices() {
    let battles = [
        "mars-la-tour",
        "pw-skirmish",
        "st-privat",
        "spi-1870",
        "fr1870-august",
    ];
    let specs: Vec<kepi::roster::spec::CardSpec> = battles
        .iter()
        .map(|b| {
            let mut h = window(Some(b));
            app(&mut h).handle(Command::ShowBuilder(Opening::Current));
            h.run_steps(8);
            oob(&mut h).spec.clone()
        })
        .collect();
    for (battle, spec) in battles.iter().zip(&specs) {
        let mut h = window(Some(battle));
        app(&mut h).handle(Command::ShowBuilder(Opening::Current));
        h.run_steps(8);
        let key = oob(&mut h).drafts().next().map(|d| d.key).unwrap();
        app(&mut h).dialogs.builder.selected = Some(Selection::Unit(key));
        h.run();
        // A field's widget is named by its label (`labelled_by`).
        let on_form = |h: &H, label: &str| {
            h.query_all_by_label(label)
                .any(|n| !matches!(n.accesskit_node().role(), Role::Label))
        };
        for f in &spec.fields {
            assert!(on_form(&h, f.label), "{battle}: {} on the form", f.label);
        }
        let own: Vec<&str> = spec.fields.iter().map(|f| f.label).collect();
        for other in specs.iter().flat_map(|s| &s.fields) {
            if !own.contains(&other.label) {
                assert!(
                    !on_form(&h, other.label),
                    "{battle}: {} is another set's field",
                    other.label
                );
            }
        }
        // The arm's list: exactly the set's arms.
        let arm = spec.field(Field::Arm).unwrap();
        h.get_by_role_and_label(Role::ComboBox, arm.label).click();
        h.run();
        for v in arm.values() {
            assert!(
                h.query_all_by_label(v).next().is_some(),
                "{battle}: arm {v} offered"
            );
        }
        assert!(arm.values().len() >= 2, "{battle}: {:?}", arm.values());
    }
}
