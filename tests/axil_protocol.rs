//! The AXI4-Lite protocol checks (rtl/assert/) and the host port's formal proof (scripts/formal.sh).
//!
//! - the checker and its binds lint clean with the models they are verilated into;
//! - the host port's AXI4-Lite slave is proved compliant (BMC and k-induction, every input free),
//!   when yosys-smtbmc and yices are installed (`cargo xtask setup` installs them; without them
//!   the proofs say what they skipped and pass);
//! - a mutant of the host port that forwards the bus's response code unchanged (so 2'b01, EXOKAY,
//!   reaches BRESP/RRESP) fails both the proof and a simulation with the checker bound to it,
//!   while the real port passes the same simulation: the checks can fail, and fail on that bug.

mod common;
#[path = "../tb/build/filelist.rs"]
mod filelist;

use common::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const INSTALL: &str = "install the tools with `cargo xtask setup`";

/// The checker and the file binding it (tb/build.rs verilates every model with them).
const ASSERT_FILES: &[&str] = &[
    "rtl/assert/xdie_axil_check.sv",
    "rtl/assert/xdie_axil_bind.sv",
];

/// The host port's source.
const HOST_PORT: &str = "rtl/core/xdie_host_port.sv";

/// The line of the host port that maps the bus's code to one AXI4-Lite has.
const MAPPED: &str = "xdie_xbus_pkg::to_resp(m_rsp_err_i)";

fn present(tool: &str, arg: &str) -> bool {
    Command::new(tool)
        .arg(arg)
        .output()
        .is_ok_and(|o| o.status.success())
}

fn require(tool: &str) {
    assert!(
        present(tool, "--version"),
        "`{tool}` is not on PATH; the protocol checks need it: {INSTALL}"
    );
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The host port with its bus response forwarded as is, written into `dir`.
fn mutant(dir: &Path) -> PathBuf {
    let src = std::fs::read_to_string(repo().join(HOST_PORT)).expect("read the host port");
    assert_eq!(
        src.matches(MAPPED).count(),
        1,
        "{HOST_PORT} no longer maps the bus's code with `{MAPPED}` once: update the mutant"
    );
    let path = dir.join("xdie_host_port.sv");
    std::fs::write(&path, src.replace(MAPPED, "m_rsp_err_i")).expect("write the mutant");
    path
}

/// Whether the formal tools are installed; says what is skipped when not.
fn formal_tools(test: &str) -> bool {
    let missing: Vec<&str> = [
        ("yosys", "-V"),
        ("yosys-smtbmc", "-h"),
        ("yices-smt2", "--version"),
    ]
    .into_iter()
    .filter(|(t, a)| !present(t, a))
    .map(|(t, _)| t)
    .collect();
    if missing.is_empty() {
        return true;
    }
    eprintln!(
        "SKIPPED {test}: the host port's formal AXI4-Lite check needs {} ({INSTALL})",
        missing.join(", ")
    );
    false
}

fn formal(dut: Option<&Path>) -> Output {
    let mut c = Command::new("bash");
    c.current_dir(repo()).arg("scripts/formal.sh");
    if let Some(d) = dut {
        c.arg(d);
    }
    c.output().expect("run scripts/formal.sh")
}

#[test]
fn host_port_formal_proof_passes() {
    if !formal_tools("host_port_formal_proof_passes") {
        return;
    }
    let o = formal(None);
    let t = text(&o);
    assert!(
        o.status.success() && t.contains("bmc: PASS") && t.contains("induction: PASS"),
        "the host port's AXI4-Lite proof fails (scripts/formal.sh; XDIE_FORMAL_DIR=DIR keeps the \
         counterexample):\n{t}"
    );
}

#[test]
fn host_port_mutant_fails_the_formal_proof() {
    if !formal_tools("host_port_mutant_fails_the_formal_proof") {
        return;
    }
    let s = Scratch::new("formal-mutant");
    let m = mutant(&s.path);
    let o = formal(Some(&m));
    let t = text(&o);
    assert_eq!(
        o.status.code(),
        Some(1),
        "the proof should fail on a host port that forwards EXOKAY:\n{t}"
    );
    assert!(
        t.contains("bmc: FAIL") && t.contains("xdie_axil_check.sv"),
        "the bounded check should find the EXOKAY response:\n{t}"
    );
}

/// Builds the standalone host port testbench (tests/axil/) around `dut` with the checker bound,
/// runs it and returns its output.
fn simulate(dut: &Path, dir: &Path) -> Output {
    let root = repo();
    let mdir = dir.join("obj");
    std::fs::create_dir_all(&mdir).expect("create the model's directory");
    let mut c = Command::new("verilator");
    c.current_dir(&root)
        .args([
            "--cc",
            "--exe",
            "--build",
            "-j",
            "2",
            "--assert",
            "-Wno-fatal",
        ])
        .args(["-Wno-lint", "-Wno-style"])
        .arg("rtl/gen/xdie_soc_addr_pkg.sv")
        .arg("rtl/gen/xdie_xbus_pkg.sv")
        .arg(dut)
        .args(ASSERT_FILES)
        .arg("tests/axil/xdie_host_port_tb.sv")
        .arg(root.join("tests/axil/main.cc"))
        .args(["--top-module", "xdie_host_port_tb", "-Mdir"])
        .arg(&mdir);
    let b = c.output().expect("run verilator");
    assert!(
        b.status.success(),
        "the host port testbench does not build:\n{}",
        text(&b)
    );
    Command::new(mdir.join("Vxdie_host_port_tb"))
        .output()
        .expect("run the host port testbench")
}

#[test]
fn protocol_checks_pass_the_host_port_and_catch_the_mutant() {
    require("verilator");
    let s = Scratch::new("axil-sim");
    let good = simulate(&repo().join(HOST_PORT), &s.join("good"));
    assert!(
        good.status.success(),
        "the host port fails its protocol checks in simulation:\n{}",
        text(&good)
    );
    let m = mutant(&s.path);
    let bad = simulate(&m, &s.join("mutant"));
    let t = text(&bad);
    assert_eq!(
        bad.status.code(),
        Some(1),
        "a host port that forwards EXOKAY passed the simulation:\n{t}"
    );
    assert!(
        t.contains("Assertion failed") && t.contains("EXOKAY, which AXI4-Lite does not have"),
        "the protocol checker did not report the EXOKAY response:\n{t}"
    );
}

/// The checks lint clean with every model they are verilated into (with --assert, as the
/// testbench builds them).
#[test]
fn protocol_checks_lint_clean() {
    require("verilator");
    let root = repo();
    let mut bad = Vec::new();
    for (top, extra) in [
        ("xdie_pkg_top", None),
        ("xdie_die_node", Some("rtl/sim/xdie_die_node.sv")),
        ("xdie_host_port", None),
    ] {
        let o = Command::new("verilator")
            .current_dir(&root)
            .args(["--lint-only", "-Wall", "--assert", filelist::LINT_CONFIG])
            .args(["-f", filelist::FILELIST])
            .args(extra)
            .args(ASSERT_FILES)
            .args(["--top-module", top])
            .output()
            .expect("run verilator");
        let t = text(&o);
        if !o.status.success() || t.contains("%Warning") || t.contains("%Error") {
            bad.push(format!("== {top}\n{t}"));
        }
    }
    assert!(
        bad.is_empty(),
        "verilator -Wall complaints:\n{}",
        bad.join("\n")
    );
}
