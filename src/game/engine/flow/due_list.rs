//! The open due checks, kept as a persistent list so undo snapshots share them.
//!
//! Every action keeps the state before it for undo, so a state is cloned once per action and its
//! due list with it. A plain shared vector made that clone free but copied the whole list whenever
//! an action queued or answered a check: with a thousand checks left open (an umpire who never
//! waives them), every such action copied a thousand pointers. Here the list is chunks of at most
//! [`CHUNK`] checks, each chunk shared between snapshots: queueing a check copies only the chunk
//! list and the last chunk, answering one copies only the chunks it leaves.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::Due;

/// Checks per chunk.
const CHUNK: usize = 64;

/// The open due checks in the order they were queued (see the module doc). Saved as a plain JSON
/// array of checks, exactly as the vector it replaces.
#[derive(Clone, Default)]
pub struct DueList {
    chunks: Arc<Vec<Arc<Vec<Arc<Due>>>>>,
    len: usize,
}

impl DueList {
    /// Open checks.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when nothing is due.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The checks, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &Arc<Due>> + '_ {
        self.chunks.iter().flat_map(|c| c.iter())
    }

    /// Queues a check at the end.
    pub fn push(&mut self, due: Due) {
        let chunks = Arc::make_mut(&mut self.chunks);
        match chunks.last_mut() {
            Some(last) if last.len() < CHUNK => Arc::make_mut(last).push(Arc::new(due)),
            _ => {
                let mut chunk = Vec::with_capacity(CHUNK);
                chunk.push(Arc::new(due));
                chunks.push(Arc::new(chunk));
            }
        }
        self.len += 1;
    }

    /// Keeps the checks `keep` says yes to (a pure test: it may be asked twice about a check).
    /// Chunks that lose nothing stay shared with earlier snapshots.
    pub fn retain(&mut self, mut keep: impl FnMut(&Due) -> bool) {
        if self.iter().all(|d| keep(d)) {
            return;
        }
        let chunks = Arc::make_mut(&mut self.chunks);
        for chunk in chunks.iter_mut() {
            if !chunk.iter().all(|d| keep(d)) {
                Arc::make_mut(chunk).retain(|d| keep(d));
            }
        }
        chunks.retain(|c| !c.is_empty());
        self.len = chunks.iter().map(|c| c.len()).sum();
    }
}

impl Extend<Due> for DueList {
    fn extend<I: IntoIterator<Item = Due>>(&mut self, iter: I) {
        for d in iter {
            self.push(d);
        }
    }
}

impl FromIterator<Due> for DueList {
    fn from_iter<I: IntoIterator<Item = Due>>(iter: I) -> Self {
        let mut list = DueList::default();
        list.extend(iter);
        list
    }
}

impl PartialEq for DueList {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

impl Eq for DueList {}

impl fmt::Debug for DueList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for DueList {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for DueList {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Vec::<Due>::deserialize(deserializer)?.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RuleId;

    fn due(id: u64) -> Due {
        Due {
            id,
            rule: RuleId::new("PK-X5"),
            unit: Some(format!("u{}", id % 7)),
            side: None,
            what: "fatigue check".into(),
            form: Some("fatigue".into()),
            at: None,
            by_move: false,
            turn: 1,
            phase: "melee".into(),
        }
    }

    #[test]
    fn behaves_like_a_vector_and_shares_untouched_chunks() {
        let mut list: DueList = (0..200).map(due).collect();
        let mut plain: Vec<Due> = (0..200).map(due).collect();
        assert_eq!(list.len(), 200);
        let snapshot = list.clone();
        list.retain(|d| d.id % 3 != 0);
        plain.retain(|d| d.id % 3 != 0);
        assert_eq!(list.len(), plain.len());
        assert!(list.iter().map(|d| &**d).eq(plain.iter()));
        assert_eq!(snapshot.len(), 200, "the snapshot keeps what it had");
        // Removing from the last chunk only leaves the first three shared.
        let mut tail = snapshot.clone();
        tail.retain(|d| d.id != 199);
        assert!(Arc::ptr_eq(&tail.chunks[0], &snapshot.chunks[0]));
        assert!(!Arc::ptr_eq(&tail.chunks[3], &snapshot.chunks[3]));
        // Pushing after removals, and removing everything.
        list.push(due(500));
        assert_eq!(list.iter().last().map(|d| d.id), Some(500));
        list.retain(|_| false);
        assert!(list.is_empty() && list.iter().next().is_none());
    }

    #[test]
    fn saves_as_a_plain_array() {
        let list: DueList = (0..3).map(due).collect();
        let plain: Vec<Due> = (0..3).map(due).collect();
        let json = serde_json::to_string(&list).unwrap();
        assert_eq!(json, serde_json::to_string(&plain).unwrap());
        let back: DueList = serde_json::from_str(&json).unwrap();
        assert_eq!(back, list);
    }
}
