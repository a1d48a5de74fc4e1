//! Save + load of a game with 10,000 actions (target: 100 ms or less), and what one more recorded
//! action costs at that size. Run: `cargo bench --bench store`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may fail loudly

use std::hint::black_box;
use std::time::Duration;

use chrono::{TimeZone, Utc};
use criterion::{Criterion, criterion_group, criterion_main};
use kepi::game::{Action, Game, SeedSecret};
use kepi::registry::builtin_scenario;
use kepi::store::{SaveFile, Store, parse_save};

/// Mars-la-Tour and `n` cheap actions: notes, fatigue +1 / reset, flags, moves, next phase.
fn game(n: usize) -> Option<Game> {
    let sc = builtin_scenario("mars-la-tour").ok()?;
    let now = Utc.timestamp_opt(1_700_000_000, 0).single()?;
    let mut g = Game::new(
        &sc,
        kepi::rules::pk::ID,
        SeedSecret {
            seed: 7,
            salt: "bench".into(),
        },
        now,
    );
    let ids: Vec<String> = g.state().units.iter().map(|u| u.unit.id.clone()).collect();
    for i in 0..n {
        let unit = ids[i % ids.len()].clone();
        let a = match i % 6 {
            0 => Action::Note {
                text: format!("note {i}"),
            },
            1 => Action::AddFatigue { unit, n: 1 },
            2 => Action::ResetFatigue { unit },
            3 => Action::SetFlag {
                unit,
                flag: kepi::game::Flag::Disordered.into(),
                on: i % 12 == 3,
            },
            4 => Action::Move {
                effects: Vec::new(),
                unit,
                to: kepi::roster::Position::Hex {
                    col: (i % 30) as u8,
                    row: (i % 20) as u8,
                },
                notes: Vec::new(),
                mp: None,
            },
            _ => Action::NextPhase,
        };
        g.act(a, now).ok()?;
    }
    Some(g)
}

fn config() -> Criterion {
    Criterion::default()
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1))
        .sample_size(20)
}

fn store(c: &mut Criterion) {
    let Some(g) = game(10_000) else {
        eprintln!("could not build the game");
        return;
    };
    let compact = serde_json::to_vec(&SaveFile::of(&g)).unwrap_or_default();
    let pretty = serde_json::to_vec_pretty(&SaveFile::of(&g)).unwrap_or_default();
    eprintln!(
        "save of 10,000 actions: {} bytes compact, {} bytes pretty",
        compact.len(),
        pretty.len()
    );
    let mut grp = c.benchmark_group("store 10k actions");
    grp.bench_function("build (act x10k)", |b| b.iter(|| black_box(game(10_000))));
    grp.bench_function("save (serialize compact)", |b| {
        b.iter(|| black_box(serde_json::to_vec(&SaveFile::of(&g)).map(|v| v.len())))
    });
    grp.bench_function("save (serialize pretty)", |b| {
        b.iter(|| black_box(serde_json::to_vec_pretty(&SaveFile::of(&g)).map(|v| v.len())))
    });
    // Loading ends when the game is ready; dropping it (10,000 undo snapshots) happens when the
    // game is closed, so it is left out of these two timings (criterion's iter_with_large_drop).
    // The drop on its own is measured below.
    grp.bench_function("load (parse + verify + replay)", |b| {
        b.iter_with_large_drop(|| black_box(parse_save(&compact, "bench")))
    });
    grp.bench_function("save + load", |b| {
        b.iter_with_large_drop(|| {
            let bytes = serde_json::to_vec(&SaveFile::of(&g)).unwrap_or_default();
            black_box(parse_save(&bytes, "bench"))
        })
    });
    grp.bench_function("drop a loaded game", |b| {
        b.iter_batched(
            || parse_save(&compact, "bench"),
            drop,
            criterion::BatchSize::LargeInput,
        )
    });
    let dir = std::env::temp_dir().join(format!("kepi-bench-store-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join("game.kepi");
    if let Ok(mut st) = Store::create(&path, &g) {
        let mut g2 = g.clone();
        let now = Utc.timestamp_opt(1_700_000_000, 0).single();
        // Issue 16: an action is a journal line (fsync); the save is rewritten every
        // COMPACT_EVERY actions. Target: 5 ms median, 64 KiB written per action on average.
        grp.bench_function(
            "record one more action (journal line; the save every 256)",
            |b| {
                b.iter(|| {
                    if let Some(now) = now {
                        let _ = g2.act(Action::Note { text: "x".into() }, now);
                    }
                    black_box(st.record(&g2).is_ok())
                })
            },
        );
        let before = st.stats();
        let n = 1_024u64;
        for _ in 0..n {
            if let Some(now) = now {
                let _ = g2.act(Action::Note { text: "x".into() }, now);
            }
            let _ = st.record(&g2);
        }
        let after = st.stats();
        eprintln!(
            "record at {} entries: {} bytes written per action on average over {n} actions ({} saves)",
            g2.log().len(),
            (after.bytes_written - before.bytes_written) / n,
            after.save_writes - before.save_writes
        );
        // `kepi game apply` opens the game (save + journal), acts, records and closes: the
        // opening is a load. A fresh file of the 10,000-action game (the one above has grown).
        drop(st);
        let apply = dir.join("apply.kepi");
        drop(Store::create(&apply, &g));
        grp.bench_function("game apply path: open + one action + record", |b| {
            b.iter_with_large_drop(|| {
                let Ok(mut o) = Store::open(&apply) else {
                    return None;
                };
                if let Some(now) = now {
                    let _ = o.game.act(Action::Note { text: "y".into() }, now);
                }
                let ok = o.store.record(&o.game).is_ok();
                Some((ok, o))
            })
        });
    }
    grp.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group! {
    name = benches;
    config = config();
    targets = store
}
criterion_main!(benches);
