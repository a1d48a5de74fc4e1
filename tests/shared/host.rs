//! A kepi host serving a save on 127.0.0.1 from its own thread, for the network tests of the CLI
//! and of the window; it stops (the save caught up) when dropped.
#![allow(dead_code)] // each test binary uses a part

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use kepi::net::Seat;
use kepi::net::host::{Event, Host, HostOptions, SeatCode};

/// A host of a save on loopback, serving on its own thread until dropped.
pub struct TestHost {
    /// `ws://127.0.0.1:PORT`.
    pub address: String,
    /// Each seat and its code.
    pub seats: Vec<SeatCode>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl TestHost {
    /// A host on any free port with new codes.
    pub fn start(save: &Path) -> TestHost {
        TestHost::start_on(save, 0, true)
    }

    /// A host on `port` (0: any free one), with new codes or the save's own.
    pub fn start_on(save: &Path, port: u16, new_codes: bool) -> TestHost {
        TestHost::start_with(save, port, new_codes, false)
    }

    /// A host that may hide the other side's strengths from player seats.
    pub fn start_with(save: &Path, port: u16, new_codes: bool, hide: bool) -> TestHost {
        TestHost::serve(save, port, new_codes, hide, false)
    }

    /// A host that may hide the other side's strengths from player seats and hold players'
    /// resolutions for the umpire's approval (`approve`).
    pub fn serve(save: &Path, port: u16, new_codes: bool, hide: bool, approve: bool) -> TestHost {
        let tables = kepi::registry::builtin_tables().expect("tables");
        let host = Host::open(
            save,
            &HostOptions {
                bind: std::net::IpAddr::from([127, 0, 0, 1]),
                port,
                new_codes,
            },
            tables,
            Arc::new(|_: &Event| {}),
        )
        .expect("host");
        host.set_hide_strengths(hide);
        host.set_approval(approve);
        let address = host.url();
        let seats = host.seats();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let _ = host.serve(&flag);
        });
        TestHost {
            address,
            seats,
            stop,
            thread: Some(thread),
        }
    }

    /// The code of `seat`.
    pub fn code(&self, seat: Seat) -> String {
        self.seats
            .iter()
            .find(|s| s.seat == seat)
            .map(|s| s.code.clone())
            .expect("seat")
    }
}

impl Drop for TestHost {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
