//! 1870 in the rule-set registry ([`kepi_game::registry`]).

use chrono::NaiveDate;

use crate::fr1870::siege;
use kepi_game::engine::flow::checklist::List;
use kepi_game::engine::flow::{Event, Queue};
use kepi_game::engine::game::clock::{Phase, Step};
use kepi_game::engine::game::{Action, CalendarMarker, Flag, GameState, Siege, UnitState};
use kepi_game::engine::play::Form;
use kepi_game::engine::rule_set::RuleSet;
use kepi_game::roster::{Arm, Side};
use kepi_game::rules::RuleId;

/// 1870 (odds-ratio CRT).
pub struct FrRules;

impl RuleSet for FrRules {
    fn table(&self) -> Option<kepi_game::tables::TableFile> {
        Some(kepi_game::tables::TableFile::of::<
            crate::fr1870::Fr1870Tables,
        >())
    }

    fn id(&self) -> &'static str {
        "fr1870"
    }

    /// FR-C1: a combat may be fought as a battle (issue 30).
    fn campaign_part(&self) -> Option<kepi_game::engine::rule_set::CampaignPart> {
        Some(kepi_game::engine::rule_set::CampaignPart::Board)
    }

    /// FR-C2 (E11, E13), SPI-C4: one cell away, none the enemy holds or controls unless a
    /// friend stands there ([`crate::board::moves::retreat_cells`]).
    fn retreat_cells(
        &self,
        s: &GameState,
        u: &UnitState,
    ) -> Option<Vec<kepi_game::roster::Position>> {
        Some(crate::board::moves::retreat_cells(s, u))
    }

    /// SPI-C2 / FR-C1: every enemy unit in the hex defends together
    /// ([`crate::board::form::engage_hex`]).
    fn engage(
        &self,
        state: &GameState,
        attackers: &[String],
        hex: kepi_game::roster::Position,
    ) -> Result<(Vec<String>, Vec<String>), String> {
        crate::board::form::engage_hex(state, attackers, hex)
    }

    /// CAMP-C2, CAMP-R1: a fortress card loses nothing and does not retreat (FR-F1: a fortress is
    /// taken, not worn down); the loser's other units must retreat (FR-C2).
    fn campaign_return(&self) -> Option<kepi_game::engine::rule_set::BattleReturn> {
        Some(kepi_game::engine::rule_set::BattleReturn {
            places: &[kepi_game::roster::Arm::Fortress],
            loser: kepi_game::engine::rule_set::AfterBattle::Marked(&super::marks::MUST_RETREAT),
        })
    }

    /// FR-C2: after a battle won by the attackers, the hex its defenders left (issue 30).
    fn advance_after_battle(
        &self,
        hex: kepi_game::roster::Position,
    ) -> Option<(&'static str, String)> {
        Some((
            "FR-C2",
            format!(
                "cell {hex} is vacated: the victor may occupy it with engaged units (stacking 4)"
            ),
        ))
    }

    /// Issue 43: the unit card, declared in `card.rs`.
    fn card_spec(&self) -> kepi_game::roster::spec::CardSpec {
        super::card::spec()
    }

    fn title(&self) -> &'static str {
        "1870"
    }

    fn grammar(&self) -> Option<kepi_game::engine::verbs::Grammar> {
        let about = "1870 (odds-ratio CRT)";
        Some(kepi_game::engine::verbs::Grammar::of(
            about,
            super::grammar::run,
        ))
    }

    fn uses_hexes(&self) -> bool {
        true
    }

    /// The map (I10, FR-L1): cells are numbered column then row, with the even columns half a cell
    /// lower (even-q): I10's "a unit occupying cell 1640 may besiege Neuf-Brisach [1541] and
    /// Sélestat [1741] simultaneously" needs 1640 next to both, and so do Situation 1's line
    /// 1438 - 1339 - 1239 and Paris's cells 2117, 2216, 2217.
    fn hex_layout(&self) -> kepi_game::hex::Layout {
        kepi_game::hex::Layout::EvenQ
    }

    /// FR-T1: French move, French combat, German move, German combat, advance calendars.
    fn phases(&self, _sides: &[Side]) -> Vec<Phase> {
        vec![
            Phase::of(Side::French, Step::Movement),
            Phase::of(Side::French, Step::Combat),
            Phase::of(Side::German, Step::Movement),
            Phase::of(Side::German, Step::Combat),
            Phase::both(Step::AdvanceCalendars),
        ]
    }

    fn turn_rule(&self) -> RuleId {
        RuleId::new("FR-T1")
    }

    /// FR-T1: turn n is calendar cell `first_cell + n - 1`.
    fn date_of_turn(&self, _: Option<NaiveDate>, first_cell: u32, turn: u32) -> Option<NaiveDate> {
        kepi_game::engine::game::clock::calendar_date(first_cell, turn)
    }

    /// FR-T1: the days calendar cell `turn` covers, with its marks.
    fn calendar(
        &self,
        turn: u32,
        tables: &kepi_game::rules::Tables,
    ) -> Option<Result<kepi_game::rules::crt::CalendarEntry, kepi_game::rules::RuleError>> {
        Some(super::fr_cell(
            turn,
            tables.get::<crate::fr1870::Fr1870Tables>(),
        ))
    }

    /// Moved and fired; 1870's own markers are its declared kinds (disorganisation, the retreat
    /// a result orders, a unit at sea, a fortress stormed: FR-C2, FR-K1, FR-F1).
    fn flags(&self) -> &'static [Flag] {
        &[Flag::Moved, Flag::Fired]
    }

    fn unit_markers(&self) -> &'static [kepi_game::engine::game::UnitMarkerKind] {
        super::marks::UNIT_MARKERS
    }

    /// FR-S1: supply.
    fn has_supply(&self) -> bool {
        true
    }

    fn strength_unit(&self, _arm: Arm) -> &'static str {
        "potential"
    }

    fn forms(&self) -> Vec<Form> {
        let mut forms: Vec<Form> = crate::fr1870::combat_form::FrForm::all()
            .into_iter()
            .map(Form::new)
            .collect();
        forms.push(Form::new(super::form::RailForm::default()));
        forms.push(Form::new(super::form::SeaForm::default()));
        forms.push(Form::new(super::form::StormForm::default()));
        forms
    }

    /// `kepi game apply`'s verbs of the forms (`verbs.rs`).
    fn verb_specs(&self) -> &'static [kepi_game::engine::verbs::VerbSpec] {
        super::verbs::SPECS
    }

    fn plain_verbs_note(&self) -> Option<&'static str> {
        Some(
            "(siege and blockade change no unit but keep the game's sieges and blockade \
             calendar: FR-F1, FR-B1)",
        )
    }

    /// FR-T1: combat in the combat phases.
    fn form_steps(&self, form: &str) -> &'static [Step] {
        match form {
            "combat" => &[Step::Combat],
            "rail" | "sea" => &[Step::Movement],
            _ => &[],
        }
    }

    fn still_to_act(&self, _s: &GameState, phase: Option<Phase>, u: &UnitState) -> bool {
        kepi_game::engine::flow::activity::board_still_to_act(phase, u)
    }

    fn recorded_since_issue_46(
        &self,
        action: &str,
        effect: &kepi_game::engine::game::Action,
    ) -> bool {
        crate::board::form::is_attacked_mark(action, effect)
    }

    /// FR-G1 (G3): the possession markers A and F ([`super::board::MARKERS`]).
    fn cell_markers(&self) -> &'static [kepi_game::engine::game::CellMarkerKind] {
        super::board::MARKERS
    }

    /// FR-G1 (G3): a move puts its side's passage markers on the rail cells of the enemy's
    /// country it passed over ([`super::board::move_effects`]).
    fn move_effects(
        &self,
        s: &GameState,
        u: &kepi_game::engine::game::UnitState,
        to: kepi_game::roster::Position,
    ) -> Vec<kepi_game::engine::game::Action> {
        super::board::move_effects(s, u, to)
    }

    /// FR-M1 (Titles B and D): movement on a map, the costs the club's terrain table
    /// ([`super::board::board_rules`]).
    fn board_rules(&self) -> Option<kepi_game::engine::play::board::BoardRules> {
        Some(super::board::board_rules())
    }

    /// FR-F4: supply lines on a map ([`super::board::supply_rules`]).
    fn supply_rules(&self) -> Option<kepi_game::engine::play::supply::SupplyDecl> {
        Some(super::board::supply_rules())
    }

    /// FR-F1 (H12): a fortress taken by assault passes to the besieger and its siege is lifted,
    /// as effects of the combat since log revision 2.
    fn effect_revision(&self, action: &str, effect: &kepi_game::engine::game::Action) -> u32 {
        use kepi_game::engine::game::Action;
        match (action, effect) {
            ("combat", Action::Possess { .. } | Action::SetSiege { .. }) => 2,
            // FR-G1 G3: a move's passage markers, since log revision 5.
            ("move", Action::Mark { kind, .. })
                if kind == super::board::PASSAGE_GERMAN.name
                    || kind == super::board::PASSAGE_FRENCH.name =>
            {
                5
            }
            _ => 0,
        }
    }

    fn outcome(&self, action: &str, v: &serde_json::Value) -> Option<kepi_game::rules::Outcome> {
        match action {
            "combat" => kepi_game::rules::outcome::typed(v)
                .map(kepi_game::rules::Outcome::new::<super::combat::FrCombatOutcome>),
            _ => None,
        }
    }

    /// FR-C2: a retreat check names the cells open to it now.
    fn due_now(&self, s: &GameState, d: &kepi_game::engine::flow::Due) -> Option<String> {
        super::checks::retreat_now(s, d)
    }

    fn checks(&self, ev: &Event, q: &mut Queue) {
        super::checks::checks(ev, q);
    }

    fn move_breaches(
        &self,
        game: &kepi_game::engine::game::Game,
        u: &UnitState,
        to: kepi_game::roster::Position,
        _mp: Option<u32>,
    ) -> Vec<String> {
        let mut out =
            crate::board::moves::move_breaches(game, u, to, &super::combat_form::AFTER_COMBAT);
        out.extend(leaves_metz_early(game.state(), u, to));
        out.extend(super::moves::move_breaches(game, u, to));
        out
    }

    fn noted_since_issue_42(&self) -> &'static [&'static str] {
        super::moves::NOTED_SINCE_ISSUE_42
    }

    fn checklist(&self, l: &mut List) {
        super::checklist::steps(l);
    }

    /// FR-F1, FR-B1, FR-L1 in a game: `siege` takes the besiegers' cells, arms and side, the
    /// places they besiege already, the garrison and the fortress's value (its card) from the game;
    /// `blockade` takes the place's marker and the turn; `points` counts each side's units
    /// eliminated and those besieged in Metz. A value typed wins.
    fn plain_defaults(&self, verb: &str, typed: &[String], state: &GameState) -> Vec<String> {
        match verb {
            "siege" => siege_defaults(typed, state),
            "blockade" => blockade_defaults(typed, state),
            "points" => points_defaults(typed, state),
            _ => Vec::new(),
        }
    }

    /// FR-F1: `siege --by` names units of this game, still in it; `--place` (any verb) is a
    /// place's name: printable, at most [`PLACE_MAX`] characters. Without a map kepi cannot know
    /// every fortress the texts name (Sélestat is in no situation's list), so a new place's name
    /// is the umpire's, but not control characters or a page of text.
    fn plain_refusal(&self, verb: &str, typed: &[String], state: &GameState) -> Option<String> {
        for p in values(typed, "--place") {
            if p.trim().is_empty()
                || p.chars().any(char::is_control)
                || p.chars().count() > PLACE_MAX
            {
                return Some(format!(
                    "--place `{}` is not a place's name (printable, 1 to {PLACE_MAX} characters)",
                    kepi_game::roster::shown(&p.chars().take(PLACE_MAX).collect::<String>())
                ));
            }
        }
        if verb == "siege" {
            for k in values(typed, "--by") {
                match state.find(&k) {
                    Err(e) => {
                        return Some(format!(
                            "--by: {}",
                            kepi_game::roster::shown(&e.to_string())
                        ));
                    }
                    Ok(u) if u.eliminated() => {
                        return Some(format!(
                            "--by: {} is eliminated and besieges nothing",
                            kepi_game::roster::shown(&u.unit.id)
                        ));
                    }
                    Ok(_) => {}
                }
            }
        }
        None
    }

    /// FR-F1, FR-B1: the game keeps what `siege` lays and what `blockade` does to its marker.
    fn plain_effects(
        &self,
        r: &kepi_game::rules::Resolution<serde_json::Value>,
        state: &GameState,
    ) -> Vec<Action> {
        let Some(v) = r.outcome.as_ref() else {
            return Vec::new();
        };
        match r.action.as_str() {
            "siege" => serde_json::from_value::<siege::SiegeOutcome>(v.clone())
                .ok()
                .and_then(|o| siege_laid(&o, state))
                .into_iter()
                .collect(),
            "blockade" => serde_json::from_value::<siege::TurnOutcome>(v.clone())
                .ok()
                .and_then(|o| marker_moved(&o, state))
                .into_iter()
                .collect(),
            _ => Vec::new(),
        }
    }

    /// FR-B1: doing the calendar's check for a place advances its marker (the siege held; a
    /// broken or lifted one is `blockade --end broken|lifted` instead, and the check is waived);
    /// doing a capitulation's check eliminates the besieged units in the place's cell (I6).
    fn due_effects(
        &self,
        state: &GameState,
        d: &kepi_game::engine::flow::Due,
        tables: &kepi_game::rules::Tables,
    ) -> Vec<Action> {
        if d.rule.as_str() != "FR-B1" {
            return Vec::new();
        }
        let Some(g) = d.at.and_then(|at| {
            state.sieges.iter().find(|g| {
                g.hex == at
                    && (d.what.starts_with(&format!("{}:", g.place))
                        || d.what.starts_with(&format!("{} {CAPITULATES}", g.place)))
            })
        }) else {
            return Vec::new();
        };
        if d.what.contains(CAPITULATES) {
            // I8: Paris's capitulation ends the game; I6 (Metz) and a fortress's garrison: the
            // besieged units are eliminated.
            if g.calendar.as_ref().is_some_and(|c| c.kind == "paris") {
                return Vec::new();
            }
            return state
                .units
                .iter()
                .filter(|u| {
                    g.covers(u.position)
                        && u.unit.side != g.besieger
                        && !u.eliminated()
                        && u.unit.arm != Arm::Fortress
                })
                .map(|u| Action::LoseStrength {
                    unit: u.unit.id.clone(),
                    n: u.strength,
                })
                .collect();
        }
        let Some(c) = g.calendar.as_ref().filter(|_| g.capitulated.is_none()) else {
            return Vec::new();
        };
        let input = siege::TurnInput {
            place: g.place.clone(),
            kind: siege::kind_from_word(&c.kind),
            // I2, I5: a fortified camp not encircled at the end of the turn is broken.
            end: if super::checks::open_cells(state, g).is_some_and(|open| !open.is_empty()) {
                siege::BlockadeEnd::Broken
            } else {
                siege::BlockadeEnd::Held
            },
            start: Some(c.start.clone()),
            advanced: c.advanced,
            flipped: c.flipped,
            steps: c.steps,
            turn: Some(state.turn),
        };
        siege::blockade_turn(&input, tables.get::<crate::fr1870::Fr1870Tables>())
            .ok()
            .and_then(|r| r.outcome)
            .and_then(|o| marker_moved(&o, state))
            .into_iter()
            .collect()
    }

    fn scenarios(&self) -> &'static [(&'static str, &'static str)] {
        &[(
            "fr1870-august.toml",
            include_str!("../../../unit-cards/scenarios/fr1870-august.toml"),
        )]
    }
}

/// The longest place name `--place` takes ("Neuf-Brisach", "Châlons-sur-Marne" are far shorter).
const PLACE_MAX: usize = 60;

/// The words of a capitulation's check (FR-B1), which doing it reads.
pub(crate) const CAPITULATES: &str = "capitulates";

/// True when `flag` was typed (`--flag` or `--flag=...`).
fn given(typed: &[String], flag: &str) -> bool {
    typed
        .iter()
        .any(|w| w == flag || w.starts_with(&format!("{flag}=")))
}

/// Every value typed for `flag` (`--flag V` or `--flag=V`), commas split.
fn values(typed: &[String], flag: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut it = typed.iter();
    while let Some(w) = it.next() {
        let v = if w == flag {
            it.next().cloned()
        } else {
            w.strip_prefix(&format!("{flag}=")).map(str::to_string)
        };
        if let Some(v) = v {
            out.extend(v.split(',').map(|x| x.trim().to_string()));
        }
    }
    out
}

/// The game's siege of `place` (its name as the game keeps it, any case).
fn siege_of<'a>(state: &'a GameState, place: &str) -> Option<&'a Siege> {
    let p = place.trim();
    state
        .sieges
        .iter()
        .find(|g| g.place.eq_ignore_ascii_case(p))
}

/// FR-F1, I10: the besiegers' cells, arms and side, what they besiege already, the garrison and
/// the fortress card's value.
fn siege_defaults(typed: &[String], state: &GameState) -> Vec<String> {
    let mut out = Vec::new();
    let by: Vec<&UnitState> = values(typed, "--by")
        .iter()
        .filter_map(|k| state.find(k).ok())
        .collect();
    let place = values(typed, "--place")
        .into_iter()
        .next()
        .unwrap_or_default();
    if !by.is_empty() {
        if !given(typed, "--besieger-cell") && by.iter().all(|u| u.position.hex().is_some()) {
            out.push("--besieger-cell".to_string());
            out.push(
                by.iter()
                    .map(|u| u.position.to_string())
                    .collect::<Vec<_>>()
                    .join(","),
            );
        }
        if !given(typed, "--no-infantry") && by.iter().all(|u| u.unit.arm != Arm::Infantry) {
            out.push("--no-infantry".to_string());
        }
        if !given(typed, "--besieger") {
            out.push("--besieger".to_string());
            out.push(by[0].unit.side.to_string());
        }
        if !given(typed, "--also-besieging") {
            let kinds: Vec<String> = state
                .sieges
                .iter()
                .filter(|g| g.capitulated.is_none() && !g.place.eq_ignore_ascii_case(place.trim()))
                .filter(|g| by.iter().any(|u| g.by.contains(&u.unit.id)))
                .map(|g| {
                    g.calendar
                        .as_ref()
                        .map(|c| c.kind.clone())
                        .unwrap_or_else(|| siege::kind_word(siege::kind_of(&g.place, None)).into())
                })
                .collect();
            if !kinds.is_empty() {
                out.push("--also-besieging".to_string());
                out.push(kinds.join(","));
            }
        }
    }
    let at: Vec<kepi_game::roster::Position> = values(typed, "--cell")
        .into_iter()
        .filter_map(|c| c.parse::<kepi_game::roster::Position>().ok())
        .filter(|p| p.hex().is_some())
        .collect();
    let besieger = by.first().map(|u| u.unit.side).or_else(|| {
        values(typed, "--besieger")
            .into_iter()
            .next()
            .and_then(|w| w.parse().ok())
    });
    if !at.is_empty() {
        let here = || {
            state
                .units
                .iter()
                .filter(|u| at.contains(&u.position) && !u.eliminated())
        };
        if !given(typed, "--garrison")
            && let Some(b) = besieger
        {
            let n = here()
                .filter(|u| {
                    u.unit.side != b
                        && !matches!(u.unit.arm, Arm::Fortress | Arm::Railway | Arm::Dummy)
                })
                .count();
            out.push("--garrison".to_string());
            out.push(n.to_string());
        }
        if !given(typed, "--coefficient") {
            let c: u32 = here()
                .filter(|u| u.unit.arm == Arm::Fortress)
                .map(|u| u.strength)
                .sum();
            if (1..=3).contains(&c) {
                out.push("--coefficient".to_string());
                out.push(c.to_string());
            }
        }
    }
    out
}

/// FR-B1: the place's marker as the game keeps it, and the turn.
fn blockade_defaults(typed: &[String], state: &GameState) -> Vec<String> {
    let mut out = Vec::new();
    let place = values(typed, "--place")
        .into_iter()
        .next()
        .unwrap_or_default();
    if !given(typed, "--turn") {
        out.push("--turn".to_string());
        out.push(state.turn.to_string());
    }
    let Some(g) = siege_of(state, &place) else {
        return out;
    };
    let Some(c) = &g.calendar else {
        return out;
    };
    for (flag, v) in [
        ("--kind", Some(c.kind.clone())),
        ("--start", Some(c.start.clone())),
        ("--advanced", Some(c.advanced.to_string())),
        ("--steps", c.steps.map(|n| n.to_string())),
    ] {
        if let Some(v) = v
            && !given(typed, flag)
        {
            out.push(flag.to_string());
            out.push(v);
        }
    }
    if c.flipped && !given(typed, "--flipped") {
        out.push("--flipped".to_string());
    }
    out
}

/// FR-L1: each side's units eliminated, and the French units besieged in Metz.
fn points_defaults(typed: &[String], state: &GameState) -> Vec<String> {
    let mut out = Vec::new();
    let fighting =
        |u: &&UnitState| !matches!(u.unit.arm, Arm::Fortress | Arm::Railway | Arm::Dummy);
    for (flag, side) in [
        ("--french-eliminated", Side::French),
        ("--german-eliminated", Side::German),
    ] {
        if !given(typed, flag) {
            let n = state
                .units
                .iter()
                .filter(fighting)
                .filter(|u| u.unit.side == side && u.eliminated())
                .count();
            out.push(flag.to_string());
            out.push(n.to_string());
        }
    }
    if !given(typed, "--in-metz")
        && let Some(g) = siege_of(state, "Metz").filter(|g| g.capitulated.is_none())
    {
        let n = state
            .units
            .iter()
            .filter(fighting)
            .filter(|u| g.covers(u.position) && u.unit.side != g.besieger && !u.eliminated())
            .count();
        out.push("--in-metz".to_string());
        out.push(n.to_string());
    }
    out
}

/// FR-F1, FR-B1: the siege `siege` laid, as the game keeps it.
fn siege_laid(o: &siege::SiegeOutcome, state: &GameState) -> Option<Action> {
    let mut cells = o
        .cells
        .iter()
        .map(|c| c.parse::<kepi_game::roster::Position>().ok());
    let hex = cells.next()??;
    let more: Vec<kepi_game::roster::Position> = cells.collect::<Option<Vec<_>>>()?;
    let by: Vec<&UnitState> = o.by.iter().filter_map(|k| state.find(k).ok()).collect();
    let besieger = by
        .first()
        .map(|u| u.unit.side)
        .or_else(|| o.besieger.as_deref().and_then(|b| b.parse().ok()))
        .unwrap_or(Side::German);
    let place = siege_of(state, &o.place)
        .map(|g| g.place.clone())
        .unwrap_or_else(|| o.place.clone());
    Some(Action::SetSiege {
        place: place.clone(),
        siege: Some(Siege {
            place,
            hex,
            more,
            besieger,
            by: by.iter().map(|u| u.unit.id.clone()).collect(),
            since: state.turn,
            calendar: o.start.as_ref().map(|s| CalendarMarker {
                kind: siege::kind_word(o.kind).to_string(),
                start: s.clone(),
                advanced: 0,
                flipped: false,
                steps: o.steps,
            }),
            capitulated: None,
        }),
    })
}

/// FR-B1: the game's siege after `blockade` (or the calendar's check): its marker moved, the siege
/// ended, or the place capitulated (kept, with the turn, so the capitulation is a check due and
/// Metz's besiegers are held there, I6).
fn marker_moved(o: &siege::TurnOutcome, state: &GameState) -> Option<Action> {
    let g = siege_of(state, &o.place)?;
    if o.event == super::BlockadeEvent::Removed {
        return Some(Action::SetSiege {
            place: g.place.clone(),
            siege: None,
        });
    }
    let mut next = g.clone();
    if let Some(b) = &o.marker {
        let steps = g.calendar.as_ref().and_then(|c| c.steps);
        next.calendar = Some(CalendarMarker {
            kind: siege::kind_word(b.kind).to_string(),
            start: b.start.clone(),
            advanced: b.advanced,
            flipped: b.flipped,
            steps,
        });
    }
    if o.capitulates {
        next.capitulated = Some(o.turn.unwrap_or(state.turn));
    }
    Some(Action::SetSiege {
        place: g.place.clone(),
        siege: Some(next),
    })
}

/// FR-B1 (I6): "the units of the besieger occupy the fortified camp and may leave it only after
/// having stayed there for one complete turn (example: if Metz capitulates in turn 8, the besiegers
/// may leave it only in turn 10)". A besieger's unit leaving the cell of a fortified camp that
/// capitulated before that turn is noted (the umpire decides).
fn leaves_metz_early(s: &GameState, u: &UnitState, to: kepi_game::roster::Position) -> Vec<String> {
    s.sieges
        .iter()
        .filter(|g| {
            g.calendar.as_ref().is_some_and(|c| c.kind == "metz")
                && g.covers(u.position)
                && !g.covers(to)
                && u.unit.side == g.besieger
        })
        .filter_map(|g| {
            let turn = g.capitulated?;
            let leave = super::blockade::metz_besiegers_may_leave(turn);
            (s.turn < leave).then(|| {
                format!(
                    "{} leaves {} on turn {}: {} capitulated in turn {turn}, so the besiegers may \
                     leave it only in turn {leave} (FR-B1)",
                    u.unit.name, g.place, s.turn, g.place
                )
            })
        })
        .collect()
}
