//! The resolution verbs of `kepi game apply`: every resolver form of every rule set
//! ([`kepi_game::engine::play::Form::all_for`]) between units of a game, in one grammar.
//!
//! A verb names its units (`fire FIRER TARGET`, `rally UNIT`, `combat --attackers A,B --hex HEX`)
//! and takes the options of its `kepi resolve SYSTEM FORM` command, parsed by that command's own clap
//! declaration (see [`grammar::form_command`]): each option is declared once, for both commands.
//! The form is pre-filled from the units' live state ([`Form::prefill`]); only the options typed
//! override it. `--dice DIE=VALUE` enters physical dice. The form resolves through
//! [`kepi_game::engine::game::Game::resolve_about`]: kepi's seeded dice (or the dice entered), the outcome on the
//! units and in the log as one undo step, answering the due check it is the roll for.
//!
//! Only the game's rule set's verbs are accepted (`artillery` is a P&K, PW or GSP verb by the game).

use std::collections::BTreeSet;

use clap::parser::ValueSource;
use clap::{ArgAction, Args, Command, FromArgMatches};

use super::grammar;
use crate::moves::MoveError;
use kepi_game::dice::{DiceSource, Die};
use kepi_game::engine::game::GameState;
use kepi_game::engine::play::Form;
use kepi_game::engine::play::breaches::WentAhead;
use kepi_game::engine::verbs::MoveErrorKind;
use kepi_game::engine::verbs::Units;
pub use kepi_game::engine::verbs::{Given, VerbSpec};
use kepi_game::registry::RuleSetRef;
use kepi_game::roster::Position;
use kepi_game::rules::Tables;
use kepi_game::rules::{RuleError, RuleSetId};

/// `--dice`: the physical dice of every resolution verb.
#[derive(Debug, Args)]
struct DiceOpt {
    /// Physical dice you rolled, DIE=VALUE[,DIE=VALUE] (d6, d10, d%), in the order the roll uses
    /// them; kepi rolls the rest and says so; a die not used is refused.
    #[arg(long, value_name = "DIE=VALUE")]
    dice: Vec<String>,
}

/// The option grammar of `spec`, a verb of `system`: the `kepi resolve` command's declaration made fit for play
/// (every option optional, since the units fill the form, except `required`; flags take
/// `--flag=off` to clear what the units set), plus the play-only options.
pub(crate) fn spec_command(system: RuleSetId, spec: &VerbSpec) -> Result<Command, MoveError> {
    let base = grammar::form_command(system.id(), spec.resolve).ok_or_else(|| {
        MoveError::failed(format!(
            "internal: no `kepi resolve {} {}`",
            system.id(),
            spec.resolve
        ))
    })?;
    let groups: Vec<String> = base
        .get_groups()
        .map(|g| g.get_id().as_str().to_string())
        .collect();
    let mut cmd = groups
        .iter()
        .fold(base, |c, g| c.mut_group(g, |g| g.required(false)));
    let required = spec.required;
    cmd = cmd.mut_args(|a| {
        let keep = required.contains(&a.get_id().as_str());
        let a = a
            .required(keep)
            .required_unless_present(clap::builder::Resettable::<clap::Id>::Reset);
        if matches!(a.get_action(), ArgAction::SetTrue) {
            a.action(ArgAction::Set)
                .num_args(0..=1)
                .require_equals(true)
                .default_missing_value("on")
                .default_value(None::<&'static str>)
                .value_name("on|off")
                .value_parser(on_off)
        } else {
            a
        }
    });
    cmd = <DiceOpt as Args>::augment_args((spec.extra)(cmd));
    Ok(cmd
        .name(spec.verb)
        .no_binary_name(true)
        .disable_help_flag(true)
        .disable_version_flag(true))
}

/// A flag's value in play: `--flag` or `--flag=on` sets it, `--flag=off` clears what the units set.
fn on_off(v: &str) -> Result<bool, String> {
    match v.to_ascii_lowercase().as_str() {
        "on" | "true" | "yes" | "1" => Ok(true),
        "off" | "false" | "no" | "0" => Ok(false),
        _ => Err(format!("`{v}` (accepted: on, off)")),
    }
}

/// The resolution verbs of a rule set.
pub(crate) fn specs_for(system: RuleSetId) -> impl Iterator<Item = &'static VerbSpec> {
    RuleSetRef::from(system).verb_specs().iter()
}

/// The resolution verbs of a rule set, by name: its forms', then its unit-less ones.
/// The verbs of a rule set's resolver forms (the resolutions a player's seat may make with its own
/// units over the network).
pub(crate) fn form_verbs_for(system: RuleSetId) -> Vec<String> {
    specs_for(system).map(|s| s.verb.to_string()).collect()
}

/// Every resolution verb a rule set's games take (forms and unit-less actions).
pub fn verbs_for(system: RuleSetId) -> Vec<String> {
    specs_for(system)
        .map(|s| s.verb.to_string())
        .chain(plain_verbs(system))
        .collect()
}

/// A request with `system`'s first resolution verb, its units and required options named as its
/// usage names them ("combat --attackers UNIT,UNIT --hex HEX" in 1870): the hint of a request
/// typed by hand, never another rule set's verb. `None` for a rule set without resolution verbs.
pub fn request_example(system: RuleSetId) -> Option<String> {
    let spec = specs_for(system).next()?;
    let mut words = vec![spec.verb.to_string()];
    match spec.units {
        Units::One(unit) => words.push(unit.to_string()),
        Units::Two(actor, target) => words.extend([actor.to_string(), target.to_string()]),
        Units::Hex(_) => words.push("--attackers UNIT,UNIT --hex HEX".into()),
    }
    words.extend(
        spec.required
            .iter()
            .map(|r| format!("--{r} {}", r.to_ascii_uppercase())),
    );
    Some(words.join(" "))
}

/// One parsed resolution verb.
#[derive(Clone, Debug)]
pub struct PlayVerb {
    /// The verb ("fire").
    pub form: String,
    /// The acting unit's id (the first attacker of a combat).
    pub actor: String,
    /// The target's id.
    pub target: Option<String>,
    /// A combat's attackers, by id.
    attackers: Vec<String>,
    /// A combat's hex.
    hex: Option<Position>,
    /// What it resolves.
    kind: Kind,
    /// Physical dice entered with `--dice DIE=VALUE`.
    pub entered: Vec<(Die, u32)>,
}

impl PlayVerb {
    /// This verb with the options its rule set reads from the game now where none were typed
    /// ([`kepi_game::engine::rule_set::RuleSet::plain_defaults`]; a unit-less verb only). Logged with
    /// the verb, so `kepi log verify` resolves it again from the same words.
    pub fn with_game_defaults(mut self, s: &GameState) -> PlayVerb {
        if let Kind::Plain(words) = &mut self.kind {
            let more = s.system.plain_defaults(&self.form, words, s);
            words.extend(more);
        }
        self
    }

    /// What the log keeps of this verb, ready as `ready`, for `kepi log verify` to resolve it
    /// again ([`recheck`]): the form, or the words of its `kepi resolve` action.
    pub fn logged_input(&self, ready: &Ready) -> Option<serde_json::Value> {
        match (&self.kind, ready) {
            (Kind::Plain(words), _) => Some(serde_json::json!({ "resolve": words })),
            (_, Ready::Form(f)) => serde_json::to_value(&**f).ok(),
            _ => None,
        }
    }
}

/// Issue 44: what a logged action holds beyond its input, recomputed on `game` as it was before
/// it (its log up to there) and compared: a resolution that logged its input is resolved again
/// ([`recheck`]; `Ok(true)`), a move's notes are what the rules say against it
/// ([`kepi_game::engine::flow::move_notes`], with the cost it logged: the umpire's or the board's), a
/// roll's dice labels and total what its expression makes of its dice, a due check's effects
/// those it gives (or none, as a campaign and older kepis log it). `Ok(false)`
/// when nothing was resolved again and nothing differs. `rev` is the entry's revision
/// ([`kepi_game::engine::game::LOG_REVISION`]): the notes an older kepi did not write are excused in
/// its entries only.
pub fn recheck_act(
    game: &kepi_game::engine::game::Game,
    action: &kepi_game::engine::game::Action,
    tables: &Tables,
    rev: u32,
) -> Result<bool, String> {
    use kepi_game::engine::game::Action;
    match action {
        Action::Resolved {
            input: Some(input), ..
        } => recheck(game, input, action, tables, rev).map(|()| true),
        Action::Move {
            unit,
            to,
            notes,
            mp,
            effects,
        } => {
            // Since log revision 3 a move logs what it does to the board (SPI-E2's rail cut); an
            // earlier kepi's move logged none.
            // Effects a rule set records only since a later revision (SPI-E2's secured lines,
            // since 5) are not asked of an older move.
            let made: Vec<Action> = kepi_game::engine::flow::move_effects(game.state(), unit, *to)
                .into_iter()
                .filter(|a| game.state().system.effect_revision("move", a) <= rev)
                .collect();
            let excused =
                rev < kepi_game::engine::game::MOVE_EFFECTS_REVISION && effects.is_empty();
            if *effects != made && !excused {
                return Err(format!(
                    "`action.effects`: logged {}, but the move on the game before it gives {}",
                    json(effects),
                    json(&made)
                ));
            }
            let again: Vec<String> =
                kepi_game::engine::flow::move_notes(game, unit, *to, *mp, tables)
                    .into_iter()
                    .map(|w| format!("umpire went ahead: {w}"))
                    .collect();
            // A move an earlier kepi logged lacks the breaches noted since issue 42.
            if !kepi_game::engine::play::breaches::same_but_newer(
                (game.state(), rev),
                notes,
                &again,
                same_words,
            ) {
                return Err(format!(
                    "`action.notes`: logged {}, but the move on the game before it gives {}",
                    json(notes),
                    json(&again)
                ));
            }
            Ok(false)
        }
        // Issue 42: a count set logs what the rules say against it (an eliminated unit
        // brought back); an earlier kepi's entry lacks that note.
        Action::SetCount {
            unit,
            counter,
            value,
            notes,
        } => {
            let Action::SetCount { notes: again, .. } = kepi_game::engine::flow::set_count_action(
                game.state(),
                unit.clone(),
                *counter,
                *value,
            ) else {
                return Ok(false);
            };
            if !kepi_game::engine::play::breaches::same_but_newer(
                (game.state(), rev),
                notes,
                &again,
                same_words,
            ) {
                return Err(format!(
                    "`action.notes`: logged {}, but the change on the game before it gives {}",
                    json(notes),
                    json(&again)
                ));
            }
            Ok(false)
        }
        // A roll's dice are its input; their labels and total are what its expression makes of
        // them.
        Action::Roll {
            expr, dice, total, ..
        } => {
            let mut src = DiceSource::entered_only();
            for r in dice {
                src.enter(r.die, r.value)
                    .map_err(|e| format!("`action.dice`: logged {} {}: {e}", r.label, r.die))?;
            }
            let again = src
                .roll_expr(expr)
                .map_err(|e| format!("`action.dice`: {e} (the roll is {expr})"))?;
            let rolled = src.take_rolls();
            if faces(&rolled) != faces(dice) {
                return Err(format!(
                    "`action.dice`: logged {}, but {expr} rolls {}",
                    json(dice),
                    json(&rolled)
                ));
            }
            if again.total != *total {
                return Err(format!(
                    "`action.total`: logged {total}, but its dice give {}",
                    again.total
                ));
            }
            Ok(false)
        }
        Action::ResolveDue { id, effects } if !effects.is_empty() => {
            let again = kepi_game::engine::flow::resolve_due(game.state(), *id, tables);
            if again != *action {
                return Err(format!(
                    "`action.effects`: logged {}, but the check done on the game before it gives {}",
                    json(effects),
                    json(&again)
                ));
            }
            Ok(false)
        }
        _ => Ok(false),
    }
}

/// Issues 29 and 44: resolves a logged resolution again from its logged input and dice, with the
/// same rule functions `kepi game apply` and the window call, on `game` as it was before it (its
/// log up to there), and says which member differs from the log: the rule set and action, each
/// modifier line (label, value, effect, rule id, provenance, how many), the dice's labels and
/// values, the outcome, the summary, the odds, the line rolled, the notes (what the umpire went
/// ahead with against the phase or the text included, [`Ready::phase_warnings`]), the effects and
/// the units logged with it; `Ok` when nothing does.
pub(crate) fn recheck(
    game: &kepi_game::engine::game::Game,
    input: &serde_json::Value,
    action: &kepi_game::engine::game::Action,
    tables: &Tables,
    rev: u32,
) -> Result<(), String> {
    let kepi_game::engine::game::Action::Resolved {
        resolution,
        effects,
        units,
        ..
    } = action
    else {
        return Ok(());
    };
    let state = game.state();
    let mut dice = DiceSource::entered_only();
    for r in &resolution.dice {
        dice.enter(r.die, r.value)
            .map_err(|e| format!("logged {} {}: {e}", r.label, r.die))?;
    }
    let Again {
        res,
        fx,
        warnings,
        units_fit,
    } = resolve_again(game, input, units, tables, &mut dice)?;
    same_rolls(state, resolution, &res)?;
    same_result(resolution, &res)?;
    same_notes((state, rev), resolution, &res, &warnings)?;
    // Effects kepi records only since a later revision than the entry's are not asked of it.
    let fx: Vec<kepi_game::engine::game::Action> = fx
        .into_iter()
        .filter(|a| state.system.effect_revision(&resolution.action, a) <= rev)
        .collect();
    if !older_forms(state.system, &resolution.action, &fx).contains(effects) {
        let show = |v: &[kepi_game::engine::game::Action]| {
            serde_json::to_string(v).unwrap_or_else(|e| e.to_string())
        };
        return Err(format!(
            "`effects`: the logged effects {} are not what its outcome gives: {}",
            show(effects),
            show(&fx)
        ));
    }
    if !units_fit {
        return Err(format!(
            "`units`: logged {}, which are not the units its input names",
            json(units)
        ));
    }
    Ok(())
}

/// A logged resolution resolved again, as [`recheck`] compares it with the log.
struct Again {
    /// The resolution its input and dice give.
    res: kepi_game::rules::Resolution<serde_json::Value>,
    /// The effects its outcome gives.
    fx: Vec<kepi_game::engine::game::Action>,
    /// The phase warnings and breaches the umpire went ahead with (a form's only).
    warnings: Vec<String>,
    /// The units logged with it are those its input names.
    units_fit: bool,
}

/// Why a logged input does not resolve again, in [`recheck`]'s words.
fn not_again(e: String) -> String {
    format!("its logged input does not resolve again: {e}")
}

/// [`recheck`]'s words for a member that differs: what is logged, and what the input gives.
fn given(what: &str, logged: String, again: String) -> String {
    format!("`{what}`: logged {logged}, but its input, dice and the game before it give {again}")
}

/// Resolves the logged `input` again with the logged `dice`: a `kepi resolve` command's words
/// through the command tree, or a form through the rule set's own. The units kepi logs with it:
/// none for a unit-less action; for a form, the acting unit and its target (`kepi game apply
/// VERB UNIT TARGET`, `form`, the window), or a hex combat's attackers as `combat --attackers A,B
/// --hex HEX` names them.
fn resolve_again(
    game: &kepi_game::engine::game::Game,
    input: &serde_json::Value,
    units: &[String],
    tables: &Tables,
    dice: &mut DiceSource,
) -> Result<Again, String> {
    let state = game.state();
    match input.get("resolve") {
        Some(words) => {
            let words: Vec<String> =
                serde_json::from_value(words.clone()).map_err(|e| not_again(e.to_string()))?;
            let m = grammar::command_tree()
                .clone()
                .try_get_matches_from(std::iter::once("resolve".to_string()).chain(words))
                .map_err(|e| not_again(e.to_string()))?;
            let x = grammar::ResolveRuleSet::from_arg_matches(&m)
                .map_err(|e| not_again(e.to_string()))?;
            let ctx = grammar::Ctx {
                tables,
                dice: Some(dice),
                scale: state.scale,
            };
            let r = grammar::run_system(&x, ctx).map_err(|e| not_again(e.message))?;
            let fx = state.system.plain_effects(&r, state);
            Ok(Again {
                res: r,
                fx,
                warnings: Vec::new(),
                units_fit: units.is_empty(),
            })
        }
        None => {
            let form = Form::from_value(state.system, input).ok_or_else(|| {
                not_again(format!("no form of {} reads it", state.system.title()))
            })?;
            let warnings = kepi_game::engine::play::breaches::warnings(&form, game, tables);
            let fits = units_fit(&form, units);
            let (r, fx) = form
                .resolve(state, tables, Some(dice))
                .map_err(|e| not_again(e.to_string()))?;
            Ok(Again {
                res: r,
                fx,
                warnings,
                units_fit: fits,
            })
        }
    }
}

/// The rule set, the action, the modifier lines and the dice, logged and given again, compared
/// in that order. A die an earlier kepi logged under another label (the rule set says which)
/// still verifies: the die, its value and its place are the same.
fn same_rolls(
    state: &GameState,
    resolution: &kepi_game::rules::Resolution<serde_json::Value>,
    res: &kepi_game::rules::Resolution<serde_json::Value>,
) -> Result<(), String> {
    if res.system != resolution.system {
        return Err(given(
            "resolution.system",
            resolution.system.to_string(),
            res.system.to_string(),
        ));
    }
    if res.action != resolution.action {
        return Err(given(
            "resolution.action",
            json(&resolution.action),
            json(&res.action),
        ));
    }
    modifiers_match(&resolution.modifiers, &res.modifiers)
        .map_err(|(what, l, a)| given(&what, l, a))?;
    let mut again_dice = res.dice.clone();
    for (a, l) in again_dice.iter_mut().zip(&resolution.dice) {
        if state
            .system
            .dice_label_before_issue_46(&res.action, &a.label)
            .is_some_and(|older| older == l.label)
        {
            a.label = l.label.clone();
        }
    }
    if let Some(k) = (0..resolution.dice.len().max(again_dice.len()))
        .find(|&k| faces(&resolution.dice).get(k) != faces(&again_dice).get(k))
    {
        return Err(given(
            &format!("resolution.dice[{k}]"),
            json(&resolution.dice.get(k)),
            json(&again_dice.get(k)),
        ));
    }
    Ok(())
}

/// The outcome, the summary, the odds and the line rolled, logged and given again, compared in
/// that order.
fn same_result(
    resolution: &kepi_game::rules::Resolution<serde_json::Value>,
    res: &kepi_game::rules::Resolution<serde_json::Value>,
) -> Result<(), String> {
    if res.outcome != resolution.outcome {
        return Err(format!(
            "`resolution.outcome`: the logged outcome differs from what its input and dice give: \
             {} (if the game was played with other rule tables, give them with --tables)",
            differences(resolution.outcome.as_ref(), res.outcome.as_ref())
        ));
    }
    if !same_words(&resolution.summary, &res.summary) {
        return Err(format!(
            "`resolution.summary`: the logged result says \"{}\" but its input and dice give \"{}\"",
            resolution.summary, res.summary
        ));
    }
    let same_odds = |l: &kepi_game::rules::OddsLine, a: &kepi_game::rules::OddsLine| {
        l.p == a.p && same_words(&l.outcome, &a.outcome)
    };
    if resolution.odds.len() != res.odds.len()
        || !resolution
            .odds
            .iter()
            .zip(&res.odds)
            .all(|(l, a)| same_odds(l, a))
    {
        let k = (0..resolution.odds.len().max(res.odds.len()))
            .find(|&k| match (resolution.odds.get(k), res.odds.get(k)) {
                (Some(l), Some(a)) => !same_odds(l, a),
                _ => true,
            })
            .unwrap_or(0);
        return Err(given(
            &format!("resolution.odds[{k}]"),
            json(&resolution.odds.get(k)),
            json(&res.odds.get(k)),
        ));
    }
    if res.rolled != resolution.rolled {
        return Err(given(
            "resolution.rolled",
            json(&resolution.rolled),
            json(&res.rolled),
        ));
    }
    Ok(())
}

/// The notes, logged and given again: the rule's own notes, then one per warning the umpire went
/// ahead with. The breaches are logged as whoever went ahead with them (the umpire, a player's
/// seat, an approved request): the breach itself is what is compared.
fn same_notes(
    (state, rev): (&GameState, u32),
    resolution: &kepi_game::rules::Resolution<serde_json::Value>,
    res: &kepi_game::rules::Resolution<serde_json::Value>,
    warnings: &[String],
) -> Result<(), String> {
    let logged = &resolution.notes;
    // The breaches, whoever went ahead with them; a roll an earlier kepi logged lacks those
    // noted since issue 42.
    let went_ahead: Vec<String> = warnings.iter().map(|w| WentAhead::Umpire.note(w)).collect();
    let same = logged.len() >= res.notes.len()
        && all_same_words(&logged[..res.notes.len()], &res.notes)
        && kepi_game::engine::play::breaches::same_but_newer(
            (state, rev),
            &logged[res.notes.len()..],
            &went_ahead,
            |l, a| {
                let (Some(l), Some(a)) = (
                    kepi_game::engine::play::breaches::breach_of(l),
                    kepi_game::engine::play::breaches::breach_of(a),
                ) else {
                    return false;
                };
                same_words(l, a)
            },
        );
    if !same {
        let mut notes = res.notes.clone();
        notes.extend(warnings.iter().map(|w| WentAhead::Umpire.note(w)));
        return Err(given("resolution.notes", json(logged), json(&notes)));
    }
    Ok(())
}

/// True when a `logged` line says what the line made `again` says, as kepi words it now or as a
/// kepi before issue 46 did ("1 hexes", "1 figures back": [`kepi_game::rules::words_before_issue_46`]).
fn same_words(logged: &str, again: &str) -> bool {
    logged == again || logged == kepi_game::rules::words_before_issue_46(again)
}

/// [`same_words`] for every line of two lists.
fn all_same_words(logged: &[String], again: &[String]) -> bool {
    logged.len() == again.len() && logged.iter().zip(again).all(|(l, a)| same_words(l, a))
}

/// What verify compares of logged dice, one by one: the die, its label, its value and its faces.
fn faces(d: &[kepi_game::dice::Roll]) -> Vec<(kepi_game::dice::Die, &str, u32, &[u32])> {
    d.iter()
        .map(|r| (r.die, r.label.as_str(), r.value, r.faces.as_slice()))
        .collect()
}

/// `x` as JSON, for a message.
fn json<T: serde::Serialize + ?Sized>(x: &T) -> String {
    serde_json::to_string(x).unwrap_or_else(|e| e.to_string())
}

/// True when `units` are the units kepi logs with a resolution of `form`: the acting unit, then
/// the target where the form needs one (the window, `form NAME`, a verb between units); or, for a
/// combat between stacks, the attackers named with `--attackers` (each once, in the order the
/// form engages them).
fn units_fit(form: &Form, units: &[String]) -> bool {
    let (actor, target) = form.units();
    let named: Vec<&str> = actor
        .into_iter()
        .chain(target.filter(|_| form.needs_target()))
        .collect();
    if units.iter().map(String::as_str).eq(named.iter().copied()) {
        return true;
    }
    let Some((attackers, _)) = form.engaged() else {
        return false;
    };
    let mut once: Vec<&str> = Vec::new();
    for u in units {
        if !once.contains(&u.as_str()) {
            once.push(u);
        }
    }
    !once.is_empty()
        && once
            .iter()
            .copied()
            .eq(attackers.iter().map(String::as_str))
}

/// The first modifier line that differs between the `logged` ones and those resolved `again`,
/// naming its member (`resolution.modifiers[2].value`), with both as JSON.
fn modifiers_match(
    logged: &[kepi_game::rules::ModifierLine],
    again: &[kepi_game::rules::ModifierLine],
) -> Result<(), (String, String, String)> {
    for (k, (l, a)) in logged.iter().zip(again).enumerate() {
        let at = |m: &str| format!("resolution.modifiers[{k}].{m}");
        if !same_words(&l.label, &a.label) {
            return Err((at("label"), json(&l.label), json(&a.label)));
        }
        if l.value != a.value {
            return Err((at("value"), json(&l.value), json(&a.value)));
        }
        if l.effect != a.effect {
            return Err((at("kind"), json(&l.effect), json(&a.effect)));
        }
        if l.rule != a.rule {
            return Err((at("rule"), json(&l.rule), json(&a.rule)));
        }
        if l.provenance != a.provenance {
            return Err((at("provenance"), json(&l.provenance), json(&a.provenance)));
        }
    }
    if logged.len() != again.len() {
        return Err((
            "resolution.modifiers".into(),
            format!("{} line(s)", logged.len()),
            format!("{} line(s)", again.len()),
        ));
    }
    Ok(())
}

/// Markers a result sets since issue 28 that earlier kepis did not record with it (SPI-H2's
/// formation, FR-K1's at sea), by name: a game played before logged the same result without them,
/// and its log still verifies. Any other difference is still reported.
const FLAGS_RECORDED_SINCE_ISSUE_28: [&str; 2] = ["extended", "at-sea"];

/// `fx` without the markers [`FLAGS_RECORDED_SINCE_ISSUE_28`].
fn without_later_flags(
    fx: &[kepi_game::engine::game::Action],
) -> Vec<kepi_game::engine::game::Action> {
    fx.iter()
        .filter(|a| {
            !matches!(a, kepi_game::engine::game::Action::SetFlag { flag, .. }
                if FLAGS_RECORDED_SINCE_ISSUE_28.contains(&flag.name()))
        })
        .cloned()
        .collect()
}

/// The effects a resolution of `action` resolved again as `fx` in a game of `rules` may have been
/// logged with: `fx` itself, and the forms earlier kepis logged the same result in: without the
/// markers of issue 28 ([`without_later_flags`]), without what the rule set records since issue 46
/// ([`kepi_game::engine::rule_set::RuleSet::recorded_since_issue_46`]: all of it, for that form
/// only), or without both; and each of those with its notes' counts in the bracketed plural of
/// before issue 46 ([`kepi_game::rules::marks_before_issue_46`]). Nothing else is taken (a P&K fire
/// without its fired mark is reported).
fn older_forms(
    rules: kepi_game::engine::rule_set::RuleSetRef,
    action: &str,
    fx: &[kepi_game::engine::game::Action],
) -> Vec<Vec<kepi_game::engine::game::Action>> {
    let since_46: Vec<kepi_game::engine::game::Action> = fx
        .iter()
        .filter(|a| !rules.recorded_since_issue_46(action, a))
        .cloned()
        .collect();
    let forms = [
        fx.to_vec(),
        without_later_flags(fx),
        without_later_flags(&since_46),
        since_46,
    ];
    // Each of those, its notes as a kepi before issue 46 worded them ("takes 1 hit(s)", PW-H1).
    let marked: Vec<Vec<kepi_game::engine::game::Action>> = forms
        .iter()
        .map(|form| {
            form.iter()
                .map(|a| match a {
                    kepi_game::engine::game::Action::Note { text } => {
                        kepi_game::engine::game::Action::Note {
                            text: kepi_game::rules::marks_before_issue_46(text),
                        }
                    }
                    other => other.clone(),
                })
                .collect()
        })
        .filter(|form| !forms.contains(form))
        .collect();
    forms.into_iter().chain(marked).collect()
}

/// "casualties: logged 9, dice give 2" for each key of two outcomes that differs.
fn differences(logged: Option<&serde_json::Value>, again: Option<&serde_json::Value>) -> String {
    let null = serde_json::Value::Null;
    let (l, a) = (logged.unwrap_or(&null), again.unwrap_or(&null));
    match (l.as_object(), a.as_object()) {
        (Some(lo), Some(ao)) => lo
            .keys()
            .chain(ao.keys().filter(|k| !lo.contains_key(*k)))
            .filter(|k| lo.get(*k) != ao.get(*k))
            .map(|k| {
                format!(
                    "{k}: logged {}, dice give {}",
                    lo.get(k).unwrap_or(&null),
                    ao.get(k).unwrap_or(&null)
                )
            })
            .collect::<Vec<_>>()
            .join("; "),
        _ => format!("logged {l}, dice give {a}"),
    }
}

/// A resolution verb's grammar and what was typed.
#[derive(Clone, Debug)]
enum Kind {
    /// A resolver form between units of the game.
    Form {
        /// The verb's grammar.
        spec: &'static VerbSpec,
        /// The options typed (boxed: the parsed matches are large and a script holds many verbs).
        given: Box<Given>,
    },
    /// A `kepi resolve` action no form covers: its words after `kepi resolve`, without `--dice`.
    Plain(Vec<String>),
    /// `form NAME UNIT [TARGET]` (any form of the game's rule set, as a window sends it to its
    /// host), and a registered rule set's own verbs ([`kepi_game::engine::play::SetForm`]): the units, a
    /// combat's other attackers, and the fields set.
    Window {
        /// A combat's attackers besides the acting unit (`--attacker`).
        extra: Vec<String>,
        /// The fields set (`--set PATH=VALUE`), path from the form's top.
        changes: Vec<(Vec<String>, serde_json::Value)>,
    },
}

/// The words of `form NAME UNIT [TARGET] [--attacker ID]... [--set PATH=VALUE]... [--dice
/// DIE=VALUE,...]` for a form as a window has it: its units, a combat's `extra` attackers, the
/// fields the user changed (`changes`, see [`kepi_game::engine::play::overrides::changes`]) and the dice
/// entered. The host pre-fills the form from its own game and sets only those fields, so a
/// window a frame behind (or shown hidden strengths) never makes the host roll with stale units.
/// `None` when the form has no acting unit yet (or needs a target it has not).
pub fn form_words(
    form: &Form,
    extra: &[String],
    changes: &[(Vec<String>, serde_json::Value)],
    entered: &[(Die, u32)],
) -> Option<Vec<String>> {
    let (actor, target) = form.units();
    let mut w = vec![
        "form".to_string(),
        form.name().to_string(),
        actor?.to_string(),
    ];
    if form.needs_target() {
        w.push(target?.to_string());
    }
    for a in extra {
        w.push("--attacker".into());
        w.push(a.clone());
    }
    for (path, value) in changes {
        w.push("--set".into());
        w.push(format!("{}={value}", path.join(".")));
    }
    if !entered.is_empty() {
        let dice: Vec<String> = entered.iter().map(|(d, v)| format!("{d}={v}")).collect();
        w.push("--dice".into());
        w.push(dice.join(","));
    }
    Some(w)
}

/// `form NAME UNIT [TARGET] [--attacker ID]... [--set PATH=VALUE]... [--dice DIE=VALUE,...]`
/// (the verb itself already taken): NAME is a resolver form of the game's rule set; its
/// situation is pre-filled from the units now and then each `--set` applied (VALUE read as JSON
/// when it is JSON, else as text), the whole refused if a path or value does not fit.
pub fn parse_form(
    words: &[String],
    i: &mut usize,
    s: &GameState,
    tables: &Tables,
    when: Checked,
) -> Result<PlayVerb, MoveError> {
    let forms = Form::all_for(s.system);
    let names: Vec<&str> = forms.iter().map(Form::name).collect();
    let name = words
        .get(*i)
        .filter(|w| !w.starts_with("--"))
        .ok_or_else(|| {
            MoveError::usage(format!(
                "`form` needs NAME UNIT [TARGET] (NAME: {})",
                names.join(", ")
            ))
        })?
        .to_ascii_lowercase();
    *i += 1;
    let blank = forms.iter().find(|f| f.name() == name).ok_or_else(|| {
        MoveError::usage(format!(
            "`form`: `{name}` is not a form of {} (accepted: {})",
            s.system.title(),
            names.join(", ")
        ))
    })?;
    let verb = format!("form {name}");
    let (actor, target, options) = units_and_options(
        &verb,
        blank,
        words,
        i,
        s,
        &["attacker", "set", "dice"],
        "--attacker UNIT, --set PATH=VALUE, --dice DIE=VALUE",
    )?;
    let (mut extra, mut changes, mut entered) = (Vec::new(), Vec::new(), Vec::new());
    for (opt, value) in options {
        match opt.as_str() {
            "attacker" => extra.push(s.find(&value)?.unit.id.clone()),
            "set" => changes.push(field_set(&verb, &value)?),
            _ => entered.extend(parse_dice(&value, &name)?),
        }
    }
    let v = PlayVerb {
        form: name,
        actor,
        target,
        attackers: Vec::new(),
        hex: None,
        kind: Kind::Window { extra, changes },
        entered,
    };
    when.check(&v, s, tables)?;
    Ok(v)
}

/// The form of a `form` verb: pre-filled from the game now, its attackers added, the changes set.
fn build_window(
    v: &PlayVerb,
    extra: &[String],
    changes: &[(Vec<String>, serde_json::Value)],
    s: &GameState,
    tables: &Tables,
) -> Result<Form, MoveError> {
    let mut form = Form::all_for(s.system)
        .into_iter()
        .find(|f| f.name() == v.form)
        .ok_or_else(|| MoveError::usage(format!("`form`: no form `{}` here", v.form)))?;
    form.prefill(s, Some(&v.actor), v.target.as_deref(), tables);
    form.with_attackers(s, extra);
    kepi_game::engine::play::overrides::apply_changes(&form, changes)
        .map_err(|e| MoveError::usage(format!("`{} --set`: {e}", v.form)))
}

/// True when `f` is spoken in its own generic grammar (`VERB UNIT [TARGET] [--set FIELD=VALUE]`):
/// no verb of the rule set's ([`kepi_game::engine::rule_set::RuleSet::verb_specs`]) declares its options, as for a rule set registered at run time.
fn own_verbs(system: RuleSetId, f: &Form) -> bool {
    !specs_for(system).any(|s| s.form == f.name())
}

/// The form (of a rule set registered at run time) the game's rule set offers as `verb` in its
/// own grammar ([`own_verbs`]).
fn custom_form(system: RuleSetId, verb: &str) -> Option<Form> {
    Form::all_for(system)
        .into_iter()
        .find(|f| f.name() == verb && own_verbs(system, f))
}

/// `VERB UNIT [TARGET] [--set FIELD=VALUE]... [--dice DIE=VALUE]` for a registered rule set's
/// form: the units by id or name, the situation fields by the names the form gives them. It is
/// the `form` verb under the form's own name.
fn parse_custom(
    verb: &str,
    blank: &Form,
    words: &[String],
    i: &mut usize,
    s: &GameState,
    tables: &Tables,
    when: Checked,
) -> Result<PlayVerb, MoveError> {
    let (actor, target, options) = units_and_options(
        verb,
        blank,
        words,
        i,
        s,
        &["set", "dice"],
        "--set FIELD=VALUE, --dice DIE=VALUE",
    )?;
    let (mut changes, mut entered) = (Vec::new(), Vec::new());
    for (opt, value) in options {
        match opt.as_str() {
            "set" => changes.push(field_set(verb, &value)?),
            _ => entered.extend(parse_dice(&value, verb)?),
        }
    }
    let v = PlayVerb {
        form: verb.to_string(),
        actor,
        target,
        attackers: Vec::new(),
        hex: None,
        kind: Kind::Window {
            extra: Vec::new(),
            changes,
        },
        entered,
    };
    when.check(&v, s, tables)?;
    Ok(v)
}

/// What [`units_and_options`] read: the acting unit, the target, and each option with its value.
type Typed = (String, Option<String>, Vec<(String, String)>);

/// A form's units and options as typed after its verb: `UNIT [TARGET]` (by id or name; a target
/// when `blank` needs one), then `--name VALUE` or `--name=VALUE` for each of the `accepted`
/// option names (`shown` lists them for the message refusing any other).
fn units_and_options(
    verb: &str,
    blank: &Form,
    words: &[String],
    i: &mut usize,
    s: &GameState,
    accepted: &[&str],
    shown: &str,
) -> Result<Typed, MoveError> {
    let usage = if blank.needs_target() {
        "UNIT TARGET"
    } else {
        "UNIT"
    };
    let take = |i: &mut usize| -> Result<String, MoveError> {
        let w = words
            .get(*i)
            .filter(|w| !w.starts_with("--"))
            .ok_or_else(|| MoveError::usage(format!("`{verb}` needs {usage}")))?;
        *i += 1;
        Ok(s.find(w)?.unit.id.clone())
    };
    let actor = take(i)?;
    let target = if blank.needs_target() {
        Some(take(i)?)
    } else {
        None
    };
    let mut options = Vec::new();
    while let Some(w) = words.get(*i).filter(|w| w.starts_with("--")) {
        *i += 1;
        let (name, inline) = match w[2..].split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (&w[2..], None),
        };
        if !accepted.contains(&name) {
            return Err(MoveError::usage(format!(
                "`{verb}`: unknown option `--{name}` (accepted: {shown})"
            )));
        }
        let value = match inline {
            Some(v) => v,
            None => {
                let v = words
                    .get(*i)
                    .ok_or_else(|| MoveError::usage(format!("`{verb} --{name}` needs a value")))?;
                *i += 1;
                v.clone()
            }
        };
        options.push((name.to_string(), value));
    }
    Ok((actor, target, options))
}

/// `--set PATH=VALUE`: the path (dotted, as the form's JSON names its fields) and the value, read
/// as JSON when it is JSON (`true`, `3`, `[["u1", 2]]`), else as text.
fn field_set(verb: &str, text: &str) -> Result<(Vec<String>, serde_json::Value), MoveError> {
    let (path, x) = text
        .split_once('=')
        .ok_or_else(|| MoveError::usage(format!("`{verb} --set`: `{text}` is not PATH=VALUE")))?;
    let path = path.trim().split('.').map(str::to_string).collect();
    let x = x.trim();
    let value = serde_json::from_str(x).unwrap_or_else(|_| serde_json::Value::from(x));
    Ok((path, value))
}

/// A verb ready to resolve against the game: a pre-filled form, or a unit-less `kepi resolve`
/// action (rolled with the game's dice and logged; it changes no unit).
pub enum Ready {
    /// A form between units.
    Form(Box<Form>),
    /// A unit-less action.
    Plain(Box<grammar::ResolveRuleSet>),
}

impl Ready {
    /// Resolves as [`Form::resolve`] does: with `dice` None the preview, with dice the outcome
    /// and its effects (none for a unit-less action).
    pub fn resolve(
        &self,
        state: &GameState,
        tables: &Tables,
        dice: Option<&mut DiceSource>,
    ) -> Result<kepi_game::engine::play::Resolved, RuleError> {
        let Some(dice) = dice else {
            return self.resolve_with(state, tables, None);
        };
        let done = self.resolve_with(state, tables, Some(&mut *dice))?;
        // A die entered and never rolled is refused, not silently ignored (issue 17): the same
        // check as the window's own dice.
        kepi_game::engine::play::all_dice_used(dice, "--dice")?;
        Ok(done)
    }

    /// What is odd about making this resolution now ([`kepi_game::engine::play::breaches::warnings`]: the
    /// phase, and what the text forbids): the umpire decides, so these are logged with it, never
    /// a refusal. None for a unit-less action.
    pub fn phase_warnings(
        &self,
        game: &kepi_game::engine::game::Game,
        tables: &Tables,
    ) -> Vec<String> {
        match self {
            Ready::Form(f) => kepi_game::engine::play::breaches::warnings(f, game, tables),
            Ready::Plain(_) => Vec::new(),
        }
    }

    /// The resolution itself, before the check of dice left over.
    fn resolve_with(
        &self,
        state: &GameState,
        tables: &Tables,
        dice: Option<&mut DiceSource>,
    ) -> Result<kepi_game::engine::play::Resolved, RuleError> {
        match self {
            Ready::Form(f) => f.resolve(state, tables, dice),
            Ready::Plain(x) => grammar::run_system(
                x,
                grammar::Ctx {
                    tables,
                    dice,
                    scale: state.scale,
                },
            )
            .map(|r| {
                let fx = state.system.plain_effects(&r, state);
                (r, fx)
            })
            .map_err(|e| RuleError::input("options", e.message, "see `kepi resolve --help`")),
        }
    }
}

/// Game verbs that are also `kepi resolve` action names: the game verb wins (P&K's flag roll and
/// fatigue check are the `flag-roll` and `fatigue-check` verbs).
const SHADOWED: &[&str] = &["fatigue", "flag"];

/// The unit-less resolution verbs of a rule set: the `kepi resolve` actions no form covers (P&K
/// initiative, PW first side, SPI victory...), declared once by `kepi resolve` itself.
pub fn plain_verbs(system: RuleSetId) -> Vec<String> {
    let tree = grammar::command_tree();
    let Some(sys) = tree.find_subcommand(system.id()) else {
        return Vec::new();
    };
    sys.get_subcommands()
        .map(|c| c.get_name().to_string())
        .filter(|n| {
            !SHADOWED.contains(&n.as_str())
                && !specs_for(system).any(|x| x.resolve == n.as_str() || x.named(n))
        })
        .collect()
}

/// What a unit-less verb does, in one line (its `kepi resolve <set> <verb>` about).
pub fn plain_verb_about(system: RuleSetId, verb: &str) -> String {
    grammar::command_tree()
        .find_subcommand(system.id())
        .and_then(|s| s.find_subcommand(verb))
        .and_then(|c| c.get_about())
        .map(|a| a.to_string())
        .unwrap_or_default()
}

/// What a unit-less verb does and its options, as `kepi resolve <set> <verb> --help` says it
/// (the window's hint over its options, laid out only while hovered).
pub fn plain_verb_help(system: RuleSetId, verb: &str) -> String {
    grammar::command_tree()
        .find_subcommand(system.id())
        .and_then(|s| s.find_subcommand(verb))
        .map(|c| c.clone().render_long_help().to_string())
        .unwrap_or_default()
}

/// True when `word` is a resolution verb of some rule set (`kepi game apply` then checks it
/// against the game's).
pub fn is_play_verb(word: &str) -> bool {
    // Read off the verbs' table (a waive reason stops before one of these; the verb is then
    // checked against the game's rule set): a verb added there is known here.
    kepi_game::registry::all().into_iter().any(|s| {
        specs_for(s).any(|x| x.named(word))
            || plain_verbs(s).iter().any(|v| v == word)
            || custom_form(s, word).is_some()
    })
}

impl PlayVerb {
    /// The units to log with the resolution (actor, then target; a combat's attackers).
    pub fn units(&self) -> Vec<String> {
        if self.actor.is_empty() || !self.attackers.is_empty() {
            return self.attackers.clone();
        }
        let mut u = vec![self.actor.clone()];
        u.extend(self.target.clone());
        u
    }
}

/// The accepted options of a verb, for messages.
fn accepted(cmd: &Command) -> String {
    cmd.get_arguments()
        .filter_map(|a| {
            let long = a.get_long()?;
            let value = if a.is_require_equals_set() {
                String::new()
            } else if a.get_action().takes_values() {
                let name = a
                    .get_value_names()
                    .and_then(|n| n.first())
                    .map(|n| n.to_string())
                    .unwrap_or_else(|| a.get_id().as_str().to_ascii_uppercase());
                format!(" {name}")
            } else {
                String::new()
            };
            // Older spellings still accepted (P&K `--officer`, `--move`).
            let aliases: String = a
                .get_visible_aliases()
                .unwrap_or_default()
                .iter()
                .map(|al| format!("|--{al}"))
                .collect();
            Some(format!("--{long}{aliases}{value}"))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The rule set's verb named `verb`, or an error listing the game's verbs.
fn spec_of(verb: &str, s: &GameState) -> Result<&'static VerbSpec, MoveError> {
    if let Some(spec) = specs_for(s.system.system()).find(|x| x.named(verb)) {
        return Ok(spec);
    }
    let mut elsewhere: Vec<&str> = Vec::new();
    for system in kepi_game::registry::all() {
        if specs_for(system).any(|x| x.named(verb)) || plain_verbs(system).iter().any(|p| p == verb)
        {
            elsewhere.push(system.title());
        }
    }
    let theirs = if elsewhere.is_empty() {
        "no rule set's".to_string()
    } else {
        format!("a {}", elsewhere.join(", a "))
    };
    Err(MoveError::usage(format!(
        "`{verb}` is {theirs} resolution verb; this game is {}: its resolution verbs are {} (see \
         `kepi game apply --help`)",
        s.system.title(),
        verbs_for(s.system.system()).join(", ")
    )))
}

/// Parses a resolution verb's units and options from `words[*i..]` (the verb itself already taken),
/// and checks it against the game now, so a typo refuses the whole command before anything applies.
pub fn parse(
    verb: &str,
    words: &[String],
    i: &mut usize,
    s: &GameState,
    tables: &Tables,
    when: Checked,
) -> Result<PlayVerb, MoveError> {
    if let Some(blank) = custom_form(s.system.system(), verb) {
        return parse_custom(verb, &blank, words, i, s, tables, when);
    }
    if !specs_for(s.system.system()).any(|x| x.named(verb))
        && plain_verbs(s.system.system()).iter().any(|p| p == verb)
    {
        return parse_plain(verb, words, i, s, tables, when);
    }
    let spec = spec_of(verb, s)?;
    let cmd = spec_command(s.system.system(), spec)?;
    let take = |i: &mut usize| -> Result<String, MoveError> {
        let w = words
            .get(*i)
            .filter(|w| !w.starts_with("--"))
            .ok_or_else(|| {
                MoveError::usage(format!(
                    "`{verb}` needs {} (see `kepi game apply --help`)",
                    spec.units_usage()
                ))
            })?;
        *i += 1;
        Ok(s.find(w)?.unit.id.clone())
    };
    let (mut actor, target) = match spec.units {
        Units::One(_) => (take(i)?, None),
        Units::Two(..) => (take(i)?, Some(take(i)?)),
        Units::Hex(_) => (String::new(), None),
    };
    // The verb's words: `--name[=value]`, with the next word as the value of an option that takes
    // one; the first other word starts the next verb.
    let mut opts = Vec::new();
    while let Some(w) = words.get(*i).filter(|w| w.starts_with("--")) {
        *i += 1;
        let body = &w[2..];
        let name = body.split_once('=').map_or(body, |(n, _)| n);
        let arg = find_arg(&cmd, name).ok_or_else(|| {
            MoveError::usage(format!(
                "`{verb}`: unknown option `--{name}` (accepted: {})",
                accepted(&cmd)
            ))
        })?;
        opts.push(w.clone());
        if !body.contains('=') && arg.get_action().takes_values() && !arg.is_require_equals_set() {
            let v = words
                .get(*i)
                .ok_or_else(|| MoveError::usage(format!("`{verb} --{name}` needs a value")))?;
            *i += 1;
            opts.push(v.clone());
        }
    }
    let m = cmd
        .clone()
        .try_get_matches_from(&opts)
        .map_err(|e| clap_error(verb, &e, &cmd))?;
    let given = Given::new(m, spec.verb, s.scale);
    for (id, why) in spec.refused {
        if given.matches().value_source(id) == Some(ValueSource::CommandLine) {
            return Err(given.bad(&id.replace('_', "-"), format!("not taken in play: {why}")));
        }
    }
    let mut entered = Vec::new();
    for d in given.get_many::<String>("dice")? {
        entered.extend(parse_dice(&d, verb)?);
    }
    let (mut attackers, mut hex) = (Vec::new(), None);
    if matches!(spec.units, Units::Hex(_)) {
        for a in given.get_many::<String>("attackers")? {
            attackers.push(s.find(&a)?.unit.id.clone());
        }
        hex = given.get::<Position>("hex")?;
        actor = attackers.first().cloned().unwrap_or_default();
    }
    let v = PlayVerb {
        form: spec.verb.to_string(),
        actor,
        target,
        attackers,
        hex,
        kind: Kind::Form {
            spec,
            given: Box::new(given),
        },
        entered,
    };
    // A combat's hex is checked when it is rolled, on the state then: a script may move the
    // attackers or the defenders there first (`move A 0101 move B 0102 combat ...`). Its options
    // are checked now all the same.
    if let (Some(h), Kind::Form { spec, given }) = (v.hex, &v.kind)
        && let Units::Hex(engage) = spec.units
        && engage(&mut blank_form(s, spec)?, s, &v.attackers, h).is_err()
    {
        let mut blank = blank_form(s, spec)?;
        (spec.overlay)(given, &mut blank, tables)?;
        return Ok(v);
    }
    when.check(&v, s, tables)?;
    Ok(v)
}

/// `d10=7`, `d%=34`, or several separated by commas.
fn parse_dice(text: &str, verb: &str) -> Result<Vec<(Die, u32)>, MoveError> {
    let bad =
        |m: String| MoveError::usage(format!("`{verb} --dice`: {m} (e.g. --dice d10=7,d%=34)"));
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

/// When a parsed verb's refusals ([`kepi_game::engine::rule_set`]'s impossible: a unit detrained that
/// is not entrained) are checked: against the game as it is when the verb comes first in its
/// request, or, after earlier verbs of the same request, when it applies, against the state those
/// verbs left (`entrain X detrain X`, issue 42). Its words are checked as it is parsed either way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checked {
    /// Refusals checked now, against the game as it is.
    Now,
    /// Refusals left to when the verb applies, after the request's earlier verbs.
    WhenApplied,
}

impl Checked {
    /// [`build`]'s checks of a parsed verb, a refusal left out when [`Checked::WhenApplied`].
    fn check(self, v: &PlayVerb, s: &GameState, tables: &Tables) -> Result<(), MoveError> {
        match build(v, s, tables) {
            Err(e) if self == Checked::WhenApplied && e.kind == MoveErrorKind::Refused => Ok(()),
            Err(e) => Err(e),
            Ok(_) => Ok(()),
        }
    }
}

/// The verb ready to resolve: its form pre-filled from the units' state now and set by its
/// options, or its unit-less action; checked (dice, refusals, a preview) before anything applies.
pub fn build(v: &PlayVerb, s: &GameState, tables: &Tables) -> Result<Ready, MoveError> {
    if let Kind::Plain(words) = &v.kind {
        return build_plain(v, words, s, tables);
    }
    checked(v, form_of(v, s, tables, true)?, s)
}

/// The form of a verb between units, pre-filled from `s` and, when `typed`, set by the options
/// typed; not yet checked. A unit-less verb has none.
fn form_of(v: &PlayVerb, s: &GameState, tables: &Tables, typed: bool) -> Result<Form, MoveError> {
    let (spec, given) = match &v.kind {
        Kind::Form { spec, given } => (*spec, given),
        Kind::Plain(_) => {
            return Err(MoveError::failed(format!(
                "internal: `{}` is a verb without a form",
                v.form
            )));
        }
        Kind::Window { extra, changes } => {
            let none = Vec::new();
            return build_window(v, extra, if typed { changes } else { &none }, s, tables);
        }
    };
    let mut form = blank_form(s, spec)?;
    match (spec.units, v.hex) {
        // A combat's units are those engaged in its hex now (SPI-C2, FR-C1).
        (Units::Hex(engage), Some(hex)) => engage(&mut form, s, &v.attackers, hex)
            .map_err(|e| MoveError::usage(format!("`{}`: {e}", v.form)))?,
        _ => form.prefill(s, Some(&v.actor), v.target.as_deref(), tables),
    }
    if typed {
        (spec.overlay)(given, &mut form, tables)?;
    }
    Ok(form)
}

/// The resolver form of the game's rule set that `spec` is the verb of, blank.
fn blank_form(s: &GameState, spec: &VerbSpec) -> Result<Form, MoveError> {
    Form::all_for(s.system)
        .into_iter()
        .find(|f| f.name() == spec.form)
        .ok_or_else(|| MoveError::failed(format!("internal: no resolver form `{}`", spec.form)))
}

/// What a verb asked, for the log when the host cannot apply it for a seat with hidden strengths
/// ([`kepi_game::engine::game::Game::log_not_applied`]): its form as the units pre-fill it (naming
/// them), or the words of its unit-less action.
pub fn asked(v: &PlayVerb, s: &GameState, tables: &Tables) -> Option<serde_json::Value> {
    match &v.kind {
        Kind::Plain(words) => Some(serde_json::json!({ "resolve": words })),
        _ => form_of(v, s, tables, false)
            .ok()
            .and_then(|f| serde_json::to_value(&f).ok()),
    }
}

/// Whether `v` enters a result of its own (`--result`, or a `--set` of the form's
/// `entered_result`) in a form that engages a unit of another side than `side` (issue 44): the
/// seat reads the chart's column from strengths hidden from it, so it cannot know it.
pub fn enters_result_against(
    v: &PlayVerb,
    s: &GameState,
    tables: &Tables,
    side: kepi_game::roster::Side,
) -> Result<bool, MoveError> {
    if matches!(v.kind, Kind::Plain(_)) {
        return Ok(false);
    }
    let json = |typed: bool| -> Result<serde_json::Value, MoveError> {
        let f = form_of(v, s, tables, typed)?;
        serde_json::to_value(&f).map_err(|e| MoveError::failed(format!("internal: {e}")))
    };
    let (typed, blank) = (json(true)?, json(false)?);
    fn result_of(v: &serde_json::Value) -> Option<&serde_json::Value> {
        match v {
            serde_json::Value::Object(o) => o
                .get("entered_result")
                .or_else(|| o.values().find_map(result_of)),
            _ => None,
        }
    }
    let entered = result_of(&typed)
        .filter(|r| !r.is_null() && r.as_str() != Some(""))
        .is_some_and(|r| Some(r) != result_of(&blank));
    if !entered {
        return Ok(false);
    }
    let text = blank.to_string();
    Ok(s.units
        .iter()
        .filter(|u| u.unit.side != side)
        .any(|u| text.contains(&format!("\"{}\"", u.unit.id))))
}

/// The fields of `v`'s form that the words set although their value depends on what `a` and
/// `b` differ in (the other side's hidden strengths, [`crate::net::redact::judge`]): the form
/// pre-fills them differently from `a` and from `b`, and the words set them alike. As dotted
/// paths of the form's JSON; none for a verb without a form.
pub fn stated_hidden(
    v: &PlayVerb,
    a: &GameState,
    b: &GameState,
    tables: &Tables,
) -> Result<Vec<String>, MoveError> {
    if matches!(v.kind, Kind::Plain(_)) {
        return Ok(Vec::new());
    }
    let json = |s: &GameState, typed: bool| -> Result<serde_json::Value, MoveError> {
        let f = form_of(v, s, tables, typed)?;
        serde_json::to_value(&f).map_err(|e| MoveError::failed(format!("internal: {e}")))
    };
    let mut out = Vec::new();
    set_alike(
        [
            &json(a, false)?,
            &json(b, false)?,
            &json(a, true)?,
            &json(b, true)?,
        ],
        &mut Vec::new(),
        &mut out,
    );
    Ok(out)
}

/// The leaves where the pre-filled `a0` and `b0` differ and the set `a1` and `b1` agree.
fn set_alike(
    [a0, b0, a1, b1]: [&serde_json::Value; 4],
    path: &mut Vec<String>,
    out: &mut Vec<String>,
) {
    use serde_json::Value;
    const NULL: Value = Value::Null;
    let keys: BTreeSet<String> = [a0, b0, a1, b1]
        .iter()
        .filter_map(|x| x.as_object())
        .flat_map(|o| o.keys().cloned())
        .collect();
    let items = [a0, b0, a1, b1]
        .iter()
        .filter_map(|x| x.as_array().map(Vec::len))
        .max();
    if !keys.is_empty() {
        for k in keys {
            let at = |x: &Value| x.get(&k).unwrap_or(&NULL).clone();
            path.push(k.clone());
            set_alike([&at(a0), &at(b0), &at(a1), &at(b1)], path, out);
            path.pop();
        }
    } else if let Some(n) = items.filter(|_| a0.is_array() && b0.is_array()) {
        for i in 0..n {
            let at = |x: &Value| x.get(i).unwrap_or(&NULL).clone();
            path.push(i.to_string());
            set_alike([&at(a0), &at(b0), &at(a1), &at(b1)], path, out);
            path.pop();
        }
    } else if a0 != b0 && a1 == b1 {
        out.push(path.join("."));
    }
}

/// Issue 17: the same checks as the window's ([`kepi_game::engine::play::refuse`]) on a built form, before
/// anything applies.
fn checked(v: &PlayVerb, form: Form, s: &GameState) -> Result<Ready, MoveError> {
    if let Some(why) = kepi_game::engine::play::refuse::unused_die(&form, &v.entered) {
        return Err(MoveError::usage(format!("`{} --dice`: {why}", v.form)));
    }
    if let Some(why) = form.refusal(s) {
        return Err(MoveError::refused(format!("`{}`: {why}", v.form)));
    }
    Ok(Ready::Form(Box::new(form)))
}

/// A unit-less verb's action, parsed by `kepi resolve`'s declaration, its dice checked and its
/// inputs previewed.
fn build_plain(
    v: &PlayVerb,
    words: &[String],
    s: &GameState,
    tables: &Tables,
) -> Result<Ready, MoveError> {
    let argv = std::iter::once("resolve".to_string()).chain(words.iter().cloned());
    let cmd = plain_command(s.system.system(), &v.form)?;
    let m = grammar::command_tree()
        .clone()
        .try_get_matches_from(argv)
        .map_err(|e| clap_error(&v.form, &e, &cmd))?;
    let x = grammar::ResolveRuleSet::from_arg_matches(&m)
        .map_err(|e| MoveError::usage(format!("`{}`: {e}", v.form)))?;
    if let Some(why) = s.system.plain_refusal(&v.form, words, s) {
        return Err(MoveError::refused(format!("`{}`: {why}", v.form)));
    }
    // The dice each rule set rolls: P&K d10 and d%, the others d6.
    let used: &[Die] = s.system.dice();
    if let Some((die, value)) = v.entered.iter().find(|(d, _)| !used.contains(d)) {
        let names: Vec<String> = used.iter().map(ToString::to_string).collect();
        return Err(MoveError::usage(format!(
            "`{} --dice`: {} does not roll a {die} (entered {die}={value}); it rolls {}",
            v.form,
            v.form,
            names.join(" and ")
        )));
    }
    grammar::run_system(
        &x,
        grammar::Ctx {
            tables,
            dice: None,
            scale: s.scale,
        },
    )
    .map_err(|e| MoveError::usage(format!("`{}`: {}", v.form, e.message)))?;
    Ok(Ready::Plain(Box::new(x)))
}

/// `kepi resolve SYSTEM VERB`'s declaration, for a unit-less verb.
fn plain_command(system: RuleSetId, verb: &str) -> Result<Command, MoveError> {
    grammar::form_command(system.id(), verb)
        .map(|c| <DiceOpt as Args>::augment_args(c).no_binary_name(true))
        .ok_or_else(|| {
            MoveError::failed(format!(
                "internal: no `kepi resolve {} {verb}`",
                system.id()
            ))
        })
}

/// A clap error as one line naming the verb, with the accepted options.
fn clap_error(verb: &str, e: &clap::Error, cmd: &Command) -> MoveError {
    let text = e.render().to_string();
    let first = text
        .split("\n\n")
        .next()
        .unwrap_or(&text)
        .trim()
        .trim_start_matches("error: ")
        .to_string();
    MoveError::usage(format!("`{verb}`: {first} (accepted: {})", accepted(cmd)))
}

/// Parses a unit-less verb (see [`plain_verbs`]): its options are `kepi resolve`'s, plus `--dice`.
fn parse_plain(
    verb: &str,
    words: &[String],
    i: &mut usize,
    s: &GameState,
    tables: &Tables,
    when: Checked,
) -> Result<PlayVerb, MoveError> {
    let cmd = plain_command(s.system.system(), verb)?;
    let mut argv = vec![s.system.id().to_string(), verb.to_string()];
    let mut dice = Vec::new();
    while let Some(w) = words.get(*i).filter(|w| w.starts_with("--")) {
        *i += 1;
        let body = &w[2..];
        let (name, inline) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (body, None),
        };
        let arg = find_arg(&cmd, name).ok_or_else(|| {
            MoveError::usage(format!(
                "`{verb}`: unknown option `--{name}` (accepted: {})",
                accepted(&cmd)
            ))
        })?;
        let value = if inline.is_none() && arg.get_action().takes_values() {
            let v = words
                .get(*i)
                .ok_or_else(|| MoveError::usage(format!("`{verb} --{name}` needs a value")))?;
            *i += 1;
            Some(v.clone())
        } else {
            inline.clone()
        };
        if arg.get_id().as_str() == "dice" {
            dice.push(value.unwrap_or_default());
            continue;
        }
        argv.push(w.clone());
        if inline.is_none()
            && let Some(v) = value
        {
            argv.push(v);
        }
    }
    let mut entered = Vec::new();
    for d in &dice {
        entered.extend(parse_dice(d, verb)?);
    }
    let v = PlayVerb {
        form: verb.to_string(),
        actor: String::new(),
        target: None,
        attackers: Vec::new(),
        hex: None,
        kind: Kind::Plain(argv),
        entered,
    };
    // Checked as it will be made: with what the game fills in (a blockade's marker, 1870).
    when.check(&v.clone().with_game_defaults(s), s, tables)?;
    Ok(v)
}

/// The option of `cmd` with this long name or alias.
fn find_arg<'c>(cmd: &'c Command, name: &str) -> Option<&'c clap::Arg> {
    cmd.get_arguments().find(|a| {
        a.get_long() == Some(name) || a.get_all_aliases().is_some_and(|al| al.contains(&name))
    })
}

/// The help of the resolution verbs, per rule set, generated from the same declarations.
pub fn verbs_help() -> String {
    // clap builds every command's help text on every command line; generating this one costs
    // building every rule set's option grammar (doubling kepi's start-up in a debug build), so
    // it is built only when help is asked for (`--help`, `-h`, `kepi help ...`).
    if !std::env::args().any(|a| a == "--help" || a == "-h" || a == "help") {
        return String::new();
    }
    let mut out = String::from(
        "RESOLUTIONS, per rule set (only the game's rule set's verbs are accepted). Pre-filled from \
         the units' live state; the options are those of `kepi resolve SYSTEM FORM` and override \
         what the units give (a flag takes --flag=off to clear it); kepi's seeded dice, or \
         --dice DIE=VALUE[,DIE=VALUE] for physical dice (e.g. --dice d10=7,d%=34), taken in the \
         order the resolution rolls them (GSP: a hit die per gun, then two A.O.A. dice per hit; PW \
         melee: the attacker's d6, then the defender's); a die not entered kepi rolls, and the \
         output says \"kepi rolled these\"; a die entered and not rolled is refused; one undo \
         step; each answers the due check it is the roll for. With --json the line carries \
         \"outcome\": the object `kepi resolve ... --json` prints.\n",
    );
    for system in kepi_game::registry::all() {
        out.push_str(&format!(" {} ({}):\n", system.title(), system.id()));
        for spec in specs_for(system) {
            let Ok(cmd) = spec_command(system, spec) else {
                continue;
            };
            let req: Vec<String> = cmd
                .get_arguments()
                .filter(|a| a.is_required_set())
                .filter_map(|a| {
                    let v = a.get_value_names().and_then(|n| n.first())?;
                    Some(format!("--{} {v}", a.get_long()?))
                })
                // A combat's units are shown with the verb.
                .filter(|r| !r.starts_with("--attackers ") && !r.starts_with("--hex "))
                .collect();
            let names = std::iter::once(spec.verb)
                .chain(spec.aliases.iter().copied())
                .collect::<Vec<_>>()
                .join("|");
            let mut head = format!("  {names} {}", spec.units_usage());
            for r in req {
                head.push(' ');
                head.push_str(&r);
            }
            out.push_str(&head);
            out.push('\n');
            out.push_str(&format!("      {}\n", spec.what));
            let opts = accepted(&cmd);
            out.push_str(&wrap(&format!("[{opts}]"), "      ", 100));
        }
        for f in Form::all_for(system)
            .iter()
            .filter(|f| own_verbs(system, f))
        {
            let units = if f.needs_target() {
                "UNIT TARGET"
            } else {
                "UNIT"
            };
            out.push_str(&format!(
                "  {} {units} [--set FIELD=VALUE]... [--dice DIE=VALUE]
",
                f.name()
            ));
        }
        let plain = plain_verbs(system);
        if !plain.is_empty() {
            out.push_str(&format!(
                "  naming no unit, with the options of `kepi resolve {} ACTION` and --dice (logged; they\n      change no unit: apply the result with lose, level, flag...):\n",
                system.id()
            ));
            out.push_str(&wrap(&plain.join(", "), "      ", 100));
            if let Some(note) = RuleSetRef::from(system).plain_verbs_note() {
                out.push_str(&wrap(note, "      ", 100));
            }
        }
    }
    out
}

/// Wraps `text` at spaces to `width`, each line indented.
fn wrap(text: &str, indent: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::from(indent);
    for w in text.split(' ') {
        if line.len() + w.len() + 1 > width && !line.trim().is_empty() {
            out.push_str(line.trim_end());
            out.push('\n');
            line = String::from(indent);
        }
        line.push_str(w);
        line.push(' ');
    }
    if !line.trim().is_empty() {
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
