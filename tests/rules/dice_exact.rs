//! Exact odds of big NdM expressions (issue 18) checked against computations that share no code
//! with kepi's: Pascal's triangle and a plain face-by-face dynamic programme, both in big integers.

use kepi::dice::{DiceError, DiceExpr, Dist, Prob, Ratio, SumOdds};
use num_bigint::BigUint;

/// Row `n` of Pascal's triangle, by additions only.
fn pascal_row(n: usize) -> Vec<BigUint> {
    let mut row = vec![BigUint::from(1u8)];
    for _ in 0..n {
        let mut next = vec![BigUint::from(1u8)];
        for w in row.windows(2) {
            next.push(&w[0] + &w[1]);
        }
        next.push(BigUint::from(1u8));
        row = next;
    }
    row
}

/// Ways to roll each sum `count..=count*sides`, adding every face to every earlier sum.
fn plain_dp(count: u32, sides: u32) -> Vec<BigUint> {
    let mut ways = vec![BigUint::from(1u8)];
    for _ in 0..count {
        ways = plain_dp_step(&ways, sides);
    }
    ways
}

fn plain_dp_step(ways: &[BigUint], sides: u32) -> Vec<BigUint> {
    let sides = sides as usize;
    let mut next = vec![BigUint::ZERO; ways.len() + sides - 1];
    for (s, w) in ways.iter().enumerate() {
        for face in 0..sides {
            next[s + face] += w;
        }
    }
    next
}

/// Euclid's gcd by remainders (kepi reduces with a different routine).
fn euclid(mut a: BigUint, mut b: BigUint) -> BigUint {
    while b != BigUint::ZERO {
        let r = &a % &b;
        a = b;
        b = r;
    }
    a
}

/// The error of a call that must fail (`expect_err` would print a huge `Ok` value).
fn refused<T>(r: Result<T, DiceError>, what: &str) -> DiceError {
    match r {
        Ok(_) => panic!("{what}"),
        Err(e) => e,
    }
}

fn expr(count: u32, sides: u32) -> DiceExpr {
    DiceExpr {
        count,
        sides,
        modifier: 0,
    }
}

/// Checks every line of `odds` against `ways` (lowest total first): the fraction equals
/// ways/sides^count, is fully reduced, and the fractions sum to exactly 1.
fn check_against(odds: &SumOdds, ways: &[BigUint], count: u32, sides: u32) {
    let total = BigUint::from(sides).pow(count);
    assert_eq!(odds.total(), &total, "{count}d{sides} total");
    assert_eq!(odds.len(), ways.len(), "{count}d{sides} outcomes");
    let mut sum_over_total = BigUint::ZERO;
    for ((value, p), w) in odds.iter().zip(ways) {
        let (num, den) = (p.numer().clone(), p.denom().clone());
        assert_eq!(&num * &total, w * &den, "{count}d{sides} value {value}");
        assert_eq!(
            euclid(num.clone(), den.clone()),
            BigUint::from(1u8),
            "{count}d{sides} value {value}: {p} is not reduced"
        );
        assert!(&total % &den == BigUint::ZERO);
        sum_over_total += num * (&total / &den);
    }
    assert_eq!(sum_over_total, total, "{count}d{sides} sums to exactly 1");
}

#[test]
fn hundred_d2_middle_is_the_central_binomial() {
    let odds = expr(100, 2).odds().expect("100d2");
    let row = pascal_row(100);
    check_against(&odds, &row, 100, 2);
    let (value, p) = odds.iter().find(|(v, _)| *v == 150).expect("150");
    assert_eq!(value, 150);
    // C(100,50) / 2^100: 100891344545564193334812497256 / 2^100, reduced by 2^3.
    assert_eq!(
        p.to_string(),
        "12611418068195524166851562157/158456325028528675187087900672"
    );
    assert_eq!(p.percent(), "8.0%");
    assert!(
        (p.to_f64() - 0.079_589_237_4).abs() < 1e-9,
        "{}",
        p.to_f64()
    );
    // 2^100 does not fit 64 bits but fits 128: the Prob path agrees exactly.
    let dist = Dist::sum_of(100, 2, 0).expect("2^100 fits in 128 bits");
    assert_eq!(Some(dist.p(&150)), p.to_prob());
    assert_eq!(dist.total(), Prob::ONE);
}

#[test]
fn thirty_d6_matches_the_plain_programme() {
    let odds = expr(30, 6).odds().expect("30d6");
    check_against(&odds, &plain_dp(30, 6), 30, 6);
    // 6^30 needs 78 bits: the 128-bit distribution is exact too, and sums to exactly 1.
    let dist = Dist::sum_of(30, 6, 0).expect("30d6");
    assert_eq!(dist.total(), Prob::ONE);
    for (value, p) in odds.iter() {
        assert_eq!(Some(dist.p(&value)), p.to_prob(), "30d6 value {value}");
    }
    // The middle total, 105: 4 071 775 652 415 115 625 144 ways in 6^30.
    let middle = odds
        .counts()
        .find(|(v, _)| *v == 105)
        .expect("105")
        .1
        .clone();
    assert_eq!(middle, plain_dp(30, 6)[75]);
}

#[test]
fn hundred_d6_is_exact_beyond_128_bits() {
    let odds = expr(100, 6).odds().expect("100d6");
    check_against(&odds, &plain_dp(100, 6), 100, 6);
    // No 128-bit distribution exists for it: refused, never wrapped.
    assert!(Dist::sum_of(100, 6, 0).is_err());
}

#[test]
fn every_size_up_to_sixty_dice_matches_the_plain_programme() {
    for sides in [2u32, 3, 6, 10, 20, 100] {
        let mut ways = vec![BigUint::from(1u8)];
        for count in 1..=60u32 {
            ways = plain_dp_step(&ways, sides);
            let odds = expr(count, sides).odds().expect("within limits");
            check_against(&odds, &ways, count, sides);
            // Wherever the 128-bit distribution exists it agrees line by line.
            if let Ok(dist) = Dist::sum_of(count, sides, 0) {
                assert_eq!(dist.total(), Prob::ONE, "{count}d{sides}");
                for (value, p) in odds.iter() {
                    assert_eq!(
                        Some(dist.p(&value)),
                        p.to_prob(),
                        "{count}d{sides} value {value}"
                    );
                }
            }
        }
    }
}

#[test]
fn modifiers_shift_the_totals() {
    let e: DiceExpr = "3d6-2".parse().expect("3d6-2");
    let odds = e.odds().expect("3d6-2");
    let (lo, _) = odds.iter().next().expect("a total");
    assert_eq!(lo, 1);
    let (hi, _) = odds.iter().last().expect("a total");
    assert_eq!(hi, 16);
}

#[test]
fn oversized_expressions_are_refused_quickly_naming_the_limit() {
    let start = std::time::Instant::now();
    let err = "1000000d6".parse::<DiceExpr>().expect_err("too many dice");
    assert!(err.to_string().contains("1000000d6"), "{err}");
    assert!(err.to_string().contains("100 dice"), "{err}");
    let err = "2d5000".parse::<DiceExpr>().expect_err("too many faces");
    assert!(err.to_string().contains("1000 faces"), "{err}");
    let huge = DiceExpr {
        count: 1_000_000,
        sides: 6,
        modifier: 0,
    };
    let err = refused(huge.odds(), "too many totals").to_string();
    assert!(err.contains("1000000d6") && err.contains("250000"), "{err}");
    assert!(huge.dist().is_err());
    assert!(
        start.elapsed().as_secs() < 2,
        "refusal took {:?}",
        start.elapsed()
    );
}

#[test]
fn fraction_arithmetic_never_wraps() {
    let tiny = Ratio::new(1, 6i128.pow(40));
    // 1/6^40 + 1/6^40: the naive cross product (6^80) overflows, the exact sum does not.
    assert_eq!(tiny + tiny, Ratio::new(2, 6i128.pow(40)));
    assert_eq!(tiny - tiny, Ratio::ZERO);
    assert!(tiny < Ratio::new(1, 6i128.pow(39)));
    assert!(Ratio::new(6i128.pow(39) - 1, 6i128.pow(40)) < Ratio::new(1, 6));
    // The exact product 1/6^80 needs more than 128 bits: refused, not wrapped.
    assert_eq!(tiny.checked_mul(tiny), None);
    assert_eq!(
        tiny.checked_mul(Ratio::new(6, 1)),
        Some(Ratio::new(1, 6i128.pow(39)))
    );
    // A sum whose numerator overflows before the final reduction: (2^126+1)/2^100 twice.
    let odd = Ratio::new((1i128 << 126) + 1, 1i128 << 100);
    assert_eq!(
        odd.checked_add(odd),
        Some(Ratio::new((1i128 << 126) + 1, 1i128 << 99))
    );
    assert_eq!(Ratio::new(i128::MAX, 1).checked_add(Ratio::ONE), None);
    assert!(
        "170141183460469231731687303715884105728"
            .parse::<Ratio>()
            .is_err()
    );
    assert!(
        "-170141183460469231731687303715884105727/-1"
            .parse::<Ratio>()
            .is_ok()
    );
    assert_eq!(tiny.percent(), "0.0%");
}

#[test]
#[should_panic(expected = "exact fraction overflow")]
fn an_unrepresentable_product_panics_instead_of_wrapping() {
    let tiny = Ratio::new(1, 6i128.pow(40));
    let _ = tiny * tiny;
}
