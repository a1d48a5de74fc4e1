//! What a seat asks: applied, held for the umpire, approved or rejected, and broadcast to the others.

#[allow(unused_imports)]
use super::*;

/// Queues `made` for every follower but `skip` (whose own entries come back in its answer),
/// each as its seat sees it; a follower whose queue is full is marked to be dropped, one gone is
/// forgotten.
pub(super) fn broadcast(core: &mut Core, skip: u64, made: &[LogEntry]) {
    if made.is_empty() {
        return;
    }
    let whole = encode(&HostMsg::Entries {
        entries: made.to_vec(),
    });
    let mut by_side: HashMap<Side, Message> = HashMap::new();
    let sides: Vec<Side> = core
        .followers
        .iter()
        .filter(|(k, _)| **k != skip)
        .filter_map(|(_, out)| out.hide)
        .collect();
    for side in sides {
        if let std::collections::hash_map::Entry::Vacant(v) = by_side.entry(side) {
            v.insert(seen_msg(core, made, side));
        }
    }
    let mut gone = Vec::new();
    let followers = &mut core.followers;
    for (k, out) in followers.iter() {
        if *k == skip {
            continue;
        }
        let m = match out.hide.and_then(|side| by_side.get(&side)) {
            None => whole.clone(),
            Some(m) => m.clone(),
        };
        match out.tx.try_send(m) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => out.kicked.store(true, Ordering::SeqCst),
            Err(TrySendError::Disconnected(_)) => gone.push(*k),
        }
    }
    for k in gone {
        followers.remove(&k);
    }
}

/// `made` as `side`'s seat sees it, with its view of the game now.
pub(super) fn seen_msg(core: &mut Core, made: &[LogEntry], side: Side) -> Message {
    let (entries, view, state) = core.seen_made(side, made);
    encode(&HostMsg::Seen {
        entries,
        view: Some(view),
        state: Some(state),
    })
}

/// What [`record`] made: the entries (journaled and fsynced), the save's warnings, and why it
/// stopped if it did.
pub(super) struct Made {
    pub(super) entries: Vec<LogEntry>,
    pub(super) warnings: Vec<String>,
    pub(super) refused: Option<Refusal>,
}

/// Applies `words` for `seat` (its permission checked) through `kepi game apply`'s path; for a
/// player seat the other side's strengths are hidden from, a resolution the rules cannot finish
/// is logged as not applied, for the umpire (issue 44), rather than refused. What the rules say
/// against a resolution is logged as the seat went ahead with it, or (`approved`) as the umpire
/// approving the seat's request: a player's own action is never "umpire went ahead".
pub(super) fn record(
    shared: &Shared,
    core: &mut Core,
    seat: Seat,
    words: &[String],
    approved: bool,
) -> Made {
    let hidden = crate::net::redact::hidden_side(seat, core.hiding()).is_some();
    let ahead = match seat {
        Seat::Umpire => WentAhead::Umpire,
        _ if approved => WentAhead::Approved(seat.name()),
        _ => WentAhead::Seat(seat.name()),
    };
    let Core { game, store, .. } = core;
    let mut entries: Vec<LogEntry> = Vec::new();
    let mut warnings: Vec<String> = Vec::new();
    let result = crate::moves::apply_verbs_going_ahead::<MoveError>(
        game,
        store,
        words,
        shared.tables,
        &|asked, state| crate::net::permit(seat, asked, state).map_err(MoveError::refused),
        &mut |entry, recorded, _| {
            warnings.extend(recorded.save_warning);
            entries.push(entry.clone());
            Ok(())
        },
        hidden,
        ahead,
    );
    Made {
        entries,
        warnings,
        refused: result.err().map(|e| Refusal {
            code: e.code(),
            message: e.message,
        }),
    }
}

/// An answer that makes nothing: the request is refused with `code` and `message`.
pub(super) fn refused_answer(
    id: u64,
    rx: &Receiver<Message>,
    code: u8,
    message: String,
) -> Answered {
    Answered {
        before: rx.try_iter().collect(),
        answer: encode(&HostMsg::Applied {
            id,
            entries: Vec::new(),
            refused: Some(Refusal { code, message }),
            seen: Vec::new(),
            view: None,
            state: None,
        }),
        events: Vec::new(),
    }
}

/// The answer to a request made while the host is stopping.
pub(super) fn stopping(id: u64, rx: &Receiver<Message>) -> Answered {
    refused_answer(
        id,
        rx,
        1,
        "the host is stopping; nothing was applied".into(),
    )
}

/// Applies a request for a seat under the game's lock, queues its entries for everyone else, and
/// returns what this client must be sent first (entries queued for it before its own), its
/// answer, and the events to tell once it is sent. A player's request while the umpire approves
/// resolutions is checked (seat and rules' parsing) and held instead.
pub(super) fn apply(shared: &Shared, joined: &Joined, id: u64, words: &[String]) -> Answered {
    let Joined {
        seat,
        conn,
        peer,
        rx,
        hide,
        ..
    } = joined;
    let (seat, conn) = (*seat, *conn);
    let mut core = shared.core_for(seat);
    // Once the host is stopping, the save is being caught up: nothing more is taken.
    if shared.stop.load(Ordering::SeqCst) {
        return stopping(id, rx);
    }
    if let Some(refused) = too_many_verbs(shared, &core, joined, id, words) {
        return refused;
    }
    if let Some(refused) = misjudged(shared, &core, joined, id, words) {
        return refused;
    }
    if core.approval && matches!(seat, Seat::Player(_)) {
        return hold(shared, &mut core, joined, id, words);
    }
    let Made {
        entries: made,
        warnings,
        refused,
    } = record(shared, &mut core, seat, words, false);
    broadcast(&mut core, conn, &made);
    // Entries from earlier requests still queued for this client go out before its answer, so it
    // receives the log in order.
    let before: Vec<Message> = rx.try_iter().collect();
    let answer = answer_for(&mut core, *hide, id, made.clone(), refused.clone());
    drop(core);
    // Events are told after the lock is released and the answer sent (by the caller): a slow
    // reader of them never holds up the game or the client.
    let mut events: Vec<Event> = warnings
        .into_iter()
        .map(|message| Event::Warning { message })
        .collect();
    events.extend(made.iter().map(|e| Event::Applied {
        seat,
        index: e.index,
        summary: e.summary.clone(),
    }));
    if let Some(r) = &refused {
        events.push(Event::Refused {
            peer: format!("{peer} ({seat})"),
            reason: r.message.clone(),
        });
    }
    Answered {
        before,
        answer,
        events,
    }
}

/// The answer to a request that made `made`: whole, or as `hide`'s seat sees it.
pub(super) fn answer_for(
    core: &mut Core,
    hide: Option<Side>,
    id: u64,
    made: Vec<LogEntry>,
    refused: Option<Refusal>,
) -> Message {
    match hide {
        None => encode(&HostMsg::Applied {
            id,
            entries: made,
            refused,
            seen: Vec::new(),
            view: None,
            state: None,
        }),
        Some(side) => {
            let (seen, view, state) = core.seen_made(side, &made);
            encode(&HostMsg::Applied {
                id,
                entries: Vec::new(),
                refused: refused.map(|r| Refusal {
                    code: r.code,
                    message: crate::net::redact::scrub(&r.message, core.game.state(), side),
                }),
                seen,
                view: Some(view),
                state: Some(state),
            })
        }
    }
}

/// A request of more than [`MAX_REQUEST_VERBS`] verbs: its refusal, saying the bound (`None`:
/// within it, or words that do not parse, refused as ever by what follows). The count depends
/// on the words and the units' names only, never on a hidden strength.
pub(super) fn too_many_verbs(
    shared: &Shared,
    core: &Core,
    joined: &Joined,
    id: u64,
    words: &[String],
) -> Option<Answered> {
    // A verb is one word at least.
    if words.len() <= MAX_REQUEST_VERBS {
        return None;
    }
    let n = check_verbs::<MoveError>(words, core.game.state(), shared.tables, &|_, _| Ok(()))
        .ok()?
        .len();
    if n <= MAX_REQUEST_VERBS {
        return None;
    }
    let why = too_many_verbs_said(n);
    let mut a = refused_answer(id, &joined.rx, 2, why.clone());
    a.events.push(Event::Refused {
        peer: format!("{} ({})", joined.peer, joined.seat),
        reason: why,
    });
    Some(a)
}

/// The refusal of a request of `n` verbs, over [`MAX_REQUEST_VERBS`].
pub fn too_many_verbs_said(n: usize) -> String {
    format!(
        "this request has {n} verbs; a request may have at most {MAX_REQUEST_VERBS} (nothing was applied: send them as several requests)"
    )
}

/// A request of a seat the other side's strengths are hidden from, judged against what it may
/// know ([`crate::net::redact::judge`]): its refusal, or `None` to go on.
pub(super) fn misjudged(
    shared: &Shared,
    core: &Core,
    joined: &Joined,
    id: u64,
    words: &[String],
) -> Option<Answered> {
    let side = joined.hide?;
    let seat = joined.seat;
    let e = crate::net::redact::judge(
        words,
        core.game.state(),
        side,
        shared.tables,
        &|asked, state| crate::net::permit(seat, asked, state).map_err(MoveError::refused),
    )
    .err()?;
    let told = crate::net::redact::scrub(&e.message, core.game.state(), side);
    let mut a = refused_answer(id, &joined.rx, e.code(), told);
    a.events.push(Event::Refused {
        peer: format!("{} ({seat})", joined.peer),
        reason: e.message,
    });
    Some(a)
}

/// Holds a player's request for the umpire: it is parsed and its permission checked now (a
/// request that would be refused is refused at once), then kept, and the player told its number.
pub(super) fn hold(
    shared: &Shared,
    core: &mut Core,
    joined: &Joined,
    id: u64,
    words: &[String],
) -> Answered {
    let Joined {
        seat,
        conn,
        peer,
        rx,
        ..
    } = joined;
    let seat = *seat;
    let checked = check_verbs(words, core.game.state(), shared.tables, &|asked, state| {
        crate::net::permit(seat, asked, state).map_err(MoveError::refused)
    });
    if let Err(e) = checked {
        let told = match joined.hide {
            Some(side) => crate::net::redact::scrub(&e.message, core.game.state(), side),
            None => e.message.clone(),
        };
        let mut a = refused_answer(id, rx, e.code(), told);
        a.events.push(Event::Refused {
            peer: format!("{peer} ({seat})"),
            reason: e.message,
        });
        return a;
    }
    if core.pending.iter().filter(|h| h.req.seat == seat).count() >= MAX_PENDING_PER_SEAT {
        return refused_answer(
            id,
            rx,
            2,
            format!(
                "{MAX_PENDING_PER_SEAT} requests of the {seat} seat are already waiting for the umpire; ask again once some are decided"
            ),
        );
    }
    let request = core.next_request;
    core.next_request += 1;
    let req = PendingRequest {
        request,
        seat,
        words: words.to_vec(),
        asked: chrono::Utc::now(),
        notes: Vec::new(),
    };
    let text = req.text();
    core.pending.push(Held { req, conn: *conn });
    Answered {
        before: rx.try_iter().collect(),
        answer: encode(&HostMsg::Held {
            id,
            request,
            message: format!("request {request} is waiting for the umpire's approval"),
        }),
        events: vec![Event::Held {
            seat,
            request,
            words: text,
        }],
    }
}

/// The held requests this seat may see: all for the umpire, its own for a player, none for a
/// spectator.
pub(super) fn pending_list(shared: &Shared, joined: &Joined, id: u64) -> Answered {
    let Joined { seat, rx, .. } = joined;
    let seat = *seat;
    let core = shared.core_for(seat);
    // The umpire reads what the rules say against each request now, before deciding it.
    let requests: Vec<PendingRequest> = core
        .pending
        .iter()
        .filter(|h| seat == Seat::Umpire || h.req.seat == seat)
        .map(|h| {
            let mut req = h.req.clone();
            if seat == Seat::Umpire {
                req.notes = crate::moves::request_warnings(&req.words, &core.game, shared.tables);
            }
            req
        })
        .collect();
    let approval = core.approval;
    drop(core);
    Answered {
        before: rx.try_iter().collect(),
        answer: encode(&HostMsg::PendingList {
            id,
            approval,
            requests,
        }),
        events: Vec::new(),
    }
}

/// The umpire turns approval on or off.
pub(super) fn set_approval(shared: &Shared, joined: &Joined, id: u64, on: bool) -> Answered {
    let Joined { seat, rx, .. } = joined;
    if *seat != Seat::Umpire {
        return refused_answer(
            id,
            rx,
            2,
            format!("approval is the umpire's to turn on or off, not the {seat} seat's"),
        );
    }
    shared.core().approval = on;
    Answered {
        before: rx.try_iter().collect(),
        answer: encode(&HostMsg::Approval { id, on }),
        events: vec![Event::Approval { on }],
    }
}

/// The longest rejection reason kept (a reason is a sentence, not a document).
pub(super) const MAX_REASON_CHARS: usize = 500;

/// The umpire approves or rejects a held request. Approved, the player's words are applied for
/// the player's seat (its permission checked again against the game as it is now) and a note
/// logs the approval; rejected, a note logs the rejection and its reason. The player's
/// connection, if still there, is told the decision; everyone else gets the entries.
pub(super) fn decide(
    shared: &Shared,
    joined: &Joined,
    id: u64,
    request: u64,
    approve: bool,
    reason: Option<String>,
) -> Answered {
    let Joined { seat, conn, rx, .. } = joined;
    let conn = *conn;
    if *seat != Seat::Umpire {
        return refused_answer(
            id,
            rx,
            2,
            format!("approving and rejecting requests is the umpire's, not the {seat} seat's"),
        );
    }
    let mut core = shared.core_for(Seat::Umpire);
    if shared.stop.load(Ordering::SeqCst) {
        return stopping(id, rx);
    }
    let at = match held_at(&core, request) {
        Ok(at) => at,
        Err(message) => return refused_answer(id, rx, 2, message),
    };
    let held = core.pending.remove(at);
    let asker = held.req.seat;
    let reason: Option<String> = reason
        .map(|r| r.trim().chars().take(MAX_REASON_CHARS).collect::<String>())
        .filter(|r| !r.is_empty());
    let decision = if approve {
        approved(shared, &mut core, &held, request)
    } else {
        rejected(shared, &mut core, &held, request, reason.as_deref())
    };
    let Decision {
        to_player,
        refused,
        made,
        by_player,
        warnings,
    } = decision;
    broadcast(&mut core, conn, &made);
    let to_player = as_the_asker_sees_it(&mut core, asker, to_player);
    if let Some(tx) = core.direct.get(&held.conn)
        && held.conn != conn
    {
        // A player whose queue is full or gone reads the decision in the log instead.
        let _ = tx.try_send(encode(&to_player));
    }
    let before: Vec<Message> = rx.try_iter().collect();
    drop(core);
    let mut events: Vec<Event> = warnings
        .into_iter()
        .map(|message| Event::Warning { message })
        .collect();
    events.extend(made.iter().enumerate().map(|(k, e)| Event::Applied {
        seat: if k < by_player { asker } else { Seat::Umpire },
        index: e.index,
        summary: e.summary.clone(),
    }));
    events.push(Event::Decided {
        request,
        seat: asker,
        approved: approve,
        reason: if approve {
            refused.as_ref().map(|r| r.message.clone())
        } else {
            reason
        },
    });
    Answered {
        before,
        answer: encode(&HostMsg::Applied {
            id,
            entries: made,
            refused,
            seen: Vec::new(),
            view: None,
            state: None,
        }),
        events,
    }
}

/// Where request `request` waits among the held ones; else the refusal, naming those that wait.
fn held_at(core: &Core, request: u64) -> Result<usize, String> {
    core.pending
        .iter()
        .position(|h| h.req.request == request)
        .ok_or_else(|| {
            let held: Vec<String> = core
                .pending
                .iter()
                .map(|h| h.req.request.to_string())
                .collect();
            if held.is_empty() {
                format!("no request {request} is waiting (none is)")
            } else {
                format!(
                    "no request {request} is waiting (waiting: {})",
                    held.join(", ")
                )
            }
        })
}

/// What the umpire's decision made: the message for the player who asked, the refusal (of the
/// player's words or of the note), the entries logged (the player's first, `by_player` of them,
/// then the umpire's note) and the save's warnings.
struct Decision {
    to_player: HostMsg,
    refused: Option<Refusal>,
    made: Vec<LogEntry>,
    by_player: usize,
    warnings: Vec<String>,
}

/// Approved: the player's words applied for its seat, then the umpire's note of the approval
/// (saying when they were not applied).
fn approved(shared: &Shared, core: &mut Core, held: &Held, request: u64) -> Decision {
    let asker = held.req.seat;
    let text = held.req.text();
    let mut warnings = Vec::new();
    let mut made = Vec::new();
    let m = record(shared, core, asker, &held.req.words, true);
    warnings.extend(m.warnings);
    let note = match &m.refused {
        None => format!("umpire approved {asker}'s request {request}: {text}"),
        Some(r) => format!(
            "umpire approved {asker}'s request {request}: {text} (not applied: {})",
            r.message
        ),
    };
    let n = record(shared, core, Seat::Umpire, &["note".into(), note], false);
    warnings.extend(n.warnings);
    let to_player = HostMsg::Decided {
        request,
        approved: true,
        entries: m.entries.clone(),
        refused: m.refused.clone(),
        seen: Vec::new(),
        view: None,
        state: None,
    };
    // How many of `made` are the player's resolution (the rest are the umpire's note).
    let by_player = m.entries.len();
    made.extend(m.entries);
    made.extend(n.entries);
    Decision {
        to_player,
        refused: m.refused.or(n.refused),
        made,
        by_player,
        warnings,
    }
}

/// Rejected: the umpire's note of the rejection and its `reason`, and the player told why.
fn rejected(
    shared: &Shared,
    core: &mut Core,
    held: &Held,
    request: u64,
    reason: Option<&str>,
) -> Decision {
    let asker = held.req.seat;
    let text = held.req.text();
    let note = match reason {
        Some(r) => format!("umpire rejected {asker}'s request {request}: {text} ({r})"),
        None => format!("umpire rejected {asker}'s request {request}: {text}"),
    };
    let n = record(shared, core, Seat::Umpire, &["note".into(), note], false);
    let to_player = HostMsg::Decided {
        request,
        approved: false,
        entries: Vec::new(),
        refused: Some(Refusal {
            code: 2,
            message: match reason {
                Some(r) => format!("the umpire rejected request {request}: {r}"),
                None => format!("the umpire rejected request {request}"),
            },
        }),
        seen: Vec::new(),
        view: None,
        state: None,
    };
    Decision {
        to_player,
        refused: n.refused,
        made: n.entries,
        by_player: 0,
        warnings: n.warnings,
    }
}

/// The decision as the player who asked sees it: a player seat with hidden strengths is told it
/// as its own view (the entries as it sees them, the refusal scrubbed); anyone else as it is.
fn as_the_asker_sees_it(core: &mut Core, asker: Seat, to_player: HostMsg) -> HostMsg {
    match (
        crate::net::redact::hidden_side(asker, core.hiding()),
        to_player,
    ) {
        (
            Some(side),
            HostMsg::Decided {
                request,
                approved,
                entries,
                refused,
                ..
            },
        ) => {
            let (seen, view, state) = core.seen_made(side, &entries);
            HostMsg::Decided {
                request,
                approved,
                seen,
                view: Some(view),
                state: Some(state),
                entries: Vec::new(),
                refused: refused.map(|r| Refusal {
                    code: r.code,
                    message: crate::net::redact::scrub(&r.message, core.game.state(), side),
                }),
            }
        }
        (_, m) => m,
    }
}

/// What [`apply`] leaves to send and tell.
pub(super) struct Answered {
    /// Entries queued for this client before its own, to send first.
    pub(super) before: Vec<Message>,
    /// Its answer.
    pub(super) answer: Message,
    /// What to tell the umpire once the answer is sent.
    pub(super) events: Vec<Event>,
}
