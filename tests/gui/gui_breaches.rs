//! Issue 28: what the text forbids is noted in the resolver before the roll, the umpire can still
//! roll, and the log entry keeps the note. At 1366x768.

use super::common::{LAPTOP, demo, last_resolution};

use egui_kittest::kittest::Queryable;
use kepi::app::state::Command;
use kepi::game::{Action, Level};

const ATTACKER: &str = "12th-grenadiers-1";
const DEFENDER: &str = "8e-ligne-1";

/// PK-X1: "Only a Steady unit can initiate melee. Only a Steady or Shaken unit will accept melee."
#[test]
fn a_shaken_unit_initiating_melee_is_noted_and_logged() {
    let mut h = demo(LAPTOP);
    h.run();
    for (unit, level) in [(ATTACKER, Level::Shaken), (DEFENDER, Level::Broken)] {
        h.state_mut().state.handle(Command::Act(Action::SetLevel {
            unit: unit.into(),
            level,
        }));
    }
    h.state_mut().state.handle(Command::Select(ATTACKER.into()));
    h.state_mut().state.handle(Command::Target(DEFENDER.into()));
    h.run();
    h.get_by_label("melee").click();
    h.run();
    assert!(
        h.query_by_label_contains("Only a Steady unit can initiate melee")
            .is_some(),
        "the resolver notes the shaken attacker before the roll"
    );
    assert!(
        h.query_by_label_contains("Only a Steady or Shaken unit will accept melee")
            .is_some(),
        "the resolver notes the broken defender before the roll"
    );
    let before = h.state().state.game.log().len();
    h.get_by_label("Roll and apply").click();
    h.run();
    let app = &h.state().state;
    assert_eq!(app.game.log().len(), before + 1, "the umpire went ahead");
    let resolution = last_resolution(app);
    for want in ["initiate melee", "will accept melee"] {
        assert!(
            resolution
                .notes
                .iter()
                .any(|n| n.starts_with("umpire went ahead:") && n.contains(want)),
            "{want}: {:?}",
            resolution.notes
        );
    }
}
