//! Issue 42, SPI combat's terrain read from the game's map (SPI-C5, the Terrain Effects Chart's
//! combat column), through the real binary: the defender in rough terrain, all attacking through
//! river hexsides, one attacker not across the river, the umpire's `--rough=off` over the map,
//! and `kepi resolve spi combat`, which has no map, unchanged. Each combat is logged with its
//! form, and `kepi log verify` resolves it again to the same lines.

use super::common::{apply, json, ok, tmp};

/// A 10 x 10 SPI map: rough at 0303; a river along two sides of 0707, towards 0706 (north) and
/// 0607 (west); no supply edges (both sides' supply is the umpire's, supplied).
const MAP: &str = "[map]\nname = \"terrain test\"\nrules = \"spi\"\nfirst = \"0101\"\n\
    last = \"1010\"\ndefault_terrain = \"clear\"\ndefault_country = \"france\"\n\n\
    [provenance]\nsource = \"club\"\ndrawn_by = \"a test\"\nfrom = \"nothing\"\n\n\
    [cells]\nrough = [\"0303\"]\n\n\
    [[river]]\nsides = [\"0706/0707\", \"0607/0707\"]\n";

/// A new SPI game on the test map with the German 5s de-2-5-1 and de-2-5-2 at `a` and `b`, the
/// French fr-metz-5 at `d`, in the German combat phase.
fn game(name: &str, a: &str, b: &str, d: &str) -> String {
    let save = super::common::spi_game_on_map("spi-terrain", name, "terrain-test.toml", MAP);
    super::common::place(&save, &[("de-2-5-1", a), ("de-2-5-2", b), ("fr-metz-5", d)]);
    ok(&["game", "apply", &save, "next-phase", "next-phase"]);
    let v = super::common::show(&save);
    assert_eq!(v["phase"], "German combat", "{}", v["phase"]);
    save
}

/// The SPI-C5 lines of `kepi game apply SAVE combat ...` on the French hex `hex` by `attackers`,
/// with the umpire's `more` options (a die of 3, the printed result "-": nobody loses).
fn c5_lines(save: &str, attackers: &str, hex: &str, more: &[&str]) -> Vec<String> {
    let mut words = vec![
        "combat",
        "--attackers",
        attackers,
        "--hex",
        hex,
        "--dice",
        "d6=3",
        "--result",
        "-",
    ];
    words.extend_from_slice(more);
    let line = apply(save, &words);
    let log = json(&["log", "show", save, "--json"]);
    let last = log.as_array().and_then(|l| l.last()).cloned();
    let res = last.map(|e| e["action"]["resolution"].clone());
    res.as_ref()
        .and_then(|r| r["modifiers"].as_array())
        .unwrap_or_else(|| panic!("no resolution logged after {line}"))
        .iter()
        .filter(|l| l["rule"] == "SPI-C5")
        .map(|l| l["label"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// The Terrain Effects Chart, Rough terrain: "attacker adds "one" to the defender's die-roll when
/// the defender is in Rough Terrain". The French unit stands in rough 0303 on the map: the die
/// line comes without `--rough`, labelled as the map's; `--rough=off` is the umpire's, kept apart
/// ("set by you"); both verify.
#[test]
fn a_defender_in_rough_terrain_on_the_map_gets_the_die_line() {
    let save = game("rough", "0302", "0909", "0303");
    let lines = c5_lines(&save, "de-2-5-1", "0303", &[]);
    assert!(
        lines.contains(&"die: defender in rough terrain (map, 0303)".to_string()),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains("river")), "{lines:?}");
    ok(&["log", "verify", &save]);
    // The umpire says the defender is not in rough terrain: no die line, and a line saying so.
    ok(&["game", "apply", &save, "undo"]);
    let lines = c5_lines(&save, "de-2-5-1", "0303", &["--rough=off"]);
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with("die: defender in rough")),
        "{lines:?}"
    );
    assert!(
        lines.contains(
            &"not defender in rough terrain: set by you (the map: defender in rough terrain, 0303)"
                .to_string()
        ),
        "{lines:?}"
    );
    ok(&["log", "verify", &save]);
}

/// The Terrain Effects Chart, River hexsides: "if all attacking units [attack] through such
/// hexside, attacker adds "one" to die roll". Both German units attack 0707 across its river
/// hexsides (from 0706 and 0607): the die line comes from the map without `--river`.
#[test]
fn all_attacking_across_river_hexsides_get_the_die_line() {
    let save = game("river", "0706", "0607", "0707");
    let lines = c5_lines(&save, "de-2-5-1,de-2-5-2", "0707", &[]);
    assert!(
        lines.contains(&"die: all attacking through river hexsides (map, 0707)".to_string()),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.contains("rough terrain")),
        "{lines:?}"
    );
    ok(&["log", "verify", &save]);
}

/// The same chart's "if all attacking units [attack] through such hexside": one attacker (from
/// 0807, across no river) means no die line, and a line naming it; `--river` is the umpire's
/// against the map, labelled so.
#[test]
fn one_attacker_not_across_the_river_means_no_river_line() {
    let save = game("river-not-all", "0706", "0807", "0707");
    let lines = c5_lines(&save, "de-2-5-1,de-2-5-2", "0707", &[]);
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with("die: all attacking through river")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(
            |l| l.starts_with("not all attacking through river hexsides (map)")
                && l.contains("in 0807")
        ),
        "{lines:?}"
    );
    ok(&["game", "apply", &save, "undo"]);
    let lines = c5_lines(&save, "de-2-5-1,de-2-5-2", "0707", &["--river"]);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("die: all attacking through river hexsides (set by you")),
        "{lines:?}"
    );
    ok(&["log", "verify", &save]);
}

/// Without a map nothing is read: the umpire ticks (`--rough` alone still means rough), and a
/// line says the map does not say; `kepi resolve spi combat` (no game, no map) prints the chart's
/// die line as before, with no word of a map.
#[test]
fn without_a_map_the_umpire_ticks_and_resolve_is_unchanged() {
    let save = super::common::new_game(&tmp("spi-terrain", "no-map"), "spi-1870", "3");
    ok(&[
        "game",
        "apply",
        &save,
        "move",
        "de-2-5-1",
        "0101",
        "move",
        "fr-metz-5",
        "0102",
        "next-phase",
        "next-phase",
    ]);
    let lines = c5_lines(&save, "de-2-5-1", "0102", &["--rough"]);
    assert!(
        lines.contains(&"die: defender in rough terrain (set by you)".to_string()),
        "{lines:?}"
    );
    assert!(
        lines.contains(
            &"rough, ridge and river hexsides: the game carries no map: the umpire ticks them"
                .to_string()
        ),
        "{lines:?}"
    );
    ok(&["log", "verify", &save]);
    let v = json(&[
        "resolve", "spi", "combat", "--attack", "6", "--defend", "3", "--rough", "--json",
    ]);
    let c5: Vec<&serde_json::Value> = v["modifiers"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["rule"] == "SPI-C5")
        .collect();
    assert_eq!(c5.len(), 1, "{v}");
    assert_eq!(c5[0]["label"], "die: defender in rough terrain", "{v}");
}
