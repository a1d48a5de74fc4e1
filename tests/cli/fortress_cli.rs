//! Issue 42: 1870's fortresses in play (FR-F1, seed 001 rules H5 and H11), through the real binary:
//! storming an unoccupied value-1 fortress from the move (`storm UNIT`: the stormer occupies it,
//! the fortress changes hands, the stormer is marked for the turn), what the text says against a
//! storm noted (an occupied fortress, out of the Movement Phase, the stormer moving on or fighting),
//! the units an occupied fortress multiplies in defence at the defender's choice (the defender's
//! best by default, `--multiplied` typed), its coefficient added when its garrison sallies out,
//! and a fortress taken by its besiegers on E or DE passing to them (H12).

use std::path::Path;

use super::common::{
    apply, apply_json, card, fr1870_header, game_of_scenario, json, noted, notes_of, ok, refused,
    show, tmp,
};

/// A scenario on 1870's board from calendar cell 1 (French movement first):
/// - Longwy (2010), a German fortress of value 1, unoccupied; French infantry `fr-st` next to it
///   (2011), French cavalry `fr-cav` (2111), German infantry `de-near` on its other side (2009);
/// - a German fortress of value 2 at 3010 held by four German units (6, 6, 4, 4), French infantry
///   `fr-a1` (10) and `fr-a2` (9) next to it (3011);
/// - a French fortress of value 2 at 1010 held by `fr-g` (4), German `de-t` (3) next to it (1011);
/// - a German fortress of value 1 at 4010 held by `de-oc`, French `fr-oc` next to it (4011).
pub(super) fn scenario(dir: &Path) -> String {
    let mut t = fr1870_header("fr1870-fortresses", "Fortresses", "");
    let units: &[(&str, &str, &str, u32, &str)] = &[
        ("fort-lw", "german", "fortress", 1, "2010"),
        ("fr-st", "french", "infantry", 3, "2011"),
        ("fr-cav", "french", "cavalry", 2, "2111"),
        ("de-near", "german", "infantry", 2, "2009"),
        ("fort-mz", "german", "fortress", 2, "3010"),
        ("de-a", "german", "infantry", 6, "3010"),
        ("de-b", "german", "infantry", 6, "3010"),
        ("de-c", "german", "infantry", 4, "3010"),
        ("de-d", "german", "infantry", 4, "3010"),
        ("fr-a1", "french", "infantry", 10, "3011"),
        ("fr-a2", "french", "infantry", 9, "3011"),
        ("fort-fr", "french", "fortress", 2, "1010"),
        ("fr-g", "french", "infantry", 4, "1010"),
        ("de-t", "german", "infantry", 3, "1011"),
        ("fort-oc", "german", "fortress", 1, "4010"),
        ("de-oc", "german", "infantry", 1, "4010"),
        ("fr-oc", "french", "infantry", 3, "4011"),
    ];
    for (id, side, arm, strength, hex) in units {
        t.push_str(&card(id, side, arm, *strength, hex, ""));
    }
    game_of_scenario(dir, "fortresses.toml", &t)
}

/// Unit `id` as `kepi game show --json` gives it.
fn unit(save: &str, id: &str) -> serde_json::Value {
    show(save)["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["id"] == id)
        .cloned()
        .unwrap_or_else(|| panic!("no unit {id}"))
}

/// True when unit `id` carries `flag`.
fn flagged(save: &str, id: &str, flag: &str) -> bool {
    unit(save, id)["flags"]
        .as_array()
        .is_some_and(|f| f.iter().any(|x| x == flag))
}

/// The modifier lines of the last resolution in the game's log whose rule is `rule`, as labels.
fn lines(save: &str, rule: &str) -> Vec<String> {
    let log = json(&["log", "show", save, "--json"]);
    let last = log.as_array().unwrap().last().unwrap()["action"]["resolution"].clone();
    last["modifiers"]
        .as_array()
        .map(|m| {
            m.iter()
                .filter(|l| l["rule"] == rule)
                .filter_map(|l| l["label"].as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// FR-F1, H5: "on a 4, 5 or 6 the fortress is taken; the player takes possession of the fortress
/// immediately by occupying the cell with the unit that attacked"; "the unit interrupts its
/// movement; it may go no further during this phase"; "the unit thus engaged, whether or not it
/// has taken the fortress, may not fight in the following Combat Phase". In play: the stormer is
/// in Longwy's cell, Longwy is French, the stormer is marked; moving it on and attacking with it
/// are noted before they are made and logged with them; the log verifies.
#[test]
fn a_stormed_fortress_is_occupied_and_changes_hands() {
    let save = scenario(&tmp("fortress", "storm-taken"));
    let out = apply(&save, &["storm", "fr-st", "--dice", "d6=5"]);
    assert_eq!(out["outcome"]["taken"], true, "{out}");
    assert!(out["rules"].as_array().unwrap().contains(&"FR-F1".into()));
    assert_eq!(
        unit(&save, "fr-st")["hex"],
        "2010",
        "the stormer occupies the cell"
    );
    assert_eq!(
        unit(&save, "fort-lw")["side"],
        "french",
        "possession passes"
    );
    assert!(flagged(&save, "fr-st", "stormed"), "marked for the turn");
    // "it may go no further during this phase": noted, the umpire decides.
    let on = apply(&save, &["move", "fr-st", "2011"]);
    assert!(
        noted(&notes_of(&on), "it may go no further during this phase"),
        "{on}"
    );
    apply(&save, &["undo"]);
    apply(&save, &["next-phase"]);
    // The following Combat Phase: attacking with the stormer is noted.
    let fought = apply(
        &save,
        &[
            "combat",
            "--attackers",
            "fr-st",
            "--hex",
            "2009",
            "--dice",
            "d6=3",
            "--result",
            "R",
        ],
    );
    assert!(
        noted(
            &notes_of(&fought),
            "may not fight in the following Combat Phase"
        ),
        "{fought}"
    );
    ok(&["log", "verify", &save]);
    // The mark lasts the turn.
    apply(
        &save,
        &["next-phase", "next-phase", "next-phase", "next-phase"],
    );
    assert!(!flagged(&save, "fr-st", "stormed"), "cleared with the turn");
    ok(&["log", "verify", &save]);
}

/// FR-F1, H5: "on a 1, 2 or 3 the fortress is not taken"; "whether or not it has taken the
/// fortress" the stormer is marked.
#[test]
fn a_storm_that_fails_leaves_the_fortress_but_marks_the_stormer() {
    let save = scenario(&tmp("fortress", "storm-failed"));
    let out = apply(&save, &["storm", "fr-st", "--dice", "d6=3"]);
    assert_eq!(out["outcome"]["taken"], false, "{out}");
    assert_eq!(unit(&save, "fr-st")["hex"], "2011");
    assert_eq!(unit(&save, "fort-lw")["side"], "german");
    assert!(flagged(&save, "fr-st", "stormed"));
    ok(&["log", "verify", &save]);
}

/// FR-F1, H5: "When an infantry unit arrives on a cell adjacent to an enemy fortress that is
/// unoccupied and of value 1" and "this combat took place during the player's Movement Phase":
/// storming an occupied fortress or in the Combat Phase is noted (the umpire decides); cavalry
/// and a fortress of value 2 ("may not be taken without a siege", H6) are refused.
#[test]
fn storm_breaches_are_noted_and_the_impossible_refused() {
    let save = scenario(&tmp("fortress", "storm-breaches"));
    let occupied = apply(&save, &["storm", "fr-oc", "--dice", "d6=2"]);
    let n = notes_of(&occupied);
    assert!(
        noted(&n, "occupied by de-oc") && noted(&n, "an enemy fortress that is unoccupied"),
        "{occupied}"
    );
    let e = refused(&[
        "game",
        "apply",
        &save,
        "storm",
        "fr-cav",
        "--fortress",
        "2010",
    ]);
    assert!(e.contains("only an infantry unit"), "{e}");
    let e = refused(&["game", "apply", &save, "storm", "fr-a1"]);
    assert!(e.contains("without a siege"), "{e}");
    apply(&save, &["next-phase"]);
    let late = apply(&save, &["storm", "fr-st", "--dice", "d6=1"]);
    assert!(
        noted(
            &notes_of(&late),
            "this combat took place during the player's Movement Phase"
        ),
        "{late}"
    );
    ok(&["log", "verify", &save]);
}

/// FR-F1, H11: "a fortress of value 2 occupied by 4 units will double the combat potential in
/// defence of 2 of them, at the player's choice, while the other 2 will fight in defence as in
/// attack with a potential halved". Two disorganised 6s and two 4s: by printed potential the two
/// 6s (3x2 + 3x2 + (4 + 4)/2 = 16); the defender's best is the two 4s (4x2 + 4x2 + (3 + 3)/2 =
/// 19), kepi's default, said in a modifier line; the defender's choice typed with --multiplied.
#[test]
fn an_occupied_fortress_multiplies_the_defenders_best_or_his_choice() {
    let save = scenario(&tmp("fortress", "h11-defence"));
    apply(
        &save,
        &[
            "flag",
            "de-a",
            "disorganised",
            "on",
            "flag",
            "de-b",
            "disorganised",
            "on",
            "next-phase",
        ],
    );
    let attack = ["combat", "--attackers", "fr-a1,fr-a2", "--hex", "3010"];
    let mut words = attack.to_vec();
    words.extend(["--dice", "d6=3", "--result", "R"]);
    let best = apply(&save, &words);
    assert_eq!(best["outcome"]["defence"], "19", "{best}");
    let f = lines(&save, "FR-F1");
    assert!(
        f.iter()
            .any(|l| l.contains("multiplies and supplies de-c, de-d (the defender's best")),
        "{f:?}"
    );
    apply(&save, &["undo"]);
    let mut words = attack.to_vec();
    words.extend([
        "--multiplied",
        "de-a,de-b",
        "--dice",
        "d6=3",
        "--result",
        "R",
    ]);
    let chosen = apply(&save, &words);
    assert_eq!(chosen["outcome"]["defence"], "16", "{chosen}");
    assert!(
        lines(&save, "FR-F1")
            .iter()
            .any(|l| l.contains("de-a, de-b (the defender's choice")),
        "{chosen}"
    );
    apply(&save, &["undo"]);
    let mut words: Vec<&str> = vec!["game", "apply", &save];
    words.extend(attack);
    words.extend(["--multiplied", "de-a,de-b,de-c"]);
    let e = refused(&words);
    assert!(e.contains("--multiplied") && e.contains("value 2"), "{e}");
    let mut words: Vec<&str> = vec!["game", "apply", &save];
    words.extend(attack);
    words.extend(["--multiplied", "fr-a1"]);
    let e = refused(&words);
    assert!(e.contains("not a unit in --hex"), "{e}");
    ok(&["log", "verify", &save]);
}

/// FR-F1, H11 in `kepi resolve`: the defenders one by one (`--garrison`, `d` for disorganised) in
/// a fortress of value 2: the defender's best by default, his choice with `--multiplied`.
#[test]
fn resolve_weighs_the_garrison_of_an_occupied_fortress() {
    let base = [
        "resolve",
        "fr1870",
        "combat",
        "--attack",
        "19",
        "--garrison",
        "6d,6d,4,4",
        "--fortress",
        "2",
        "--json",
    ];
    let best = json(&base);
    assert_eq!(best["outcome"]["defence"], "19", "{best}");
    let mut words = base.to_vec();
    words.extend(["--multiplied", "1,2"]);
    let chosen = json(&words);
    assert_eq!(chosen["outcome"]["defence"], "16", "{chosen}");
    let mut words = base.to_vec();
    words.extend(["--multiplied", "5"]);
    let e = refused(&words);
    assert!(e.contains("--multiplied"), "{e}");
    // H11 in attack: "the potential of the fortress is added to the potential of the occupying
    // units".
    let sally = json(&[
        "resolve",
        "fr1870",
        "combat",
        "--attack",
        "4",
        "--defend",
        "3",
        "--from-fortress",
        "2",
        "--json",
    ]);
    assert_eq!(sally["outcome"]["attack"], "6", "{sally}");
}

/// FR-F1, H11: "in attack, the potential of the fortress is added to the potential of the
/// occupying units": the garrison of the French fortress at 1010 attacks out of it, and its
/// coefficient is added without the fortress card being named.
#[test]
fn a_garrison_sallying_out_adds_its_fortress() {
    let save = scenario(&tmp("fortress", "h11-attack"));
    apply(&save, &["next-phase"]);
    let out = apply_json(
        &save,
        &[
            "combat",
            "--attackers",
            "fr-g",
            "--hex",
            "1011",
            "--dice",
            "d6=3",
            "--result",
            "R",
        ],
    )
    .pop()
    .unwrap();
    assert_eq!(out["outcome"]["attack"], "6", "4 + 2: {out}");
    assert!(
        lines(&save, "FR-F1")
            .iter()
            .any(|l| l.contains("fortress coefficient (garrison-attacks)")),
        "{out}"
    );
    ok(&["log", "verify", &save]);
}

/// Lays a siege of the fortress in `cell` by `by` and plays on to the combat phase, where the
/// besiegers attack the fortress's cell with `result` entered (1870's CRT rows above 1:1 are not
/// printed): the combat's `game apply --json` line.
fn assault(save: &str, place: &str, cell: &str, by: &str, result: &str) -> serde_json::Value {
    apply(
        save,
        &["siege", "--place", place, "--cell", cell, "--by", by],
    );
    apply(save, &["next-phase"]);
    let mut words = vec![
        "combat",
        "--attackers",
        by,
        "--hex",
        cell,
        "--dice",
        "d6=4",
        "--result",
        result,
    ];
    if result == "E" {
        words.extend_from_slice(&["--losses", "fr-oc=3"]);
    }
    apply_json(save, &words).pop().unwrap()
}

/// FR-F1, H12: "When the besieging units attack, the fortress is taken only in case of result "E"
/// or "DE""; "eliminate the besieged units, if there are any"; "if there was a "DE" result,
/// disorganise one of the besieger's units, at the besieger's choice"; "indicate the taking of
/// possession of the fortress by an appropriate marker"; "All the advantages of the fortress pass
/// immediately to its new possessor". In play: the garrison is eliminated, the fortress card is
/// French, the siege is over, and the besieger's choice is noted; the log verifies.
#[test]
fn a_fortress_its_besiegers_take_on_de_passes_to_them() {
    let save = scenario(&tmp("fortress", "h12-de"));
    let out = assault(&save, "Oc", "4010", "fr-oc", "DE");
    assert_eq!(out["outcome"]["effects"]["fortress_taken"], true, "{out}");
    assert_eq!(
        unit(&save, "fort-oc")["side"],
        "french",
        "possession passes"
    );
    assert_eq!(
        unit(&save, "de-oc")["strength"],
        0,
        "the besieged are eliminated"
    );
    assert_eq!(
        show(&save)["sieges"].as_array().map_or(0, Vec::len),
        0,
        "the siege is over: {}",
        show(&save)["sieges"]
    );
    let summaries = ok(&["log", "show", &save]);
    assert!(
        summaries.contains("Oc passes into the french side's possession")
            || summaries.contains("fort-oc passes into the french side's possession"),
        "{summaries}"
    );
    assert!(
        out.to_string()
            .contains("disorganises one of his units, at his choice"),
        "{out}"
    );
    ok(&["log", "verify", &save]);
    // Undone, the fortress is German and besieged again.
    apply(&save, &["undo"]);
    assert_eq!(unit(&save, "fort-oc")["side"], "german");
    assert_eq!(show(&save)["sieges"].as_array().map_or(0, Vec::len), 1);
}

/// FR-F1, H12: "In case of result "E", it may happen that all of the besieger's units are
/// eliminated, but the fortress nevertheless passes into his possession." The one besieger is
/// eliminated in the exchange, and the fortress is French all the same. On any other result the
/// fortress stays ("the fortress is taken only in case of result "E" or "DE"").
#[test]
fn a_fortress_taken_on_e_passes_even_with_no_besieger_left() {
    let save = scenario(&tmp("fortress", "h12-e"));
    let out = assault(&save, "Oc", "4010", "fr-oc", "E");
    assert_eq!(out["outcome"]["effects"]["fortress_taken"], true, "{out}");
    assert_eq!(unit(&save, "fr-oc")["strength"], 0, "the exchange: {out}");
    assert_eq!(
        unit(&save, "fort-oc")["side"],
        "french",
        "possession passes"
    );
    ok(&["log", "verify", &save]);

    let held = scenario(&tmp("fortress", "h12-dd"));
    let out = assault(&held, "Oc", "4010", "fr-oc", "DD");
    assert_eq!(out["outcome"]["effects"]["fortress_taken"], false, "{out}");
    assert_eq!(unit(&held, "fort-oc")["side"], "german");
    assert_eq!(show(&held)["sieges"].as_array().map_or(0, Vec::len), 1);
    ok(&["log", "verify", &held]);
}

/// Issue 45: 1870's markers are its own (declared in `src/sets/fr1870/marks.rs`), typed as they
/// always were (`flag`, `set`, any case, `_` for `-`, `disorganized`), set whatever they were, listed among the
/// unit's `flags` in `kepi game show --json` and written in the save under the fields a kepi
/// before wrote them with; a name 1870 does not declare is refused with the names it does.
#[test]
fn an_1870_marker_is_the_sets_own_and_reads_as_before() {
    let dir = tmp("fortress", "markers");
    let save = scenario(&dir);
    let flag = |name: &str, on: &str| ok(&["game", "apply", &save, "flag", "fr-st", name, on]);
    flag("Disorganised", "on");
    flag("disorganized", "on");
    ok(&["game", "apply", &save, "set", "fr-cav", "at_sea", "on"]);
    assert!(flagged(&save, "fr-st", "disorganised"));
    assert!(flagged(&save, "fr-cav", "at-sea"));
    assert!(
        unit(&save, "fr-st").get("marks").is_none(),
        "shown as flags"
    );
    ok(&["game", "compact", &save]);
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    let units = saved["state"]["units"].as_array().unwrap();
    let st = units.iter().find(|u| u["unit"]["id"] == "fr-st").unwrap();
    assert_eq!(st["disorganised"], true, "{st}");
    assert_eq!(st["muddled"], false, "{st}");
    assert!(st.get("marks").is_none(), "{st}");
    let cav = units.iter().find(|u| u["unit"]["id"] == "fr-cav").unwrap();
    assert_eq!(cav["at_sea"], true, "{cav}");
    // FR-C2: disorganised again is a check due (eliminated), as it was when it was a flag.
    let due = super::common::due_of(&save, "FR-C2");
    assert!(due.iter().any(|d| d["unit"] == "fr-st"), "{due:?}");
    let e = refused(&["game", "apply", &save, "flag", "fr-st", "entrained", "on"]);
    assert!(
        e.contains("disorganised, must-retreat, at-sea, stormed"),
        "{e}"
    );
    flag("disorganised", "off");
    assert!(!flagged(&save, "fr-st", "disorganised"));
    let out = ok(&["log", "verify", &save]);
    assert!(out.contains("log OK"), "{out}");
}

/// `kepi help game` names every flag of the engine's and every marker each built-in rule set
/// declares for its units, the words `flag UNIT NAME on|off` takes; `game show` lists as `flags`
/// exactly the engine's flags and the markers saves spell as fields (its public words).
#[test]
fn help_names_every_flag_and_every_sets_marker() {
    let help = ok(&["help", "game"]);
    let words: Vec<&str> = kepi::game::Flag::ALL
        .iter()
        .map(|f| f.as_str())
        .chain(
            kepi::registry::BUILT_IN
                .iter()
                .flat_map(|s| s.unit_markers().iter().map(|k| k.name)),
        )
        .collect();
    for w in words {
        assert!(help.contains(w), "kepi help does not name `{w}`");
    }
    // `game show` lists as `flags` every engine flag and every marker saves spell as a field.
    let mut shown = kepi::moves::SHOWN_AS_FLAGS.to_vec();
    let mut want: Vec<&str> = kepi::game::Flag::ALL.iter().map(|f| f.as_str()).collect();
    want.extend(kepi::game::unit_wire::LEGACY_MARKERS);
    shown.sort();
    want.sort();
    assert_eq!(shown, want);
}
