//! The rule-id glossary: every id of [`super::ALL_RULE_IDS`] with a short name and the text it
//! comes from, for the window's Help > Rule glossary (a test checks that no id is missing).

/// One rule id explained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GlossaryEntry {
    /// The id ("PK-F3").
    pub id: &'static str,
    /// What the mechanic is, in a few words.
    pub name: &'static str,
    /// The rule text it comes from.
    pub source: &'static str,
}

const DICE: &str = "kepi's dice (all rule sets)";
const PK: &str = "Pickelhaube & Kepi (seed 002)";
const PW: &str = "Portable Wargame, Franco-Prussian variant (seed 003)";
const GSP: &str = "Graveyard St. Privat, artillery (seed 004)";
const SPI: &str = "SPI Franco-Prussian War (seed 000)";
const FR: &str = "1870 (seed 001)";
const CAMP: &str = "kepi's campaign steps (house, issue 30)";

const fn e(id: &'static str, name: &'static str, source: &'static str) -> GlossaryEntry {
    GlossaryEntry { id, name, source }
}

/// Every rule id kepi knows from RULES.md, in its order.
pub const GLOSSARY: &[GlossaryEntry] = &[
    e("DICE-1", "Dice: d6, 2d6, d10, d%", DICE),
    e("DICE-2", "Seeded or entered dice, one log", DICE),
    e("DICE-3", "Exact odds before rolling", DICE),
    e("PK-T1", "Turn: initiative d% and the four parts", PK),
    e("PK-C1", "Classes: Elite, Veteran, Line", PK),
    e("PK-U1", "URT activities", PK),
    e("PK-M1", "Movement in inches", PK),
    e("PK-V1", "Visibility", PK),
    e("PK-F1", "Rifle fire", PK),
    e("PK-F2", "Firing first", PK),
    e("PK-F3", "Enfilade", PK),
    e("PK-F4", "Infantry against advancing cavalry", PK),
    e("PK-F5", "Cover", PK),
    e("PK-F6", "Firing at a disordered enemy", PK),
    e("PK-F7", "Supporting fire", PK),
    e("PK-A1", "Artillery fire", PK),
    e("PK-A2", "Artillery damage", PK),
    e("PK-A3", "Counter-battery fire", PK),
    e("PK-A4", "Buildings under fire", PK),
    e("PK-L1", "Leaders falling", PK),
    e("PK-L2", "Generals and staff at a rally", PK),
    e("PK-E1", "Effectiveness levels and rally", PK),
    e("PK-X1", "Melee contact", PK),
    e("PK-X2", "Melee counter roll", PK),
    e("PK-X3", "Melee LF", PK),
    e("PK-X4", "Loser's flag", PK),
    e("PK-X5", "Melee fatigue and pursuit", PK),
    e("PK-X6", "Falling back from a melee", PK),
    e("PK-X7", "Melee limits per turn", PK),
    e("PK-D1", "Disorder and muddle causes", PK),
    e("PK-W1", "Victory and army morale", PK),
    e("PW-U1", "Unit table", PW),
    e("PW-V1", "Victory", PW),
    e("PW-T1", "Turn: half-turns and phases", PW),
    e("PW-T2", "Activation roll", PW),
    e("PW-A1", "Artillery fire", PW),
    e("PW-R1", "Rifle fire", PW),
    e("PW-X1", "Melee", PW),
    e("PW-X2", "Breaking off a melee", PW),
    e("PW-H1", "Artillery hit by fire", PW),
    e("PW-G1", "Ranges and moves in hexes", PW),
    e("GSP-A1", "Hit chart", GSP),
    e("GSP-A2", "Line of sight and high trajectory", GSP),
    e("GSP-A3", "Accuracy of aim (drift)", GSP),
    e("GSP-A4", "Artillery procedure", GSP),
    e("GSP-C1", "Personnel hits and cover", GSP),
    e("GSP-C2", "Structures and equipment", GSP),
    e("GSP-C3", "Gun crews and limber teams", GSP),
    e("GSP-S1", "Siege gun", GSP),
    e("SPI-T1", "Game-turns and calendar", SPI),
    e("SPI-C1", "Combat odds and CRT", SPI),
    e("SPI-C2", "Who attacks and defends", SPI),
    e("SPI-C3", "Flanking attack", SPI),
    e("SPI-C4", "Advance after combat", SPI),
    e("SPI-C5", "Terrain in combat", SPI),
    e("SPI-S1", "Supply", SPI),
    e("SPI-F1", "Fortifications", SPI),
    e("SPI-R1", "Unit reduction", SPI),
    e("SPI-H1", "Hasty attack", SPI),
    e("SPI-H2", "Formation status", SPI),
    e("SPI-O1", "Variable orders of battle", SPI),
    e("SPI-E1", "EB units crossing rivers", SPI),
    e("SPI-W1", "Victory points and levels", SPI),
    e("SPI-I1", "Initial forces and reinforcements", SPI),
    e("SPI-M1", "Movement and the Terrain Effects Chart", SPI),
    e("SPI-Z1", "Zones of control", SPI),
    e("SPI-L1", "Rail movement", SPI),
    e("SPI-S2", "Supply sources", SPI),
    e("SPI-E2", "EB units and secured rail lines", SPI),
    e("FR-T1", "Turns and calendar cells", FR),
    e("FR-C1", "Force ratio and CRT", FR),
    e("FR-C2", "Combat results", FR),
    e("FR-C3", "Cavalry refusing combat", FR),
    e("FR-S1", "Supply and disorganisation", FR),
    e("FR-F1", "Fortresses", FR),
    e("FR-B1", "Blockade calendar", FR),
    e("FR-R1", "Rebuilding disorganised units", FR),
    e("FR-L1", "Starting situations", FR),
    e("FR-M1", "Movement by the Terrain Table", FR),
    e("FR-F4", "Supply lines and logistic bases", FR),
    e(
        "FR-G1",
        "Railway transport (the text's G2-G5; kepi's id)",
        FR,
    ),
    e("FR-K1", "Sea transport (the text's K1-K5; kepi's id)", FR),
    e("CAMP-B1", "A campaign combat fought as a battle", CAMP),
    e("CAMP-C1", "Board units converted to table units", CAMP),
    e("CAMP-C2", "Battle losses carried back", CAMP),
    e("CAMP-R1", "The battle's result on the board", CAMP),
];

/// The entry for `id` (case-insensitive), if the glossary has one.
pub fn lookup(id: &str) -> Option<&'static GlossaryEntry> {
    GLOSSARY
        .iter()
        .find(|g| g.id.eq_ignore_ascii_case(id.trim()))
}

/// The entries whose id, name or source contains `filter` (case-insensitive; all for "").
pub fn filtered(filter: &str) -> impl Iterator<Item = &'static GlossaryEntry> {
    let f = filter.trim().to_lowercase();
    GLOSSARY.iter().filter(move |g| {
        f.is_empty()
            || g.id.to_lowercase().contains(&f)
            || g.name.to_lowercase().contains(&f)
            || g.source.to_lowercase().contains(&f)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_id_has_one_entry_in_order() {
        let ids: Vec<&str> = GLOSSARY.iter().map(|g| g.id).collect();
        assert_eq!(ids, super::super::ALL_RULE_IDS);
    }

    #[test]
    fn filter_matches_id_name_and_source() {
        for g in GLOSSARY {
            let lower = g.id.to_lowercase();
            assert!(filtered(&lower).any(|f| f.id == g.id), "{lower}");
            assert_eq!(lookup(&format!(" {lower} ")).map(|f| f.name), Some(g.name));
        }
        assert!(filtered("enfilade").any(|g| g.id == "PK-F3"));
        assert_eq!(filtered("seed 004").count(), 8);
        assert_eq!(filtered("").count(), GLOSSARY.len());
        assert_eq!(
            lookup("GSP-A3").map(|g| g.name),
            Some("Accuracy of aim (drift)")
        );
    }
}
