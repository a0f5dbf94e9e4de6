//! The RTL (generated rtl/gen/ and hand-written rtl/core/) is lint-clean under
//! `verilator --lint-only -Wall` with the one configuration file rtl/lint.vlt (its only waiver:
//! unread constants of the generated packages), and every module synthesizes under yosys without
//! a latch and without a wire yosys declared itself or found undriven (a construct it read other
//! than written). The tests iterate over whatever rtl/xdie.f lists, so new modules are covered as they
//! appear. Verilator and yosys are required: a missing tool fails the test with the command that
//! installs it. `synth_report` (ignored; scripts/synth.sh runs it) prints cells per module.

mod common;
#[path = "../tb/build/filelist.rs"]
mod filelist;

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
fn listed(root: &Path) -> Vec<PathBuf> {
    filelist::read(root).unwrap_or_else(|e| panic!("{e}"))
}

/// One listed file: what it declares and the identifiers it uses.
struct SvFile {
    path: PathBuf,
    modules: Vec<String>,
    /// Module and package names declared here.
    declares: Vec<String>,
    words: std::collections::BTreeSet<String>,
}

fn sv_files(root: &Path) -> Vec<SvFile> {
    listed(root)
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(root.join(&path))
                .unwrap_or_else(|e| panic!("{} is listed but unreadable: {e}", path.display()));
            let d = filelist::declares(&text);
            let modules = d.modules.clone();
            let declares = d.modules.into_iter().chain(d.packages).collect();
            let words = text
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .filter(|w| !w.is_empty())
                .map(str::to_string)
                .collect();
            SvFile {
                path,
                modules,
                declares,
                words,
            }
        })
        .collect()
}

/// The files module `m` needs: its own file and, transitively, every listed file declaring a
/// package or module it names. Filelist order is kept (packages first).
fn closure(files: &[SvFile], m: &str) -> Vec<PathBuf> {
    let mut need: Vec<bool> = files
        .iter()
        .map(|f| f.modules.iter().any(|x| x == m))
        .collect();
    loop {
        let mut grew = false;
        for i in 0..files.len() {
            if need[i] {
                continue;
            }
            let used = files
                .iter()
                .zip(&need)
                .any(|(f, n)| *n && files[i].declares.iter().any(|d| f.words.contains(d)));
            if used {
                need[i] = true;
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    files
        .iter()
        .zip(need)
        .filter(|(_, n)| *n)
        .map(|(f, _)| f.path.clone())
        .collect()
}

fn output_text(o: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Lint, from `root`: each module as the top with exactly the files it needs (what a user who
/// takes one module gets), then the whole filelist at once. Returns the complaints.
fn lint(root: &Path) -> Vec<String> {
    require("verilator");
    let files = sv_files(root);
    let modules: Vec<&String> = files.iter().flat_map(|f| &f.modules).collect();
    assert!(!modules.is_empty(), "rtl/xdie.f lists no module");
    let mut bad = Vec::new();
    for m in &modules {
        let o = Command::new("verilator")
            .current_dir(root)
            .args([
                "--lint-only",
                "-Wall",
                filelist::LINT_CONFIG,
                "--top-module",
                m,
            ])
            .args(closure(&files, m))
            .output()
            .expect("run verilator");
        let text = output_text(&o);
        if !o.status.success() || text.contains("%Warning") || text.contains("%Error") {
            bad.push(format!("== {m}\n{text}"));
        }
    }
    // The whole list together: the same checks across modules. Several independent modules
    // are several tops, which Verilator names (MULTITOP); a library filelist has no single top,
    // so that one message is expected and everything else is a complaint. Twice: as shipped,
    // and with the crossbar's per-port fields unpacked, the form the package model simulates.
    for defines in [&[][..], &["+define+XDIE_UNPACKED_PORTS"][..]] {
        let o = Command::new("verilator")
            .current_dir(root)
            .args(["--lint-only", "-Wall", filelist::LINT_CONFIG])
            .args(defines)
            .args(["-f", filelist::FILELIST])
            .output()
            .expect("run verilator");
        let text = output_text(&o);
        let other: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with('%'))
            .filter(|l| {
                !l.starts_with("%Warning-MULTITOP") && !l.starts_with("%Error: Exiting due to")
            })
            .collect();
        if !other.is_empty() || (modules.len() == 1 && !o.status.success()) {
            bad.push(format!("== {defines:?} -f {}\n{text}", filelist::FILELIST));
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

/// The simulation tops outside the filelist (rtl/sim/: the die node of the composed systems)
/// lint clean against it, with the defines the testbench verilates them with.
#[test]
fn simulation_tops_lint_clean() {
    require("verilator");
    let root = repo();
    let mut bad = Vec::new();
    for entry in std::fs::read_dir(root.join("rtl/sim")).expect("rtl/sim") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "sv") {
            continue;
        }
        let top = path
            .file_stem()
            .expect("stem")
            .to_string_lossy()
            .into_owned();
        for defines in [
            &[][..],
            &["+define+XDIE_UNPACKED_PORTS", "+define+XDIE_SIM_HOOKS"][..],
            // The die node's neighbor-view model (tb/build.rs)
            &[
                "+define+XDIE_UNPACKED_PORTS",
                "+define+XDIE_SIM_HOOKS",
                "+define+XDIE_NODE_VIEW=xdie_soc_addr_pkg::VIEW_NEIGHBOR",
            ][..],
        ] {
            let o = Command::new("verilator")
                .current_dir(&root)
                .args(["--lint-only", "-Wall", filelist::LINT_CONFIG])
                .args(defines)
                .args(["-f", filelist::FILELIST])
                .arg(&path)
                .args(["--top-module", &top])
                .output()
                .expect("run verilator");
            let text = output_text(&o);
            if !o.status.success() || text.contains("%Warning") || text.contains("%Error") {
                bad.push(format!("== {top} {defines:?}\n{text}"));
            }
        }
    }
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
    // The filelist also names the hand-written RTL, which generation does not produce, and
    // every lint run passes the lint configuration.
    copy_core(&s.path);
    let bad = lint(&s.path);
    assert!(
        bad.is_empty(),
        "verilator -Wall complaints:\n{}",
        bad.join("\n")
    );
}

/// Copies what `xdie gen` does not write (the hand-written RTL and the lint configuration) from
/// the repository to an output root, so the filelist generated there is complete.
fn copy_core(root: &Path) {
    let mut files: Vec<String> = xdie_gen::emit::filelist::handwritten().collect();
    files.push(format!("{}/core.f", xdie_gen::emit::filelist::CORE_DIR));
    files.push(filelist::LINT_CONFIG.to_string());
    for f in files {
        let dst = root.join(&f);
        std::fs::create_dir_all(dst.parent().expect("parent")).expect("mkdir");
        std::fs::copy(repo().join(&f), &dst).unwrap_or_else(|e| panic!("copy {f}: {e}"));
    }
}

/// What yosys says when it reads the RTL other than the designer wrote it: an identifier it
/// declared itself (a construct it does not parse as written, e.g. a member select of an array of
/// structs) and a wire that is read but driven by nothing (what such an identifier becomes). Either
/// means the netlist is not the RTL that the simulators run.
const MISREAD: &[&str] = &["is implicitly declared", "is used but has no driver"];

/// The lines of a yosys log that report a misread (MISREAD).
fn misreads(log: &str) -> Vec<&str> {
    log.lines()
        .filter(|l| MISREAD.iter().any(|m| l.contains(m)))
        .collect()
}

/// The check can fail: yosys, given the construct that once cut the die's link-health wiring (a
/// member select of an element of an unpacked array of structs, on a port), reports misreads.
#[test]
fn misread_of_struct_array_member_is_caught() {
    require("yosys");
    let s = Scratch::new("yosys-misread");
    let sv = s.join("misread.sv");
    std::fs::write(
        &sv,
        "package misread_pkg;\n\
           typedef struct packed { logic up; logic [1:0] err; } h_t;\n\
         endpackage\n\
         module misread_leaf (input logic a, input logic [1:0] b, output logic y);\n\
           assign y = a ^ ^b;\n\
         endmodule\n\
         module misread_top (input logic [5:0] h_i, output logic [1:0] y);\n\
           misread_pkg::h_t h [2];\n\
           for (genvar c = 0; c < 2; c++) begin : g\n\
             assign h[c] = h_i[c*3 +: 3];\n\
             misread_leaf u (.a(h[c].up), .b(h[c].err), .y(y[c]));\n\
           end\n\
         endmodule\n",
    )
    .unwrap();
    let o = Command::new("yosys")
        .args(["-q", "-p"])
        .arg(format!(
            "read_verilog -sv {}; hierarchy -check -top misread_top; proc; opt_clean; check",
            sv.display()
        ))
        .output()
        .expect("run yosys");
    let text = output_text(&o);
    assert!(!misreads(&text).is_empty(), "no misread reported:\n{text}");
}

/// Every module of the filelist, as the top with its default parameters, elaborates under yosys
/// with no latch and no misread (MISREAD): the netlists of scripts/fpga.sh and of any yosys flow
/// are the RTL.
#[test]
fn every_module_synthesizes_without_latches_or_misreads() {
    require("yosys");
    let root = repo();
    let files: Vec<String> = listed(&root)
        .iter()
        .map(|f| f.display().to_string())
        .collect();
    let mut bad = Vec::new();
    let modules: Vec<String> = sv_files(&root)
        .into_iter()
        .flat_map(|f| f.modules)
        .collect();
    for m in modules {
        let script = format!(
            // Elaborate and run `proc` only: that is where yosys infers latches, and it takes
            // seconds where the full `synth` (technology mapping, which scripts/synth.sh runs
            // for the cell counts) takes minutes on the large blocks. `check` reports the wires
            // that nothing drives.
            "read_verilog -sv {}; hierarchy -check -top {m}; proc; opt_clean; check; \
             select -assert-none t:$dlatch t:$adlatch t:$dlatchsr t:$_DLATCH*",
            files.join(" ")
        );
        let o = Command::new("yosys")
            .current_dir(&root)
            .args(["-q", "-p", &script])
            .output()
            .expect("run yosys");
        let text = output_text(&o);
        let misread = misreads(&text);
        if !o.status.success() {
            bad.push(format!("== {m}: yosys failed\n{text}"));
        } else if !misread.is_empty() {
            bad.push(format!(
                "== {m}: read other than written\n{}",
                misread.join("\n")
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "yosys failed (a failed `select -assert-none` means a latch) or misread the RTL:\n{}",
        bad.join("\n")
    );
}

/// The round-robin arbiter's two forms (word-wide for simulation, `SELECT` for FPGA timing)
/// pick what round robin means, as synthesis reads them: yosys proves (SAT, every request vector
/// and every last pick below N) that each equals a plain statement of the rule, the first
/// requester after `last_i` wrapping around. Verilator cannot see a form that synthesis reads
/// differently (yosys once folded the word-wide form's `$countones` to 0), so this is the
/// arbiter's check on the synthesis side. The sizes cover 1, powers of two and their
/// neighbours, and the crossbars' 9 masters.
#[test]
fn rr_arbiter_forms_pick_round_robin_in_synthesis() {
    require("yosys");
    let s = Scratch::new("rr-arbiter-equiv");
    let spec = s.path.join("rr_spec.sv");
    std::fs::write(
        &spec,
        r#"module rr_spec_check #(
  parameter int unsigned N = 2,
  parameter bit SELECT = 1'b0,
  localparam int unsigned W = (N > 1) ? $clog2(N) : 1
) (
  input  logic [N-1:0] req,
  input  logic [W-1:0] last,
  output logic         ok
);
  logic         valid, spec_valid, found;
  logic [W-1:0] idx, spec_idx;
  xdie_rr_arbiter #(.N(N), .SELECT(SELECT)) dut (
    .req_i(req), .last_i(last), .valid_o(valid), .idx_o(idx)
  );
  always_comb begin
    spec_valid = |req;
    spec_idx   = '0;
    found      = 1'b0;
    for (int off = 1; off <= N; off++) begin
      if (!found && req[(32'(last) + off) % N]) begin
        spec_idx = W'((32'(last) + off) % N);
        found    = 1'b1;
      end
    end
    ok = (32'(last) >= N) || (valid == spec_valid && (!spec_valid || idx == spec_idx));
  end
endmodule
"#,
    )
    .expect("write the arbiter check");
    let arb = repo().join("rtl/core/xdie_rr_arbiter.sv");
    let mut bad = Vec::new();
    for select in [0, 1] {
        for n in [1, 2, 3, 4, 5, 7, 8, 9, 16, 17] {
            let script = format!(
                "read_verilog -sv {} {}; chparam -set N {n} -set SELECT {select} rr_spec_check; \
                 hierarchy -check -top rr_spec_check; proc; flatten; opt; sat -prove ok 1 -verify",
                arb.display(),
                spec.display()
            );
            let o = Command::new("yosys")
                .args(["-q", "-p", &script])
                .output()
                .expect("run yosys");
            if !o.status.success() {
                bad.push(format!(
                    "== N = {n}, SELECT = {select}\n{}",
                    output_text(&o)
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "the arbiter's pick differs from round robin in synthesis:\n{}",
        bad.join("\n")
    );
}

/// Cells, flip-flops and latches of every module after a full generic `synth -flatten`, one line
/// per module; fails if yosys fails or any module has a latch. Minutes on the large blocks, so
/// not part of `cargo test`: scripts/synth.sh runs it.
#[test]
#[ignore = "full synthesis takes minutes; run scripts/synth.sh"]
fn synth_report() {
    require("yosys");
    let root = repo();
    let files: Vec<String> = listed(&root)
        .iter()
        .map(|f| f.display().to_string())
        .collect();
    let s = Scratch::new("synth-report");
    let stat = s.path.join("stat.txt");
    println!(
        "{:<28} {:>8} {:>8} {:>8}",
        "module", "cells", "flops", "latches"
    );
    let mut bad = Vec::new();
    for m in sv_files(&root).into_iter().flat_map(|f| f.modules) {
        let script = format!(
            "read_verilog -sv {}; synth -flatten -top {m}; tee -q -o {} stat",
            files.join(" "),
            stat.display()
        );
        let o = Command::new("yosys")
            .current_dir(&root)
            .args(["-q", "-p", &script])
            .output()
            .expect("run yosys");
        if !o.status.success() {
            bad.push(format!("== {m}: yosys failed\n{}", output_text(&o)));
            continue;
        }
        let text = std::fs::read_to_string(&stat).expect("read yosys stat");
        // stat lists one line per cell type under "Number of cells"; flip-flops are the
        // $_*DFF* types, latches the $_DLATCH* ones.
        let (mut cells, mut flops, mut latches) = (0u64, 0u64, 0u64);
        for l in text.lines() {
            let w: Vec<&str> = l.split_whitespace().collect();
            let n = |i: usize| w.get(i).and_then(|x| x.parse::<u64>().ok()).unwrap_or(0);
            if l.contains("Number of cells:") {
                cells = n(3);
            } else if let Some(ty) = w.first() {
                let ff = ["$_DFF", "$_SDFF", "$_ALDFF"];
                if ff.iter().any(|p| ty.starts_with(p)) {
                    flops += n(1);
                } else if ty.starts_with("$_DLATCH") || ty.starts_with("$dlatch") {
                    latches += n(1);
                }
            }
        }
        println!("{m:<28} {cells:>8} {flops:>8} {latches:>8}");
        if latches > 0 {
            bad.push(format!("== {m}: {latches} latches"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
