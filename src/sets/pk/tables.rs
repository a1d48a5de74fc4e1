//! PK-C1 and every other P&K table: `tables/pk.toml` as typed data, each value with its provenance.
//!
//! The Combat Cards the text refers to are not printed in the seed, so most cells are `house`
//! defaults a club replaces by editing the TOML; the values the text prints are `seed` and quote it.

use serde::Deserialize;

use kepi_game::dice::Ratio;
use kepi_game::tables::{Check, RuleTable, Sourced, TableError};

type S<T> = Sourced<T>;

/// The Pickelhaube & Kepi tables (`tables/pk.toml`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PkTables {
    /// The rule set id, "pk".
    pub system: String,
    /// PK-C1: the Class Mod Table.
    pub class: ClassTable,
    /// Defence values (Values Table).
    pub dv: DvTable,
    /// Thresholds printed in the text (leader, flag, pursuit, fall-backs, limits).
    pub rules: RulesTable,
    /// PK-M1: the Movement Table.
    pub movement: MovementTable,
    /// PK-F5: the Cover Table.
    pub cover: CoverTable,
    /// PK-F1..F7: fire modifiers.
    pub fire: FireTable,
    /// PK-F1: rifle and carbine ranges.
    pub rifles: RifleTable,
    /// PK-A1..A4: the artillery tables.
    pub artillery: ArtilleryTable,
    /// PK-X3: the Melee Modifiers Table and the Melee Matrix.
    pub melee: MeleeTable,
    /// PK-X2: the Melee Counter Rolls Table.
    pub counter: CounterTable,
    /// PK-E1: the Effectiveness Table.
    pub effectiveness: EffectivenessTable,
    /// PK-E1, PK-L1, PK-L2: the Rally Roll Modifier Table and the figures that come back.
    pub rally: RallyTable,
    /// PK-W1: the Army Effectiveness Table.
    pub army: ArmyTable,
    /// PK-U1: the URT Table.
    pub urt: UrtTable,
    /// PK-V1: visibility distances and heights.
    pub visibility: VisibilityTable,
}

/// One class's row of the Class Mod Table (PK-C1).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassRow {
    /// Added to every d10 roll for combat and morale (never to a DV).
    pub modifier: S<i64>,
    /// One URT, as a fraction of a move.
    pub urt: S<Ratio>,
    /// Fatigue points gained per move in melee (PK-X5).
    pub fatigue: S<i64>,
}

/// PK-C1: the Class Mod Table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassTable {
    /// Elite.
    pub elite: ClassRow,
    /// Veteran.
    pub veteran: ClassRow,
    /// Line.
    pub line: ClassRow,
}

/// Defence values.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DvTable {
    /// Formed infantry, cavalry and artillery: DV 10.
    pub formed: S<i64>,
    /// Troops in skirmish order (and unlimbered gun crews hit in the open, PK-A3).
    pub skirmish: S<i64>,
}

/// Thresholds the text prints.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesTable {
    /// PK-L1: d% at or above this loses a leader.
    pub leader_min: S<u32>,
    /// PK-X4: d10 + class at or below this loses the flag.
    pub flag_lost_max: S<i64>,
    /// PK-X5: pursuit score at or above this advances.
    pub pursuit_min: S<i64>,
    /// PK-X5: inches fallen back after a failed fatigue check.
    pub fatigue_fall_back: S<i64>,
    /// PK-X6 / PK-E1: inches fallen back after dropping below a level.
    pub level_fall_back: S<i64>,
    /// PK-X7: melees a unit may fight in one turn.
    pub max_melees_per_turn: S<u32>,
    /// PK-M1: charge / run every this many moves.
    pub charge_every: S<u32>,
    /// PK-F7: supporting fire reaches enemies attacking friends within this many inches.
    pub support_distance: S<i64>,
    /// PK-X3: a 2nd rank counts only with at least this fraction of the 1st rank's figures.
    pub second_rank_min: S<Ratio>,
    /// PK-D1 / PK-U1: URTs to untangle a muddle.
    pub muddle_urts: S<i64>,
}

/// PK-M1: maximum moves in inches, and the charge or run move.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRow {
    /// Normal maximum move.
    pub normal: S<i64>,
    /// Charge (formed) or run (skirmishers) move, allowed every 4th move.
    pub charge: S<i64>,
}

/// PK-M1: the Movement Table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MovementTable {
    /// Formed infantry.
    pub formed_infantry: MoveRow,
    /// Light infantry in skirmish order.
    pub skirmish_infantry: MoveRow,
    /// Formed cavalry.
    pub cavalry: MoveRow,
    /// Light cavalry in skirmish order.
    pub light_cavalry: MoveRow,
    /// Foot artillery, limbered.
    pub foot_artillery: MoveRow,
    /// Horse artillery, limbered.
    pub horse_artillery: MoveRow,
    /// Generals and staff.
    pub general: MoveRow,
}

/// PK-F5: the Cover Table (added to the target's DV).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CoverTable {
    /// Fences, hedges, walls (linear; howitzers ignore it).
    pub fence: S<i64>,
    /// Trenches and earthworks (linear; "normal cover").
    pub trench: S<i64>,
    /// Woods, 2" or more inside.
    pub woods: S<i64>,
    /// Wooden building.
    pub wooden_building: S<i64>,
    /// Stone building.
    pub stone_building: S<i64>,
    /// Inches inside a wood before its cover counts.
    pub woods_depth: S<i64>,
}

/// PK-F1..F7: fire modifiers.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FireTable {
    /// PK-F3: enfilade addition.
    pub enfilade_add: S<i64>,
    /// PK-F3: enfilade factor.
    pub enfilade_times: S<Ratio>,
    /// PK-F4: Chassepot / Needle gun against cavalry, addition.
    pub vs_cavalry_breech_add: S<i64>,
    /// PK-F4: Chassepot / Needle gun against cavalry, factor.
    pub vs_cavalry_breech_times: S<Ratio>,
    /// PK-F4: muzzle-loading rifle against cavalry, addition.
    pub vs_cavalry_mlr_add: S<i64>,
    /// PK-F4: muzzle-loading rifle against cavalry, factor.
    pub vs_cavalry_mlr_times: S<Ratio>,
    /// PK-F6: a disordered unit's d10.
    pub disordered_add: S<i64>,
    /// PK-F6: against a disordered target.
    pub vs_disordered_times: S<Ratio>,
    /// PK-F1: mounted firearms.
    pub mounted_times: S<Ratio>,
    /// PK-F1: short-range bonus (formed, not disordered).
    pub short_range_add: S<i64>,
}

/// One weapon's ranges in inches.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RifleRow {
    /// Maximum range.
    pub range: S<i64>,
    /// Short range (bonus for formed infantry).
    pub short: S<i64>,
}

/// PK-F1: rifles and carbines.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RifleTable {
    /// French Chassepot.
    pub chassepot: RifleRow,
    /// Prussian Dreyse needle gun.
    pub needle: RifleRow,
    /// Muzzle-loading rifle (gardes mobiles).
    pub mlr: RifleRow,
    /// Chassepot carbine.
    pub chassepot_carbine: RifleRow,
    /// Needle carbine.
    pub needle_carbine: RifleRow,
    /// Muzzle-loading carbine.
    pub mlr_carbine: RifleRow,
}

/// One gun type's AV additions by range band (PK-A1).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GunRow {
    /// Short range band.
    pub short: S<i64>,
    /// Medium range band.
    pub medium: S<i64>,
    /// Long range band.
    pub long: S<i64>,
    /// Canister column (None-like 0 for a gun without canister is not allowed: every gun here has one).
    pub canister: S<i64>,
}

/// The mitrailleuse's own table (PK-A1).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MitrailleuseRow {
    /// Maximum range, inches.
    pub range: S<i64>,
    /// Short band ends here, inches.
    pub short_max: S<i64>,
    /// Medium band ends here, inches.
    pub medium_max: S<i64>,
    /// Short range band.
    pub short: S<i64>,
    /// Medium range band.
    pub medium: S<i64>,
    /// Long range band.
    pub long: S<i64>,
}

/// PK-A1..A4: the artillery tables.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArtilleryTable {
    /// Range of MLR and BLR guns, inches.
    pub range: S<i64>,
    /// Short band ends here, inches.
    pub short_max: S<i64>,
    /// Medium band ends here, inches.
    pub medium_max: S<i64>,
    /// Canister reaches this far, inches.
    pub canister_max: S<i64>,
    /// Canister's addition to the d10.
    pub canister_add: S<i64>,
    /// On a hill firing down.
    pub downhill_add: S<i64>,
    /// Firing uphill.
    pub uphill_add: S<i64>,
    /// PK-A3: firing at artillery.
    pub counter_battery_add: S<i64>,
    /// PK-A3: d% at or above this hits the guns.
    pub guns_hit_min: S<u32>,
    /// PK-A3: fraction of points a battery loses when its guns are hit.
    pub guns_hit_fraction: S<Ratio>,
    /// Muzzle-loading rifled guns (French).
    pub mlr: GunRow,
    /// Breech-loading rifled guns (Prussian Krupp).
    pub blr: GunRow,
    /// The mitrailleuse.
    pub mitrailleuse: MitrailleuseRow,
    /// PK-A4: a wooden building's DV.
    pub wooden_building_dv: S<i64>,
    /// PK-A4: a stone building's DV.
    pub stone_building_dv: S<i64>,
    /// PK-A4: points of damage per hit on a wooden building.
    pub wooden_building_damage: S<i64>,
    /// PK-A4: points of damage per hit on a stone building.
    pub stone_building_damage: S<i64>,
}

/// One row of the Melee Matrix: this side's formation against each opponent formation.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatrixRow {
    /// Against infantry in line.
    pub line: S<i64>,
    /// Against infantry in column.
    pub column: S<i64>,
    /// Against infantry in square.
    pub square: S<i64>,
    /// Against skirmishers.
    pub skirmish: S<i64>,
    /// Against formed cavalry.
    pub cavalry: S<i64>,
    /// Against an artillery battery.
    pub battery: S<i64>,
}

/// PK-X3: the Melee Matrix.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeMatrix {
    /// Infantry in line.
    pub line: MatrixRow,
    /// Infantry in column.
    pub column: MatrixRow,
    /// Infantry in square.
    pub square: MatrixRow,
    /// Skirmishers.
    pub skirmish: MatrixRow,
    /// Formed cavalry.
    pub cavalry: MatrixRow,
    /// Artillery battery.
    pub battery: MatrixRow,
}

/// PK-X3: the Melee Modifiers Table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeTable {
    /// Flank attack addition.
    pub flank_add: S<i64>,
    /// Flank attack factor.
    pub flank_times: S<Ratio>,
    /// Rear attack addition.
    pub rear_add: S<i64>,
    /// Rear attack factor.
    pub rear_times: S<Ratio>,
    /// Charging (and joining a melee in progress).
    pub charge_add: S<i64>,
    /// Defending a building.
    pub building_add: S<i64>,
    /// Defending a barrier (wall, hedge, earthwork).
    pub barrier_add: S<i64>,
    /// The Melee Matrix.
    pub matrix: MeleeMatrix,
}

/// PK-X2: the Melee Counter Rolls Table (d10 + class needed).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CounterTable {
    /// Change position (wheel, face a flank).
    pub change_position: S<i64>,
    /// Change formation (form square, line).
    pub change_formation: S<i64>,
    /// Counter-charge.
    pub counter_charge: S<i64>,
    /// Skirmishers withdraw.
    pub withdraw: S<i64>,
}

/// PK-E1: the Effectiveness Table, as fractions of the starting figures.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EffectivenessTable {
    /// Steady at or above this fraction.
    pub steady_min: S<Ratio>,
    /// Shaken at or above this fraction.
    pub shaken_min: S<Ratio>,
    /// Broken at or above this fraction; below it, routed.
    pub broken_min: S<Ratio>,
}

/// PK-E1, PK-L1, PK-L2: rally roll modifiers and the figures that come back.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RallyTable {
    /// PK-L1: each leader lost, single unit.
    pub leader_lost: S<i64>,
    /// PK-L1: each leader lost, brigaded unit (6 leaders worth 1 each).
    pub brigade_leader_lost: S<i64>,
    /// PK-L2: general touching the unit.
    pub general: S<i64>,
    /// PK-L2: staff officer touching the unit.
    pub staff: S<i64>,
    /// PK-L1: a general of this unit fell (units within 18" that rally this move).
    pub general_death: S<i64>,
    /// Scores at which 1, 2, 3, ... figures come back (ascending).
    pub figures_back: S<Vec<i64>>,
}

/// PK-W1: the Army Effectiveness Table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmyTable {
    /// Below this fraction of its strength the army rolls for its broken units.
    pub collapse_below: S<Ratio>,
    /// Scores at which 1, 2, 3, ... broken units return as Shaken (ascending).
    pub units_back: S<Vec<i64>>,
    /// Victory points an objective may be worth, lowest.
    pub objective_min: S<i64>,
    /// Victory points an objective may be worth, highest.
    pub objective_max: S<i64>,
}

/// PK-U1: URTs per activity.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UrtTable {
    /// Change formation.
    pub change_formation: S<i64>,
    /// Battalion in line pivots 30 degrees (one end fixed).
    pub pivot_battalion: S<i64>,
    /// Brigade in line pivots 15 degrees.
    pub pivot_brigade: S<i64>,
    /// Disordered unit reorganises, stationary.
    pub reorganise: S<i64>,
    /// Limber or unlimber a battery.
    pub limber: S<i64>,
    /// Pass through a friendly unit.
    pub passage_of_lines: S<i64>,
    /// Degrees a battalion in line pivots per URT.
    pub battalion_degrees: S<i64>,
    /// Degrees a brigade in line pivots per URT.
    pub brigade_degrees: S<i64>,
}

/// PK-V1: visibility.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VisibilityTable {
    /// Clear weather, inches.
    pub clear: S<i64>,
    /// Added per contour of observer height.
    pub per_contour: S<i64>,
    /// Largest height bonus.
    pub max_bonus: S<i64>,
    /// Inside light woods.
    pub light_woods: S<i64>,
    /// Inside heavy woods.
    pub heavy_woods: S<i64>,
    /// From outside, into light woods.
    pub into_light_woods: S<i64>,
    /// From outside, into heavy woods.
    pub into_heavy_woods: S<i64>,
    /// Contours above an intervening contour needed to see over it.
    pub see_over: S<i64>,
    /// Dead ground behind a contour one cannot see over, inches.
    pub dead_ground: S<i64>,
    /// Height of a building storey, contours.
    pub storey_height: S<i64>,
    /// Height of light woods, contours.
    pub light_woods_height: S<i64>,
    /// Height of heavy woods, contours.
    pub heavy_woods_height: S<i64>,
    /// Height of crops and scrub, contours.
    pub crops_height: S<i64>,
}

fn ascending(check: &Check<'_>, v: &S<Vec<i64>>, field: &str) -> Result<(), TableError> {
    let xs = v.get();
    if xs.is_empty() || xs.len() > 20 || xs.windows(2).any(|w| w[0] >= w[1]) {
        return Err(check.error(
            v.span(),
            field,
            "must be a strictly ascending list of scores",
            "1 to 20 ascending whole numbers, e.g. [6, 9, 12]",
        ));
    }
    if xs.iter().any(|x| !(-50..=100).contains(x)) {
        return Err(check.error(v.span(), field, "score out of range", "-50 to 100"));
    }
    Ok(())
}

impl RuleTable for PkTables {
    const FILE: &'static str = "pk.toml";
    const BUILTIN: &'static str = include_str!("../../../tables/pk.toml");

    fn validate(&self, check: &Check<'_>) -> Result<(), TableError> {
        if self.system != "pk" {
            return Err(check.error(
                0..0,
                "system",
                format!("`{}` is not this file's rule set", self.system),
                "pk",
            ));
        }
        self.check_units(check)?;
        self.check_fire(check)?;
        self.check_artillery(check)?;
        self.check_melee(check)?;
        self.check_morale(check)?;
        self.check_urt_visibility(check)?;
        Ok(())
    }
}

/// The range checks of `pk.toml`, one section of the file each, in the file's order (the order
/// `validate` finds the first error in).
impl PkTables {
    /// Checks the classes (modifier, URT fraction, fatigue), the DVs, the general rules' numbers and the movement rates.
    fn check_units(&self, check: &Check<'_>) -> Result<(), TableError> {
        let r0 = Ratio::ZERO;
        let r1 = Ratio::ONE;
        for (name, row) in [
            ("elite", &self.class.elite),
            ("veteran", &self.class.veteran),
            ("line", &self.class.line),
        ] {
            check.range(&row.modifier, &format!("class.{name}.modifier"), -5, 5)?;
            check.range(
                &row.urt,
                &format!("class.{name}.urt"),
                Ratio::new(1, 100),
                r1,
            )?;
            check.range(&row.fatigue, &format!("class.{name}.fatigue"), 0, 10)?;
        }
        check.range(&self.dv.formed, "dv.formed", 1, 100)?;
        check.range(&self.dv.skirmish, "dv.skirmish", 1, 100)?;
        let r = &self.rules;
        check.range(&r.leader_min, "rules.leader_min", 1, 101)?;
        check.range(&r.flag_lost_max, "rules.flag_lost_max", -20, 30)?;
        check.range(&r.pursuit_min, "rules.pursuit_min", -50, 100)?;
        check.range(&r.fatigue_fall_back, "rules.fatigue_fall_back", 0, 60)?;
        check.range(&r.level_fall_back, "rules.level_fall_back", 0, 60)?;
        check.range(&r.max_melees_per_turn, "rules.max_melees_per_turn", 1, 20)?;
        check.range(&r.charge_every, "rules.charge_every", 1, 20)?;
        check.range(&r.support_distance, "rules.support_distance", 0, 60)?;
        check.range(&r.second_rank_min, "rules.second_rank_min", r0, r1)?;
        check.range(&r.muddle_urts, "rules.muddle_urts", 0, 20)?;
        let m = &self.movement;
        for (name, row) in [
            ("formed_infantry", &m.formed_infantry),
            ("skirmish_infantry", &m.skirmish_infantry),
            ("cavalry", &m.cavalry),
            ("light_cavalry", &m.light_cavalry),
            ("foot_artillery", &m.foot_artillery),
            ("horse_artillery", &m.horse_artillery),
            ("general", &m.general),
        ] {
            check.range(&row.normal, &format!("movement.{name}.normal"), 0, 100)?;
            check.range(&row.charge, &format!("movement.{name}.charge"), 0, 100)?;
        }
        Ok(())
    }

    /// Checks the cover values, the fire modifiers and multipliers, and the rifles' ranges.
    fn check_fire(&self, check: &Check<'_>) -> Result<(), TableError> {
        let r0 = Ratio::ZERO;
        let r10 = Ratio::int(10);
        let c = &self.cover;
        for (name, v) in [
            ("fence", &c.fence),
            ("trench", &c.trench),
            ("woods", &c.woods),
            ("wooden_building", &c.wooden_building),
            ("stone_building", &c.stone_building),
            ("woods_depth", &c.woods_depth),
        ] {
            check.range(v, &format!("cover.{name}"), 0, 50)?;
        }
        let f = &self.fire;
        for (name, v) in [
            ("enfilade_add", &f.enfilade_add),
            ("vs_cavalry_breech_add", &f.vs_cavalry_breech_add),
            ("vs_cavalry_mlr_add", &f.vs_cavalry_mlr_add),
            ("disordered_add", &f.disordered_add),
            ("short_range_add", &f.short_range_add),
        ] {
            check.range(v, &format!("fire.{name}"), -20, 20)?;
        }
        for (name, v) in [
            ("enfilade_times", &f.enfilade_times),
            ("vs_cavalry_breech_times", &f.vs_cavalry_breech_times),
            ("vs_cavalry_mlr_times", &f.vs_cavalry_mlr_times),
            ("vs_disordered_times", &f.vs_disordered_times),
            ("mounted_times", &f.mounted_times),
        ] {
            check.range(v, &format!("fire.{name}"), r0, r10)?;
        }
        let rf = &self.rifles;
        for (name, row) in [
            ("chassepot", &rf.chassepot),
            ("needle", &rf.needle),
            ("mlr", &rf.mlr),
            ("chassepot_carbine", &rf.chassepot_carbine),
            ("needle_carbine", &rf.needle_carbine),
            ("mlr_carbine", &rf.mlr_carbine),
        ] {
            check.range(&row.range, &format!("rifles.{name}.range"), 1, 200)?;
            check.range(
                &row.short,
                &format!("rifles.{name}.short"),
                0,
                row.range.v(),
            )?;
        }
        Ok(())
    }

    /// Checks the artillery: its ranges and their bands, its modifiers, guns hit, the gun types' columns, the mitrailleuse and the buildings' DVs and damage.
    fn check_artillery(&self, check: &Check<'_>) -> Result<(), TableError> {
        let r0 = Ratio::ZERO;
        let r1 = Ratio::ONE;
        let a = &self.artillery;
        check.range(&a.range, "artillery.range", 1, 400)?;
        check.range(&a.short_max, "artillery.short_max", 0, a.range.v())?;
        check.range(
            &a.medium_max,
            "artillery.medium_max",
            a.short_max.v(),
            a.range.v(),
        )?;
        check.range(&a.canister_max, "artillery.canister_max", 0, a.range.v())?;
        for (name, v) in [
            ("canister_add", &a.canister_add),
            ("downhill_add", &a.downhill_add),
            ("uphill_add", &a.uphill_add),
            ("counter_battery_add", &a.counter_battery_add),
        ] {
            check.range(v, &format!("artillery.{name}"), -20, 20)?;
        }
        check.range(&a.guns_hit_min, "artillery.guns_hit_min", 1, 101)?;
        check.range(&a.guns_hit_fraction, "artillery.guns_hit_fraction", r0, r1)?;
        for (name, row) in [("mlr", &a.mlr), ("blr", &a.blr)] {
            for (col, v) in [
                ("short", &row.short),
                ("medium", &row.medium),
                ("long", &row.long),
                ("canister", &row.canister),
            ] {
                check.range(v, &format!("artillery.{name}.{col}"), -20, 40)?;
            }
        }
        let mt = &a.mitrailleuse;
        check.range(&mt.range, "artillery.mitrailleuse.range", 1, 400)?;
        check.range(
            &mt.short_max,
            "artillery.mitrailleuse.short_max",
            0,
            mt.range.v(),
        )?;
        check.range(
            &mt.medium_max,
            "artillery.mitrailleuse.medium_max",
            mt.short_max.v(),
            mt.range.v(),
        )?;
        for (col, v) in [
            ("short", &mt.short),
            ("medium", &mt.medium),
            ("long", &mt.long),
        ] {
            check.range(v, &format!("artillery.mitrailleuse.{col}"), -20, 40)?;
        }
        for (name, v) in [
            ("wooden_building_dv", &a.wooden_building_dv),
            ("stone_building_dv", &a.stone_building_dv),
            ("wooden_building_damage", &a.wooden_building_damage),
            ("stone_building_damage", &a.stone_building_damage),
        ] {
            check.range(v, &format!("artillery.{name}"), 1, 100)?;
        }
        Ok(())
    }

    /// Checks the melee modifiers and multipliers, the formation-against-formation matrix and the counter-moves.
    fn check_melee(&self, check: &Check<'_>) -> Result<(), TableError> {
        let r0 = Ratio::ZERO;
        let r10 = Ratio::int(10);
        let ml = &self.melee;
        for (name, v) in [
            ("flank_add", &ml.flank_add),
            ("rear_add", &ml.rear_add),
            ("charge_add", &ml.charge_add),
            ("building_add", &ml.building_add),
            ("barrier_add", &ml.barrier_add),
        ] {
            check.range(v, &format!("melee.{name}"), -20, 40)?;
        }
        check.range(&ml.flank_times, "melee.flank_times", r0, r10)?;
        check.range(&ml.rear_times, "melee.rear_times", r0, r10)?;
        let mx = &ml.matrix;
        for (rn, row) in [
            ("line", &mx.line),
            ("column", &mx.column),
            ("square", &mx.square),
            ("skirmish", &mx.skirmish),
            ("cavalry", &mx.cavalry),
            ("battery", &mx.battery),
        ] {
            for (cn, v) in [
                ("line", &row.line),
                ("column", &row.column),
                ("square", &row.square),
                ("skirmish", &row.skirmish),
                ("cavalry", &row.cavalry),
                ("battery", &row.battery),
            ] {
                check.range(v, &format!("melee.matrix.{rn}.{cn}"), -20, 20)?;
            }
        }
        let ct = &self.counter;
        for (name, v) in [
            ("change_position", &ct.change_position),
            ("change_formation", &ct.change_formation),
            ("counter_charge", &ct.counter_charge),
            ("withdraw", &ct.withdraw),
        ] {
            check.range(v, &format!("counter.{name}"), -10, 30)?;
        }
        Ok(())
    }

    /// Checks effectiveness's thresholds (each at least the one below it), rally and the army's collapse and objectives.
    fn check_morale(&self, check: &Check<'_>) -> Result<(), TableError> {
        let r0 = Ratio::ZERO;
        let r1 = Ratio::ONE;
        let e = &self.effectiveness;
        check.range(&e.broken_min, "effectiveness.broken_min", r0, r1)?;
        check.range(
            &e.shaken_min,
            "effectiveness.shaken_min",
            e.broken_min.v(),
            r1,
        )?;
        check.range(
            &e.steady_min,
            "effectiveness.steady_min",
            e.shaken_min.v(),
            r1,
        )?;
        let rl = &self.rally;
        for (name, v) in [
            ("leader_lost", &rl.leader_lost),
            ("brigade_leader_lost", &rl.brigade_leader_lost),
            ("general", &rl.general),
            ("staff", &rl.staff),
            ("general_death", &rl.general_death),
        ] {
            check.range(v, &format!("rally.{name}"), -20, 20)?;
        }
        ascending(check, &rl.figures_back, "rally.figures_back")?;
        let ar = &self.army;
        check.range(&ar.collapse_below, "army.collapse_below", r0, r1)?;
        ascending(check, &ar.units_back, "army.units_back")?;
        check.range(&ar.objective_min, "army.objective_min", 0, 100)?;
        check.range(
            &ar.objective_max,
            "army.objective_max",
            ar.objective_min.v(),
            100,
        )?;
        Ok(())
    }

    /// Checks the URT costs and pivot degrees, and the visibility distances.
    fn check_urt_visibility(&self, check: &Check<'_>) -> Result<(), TableError> {
        let u = &self.urt;
        for (name, v) in [
            ("change_formation", &u.change_formation),
            ("pivot_battalion", &u.pivot_battalion),
            ("pivot_brigade", &u.pivot_brigade),
            ("reorganise", &u.reorganise),
            ("limber", &u.limber),
            ("passage_of_lines", &u.passage_of_lines),
        ] {
            check.range(v, &format!("urt.{name}"), 0, 20)?;
        }
        check.range(&u.battalion_degrees, "urt.battalion_degrees", 1, 360)?;
        check.range(&u.brigade_degrees, "urt.brigade_degrees", 1, 360)?;
        let v = &self.visibility;
        for (name, x) in [
            ("clear", &v.clear),
            ("per_contour", &v.per_contour),
            ("max_bonus", &v.max_bonus),
            ("light_woods", &v.light_woods),
            ("heavy_woods", &v.heavy_woods),
            ("into_light_woods", &v.into_light_woods),
            ("into_heavy_woods", &v.into_heavy_woods),
            ("see_over", &v.see_over),
            ("dead_ground", &v.dead_ground),
            ("storey_height", &v.storey_height),
            ("light_woods_height", &v.light_woods_height),
            ("heavy_woods_height", &v.heavy_woods_height),
            ("crops_height", &v.crops_height),
        ] {
            check.range(x, &format!("visibility.{name}"), 0, 400)?;
        }
        Ok(())
    }
}
