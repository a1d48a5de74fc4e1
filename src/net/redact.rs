//! Hidden strengths (issue 19): when the scenario says `hide_strengths = true` or the umpire
//! serves with `kepi serve --hide-strengths`, a player's seat is sent its own view of the game.
//!
//! What a player seat (german, french) never receives about the other side's units:
//!
//! - their `strength`, `max_strength`, `fatigue`, `level`, `leaders`, `max_leaders` and `melees`
//!   (null in the seat's view, with `"hidden": true` on the unit);
//! - any log entry that names one of them (by id or by name, anywhere in the entry: its action,
//!   its summary, its dice, its rules): such an entry arrives as a [`SeatEntry`] with `hidden`
//!   set and only its place in the chain (`index`, `time`, `turn`, `phase`, `prev`, `hash`). That
//!   covers figures lost in summaries, the casualties of a resolution against one of them (which
//!   a cap at the strength left would betray), set/lose/gain on them, and undo/redo of any of it;
//! - the game's first entry (it carries the whole roster at full strength).
//!
//! Everything else (the player's own units in full, entries about their side only, notes that
//! name no enemy unit, phase changes, the seed's reveal) arrives whole, inside the [`SeatEntry`],
//! and the client verifies its hash; for hidden entries it checks the chain's linkage (each
//! `prev` is the hash before it, and the last reaches the host's head). What stays visible on
//! purpose, as on the table: the other side's units' ids, names, positions, formations,
//! markers (flags) and whether they are eliminated.
//!
//! The umpire and the spectator are sent everything (the spectator code is for neutral onlookers;
//! do not hand it to a player when strengths are hidden).

use serde::{Deserialize, Serialize};

use super::Seat;
use crate::game::{Game, GameState, LogEntry};
use crate::roster::Side;

/// The fields of a unit in `kepi game show --json` that a hidden unit has as null.
pub const HIDDEN_FIELDS: &[&str] = &[
    "strength",
    "max_strength",
    "fatigue",
    "level",
    "leaders",
    "max_leaders",
    "melees",
];

/// What a hidden entry says in a seat's log.
pub const HIDDEN_SUMMARY: &str = "(hidden: concerns the other side's units)";

/// Checks a seat's view of the log ([`crate::game::Game::seat_view`]) as the window's "Verify
/// chain" does: every entry links to the one before, and every whole entry hashes to its hash (a
/// hidden one, [`placeholder_entry`], has no body to hash). The head, or the first entry that
/// fails.
pub fn verify_seat_log(log: &[LogEntry]) -> Result<String, u64> {
    let mut head = crate::game::GENESIS.to_string();
    for e in log {
        let hidden = e.summary == HIDDEN_SUMMARY && e.rules.is_empty() && e.dice.is_empty();
        if e.prev != head || (!hidden && crate::game::entry_hash(e) != e.hash) {
            return Err(e.index);
        }
        head = e.hash.clone();
    }
    Ok(head)
}

/// One log entry as a player seat with hidden strengths receives it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SeatEntry {
    /// Position in the log, from 0.
    pub index: u64,
    /// When (UTC).
    pub time: chrono::DateTime<chrono::Utc>,
    /// Game-turn when it happened.
    pub turn: u32,
    /// Phase when it happened.
    pub phase: String,
    /// Hash of the previous entry.
    pub prev: String,
    /// The entry's hash.
    pub hash: String,
    /// The entry names a unit of the other side (or is the start): only its place in the chain
    /// is sent.
    pub hidden: bool,
    /// The whole entry, when not hidden (its hash is verified by the client).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry: Option<LogEntry>,
}

impl SeatEntry {
    /// One line for people: the summary, or that it is hidden.
    pub fn summary(&self) -> &str {
        match &self.entry {
            Some(e) => &e.summary,
            None => HIDDEN_SUMMARY,
        }
    }
}

/// The side whose seat gets a redacted view: a player's, when hiding is on.
pub fn hidden_side(seat: Seat, on: bool) -> Option<Side> {
    match seat {
        Seat::Player(side) if on => Some(side),
        _ => None,
    }
}

/// What names the other side's units in an entry: their ids (quoted, as JSON holds them, or as
/// a word of the summary) and their names.
struct Needles {
    quoted_or_names: Vec<String>,
    ids: std::collections::HashSet<String>,
}

fn needles(state: &GameState, side: Side) -> Needles {
    let mut n = Needles {
        quoted_or_names: Vec::new(),
        ids: Default::default(),
    };
    for u in state.units.iter().filter(|u| u.unit.side != side) {
        n.quoted_or_names.push(format!("\"{}\"", u.unit.id));
        n.ids.insert(u.unit.id.clone());
        if !u.unit.name.is_empty() {
            n.quoted_or_names.push(u.unit.name.clone());
        }
    }
    n
}

impl Needles {
    /// A sentence names one of the other side's units: by id (a word of it) or by name.
    fn in_text(&self, text: &str) -> bool {
        text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .any(|w| self.ids.contains(w))
            || self
                .quoted_or_names
                .iter()
                .any(|q| text.contains(q.trim_matches('"')))
    }

    fn found(&self, e: &LogEntry) -> bool {
        let words = e
            .summary
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'));
        if words.into_iter().any(|w| self.ids.contains(w)) {
            return true;
        }
        // Serialization of an entry cannot fail; should it, hide the entry.
        match serde_json::to_string(e) {
            Ok(text) => self
                .quoted_or_names
                .iter()
                .any(|n| text.contains(n.as_str())),
            Err(_) => true,
        }
    }
}

/// The entries as `side`'s seat receives them.
pub fn seat_entries(entries: &[LogEntry], state: &GameState, side: Side) -> Vec<SeatEntry> {
    let needles = needles(state, side);
    entries.iter().map(|e| seat_entry(e, &needles)).collect()
}

fn seat_entry(e: &LogEntry, needles: &Needles) -> SeatEntry {
    let hidden = matches!(e.kind, crate::game::EntryKind::Start { .. }) || needles.found(e);
    SeatEntry {
        index: e.index,
        time: e.time,
        turn: e.turn,
        phase: e.phase.clone(),
        prev: e.prev.clone(),
        hash: e.hash.clone(),
        hidden,
        entry: (!hidden).then(|| e.clone()),
    }
}

/// A refusal's reason as `side`'s seat may read it: one that names a unit of the other side
/// (the rules' "is 3, cannot lose 5" would tell its strength) becomes a sentence without it.
pub fn scrub(message: &str, state: &GameState, side: Side) -> String {
    if needles(state, side).in_text(message) {
        "refused for a reason about the other side's units, whose strengths are hidden from this seat (the umpire's kepi shows it)".into()
    } else {
        message.to_string()
    }
}

/// The game as `side`'s seat sees it: `kepi game show --json`'s shape, with every unit marked
/// `"hidden"` (true for the other side's, whose [`HIDDEN_FIELDS`] are null).
pub fn seat_view(game: &Game, side: Side) -> serde_json::Value {
    let mut v = crate::cli::game_cmd::show_value(game.state(), game);
    if let Some(units) = v.get_mut("units").and_then(|u| u.as_array_mut()) {
        for u in units {
            let Some(obj) = u.as_object_mut() else {
                continue;
            };
            let own = obj.get("side").and_then(|s| s.as_str()) == Some(side.as_str());
            if !own {
                for f in HIDDEN_FIELDS {
                    obj.insert((*f).to_string(), serde_json::Value::Null);
                }
            }
            obj.insert("hidden".into(), serde_json::Value::Bool(!own));
        }
    }
    if let Some(obj) = v.as_object_mut() {
        obj.insert(
            "seat".into(),
            serde_json::Value::String(side.as_str().into()),
        );
        obj.insert("hidden_strengths".into(), serde_json::Value::Bool(true));
    }
    v
}

/// The strength a hidden unit still in the field shows in a seat's state (0 would read as
/// eliminated, which the table does see).
const PLACEHOLDER: u32 = 1;

/// The game state as `side`'s seat may hold it, for its window ([`Game::seat_view`]): the other
/// side's units keep what the table sees (ids, names, positions, formations, markers, whether
/// eliminated) and have [`HIDDEN_FIELDS`] as placeholders, marked
/// [`crate::game::UnitState::strength_hidden`] (their cards' strength and leaders too); due
/// checks about those units, or naming them, are left out.
pub fn seat_state(game: &Game, side: Side) -> GameState {
    seat_state_of(game.state(), side)
}

/// [`seat_state`] of a state.
fn seat_state_of(state: &GameState, side: Side) -> GameState {
    let mut s = state.clone();
    let n = needles(&s, side);
    for u in s.units.iter_mut().filter(|u| u.unit.side != side) {
        let left = if u.eliminated() { 0 } else { PLACEHOLDER };
        let mut card = (*u.unit).clone();
        card.strength = left;
        card.leaders = 0;
        u.unit = std::sync::Arc::new(card);
        u.strength = left;
        u.max_strength = PLACEHOLDER;
        u.fatigue = 0;
        u.level = crate::game::Level::Steady;
        u.leaders = 0;
        u.max_leaders = 0;
        u.melees = 0;
        u.strength_hidden = true;
    }
    // Checks are worded per rule, so thousands left open share a few texts: each text is
    // searched for the other side's ids and names once.
    let mut named: std::collections::HashMap<String, bool> = std::collections::HashMap::new();
    let mut names_them = |what: &str| -> bool {
        if let Some(&b) = named.get(what) {
            return b;
        }
        let b = n.in_text(what);
        named.insert(what.to_string(), b);
        b
    };
    // (The answers are the same however often a check is asked about, as retain may.)
    s.due.retain(|d| {
        !d.unit.as_deref().is_some_and(|id| n.ids.contains(id)) && !names_them(&d.what)
    });
    s
}

/// A hidden entry as it stands in a seat's view of the log: its place, and a note that says it
/// concerns the other side's units (no body, so nothing of it can be read).
pub fn placeholder_entry(e: &SeatEntry) -> LogEntry {
    match &e.entry {
        Some(w) => w.clone(),
        None => LogEntry {
            index: e.index,
            time: e.time,
            turn: e.turn,
            phase: e.phase.clone(),
            kind: crate::game::EntryKind::Act {
                action: crate::game::Action::Note {
                    text: e.summary().to_string(),
                },
            },
            summary: e.summary().to_string(),
            rules: Vec::new(),
            dice: Vec::new(),
            prev: e.prev.clone(),
            hash: e.hash.clone(),
        },
    }
}

/// A player's copy of a hidden log: checks linkage for every entry and the hash of every whole
/// one; keeps the heads and the latest view.
#[derive(Clone, Debug, Default)]
pub struct SeenLog {
    /// The entries received, in order.
    pub entries: Vec<SeatEntry>,
    /// The latest view the host sent.
    pub view: Option<serde_json::Value>,
    /// The latest game state the host made for this seat ([`seat_state`]), when it sent one.
    pub state: Option<Box<GameState>>,
}

impl SeenLog {
    /// The game as this seat may see it, for a window: the host's state for the seat and the log
    /// with hidden entries as placeholders ([`Game::seat_view`]); None before the host sent a
    /// state.
    pub fn game(&self) -> Option<Game> {
        let state = self.state.as_deref()?.clone();
        Some(Game::seat_view(
            state,
            self.entries.iter().map(placeholder_entry).collect(),
        ))
    }
}

impl SeenLog {
    /// The hash of the last entry held (the genesis before any).
    pub fn head(&self) -> &str {
        self.entries
            .last()
            .map_or(crate::game::GENESIS, |e| e.hash.as_str())
    }

    /// Takes one entry: an entry already held must be the same; the next must carry the next
    /// index and link to the head; a whole entry must agree with its header and hash to it.
    /// Returns whether it was new.
    pub fn push(&mut self, e: SeatEntry) -> Result<bool, String> {
        let len = self.entries.len() as u64;
        if e.index < len {
            return if self.entries.get(e.index as usize) == Some(&e) {
                Ok(false)
            } else {
                Err(format!(
                    "the host sent another entry {} than the one this seat checked: the log was changed",
                    e.index
                ))
            };
        }
        if e.index > len {
            return Err(format!("the host skipped from entry {len} to {}", e.index));
        }
        if e.prev != self.head() {
            return Err(format!(
                "entry {} does not link to the entry before it (prev {} is not {})",
                e.index,
                e.prev,
                self.head()
            ));
        }
        if e.hidden != e.entry.is_none() {
            return Err(format!(
                "entry {}: hidden entries carry no body and others one",
                e.index
            ));
        }
        if let Some(w) = &e.entry {
            if w.index != e.index || w.prev != e.prev || w.hash != e.hash {
                return Err(format!("entry {}: its body and its header differ", e.index));
            }
            let h = crate::game::entry_hash(w);
            if h != e.hash {
                return Err(format!(
                    "entry {}: hashes to {h}, not the {} it carries",
                    e.index, e.hash
                ));
            }
        }
        self.entries.push(e);
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Action;

    /// The demo battle with a few actions: a note (no unit), a loss on a german unit, one on a
    /// french unit.
    fn game() -> Game {
        let scenario = crate::roster::builtin_scenario("mars-la-tour").expect("scenario");
        let system = scenario.system.expect("a rule set");
        let now = chrono::Utc::now();
        let mut g = Game::new(&scenario, system, crate::game::SeedSecret::new(1870), now);
        g.act(
            Action::Note {
                text: "dawn".into(),
            },
            now,
        )
        .expect("note");
        for unit in ["12th-grenadiers-1", "8e-ligne-1"] {
            g.act(
                Action::LoseStrength {
                    unit: unit.into(),
                    n: 1,
                },
                now,
            )
            .expect("loss");
        }
        g
    }

    fn seen_by_german(g: &Game) -> Vec<SeatEntry> {
        seat_entries(g.log(), g.state(), Side::German)
    }

    #[test]
    fn a_seat_sees_its_own_and_neutral_entries_whole_and_the_others_as_chain_places() {
        let g = game();
        let seen = seen_by_german(&g);
        let hidden: Vec<bool> = seen.iter().map(|e| e.hidden).collect();
        // The start (the whole roster), the note, the german loss, the french loss.
        assert_eq!(hidden, [true, false, false, true]);
        let mut log = SeenLog::default();
        for e in seen {
            assert_eq!(log.push(e), Ok(true));
        }
        assert_eq!(
            log.head(),
            g.log().last().map(|e| e.hash.as_str()).unwrap_or("")
        );
        // The same entry again is no news; a catch-up after a reconnection may resend it.
        let again = seen_by_german(&g).pop().expect("an entry");
        assert_eq!(log.push(again), Ok(false));
    }

    #[test]
    fn a_forged_or_reordered_entry_is_refused() {
        let g = game();
        let seen = seen_by_german(&g);
        let mut log = SeenLog::default();
        log.push(seen[0].clone()).expect("start");
        // A whole entry whose body was changed (the figures lost) no longer hashes to its hash.
        let mut forged = seen[1].clone();
        if let Some(w) = &mut forged.entry {
            w.summary = "the Guard routs".into();
        }
        let e = log.push(forged).expect_err("forged");
        assert!(e.contains("hashes to"), "{e}");
        // A body under another entry's header.
        let mut swapped = seen[1].clone();
        swapped.entry = seen[2].entry.clone();
        assert!(log.push(swapped).is_err());
        // A hidden entry that carries a body, or a whole one without.
        let mut leaky = seen[1].clone();
        leaky.hidden = true;
        assert!(log.push(leaky).is_err());
        // Skipping an entry, or one that links elsewhere.
        assert!(
            log.push(seen[2].clone())
                .expect_err("skip")
                .contains("skipped")
        );
        let mut unlinked = seen[1].clone();
        unlinked.prev = "0".repeat(64);
        assert!(log.push(unlinked).is_err());
        // The true entry still goes in: nothing above was kept.
        assert_eq!(log.push(seen[1].clone()), Ok(true));
        // And an entry already held cannot be replaced by another.
        let mut other = seen[1].clone();
        other.time += chrono::Duration::seconds(1);
        assert!(log.push(other).expect_err("changed").contains("changed"));
    }

    #[test]
    fn a_seats_state_keeps_its_own_units_and_has_placeholders_for_the_others() {
        let g = game();
        let s = seat_state(&g, Side::German);
        for (mine, real) in s.units.iter().zip(&g.state().units) {
            if real.unit.side == Side::German {
                assert_eq!(mine.strength, real.strength);
                assert_eq!(mine.leaders, real.leaders);
                assert!(!mine.strength_hidden);
            } else {
                assert!(mine.strength_hidden);
                assert_eq!(mine.strength, PLACEHOLDER, "{}", mine.unit.id);
                assert_eq!(mine.unit.strength, PLACEHOLDER, "the card too");
                assert_eq!((mine.leaders, mine.unit.leaders, mine.fatigue), (0, 0, 0));
                assert_eq!(mine.eliminated(), real.eliminated());
                assert_eq!(mine.position, real.position, "the table sees where it is");
            }
        }
        // Checks about the other side's units, or naming them, are not the seat's to see.
        let mut st = g.state().clone();
        let due = |unit: Option<&str>, what: &str| crate::flow::Due {
            id: 0,
            rule: crate::rules::RuleId::new("PK-X5"),
            unit: unit.map(str::to_string),
            side: None,
            what: what.to_string(),
            form: None,
            at: None,
            by_move: false,
            turn: 1,
            phase: String::new(),
        };
        st.due.push(due(Some("12th-grenadiers-1"), "fatigue check"));
        st.due.push(due(Some("8e-ligne-1"), "fatigue check"));
        st.due.push(due(None, "I/8e de ligne lost a third: morale"));
        st.due.push(due(None, "end of turn"));
        let kept: Vec<String> = seat_state_of(&st, Side::German)
            .due
            .iter()
            .map(|d| format!("{:?} {}", d.unit, d.what))
            .collect();
        assert!(kept.contains(&"Some(\"12th-grenadiers-1\") fatigue check".to_string()));
        assert!(kept.contains(&"None end of turn".to_string()));
        assert!(
            !kept
                .iter()
                .any(|k| k.contains("8e-ligne") || k.contains("I/8e")),
            "{kept:?}"
        );
        // The shown game: the log as the seat may read it, each hidden entry at its place.
        let mut log = SeenLog::default();
        for e in seen_by_german(&g) {
            log.push(e).expect("verifies");
        }
        assert!(log.game().is_none(), "no state sent yet");
        log.state = Some(Box::new(s));
        let shown = log.game().expect("a game");
        assert!(shown.is_seat_view() && !shown.can_undo());
        let summaries: Vec<&str> = shown.log().iter().map(|e| e.summary.as_str()).collect();
        assert_eq!(summaries.len(), g.log().len());
        assert!(summaries[3].contains("hidden"), "{summaries:?}");
        assert_eq!(summaries[1], g.log()[1].summary);
        // "Verify chain" on it: the links and the whole entries hold; a changed one does not.
        assert_eq!(verify_seat_log(shown.log()), Ok(g.head()));
        let mut changed = shown.log().to_vec();
        changed[1].summary = "the Guard routs".into();
        assert_eq!(verify_seat_log(&changed), Err(1));
    }

    #[test]
    fn the_view_and_refusals_hide_the_other_sides_strengths() {
        let g = game();
        let v = seat_view(&g, Side::German);
        let units = v["units"].as_array().expect("units");
        for u in units {
            let own = u["side"] == "german";
            assert_eq!(u["hidden"], !own);
            for f in HIDDEN_FIELDS {
                assert_eq!(u[*f].is_null(), !own, "{f} of {}", u["id"]);
            }
        }
        let told = scrub("8e-ligne-1 has 21, cannot lose 30", g.state(), Side::German);
        assert!(!told.contains("21"), "{told}");
        let own = scrub("12th-grenadiers-1 has 19", g.state(), Side::German);
        assert_eq!(own, "12th-grenadiers-1 has 19");
    }
}
