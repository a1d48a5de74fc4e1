//! A rule set's description of its unit card (issue 43): which fields its cards use, what each
//! accepts, its label and help. Declared once in each rule set's folder (`rules/<set>/card.rs`,
//! returned by [`crate::engine::rule_set::RuleSet::card_spec`]) and read by the TOML loader
//! ([`super::validate_roster`]), the writer ([`super::write`]), the CSV import ([`super::csv_import`])
//! and the order-of-battle builder, so a sixth rule set's card needs nothing of theirs.
//!
//! Plain data: a [`CardSpec`] is a list of [`FieldSpec`]s in the order a form shows them.

use serde::Serialize;

use super::{Arm, Facing, Formation, MAX_LEADERS, MAX_STRENGTH, Quality, Weapon};

/// One field of a unit card: the TOML key, the CSV column, the form's row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Field {
    /// `id`: stable id, made from the name when absent.
    Id,
    /// `name`.
    Name,
    /// `side`: french or german.
    Side,
    /// `nation`.
    Nation,
    /// `arm`.
    Arm,
    /// `quality`: class or quality.
    Quality,
    /// `strength`: figures, guns, strength points or combat strength.
    Strength,
    /// `weapon`: small arm or gun type.
    Weapon,
    /// `formation`.
    Formation,
    /// `leaders`.
    Leaders,
    /// `army`.
    Army,
    /// `corps`.
    Corps,
    /// `division`.
    Division,
    /// `brigade`.
    Brigade,
    /// `hex`: the starting hex, "off" (or "free" on the table).
    Hex,
    /// `facing`.
    Facing,
    /// `location`: where, in words.
    Location,
    /// `arrives`: game-turn of arrival.
    Arrives,
    /// `movement`: movement allowance.
    Movement,
    /// `image`: picture for the printed card.
    Image,
    /// `notes`.
    Notes,
}

impl Field {
    /// Every field, in the order a card file writes them.
    pub const ALL: [Field; 21] = [
        Field::Id,
        Field::Name,
        Field::Side,
        Field::Nation,
        Field::Arm,
        Field::Quality,
        Field::Strength,
        Field::Weapon,
        Field::Formation,
        Field::Leaders,
        Field::Army,
        Field::Corps,
        Field::Division,
        Field::Brigade,
        Field::Hex,
        Field::Facing,
        Field::Location,
        Field::Arrives,
        Field::Movement,
        Field::Image,
        Field::Notes,
    ];

    /// The key in a card file (and the CSV column the export writes).
    pub fn key(self) -> &'static str {
        match self {
            Field::Id => "id",
            Field::Name => "name",
            Field::Side => "side",
            Field::Nation => "nation",
            Field::Arm => "arm",
            Field::Quality => "quality",
            Field::Strength => "strength",
            Field::Weapon => "weapon",
            Field::Formation => "formation",
            Field::Leaders => "leaders",
            Field::Army => "army",
            Field::Corps => "corps",
            Field::Division => "division",
            Field::Brigade => "brigade",
            Field::Hex => "hex",
            Field::Facing => "facing",
            Field::Location => "location",
            Field::Arrives => "arrives",
            Field::Movement => "movement",
            Field::Image => "image",
            Field::Notes => "notes",
        }
    }

    /// The field with this key.
    pub fn from_key(key: &str) -> Option<Field> {
        Field::ALL.into_iter().find(|f| f.key() == key)
    }
}

impl std::fmt::Display for Field {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key())
    }
}

/// How a card places a unit ([`Kind::Position`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Placing {
    /// On a hex of the map: a label like "0304", or "off" until placed or arrived.
    Hex,
    /// On the table, by tape measure (inches or cm): kepi keeps no position; "off" for a unit
    /// not yet on the table.
    Table,
}

/// What a field holds and accepts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Kind {
    /// Free text; `lines`: newlines and tabs allowed (notes), else one line.
    Text {
        /// True for notes.
        lines: bool,
    },
    /// One word of these (the card file's words; aliases are read too).
    Choice {
        /// The accepted words, in the order a menu lists them.
        values: Vec<&'static str>,
    },
    /// A whole number in a range.
    Number {
        /// Smallest accepted.
        min: u32,
        /// Largest accepted.
        max: u32,
        /// What it counts ("figures", "SP", "MP"), when it counts something.
        unit: Option<&'static str>,
    },
    /// Where the unit starts.
    Position {
        /// On hexes or on the table.
        placing: Placing,
    },
}

/// One field as a rule set's card uses it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FieldSpec {
    /// Which field.
    pub field: Field,
    /// Its label on a form and as a CSV column a spreadsheet may use ("Class", "Figures").
    pub label: &'static str,
    /// What it holds.
    pub kind: Kind,
    /// True when every card must give it.
    pub required: bool,
    /// One line of help, with the rule id it comes from.
    pub help: &'static str,
}

impl FieldSpec {
    /// The accepted values in words, as an error's "accepted" says them.
    pub fn accepted(&self) -> String {
        match &self.kind {
            Kind::Text { lines: true } => "printable text, newlines and tabs".into(),
            Kind::Text { lines: false } => {
                "printable text on one line (no control characters)".into()
            }
            Kind::Choice { values } => values.join(", "),
            Kind::Number { min, max, .. } => format!("{min} to {max}"),
            Kind::Position {
                placing: Placing::Hex,
            } => "a hex label like 0304, or off".into(),
            Kind::Position {
                placing: Placing::Table,
            } => "off (not yet on the table), free, or a hex label like 0304".into(),
        }
    }

    /// The choice values, for a [`Kind::Choice`] field (else empty).
    pub fn values(&self) -> &[&'static str] {
        match &self.kind {
            Kind::Choice { values } => values,
            _ => &[],
        }
    }

    /// True when `word` (a card's word, already read into its vocabulary's `as_str`) is one this
    /// field accepts; any word for a field that is not a choice.
    pub fn accepts(&self, word: &str) -> bool {
        match &self.kind {
            Kind::Choice { values } => values.contains(&word),
            _ => true,
        }
    }
}

/// A rule set's unit card: the fields it uses, in the order a form shows them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CardSpec {
    /// The rule set's name as printed, for messages ("Pickelhaube & Kepi"; "" for any).
    pub title: &'static str,
    /// The fields, in form order.
    pub fields: Vec<FieldSpec>,
}

impl CardSpec {
    /// The spec of `field`, when the card uses it.
    pub fn field(&self, field: Field) -> Option<&FieldSpec> {
        self.fields.iter().find(|f| f.field == field)
    }

    /// True when the card uses `field`.
    pub fn uses(&self, field: Field) -> bool {
        self.field(field).is_some()
    }

    /// What `field` accepts; for a field the card does not use, "none: TITLE has no ...".
    pub fn accepted(&self, field: Field) -> String {
        match self.field(field) {
            Some(f) => f.accepted(),
            None => format!("none: {} has no {}", self.title_or_any(), plural(field)),
        }
    }

    fn title_or_any(&self) -> &'static str {
        if self.title.is_empty() {
            "this rule set"
        } else {
            self.title
        }
    }

    /// The card of a rule set that declares none (a card file without a rule set, or a rule set
    /// registered without a [`crate::engine::rule_set::RuleSet::card_spec`]): every field, every
    /// word of the vocabularies, and the qualities and placing it has.
    pub fn generic(
        title: &'static str,
        qualities: &[Quality],
        hexes: bool,
        strength_unit: &'static str,
    ) -> CardSpec {
        let mut b = Builder::new(title)
            .common()
            .choice(
                Field::Arm,
                "Arm",
                Arm::ALL.iter().map(|a| a.as_str()).collect(),
                true,
                "the arm of service",
            )
            .quality(
                "Class",
                qualities,
                "the class or quality the rule set gives",
            )
            .number(
                Field::Strength,
                "Strength",
                1,
                MAX_STRENGTH,
                Some(strength_unit),
                true,
                "strength at full strength",
            )
            .choice(
                Field::Weapon,
                "Weapon",
                Weapon::ALL.iter().map(|w| w.as_str()).collect(),
                false,
                "small arm or gun",
            )
            .choice(
                Field::Formation,
                "Formation",
                Formation::ALL.iter().map(|w| w.as_str()).collect(),
                false,
                "the starting formation",
            )
            .number(
                Field::Leaders,
                "Leaders",
                0,
                MAX_LEADERS,
                None,
                false,
                "leaders at full strength",
            )
            .hierarchy()
            .position(
                if hexes { Placing::Hex } else { Placing::Table },
                "the starting hex, or off",
            )
            .facing("the starting facing")
            .tail(true);
        b.sort();
        b.build()
    }
}

/// The field's values in the plural, for messages ("weapons").
pub(crate) fn plural(field: Field) -> &'static str {
    match field {
        Field::Arm => "arms",
        Field::Side => "sides",
        Field::Quality => "classes",
        Field::Weapon => "weapons",
        Field::Formation => "formations",
        Field::Leaders => "leaders",
        Field::Hex => "hexes",
        Field::Facing => "facings",
        Field::Movement => "movement allowances",
        Field::Arrives => "arrival turns",
        Field::Location => "locations",
        other => other.key(),
    }
}

/// Builds a [`CardSpec`] in form order: what each rule set's `card.rs` declares its card with.
pub struct Builder {
    spec: CardSpec,
}

impl Builder {
    /// An empty card for the rule set titled `title`.
    pub fn new(title: &'static str) -> Builder {
        Builder {
            spec: CardSpec {
                title,
                fields: Vec::new(),
            },
        }
    }

    /// Adds a field.
    pub fn field(mut self, f: FieldSpec) -> Builder {
        self.spec.fields.retain(|g| g.field != f.field);
        self.spec.fields.push(f);
        self
    }

    /// Adds a text field.
    pub fn text(
        self,
        field: Field,
        label: &'static str,
        required: bool,
        help: &'static str,
    ) -> Builder {
        self.field(FieldSpec {
            field,
            label,
            kind: Kind::Text {
                lines: field == Field::Notes,
            },
            required,
            help,
        })
    }

    /// Adds a choice field.
    pub fn choice(
        self,
        field: Field,
        label: &'static str,
        values: Vec<&'static str>,
        required: bool,
        help: &'static str,
    ) -> Builder {
        self.field(FieldSpec {
            field,
            label,
            kind: Kind::Choice { values },
            required,
            help,
        })
    }

    /// Adds the arm, from these arms.
    pub fn arms(self, arms: &[Arm], help: &'static str) -> Builder {
        self.choice(
            Field::Arm,
            "Arm",
            arms.iter().map(|a| a.as_str()).collect(),
            true,
            help,
        )
    }

    /// Adds the class or quality (optional), from these (nothing when empty: no classes).
    pub fn quality(
        self,
        label: &'static str,
        qualities: &[Quality],
        help: &'static str,
    ) -> Builder {
        if qualities.is_empty() {
            return self;
        }
        self.choice(
            Field::Quality,
            label,
            qualities.iter().map(|q| q.as_str()).collect(),
            false,
            help,
        )
    }

    /// Adds the weapon or gun (optional), from these.
    pub fn weapons(self, label: &'static str, weapons: &[Weapon], help: &'static str) -> Builder {
        self.choice(
            Field::Weapon,
            label,
            weapons.iter().map(|w| w.as_str()).collect(),
            false,
            help,
        )
    }

    /// Adds the starting formation (optional), from these.
    pub fn formations(self, formations: &[Formation], help: &'static str) -> Builder {
        self.choice(
            Field::Formation,
            "Formation",
            formations.iter().map(|w| w.as_str()).collect(),
            false,
            help,
        )
    }

    /// Adds a number field.
    #[allow(clippy::too_many_arguments)]
    pub fn number(
        self,
        field: Field,
        label: &'static str,
        min: i64,
        max: i64,
        unit: Option<&'static str>,
        required: bool,
        help: &'static str,
    ) -> Builder {
        let clamp = |x: i64| u32::try_from(x.max(0)).unwrap_or(u32::MAX);
        self.field(FieldSpec {
            field,
            label,
            kind: Kind::Number {
                min: clamp(min),
                max: clamp(max),
                unit,
            },
            required,
            help,
        })
    }

    /// Adds the strength (required, 1 to [`MAX_STRENGTH`]) counted in `unit`.
    pub fn strength(self, label: &'static str, unit: &'static str, help: &'static str) -> Builder {
        self.number(
            Field::Strength,
            label,
            1,
            MAX_STRENGTH,
            Some(unit),
            true,
            help,
        )
    }

    /// Adds the leaders (optional, 0 to [`MAX_LEADERS`]).
    pub fn leaders(self, help: &'static str) -> Builder {
        self.number(Field::Leaders, "Leaders", 0, MAX_LEADERS, None, false, help)
    }

    /// Adds the starting position (optional).
    pub fn position(self, placing: Placing, help: &'static str) -> Builder {
        let label = match placing {
            Placing::Hex => "Hex",
            Placing::Table => "On the table",
        };
        self.field(FieldSpec {
            field: Field::Hex,
            label,
            kind: Kind::Position { placing },
            required: false,
            help,
        })
    }

    /// Adds the facing (optional): the eight compass points.
    pub fn facing(self, help: &'static str) -> Builder {
        self.choice(
            Field::Facing,
            "Facing",
            Facing::ALL.iter().map(|f| f.as_str()).collect(),
            false,
            help,
        )
    }

    /// Adds the movement allowance (optional, 0 to 99) counted in `unit`.
    pub fn movement(self, unit: &'static str, help: &'static str) -> Builder {
        self.number(Field::Movement, "Movement", 0, 99, Some(unit), false, help)
    }

    /// Adds what every card has: id, name, side and nation.
    pub fn common(self) -> Builder {
        self.text(
            Field::Id,
            "Id",
            false,
            "stable id: lower-case letters, digits and '-'; made from the name when absent",
        )
        .text(
            Field::Name,
            "Name",
            true,
            "the unit's name, e.g. \"I/12th Grenadiers\"",
        )
        .choice(
            Field::Side,
            "Side",
            super::Side::ALL.iter().map(|s| s.as_str()).collect(),
            true,
            "french or german",
        )
        .text(
            Field::Nation,
            "Nation",
            false,
            "the state army: Prussia, Bavaria, Saxony, France ...",
        )
    }

    /// Adds the order of battle: army, corps, division, brigade (optional text).
    pub fn hierarchy(self) -> Builder {
        self.text(Field::Army, "Army", false, "order of battle: the army")
            .text(Field::Corps, "Corps", false, "order of battle: the corps")
            .text(
                Field::Division,
                "Division",
                false,
                "order of battle: the division",
            )
            .text(
                Field::Brigade,
                "Brigade",
                false,
                "order of battle: the brigade",
            )
    }

    /// Adds location, arrival, (movement when `movement`), image and notes.
    pub fn tail(self, movement: bool) -> Builder {
        let b = self
            .text(
                Field::Location,
                "Location",
                false,
                "where the unit stands, in words (\"Chalons\", \"left flank\")",
            )
            .number(
                Field::Arrives,
                "Arrives",
                1,
                99,
                None,
                false,
                "a reinforcement: the game-turn it arrives (it starts off the map)",
            );
        let b = if movement {
            b.movement("MP", "the movement allowance")
        } else {
            b
        };
        b.text(
            Field::Image,
            "Image",
            false,
            "a picture for the printed card, inside the cards folder",
        )
        .text(Field::Notes, "Notes", false, "free text")
    }

    /// Orders the fields as a card file writes them ([`Field::ALL`]).
    pub fn sort(&mut self) {
        self.spec.fields.sort_by_key(|f| f.field);
    }

    /// The card.
    pub fn build(self) -> CardSpec {
        self.spec
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::roster::Quality;

    #[test]
    fn keys_read_back() {
        for f in Field::ALL {
            assert_eq!(Field::from_key(f.key()), Some(f));
        }
        let mut sorted = Field::ALL;
        sorted.sort();
        assert_eq!(sorted, Field::ALL, "ALL is in declaration (file) order");
    }

    #[test]
    fn the_generic_card_has_every_field() {
        let s = CardSpec::generic("", Quality::ALL, false, "figures");
        for f in Field::ALL {
            assert!(s.uses(f), "{f}");
        }
        let none = CardSpec::generic("SPI", &[], true, "CP");
        assert!(!none.uses(Field::Quality));
        assert_eq!(none.accepted(Field::Quality), "none: SPI has no classes");
    }
}
