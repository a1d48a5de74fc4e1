//! The odds-ratio combat results table engine shared by SPI and 1870 (not yet implemented).
