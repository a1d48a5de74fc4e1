//! Unit cards and orders of battle: TOML cards as written ([`UnitCard`]) validated into [`Unit`]s.
//!
//! A card file (`unit-cards/*.toml`) holds an optional scenario header (name, rule set, title, date)
//! and any number of `[[unit]]` cards. Each card names its place in the order of battle (army > corps >
//! division > brigade > unit), so the roster is a tree without a second file. Parsing is in two steps
//! (DESIGN.md): serde reads the raw card with the span of every value, then [`validate_roster`] turns
//! it into rule-checked units or a [`CardError`] naming the file, line, field and accepted values.
//! Every file is read size-limited, and an image path must stay inside the cards folder.

pub mod builder;
pub mod csv_import;
pub mod spec;
pub(crate) mod vocab;
pub mod write;

use std::fmt;
use std::path::{Component, Path, PathBuf};
use std::str::FromStr;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use toml::Spanned;

pub use spec::{CardSpec, Field, FieldSpec};
pub use vocab::{Arm, Facing, Formation, Quality, Side, Weapon};

use crate::rules::RuleSetId;
use crate::tables::{Check, MAX_FILE_BYTES, TableError, parse_toml};

/// A card error: the file, line, column, field, what is wrong and what is accepted.
pub type CardError = TableError;

/// A hex of a hex-grid rule set, labelled as printed on maps: four digits, column then row ("0304").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Hex {
    /// Column, 0-99.
    pub col: u8,
    /// Row, 0-99.
    pub row: u8,
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}{:02}", self.col, self.row)
    }
}

impl FromStr for Hex {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let bad = || {
            format!("`{s}` is not a hex label (accepted: four digits, column then row, e.g. 0304)")
        };
        if t.len() != 4 || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let col = t.get(..2).and_then(|c| c.parse().ok()).ok_or_else(bad)?;
        let row = t.get(2..).and_then(|r| r.parse().ok()).ok_or_else(bad)?;
        Ok(Hex { col, row })
    }
}

/// Where a unit stands: free on the table (measured rule sets), on a hex, or off the map
/// (reinforcements not yet arrived, units withdrawn).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "at", rename_all = "lowercase")]
pub enum Position {
    /// On the table, positioned by tape measure (kepi does not track inches).
    Free,
    /// On this hex.
    Hex {
        /// Column.
        col: u8,
        /// Row.
        row: u8,
    },
    /// Not on the map.
    Off,
}

impl Position {
    /// The hex, when on one.
    pub fn hex(self) -> Option<Hex> {
        match self {
            Position::Hex { col, row } => Some(Hex { col, row }),
            _ => None,
        }
    }
}

impl From<Hex> for Position {
    fn from(h: Hex) -> Self {
        Position::Hex {
            col: h.col,
            row: h.row,
        }
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Position::Free => f.write_str("free"),
            Position::Off => f.write_str("off"),
            Position::Hex { col, row } => write!(
                f,
                "{}",
                Hex {
                    col: *col,
                    row: *row
                }
            ),
        }
    }
}

impl FromStr for Position {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "free" | "table" => Ok(Position::Free),
            "off" | "off-map" => Ok(Position::Off),
            _ => s.parse::<Hex>().map(Position::from).map_err(|_| {
                format!("`{s}` is not a position (accepted: a hex label like 0304, free, off)")
            }),
        }
    }
}

/// A unit card as written in TOML, with the span of every value for located errors.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitCard {
    /// Stable id ("12th-grenadiers-1"); made from the name when absent.
    #[serde(default)]
    pub id: Option<Spanned<String>>,
    /// Name as people say it ("1/12th Grenadiers").
    pub name: Spanned<String>,
    /// french or german.
    pub side: Spanned<String>,
    /// Nation or state army ("Prussia", "Saxony", "France").
    #[serde(default)]
    pub nation: Option<Spanned<String>>,
    /// infantry, cavalry, artillery, ...
    pub arm: Spanned<String>,
    /// Class or quality (pk: elite/veteran/line; pw: elite/normal/poor; none for board games).
    #[serde(default)]
    pub quality: Option<Spanned<String>>,
    /// Figures, guns, strength points or combat strength.
    pub strength: Spanned<i64>,
    /// Weapon or gun.
    #[serde(default)]
    pub weapon: Option<Spanned<String>>,
    /// Starting formation.
    #[serde(default)]
    pub formation: Option<Spanned<String>>,
    /// Leaders (PK-L1: 3 per unit or gun by default in Pickelhaube & Kepi).
    #[serde(default)]
    pub leaders: Option<Spanned<i64>>,
    /// Free text.
    #[serde(default)]
    pub notes: Option<Spanned<String>>,
    /// Picture for the printed card, relative to the cards folder.
    #[serde(default)]
    pub image: Option<Spanned<String>>,
    /// Order of battle: army.
    #[serde(default)]
    pub army: Option<Spanned<String>>,
    /// Order of battle: corps.
    #[serde(default)]
    pub corps: Option<Spanned<String>>,
    /// Order of battle: division.
    #[serde(default)]
    pub division: Option<Spanned<String>>,
    /// Order of battle: brigade.
    #[serde(default)]
    pub brigade: Option<Spanned<String>>,
    /// Starting hex ("0304"), for hex rule sets; "off" for a unit not yet on the map.
    #[serde(default)]
    pub hex: Option<Spanned<String>>,
    /// Starting facing.
    #[serde(default)]
    pub facing: Option<Spanned<String>>,
    /// Where the unit stands in words ("Chalons", "mobilisation area 2", "sector 3").
    #[serde(default)]
    pub location: Option<Spanned<String>>,
    /// Game-turn of arrival for a reinforcement.
    #[serde(default)]
    pub arrives: Option<Spanned<i64>>,
    /// Movement allowance (hex rule sets).
    #[serde(default)]
    pub movement: Option<Spanned<i64>>,
}

/// A card file as written: an optional scenario header and the `[[unit]]` cards.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRoster {
    /// Scenario name used on the command line ("mars-la-tour").
    #[serde(default)]
    pub name: Option<Spanned<String>>,
    /// Rule set id, one of the registry's (`kepi scenarios` names them).
    #[serde(default)]
    pub system: Option<Spanned<String>>,
    /// Title ("Mars-la-Tour, 16 August 1870").
    #[serde(default)]
    pub title: Option<Spanned<String>>,
    /// Historical date, YYYY-MM-DD.
    #[serde(default)]
    pub date: Option<Spanned<String>>,
    /// For the 3-day-turn board games: the calendar cell of game-turn 1 (default 1 = 1 Aug 1870).
    #[serde(default)]
    pub first_cell: Option<Spanned<i64>>,
    /// The sides in order of play (who moves first).
    #[serde(default)]
    pub sides: Option<Spanned<Vec<String>>>,
    /// Scenario notes (sources, what is house).
    #[serde(default)]
    pub notes: Option<Spanned<String>>,
    /// Hosted on the network (`kepi serve`), player seats see only their own side's strengths
    /// (issue 19): `hide_strengths = true`.
    #[serde(default)]
    pub hide_strengths: Option<Spanned<toml::Value>>,
    /// Measured play at the club's scale (issue 28): the unit and the distance factor, `scale =
    /// "cm 1/2"` (default "in": the text's inches at factor 1).
    #[serde(default)]
    pub scale: Option<Spanned<toml::Value>>,
    /// The board's map (issue 41, docs/MAPS.md): a map file beside the scenario
    /// (`map = "maps/NAME.toml"`) or one of kepi's own by name (`map = "example-pw"`).
    #[serde(default)]
    pub map: Option<Spanned<String>>,
    /// The markers on the board's cells at the start (`[[mark]]`, issue 42: 1870's possession
    /// markers as a situation prints them, SPI's rail cuts).
    #[serde(default, rename = "mark")]
    pub marks: Vec<RawMark>,
    /// The cards.
    #[serde(default, rename = "unit")]
    pub units: Vec<UnitCard>,
}

/// A `[[mark]]` table as written: a marker of the rule set's on a cell at the start.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawMark {
    /// The kind's name (`possession-german`).
    pub kind: Spanned<String>,
    /// The cell's label (`2138`).
    pub cell: Spanned<String>,
}

/// A marker of the rule set's on a cell at the start of a game (`[[mark]]`): its kind's name
/// (one of the rule set's cell markers) and its cell. A game made from the scenario starts with
/// them on the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScenarioMark {
    /// The kind's name.
    pub kind: String,
    /// The cell.
    pub cell: Position,
}

/// A unit's place in the order of battle: army > corps > division > brigade (> the unit).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Oob {
    /// Army.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub army: Option<String>,
    /// Corps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corps: Option<String>,
    /// Division.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub division: Option<String>,
    /// Brigade.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub brigade: Option<String>,
}

impl Oob {
    /// The levels above the unit that are set, outermost first.
    pub fn path(&self) -> Vec<&str> {
        [&self.army, &self.corps, &self.division, &self.brigade]
            .into_iter()
            .filter_map(|x| x.as_deref())
            .collect()
    }
}

/// A validated unit: what its card says, in rule-checked types.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    /// Stable id, unique in its roster ([a-z0-9-]).
    pub id: String,
    /// Name.
    pub name: String,
    /// Side.
    pub side: Side,
    /// Nation or state army.
    pub nation: String,
    /// Arm.
    pub arm: Arm,
    /// Class or quality, where the rule set has them.
    pub quality: Option<Quality>,
    /// Figures, guns or strength points at full strength.
    pub strength: u32,
    /// Weapon or gun.
    pub weapon: Option<Weapon>,
    /// Starting formation.
    pub formation: Option<Formation>,
    /// Leaders at full strength.
    pub leaders: u32,
    /// Notes.
    #[serde(default)]
    pub notes: String,
    /// Image path relative to the cards folder (checked to stay inside it).
    #[serde(default)]
    pub image: Option<String>,
    /// Place in the order of battle.
    #[serde(default)]
    pub oob: Oob,
    /// Starting position.
    pub position: Position,
    /// Starting facing.
    #[serde(default)]
    pub facing: Option<Facing>,
    /// Where it stands, in words.
    #[serde(default)]
    pub location: Option<String>,
    /// Game-turn of arrival, for reinforcements.
    #[serde(default)]
    pub arrives: Option<u32>,
    /// Movement allowance.
    #[serde(default)]
    pub movement: Option<u32>,
}

/// A validated roster: a scenario when it has a name and a rule set, else a set of cards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scenario {
    /// Name used on the command line ("" for a plain card file).
    pub name: String,
    /// Rule set, when the file names one.
    pub system: Option<RuleSetId>,
    /// Title.
    pub title: String,
    /// Historical date of the battle or of game-turn 1.
    pub date: Option<NaiveDate>,
    /// Calendar cell of game-turn 1 (3-day-turn games; 1 otherwise).
    pub first_cell: u32,
    /// Sides in order of play.
    pub sides: Vec<Side>,
    /// Notes.
    pub notes: String,
    /// Player seats of a hosted game see only their own side's strengths (`hide_strengths`).
    #[serde(default)]
    pub hide_strengths: bool,
    /// The scale the table measures at (`scale`, issue 28); the text's own when not given.
    #[serde(default, skip_serializing_if = "crate::rules::Scale::is_text")]
    pub scale: crate::rules::Scale,
    /// The board's map (`map`, issue 41), read and checked with the scenario; a game made from
    /// the scenario carries it. Absent when not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map: Option<crate::map::MapFile>,
    /// The markers on the board's cells at the start (`[[mark]]`), each of a kind of the rule
    /// set's, on a cell of the map when there is one. Absent when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<ScenarioMark>,
    /// The units.
    pub units: Vec<Unit>,
}

/// Largest strength a card may give (figures, guns, SP).
pub const MAX_STRENGTH: i64 = 1000;
/// Largest number of leaders a card may give.
pub const MAX_LEADERS: i64 = 20;

/// The qualities a rule set accepts (PK-C1: elite/veteran/line; PW-T2: elite/normal/poor; none else).
pub fn qualities_for(system: Option<RuleSetId>) -> &'static [Quality] {
    match system {
        Some(system) => system.qualities(),
        None => Quality::ALL,
    }
}

/// The unit card of `system` (issue 43, [`spec`]): the rule set's own, or for a card file that
/// names none, the generic card that takes every field and word.
pub fn card_spec_for(system: Option<RuleSetId>) -> CardSpec {
    match system {
        Some(s) => s.card_spec(),
        None => CardSpec::generic("", Quality::ALL, false, "figures"),
    }
}

/// The default number of leaders: PK-L1, 3 per unit or gun in Pickelhaube & Kepi; none elsewhere.
pub fn default_leaders(system: Option<RuleSetId>, arm: Arm) -> u32 {
    system.map_or(0, |s| s.default_leaders(arm))
}

/// A stable id from a name: lower case ASCII letters and digits, other runs become one '-'.
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars().flat_map(|c| c.to_lowercase()) {
        let mapped: &str = match c {
            'à' | 'á' | 'â' | 'ä' => "a",
            'é' | 'è' | 'ê' | 'ë' => "e",
            'î' | 'ï' => "i",
            'ô' | 'ö' => "o",
            'ù' | 'û' | 'ü' => "u",
            'ç' => "c",
            'ß' => "ss",
            c if c.is_ascii_alphanumeric() => {
                out.push(c);
                continue;
            }
            _ => "-",
        };
        if mapped == "-" {
            if !out.is_empty() && !out.ends_with('-') {
                out.push('-');
            }
        } else {
            out.push_str(mapped);
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    out
}

/// Checks an image path from a shared file: relative, no `..`, no root or drive, and (when the folder
/// is known) inside it after resolving symlinks. Returns the message for the error.
pub fn check_image_path(rel: &str, base_dir: Option<&Path>) -> Result<(), String> {
    check_shared_path(rel, base_dir, "image", "cards folder")
}

/// A path a shared file names (a card's image, a scenario's map): relative, no `..`, no root or
/// drive, and (when the folder is known) a file inside it after resolving symlinks, so a file from
/// outside cannot make kepi read elsewhere. `what` and `folder` word the message.
fn check_shared_path(
    rel: &str,
    base_dir: Option<&Path>,
    what: &str,
    folder: &str,
) -> Result<(), String> {
    if rel.trim().is_empty() {
        return Err(format!("empty {what} path"));
    }
    if rel.contains('\\') || rel.contains(':') || rel.contains('\0') {
        return Err(format!(
            "`{rel}`: use a plain relative path with '/' (no drive letters or backslashes)"
        ));
    }
    let p = Path::new(rel);
    for c in p.components() {
        match c {
            Component::Normal(_) | Component::CurDir => {}
            _ => {
                return Err(format!(
                    "`{rel}` leaves the {folder} (no absolute paths and no `..`)"
                ));
            }
        }
    }
    if let Some(dir) = base_dir {
        // A file named bare on the command line ("battle.toml") has the empty path for its folder:
        // the current one.
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        let full = dir.join(p);
        let real = full
            .canonicalize()
            .map_err(|e| format!("`{rel}`: cannot open the {what} in the {folder}: {e}"))?;
        let root = dir
            .canonicalize()
            .map_err(|e| format!("cannot resolve the {folder}: {e}"))?;
        if !real.starts_with(&root) {
            return Err(format!(
                "`{rel}` resolves outside the {folder} (a symlink?)"
            ));
        }
        if !real.is_file() {
            return Err(format!("`{rel}` is not a file"));
        }
    }
    Ok(())
}

fn parse_word<T: FromStr<Err = String>>(
    check: &Check<'_>,
    v: &Spanned<String>,
    field: &str,
    accepted: String,
) -> Result<T, CardError> {
    v.get_ref()
        .parse::<T>()
        .map_err(|m| check.error(v.span(), field, m, accepted))
}

fn ranged(
    check: &Check<'_>,
    v: &Spanned<i64>,
    field: &str,
    lo: i64,
    hi: i64,
) -> Result<u32, CardError> {
    let x = *v.get_ref();
    if x < lo || x > hi {
        return Err(check.error(
            v.span(),
            field,
            format!("{x} is out of range"),
            format!("{lo} to {hi}"),
        ));
    }
    u32::try_from(x)
        .map_err(|_| check.error(v.span(), field, "out of range", format!("{lo} to {hi}")))
}

/// Issue 29: a control character (ESC, BEL, a newline, any other C0 or C1 code, DEL) in a card's
/// text would reach the terminal raw (a name can retitle it or forge a roster line): refused, at
/// its line. Free-text notes may hold newlines and tabs.
fn no_controls(
    check: &Check<'_>,
    v: &Spanned<String>,
    field: &str,
    notes: bool,
) -> Result<(), CardError> {
    let bad = v
        .get_ref()
        .chars()
        .find(|c| c.is_control() && !(notes && matches!(c, '\n' | '\t')));
    match bad {
        None => Ok(()),
        Some(c) => Err(check.error(
            v.span(),
            field,
            format!("holds the control character {}", c.escape_unicode()),
            if notes {
                "printable text, newlines and tabs"
            } else {
                "printable text on one line (no control characters)"
            },
        )),
    }
}

/// An optional text field of a card, checked by [`no_controls`].
fn text(
    check: &Check<'_>,
    v: &Option<Spanned<String>>,
    field: &str,
    notes: bool,
) -> Result<Option<String>, CardError> {
    match v {
        None => Ok(None),
        Some(t) => {
            no_controls(check, t, field, notes)?;
            Ok(Some(t.get_ref().clone()))
        }
    }
}

/// Text kepi shows on a terminal or in a CSV cell: each control character (what [`no_controls`]
/// refuses in cards; an older save may still hold one) as an escape, `\u{1b}`, so it cannot act.
pub fn shown(s: &str) -> std::borrow::Cow<'_, str> {
    escape_where(s, char::is_control)
}

/// [`shown`] for a quoted CSV cell: line breaks and tabs stay (RFC 4180 quotes them), every other
/// control character is escaped.
pub fn shown_keeping_lines(s: &str) -> std::borrow::Cow<'_, str> {
    escape_where(s, |c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
}

/// [`shown`] for a message of several lines (an error on stderr): line breaks stay, every other
/// control character, a carriage return or an escape typed in an argument among them, is escaped,
/// so an argument echoed in an error cannot act on the terminal (issue 44).
pub fn shown_lines(s: &str) -> std::borrow::Cow<'_, str> {
    escape_where(s, |c| c.is_control() && c != '\n')
}

fn escape_where(s: &str, bad: impl Fn(char) -> bool) -> std::borrow::Cow<'_, str> {
    if !s.chars().any(&bad) {
        return std::borrow::Cow::Borrowed(s);
    }
    std::borrow::Cow::Owned(
        s.chars()
            .map(|c| {
                if bad(c) {
                    c.escape_unicode().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect(),
    )
}

/// Parses and validates a card file. `base_dir` is the cards folder images must stay in (None for the
/// compiled-in files, which have no images).
/// Over 150 lines: the file's checks in the order its fields come (the scenario's head, each
/// card, the markers), each error naming its line and field.
pub fn validate_roster(
    file: &str,
    src: &str,
    base_dir: Option<&Path>,
) -> Result<Scenario, CardError> {
    let raw: RawRoster = parse_toml(file, src)?;
    let check = Check::new(file, src);
    // The rule sets a card may name are the registry's (a set registered at run time too): its
    // refusal says them, and the card's error lists them as the accepted values.
    let system = match &raw.system {
        Some(s) => Some(s.get_ref().parse::<RuleSetId>().map_err(|m| {
            let (what, accepted) = match m.split_once(" (accepted: ") {
                Some((what, list)) => (what.to_string(), list.trim_end_matches(')').to_string()),
                None => (
                    m,
                    "a rule set's id (`kepi scenarios` lists them)".to_string(),
                ),
            };
            check.error(s.span(), "system", what, accepted)
        })?),
        None => None,
    };
    let date = match &raw.date {
        Some(d) => Some(
            NaiveDate::parse_from_str(d.get_ref().trim(), "%Y-%m-%d").map_err(|e| {
                check.error(
                    d.span(),
                    "date",
                    format!("`{}`: {e}", d.get_ref()),
                    "a date YYYY-MM-DD, e.g. 1870-08-16",
                )
            })?,
        ),
        None => None,
    };
    let first_cell = match &raw.first_cell {
        Some(c) => ranged(&check, c, "first_cell", 1, 99)?,
        None => 1,
    };
    let sides = match &raw.sides {
        Some(s) => {
            let mut out = Vec::new();
            for w in s.get_ref() {
                let side = w
                    .parse::<Side>()
                    .map_err(|m| check.error(s.span(), "sides", m, Side::accepted()))?;
                if out.contains(&side) {
                    return Err(check.error(
                        s.span(),
                        "sides",
                        format!("`{w}` listed twice"),
                        Side::accepted(),
                    ));
                }
                out.push(side);
            }
            out
        }
        None => Vec::new(),
    };
    let name = raw
        .name
        .as_ref()
        .map(|n| n.get_ref().trim().to_string())
        .unwrap_or_default();
    if let Some(n) = &raw.name
        && (name.is_empty() || slug(&name) != name)
    {
        return Err(check.error(
            n.span(),
            "name",
            format!("`{name}` is not a scenario name"),
            "lower-case letters, digits and '-', e.g. mars-la-tour",
        ));
    }
    let hide_strengths = match &raw.hide_strengths {
        None => false,
        Some(v) => match v.get_ref() {
            toml::Value::Boolean(b) => *b,
            other => {
                return Err(check.error(
                    v.span(),
                    "hide_strengths",
                    format!("`{other}` is not true or false"),
                    "true (player seats of a hosted game see only their own side's strengths) or false",
                ));
            }
        },
    };
    let scale = match &raw.scale {
        None => crate::rules::Scale::default(),
        Some(v) => {
            let accepted = "a unit (in or cm) and an optional distance factor, e.g. \"cm 1/2\" for 6 mm figures \
                            measured in centimetres, \"in\" (the text's own), \"in 2/3\"";
            match v.get_ref() {
                toml::Value::String(t) => t
                    .parse()
                    .map_err(|e: String| check.error(v.span(), "scale", e, accepted))?,
                other => {
                    return Err(check.error(
                        v.span(),
                        "scale",
                        format!("`{other}` is not a scale"),
                        accepted,
                    ));
                }
            }
        }
    };
    let spec = card_spec_for(system);
    let mut units: Vec<Unit> = Vec::with_capacity(raw.units.len());
    // Ids seen, to their card: a repeated id is found in one look-up (an order of battle of
    // thousands of cards loads in linear time, issue 43).
    let mut ids: std::collections::HashMap<String, usize> =
        std::collections::HashMap::with_capacity(raw.units.len());
    for (i, card) in raw.units.iter().enumerate() {
        let unit = validate_card(&check, card, i, system, &spec, base_dir)?;
        if let Some(prev) = ids.get(&unit.id).and_then(|&k| units.get(k)) {
            let span = card
                .id
                .as_ref()
                .map(|s| s.span())
                .unwrap_or_else(|| card.name.span());
            return Err(check.error(
                span,
                &format!("unit[{i}].id"),
                format!("id `{}` is already used by `{}`", unit.id, prev.name),
                "a unique id: add `id = \"...\"` to one of the two cards",
            ));
        }
        ids.insert(unit.id.clone(), units.len());
        units.push(unit);
    }
    let mut sides = sides;
    for u in &units {
        if !sides.contains(&u.side) {
            sides.push(u.side);
        }
    }
    let map = match &raw.map {
        Some(m) => Some(scenario_map(
            &check, m, system, base_dir, &raw.units, &units,
        )?),
        None => None,
    };
    let marks = scenario_marks(&check, &raw.marks, system, map.as_ref())?;
    Ok(Scenario {
        name,
        system,
        title: text(&check, &raw.title, "title", false)?.unwrap_or_default(),
        date,
        first_cell,
        sides,
        notes: text(&check, &raw.notes, "notes", true)?.unwrap_or_default(),
        hide_strengths,
        scale,
        map,
        marks,
        units,
    })
}

/// A scenario's `[[mark]]` tables (issue 42): each a marker of a kind the rule set puts on cells
/// ([`RuleSetId::cell_marker_names`]), on a cell (of the map, when the scenario has one), once.
fn scenario_marks(
    check: &Check<'_>,
    raw: &[RawMark],
    system: Option<RuleSetId>,
    map: Option<&crate::map::MapFile>,
) -> Result<Vec<ScenarioMark>, CardError> {
    let mut out: Vec<ScenarioMark> = Vec::with_capacity(raw.len());
    for (i, m) in raw.iter().enumerate() {
        let kinds = system.map(RuleSetId::cell_marker_names).unwrap_or_default();
        let kind = m.kind.get_ref().trim();
        if !kinds.contains(&kind) {
            let accepted = match system {
                None => "a scenario with markers names its rule set (`system`)".to_string(),
                Some(s) if kinds.is_empty() => {
                    format!("none: {} puts no markers on cells", s.title())
                }
                Some(_) => kinds.join(", "),
            };
            return Err(check.error(
                m.kind.span(),
                &format!("mark[{i}].kind"),
                format!("`{kind}` is not a marker of this scenario's rule set"),
                accepted,
            ));
        }
        let text = m.cell.get_ref().trim();
        let cell = match text.parse::<Position>() {
            Ok(p @ Position::Hex { .. }) => p,
            _ => {
                return Err(check.error(
                    m.cell.span(),
                    &format!("mark[{i}].cell"),
                    format!("`{text}` is not a cell"),
                    "a cell's label, column then row, e.g. \"2138\"",
                ));
            }
        };
        if let Some(board) = map.and_then(|f| f.map().ok())
            && let Position::Hex { col, row } = cell
            && !board.grid.holds(crate::hex::Offset {
                col: i32::from(col),
                row: i32::from(row),
            })
        {
            return Err(check.error(
                m.cell.span(),
                &format!("mark[{i}].cell"),
                format!("{cell} is off the scenario's map"),
                format!("a cell of the map, {}", board.grid.span_label()),
            ));
        }
        if out.iter().any(|o| o.kind == kind && o.cell == cell) {
            return Err(check.error(
                m.cell.span(),
                &format!("mark[{i}].cell"),
                format!("{cell} carries a `{kind}` marker already"),
                "each marker once: remove one of the two tables",
            ));
        }
        out.push(ScenarioMark {
            kind: kind.to_string(),
            cell,
        });
    }
    Ok(out)
}

/// A scenario's `map` (issue 41): a file beside the scenario, else one of kepi's own maps by name,
/// read and checked; drawn for the scenario's rule set, and holding every card's hex.
fn scenario_map(
    check: &Check<'_>,
    m: &Spanned<String>,
    system: Option<RuleSetId>,
    base_dir: Option<&Path>,
    cards: &[UnitCard],
    units: &[Unit],
) -> Result<crate::map::MapFile, CardError> {
    let named = m.get_ref().trim();
    let accepted = || {
        let own: Vec<&str> = crate::map::BUILTIN.iter().map(|(n, _)| *n).collect();
        format!(
            "a map file beside the scenario (docs/MAPS.md), or one of kepi's own: {}",
            own.join(", ")
        )
    };
    if named.is_empty() || named.chars().any(char::is_control) {
        return Err(check.error(
            m.span(),
            "map",
            "the map's name is empty or holds control characters",
            accepted(),
        ));
    }
    // A file beside the scenario, inside its folder (a shared scenario cannot make kepi read a
    // file elsewhere); else one of kepi's own maps by name.
    let builtin = crate::map::BUILTIN.iter().any(|(n, _)| *n == named);
    let beside = base_dir
        .map(|d| d.join(named))
        .filter(|p| crate::fsio::present(p));
    let name = match (beside, base_dir) {
        (Some(p), Some(dir)) => {
            check_shared_path(named, Some(dir), "map", "scenario's folder")
                .map_err(|e| check.error(m.span(), "map", e, accepted()))?;
            p.display().to_string()
        }
        _ if builtin => named.to_string(),
        _ => {
            check_shared_path(named, None, "map", "scenario's folder")
                .map_err(|e| check.error(m.span(), "map", e, accepted()))?;
            match base_dir {
                Some(dir) => dir.join(named).display().to_string(),
                None => named.to_string(),
            }
        }
    };
    let map = crate::map::MapFile::named(&name)
        .map_err(|e| check.error(m.span(), "map", e.to_string(), accepted()))?;
    match misfit(units, system, &map) {
        None => Ok(map),
        Some(Misfit::Rules(message)) => Err(check.error(
            m.span(),
            "map",
            message,
            format!(
                "a map drawn for {} (its `[map] rules`)",
                system.map_or("the scenario's rule set", RuleSetId::id)
            ),
        )),
        Some(Misfit::Off(i, message, span_label)) => {
            let span = cards
                .get(i)
                .and_then(|c| c.hex.as_ref())
                .map_or(m.span(), |h| h.span());
            Err(check.error(
                span,
                &format!("unit[{i}].hex"),
                message,
                format!("a cell of the map, {span_label}, or \"off\""),
            ))
        }
    }
}

/// Why a map does not fit a scenario's units.
enum Misfit {
    /// Drawn for another rule set.
    Rules(String),
    /// Unit `i` stands off the map (the message, the map's span of cells).
    Off(usize, String, String),
}

fn misfit(units: &[Unit], system: Option<RuleSetId>, map: &crate::map::MapFile) -> Option<Misfit> {
    // A carried text that does not read is reported where the game shows its map.
    let board = map.map().ok()?;
    if let Some(system) = system
        && board.rules != system
    {
        return Some(Misfit::Rules(format!(
            "{} is drawn for {}, and this scenario is {}",
            map.file, board.rules, system
        )));
    }
    units.iter().enumerate().find_map(|(i, unit)| {
        let Position::Hex { col, row } = unit.position else {
            return None;
        };
        let o = crate::hex::Offset {
            col: i32::from(col),
            row: i32::from(row),
        };
        (!board.grid.holds(o)).then(|| {
            Misfit::Off(
                i,
                format!(
                    "{} at {col:02}{row:02} is off the map {} ({})",
                    unit.id,
                    map.file,
                    board.grid.span_label()
                ),
                board.grid.span_label(),
            )
        })
    })
}

/// Why `map` does not fit these units of `system`'s (`kepi game new --map`, issue 41): drawn for
/// another rule set, or a unit stands off it; `None` when it fits.
pub fn map_misfit(units: &[Unit], system: RuleSetId, map: &crate::map::MapFile) -> Option<String> {
    misfit(units, Some(system), map).map(|m| match m {
        Misfit::Rules(message) | Misfit::Off(_, message, _) => message,
    })
}

/// A card's name (1 to 120 characters, no control characters) and its id: the one given, a
/// slug, or else one made from the name.
fn card_name_and_id(
    check: &Check<'_>,
    c: &UnitCard,
    i: usize,
) -> Result<(String, String), CardError> {
    let f = |field: &str| format!("unit[{i}].{field}");
    let name = c.name.get_ref().trim().to_string();
    no_controls(check, &c.name, &f("name"), false)?;
    if name.is_empty() || name.len() > 120 {
        return Err(check.error(
            c.name.span(),
            &f("name"),
            "a unit needs a name of 1 to 120 characters",
            "a name, e.g. \"1/12th Grenadiers\"",
        ));
    }
    let id = match &c.id {
        Some(id) => {
            let s = id.get_ref().trim().to_string();
            if s.is_empty() || slug(&s) != s {
                return Err(check.error(
                    id.span(),
                    &f("id"),
                    format!("`{s}` is not an id"),
                    "lower-case letters, digits and '-', e.g. 12th-grenadiers-1",
                ));
            }
            s
        }
        None => {
            let s = slug(&name);
            if s.is_empty() {
                return Err(check.error(
                    c.name.span(),
                    &f("name"),
                    "no id can be made from this name",
                    "add `id = \"...\"`",
                ));
            }
            s
        }
    };
    Ok((name, id))
}

/// A card's class, when it gives one: a word of the vocabulary that is one of the rule set's
/// classes, as its card ([`CardSpec`]) lists them (none when the set has no classes).
fn card_quality(
    check: &Check<'_>,
    c: &UnitCard,
    i: usize,
    spec: &CardSpec,
) -> Result<Option<Quality>, CardError> {
    let f = |field: &str| format!("unit[{i}].{field}");
    Ok(match &c.quality {
        Some(q) => {
            let accepted = spec.accepted(Field::Quality);
            let v: Quality = parse_word(check, q, &f("quality"), accepted.clone())?;
            if !spec
                .field(Field::Quality)
                .is_some_and(|s| s.accepts(v.as_str()))
            {
                return Err(check.error(
                    q.span(),
                    &f("quality"),
                    format!("`{v}` is not a class of this rule set"),
                    accepted,
                ));
            }
            Some(v)
        }
        None => None,
    })
}

/// A word of a closed vocabulary the rule set's card restricts (arm, weapon, formation, facing):
/// read as the vocabulary reads it (its own error lists every word), then one of the card's
/// choices, else an error naming the rule set and its choices ("none: 1870 has no weapons").
fn card_choice<T: FromStr<Err = String> + fmt::Display>(
    check: &Check<'_>,
    v: &Spanned<String>,
    i: usize,
    field: Field,
    vocabulary: String,
    spec: &CardSpec,
) -> Result<T, CardError> {
    let name = format!("unit[{i}].{field}");
    let word: T = parse_word(check, v, &name, vocabulary)?;
    if spec
        .field(field)
        .is_some_and(|s| s.accepts(&word.to_string()))
    {
        return Ok(word);
    }
    let title = if spec.title.is_empty() {
        "this rule set"
    } else {
        spec.title
    };
    Err(check.error(
        v.span(),
        &name,
        format!("`{word}` is not one of {title}'s {}", spec::plural(field)),
        spec.accepted(field),
    ))
}

/// The range of a number field of the card, else `lo` to `hi`.
fn range_of(spec: &CardSpec, field: Field, lo: i64, hi: i64) -> (i64, i64) {
    match spec.field(field).map(|f| &f.kind) {
        Some(spec::Kind::Number { min, max, .. }) => (i64::from(*min), i64::from(*max)),
        _ => (lo, hi),
    }
}

/// A card's image, when it gives one: a path inside the cards folder.
fn card_image(
    check: &Check<'_>,
    c: &UnitCard,
    i: usize,
    base_dir: Option<&Path>,
) -> Result<Option<String>, CardError> {
    let f = |field: &str| format!("unit[{i}].{field}");
    Ok(match &c.image {
        Some(im) => {
            check_image_path(im.get_ref(), base_dir).map_err(|m| {
                check.error(
                    im.span(),
                    &f("image"),
                    m,
                    "a path inside the cards folder, e.g. images/12th-grenadiers.png",
                )
            })?;
            Some(im.get_ref().clone())
        }
        None => None,
    })
}

/// A unit card validated into a [`Unit`], field by field in the card's order; the first field
/// that does not read is the error, naming `unit[i].FIELD`. What a choice accepts and a number's
/// range come from the rule set's card ([`CardSpec`], issue 43).
#[doc(hidden)] // public for the tests of this module played with kepi's rule sets (src/sets/played)
pub fn validate_card(
    check: &Check<'_>,
    c: &UnitCard,
    i: usize,
    system: Option<RuleSetId>,
    spec: &CardSpec,
    base_dir: Option<&Path>,
) -> Result<Unit, CardError> {
    let f = |field: &str| format!("unit[{i}].{field}");
    let (name, id) = card_name_and_id(check, c, i)?;
    let side: Side = parse_word(check, &c.side, &f("side"), Side::accepted())?;
    let arm: Arm = card_choice(check, &c.arm, i, Field::Arm, Arm::accepted(), spec)?;
    let quality = card_quality(check, c, i, spec)?;
    let (lo, hi) = range_of(spec, Field::Strength, 1, MAX_STRENGTH);
    let strength = ranged(check, &c.strength, &f("strength"), lo, hi)?;
    let weapon = match &c.weapon {
        Some(w) => Some(card_choice::<Weapon>(
            check,
            w,
            i,
            Field::Weapon,
            Weapon::accepted(),
            spec,
        )?),
        None => None,
    };
    let formation = match &c.formation {
        Some(w) => Some(card_choice::<Formation>(
            check,
            w,
            i,
            Field::Formation,
            Formation::accepted(),
            spec,
        )?),
        None => None,
    };
    let leaders = match &c.leaders {
        Some(l) => {
            let (lo, hi) = range_of(spec, Field::Leaders, 0, MAX_LEADERS);
            ranged(check, l, &f("leaders"), lo, hi)?
        }
        None => default_leaders(system, arm),
    };
    let image = card_image(check, c, i, base_dir)?;
    let hex_rules = system.is_some_and(|s| s.uses_hexes());
    let position = match &c.hex {
        Some(h) => {
            parse_word::<Position>(check, h, &f("hex"), "a hex label like 0304, or off".into())?
        }
        None if c.arrives.is_some() => Position::Off,
        None if hex_rules => Position::Off,
        None => Position::Free,
    };
    let facing = match &c.facing {
        Some(w) => Some(card_choice::<Facing>(
            check,
            w,
            i,
            Field::Facing,
            Facing::accepted(),
            spec,
        )?),
        None => None,
    };
    let arrives = match &c.arrives {
        Some(a) => Some(ranged(check, a, &f("arrives"), 1, 99)?),
        None => None,
    };
    let movement = match &c.movement {
        Some(m) => {
            let (lo, hi) = range_of(spec, Field::Movement, 0, 99);
            Some(ranged(check, m, &f("movement"), lo, hi)?)
        }
        None => None,
    };
    Ok(Unit {
        id,
        name,
        side,
        nation: text(check, &c.nation, &f("nation"), false)?.unwrap_or_default(),
        arm,
        quality,
        strength,
        weapon,
        formation,
        leaders,
        notes: text(check, &c.notes, &f("notes"), true)?.unwrap_or_default(),
        image,
        oob: Oob {
            army: text(check, &c.army, &f("army"), false)?,
            corps: text(check, &c.corps, &f("corps"), false)?,
            division: text(check, &c.division, &f("division"), false)?,
            brigade: text(check, &c.brigade, &f("brigade"), false)?,
        },
        position,
        facing,
        location: text(check, &c.location, &f("location"), false)?,
        arrives,
        movement,
    })
}

/// The battle the window opens with.
pub const DEMO_SCENARIO: &str = "mars-la-tour";

/// Validates compiled-in scenarios: (file name, TOML source), as the registry lists them
/// ([`crate::registry::builtin_scenarios`]).
pub fn validate_scenarios(list: &[(&str, &str)]) -> Result<Vec<Scenario>, CardError> {
    list.iter()
        .map(|(file, src)| validate_roster(&format!("<built-in {file}>"), src, None))
        .collect()
}

/// The scenario named `name` among `all`, or the list of names as the error.
pub fn pick_scenario(
    all: Result<Vec<Scenario>, CardError>,
    name: &str,
) -> Result<Scenario, String> {
    let all = all.map_err(|e| e.to_string())?;
    let names: Vec<String> = all.iter().map(|s| s.name.clone()).collect();
    all.into_iter()
        .find(|s| s.name == name.trim())
        .ok_or_else(|| format!("no scenario `{name}` (accepted: {})", names.join(", ")))
}

/// Reads a card file as a regular UTF-8 file of at most [`MAX_FILE_BYTES`]: a device, FIFO,
/// folder or dangling link is an error naming it, and nothing of it is read.
fn read_card_file(path: &Path) -> Result<String, CardError> {
    crate::fsio::read_regular_string(path, MAX_FILE_BYTES, "card file").map_err(|e| CardError {
        file: path.display().to_string(),
        line: 0,
        column: 0,
        field: String::new(),
        message: e.message(),
        accepted: String::new(),
    })
}

/// A scenario file from disk: size-limited read, images checked against the file's folder.
pub fn load_roster_file(path: &Path) -> Result<Scenario, CardError> {
    let name = path.display().to_string();
    let src = read_card_file(path)?;
    let dir = path
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    validate_roster(&name, &src, Some(&dir))
}

/// What `kepi cards check` found in one file.
#[derive(Clone, Debug, Serialize)]
pub struct CardReport {
    /// The file.
    pub file: String,
    /// Scenario name, if the file is a scenario.
    pub scenario: String,
    /// Number of units.
    pub units: usize,
}

/// Validates a card file, or every `*.toml` in a folder (and its subfolders, at most 4 deep, not
/// following symlinked folders; a `*.toml` that is not a regular file is an error naming it).
/// Images must stay inside `path` (the folder, or the file's folder).
pub fn check_path(path: &Path) -> Result<Vec<CardReport>, CardError> {
    let io_err = |file: &Path, message: String| CardError {
        file: file.display().to_string(),
        line: 0,
        column: 0,
        field: String::new(),
        message,
        accepted: String::new(),
    };
    // Anything but a folder (a link to one is fine) is read as one card file, so a missing file,
    // dangling link, device or FIFO gets the card reader's error naming it.
    if !std::fs::metadata(path).is_ok_and(|m| m.is_dir()) {
        let s = load_roster_file(path)?;
        return Ok(vec![CardReport {
            file: path.display().to_string(),
            scenario: s.name,
            units: s.units.len(),
        }]);
    }
    let mut files = Vec::new();
    collect_toml(path, 0, &mut files).map_err(|e| io_err(path, format!("cannot list: {e}")))?;
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let name = f.display().to_string();
        let src = read_card_file(&f)?;
        let s = validate_roster(&name, &src, Some(path))?;
        out.push(CardReport {
            file: name,
            scenario: s.name,
            units: s.units.len(),
        });
    }
    Ok(out)
}

fn collect_toml(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if depth > 4 || out.len() > 10_000 {
        return Ok(());
    }
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let ft = entry.file_type()?;
        let p = entry.path();
        if ft.is_dir() {
            collect_toml(&p, depth + 1, out)?;
        } else if p.extension().is_some_and(|e| e == "toml") {
            // Files, links to files, and anything else named like a card file: the reader refuses
            // a dangling link, device or FIFO by name rather than it being skipped silently.
            out.push(p);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_labels() {
        assert_eq!("0304".parse::<Hex>(), Ok(Hex { col: 3, row: 4 }));
        assert_eq!(Hex { col: 20, row: 37 }.to_string(), "2037");
        assert!("304".parse::<Hex>().is_err());
        assert!("03a4".parse::<Hex>().is_err());
    }

    #[test]
    fn slugs() {
        assert_eq!(slug("1/12th Grenadiers"), "1-12th-grenadiers");
        assert_eq!(
            slug("9e bataillon de chasseurs à pied"),
            "9e-bataillon-de-chasseurs-a-pied"
        );
    }

    #[test]
    fn image_paths_stay_inside() {
        for bad in ["../x.png", "/etc/passwd", "a/../../b.png", "C:\\x.png", ""] {
            assert!(check_image_path(bad, None).is_err(), "{bad}");
        }
        assert!(check_image_path("images/a.png", None).is_ok());
    }
}
