//! The AXI4-Lite protocol checks verilated into every model (rtl/assert/, docs/axi-lite-checks.md)
//! stop a run that breaks a rule, and the testbench fails that run at that edge with a message
//! saying so, rather than carrying on: the model's own context does not abort the process.

use std::panic::{catch_unwind, AssertUnwindSafe};
use xdie_tb::block::dut;
use xdie_tb::Sim;

/// Whether this build's models carry the checks (`XDIE_ASSERT=0` leaves them out).
fn checks_built() -> bool {
    option_env!("XDIE_TB_PROTOCOL_CHECKS") != Some("0")
}

/// The host port model after reset, its AXI4-Lite master offering a write address without data
/// (the port takes address and data together, so AWREADY stays low).
fn waiting_write() -> Sim {
    let mut sim = Sim::new(dut("xdie_host_port")).expect("host port model");
    sim.reset(2);
    sim.set_by_name("s_axil_awaddr_i", 0x8000_0100)
        .expect("port");
    sim.set_by_name("s_axil_awvalid_i", 1).expect("port");
    sim.tick();
    sim.tick();
    assert!(!sim.got_error(), "a waiting AWVALID broke no rule");
    sim
}

#[test]
fn a_master_dropping_awvalid_before_awready_fails_the_run() {
    if !checks_built() {
        eprintln!("SKIPPED: the models were built without the protocol checks (XDIE_ASSERT=0)");
        return;
    }
    let mut sim = waiting_write();
    // AWVALID dropped before AWREADY: a rule of the master's side.
    sim.set_by_name("s_axil_awvalid_i", 0).expect("port");
    let stopped = catch_unwind(AssertUnwindSafe(|| sim.tick()));
    let msg = match stopped {
        Ok(()) => panic!("the run carried on after AWVALID dropped before AWREADY"),
        Err(e) => e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default(),
    };
    assert!(
        msg.contains("xdie_host_port model stopped") && msg.contains("assertion failed"),
        "the panic does not say the model stopped on an assertion: {msg}"
    );
}

#[test]
fn a_master_keeping_the_rules_runs_on() {
    let mut sim = waiting_write();
    // Data offered too: the port takes both, answers, and no rule is broken.
    sim.set_by_name("s_axil_wvalid_i", 1).expect("port");
    sim.set_by_name("s_axil_wstrb_i", 0xF).expect("port");
    sim.set_by_name("s_axil_bready_i", 1).expect("port");
    sim.tick();
    sim.set_by_name("s_axil_awvalid_i", 0).expect("port");
    sim.set_by_name("s_axil_wvalid_i", 0).expect("port");
    sim.ticks(20);
    assert!(!sim.got_error());
}
