//! Raw dice throughput: the floor under every Monte Carlo what-if (issue 10).
//! Run: `cargo bench --bench dice`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may fail loudly

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kepi::dice::{DiceExpr, DiceSource, Die};

fn dice(c: &mut Criterion) {
    let mut g = c.benchmark_group("dice");
    g.throughput(Throughput::Elements(1000));
    g.bench_function("d10 x1000 seeded", |b| {
        let mut src = DiceSource::seeded(1);
        b.iter(|| {
            for _ in 0..1000 {
                black_box(src.roll(Die::D10, "bench").ok());
            }
            src.take_rolls();
        })
    });
    g.bench_function("d% x1000 seeded", |b| {
        let mut src = DiceSource::seeded(2);
        b.iter(|| {
            for _ in 0..1000 {
                black_box(src.roll(Die::Pct, "bench").ok());
            }
            src.take_rolls();
        })
    });
    g.finish();
    let two_d6: DiceExpr = "2d6".parse().unwrap_or(DiceExpr {
        count: 2,
        sides: 6,
        modifier: 0,
    });
    c.bench_function("odds 10d6 exact", |b| {
        let e = DiceExpr {
            count: 10,
            ..two_d6.clone()
        };
        b.iter(|| black_box(e.dist().map(|d| d.len())))
    });
}

criterion_group!(benches, dice);
criterion_main!(benches);
