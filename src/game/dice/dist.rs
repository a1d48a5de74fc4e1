//! Exact probability distributions over outcomes (DICE-3).
//!
//! A [`Dist`] is a finite map from an outcome to its exact [`Prob`]. Rule sets build the odds of a
//! resolution by mapping a die's distribution through the same pure function that resolves an actual
//! roll, so the preview a player sees and the result of the roll can never disagree.

use std::collections::BTreeMap;

use super::{Die, Prob};

/// A finite distribution with exact probabilities that sum to 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dist<T: Ord> {
    outcomes: BTreeMap<T, Prob>,
}

impl<T: Ord + Clone> Dist<T> {
    /// A certain outcome.
    pub fn certain(t: T) -> Self {
        let mut outcomes = BTreeMap::new();
        outcomes.insert(t, Prob::ONE);
        Dist { outcomes }
    }

    /// Builds from weighted outcomes; equal outcomes merge, weights are normalised exactly.
    ///
    /// Equal outcomes' weights are added as whole numbers and each outcome's fraction is reduced
    /// once (adding reduced fractions one by one cost a gcd per item).
    pub fn from_weights(items: impl IntoIterator<Item = (T, u64)>) -> Self {
        let mut weights: BTreeMap<T, u128> = BTreeMap::new();
        let mut total: u128 = 0;
        for (t, w) in items {
            // Checked, though a sum of `u64`s needs 2^64 items to leave 128 bits.
            total = total
                .checked_add(u128::from(w))
                .unwrap_or_else(|| too_many_items());
            if w > 0 {
                // At most `total`, so it cannot overflow either.
                *weights.entry(t).or_insert(0) += u128::from(w);
            }
        }
        let den = i128::try_from(total.max(1)).unwrap_or_else(|_| too_many_items());
        let outcomes = weights
            .into_iter()
            .map(|(t, w)| {
                // `w <= total <= i128::MAX`.
                let num = i128::try_from(w).unwrap_or_else(|_| too_many_items());
                (t, Prob::new(num, den))
            })
            .collect();
        Dist { outcomes }
    }

    /// Builds from outcomes with their probabilities (equal outcomes merge).
    pub fn from_probs(items: impl IntoIterator<Item = (T, Prob)>) -> Self {
        let mut outcomes: BTreeMap<T, Prob> = BTreeMap::new();
        for (t, p) in items {
            if p == Prob::ZERO {
                continue;
            }
            let e = outcomes.entry(t).or_default();
            *e = *e + p;
        }
        Dist { outcomes }
    }

    /// Applies `f` to every outcome (outcomes that map to the same value merge).
    pub fn map<U: Ord + Clone>(&self, mut f: impl FnMut(&T) -> U) -> Dist<U> {
        Dist::from_probs(self.outcomes.iter().map(|(t, p)| (f(t), *p)))
    }

    /// Chains a second random step that depends on the first (monadic bind).
    pub fn and_then<U: Ord + Clone>(&self, mut f: impl FnMut(&T) -> Dist<U>) -> Dist<U> {
        let mut items = Vec::new();
        for (t, p) in &self.outcomes {
            for (u, q) in f(t).outcomes {
                items.push((u, *p * q));
            }
        }
        Dist::from_probs(items)
    }

    /// Two independent steps combined.
    pub fn zip<U: Ord + Clone, V: Ord + Clone>(
        &self,
        other: &Dist<U>,
        mut f: impl FnMut(&T, &U) -> V,
    ) -> Dist<V> {
        self.and_then(|t| other.map(|u| f(t, u)))
    }

    /// The outcomes with their probabilities, in the outcome's order.
    pub fn iter(&self) -> impl Iterator<Item = (&T, Prob)> {
        self.outcomes.iter().map(|(t, p)| (t, *p))
    }

    /// The probability of one outcome (zero when absent).
    pub fn p(&self, t: &T) -> Prob {
        self.outcomes.get(t).copied().unwrap_or(Prob::ZERO)
    }

    /// The probability that `pred` holds.
    pub fn p_where(&self, mut pred: impl FnMut(&T) -> bool) -> Prob {
        self.outcomes
            .iter()
            .filter(|(t, _)| pred(t))
            .map(|(_, p)| *p)
            .sum()
    }

    /// The sum of all probabilities: exactly 1 for every distribution kepi builds.
    pub fn total(&self) -> Prob {
        self.outcomes.values().copied().sum()
    }

    /// Number of distinct outcomes.
    pub fn len(&self) -> usize {
        self.outcomes.len()
    }

    /// True when there is no outcome at all.
    pub fn is_empty(&self) -> bool {
        self.outcomes.is_empty()
    }
}

impl Dist<u32> {
    /// The uniform distribution of one die's faces.
    pub fn die(die: Die) -> Self {
        let (lo, hi) = die.range();
        Dist::from_weights((lo..=hi).map(|v| (v, 1)))
    }
}

/// Weights whose sum leaves 127 bits need more than 2^63 items: no machine holds them.
#[cold]
#[allow(
    clippy::panic,
    reason = "an invariant no input reaches: 2^63 items cannot be held in memory"
)]
fn too_many_items() -> ! {
    panic!("Dist::from_weights: the total weight exceeds 127 bits (more than 2^63 items)")
}
