//! The checks a campaign's records set off (issue 30, `src/middle/campaign`): a board combat fought as a
//! battle leaves CAMP-B1 "battle pending" due in the campaign, and its return may leave the
//! winner's advance. The records are read here by the few fields the checks need, so the engine
//! knows nothing of how a battle is made or converted.

use serde::Deserialize;

use super::{Event, Queue};
use crate::roster::{Arm, Position, Side};
use crate::rules::RuleSetId;

/// The resolution a campaign logs when one of its combats becomes a battle (and the battle logs
/// as its link back).
pub const BATTLE: &str = "campaign-battle";
/// The resolution a campaign logs when a battle's result comes back.
pub const RETURN: &str = "campaign-return";

/// What the checks read of a `campaign-battle` record (`campaign::Engagement`).
#[derive(Deserialize)]
struct Pending {
    battle: String,
    rules: RuleSetId,
    hex: String,
    attackers: Vec<String>,
}

/// What the checks read of a `campaign-return` record (`campaign::Returned`).
#[derive(Deserialize)]
struct Came {
    winner: Option<Side>,
    hex: String,
    attackers_side: Side,
    defenders: Vec<String>,
}

/// The checks a campaign's records set off (called by [`super::checks_after`]):
/// CAMP-B1 "battle pending" on the first attacker, answered by that combat resolved on the chart
/// or done by the battle's return; after a return the winner's advance into a hex its defenders
/// left (SPI-C4, FR-C2; 1870's retreats are the "must retreat" markers' own checks).
pub fn checks(ev: &Event, q: &mut Queue) {
    let system = ev.before().system;
    if system.campaign_part() != Some(crate::engine::rule_set::CampaignPart::Board) {
        return;
    }
    let Some(r) = ev.resolution() else { return };
    let Some(v) = r.outcome.as_ref() else { return };
    if r.action == BATTLE {
        let Ok(e) = Pending::deserialize(v) else {
            return;
        };
        let (Some(first), Ok(hex)) = (e.attackers.first(), e.hex.parse::<Position>()) else {
            return;
        };
        q.push_unit_at(
            "CAMP-B1",
            first,
            hex,
            format!(
                "battle pending for hex {}: fought as a {} battle in {} (`kepi campaign return` \
                 brings it back; resolving this combat on the chart abandons it)",
                e.hex,
                e.rules.title(),
                e.battle
            ),
            Some("combat"),
        );
    } else if r.action == RETURN {
        let Ok(o) = Came::deserialize(v) else {
            return;
        };
        let Ok(hex) = o.hex.parse::<Position>() else {
            return;
        };
        let after = ev.after();
        let fighting: Vec<_> = o
            .defenders
            .iter()
            .filter_map(|id| after.unit(id))
            .filter(|u| !matches!(u.unit.arm, Arm::Fortress | Arm::Dummy | Arm::Railway))
            .collect();
        let vacated = !fighting.is_empty()
            && fighting
                .iter()
                .all(|u| u.eliminated() || after.awaits_move(u) || u.position != hex);
        if o.winner == Some(o.attackers_side)
            && vacated
            && let Some((rule, what)) = system.advance_after_battle(hex)
        {
            q.push_at(rule, Some(o.attackers_side), hex, what);
        }
    }
}
