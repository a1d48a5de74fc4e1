//! 1870's railways and the sea in play (the text's Titles G and K): a railway transport (FR-G1)
//! and a passage by sea (FR-K1) as pure resolutions over plain data, which `kepi game apply rail`
//! and `sea` run with what the game knows filled in (the rule set's `plain_defaults`) and whose
//! moves the game makes (its `plain_effects`).
//!
//! The printed map is not in the seed: which cells carry a railway, each section's capacity
//! ("indicated, for each section, at the junctions"), the ports' cells and the arrowed sea routes
//! are the umpire's to read off it. kepi counts what it can (cells from where the unit stands,
//! transports this turn, units carried on a named section, units in transit), says what the text
//! says against a transport, and lets the umpire go ahead; nothing here invents a map.

use serde::{Deserialize, Serialize};

use super::siege::{cell, certain, line};
use kepi_game::hex::Layout;
use kepi_game::rules::{Effect, ModifierLine, Resolution, RuleError, RuleId};
use kepi_game::tables::Provenance;

/// G5: "the movement takes place along the railway and is at most 10 cells".
pub const RAIL_LINE_CELLS: u32 = 10;
/// G5: "a railway movement may reach at most 12 cells: 1 before embarking, 10 on the line and 1
/// on disembarking".
pub const RAIL_MAX_CELLS: u32 = 12;
/// K2: "the number of units in transit simultaneously may never exceed 4 for all the counters
/// together".
pub const SEA_TRANSIT_LIMIT: u32 = 4;

fn note_line(label: impl Into<String>, rule: &'static str) -> ModifierLine {
    line(label, rule, Provenance::Seed)
}

/// What `rail` is given (in a game, all but `to`, `line`, `section` and `capacity` come from the
/// game).
#[derive(Clone, Debug, Default)]
pub struct RailInput {
    /// The unit, as named.
    pub unit: String,
    /// The cell it stands on; None: off the map (a reinforcement "may immediately make a move by
    /// railway", J2).
    pub from: Option<String>,
    /// The cell it arrives in.
    pub to: String,
    /// Cells travelled on the line, as counted on the printed map.
    pub line: Option<u32>,
    /// The unit's railway transports earlier this turn.
    pub earlier_this_turn: u32,
    /// The section of line used, as the umpire names it ("Metz-Nancy").
    pub section: Option<String>,
    /// Its capacity in units, printed at its junction.
    pub capacity: Option<u32>,
    /// Units already carried on that section this movement phase.
    pub carried_on_section: u32,
    /// An enemy unit stands in the arrival cell.
    pub to_enemy_held: bool,
    /// The arrival cell is controlled by the enemy (next to an enemy unit) and no friendly unit
    /// occupies it.
    pub to_enemy_controlled: bool,
}

/// The outcome of `rail`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RailOutcome {
    /// The unit, as named.
    pub unit: String,
    /// Where it stood (None: off the map).
    pub from: Option<String>,
    /// Where it arrives.
    pub to: String,
    /// Cells from where it stood to where it arrives, counted on the board (the railway's path is
    /// at least this long).
    pub cells: Option<u32>,
    /// Cells on the line, as entered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// The section used, as named.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
}

/// FR-G1 (the text's G5): a railway transport. "At the start of the Movement Phase, the units
/// concerned must be on a cell containing a railway or on an adjacent cell; transport may carry
/// the quantity of troops corresponding to the capacity of the line section concerned; the
/// movement takes place along the railway and is at most 10 cells, whatever the type of unit;
/// [...] a railway movement may reach at most 12 cells: 1 before embarking, 10 on the line and 1
/// on disembarking; a unit transported by railway may fight immediately after its
/// disembarkation, during the following Combat Phase; a unit may make only one railway transport
/// per turn." What the text forbids is said and logged (the umpire goes ahead); a cell that is not
/// a cell is refused.
pub fn rail(i: &RailInput) -> Result<Resolution<RailOutcome>, RuleError> {
    let unit = i.unit.trim();
    if unit.is_empty() {
        return Err(RuleError::input("UNIT", "no unit", "the unit carried"));
    }
    let to = cell("--to", &i.to)?;
    let from = i.from.as_deref().map(|f| cell("--from", f)).transpose()?;
    let cells = from.map(|f| f.distance(to));
    let mut mods = vec![
        note_line(
            format!(
                "railway transport: at most {RAIL_LINE_CELLS} cells on the line, 1 before \
                 embarking and 1 on disembarking ({RAIL_MAX_CELLS} in all), whatever the type of \
                 unit"
            ),
            "FR-G1",
        ),
        note_line(
            "it may fight in the following combat phase; one railway transport a turn",
            "FR-G1",
        ),
    ];
    if let Some(n) = i.line {
        mods.push(ModifierLine::new(
            "cells on the line, counted on the printed map (not in the seed)",
            Effect::Target(kepi_game::dice::Ratio::int(i64::from(n))),
            RuleId::new("FR-G1"),
            Provenance::Unknown,
        ));
    }
    if let Some(c) = i.capacity {
        let on = i.section.as_deref().unwrap_or("the section");
        mods.push(ModifierLine::new(
            format!("{on}'s capacity, printed at its junction (not in the seed)"),
            Effect::Target(kepi_game::dice::Ratio::int(i64::from(c))),
            RuleId::new("FR-G1"),
            Provenance::Unknown,
        ));
    }
    let summary = match (&i.from, cells) {
        (Some(f), Some(n)) => format!(
            "{unit} by railway from {} to {} ({n} cells)",
            f.trim(),
            i.to.trim()
        ),
        _ => format!("{unit} by railway onto the map at {}", i.to.trim()),
    };
    Ok(certain(
        "rail",
        mods,
        RailOutcome {
            unit: unit.to_string(),
            from: i.from.as_ref().map(|f| f.trim().to_string()),
            to: i.to.trim().to_string(),
            cells,
            line: i.line,
            section: i.section.as_ref().map(|s| s.trim().to_string()),
        },
        summary,
        Vec::new(),
    ))
}

/// FR-G1: what the text says against this railway transport (the umpire goes ahead: said before
/// it is made and logged with it). A cell that is not a cell says nothing here ([`rail`] refuses
/// it).
pub fn rail_breaches(i: &RailInput) -> Vec<String> {
    let unit = i.unit.trim();
    let cells = match (i.from.as_deref(), cell("--to", &i.to)) {
        (Some(f), Ok(to)) => cell("--from", f).ok().map(|f| f.distance(to)),
        _ => None,
    };
    let mut notes = Vec::new();
    if let (Some(n), Some(f)) = (cells, &i.from)
        && n > RAIL_MAX_CELLS
    {
        notes.push(format!(
            "{unit} goes {n} cells from {} to {}; \"a railway movement may reach at most 12 \
                 cells: 1 before embarking, 10 on the line and 1 on disembarking\" (FR-G1)",
            f.trim(),
            i.to.trim()
        ));
    }
    if let Some(n) = i.line.filter(|n| *n > RAIL_LINE_CELLS) {
        notes.push(format!(
            "{n} cells on the line; \"the movement takes place along the railway and is at most 10 \
             cells\" (FR-G1)"
        ));
    }
    if i.earlier_this_turn > 0 {
        notes.push(format!(
            "{unit} was carried by railway earlier this turn; \"a unit may make only one railway \
             transport per turn\" (FR-G1)"
        ));
    }
    if let Some(c) = i.capacity
        && i.carried_on_section >= c
    {
        let on = i.section.as_deref().unwrap_or("this section");
        notes.push(format!(
            "{on} carries {c} unit(s) and {} went on it this phase already; \"transport may carry \
             the quantity of troops corresponding to the capacity of the line section\" (FR-G1)",
            i.carried_on_section
        ));
    }
    if i.to_enemy_held {
        notes.push(format!(
            "an enemy unit stands in {}; \"for a railway (or a section) to be at the disposal of a \
             player, no cell of the section must be occupied or controlled by the other player\" \
             (FR-G1)",
            i.to.trim()
        ));
    } else if i.to_enemy_controlled {
        notes.push(format!(
            "{} is controlled by the enemy and no friendly unit occupies it; \"a railway cell \
             controlled by the enemy but occupied by a friendly unit may be used\" (FR-G1)",
            i.to.trim()
        ));
    }
    notes
}

kepi_game::rules::crt::vocab! {
    /// A place on the way by sea (K2): "one passes from a port to a counter, and from a counter to
    /// an edge or to another counter, by following the arrowed routes printed on the map".
    SeaPlace {
        /// A port (Dunkerque, Calais, Boulogne, Dieppe, Le Havre, Caen), named with `--port`.
        Port => "port",
        /// Sea transport counter No. 1.
        Counter1 => "counter1",
        /// Sea transport counter No. 2.
        Counter2 => "counter2",
        /// The western edge of the map.
        West => "west",
        /// The southern edge of the map.
        South => "south",
    }
}

impl SeaPlace {
    /// At sea (on a transport counter): off the map, neither attacking nor attacked.
    pub fn at_sea(self) -> bool {
        matches!(self, SeaPlace::Counter1 | SeaPlace::Counter2)
    }
}

/// The ports the text names (K1), as it spells them.
pub const PORTS: &[&str] = &[
    "Dunkerque",
    "Calais",
    "Boulogne",
    "Dieppe",
    "Le Havre",
    "Caen",
];

/// What `sea` is given (in a game, `from`, `side`, `in_transit` and `passages_this_phase` come
/// from the game).
#[derive(Clone, Debug)]
pub struct SeaInput {
    /// The unit, as named.
    pub unit: String,
    /// Its side ("french", "german"), when known.
    pub side: Option<String>,
    /// Where it is: a port, a counter, or an edge (None: a cell of the map away from the sea).
    pub from: Option<SeaPlace>,
    /// The port it is at or sails from, when `from` is a port.
    pub from_port: Option<String>,
    /// Where it goes.
    pub to: SeaPlace,
    /// The port it goes to, when `to` is a port.
    pub to_port: Option<String>,
    /// The cell it lands on (to a port or an edge: back on the map).
    pub at: Option<String>,
    /// Units in transit now on both counters, this one not counted.
    pub in_transit: u32,
    /// The unit's passages already made this movement phase.
    pub passages_this_phase: u32,
}

/// The outcome of `sea`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeaOutcome {
    /// The unit, as named.
    pub unit: String,
    /// Where it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<SeaPlace>,
    /// The port it sailed from, when it was at one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_port: Option<String>,
    /// Where it is now.
    pub to: SeaPlace,
    /// The port, when `to` is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub port: Option<String>,
    /// The cell it landed on, back on the map.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
}

/// A port as the text spells it, for a name typed in any case; the name as typed otherwise (the
/// map may have more).
fn port_name(p: &str) -> String {
    let p = p.trim();
    PORTS
        .iter()
        .find(|x| x.eq_ignore_ascii_case(p))
        .map_or_else(|| p.to_string(), |x| (*x).to_string())
}

/// FR-K1 (the text's K2-K5): one passage by sea. "The passage from one of these elements (port,
/// counter, edge) to the element connected to it, whatever it may be, is carried out in 1
/// movement phase [...]; units in transit may obviously neither attack nor be attacked; only
/// French units may make a sea voyage; units may remain in transit indefinitely; the number of
/// units in transit simultaneously may never exceed 4 for all the counters together; [...] it is
/// moreover possible, within one and the same Movement Phase, to pass directly from one port to
/// another." A place that is not one is refused; what the text forbids is said and logged.
pub fn sea(i: &SeaInput) -> Result<Resolution<SeaOutcome>, RuleError> {
    let unit = i.unit.trim();
    if unit.is_empty() {
        return Err(RuleError::input("UNIT", "no unit", "the unit sailing"));
    }
    if i.to == SeaPlace::Port && i.to_port.as_deref().is_none_or(|p| p.trim().is_empty()) {
        return Err(RuleError::input(
            "--port",
            "no port named",
            format!("the port it sails to: {}", PORTS.join(", ")),
        ));
    }
    let landing = matches!(i.to, SeaPlace::Port | SeaPlace::West | SeaPlace::South);
    let at = match (&i.at, landing) {
        (Some(a), true) => Some(cell("--at", a)?.label_or_axial(Layout::EvenQ)),
        (Some(_), false) => {
            return Err(RuleError::input(
                "--at",
                "a cell for a unit going to a transport counter",
                "no --at: a unit on a counter is off the map",
            ));
        }
        (None, _) => None,
    };
    let mut mods = vec![note_line(
        "one passage (port, counter, edge) a movement phase, the unit's movement potential not \
         counted; port to port within one phase",
        "FR-K1",
    )];
    let mut notes = Vec::new();
    let from_where = i.from;
    // Landing: from a counter, or from where the caller could not say (a unit off the map).
    let was_at_sea = from_where.is_none_or(SeaPlace::at_sea);
    if landing && at.is_none() {
        notes.push(format!(
            "{unit} is back on the map: give --at CELL for where it stands (a port's cell, or an \
             edge cell neither occupied nor controlled by the German player)"
        ));
    }
    match i.to {
        SeaPlace::Port if was_at_sea => mods.push(note_line(
            "disembarked in a port: it may move on land at most 1 cell this movement phase and \
             may not fight offensively in the following combat phase",
            "FR-K1",
        )),
        SeaPlace::West | SeaPlace::South if was_at_sea => mods.push(note_line(
            "back by the edge, on a cell not occupied nor controlled by the German player: it may \
             move one cell and may fight offensively from the following combat phase",
            "FR-K1",
        )),
        SeaPlace::Counter1 | SeaPlace::Counter2 => mods.push(note_line(
            "in transit: it may neither attack nor be attacked; it may remain there indefinitely",
            "FR-K1",
        )),
        _ => {}
    }
    let port = (i.to == SeaPlace::Port)
        .then(|| i.to_port.as_deref().map(port_name))
        .flatten();
    let place = match (&port, i.to) {
        (Some(p), _) => p.clone(),
        (None, SeaPlace::Counter1) => "sea transport counter 1".to_string(),
        (None, SeaPlace::Counter2) => "sea transport counter 2".to_string(),
        (None, SeaPlace::West) => "the western edge".to_string(),
        (None, SeaPlace::South) => "the southern edge".to_string(),
        (None, SeaPlace::Port) => "a port".to_string(),
    };
    let summary = match &at {
        Some(c) => format!("{unit} by sea to {place}, at {c}"),
        None if i.to.at_sea() => format!("{unit} by sea to {place} (in transit)"),
        None => format!("{unit} by sea to {place}"),
    };
    Ok(certain(
        "sea",
        mods,
        SeaOutcome {
            unit: unit.to_string(),
            from: from_where,
            from_port: (from_where == Some(SeaPlace::Port))
                .then(|| i.from_port.as_deref().map(port_name))
                .flatten(),
            to: i.to,
            port,
            at,
        },
        summary,
        notes,
    ))
}

/// Units in transit once this passage is made (this one counted while it is at sea).
fn transit_after(i: &SeaInput) -> u32 {
    if i.to.at_sea() {
        i.in_transit + 1
    } else {
        i.in_transit
    }
}

/// FR-K1: what the text says against this passage (the umpire goes ahead: said before it is
/// made and logged with it).
pub fn sea_breaches(i: &SeaInput) -> Vec<String> {
    let unit = i.unit.trim();
    let mut notes = Vec::new();
    if i.side
        .as_deref()
        .is_some_and(|s| !s.trim().eq_ignore_ascii_case("french"))
    {
        notes.push(format!(
            "{unit} is not French; \"only French units may make a sea voyage\" (FR-K1)"
        ));
    }
    let from_where = i.from;
    let in_transit = transit_after(i);
    // The arrowed routes are the map's; what the text says of them is checked.
    let route_ok = match (from_where, i.to) {
        (None, _) => false,
        (Some(SeaPlace::Port), SeaPlace::Port) => true,
        (Some(SeaPlace::Port | SeaPlace::West | SeaPlace::South), t) => t.at_sea(),
        (Some(f), t) if f.at_sea() => f != t,
        _ => false,
    };
    if from_where.is_none() {
        if i.to.at_sea() {
            notes.push(format!(
                "{unit} is neither on the map nor at sea: a unit embarks from a port or a cell \
                 next to one, or leaves by the western or southern edge (FR-K1)"
            ));
        } else {
            notes.push(format!(
                "{unit} is not at sea: a unit lands from a transport counter (FR-K1)"
            ));
        }
    } else if !route_ok {
        let f = from_where.map_or("the map", SeaPlace::id);
        notes.push(format!(
            "from {f} to {}: \"one passes from a port to a counter, and from a counter to an edge \
             or to another counter\" (FR-K1)",
            i.to.id()
        ));
    }
    let port_to_port = from_where == Some(SeaPlace::Port) && i.to == SeaPlace::Port;
    if i.passages_this_phase > 0 && !port_to_port {
        notes.push(format!(
            "{unit} made a passage this movement phase already; \"the passage from one of these \
             elements to the element connected to it is carried out in 1 movement phase\" (FR-K1)"
        ));
    }
    if i.to.at_sea() && in_transit > SEA_TRANSIT_LIMIT {
        notes.push(format!(
            "{in_transit} units in transit; \"the number of units in transit simultaneously may \
             never exceed 4 for all the counters together\" (R counters are not counted) (FR-K1)"
        ));
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rail_at(from: &str, to: &str) -> RailInput {
        RailInput {
            unit: "1st Bavarian".into(),
            from: Some(from.into()),
            to: to.into(),
            ..RailInput::default()
        }
    }

    #[test]
    fn a_railway_move_of_twelve_cells_is_the_most_and_thirteen_is_noted() {
        // "a railway movement may reach at most 12 cells: 1 before embarking, 10 on the line and
        // 1 on disembarking"
        let r = rail(&rail_at("2034", "2046")).unwrap();
        assert_eq!(r.outcome.as_ref().unwrap().cells, Some(12));
        assert!(rail_breaches(&rail_at("2034", "2046")).is_empty());
        let r = rail(&rail_at("2034", "2047")).unwrap();
        assert_eq!(r.outcome.as_ref().unwrap().cells, Some(13));
        let said = rail_breaches(&rail_at("2034", "2047"));
        assert!(said[0].contains("at most 12 cells"), "{said:?}");
        assert!(r.notes.is_empty(), "breaches are said apart: {:?}", r.notes);
        assert!(r.rule_ids().iter().all(|id| id.as_str() == "FR-G1"));
        assert_eq!(r.odds.len(), 1, "no dice: one certain line");
    }

    #[test]
    fn one_railway_transport_a_turn_and_ten_cells_on_the_line() {
        // "a unit may make only one railway transport per turn"
        let mut i = rail_at("2034", "2040");
        i.earlier_this_turn = 1;
        i.line = Some(11);
        let said = rail_breaches(&i);
        assert!(
            said.iter()
                .any(|n| n.contains("only one railway transport per turn"))
        );
        assert!(said.iter().any(|n| n.contains("at most 10")));
    }

    #[test]
    fn a_section_carries_its_capacity_and_no_more() {
        // "transport may carry the quantity of troops corresponding to the capacity of the line
        // section concerned (3 = 3 counters transportable by this railway)"
        let mut i = rail_at("2034", "2040");
        i.section = Some("Metz-Nancy".into());
        i.capacity = Some(3);
        i.carried_on_section = 2;
        assert!(rail_breaches(&i).is_empty(), "the third of three");
        i.carried_on_section = 3;
        let r = rail(&i).unwrap();
        let said = rail_breaches(&i);
        assert!(said[0].contains("Metz-Nancy carries 3"), "{said:?}");
        let cap = r
            .modifiers
            .iter()
            .find(|m| m.label.contains("capacity"))
            .unwrap();
        assert_eq!(cap.provenance, Provenance::Unknown, "read off the map");
    }

    #[test]
    fn an_enemy_cell_is_noted_and_a_bad_cell_refused() {
        let mut i = rail_at("2034", "2040");
        i.to_enemy_controlled = true;
        assert!(rail_breaches(&i)[0].contains("occupied by a friendly unit may be used"));
        i.to = "a cell".into();
        let e = rail(&i).unwrap_err().to_string();
        assert!(e.contains("--to"), "{e}");
    }

    #[test]
    fn a_reinforcement_comes_by_railway_from_off_the_map() {
        // J2: "They may immediately make a move by railway."
        let mut i = rail_at("2034", "2040");
        i.from = None;
        let r = rail(&i).unwrap();
        assert_eq!(r.outcome.as_ref().unwrap().cells, None);
        assert!(r.summary.contains("onto the map at 2040"));
        assert!(rail_breaches(&i).is_empty());
    }

    fn sail(from: Option<SeaPlace>, to: SeaPlace) -> SeaInput {
        SeaInput {
            unit: "12e corps".into(),
            side: Some("french".into()),
            from,
            from_port: None,
            to,
            to_port: None,
            at: None,
            in_transit: 0,
            passages_this_phase: 0,
        }
    }

    #[test]
    fn le_havre_to_counter_one_then_the_western_edge_next_turn() {
        // "in turn 8 a unit passes from Le Havre to counter No. 1, and in turn 9 it will re-enter
        // play by the western edge"
        let mut i = sail(Some(SeaPlace::Port), SeaPlace::Counter1);
        i.from_port = Some("le havre".into());
        let r = sea(&i).unwrap();
        assert!(sea_breaches(&i).is_empty(), "{:?}", sea_breaches(&i));
        assert!(r.summary.ends_with("(in transit)"), "{}", r.summary);
        assert_eq!(
            r.outcome.as_ref().unwrap().from_port.as_deref(),
            Some("Le Havre")
        );
        let mut i = sail(Some(SeaPlace::Counter1), SeaPlace::West);
        // One other unit at sea (this one is not counted).
        i.in_transit = 1;
        i.at = Some("0420".into());
        let r = sea(&i).unwrap();
        assert!(
            sea_breaches(&i).is_empty() && r.notes.is_empty(),
            "{:?}",
            r.notes
        );
        assert_eq!(r.outcome.as_ref().unwrap().at.as_deref(), Some("0420"));
        assert!(
            r.modifiers
                .iter()
                .any(|m| m.label.contains("may move one cell"))
        );
        // "or else it will pass from counter No. 1 to counter No. 2 and re-enter play by the
        // southern edge in turn 10 only": two passages in one phase are noted.
        let mut i = sail(Some(SeaPlace::Counter1), SeaPlace::Counter2);
        i.passages_this_phase = 1;
        assert!(
            sea_breaches(&i)
                .iter()
                .any(|n| n.contains("in 1 movement phase"))
        );
    }

    #[test]
    fn port_to_port_in_one_phase_is_allowed() {
        // "it is moreover possible, within one and the same Movement Phase, to pass directly from
        // one port to another"
        let mut i = sail(Some(SeaPlace::Port), SeaPlace::Port);
        i.to_port = Some("dieppe".into());
        i.passages_this_phase = 1;
        let r = sea(&i).unwrap();
        assert!(
            r.notes
                .iter()
                .all(|n| !n.contains("movement phase already"))
        );
        assert_eq!(r.outcome.as_ref().unwrap().port.as_deref(), Some("Dieppe"));
    }

    #[test]
    fn only_the_french_sail_and_four_in_transit_at_most() {
        // "only French units may make a sea voyage"; "may never exceed 4 for all the counters
        // together"
        let mut i = sail(Some(SeaPlace::Port), SeaPlace::Counter1);
        i.side = Some("german".into());
        i.in_transit = 4;
        let said = sea_breaches(&i);
        assert!(said.iter().any(|n| n.contains("only French units")));
        assert!(said.iter().any(|n| n.contains("5 units in transit")));
    }

    #[test]
    fn a_port_must_be_named_and_a_counter_has_no_cell() {
        let i = sail(Some(SeaPlace::Counter1), SeaPlace::Port);
        assert!(sea(&i).unwrap_err().to_string().contains("--port"));
        let mut i = sail(Some(SeaPlace::Port), SeaPlace::Counter1);
        i.at = Some("0420".into());
        assert!(sea(&i).unwrap_err().to_string().contains("--at"));
        assert_eq!(
            "counter2".parse::<SeaPlace>().ok(),
            Some(SeaPlace::Counter2)
        );
        assert!("counter3".parse::<SeaPlace>().is_err());
    }
}
