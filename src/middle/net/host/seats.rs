//! The seats file beside a save: each seat's code and the chain key, readable by the owner only.

#[allow(unused_imports)]
use super::*;

/// The codes file beside a save: `SAVE.seats`, readable by its owner only.
#[derive(Serialize, Deserialize)]
pub(super) struct SeatsFile {
    pub(super) format: String,
    pub(super) seats: Vec<SeatCode>,
}

/// A seat and its code, as `kepi serve` prints them and keeps them.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SeatCode {
    /// The seat.
    pub seat: Seat,
    /// Its join code.
    pub code: String,
}

pub(super) const SEATS_FORMAT: &str = "kepi-seats";

pub(super) fn seats_path(save: &Path) -> PathBuf {
    let mut s = save.as_os_str().to_os_string();
    s.push(".seats");
    PathBuf::from(s)
}

/// The seats' codes: those kept beside the save (so players' codes survive a restart of the
/// host) when they cover exactly these seats, else new ones, kept.
pub(super) fn seat_codes(
    save: &Path,
    seats: &[Seat],
    fresh: bool,
) -> Result<Vec<(Seat, Code)>, NetError> {
    let path = seats_path(save);
    if !fresh
        && let Ok(bytes) = kepi_game::fsio::read_regular_nofollow(&path, 64 * 1024, "seats file")
        && let Ok(file) = serde_json::from_slice::<SeatsFile>(&bytes)
        && file.format == SEATS_FORMAT
        && file.seats.len() == seats.len()
        && file.seats.iter().zip(seats).all(|(a, b)| a.seat == *b)
    {
        let kept: Option<Vec<(Seat, Code)>> = file
            .seats
            .iter()
            .map(|s| Code::parse(&s.code).map(|c| (s.seat, c)))
            .collect();
        if let Some(k) = kept {
            return Ok(k);
        }
    }
    let mut out = Vec::new();
    for s in seats {
        out.push((*s, Code::generate()?));
    }
    let file = SeatsFile {
        format: SEATS_FORMAT.into(),
        seats: out
            .iter()
            .map(|(s, c)| SeatCode {
                seat: *s,
                code: c.as_str().to_string(),
            })
            .collect(),
    };
    let bytes = serde_json::to_vec_pretty(&file)
        .map_err(|e| NetError::Host(format!("{}: {e}", path.display())))?;
    write_private(&path, &bytes)
        .map_err(|e| NetError::Host(format!("{}: cannot keep the codes: {e}", path.display())))?;
    Ok(out)
}

/// The key of the player seats' chains ([`crate::net::redact::ChainKey`]), kept in `SAVE.seats`
/// beside the codes (`"key"`), so a seat's chain is the same after a restart of the host. A
/// seats file without one (older, or just written with new codes) is given a new one.
pub(super) fn seat_key(save: &Path, fresh: bool) -> Result<crate::net::redact::ChainKey, NetError> {
    let path = seats_path(save);
    let bad = |e: String| {
        NetError::Host(format!(
            "{}: cannot keep the seats' key: {e}",
            path.display()
        ))
    };
    let mut file: serde_json::Value =
        kepi_game::fsio::read_regular_nofollow(&path, 64 * 1024, "seats file")
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_else(|| serde_json::json!({}));
    if !fresh
        && let Some(key) = file
            .get("key")
            .and_then(|k| k.as_str())
            .and_then(crate::net::redact::ChainKey::parse)
    {
        return Ok(key);
    }
    let key = crate::net::redact::ChainKey::generate().map_err(bad)?;
    let Some(obj) = file.as_object_mut() else {
        return Err(bad("the seats file is not a JSON object".into()));
    };
    obj.insert("key".into(), serde_json::Value::String(key.to_hex()));
    let bytes = serde_json::to_vec_pretty(&file).map_err(|e| bad(e.to_string()))?;
    write_private(&path, &bytes).map_err(|e| bad(e.to_string()))?;
    Ok(key)
}

/// Writes a file only its owner can read (the codes are secrets): a new temp file created with
/// mode 0600, fsynced, renamed over the old one.
pub(super) fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    kepi_game::fsio::check_replaceable(path).map_err(|e| std::io::Error::other(e.message()))?;
    let tmp = {
        let mut s = path.as_os_str().to_os_string();
        s.push(format!(".tmp-{}", std::process::id()));
        PathBuf::from(s)
    };
    let _ = std::fs::remove_file(&tmp);
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    let result = (|| {
        let mut f = opts.open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
