//! `kepi roll` and `kepi odds` (DICE-1..3).

use clap::Args;
use serde::Serialize;

use super::{CliError, fresh_seed, print_json};
use kepi_game::dice::{BigProb, DiceExpr, DiceSource};

/// `kepi roll EXPR [--seed N] [--json]`
#[derive(Debug, Args)]
pub struct RollArgs {
    /// Dice expression: d6, 2d6, d10, d% (1-100 from two d10), NdM+K.
    pub expr: String,
    /// Seed for kepi's generator; the same seed gives the same dice on every machine.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Print JSON: {"expr", "dice": [..], "total", "seed"}.
    #[arg(long)]
    pub json: bool,
}

/// `kepi odds EXPR [--json]`
#[derive(Debug, Args)]
pub struct OddsArgs {
    /// Dice expression: d6, 2d6, d10, d%, NdM+K.
    pub expr: String,
    /// Print JSON: {"expr", "outcomes": [{"value", "p": "num/den"}]}.
    #[arg(long)]
    pub json: bool,
}

fn parse_expr(s: &str) -> Result<DiceExpr, CliError> {
    s.parse::<DiceExpr>()
        .map_err(|e| CliError::usage(format!("EXPR: {e}")))
}

/// Rolls an expression.
pub fn roll(a: &RollArgs) -> Result<(), CliError> {
    let expr = parse_expr(&a.expr)?;
    let seed = a.seed.unwrap_or_else(fresh_seed);
    let mut src = DiceSource::seeded(seed);
    let r = src.roll_expr(&expr)?;
    if a.json {
        #[derive(Serialize)]
        struct Out {
            expr: String,
            dice: Vec<u32>,
            total: i64,
            seed: u64,
        }
        print_json(&Out {
            expr: expr.to_string(),
            dice: r.dice,
            total: r.total,
            seed,
        })
    } else {
        let dice: Vec<String> = r.dice.iter().map(u32::to_string).collect();
        outln!(
            "{expr}: [{}] = {}   (seed {seed})",
            dice.join(", "),
            r.total
        );
        Ok(())
    }
}

/// Prints the exact distribution of an expression. Counts beyond 128 bits (100d2, 100d6) are
/// exact big integers; every fraction printed is reduced and exact, or the expression is refused
/// naming the limit it broke (exit 2).
pub fn odds(a: &OddsArgs) -> Result<(), CliError> {
    let expr = parse_expr(&a.expr)?;
    if expr.count > 20 && expr.sides > 100 {
        return Err(CliError::usage(format!(
            "EXPR: `{expr}` is too large to list (at most 20 dice of more than 100 faces)"
        )));
    }
    let odds = expr.odds()?;
    if a.json {
        #[derive(Serialize)]
        struct Line {
            value: i64,
            p: BigProb,
        }
        #[derive(Serialize)]
        struct Out {
            expr: String,
            outcomes: Vec<Line>,
        }
        print_json(&Out {
            expr: expr.to_string(),
            outcomes: odds.iter().map(|(value, p)| Line { value, p }).collect(),
        })
    } else {
        outln!("{expr}");
        for (v, p) in odds.iter() {
            let bar = "#".repeat((p.to_f64() * 200.0).round() as usize);
            outln!("{v:>5}  {:>9}  {:>6}  {bar}", p.to_string(), p.percent());
        }
        Ok(())
    }
}
