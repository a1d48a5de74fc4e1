//! docs/ARCHITECTURE.md stays true of the tree: every folder and `.rs` file directly under `src/`
//! (the crates) and under `src/game/` (its modules) is named there as `src/NAME` or
//! `src/game/NAME` (a new module cannot be left out), and every path the page names
//! (under `src/`, `tests/`, `benches/`, `docs/` and the other top-level folders) exists.

use std::path::Path;

/// The top-level folders whose paths the page may name; each named path must exist.
const ROOTS: [&str; 9] = [
    "src/",
    "tests/",
    "benches/",
    "docs/",
    "examples/",
    "fuzz/",
    "tables/",
    "unit-cards/",
    "assets/",
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn page() -> String {
    std::fs::read_to_string(root().join("docs/ARCHITECTURE.md")).expect("docs/ARCHITECTURE.md")
}

/// The paths a text names: a root such as `src/` not preceded by a path character, then path
/// characters; a trailing `.` (end of a sentence) or `/` is not part of it.
fn named_paths(text: &str) -> Vec<String> {
    let is_path = |c: char| c.is_ascii_alphanumeric() || "_-./".contains(c);
    let mut found = Vec::new();
    for r in ROOTS {
        for (i, _) in text.match_indices(r) {
            if text[..i].chars().next_back().is_some_and(is_path) {
                continue;
            }
            let end = text[i..]
                .find(|c: char| !is_path(c))
                .map_or(text.len(), |n| i + n);
            let p = text[i..end].trim_end_matches(['.', '/']);
            found.push(p.to_string());
        }
    }
    found.sort();
    found.dedup();
    found
}

#[test]
fn architecture_doc_names_every_module_under_src() {
    let named = named_paths(&page());
    let mut missing = Vec::new();
    for dir in ["src", "src/game"] {
        for entry in std::fs::read_dir(root().join(dir)).expect("src folder") {
            let entry = entry.expect("src entry");
            let name = entry.file_name().to_string_lossy().into_owned();
            let is_dir = entry.path().is_dir();
            if !is_dir && !name.ends_with(".rs") {
                continue;
            }
            let path = format!("{dir}/{name}");
            if !named.contains(&path) {
                missing.push(path);
            }
        }
    }
    missing.sort();
    assert!(
        missing.is_empty(),
        "docs/ARCHITECTURE.md does not name {missing:?}: say what lives there, and where it sits in the layers"
    );
}

#[test]
fn architecture_doc_names_only_paths_that_exist() {
    let named = named_paths(&page());
    assert!(
        named.iter().filter(|p| p.starts_with("src/")).count() >= 17,
        "too few src/ paths found in docs/ARCHITECTURE.md: {named:?}"
    );
    let gone: Vec<&String> = named.iter().filter(|p| !root().join(p).exists()).collect();
    assert!(
        gone.is_empty(),
        "docs/ARCHITECTURE.md names paths that do not exist: {gone:?}"
    );
}

#[test]
fn architecture_doc_path_reader() {
    let text = "See `src/store/background.rs`. Also src/app/ and (src/fsio.rs), not ../src/x or \
                mysrc/y; `tables/*.toml`.";
    assert_eq!(
        named_paths(text),
        [
            "src/app",
            "src/fsio.rs",
            "src/store/background.rs",
            "tables"
        ]
    );
}

/// Every local link of the README (`](docs/screenshots/resolver-pk.png)`, `](docs/...md)`) names a
/// file that is there: a screenshot the README shows is in the tree.
#[test]
fn readme_links_name_files_that_exist() {
    let text = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let mut links = 0;
    for (i, _) in text.match_indices("](") {
        let rest = &text[i + 2..];
        let Some(end) = rest.find(')') else { continue };
        let target = rest[..end].split('#').next().unwrap_or_default();
        if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        links += 1;
        assert!(
            root().join(target).exists(),
            "README.md links to {target}, which is not in the tree"
        );
    }
    assert!(
        links >= 5,
        "the README's screenshots are links: {links} found"
    );
}
