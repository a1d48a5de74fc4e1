//! Recording an action costs the same at action 10 and action 10,000 (issue 16): an action is
//! durable once its journal line is fsynced; the whole save is rewritten only every
//! `COMPACT_EVERY` actions (and on idle, close and Save), and loading reads the save plus the
//! journal.

use super::common::{kepi, tmp};

use std::path::PathBuf;

use chrono::Utc;
use kepi::game::{Action, Game, SeedSecret};
use kepi::registry::builtin_scenario;
use kepi::store::{COMPACT_EVERY, Store, journal_path, parse_save, read_game};

fn new_game() -> Game {
    let sc = builtin_scenario("mars-la-tour").expect("scenario");
    Game::new(&sc, kepi::rules::pk::ID, SeedSecret::new(42), Utc::now())
}

#[test]
fn recording_does_not_rewrite_the_save_per_action_and_load_is_save_plus_journal() {
    let dir = tmp("compaction", "count");
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
    let dir = tmp("compaction", "cli");
    let save = dir.join("g.kepi.json");
    let s = save.to_str().expect("utf-8 path");
    let o = kepi(&[
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
        let o = kepi(&["game", "apply", s, "note", &format!("n{i}")]);
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
    let o = kepi(&["log", "show", s]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("n4"), "{out}");
    let o = kepi(&["log", "verify", s, "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let viewed = read_game(&save).expect("viewed");
    assert_eq!(v["entries"], viewed.game.log().len());
    assert_eq!(v["head"], viewed.game.head());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn readers_work_while_the_game_is_open_for_writing() {
    let dir = tmp("compaction", "readers");
    let save = dir.join("g.kepi.json");
    let mut game = new_game();
    let mut store = Store::create(&save, &game).expect("create");
    game.act(
        Action::Note {
            text: "while open".into(),
        },
        Utc::now(),
    )
    .expect("act");
    assert_eq!(store.record(&game).expect("record").save_warning, None);
    // The window (or a running `game apply`) holds the write lock; readers take none.
    let s = save.to_str().expect("utf-8 path");
    for args in [
        vec!["game", "show", s],
        vec!["log", "show", s],
        vec!["game", "due", s],
        vec!["log", "verify", s],
    ] {
        let o = kepi(&args);
        assert!(
            o.status.success(),
            "kepi {args:?} while the game is open: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    // A second writer is refused while the first holds the lock.
    let o = kepi(&["game", "apply", s, "note", "second writer"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("open in another kepi"));
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 29: the window rewrites the save off its thread. `record` starts the rewrite and returns;
/// `compact` waits for it; a rewrite that fails is said by `poll`; dropping the store lets a running
/// rewrite finish before the lock goes.
#[test]
fn a_store_in_the_background_rewrites_the_save_off_the_callers_thread() {
    let dir = tmp("compaction", "background");
    let save = dir.join("g.kepi.json");
    let mut game = new_game();
    let mut store = Store::create(&save, &game).expect("create");
    store.in_background();
    let note = |game: &mut Game, i: usize| {
        game.act(
            Action::Note {
                text: format!("n{i}"),
            },
            Utc::now(),
        )
        .expect("act");
    };
    let actions = 2 * COMPACT_EVERY + 88;
    for i in 0..actions {
        note(&mut game, i);
        let r = store.record(&game).expect("record");
        assert_eq!(r.save_warning, None);
    }
    // However far the rewrites got, `compact` waits for the running one and catches up.
    store.compact(&game).expect("compact");
    assert_eq!(store.behind(), 0);
    assert!(!store.rewriting());
    let writes = store.stats().save_writes;
    assert!((2..=4).contains(&writes), "{writes} saves written");
    let alone = parse_save(&std::fs::read(&save).expect("save"), "g").expect("parses");
    assert_eq!(alone.head(), game.head());

    // A rewrite that cannot keep the backup fails off the thread and is said by `poll`.
    let bak = kepi::store::backup_path(&save);
    let _ = std::fs::remove_file(&bak);
    std::fs::create_dir_all(bak.join("in-the-way")).expect("blocker");
    for i in 0..COMPACT_EVERY {
        note(&mut game, actions + i);
        let r = store.record(&game).expect("record");
        assert_eq!(r.save_warning, None);
    }
    assert!(store.rewriting());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let said = loop {
        if let Some(w) = store.poll() {
            break w;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no word from the rewrite"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    assert!(said.contains("catch up"), "{said}");
    assert_eq!(store.behind(), COMPACT_EVERY);
    std::fs::remove_dir_all(&bak).expect("blocker gone");

    // The next action starts a rewrite (the save is behind by more than COMPACT_EVERY); dropping
    // the store at once lets it finish before the lock goes.
    let before = game.log().len();
    note(&mut game, 0);
    let r = store.record(&game).expect("record");
    assert_eq!(r.save_warning, None);
    assert!(store.rewriting());
    drop(store);
    let alone = parse_save(&std::fs::read(&save).expect("save"), "g").expect("parses");
    assert_eq!(alone.log().len(), before + 1, "the rewrite finished");
    let opened = Store::open(&save).expect("opens");
    assert_eq!(opened.game.head(), game.head());
    drop(opened);
    let _ = std::fs::remove_dir_all(&dir);
}
