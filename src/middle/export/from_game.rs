//! Fills the export view model from a game: rosters from scenarios, card files and saves; log rows
//! and the battle report from a save's log. Move and range come from the rule tables.

use std::collections::BTreeMap;
use std::path::Path;

use super::model::{
    Arm as DocArm, GroupDoc, LogRowDoc, ReportDoc, ResolutionDoc, RosterDoc, SideDoc, TurnDoc,
    UnitDoc,
};
use super::{DocProvider, ExportError, Source};
use kepi_game::engine::game::{Action, EntryKind, Game, GameState, UnitState, verify_chain};
use kepi_game::roster::{Arm, Scenario};
use kepi_game::rules::RuleSetId;
use kepi_game::rules::Tables;

/// The game session's [`DocProvider`]: scenarios, card files and saves.
pub struct GameDocs<'a> {
    /// Rule tables for move and range.
    pub tables: &'a Tables,
}

/// PK-M1, PK-F1, PK-A1, PW-U1: move and range for a unit, as printed on a roster (the rule set
/// says which it gives), at the game's scale (issue 28: `24"` of the text is `30.48cm` at cm 1/2).
fn move_and_range(
    system: RuleSetId,
    u: &UnitState,
    t: &Tables,
    scale: &kepi_game::rules::Scale,
) -> (Option<String>, Option<String>) {
    let (m, r) = kepi_game::registry::get(system).move_and_range(u, t);
    (m.map(|m| scale.localize(&m)), r.map(|r| scale.localize(&r)))
}

/// A unit's roster line, its distances at `scale`.
pub fn unit_doc(
    system: RuleSetId,
    u: &UnitState,
    t: &Tables,
    scale: &kepi_game::rules::Scale,
) -> UnitDoc {
    let (move_, range) = move_and_range(system, u, t, scale);
    let mut status = Vec::new();
    if u.level != kepi_game::engine::game::Level::Steady {
        status.push(u.level.to_string());
    }
    for (on, s) in [(u.disordered, "disordered"), (u.limbered, "limbered")] {
        if on {
            status.push(s.to_string());
        }
    }
    // The rule set's markers that hamper the unit or tell a loss (P&K's muddle and lost flag,
    // 1870's disorganisation ...), in its words.
    for k in kepi_game::registry::get(system).unit_markers() {
        if k.tone != kepi_game::engine::game::Tone::Info && u.carries(k) {
            status.push(k.label.to_string());
        }
    }
    if u.eliminated() {
        status.push("eliminated".to_string());
    }
    UnitDoc {
        id: u.unit.id.clone(),
        name: u.unit.name.clone(),
        arm: match u.unit.arm {
            Arm::Infantry => DocArm::Infantry,
            Arm::Cavalry => DocArm::Cavalry,
            Arm::Artillery => DocArm::Artillery,
            _ => DocArm::Other,
        },
        class: u.unit.quality.map(|q| q.to_string()),
        strength: u.strength,
        max_strength: u.max_strength,
        strength_unit: kepi_game::registry::get(system)
            .strength_unit(u.unit.arm)
            .to_string(),
        fatigue: u.fatigue,
        fatigue_max: kepi_game::registry::get(system).fatigue_max(),
        leaders: u.leaders,
        leaders_max: u.max_leaders,
        weapon: u.unit.weapon.map(|w| w.to_string()),
        move_,
        range,
        status,
        from: None,
        card: Some(u.unit.clone()),
    }
}

fn insert(groups: &mut Vec<GroupDoc>, path: &[(&str, &str)], unit: UnitDoc) {
    let Some(((level, name), rest)) = path.split_first() else {
        return;
    };
    let idx = match groups.iter().position(|g| g.name == *name) {
        Some(i) => i,
        None => {
            groups.push(GroupDoc {
                name: name.to_string(),
                level: level.to_string(),
                units: Vec::new(),
                groups: Vec::new(),
            });
            groups.len() - 1
        }
    };
    let g = &mut groups[idx];
    if rest.is_empty() {
        g.units.push(unit);
    } else {
        insert(&mut g.groups, rest, unit);
    }
}

/// The roster of a game state (a scenario's start, or a save's current state).
pub fn roster_doc(state: &GameState, t: &Tables) -> RosterDoc {
    let mut sides = Vec::new();
    for side in &state.sides {
        let mut groups: Vec<GroupDoc> = Vec::new();
        for u in state.units.iter().filter(|u| u.unit.side == *side) {
            let o = &u.unit.oob;
            let mut path: Vec<(&str, &str)> = [
                ("army", &o.army),
                ("corps", &o.corps),
                ("division", &o.division),
                ("brigade", &o.brigade),
            ]
            .into_iter()
            .filter_map(|(l, v)| v.as_deref().map(|v| (l, v)))
            .collect();
            if path.is_empty() {
                path.push(("group", "Independent units"));
            }
            insert(
                &mut groups,
                &path,
                unit_doc(state.system.system(), u, t, &state.scale),
            );
        }
        sides.push(SideDoc {
            name: side.title().to_string(),
            groups,
        });
    }
    RosterDoc {
        title: state.title.to_string(),
        scenario: state.scenario.to_string(),
        system: state.system.title().to_string(),
        date: state.date.map(|d| d.format("%-d %B %Y").to_string()),
        turn: Some(state.turn),
        phase: Some(state.phase_name().to_string()),
        chain_head: None,
        scale: scale_fact(&state.scale),
        sides,
    }
}

/// The header's note of a game's scale (issue 28), none at the text's own.
pub fn scale_fact(scale: &kepi_game::rules::Scale) -> Option<String> {
    (!scale.is_text()).then(|| format!("distances in {} at {}", scale.unit.word(), scale.factor))
}

/// [`roster_doc`] for a game in progress: the roster also prints the log's chain head.
pub fn game_roster_doc(game: &Game, t: &Tables) -> RosterDoc {
    let mut doc = RosterDoc {
        chain_head: Some(game.head()),
        ..roster_doc(game.state(), t)
    };
    let from = campaign_origins(game);
    if !from.is_empty() {
        fn walk(g: &mut GroupDoc, from: &BTreeMap<String, String>) {
            for u in &mut g.units {
                u.from = from.get(&u.id).cloned();
            }
            for sub in &mut g.groups {
                walk(sub, from);
            }
        }
        for side in &mut doc.sides {
            for g in &mut side.groups {
                walk(g, &from);
            }
        }
    }
    doc
}

/// Issue 30, CAMP-C1: in a battle made from a campaign, each table unit's board unit, read from
/// the battle's link record (its first `campaign-battle` resolution: `engagement.units`, each
/// `{"id", "from"}`); empty for any other game.
fn campaign_origins(game: &Game) -> BTreeMap<String, String> {
    let record = game.log().iter().find_map(|e| match &e.kind {
        EntryKind::Act {
            action: Action::Resolved { resolution, .. },
        } if resolution.action == kepi_game::engine::flow::campaign::BATTLE => {
            resolution.outcome.as_ref()
        }
        _ => None,
    });
    record
        .and_then(|v| v.pointer("/engagement/units"))
        .and_then(serde_json::Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|u| {
            Some((
                u.get("id")?.as_str()?.to_string(),
                u.get("from")?.as_str()?.to_string(),
            ))
        })
        .collect()
}

fn scenario_state(s: &Scenario) -> Result<GameState, ExportError> {
    // Cards that name no rule set print as the first one's (kepi's default, as a card file reads).
    let system = s.system.unwrap_or_else(kepi_game::registry::first);
    Ok(GameState::new(s, system, String::new()))
}

/// A save with its journal (the actions recorded since the save was last rewritten), as viewing
/// commands read it: printing a game open in the window takes no lock and writes nothing.
fn open_save(path: &Path) -> Result<Game, ExportError> {
    kepi_game::store::read_game(path)
        .map(|v| v.game)
        .map_err(|e| ExportError::Source(e.to_string()))
}

/// The log rows of a game.
pub fn log_rows(game: &Game) -> Vec<LogRowDoc> {
    game.log()
        .iter()
        .map(|e| LogRowDoc {
            index: e.index,
            time: e.time.to_rfc3339(),
            turn: e.turn,
            phase: e.phase.clone(),
            action: match &e.kind {
                EntryKind::Start { .. } => "start".into(),
                EntryKind::Act { action } => action_name(action),
                EntryKind::Undo => "undo".into(),
                EntryKind::Redo => "redo".into(),
                EntryKind::Reveal { .. } => "reveal".into(),
            },
            rule_ids: e.rules.clone(),
            dice: e
                .dice
                .iter()
                .map(|d| format!("{} {}={}", d.label, d.die, d.value))
                .collect::<Vec<_>>()
                .join("; "),
            summary: kepi_game::engine::game::entry_text(e, game.state()).joined(),
        })
        .collect()
}

fn action_name(a: &Action) -> String {
    match a {
        Action::Resolved { resolution, .. } => {
            format!("{} {}", resolution.system, resolution.action)
        }
        other => serde_json::to_value(other)
            .ok()
            .and_then(|v| v.get("type").and_then(|t| t.as_str()).map(str::to_string))
            .unwrap_or_else(|| "action".into()),
    }
}

/// Whether an action done by hand belongs in the report: a change to a unit's strength, level or
/// leaders (an umpire's correction counts like a result); moves, markers and notes do not.
fn reported_by_hand(a: &Action) -> bool {
    matches!(
        a,
        Action::LoseStrength { .. }
            | Action::GainStrength { .. }
            | Action::SetCount { .. }
            | Action::SetLevel { .. }
            | Action::LoseLeader { .. }
    )
}

/// The battle report of a game: its roster now, what is in effect turn by turn (undone actions are
/// not: the report is the battle as it stands), each entry with its actor and target in their roles
/// and its effects, casualties per side per turn counted from those effects, and the log's hash.
pub fn report_doc(game: &Game, t: &Tables) -> ReportDoc {
    let state = game.state();
    let name = |id: &str| {
        state
            .unit(id)
            .map(|u| u.unit.name.clone())
            .unwrap_or_else(|| id.to_string())
    };
    let mut turns: BTreeMap<u32, Vec<ResolutionDoc>> = BTreeMap::new();
    let mut lost: BTreeMap<u32, BTreeMap<String, u32>> = BTreeMap::new();
    for x in game.in_effect() {
        let effects = x.effects();
        let turn = x.entry.turn;
        for e in &effects {
            let n = e.lost();
            if n > 0 {
                *lost
                    .entry(turn)
                    .or_default()
                    .entry(e.side.title().to_string())
                    .or_default() += n;
            }
        }
        let said = kepi_game::engine::game::entry_text(x.entry, state);
        let (action, summary, units, dice, rule_ids): (
            String,
            String,
            Vec<String>,
            _,
            Vec<String>,
        ) = match x.action {
            Action::Resolved {
                resolution, units, ..
            } => (
                format!("{} {}", resolution.system, resolution.action),
                // Its acting unit is named in the report's "who" column; its distances are at
                // the game's scale, as the log panel and `kepi log show` print them (issue 28).
                state.scale.localize(&resolution.summary),
                units.clone(),
                &resolution.dice,
                resolution
                    .rule_ids()
                    .iter()
                    .map(|r| r.to_string())
                    .collect(),
            ),
            a if reported_by_hand(a) && !effects.is_empty() => (
                action_name(a),
                x.entry.summary_at(&state.scale),
                a.unit().map(str::to_string).into_iter().collect(),
                &x.entry.dice,
                x.entry.rules.clone(),
            ),
            _ => continue,
        };
        turns.entry(turn).or_default().push(ResolutionDoc {
            time: x.entry.time.format("%H:%M:%S").to_string(),
            units: units.iter().map(|u| name(u)).collect(),
            action,
            summary,
            dice: dice
                .iter()
                .map(|d| format!("{} {}={}", d.label, d.die, d.value))
                .collect::<Vec<_>>()
                .join("; "),
            rule_ids,
            index: x.entry.index,
            actor: units.first().map(|u| name(u)),
            target: units.get(1).map(|u| name(u)),
            effects,
            notes: said.notes,
        });
    }
    // Every turn played so far has a row, with every side, so a quiet turn shows as 0.
    let sides: Vec<String> = kepi_game::engine::flow::sides(state)
        .iter()
        .map(|s| s.title().to_string())
        .collect();
    let first = game
        .log()
        .first()
        .map(|e| e.turn)
        .unwrap_or(state.turn)
        .min(state.turn);
    let casualties = (first..=state.turn)
        .map(|turn| {
            let per = lost.get(&turn);
            (
                turn,
                sides
                    .iter()
                    .map(|side| {
                        (
                            side.clone(),
                            per.and_then(|p| p.get(side)).copied().unwrap_or(0),
                        )
                    })
                    .collect(),
            )
        })
        .collect();
    let (chain_head, verified) = match verify_chain(game.log()) {
        Ok(s) => (s.head, true),
        Err(_) => (game.head(), false),
    };
    ReportDoc {
        roster: game_roster_doc(game, t),
        turns: turns
            .into_iter()
            .map(|(turn, resolutions)| TurnDoc {
                turn,
                label: None,
                resolutions,
            })
            .collect(),
        casualties,
        chain_head,
        verified,
    }
}

impl DocProvider for GameDocs<'_> {
    fn roster(&self, source: &Source) -> Result<RosterDoc, ExportError> {
        let state = match source {
            Source::Scenario(name) => scenario_state(
                &kepi_game::registry::scenario_named(name).map_err(ExportError::Source)?,
            )?,
            Source::Cards(path) => scenario_state(
                &kepi_game::roster::load_roster_file(path)
                    .map_err(|e| ExportError::Source(e.to_string()))?,
            )?,
            Source::Save(path) => return Ok(game_roster_doc(&open_save(path)?, self.tables)),
        };
        Ok(roster_doc(&state, self.tables))
    }

    fn log(&self, source: &Source) -> Result<Vec<LogRowDoc>, ExportError> {
        match source {
            Source::Save(path) => Ok(log_rows(&open_save(path)?)),
            _ => Ok(Vec::new()),
        }
    }

    fn report(&self, save: &Path) -> Result<ReportDoc, ExportError> {
        Ok(report_doc(&open_save(save)?, self.tables))
    }
}
