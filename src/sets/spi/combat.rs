//! SPI combat: one attack on one hex, from strengths to the CRT cell (SPI-C1..C5, SPI-S1, SPI-F1,
//! SPI-H1, SPI-H2), with the exact odds over the modified d6.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::{Formation, SpiTables, SupplyState};
use kepi_game::dice::{DiceSource, Ratio};
use kepi_game::rules::crt::{self, Odds, Tally, UnitLine};
use kepi_game::rules::{Effect, ModifierLine, Resolution, RuleError, RuleId, odds_from};
use kepi_game::tables::{Provenance, Sourced};

/// SPI-R1: what one side loses, in combat points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum SpiLoss {
    /// Nothing.
    #[default]
    None,
    /// This many combat points, spread by the owner over the units involved.
    Cp(u32),
    /// Every unit involved is eliminated.
    Eliminated,
}

/// SPI-C1: a CRT result: attacker's and defender's losses. Written "-", "A2", "D3", "A1/D2", "AE",
/// "DE" or "AE/DE" (the printed chart is not in the seed; this is how a club writes it into the TOML).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct SpiResult {
    /// The attacker's loss.
    pub attacker: SpiLoss,
    /// The defender's loss.
    pub defender: SpiLoss,
}

impl SpiResult {
    /// The forms a result can take, for error messages and the "enter the result" prompt.
    pub const ACCEPTED: &'static str = "- (no effect), An (attacker loses n CP), Dn (defender loses n CP), An/Dn, AE, DE, AE/Dn, An/DE";

    /// SPI-C1: `--result` as typed, read by [`crt::typed_result`] (as the window's field is):
    /// the text itself, or what to type (clap exits 2 with it, naming the option).
    pub fn typed_arg(text: &str) -> Result<String, String> {
        crt::typed_result::<SpiResult>(text, SpiResult::ACCEPTED).map(|_| text.to_string())
    }

    /// Representative results (losses up to 6 CP a side), for menus: the vocabulary is open-ended in n.
    pub fn examples() -> Vec<SpiResult> {
        let losses: Vec<SpiLoss> = std::iter::once(SpiLoss::None)
            .chain((1..=6).map(SpiLoss::Cp))
            .chain(std::iter::once(SpiLoss::Eliminated))
            .collect();
        let mut out = Vec::new();
        for a in &losses {
            for d in &losses {
                out.push(SpiResult {
                    attacker: *a,
                    defender: *d,
                });
            }
        }
        out
    }
}

impl fmt::Display for SpiResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let part = |side: char, l: SpiLoss| match l {
            SpiLoss::None => None,
            SpiLoss::Cp(n) => Some(format!("{side}{n}")),
            SpiLoss::Eliminated => Some(format!("{side}E")),
        };
        let parts: Vec<String> = [part('A', self.attacker), part('D', self.defender)]
            .into_iter()
            .flatten()
            .collect();
        if parts.is_empty() {
            f.write_str("-")
        } else {
            f.write_str(&parts.join("/"))
        }
    }
}

impl FromStr for SpiResult {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || {
            format!(
                "`{s}` is not an SPI result (accepted: {})",
                SpiResult::ACCEPTED
            )
        };
        let t = s.trim().to_ascii_uppercase();
        let mut r = SpiResult::default();
        if t == "-" || t == "NE" {
            return Ok(r);
        }
        let mut seen = (false, false);
        for part in t.split(['/', ',']) {
            let part = part.trim();
            // By characters, not bytes: "é2" or "👍" is a bad result, not a panic.
            let mut chars = part.chars();
            let side = chars.next();
            let rest = chars.as_str();
            let loss = match rest {
                "E" => SpiLoss::Eliminated,
                n => match n.parse::<u32>() {
                    Ok(0) => SpiLoss::None,
                    Ok(n) if n <= 100 => SpiLoss::Cp(n),
                    _ => return Err(bad()),
                },
            };
            match side {
                Some('A') if !seen.0 => {
                    seen.0 = true;
                    r.attacker = loss;
                }
                Some('D') if !seen.1 => {
                    seen.1 = true;
                    r.defender = loss;
                }
                _ => return Err(bad()),
            }
        }
        Ok(r)
    }
}

crt::serde_as_text!(SpiResult);

/// One unit (or the sum of several in the same condition) in a combat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpiUnit {
    /// The unit's name, when it comes from a game: its modifier line names it (issue 17: each
    /// unit's contribution shown). Absent from `kepi resolve`, whose sides are plain numbers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Printed combat strength (for a hasty attack: the points allocated, SPI-H1).
    pub strength: u32,
    /// SPI-S1: supply state at the instant of combat.
    pub supply: SupplyState,
    /// SPI-H2: formation status (optional rule; concentrated = full strength).
    pub formation: Formation,
    /// SPI-C5: entrained (defends at half).
    pub entrained: bool,
}

impl SpiUnit {
    /// A supplied, concentrated, unentrained unit.
    pub fn plain(strength: u32) -> SpiUnit {
        SpiUnit {
            name: None,
            strength,
            supply: SupplyState::Supplied,
            formation: Formation::Concentrated,
            entrained: false,
        }
    }
}

/// SPI-C5, the Terrain Effects Chart's combat column: "attacker adds "one" to the defender's
/// die-roll when the defender is in Rough Terrain".
pub const C5_ROUGH: &str = "defender in rough terrain";
/// SPI-C5: "if all units are attacking through ridge hexsides, attacker adds "one" to die roll".
pub const C5_RIDGE: &str = "all attacking through ridge hexsides";
/// SPI-C5: "if all attacking units [attack] through such hexside [river], attacker adds "one" to
/// die roll".
pub const C5_RIVER: &str = "all attacking through river hexsides";

/// SPI-C5: the label of a terrain's die line (`C5_ROUGH` ...), as [`combat`] writes it; a game's
/// form adds where the value came from (the map, or the umpire) after it.
pub fn c5_line(what: &str) -> String {
    format!("die: {what}")
}

/// Everything one SPI attack needs (by default: no units, no fortress, nothing special).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpiCombatInput {
    /// The attacking units.
    pub attackers: Vec<SpiUnit>,
    /// The units defending the hex (all of them defend together, SPI-C2).
    pub defenders: Vec<SpiUnit>,
    /// SPI-F1: strength of a fortification unit in the hex (0 or none: no fort).
    pub fortress: Option<u32>,
    /// SPI-C3: the attack qualifies as a flanking attack and the attacker uses it.
    pub flank: bool,
    /// SPI-H1: a hasty attack (one unit, part or all of its strength, halved).
    pub hasty: bool,
    /// SPI-H1: the defending hex holds dummy counters only.
    pub dummies_only: bool,
    /// SPI-C5: the defender is in rough terrain.
    pub defender_rough: bool,
    /// SPI-C5: every attacker attacks through a ridge hexside.
    pub all_through_ridge: bool,
    /// SPI-C5: every attacker attacks through a river hexside.
    pub all_through_river: bool,
}

/// The outcome of an SPI attack. `result` is null when the cell is not known and no result was
/// entered; `message` then says to enter it from the printed chart.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpiCombatOutcome {
    /// The odds column, "2:1".
    pub odds: String,
    /// The result ("A1/D2"), or null.
    pub result: Option<SpiResult>,
    /// Why the result is null, or a follow-up ("dummies removed").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The results the umpire may enter, when the cell is unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valid_results: Option<String>,
    /// The d6 face.
    pub die: Option<u32>,
    /// The die after terrain.
    pub modified_die: Option<i32>,
    /// Total attack strength (exact, "13/2" when halved).
    pub attack: String,
    /// Total defence strength.
    pub defence: String,
    /// True when the umpire entered the result (logged as entered, not as a table value).
    pub entered: bool,
    /// SPI-C4: the defenders are all gone; the attackers may advance into the hex at once, no MP.
    pub advance_after_combat: bool,
}

/// Attack tally, defence tally, die modifier, die lines, notes.
type Strengths = (Tally, Tally, i32, Vec<ModifierLine>, Vec<String>);

/// Both sides' totals, the die modifier and the modifier lines (shared by preview and roll).
fn strengths(input: &SpiCombatInput, t: &SpiTables) -> Result<Strengths, RuleError> {
    let c = &t.combat;
    let half = |s: &Sourced<u32>| Ratio::new(1, i128::from(s.v().max(1)));
    let mut notes = Vec::new();
    for u in input.attackers.iter().chain(&input.defenders) {
        kepi_game::rules::limits::STRENGTH.check("strength", u.strength)?;
    }
    kepi_game::rules::limits::STRENGTH.check("fortress", input.fortress.unwrap_or(0))?;
    if input.hasty && input.attackers.len() != 1 {
        return Err(RuleError::input(
            "attackers",
            format!(
                "a hasty attack is made by one unit, not {}",
                input.attackers.len()
            ),
            "exactly one attacking unit (SPI-H1)",
        ));
    }
    let mut att = Tally::new();
    for (i, u) in input.attackers.iter().enumerate() {
        let mut line = UnitLine::new("attacker", i, u.name.as_deref(), u.strength, "", "SPI-C1");
        match u.supply {
            SupplyState::Supplied => {}
            SupplyState::Unsupplied => {
                line.divide(&c.unsupplied_divisor, "halved (unsupplied)", "SPI-S1")
            }
            SupplyState::Isolated => {
                if !input.hasty {
                    return Err(RuleError::input(
                        "attacker supply",
                        "isolated units cannot attack (hasty attacks only, Standard Game)",
                        "supplied or unsupplied, or --hasty (SPI-S1)",
                    ));
                }
                notes.push(
                    "SPI-S1: an isolated unit may make a hasty attack; the Supply Effects Chart gives it no \
                     offensive strength, so kepi applies only the hasty halving"
                        .to_string(),
                );
            }
        }
        // SPI-H2 (C): the extended halving and the hasty halving do not compound: "if a Player
        // allocated one Combat Strength Point to make a Hasty Attack, for combat odds purposes, it
        // would be treated as one-half of a Combat Point." So a hasty attack is halved once,
        // whatever the attacker's formation.
        if u.formation == Formation::Extended && input.hasty {
            notes.push(
                "SPI-H2: extended and hasty: halved once (the text's example: one point allocated \
                 counts as one-half)"
                    .to_string(),
            );
        } else if u.formation == Formation::Extended {
            line.divide(&c.extended_divisor, "halved (extended)", "SPI-H2");
        }
        line.add_to(&mut att);
    }
    if input.hasty {
        att.times(
            "hasty attack: allocated strength halved",
            half(&c.hasty_divisor),
            RuleId::new("SPI-H1"),
            c.hasty_divisor.provenance,
        );
    }
    let fort = input.fortress.filter(|f| *f > 0);
    if input.flank {
        if fort.is_some() {
            att.note(
                "flanking attack: no benefit against a fortification",
                RuleId::new("SPI-C3"),
                Provenance::Seed,
            );
        } else {
            att.times(
                "flanking attack",
                Ratio::from(c.flank_multiplier.v()),
                RuleId::new("SPI-C3"),
                c.flank_multiplier.provenance,
            );
        }
    }
    let mut def = Tally::new();
    for (i, u) in input.defenders.iter().enumerate() {
        let mut line = UnitLine::new("defender", i, u.name.as_deref(), u.strength, "", "SPI-C1");
        match u.supply {
            SupplyState::Supplied => {}
            SupplyState::Unsupplied => {
                line.divide(&c.unsupplied_divisor, "halved (unsupplied)", "SPI-S1")
            }
            SupplyState::Isolated => {
                line.divide(&c.isolated_defence_divisor, "halved (isolated)", "SPI-S1")
            }
        }
        if u.formation == Formation::Extended {
            line.divide(&c.extended_divisor, "halved (extended)", "SPI-H2");
        }
        if u.entrained {
            line.divide(&c.entrained_divisor, "halved (entrained)", "SPI-C5");
        }
        if fort.is_some() {
            line.times(
                Ratio::from(c.fort_multiplier.v()),
                "doubled (in the fort)",
                "SPI-F1",
                c.fort_multiplier.provenance,
            );
        }
        line.add_to(&mut def);
    }
    if let Some(f) = fort {
        def.add(
            "fortification's own strength",
            Ratio::from(f),
            RuleId::new("SPI-F1"),
            Provenance::Seed,
        );
    }
    let mut die_mod = 0;
    let mut die_lines = Vec::new();
    for (on, v, label) in [
        (input.defender_rough, &c.rough_die, C5_ROUGH),
        (input.all_through_ridge, &c.ridge_die, C5_RIDGE),
        (input.all_through_river, &c.river_die, C5_RIVER),
    ] {
        if on {
            die_mod += v.v();
            die_lines.push(ModifierLine::new(
                c5_line(label),
                Effect::Add(Ratio::int(i64::from(v.v()))),
                RuleId::new("SPI-C5"),
                v.provenance,
            ));
        }
    }
    Ok((att, def, die_mod, die_lines, notes))
}

/// SPI-C1..C5: resolves one attack; `dice: None` is the preview (odds only).
pub fn combat(
    input: &SpiCombatInput,
    tables: &SpiTables,
    dice: Option<&mut DiceSource>,
) -> Result<Resolution<SpiCombatOutcome>, RuleError> {
    combat_with_result(input, tables, dice, None)
}

/// SPI-C1: as [`combat`], with the result the umpire read off the printed chart for a cell kepi does
/// not know (`entered`, e.g. "A1/D2"). The entry is logged as entered; a known cell must agree.
pub fn combat_with_result(
    input: &SpiCombatInput,
    tables: &SpiTables,
    dice: Option<&mut DiceSource>,
    entered: Option<&str>,
) -> Result<Resolution<SpiCombatOutcome>, RuleError> {
    let mut res = crt::combat_resolution(crate::spi::ID);
    if input.dummies_only {
        res.modifiers.push(ModifierLine::new(
            "defending hex holds dummy counters only",
            Effect::Note,
            RuleId::new("SPI-H1"),
            Provenance::Seed,
        ));
        let msg =
            "dummy counters revealed and removed; the attacker may advance after combat (SPI-C4)";
        res.odds = odds_from(&kepi_game::dice::Dist::certain(msg.to_string()), |s| {
            s.clone()
        });
        res.summary = msg.to_string();
        if dice.is_some() {
            res.rolled = Some(0);
            res.outcome = Some(SpiCombatOutcome {
                odds: "dummy".to_string(),
                result: None,
                message: Some(msg.to_string()),
                valid_results: None,
                die: None,
                modified_die: None,
                attack: "0".to_string(),
                defence: "0".to_string(),
                entered: false,
                advance_after_combat: true,
            });
        }
        return Ok(res);
    }
    if input.defenders.is_empty() && input.fortress.unwrap_or(0) == 0 {
        return Err(RuleError::input(
            "defenders",
            "nobody defends the hex",
            "at least one defending unit or a fortification",
        ));
    }
    let (att, def, die_mod, die_lines, notes) = strengths(input, tables)?;
    // SPI-C1: "Total up the Combat Strengths of the Attacking units ... and compare it to the total
    // Combat Strength of the defending Combat and Fortification units": each side's sum as a line.
    crt::push_totals(&mut res.modifiers, &att, &def, "strength", "SPI-C1");
    res.modifiers.extend(die_lines);
    res.notes.extend(notes);
    let odds: Odds = crt::odds(att.total, def.total)?;
    res.modifiers.push(ModifierLine::new(
        format!(
            "odds {} : {} rounded for the defender",
            att.total.to_plain(),
            def.total.to_plain()
        ),
        Effect::Note,
        RuleId::new("SPI-C1"),
        Provenance::Seed,
    ));
    let cell_of = |d: i32| crt::lookup::<SpiResult>(&tables.crt, odds, d);
    let dist = crt::modified_d6(die_mod).map(|d| cell_of(*d));
    res.odds = odds_from(&dist, |c| c.odds_label());
    let Some(dice) = dice else {
        res.summary = crt::preview_summary(&odds.to_string(), &att, &def);
        return Ok(res);
    };
    let (face, modified, rolls) = crt::roll_crt_d6(dice, die_mod)?;
    res.dice = rolls;
    let cell = cell_of(modified);
    let read = crt::read_cell(
        &mut res,
        &cell,
        entered,
        SpiResult::ACCEPTED,
        (
            &format!("odds {odds}"),
            &odds.to_string(),
            &format!(", die {modified}"),
        ),
    )?;
    let result = read.result;
    let total_def_strength: u32 = input
        .defenders
        .iter()
        .fold(input.fortress.unwrap_or(0), |a, u| {
            a.saturating_add(u.strength)
        });
    let advance = match result.map(|r| r.defender) {
        Some(SpiLoss::Eliminated) => true,
        Some(SpiLoss::Cp(n)) => n >= total_def_strength,
        _ => false,
    };
    if result.is_some() {
        res.notes.push(
            "SPI-R1: losses in combat points are spread by their owner over the units involved \
             (a fort's strength may take them too)"
                .to_string(),
        );
        if advance {
            res.notes.push(
                "SPI-C4: the attackers may advance into the vacated hex now, no MP".to_string(),
            );
        }
    }
    res.outcome = Some(SpiCombatOutcome {
        odds: odds.to_string(),
        result,
        valid_results: read.valid_results,
        message: read.message,
        die: Some(face),
        modified_die: Some(modified),
        attack: att.total.to_plain(),
        defence: def.total.to_plain(),
        entered: read.entered,
        advance_after_combat: advance,
    });
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rules refuse numbers outside their range ([`kepi_game::rules::limits`]) whoever calls them:
    /// a strength or fortress past it is refused, not wrapped.
    #[test]
    fn rules_refuse_extremes_without_wrapping() {
        let t = &kepi_game::tables::Tables::default();
        let unit = |strength| SpiUnit {
            name: None,
            strength,
            supply: SupplyState::Supplied,
            formation: Formation::Concentrated,
            entrained: false,
        };
        let input = SpiCombatInput {
            attackers: vec![unit(10)],
            defenders: vec![unit(u32::MAX)],
            fortress: Some(u32::MAX),
            ..Default::default()
        };
        let mut d = DiceSource::seeded(1);
        assert!(
            combat_with_result(&input, t.get::<crate::spi::SpiTables>(), Some(&mut d), None)
                .is_err()
        );
    }

    #[test]
    fn results_round_trip() {
        for s in ["-", "A2", "D3", "A1/D2", "AE", "DE", "AE/DE", "A2/DE"] {
            assert_eq!(s.parse::<SpiResult>().unwrap().to_string(), s);
        }
        assert!("X2".parse::<SpiResult>().is_err());
        assert!("A1/A2".parse::<SpiResult>().is_err());
        assert_eq!(SpiResult::examples().len(), 64);
    }

    #[test]
    fn non_ascii_results_are_refused_not_panics() {
        for s in [
            "é",
            "é2",
            "Aé",
            "A2/é",
            "👍",
            "\u{202e}A2",
            "ß",
            "A\u{301}2",
            "",
            "/",
            "A",
        ] {
            let e = s.parse::<SpiResult>().unwrap_err();
            assert!(e.contains("is not an SPI result"), "{s:?}: {e}");
        }
    }
}
