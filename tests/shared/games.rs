//! Games that the CLI and the window tests both play, as `kepi game apply` words (the window
//! takes the same words), and a scenario they both load, as card text.
#![allow(dead_code)] // each test binary uses a part

/// 1870, the French combat phase: 1RC (2037) and 2RC (2139) attack Infantry 1 placed at 2138;
/// the die is entered (6) and its result, DR, from the printed chart (`fr1870-august`).
pub const FR1870_ATTACK: &[&str] = &[
    "move",
    "de-inf-1",
    "2138",
    "next-phase",
    "combat",
    "--attackers",
    "fr-1rc,fr-2rc",
    "--hex",
    "2138",
    "--dice",
    "d6=6",
    "--result",
    "DR",
];

/// SPI: two German units (0101, 0202) attack the French corps of Metz moved to 0102; the die is
/// entered (3) and the result is none (`spi-1870`).
pub const SPI_ATTACK: &[&str] = &[
    "move",
    "de-2-5-1",
    "0101",
    "move",
    "de-2-5-2",
    "0202",
    "move",
    "fr-metz-5",
    "0102",
    "next-phase",
    "next-phase",
    "combat",
    "--attackers",
    "de-2-5-1,de-2-5-2",
    "--hex",
    "0102",
    "--dice",
    "d6=3",
    "--result",
    "-",
];

/// An 1870 scenario with a fortress (Metz) in the hex two German corps attack.
pub const METZ_FORTRESS: &str = r#"
name = "metz-test"
system = "fr1870"
title = "Before Metz"
date = "1870-08-01"
first_cell = 6
sides = ["german", "french"]

[[unit]]
id = "de-vii"
name = "VII"
side = "german"
nation = "Prussia"
arm = "infantry"
strength = 4
hex = "1010"

[[unit]]
id = "de-1b"
name = "1B"
side = "german"
nation = "Bavaria"
arm = "infantry"
strength = 3
hex = "1110"

[[unit]]
id = "fr-3"
name = "3rd Division"
side = "french"
nation = "France"
arm = "infantry"
strength = 2
hex = "1011"

[[unit]]
id = "fort-metz"
name = "Metz"
side = "french"
nation = "France"
arm = "fortress"
strength = 2
hex = "1011"
"#;
