//! `kepi resolve gsp ...`: Graveyard St. Privat artillery: fire (one gun or a battery, with
//! accuracy-of-aim drift), structures, crews, the A.O.A. grid, range sectors and the siege gun.
//!
//! JSON outcomes (keys fixed; more are added):
//! - `fire` (one gun): `{"hit", "personnel_hits", "landing", "hit_die", "aoa", "aoa_total", "strikes",
//!   "cover", "cover_deduction", "cells", "drift"}`; with `--guns N`: `{"guns": [one such shot per
//!   gun], "hits", "personnel_hits", "cells", "drift"}`.
//! - `structure`: `{"total", "destroyed", "structure", "equipment", "cover_lost"}`.
//! - `crew`: `{"horses", "cannoneers", "hit_die", "first", "unabsorbed"}`.

use std::collections::BTreeMap;

use clap::{ArgGroup, Args, Subcommand};

use crate::gsp::{
    self, Cell, Cover, CrewInput, DamageState, FireInput, GunStatus, GunType, Length,
    SectorContents, StructureInput, StructureKind, Target,
};
use kepi_game::dice::{Die, RollSource};
use kepi_game::engine::verbs::Ctx;
use kepi_game::engine::verbs::MoveError;
use kepi_game::rules::Resolution;
use kepi_game::rules::limits;
use kepi_game::rules::{Distance, Scale};
use kepi_game::rules::{Effect, ModifierLine, RuleId, odds_from};

/// The gsp actions.
#[derive(Debug, Subcommand)]
pub enum GspAction {
    /// Fire one gun or a battery at a range sector (GSP-A1..A4, C1..C3): hit chart, cover, A.O.A. drift.
    Fire(Box<FireArgs>),
    /// Shell pips on a structure or piece of equipment (GSP-C2).
    Structure(StructureArgs),
    /// Personnel hits on a gun crew and limber team (GSP-C3); the hit die is --d6.
    Crew(CrewArgs),
    /// One accuracy-of-aim roll on the 3x3 grid (GSP-A3); give the two dice as --d6 A --d6 B.
    Aoa,
    /// The range sector of a measured distance (GSP-A1).
    Range(RangeArgs),
    /// Roll the siege gun's hidden position on 2 dice (GSP-S1); give them as --d6 A --d6 B.
    SiegePosition(SiegeArgs),
}

/// `kepi resolve gsp fire ...`
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("target").required(true).args(["sector", "range"])))]
pub struct FireArgs {
    /// The gun and its load: prussian-4-6pdr-ap, prussian-4-6pdr-shell, prussian-siege,
    /// french-4pdr-ap, french-4pdr-shell, mitrailleuse.
    #[arg(long, value_name = "GUN")]
    pub gun: GunType,
    /// The range sector aimed at (1-8).
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::SECTOR), allow_negative_numbers = true, value_name = "N")]
    pub sector: Option<u32>,
    /// The measured range instead of a sector: 30in, 30", 76.2cm, or a bare number in the
    /// game's unit (inches without a game or --scale).
    #[arg(long, value_name = "LENGTH")]
    pub range: Option<Distance>,
    /// The length of one range sector for --range, measured on the table (default: the table's
    /// house value, 12in of the text, at the game's scale).
    #[arg(long, value_name = "LENGTH", requires = "range")]
    pub sector_length: Option<Distance>,
    /// The men's cover where the shells strike: none, woods, town, mountain, building, wall, fortified.
    #[arg(long, value_name = "COVER", default_value = "none")]
    pub cover: Cover,
    /// The two A.O.A. dice of a hit, "A,B"; repeat for successive hits (give the hit dice as --d6 first).
    #[arg(long, value_name = "A,B", value_parser = parse_aoa)]
    pub aoa: Vec<[u32; 2]>,
    /// Guns firing together, one die each (prints {"guns": [...]}).
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::GUNS), allow_negative_numbers = true, value_name = "N")]
    pub guns: Option<u32>,
    /// No line of sight to the target (AP and the mitrailleuse then cannot fire).
    #[arg(long)]
    pub no_los: bool,
    /// The gun moved this turn (it cannot fire).
    #[arg(long)]
    pub moved: bool,
    /// The gun was unlimbered this turn (it cannot fire).
    #[arg(long)]
    pub unlimbered: bool,
    /// Degrees the gun turned this turn (more than 90 counts as a move).
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::DEGREES), allow_negative_numbers = true, value_name = "DEG", default_value_t = 0)]
    pub turned: u32,
    /// The siege gun is still hidden (it cannot fire).
    #[arg(long)]
    pub hidden: bool,
    /// What stands in a sector: CELL:key=value,... with keys infantry, cavalry, cannoneers, horses,
    /// cover, structure=KIND[@PIPS], equipment=KIND[@PIPS]; "CELL:empty" for nobody. Repeatable.
    /// Example: on-target:infantry=3,cavalry=2,cover=wall,structure=wall@2
    #[arg(long = "at", value_name = "CELL:SPEC", value_parser = parse_at)]
    pub at: Vec<AtSpec>,
}

/// One `--at` sector description.
#[derive(Debug, Clone)]
pub struct AtSpec {
    /// The landing sector.
    pub cell: Cell,
    /// What stands there.
    pub contents: SectorContents,
    /// True when the spec named a cover (else --cover applies).
    pub cover_given: bool,
}

/// `kepi resolve gsp structure ...`
#[derive(Debug, Args)]
pub struct StructureArgs {
    /// The structure or piece: wall, small-building, large-bridge, limber, light-gun, siege-gun.
    #[arg(long, value_name = "KIND")]
    pub kind: StructureKind,
    /// Pips it has taken in earlier turns.
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::PIPS), allow_negative_numbers = true, value_name = "N", default_value_t = 0)]
    pub damage_so_far: u32,
    /// The pips of this shell's hit die (0-6).
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::PIPS), allow_negative_numbers = true, value_name = "N")]
    pub pips: u32,
    /// Equipment directly behind it (a wall splits the pips with it, the wall first).
    #[arg(long, value_name = "KIND")]
    pub behind: Option<StructureKind>,
    /// Pips the equipment behind has taken in earlier turns.
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::PIPS), allow_negative_numbers = true, value_name = "N", default_value_t = 0, requires = "behind")]
    pub behind_damage: u32,
}

/// `kepi resolve gsp crew ...`
#[derive(Debug, Args)]
pub struct CrewArgs {
    /// Personnel hits on the crew and team (at most the hit die).
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::CREW), allow_negative_numbers = true, value_name = "N")]
    pub hits: u32,
    /// Cannoneers left (caps the losses).
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::CREW), allow_negative_numbers = true, value_name = "N")]
    pub cannoneers: Option<u32>,
    /// Team horses left (caps the losses).
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::CREW), allow_negative_numbers = true, value_name = "N")]
    pub horses: Option<u32>,
}

/// `kepi resolve gsp range ...`
#[derive(Debug, Args)]
pub struct RangeArgs {
    /// The measured range: 30in, 30", 76.2cm, or a bare number in the game's unit (inches
    /// without a game or --scale).
    #[arg(long, value_name = "LENGTH")]
    pub range: Distance,
    /// The length of one range sector, measured on the table (default: the table's house value,
    /// 12in of the text, at the game's scale).
    #[arg(long, value_name = "LENGTH")]
    pub sector_length: Option<Distance>,
}

/// `kepi resolve gsp siege-position ...`
#[derive(Debug, Args)]
pub struct SiegeArgs {
    /// The position read from your printed Part I table for this roll (kept with the roll).
    #[arg(long, value_name = "TEXT")]
    pub position: Option<String>,
}

fn parse_aoa(s: &str) -> Result<[u32; 2], String> {
    let bad = || format!("`{s}` is not two A.O.A. dice (expected A,B with each 1-6, e.g. 3,4)");
    let (a, b) = s.split_once(',').ok_or_else(bad)?;
    let a: u32 = a.trim().parse().map_err(|_| bad())?;
    let b: u32 = b.trim().parse().map_err(|_| bad())?;
    if !(1..=6).contains(&a) || !(1..=6).contains(&b) {
        return Err(bad());
    }
    Ok([a, b])
}

fn parse_damage(v: &str) -> Result<DamageState, String> {
    let (kind, dmg) = match v.split_once('@') {
        Some((k, d)) => (
            k,
            d.trim()
                .parse::<u32>()
                .map_err(|_| format!("`{d}` is not a number of pips"))?,
        ),
        None => (v, 0),
    };
    Ok(DamageState {
        kind: kind.parse()?,
        damage_so_far: dmg,
    })
}

fn parse_at(s: &str) -> Result<AtSpec, String> {
    let (cell, spec) = s
        .split_once(':')
        .ok_or_else(|| format!("`{s}`: expected CELL:SPEC, e.g. over:infantry=3,cover=woods"))?;
    let cell: Cell = cell.parse()?;
    let mut contents = SectorContents::default();
    let mut cover_given = false;
    let spec = spec.trim();
    if spec != "empty" && !spec.is_empty() {
        for part in spec.split(',') {
            let (k, v) = part.split_once('=').ok_or_else(|| {
                format!("`{part}`: expected key=value (keys: infantry, cavalry, cannoneers, horses, cover, structure, equipment)")
            })?;
            let num = || {
                v.trim()
                    .parse::<u32>()
                    .map_err(|_| format!("`{v}` is not a number of men"))
            };
            match k.trim() {
                "infantry" | "inf" => contents.occupants.infantry = num()?,
                "cavalry" | "cav" => contents.occupants.cavalry = num()?,
                "cannoneers" => contents.occupants.cannoneers = num()?,
                "horses" => contents.occupants.horses = num()?,
                "cover" => {
                    contents.cover = v.parse()?;
                    cover_given = true;
                }
                "structure" => {
                    let d = parse_damage(v)?;
                    if d.kind.is_equipment() {
                        return Err(format!("`{}` is equipment: use equipment={v}", d.kind));
                    }
                    contents.structure = Some(d);
                }
                "equipment" => {
                    let d = parse_damage(v)?;
                    if !d.kind.is_equipment() {
                        return Err(format!("`{}` is a structure: use structure={v}", d.kind));
                    }
                    contents.equipment = Some(d);
                }
                other => {
                    return Err(format!(
                        "`{other}` is not a key (accepted: infantry, cavalry, cannoneers, horses, cover, structure, equipment)"
                    ));
                }
            }
        }
    }
    Ok(AtSpec {
        cell,
        contents,
        cover_given,
    })
}

/// Counts the d6 values the user entered, without using them (a clone of the source is rolled).
fn entered_d6(ctx: &Ctx<'_>, most: u32) -> u32 {
    let Some(src) = ctx.dice.as_deref() else {
        return 0;
    };
    let mut probe = src.clone();
    let mut n = 0;
    while n <= most {
        match probe.roll(Die::D6, "probe") {
            Ok(_) if probe.rolls().last().map(|r| r.source) == Some(RollSource::Entered) => n += 1,
            _ => break,
        }
    }
    n
}

/// GSP-A1: a distance typed at the table as the rule's [`Length`]: as typed at the text's own
/// scale (a bare number in inches, centimetres kept as such), else converted once to the text's
/// inches at `scale` (issue 28).
pub(crate) fn length(d: Distance, scale: &Scale, flag: &str) -> Result<Length, MoveError> {
    if scale.is_text() {
        return Ok(match d.unit {
            Some(kepi_game::rules::scale::Unit::Cm) => Length::cm(d.amount),
            _ => Length::inches(d.amount),
        });
    }
    Ok(Length::inches(kepi_game::engine::verbs::text_inches(
        d, scale, flag,
    )?))
}

/// Resolves one gsp action.
pub fn run(
    action: &GspAction,
    mut ctx: Ctx<'_>,
) -> Result<Resolution<serde_json::Value>, MoveError> {
    let tables = ctx.tables.get::<crate::gsp::GspTables>();
    match action {
        GspAction::Fire(a) => {
            let guns = a.guns.unwrap_or(1);
            let target = match (a.sector, a.range) {
                (Some(s), _) => Target::Sector(s),
                (None, Some(r)) => Target::Range {
                    range: length(r, &ctx.scale, "--range")?,
                    sector_length: match a.sector_length {
                        Some(l) => Some(length(l, &ctx.scale, "--sector-length")?),
                        None => None,
                    },
                },
                (None, None) => {
                    return Err(MoveError::usage("give --sector N or --range LENGTH"));
                }
            };
            let mut sectors = BTreeMap::new();
            for s in &a.at {
                let mut c = s.contents.clone();
                if !s.cover_given {
                    c.cover = a.cover;
                }
                if sectors.insert(s.cell, c).is_some() {
                    return Err(MoveError::usage(format!(
                        "--at: sector {} is described twice",
                        s.cell
                    )));
                }
            }
            let input = FireInput {
                gun: a.gun,
                guns,
                target,
                line_of_sight: !a.no_los,
                cover: a.cover,
                sectors,
                status: GunStatus {
                    moved_this_turn: a.moved,
                    unlimbered_this_turn: a.unlimbered,
                    turned_degrees: a.turned,
                    pointed_at_target: true,
                    hidden: a.hidden,
                },
            };
            if !a.aoa.is_empty() && ctx.dice.is_some() {
                if !a.gun.drifts() {
                    return Err(MoveError::usage(format!(
                        "--aoa: {} fire is direct and rolls no A.O.A. dice",
                        a.gun
                    )));
                }
                if entered_d6(&ctx, guns) < guns {
                    return Err(MoveError::usage(format!(
                        "--aoa: give the hit die of every gun first (--d6, {guns} in all): the hit dice are rolled before the A.O.A. dice"
                    )));
                }
                if let Some(src) = ctx.dice.as_deref_mut() {
                    for [x, y] in &a.aoa {
                        src.enter(Die::D6, *x)?;
                        src.enter(Die::D6, *y)?;
                    }
                }
            }
            let res = gsp::fire(&input, tables, ctx.dice)?;
            let mut out = res.erase();
            if a.guns.is_none()
                && let Some(o) = &res.outcome
                && let Some(shot) = o.guns.first()
            {
                let mut v = serde_json::to_value(shot)
                    .map_err(|e| MoveError::failed(format!("JSON output: {e}")))?;
                if let Some(m) = v.as_object_mut() {
                    m.insert(
                        "cells".into(),
                        serde_json::to_value(&o.cells).unwrap_or_default(),
                    );
                    m.insert(
                        "drift".into(),
                        serde_json::to_value(&o.drift).unwrap_or_default(),
                    );
                }
                out.outcome = Some(v);
            }
            Ok(out)
        }
        GspAction::Structure(a) => {
            let input = StructureInput {
                kind: a.kind,
                damage_so_far: a.damage_so_far,
                pips: a.pips,
                equipment: a.behind.map(|k| DamageState {
                    kind: k,
                    damage_so_far: a.behind_damage,
                }),
            };
            Ok(gsp::structure(&input, tables)?.erase())
        }
        GspAction::Crew(a) => {
            let input = CrewInput {
                hits: a.hits,
                hit_die: None,
                cannoneers: a.cannoneers,
                horses: a.horses,
            };
            Ok(gsp::crew(&input, tables, ctx.dice)?.erase())
        }
        GspAction::Aoa => Ok(gsp::aoa(tables, ctx.dice)?.erase()),
        GspAction::Range(a) => {
            let range = length(a.range, &ctx.scale, "--range")?;
            let sector_length = match a.sector_length {
                Some(l) => Some(length(l, &ctx.scale, "--sector-length")?),
                None => None,
            };
            let s = gsp::sector_for_range(range, sector_length, tables)?;
            let dist = kepi_game::dice::Dist::certain(s.sector);
            Ok(Resolution {
                system: crate::gsp::ID,
                action: "range".into(),
                modifiers: vec![s.line()],
                dice: Vec::new(),
                summary: format!(
                    "{} is range sector {} (sectors of {}in)",
                    range, s.sector, s.sector_length_inches
                ),
                odds: odds_from(&dist, |n| format!("sector {n}")),
                rolled: None,
                outcome: Some(serde_json::to_value(&s).unwrap_or_default()),
                notes: Vec::new(),
            })
        }
        GspAction::SiegePosition(a) => {
            let mut res = gsp::siege_position(a.position.as_deref(), tables, ctx.dice)?.erase();
            res.modifiers.push(ModifierLine::new(
                "fortified sector: the siege gun's sector deducts",
                Effect::Add(-kepi_game::dice::Ratio::from(
                    tables.cover_pips(Cover::Fortified),
                )),
                RuleId::new("GSP-S1"),
                tables.cover_provenance(Cover::Fortified),
            ));
            Ok(res)
        }
    }
}
