//! Unit tests: the built-in table loads, the worked example, rule ids are known.

use super::*;
use crate::dice::{DiceSource, Die, Ratio};
use crate::tables::RuleTable;

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
