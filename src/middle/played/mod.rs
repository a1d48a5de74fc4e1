//! The middle's tests that play a rule set of kepi's (moved here from `kepi-game` with the
//! middle; each file says which module it tests).

mod campaign;
mod campaign_table;
mod moves_play;
mod net_redact;
