//! [`Game`]: the state, its log and its undo/redo history, changed only through log entries.
//!
//! Every change goes through one function, `step`, used both live and when a log is replayed, so a
//! saved log rebuilds the exact game. Undo restores the exact earlier state (a snapshot), except
//! kepi's dice position, which never goes back: an undone roll stays in the log, and rolling again
//! draws new dice.

use chrono::{DateTime, Utc};

use super::log::{ChainBreak, EntryKind, GENESIS, LogEntry, SeedSecret, entry_hash, verify_chain};
use super::{Action, ActionError, GameState};
use crate::dice::{DiceExpr, DiceSource, Die, RollSource};
use crate::roster::Scenario;
use crate::rules::{Resolution, RuleError, RuleSetId};

/// A rule set's resolution as the game runs it: given the state and kepi's dice (after any dice
/// entered), the resolution and the actions its outcome causes. One name for the bound every
/// `Game::resolve*` takes.
pub trait Resolve:
    FnOnce(
    &GameState,
    &mut DiceSource,
) -> Result<(Resolution<serde_json::Value>, Vec<Action>), RuleError>
{
}

impl<F> Resolve for F where
    F: FnOnce(
        &GameState,
        &mut DiceSource,
    ) -> Result<(Resolution<serde_json::Value>, Vec<Action>), RuleError>
{
}

/// A log that does not replay: which entry and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The hash chain is broken.
    #[error("log chain broken at {0}")]
    Chain(#[from] ChainBreak),
    /// An entry could not be applied.
    #[error("entry {index}: {message}")]
    Entry {
        /// The entry.
        index: usize,
        /// Why.
        message: String,
    },
}

/// A game: state, log and history.
#[derive(Clone, Debug)]
pub struct Game {
    state: GameState,
    log: Vec<LogEntry>,
    /// Each action in effect: the state before it, the action, and the index of the log entry that
    /// applied it (a redone action keeps its first entry's index).
    past: Vec<(GameState, Action, usize)>,
    /// Undone actions with their entries' indices, the next to redo last.
    future: Vec<(Action, usize)>,
    secret: Option<SeedSecret>,
    /// A seat's view ([`Game::seat_view`]): shown, never played.
    view: bool,
}

/// One action in effect (applied and not undone), with what it applied to.
#[derive(Clone, Copy, Debug)]
pub struct InEffect<'a> {
    /// The log entry that applied it (its turn, phase, time, dice, summary).
    pub entry: &'a LogEntry,
    /// The action.
    pub action: &'a Action,
    /// The state it was applied to.
    pub before: &'a GameState,
    /// The state it left (the next action's `before`, or the state now).
    pub after: &'a GameState,
}

impl InEffect<'_> {
    /// What it did to each unit, from `before` and `after` (see [`super::effects`]).
    pub fn effects(&self) -> Vec<super::Effect> {
        super::effects::effects(self.before, self.action, self.after)
    }
}

impl Game {
    /// A new game of a scenario, with kepi's dice seeded by `secret` (its commitment is logged).
    pub fn new(
        scenario: &Scenario,
        system: RuleSetId,
        secret: SeedSecret,
        now: DateTime<Utc>,
    ) -> Game {
        let state = GameState::new(scenario, system, secret.commitment());
        let mut g = Game {
            state: state.clone(),
            log: Vec::new(),
            past: Vec::new(),
            future: Vec::new(),
            secret: Some(secret),
            view: false,
        };
        let summary = start_summary(&state);
        let when = g.when();
        g.push(
            EntryKind::Start {
                initial: Box::new(state),
            },
            summary,
            vec!["DICE-2".into()],
            Vec::new(),
            when,
            now,
        );
        g
    }

    /// A player's copy of a game whose strengths are hidden from their seat (issue 19): the state
    /// the host made for the seat (`kepi_middle::net::redact::seat_state`) and the log as far as the
    /// seat may read it, each hidden entry at its place as a note that says so. It is shown, never
    /// played: it has no undo history and no seed, and nothing is replayed from it (the client
    /// verified the chain the entries came in).
    pub fn seat_view(state: GameState, log: Vec<LogEntry>) -> Game {
        Game {
            state,
            log,
            past: Vec::new(),
            future: Vec::new(),
            secret: None,
            view: true,
        }
    }

    /// Whether this is a seat's view ([`Game::seat_view`]) rather than a game replayed whole.
    pub fn is_seat_view(&self) -> bool {
        self.view
    }

    /// Rebuilds a game from its log (checking the chain) and, optionally, its secret.
    pub fn from_log(log: Vec<LogEntry>, secret: Option<SeedSecret>) -> Result<Game, ReplayError> {
        // The chain (indices, links, hashes) is checked on another thread while the log replays
        // on this one; a broken chain is reported first, as if it had been checked before.
        let mut game = std::thread::scope(|scope| {
            let chain = scope.spawn(|| verify_chain(&log));
            let replayed = Game::replay_unchecked(&log, secret);
            match chain.join() {
                Ok(Err(b)) => Err(ReplayError::Chain(b)),
                Ok(Ok(_)) => replayed,
                Err(_) => verify_chain(&log).map_err(ReplayError::Chain).and(replayed),
            }
        })?;
        game.log = log;
        Ok(game)
    }

    /// Replays a log whose chain is checked elsewhere ([`Game::from_log`]); the game it returns
    /// has an empty log, for the caller to move the checked one into.
    fn replay_unchecked(log: &[LogEntry], secret: Option<SeedSecret>) -> Result<Game, ReplayError> {
        let mut entries = log.iter();
        let first = entries.next().ok_or(ReplayError::Entry {
            index: 0,
            message: "empty log".into(),
        })?;
        let EntryKind::Start { initial } = &first.kind else {
            return Err(ReplayError::Entry {
                index: 0,
                message: "the first entry is not the start of the game".into(),
            });
        };
        if let Some(s) = &secret
            && *s.commitment() != *initial.dice.commitment
        {
            return Err(ReplayError::Entry {
                index: 0,
                message: "the saved seed does not match the logged commitment".into(),
            });
        }
        let mut g = Game {
            state: (**initial).clone(),
            log: Vec::new(),
            // One undo snapshot per action at most: reserved once, not regrown (and copied) as
            // a long game replays.
            past: Vec::with_capacity(log.len()),
            future: Vec::new(),
            secret,
            view: false,
        };
        for (index, e) in entries.enumerate() {
            g.step(&e.kind, index + 1, e.rev)
                .map_err(|err| ReplayError::Entry {
                    index: index + 1,
                    message: err.to_string(),
                })?;
        }
        Ok(g)
    }

    /// Applies one more logged entry (journal recovery): it must link to the head and replay.
    pub fn replay(&mut self, e: LogEntry) -> Result<(), ReplayError> {
        let index = self.log.len();
        let bad = |message: String| ReplayError::Entry { index, message };
        if e.index != index as u64 || e.prev != self.head() || entry_hash(&e) != e.hash {
            return Err(bad("does not continue the log (index, link or hash)".into()));
        }
        self.step(&e.kind, index, e.rev)
            .map_err(|err| bad(err.to_string()))?;
        self.log.push(e);
        Ok(())
    }

    /// The state now.
    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// The log.
    pub fn log(&self) -> &[LogEntry] {
        &self.log
    }

    /// The seed secret, when this copy of the game has it.
    pub fn secret(&self) -> Option<&SeedSecret> {
        self.secret.as_ref()
    }

    /// The hash of the last entry.
    pub fn head(&self) -> String {
        self.log
            .last()
            .map(|e| e.hash.clone())
            .unwrap_or_else(|| GENESIS.to_string())
    }

    /// True when there is an action to undo.
    pub fn can_undo(&self) -> bool {
        !self.past.is_empty()
    }

    /// True when there is an undone action to redo.
    pub fn can_redo(&self) -> bool {
        !self.future.is_empty()
    }

    /// The actions applied and not undone, in order.
    pub fn applied(&self) -> impl DoubleEndedIterator<Item = &Action> {
        self.past.iter().map(|(_, a, _)| a)
    }

    /// The actions in effect (applied and not undone), in order, each with its log entry and the
    /// states before and after it: what the battle report and its casualties are made from.
    pub fn in_effect(&self) -> impl DoubleEndedIterator<Item = InEffect<'_>> {
        self.past
            .iter()
            .enumerate()
            .filter_map(|(i, (before, action, entry))| {
                let after = self.past.get(i + 1).map(|p| &p.0).unwrap_or(&self.state);
                Some(InEffect {
                    entry: self.log.get(*entry)?,
                    action,
                    before,
                    after,
                })
            })
    }

    /// Applies one entry's kind; `index` is the entry's place in the log, `rev` its revision (the
    /// checks queued as the kepi that wrote it queued them: [`super::apply_as_of`]).
    fn step(&mut self, kind: &EntryKind, index: usize, rev: u32) -> Result<(), ActionError> {
        match kind {
            EntryKind::Start { .. } => {
                Err(ActionError::Invalid("the game has already started".into()))
            }
            EntryKind::Act { action } => {
                let next = super::apply_as_of(&self.state, action, rev)?;
                let prev = std::mem::replace(&mut self.state, next);
                self.past.push((prev, action.clone(), index));
                self.future.clear();
                Ok(())
            }
            EntryKind::Undo => {
                let (mut prev, action, entry) = self
                    .past
                    .pop()
                    .ok_or_else(|| ActionError::Invalid("nothing to undo".into()))?;
                prev.dice.draws = self.state.dice.draws;
                prev.dice.revealed = self.state.dice.revealed;
                self.state = prev;
                self.future.push((action, entry));
                Ok(())
            }
            EntryKind::Redo => {
                let (action, entry) = self
                    .future
                    .last()
                    .cloned()
                    .ok_or_else(|| ActionError::Invalid("nothing to redo".into()))?;
                let next = super::apply_as_of(&self.state, &action, rev)?;
                self.future.pop();
                let prev = std::mem::replace(&mut self.state, next);
                self.past.push((prev, action, entry));
                Ok(())
            }
            EntryKind::Reveal { seed, salt } => {
                if *super::log::commitment(*seed, salt) != *self.state.dice.commitment {
                    return Err(ActionError::Invalid(
                        "the revealed seed does not match the commitment".into(),
                    ));
                }
                self.state.dice.revealed = Some(*seed);
                for (s, _, _) in &mut self.past {
                    s.dice.revealed = Some(*seed);
                }
                Ok(())
            }
        }
    }

    fn push(
        &mut self,
        kind: EntryKind,
        summary: String,
        rules: Vec<String>,
        dice: Vec<crate::dice::Roll>,
        (turn, phase): (u32, String),
        now: DateTime<Utc>,
    ) -> &LogEntry {
        // A log's time never goes backwards (`kepi log verify` refuses one that does): a clock
        // set back between two actions logs the later one at the earlier one's time.
        let time = self.log.last().map_or(now, |last| now.max(last.time));
        let mut e = LogEntry {
            index: self.log.len() as u64,
            time,
            turn,
            phase,
            kind,
            summary,
            rules,
            dice,
            prev: self.head(),
            hash: String::new(),
            rev: super::log::LOG_REVISION,
        };
        e.hash = entry_hash(&e);
        self.log.push(e);
        let n = self.log.len() - 1;
        &self.log[n]
    }

    /// Applies an action and logs it (with the turn and phase it happened in).
    pub fn act(&mut self, action: Action, now: DateTime<Utc>) -> Result<&LogEntry, ActionError> {
        let summary = action.describe(&self.state);
        let rules = act_rules(&self.state, &action);
        let dice = action.dice();
        let when = self.when();
        let kind = EntryKind::Act { action };
        self.step(&kind, self.log.len(), super::LOG_REVISION)?;
        Ok(self.push(kind, summary, rules, dice, when, now))
    }

    fn when(&self) -> (u32, String) {
        (self.state.turn, self.state.phase_name().to_string())
    }

    /// The summary of undoing the last applied action now ("undo: ..."), None when there is none.
    fn undo_summary(&self) -> Option<String> {
        self.past
            .last()
            .map(|(s, a, _)| format!("undo: {}", a.describe(s)))
    }

    /// The summary of redoing the last undone action now ("redo: ..."), None when there is none.
    fn redo_summary(&self) -> Option<String> {
        self.future
            .last()
            .map(|(a, _)| format!("redo: {}", a.describe(&self.state)))
    }

    /// What kepi writes with an entry of `kind` made now, besides the kind itself: its summary,
    /// its rule ids and its dice ([`Game::act`], [`Game::undo`], [`Game::redo`],
    /// [`Game::reveal`], [`Game::new`] write exactly these). None when the entry cannot be made
    /// now (nothing to undo).
    fn written_with(
        &self,
        kind: &EntryKind,
    ) -> Option<(String, Vec<String>, Vec<crate::dice::Roll>)> {
        let dice2 = || vec!["DICE-2".to_string()];
        Some(match kind {
            EntryKind::Start { initial } => (start_summary(initial), dice2(), Vec::new()),
            EntryKind::Act { action } => (
                action.describe(&self.state),
                act_rules(&self.state, action),
                action.dice(),
            ),
            EntryKind::Undo => (self.undo_summary()?, Vec::new(), Vec::new()),
            EntryKind::Redo => (self.redo_summary()?, Vec::new(), Vec::new()),
            EntryKind::Reveal { seed, .. } => {
                (reveal_summary(*seed, &self.state), dice2(), Vec::new())
            }
        })
    }

    /// Undoes the last applied action (logged).
    pub fn undo(&mut self, now: DateTime<Utc>) -> Result<&LogEntry, ActionError> {
        let summary = self
            .undo_summary()
            .ok_or_else(|| ActionError::Invalid("nothing to undo".into()))?;
        let when = self.when();
        self.step(&EntryKind::Undo, self.log.len(), super::LOG_REVISION)?;
        Ok(self.push(EntryKind::Undo, summary, Vec::new(), Vec::new(), when, now))
    }

    /// Applies the last undone action again (logged).
    pub fn redo(&mut self, now: DateTime<Utc>) -> Result<&LogEntry, ActionError> {
        let summary = self
            .redo_summary()
            .ok_or_else(|| ActionError::Invalid("nothing to redo".into()))?;
        let when = self.when();
        self.step(&EntryKind::Redo, self.log.len(), super::LOG_REVISION)?;
        Ok(self.push(EntryKind::Redo, summary, Vec::new(), Vec::new(), when, now))
    }

    fn dice_source(&self, entered: &[(Die, u32)]) -> Result<DiceSource, ActionError> {
        let mut src = match &self.secret {
            Some(s) => DiceSource::resume(s.seed, self.state.dice.draws),
            None if !entered.is_empty() => DiceSource::entered_only(),
            None => {
                return Err(ActionError::Invalid(
                    "this copy of the game has no dice seed: enter the dice you rolled".into(),
                ));
            }
        };
        for (d, v) in entered {
            src.enter(*d, *v)
                .map_err(|e| ActionError::Invalid(e.to_string()))?;
        }
        Ok(src)
    }

    /// A logged roll of kepi's dice (DICE-2): a new roll every time, never a replacement.
    pub fn roll(&mut self, expr: &DiceExpr, now: DateTime<Utc>) -> Result<&LogEntry, ActionError> {
        self.roll_entered(expr, &[], now)
    }

    /// A logged roll (DICE-2) of kepi's dice, or of the physical dice the player read out: with
    /// `entered` empty kepi rolls; otherwise it holds one value per die of `expr`, each checked
    /// against the die (a 7 on a d6 is refused), and kepi's dice stream does not move.
    pub fn roll_entered(
        &mut self,
        expr: &DiceExpr,
        entered: &[u32],
        now: DateTime<Utc>,
    ) -> Result<&LogEntry, ActionError> {
        if !entered.is_empty() && entered.len() != expr.count as usize {
            return Err(ActionError::Invalid(format!(
                "{expr} needs {} value(s), got {}",
                expr.count,
                entered.len()
            )));
        }
        let die = expr.die();
        let pairs: Vec<(Die, u32)> = entered.iter().map(|&v| (die, v)).collect();
        let mut src = self.dice_source(&pairs)?;
        let r = src
            .roll_expr(expr)
            .map_err(|e| ActionError::Invalid(e.to_string()))?;
        let draws = src.draws().max(self.state.dice.draws);
        self.act(
            Action::Roll {
                expr: expr.clone(),
                dice: src.take_rolls(),
                total: r.total,
                draws,
            },
            now,
        )
    }

    /// The extension point for the rule sets: `resolve` gets the state and kepi's dice (after any
    /// `entered` physical dice), returns the resolution and the actions its outcome causes, and the
    /// whole is applied and logged as one [`Action::Resolved`] (one undo step).
    pub fn resolve<F>(
        &mut self,
        entered: &[(Die, u32)],
        resolve: F,
        now: DateTime<Utc>,
    ) -> Result<&LogEntry, ActionError>
    where
        F: Resolve,
    {
        self.resolve_about(Vec::new(), entered, resolve, now)
    }

    /// [`Game::resolve`] for named units (the acting unit, then the target): they are logged with the
    /// resolution, so it answers the due checks it is the roll for (a rally roll for that unit).
    pub fn resolve_about<F>(
        &mut self,
        units: Vec<String>,
        entered: &[(Die, u32)],
        resolve: F,
        now: DateTime<Utc>,
    ) -> Result<&LogEntry, ActionError>
    where
        F: Resolve,
    {
        self.resolve_logged(units, None, entered, resolve, now)
    }

    /// [`Game::resolve_about`] logging what was resolved (`input`, see [`Action::Resolved`]), so
    /// [`Game::audit_outcomes`] can resolve it again.
    pub fn resolve_logged<F>(
        &mut self,
        units: Vec<String>,
        input: Option<serde_json::Value>,
        entered: &[(Die, u32)],
        resolve: F,
        now: DateTime<Utc>,
    ) -> Result<&LogEntry, ActionError>
    where
        F: Resolve,
    {
        let mut src = self.dice_source(entered)?;
        let (resolution, effects) =
            resolve(&self.state, &mut src).map_err(|e| ActionError::Invalid(e.to_string()))?;
        let draws = src.draws().max(self.state.dice.draws);
        self.act(
            Action::Resolved {
                resolution: Box::new(resolution),
                effects,
                draws,
                units,
                input: input.map(Box::new),
            },
            now,
        )
    }

    /// [`Game::resolve_logged`] for a seat the other side's strengths are hidden from (issue 44):
    /// when the rules cannot finish the resolution (a chart cell kepi does not know, losses that
    /// do not add up to the result...), it is not refused, which would tell the seat something
    /// that depends on the hidden values or on a die it did not spend. It is logged instead as
    /// `not_applied` ([`Game::log_not_applied`]) with the dice it rolled, which are spent (the
    /// next roll shows the next die), and no effects: the umpire resolves it.
    pub fn resolve_logged_or_hand_over<F>(
        &mut self,
        units: Vec<String>,
        input: Option<serde_json::Value>,
        entered: &[(Die, u32)],
        resolve: F,
        now: DateTime<Utc>,
    ) -> Result<&LogEntry, ActionError>
    where
        F: Resolve,
    {
        let mut src = self.dice_source(entered)?;
        let draws = |src: &DiceSource, s: &GameState| src.draws().max(s.dice.draws);
        let (resolution, effects) = match resolve(&self.state, &mut src) {
            Ok(done) => done,
            Err(e) => {
                let spent = draws(&src, &self.state);
                let rolls = src.take_rolls();
                return self.log_not_applied(&e.to_string(), input, rolls, spent, now);
            }
        };
        let spent = draws(&src, &self.state);
        let rolls = resolution.dice.clone();
        let made = Action::Resolved {
            resolution: Box::new(resolution),
            effects,
            draws: spent,
            units,
            input: input.clone().map(Box::new),
        };
        // Effects the game refuses (nothing is applied then) are the umpire's too.
        if let Err(e) = self.act(made, now) {
            return self.log_not_applied(&e.to_string(), input, rolls, spent, now);
        }
        self.log
            .last()
            .ok_or_else(|| ActionError::Invalid("internal: the resolution was not logged".into()))
    }

    /// Logs a resolution the host could not apply for a seat with hidden strengths (issue 44):
    /// a [`Action::Resolved`] whose action is `not_applied`, with the dice it rolled (spent up to
    /// `draws`), no effects and no units (it answers no due check), and its reason and what was
    /// asked (`asked`: the form, naming its units, so it is hidden from a seat whose enemy it
    /// names) in its outcome. The umpire resolves it from the log.
    pub fn log_not_applied(
        &mut self,
        reason: &str,
        asked: Option<serde_json::Value>,
        rolls: Vec<crate::dice::Roll>,
        draws: u64,
        now: DateTime<Utc>,
    ) -> Result<&LogEntry, ActionError> {
        let dice: Vec<String> = rolls
            .iter()
            .map(|r| format!("{}={}", r.die, r.value))
            .collect();
        // The rules' "roll again: kepi's dice show the same face" is no longer true: they moved
        // on, so the umpire makes it again with the dice spent here.
        let reason = reason.replace(crate::rules::SAME_FACE, "make it again with these dice");
        let summary = format!(
            "not applied, for the umpire to resolve{}: {reason}",
            if dice.is_empty() {
                String::new()
            } else {
                format!(
                    " (its dice are spent: make it again with --dice {})",
                    dice.join(",")
                )
            }
        );
        let resolution = Resolution {
            system: self.state.system.system(),
            action: "not_applied".to_string(),
            modifiers: Vec::new(),
            dice: rolls,
            outcome: Some(serde_json::json!({ "reason": reason, "asked": asked })),
            summary,
            odds: Vec::new(),
            rolled: None,
            notes: Vec::new(),
        };
        let draws = draws.max(self.state.dice.draws);
        self.act(
            Action::Resolved {
                resolution: Box::new(resolution),
                effects: Vec::new(),
                draws,
                units: Vec::new(),
                input: None,
            },
            now,
        )
    }

    /// Checks every member of every entry against what kepi would have written there (issues 29
    /// and 44: a forger who edits an entry and recomputes the chain). An entry holds its input
    /// (the start's state, an action, the revealed seed) or what is recomputed here from that
    /// input, the dice and the game before it: its `turn` and `phase` must be the clock's at that
    /// point of the replay, its `time` never earlier than the entry before it, its `summary`,
    /// `rules` and `dice` those its kind gives on the game before it (an undo's summary is what
    /// undoing that action says), its `rev` never above kepi's ([`super::LOG_REVISION`]) nor below
    /// the entry before it, and each action is handed to `recheck` with the game before it (its
    /// log up to there) and the entry's revision, to recompute what the action holds beyond its
    /// input (a resolution that logged its input resolved again from its logged dice, a move's
    /// notes; the notes an older revision did not write excused for its entries only) and say
    /// `true` when it resolved one again. Returns the resolutions resolved again, or the first
    /// entry that differs, naming the member.
    pub fn audit_outcomes(
        &self,
        mut recheck: impl FnMut(&Game, &Action, u32) -> Result<bool, String>,
    ) -> Result<usize, ReplayError> {
        let start = self.log.get(..1).unwrap_or_default();
        let mut g = Game::replay_unchecked(start, None)?;
        let mut checked = 0;
        let mut before: Option<&LogEntry> = None;
        for (i, e) in self.log.iter().enumerate() {
            let bad = |message: String| ReplayError::Entry { index: i, message };
            if let Some(p) = before
                && e.time < p.time
            {
                return Err(bad(format!(
                    "`time` {} is before entry {}'s {}: a log's time never goes backwards",
                    e.time.to_rfc3339(),
                    p.index,
                    p.time.to_rfc3339()
                )));
            }
            if e.rev > super::LOG_REVISION {
                return Err(bad(format!(
                    "`rev` is {}: this kepi writes entries of revision {} at most",
                    e.rev,
                    super::LOG_REVISION
                )));
            }
            if let Some(p) = before
                && e.rev < p.rev
            {
                return Err(bad(format!(
                    "`rev` is {} after entry {}'s {}: a log's revisions never go down",
                    e.rev, p.index, p.rev
                )));
            }
            // The start is logged at the clock of the state it starts.
            let (turn, phase) = match &e.kind {
                EntryKind::Start { initial } => (initial.turn, initial.phase_name().to_string()),
                _ => g.when(),
            };
            if e.turn != turn {
                return Err(bad(format!(
                    "`turn` is logged as {} but the game is at turn {turn} there",
                    e.turn
                )));
            }
            if e.phase != phase {
                return Err(bad(format!(
                    "`phase` is logged as \"{}\" but the game is in \"{phase}\" there",
                    e.phase
                )));
            }
            // What the entry's kind cannot be made now, the replay below refuses.
            if let Some((summary, rules, dice)) = g.written_with(&e.kind) {
                if summary != e.summary {
                    return Err(bad(format!(
                        "`summary`: the log says \"{}\" but its action gives \"{summary}\"",
                        e.summary
                    )));
                }
                if rules != e.rules {
                    return Err(bad(format!(
                        "`rules`: logged {} but its action cites {}",
                        shown(&e.rules),
                        shown(&rules)
                    )));
                }
                if dice != e.dice {
                    return Err(bad(
                        "`dice`: the dice shown in the log differ from the dice of its action"
                            .into(),
                    ));
                }
            }
            if let EntryKind::Act { action } = &e.kind
                && let Some((seeded, draws)) = stream_use(action)
            {
                let at = g.state.dice.draws;
                if (seeded == 0 && draws != at) || (seeded > 0 && draws <= at) {
                    return Err(bad(format!(
                        "`action.draws`: logged {draws}, but the dice stood at {at} and the entry \
                         has {seeded} seeded dice (none leave them there, any move them on)"
                    )));
                }
            }
            if let EntryKind::Act { action } = &e.kind
                && recheck(&g, action, e.rev).map_err(bad)?
            {
                checked += 1;
            }
            if i > 0 {
                g.step(&e.kind, i, e.rev)
                    .map_err(|err| bad(err.to_string()))?;
            }
            // The game before the next entry holds this one: a breach is judged on the
            // resolutions in effect, which are read with their entries.
            g.log.push(e.clone());
            before = Some(e);
        }
        Ok(checked)
    }

    /// Reveals the seed (logged), so players can check the commitment and every roll.
    pub fn reveal(&mut self, now: DateTime<Utc>) -> Result<&LogEntry, ActionError> {
        let s = self
            .secret
            .clone()
            .ok_or_else(|| ActionError::Invalid("this copy of the game has no seed".into()))?;
        if self.state.dice.revealed.is_some() {
            return Err(ActionError::Invalid("the seed is already revealed".into()));
        }
        let kind = EntryKind::Reveal {
            seed: s.seed,
            salt: s.salt.clone(),
        };
        let when = self.when();
        self.step(&kind, self.log.len(), super::LOG_REVISION)?;
        let summary = reveal_summary(s.seed, &self.state);
        Ok(self.push(kind, summary, vec!["DICE-2".into()], Vec::new(), when, now))
    }

    /// Re-rolls every seeded die of the log from the seed and checks it matches what was logged.
    /// Returns the number of seeded dice checked, or the first entry that does not match.
    ///
    /// The seeded stream is accounted for as well as the faces: every roll or resolution logs
    /// `draws`, the stream's position after it, and it must be exactly where its own seeded dice
    /// leave the stream, so an entry whose dice are all entered must not move it. A seeded die
    /// relabelled "entered" (with another value) therefore shows: the position moved with no seeded
    /// die to account for it, or the next seeded die comes from the wrong place in the stream.
    /// Each entry's `dice` must also be the dice of its action (the log shows the former, the
    /// replay uses the latter).
    pub fn audit_dice(&self, seed: u64) -> Result<usize, ReplayError> {
        let start = match self.log.first().map(|e| &e.kind) {
            Some(EntryKind::Start { initial }) => initial.dice.draws,
            _ => 0,
        };
        let mut cursor = start;
        // One stream, read on from entry to entry (resuming it for each entry would re-draw the
        // whole stream every time: quadratic in a long game).
        let mut src = DiceSource::resume(seed, cursor);
        let mut checked = 0usize;
        for (i, e) in self.log.iter().enumerate() {
            let bad = |message: String| ReplayError::Entry { index: i, message };
            let EntryKind::Act { action } = &e.kind else {
                if !e.dice.is_empty() {
                    return Err(bad("dice logged on an entry that rolls none".into()));
                }
                continue;
            };
            let (dice, draws) = match action {
                Action::Roll { dice, draws, .. } => (dice, *draws),
                Action::Resolved {
                    resolution, draws, ..
                } => (&resolution.dice, *draws),
                _ => {
                    if !e.dice.is_empty() {
                        return Err(bad("dice logged on an action that rolls none".into()));
                    }
                    continue;
                }
            };
            if e.dice != *dice {
                return Err(bad(
                    "the dice shown in the log differ from the dice of its action".into(),
                ));
            }
            if src.draws() != cursor {
                src = DiceSource::resume(seed, cursor);
            }
            let mut seeded = 0usize;
            for d in dice.iter().filter(|d| d.source == RollSource::Seeded) {
                let v = src.roll(d.die, &d.label).map_err(|e| bad(e.to_string()))?;
                if v != d.value {
                    return Err(bad(format!(
                        "logged {} {} = {}, but the seed gives {v}",
                        d.label, d.die, d.value
                    )));
                }
                seeded += 1;
            }
            src.take_rolls();
            if src.draws() != draws {
                return Err(bad(if seeded == 0 {
                    format!(
                        "dice position {draws} logged, but the entry has no seeded die to move it \
                         from {cursor} (a seeded die was relabelled \"entered\"?)"
                    )
                } else {
                    format!(
                        "dice position {draws} logged, its {seeded} seeded dice leave the seed at {} \
                         (a seeded die was added, removed or relabelled)",
                        src.draws()
                    )
                }));
            }
            checked += seeded;
            cursor = draws;
        }
        Ok(checked)
    }

    /// Forgets every log entry from `len` on, as if they had never been made: the game is rebuilt
    /// from the first `len` entries (the undo history included). For an action that could not be
    /// journaled, so it never reappears; the rebuild is a full replay, on that rare path only.
    pub fn rewind(&mut self, len: usize) -> Result<(), ReplayError> {
        if len >= self.log.len() {
            return Ok(());
        }
        let log = self.log.get(..len).unwrap_or_default().to_vec();
        *self = Game::from_log(log, self.secret.clone())?;
        Ok(())
    }
}

/// The summary of a game's first entry.
fn start_summary(state: &GameState) -> String {
    format!(
        "{} begins; dice seed commitment {}",
        state.title, state.dice.commitment
    )
}

/// The summary of the seed's reveal.
fn reveal_summary(seed: u64, state: &GameState) -> String {
    format!(
        "dice seed revealed: {seed} (commitment {})",
        state.dice.commitment
    )
}

/// The rule ids logged with `action` applied to `state`: the action's own, and a due check's rule
/// when it does or waives one.
fn act_rules(state: &GameState, action: &Action) -> Vec<String> {
    let mut rules: Vec<String> = action
        .rules(state.system)
        .iter()
        .map(|r| r.as_str().to_string())
        .collect();
    if let Action::ResolveDue { id, .. } | Action::WaiveDue { id, .. } = action
        && let Some(d) = state.due.iter().find(|d| d.id == *id)
    {
        rules.push(d.rule.as_str().to_string());
    }
    rules
}

/// `logged` and `given` as JSON, for a message.
fn shown<T: serde::Serialize>(x: &T) -> String {
    serde_json::to_string(x).unwrap_or_else(|e| e.to_string())
}

/// A roll's or a resolution's seeded dice and the stream position it logged after them.
fn stream_use(action: &Action) -> Option<(usize, u64)> {
    let (dice, draws) = match action {
        Action::Roll { dice, draws, .. } => (dice, *draws),
        Action::Resolved {
            resolution, draws, ..
        } => (&resolution.dice, *draws),
        _ => return None,
    };
    let seeded = dice
        .iter()
        .filter(|d| d.source == RollSource::Seeded)
        .count();
    Some((seeded, draws))
}
