//! Regenerates the documentation images docs/roster-page.png and docs/card.png:
//! `cargo test --no-default-features --test session export_docs -- --ignored` (needs poppler's pdftoppm).

use std::path::Path;
use std::process::Command;

use kepi::export::{CardCtx, Paper, RosterDoc, card_png, roster_pdf};

#[test]
#[ignore = "writes docs/ images; run by hand"]
fn make_docs_images() {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    std::fs::create_dir_all(&docs).unwrap();
    let doc = RosterDoc::sample(40);
    let pdf = std::env::temp_dir().join(format!("kepi-docs-{}.pdf", std::process::id()));
    std::fs::write(&pdf, roster_pdf(&doc, Paper::A4).unwrap()).unwrap();
    let st = Command::new("pdftoppm")
        .args(["-png", "-r", "60", "-f", "1", "-l", "1", "-singlefile"])
        .arg(&pdf)
        .arg(docs.join("roster-page"))
        .status()
        .expect("pdftoppm");
    assert!(st.success());
    let units = doc.units();
    let (side, path, u) = &units[3];
    let ctx = CardCtx {
        side: side.name.clone(),
        side_index: 0,
        group_path: path.join(" › "),
        system: doc.system.clone(),
    };
    card_png(u, &ctx, 150)
        .unwrap()
        .save(docs.join("card.png"))
        .unwrap();
}
