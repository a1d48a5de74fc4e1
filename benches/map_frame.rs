//! The map panel's frame with the picture of the board under it (issue 41's number: a frame with
//! a 6000 x 4000 px picture, 2,400 cells and 200 units, zoomed and panned, 4 ms or less median):
//! a 60 x 40 Portable Wargame map generated here with a `[picture]` and a 6000 x 4000 PNG beside
//! it in a temp folder, 200 units on it, the map panel alone driven headless through
//! `egui::Context::run_ui` and tessellated (everything but the GPU), the hex size and the scroll
//! changing every frame. The same map without its picture is measured beside it, so the
//! picture's own cost reads as the difference. Run: `cargo bench --bench map_frame`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a bench may fail loudly

use std::fmt::Write as _;
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use kepi::app::state::AppState;
use kepi::game::Action;
use kepi::registry::builtin_scenario;

/// A 60 x 40 PW map with some cover and hills, a river and a road, and (with `picture`) the
/// `[picture]` table of a 6000 x 4000 scan (a VASSAL-like grid: column 98 px, row 97 px).
fn board(picture: bool) -> String {
    let mut s = String::from(
        "[map]\nname = \"bench table\"\nrules = \"pw\"\nfirst = \"0101\"\nlast = \"6040\"\n\
         default_terrain = \"clear\"\n\n[provenance]\nsource = \"club\"\ndrawn_by = \"the bench\"\n\
         from = \"generated\"\n\n[cells]\n",
    );
    let mut cover = Vec::new();
    let mut hill = Vec::new();
    for c in (2..=51).step_by(7) {
        for r in (2..=32).step_by(6) {
            cover.push(format!("\"{:02}{:02}-{:02}{:02}\"", c, r, c + 1, r + 2));
            hill.push(format!("\"{:02}{:02}\"", c + 3, r + 3));
        }
    }
    writeln!(s, "cover = [{}]", cover.join(", ")).unwrap();
    writeln!(s, "hill = [{}]", hill.join(", ")).unwrap();
    let sides: Vec<String> = (1..=40).map(|r| format!("\"30{r:02}:se\"")).collect();
    writeln!(s, "\n[[river]]\nsides = [{}]", sides.join(", ")).unwrap();
    let road: Vec<String> = (1..=60).map(|c| format!("\"{c:02}20\"")).collect();
    writeln!(s, "\n[[road]]\npath = [{}]", road.join(", ")).unwrap();
    if picture {
        s.push_str(
            "\n[picture]\nfile = \"board.png\"\norigin = [60.0, 50.0]\ncolumn = 98.0\nrow = 97.0\n",
        );
    }
    s
}

/// The skirmish's units cloned to 200 (new ids and names) on the map at `file`, each moved to a
/// cell of its own spread over the board.
fn app(file: &Path) -> AppState {
    let tables = kepi::registry::builtin_tables().unwrap();
    let mut sc = builtin_scenario("pw-skirmish").unwrap();
    let base = sc.units.clone();
    sc.units = (0..200)
        .map(|i| {
            let mut u = base[i % base.len()].clone();
            u.id = format!("{}-{i}", u.id);
            u.name = format!("{} #{i}", u.name);
            u
        })
        .collect();
    sc.map = Some(kepi::map::MapFile::named(file.to_str().unwrap()).unwrap());
    let mut state = AppState::new_game(&sc, 1, tables).unwrap();
    let ids: Vec<String> = state
        .state()
        .units
        .iter()
        .map(|u| u.unit.id.clone())
        .collect();
    let now = chrono::Utc::now();
    for (i, id) in ids.iter().enumerate() {
        let (col, row) = (1 + (i * 7) % 60, 1 + (i * 3) % 40);
        state
            .game
            .act(
                Action::Move {
                    unit: id.clone(),
                    to: format!("{col:02}{row:02}").parse().unwrap(),
                    notes: Vec::new(),
                    mp: None,
                    effects: Vec::new(),
                },
                now,
            )
            .unwrap();
    }
    state
}

struct Driver {
    app: AppState,
    ctx: egui::Context,
    t: f64,
    n: usize,
}

impl Driver {
    /// One frame of the map panel: the hex size changes (zoom), the board is scrolled (pan) and
    /// the pointer moves over it. Returns the tessellated primitives.
    fn frame(&mut self) -> usize {
        self.t += 1.0 / 60.0;
        self.n += 1;
        let x = 200.0 + (self.t * 60.0 % 600.0) as f32;
        let size = 24.0 + (self.n % 8) as f32 * 2.0;
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(1366.0, 768.0),
            )),
            time: Some(self.t),
            events: vec![egui::Event::PointerMoved(egui::pos2(x, 400.0))],
            ..Default::default()
        };
        let app = &mut self.app;
        let mut out = self.ctx.run_ui(input, |ui| {
            let (view, panels) = app.split();
            panels.map.set_hex_size(size);
            let _ = panels.map.ui(ui, &view);
        });
        // No GPU here: the textures' uploads (the font atlas, the picture's tiles) are dropped.
        out.textures_delta.clear();
        self.ctx.tessellate(out.shapes, out.pixels_per_point).len()
    }

    /// Median and p99 of 300 frames.
    fn measure(&mut self, what: &str) {
        let mut times: Vec<Duration> = (0..300)
            .map(|_| {
                let s = Instant::now();
                black_box(self.frame());
                s.elapsed()
            })
            .collect();
        times.sort();
        let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
        eprintln!(
            "map frame {what}: median {:?}, p99 {:?}, min {:?}, max {:?}",
            at(0.5),
            at(0.99),
            times[0],
            times[times.len() - 1]
        );
    }
}

fn bench(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("kepi-bench-picture-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let t0 = Instant::now();
    let img = image::RgbImage::from_fn(6000, 4000, |x, y| {
        image::Rgb([(x / 24) as u8, (y / 16) as u8, ((x ^ y) & 0xff) as u8])
    });
    img.save(dir.join("board.png")).unwrap();
    drop(img);
    std::fs::write(dir.join("board.toml"), board(true)).unwrap();
    std::fs::write(dir.join("bare.toml"), board(false)).unwrap();
    eprintln!("wrote the 6000 x 4000 picture in {:?}", t0.elapsed());

    let mut with = Driver {
        app: app(&dir.join("board.toml")),
        ctx: egui::Context::default(),
        t: 0.0,
        n: 0,
    };
    let t0 = Instant::now();
    while !with.app.panels.map.picture_drawn() {
        assert!(
            t0.elapsed() < Duration::from_secs(120),
            "the picture never loaded"
        );
        with.frame();
        std::thread::sleep(Duration::from_millis(20));
    }
    eprintln!(
        "the picture decoded and cut into tiles off the frame in {:?}",
        t0.elapsed()
    );
    for _ in 0..10 {
        with.frame();
    }
    with.measure("with a 6000 x 4000 picture, 2,400 cells, 200 units");
    let mut bare = Driver {
        app: app(&dir.join("bare.toml")),
        ctx: egui::Context::default(),
        t: 0.0,
        n: 0,
    };
    for _ in 0..10 {
        bare.frame();
    }
    bare.measure("without the picture, 2,400 cells, 200 units");
    c.bench_function("map frame: 6000x4000 picture, 2400 cells, 200 units", |b| {
        b.iter(|| black_box(with.frame()))
    });
    c.bench_function("map frame: no picture, 2400 cells, 200 units", |b| {
        b.iter(|| black_box(bare.frame()))
    });
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1))
        .sample_size(20);
    targets = bench
}
criterion_main!(benches);
