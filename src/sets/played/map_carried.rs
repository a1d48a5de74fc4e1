//! Moved from `src/game/map/carried.rs` (its unit tests need a rule set of kepi's).

mod tests {
    use kepi_game::map::*;

    #[test]
    fn a_builtin_map_is_carried_with_its_hash_and_reads_back() {
        let m = MapFile::named("example-pw").unwrap();
        assert_eq!(m.file, "<built-in example-pw>");
        assert_eq!(m.sha256.len(), 64);
        assert!(m.map().is_ok());
        assert_eq!(m.changed_on_disk(), None);
        let json = serde_json::to_string(&m).unwrap();
        let back: MapFile = serde_json::from_str(&json).unwrap();
        assert_eq!(back, m);
        assert_eq!(back.name(), m.name());
    }

    #[test]
    fn a_text_that_does_not_match_its_hash_is_kept_and_not_used() {
        let m = MapFile::named("example-pw").unwrap();
        let mut v = serde_json::to_value(&m).unwrap();
        v["text"] = serde_json::Value::String(format!("{}\n# edited", m.text));
        let back: MapFile = serde_json::from_value(v).unwrap();
        let why = back.map().unwrap_err();
        assert!(why.contains("does not match its sha256"), "{why}");
    }

    #[test]
    fn a_missing_map_is_refused_naming_it() {
        let e = MapFile::named("no-such-map.toml").unwrap_err();
        assert_eq!(e.file, "no-such-map.toml");
        assert!(e.accepted.contains("example-hex"), "{}", e.accepted);
    }
}
