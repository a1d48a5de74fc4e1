//! The order-of-battle builder at 2,000 units (issue 43): opening the order of battle in the
//! builder's model (target 100 ms or less) and one frame of the builder's window with the whole
//! tree open, a unit's form shown (target 4 ms or less, median), run headless through
//! `egui::Context::run_ui` and tessellated, as benches/frame.rs does; and a key typed into one
//! card's field (the model's edit: one card checked again, the tree rebuilt). Run:
//! `cargo bench --bench builder`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a bench may fail loudly

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use kepi::app::builder::{BuilderWindow, Selection};
use kepi::registry::builtin_scenario;
use kepi::roster::Scenario;
use kepi::roster::builder::OrderOfBattle;
use kepi::roster::write::to_toml;

/// Mars-la-Tour's cards repeated to `n`, each with its own id, brigade and division (as
/// benches/oob.rs builds them).
fn big(n: usize) -> Scenario {
    let mut s = builtin_scenario("mars-la-tour").unwrap();
    let base = s.units.clone();
    s.units = (0..n)
        .map(|i| {
            let mut u = base[i % base.len()].clone();
            u.id = format!("{}-{i}", u.id);
            u.name = format!("{} {i}", u.name);
            u.oob.brigade = Some(format!("Brigade {}", i / 6));
            u.oob.division = Some(format!("Division {}", i / 24));
            u
        })
        .collect();
    s
}

fn config() -> Criterion {
    Criterion::default()
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1))
        .sample_size(20)
}

fn builder(c: &mut Criterion) {
    let s = big(2000);
    let toml = to_toml(&s);
    c.bench_function("builder_open_2000_scenario", |b| {
        b.iter(|| black_box(OrderOfBattle::from_scenario(black_box(&s), None)))
    });
    c.bench_function("builder_open_2000_file", |b| {
        b.iter(|| {
            black_box(OrderOfBattle::from_source(
                "big.toml",
                black_box(&toml),
                None,
            ))
        })
    });
    let oob = OrderOfBattle::from_scenario(&s, None);
    assert!(oob.errors().is_empty(), "{:?}", oob.errors().first());
    let key = oob.drafts().nth(1000).map(|d| d.key).unwrap();
    // A key typed into one card's field: the model's edit (the tree and the errors after it).
    let mut typed = OrderOfBattle::from_scenario(&s, None);
    let mut n = 0u64;
    c.bench_function("builder_type_one_key_2000", |b| {
        b.iter(|| {
            n += 1;
            let op = kepi::roster::builder::Op::Set {
                key,
                field: kepi::roster::Field::Name,
                value: format!("Renamed {n}"),
            };
            black_box(typed.apply(op).is_ok())
        })
    });
    let mut w = BuilderWindow::default();
    w.load(oob, None, None);
    w.selected = Some(Selection::Unit(key));
    let ctx = egui::Context::default();
    let mut t = 0.0;
    let mut remembered = Vec::new();
    let mut frame = move || {
        t += 1.0 / 60.0;
        let x = 200.0 + (t * 60.0 % 400.0) as f32;
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(1366.0, 768.0),
            )),
            time: Some(t),
            events: vec![egui::Event::PointerMoved(egui::pos2(x, 300.0))],
            ..Default::default()
        };
        let mut out = Vec::new();
        let mut full = ctx.run_ui(input, |ui| w.ui(ui.ctx(), &mut remembered, &mut out));
        full.textures_delta.clear();
        ctx.tessellate(full.shapes, full.pixels_per_point).len()
    };
    for _ in 0..10 {
        frame();
    }
    c.bench_function("builder_frame_2000_tree_open", |b| {
        b.iter(|| black_box(frame()))
    });
}

criterion_group! {
    name = benches;
    config = config();
    targets = builder
}
criterion_main!(benches);
