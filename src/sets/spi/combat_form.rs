//! SPI Franco-Prussian War combat in play (SPI-C1..C5, SPI-R1) between units of a game: the
//! combat form ([`SpiForm`]), the units' parts in it (combat, fortification, EB, dummy: SPI-F1,
//! SPI-E1, SPI-H1), the flanking geometry read from the map (SPI-C3), the owners' losses in combat
//! points (SPI-R1), its refusals and how SPI words its combat limits. What it shares with 1870's
//! combat form (the units engaged on one hex, the engine-facing form, the limits read from the
//! log) is [`crate::board::form`].

use serde::{Deserialize, Serialize};

use crate::board::form::{
    HexCombatForm, Texts, ask_for_result, entered, hex_combat_fields, hex_combat_set_form, units,
};
use crate::spi::combat::{C5_RIDGE, C5_RIVER, C5_ROUGH, c5_line};
use crate::spi::{self, SpiCombatInput, SpiLoss, SpiTables, SpiUnit};
use kepi_game::dice::DiceSource;
use kepi_game::engine::game::{Action, GameState, UnitState};
use kepi_game::engine::play::board::{hex_in, position_in};
use kepi_game::engine::play::refuse::{name, opposed};
use kepi_game::engine::play::{Resolved, done, lose};
use kepi_game::roster::{Arm, Position};
use kepi_game::rules::{Effect, ModifierLine, RuleError, RuleId};
use kepi_game::tables::Provenance;

/// SPI-C3: whether the attackers' hexes make their attack on `hex` a flanking attack. The text:
/// "in order to conduct a Flanking Attack the Attacking Player must have participating attacking
/// units in, or adjacent to, every hex surrounding the Defender's hex" (two units directly
/// opposite, or three in a triangle, are the minimum). Every attacker must stand on the map next
/// to the hex ("Only those Friendly units directly adjacent to a given Enemy unit may participate",
/// SPI-C1 case A). Err says why not, naming the units or the hexes left open.
pub fn spi_flank_geometry(
    state: &GameState,
    attackers: &[String],
    hex: Position,
) -> Result<(), String> {
    let layout = state.system.hex_layout();
    let centre = hex_in(hex, layout).ok_or_else(|| {
        "the defending hex is not on the map: a flanking attack is read from the map (SPI-C3)"
            .to_string()
    })?;
    let mut ring = [false; 6];
    for u in attackers.iter().filter_map(|id| state.unit(id)) {
        let Some(h) = hex_in(u.position, layout) else {
            return Err(format!(
                "{} is not on the map: a flanking attack is read from the attackers' hexes (SPI-C3)",
                u.unit.name
            ));
        };
        if h.distance(centre) != 1 {
            return Err(format!(
                "{} in {} is not next to {hex}: only adjacent units attack (SPI-C1 case A)",
                u.unit.name, u.position
            ));
        }
        for (i, n) in centre.neighbours().into_iter().enumerate() {
            ring[i] |= n == h;
        }
    }
    if spi::is_flanking_from(ring) {
        return Ok(());
    }
    // The ring hexes neither held nor next to a held one (ring neighbours are adjacent).
    let open: Vec<String> = centre
        .neighbours()
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !(ring[*i] || ring[(i + 5) % 6] || ring[(i + 1) % 6]))
        .map(|(_, n)| position_in(n, layout).map_or_else(|| format!("{n:?}"), |p| p.to_string()))
        .collect();
    Err(format!(
        "not a flanking attack: no attacker in or next to {} around {hex}; it needs attackers on \
         two opposite sides of the hex or three in a triangle (SPI-C3)",
        open.join(", ")
    ))
}

/// SPI-C5: one terrain condition of an attack as the game's map gives it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MapRead {
    /// What the map says; None where it does not know (no map, a unit off it, a terrain whose
    /// combat effect the map's table marks unknown): the umpire ticks it.
    pub on: Option<bool>,
    /// Why it is not so, or not known, in words, where there is more to say than the terrain.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

impl MapRead {
    fn known(on: bool, why: Option<String>) -> MapRead {
        MapRead { on: Some(on), why }
    }

    fn unknown(why: impl Into<String>) -> MapRead {
        MapRead {
            on: None,
            why: Some(why.into()),
        }
    }
}

/// SPI-C5, the Terrain Effects Chart's combat column, as the game's map gives it for one attack
/// (issue 42): the defender in rough terrain; all attacking through ridge hexsides; all through
/// river hexsides.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MapTerrain {
    /// The defenders' hex as the map numbers it ("0505"), where it is on the map.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex: Option<String>,
    /// "attacker adds "one" to the defender's die-roll when the defender is in Rough Terrain".
    pub rough: MapRead,
    /// "if all units are attacking through ridge hexsides, attacker adds "one" to die roll".
    pub ridge: MapRead,
    /// "if all attacking units [attack] through such hexside [river], attacker adds "one" to die
    /// roll".
    pub river: MapRead,
}

/// SPI-C5 (and SPI-M1's Terrain Effects Chart, whose rows these are): what the game's map says of
/// the terrain of the attack of `attackers` on the hex of `defenders`, read with the map readers
/// SPI's movement uses (the game's map, [`super::moves::game_map`]; a cell's terrain and its
/// table entry; a hexside's features, [`kepi_game::map::Map::side_has`]). Rough: the defenders' hex
/// is "rough" on the map (a terrain whose combat effect the map's table marks unknown is not
/// known). Ridge and river: the chart's "all attacking through": every attacker's hex is next to
/// the defenders' and the hexside between them carries the feature; an attacker not next to the
/// hex makes it false (SPI-C1 case A: only adjacent units attack), one off the map unknown.
/// Without a map, or with the defenders off it, nothing is known and the umpire ticks.
pub fn map_terrain(state: &GameState, attackers: &[String], defenders: &[String]) -> MapTerrain {
    let all = |r: MapRead| MapTerrain {
        hex: None,
        rough: r.clone(),
        ridge: r.clone(),
        river: r,
    };
    let Some(map) = super::moves::game_map(state) else {
        return all(MapRead::unknown(if state.map.is_some() {
            "the game's map does not read"
        } else {
            "the game carries no map"
        }));
    };
    let layout = map.grid.layout;
    let on_map = |p: Position| hex_in(p, layout).filter(|h| map.on_map(*h));
    let Some((d, dlabel)) = defenders
        .iter()
        .filter_map(|id| state.unit(id))
        .map(|u| u.position)
        .next()
        .and_then(|p| on_map(p).map(|h| (h, map.grid.label(h))))
    else {
        return all(MapRead::unknown("the defenders' hex is not on the map"));
    };
    let rough = match (map.terrain_of(d), map.terrain_entry(d)) {
        (Some("rough"), _) => MapRead::known(true, None),
        (Some(_), Some(e)) if e.combat.provenance != kepi_game::map::Source::Unknown => {
            MapRead::known(false, None)
        }
        (t, _) => MapRead::unknown(format!(
            "the map's table does not know {}'s effect on combat ({dlabel})",
            t.unwrap_or("its terrain")
        )),
    };
    let across = |feature: kepi_game::map::Feature| -> MapRead {
        let mut not = Vec::new();
        let mut n = 0;
        for u in attackers.iter().filter_map(|id| state.unit(id)) {
            let Some(h) = on_map(u.position) else {
                return MapRead::unknown(format!("{} is not on the map", u.unit.name));
            };
            let at = map.grid.label(h);
            if h.distance(d) != 1 {
                return MapRead::known(
                    false,
                    Some(format!(
                        "{} in {at} is not next to {dlabel} (SPI-C1 case A: only adjacent units \
                         attack)",
                        u.unit.name
                    )),
                );
            }
            n += 1;
            if !map.side_has(h, d, feature) {
                not.push(format!("{} in {at}", u.unit.name));
            }
        }
        match (n, not.len()) {
            (0, _) => MapRead::known(false, Some("no attacker".to_string())),
            (_, 0) => MapRead::known(true, None),
            (n, k) if k < n => MapRead::known(
                false,
                Some(format!(
                    "not every attacker: {} attacks across no {feature} hexside into {dlabel}",
                    not.join(", ")
                )),
            ),
            _ => MapRead::known(false, None),
        }
    };
    MapTerrain {
        hex: Some(dlabel.clone()),
        rough,
        ridge: across(kepi_game::map::Feature::Ridge),
        river: across(kepi_game::map::Feature::River),
    }
}

/// SPI-C1, SPI-S1, SPI-H2, SPI-C5: a unit's strength, supply, formation and train as SPI sees them
/// (its supply in play: from the game's map where it carries one, the umpire's typed state
/// winning, [`super::moves::supply_in_play`]).
pub fn spi_unit(state: &GameState, u: &UnitState) -> SpiUnit {
    spi_unit_in(&kepi_game::engine::play::supply::game_supply(state), u)
}

/// [`spi_unit`] with the game's supply worked out once.
fn spi_unit_in(all: &kepi_game::engine::play::supply::GameSupply, u: &UnitState) -> SpiUnit {
    SpiUnit {
        name: Some(u.unit.name.clone()),
        strength: u.strength,
        supply: super::moves::supply_from(all, u).0,
        // SPI-H2: as changed in play, else the card's.
        formation: if u.flag(kepi_game::engine::game::Flag::Extended) {
            spi::Formation::Extended
        } else {
            spi::Formation::Concentrated
        },
        entrained: u.carries(&crate::spi::marks::ENTRAINED),
    }
}

/// What a unit is in an SPI combat: only combat units have a strength that attacks or defends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpiRole {
    /// SPI-C1: a combat unit: its strength attacks or defends.
    Combat,
    /// SPI-F1: a fortification unit: "an intrinsic Combat Strength of their own, which may only be
    /// used on the defensive"; combat units in its hex defend doubled.
    Fortification,
    /// SPI-E1 (EB units, case D): "EB units are not in any way similar to Combat or Fortification
    /// units": they neither attack nor defend and add nothing.
    Eb,
    /// SPI-H1: a dummy counter, real "in every manner, except on the battlefield": revealed and
    /// removed when attacked, it adds nothing and may not attack.
    Dummy,
}

/// SPI-C1, SPI-F1, SPI-E1, SPI-H1: a unit's part in a combat, from its card's arm.
pub fn spi_role(u: &UnitState) -> SpiRole {
    match u.unit.arm {
        Arm::Fortress => SpiRole::Fortification,
        Arm::Railway => SpiRole::Eb,
        Arm::Dummy => SpiRole::Dummy,
        _ => SpiRole::Combat,
    }
}

/// SPI-C1, SPI-F1, SPI-H1: one side's combat units as SPI sees them, the fortification strength
/// in the hex (the sum of its fortification units, none when 0) and whether only dummy counters
/// hold it (no combat unit, no fortification, at least one dummy).
fn spi_side(state: &GameState, ids: &[String]) -> (Vec<SpiUnit>, Option<u32>, bool) {
    let us: Vec<&UnitState> = ids.iter().filter_map(|id| state.unit(id)).collect();
    let all = kepi_game::engine::play::supply::game_supply(state);
    let combat: Vec<SpiUnit> = us
        .iter()
        .filter(|u| spi_role(u) == SpiRole::Combat)
        .map(|u| spi_unit_in(&all, u))
        .collect();
    let fort: u32 = us
        .iter()
        .filter(|u| spi_role(u) == SpiRole::Fortification)
        .map(|u| u.strength)
        .sum();
    let dummies = us.iter().any(|u| spi_role(u) == SpiRole::Dummy);
    let only_dummies = dummies && combat.is_empty() && fort == 0;
    (combat, (fort > 0).then_some(fort), only_dummies)
}

/// An SPI combat form.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpiForm {
    /// Acting unit id (the attacker).
    pub actor: Option<String>,
    /// Target unit id (the defender losses go to first).
    pub target: Option<String>,
    /// The attacking units, in the order of `input.attackers`.
    pub attacker_ids: Vec<String>,
    /// The defending units, in the order of `input.defenders` (the target first).
    pub defender_ids: Vec<String>,
    /// The combat's inputs.
    pub input: SpiCombatInput,
    /// SPI-C1: the result read off the printed chart for a cell kepi does not know ("A1/D2").
    #[serde(default)]
    pub entered_result: Option<String>,
    /// SPI-R1: the owner's split of combat point losses over the engaged units, unit id and CP
    /// (`--losses UNIT=N,...`); a side none of whose units is named takes kepi's default order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub losses: Vec<(String, u32)>,
    /// SPI-C5 (issue 42): what the game's map said of the attack's terrain when the units were
    /// engaged ([`map_terrain`]), kept beside the input so the lines say where each value came
    /// from, the map's or the umpire's, and `kepi log verify` resolves the same lines again.
    /// None in entries of an earlier kepi (nothing was read) and outside a game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map: Option<MapTerrain>,
}

impl SpiForm {
    /// The one SPI action: combat.
    pub fn all() -> Vec<SpiForm> {
        vec![SpiForm {
            actor: None,
            target: None,
            attacker_ids: Vec::new(),
            defender_ids: Vec::new(),
            input: SpiCombatInput {
                attackers: Vec::new(),
                defenders: Vec::new(),
                fortress: None,
                flank: false,
                hasty: false,
                dummies_only: false,
                defender_rough: false,
                all_through_ridge: false,
                all_through_river: false,
            },
            entered_result: None,
            losses: Vec::new(),
            map: None,
        }]
    }

    /// Sets the units and their strengths, supply, formation and train from the game.
    pub fn prefill(&mut self, state: &GameState, actor: Option<&str>, target: Option<&str>) {
        self.engage_acting(state, actor, target)
    }

    /// SPI-C2: sets several attackers against every unit in a hex (see [`crate::board::form::engage_hex`]): the first
    /// attacker acts, the first defender is the target; strengths, supply, formation and train come
    /// from the units. Only combat units count (SPI-C1): the hex's fortification units give
    /// `input.fortress` (SPI-F1), EB units add nothing (SPI-E1), dummy counters alone make it a
    /// dummies-only hex (SPI-H1). `attacker_ids` and `defender_ids` keep every engaged unit.
    pub fn prefill_engaged(
        &mut self,
        state: &GameState,
        attackers: &[String],
        defenders: &[String],
    ) {
        self.actor = attackers.first().cloned();
        self.target = defenders.first().cloned();
        self.attacker_ids = attackers.to_vec();
        self.defender_ids = defenders.to_vec();
        (self.input.attackers, _, _) = spi_side(state, attackers);
        (
            self.input.defenders,
            self.input.fortress,
            self.input.dummies_only,
        ) = spi_side(state, defenders);
        self.entered_result = None;
        self.losses.clear();
        // SPI-C5: rough, ridge and river as the map gives them; where it does not know, not
        // ticked (the umpire ticks, as before the map was read).
        let m = map_terrain(state, attackers, defenders);
        self.input.defender_rough = m.rough.on.unwrap_or(false);
        self.input.all_through_ridge = m.ridge.on.unwrap_or(false);
        self.input.all_through_river = m.river.on.unwrap_or(false);
        self.map = Some(m);
    }

    /// SPI-C5: where each terrain value of the attack came from, in the lines: a die line the
    /// map gave is labelled "(map, HEX)", one the umpire set against the map or where it does
    /// not know "(set by you ...)"; a line says what the map could not read and what the umpire
    /// set off against it. Nothing for a form that read no map (an earlier kepi's entry). The
    /// die lines are [`spi::combat`]'s, with the table's provenance, relabelled in place.
    fn terrain_lines(&self, mods: &mut [ModifierLine], t: &SpiTables) -> Vec<ModifierLine> {
        let Some(m) = &self.map else {
            return Vec::new();
        };
        let c = &t.combat;
        let hex = m.hex.as_deref().unwrap_or("?");
        let all = [
            (&m.rough, self.input.defender_rough, C5_ROUGH, &c.rough_die),
            (
                &m.ridge,
                self.input.all_through_ridge,
                C5_RIDGE,
                &c.ridge_die,
            ),
            (
                &m.river,
                self.input.all_through_river,
                C5_RIVER,
                &c.river_die,
            ),
        ];
        let mut out = Vec::new();
        let note = |label: String, v: &kepi_game::tables::Sourced<i32>| {
            ModifierLine::new(label, Effect::Note, RuleId::new("SPI-C5"), v.provenance)
        };
        // One line when the map knows none of the three for one reason (no map, the defender
        // off it).
        let unknown_alike = all
            .iter()
            .all(|(r, ..)| r.on.is_none() && r.why == m.rough.why);
        if unknown_alike {
            out.push(note(
                format!(
                    "rough, ridge and river hexsides: {}: the umpire ticks them",
                    m.rough.why.as_deref().unwrap_or("the map does not say")
                ),
                &c.rough_die,
            ));
        }
        for (read, input, what, v) in all {
            let line = c5_line(what);
            let relabel = |mods: &mut [ModifierLine], tail: String| {
                for l in mods.iter_mut().filter(|l| l.label == line) {
                    l.label = format!("{line} ({tail})");
                }
            };
            match read.on {
                Some(on) if on == input => {
                    if on {
                        relabel(mods, format!("map, {hex}"));
                    } else if let Some(why) = &read.why {
                        out.push(note(format!("not {what} (map): {why}"), v));
                    }
                }
                // The umpire's value differs from the map's.
                Some(_) => {
                    if input {
                        relabel(
                            mods,
                            format!(
                                "set by you; the map: not{}",
                                read.why
                                    .as_ref()
                                    .map_or(String::new(), |w| format!(", {w}"))
                            ),
                        );
                    } else {
                        out.push(note(
                            format!("not {what}: set by you (the map: {what}, {hex})"),
                            v,
                        ));
                    }
                }
                None => {
                    if input {
                        relabel(mods, "set by you".to_string());
                    }
                    if !unknown_alike {
                        out.push(note(
                            format!(
                                "{what}: {}: the umpire ticks it",
                                read.why.as_deref().unwrap_or("the map does not say")
                            ),
                            v,
                        ));
                    }
                }
            }
        }
        out
    }

    /// Issue 17: a line for each engaged unit that is not a combat unit, naming it and saying
    /// what it adds (the combat units' and the fortification's values are the engine's lines).
    fn role_lines(&self, state: &GameState) -> Vec<ModifierLine> {
        let mut out = Vec::new();
        let all = kepi_game::engine::play::supply::game_supply(state);
        for (side, ids) in [
            ("attacker", &self.attacker_ids),
            ("defender", &self.defender_ids),
        ] {
            for u in ids.iter().filter_map(|id| state.unit(id)) {
                let (label, rule) = match spi_role(u) {
                    SpiRole::Combat => {
                        // SPI-S1: where the supply state comes from, said on its own line (the
                        // halving is the unit's line), the map's kept apart from the umpire's.
                        let Some(x) = all.get(&u.unit.id).filter(|x| x.traced.is_some()) else {
                            continue;
                        };
                        (
                            format!("{side} {} supply: {}", u.unit.name, x.says()),
                            "SPI-S1",
                        )
                    }
                    SpiRole::Fortification => (
                        format!(
                            "{side} {}: fortification unit, strength {} (defence only; combat \
                             units in it defend doubled)",
                            u.unit.name, u.strength
                        ),
                        "SPI-F1",
                    ),
                    SpiRole::Eb => (
                        format!(
                            "{side} {}: EB unit, not a combat unit: adds nothing",
                            u.unit.name
                        ),
                        "SPI-E1",
                    ),
                    SpiRole::Dummy => (
                        format!(
                            "{side} {}: dummy counter, revealed and removed: adds nothing",
                            u.unit.name
                        ),
                        "SPI-H1",
                    ),
                };
                out.push(ModifierLine::new(
                    label,
                    Effect::Note,
                    RuleId::new(rule),
                    Provenance::Seed,
                ));
            }
        }
        out
    }

    /// SPI-C1..C5: resolves; with dice and a known (or entered) result, SPI-R1's losses in combat
    /// points fall on the chosen unit first (the target; the acting unit), then the others.
    pub fn resolve(
        &self,
        state: &GameState,
        t: &SpiTables,
        dice: Option<&mut DiceSource>,
    ) -> Result<Resolved, RuleError> {
        let rolling = dice.is_some();
        let mut res = spi::combat_with_result(&self.input, t, dice, entered(&self.entered_result))?;
        let mut lines = self.role_lines(state);
        lines.extend(self.terrain_lines(&mut res.modifiers, t));
        lines.append(&mut res.modifiers);
        res.modifiers = lines;
        let mut fx = Vec::new();
        if !rolling {
            return Ok(done(res, fx));
        }
        if let Some(o) = res.outcome.as_ref()
            && o.result.is_none()
            && !self.input.dummies_only
        {
            return Err(ask_for_result(
                &o.odds,
                o.die,
                o.modified_die,
                o.valid_results.as_deref(),
            ));
        }
        let att = units(state, &self.attacker_ids, "attacker")?;
        let def = units(state, &self.defender_ids, "defender")?;
        // SPI-H1: "If they should be Dummy units, they are removed": revealed by the combat,
        // whatever its result.
        for u in def.iter().filter(|u| spi_role(u) == SpiRole::Dummy) {
            lose(u, u.strength, &mut fx);
        }
        for (id, _) in &self.losses {
            let ok = att
                .iter()
                .chain(&def)
                .any(|u| &u.unit.id == id && loss_order(&[*u]).len() == 1);
            if !ok {
                return Err(RuleError::input(
                    "--losses",
                    format!("`{id}` is not an engaged combat or fortification unit"),
                    "ids of the attackers and of the units in the attacked hex (SPI-R1)",
                ));
            }
        }
        if let Some(r) = res.outcome.as_ref().and_then(|o| o.result) {
            split_losses(
                &loss_order(&def),
                r.defender,
                &self.losses,
                "defender",
                &mut fx,
            )?;
            split_losses(
                &loss_order(&att),
                r.attacker,
                &self.losses,
                "attacker",
                &mut fx,
            )?;
        }
        Ok(done(res, fx))
    }
}

/// SPI-R1: the units that can take combat point losses, in the default order: the combat units,
/// then the fortification ("Players on the defensive in a hex with a Fortification unit may lose
/// from either the Fortification unit or any Combat units in the fort"). EB units and dummies take
/// none.
fn loss_order<'a>(us: &[&'a UnitState]) -> Vec<&'a UnitState> {
    let of = |r: SpiRole| us.iter().copied().filter(move |u| spi_role(u) == r);
    of(SpiRole::Combat)
        .chain(of(SpiRole::Fortification))
        .collect()
}

/// SPI-R1 (A): "the owning Player may distribute the Combat Point losses among the units involved
/// in any fashion he wishes, as long as the separate losses are equivalent to the total". The
/// owner's split (`chosen`, unit id and CP) for this side's units `us`, checked against the
/// result: each unit at most its strength, the sum the loss (or all the side has, when the loss is
/// more). No entry for this side: kepi's default order ([`spi_losses`]).
fn split_losses(
    us: &[&UnitState],
    loss: SpiLoss,
    chosen: &[(String, u32)],
    side: &str,
    fx: &mut Vec<Action>,
) -> Result<(), RuleError> {
    let mine: Vec<(&UnitState, u32)> = chosen
        .iter()
        .filter_map(|(id, n)| us.iter().find(|u| &u.unit.id == id).map(|u| (*u, *n)))
        .collect();
    if mine.is_empty() {
        spi_losses(us, loss, fx);
        return Ok(());
    }
    let accepted = "UNIT=N,... over the side's engaged units, adding up to the combat points the \
                    result takes (SPI-R1)";
    let due = match loss {
        SpiLoss::Cp(n) => n.min(us.iter().map(|u| u.strength).sum()),
        SpiLoss::None | SpiLoss::Eliminated => {
            return Err(RuleError::input(
                "--losses",
                format!(
                    "the result leaves the {side} no combat points to spread ({}), yet --losses \
                     names {}",
                    if loss == SpiLoss::None {
                        "it loses nothing"
                    } else {
                        "every unit is eliminated"
                    },
                    mine.iter()
                        .map(|(u, _)| u.unit.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                accepted,
            ));
        }
    };
    for (u, n) in &mine {
        if *n > u.strength {
            return Err(RuleError::input(
                "--losses",
                format!(
                    "{}={n}: {} has {} combat points",
                    u.unit.id, u.unit.name, u.strength
                ),
                accepted,
            ));
        }
    }
    let sum: u32 = mine.iter().map(|(_, n)| n).sum();
    if sum != due {
        return Err(RuleError::input(
            "--losses",
            format!(
                "the {side}'s losses add up to {sum}, but the result takes {due} combat points"
            ),
            accepted,
        ));
    }
    for (u, n) in mine {
        lose(u, n, fx);
    }
    Ok(())
}

/// SPI-R1: combat points lost, spread over the units in order (the owner's default: the first unit
/// takes them until it is gone); eliminated: every unit.
fn spi_losses(us: &[&UnitState], loss: SpiLoss, fx: &mut Vec<Action>) {
    match loss {
        SpiLoss::None => {}
        SpiLoss::Cp(mut n) => {
            for u in us {
                if n == 0 {
                    break;
                }
                n -= lose(u, n, fx);
            }
        }
        SpiLoss::Eliminated => {
            for u in us {
                lose(u, u.strength, fx);
            }
        }
    }
}

impl HexCombatForm for SpiForm {
    fn typed_result_error(&self) -> Option<String> {
        entered(&self.entered_result).and_then(|t| {
            kepi_game::rules::crt::typed_result::<crate::spi::SpiResult>(
                t,
                crate::spi::SpiResult::ACCEPTED,
            )
            .err()
        })
    }
    const TAG: &'static str = "spi";
    hex_combat_fields!(crate::spi::SpiTables);
    /// How SPI words its combat limits (SPI-C2).
    fn texts(&self) -> &'static Texts {
        &SPI
    }
    fn combat_refusal(&self, state: &GameState) -> Option<String> {
        spi_refusal(self, state)
    }
    #[cfg(feature = "gui")]
    fn panel(&mut self, ui: &mut egui::Ui, state: &GameState) {
        super::panel::spi_situation_ui(ui, self, state);
    }
}

hex_combat_set_form!(SpiForm);

/// SPI: the attacker and the defending hex are enemies; only combat units attack (SPI-F1: a
/// fortification's strength "may only be used on the defensive"; SPI-E1: EB units are not combat
/// units; SPI-H1: "Dummy counters may not" make hasty attacks and are not real in combat); a hasty
/// attack has one attacker (SPI-H1); a flanking attack only where the attackers' hexes make one
/// (SPI-C3, read from the map).
pub fn spi_refusal(f: &SpiForm, state: &GameState) -> Option<String> {
    if let Some(why) = opposed(state, f.actor.as_deref(), f.target.as_deref(), "attack") {
        return Some(why);
    }
    for u in f.attacker_ids.iter().filter_map(|id| state.unit(id)) {
        let why = match spi_role(u) {
            SpiRole::Combat => continue,
            SpiRole::Fortification => {
                "is a fortification: its strength may only be used on the defensive (SPI-F1)"
            }
            SpiRole::Eb => "is an EB unit, not a combat unit: it cannot attack (SPI-E1)",
            SpiRole::Dummy => "is a dummy counter: dummies cannot attack (SPI-H1)",
        };
        return Some(format!("{} {why}", name(u)));
    }
    if f.input.hasty && f.attacker_ids.len() > 1 {
        return Some(format!(
            "a hasty attack is made by one unit, not {} (SPI-H1)",
            f.attacker_ids.len()
        ));
    }
    if f.input.flank {
        let hex = f
            .defender_ids
            .iter()
            .filter_map(|id| state.unit(id))
            .map(|u| u.position)
            .next()?;
        if let Err(why) = spi_flank_geometry(state, &f.attacker_ids, hex) {
            return Some(why);
        }
    }
    None
}

pub(crate) const SPI: Texts = Texts {
    adjacent: "SPI-C2, Combat case A: \"Only those Friendly units directly adjacent to a given \
               Enemy unit may participate in the attack upon that Enemy unit\"",
    attack_once: "SPI-C2, case C: \"No unit may attack more than once per Combat Phase\"",
    attacked_once: "SPI-C2, case C: \"No Enemy unit may be attacked more than once per Combat \
                    Phase\"",
    fights_once: false,
};

/// SPI (SPI-C4: the attackers advance into the vacated hex).
pub(crate) const AFTER_COMBAT: crate::board::moves::MoveTexts = crate::board::moves::MoveTexts {
    advance_rule: "SPI-C4",
    advance: "SPI-C4: the advance after combat into the vacated hex is made by the attackers",
    retreat: None,
};

#[cfg(test)]
mod tests {
    use super::*;
    use kepi_game::dice::Die;
    use kepi_game::engine::game::Supply;

    use crate::board::form::testing::{game, now};
    use crate::spi::SupplyState;
    use kepi_game::rules::Tables;

    /// SPI-C1: the CRT is not in the seed; without an entry the roll asks for the printed result
    /// and changes nothing; with one, SPI-R1's losses fall on the target, then the attacker.
    #[test]
    fn spi_unknown_cell_then_entered_result() {
        let t = &Tables::default();
        let mut g = game("spi-1870", crate::spi::ID);
        let mut f = SpiForm::all().remove(0);
        f.prefill(g.state(), Some("de-2-5-1"), Some("fr-metz-5"));
        assert_eq!(f.input.attackers[0].strength, 5);
        assert_eq!(f.input.defenders[0].strength, 5);
        let before = g.log().len();
        let e = g
            .resolve(
                &[(Die::D6, 3)],
                |s, d| f.resolve(s, t.get::<crate::spi::SpiTables>(), Some(d)),
                now(),
            )
            .unwrap_err()
            .to_string();
        assert!(e.contains("d6=3") && e.contains("--result"), "{e}");
        assert_eq!(g.log().len(), before, "nothing logged against the die");
        assert_eq!(g.state().unit("fr-metz-5").unwrap().strength, 5);
        f.entered_result = Some("A1/D2".into());
        g.resolve(
            &[(Die::D6, 3)],
            |s, d| f.resolve(s, t.get::<crate::spi::SpiTables>(), Some(d)),
            now(),
        )
        .unwrap();
        assert_eq!(g.state().unit("fr-metz-5").unwrap().strength, 3);
        assert_eq!(g.state().unit("de-2-5-1").unwrap().strength, 4);
        g.undo(now()).unwrap();
        assert_eq!(g.state().unit("fr-metz-5").unwrap().strength, 5);
    }

    /// SPI-S1: an unsupplied attacker attacks at half strength.
    #[test]
    fn spi_supply_from_the_unit_state() {
        let t = &Tables::default();
        let mut g = game("spi-1870", crate::spi::ID);
        g.act(
            Action::SetSupply {
                unit: "de-2-5-1".into(),
                supply: Supply::Unsupplied,
            },
            now(),
        )
        .unwrap();
        let mut f = SpiForm::all().remove(0);
        f.prefill(g.state(), Some("de-2-5-1"), Some("fr-metz-5"));
        assert_eq!(f.input.attackers[0].supply, SupplyState::Unsupplied);
        let (res, _) = f
            .resolve(g.state(), t.get::<crate::spi::SpiTables>(), None)
            .unwrap();
        assert!(res.summary.starts_with("1:2"), "{}", res.summary);
    }

    /// SPI-H2: a unit's formation as changed in play is the one its combats read ("halved
    /// (extended)" in attack and defence); before any change, the card's (concentrated here).
    #[test]
    fn spi_formation_from_the_unit_state() {
        let t = &Tables::default();
        let mut g = game("spi-1870", crate::spi::ID);
        let mut f = SpiForm::all().remove(0);
        f.prefill(g.state(), Some("de-2-5-1"), Some("fr-metz-5"));
        assert_eq!(f.input.attackers[0].formation, spi::Formation::Concentrated);
        g.act(
            Action::SetFlag {
                unit: "de-2-5-1".into(),
                flag: kepi_game::engine::game::Flag::Extended.into(),
                on: true,
            },
            now(),
        )
        .unwrap();
        f.prefill(g.state(), Some("de-2-5-1"), Some("fr-metz-5"));
        assert_eq!(f.input.attackers[0].formation, spi::Formation::Extended);
        let (res, _) = f
            .resolve(g.state(), t.get::<crate::spi::SpiTables>(), None)
            .unwrap();
        assert!(
            res.modifiers
                .iter()
                .any(|m| m.label.contains("halved (extended)") && m.rule.as_str() == "SPI-H2"),
            "{:?}",
            res.modifiers
        );
    }

    /// SPI-C5 read from kepi's example board (rough 0807-0909, a ridge on 0909's north-west,
    /// north-east and south-east sides): the chart's "if all units are attacking through ridge
    /// hexsides" holds for the attacker from 0908 alone; one from 0809 makes it false, naming it;
    /// one not next to the hex makes it false (SPI-C1 case A), one off the map unknown (the
    /// umpire ticks). Without a map nothing is known.
    #[test]
    fn spi_terrain_read_from_the_map() {
        let ids = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<String>>();
        let g = game("spi-1870", crate::spi::ID);
        let mut s = g.state().clone();
        let bare = map_terrain(&s, &ids(&["de-2-5-1"]), &ids(&["fr-metz-5"]));
        assert_eq!(bare.rough.on, None);
        assert_eq!(bare.rough.why.as_deref(), Some("the game carries no map"));
        s.map = Some(kepi_game::map::MapFile::named("example-hex").unwrap());
        let at = |s: &mut GameState, id: &str, hex: &str| {
            if let Some(u) = s.units.iter_mut().find(|u| u.unit.id == id) {
                u.position = hex.parse().unwrap();
            }
        };
        at(&mut s, "fr-metz-5", "0909");
        at(&mut s, "de-2-5-1", "0908");
        let one = map_terrain(&s, &ids(&["de-2-5-1"]), &ids(&["fr-metz-5"]));
        assert_eq!(one.hex.as_deref(), Some("0909"));
        assert_eq!(
            (one.rough.on, one.ridge.on, one.river.on),
            (Some(true), Some(true), Some(false))
        );
        at(&mut s, "de-2-5-2", "0809");
        let two = map_terrain(&s, &ids(&["de-2-5-1", "de-2-5-2"]), &ids(&["fr-metz-5"]));
        assert_eq!(two.ridge.on, Some(false));
        assert!(
            two.ridge.why.as_deref().unwrap().contains("in 0809"),
            "{two:?}"
        );
        at(&mut s, "de-2-5-2", "0707");
        let far = map_terrain(&s, &ids(&["de-2-5-1", "de-2-5-2"]), &ids(&["fr-metz-5"]));
        assert_eq!(far.ridge.on, Some(false));
        assert!(
            far.ridge.why.as_deref().unwrap().contains("SPI-C1 case A"),
            "{far:?}"
        );
        at(&mut s, "de-2-5-2", "off");
        let off = map_terrain(&s, &ids(&["de-2-5-1", "de-2-5-2"]), &ids(&["fr-metz-5"]));
        assert_eq!(off.ridge.on, None, "{off:?}");
        assert_eq!(off.rough.on, Some(true));
        // In the form: the die line is labelled as the map's.
        let t = &Tables::default();
        let mut f = SpiForm::all().remove(0);
        f.prefill_engaged(&s, &ids(&["de-2-5-1"]), &ids(&["fr-metz-5"]));
        assert!(f.input.defender_rough && f.input.all_through_ridge);
        let (res, _) = f
            .resolve(&s, t.get::<crate::spi::SpiTables>(), None)
            .unwrap();
        let labels: Vec<&str> = res.modifiers.iter().map(|m| m.label.as_str()).collect();
        assert!(
            labels.contains(&"die: defender in rough terrain (map, 0909)"),
            "{labels:?}"
        );
        assert!(
            labels.contains(&"die: all attacking through ridge hexsides (map, 0909)"),
            "{labels:?}"
        );
    }

    /// An SPI combat on a friend is refused (`SetForm::refusal`), and the window's overrides
    /// never set the units of a combat (`engine::play::overrides`).
    #[test]
    fn spi_refuses_friends_and_overrides_leave_the_units() {
        let g = game("spi-1870", crate::spi::ID);
        let first = kepi_game::engine::play::Form::all_for(crate::spi::ID)
            .into_iter()
            .next()
            .unwrap();
        let ids = vec![(vec!["attacker_ids".to_string()], serde_json::json!(["x"]))];
        assert!(kepi_game::engine::play::overrides::apply_changes(&first, &ids).is_err());
        let mut f = kepi_game::engine::play::Form::all_for(crate::spi::ID)
            .into_iter()
            .find(|f| f.name() == "combat")
            .unwrap();
        f.prefill(
            g.state(),
            Some("de-1-5-1"),
            Some("de-1-6-1"),
            &Tables::default(),
        );
        assert!(f.refusal(g.state()).unwrap().contains("friendly"));
    }
}
