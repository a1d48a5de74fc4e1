//! Issue 28: what the text forbids is noted in the resolver before the roll, the umpire can still
//! roll, and the log entry keeps the note. At 1366x768.

use super::common::{LAPTOP, demo, last_resolution, map_panel, new_game, place};

use egui_kittest::kittest::Queryable;
use kepi::app::state::Command;
use kepi::game::{Action, EntryKind, Level};

const ATTACKER: &str = "12th-grenadiers-1";
const DEFENDER: &str = "8e-ligne-1";

/// "Roll and apply": the umpire goes ahead (one entry more in the log), and the entry's notes say
/// so, naming each of `wants`.
fn roll_and_see_it_logged(
    h: &mut egui_kittest::Harness<'static, kepi::app::KepiApp>,
    wants: &[&str],
) {
    let before = h.state().state.game.log().len();
    h.get_by_label("Roll and apply").click();
    h.run();
    let app = &h.state().state;
    assert_eq!(app.game.log().len(), before + 1, "the umpire went ahead");
    let resolution = last_resolution(app);
    for want in wants {
        assert!(
            resolution
                .notes
                .iter()
                .any(|n| n.starts_with("umpire went ahead:") && n.contains(want)),
            "{want}: {:?}",
            resolution.notes
        );
    }
}

/// PK-X1: "Only a Steady unit can initiate melee. Only a Steady or Shaken unit will accept melee."
#[test]
fn a_shaken_unit_initiating_melee_is_noted_and_logged() {
    let mut h = demo(LAPTOP);
    h.run();
    for (unit, level) in [(ATTACKER, Level::Shaken), (DEFENDER, Level::Broken)] {
        h.state_mut().state.handle(Command::Act(Action::SetLevel {
            unit: unit.into(),
            level,
        }));
    }
    h.state_mut().state.handle(Command::Select(ATTACKER.into()));
    h.state_mut().state.handle(Command::Target(DEFENDER.into()));
    h.run();
    h.get_by_label("melee").click();
    h.run();
    assert!(
        h.query_by_label_contains("Only a Steady unit can initiate melee")
            .is_some(),
        "the resolver notes the shaken attacker before the roll"
    );
    assert!(
        h.query_by_label_contains("Only a Steady or Shaken unit will accept melee")
            .is_some(),
        "the resolver notes the broken defender before the roll"
    );
    roll_and_see_it_logged(&mut h, &["initiate melee", "will accept melee"]);
}

/// Issue 42, P&K formations (PK-D1): "Disordered units fight with 2 subtracted from their d10
/// rolls. ... Cavalry can't charge." Ticking "charged" for a disordered cavalry unit's melee notes
/// it before the roll; the umpire rolls, and the log entry keeps it.
#[test]
fn disordered_cavalry_charging_is_noted_before_the_roll() {
    const CAVALRY: &str = "7th-cuirassiers";
    let mut h = demo(LAPTOP);
    h.run();
    h.state_mut().state.handle(Command::Act(Action::SetFlag {
        unit: CAVALRY.into(),
        flag: "disordered".parse().unwrap(),
        on: true,
    }));
    h.state_mut().state.handle(Command::Select(CAVALRY.into()));
    h.state_mut().state.handle(Command::Target(DEFENDER.into()));
    h.run();
    h.get_by_label("melee").click();
    h.run();
    assert!(
        h.query_by_label_contains("disordered cavalry charging")
            .is_none(),
        "no charge ticked yet: no note"
    );
    // The attacker's "charged" comes first (the defender's is below it).
    h.query_all_by_label("charged")
        .next()
        .expect("the attacker's charged box")
        .click();
    h.run();
    assert!(
        h.query_by_label_contains("disordered cavalry charging (PK-D1")
            .is_some(),
        "the resolver notes the charge before the roll"
    );
    roll_and_see_it_logged(&mut h, &["Cavalry can't charge"]);
}

/// Issue 42, 1870 B9 (FR-M1): "A unit may be moved only once per Movement Phase." Dragging a
/// unit that moved already this phase says so on the map before the drop; the move is made and
/// its log entry keeps the note.
#[test]
fn a_second_move_in_the_phase_is_noted_on_the_map_while_dragging() {
    let mut app = new_game("fr1870-august", 3);
    place(&mut app, &[("fr-2rc", "2138")]);
    let mut h = map_panel(app);
    h.run();
    let name = h.state().state().unit("fr-2rc").unwrap().unit.name.clone();
    h.get_by_label(&name).scroll_to_me();
    h.run();
    let from = h.get_by_label(&name).rect().center();
    let to = super::common::drag_down(&mut h, from, 1.0);
    assert!(
        h.query_by_label_contains("moved already this Movement Phase (FR-M1, B9")
            .is_some(),
        "the map notes the second move while dragging"
    );
    h.drop_at(to);
    h.run();
    let app = h.state();
    let notes = match app.game.log().last().map(|e| &e.kind) {
        Some(EntryKind::Act {
            action: Action::Move { notes, .. },
        }) => notes.clone(),
        other => panic!("a move last, got {other:?}: {:?}", app.status),
    };
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("umpire went ahead:") && n.contains("B9")),
        "{notes:?}"
    );
}

/// PK-V1: "Observers must be 2 contours above an intervening contour to see over it. Otherwise
/// there is 4” of dead space behind it. Units behind a contour cannot be seen and take no
/// casualties from enemy fire." Ticking the fire's sight and putting a hill between (the observer
/// on level ground, the target right behind it) notes the unseen target before the roll; the
/// umpire rolls, and the log entry keeps the note and the sight's PK-V1 lines. On a desk-sized
/// window: at 1366x768 the sight's row is at the foot of the resolver's column, and kittest's click
/// on the obstacle's box opened no list there.
#[test]
fn a_target_in_dead_ground_is_noted_before_the_fire() {
    use egui::accesskit::Role;
    let mut h = demo(super::common::DESK);
    h.run();
    h.state_mut().state.handle(Command::Select(ATTACKER.into()));
    h.state_mut().state.handle(Command::Target(DEFENDER.into()));
    h.run();
    h.get_by_label("fire").click();
    h.run();
    assert!(
        h.query_by_label_contains("target not visible").is_none(),
        "no sight given: no note"
    );
    h.get_by_label("sight (PK-V1)").click();
    h.run();

    assert!(
        h.query_by_label_contains("target not visible").is_none(),
        "open ground, nothing between, no range: seen"
    );
    h.get_by_role_and_label(Role::ComboBox, "obstacle")
        .scroll_to_me();
    h.run();
    h.get_by_role_and_label(Role::ComboBox, "obstacle").click();
    h.run();
    h.get_by_label("hill").click();
    h.run();
    // The note before the roll quotes the text; the sight's own line says the same.
    assert!(
        h.query_by_label_contains("(PK-V1: \"Observers must be 2 contours above")
            .is_some(),
        "the resolver notes the unseen target before the roll"
    );
    assert!(
        h.query_all_by_label_contains("dead ground behind hill:1")
            .count()
            >= 2,
        "the note and the sight's line"
    );
    roll_and_see_it_logged(&mut h, &["target not visible"]);
    let resolution = last_resolution(&h.state().state);
    assert!(
        resolution
            .modifiers
            .iter()
            .any(|m| m.rule.as_str() == "PK-V1" && m.label.contains("dead ground")),
        "{:?}",
        resolution.modifiers
    );
}
