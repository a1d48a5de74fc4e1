//! The map a game is played on, as its save carries it (issue 41).
//!
//! A scenario names its map (`map = "maps/NAME.toml"`, beside the scenario) and `kepi game new
//! --map FILE` sets or overrides it. The game keeps the map's text and its SHA-256 in its first
//! log entry, so the save holds the map the battle began with: it opens on another machine without
//! the file, the hash chain covers it, and a map file changed since is noticed and named
//! ([`MapFile::changed_on_disk`]), never silently used.

use std::fmt;
use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};

use super::{BUILTIN, MAX_MAP_BYTES, Map, MapError};
use crate::tables::TableError;

/// A map as a game carries it: where it was read from, its text and that text's SHA-256, and the
/// map checked from the text (or why it does not read: a save written by a kepi that knew more).
#[derive(Clone)]
pub struct MapFile {
    /// The file it was read from, as named (`maps/ardennes.toml`), or `<built-in NAME>`.
    pub file: String,
    /// SHA-256 of `text`, in lower-case hex.
    pub sha256: String,
    /// The map's TOML text.
    pub text: Arc<str>,
    map: Result<Arc<Map>, String>,
}

/// The name of one of kepi's own maps as a game records it.
fn builtin_file(name: &str) -> String {
    format!("<built-in {name}>")
}

/// SHA-256 of a map's text, in lower-case hex.
pub fn text_sha256(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl MapFile {
    /// A map from its text, checked; `file` names it in errors and in the save.
    pub fn from_source(file: &str, text: &str) -> Result<MapFile, MapError> {
        let map = Map::from_source(file, text)?;
        Ok(MapFile {
            file: file.to_string(),
            sha256: text_sha256(text),
            text: text.into(),
            map: Ok(Arc::new(map)),
        })
    }

    /// What a scenario or `--map` names: a file that is there (a regular file of at most
    /// [`MAX_MAP_BYTES`]), else one of kepi's own maps by name ([`BUILTIN`]).
    pub fn named(name: &str) -> Result<MapFile, MapError> {
        let path = Path::new(name);
        if crate::fsio::present(path) {
            // Kept whole: the save is opened later from any folder, and the changed-file check
            // and the window's picture (beside the map) look for the file by this name.
            let file = std::path::absolute(path)
                .unwrap_or_else(|_| path.to_path_buf())
                .display()
                .to_string();
            let text = read(path)?;
            return MapFile::from_source(&file, &text);
        }
        if let Some((n, text)) = BUILTIN.iter().find(|(n, _)| *n == name.trim()) {
            return MapFile::from_source(&builtin_file(n), text);
        }
        Err(super::not_found(name))
    }

    /// The checked map, or why the text carried does not read.
    pub fn map(&self) -> Result<&Map, &str> {
        match &self.map {
            Ok(m) => Ok(m),
            Err(e) => Err(e),
        }
    }

    /// The map's name (its `[map] name`), or the file when it does not read.
    pub fn name(&self) -> &str {
        self.map().map_or(self.file.as_str(), |m| m.name.as_str())
    }

    /// What opening a game says of its map (the window's status line): why the carried text does
    /// not read, or that the file it came from has changed ([`MapFile::changed_on_disk`]).
    pub fn open_note(&self) -> Option<String> {
        match &self.map {
            Err(why) => Some(why.clone()),
            Ok(_) => self.changed_on_disk(),
        }
    }

    /// Whether the file this map was read from now holds other text: `Some` with the words that
    /// name it ("maps/x.toml has changed since this game began ..."), `None` when it is the same,
    /// or gone, or one of kepi's own maps unchanged. The game keeps the map it began with.
    pub fn changed_on_disk(&self) -> Option<String> {
        let now = if let Some(name) = self
            .file
            .strip_prefix("<built-in ")
            .and_then(|s| s.strip_suffix('>'))
        {
            BUILTIN
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, t)| t.to_string())?
        } else {
            let path = Path::new(&self.file);
            if !crate::fsio::present(path) {
                return None;
            }
            match read(path) {
                Ok(t) => t,
                Err(e) => {
                    return Some(format!(
                        "the map file {} cannot be read now ({}): the game keeps the map it began with",
                        self.file, e.message
                    ));
                }
            }
        };
        let sha = text_sha256(&now);
        (sha != self.sha256).then(|| {
            format!(
                "the map file {} has changed since this game began (sha256 {} now, {} then): the game keeps the map it began with",
                self.file,
                short(&sha),
                short(&self.sha256)
            )
        })
    }
}

/// The first 12 hex digits of a hash, enough to tell two apart in a message.
fn short(sha: &str) -> &str {
    sha.get(..12).unwrap_or(sha)
}

impl MapFile {
    /// The first 12 hex digits of the text's SHA-256, as messages and `kepi game show` print it.
    pub fn short_sha(&self) -> &str {
        short(&self.sha256)
    }
}

/// A map file's text: a regular UTF-8 file of at most [`MAX_MAP_BYTES`], or the error naming it.
pub(super) fn read(path: &Path) -> Result<String, MapError> {
    crate::fsio::read_regular_string(path, MAX_MAP_BYTES, "map file").map_err(|e| TableError {
        file: path.display().to_string(),
        line: 0,
        column: 0,
        field: String::new(),
        message: e.message(),
        accepted: "a map file (TOML, docs/MAPS.md)".into(),
    })
}

impl PartialEq for MapFile {
    fn eq(&self, other: &Self) -> bool {
        self.file == other.file && self.sha256 == other.sha256 && self.text == other.text
    }
}

impl Eq for MapFile {}

impl fmt::Debug for MapFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MapFile")
            .field("file", &self.file)
            .field("sha256", &self.sha256)
            .field("reads", &self.map.is_ok())
            .finish()
    }
}

/// What a save holds: the file, the hash and the text.
#[derive(Serialize, Deserialize)]
struct Stored<'a> {
    file: std::borrow::Cow<'a, str>,
    sha256: std::borrow::Cow<'a, str>,
    text: std::borrow::Cow<'a, str>,
}

impl Serialize for MapFile {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Stored {
            file: self.file.as_str().into(),
            sha256: self.sha256.as_str().into(),
            text: (*self.text).into(),
        }
        .serialize(s)
    }
}

/// A save's map is read back whatever its text says: a text that does not read (a later kepi's
/// map, a rule set not registered here) or does not match its hash leaves the game playable
/// without it, with the reason ([`MapFile::map`]); the save itself is never refused for it.
impl<'de> Deserialize<'de> for MapFile {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = Stored::deserialize(d)?;
        let sha = text_sha256(&s.text);
        let map = if sha != s.sha256 {
            Err(format!(
                "the map carried by this game ({}) does not match its sha256: it is not used",
                s.file
            ))
        } else {
            Map::from_source(&s.file, &s.text)
                .map(Arc::new)
                .map_err(|e| format!("the map carried by this game does not read: {e}"))
        };
        Ok(MapFile {
            file: s.file.into_owned(),
            sha256: s.sha256.into_owned(),
            text: s.text.into(),
            map,
        })
    }
}
