//! The shared odds-ratio engine: rounding, calendar, odds sum to 1 (SPI-C1, FR-C1, SPI-T1, FR-T1).

use kepi::dice::{Prob, Ratio};
use kepi::rules::crt::{self, Odds};
use proptest::prelude::*;

#[test]
fn spi_c1_26_to_9_is_2_to_1() {
    assert_eq!(
        crt::odds(Ratio::int(26), Ratio::int(9)).unwrap(),
        Odds::to_one(2)
    );
}

#[test]
fn ratios_below_one_round_for_the_defender() {
    let cases = [
        (9, 26, "1:3"),
        (1, 2, "1:2"),
        (2, 3, "1:2"),
        (3, 3, "1:1"),
        (7, 2, "3:1"),
        (2, 7, "1:4"),
    ];
    for (a, d, want) in cases {
        assert_eq!(
            crt::odds(Ratio::int(a), Ratio::int(d)).unwrap().to_string(),
            want,
            "{a}:{d}"
        );
    }
}

#[test]
fn calendar_printed_dates() {
    // FR-T1: cell 7 = 19 Aug, 12 = 3 Sep, 32 = 2 Nov, 51 = 29 Dec, 61 ends 30 Jan 1871.
    for (cell, start) in [
        (1, "1870-08-01"),
        (7, "1870-08-19"),
        (12, "1870-09-03"),
        (32, "1870-11-02"),
        (51, "1870-12-29"),
    ] {
        assert_eq!(
            crt::turn_dates(cell, 3).unwrap().0.to_string(),
            start,
            "cell {cell}"
        );
    }
    assert_eq!(crt::turn_dates(61, 3).unwrap().1.to_string(), "1871-01-30");
    // SPI-T1: turn 11 ends 2 Sep 1870.
    assert_eq!(crt::turn_dates(11, 3).unwrap().1.to_string(), "1870-09-02");
}

proptest! {
    #[test]
    fn odds_are_monotone_and_die_sums_to_one(a in 1i64..200, d in 1i64..200, m in -5i32..5) {
        let o = crt::odds(Ratio::int(a), Ratio::int(d)).unwrap();
        let o2 = crt::odds(Ratio::int(a + 1), Ratio::int(d)).unwrap();
        prop_assert!(o <= o2);
        prop_assert_eq!(crt::modified_d6(m).total(), Prob::ONE);
    }
}
