//! Recording an action costs the same at action 10 and action 10,000 (issue 16): an action is
//! durable once its journal line is fsynced; the whole save is rewritten only every
//! `COMPACT_EVERY` actions (and on idle, close and Save), and loading reads the save plus the
//! journal.

use std::path::PathBuf;

use chrono::Utc;
use kepi::game::{Action, Game, SeedSecret};
use kepi::roster::builtin_scenario;
use kepi::rules::System;
use kepi::store::{COMPACT_EVERY, Store, journal_path, parse_save, read_game};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kepi-compaction-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn new_game() -> Game {
    let sc = builtin_scenario("mars-la-tour").expect("scenario");
    Game::new(&sc, System::Pk, SeedSecret::new(42), Utc::now())
}

#[test]
fn recording_does_not_rewrite_the_save_per_action_and_load_is_save_plus_journal() {
    let dir = tmp("count");
    let save = dir.join("g.kepi.json");
    let mut game = new_game();
    let mut store = Store::create(&save, &game).expect("create");
    assert_eq!(store.stats().save_writes, 1);
    let actions = 2 * COMPACT_EVERY + 88;
    for i in 0..actions {
        game.act(
            Action::Note {
                text: format!("n{i}"),
            },
            Utc::now(),
        )
        .expect("act");
        let r = store.record(&game).expect("record");
        assert_eq!(r.save_warning, None);
    }
    let stats = store.stats();
    assert_eq!(
        stats.journal_appends,
        1 + actions as u64,
        "one append per action"
    );
    assert_eq!(
        stats.save_writes,
        1 + (actions / COMPACT_EVERY) as u64,
        "the save is rewritten every {COMPACT_EVERY} actions, not per action"
    );
    assert_eq!(store.behind(), 88);
    let head = game.head();
    drop(store);

    // The save alone is behind; the save plus the journal is the game.
    let alone = parse_save(&std::fs::read(&save).expect("save"), "g").expect("parses");
    assert_eq!(alone.log().len(), game.log().len() - 88);
    let viewed = read_game(&save).expect("viewed");
    assert_eq!(viewed.recovered, 88);
    assert_eq!(viewed.game.head(), head);
    let mut opened = Store::open(&save).expect("opens");
    assert_eq!(opened.recovered, 88);
    assert_eq!(opened.game.head(), head);
    assert_eq!(opened.game.state(), game.state());
    assert_eq!(
        opened.store.stats().save_writes,
        0,
        "opening does not rewrite the save"
    );
    // Compacting (idle, close, Save) brings the save up to date.
    opened.store.compact(&opened.game).expect("compact");
    assert_eq!(opened.store.behind(), 0);
    drop(opened);
    let alone = parse_save(&std::fs::read(&save).expect("save"), "g").expect("parses");
    assert_eq!(alone.head(), head);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn game_apply_appends_to_the_journal_and_leaves_the_save_alone() {
    let dir = tmp("cli");
    let save = dir.join("g.kepi.json");
    let bin = env!("CARGO_BIN_EXE_kepi");
    let run = |args: &[&str]| {
        std::process::Command::new(bin)
            .args(args)
            .output()
            .expect("kepi runs")
    };
    let s = save.to_str().expect("utf-8 path");
    let o = run(&[
        "game",
        "new",
        "--scenario",
        "mars-la-tour",
        "--out",
        s,
        "--seed",
        "7",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let before = std::fs::read(&save).expect("save");
    let jlen = |p: &PathBuf| {
        std::fs::metadata(journal_path(p))
            .map(|m| m.len())
            .unwrap_or(0)
    };
    let mut last = jlen(&save);
    for i in 0..5 {
        let o = run(&["game", "apply", s, "note", &format!("n{i}")]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(String::from_utf8_lossy(&o.stdout).starts_with("ok "));
        let now = jlen(&save);
        assert!(now > last, "each ok is a journal line");
        last = now;
    }
    assert_eq!(
        std::fs::read(&save).expect("save"),
        before,
        "the save was not rewritten per action"
    );
    // Readers see every action (save + journal).
    let o = run(&["log", "show", s]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("n4"), "{out}");
    let o = run(&["log", "verify", s, "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let viewed = read_game(&save).expect("viewed");
    assert_eq!(v["entries"], viewed.game.log().len());
    assert_eq!(v["head"], viewed.game.head());
    let _ = std::fs::remove_dir_all(&dir);
}
