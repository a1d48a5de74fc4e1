//! The resolver's situation is derived from the units every frame (issue 15): after a fire the
//! melee form shows the target's reduced figures and rolls with them; undo refreshes it; what the
//! user changed is kept apart, shown as "Set by you" and resettable. At 1366x768.

#![cfg(feature = "gui")]

use super::common::{LAPTOP, demo, last_resolution, strength};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use kepi::app::KepiApp;
use kepi::app::state::Command;
use kepi::game::Action;
use kepi::rules::pk::form::{PkAction, PkForm};

const FIRER: &str = "12th-grenadiers-1";
const TARGET: &str = "8e-ligne-1";

/// The melee form's defender figures and the acting unit's, as the window holds them now.
fn melee_figures(h: &Harness<'_, KepiApp>) -> (u32, u32) {
    let app = &h.state().state;
    let f = app
        .resolver
        .forms
        .iter()
        .find(|f| f.name() == "melee")
        .expect("a melee form");
    match f.get::<PkForm>().map(|p| &p.action) {
        Some(PkAction::Melee { a, b }) => (a.figures, b.figures),
        _ => panic!("a pk melee"),
    }
}

fn pick(h: &mut Harness<'_, KepiApp>) {
    h.state_mut().state.handle(Command::Select(FIRER.into()));
    h.state_mut().state.handle(Command::Target(TARGET.into()));
    h.run();
}

#[test]
fn melee_after_fire_uses_the_figures_left_and_undo_refreshes_it() {
    let mut h = demo(LAPTOP);
    h.run();
    pick(&mut h);
    let full = strength(&h.state().state, TARGET);
    assert_eq!(melee_figures(&h).1, full);

    // Fire (the form shown first), then look at melee without picking the units again.
    h.get_by_label("Roll and apply").click();
    h.run();
    let left = strength(&h.state().state, TARGET);
    assert!(left < full, "seed 1870 kills figures on this fire");
    h.run();
    assert_eq!(melee_figures(&h).1, left, "the melee form follows the fire");
    // The fire's result card shows on the fire tab only, not as the melee tab's result.
    assert!(h.query_by_label_contains("Result: ").is_some());
    h.get_by_label("melee").click();
    h.run();
    assert!(
        h.query_by_label_contains("Result: ").is_none(),
        "a new tab shows no previous form's result"
    );
    h.get_by_label("fire").click();
    h.run();
    assert!(h.query_by_label_contains("Result: ").is_some());

    // A loss by hand on the firer, in the roster's way: the form follows that too.
    h.state_mut()
        .state
        .handle(Command::Act(Action::LoseStrength {
            unit: FIRER.into(),
            n: 1,
        }));
    h.run();
    assert_eq!(melee_figures(&h).0, strength(&h.state().state, FIRER));

    // Undo both: the form is back at full strength.
    h.state_mut().state.handle(Command::Undo);
    h.state_mut().state.handle(Command::Undo);
    h.run();
    assert_eq!(strength(&h.state().state, TARGET), full);
    assert_eq!(melee_figures(&h).1, full, "undo refreshes the form");
}

#[test]
fn a_changed_field_is_kept_shown_and_resettable() {
    let mut h = demo(LAPTOP);
    h.run();
    pick(&mut h);
    let melee = h
        .state()
        .state
        .resolver
        .forms
        .iter()
        .position(|f| f.name() == "melee")
        .unwrap();
    h.state_mut().state.resolver.current = melee;
    // The umpire rules the defender fights with 5 figures (some are elsewhere).
    if let Some(p) = h
        .state_mut()
        .state
        .resolver
        .forms
        .get_mut(melee)
        .and_then(|f| f.get_mut::<PkForm>())
        && let PkAction::Melee { b, .. } = &mut p.action
    {
        b.figures = 5;
    }
    h.run();
    assert!(h.query_by_label_contains("Set by you").is_some());
    assert!(h.query_by_label_contains("b: figures: 5").is_some());
    // Another action changes the defender: the umpire's 5 stands, the rest follows the units.
    h.state_mut().state.handle(Command::Act(Action::SetFlag {
        unit: TARGET.into(),
        flag: kepi::game::Flag::Disordered.into(),
        on: true,
    }));
    h.run();
    assert_eq!(melee_figures(&h).1, 5, "the override is kept");
    let Some(p) = h
        .state()
        .state
        .resolver
        .form()
        .and_then(|f| f.get::<PkForm>())
    else {
        panic!("pk form")
    };
    let PkAction::Melee { b, .. } = &p.action else {
        panic!("melee")
    };
    assert!(b.disordered, "the defender's disorder followed the unit");
    // Reset puts it back to the unit's strength (scrolled into view as a user would: at 1366x768
    // the situation scrolls above the pinned odds and Roll).
    h.get_by_label("Reset").scroll_to_me();
    h.run();
    h.get_by_label("Reset").click();
    h.run();
    assert_eq!(melee_figures(&h).1, strength(&h.state().state, TARGET));
    assert!(h.query_by_label_contains("Set by you").is_none());
}

#[test]
fn the_rolled_odds_line_is_marked_from_the_resolution() {
    // Issue 15: the window guessed the rolled line by matching the summary's text; it reads the
    // index the resolution recorded.
    let mut h = demo(LAPTOP);
    h.run();
    pick(&mut h);
    let flag = h
        .state()
        .state
        .resolver
        .forms
        .iter()
        .position(|f| f.name() == "flag")
        .unwrap();
    h.state_mut().state.resolver.current = flag;
    h.run();
    h.get_by_label("Roll and apply").click();
    h.run();
    let app = &h.state().state;
    let resolution = last_resolution(app);
    let i = resolution.rolled.expect("the flag roll records its line");
    let label = resolution.odds[i].outcome.clone();
    assert!(
        h.query_by_label(&format!("> {label}")).is_some(),
        "the chart marks `{label}`"
    );
    let others = resolution
        .odds
        .iter()
        .enumerate()
        .filter(|(j, _)| *j != i)
        .filter(|(_, o)| h.query_by_label(&format!("> {}", o.outcome)).is_some())
        .count();
    assert_eq!(others, 0, "only the rolled line is marked");
    assert!(h.query_by_label_contains("rolled: ").is_some());
}

#[test]
fn an_odd_phase_is_noted_never_refused_and_the_log_keeps_the_note() {
    // Issue 20: phase awareness without taking control.
    let mut h = demo(LAPTOP);
    h.run();
    pick(&mut h);
    h.get_by_label("melee").click();
    h.run();
    assert!(
        h.query_by_label_contains("Note: melee in the Part 1")
            .is_some(),
        "the resolver says melee does not fit part 1"
    );
    let before = h.state().state.game.log().len();
    h.get_by_label("Roll and apply").click();
    h.run();
    let app = &h.state().state;
    assert_eq!(app.game.log().len(), before + 1, "the umpire went ahead");
    let resolution = last_resolution(app);
    assert!(
        resolution
            .notes
            .iter()
            .any(|n| n.starts_with("umpire went ahead: melee in the Part 1")),
        "{:?}",
        resolution.notes
    );
}
