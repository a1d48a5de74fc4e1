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
    Casualties, DamageResult, DamageState, Occupants, accumulate, cap, pips_for, share_hits,
    share_shell,
};
use super::drift::{DriftModel, aoa_line, drift_model};
use super::procedure::{GunStatus, check_can_fire};
use super::range::{Length, SectorFromRange, sector_for_range};
use super::types::{Cell, Cover, GunType};
use kepi_game::dice::{DiceSource, Die, Dist, Prob, Ratio};
use kepi_game::rules::{
    Effect, ModifierLine, Resolution, RuleError, RuleId, odds_from, rolled_line,
};
use kepi_game::tables::Provenance;

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
/// dice to the outcome. The roll calls this; the exact odds are checked against it roll by roll.
pub fn settle(
    input: &FireInput,
    sector: u32,
    shots: &[(u32, Option<[u32; 2]>)],
    tables: &GspTables,
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
        drift: input.gun.drifts().then(|| drift_model(tables, &landed)),
    }
}

/// The chart read once per fire: which hit dice hit (GSP-A1) and where each A.O.A. total lands
/// (GSP-A3), so the odds never search the tables per face.
struct Chart {
    hit: [bool; 7],
    land: [Option<Cell>; 13],
    drifts: bool,
}

impl Chart {
    fn new(input: &FireInput, sector: u32, tables: &GspTables) -> Chart {
        let faces = tables
            .hit_faces(input.gun, sector)
            .map(|f| f.get().as_slice())
            .unwrap_or(&[]);
        let mut hit = [false; 7];
        for f in faces {
            if let Some(h) = hit.get_mut(*f as usize) {
                *h = true;
            }
        }
        Chart {
            hit,
            land: tables.aoa_landings(),
            drifts: input.gun.drifts(),
        }
    }

    fn is_hit(&self, die: u32) -> bool {
        self.hit.get(die as usize).copied().unwrap_or(false)
    }

    fn lands(&self, total: u32) -> Option<Cell> {
        self.land.get(total as usize).copied().flatten()
    }
}

/// What one gun's dice do when it fires alone: the one-gun odds and the battery's per-sector
/// odds are both built from these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Shot {
    die: u32,
    hit: bool,
    personnel_hits: u32,
    landing: Option<Cell>,
    strikes: Option<Cell>,
    /// A structure falls to this one shell.
    fell: bool,
}

/// Every outcome of one gun's dice with its weight out of 216 (or 6 for direct fire).
///
/// Where a shell lands depends only on the A.O.A. total (GSP-A3: the 2d6 sum picks the cell), so
/// the 36 pairs of a hit are grouped into the 11 totals, each weighted by the pairs that make it.
/// A shell's personnel hits come from [`settle_cell`] where the sector is described (its structure
/// may fall and take its cover with it, GSP-C2), else from the fire's cover.
fn one_gun_shots(input: &FireInput, chart: &Chart, tables: &GspTables) -> Vec<(Shot, u64)> {
    let mut out = Vec::with_capacity(66);
    // A described sector's cover after one shell depends on the sector and the die only: settle
    // each pair once (eleven A.O.A. totals can land the same die in the same sector).
    let mut settled: BTreeMap<(Cell, u32), (Cover, bool)> = BTreeMap::new();
    let mut shot = |die: u32, total: Option<u32>| {
        let hit = chart.is_hit(die);
        let landing = if hit && chart.drifts {
            total.and_then(|t| chart.lands(t))
        } else {
            None
        };
        let strikes = if !hit {
            None
        } else if chart.drifts {
            landing
        } else {
            Some(Cell::OnTarget)
        };
        let (cover, fell) = match strikes {
            Some(c) if input.sectors.contains_key(&c) => {
                *settled.entry((c, die)).or_insert_with(|| {
                    let r = settle_cell(input, c, &[die], tables);
                    (r.cover, r.structure.is_some_and(|s| s.destroyed_this_turn))
                })
            }
            Some(_) => (input.cover, false),
            None => (Cover::None, false),
        };
        let personnel_hits = if strikes.is_some() {
            die.saturating_sub(tables.cover_pips(cover))
        } else {
            0
        };
        Shot {
            die,
            hit,
            personnel_hits,
            landing,
            strikes,
            fell,
        }
    };
    for d in 1..=6u32 {
        if chart.drifts && chart.is_hit(d) {
            for total in 2..=12u32 {
                out.push((shot(d, Some(total)), u64::from(6 - total.abs_diff(7))));
            }
        } else {
            out.push((shot(d, None), if chart.drifts { 36 } else { 1 }));
        }
    }
    out
}

/// Exact integer weights over outcomes (a distribution before normalising): products of per-gun
/// weights stay whole numbers (at most 216^12, well inside `u128`), so nothing overflows.
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
    fn total(&self) -> u128 {
        self.w.values().sum()
    }

    fn weight_where(&self, mut pred: impl FnMut(&T) -> bool) -> u128 {
        self.w
            .iter()
            .filter(|(t, _)| pred(t))
            .map(|(_, x)| *x)
            .sum()
    }

    fn prob(&self, x: u128) -> Prob {
        ratio_of(x, self.total())
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

/// `x / total` as an exact fraction (weights never exceed `i128`: see [`WDist`]).
fn ratio_of(x: u128, total: u128) -> Prob {
    let to_i = |v: u128| i128::try_from(v).unwrap_or(i128::MAX);
    Prob::new(to_i(x), to_i(total.max(1)))
}

/// Binomial coefficients up to [`MAX_GUNS`]: `PASCAL[n][k]` is n choose k.
const PASCAL: [[u128; MAX_GUNS as usize + 1]; MAX_GUNS as usize + 1] = {
    let mut t = [[0u128; MAX_GUNS as usize + 1]; MAX_GUNS as usize + 1];
    let mut n = 0;
    while n <= MAX_GUNS as usize {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// Weights indexed by value (hits, men fallen) as chances out of `total`, zero weights left out.
fn chances_by_value(weights: &[u128], total: u128) -> Vec<Chance<u32>> {
    weights
        .iter()
        .enumerate()
        .filter(|(_, w)| **w > 0)
        .map(|(v, w)| Chance {
            value: v as u32,
            p: ratio_of(*w, total),
        })
        .collect()
}

/// `n` choose `k` (0 beyond [`MAX_GUNS`], which [`prepare`] rules out).
fn choose(n: u32, k: u32) -> u128 {
    PASCAL
        .get(n as usize)
        .and_then(|row| row.get(k as usize))
        .copied()
        .unwrap_or(0)
}

/// What the shells with one hit die add to a described sector: pips on its structure and its
/// equipment (GSP-C2), and personnel hits and each arm's share (GSP-C1/C3) under its own cover
/// (`[0]`) and with no cover (`[1]`, once its structure has fallen).
#[derive(Clone, Copy, Debug, Default)]
struct SectorSums {
    shells: u32,
    to_structure: u32,
    to_equipment: u32,
    hits: [u32; 2],
    want: [Casualties; 2],
}

impl SectorSums {
    fn plus(self, one: &SectorSums, times: u32) -> SectorSums {
        SectorSums {
            shells: self.shells + times * one.shells,
            to_structure: self.to_structure + times * one.to_structure,
            to_equipment: self.to_equipment + times * one.to_equipment,
            hits: [
                self.hits[0] + times * one.hits[0],
                self.hits[1] + times * one.hits[1],
            ],
            want: [
                self.want[0].plus(one.want[0], times),
                self.want[1].plus(one.want[1], times),
            ],
        }
    }
}

/// GSP-C1/C2/C3: the odds of one described sector. Its outcome depends only on which hit dice
/// struck it, not on which gun fired them, so every multiset of dice that can strike it is walked
/// once, weighted by the number of gun orders that give it (a multinomial: `per_die[d]` is one
/// gun's weight of striking it with die `d`, `none` of not striking it). Along the walk the
/// shells' pips, hits and shares are summed ([`share_shell`], the same pieces [`settle_cell`]
/// adds up), and each multiset is settled as [`settle_cell`] settles it: the structure's pips
/// decide whether it falls and takes its cover (GSP-C2), then the shares under the cover that
/// counted are capped by the men there. Six guns with four hitting faces: 210 multisets instead
/// of 216^6 rolls.
fn described_cell_odds(
    input: &FireInput,
    cell: Cell,
    per_die: &[u128; 7],
    none: u128,
    tables: &GspTables,
) -> CellOdds {
    let contents = input.sectors.get(&cell);
    let occupants = contents.map(|c| c.occupants).unwrap_or_default();
    let arms = occupants.arms(tables);
    let base_cover = contents_cover(input, cell);
    let ded = [
        tables.cover_pips(base_cover),
        tables.cover_pips(Cover::None),
    ];
    let structure = contents.and_then(|c| c.structure);
    let equipment = contents.and_then(|c| c.equipment);
    let mut per_shell = [SectorSums::default(); 7];
    for (d, sums) in per_shell.iter_mut().enumerate().skip(1) {
        let die = d as u32;
        let (to_s, to_e) = if input.gun.damages_structures() {
            pips_for(structure.map(|s| s.kind), equipment.is_some(), die, tables)
        } else {
            (0, 0)
        };
        let hits = ded.map(|x| die.saturating_sub(x));
        *sums = SectorSums {
            shells: 1,
            to_structure: to_s,
            to_equipment: to_e,
            hits,
            want: hits.map(|h| share_shell(&arms, die, h, tables)),
        };
    }
    let most = MAX_GUNS as usize * 6 + 1;
    let mut hits = vec![0u128; most];
    let mut casualties = vec![0u128; most];
    let (mut struck, mut falls, mut destroyed, mut total) = (0u128, 0u128, 0u128, 0u128);
    // GSP-C2: the structure and the equipment after every pip total the guns can put on them.
    let after = |d: Option<DamageState>| -> Vec<Option<DamageResult>> {
        (0..most as u32)
            .map(|pips| d.map(|d| accumulate(d, pips, tables)))
            .collect()
    };
    let (structure_after, equipment_after) = (after(structure), after(equipment));
    let mut settle = |sums: &SectorSums, w: u128| {
        let s = structure_after
            .get(sums.to_structure as usize)
            .copied()
            .flatten();
        let e = equipment_after
            .get(sums.to_equipment as usize)
            .copied()
            .flatten();
        let gone = s.is_some_and(|s| s.destroyed && s.kind.gives_cover() == Some(base_cover));
        let k = usize::from(gone);
        total += w;
        if sums.shells > 0 {
            struck += w;
        }
        if let Some(x) = hits.get_mut(sums.hits[k] as usize) {
            *x += w;
        }
        let fell = cap(&occupants, sums.want[k]).total();
        if let Some(x) = casualties.get_mut(fell as usize) {
            *x += w;
        }
        if s.is_some_and(|s| s.destroyed_this_turn) {
            falls += w;
        }
        if e.is_some_and(|e| e.destroyed_this_turn) {
            destroyed += w;
        }
    };
    // Depth-first over the dice 1..=6: at each, how many of the guns still unassigned strike
    // here with it; the guns left at the end do not strike here. The running sums are updated in
    // place (one shell added per step, restored on the way back) rather than copied per node.
    struct Walk<'a> {
        per_die: &'a [u128; 7],
        per_shell: &'a [SectorSums; 7],
        /// `none^k` for k guns not striking here.
        none_pow: Vec<u128>,
    }
    impl Walk<'_> {
        fn walk(
            &self,
            die: usize,
            left: u32,
            weight: u128,
            sums: &mut SectorSums,
            settle: &mut dyn FnMut(&SectorSums, u128),
        ) {
            // Every weight here is one term of (none + sum of per_die)^guns = 216^guns at most
            // (< 2^78), so the products cannot overflow.
            let (Some(wd), Some(one)) = (self.per_die.get(die), self.per_shell.get(die)) else {
                let w = weight * self.none_pow.get(left as usize).copied().unwrap_or(0);
                if w > 0 {
                    settle(sums, w);
                }
                return;
            };
            let upto = if *wd == 0 { 0 } else { left };
            let saved = *sums;
            let mut power = 1u128;
            for c in 0..=upto {
                self.walk(
                    die + 1,
                    left - c,
                    weight * choose(left, c) * power,
                    sums,
                    settle,
                );
                *sums = sums.plus(one, 1);
                power *= wd;
            }
            *sums = saved;
        }
    }
    Walk {
        per_die,
        per_shell: &per_shell,
        none_pow: (0..=input.guns).map(|k| none.pow(k)).collect(),
    }
    .walk(1, input.guns, 1, &mut SectorSums::default(), &mut settle);
    CellOdds {
        cell,
        p_struck: ratio_of(struck, total),
        personnel_hits: chances_by_value(&hits, total),
        casualties: contents.map(|_| chances_by_value(&casualties, total)),
        structure_falls: structure.map(|_| ratio_of(falls, total)),
        equipment_destroyed: equipment.map(|_| ratio_of(destroyed, total)),
    }
}

/// The distribution of the sum of `n` independent draws from `one` ((value, weight) pairs), as
/// weights by value: `one` convolved with itself `n` times. In 64-bit arithmetic while the total
/// weight fits (216^8 does), which is most batteries; in 128-bit beyond.
fn nth_power(one: &[(usize, u128)], n: u32) -> Vec<u128> {
    fn convolve<T>(one: &[(usize, T)], n: u32, zero: T, unit: T) -> Vec<T>
    where
        T: Copy + PartialEq + std::ops::Add<Output = T> + std::ops::Mul<Output = T>,
    {
        let step = one.iter().map(|(v, _)| *v).max().unwrap_or(0);
        let mut sum = vec![zero; step * n as usize + 1];
        sum[0] = unit;
        let mut top = 0;
        for _ in 0..n {
            let mut next = vec![zero; sum.len()];
            for (i, a) in sum.iter().enumerate().take(top + 1) {
                if *a == zero {
                    continue;
                }
                for (j, b) in one {
                    next[i + j] = next[i + j] + *a * *b;
                }
            }
            top += step;
            sum = next;
        }
        sum
    }
    let total: u128 = one.iter().map(|(_, w)| *w).sum();
    let fits = total
        .checked_pow(n)
        .is_some_and(|t| u64::try_from(t).is_ok());
    if fits {
        let small: Vec<(usize, u64)> = one
            .iter()
            .map(|(v, w)| (*v, u64::try_from(*w).unwrap_or(u64::MAX)))
            .collect();
        convolve(&small, n, 0u64, 1u64)
            .into_iter()
            .map(u128::from)
            .collect()
    } else {
        // At most 216^12 < 2^78: no product or sum overflows u128.
        convolve(one, n, 0u128, 1u128)
    }
}

/// GSP-C1: the odds of a sector nobody described: its cover never changes, so its personnel hits
/// are the sum of each gun's independent `(pips - cover)` there, a convolution.
fn open_cell_odds(
    input: &FireInput,
    cell: Cell,
    per_die: &[u128; 7],
    none: u128,
    tables: &GspTables,
) -> CellOdds {
    let ded = tables.cover_pips(input.cover);
    // One gun's personnel hits here: (hits, weight), zero weights left out.
    let mut one = [0u128; 7];
    one[0] = none;
    for (d, w) in per_die.iter().enumerate() {
        one[(d as u32).saturating_sub(ded) as usize] += w;
    }
    let one: Vec<(usize, u128)> = one
        .into_iter()
        .enumerate()
        .filter(|(_, w)| *w > 0)
        .collect();
    let sum = nth_power(&one, input.guns);
    let total: u128 = sum.iter().sum();
    let missed = none.saturating_pow(input.guns);
    CellOdds {
        cell,
        p_struck: ratio_of(total.saturating_sub(missed), total),
        personnel_hits: chances_by_value(&sum, total),
        casualties: None,
        structure_falls: None,
        equipment_destroyed: None,
    }
}

/// The odds from one gun's shots (see [`fire_odds`]).
fn odds_from_shots(
    input: &FireInput,
    sector: u32,
    chart: &Chart,
    shots: &[(Shot, u64)],
    tables: &GspTables,
) -> FireOdds {
    let one: WDist<Shot> = wdist(shots.iter().map(|(s, w)| (*s, u128::from(*w))));
    let all = one.total();
    let p_hit = one.p_where(|s| s.hit);
    let personnel_hits = wdist(
        shots
            .iter()
            .map(|(s, w)| (s.personnel_hits, u128::from(*w))),
    )
    .chances();
    let landing_given_hit = if chart.drifts && p_hit > Prob::ZERO {
        wdist((2..=12u32).map(|t| {
            (
                chart.lands(t).unwrap_or(Cell::OnTarget),
                u128::from(6 - t.abs_diff(7)),
            )
        }))
        .chances()
    } else {
        Vec::new()
    };
    // GSP-A4: each gun hits independently: the number hitting is binomial.
    let hit_w = one.weight_where(|s| s.hit);
    let miss_w = all - hit_w;
    let guns_hitting = wdist((0..=input.guns).map(|k| {
        (
            k,
            choose(input.guns, k)
                .saturating_mul(hit_w.saturating_pow(k))
                .saturating_mul(miss_w.saturating_pow(input.guns - k)),
        )
    }))
    .chances();
    let mut cells: Vec<CellOdds> = Vec::new();
    // Open sectors already worked out, by one gun's weights of striking them.
    let mut open: Vec<([u128; 7], usize)> = Vec::new();
    for cell in Cell::ALL.iter().copied() {
        let mut per_die = [0u128; 7];
        for (s, w) in shots {
            if s.strikes == Some(cell) {
                per_die[s.die as usize] += u128::from(*w);
            }
        }
        let striking: u128 = per_die.iter().sum();
        let described = input.sectors.contains_key(&cell);
        if striking == 0 && !described {
            continue;
        }
        let none = all - striking;
        cells.push(if described {
            described_cell_odds(input, cell, &per_die, none, tables)
        } else if let Some(twin) = open.iter().find(|(w, _)| *w == per_die) {
            // Left and right of a row are struck alike: the same odds under another name.
            CellOdds {
                cell,
                ..cells[twin.1].clone()
            }
        } else {
            open.push((per_die, cells.len()));
            open_cell_odds(input, cell, &per_die, none, tables)
        });
    }
    FireOdds {
        sector,
        p_hit,
        personnel_hits,
        landing_given_hit,
        guns_hitting,
        cells,
    }
}

/// GSP-A1/A3/C1/C2: the exact odds of a fire: a hit, personnel hits, landing sectors, guns hitting,
/// and per sector its casualties and the chance its structure falls this turn.
///
/// Exact without enumerating rolls: one gun's 66 outcomes (216 rolls grouped by A.O.A. total),
/// guns hitting as a binomial, and per sector a convolution (nothing described there) or the
/// multisets of pips that can strike it (men, cover, structure described). `tests/rules/gsp_odds_brute.rs`
/// checks this against settling every roll.
pub fn fire_odds(input: &FireInput, tables: &GspTables) -> Result<FireOdds, RuleError> {
    let (sector, _) = prepare(input, tables)?;
    let chart = Chart::new(input, sector, tables);
    let shots = one_gun_shots(input, &chart, tables);
    Ok(odds_from_shots(input, sector, &chart, &shots, tables))
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

/// A probability in a note for people: the exact fraction with its percentage when the fraction is
/// short; a battery's sums reach fractions like 2630550167/24794911296, which read better as the
/// percentage alone (the exact value is in the odds and the JSON).
fn pct(p: Prob) -> String {
    let exact = p.to_string();
    if exact.len() <= 11 {
        format!("{exact} ({})", p.0.percent())
    } else {
        p.0.percent()
    }
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
    let chart = Chart::new(input, sector, tables);
    let shots = one_gun_shots(input, &chart, tables);
    let odds_detail = odds_from_shots(input, sector, &chart, &shots, tables);
    let faces = tables.hit_faces(input.gun, sector)?;
    let mut modifiers = gun_lines(input, tables, sector, conv.as_ref(), faces);
    sector_lines(input, tables, &mut modifiers);
    let odds = odds_lines(input, &shots, &odds_detail);
    let notes = fire_notes(input, sector, faces, &odds_detail, conv.as_ref());
    let outcome = match dice {
        Some(src) => Some(roll_fire(input, sector, src, tables)?),
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
    let rolled = outcome
        .as_ref()
        .and_then(|o| fired_line(&odds, o, &shots, input.guns));
    Ok(Resolution {
        system: crate::gsp::ID,
        action: "fire".into(),
        modifiers,
        dice: rolls,
        outcome,
        summary,
        odds,
        rolled,
        notes,
    })
}

/// GSP-A1, A2, A4: the range sector, the gun's hit faces, the guns firing, direct or high fire.
fn gun_lines(
    input: &FireInput,
    tables: &GspTables,
    sector: u32,
    conv: Option<&SectorFromRange>,
    faces: &kepi_game::tables::Sourced<Vec<u32>>,
) -> Vec<ModifierLine> {
    let mut modifiers = Vec::new();
    match conv {
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
    modifiers
}

/// GSP-C1..C3, S1: cover, structures and equipment, mixed sectors, crew and team, per sector.
fn sector_lines(input: &FireInput, tables: &GspTables, modifiers: &mut Vec<ModifierLine>) {
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
}

/// The odds: one gun's joint outcome; for a battery, the number of guns that hit.
fn odds_lines(
    input: &FireInput,
    shots: &[(Shot, u64)],
    odds_detail: &FireOdds,
) -> Vec<kepi_game::rules::OddsLine> {
    if input.guns == 1 {
        let dist = Dist::from_weights(
            shots
                .iter()
                .map(|(s, w)| ((s.hit, s.personnel_hits, s.landing, s.fell), *w)),
        );
        odds_from(&dist, shot_label)
    } else {
        odds_detail
            .guns_hitting
            .iter()
            .map(|c| kepi_game::rules::OddsLine {
                outcome: guns_hit_label(c.value, input.guns),
                p: c.p,
            })
            .collect()
    }
}

/// What the umpire reads beside the odds: the chance of a hit, personnel hits, landings, each
/// sector's fate, and a house sector length.
fn fire_notes(
    input: &FireInput,
    sector: u32,
    faces: &kepi_game::tables::Sourced<Vec<u32>>,
    odds_detail: &FireOdds,
    conv: Option<&SectorFromRange>,
) -> Vec<String> {
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
            .map(|c| format!("{}: {}", c.value, pct(c.p)))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    if !odds_detail.landing_given_hit.is_empty() {
        notes.push(format!(
            "A.O.A. landing per hit: {}",
            odds_detail
                .landing_given_hit
                .iter()
                .map(|c| format!("{} {}", c.value, pct(c.p)))
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

    notes
}

/// GSP-A3, A4: the hit dice of all guns first (simultaneous fire), then two A.O.A. dice per hit of
/// shell or siege fire, in gun order; settled into the outcome.
fn roll_fire(
    input: &FireInput,
    sector: u32,
    src: &mut DiceSource,
    tables: &GspTables,
) -> Result<(FireOutcome, Vec<kepi_game::dice::Roll>), RuleError> {
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
    Ok((settle(input, sector, &shots, tables), rolls))
}

/// GSP-A1/A3/C2: one gun's odds line: hit or miss, personnel hits, landing, a structure falling.
fn shot_label((hit, n, landing, fell): &(bool, u32, Option<Cell>, bool)) -> String {
    use std::fmt::Write as _;
    if !*hit {
        return "miss".to_string();
    }
    let mut s = String::with_capacity(48);
    let _ = write!(s, "hit: {n} personnel hits");
    if let Some(l) = landing {
        let _ = write!(s, ", lands {l}");
    }
    if *fell {
        s.push_str(", structure falls");
    }
    s
}

/// GSP-A4: a battery's odds line: how many of its guns hit.
fn guns_hit_label(hitting: u32, guns: u32) -> String {
    format!("{hitting} of {guns} guns hit")
}

/// GSP-A1/A3/A4: the odds line of a fire's outcome. One gun: its shot as [`shot_label`] reads it
/// (whether a structure fell comes from the enumerated shot of the same die and landing, which is
/// what the odds were built from); a battery: the guns that hit.
fn fired_line(
    odds: &[kepi_game::rules::OddsLine],
    o: &FireOutcome,
    shots: &[(Shot, u64)],
    guns: u32,
) -> Option<usize> {
    if guns != 1 {
        return rolled_line(odds, &guns_hit_label(o.hits, guns));
    }
    let g = o.guns.first()?;
    let (shot, _) = shots
        .iter()
        .find(|(s, _)| s.die == g.hit_die && s.landing == g.landing)?;
    rolled_line(
        odds,
        &shot_label(&(g.hit, g.personnel_hits, g.landing, shot.fell)),
    )
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
