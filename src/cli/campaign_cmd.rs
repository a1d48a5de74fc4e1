//! `kepi campaign ...`: a combat of an SPI or 1870 game fought as a P&K or PW battle, and its
//! losses carried back (issue 30; the rules and the records are [`crate::campaign`]).

use std::path::{Path, PathBuf};

use chrono::Utc;
use clap::{Args, Subcommand};
use serde::Serialize;

use super::{CliError, fresh_seed, print_json, stood};
use crate::campaign::{self, CampaignError, CampaignTable, Engagement, Link};
use crate::engine::game::{Action, Game, SeedSecret};
use crate::roster::{Position, Side};
use crate::rules::{System, Tables};
use crate::store::{Store, read_game};

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

/// The battle's rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BattleRules {
    /// Pickelhaube & Kepi (figures).
    Pk,
    /// The Portable Wargame (strength points).
    Pw,
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
        #[arg(long, value_enum, value_name = "pk|pw")]
        rules: BattleRules,
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
            let rules = match rules {
                BattleRules::Pk => System::Pk,
                BattleRules::Pw => System::Pw,
            };
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

/// A path as recorded: absolute, so the battle finds its campaign from any folder.
fn absolute(p: &Path) -> String {
    std::fs::canonicalize(p)
        .or_else(|_| std::path::absolute(p))
        .unwrap_or_else(|_| p.to_path_buf())
        .display()
        .to_string()
}

#[allow(clippy::too_many_arguments)]
fn battle(
    campaign: &Path,
    attackers: &[String],
    hex: &str,
    rules: System,
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
    if out.exists() {
        return Err(CliError::usage(format!(
            "--out: {} already exists; choose another file (kepi never overwrites a game)",
            out.display()
        )));
    }
    let table = CampaignTable::load(tables)?;
    let mut opened = Store::open(campaign)?;
    let game = &mut opened.game;
    let state = game.state().clone();
    let (board, units) = campaign::engage(&state, attackers, at, rules, &table)?;
    let hex_label = at.to_string();
    if let Some((_, e)) = campaign::pending(&state, game.log())
        .into_iter()
        .find(|(_, e)| e.hex == hex_label)
    {
        return Err(CliError::usage(format!(
            "--hex: hex {hex_label} already has a pending battle ({}): return or abandon it first; \
             nothing applied",
            e.battle
        )));
    }
    let secret = SeedSecret::new(seed.unwrap_or_else(fresh_seed));
    let listed = campaign::table_units(&board, &units);
    let engagement = Engagement {
        battle: absolute(out),
        battle_commitment: secret.commitment(),
        rules,
        hex: hex_label.clone(),
        attackers: board
            .iter()
            .filter(|b| b.role == campaign::Role::Attacker)
            .map(|b| b.id.clone())
            .collect(),
        defenders: board
            .iter()
            .filter(|b| b.role == campaign::Role::Defender)
            .map(|b| b.id.clone())
            .collect(),
        pending: state.next_due,
        rounding: table.rounding.v(),
        board,
        units: listed,
    };
    let now = Utc::now();
    let before = game.log().len();
    let draws = state.dice.draws;
    let entry = game
        .act(
            Action::Resolved {
                resolution: Box::new(campaign::battle_record(&state, &engagement)),
                effects: Vec::new(),
                draws,
                units: Vec::new(),
                input: None,
            },
            now,
        )?
        .clone();
    if !game
        .state()
        .due
        .iter()
        .any(|d| d.id == engagement.pending && d.rule.as_str() == "CAMP-B1")
    {
        let _ = game.rewind(before);
        return Err(CliError::failed(
            "internal: the pending battle's check was not queued; nothing applied",
        ));
    }
    let link = Link {
        campaign: absolute(campaign),
        campaign_commitment: state.dice.commitment.to_string(),
        campaign_system: state.system.system(),
        entry: entry.index,
        entry_hash: entry.hash.clone(),
        turn: state.turn,
        date: state.date,
        engagement,
    };
    let sc = campaign::battle_scenario(&link, units);
    let mut fight = Game::new(&sc, rules, secret, now);
    let fdraws = fight.state().dice.draws;
    fight.act(
        Action::Resolved {
            resolution: Box::new(campaign::link_record(&link)),
            effects: Vec::new(),
            draws: fdraws,
            units: Vec::new(),
            input: None,
        },
        now,
    )?;
    // The battle first: a campaign that names a battle never written would be worse than a battle
    // file left over from a campaign that could not record it (removed below).
    if let Err(e) = Store::create(out, &fight) {
        let _ = game.rewind(before);
        return Err(e.into());
    }
    match opened.store.record(game) {
        Ok(r) => {
            if let Some(w) = r.save_warning {
                errln!("warning: {w}");
            }
        }
        Err(e) => {
            crate::store::remove_game_files(out);
            return Err(CliError::failed(format!("{e}; nothing applied")));
        }
    }
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

/// The battle and its link, and the campaign's path (its recorded place, or `--campaign`).
fn linked(battle: &Path, campaign: Option<&Path>) -> Result<(Game, Link, PathBuf), CliError> {
    let viewed = read_game(battle).map_err(|e| CliError::usage(format!("BATTLE: {e}")))?;
    let link = campaign::link_of(viewed.game.log()).ok_or_else(|| {
        CliError::usage(format!(
            "BATTLE: {} is not a campaign's battle (make one with `kepi campaign battle`)",
            battle.display()
        ))
    })?;
    let path = campaign.map_or_else(|| PathBuf::from(&link.campaign), Path::to_path_buf);
    if !path.is_file() {
        return Err(CliError::usage(format!(
            "the campaign {} is not there (moved or renamed?): give its place with --campaign FILE; \
             nothing applied",
            path.display()
        )));
    }
    Ok((viewed.game, link, path))
}

/// Refuses a campaign that is not the one the battle was fought for, or whose pending record is
/// gone, saying what to do.
fn check_campaign(
    campaign: &Game,
    path: &Path,
    link: &Link,
    battle: &Path,
) -> Result<(), CliError> {
    let s = campaign.state();
    if *s.dice.commitment != *link.campaign_commitment {
        return Err(CliError::usage(format!(
            "{} is not the campaign this battle was fought for (another game: its dice commitment \
             differs): give the campaign's file with --campaign FILE; nothing applied",
            path.display()
        )));
    }
    let entry = usize::try_from(link.entry)
        .ok()
        .and_then(|i| campaign.log().get(i));
    if entry.is_none_or(|e| e.hash != link.entry_hash) {
        return Err(CliError::usage(format!(
            "{}'s log no longer holds entry {} (hash {}) the battle started from (the file was \
             replaced by an older or edited copy): restore the campaign's save; nothing applied",
            path.display(),
            link.entry,
            link.entry_hash
        )));
    }
    let e = &link.engagement;
    if !s.due.iter().any(|d| d.id == e.pending) {
        if let Some(r) = campaign::returned_at(campaign.log(), &e.battle_commitment) {
            return Err(CliError::usage(format!(
                "{} was already returned to the campaign (entry {}, hash {}); nothing applied",
                battle.display(),
                r.index,
                r.hash
            )));
        }
        return Err(CliError::usage(format!(
            "the campaign's pending battle #{} is gone (undone, or the combat was resolved on the \
             chart): this battle cannot come back; `kepi campaign status {}` lists the pending ones; \
             nothing applied",
            e.pending,
            path.display()
        )));
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
    let (fight, link, path) = linked(battle, campaign)?;
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
    let (mut held, mut store) = if dry_run {
        (read_game(&path)?.game, None)
    } else {
        let o = Store::open(&path)?;
        (o.game, Some(o.store))
    };
    let game = &mut held;
    check_campaign(game, &path, &link, battle)?;
    let (resolution, effects, out) = campaign::return_record(
        &link,
        fight.state(),
        &fight.head(),
        fight.log().len(),
        game.state(),
        winner,
    );
    if let Some(store) = store.as_mut() {
        let draws = game.state().dice.draws;
        game.act(
            Action::Resolved {
                resolution: Box::new(resolution),
                effects,
                draws,
                units: Vec::new(),
                input: None,
            },
            Utc::now(),
        )?;
        let r = store
            .record(game)
            .map_err(|e| CliError::failed(format!("{e}; nothing applied")))?;
        if let Some(w) = r.save_warning {
            errln!("warning: {w}");
        }
    }
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
            head: game.head(),
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
    outln!("head {}", game.head());
    Ok(())
}

fn abandon(
    battle: &Path,
    campaign: Option<&Path>,
    options: &[String],
    tables: Option<&Path>,
) -> Result<(), CliError> {
    let (_, link, path) = linked(battle, campaign)?;
    let mut opened = Store::open(&path)?;
    check_campaign(&opened.game, &path, &link, battle)?;
    let e = &link.engagement;
    let mut words = vec![
        "combat".to_string(),
        "--attackers".to_string(),
        e.attackers.join(","),
        "--hex".to_string(),
        e.hex.clone(),
    ];
    words.extend(options.iter().cloned());
    let loaded;
    let tables: &Tables = match tables {
        Some(d) => {
            loaded = Tables::load(Some(d))?;
            &loaded
        }
        None => Tables::builtin()?,
    };
    let mut said = Vec::new();
    crate::moves::apply_verbs::<CliError>(
        &mut opened.game,
        &mut opened.store,
        &words,
        tables,
        &|_, _| Ok(()),
        &mut |entry, recorded, _| {
            if let Some(w) = recorded.save_warning {
                errln!("warning: {w}");
            }
            said.push(entry.summary.clone());
            Ok(())
        },
    )?;
    // The combat answers the check when its first attacker leads it; otherwise it is done here.
    if opened.game.state().due.iter().any(|d| d.id == e.pending) {
        opened
            .game
            .act(Action::ResolveDue { id: e.pending }, Utc::now())?;
        let r = opened
            .store
            .record(&opened.game)
            .map_err(|x| CliError::failed(x.to_string()))?;
        if let Some(w) = r.save_warning {
            errln!("warning: {w}");
        }
    }
    for s in said {
        textln!("ok {s}");
    }
    outln!(
        "{}: battle {} abandoned, the combat resolved on the chart; head {}",
        path.display(),
        battle.display(),
        opened.game.head()
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
