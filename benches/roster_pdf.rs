//! A 1,000-unit roster to PDF (target: under one second).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may fail loudly

use criterion::{Criterion, criterion_group, criterion_main};
use kepi::export::{Paper, RosterDoc, roster_pdf};

fn bench(c: &mut Criterion) {
    let doc = RosterDoc::sample(1000);
    let mut g = c.benchmark_group("roster_pdf");
    g.sample_size(10);
    g.bench_function("1000 units A4", |b| {
        b.iter(|| roster_pdf(std::hint::black_box(&doc), Paper::A4).map(|v| v.len()))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
