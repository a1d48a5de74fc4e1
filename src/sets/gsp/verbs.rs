//! GSP's resolution verb of `kepi game apply` (`artillery`, also `fire`): a battery and its
//! target, with the options of `kepi resolve gsp fire` ([`super::grammar`]) over the form
//! pre-filled from them.

use crate::gsp::form::GspForm;
use kepi_game::engine::play::Form;
use kepi_game::engine::verbs::{Given, MoveError, Units, VerbSpec, no_extra, set};
use kepi_game::rules::Tables;

/// GSP's resolution verb, the form of [`super::set::GspRules`].
pub static SPECS: &[VerbSpec] = &[VerbSpec {
    verb: "artillery",
    aliases: &["fire"],
    form: "artillery",
    resolve: "fire",
    units: Units::Two("BATTERY", "TARGET"),
    required: &[],
    refused: &[
        (
            "aoa",
            "enter the accuracy-of-aim dice with --dice d6=A,d6=B after the hit dice",
        ),
        (
            "at",
            "the men where shells land are the units of the game (the target)",
        ),
        (
            "sector_length",
            "in play a measured --range uses the table's sector length",
        ),
    ],
    extra: no_extra,
    what: "a battery fires, one die per gun (GSP-A1..A4, C1, C3, S1); the outcome is \
               `kepi resolve gsp fire --guns N`'s",
    overlay: gsp_artillery,
}];

/// GSP-A1..A4: `kepi resolve gsp fire`'s options over the battery's card and state.
fn gsp_artillery(g: &Given, f: &mut Form, _t: &Tables) -> Result<(), MoveError> {
    let Some(x) = f.get_mut::<GspForm>() else {
        return Err(g.mismatch());
    };
    let GspForm {
        piece,
        load,
        guns,
        sector,
        range,
        line_of_sight,
        cover,
        status,
        ..
    } = x;
    if let Some(gun) = g.get::<crate::gsp::GunType>("gun")? {
        *piece = Some(gun.piece());
        set(load, gun.load());
    }
    if let Some(s) = g.get::<u32>("sector")? {
        *sector = s;
        *range = None;
    }
    if let Some(d) = g.get::<kepi_game::rules::Distance>("range")? {
        *range = Some(crate::gsp::grammar::length(d, g.scale(), "`fire` --range")?);
    }
    set(cover, g.get::<crate::gsp::Cover>("cover")?);
    set(guns, g.get::<u32>("guns")?);
    if let Some(no) = g.get::<bool>("no_los")? {
        *line_of_sight = !no;
    }
    set(&mut status.moved_this_turn, g.get("moved")?);
    set(&mut status.unlimbered_this_turn, g.get("unlimbered")?);
    set(&mut status.turned_degrees, g.get::<u32>("turned")?);
    set(&mut status.hidden, g.get("hidden")?);
    // Refused in play (VerbSpec::refused); read so the test of every option sees them handled.
    g.mark(&["aoa", "at", "sector_length"]);
    Ok(())
}
