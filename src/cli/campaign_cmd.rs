//! `kepi campaign ...`: a combat of an SPI or 1870 game fought as a P&K or PW battle, and its
//! losses carried back (issue 30; the rules and the records are [`kepi_middle::campaign`]).

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use serde::Serialize;

use super::{CliError, fresh_seed, print_json, stood};
use kepi_game::roster::{Position, Side};
use kepi_game::rules::{RuleSetId, Tables};
use kepi_game::store::{Store, read_game};
use kepi_middle::campaign::ops::{self, Front, StepError};
use kepi_middle::campaign::{self, CampaignError, CampaignTable};

impl From<CampaignError> for CliError {
    fn from(e: CampaignError) -> Self {
        CliError::usage(format!("{e}; nothing applied"))
    }
}

/// `kepi campaign ...`
#[derive(Debug, Args)]
pub struct CampaignArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: CampaignCommand,
}

/// The rule sets a campaign's battles are fought with ([`CampaignPart::Battle`]), as `kepi
/// campaign battle --rules`'s values: the registry's, a rule set registered at run time included.
///
/// [`CampaignPart::Battle`]: kepi_game::engine::rule_set::CampaignPart::Battle
fn battle_rule_sets() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        kepi_game::registry::playing(kepi_game::engine::rule_set::CampaignPart::Battle)
            .into_iter()
            .map(|s| clap::builder::PossibleValue::new(s.id()).help(s.title())),
    )
}

/// Campaign subcommands.
#[derive(Debug, Subcommand)]
pub enum CampaignCommand {
    /// Fight a combat of an SPI or 1870 game (the campaign) as a P&K or PW battle: makes the battle's
    /// save from the engaged units by the conversion table (`campaign.toml`, CAMP-C1) and records
    /// the pending battle in the campaign's log (a due check, CAMP-B1).
    Battle {
        /// The campaign's save file (an SPI or 1870 game).
        campaign: PathBuf,
        /// The attacking units, by id or name: A,B,...
        #[arg(long, value_delimiter = ',', required = true, value_name = "A,B")]
        attackers: Vec<String>,
        /// The defending hex (its units are the defenders).
        #[arg(long, value_name = "HEX")]
        hex: String,
        /// The battle's rule set.
        #[arg(long, value_parser = battle_rule_sets(), value_name = "RULE_SET")]
        rules: String,
        /// The battle's save file to create (never overwritten).
        #[arg(long, value_name = "BATTLE")]
        out: PathBuf,
        /// Seed for the battle's dice (default: from the clock).
        #[arg(long, value_name = "N")]
        seed: Option<u64>,
        /// Print JSON: {"battle", "campaign", "hex", "units": [{"id", "from", "side", "strength"}]}.
        #[arg(long)]
        json: bool,
    },
    /// Bring a battle's result back to its campaign: losses per board unit by the table (rounded as
    /// it says, CAMP-C2), the loser's retreat and the winner's advance where the board game has
    /// them (CAMP-R1), logged as one action naming the battle's save and log head.
    Return {
        /// The battle's save file.
        battle: PathBuf,
        /// The side that won.
        #[arg(long, value_name = "SIDE", conflicts_with = "draw")]
        winner: Option<String>,
        /// The battle was a draw.
        #[arg(long)]
        draw: bool,
        /// Show the conversion without applying it.
        #[arg(long)]
        dry_run: bool,
        /// The campaign's save, when it has moved since the battle was made.
        #[arg(long, value_name = "FILE")]
        campaign: Option<PathBuf>,
        /// Print JSON: {"campaign", "losses": [{"unit", "lost"}], "head"} (head: the campaign's log
        /// head after it, or now with --dry-run).
        #[arg(long)]
        json: bool,
    },
    /// Abandon a battle: the combat is resolved on the campaign's chart as `kepi game apply
    /// CAMPAIGN combat --attackers ... --hex ...` does, which answers the pending check.
    Abandon {
        /// The battle's save file.
        battle: PathBuf,
        /// The campaign's save, when it has moved since the battle was made.
        #[arg(long, value_name = "FILE")]
        campaign: Option<PathBuf>,
        /// More options for the combat (as `kepi game apply ... combat` takes them), e.g.
        /// `-- --dice d6=4`.
        #[arg(last = true, value_name = "OPTIONS")]
        options: Vec<String>,
    },
    /// List a campaign's pending battles.
    Status {
        /// The campaign's save file.
        campaign: PathBuf,
        /// Print JSON: {"campaign", "pending": [{"battle", "hex", "rules", "attackers",
        /// "defenders", "due", "entry"}]}.
        #[arg(long)]
        json: bool,
    },
}

/// Runs `kepi campaign ...`.
pub fn run(a: &CampaignArgs, tables: Option<&Path>) -> Result<(), CliError> {
    match &a.command {
        CampaignCommand::Battle {
            campaign,
            attackers,
            hex,
            rules,
            out,
            seed,
            json,
        } => {
            let rules: RuleSetId = rules.parse().map_err(CliError::usage)?;
            stood(battle(
                campaign, attackers, hex, rules, out, *seed, *json, tables,
            ))
        }
        CampaignCommand::Return {
            battle,
            winner,
            draw,
            dry_run,
            campaign,
            json,
        } => stood(give_back(
            battle,
            winner.as_deref(),
            *draw,
            *dry_run,
            campaign.as_deref(),
            *json,
        )),
        CampaignCommand::Abandon {
            battle,
            campaign,
            options,
        } => stood(abandon(battle, campaign.as_deref(), options, tables)),
        CampaignCommand::Status { campaign, json } => status(campaign, *json),
    }
}

fn step(e: StepError) -> CliError {
    CliError::with_code(e.code(), e.say(Front::Cli))
}

#[allow(clippy::too_many_arguments)]
fn battle(
    campaign: &Path,
    attackers: &[String],
    hex: &str,
    rules: RuleSetId,
    out: &Path,
    seed: Option<u64>,
    json: bool,
    tables: Option<&Path>,
) -> Result<(), CliError> {
    let at: Position = hex
        .parse()
        .map_err(|e| CliError::usage(format!("--hex: {e}")))?;
    if !matches!(at, Position::Hex { .. }) {
        return Err(CliError::usage(format!(
            "--hex: `{hex}` is not a hex of the map (a hex label such as 0304)"
        )));
    }
    if attackers.iter().any(|a| a.trim().is_empty()) {
        return Err(CliError::usage(
            "--attackers: an empty unit id (give A,B,...)",
        ));
    }
    ops::check_out(out).map_err(step)?;
    let table = CampaignTable::load(tables)?;
    let mut opened = Store::open(campaign)?;
    let made = ops::make_battle(
        &mut opened.game,
        &mut opened.store,
        campaign,
        &ops::BattleOrder {
            attackers,
            hex: at,
            rules,
            out,
            seed: seed.unwrap_or_else(fresh_seed),
        },
        &table,
    )
    .map_err(step)?;
    for w in &made.warnings {
        errln!("warning: {w}");
    }
    let link = &made.link;
    let e = &link.engagement;
    if json {
        #[derive(Serialize)]
        struct Out<'a> {
            battle: &'a str,
            campaign: &'a str,
            hex: &'a str,
            rules: &'a str,
            entry: u64,
            entry_hash: &'a str,
            pending: u64,
            units: &'a [campaign::TableUnit],
        }
        return print_json(&Out {
            battle: &e.battle,
            campaign: &link.campaign,
            hex: &e.hex,
            rules: e.rules.id(),
            entry: link.entry,
            entry_hash: &link.entry_hash,
            pending: e.pending,
            units: &e.units,
        });
    }
    textln!(
        "{}: a {} battle for hex {} of {} ({} table units); pending check #{} in the campaign",
        out.display(),
        e.rules.title(),
        e.hex,
        campaign.display(),
        e.units.len(),
        e.pending
    );
    for b in &e.board {
        textln!(
            "  {:<24} {:<6} {:>3} -> {} {}(s) of {}",
            b.id,
            b.side.as_str(),
            b.strength,
            b.units.len(),
            b.kind,
            b.per_unit
        );
    }
    Ok(())
}

fn give_back(
    battle: &Path,
    winner: Option<&str>,
    draw: bool,
    dry_run: bool,
    campaign: Option<&Path>,
    json: bool,
) -> Result<(), CliError> {
    let (fight, link, path) = ops::linked(battle, campaign).map_err(step)?;
    let winner: Option<Side> = match (winner, draw) {
        (Some(w), _) => {
            let side: Side = w
                .parse()
                .map_err(|e| CliError::usage(format!("--winner: {e}")))?;
            if !fight.state().sides.contains(&side) {
                return Err(CliError::usage(format!(
                    "--winner: {} did not fight this battle",
                    side.as_str()
                )));
            }
            Some(side)
        }
        (None, true) => None,
        (None, false) => {
            return Err(CliError::usage(
                "say how the battle ended: --winner SIDE (french, german) or --draw",
            ));
        }
    };
    let given = ops::give_back(&fight, battle, &link, &path, winner, dry_run).map_err(step)?;
    for w in &given.warnings {
        errln!("warning: {w}");
    }
    let out = &given.returned;
    #[derive(Serialize)]
    struct Lost<'a> {
        unit: &'a str,
        lost: u32,
        table_lost: u32,
        table_strength: u32,
    }
    #[derive(Serialize)]
    struct Out<'a> {
        campaign: String,
        battle: String,
        battle_head: &'a str,
        winner: Option<&'a str>,
        dry_run: bool,
        losses: Vec<Lost<'a>>,
        head: String,
    }
    let lines: Vec<Lost> = out
        .losses
        .iter()
        .map(|l| Lost {
            unit: &l.unit,
            lost: l.lost,
            table_lost: l.table_lost,
            table_strength: l.table_strength,
        })
        .collect();
    if json {
        return print_json(&Out {
            campaign: path.display().to_string(),
            battle: battle.display().to_string(),
            battle_head: &out.battle_head,
            winner: out.winner.map(Side::as_str),
            dry_run,
            losses: lines,
            head: given.head.clone(),
        });
    }
    textln!(
        "{}{}: battle {} (head {}) {}",
        if dry_run { "(dry run) " } else { "" },
        path.display(),
        battle.display(),
        out.battle_head,
        match out.winner {
            Some(w) => format!("won by the {}", w.title()),
            None => "a draw".into(),
        }
    );
    for l in &lines {
        outln!(
            "  {:<24} loses {} ({} of {} lost on the table)",
            l.unit,
            l.lost,
            l.table_lost,
            l.table_strength
        );
    }
    outln!("head {}", given.head);
    Ok(())
}

fn abandon(
    battle: &Path,
    campaign: Option<&Path>,
    options: &[String],
    tables: Option<&Path>,
) -> Result<(), CliError> {
    let (_, link, path) = ops::linked(battle, campaign).map_err(step)?;
    let loaded;
    let tables: &Tables = match tables {
        Some(d) => {
            loaded = kepi_game::registry::load_tables(Some(d))?;
            &loaded
        }
        None => kepi_game::registry::builtin_tables()?,
    };
    let done = ops::abandon(battle, &link, &path, options, tables).map_err(step)?;
    for w in &done.warnings {
        errln!("warning: {w}");
    }
    for s in &done.said {
        textln!("ok {s}");
    }
    outln!(
        "{}: battle {} abandoned, the combat resolved on the chart; head {}",
        path.display(),
        battle.display(),
        done.head
    );
    Ok(())
}

fn status(campaign: &Path, json: bool) -> Result<(), CliError> {
    let game = read_game(campaign)?.game;
    let pending = campaign::pending(game.state(), game.log());
    #[derive(Serialize)]
    struct Line<'a> {
        battle: &'a str,
        hex: &'a str,
        rules: &'a str,
        attackers: &'a [String],
        defenders: &'a [String],
        due: u64,
        entry: u64,
    }
    let lines: Vec<Line> = pending
        .iter()
        .map(|(entry, e)| Line {
            battle: &e.battle,
            hex: &e.hex,
            rules: e.rules.id(),
            attackers: &e.attackers,
            defenders: &e.defenders,
            due: e.pending,
            entry: *entry,
        })
        .collect();
    if json {
        #[derive(Serialize)]
        struct Out<'a> {
            campaign: String,
            pending: Vec<Line<'a>>,
        }
        return print_json(&Out {
            campaign: campaign.display().to_string(),
            pending: lines,
        });
    }
    if lines.is_empty() {
        outln!("{}: no pending battle", campaign.display());
    }
    for l in lines {
        textln!(
            "hex {} ({} against {}): {} battle {} (check #{}, entry {})",
            l.hex,
            l.attackers.join(","),
            l.defenders.join(","),
            l.rules,
            l.battle,
            l.due,
            l.entry
        );
    }
    Ok(())
}
