//! Choosing a file: the desktop's own dialog (rfd) when it has one, and otherwise, or when that
//! dialog fails, a dialog inside the window with a path field, the folder's files and Up / Home.
//!
//! A machine without a desktop portal or zenity (a club's old laptop, a minimal window manager)
//! made rfd return nothing at once, and Save As silently did nothing. Here a native dialog that
//! answers "nothing" faster than a person could have cancelled it counts as a failure, and the
//! in-window dialog opens instead; so choosing a file never ends in a silent no-op.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::state::Command;

/// What a file is being chosen for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// Save the game to a new file (Save As).
    SaveAs,
    /// Open a game file.
    Open,
    /// Start a new game from a unit-card file.
    ImportCards,
    /// Save a campaign's combat as a new battle (issue 30, "Fight as a battle").
    Battle,
    /// Open a map file in the map editor (issue 41).
    EditMap,
    /// Save the map being edited to a new file (the map editor's "Save map as…").
    SaveMapAs,
    /// Import a board from a VASSAL module (File > Import board from VASSAL…).
    VassalModule,
}

impl Purpose {
    /// The dialog's title.
    pub fn title(self) -> &'static str {
        match self {
            Purpose::SaveAs => "Save the game as",
            Purpose::Open => "Open a game",
            Purpose::ImportCards => "New game from a unit-card file",
            Purpose::Battle => "Save the battle as",
            Purpose::EditMap => "Edit a map file",
            Purpose::SaveMapAs => "Save the map as",
            Purpose::VassalModule => "Import a board from a VASSAL module",
        }
    }

    /// The label of the button that confirms.
    pub fn confirm(self) -> &'static str {
        match self {
            Purpose::SaveAs => "Save here",
            Purpose::Open => "Open this game",
            Purpose::ImportCards => "Import these cards",
            Purpose::Battle => "Make the battle here",
            Purpose::EditMap => "Edit this map",
            Purpose::SaveMapAs => "Save the map here",
            Purpose::VassalModule => "Read this module",
        }
    }

    /// The file extension the folder listing shows (folders always show).
    fn extension(self) -> &'static str {
        match self {
            Purpose::SaveAs | Purpose::Open | Purpose::Battle => "json",
            Purpose::ImportCards | Purpose::EditMap | Purpose::SaveMapAs => "toml",
            Purpose::VassalModule => "vmod",
        }
    }

    /// The command that does the work once a path is chosen.
    pub fn command(self, path: PathBuf) -> Command {
        match self {
            Purpose::SaveAs => Command::SaveAs(path),
            Purpose::Open => Command::Open(path),
            Purpose::ImportCards => Command::NewFromCards(path),
            Purpose::Battle => Command::FightBattle(path),
            Purpose::EditMap | Purpose::SaveMapAs | Purpose::VassalModule => {
                Command::MapFile(self, path)
            }
        }
    }
}

/// The file name Save As offers.
pub const DEFAULT_SAVE_NAME: &str = "battle.kepi.json";

/// The file name "Save map as…" offers.
pub const DEFAULT_MAP_NAME: &str = "our-board.toml";

/// The file name "Fight as a battle" offers.
pub const DEFAULT_BATTLE_NAME: &str = "campaign-battle.kepi.json";

impl Purpose {
    /// The file name offered when the file is a new one.
    fn default_name(self) -> Option<&'static str> {
        match self {
            Purpose::SaveAs => Some(DEFAULT_SAVE_NAME),
            Purpose::Battle => Some(DEFAULT_BATTLE_NAME),
            Purpose::SaveMapAs => Some(DEFAULT_MAP_NAME),
            Purpose::Open | Purpose::ImportCards | Purpose::EditMap | Purpose::VassalModule => None,
        }
    }
}

/// A native dialog that returns "nothing" within this time did not show at all (no portal, no
/// zenity): nobody cancels a file dialog that fast.
const NATIVE_FAILED_WITHIN: Duration = Duration::from_millis(400);

/// What the desktop's dialog answered.
#[derive(Debug, PartialEq)]
pub enum Native {
    /// A path was chosen.
    Chosen(PathBuf),
    /// The person cancelled it.
    Cancelled,
    /// No dialog could be shown.
    Unavailable,
}

/// True when this desktop is likely to have a native file dialog: always on Windows and macOS; on
/// other systems a session bus (the desktop portal) or zenity on the PATH. `KEPI_DIALOGS=window`
/// forces the in-window dialog.
pub fn native_available() -> bool {
    if std::env::var_os("KEPI_DIALOGS").is_some_and(|v| v == "window") {
        return false;
    }
    if cfg!(any(target_os = "windows", target_os = "macos")) {
        return true;
    }
    let bus = std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some_and(|v| !v.is_empty());
    let zenity = std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join("zenity").is_file()));
    bus || zenity
}

/// Shows the desktop's dialog for `purpose` (blocking, as native dialogs are).
pub fn native(purpose: Purpose, folder: &Path) -> Native {
    let started = Instant::now();
    let dialog = rfd::FileDialog::new().set_directory(folder);
    let picked = match purpose {
        Purpose::SaveAs => dialog
            .add_filter("kepi game", &["json"])
            .set_file_name(DEFAULT_SAVE_NAME)
            .save_file(),
        Purpose::Open => dialog.add_filter("kepi game", &["json"]).pick_file(),
        Purpose::ImportCards => dialog.add_filter("unit cards", &["toml"]).pick_file(),
        Purpose::Battle => dialog
            .add_filter("kepi game", &["json"])
            .set_file_name(DEFAULT_BATTLE_NAME)
            .save_file(),
        Purpose::EditMap => dialog.add_filter("kepi map", &["toml"]).pick_file(),
        Purpose::SaveMapAs => dialog
            .add_filter("kepi map", &["toml"])
            .set_file_name(DEFAULT_MAP_NAME)
            .save_file(),
        Purpose::VassalModule => dialog.add_filter("VASSAL module", &["vmod"]).pick_file(),
    };
    match picked {
        Some(p) => Native::Chosen(p),
        None if started.elapsed() < NATIVE_FAILED_WITHIN => Native::Unavailable,
        None => Native::Cancelled,
    }
}

/// One line of the folder listing.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The file or folder name.
    pub name: String,
    /// A folder (click to go in).
    pub is_dir: bool,
}

/// The in-window dialog.
#[derive(Clone, Debug)]
pub struct FileDialog {
    /// Shown this frame.
    pub open: bool,
    /// What the chosen file is for.
    pub purpose: Purpose,
    /// The folder listed.
    pub folder: PathBuf,
    /// The path typed or picked (a file name alone is taken in `folder`).
    pub path: String,
    /// The folder's folders and matching files, sorted, folders first.
    pub entries: Vec<Entry>,
    /// Why the folder could not be listed.
    pub error: Option<String>,
    /// When the dialog was first drawn: its frame, the input's time and where the pointer was.
    shown: Option<(u64, f64, Option<egui::Pos2>)>,
    /// The press under way began when the dialog was ready for it: after its first frame, and
    /// either a double-click's time later or with the pointer moved. Its clicks count; the click
    /// that opened the dialog (its press begun before, or the second half of a double-click
    /// landing on a file row that appeared under the pointer) does not.
    press_ok: bool,
}

impl Default for FileDialog {
    fn default() -> Self {
        FileDialog {
            open: false,
            purpose: Purpose::Open,
            folder: PathBuf::new(),
            path: String::new(),
            entries: Vec::new(),
            error: None,
            shown: None,
            press_ok: false,
        }
    }
}

/// The user's home folder (or the current one).
pub fn home() -> PathBuf {
    std::env::home_dir()
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("."))
}

/// At most this many entries are listed (a folder of 100,000 files stays quick to draw).
const MAX_ENTRIES: usize = 2_000;

impl FileDialog {
    /// Opens the dialog for `purpose` in `folder`.
    pub fn show_for(&mut self, purpose: Purpose, folder: PathBuf) {
        self.open = true;
        self.shown = None;
        self.press_ok = false;
        self.purpose = purpose;
        self.path = match purpose.default_name() {
            Some(name) => folder.join(name).display().to_string(),
            None => String::new(),
        };
        self.go_to(folder);
    }

    /// Lists `folder` (folders first, then files with the purpose's extension).
    pub fn go_to(&mut self, folder: PathBuf) {
        self.entries.clear();
        self.error = None;
        match std::fs::read_dir(&folder) {
            Ok(rd) => {
                let ext = self.purpose.extension();
                for e in rd.flatten().take(MAX_ENTRIES * 4) {
                    let name = e.file_name().to_string_lossy().into_owned();
                    if name.starts_with('.') {
                        continue;
                    }
                    let is_dir = e.file_type().map(|t| t.is_dir()).unwrap_or(false)
                        || (e.file_type().map(|t| t.is_symlink()).unwrap_or(false)
                            && e.path().is_dir());
                    let matches = Path::new(&name).extension().is_some_and(|x| x == ext);
                    if is_dir || matches {
                        self.entries.push(Entry { name, is_dir });
                    }
                }
                self.entries
                    .sort_by(|a, b| b.is_dir.cmp(&a.is_dir).then(a.name.cmp(&b.name)));
                self.entries.truncate(MAX_ENTRIES);
            }
            Err(e) => self.error = Some(format!("cannot list {}: {e}", folder.display())),
        }
        if let Some(default) = self.purpose.default_name() {
            let name = Path::new(self.path.trim())
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| default.into());
            self.path = folder.join(name).display().to_string();
        }
        self.folder = folder;
    }

    /// The chosen path: the typed one, a bare name taken inside the listed folder.
    pub fn chosen(&self) -> Option<PathBuf> {
        let typed = self.path.trim();
        if typed.is_empty() {
            return None;
        }
        let p = PathBuf::from(typed);
        Some(if p.is_absolute() {
            p
        } else {
            self.folder.join(p)
        })
    }

    /// Draws the dialog when it is open; returns the command to run once a path is confirmed.
    ///
    /// Nothing in it moves under the pointer (issue 46: "Save here" once sat where a file row
    /// came next, and a click meant for it changed the path): the window has one size whatever
    /// the folder holds or the path says, the listing one height (a short folder leaves it
    /// blank), the line that says why a folder is empty or unreadable one line, and the buttons
    /// their place below it. A click whose press began before the dialog was drawn, in its first
    /// frame, or within a double-click's time of it with the pointer still where it was (the
    /// click that opened it, landing on a file row) is not taken.
    pub fn ui(&mut self, ctx: &egui::Context) -> Option<Command> {
        if !self.open {
            return None;
        }
        // Clicks count only for a press begun once the dialog was there to be seen.
        let frame = ctx.cumulative_frame_nr();
        let (now, pos, pressed) =
            ctx.input(|i| (i.time, i.pointer.latest_pos(), i.pointer.any_pressed()));
        let (first_frame, first_time, first_pos) = *self.shown.get_or_insert((frame, now, pos));
        if pressed {
            let moved = match (first_pos, pos) {
                (Some(a), Some(b)) => a.distance(b) > MOVED_PX,
                (None, Some(_)) => true,
                _ => false,
            };
            self.press_ok = frame > first_frame && (now - first_time >= DOUBLE_CLICK_S || moved);
        }
        let live = self.press_ok;
        let mut result = None;
        let mut go: Option<PathBuf> = None;
        let mut open = true;
        egui::Window::new(self.purpose.title())
            .collapsible(false)
            .resizable(false)
            .fixed_size(DIALOG_SIZE)
            .pivot(egui::Align2::CENTER_CENTER)
            .default_pos(ctx.content_rect().center())
            .open(&mut open)
            .show(ctx, |ui| {
                let clicked = |r: egui::Response| live && r.clicked();
                let line_h = ui.spacing().interact_size.y;
                ui.horizontal(|ui| {
                    if clicked(ui.button("Up").on_hover_text("The folder above"))
                        && let Some(parent) = self.folder.parent()
                    {
                        go = Some(parent.to_path_buf());
                    }
                    if clicked(ui.button("Home")) {
                        go = Some(home());
                    }
                    let folder = self.folder.display().to_string();
                    let w = ui.available_width();
                    tail_slot(ui, w, line_h, &folder, egui::TextStyle::Body, true);
                });
                let label = ui.label("Path:");
                let field = super::keys::field(
                    ui,
                    egui::TextEdit::singleline(&mut self.path).desired_width(f32::INFINITY),
                    "file_dialog_path",
                )
                .labelled_by(label.id);
                let entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                ui.separator();
                // One line, there or not, so the listing below never moves.
                let (said, error) = match &self.error {
                    Some(e) => (e.clone(), true),
                    None if self.entries.is_empty() => (
                        match self.purpose {
                            Purpose::ImportCards | Purpose::EditMap | Purpose::SaveMapAs => {
                                "No folders or .toml files here."
                            }
                            Purpose::VassalModule => "No folders or .vmod modules here.",
                            _ => "No folders or .json games here.",
                        }
                        .to_string(),
                        false,
                    ),
                    None => (String::new(), false),
                };
                let w = ui.available_width();
                let (rect, _) = ui.allocate_exact_size(egui::vec2(w, line_h), egui::Sense::hover());
                if !said.is_empty() {
                    let mut child = ui.new_child(
                        egui::UiBuilder::new()
                            .max_rect(rect)
                            .layout(egui::Layout::left_to_right(egui::Align::Center)),
                    );
                    let text = if error {
                        egui::RichText::new(&said).color(child.visuals().error_fg_color)
                    } else {
                        egui::RichText::new(&said).weak()
                    };
                    child
                        .add(
                            egui::Label::new(text)
                                .truncate()
                                .show_tooltip_when_elided(false),
                        )
                        .on_hover_text(&said);
                }
                let row = ui.text_style_height(&egui::TextStyle::Button) + 4.0;
                egui::ScrollArea::vertical()
                    .id_salt("file_dialog_rows")
                    .min_scrolled_height(LIST_H)
                    .max_height(LIST_H)
                    .auto_shrink([false, false])
                    .show_rows(ui, row, self.entries.len(), |ui, rows| {
                        for e in self.entries.get(rows).unwrap_or_default() {
                            let text = if e.is_dir {
                                format!("{}/", e.name)
                            } else {
                                e.name.clone()
                            };
                            if clicked(ui.selectable_label(false, text)) {
                                if e.is_dir {
                                    go = Some(self.folder.join(&e.name));
                                } else {
                                    self.path = self.folder.join(&e.name).display().to_string();
                                }
                            }
                        }
                    });
                ui.separator();
                ui.horizontal(|ui| {
                    let path = self.chosen();
                    let confirm =
                        ui.add_enabled(path.is_some(), egui::Button::new(self.purpose.confirm()));
                    if (clicked(confirm) || entered)
                        && let Some(p) = path
                    {
                        if p.is_dir() {
                            go = Some(p);
                        } else {
                            result = Some(self.purpose.command(p));
                        }
                    }
                    if clicked(ui.button("Cancel")) {
                        self.open = false;
                    }
                });
            });
        if let Some(folder) = go {
            self.go_to(folder);
        }
        if !open || result.is_some() {
            self.open = false;
        }
        result
    }
}

/// The file dialog's one size (points): a long path or a full folder never resizes it.
pub const DIALOG_SIZE: egui::Vec2 = egui::vec2(560.0, 400.0);

/// A press this soon after the dialog showed, the pointer still where it was, is the second half
/// of the double-click that opened it (egui's longest double-click).
const DOUBLE_CLICK_S: f64 = 0.3;

/// The pointer moved (points) since the dialog showed: a press there is aimed at the dialog.
const MOVED_PX: f32 = 4.0;

/// The height of the folder listing, whatever it holds.
const LIST_H: f32 = 250.0;

/// `text` in a slot `width` wide: whole when it fits, else its end with "…" before it (a path's
/// last folders say where it is), the whole on hover.
fn tail_slot(
    ui: &mut egui::Ui,
    width: f32,
    height: f32,
    text: &str,
    style: egui::TextStyle,
    weak: bool,
) {
    let (rect, _) =
        ui.allocate_exact_size(egui::vec2(width.max(0.0), height), egui::Sense::hover());
    let font = style.resolve(ui.style());
    let fits = |t: &str| {
        ui.painter()
            .layout_no_wrap(t.to_string(), font.clone(), egui::Color32::WHITE)
            .size()
            .x
            <= width
    };
    let mut shown = text.to_string();
    if !fits(&shown) {
        let chars: Vec<char> = text.chars().collect();
        // The longest end that fits after "…" (found by halving: a path may be long).
        let (mut lo, mut hi) = (0, chars.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            let tail: String = chars.iter().skip(mid).collect();
            if fits(&format!("…{tail}")) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        let tail: String = chars.iter().skip(lo).collect();
        shown = format!("…{tail}");
    }
    let mut child = ui.new_child(
        egui::UiBuilder::new()
            .max_rect(rect)
            .layout(egui::Layout::left_to_right(egui::Align::Center)),
    );
    let rich = egui::RichText::new(shown).text_style(style);
    let rich = if weak { rich.weak() } else { rich };
    child
        .add(
            egui::Label::new(rich)
                .truncate()
                .show_tooltip_when_elided(false),
        )
        .on_hover_text(text);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_folders_first_and_only_matching_files() {
        let dir = std::env::temp_dir().join(format!("kepi-fd-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("zsub")).unwrap();
        std::fs::write(dir.join("a.json"), b"{}").unwrap();
        std::fs::write(dir.join("b.txt"), b"x").unwrap();
        std::fs::write(dir.join(".hidden.json"), b"x").unwrap();
        let mut d = FileDialog::default();
        d.show_for(Purpose::Open, dir.clone());
        let names: Vec<_> = d.entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["zsub", "a.json"]);
        d.path = "mine.json".into();
        assert_eq!(d.chosen(), Some(dir.join("mine.json")));
        d.show_for(Purpose::SaveAs, dir.clone());
        assert_eq!(d.chosen(), Some(dir.join(DEFAULT_SAVE_NAME)));
        d.go_to(dir.join("zsub"));
        assert_eq!(d.chosen(), Some(dir.join("zsub").join(DEFAULT_SAVE_NAME)));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_missing_folder_is_an_error_not_a_panic() {
        let mut d = FileDialog::default();
        d.show_for(Purpose::Open, PathBuf::from("/no/such/kepi/folder"));
        assert!(
            d.error
                .as_deref()
                .is_some_and(|e| e.contains("cannot list"))
        );
        assert!(d.entries.is_empty());
    }
}
