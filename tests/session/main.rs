//! Game sessions, the umpire's flow and the exports built from them.
//!
//! One test binary per area keeps the link count (and the disk a cold CI build needs) small;
//! each module below was its own file in tests/ before.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may fail loudly

mod common;
mod export_docs;
mod export_files;
mod export_text;
mod flow_checks;
#[cfg(unix)]
mod hostile_files;
#[path = "../shared/run.rs"]
mod run;
mod session_game;
mod store_compaction;
mod store_faults;
mod stored_text;
