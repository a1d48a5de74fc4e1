//! LAN discovery: `kepi serve` advertises its game over multicast DNS (DNS-SD service
//! [`SERVICE_TYPE`]) so a player picks "the umpire's game" from a list (`kepi remote discover`);
//! a typed address always works, discovery only saves typing it.
//!
//! The service's TXT record carries the game's title, its rule set, the protocol version and the
//! port ([`Advert`]). What is read back from the network is anyone's word: [`Advert::from_txt`]
//! refuses a record without a protocol or port, caps every value's length and drops control
//! characters, so a hostile or foreign advertisement is skipped or shown harmlessly; a join code is
//! never advertised. The daemon (mdns-sd) runs on its own thread; no async runtime.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

use mdns_sd::{ServiceDaemon, ServiceEvent, ServiceInfo};
use serde::Serialize;

use super::{NetError, PROTOCOL_VERSION};

/// The DNS-SD service type of a kepi host.
pub const SERVICE_TYPE: &str = "_kepi._tcp.local.";

/// Longest TXT value kept (characters): a title is a line, not a page.
const MAX_TXT_VALUE: usize = 120;

/// What a host says about its game on the network.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Advert {
    /// The game's title.
    pub title: String,
    /// The rule set's id (`pk`, `1870`, ...).
    pub rules: String,
    /// The host's [`PROTOCOL_VERSION`].
    pub protocol: u32,
    /// The port it listens on.
    pub port: u16,
}

/// A value as kept from the network: no control characters, at most [`MAX_TXT_VALUE`] characters.
fn clean(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_control())
        .take(MAX_TXT_VALUE)
        .collect()
}

impl Advert {
    /// The TXT record's key/value pairs.
    pub fn txt(&self) -> Vec<(String, String)> {
        vec![
            ("title".into(), clean(&self.title)),
            ("rules".into(), clean(&self.rules)),
            ("proto".into(), self.protocol.to_string()),
            ("port".into(), self.port.to_string()),
        ]
    }

    /// Reads a TXT record back; an error says why it is not a kepi game's (missing or bad
    /// protocol or port).
    pub fn from_txt(txt: &HashMap<String, String>) -> Result<Advert, String> {
        let protocol = txt
            .get("proto")
            .ok_or("no `proto` in the TXT record")?
            .trim()
            .parse::<u32>()
            .map_err(|_| "`proto` is not a number".to_string())?;
        let port = txt
            .get("port")
            .ok_or("no `port` in the TXT record")?
            .trim()
            .parse::<u16>()
            .ok()
            .filter(|p| *p != 0)
            .ok_or("`port` is not a port (1 to 65535)")?;
        Ok(Advert {
            title: clean(txt.get("title").map_or("", String::as_str)),
            rules: clean(txt.get("rules").map_or("", String::as_str)),
            protocol,
            port,
        })
    }
}

/// A game found on the network.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Found {
    /// The address to join it at: `ws://IP:PORT`.
    pub address: String,
    /// The game's title.
    pub title: String,
    /// The rule set's id.
    pub rules: String,
    /// The host's protocol version.
    pub protocol: u32,
    /// Whether this kepi speaks that protocol (else: update the older kepi).
    pub compatible: bool,
}

/// How good an address is to join at from another machine (lower is better): the LAN's IPv4,
/// then a routable IPv6, then loopback (this machine only); `None` for link-local addresses,
/// which need an interface to mean anything.
fn rank(ip: &IpAddr) -> Option<u8> {
    match ip {
        IpAddr::V4(v4) if v4.is_link_local() || v4.is_unspecified() => None,
        IpAddr::V4(v4) if v4.is_loopback() => Some(2),
        IpAddr::V4(_) => Some(0),
        IpAddr::V6(v6) if v6.is_unspecified() || (v6.segments()[0] & 0xffc0) == 0xfe80 => None,
        IpAddr::V6(v6) if v6.is_loopback() => Some(3),
        IpAddr::V6(_) => Some(1),
    }
}

/// The address to join an advertised game at, the best of those it gave ([`rank`]); `None`:
/// none usable.
pub fn address_of(addrs: &[IpAddr], port: u16) -> Option<String> {
    let ip = addrs
        .iter()
        .filter_map(|a| rank(a).map(|r| (r, a)))
        .min()
        .map(|(_, a)| a)?;
    Some(match ip {
        IpAddr::V4(v4) => format!("ws://{v4}:{port}"),
        IpAddr::V6(v6) => format!("ws://[{v6}]:{port}"),
    })
}

/// A running advertisement; it is withdrawn when dropped.
pub struct Advertiser {
    daemon: ServiceDaemon,
    fullname: String,
}

fn mdns_err(e: mdns_sd::Error) -> NetError {
    NetError::Host(format!("LAN discovery (mDNS): {e}"))
}

impl Advertiser {
    /// Advertises `advert` on the machine's networks: at `bind` when the host listens on one
    /// address, else at every address of the machine (kept up to date as they change).
    pub fn start(advert: &Advert, bind: IpAddr) -> Result<Advertiser, NetError> {
        let daemon = ServiceDaemon::new().map_err(mdns_err)?;
        let mut tag = [0u8; 3];
        getrandom::fill(&mut tag).map_err(|e| NetError::Host(format!("no entropy: {e}")))?;
        let tag: String = tag.iter().map(|b| format!("{b:02x}")).collect();
        // Instance names are unique on the network and at most 63 bytes.
        let title: String = advert
            .title
            .chars()
            .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-')
            .take(40)
            .collect();
        let instance = format!("{} kepi-{tag}", title.trim());
        let host = format!("kepi-{tag}.local.");
        let props: HashMap<String, String> = advert.txt().into_iter().collect();
        let info = if bind.is_unspecified() {
            ServiceInfo::new(SERVICE_TYPE, &instance, &host, (), advert.port, props)
                .map(ServiceInfo::enable_addr_auto)
        } else {
            ServiceInfo::new(SERVICE_TYPE, &instance, &host, bind, advert.port, props)
        }
        .map_err(mdns_err)?;
        let fullname = info.get_fullname().to_string();
        daemon.register(info).map_err(mdns_err)?;
        Ok(Advertiser { daemon, fullname })
    }
}

impl Drop for Advertiser {
    fn drop(&mut self) {
        // Best effort: say goodbye so browsers drop the game at once, then stop the daemon.
        if let Ok(rx) = self.daemon.unregister(&self.fullname) {
            let _ = rx.recv_timeout(Duration::from_millis(500));
        }
        let _ = self.daemon.shutdown();
    }
}

/// The kepi games advertised on this machine's networks, browsing for `timeout`; sorted by
/// title, then address. Records that are not a kepi game's are skipped.
pub fn discover(timeout: Duration) -> Result<Vec<Found>, NetError> {
    let daemon = ServiceDaemon::new().map_err(mdns_err)?;
    let rx = daemon.browse(SERVICE_TYPE).map_err(mdns_err)?;
    let deadline = Instant::now() + timeout;
    // One game per advertised instance, whatever interfaces its records came in on.
    let mut heard: HashMap<String, (Advert, Vec<IpAddr>)> = HashMap::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        let Ok(event) = rx.recv_timeout(left) else {
            break;
        };
        let ServiceEvent::ServiceResolved(s) = event else {
            continue;
        };
        let txt = s.get_properties().clone().into_property_map_str();
        let Ok(mut advert) = Advert::from_txt(&txt) else {
            continue;
        };
        // The SRV record's port is the one listened on; the TXT's is a copy.
        if s.get_port() != 0 {
            advert.port = s.get_port();
        }
        let addrs = s.get_addresses().iter().map(|a| a.to_ip_addr());
        let entry = heard
            .entry(s.get_fullname().to_string())
            .or_insert_with(|| (advert, Vec::new()));
        entry.1.extend(addrs);
    }
    let _ = daemon.stop_browse(SERVICE_TYPE);
    let _ = daemon.shutdown();
    let mut found: Vec<Found> = heard
        .into_values()
        .filter_map(|(advert, addrs)| {
            Some(Found {
                address: address_of(&addrs, advert.port)?,
                compatible: advert.protocol == PROTOCOL_VERSION,
                title: advert.title,
                rules: advert.rules,
                protocol: advert.protocol,
            })
        })
        .collect();
    found.sort_by(|a, b| (&a.title, &a.address).cmp(&(&b.title, &b.address)));
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn txt_records_round_trip_and_foreign_ones_are_refused_or_cleaned() {
        let a = Advert {
            title: "Mars-la-Tour, 16 August 1870".into(),
            rules: "1870".into(),
            protocol: PROTOCOL_VERSION,
            port: 1870,
        };
        let txt: HashMap<String, String> = a.txt().into_iter().collect();
        assert_eq!(Advert::from_txt(&txt), Ok(a));
        let mut bad = txt.clone();
        bad.remove("proto");
        assert!(Advert::from_txt(&bad).is_err());
        for port in ["0", "70000", "x"] {
            let mut bad = txt.clone();
            bad.insert("port".into(), port.into());
            assert!(Advert::from_txt(&bad).is_err(), "{port}");
        }
        let mut odd = txt;
        odd.insert("title".into(), format!("a\u{1b}[2Jb{}", "x".repeat(10_000)));
        let got = Advert::from_txt(&odd).unwrap();
        assert!(got.title.starts_with("a[2Jb"), "{}", got.title);
        assert_eq!(got.title.chars().count(), MAX_TXT_VALUE);
    }

    #[test]
    fn addresses_prefer_ipv4() {
        let v6: IpAddr = "fd00::2".parse().unwrap();
        let v4: IpAddr = "192.168.1.20".parse().unwrap();
        assert_eq!(
            address_of(&[v6, v4], 1870).as_deref(),
            Some("ws://192.168.1.20:1870")
        );
        assert_eq!(address_of(&[v6], 80).as_deref(), Some("ws://[fd00::2]:80"));
        assert_eq!(address_of(&[], 80), None);
        let lo: IpAddr = "127.0.0.1".parse().unwrap();
        let link: IpAddr = "fe80::1".parse().unwrap();
        assert_eq!(
            address_of(&[lo, link, v6], 1870).as_deref(),
            Some("ws://[fd00::2]:1870"),
            "another machine cannot use loopback"
        );
        assert_eq!(
            address_of(&[lo], 1870).as_deref(),
            Some("ws://127.0.0.1:1870")
        );
        assert_eq!(address_of(&[link], 1870), None);
    }
}
