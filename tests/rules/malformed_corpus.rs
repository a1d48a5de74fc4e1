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
