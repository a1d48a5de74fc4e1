//! Issue 42's audit, "Breaches the audit found silent (note them; the umpire decides)": each
//! breach below is played through the real binary. `kepi game apply --json` prints it in the
//! entry's "notes" before anything else is done, the log entry keeps it ("umpire went ahead:
//! ..."), the action is made all the same (never refused), and `kepi log verify` passes.

use super::common::{apply, apply_json, noted, notes_of, ok, strength};

fn game(scenario: &str, name: &str) -> String {
    super::common::new_game(&super::common::tmp("breaches42", name), scenario, "3")
}

/// The notes of the last entry of the log, as `kepi log show --json` gives them.
fn last_logged_notes(save: &str) -> Vec<String> {
    let log: serde_json::Value =
        serde_json::from_str(&ok(&["log", "show", save, "--json"])).unwrap();
    let last = log.as_array().unwrap().last().unwrap().clone();
    notes_of(&last)
}

/// `words` applied with `--json`: its last entry's notes, which must hold a breach naming `want`,
/// as the log's last entry must; the log then verifies.
fn breach(save: &str, words: &[&str], want: &str) -> Vec<String> {
    let notes = notes_of(&apply(save, words));
    assert!(noted(&notes, want), "{words:?}: `{want}` not in {notes:?}");
    let logged = last_logged_notes(save);
    assert!(noted(&logged, want), "log: `{want}` not in {logged:?}");
    verified(save);
    notes
}

/// `kepi log verify` passes.
fn verified(save: &str) {
    let out = ok(&["log", "verify", save]);
    assert!(out.contains("log OK"), "{out}");
}

/// `words` applied: no breach naming `want` in its notes.
fn no_breach(save: &str, words: &[&str], want: &str) {
    let notes = notes_of(&apply(save, words));
    assert!(!noted(&notes, want), "{words:?}: `{want}` in {notes:?}");
}

/// Every set (SPI-M1: "only in the friendly movement phase (advance after combat excepted)";
/// FR-M1, B1: "During each turn, each player has a Movement Phase. During this phase, and only
/// during this phase, he may move all or part of his units"; PW-T1: "2. Move activated units"):
/// a move in a phase that is not a movement phase is noted, citing the turn's rule.
#[test]
fn a_move_outside_a_movement_phase_is_noted_in_every_board_set() {
    // The Portable Wargame opens on the German artillery fire phase.
    let save = game("pw-skirmish", "pw-phase");
    breach(
        &save,
        &["move", "de-inf-1", "0202"],
        "which is not a movement phase (PW-T1",
    );
    // 1870: the French combat phase.
    let save = game("fr1870-august", "fr-phase");
    ok(&["game", "apply", &save, "next-phase"]);
    breach(
        &save,
        &["move", "fr-1rc", "2036"],
        "which is not a movement phase (FR-T1",
    );
    // SPI: a unit placed in its reinforcement phase (coming onto the map) is none; a unit on
    // the map moving in the German combat phase is one.
    let save = game("spi-1870", "spi-phase");
    no_breach(&save, &["move", "de-2-5-1", "1010"], "not a movement phase");
    ok(&["game", "apply", &save, "next-phase", "next-phase"]);
    breach(
        &save,
        &["move", "de-2-5-1", "1011"],
        "which is not a movement phase (SPI-T1",
    );
}

/// Every set: `set UNIT strength N` on an eliminated unit brings it back, which no text allows
/// (PW-V1 counts it lost): noted and logged with the change, made all the same.
#[test]
fn setting_an_eliminated_units_strength_is_noted() {
    let save = game("pw-skirmish", "revive");
    ok(&["game", "apply", &save, "lose", "de-cav", "2"]);
    assert_eq!(strength(&save, "de-cav"), 0);
    breach(
        &save,
        &["set", "de-cav", "strength", "2"],
        "was eliminated: no rule brings an eliminated unit back",
    );
    assert_eq!(strength(&save, "de-cav"), 2, "the umpire decides");
    // A unit still in play is set without a note.
    no_breach(&save, &["set", "de-inf-1", "strength", "3"], "eliminated");
}

/// GSP-A4: "Only guns that have not been moved or unlimbered in that turn may be fired."
#[test]
fn a_battery_unlimbered_this_turn_firing_is_noted() {
    let save = game("st-privat", "unlimbered");
    ok(&[
        "game",
        "apply",
        &save,
        "flag",
        "gfar-light-1",
        "limbered",
        "on",
        "flag",
        "gfar-light-1",
        "limbered",
        "off",
        "next-phase",
        "next-phase",
    ]);
    breach(
        &save,
        &["fire", "gfar-light-1", "9e-ligne-1"],
        "unlimbered this turn (GSP-A4",
    );
    // Another battery, unlimbered since the start, fires without the note.
    no_breach(
        &save,
        &["fire", "gfar-heavy-1", "4e-ligne-1"],
        "unlimbered this turn",
    );
}

/// P&K, formations: "Disordered units fight with 2 subtracted from their d10 rolls. ... Cavalry
/// can't charge." (PK-D1)
#[test]
fn disordered_cavalry_charging_is_noted() {
    let save = game("mars-la-tour", "pk-disordered");
    ok(&[
        "game",
        "apply",
        &save,
        "flag",
        "7th-cuirassiers",
        "disordered",
        "on",
        "next-phase",
    ]);
    breach(
        &save,
        &["melee", "7th-cuirassiers", "8e-ligne-1", "--charge"],
        "disordered cavalry charging (PK-D1",
    );
}

/// PK-X7, melee: "Units may not charge the move after they engage in melee."
#[test]
fn a_charge_the_move_after_a_melee_is_noted() {
    let save = game("mars-la-tour", "pk-charge");
    ok(&["game", "apply", &save, "next-phase"]);
    no_breach(
        &save,
        &["melee", "12th-grenadiers-1", "8e-ligne-1", "--charge"],
        "PK-X7",
    );
    // On to the next move's melee part.
    ok(&[
        "game",
        "apply",
        &save,
        "next-phase",
        "next-phase",
        "next-phase",
        "next-phase",
    ]);
    breach(
        &save,
        &["melee", "12th-grenadiers-1", "23e-ligne-1", "--charge"],
        "fought a melee last move and charges again (PK-X7",
    );
}

/// The Portable Wargame, PW-T1 and PW-T2: "2. Move activated units. To be active, a unit needs to
/// roll a minimum die score"; "Turns are alternate (aka IGOUGO)".
#[test]
fn pw_moves_without_activation_and_in_the_enemys_half_turn_are_noted() {
    let save = game("pw-skirmish", "pw-activation");
    ok(&["game", "apply", &save, "next-phase"]);
    breach(
        &save,
        &["move", "de-inf-2", "0302"],
        "moves without an activation (PW-T2",
    );
    breach(
        &save,
        &["move", "fr-inf-1", "0502"],
        "this is the German half-turn (PW-T1",
    );
    // An activated unit moves without the note.
    ok(&[
        "game", "apply", &save, "activate", "de-inf-3", "--dice", "d6=6",
    ]);
    no_breach(&save, &["move", "de-inf-3", "0402"], "activation");
}

/// PW-H1: a hit is resolved "lose a strength point or withdraw one square": a withdrawal of two
/// hexes for one hit is noted.
#[test]
fn a_two_hex_withdrawal_is_noted() {
    let save = game("pw-skirmish", "pw-withdraw");
    // The German rifle fire phase: the chasseurs take one hit, to be taken as a withdrawal of one
    // hex, which the owner makes on the map.
    ok(&["game", "apply", &save, "next-phase", "next-phase"]);
    let position = |save: &str| {
        super::common::show(save)["units"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["id"] == "fr-chasseurs")
            .and_then(|u| u["position"].as_str().map(String::from))
            .unwrap()
    };
    let before = position(&save);
    let lines = apply_json(
        &save,
        &[
            "rifle",
            "de-inf-3",
            "fr-chasseurs",
            "--hit",
            "withdraw",
            "--dice",
            "d6=6",
        ],
    );
    let rolled = lines.last().unwrap();
    assert_eq!(rolled["outcome"]["hits"], 1, "{rolled}");
    assert!(
        rolled["summary"]
            .as_str()
            .unwrap()
            .contains("takes 1 hit and withdraws 1 hex: move it on the map"),
        "{rolled}"
    );
    // kepi leaves the withdrawal to the owner: the unit stands where it stood.
    let at = position(&save);
    assert_eq!(at, before);
    // Two hexes on from where it stands.
    let col: u32 = at[..2].parse().unwrap();
    let row: u32 = at[2..].parse().unwrap();
    let to = format!("{col:02}{:02}", row + 2);
    breach(
        &save,
        &["move", "fr-chasseurs", &to],
        "withdraws 2 hexes for 1 hit (PW-H1",
    );
}

/// 1870, B8: "A unit may never enter a cell occupied by an enemy unit." B9: "A unit may be moved
/// only once per Movement Phase." (FR-M1)
#[test]
fn fr1870_entering_an_enemy_cell_and_moving_twice_are_noted() {
    let save = game("fr1870-august", "fr-moves");
    breach(
        &save,
        &["move", "fr-3rc", "2443"],
        "(FR-M1, B8", // de-cav-4 holds 2443
    );
    no_breach(&save, &["move", "fr-2rc", "2138"], "B9");
    breach(
        &save,
        &["move", "fr-2rc", "2137"],
        "moved already this Movement Phase (FR-M1, B9",
    );
}

/// SPI, Formation Status Case E (optional rule, SPI-H2): "Units may move by rail only when in a
/// Concentrated Formation Status."
#[test]
fn spi_entraining_while_extended_is_noted() {
    let save = game("spi-1870", "spi-extended");
    // The French reinforcement phase: the Chalons 8 comes on the map; then its movement phase.
    ok(&[
        "game",
        "apply",
        &save,
        "next-phase",
        "next-phase",
        "next-phase",
        "move",
        "fr-chalons-8",
        "3020",
        "next-phase",
        "flag",
        "fr-chalons-8",
        "extended",
        "on",
    ]);
    breach(
        &save,
        &["entrain", "fr-chalons-8"],
        "entrains in Extended Formation Status (SPI-H2",
    );
}

/// SPI-I1: "The four French Combat Point reinforcements in Game-Turn 6 may be used by the French
/// Player only in raising the Combat Strength of existing units on the map. The unit to be
/// reinforced must be brought to Chalons, and may be raised up to a Combat Strength not to exceed
/// eight Combat Points. The number of reinforcing Combat Points is then reduced by that amount."
#[test]
fn spi_raises_before_the_reinforcements_or_beyond_the_pool_are_noted() {
    let save = game("spi-1870", "spi-raise");
    let mut to_french_reinforcement = vec!["game", "apply", save.as_str()];
    to_french_reinforcement.extend(["next-phase"; 3]);
    to_french_reinforcement.extend([
        "move",
        "fr-chalons-8",
        "3020",
        "move",
        "fr-forbach-8",
        "3012",
        "lose",
        "fr-chalons-8",
        "2",
        "lose",
        "fr-forbach-8",
        "3",
    ]);
    ok(&to_french_reinforcement);
    // Game-Turn 1: the points have not come; the raise (6 to 8) is made all the same.
    breach(
        &save,
        &["raise", "fr-chalons-8", "--pool", "4"],
        "before the reinforcing Combat Points arrive in Game-Turn 6 (SPI-I1",
    );
    assert_eq!(strength(&save, "fr-chalons-8"), 8);
    // On to Game-Turn 6's French reinforcement phase: six phases a turn.
    let mut on = vec!["game", "apply", save.as_str()];
    on.extend(["next-phase"; 30]);
    ok(&on);
    let shown = super::common::show(&save);
    assert_eq!(shown["turn"], 6, "{}", shown["phase"]);
    // The first raise spent 2 of the 4: 2 are left, and 4 are typed.
    let notes = breach(
        &save,
        &["raise", "fr-forbach-8", "--pool", "4"],
        "when 2 of the game's 4 are left (2 spent) (SPI-I1",
    );
    assert!(!noted(&notes, "before the reinforcing"), "{notes:?}");
    no_breach(&save, &["raise", "fr-forbach-8", "--pool", "0"], "SPI-I1");
}

/// 1870, E15 (FR-C2): "Any cell evacuated by the loser following a combat may be occupied by the
/// winner with units that took part in the combat concerning that cell": an advance into the
/// cell before the loser has retreated from it is noted.
#[test]
fn fr1870_an_advance_into_a_cell_the_loser_still_holds_is_noted() {
    let save = game("fr1870-august", "fr-advance");
    // 2 against 4 is 1:2; die 6 is DR (seed: "1 vs 2 AE AE AE AD AD AD,DD R DR"): 3B must
    // retreat from 2544, which the French may then occupy.
    ok(&[
        "game",
        "apply",
        &save,
        "move",
        "de-4b",
        "3001",
        "next-phase",
        "combat",
        "--attackers",
        "fr-1rc",
        "--hex",
        "2544",
        "--dice",
        "d6=6",
    ]);
    let notes = breach(
        &save,
        &["move", "fr-1rc", "2544"],
        "which the loser still holds",
    );
    assert!(
        !noted(&notes, "not a movement phase") && !noted(&notes, "B8"),
        "an advance is neither a move out of phase nor an entry into an enemy cell: {notes:?}"
    );
}
