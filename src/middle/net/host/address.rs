//! Where the host listens: this machine's addresses, what a bind exposes, in words.

#[allow(unused_imports)]
use super::*;

/// Who can reach a host listening on `bind`, in words: "this computer only" for a loopback
/// address; for every interface (`0.0.0.0`, `::`), each network this computer is on, with its
/// addresses; else the one network of that address.
pub fn reach(bind: IpAddr) -> String {
    if bind.is_loopback() {
        return format!("this computer only ({bind})");
    }
    if !bind.is_unspecified() {
        return format!("the network of {bind} only");
    }
    let mut ips: Vec<IpAddr> = if_addrs::get_if_addrs()
        .unwrap_or_default()
        .iter()
        .map(if_addrs::Interface::ip)
        .filter(|ip| bind.is_ipv6() || ip.is_ipv4())
        .collect();
    ips.sort();
    ips.dedup();
    let listed: Vec<String> = ips.iter().map(IpAddr::to_string).collect();
    if listed.is_empty() {
        "every network of this computer (all interfaces)".into()
    } else {
        format!(
            "every network of this computer (all interfaces: {})",
            listed.join(", ")
        )
    }
}

/// This machine's own addresses (every interface's, loopback included), sorted: those a host can
/// listen on besides every interface (`0.0.0.0`, `::`).
pub fn own_addresses() -> Vec<IpAddr> {
    let mut ips: Vec<IpAddr> = if_addrs::get_if_addrs()
        .unwrap_or_default()
        .iter()
        .map(if_addrs::Interface::ip)
        .collect();
    ips.sort();
    ips.dedup();
    ips
}

/// Whether a host can listen on `ip` here: every interface, loopback, or one of `own` (this
/// machine's addresses; an empty list, when the OS would not say, lets the OS decide).
pub fn can_listen_on(ip: IpAddr, own: &[IpAddr]) -> bool {
    ip.is_unspecified() || ip.is_loopback() || own.is_empty() || own.contains(&ip)
}

/// Why a host cannot listen on `ip`, in words, with `own` (this machine's addresses): "192.0.2.1
/// is not an address of this machine; pick one of 10.0.0.5, 127.0.0.1, or 0.0.0.0 (every network
/// of this computer)".
pub fn not_an_own_address(ip: IpAddr, own: &[IpAddr]) -> String {
    let own: Vec<String> = own
        .iter()
        .filter(|a| a.is_ipv4() == ip.is_ipv4())
        .map(IpAddr::to_string)
        .collect();
    let every = if ip.is_ipv4() { "0.0.0.0" } else { "::" };
    if own.is_empty() {
        format!(
            "{ip} is not an address of this machine; pick {every} (every network of this computer)"
        )
    } else {
        format!(
            "{ip} is not an address of this machine; pick one of {}, or {every} (every network of this computer)",
            own.join(", ")
        )
    }
}

/// The warning when a host listens on every interface (`None` otherwise).
pub fn exposure_warning(addr: SocketAddr) -> Option<String> {
    addr.ip().is_unspecified().then(|| {
        format!(
            "listening on every interface: anyone who can reach this computer on port {} can try a join code (--bind 127.0.0.1 keeps the game to this computer; --bind ADDR to one network)",
            addr.port()
        )
    })
}

/// This machine's address on the local network: the one the OS would send from towards a
/// private address (a UDP socket is "connected", which sends nothing).
pub(super) fn lan_ip() -> Option<IpAddr> {
    let s = std::net::UdpSocket::bind(("0.0.0.0", 0)).ok()?;
    s.connect(("192.168.0.1", 9)).ok()?;
    let ip = s.local_addr().ok()?.ip();
    (!ip.is_unspecified()).then_some(ip)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 29: the default bind is every interface; kepi says so, and what it exposes.
    #[test]
    fn what_a_bind_exposes_is_said_in_words() {
        let every = SocketAddr::from(([0, 0, 0, 0], 1870));
        let w = exposure_warning(every).unwrap_or_default();
        assert!(
            w.contains("every interface") && w.contains("port 1870"),
            "{w}"
        );
        assert!(w.contains("--bind 127.0.0.1"), "{w}");
        assert!(exposure_warning(SocketAddr::from(([127, 0, 0, 1], 1870))).is_none());
        assert!(exposure_warning(SocketAddr::from(([192, 168, 1, 20], 1870))).is_none());
        assert_eq!(
            reach(IpAddr::from([127, 0, 0, 1])),
            "this computer only (127.0.0.1)"
        );
        assert!(reach(IpAddr::from([192, 168, 1, 20])).contains("192.168.1.20 only"));
        assert!(reach(IpAddr::from([0, 0, 0, 0])).starts_with("every network of this computer"));
    }
}
