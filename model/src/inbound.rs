//! The inbound permission windows of a die (the `inbound_windows` block, docs/link.md): a
//! request that arrives over a D2D link and lands on the die is served only when an enabled
//! window matches its die-local address and grants its direction; any other is refused (DECERR,
//! nothing touched). A die's own masters are never checked, and a request forwarded to another
//! die is checked there. The windows are state, as the registers are: [`InboundWindows::reset`]
//! holds what the block holds after reset (the default windows the loader resolved from the die
//! map), and a test narrows a window as a driver would, to compare the model's verdicts with
//! the RTL's.

use xdie_csr::{InboundWindow, Views};

/// One window: its match and its permissions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub enabled: bool,
    pub read: bool,
    pub write: bool,
    pub window: InboundWindow,
}

/// Every window of one die, in window order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InboundWindows {
    pub windows: Vec<Window>,
}

impl InboundWindows {
    /// The windows after reset.
    pub fn reset(v: &Views) -> InboundWindows {
        InboundWindows {
            windows: v
                .inbound_reset()
                .into_iter()
                .map(|(window, read, write)| Window {
                    enabled: read || write,
                    read,
                    write,
                    window,
                })
                .collect(),
        }
    }

    /// Whether a request arriving over a link may touch die-local `local` (`write`: a store).
    pub fn permits(&self, local: u64, write: bool) -> bool {
        self.windows
            .iter()
            .any(|w| w.enabled && (if write { w.write } else { w.read }) && w.window.covers(local))
    }

    /// Sets window `i` (as the ctrl, base and mask registers of window `i` would).
    pub fn set(&mut self, i: usize, w: Window) {
        if let Some(slot) = self.windows.get_mut(i) {
            *slot = w;
        }
    }
}
