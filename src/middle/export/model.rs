//! The plain view model every export draws from: a roster (sides > order-of-battle groups > units), a
//! battle report (roster + turn-by-turn resolutions + casualties + the log's hash) and log rows.
//!
//! It is deliberately free of rule types: the game session fills it from its `GameState`, the tests
//! and the benchmark fill it from [`RosterDoc::sample`], and the exporters never need to know which
//! rule set produced it.

use serde::{Deserialize, Serialize};

/// The arm of service of a unit, which picks its NATO-style symbol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Arm {
    /// Foot: a frame with a saltire (crossed diagonals).
    Infantry,
    /// Horse: a frame with one diagonal.
    Cavalry,
    /// Guns: a frame with a filled dot.
    Artillery,
    /// Anything else (staff, engineers, trains): an empty frame.
    Other,
}

impl Arm {
    /// Every arm, in display order.
    pub const ALL: [Arm; 4] = [Arm::Infantry, Arm::Cavalry, Arm::Artillery, Arm::Other];

    /// The kebab-case name used in CSV and JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Arm::Infantry => "infantry",
            Arm::Cavalry => "cavalry",
            Arm::Artillery => "artillery",
            Arm::Other => "other",
        }
    }

    /// The capitalised name printed on rosters and cards.
    pub fn label(self) -> &'static str {
        match self {
            Arm::Infantry => "Infantry",
            Arm::Cavalry => "Cavalry",
            Arm::Artillery => "Artillery",
            Arm::Other => "Other",
        }
    }
}

impl std::fmt::Display for Arm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Arm {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Arm::ALL
            .into_iter()
            .find(|a| a.as_str() == s)
            .ok_or_else(|| {
                format!("unknown arm {s:?} (expected infantry, cavalry, artillery or other)")
            })
    }
}

/// A printable roster: the header facts and the sides with their orders of battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RosterDoc {
    /// The scenario's title, printed large in the header.
    pub title: String,
    /// The scenario's name or id.
    pub scenario: String,
    /// The rule set's title.
    pub system: String,
    /// The historical (or game) date, if known.
    pub date: Option<String>,
    /// The current turn, for a game in progress.
    pub turn: Option<u32>,
    /// The current phase, for a game in progress.
    pub phase: Option<String>,
    /// The head of a game's log hash chain when the roster is printed from a game: noted at the
    /// table, it is checked later with `kepi log verify SAVE --expect-head HASH`.
    #[serde(default)]
    pub chain_head: Option<String>,
    /// The scale distances are printed at, when not the text's own (issue 28): "distances in cm
    /// at 1/2", in the header.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale: Option<String>,
    /// The sides, each printed from a fresh page.
    pub sides: Vec<SideDoc>,
}

/// One side and its order of battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SideDoc {
    /// The side's name ("Prussian III Corps").
    pub name: String,
    /// Its top-level formations (army > corps > division > brigade).
    pub groups: Vec<GroupDoc>,
}

/// One formation of the order of battle, holding units and sub-formations.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupDoc {
    /// The formation's name ("5th Division").
    pub name: String,
    /// Its level ("army", "corps", "division", "brigade", ...).
    pub level: String,
    /// Units directly under this formation.
    pub units: Vec<UnitDoc>,
    /// Sub-formations, printed after the units.
    pub groups: Vec<GroupDoc>,
}

/// One unit as printed: identity, type, and current state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UnitDoc {
    /// A stable id, also used for card file names.
    pub id: String,
    /// The unit's name ("2/12th Grenadiers").
    pub name: String,
    /// Arm of service, for the symbol.
    pub arm: Arm,
    /// Class or quality ("Veteran", "Line", "Elite").
    pub class: Option<String>,
    /// Current strength.
    pub strength: u32,
    /// Full strength; boxes beyond `strength` are crossed out as losses.
    pub max_strength: u32,
    /// What strength counts: "figures", "SP", "points", "CP".
    pub strength_unit: String,
    /// Fatigue points accrued (shaded boxes).
    pub fatigue: u32,
    /// Fatigue boxes to print.
    pub fatigue_max: u32,
    /// Leaders present.
    pub leaders: u32,
    /// Leader boxes to print; boxes beyond `leaders` are crossed out.
    pub leaders_max: u32,
    /// Weapon ("Dreyse needle gun").
    pub weapon: Option<String>,
    /// Movement allowance as printed ("6\"", "4 MP").
    pub move_: Option<String>,
    /// Range as printed ("24\"", "3 hexes").
    pub range: Option<String>,
    /// Status markers ("Shaken", "disordered", "flag lost").
    pub status: Vec<String>,
    /// In a battle made from a campaign (issue 30, CAMP-C1): the board unit it came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// The unit's card, when the roster is made from a game or scenario: the CSV export writes
    /// the rest of it (issue 43). Not part of the document's JSON.
    #[serde(skip)]
    pub card: Option<std::sync::Arc<kepi_game::roster::Unit>>,
}

/// One resolution in a battle report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResolutionDoc {
    /// Game or wall-clock time of the entry ("12:40").
    pub time: String,
    /// The unit or units involved.
    pub units: Vec<String>,
    /// The action ("Fire", "Melee", "Morale").
    pub action: String,
    /// What happened, in one sentence.
    pub summary: String,
    /// The dice as text ("d10=7, d%=34").
    pub dice: String,
    /// The rule ids applied ("PK-F1").
    pub rule_ids: Vec<String>,
    /// Its place in the game's log.
    #[serde(default)]
    pub index: u64,
    /// The acting unit (the firer, the attacker, the unit rolling), by name.
    #[serde(default)]
    pub actor: Option<String>,
    /// The unit acted on (the target, the defender), by name.
    #[serde(default)]
    pub target: Option<String>,
    /// What it did to each unit, read from the game before and after it: the casualties are
    /// counted from these, so the entries and the chart cannot disagree.
    #[serde(default)]
    pub effects: Vec<kepi_game::engine::game::Effect>,
    /// The notes recorded with it (a breach the umpire went ahead with, a follow-up).
    #[serde(default)]
    pub notes: Vec<String>,
}

impl ResolutionDoc {
    /// "I/12th Grenadiers -> II/52nd", or the one unit, or the units as logged.
    pub fn who(&self) -> String {
        match (&self.actor, &self.target) {
            (Some(a), Some(t)) => format!("{a} -> {t}"),
            (Some(a), None) => a.clone(),
            _ => self.units.join(", "),
        }
    }

    /// The result and its effects: "hits 2 => I/52nd strength 20 -> 18".
    pub fn result(&self) -> String {
        let notes = kepi_game::engine::game::notes_text(&self.notes);
        if self.effects.is_empty() {
            return format!("{}{notes}", self.summary);
        }
        let lines: Vec<String> = self.effects.iter().map(|e| e.line()).collect();
        format!("{} => {}{notes}", self.summary, lines.join("; "))
    }
}

/// One turn of a battle report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TurnDoc {
    /// The turn number.
    pub turn: u32,
    /// A label for the turn (date, time of day), if any.
    pub label: Option<String>,
    /// The resolutions of the turn, in order.
    pub resolutions: Vec<ResolutionDoc>,
}

/// A battle report: the roster as it stands, the turns, casualties and the log's verification.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReportDoc {
    /// The roster at the end of the report (its header gives scenario, rules, date and turn).
    pub roster: RosterDoc,
    /// The turns, in order.
    pub turns: Vec<TurnDoc>,
    /// Casualties per turn: (turn, [(side, losses)]).
    pub casualties: Vec<(u32, Vec<(String, u32)>)>,
    /// The head of the log's hash chain.
    pub chain_head: String,
    /// Whether the chain verified when the report was made.
    pub verified: bool,
}

/// One log entry as exported to CSV.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogRowDoc {
    /// Position in the log, from 0.
    pub index: u64,
    /// Time stamp as text.
    pub time: String,
    /// Turn number.
    pub turn: u32,
    /// Phase name.
    pub phase: String,
    /// The action.
    pub action: String,
    /// Rule ids applied.
    pub rule_ids: Vec<String>,
    /// Dice as text.
    pub dice: String,
    /// What happened.
    pub summary: String,
}

impl UnitDoc {
    /// The name to print: the name, else the id, else "(unnamed)".
    pub fn display_name(&self) -> &str {
        if !self.name.trim().is_empty() {
            &self.name
        } else if !self.id.trim().is_empty() {
            &self.id
        } else {
            "(unnamed)"
        }
    }
}

impl RosterDoc {
    /// Every unit with its side, its group path (outermost first) and its depth, in print order.
    pub fn units(&self) -> Vec<(&SideDoc, Vec<&str>, &UnitDoc)> {
        fn walk<'a>(
            side: &'a SideDoc,
            g: &'a GroupDoc,
            path: &mut Vec<&'a str>,
            out: &mut Vec<(&'a SideDoc, Vec<&'a str>, &'a UnitDoc)>,
        ) {
            path.push(&g.name);
            for u in &g.units {
                out.push((side, path.clone(), u));
            }
            for sub in &g.groups {
                walk(side, sub, path, out);
            }
            path.pop();
        }
        let mut out = Vec::new();
        for side in &self.sides {
            let mut path = Vec::new();
            for g in &side.groups {
                walk(side, g, &mut path, &mut out);
            }
        }
        out
    }

    /// A synthetic Franco-Prussian roster with `n_units` units over two sides (army > corps >
    /// division > brigade), with some losses, fatigue and status so every printed feature shows.
    /// Used by the tests, the benchmark and the docs images.
    pub fn sample(n_units: usize) -> RosterDoc {
        const PRUSSIAN: [&str; 8] = [
            "Grenadiers",
            "Fusiliers",
            "Infantry",
            "Jäger",
            "Dragoons",
            "Uhlans",
            "Field Artillery",
            "Pioneers",
        ];
        const FRENCH: [&str; 8] = [
            "de Ligne",
            "Chasseurs à pied",
            "de Ligne",
            "Zouaves",
            "Cuirassiers",
            "Chasseurs d'Afrique",
            "Artillerie montée",
            "Génie",
        ];
        let mut sides = Vec::new();
        let per_side = [n_units.div_ceil(2), n_units / 2];
        for (si, (side_name, names)) in [
            ("Prussian III Corps", PRUSSIAN),
            ("French 2e Corps", FRENCH),
        ]
        .into_iter()
        .enumerate()
        {
            let count = per_side.get(si).copied().unwrap_or(0);
            let mut made = 0usize;
            let mut divisions = Vec::new();
            let mut d = 0usize;
            while made < count {
                d += 1;
                let mut brigades = Vec::new();
                for b in 1..=2 {
                    let mut units = Vec::new();
                    for _ in 0..6 {
                        if made >= count {
                            break;
                        }
                        units.push(sample_unit(si, made, d, b, &names));
                        made += 1;
                    }
                    brigades.push(GroupDoc {
                        name: format!("{}. Brigade", d * 2 + b - 2),
                        level: "brigade".to_string(),
                        units,
                        groups: Vec::new(),
                    });
                }
                divisions.push(GroupDoc {
                    name: format!("{d}. Division"),
                    level: "division".to_string(),
                    units: Vec::new(),
                    groups: brigades,
                });
            }
            sides.push(SideDoc {
                name: side_name.to_string(),
                groups: vec![GroupDoc {
                    name: if si == 0 {
                        "Second Army".to_string()
                    } else {
                        "Armée du Rhin".to_string()
                    },
                    level: "army".to_string(),
                    units: Vec::new(),
                    groups: vec![GroupDoc {
                        name: side_name.to_string(),
                        level: "corps".to_string(),
                        units: Vec::new(),
                        groups: divisions,
                    }],
                }],
            });
        }
        RosterDoc {
            title: "Mars-la-Tour".to_string(),
            scenario: "mars-la-tour".to_string(),
            system: "Pickelhaube & Kepi".to_string(),
            date: Some("16 August 1870".to_string()),
            turn: Some(3),
            phase: Some("Movement & Fire".to_string()),
            chain_head: None,
            scale: None,
            sides,
        }
    }
}

/// The sample roster's `k`th unit of side `si` (0: Prussian), in brigade `b` of division `d`:
/// its arm, size, losses, fatigue and status follow from `k`, so every printed feature shows.
fn sample_unit(si: usize, k: usize, d: usize, b: usize, names: &[&str; 8]) -> UnitDoc {
    let kind = k % names.len();
    let arm = match kind {
        4 | 5 => Arm::Cavalry,
        6 => Arm::Artillery,
        7 => Arm::Other,
        _ => Arm::Infantry,
    };
    let max = match arm {
        Arm::Infantry => 16 + (k % 3) as u32 * 4,
        Arm::Cavalry => 12,
        Arm::Artillery => 6,
        Arm::Other => 4,
    };
    let lost = (k % 5) as u32;
    let strength = max.saturating_sub(lost);
    let mut status = Vec::new();
    if k % 7 == 3 {
        status.push("Shaken".to_string());
    }
    if k % 11 == 5 {
        status.push("disordered".to_string());
    }
    if k % 13 == 8 {
        status.push("flag lost".to_string());
    }
    let side_tag = if si == 0 { "p" } else { "f" };
    let name = if si == 0 {
        format!("{}/{}th {}", k % 3 + 1, k + 2, names[kind])
    } else {
        format!("{}e {} ({}/{})", k + 1, names[kind], d, b)
    };
    UnitDoc {
        id: format!("{side_tag}-{}", k + 1),
        name,
        arm,
        class: Some(["Veteran", "Line", "Landwehr", "Elite"][k % 4].to_string()),
        strength,
        max_strength: max,
        strength_unit: "figures".to_string(),
        fatigue: (k % 4) as u32,
        fatigue_max: 4,
        leaders: if k % 6 == 2 { 1 } else { 2 },
        leaders_max: 2,
        weapon: Some(
            match (si, arm) {
                (_, Arm::Artillery) if si == 0 => "Krupp C/64",
                (_, Arm::Artillery) => "La Hitte 4-pdr",
                (_, Arm::Cavalry) => "sabre, carbine",
                (0, _) => "Dreyse needle gun",
                _ => "Chassepot",
            }
            .to_string(),
        ),
        move_: Some(
            match arm {
                Arm::Cavalry => "12\"",
                Arm::Artillery => "8\"",
                _ => "6\"",
            }
            .to_string(),
        ),
        range: Some(
            match (si, arm) {
                (_, Arm::Artillery) => "48\"",
                (_, Arm::Cavalry) => "6\"",
                (0, _) => "18\"",
                _ => "24\"",
            }
            .to_string(),
        ),
        status,
        from: None,
        card: None,
    }
}

impl ReportDoc {
    /// A synthetic report over [`RosterDoc::sample`]: `turns` turns with a few resolutions each.
    pub fn sample(n_units: usize, turns: u32) -> ReportDoc {
        let roster = RosterDoc::sample(n_units);
        let side_names: Vec<String> = roster.sides.iter().map(|s| s.name.clone()).collect();
        let mut turn_docs = Vec::new();
        let mut casualties = Vec::new();
        for t in 1..=turns {
            let resolutions = (0..3u32)
                .map(|i| ResolutionDoc {
                    time: format!("{:02}:{:02}", 9 + t, i * 15),
                    units: vec![
                        format!("{}/12th Grenadiers", i + 1),
                        "1/93e de Ligne".into(),
                    ],
                    action: ["Fire", "Melee", "Morale"][i as usize % 3].to_string(),
                    summary: format!("{} figures lost; target <holds> & \"stands\"", (t + i) % 4),
                    dice: format!(
                        "d10={}, d%={}",
                        (t * 3 + i) % 10 + 1,
                        (t * 37 + i * 11) % 100
                    ),
                    rule_ids: vec!["PK-F1".into(), "PK-F3".into()],
                    index: u64::from(t * 3 + i),
                    actor: Some(format!("{}/12th Grenadiers", i + 1)),
                    target: Some("1/93e de Ligne".into()),
                    effects: Vec::new(),
                    notes: Vec::new(),
                })
                .collect();
            turn_docs.push(TurnDoc {
                turn: t,
                label: Some(format!("16 August 1870, {:02}:00", 9 + t)),
                resolutions,
            });
            casualties.push((
                t,
                side_names
                    .iter()
                    .enumerate()
                    .map(|(i, s)| (s.clone(), (t * 3 + i as u32 * 2) % 7 + 1))
                    .collect(),
            ));
        }
        ReportDoc {
            roster,
            turns: turn_docs,
            casualties,
            chain_head: "9f2c4e0b7a1d3c5e8f6a2b4d0c1e3f5a7b9d2c4e6f8a0b1c3d5e7f9a2b4c6d8e".into(),
            verified: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_has_requested_units_on_two_sides() {
        for n in [0, 1, 7, 40, 1000] {
            let doc = RosterDoc::sample(n);
            assert_eq!(doc.units().len(), n);
            assert_eq!(doc.sides.len(), 2);
        }
    }

    #[test]
    fn arm_round_trips() {
        for a in Arm::ALL {
            assert_eq!(a.to_string().parse::<Arm>(), Ok(a));
        }
        assert!("dragoon".parse::<Arm>().is_err());
    }
}

/// The battle report as data for scripts (`kepi report SAVE --json`): a projection of the same
/// [`ReportDoc`] the HTML and PDF print, so the three agree. The keys are a public contract.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReportJson<'a> {
    /// What is in effect, in log order.
    pub entries: Vec<ReportEntryJson<'a>>,
    /// Figures or points lost per side per turn, counted from the entries' effects.
    pub casualties: Vec<CasualtyJson<'a>>,
    /// The head of the log's hash chain.
    pub chain_head: &'a str,
    /// Whether the chain verified when the report was made.
    pub verified: bool,
}

/// One entry of [`ReportJson`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReportEntryJson<'a> {
    /// Its place in the log.
    pub index: u64,
    /// The game-turn.
    pub turn: u32,
    /// Wall-clock time.
    pub time: &'a str,
    /// The acting unit, by name.
    pub actor: Option<&'a str>,
    /// The unit acted on, by name.
    pub target: Option<&'a str>,
    /// The action ("pk fire").
    pub action: &'a str,
    /// The main rule id (the first of `rules`).
    pub rule: Option<&'a str>,
    /// Every rule id involved.
    pub rules: &'a [String],
    /// The outcome in words.
    pub summary: &'a str,
    /// The dice as text.
    pub dice: &'a str,
    /// What it did to each unit.
    pub effects: &'a [kepi_game::engine::game::Effect],
    /// The notes recorded with it (a breach the umpire went ahead with, a follow-up).
    pub notes: &'a [String],
}

/// One row of [`ReportJson::casualties`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CasualtyJson<'a> {
    /// The game-turn.
    pub turn: u32,
    /// The side's name.
    pub side: &'a str,
    /// Figures or points lost in that turn.
    pub lost: u32,
}

impl<'a> From<&'a ReportDoc> for ReportJson<'a> {
    fn from(d: &'a ReportDoc) -> Self {
        ReportJson {
            entries: d
                .turns
                .iter()
                .flat_map(|t| {
                    t.resolutions.iter().map(move |r| ReportEntryJson {
                        index: r.index,
                        turn: t.turn,
                        time: &r.time,
                        actor: r.actor.as_deref(),
                        target: r.target.as_deref(),
                        action: &r.action,
                        rule: r.rule_ids.first().map(String::as_str),
                        rules: &r.rule_ids,
                        summary: &r.summary,
                        dice: &r.dice,
                        effects: &r.effects,
                        notes: &r.notes,
                    })
                })
                .collect(),
            casualties: d
                .casualties
                .iter()
                .flat_map(|(turn, per)| {
                    per.iter().map(move |(side, lost)| CasualtyJson {
                        turn: *turn,
                        side,
                        lost: *lost,
                    })
                })
                .collect(),
            chain_head: &d.chain_head,
            verified: d.verified,
        }
    }
}
