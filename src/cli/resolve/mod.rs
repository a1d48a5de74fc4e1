//! `kepi resolve <system> <action> ...`: one mechanic of a rule set, resolved by the same pure
//! function the window calls.
//!
//! Common flags, for every system and action: entered dice (`--d6 N`, `--d10 N`, `--dpct N`, each
//! repeatable and used in order), `--seed N` for the dice kepi rolls itself, `--odds` for the exact
//! distribution only, and `--json`. JSON: `{"system", "action", "modifiers": [{"label", "value",
//! "rule", "provenance", ...}], "dice", "outcome": {...}, "odds": [{"outcome", "p"}], "summary",
//! "seed"}`; `outcome` is null with `--odds`.

use std::path::Path;

use clap::Args;
use serde::Serialize;

use super::{CliError, fresh_seed, print_json};
use kepi_game::dice::{DiceSource, Die};
use kepi_game::rules::Resolution;
use kepi_game::rules::Tables;
use kepi_middle::moves::grammar::{Ctx, ResolveRuleSet, run_system};

/// `kepi resolve ...`
#[derive(Debug, Args)]
pub struct ResolveArgs {
    /// Dice and output flags shared by every action.
    #[command(flatten)]
    pub flags: DiceFlags,
    /// The rule set.
    #[command(subcommand)]
    pub system: ResolveRuleSet,
}

/// Flags every `resolve` action takes.
#[derive(Debug, Args, Clone, Default)]
pub struct DiceFlags {
    /// A d6 you rolled (1-6); repeat for several, used in order. Omitted dice are rolled by kepi.
    #[arg(long, global = true, value_name = "N")]
    pub d6: Vec<u32>,
    /// A d10 you rolled (1-10; the 0 face is 10); repeat for several.
    #[arg(long, global = true, value_name = "N")]
    pub d10: Vec<u32>,
    /// A d% you rolled (1-100; 00 and 0 read 100); repeat for several.
    #[arg(long, global = true, value_name = "N")]
    pub dpct: Vec<u32>,
    /// Seed for the dice kepi rolls; the same seed replays the same dice.
    #[arg(long, global = true, value_name = "N")]
    pub seed: Option<u64>,
    /// Print the exact distribution of outcomes only; roll nothing.
    #[arg(long, global = true)]
    pub odds: bool,
    /// Print JSON (a stable contract) instead of text.
    #[arg(long, global = true)]
    pub json: bool,
    /// Measured play at a club's scale (issue 28): UNIT [FACTOR], e.g. "cm 1/2" (6 mm figures
    /// measured in centimetres). A bare --range is read in UNIT; distances print in it. Default:
    /// the text's own, inches at factor 1.
    #[arg(long, global = true, value_name = "SCALE")]
    pub scale: Option<kepi_game::rules::Scale>,
}

impl DiceFlags {
    /// Issue 17: a die the rule set never rolls is an error, not silently ignored (P&K rolls d10
    /// and d%; the other four rule sets roll d6).
    pub fn check_used(&self, system: &ResolveRuleSet) -> Result<(), CliError> {
        // The rule set's title without its parenthesis ("Portable Wargame"), and the flags of the
        // dice it rolls.
        let rules = system.rules();
        let title = rules.title().split(" (").next().unwrap_or_default();
        let used: Vec<&str> = rules
            .dice()
            .iter()
            .filter_map(|d| match d {
                Die::D6 => Some("--d6"),
                Die::D10 => Some("--d10"),
                Die::Pct => Some("--dpct"),
                _ => None,
            })
            .collect();
        for (flag, values) in [
            ("--d6", &self.d6),
            ("--d10", &self.d10),
            ("--dpct", &self.dpct),
        ] {
            if let Some(v) = values.first()
                && !used.contains(&flag)
            {
                return Err(CliError::usage(format!(
                    "{flag} {v}: {title} does not roll this die (it takes {})",
                    used.join(" and ")
                )));
            }
        }
        Ok(())
    }

    /// The dice source: entered values first, then the seeded generator.
    pub fn source(&self) -> Result<(DiceSource, u64), CliError> {
        let seed = self.seed.unwrap_or_else(fresh_seed);
        let mut src = DiceSource::seeded(seed);
        for (flag, die, values) in [
            ("--d6", Die::D6, &self.d6),
            ("--d10", Die::D10, &self.d10),
            ("--dpct", Die::Pct, &self.dpct),
        ] {
            for v in values {
                src.enter(die, *v)
                    .map_err(|e| CliError::usage(format!("{flag}: {e}")))?;
            }
        }
        Ok((src, seed))
    }
}

/// Runs `kepi resolve`.
pub fn run(a: &ResolveArgs, tables_dir: Option<&Path>) -> Result<(), CliError> {
    let loaded;
    let tables: &Tables = match tables_dir {
        Some(d) => {
            loaded = kepi_game::registry::load_tables(Some(d))?;
            &loaded
        }
        None => kepi_game::registry::builtin_tables()?,
    };
    a.flags.check_used(&a.system)?;
    let (mut src, seed) = a.flags.source()?;
    let scale = a.flags.scale.unwrap_or_default();
    let ctx = Ctx {
        tables,
        dice: if a.flags.odds { None } else { Some(&mut src) },
        scale,
    };
    let res = run_system(&a.system, ctx)?;
    if src.has_entered() {
        errln!("note: some entered dice were not needed by this action and were ignored");
    }
    emit(
        &res.in_scale(&scale),
        if a.flags.odds
            || res
                .dice
                .iter()
                .all(|d| d.source == kepi_game::dice::RollSource::Entered)
        {
            None
        } else {
            Some(seed)
        },
        a.flags.json,
    )
}

/// Prints a resolution as JSON or as text.
pub fn emit(
    res: &Resolution<serde_json::Value>,
    seed: Option<u64>,
    json: bool,
) -> Result<(), CliError> {
    if json {
        #[derive(Serialize)]
        struct Out<'a> {
            #[serde(flatten)]
            res: &'a Resolution<serde_json::Value>,
            seed: Option<u64>,
        }
        return print_json(&Out { res, seed });
    }
    out!("{}", render_text(res));
    if let Some(s) = seed {
        outln!("seed {s}");
    }
    Ok(())
}

/// The text form of a resolution, as the terminal shows it.
pub fn render_text(res: &Resolution<serde_json::Value>) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(out, "{} {}", res.system.title(), res.action);
    for m in &res.modifiers {
        let badge = m.provenance.badge();
        let _ = writeln!(
            out,
            "  {:<34} {:>8}  {:<7} {}{}",
            m.label,
            m.value,
            m.rule.as_str(),
            m.provenance,
            if badge.is_empty() {
                String::new()
            } else {
                format!("  [{badge}]")
            }
        );
    }
    for d in &res.dice {
        let _ = writeln!(
            out,
            "  dice: {} {} = {} ({:?})",
            d.label, d.die, d.value, d.source
        );
    }
    if res.outcome.is_some() {
        let _ = writeln!(out, "  => {}", res.summary);
    }
    let _ = writeln!(out, "  odds:");
    for o in &res.odds {
        let _ = writeln!(
            out,
            "    {:<40} {:>10}  {:>6}",
            o.outcome,
            o.p.to_string(),
            o.p.0.percent()
        );
    }
    for n in &res.notes {
        let _ = writeln!(out, "  note: {n}");
    }
    out
}
