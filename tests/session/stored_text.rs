//! Issue 29: a save made before kepi refused control characters in cards may still hold them in
//! a unit's name (or a note): every text output shows them as escapes, never raw.

use super::common::{ok, tmp};

use chrono::Utc;
use kepi::game::{Action, Game, SeedSecret};

/// A name that would retitle the terminal, ring it, clear it and forge a roster line.
const EVIL: &str =
    "\u{1b}]0;pwned\u{7}Evil\u{1b}[2J\n  de-forged                   Forged\r\u{7f}\u{9b}31m";

/// A CSV file: no control character but line breaks and tabs, which RFC 4180 quotes (a CSV reader
/// reads one cell, not a forged row).
fn assert_inert_csv(what: &str, out: &[u8]) {
    let text = String::from_utf8(out.to_vec()).unwrap();
    assert!(
        !text
            .chars()
            .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t')),
        "{what}: {text}"
    );
    assert!(text.contains("\\u{1b}]0;pwned\\u{7}Evil"), "{what}: {text}");
    assert!(
        text.contains("\"\\u{1b}]0;pwned"),
        "{what}: the cell is quoted: {text}"
    );
}

/// No control character but the line ends (`\n`), and no line starts with the forged text.
fn assert_inert(what: &str, out: &[u8]) {
    let text = String::from_utf8(out.to_vec()).unwrap();
    for (i, line) in text.split('\n').enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        assert!(
            !line.chars().any(char::is_control),
            "{what}: line {i} holds a control character: {line:?}"
        );
        assert!(
            !line.trim_start().starts_with("de-forged"),
            "{what}: {line:?}"
        );
    }
    assert!(text.contains("\\u{1b}]0;pwned\\u{7}Evil"), "{what}: {text}");
}

#[test]
fn stored_control_characters_are_escaped_in_every_text_output() {
    let dir = tmp("input", "stored-text");
    let mut sc = kepi::registry::builtin_scenario("mars-la-tour").unwrap();
    sc.units[0].name = EVIL.to_string();
    let id = sc.units[0].id.clone();
    let mut game = Game::new(&sc, kepi::rules::pk::ID, SeedSecret::new(3), Utc::now());
    game.act(
        Action::LoseStrength {
            unit: id.clone(),
            n: 1,
        },
        Utc::now(),
    )
    .unwrap();
    game.act(
        Action::Note {
            text: EVIL.to_string(),
        },
        Utc::now(),
    )
    .unwrap();
    let save = dir.join("old.json");
    drop(kepi::store::Store::create(&save, &game).unwrap());
    let save = save.to_str().unwrap();
    assert_inert("game show", ok(&["game", "show", save]).as_bytes());
    assert_inert("log show", ok(&["log", "show", save]).as_bytes());
    assert_inert(
        "apply",
        ok(&["game", "apply", save, "lose", &id, "1"]).as_bytes(),
    );
    let units = dir.join("units.csv");
    let log = dir.join("log.csv");
    let (u, l) = (units.to_str().unwrap(), log.to_str().unwrap());
    ok(&["export", "csv", "--save", save, "--units", u]);
    ok(&["export", "csv", "--save", save, "--log", l]);
    assert_inert_csv("units csv", &std::fs::read(&units).unwrap());
    assert_inert_csv("log csv", &std::fs::read(&log).unwrap());
    // JSON escapes them by itself (serde): the contract is unchanged.
    let json = ok(&["game", "show", save, "--json"]);
    assert!(json.contains("\\u001b]0;pwned"), "{json}");
    ok(&["log", "verify", save]);
}
