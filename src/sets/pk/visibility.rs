//! Visibility (PK-V1): how far an observer sees, into woods and over what stands between, as a
//! pure function over plain data that says whether a target is seen and why, step by step.
//!
//! The text (Pickelhaube & Kepi, seed 002): "Visibility in clear weather is 60”. It increases 5”
//! per contour for a maximum of 15”. Visibility is blocked by woods, hills, tall grasses, and
//! building. For simplicity, the height of everything is measured in contours. Each story on a
//! building is a contour. Light woods are 2 contours tall and heavy woods are 4 contours tall.
//! Cornfields, wheat fields and scrub are 1 contour tall. Observers must be 2 contours above an
//! intervening contour to see over it. Otherwise there is 4” of dead space behind it. Units behind
//! a contour cannot be seen and take no casualties from enemy fire. Visibility in light woods is
//! 20” and heavy woods 10”. However, an observer outside light woods can only see 4” into the
//! woods or 2” into heavy woods." Every number comes from `[visibility]` in `tables/pk.toml`, with
//! its provenance. Fire and artillery ask it when their sight is given (PK-A1: "the target visible
//! to the crew"); what it finds is a warning, the umpire decides.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::common::Lines;
use super::{PkTables, Terrain};
use kepi_game::dice::{Dist, Ratio};
use kepi_game::rules::{Effect, ModifierLine, Resolution, RuleError, limits, odds_from};
use kepi_game::tables::{Provenance, Sourced};

/// PK-V1 as printed, the sentences a note quotes.
pub const CLEAR: &str =
    "\"Visibility in clear weather is 60”. It increases 5” per contour for a maximum of 15”.\"";
/// PK-V1: the woods' sentences.
pub const WOODS: &str = "\"Visibility in light woods is 20” and heavy woods 10”. However, an observer outside light woods can only see 4” into the woods or 2” into heavy woods.\"";
/// PK-V1: the dead ground's sentences.
pub const DEAD: &str = "\"Observers must be 2 contours above an intervening contour to see over it. Otherwise there is 4” of dead space behind it. Units behind a contour cannot be seen and take no casualties from enemy fire.\"";

/// PK-V1: how far an observer sees (the plain helper; [`sight`] gives the whole answer).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct VisibilityInput {
    /// The observer's height in contours (hill contours, building storeys).
    pub observer_contours: u32,
    /// Where the observer stands.
    pub observer_in: Terrain,
    /// Where the target stands.
    pub target_in: Terrain,
}

/// PK-V1: visibility distance in inches: 60" clear + 5" per contour (at most +15"); 20" inside light
/// woods, 10" inside heavy woods; from outside, 4" into light woods and 2" into heavy woods (the
/// distance returned is then how far into the wood one sees).
pub fn visibility(input: &VisibilityInput, t: &PkTables) -> i64 {
    let v = &t.visibility;
    match input.observer_in {
        Terrain::LightWoods => return v.light_woods.v(),
        Terrain::HeavyWoods => return v.heavy_woods.v(),
        Terrain::Open => {}
    }
    match input.target_in {
        Terrain::LightWoods => v.into_light_woods.v(),
        Terrain::HeavyWoods => v.into_heavy_woods.v(),
        Terrain::Open => v.clear.v() + height_bonus(input.observer_contours, t),
    }
}

/// PK-V1: "It increases 5” per contour for a maximum of 15”": the observer's height bonus, inches.
fn height_bonus(contours: u32, t: &PkTables) -> i64 {
    let v = &t.visibility;
    v.per_contour
        .v()
        .saturating_mul(i64::from(contours))
        .min(v.max_bonus.v())
}

/// PK-V1: heights in contours of what blocks sight ("Each story on a building is a contour. Light
/// woods are 2 contours tall and heavy woods are 4 contours tall. Cornfields, wheat fields and
/// scrub are 1 contour tall.").
pub fn obstacle_height(what: Obstacle, t: &PkTables) -> i64 {
    height_of(what, t).0
}

/// PK-V1: an obstacle's height in contours and where the figure comes from (a hill's contours are
/// the table's, as the umpire gives them).
fn height_of(what: Obstacle, t: &PkTables) -> (i64, Provenance) {
    let v = &t.visibility;
    let per = |s: &Sourced<i64>, n: u32| (s.v().saturating_mul(i64::from(n)), s.provenance);
    match what {
        Obstacle::Building { storeys } => per(&v.storey_height, storeys),
        Obstacle::LightWoods => per(&v.light_woods_height, 1),
        Obstacle::HeavyWoods => per(&v.heavy_woods_height, 1),
        Obstacle::Crops => per(&v.crops_height, 1),
        Obstacle::Hill { contours } => (i64::from(contours), Provenance::Seed),
    }
}

/// PK-V1: things that block sight ("Visibility is blocked by woods, hills, tall grasses, and
/// building.").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Obstacle {
    /// A building of so many storeys.
    Building {
        /// Storeys.
        storeys: u32,
    },
    /// Light woods.
    LightWoods,
    /// Heavy woods.
    HeavyWoods,
    /// Cornfields, wheat, tall grass, scrub.
    Crops,
    /// A hill of so many contours.
    Hill {
        /// Contours.
        contours: u32,
    },
}

impl Obstacle {
    /// The words `--obstacle` takes, for messages.
    pub const ACCEPTED: &'static str =
        "crops, light-woods, heavy-woods, building:STOREYS, hill:CONTOURS (e.g. hill:2)";
}

/// `crops`, `light-woods`, `heavy-woods`, `building:2`, `hill:3`: what `--obstacle` takes.
impl fmt::Display for Obstacle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Obstacle::Building { storeys } => write!(f, "building:{storeys}"),
            Obstacle::LightWoods => f.write_str("light-woods"),
            Obstacle::HeavyWoods => f.write_str("heavy-woods"),
            Obstacle::Crops => f.write_str("crops"),
            Obstacle::Hill { contours } => write!(f, "hill:{contours}"),
        }
    }
}

impl FromStr for Obstacle {
    type Err = String;
    /// PK-V1's obstacles by name; cornfields, wheat and scrub are crops (1 contour); a building's
    /// storeys and a hill's contours after a colon, 1 to 100.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        let bad = || format!("unknown obstacle `{s}` (accepted: {})", Obstacle::ACCEPTED);
        let count = |n: &str| -> Result<u32, String> {
            let n: u32 = n.trim().parse().map_err(|_| bad())?;
            if n == 0 || !limits::CONTOURS.contains(i64::from(n)) {
                return Err(format!(
                    "`{s}`: {n} is out of range (accepted: 1 to {})",
                    limits::CONTOURS.hi
                ));
            }
            Ok(n)
        };
        match t.split_once(':') {
            Some(("building", n)) => Ok(Obstacle::Building { storeys: count(n)? }),
            Some(("hill", n)) => Ok(Obstacle::Hill {
                contours: count(n)?,
            }),
            Some(_) => Err(bad()),
            None => match t.as_str() {
                "crops" | "cornfield" | "wheat" | "scrub" | "tall-grass" => Ok(Obstacle::Crops),
                "light-woods" => Ok(Obstacle::LightWoods),
                "heavy-woods" => Ok(Obstacle::HeavyWoods),
                _ => Err(bad()),
            },
        }
    }
}

/// PK-V1: can an observer at `observer` contours see a target `behind` inches beyond an intervening
/// height of `obstacle` contours? It must be 2 contours above it to see over; else there are 4" of
/// dead ground behind it (targets there are unseen and take no fire).
pub fn sees_over(observer: i64, obstacle: i64, behind: Ratio, t: &PkTables) -> bool {
    let v = &t.visibility;
    observer - obstacle >= v.see_over.v() || behind > Ratio::int(v.dead_ground.v())
}

/// PK-V1: what a fire's sight is, as the umpire gives it: the observer's height and ground, the
/// target's ground and depth into woods, and what stands between. Every height is in contours
/// from the same level ground (a hill's contours plus a building's storeys); every distance in
/// the text's inches.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Sight {
    /// The observer's height in contours (a hill's contours, a building's storey).
    pub observer_contours: u32,
    /// Where the observer stands: open ground or inside light or heavy woods.
    pub observer_in: Terrain,
    /// Where the target stands.
    pub target_in: Terrain,
    /// How far the target is inside its woods, inches (0 at the edge).
    pub target_depth: Ratio,
    /// What stands between observer and target, when anything does.
    pub obstacle: Option<Obstacle>,
    /// How far behind the obstacle the target is, inches.
    pub behind: Ratio,
}

/// PK-V1: the answer: seen or not, how far the observer sees, and each step as a line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Visibility {
    /// The target is seen.
    pub visible: bool,
    /// How far the observer sees, inches (exact).
    pub limit: Ratio,
    /// The target is in the dead ground behind an obstacle: unseen, and it takes no casualties
    /// from fire.
    pub dead_ground: bool,
    /// Why it is not seen, one reason each ("beyond 70\" visibility"); empty when seen.
    pub why: Vec<String>,
    /// Each step: the base, the height bonus, the woods, the obstacle, the range.
    pub lines: Vec<ModifierLine>,
}

impl Visibility {
    /// "beyond 70\" visibility; in the 4\" of dead ground behind hill:2", or None when seen.
    pub fn reason(&self) -> Option<String> {
        (!self.visible).then(|| self.why.join("; "))
    }
}

/// PK-V1: a distance given to the rule, at least 0.
fn not_negative(v: Ratio, field: &str) -> Result<(), RuleError> {
    if v < Ratio::ZERO || v > Ratio::int(limits::INCHES.hi) {
        return Err(RuleError::input(
            field,
            format!("{v}\" is out of range"),
            format!("0 to {}\"", limits::INCHES.hi),
        ));
    }
    Ok(())
}

/// PK-V1: refuses what no table holds (a negative distance, a height past
/// [`limits::CONTOURS`]).
fn check(s: &Sight, range: Ratio) -> Result<(), RuleError> {
    limits::CONTOURS.check("observer_contours", s.observer_contours)?;
    not_negative(range, "range")?;
    not_negative(s.target_depth, "target_depth")?;
    not_negative(s.behind, "behind")?;
    match s.obstacle {
        Some(Obstacle::Building { storeys: n } | Obstacle::Hill { contours: n })
            if n == 0 || !limits::CONTOURS.contains(i64::from(n)) =>
        {
            Err(RuleError::input(
                "obstacle",
                format!("{n} contours is out of range"),
                format!("1 to {}", limits::CONTOURS.hi),
            ))
        }
        _ => Ok(()),
    }
}

/// PK-V1: a ground in words for a line ("light woods").
fn words(w: Terrain) -> &'static str {
    match w {
        Terrain::Open => "open ground",
        Terrain::LightWoods => "light woods",
        Terrain::HeavyWoods => "heavy woods",
    }
}

/// PK-V1: "Visibility in light woods is 20” and heavy woods 10”": the limit inside woods.
fn inside(w: Terrain, t: &PkTables) -> Option<&Sourced<i64>> {
    match w {
        Terrain::Open => None,
        Terrain::LightWoods => Some(&t.visibility.light_woods),
        Terrain::HeavyWoods => Some(&t.visibility.heavy_woods),
    }
}

/// PK-V1: "an observer outside light woods can only see 4” into the woods or 2” into heavy
/// woods": how far in one sees from outside.
fn into(w: Terrain, t: &PkTables) -> Option<&Sourced<i64>> {
    match w {
        Terrain::Open => None,
        Terrain::LightWoods => Some(&t.visibility.into_light_woods),
        Terrain::HeavyWoods => Some(&t.visibility.into_heavy_woods),
    }
}

/// PK-V1: the observer's limit: 60" in clear weather and 5" per contour of height, at most +15";
/// inside woods, the woods' own (20", 10"), where height adds nothing. Seen from inside woods, a
/// target in thicker woods is seen only as far as those woods allow (derived: the text gives
/// each woods' visibility, not the mix).
fn limit_lines(l: &mut Lines, s: &Sight, t: &PkTables) -> Ratio {
    let v = &t.visibility;
    let mut limit = match inside(s.observer_in, t) {
        None => {
            l.base(
                "visibility in clear weather (inches)",
                v.clear.v(),
                "PK-V1",
                v.clear.provenance,
            );
            let bonus = height_bonus(s.observer_contours, t);
            if s.observer_contours > 0 {
                let n = s.observer_contours;
                l.push(
                    format!(
                        "observer {n} contour{} up: +{}\" each, at most +{}\"",
                        if n == 1 { "" } else { "s" },
                        v.per_contour.v(),
                        v.max_bonus.v()
                    ),
                    Effect::Add(Ratio::int(bonus)),
                    "PK-V1",
                    v.per_contour.provenance.weakest(v.max_bonus.provenance),
                );
            }
            Ratio::int(v.clear.v() + bonus)
        }
        Some(w) => {
            l.base(
                format!("visibility inside {} (inches)", words(s.observer_in)),
                w.v(),
                "PK-V1",
                w.provenance,
            );
            if s.observer_contours > 0 {
                l.note(
                    "observer inside woods: the woods' visibility, no height bonus",
                    "PK-V1",
                    Provenance::Derived,
                );
            }
            Ratio::int(w.v())
        }
    };
    if s.observer_in != Terrain::Open
        && let Some(w) = inside(s.target_in, t)
        && Ratio::int(w.v()) < limit
    {
        limit = Ratio::int(w.v());
        l.target(
            format!(
                "target inside {}: seen as far as they allow (inches)",
                words(s.target_in)
            ),
            w.v(),
            "PK-V1",
            Provenance::Derived,
        );
    }
    limit
}

/// PK-V1: "an observer outside light woods can only see 4” into the woods or 2” into heavy woods":
/// the target's depth against what an observer outside sees in; pushes the reason when too deep.
fn woods_lines(l: &mut Lines, s: &Sight, t: &PkTables, why: &mut Vec<String>) {
    if s.observer_in != Terrain::Open {
        return;
    }
    let Some(into) = into(s.target_in, t) else {
        return;
    };
    l.target(
        format!("from outside, seen into {} (inches)", words(s.target_in)),
        into.v(),
        "PK-V1",
        into.provenance,
    );
    l.push(
        "target's depth into the woods (inches)",
        Effect::Target(s.target_depth),
        "PK-V1",
        Provenance::Seed,
    );
    if s.target_depth > Ratio::int(into.v()) {
        why.push(format!(
            "{}\" into {}: from outside one sees {}\" in",
            s.target_depth,
            words(s.target_in),
            into.v()
        ));
    }
}

/// PK-V1: "Observers must be 2 contours above an intervening contour to see over it. Otherwise
/// there is 4” of dead space behind it. Units behind a contour cannot be seen": the obstacle's
/// height against the observer's; pushes the reason and returns true when the target is in the
/// dead ground (a target exactly 4" behind is in it).
fn obstacle_lines(l: &mut Lines, s: &Sight, t: &PkTables, why: &mut Vec<String>) -> bool {
    let Some(o) = s.obstacle else {
        return false;
    };
    let v = &t.visibility;
    let (h, p) = height_of(o, t);
    l.target(
        format!("intervening {o}: height in contours"),
        h,
        "PK-V1",
        p,
    );
    let above = i64::from(s.observer_contours) - h;
    let need = v.see_over.v();
    if above >= need {
        l.note(
            format!("observer {above} contours above it (needs {need}): sees over it"),
            "PK-V1",
            v.see_over.provenance,
        );
        return false;
    }
    let dead = v.dead_ground.v();
    l.target(
        format!("observer {above} above it, not {need}: dead ground behind it (inches)"),
        dead,
        "PK-V1",
        v.dead_ground.provenance,
    );
    l.push(
        "target behind it (inches)",
        Effect::Target(s.behind),
        "PK-V1",
        Provenance::Seed,
    );
    let in_dead = s.behind <= Ratio::int(dead);
    if in_dead {
        why.push(format!(
            "in the {dead}\" of dead ground behind {o}: unseen, it takes no casualties from fire"
        ));
    }
    in_dead
}

/// PK-V1: is a target `range` inches away seen, given the sight? Its limit (exact), whether it is
/// in dead ground, why not, and every step as a line (the rule id PK-V1 and the table's
/// provenance). A target exactly at the limit, exactly 4" (2") into woods or exactly past the dead
/// ground's edge is seen: the text's "can only see 4” into the woods" includes the 4".
pub fn sight(s: &Sight, range: Ratio, t: &PkTables) -> Result<Visibility, RuleError> {
    check(s, range)?;
    let mut l = Lines::default();
    let mut why = Vec::new();
    let limit = limit_lines(&mut l, s, t);
    woods_lines(&mut l, s, t, &mut why);
    l.push(
        "range (inches)",
        Effect::Target(range),
        "PK-V1",
        Provenance::Seed,
    );
    if range > limit {
        why.insert(0, format!("beyond {limit}\" visibility"));
    }
    let dead_ground = obstacle_lines(&mut l, s, t, &mut why);
    let visible = why.is_empty();
    let verdict = if visible {
        "target visible".to_string()
    } else {
        format!("target not visible: {}", why.join("; "))
    };
    l.note(verdict, "PK-V1", Provenance::Seed);
    Ok(Visibility {
        visible,
        limit,
        dead_ground,
        why,
        lines: l.0,
    })
}

/// What `kepi resolve pk visibility` answers (PK-V1): `visible`, `limit` (exact, "70"),
/// `dead_ground`, `why` and the `lines`.
pub type VisibilityOutcome = Visibility;

/// PK-V1 as a resolution (no dice): `kepi resolve pk visibility`.
pub fn resolve(
    s: &Sight,
    range: Ratio,
    t: &PkTables,
) -> Result<Resolution<VisibilityOutcome>, RuleError> {
    let v = sight(s, range, t)?;
    let summary = match v.reason() {
        None => format!("visible: {range}\" within {}\" visibility", v.limit),
        Some(r) => format!("not visible: {r}"),
    };
    Ok(Resolution {
        system: crate::pk::ID,
        action: "visibility".into(),
        modifiers: v.lines.clone(),
        dice: Vec::new(),
        outcome: Some(v),
        odds: odds_from(&Dist::certain(summary.clone()), |s| s.clone()),
        summary,
        rolled: Some(0),
        notes: Vec::new(),
    })
}

/// PK-V1 in a fire (PK-F1) or a battery's (PK-A1: "the target visible to the crew"): with a sight
/// given, its lines after the fire's own, and the warning when the target is not seen ("target
/// not visible: beyond 70\" visibility (PK-V1)"). A fire with no range measured checks the woods
/// and the dead ground only. No sight, no lines: a fire logged before sight was given resolves
/// as it did.
pub(crate) fn fire_sight(
    l: &mut Lines,
    given: Option<&Sight>,
    range: Option<Ratio>,
    t: &PkTables,
) -> Result<Option<String>, RuleError> {
    let Some(s) = given else {
        return Ok(None);
    };
    let v = match range {
        Some(r) => sight(s, r, t)?,
        None => {
            // No range measured: the limit cannot be passed; the woods and the obstacle can.
            let mut v = sight(s, Ratio::ZERO, t)?;
            v.lines.retain(|m| m.label != "range (inches)");
            v
        }
    };
    l.0.extend(v.lines.iter().cloned());
    Ok(not_visible_note(&v, s))
}

/// The warning a fire at an unseen target gives, before the roll and in the log: "target not
/// visible: beyond 70\" visibility (PK-V1: ...)", quoting the sentences of its first reason (the
/// dead ground's, the woods' when the observer stands in woods or the target is too deep in them,
/// else clear weather's). None when the target is seen.
pub fn not_visible_note(v: &Visibility, s: &Sight) -> Option<String> {
    let reason = v.reason()?;
    let first = v.why.first().map(String::as_str).unwrap_or_default();
    let quote = if first.contains("dead ground") {
        DEAD
    } else if s.observer_in != Terrain::Open || first.contains(" into ") {
        WOODS
    } else {
        CLEAR
    };
    Some(format!("target not visible: {reason} (PK-V1: {quote})"))
}

/// The warning of a fire's or a battery's sight (PK-V1), None when the target is seen, no sight
/// is given or the sight does not read (the resolution refuses that itself).
pub fn warning(given: Option<&Sight>, range: Option<Ratio>, t: &PkTables) -> Option<String> {
    let mut l = Lines::default();
    fire_sight(&mut l, given, range, t).ok().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t() -> &'static PkTables {
        kepi_game::tables::builtin::<PkTables>()
    }

    fn open(contours: u32) -> Sight {
        Sight {
            observer_contours: contours,
            ..Sight::default()
        }
    }

    fn seen(s: &Sight, range: i64) -> Visibility {
        sight(s, Ratio::int(range), t()).unwrap()
    }

    /// PK-V1: "Visibility in clear weather is 60”." A target exactly at 60" is seen; past it, not.
    #[test]
    fn clear_weather_is_60_inches_and_the_limit_itself_is_seen() {
        let v = seen(&open(0), 60);
        assert!(v.visible && v.why.is_empty());
        assert_eq!(v.limit, Ratio::int(60));
        assert_eq!(v.lines[0].label, "visibility in clear weather (inches)");
        assert!(v.lines.iter().all(|l| l.rule.as_str() == "PK-V1"));
        let past = sight(&open(0), Ratio::new(121, 2), t()).unwrap();
        assert!(!past.visible);
        assert_eq!(past.reason().unwrap(), "beyond 60\" visibility");
        assert!(
            past.lines
                .last()
                .unwrap()
                .label
                .starts_with("target not visible: beyond 60\"")
        );
    }

    /// PK-V1: "It increases 5” per contour for a maximum of 15”." 1 contour sees 65", 3 see 75"
    /// (the +15" maximum) and 4 still 75".
    #[test]
    fn each_contour_adds_5_inches_to_at_most_15() {
        assert_eq!(seen(&open(1), 0).limit, Ratio::int(65));
        assert_eq!(seen(&open(2), 70).limit, Ratio::int(70));
        let three = seen(&open(3), 75);
        assert_eq!(three.limit, Ratio::int(75));
        assert!(three.visible);
        let four = seen(&open(4), 76);
        assert_eq!(four.limit, Ratio::int(75));
        assert!(!four.visible);
        let bonus = &four.lines[1];
        assert!(bonus.label.contains("4 contours up"), "{}", bonus.label);
        assert_eq!(bonus.effect, Effect::Add(Ratio::int(15)));
        assert_eq!(bonus.provenance, Provenance::Seed);
    }

    /// PK-V1: "Visibility in light woods is 20” and heavy woods 10”." Height adds nothing inside.
    #[test]
    fn inside_woods_one_sees_20_or_10_inches() {
        let light = Sight {
            observer_in: Terrain::LightWoods,
            observer_contours: 2,
            ..Sight::default()
        };
        assert!(seen(&light, 20).visible);
        let v = seen(&light, 21);
        assert_eq!(v.limit, Ratio::int(20));
        assert_eq!(v.reason().unwrap(), "beyond 20\" visibility");
        let heavy = Sight {
            observer_in: Terrain::HeavyWoods,
            ..Sight::default()
        };
        assert_eq!(seen(&heavy, 10).limit, Ratio::int(10));
        assert!(!seen(&heavy, 11).visible);
        // From light woods into heavy woods: the heavier woods' 10" (derived).
        let mixed = Sight {
            observer_in: Terrain::LightWoods,
            target_in: Terrain::HeavyWoods,
            ..Sight::default()
        };
        let v = seen(&mixed, 12);
        assert_eq!(v.limit, Ratio::int(10));
        assert!(!v.visible);
    }

    /// PK-V1: "However, an observer outside light woods can only see 4” into the woods or 2” into
    /// heavy woods." Exactly 4" (2") in is seen.
    #[test]
    fn from_outside_one_sees_4_inches_into_light_woods_and_2_into_heavy() {
        let into = |w, depth| Sight {
            target_in: w,
            target_depth: depth,
            ..Sight::default()
        };
        assert!(seen(&into(Terrain::LightWoods, Ratio::int(4)), 30).visible);
        let deep = seen(&into(Terrain::LightWoods, Ratio::new(9, 2)), 30);
        assert!(!deep.visible);
        assert_eq!(
            deep.reason().unwrap(),
            "9/2\" into light woods: from outside one sees 4\" in"
        );
        assert!(seen(&into(Terrain::HeavyWoods, Ratio::int(2)), 30).visible);
        assert!(!seen(&into(Terrain::HeavyWoods, Ratio::int(3)), 30).visible);
        // Both reasons at once: too far and too deep.
        let both = seen(&into(Terrain::HeavyWoods, Ratio::int(3)), 61);
        assert_eq!(both.why.len(), 2);
        assert!(both.why[0].starts_with("beyond 60\""));
    }

    /// PK-V1: "Observers must be 2 contours above an intervening contour to see over it." An
    /// observer on 3 contours sees over a 1-contour cornfield to a target right behind it.
    #[test]
    fn two_contours_above_an_obstacle_sees_over_it() {
        let s = Sight {
            observer_contours: 3,
            obstacle: Some(Obstacle::Crops),
            behind: Ratio::ZERO,
            ..Sight::default()
        };
        let v = seen(&s, 40);
        assert!(v.visible && !v.dead_ground);
        assert!(v.lines.iter().any(|l| l.label.contains("sees over it")));
    }

    /// PK-V1: "Otherwise there is 4” of dead space behind it. Units behind a contour cannot be
    /// seen and take no casualties from enemy fire." One contour above: a target 4" behind is in
    /// the dead ground (unseen); one past 4" is seen.
    #[test]
    fn one_contour_above_leaves_4_inches_of_dead_ground() {
        let s = |behind| Sight {
            observer_contours: 3,
            obstacle: Some(Obstacle::Hill { contours: 2 }),
            behind,
            ..Sight::default()
        };
        let v = seen(&s(Ratio::int(4)), 40);
        assert!(!v.visible && v.dead_ground);
        assert!(v.reason().unwrap().contains("dead ground behind hill:2"));
        assert!(
            not_visible_note(&v, &s(Ratio::int(4)))
                .unwrap()
                .contains("take no casualties")
        );
        let past = seen(&s(Ratio::new(9, 2)), 40);
        assert!(past.visible && !past.dead_ground);
    }

    /// PK-V1: "Each story on a building is a contour. Light woods are 2 contours tall and heavy
    /// woods are 4 contours tall. Cornfields, wheat fields and scrub are 1 contour tall."
    #[test]
    fn heights_in_contours() {
        assert_eq!(obstacle_height(Obstacle::Building { storeys: 3 }, t()), 3);
        assert_eq!(obstacle_height(Obstacle::LightWoods, t()), 2);
        assert_eq!(obstacle_height(Obstacle::HeavyWoods, t()), 4);
        assert_eq!(obstacle_height(Obstacle::Crops, t()), 1);
        assert_eq!(obstacle_height(Obstacle::Hill { contours: 5 }, t()), 5);
        // A 2-storey house hides a target 2" behind it from an observer 3 contours up.
        let s = Sight {
            observer_contours: 3,
            obstacle: Some(Obstacle::Building { storeys: 2 }),
            behind: Ratio::int(2),
            ..Sight::default()
        };
        assert!(seen(&s, 10).dead_ground);
        // Heavy woods (4) from 6 contours: seen over.
        let s = Sight {
            observer_contours: 6,
            obstacle: Some(Obstacle::HeavyWoods),
            ..Sight::default()
        };
        assert!(seen(&s, 10).visible);
    }

    /// PK-V1: the obstacles' words read back; a bad one names what is accepted.
    #[test]
    fn obstacles_read_and_print() {
        for o in [
            Obstacle::Crops,
            Obstacle::LightWoods,
            Obstacle::HeavyWoods,
            Obstacle::Building { storeys: 2 },
            Obstacle::Hill { contours: 3 },
        ] {
            assert_eq!(o.to_string().parse::<Obstacle>(), Ok(o));
        }
        assert_eq!("scrub".parse::<Obstacle>(), Ok(Obstacle::Crops));
        assert!(
            "hill:0"
                .parse::<Obstacle>()
                .unwrap_err()
                .contains("1 to 100")
        );
        assert!(
            "river"
                .parse::<Obstacle>()
                .unwrap_err()
                .contains("hill:CONTOURS")
        );
    }

    /// PK-V1: what no table holds is refused, naming the field.
    #[test]
    fn out_of_range_inputs_are_refused() {
        let e = sight(&open(101), Ratio::int(1), t()).unwrap_err();
        assert!(e.to_string().contains("observer_contours"), "{e}");
        let neg = Sight {
            behind: Ratio::int(-1),
            ..Sight::default()
        };
        let e = sight(&neg, Ratio::int(1), t()).unwrap_err();
        assert!(e.to_string().contains("behind"), "{e}");
        let e = sight(&open(0), Ratio::int(-1), t()).unwrap_err();
        assert!(e.to_string().contains("range"), "{e}");
    }

    /// PK-V1 in a fire: no sight, no lines and no warning; a sight without a range checks the
    /// woods and the obstacle only.
    #[test]
    fn a_fire_without_sight_is_unchanged() {
        let mut l = Lines::default();
        assert_eq!(
            fire_sight(&mut l, None, Some(Ratio::int(80)), t()),
            Ok(None)
        );
        assert!(l.0.is_empty());
        let s = open(0);
        assert_eq!(warning(Some(&s), None, t()), None);
        let w = warning(Some(&s), Some(Ratio::int(80)), t()).unwrap();
        assert!(
            w.starts_with("target not visible: beyond 60\" visibility (PK-V1: "),
            "{w}"
        );
        assert!(w.contains("in clear weather is 60”"), "{w}");
        let woods = Sight {
            observer_in: Terrain::HeavyWoods,
            ..Sight::default()
        };
        let w = warning(Some(&woods), Some(Ratio::int(12)), t()).unwrap();
        assert!(w.contains("Visibility in light woods is 20”"), "{w}");
    }

    /// The resolution `kepi resolve pk visibility` prints: no dice, one certain outcome.
    #[test]
    fn the_resolution_has_no_dice() {
        let r = resolve(&open(2), Ratio::int(70), t()).unwrap();
        assert!(r.dice.is_empty());
        assert_eq!(r.odds.len(), 1);
        assert_eq!(r.summary, "visible: 70\" within 70\" visibility");
        assert!(r.outcome.unwrap().visible);
    }
}
