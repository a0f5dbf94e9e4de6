//! The generated FuseSoC core (xdie.core) resolves and its lint target passes: FuseSoC runs
//! Verilator in lint-only mode over the core's files with the lint configuration, from a copy
//! of the core and the RTL (so nothing else in the repository is scanned for cores).
//! FuseSoC comes from PyPI (`cargo xtask setup` installs it).

mod common;

use common::*;
use std::process::Command;

#[test]
fn fusesoc_resolves_the_core_and_its_lint_target_passes() {
    let s = Scratch::new("fusesoc");
    let lib = s.join("lib");
    std::fs::create_dir_all(&lib).expect("create the core library");
    std::fs::copy(repo().join("xdie.core"), lib.join("xdie.core")).expect("copy xdie.core");
    copy_dir(&repo().join("rtl"), &lib.join("rtl"));
    let core = std::fs::read_to_string(lib.join("xdie.core")).expect("read xdie.core");
    let name = core
        .lines()
        .find_map(|l| l.strip_prefix("name: "))
        .expect("the core has a name")
        .to_string();
    let o = Command::new("python3")
        .current_dir(s.path.as_path())
        .args(["-m", "fusesoc.main", "--cores-root"])
        .arg(&lib)
        .args(["run", "--target", "lint", &name])
        .output()
        .expect("run python3");
    let text = format!("{}{}", stdout(&o), stderr(&o));
    assert!(
        !text.contains("No module named"),
        "FuseSoC is not installed: run `cargo xtask setup` (or `pip install fusesoc`)\n{text}"
    );
    assert!(o.status.success(), "fusesoc lint of {name} failed:\n{text}");
    assert!(text.contains("Running"), "fusesoc ran no tool:\n{text}");
}
