//! Rule tables as data: `tables/*.toml` loaded into typed structs, every value with its provenance.
//!
//! The shipped tables are compiled in as defaults; a club's folder (`--tables DIR`) overrides any of
//! them file by file. A malformed or out-of-range table is a [`TableError`] naming the file, line,
//! column, field and the accepted values, never a panic. Each rule set declares its table type with
//! [`RuleTable`]; [`Tables`] holds those of every rule set the registry has, each by its type.

use std::fmt;
use std::ops::Range;
use std::path::Path;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

mod set_tables;

pub use set_tables::{TableFile, TableReport, Tables, builtin, check_dir};

/// Where a number comes from (RULES.md, "Data provenance").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Provenance {
    /// Printed in the rule text (the TOML quotes it).
    Seed,
    /// Computed from the rule text (the TOML says how).
    Derived,
    /// kepi's default for a table the text refers to but does not print: check your printed card.
    House,
    /// Not known: resolving into it asks the umpire for the printed result.
    Unknown,
}

impl Provenance {
    /// All four, in order of trust.
    pub const ALL: [Provenance; 4] = [
        Provenance::Seed,
        Provenance::Derived,
        Provenance::House,
        Provenance::Unknown,
    ];

    /// The word used in files and JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Provenance::Seed => "seed",
            Provenance::Derived => "derived",
            Provenance::House => "house",
            Provenance::Unknown => "unknown",
        }
    }

    /// The badge text the window shows beside a value, empty for trusted values.
    pub fn badge(self) -> &'static str {
        match self {
            Provenance::Seed | Provenance::Derived => "",
            Provenance::House => "house value: check your printed card",
            Provenance::Unknown => "unknown: enter the result from your printed chart",
        }
    }

    /// The weaker of two provenances (a value computed from a house value is house).
    pub fn weakest(self, other: Provenance) -> Provenance {
        self.max(other)
    }
}

impl fmt::Display for Provenance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Provenance {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Provenance::ALL
            .into_iter()
            .find(|p| p.as_str() == s.trim())
            .ok_or_else(|| {
                format!("unknown provenance `{s}` (accepted: seed, derived, house, unknown)")
            })
    }
}

/// A table value with its provenance: `{ value = 3, provenance = "seed", quote = "..." }` in TOML.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sourced<T> {
    /// The value, with its place in the file for validation errors.
    pub value: toml::Spanned<T>,
    /// Where it comes from.
    pub provenance: Provenance,
    /// The sentence of the seed it comes from (for `seed`).
    #[serde(default)]
    pub quote: Option<String>,
    /// Why this value (for `house` and `derived`).
    #[serde(default)]
    pub note: Option<String>,
}

impl<T> Sourced<T> {
    /// The value.
    pub fn get(&self) -> &T {
        self.value.get_ref()
    }

    /// Byte span of the value in its file.
    pub fn span(&self) -> Range<usize> {
        self.value.span()
    }
}

impl<T: Copy> Sourced<T> {
    /// The value, copied.
    pub fn v(&self) -> T {
        *self.value.get_ref()
    }
}

/// A table that could not be used: which file, where, which field, what was wrong, what is accepted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct TableError {
    /// The file (`tables/pk.toml`, or `<built-in pk.toml>`).
    pub file: String,
    /// 1-based line, 0 when unknown.
    pub line: usize,
    /// 1-based column, 0 when unknown.
    pub column: usize,
    /// The field's path ("class.veteran.modifier.value").
    pub field: String,
    /// What is wrong.
    pub message: String,
    /// What would be accepted ("1 to 10"; "seed, derived, house, unknown").
    pub accepted: String,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if self.line > 0 {
            write!(f, ":{}:{}", self.line, self.column)?;
        }
        if !self.field.is_empty() {
            write!(f, ": field `{}`", self.field)?;
        }
        write!(f, ": {}", self.message)?;
        // Some messages already end with their accepted values; say them once.
        let said = self.message.contains("(accepted:")
            || self
                .message
                .replace('`', "")
                .contains(self.accepted.as_str());
        if !self.accepted.is_empty() && !said {
            write!(f, " (accepted: {})", self.accepted)?;
        }
        Ok(())
    }
}

/// Pulls "expected one of `a`, `b`" out of a serde message as the accepted values, in words a club
/// member reads ("a whole number", not "i64"); nothing when all it names is punctuation.
fn accepted_from_message(msg: &str) -> String {
    for key in ["expected one of ", "expected "] {
        if let Some(i) = msg.find(key) {
            let raw = msg[i + key.len()..].trim().replace('`', "");
            if !raw.chars().any(|c| c.is_alphanumeric()) {
                return String::new();
            }
            return plain_type_name(&raw).unwrap_or(&raw).to_string();
        }
    }
    String::new()
}

/// Rust's names for TOML value types, in words.
fn plain_type_name(t: &str) -> Option<&'static str> {
    Some(match t {
        "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" | "usize" | "isize" => {
            "a whole number"
        }
        "f32" | "f64" => "a number",
        "a boolean" | "bool" => "true or false",
        _ => return None,
    })
}

/// A serde path as a user reads it: serde's private wrapper names (spans) dropped.
fn clean_field_path(path: &str) -> String {
    path.split('.')
        .filter(|seg| !seg.starts_with("$__"))
        .collect::<Vec<_>>()
        .join(".")
}

/// Parses TOML into `T`, turning any error into a located [`TableError`].
pub fn parse_toml<T: DeserializeOwned>(file: &str, src: &str) -> Result<T, TableError> {
    let de =
        toml::Deserializer::parse(src).map_err(|e| toml_error(file, src, &e, String::new()))?;
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let field = if path == "." {
            String::new()
        } else {
            clean_field_path(&path)
        };
        toml_error(file, src, e.inner(), field)
    })
}

fn toml_error(file: &str, src: &str, e: &toml::de::Error, field: String) -> TableError {
    let (line, column) = e
        .span()
        .map(|s| crate::fsio::line_col(src, s.start))
        .unwrap_or((0, 0));
    let mut message = e.message().trim().to_string();
    for (rust, plain) in [
        ("expected i64", "expected a whole number"),
        ("expected f64", "expected a number"),
    ] {
        message = message.replace(rust, plain);
    }
    TableError {
        file: file.to_string(),
        line,
        column,
        field,
        accepted: accepted_from_message(&message),
        message,
    }
}

/// Validation context for one table file: makes located errors from spans.
pub struct Check<'a> {
    file: &'a str,
    src: &'a str,
}

impl<'a> Check<'a> {
    /// A context for `file` with source text `src`.
    pub fn new(file: &'a str, src: &'a str) -> Self {
        Check { file, src }
    }

    /// An error at a span.
    pub fn error(
        &self,
        span: Range<usize>,
        field: &str,
        message: impl Into<String>,
        accepted: impl Into<String>,
    ) -> TableError {
        let (line, column) = crate::fsio::line_col(self.src, span.start);
        TableError {
            file: self.file.to_string(),
            line,
            column,
            field: field.to_string(),
            message: message.into(),
            accepted: accepted.into(),
        }
    }

    /// Checks that a sourced integer lies in `lo..=hi`.
    pub fn range<T: Copy + PartialOrd + fmt::Display>(
        &self,
        v: &Sourced<T>,
        field: &str,
        lo: T,
        hi: T,
    ) -> Result<(), TableError> {
        let x = v.v();
        if x < lo || x > hi {
            return Err(self.error(
                v.span(),
                field,
                format!("{x} is out of range"),
                format!("{lo} to {hi}"),
            ));
        }
        Ok(())
    }
}

/// A rule set's tables: one TOML file, compiled in as the default, validated after parsing.
pub trait RuleTable: DeserializeOwned + Sized {
    /// The file name inside `tables/` ("pk.toml").
    const FILE: &'static str;
    /// The shipped text of the file.
    const BUILTIN: &'static str;
    /// Range and consistency checks beyond the types, with located errors.
    fn validate(&self, check: &Check<'_>) -> Result<(), TableError>;

    /// Parses and validates text that came from `file`.
    fn from_source(file: &str, src: &str) -> Result<Self, TableError> {
        let t: Self = parse_toml(file, src)?;
        t.validate(&Check::new(file, src))?;
        Ok(t)
    }

    /// The file from `dir` when it is there, else the built-in default. A `dir` that is missing or
    /// not a folder is an error, and so is a table file there that cannot be read as a regular file
    /// (a dangling link, a device, a FIFO, a folder): never a silent fallback to the built-in.
    fn load(dir: Option<&Path>) -> Result<Self, TableError> {
        match folder_source(dir, Self::FILE)? {
            Some((name, src)) => Self::from_source(&name, &src),
            None => Self::from_source(&format!("<built-in {}>", Self::FILE), Self::BUILTIN),
        }
    }
}

/// A table error about the file as a whole (no line): it cannot be read, or `--tables` is wrong.
fn file_error(file: String, message: String) -> TableError {
    TableError {
        file,
        line: 0,
        column: 0,
        field: String::new(),
        message,
        accepted: String::new(),
    }
}

/// Checks a `--tables` folder: it must exist and be a folder (a link to one is fine).
pub fn check_folder(dir: &Path) -> Result<(), TableError> {
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(file_error(
            dir.display().to_string(),
            "is not a folder (--tables names a folder of table files)".into(),
        )),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(file_error(
            dir.display().to_string(),
            "no such folder (--tables names a folder of table files)".into(),
        )),
        Err(e) => Err(file_error(
            dir.display().to_string(),
            format!("cannot read the folder: {e}"),
        )),
    }
}

/// The text of `file` in the table folder `dir`, with its name for errors; `None` when the folder
/// has no entry of that name (the built-in is used). Anything at that name must read as a regular
/// UTF-8 file: nothing of a device or FIFO is read, so no error can echo its content.
pub fn folder_source(
    dir: Option<&Path>,
    file: &str,
) -> Result<Option<(String, String)>, TableError> {
    let Some(dir) = dir else { return Ok(None) };
    check_folder(dir)?;
    let path = dir.join(file);
    if !crate::fsio::present(&path) {
        return Ok(None);
    }
    let name = path.display().to_string();
    let src = read_limited(&path).map_err(|message| file_error(name.clone(), message))?;
    Ok(Some((name, src)))
}

/// The largest table or card file kepi reads (a shared file cannot make it read gigabytes).
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// Reads a regular UTF-8 text file of at most [`MAX_FILE_BYTES`] (see [`crate::fsio::read_regular`]);
/// the error is the problem without the file name, which the caller's error carries.
pub fn read_limited(path: &Path) -> Result<String, String> {
    crate::fsio::read_regular_string(path, MAX_FILE_BYTES, "table file").map_err(|e| e.message())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    struct Demo {
        #[allow(dead_code)]
        a: Sourced<i64>,
    }

    #[test]
    fn errors_are_located() {
        let src = "a = { value = 1, provenance = \"guess\" }\n";
        let e = parse_toml::<Demo>("demo.toml", src).unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.field.contains('a'), "{e}");
        assert!(e.accepted.contains("house"), "{e}");
    }
}
