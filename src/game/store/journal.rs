//! The journal beside a save: JSON lines, a first line with the seed secret and one per log
//! entry, read whole or from a line on, with its chain checked and a torn last line set aside.

#[allow(unused_imports)]
use super::*;

/// One line of the journal.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum JournalLine {
    /// The seed secret (first line).
    Secret(SeedSecret),
    /// A log entry (boxed: an entry is far larger than a secret).
    Entry(Box<LogEntry>),
}

/// A journal as read: its secret, its entries, and where the good bytes end.
#[derive(Clone, Debug, Default)]
pub struct Journal {
    /// The seed secret, if the journal has it.
    pub secret: Option<SeedSecret>,
    /// The entries, in order, with their chain checked.
    pub entries: Vec<LogEntry>,
    /// The 1-based journal line of each entry (same order), so an error can name it.
    pub lines: Vec<usize>,
    /// Bytes up to the end of the last complete line.
    pub good_len: u64,
    /// Warnings (a torn last line).
    pub warnings: Vec<String>,
}

/// Reads a journal. A missing file is an empty journal. A torn last line (no newline, unparsable) is
/// ignored with a warning; any other bad line is an error naming the line and byte offset.
pub fn read_journal(path: &Path) -> Result<Journal, StoreError> {
    // A dangling link is not "no journal": it is refused, like any link in a game folder.
    if !crate::fsio::present(path) {
        return Ok(Journal::default());
    }
    let bytes = read_folder_file(path, "journal")?;
    parse_journal(&bytes, &path.display().to_string())
}

/// Parses a journal's bytes (`file` names it in errors); see [`read_journal`]. The fuzz target and
/// the malformed corpus call this directly.
pub fn parse_journal(bytes: &[u8], file: &str) -> Result<Journal, StoreError> {
    let file = file.to_string();
    let mut j = Journal::default();
    let mut offset = 0usize;
    let mut line_no = 0usize;
    while offset < bytes.len() {
        line_no += 1;
        let rest = bytes.get(offset..).unwrap_or_default();
        let (line, complete) = match rest.iter().position(|&b| b == b'\n') {
            Some(i) => (rest.get(..i).unwrap_or_default(), true),
            None => (rest, false),
        };
        let next = offset + line.len() + usize::from(complete);
        if line.iter().all(|b| b.is_ascii_whitespace()) {
            offset = next;
            if complete {
                j.good_len = next as u64;
            }
            continue;
        }
        match serde_json::from_slice::<JournalLine>(line) {
            Ok(_) if !complete => {
                j.warnings.push(format!(
                    "{file}: line {line_no} (byte {offset}) has no end of line: an interrupted write, ignored"
                ));
                break;
            }
            // kepi writes the seed line once, as the journal's first: one anywhere else is a
            // line copied in, and reading on past it would hide the entries after it.
            Ok(JournalLine::Secret(_)) if j.secret.is_some() || !j.entries.is_empty() => {
                return Err(StoreError::Corrupt {
                    file,
                    line: line_no,
                    column: offset,
                    message: second_seed_line(line_no, offset),
                    hint: format!("; {RECOVER_HINT}"),
                });
            }
            Ok(JournalLine::Secret(s)) => j.secret = Some(s),
            Ok(JournalLine::Entry(e)) => {
                j.entries.push(*e);
                j.lines.push(line_no);
            }
            Err(_) if !complete => {
                j.warnings.push(format!(
                    "{file}: line {line_no} (byte {offset}) is incomplete (an interrupted write, never acknowledged) and was ignored"
                ));
                break;
            }
            Err(e) => {
                return Err(StoreError::Corrupt {
                    file,
                    line: line_no,
                    column: offset,
                    message: format!("journal line {line_no} (byte {offset}) is damaged: {e}"),
                    hint: String::new(),
                });
            }
        }
        offset = next;
        j.good_len = next as u64;
    }
    if let Some(first) = j.entries.first() {
        let start = first.index;
        if let Err(b) = verify_chain_from(&j.entries, start, &first.prev) {
            let k = b.index.saturating_sub(start as usize);
            let message = format!(
                "journal line {} (log entry {}): chain broken: {}",
                j.lines.get(k).copied().unwrap_or(0),
                b.index,
                b.reason
            );
            return Err(StoreError::Invalid {
                file,
                message: format!("{message}; {RECOVER_HINT}"),
            });
        }
    }
    Ok(j)
}

/// Reads the part of a journal that opening a game needs: its secret (first line) and its entries
/// from log entry `from - 1` on (the save's last, which anchors the journal to the save, and those
/// beyond it). The lines before are not parsed: the save holds them, and `kepi log verify
/// FILE.journal` checks the whole journal. So opening a game with 10,000 actions parses a few
/// hundred journal lines, not 10,000. A torn last line is ignored with a warning, as in
/// [`read_journal`]; a damaged line in the part read is an error naming it.
pub fn read_journal_tail(path: &Path, from: usize) -> Result<Journal, StoreError> {
    if !crate::fsio::present(path) {
        return Ok(Journal::default());
    }
    let bytes = crate::fsio::read_regular_nofollow(path, MAX_SAVE_BYTES, "journal").map_err(|e| {
        match e.problem {
            // Not a save, and not lost: recover reads a journal of any size line by line.
            crate::fsio::FsProblem::TooLarge { .. } => io(
                path,
                format!(
                    "this game's journal is larger than {} MiB, the most kepi reads to open a game (kepi stops a journal at {} MiB; a larger one was written by an older kepi or grew by copying); `kepi game recover` on the save reads it line by line, keeps every action that continues the game and sets the journal aside whole",
                    MAX_SAVE_BYTES / (1024 * 1024),
                    MAX_JOURNAL_BYTES / (1024 * 1024)
                ),
            ),
            _ => fs_err(e),
        }
    })?;
    parse_journal_tail(&bytes, &path.display().to_string(), from)
}

/// What a seed line anywhere but first means.
pub(super) fn second_seed_line(line: usize, byte: usize) -> String {
    format!(
        "journal line {line} (byte {byte}) is a second seed line (kepi writes one, first): lines were copied into the journal"
    )
}

/// Where a journal line as kepi writes it stands: `Some(None)` for the seed line, `Some(Some(n))`
/// for log entry `n`, `None` for a line not in kepi's own layout (which is then parsed whole).
pub(super) fn journal_place(line: &[u8]) -> Option<Option<u64>> {
    if line.starts_with(b"{\"secret\":") {
        return Some(None);
    }
    let rest = line.strip_prefix(b"{\"entry\":{\"index\":")?;
    let digits = rest.iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || digits > 19 || rest.get(digits) != Some(&b',') {
        return None;
    }
    std::str::from_utf8(rest.get(..digits)?)
        .ok()?
        .parse()
        .ok()
        .map(Some)
}

/// [`read_journal_tail`] over a journal's bytes (`file` names it in errors).
pub fn parse_journal_tail(bytes: &[u8], file: &str, from: usize) -> Result<Journal, StoreError> {
    let mut spans = line_spans(bytes);
    let blank = |a: usize, b: usize| is_blank(bytes, a, b);
    let mut j = Journal {
        good_len: bytes.len() as u64,
        ..Journal::default()
    };
    // A last line without its newline is an interrupted write, never acknowledged.
    if let Some(&(a, b, false)) = spans.last() {
        spans.pop();
        j.good_len = a as u64;
        if !blank(a, b) {
            j.warnings.push(format!(
                "{file}: line {} (byte {a}) is incomplete (an interrupted write, never acknowledged) and was ignored",
                spans.len() + 1
            ));
        }
    }
    let parse = |k: usize, a: usize, b: usize| parse_line(bytes, file, k, a, b);
    let first = spans.iter().position(|s| !blank(s.0, s.1));
    if let Some(k) = first
        && let Some(&(a, b, _)) = spans.get(k)
        && let JournalLine::Secret(secret) = parse(k, a, b)?
    {
        j.secret = Some(secret);
    }
    let last = check_places(bytes, file, &spans, first)?;
    // The journal's last entry older than the save's last: its end was cut off. It is not the
    // journal of this save as kepi left it; appending to it would leave a hole in the chain.
    if let Some((k, i)) = last
        && (i as usize).saturating_add(1) < from
    {
        return Err(StoreError::Invalid {
            file: file.to_string(),
            message: format!(
                "journal line {} (log entry {i}) is its last, but the save holds entries up to {}: lines were cut off its end; {RECOVER_HINT}",
                k + 1,
                from - 1
            ),
        });
    }
    for (e, line) in read_tail(bytes, file, &spans, from)? {
        j.entries.push(e);
        j.lines.push(line);
    }
    if let Some(first) = j.entries.first()
        && let Err(b) = verify_chain_from(&j.entries, first.index, &first.prev)
    {
        let k = b.index.saturating_sub(first.index as usize);
        return Err(StoreError::Invalid {
            file: file.to_string(),
            message: format!(
                "journal line {} (log entry {}): chain broken: {}; {RECOVER_HINT}",
                j.lines.get(k).copied().unwrap_or(0),
                b.index,
                b.reason
            ),
        });
    }
    Ok(j)
}

/// Every line's span in a journal's bytes: (start, end without the newline, has a newline).
fn line_spans(bytes: &[u8]) -> Vec<(usize, usize, bool)> {
    let mut spans = Vec::new();
    let mut start = 0usize;
    while start < bytes.len() {
        let rest = bytes.get(start..).unwrap_or_default();
        match rest.iter().position(|&b| b == b'\n') {
            Some(i) => {
                spans.push((start, start + i, true));
                start += i + 1;
            }
            None => {
                spans.push((start, bytes.len(), false));
                start = bytes.len();
            }
        }
    }
    spans
}

/// True when the bytes from `a` to `b` are only white space.
fn is_blank(bytes: &[u8], a: usize, b: usize) -> bool {
    bytes
        .get(a..b)
        .unwrap_or_default()
        .iter()
        .all(|c| c.is_ascii_whitespace())
}

/// Journal line `k` (0-based), bytes `a` to `b`, parsed, or the error naming it damaged.
fn parse_line(
    bytes: &[u8],
    file: &str,
    k: usize,
    a: usize,
    b: usize,
) -> Result<JournalLine, StoreError> {
    serde_json::from_slice::<JournalLine>(bytes.get(a..b).unwrap_or_default()).map_err(|e| {
        StoreError::Corrupt {
            file: file.to_string(),
            line: k + 1,
            column: a,
            message: format!("journal line {} (byte {a}) is damaged: {e}", k + 1),
            hint: String::new(),
        }
    })
}

/// Every line's place, cheaply (the lines before the tail are not parsed): a seed line only
/// first (`first`, the first line not blank), entries numbered one after another. A line copied
/// in anywhere (`head -1 FILE >> FILE`) is found here, instead of reading the journal as ending
/// at it and then appending the game's entries again after it. Returns the last entry's line
/// (0-based) and index.
fn check_places(
    bytes: &[u8],
    file: &str,
    spans: &[(usize, usize, bool)],
    first: Option<usize>,
) -> Result<Option<(usize, u64)>, StoreError> {
    let mut next: Option<u64> = None;
    let mut last = None;
    for (k, &(a, b, _)) in spans.iter().enumerate() {
        if is_blank(bytes, a, b) {
            continue;
        }
        let place = match journal_place(bytes.get(a..b).unwrap_or_default()) {
            Some(p) => p,
            None => match parse_line(bytes, file, k, a, b)? {
                JournalLine::Secret(_) => None,
                JournalLine::Entry(e) => Some(e.index),
            },
        };
        match place {
            None if Some(k) == first => {}
            None => {
                return Err(StoreError::Corrupt {
                    file: file.to_string(),
                    line: k + 1,
                    column: a,
                    message: second_seed_line(k + 1, a),
                    hint: format!("; {RECOVER_HINT}"),
                });
            }
            Some(i) => {
                if let Some(want) = next
                    && i != want
                {
                    return Err(StoreError::Invalid {
                        file: file.to_string(),
                        message: format!(
                            "journal line {} holds log entry {i} where entry {want} was expected: lines were copied, moved or deleted; {RECOVER_HINT}",
                            k + 1
                        ),
                    });
                }
                next = Some(i.saturating_add(1));
                last = Some((k, i));
            }
        }
    }
    Ok(last)
}

/// The journal's entries from the save's last (`from - 1`, the anchor) on, each with its
/// 1-based line, read backwards from the end and returned in order.
fn read_tail(
    bytes: &[u8],
    file: &str,
    spans: &[(usize, usize, bool)],
    from: usize,
) -> Result<Vec<(LogEntry, usize)>, StoreError> {
    let mut tail = Vec::new();
    for (k, &(a, b, _)) in spans.iter().enumerate().rev() {
        if is_blank(bytes, a, b) {
            continue;
        }
        match parse_line(bytes, file, k, a, b)? {
            // The journal's first line (checked above): every entry after it was read.
            JournalLine::Secret(_) => break,
            JournalLine::Entry(e) => {
                let anchor = (e.index as usize) < from;
                tail.push((*e, k + 1));
                if anchor {
                    break;
                }
            }
        }
    }
    tail.reverse();
    Ok(tail)
}
