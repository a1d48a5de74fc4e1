//! Switching scenarios keeps the bottom tabs (a regression seen under Xvfb: after a hex game the
//! Graveyard St. Privat workspace lost its Drift / Charts / Dice tray panel).

use super::common::{LAPTOP, demo};

use egui_kittest::kittest::Queryable;
use kepi::app::state::Command;

#[test]
fn bottom_tabs_survive_a_change_of_scenario() {
    let mut h = demo(egui::vec2(1400.0, 900.0));
    h.run();
    assert!(h.query_by_label("Dice tray").is_some());
    for (name, tab) in [
        ("pw-skirmish", "Map"),
        ("st-privat", "Drift"),
        ("spi-1870", "Map"),
        ("mars-la-tour", "Charts"),
    ] {
        h.state_mut().state.handle(Command::NewGame(name.into()));
        h.run();
        h.run();
        assert!(
            h.query_by_label("Dice tray").is_some(),
            "{name}: the bottom tabs are there"
        );
        assert!(h.query_by_label(tab).is_some(), "{name}: the {tab} tab");
    }
}

#[test]
fn each_hex_rule_set_keeps_its_own_resolver_width_beside_the_map() {
    // Issue 20: in hex rule sets the map is the large central view with the resolver beside it;
    // one divider position was shared by all rule sets, so each keeps its own.
    let mut h = demo(egui::vec2(1400.0, 900.0));
    h.run();
    h.state_mut()
        .state
        .handle(Command::NewGame("pw-skirmish".into()));
    h.run();
    h.run();
    // The map has the centre; Roll is beside it.
    let map_tab = h.get_by_label("Map").rect();
    let roll = h.get_by_label("Roll and apply").rect();
    assert!(
        roll.left() > map_tab.right() + 300.0,
        "resolver beside the map: {roll:?}"
    );
    // Drag the resolver column's left edge, as a user making room for the resolver.
    let tab = h.get_by_label("Resolver").rect();
    let edge = egui::pos2(tab.left() - 10.0, tab.center().y + 200.0);
    for dx in [0.0, 1.0] {
        h.hover_at(edge + egui::vec2(dx, 0.0));
        h.run();
    }
    h.drag_at(edge);
    h.run();
    for step in 1..=10 {
        h.hover_at(edge - egui::vec2(15.0 * step as f32, 0.0));
        h.run();
    }
    h.drop_at(edge - egui::vec2(150.0, 0.0));
    h.run();
    let moved = h.get_by_label("Resolver").rect();
    assert!(
        moved.left() < tab.left() - 100.0,
        "the drag made the column wider: {tab:?} -> {moved:?}"
    );
    // Another hex rule set opens at its own width, not the PW one.
    h.state_mut()
        .state
        .handle(Command::NewGame("spi-1870".into()));
    h.run();
    h.run();
    let spi = h.get_by_label("Resolver").rect();
    assert!(
        (spi.left() - tab.left()).abs() < 3.0,
        "SPI keeps its own width: {spi:?} (PW default {tab:?}, dragged {moved:?})"
    );
    // Back to PW: the width the user gave it.
    h.state_mut()
        .state
        .handle(Command::NewGame("pw-skirmish".into()));
    h.run();
    h.run();
    let back = h.get_by_label("Resolver").rect();
    assert!(
        (back.left() - moved.left()).abs() < 3.0,
        "PW's dragged width is kept: {back:?} vs {moved:?}"
    );
}

#[test]
fn the_resolver_has_the_centre_in_tape_measure_rule_sets() {
    // At 1366x768 the charts under the resolver left it a strip: they are tabs of the centre now.
    let mut h = demo(LAPTOP);
    h.run();
    h.state_mut()
        .state
        .handle(Command::Select("12th-grenadiers-1".into()));
    h.state_mut()
        .state
        .handle(Command::Target("8e-ligne-1".into()));
    h.run();
    let screen = h.ctx.content_rect();
    for label in [
        "Resolver",
        "Charts",
        "Dice tray",
        "Roll and apply",
        "Situation",
    ] {
        let r = h.get_by_label(label).rect();
        assert!(screen.contains(r.center()), "{label} on screen: {r:?}");
    }
    // The situation starts high in the column, above the pinned foot.
    let situation = h.get_by_label("Situation").rect();
    let roll = h.get_by_label("Roll and apply").rect();
    assert!(situation.top() < 300.0, "situation at {situation:?}");
    assert!(
        roll.top() > situation.bottom() + 150.0,
        "room for the situation: {roll:?}"
    );
    // Charts take the whole centre when chosen; the resolver comes back with its tab.
    h.get_by_label("Charts").click();
    h.run();
    assert!(h.query_by_label("Roll and apply").is_none());
    h.get_by_label("Resolver").click();
    h.run();
    assert!(h.query_by_label("Roll and apply").is_some());
}

#[test]
fn top_bar_is_one_line_and_next_phase_never_moves() {
    // Issue 20: the phase text changed width, so after one click on "Next phase" Undo sat where it
    // had been and a second click undid the phase; in PW the bar wrapped to two lines.
    let names = [
        "pw-skirmish",
        "st-privat",
        "spi-1870",
        "fr1870-august",
        "mars-la-tour",
    ];
    for (width, name) in [1366.0, 1280.0]
        .into_iter()
        .flat_map(|w| names.map(|n| (w, n)))
    {
        let mut h = demo(egui::vec2(width, 720.0));
        h.run();
        h.state_mut().state.handle(Command::NewGame(name.into()));
        h.run();
        let file = h.get_by_label("File").rect();
        let next = h.get_by_label("Next phase >").rect();
        let undo = h.get_by_label("Undo").rect();
        assert!(
            (next.center().y - file.center().y).abs() < 4.0,
            "{name}: one line ({file:?} / {next:?})"
        );
        let screen = h.ctx.content_rect();
        assert!(screen.contains(undo.right_top()), "{name}: Undo on screen");
        let mine = h.get_by_label("mine").rect();
        assert!(
            screen.contains(mine.right_bottom()),
            "{name} at {width}: the dice setting on screen ({mine:?})"
        );
        for _ in 0..5 {
            h.get_by_label("Next phase >").click();
            h.run();
            assert_eq!(h.get_by_label("Next phase >").rect(), next, "{name}");
            assert_eq!(h.get_by_label("Undo").rect(), undo, "{name}");
        }
    }
}

#[test]
fn roster_rows_are_one_line_and_fill_the_panel() {
    // Issue 20: rows of two lines of uneven height under a virtualised list drew about five units
    // and then a blank strip.
    let mut h = demo(LAPTOP);
    h.run();
    let names: Vec<String> = h
        .state()
        .state
        .state()
        .units
        .iter()
        .map(|u| u.unit.name.clone())
        .collect();
    let screen = h.ctx.content_rect();
    let mut shown: Vec<egui::Rect> = names
        .iter()
        .filter_map(|n| h.query_by_label(n).map(|node| node.rect()))
        .filter(|r| screen.contains(r.center()))
        .collect();
    // Group rows (army, corps, division, brigade) sit between them: a dozen units at 768 px.
    assert!(shown.len() >= 10, "{} unit rows on screen", shown.len());
    shown.sort_by(|a, b| a.top().total_cmp(&b.top()));
    // Every row the same height: consecutive unit rows are whole rows apart (a row is its
    // height plus the list's spacing).
    let pitch = kepi::app::roster::ROSTER_ROW_H + h.ctx.global_style().spacing.item_spacing.y;
    for w in shown.windows(2) {
        let step = w[1].center().y - w[0].center().y;
        let rows = (step / pitch).round();
        assert!(
            rows >= 1.0 && (step - rows * pitch).abs() < 1.5,
            "rows {w:?} are {step} apart (pitch {pitch})"
        );
    }
    let last = shown.last().unwrap();
    assert!(
        last.bottom() > screen.bottom() - 80.0,
        "the rows reach the panel's foot: {last:?}"
    );
}

#[test]
fn the_unit_editor_offers_the_rule_sets_own_counts_and_markers() {
    // Issue 20: the editor said fatigue "of 99" (kepi's bound, not a rule) and offered P&K markers
    // on SPI units.
    let mut h = demo(egui::vec2(1366.0, 1000.0));
    h.state_mut()
        .state
        .handle(Command::Select("12th-grenadiers-1".into()));
    h.run();
    assert!(h.query_by_label("fatigue +1").is_some());
    assert!(h.query_by_label("of 99").is_none(), "no made-up maximum");
    assert!(h.query_all_by_label("muddled").next().is_some());
    h.state_mut()
        .state
        .handle(Command::NewGame("spi-1870".into()));
    h.run();
    let first = h.state().state.state().units[0].unit.id.clone();
    h.state_mut().state.handle(Command::Select(first));
    h.run();
    assert!(h.query_by_label("strength +1").is_some());
    for absent in [
        "fatigue +1",
        "leaders +1",
        "muddled",
        "disordered",
        "flag-lost",
    ] {
        assert!(
            h.query_by_label(absent).is_none(),
            "SPI editor offers {absent}"
        );
    }
    assert!(h.query_all_by_label("entrained").next().is_some());
    // Supply is set here too (SPI-S1), as an undoable action; the rest is under Details.
    assert!(h.query_by_label("Details").is_some());
    h.get_by_label("isolated").click();
    h.run();
    let u = &h.state().state.state().units[0];
    assert_eq!(u.supply, kepi::game::Supply::Isolated);
    assert!(h.state().state.game.can_undo());
}

#[test]
fn odds_and_roll_are_on_screen_for_every_rule_set_at_laptop_and_desktop_sizes() {
    // Issue 20: the modifiers, odds and "Roll and apply" needed 15-20 wheel steps to reach.
    for size in [LAPTOP, egui::vec2(1920.0, 1080.0)] {
        for name in [
            "mars-la-tour",
            "st-privat",
            "pw-skirmish",
            "spi-1870",
            "fr1870-august",
        ] {
            let mut h = demo(size);
            h.state_mut().state.handle(Command::NewGame(name.into()));
            let (a, b) = {
                let s = h.state().state.state();
                let first = |side: kepi::roster::Side| {
                    s.units
                        .iter()
                        .find(|u| u.unit.side == side)
                        .map(|u| u.unit.id.clone())
                        .unwrap()
                };
                (
                    first(kepi::roster::Side::German),
                    first(kepi::roster::Side::French),
                )
            };
            h.state_mut().state.handle(Command::Select(a));
            h.state_mut().state.handle(Command::Target(b));
            h.run();
            h.run();
            let screen = h.ctx.content_rect();
            let roll = h
                .query_by_label("Roll and apply")
                .map(|n| n.rect())
                .expect("Roll and apply");
            assert!(
                screen.contains(roll.min) && screen.contains(roll.max),
                "{name} at {size:?}: Roll at {roll:?}"
            );
            if let Some(odds) = h.query_by_label("Exact odds, before rolling") {
                assert!(
                    screen.contains(odds.rect().center()),
                    "{name} at {size:?}: odds at {:?}",
                    odds.rect()
                );
            }
        }
    }
}
