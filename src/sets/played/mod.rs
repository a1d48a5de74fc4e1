//! The machinery below the rule sets played with them: tests that were unit tests of
//! `kepi-game` and need a real rule set (the core is built and tested with none).

mod engine_game_clock;
mod map;
mod map_carried;
mod map_edit;
mod map_picture;
mod map_reach;
mod map_supply;
mod map_vassal;
mod map_write;
mod roster;
mod roster_builder;
mod roster_builder_convert;
mod roster_csv_import;
mod roster_spec;
mod roster_write;
