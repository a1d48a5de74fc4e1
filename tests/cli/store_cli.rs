//! Saves that lose nothing, through the real binary: SIGKILL at random points, truncated saves,
//! edited logs, torn journal lines, recovery; and the CLI's JSON contract.

use std::path::Path;

use super::common::{kepi, new_game, notes, ok, show, tmp};
use std::process::{Command, Stdio};
use std::time::Duration;

fn unit<'a>(v: &'a serde_json::Value, id: &str) -> &'a serde_json::Value {
    v["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["id"] == id)
        .unwrap()
}

/// Issue 10: 100 random SIGKILL points during a stream of applied actions.
const KILL_ROUNDS: usize = 100;

/// A pipe for a child's stdout that holds only `room` more bytes (Linux): one page, filled with
/// newlines but for `room` bytes. A child that prints more than that blocks until the pipe is read,
/// so it can never finish a run on its own: a kill is sure to interrupt it, however fast or slow
/// the machine. Returns the read end, the write end for the child, and how many filler bytes.
#[cfg(target_os = "linux")]
fn pipe_with_room(room: usize) -> (std::io::PipeReader, std::io::PipeWriter, usize) {
    use std::io::Write;
    use std::os::fd::AsRawFd;
    let (reader, mut writer) = std::io::pipe().unwrap();
    let fd = writer.as_raw_fd();
    // SAFETY: fcntl on a pipe this function owns; the kernel rounds up to a page.
    let size = unsafe {
        libc::fcntl(fd, libc::F_SETPIPE_SZ, 4096);
        libc::fcntl(fd, libc::F_GETPIPE_SZ)
    };
    let size = usize::try_from(size).unwrap();
    let fill = size - room;
    writer.write_all(&vec![b'\n'; fill]).unwrap();
    (reader, writer, fill)
}

/// Bytes waiting in a pipe.
#[cfg(target_os = "linux")]
fn waiting(reader: &std::io::PipeReader) -> usize {
    use std::os::fd::AsRawFd;
    let mut n: libc::c_int = 0;
    // SAFETY: FIONREAD writes one int.
    unsafe { libc::ioctl(reader.as_raw_fd(), libc::FIONREAD, &mut n) };
    usize::try_from(n).unwrap_or(0)
}

#[test]
fn sigkill_at_random_points_loses_no_acknowledged_action() {
    let dir = tmp("store", "kill");
    let save = new_game(&dir, "pw-skirmish", "42");
    let mut rng: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = 0;
    let mut acked: Vec<String> = Vec::new();
    let (mut killed, mut mid_run, mut waited) = (0, 0, 0);
    let args_for = |next: usize| {
        let mut args: Vec<String> = vec!["game".into(), "apply".into(), save.clone()];
        for k in 0..12 {
            args.push("note".into());
            args.push(format!("n{}", next + k));
        }
        args
    };
    // The kill points are drawn over the time one whole run takes on this machine now (a loaded
    // CI machine runs much slower than a quiet one). Whether a kill interrupts a run does not hang
    // on that time, though: each child's stdout has room for only part of its lines (see
    // `pipe_with_room`), so no run can finish before its kill.
    let (span_ms, first_line, all_lines) = {
        let t0 = std::time::Instant::now();
        let out = Command::new(super::common::bin())
            .args(args_for(next))
            .output()
            .unwrap();
        next += 12;
        assert!(out.status.success(), "an uninterrupted run succeeds");
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        for line in text.lines() {
            if line.starts_with("ok ") {
                acked.push(line.rsplit("note: ").next().unwrap().to_string());
            }
        }
        let first = text.lines().next().map_or(0, |l| l.len() + 1);
        ((t0.elapsed().as_millis() as u64).max(20), first, text.len())
    };
    assert!(
        first_line > 0 && all_lines > 2 * first_line + 32,
        "{all_lines}"
    );
    for round in 0..KILL_ROUNDS {
        let args = args_for(next);
        next += 12;
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        // Room for the first line (later lines are a few bytes longer than the measured run's:
        // larger numbers) and more, never for all twelve.
        let least = first_line + 32;
        let room = least + (rng as usize) % (all_lines - least - 1);
        #[cfg(target_os = "linux")]
        let (mut reader, writer, fill) = pipe_with_room(room);
        #[cfg(target_os = "linux")]
        let stdout = Stdio::from(writer);
        #[cfg(not(target_os = "linux"))]
        let stdout = Stdio::piped();
        let mut child = Command::new(super::common::bin())
            .args(&args)
            .stdout(stdout)
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        // Every other round, the kill waits for the child's first acknowledged action (its line
        // in the pipe): that kill lands between two acknowledged actions, by construction.
        #[cfg(target_os = "linux")]
        if round % 2 == 0 {
            let t0 = std::time::Instant::now();
            while waiting(&reader) <= fill {
                assert!(
                    t0.elapsed() < Duration::from_secs(120),
                    "no action acknowledged in two minutes"
                );
                std::thread::sleep(Duration::from_millis(1));
            }
            waited += 1;
        } else {
            std::thread::sleep(Duration::from_millis(rng % (span_ms + span_ms / 2)));
        }
        #[cfg(not(target_os = "linux"))]
        std::thread::sleep(Duration::from_millis(rng % (span_ms + span_ms / 2)));
        let _ = child.kill(); // SIGKILL on unix
        let status = child.wait().unwrap();
        #[cfg(target_os = "linux")]
        let stdout = {
            use std::io::Read;
            let mut v = Vec::new();
            reader.read_to_end(&mut v).unwrap();
            v
        };
        #[cfg(not(target_os = "linux"))]
        let stdout = {
            use std::io::Read;
            let mut v = Vec::new();
            child.stdout.take().unwrap().read_to_end(&mut v).unwrap();
            v
        };
        if !status.success() {
            killed += 1;
        }
        let mut n = 0;
        for line in String::from_utf8_lossy(&stdout).lines() {
            if line.starts_with("ok ") {
                let text = line.rsplit("note: ").next().unwrap().to_string();
                acked.push(text);
                n += 1;
            }
        }
        if n > 0 && n < 12 {
            mid_run += 1;
        }
        let _ = round;
    }
    // Restart: everything acknowledged is there, in order, and the chain holds.
    let found = notes(&save);
    let mut pos = 0;
    for a in &acked {
        let at = found[pos..]
            .iter()
            .position(|n| n == a)
            .unwrap_or_else(|| panic!("acknowledged `{a}` lost; found {found:?}"));
        pos += at + 1;
    }
    assert!(!acked.is_empty(), "no action was acknowledged at all");
    eprintln!(
        "{killed} of {KILL_ROUNDS} runs killed, {mid_run} between two acknowledged actions ({waited} waited for); {} acknowledged, {} found",
        acked.len(),
        found.len()
    );
    #[cfg(target_os = "linux")]
    {
        // No run could finish on its own, and the waited-for kills each came after an
        // acknowledged action and before the last: whatever the machine's speed.
        assert_eq!(killed, KILL_ROUNDS, "every kill interrupts its run");
        assert!(
            mid_run >= waited && waited == KILL_ROUNDS / 2,
            "{mid_run} {waited}"
        );
    }
    ok(&["log", "verify", &save]);
    ok(&["log", "verify", &format!("{save}.journal")]);
    // Notes are unique: nothing replayed twice.
    let mut dedup = found.clone();
    dedup.sort();
    dedup.dedup();
    assert_eq!(dedup.len(), found.len());
}

#[test]
fn a_truncated_save_is_reported_and_never_overwritten() {
    let dir = tmp("store", "truncated");
    let save = new_game(&dir, "mars-la-tour", "42");
    ok(&["game", "apply", &save, "lose", "12th-grenadiers-1", "3"]);
    // The save is rewritten only every 256 actions (the journal holds the rest): bring it up to
    // date twice, so there is a previous save (.bak) and a current one.
    ok(&["game", "compact", &save]);
    ok(&["game", "apply", &save, "fatigue", "3rd-jaeger", "2"]);
    ok(&["game", "compact", &save]);
    let full = std::fs::read(&save).unwrap();
    let cut = &full[..full.len() / 2];
    std::fs::write(&save, cut).unwrap();
    let o = kepi(&["game", "show", &save]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("g.json:") && err.contains("EOF"), "{err}");
    assert!(err.contains("recover"), "the error says what to do: {err}");
    let o = kepi(&["game", "apply", &save, "note", "x"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        std::fs::read(&save).unwrap(),
        cut,
        "a bad save is never overwritten"
    );
    // The previous save survives and verifies.
    ok(&["log", "verify", &format!("{save}.bak")]);
    // Recovery rebuilds everything acknowledged.
    let out = ok(&["game", "recover", &save]);
    assert!(out.contains("journal"), "{out}");
    let v = show(&save);
    assert_eq!(unit(&v, "12th-grenadiers-1")["strength"], 17);
    assert_eq!(unit(&v, "3rd-jaeger")["fatigue"], 2);
    assert!(Path::new(&format!("{save}.damaged")).exists());
}

#[test]
fn an_edited_log_fails_verification() {
    let dir = tmp("store", "edited");
    let save = new_game(&dir, "mars-la-tour", "42");
    ok(&[
        "game",
        "apply",
        &save,
        "lose",
        "12th-grenadiers-1",
        "3",
        "roll",
        "d10",
        "note",
        "a",
    ]);
    ok(&["log", "verify", &save]);
    ok(&["game", "compact", &save]);
    let text = std::fs::read_to_string(&save).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    // Edit: 3 losses become 1.
    let mut e = v.clone();
    e["log"][1]["action"]["n"] = 1.into();
    std::fs::write(&save, serde_json::to_string(&e).unwrap()).unwrap();
    let o = kepi(&["log", "verify", &save]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("entry 1"));
    // Delete an entry.
    let mut d = v.clone();
    d["log"].as_array_mut().unwrap().remove(2);
    std::fs::write(&save, serde_json::to_string(&d).unwrap()).unwrap();
    let o = kepi(&["log", "verify", &save, "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["ok"], false);
    assert_eq!(j["broken_at"], 2);
    // Edit the state, not the log: the replay does not match.
    v["state"]["units"][0]["strength"] = 20.into();
    std::fs::write(&save, serde_json::to_string(&v).unwrap()).unwrap();
    let o = kepi(&["log", "verify", &save]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("does not match its log"));
    // Edit the journal.
    let jp = format!("{save}.journal");
    let j = std::fs::read_to_string(&jp)
        .unwrap()
        .replace("\"n\":3", "\"n\":2");
    std::fs::write(&jp, j).unwrap();
    let o = kepi(&["log", "verify", &jp]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("entry 1"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn the_journal_recovers_what_the_save_missed_and_torn_lines_are_ignored() {
    let dir = tmp("store", "journal");
    let save = new_game(&dir, "mars-la-tour", "42");
    ok(&["game", "apply", &save, "note", "one"]);
    let old = std::fs::read(&save).unwrap();
    ok(&["game", "apply", &save, "lose", "8e-ligne-1", "4"]);
    // A crash after the journal write, before the save: put the old save back.
    std::fs::write(&save, &old).unwrap();
    let o = kepi(&["game", "show", &save, "--json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(unit(&v, "8e-ligne-1")["strength"], 18);
    // A torn last line: warned about, ignored, and cut off before the next append.
    let jp = format!("{save}.journal");
    let mut j = std::fs::read(&jp).unwrap();
    j.extend_from_slice(b"{\"entry\":{\"index\":9");
    std::fs::write(&jp, &j).unwrap();
    let o = kepi(&["game", "apply", &save, "note", "two"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("ignored"));
    ok(&["log", "verify", &jp]);
    assert_eq!(notes(&save), vec!["one", "two"]);
    // A damaged line in the middle is an error naming the line.
    let text = std::fs::read_to_string(&jp).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[2] = "{garbage";
    std::fs::write(&jp, lines.join("\n") + "\n").unwrap();
    let o = kepi(&["game", "show", &save]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("g.json.journal:3"), "{err}");
}

#[test]
fn newer_saves_are_refused_clearly() {
    let dir = tmp("store", "newer");
    let save = new_game(&dir, "pw-skirmish", "42");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    v["version"] = 7.into();
    std::fs::write(&save, serde_json::to_string(&v).unwrap()).unwrap();
    let o = kepi(&["game", "show", &save]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("newer"));
}

#[test]
fn cli_contract() {
    let list: serde_json::Value = serde_json::from_str(&ok(&["scenarios", "--json"])).unwrap();
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 5);
    for s in list {
        for k in ["name", "system", "title", "units"] {
            assert!(s.get(k).is_some(), "{k} in {s}");
        }
        assert!(["pk", "pw", "gsp", "spi", "fr1870"].contains(&s["system"].as_str().unwrap()));
    }
    let dir = tmp("store", "contract");
    let save = new_game(&dir, "pw-skirmish", "42");
    let o = kepi(&["game", "new", "--scenario", "pw-skirmish", "--out", &save]);
    assert_eq!(o.status.code(), Some(1), "never overwrites a game");
    let v = show(&save);
    assert_eq!(v["system"], "pw");
    assert_eq!(v["turn"], 1);
    assert!(v["phase"].as_str().unwrap().contains("artillery fire"));
    let u = unit(&v, "fr-inf-1");
    for k in ["id", "name", "side", "strength"] {
        assert!(u.get(k).is_some(), "{k}");
    }
    assert_eq!(u["hex"], "0503");
    let out = ok(&[
        "game",
        "apply",
        &save,
        "--json",
        "move",
        "fr-inf-1",
        "0603",
        "face",
        "fr-inf-1",
        "ne",
        "set",
        "fr-inf-1",
        "strength",
        "3",
        "flag",
        "de-art",
        "fired",
        "on",
        "next-phase",
    ]);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 5);
    assert_eq!(lines[0]["ok"], true);
    let v = show(&save);
    let u = unit(&v, "fr-inf-1");
    assert_eq!(
        (
            u["hex"].as_str(),
            u["facing"].as_str(),
            u["strength"].as_u64()
        ),
        (Some("0603"), Some("ne"), Some(3))
    );
    // Addressed by exact name too.
    ok(&[
        "game",
        "apply",
        &save,
        "lose",
        "1er bataillon, 93e de ligne",
        "1",
    ]);
    // Bad input: exit 2 and nothing applied.
    let before = std::fs::read(&save).unwrap();
    for bad in [
        vec![
            "game", "apply", &save, "note", "fine", "lose", "nobody", "1",
        ],
        vec!["game", "apply", &save, "lose", "fr-inf-1", "many"],
        vec!["game", "apply", &save, "dance"],
        vec!["game", "apply", &save, "flag", "fr-inf-1", "sleepy", "on"],
        vec!["game", "apply", &save, "move", "fr-inf-1", "12345"],
    ] {
        let o = kepi(&bad);
        assert_eq!(
            o.status.code(),
            Some(2),
            "{bad:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    assert_eq!(std::fs::read(&save).unwrap(), before);
    // A refused action: exit 2, the verbs before it stay applied (they were acknowledged).
    let o = kepi(&[
        "game", "apply", &save, "note", "kept", "lose", "fr-inf-1", "9",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stdout).contains("note: kept"));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot lose 9"));
    assert_eq!(notes(&save), vec!["kept"]);
    let o = kepi(&[
        "game",
        "new",
        "--scenario",
        "waterloo",
        "--out",
        &format!("{save}.2"),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("mars-la-tour"));
    // Help documents the verbs.
    let help = ok(&["game", "apply", "--help"]);
    for verb in [
        "lose UNIT N",
        "next-phase",
        "undo",
        "redo",
        "roll EXPR",
        "note TEXT",
    ] {
        assert!(help.contains(verb), "{verb}");
    }
}

#[test]
fn reveal_shows_the_seed_and_checks_every_die() {
    let dir = tmp("store", "reveal");
    let save = new_game(&dir, "st-privat", "42");
    let created: serde_json::Value = show(&save);
    ok(&[
        "game", "apply", &save, "roll", "2d6", "roll", "d%", "undo", "roll", "d6",
    ]);
    let out = ok(&["game", "reveal", &save, "--json"]);
    let r: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["seed"], 42);
    assert_eq!(r["commitment"], created["commitment"]);
    assert_eq!(r["dice_checked"], 4);
    let v = ok(&["log", "verify", &save]);
    assert!(v.contains("seed revealed, 4 seeded dice match"), "{v}");
    ok(&["game", "compact", &save]);
    // A logged die changed after the fact, with the chain re-hashed by a forger, still fails:
    // the dice do not come from the committed seed.
    let text = std::fs::read_to_string(&save).unwrap();
    let mut s: serde_json::Value = serde_json::from_str(&text).unwrap();
    let dice = &mut s["log"][1]["action"]["dice"][0]["value"];
    let v0 = dice.as_u64().unwrap();
    *dice = (v0 % 6 + 1).into();
    // The forger edits the dice the log shows too (else that difference gives them away first).
    s["log"][1]["dice"][0]["value"] = (v0 % 6 + 1).into();
    let log: Vec<kepi::game::LogEntry> = serde_json::from_value(s["log"].clone()).unwrap();
    let mut prev = kepi::game::GENESIS.to_string();
    let mut fixed = Vec::new();
    for mut e in log {
        e.prev = prev.clone();
        e.hash = kepi::game::entry_hash(&e);
        prev = e.hash.clone();
        fixed.push(e);
    }
    s["log"] = serde_json::to_value(&fixed).unwrap();
    std::fs::write(&save, serde_json::to_string(&s).unwrap()).unwrap();
    let o = kepi(&["log", "verify", &save]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("seed gives"));
}

#[test]
fn cards_check_locates_errors_and_keeps_images_inside() {
    let dir = tmp("store", "cards");
    ok(&[
        "cards",
        "check",
        concat!(env!("CARGO_MANIFEST_DIR"), "/unit-cards"),
    ]);
    std::fs::write(
        dir.join("bad.toml"),
        "system = \"pw\"\n[[unit]]\nname = \"A\"\nside = \"french\"\narm = \"infantry\"\nquality = \"veteran\"\nstrength = 4\n",
    )
    .unwrap();
    let o = kepi(&["cards", "check", dir.join("bad.toml").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("bad.toml:6:"), "{err}");
    assert!(
        err.contains("unit[0].quality") && err.contains("elite, normal, poor"),
        "{err}"
    );
    std::fs::remove_file(dir.join("bad.toml")).unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("/etc/hostname", dir.join("evil.png")).unwrap();
        std::fs::write(
            dir.join("img.toml"),
            "[[unit]]\nname = \"A\"\nside = \"french\"\narm = \"infantry\"\nstrength = 4\nimage = \"evil.png\"\n",
        )
        .unwrap();
        let o = kepi(&["cards", "check", dir.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&o.stderr).contains("outside the cards folder"));
    }
}

#[test]
fn a_game_open_elsewhere_is_not_written_to() {
    let dir = tmp("store", "lock");
    let save = new_game(&dir, "pw-skirmish", "42");
    let held = kepi::store::Store::open(Path::new(&save)).unwrap();
    let o = kepi(&["game", "apply", &save, "note", "x"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("another kepi"));
    drop(held);
    ok(&["game", "apply", &save, "note", "x"]);
    let help = ok(&["game", "--help"]);
    assert!(help.contains("next-phase"), "{help}");
}
