//! `kepi game apply` plays a rule set registered at run time ("Volley", tests/shared/volley.rs):
//! its forms are verbs, pre-filled from the units, with `--set FIELD=VALUE` and `--dice`. The
//! command runs in this process (`kepi::cli::run`), where the rule set is registered; the kepi
//! binary has only its five.

#[path = "../shared/volley.rs"]
mod volley;

use clap::Parser;
use kepi::cli::{Cli, CliError, run};

use crate::common::tmp;

fn kepi_here(args: &[&str]) -> Result<(), CliError> {
    let cli = Cli::try_parse_from(std::iter::once("kepi").chain(args.iter().copied()))
        .map_err(|e| CliError::usage(e.to_string()))?;
    let command = cli
        .command
        .as_ref()
        .ok_or_else(|| CliError::usage("no command"))?;
    run(&cli, command)
}

/// A new game of the volley-test scenario, saved in the test's own folder.
fn volley_game(name: &str) -> String {
    let save = tmp("sixth", name).join("g.json").display().to_string();
    kepi_here(&[
        "game",
        "new",
        "--scenario",
        "volley-test",
        "--out",
        &save,
        "--seed",
        "7",
    ])
    .unwrap();
    save
}

fn save_state(save: &str) -> kepi::game::GameState {
    kepi::store::read_game(std::path::Path::new(save))
        .unwrap()
        .game
        .state()
        .clone()
}

#[test]
fn a_registered_rule_sets_forms_are_verbs_of_game_apply() {
    let system = volley::system();
    let save = volley_game("apply");
    assert_eq!(save_state(&save).system, system);
    kepi_here(&["game", "apply", &save, "next-phase"]).unwrap();
    // A six hits: B drops to 1 point and a morale check is due.
    kepi_here(&["game", "apply", &save, "fire", "a", "b", "--dice", "d6=6"]).unwrap();
    let s = save_state(&save);
    assert_eq!(s.unit("b").unwrap().strength, 1);
    assert!(s.unit("a").unwrap().fired);
    assert!(s.due.iter().any(|d| d.rule.as_str() == "VOL-M1"));
    // The morale roll answers it.
    kepi_here(&["game", "apply", &save, "morale", "b", "--dice", "d6=3"]).unwrap();
    assert!(
        save_state(&save)
            .due
            .iter()
            .all(|d| d.rule.as_str() != "VOL-M1")
    );
}

#[test]
fn bad_words_for_a_registered_rule_set_are_usage_errors() {
    let _ = volley::system();
    let save = volley_game("bad");
    let len = kepi::store::read_game(std::path::Path::new(&save))
        .unwrap()
        .game
        .log()
        .len();
    for (args, says) in [
        (vec!["fire", "a"], "needs UNIT TARGET"),
        (
            vec!["fire", "a", "b", "--set", "range=3"],
            "no field `range`",
        ),
        (vec!["fire", "a", "b", "--dice", "d10=3"], "d10"),
        (vec!["fire", "a", "a"], "itself"),
        (
            vec!["fire", "a", "b", "--hex", "0101"],
            "unknown option `--hex`",
        ),
    ] {
        let mut argv = vec!["game", "apply", save.as_str()];
        argv.extend(args.iter().copied());
        let e = kepi_here(&argv).expect_err("refused");
        assert_eq!(e.code, 2, "{args:?}: {}", e.message);
        assert!(e.message.contains(says), "{args:?}: {}", e.message);
    }
    let after = kepi::store::read_game(std::path::Path::new(&save))
        .unwrap()
        .game
        .log()
        .len();
    assert_eq!(after, len, "nothing applied");
}

/// The `form` verb (what a window on the network sends its host) takes a registered rule set's
/// forms too: pre-filled from the units, a field set by its path, the dice entered.
#[test]
fn the_form_verb_takes_a_registered_rule_sets_forms() {
    // Registers the rule set in this process (whichever test runs first).
    let _ = volley::system();
    let save = volley_game("form-verb");
    kepi_here(&["game", "apply", &save, "next-phase"]).unwrap();
    kepi_here(&[
        "game", "apply", &save, "form", "fire", "a", "b", "--dice", "d6=6",
    ])
    .unwrap();
    let s = save_state(&save);
    assert_eq!(
        s.unit("b").unwrap().strength,
        1,
        "as `fire a b --dice d6=6`"
    );
    assert!(s.due.iter().any(|d| d.rule.as_str() == "VOL-M1"));
    // A field by its path; one the form does not have is named with the ones it has.
    let e = kepi_here(&[
        "game", "apply", &save, "form", "fire", "a", "b", "--set", "range=3",
    ])
    .expect_err("refused");
    assert_eq!(e.code, 2);
    assert!(
        e.message.contains("range") && e.message.contains("target_strength"),
        "{}",
        e.message
    );
}

/// A registered rule set's table is one of kepi's tables: `--tables DIR` overrides it file by
/// file like the five's, `kepi tables check` reads it, and a bad value names its file, line,
/// field and what is accepted.
#[test]
fn a_registered_rule_sets_table_is_read_from_the_tables_folder() {
    let _ = volley::system();
    let dir = tmp("sixth", "table");
    let tables = dir.join("tables");
    std::fs::create_dir_all(&tables).unwrap();
    // Built in: a five hits.
    let report = kepi::registry::check_tables(Some(&tables)).unwrap();
    let volley = report.iter().find(|r| r.file == "volley.toml").unwrap();
    assert!(!volley.from_folder);
    assert_eq!(volley.values, [0, 0, 1, 0], "one house value");
    // A club's folder makes it a six: the same roll of 5 now misses.
    std::fs::write(
        tables.join("volley.toml"),
        volley::TABLE.replace("value = 5", "value = 6"),
    )
    .unwrap();
    let report = kepi::registry::check_tables(Some(&tables)).unwrap();
    assert!(
        report
            .iter()
            .any(|r| r.file == "volley.toml" && r.from_folder)
    );
    let save = volley_game("table-game");
    let t = tables.display().to_string();
    kepi_here(&["game", "apply", &save, "next-phase"]).unwrap();
    kepi_here(&[
        "--tables", &t, "game", "apply", &save, "fire", "a", "b", "--dice", "d6=5",
    ])
    .unwrap();
    assert_eq!(save_state(&save).unit("b").unwrap().strength, 2, "5 misses");
    kepi_here(&["game", "apply", &save, "fire", "a", "b", "--dice", "d6=5"]).unwrap();
    assert_eq!(
        save_state(&save).unit("b").unwrap().strength,
        1,
        "without the folder, 5 hits"
    );
    // Out of range: located, with the accepted values.
    std::fs::write(
        tables.join("volley.toml"),
        volley::TABLE.replace("value = 5", "value = 9"),
    )
    .unwrap();
    let e = kepi::registry::load_tables(Some(&tables)).unwrap_err();
    assert!(e.file.ends_with("volley.toml"), "{e}");
    assert_eq!((e.line, e.field.as_str()), (2, "hit_on"), "{e}");
    assert_eq!(e.accepted, "1 to 6", "{e}");
    let e = kepi_here(&["--tables", &t, "tables", "check"]).unwrap_err();
    assert_eq!(e.code, 2, "{}", e.message);
    assert!(e.message.contains("volley.toml"), "{}", e.message);
}

/// What its situation panel ticks, `--set` types: a target in cover is hit on a six only.
#[test]
fn a_registered_rule_sets_situation_is_typed_with_set() {
    let _ = volley::system();
    let save = volley_game("cover");
    kepi_here(&["game", "apply", &save, "next-phase"]).unwrap();
    kepi_here(&[
        "game",
        "apply",
        &save,
        "fire",
        "a",
        "b",
        "--set",
        "cover=true",
        "--dice",
        "d6=5",
    ])
    .unwrap();
    assert_eq!(save_state(&save).unit("b").unwrap().strength, 2, "5 misses");
    let e = kepi_here(&[
        "game",
        "apply",
        &save,
        "fire",
        "a",
        "b",
        "--set",
        "cover=maybe",
    ])
    .unwrap_err();
    assert_eq!(e.code, 2, "{}", e.message);
}

/// Issue 45: a marker of the registered rule set's own ("wavering", VOL-M1, declared in
/// tests/shared/volley.rs and nowhere else) is put on with `flag UNIT KIND on`, kept on the unit
/// and in `game show --json` (`marks`), read by the set's own breach (a wavering unit firing is
/// noted with the roll), refused where it makes no sense, and cleared when the turn ends, as the
/// set declares; the log verifies.
#[test]
fn a_registered_rule_sets_own_unit_marker_is_kept_read_and_cleared_with_the_turn() {
    use kepi::game::{Action, EntryKind};
    let _ = volley::system();
    let save = volley_game("wavering");
    kepi_here(&["game", "apply", &save, "next-phase"]).unwrap();
    kepi_here(&["game", "apply", &save, "flag", "a", "wavering", "on"]).unwrap();
    assert_eq!(save_state(&save).unit("a").unwrap().marks, ["wavering"]);
    let shown = kepi::moves::show_value(
        &save_state(&save),
        &kepi::store::read_game(std::path::Path::new(&save))
            .unwrap()
            .game,
    );
    assert_eq!(shown["units"][0]["marks"], serde_json::json!(["wavering"]));
    assert!(
        shown["units"][1].get("marks").is_none(),
        "left out when none"
    );
    // The impossible is refused, naming what is accepted.
    let e = kepi_here(&["game", "apply", &save, "flag", "a", "wavering", "on"]).unwrap_err();
    assert!(
        e.code == 2 && e.message.contains("carries `wavering` already"),
        "{}",
        e.message
    );
    let e = kepi_here(&["game", "apply", &save, "flag", "a", "braced", "on"]).unwrap_err();
    assert!(
        e.code == 2
            && e.message
                .contains("or a marker of Volley (tests): wavering"),
        "{}",
        e.message
    );
    // The set's breach reads it: noted with the roll, the roll made.
    kepi_here(&["game", "apply", &save, "fire", "a", "b", "--dice", "d6=1"]).unwrap();
    let game = kepi::store::read_game(std::path::Path::new(&save))
        .unwrap()
        .game;
    let notes = match game.log().last().map(|e| &e.kind) {
        Some(EntryKind::Act {
            action: Action::Resolved { resolution, .. },
        }) => resolution.notes.clone(),
        other => panic!("a resolution last: {other:?}"),
    };
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("umpire went ahead: A Company is wavering (VOL-M1)")),
        "{notes:?}"
    );
    let logged = game.log()[game.log().len() - 2].summary.clone();
    assert_eq!(logged, "A Company wavering on");
    // It lasts the turn (German fire now; French movement and fire to come): gone when the
    // next one starts.
    for _ in 0..2 {
        kepi_here(&["game", "apply", &save, "next-phase"]).unwrap();
        assert_eq!(save_state(&save).unit("a").unwrap().marks, ["wavering"]);
    }
    kepi_here(&["game", "apply", &save, "next-phase"]).unwrap();
    assert!(save_state(&save).unit("a").unwrap().marks.is_empty());
    kepi_here(&["log", "verify", &save]).unwrap();
}
