//! The hex map for the hex rule sets (Portable Wargame, SPI, 1870).

use crate::rules::System;

/// True for the rule sets played on hexes.
pub fn has_map(system: System) -> bool {
    matches!(system, System::Pw | System::Spi | System::Fr1870)
}
