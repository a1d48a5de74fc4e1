//! `kepi resolve pk ...`: every Pickelhaube & Kepi mechanic that rolls dice.
//!
//! JSON outcome keys are a fixed contract (more keys may be added): fire `{"lf", "lf_value", "df",
//! "casualties", "leader_lost"}`; artillery adds `"guns_hit", "points_lost"`; melee `{"lf", "df",
//! "casualties"}`; fatigue `{"falls_back"}`; pursuit `{"score", "advances"}`; flag `{"flag_lost"}`;
//! rally `{"score", "figures_back"}`; initiative `{"first"}` ("a", "b" or "tie": roll again);
//! visibility (PK-V1, no dice) `{"visible", "limit", "dead_ground", "why", "lines"}` (`limit` in
//! the text's inches, exact). `lf` is exact, as a string ("84", "31/2"); `lf_value` is the same as
//! a number.

use clap::{Args, Subcommand};

use crate::pk::{
    self, Activity, Building, Class, Cover, Facing, Formation, Gun, Officer, Position, Terrain,
    Weapon,
    artillery::ArtilleryInput,
    fire::{FireInput, FiringFirstSide},
    melee::{CounterInput, CounterOption, MeleeInput, PursuitInput},
    morale::{ArmyInput, GeneralDeath, RallyInput},
    visibility::{Obstacle, Sight},
};
use kepi_game::dice::{Die, Ratio};
use kepi_game::engine::verbs::MoveError;
use kepi_game::engine::verbs::{Ctx, text_inches};
use kepi_game::rules::Resolution;
use kepi_game::rules::limits;
use kepi_game::rules::{Distance, Scale};
use kepi_game::tables::Provenance;

/// The pk actions.
#[derive(Debug, Subcommand)]
pub enum PkAction {
    /// Rifle or carbine fire (PK-F1, PK-F3..F7; leader roll PK-L1).
    Fire(FireArgs),
    /// Which of two units firing at each other fires first (PK-F2).
    FireFirst(FireFirstArgs),
    /// Artillery fire, counter-battery and buildings (PK-A1..A4).
    Artillery(ArtilleryArgs),
    /// A building at 0 points collapses on its occupants (PK-A4).
    Collapse(CollapseArgs),
    /// One side's LF and the casualties it inflicts in one move of melee (PK-X3).
    Melee(MeleeArgs),
    /// Both sides of one move of melee at once (PK-X3).
    MeleeBoth(MeleeBothArgs),
    /// The counter roll of a unit about to be charged (PK-X2).
    Counter(CounterArgs),
    /// End-of-move fatigue check (PK-X5).
    Fatigue(FatigueArgs),
    /// Pursuit by the unit that stood (PK-X5).
    Pursuit(PursuitArgs),
    /// The loser's flag roll (PK-X4).
    Flag(FlagArgs),
    /// Rally roll for figures back (PK-E1, PK-L1, PK-L2).
    Rally(RallyArgs),
    /// Army morale below 25%: broken units that return (PK-W1).
    Army(ArmyArgs),
    /// d% initiative: the high scorer moves first (PK-T1).
    Initiative(InitiativeArgs),
    /// The time an activity takes, as a part of a move (PK-U1, PK-C1; no dice).
    Urt(UrtArgs),
    /// Whether an observer sees a target: 60" in clear weather, +5" per contour of height (at most
    /// +15"), 20" inside light woods and 10" inside heavy, 4" (2") into woods from outside, and the
    /// 4" of dead ground behind an obstacle not seen over (PK-V1; no dice).
    Visibility(VisibilityArgs),
}

/// PK-V1: the sight of a fire, a battery's fire or `visibility`: the observer's height and
/// ground, the target's ground and depth into woods, what stands between.
#[derive(Debug, Args)]
pub struct SightFlags {
    /// The observer's height in contours (a hill's contours, a building's storeys; 0 to 100):
    /// +5" of visibility each, at most +15" (PK-V1).
    #[arg(long, value_name = "N", value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::CONTOURS), allow_negative_numbers = true)]
    pub observer_contours: Option<u32>,
    /// Where the observer stands: open, light-woods (sees 20") or heavy-woods (10").
    #[arg(long, value_name = "GROUND")]
    pub observer_in: Option<Terrain>,
    /// Where the target stands: open, light-woods or heavy-woods (from outside, seen 4" or 2" in).
    #[arg(long, value_name = "GROUND")]
    pub target_in: Option<Terrain>,
    /// How far the target is inside its woods: 30cm, 12in, 12", or a bare number in the game's
    /// unit (0 at the edge).
    #[arg(long, value_name = "DISTANCE")]
    pub target_depth: Option<Distance>,
    /// What stands between observer and target: crops (or scrub: 1 contour), light-woods (2),
    /// heavy-woods (4), building:STOREYS, hill:CONTOURS. The observer must be 2 contours above it
    /// to see over it; otherwise the 4" behind it are dead ground.
    #[arg(long, value_name = "OBSTACLE")]
    pub obstacle: Option<Obstacle>,
    /// How far behind the obstacle the target is: 30cm, 12in, 12", or a bare number in the game's
    /// unit (0 when not given).
    #[arg(long, value_name = "DISTANCE", requires = "obstacle")]
    pub behind: Option<Distance>,
}

/// PK-V1 in a fire or a battery's fire: `--sight` and the sight's flags.
#[derive(Debug, Args)]
pub struct FireSightFlags {
    /// Check that the target is seen (PK-V1): a warning, the umpire decides. Implied by any of the
    /// sight's flags; alone, the observer stands on open ground at 0 contours.
    #[arg(long)]
    pub sight: bool,
    /// The sight's flags.
    #[command(flatten)]
    pub flags: SightFlags,
}

/// `visibility`
#[derive(Debug, Args)]
pub struct VisibilityArgs {
    /// Range from observer to target, measured: 30cm, 12in, 12", or a bare number in the game's
    /// unit (inches without a game or --scale); a target exactly at the limit is seen.
    #[arg(long, value_name = "DISTANCE")]
    pub range: Distance,
    /// The sight.
    #[command(flatten)]
    pub sight: SightFlags,
}

impl SightFlags {
    /// True when any of the flags was given.
    fn any(&self) -> bool {
        let SightFlags {
            observer_contours,
            observer_in,
            target_in,
            target_depth,
            obstacle,
            behind,
        } = self;
        observer_contours.is_some()
            || observer_in.is_some()
            || target_in.is_some()
            || target_depth.is_some()
            || obstacle.is_some()
            || behind.is_some()
    }

    /// PK-V1: the sight as typed, distances converted to the text's inches at `scale`.
    fn sight(&self, scale: &Scale) -> Result<Sight, MoveError> {
        let inches = |d: Option<Distance>, flag: &str| match d {
            Some(d) => text_inches(d, scale, flag),
            None => Ok(Ratio::ZERO),
        };
        Ok(Sight {
            observer_contours: self.observer_contours.unwrap_or(0),
            observer_in: self.observer_in.unwrap_or_default(),
            target_in: self.target_in.unwrap_or_default(),
            target_depth: inches(self.target_depth, "--target-depth")?,
            obstacle: self.obstacle,
            behind: inches(self.behind, "--behind")?,
        })
    }
}

impl FireSightFlags {
    /// PK-V1: the sight when `--sight` or any of its flags was given.
    fn sight(&self, scale: &Scale) -> Result<Option<Sight>, MoveError> {
        if !self.sight && !self.flags.any() {
            return Ok(None);
        }
        self.flags.sight(scale).map(Some)
    }
}

/// `urt`
#[derive(Debug, Args)]
pub struct UrtArgs {
    /// The unit's class (its URT as a part of a move; line when not given; in `kepi game apply`
    /// the unit's card).
    #[arg(long)]
    pub class: Option<Class>,
    /// The activity (the URT Table).
    #[arg(long)]
    pub activity: Activity,
    /// Degrees of a pivot (pivot-battalion, pivot-brigade), else how many times (1 when not
    /// given).
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::DEGREES))]
    pub amount: Option<u32>,
}

/// `fire`
#[derive(Debug, Args)]
pub struct FireArgs {
    /// Figures firing (skirmishers: the stands in range).
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::FIGURES), allow_negative_numbers = true)]
    pub figures: u32,
    /// The firer's class: elite, veteran or line.
    #[arg(long)]
    pub class: Class,
    /// Weapon: chassepot, needle, mlr, chassepot-carbine, needle-carbine, mlr-carbine.
    #[arg(long, default_value = "chassepot")]
    pub weapon: Weapon,
    /// The firer is in skirmish order (no tactical advantages).
    #[arg(long)]
    pub skirmish: bool,
    /// Mounted firearms (LF halved).
    #[arg(long)]
    pub mounted: bool,
    /// Firing into the target's flank or rear: 1.5 x (AV + 3).
    #[arg(long)]
    pub enfilade: bool,
    /// The target is cavalry advancing on the firer.
    #[arg(long)]
    pub vs_cavalry: bool,
    /// The firer is disordered (-2, no advantages).
    #[arg(long)]
    pub disordered: bool,
    /// The target is disordered (LF doubled).
    #[arg(long)]
    pub target_disordered: bool,
    /// The target is in skirmish order.
    #[arg(long)]
    pub target_skirmish: bool,
    /// The target's cover: none, fence, trench, woods, wooden-building, stone-building.
    #[arg(long, default_value = "none")]
    pub cover: Cover,
    /// Range measured (checked against the weapon; short range gives a bonus): 30cm, 12in, 12",
    /// or a bare number in the game's unit (inches without a game or --scale).
    #[arg(long, value_name = "DISTANCE")]
    pub range: Option<Distance>,
    /// Supporting fire at an enemy attacking an adjacent friend (PK-F7).
    #[arg(long)]
    pub supporting: bool,
    /// Figures in the target (losses never exceed them).
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::FIGURES), allow_negative_numbers = true)]
    pub target_figures: Option<u32>,
    /// An officer with the target (he is the leader casualty): general or staff.
    #[arg(long, visible_alias = "officer")]
    pub target_officer: Option<Officer>,
    /// PK-V1: the firer's sight of the target.
    #[command(flatten)]
    pub sight: FireSightFlags,
}

/// `fire-first`
#[derive(Debug, Args)]
pub struct FireFirstArgs {
    /// Side A's class.
    #[arg(long)]
    pub class_a: Class,
    /// Side B's class.
    #[arg(long)]
    pub class_b: Class,
    /// Side A's situation modifier.
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<i64>(limits::ROLL_MODIFIER), default_value_t = 0, allow_hyphen_values = true)]
    pub situation_a: i64,
    /// Side B's situation modifier.
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<i64>(limits::ROLL_MODIFIER), default_value_t = 0, allow_hyphen_values = true)]
    pub situation_b: i64,
}

/// `artillery`
#[derive(Debug, Args)]
pub struct ArtilleryArgs {
    /// Gun type: mlr, blr, howitzer, mitrailleuse.
    #[arg(long)]
    pub gun: Gun,
    /// The battery's points.
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::POINTS), allow_negative_numbers = true)]
    pub points: u32,
    /// The crew's class.
    #[arg(long)]
    pub class: Class,
    /// Range to the target, measured: 30cm, 12in, 12", or a bare number in the game's unit
    /// (inches without a game or --scale); the band is the text's for that distance at the scale.
    #[arg(long, value_name = "DISTANCE")]
    pub range: Distance,
    /// Fire canister (+2, canister column).
    #[arg(long)]
    pub canister: bool,
    /// On a hill firing at enemy below (+1).
    #[arg(long, conflicts_with = "uphill")]
    pub downhill: bool,
    /// Firing uphill (-1).
    #[arg(long)]
    pub uphill: bool,
    /// Firing at another battery (-5; d% 86+ hits the guns).
    #[arg(long)]
    pub counter_battery: bool,
    /// Firing into the target's flank or rear.
    #[arg(long)]
    pub enfilade: bool,
    /// The target is disordered (LF doubled).
    #[arg(long)]
    pub target_disordered: bool,
    /// The target is in skirmish order.
    #[arg(long)]
    pub target_skirmish: bool,
    /// The target's cover.
    #[arg(long, default_value = "none")]
    pub cover: Cover,
    /// Figures in the target.
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::FIGURES), allow_negative_numbers = true)]
    pub target_figures: Option<u32>,
    /// Counter-battery: the target battery's points.
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::POINTS), allow_negative_numbers = true)]
    pub target_points: Option<u32>,
    /// The target is a building: wooden or stone.
    #[arg(long)]
    pub building: Option<Building>,
    /// The building's points left.
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::POINTS), allow_negative_numbers = true, requires = "building")]
    pub building_points: Option<u32>,
    /// Firing over friendly troops a contour lower (not with canister).
    #[arg(long)]
    pub over_friends: bool,
    /// Supporting fire at an enemy attacking an adjacent friend (PK-F7): shot or shell only.
    #[arg(long)]
    pub supporting: bool,
    /// An officer with the target (he is the leader casualty, PK-L1): general or staff.
    #[arg(long, visible_alias = "officer")]
    pub target_officer: Option<Officer>,
    /// PK-V1, PK-A1: the crew's sight of the target ("the target visible to the crew").
    #[command(flatten)]
    pub sight: FireSightFlags,
}

/// `collapse`
#[derive(Debug, Args)]
pub struct CollapseArgs {
    /// The building's point value.
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::POINTS), allow_negative_numbers = true)]
    pub building_points: u32,
    /// Figures inside.
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::FIGURES), allow_negative_numbers = true)]
    pub occupants: Option<u32>,
}

/// `melee`
#[derive(Debug, Args)]
pub struct MeleeArgs {
    /// Figures in the counting rank(s) (move 2+: the whole unit).
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::FIGURES), allow_negative_numbers = true)]
    pub figures: u32,
    /// Class.
    #[arg(long)]
    pub class: Class,
    /// Ranks that count: 1 or 2 (default: from the situation).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=2))]
    pub ranks: Option<u8>,
    /// Figures in the second rank.
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::FIGURES), allow_negative_numbers = true, default_value_t = 0)]
    pub second_rank: u32,
    /// Attacking the opponent's flank: 4 x (AV + 5).
    #[arg(long, conflicts_with = "rear")]
    pub flank: bool,
    /// Attacking the opponent's rear.
    #[arg(long)]
    pub rear: bool,
    /// Charged in (charge bonus).
    #[arg(long)]
    pub charge: bool,
    /// Joined a melee in progress.
    #[arg(long)]
    pub joined: bool,
    /// This side is disordered.
    #[arg(long)]
    pub disordered: bool,
    /// The opponent is disordered (LF doubled).
    #[arg(long)]
    pub target_disordered: bool,
    /// The opponent is muddled (as if taken in the rear).
    #[arg(long)]
    pub target_muddled: bool,
    /// This side's formation: line, column, square, skirmish, cavalry, battery.
    #[arg(long, default_value = "line")]
    pub formation: Formation,
    /// The opponent's formation.
    #[arg(long, default_value = "line")]
    pub opponent: Formation,
    /// This side defends: open, building, barrier.
    #[arg(long, default_value = "open")]
    pub position: Position,
    /// Move of the melee (1 = first).
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::MELEE_MOVES), allow_negative_numbers = true, default_value_t = 1, visible_alias = "move")]
    pub melee_move: u32,
    /// Figures in the opponent.
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::FIGURES), allow_negative_numbers = true)]
    pub target_figures: Option<u32>,
    /// An officer with the opponent (he is the leader casualty, PK-L1): general or staff.
    #[arg(long, visible_alias = "officer")]
    pub target_officer: Option<Officer>,
}

/// `melee-both`
#[derive(Debug, Args)]
pub struct MeleeBothArgs {
    /// Side A's figures.
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::FIGURES), allow_negative_numbers = true)]
    pub a_figures: u32,
    /// Side A's class.
    #[arg(long)]
    pub a_class: Class,
    /// Side A's formation.
    #[arg(long, default_value = "line")]
    pub a_formation: Formation,
    /// Side A strikes: front, flank or rear.
    #[arg(long, default_value = "front")]
    pub a_facing: Facing,
    /// Side A charged.
    #[arg(long)]
    pub a_charge: bool,
    /// Side A is disordered.
    #[arg(long)]
    pub a_disordered: bool,
    /// Side A defends: open, building, barrier.
    #[arg(long, default_value = "open")]
    pub a_position: Position,
    /// Side B's figures.
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::FIGURES), allow_negative_numbers = true)]
    pub b_figures: u32,
    /// Side B's class.
    #[arg(long)]
    pub b_class: Class,
    /// Side B's formation.
    #[arg(long, default_value = "line")]
    pub b_formation: Formation,
    /// Side B strikes: front, flank or rear.
    #[arg(long, default_value = "front")]
    pub b_facing: Facing,
    /// Side B charged.
    #[arg(long)]
    pub b_charge: bool,
    /// Side B is disordered.
    #[arg(long)]
    pub b_disordered: bool,
    /// Side B defends: open, building, barrier.
    #[arg(long, default_value = "open")]
    pub b_position: Position,
    /// Move of the melee (1 = first).
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::MELEE_MOVES), allow_negative_numbers = true, default_value_t = 1)]
    pub melee_move: u32,
}

/// `counter`
#[derive(Debug, Args)]
pub struct CounterArgs {
    /// The target's class.
    #[arg(long)]
    pub class: Class,
    /// Option wanted: change-position, change-formation, counter-charge, withdraw.
    #[arg(long, default_value = "change-formation")]
    pub option: CounterOption,
    /// The target has already moved this turn.
    #[arg(long)]
    pub target_moved: bool,
    /// The target's side has already moved (no options).
    #[arg(long)]
    pub side_moved: bool,
    /// The attacker's move before contact, in the target's URTs.
    #[arg(long, value_parser = kepi_game::engine::verbs::num::ratio_within(limits::INCHES), default_value = "1")]
    pub attacker_urts: Ratio,
    /// The target is in skirmish order.
    #[arg(long)]
    pub skirmish: bool,
}

/// `fatigue`
#[derive(Debug, Args)]
pub struct FatigueArgs {
    /// Total fatigue points (or give --class and --moves).
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<i64>(limits::FATIGUE), allow_negative_numbers = true, required_unless_present = "class")]
    pub fatigue: Option<i64>,
    /// Class, to total the fatigue from --moves.
    #[arg(long, requires = "moves")]
    pub class: Option<Class>,
    /// Moves fought in this melee.
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::MELEE_MOVES), allow_negative_numbers = true)]
    pub moves: Option<u32>,
}

/// `pursuit`
#[derive(Debug, Args)]
pub struct PursuitArgs {
    /// Figures of the unit that stood.
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::FIGURES), allow_negative_numbers = true)]
    pub stander_figures: u32,
    /// Figures of the unit that withdrew.
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::FIGURES), allow_negative_numbers = true)]
    pub withdrawer_figures: u32,
    /// The stander's class.
    #[arg(long)]
    pub class: Class,
    /// A general or staff officer holds the victor back.
    #[arg(long)]
    pub held_back: bool,
}

/// `flag`
#[derive(Debug, Args)]
pub struct FlagArgs {
    /// The loser's class.
    #[arg(long)]
    pub class: Class,
}

/// `rally`
#[derive(Debug, Args)]
pub struct RallyArgs {
    /// The unit's class.
    #[arg(long)]
    pub class: Class,
    /// Leaders lost (single unit: -2 each; brigaded: -1 each).
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::LEADERS), allow_negative_numbers = true, default_value_t = 0)]
    pub leaders_lost: u32,
    /// The unit is brigaded (6 leaders).
    #[arg(long)]
    pub brigaded: bool,
    /// The officer touching the unit: general or staff.
    #[arg(long)]
    pub officer: Option<Officer>,
    /// A general's death: none, nearby (within 18"), with-unit.
    #[arg(long, default_value = "none", value_parser = parse_death)]
    pub general_death: GeneralDeath,
    /// Figures lost this move (no more come back).
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::FIGURES), allow_negative_numbers = true)]
    pub figures_lost: Option<u32>,
}

fn parse_death(s: &str) -> Result<GeneralDeath, String> {
    match s {
        "none" => Ok(GeneralDeath::None),
        "nearby" => Ok(GeneralDeath::Nearby),
        "with-unit" => Ok(GeneralDeath::WithUnit),
        _ => Err(format!(
            "unknown general death `{s}` (accepted: none, nearby, with-unit)"
        )),
    }
}

/// `army`
#[derive(Debug, Args)]
pub struct ArmyArgs {
    /// The army's figures at the start.
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::FIGURES), allow_negative_numbers = true)]
    pub start_figures: u32,
    /// Its figures now.
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::FIGURES), allow_negative_numbers = true)]
    pub figures: u32,
    /// Broken units that could return.
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::UNITS), allow_negative_numbers = true, default_value_t = 0)]
    pub broken_units: u32,
    /// Modifiers to the roll.
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<i64>(limits::ROLL_MODIFIER), default_value_t = 0, allow_hyphen_values = true)]
    pub modifier: i64,
}

/// `initiative`
#[derive(Debug, Args)]
pub struct InitiativeArgs {
    /// Side A's d% (1-100).
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::DPCT), allow_negative_numbers = true, requires = "dpct_b")]
    pub dpct_a: Option<u32>,
    /// Side B's d% (1-100).
    #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::DPCT), allow_negative_numbers = true, requires = "dpct_a")]
    pub dpct_b: Option<u32>,
}

fn facing(flank: bool, rear: bool) -> Facing {
    if flank {
        Facing::Flank
    } else if rear {
        Facing::Rear
    } else {
        Facing::Front
    }
}

impl MeleeBothArgs {
    /// PK-X3: both sides' inputs, each the other's opponent.
    fn sides(&self) -> (MeleeInput, MeleeInput) {
        let side_a = MeleeInput {
            figures: self.a_figures,
            class: self.a_class,
            formation: self.a_formation,
            opponent: self.b_formation,
            facing: self.a_facing,
            charge: self.a_charge,
            disordered: self.a_disordered,
            target_disordered: self.b_disordered,
            position: self.a_position,
            melee_move: self.melee_move,
            target_figures: Some(self.b_figures),
            ..Default::default()
        };
        let side_b = MeleeInput {
            figures: self.b_figures,
            class: self.b_class,
            formation: self.b_formation,
            opponent: self.a_formation,
            facing: self.b_facing,
            charge: self.b_charge,
            disordered: self.b_disordered,
            target_disordered: self.a_disordered,
            position: self.b_position,
            melee_move: self.melee_move,
            target_figures: Some(self.a_figures),
            ..Default::default()
        };
        (side_a, side_b)
    }
}

impl FireArgs {
    /// The rule's input, as typed; the range converted to the text's inches at `scale`.
    fn input(&self, scale: &Scale) -> Result<FireInput, MoveError> {
        let range = match self.range {
            Some(d) => Some(text_inches(d, scale, "--range")?),
            None => None,
        };
        Ok(FireInput {
            figures: self.figures,
            class: self.class,
            weapon: self.weapon,
            skirmish: self.skirmish,
            mounted: self.mounted,
            enfilade: self.enfilade,
            vs_cavalry: self.vs_cavalry,
            disordered: self.disordered,
            target_disordered: self.target_disordered,
            target_skirmish: self.target_skirmish,
            cover: self.cover,
            range,
            supporting: self.supporting,
            target_figures: self.target_figures,
            target_officer: self.target_officer,
            sight: self.sight.sight(scale)?,
            ..Default::default()
        })
    }
}

impl ArtilleryArgs {
    /// The rule's input, as typed; the range converted to the text's inches at `scale`.
    fn input(&self, scale: &Scale) -> Result<ArtilleryInput, MoveError> {
        Ok(ArtilleryInput {
            gun: self.gun,
            points: self.points,
            class: self.class,
            range: text_inches(self.range, scale, "--range")?,
            canister: self.canister,
            downhill: self.downhill,
            uphill: self.uphill,
            counter_battery: self.counter_battery,
            enfilade: self.enfilade,
            target_disordered: self.target_disordered,
            target_skirmish: self.target_skirmish,
            cover: self.cover,
            target_figures: self.target_figures,
            target_points: self.target_points,
            building: self.building,
            building_points: self.building_points,
            over_friends: self.over_friends,
            supporting: self.supporting,
            target_officer: self.target_officer,
            sight: self.sight.sight(scale)?,
            ..Default::default()
        })
    }
}

impl MeleeArgs {
    /// The rule's input, as typed.
    fn input(&self) -> MeleeInput {
        MeleeInput {
            figures: self.figures,
            second_rank: self.second_rank,
            class: self.class,
            formation: self.formation,
            opponent: self.opponent,
            ranks: self.ranks,
            facing: facing(self.flank, self.rear),
            charge: self.charge,
            joined: self.joined,
            melee_move: self.melee_move,
            disordered: self.disordered,
            target_disordered: self.target_disordered,
            target_muddled: self.target_muddled,
            position: self.position,
            target_figures: self.target_figures,
            target_officer: self.target_officer,
        }
    }
}

impl CounterArgs {
    /// The rule's input, as typed.
    fn input(&self) -> CounterInput {
        CounterInput {
            class: self.class,
            option: self.option,
            target_moved: self.target_moved,
            side_moved: self.side_moved,
            attacker_urts: self.attacker_urts,
            skirmish: self.skirmish,
        }
    }
}

impl PursuitArgs {
    /// The rule's input, as typed.
    fn input(&self) -> PursuitInput {
        PursuitInput {
            stander_figures: self.stander_figures,
            withdrawer_figures: self.withdrawer_figures,
            class: self.class,
            held_back: self.held_back,
        }
    }
}

impl RallyArgs {
    /// The rule's input, as typed.
    fn input(&self) -> RallyInput {
        RallyInput {
            class: self.class,
            leaders_lost: self.leaders_lost,
            brigaded: self.brigaded,
            officer: self.officer,
            general_death: self.general_death,
            figures_lost: self.figures_lost,
        }
    }
}

impl ArmyArgs {
    /// The rule's input, as typed.
    fn input(&self) -> ArmyInput {
        ArmyInput {
            start_figures: self.start_figures,
            figures: self.figures,
            broken_units: self.broken_units,
            modifier: self.modifier,
        }
    }
}

/// PK-T1 initiative: `--dpct-a` and `--dpct-b` go ahead of any other entered d%.
fn initiative(
    a: &InitiativeArgs,
    t: &pk::tables::PkTables,
    dice: Option<&mut kepi_game::dice::DiceSource>,
) -> Result<Resolution<serde_json::Value>, MoveError> {
    // Side A's and side B's dice go first, ahead of any --dpct values (a roll only).
    if let (Some(_), Some(x), Some(y)) = (dice.as_ref(), a.dpct_a, a.dpct_b) {
        let mut queued = kepi_game::dice::DiceSource::entered_only();
        queued
            .enter(Die::Pct, x)
            .map_err(|e| MoveError::usage(format!("--dpct-a: {e}")))?;
        queued
            .enter(Die::Pct, y)
            .map_err(|e| MoveError::usage(format!("--dpct-b: {e}")))?;
        return Ok(pk::turn::initiative(t, Some(&mut queued))?.erase());
    }
    Ok(pk::turn::initiative(t, dice)?.erase())
}

/// Resolves one pk action.
pub fn run(action: &PkAction, ctx: Ctx<'_>) -> Result<Resolution<serde_json::Value>, MoveError> {
    let t = ctx.tables.get::<crate::pk::PkTables>();
    let dice = ctx.dice;
    Ok(match action {
        PkAction::Fire(a) => pk::fire::fire(&a.input(&ctx.scale)?, t, dice)?.erase(),
        PkAction::FireFirst(a) => {
            let sa = FiringFirstSide {
                class: a.class_a,
                situation: a.situation_a,
                disordered: false,
            };
            let sb = FiringFirstSide {
                class: a.class_b,
                situation: a.situation_b,
                disordered: false,
            };
            pk::fire::firing_first(&sa, &sb, t, dice)?.erase()
        }
        PkAction::Artillery(a) => pk::artillery::artillery(&a.input(&ctx.scale)?, t, dice)?.erase(),
        PkAction::Collapse(a) => {
            pk::artillery::building_collapse(a.building_points, a.occupants, t, dice)?.erase()
        }
        PkAction::Melee(a) => pk::melee::melee(&a.input(), t, dice)?.erase(),
        PkAction::MeleeBoth(a) => {
            let (side_a, side_b) = a.sides();
            pk::melee::melee_both(&side_a, &side_b, t, dice)?.erase()
        }
        PkAction::Counter(a) => pk::melee::counter_roll(&a.input(), t, dice)?.erase(),
        PkAction::Urt(a) => pk::movement::urt(
            a.class.unwrap_or(Class::Line),
            a.activity,
            a.amount.unwrap_or(1),
            t,
        )?
        .erase(),
        PkAction::Fatigue(a) => {
            let total = match (a.fatigue, a.class, a.moves) {
                (Some(f), _, _) => (f, Provenance::Seed),
                (None, Some(c), Some(m)) => (
                    pk::melee::fatigue_points(c, m, t),
                    pk::melee::fatigue_provenance(t),
                ),
                _ => {
                    return Err(MoveError::usage(
                        "--fatigue: give --fatigue N, or --class C and --moves N",
                    ));
                }
            };
            pk::melee::fatigue_check(total.0, total.1, t, dice)?.erase()
        }
        PkAction::Pursuit(a) => pk::melee::pursuit(&a.input(), t, dice)?.erase(),
        PkAction::Flag(a) => pk::melee::flag(a.class, t, dice)?.erase(),
        PkAction::Rally(a) => pk::morale::rally(&a.input(), t, dice)?.erase(),
        PkAction::Army(a) => pk::morale::army_morale(&a.input(), t, dice)?.erase(),
        PkAction::Initiative(a) => initiative(a, t, dice)?,
        PkAction::Visibility(a) => pk::visibility::resolve(
            &a.sight.sight(&ctx.scale)?,
            text_inches(a.range, &ctx.scale, "--range")?,
            t,
        )?
        .erase(),
    })
}
