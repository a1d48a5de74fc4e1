//! Issue 28's wrong numbers, against the texts: 1870's board numbering (even-q), the GSP crew's
//! first hit, and two P&K provenances.

use kepi::hex::Layout;
use kepi::play::board::hex_in;
use kepi::roster::Position;
use kepi::rules::RuleSetId;
use kepi::tables::Provenance;

fn fr1870_distance(a: &str, b: &str) -> u32 {
    let layout = kepi::registry::get(kepi::rules::fr1870::ID).hex_layout();
    let h = |s: &str| hex_in(s.parse::<Position>().unwrap(), layout).unwrap();
    h(a).distance(h(b))
}

/// 1870, I10: "one and the same unit occupying a cell adjacent to several fortresses may besiege
/// them simultaneously (example: a unit occupying cell 1640 may besiege Neuf-Brisach and Sélestat
/// simultaneously)"; the situations place Neuf-Brisach at 1541 and Sélestat at 1741.
#[test]
fn fr1870_i10_1640_is_next_to_neuf_brisach_and_selestat() {
    assert_eq!(
        kepi::registry::get(kepi::rules::fr1870::ID).hex_layout(),
        Layout::EvenQ
    );
    assert_eq!(fr1870_distance("1640", "1541"), 1);
    assert_eq!(fr1870_distance("1640", "1741"), 1);
}

/// 1870, Situation 1: "no French unit remains east of the Moselle and of the line 1438 - 1339 -
/// 1239": a line of adjacent cells.
#[test]
fn fr1870_situation_line_is_a_line_of_neighbours() {
    assert_eq!(fr1870_distance("1438", "1339"), 1);
    assert_eq!(fr1870_distance("1339", "1239"), 1);
}

/// 1870, reinforcements: "P = Paris (cell 2117, 2216 or 2217, at choice)": the fortified camp's
/// three cells touch one another.
#[test]
fn fr1870_paris_cells_touch() {
    for (a, b) in [("2117", "2216"), ("2117", "2217"), ("2216", "2217")] {
        assert_eq!(fr1870_distance(a, b), 1, "{a}-{b}");
    }
}

/// The other hex rule sets keep odd-q (their texts print no cell numbers).
#[test]
fn other_hex_rule_sets_keep_odd_q() {
    for s in [kepi::rules::pw::ID, kepi::rules::spi::ID] {
        assert_eq!(kepi::registry::get(s).hex_layout(), Layout::OddQ, "{s:?}");
    }
}

/// GSP-C3: "If the hit die roll was even, the First hit goes on a team horse. If it was odd, on a
/// cannoneer." Three hits on an odd die: the first is a cannoneer's (two cannoneers, one horse).
#[test]
fn gsp_crew_odd_die_first_hit_on_a_cannoneer() {
    let t = kepi::registry::builtin_tables().unwrap();
    let input = kepi::rules::gsp::CrewInput {
        hits: 3,
        hit_die: Some(3),
        ..Default::default()
    };
    let r = kepi::rules::gsp::crew(&input, t.get::<kepi::rules::gsp::GspTables>(), None).unwrap();
    let o = r.outcome.unwrap();
    assert_eq!((o.horses, o.cannoneers), (1, 2));
    assert_eq!(o.first, kepi::rules::gsp::CrewMember::Cannoneer);
    assert!(r.summary.contains("first on a cannoneer"), "{}", r.summary);
    let input = kepi::rules::gsp::CrewInput {
        hits: 3,
        hit_die: Some(4),
        ..Default::default()
    };
    let o = kepi::rules::gsp::crew(&input, t.get::<kepi::rules::gsp::GspTables>(), None)
        .unwrap()
        .outcome
        .unwrap();
    assert_eq!((o.horses, o.cannoneers), (2, 1));
    assert_eq!(o.first, kepi::rules::gsp::CrewMember::Horse);
}

/// PK-L1: "When a general is a casualty, all of his units within 18” that have to make rally
/// rolls that move lose 3 or 4 points." The text does not say which: kepi's 3 is a house pick.
/// PK-U1: no sentence prices limbering; the 1 URT is derived from "Unlimbered artillery is
/// skirmish formation while limbered artillery is “formed”" and "it takes 1 URT to change
/// formation".
#[test]
fn pk_general_death_is_house_and_limber_is_derived() {
    let t = kepi::registry::builtin_tables().unwrap();
    let g = &t.get::<kepi::rules::pk::PkTables>().rally.general_death;
    assert_eq!(g.v(), -3);
    assert_eq!(g.provenance, Provenance::House);
    assert!(g.note.as_deref().unwrap().contains("3 or 4"));
    let l = &t.get::<kepi::rules::pk::PkTables>().urt.limber;
    assert_eq!(l.provenance, Provenance::Derived);
    assert!(l.quote.is_none());
    assert!(l.note.as_deref().unwrap().contains("formation change"));
}

fn game(scenario: &str, system: RuleSetId) -> kepi::game::Game {
    kepi::game::Game::new(
        &kepi::registry::builtin_scenario(scenario).unwrap(),
        system,
        kepi::game::SeedSecret::new(5),
        chrono::Utc::now(),
    )
}

/// The impossible, refused by the pure checks every front end runs: `gain` on an eliminated unit,
/// a sabre-armed unit firing (PK-F1), a battery firing another piece than its own (GSP-A1).
#[test]
fn impossible_actions_are_refused_by_the_rules() {
    use kepi::game::Action;
    use kepi::play::{Form, refuse};
    let mut g = game("spi-1870", kepi::rules::spi::ID);
    let gain = |unit: &str| Action::GainStrength {
        unit: unit.into(),
        n: 1,
    };
    g.act(
        Action::LoseStrength {
            unit: "fr-bitche-10".into(),
            n: 10,
        },
        chrono::Utc::now(),
    )
    .unwrap();
    let why = refuse::action_refusal(&gain("fr-bitche-10"), g.state()).unwrap();
    assert!(why.contains("is eliminated"), "{why}");
    g.act(
        Action::LoseStrength {
            unit: "fr-worth-10".into(),
            n: 2,
        },
        chrono::Utc::now(),
    )
    .unwrap();
    assert_eq!(
        refuse::action_refusal(&gain("fr-worth-10"), g.state()),
        None
    );

    let t = kepi::registry::builtin_tables().unwrap();
    let g = game("mars-la-tour", kepi::rules::pk::ID);
    let mut fire = Form::all_for(kepi::rules::pk::ID)
        .into_iter()
        .find(|f| f.name() == "fire")
        .unwrap();
    fire.prefill(g.state(), Some("7th-cuirassiers"), Some("55e-ligne-1"), t);
    let why = fire.refusal(g.state()).unwrap();
    assert!(why.contains("carries a sabre"), "{why}");

    let g = game("st-privat", kepi::rules::gsp::ID);
    let mut art = Form::all_for(kepi::rules::gsp::ID).remove(0);
    art.prefill(g.state(), Some("saxon-light-1"), Some("9e-ligne-1"), t);
    assert_eq!(art.refusal(g.state()), None, "its own piece");
    if let Some(f) = art.get_mut::<kepi::rules::gsp::form::GspForm>() {
        f.piece = Some(kepi::rules::gsp::Piece::Mitrailleuse);
    }
    let why = art.refusal(g.state()).unwrap();
    assert!(why.contains("cannot fire as mitrailleuse"), "{why}");
}
