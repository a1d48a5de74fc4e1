//! The odds-ratio combat results table engine shared by SPI and 1870.
//!
//! Both games compare total attack strength with total defence strength, round the ratio in the
//! defender's favour to a printed column (SPI-C1, FR-C1), roll a d6 (modified by terrain and sieges) and
//! read a cell. This module holds what the two share: the [`Odds`] and their rounding, the strength
//! [`Tally`] whose every step is a modifier line, the CRT cells as data with provenance ([`CrtCells`]),
//! the lookup that turns a cell nobody has entered yet into [`Cell::Unknown`] ("enter the result from
//! your printed chart") instead of inventing a result, the exact distribution of the modified die over
//! the cells, the three-day calendar both games use (SPI-T1, FR-T1) and their two players
//! ([`Nation`]).

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use chrono::{Days, NaiveDate};
use serde::{Deserialize, Serialize};

use super::{Effect, ModifierLine, Resolution, RuleError, RuleId, RuleSetId, rolled_line};
use crate::dice::{DiceSource, Die, Dist, Ratio, Roll};
use crate::tables::{Check, Provenance, Sourced, TableError};

/// What kepi says when a roll lands in a cell the seed does not print.
pub const UNKNOWN_MESSAGE: &str = "enter the result from your printed chart";

/// The label of an unknown cell in the odds.
pub const UNKNOWN_ODDS_LABEL: &str = "unknown: enter from your printed chart";

/// Odds as a CRT prints them: `a:b` with one side 1 ("2:1", "1:3", "1:1").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Odds {
    /// The attacker's side of the ratio.
    pub attack: u32,
    /// The defender's side of the ratio.
    pub defend: u32,
}

impl Odds {
    /// `n:1`.
    pub const fn to_one(n: u32) -> Odds {
        Odds {
            attack: n,
            defend: 1,
        }
    }

    /// `1:n`.
    pub const fn one_to(n: u32) -> Odds {
        Odds {
            attack: 1,
            defend: n,
        }
    }

    /// A number ordering odds from worst to best for the attacker (1:3 < 1:2 < 1:1 < 2:1).
    pub fn key(&self) -> i64 {
        if self.defend > 1 {
            -(self.defend as i64)
        } else {
            self.attack as i64
        }
    }
}

impl PartialOrd for Odds {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Odds {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

impl fmt::Display for Odds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.attack, self.defend)
    }
}

impl FromStr for Odds {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || format!("`{s}` is not odds (expected a:b with one side 1, e.g. 2:1 or 1:3)");
        let (a, d) = s.trim().split_once(':').ok_or_else(bad)?;
        let a: u32 = a.trim().parse().map_err(|_| bad())?;
        let d: u32 = d.trim().parse().map_err(|_| bad())?;
        if a == 0 || d == 0 || (a != 1 && d != 1) {
            return Err(bad());
        }
        Ok(Odds {
            attack: a,
            defend: d,
        })
    }
}

/// SPI-C1, FR-C1: the ratio attack:defence rounded in the defender's favour. At or above 1:1 the
/// ratio is rounded down (26:9 is 2:1); below it the defender's side is rounded up (9:26 is 1:3).
pub fn odds(attack: Ratio, defend: Ratio) -> Result<Odds, RuleError> {
    if defend <= Ratio::ZERO {
        return Err(RuleError::input(
            "defence",
            format!("{} is no defence strength", defend.to_plain()),
            "a strength above 0",
        ));
    }
    if attack <= Ratio::ZERO {
        return Err(RuleError::input(
            "attack",
            format!("{} is no attack strength", attack.to_plain()),
            "a strength above 0",
        ));
    }
    let clamp = |v: i64| u32::try_from(v.max(1)).unwrap_or(u32::MAX);
    if attack >= defend {
        Ok(Odds::to_one(clamp((attack / defend).floor())))
    } else {
        Ok(Odds::one_to(clamp((defend / attack).ceil())))
    }
}

/// A running strength total whose every step is a modifier line with its rule id and provenance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tally {
    /// The value so far.
    pub total: Ratio,
    /// The steps, in order.
    pub lines: Vec<ModifierLine>,
}

impl Tally {
    /// Starts from nothing.
    pub fn new() -> Tally {
        Tally {
            total: Ratio::ZERO,
            lines: Vec::new(),
        }
    }

    /// Adds a unit's (already modified) value or a fort's own strength.
    pub fn add(&mut self, label: impl Into<String>, v: Ratio, rule: RuleId, p: Provenance) {
        self.total = self.total + v;
        self.lines
            .push(ModifierLine::new(label, Effect::Add(v), rule, p));
    }

    /// Multiplies the running total (flank doubling, hasty halving).
    pub fn times(&mut self, label: impl Into<String>, f: Ratio, rule: RuleId, p: Provenance) {
        self.total = self.total * f;
        self.lines
            .push(ModifierLine::new(label, Effect::Times(f), rule, p));
    }

    /// Replaces the total by a rounded one (1870's halving: down in attack, up in defence).
    pub fn round(&mut self, label: impl Into<String>, up: bool, rule: RuleId, p: Provenance) {
        let v = if up {
            self.total.ceil()
        } else {
            self.total.floor()
        };
        self.total = Ratio::int(v);
        self.lines
            .push(ModifierLine::new(label, Effect::Base(self.total), rule, p));
    }

    /// A line that changes nothing (a rule that applies but has no number).
    pub fn note(&mut self, label: impl Into<String>, rule: RuleId, p: Provenance) {
        self.lines
            .push(ModifierLine::new(label, Effect::Note, rule, p));
    }
}

impl Default for Tally {
    fn default() -> Self {
        Tally::new()
    }
}

/// SPI-C1, FR-C1: one unit's line in its side's tally: its value after its own multipliers
/// (supply, disorganisation, formation, fortress...), each named in the label, with the rule of the
/// last one and the weakest provenance of them all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitLine {
    /// The value so far.
    pub v: Ratio,
    /// "attacker 1 (name): 5", then each multiplier.
    pub label: String,
    /// The rule of the last multiplier (the combat rule when none).
    pub rule: RuleId,
    /// The weakest provenance of the multipliers.
    pub prov: Provenance,
}

impl UnitLine {
    /// The `n`th unit (from 0) of a side (`who`: "attacker 1"...), named when it comes from a game,
    /// at `strength` under `rule`; `after` follows the strength in the label (1870's arm).
    pub fn new(
        who: &str,
        n: usize,
        name: Option<&str>,
        strength: u32,
        after: &str,
        rule: &'static str,
    ) -> UnitLine {
        UnitLine {
            v: Ratio::from(strength),
            label: format!("{who} {}{}: {strength}{after}", n + 1, named(name)),
            rule: RuleId::new(rule),
            prov: Provenance::Seed,
        }
    }

    /// Multiplies the value by `f` ("halved (unsupplied)"), `rule` and `p` the multiplier's.
    pub fn times(&mut self, f: Ratio, why: &str, rule: &'static str, p: Provenance) {
        self.v = self.v * f;
        self.label.push(' ');
        self.label.push_str(why);
        self.rule = RuleId::new(rule);
        self.prov = self.prov.weakest(p);
    }

    /// Divides the value by a table's divisor (read as 1 when 0) ("halved (unsupplied)").
    pub fn divide(&mut self, d: &Sourced<u32>, why: &str, rule: &'static str) {
        self.times(
            Ratio::new(1, i128::from(d.v().max(1))),
            why,
            rule,
            d.provenance,
        );
    }

    /// Adds the line to `tally`.
    pub fn add_to(self, tally: &mut Tally) {
        tally.add(self.label, self.v, self.rule, self.prov);
    }
}

/// A CRT as data: column (odds, as "2:1") -> die value (as "3", "-1") -> result text with provenance.
/// A cell whose provenance is `unknown` is a cell the seed does not print.
pub type CrtCells = BTreeMap<String, BTreeMap<String, Sourced<String>>>;

/// A looked-up cell: a result with its provenance, or a cell nobody has entered yet.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Cell<R> {
    /// The result printed (or entered by a club) in the table.
    Known(R, Provenance),
    /// Not in the seed: the umpire reads it from the printed chart.
    Unknown,
}

impl<R: fmt::Display> Cell<R> {
    /// The label in the odds: the result, or "unknown: enter from your printed chart".
    pub fn odds_label(&self) -> String {
        match self {
            Cell::Known(r, _) => r.to_string(),
            Cell::Unknown => UNKNOWN_ODDS_LABEL.to_string(),
        }
    }
}

/// Reads one cell. Missing columns or dice and cells marked `unknown` are [`Cell::Unknown`]; a cell
/// whose text does not parse is also unknown (validation rejects such a table before it gets here).
pub fn lookup<R: FromStr>(cells: &CrtCells, odds: Odds, die: i32) -> Cell<R> {
    let Some(col) = cells
        .iter()
        .find(|(k, _)| k.parse::<Odds>().ok() == Some(odds))
        .map(|(_, c)| c)
    else {
        return Cell::Unknown;
    };
    let Some(cell) = col
        .iter()
        .find(|(k, _)| k.trim().parse::<i32>().ok() == Some(die))
        .map(|(_, c)| c)
    else {
        return Cell::Unknown;
    };
    if cell.provenance == Provenance::Unknown {
        return Cell::Unknown;
    }
    match cell.get().parse::<R>() {
        Ok(r) => Cell::Known(r, cell.provenance),
        Err(_) => Cell::Unknown,
    }
}

/// Validates a CRT: odds keys, die keys in `die_lo..=die_hi`, and every non-unknown cell a result.
pub fn validate_cells<R: FromStr>(
    cells: &CrtCells,
    check: &Check<'_>,
    field: &str,
    die_lo: i32,
    die_hi: i32,
    accepted: &str,
) -> Result<(), TableError> {
    for (col, dice) in cells {
        if let Err(e) = col.parse::<Odds>() {
            let span = dice.values().next().map(|c| c.span()).unwrap_or(0..0);
            return Err(check.error(span, &format!("{field}.{col}"), e, "a:b, e.g. 2:1"));
        }
        for (die, cell) in dice {
            let path = format!("{field}.\"{col}\".\"{die}\"");
            match die.trim().parse::<i32>() {
                Ok(d) if (die_lo..=die_hi).contains(&d) => {}
                _ => {
                    return Err(check.error(
                        cell.span(),
                        &path,
                        format!("`{die}` is not a die value of this table"),
                        format!("{die_lo} to {die_hi}"),
                    ));
                }
            }
            if cell.provenance != Provenance::Unknown && cell.get().parse::<R>().is_err() {
                return Err(check.error(
                    cell.span(),
                    &path,
                    format!("`{}` is not a combat result", cell.get()),
                    accepted,
                ));
            }
        }
    }
    Ok(())
}

/// The exact distribution of a d6 plus a modifier.
pub fn modified_d6(modifier: i32) -> Dist<i32> {
    Dist::die(Die::D6).map(|v| *v as i32 + modifier)
}

/// Rolls the d6 (or takes the entered one) and returns (face, modified value).
pub fn roll_d6(dice: &mut DiceSource, label: &str, modifier: i32) -> Result<(u32, i32), RuleError> {
    let face = dice.roll(Die::D6, label)?;
    Ok((face, face as i32 + modifier))
}

/// SPI-C1, FR-C1: a chart result as typed (the window's "result from your printed chart",
/// `kepi resolve ... --result`), read as the chart prints it; when it does not read, what was
/// typed and the forms `accepted`. One reading for the window, which greys Roll with it, and the
/// command line, which exits 2 with it (issue 46).
pub fn typed_result<R: FromStr>(text: &str, accepted: &str) -> Result<R, String> {
    let t = text.trim();
    t.parse::<R>().map_err(|_| {
        format!("`{t}` is not a result of the chart; type it as the chart prints it: {accepted}")
    })
}

/// What the umpire typed for an unknown cell, checked against the vocabulary. A known cell must agree
/// with the entry (the table wins; a club that disagrees edits the table).
pub fn entered_result<R: FromStr + PartialEq + fmt::Display + Clone>(
    cell: &Cell<R>,
    entered: Option<&str>,
    accepted: &str,
) -> Result<Option<(R, bool)>, RuleError> {
    let parsed = match entered {
        None => None,
        Some(s) => Some(typed_result::<R>(s, accepted).map_err(|_| {
            RuleError::input("--result", format!("`{s}` is not a result"), accepted)
        })?),
    };
    match (cell, parsed) {
        (Cell::Known(r, _), None) => Ok(Some((r.clone(), false))),
        (Cell::Known(r, _), Some(e)) if *r == e => Ok(Some((r.clone(), false))),
        (Cell::Known(r, p), Some(e)) => Err(RuleError::input(
            "--result",
            format!("the table gives {r} ({p}) for this cell, not {e}"),
            format!("{r}, or edit the table"),
        )),
        (Cell::Unknown, Some(e)) => Ok(Some((e, true))),
        (Cell::Unknown, None) => Ok(None),
    }
}

/// SPI-C1, FR-C1: a combat's resolution before anything is added to it.
pub fn combat_resolution<O>(system: RuleSetId) -> Resolution<O> {
    Resolution {
        system,
        action: "combat".to_string(),
        modifiers: Vec::new(),
        dice: Vec::new(),
        outcome: None,
        summary: String::new(),
        odds: Vec::new(),
        rolled: None,
        notes: Vec::new(),
    }
}

/// SPI-C1 ("Total up the Combat Strengths of the Attacking units ... and compare it to the total
/// Combat Strength of the defending Combat and Fortification units"), FR-C1 (E9: "the points of
/// the units engaged ... are added together ... one then has the total points"): each side's
/// lines, then its sum as a line of its own (issue 17), `what` naming the value ("strength",
/// "potential").
pub fn push_totals(
    lines: &mut Vec<ModifierLine>,
    att: &Tally,
    def: &Tally,
    what: &str,
    rule: &'static str,
) {
    for (side, t) in [("attack", att), ("defence", def)] {
        lines.extend(t.lines.iter().cloned());
        lines.push(ModifierLine::new(
            format!("{side} {what}, total"),
            Effect::Base(t.total),
            RuleId::new(rule),
            Provenance::Seed,
        ));
    }
}

/// SPI-C1, FR-C1: a preview's summary, the column and both totals ("2:1: 13/2 : 3").
pub fn preview_summary(column: &str, att: &Tally, def: &Tally) -> String {
    format!(
        "{column}: {} : {}",
        att.total.to_plain(),
        def.total.to_plain()
    )
}

/// " (name)" for a unit from a game, "" for a plain number (issue 17: each unit's line names it).
pub fn named(name: Option<&str>) -> String {
    name.map(|n| format!(" ({n})")).unwrap_or_default()
}

/// SPI-C1, FR-C1: rolls the CRT's d6 (or takes the entered one) with `modifier`: the face, the
/// modified die and the rolls it made, for the resolution.
pub fn roll_crt_d6(
    dice: &mut DiceSource,
    modifier: i32,
) -> Result<(u32, i32, Vec<Roll>), RuleError> {
    let start = dice.rolls().len();
    let (face, modified) = roll_d6(dice, "CRT d6", modifier)?;
    Ok((face, modified, dice.rolls()[start..].to_vec()))
}

/// A rolled cell as read: the result (None: unknown and nothing entered), whether the umpire
/// entered it, and, for an unknown cell, why there is no result and what may be entered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellRead<R> {
    /// The result, table's or entered.
    pub result: Option<R>,
    /// True when the umpire entered it from the printed chart.
    pub entered: bool,
    /// [`UNKNOWN_MESSAGE`] when there is no result.
    pub message: Option<String>,
    /// The results the umpire may enter, when there is no result.
    pub valid_results: Option<String>,
}

/// SPI-C1, FR-C1: reads the rolled `cell` into `res`: the odds line rolled, the umpire's entry for
/// a cell kepi does not know (a known cell must agree, [`entered_result`]), the note and the
/// summary. `row` names the column as the game does ("odds 2:1", "ratio 1:2"), `column` is the
/// column alone and `die_text` the die (", die 4"; empty when no die is rolled).
pub fn read_cell<R: FromStr + PartialEq + fmt::Display + Clone, O>(
    res: &mut Resolution<O>,
    cell: &Cell<R>,
    entered: Option<&str>,
    accepted: &str,
    (row, column, die_text): (&str, &str, &str),
) -> Result<CellRead<R>, RuleError> {
    res.rolled = rolled_line(&res.odds, &cell.odds_label());
    let (result, entered) = match entered_result(cell, entered, accepted)? {
        Some((r, e)) => (Some(r), e),
        None => (None, false),
    };
    let message = match &result {
        None => {
            res.notes.push(format!(
                "{UNKNOWN_MESSAGE}: {row}{die_text}; valid results: {accepted}"
            ));
            res.summary = format!("{column}{die_text}: unknown cell: {UNKNOWN_MESSAGE}");
            Some(UNKNOWN_MESSAGE.to_string())
        }
        Some(r) => {
            if entered {
                res.notes.push(format!(
                    "result entered by the umpire from the printed chart: {r}"
                ));
            }
            res.summary = format!(
                "{column}{die_text}: {r}{}",
                if entered { " (entered)" } else { "" }
            );
            None
        }
    };
    Ok(CellRead {
        result,
        entered,
        valid_results: message.as_ref().map(|_| accepted.to_string()),
        message,
    })
}

/// SPI-C1, FR-C2: serde for a CRT result as the text the table prints ("A1/D2", "AD,DD"), through
/// its `Display` and `FromStr`. (The caller's crate names `serde`.)
#[macro_export]
#[doc(hidden)]
macro_rules! serde_as_text {
    ($t:ty) => {
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&self.to_string())
            }
        }

        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                <String as serde::Deserialize>::deserialize(d)?
                    .parse()
                    .map_err(serde::de::Error::custom)
            }
        }
    };
}
pub use serde_as_text;

/// The first day of the three-day calendar both games use: 1 August 1870.
pub fn campaign_start() -> NaiveDate {
    NaiveDate::from_ymd_opt(1870, 8, 1).unwrap_or_default()
}

/// SPI-T1, FR-T1: turn (calendar cell) `n` covers 1 Aug 1870 + `days`(n-1) days to `days`-1 days later.
pub fn turn_dates(n: u32, days: u32) -> Result<(NaiveDate, NaiveDate), RuleError> {
    if n == 0 || days == 0 {
        return Err(RuleError::input(
            "turn",
            "turns are counted from 1",
            "1 or more",
        ));
    }
    let start = campaign_start()
        .checked_add_days(Days::new(u64::from(n - 1) * u64::from(days)))
        .ok_or_else(|| {
            RuleError::input("turn", format!("{n} is beyond any calendar"), "1 to 1000")
        })?;
    let end = start
        .checked_add_days(Days::new(u64::from(days - 1)))
        .ok_or_else(|| {
            RuleError::input("turn", format!("{n} is beyond any calendar"), "1 to 1000")
        })?;
    Ok((start, end))
}

/// A calendar entry as the CLI prints it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CalendarEntry {
    /// The turn (SPI) or calendar cell (1870).
    pub turn: u32,
    /// First day (ISO date).
    pub start: NaiveDate,
    /// Last day (ISO date).
    pub end: NaiveDate,
    /// What else the calendar marks on this cell (bad season, situation start/end, reinforcements).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<String>,
}

/// Declares a closed vocabulary: an enum with `ALL`, `id()`, `Display`, `FromStr` and kebab-case
/// serde. (The caller's crate names `serde`.)
#[macro_export]
#[doc(hidden)]
macro_rules! vocab {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $v:ident => $s:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
        #[serde(rename_all = "kebab-case")]
        pub enum $name { $($(#[$vm])* $v),+ }
        impl $name {
            /// Every value, in order.
            pub const ALL: &'static [$name] = &[$($name::$v),+];
            /// The kebab-case id used on the command line and in files.
            pub fn id(self) -> &'static str { match self { $($name::$v => $s),+ } }
        }
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { f.write_str(self.id()) }
        }
        impl std::str::FromStr for $name {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                let t = s.trim().to_ascii_lowercase();
                $name::ALL.iter().copied().find(|v| v.id() == t).ok_or_else(|| format!(
                    "`{s}` is not accepted (accepted: {})",
                    $name::ALL.iter().map(|v| v.id()).collect::<Vec<_>>().join(", ")))
            }
        }
    };
}
pub use vocab;

vocab!(
    /// The two players of the odds-ratio board games, SPI and 1870 alike (SPI's order of battle,
    /// movement allowances and entraining; 1870's situations, FR-L1): as the files and the
    /// command line write them, `french` and `german`.
    Nation {
        /// The French player.
        French => "french",
        /// The German (Prussian) player.
        German => "german",
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odds_round_for_the_defender() {
        assert_eq!(
            odds(Ratio::int(26), Ratio::int(9)).unwrap().to_string(),
            "2:1"
        );
        assert_eq!(
            odds(Ratio::int(9), Ratio::int(26)).unwrap().to_string(),
            "1:3"
        );
        assert_eq!(
            odds(Ratio::int(5), Ratio::int(5)).unwrap().to_string(),
            "1:1"
        );
        assert_eq!(
            odds(Ratio::int(4), Ratio::int(5)).unwrap().to_string(),
            "1:2"
        );
        assert!(odds(Ratio::int(4), Ratio::ZERO).is_err());
        assert!(odds(Ratio::ZERO, Ratio::int(3)).is_err());
    }

    #[test]
    fn odds_parse_and_order() {
        let o: Odds = "1:3".parse().unwrap();
        assert!(o < Odds::one_to(2));
        assert!(Odds::one_to(2) < Odds::to_one(1));
        assert!(Odds::to_one(1) < Odds::to_one(6));
        assert!("2:3".parse::<Odds>().is_err());
        assert!("0:1".parse::<Odds>().is_err());
    }

    #[test]
    fn calendar_cells() {
        let (s, e) = turn_dates(61, 3).unwrap();
        assert_eq!(s.to_string(), "1871-01-28");
        assert_eq!(e.to_string(), "1871-01-30");
        assert!(turn_dates(0, 3).is_err());
    }

    #[test]
    fn modified_die_sums_to_one() {
        assert_eq!(modified_d6(-1).total(), crate::dice::Prob::ONE);
    }
}
