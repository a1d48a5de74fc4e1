//! The game log: every action, undo, redo and roll, hash-chained so any edit shows.
//!
//! Each entry's `hash` is SHA-256 over the previous entry's hash and the entry's canonical JSON (the
//! entry without its `hash`, keys sorted). Changing, inserting or deleting an entry breaks the chain
//! at that entry; [`verify_chain`] names the first broken one. The first entry commits to the seed
//! of kepi's dice ([`commitment`]); the seed is revealed at the end so players can check it.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{Action, GameState};
use crate::dice::Roll;

/// The `prev` of the first entry: 64 zeros.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// What an entry records.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum EntryKind {
    /// The game starts: the scenario's initial state and the seed's commitment.
    Start {
        /// The state at the start (its `dice.commitment` is the commitment).
        initial: Box<GameState>,
    },
    /// An action was applied.
    Act {
        /// The action.
        action: Action,
    },
    /// The last applied action was undone.
    Undo,
    /// The last undone action was applied again.
    Redo,
    /// The seed was revealed.
    Reveal {
        /// The seed.
        seed: u64,
        /// The salt of the commitment.
        salt: String,
    },
}

/// One log entry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "WireEntry")]
pub struct LogEntry {
    /// Position in the log, from 0.
    pub index: u64,
    /// When (UTC).
    pub time: DateTime<Utc>,
    /// Game-turn when it happened.
    pub turn: u32,
    /// Phase when it happened.
    pub phase: String,
    /// What happened.
    #[serde(flatten)]
    pub kind: EntryKind,
    /// One line for people.
    pub summary: String,
    /// Rule ids involved.
    #[serde(default)]
    pub rules: Vec<String>,
    /// Dice rolled.
    #[serde(default)]
    pub dice: Vec<Roll>,
    /// Hash of the previous entry ([`GENESIS`] for the first).
    pub prev: String,
    /// SHA-256 over `prev` and this entry's canonical JSON without `hash`.
    pub hash: String,
    /// The revision of what kepi writes in an entry ([`LOG_REVISION`]); 0, and left out of the
    /// JSON, for an entry an earlier kepi wrote, so its hash reads back unchanged. `kepi log
    /// verify` excuses an entry that lacks a note kepi only writes since a revision (issue 42's
    /// breaches) only where the entry is older than that revision, and a log's revisions never go
    /// down, so a note cut from a new entry is caught.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rev: u32,
}

/// What kepi writes in a log entry now: 1 since issue 42 (every breach its audit found is noted
/// with the action); 2 since a 1870 fortress taken by assault passes to the besieger and its
/// siege is lifted as effects of the combat (FR-F1, H12); 3 since a move logs what it does to the
/// board ([`MOVE_EFFECTS_REVISION`]) and SPI notes an entrained move along no rail line (SPI-L1);
/// 4 since SPI judges a unit's allowance on its supply at the start of the Movement Phase
/// (SPI-S1, [`crate::engine::rule_set::RuleSet::judged_anew_since`]); 5 since an SPI EB unit's
/// move secures the enemy's rail line it passes along (SPI-E2) and a 1870 unit's marks its
/// passage over the enemy's rail cells (FR-G1 G3), a move's effects; 6 since an SPI move off the
/// map pushes no enemy EB unit back (SPI-E1 Case C: only one entering its hex does; the checks
/// an entry sets off are queued as of its revision, [`super::apply_as_of`]). An entry written
/// before has revision 0.
/// The effects a rule set records only since a revision are excused in older entries
/// ([`crate::engine::rule_set::RuleSet::effect_revision`]).
pub const LOG_REVISION: u32 = 6;

/// The log revision since which a move logs the markers it puts on or takes off by its rule
/// set's text ([`super::Action::Move`]'s `effects`: SPI-E2's rail cut). `kepi log verify` takes
/// an older move without them.
pub const MOVE_EFFECTS_REVISION: u32 = 3;

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl LogEntry {
    /// The summary as printed at a game's scale (issue 28): the distances of the rules' text in
    /// the scale's unit and factor. The umpire's own words (a note) and a scale's own line are
    /// printed as written. The log itself keeps the text's inches.
    pub fn summary_at(&self, scale: &crate::rules::Scale) -> String {
        match &self.kind {
            EntryKind::Act {
                action: super::Action::Note { .. } | super::Action::Scale { .. },
            } => self.summary.clone(),
            _ => scale.localize(&self.summary),
        }
    }
}

/// A log entry as read: the same JSON as [`LogEntry`] (whose `kind` is flattened into it), with
/// the kind's own fields as plain optional members. Reading a flattened enum made serde buffer every
/// entry's members in a map of its own first; this reads each member once, into its type.
/// A member kepi does not know is refused: the hash covers only the members kepi reads, so a
/// dropped one would pass unseen.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WireEntry {
    index: u64,
    time: DateTime<Utc>,
    turn: u32,
    phase: String,
    kind: WireKind,
    #[serde(default)]
    initial: Option<Box<GameState>>,
    #[serde(default)]
    action: Option<Action>,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    salt: Option<String>,
    summary: String,
    #[serde(default)]
    rules: Vec<String>,
    #[serde(default)]
    dice: Vec<Roll>,
    prev: String,
    hash: String,
    #[serde(default)]
    rev: u32,
}

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case")]
enum WireKind {
    Start,
    Act,
    Undo,
    Redo,
    Reveal,
}

/// What a log entry says to people, wherever it is shown: the one formatter behind the log
/// panel, the result card, `kepi log show` (text and JSON) and the battle report, so none of them
/// hides what another shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EntryText {
    /// The entry's summary, naming its acting unit.
    pub line: String,
    /// Everything recorded with it for the umpire: a resolution's notes (a breach the umpire
    /// went ahead with, a follow-up), in order.
    pub notes: Vec<String>,
}

impl EntryText {
    /// The line and its notes as one text ("... · note: umpire went ahead: ...").
    pub fn joined(&self) -> String {
        let mut s = self.line.clone();
        s.push_str(&notes_text(&self.notes));
        s
    }
}

/// Notes as they follow a line: " · note: a · note: b" (nothing for none).
pub fn notes_text(notes: &[String]) -> String {
    notes.iter().map(|n| format!(" · note: {n}")).collect()
}

/// What `e` says to people ([`EntryText`]), with units named as `state` names them (any state
/// of the game: units are never removed). The stored summary is kept as logged (the hash and
/// `kepi log verify` read it); a resolution whose summary does not name its acting unit gets the
/// unit's name after the action ("pk fatigue (2/12th Grenadiers): d10 5 vs fatigue 2: holds").
pub fn entry_text(e: &LogEntry, state: &GameState) -> EntryText {
    // Issue 28: the log keeps the text's inches; a line prints at the game's scale.
    let summary = e.summary_at(&state.scale);
    let EntryKind::Act {
        action: Action::Resolved {
            resolution, units, ..
        },
    } = &e.kind
    else {
        // A move (or a count set, issue 42) the umpire made against the rules keeps what they
        // say with it.
        let notes = match &e.kind {
            EntryKind::Act {
                action: Action::Move { notes, .. } | Action::SetCount { notes, .. },
            } => notes.iter().map(|n| state.scale.localize(n)).collect(),
            _ => Vec::new(),
        };
        return EntryText {
            line: summary,
            notes,
        };
    };
    let notes = resolution
        .notes
        .iter()
        .map(|n| state.scale.localize(n))
        .collect();
    let Some(actor) = units.first() else {
        return EntryText {
            line: summary,
            notes,
        };
    };
    let name = state
        .unit(actor)
        .map(|u| u.unit.name.as_str())
        .unwrap_or(actor.as_str());
    let line = if summary.contains(name) {
        summary
    } else {
        let head = format!("{} {}: ", resolution.system, resolution.action);
        match summary.strip_prefix(&head) {
            Some(rest) => format!(
                "{} {} ({name}): {rest}",
                resolution.system, resolution.action
            ),
            None => format!("{name}: {summary}"),
        }
    };
    EntryText { line, notes }
}

/// Every unit an entry is about, by id: a resolution's units (a combat's attackers and defenders)
/// and those its effects change; the unit of any other action. What the log's unit filter matches
/// besides the line, so filtering by a defender finds the combat it fought (issue 46).
pub fn participants(e: &LogEntry) -> Vec<&str> {
    let EntryKind::Act { action } = &e.kind else {
        return Vec::new();
    };
    let mut out: Vec<&str> = Vec::new();
    match action {
        Action::Resolved { units, effects, .. } => {
            for u in units
                .iter()
                .map(String::as_str)
                .chain(effects.iter().filter_map(Action::unit))
            {
                if !out.contains(&u) {
                    out.push(u);
                }
            }
        }
        other => out.extend(other.unit()),
    }
    out
}

impl TryFrom<WireEntry> for LogEntry {
    type Error = String;

    fn try_from(w: WireEntry) -> Result<Self, String> {
        // A newer kepi's entry is refused on reading, not later by `log verify`: carried on here,
        // its game's next entry would be of a lower revision.
        if w.rev > LOG_REVISION {
            return Err(format!(
                "`rev` is {}: written by a newer kepi (this one writes revision {LOG_REVISION})",
                w.rev
            ));
        }
        let missing =
            |field: &str, kind: &str| format!("missing field `{field}` (a `{kind}` entry has one)");
        let kind = match w.kind {
            WireKind::Start => EntryKind::Start {
                initial: w.initial.ok_or_else(|| missing("initial", "start"))?,
            },
            WireKind::Act => EntryKind::Act {
                action: w.action.ok_or_else(|| missing("action", "act"))?,
            },
            WireKind::Undo => EntryKind::Undo,
            WireKind::Redo => EntryKind::Redo,
            WireKind::Reveal => EntryKind::Reveal {
                seed: w.seed.ok_or_else(|| missing("seed", "reveal"))?,
                salt: w.salt.ok_or_else(|| missing("salt", "reveal"))?,
            },
        };
        Ok(LogEntry {
            index: w.index,
            time: w.time,
            turn: w.turn,
            phase: w.phase,
            kind,
            summary: w.summary,
            rules: w.rules,
            dice: w.dice,
            prev: w.prev,
            hash: w.hash,
            rev: w.rev,
        })
    }
}

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 0x0f)]));
    }
    out
}

/// The hash an entry must carry: SHA-256 over `prev` + canonical JSON of the entry without `hash`.
///
/// The canonical JSON is written straight from the entry ([`super::canon`]); should it meet
/// something it leaves to `serde_json::Value`, the whole entry takes that road, which sorts keys
/// the same way. Debug builds (every test) compute both and insist they agree.
pub fn entry_hash(e: &LogEntry) -> String {
    CANON_BUF.with(|buf| {
        let mut buf = buf.borrow_mut();
        buf.clear();
        let bytes: &[u8] = if super::canon::write_canonical(e, Some("hash"), &mut buf).is_ok() {
            debug_assert_eq!(
                String::from_utf8_lossy(&buf),
                String::from_utf8_lossy(&canonical_via_value(e)),
                "canonical JSON of entry {} differs from the Value road",
                e.index
            );
            &buf
        } else {
            let slow = canonical_via_value(e);
            buf.clear();
            buf.extend_from_slice(&slow);
            &buf
        };
        let mut h = Sha256::new();
        h.update(e.prev.as_bytes());
        h.update(b"\n");
        h.update(bytes);
        hex(&h.finalize())
    })
}

thread_local! {
    /// The canonical bytes of the entry being hashed: one growing buffer per thread instead of
    /// one allocation per entry.
    static CANON_BUF: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The canonical JSON the hash has always covered, made through `serde_json::Value`: its Map is a
/// BTreeMap (no preserve_order feature), so keys come out sorted.
fn canonical_via_value(e: &LogEntry) -> Vec<u8> {
    let mut v = serde_json::to_value(e).unwrap_or(serde_json::Value::Null);
    if let Some(m) = v.as_object_mut() {
        m.remove("hash");
    }
    // Writing a Value cannot fail; should it, hash nothing after `prev`, as before.
    serde_json::to_vec(&v).unwrap_or_default()
}

/// Issue 44: the first member of `raw` (an entry as read from a file) that kepi does not write
/// back from `e` (the entry it read from `raw`), named by its path (`initial.units[0].extra`,
/// `action.resolution.modifiers[1].note`). The top level refuses a member it does not know when
/// it is read; a member nested deeper would be dropped by the reader, and the entry's hash,
/// computed over what kepi read, would not cover it. A log kepi wrote reads back exactly as
/// written (its hashes were computed over the same members), so only an edit shows here.
pub fn stray_member(raw: &serde_json::Value, e: &LogEntry) -> Option<String> {
    let known = serde_json::to_value(e).ok()?;
    first_stray(raw, &known, &mut String::new())
}

fn first_stray(
    raw: &serde_json::Value,
    known: &serde_json::Value,
    path: &mut String,
) -> Option<String> {
    use serde_json::Value;
    match (raw, known) {
        (Value::Object(r), Value::Object(k)) => {
            for (key, rv) in r {
                let len = path.len();
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
                let found = match k.get(key) {
                    None => Some(format!(
                        "unknown member `{path}`: kepi writes no such member there, and the \
                         entry's hash does not cover it"
                    )),
                    Some(kv) => first_stray(rv, kv, path),
                };
                if found.is_some() {
                    return found;
                }
                path.truncate(len);
            }
            None
        }
        (Value::Array(r), Value::Array(k)) if r.len() == k.len() => {
            for (j, (rv, kv)) in r.iter().zip(k).enumerate() {
                let len = path.len();
                path.push_str(&format!("[{j}]"));
                let found = first_stray(rv, kv, path);
                if found.is_some() {
                    return found;
                }
                path.truncate(len);
            }
            None
        }
        _ if raw == known => None,
        _ => Some(format!(
            "member `{path}` is {raw} in the file but reads as {known}: not as kepi writes it, \
             and the entry's hash covers only what it reads"
        )),
    }
}

/// The seed and the salt of its commitment; kept out of the log until revealed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedSecret {
    /// Kepi's dice seed.
    pub seed: u64,
    /// Random salt, so the commitment cannot be brute-forced from a guessable seed.
    pub salt: String,
}

impl SeedSecret {
    /// A secret with a salt derived from the clock, the process and the seed.
    pub fn new(seed: u64) -> Self {
        let mut h = Sha256::new();
        h.update(seed.to_le_bytes());
        h.update(
            Utc::now()
                .timestamp_nanos_opt()
                .unwrap_or_default()
                .to_le_bytes(),
        );
        h.update(std::process::id().to_le_bytes());
        let local = 0u8;
        h.update((&local as *const u8 as usize).to_le_bytes());
        SeedSecret {
            seed,
            salt: hex(&h.finalize()).get(..32).unwrap_or_default().to_string(),
        }
    }

    /// The public commitment.
    pub fn commitment(&self) -> String {
        commitment(self.seed, &self.salt)
    }
}

/// SHA-256 of `kepi-seed:<salt>:<seed>`: shown at the start, checked at the reveal.
pub fn commitment(seed: u64, salt: &str) -> String {
    let mut h = Sha256::new();
    h.update(format!("kepi-seed:{salt}:{seed}").as_bytes());
    hex(&h.finalize())
}

/// A chain that holds: how many entries and the head hash.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChainSummary {
    /// Number of entries.
    pub entries: usize,
    /// Hash of the last entry.
    pub head: String,
}

/// The first entry where the chain breaks, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize)]
#[error("entry {index}: {reason}")]
pub struct ChainBreak {
    /// Position in the list (0-based).
    pub index: usize,
    /// What is wrong.
    pub reason: String,
}

/// The hashes of `entries`, in order. A long log is hashed on every core (the hashes do not
/// depend on each other; the chain is checked afterwards, in order): loading a 10,000-entry save
/// spends most of its time here.
fn hashes(entries: &[LogEntry]) -> Vec<String> {
    const PARALLEL_FROM: usize = 512;
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(8);
    if entries.len() < PARALLEL_FROM || threads < 2 {
        return entries.iter().map(entry_hash).collect();
    }
    let chunk = entries.len().div_ceil(threads);
    let parts: Vec<Vec<String>> = std::thread::scope(|scope| {
        let workers: Vec<_> = entries
            .chunks(chunk)
            .map(|c| scope.spawn(move || c.iter().map(entry_hash).collect::<Vec<_>>()))
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_default())
            .collect()
    });
    let all: Vec<String> = parts.into_iter().flatten().collect();
    if all.len() == entries.len() {
        all
    } else {
        entries.iter().map(entry_hash).collect()
    }
}

/// Checks indices, links and hashes of a list of entries starting at `start` with `prev` before it.
pub fn verify_chain_from(
    entries: &[LogEntry],
    start: u64,
    prev: &str,
) -> Result<ChainSummary, ChainBreak> {
    let mut prev = prev.to_string();
    let computed = hashes(entries);
    for ((i, e), hash) in entries.iter().enumerate().zip(&computed) {
        let at = start + i as u64;
        let pos = at as usize;
        if e.index != at {
            return Err(ChainBreak {
                index: pos,
                reason: format!(
                    "index is {} where {at} was expected (an entry was inserted or deleted)",
                    e.index
                ),
            });
        }
        if e.prev != prev {
            return Err(ChainBreak {
                index: pos,
                reason: "does not link to the entry before it (an entry was inserted, deleted or edited)"
                    .into(),
            });
        }
        if *hash != e.hash {
            return Err(ChainBreak {
                index: pos,
                reason: "its hash does not match its content (the entry was edited)".into(),
            });
        }
        if (at == 0) != matches!(e.kind, EntryKind::Start { .. }) {
            return Err(ChainBreak {
                index: pos,
                reason: "only the first entry may (and must) be the start of the game".into(),
            });
        }
        prev = e.hash.clone();
    }
    Ok(ChainSummary {
        entries: start as usize + entries.len(),
        head: prev,
    })
}

/// Checks a whole log from its first entry.
pub fn verify_chain(entries: &[LogEntry]) -> Result<ChainSummary, ChainBreak> {
    if entries.is_empty() {
        return Err(ChainBreak {
            index: 0,
            reason: "the log is empty (no start entry)".into(),
        });
    }
    verify_chain_from(entries, 0, GENESIS)
}
