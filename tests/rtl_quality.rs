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

/// One listed file: what it declares and the identifiers it uses.
struct SvFile {
    path: PathBuf,
    modules: Vec<String>,
    /// Module and package names declared here.
    declares: Vec<String>,
    words: std::collections::BTreeSet<String>,
}

fn sv_files(root: &Path) -> Vec<SvFile> {
    filelist(root)
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(root.join(&path))
                .unwrap_or_else(|e| panic!("{} is listed but unreadable: {e}", path.display()));
            let ident = |s: &str| -> String {
                s.trim_start()
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect()
            };
            let (mut modules, mut declares) = (Vec::new(), Vec::new());
            for l in text.lines() {
                let l = l.trim_start();
                if let Some(rest) = l.strip_prefix("module ") {
                    modules.push(ident(rest));
                    declares.push(ident(rest));
                } else if let Some(rest) = l.strip_prefix("package ") {
                    declares.push(ident(rest));
                }
            }
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
            .args(["--lint-only", "-Wall", "--top-module", m])
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
    // so that one message is expected and everything else is a complaint.
    let o = Command::new("verilator")
        .current_dir(root)
        .args(["--lint-only", "-Wall", "-f", "rtl/xdie.f"])
        .output()
        .expect("run verilator");
    let text = output_text(&o);
    let other: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with('%'))
        .filter(|l| !l.starts_with("%Warning-MULTITOP") && !l.starts_with("%Error: Exiting due to"))
        .collect();
    if !other.is_empty() || (modules.len() == 1 && !o.status.success()) {
        bad.push(format!("== -f rtl/xdie.f\n{text}"));
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
    // The filelist also names the hand-written RTL, which generation does not produce.
    for f in xdie_gen::emit::filelist::handwritten() {
        let dst = s.path.join(f);
        std::fs::create_dir_all(dst.parent().expect("parent")).expect("mkdir");
        std::fs::copy(repo().join(f), &dst).unwrap_or_else(|e| panic!("copy {f}: {e}"));
    }
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
    let modules: Vec<String> = sv_files(&root)
        .into_iter()
        .flat_map(|f| f.modules)
        .collect();
    for m in modules {
        let script = format!(
            // Elaborate and run `proc` only: that is where yosys infers latches, and it takes
            // seconds where the full `synth` (technology mapping, which scripts/synth.sh runs
            // for the cell counts) takes minutes on the large blocks.
            "read_verilog -sv {}; hierarchy -check -top {m}; proc; opt_clean; \
             select -assert-none t:$dlatch t:$adlatch t:$dlatchsr t:$_DLATCH*",
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
