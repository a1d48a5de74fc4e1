//! What the session test modules share: tests/shared/run.rs (the binary, a scratch folder, running
//! kepi, a new game through the CLI) and a P&K game made in process.

use chrono::{TimeZone, Utc};
use kepi::game::{Game, SeedSecret};
use kepi::registry::builtin_scenario;

pub use super::run::*;

/// A P&K game of Mars-la-Tour with `seed` (salt "s"), begun at 1,000,000 s after the epoch.
pub fn mlt_game(seed: u64) -> Game {
    Game::new(
        &builtin_scenario("mars-la-tour").unwrap(),
        kepi::rules::pk::ID,
        SeedSecret {
            seed,
            salt: "s".into(),
        },
        Utc.timestamp_opt(1_000_000, 0).single().unwrap(),
    )
}
