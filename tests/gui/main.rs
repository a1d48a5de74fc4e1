//! The window, driven headless with egui_kittest.
//!
//! One test binary per area keeps the link count (and the disk a cold CI build needs) small;
//! each module below was its own file in tests/ before.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may fail loudly
#![cfg(feature = "gui")]

mod common;
#[path = "../shared/games.rs"]
mod games;
mod gui_acted;
mod gui_board_map;
mod gui_board_picture;
mod gui_breaches;
mod gui_builder;
mod gui_campaign;
mod gui_counts;
mod gui_dice_tray;
mod gui_due;
mod gui_exports;
mod gui_files;
mod gui_files46;
mod gui_gsp;
mod gui_help;
mod gui_hex;
mod gui_keys;
mod gui_live_form;
mod gui_map_edit;
mod gui_net;
mod gui_notes;
mod gui_panels;
mod gui_resolver46;
mod gui_scale;
mod gui_sixth_rule_set;
mod gui_small;
mod gui_switch;
mod gui_workspace;
#[path = "../shared/host.rs"]
mod host;
#[path = "../shared/run.rs"]
mod run;
#[path = "../shared/vmod.rs"]
mod vmod;
