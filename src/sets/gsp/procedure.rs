//! GSP-A4 the artillery procedure and GSP-S1 the siege gun, as validation helpers over plain data.
//!
//! Artillery fires after rifle fire and its casualties, both sides at once: every fire of the phase is
//! resolved against the state before the phase, so a gun or crew wiped out by artillery still returns
//! fire this turn. Only guns not moved or unlimbered this turn fire; only 4/6 pounders choose a load.

use serde::{Deserialize, Serialize};

use super::GspTables;
use super::types::{GunType, Load, Piece, Terrain};
use kepi_game::dice::Ratio;
use kepi_game::dice::{DiceSource, Die, Dist};
use kepi_game::rules::{
    Effect, ModifierLine, Resolution, RuleError, RuleId, odds_from, rolled_line,
};

/// What a gun did this turn, for GSP-A4 eligibility (and GSP-S1 for the hidden siege gun).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct GunStatus {
    /// Moved this turn (cannot fire).
    pub moved_this_turn: bool,
    /// Unlimbered this turn (cannot fire).
    pub unlimbered_this_turn: bool,
    /// Degrees turned this turn: up to 90 without loss; more counts as a move.
    pub turned_degrees: u32,
    /// Pointed in the direction of the target.
    pub pointed_at_target: bool,
    /// The siege gun, still hidden (cannot fire).
    pub hidden: bool,
}

impl Default for GunStatus {
    fn default() -> Self {
        GunStatus {
            moved_this_turn: false,
            unlimbered_this_turn: false,
            turned_degrees: 0,
            pointed_at_target: true,
            hidden: false,
        }
    }
}

/// GSP-A4: guns turn 90 degrees without loss of firing; kepi reads any turn beyond 90 as the 180
/// that "is considered a move".
pub fn turn_is_a_move(degrees: u32) -> bool {
    degrees % 360 > 90 && degrees % 360 < 270
}

/// GSP-A4/S1: may this gun fire this turn? Each refusal names the rule and what would allow it.
pub fn check_can_fire(gun: GunType, status: &GunStatus) -> Result<(), RuleError> {
    if status.hidden {
        return Err(RuleError::input(
            "--hidden",
            if gun == GunType::PrussianSiege {
                "GSP-S1: the siege gun cannot fire while hidden; place it on the table first (it may fire the very turn it appears)"
            } else {
                "GSP-S1: only the siege gun is kept hidden, and a hidden gun cannot fire"
            },
            "a gun on the table",
        ));
    }
    if status.moved_this_turn || turn_is_a_move(status.turned_degrees) {
        return Err(RuleError::input(
            "--moved",
            "GSP-A4: only guns that have not been moved this turn may fire (a turn of more than 90 degrees is a move)",
            "a gun that stood still or turned at most 90 degrees",
        ));
    }
    if status.unlimbered_this_turn {
        return Err(RuleError::input(
            "--unlimbered",
            "GSP-A4: a gun unlimbered this turn may not fire",
            "a gun unlimbered in an earlier turn",
        ));
    }
    if !status.pointed_at_target {
        return Err(RuleError::input(
            "pointed at target",
            "GSP-A4: to fire, a gun must be pointed in the direction of the target",
            "turn it (up to 90 degrees without loss) first",
        ));
    }
    Ok(())
}

/// GSP-A4: the chart column for a piece and a load; only the 4/6 pounders choose a load.
pub fn gun_type(piece: Piece, load: Option<Load>) -> Result<GunType, RuleError> {
    match (piece, load) {
        (Piece::Prussian46, Some(Load::Ap)) => Ok(GunType::Prussian46Ap),
        (Piece::Prussian46, Some(Load::Shell)) => Ok(GunType::Prussian46Shell),
        (Piece::French4, Some(Load::Ap)) => Ok(GunType::French4Ap),
        (Piece::French4, Some(Load::Shell)) => Ok(GunType::French4Shell),
        (Piece::Prussian46 | Piece::French4, None) => Err(RuleError::input(
            "load",
            format!("GSP-A4: the {piece} must indicate its load before firing"),
            "ap, shell",
        )),
        (Piece::PrussianSiege, None) => Ok(GunType::PrussianSiege),
        (Piece::Mitrailleuse, None) => Ok(GunType::Mitrailleuse),
        (Piece::PrussianSiege | Piece::Mitrailleuse, Some(l)) => Err(RuleError::input(
            "load",
            format!("GSP-A4: only the 4/6 pounders choose a load; the {piece} cannot fire {l}"),
            "no load for this piece",
        )),
    }
}

/// GSP-S1: the siege gun through the game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiegeGun {
    /// The two position dice rolled at the start of the first Prussian turn.
    pub position_dice: Option<[u32; 2]>,
    /// Where it is, as the umpire read it from the Part I position table.
    pub position: Option<String>,
    /// Still hidden from the French.
    pub hidden: bool,
    /// The terrain it stands in, once placed.
    pub terrain: Option<Terrain>,
}

impl SiegeGun {
    /// The total of the position dice.
    pub fn position_total(&self) -> Option<u32> {
        self.position_dice.map(|[a, b]| a + b)
    }

    /// GSP-S1: brings it onto the table (at the start of a Prussian turn, or when French units come
    /// adjacent to or into its position); never into woods, mountains or towns.
    pub fn place(&mut self, terrain: Terrain, tables: &GspTables) -> Result<(), RuleError> {
        check_siege_terrain(terrain, tables)?;
        self.terrain = Some(terrain);
        self.hidden = false;
        Ok(())
    }

    /// GSP-S1: the status to fire with (hidden guns cannot fire).
    pub fn status(&self) -> GunStatus {
        GunStatus {
            hidden: self.hidden,
            ..GunStatus::default()
        }
    }
}

/// GSP-S1: the siege gun "cannot be placed into woods, mountains, or towns".
pub fn check_siege_terrain(terrain: Terrain, tables: &GspTables) -> Result<(), RuleError> {
    if tables.siege.forbidden_terrain.get().contains(&terrain) {
        return Err(RuleError::input(
            "terrain",
            format!("GSP-S1: the siege gun cannot be placed in {terrain}"),
            "open ground (not woods, mountains or towns)",
        ));
    }
    Ok(())
}

/// GSP-S1: the French force the siege gun onto the table when they move adjacent to or into it.
pub fn must_reveal(french_adjacent_or_in: bool) -> bool {
    french_adjacent_or_in
}

/// The `siege-position` action's outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiegePlacement {
    /// The two dice.
    pub dice: [u32; 2],
    /// Their total (the row of Part I's position table).
    pub total: u32,
    /// The position as the umpire typed it from the printed table (unknown to kepi).
    pub position: Option<String>,
    /// The gun's state: rolled, hidden.
    pub siege_gun: SiegeGun,
}

/// GSP-S1: rolls the siege gun's hidden position on 2 dice and records it. The position table is in
/// Part I, which the seed does not hold (`unknown`): the umpire types the position read from it.
pub fn siege_position(
    position: Option<&str>,
    tables: &GspTables,
    dice: Option<&mut DiceSource>,
) -> Result<Resolution<SiegePlacement>, RuleError> {
    let n = tables.siege.position_dice.v();
    let totals = (0..n).fold(Dist::certain(0u32), |acc, _| {
        acc.zip(&Dist::die(Die::D6), |a, b| a + b)
    });
    let label = |t: &u32| format!("position roll {t}");
    let odds = odds_from(&totals, label);
    let mut rolls = Vec::new();
    let outcome = match dice {
        Some(src) => {
            let start = src.rolls().len();
            let a = src.roll(Die::D6, "siege position die 1")?;
            let b = if n >= 2 {
                src.roll(Die::D6, "siege position die 2")?
            } else {
                0
            };
            rolls = src.rolls()[start..].to_vec();
            let position = position
                .map(str::to_string)
                .filter(|p| !p.trim().is_empty());
            Some(SiegePlacement {
                dice: [a, b],
                total: a + b,
                position: position.clone(),
                siege_gun: SiegeGun {
                    position_dice: Some([a, b]),
                    position,
                    hidden: true,
                    terrain: None,
                },
            })
        }
        None => None,
    };
    let table = &tables.siege.position_table;
    let rolled = outcome
        .as_ref()
        .and_then(|o| rolled_line(&odds, &label(&o.total)));
    Ok(Resolution {
        system: crate::gsp::ID,
        action: "siege-position".into(),
        modifiers: vec![
            ModifierLine::new(
                "siege gun position: dice rolled",
                Effect::Base(Ratio::from(n)),
                RuleId::new("GSP-S1"),
                tables.siege.position_dice.provenance,
            ),
            ModifierLine::new(
                "position table (Part I \"Setup\"): read your printed table",
                Effect::Note,
                RuleId::new("GSP-S1"),
                table.provenance,
            ),
        ],
        dice: rolls,
        summary: match &outcome {
            Some(o) => format!(
                "siege gun position roll {} ({}+{}): {}; hidden until placed or until French units come adjacent",
                o.total,
                o.dice[0],
                o.dice[1],
                o.position
                    .as_deref()
                    .unwrap_or("type the position from Part I's table")
            ),
            None => "siege gun position: 2 dice".into(),
        },
        outcome,
        odds,
        rolled,
        notes: vec![
            "GSP-S1: the siege gun stays where it is all game, cannot fire while hidden, may fire the turn it appears; its sector is fortified (-1 pip)".into(),
        ],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eligibility() {
        let ok = GunStatus::default();
        assert!(check_can_fire(GunType::Mitrailleuse, &ok).is_ok());
        for s in [
            GunStatus {
                moved_this_turn: true,
                ..ok.clone()
            },
            GunStatus {
                unlimbered_this_turn: true,
                ..ok.clone()
            },
            GunStatus {
                turned_degrees: 180,
                ..ok.clone()
            },
            GunStatus {
                pointed_at_target: false,
                ..ok.clone()
            },
            GunStatus {
                hidden: true,
                ..ok.clone()
            },
        ] {
            assert!(check_can_fire(GunType::PrussianSiege, &s).is_err(), "{s:?}");
        }
        assert!(
            check_can_fire(
                GunType::French4Ap,
                &GunStatus {
                    turned_degrees: 90,
                    ..ok
                }
            )
            .is_ok()
        );
        assert!(!turn_is_a_move(270));
    }

    #[test]
    fn loads() {
        assert_eq!(
            gun_type(Piece::French4, Some(Load::Shell)).unwrap(),
            GunType::French4Shell
        );
        assert!(gun_type(Piece::Prussian46, None).is_err());
        assert!(gun_type(Piece::Mitrailleuse, Some(Load::Ap)).is_err());
        assert_eq!(
            gun_type(Piece::PrussianSiege, None).unwrap(),
            GunType::PrussianSiege
        );
    }

    #[test]
    fn siege_placement() {
        let t = kepi_game::tables::builtin::<crate::gsp::GspTables>();
        let mut g = SiegeGun {
            hidden: true,
            ..SiegeGun::default()
        };
        assert!(check_can_fire(GunType::PrussianSiege, &g.status()).is_err());
        assert!(g.place(Terrain::Woods, t).is_err());
        assert!(g.hidden);
        g.place(Terrain::Open, t).unwrap();
        assert!(check_can_fire(GunType::PrussianSiege, &g.status()).is_ok());
        let mut d = DiceSource::entered_only();
        d.enter(Die::D6, 3).unwrap();
        d.enter(Die::D6, 5).unwrap();
        let r = siege_position(Some("behind the ridge"), t, Some(&mut d)).unwrap();
        let o = r.outcome.clone().unwrap();
        assert_eq!(o.total, 8);
        assert!(o.siege_gun.hidden);
        assert_eq!(r.odds.len(), 11);
        assert_eq!(r.odds_total(), kepi_game::dice::Prob::ONE);
    }
}
