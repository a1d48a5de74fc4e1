//! Issue 44: a player seat's every answer, refusals included, is the same whatever is hidden
//! from it. For each of the five rule sets, two games identical but for the hidden values of
//! the other side's units (a strength) are served by the host with hidden strengths; the same
//! requests from the same player seat (resolutions with and without `--result`, refused ones,
//! the umpire's verbs, the other side's units) get byte-identical answers at both tables, once
//! the time of each entry and the seat chain's hashes (keyed by the host's secret, which
//! commit to the hidden entries and so differ by design) are set aside. No answer to a refused
//! request shows the die the next roll then shows: a refused request rolls nothing, and a
//! resolution the rules cannot finish for the seat spends its dice in the log, for the umpire.
//!
//! The games are set up with the real binary; each table is the library's host, in this
//! process, on 127.0.0.1 with a port the OS picks; every read is bounded.

use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::time::Duration;

use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

use super::common::{TestHost, ok, parse, strength};

const T: Duration = Duration::from_secs(20);

/// A host serving one save, hiding strengths from player seats, on its own thread.
struct Table {
    host: TestHost,
}

impl Table {
    fn serve(save: &Path, approve: bool) -> Table {
        Table {
            host: TestHost::serve(save, 0, true, true, approve),
        }
    }

    fn code(&self, seat: &str) -> String {
        self.host.code(seat.parse().expect("seat"))
    }

    /// A connection of `seat` that follows the log from its start: everything it receives
    /// until its catch-up's view, as raw text.
    fn join(&self, seat: &str) -> (WebSocket<MaybeTlsStream<TcpStream>>, Vec<String>) {
        let (mut ws, _) = tungstenite::connect(self.host.address.as_str()).expect("connect");
        if let MaybeTlsStream::Plain(s) = ws.get_mut() {
            s.set_read_timeout(Some(T)).expect("timeout");
        }
        let hello = serde_json::json!({
            "type": "hello",
            "protocol": kepi::net::PROTOCOL_VERSION,
            "code": self.code(seat),
            "from": 0
        });
        ws.send(Message::text(hello.to_string())).expect("hello");
        let mut got = Vec::new();
        loop {
            let t = read(&mut ws);
            let v = parse(&t);
            got.push(t);
            if v["type"] == "error" || !v["view"].is_null() {
                break;
            }
        }
        (ws, got)
    }

    /// A one-off connection of `seat` that follows no log: its welcome read.
    fn join_quiet(&self, seat: &str) -> WebSocket<MaybeTlsStream<TcpStream>> {
        let (mut ws, _) = tungstenite::connect(self.host.address.as_str()).expect("connect");
        if let MaybeTlsStream::Plain(s) = ws.get_mut() {
            s.set_read_timeout(Some(T)).expect("timeout");
        }
        let hello = serde_json::json!({
            "type": "hello",
            "protocol": kepi::net::PROTOCOL_VERSION,
            "code": self.code(seat),
        });
        ws.send(Message::text(hello.to_string())).expect("hello");
        assert_eq!(parse(&read(&mut ws))["type"], "welcome");
        ws
    }

    /// Stops the host (the save caught up).
    fn stop(self) {
        drop(self.host);
    }
}

fn read(ws: &mut WebSocket<MaybeTlsStream<TcpStream>>) -> String {
    loop {
        match ws.read().expect("a message within the timeout") {
            Message::Text(t) => return t.to_string(),
            Message::Close(_) => panic!("the host closed the connection"),
            _ => {}
        }
    }
}

/// Sends one request and returns every message received until its answer, the answer last.
fn ask(ws: &mut WebSocket<MaybeTlsStream<TcpStream>>, id: u64, words: &[&str]) -> Vec<String> {
    let m = serde_json::json!({"type": "apply", "id": id, "words": words});
    ws.send(Message::text(m.to_string())).expect("send");
    let mut got = Vec::new();
    loop {
        let t = read(ws);
        let v = parse(&t);
        let done = v["id"] == id && (v["type"] == "applied" || v["type"] == "held");
        got.push(t);
        if done {
            return got;
        }
    }
}

/// A message with what differs between two tables by design and says nothing of the hidden
/// values set aside: each entry's time (the host's clock) and the seat chain's hashes (keyed by
/// each host's own secret). Everything else stays, byte for byte.
fn comparable(text: &str) -> String {
    fn walk(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(o) => {
                for (k, x) in o.iter_mut() {
                    if matches!(k.as_str(), "time" | "hash" | "prev" | "head") && x.is_string() {
                        *x = serde_json::Value::String(format!("<{k}>"));
                    } else {
                        walk(x);
                    }
                }
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(walk),
            _ => {}
        }
    }
    let mut v = parse(text);
    walk(&mut v);
    v.to_string()
}

/// One rule set's pair of tables.
struct Case {
    name: &'static str,
    scenario: &'static str,
    /// The umpire's set-up, the same at both tables.
    setup: &'static [&'static str],
    /// The unit whose strength differs, and its strength at each table.
    hidden: &'static str,
    strengths: (u32, u32),
    /// The player seat asking.
    seat: &'static str,
    /// Its requests, in order.
    requests: &'static [&'static [&'static str]],
    /// Whether the umpire approves players' resolutions (each is held, then approved).
    approve: bool,
    /// How many of them the rules could not finish (a chart cell kepi does not know): each is
    /// logged for the umpire with its dice spent, and answered as any other resolution.
    handed_over: usize,
}

/// Copies a save and its journal under another name (the same seed, salt and log).
fn copy_save(from: &Path, to: &Path) {
    std::fs::copy(from, to).expect("copy the save");
    let journal = |p: &Path| PathBuf::from(format!("{}.journal", p.display()));
    if journal(from).exists() {
        std::fs::copy(journal(from), journal(to)).expect("copy the journal");
    }
}

/// The log of a save as `kepi log show --json` prints it.
fn log(save: &str) -> Vec<serde_json::Value> {
    parse(&ok(&["log", "show", save, "--json"]))
        .as_array()
        .expect("a log")
        .clone()
}

/// The dice values an entry carries (its rolls, as the log shows them).
fn dice_of(e: &serde_json::Value) -> Vec<(String, u64)> {
    e["dice"]
        .as_array()
        .map(|d| {
            d.iter()
                .filter_map(|r| Some((r["die"].as_str()?.to_string(), r["value"].as_u64()?)))
                .collect()
        })
        .unwrap_or_default()
}

/// What one table said to the seat: everything received, and per request its messages and the
/// log's length before it.
struct Heard {
    joined: Vec<String>,
    answers: Vec<(Vec<String>, usize)>,
}

fn run(c: &Case) {
    let dir = super::common::tmp("hidden-answers", c.name);
    let a = dir.join("a.json");
    let b = dir.join("b.json");
    let (sa, sb) = (a.display().to_string(), b.display().to_string());
    ok(&[
        "game",
        "new",
        "--scenario",
        c.scenario,
        "--out",
        &sa,
        "--seed",
        "3",
    ]);
    if !c.setup.is_empty() {
        let mut w = vec!["game", "apply", sa.as_str()];
        w.extend_from_slice(c.setup);
        ok(&w);
    }
    copy_save(&a, &b);
    // The two tables differ in one hidden value only, set the same way (one entry each).
    for (save, n) in [(&sa, c.strengths.0), (&sb, c.strengths.1)] {
        let n = n.to_string();
        ok(&["game", "apply", save, "set", c.hidden, "strength", &n]);
    }
    assert_eq!(strength(&sa, c.hidden), u64::from(c.strengths.0));
    assert_eq!(strength(&sb, c.hidden), u64::from(c.strengths.1));
    let before = log(&sa).len();

    let mut heard = Vec::new();
    for save in [&a, &b] {
        let table = Table::serve(save, c.approve);
        let (mut ws, joined) = table.join(c.seat);
        let mut umpire = table.join_quiet("umpire");
        let mut len = before;
        let mut answers = Vec::new();
        for (k, words) in c.requests.iter().enumerate() {
            let id = k as u64 + 1;
            let mut got = ask(&mut ws, id, words);
            let last = parse(got.last().expect("an answer"));
            if last["type"] == "held" {
                // The umpire approves it; the seat is sent the entries and the decision.
                let decide = serde_json::json!({
                    "type": "decide", "id": id, "request": last["request"], "approve": true
                });
                umpire
                    .send(Message::text(decide.to_string()))
                    .expect("decide");
                while parse(&read(&mut umpire))["id"] != id {}
                loop {
                    let t = read(&mut ws);
                    let done = parse(&t)["type"] == "decided";
                    got.push(t);
                    if done {
                        break;
                    }
                }
            }
            let made: usize = got
                .iter()
                .map(|t| {
                    let v = parse(t);
                    match v["type"].as_str() {
                        Some("applied" | "decided") => v["seen"].as_array().map_or(0, Vec::len),
                        Some("seen") => v["entries"].as_array().map_or(0, Vec::len),
                        _ => 0,
                    }
                })
                .sum();
            answers.push((got, len));
            len += made;
        }
        drop(umpire);
        drop(ws);
        table.stop();
        heard.push(Heard { joined, answers });
    }
    let (x, y) = (&heard[0], &heard[1]);

    // Everything the seat received, at both tables.
    let differs = |p: &[String], q: &[String]| -> Option<String> {
        let p: Vec<String> = p.iter().map(|t| comparable(t)).collect();
        let q: Vec<String> = q.iter().map(|t| comparable(t)).collect();
        (p != q).then(|| {
            let (p, q) = (p.join("\n"), q.join("\n"));
            let at = p
                .bytes()
                .zip(q.bytes())
                .position(|(x, y)| x != y)
                .unwrap_or(p.len().min(q.len()));
            let near =
                |t: &str| -> String { t.chars().skip(at.saturating_sub(300)).take(600).collect() };
            format!(
                "\n  at {}: ...{}...\n  at {}: ...{}...",
                c.strengths.0,
                near(&p),
                c.strengths.1,
                near(&q)
            )
        })
    };
    if let Some(d) = differs(&x.joined, &y.joined) {
        panic!("{}: the joining differs:{d}", c.name);
    }
    let mut refused = 0;
    let mut made = 0;
    for (k, words) in c.requests.iter().enumerate() {
        let (p, q) = (&x.answers[k].0, &y.answers[k].0);
        if let Some(d) = differs(p, q) {
            panic!("{}: the answer to {words:?} differs:{d}", c.name);
        }
        let last = parse(p.last().expect("an answer"));
        if last["refused"].is_null() {
            made += 1;
        } else {
            refused += 1;
        }
    }
    assert!(refused >= 3, "{}: {refused} refusals", c.name);
    assert!(made >= 1, "{}: {made} requests made", c.name);

    // No answer to a refused request shows the die the next roll then shows, nor any die or
    // chart cell at all: a refusal rolls nothing.
    for (save, h) in [(&sa, x), (&sb, y)] {
        let entries = log(save);
        for (k, words) in c.requests.iter().enumerate() {
            let (got, len) = &h.answers[k];
            let answer = got.last().expect("an answer");
            let v = parse(answer);
            if v["refused"].is_null() {
                continue;
            }
            // Refused at once, or when the umpire approved it: nothing was applied either way.
            let told = v["refused"]["message"].as_str().unwrap_or_default();
            assert!(
                !told.contains("die shows") && !told.contains("does not know the"),
                "{}: {words:?} was told {told}",
                c.name
            );
            let next = entries.iter().skip(*len).find(|e| !dice_of(e).is_empty());
            if let Some(e) = next {
                for (die, value) in dice_of(e) {
                    assert!(
                        !told.contains(&format!("{die}={value}")),
                        "{}: the refusal of {words:?} shows {die}={value}, the next roll's: {told}",
                        c.name
                    );
                }
            }
        }
        let not_applied: Vec<&serde_json::Value> = entries
            .iter()
            .filter(|e| e["action"]["resolution"]["action"] == "not_applied")
            .collect();
        assert_eq!(not_applied.len(), c.handed_over, "{}: {save}", c.name);
        for e in not_applied {
            assert!(!dice_of(e).is_empty(), "{}: {e}", c.name);
            assert!(
                e["summary"]
                    .as_str()
                    .is_some_and(|s| s.contains("--dice d6=")),
                "{}: the umpire is told how to make it again: {e}",
                c.name
            );
        }
        // The dice a resolution rolled are spent, refused or not: kepi's position only moves on.
        let mut draws = 0;
        for e in entries.iter().skip(before) {
            if let Some(d) = e["action"]["draws"].as_u64() {
                let seeded = e["dice"]
                    .as_array()
                    .is_some_and(|d| d.iter().any(|r| r["source"] == "seeded"));
                assert!(
                    !seeded || d > draws,
                    "{}: entry {} rolled kepi's dice without spending them",
                    c.name,
                    e["index"]
                );
                draws = draws.max(d);
            }
        }
    }
}

const PK_G: &str = "12th-grenadiers-1";
const PK_F: &str = "55e-ligne-1";

#[test]
fn pk_a_seats_answers_are_the_same_whatever_the_hidden_strength() {
    run(&Case {
        name: "pk",
        scenario: "mars-la-tour",
        setup: &[],
        hidden: PK_F,
        strengths: (21, 13),
        seat: "german",
        requests: &[
            &["fire", PK_G, PK_F],
            &["fire", PK_G, PK_F, "--target-figures", "13"],
            &["melee", PK_G, PK_F, "--target-figures", "21"],
            &["fire", PK_G, "12th-grenadiers-2"],
            &["lose", PK_F, "1"],
            &["fire", PK_F, PK_G],
            &["artillery", "far3-light-1", PK_F, "--range", "10"],
            &["fire", PK_G, PK_F, "--dice", "d10=7"],
            &["rally", PK_G],
        ],
        approve: false,
        handed_over: 0,
    });
}

#[test]
fn pw_a_seats_answers_are_the_same_whatever_the_hidden_strength() {
    run(&Case {
        name: "pw",
        scenario: "pw-skirmish",
        setup: &[],
        hidden: "fr-inf-3",
        strengths: (4, 3),
        seat: "german",
        requests: &[
            &["artillery", "de-art", "fr-inf-3"],
            &["rifle", "de-inf-2", "fr-inf-3"],
            &["rifle", "de-inf-2", "fr-inf-3", "--sp", "9"],
            &["melee", "de-inf-3", "fr-inf-3"],
            &["rifle", "fr-inf-3", "de-inf-2"],
            &["lose", "fr-inf-3", "1"],
            &["activate", "de-inf-1"],
            &["next-phase"],
        ],
        approve: false,
        handed_over: 0,
    });
}

#[test]
fn gsp_a_seats_answers_are_the_same_whatever_the_hidden_strength() {
    run(&Case {
        name: "gsp",
        scenario: "st-privat",
        setup: &[],
        hidden: "9e-ligne-1",
        strengths: (14, 3),
        seat: "german",
        requests: &[
            &["fire", "gfar-light-1", "9e-ligne-1", "--sector", "1"],
            &["fire", "gfar-light-1", "9e-ligne-1"],
            &["fire", "9e-ligne-1", "gfar-light-1"],
            &["lose", "9e-ligne-1", "1"],
            &["undo"],
            &["fire", "gfar-heavy-1", "9e-ligne-1", "--sector", "2"],
        ],
        approve: false,
        handed_over: 0,
    });
}

#[test]
fn spi_a_seats_answers_are_the_same_whatever_the_hidden_strength() {
    run(&Case {
        name: "spi",
        scenario: "spi-1870",
        setup: &[
            "move",
            "fr-metz-5",
            "0505",
            "move",
            "fort-metz",
            "0505",
            "move",
            "de-2-5-1",
            "0504",
            "move",
            "de-2-6-1",
            "0504",
        ],
        hidden: "fort-metz",
        strengths: (6, 2),
        seat: "german",
        requests: &[
            &["combat", "--attackers", "de-2-5-1", "--hex", "0505"],
            &[
                "combat",
                "--attackers",
                "de-2-5-1,de-2-6-1",
                "--hex",
                "0505",
            ],
            &[
                "combat",
                "--attackers",
                "de-2-6-1",
                "--hex",
                "0505",
                "--result",
                "D1",
            ],
            &[
                "combat",
                "--attackers",
                "de-2-6-1",
                "--hex",
                "0505",
                "--dice",
                "d6=4",
            ],
            &[
                "combat",
                "--attackers",
                "de-2-6-1",
                "--hex",
                "0505",
                "--defend",
                "3",
            ],
            &["combat", "--attackers", "fr-metz-5", "--hex", "0504"],
            &["lose", "fort-metz", "1"],
            &["combat", "--attackers", "de-2-5-1", "--hex", "0505"],
            &["formation", "de-2-5-1"],
        ],
        // Every cell of SPI's chart is to be entered from the printed one.
        approve: false,
        handed_over: 4,
    });
}

#[test]
fn fr1870_a_seats_answers_are_the_same_whatever_the_hidden_strength() {
    run(&Case {
        name: "fr1870",
        scenario: "fr1870-august",
        setup: &[],
        hidden: "de-cav-3",
        strengths: (2, 1),
        seat: "french",
        requests: &[
            &["combat", "--attackers", "fr-1rc,fr-2rc", "--hex", "2739"],
            &[
                "combat",
                "--attackers",
                "fr-1rc,fr-2rc",
                "--hex",
                "2739",
                "--result",
                "E",
            ],
            &[
                "combat",
                "--attackers",
                "fr-1rc,fr-2rc",
                "--hex",
                "2739",
                "--defend",
                "1",
            ],
            &["combat", "--attackers", "de-cav-3", "--hex", "2037"],
            &["set", "de-cav-3", "strength", "2"],
            &[
                "combat",
                "--attackers",
                "fr-1rc,fr-2rc",
                "--hex",
                "2739",
                "--dice",
                "d6=2",
            ],
        ],
        approve: false,
        handed_over: 2,
    });
}

/// The same with the umpire's approval: a player's combat is held whatever is hidden, and what
/// the seat is sent when the umpire approves it (the entries, the decision) is the same too.
#[test]
fn spi_an_approved_combat_is_told_alike_whatever_the_hidden_strength() {
    run(&Case {
        name: "spi-approve",
        scenario: "spi-1870",
        setup: &[
            "move",
            "fr-metz-5",
            "0505",
            "move",
            "fort-metz",
            "0505",
            "move",
            "de-2-5-1",
            "0504",
        ],
        hidden: "fort-metz",
        strengths: (6, 2),
        seat: "german",
        requests: &[
            &["combat", "--attackers", "de-2-5-1", "--hex", "0505"],
            &[
                "combat",
                "--attackers",
                "de-2-5-1",
                "--hex",
                "0505",
                "--result",
                "D1",
            ],
            &["combat", "--attackers", "fr-metz-5", "--hex", "0504"],
            &["lose", "fort-metz", "1"],
            &[
                "combat",
                "--attackers",
                "de-2-5-1",
                "--hex",
                "0505",
                "--dice",
                "d6=6",
            ],
        ],
        approve: true,
        handed_over: 2,
    });
}

/// 1870 with the umpire's approval.
#[test]
fn fr1870_an_approved_combat_is_told_alike_whatever_the_hidden_strength() {
    run(&Case {
        name: "fr1870-approve",
        scenario: "fr1870-august",
        setup: &[],
        hidden: "de-cav-3",
        strengths: (2, 1),
        seat: "french",
        requests: &[
            &["combat", "--attackers", "fr-1rc,fr-2rc", "--hex", "2739"],
            &[
                "combat",
                "--attackers",
                "fr-1rc,fr-2rc",
                "--hex",
                "2739",
                "--result",
                "E",
            ],
            &["combat", "--attackers", "de-cav-3", "--hex", "2037"],
            &["set", "de-cav-3", "strength", "2"],
        ],
        approve: true,
        handed_over: 1,
    });
}
