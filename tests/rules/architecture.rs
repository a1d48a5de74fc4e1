//! The layers of docs/ARCHITECTURE.md, proven file by file (issue 27): every `crate::` path in
//! `src/` (outside `#[cfg(test)]` blocks and comments) names a module in the file's own layer or
//! one below it, and two modules side by side in one layer never import each other, so no import
//! cycle can cross modules. No exception is named.

use std::path::Path;

/// The layers, lowest first: the top-level modules of `src/` in each. The rule-set adapters
/// (`rules/<set>/set.rs`, `checks.rs`, `checklist.rs`, `form.rs`, `panel.rs`, `grammar.rs`,
/// `verbs.rs`, and `rules/board/`, what SPI and 1870 share as board games in play) are their
/// own layer, above the engine; the rest of `rules` is the rules core, below it.
const LAYERS: &[&[&str]] = &[
    &["dice", "hex", "fsio"],
    &["tables"],
    &["rules"],
    &["map"],
    &["roster"],
    &["engine"],
    &["<adapters>"],
    &["registry"],
    &["store"],
    &["moves"],
    &["export", "net", "campaign"],
    &["cli", "app"],
];

const SETS: &[&str] = &["pk", "pw", "gsp", "spi", "fr1870"];

/// A set's files that adapt it to the engine.
const ADAPTER_FILES: &[&str] = &[
    "set",
    "checks",
    "checklist",
    "form",
    "panel",
    "grammar",
    "verbs",
];

/// The module a file or a path's segments belong to ("<adapters>" for a set's adapter files).
fn module_of(segs: &[&str]) -> String {
    if segs.len() >= 2 && segs[0] == "rules" && segs[1] == "board" {
        return "<adapters>".into();
    }
    if segs.len() >= 3 && segs[0] == "rules" && SETS.contains(&segs[1]) {
        let f = segs[2].trim_end_matches(".rs");
        if ADAPTER_FILES.contains(&f) {
            return "<adapters>".into();
        }
    }
    segs[0].trim_end_matches(".rs").to_string()
}

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// The file's text without `#[cfg(test)]` items and comment lines (as tools/layers.py reads it).
fn code_of(text: &str) -> String {
    let mut out = String::new();
    let (mut depth, mut skip, mut pending) = (0i64, None::<i64>, false);
    for line in text.lines() {
        let s = line.trim();
        if skip.is_none() && s.starts_with("#[cfg(test)]") {
            pending = true;
            continue;
        }
        let (o, c) = (
            line.matches('{').count() as i64,
            line.matches('}').count() as i64,
        );
        if pending {
            pending = false;
            if o > c {
                skip = Some(depth);
                depth += o - c;
            }
            continue;
        }
        if let Some(d) = skip {
            depth += o - c;
            if depth <= d {
                skip = None;
            }
            continue;
        }
        depth += o - c;
        if !s.starts_with("//") {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// Every `crate::a::b::c` path's segments in the code.
fn crate_paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for (i, _) in code.match_indices("crate::") {
        if code[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &code[i + "crate::".len()..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(rest.len());
        let segs: Vec<String> = rest[..end]
            .split("::")
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        out.push(segs);
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).expect("src folder").flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn no_module_imports_a_layer_above_it_or_a_neighbour() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut broken = Vec::new();
    let mut seen = 0;
    for f in &files {
        let rel = f.strip_prefix(&src).expect("under src");
        let rel = rel.to_string_lossy().replace('\\', "/");
        if rel == "lib.rs" || rel == "main.rs" {
            continue;
        }
        let segs: Vec<&str> = rel.split('/').collect();
        let from = module_of(&segs);
        let Some(from_layer) = layer_of(&from) else {
            broken.push(format!(
                "src/{rel}: module `{from}` is in no layer of this test"
            ));
            continue;
        };
        let code = code_of(&std::fs::read_to_string(f).expect("read"));
        assert!(
            !code.contains("crate::{"),
            "src/{rel}: a `crate::{{...}}` group hides which modules it imports; name each path"
        );
        for path in crate_paths(&code) {
            let refs: Vec<&str> = path.iter().map(String::as_str).collect();
            if refs.is_empty() {
                continue;
            }
            let to = module_of(&refs);
            if to == from {
                continue;
            }
            seen += 1;
            match layer_of(&to) {
                None => broken.push(format!(
                    "src/{rel}: `crate::{}` is in no layer",
                    path.join("::")
                )),
                Some(l) if l > from_layer => broken.push(format!(
                    "src/{rel} ({from}) imports `crate::{}` ({to}), a layer above it",
                    path.join("::")
                )),
                Some(l) if l == from_layer => broken.push(format!(
                    "src/{rel} ({from}) imports `crate::{}` ({to}), beside it in one layer",
                    path.join("::")
                )),
                Some(_) => {}
            }
        }
    }
    assert!(
        seen > 300,
        "too few cross-module paths read ({seen}): is the reader broken?"
    );
    broken.sort();
    broken.dedup();
    assert!(
        broken.is_empty(),
        "{} layering breaks:\n{}",
        broken.len(),
        broken.join("\n")
    );
}

/// The reader sees through what the rule allows and catches what it forbids.
#[test]
fn the_layer_reader_reads_paths_and_skips_tests_and_comments() {
    let text = "use crate::engine::game::Game;\n// crate::cli::x\n#[cfg(test)]\nmod tests {\n    use crate::app::y;\n}\nfn f() { crate::rules::pk::set::PkRules; }\n";
    let code = code_of(text);
    let paths = crate_paths(&code);
    assert_eq!(paths.len(), 2, "{paths:?}");
    let mods: Vec<String> = paths
        .iter()
        .map(|p| module_of(&p.iter().map(String::as_str).collect::<Vec<_>>()))
        .collect();
    assert_eq!(mods, ["engine", "<adapters>"]);
    assert!(layer_of("<adapters>") > layer_of("engine"));
    assert!(layer_of("registry") > layer_of("<adapters>"));
}

/// Issue 27, "a rule set is its folder": outside its folder (`rules/<set>/`, and `rules/board/`
/// for what SPI and 1870 share), no code names a rule set: not its module, its id constant
/// (`RuleSetId::Pk`), its types (`PkForm`, `SpiTables`) nor its id as a string (`"pk"`). The
/// exceptions are the composition: the registry (the list of the five), the `pub mod` lines of
/// `rules/mod.rs` that declare the folders, and the campaign (`src/campaign`), whose conversion
/// table is the pairing of two board games with two table games by name (docs/ARCHITECTURE.md).
#[test]
fn no_code_outside_a_sets_folder_names_a_rule_set() {
    const TYPES: &[&str] = &["Pk", "Pw", "Gsp", "Spi", "Fr1870", "Fr"];
    const KINDS: &[&str] = &["Form", "Rules", "Tables", "Outcome", "Combat"];
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut named = Vec::new();
    for f in &files {
        let rel = f
            .strip_prefix(&src)
            .expect("under src")
            .to_string_lossy()
            .replace('\\', "/");
        let segs: Vec<&str> = rel.split('/').collect();
        let in_folder = segs.len() >= 3
            && segs[0] == "rules"
            && (SETS.contains(&segs[1]) || segs[1] == "board");
        if in_folder || segs[0] == "registry" || segs[0] == "campaign" {
            continue;
        }
        let code = code_of(&std::fs::read_to_string(f).expect("read"));
        for line in code.lines() {
            let t = line.trim();
            if rel == "rules/mod.rs" && SETS.iter().any(|s| t == format!("pub mod {s};")) {
                continue;
            }
            let hit = SETS.iter().any(|s| {
                line.contains(&format!("rules::{s}::"))
                    || line.contains(&format!("rules::{s};"))
                    || line.contains(&format!("\"{s}\""))
            }) || TYPES.iter().any(|ty| {
                line.contains(&format!("RuleSetId::{ty},"))
                    || line.contains(&format!("RuleSetId::{ty})"))
                    || line.contains(&format!("RuleSetId::{ty} "))
                    || line.contains(&format!("RuleSetId::{ty};"))
                    || KINDS.iter().any(|k| {
                        line.split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                            .any(|w| w == format!("{ty}{k}"))
                    })
            });
            if hit {
                named.push(format!("src/{rel}: {t}"));
            }
        }
    }
    assert!(
        named.is_empty(),
        "{} lines outside a set's folder name a rule set:\n{}",
        named.len(),
        named.join("\n")
    );
}

/// Issue 26 (docs/ARCHITECTURE.md, `src/app`): the window's pieces draw from a read-only `View`
/// (and their own state), never from the whole `AppState`. Two functions are named as the
/// exceptions: the layout that places the panels (`mod.rs`) and `NetUi::ui`, the controller that
/// polls the connections and applies what its dialogs ask.
#[test]
fn the_windows_pieces_draw_from_a_view_not_the_app_state() {
    const EXCEPTIONS: &[(&str, &str)] = &[("mod.rs", "resolver_column_ui"), ("net_ui.rs", "ui")];
    let app = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/app");
    let mut files = Vec::new();
    rust_files(&app, &mut files);
    let mut found = Vec::new();
    let mut drawing = 0;
    for f in &files {
        let rel = f
            .strip_prefix(&app)
            .expect("under src/app")
            .to_string_lossy()
            .replace('\\', "/");
        let code = code_of(&std::fs::read_to_string(f).expect("read"));
        for (i, _) in code.match_indices("fn ") {
            if code[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let rest = &code[i + 3..];
            let name_end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            let name = &rest[..name_end];
            if !(name == "ui" || name.ends_with("_ui")) {
                continue;
            }
            drawing += 1;
            let signature = &rest[..rest.find('{').unwrap_or(rest.len())];
            if signature.contains("AppState") && !EXCEPTIONS.contains(&(rel.as_str(), name)) {
                found.push(format!("src/app/{rel}: fn {name}"));
            }
        }
    }
    assert!(
        drawing > 40,
        "only {drawing} drawing functions found: the reader is broken"
    );
    assert!(
        found.is_empty(),
        "these draw from the whole AppState, not a View:\n{}",
        found.join("\n")
    );
}
