//! A campaign's battles in the window (issue 30): "Fight as a battle" beside Roll in the SPI and 1870
//! resolver, and "Return to the campaign" in a battle's File menu. Both dialogs show what the step
//! will do and call the same library steps as `kepi campaign battle` and `kepi campaign return`
//! ([`kepi_middle::campaign::ops`]); refusals are shown whole, in the window's words.

use std::path::PathBuf;

use egui::{RichText, Ui};

use super::file_dialog::Purpose;
use super::state::{AppState, Command, View};
use kepi_game::engine::game::{Action, Game};
use kepi_game::engine::play::Form;
use kepi_game::engine::rule_set::CampaignPart;
use kepi_game::roster::{Position, Side};
use kepi_game::rules::RuleSetId;
use kepi_middle::campaign::ops::{self, Front, GivenBack};
use kepi_middle::campaign::{self, CampaignTable, Link, Role};

/// The combat the resolver holds, to fight as a battle.
#[derive(Clone, Debug, PartialEq)]
pub struct Combat {
    /// The attackers, by id.
    pub attackers: Vec<String>,
    /// The defending hex.
    pub hex: Position,
}

/// "Fight as a battle": the combat, the battle's rule set, and why the last try was refused.
#[derive(Clone, Debug)]
pub struct FightDialog {
    /// The combat, as the resolver held it when the button was pressed.
    pub combat: Combat,
    /// P&K or PW.
    pub rules: RuleSetId,
    /// Why making the battle was refused (shown whole; nothing was applied).
    pub error: Option<String>,
}

/// How the battle ended, as the umpire says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Not said yet: Apply waits for it.
    Unsaid,
    /// A side won.
    Won(Side),
    /// A draw.
    Draw,
}

impl Ending {
    /// The winner, for [`ops::give_back`]; None for a draw or nothing said.
    pub fn winner(self) -> Option<Side> {
        match self {
            Ending::Won(s) => Some(s),
            _ => None,
        }
    }
}

/// "Return to the campaign": the ending chosen, the conversion it comes to (kept for the battle's
/// log head and the ending it was worked out for), and why Apply was refused.
#[derive(Clone, Debug)]
pub struct ReturnDialog {
    /// The ending chosen.
    pub ending: Ending,
    /// The conversion shown: for which battle head and ending, and what it came to.
    pub preview: Option<((String, Ending), Result<GivenBack, String>)>,
    /// Why Apply was refused (shown whole; nothing was applied).
    pub error: Option<String>,
}

/// The window's campaign dialogs.
#[derive(Clone, Debug, Default)]
pub struct CampaignUi {
    /// "Fight as a battle", while open.
    pub fight: Option<FightDialog>,
    /// "Return to the campaign", while open.
    pub give: Option<ReturnDialog>,
    /// The battle open was given back to its campaign already: what the banner over the
    /// workspace and the status line after each action say (worked out when it is opened,
    /// [`ops::returned_already`]).
    pub returned: Option<String>,
}

/// The resolver's combat (SPI-C2, FR-C1): its attackers and the hex of its defenders. None when
/// the form shown is not a combat between stacks ([`Form::engaged`]).
pub fn combat_of(
    form: Option<&Form>,
    state: &kepi_game::engine::game::GameState,
) -> Option<Combat> {
    let (attackers, defenders) = form?.engaged()?;
    let hex = defenders
        .first()
        .and_then(|d| state.unit(d))
        .map_or(Position::Off, |u| u.position);
    Some(Combat {
        attackers: attackers.to_vec(),
        hex,
    })
}

/// Why "Fight as a battle" cannot be pressed now, or None when it can.
pub fn fight_unavailable(app: &AppState) -> Option<String> {
    let view = app.view();
    unavailable(app.resolver.form(), view.game, view.mode, view.own_file())
}

/// [`fight_unavailable`] for the resolver's `form`: on the network, a seat's view, no combat
/// picked, or a campaign not in a file of its own (`own_file`).
pub fn unavailable(
    form: Option<&Form>,
    game: &kepi_game::engine::game::Game,
    mode: &super::state::Mode,
    own_file: bool,
) -> Option<String> {
    if mode.on_network() {
        return Some(
            "on the network: a battle is made from the campaign's own save, on the host's kepi"
                .into(),
        );
    }
    if game.is_seat_view() {
        return Some("a seat's view cannot make a battle".into());
    }
    let combat = combat_of(form, game.state())?;
    if combat.attackers.is_empty() {
        return Some("pick the attacking unit first (click it in the roster or on the map)".into());
    }
    if !matches!(combat.hex, Position::Hex { .. }) {
        return Some("pick a defending unit on the map (right-click it)".into());
    }
    // A game kept in kepi's own folder moves at its first Save As, and the battle would look for
    // it where it was.
    if !own_file {
        return Some(
            "save the campaign first (File > Save As): the battle records where its campaign is"
                .into(),
        );
    }
    None
}

/// "Fight as a battle", on its own row above Roll: only in an SPI or 1870 combat; disabled with the reason
/// (on hover) when it does not apply.
pub fn fight_button_ui(ui: &mut Ui, form: Option<&Form>, view: &View, out: &mut Vec<Command>) {
    if combat_of(form, view.state()).is_none() {
        return;
    }
    let why = unavailable(form, view.game, view.mode, view.own_file());
    let b = ui
        .add_enabled(why.is_none(), egui::Button::new("Fight as a battle…"))
        .on_hover_text(
            "Fight this combat with miniatures: kepi makes a P&K or PW game of the engaged units \
             (CAMP-C1) and keeps the combat pending in the campaign (CAMP-B1)",
        );
    let b = match &why {
        Some(w) => b.on_disabled_hover_text(w),
        None => b,
    };
    if b.clicked() {
        out.push(Command::ShowFight);
    }
}

/// The "Fight as a battle" dialog: the engaged units and what they become by the table.
pub fn fight_dialog_ui(
    ctx: &egui::Context,
    dialogs: &mut CampaignUi,
    view: &View,
    out: &mut Vec<Command>,
) {
    while_open(&mut dialogs.fight, |d| d.ui(ctx, view, out));
}

/// Draws the dialog in `slot`, if one is open; it is dropped once `draw` says it closed.
fn while_open<D>(slot: &mut Option<D>, draw: impl FnOnce(&mut D) -> bool) {
    if let Some(d) = slot.as_mut()
        && !draw(d)
    {
        *slot = None;
    }
}

/// A campaign dialog's window: centred on the workspace, resizable, closed by its cross.
fn dialog_window<'a>(
    title: &'a str,
    width: f32,
    ctx: &egui::Context,
    open: &'a mut bool,
) -> egui::Window<'a> {
    egui::Window::new(title)
        .collapsible(false)
        .resizable(true)
        .default_width(width)
        .pivot(egui::Align2::CENTER_CENTER)
        .default_pos(ctx.content_rect().center())
        .open(open)
}

impl FightDialog {
    /// Draws the dialog; false once it is closed or cancelled.
    fn ui(&mut self, ctx: &egui::Context, view: &View, out: &mut Vec<Command>) -> bool {
        let d = self;
        let mut open = true;
        let mut keep = true;
        dialog_window("Fight as a battle", 560.0, ctx, &mut open).show(ctx, |ui| {
            let state = view.state();
            ui.label(format!(
                "The combat on hex {} is fought with miniatures; the campaign keeps it pending \
                 (a due check) until the battle comes back or is abandoned.",
                d.combat.hex
            ));
            ui.horizontal(|ui| {
                ui.label("Rules:");
                for r in kepi_game::registry::playing(CampaignPart::Battle) {
                    let unit =
                        kepi_game::registry::get(r).strength_unit(kepi_game::roster::Arm::Infantry);
                    ui.radio_value(&mut d.rules, r, format!("{}, in {unit}", r.title()));
                }
            });
            ui.separator();
            let made = CampaignTable::load(None)
                .map_err(|e| e.to_string())
                .and_then(|t| {
                    campaign::engage(state, &d.combat.attackers, d.combat.hex, d.rules, &t)
                        .map(|x| (t, x))
                        .map_err(|e| format!("{e}; nothing applied"))
                });
            match &made {
                Ok((table, (board, _))) => {
                    egui::Grid::new("fight_board")
                        .striped(true)
                        .num_columns(4)
                        .show(ui, |ui| {
                            for h in ["Board unit", "Side", "Strength", "On the table"] {
                                ui.label(RichText::new(h).strong());
                            }
                            ui.end_row();
                            for b in board {
                                let name = state
                                    .unit(&b.id)
                                    .map_or(b.id.as_str(), |u| u.unit.name.as_str());
                                ui.label(format!(
                                    "{name} ({})",
                                    if b.role == Role::Attacker {
                                        "attacker"
                                    } else {
                                        "defender"
                                    }
                                ));
                                ui.label(b.side.title());
                                ui.label(format!(
                                    "{} {}",
                                    b.strength,
                                    state.system.strength_unit(b.arm)
                                ));
                                ui.label(format!(
                                    "{} of {}",
                                    table_units(b.units.len(), &b.kind),
                                    b.per_unit
                                ));
                                ui.end_row();
                            }
                        });
                    ui.label(
                        RichText::new(format!(
                            "by the conversion table {} (CAMP-C1, house rule)",
                            table.file
                        ))
                        .small()
                        .weak(),
                    );
                }
                Err(e) => {
                    ui.colored_label(ui.visuals().error_fg_color, e);
                }
            }
            if let Some(e) = &d.error {
                ui.colored_label(ui.visuals().error_fg_color, e);
            }
            ui.separator();
            ui.horizontal(|ui| {
                if ui
                    .add_enabled(made.is_ok(), egui::Button::new("Choose the battle's file…"))
                    .on_hover_text("The battle is a new game: choose where to save it")
                    .clicked()
                {
                    out.push(Command::ChooseFile(Purpose::Battle));
                }
                if ui.button("Cancel").clicked() {
                    keep = false;
                }
            });
        });
        open && keep
    }
}

/// The banner over the workspace of a battle its campaign already took back: it stays playable,
/// and says that nothing done here reaches the campaign.
pub fn returned_banner_ui(ui: &mut Ui, said: &str) {
    ui.add(
        egui::Label::new(
            RichText::new(format!("Returned already: {said}.")).color(ui.visuals().warn_fg_color),
        )
        .wrap(),
    );
}

/// The link of the game open, when it is a battle made from a campaign.
pub fn battle_link(game: &Game) -> Option<Link> {
    campaign::link_of(game.log())
}

/// File > "Return to the campaign…": only in a battle made from a campaign.
pub fn return_menu_ui(ui: &mut Ui, view: &View, out: &mut Vec<Command>) {
    if battle_link(view.game).is_none() {
        return;
    }
    let remote = view.mode.on_network();
    let b = ui
        .add_enabled(!remote, egui::Button::new("Return to the campaign…"))
        .on_disabled_hover_text("on the network: the battle is returned from the host's kepi");
    if b.clicked() {
        out.push(Command::ShowReturn);
        ui.close();
    }
}

/// The conversion [`ops::give_back`] comes to for the battle open and `ending`, without applying
/// it (a draw when no ending is said yet: the losses are the same).
pub fn preview(view: &View, ending: Ending) -> Result<GivenBack, String> {
    let battle = battle_path(view)?;
    let link = ops::link_in(view.game, &battle).map_err(|e| e.say(Front::Window))?;
    let path = ops::campaign_path(&link, None).map_err(|e| e.say(Front::Window))?;
    ops::give_back(view.game, &battle, &link, &path, ending.winner(), true)
        .map_err(|e| e.say(Front::Window))
}

/// The battle's save.
fn battle_path(view: &View) -> Result<PathBuf, String> {
    view.save_path
        .map(|p| p.to_path_buf())
        .ok_or_else(|| "this battle has no file: save it first (File > Save As)".to_string())
}

/// The "Return to the campaign" dialog: the ending, then the conversion before it applies.
pub fn return_dialog_ui(
    ctx: &egui::Context,
    dialogs: &mut CampaignUi,
    view: &View,
    out: &mut Vec<Command>,
) {
    while_open(&mut dialogs.give, |d| d.ui(ctx, view, out));
}

impl ReturnDialog {
    /// Draws the dialog; false once it is closed or cancelled (or the game is no battle).
    fn ui(&mut self, ctx: &egui::Context, view: &View, out: &mut Vec<Command>) -> bool {
        let d = self;
        let Some(link) = battle_link(view.game) else {
            return false;
        };
        // Worked out again when the battle or the ending changes (it reads the campaign's save).
        let key = (view.game.head(), d.ending);
        if d.preview.as_ref().is_none_or(|(k, _)| *k != key) {
            d.preview = Some((key, preview(view, d.ending)));
        }
        let mut open = true;
        let mut keep = true;
        let sides = &view.state().sides;
        dialog_window("Return to the campaign", 620.0, ctx, &mut open).show(ctx, |ui| {
            let e = &link.engagement;
            ui.label(format!(
                "The battle for hex {} of the {} campaign {} comes back as that combat's result.",
                e.hex,
                link.campaign_system.title(),
                link.campaign
            ));
            ui.horizontal_wrapped(|ui| {
                ui.label("How it ended:");
                for s in sides {
                    ui.radio_value(&mut d.ending, Ending::Won(*s), format!("{} win", s.title()));
                }
                ui.radio_value(&mut d.ending, Ending::Draw, "Draw");
            });
            ui.separator();
            match d.preview.as_ref().map(|(_, p)| p) {
                Some(Ok(g)) => conversion_ui(ui, &link, g, d.ending),
                Some(Err(err)) => {
                    ui.colored_label(ui.visuals().error_fg_color, err);
                }
                None => {}
            }
            if let Some(err) = &d.error {
                ui.colored_label(ui.visuals().error_fg_color, err);
            }
            ui.separator();
            ui.horizontal(|ui| {
                let ready = d.ending != Ending::Unsaid
                    && d.preview.as_ref().is_some_and(|(_, p)| p.is_ok());
                let b = ui
                    .add_enabled(ready, egui::Button::new("Apply"))
                    .on_hover_text(
                        "Applies these losses to the campaign as one logged action naming this \
                         battle's save and log head (CAMP-R1), then opens the campaign",
                    )
                    .on_disabled_hover_text(if d.ending == Ending::Unsaid {
                        "say how the battle ended first"
                    } else {
                        "the campaign cannot take it back: see the message above"
                    });
                if b.clicked() {
                    out.push(Command::ReturnToCampaign(d.ending.winner()));
                }
                if ui.button("Cancel").clicked() {
                    keep = false;
                }
            });
        });
        open && keep
    }
}

/// The conversion, one row per board unit: its table units, what they lost, the rounding, the
/// strength points it loses; then the result's lines and what it does.
fn conversion_ui(ui: &mut Ui, link: &Link, g: &GivenBack, ending: Ending) {
    let e = &link.engagement;
    egui::Grid::new("return_losses")
        .striped(true)
        .num_columns(5)
        .show(ui, |ui| {
            for h in [
                "Board unit",
                "Table units",
                "Lost on the table",
                "Rounding",
                "Board loss",
            ] {
                ui.label(RichText::new(h).strong());
            }
            ui.end_row();
            for l in &g.returned.losses {
                let b = e.board.iter().find(|b| b.id == l.unit);
                ui.label(match b {
                    Some(b) => format!("{} ({})", l.unit, b.side.as_str()),
                    None => l.unit.clone(),
                });
                ui.label(match b {
                    Some(b) => format!("{} of {}", table_units(b.units.len(), &b.kind), b.per_unit),
                    None => "-".into(),
                });
                ui.label(format!("{} of {}", l.table_lost, l.table_strength));
                ui.label(match b {
                    Some(b) => format!(
                        "{}, {} a point",
                        e.rounding.as_str(),
                        b.per_point * b.per_unit
                    ),
                    None => e.rounding.as_str().to_string(),
                });
                ui.label(
                    RichText::new(if l.lost == 0 {
                        "none".to_string()
                    } else {
                        format!("-{}", l.lost)
                    })
                    .strong(),
                );
                ui.end_row();
            }
        });
    if ending == Ending::Unsaid {
        ui.label(
            RichText::new("Say how the battle ended: the retreats depend on it.")
                .color(ui.visuals().warn_fg_color),
        );
        return;
    }
    for m in g
        .resolution
        .modifiers
        .iter()
        .filter(|m| m.rule.as_str() == "CAMP-R1")
    {
        ui.label(format!("{} ({})", m.label, m.rule.as_str()));
    }
    for a in &g.effects {
        if let Action::SetFlag { unit, .. } = a {
            ui.label(format!("{unit} must retreat (FR-C2)"));
        }
    }
    for n in &g.resolution.notes {
        ui.label(RichText::new(n).small().weak());
    }
}

/// "1 battalion", "12 battalions", "2 batteries": a count of the conversion table's kind of table
/// unit, in the right number (issue 46: "10 battalion(s)").
fn table_units(n: usize, kind: &str) -> String {
    let many = match kind.strip_suffix('y') {
        Some(stem) if !stem.ends_with(['a', 'e', 'i', 'o', 'u']) => format!("{stem}ies"),
        _ => format!("{kind}s"),
    };
    kepi_game::rules::count(n, kind, &many)
}

#[cfg(test)]
mod tests {
    #[test]
    fn table_units_are_counted_in_the_right_number() {
        assert_eq!(super::table_units(1, "battalion"), "1 battalion");
        assert_eq!(super::table_units(10, "battalion"), "10 battalions");
        assert_eq!(super::table_units(2, "battery"), "2 batteries");
        assert_eq!(super::table_units(3, "squadron"), "3 squadrons");
    }
}
