//! Hidden strengths (issue 19): when the scenario says `hide_strengths = true` or the umpire
//! serves with `kepi serve --hide-strengths`, a player's seat is sent its own view of the game.
//!
//! What a player seat (german, french) never receives about the other side's units:
//!
//! - their `strength`, `max_strength`, `fatigue`, `level`, `leaders`, `max_leaders` and `melees`
//!   (null in the seat's view, with `"hidden": true` on the unit);
//! - any log entry that names one of them (by id or by name, anywhere in the entry: its action,
//!   its summary, its dice, its rules): such an entry arrives as a [`SeatEntry`] with `hidden`
//!   set and only its place in the seat's chain (`index`, `time`, `turn`, `phase`, `prev`,
//!   `hash`). That covers figures lost in summaries, the casualties of a resolution against one
//!   of them (which a cap at the strength left would betray), set/lose/gain on them, and
//!   undo/redo of any of it;
//! - the game's first entry (it carries the whole roster at full strength);
//! - any hash of the log itself (issue 29): a seat holds a chain of its own ([`SeatChains`]),
//!   where a hidden entry's hash commits to a secret only the host has, so no guess of the
//!   entry can be checked against it; the seed's reveal opens them ([`SeenLog::push`]);
//! - how far kepi's dice went and how many checks were queued (they would count the dice and
//!   the checks of hidden resolutions).
//!
//! Everything else (the player's own units in full, entries about their side only, notes that
//! name no enemy unit, phase changes, the seed's reveal) arrives whole, inside the [`SeatEntry`],
//! and the client verifies its hash; for hidden entries it checks the chain's linkage (each
//! `prev` is the hash before it, and the last reaches the host's head for the seat). What stays
//! visible on purpose, as on the table: the other side's units' ids, names, positions,
//! formations, markers (flags) and whether they are eliminated.
//!
//! A seat's request is judged against what the seat may know ([`judge`]), and what the rules
//! cannot finish on the real game is handed to the umpire, its dice spent, rather than refused
//! (issue 44): its answer is the same whatever the hidden values and the next die are.
//!
//! The umpire and the spectator are sent everything (the spectator code is for neutral onlookers;
//! do not hand it to a player when strengths are hidden).

use serde::{Deserialize, Serialize};

use super::Seat;
use kepi_game::engine::game::{Game, GameState, LogEntry};
use kepi_game::roster::Side;

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

/// Checks a seat's view of the log ([`kepi_game::engine::game::Game::seat_view`]) as the window's "Verify
/// chain" does: every entry links to the one before, and every whole (or opened) entry hashes to
/// its hash (a hidden one, [`placeholder_entry`], has no body to hash). The head, or the first
/// entry that fails.
pub fn verify_seat_log(log: &[LogEntry]) -> Result<String, u64> {
    let mut head = kepi_game::engine::game::GENESIS.to_string();
    for e in log {
        let hidden = e.summary == HIDDEN_SUMMARY && e.rules.is_empty() && e.dice.is_empty();
        let linked = if hidden {
            e.prev == head
        } else {
            e.prev == head || opens(&e.prev, &head).is_some()
        };
        if !linked || (!hidden && kepi_game::engine::game::entry_hash(e) != e.hash) {
            return Err(e.index);
        }
        head = e.hash.clone();
    }
    Ok(head)
}

/// The secret of an opened entry's body: its `prev` is the seat's previous hash, a colon and
/// the entry's secret (64 hex digits); `None` when `prev` is not that.
fn opens<'a>(body_prev: &'a str, prev: &str) -> Option<&'a str> {
    let secret = body_prev.strip_prefix(prev)?.strip_prefix(':')?;
    (secret.len() == 64 && secret.bytes().all(|b| b.is_ascii_hexdigit())).then_some(secret)
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
    /// Hash of the previous entry in the seat's chain ([`SeatChains`]).
    pub prev: String,
    /// The entry's hash in the seat's chain.
    pub hash: String,
    /// The entry names a unit of the other side (or is the start): only its place in the chain
    /// is sent, until the seed's reveal opens it.
    pub hidden: bool,
    /// The whole entry as it stands in the seat's chain (its `prev` the seat's; an opened
    /// hidden one's `prev` followed by a colon and its secret), when not hidden or once opened;
    /// the client verifies its hash.
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

/// The host's secret behind every seat's chain (256 bits from the operating system), kept
/// beside the save in `SAVE.seats` so a seat's chain is the same after the host restarts.
#[derive(Clone, PartialEq, Eq)]
pub struct ChainKey([u8; 32]);

impl ChainKey {
    /// A new key from the OS's entropy; an OS that cannot give any is an error.
    pub fn generate() -> Result<ChainKey, String> {
        let mut b = [0u8; 32];
        getrandom::fill(&mut b).map_err(|e| format!("no entropy from the OS: {e}"))?;
        Ok(ChainKey(b))
    }

    /// A key as kept (64 hex digits); `None` if it is not one.
    pub fn parse(text: &str) -> Option<ChainKey> {
        let t = text.trim().as_bytes();
        if t.len() != 64 {
            return None;
        }
        let digit = |c: u8| {
            char::from(c)
                .to_digit(16)
                .and_then(|d| u8::try_from(d).ok())
        };
        let mut b = [0u8; 32];
        for (k, pair) in t.chunks(2).enumerate() {
            b[k] = (digit(pair[0])? << 4) | digit(pair[1])?;
        }
        Some(ChainKey(b))
    }

    /// The key as kept: 64 hex digits.
    pub fn to_hex(&self) -> String {
        hex(&self.0)
    }

    /// HMAC-SHA256 (RFC 2104) of `msg` under this key, in hex.
    fn mac(&self, msg: &[u8]) -> String {
        use sha2::{Digest, Sha256};
        let pad = |x: u8| -> Vec<u8> {
            let mut k = [x; 64];
            for (a, b) in k.iter_mut().zip(self.0) {
                *a ^= b;
            }
            k.to_vec()
        };
        let inner = Sha256::new()
            .chain_update(pad(0x36))
            .chain_update(msg)
            .finalize();
        hex(&Sha256::new()
            .chain_update(pad(0x5c))
            .chain_update(inner)
            .finalize())
    }

    /// The secret of entry `e` in `side`'s chain: 256 bits only the host can make, the same
    /// whenever it is asked.
    fn secret(&self, side: Side, e: &LogEntry) -> String {
        self.mac(
            format!(
                "kepi-seat-entry\n{}\n{}\n{}",
                side.as_str(),
                e.index,
                e.hash
            )
            .as_bytes(),
        )
    }
}

impl std::fmt::Debug for ChainKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // A secret: never in a debug print or a log.
        f.write_str("ChainKey(..)")
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// One side's chain: each entry's hash in it and whether the entry is hidden from that side.
#[derive(Default)]
struct SideChain {
    hashes: Vec<String>,
    hidden: Vec<bool>,
}

/// The chains a host keeps for its player seats while strengths are hidden (issue 29).
///
/// A seat is never sent the log's own hashes: those of hidden entries could be checked against
/// guesses (a strength, a die), and a whole entry's `prev` would carry them. Each side has a
/// chain of its own over the same entries instead. Entry `i`'s body is the log's entry with its
/// `prev` replaced: by the side's hash of entry `i - 1` for an entry the seat may read, or by
/// that hash, a colon and the entry's secret ([`ChainKey`]) for a hidden one; its hash in the
/// side's chain is [`kepi_game::engine::game::entry_hash`] of that body. A hidden entry is sent as its index,
/// time, turn, phase, `prev` and `hash` only: without the secret no guess of its body can be
/// checked against them. Once the seed is revealed (the game's end) every hidden entry is sent
/// opened, its body with the secret, and the seat checks it hashes to what it held.
pub struct SeatChains {
    key: ChainKey,
    sides: std::collections::HashMap<Side, SideChain>,
}

impl SeatChains {
    /// No chain made yet; each side's is made when first asked for.
    pub fn new(key: ChainKey) -> SeatChains {
        SeatChains {
            key,
            sides: Default::default(),
        }
    }

    /// `side`'s chain, brought up to the whole log.
    fn sync(&mut self, side: Side, log: &[LogEntry], state: &GameState) -> &SideChain {
        let chain = self.sides.entry(side).or_default();
        if chain.hashes.len() < log.len() {
            let needles = needles(state, side);
            for e in log.get(chain.hashes.len()..).unwrap_or_default() {
                let hidden = matches!(e.kind, kepi_game::engine::game::EntryKind::Start { .. })
                    || needles.found(e);
                let prev = chain
                    .hashes
                    .last()
                    .map_or(kepi_game::engine::game::GENESIS, String::as_str);
                let made = body(e, prev, hidden.then(|| self.key.secret(side, e)));
                chain.hashes.push(made.hash);
                chain.hidden.push(hidden);
            }
        }
        chain
    }

    /// The hash of the last entry in `side`'s chain (what its seat's replica must reach).
    pub fn head(&mut self, side: Side, log: &[LogEntry], state: &GameState) -> String {
        self.sync(side, log, state)
            .hashes
            .last()
            .cloned()
            .unwrap_or_else(|| kepi_game::engine::game::GENESIS.to_string())
    }

    /// The entries `range` of the log as `side`'s seat receives them. Once the seed is revealed
    /// they come opened; and when `open_before` (a catch-up, or a batch that reveals the seed),
    /// every hidden entry before them comes first, opened.
    pub fn seen(
        &mut self,
        side: Side,
        log: &[LogEntry],
        state: &GameState,
        range: std::ops::Range<usize>,
        open_before: bool,
    ) -> Vec<SeatEntry> {
        let revealed = state.dice.revealed.is_some();
        let key = self.key.clone();
        let chain = self.sync(side, log, state);
        let end = range.end.min(log.len());
        let start = range.start.min(end);
        let earlier = if revealed && open_before {
            0..start
        } else {
            0..0
        };
        earlier
            .filter(|i| chain.hidden.get(*i) == Some(&true))
            .chain(start..end)
            .filter_map(|i| {
                let e = log.get(i)?;
                let hidden = *chain.hidden.get(i)?;
                let hash = chain.hashes.get(i)?.clone();
                let prev = match i.checked_sub(1) {
                    Some(p) => chain.hashes.get(p)?.clone(),
                    None => kepi_game::engine::game::GENESIS.to_string(),
                };
                let entry = match (hidden, revealed) {
                    (false, _) => Some(with_place(e, prev.clone(), hash.clone())),
                    (true, true) => Some(with_place(
                        e,
                        format!("{prev}:{}", key.secret(side, e)),
                        hash.clone(),
                    )),
                    (true, false) => None,
                };
                Some(SeatEntry {
                    index: e.index,
                    time: e.time,
                    turn: e.turn,
                    phase: e.phase.clone(),
                    prev,
                    hash,
                    hidden,
                    entry,
                })
            })
            .collect()
    }
}

/// `e` with its place in a seat's chain, and kepi's dice position after it (`draws` of a roll or
/// a resolution) as 0: from one of the seat's own rolls to the next it would count the dice of
/// the hidden rolls between (a P&K d% is rolled only on casualties).
fn with_place(e: &LogEntry, prev: String, hash: String) -> LogEntry {
    let mut w = LogEntry {
        prev,
        hash,
        ..e.clone()
    };
    if let kepi_game::engine::game::EntryKind::Act {
        action:
            kepi_game::engine::game::Action::Roll { draws, .. }
            | kepi_game::engine::game::Action::Resolved { draws, .. },
    } = &mut w.kind
    {
        *draws = 0;
    }
    w
}

/// An entry's body in a seat's chain ([`SeatChains`]), hashed.
pub(crate) fn body(e: &LogEntry, prev: &str, secret: Option<String>) -> LogEntry {
    let mut b = with_place(
        e,
        match secret {
            Some(s) => format!("{prev}:{s}"),
            None => prev.to_string(),
        },
        String::new(),
    );
    b.hash = kepi_game::engine::game::entry_hash(&b);
    b
}

/// Judges a request of `side`'s seat against what that seat may know (issues 29, 44): its
/// answer must be the same whatever the other side's hidden values are. The words are checked
/// (parsed, permitted) on two games that differ only in those values ([`masked`]), never on the
/// real one:
///
/// - refused alike on both: refused, with that reason (it does not depend on them);
/// - refused on one only, or for reasons that differ: refused, with one sentence for all;
/// - passed on both, but the words set a field of a form that depends on those values (the
///   target's figures, `--target-figures`, `--set action.b.figures=...`): refused, naming the
///   fields; the seat cannot know them, and the host fills them in from the units;
/// - a `--result` of their own in a combat against the other side's units (SPI, 1870): refused,
///   as the chart's column is the odds their strengths decide;
/// - then each resolution is built and previewed on both ([`crate::moves::check_built`]: the
///   rules' checks before any die, "already attacked", figures, a limbered battery), judged
///   alike as above;
/// - else it goes on to the real game, where the hidden values are the host's, filled in by it,
///   and what the rules cannot finish there is logged for the umpire with its dice spent, never
///   refused ([`crate::moves::apply_verbs_for_hidden_seat`]).
pub fn judge(
    words: &[String],
    state: &GameState,
    side: Side,
    tables: &kepi_game::rules::Tables,
    permit: &dyn Fn(&crate::moves::Asked, &GameState) -> Result<(), crate::moves::MoveError>,
) -> Result<(), crate::moves::MoveError> {
    use crate::moves::{check_verbs, stated_hidden};
    let (a, b) = (masked(state, side, 0), masked(state, side, 1));
    let depends = || {
        crate::moves::MoveError::refused(format!(
            "the answer to this request would depend on the other side's strengths, which are hidden from the {} seat, so it is refused whatever they are (the umpire can make it)",
            side.as_str()
        ))
    };
    let alike =
        |x: Result<(), crate::moves::MoveError>, y: Result<(), crate::moves::MoveError>| match (
            x, y,
        ) {
            (Ok(()), Ok(())) => Ok(()),
            (Err(x), Err(y)) if x.code() == y.code() && x.message == y.message => Err(x),
            _ => Err(depends()),
        };
    alike(
        check_verbs(words, &a, tables, permit).map(|_| ()),
        check_verbs(words, &b, tables, permit).map(|_| ()),
    )?;
    let stated = stated_hidden(words, &a, &b, tables)?;
    if !stated.is_empty() {
        return Err(crate::moves::MoveError::refused(format!(
            "{} depends on the other side's strengths, which are hidden from the {} seat: leave it out (the host fills it in from the units)",
            stated.join(", "),
            side.as_str()
        )));
    }
    // Issue 44: the result printed on the chart is read in a column of the odds, which the
    // other side's strengths decide: the seat cannot know it, and whether kepi's table agrees
    // with it would tell them.
    let entered = crate::moves::entered_results(words, &a, tables, side)?;
    if !entered.is_empty() {
        return Err(crate::moves::MoveError::refused(format!(
            "`{} --result`: the chart's column depends on the other side's strengths, which are hidden from the {} seat: leave the result out (kepi rolls; the umpire enters the result of a cell kepi does not know)",
            entered.join("`, `"),
            side.as_str()
        )));
    }
    // The rules' checks before the roll (issue 44): "already attacked", figures, ranges...
    alike(
        crate::moves::check_built(words, &a, tables),
        crate::moves::check_built(words, &b, tables),
    )
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
/// `"hidden"` (true for the other side's, whose [`HIDDEN_FIELDS`] are null), `head` the seat's
/// own chain's ([`SeatChains::head`]; the log's would let a guess be checked) and `dice_draws`
/// null (how far kepi's dice went would count the dice of hidden rolls).
pub fn seat_view(game: &Game, side: Side, head: String) -> serde_json::Value {
    let mut v = crate::moves::show_value(game.state(), game);
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
        obj.insert("head".into(), serde_json::Value::String(head));
        obj.insert("dice_draws".into(), serde_json::Value::Null);
    }
    v
}

/// The strength a hidden unit still in the field shows in a seat's state (0 would read as
/// eliminated, which the table does see).
pub(crate) const PLACEHOLDER: u32 = 1;

/// The game state as `side`'s seat may hold it, for its window ([`Game::seat_view`]): the other
/// side's units keep what the table sees (ids, names, positions, formations, markers, whether
/// eliminated) and have [`HIDDEN_FIELDS`] as placeholders, marked
/// [`kepi_game::engine::game::UnitState::strength_hidden`] (their cards' strength and leaders too); due
/// checks about those units, or naming them, are left out.
pub fn seat_state(game: &Game, side: Side) -> GameState {
    seat_state_of(game.state(), side)
}

/// `state` with the other side's units' [`HIDDEN_FIELDS`] (and their cards' strength and
/// leaders) set to stand-ins that say nothing of them: `k` 0 is the placeholder a seat's state
/// holds ([`seat_state`]); `k` 1 another set of values throughout, so a request can be judged
/// against both ([`judge`]). An eliminated unit stays eliminated (the table sees that).
fn masked(state: &GameState, side: Side, k: u32) -> GameState {
    let mut s = state.clone();
    for u in s.units.iter_mut().filter(|u| u.unit.side != side) {
        let left = if u.eliminated() { 0 } else { PLACEHOLDER + k };
        let mut card = (*u.unit).clone();
        card.strength = left;
        card.leaders = k;
        u.unit = std::sync::Arc::new(card);
        u.strength = left;
        u.max_strength = PLACEHOLDER + k;
        u.fatigue = k;
        u.level = if k == 0 {
            kepi_game::engine::game::Level::Steady
        } else {
            kepi_game::engine::game::Level::Shaken
        };
        u.leaders = k;
        u.max_leaders = k;
        u.melees = k;
        u.strength_hidden = true;
    }
    s
}

/// [`seat_state`] of a state.
pub(crate) fn seat_state_of(state: &GameState, side: Side) -> GameState {
    let mut s = masked(state, side, 0);
    let n = needles(&s, side);
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
    // How far kepi's dice went, and how many checks were ever queued, would count the dice and
    // the checks of hidden resolutions (a d% is rolled only on casualties).
    s.dice.draws = 0;
    s.next_due = 0;
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
            kind: kepi_game::engine::game::EntryKind::Act {
                action: kepi_game::engine::game::Action::Note {
                    text: e.summary().to_string(),
                },
            },
            summary: e.summary().to_string(),
            rules: Vec::new(),
            dice: Vec::new(),
            prev: e.prev.clone(),
            hash: e.hash.clone(),
            // Not hashed again (its hash is the host's) and never audited (a seat checks its
            // copy's chain, `verify_seat_log`): 0, the lowest, so a view of a game begun before
            // revisions never reads as going down.
            rev: 0,
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
            .map_or(kepi_game::engine::game::GENESIS, |e| e.hash.as_str())
    }

    /// Takes one entry: an entry already held must be the same (or, held hidden, come opened
    /// and check out); the next must carry the next index and link to the head; a whole or
    /// opened entry must agree with its header and hash to it. Returns whether it was new (or
    /// newly opened).
    pub fn push(&mut self, e: SeatEntry) -> Result<bool, String> {
        let len = self.entries.len() as u64;
        if e.index < len {
            let held = self.entries.get(e.index as usize);
            if held == Some(&e) {
                return Ok(false);
            }
            // An opening: the entry held hidden, now with its body and secret.
            if let Some(h) = held
                && h.entry.is_none()
                && e.entry.is_some()
                && (SeatEntry {
                    entry: None,
                    ..e.clone()
                }) == *h
            {
                check_body(&e)?;
                if let Some(slot) = self.entries.get_mut(e.index as usize) {
                    *slot = e;
                }
                return Ok(true);
            }
            return Err(format!(
                "the host sent another entry {} than the one this seat checked: the log was changed",
                e.index
            ));
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
        if !e.hidden && e.entry.is_none() {
            return Err(format!(
                "entry {}: an entry that is not hidden carries its body",
                e.index
            ));
        }
        check_body(&e)?;
        self.entries.push(e);
        Ok(true)
    }
}

/// A whole or opened entry's body agrees with its header and hashes to its hash; a whole one
/// links to the `prev` before it, an opened one to that `prev` and its secret.
fn check_body(e: &SeatEntry) -> Result<(), String> {
    let Some(w) = &e.entry else {
        return Ok(());
    };
    let linked = if e.hidden {
        opens(&w.prev, &e.prev).is_some()
    } else {
        w.prev == e.prev
    };
    if w.index != e.index
        || w.time != e.time
        || w.turn != e.turn
        || w.phase != e.phase
        || w.hash != e.hash
        || !linked
    {
        return Err(format!("entry {}: its body and its header differ", e.index));
    }
    let h = kepi_game::engine::game::entry_hash(w);
    if h != e.hash {
        return Err(format!(
            "entry {}: hashes to {h}, not the {} it carries",
            e.index, e.hash
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chain_key_reads_back_and_never_prints() {
        let k = ChainKey::generate().expect("entropy");
        assert_eq!(ChainKey::parse(&k.to_hex()), Some(k.clone()));
        assert_ne!(ChainKey::generate().expect("entropy"), k);
        assert_eq!(format!("{k:?}"), "ChainKey(..)");
        for bad in ["", "zz", &"g".repeat(64), &"a".repeat(63)] {
            assert!(ChainKey::parse(bad).is_none(), "{bad}");
        }
    }
}
