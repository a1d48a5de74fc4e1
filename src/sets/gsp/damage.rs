//! GSP-C1..C3: what a shell's pips do where it lands: personnel hits shared out over a mixed sector,
//! crews and teams, and pips accumulating on structures and equipment until they fall.
//!
//! Everything here is a pure function of the pips that landed; the fire resolution, its exact odds and
//! the `structure` and `crew` actions all call these same functions.

use serde::{Deserialize, Serialize};

use super::GspTables;
use super::types::{Arm, CrewMember, StructureKind};
use kepi_game::dice::{DiceSource, Die, Dist, Ratio};
use kepi_game::rules::{
    Effect, ModifierLine, Resolution, RuleError, RuleId, odds_from, rolled_line,
};
use kepi_game::tables::Provenance;

/// A structure or piece of equipment and the pips it has taken in earlier turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamageState {
    /// What it is.
    pub kind: StructureKind,
    /// Pips accumulated before this turn.
    #[serde(default)]
    pub damage_so_far: u32,
}

/// GSP-C2: a structure or piece after this turn's pips.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamageResult {
    /// What it is.
    pub kind: StructureKind,
    /// Pips before this turn.
    pub before: u32,
    /// Pips added this turn.
    pub added: u32,
    /// Pips accumulated now.
    pub total: u32,
    /// The pips that destroy it.
    pub threshold: u32,
    /// Destroyed (now or earlier).
    pub destroyed: bool,
    /// Destroyed by this turn's pips.
    pub destroyed_this_turn: bool,
}

/// GSP-C2: adds pips to a structure or piece and says whether it has fallen.
pub fn accumulate(state: DamageState, pips: u32, tables: &GspTables) -> DamageResult {
    let threshold = tables.threshold(state.kind);
    let total = state.damage_so_far.saturating_add(pips);
    let was = state.damage_so_far >= threshold;
    DamageResult {
        kind: state.kind,
        before: state.damage_so_far,
        added: pips,
        total,
        threshold,
        destroyed: total >= threshold,
        destroyed_this_turn: !was && total >= threshold,
    }
}

/// GSP-C2: the pips of one hit die divided evenly between a wall and the equipment directly behind
/// it, the wall receiving the first (odd) pip: `(wall, equipment)`.
pub fn split_pips(pips: u32, wall_takes_first: bool) -> (u32, u32) {
    let first = pips.div_ceil(2);
    let second = pips / 2;
    if wall_takes_first {
        (first, second)
    } else {
        (second, first)
    }
}

/// GSP-C2: how one hit die's pips reach a structure and the equipment with it: split when the
/// structure is a wall with equipment directly behind it; otherwise each takes the full pips.
pub fn pips_for(
    structure: Option<StructureKind>,
    has_equipment: bool,
    pips: u32,
    tables: &GspTables,
) -> (u32, u32) {
    match structure {
        Some(StructureKind::Wall) if has_equipment => {
            split_pips(pips, tables.split.wall_takes_first_pip.v())
        }
        _ => (pips, pips),
    }
}

/// GSP-C3: one hit die's personnel hits on a crew and team: the first on a horse if the die is even
/// (a cannoneer if odd, per the table), then alternating: `(horses, cannoneers)`.
pub fn crew_split(hit_die: u32, hits: u32, tables: &GspTables) -> (u32, u32) {
    let even_first = tables.crew.even_die_first.v();
    let first = if hit_die.is_multiple_of(2) {
        even_first
    } else {
        match even_first {
            CrewMember::Horse => CrewMember::Cannoneer,
            CrewMember::Cannoneer => CrewMember::Horse,
        }
    };
    let (a, b) = (hits.div_ceil(2), hits / 2);
    match first {
        CrewMember::Horse => (a, b),
        CrewMember::Cannoneer => (b, a),
    }
}

/// The men standing in a sector, for sharing out personnel hits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Occupants {
    /// Infantry men (figures).
    #[serde(default)]
    pub infantry: u32,
    /// Cavalry men (figures).
    #[serde(default)]
    pub cavalry: u32,
    /// Cannoneers of a gun crew (also those riding the limber).
    #[serde(default)]
    pub cannoneers: u32,
    /// Team horses (with or without driver).
    #[serde(default)]
    pub horses: u32,
}

impl Occupants {
    /// The arms present, in the order extra points go (the table's arm first, then infantry,
    /// cavalry, crew).
    pub fn arms(&self, tables: &GspTables) -> Vec<Arm> {
        let first = tables.mixed.extra_point_to.v();
        let mut order = vec![first];
        order.extend(Arm::ALL.iter().copied().filter(|a| *a != first));
        order.into_iter().filter(|a| self.has(*a)).collect()
    }

    fn has(&self, arm: Arm) -> bool {
        match arm {
            Arm::Infantry => self.infantry > 0,
            Arm::Cavalry => self.cavalry > 0,
            Arm::Crew => self.cannoneers + self.horses > 0,
        }
    }

    /// Total men and horses that can be hit.
    pub fn total(&self) -> u32 {
        self.infantry + self.cavalry + self.cannoneers + self.horses
    }
}

/// Personnel casualties in a sector, by who fell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Casualties {
    /// Infantry men.
    pub infantry: u32,
    /// Cavalry men.
    pub cavalry: u32,
    /// Cannoneers.
    pub cannoneers: u32,
    /// Team horses.
    pub horses: u32,
    /// Hits with no one left to take them (an empty sector, or more hits than men).
    pub unabsorbed: u32,
}

impl Casualties {
    /// These plus `times` times `other`, field by field (shells' demands add up before the cap).
    pub(crate) fn plus(self, other: Casualties, times: u32) -> Casualties {
        Casualties {
            infantry: self.infantry + times * other.infantry,
            cavalry: self.cavalry + times * other.cavalry,
            cannoneers: self.cannoneers + times * other.cannoneers,
            horses: self.horses + times * other.horses,
            unabsorbed: self.unabsorbed + times * other.unabsorbed,
        }
    }

    /// Men and horses that fell.
    pub fn total(&self) -> u32 {
        self.infantry + self.cavalry + self.cannoneers + self.horses
    }
}

/// GSP-C1/C3: shares out the personnel hits of the shells that landed in one sector.
///
/// `shots` holds, per shell, its hit die and its personnel hits after cover. Each shell's hits are
/// split evenly over the arms present (infantry, cavalry, a crew); the extra point of an uneven split
/// goes against the infantry (GSP-C1: "The extra point, as in the 4 and 5 roll, will be applied against
/// Infantry"), then cavalry, then crew. A crew's share falls on horses and cannoneers by the parity of
/// the hit die, alternating (GSP-C3). No arm loses more men than it has: the surplus goes to the other
/// arms present, and what is left over is `unabsorbed`.
pub fn share_hits(occ: &Occupants, shots: &[(u32, u32)], tables: &GspTables) -> Casualties {
    let arms = occ.arms(tables);
    let want = shots
        .iter()
        .fold(Casualties::default(), |acc, &(die, hits)| {
            acc.plus(share_shell(&arms, die, hits, tables), 1)
        });
    cap(occ, want)
}

/// GSP-C1/C3: what one shell's `hits` (its hit die `die`) ask of each arm present, before anyone
/// runs out of men: [`share_hits`] adds these up over the shells and then caps them, so the exact
/// odds can add them up too.
pub(crate) fn share_shell(arms: &[Arm], die: u32, hits: u32, tables: &GspTables) -> Casualties {
    let mut want = Casualties::default();
    if arms.is_empty() {
        want.unabsorbed = hits;
        return want;
    }
    let n = arms.len() as u32;
    let (base, extra) = (hits / n, hits % n);
    for (i, arm) in arms.iter().enumerate() {
        let share = base + u32::from((i as u32) < extra);
        match arm {
            Arm::Infantry => want.infantry += share,
            Arm::Cavalry => want.cavalry += share,
            Arm::Crew => {
                let (h, c) = crew_split(die, share, tables);
                want.horses += h;
                want.cannoneers += c;
            }
        }
    }
    want
}

/// Caps each arm at the men it has, passing the surplus on in the order infantry, cavalry,
/// cannoneers, horses.
pub(crate) fn cap(occ: &Occupants, want: Casualties) -> Casualties {
    let caps = [occ.infantry, occ.cavalry, occ.cannoneers, occ.horses];
    let mut got = [want.infantry, want.cavalry, want.cannoneers, want.horses];
    let mut surplus = want.unabsorbed;
    let mut spill = 0;
    for (g, c) in got.iter_mut().zip(caps) {
        if *g > c {
            spill += *g - c;
            *g = c;
        }
    }
    // Within a crew, surplus passes between cannoneers and horses first.
    for (g, c) in got.iter_mut().zip(caps) {
        let room = c - *g;
        let take = room.min(spill);
        *g += take;
        spill -= take;
    }
    surplus += spill;
    Casualties {
        infantry: got[0],
        cavalry: got[1],
        cannoneers: got[2],
        horses: got[3],
        unabsorbed: surplus,
    }
}

/// The `structure` action's input: a structure (or piece), the pips it has taken, this hit die's pips.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StructureInput {
    /// The structure or piece hit.
    pub kind: StructureKind,
    /// Pips accumulated before.
    pub damage_so_far: u32,
    /// The pips of this shell's hit die.
    pub pips: u32,
    /// Equipment directly behind it (a wall splits the pips with it).
    #[serde(default)]
    pub equipment: Option<DamageState>,
}

/// The `structure` action's outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StructureOutcome {
    /// Pips accumulated on the structure now.
    pub total: u32,
    /// True when the structure has reached its threshold.
    pub destroyed: bool,
    /// The structure in detail.
    pub structure: DamageResult,
    /// The equipment behind it, when given.
    pub equipment: Option<DamageResult>,
    /// True when the structure gives cover and fell this turn: that cover no longer counts this turn.
    pub cover_lost: bool,
}

/// GSP-C2: shell pips on a structure (and the equipment behind a wall), accumulated to its threshold.
pub fn structure(
    input: &StructureInput,
    tables: &GspTables,
) -> Result<Resolution<StructureOutcome>, RuleError> {
    if input.pips > 6 {
        return Err(RuleError::input(
            "--pips",
            format!("{} is more than a hit die shows", input.pips),
            "0 to 6",
        ));
    }
    if let Some(e) = input.equipment
        && !e.kind.is_equipment()
    {
        return Err(RuleError::input(
            "--behind",
            format!("{} is not a piece of equipment", e.kind),
            "limber, light-gun, siege-gun",
        ));
    }
    let id = RuleId::new("GSP-C2");
    let prov = |k: StructureKind| {
        tables
            .thresholds
            .get(&k)
            .map(|s| s.provenance)
            .unwrap_or(Provenance::Unknown)
    };
    let (to_s, to_e) = pips_for(
        Some(input.kind),
        input.equipment.is_some(),
        input.pips,
        tables,
    );
    let s = accumulate(
        DamageState {
            kind: input.kind,
            damage_so_far: input.damage_so_far,
        },
        to_s,
        tables,
    );
    let e = input.equipment.map(|st| accumulate(st, to_e, tables));
    let mut modifiers = vec![
        ModifierLine::new(
            format!("{} destroyed at", input.kind),
            Effect::Target(Ratio::from(s.threshold)),
            id,
            prov(input.kind),
        ),
        ModifierLine::new(
            "damage so far",
            Effect::Base(Ratio::from(input.damage_so_far)),
            id,
            Provenance::Seed,
        ),
        ModifierLine::new(
            "pips of the hit die",
            Effect::Add(Ratio::from(to_s)),
            id,
            Provenance::Seed,
        ),
    ];
    if let Some(e) = &e {
        modifiers.push(ModifierLine::new(
            format!(
                "{} pips split: {} on the {}, {} on the {} behind",
                input.pips, to_s, input.kind, to_e, e.kind
            ),
            Effect::Note,
            id,
            tables.split.wall_takes_first_pip.provenance,
        ));
    }
    let cover_lost = s.destroyed_this_turn && input.kind.gives_cover().is_some();
    let mut summary = format!(
        "{}: {} of {} pips{}",
        input.kind,
        s.total,
        s.threshold,
        if s.destroyed { ", destroyed" } else { "" }
    );
    if let Some(e) = &e {
        summary.push_str(&format!(
            "; {}: {} of {}{}",
            e.kind,
            e.total,
            e.threshold,
            if e.destroyed { ", destroyed" } else { "" }
        ));
    }
    if cover_lost {
        summary.push_str("; its cover no longer counts this turn");
    }
    let dist = Dist::certain(s.destroyed);
    Ok(Resolution {
        system: crate::gsp::ID,
        action: "structure".into(),
        modifiers,
        dice: Vec::new(),
        outcome: Some(StructureOutcome {
            total: s.total,
            destroyed: s.destroyed,
            structure: s,
            equipment: e,
            cover_lost,
        }),
        summary,
        odds: odds_from(&dist, |d| {
            if *d {
                format!("{} destroyed", input.kind)
            } else {
                format!("{} stands", input.kind)
            }
        }),
        // no dice: the pips are given, the verdict is certain, the one line
        rolled: Some(0),
        notes: vec![
            "GSP-C2: shell fire only; a structure's cover stops counting in the very turn it falls"
                .into(),
        ],
    })
}

/// The `crew` action's input.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrewInput {
    /// Personnel hits on the crew and team (after cover).
    pub hits: u32,
    /// The hit die (its parity decides who falls first); None: rolled from the dice.
    #[serde(default)]
    pub hit_die: Option<u32>,
    /// Cannoneers left, when known (caps the losses).
    #[serde(default)]
    pub cannoneers: Option<u32>,
    /// Horses left, when known (caps the losses).
    #[serde(default)]
    pub horses: Option<u32>,
}

/// The `crew` action's outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrewOutcome {
    /// Team horses killed.
    pub horses: u32,
    /// Cannoneers killed.
    pub cannoneers: u32,
    /// The hit die.
    pub hit_die: u32,
    /// Who took the first hit.
    pub first: CrewMember,
    /// Hits with no one left to take them.
    pub unabsorbed: u32,
}

fn crew_outcome(input: &CrewInput, die: u32, tables: &GspTables) -> CrewOutcome {
    let (h, c) = crew_split(die, input.hits, tables);
    let occ = Occupants {
        cannoneers: input.cannoneers.unwrap_or(u32::MAX),
        horses: input.horses.unwrap_or(u32::MAX),
        ..Occupants::default()
    };
    let got = cap(
        &occ,
        Casualties {
            cannoneers: c,
            horses: h,
            ..Casualties::default()
        },
    );
    // Who takes the first hit is the die's parity alone (a single hit's split), not who took more.
    let first = crew_split(die, 1, tables);
    CrewOutcome {
        horses: got.horses,
        cannoneers: got.cannoneers,
        hit_die: die,
        first: if first.0 > 0 {
            CrewMember::Horse
        } else {
            CrewMember::Cannoneer
        },
        unabsorbed: got.unabsorbed,
    }
}

/// GSP-C3: personnel hits on a gun crew and limber team. The hit die's parity picks who takes the
/// first hit (even: a horse; odd: a cannoneer); kepi reads the rest as alternating. A hit die shows at
/// most its pips in hits, so `hits` may not exceed it.
pub fn crew(
    input: &CrewInput,
    tables: &GspTables,
    dice: Option<&mut DiceSource>,
) -> Result<Resolution<CrewOutcome>, RuleError> {
    if input.hits > 6 {
        return Err(RuleError::input(
            "--hits",
            format!("{} is more than one hit die gives", input.hits),
            "0 to 6",
        ));
    }
    let id = RuleId::new("GSP-C3");
    let crew_prov = tables.crew.even_die_first.provenance;
    let mut modifiers = vec![
        ModifierLine::new(
            "personnel hits on crew and team",
            Effect::Base(Ratio::from(input.hits)),
            id,
            Provenance::Seed,
        ),
        ModifierLine::new(
            format!(
                "even hit die: first hit on a {}; odd: on the other; then alternating",
                tables.crew.even_die_first.v()
            ),
            Effect::Note,
            id,
            crew_prov,
        ),
        ModifierLine::new(
            "crews and teams defend at (CV per unit)",
            Effect::Target(Ratio::from(tables.crew.defence_cv.v())),
            id,
            tables.crew.defence_cv.provenance,
        ),
    ];
    let lo = input.hits.max(1);
    let faces = Dist::from_weights((lo..=6).map(|f| (f, 1u64)));
    let dist = faces.map(|f| {
        let o = crew_outcome(input, *f, tables);
        (o.horses, o.cannoneers, o.unabsorbed)
    });
    let label = |(h, c, u): &(u32, u32, u32)| {
        let mut s = format!("{h} horses, {c} cannoneers");
        if *u > 0 {
            s.push_str(&format!(", {u} unabsorbed"));
        }
        s
    };
    let odds = odds_from(&dist, label);
    let mut rolls = Vec::new();
    let die = match (input.hit_die, dice) {
        (Some(d), _) => Some(Die::D6.check(d)?),
        (None, Some(src)) => {
            let start = src.rolls().len();
            let d = src.roll(Die::D6, "hit die (crew)")?;
            rolls = src.rolls()[start..].to_vec();
            Some(d)
        }
        (None, None) => None,
    };
    if let Some(d) = die
        && input.hits > d
    {
        return Err(RuleError::input(
            "--hits",
            format!(
                "a hit die of {d} gives at most {d} personnel hits, not {}",
                input.hits
            ),
            format!("0 to {d}"),
        ));
    }
    let outcome = die.map(|d| crew_outcome(input, d, tables));
    if let Some(o) = &outcome {
        modifiers.push(ModifierLine::new(
            format!(
                "hit die {} is {}",
                o.hit_die,
                if o.hit_die % 2 == 0 { "even" } else { "odd" }
            ),
            Effect::Note,
            id,
            crew_prov,
        ));
    }
    let summary = match &outcome {
        Some(o) => format!(
            "{} horses and {} cannoneers killed (hit die {}, first on a {}){}",
            o.horses,
            o.cannoneers,
            o.hit_die,
            o.first,
            if o.unabsorbed > 0 {
                format!("; {} hits find no one", o.unabsorbed)
            } else {
                String::new()
            }
        ),
        None => format!("{} hits on crew and team", input.hits),
    };
    let rolled = outcome
        .as_ref()
        .and_then(|o| rolled_line(&odds, &label(&(o.horses, o.cannoneers, o.unabsorbed))));
    Ok(Resolution {
        system: crate::gsp::ID,
        action: "crew".into(),
        modifiers,
        dice: rolls,
        outcome,
        summary,
        odds,
        rolled,
        notes: vec![
            "GSP-C3: kepi reads hits after the first as alternating between horses and cannoneers (the seed names only the first)".into(),
            "GSP-C3: cannoneers riding the limber are hit too; a crew wiped out may still return fire this turn (GSP-A4)".into(),
        ],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t() -> &'static GspTables {
        kepi_game::tables::builtin::<crate::gsp::GspTables>()
    }

    #[test]
    fn split_gives_the_wall_the_first_pip() {
        assert_eq!(split_pips(5, true), (3, 2));
        assert_eq!(split_pips(4, true), (2, 2));
        assert_eq!(split_pips(1, true), (1, 0));
        assert_eq!(split_pips(0, true), (0, 0));
    }

    #[test]
    fn crew_first_hit_by_parity() {
        assert_eq!(crew_split(4, 3, t()), (2, 1));
        assert_eq!(crew_split(3, 3, t()), (1, 2));
        assert_eq!(crew_split(5, 1, t()), (0, 1));
        assert_eq!(crew_split(2, 1, t()), (1, 0));
    }

    #[test]
    fn mixed_sector_extra_point_to_infantry() {
        // GSP-C1 example: 2 cavalry + 3 infantry.
        let occ = Occupants {
            infantry: 3,
            cavalry: 2,
            ..Occupants::default()
        };
        let c = share_hits(&occ, &[(5, 5)], t());
        assert_eq!((c.infantry, c.cavalry), (3, 2));
        let c = share_hits(&occ, &[(3, 3)], t());
        assert_eq!((c.infantry, c.cavalry), (2, 1));
        // A 4 against men behind a wall: 2 hits.
        let c = share_hits(&occ, &[(4, 2)], t());
        assert_eq!((c.infantry, c.cavalry), (1, 1));
        // More hits than men: surplus passes on, then is unabsorbed.
        let c = share_hits(&occ, &[(5, 5), (4, 4)], t());
        assert_eq!((c.infantry, c.cavalry, c.unabsorbed), (3, 2, 4));
        let empty = Occupants::default();
        assert_eq!(share_hits(&empty, &[(3, 3)], t()).unabsorbed, 3);
    }
}
