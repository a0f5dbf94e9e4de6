//! Running Verilator and reading what it writes: the model's ports (`V<top>.h`) and source
//! files (`V<top>_classes.mk`).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Clone)]
pub struct PortDecl {
    pub name: String,
    pub input: bool,
    pub width: u32,
    /// Storage size in bytes for scalar ports (1, 2, 4, 8); 0 for `VlWide` ports.
    pub bytes: u32,
    pub words: u32,
}

pub fn verilator_root() -> PathBuf {
    let out = Command::new("verilator")
        .arg("--getenv")
        .arg("VERILATOR_ROOT")
        .output()
        .expect("verilator must be on PATH (Debian package `verilator`)");
    PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
}

pub fn verilator_version() -> String {
    Command::new("verilator")
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default()
}

/// Verilates `name`; Verilator's messages are the error when it fails.
pub fn verilate(
    repo: &Path,
    filelist: &Path,
    mdir: &Path,
    name: &str,
    traced: bool,
    args: &[String],
) -> Result<(), String> {
    fs::create_dir_all(mdir).expect("create -Mdir");
    let res = Command::new("verilator")
        .current_dir(repo)
        .args(["--cc", "--no-timing"])
        .args(traced.then_some("--trace-fst"))
        // The lint configuration goes with every run of the filelist (see rtl/lint.vlt).
        .arg(crate::filelist::LINT_CONFIG)
        .arg("-f")
        .arg(filelist)
        .args(args)
        .arg("-Mdir")
        .arg(mdir)
        .output()
        .expect("run verilator");
    let stderr = String::from_utf8_lossy(&res.stderr);
    for line in stderr.lines().filter(|l| l.starts_with("%Warning")) {
        println!("cargo:warning={name}: {line}");
    }
    if res.status.success() {
        Ok(())
    } else {
        Err(format!("verilator failed on {name}:\n{stderr}"))
    }
}

/// Ports from the `VL_IN8(&name,msb,lsb);` style declarations of `V<top>.h`.
pub fn parse_ports(header: &str) -> Vec<PortDecl> {
    let mut ports = Vec::new();
    for line in header.lines() {
        let l = line.trim();
        let (input, rest) = if let Some(r) = l.strip_prefix("VL_IN") {
            (true, r)
        } else if let Some(r) = l.strip_prefix("VL_OUT") {
            (false, r)
        } else {
            continue;
        };
        let Some(open) = rest.find('(') else { continue };
        let size = &rest[..open];
        let Some(close) = rest.rfind(')') else {
            continue;
        };
        let args: Vec<&str> = rest[open + 1..close].split(',').map(str::trim).collect();
        if args.len() < 3 {
            continue;
        }
        let name = args[0].trim_start_matches('&').to_string();
        let msb: u32 = args[1].parse().expect("port msb");
        let lsb: u32 = args[2].parse().expect("port lsb");
        let width = msb - lsb + 1;
        let bytes = match size {
            "8" => 1,
            "16" => 2,
            "" | "32" => 4,
            "64" => 8,
            "W" => 0,
            other => panic!("unknown Verilator port macro VL_IN/OUT{other} for {name}"),
        };
        ports.push(PortDecl {
            name,
            input,
            width,
            bytes,
            words: width.div_ceil(32),
        });
    }
    ports
}

/// Files listed under `VAR = \` continuation lines of a Verilator makefile fragment.
pub fn mk_list(mk: &str, var: &str) -> Vec<String> {
    let mut items = Vec::new();
    let mut inside = false;
    for line in mk.lines() {
        let t = line.trim();
        if !inside {
            if let Some(rest) = t.strip_prefix(var) {
                if rest.trim_start().starts_with('=') || rest.trim_start().starts_with("+=") {
                    inside = t.ends_with('\\');
                    let after = rest
                        .trim_start()
                        .trim_start_matches('+')
                        .trim_start_matches('=');
                    items.extend(
                        after
                            .trim_end_matches('\\')
                            .split_whitespace()
                            .map(String::from),
                    );
                }
            }
        } else {
            inside = t.ends_with('\\');
            items.extend(
                t.trim_end_matches('\\')
                    .split_whitespace()
                    .map(String::from),
            );
        }
    }
    items
}
