//! The resolution verbs of `kepi game apply`: `fire`, `artillery`, `melee`, `rally`, `flag-roll` and
//! `fatigue-check` between units of a game. Each builds the rule set's resolver form
//! ([`crate::play::Form`]), pre-fills it from the units' live state, applies the options typed after
//! the units, and resolves it through [`crate::game::Game::resolve_about`]: the dice are kepi's seeded
//! dice (or the `--dice` entered), the outcome lands on the units and in the log as one undo step, and
//! it answers the due check it is the roll for.

use crate::cli::CliError;
use crate::dice::{Die, Ratio};
use crate::game::GameState;
use crate::play::Form;
use crate::play::pk::{PkAction, PkForm};
use crate::rules::System;
use crate::rules::pk::{Cover, Facing, Officer, Position, morale::GeneralDeath};
use crate::tables::Tables;

/// The resolution verbs.
pub(super) const PLAY_VERBS: &[&str] = &[
    "fire",
    "artillery",
    "melee",
    "rally",
    "flag-roll",
    "fatigue-check",
];

/// Options that take a value.
const VALUE_OPTS: &[&str] = &[
    "cover",
    "range",
    "dice",
    "move",
    "position",
    "ranks",
    "second-rank",
    "officer",
    "general-death",
    "figures",
    "figures-lost",
];

/// One parsed resolution verb.
#[derive(Clone, Debug)]
pub(super) struct PlayVerb {
    /// The form's name ("fire").
    pub form: &'static str,
    /// The acting unit's id.
    pub actor: String,
    /// The target's id.
    pub target: Option<String>,
    /// `--name [value]` options, in order.
    pub opts: Vec<(String, Option<String>)>,
    /// Physical dice entered with `--dice DIE=VALUE`.
    pub entered: Vec<(Die, u32)>,
}

impl PlayVerb {
    /// The units to log with the resolution (actor, then target).
    pub fn units(&self) -> Vec<String> {
        let mut u = vec![self.actor.clone()];
        u.extend(self.target.clone());
        u
    }
}

/// Parses a resolution verb's units and options from `words[*i..]` (the verb itself already taken).
pub(super) fn parse(
    verb: &str,
    words: &[String],
    i: &mut usize,
    s: &GameState,
    tables: &Tables,
) -> Result<PlayVerb, CliError> {
    let form = PLAY_VERBS
        .iter()
        .find(|v| **v == verb)
        .copied()
        .ok_or_else(|| CliError::usage(format!("`{verb}` is not a resolution verb")))?;
    if s.system != System::Pk {
        return Err(CliError::usage(format!(
            "`{verb}`: kepi resolves units in play for Pickelhaube & Kepi games only so far; this game \
             is {} (use `kepi resolve {}` and apply the result with lose/level/flag)",
            s.system.title(),
            s.system.id()
        )));
    }
    let needs_target = matches!(form, "fire" | "artillery" | "melee");
    let what = if needs_target { "UNIT TARGET" } else { "UNIT" };
    let take = |i: &mut usize| -> Result<String, CliError> {
        let w = words
            .get(*i)
            .filter(|w| !w.starts_with("--"))
            .ok_or_else(|| {
                CliError::usage(format!(
                    "`{verb}` needs {what} (see `kepi game apply --help`)"
                ))
            })?;
        *i += 1;
        Ok(s.find(w)?.unit.id.clone())
    };
    let actor = take(i)?;
    let target = if needs_target { Some(take(i)?) } else { None };
    let mut opts = Vec::new();
    let mut entered = Vec::new();
    while let Some(body) = words.get(*i).and_then(|w| w.strip_prefix("--")) {
        *i += 1;
        let (name, inline) = match body.split_once('=') {
            Some((n, v)) => (n.to_ascii_lowercase(), Some(v.to_string())),
            None => (body.to_ascii_lowercase(), None),
        };
        let value = if VALUE_OPTS.contains(&name.as_str()) {
            match inline {
                Some(v) => Some(v),
                None => {
                    let v = words.get(*i).cloned().ok_or_else(|| {
                        CliError::usage(format!("`{verb} --{name}` needs a value"))
                    })?;
                    *i += 1;
                    Some(v)
                }
            }
        } else {
            inline
        };
        if name == "dice" {
            entered.extend(parse_dice(value.as_deref().unwrap_or(""), verb)?);
        } else {
            opts.push((name, value));
        }
    }
    let v = PlayVerb {
        form,
        actor,
        target,
        opts,
        entered,
    };
    // Check the options now, so a typo refuses the whole command before anything applies.
    build(&v, s, tables)?;
    Ok(v)
}

/// `d10=7`, `d%=34`, or several separated by commas.
fn parse_dice(text: &str, verb: &str) -> Result<Vec<(Die, u32)>, CliError> {
    let bad =
        |m: String| CliError::usage(format!("`{verb} --dice`: {m} (e.g. --dice d10=7,d%=34)"));
    let mut out = Vec::new();
    for part in text.split(',').filter(|p| !p.trim().is_empty()) {
        let (d, v) = part
            .split_once('=')
            .ok_or_else(|| bad(format!("`{part}` is not DIE=VALUE")))?;
        let die: Die = d.parse().map_err(|e| bad(format!("{e}")))?;
        let value: u32 = v
            .trim()
            .parse()
            .map_err(|_| bad(format!("`{v}` is not a number")))?;
        die.check(value).map_err(|e| bad(e.to_string()))?;
        out.push((die, value));
    }
    if out.is_empty() {
        return Err(bad("no dice given".into()));
    }
    Ok(out)
}

/// The form for a verb, pre-filled from the units' state now and set by its options.
pub(super) fn build(v: &PlayVerb, s: &GameState, tables: &Tables) -> Result<Form, CliError> {
    let name = match v.form {
        "flag-roll" => "flag",
        "fatigue-check" => "fatigue",
        n => n,
    };
    let mut form = PkForm::all()
        .into_iter()
        .find(|f| f.name() == name)
        .ok_or_else(|| CliError::failed(format!("no resolver form `{name}`")))?;
    form.prefill(s, Some(&v.actor), v.target.as_deref(), &tables.pk);
    if v.form == "artillery" && !v.opts.iter().any(|(n, _)| n == "range") {
        return Err(CliError::usage(
            "`artillery` needs --range INCHES (the distance to the target)",
        ));
    }
    for (n, val) in &v.opts {
        set_opt(&mut form.action, v.form, n, val.as_deref())?;
    }
    let form = Form::Pk(form);
    // Issue 17: the same checks as the window's (crate::play::refuse), before anything applies.
    if let Some(why) = crate::play::refuse::unused_die(&form, &v.entered) {
        return Err(CliError::usage(format!("`{} --dice`: {why}", v.form)));
    }
    if let Some(why) = form.refusal(s) {
        return Err(CliError::usage(format!("`{}`: {why}", v.form)));
    }
    Ok(form)
}

fn set_opt(a: &mut PkAction, verb: &str, name: &str, val: Option<&str>) -> Result<(), CliError> {
    let bad = |m: String| CliError::usage(format!("`{verb} --{name}`: {m}"));
    let text = || val.unwrap_or("");
    let ratio = || text().parse::<Ratio>().map_err(&bad);
    let count = || {
        text()
            .parse::<u32>()
            .map_err(|_| bad(format!("`{}` is not a count", text())))
    };
    let cover = || text().parse::<Cover>().map_err(&bad);
    let officer = || text().parse::<Officer>().map_err(&bad);
    let flag = || match val {
        None => Ok(true),
        Some(v) => match v.to_ascii_lowercase().as_str() {
            "on" | "true" | "yes" | "1" => Ok(true),
            "off" | "false" | "no" | "0" => Ok(false),
            _ => Err(bad(format!("`{v}` (accepted: on, off)"))),
        },
    };
    let unknown = |accepted: &str| {
        CliError::usage(format!(
            "`{verb}`: unknown option `--{name}` (accepted: {accepted}, --dice DIE=VALUE)"
        ))
    };
    match a {
        PkAction::Fire(i) => match name {
            "enfilade" => i.enfilade = flag()?,
            "vs-cavalry" => i.vs_cavalry = flag()?,
            "supporting" => i.supporting = flag()?,
            "skirmish" => i.skirmish = flag()?,
            "mounted" => i.mounted = flag()?,
            "disordered" => i.disordered = flag()?,
            "target-disordered" => i.target_disordered = flag()?,
            "target-skirmish" => i.target_skirmish = flag()?,
            "cover" => i.cover = cover()?,
            "range" => i.range = Some(ratio()?),
            "figures" => i.figures = count()?,
            "officer" => i.target_officer = Some(officer()?),
            _ => {
                return Err(unknown(
                    "--enfilade, --vs-cavalry, --supporting, --skirmish, --mounted, --disordered, \
                     --target-disordered, --target-skirmish, --cover KIND, --range INCHES, \
                     --figures N, --officer general|staff",
                ));
            }
        },
        PkAction::Artillery(i) => match name {
            "range" => i.range = ratio()?,
            "canister" => i.canister = flag()?,
            "downhill" => i.downhill = flag()?,
            "uphill" => i.uphill = flag()?,
            "counter-battery" => i.counter_battery = flag()?,
            "enfilade" => i.enfilade = flag()?,
            "over-friends" => i.over_friends = flag()?,
            "supporting" => i.supporting = flag()?,
            "target-disordered" => i.target_disordered = flag()?,
            "target-skirmish" => i.target_skirmish = flag()?,
            "cover" => i.cover = cover()?,
            "officer" => i.target_officer = Some(officer()?),
            _ => {
                return Err(unknown(
                    "--range INCHES, --canister, --downhill, --uphill, --counter-battery, \
                     --enfilade, --over-friends, --supporting, --target-disordered, \
                     --target-skirmish, --cover KIND, --officer general|staff",
                ));
            }
        },
        PkAction::Melee { a, b } => match name {
            "flank" => a.facing = Facing::Flank,
            "rear" => a.facing = Facing::Rear,
            "charge" => a.charge = flag()?,
            "joined" => a.joined = flag()?,
            "move" => {
                let m = count()?;
                if m == 0 {
                    return Err(bad("the first move is 1".into()));
                }
                a.melee_move = m;
                b.melee_move = m;
            }
            "position" => b.position = text().parse::<Position>().map_err(&bad)?,
            "ranks" => {
                let r = count()?;
                if !(1..=2).contains(&r) {
                    return Err(bad("1 or 2".into()));
                }
                a.ranks = Some(r as u8);
            }
            "second-rank" => a.second_rank = count()?,
            "officer" => a.target_officer = Some(officer()?),
            _ => {
                return Err(unknown(
                    "--flank, --rear, --charge, --joined, --move N, --position open|building|barrier, \
                     --ranks 1|2, --second-rank N, --officer general|staff",
                ));
            }
        },
        PkAction::Rally(i) => match name {
            "brigaded" => i.brigaded = flag()?,
            "officer" => i.officer = Some(officer()?),
            "general-death" => {
                i.general_death = match text() {
                    "none" => GeneralDeath::None,
                    "nearby" => GeneralDeath::Nearby,
                    "with-unit" => GeneralDeath::WithUnit,
                    t => return Err(bad(format!("`{t}` (accepted: none, nearby, with-unit)"))),
                }
            }
            "figures-lost" => i.figures_lost = Some(count()?),
            _ => {
                return Err(unknown(
                    "--brigaded, --officer general|staff, --general-death none|nearby|with-unit, \
                     --figures-lost N",
                ));
            }
        },
        PkAction::Flag { .. } | PkAction::Fatigue { .. } => return Err(unknown("none")),
    }
    Ok(())
}
