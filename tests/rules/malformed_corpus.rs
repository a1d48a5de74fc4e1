//! Replays hand-made and fuzzer-found malformed files: each must give a located error, none may panic.
//! The file name's prefix says which parser reads it (`pk-...toml` -> the pk tables).

use std::path::Path;

use kepi::tables::{RuleTable, TableError};

fn parse_as(prefix: &str, name: &str, src: &str) -> Option<Result<(), TableError>> {
    use kepi::rules::{
        fr1870::Fr1870Tables, gsp::GspTables, pk::PkTables, pw::PwTables, spi::SpiTables,
    };
    Some(match prefix {
        "pk" => PkTables::from_source(name, src).map(|_| ()),
        "pw" => PwTables::from_source(name, src).map(|_| ()),
        "gsp" => GspTables::from_source(name, src).map(|_| ()),
        "spi" => SpiTables::from_source(name, src).map(|_| ()),
        "fr1870" => Fr1870Tables::from_source(name, src).map(|_| ()),
        _ => return None,
    })
}

#[test]
fn every_malformed_table_gives_a_located_error() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/tables");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).expect("corpus folder") {
        let path = entry.expect("entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        let prefix = name.split('-').next().unwrap_or_default().to_string();
        let bytes = std::fs::read(&path).expect("read");
        let Ok(src) = String::from_utf8(bytes) else {
            // Not UTF-8: the loader refuses it before parsing (read_limited reports it).
            let err = kepi::tables::read_limited(&path).expect_err("non-UTF-8 is refused");
            assert!(!err.is_empty());
            seen += 1;
            continue;
        };
        let Some(result) = parse_as(&prefix, &name, &src) else {
            panic!("{name}: unknown parser prefix `{prefix}`");
        };
        let err = result.expect_err(&format!("{name} must not parse"));
        assert_eq!(err.file, name);
        assert!(err.line > 0, "{name}: error has no line: {err}");
        seen += 1;
    }
    assert!(seen >= 7, "corpus has {seen} files");
}

/// The files of one corpus folder, sorted, as (name, bytes).
fn corpus(folder: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(folder);
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .expect("corpus folder")
        .map(|e| {
            let path = e.expect("entry").path();
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
                .to_string();
            (name, std::fs::read(&path).expect("read"))
        })
        .collect();
    files.sort();
    files
}

#[test]
fn every_malformed_card_file_names_file_line_and_field() {
    let files = corpus("cards");
    assert!(files.len() >= 10, "corpus has {} files", files.len());
    for (name, bytes) in files {
        let Ok(src) = String::from_utf8(bytes) else {
            // The loader refuses non-UTF-8 before parsing; check it does, naming the file.
            let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/corpus/cards")
                .join(&name);
            let err = kepi::roster::load_roster_file(&path).expect_err("non-UTF-8 is refused");
            assert!(err.to_string().contains(&name), "{err}");
            continue;
        };
        let err = kepi::roster::validate_roster(&name, &src, None)
            .expect_err(&format!("{name} must not load"));
        let shown = err.to_string();
        eprintln!("{shown}");
        assert_eq!(err.file, name, "{shown}");
        assert!(shown.contains(&name), "{shown}");
        assert!(err.line > 0, "{name}: error has no line: {shown}");
        assert!(
            !err.field.is_empty() || !err.accepted.is_empty() || shown.len() > name.len() + 10,
            "{name}: error says what is wrong: {shown}"
        );
    }
}

#[test]
fn every_malformed_save_is_refused_naming_the_file() {
    let files = corpus("save");
    assert!(files.len() >= 10, "corpus has {} files", files.len());
    for (name, bytes) in files {
        let err = kepi::store::parse_save(&bytes, &name)
            .err()
            .unwrap_or_else(|| panic!("{name} must not load"));
        let shown = err.to_string();
        eprintln!("{shown}");
        assert!(shown.starts_with(&name), "{name}: {shown}");
        if let kepi::store::StoreError::Corrupt { line, .. } = &err {
            assert!(*line > 0 || bytes.is_empty(), "{name}: no line: {shown}");
        }
        // A missing or odd version is not guessed to be the oldest format: the error names the
        // versions kepi reads. A version 0 save never loses its seed on the way to version 1.
        if name.starts_with("save-version-") {
            assert!(
                shown.contains("version") && shown.contains("accepted: 1, or 0"),
                "{name}: {shown}"
            );
        }
        if name.starts_with("save-v0-") {
            assert!(
                shown.contains("`seed`") || shown.contains("`secret`"),
                "{name}: {shown}"
            );
        }
    }
}

#[test]
fn every_malformed_journal_is_refused_and_a_torn_last_line_is_only_a_warning() {
    let files = corpus("journal");
    assert!(files.len() >= 5, "corpus has {} files", files.len());
    for (name, bytes) in files {
        // Opening a game reads only the journal's tail; read from the start it must judge every
        // file exactly as the full reader does.
        let tail = kepi::store::parse_journal_tail(&bytes, &name, 0);
        let full = kepi::store::parse_journal(&bytes, &name);
        match (&tail, &full) {
            (Ok(t), Ok(f)) => {
                assert_eq!(t.entries.len(), f.entries.len(), "{name}");
                assert_eq!(t.warnings.len(), f.warnings.len(), "{name}");
                assert_eq!(t.good_len, f.good_len, "{name}");
            }
            (Err(_), Err(_)) => {}
            _ => panic!("{name}: the tail reader and the full reader disagree"),
        }
        if let Err(e) = &tail {
            assert!(e.to_string().starts_with(&name), "{name}: {e}");
        }
        let result = full;
        if name.starts_with("torn-") {
            let j =
                result.unwrap_or_else(|e| panic!("{name}: a torn last line is not an error: {e}"));
            assert_eq!(j.warnings.len(), 1, "{name}: {:?}", j.warnings);
            assert!(j.warnings[0].contains(&name), "{:?}", j.warnings);
            assert!(!j.entries.is_empty(), "{name}: the good lines are kept");
            continue;
        }
        let err = result
            .err()
            .unwrap_or_else(|| panic!("{name} must not load"));
        let shown = err.to_string();
        eprintln!("{shown}");
        assert!(shown.starts_with(&name), "{name}: {shown}");
    }
}
