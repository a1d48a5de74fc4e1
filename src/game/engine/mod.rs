//! The engine: a game of any rule set, played. The rule-set trait and the handle a game is given
//! ([`rule_set`]), the game state, its actions, log and clock ([`game`]), the umpire's flow
//! ([`flow`]), the resolver's forms ([`play`]) and what a rule set's command-line grammar and
//! `kepi game apply` verbs are made of ([`verbs`]). These five are one layer: they use each
//! other, and nothing above them (the rule sets' adapters, the registry, the store, the front
//! ends).

pub mod flow;
pub mod game;
pub mod play;
pub mod rule_set;
pub mod verbs;
