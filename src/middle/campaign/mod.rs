//! A campaign on the board, its battles on the table (issue 30): a combat of an SPI or 1870 game
//! (the campaign) fought as a Pickelhaube & Kepi or Portable Wargame battle, and its losses carried
//! back.
//!
//! The steps, each with its rule id (house rules: no rule text links the games):
//!
//! - CAMP-B1: the combat is fought as a battle. The campaign logs a `campaign-battle` resolution
//!   naming the battle's file and dice commitment; it queues a due check "battle pending" on the
//!   first attacker, answered by that combat resolved on the chart (abandoning the battle) or by
//!   the battle's return. The campaign goes on elsewhere meanwhile.
//! - CAMP-C1: each board unit becomes table units by the conversion table (`tables/campaign.toml`,
//!   [`CampaignTable`]); the battle's first log entry after its start names the campaign's file,
//!   commitment, the hex and the campaign log entry (index and hash) it started from ([`Link`]).
//! - CAMP-C2: the battle's losses come back per board unit, rounded as the table says.
//! - CAMP-R1: the result: losses, the loser's retreat where the board game's combat has retreats
//!   (1870, FR-C2), the winner's advance into a vacated hex (SPI-C4, FR-C2), logged as one
//!   `campaign-return` resolution naming the battle's file and log head.
//!
//! Everything in this file is pure over plain data. The steps that read and write the two games
//! (make a battle, bring it back, abandon it) are [`ops`], which the command line (`kepi campaign`)
//! and the window both call.

pub mod ops;
pub mod table;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use table::{CampaignTable, Rounding, Row};

use kepi_game::dice::Prob;

use kepi_game::engine::game::{Action, EntryKind, GameState, LogEntry};
use kepi_game::engine::rule_set::{AfterBattle, BattleReturn, CampaignPart, RuleSetRef};
use kepi_game::roster::{Arm, Oob, Position, Quality, Scenario, Side, Unit};
use kepi_game::rules::{Effect, ModifierLine, OddsLine, Resolution, RuleId, RuleSetId};
use kepi_game::tables::{Provenance, TableError};

pub use kepi_game::engine::flow::campaign::{BATTLE, RETURN};
/// Most table units one battle may have (a table is not a board).
pub const MAX_TABLE_UNITS: u32 = 400;

/// Why a battle cannot be made or returned: a table with a gap (or a bad table), or input that does
/// not fit (no defenders, one side only, a pending record gone). Nothing was applied.
#[derive(Debug, thiserror::Error)]
pub enum CampaignError {
    /// The conversion table.
    #[error("{0}")]
    Table(#[from] TableError),
    /// Anything else, said for people.
    #[error("{0}")]
    Refused(String),
}

fn refused(m: impl Into<String>) -> CampaignError {
    CampaignError::Refused(m.into())
}

/// Which side of the board combat a unit fought on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// One of `--attackers`.
    Attacker,
    /// In the defending hex.
    Defender,
}

/// A board unit engaged, and what it became on the table (CAMP-C1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardUnit {
    /// Its id in the campaign.
    pub id: String,
    /// Its side.
    pub side: Side,
    /// Attacker or defender.
    pub role: Role,
    /// Its arm.
    pub arm: Arm,
    /// Its strength when the battle began.
    pub strength: u32,
    /// Table units per board point (the table's row).
    pub per_point: u32,
    /// Strength of each table unit (figures or SP).
    pub per_unit: u32,
    /// What a table unit is (battalion, battery, squadron).
    pub kind: String,
    /// The table units' ids in the battle.
    pub units: Vec<String>,
}

/// A table unit, as `kepi campaign battle --json` prints it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableUnit {
    /// Its id in the battle.
    pub id: String,
    /// The board unit it came from.
    pub from: String,
    /// Its side.
    pub side: Side,
    /// Its strength (P&K figures, PW SP).
    pub strength: u32,
}

/// One board combat fought as a battle: what the campaign's `campaign-battle` record holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Engagement {
    /// The battle's save file (absolute path when it was made).
    pub battle: String,
    /// The battle's dice commitment: its identity.
    pub battle_commitment: String,
    /// The battle's rule set (pk or pw).
    pub rules: RuleSetId,
    /// The defending hex.
    pub hex: String,
    /// The attackers' ids (the first one acts: the pending check is on it).
    pub attackers: Vec<String>,
    /// The defenders' ids.
    pub defenders: Vec<String>,
    /// The pending check's id in the campaign.
    pub pending: u64,
    /// CAMP-C2's rounding, as the table said when the battle was made.
    pub rounding: Rounding,
    /// Every board unit engaged.
    pub board: Vec<BoardUnit>,
    /// Every table unit.
    pub units: Vec<TableUnit>,
}

/// What the battle's link record holds: the campaign and the entry it started from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Link {
    /// The campaign's save file (absolute path when the battle was made).
    pub campaign: String,
    /// The campaign's dice commitment: its identity.
    pub campaign_commitment: String,
    /// The campaign's rule set (spi or fr1870).
    pub campaign_system: RuleSetId,
    /// Index of the campaign's `campaign-battle` entry.
    pub entry: u64,
    /// Its hash.
    pub entry_hash: String,
    /// The campaign's game-turn then.
    pub turn: u32,
    /// The campaign's date then.
    pub date: Option<NaiveDate>,
    /// The engagement.
    pub engagement: Engagement,
}

/// What the campaign's `campaign-return` record holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Returned {
    /// The battle's save file.
    pub battle: String,
    /// The battle's dice commitment.
    pub battle_commitment: String,
    /// The battle's log head when it came back.
    pub battle_head: String,
    /// Its number of log entries then.
    pub battle_entries: usize,
    /// The winner; None for a draw.
    pub winner: Option<Side>,
    /// The defending hex.
    pub hex: String,
    /// The attackers' side.
    pub attackers_side: Side,
    /// The defenders' ids.
    pub defenders: Vec<String>,
    /// The losses per board unit.
    pub losses: Vec<Loss>,
}

/// A board unit's loss (CAMP-C2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Loss {
    /// The board unit.
    pub unit: String,
    /// Board points lost.
    pub lost: u32,
    /// Figures or SP its table units lost.
    pub table_lost: u32,
    /// Its table units' strength at the start.
    pub table_strength: u32,
}

fn line(label: String, rule: &'static str) -> ModifierLine {
    ModifierLine::new(label, Effect::Note, RuleId::new(rule), Provenance::House)
}

/// A logged resolution without dice (a campaign step: nothing is rolled).
fn record(
    system: RuleSetId,
    action: &str,
    modifiers: Vec<ModifierLine>,
    outcome: Value,
    summary: String,
    notes: Vec<String>,
) -> Resolution<Value> {
    Resolution {
        system,
        action: action.to_string(),
        modifiers,
        dice: Vec::new(),
        outcome: Some(outcome),
        summary: summary.clone(),
        odds: vec![OddsLine {
            outcome: summary,
            p: Prob::ONE,
        }],
        rolled: Some(0),
        notes,
    }
}

/// CAMP-C2, CAMP-R1: how the campaign's board game takes a battle back, as it declares
/// ([`kepi_game::engine::rule_set::RuleSet::campaign_return`]); refused, in words, when it declares
/// none.
pub fn battle_return(campaign: &RuleSetRef) -> Result<BattleReturn, CampaignError> {
    campaign.campaign_return().ok_or_else(|| {
        refused(format!(
            "{} declares no way to take a battle's losses and result back to its board \
             (RuleSet::campaign_return): its combats cannot be fought as battles",
            campaign.title()
        ))
    })
}

/// The engaged units of one attack (SPI-C2 / FR-C1, the rule set's [`kepi_game::engine::rule_set::RuleSet::engage`]) as table
/// units by the table (CAMP-C1): the board units, the battle's units, and the record's lines.
/// Dummies and railway units do not fight (SPI-H1, SPI-E1) and are left out.
pub fn engage(
    state: &GameState,
    attackers: &[String],
    hex: Position,
    rules: RuleSetId,
    table: &CampaignTable,
) -> Result<(Vec<BoardUnit>, Vec<Unit>), CampaignError> {
    if state.system.campaign_part() != Some(CampaignPart::Board) {
        return Err(refused(format!(
            "a campaign is an SPI or 1870 game; this one is {}",
            state.system.title()
        )));
    }
    battle_return(&state.system)?;
    let part = |s: RuleSetId| kepi_game::registry::get(s).campaign_part();
    if part(rules) != Some(CampaignPart::Battle) {
        let battles: Vec<&str> = kepi_game::registry::all()
            .into_iter()
            .filter(|s| part(*s) == Some(CampaignPart::Battle))
            .map(RuleSetId::id)
            .collect();
        return Err(refused(format!(
            "a battle is fought with {}, not {}",
            battles.join(" or "),
            rules.id()
        )));
    }
    // CAMP-C1: which of the table's strength columns this battle's rule set fights with.
    let no_column = || {
        refused(format!(
            "the conversion table ({}) has no strength column for {}; it has {}",
            table.file,
            rules.title(),
            Row::STRENGTH_COLUMNS.join(" and ")
        ))
    };
    let column = kepi_game::registry::get(rules)
        .campaign_strength_column()
        .ok_or_else(no_column)?;
    let ids: Vec<String> = attackers
        .iter()
        .map(|a| state.find(a).map(|u| u.unit.id.clone()))
        .collect::<Result<_, _>>()
        .map_err(|e| refused(e.to_string()))?;
    let (att, def) = state.system.engage(state, &ids, hex).map_err(refused)?;
    let quality = [Quality::Line, Quality::Normal]
        .into_iter()
        .find(|q| kepi_game::roster::qualities_for(Some(rules)).contains(q));
    // A battle on hexes starts with its units off the map, one on a table where they stand.
    let position = if kepi_game::registry::get(rules).uses_hexes() {
        Position::Off
    } else {
        Position::Free
    };
    let mut board = Vec::new();
    let mut units = Vec::new();
    let mut total: u32 = 0;
    for (role, list) in [(Role::Attacker, &att), (Role::Defender, &def)] {
        for id in list.iter() {
            let Some(u) = state.unit(id) else { continue };
            if matches!(u.unit.arm, Arm::Dummy | Arm::Railway) {
                continue;
            }
            let row = table.row(state.system.system(), u.unit.arm, &u.unit.nation, id)?;
            let per_point = row.per_point.v();
            let per_unit = row.strength(column).ok_or_else(no_column)?;
            let n = u.strength.saturating_mul(per_point);
            total = total.saturating_add(n);
            if total > MAX_TABLE_UNITS {
                return Err(refused(format!(
                    "the battle would have more than {MAX_TABLE_UNITS} table units: lower per_point \
                     in the conversion table ({})",
                    table.file
                )));
            }
            let arm = if u.unit.arm == Arm::Fortress {
                Arm::Artillery
            } else {
                u.unit.arm
            };
            let mut ids = Vec::new();
            for k in 1..=n {
                let tid = format!("{}-{k}", u.unit.id);
                ids.push(tid.clone());
                units.push(Unit {
                    id: tid,
                    name: format!("{} {} {k}", u.unit.name, row.kind),
                    side: u.unit.side,
                    nation: u.unit.nation.clone(),
                    arm,
                    quality,
                    strength: per_unit,
                    weapon: row.weapon(),
                    formation: None,
                    leaders: kepi_game::roster::default_leaders(Some(rules), arm),
                    notes: format!(
                        "CAMP-C1: from board unit {} ({}), {} {} of {}",
                        u.unit.id,
                        u.unit.name,
                        u.strength,
                        state.system.strength_unit(u.unit.arm),
                        state.title
                    ),
                    image: None,
                    oob: Oob {
                        army: u.unit.oob.army.clone(),
                        corps: u.unit.oob.corps.clone(),
                        division: Some(u.unit.name.clone()),
                        brigade: None,
                    },
                    position,
                    facing: None,
                    location: None,
                    arrives: None,
                    movement: None,
                });
            }
            board.push(BoardUnit {
                id: u.unit.id.clone(),
                side: u.unit.side,
                role,
                arm: u.unit.arm,
                strength: u.strength,
                per_point,
                per_unit,
                kind: row.kind.clone(),
                units: ids,
            });
        }
    }
    for (role, what) in [(Role::Attacker, "attacker"), (Role::Defender, "defender")] {
        if !board.iter().any(|b| b.role == role) {
            return Err(refused(format!(
                "no {what} that fights in this combat (only dummies or railway units): there is no \
                 battle to fight"
            )));
        }
    }
    Ok((board, units))
}

/// The table units as `kepi campaign battle` prints them, each with the board unit it came from.
pub fn table_units(board: &[BoardUnit], units: &[Unit]) -> Vec<TableUnit> {
    units
        .iter()
        .map(|u| TableUnit {
            id: u.id.clone(),
            from: board
                .iter()
                .find(|b| b.units.contains(&u.id))
                .map(|b| b.id.clone())
                .unwrap_or_default(),
            side: u.side,
            strength: u.strength,
        })
        .collect()
}

/// CAMP-C1's lines, one per board unit.
fn conversion_lines(e: &Engagement) -> Vec<ModifierLine> {
    e.board
        .iter()
        .map(|b| {
            line(
                format!(
                    "{} ({}): {} x {} {}(s) of {} = {}",
                    b.id,
                    match b.role {
                        Role::Attacker => "attacker",
                        Role::Defender => "defender",
                    },
                    b.strength,
                    b.per_point,
                    b.kind,
                    b.per_unit,
                    b.strength * b.per_point * b.per_unit
                ),
                "CAMP-C1",
            )
        })
        .collect()
}

/// CAMP-B1: the campaign's record of a combat to be fought as a battle.
pub fn battle_record(campaign: &GameState, e: &Engagement) -> Resolution<Value> {
    record(
        campaign.system.system(),
        BATTLE,
        conversion_lines(e),
        serde_json::to_value(e).unwrap_or(Value::Null),
        format!(
            "CAMP-B1 the combat on hex {} is fought as a {} battle in {} ({} board units, {} table units)",
            e.hex,
            e.rules.title(),
            e.battle,
            e.board.len(),
            e.units.len()
        ),
        vec![format!(
            "CAMP-B1: `kepi campaign return {}` brings its losses back; `kepi campaign abandon {}` \
             resolves the combat on the chart",
            e.battle, e.battle
        )],
    )
}

/// CAMP-C1: the battle's own record of where it comes from.
pub fn link_record(l: &Link) -> Resolution<Value> {
    record(
        l.engagement.rules,
        BATTLE,
        conversion_lines(&l.engagement),
        serde_json::to_value(l).unwrap_or(Value::Null),
        format!(
            "CAMP-C1 fought for the {} campaign {}, hex {}, from its log entry {} (hash {})",
            l.campaign_system.title(),
            l.campaign,
            l.engagement.hex,
            l.entry,
            l.entry_hash
        ),
        Vec::new(),
    )
}

/// The battle's scenario: its units, the campaign's date, and a title naming the campaign, the
/// hex and the entry it started from.
pub fn battle_scenario(l: &Link, units: Vec<Unit>) -> Scenario {
    let e = &l.engagement;
    let att = e
        .board
        .iter()
        .find(|b| b.role == Role::Attacker)
        .map(|b| b.side)
        .unwrap_or(Side::German);
    Scenario {
        name: "campaign-battle".into(),
        system: Some(e.rules),
        title: format!(
            "Battle for hex {} (campaign turn {}, entry {})",
            e.hex, l.turn, l.entry
        ),
        date: l.date,
        first_cell: 1,
        sides: vec![att, att.other()],
        notes: format!(
            "Fought for the {} campaign {} (hex {}, from its log entry {}, hash {}); units by the \
             conversion table (CAMP-C1).",
            l.campaign_system.title(),
            l.campaign,
            e.hex,
            l.entry,
            l.entry_hash
        ),
        hide_strengths: false,
        scale: kepi_game::rules::Scale::default(),
        // A battle on the table is fought without the board's map (it is the campaign's).
        map: None,
        marks: Vec::new(),
        units,
    }
}

/// The resolutions of a log's actions with the given action name, with their entries.
fn records<'a>(
    log: &'a [LogEntry],
    action: &'a str,
) -> impl Iterator<Item = (&'a LogEntry, &'a Value)> {
    log.iter().filter_map(move |e| match &e.kind {
        EntryKind::Act {
            action: Action::Resolved { resolution, .. },
        } if resolution.action == action => Some((e, resolution.outcome.as_ref()?)),
        _ => None,
    })
}

/// The battle's link record (the first `campaign-battle` entry of its log), if it is one.
pub fn link_of(battle: &[LogEntry]) -> Option<Link> {
    records(battle, BATTLE).find_map(|(_, v)| Link::deserialize(v).ok())
}

/// The campaign's pending battles: each engagement whose check is still open.
pub fn pending(campaign: &GameState, log: &[LogEntry]) -> Vec<(u64, Engagement)> {
    records(log, BATTLE)
        .filter_map(|(entry, v)| Engagement::deserialize(v).ok().map(|e| (entry.index, e)))
        .filter(|(_, e)| {
            campaign
                .due
                .iter()
                .any(|d| d.id == e.pending && d.rule.as_str() == "CAMP-B1")
        })
        .collect()
}

/// The campaign's return of a battle, if it has one (its entry).
pub fn returned_at<'a>(log: &'a [LogEntry], battle_commitment: &str) -> Option<&'a LogEntry> {
    records(log, RETURN)
        .filter(|(_, v)| {
            v.get("battle_commitment").and_then(Value::as_str) == Some(battle_commitment)
        })
        .map(|(e, _)| e)
        .last()
}

/// CAMP-C2: each board unit's loss from its table units' losses, rounded as the table said, never
/// more than it has now in the campaign. A unit of an arm its board game declares a place (`back`,
/// its [`BattleReturn`]: 1870's fortress card, FR-F1: a fortress is taken, not worn down) loses
/// nothing.
pub fn losses(
    l: &Link,
    battle: &GameState,
    campaign: &GameState,
    back: &BattleReturn,
) -> Vec<Loss> {
    let e = &l.engagement;
    e.board
        .iter()
        .map(|b| {
            let table_lost: u32 = b
                .units
                .iter()
                .filter_map(|id| battle.unit(id))
                .map(|u| u.max_strength.saturating_sub(u.strength))
                .sum();
            let table_strength = b.strength * b.per_point * b.per_unit;
            let now = campaign.unit(&b.id).map_or(0, |u| u.strength);
            let lost = if back.places.contains(&b.arm) {
                0
            } else {
                let r = e.rounding.apply(
                    u64::from(table_lost),
                    u64::from(b.per_point) * u64::from(b.per_unit),
                );
                u32::try_from(r).unwrap_or(u32::MAX).min(now)
            };
            Loss {
                unit: b.id.clone(),
                lost,
                table_lost,
                table_strength,
            }
        })
        .collect()
}

/// CAMP-R1: the campaign's `campaign-return` resolution and its effects: the losses, the loser's
/// retreat where the board game has retreats (as `back`, its [`BattleReturn`], says: 1870's "must
/// retreat", FR-C2; SPI's note that it has none), and the pending check done (in the same entry,
/// so a second return finds it gone).
pub fn return_record(
    l: &Link,
    battle: &GameState,
    battle_head: &str,
    battle_entries: usize,
    campaign: &GameState,
    winner: Option<Side>,
    back: &BattleReturn,
) -> (Resolution<Value>, Vec<Action>, Returned) {
    let e = &l.engagement;
    let lost = losses(l, battle, campaign, back);
    let mut fx = Vec::new();
    let mut lines = Vec::new();
    for x in &lost {
        lines.push(line(
            format!(
                "{}: {} of {} lost on the table -> {} ({} rounding)",
                x.unit,
                x.table_lost,
                x.table_strength,
                x.lost,
                e.rounding.as_str()
            ),
            "CAMP-C2",
        ));
        if x.lost > 0 {
            fx.push(Action::LoseStrength {
                unit: x.unit.clone(),
                n: x.lost,
            });
        }
    }
    let attackers_side = e
        .board
        .iter()
        .find(|b| b.role == Role::Attacker)
        .map(|b| b.side)
        .unwrap_or(Side::German);
    let mut notes = Vec::new();
    match winner {
        Some(w) => {
            lines.push(line(format!("{} win the battle", w.title()), "CAMP-R1"));
            match back.loser {
                AfterBattle::Marked(kind) => {
                    for b in e
                        .board
                        .iter()
                        .filter(|b| b.side != w && !back.places.contains(&b.arm))
                    {
                        let left = campaign.unit(&b.id).map_or(0, |u| u.strength);
                        let gone = lost.iter().find(|x| x.unit == b.id).map_or(0, |x| x.lost);
                        let marked = campaign.unit(&b.id).is_some_and(|u| u.carries(kind));
                        if left > gone && !marked {
                            fx.push(Action::SetFlag {
                                unit: b.id.clone(),
                                flag: kepi_game::engine::game::FlagName::mark(kind),
                                on: true,
                            });
                        }
                    }
                }
                AfterBattle::Stays(note) => notes.push(note.to_string()),
            }
            if e.board.iter().any(|b| b.arm == Arm::Fortress) && w == attackers_side {
                notes.push(
                    "CAMP-R1: the fortress in the hex is taken only as its rules say (FR-F1, SPI-F1): \
                     the umpire decides"
                        .to_string(),
                );
            }
        }
        None => lines.push(line("a draw: nobody retreats".to_string(), "CAMP-R1")),
    }
    fx.push(Action::ResolveDue {
        id: e.pending,
        effects: Vec::new(),
    });
    let out = Returned {
        battle: e.battle.clone(),
        battle_commitment: e.battle_commitment.clone(),
        battle_head: battle_head.to_string(),
        battle_entries,
        winner,
        hex: e.hex.clone(),
        attackers_side,
        defenders: e.defenders.clone(),
        losses: lost,
    };
    let summary = format!(
        "CAMP-R1 battle {} (log head {battle_head}) returned: {}",
        e.battle,
        match winner {
            Some(w) => format!("{} win", w.title()),
            None => "a draw".into(),
        }
    );
    (
        record(
            campaign.system.system(),
            RETURN,
            lines,
            serde_json::to_value(&out).unwrap_or(Value::Null),
            summary,
            notes,
        ),
        fx,
        out,
    )
}
