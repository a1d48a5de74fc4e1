//! Maps (issue 41): loading and checking a 2,400-cell map (60 x 40, generated here with terrain,
//! rivers, roads and rails; target 20 ms or less), and the reachable cells of an 8-MP unit on it
//! (target 1 ms or less), with the terrain table's costs alone and under SPI's movement rules
//! (issue 42: rough's first hex, zones of control, stacking, closed countries), and supply for
//! every unit of a side under SPI's rules (SPI-S1, SPI-S2, SPI-F1: 40 units a side, zones of
//! control, fortresses' zones of interdiction, a rail line traced from the edge; target 20 ms or
//! less), and the same under 1870's lines of communication (FR-F4). Run: `cargo bench --bench
//! map`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a bench may fail loudly

use std::fmt::Write as _;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use kepi::hex::{Hex, Layout};
use kepi::map::supply::{Fort, Piece, trace};
use kepi::map::{EnemyAt, FriendAt, Map, Side, Units, reach, reach_under};

/// A 60 x 40 SPI map as a club would write it: clear by default, the club's forest (2 MP) and
/// marsh (3 MP) in blocks, SPI's rough in a few cells (no single cost: unknown), three rivers
/// running down the board with a bridge on each, two rail sections and a road across it, places
/// and countries.
fn board() -> String {
    let mut s = String::from(
        "[map]\nname = \"bench board\"\nrules = \"spi\"\nfirst = \"0101\"\nlast = \"6040\"\n\
         default_terrain = \"clear\"\ndefault_country = \"france\"\n\n\
         [provenance]\nsource = \"club\"\ndrawn_by = \"the bench\"\nfrom = \"generated\"\n\n\
         [[terrain]]\nname = \"forest\"\nmovement = \"2 MP\"\nmp = 2\n\n\
         [[terrain]]\nname = \"marsh\"\nmovement = \"3 MP\"\nmp = 3\n\n[cells]\n",
    );
    let mut forest = Vec::new();
    let mut marsh = Vec::new();
    let mut rough = Vec::new();
    for c in (2..=51).step_by(7) {
        for r in (2..=32).step_by(6) {
            forest.push(format!("\"{:02}{:02}-{:02}{:02}\"", c, r, c + 1, r + 2));
            marsh.push(format!("\"{:02}{:02}\"", c + 3, r + 3));
            rough.push(format!("\"{:02}{:02}\"", c + 4, r + 1));
        }
    }
    writeln!(s, "forest = [{}]", forest.join(", ")).unwrap();
    writeln!(s, "marsh = [{}]", marsh.join(", ")).unwrap();
    writeln!(s, "rough = [{}]", rough.join(", ")).unwrap();
    s.push_str("\n[countries]\ngermany = [\"4501-6040\"]\n");
    // SPI-S2: the French rail lines off the west edge, the German "S" in the north-east corner.
    s.push_str(
        "\n[[edge]]\nrole = \"supply\"\nside = \"french\"\nname = \"west rail\"\n\
         cells = [\"0110\", \"0130\"]\n\n[[edge]]\nrole = \"supply\"\nside = \"german\"\n\
         name = \"S\"\ncells = [\"6001\"]\n",
    );
    for col in [15, 30, 45] {
        let sides: Vec<String> = (1..=40).map(|r| format!("\"{col:02}{r:02}:se\"")).collect();
        writeln!(s, "\n[[river]]\nsides = [{}]", sides.join(", ")).unwrap();
        writeln!(s, "\n[[bridge]]\nsides = [\"{col:02}20:se\"]").unwrap();
    }
    for (row, name) in [(10, "north line"), (30, "south line")] {
        let path: Vec<String> = (1..=60).map(|c| format!("\"{c:02}{row:02}\"")).collect();
        writeln!(
            s,
            "\n[[rail]]\nsection = \"{name}\"\ncapacity = 3\npath = [{}]",
            path.join(", ")
        )
        .unwrap();
    }
    let road: Vec<String> = (1..=40).map(|r| format!("\"20{r:02}\"")).collect();
    writeln!(s, "\n[[road]]\npath = [{}]", road.join(", ")).unwrap();
    for (i, c) in ["1010", "3030", "5020"].iter().enumerate() {
        writeln!(
            s,
            "\n[[place]]\nname = \"Town {i}\"\ncell = \"{c}\"\nkind = [\"town\", \"fortress\"]"
        )
        .unwrap();
    }
    s
}

fn bench(c: &mut Criterion) {
    let text = board();
    let map = Map::from_source("bench.toml", &text).unwrap();
    assert_eq!(map.grid.len(), 2400);
    c.bench_function("map: load and check a 60 x 40 map (2,400 cells)", |b| {
        b.iter(|| Map::from_source("bench.toml", black_box(&text)).unwrap())
    });
    let from = Hex::from_label("3020", Layout::OddQ).unwrap();
    let enemy: Vec<Hex> = ["3424", "2617", "3315"]
        .iter()
        .map(|l| Hex::from_label(l, Layout::OddQ).unwrap())
        .collect();
    let r = reach(&map, from, 8, &enemy).unwrap();
    println!(
        "reach from 3020 with 8 MP: {} cells, {} of unknown cost, {} enemy-held",
        r.cells.len(),
        r.unknown.len(),
        r.enemy.len()
    );
    c.bench_function("map: reachable cells of an 8-MP unit", |b| {
        b.iter(|| reach(black_box(&map), from, 8, &enemy).unwrap())
    });
    // SPI's rules (SPI-M1, SPI-Z1): the same three enemy units exerting zones of control, two
    // friendly units to stack with.
    let rules = kepi::rules::spi::set::board_rules().moves;
    let units = Units {
        enemy: enemy
            .iter()
            .map(|h| EnemyAt {
                hex: *h,
                bars: true,
                zoc: true,
            })
            .collect(),
        friends: ["3121", "2919"]
            .iter()
            .map(|l| FriendAt {
                hex: Hex::from_label(l, Layout::OddQ).unwrap(),
                stack: true,
                shields: true,
            })
            .collect(),
    };
    let r = reach_under(&map, from, 8, Some(&rules), &units, &[]).unwrap();
    println!(
        "reach under SPI's rules from 3020 with 8 MP: {} cells, {} in a zone of control",
        r.cells.len(),
        r.cells.iter().filter(|c| c.zoc).count()
    );
    c.bench_function(
        "map: reachable cells of an 8-MP unit, SPI rules and ZOC",
        |b| b.iter(|| reach_under(black_box(&map), from, 8, Some(&rules), &units, &[]).unwrap()),
    );
}

/// A piece of the supply bench.
fn piece(id: String, side: Side, label: &str, fort: Option<Fort>) -> Piece {
    Piece {
        id,
        side,
        hex: Hex::from_label(label, Layout::OddQ).unwrap(),
        bars: true,
        zoc: fort.is_none(),
        shields: true,
        traces: fort.is_none(),
        fort,
    }
}

/// SPI-S1, SPI-S2, SPI-F1: supply for every unit of a side (40 French units against 40 German
/// ones exerting zones of control, three fortresses, one of them German and interdicting).
fn supply(c: &mut Criterion) {
    let map = Map::from_source("bench.toml", &board()).unwrap();
    let rules = kepi::rules::spi::supply::supply_rules().rules;
    let mut pieces = Vec::new();
    for i in 0..40 {
        let at = format!("{:02}{:02}", 2 + (i % 8) * 4, 3 + (i / 8) * 8);
        pieces.push(piece(format!("fr-{i}"), Side::French, &at, None));
        let at = format!("{:02}{:02}", 36 + (i % 8) * 3, 2 + (i / 8) * 8);
        pieces.push(piece(format!("de-{i}"), Side::German, &at, None));
    }
    let fort = |name: &str, capacity| {
        Some(Fort {
            name: name.into(),
            capacity,
        })
    };
    pieces.push(piece(
        "fort-0".into(),
        Side::French,
        "1010",
        fort("Town 0", Some(1)),
    ));
    pieces.push(piece(
        "fort-metz".into(),
        Side::French,
        "3030",
        fort("Metz", None),
    ));
    pieces.push(piece(
        "fort-2".into(),
        Side::German,
        "5020",
        fort("Town 2", Some(1)),
    ));
    let s = trace(&map, &rules, &pieces, Side::French, &[]);
    let count = |w: &str| s.units.iter().filter(|t| t.status.as_str() == w).count();
    println!(
        "supply of the French side: {} units: {} supplied, {} unsupplied, {} isolated; {} sources",
        s.units.len(),
        count("supplied"),
        count("unsupplied"),
        count("isolated"),
        s.sources.len()
    );
    c.bench_function("map: supply for every unit of a side, SPI rules", |b| {
        b.iter(|| trace(black_box(&map), &rules, &pieces, Side::French, &[]))
    });
    // FR-F4 on the same board and pieces: lines through the cells the French units hold or
    // control, or rail sections at their disposal, of any length; with no line, what stands in
    // the way within 40 cells.
    let fr = kepi::rules::fr1870::board::supply_rules().rules;
    let s = trace(&map, &fr, &pieces, Side::French, &[]);
    let count = |w: &str| s.units.iter().filter(|t| t.status.as_str() == w).count();
    println!(
        "FR-F4 supply of the French side: {} units: {} supplied, {} unsupplied",
        s.units.len(),
        count("supplied"),
        count("unsupplied"),
    );
    c.bench_function(
        "map: supply for every unit of a side, 1870 rules (FR-F4)",
        |b| b.iter(|| trace(black_box(&map), &fr, &pieces, Side::French, &[])),
    );
}

criterion_group!(benches, bench, supply);
criterion_main!(benches);
