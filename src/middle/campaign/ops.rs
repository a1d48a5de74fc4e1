//! The campaign's three steps as the command line and the window both take them (issue 30): make
//! a battle from a combat (CAMP-B1, CAMP-C1), bring its result back (CAMP-C2, CAMP-R1), abandon it
//! (the combat resolved on the chart). Each reads and writes the games through [`kepi_game::store`] and
//! returns what happened; `kepi campaign` prints it, the window shows it. A refusal is a
//! [`StepError`], said in the words of the front end that asked ([`Front`]); nothing is applied.

use std::path::{Path, PathBuf};

use chrono::Utc;
use serde::Deserialize;
use serde_json::Value;

use super::{CampaignError, CampaignTable, Engagement, Link, Returned, Role};
use crate::moves::MoveError;
use kepi_game::engine::game::{Action, Game, LogEntry, SeedSecret};
use kepi_game::roster::{Position, Side};
use kepi_game::rules::{Resolution, RuleSetId, Tables};
use kepi_game::store::{Store, read_game};

/// Who asked: the words a refusal uses for what to do next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Front {
    /// `kepi campaign ...`: options and commands.
    Cli,
    /// The window: its menus and dialogs.
    Window,
}

/// A campaign step refused or failed; nothing was applied.
#[derive(Debug)]
pub enum StepError {
    /// The conversion or the combat does not fit ([`CampaignError`]).
    Campaign(CampaignError),
    /// A value given for the step: which (its command-line option) and why.
    Arg {
        /// The option (`--out`, `--hex`).
        arg: &'static str,
        /// Why, without the option's name.
        message: String,
    },
    /// Reading, writing or a rule refusal on the way ([`MoveError`]: its kind is its exit code).
    Move(MoveError),
    /// The battle's file could not be read.
    BattleUnreadable(String),
    /// The game is not a battle made from a campaign.
    NotABattle(PathBuf),
    /// The campaign's file is not where the battle recorded it.
    CampaignMissing(PathBuf),
    /// The file found there is another game.
    NotTheCampaign(PathBuf),
    /// The campaign's log no longer holds the entry the battle started from.
    LogChanged {
        /// The campaign's file.
        path: PathBuf,
        /// The entry's index.
        entry: u64,
        /// Its hash.
        hash: String,
    },
    /// The battle came back already.
    AlreadyReturned {
        /// The battle's file.
        battle: PathBuf,
        /// The campaign's `campaign-return` entry.
        entry: u64,
        /// Its hash.
        hash: String,
    },
    /// The campaign's pending check is gone (undone, or resolved on the chart).
    PendingGone {
        /// The check's id.
        pending: u64,
        /// The campaign's file.
        path: PathBuf,
    },
}

impl From<CampaignError> for StepError {
    fn from(e: CampaignError) -> Self {
        StepError::Campaign(e)
    }
}

impl From<MoveError> for StepError {
    fn from(e: MoveError) -> Self {
        StepError::Move(e)
    }
}

impl From<kepi_game::store::StoreError> for StepError {
    fn from(e: kepi_game::store::StoreError) -> Self {
        StepError::Move(e.into())
    }
}

impl From<kepi_game::engine::game::ActionError> for StepError {
    fn from(e: kepi_game::engine::game::ActionError) -> Self {
        StepError::Move(e.into())
    }
}

impl StepError {
    /// The exit status the command line gives it: 1 for a failure that is not the user's (I/O),
    /// 2 for the rest.
    pub fn code(&self) -> u8 {
        match self {
            StepError::Move(m) => m.code(),
            _ => 2,
        }
    }

    /// The refusal, whole, in the words of `front`.
    pub fn say(&self, front: Front) -> String {
        let cli = front == Front::Cli;
        match self {
            StepError::Campaign(e) => format!("{e}; nothing applied"),
            StepError::Arg { arg, message } if cli => format!("{arg}: {message}"),
            StepError::Arg { arg, message } => {
                let what = match *arg {
                    "--out" => "the battle's file",
                    "--hex" => "the defending hex",
                    other => other,
                };
                format!("{what}: {message}")
            }
            StepError::Move(m) => m.message.clone(),
            StepError::BattleUnreadable(e) if cli => format!("BATTLE: {e}"),
            StepError::BattleUnreadable(e) => format!("the battle's file: {e}"),
            StepError::NotABattle(p) if cli => format!(
                "BATTLE: {} is not a campaign's battle (make one with `kepi campaign battle`)",
                p.display()
            ),
            StepError::NotABattle(p) => format!(
                "{} is not a campaign's battle (make one with \"Fight as a battle\" in the \
                 campaign's resolver)",
                p.display()
            ),
            StepError::CampaignMissing(p) => format!(
                "the campaign {} is not there (moved or renamed?): {}; nothing applied",
                p.display(),
                if cli {
                    "give its place with --campaign FILE"
                } else {
                    "put it back there, or use `kepi campaign return BATTLE --campaign FILE`"
                }
            ),
            StepError::NotTheCampaign(p) => format!(
                "{} is not the campaign this battle was fought for (another game: its dice \
                 commitment differs): {}; nothing applied",
                p.display(),
                if cli {
                    "give the campaign's file with --campaign FILE"
                } else {
                    "put the campaign's save back in its place, or use `kepi campaign return \
                     BATTLE --campaign FILE`"
                }
            ),
            StepError::LogChanged { path, entry, hash } => format!(
                "{}'s log no longer holds entry {entry} (hash {hash}) the battle started from (the \
                 file was replaced by an older or edited copy): restore the campaign's save; \
                 nothing applied",
                path.display()
            ),
            StepError::AlreadyReturned {
                battle,
                entry,
                hash,
            } => format!(
                "{} was already returned to the campaign (entry {entry}, hash {hash}); nothing \
                 applied",
                battle.display()
            ),
            StepError::PendingGone { pending, path } => format!(
                "the campaign's pending battle #{pending} is gone (undone, or the combat was \
                 resolved on the chart): this battle cannot come back; {}; nothing applied",
                if cli {
                    format!(
                        "`kepi campaign status {}` lists the pending ones",
                        path.display()
                    )
                } else {
                    format!("the due checks of {} list the pending ones", path.display())
                }
            ),
        }
    }
}

impl std::fmt::Display for StepError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.say(Front::Cli))
    }
}

impl std::error::Error for StepError {}

/// A path as recorded: absolute, so the battle finds its campaign from any folder.
pub fn absolute(p: &Path) -> String {
    std::fs::canonicalize(p)
        .or_else(|_| std::path::absolute(p))
        .unwrap_or_else(|_| p.to_path_buf())
        .display()
        .to_string()
}

/// Refuses a battle file that is there already (kepi never overwrites a game).
pub fn check_out(out: &Path) -> Result<(), StepError> {
    if out.exists() {
        return Err(StepError::Arg {
            arg: "--out",
            message: format!(
                "{} already exists; choose another file (kepi never overwrites a game)",
                out.display()
            ),
        });
    }
    Ok(())
}

/// One combat to fight as a battle: what the resolver holds, or `kepi campaign battle`'s options.
#[derive(Clone, Debug)]
pub struct BattleOrder<'a> {
    /// The attackers, by id or name.
    pub attackers: &'a [String],
    /// The defending hex.
    pub hex: Position,
    /// The battle's rule set (pk or pw).
    pub rules: RuleSetId,
    /// The battle's save file to create.
    pub out: &'a Path,
    /// The battle's dice seed.
    pub seed: u64,
}

/// A battle made: its link (the engagement and the campaign entry it started from), and the
/// warnings of the campaign's save.
#[derive(Clone, Debug)]
pub struct Made {
    /// The battle's link record.
    pub link: Link,
    /// The campaign's save could not catch up with its journal (the action stands).
    pub warnings: Vec<String>,
}

/// CAMP-B1, CAMP-C1: fights the combat of `order` as a battle: the campaign (open in `game`,
/// journalled by `store`, kept at `campaign`) logs the pending battle, and the battle's save is
/// created at `order.out` with its link record. The battle is written first; if the campaign
/// cannot record the battle, the battle's files are removed and the campaign is as it was.
pub fn make_battle(
    game: &mut Game,
    store: &mut Store,
    campaign: &Path,
    order: &BattleOrder<'_>,
    table: &CampaignTable,
) -> Result<Made, StepError> {
    check_out(order.out)?;
    let state = game.state().clone();
    let (board, units) = super::engage(&state, order.attackers, order.hex, order.rules, table)?;
    let hex_label = order.hex.to_string();
    if let Some((_, e)) = super::pending(&state, game.log())
        .into_iter()
        .find(|(_, e)| e.hex == hex_label)
    {
        return Err(StepError::Arg {
            arg: "--hex",
            message: format!(
                "hex {hex_label} already has a pending battle ({}): return or abandon it first; \
                 nothing applied",
                e.battle
            ),
        });
    }
    let secret = SeedSecret::new(order.seed);
    let listed = super::table_units(&board, &units);
    let engagement = Engagement {
        battle: absolute(order.out),
        battle_commitment: secret.commitment(),
        rules: order.rules,
        hex: hex_label,
        attackers: board
            .iter()
            .filter(|b| b.role == Role::Attacker)
            .map(|b| b.id.clone())
            .collect(),
        defenders: board
            .iter()
            .filter(|b| b.role == Role::Defender)
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
                resolution: Box::new(super::battle_record(&state, &engagement)),
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
        return Err(MoveError::failed(
            "internal: the pending battle's check was not queued; nothing applied",
        )
        .into());
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
    let sc = super::battle_scenario(&link, units);
    let mut fight = Game::new(&sc, order.rules, secret, now);
    let fdraws = fight.state().dice.draws;
    if let Err(e) = fight.act(
        Action::Resolved {
            resolution: Box::new(super::link_record(&link)),
            effects: Vec::new(),
            draws: fdraws,
            units: Vec::new(),
            input: None,
        },
        now,
    ) {
        let _ = game.rewind(before);
        return Err(e.into());
    }
    // The battle first: a campaign that names a battle never written would be worse than a battle
    // file left over from a campaign that could not record it (removed below).
    match Store::create(order.out, &fight) {
        Ok(s) => drop(s),
        Err(e) => {
            let _ = game.rewind(before);
            return Err(e.into());
        }
    }
    let mut warnings = Vec::new();
    match store.record(game) {
        Ok(r) => warnings.extend(r.save_warning),
        Err(e) => {
            let _ = game.rewind(before);
            kepi_game::store::remove_game_files(order.out);
            return Err(MoveError::failed(format!("{e}; nothing applied")).into());
        }
    }
    Ok(Made { link, warnings })
}

/// The battle's link record, or why `battle` (read from `path`) is not a campaign's battle.
pub fn link_in(battle: &Game, path: &Path) -> Result<Link, StepError> {
    super::link_of(battle.log()).ok_or_else(|| StepError::NotABattle(path.to_path_buf()))
}

/// The battle at `battle` and its link, and the campaign's path (its recorded place, or `given`).
pub fn linked(battle: &Path, given: Option<&Path>) -> Result<(Game, Link, PathBuf), StepError> {
    let viewed = read_game(battle).map_err(|e| StepError::BattleUnreadable(e.to_string()))?;
    let link = link_in(&viewed.game, battle)?;
    let path = campaign_path(&link, given)?;
    Ok((viewed.game, link, path))
}

/// Where the campaign is: `given`, or where the battle recorded it; refused when no file is there.
pub fn campaign_path(link: &Link, given: Option<&Path>) -> Result<PathBuf, StepError> {
    let path = given.map_or_else(|| PathBuf::from(&link.campaign), Path::to_path_buf);
    if !path.is_file() {
        return Err(StepError::CampaignMissing(path));
    }
    Ok(path)
}

/// Refuses a campaign that is not the one the battle was fought for, whose log was replaced, or
/// whose pending record is gone (returned already, undone, or resolved on the chart).
pub fn check_campaign(
    campaign: &Game,
    path: &Path,
    link: &Link,
    battle: &Path,
) -> Result<(), StepError> {
    let s = campaign.state();
    if *s.dice.commitment != *link.campaign_commitment {
        return Err(StepError::NotTheCampaign(path.to_path_buf()));
    }
    let entry = usize::try_from(link.entry)
        .ok()
        .and_then(|i| campaign.log().get(i));
    if entry.is_none_or(|e| e.hash != link.entry_hash) {
        return Err(StepError::LogChanged {
            path: path.to_path_buf(),
            entry: link.entry,
            hash: link.entry_hash.clone(),
        });
    }
    let e = &link.engagement;
    if !s.due.iter().any(|d| d.id == e.pending) {
        if let Some(r) = super::returned_at(campaign.log(), &e.battle_commitment) {
            return Err(StepError::AlreadyReturned {
                battle: battle.to_path_buf(),
                entry: r.index,
                hash: r.hash.clone(),
            });
        }
        return Err(StepError::PendingGone {
            pending: e.pending,
            path: path.to_path_buf(),
        });
    }
    Ok(())
}

/// A battle whose result its campaign already took (CAMP-R1): it stays playable, but nothing done
/// in it reaches the campaign any more (issue 46: it went on without a word).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReturnedAlready {
    /// The campaign's save.
    pub campaign: PathBuf,
    /// The campaign's `campaign-return` entry.
    pub entry: u64,
    /// When it was logged.
    pub at: chrono::DateTime<Utc>,
    /// The battle's number of log entries then (the ones after it are not in the campaign).
    pub battle_entries: usize,
}

impl ReturnedAlready {
    /// The one sentence the window's banner, its status line and `kepi game apply` say.
    pub fn say(&self) -> String {
        format!(
            "this battle was returned to the campaign {} on {} (its log entry {}); changes here \
             do not reach the campaign",
            self.campaign.display(),
            self.at.format("%-d %b %Y %H:%M UTC"),
            self.entry
        )
    }
}

/// Whether `battle` (a game open now) is a campaign's battle its campaign already took back: read
/// from the campaign's save where the battle recorded it (None when the game is no battle, or its
/// campaign is not there or is another game). Reads the campaign, so it is asked when a battle is
/// opened, not every frame.
pub fn returned_already(battle: &Game) -> Option<ReturnedAlready> {
    let link = super::link_of(battle.log())?;
    let path = campaign_path(&link, None).ok()?;
    let campaign = read_game(&path).ok()?.game;
    if *campaign.state().dice.commitment != *link.campaign_commitment {
        return None;
    }
    let e = super::returned_at(campaign.log(), &link.engagement.battle_commitment)?;
    let battle_entries = super::records(std::slice::from_ref(e), super::RETURN)
        .find_map(|(_, v)| Returned::deserialize(v).ok())
        .map_or(0, |r| r.battle_entries);
    Some(ReturnedAlready {
        campaign: path,
        entry: e.index,
        at: e.time,
        battle_entries,
    })
}

/// A battle's result brought back (or, dry, only shown).
#[derive(Clone, Debug)]
pub struct GivenBack {
    /// The campaign's `campaign-return` record: its lines (CAMP-C2 per board unit, CAMP-R1), summary
    /// and notes.
    pub resolution: Resolution<Value>,
    /// What it does to the campaign's units.
    pub effects: Vec<Action>,
    /// What the record holds (the losses).
    pub returned: Returned,
    /// The campaign's log head after it (now, when dry).
    pub head: String,
    /// The campaign's save could not catch up with its journal (the action stands).
    pub warnings: Vec<String>,
}

/// CAMP-C2, CAMP-R1: brings the result of `fight` (the battle, kept at `battle`) back to the
/// campaign at `campaign`: checks it is the battle's campaign with its battle still pending,
/// converts the losses, and unless `dry_run` applies them as one logged action.
pub fn give_back(
    fight: &Game,
    battle: &Path,
    link: &Link,
    campaign: &Path,
    winner: Option<Side>,
    dry_run: bool,
) -> Result<GivenBack, StepError> {
    let (mut held, mut store) = if dry_run {
        (read_game(campaign)?.game, None)
    } else {
        let o = Store::open(campaign)?;
        (o.game, Some(o.store))
    };
    let game = &mut held;
    check_campaign(game, campaign, link, battle)?;
    let back = super::battle_return(&game.state().system)?;
    let (resolution, effects, returned) = super::return_record(
        link,
        fight.state(),
        &fight.head(),
        fight.log().len(),
        game.state(),
        winner,
        &back,
    );
    let mut warnings = Vec::new();
    if let Some(store) = store.as_mut() {
        let draws = game.state().dice.draws;
        let before = game.log().len();
        game.act(
            Action::Resolved {
                resolution: Box::new(resolution.clone()),
                effects: effects.clone(),
                draws,
                units: Vec::new(),
                input: None,
            },
            Utc::now(),
        )?;
        match store.record(game) {
            Ok(r) => warnings.extend(r.save_warning),
            Err(e) => {
                let _ = game.rewind(before);
                return Err(MoveError::failed(format!("{e}; nothing applied")).into());
            }
        }
    }
    Ok(GivenBack {
        resolution,
        effects,
        returned,
        head: game.head(),
        warnings,
    })
}

/// A battle abandoned: its combat resolved on the campaign's chart.
#[derive(Clone, Debug)]
pub struct Abandoned {
    /// The summaries of the campaign's entries it made.
    pub said: Vec<String>,
    /// The campaign's save could not catch up with its journal (the actions stand).
    pub warnings: Vec<String>,
    /// The campaign's log head after it.
    pub head: String,
}

/// CAMP-B1: abandons the battle of `link`: its combat is resolved on the campaign's chart as
/// `kepi game apply CAMPAIGN combat --attackers ... --hex ...` does (with `options`, such as
/// `--dice d6=4`), which answers the pending check (or the check is answered here).
pub fn abandon(
    battle: &Path,
    link: &Link,
    campaign: &Path,
    options: &[String],
    tables: &Tables,
) -> Result<Abandoned, StepError> {
    let mut opened = Store::open(campaign)?;
    check_campaign(&opened.game, campaign, link, battle)?;
    let e = &link.engagement;
    let mut words = vec![
        "combat".to_string(),
        "--attackers".to_string(),
        e.attackers.join(","),
        "--hex".to_string(),
        e.hex.clone(),
    ];
    words.extend(options.iter().cloned());
    let mut said = Vec::new();
    let mut warnings = Vec::new();
    crate::moves::apply_verbs::<MoveError>(
        &mut opened.game,
        &mut opened.store,
        &words,
        tables,
        &|_, _| Ok(()),
        &mut |entry: &LogEntry, recorded, _| {
            warnings.extend(recorded.save_warning);
            said.push(entry.summary.clone());
            Ok(())
        },
    )?;
    // The combat answers the check when its first attacker leads it; otherwise it is done here.
    if opened.game.state().due.iter().any(|d| d.id == e.pending) {
        opened.game.act(
            Action::ResolveDue {
                id: e.pending,
                effects: Vec::new(),
            },
            Utc::now(),
        )?;
        let r = opened
            .store
            .record(&opened.game)
            .map_err(|x| MoveError::failed(x.to_string()))?;
        warnings.extend(r.save_warning);
    }
    Ok(Abandoned {
        said,
        warnings,
        head: opened.game.head(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each refusal is said whole in both front ends' words: the command line names its options,
    /// the window never does (it has no `--campaign`), and both say nothing was applied.
    #[test]
    fn refusals_are_said_in_each_front_ends_words() {
        let p = PathBuf::from("/x/campaign.json");
        for e in [
            StepError::CampaignMissing(p.clone()),
            StepError::NotTheCampaign(p.clone()),
            StepError::PendingGone {
                pending: 3,
                path: p.clone(),
            },
        ] {
            let cli = e.say(Front::Cli);
            let win = e.say(Front::Window);
            assert!(cli.ends_with("nothing applied"), "{cli}");
            assert!(win.ends_with("nothing applied"), "{win}");
            assert!(cli.contains("/x/campaign.json") && win.contains("/x/campaign.json"));
            assert!(!win.contains("--campaign FILE") || win.contains("kepi campaign return"));
            assert_eq!(e.code(), 2);
        }
        assert_eq!(
            StepError::CampaignMissing(p.clone()).say(Front::Cli),
            "the campaign /x/campaign.json is not there (moved or renamed?): give its place with \
             --campaign FILE; nothing applied"
        );
        let out = StepError::Arg {
            arg: "--out",
            message: "b.json already exists".into(),
        };
        assert_eq!(out.say(Front::Cli), "--out: b.json already exists");
        assert_eq!(
            out.say(Front::Window),
            "the battle's file: b.json already exists"
        );
        assert_eq!(StepError::Move(MoveError::failed("disk full")).code(), 1);
    }
}
