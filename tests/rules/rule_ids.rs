//! Every rule id written in the code names a mechanic of RULES.md, and every mechanic of RULES.md is
//! cited somewhere in the code (`grep -r PK-F3 src` finds its implementation).

use std::path::Path;

use kepi::rules::ALL_RULE_IDS;

fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).expect("src folder").flatten() {
        let p = entry.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&p).expect("read source");
            out.push((p.display().to_string(), text));
        }
    }
}

/// Rule-id-shaped words ("PK-F3", "GSP-A1") in a text.
fn ids(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let b = text.as_bytes();
    for prefix in ["DICE-", "PK-", "PW-", "GSP-", "SPI-", "FR-", "CAMP-"] {
        for (i, _) in text.match_indices(prefix) {
            if i > 0 && b[i - 1].is_ascii_alphanumeric() {
                continue;
            }
            let rest = &text[i + prefix.len()..];
            let letters = rest.bytes().take_while(u8::is_ascii_uppercase).count();
            let digits = rest[letters..]
                .bytes()
                .take_while(u8::is_ascii_digit)
                .count();
            let after = rest.as_bytes().get(letters + digits);
            if digits > 0 && !after.is_some_and(|c| c.is_ascii_alphanumeric()) {
                found.push(format!("{prefix}{}", &rest[..letters + digits]));
            }
        }
    }
    found
}

#[test]
fn every_rule_constant_is_known() {
    let mut files = Vec::new();
    sources(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    let mut unknown = Vec::new();
    for (file, text) in &files {
        for id in ids(text) {
            if !ALL_RULE_IDS.contains(&id.as_str()) {
                unknown.push(format!("{file}: {id}"));
            }
        }
    }
    assert!(
        unknown.is_empty(),
        "rule ids not in RULES.md:\n{}",
        unknown.join("\n")
    );
}

#[test]
fn every_mechanic_is_cited_in_the_code() {
    let mut files = Vec::new();
    sources(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    let all: Vec<String> = files.iter().flat_map(|(_, t)| ids(t)).collect();
    let missing: Vec<&&str> = ALL_RULE_IDS
        .iter()
        .filter(|id| !id.starts_with("DICE-") && !all.iter().any(|a| a == *id))
        .collect();
    assert!(
        missing.is_empty(),
        "mechanics with no code citing them: {missing:?}"
    );
}
