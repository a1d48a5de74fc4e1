//! What a resolution breaks of its rule set's text, said before the roll and logged with it (issue
//! 28): the umpire decides, so these are warnings, never refusals (the impossible is refused by
//! [`super::refuse`]).
//!
//! - SPI-C2 (Combat, cases A and C) and FR-C1 (E1, E3, E8): attackers not next to the defending hex
//!   or not on the map; a unit attacking twice in one combat phase, a unit attacked twice in one
//!   combat phase (1870: a unit fights "offensively or defensively, only once", so a unit that
//!   defended does not attack either).
//! - PW-X1: a melee is a unit entering the enemy's hex: the two must be neighbours.
//! - PK-X1: "Only a Steady unit can initiate melee. Only a Steady or Shaken unit will accept melee."

use crate::engine::game::{Action, Game, GameState, Level, UnitState};
use crate::roster::Position;

use super::Form;
use super::crt::{FrForm, SpiForm};
use super::pk::PkForm;
use super::pw::PwForm;
use super::pw::hex_in;

/// Everything odd about resolving `form` now: the phase warnings ([`crate::engine::flow::phase_warnings`])
/// and the breaches of the text ([`breaches`]). Shown before the roll and logged with it.
pub fn warnings(form: &Form, game: &Game) -> Vec<String> {
    let mut out = crate::engine::flow::phase_warnings(game.state(), form.name(), form.units().0);
    out.extend(breaches(form, game));
    out
}

/// What `form` breaks of its rule set's text, given what this combat phase has seen (the game's
/// resolutions in effect this turn and phase).
pub fn breaches(form: &Form, game: &Game) -> Vec<String> {
    let s = game.state();
    if let Some(f) = form.get::<SpiForm>() {
        hex_combat(game, &f.attacker_ids, &f.defender_ids, &SPI)
    } else if let Some(f) = form.get::<FrForm>() {
        hex_combat(game, &f.attacker_ids, &f.defender_ids, &FR1870)
    } else if let Some(f) = form.get::<PwForm>().filter(|f| f.name() == "melee") {
        pw_melee(s, f.actor.as_deref(), f.target.as_deref())
    } else if let Some(f) = form.get::<PkForm>().filter(|f| f.name() == "melee") {
        pk_melee(s, f.actor.as_deref(), f.target.as_deref())
    } else {
        Vec::new()
    }
}

/// How one board game words its combat limits.
struct Texts {
    /// The adjacency rule, cited.
    adjacent: &'static str,
    /// The once-per-phase rule for attackers, cited.
    attack_once: &'static str,
    /// The once-per-phase rule for defenders, cited.
    attacked_once: &'static str,
    /// True when a unit that defended may not attack (1870 E3: "offensively or defensively").
    fights_once: bool,
}

const SPI: Texts = Texts {
    adjacent: "SPI-C2, Combat case A: \"Only those Friendly units directly adjacent to a given \
               Enemy unit may participate in the attack upon that Enemy unit\"",
    attack_once: "SPI-C2, case C: \"No unit may attack more than once per Combat Phase\"",
    attacked_once: "SPI-C2, case C: \"No Enemy unit may be attacked more than once per Combat \
                    Phase\"",
    fights_once: false,
};

const FR1870: Texts = Texts {
    adjacent: "FR-C1, E8: \"All units fight in contact, that is, by occupying the cell adjacent to \
               that occupied by the unit or enemy stack they confront\"",
    attack_once: "FR-C1, E3: \"Within the same Combat Phase, a unit may fight, offensively or \
                  defensively, only once\"",
    attacked_once: "FR-C1, E3: \"Within the same Combat Phase, a unit may fight, offensively or \
                    defensively, only once\"",
    fights_once: true,
};

/// The attackers and defenders (ids) of each hex combat in effect this turn and phase.
fn combats_this_phase(game: &Game) -> Vec<(Vec<String>, Vec<String>)> {
    let s = game.state();
    let ids = |v: &serde_json::Value, key: &str| -> Vec<String> {
        v.get(key)
            .and_then(|a| a.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    game.in_effect()
        .rev()
        .take_while(|e| e.entry.turn == s.turn && e.entry.phase == s.phase_name())
        .filter_map(|e| match e.action {
            Action::Resolved {
                resolution,
                input: Some(input),
                ..
            } if resolution.action == "combat" => {
                Some((ids(input, "attacker_ids"), ids(input, "defender_ids")))
            }
            _ => None,
        })
        .collect()
}

fn hex_combat(game: &Game, attackers: &[String], defenders: &[String], t: &Texts) -> Vec<String> {
    let s = game.state();
    let mut out = Vec::new();
    let layout = s.system.hex_layout();
    let unit = |id: &String| s.unit(id);
    let defending = defenders.iter().filter_map(unit).next();
    let hex = defending.map(|d| d.position);
    for a in attackers.iter().filter_map(unit) {
        match (
            hex_in(a.position, layout),
            hex.and_then(|h| hex_in(h, layout)),
        ) {
            (None, Some(_)) => out.push(format!(
                "{} is not on the map ({}): it is next to no hex ({})",
                a.unit.name, a.position, t.adjacent
            )),
            (Some(from), Some(to)) if from.distance(to) != 1 => out.push(format!(
                "{} in {} is {} hexes from {} ({})",
                a.unit.name,
                a.position,
                from.distance(to),
                hex.map(|h| h.to_string()).unwrap_or_default(),
                t.adjacent
            )),
            _ => {}
        }
    }
    let before = combats_this_phase(game);
    let attacked = |id: &str| before.iter().any(|(a, _)| a.iter().any(|x| x == id));
    let defended = |id: &str| before.iter().any(|(_, d)| d.iter().any(|x| x == id));
    for a in attackers.iter().filter_map(unit) {
        if attacked(a.id()) {
            out.push(format!(
                "{} has already attacked this combat phase ({})",
                a.unit.name, t.attack_once
            ));
        } else if t.fights_once && defended(a.id()) {
            out.push(format!(
                "{} has already defended this combat phase ({})",
                a.unit.name, t.attack_once
            ));
        }
    }
    for d in defenders.iter().filter_map(unit).filter(|d| fights(d)) {
        if defended(d.id()) {
            out.push(format!(
                "{} has already been attacked this combat phase ({})",
                d.unit.name, t.attacked_once
            ));
        } else if t.fights_once && attacked(d.id()) {
            out.push(format!(
                "{} has already attacked this combat phase ({})",
                d.unit.name, t.attacked_once
            ));
        }
    }
    out
}

/// A unit that fights in a hex combat (not a fortress card, an EB unit or a dummy).
fn fights(u: &UnitState) -> bool {
    !matches!(
        u.unit.arm,
        crate::roster::Arm::Fortress | crate::roster::Arm::Railway | crate::roster::Arm::Dummy
    )
}

/// PW-X1: "Melee happens when a unit tries to enter a hex held by the enemy": the two are
/// neighbours (the board is odd-q; see [`crate::engine::rule_set::RuleSet::hex_layout`]).
fn pw_melee(s: &GameState, actor: Option<&str>, target: Option<&str>) -> Vec<String> {
    let layout = s.system.hex_layout();
    let (Some(a), Some(b)) = (
        actor.and_then(|id| s.unit(id)),
        target.and_then(|id| s.unit(id)),
    ) else {
        return Vec::new();
    };
    let at = |p: Position| hex_in(p, layout);
    match (at(a.position), at(b.position)) {
        (Some(x), Some(y)) if x.distance(y) > 1 => vec![format!(
            "{} in {} is {} hexes from {} in {}: a melee is a unit entering the enemy's hex, from \
             next to it (PW-X1: \"Melee happens when a unit tries to enter a hex held by the \
             enemy\")",
            a.unit.name,
            a.position,
            x.distance(y),
            b.unit.name,
            b.position
        )],
        _ => Vec::new(),
    }
}

/// PK-X1: "Only a Steady unit can initiate melee. Only a Steady or Shaken unit will accept melee."
fn pk_melee(s: &GameState, actor: Option<&str>, target: Option<&str>) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(a) = actor.and_then(|id| s.unit(id))
        && a.level != Level::Steady
    {
        out.push(format!(
            "{} is {} (PK-X1: \"Only a Steady unit can initiate melee.\")",
            a.unit.name, a.level
        ));
    }
    if let Some(b) = target.and_then(|id| s.unit(id))
        && matches!(b.level, Level::Broken | Level::Routed)
    {
        out.push(format!(
            "{} is {} (PK-X1: \"Only a Steady or Shaken unit will accept melee.\")",
            b.unit.name, b.level
        ));
    }
    out
}
