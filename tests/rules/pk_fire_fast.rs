//! The P&K fire fast path (issue 10) gives exactly what the full resolution gives from the same seed.

use kepi::dice::{DiceSource, Die};
use kepi::rules::pk::{Class, fire::FireInput, fire::FirePlan, fire::fire};

#[test]
fn fast_path_agrees_with_the_resolution() {
    let t = kepi::tables::builtin::<kepi::rules::pk::PkTables>();
    for (figures, class, target_disordered) in [
        (12, Class::Veteran, false),
        (20, Class::Line, true),
        (3, Class::Elite, false),
    ] {
        let input = FireInput {
            figures,
            class,
            target_disordered,
            ..Default::default()
        };
        let plan = FirePlan::new(&input, t).unwrap();
        let mut full = DiceSource::seeded(42);
        let mut fast = DiceSource::seeded(42);
        for _ in 0..2000 {
            let r = fire(&input, t, Some(&mut full)).unwrap();
            full.take_rolls();
            let o = r.outcome.unwrap();
            let got = plan.roll(&mut fast).unwrap();
            assert_eq!(got, (o.casualties, o.leader_lost));
            assert_eq!(plan.outcome(o.d10, o.dpct.unwrap_or(1)), got);
            assert_eq!(fast.draws(), full.draws(), "same dice consumed");
        }
    }
}

#[test]
fn quiet_rolls_are_the_same_stream() {
    let mut a = DiceSource::seeded(7);
    let mut b = DiceSource::seeded(7);
    for die in [Die::D10, Die::Pct, Die::D6, Die::Pct] {
        for _ in 0..500 {
            assert_eq!(a.roll(die, "x").unwrap(), b.roll_quiet(die).unwrap());
        }
    }
    assert!(b.rolls().is_empty());
}
