//! The kepi binary driven as a script would: exit codes, JSON contracts, saves and crash recovery.
//!
//! One test binary per area keeps the link count (and the disk a cold CI build needs) small;
//! each module below was its own file in tests/ before.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may fail loudly

mod acknowledged_cli;
mod acted_cli;
mod arguments_cli;
mod breaches42_cli;
mod campaign_cli;
mod cards_convert_cli;
mod cards_import_cli;
mod cli_dice;
mod common;
mod crt_cli;
mod export_cli;
mod flow_cli;
mod form_verb_cli;
mod fortress_cli;
mod fr1870_board_cli;
#[path = "../shared/games.rs"]
mod games;
mod grammar_cli;
mod gsp_cli;
mod hidden_answers_cli;
#[path = "../shared/host.rs"]
mod host;
mod hostile_corpus;
mod input_cli;
mod map_align_cli;
mod map_cli;
mod net_cli;
mod notes_cli;
mod own_dice_cli;
mod own_files_cli;
mod pk_cli;
mod pw_cli;
mod recover_cli;
mod refusals_cli;
mod report_cli;
mod rules28_cli;
#[path = "../shared/run.rs"]
mod run;
mod scale_cli;
mod sieges_cli;
mod sixth_rule_set_cli;
mod spi_map_cli;
mod spi_movement_cli;
mod spi_supply_cli;
mod spi_terrain_cli;
mod store_cli;
mod tamper_cli;
mod transport_cli;
mod vassal_cli;
mod visibility_cli;
#[path = "../shared/vmod.rs"]
mod vmod;
