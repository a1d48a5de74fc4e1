//! `kepi cards convert` (issue 43): a P&K order of battle for the Portable Wargame, what means the
//! same carried over, what PW needs and P&K cannot give left to fill with what P&K had; filled in,
//! the file loads as a PW battle. Bad arguments exit 2 naming which.

use super::common::{json, ok, run, tmp};

/// The bundled Mars-la-Tour cards, written to `dir` as a card file.
fn mars_la_tour(dir: &std::path::Path) -> String {
    let file = dir.join("mlt.toml");
    let s = kepi::registry::builtin_scenario("mars-la-tour").unwrap();
    std::fs::write(&file, kepi::roster::write::to_toml(&s)).unwrap();
    file.to_str().unwrap().to_string()
}

#[test]
fn cards_convert_pk_to_pw_leaves_the_strength_to_fill_saying_what_pk_had() {
    let dir = tmp("cards-convert", "pk-pw");
    let src = mars_la_tour(&dir);
    let out = dir.join("pw.toml");
    let o = out.to_str().unwrap();
    let said = ok(&["cards", "convert", &src, "--to", "pw", "--out", o]);
    assert!(said.contains("unit cards for pw"), "{said}");
    assert!(said.contains("to fill"), "{said}");
    assert!(said.contains("not on a Portable Wargame"), "{said}");
    assert!(said.contains("formation"), "{said}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("system = \"pw\""), "{text}");
    assert!(
        text.contains("# TO FILL: strength: Pickelhaube & Kepi had 20 figures"),
        "{text}"
    );
    assert!(!text.contains("formation ="), "PW's card has no formation");
    // `cards check` names the first field to fill.
    let (code, _, err) = run(&["cards", "check", o]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("strength"), "{err}");
    // Filled in (a strength for each card, a PW quality for P&K's veterans and line), it loads
    // as the same units for PW: names, sides and the order of battle kept.
    let filled = text
        .replace("[[unit]]\n", "[[unit]]\nstrength = 4\n")
        .lines()
        .filter(|l| !l.starts_with("quality = "))
        .collect::<Vec<_>>()
        .join("\n");
    let filled_file = dir.join("filled.toml");
    std::fs::write(&filled_file, filled).unwrap();
    let pw = kepi::roster::load_roster_file(&filled_file).unwrap();
    let pk = kepi::registry::builtin_scenario("mars-la-tour").unwrap();
    assert_eq!(
        pw.system,
        kepi::registry::builtin_scenario("pw-skirmish")
            .unwrap()
            .system
    );
    assert_eq!(pw.units.len(), pk.units.len());
    for (a, b) in pk.units.iter().zip(&pw.units) {
        assert_eq!(
            (&a.id, &a.name, a.side, a.arm),
            (&b.id, &b.name, b.side, b.arm)
        );
        assert_eq!(a.oob, b.oob);
        assert_eq!(b.strength, 4);
    }
    // --json says each field to fill.
    let v = json(&[
        "cards", "convert", &src, "--to", "pw", "--out", o, "--force", "--json",
    ]);
    assert_eq!(v["to"], "pw");
    assert_eq!(v["from"], "pk");
    let fills = v["to_fill"].as_array().unwrap();
    assert!(fills.iter().any(|f| f["field"] == "strength"
        && f["message"].as_str().unwrap().contains("figures")));
    assert_eq!(v["cards"], pk.units.len());
}

#[test]
fn cards_convert_bad_arguments_exit_2_naming_them() {
    let dir = tmp("cards-convert", "args");
    let src = mars_la_tour(&dir);
    let out = dir.join("x.toml");
    let o = out.to_str().unwrap();
    let missing = dir.join("none.toml");
    for (args, said) in [
        (vec![src.as_str(), "--to", "chess", "--out", o], "--to"),
        (vec![src.as_str(), "--to", "pk", "--out", o], "--to"),
        (vec![src.as_str(), "--to", "pw"], "--out"),
        (vec![src.as_str(), "--to", "pw", "--out", "x.txt"], "--out"),
        (
            vec![missing.to_str().unwrap(), "--to", "pw", "--out", o],
            "FILE",
        ),
        (
            vec![src.as_str(), "--to", "pw", "--out", src.as_str()],
            "--out",
        ),
    ] {
        let mut full = vec!["cards", "convert"];
        full.extend(args.iter().copied());
        let (code, _, err) = run(&full);
        assert_eq!(code, 2, "{full:?}: {err}");
        assert!(err.contains(said), "{full:?}: {err}");
    }
    assert!(!out.exists());
    // In `kepi help`.
    let help = ok(&["cards", "--help"]);
    assert!(help.contains("convert"), "{help}");
}
