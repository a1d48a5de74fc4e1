//! A resolution with its exact odds, per rule set (target: 50 us or less each), and Monte Carlo
//! throughput of seeded P&K fire (target: 1 M or more per second on one core) beside the raw dice.
//! Run: `cargo bench --bench resolve`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may fail loudly

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kepi::dice::{DiceSource, Die};
use kepi::rules::fr1870::{self, FrCombatInput};
use kepi::rules::gsp::{self, GunType};
use kepi::rules::pk::{self, Class, fire::FireInput, fire::FirePlan, melee::MeleeInput};
use kepi::rules::pw::{self, UnitKind};
use kepi::rules::spi::{self, SpiCombatInput, SpiUnit};

fn config() -> Criterion {
    Criterion::default()
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1))
        .sample_size(20)
}

fn resolutions(c: &mut Criterion) {
    let Ok(tables) = kepi::registry::builtin_tables() else {
        return;
    };
    let mut g = c.benchmark_group("resolve");
    let fi = FireInput {
        figures: 12,
        class: Class::Veteran,
        ..Default::default()
    };
    g.bench_function("pk fire", |b| {
        let mut d = DiceSource::seeded(1);
        b.iter(|| {
            let r = pk::fire::fire(
                black_box(&fi),
                tables.get::<kepi::rules::pk::PkTables>(),
                Some(&mut d),
            );
            d.take_rolls();
            black_box(r.is_ok())
        })
    });
    let ma = MeleeInput {
        figures: 12,
        class: Class::Elite,
        charge: true,
        ..Default::default()
    };
    let mb = MeleeInput {
        figures: 10,
        class: Class::Line,
        ..Default::default()
    };
    g.bench_function("pk melee-both", |b| {
        let mut d = DiceSource::seeded(2);
        b.iter(|| {
            let r = pk::melee::melee_both(
                black_box(&ma),
                &mb,
                tables.get::<kepi::rules::pk::PkTables>(),
                Some(&mut d),
            );
            d.take_rolls();
            black_box(r.is_ok())
        })
    });
    let one = gsp::FireInput::new(GunType::Prussian46Shell, 3);
    g.bench_function("gsp fire one gun", |b| {
        let mut d = DiceSource::seeded(3);
        b.iter(|| {
            let r = gsp::fire(
                black_box(&one),
                tables.get::<kepi::rules::gsp::GspTables>(),
                Some(&mut d),
            );
            d.take_rolls();
            black_box(r.is_ok())
        })
    });
    let mut six = gsp::FireInput::new(GunType::Prussian46Shell, 3);
    six.guns = 6;
    g.bench_function("gsp fire battery of 6", |b| {
        let mut d = DiceSource::seeded(4);
        b.iter(|| {
            let r = gsp::fire(
                black_box(&six),
                tables.get::<kepi::rules::gsp::GspTables>(),
                Some(&mut d),
            );
            d.take_rolls();
            black_box(r.is_ok())
        })
    });
    // The heavy case: a battery of 6 with men, cover and structures described in three sectors
    // (each described sector's odds settle every multiset of pips that can strike it).
    let mut described = six.clone();
    described.sectors.insert(
        gsp::Cell::OnTarget,
        gsp::SectorContents {
            occupants: gsp::Occupants {
                infantry: 6,
                cannoneers: 4,
                horses: 4,
                ..Default::default()
            },
            cover: gsp::Cover::Wall,
            structure: Some(gsp::DamageState {
                kind: gsp::StructureKind::Wall,
                damage_so_far: 2,
            }),
            equipment: Some(gsp::DamageState {
                kind: gsp::StructureKind::LightGun,
                damage_so_far: 0,
            }),
        },
    );
    for (cell, cavalry) in [(gsp::Cell::Over, 4), (gsp::Cell::Short, 3)] {
        described.sectors.insert(
            cell,
            gsp::SectorContents {
                occupants: gsp::Occupants {
                    cavalry,
                    infantry: 2,
                    ..Default::default()
                },
                cover: gsp::Cover::Woods,
                ..Default::default()
            },
        );
    }
    g.bench_function("gsp fire battery of 6, 3 sectors described", |b| {
        let mut d = DiceSource::seeded(4);
        b.iter(|| {
            let r = gsp::fire(
                black_box(&described),
                tables.get::<kepi::rules::gsp::GspTables>(),
                Some(&mut d),
            );
            d.take_rolls();
            black_box(r.is_ok())
        })
    });
    let pm = pw::MeleeInput {
        unit: UnitKind::ALL[0],
        sp: 4,
        enemy: UnitKind::ALL[0],
        attacking_flank: false,
        attacked_flank: false,
        enemy_uphill: false,
        enemy_cover: false,
    };
    g.bench_function("pw melee", |b| {
        let mut d = DiceSource::seeded(5);
        b.iter(|| {
            let r = pw::melee(
                black_box(&pm),
                tables.get::<kepi::rules::pw::PwTables>(),
                Some(&mut d),
            );
            d.take_rolls();
            black_box(r.is_ok())
        })
    });
    let si = SpiCombatInput {
        attackers: vec![SpiUnit::plain(26)],
        defenders: vec![SpiUnit::plain(9)],
        fortress: None,
        flank: false,
        hasty: false,
        dummies_only: false,
        defender_rough: false,
        all_through_ridge: false,
        all_through_river: false,
    };
    g.bench_function("spi combat", |b| {
        let mut d = DiceSource::seeded(6);
        b.iter(|| {
            let r = spi::combat(
                black_box(&si),
                tables.get::<kepi::rules::spi::SpiTables>(),
                Some(&mut d),
            );
            d.take_rolls();
            black_box(r.is_ok())
        })
    });
    let fr = FrCombatInput::plain(3, 3);
    g.bench_function("fr1870 combat", |b| {
        let mut d = DiceSource::seeded(7);
        b.iter(|| {
            let r = fr1870::combat(
                black_box(&fr),
                tables.get::<kepi::rules::fr1870::Fr1870Tables>(),
                Some(&mut d),
            );
            d.take_rolls();
            black_box(r.is_ok())
        })
    });
    g.finish();
}

fn monte_carlo(c: &mut Criterion) {
    let Ok(tables) = kepi::registry::builtin_tables() else {
        return;
    };
    let fi = FireInput {
        figures: 12,
        class: Class::Veteran,
        ..Default::default()
    };
    let Ok(plan) = FirePlan::new(&fi, tables.get::<kepi::rules::pk::PkTables>()) else {
        return;
    };
    const N: u64 = 10_000;
    let mut g = c.benchmark_group("monte-carlo");
    g.throughput(Throughput::Elements(N));
    g.bench_function("pk fire fast path x10k", |b| {
        let mut d = DiceSource::seeded(11);
        b.iter(|| {
            let mut cas = 0u64;
            for _ in 0..N {
                if let Ok((c, _)) = plan.roll(&mut d) {
                    cas += u64::from(c);
                }
            }
            black_box(cas)
        })
    });
    g.bench_function("pk fire full resolution x10k", |b| {
        let mut d = DiceSource::seeded(12);
        b.iter(|| {
            let mut n = 0u64;
            for _ in 0..N {
                if let Ok(r) =
                    pk::fire::fire(&fi, tables.get::<kepi::rules::pk::PkTables>(), Some(&mut d))
                {
                    n += u64::from(r.outcome.map_or(0, |o| o.casualties));
                }
                d.take_rolls();
            }
            black_box(n)
        })
    });
    g.bench_function("raw d10 quiet x10k", |b| {
        let mut d = DiceSource::seeded(13);
        b.iter(|| {
            let mut s = 0u64;
            for _ in 0..N {
                s += u64::from(d.roll_quiet(Die::D10).unwrap_or(0));
            }
            black_box(s)
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = config();
    targets = resolutions, monte_carlo
}
criterion_main!(benches);
