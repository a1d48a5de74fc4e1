//! An order of battle of 2,000 units (issue 43): importing a 2,000-row CSV (target 100 ms or
//! less), writing 2,000 cards as TOML (50 ms or less), and loading 2,000 cards. Run:
//! `cargo bench --bench oob`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a bench may fail loudly

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use kepi::registry::builtin_scenario;
use kepi::roster::csv_import::{import, map_columns, read_csv};
use kepi::roster::write::{save_over, save_over_opened, to_toml};
use kepi::roster::{Scenario, validate_roster};

/// Mars-la-Tour's 34 cards repeated to `n`, each with its own id and brigade.
fn big(n: usize) -> Scenario {
    let mut s = builtin_scenario("mars-la-tour").unwrap();
    let base = s.units.clone();
    s.units = (0..n)
        .map(|i| {
            let mut u = base[i % base.len()].clone();
            u.id = format!("{}-{i}", u.id);
            u.oob.brigade = Some(format!("Brigade {}", i / 6));
            u.oob.division = Some(format!("Division {}", i / 24));
            u
        })
        .collect();
    s
}

/// The CSV a spreadsheet would hold for `s`: the card's fields as columns.
fn csv_of(s: &Scenario) -> String {
    let mut out = String::from(
        "id,name,side,nation,arm,class,strength,weapon,formation,army,corps,division,brigade,notes\r\n",
    );
    for u in &s.units {
        let cells = [
            u.id.clone(),
            u.name.clone(),
            u.side.to_string(),
            u.nation.clone(),
            u.arm.to_string(),
            u.quality.map(|q| q.to_string()).unwrap_or_default(),
            u.strength.to_string(),
            u.weapon.map(|w| w.to_string()).unwrap_or_default(),
            u.formation.map(|w| w.to_string()).unwrap_or_default(),
            u.oob.army.clone().unwrap_or_default(),
            u.oob.corps.clone().unwrap_or_default(),
            u.oob.division.clone().unwrap_or_default(),
            u.oob.brigade.clone().unwrap_or_default(),
            "a note, \"quoted\"".to_string(),
        ];
        let row: Vec<String> = cells
            .iter()
            .map(|c| {
                if c.contains([',', '"', '\n']) {
                    format!("\"{}\"", c.replace('"', "\"\""))
                } else {
                    c.clone()
                }
            })
            .collect();
        out.push_str(&row.join(","));
        out.push_str("\r\n");
    }
    out
}

fn config() -> Criterion {
    Criterion::default()
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1))
        .sample_size(20)
}

fn oob(c: &mut Criterion) {
    let s = big(2000);
    let toml = to_toml(&s);
    let csv = csv_of(&s);
    eprintln!(
        "2,000 cards: {} bytes of TOML, {} bytes of CSV",
        toml.len(),
        csv.len()
    );
    // The same cards come back (checked once, outside the timings).
    assert_eq!(
        validate_roster("bench.toml", &toml, None).unwrap().units,
        s.units
    );
    let spec = kepi::rules::pk::ID.card_spec();
    let mut grp = c.benchmark_group("order of battle, 2,000 units");
    grp.bench_function("import a 2,000-row CSV (read, map, check)", |b| {
        b.iter(|| {
            let parsed = read_csv("bench.csv", csv.as_bytes()).unwrap();
            let m = map_columns(&parsed.header.cells, &[], &spec).unwrap();
            let imp = import("bench.csv", &parsed, &m, Some(kepi::rules::pk::ID), None);
            black_box(imp.units().len())
        })
    });
    grp.bench_function("write 2,000 cards as TOML", |b| {
        b.iter(|| black_box(to_toml(&s).len()))
    });
    grp.bench_function("load 2,000 cards (parse + check)", |b| {
        b.iter(|| black_box(validate_roster("bench.toml", &toml, None).map(|s| s.units.len())))
    });
    let mut changed = s.clone();
    changed.units[10].strength += 1;
    grp.bench_function(
        "save over the opened file, comments kept (1 card changed)",
        |b| b.iter(|| black_box(save_over(&toml, &changed, None).len())),
    );
    // The builder's save: it holds the scenario it opened, so the original is not read again.
    grp.bench_function(
        "save over the opened file from the builder (scenario held, 1 card changed)",
        |b| b.iter(|| black_box(save_over_opened(&toml, &s, &changed, None).len())),
    );
    grp.finish();
}

criterion_group! {
    name = benches;
    config = config();
    targets = oob
}
criterion_main!(benches);
