//! A campaign's battles from the window (issue 30): "Fight as a battle" makes the battle and opens
//! it, "Return to the campaign" gives it back and opens the campaign, each exactly as the
//! command line's `kepi campaign battle` and `kepi campaign return`.

use std::path::{Path, PathBuf};

use super::AppState;

impl AppState {
    /// Issue 30, CAMP-B1: makes the battle of the "Fight as a battle" dialog at `out` exactly as
    /// `kepi campaign battle` does ([`kepi_middle::campaign::ops::make_battle`]), with the campaign's
    /// pending combat journalled, then opens it. Refused: said whole in the dialog and the status
    /// line, nothing applied.
    pub(super) fn fight_battle(&mut self, out: &Path) {
        use kepi_middle::campaign::ops::{self, BattleOrder, Front};
        let Some(dialog) = self.dialogs.campaign.fight.take() else {
            return self.err("no combat to fight as a battle: press \"Fight as a battle\" first");
        };
        let refused = |app: &mut AppState, mut dialog: crate::campaign::FightDialog, m: String| {
            dialog.error = Some(m.clone());
            app.dialogs.campaign.fight = Some(dialog);
            app.err(m);
        };
        if let Some(why) = crate::campaign::fight_unavailable(self) {
            return refused(self, dialog, why);
        }
        let table = match kepi_middle::campaign::CampaignTable::load(None) {
            Ok(t) => t,
            Err(e) => return refused(self, dialog, format!("{e}; nothing applied")),
        };
        let Some(store) = self.store.as_mut() else {
            return refused(self, dialog, "save the campaign first".into());
        };
        let campaign = store.path().to_path_buf();
        let order = BattleOrder {
            attackers: &dialog.combat.attackers,
            hex: dialog.combat.hex,
            rules: dialog.rules,
            out,
            seed: kepi_game::dice::fresh_seed(),
        };
        let made = ops::make_battle(&mut self.game, store, &campaign, &order, &table);
        match made {
            Ok(made) => {
                self.saved_len = self.game.log().len();
                self.last_change = Some(std::time::Instant::now());
                self.remember(&campaign);
                let e = &made.link.engagement;
                let mut msg = format!(
                    "a {} battle for hex {} ({} table units) in {}; the campaign's combat is \
                     pending (check #{})",
                    e.rules.title(),
                    e.hex,
                    e.units.len(),
                    out.display(),
                    e.pending
                );
                for w in &made.warnings {
                    msg.push_str(&format!(" (warning: {w})"));
                }
                self.open(out);
                if self.save_path().as_deref() == Some(out) {
                    self.ok(msg);
                } else {
                    let why = self
                        .status
                        .as_ref()
                        .map(|s| s.text.clone())
                        .unwrap_or_default();
                    self.err(format!("{msg}; but the battle did not open here: {why}"));
                }
            }
            Err(e) => refused(self, dialog, e.say(Front::Window)),
        }
    }

    /// Issue 30, CAMP-C2 and CAMP-R1: brings the battle open back to its campaign exactly as
    /// `kepi campaign return` does ([`kepi_middle::campaign::ops::give_back`]), then opens the campaign
    /// (or says where it is). Refused: said whole in the dialog and the status line, nothing
    /// applied.
    pub(super) fn return_to_campaign(&mut self, winner: Option<kepi_game::roster::Side>) {
        use kepi_middle::campaign::ops::{self, Front};
        let mut dialog = self.dialogs.campaign.give.take();
        let result = (|| -> Result<(PathBuf, ops::GivenBack), String> {
            if self.mode.on_network() {
                return Err("on the network: the battle is returned from the host's kepi".into());
            }
            if self.unsaved() {
                return Err(
                    "the battle has actions not on disk: save it first (File > Save As); nothing \
                     applied"
                        .into(),
                );
            }
            let battle = self.save_path().ok_or_else(|| {
                "this battle has no file: save it first (File > Save As); nothing applied"
                    .to_string()
            })?;
            let link = ops::link_in(&self.game, &battle).map_err(|e| e.say(Front::Window))?;
            let path = ops::campaign_path(&link, None).map_err(|e| e.say(Front::Window))?;
            ops::give_back(&self.game, &battle, &link, &path, winner, false)
                .map(|g| (path, g))
                .map_err(|e| e.say(Front::Window))
        })();
        match result {
            Ok((path, given)) => {
                let lost: Vec<String> = given
                    .returned
                    .losses
                    .iter()
                    .map(|l| format!("{} -{}", l.unit, l.lost))
                    .collect();
                let mut msg = format!(
                    "returned to the campaign {}: {} ({})",
                    path.display(),
                    given.resolution.summary,
                    lost.join(", ")
                );
                for w in &given.warnings {
                    msg.push_str(&format!(" (warning: {w})"));
                }
                self.open(&path);
                if self.save_path().as_deref() == Some(path.as_path()) {
                    self.ok(msg);
                } else {
                    let why = self
                        .status
                        .as_ref()
                        .map(|s| s.text.clone())
                        .unwrap_or_default();
                    self.err(format!(
                        "{msg}; the campaign is at {} (it did not open here: {why})",
                        path.display()
                    ));
                }
            }
            Err(m) => {
                if let Some(d) = dialog.as_mut() {
                    d.error = Some(m.clone());
                }
                self.dialogs.campaign.give = dialog;
                self.err(m);
            }
        }
    }
}
