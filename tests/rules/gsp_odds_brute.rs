//! GSP-A1/A3/C1..C3: `fire_odds` against brute force: every roll of every die, settled one by one
//! through `gsp::settle` (the function the real roll uses), must give exactly the same fractions.
//!
//! The odds are computed in closed form (binomials, convolutions, multisets of pips per landing
//! sector); this is the check that the shortcut and the rules agree.

use std::collections::BTreeMap;

use kepi::dice::Prob;
use kepi::rules::gsp::{
    self, Cell, CellOdds, Chance, Cover, DamageState, FireInput, FireOdds, GspTables, GunType,
    Occupants, SectorContents, StructureKind,
};

fn t() -> &'static GspTables {
    kepi::tables::builtin::<kepi::rules::gsp::GspTables>()
}

/// Exact weights over values, turned into chances in value order (zero weights left out).
struct W<T: Ord>(BTreeMap<T, u128>);

impl<T: Ord> Default for W<T> {
    fn default() -> Self {
        W(BTreeMap::new())
    }
}

impl<T: Ord + Clone> W<T> {
    fn add(&mut self, t: T, w: u128) {
        *self.0.entry(t).or_insert(0) += w;
    }
    fn chances(&self, total: u128) -> Vec<Chance<T>> {
        self.0
            .iter()
            .filter(|(_, w)| **w > 0)
            .map(|(t, w)| Chance {
                value: t.clone(),
                p: Prob::new(*w as i128, total as i128),
            })
            .collect()
    }
}

/// Every outcome of one gun's dice: (hit die, A.O.A. pair) with weight 1 each.
fn one_gun_rolls(input: &FireInput, sector: u32) -> Vec<(u32, Option<[u32; 2]>)> {
    let mut out = Vec::new();
    for d in 1..=6 {
        let hit = gsp::settle(
            &FireInput {
                guns: 1,
                ..input.clone()
            },
            sector,
            &[(d, Some([1, 1]))],
            t(),
        )
        .hits
            == 1;
        if hit && input.gun.drifts() {
            for a in 1..=6 {
                for b in 1..=6 {
                    out.push((d, Some([a, b])));
                }
            }
        } else {
            // A miss or direct fire rolls no A.O.A.: weight it as 36 equal rolls for a common
            // denominator with the drifting faces.
            let n = if input.gun.drifts() { 36 } else { 1 };
            for _ in 0..n {
                out.push((d, None));
            }
        }
    }
    out
}

#[derive(Default)]
struct CellAcc {
    struck: u128,
    seen: bool,
    hits: W<u32>,
    casualties: W<u32>,
    falls: u128,
    destroyed: u128,
}

/// The odds by brute force over every combination of every gun's dice.
fn brute(input: &FireInput, sector: u32) -> FireOdds {
    let rolls = one_gun_rolls(input, sector);
    let single = FireInput {
        guns: 1,
        ..input.clone()
    };
    let total1 = rolls.len() as u128;
    let mut hit1 = 0u128;
    let mut hits1 = W::default();
    let mut landing = W::default();
    for r in &rolls {
        let o = gsp::settle(&single, sector, std::slice::from_ref(r), t());
        let g = &o.guns[0];
        if g.hit {
            hit1 += 1;
            if let Some(l) = g.landing {
                landing.add(l, 1);
            }
        }
        hits1.add(g.personnel_hits, 1);
    }
    let n = input.guns as usize;
    let mut guns_hitting = W::default();
    let mut cells: BTreeMap<Cell, CellAcc> = BTreeMap::new();
    let mut idx = vec![0usize; n];
    let mut total = 0u128;
    loop {
        let shots: Vec<_> = idx.iter().map(|i| rolls[*i]).collect();
        let o = gsp::settle(input, sector, &shots, t());
        total += 1;
        guns_hitting.add(o.hits, 1);
        for c in &o.cells {
            let acc = cells.entry(c.cell).or_default();
            acc.seen |= c.shells > 0 || input.sectors.contains_key(&c.cell);
            acc.struck += u128::from(c.shells > 0);
            acc.hits.add(c.personnel_hits, 1);
            if let Some(cas) = c.casualties {
                acc.casualties.add(cas.total(), 1);
            }
            acc.falls += u128::from(c.structure.is_some_and(|s| s.destroyed_this_turn));
            acc.destroyed += u128::from(c.equipment.is_some_and(|s| s.destroyed_this_turn));
        }
        // Next combination (odometer).
        let mut k = 0;
        while k < n {
            idx[k] += 1;
            if idx[k] < rolls.len() {
                break;
            }
            idx[k] = 0;
            k += 1;
        }
        if k == n {
            break;
        }
    }
    let p = |w: u128| Prob::new(w as i128, total as i128);
    let cells = Cell::ALL
        .iter()
        .filter_map(|cell| {
            let acc = cells.get_mut(cell)?;
            if !acc.seen {
                return None;
            }
            // Combinations where the cell was not in the outcome had no shell there: 0 hits.
            let counted: u128 = acc.hits.0.values().sum();
            acc.hits.add(0, total - counted);
            let contents = input.sectors.get(cell);
            Some(CellOdds {
                cell: *cell,
                p_struck: p(acc.struck),
                personnel_hits: acc.hits.chances(total),
                casualties: contents.map(|_| acc.casualties.chances(total)),
                structure_falls: contents.and_then(|c| c.structure).map(|_| p(acc.falls)),
                equipment_destroyed: contents.and_then(|c| c.equipment).map(|_| p(acc.destroyed)),
            })
        })
        .collect();
    let p_hit = Prob::new(hit1 as i128, total1 as i128);
    FireOdds {
        sector,
        p_hit,
        personnel_hits: hits1.chances(total1),
        landing_given_hit: if input.gun.drifts() && hit1 > 0 {
            landing.chances(hit1)
        } else {
            Vec::new()
        },
        guns_hitting: guns_hitting.chances(total),
        cells,
    }
}

fn contents(inf: u32, cav: u32, crew: u32, cover: Cover) -> SectorContents {
    SectorContents {
        occupants: Occupants {
            infantry: inf,
            cavalry: cav,
            cannoneers: crew,
            horses: crew,
        },
        cover,
        ..SectorContents::default()
    }
}

fn check(input: &FireInput, sector: u32) {
    let want = brute(input, sector);
    let got = gsp::fire_odds(input, t()).unwrap();
    assert_eq!(got, want, "{:?} x{} at {sector}", input.gun, input.guns);
    let r = gsp::fire(input, t(), None).unwrap();
    assert_eq!(r.odds_total(), Prob::ONE);
}

#[test]
fn shell_battery_odds_match_every_roll() {
    // Two 4/6 pounders with shell at sector 3: every one of 216^2 rolls settled.
    let mut input = FireInput::new(GunType::Prussian46Shell, 3);
    input.guns = 2;
    input.cover = Cover::Woods;
    let mut wall = contents(3, 0, 0, Cover::Wall);
    wall.structure = Some(DamageState {
        kind: StructureKind::Wall,
        damage_so_far: 2,
    });
    wall.equipment = Some(DamageState {
        kind: StructureKind::LightGun,
        damage_so_far: 1,
    });
    input.sectors.insert(Cell::OnTarget, wall);
    input
        .sectors
        .insert(Cell::Over, contents(2, 2, 1, Cover::None));
    input.sectors.insert(
        Cell::ShortLeft,
        SectorContents {
            structure: Some(DamageState {
                kind: StructureKind::SmallBuilding,
                damage_so_far: 0,
            }),
            cover: Cover::Building,
            ..contents(4, 0, 0, Cover::Building)
        },
    );
    check(&input, 3);
    // And one gun of it, and the same battery with nothing described.
    input.guns = 1;
    check(&input, 3);
    input.guns = 2;
    input.sectors.clear();
    check(&input, 3);
}

#[test]
fn siege_and_direct_fire_odds_match_every_roll() {
    let mut input = FireInput::new(GunType::PrussianSiege, 5);
    input.guns = 2;
    let mut building = contents(0, 3, 2, Cover::Building);
    building.structure = Some(DamageState {
        kind: StructureKind::SmallBuilding,
        damage_so_far: 4,
    });
    input.sectors.insert(Cell::OnTarget, building);
    check(&input, 5);
    // Direct fire: four mitrailleuses, one die each (6^4 rolls), on a mixed sector in the open.
    let mut input = FireInput::new(GunType::Mitrailleuse, 1);
    input.guns = 4;
    input
        .sectors
        .insert(Cell::OnTarget, contents(2, 1, 1, Cover::Town));
    check(&input, 1);
    let mut input = FireInput::new(GunType::French4Ap, 2);
    input.guns = 3;
    input.cover = Cover::Building;
    check(&input, 2);
}
