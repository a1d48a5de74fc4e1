//! How a unit in play is written in saves and logs, and how [`Action::SetFlag`] names what it sets.
//!
//! Issue 45: the markers the first five rule sets' units carry beyond the engine's flags
//! (P&K's muddle and lost flag, the Graveyard's hidden guns, SPI's entraining, 1870's
//! disorganisation, retreat, passage at sea and storm) are declared by their sets
//! ([`super::UnitMarkerKind`]) and kept in [`UnitState::marks`] like any set's own. Saves and logs
//! spelled them as fields of the unit before, and every log's first entry hashes its units as
//! written: [`LEGACY_MARKERS`] is that spelling, and nothing else. The engine knows those names
//! as keys of its save format, not what they mean; the unit is written exactly as before (the
//! same keys, the same values), so a log written before verifies, and one written now opens in
//! an older kepi.
//!
//! [`Action::SetFlag`]: super::Action::SetFlag

use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Flag, Level, Supply, UnitState};
use crate::roster::{Facing, Position, Unit};

/// The markers the older sets' units carried as fields before issue 45, by name: saves write
/// each under its field (`flag_lost` for `flag-lost`: [`Wire`]) and read it back into
/// [`UnitState::marks`]; any other marker is written in `marks`.
pub const LEGACY_MARKERS: [&str; 8] = [
    "muddled",
    "flag-lost",
    "disorganised",
    "entrained",
    "hidden",
    "must-retreat",
    "at-sea",
    "stormed",
];

/// True when `name` is a marker saves spell as a field of the unit ([`LEGACY_MARKERS`]): an older
/// kepi took it for any rule set's unit, so [`super::Action::SetFlag`] still does.
pub fn is_legacy_marker(name: &str) -> bool {
    LEGACY_MARKERS.contains(&name)
}

/// The action that puts the rule set's marker `name` on `unit` or takes it off: one the older
/// sets' units carried as a field ([`LEGACY_MARKERS`]) is set as it was ([`Action::SetFlag`]:
/// on or off whatever it was, the action their logs hold); any other is put on or taken off
/// ([`Action::MarkUnit`]: refused when it is on already, or not on).
///
/// [`Action::SetFlag`]: super::Action::SetFlag
/// [`Action::MarkUnit`]: super::Action::MarkUnit
pub fn mark_action(unit: String, name: &str, on: bool) -> super::Action {
    if is_legacy_marker(name) {
        super::Action::SetFlag {
            unit,
            flag: FlagName::Mark(name.to_string()),
            on,
        }
    } else {
        super::Action::MarkUnit {
            unit,
            kind: name.to_string(),
            on,
        }
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// The unit as saves write it: borrowed from the state to write (`Wire<&Arc<Unit>, &str>`), owned
/// to read (`Wire<Arc<Unit>, String>`). The older markers' fields are optional to read (a save
/// kepi wrote always has the first five) and written as they always were.
#[derive(Serialize, Deserialize)]
struct Wire<U, M> {
    unit: U,
    strength: u32,
    max_strength: u32,
    fatigue: u32,
    level: Level,
    disordered: bool,
    #[serde(default)]
    muddled: bool,
    limbered: bool,
    #[serde(default)]
    flag_lost: bool,
    #[serde(default)]
    disorganised: bool,
    #[serde(default)]
    entrained: bool,
    #[serde(default)]
    hidden: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    must_retreat: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    extended: Option<bool>,
    #[serde(default, skip_serializing_if = "is_false")]
    at_sea: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    stormed: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    strength_hidden: bool,
    moved: bool,
    fired: bool,
    activated: bool,
    melees: u32,
    leaders: u32,
    max_leaders: u32,
    position: Position,
    facing: Option<Facing>,
    supply: Supply,
    #[serde(default, skip_serializing_if = "is_false")]
    supply_typed: bool,
    #[serde(default = "Vec::new", skip_serializing_if = "Vec::is_empty")]
    marks: Vec<M>,
}

impl<U, M> Wire<U, M> {
    /// The older markers' fields, each with its marker's name ([`LEGACY_MARKERS`], in order).
    fn legacy(&mut self) -> [(&mut bool, &'static str); 8] {
        let [a, b, c, d, e, f, g, h] = LEGACY_MARKERS;
        [
            (&mut self.muddled, a),
            (&mut self.flag_lost, b),
            (&mut self.disorganised, c),
            (&mut self.entrained, d),
            (&mut self.hidden, e),
            (&mut self.must_retreat, f),
            (&mut self.at_sea, g),
            (&mut self.stormed, h),
        ]
    }
}

impl Serialize for UnitState {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut w = Wire {
            unit: &self.unit,
            strength: self.strength,
            max_strength: self.max_strength,
            fatigue: self.fatigue,
            level: self.level,
            disordered: self.disordered,
            muddled: false,
            limbered: self.limbered,
            flag_lost: false,
            disorganised: false,
            entrained: false,
            hidden: false,
            must_retreat: false,
            extended: self.extended,
            at_sea: false,
            stormed: false,
            strength_hidden: self.strength_hidden,
            moved: self.moved,
            fired: self.fired,
            activated: self.activated,
            melees: self.melees,
            leaders: self.leaders,
            max_leaders: self.max_leaders,
            position: self.position,
            facing: self.facing,
            supply: self.supply,
            supply_typed: self.supply_typed,
            marks: self
                .marks
                .iter()
                .map(String::as_str)
                .filter(|m| !is_legacy_marker(m))
                .collect(),
        };
        for (field, name) in w.legacy() {
            *field = self.has_mark(name);
        }
        w.serialize(s)
    }
}

impl<'de> Deserialize<'de> for UnitState {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut w = Wire::<Arc<Unit>, String>::deserialize(d)?;
        let mut marks = std::mem::take(&mut w.marks);
        for (field, name) in w.legacy() {
            if *field {
                marks.push(name.to_string());
            }
        }
        marks.sort();
        marks.dedup();
        Ok(UnitState {
            unit: w.unit,
            strength: w.strength,
            max_strength: w.max_strength,
            fatigue: w.fatigue,
            level: w.level,
            disordered: w.disordered,
            limbered: w.limbered,
            extended: w.extended,
            strength_hidden: w.strength_hidden,
            moved: w.moved,
            fired: w.fired,
            activated: w.activated,
            melees: w.melees,
            leaders: w.leaders,
            max_leaders: w.max_leaders,
            position: w.position,
            facing: w.facing,
            supply: w.supply,
            supply_typed: w.supply_typed,
            marks,
        })
    }
}

/// What [`super::Action::SetFlag`] sets: one of the engine's flags, or a marker of the kinds the
/// unit's rule set declares (issue 45), by name. Written as the name, as the flag was before, so a
/// log that set `disorganised` reads and hashes the same.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FlagName {
    /// An engine flag.
    Flag(Flag),
    /// A rule set's marker ([`super::UnitMarkerKind::name`]).
    Mark(String),
}

impl FlagName {
    /// Its name in saves, logs and verbs.
    pub fn name(&self) -> &str {
        match self {
            FlagName::Flag(f) => f.as_str(),
            FlagName::Mark(m) => m,
        }
    }

    /// The rule set's marker `kind`.
    pub fn mark(kind: &super::UnitMarkerKind) -> Self {
        FlagName::Mark(kind.name.to_string())
    }
}

impl From<Flag> for FlagName {
    fn from(f: Flag) -> Self {
        FlagName::Flag(f)
    }
}

impl std::fmt::Display for FlagName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for FlagName {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// A word as typed: an engine flag's (any case, `_` or a space for `-`), else a marker's name in
/// those words (whether the rule set declares it is [`super::apply`]'s to say).
impl std::str::FromStr for FlagName {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if let Ok(f) = s.parse::<Flag>() {
            return Ok(FlagName::Flag(f));
        }
        let word = typed_word(s);
        if valid_name(&word) {
            Ok(FlagName::Mark(word))
        } else {
            Err(format!(
                "`{s}` is neither a flag ({}) nor a marker's name",
                Flag::accepted()
            ))
        }
    }
}

/// A flag's or a marker's name as typed, in the words saves use: any case, `_` or a space for `-`
/// (`At sea` is `at-sea`), as the flags' words have always been read.
pub fn typed_word(s: &str) -> String {
    s.trim().to_ascii_lowercase().replace(['_', ' '], "-")
}

fn valid_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= MAX_NAME
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// The longest marker name read (a name is a word, `exited-west`).
const MAX_NAME: usize = 64;

impl<'de> Deserialize<'de> for FlagName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        if let Some(f) = Flag::ALL.iter().find(|f| f.as_str() == s) {
            return Ok(FlagName::Flag(*f));
        }
        if !valid_name(&s) {
            return Err(serde::de::Error::custom(format!(
                "`{s}` is neither a flag ({}) nor a marker's name (lowercase letters, digits and \
                 '-', at most {MAX_NAME})",
                Flag::accepted()
            )));
        }
        Ok(FlagName::Mark(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A unit as a kepi before issue 45 wrote it: 1870's disorganised, at sea and must retreat as
    /// fields, one marker of the newer kind in `marks`.
    const OLDER: &str = r#"{"unit":{"id":"fr-1","name":"1er corps","side":"french","nation":"France",
        "arm":"infantry","quality":"normal","strength":4,"weapon":null,"formation":null,"leaders":0,
        "notes":"","image":null,"oob":{"army":"","corps":"","division":""},
        "position":{"at":"hex","col":2,"row":1},"facing":null,"location":null,"arrives":null,
        "movement":2},"strength":4,"max_strength":4,"fatigue":0,"level":"steady",
        "disordered":false,"muddled":false,"limbered":false,"flag_lost":false,
        "disorganised":true,"entrained":false,"hidden":false,"must_retreat":true,"at_sea":true,
        "moved":false,"fired":false,"activated":false,"melees":0,"leaders":0,"max_leaders":0,
        "position":{"at":"hex","col":2,"row":1},"facing":null,"supply":"supplied",
        "marks":["exited-west"]}"#;

    #[test]
    fn a_unit_written_before_reads_its_fields_as_markers_and_is_written_back_the_same() {
        let u: UnitState = serde_json::from_str(OLDER).unwrap();
        assert_eq!(
            u.marks,
            ["at-sea", "disorganised", "exited-west", "must-retreat"]
        );
        let older: serde_json::Value = serde_json::from_str(OLDER).unwrap();
        assert_eq!(serde_json::to_value(&u).unwrap(), older);
        // The log's hash reads the canonical form: the same bytes both ways.
        let mut fast = Vec::new();
        super::super::canon::write_canonical(&u, None, &mut fast).unwrap();
        assert_eq!(fast, serde_json::to_vec(&older).unwrap());
    }

    #[test]
    fn a_marker_put_on_now_is_written_under_its_older_field() {
        let mut u: UnitState = serde_json::from_str(OLDER).unwrap();
        u.set_mark("disorganised", false);
        u.set_mark("entrained", true);
        u.set_mark("wavering", true);
        let v = serde_json::to_value(&u).unwrap();
        assert_eq!(v["disorganised"], false);
        assert_eq!(v["entrained"], true);
        assert_eq!(v["marks"], serde_json::json!(["exited-west", "wavering"]));
        let back: UnitState = serde_json::from_value(v).unwrap();
        assert_eq!(back, u);
    }

    #[test]
    fn a_set_flag_names_a_flag_or_a_marker_as_the_log_wrote_it() {
        for (text, want) in [
            ("\"limbered\"", FlagName::Flag(Flag::Limbered)),
            ("\"must-retreat\"", FlagName::Mark("must-retreat".into())),
        ] {
            let f: FlagName = serde_json::from_str(text).unwrap();
            assert_eq!(f, want);
            assert_eq!(serde_json::to_string(&f).unwrap(), text);
        }
        assert!(serde_json::from_str::<FlagName>("\"Not A Name\"").is_err());
        assert_eq!(
            "At sea".parse::<FlagName>(),
            Ok(FlagName::Mark("at-sea".into()))
        );
    }
}
