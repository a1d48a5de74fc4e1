//! The table on a network, on loopback: one action's round trip (request, apply, journal fsync,
//! answer; target: median 10 ms or less), and a client catching up and verifying 10,000 entries
//! (target: 1 s or less), and what hiding strengths adds per player seat per action. Run:
//! `cargo bench --no-default-features --bench net`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may fail loudly

use std::hint::black_box;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use chrono::{TimeZone, Utc};
use criterion::{Criterion, criterion_group, criterion_main};
use kepi::game::{Action, Game, SeedSecret};
use kepi::net::client::{Client, Replica};
use kepi::net::host::{Host, HostOptions};
use kepi::registry::builtin_scenario;
use kepi::store::Store;

const T: Duration = Duration::from_secs(30);

/// Mars-la-Tour and `n` cheap actions (notes, fatigue, flags, next phase), as benches/store.rs.
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
        let a = match i % 5 {
            0 => Action::Note {
                text: format!("note {i}"),
            },
            1 => Action::AddFatigue { unit, n: 1 },
            2 => Action::ResetFatigue { unit },
            3 => Action::SetFlag {
                unit,
                flag: kepi::game::Flag::Disordered.into(),
                on: i % 10 == 3,
            },
            _ => Action::NextPhase,
        };
        g.act(a, now).ok()?;
    }
    Some(g)
}

/// A hosted save of `n` actions in a fresh folder: the host serving on a thread, its address and
/// umpire's code, and the flag that stops it.
struct Hosted {
    url: String,
    code: String,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
    dir: PathBuf,
}

impl Hosted {
    fn start(name: &str, n: usize) -> Option<Hosted> {
        let dir =
            std::env::temp_dir().join(format!("kepi-bench-net-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).ok()?;
        let save = dir.join("g.json");
        let g = game(n)?;
        let mut store = Store::create(&save, &g).ok()?;
        store.compact(&g).ok()?;
        drop(store);
        let host = Host::open(
            Path::new(&save),
            &HostOptions {
                bind: IpAddr::from([127, 0, 0, 1]),
                port: 0,
                new_codes: true,
            },
            kepi::registry::builtin_tables().ok()?,
            Arc::new(|_| {}),
        )
        .ok()?;
        let url = host.url();
        let code = host.seats().first()?.code.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let s = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let _ = host.serve(&s);
        });
        Some(Hosted {
            url,
            code,
            stop,
            thread: Some(thread),
            dir,
        })
    }
}

impl Drop for Hosted {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn config() -> Criterion {
    Criterion::default()
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1))
        .sample_size(30)
}

fn net(c: &mut Criterion) {
    let mut grp = c.benchmark_group("net loopback");
    match Hosted::start("rt", 0) {
        None => eprintln!("could not host the round-trip game"),
        Some(h) => match Client::connect(&h.url, &h.code, None, T) {
            Err(e) => eprintln!("could not join: {e}"),
            Ok(mut client) => {
                let words = vec!["note".to_string(), "bench".to_string()];
                grp.bench_function("apply one action (round trip incl. journal fsync)", |b| {
                    b.iter(|| black_box(client.apply(&words, T).map(|a| a.entries.len())))
                });
                client.close();
            }
        },
    }
    match Hosted::start("catchup", 10_000) {
        None => eprintln!("could not host the 10,000-entry game"),
        Some(h) => {
            grp.sample_size(10);
            grp.bench_function(
                "join and catch up 10,000 entries (replayed, verified)",
                |b| {
                    b.iter(|| {
                        let got = Client::connect(&h.url, &h.code, Some(Replica::new()), T)
                            .and_then(|mut c| c.catch_up(T).map(|g| g.log().len()));
                        black_box(got)
                    })
                },
            );
        }
    }
    // Issue 19, hidden strengths: what the host adds per player seat per action while it hides
    // the other side's strengths (the seat's entry, its JSON view and its game state, rebuilt
    // from the game each time), on a 10,000-entry game with 2,000 checks left open.
    match game(10_000) {
        None => eprintln!("could not build the 10,000-entry game"),
        Some(g) => {
            use kepi::net::redact;
            let side = kepi::roster::Side::German;
            let last = g.log().len().saturating_sub(1);
            let made = &g.log()[last..];
            let key = || redact::ChainKey::parse(&"5a".repeat(32));
            let Some(k) = key() else {
                return;
            };
            let mut chains = redact::SeatChains::new(k);
            let range = last..g.log().len();
            grp.sample_size(30);
            grp.bench_function(
                "a hidden seat's share of one action (entry, view, state; 10,000 entries, 2,000 open checks)",
                |b| {
                    b.iter(|| {
                        let seen = chains.seen(side, g.log(), g.state(), range.clone(), false);
                        let head = chains.head(side, g.log(), g.state());
                        let view = redact::seat_view(&g, side, head);
                        let state = redact::seat_state(&g, side);
                        black_box((seen.len(), made.len(), view.is_object(), state.units.len()))
                    })
                },
            );
            // Issue 29: a seat's own chain is made once per side, when its first seat joins.
            grp.sample_size(10);
            grp.bench_function(
                "a hidden seat's own chain over 10,000 entries, made when its first seat joins",
                |b| {
                    b.iter(|| {
                        let mut fresh = key().map(redact::SeatChains::new);
                        black_box(fresh.as_mut().map(|c| c.head(side, g.log(), g.state())))
                    })
                },
            );
        }
    }
    grp.finish();
}

criterion_group! {
    name = benches;
    config = config();
    targets = net
}
criterion_main!(benches);
