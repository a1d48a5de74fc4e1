//! 1870 combat: potentials with logistics, disorganisation and fortresses (FR-S1, FR-F1), the force
//! ratio and the modified die (FR-C1), the results and their effects on the units (FR-C2).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::{Arm, Fr1870Tables};
use kepi_game::dice::{DiceSource, Dist, Ratio};
use kepi_game::rules::crt::{self, Cell, Odds, Tally, UnitLine, vocab};
use kepi_game::rules::{
    Effect, ModifierLine, Resolution, RuleError, RuleId, odds_from, rolled_line,
};
use kepi_game::tables::Provenance;

/// FR-C2: one combat result as printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum FrResult {
    /// Attacker eliminated.
    AE,
    /// Attacker disorganised.
    AD,
    /// Nothing.
    R,
    /// Defender retreats one cell.
    DR,
    /// Defender disorganised.
    DD,
    /// Defender retreats and is disorganised.
    DRD,
    /// Exchange: defender eliminated, attacker loses at least the defender's printed potential.
    E,
    /// Defender eliminated.
    DE,
}

impl FrResult {
    /// Every result.
    pub const ALL: [FrResult; 8] = [
        FrResult::AE,
        FrResult::AD,
        FrResult::R,
        FrResult::DR,
        FrResult::DD,
        FrResult::DRD,
        FrResult::E,
        FrResult::DE,
    ];

    /// The accepted spellings.
    pub const ACCEPTED: &'static str =
        "AE, AD, R, DR, DD, DRD, E, DE, or several joined by commas (e.g. AD,DD)";

    /// The code as printed.
    pub fn code(self) -> &'static str {
        match self {
            FrResult::AE => "AE",
            FrResult::AD => "AD",
            FrResult::R => "R",
            FrResult::DR => "DR",
            FrResult::DD => "DD",
            FrResult::DRD => "DRD",
            FrResult::E => "E",
            FrResult::DE => "DE",
        }
    }
}

impl fmt::Display for FrResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for FrResult {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_uppercase();
        FrResult::ALL
            .into_iter()
            .find(|r| r.code() == t)
            .ok_or_else(|| {
                format!(
                    "`{s}` is not a 1870 result (accepted: {})",
                    FrResult::ACCEPTED
                )
            })
    }
}

/// FR-C2: a CRT cell: one result or several ("AD,DD").
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FrCell(pub Vec<FrResult>);

impl FrCell {
    /// FR-C1: `--result` as typed, read by [`crt::typed_result`] (as the window's field is):
    /// the text itself, or what to type (clap exits 2 with it, naming the option).
    pub fn typed_arg(text: &str) -> Result<String, String> {
        crt::typed_result::<FrCell>(text, FrResult::ACCEPTED).map(|_| text.to_string())
    }

    /// True when the cell contains `r`.
    pub fn has(&self, r: FrResult) -> bool {
        self.0.contains(&r)
    }
}

impl fmt::Display for FrCell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<&str> = self.0.iter().map(|r| r.code()).collect();
        f.write_str(&parts.join(","))
    }
}

impl FromStr for FrCell {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let v = s
            .split([',', '+'])
            .map(|p| p.parse::<FrResult>())
            .collect::<Result<Vec<_>, _>>()?;
        if v.is_empty() {
            return Err(format!("`{s}` is empty"));
        }
        Ok(FrCell(v))
    }
}

crt::serde_as_text!(FrCell);

/// One unit in a 1870 combat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FrUnit {
    /// The unit's name, when it comes from a game: its modifier line names it (issue 17: each
    /// unit's contribution shown). Absent from `kepi resolve`, whose sides are plain numbers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The printed (normal side) combat potential.
    pub potential: u32,
    /// Infantry or cavalry.
    pub arm: Arm,
    /// FR-S1: disorganised (potential halved; a second D eliminates it).
    pub disorganised: bool,
    /// FR-S1: supplied at the moment of combat.
    pub supplied: bool,
    /// FR-F1: one of the (at most `coefficient`) units whose defence the fortress multiplies.
    pub fortress_multiplied: bool,
    /// FR-C2: it has a cell to retreat to (false: blocked, stacked full or off the map).
    pub can_retreat: bool,
}

impl FrUnit {
    /// A supplied, organised infantry unit that can retreat.
    pub fn infantry(potential: u32) -> FrUnit {
        FrUnit {
            name: None,
            potential,
            arm: Arm::Infantry,
            disorganised: false,
            supplied: true,
            fortress_multiplied: false,
            can_retreat: true,
        }
    }
}

vocab!(
    /// FR-F1: the part a fortress plays in a combat.
    FortressRole {
        /// Occupied, defending: multiplies up to `coefficient` units' potential.
        DefendsOccupied => "defends-occupied",
        /// Unoccupied, defending with its own coefficient as potential.
        DefendsUnoccupied => "defends-unoccupied",
        /// Occupied, its garrison attacks: the coefficient is added to the attack.
        GarrisonAttacks => "garrison-attacks",
        /// Unoccupied, friendly units attack the besieger from outside: the coefficient is added.
        SupportsRelief => "supports-relief",
    }
);

vocab!(
    /// FR-F1 (H11): who picked the units an occupied fortress multiplies and supplies, "at the
    /// player's choice".
    GarrisonChoice {
        /// kepi picks the defender's best: the units whose choice maximises the defence, the
        /// others halved as unsupplied (FR-S1) ([`garrison`]).
        Best => "best",
        /// The defender chose them (the units marked `fortress_multiplied`).
        Chosen => "chosen",
    }
);

/// FR-F1: a fortress in a combat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FrFortress {
    /// Its coefficient, 1-3.
    pub coefficient: u32,
    /// Its part in this combat.
    pub role: FortressRole,
    /// FR-F1 (H11), an occupied fortress defending: who picked the units it multiplies and
    /// supplies (they alone are supplied, the others halved), said in a modifier line. Absent
    /// (as an earlier kepi logged it): the units marked `fortress_multiplied` as they are, with
    /// their own supply, and no line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choice: Option<GarrisonChoice>,
}

impl FrFortress {
    /// A fortress in this part, no garrison choice said.
    pub fn new(coefficient: u32, role: FortressRole) -> FrFortress {
        FrFortress {
            coefficient,
            role,
            choice: None,
        }
    }
}

/// Everything one 1870 combat needs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FrCombatInput {
    /// The attacker's units engaged.
    pub attackers: Vec<FrUnit>,
    /// The defender's units in the attacked cell (or engaged).
    pub defenders: Vec<FrUnit>,
    /// FR-F1: a fortress taking part.
    pub fortress: Option<FrFortress>,
    /// FR-C1: the Terrain Table's correction of the die (the table is not in the seed: entered).
    pub die_mod: i32,
    /// FR-F1: the defender is a besieger (the die is corrected by -1).
    pub besieger_defending: bool,
    /// FR-F1: a combat between besieged and besiegers: DR results have no effect.
    pub siege_combat: bool,
    /// FR-F1: the besiegers attack the fortress: it is taken only on E or DE.
    pub assault: bool,
}

impl FrCombatInput {
    /// Two plain stacks of these total potentials, nothing else.
    pub fn plain(attack: u32, defend: u32) -> FrCombatInput {
        FrCombatInput {
            attackers: vec![FrUnit::infantry(attack)],
            defenders: vec![FrUnit::infantry(defend)],
            fortress: None,
            die_mod: 0,
            besieger_defending: false,
            siege_combat: false,
            assault: false,
        }
    }
}

/// FR-C2: what happens to one unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fate {
    /// Nothing.
    Unchanged,
    /// Turned to its disorganised side.
    Disorganised,
    /// Retreats one cell.
    Retreats,
    /// Disorganised and retreats one cell.
    DisorganisedRetreats,
    /// Eliminated.
    Eliminated,
}

/// FR-C2: the effects of a result on the units engaged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FrEffects {
    /// Each attacking unit's fate, in input order.
    pub attackers: Vec<Fate>,
    /// Each defending unit's fate, in input order.
    pub defenders: Vec<Fate>,
    /// E: the attacker must eliminate engaged units totalling at least this printed potential.
    pub attacker_must_lose: Option<u32>,
    /// FR-F1: the fortress passes to the besieger.
    pub fortress_taken: bool,
    /// FR-F1: DE on an assault: the besieger disorganises one of his units, at his choice.
    pub besieger_disorganises_one: bool,
    /// FR-C2: the defenders' cell is vacated; the victor may occupy it with engaged units (stacking 4).
    pub may_advance: bool,
    /// What the umpire must do or know.
    pub notes: Vec<String>,
}

#[derive(Clone, Copy)]
struct St {
    d: bool,
    gone: bool,
    retreat: bool,
}

impl St {
    fn disorganise(&mut self) {
        if self.d {
            self.gone = true;
        }
        self.d = true;
    }
    fn fate(self, was_d: bool) -> Fate {
        match (self.gone, self.d && !was_d, self.retreat) {
            (true, _, _) => Fate::Eliminated,
            (false, true, true) => Fate::DisorganisedRetreats,
            (false, true, false) => Fate::Disorganised,
            (false, false, true) => Fate::Retreats,
            (false, false, false) => Fate::Unchanged,
        }
    }
}

/// FR-C2, FR-F1: applies a cell's results to the engaged units.
pub fn apply_result(cell: &FrCell, input: &FrCombatInput) -> FrEffects {
    let start = |us: &[FrUnit]| -> Vec<St> {
        us.iter()
            .map(|u| St {
                d: u.disorganised,
                gone: false,
                retreat: false,
            })
            .collect()
    };
    let (mut att, mut def) = (start(&input.attackers), start(&input.defenders));
    let mut notes = Vec::new();
    let mut must_lose = None;
    let retreat = |def: &mut Vec<St>, notes: &mut Vec<String>| {
        if input.siege_combat {
            notes.push("FR-F1: DR has no effect between besieged and besiegers".to_string());
            return;
        }
        for (s, u) in def.iter_mut().zip(&input.defenders) {
            if u.can_retreat {
                s.retreat = true;
            } else {
                s.gone = true;
            }
        }
    };
    for r in &cell.0 {
        match r {
            FrResult::AE => att.iter_mut().for_each(|s| s.gone = true),
            FrResult::AD => att.iter_mut().for_each(St::disorganise),
            FrResult::R => {}
            FrResult::DR => retreat(&mut def, &mut notes),
            FrResult::DD => def.iter_mut().for_each(St::disorganise),
            FrResult::DRD => {
                def.iter_mut().for_each(St::disorganise);
                retreat(&mut def, &mut notes);
            }
            FrResult::E => {
                def.iter_mut().for_each(|s| s.gone = true);
                let mut lost: u32 = input.defenders.iter().map(|u| u.potential).sum();
                if input.assault
                    && let Some(f) = input.fortress
                {
                    lost += f.coefficient;
                }
                must_lose = Some(lost);
                notes.push(format!(
                    "E: the attacker eliminates engaged units of at least {lost} printed potential, at his choice"
                ));
            }
            FrResult::DE => def.iter_mut().for_each(|s| s.gone = true),
        }
    }
    let fortress_taken = input.assault && (cell.has(FrResult::E) || cell.has(FrResult::DE));
    if fortress_taken {
        def.iter_mut().for_each(|s| s.gone = true);
        notes.push(
            "FR-F1: the fortress is taken; all its advantages pass to the besieger".to_string(),
        );
    } else if input.assault {
        notes.push("FR-F1: a fortress is taken only on E or DE".to_string());
    }
    let besieger_disorganises_one = fortress_taken && cell.has(FrResult::DE);
    if besieger_disorganises_one {
        // FR-F1 (H12): "if there was a "DE" result, disorganise one of the besieger's units, at the
        // besieger's choice": the owner's choice, left to him as a note.
        notes.push(
            "FR-F1: DE on the assault: the besieger disorganises one of his units, at his choice \
             (the losses of the assault and the new garrison)"
                .to_string(),
        );
    }
    let fates = |st: &[St], us: &[FrUnit]| -> Vec<Fate> {
        st.iter()
            .zip(us)
            .map(|(s, u)| s.fate(u.disorganised))
            .collect()
    };
    let attackers = fates(&att, &input.attackers);
    let defenders = fates(&def, &input.defenders);
    let vacated = !defenders.is_empty()
        && defenders.iter().all(|f| {
            matches!(
                f,
                Fate::Eliminated | Fate::Retreats | Fate::DisorganisedRetreats
            )
        });
    let survivors = attackers.iter().any(|f| *f != Fate::Eliminated);
    let may_advance = (vacated && survivors) || fortress_taken;
    if may_advance {
        notes.push(
            "FR-C2: the victor may occupy the vacated cell at once with units that fought, within the stacking limit"
                .to_string(),
        );
    }
    if defenders.contains(&Fate::Retreats) || defenders.contains(&Fate::DisorganisedRetreats) {
        notes.push(
            "FR-C2: retreat one cell, never into an empty enemy-controlled cell nor over the stacking limit; \
             otherwise the unit is eliminated"
                .to_string(),
        );
    }
    FrEffects {
        attackers,
        defenders,
        attacker_must_lose: must_lose,
        fortress_taken,
        besieger_disorganises_one,
        may_advance,
        notes,
    }
}

/// The outcome of a 1870 combat. `result` is null when the cell is not known and nothing was entered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FrCombatOutcome {
    /// The force ratio row ("1:2"), or "below 1:3" / "above 6:1".
    pub odds: String,
    /// The result ("AE", "AD,DD"), or null.
    pub result: Option<FrCell>,
    /// Why the result is null.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The results the umpire may enter, when the cell is unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valid_results: Option<String>,
    /// The d6 face (none outside the table: no roll needed).
    pub die: Option<u32>,
    /// The die after corrections.
    pub modified_die: Option<i32>,
    /// Total attack potential.
    pub attack: String,
    /// Total defence potential.
    pub defence: String,
    /// True when the umpire entered the result.
    pub entered: bool,
    /// The effects on the units, when the result is known.
    pub effects: Option<FrEffects>,
}

/// FR-F1 (H11): "a number of units equal to the coefficient of the fortress may be considered as
/// supplied by the fortress, the others then being in a position of non-supply (...) it follows
/// that a fortress of value 2 occupied by 4 units will double the combat potential in defence of
/// 2 of them, at the player's choice, while the other 2 will fight in defence as in attack with a
/// potential halved". The defender's best choice: of the units in the fortress, the
/// `coefficient` (or all, when fewer) whose multiplication gives the highest defence, the others
/// unsupplied and halved (FR-S1, disorganisation counted), each set of them weighed by the same
/// sum the combat makes; on a tie the stronger units after disorganisation, then the higher
/// printed potential, then the order given. The chosen units are marked multiplied and
/// supplied, the others unsupplied.
pub fn garrison(units: &[FrUnit], coefficient: u32, t: &Fr1870Tables) -> Vec<FrUnit> {
    let k = usize::try_from(coefficient)
        .unwrap_or(usize::MAX)
        .min(units.len());
    let div = u64::from(t.combat.disorganised_divisor.v().max(1));
    let mut order: Vec<usize> = (0..units.len()).collect();
    order.sort_by_key(|&i| {
        let u = &units[i];
        let p = u64::from(u.potential);
        // The potential after disorganisation, times the divisor (exact).
        let eff = if u.disorganised { p } else { p * div };
        (std::cmp::Reverse(eff), std::cmp::Reverse(p), i)
    });
    let pick = |chosen: &[usize]| -> Vec<FrUnit> {
        units
            .iter()
            .enumerate()
            .map(|(i, u)| FrUnit {
                fortress_multiplied: chosen.contains(&i),
                supplied: chosen.contains(&i),
                ..u.clone()
            })
            .collect()
    };
    let probe = FrCombatInput {
        fortress: Some(FrFortress::new(coefficient, FortressRole::DefendsOccupied)),
        ..FrCombatInput::plain(1, 1)
    };
    let defence = |us: &[FrUnit]| side_total(us, false, &probe, t).map(|t| t.total).ok();
    let greedy: Vec<usize> = order.iter().take(k).copied().collect();
    // Every choice weighed while they are few (a cell holds 4 units, FR-R1); past that the
    // strongest, which the halving of the others makes the best but for a rounding.
    const WEIGH_UP_TO: usize = 12;
    if units.len() > WEIGH_UP_TO {
        return pick(&greedy);
    }
    let mut best = (defence(&pick(&greedy)), greedy);
    for combo in combinations(order.len(), k) {
        let chosen: Vec<usize> = combo.iter().map(|&j| order[j]).collect();
        let d = defence(&pick(&chosen));
        if d > best.0 {
            best = (d, chosen);
        }
    }
    pick(&best.1)
}

/// The sets of `k` of `0..n`, in lexicographic order.
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut cur: Vec<usize> = Vec::with_capacity(k);
    fn go(start: usize, n: usize, k: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        for i in start..n {
            cur.push(i);
            go(i + 1, n, k, cur, out);
            cur.pop();
        }
    }
    go(0, n, k, &mut cur, &mut out);
    out
}

/// FR-F1 (H11): the defenders as the fortress's choice leaves them: kepi's best
/// ([`GarrisonChoice::Best`]), or the defender's marked units, supplied alone
/// ([`GarrisonChoice::Chosen`]); as given for any other combat.
fn garrisoned(units: &[FrUnit], input: &FrCombatInput, t: &Fr1870Tables) -> Vec<FrUnit> {
    match input.fortress {
        Some(FrFortress {
            coefficient,
            role: FortressRole::DefendsOccupied,
            choice: Some(GarrisonChoice::Best),
        }) => garrison(units, coefficient, t),
        Some(FrFortress {
            role: FortressRole::DefendsOccupied,
            choice: Some(GarrisonChoice::Chosen),
            ..
        }) => units
            .iter()
            .map(|u| FrUnit {
                supplied: u.fortress_multiplied,
                ..u.clone()
            })
            .collect(),
        _ => units.to_vec(),
    }
}

fn side_total(
    units: &[FrUnit],
    attack: bool,
    input: &FrCombatInput,
    t: &Fr1870Tables,
) -> Result<Tally, RuleError> {
    let c = &t.combat;
    let owned;
    let units = if attack {
        units
    } else {
        owned = garrisoned(units, input, t);
        &owned[..]
    };
    let side = if attack { "attacker" } else { "defender" };
    let mut tally = Tally::new();
    let mut unsupplied = Ratio::ZERO;
    let coef = input
        .fortress
        .filter(|f| f.role == FortressRole::DefendsOccupied && !attack);
    let multiplied = units.iter().filter(|u| u.fortress_multiplied).count();
    if let Some(f) = coef
        && multiplied > f.coefficient as usize
    {
        return Err(RuleError::input(
            "fortress",
            format!(
                "{multiplied} units multiplied by a fortress of value {}",
                f.coefficient
            ),
            format!("at most {} units (FR-F1)", f.coefficient),
        ));
    }
    for (i, u) in units.iter().enumerate() {
        let arm = format!(" {}", u.arm);
        let mut line = UnitLine::new(side, i, u.name.as_deref(), u.potential, &arm, "FR-C1");
        if u.disorganised {
            line.divide(&c.disorganised_divisor, "halved (disorganised)", "FR-S1");
        }
        if let Some(f) = coef
            && u.fortress_multiplied
        {
            let why = format!("x{} (fortress)", f.coefficient);
            line.times(Ratio::from(f.coefficient), &why, "FR-F1", Provenance::Seed);
        }
        if !u.supplied {
            unsupplied = unsupplied + line.v;
            line.label.push_str(" (unsupplied: summed, then halved)");
            line.rule = RuleId::new("FR-S1");
        }
        line.add_to(&mut tally);
    }
    if unsupplied > Ratio::ZERO {
        let supplied = tally.total - unsupplied;
        let halved = unsupplied * Ratio::new(1, i128::from(c.unsupplied_divisor.v().max(1)));
        let rounded = if attack {
            halved.floor()
        } else {
            halved.ceil()
        };
        tally.total = supplied + Ratio::int(rounded);
        tally.lines.push(ModifierLine::new(
            format!(
                "unsupplied {} halved, rounded {} in {}",
                unsupplied.to_plain(),
                if attack { "down" } else { "up" },
                if attack { "attack" } else { "defence" }
            ),
            Effect::Add(Ratio::int(rounded) - unsupplied),
            RuleId::new("FR-S1"),
            c.unsupplied_divisor.provenance,
        ));
    }
    if let Some(f) = coef
        && let Some(choice) = f.choice
    {
        let names: Vec<String> = units
            .iter()
            .enumerate()
            .filter(|(_, u)| u.fortress_multiplied)
            .map(|(i, u)| {
                u.name
                    .clone()
                    .unwrap_or_else(|| format!("{side} {}", i + 1))
            })
            .collect();
        let who = match choice {
            GarrisonChoice::Best => "the defender's best, until he chooses",
            GarrisonChoice::Chosen => "the defender's choice",
        };
        tally.lines.push(ModifierLine::new(
            format!(
                "fortress of value {}: multiplies and supplies {} ({who}); the others unsupplied",
                f.coefficient,
                if names.is_empty() {
                    "no unit".to_string()
                } else {
                    names.join(", ")
                }
            ),
            Effect::Note,
            RuleId::new("FR-F1"),
            Provenance::Seed,
        ));
    }
    if let Some(f) = input.fortress {
        let add = match f.role {
            FortressRole::DefendsUnoccupied => !attack,
            FortressRole::GarrisonAttacks | FortressRole::SupportsRelief => attack,
            FortressRole::DefendsOccupied => false,
        };
        if add {
            tally.add(
                format!("fortress coefficient ({})", f.role),
                Ratio::from(f.coefficient),
                RuleId::new("FR-F1"),
                Provenance::Seed,
            );
        }
    }
    Ok(tally)
}

/// Where the ratio falls: a printed row, or outside the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Row {
    In(Odds),
    Below,
    Above,
}

/// FR-C1, FR-C2: resolves one combat; `dice: None` is the preview.
pub fn combat(
    input: &FrCombatInput,
    tables: &Fr1870Tables,
    dice: Option<&mut DiceSource>,
) -> Result<Resolution<FrCombatOutcome>, RuleError> {
    combat_with_result(input, tables, dice, None)
}

/// FR-C1: as [`combat`], with the result the umpire read off the printed chart for an unknown cell.
pub fn combat_with_result(
    input: &FrCombatInput,
    tables: &Fr1870Tables,
    dice: Option<&mut DiceSource>,
    entered: Option<&str>,
) -> Result<Resolution<FrCombatOutcome>, RuleError> {
    let c = &tables.combat;
    kepi_game::rules::limits::DIE_MOD.check("die-mod", input.die_mod)?;
    for u in input.attackers.iter().chain(&input.defenders) {
        kepi_game::rules::limits::STRENGTH.check("potential", u.potential)?;
    }
    if let Some(f) = input.fortress
        && !(1..=tables.fortress.max_coefficient.v()).contains(&f.coefficient)
    {
        return Err(RuleError::input(
            "fortress",
            format!("coefficient {}", f.coefficient),
            format!("1 to {}", tables.fortress.max_coefficient.v()),
        ));
    }
    let att = side_total(&input.attackers, true, input, tables)?;
    let def = side_total(&input.defenders, false, input, tables)?;
    let mut res = crt::combat_resolution(crate::fr1870::ID);
    // FR-C1 (E9): "the points of the units engaged ... are added together ... one then has the
    // total points": each side's sum as a line after its units (issue 17).
    crt::push_totals(&mut res.modifiers, &att, &def, "potential", "FR-C1");
    let odds = crt::odds(att.total, def.total)?;
    let row = if odds.defend > c.lowest_row.v() {
        Row::Below
    } else if odds.attack > c.highest_row.v() {
        Row::Above
    } else {
        Row::In(odds)
    };
    let mut die_mod = input.die_mod;
    if input.die_mod != 0 {
        res.modifiers.push(ModifierLine::new(
            "die: Terrain Table correction (entered)",
            Effect::Add(Ratio::int(i64::from(input.die_mod))),
            RuleId::new("FR-C1"),
            c.terrain_table.provenance,
        ));
    }
    if input.besieger_defending {
        die_mod += c.besieger_defence_die.v();
        res.modifiers.push(ModifierLine::new(
            "die: the besieger defends",
            Effect::Add(Ratio::int(i64::from(c.besieger_defence_die.v()))),
            RuleId::new("FR-F1"),
            c.besieger_defence_die.provenance,
        ));
    }
    let odds_label = match row {
        Row::In(o) => o.to_string(),
        Row::Below => format!("below 1:{}", c.lowest_row.v()),
        Row::Above => format!("above {}:1", c.highest_row.v()),
    };
    res.modifiers.push(ModifierLine::new(
        format!(
            "force ratio {} : {} rounded down: {odds_label}",
            att.total.to_plain(),
            def.total.to_plain()
        ),
        Effect::Note,
        RuleId::new("FR-C1"),
        Provenance::Seed,
    ));
    let fixed = |s: &kepi_game::tables::Sourced<String>| {
        s.get()
            .parse::<FrCell>()
            .map(|r| Cell::Known(r, s.provenance))
            .unwrap_or(Cell::Unknown)
    };
    let cell_of = |d: i32| -> Cell<FrCell> {
        match row {
            Row::Below => fixed(&c.below_table),
            Row::Above => fixed(&c.above_table),
            Row::In(o) => crt::lookup::<FrCell>(&tables.crt, o, d),
        }
    };
    let outside = !matches!(row, Row::In(_));
    let dist = if outside {
        Dist::certain(cell_of(0))
    } else {
        crt::modified_d6(die_mod).map(|d| cell_of(*d))
    };
    res.odds = odds_from(&dist, |c| c.odds_label());
    let Some(dice) = dice else {
        res.summary = crt::preview_summary(&odds_label, &att, &def);
        return Ok(res);
    };
    let (face, modified, cell) = if outside {
        res.notes.push(format!(
            "{odds_label}: the result is fixed, no die is rolled (FR-C1)"
        ));
        (None, None, cell_of(0))
    } else {
        let (face, m, rolls) = crt::roll_crt_d6(dice, die_mod)?;
        res.dice = rolls;
        (Some(face), Some(m), cell_of(m))
    };
    let die_text = modified.map(|m| format!(", die {m}")).unwrap_or_default();
    let read = crt::read_cell(
        &mut res,
        &cell,
        entered,
        FrResult::ACCEPTED,
        (&format!("ratio {odds_label}"), &odds_label, &die_text),
    )?;
    let effects = read.result.as_ref().map(|r| apply_result(r, input));
    if let Some(e) = &effects {
        res.notes.extend(e.notes.iter().cloned());
    }
    res.outcome = Some(FrCombatOutcome {
        odds: odds_label,
        result: read.result,
        valid_results: read.valid_results,
        message: read.message,
        die: face,
        modified_die: modified,
        attack: att.total.to_plain(),
        defence: def.total.to_plain(),
        entered: read.entered,
        effects,
    });
    Ok(res)
}

/// FR-C3 (E18): "When cavalry alone is attacked by infantry alone, the cavalry may refuse the combat
/// and retreat one cell". Whether `input`'s sides allow it: every attacker infantry, every defender
/// cavalry ("if the Defender has infantry on the cell containing the attacked cavalry, the cavalry
/// may not refuse"), each able to retreat ("if these impossibilities cannot be respected, the
/// cavalry is obliged to accept the combat"), and no fortress in the combat. Err says why not,
/// naming the unit (the same answer as [`super::cavalry_may_refuse`] over the arms, for a combat).
pub fn cavalry_refusal(input: &FrCombatInput) -> Result<(), String> {
    if input.defenders.is_empty() {
        return Err("no defending unit: there is no cavalry to refuse combat (FR-C3)".to_string());
    }
    let who = |i: usize, u: &FrUnit, side: &str| {
        u.name
            .clone()
            .unwrap_or_else(|| format!("{side} {}", i + 1))
    };
    for (i, u) in input.attackers.iter().enumerate() {
        if u.arm != Arm::Infantry {
            return Err(format!(
                "{} attacks and is {}: cavalry may refuse combat only when attacked by infantry \
                 alone (FR-C3)",
                who(i, u, "attacker"),
                u.arm
            ));
        }
    }
    for (i, u) in input.defenders.iter().enumerate() {
        if u.arm != Arm::Cavalry {
            return Err(format!(
                "{} defends the cell and is {}: only cavalry alone may refuse combat (FR-C3)",
                who(i, u, "defender"),
                u.arm
            ));
        }
        if !u.can_retreat {
            return Err(format!(
                "{} cannot retreat, so the cavalry is obliged to accept the combat (FR-C3)",
                who(i, u, "defender")
            ));
        }
    }
    if input.fortress.is_some() {
        return Err(
            "a fortress takes part: FR-C3 is cavalry alone against infantry alone".to_string(),
        );
    }
    Ok(())
}

/// FR-C3 (E18): the cavalry refuses combat: no die is rolled, every defending unit retreats one
/// cell, the attacker may occupy the cell it leaves; both sides count as having fought this phase.
/// The modifier lines are the combat's (each unit and both sums), the odds certain. Err when
/// [`cavalry_refusal`] says no.
pub fn cavalry_refuses(
    input: &FrCombatInput,
    tables: &Fr1870Tables,
) -> Result<Resolution<FrCombatOutcome>, RuleError> {
    cavalry_refusal(input).map_err(|why| {
        RuleError::input(
            "cavalry-refuses",
            why,
            "cavalry alone attacked by infantry alone, able to retreat (FR-C3)",
        )
    })?;
    let mut res = combat(input, tables, None)?;
    let label = "refused (FR-C3)";
    res.odds = odds_from(&Dist::certain(label.to_string()), |s| s.clone());
    res.rolled = rolled_line(&res.odds, label);
    let notes = vec![
        "FR-C3: the cavalry refuses the combat and retreats one cell (onto an unoccupied cell not \
         controlled by the enemy, or onto a cell with a friendly unit), without movement points"
            .to_string(),
        "FR-C3: the Attacker may occupy the evacuated cell exactly as if he had conquered it"
            .to_string(),
        "FR-C3: the engaged attackers and the cavalry count as having fought: neither takes part \
         in another combat this phase (E17)"
            .to_string(),
    ];
    res.notes.extend(notes.iter().cloned());
    res.summary = format!("{label}: the cavalry retreats one cell, no die rolled");
    let att = side_total(&input.attackers, true, input, tables)?;
    let def = side_total(&input.defenders, false, input, tables)?;
    res.outcome = Some(FrCombatOutcome {
        odds: label.to_string(),
        result: None,
        message: Some("the cavalry refused combat and retreats one cell (FR-C3)".to_string()),
        valid_results: None,
        die: None,
        modified_die: None,
        attack: att.total.to_plain(),
        defence: def.total.to_plain(),
        entered: false,
        effects: Some(FrEffects {
            attackers: vec![Fate::Unchanged; input.attackers.len()],
            defenders: vec![Fate::Retreats; input.defenders.len()],
            attacker_must_lose: None,
            fortress_taken: false,
            besieger_disorganises_one: false,
            may_advance: true,
            notes,
        }),
    });
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rules refuse numbers outside their range ([`kepi_game::rules::limits`]) whoever calls them:
    /// a die correction or a strength past it is refused, not wrapped.
    #[test]
    fn rules_refuse_extremes_without_wrapping() {
        let t = &kepi_game::tables::Tables::default();
        for m in [i32::MAX, i32::MIN, 11, -11] {
            let mut input = FrCombatInput::plain(6, 3);
            input.die_mod = m;
            assert!(
                combat_with_result(&input, t.get::<crate::fr1870::Fr1870Tables>(), None, None)
                    .is_err()
            );
        }
        let input = FrCombatInput::plain(u32::MAX, 3);
        assert!(
            combat_with_result(&input, t.get::<crate::fr1870::Fr1870Tables>(), None, None).is_err()
        );
    }
}
