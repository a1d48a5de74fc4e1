//! The window's frame: the full app state with 2,000 units and 10,000 log entries, driven headless
//! through `egui::Context::run_ui` and tessellated (everything but the GPU), median and p99 CPU time
//! per frame (target: under 4 ms median). Run: `cargo bench --bench frame`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may fail loudly

use std::hint::black_box;
use std::time::{Duration, Instant};

use chrono::Utc;
use criterion::{Criterion, criterion_group, criterion_main};
use kepi::app::KepiApp;
use kepi::app::state::{AppState, Command};
use kepi::game::{Action, Flag};
use kepi::registry::builtin_scenario;

/// Mars-la-Tour's units cloned to `units` (new ids and names), and `entries` log entries in all.
fn app(units: usize, entries: usize) -> Result<KepiApp, String> {
    let tables = kepi::registry::builtin_tables().map_err(|e| e.to_string())?;
    let mut sc = builtin_scenario("mars-la-tour")?;
    let base = sc.units.clone();
    sc.units = (0..units)
        .map(|i| {
            let mut u = base[i % base.len()].clone();
            u.id = format!("{}-{i}", u.id);
            u.name = format!("{} #{i}", u.name);
            u
        })
        .collect();
    let mut state = AppState::new_game(&sc, 1, tables)?;
    let ids: Vec<String> = state
        .state()
        .units
        .iter()
        .map(|u| u.unit.id.clone())
        .collect();
    let now = Utc::now();
    let mut i = 0usize;
    while state.game.log().len() < entries {
        let unit = ids[(i * 7) % ids.len()].clone();
        let a = match i % 5 {
            0 => Action::Note {
                text: format!("note {i}"),
            },
            1 => Action::AddFatigue { unit, n: 1 },
            2 => Action::ResetFatigue { unit },
            3 => Action::SetFlag {
                unit,
                flag: Flag::Disordered.into(),
                on: i % 10 == 3,
            },
            _ => Action::NextPhase,
        };
        state.game.act(a, now).map_err(|e| e.to_string())?;
        i += 1;
    }
    state.saved_len = state.game.log().len();
    Ok(KepiApp::with_state(state))
}

struct Driver {
    app: KepiApp,
    ctx: egui::Context,
    t: f64,
}

impl Driver {
    fn frame(&mut self) -> usize {
        self.frame_passes().0
    }

    /// One frame: the tessellated primitives, and the passes egui ran with why it ran more than one.
    fn frame_passes(&mut self) -> (usize, usize, Vec<String>) {
        self.t += 1.0 / 60.0;
        // The pointer moves a little each frame, as it does when someone is using the window.
        let x = 200.0 + (self.t * 60.0 % 400.0) as f32;
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(1400.0, 880.0),
            )),
            time: Some(self.t),
            events: vec![egui::Event::PointerMoved(egui::pos2(x, 300.0))],
            ..Default::default()
        };
        let app = &mut self.app;
        let mut out = self.ctx.run_ui(input, |ui| app.ui(ui));
        // No GPU here: the font atlas's uploads are dropped on purpose.
        out.textures_delta.clear();
        let passes = out.platform_output.num_completed_passes;
        let why = out
            .platform_output
            .request_discard_reasons
            .iter()
            .map(|r| r.to_string())
            .collect();
        (
            self.ctx.tessellate(out.shapes, out.pixels_per_point).len(),
            passes,
            why,
        )
    }
}

fn frame(c: &mut Criterion) {
    let t0 = Instant::now();
    let app = match app(2_000, 10_000) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("could not build the app: {e}");
            return;
        }
    };
    eprintln!(
        "built 2,000 units and {} log entries in {:?}",
        app.state.game.log().len(),
        t0.elapsed()
    );
    let mut d = Driver {
        app,
        ctx: egui::Context::default(),
        t: 0.0,
    };
    for _ in 0..10 {
        d.frame();
    }
    // Median and p99 over 300 frames, timed one by one.
    let mut frames: Vec<(Duration, usize, Vec<String>)> = (0..300)
        .map(|_| {
            let s = Instant::now();
            let (n, passes, why) = d.frame_passes();
            black_box(n);
            (s.elapsed(), passes, why)
        })
        .collect();
    frames.sort_by_key(|f| std::cmp::Reverse(f.0));
    let twice = frames.iter().filter(|f| f.1 > 1).count();
    eprintln!(
        "frames egui laid out twice (a discarded pass): {twice} of {}",
        frames.len()
    );
    for (t, passes, why) in frames.iter().take(5) {
        eprintln!("  slow frame {t:?}: {passes} pass(es) {why:?}");
    }
    let mut times: Vec<Duration> = frames.iter().map(|f| f.0).collect();
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    eprintln!(
        "frame (2,000 units, 10,000 log entries): median {:?}, p99 {:?}, min {:?}, max {:?}",
        at(0.5),
        at(0.99),
        times[0],
        times[times.len() - 1]
    );
    c.bench_function("frame 2000 units 10k log", |b| {
        b.iter(|| black_box(d.frame()))
    });
    record_in_window(&mut d.app.state);
}

/// The window's path for one action at 10,000 log entries (issue 16, target: 5 ms median):
/// `AppState::handle` acts, journals (fsync) and, every `COMPACT_EVERY` actions, rewrites the save.
/// The game lives in kepi's folder (a temp dir here), as a game nobody saved does.
fn record_in_window(state: &mut AppState) {
    let dir = std::env::temp_dir().join(format!("kepi-bench-window-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    state.data_dir = Some(dir.clone());
    state.saved_len = 0;
    state.store = None;
    // The first action gives the game its file (one full save).
    state.handle(Command::Act(Action::Note {
        text: "first".into(),
    }));
    if state.store.is_none() {
        eprintln!("could not keep the game in {}", dir.display());
        return;
    }
    let before = state.store.as_ref().map(|s| s.stats()).unwrap_or_default();
    let n = 1_024;
    let mut times: Vec<Duration> = (0..n)
        .map(|i| {
            let s = Instant::now();
            state.handle(Command::Act(Action::Note {
                text: format!("bench {i}"),
            }));
            s.elapsed()
        })
        .collect();
    let after = state.store.as_ref().map(|s| s.stats()).unwrap_or_default();
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    eprintln!(
        "window: one action at {} log entries: median {:?}, p99 {:?}, max {:?}; {} bytes written per action on average ({} saves in {n} actions)",
        state.game.log().len(),
        at(0.5),
        at(0.99),
        times[times.len() - 1],
        (after.bytes_written - before.bytes_written) / n as u64,
        after.save_writes - before.save_writes,
    );
    state.store = None;
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1))
        .sample_size(20);
    targets = frame
}
criterion_main!(benches);
