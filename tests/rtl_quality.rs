//! The generated RTL is lint-clean under `verilator --lint-only -Wall` (no waivers) and every
//! generated module synthesizes under yosys without a latch. The tests iterate over whatever
//! rtl/xdie.f lists, so new modules are covered as they appear. Verilator and yosys are required:
//! a missing tool fails the test with the command that installs it.

mod common;

use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

const INSTALL: &str = "install them with `sudo apt-get install verilator yosys` (Debian/Ubuntu; \
                       CI does this in .ci/run)";

fn require(tool: &str) {
    let ok = Command::new(tool)
        .arg(if tool == "yosys" { "-V" } else { "--version" })
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "`{tool}` is not on PATH; the RTL checks need it: {INSTALL}"
    );
}

/// The files rtl/xdie.f lists (relative to `root`, the directory the filelist is used from).
fn filelist(root: &Path) -> Vec<PathBuf> {
    let text = std::fs::read_to_string(root.join("rtl/xdie.f")).expect("read rtl/xdie.f");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//"))
        .map(PathBuf::from)
        .collect()
}

/// Names of the modules (not packages) declared in the listed files, in filelist order.
fn modules(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for f in filelist(root) {
        let text = std::fs::read_to_string(root.join(&f))
            .unwrap_or_else(|e| panic!("{} is listed but unreadable: {e}", f.display()));
        for l in text.lines() {
            if let Some(rest) = l.trim_start().strip_prefix("module ") {
                let name: String = rest
                    .trim_start()
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    out.push(name);
                }
            }
        }
    }
    out
}

/// Lint every module as the top, from `root`. Returns the complaints, one entry per module.
fn lint(root: &Path) -> Vec<String> {
    require("verilator");
    let mods = modules(root);
    assert!(!mods.is_empty(), "rtl/xdie.f lists no module");
    let mut bad = Vec::new();
    for m in &mods {
        let o = Command::new("verilator")
            .current_dir(root)
            .args([
                "--lint-only",
                "-Wall",
                "-f",
                "rtl/xdie.f",
                "--top-module",
                m,
            ])
            .output()
            .expect("run verilator");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        if !o.status.success() || text.contains("%Warning") || text.contains("%Error") {
            bad.push(format!("== {m}\n{text}"));
        }
    }
    bad
}

#[test]
fn committed_rtl_lints_clean() {
    let bad = lint(&repo());
    assert!(
        bad.is_empty(),
        "verilator -Wall complaints:\n{}",
        bad.join("\n")
    );
}

#[test]
fn fresh_generation_lints_clean() {
    let s = Scratch::new("lint-fresh");
    gen_into(&repo().join("csrs"), &s.path);
    let bad = lint(&s.path);
    assert!(
        bad.is_empty(),
        "verilator -Wall complaints:\n{}",
        bad.join("\n")
    );
}

#[test]
fn every_module_synthesizes_without_latches() {
    require("yosys");
    let root = repo();
    let files: Vec<String> = filelist(&root)
        .iter()
        .map(|f| f.display().to_string())
        .collect();
    let mut bad = Vec::new();
    for m in modules(&root) {
        let script = format!(
            "read_verilog -sv {}; synth -top {m}; select -assert-none t:$dlatch t:$_DLATCH*",
            files.join(" ")
        );
        let o = Command::new("yosys")
            .current_dir(&root)
            .args(["-q", "-p", &script])
            .output()
            .expect("run yosys");
        if !o.status.success() {
            bad.push(format!(
                "== {m}\n{}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "yosys failed (a failed `select -assert-none` means a latch):\n{}",
        bad.join("\n")
    );
}
