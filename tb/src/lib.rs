//! Cosimulation harness for the generated xdie RTL.
//!
//! `build.rs` Verilates every module of `rtl/xdie.f` and generates, from Verilator's own model
//! headers, a port table per DUT ([`duts`]). [`Sim`] owns one model with its own
//! `VerilatedContext` (tests run in parallel threads), [`AxilMaster`] drives the `s_axil_*`
//! slave port of a register block, [`RegModel`] predicts register reads from the CSR model and
//! [`harness::run`] makes a failing test print its seed and rerun itself with an FST trace.

mod ffi;

pub mod axil;
pub mod bench;
pub mod bench_copy;
pub mod block;
pub mod checks;
pub mod driver;
pub mod faults;
pub mod fw;
pub mod harness;
pub mod hooks;
pub mod lookup;
pub mod package;
pub mod regmodel;
pub mod rng;
pub mod rtl_fingerprint;
pub mod scoreboard;
pub mod sim;
pub mod stats;
pub mod system;

pub mod duts {
    //! Port tables of every DUT, generated from Verilator's `V<top>.h`.
    pub use crate::sim::{Port, PortInfo};
    include!(concat!(env!("OUT_DIR"), "/duts.rs"));
}

/// Why the build has no RTL models (Verilator's messages), when the RTL did not verilate.
/// `xdie gen` still builds and runs then, so it can repair a stale rtl/.
pub mod build_status {
    include!(concat!(env!("OUT_DIR"), "/rtl_unavailable.rs"));
}
pub use build_status::RTL_UNAVAILABLE;

/// Why the reference firmware is not linked (the C compiler's message), when fw/ did not compile
/// against the generated headers.
pub mod fw_status {
    include!(concat!(env!("OUT_DIR"), "/fw_unavailable.rs"));
}
pub use fw_status::FW_UNAVAILABLE;

pub use axil::{AxilError, AxilMaster, Resp, Timing};
pub use duts::DutKind;
pub use harness::Ctx;
pub use regmodel::{Expect, HwEvent, RegModel};
pub use rng::Rng;
pub use sim::{Sim, SimError};
