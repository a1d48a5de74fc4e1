//! GSP-A1..A4, GSP-C1..C3: a gun or a battery fires at a range sector.
//!
//! One d6 per gun (all hit dice first: the guns fire at once), a hit by the chart, its pips the personnel
//! hits less the cover where it strikes. Shell and siege fire roll 2d6 per hit on the A.O.A. grid and
//! land in one of nine sectors; AP and the mitrailleuse need line of sight and strike the target sector.
//! What stands in each sector (men, cover, a structure, equipment) can be given; casualties are shared
//! out there, structures accumulate shell pips, and a structure that falls stops giving cover in the
//! very same turn. [`settle`] is the one pure function from dice to outcome: the roll and the exact odds
//! both go through it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::GspTables;
use super::damage::{
    Casualties, DamageResult, DamageState, Occupants, accumulate, pips_for, share_hits,
};
use super::drift::{DriftModel, aoa_line, drift_model, landing_dist};
use super::procedure::{GunStatus, check_can_fire};
use super::range::{Length, SectorFromRange, sector_for_range};
use super::types::{Cell, Cover, GunType};
use crate::dice::{DiceSource, Die, Dist, Prob, Ratio};
use crate::rules::{Effect, ModifierLine, Resolution, RuleError, RuleId, System, odds_from};
use crate::tables::Provenance;

/// The most guns one resolution fires (a battery, or a whole side's guns at one sector).
pub const MAX_GUNS: u32 = 12;

/// What stands in one sector around the target: men, their cover, a structure, equipment.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SectorContents {
    /// The men and horses there.
    #[serde(flatten)]
    pub occupants: Occupants,
    /// Their cover.
    pub cover: Cover,
    /// A structure (wall, building, bridge) with the pips it has taken.
    pub structure: Option<DamageState>,
    /// A piece of equipment (limber, gun) with the pips it has taken; behind the wall if there is one.
    pub equipment: Option<DamageState>,
}

/// Where the guns aim: a range sector, or a measured range turned into one (GSP-A1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Target {
    /// A range sector, 1..8.
    Sector(u32),
    /// A measured range, with the sector length (None: the table's house value).
    Range {
        /// The distance measured.
        range: Length,
        /// The length of a sector.
        sector_length: Option<Length>,
    },
}

/// One fire: a gun type, how many guns, the target, line of sight, and what stands where.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FireInput {
    /// The gun and its load (the chart's column).
    pub gun: GunType,
    /// Guns firing together, one die each (1 for a single gun).
    pub guns: u32,
    /// The range sector aimed at.
    pub target: Target,
    /// Line of sight to the target (GSP-A2: AP and mitrailleuse need it).
    pub line_of_sight: bool,
    /// The men's cover wherever a shell strikes, unless `sectors` says otherwise for that sector.
    pub cover: Cover,
    /// What stands in the target sector and its neighbours, by landing sector; sectors not listed
    /// have `cover` and unknown occupants (hits are reported, not shared out).
    #[serde(default)]
    pub sectors: BTreeMap<Cell, SectorContents>,
    /// What the guns did this turn (GSP-A4 eligibility, GSP-S1 hidden).
    #[serde(default)]
    pub status: GunStatus,
}

impl FireInput {
    /// A single gun at a range sector in the open, with line of sight.
    pub fn new(gun: GunType, sector: u32) -> FireInput {
        FireInput {
            gun,
            guns: 1,
            target: Target::Sector(sector),
            line_of_sight: true,
            cover: Cover::None,
            sectors: BTreeMap::new(),
            status: GunStatus::default(),
        }
    }
}

/// One gun's shot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShotOutcome {
    /// Which gun (1-based).
    pub gun: u32,
    /// The hit die.
    pub hit_die: u32,
    /// A hit by the chart.
    pub hit: bool,
    /// Personnel hits: the pips less the cover where it struck (never below 0).
    pub personnel_hits: u32,
    /// Where the shell landed on the A.O.A. grid; None for a miss or for direct fire (no A.O.A.).
    pub landing: Option<Cell>,
    /// The two A.O.A. dice, when rolled.
    pub aoa: Option<[u32; 2]>,
    /// Their total.
    pub aoa_total: Option<u32>,
    /// The sector whose men take the hits (on-target for direct fire); None for a miss.
    pub strikes: Option<Cell>,
    /// The cover that counted there (after any structure fell this turn).
    pub cover: Option<Cover>,
    /// Pips the cover deducted.
    pub cover_deduction: u32,
}

/// One sector after the fire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CellResult {
    /// The sector.
    pub cell: Cell,
    /// Shells (hits) that struck it.
    pub shells: u32,
    /// Their hit dice.
    pub pips: Vec<u32>,
    /// The cover that counted.
    pub cover: Cover,
    /// The cover was lost this turn (its structure fell).
    pub cover_fell: bool,
    /// Personnel hits after cover.
    pub personnel_hits: u32,
    /// Who fell, when the sector's contents were given.
    pub casualties: Option<Casualties>,
    /// The structure there, after the shell pips.
    pub structure: Option<DamageResult>,
    /// The equipment there, after the shell pips.
    pub equipment: Option<DamageResult>,
}

/// The whole fire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FireOutcome {
    /// Every gun's shot, in order.
    pub guns: Vec<ShotOutcome>,
    /// Guns that hit.
    pub hits: u32,
    /// Personnel hits over all sectors.
    pub personnel_hits: u32,
    /// Each sector struck or described, grouped by landing sector.
    pub cells: Vec<CellResult>,
    /// The drift diagram with the shells drawn (shell and siege fire).
    pub drift: Option<DriftModel>,
}

/// A value with its exact chance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chance<T> {
    /// The value.
    pub value: T,
    /// Its exact probability.
    pub p: Prob,
}

fn chances<T: Ord + Clone>(d: &Dist<T>) -> Vec<Chance<T>> {
    d.iter()
        .map(|(v, p)| Chance {
            value: v.clone(),
            p,
        })
        .collect()
}

/// Exact odds of one sector over the whole fire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CellOdds {
    /// The sector.
    pub cell: Cell,
    /// Chance at least one shell strikes it.
    pub p_struck: Prob,
    /// Distribution of its personnel hits after cover.
    pub personnel_hits: Vec<Chance<u32>>,
    /// Distribution of men and horses killed, when its contents were given.
    pub casualties: Option<Vec<Chance<u32>>>,
    /// Chance its structure falls this turn.
    pub structure_falls: Option<Prob>,
    /// Chance its equipment is destroyed this turn.
    pub equipment_destroyed: Option<Prob>,
}

/// Exact odds of a fire, for the window and the notes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FireOdds {
    /// The range sector.
    pub sector: u32,
    /// Chance one gun hits.
    pub p_hit: Prob,
    /// One gun: distribution of its personnel hits after cover (0 includes a miss).
    pub personnel_hits: Vec<Chance<u32>>,
    /// One gun: where a hit lands (A.O.A.; empty for direct fire).
    pub landing_given_hit: Vec<Chance<Cell>>,
    /// Distribution of the number of guns that hit.
    pub guns_hitting: Vec<Chance<u32>>,
    /// Each sector that can be struck.
    pub cells: Vec<CellOdds>,
}

/// GSP-A1/A2/A4/S1: checks the fire can be made and returns the range sector.
fn prepare(
    input: &FireInput,
    tables: &GspTables,
) -> Result<(u32, Option<SectorFromRange>), RuleError> {
    if input.guns == 0 || input.guns > MAX_GUNS {
        return Err(RuleError::input(
            "--guns",
            format!("{} guns", input.guns),
            format!("1 to {MAX_GUNS}"),
        ));
    }
    if input.gun.needs_line_of_sight() && !input.line_of_sight {
        return Err(RuleError::input(
            "--no-los",
            format!(
                "GSP-A2: {} fire is direct and needs line of sight to the target; shell and the siege gun fire over obstacles",
                input.gun.title()
            ),
            "a target in line of sight, or a shell load",
        ));
    }
    check_can_fire(input.gun, &input.status)?;
    let (sector, conv) = match &input.target {
        Target::Sector(s) => (*s, None),
        Target::Range {
            range,
            sector_length,
        } => {
            let c = sector_for_range(*range, *sector_length, tables)?;
            (c.sector, Some(c))
        }
    };
    tables.hit_faces(input.gun, sector)?;
    Ok((sector, conv))
}

fn contents_cover(input: &FireInput, cell: Cell) -> Cover {
    input
        .sectors
        .get(&cell)
        .map(|c| c.cover)
        .unwrap_or(input.cover)
}

/// GSP-C1/C2/C3: one sector after the shells that struck it (`pips`, in gun order).
pub fn settle_cell(input: &FireInput, cell: Cell, pips: &[u32], tables: &GspTables) -> CellResult {
    let contents = input.sectors.get(&cell);
    let base_cover = contents_cover(input, cell);
    let shell = input.gun.damages_structures();
    let structure_kind = contents.and_then(|c| c.structure.map(|s| s.kind));
    let has_equipment = contents.is_some_and(|c| c.equipment.is_some());
    let (mut to_s, mut to_e) = (0u32, 0u32);
    if shell {
        for p in pips {
            let (s, e) = pips_for(structure_kind, has_equipment, *p, tables);
            to_s += s;
            to_e += e;
        }
    }
    let structure = contents
        .and_then(|c| c.structure)
        .map(|s| accumulate(s, to_s, tables));
    let equipment = contents
        .and_then(|c| c.equipment)
        .map(|e| accumulate(e, to_e, tables));
    // GSP-C2: "A protective structure becomes ineffective in the very same turn of its destruction."
    let cover_gone =
        structure.is_some_and(|s| s.destroyed && s.kind.gives_cover() == Some(base_cover));
    let cover = if cover_gone { Cover::None } else { base_cover };
    let ded = tables.cover_pips(cover);
    let shots: Vec<(u32, u32)> = pips.iter().map(|p| (*p, p.saturating_sub(ded))).collect();
    let personnel_hits = shots.iter().map(|(_, h)| h).sum();
    let casualties = contents.map(|c| share_hits(&c.occupants, &shots, tables));
    CellResult {
        cell,
        shells: pips.len() as u32,
        pips: pips.to_vec(),
        cover,
        cover_fell: cover_gone && structure.is_some_and(|s| s.destroyed_this_turn),
        personnel_hits,
        casualties,
        structure,
        equipment,
    }
}

/// The pure heart of the fire: from each gun's hit die and (if it hit and drifts) its two A.O.A.
/// dice to the outcome. The roll and the odds both call this.
pub fn settle(
    input: &FireInput,
    sector: u32,
    shots: &[(u32, Option<[u32; 2]>)],
    tables: &GspTables,
) -> FireOutcome {
    settle_with(input, sector, shots, tables, true)
}

/// [`settle`], with the drift diagram only when `with_drift` (the odds settle every face of every
/// gun and read only the shots: building the diagram each time made a preview take milliseconds).
fn settle_with(
    input: &FireInput,
    sector: u32,
    shots: &[(u32, Option<[u32; 2]>)],
    tables: &GspTables,
    with_drift: bool,
) -> FireOutcome {
    let mut guns: Vec<ShotOutcome> = Vec::with_capacity(shots.len());
    let mut by_cell: BTreeMap<Cell, Vec<u32>> = BTreeMap::new();
    for (i, (die, aoa)) in shots.iter().enumerate() {
        let hit = tables.is_hit(input.gun, sector, *die);
        let aoa = if hit && input.gun.drifts() {
            *aoa
        } else {
            None
        };
        let aoa_total = aoa.map(|[a, b]| a + b);
        let landing = aoa_total.and_then(|t| tables.aoa_cell(t));
        let strikes = if !hit {
            None
        } else if input.gun.drifts() {
            landing
        } else {
            Some(Cell::OnTarget)
        };
        if let Some(c) = strikes {
            by_cell.entry(c).or_default().push(*die);
        }
        guns.push(ShotOutcome {
            gun: i as u32 + 1,
            hit_die: *die,
            hit,
            personnel_hits: 0,
            landing,
            aoa,
            aoa_total,
            strikes,
            cover: None,
            cover_deduction: 0,
        });
    }
    for c in input.sectors.keys() {
        by_cell.entry(*c).or_default();
    }
    let cells: Vec<CellResult> = by_cell
        .iter()
        .map(|(c, pips)| settle_cell(input, *c, pips, tables))
        .collect();
    for g in guns.iter_mut() {
        if let Some(cr) = g.strikes.and_then(|s| cells.iter().find(|c| c.cell == s)) {
            let ded = tables.cover_pips(cr.cover);
            g.cover = Some(cr.cover);
            g.cover_deduction = ded.min(g.hit_die);
            g.personnel_hits = g.hit_die.saturating_sub(ded);
        }
    }
    let landed: Vec<Cell> = guns.iter().filter_map(|g| g.landing).collect();
    FireOutcome {
        hits: guns.iter().filter(|g| g.hit).count() as u32,
        personnel_hits: cells.iter().map(|c| c.personnel_hits).sum(),
        guns,
        cells,
        drift: (with_drift && input.gun.drifts()).then(|| drift_model(tables, &landed)),
    }
}

/// One gun's dice: its hit die and, for a drifting hit, its two A.O.A. dice.
type Faces = (u32, Option<[u32; 2]>);

/// Every (hit die, A.O.A. dice) of one gun with its weight out of 216 (or 6 for direct fire).
///
/// Where a shell lands depends only on the A.O.A. total (GSP-A3: the 2d6 sum picks the cell), so
/// the 36 pairs of a hit are grouped into the 11 totals, each kept with one representative pair
/// and the number of pairs that make it: the same exact odds from 66 settled shots instead of 216.
fn one_gun_faces(input: &FireInput, sector: u32, tables: &GspTables) -> Vec<(Faces, u64)> {
    let mut out = Vec::new();
    for d in 1..=6u32 {
        if input.gun.drifts() {
            if tables.is_hit(input.gun, sector, d) {
                for total in 2..=12u32 {
                    let a = total.saturating_sub(6).max(1);
                    let pairs = 6 - total.abs_diff(7);
                    out.push(((d, Some([a, total - a])), u64::from(pairs)));
                }
            } else {
                out.push(((d, None), 36));
            }
        } else {
            out.push(((d, None), 1));
        }
    }
    out
}

/// Exact integer weights over outcomes (a distribution before normalising): products of per-gun
/// weights stay whole numbers, so no fraction grows past what `i128` holds.
#[derive(Clone, Debug)]
struct WDist<T: Ord> {
    w: BTreeMap<T, u128>,
}

fn wdist<T: Ord>(items: impl IntoIterator<Item = (T, u128)>) -> WDist<T> {
    let mut w = BTreeMap::new();
    for (t, x) in items {
        if x > 0 {
            *w.entry(t).or_insert(0) += x;
        }
    }
    WDist { w }
}

impl<T: Ord + Clone> WDist<T> {
    fn certain(t: T) -> Self {
        wdist([(t, 1)])
    }

    fn total(&self) -> u128 {
        self.w.values().sum()
    }

    fn then<U: Ord, V: Ord>(&self, step: &WDist<U>, mut f: impl FnMut(&T, &U) -> V) -> WDist<V> {
        wdist(self.w.iter().flat_map(|(t, a)| {
            step.w
                .iter()
                .map(|(u, b)| (f(t, u), a.saturating_mul(*b)))
                .collect::<Vec<_>>()
        }))
    }

    fn map<U: Ord>(&self, mut f: impl FnMut(&T) -> U) -> WDist<U> {
        wdist(self.w.iter().map(|(t, x)| (f(t), *x)))
    }

    fn weight_where(&self, mut pred: impl FnMut(&T) -> bool) -> u128 {
        self.w
            .iter()
            .filter(|(t, _)| pred(t))
            .map(|(_, x)| *x)
            .sum()
    }

    fn prob(&self, x: u128) -> Prob {
        let to_i = |v: u128| i128::try_from(v).unwrap_or(i128::MAX);
        Prob::new(to_i(x), to_i(self.total().max(1)))
    }

    fn p_where(&self, pred: impl FnMut(&T) -> bool) -> Prob {
        self.prob(self.weight_where(pred))
    }

    fn chances(&self) -> Vec<Chance<T>> {
        self.w
            .iter()
            .map(|(t, x)| Chance {
                value: t.clone(),
                p: self.prob(*x),
            })
            .collect()
    }
}

/// GSP-A1/A3/C1/C2: the exact odds of a fire: a hit, personnel hits, landing sectors, guns hitting,
/// and per sector its casualties and the chance its structure falls this turn.
pub fn fire_odds(input: &FireInput, tables: &GspTables) -> Result<FireOdds, RuleError> {
    let (sector, _) = prepare(input, tables)?;
    let faces = one_gun_faces(input, sector, tables);
    let one = Dist::from_weights(faces.iter().cloned());
    let single = FireInput {
        guns: 1,
        ..input.clone()
    };
    let shot = one.map(|s| {
        let o = settle_with(&single, sector, std::slice::from_ref(s), tables, false);
        o.guns
            .first()
            .map(|g| (g.hit, g.personnel_hits, g.strikes))
            .unwrap_or((false, 0, None))
    });
    let p_hit = shot.p_where(|(h, _, _)| *h);
    let personnel_hits = chances(&shot.map(|(_, n, _)| *n));
    let landing_given_hit = if input.gun.drifts() && p_hit > Prob::ZERO {
        chances(&landing_dist(tables))
    } else {
        Vec::new()
    };
    // A battery's odds are kept as exact integer weights over a common denominator (216 or 6 per
    // gun) and reduced to fractions only at the end, so twelve guns never overflow.
    let faces_w: Vec<(Faces, u128)> = one_gun_faces(input, sector, tables)
        .into_iter()
        .map(|(f, w)| (f, u128::from(w)))
        .collect();
    let hit_one: WDist<u32> = wdist(
        faces_w
            .iter()
            .map(|((d, _), w)| (u32::from(tables.is_hit(input.gun, sector, *d)), *w)),
    );
    let guns_hitting = (0..input.guns).fold(WDist::certain(0u32), |acc, _| {
        acc.then(&hit_one, |a, b| a + b)
    });
    // Per sector: the multiset of pips that strike it decides everything there.
    let mut cells = Vec::new();
    for cell in Cell::ALL.iter().copied() {
        let per_gun: WDist<Option<u32>> = wdist(faces_w.iter().map(|((d, aoa), w)| {
            let hit = tables.is_hit(input.gun, sector, *d);
            let at = if !hit {
                None
            } else if input.gun.drifts() {
                aoa.and_then(|[a, b]| tables.aoa_cell(a + b))
            } else {
                Some(Cell::OnTarget)
            };
            ((at == Some(cell)).then_some(*d), *w)
        }));
        if per_gun.weight_where(|o| o.is_some()) == 0 && !input.sectors.contains_key(&cell) {
            continue;
        }
        let states = (0..input.guns).fold(WDist::certain(Vec::<u32>::new()), |acc, _| {
            acc.then(&per_gun, |s, o| {
                let mut v = s.clone();
                if let Some(p) = o {
                    v.push(*p);
                    v.sort_unstable();
                }
                v
            })
        });
        let settled = states.map(|pips| {
            let r = settle_cell(input, cell, pips, tables);
            (
                r.personnel_hits,
                r.casualties.map(|c| c.total()),
                r.structure.map(|s| s.destroyed_this_turn),
                r.equipment.map(|e| e.destroyed_this_turn),
                !pips.is_empty(),
            )
        });
        let contents = input.sectors.get(&cell);
        cells.push(CellOdds {
            cell,
            p_struck: settled.p_where(|s| s.4),
            personnel_hits: settled.map(|s| s.0).chances(),
            casualties: contents.map(|_| settled.map(|s| s.1.unwrap_or(0)).chances()),
            structure_falls: contents
                .and_then(|c| c.structure)
                .map(|_| settled.p_where(|s| s.2 == Some(true))),
            equipment_destroyed: contents
                .and_then(|c| c.equipment)
                .map(|_| settled.p_where(|s| s.3 == Some(true))),
        });
    }
    Ok(FireOdds {
        sector,
        p_hit,
        personnel_hits,
        landing_given_hit,
        guns_hitting: guns_hitting.chances(),
        cells,
    })
}

fn faces_text(f: &[u32]) -> String {
    if f.is_empty() {
        "no face hits (the chart's -)".into()
    } else {
        format!(
            "hits on {}",
            f.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
        )
    }
}

fn pct(p: Prob) -> String {
    format!("{} ({})", p, p.0.percent())
}

/// GSP-A1..A4, C1..C3, S1: one gun or a battery fires at a range sector; `dice: None` previews the
/// exact odds. The hit dice of all guns are rolled first (simultaneous fire), then two A.O.A. dice
/// per hit of shell or siege fire, in gun order.
pub fn fire(
    input: &FireInput,
    tables: &GspTables,
    dice: Option<&mut DiceSource>,
) -> Result<Resolution<FireOutcome>, RuleError> {
    let (sector, conv) = prepare(input, tables)?;
    let odds_detail = fire_odds(input, tables)?;
    let faces = tables.hit_faces(input.gun, sector)?;
    let mut modifiers = Vec::new();
    match &conv {
        Some(c) => modifiers.push(c.line()),
        None => modifiers.push(ModifierLine::new(
            "range sector",
            Effect::Base(Ratio::from(sector)),
            RuleId::new("GSP-A1"),
            Provenance::Seed,
        )),
    }
    modifiers.push(ModifierLine::new(
        format!("{}: {}", input.gun.title(), faces_text(faces.get())),
        Effect::Note,
        RuleId::new("GSP-A1"),
        faces.provenance,
    ));
    if input.guns > 1 {
        modifiers.push(ModifierLine::new(
            "guns firing, one die each",
            Effect::Base(Ratio::from(input.guns)),
            RuleId::new("GSP-A4"),
            Provenance::Seed,
        ));
    }
    modifiers.push(ModifierLine::new(
        if input.gun.drifts() {
            "high trajectory: fires over all obstacles and troops; rolls A.O.A."
        } else {
            "direct fire: line of sight; no A.O.A."
        },
        Effect::Note,
        RuleId::new("GSP-A2"),
        Provenance::Seed,
    ));
    if input.gun.drifts() {
        modifiers.push(aoa_line(tables));
    }
    let mut covers: Vec<(String, Cover)> = Vec::new();
    if input.cover != Cover::None {
        covers.push(("cover".into(), input.cover));
    }
    for (cell, c) in &input.sectors {
        if c.cover != Cover::None {
            covers.push((format!("cover in {cell}"), c.cover));
        }
    }
    for (label, cover) in covers {
        let ded = tables.cover_pips(cover);
        modifiers.push(ModifierLine::new(
            format!("{label}: {cover}"),
            Effect::Add(-Ratio::from(ded)),
            RuleId::new(if cover == Cover::Fortified {
                "GSP-S1"
            } else {
                "GSP-C1"
            }),
            tables.cover_provenance(cover),
        ));
    }
    for (cell, c) in &input.sectors {
        for d in [c.structure, c.equipment].into_iter().flatten() {
            let prov = tables
                .thresholds
                .get(&d.kind)
                .map(|s| s.provenance)
                .unwrap_or(Provenance::Unknown);
            modifiers.push(ModifierLine::new(
                format!(
                    "{} in {cell} ({} pips so far) destroyed at",
                    d.kind, d.damage_so_far
                ),
                Effect::Target(Ratio::from(tables.threshold(d.kind))),
                RuleId::new("GSP-C2"),
                prov,
            ));
        }
        if c.structure
            .is_some_and(|s| s.kind == super::types::StructureKind::Wall)
            && c.equipment.is_some()
        {
            modifiers.push(ModifierLine::new(
                format!("{cell}: pips split between the wall and the equipment behind it, the wall first"),
                Effect::Note,
                RuleId::new("GSP-C2"),
                tables.split.wall_takes_first_pip.provenance,
            ));
        }
        if c.occupants.arms(tables).len() > 1 {
            modifiers.push(ModifierLine::new(
                format!(
                    "{cell}: mixed sector, hits split evenly; the extra point against {}",
                    tables.mixed.extra_point_to.v()
                ),
                Effect::Note,
                RuleId::new("GSP-C1"),
                tables.mixed.extra_point_to.provenance,
            ));
        }
        if c.occupants.cannoneers + c.occupants.horses > 0 {
            modifiers.push(ModifierLine::new(
                format!(
                    "{cell}: crew and team: even hit die, first hit on a {}; then alternating",
                    tables.crew.even_die_first.v()
                ),
                Effect::Note,
                RuleId::new("GSP-C3"),
                tables.crew.even_die_first.provenance,
            ));
        }
    }
    if input.gun.damages_structures() {
        // Nothing more: shell pips accumulate on structures (GSP-C2) where structures are given.
    } else if input
        .sectors
        .values()
        .any(|c| c.structure.is_some() || c.equipment.is_some())
    {
        modifiers.push(ModifierLine::new(
            "AP and mitrailleuse fire do not damage structures or equipment (shell fire only)",
            Effect::Note,
            RuleId::new("GSP-C2"),
            Provenance::Seed,
        ));
    }

    // Odds: one gun's joint outcome; for a battery, the number of guns that hit.
    let odds = if input.guns == 1 {
        let faces = one_gun_faces(input, sector, tables);
        let dist = Dist::from_weights(faces.into_iter().map(|(s, w)| {
            let o = settle_with(input, sector, std::slice::from_ref(&s), tables, false);
            let g = o.guns.first();
            let fell = o
                .cells
                .iter()
                .any(|c| c.structure.is_some_and(|s| s.destroyed_this_turn));
            (
                (
                    g.is_some_and(|g| g.hit),
                    g.map(|g| g.personnel_hits).unwrap_or(0),
                    g.and_then(|g| g.landing),
                    fell,
                ),
                w,
            )
        }));
        odds_from(&dist, |(hit, n, landing, fell)| {
            if !*hit {
                return "miss".to_string();
            }
            let mut s = format!("hit: {n} personnel hits");
            if let Some(l) = landing {
                s.push_str(&format!(", lands {l}"));
            }
            if *fell {
                s.push_str(", structure falls");
            }
            s
        })
    } else {
        odds_detail
            .guns_hitting
            .iter()
            .map(|c| crate::rules::OddsLine {
                outcome: format!("{} of {} guns hit", c.value, input.guns),
                p: c.p,
            })
            .collect()
    };

    let mut notes = Vec::new();
    if faces.get().is_empty() {
        notes.push(format!(
            "GSP-A1: the {} cannot hit at range sector {sector} (the chart shows -)",
            input.gun.title()
        ));
    }
    notes.push(format!(
        "chance of a hit (per gun): {}",
        pct(odds_detail.p_hit)
    ));
    notes.push(format!(
        "personnel hits per gun: {}",
        odds_detail
            .personnel_hits
            .iter()
            .map(|c| format!("{}: {}", c.value, c.p))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    if !odds_detail.landing_given_hit.is_empty() {
        notes.push(format!(
            "A.O.A. landing per hit: {}",
            odds_detail
                .landing_given_hit
                .iter()
                .map(|c| format!("{} {}", c.value, c.p))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    for c in &odds_detail.cells {
        let mut s = format!("{}: struck {}", c.cell, pct(c.p_struck));
        if let Some(p) = c.structure_falls {
            s.push_str(&format!("; structure falls this turn {}", pct(p)));
        }
        if let Some(p) = c.equipment_destroyed {
            s.push_str(&format!("; equipment destroyed {}", pct(p)));
        }
        if input.guns > 1 || c.structure_falls.is_some() || c.casualties.is_some() {
            notes.push(s);
        }
    }
    if conv
        .as_ref()
        .is_some_and(|c| c.provenance == Provenance::House)
    {
        notes.push("GSP-A1: the sector length is kepi's house value (Part I is not in the seed): check your printed rules".into());
    }

    let outcome = match dice {
        Some(src) => {
            let start = src.rolls().len();
            let mut dies = Vec::with_capacity(input.guns as usize);
            for g in 1..=input.guns {
                let label = if input.guns == 1 {
                    "hit die".to_string()
                } else {
                    format!("hit die, gun {g}")
                };
                dies.push(src.roll(Die::D6, &label)?);
            }
            let mut shots = Vec::with_capacity(dies.len());
            for (i, d) in dies.iter().enumerate() {
                let aoa = if input.gun.drifts() && tables.is_hit(input.gun, sector, *d) {
                    let suffix = if input.guns == 1 {
                        String::new()
                    } else {
                        format!(", gun {}", i + 1)
                    };
                    let a = src.roll(Die::D6, &format!("A.O.A. die 1{suffix}"))?;
                    let b = src.roll(Die::D6, &format!("A.O.A. die 2{suffix}"))?;
                    Some([a, b])
                } else {
                    None
                };
                shots.push((*d, aoa));
            }
            let rolls = src.rolls()[start..].to_vec();
            Some((settle(input, sector, &shots, tables), rolls))
        }
        None => None,
    };
    let (outcome, rolls) = match outcome {
        Some((o, r)) => (Some(o), r),
        None => (None, Vec::new()),
    };
    let summary = match &outcome {
        None => format!(
            "{} x{} at sector {sector}: hit {}",
            input.gun.title(),
            input.guns,
            pct(odds_detail.p_hit)
        ),
        Some(o) => summary_of(o),
    };
    Ok(Resolution {
        system: System::Gsp,
        action: "fire".into(),
        modifiers,
        dice: rolls,
        outcome,
        summary,
        odds,
        notes,
    })
}

fn summary_of(o: &FireOutcome) -> String {
    let shot = |g: &ShotOutcome| {
        if !g.hit {
            return format!("d6 {}: miss", g.hit_die);
        }
        let mut s = format!("d6 {}: hit", g.hit_die);
        if let (Some(l), Some(t)) = (g.landing, g.aoa_total) {
            s.push_str(&format!(", A.O.A. {t} lands {l}"));
        }
        s.push_str(&format!(", {} personnel hits", g.personnel_hits));
        s
    };
    let mut parts: Vec<String> = if o.guns.len() == 1 {
        o.guns.iter().map(shot).collect()
    } else {
        vec![format!(
            "{} of {} guns hit, {} personnel hits",
            o.hits,
            o.guns.len(),
            o.personnel_hits
        )]
    };
    for c in &o.cells {
        if let Some(cas) = c.casualties
            && c.shells > 0
        {
            parts.push(format!(
                "{}: {} infantry, {} cavalry, {} cannoneers, {} horses{}",
                c.cell,
                cas.infantry,
                cas.cavalry,
                cas.cannoneers,
                cas.horses,
                if cas.unabsorbed > 0 {
                    format!(" ({} hits find no one)", cas.unabsorbed)
                } else {
                    String::new()
                }
            ));
        }
        for d in [c.structure, c.equipment].into_iter().flatten() {
            if d.destroyed_this_turn {
                parts.push(format!(
                    "{} in {} destroyed ({} pips)",
                    d.kind, c.cell, d.total
                ));
            }
        }
        if c.cover_fell {
            parts.push(format!("cover in {} lost this turn", c.cell));
        }
    }
    parts.join("; ")
}

/// GSP-A4: the artillery phase: every fire is resolved against the state before the phase (both
/// sides fire at once; a gun or crew wiped out by artillery still returns fire this turn).
pub fn fire_phase(
    fires: &[FireInput],
    tables: &GspTables,
    mut dice: Option<&mut DiceSource>,
) -> Result<Vec<Resolution<FireOutcome>>, RuleError> {
    fires
        .iter()
        .map(|f| fire(f, tables, dice.as_deref_mut()))
        .collect()
}
