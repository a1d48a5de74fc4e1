//! Files from outside are hostile (issue 18, classes 1 and 2): tables, cards, saves and exports never
//! read a device or FIFO, never hang, never fall back silently past a dangling link, and never write
//! through a link or over a device; a game folder's journal and lock are never links.

use super::common::{mlt_game, run, tmp};

use std::path::Path;
use std::process::Command;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use kepi::store::Store;

fn symlink(target: impl AsRef<Path>, link: &Path) {
    std::os::unix::fs::symlink(target, link).unwrap();
}

fn mkfifo(p: &Path) {
    let ok = Command::new("mkfifo").arg(p).status().unwrap().success();
    assert!(ok, "mkfifo {}", p.display());
}

fn is_fifo(p: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::symlink_metadata(p).unwrap().file_type().is_fifo()
}

fn is_link(p: &Path) -> bool {
    std::fs::symlink_metadata(p)
        .unwrap()
        .file_type()
        .is_symlink()
}

/// Runs `f` on another thread and fails the test if it has not returned within `secs`.
fn within<T: Send + 'static>(secs: u64, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(secs))
        .expect("a hostile file made kepi hang")
}

/// Resident memory of this process in KiB (Linux), 0 when unknown.
fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

#[test]
fn a_table_linked_to_dev_zero_is_refused_quickly() {
    let d = tmp("hostile", "zero");
    symlink("/dev/zero", &d.join("pk.toml"));
    let before = rss_kib();
    let start = Instant::now();
    let dir = d.clone();
    let e = within(20, move || kepi::registry::load_tables(Some(&dir))).unwrap_err();
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    // Generous: other tests share this process; reading /dev/zero would grow by gigabytes.
    assert!(rss_kib().saturating_sub(before) < 256 * 1024, "memory grew");
    assert!(e.file.ends_with("pk.toml"), "{e}");
    assert!(e.message.contains("character device"), "{e}");
}

#[test]
fn a_fifo_table_is_refused_without_hanging() {
    let d = tmp("hostile", "fifo");
    mkfifo(&d.join("gsp.toml"));
    let dir = d.clone();
    let e = within(20, move || kepi::registry::load_tables(Some(&dir))).unwrap_err();
    assert!(e.file.ends_with("gsp.toml"), "{e}");
    assert!(e.message.contains("FIFO"), "{e}");
    // `kepi tables check` too, through the binary.
    let dir = d.display().to_string();
    let (code, _, err) = within(20, move || run(&["tables", "check", &dir]));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("gsp.toml") && err.contains("FIFO"), "{err}");
}

#[test]
fn a_folder_named_like_a_table_is_refused() {
    let d = tmp("hostile", "folder");
    std::fs::create_dir(d.join("pw.toml")).unwrap();
    let e = kepi::registry::load_tables(Some(&d)).unwrap_err();
    assert!(e.file.ends_with("pw.toml"), "{e}");
    assert!(e.message.contains("folder"), "{e}");
}

#[test]
fn a_dangling_table_link_is_an_error_not_the_builtin() {
    let d = tmp("hostile", "dangling");
    symlink(d.join("nowhere.toml"), &d.join("spi.toml"));
    let e = kepi::registry::load_tables(Some(&d)).unwrap_err();
    assert!(e.file.ends_with("spi.toml"), "{e}");
    assert!(e.message.contains("symbolic link"), "{e}");
    assert!(kepi::registry::check_tables(Some(&d)).is_err());
}

#[test]
fn a_linked_regular_table_is_read_and_a_linked_secret_is_not_echoed() {
    let d = tmp("hostile", "linked");
    let real = d.join("real-pk.toml");
    let pk = kepi::registry::table_files()[0].builtin;
    std::fs::write(&real, pk).unwrap();
    let tables = d.join("tables");
    std::fs::create_dir(&tables).unwrap();
    symlink(&real, &tables.join("pk.toml"));
    kepi::registry::load_tables(Some(&tables)).unwrap();
    let report = kepi::registry::check_tables(Some(&tables)).unwrap();
    assert!(report[0].from_folder);
    // A device's content is never read, so no error can quote it.
    let other = tmp("hostile", "linked-dev");
    symlink("/dev/urandom", &other.join("pk.toml"));
    let e = kepi::registry::load_tables(Some(&other)).unwrap_err();
    assert_eq!(e.line, 0, "{e}");
    assert!(e.message.contains("character device"), "{e}");
}

#[test]
fn a_missing_or_file_tables_dir_is_refused() {
    let d = tmp("hostile", "missing");
    let missing = d.join("no-such-tables");
    let e = kepi::registry::load_tables(Some(&missing)).unwrap_err();
    assert!(e.to_string().contains("no-such-tables"), "{e}");
    let file = d.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let e = kepi::registry::load_tables(Some(&file)).unwrap_err();
    assert!(e.to_string().contains("not a folder"), "{e}");

    let m = missing.display().to_string();
    let (code, _, err) = run(&["tables", "check", &m]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no-such-tables"), "{err}");
    let (code, _, err) = run(&[
        "resolve",
        "pk",
        "melee",
        "--figures",
        "10",
        "--class",
        "veteran",
        "--d10",
        "5",
        "--dpct",
        "20",
        "--tables",
        &m,
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no-such-tables"), "{err}");
    let (code, _, err) = run(&["tables", "check", "--tables", &m]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no-such-tables"), "{err}");
}

#[test]
fn card_files_that_are_devices_fifos_or_dangling_are_named() {
    let d = tmp("hostile", "cards");
    symlink("/dev/zero", &d.join("zero.toml"));
    let e = kepi::roster::load_roster_file(&d.join("zero.toml")).unwrap_err();
    assert!(e.to_string().contains("zero.toml"), "{e}");
    assert!(e.to_string().contains("character device"), "{e}");
    let f = tmp("hostile", "cards-fifo");
    mkfifo(&f.join("side.toml"));
    let dir = f.clone();
    let e = within(20, move || kepi::roster::check_path(&dir)).unwrap_err();
    assert!(e.to_string().contains("side.toml"), "{e}");
    assert!(e.to_string().contains("FIFO"), "{e}");
    let g = tmp("hostile", "cards-dangling");
    symlink(g.join("gone.toml"), &g.join("a.toml"));
    let e = kepi::roster::check_path(&g).unwrap_err();
    assert!(e.to_string().contains("a.toml"), "{e}");
}

#[test]
fn exports_refuse_links_fifos_and_devices_and_leave_them_as_they_are() {
    let d = tmp("hostile", "export");
    let real = d.join("real.csv");
    std::fs::write(&real, "old").unwrap();
    let link = d.join("link.csv");
    symlink(&real, &link);
    let e = kepi::export::write_atomic(&link, b"new").unwrap_err();
    assert!(e.to_string().contains("symbolic link"), "{e}");
    assert!(is_link(&link));
    assert_eq!(std::fs::read(&real).unwrap(), b"old");

    let fifo = d.join("pipe.csv");
    mkfifo(&fifo);
    let p = fifo.clone();
    let e = within(20, move || kepi::export::write_atomic(&p, b"new")).unwrap_err();
    assert!(e.to_string().contains("FIFO"), "{e}");
    assert!(is_fifo(&fifo));

    let null = Path::new("/dev/null");
    let e = kepi::export::write_atomic(null, b"new").unwrap_err();
    assert!(e.to_string().contains("device"), "{e}");
    {
        use std::os::unix::fs::FileTypeExt;
        let ft = std::fs::symlink_metadata(null).unwrap().file_type();
        assert!(ft.is_char_device(), "/dev/null is no longer a device");
    }

    // The binary says so and exits 2, naming the target.
    let l = link.display().to_string();
    let (code, _, err) = run(&["export", "csv", "--scenario", "mars-la-tour", "--units", &l]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("link.csv"), "{err}");
    assert!(is_link(&link));
    assert_eq!(std::fs::read(&real).unwrap(), b"old");
    // No temp is left behind by the refusals.
    let temps: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| n.contains("kepi-tmp"))
        .collect();
    assert!(temps.is_empty(), "{temps:?}");
}

#[test]
fn stale_export_temps_are_removed_before_an_export_write() {
    let d = tmp("hostile", "export-stale");
    let out = d.join("units.csv");
    let stale = d.join(".units.csv.kepi-tmp-2000000000-3");
    std::fs::write(&stale, "half").unwrap();
    kepi::export::write_atomic(&out, b"a,b\n").unwrap();
    assert!(!stale.exists());
    assert_eq!(std::fs::read(&out).unwrap(), b"a,b\n");
}

#[test]
fn tables_dump_refuses_a_dangling_link() {
    let d = tmp("hostile", "dump");
    let outside = tmp("hostile", "dump-outside").join("pk.toml");
    symlink(&outside, &d.join("pk.toml"));
    let dir = d.display().to_string();
    let (code, _, err) = run(&["tables", "dump", &dir]);
    assert_ne!(code, 0, "{err}");
    assert!(
        err.contains("pk.toml") && err.contains("symbolic link"),
        "{err}"
    );
    assert!(!outside.exists(), "dump wrote through the link");
    assert!(is_link(&d.join("pk.toml")));
}

#[test]
fn a_dangling_journal_link_is_refused_at_create_and_open() {
    // At creation: the seed line would land outside the folder.
    let d = tmp("hostile", "journal-new");
    let outside = tmp("hostile", "journal-outside").join("stolen.journal");
    let save = d.join("g.json");
    symlink(&outside, &d.join("g.json.journal"));
    let e = Store::create(&save, &mlt_game(7)).unwrap_err();
    assert!(e.to_string().contains("symbolic link"), "{e}");
    assert!(!outside.exists(), "the journal went outside the folder");

    // At open: a game whose journal was swapped for a link.
    let d = tmp("hostile", "journal-open");
    let save = d.join("g.json");
    drop(Store::create(&save, &mlt_game(7)).unwrap());
    let jp = d.join("g.json.journal");
    std::fs::remove_file(&jp).unwrap();
    symlink(&outside, &jp);
    let e = Store::open(&save).unwrap_err();
    assert!(e.to_string().contains("g.json.journal"), "{e}");
    assert!(e.to_string().contains("symbolic link"), "{e}");
    assert!(!outside.exists());
}

#[test]
fn a_linked_lock_or_backup_is_refused() {
    let d = tmp("hostile", "lock-link");
    let outside = tmp("hostile", "lock-outside").join("x.lock");
    symlink(&outside, &d.join("g.json.lock"));
    let e = Store::create(&d.join("g.json"), &mlt_game(7)).unwrap_err();
    assert!(e.to_string().contains("g.json.lock"), "{e}");
    assert!(!outside.exists());

    let d = tmp("hostile", "bak-link");
    let save = d.join("g.json");
    drop(Store::create(&save, &mlt_game(7)).unwrap());
    let outside = tmp("hostile", "bak-outside").join("x.bak");
    symlink(&outside, &d.join("g.json.bak"));
    let mut opened = Store::open(&save).unwrap();
    opened
        .game
        .act(
            kepi::game::Action::Note { text: "x".into() },
            chrono::Utc::now(),
        )
        .unwrap();
    // Rewriting the save keeps the old one as .bak: never through the link.
    let e = opened.store.compact(&opened.game).unwrap_err();
    assert!(e.to_string().contains("g.json.bak"), "{e}");
    assert!(!outside.exists());
}

#[test]
fn a_symlinked_save_is_one_game_with_one_lock() {
    let d = tmp("hostile", "save-link");
    let real = d.join("real.json");
    drop(Store::create(&real, &mlt_game(7)).unwrap());
    let other = tmp("hostile", "save-link-other");
    let link = other.join("via-link.json");
    symlink(&real, &link);

    let held = Store::open(&real).unwrap();
    let e = Store::open(&link).unwrap_err();
    assert!(e.to_string().contains("open in another kepi"), "{e}");
    drop(held);

    let opened = Store::open(&link).unwrap();
    assert_eq!(opened.store.path(), std::fs::canonicalize(&real).unwrap());
    drop(opened);
    // Nothing of the game was forked beside the link.
    for ext in ["journal", "lock", "bak"] {
        assert!(
            !other.join(format!("via-link.json.{ext}")).exists(),
            "{ext}"
        );
    }
    assert!(is_link(&link));
}

#[test]
fn stale_temps_are_removed_at_the_next_open() {
    let d = tmp("hostile", "stale");
    let save = d.join("g.json");
    drop(Store::create(&save, &mlt_game(7)).unwrap());
    let stale = d.join(".g.json.kepi-tmp-2000000000-0");
    std::fs::write(&stale, "half a save").unwrap();
    let other = d.join(".other.json.kepi-tmp-2000000000-0");
    std::fs::write(&other, "not ours").unwrap();
    drop(Store::open(&save).unwrap());
    assert!(!stale.exists(), "stale temp left");
    assert!(other.exists(), "another file's temp was touched");
}
