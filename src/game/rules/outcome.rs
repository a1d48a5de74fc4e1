//! A logged resolution's outcome, typed.
//!
//! The log keeps each resolution's outcome in its JSON form (saves and hashes stay as they always
//! were). Code that acts on an outcome (the due checks a result sets off, a set's panels) reads it
//! here, once, into the rule set's own outcome type, and reads that type back: no outcome is read
//! by a JSON path, and each rule set says which of its actions yields which type
//! ([`crate::engine::rule_set::RuleSet::outcome`]). The types themselves live in the sets' folders
//! (`src/game/rules/<set>/`); this holder names none of them.

use std::any::Any;
use std::fmt;

use serde::de::DeserializeOwned;
use serde_json::Value;

/// An outcome kepi acts on after it is applied: its rule set's own type, read back with
/// [`Outcome::get`].
pub struct Outcome(Box<dyn Typed>);

/// What an outcome type is to the holder: any, and printable for debugging.
trait Typed: Any + fmt::Debug + Send + Sync {
    fn as_any(&self) -> &dyn Any;
}

impl<T: Any + fmt::Debug + Send + Sync> Typed for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl Outcome {
    /// The outcome `o`, typed by its rule set.
    pub fn new<T: Any + fmt::Debug + Send + Sync>(o: T) -> Outcome {
        Outcome(Box::new(o))
    }

    /// The outcome as `T`, when it is one.
    pub fn get<T: Any>(&self) -> Option<&T> {
        // Through the box to the outcome (the box itself is `Typed` too).
        let typed: &dyn Typed = &*self.0;
        typed.as_any().downcast_ref()
    }
}

impl fmt::Debug for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let typed: &dyn Typed = &*self.0;
        f.debug_tuple("Outcome").field(&typed).finish()
    }
}

/// A logged outcome read as the rule set's own type (None when it does not read as it).
pub fn typed<T: DeserializeOwned>(v: &Value) -> Option<T> {
    T::deserialize(v).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq)]
    struct Hits(u32);

    #[test]
    fn an_outcome_reads_back_as_its_own_type_only() {
        let o = Outcome::new(Hits(3));
        assert_eq!(o.get::<Hits>(), Some(&Hits(3)));
        assert_eq!(o.get::<u32>(), None);
        assert_eq!(format!("{o:?}"), "Outcome(Hits(3))");
    }
}
