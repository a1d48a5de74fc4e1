//! `kepi serve` and `kepi remote`: the umpire hosts a game on the table's network; players (and
//! scripts) show it, apply verbs to it and watch its log from other machines ([`kepi_middle::net`]).

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand, ValueEnum};
use serde::Serialize;

use super::CliError;
use super::game_cmd::{VERBS_HELP, print_entry, show};
use kepi_game::engine::game::LogEntry;
use kepi_game::rules::Tables;
use kepi_middle::net::client::{Client, Decision, Incoming, Replica};
use kepi_middle::net::host::{Event, Host, HostOptions, SeatCode};
use kepi_middle::net::io::Backoff;
use kepi_middle::net::{DEFAULT_PORT, NetError};

/// `kepi serve SAVE [--port N] [--bind ADDR] [--json]`
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The save file (the umpire's, with the dice seed). It is locked while served; the join
    /// codes are kept beside it in SAVE.seats (readable by you only) so they survive a restart.
    pub save: PathBuf,
    /// Port to listen on; 0 picks a free one (the first line says which).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_PORT)]
    pub port: u16,
    /// Address to listen on: 0.0.0.0 (every network of this machine, the default) or one address,
    /// such as 127.0.0.1 for this machine only. kepi serve says on stderr who can reach it, with
    /// a warning on every interface: anyone who can reach this machine on the port can try a code.
    #[arg(long, value_name = "ADDR", default_value = "0.0.0.0")]
    pub bind: String,
    /// Make new join codes (the old ones stop working) instead of reusing SAVE.seats.
    #[arg(long)]
    pub new_codes: bool,
    /// Players' resolutions wait for the umpire's approval (`kepi remote ... pending`, `approve N`,
    /// `reject N`); the umpire's seat can turn this off and on while serving (`approval on|off`).
    #[arg(long)]
    pub approve: bool,
    /// Player seats (german, french) see only their own side's strengths: the other side's
    /// units come with strength, max_strength, fatigue, level, leaders, max_leaders and melees
    /// null and "hidden": true, and log entries naming them with only their place in a chain of
    /// the seat's own (no guess of them can be checked; the seed's reveal opens them). A
    /// player's request that would be answered differently for other hidden values is refused.
    /// The umpire and the spectator see everything. A scenario with `hide_strengths = true`
    /// hides them without this flag.
    #[arg(long)]
    pub hide_strengths: bool,
    /// Do not advertise the game on the network (LAN discovery, `kepi remote discover`); players
    /// then type the address.
    #[arg(long)]
    pub no_advertise: bool,
    /// Stop after this many seconds, as on SIGTERM (a session of fixed length, a script, a test).
    #[arg(long = "for", value_name = "SECONDS")]
    pub for_secs: Option<u64>,
    /// After the first line, print each event (connected, applied, refused, stopped) as a JSON
    /// line instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `kepi remote ADDRESS --code CODE (show | apply | watch | ...)`, or `kepi remote discover`
#[derive(Debug, Args)]
pub struct RemoteArgs {
    /// The host's address as `kepi serve` printed it: ws://HOST:PORT (or HOST:PORT); or
    /// `discover`: list the games `kepi serve` advertises on this machine's networks (then no
    /// --code and no command; --timeout is how long to listen, default 3 s; --json for JSON).
    pub address: String,
    /// The seat's join code, as `kepi serve` printed it (case, dashes and spaces do not matter).
    /// Required except for `discover`.
    #[arg(long, value_name = "CODE")]
    pub code: Option<String>,
    /// Seconds to wait for the host at each step (`discover`: to listen; default 3).
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<u64>,
    /// `discover` only: print one JSON line {"games": [{"address", "title", "rules", "protocol",
    /// "compatible"}]}.
    #[arg(long)]
    pub json: bool,
    /// What to do (required except for `discover`).
    #[command(subcommand)]
    pub command: Option<RemoteCommand>,
}

/// `kepi remote` subcommands.
#[derive(Debug, Subcommand)]
pub enum RemoteCommand {
    /// The game as this seat sees it: the log is fetched, its chain verified and replayed here.
    /// A player seat while strengths are hidden (`kepi serve --hide-strengths`, a scenario's
    /// `hide_strengths = true`) gets the host's view for its side instead: the chain's linkage is
    /// checked for every entry and the hash of every entry it is sent whole.
    Show {
        /// Print JSON, the same shape as `kepi game show --json`. A player seat while strengths
        /// are hidden adds "seat" (its side), "hidden_strengths": true, and per unit "hidden"
        /// (true for the other side's units, whose "strength", "max_strength", "fatigue",
        /// "level", "leaders", "max_leaders" and "melees" are null).
        #[arg(long)]
        json: bool,
    },
    /// Apply verbs as this seat: the verbs and output of `kepi game apply`. A player's seat makes
    /// resolutions with its own side's units only; a spectator makes none (exit 2 with why). At
    /// most 256 verbs a request (the host refuses more, exit 2, applying none: send several);
    /// the host serves the umpire's requests first and the seats' in turn.
    #[command(after_help = VERBS_HELP)]
    Apply {
        /// Print one JSON line per applied action: {"ok", "index", "turn", "phase", "summary",
        /// "rules", "dice", "hash"}; a request held for the umpire's approval prints
        /// {"held", "seat", "message"} first.
        #[arg(long)]
        json: bool,
        /// While the umpire approves players' resolutions: seconds to wait for the decision
        /// (0: print the request's number and leave it with the umpire).
        #[arg(long, value_name = "SECONDS", default_value_t = 600)]
        wait: u64,
        /// The verbs and their arguments (see below).
        #[arg(
            required = true,
            trailing_var_arg = true,
            allow_hyphen_values = true,
            value_name = "VERB"
        )]
        words: Vec<String>,
    },
    /// The players' requests waiting for the umpire's approval (the umpire sees all of them, a
    /// player their own).
    Pending {
        /// Print JSON: {"approval", "requests": [{"request", "seat", "words", "asked"}]}.
        #[arg(long)]
        json: bool,
    },
    /// The umpire approves a waiting request: it is applied (with the player's own dice if they
    /// entered them, else the host's seeded dice) and the approval logged.
    Approve {
        /// The request's number, as `pending` lists it.
        request: u64,
        /// Print one JSON line per log entry made, as `apply --json` does.
        #[arg(long)]
        json: bool,
    },
    /// The umpire rejects a waiting request: nothing is applied; the rejection (and its reason)
    /// is logged and told to the player.
    Reject {
        /// The request's number, as `pending` lists it.
        request: u64,
        /// Why, for the player and the log.
        #[arg(long, value_name = "TEXT")]
        reason: Option<String>,
        /// Print one JSON line per log entry made, as `apply --json` does.
        #[arg(long)]
        json: bool,
    },
    /// The umpire turns the approval of players' resolutions on or off (requests already
    /// waiting stay until approved or rejected).
    Approval {
        /// on: players' resolutions wait for the umpire; off: they apply at once.
        state: Switch,
        /// Print JSON: {"approval"}.
        #[arg(long)]
        json: bool,
    },
    /// Print log entries as the host applies them, each verified against the chain; reconnects
    /// by itself (and catches up) if the connection drops.
    Watch {
        /// Print each entry as a JSON line, as `kepi log show --json` prints entries.
        #[arg(long)]
        json: bool,
        /// Start at this log index (0: the whole log); default: only entries made from now on.
        #[arg(long, value_name = "INDEX")]
        from: Option<u64>,
        /// Stop after printing this many entries.
        #[arg(long, value_name = "N")]
        count: Option<u64>,
        /// Give up after the host has been unreachable (or kept dropping this watcher) this many
        /// seconds. Reconnections wait longer each time (from a quarter second up to 8 s, with
        /// jitter), so a host that drops watchers is not flooded.
        #[arg(long, value_name = "SECONDS", default_value_t = 30)]
        retry: u64,
    },
}

/// On or off, as typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Switch {
    /// Turned on.
    On,
    /// Turned off.
    Off,
}

impl From<NetError> for CliError {
    fn from(e: NetError) -> Self {
        match e {
            NetError::Address(m) => CliError::usage(m),
            NetError::Refused(m) => CliError::usage(format!("the host refused: {m}")),
            NetError::Store(s) => s.into(),
            other => CliError::failed(other.to_string()),
        }
    }
}

/// Runs `kepi serve`.
pub fn serve(a: &ServeArgs, tables: Option<&std::path::Path>) -> Result<(), CliError> {
    let bind: std::net::IpAddr = a.bind.trim().parse().map_err(|_| {
        CliError::usage(format!(
            "--bind: `{}` is not an IP address (e.g. 0.0.0.0 for every network, 127.0.0.1 for this machine only)",
            a.bind
        ))
    })?;
    let tables: &'static Tables = match tables {
        Some(d) => Box::leak(Box::new(kepi_game::registry::load_tables(Some(d))?)),
        None => kepi_game::registry::builtin_tables()?,
    };
    let json = a.json;
    let events: kepi_middle::net::host::EventSink = Arc::new(move |e: &Event| report(e, json));
    let host = Host::open(
        &a.save,
        &HostOptions {
            bind,
            port: a.port,
            new_codes: a.new_codes,
        },
        tables,
        events,
    )?;
    host.set_approval(a.approve);
    if a.hide_strengths {
        host.set_hide_strengths(true);
    }
    let stop = Arc::new(AtomicBool::new(false));
    watch_signals(&stop)?;
    if let Some(secs) = a.for_secs {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_secs(secs));
            stop.store(true, std::sync::atomic::Ordering::SeqCst);
        });
    }
    #[derive(Serialize)]
    struct First<'a> {
        address: String,
        seats: &'a [SeatCode],
    }
    let seats = host.seats();
    let first = serde_json::to_string(&First {
        address: host.url(),
        seats: &seats,
    })
    .map_err(|e| CliError::failed(e.to_string()))?;
    outln!("{first}");
    // What is exposed, in words (stderr: stdout's lines are the first line and the events).
    let at = host.local_addr();
    errln!(
        "listening on {at}: {}",
        kepi_middle::net::host::reach(at.ip())
    );
    if let Some(w) = kepi_middle::net::host::exposure_warning(at) {
        errln!("warning: {w}");
    }
    // LAN discovery is a convenience: a network without multicast is a warning, not a failure
    // (the typed address works). Withdrawn when this returns.
    let _advertised = if a.no_advertise {
        None
    } else {
        match kepi_middle::net::discovery::Advertiser::start(&host.advert(), bind) {
            Ok(ad) => Some(ad),
            Err(e) => {
                report(
                    &Event::Warning {
                        message: format!("{e}; players type the address"),
                    },
                    json,
                );
                None
            }
        }
    };
    let stopped = host.serve(&stop)?;
    // The last lines go out on a thread of their own, waited for a moment only: a stdout nobody
    // reads (`kepi serve --json | sleep 100`) never keeps the stopped host from exiting.
    let last = std::thread::spawn(move || {
        if let Some(w) = &stopped.warning {
            errln!(
                "warning: the save could not be rewritten ({w}); its journal holds every action"
            );
        }
        if stopped.dropped_events > 0 {
            errln!(
                "warning: {} events were not printed: their reader stopped reading (the game went on)",
                stopped.dropped_events
            );
        }
        if json {
            #[derive(Serialize)]
            struct Out<'a> {
                event: &'a str,
                entries: usize,
                head: &'a str,
            }
            let _ = print_line(&Out {
                event: "stopped",
                entries: stopped.entries,
                head: &stopped.head,
            });
        } else {
            let _ = super::out(format_args!(
                "stopped: the save holds all {} log entries; head {}\n",
                stopped.entries, stopped.head
            ));
        }
    });
    let until = Instant::now() + LAST_LINES;
    while !last.is_finished() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(10));
    }
    Ok(())
}

/// How long a stopped `kepi serve` waits for its last lines to be written.
const LAST_LINES: Duration = Duration::from_secs(1);

/// Sets `stop` on SIGINT and SIGTERM, so the host closes its connections and catches the save up.
#[cfg(unix)]
fn watch_signals(stop: &Arc<AtomicBool>) -> Result<(), CliError> {
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register(sig, Arc::clone(stop))
            .map_err(|e| CliError::failed(format!("cannot watch for signals: {e}")))?;
    }
    Ok(())
}

/// Elsewhere Ctrl+C ends the process; the journal still holds every acknowledged action.
#[cfg(not(unix))]
fn watch_signals(_stop: &Arc<AtomicBool>) -> Result<(), CliError> {
    Ok(())
}

/// One compact JSON line on stdout; a closed stdout is ignored (the host keeps serving).
fn print_line(v: &impl Serialize) -> Result<(), CliError> {
    let s = serde_json::to_string(v).map_err(|e| CliError::failed(e.to_string()))?;
    super::out(format_args!("{s}\n"))
}

/// An event of the host, as a line on stdout.
fn report(e: &Event, json: bool) {
    if json {
        let _ = print_line(e);
        return;
    }
    let line = match e {
        Event::Connected { seat, peer } => format!("connected: {seat} from {peer}"),
        Event::Disconnected { seat, peer, reason } => format!(
            "disconnected: {} from {peer} ({reason})",
            seat.map(|s| s.name()).unwrap_or("-")
        ),
        Event::Applied {
            seat,
            index,
            summary,
        } => format!("applied {index} for {seat}: {summary}"),
        Event::Refused { peer, reason } => format!("refused {peer}: {reason}"),
        Event::Held {
            seat,
            request,
            words,
        } => format!("waiting for approval: request {request} from {seat}: {words}"),
        Event::Decided {
            request,
            seat,
            approved,
            reason,
        } => format!(
            "{} request {request} from {seat}{}",
            if *approved { "approved" } else { "rejected" },
            reason
                .as_ref()
                .map(|r| format!(" ({r})"))
                .unwrap_or_default()
        ),
        Event::Approval { on } => format!(
            "approval of players' resolutions: {}",
            if *on { "on" } else { "off" }
        ),
        Event::Warning { message } => format!("warning: {message}"),
    };
    let _ = super::out(format_args!("{line}\n"));
}

/// The longest wait `--timeout` and `--retry` take: a day (and no overflow of a deadline).
const MAX_WAIT_SECS: u64 = 86_400;

/// `kepi remote discover`: lists the games advertised on the network.
fn discover(a: &RemoteArgs) -> Result<(), CliError> {
    if a.code.is_some() || a.command.is_some() {
        return Err(CliError::usage(
            "`kepi remote discover` takes no --code and no command (only --timeout and --json)",
        ));
    }
    let secs = a.timeout.unwrap_or(3);
    if !(1..=MAX_WAIT_SECS).contains(&secs) {
        return Err(CliError::usage(format!(
            "--timeout: {secs} seconds (accepted: 1 to {MAX_WAIT_SECS})"
        )));
    }
    let games = kepi_middle::net::discovery::discover(Duration::from_secs(secs))?;
    if a.json {
        #[derive(Serialize)]
        struct Out<'a> {
            games: &'a [kepi_middle::net::discovery::Found],
        }
        return print_line(&Out { games: &games });
    }
    if games.is_empty() {
        outln!(
            "no kepi game found in {secs} s (a typed address always works: kepi remote ws://HOST:PORT ...)"
        );
    }
    for g in &games {
        outln!(
            "{}  {}  ({}){}",
            g.address,
            g.title,
            g.rules,
            if g.compatible {
                String::new()
            } else {
                format!(", protocol {}: update the older kepi", g.protocol)
            }
        );
    }
    Ok(())
}

/// Runs `kepi remote`.
pub fn remote(a: &RemoteArgs) -> Result<(), CliError> {
    if a.address.trim().eq_ignore_ascii_case("discover") {
        return discover(a);
    }
    if a.json {
        return Err(CliError::usage(
            "--json: goes after the command (`kepi remote ADDRESS --code CODE show --json`)",
        ));
    }
    let Some(code) = a.code.as_deref() else {
        return Err(CliError::usage(
            "--code: missing; give the seat's join code as `kepi serve` printed it",
        ));
    };
    let Some(command) = &a.command else {
        return Err(CliError::usage(
            "COMMAND: missing; give show, apply, watch, pending, approve, reject or approval",
        ));
    };
    let timeout_secs = a.timeout.unwrap_or(10);
    if code.trim().is_empty() {
        return Err(CliError::usage(
            "--code: empty; give the seat's join code as `kepi serve` printed it",
        ));
    }
    if !(1..=MAX_WAIT_SECS).contains(&timeout_secs) {
        return Err(CliError::usage(format!(
            "--timeout: {} seconds (accepted: 1 to {MAX_WAIT_SECS})",
            timeout_secs
        )));
    }
    if let RemoteCommand::Watch { retry, .. } = command
        && *retry > MAX_WAIT_SECS
    {
        return Err(CliError::usage(format!(
            "--retry: {retry} seconds (accepted: 0 to {MAX_WAIT_SECS})"
        )));
    }
    if let RemoteCommand::Apply { wait, .. } = command
        && *wait > MAX_WAIT_SECS
    {
        return Err(CliError::usage(format!(
            "--wait: {wait} seconds (accepted: 0 to {MAX_WAIT_SECS})"
        )));
    }
    kepi_middle::net::parse_address(&a.address)?;
    let timeout = Duration::from_secs(timeout_secs);
    match command {
        RemoteCommand::Show { json } => {
            let mut c = Client::connect(&a.address, code, Some(Replica::new()), timeout)?;
            if c.welcome().hidden {
                let view = c.catch_up_view(timeout.saturating_mul(6))?;
                c.close();
                return show_view(&view, *json);
            }
            let game = c.catch_up(timeout.saturating_mul(6))?.clone();
            c.close();
            show(game.state(), &game, *json)
        }
        RemoteCommand::Apply { json, wait, words } => {
            let mut c = Client::connect(&a.address, code, None, timeout)?;
            let answer = c.apply(words, timeout.saturating_mul(3))?;
            if let Some(request) = answer.held {
                let seat = c.welcome().seat;
                return held(c, request, seat, *json, *wait);
            }
            c.close();
            // The host journaled the entries: a stdout that cannot take them does not make them
            // fail (see [`super::stood`]); a refusal's exit says what the host refused.
            let printed = (|| {
                for e in &answer.entries {
                    print_entry(e, *json)?;
                }
                for e in &answer.seen {
                    print_seen(e, *json)?;
                }
                Ok(())
            })();
            refusal(answer.refused).and(super::stood(printed))
        }
        RemoteCommand::Pending { json } => {
            let mut c = Client::connect(&a.address, code, None, timeout)?;
            let list = c.pending(timeout.saturating_mul(3))?;
            c.close();
            print_pending(&list, *json)
        }
        RemoteCommand::Approve { request, json } => {
            decide(a, code, timeout, *request, true, None, *json)
        }
        RemoteCommand::Reject {
            request,
            reason,
            json,
        } => decide(a, code, timeout, *request, false, reason.clone(), *json),
        RemoteCommand::Approval { state, json } => {
            let mut c = Client::connect(&a.address, code, None, timeout)?;
            let on = c.set_approval(*state == Switch::On, timeout.saturating_mul(3))?;
            c.close();
            if *json {
                #[derive(Serialize)]
                struct Out {
                    approval: bool,
                }
                print_line(&Out { approval: on })
            } else {
                outln!(
                    "approval of players' resolutions: {}",
                    if on { "on" } else { "off" }
                );
                Ok(())
            }
        }
        RemoteCommand::Watch {
            json,
            from,
            count,
            retry,
        } => watch(a, code, timeout, *json, *from, *count, *retry),
    }
}

/// The exit a refusal from the host means (none: success).
fn refusal(refused: Option<kepi_middle::net::Refusal>) -> Result<(), CliError> {
    match refused {
        None => Ok(()),
        Some(r) => Err(CliError::with_code(
            if r.code == 0 { 1 } else { r.code },
            r.message,
        )),
    }
}

/// A player's request held for the umpire: says so, then waits (at most `wait` seconds) for the
/// decision and prints it as `apply` prints its entries; a rejection exits 2 with its reason.
fn held(
    mut c: Client,
    request: u64,
    seat: kepi_middle::net::Seat,
    json: bool,
    wait: u64,
) -> Result<(), CliError> {
    let message = format!("request {request} is waiting for the umpire's approval");
    if json {
        #[derive(Serialize)]
        struct Out<'a> {
            held: u64,
            seat: kepi_middle::net::Seat,
            message: &'a str,
        }
        print_line(&Out {
            held: request,
            seat,
            message: &message,
        })?;
    } else {
        textln!("{message}");
    }
    if wait == 0 {
        c.close();
        return Ok(());
    }
    let decided = c.wait_decision(request, Instant::now() + Duration::from_secs(wait));
    c.close();
    match decided {
        Ok(Some(Decision {
            entries,
            refused,
            seen,
            ..
        })) => {
            for e in &entries {
                print_entry(e, json)?;
            }
            for e in &seen {
                print_seen(e, json)?;
            }
            refusal(refused)
        }
        Ok(None) => Err(CliError::failed(format!(
            "no decision within {wait} s; request {request} stays with the umpire (the log will show the decision)"
        ))),
        Err(NetError::Connection(m)) => Err(CliError::failed(format!(
            "{m}; request {request} was not decided while this kepi waited (the log will show what became of it)"
        ))),
        Err(e) => Err(e.into()),
    }
}

/// `kepi remote ... pending`.
fn print_pending(list: &kepi_middle::net::client::PendingList, json: bool) -> Result<(), CliError> {
    if json {
        #[derive(Serialize)]
        struct Out<'a> {
            approval: bool,
            requests: &'a [kepi_middle::net::PendingRequest],
        }
        return print_line(&Out {
            approval: list.approval,
            requests: &list.requests,
        });
    }
    outln!(
        "approval of players' resolutions: {}",
        if list.approval { "on" } else { "off" }
    );
    if list.requests.is_empty() {
        outln!("no request is waiting");
    }
    for r in &list.requests {
        textln!(
            "{:>4}  {:<10} {}  {}",
            r.request,
            r.seat.name(),
            r.asked.format("%H:%M:%S"),
            r.text()
        );
        for n in &r.notes {
            textln!("      note: {n}");
        }
    }
    Ok(())
}

/// `kepi remote ... approve N` and `reject N`: the umpire's decision; prints the entries made.
fn decide(
    a: &RemoteArgs,
    code: &str,
    timeout: Duration,
    request: u64,
    approve: bool,
    reason: Option<String>,
    json: bool,
) -> Result<(), CliError> {
    let mut c = Client::connect(&a.address, code, None, timeout)?;
    let answer = c.decide(request, approve, reason, timeout.saturating_mul(3))?;
    c.close();
    for e in &answer.entries {
        print_entry(e, json)?;
    }
    refusal(answer.refused)
}

/// `kepi remote ... watch`: follows the log, reconnecting (and catching up) when it drops.
fn watch(
    a: &RemoteArgs,
    code: &str,
    timeout: Duration,
    json: bool,
    from: Option<u64>,
    count: Option<u64>,
    retry: u64,
) -> Result<(), CliError> {
    let mut replica = Replica::new();
    let mut start = from;
    let mut printed = 0u64;
    // Since when the host has been unreachable (or has kept dropping this watcher).
    let mut lost_since: Option<Instant> = None;
    let mut backoff = Backoff::default();
    loop {
        if count.is_some_and(|n| printed >= n) {
            return Ok(());
        }
        if let Some(since) = lost_since {
            // Wait before trying again, longer each time (with jitter), never past --retry.
            let left = Duration::from_secs(retry).saturating_sub(since.elapsed());
            std::thread::sleep(backoff.wait().min(left));
        }
        let mut c = match Client::connect(&a.address, code, Some(replica.clone()), timeout) {
            Ok(c) => c,
            Err(NetError::Connection(m)) => {
                let since = *lost_since.get_or_insert_with(Instant::now);
                if since.elapsed() >= Duration::from_secs(retry) {
                    return Err(CliError::failed(format!(
                        "{m}; gave up after {retry} s without the host"
                    )));
                }
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        let joined_at = Instant::now();
        if lost_since.is_some() {
            errln!("reconnected to {}", a.address);
        }
        // Without --from, only what is made from now on is printed.
        let first = *start.get_or_insert(c.welcome().entries);
        let lost = loop {
            if count.is_some_and(|n| printed >= n) {
                c.close();
                return Ok(());
            }
            match c.next(Instant::now() + Duration::from_millis(500)) {
                Ok(Incoming::Entries(es)) => {
                    for e in es.iter().filter(|e| e.index >= first) {
                        if count.is_some_and(|n| printed >= n) {
                            break;
                        }
                        print_watched(e, json)?;
                        printed += 1;
                    }
                    for e in c.take_seen().iter().filter(|e| e.index >= first) {
                        if count.is_some_and(|n| printed >= n) {
                            break;
                        }
                        print_watched_seen(e, json)?;
                        printed += 1;
                    }
                }
                Ok(Incoming::Idle | Incoming::Decided(_)) => {}
                Ok(Incoming::Closing(m)) => {
                    errln!("{}: {m}", a.address);
                    return Ok(());
                }
                Err(NetError::Connection(m)) => break m,
                Err(e) => return Err(e.into()),
            }
        };
        errln!("connection lost ({lost}); reconnecting");
        // A connection that held a while was the host being there: the next loss starts afresh.
        // One dropped at once counts as the host still unreachable (and waits longer each time).
        if joined_at.elapsed() >= Backoff::STABLE {
            backoff.reset();
            lost_since = Some(Instant::now());
        } else {
            let since = *lost_since.get_or_insert_with(Instant::now);
            if since.elapsed() >= Duration::from_secs(retry) {
                return Err(CliError::failed(format!(
                    "the host at {} keeps dropping this watcher; gave up after {retry} s",
                    a.address
                )));
            }
        }
        replica = c.into_replica().unwrap_or_default();
    }
}

fn print_watched(e: &LogEntry, json: bool) -> Result<(), CliError> {
    if json {
        return print_line(e);
    }
    textln!("{:>4} T{} {}: {}", e.index, e.turn, e.phase, e.summary);
    Ok(())
}

/// A watched entry as a player seat sees it while strengths are hidden: a whole one as
/// [`print_watched`]; a hidden one as {"index", "time", "turn", "phase", "prev", "hash",
/// "hidden": true}.
fn print_watched_seen(e: &kepi_middle::net::redact::SeatEntry, json: bool) -> Result<(), CliError> {
    if let Some(w) = &e.entry {
        return print_watched(w, json);
    }
    if json {
        return print_line(e);
    }
    textln!("{:>4} T{} {}: {}", e.index, e.turn, e.phase, e.summary());
    Ok(())
}

/// An entry a request made, as a player seat sees it while strengths are hidden: a whole one as
/// `kepi game apply` prints it; a hidden one as {"ok": true, "index", "turn", "phase", "hidden":
/// true, "hash"}.
fn print_seen(e: &kepi_middle::net::redact::SeatEntry, json: bool) -> Result<(), CliError> {
    if let Some(w) = &e.entry {
        return print_entry(w, json);
    }
    if json {
        #[derive(Serialize)]
        struct Out<'a> {
            ok: bool,
            index: u64,
            turn: u32,
            phase: &'a str,
            hidden: bool,
            hash: &'a str,
        }
        return print_line(&Out {
            ok: true,
            index: e.index,
            turn: e.turn,
            phase: &e.phase,
            hidden: true,
            hash: &e.hash,
        });
    }
    textln!("{:>4} T{} {}: {}", e.index, e.turn, e.phase, e.summary());
    Ok(())
}

/// `kepi remote ... show` for a player seat while strengths are hidden: the host's view.
fn show_view(view: &serde_json::Value, json: bool) -> Result<(), CliError> {
    if json {
        return super::print_json(view);
    }
    let text = |k: &str| view.get(k).and_then(|v| v.as_str()).unwrap_or("");
    textln!(
        "{} (seen by the {} seat; the other side's strengths are hidden)",
        text("title"),
        text("seat")
    );
    outln!(
        "Turn {} - {}",
        view.get("turn").and_then(|v| v.as_u64()).unwrap_or(0),
        text("phase")
    );
    let units = view
        .get("units")
        .and_then(|u| u.as_array())
        .map(Vec::as_slice)
        .unwrap_or_default();
    for u in units {
        let f = |k: &str| match u.get(k) {
            Some(serde_json::Value::String(s)) => s.clone(),
            Some(serde_json::Value::Number(n)) => n.to_string(),
            _ => "?".into(),
        };
        textln!(
            "  {:<28} {:<40} {:<6} {:>3}/{:<3} fat {:<2} {:<7} {}",
            f("id"),
            f("name").chars().take(40).collect::<String>(),
            f("side"),
            f("strength"),
            f("max_strength"),
            f("fatigue"),
            f("level"),
            f("position")
        );
    }
    Ok(())
}
