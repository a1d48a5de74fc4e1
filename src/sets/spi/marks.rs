//! SPI's markers on a unit beyond the engine's flags (issue 45): declared here, kept by the
//! engine ([`kepi_game::engine::game::UnitMarkerKind`]), read by SPI's rules. SPI-W1's
//! `exited-west` is the victory's ([`crate::spi::victory::EXITED_WEST`]).

use kepi_game::engine::game::{MarkerLasts, Tone, UnitMarkerKind};

/// SPI-L1: entrained, on its country's rail line.
pub const ENTRAINED: UnitMarkerKind = UnitMarkerKind {
    name: "entrained",
    label: "entrained",
    tag: "Ent",
    rule: "SPI-L1",
    what: "entrained (SPI-L1): moves along its rail line, defends at half, no zone of control",
    tone: Tone::Info,
    lasts: MarkerLasts::UntilTakenOff,
    aliases: &[],
};
