//! `kepi scenarios`, `kepi game ...`, `kepi log ...` and `kepi cards check`: the game session on the
//! command line, driving the same [`Game`] and [`Store`] as the window.

use std::path::{Path, PathBuf};

use chrono::Utc;
use clap::{Args, Subcommand};
use serde::{Deserialize, Serialize};

use super::{CliError, fresh_seed, print_json, stood};
use kepi_game::engine::game::{
    Action, EntryKind, Game, GameState, LogEntry, SeedSecret, verify_chain,
};
use kepi_game::registry::{builtin_scenario, builtin_scenarios};
use kepi_game::roster::load_roster_file;
use kepi_game::rules::Tables;
use kepi_game::store::{
    Recorded, SaveFile, Store, StoreError, read_bytes_limited, read_game, read_journal, recover,
};
use kepi_middle::moves::play as game_play;
use kepi_middle::moves::{apply_verbs, show_out, unit_view};

impl From<StoreError> for CliError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Action(a) => CliError::usage(a.to_string()),
            other => CliError::failed(other.to_string()),
        }
    }
}

impl From<kepi_game::engine::game::ActionError> for CliError {
    fn from(e: kepi_game::engine::game::ActionError) -> Self {
        CliError::usage(e.to_string())
    }
}

/// `kepi scenarios [--json]`
#[derive(Debug, Args)]
pub struct ScenariosArgs {
    /// Print JSON: [{"name", "system", "title", "units", "date"}].
    #[arg(long)]
    pub json: bool,
}

/// `kepi game ...`
#[derive(Debug, Args)]
pub struct GameArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: GameCommand,
}

/// The verbs of `kepi game apply`, shown by `kepi game --help` and `kepi game apply --help`.
pub const VERBS_HELP: &str = "\
VERBS (several may follow each other; each is journaled and saved before its `ok` line prints):
  lose UNIT N            lose N figures/points (refused beyond what is left)
  gain UNIT N            get N figures/points back (refused beyond full strength)
  fatigue UNIT N         add N fatigue points
  rest UNIT              fatigue back to 0
  leader UNIT            a leader falls
  level UNIT LEVEL       steady | shaken | broken | routed
  flag UNIT FLAG on|off  disordered, limbered, moved, fired, activated, extended; or a marker
                         the game's rule set declares for its units (listed when the name is not
                         known): P&K muddled, flag-lost; GSP hidden; SPI entrained, exited-west;
                         1870 disorganised, must-retreat, at-sea, stormed
  set UNIT FIELD VALUE   FIELD: strength, fatigue, leaders, melees, level, supply, facing,
                         position, or a flag's or marker's name (on/off)
  move UNIT HEX [--mp N] a hex label (0304), free or off; marks the unit moved. SPI: --mp N
                         is what the move costs as counted on the printed map (terrain, rivers,
                         zones of control); without it kepi counts 1 MP a hex, +2 onto and +2 off
                         a friendly combat unit, 1 MP per 18 hexes entrained (SPI-T1; on the
                         game's map along the rail line, a move along none noted, SPI-L1). Over the
                         allowance (German 8, French 6, halved unsupplied or isolated, SPI-S1),
                         with entrain, detrain and formation in the phase, is a logged note.
                         SPI-E2: a move ending on the enemy's rail line puts a rail-cut marker
                         there, an EB unit's into a cut of its own country takes it off, an EB
                         unit's secures the enemy's rail hexes along its way, a move onto a hex
                         of its own country the enemy secured takes it off the line and cuts it
                         (logged with the move); SPI-W1: a German combat unit moving off from
                         the west edge is marked exited-west, its hex exit-west. 1870: a move
                         marks its side's passage on the enemy's rail cells it ends on or
                         followed the line along (FR-G1 G3)
  face UNIT DIR          n ne e se s sw w nw, or none
  supply UNIT STATE      supplied | unsupplied | isolated
  mark KIND CELL         put a marker of the rule set's on a cell: SPI rail-cut (SPI-E2: the rail
  unmark KIND CELL       line is cut there, for supply and rail movement), secured (SPI-E2: an EB
                         unit secured the enemy's rail line there, a supply source while the
                         secured hexes lead home), exit-west (SPI-W1: German units moved off the
                         map there); 1870 possession-german,
                         possession-french (FR-G1: the A and F markers, the rail section through
                         the cell at that player's disposal), passage-german, passage-french
                         (FR-G1 G3: the side's units passed over that rail cell of the enemy's
                         country); unmark takes it off
  next-phase             next phase (after the last: next turn, markers cleared, date advanced)
  undo                   undo the last action (dice already rolled stay rolled)
  redo                   apply the last undone action again
  roll EXPR [--dice V,..] a logged roll of the game's seeded dice (d6, 2d6, d10, d%, 3d6+2), or
                         of the values thrown at the table (--dice 3,5 for 2d6)
  note TEXT              a note in the log (quote it)
  scale UNIT [FACTOR]    measured play at the club's scale (P&K, GSP): UNIT in | cm, FACTOR an exact
                         fraction (1/2 for 6 mm figures; default 1); logged. Every distance printed
                         or read follows it; a bare --range is read in UNIT (scale cm 1/2)
  reveal                 reveal the dice seed (see `kepi game reveal`)
  resolve-due ID         a due check (see `kepi game due FILE`) is done
  waive ID [REASON]      a due check is not made, with why (logged)
  form NAME UNIT [TARGET] [--attacker UNIT]... [--set PATH=VALUE]... [--dice DIE=VALUE,...]
                         any resolver form of the game's rule set, as the window has it: pre-filled
                         from the units now, then each field PATH (dotted, as the form's JSON names
                         it) set to VALUE (JSON, or text): how a window on the network sends its
                         rolls to the host
  siege --place P --cell C [--by U,..] [--start CELL] [--steps N]
                         1870: lay a siege (FR-F1, FR-B1); the game keeps it: combats against the
                         besiegers take the die -1 and ignore DR, its blockade marker advances by
                         the FR-B1 check due at Advance calendars (--steps: cells to SURRENDER
                         read off your printed calendar, which the text does not print)
  blockade --place P --end held|broken|lifted|surrender
                         1870: a blockade marker at the end of a turn (FR-B1); on SURRENDER the
                         capitulation is a check due (I6: Metz's besiegers stay one whole turn)
  points --situation N   1870: a situation's points (FR-L1), units eliminated counted from the game
  action JSON            one action as the log writes it ({\"type\": \"lose-strength\", ...});
                         not a roll or a resolution (dice are rolled by the game, never sent)
UNIT is a unit id (see `kepi game show FILE`) or its exact name.";

/// [`VERBS_HELP`] and the resolution verbs of every rule set (generated from their declarations).
pub fn apply_help() -> String {
    format!("{VERBS_HELP}\n{}", game_play::verbs_help())
}

/// Game subcommands.
#[derive(Debug, Subcommand)]
pub enum GameCommand {
    /// Start a game of a scenario; prints the commitment of the dice seed (kept secret until `reveal`).
    New {
        /// Scenario: a built-in name (`kepi scenarios`) or a scenario .toml file.
        #[arg(long, value_name = "NAME")]
        scenario: String,
        /// The save file to create (never overwritten).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Seed for kepi's dice (default: from the clock).
        #[arg(long, value_name = "N")]
        seed: Option<u64>,
        /// The board's map (docs/MAPS.md): a map file, or one of kepi's own by name; sets or
        /// overrides the scenario's `map`. The game keeps its text (and hash) in its save.
        #[arg(long, value_name = "FILE")]
        map: Option<String>,
        /// Print JSON: {"file", "scenario", "system", "commitment", "map"}.
        #[arg(long)]
        json: bool,
    },
    /// Show the state of a game: turn, phase, date and every unit.
    Show {
        /// The save file.
        file: PathBuf,
        /// Print JSON: {"system", "turn", "phase", "scale": {"unit", "factor"}, "units": [{"id",
        /// "name", "side", "strength", ...}]}.
        #[arg(long)]
        json: bool,
    },
    /// The cells a unit may reach on the game's map, with their cost (issue 41, docs/MAPS.md):
    /// each cell's movement points from the map's terrain table (its terrain, plus the rivers
    /// and other hexsides crossed), within the unit's allowance; a cell whose cost the table does
    /// not give is listed as unknown and not gone beyond; enemy-held cells are not entered.
    /// Where the rule set declares its movement rules (SPI-M1 and SPI-Z1, 1870's FR-M1), its zones
    /// of control and first-hex-of-the-phase costs are applied; rail movement is not, and the
    /// answer says what is not applied. Exit 2 when the game has no map or the unit is unknown or not
    /// on the map.
    Reach {
        /// The save file.
        file: PathBuf,
        /// The unit: its id or exact name.
        unit: String,
        /// Movement points to search with (default: the card's `movement`).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=999))]
        allowance: Option<u32>,
        /// Print JSON: {"unit", "from", "allowance", "cells": [{"cell", "cost", "steps",
        /// "via", "zoc", "paid"?}], "unknown": [{"cell", "spent", "steps", "via", "lacking"}],
        /// "lacking", "enemy", "rules", "not_applied", "zoc", "from_zoc", "closed",
        /// "movement_rules"}.
        #[arg(long)]
        json: bool,
    },
    /// Each unit's supply, traced on the game's map (issues 41 and 42, docs/MAPS.md; SPI-S1,
    /// SPI-S2, SPI-F1; 1870's lines of communication, FR-F4): supplied, unsupplied or isolated,
    /// with the path traced, the source, the distance and, for a unit not supplied, what
    /// interdicts it (an enemy unit, a cell in an enemy zone of control or a fortification's zone
    /// of interdiction, a rail cut, a cell no friendly unit occupies or controls). The umpire's typed
    /// state (`game apply SAVE supply UNIT STATE`) wins in play and is shown apart. Without a map,
    /// or for a rule set that traces none, supply is the umpire's and the answer says so. Exit 2
    /// when the unit is unknown or not traced (off the map, an EB unit).
    Supply {
        /// The save file.
        file: PathBuf,
        /// One unit (its id or exact name); every unit of both sides when left out.
        unit: Option<String>,
        /// Print JSON: {"from_map", "umpire"? (why supply is the umpire's), "units": [{"unit",
        /// "side", "status", "basis" (map, typed, umpire), "typed", "traced": {"unit", "cell",
        /// "status", "distance", "path", "source": {"kind", "name", "cell"}, "interdicts":
        /// [{"cell", "what", "by", "rule"}], "blocked_path", "note"?} or null}], "sides":
        /// [{"side", "units", "sources", "rail_stops", "rules", "not_applied"}]}.
        #[arg(long)]
        json: bool,
    },
    /// Apply actions to a game, one after another (scriptable play).
    #[command(after_help = apply_help())]
    Apply {
        /// The save file.
        file: PathBuf,
        /// Print one JSON line per applied action: {"index", "turn", "phase", "summary", "hash"}; a
        /// resolution verb's line adds "outcome", the object `kepi resolve ... --json` prints, and
        /// "notes", its logged notes (a breach the umpire went ahead with among them).
        #[arg(long)]
        json: bool,
        /// The verbs and their arguments (see below).
        #[arg(
            required = true,
            trailing_var_arg = true,
            allow_hyphen_values = true,
            value_name = "VERB"
        )]
        words: Vec<String>,
    },
    /// List the checks due: what applied outcomes set off and nobody has done or waived yet.
    Due {
        /// The save file.
        file: PathBuf,
        /// Print JSON: [{"id", "rule", "unit", "side", "what", "form", "hex" (when the check is
        /// about a hex), "queued_at": {"turn", "phase"}}].
        #[arg(long)]
        json: bool,
    },
    /// The current phase's checklist and who has moved, fired, activated or fought this turn.
    Checklist {
        /// The save file.
        file: PathBuf,
        /// Print JSON: {"turn", "phase", "items": [{"rule", "what", "side", "form", "units"}],
        /// "activity": {"units": [{"id", "moved", "fired", "activated", "melees", "to_act"}]}}.
        #[arg(long)]
        json: bool,
    },
    /// Reveal the dice seed, check it against the commitment and re-roll every logged die from it.
    Reveal {
        /// The save file.
        file: PathBuf,
        /// Print JSON: {"seed", "salt", "commitment", "dice_checked"}.
        #[arg(long)]
        json: bool,
    },
    /// Rebuild a damaged save from its journal (or its .bak backup and the journal). The journal
    /// is read line by line, whatever its size: every entry that continues the chain is kept,
    /// wherever it stands; damaged lines, lines kepi did not write (a broken chain, dice not from
    /// the seed) and copies are left out, and each is named. The old save and journal are set
    /// aside as FILE.damaged and FILE.journal.damaged (.damaged.2, ... if those are taken: nothing
    /// set aside is ever overwritten).
    Recover {
        /// The save file.
        file: PathBuf,
    },
    /// Rewrite the save so it holds every action (kepi rewrites it only every 256 actions, the
    /// journal beside it holding the rest): do this before copying the save file alone.
    Compact {
        /// The save file.
        file: PathBuf,
        /// Print JSON: {"file", "entries", "head", "caught_up"}.
        #[arg(long)]
        json: bool,
    },
    /// Write a copy of a game for the players: the same state and log without the dice seed (its
    /// commitment stays in the log). The copy verifies with `kepi log verify` (its dice can be
    /// checked once the seed is revealed) and reads with `game show`, `game due`, `log show`.
    Share {
        /// The save file (the umpire's, with the seed).
        save: PathBuf,
        /// The copy to write: not SAVE; an existing file is replaced only if it is a seedless copy
        /// of the same game.
        out: PathBuf,
    },
}

/// `kepi log ...`
#[derive(Debug, Args)]
pub struct LogArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: LogCommand,
}

/// Log subcommands.
#[derive(Debug, Subcommand)]
pub enum LogCommand {
    /// Check a save's (or journal's) hash chain and replay, and its seeded dice whenever the seed
    /// is known (the umpire's save, or after the reveal); every member of every entry against
    /// what kepi would have written: its turn and phase (the clock there), its time (never
    /// backwards), its summary, rule ids and dice (an undo's summary is what undoing that action
    /// says), and every resolution resolved again from its logged input and dice (outcome,
    /// result, modifier lines, odds, the line rolled, notes with what the umpire went ahead
    /// with, effects and units; games played with other rule tables: give them with --tables;
    /// a move's notes, a roll's total, a due check's effects likewise);
    /// a member kepi does not write, at any depth, is refused: exit 0 if it holds, 1 naming the
    /// first broken entry and the member that differs (or, with --expect-head, a head other than
    /// the one noted at the table).
    Verify {
        /// A save file or a `.journal` file.
        file: PathBuf,
        /// The chain head noted at the table (`kepi game show --json` prints it as "head"): the
        /// full hash or a unique prefix of at least 8 hex digits. A different head fails, so an
        /// edit hidden by a recomputed chain is caught.
        #[arg(long, value_name = "HASH")]
        expect_head: Option<String>,
        /// Print JSON: {"ok", "entries", "head", "dice_checked"} or {"ok": false, "broken_at",
        /// "reason"}; with --expect-head also "expected_head" and "head_matches".
        #[arg(long)]
        json: bool,
    },
    /// Print a game's log: each entry's summary naming its acting unit, its rule ids and dice,
    /// and the notes recorded with it on the lines below ("note: umpire went ahead: ...").
    Show {
        /// The save file.
        file: PathBuf,
        /// Print the entries as JSON, each as logged plus "text" (the summary naming the acting
        /// unit) and "notes" (the notes recorded with it).
        #[arg(long)]
        json: bool,
    },
}

/// `kepi cards ...`
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct CardFilesArgs {
    /// `check`: validate card files; without a subcommand, print cards.
    #[command(subcommand)]
    pub command: Option<CardsCommand>,
    /// Print cards: `(--scenario NAME | --cards FILE) (--png DIR [--dpi 300] | --pdf OUT.pdf)`.
    #[command(flatten)]
    pub print: crate::export_cmd::CardsArgs,
}

/// Card subcommands.
#[derive(Debug, Subcommand)]
pub enum CardsCommand {
    /// Validate unit cards: a .toml file or every .toml in a folder. Errors name file, line and field.
    Check {
        /// A card file or folder.
        path: PathBuf,
        /// Print JSON: [{"file", "scenario", "units"}].
        #[arg(long)]
        json: bool,
    },
    /// Import unit cards from a spreadsheet's CSV (issue 43): `FILE.csv --rules ID --out
    /// FILE.toml`. Columns are matched to card fields by their headers (`--column FIELD=HEADER`
    /// to choose); every row is checked as `cards check` checks a card, an error naming the row's
    /// line, the column and the accepted values; `--dry-run` shows the first rows as cards.
    /// `kepi export csv --units` writes a file this reads back as the same cards.
    Import(crate::import_cmd::ImportArgs),
    /// The same troops for another rule set (issue 43): `FILE --to SET --out FILE.toml`. Names,
    /// the order of battle, arms, positions, arrival, notes and images carry over where the new
    /// set's card means the same; what it needs and the old card cannot give (a strength counted
    /// in other units, an arm or class it has not) is left out with a `# TO FILL:` comment saying
    /// what the old card had, for the builder or `kepi cards check` to show.
    Convert(crate::convert_cmd::ConvertArgs),
}

/// Runs `kepi scenarios`.
pub fn scenarios(a: &ScenariosArgs) -> Result<(), CliError> {
    let all = builtin_scenarios()?;
    #[derive(Serialize)]
    struct Line {
        name: String,
        system: String,
        title: String,
        units: usize,
        date: Option<String>,
    }
    let lines: Vec<Line> = all
        .iter()
        .map(|s| Line {
            name: s.name.clone(),
            system: s.system.map(|x| x.id().to_string()).unwrap_or_default(),
            title: s.title.clone(),
            units: s.units.len(),
            date: s.date.map(|d| d.to_string()),
        })
        .collect();
    if a.json {
        return print_json(&lines);
    }
    for l in lines {
        outln!(
            "{:<16} {:<7} {:>3} units  {}",
            l.name,
            l.system,
            l.units,
            l.title
        );
    }
    Ok(())
}

/// Runs `kepi game ...` (`tables`: the `--tables` folder, for the resolution verbs).
pub fn game(a: &GameArgs, tables: Option<&Path>) -> Result<(), CliError> {
    match &a.command {
        GameCommand::New {
            scenario,
            out,
            seed,
            map,
            json,
        } => stood(new(scenario, out, *seed, map.as_deref(), *json)),
        GameCommand::Show { file, json } => {
            let game = view(file)?;
            show(game.state(), &game, *json)
        }
        GameCommand::Reach {
            file,
            unit,
            allowance,
            json,
        } => {
            let game = view(file)?;
            reach(game.state(), unit, *allowance, *json)
        }
        GameCommand::Supply { file, unit, json } => {
            let game = view(file)?;
            supply(game.state(), unit.as_deref(), *json)
        }
        GameCommand::Apply { file, json, words } => {
            let loaded;
            let tables: &Tables = match tables {
                Some(d) => {
                    loaded = kepi_game::registry::load_tables(Some(d))?;
                    &loaded
                }
                None => kepi_game::registry::builtin_tables()?,
            };
            apply_words(file, words, *json, tables)
        }
        GameCommand::Due { file, json } => {
            let game = view(file)?;
            due(game.state(), file, *json)
        }
        GameCommand::Checklist { file, json } => {
            let game = view(file)?;
            checklist(game.state(), *json)
        }
        GameCommand::Reveal { file, json } => stood(reveal(file, *json)),
        GameCommand::Recover { file } => stood((|| {
            if let Ok(opened) = Store::open(file) {
                report_open(&opened.warnings);
                outln!(
                    "{}: the save opens as it is; nothing to recover",
                    file.display()
                );
                return Ok(());
            }
            let (game, how) = recover(file)?;
            outln!(
                "{}: {how}; {} log entries, turn {}, {}",
                file.display(),
                game.log().len(),
                game.state().turn,
                game.state().phase_name()
            );
            Ok(())
        })()),
        GameCommand::Share { save, out } => share(save, out),
        GameCommand::Compact { file, json } => stood(compact(file, *json)),
    }
}

/// `kepi game compact FILE`: the save catches up with its journal.
fn compact(file: &Path, json: bool) -> Result<(), CliError> {
    let mut opened = Store::open(file)?;
    report_open(&opened.warnings);
    let caught_up = opened.store.behind();
    opened.store.compact(&opened.game)?;
    let game = &opened.game;
    if json {
        #[derive(Serialize)]
        struct Out<'a> {
            file: String,
            entries: usize,
            head: &'a str,
            caught_up: usize,
        }
        return print_json(&Out {
            file: file.display().to_string(),
            entries: game.log().len(),
            head: &game.head(),
            caught_up,
        });
    }
    outln!(
        "{}: the save holds all {} log entries ({caught_up} caught up from the journal); head {}",
        file.display(),
        game.log().len(),
        game.head()
    );
    Ok(())
}

/// Reads a game for a viewing command: no lock, nothing written (works on read-only media).
fn view(file: &Path) -> Result<Game, CliError> {
    let viewed = read_game(file)?;
    report_open(&viewed.warnings);
    Ok(viewed.game)
}

/// Says on stderr that an acknowledged action's save is behind its journal.
fn report_recorded(r: Recorded) {
    if let Some(w) = r.save_warning {
        errln!("warning: {w}");
    }
}

/// `kepi game share SAVE OUT`.
fn share(save: &Path, out: &Path) -> Result<(), CliError> {
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    };
    if same(save, out) {
        return Err(CliError::usage(format!(
            "OUT `{}` is SAVE: the copy for the players must be another file",
            out.display()
        )));
    }
    // A players' copy of this game (recognised by its content alone) may be replaced below; any
    // other of a game's own files never is.
    match kepi_game::fsio::game_file(out) {
        None | Some(kepi_game::fsio::GameFile::SaveByContent) => {}
        Some(g) => {
            return Err(CliError::usage(format!(
                "OUT `{}`: {}",
                out.display(),
                kepi_game::fsio::FsProblem::GameFile {
                    what: g.describe(out)
                }
            )));
        }
    }
    let game = view(save)?;
    if out.exists() {
        let replaceable = read_bytes_limited(out)
            .ok()
            .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
            .is_some_and(|v| {
                v.get("format").and_then(|f| f.as_str()) == Some(kepi_game::store::FORMAT)
                    && v.get("secret").is_none_or(|x| x.is_null())
                    && v.pointer("/state/dice/commitment")
                        .and_then(|c| c.as_str())
                        .is_some_and(|c| *c == *game.state().dice.commitment)
            });
        if !replaceable {
            return Err(CliError::usage(format!(
                "OUT `{}` exists and is not a players' copy of this game; choose another file",
                out.display()
            )));
        }
    }
    kepi_game::store::share(&game, out)?;
    outln!(
        "{}: players' copy of {} ({} log entries, head {}), without the dice seed; commitment {}",
        out.display(),
        save.display(),
        game.log().len(),
        game.head(),
        game.state().dice.commitment
    );
    Ok(())
}

/// Prints what opening a game found (a torn journal line, dice that do not verify). Journal
/// entries beyond the save are normal (the save is rewritten every 256 actions), not news.
fn report_open(warnings: &[String]) {
    for w in warnings {
        errln!("warning: {w}");
    }
}

fn new(
    scenario: &str,
    out: &Path,
    seed: Option<u64>,
    map: Option<&str>,
    json: bool,
) -> Result<(), CliError> {
    let mut sc = if scenario.ends_with(".toml") && Path::new(scenario).is_file() {
        load_roster_file(Path::new(scenario))?
    } else {
        builtin_scenario(scenario).map_err(|m| CliError::usage(format!("--scenario: {m}")))?
    };
    let system = sc.system.ok_or_else(|| {
        // The example id is the first rule set the registry lists.
        let example = kepi_game::registry::all().first().map_or("", |s| s.id());
        CliError::usage(format!(
            "--scenario: `{scenario}` names no rule set (add system = \"{example}\" ... to the file)"
        ))
    })?;
    if let Some(name) = map {
        let m = kepi_game::map::MapFile::named(name)
            .map_err(|e| CliError::usage(format!("--map: {e}")))?;
        if let Some(misfit) = kepi_game::roster::map_misfit(&sc.units, system, &m) {
            return Err(CliError::usage(format!("--map: {misfit}")));
        }
        sc.map = Some(m);
    }
    let secret = SeedSecret::new(seed.unwrap_or_else(fresh_seed));
    let game = Game::new(&sc, system, secret, Utc::now());
    Store::create(out, &game)?;
    let commitment = game.state().dice.commitment.clone();
    if json {
        #[derive(Serialize)]
        struct Out<'a> {
            file: String,
            scenario: &'a str,
            system: &'a str,
            commitment: &'a str,
            map: Option<&'a str>,
        }
        return print_json(&Out {
            file: out.display().to_string(),
            scenario: &sc.name,
            system: system.id(),
            commitment: &commitment,
            map: sc.map.as_ref().map(|m| m.file.as_str()),
        });
    }
    outln!("{}: {} ({})", out.display(), sc.title, system.title());
    outln!("dice seed commitment: {commitment}");
    outln!(
        "(the seed is revealed at the end with `kepi game reveal {}`)",
        out.display()
    );
    Ok(())
}

pub(super) fn show(s: &GameState, game: &Game, json: bool) -> Result<(), CliError> {
    // A map file changed since the game began is named, whichever the output (issue 41).
    if let Some(changed) = s.map.as_ref().and_then(|m| m.changed_on_disk()) {
        errln!("warning: {changed}");
    }
    if json {
        return print_json(&show_out(s, game));
    }
    textln!("{} ({})", s.title, s.system.title());
    if let Some(m) = &s.map {
        match m.map() {
            Ok(_) => textln!("map {} ({}, sha256 {})", m.name(), m.file, m.short_sha()),
            Err(why) => textln!("map {}: {why}", m.file),
        }
    }
    let date = s
        .date
        .map(|d| format!(" - {}", d.format("%-d %b %Y")))
        .unwrap_or_default();
    outln!("Turn {} - {}{date}", s.turn, s.phase_name());
    outln!("dice seed commitment {}", s.dice.commitment);
    if !s.scale.is_text() {
        outln!("{}", kepi_game::engine::game::scale_line(s.scale));
    }
    for u in &s.units {
        let v = unit_view(u);
        let flags = if v.flags.is_empty() {
            String::new()
        } else {
            format!(" [{}]", v.flags.join(", "))
        };
        textln!(
            "  {:<28} {:<40} {:<6} {:>3}/{:<3} fat {:<2} {:<7} {}{}",
            v.id,
            v.name.chars().take(40).collect::<String>(),
            v.side,
            v.strength,
            v.max_strength,
            v.fatigue,
            v.level,
            v.position,
            flags
        );
    }
    Ok(())
}

/// `kepi game reach SAVE UNIT [--allowance N] [--json]` (issue 41): from the same function as
/// the window's shading ([`kepi_game::engine::play::board::unit_reach`]).
fn reach(s: &GameState, unit: &str, allowance: Option<u32>, json: bool) -> Result<(), CliError> {
    if let Some(changed) = s.map.as_ref().and_then(|m| m.changed_on_disk()) {
        errln!("warning: {changed}");
    }
    let r =
        kepi_game::engine::play::board::unit_reach(s, unit, allowance).map_err(CliError::usage)?;
    if json {
        return print_json(&r);
    }
    let x = &r.reach;
    textln!(
        "{} at {}, allowance {} MP: {} cells within reach (rules {})",
        r.unit,
        x.from,
        x.allowance,
        x.cells.len(),
        if x.rules.is_empty() {
            "none".to_string()
        } else {
            x.rules.join(", ")
        }
    );
    if x.from_zoc {
        textln!(
            "{} is in an enemy zone of control: leaving it costs more, and no move goes straight \
             to another controlled cell",
            x.from
        );
    }
    for c in &x.cells {
        outln!(
            "  {}  cost {:>2}  steps {:>2}  via {}{}{}",
            c.cell,
            c.cost,
            c.steps,
            c.via,
            if c.zoc { "  zoc (stops)" } else { "" },
            if c.paid.is_empty() {
                String::new()
            } else {
                format!("  paid {}", c.paid.join(", "))
            }
        );
    }
    if !x.unknown.is_empty() {
        textln!(
            "cost unknown (not entered, not gone beyond): {} lacked a cost in the terrain table",
            x.lacking.join(", ")
        );
        for u in &x.unknown {
            textln!(
                "  {}  after {} MP from {}: no cost for {}",
                u.cell,
                u.spent,
                u.via,
                u.lacking.join(", ")
            );
        }
    }
    if !x.enemy.is_empty() {
        outln!("held by the enemy (not entered): {}", x.enemy.join(", "));
    }
    if !x.closed.is_empty() {
        outln!("closed to movement (not entered): {}", x.closed.join(", "));
    }
    if !x.zoc.is_empty() {
        outln!("enemy zones of control: {}", x.zoc.join(", "));
    }
    for n in &x.not_applied {
        outln!("{n}");
    }
    Ok(())
}

/// `kepi game supply SAVE [UNIT] [--json]` (issues 41 and 42): from the same function as the
/// window's supply line and SPI's forms ([`kepi_game::engine::play::supply::game_supply`]).
fn supply(s: &GameState, unit: Option<&str>, json: bool) -> Result<(), CliError> {
    use kepi_game::engine::play::supply::{Basis, game_supply};
    if let Some(changed) = s.map.as_ref().and_then(|m| m.changed_on_disk()) {
        errln!("warning: {changed}");
    }
    let mut all = game_supply(s);
    if let Some(key) = unit {
        let u = s
            .find(key)
            .map_err(|e| CliError::usage(format!("UNIT: {e}")))?;
        let id = u.unit.id.clone();
        let Some(one) = all.get(&id).cloned() else {
            return Err(CliError::usage(format!(
                "UNIT: unit {id} is not traced for supply (it is at {}: off the map, eliminated, \
                 or not a combat unit, such as an EB unit)",
                u.position
            )));
        };
        all.sides.retain(|x| x.side == one.side);
        all.units = vec![one];
    }
    if json {
        return print_json(&all);
    }
    match &all.umpire {
        Some(why) => textln!("{why}"),
        None => textln!(
            "supply traced on the map (rules {})",
            all.sides
                .first()
                .map(|x| x.rules.join(", "))
                .unwrap_or_default()
        ),
    }
    for u in &all.units {
        let mut line = format!("  {} ({})  {}", u.unit, u.side, u.status);
        match (&u.basis, &u.traced) {
            (Basis::Typed, Some(t)) => line.push_str(&format!(
                "  typed by the umpire (wins in play); the map says {}",
                t.status
            )),
            (Basis::Typed, None) => line.push_str("  typed by the umpire"),
            (Basis::Umpire, _) => line.push_str("  the umpire's"),
            (Basis::Map, _) => {}
        }
        outln!("{line}");
        let Some(t) = &u.traced else { continue };
        match (t.length(), &t.source) {
            (Some(d), Some(src)) => outln!(
                "      at {}: {} to {} at {} ({}): {}",
                t.cell,
                d,
                src.name,
                src.cell,
                src.kind.as_str(),
                t.path.join(" ")
            ),
            (None, _) => outln!("      at {}: no supply line reaches a source", t.cell),
            // A fortification: its own source, said in its note.
            (Some(_), None) => {}
        }
        if !t.interdicts.is_empty() {
            let what: Vec<String> = t
                .interdicts
                .iter()
                .map(|o| {
                    let by = if o.by.is_empty() {
                        String::new()
                    } else {
                        format!(" of {}", o.by.join(", "))
                    };
                    format!("{} {}{by} ({})", o.cell, o.what.as_str(), o.rule)
                })
                .collect();
            outln!("      in the way: {}", what.join("; "));
        }
        if let Some(n) = &t.note {
            outln!("      {n}");
        }
    }
    for x in &all.sides {
        for o in &x.rail_stops {
            outln!(
                "{} rail line stopped at {}: {}{}",
                x.side,
                o.cell,
                o.what.as_str(),
                if o.by.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", o.by.join(", "))
                }
            );
        }
    }
    if let Some(x) = all.sides.first() {
        for n in &x.not_applied {
            outln!("{n}");
        }
    }
    Ok(())
}

/// `kepi game apply`: every verb is applied whatever happens to stdout; what could not be printed
/// is said once at the end (see [`stood`]), so `... | true` or a full disk under stdout never
/// stops the verbs halfway or reports an action that stood as failed.
fn apply_words(file: &Path, words: &[String], json: bool, tables: &Tables) -> Result<(), CliError> {
    let mut opened = Store::open(file)?;
    report_open(&opened.warnings);
    // A battle its campaign already took back is played on, with a word (issue 46).
    if let Some(r) = kepi_middle::campaign::ops::returned_already(&opened.game) {
        errln!("warning: {}", r.say());
    }
    let mut unprinted: Option<CliError> = None;
    apply_verbs::<CliError>(
        &mut opened.game,
        &mut opened.store,
        words,
        tables,
        &|_, _| Ok(()),
        &mut |entry, recorded, state| {
            report_recorded(recorded);
            if unprinted.is_none()
                && let Err(e) = print_applied(entry, json, state)
            {
                unprinted = Some(e);
            }
            Ok(())
        },
    )?;
    stood(unprinted.map_or(Ok(()), Err))
}

fn due(s: &GameState, file: &Path, json: bool) -> Result<(), CliError> {
    if json {
        #[derive(Serialize)]
        struct When<'a> {
            turn: u32,
            phase: &'a str,
        }
        #[derive(Serialize)]
        struct Line<'a> {
            id: u64,
            rule: &'a str,
            unit: Option<&'a str>,
            side: Option<&'a str>,
            what: String,
            form: Option<&'a str>,
            #[serde(skip_serializing_if = "Option::is_none")]
            hex: Option<String>,
            queued_at: When<'a>,
        }
        let lines: Vec<Line> = s
            .due
            .iter()
            .map(|d| Line {
                id: d.id,
                rule: d.rule.as_str(),
                unit: d.unit.as_deref(),
                side: d.side.map(|x| x.as_str()),
                what: s.scale.localize(&d.asked_now(s)),
                form: d.form.as_deref(),
                hex: d.at.map(|p| p.to_string()),
                queued_at: When {
                    turn: d.turn,
                    phase: &d.phase,
                },
            })
            .collect();
        return print_json(&lines);
    }
    if s.due.is_empty() {
        outln!("nothing due (turn {}, {})", s.turn, s.phase_name());
        return Ok(());
    }
    for d in s.due.iter() {
        let how = match (&d.form, &d.unit) {
            (Some(f), Some(u)) => {
                let verb = match f.as_str() {
                    "flag" => "flag-roll",
                    "fatigue" => "fatigue-check",
                    other => other,
                };
                format!("kepi game apply {} {verb} {u}", file.display())
            }
            // FR-C2: the retreat is the unit's next move.
            (None, Some(u)) if d.by_move => {
                format!("kepi game apply {} move {u} HEX", file.display())
            }
            _ => format!("kepi game apply {} resolve-due {}", file.display(), d.id),
        };
        outln!(
            "#{:<3} T{} {:<28} {}\n      -> {how}   (or: waive {} REASON)",
            d.id,
            d.turn,
            d.phase,
            kepi_game::roster::shown(&s.scale.localize(&d.describe(s))),
            d.id
        );
    }
    Ok(())
}

fn checklist(s: &GameState, json: bool) -> Result<(), CliError> {
    let items = kepi_game::engine::flow::checklist(s);
    let activity = kepi_game::engine::flow::activity(s);
    if json {
        #[derive(Serialize)]
        struct Out<'a> {
            turn: u32,
            phase: &'a str,
            items: &'a [kepi_game::engine::flow::Item],
            activity: &'a kepi_game::engine::flow::Activity,
        }
        return print_json(&Out {
            turn: s.turn,
            phase: s.phase_name(),
            items: &items,
            activity: &activity,
        });
    }
    outln!("Turn {} - {}", s.turn, s.phase_name());
    for it in &items {
        let side = it
            .side
            .map(|x| format!("{}: ", x.title()))
            .unwrap_or_default();
        let form = it
            .form
            .as_ref()
            .map(|f| format!("  [{f}]"))
            .unwrap_or_default();
        textln!(
            "  [ ] {:<7} {side}{}{form}",
            it.rule.as_str(),
            s.scale.localize(&it.what)
        );
        if !it.units.is_empty() {
            let more = if it.units.len() > 8 { ", ..." } else { "" };
            let shown: Vec<&str> = it.units.iter().take(8).map(String::as_str).collect();
            textln!("              {}{more}", shown.join(", "));
        }
    }
    let (m, f, a, x) = activity.counts();
    outln!(
        "this turn: {m} moved, {f} fired, {a} activated, {x} in melee; {} still to act in this phase",
        activity.to_act().len()
    );
    if !s.due.is_empty() {
        outln!(
            "{} due: see `kepi game due`",
            kepi_game::rules::count(s.due.len(), "check", "checks")
        );
    }
    Ok(())
}

pub(super) fn print_entry(e: &LogEntry, json: bool) -> Result<(), CliError> {
    print_entry_at(e, json, &kepi_game::rules::Scale::default(), None)
}

/// [`print_entry`] of an entry `kepi game apply` just logged, in `state` (the game after it): the
/// summary names the acting unit as `kepi log show` does ([`kepi_game::engine::game::entry_text`];
/// issue 46: a fatigue check's summary named none) and is printed at the game's scale.
fn print_applied(e: &LogEntry, json: bool, state: &GameState) -> Result<(), CliError> {
    let line = kepi_game::engine::game::entry_text(e, state).line;
    print_entry_at(e, json, &state.scale, Some(line))
}

/// [`print_entry`] at a game's scale (issue 28): the distances of its summary and notes printed
/// in the scale's unit and factor (the log keeps the text's inches).
pub(super) fn print_entry_at(
    e: &LogEntry,
    json: bool,
    scale: &kepi_game::rules::Scale,
    line: Option<String>,
) -> Result<(), CliError> {
    let summary = line.unwrap_or_else(|| e.summary_at(scale));
    let localized: Option<Vec<String>> = match &e.kind {
        EntryKind::Act {
            action: Action::Resolved { resolution, .. },
        } => Some(resolution.notes.iter().map(|n| scale.localize(n)).collect()),
        EntryKind::Act {
            action: Action::Move { notes, .. } | Action::SetCount { notes, .. },
        } if !notes.is_empty() => Some(notes.iter().map(|n| scale.localize(n)).collect()),
        _ => None,
    };
    if json {
        #[derive(Serialize)]
        struct Out<'a> {
            ok: bool,
            index: u64,
            turn: u32,
            phase: &'a str,
            summary: &'a str,
            rules: &'a [String],
            dice: &'a [kepi_game::dice::Roll],
            hash: &'a str,
            /// A resolution's outcome: the object `kepi resolve ... --json` prints.
            #[serde(skip_serializing_if = "Option::is_none")]
            outcome: Option<&'a serde_json::Value>,
            /// A resolution's notes, as logged: what the umpire must know or do, and what he
            /// went ahead with against the phase or the text ("umpire went ahead: ...").
            #[serde(skip_serializing_if = "Option::is_none")]
            notes: Option<&'a [String]>,
        }
        let (outcome, notes) = match &e.kind {
            EntryKind::Act {
                action: Action::Resolved { resolution, .. },
            } => (resolution.outcome.as_ref(), localized.as_deref()),
            _ => (None, localized.as_deref()),
        };
        let s = serde_json::to_string(&Out {
            ok: true,
            index: e.index,
            turn: e.turn,
            phase: &e.phase,
            summary: &summary,
            rules: &e.rules,
            dice: &e.dice,
            hash: &e.hash,
            outcome,
            notes,
        })
        .map_err(|err| CliError::failed(err.to_string()))?;
        outln!("{s}");
    } else {
        textln!("ok {}: T{} {}: {}", e.index, e.turn, e.phase, summary);
        // What was logged with it, as `kepi log show` prints it.
        for n in localized.iter().flatten() {
            textln!("  note: {n}");
        }
        // Issue 46: dice kepi rolled beside those entered with --dice, said plainly (the window's
        // card says the same).
        if let Some(said) = kepi_game::dice::kepi_rolled(&e.dice) {
            textln!("  {said}");
        }
    }
    Ok(())
}

fn reveal(file: &Path, json: bool) -> Result<(), CliError> {
    let mut opened = Store::open(file)?;
    report_open(&opened.warnings);
    let now = Utc::now();
    let secret =
        opened.game.secret().cloned().ok_or_else(|| {
            CliError::failed(format!("{}: this save has no seed", file.display()))
        })?;
    if opened.game.state().dice.revealed.is_none() {
        opened.game.reveal(now)?;
        report_recorded(opened.store.record(&opened.game)?);
    }
    let checked = opened
        .game
        .audit_dice(secret.seed)
        .map_err(|e| CliError::failed(format!("{}: dice check failed: {e}", file.display())))?;
    let commitment = opened.game.state().dice.commitment.clone();
    if json {
        #[derive(Serialize)]
        struct Out<'a> {
            seed: u64,
            salt: &'a str,
            commitment: &'a str,
            dice_checked: usize,
        }
        return print_json(&Out {
            seed: secret.seed,
            salt: &secret.salt,
            commitment: &commitment,
            dice_checked: checked,
        });
    }
    outln!("seed {} (salt {})", secret.seed, secret.salt);
    outln!(
        "commitment {commitment} = SHA-256(\"kepi-seed:{}:{}\"): matches",
        secret.salt,
        secret.seed
    );
    outln!("{checked} seeded dice re-rolled from the seed: all match the log");
    Ok(())
}

/// Runs `kepi log ...`.
pub fn log(a: &LogArgs, tables: Option<&Path>) -> Result<(), CliError> {
    match &a.command {
        LogCommand::Verify {
            file,
            expect_head,
            json,
        } => {
            let loaded;
            let tables: &Tables = match tables {
                Some(d) => {
                    loaded = kepi_game::registry::load_tables(Some(d))?;
                    &loaded
                }
                None => kepi_game::registry::builtin_tables()?,
            };
            verify(file, expect_head.as_deref(), *json, tables)
        }
        LogCommand::Show { file, json } => {
            let game = view(file)?;
            if *json {
                // Each entry as logged, plus "text" (its summary naming the acting unit) and
                // "notes" (what was recorded with it): the same formatter as the window's.
                let entries: Vec<serde_json::Value> = game
                    .log()
                    .iter()
                    .map(|e| {
                        let said = kepi_game::engine::game::entry_text(e, game.state());
                        let mut v = serde_json::to_value(e).unwrap_or_default();
                        if let Some(o) = v.as_object_mut() {
                            o.insert("text".into(), said.line.into());
                            o.insert("notes".into(), said.notes.into());
                        }
                        v
                    })
                    .collect();
                return print_json(&entries);
            }
            for e in game.log() {
                let said = kepi_game::engine::game::entry_text(e, game.state());
                let dice: Vec<String> = e
                    .dice
                    .iter()
                    .map(|d| format!("{} {}={}", d.label, d.die, d.value))
                    .collect();
                textln!(
                    "{:>4} {} T{} {:<28} {}{}{}",
                    e.index,
                    e.time.format("%Y-%m-%d %H:%M:%S"),
                    e.turn,
                    e.phase,
                    said.line,
                    if e.rules.is_empty() {
                        String::new()
                    } else {
                        format!("  [{}]", e.rules.join(" "))
                    },
                    if dice.is_empty() {
                        String::new()
                    } else {
                        format!("  dice: {}", dice.join(", "))
                    },
                );
                for n in &said.notes {
                    textln!("       note: {n}");
                }
            }
            Ok(())
        }
    }
}

/// A head noted at the table, as `--expect-head` takes it: 8 to 64 hex digits, lower-cased.
fn expected_head(h: &str) -> Result<String, CliError> {
    let h = h.trim().to_ascii_lowercase();
    if !(8..=64).contains(&h.len()) || !h.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(CliError::usage(format!(
            "--expect-head: `{h}` is not a chain head (expected 8 to 64 hex digits, e.g. the \"head\" of `kepi game show --json`)"
        )));
    }
    Ok(h)
}

/// A log that verifies: the game, and what was checked of its dice.
struct Verified {
    game: Game,
    /// Seeded dice re-rolled from the seed (`None`: no seed in this file, none revealed yet).
    dice_checked: Option<usize>,
    /// The seed was revealed in the log.
    revealed: bool,
    /// Resolutions resolved again from their logged input and dice ([`game_play::recheck_act`]).
    rechecked: usize,
}

/// `kepi game verify`: checks a save's or a journal's log (see [`verify_file`]) and, with
/// `--expect-head`, that its head is the one noted; says so in words or as JSON.
fn verify(
    file: &Path,
    expect_head: Option<&str>,
    json: bool,
    tables: &Tables,
) -> Result<(), CliError> {
    let name = file.display().to_string();
    let expected = expect_head.map(expected_head).transpose()?;
    let v = match verify_file(file, &name, tables) {
        Ok(v) => v,
        Err((index, reason)) => {
            return Err(broken(&name, expected.as_deref(), json, index, &reason));
        }
    };
    let game = &v.game;
    let head = game.head();
    // Where the noted head is in this log: the head itself, an earlier entry (the game went on,
    // or was cut back), or nowhere (the log was changed before it).
    let noted = noted_at(game, expected.as_deref())?;
    let last = game.log().len().saturating_sub(1);
    let head_matches = noted.map(|n| n == Some(last));
    let dice = match (v.dice_checked, v.revealed) {
        (Some(n), true) => format!("seed revealed, {n} seeded dice match the seed"),
        (Some(n), false) => format!("{n} seeded dice match the seed (held in this save)"),
        (None, _) => "dice not checkable until the seed is revealed".to_string(),
    };
    let mismatch = match (&expected, noted) {
        (Some(h), Some(None)) => Some(format!(
            "chain head {head} is not the expected {h}, which is no entry of this log: the log was changed before that head (or it is another game)"
        )),
        (Some(h), Some(Some(i))) if i != last => Some(format!(
            "chain head {head} is not the expected {h}, which is entry {i}'s: {} entries follow it",
            last - i
        )),
        _ => None,
    };
    if json {
        #[derive(Serialize)]
        struct Out<'a> {
            ok: bool,
            entries: usize,
            head: &'a str,
            dice_checked: Option<usize>,
            // Only when the head does not match: `null`, as a broken chain's would be a number.
            #[serde(skip_serializing_if = "Option::is_none")]
            broken_at: Option<Option<usize>>,
            #[serde(skip_serializing_if = "Option::is_none")]
            reason: Option<&'a str>,
            #[serde(skip_serializing_if = "Option::is_none")]
            expected_head: Option<&'a str>,
            #[serde(skip_serializing_if = "Option::is_none")]
            head_matches: Option<bool>,
        }
        print_json(&Out {
            ok: mismatch.is_none(),
            entries: game.log().len(),
            head: &head,
            dice_checked: v.dice_checked,
            broken_at: mismatch.as_ref().map(|_| None),
            reason: mismatch.as_deref(),
            expected_head: expected.as_deref(),
            head_matches,
        })?;
    }
    if let Some(m) = mismatch {
        return Err(CliError::failed(format!("{name}: {m}")));
    }
    if !json {
        let matched = if head_matches == Some(true) {
            " (the expected head)"
        } else {
            ""
        };
        outln!(
            "{name}: log OK: {} entries, chain head {head}{matched}; {}; {dice}; {} resolution(s) \
             resolved again from their dice, as logged",
            game.log().len(),
            detail(game),
            v.rechecked
        );
    }
    Ok(())
}

/// Reads a save (with its journal) or a journal alone and checks its log: the hash chain, the
/// dice against the seed, nothing stray in the journal, and (issue 29) every resolution that
/// logged its input resolved again from its dice. The error is the entry where the log breaks,
/// when it is known, and why.
fn verify_file(
    file: &Path,
    name: &str,
    tables: &Tables,
) -> Result<Verified, (Option<usize>, String)> {
    let is_journal = name.ends_with(".journal");
    let result: Result<Verified, (Option<usize>, String)> = if is_journal {
        match read_journal(file) {
            Err(e) => Err((None, e.to_string())),
            Ok(j) if j.entries.first().map(|e| e.index) != Some(0) => Err((
                Some(0),
                "the journal does not start with the start of the game".into(),
            )),
            Ok(j) => {
                match kepi_game::engine::game::Game::from_log(j.entries.clone(), j.secret.clone()) {
                    Ok(g) => stray_in_journal(file, &g).and_then(|()| check_dice(g)),
                    Err(kepi_game::engine::game::ReplayError::Chain(b)) => {
                        Err((Some(b.index), b.reason))
                    }
                    Err(kepi_game::engine::game::ReplayError::Entry { index, message }) => {
                        Err((Some(index), message))
                    }
                }
            }
        }
    } else {
        match read_bytes_limited(file) {
            Err(e) => Err((None, e.to_string())),
            Ok(bytes) => verify_save(&bytes, name)
                .and_then(|v| with_journal(file, v))
                .and_then(|v| {
                    stray_in_journal(&kepi_game::store::journal_path(file), &v.game).map(|()| v)
                }),
        }
    };
    // Issue 29: every resolution that logged its input is resolved again from its dice.
    result.and_then(|v| {
        match v
            .game
            .audit_outcomes(|game, action, rev| game_play::recheck_act(game, action, tables, rev))
        {
            Ok(n) => Ok(Verified { rechecked: n, ..v }),
            Err(kepi_game::engine::game::ReplayError::Entry { index, message }) => {
                Err((Some(index), message))
            }
            Err(kepi_game::engine::game::ReplayError::Chain(b)) => Err((Some(b.index), b.reason)),
        }
    })
}

/// A log that does not verify: said as JSON when asked (`ok: false`, where it breaks and why),
/// and as the error `kepi game verify` fails with.
fn broken(
    name: &str,
    expected: Option<&str>,
    json: bool,
    index: Option<usize>,
    reason: &str,
) -> CliError {
    if json {
        #[derive(Serialize)]
        struct Out<'a> {
            ok: bool,
            broken_at: Option<usize>,
            reason: &'a str,
            #[serde(skip_serializing_if = "Option::is_none")]
            expected_head: Option<&'a str>,
            #[serde(skip_serializing_if = "Option::is_none")]
            head_matches: Option<bool>,
        }
        if let Err(e) = print_json(&Out {
            ok: false,
            broken_at: index,
            reason,
            expected_head: expected,
            head_matches: expected.map(|_| false),
        }) {
            return e;
        }
    }
    CliError::failed(match index {
        Some(i) => format!("{name}: log broken at entry {i}: {reason}"),
        None => format!("{name}: {reason}"),
    })
}

/// Where the head noted with `--expect-head` is in this log: the head itself, an earlier entry
/// (the game went on, or was cut back), or nowhere (`Some(None)`: the log was changed before
/// it); `None` when no head was noted. A prefix that starts several entries' hashes is refused.
fn noted_at(game: &Game, expected: Option<&str>) -> Result<Option<Option<usize>>, CliError> {
    let noted: Option<Result<Option<usize>, String>> = expected.map(|h| {
        let hits: Vec<usize> = game
            .log()
            .iter()
            .filter(|e| e.hash.starts_with(h))
            .map(|e| e.index as usize)
            .collect();
        match hits.as_slice() {
            [] => Ok(None),
            [i] => Ok(Some(*i)),
            _ => Err(format!(
                "--expect-head: `{h}` is the start of {} entries' hashes; give more digits",
                hits.len()
            )),
        }
    });
    match noted {
        Some(Err(m)) => Err(CliError::usage(m)),
        Some(Ok(x)) => Ok(Some(x)),
        None => Ok(None),
    }
}

fn detail(g: &Game) -> String {
    format!(
        "replays to turn {}, {}",
        g.state().turn,
        g.state().phase_name()
    )
}

/// Re-rolls the game's seeded dice whenever the seed is known: the file's own secret (the
/// umpire's save or journal) or the seed revealed in the log.
fn check_dice(game: Game) -> Result<Verified, (Option<usize>, String)> {
    let revealed = game.log().iter().rev().find_map(|e| match &e.kind {
        EntryKind::Reveal { seed, .. } => Some(*seed),
        _ => None,
    });
    let seed = game.secret().map(|s| s.seed).or(revealed);
    let dice_checked = match seed {
        None => None,
        Some(seed) => match game.audit_dice(seed) {
            Ok(n) => Some(n),
            Err(kepi_game::engine::game::ReplayError::Entry { index, message }) => {
                return Err((
                    Some(index),
                    format!("dice do not match the seed: {message}"),
                ));
            }
            Err(e) => return Err((None, format!("dice do not match the seed: {e}"))),
        },
    };
    Ok(Verified {
        game,
        dice_checked,
        revealed: revealed.is_some(),
        rechecked: 0,
    })
}

fn verify_save(bytes: &[u8], name: &str) -> Result<Verified, (Option<usize>, String)> {
    let v: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| {
        (
            None,
            format!(
                "not readable JSON at line {}, column {}: {e}",
                e.line(),
                e.column()
            ),
        )
    })?;
    let v = kepi_game::store::migrate(v, name).map_err(|e| (None, e.to_string()))?;
    // Read the entries one by one, so an entry edited beyond recognition is named by its index.
    let raw_log = v
        .get("log")
        .and_then(|l| l.as_array())
        .cloned()
        .unwrap_or_default();
    let mut log = Vec::with_capacity(raw_log.len());
    for (i, e) in raw_log.into_iter().enumerate() {
        let entry = LogEntry::deserialize(&e)
            .map_err(|err| (Some(i), format!("not a log entry: {err}")))?;
        if let Some(m) = kepi_game::engine::game::stray_member(&e, &entry) {
            return Err((Some(i), m));
        }
        log.push(entry);
    }
    verify_chain(&log).map_err(|b| (Some(b.index), b.reason))?;
    let save: SaveFile =
        serde_json::from_value(v).map_err(|e| (None, format!("not a kepi save: {e}")))?;
    let game = save.into_game(name).map_err(|e| (None, e.to_string()))?;
    check_dice(game)
}

/// Issue 44: each entry line of the journal at `path` read as written, checked for a member kepi
/// does not write back ([`kepi_game::engine::game::stray_member`]) against `game`'s entry of the same
/// index and hash. Lines that do not read (a torn last line) were judged by the journal's reader.
fn stray_in_journal(path: &Path, game: &Game) -> Result<(), (Option<usize>, String)> {
    if !kepi_game::fsio::present(path) {
        return Ok(());
    }
    let bytes = read_bytes_limited(path).map_err(|e| (None, e.to_string()))?;
    for line in bytes.split(|&b| b == b'\n') {
        let Ok(v) = serde_json::from_slice::<serde_json::Value>(line) else {
            continue;
        };
        let Some(raw) = v.get("entry") else {
            continue;
        };
        let Some(e) = raw
            .get("index")
            .and_then(serde_json::Value::as_u64)
            .and_then(|i| game.log().get(usize::try_from(i).ok()?))
            .filter(|e| raw.get("hash").and_then(serde_json::Value::as_str) == Some(&e.hash))
        else {
            continue;
        };
        if let Some(m) = kepi_game::engine::game::stray_member(raw, e) {
            return Err((Some(e.index as usize), m));
        }
    }
    Ok(())
}

/// A save's log verified on its own is extended by its journal's entries beyond it (the save is
/// rewritten only every few hundred actions, on idle and on close; the journal holds the rest). The
/// journal's lines must continue the save's chain, and their dice are checked with the rest.
fn with_journal(file: &Path, v: Verified) -> Result<Verified, (Option<usize>, String)> {
    let mut game = v.game;
    let saved = game.log().len();
    match kepi_game::store::extend_with_journal(&mut game, file) {
        Err(e) => Err((Some(saved), e.to_string())),
        Ok(0) => Ok(Verified { game, ..v }),
        Ok(_) => check_dice(game),
    }
}

/// Runs `kepi cards`, `kepi cards check`, `kepi cards import` and `kepi cards convert`.
pub fn cards(a: &CardFilesArgs, tables: Option<&Path>) -> Result<(), CliError> {
    match &a.command {
        None => crate::export_cmd::run_cards(&a.print, &crate::docs(tables)?),
        Some(CardsCommand::Import(i)) => crate::import_cmd::run(i),
        Some(CardsCommand::Convert(c)) => crate::convert_cmd::run(c),
        Some(CardsCommand::Check { path, json }) => {
            let reports = kepi_game::roster::check_path(path)?;
            if *json {
                return print_json(&reports);
            }
            for r in &reports {
                let sc = if r.scenario.is_empty() {
                    String::new()
                } else {
                    format!(" (scenario {})", r.scenario)
                };
                outln!("{}: {} unit card(s) OK{sc}", r.file, r.units);
            }
            if reports.is_empty() {
                outln!("{}: no .toml card files found", path.display());
            }
            Ok(())
        }
    }
}
