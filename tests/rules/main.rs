//! Rule sets, dice, tables and hex geometry as pure functions: worked examples, exact odds, properties.
//!
//! One test binary per area keeps the link count (and the disk a cold CI build needs) small;
//! each module below was its own file in tests/ before.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may fail loudly

mod architecture;
mod architecture_doc;
mod common;
mod crt_engine;
mod dice_exact;
mod dice_fairness;
mod fr1870_rules;
mod gsp_odds_brute;
mod gsp_rules;
mod hex_geometry;
mod malformed_corpus;
mod pk_fire_fast;
mod pk_props;
mod pk_rules;
mod pw_rules;
mod rolled_line;
mod rule_ids;
mod rules28;
mod sixth_rule_set;
mod spi_rules;
mod worked_examples;
