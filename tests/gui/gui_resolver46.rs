//! Issue 46, the resolver panel at 1366x768: odds and modifier labels wrap, never cut (P&K's melee
//! rows told apart); GSP's range field on a row of its own; what Roll still needs said beside it,
//! Roll greyed and never moved; the status line after a roll leading with what the umpire went
//! ahead with; "Set by you" in words; GSP's hits where nobody is named placed by hand, not
//! re-rolled; the result card gone once the phase moves on; "Fight as a battle…" on its own row.

use super::common::{
    LAPTOP, app, last_resolution, new_game, resolver, spi_metz_combat, window, window_of,
};

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable};
use kepi::app::KepiApp;
use kepi::app::state::{AppState, Command};
use kepi::game::{Action, Level};

const ATTACKER: &str = "12th-grenadiers-1";
const DEFENDER: &str = "8e-ligne-1";

fn pick(h: &mut Harness<'_, KepiApp>, actor: &str, target: Option<&str>) {
    app(h).handle(Command::Select(actor.into()));
    if let Some(t) = target {
        app(h).handle(Command::Target(t.into()));
    }
    h.run();
    h.run();
}

fn gsp(seed: u64) -> AppState {
    let mut app = new_game("st-privat", seed);
    app.handle(Command::Select("gfar-heavy-1".into()));
    app.handle(Command::Target("9e-ligne-1".into()));
    app
}

/// An SPI campaign: two German corps next to the French corps of Metz in 1011, the resolver
/// holding that combat.
fn spi_combat() -> AppState {
    let mut app = new_game("spi-1870", 5);
    spi_metz_combat(&mut app);
    app
}

/// Item 1: "B loses 2 casualties, lea..." on every P&K melee row; each outcome is now whole, found
/// by its full text, and the rows differ.
#[test]
fn pk_melee_odds_rows_are_whole_and_distinct_at_a_laptops_size() {
    let mut h = window(None);
    pick(&mut h, ATTACKER, Some(DEFENDER));
    h.get_by_label("melee").click();
    h.run();
    h.run();
    let odds = {
        let a = &h.state().state;
        let form = a.resolver.form().expect("the melee form");
        form.resolve(a.game.state(), a.tables, None)
            .expect("the melee's odds")
            .0
            .odds
    };
    let long: Vec<&str> = odds
        .iter()
        .map(|o| o.outcome.as_str())
        .filter(|o| o.len() > 28)
        .collect();
    assert!(long.len() > 1, "long outcomes to wrap: {odds:?}");
    // Whole on screen, not only in the label's text: an outcome longer than its column is drawn
    // on more than one line (elided, it kept one).
    let line = h
        .get_by_label(kepi::app::resolver::ODDS_BEFORE_ROLLING)
        .rect()
        .height();
    for o in &long {
        let r = h.get_by_label(o).rect();
        assert!(
            r.height() > 1.5 * line && r.width() <= 151.0,
            "`{o}` wrapped in its column: {r:?} (a line is {line})"
        );
    }
    let mut seen = std::collections::BTreeSet::new();
    for o in &odds {
        assert!(
            seen.insert(o.outcome.clone()),
            "rows told apart: {}",
            o.outcome
        );
        assert!(
            h.query_by_label(&o.outcome).is_some(),
            "the outcome `{}` whole on screen",
            o.outcome
        );
    }
    assert!(h.query_by_label_contains("…").is_none(), "nothing elided");
}

/// Item 2: the measured range's field on its own row, labelled, under the radio buttons (it was
/// drawn over them); the measured range reads in words under "Set by you" (item 5).
#[test]
fn gsp_range_has_its_own_labelled_row_and_reads_in_words() {
    let mut h = resolver(gsp(3), (1366.0, 1600.0));
    h.run();
    h.get_by_label("measured range").click();
    h.run();
    h.run();
    let field = h
        .get_by_role_and_label(egui::accesskit::Role::TextInput, "range")
        .rect();
    for radio in ["range sector", "measured range"] {
        let r = h.get_by_label(radio).rect();
        assert!(
            field.min.y >= r.max.y,
            "the range field {field:?} under `{radio}` {r:?}"
        );
    }
    // Item 5: the user's measured range, in words, never as JSON.
    assert!(
        h.query_by_label_contains("range: 24 in (from the units: none)")
            .is_some(),
        "{:?}",
        h.state().resolver.overrides()
    );
    assert!(h.query_by_label_contains("\"amount\"").is_none());
}

/// Item 3: Roll greyed with what it needs in its own row; the reason never moves Roll.
#[test]
fn roll_says_beside_it_what_it_needs_and_keeps_its_place() {
    let mut h = window(None);
    app(&mut h).selected = None;
    app(&mut h).target = None;
    app(&mut h).handle(Command::OpenForm {
        form: "fire".into(),
        actor: None,
        target: None,
    });
    h.run();
    h.run();
    let roll = h.get_by_label("Roll and apply");
    assert!(roll.accesskit_node().is_disabled());
    let roll_at = roll.rect();
    let why = h.get_by_label(kepi::app::resolver::PICK_THE_ACTOR).rect();
    assert!(
        why.min.x >= roll_at.max.x && why.min.y < roll_at.max.y,
        "in Roll's row: {why:?} beside {roll_at:?}"
    );
    pick(&mut h, ATTACKER, None);
    assert!(
        h.get_by_label("Roll and apply")
            .accesskit_node()
            .is_disabled()
    );
    assert!(
        h.query_by_label(kepi::app::resolver::PICK_A_TARGET)
            .is_some()
    );
    assert_eq!(h.get_by_label("Roll and apply").rect(), roll_at);
    pick(&mut h, ATTACKER, Some(DEFENDER));
    let roll = h.get_by_label("Roll and apply");
    assert!(!roll.accesskit_node().is_disabled());
    assert_eq!(roll.rect(), roll_at, "Roll never moves");
    assert!(
        h.query_by_label(kepi::app::resolver::PICK_A_TARGET)
            .is_none()
    );
}

/// Item 3: a chart result typed that is none greys Roll, saying the forms the chart prints.
#[test]
fn a_typed_chart_result_that_does_not_read_greys_roll_with_the_forms() {
    let mut h = window_of(KepiApp::with_state(spi_combat()), LAPTOP);
    h.run();
    h.run();
    let roll_at = h.get_by_label("Roll and apply").rect();
    assert!(
        !h.get_by_label("Roll and apply")
            .accesskit_node()
            .is_disabled()
    );
    let field = "result from your printed chart:";
    h.get_by_role_and_label(egui::accesskit::Role::TextInput, field)
        .scroll_to_me();
    h.run();
    h.get_by_role_and_label(egui::accesskit::Role::TextInput, field)
        .click();
    h.run();
    h.get_by_role_and_label(egui::accesskit::Role::TextInput, field)
        .type_text("Q9");
    h.run();
    h.run();
    let roll = h.get_by_label("Roll and apply");
    assert!(roll.accesskit_node().is_disabled(), "Q9 is no SPI result");
    assert_eq!(roll.rect(), roll_at, "Roll never moves");
    let why = h
        .query_by_label_contains("`Q9` is not a result of the chart")
        .expect("the reason beside Roll");
    let text = why.value().unwrap_or_default();
    assert!(text.contains("An/Dn") && text.contains("AE"), "{text}");
    assert!(why.rect().min.x >= roll_at.max.x);
    // A result that reads: Roll is back.
    h.get_by_role_and_label(egui::accesskit::Role::TextInput, field)
        .scroll_to_me();
    h.run();
    h.get_by_role_and_label(egui::accesskit::Role::TextInput, field)
        .click();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run();
    h.get_by_role_and_label(egui::accesskit::Role::TextInput, field)
        .type_text("A1/D2");
    h.run();
    h.run();
    assert!(
        !h.get_by_label("Roll and apply")
            .accesskit_node()
            .is_disabled()
    );
}

/// Item 4: the status line after a roll leads with what the umpire went ahead with.
#[test]
fn the_status_after_a_roll_leads_with_the_breaches() {
    let mut h = window(None);
    for (unit, level) in [(ATTACKER, Level::Shaken), (DEFENDER, Level::Broken)] {
        app(&mut h).handle(Command::Act(Action::SetLevel {
            unit: unit.into(),
            level,
        }));
    }
    pick(&mut h, ATTACKER, Some(DEFENDER));
    h.get_by_label("melee").click();
    h.run();
    h.get_by_label("Roll and apply").click();
    h.run();
    let a = &h.state().state;
    let status = a.status.as_ref().expect("a status").text.clone();
    let summary = a.game.log().last().expect("the roll").summary.clone();
    assert!(status.starts_with("went ahead: "), "{status}");
    let at = status.find(&summary).expect("the outcome after");
    assert!(
        status[..at].to_lowercase().contains("is shaken (pk-x1)")
            && status[..at].to_lowercase().contains("is broken (pk-x1)"),
        "{status}"
    );
}

/// Item 6: hits where nobody is named name their cell and are placed by hand: resolving again
/// re-rolls every die.
#[test]
fn gsp_hits_where_nobody_is_named_are_placed_by_hand_not_rerolled() {
    let note = (1..200)
        .find_map(|seed| {
            let mut a = gsp(seed);
            a.handle(Command::ResolveAndApply {
                entered: Vec::new(),
            });
            last_resolution(&a)
                .notes
                .clone()
                .into_iter()
                .find(|n| n.contains("where no unit is named"))
        })
        .expect("a seed whose shells drift where nobody is named");
    assert!(note.contains("place them by hand"), "{note}");
    assert!(note.contains("do not resolve again"), "{note}");
    assert!(!note.contains("and resolve again"), "{note}");
    let place = note
        .split(" land ")
        .nth(1)
        .and_then(|r| r.split(", where").next())
        .expect("the cell");
    assert!(
        note.contains(&format!("standing {place} (")),
        "names the cell: {note}"
    );
}

/// Item 7: the result card is the phase's own: gone once the phase moves on.
#[test]
fn the_result_card_goes_with_its_phase() {
    let mut h = window(None);
    pick(&mut h, ATTACKER, Some(DEFENDER));
    h.get_by_label("Roll and apply").click();
    h.run();
    assert!(h.query_by_label_contains("Result:").is_some());
    app(&mut h).handle(Command::NextPhase);
    h.run();
    h.run();
    assert!(
        h.query_by_label_contains("Result:").is_none(),
        "an old card in {}",
        h.state().state.game.state().phase_name()
    );
    assert!(
        h.query_by_label(kepi::app::resolver::ODDS_ROLLED_WITH)
            .is_none()
    );
    // Undone back into its phase, the card is the phase's again.
    app(&mut h).handle(Command::Undo);
    h.run();
    h.run();
    assert!(h.query_by_label_contains("Result:").is_some());
}

/// Item 8: "Fight as a battle…" on its own row above Roll, where it stays whatever the dice mode.
#[test]
fn fight_as_a_battle_keeps_its_row_above_roll_in_both_dice_modes() {
    let mut h = window_of(KepiApp::with_state(spi_combat()), LAPTOP);
    h.run();
    h.run();
    let fight = h.get_by_label("Fight as a battle…").rect();
    let roll = h.get_by_label("Roll and apply").rect();
    assert!(fight.max.y <= roll.min.y, "{fight:?} above {roll:?}");
    app(&mut h).options.own_dice = true;
    h.run();
    h.run();
    assert!(h.query_by_label("Apply my dice").is_some());
    assert_eq!(h.get_by_label("Fight as a battle…").rect(), fight);
    app(&mut h).options.own_dice = false;
    h.run();
    h.run();
    assert_eq!(h.get_by_label("Fight as a battle…").rect(), fight);
}
