//! Unit tests: the built-in table loads, the worked example, rule ids are known.

use super::*;
use kepi_game::dice::{DiceSource, Die, Ratio};
use kepi_game::tables::RuleTable;

fn t() -> PkTables {
    PkTables::from_source("pk.toml", PkTables::BUILTIN).unwrap()
}

#[test]
fn builtin_table_validates() {
    let t = t();
    assert_eq!(t.class.veteran.modifier.v(), 1);
    assert_eq!(t.dv.formed.v(), 10);
}

#[test]
fn out_of_range_value_is_located() {
    let src =
        PkTables::BUILTIN.replace("leader_min = { value = 86,", "leader_min = { value = 500,");
    let e = PkTables::from_source("pk.toml", &src).unwrap_err();
    assert_eq!(e.field, "rules.leader_min");
    assert!(e.line > 1);
}

/// PK-X3 worked example: veteran, 10 figures, flank: (10 + 1 + 5 + 5) x 4 = 84 vs DV 10: 8.
/// The text says "a d10 roll of 6" but adds 5; kepi reproduces the arithmetic with d10 = 5.
#[test]
fn worked_example() {
    let t = t();
    let input = melee::MeleeInput {
        figures: 10,
        class: Class::Veteran,
        facing: Facing::Flank,
        ..Default::default()
    };
    let mut d = DiceSource::entered_only();
    d.enter(Die::D10, 5).unwrap();
    d.enter(Die::Pct, 50).unwrap();
    let r = melee::melee(&input, &t, Some(&mut d)).unwrap();
    let o = r.outcome.unwrap();
    assert_eq!(o.lf, Ratio::int(84));
    assert_eq!(o.casualties, 8);
    assert!(r.modifiers.iter().all(|m| m.rule.is_known()));
}

/// The rules refuse numbers outside their range ([`kepi_game::rules::limits`]) whoever calls them (the
/// window, a script): nothing reaching them can wrap or panic.
#[test]
fn rules_refuse_extremes_without_wrapping() {
    let t = &kepi_game::tables::Tables::default();
    for v in [i64::MAX, i64::MIN, 101, -101] {
        let a = fire::FiringFirstSide {
            situation: v,
            ..Default::default()
        };
        let b = fire::FiringFirstSide::default();
        let mut d = DiceSource::seeded(1);
        assert!(fire::firing_first(&a, &b, t.get::<crate::pk::PkTables>(), Some(&mut d)).is_err());
        assert!(fire::firing_first(&b, &a, t.get::<crate::pk::PkTables>(), None).is_err());
        let army = morale::ArmyInput {
            start_figures: 100,
            figures: 10,
            broken_units: 3,
            modifier: v,
        };
        assert!(morale::army_morale(&army, t.get::<crate::pk::PkTables>(), Some(&mut d)).is_err());
        let fatigue = melee::fatigue_check(
            v,
            kepi_game::tables::Provenance::Seed,
            t.get::<crate::pk::PkTables>(),
            None,
        );
        assert_eq!(fatigue.is_err(), !(0..=1_000).contains(&v), "{v}");
    }
}
