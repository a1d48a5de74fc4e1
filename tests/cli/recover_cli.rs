//! Issue 44: `kepi game recover` keeps every intact acknowledged action that continues the chain,
//! never overwrites what an earlier recover set aside, and says what it kept and set aside, where.

use std::path::Path;

use super::common::{kepi, notes, ok, tmp};

/// A game of nine acknowledged notes `a1`..`a9`; its save holds only the start (the save is
/// rewritten every 256 actions: the journal alone holds the nine).
fn nine_notes(dir: &Path) -> (String, String, Vec<String>) {
    let save = super::common::new_game(dir, "mars-la-tour", "44");
    let words: Vec<String> = (1..=9).map(|k| format!("a{k}")).collect();
    let mut args = vec!["game", "apply", save.as_str()];
    for w in &words {
        args.push("note");
        args.push(w);
    }
    let out = ok(&args);
    assert_eq!(out.lines().filter(|l| l.starts_with("ok ")).count(), 9);
    let jp = format!("{save}.journal");
    (save, jp, words)
}

fn lines(p: &str) -> Vec<String> {
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

fn write_lines(p: &str, lines: &[String]) {
    std::fs::write(p, lines.join("\n") + "\n").unwrap();
}

/// The game does not open as it is (so `recover` has work), then recovers with every note.
fn recovers_all(save: &str, words: &[String]) -> String {
    let o = kepi(&["game", "show", save]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "the damaged journal stops the open: {}",
        String::from_utf8_lossy(&o.stdout)
    );
    let out = ok(&["game", "recover", save]);
    assert_eq!(notes(save), words, "every acknowledged action kept: {out}");
    ok(&["log", "verify", save]);
    ok(&["log", "verify", &format!("{save}.journal")]);
    // The game goes on.
    ok(&["game", "apply", save, "note", "after"]);
    out
}

#[test]
fn a_byte_order_mark_on_the_seed_line_loses_no_action() {
    for save_too in [false, true] {
        let dir = tmp("recover", if save_too { "bom-no-save" } else { "bom" });
        let (save, jp, words) = nine_notes(&dir);
        let mut l = lines(&jp);
        l[0] = format!("\u{feff}{}", l[0]);
        write_lines(&jp, &l);
        if save_too {
            // And the save gone too: the seed comes from the journal's (marked) first line.
            std::fs::write(&save, b"{\"format\": \"kepi-sa").unwrap();
        }
        let out = recovers_all(&save, &words);
        assert!(out.contains("byte-order mark"), "{out}");
        assert!(out.contains("g.json.journal.damaged"), "{out}");
        // With the seed: the dice still verify.
        let v = ok(&["log", "verify", &save]);
        assert!(v.contains("seed") || v.contains("ok"), "{v}");
    }
}

#[test]
fn a_damaged_copy_of_entry_0_loses_no_action() {
    let dir = tmp("recover", "entry0");
    let (save, jp, words) = nine_notes(&dir);
    let mut l = lines(&jp);
    // A damaged copy of entry 0's line after it.
    let half = l[1][..l[1].len() / 2].to_string();
    l.insert(2, half);
    write_lines(&jp, &l);
    let out = recovers_all(&save, &words);
    assert!(out.contains("line 3") && out.contains("damaged"), "{out}");
    // Entry 0's line itself damaged (the save holds it): the same.
    let dir = tmp("recover", "entry0-itself");
    let (save, jp, words) = nine_notes(&dir);
    let mut l = lines(&jp);
    l[1] = l[1].replace("\"index\":0", "\"index\":0x");
    write_lines(&jp, &l);
    recovers_all(&save, &words);
}

#[test]
fn a_line_duplicated_mid_journal_loses_no_action() {
    let dir = tmp("recover", "dup");
    let (save, jp, words) = nine_notes(&dir);
    let mut l = lines(&jp);
    // The line of log entry 3, copied in after entry 6's.
    let copy = l[4].clone();
    l.insert(8, copy);
    write_lines(&jp, &l);
    let out = recovers_all(&save, &words);
    assert!(out.contains("copies of lines the game holds"), "{out}");
    assert!(out.contains("line 9"), "{out}");
}

#[test]
fn a_second_recover_keeps_what_the_first_set_aside() {
    let dir = tmp("recover", "twice");
    let (save, jp, words) = nine_notes(&dir);
    let mut l = lines(&jp);
    l.insert(5, "{garbage".into());
    write_lines(&jp, &l);
    let first = recovers_all(&save, &words);
    let damaged = format!("{jp}.damaged");
    assert!(first.contains(&damaged), "{first}");
    let kept_journal = std::fs::read(&damaged).unwrap();
    let kept_save = std::fs::read(format!("{save}.damaged")).unwrap();
    // Damaged again, recovered again: the first's copies are left as they were.
    let mut l = lines(&jp);
    l.insert(3, "{more garbage".into());
    write_lines(&jp, &l);
    let mut all = words.clone();
    all.push("after".into());
    let second = recovers_all(&save, &all);
    assert_eq!(std::fs::read(&damaged).unwrap(), kept_journal);
    assert_eq!(std::fs::read(format!("{save}.damaged")).unwrap(), kept_save);
    let damaged2 = format!("{jp}.damaged.2");
    assert!(Path::new(&damaged2).exists());
    assert!(Path::new(&format!("{save}.damaged.2")).exists());
    assert!(second.contains(&damaged2), "names where it went: {second}");
    assert!(
        second.contains("left as they were") && second.contains(&damaged),
        "names what it kept: {second}"
    );
    // The second copy holds the damaged line.
    assert!(
        std::fs::read_to_string(&damaged2)
            .unwrap()
            .contains("{more garbage")
    );
}

/// A journal over 64 MiB (here: a run of zero bytes a crash left, written sparsely) is not a save
/// and is not lost: opening says so and what to do; recover reads it line by line and keeps the
/// actions on both sides of the long line.
#[test]
fn a_journal_over_64_mib_is_recovered_line_by_line() {
    use std::io::{Seek, SeekFrom, Write};
    let dir = tmp("recover", "huge");
    let (save, jp, words) = nine_notes(&dir);
    let l = lines(&jp);
    let head = l[..5].join("\n") + "\n";
    let tail = l[5..].join("\n") + "\n";
    {
        let mut f = std::fs::File::create(&jp).unwrap();
        f.write_all(head.as_bytes()).unwrap();
        let hole = 65 * 1024 * 1024;
        f.set_len(head.len() as u64 + hole).unwrap();
        f.seek(SeekFrom::End(0)).unwrap();
        f.write_all(b"\n").unwrap();
        f.write_all(tail.as_bytes()).unwrap();
    }
    assert!(std::fs::metadata(&jp).unwrap().len() > 64 * 1024 * 1024);
    let o = kepi(&["game", "show", &save]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("g.json.journal")
            && err.contains("journal is larger")
            && err.contains("recover"),
        "{err}"
    );
    assert!(!err.contains("kepi save"), "a journal is not a save: {err}");
    let out = ok(&["game", "recover", &save]);
    assert_eq!(notes(&save), words, "{out}");
    assert!(
        out.contains("line 6") && out.contains("longer than"),
        "{out}"
    );
    let kept = format!("{jp}.damaged");
    assert!(std::fs::metadata(&kept).unwrap().len() > 64 * 1024 * 1024);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A journal whose save is gone holds the game: `game new` of that name does not delete it (it
/// did), and recover rebuilds every action from it.
#[test]
fn a_new_game_never_deletes_a_journal_whose_save_is_gone() {
    let dir = tmp("recover", "orphan");
    let (save, jp, words) = nine_notes(&dir);
    std::fs::remove_file(&save).unwrap();
    let journal = std::fs::read(&jp).unwrap();
    let o = kepi(&["game", "new", "--scenario", "mars-la-tour", "--out", &save]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("g.json.journal") && err.contains("recover"),
        "{err}"
    );
    assert_eq!(std::fs::read(&jp).unwrap(), journal);
    assert!(!Path::new(&save).exists());
    ok(&["game", "recover", &save]);
    assert_eq!(notes(&save), words);
}
