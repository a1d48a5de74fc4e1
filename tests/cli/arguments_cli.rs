//! Issue 44: what the command line does with the arguments it is given, whatever they are: control
//! characters typed in a path or an address are never echoed raw in an error, and a scenario file
//! one command accepts every command accepts.

use super::common::{kepi, new_game, ok, tmp};

/// Asserts `kepi args` failed with `code` and its stderr carries no raw control character but
/// line breaks; returns stderr.
fn refused_clean(args: &[&str], code: i32) -> String {
    let o = kepi(args);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(o.status.code(), Some(code), "kepi {args:?}: {err}");
    assert!(
        !err.chars().any(|c| c.is_control() && c != '\n'),
        "kepi {args:?} echoed a raw control character: {err:?}"
    );
    err
}

/// `kepi game share SAVE OUT` with an escape sequence and a carriage return in OUT's folder: the
/// error names the path with the characters escaped.
#[test]
fn a_share_paths_control_characters_are_escaped_in_the_error() {
    let dir = tmp("arguments", "share");
    let save = new_game(&dir, "mars-la-tour", "7");
    let out = dir.join("no\u{1b}[2Jsuch\rfolder").join("shared.json");
    let err = refused_clean(&["game", "share", &save, &out.display().to_string()], 1);
    assert!(err.contains("\\u{1b}"), "{err}");
}

/// `kepi remote ADDRESS show` with an escape sequence in the address: refused as a bad argument
/// (exit 2), the address escaped.
#[test]
fn a_remote_addresss_control_characters_are_escaped_in_the_error() {
    let err = refused_clean(
        &[
            "remote",
            "ws://\u{1b}]0;owned\u{7}host:1",
            "--code",
            "x",
            "show",
        ],
        2,
    );
    assert!(err.contains("\\u{1b}"), "{err}");
}

/// `kepi export csv --scenario FILE.toml` reads the scenario file `kepi game new --scenario`
/// reads: the same units come out.
#[test]
fn export_csv_takes_the_scenario_file_game_new_takes() {
    let dir = tmp("arguments", "scenario-file");
    let file = dir.join("club.toml");
    std::fs::write(
        &file,
        "name = \"club\"\nsystem = \"pk\"\ntitle = \"Club battle\"\ndate = \"1870-08-16\"\n\
         sides = [\"german\", \"french\"]\n\n\
         [[unit]]\nid = \"g1\"\nname = \"I/12th Grenadiers\"\nside = \"german\"\n\
         nation = \"Prussia\"\narm = \"infantry\"\nquality = \"veteran\"\nstrength = 20\nweapon = \"needle-gun\"\n\n\
         [[unit]]\nid = \"f1\"\nname = \"1/93rd Ligne\"\nside = \"french\"\nnation = \"France\"\n\
         arm = \"infantry\"\nquality = \"line\"\nstrength = 18\nweapon = \"chassepot\"\n",
    )
    .unwrap();
    let scenario = file.display().to_string();
    ok(&[
        "game",
        "new",
        "--scenario",
        &scenario,
        "--out",
        &dir.join("g.json").display().to_string(),
    ]);
    let csv = dir.join("units.csv");
    ok(&[
        "export",
        "csv",
        "--scenario",
        &scenario,
        "--units",
        &csv.display().to_string(),
    ]);
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.contains("I/12th Grenadiers"), "{text}");
    assert!(text.contains("1/93rd Ligne"), "{text}");
}
