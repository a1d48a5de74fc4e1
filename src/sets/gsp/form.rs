//! Graveyard St. Privat in play: a battery of the game fires at a unit (GSP-A1..A4, C1, C3, S1).
//!
//! The battery's card gives the piece (its weapon) and the guns (its strength); the form adds the load,
//! the range sector or measured range, the cover and line of sight, and, optionally, which unit stands
//! in which sector around the target. Shells that land on the target cost it figures; shells that
//! drift into a neighbouring sector cost the unit named there, or are only reported when nobody is
//! named. The battery is marked as having fired, and all of it is one undoable step.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::gsp::{
    self, Cell, Cover, FireInput, GspTables, GunStatus, GunType, Length, Load, Occupants, Piece,
    SectorContents, Target,
};
use kepi_game::dice::DiceSource;
use kepi_game::engine::game::{Action, Flag, GameState, UnitState};
use kepi_game::engine::play::refuse::{name, opposed, over};
use kepi_game::engine::play::{Resolved, done, lose, unit};
use kepi_game::roster::Arm;
use kepi_game::roster::{Arm as CardArm, Weapon as CardWeapon};
use kepi_game::rules::RuleError;

/// The unit standing in a sector around the target, and its cover there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Neighbour {
    /// Unit id.
    pub unit: String,
    /// The men's cover in that sector (GSP-C1).
    #[serde(default)]
    pub cover: Cover,
}

/// A Graveyard St. Privat artillery form: a battery of the game, a target unit and the situation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GspForm {
    /// The firing battery's unit id.
    pub actor: Option<String>,
    /// The target unit id (it stands in the target sector).
    pub target: Option<String>,
    /// The piece, from the battery's weapon (None: the card names no Graveyard St. Privat gun).
    pub piece: Option<Piece>,
    /// GSP-A4: the load a 4/6 pounder chooses (ignored for the siege gun and the mitrailleuse).
    pub load: Load,
    /// GSP-A4: guns firing, one die each (the battery's strength).
    pub guns: u32,
    /// GSP-A1: the range sector aimed at, unless a range is measured.
    pub sector: u32,
    /// GSP-A1: a measured range (inches or centimetres), turned into the sector.
    #[serde(default)]
    pub range: Option<Length>,
    /// GSP-A2: line of sight to the target (AP and mitrailleuse need it).
    pub line_of_sight: bool,
    /// GSP-C1: the target's cover (and anywhere a shell lands that names no cover of its own).
    pub cover: Cover,
    /// GSP-A4/S1: what the battery did this turn (moved, unlimbered, turned, hidden).
    pub status: GunStatus,
    /// GSP-A4: the battery is limbered (it must unlimber, and cannot fire the turn it does).
    pub limbered: bool,
    /// GSP-A3: who stands over, short, left or right of the target, by landing sector.
    #[serde(default)]
    pub around: BTreeMap<Cell, Neighbour>,
}

impl Default for GspForm {
    fn default() -> Self {
        GspForm {
            actor: None,
            target: None,
            piece: None,
            load: Load::Shell,
            guns: 1,
            sector: 3,
            range: None,
            line_of_sight: true,
            cover: Cover::None,
            status: GunStatus::default(),
            limbered: false,
            around: BTreeMap::new(),
        }
    }
}

/// GSP-A4: a card's gun as a Graveyard St. Privat piece (None for anything the chart does not list,
/// such as the French 12 pounder).
pub fn piece_of(u: &UnitState) -> Option<Piece> {
    match u.unit.weapon {
        Some(CardWeapon::Prussian4pdr | CardWeapon::Prussian6pdr) => Some(Piece::Prussian46),
        Some(CardWeapon::SiegeGun) => Some(Piece::PrussianSiege),
        Some(CardWeapon::French4pdr) => Some(Piece::French4),
        Some(CardWeapon::Mitrailleuse) => Some(Piece::Mitrailleuse),
        _ => None,
    }
}

/// GSP-C1/C3: the men of a unit standing in a sector; None for a battery, whose strength counts
/// guns, not its crew (its hits are reported, GSP-C3).
pub fn occupants_of(u: &UnitState) -> Option<Occupants> {
    match u.unit.arm {
        CardArm::Artillery => None,
        CardArm::Cavalry => Some(Occupants {
            cavalry: u.strength,
            ..Occupants::default()
        }),
        _ => Some(Occupants {
            infantry: u.strength,
            ..Occupants::default()
        }),
    }
}

impl GspForm {
    /// The one Graveyard St. Privat action: artillery fire.
    pub fn all() -> Vec<GspForm> {
        vec![GspForm::default()]
    }

    /// The action's name.
    pub fn name(&self) -> &'static str {
        "artillery"
    }

    /// Artillery always has a target.
    pub fn needs_target(&self) -> bool {
        true
    }

    /// GSP-A4: the chart column for the piece and its load.
    pub fn gun(&self) -> Result<GunType, RuleError> {
        let piece = self.piece.ok_or_else(|| {
            RuleError::input(
                "battery",
                "no Graveyard St. Privat gun: pick a battery in the roster or choose its piece",
                Piece::accepted(),
            )
        })?;
        gsp::gun_type(piece, piece.chooses_load().then_some(self.load))
    }

    /// Sets the units and pre-sets the gun, guns, eligibility and the target's cover from their state.
    pub fn prefill(
        &mut self,
        state: &GameState,
        actor: Option<&str>,
        target: Option<&str>,
        _t: &GspTables,
    ) {
        self.actor = actor.map(str::to_string);
        if let Some(a) = actor.and_then(|id| state.unit(id)) {
            self.piece = piece_of(a);
            self.guns = a.strength;
            // GSP-A4: only guns not moved (or unlimbered) this turn fire.
            self.status.moved_this_turn = a.moved;
            self.limbered = a.limbered;
            // GSP-S1: the siege gun cannot fire while hidden.
            self.status.hidden =
                a.carries(&crate::gsp::marks::HIDDEN) && self.piece == Some(Piece::PrussianSiege);
        }
        self.target = target.map(str::to_string);
        if let Some(b) = target.and_then(|id| state.unit(id)) {
            // GSP-S1: the siege gun's sector is fortified.
            if b.unit.weapon == Some(CardWeapon::SiegeGun) {
                self.cover = Cover::Fortified;
            } else if self.cover == Cover::Fortified {
                self.cover = Cover::None;
            }
        }
        // The target stands in the target sector, not around it.
        self.around.retain(|_, n| Some(n.unit.as_str()) != target);
    }

    /// The rule's input: the gun, the aim, and the men where shells can land (the target in the
    /// target sector, the named neighbours around it).
    pub fn fire_input(&self, state: &GameState) -> Result<FireInput, RuleError> {
        let gun = self.gun()?;
        let mut sectors = BTreeMap::new();
        if let Some(b) = self.target.as_deref().and_then(|id| state.unit(id))
            && let Some(occupants) = occupants_of(b)
        {
            sectors.insert(
                Cell::OnTarget,
                SectorContents {
                    occupants,
                    cover: self.cover,
                    ..SectorContents::default()
                },
            );
        }
        for (cell, n) in self.around.iter().filter(|(c, _)| **c != Cell::OnTarget) {
            let u = unit(state, Some(&n.unit), &format!("unit {cell} of the target"))?;
            if let Some(occupants) = occupants_of(u) {
                sectors.insert(
                    *cell,
                    SectorContents {
                        occupants,
                        cover: n.cover,
                        ..SectorContents::default()
                    },
                );
            }
        }
        Ok(FireInput {
            gun,
            guns: self.guns,
            target: match self.range {
                Some(range) => Target::Range {
                    range,
                    sector_length: None,
                },
                None => Target::Sector(self.sector),
            },
            line_of_sight: self.line_of_sight,
            cover: self.cover,
            sectors,
            status: self.status.clone(),
        })
    }

    /// GSP-A4: a limbered battery does not fire. One that has already fired this turn is the
    /// umpire's call, as in every rule set: a note before the roll and in its log entry
    /// ([`kepi_game::engine::flow::phase_warnings`]), never a refusal.
    fn check_battery(&self, _state: &GameState) -> Result<(), RuleError> {
        if self.limbered {
            return Err(RuleError::input(
                "limbered",
                "GSP-A4: a limbered battery cannot fire; unlimber it (a gun unlimbered this turn may not fire)",
                "an unlimbered battery",
            ));
        }
        Ok(())
    }

    /// The unit standing in a landing sector: the target on target, else the named neighbour.
    fn unit_at<'a>(&self, state: &'a GameState, cell: Cell) -> Option<&'a UnitState> {
        let id = if cell == Cell::OnTarget {
            self.target.as_deref()
        } else {
            self.around.get(&cell).map(|n| n.unit.as_str())
        };
        id.and_then(|id| state.unit(id))
    }

    /// Resolves; with dice, the shells' casualties become strength losses where a unit is named,
    /// and the battery is marked as having fired.
    pub fn resolve(
        &self,
        state: &GameState,
        t: &GspTables,
        dice: Option<&mut DiceSource>,
    ) -> Result<Resolved, RuleError> {
        self.check_battery(state)?;
        let input = self.fire_input(state)?;
        let rolling = dice.is_some();
        let mut res = gsp::fire(&input, t, dice)?;
        let mut fx = Vec::new();
        if rolling {
            let a = unit(state, self.actor.as_deref(), "battery")?;
            unit(state, self.target.as_deref(), "target")?;
            // Losses per unit over all sectors (a unit named twice never loses more than it has).
            let mut losses: BTreeMap<String, u32> = BTreeMap::new();
            if let Some(o) = &res.outcome {
                for c in o.cells.iter().filter(|c| c.personnel_hits > 0) {
                    let place = if c.cell == Cell::OnTarget {
                        "on target".to_string()
                    } else {
                        format!("{} of the target", c.cell)
                    };
                    match (self.unit_at(state, c.cell), c.casualties) {
                        (Some(u), Some(cas)) => {
                            *losses.entry(u.unit.id.clone()).or_default() += cas.total();
                        }
                        (Some(u), None) => res.notes.push(format!(
                            "GSP-C3: {} personnel hits {place} fall on the crew and team of {}: one hit kills a cannoneer or a team horse; its strength counts guns and is not changed (`kepi resolve gsp crew`)",
                            c.personnel_hits, u.unit.name
                        )),
                        // Issue 46: resolving again would re-roll every die; the hits are
                        // placed by hand on whoever stands in the cell named.
                        (None, _) => res.notes.push(format!(
                            "GSP-A3: {} personnel hits land {place}, where no unit is named{}{place} (take them off its strength in the roster; name it under \"What stands around the target\" for the next fire); do not resolve again, which re-rolls every die",
                            c.personnel_hits,
                            kepi_game::rules::BY_HAND,
                        )),
                    }
                }
            }
            for (id, n) in losses {
                if let Some(u) = state.unit(&id) {
                    lose(u, n, &mut fx);
                }
            }
            fx.push(Action::SetFlag {
                unit: a.unit.id.clone(),
                flag: Flag::Fired.into(),
                on: true,
            });
        }
        Ok(done(res, fx))
    }
}

/// The gsp form as the engine sees it (issue 27: a built-in rule set goes through the same trait
/// a registered one uses, its tables passed in).
impl kepi_game::engine::play::SetForm for GspForm {
    #[cfg(feature = "gui")]
    fn situation_ui(&mut self, ui: &mut egui::Ui, state: &GameState) {
        super::panel::situation_ui(ui, self, state);
    }

    fn name(&self) -> &'static str {
        GspForm::name(self)
    }

    fn units(&self) -> (Option<&str>, Option<&str>) {
        (self.actor.as_deref(), self.target.as_deref())
    }

    fn needs_target(&self) -> bool {
        GspForm::needs_target(self)
    }

    fn prefill(
        &mut self,
        state: &GameState,
        actor: Option<&str>,
        target: Option<&str>,
        tables: &kepi_game::rules::Tables,
    ) {
        self.prefill(state, actor, target, tables.get::<crate::gsp::GspTables>())
    }

    fn refusal(&self, state: &GameState) -> Option<String> {
        refusal(self, state)
    }

    /// GSP-A4 (issue 42's audit): a battery unlimbered this turn firing ([`unlimbered_breach`]).
    fn breaches(
        &self,
        game: &kepi_game::engine::game::Game,
        _tables: &kepi_game::rules::Tables,
    ) -> Vec<String> {
        unlimbered_breach(game, self.actor.as_deref())
            .into_iter()
            .collect()
    }

    /// GSP-A3, A4: a hit die per gun, then (shell and siege fire) two accuracy-of-aim dice per
    /// hit, in gun order: how many hits there are is known only from the hit dice, so those are
    /// kepi's to roll when none are typed (the card says so).
    fn dice_groups(&self) -> Vec<kepi_game::dice::DiceGroup> {
        use kepi_game::dice::{DiceGroup, Die};
        let guns = self.guns.max(1);
        let mut g = vec![DiceGroup::exactly(
            format!("hit dice (d6 x {guns})"),
            Die::D6,
            guns,
        )];
        if self.gun().map_or(true, |g| g.drifts()) {
            g.push(DiceGroup::if_needed(
                "accuracy of aim (2d6 per hit)",
                Die::D6,
            ));
        }
        g
    }

    fn resolve(
        &self,
        state: &GameState,
        tables: &kepi_game::rules::Tables,
        dice: Option<&mut DiceSource>,
    ) -> Result<Resolved, RuleError> {
        GspForm::resolve(self, state, tables.get::<crate::gsp::GspTables>(), dice)
    }

    fn to_value(&self) -> serde_json::Value {
        kepi_game::engine::play::tagged_value("gsp", self)
    }

    fn with_value(
        &self,
        v: &serde_json::Value,
    ) -> Option<Box<dyn kepi_game::engine::play::SetForm>> {
        kepi_game::engine::play::from_tagged::<GspForm>("gsp", v)
            .map(|f| Box::new(f) as Box<dyn kepi_game::engine::play::SetForm>)
    }

    fn boxed_clone(&self) -> Box<dyn kepi_game::engine::play::SetForm> {
        Box::new(self.clone())
    }
}

/// GSP-A4 as printed: which guns fire.
const NOT_UNLIMBERED: &str =
    "\"Only guns that have not been moved or unlimbered in that turn may be fired.\"";

/// The notes of [`unlimbered_breach`], which earlier kepis did not give (issue 42): `kepi log
/// verify` takes a fire logged without them.
pub(crate) const NOTED_SINCE_ISSUE_42: &[&str] = &[NOT_UNLIMBERED];

/// GSP-A4: "Only guns that have not been moved or unlimbered in that turn may be fired." A battery unlimbered this turn (its
/// limbered marker taken off in this game-turn, by hand or with the unit editor) firing is noted
/// before the roll and logged with it; the umpire decides (a battery still limbered is refused:
/// its guns are on their limbers).
pub fn unlimbered_breach(
    game: &kepi_game::engine::game::Game,
    actor: Option<&str>,
) -> Option<String> {
    let s = game.state();
    let u = s.unit(actor?)?;
    let unlimbered = game
        .in_effect()
        .rev()
        .take_while(|e| e.entry.turn == s.turn)
        .any(|e| {
            matches!(e.action, kepi_game::engine::game::Action::SetFlag {
                unit,
                flag: kepi_game::engine::game::FlagName::Flag(kepi_game::engine::game::Flag::Limbered),
                on: false,
            } if unit == &u.unit.id)
                && e.before.unit(&u.unit.id).is_some_and(|b| b.limbered)
        });
    unlimbered.then(|| {
        format!(
            "{} was unlimbered this turn (GSP-A4: {NOT_UNLIMBERED})",
            u.unit.name
        )
    })
}

/// Graveyard St. Privat: a battery fires at the enemy, with no more guns than it has.
pub fn refusal(f: &GspForm, state: &GameState) -> Option<String> {
    let actor = f.actor.as_deref().and_then(|id| state.unit(id));
    if let Some(a) = actor
        && a.unit.arm != Arm::Artillery
    {
        return Some(format!(
            "{} is {}: only a battery fires (GSP-A4)",
            name(a),
            a.unit.arm
        ));
    }
    // GSP-A1: a battery fires the piece on its card (the hit chart has a column per piece).
    if let Some(a) = actor
        && let (Some(own), Some(asked)) = (piece_of(a), f.piece)
        && own != asked
    {
        return Some(format!(
            "{} is a battery of {own}: it cannot fire as {asked} (GSP-A1: the hit chart has a column per piece; a battery reads \
             its own)",
            name(a)
        ));
    }
    opposed(state, f.actor.as_deref(), f.target.as_deref(), "fire at")
        .or_else(|| over(actor, f.guns, "guns firing"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kepi_game::dice::Die;
    use kepi_game::engine::game::{Action, EntryKind, Game, SeedSecret};
    use kepi_game::engine::play::Form;
    use kepi_game::registry::builtin_scenario;

    use chrono::{TimeZone, Utc};
    use kepi_game::rules::Tables;

    fn game() -> Game {
        let s = builtin_scenario("st-privat").unwrap();
        Game::new(
            &s,
            crate::gsp::ID,
            SeedSecret::new(7),
            Utc.timestamp_opt(0, 0).unwrap(),
        )
    }

    fn form(g: &Game, actor: &str, target: &str) -> Form {
        let t = &Tables::default();
        let mut f = Form::all_for(crate::gsp::ID).remove(0);
        f.prefill(g.state(), Some(actor), Some(target), t);
        f
    }

    fn gsp(f: &mut Form) -> &mut GspForm {
        f.get_mut::<GspForm>().expect("a gsp form")
    }

    fn apply(g: &mut Game, f: &Form, dice: &[u32]) -> Result<(), String> {
        let t = &Tables::default();
        let entered: Vec<(Die, u32)> = dice.iter().map(|d| (Die::D6, *d)).collect();
        g.resolve(
            &entered,
            |s, d| f.resolve(s, t, Some(d)),
            Utc.timestamp_opt(1, 0).unwrap(),
        )
        .map(|_| ())
        .map_err(|e| e.to_string())
    }

    #[test]
    fn prefill_reads_the_battery_card() {
        let g = game();
        let mut f = form(&g, "gfar-heavy-1", "9e-ligne-1");
        assert_eq!(f.name(), "artillery");
        assert!(f.needs_target());
        assert_eq!(f.units(), (Some("gfar-heavy-1"), Some("9e-ligne-1")));
        let gf = gsp(&mut f);
        // GSP-A4: a 6 pounder is a 4/6 pounder and chooses its load; strength counts guns.
        assert_eq!(gf.piece, Some(Piece::Prussian46));
        assert_eq!(gf.guns, 6);
        assert!(!gf.limbered);
        assert_eq!(gf.gun().unwrap(), GunType::Prussian46Shell);
        gf.load = Load::Ap;
        assert_eq!(gf.gun().unwrap(), GunType::Prussian46Ap);
        // GSP-S1: the siege gun starts hidden and cannot fire.
        let mut s = form(&g, "siege-gun", "9e-ligne-1");
        let sf = gsp(&mut s);
        assert_eq!(sf.piece, Some(Piece::PrussianSiege));
        assert!(sf.status.hidden);
        let t = &Tables::default();
        let e = s.resolve(g.state(), t, None).unwrap_err().to_string();
        assert!(e.contains("GSP-S1"), "{e}");
        // GSP-A4: the limbered reserve battery cannot fire.
        let r = form(&g, "6e-corps-batterie-reserve", "1st-foot-guards-1");
        let e = r.resolve(g.state(), t, None).unwrap_err().to_string();
        assert!(e.contains("GSP-A4") && e.contains("limbered"), "{e}");
    }

    #[test]
    fn on_target_hits_cost_the_target_and_mark_the_battery() {
        // GSP-A1/A3/C1: a Prussian 6 pdr shell at sector 3 hits on 2-5; A.O.A. 3+4 = 7 is on target.
        let mut g = game();
        let mut f = form(&g, "gfar-heavy-1", "9e-ligne-1");
        gsp(&mut f).guns = 1;
        let preview = f.resolve(g.state(), &Tables::default(), None).unwrap();
        assert!(preview.0.outcome.is_none() && preview.1.is_empty());
        apply(&mut g, &f, &[4, 3, 4]).unwrap();
        let s = g.state();
        assert_eq!(s.unit("9e-ligne-1").unwrap().strength, 14 - 4);
        assert!(s.unit("gfar-heavy-1").unwrap().fired);
        let Some(EntryKind::Act {
            action: Action::Resolved { resolution, .. },
        }) = g.log().last().map(|e| &e.kind)
        else {
            panic!("a resolution")
        };
        let o = resolution.outcome.as_ref().unwrap();
        assert_eq!(o["drift"]["shells"], 1);
        // GSP-A4: having fired, a second fire is the umpire's call (noted, as in P&K), not refused.
        let warned = kepi_game::engine::play::breaches::warnings(&f, &g, &Tables::default());
        assert!(
            warned.iter().any(|w| w.contains("already fired this turn")),
            "{warned:?}"
        );
        apply(&mut g, &f, &[4, 3, 4]).unwrap();
        g.undo(Utc.timestamp_opt(2, 0).unwrap()).unwrap();
        // Undo restores both.
        g.undo(Utc.timestamp_opt(2, 0).unwrap()).unwrap();
        assert_eq!(g.state().unit("9e-ligne-1").unwrap().strength, 14);
        assert!(!g.state().unit("gfar-heavy-1").unwrap().fired);
    }

    #[test]
    fn drifting_shells_fall_on_the_unit_named_there_or_are_reported() {
        // GSP-A3: 2d6 = 5 lands over; 2d6 = 9 lands short. GSP-C1: woods -1 over.
        let mut g = game();
        let mut f = form(&g, "gfar-heavy-1", "9e-ligne-1");
        {
            let gf = gsp(&mut f);
            gf.guns = 2;
            gf.around.insert(
                Cell::Over,
                Neighbour {
                    unit: "4e-ligne-1".into(),
                    cover: Cover::Woods,
                },
            );
        }
        // Hit dice 5 and 3 (both hit), then A.O.A. 2+3 (over) and 4+5 (short).
        apply(&mut g, &f, &[5, 3, 2, 3, 4, 5]).unwrap();
        let s = g.state();
        assert_eq!(s.unit("4e-ligne-1").unwrap().strength, 14 - 4);
        assert_eq!(s.unit("9e-ligne-1").unwrap().strength, 14);
        let Some(EntryKind::Act {
            action: Action::Resolved { resolution, .. },
        }) = g.log().last().map(|e| &e.kind)
        else {
            panic!("a resolution")
        };
        assert!(
            resolution
                .notes
                .iter()
                .any(|n| n.contains("3 personnel hits land short") && n.contains("not applied")),
            "{:?}",
            resolution.notes
        );
    }

    #[test]
    fn a_neighbour_named_twice_never_loses_more_than_it_has() {
        let mut g = game();
        // The target is an enemy (a battery firing at a friend is refused, issue 17); the
        // neighbour named twice is a friend that stray shells may still strike.
        let mut f = form(&g, "gfar-heavy-1", "9e-ligne-1");
        {
            let gf = gsp(&mut f);
            gf.guns = 3;
            for c in [Cell::Over, Cell::Short] {
                gf.around.insert(
                    c,
                    Neighbour {
                        unit: "guard-jaeger".into(),
                        cover: Cover::None,
                    },
                );
            }
        }
        // Hit dice 5, 5, 5; A.O.A. over, short, over: 15 hits on a 10-figure battalion.
        apply(&mut g, &f, &[5, 5, 5, 2, 3, 4, 5, 2, 3]).unwrap();
        assert_eq!(g.state().unit("guard-jaeger").unwrap().strength, 0);
    }

    #[test]
    fn direct_fire_needs_line_of_sight_and_strikes_the_target() {
        // GSP-A2: AP needs line of sight; no A.O.A. (hit die 2 at sector 1: 2 personnel hits).
        let mut g = game();
        let mut f = form(&g, "6e-corps-mitrailleuses", "guard-hussars");
        {
            let gf = gsp(&mut f);
            assert_eq!(gf.gun().unwrap(), GunType::Mitrailleuse);
            gf.guns = 1;
            gf.sector = 1;
            gf.line_of_sight = false;
        }
        let t = &Tables::default();
        assert!(f.resolve(g.state(), t, None).is_err());
        gsp(&mut f).line_of_sight = true;
        apply(&mut g, &f, &[2]).unwrap();
        assert_eq!(g.state().unit("guard-hussars").unwrap().strength, 8 - 2);
    }
}
