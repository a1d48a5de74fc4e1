//! Hex grid geometry for every hex rule set and the window's map: axial coordinates, board labels,
//! distance, neighbours, rings and discs, lines and line of sight, hexsides, facing and zones of control.
//!
//! # Conventions (one place, used everywhere)
//!
//! * Hexes are **flat-topped** and stand in vertical columns, as on the Hexon and most printed boards
//!   labelled "column then row". kepi computes in **axial** coordinates [`Hex`] `{ q, r }` (q = column;
//!   the third cube coordinate is `s = -q - r`). Screen y grows downwards, so [`Direction::N`] is "up".
//! * Board labels are four digits, column then row: `"2435"` is column 24, row 35. Which columns are
//!   shoved half a hex down is the board's [`Layout`]: [`Layout::OddQ`] (the default: odd columns sit
//!   half a hex lower) or [`Layout::EvenQ`]. Column 0 of the label is axial `q = 0`.
//! * The six [`Direction`]s are the six hexsides of a flat-topped hex, clockwise from the top:
//!   N, NE, SE, S, SW, NW.
//! * Lines between hexes are cube lerps with an epsilon nudge ([`Hex::line_to`]); a line that runs
//!   exactly along a hexside is nudged to one side, and [`line_of_sight`] tries both sides.
//! * Facing ([`aspect`]): the hexside a unit faces plus its two neighbours are its front, the opposite
//!   hexside its rear, the remaining two its flanks (see [`Aspect`]).

use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// One hex in axial coordinates (flat-topped columns; see the module docs).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct Hex {
    /// The column coordinate (equal to the board label's column).
    pub q: i32,
    /// The axial row coordinate (a diagonal, not the label's row: see [`Layout`]).
    pub r: i32,
}

/// The six hexsides of a flat-topped hex, clockwise from the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// Straight up the column.
    N,
    /// Up and right.
    NE,
    /// Down and right.
    SE,
    /// Straight down the column.
    S,
    /// Down and left.
    SW,
    /// Up and left.
    NW,
}

impl Direction {
    /// All six, clockwise from N; `ALL[i].index() == i`.
    pub const ALL: [Direction; 6] = [
        Direction::N,
        Direction::NE,
        Direction::SE,
        Direction::S,
        Direction::SW,
        Direction::NW,
    ];

    /// Position in [`Direction::ALL`] (0 = N, clockwise).
    pub fn index(self) -> usize {
        match self {
            Direction::N => 0,
            Direction::NE => 1,
            Direction::SE => 2,
            Direction::S => 3,
            Direction::SW => 4,
            Direction::NW => 5,
        }
    }

    /// The direction `steps` hexsides clockwise (negative: anticlockwise).
    pub fn rotate(self, steps: i32) -> Direction {
        let i = (self.index() as i32 + steps).rem_euclid(6) as usize;
        Direction::ALL[i % 6]
    }

    /// The opposite hexside.
    pub fn opposite(self) -> Direction {
        self.rotate(3)
    }

    /// The axial step `(dq, dr)` across this hexside.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Direction::N => (0, -1),
            Direction::NE => (1, -1),
            Direction::SE => (1, 0),
            Direction::S => (0, 1),
            Direction::SW => (-1, 1),
            Direction::NW => (-1, 0),
        }
    }

    /// The short name ("ne").
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::N => "n",
            Direction::NE => "ne",
            Direction::SE => "se",
            Direction::S => "s",
            Direction::SW => "sw",
            Direction::NW => "nw",
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Direction {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        Direction::ALL
            .into_iter()
            .find(|d| d.as_str() == t)
            .ok_or_else(|| format!("unknown direction `{s}` (accepted: n, ne, se, s, sw, nw)"))
    }
}

/// Which columns of a board are shoved half a hex down (flat-topped hexes in columns).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Layout {
    /// Odd columns sit half a hex lower than even ones (kepi's default).
    #[default]
    OddQ,
    /// Even columns sit half a hex lower than odd ones.
    EvenQ,
}

impl Layout {
    /// Both layouts.
    pub const ALL: [Layout; 2] = [Layout::OddQ, Layout::EvenQ];

    /// The name used on the command line ("odd-q").
    pub fn as_str(self) -> &'static str {
        match self {
            Layout::OddQ => "odd-q",
            Layout::EvenQ => "even-q",
        }
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Layout {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        Layout::ALL
            .into_iter()
            .find(|l| l.as_str() == t)
            .ok_or_else(|| format!("unknown layout `{s}` (accepted: odd-q, even-q)"))
    }
}

/// A column and row as printed on a board (the two halves of a label).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Offset {
    /// Column (the label's first two digits).
    pub col: i32,
    /// Row (the label's last two digits).
    pub row: i32,
}

/// Why a hex label could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{input}` is not a hex: {reason} (accepted: a four-digit label such as 0304, or axial q,r such as 3,2)"
)]
pub struct HexParseError {
    /// What was typed.
    pub input: String,
    /// What is wrong with it.
    pub reason: String,
}

/// The exact cube-rounding of fractional cube coordinates.
fn cube_round(q: f64, r: f64, s: f64) -> Hex {
    let (mut rq, mut rr, rs) = (q.round(), r.round(), s.round());
    let (dq, dr, ds) = ((rq - q).abs(), (rr - r).abs(), (rs - s).abs());
    if dq > dr && dq > ds {
        rq = -rr - rs;
    } else if dr > ds {
        rr = -rq - rs;
    }
    Hex {
        q: rq as i32,
        r: rr as i32,
    }
}

impl Hex {
    /// A hex from axial coordinates.
    pub const fn new(q: i32, r: i32) -> Hex {
        Hex { q, r }
    }

    /// The third cube coordinate, `-q - r`.
    pub fn s(self) -> i32 {
        -self.q - self.r
    }

    /// The hex at a printed column and row.
    pub fn from_offset(o: Offset, layout: Layout) -> Hex {
        let parity = o.col & 1;
        let shift = match layout {
            Layout::OddQ => (o.col - parity) / 2,
            Layout::EvenQ => (o.col + parity) / 2,
        };
        Hex {
            q: o.col,
            r: o.row - shift,
        }
    }

    /// The printed column and row of this hex.
    pub fn to_offset(self, layout: Layout) -> Offset {
        let parity = self.q & 1;
        let shift = match layout {
            Layout::OddQ => (self.q - parity) / 2,
            Layout::EvenQ => (self.q + parity) / 2,
        };
        Offset {
            col: self.q,
            row: self.r + shift,
        }
    }

    /// The four-digit board label ("0304"), or None when column or row is outside 0-99.
    pub fn label(self, layout: Layout) -> Option<String> {
        let o = self.to_offset(layout);
        ((0..=99).contains(&o.col) && (0..=99).contains(&o.row))
            .then(|| format!("{:02}{:02}", o.col, o.row))
    }

    /// The label where there is one, else the axial form "q,r" (for printing any hex).
    pub fn label_or_axial(self, layout: Layout) -> String {
        self.label(layout)
            .unwrap_or_else(|| format!("{},{}", self.q, self.r))
    }

    /// Reads a four-digit label ("2435": column 24, row 35).
    pub fn from_label(s: &str, layout: Layout) -> Result<Hex, HexParseError> {
        let t = s.trim();
        let err = |reason: &str| HexParseError {
            input: s.to_string(),
            reason: reason.to_string(),
        };
        if t.len() != 4 || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err("a label is exactly four digits, column then row"));
        }
        let col = t
            .get(0..2)
            .and_then(|c| c.parse::<i32>().ok())
            .ok_or_else(|| err("bad column"))?;
        let row = t
            .get(2..4)
            .and_then(|c| c.parse::<i32>().ok())
            .ok_or_else(|| err("bad row"))?;
        Ok(Hex::from_offset(Offset { col, row }, layout))
    }

    /// Reads a label ("0304") or axial coordinates ("3,-1").
    pub fn parse(s: &str, layout: Layout) -> Result<Hex, HexParseError> {
        let t = s.trim();
        if let Some((a, b)) = t.split_once(',') {
            let q = a.trim().parse::<i32>();
            let r = b.trim().parse::<i32>();
            return match (q, r) {
                (Ok(q), Ok(r)) if q.abs() <= 10_000 && r.abs() <= 10_000 => Ok(Hex { q, r }),
                _ => Err(HexParseError {
                    input: s.to_string(),
                    reason: "axial coordinates are two integers from -10000 to 10000".into(),
                }),
            };
        }
        Hex::from_label(t, layout)
    }

    /// The neighbour across one hexside.
    pub fn neighbour(self, d: Direction) -> Hex {
        let (dq, dr) = d.delta();
        Hex {
            q: self.q + dq,
            r: self.r + dr,
        }
    }

    /// The six neighbours, in [`Direction::ALL`] order.
    pub fn neighbours(self) -> [Hex; 6] {
        Direction::ALL.map(|d| self.neighbour(d))
    }

    /// The hex `n` steps away in one direction.
    pub fn step(self, d: Direction, n: i32) -> Hex {
        let (dq, dr) = d.delta();
        Hex {
            q: self.q + dq * n,
            r: self.r + dr * n,
        }
    }

    /// Hexes between the two, counted as a unit moves (PW-G1: ranges and moves are in hexes).
    pub fn distance(self, other: Hex) -> u32 {
        let dq = (self.q - other.q).unsigned_abs();
        let dr = (self.r - other.r).unsigned_abs();
        let ds = (self.s() - other.s()).unsigned_abs();
        (dq + dr + ds) / 2
    }

    /// The direction of an adjacent hex (None when not adjacent).
    pub fn direction_to(self, other: Hex) -> Option<Direction> {
        Direction::ALL
            .into_iter()
            .find(|d| self.neighbour(*d) == other)
    }

    /// The hexside the straight line towards `other` leaves this hex by: the direction of the first
    /// step of [`Hex::line_to`] (None when the two are the same hex).
    pub fn bearing(self, other: Hex) -> Option<Direction> {
        let line = self.line_to(other);
        line.get(1).and_then(|h| self.direction_to(*h))
    }

    /// The hexes at exactly `radius` from this one, starting at the ring's SW corner and walking
    /// clockwise; radius 0 is the hex itself.
    pub fn ring(self, radius: u32) -> Vec<Hex> {
        if radius == 0 {
            return vec![self];
        }
        let n = radius as i32;
        let mut out = Vec::with_capacity(6 * radius as usize);
        let mut h = self.step(Direction::SW, n);
        for d in Direction::ALL {
            for _ in 0..radius {
                out.push(h);
                h = h.neighbour(d);
            }
        }
        out
    }

    /// Every hex within `radius` (the disc), sorted; radius 0 is the hex itself.
    pub fn disc(self, radius: u32) -> Vec<Hex> {
        let n = radius as i32;
        let mut out = Vec::new();
        for dq in -n..=n {
            for dr in (-n).max(-dq - n)..=n.min(-dq + n) {
                out.push(Hex {
                    q: self.q + dq,
                    r: self.r + dr,
                });
            }
        }
        out.sort();
        out
    }

    /// The hexes on the straight line from this hex to `other`, both ends included, in order.
    ///
    /// Cube lerp between the two centres, each point rounded to its hex; both ends are nudged by a
    /// tiny epsilon (+1e-6, +2e-6, -3e-6 in cube q, r, s) so a line that runs exactly along a hexside
    /// always picks the same side. [`Hex::line_to_other_side`] nudges the other way.
    pub fn line_to(self, other: Hex) -> Vec<Hex> {
        self.line_nudged(other, 1.0)
    }

    /// The same line nudged to the other side of any hexside it runs along.
    pub fn line_to_other_side(self, other: Hex) -> Vec<Hex> {
        self.line_nudged(other, -1.0)
    }

    fn line_nudged(self, other: Hex, sign: f64) -> Vec<Hex> {
        let n = self.distance(other);
        if n == 0 {
            return vec![self];
        }
        let (eq, er, es) = (1e-6 * sign, 2e-6 * sign, -3e-6 * sign);
        let (aq, ar, as_) = (self.q as f64 + eq, self.r as f64 + er, self.s() as f64 + es);
        let (bq, br, bs) = (
            other.q as f64 + eq,
            other.r as f64 + er,
            other.s() as f64 + es,
        );
        (0..=n)
            .map(|i| {
                let t = i as f64 / n as f64;
                cube_round(aq + (bq - aq) * t, ar + (br - ar) * t, as_ + (bs - as_) * t)
            })
            .collect()
    }
}

impl fmt::Display for Hex {
    /// The odd-q label where there is one ("0304"), else "q,r".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label_or_axial(Layout::OddQ))
    }
}

impl FromStr for Hex {
    type Err = HexParseError;
    /// A four-digit odd-q label ("0304") or axial "q,r".
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Hex::parse(s, Layout::OddQ)
    }
}

/// One hexside, identified canonically: the hex plus one of its N, NE or SE sides, so the same edge
/// reached from either hex is the same value (rivers, ridges, walls).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Hexside {
    /// The hex that owns the side.
    pub hex: Hex,
    /// N, NE or SE.
    pub dir: Direction,
}

impl Hexside {
    /// The side of `hex` facing `dir`, in canonical form.
    pub fn new(hex: Hex, dir: Direction) -> Hexside {
        match dir {
            Direction::N | Direction::NE | Direction::SE => Hexside { hex, dir },
            Direction::S | Direction::SW | Direction::NW => Hexside {
                hex: hex.neighbour(dir),
                dir: dir.opposite(),
            },
        }
    }

    /// The side shared by two adjacent hexes (None when they are not adjacent).
    pub fn between(a: Hex, b: Hex) -> Option<Hexside> {
        a.direction_to(b).map(|d| Hexside::new(a, d))
    }

    /// The two hexes this side separates.
    pub fn hexes(self) -> (Hex, Hex) {
        (self.hex, self.hex.neighbour(self.dir))
    }

    /// True when `h` is one of the two hexes this side separates.
    pub fn touches(self, h: Hex) -> bool {
        let (a, b) = self.hexes();
        a == h || b == h
    }
}

impl fmt::Display for Hexside {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (a, b) = self.hexes();
        write!(f, "{a}/{b}")
    }
}

/// Which of a unit's hexsides an attack comes through.
///
/// Convention (documented here once): the hexside the unit faces and its two neighbours are the
/// **front**; the opposite hexside is the **rear**; the two remaining hexsides are the **flanks**.
/// The Portable Wargame variant (PW-X1) gives the same modifier for flank and rear, so what matters
/// there is only front against not-front.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Aspect {
    /// Through the faced hexside or either side of it.
    Front,
    /// Through one of the two side hexsides behind the front.
    Flank,
    /// Through the hexside opposite the facing.
    Rear,
}

impl Aspect {
    /// All three.
    pub const ALL: [Aspect; 3] = [Aspect::Front, Aspect::Flank, Aspect::Rear];

    /// The word used in files and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Aspect::Front => "front",
            Aspect::Flank => "flank",
            Aspect::Rear => "rear",
        }
    }

    /// True for flank and rear (the PW-X1 modifiers).
    pub fn is_flank_or_rear(self) -> bool {
        self != Aspect::Front
    }

    /// The aspect of the hexside `side` for a unit facing `facing`.
    pub fn of_side(facing: Direction, side: Direction) -> Aspect {
        match (side.index() + 6 - facing.index()) % 6 {
            0 | 1 | 5 => Aspect::Front,
            3 => Aspect::Rear,
            _ => Aspect::Flank,
        }
    }
}

impl fmt::Display for Aspect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Aspect {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        Aspect::ALL
            .into_iter()
            .find(|a| a.as_str() == t)
            .ok_or_else(|| format!("unknown aspect `{s}` (accepted: front, flank, rear)"))
    }
}

/// Through which of its hexsides a unit at `defender`, facing `facing`, is attacked from
/// `attacker`: adjacent attackers by the shared hexside, distant ones by the hexside the straight
/// line to them leaves through ([`Hex::bearing`]). None when both stand in the same hex.
pub fn aspect(defender: Hex, facing: Direction, attacker: Hex) -> Option<Aspect> {
    let side = defender
        .direction_to(attacker)
        .or_else(|| defender.bearing(attacker))?;
    Some(Aspect::of_side(facing, side))
}

/// What [`line_of_sight`] found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sight {
    /// True when the target can be seen.
    pub clear: bool,
    /// The hexes of the line examined, both ends included.
    pub line: Vec<Hex>,
    /// The hexes on that line that block it (empty when clear).
    pub blocking: Vec<Hex>,
}

/// Line of sight from `from` to `to` over terrain heights.
///
/// The rule: the sight line runs straight from the height of `from` to the height of `to` (each
/// hex's value of `height`, which the caller makes the ground plus anything standing on it that
/// should count: woods, a town, a unit on a ridge). Each hex strictly between the two ends is
/// examined at its place on the line (step `i` of `n`); it **blocks** when its height is strictly
/// greater than the sight line's height there, i.e. `height(h) * n > h_from * (n - i) + h_to * i`
/// (exact integer arithmetic). Ends never block; adjacent hexes always see each other. When the
/// line runs exactly along a hexside it is traced on both sides; the sight is clear if either side is
/// clear (the benefit of the doubt goes to the observer).
pub fn line_of_sight(from: Hex, to: Hex, height: impl Fn(Hex) -> i32) -> Sight {
    let examine = |line: Vec<Hex>| -> (Vec<Hex>, Vec<Hex>) {
        let n = line.len().saturating_sub(1) as i64;
        let (h0, h1) = (height(from) as i64, height(to) as i64);
        let blocking = line
            .iter()
            .enumerate()
            .filter(|(i, _)| *i > 0 && (*i as i64) < n)
            .filter(|(i, h)| {
                let i = *i as i64;
                height(**h) as i64 * n > h0 * (n - i) + h1 * i
            })
            .map(|(_, h)| *h)
            .collect();
        (line, blocking)
    };
    let (line, blocking) = examine(from.line_to(to));
    if blocking.is_empty() {
        return Sight {
            clear: true,
            line,
            blocking,
        };
    }
    let (other, other_blocking) = examine(from.line_to_other_side(to));
    if other_blocking.is_empty() {
        return Sight {
            clear: true,
            line: other,
            blocking: other_blocking,
        };
    }
    Sight {
        clear: false,
        line,
        blocking,
    }
}

/// What limits a unit's zone of control (the board games' exceptions), given by the caller.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZocLimits {
    /// River (and other ZOC-stopping) hexsides: no zone of control extends across them.
    pub rivers: BTreeSet<Hexside>,
    /// Hexes held by units of the side moving through the zone (the zone-owner's enemies'
    /// "friendly-held" hexes): no zone of control extends into them.
    pub friendly_held: BTreeSet<Hex>,
}

/// The zone of control of a unit at `unit`: its six neighbours, less any across a river hexside and
/// any held by the side the zone is exerted against. Sorted.
pub fn zone_of_control(unit: Hex, limits: &ZocLimits) -> Vec<Hex> {
    let mut out: Vec<Hex> = Direction::ALL
        .into_iter()
        .filter(|d| !limits.rivers.contains(&Hexside::new(unit, *d)))
        .map(|d| unit.neighbour(d))
        .filter(|h| !limits.friendly_held.contains(h))
        .collect();
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directions_round_trip() {
        for (i, d) in Direction::ALL.into_iter().enumerate() {
            assert_eq!(d.index(), i);
            assert_eq!(d.to_string().parse::<Direction>(), Ok(d));
            assert_eq!(d.opposite().opposite(), d);
            let o = Hex::new(0, 0).neighbour(d).neighbour(d.opposite());
            assert_eq!(o, Hex::new(0, 0));
        }
        assert!("up".parse::<Direction>().is_err());
    }

    #[test]
    fn labels_round_trip_both_layouts() {
        for layout in Layout::ALL {
            for col in 0..12 {
                for row in 0..12 {
                    let o = Offset { col, row };
                    let h = Hex::from_offset(o, layout);
                    assert_eq!(h.to_offset(layout), o);
                    let l = h.label(layout).unwrap();
                    assert_eq!(Hex::from_label(&l, layout).unwrap(), h);
                }
            }
        }
    }

    #[test]
    fn ring_and_disc_sizes() {
        let c = Hex::new(2, -1);
        for r in 0..5u32 {
            let ring = c.ring(r);
            assert_eq!(ring.len(), if r == 0 { 1 } else { 6 * r as usize });
            assert!(ring.iter().all(|h| h.distance(c) == r));
            let disc = c.disc(r);
            assert_eq!(disc.len(), (1 + 3 * r * (r + 1)) as usize);
        }
    }
}
