//! `kepi game recover`: a game rebuilt from whatever of its save, journal and backup still reads.
//!
//! The journal is read line by line, each line on its own, with a cap per line and none on the
//! whole file (so a journal too large to open, or one with a damaged line, still gives back every
//! action in it). A line that does not parse is left out and recover reads on: one damaged line no
//! longer costs every action after it. The game is then rebuilt from its base (the save when it
//! reads, else the journal's first entry, else the backup) by taking, index after index, the first
//! journal entry that continues the chain (its index, link and hash) and replays; a copy of an
//! entry the game already holds, a line moved or duplicated, a byte-order mark an editor put before
//! a line: none of them stop it. With the seed known, the dice are checked as before and the chain
//! is cut at the first entry whose dice do not come from the seed.
//!
//! Nothing recover sets aside is ever overwritten: the save and the journal it replaces are renamed
//! to `FILE.damaged` and `FILE.journal.damaged`, or `.damaged.2`, `.damaged.3`, ... when a former
//! recover's copies are there. Its report says which journal lines it kept, which it left out and
//! why, and where the old files went.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use super::{
    JournalLine, Limits, MAX_JOURNAL_BYTES, ReplayError, Store, StoreError, WriteStats,
    backup_path, io, journal_path, lock, parse_save, read_bytes_limited, read_folder_file,
    real_save_path, sibling, sync_dir,
};
use crate::engine::game::{Game, LogEntry, SeedSecret};

/// The longest journal line recover reads: kepi never writes a journal, so never a line, larger
/// than [`MAX_JOURNAL_BYTES`]. A longer line (a run of zero bytes a crash left, say) is skipped
/// without being held in memory, and the lines after it are read.
const LINE_CAP: u64 = MAX_JOURNAL_BYTES;

/// How many left-out lines the report names one by one (the rest are counted).
const NAMED: usize = 12;

/// How much of a journal recover reads: four times what opening a game reads, so an older kepi's
/// journal past the cap (issue 29's was 67 MB) is read whole, and a hostile file of endless short
/// lines cannot fill the memory. What lies beyond stays in the journal set aside, and the report
/// says where reading stopped.
const READ_CAP: u64 = 4 * super::MAX_SAVE_BYTES;

/// How many damaged lines are described (the rest are counted).
const DESCRIBED: usize = 1000;

/// How many different seed lines and different first entries recover tries as the game's start.
const STARTS: usize = 16;

/// A journal as recover reads it.
#[derive(Default)]
struct Salvaged {
    /// Seed lines that read, with their 1-based line.
    secrets: Vec<(usize, SeedSecret)>,
    /// Entry lines that read, with their 1-based line, in the file's order.
    entries: Vec<(usize, LogEntry)>,
    /// Lines that did not read, and why (the first [`DESCRIBED`]).
    damaged: Vec<String>,
    /// Damaged lines beyond those described.
    more_damaged: usize,
    /// Where reading stopped at [`READ_CAP`], if it did.
    stopped_at: Option<u64>,
    /// Lines read after a repair (a byte-order mark dropped).
    repaired: Vec<String>,
    /// A last line cut off by a crash (never acknowledged).
    torn: Option<String>,
    /// Bytes up to the end of the last complete line.
    good_len: u64,
    /// Anything not as kepi writes a journal: a seed line not first, entries out of order, blank
    /// or repaired lines.
    odd: bool,
}

impl Salvaged {
    fn damage(&mut self, what: String) {
        if self.damaged.len() < DESCRIBED {
            self.damaged.push(what);
        } else {
            self.more_damaged += 1;
        }
    }
}

/// Reads the next line into `buf` (without its newline): `None` at the end, else the bytes the
/// line took, whether it ended with a newline, and whether it was longer than [`LINE_CAP`] (then
/// `buf` is empty and the line was skipped, not held).
fn next_line(
    r: &mut impl BufRead,
    buf: &mut Vec<u8>,
) -> std::io::Result<Option<(u64, bool, bool)>> {
    buf.clear();
    let n = r.by_ref().take(LINE_CAP + 1).read_until(b'\n', buf)? as u64;
    if n == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        return Ok(Some((n, true, false)));
    }
    if n <= LINE_CAP {
        return Ok(Some((n, false, false)));
    }
    // Too long: read on to its end a chunk at a time, keeping nothing.
    let mut total = n;
    loop {
        buf.clear();
        let m = r.by_ref().take(1 << 20).read_until(b'\n', buf)? as u64;
        total += m;
        if m == 0 || buf.last() == Some(&b'\n') {
            buf.clear();
            return Ok(Some((total, m != 0, true)));
        }
    }
}

/// Reads a journal for recover (see the module doc). `None` when there is none.
fn salvage(path: &Path) -> Result<Option<Salvaged>, StoreError> {
    if !crate::fsio::present(path) {
        return Ok(None);
    }
    let f = crate::fsio::open_regular_nofollow(path, "journal").map_err(super::fs_err)?;
    let mut r = BufReader::with_capacity(1 << 16, f);
    let mut s = Salvaged::default();
    let mut buf = Vec::new();
    let (mut offset, mut line_no) = (0u64, 0usize);
    let mut expect: Option<u64> = None;
    let mut seen_content = false;
    while let Some((n, complete, too_long)) =
        next_line(&mut r, &mut buf).map_err(|e| io(path, format!("cannot read: {e}")))?
    {
        line_no += 1;
        let at = offset;
        offset += n;
        if offset > READ_CAP {
            s.stopped_at = Some(at);
            break;
        }
        if complete {
            s.good_len = offset;
        }
        if too_long {
            s.damage(format!(
                "line {line_no} (byte {at}): longer than {} MiB, more than any line kepi writes",
                LINE_CAP / (1024 * 1024)
            ));
            seen_content = true;
            continue;
        }
        if buf.iter().all(|b| b.is_ascii_whitespace()) {
            if !buf.is_empty() {
                s.odd = true;
            }
            continue;
        }
        if !complete {
            // Written in one piece with its newline and fsynced before the action was
            // acknowledged: a last line without one never was.
            s.torn = Some(format!(
                "line {line_no} (byte {at}) has no end of line: an interrupted write, never acknowledged, left out"
            ));
            break;
        }
        let parsed = match serde_json::from_slice::<JournalLine>(&buf) {
            Ok(l) => Ok(l),
            Err(e) => match buf.strip_prefix(b"\xEF\xBB\xBF") {
                Some(rest) => serde_json::from_slice::<JournalLine>(rest)
                    .inspect(|_| {
                        s.repaired.push(format!(
                            "line {line_no} (byte {at}) began with a byte-order mark, read without it"
                        ));
                        s.odd = true;
                    })
                    .map_err(|_| e),
                None => Err(e),
            },
        };
        match parsed {
            Ok(JournalLine::Secret(secret)) => {
                if seen_content {
                    s.odd = true;
                }
                s.secrets.push((line_no, secret));
            }
            Ok(JournalLine::Entry(e)) => {
                if expect.is_some_and(|x| x != e.index) || (expect.is_none() && e.index != 0) {
                    s.odd = true;
                }
                expect = Some(e.index.saturating_add(1));
                s.entries.push((line_no, *e));
            }
            Err(e) => s.damage(format!("line {line_no} (byte {at}): damaged ({e})")),
        }
        seen_content = true;
    }
    Ok(Some(s))
}

/// Renames `path` to the first free name of `PATH.damaged`, `PATH.damaged.2`, ... and returns it:
/// nothing set aside is ever replaced (a hard link refuses a name that is taken; where there are
/// none, the name is checked under the game's lock).
fn set_aside(path: &Path) -> Result<PathBuf, StoreError> {
    for k in 1..=10_000u32 {
        let to = if k == 1 {
            sibling(path, ".damaged")
        } else {
            sibling(path, &format!(".damaged.{k}"))
        };
        match std::fs::hard_link(path, &to) {
            Ok(()) => {
                std::fs::remove_file(path).map_err(|e| io(path, e))?;
                if let Some(d) = path.parent() {
                    sync_dir(d);
                }
                return Ok(to);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(_) if !crate::fsio::present(&to) => {
                std::fs::rename(path, &to).map_err(|e| io(path, e))?;
                if let Some(d) = path.parent() {
                    sync_dir(d);
                }
                return Ok(to);
            }
            Err(_) => continue,
        }
    }
    Err(io(
        path,
        "cannot set it aside: every name from .damaged to .damaged.10000 is taken",
    ))
}

/// Lines as `a, b-c, d`.
fn spans(lines: &[usize]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while let Some(&a) = lines.get(i) {
        let mut j = i;
        while lines.get(j + 1).is_some_and(|&b| b == lines[j] + 1) {
            j += 1;
        }
        out.push(if j == i {
            a.to_string()
        } else {
            format!("{a}-{}", lines[j])
        });
        i = j + 1;
    }
    out.join(", ")
}

/// The bytes a game's journal takes, as kepi writes it (seed line, then one line per entry), up
/// to each entry: how many entries fit under `cap`.
fn entries_that_fit(game: &Game, cap: u64) -> usize {
    let line = |l: &JournalLine| {
        serde_json::to_vec(l)
            .map(|v| v.len() as u64 + 1)
            .unwrap_or(0)
    };
    let mut total = game
        .secret()
        .map(|s| line(&JournalLine::Secret(s.clone())))
        .unwrap_or(0);
    for (k, e) in game.log().iter().enumerate() {
        total += line(&JournalLine::Entry(Box::new(e.clone())));
        if total > cap {
            return k;
        }
    }
    game.log().len()
}

/// Rebuilds a damaged game (see the module doc). Returns the game and what was done, in words:
/// where it came from, which journal lines were kept and which left out (and why), and where the
/// files it replaced were set aside.
pub fn recover(path: &Path) -> Result<(Game, String), StoreError> {
    let path = &real_save_path(path)?;
    let held = lock(path)?;
    crate::fsio::remove_stale_temps(path);
    let jp = journal_path(path);
    let salvaged = salvage(&jp)?;
    let j = salvaged.as_ref();
    let entries: &[(usize, LogEntry)] = j.map(|s| s.entries.as_slice()).unwrap_or_default();
    let secrets: &[(usize, SeedSecret)] = j.map(|s| s.secrets.as_slice()).unwrap_or_default();
    let (mut game, source) = base_game(path, &jp, entries, secrets)?;
    let base = game.log().len();
    let taken = extend_chain(&mut game, entries);
    let cut_why = cut_chain(&mut game, base);
    let lines = sort_lines(&game, entries, &taken, base, cut_why.as_ref(), j);
    let mut how = describe(&source, base, game.log().len(), &lines, j);
    // The journal is written anew unless it is exactly the game's, as kepi writes it: anything
    // else in it (lines left out, copies, a torn or repaired line) would stop the next open.
    let journal_is_the_games = j.is_some_and(|s| {
        !s.odd
            && s.stopped_at.is_none()
            && s.damaged.is_empty()
            && s.torn.is_none()
            && lines.copies.is_empty()
            && lines.left_out.is_empty()
            && s.secrets.len() == usize::from(game.secret().is_some())
            && s.secrets.first().is_none_or(|(line, _)| *line == 1)
    });
    let rewrite_journal = j.is_some() && !journal_is_the_games;
    set_aside_old(path, &jp, rewrite_journal, &mut how)?;
    write_rebuilt(held.file, path, &game, j, rewrite_journal)?;
    Ok((game, how))
}

/// The game recover builds on, and where it came from: the save when it reads (it may hold more
/// than a journal cut short); else the journal's first entry with its seed (a seed line that
/// matches the entry's commitment); else the backup, whose error is recover's when it does not
/// read either.
fn base_game(
    path: &Path,
    jp: &Path,
    entries: &[(usize, LogEntry)],
    secrets: &[(usize, SeedSecret)],
) -> Result<(Game, String), StoreError> {
    let from_save = read_bytes_limited(path)
        .and_then(|b| parse_save(&b, &path.display().to_string()))
        .ok()
        .map(|g| (g, path.display().to_string()));
    let from_journal = || first_entries(entries, secrets).map(|g| (g, jp.display().to_string()));
    match from_save.or_else(from_journal) {
        Some(x) => Ok(x),
        None => {
            let bak = backup_path(path);
            let bytes = read_folder_file(&bak, "backup")?;
            Ok((
                parse_save(&bytes, &bak.display().to_string())?,
                bak.display().to_string(),
            ))
        }
    }
}

/// A game started from the journal alone: the first of up to [`STARTS`] different first entries
/// that starts a game with one of up to [`STARTS`] different seed lines, or with no seed.
fn first_entries(entries: &[(usize, LogEntry)], secrets: &[(usize, SeedSecret)]) -> Option<Game> {
    let mut firsts: Vec<&LogEntry> = Vec::new();
    for (_, e) in entries.iter().filter(|(_, e)| e.index == 0) {
        if firsts.len() < STARTS && !firsts.iter().any(|f| f.hash == e.hash) {
            firsts.push(e);
        }
    }
    let mut seeds: Vec<Option<SeedSecret>> = Vec::new();
    for (_, s) in secrets {
        if seeds.len() < STARTS && !seeds.iter().any(|x| x.as_ref() == Some(s)) {
            seeds.push(Some(s.clone()));
        }
    }
    seeds.push(None);
    firsts.into_iter().find_map(|e| {
        seeds
            .iter()
            .find_map(|s| Game::from_log(vec![e.clone()], s.clone()).ok())
    })
}

/// Replays onto `game`, index after index, the first journal entry that continues the chain.
/// Returns which of `entries` were taken.
fn extend_chain(game: &mut Game, entries: &[(usize, LogEntry)]) -> Vec<bool> {
    let mut at_index: BTreeMap<u64, Vec<usize>> = BTreeMap::new();
    for (k, (_, e)) in entries.iter().enumerate() {
        at_index.entry(e.index).or_default().push(k);
    }
    let mut taken = vec![false; entries.len()];
    loop {
        let want = game.log().len() as u64;
        let Some(ks) = at_index.get(&want) else {
            break;
        };
        let Some(&k) = ks
            .iter()
            .find(|&&k| game.replay(entries[k].1.clone()).is_ok())
        else {
            break;
        };
        taken[k] = true;
    }
    taken
}

/// Cuts the rebuilt game back (never below `base`, the entries it was built on) where it may not
/// go on: at the first entry whose dice do not come from the seed, when the seed is known, and
/// where its journal would pass [`MAX_JOURNAL_BYTES`] (what does not fit stays in the journal set
/// aside). Returns the last cut made, its index and why, in words.
fn cut_chain(game: &mut Game, base: usize) -> Option<(usize, String)> {
    let mut cut_why: Option<(usize, String)> = None;
    if let Some(seed) = game.secret().map(|s| s.seed)
        && let Err(ReplayError::Entry { index, message }) = game.audit_dice(seed)
        && index >= base
        && game.rewind(index).is_ok()
    {
        cut_why = Some((
            index,
            format!("its dice do not come from the game's seed ({message})"),
        ));
    }
    let fit = entries_that_fit(game, MAX_JOURNAL_BYTES);
    if fit < game.log().len() && fit > base && game.rewind(fit).is_ok() {
        cut_why = Some((
            fit,
            format!(
                "the game's journal would pass {} MiB, the most kepi keeps for one game",
                MAX_JOURNAL_BYTES / (1024 * 1024)
            ),
        ));
    }
    cut_why
}

/// The journal's lines as recover's report sorts them.
struct Lines {
    /// The lines of the entries that extend the base, in the file's order.
    kept: Vec<usize>,
    /// Lines that are copies of a line the game holds (nothing lost), sorted.
    copies: Vec<usize>,
    /// Lines left out, each with why, in words.
    left_out: Vec<String>,
}

/// Sorts each journal line read: kept (it extends the base), the journal's own line of an entry
/// the base holds, a copy of a line the game holds (nothing lost), or left out (and why); then the
/// seed lines and the damaged lines.
fn sort_lines(
    game: &Game,
    entries: &[(usize, LogEntry)],
    taken: &[bool],
    base: usize,
    cut_why: Option<&(usize, String)>,
    j: Option<&Salvaged>,
) -> Lines {
    let len = game.log().len();
    let mut kept_lines = Vec::new();
    let mut copies = Vec::new();
    let mut left_out: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (k, (line, e)) in entries.iter().enumerate() {
        let i = e.index as usize;
        let held_hash = game.log().get(i).map(|g| &g.hash);
        if taken[k] && i < len {
            seen.insert(i);
            kept_lines.push(*line);
        } else if held_hash == Some(&e.hash) {
            if i < base && seen.insert(i) {
                // The journal's line of an entry the save holds too.
            } else {
                copies.push(*line);
            }
        } else {
            let why = match cut_why {
                Some((from, why)) if i >= *from && taken[k] => {
                    if i == *from {
                        why.clone()
                    } else {
                        format!("it comes after log entry {from}, left out")
                    }
                }
                _ if i < len => format!("differs from the game's log entry {i}"),
                _ => "does not continue the game's chain (index, link, hash or replay)".into(),
            };
            left_out.push(format!("line {line} (log entry {i}): {why}"));
        }
    }
    if let Some(s) = j {
        let mut seed_seen = false;
        for (line, secret) in &s.secrets {
            if game.secret() != Some(secret) {
                left_out.push(format!(
                    "line {line}: a seed line that is not this game's seed"
                ));
            } else if seed_seen {
                copies.push(*line);
            } else {
                seed_seen = true;
            }
        }
        left_out.extend(s.damaged.iter().cloned());
        if s.more_damaged > 0 {
            left_out.push(format!(
                "{} more damaged line(s), not described one by one",
                s.more_damaged
            ));
        }
    }
    copies.sort_unstable();
    Lines {
        kept: kept_lines,
        copies,
        left_out,
    }
}

/// Recover's report up to the files it sets aside: where the game was rebuilt from, the journal
/// lines kept, copied, repaired and left out, a torn last line and where reading stopped.
fn describe(source: &str, base: usize, len: usize, lines: &Lines, j: Option<&Salvaged>) -> String {
    let Lines {
        kept: kept_lines,
        copies,
        left_out,
    } = lines;
    let beyond = len.saturating_sub(base);
    let mut how = format!("rebuilt from {source} and {beyond} journal entries ({len} in all)");
    if !kept_lines.is_empty() {
        how.push_str(&format!("; kept journal lines {}", spans(kept_lines)));
    }
    if !copies.is_empty() {
        let named: Vec<String> = copies
            .iter()
            .take(NAMED)
            .map(|l| format!("line {l}"))
            .collect();
        how.push_str(&format!(
            "; {} line(s) are copies of lines the game holds, not needed (nothing lost): {}",
            copies.len(),
            named.join(", ")
        ));
        if copies.len() > NAMED {
            how.push_str(&format!(" and {} more", copies.len() - NAMED));
        }
    }
    if let Some(s) = j {
        for r in &s.repaired {
            how.push_str("; ");
            how.push_str(r);
        }
    }
    if !left_out.is_empty() {
        let named: Vec<&str> = left_out.iter().take(NAMED).map(String::as_str).collect();
        how.push_str(&format!(
            "; left out {} line(s): {}",
            left_out.len(),
            named.join("; ")
        ));
        if left_out.len() > NAMED {
            how.push_str(&format!("; and {} more", left_out.len() - NAMED));
        }
    }
    if let Some(t) = j.and_then(|s| s.torn.as_ref()) {
        how.push_str("; ");
        how.push_str(t);
    }
    if let Some(at) = j.and_then(|s| s.stopped_at) {
        how.push_str(&format!(
            "; the journal was read up to byte {at}: recover reads at most {} MiB of a journal, and the rest stays in the journal set aside",
            READ_CAP / (1024 * 1024)
        ));
    }
    how
}

/// The copies an earlier recover set aside beside `p` (`.damaged`, `.damaged.2`, ...), which
/// stay as they are.
fn set_aside_before(p: &Path) -> Vec<String> {
    let mut v = Vec::new();
    for k in 1..=10_000u32 {
        let q = if k == 1 {
            sibling(p, ".damaged")
        } else {
            sibling(p, &format!(".damaged.{k}"))
        };
        if !crate::fsio::present(&q) {
            break;
        }
        v.push(q.display().to_string());
    }
    v
}

/// Sets aside the old save (when there is one) and, when it is written anew, the old journal,
/// each under a name never used before, and says so in `how`, with what an earlier recover left.
fn set_aside_old(
    path: &Path,
    jp: &Path,
    rewrite_journal: bool,
    how: &mut String,
) -> Result<(), StoreError> {
    let mut earlier = Vec::new();
    if crate::fsio::present(path) {
        earlier.extend(set_aside_before(path));
        let to = set_aside(path)?;
        how.push_str(&format!("; the old save is kept as {}", to.display()));
    }
    if rewrite_journal {
        earlier.extend(set_aside_before(jp));
        let to = set_aside(jp)?;
        how.push_str(&format!(
            "; the old journal, every line of it, is kept as {}",
            to.display()
        ));
    }
    if !earlier.is_empty() {
        how.push_str(&format!(
            "; set aside by an earlier recover and left as they were: {}",
            earlier.join(", ")
        ));
    }
    Ok(())
}

/// Writes the rebuilt save through a `Store` holding the game's lock (`lock_file`); the journal
/// kept as it is counts its entries and good bytes, one written anew starts empty.
fn write_rebuilt(
    lock_file: std::fs::File,
    path: &Path,
    game: &Game,
    j: Option<&Salvaged>,
    rewrite_journal: bool,
) -> Result<(), StoreError> {
    let entries: &[(usize, LogEntry)] = j.map(|s| s.entries.as_slice()).unwrap_or_default();
    let mut store = Store {
        _lock: lock_file,
        path: path.to_path_buf(),
        journal_entries: if rewrite_journal {
            0
        } else {
            entries
                .last()
                .map(|(_, e)| e.index as usize + 1)
                .unwrap_or(0)
        },
        journal_good_len: if rewrite_journal {
            0
        } else {
            j.map(|s| s.good_len).unwrap_or(0)
        },
        has_secret_line: !rewrite_journal && j.is_some_and(|s| !s.secrets.is_empty()),
        last_good: None,
        saved_entries: 0,
        stats: WriteStats::default(),
        limits: Limits::default(),
        background: None,
        running: None,
    };
    store
        .compact(game)
        .map_err(|e| io(path, format!("could not write the rebuilt save: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_one_by_one_with_their_ends() {
        let mut r = std::io::Cursor::new(b"ab\n\ncd".to_vec());
        let mut buf = Vec::new();
        assert_eq!(next_line(&mut r, &mut buf).unwrap(), Some((3, true, false)));
        assert_eq!(buf, b"ab");
        assert_eq!(next_line(&mut r, &mut buf).unwrap(), Some((1, true, false)));
        assert!(buf.is_empty());
        assert_eq!(
            next_line(&mut r, &mut buf).unwrap(),
            Some((2, false, false))
        );
        assert_eq!(buf, b"cd");
        assert_eq!(next_line(&mut r, &mut buf).unwrap(), None);
    }

    #[test]
    fn line_numbers_are_said_as_runs() {
        assert_eq!(spans(&[2, 3, 4, 6, 8, 9]), "2-4, 6, 8-9");
        assert_eq!(spans(&[]), "");
    }
}
