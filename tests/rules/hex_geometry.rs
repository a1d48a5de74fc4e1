//! Hex geometry against hand-worked examples (odd-q flat-topped columns unless said otherwise).

use std::collections::BTreeSet;

use kepi::hex::{
    Aspect, Direction, Hex, Hexside, Layout, Offset, ZocLimits, aspect, line_of_sight,
    zone_of_control,
};
use proptest::prelude::*;

fn h(label: &str) -> Hex {
    Hex::from_label(label, Layout::OddQ).unwrap()
}

fn labels(hexes: &[Hex]) -> Vec<String> {
    hexes
        .iter()
        .map(|x| x.label(Layout::OddQ).unwrap())
        .collect()
}

#[test]
fn labels_convert_both_ways() {
    // odd-q: r = row - (col - col%2) / 2
    let cases = [
        ("0304", Layout::OddQ, Hex::new(3, 3)),
        ("0304", Layout::EvenQ, Hex::new(3, 2)),
        ("0000", Layout::OddQ, Hex::new(0, 0)),
        ("0507", Layout::OddQ, Hex::new(5, 5)),
        ("2435", Layout::OddQ, Hex::new(24, 23)),
        ("2435", Layout::EvenQ, Hex::new(24, 23)),
        ("1001", Layout::OddQ, Hex::new(10, -4)),
    ];
    for (label, layout, hex) in cases {
        assert_eq!(
            Hex::from_label(label, layout).unwrap(),
            hex,
            "{label} {layout}"
        );
        assert_eq!(
            hex.label(layout).as_deref(),
            Some(label),
            "{hex:?} {layout}"
        );
    }
    assert_eq!(
        Hex::new(24, 23).to_offset(Layout::OddQ),
        Offset { col: 24, row: 35 }
    );
    assert_eq!(Hex::new(-1, 0).label(Layout::OddQ), None);
    assert_eq!(Hex::new(-1, 0).to_string(), "-1,0");
    assert_eq!("3,-1".parse::<Hex>().unwrap(), Hex::new(3, -1));
    assert_eq!(" 0304 ".parse::<Hex>().unwrap(), Hex::new(3, 3));
}

#[test]
fn bad_labels_are_named() {
    for bad in ["304", "03a4", "12345", "", "3;4", "x,1", "99999,1"] {
        let e = Hex::parse(bad, Layout::OddQ).unwrap_err();
        assert!(e.to_string().contains(&format!("`{bad}`")), "{e}");
    }
}

#[test]
fn distances_worked_by_hand() {
    let cases = [
        ("0101", "0101", 0),
        ("0101", "0102", 1),
        ("0101", "0201", 1), // odd column: NE neighbour is the same row
        ("0201", "0301", 1), // even column: SE neighbour is the same row
        ("0201", "0302", 2),
        ("0101", "0103", 2),
        ("0000", "1000", 10), // straight across ten columns, zig-zag
        ("0000", "0010", 10),
        ("0000", "0505", 8), // 5 columns drift 2 rows, then 3 more
        ("0304", "0507", 4),
        ("2435", "2435", 0),
    ];
    for (a, b, d) in cases {
        assert_eq!(h(a).distance(h(b)), d, "{a}-{b}");
        assert_eq!(h(b).distance(h(a)), d, "{b}-{a}");
    }
}

#[test]
fn neighbours_of_odd_and_even_columns() {
    // odd column 03, row 04
    let n: Vec<String> = labels(&h("0304").neighbours());
    assert_eq!(n, ["0303", "0404", "0405", "0305", "0205", "0204"]);
    // even column 04, row 04
    let n: Vec<String> = labels(&h("0404").neighbours());
    assert_eq!(n, ["0403", "0503", "0504", "0405", "0304", "0303"]);
    for d in Direction::ALL {
        assert_eq!(h("0404").direction_to(h("0404").neighbour(d)), Some(d));
    }
    assert_eq!(h("0404").direction_to(h("0606")), None);
}

#[test]
fn lines_worked_by_hand() {
    assert_eq!(
        labels(&h("0101").line_to(h("0104"))),
        ["0101", "0102", "0103", "0104"]
    );
    assert_eq!(
        labels(&h("0000").line_to(h("0301"))),
        ["0000", "0100", "0201", "0301"]
    );
    assert_eq!(labels(&h("0505").line_to(h("0505"))), ["0505"]);
    // Along a hexside: (0,0) to (2,-1) passes exactly between (1,0) and (1,-1).
    let a = Hex::new(0, 0);
    let b = Hex::new(2, -1);
    assert_eq!(a.line_to(b), vec![a, Hex::new(1, 0), b]);
    assert_eq!(a.line_to_other_side(b), vec![a, Hex::new(1, -1), b]);
}

#[test]
fn line_of_sight_worked_by_hand() {
    let a = Hex::new(0, 0);
    let b = Hex::new(3, 0);
    // flat ground: clear
    let s = line_of_sight(a, b, |_| 0);
    assert!(s.clear);
    assert_eq!(s.line.len(), 4);
    // a wood (height 1) between two level hexes blocks
    let s = line_of_sight(a, b, |x| i32::from(x == Hex::new(1, 0)));
    assert!(!s.clear);
    assert_eq!(s.blocking, vec![Hex::new(1, 0)]);
    // from a hill of 2 down to 0 over n = 3: the sight line is 4/3 at step 1 and 2/3 at step 2,
    // so a height-1 hex blocks at step 2 only
    let hill = |x: Hex| match x {
        x if x == a => 2,
        x if x == Hex::new(1, 0) || x == Hex::new(2, 0) => 1,
        _ => 0,
    };
    let s = line_of_sight(a, b, hill);
    assert_eq!(s.blocking, vec![Hex::new(2, 0)]);
    // a height equal to the sight line does not block
    let s = line_of_sight(a, b, |x| i32::from(x == a || x == b || x == Hex::new(1, 0)));
    assert!(s.clear);
    // the ends never block
    let s = line_of_sight(a, b, |x| if x == b { 9 } else { 0 });
    assert!(s.clear);
    // along a hexside: clear if either side is clear
    let c = Hex::new(2, -1);
    let s = line_of_sight(a, c, |x| i32::from(x == Hex::new(1, 0)));
    assert!(s.clear);
    assert_eq!(s.line, vec![a, Hex::new(1, -1), c]);
    let s = line_of_sight(a, c, |x| {
        i32::from(x == Hex::new(1, 0) || x == Hex::new(1, -1))
    });
    assert!(!s.clear);
}

#[test]
fn rings_and_discs() {
    let c = h("0505");
    assert_eq!(c.ring(0), vec![c]);
    let r1: BTreeSet<Hex> = c.ring(1).into_iter().collect();
    let n: BTreeSet<Hex> = c.neighbours().into_iter().collect();
    assert_eq!(r1, n);
    assert_eq!(c.ring(2).len(), 12);
    assert_eq!(c.disc(2).len(), 19);
    assert!(c.disc(2).iter().all(|x| x.distance(c) <= 2));
}

#[test]
fn hexsides_are_canonical() {
    let a = Hex::new(0, 0);
    for d in Direction::ALL {
        let b = a.neighbour(d);
        let s1 = Hexside::new(a, d);
        let s2 = Hexside::new(b, d.opposite());
        assert_eq!(s1, s2, "{d}");
        assert_eq!(Hexside::between(a, b), Some(s1));
        assert!(s1.touches(a) && s1.touches(b));
        assert!(matches!(
            s1.dir,
            Direction::N | Direction::NE | Direction::SE
        ));
    }
    assert_eq!(Hexside::between(a, Hex::new(2, 0)), None);
    assert_eq!(
        Hexside::new(a, Direction::S).hexes(),
        (Hex::new(0, 1), Hex::new(0, 0))
    );
}

/// Flank determination from each of the six directions, for a unit facing N and one facing SE.
#[test]
fn aspect_from_each_direction() {
    use Aspect::*;
    use Direction::*;
    let d = Hex::new(0, 0);
    let facing_n = [
        (N, Front),
        (NE, Front),
        (SE, Flank),
        (S, Rear),
        (SW, Flank),
        (NW, Front),
    ];
    for (from, want) in facing_n {
        assert_eq!(
            aspect(d, N, d.neighbour(from)),
            Some(want),
            "facing n, from {from}"
        );
    }
    let facing_se = [
        (N, Flank),
        (NE, Front),
        (SE, Front),
        (S, Front),
        (SW, Flank),
        (NW, Rear),
    ];
    for (from, want) in facing_se {
        assert_eq!(
            aspect(d, SE, d.neighbour(from)),
            Some(want),
            "facing se, from {from}"
        );
    }
    // every facing: three front, two flank, one rear
    for f in Direction::ALL {
        let got: Vec<Aspect> = Direction::ALL
            .iter()
            .map(|s| aspect(d, f, d.neighbour(*s)).unwrap())
            .collect();
        assert_eq!(got.iter().filter(|a| **a == Front).count(), 3);
        assert_eq!(got.iter().filter(|a| **a == Flank).count(), 2);
        assert_eq!(aspect(d, f, d.neighbour(f.opposite())), Some(Rear));
    }
    // a distant attacker straight behind is in the rear; the same hex has no aspect
    assert_eq!(aspect(d, N, d.step(S, 3)), Some(Rear));
    assert_eq!(aspect(d, N, d), None);
    assert!(Flank.is_flank_or_rear() && Rear.is_flank_or_rear() && !Front.is_flank_or_rear());
}

#[test]
fn zone_of_control_exceptions() {
    let u = Hex::new(0, 0);
    let all = zone_of_control(u, &ZocLimits::default());
    assert_eq!(all.len(), 6);
    let mut limits = ZocLimits::default();
    // a river along the unit's N hexside, given from the other hex's side
    limits
        .rivers
        .insert(Hexside::new(u.neighbour(Direction::N), Direction::S));
    // a hex held by the side the zone is exerted against
    limits.friendly_held.insert(u.neighbour(Direction::SE));
    let z = zone_of_control(u, &limits);
    assert_eq!(z.len(), 4);
    assert!(!z.contains(&u.neighbour(Direction::N)));
    assert!(!z.contains(&u.neighbour(Direction::SE)));
    assert!(z.contains(&u.neighbour(Direction::S)));
    // a river elsewhere changes nothing
    let mut far = ZocLimits::default();
    far.rivers
        .insert(Hexside::new(Hex::new(5, 5), Direction::N));
    assert_eq!(zone_of_control(u, &far).len(), 6);
}

#[test]
fn directions_and_layouts_parse() {
    for d in Direction::ALL {
        assert_eq!(d.to_string().parse::<Direction>().unwrap(), d);
        assert_eq!(d.rotate(6), d);
        assert_eq!(d.rotate(-1).rotate(1), d);
    }
    assert_eq!(Direction::N.rotate(-1), Direction::NW);
    assert_eq!("EVEN-Q".parse::<Layout>().unwrap(), Layout::EvenQ);
    assert!("pointy".parse::<Layout>().is_err());
    let j = serde_json::to_string(&Hex::new(1, -2)).unwrap();
    assert_eq!(j, r#"{"q":1,"r":-2}"#);
    assert_eq!(serde_json::to_string(&Direction::NE).unwrap(), "\"ne\"");
}

fn hex() -> impl Strategy<Value = Hex> {
    (-30i32..30, -30i32..30).prop_map(|(q, r)| Hex::new(q, r))
}

proptest! {
    #[test]
    fn distance_is_a_metric(a in hex(), b in hex(), c in hex()) {
        prop_assert_eq!(a.distance(b), b.distance(a));
        prop_assert!(a.distance(c) <= a.distance(b) + b.distance(c));
        prop_assert_eq!(a.distance(b) == 0, a == b);
    }

    #[test]
    fn lines_are_connected(a in hex(), b in hex()) {
        for line in [a.line_to(b), a.line_to_other_side(b)] {
            prop_assert_eq!(line.len() as u32, a.distance(b) + 1);
            prop_assert_eq!(line.first().copied(), Some(a));
            prop_assert_eq!(line.last().copied(), Some(b));
            for w in line.windows(2) {
                prop_assert_eq!(w[0].distance(w[1]), 1);
            }
        }
    }

    #[test]
    fn labels_round_trip(col in 0i32..100, row in 0i32..100) {
        for layout in Layout::ALL {
            let x = Hex::from_offset(Offset { col, row }, layout);
            let l = x.label(layout).unwrap();
            prop_assert_eq!(Hex::from_label(&l, layout).unwrap(), x);
        }
    }
}
