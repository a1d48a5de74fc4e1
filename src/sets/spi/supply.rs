//! SPI-S1 and SPI-S2 on a map (issue 42): SPI's supply declared as data for the map's trace
//! ([`kepi_game::map::supply::trace`], through `RuleSet::supply_rules`).

use kepi_game::engine::play::supply::{SupplyDecl, SupplyRoles};
use kepi_game::map::supply::{SecuredLines, SupplyRules};
use kepi_game::map::{Country, Side};
use kepi_game::roster::Arm;

/// SPI-S1: "a Supply Source for no more than ten hexes" (tables/spi.toml's
/// `supply.supplied_max_hexes`, seed).
pub const SUPPLIED_MAX_HEXES: u32 = 10;

/// SPI-S1: "a path of hexes no more than twenty-five hexes long" (`supply.unsupplied_max_hexes`).
pub const UNSUPPLIED_MAX_HEXES: u32 = 25;

/// SPI-F1 Case E: "Extending on all hexes up to three hexes distant from the Fortification unit's
/// hex".
pub const INTERDICTION_HEXES: u32 = 3;

/// SPI-E2 (Cases E and F): "it \"cuts\" that rail line. Place a \"Rail Cut\" marker on that
/// hex"; "Supply lines may not be traced by rail through a cut rail line, nor may units move by
/// rail through them"; "To repair a cut, a Friendly EB unit must simply move into the cut hex,
/// and remove the marker."
pub const RAIL_CUT: kepi_game::engine::game::CellMarkerKind =
    kepi_game::engine::game::CellMarkerKind {
        name: "rail-cut",
        label: "rail cut",
        tag: "cut",
        rule: "SPI-E2",
        what: "a Rail Cut marker: the rail line is cut in this hex (an enemy unit moved onto it); \
           supply is not traced by rail through it (SPI-S2) nor rail movement made through it",
    };

/// SPI-E2 (EB units): "each EB unit may move four hexes (regardless of terrain) along an Enemy
/// rail line, and, by doing so, extend the point from which a supply line may be traced. This
/// line must have been passed over by EB units describing a path leading back to the Player's
/// Home Country, and not have been passed over by an Enemy Combat Unit since being secured by the
/// EB unit." Put on the rail hexes of the enemy's country an EB unit's move passes along
/// ([`super::moves::move_effects`]), taken off the hex an enemy unit moves into; whose line it is
/// follows from the country (a secured hex in France is the German player's).
pub const SECURED: kepi_game::engine::game::CellMarkerKind =
    kepi_game::engine::game::CellMarkerKind {
        name: "secured",
        label: "secured line",
        tag: "EB",
        rule: "SPI-E2",
        what: "a rail hex of the enemy's country an EB unit has secured: a supply source for its            side while the secured hexes lead back to its home country (SPI-E2); not for rail            movement",
    };

/// SPI's supply on a map:
///
/// - SPI-S1: "To be supplied, a unit must be able to trace at least one continuous path of hexes
///   which does not pass through Enemy occupied or controlled hexes to a Supply Source for no more
///   than ten hexes. To be considered unsupplied, ... no more than twenty-five hexes long ... A
///   unit is isolated if it fits neither"; "Fortification units are always supplied". Controlled
///   hexes are SPI-Z1's zones ([`super::set::board_rules`]): none across rivers, none from
///   entrained units, EB units or fortifications, none into hexes of friendly combat units.
/// - SPI-S2: "The French Player may use all of the French rail lines leading from the west and
///   south edges of the map as a Supply Source" (the map's French `supply` edges, traced along
///   rail hexsides of France "to the nearest hex that has been cut"); "The Germans have a single
///   Supply Source which is marked with an 'S'" (the map's German `supply` edge); "each
///   Fortification unit may be used as a Supply Source for one (and only one) Combat unit. The
///   fortifications at Metz and Strasburg are exceptions" ([`super::mechanics::fort_supply_capacity`]).
/// - SPI-E2: the rail hexes EB units have secured ([`SECURED`]) are sources where they lead back
///   to the side's home country.
/// - SPI-F1 Case E: the zone of interdiction, three hexes, "not into hexes occupied by Enemy units
///   or adjacent to them". EB units "do not impede Enemy movement or supply lines in any manner".
pub fn supply_rules() -> SupplyDecl {
    let moves = super::set::board_rules().moves;
    SupplyDecl {
        rules: SupplyRules {
            supplied: SUPPLIED_MAX_HEXES,
            unsupplied: UNSUPPLIED_MAX_HEXES,
            zoc: moves.zoc,
            interdiction: INTERDICTION_HEXES,
            rail_home: vec![(Side::French, Country::France)],
            secured: Some(SecuredLines {
                homes: vec![
                    (Side::French, Country::France),
                    (Side::German, Country::Germany),
                ],
                rule: "SPI-E2".into(),
                name: "EB-secured line".into(),
            }),
            rule: "SPI-S1".into(),
            source_rule: "SPI-S2".into(),
            interdiction_rule: "SPI-F1".into(),
            not_applied: vec![
                "rail cuts (SPI-E2): a rail line is cut where an enemy unit stands on it now and \
                 where a Rail Cut marker is; kepi puts the marker where an enemy unit's move ends \
                 on a rail hex, and the umpire marks the rail hexes it passed through on its way \
                 (`mark rail-cut HEX`)"
                    .into(),
                "EB-secured lines (SPI-E2): an EB unit secures the rail hexes of the enemy's \
                 country along the shortest way by rail to where its move ends, and a hex an \
                 enemy unit moves into leaves the line (cut); the hexes it passes on its way are \
                 the umpire's to mark (`mark secured HEX`, `unmark secured HEX`)"
                    .into(),
                "victory points (SPI-W1): supply drawn from fortifications still counts here"
                    .into(),
            ],
            own_line: None,
            rail_line: Vec::new(),
            ports: Vec::new(),
            forts_inside: false,
            cell_words: ["hex", "hexes"],
        },
        roles: SupplyRoles {
            forts: &[Arm::Fortress],
            untraced: &[Arm::Railway],
            capacity: |town, _, _| super::mechanics::fort_supply_capacity(town),
            occupied_shields: false,
            cut_marker: Some(RAIL_CUT.name),
            possession_markers: &[],
            passage_markers: &[],
            secured_marker: Some(SECURED.name),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The limits agree with tables/spi.toml's seed values.
    #[test]
    fn the_limits_are_the_tables_seed_values() {
        let t = kepi_game::registry::builtin_tables().unwrap();
        let spi = t.get::<crate::spi::SpiTables>();
        assert_eq!(spi.supply.supplied_max_hexes.v(), SUPPLIED_MAX_HEXES);
        assert_eq!(spi.supply.unsupplied_max_hexes.v(), UNSUPPLIED_MAX_HEXES);
        let d = supply_rules();
        assert_eq!((d.roles.capacity)("Metz", 12, false), None);
        assert_eq!((d.roles.capacity)("Toul", 2, false), Some(1));
    }
}
