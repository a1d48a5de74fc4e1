//! The move language: the words `kepi game apply` takes (`lose u1 2`, `fire u1 --at u2`,
//! `next-phase` ...), their grammar, and the one path that applies them to a game and its store.
//!
//! The command line, the host of `kepi serve` and the window on the network all speak it, so a verb
//! means the same wherever it is typed. It sits below all three (docs/ARCHITECTURE.md): its
//! errors are typed ([`MoveError`]: usage, refused, failed) and each front end says them its own
//! way (the command line maps them to exit codes 2, 2 and 1).

pub mod grammar;
pub mod play;

/// The number-range parsers every typed number goes through (now in the engine, below the rule
/// sets' grammars).
pub use kepi_game::engine::verbs::num;
/// A move's typed errors (declared in the engine, so a rule set's grammar can say them).
pub use kepi_game::engine::verbs::{MoveError, MoveErrorKind};

use chrono::Utc;
use serde::Serialize;

use kepi_game::dice::DiceExpr;
use kepi_game::engine::game::{
    Action, Counter, Flag, Game, GameState, Level, LogEntry, Supply, UnitState,
};
use kepi_game::engine::play::breaches::WentAhead;
use kepi_game::roster::{Facing, Position};
use kepi_game::rules::Tables;
use kepi_game::store::{Recorded, Store};
use play::PlayVerb;

/// A unit as `kepi game show --json` prints it.
#[derive(Serialize)]
pub struct UnitView<'a> {
    /// The unit's `id` as the JSON prints it.
    pub id: &'a str,
    /// The unit's `name` as the JSON prints it.
    pub name: &'a str,
    /// The unit's `side` as the JSON prints it.
    pub side: &'a str,
    /// The unit's `nation` as the JSON prints it.
    pub nation: &'a str,
    /// The unit's `arm` as the JSON prints it.
    pub arm: &'a str,
    /// The unit's `quality` as the JSON prints it.
    pub quality: Option<&'a str>,
    /// The unit's `strength` as the JSON prints it.
    pub strength: u32,
    /// The unit's `max_strength` as the JSON prints it.
    pub max_strength: u32,
    /// The unit's `fatigue` as the JSON prints it.
    pub fatigue: u32,
    /// The unit's `level` as the JSON prints it.
    pub level: &'a str,
    /// The unit's `leaders` as the JSON prints it.
    pub leaders: u32,
    /// The unit's `max_leaders` as the JSON prints it.
    pub max_leaders: u32,
    /// The unit's `melees` as the JSON prints it.
    pub melees: u32,
    /// The unit's `flags` as the JSON prints it ([`SHOWN_AS_FLAGS`]).
    pub flags: Vec<&'static str>,
    /// The markers of its rule set's own kinds (issue 45) not shown as `flags`, by name; left out
    /// when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<&'a str>,
    /// The unit's `position` as the JSON prints it.
    pub position: String,
    /// The unit's `hex` as the JSON prints it.
    pub hex: Option<String>,
    /// The unit's `facing` as the JSON prints it.
    pub facing: Option<&'a str>,
    /// The unit's `supply` as the JSON prints it.
    pub supply: &'a str,
    /// The unit's `weapon` as the JSON prints it.
    pub weapon: Option<&'a str>,
    /// The unit's `formation` as the JSON prints it.
    pub formation: Option<&'a str>,
    /// The unit's `location` as the JSON prints it.
    pub location: Option<&'a str>,
    /// The unit's `arrives` as the JSON prints it.
    pub arrives: Option<u32>,
    /// The unit's `eliminated` as the JSON prints it.
    pub eliminated: bool,
    /// The unit's `oob` as the JSON prints it.
    pub oob: &'a kepi_game::roster::Oob,
}

/// What `kepi game show` lists as a unit's `flags` (its JSON's keys are a public contract): the
/// engine's flags and the markers the older sets' units carried as flags before issue 45
/// (`disorganised`, `entrained` ..., now their sets' own: [`kepi_game::engine::game::unit_wire`]),
/// in the order it always listed them. Other markers are its `marks`.
pub const SHOWN_AS_FLAGS: [&str; 14] = [
    "disordered",
    "muddled",
    "limbered",
    "moved",
    "fired",
    "activated",
    "flag-lost",
    "disorganised",
    "entrained",
    "hidden",
    "must-retreat",
    "extended",
    "at-sea",
    "stormed",
];

/// A unit as `kepi game show --json` prints it.
pub fn unit_view(u: &UnitState) -> UnitView<'_> {
    UnitView {
        id: &u.unit.id,
        name: &u.unit.name,
        side: u.unit.side.as_str(),
        nation: &u.unit.nation,
        arm: u.unit.arm.as_str(),
        quality: u.unit.quality.map(|q| q.as_str()),
        strength: u.strength,
        max_strength: u.max_strength,
        fatigue: u.fatigue,
        level: u.level.as_str(),
        leaders: u.leaders,
        max_leaders: u.max_leaders,
        melees: u.melees,
        flags: SHOWN_AS_FLAGS
            .into_iter()
            .filter(|n| match Flag::ALL.iter().find(|f| f.as_str() == *n) {
                Some(f) => u.flag(*f),
                None => u.has_mark(n),
            })
            .collect(),
        marks: u
            .marks
            .iter()
            .map(String::as_str)
            .filter(|m| !SHOWN_AS_FLAGS.contains(m))
            .collect(),
        position: u.position.to_string(),
        hex: u.position.hex().map(|h| h.to_string()),
        facing: u.facing.map(|f| f.as_str()),
        supply: u.supply.as_str(),
        weapon: u.unit.weapon.map(|w| w.as_str()),
        formation: u.unit.formation.map(|f| f.as_str()),
        location: u.unit.location.as_deref(),
        arrives: u.unit.arrives,
        eliminated: u.eliminated(),
        oob: &u.unit.oob,
    }
}

/// What `kepi game show --json` prints.
#[derive(Serialize)]
pub struct ShowOut<'a> {
    system: &'a str,
    scenario: &'a str,
    title: &'a str,
    turn: u32,
    phase: &'a str,
    phase_index: usize,
    date: Option<String>,
    commitment: &'a str,
    dice_draws: u64,
    log_entries: usize,
    head: String,
    can_undo: bool,
    can_redo: bool,
    /// The scale the table measures at (issue 28): {"unit": "in"|"cm", "factor": "1/2"}.
    scale: kepi_game::rules::Scale,
    /// The board's map the game carries (issue 41), or null.
    map: Option<MapOut<'a>>,
    units: Vec<UnitView<'a>>,
    /// The sieges laid (1870 FR-F1, FR-B1): each place, its cells, besieger, besieging units and
    /// blockade marker, as the save holds them; left out when there are none.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    sieges: &'a [kepi_game::engine::game::Siege],
    /// The markers on the board's cells (issue 45): `[{"kind", "cell"}]`, left out when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    marks: Vec<MarkOut<'a>>,
}

/// A cell's marker in `kepi game show --json`: its kind and the cell's label.
#[derive(Serialize)]
pub struct MarkOut<'a> {
    kind: &'a str,
    cell: String,
}

/// The map in `kepi game show --json` (issue 41): {"file", "name", "sha256", "reads", "problem"}.
#[derive(Serialize)]
pub struct MapOut<'a> {
    /// The file it was read from when the game began (`<built-in NAME>` for kepi's own).
    pub file: &'a str,
    /// Its `[map] name`.
    pub name: &'a str,
    /// SHA-256 of the text the game carries.
    pub sha256: &'a str,
    /// False when the carried text does not read here (then the game plays without it).
    pub reads: bool,
    /// Why it does not read, or null.
    pub problem: Option<&'a str>,
}

/// The map part of `kepi game show --json`.
pub fn map_out(m: &kepi_game::map::MapFile) -> MapOut<'_> {
    MapOut {
        file: &m.file,
        name: m.name(),
        sha256: &m.sha256,
        reads: m.map().is_ok(),
        problem: m.map().err(),
    }
}

/// The game as `kepi game show --json` prints it.
pub fn show_out<'a>(s: &'a GameState, game: &Game) -> ShowOut<'a> {
    ShowOut {
        system: s.system.id(),
        scenario: &s.scenario,
        title: &s.title,
        turn: s.turn,
        phase: s.phase_name(),
        phase_index: s.phase,
        date: s.date.map(|d| d.to_string()),
        commitment: &s.dice.commitment,
        dice_draws: s.dice.draws,
        log_entries: game.log().len(),
        head: game.head(),
        can_undo: game.can_undo(),
        can_redo: game.can_redo(),
        scale: s.scale,
        map: s.map.as_ref().map(map_out),
        units: s.units.iter().map(unit_view).collect(),
        sieges: &s.sieges,
        marks: s
            .marks
            .iter()
            .map(|m| MarkOut {
                kind: &m.kind,
                cell: m.cell.to_string(),
            })
            .collect(),
    }
}

/// The JSON `kepi game show --json` prints, as a value (the host's per-seat view starts from it).
pub fn show_value(s: &GameState, game: &Game) -> serde_json::Value {
    serde_json::to_value(show_out(s, game)).unwrap_or(serde_json::Value::Null)
}

/// One parsed verb.
enum Verb {
    Act(Action),
    Undo,
    Redo,
    Roll(DiceExpr, Vec<u32>),
    Reveal,
    Play(PlayVerb),
}

/// Every verb of `kepi game apply` (a waive reason stops before one of these).
const VERBS: &[&str] = &[
    "lose",
    "gain",
    "fatigue",
    "rest",
    "reset-fatigue",
    "leader",
    "lose-leader",
    "level",
    "flag",
    "move",
    "face",
    "supply",
    "mark",
    "unmark",
    "set",
    "next-phase",
    "next",
    "undo",
    "redo",
    "reveal",
    "roll",
    "note",
    "scale",
    "resolve-due",
    "waive",
    "form",
    "action",
];

/// The word at `*i`, moving past it, or the usage error saying `verb` needs `what`.
fn take_word(words: &[String], i: &mut usize, what: &str, verb: &str) -> Result<String, MoveError> {
    let w = words.get(*i).cloned().ok_or_else(|| {
        MoveError::usage(format!(
            "`{verb}` needs {what} (see `kepi game apply --help`)"
        ))
    })?;
    *i += 1;
    Ok(w)
}

// The match over the verbs stays one flat table, one arm per verb, so the grammar reads in one
// place; the verbs that read more than their fixed words (`move --mp`, `roll --dice`, `scale`'s
// factor, `waive`'s reason) are read by their own functions below.
/// Reads `kepi game apply`'s words into verbs, each with what was asked, checking each as it is
/// read (units named, numbers in range, words of the vocabularies).
/// Over 150 lines: one flat table, one arm per verb (see above).
fn parse_verbs(
    words: &[String],
    s: &GameState,
    tables: &Tables,
) -> Result<Vec<(Asked, Verb)>, MoveError> {
    let mut out = Vec::new();
    let mut i = 0;
    let take = |i: &mut usize, what: &str, verb: &str| take_word(words, i, what, verb);
    let unit = |key: &str| -> Result<String, MoveError> { Ok(s.find(key)?.unit.id.clone()) };
    let num = |w: &str, verb: &str| -> Result<u32, MoveError> {
        num::parse_within(w, kepi_game::rules::limits::COUNT)
            .map_err(|m| MoveError::usage(format!("`{verb}` N: {m}")))
    };
    let onoff = |w: &str, verb: &str| -> Result<bool, MoveError> {
        match w.to_ascii_lowercase().as_str() {
            "on" | "true" | "yes" | "1" => Ok(true),
            "off" | "false" | "no" | "0" => Ok(false),
            _ => Err(MoveError::usage(format!(
                "`{verb}`: `{w}` (accepted: on, off)"
            ))),
        }
    };
    while i < words.len() {
        let verb = words[i].to_ascii_lowercase();
        i += 1;
        // A verb after others is refused (or not) by the state they leave, when it applies.
        let when = if out.is_empty() {
            play::Checked::Now
        } else {
            play::Checked::WhenApplied
        };
        let v = match verb.as_str() {
            "lose" | "gain" | "fatigue" => {
                let u = unit(&take(&mut i, "UNIT N", &verb)?)?;
                let n = num(&take(&mut i, "UNIT N", &verb)?, &verb)?;
                Verb::Act(match verb.as_str() {
                    "lose" => Action::LoseStrength { unit: u, n },
                    "gain" => Action::GainStrength { unit: u, n },
                    _ => Action::AddFatigue { unit: u, n },
                })
            }
            "rest" | "reset-fatigue" => Verb::Act(Action::ResetFatigue {
                unit: unit(&take(&mut i, "UNIT", &verb)?)?,
            }),
            "leader" | "lose-leader" => Verb::Act(Action::LoseLeader {
                unit: unit(&take(&mut i, "UNIT", &verb)?)?,
            }),
            "level" => {
                let u = unit(&take(&mut i, "UNIT LEVEL", &verb)?)?;
                let level = word(take(&mut i, "UNIT LEVEL", &verb)?.parse::<Level>(), &verb)?;
                Verb::Act(Action::SetLevel { unit: u, level })
            }
            "flag" => {
                let u = unit(&take(&mut i, "UNIT FLAG on|off", &verb)?)?;
                let name = take(&mut i, "UNIT FLAG on|off", &verb)?;
                // The engine's flags, then the markers the rule set declares (issue 45).
                let act = match name.parse::<Flag>() {
                    Ok(flag) => FlagOrMark::Flag(flag),
                    Err(m) => own_marker(s, &name, &verb, m)?,
                };
                let on = onoff(&take(&mut i, "UNIT FLAG on|off", &verb)?, &verb)?;
                Verb::Act(act.action(u, on))
            }
            "move" => {
                let u = unit(&take(&mut i, "UNIT HEX [--mp N]", &verb)?)?;
                let to = word(
                    take(&mut i, "UNIT HEX [--mp N]", &verb)?.parse::<Position>(),
                    &verb,
                )?;
                let mp = move_points(words, &mut i, &verb, s)?;
                Verb::Act(Action::Move {
                    effects: Vec::new(),
                    unit: u,
                    to,
                    notes: Vec::new(),
                    mp,
                })
            }
            "face" => {
                let u = unit(&take(&mut i, "UNIT DIR", &verb)?)?;
                let d = take(&mut i, "UNIT DIR", &verb)?;
                let facing = if d.eq_ignore_ascii_case("none") {
                    None
                } else {
                    Some(word(d.parse::<Facing>(), &verb)?)
                };
                Verb::Act(Action::Face { unit: u, facing })
            }
            "supply" => {
                let u = unit(&take(&mut i, "UNIT STATE", &verb)?)?;
                let supply = word(take(&mut i, "UNIT STATE", &verb)?.parse::<Supply>(), &verb)?;
                Verb::Act(Action::SetSupply { unit: u, supply })
            }
            "mark" | "unmark" => {
                let kind = take(&mut i, "KIND CELL", &verb)?.to_ascii_lowercase();
                let cell = word(take(&mut i, "KIND CELL", &verb)?.parse::<Position>(), &verb)?;
                Verb::Act(Action::Mark {
                    kind,
                    cell,
                    on: verb == "mark",
                })
            }
            "set" => {
                let what = "UNIT FIELD VALUE";
                let u = unit(&take(&mut i, what, &verb)?)?;
                let field = take(&mut i, what, &verb)?.to_ascii_lowercase();
                let value = take(&mut i, what, &verb)?;
                Verb::Act(set_action(s, u, &field, &value)?)
            }
            "next-phase" | "next" => Verb::Act(Action::NextPhase),
            "undo" => Verb::Undo,
            "redo" => Verb::Redo,
            "reveal" => Verb::Reveal,
            "roll" => parse_roll(words, &mut i, &verb)?,
            "form" => Verb::Play(play::parse_form(words, &mut i, s, tables, when)?),
            "action" => {
                let text = take(&mut i, "JSON", &verb)?;
                Verb::Act(raw_action(&text)?)
            }
            "note" => Verb::Act(Action::Note {
                text: take(&mut i, "TEXT", &verb)?,
            }),
            "scale" => Verb::Act(Action::Scale {
                scale: parse_scale(words, &mut i, &verb)?,
            }),
            "resolve-due" | "done" => Verb::Act(Action::ResolveDue {
                id: due_id(&take(&mut i, "ID", &verb)?, &verb)?,
                effects: Vec::new(),
            }),
            "waive" => {
                let id = due_id(&take(&mut i, "ID [REASON]", &verb)?, &verb)?;
                let reason = waive_reason(words, &mut i);
                Verb::Act(Action::WaiveDue { id, reason })
            }
            v if play::is_play_verb(v) => {
                Verb::Play(play::parse(v, words, &mut i, s, tables, when)?)
            }
            other => {
                return Err(MoveError::usage(format!(
                    "unknown verb `{other}` (accepted: lose, gain, fatigue, rest, leader, level, flag, set, move, face, supply, mark, unmark, next-phase, undo, redo, roll, note, scale, reveal, resolve-due, waive, {})",
                    play::verbs_for(s.system.system()).join(", ")
                )));
            }
        };
        let resolution_by = match &v {
            Verb::Play(p) => Some(p.actor.clone()),
            _ => None,
        };
        out.push((
            Asked {
                verb,
                resolution_by,
            },
            v,
        ));
    }
    Ok(out)
}

/// `move`'s `--mp N` (or `--mp=N`) when it follows: SPI's movement points the move costs, as the
/// umpire counts them on the printed map (terrain, rivers, zones of control). Refused in a rule
/// set that counts none.
fn move_points(
    words: &[String],
    i: &mut usize,
    verb: &str,
    s: &GameState,
) -> Result<Option<u32>, MoveError> {
    let mut mp = None;
    if let Some(w) = words
        .get(*i)
        .filter(|w| *w == "--mp" || w.starts_with("--mp="))
    {
        *i += 1;
        let v = match w.split_once('=') {
            Some((_, v)) => v.to_string(),
            None => take_word(words, i, "UNIT HEX --mp N", verb)?,
        };
        if !s.system.counts_movement_points() {
            return Err(MoveError::usage(format!(
                "`move --mp`: {} counts no movement points",
                s.system.title()
            )));
        }
        mp = Some(
            num::parse_within(&v, kepi_game::rules::limits::COUNT)
                .map_err(|m| MoveError::usage(format!("`move --mp` N: {m}")))?,
        );
    }
    Ok(mp)
}

/// `roll EXPR [--dice V,...]`: the dice expression and the dice typed in, each checked against
/// the die and counted against the expression.
fn parse_roll(words: &[String], i: &mut usize, verb: &str) -> Result<Verb, MoveError> {
    let e = take_word(words, i, "EXPR [--dice V,...]", verb)?;
    let expr = e
        .parse::<DiceExpr>()
        .map_err(|m| MoveError::usage(format!("`roll`: {m}")))?;
    let mut entered = Vec::new();
    if let Some(w) = words.get(*i).filter(|w| w.starts_with("--dice")) {
        *i += 1;
        let text = match w.split_once('=') {
            Some((_, v)) => v.to_string(),
            None => take_word(words, i, "EXPR --dice V,...", verb)?,
        };
        for t in text.split(',').map(str::trim).filter(|t| !t.is_empty()) {
            let v = t.parse::<u32>().map_err(|_| {
                MoveError::usage(format!(
                    "`roll --dice`: `{t}` is not a number (e.g. roll 2d6 --dice 3,5)"
                ))
            })?;
            expr.die()
                .check(v)
                .map_err(|e| MoveError::usage(format!("`roll --dice`: {e}")))?;
            entered.push(v);
        }
        if entered.len() != expr.count as usize {
            return Err(MoveError::usage(format!(
                "`roll {expr} --dice`: {} value(s) needed, got {}",
                expr.count,
                entered.len()
            )));
        }
    }
    Ok(Verb::Roll(expr, entered))
}

/// `scale UNIT [FACTOR]` (issue 28): `scale cm 1/2`, `scale in` (factor 1 when not given).
fn parse_scale(
    words: &[String],
    i: &mut usize,
    verb: &str,
) -> Result<kepi_game::rules::Scale, MoveError> {
    let unit = take_word(words, i, "UNIT [FACTOR] (e.g. scale cm 1/2)", verb)?;
    let mut text = unit;
    if let Some(w) = words.get(*i)
        && w.parse::<kepi_game::dice::Ratio>().is_ok()
    {
        *i += 1;
        text = format!("{text} {w}");
    }
    text.parse::<kepi_game::rules::Scale>()
        .map_err(|m| MoveError::usage(format!("`scale`: {m}")))
}

/// `waive ID [REASON]`'s reason: the next word unless it is a verb (then there is none).
fn waive_reason(words: &[String], i: &mut usize) -> String {
    match words.get(*i) {
        Some(w)
            if !VERBS.contains(&w.to_ascii_lowercase().as_str())
                && !play::is_play_verb(&w.to_ascii_lowercase()) =>
        {
            *i += 1;
            w.clone()
        }
        _ => String::new(),
    }
}

/// `action JSON`: one [`Action`] as the log writes it (a window on the network sends its edits
/// this way). Dice are never taken from outside: a roll or a resolution is made by the host with
/// `roll` or a resolution verb, so `roll` and `resolved` actions are refused here.
fn raw_action(text: &str) -> Result<Action, MoveError> {
    let a: Action = serde_json::from_str(text).map_err(|e| {
        MoveError::usage(format!(
            "`action`: not an action as the log writes it ({e}); e.g. action '{{\"type\":\"lose-strength\",\"unit\":\"u1\",\"n\":1}}'"
        ))
    })?;
    if matches!(a, Action::Roll { .. } | Action::Resolved { .. }) {
        return Err(MoveError::usage(
            "`action`: dice are rolled here, not sent: use `roll EXPR` or a resolution verb",
        ));
    }
    Ok(a)
}

fn due_id(w: &str, verb: &str) -> Result<u64, MoveError> {
    w.trim_start_matches('#').parse::<u64>().map_err(|_| {
        MoveError::usage(format!(
            "`{verb}`: `{w}` is not a due check id (see `kepi game due FILE`)"
        ))
    })
}

/// What `flag UNIT NAME` names: one of the engine's flags, or a marker the rule set declares.
enum FlagOrMark {
    Flag(Flag),
    Mark(&'static str),
}

impl FlagOrMark {
    /// The action that puts it on or takes it off `unit`: a flag is set, a marker as
    /// [`kepi_game::engine::game::unit_wire::mark_action`] says.
    fn action(self, unit: String, on: bool) -> Action {
        match self {
            FlagOrMark::Flag(flag) => Action::SetFlag {
                unit,
                flag: flag.into(),
                on,
            },
            FlagOrMark::Mark(kind) => {
                kepi_game::engine::game::unit_wire::mark_action(unit, kind, on)
            }
        }
    }
}

/// `name`, not an engine flag (`why`), as a marker of the game's rule set's own kinds
/// ([`kepi_game::engine::rule_set::RuleSet::unit_markers`]), or the usage error listing both.
fn own_marker(s: &GameState, name: &str, verb: &str, why: String) -> Result<FlagOrMark, MoveError> {
    let own = s.system.unit_markers();
    let word = kepi_game::engine::game::unit_wire::typed_word(name);
    if let Some(k) = own
        .iter()
        .find(|k| k.name == word || k.aliases.contains(&word.as_str()))
    {
        return Ok(FlagOrMark::Mark(k.name));
    }
    if own.is_empty() {
        return Err(MoveError::usage(format!("`{verb}`: {why}")));
    }
    let names: Vec<&str> = own.iter().map(|k| k.name).collect();
    Err(MoveError::usage(format!(
        "`{verb}`: {why}; or a marker of {}: {}",
        s.system.title(),
        names.join(", ")
    )))
}

fn word<T>(r: Result<T, String>, verb: &str) -> Result<T, MoveError> {
    r.map_err(|m| MoveError::usage(format!("`{verb}`: {m}")))
}

fn set_action(s: &GameState, unit: String, field: &str, value: &str) -> Result<Action, MoveError> {
    let bad = |m: String| MoveError::usage(format!("`set {field}`: {m}"));
    if let Ok(counter) = field.parse::<Counter>() {
        let value = num::parse_within(value, kepi_game::rules::limits::COUNT).map_err(bad)?;
        return Ok(Action::SetCount {
            unit,
            counter,
            value,
            notes: Vec::new(),
        });
    }
    let flag_or_mark = match field.parse::<Flag>() {
        Ok(flag) => Some(FlagOrMark::Flag(flag)),
        Err(m) => own_marker(s, field, "set", m).ok(),
    };
    if let Some(what) = flag_or_mark {
        let on = match value.to_ascii_lowercase().as_str() {
            "on" | "true" | "yes" | "1" => true,
            "off" | "false" | "no" | "0" => false,
            _ => return Err(bad(format!("`{value}` (accepted: on, off)"))),
        };
        return Ok(what.action(unit, on));
    }
    Ok(match field {
        "level" => Action::SetLevel {
            unit,
            level: value.parse().map_err(bad)?,
        },
        "supply" => Action::SetSupply {
            unit,
            supply: value.parse().map_err(bad)?,
        },
        "facing" => Action::Face {
            unit,
            facing: if value.eq_ignore_ascii_case("none") {
                None
            } else {
                Some(value.parse().map_err(bad)?)
            },
        },
        "position" | "hex" => Action::Move {
            effects: Vec::new(),
            unit,
            to: value.parse().map_err(bad)?,
            notes: Vec::new(),
            mp: None,
        },
        _ => {
            let own: Vec<&str> = s.system.unit_markers().iter().map(|k| k.name).collect();
            let own = if own.is_empty() {
                String::new()
            } else {
                format!(", {}", own.join(", "))
            };
            return Err(bad(format!(
                "unknown field (accepted: {}, {}{own}, level, supply, facing, position)",
                Counter::accepted(),
                Flag::accepted()
            )));
        }
    })
}

/// What one verb of `kepi game apply` asks to do, for a seat's permission check (`kepi serve`
/// lets a player make resolutions with their own side's units only).
#[derive(Clone, Debug)]
pub struct Asked {
    /// The verb as typed, lower-cased (`lose`, `fire`).
    pub verb: String,
    /// For a resolution verb, the id of the acting unit; `None` for every other verb.
    pub resolution_by: Option<String>,
}

/// Parses the words of `kepi game apply` and asks `permit` about each verb, applying nothing: the
/// host checks a player's request this way before it holds it for the umpire's approval, so a
/// request that would be refused is refused at once instead of waiting. Returns the verbs asked.
pub fn check_verbs<E: From<MoveError>>(
    words: &[String],
    state: &GameState,
    tables: &Tables,
    permit: &dyn Fn(&Asked, &GameState) -> Result<(), E>,
) -> Result<Vec<Asked>, E> {
    let verbs = parse_verbs(words, state, tables)?;
    let mut asked = Vec::with_capacity(verbs.len());
    for (a, _) in verbs {
        permit(&a, state)?;
        asked.push(a);
    }
    Ok(asked)
}

/// The fields of the words' forms that depend on what the games `a` and `b` differ in and that
/// the words set anyway (see [`play::stated_hidden`]): the host of `kepi serve` refuses them
/// to a seat the other side's strengths are hidden from ([`crate::net::redact::judge`]).
pub fn stated_hidden(
    words: &[String],
    a: &GameState,
    b: &GameState,
    tables: &Tables,
) -> Result<Vec<String>, MoveError> {
    let mut out = Vec::new();
    for (_, v) in parse_verbs(words, a, tables)? {
        if let Verb::Play(p) = v {
            out.extend(play::stated_hidden(&p, a, b, tables)?);
        }
    }
    Ok(out)
}

/// Builds every resolution verb of the words on `state` as [`apply_verbs`] would before rolling
/// (its form pre-filled and set, the rules' checks, its preview), applying nothing: the host judges a
/// request of a seat with hidden strengths this way on its stand-in games (issue 44).
pub fn check_built(words: &[String], state: &GameState, tables: &Tables) -> Result<(), MoveError> {
    for (_, v) in parse_verbs(words, state, tables)? {
        if let Verb::Play(p) = v {
            let p = p.with_game_defaults(state);
            let ready = play::build(&p, state, tables).map_err(|e| e.at_scale(&state.scale))?;
            // What the rules refuse before any die is rolled (a limbered battery firing...),
            // as the roll would say it: the preview rolls nothing.
            ready
                .resolve(state, tables, None)
                .map_err(|e| MoveError::refused(e.to_string()).at_scale(&state.scale))?;
        }
    }
    Ok(())
}

/// The resolution verbs of the words that enter a result of their own (`--result`) against a
/// unit of another side than `side` ([`play::enters_result_against`]), by verb name.
pub fn entered_results(
    words: &[String],
    state: &GameState,
    tables: &Tables,
    side: kepi_game::roster::Side,
) -> Result<Vec<String>, MoveError> {
    let mut out = Vec::new();
    for (asked, v) in parse_verbs(words, state, tables)? {
        if let Verb::Play(p) = v
            && play::enters_result_against(&p, state, tables, side)?
        {
            out.push(asked.verb);
        }
    }
    Ok(out)
}

/// What the rules say against the resolutions of a request on `game` as it is (the phase, a
/// unit that already attacked, attackers not adjacent): what the umpire reads beside a player's
/// request before approving it, and what its log entry would note. Empty for words that do not
/// parse (those are refused, not approved).
pub fn request_warnings(words: &[String], game: &Game, tables: &Tables) -> Vec<String> {
    let Ok(verbs) = parse_verbs(words, game.state(), tables) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (_, v) in verbs {
        if let Verb::Play(p) = v {
            let p = p.with_game_defaults(game.state());
            if let Ok(form) = play::build(&p, game.state(), tables) {
                out.extend(form.phase_warnings(game, tables));
            }
        }
    }
    out
}

/// Applies the words of `kepi game apply` to an open game, the one path both `kepi game apply` and
/// the host of `kepi serve` take, so the verbs mean the same wherever they are typed.
///
/// Every verb is parsed and passed to `permit` before any applies (a typo or a refused verb refuses
/// the whole request). Then each is applied, journaled and fsynced ([`Store::record`]) and only then
/// handed to `applied`, with what the record said. A verb the rules refuse stops there (the verbs
/// before it stand); a record that fails is dropped from the game too ([`Game::rewind`]), so a
/// long-lived host never shows an action that is not on disk.
pub fn apply_verbs<E: From<MoveError>>(
    game: &mut Game,
    store: &mut Store,
    words: &[String],
    tables: &Tables,
    permit: &dyn Fn(&Asked, &GameState) -> Result<(), E>,
    applied: &mut dyn FnMut(&LogEntry, Recorded, &GameState) -> Result<(), E>,
) -> Result<(), E> {
    apply_verbs_as(
        game,
        store,
        words,
        tables,
        permit,
        applied,
        false,
        WentAhead::Umpire,
    )
}

/// [`apply_verbs`] for a seat the other side's strengths are hidden from (issue 44, the host of
/// `kepi serve`): a resolution the rules cannot build or finish on the real game (a chart cell
/// kepi does not know, losses that do not add up to the result, a check that depends on a
/// hidden strength) is not refused but logged as not applied, with the dice it rolled spent
/// ([`Game::log_not_applied`]), for the umpire to resolve. So the seat's answer is the same
/// whatever the hidden values and the next die are.
pub fn apply_verbs_for_hidden_seat<E: From<MoveError>>(
    game: &mut Game,
    store: &mut Store,
    words: &[String],
    tables: &Tables,
    permit: &dyn Fn(&Asked, &GameState) -> Result<(), E>,
    applied: &mut dyn FnMut(&LogEntry, Recorded, &GameState) -> Result<(), E>,
) -> Result<(), E> {
    apply_verbs_as(
        game,
        store,
        words,
        tables,
        permit,
        applied,
        true,
        WentAhead::Umpire,
    )
}

/// [`apply_verbs`] (or, `hidden`, [`apply_verbs_for_hidden_seat`]) for a seat at a table (the
/// host of `kepi serve`): what the rules say against a resolution is logged as `ahead` went ahead
/// with it (a player's own request, or one the umpire approved), not as the umpire's.
#[allow(clippy::too_many_arguments)]
pub fn apply_verbs_going_ahead<E: From<MoveError>>(
    game: &mut Game,
    store: &mut Store,
    words: &[String],
    tables: &Tables,
    permit: &dyn Fn(&Asked, &GameState) -> Result<(), E>,
    applied: &mut dyn FnMut(&LogEntry, Recorded, &GameState) -> Result<(), E>,
    hidden: bool,
    ahead: WentAhead,
) -> Result<(), E> {
    apply_verbs_as(game, store, words, tables, permit, applied, hidden, ahead)
}

#[allow(clippy::too_many_arguments)]
fn apply_verbs_as<E: From<MoveError>>(
    game: &mut Game,
    store: &mut Store,
    words: &[String],
    tables: &Tables,
    permit: &dyn Fn(&Asked, &GameState) -> Result<(), E>,
    applied: &mut dyn FnMut(&LogEntry, Recorded, &GameState) -> Result<(), E>,
    hand_over: bool,
    ahead: WentAhead,
) -> Result<(), E> {
    let verbs = parse_verbs(words, game.state(), tables)?;
    for (asked, v) in &verbs {
        permit(asked, game.state())?;
        refuse_act(v, game.state())?;
    }
    for (_, v) in verbs {
        let now = Utc::now();
        let before = game.log().len();
        // Checked again against the state the earlier verbs left (`lose X 9 gain X 1`).
        refuse_act(&v, game.state())?;
        let entry = apply_one(game, v, tables, now, hand_over, ahead)?;
        // A failed record leaves nothing behind (the journal is cut back) and stops here: this
        // action and the verbs after it are not made, and the game in memory forgets it.
        let recorded = match store.record(game) {
            Ok(r) => r,
            Err(e) => {
                let _ = game.rewind(before);
                // A 4,000-character note is named by its start.
                let mut what: String = entry.summary.chars().take(80).collect();
                if what.len() < entry.summary.len() {
                    what.push_str("...");
                }
                return Err(MoveError::failed(format!(
                    "{e}\n(`{what}` and any verbs after it were not applied)"
                ))
                .into());
            }
        };
        applied(&entry, recorded, game.state())?;
    }
    Ok(())
}

/// One parsed verb applied to `game` (not yet recorded): the log entry it made. What
/// [`apply_verbs`] does for each verb of a request, and the window for the words it is given
/// ([`apply_in_memory`]).
fn apply_one(
    game: &mut Game,
    v: Verb,
    tables: &Tables,
    now: chrono::DateTime<Utc>,
    hand_over: bool,
    ahead: WentAhead,
) -> Result<LogEntry, MoveError> {
    let entry = match v {
        // A due check's effects are read from the state it is done in (an earlier verb may
        // have queued it).
        Verb::Act(Action::ResolveDue { id, .. }) => game
            .act(
                kepi_game::engine::flow::resolve_due(game.state(), id, tables),
                now,
            )
            .map_err(MoveError::from)?,
        // What the rules say against the move is logged with it (the umpire went ahead).
        // Its cost (the umpire's `--mp`, else the rule set's count) too (SPI).
        Verb::Act(Action::Move { unit, to, mp, .. }) => {
            let a = kepi_game::engine::flow::move_action(game, unit, to, mp, tables);
            game.act(a, now).map_err(MoveError::from)?
        }
        // Issue 42: what the rules say against a count set (an eliminated unit brought back)
        // is logged with it.
        Verb::Act(Action::SetCount {
            unit,
            counter,
            value,
            ..
        }) => {
            let a = kepi_game::engine::flow::set_count_action(game.state(), unit, counter, value);
            game.act(a, now).map_err(MoveError::from)?
        }
        Verb::Act(a) => game.act(a, now).map_err(MoveError::from)?,
        Verb::Undo => game.undo(now).map_err(MoveError::from)?,
        Verb::Redo => game.redo(now).map_err(MoveError::from)?,
        Verb::Roll(e, entered) => game
            .roll_entered(&e, &entered, now)
            .map_err(MoveError::from)?,
        Verb::Reveal => game.reveal(now).map_err(MoveError::from)?,
        Verb::Play(p) => {
            let p = p.with_game_defaults(game.state());
            let scale = game.state().scale;
            let form = match play::build(&p, game.state(), tables) {
                Ok(f) => f,
                // Issue 44: a check the stand-ins passed ([`crate::net::redact::judge`]) that
                // the real game refuses depends on a hidden value: the umpire's to resolve.
                Err(e) if hand_over && e.code() == 2 => {
                    let asked = play::asked(&p, game.state(), tables);
                    let draws = game.state().dice.draws;
                    let why = e.at_scale(&scale).message;
                    return game
                        .log_not_applied(&why, asked, Vec::new(), draws, now)
                        .cloned()
                        .map_err(MoveError::from);
                }
                Err(e) => return Err(e.at_scale(&scale)),
            };
            // What is odd about this roll now (phase, side, a unit that already acted) goes
            // into its log entry, as the window's roll logs it, saying who went ahead with it.
            let warnings = form.phase_warnings(game, tables);
            let input = p.logged_input(&form);
            let resolve = |st: &GameState, dice: &mut kepi_game::dice::DiceSource| {
                form.resolve(st, tables, Some(dice))
                    .map(|(mut r, effects)| {
                        r.notes.extend(warnings.iter().map(|w| ahead.note(w)));
                        (r, effects)
                    })
            };
            if hand_over {
                game.resolve_logged_or_hand_over(p.units(), input, &p.entered, resolve, now)
            } else {
                game.resolve_logged(p.units(), input, &p.entered, resolve, now)
            }
            .map_err(|e| MoveError::from(e).at_scale(&scale))?
        }
    }
    .clone();
    Ok(entry)
}

/// The words of `kepi game apply` applied to a game held in memory (the window's, which records
/// them itself): parsed and checked before any applies, as [`apply_verbs`] does; on a refusal
/// the verbs before it stand. Returns the entries made, in order.
pub fn apply_in_memory(
    game: &mut Game,
    words: &[String],
    tables: &Tables,
) -> Result<Vec<LogEntry>, MoveError> {
    let verbs = parse_verbs(words, game.state(), tables)?;
    for (_, v) in &verbs {
        refuse_act(v, game.state())?;
    }
    let mut out = Vec::with_capacity(verbs.len());
    for (_, v) in verbs {
        refuse_act(&v, game.state())?;
        out.push(apply_one(
            game,
            v,
            tables,
            Utc::now(),
            false,
            WentAhead::Umpire,
        )?);
    }
    Ok(out)
}

/// An action by hand the rules make impossible ([`kepi_game::engine::play::refuse::action_refusal`]):
/// refused with the reason, nothing applied.
fn refuse_act(v: &Verb, s: &GameState) -> Result<(), MoveError> {
    match v {
        Verb::Act(a) => match kepi_game::engine::play::refuse::action_refusal(a, s) {
            Some(why) => Err(MoveError::refused(why)),
            None => Ok(()),
        },
        _ => Ok(()),
    }
}
