//! What SPI's Franco-Prussian War and 1870 share as board games played in a game (the adapters'
//! layer: it uses the engine; the shared odds-ratio combat engine itself is [`kepi_game::rules::crt`]).

pub mod checklist;
pub mod form;
pub mod moves;
#[cfg(feature = "gui")]
pub mod panel;
pub mod verbs;
