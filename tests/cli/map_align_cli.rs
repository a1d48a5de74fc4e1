//! `kepi map align` (issue 41, docs/MAPS.md "Aligning the picture") with the real binary: the
//! fitted `[picture]` numbers from two cells, the third cell's check, `--write` rewriting only the
//! `[picture]` table (every other byte kept), and the refusals: bad arguments exit 2 naming the
//! argument, and no write through a symbolic link, over a folder or over kepi's own maps.

use std::path::{Path, PathBuf};

use super::common::{caught, json, ok, tmp};

/// kepi's example SPI board (odd-q, 0101-1210) copied into `dir` as `board.toml`, with `extra`
/// appended; returns its path.
fn board(dir: &Path, extra: &str) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/example-hex.toml");
    let text = std::fs::read_to_string(src).unwrap() + extra;
    let path = dir.join("board.toml");
    std::fs::write(&path, text).unwrap();
    path
}

const PICTURE: &str = "\n[picture]\nfile = \"board.jpg\"\norigin = [1.0, 2.0]\ncolumn = 10.0\nrow = 11.0\n\n# the club's notes\n";

/// The centres the spec's regular grid puts 0101, 1210 and 0605 at: origin (412, 96.5), column
/// 84, row 84 x 2/sqrt 3, no rotation.
fn centre(col: i32, row: i32) -> (f64, f64) {
    let r = 84.0 * 2.0 / 3f64.sqrt();
    // Odd-q, first column 01 (odd, lower): an even column sits half a row higher.
    let half = if col % 2 == 0 { -0.5 } else { 0.0 };
    (
        412.0 + f64::from(col - 1) * 84.0,
        96.5 + (f64::from(row - 1) + half) * r,
    )
}

fn arg(cell: &str, (x, y): (f64, f64)) -> String {
    format!("{cell}={x},{y}")
}

#[test]
fn align_prints_the_fitted_picture_table_and_the_check() {
    let dir = tmp("map-align", "prints");
    let map = board(&dir, PICTURE);
    let (a, b) = (arg("0101", centre(1, 1)), arg("1210", centre(12, 10)));
    let (x, y) = centre(6, 5);
    let c = arg("0605", (x + 3.0, y + 4.0));
    let m = map.to_str().unwrap();
    let v = json(&[
        "map", "align", m, "--cell", &a, "--cell", &b, "--check", &c, "--json",
    ]);
    let p = &v["picture"];
    assert_eq!(p["file"], "board.jpg");
    assert!(
        (p["origin"][0].as_f64().unwrap() - 412.0).abs() < 1e-6,
        "{v}"
    );
    assert!(
        (p["origin"][1].as_f64().unwrap() - 96.5).abs() < 1e-6,
        "{v}"
    );
    assert!((p["column"].as_f64().unwrap() - 84.0).abs() < 1e-6, "{v}");
    assert!((p["row"].as_f64().unwrap() - 84.0 * 1.154_700_538).abs() < 1e-4);
    assert!(p["rotation"].as_f64().unwrap().abs() < 1e-6, "{v}");
    assert!(
        (v["check"]["off"].as_f64().unwrap() - 5.0).abs() < 1e-6,
        "{v}"
    );
    assert_eq!(v["check"]["cell"], "0605");
    assert_eq!(v["written"], false);
    assert!(
        p["aligned"]
            .as_str()
            .unwrap()
            .ends_with("checked on 0605, 5 px off"),
        "{v}"
    );
    // The text: the table as it would be written, and the file untouched.
    let before = std::fs::read(&map).unwrap();
    let out = ok(&["map", "align", m, "--cell", &a, "--cell", &b]);
    assert!(
        out.contains("[picture]\nfile = \"board.jpg\"\norigin = [412.0, 96.5]\ncolumn = 84.0\n"),
        "{out}"
    );
    assert!(out.contains("rotation = 0.0\n"), "{out}");
    assert_eq!(
        std::fs::read(&map).unwrap(),
        before,
        "no --write, no change"
    );
    // `map show` prints the picture line, and its JSON the table.
    let shown = ok(&["map", "show", m]);
    assert!(
        shown.contains(
            "picture   board.jpg: first cell at (1, 2), column 10 px, row 11 px, rotation 0°"
        ),
        "{shown}"
    );
    let v = json(&["map", "show", m, "--json"]);
    assert_eq!(v["picture"]["row"], 11.0);
    assert_eq!(
        json(&["map", "show", "example-hex", "--json"])["picture"],
        serde_json::Value::Null
    );
}

#[test]
fn write_rewrites_only_the_picture_table() {
    let dir = tmp("map-align", "write");
    let map = board(&dir, PICTURE);
    let before = std::fs::read_to_string(&map).unwrap();
    let m = map.to_str().unwrap();
    let (a, b) = (arg("0101", centre(1, 1)), arg("1210", centre(12, 10)));
    let out = ok(&["map", "align", m, "--cell", &a, "--cell", &b, "--write"]);
    assert!(out.contains("written to"), "{out}");
    let after = std::fs::read_to_string(&map).unwrap();
    // Everything before the table and after its last key is the same, byte for byte.
    let head = before.split("[picture]").next().unwrap();
    assert!(after.starts_with(head), "the file before [picture] changed");
    assert!(after.ends_with("\n\n# the club's notes\n"), "{after}");
    assert!(
        after.contains("origin = [412.0, 96.5]\ncolumn = 84.0\n"),
        "{after}"
    );
    assert!(!after.contains("column = 10.0"), "{after}");
    // The file still checks, and says the new numbers.
    let v = json(&["map", "show", m, "--json"]);
    assert_eq!(v["picture"]["column"], 84.0);
    assert!(
        v["picture"]["aligned"]
            .as_str()
            .unwrap()
            .starts_with("two cells: 0101 at (412, 96.5)")
    );
    // Aligning again writes the same bytes (undo is aligning again).
    ok(&["map", "align", m, "--cell", &a, "--cell", &b, "--write"]);
    assert_eq!(std::fs::read_to_string(&map).unwrap(), after);
    // No temp file left beside it.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, vec!["board.toml".to_string()], "{names:?}");
}

#[test]
fn write_adds_the_table_to_a_map_without_one_and_keeps_crlf() {
    let dir = tmp("map-align", "adds");
    let map = board(&dir, "");
    let crlf = std::fs::read_to_string(&map).unwrap().replace('\n', "\r\n");
    std::fs::write(&map, &crlf).unwrap();
    let m = map.to_str().unwrap();
    let (a, b) = (arg("0101", centre(1, 1)), arg("1210", centre(12, 10)));
    caught(
        &["map", "align", m, "--cell", &a, "--cell", &b],
        2,
        &["--picture", "no [picture] table"],
    );
    ok(&[
        "map",
        "align",
        m,
        "--cell",
        &a,
        "--cell",
        &b,
        "--picture",
        "scan.png",
        "--write",
    ]);
    let after = std::fs::read_to_string(&map).unwrap();
    assert!(
        after.starts_with(&crlf),
        "the file before the new table changed"
    );
    assert!(
        after[crlf.len()..].starts_with("\r\n[picture]\r\nfile = \"scan.png\"\r\n"),
        "{:?}",
        &after[crlf.len()..]
    );
    assert!(!after[crlf.len()..].replace("\r\n", "").contains('\n'));
}

#[test]
fn bad_arguments_exit_2_naming_the_argument() {
    let dir = tmp("map-align", "bad");
    let map = board(&dir, PICTURE);
    let m = map.to_str().unwrap();
    let a = arg("0101", centre(1, 1));
    caught(
        &["map", "align", m, "--cell", &a],
        2,
        &["--cell", "exactly two", "1 given"],
    );
    caught(
        &["map", "align", m, "--cell", &a, "--cell", &a],
        2,
        &["--cell", "0101 is given twice"],
    );
    caught(
        &["map", "align", m, "--cell", &a, "--cell", "1210=412,96.5"],
        2,
        &["--cell", "same pixel"],
    );
    caught(
        &["map", "align", m, "--cell", &a, "--cell", "1311=1,2"],
        2,
        &["--cell", "1311", "off the map"],
    );
    caught(
        &["map", "align", m, "--cell", &a, "--cell", "1210:4,5"],
        2,
        &["--cell", "no `=`"],
    );
    caught(
        &["map", "align", m, "--cell", &a, "--cell", "1210=4"],
        2,
        &["--cell", "x,y"],
    );
    caught(
        &["map", "align", m, "--cell", &a, "--cell", "1210=nan,5"],
        2,
        &["--cell", "not two numbers"],
    );
    caught(
        &[
            "map",
            "align",
            m,
            "--cell",
            &a,
            "--cell",
            "1210=400,500",
            "--check",
            "x=1,2",
        ],
        2,
        &["--check"],
    );
    caught(
        &[
            "map",
            "align",
            m,
            "--cell",
            &a,
            "--cell",
            "1210=400,500",
            "--picture",
            "../x.png",
        ],
        2,
        &["--picture", "beside the map file"],
    );
    // A map that does not read names its file and line.
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "[map]\nname = 3\n").unwrap();
    caught(
        &[
            "map",
            "align",
            bad.to_str().unwrap(),
            "--cell",
            &a,
            "--cell",
            "1210=400,500",
        ],
        2,
        &["bad.toml:2"],
    );
}

#[test]
fn write_refuses_links_folders_and_kepis_own_maps() {
    let dir = tmp("map-align", "refuses");
    let map = board(&dir, PICTURE);
    let (a, b) = (arg("0101", centre(1, 1)), arg("1210", centre(12, 10)));
    caught(
        &[
            "map",
            "align",
            "example-hex",
            "--cell",
            &a,
            "--cell",
            &b,
            "--picture",
            "b.png",
            "--write",
        ],
        2,
        &["kepi's own map"],
    );
    #[cfg(unix)]
    {
        let link = dir.join("link.toml");
        std::os::unix::fs::symlink(&map, &link).unwrap();
        let before = std::fs::read(&map).unwrap();
        caught(
            &[
                "map",
                "align",
                link.to_str().unwrap(),
                "--cell",
                &a,
                "--cell",
                &b,
                "--write",
            ],
            2,
            &["symbolic link"],
        );
        assert_eq!(
            std::fs::read(&map).unwrap(),
            before,
            "nothing written through the link"
        );
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
    }
    let folder = dir.join("folder.toml");
    std::fs::create_dir(&folder).unwrap();
    caught(
        &[
            "map",
            "align",
            folder.to_str().unwrap(),
            "--cell",
            &a,
            "--cell",
            &b,
            "--write",
        ],
        2,
        &["folder.toml"],
    );
}
