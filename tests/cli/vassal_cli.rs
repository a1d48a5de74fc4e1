//! `kepi map import-vassal` (issue 41, docs/MAPS.md "From a VASSAL module") with the real binary:
//! a module built here (a zip with a build file and a generated PNG) imported into a scratch
//! folder, the map it writes checked, and the refusals with their exit codes.

use super::common::{caught, ok, tmp};
use super::vmod::{build_file, hex_board, png, write_test_module, zip_of};

#[test]
fn import_writes_a_map_and_its_picture_that_check() {
    let dir = tmp("vassal-cli", "import");
    let module = write_test_module(&dir);
    let out = dir.join("maps");
    let m = module.to_str().unwrap();
    let o = out.to_str().unwrap();
    // The board is numbered odd-q, as SPI and the Portable Wargame are: kepi does not guess.
    caught(
        &["map", "import-vassal", m, "--board", "Main", "--out", o],
        2,
        &["its numbering fits", "give --rules", "--rules spi"],
    );
    assert!(!out.join("Main.toml").exists(), "nothing written");
    let said = ok(&[
        "map",
        "import-vassal",
        m,
        "--board",
        "Main",
        "--out",
        o,
        "--rules",
        "spi",
    ]);
    assert!(
        said.contains("wrote ") && said.contains("Main.toml"),
        "{said}"
    );
    assert!(
        said.contains("10 x 6 cells (0101-1006, odd-q, rules spi)"),
        "{said}"
    );
    let text = std::fs::read_to_string(out.join("Main.toml")).unwrap();
    assert_eq!(std::fs::read(out.join("map.png")).unwrap(), png(800, 600));
    // The [picture] table as the shared spec has it.
    let v: toml::Table = text.parse().unwrap();
    let p = v["picture"].as_table().unwrap();
    assert_eq!(p["file"].as_str(), Some("map.png"));
    assert_eq!(
        p["origin"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_float().unwrap())
            .collect::<Vec<_>>(),
        vec![40.0, 50.0]
    );
    assert_eq!(
        (p["column"].as_float(), p["row"].as_float()),
        (Some(84.0), Some(96.0))
    );
    assert_eq!(v["provenance"]["source"].as_str(), Some("vassal"));
    assert_eq!(
        v["provenance"]["drawn_by"].as_str(),
        Some("kepi map import-vassal")
    );
    // The whole file, its [picture] table too, passes kepi map check, and map show names the
    // picture beside it (issue 41: import, then the picture drawn under the grid).
    let whole = out.join("Main.toml");
    let checked = ok(&["map", "check", whole.to_str().unwrap()]);
    assert!(
        checked.contains(": ok: Main (rules spi): 60 cells (10 x 6, 0101-1006)"),
        "{checked}"
    );
    let shown: serde_json::Value =
        serde_json::from_str(&ok(&["map", "show", whole.to_str().unwrap(), "--json"])).unwrap();
    assert_eq!(shown["picture"]["file"], "map.png", "{shown}");
    // Again: refused without --force (exit 2), replaced with it.
    caught(
        &[
            "map",
            "import-vassal",
            m,
            "--board",
            "Main",
            "--out",
            o,
            "--rules",
            "spi",
        ],
        2,
        &["map.png is already there: give --force to replace it"],
    );
    ok(&[
        "map",
        "import-vassal",
        m,
        "--board",
        "Main",
        "--out",
        o,
        "--rules",
        "spi",
        "--force",
    ]);
}

#[test]
fn list_names_the_boards_with_their_grids() {
    let dir = tmp("vassal-cli", "list");
    let module = write_test_module(&dir);
    let said = ok(&["map", "import-vassal", module.to_str().unwrap(), "--list"]);
    assert!(said.contains("Test War 1.2 (2 boards)"), "{said}");
    assert!(said.contains("board `Main Map / Main`"), "{said}");
    assert!(said.contains("images/map.png: png 800 x 600"), "{said}");
    assert!(said.contains("0101-1006, 10 x 6 cells, odd-q"), "{said}");
    assert!(
        said.contains("not importable: its hex grid is sideways"),
        "{said}"
    );
}

#[test]
fn refusals_exit_2_naming_the_module_and_what_is_wrong() {
    let dir = tmp("vassal-cli", "refusals");
    let module = write_test_module(&dir);
    let m = module.to_str().unwrap();
    let o = dir.join("out");
    let o = o.to_str().unwrap();
    caught(
        &["map", "import-vassal", m, "--board", "East", "--out", o],
        2,
        &[
            "test.vmod: no board named `East`",
            "`Main Map / Main`, `Main Map / Side`",
        ],
    );
    caught(
        &["map", "import-vassal", m, "--board", "Side", "--out", o],
        2,
        &["board `Main Map / Side`", "sideways", "flat-topped"],
    );
    caught(
        &[
            "map",
            "import-vassal",
            m,
            "--board",
            "Main",
            "--out",
            o,
            "--rules",
            "fr1870",
        ],
        2,
        &["fr1870 numbers its board even-q", "--rules spi"],
    );
    caught(
        &[
            "map",
            "import-vassal",
            m,
            "--board",
            "Main",
            "--out",
            o,
            "--rules",
            "pk",
        ],
        2,
        &["--rules: pk is not played on a hex map"],
    );
    // Not a zip; a folder; no build file.
    let junk = dir.join("junk.vmod");
    std::fs::write(&junk, b"not a zip").unwrap();
    caught(
        &["map", "import-vassal", junk.to_str().unwrap(), "--list"],
        2,
        &["junk.vmod: is not a VASSAL module: not a zip archive"],
    );
    caught(
        &["map", "import-vassal", dir.to_str().unwrap(), "--list"],
        2,
        &["is a folder"],
    );
    let empty = dir.join("empty.vmod");
    std::fs::write(&empty, zip_of(&[("images/a.png", &png(4, 4))])).unwrap();
    caught(
        &["map", "import-vassal", empty.to_str().unwrap(), "--list"],
        2,
        &["empty.vmod: is not a VASSAL module: it holds no buildFile.xml"],
    );
    // A zip bomb: a build file that inflates past its ratio.
    let bomb = dir.join("bomb.vmod");
    std::fs::write(&bomb, zip_of(&[("buildFile.xml", &vec![b' '; 20 << 20])])).unwrap();
    caught(
        &["map", "import-vassal", bomb.to_str().unwrap(), "--list"],
        2,
        &["bomb.vmod: the entry `buildFile.xml` inflates to more than 100 times"],
    );
    // --out a file; --board without --out.
    caught(
        &[
            "map",
            "import-vassal",
            m,
            "--board",
            "Main",
            "--rules",
            "spi",
            "--out",
            m,
        ],
        2,
        &["--out:", "is not a folder"],
    );
    caught(
        &["map", "import-vassal", m, "--board", "Main"],
        2,
        &["--out"],
    );
    // Nothing was written.
    assert!(!dir.join("out").exists());
}

#[test]
fn a_climbing_picture_name_lands_inside_the_folder() {
    let dir = tmp("vassal-cli", "climb");
    let xml = build_file(&hex_board("Main", "../../x.png", "", ""));
    let module = dir.join("climb.vmod");
    std::fs::write(
        &module,
        zip_of(&[
            ("buildFile.xml", xml.as_bytes()),
            ("images/../../x.png", &png(300, 300)),
        ]),
    )
    .unwrap();
    let out = dir.join("deep").join("out");
    ok(&[
        "map",
        "import-vassal",
        module.to_str().unwrap(),
        "--board",
        "Main",
        "--rules",
        "pw",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(out.join("x.png").is_file() && out.join("Main.toml").is_file());
    assert!(!dir.join("x.png").exists() && !dir.join("deep").join("x.png").exists());
}
