//! The CLI never hangs or panics on its surroundings (issue 35). An input path that names a FIFO,
//! a device or a directory is refused at once with exit status 2 and the path named (opening a
//! FIFO for reading would wait for a writer forever; a device is not read at all). Standard output
//! closed by its reader ends the run quietly with status 141; standard output that cannot be
//! written (a full disk) ends it with an error on stderr and status 2. Never a panic.
#![cfg(unix)]

mod common;

use common::*;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::Duration;

/// How long a run may take before it is taken for hung: a guard against waiting forever, not a
/// speed check (each of these runs takes well under a second on an idle machine).
const HANG_GUARD: Duration = Duration::from_secs(30);

/// The status `xdie` ends with when its reader closed standard output (128 + SIGPIPE).
const BROKEN_PIPE_STATUS: i32 = 141;

/// `xdie ARGS` under the hang guard (common::run_guarded).
fn run_guarded(args: &[&str]) -> (ExitStatus, String, String) {
    common::run_guarded(args, HANG_GUARD)
}

/// Wait for `child` under the hang guard (common::wait_guarded).
fn wait_guarded(child: &mut Child, what: &str) -> ExitStatus {
    common::wait_guarded(child, what, HANG_GUARD)
}

fn mkfifo(path: &Path) {
    let st = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("run mkfifo");
    assert!(st.success(), "mkfifo {}", path.display());
}

/// `xdie ARGS` is refused with status 2, naming `path` and saying `says`, without a panic.
fn refused(args: &[&str], path: &Path, says: &str) {
    let (status, _, err) = run_guarded(args);
    let what = format!("{args:?}");
    assert!(!err.contains("panicked"), "{what} panicked: {err}");
    assert_eq!(status.code(), Some(2), "{what}: exit status; stderr: {err}");
    assert!(
        err.contains(&path.display().to_string()),
        "{what}: stderr should name {}: {err}",
        path.display()
    );
    assert!(
        err.contains(says),
        "{what}: stderr should say `{says}`: {err}"
    );
}

/// `p` as an argument (the scratch directories are below the UTF-8 temporary directory).
fn arg(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

#[test]
fn fifo_inputs_are_refused_at_once() {
    let (s, csrs) = csrs_copy("fifo");
    let fifo = s.join("input.yaml");
    mkfifo(&fifo);
    let f = arg(&fifo);
    let fifo_kind = "is a FIFO, not a regular file";
    refused(&["sim", f], &fifo, fifo_kind);
    refused(&["sim", f, "--model-only"], &fifo, fifo_kind);
    refused(&["route", f], &fifo, fifo_kind);
    refused(
        &[
            "fold",
            "--topology",
            f,
            "--from",
            "a.0",
            "--to",
            "b.0",
            "--local",
            "0",
        ],
        &fifo,
        fifo_kind,
    );
    // --csrs names a FIFO: not a directory.
    refused(
        &["route", "topologies/ring4.yaml", "--csrs", f],
        &fifo,
        "not a directory",
    );
    // A file of the CSR directory is a FIFO: every command that loads the CSRs refuses it.
    let block = csrs.join("blocks").join("evt_sem.json");
    std::fs::remove_file(&block).expect("remove block file");
    mkfifo(&block);
    let c = arg(&csrs);
    refused(
        &[
            "sim",
            "scenarios/worked-example.yaml",
            "--model-only",
            "--csrs",
            c,
        ],
        &block,
        fifo_kind,
    );
    refused(
        &["route", "topologies/ring4.yaml", "--csrs", c],
        &block,
        fifo_kind,
    );
    refused(&["fold", "--decode", "0", "--csrs", c], &block, fifo_kind);
    let out = s.join("out");
    refused(&["gen", "--csrs", c, "--out", arg(&out)], &block, fifo_kind);
}

#[test]
fn fifo_topology_of_a_scenario_is_refused_by_sim() {
    // A scenario's `topology: NAME` is topologies/NAME.yaml beside the scenario folder.
    let (s, _) = csrs_copy("fifo-topology");
    let topologies = s.join("topologies");
    let scenarios = s.join("scenarios");
    std::fs::create_dir_all(&topologies).expect("create topologies/");
    std::fs::create_dir_all(&scenarios).expect("create scenarios/");
    let text = std::fs::read_to_string(repo().join("scenarios/cross-package.yaml"))
        .expect("cross-package.yaml")
        .replace("topology: ring4", "topology: ring");
    let scenario = scenarios.join("cross.yaml");
    std::fs::write(&scenario, text).expect("write scenario");
    let fifo = topologies.join("ring.yaml");
    mkfifo(&fifo);
    // The loader names the file as it reaches it, from the scenario's folder.
    refused(
        &["sim", arg(&scenario), "--model-only"],
        &scenarios.join("../topologies/ring.yaml"),
        "is a FIFO, not a regular file",
    );
}

#[test]
fn directory_inputs_are_refused() {
    let (s, csrs) = csrs_copy("dir-input");
    let dir = s.join("scenario.yaml");
    std::fs::create_dir_all(&dir).expect("create directory");
    let d = arg(&dir);
    refused(&["sim", d, "--model-only"], &dir, "is a directory");
    refused(&["route", d], &dir, "is a directory");
    // A CSR file that is a directory.
    let file = csrs.join("descriptors.yaml");
    std::fs::remove_file(&file).expect("remove descriptors.yaml");
    std::fs::create_dir_all(&file).expect("create directory");
    refused(
        &["fold", "--decode", "0", "--csrs", arg(&csrs)],
        &file,
        "is a directory",
    );
    // --csrs naming a regular file.
    let plain = s.join("plain.yaml");
    std::fs::write(&plain, "a: 1\n").expect("write file");
    refused(
        &["route", "topologies/ring4.yaml", "--csrs", arg(&plain)],
        &plain,
        "not a directory",
    );
}

#[test]
fn device_inputs_are_refused_unread() {
    for dev in ["/dev/zero", "/dev/null"] {
        let path = Path::new(dev);
        if !path.exists() {
            skipped(
                "device_inputs_are_refused_unread",
                &format!("{dev} does not exist"),
                "a system without it; the other device is still checked",
            );
            continue;
        }
        let kind = "is a character device, not a regular file";
        refused(&["sim", dev, "--model-only"], path, kind);
        refused(&["route", dev], path, kind);
    }
}

#[test]
fn a_closed_pipe_ends_the_run_quietly() {
    // The report is several hundred KiB, far more than a pipe holds, so the writes after the
    // reader is gone fail.
    for json in [false, true] {
        let mut cmd = xdie();
        cmd.current_dir(repo())
            .args(["route", "topologies/mesh64.yaml"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if json {
            cmd.arg("--json");
        }
        let mut child = cmd.spawn().expect("spawn xdie");
        let mut first = String::new();
        {
            let mut out = BufReader::new(child.stdout.take().expect("stdout"));
            out.read_line(&mut first).expect("read the first line");
        } // the reader is gone
        let mut err = String::new();
        let mut stderr = child.stderr.take().expect("stderr");
        let status = wait_guarded(&mut child, "xdie route topologies/mesh64.yaml | head -n 1");
        stderr.read_to_string(&mut err).expect("read stderr");
        assert!(!first.is_empty(), "a first line was written");
        assert!(!err.contains("panicked"), "panicked (json {json}): {err}");
        assert_eq!(
            status.code(),
            Some(BROKEN_PIPE_STATUS),
            "exit status (json {json}); stderr: {err}"
        );
        assert!(
            err.is_empty(),
            "nothing said on stderr (json {json}): {err}"
        );
    }
}

#[test]
fn a_full_disk_on_standard_output_is_an_error() {
    let full = Path::new("/dev/full");
    if !full.exists() {
        skipped(
            "a_full_disk_on_standard_output_is_an_error",
            "/dev/full does not exist",
            "it runs on Linux, which has /dev/full",
        );
        return;
    }
    let s = Scratch::new("dev-full");
    let out = s.join("out");
    let out = out.to_str().expect("UTF-8 scratch path");
    let runs: [&[&str]; 7] = [
        &["route", "topologies/ring4.yaml"],
        &["route", "topologies/ring4.yaml", "--json"],
        &["fold", "--decode", "0x0"],
        &["fold", "--local", "0x100", "--die", "1", "--neighbor"],
        &["sim", "scenarios/worked-example.yaml", "--model-only"],
        &[
            "sim",
            "scenarios/worked-example.yaml",
            "--model-only",
            "--json",
        ],
        &["gen", "--out", out],
    ];
    for args in runs {
        let dev = std::fs::OpenOptions::new()
            .write(true)
            .open(full)
            .expect("open /dev/full");
        let mut child = xdie()
            .current_dir(repo())
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::from(dev))
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn xdie");
        let mut stderr = child.stderr.take().expect("stderr");
        let status = wait_guarded(&mut child, &format!("xdie {} >/dev/full", args.join(" ")));
        let mut err = String::new();
        stderr.read_to_string(&mut err).expect("read stderr");
        assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
        assert_eq!(
            status.code(),
            Some(2),
            "{args:?}: exit status; stderr: {err}"
        );
        assert!(
            err.contains("error: cannot write standard output: ")
                && err.contains("No space left on device"),
            "{args:?}: stderr should say why: {err}"
        );
    }
}

/// A FIFO where `xdie gen` writes an output, or where its manifest goes, is never opened: `gen`
/// is refused with status 2 naming it, `gen --check` reports it and fails, at once.
#[test]
fn fifo_outputs_are_never_opened() {
    let (s, csrs) = csrs_copy("fifo-output");
    let out = s.join("out");
    gen_into(&csrs, &out);
    for rel in ["rtl/gen/xdie_evt_sem.sv", "rtl/gen/MANIFEST"] {
        let fifo = out.join(rel);
        let kept = std::fs::read(&fifo).expect("generated file");
        std::fs::remove_file(&fifo).expect("remove generated file");
        mkfifo(&fifo);
        let gen = ["gen", "--csrs", arg(&csrs), "--out", arg(&out)];
        let (status, _, err) = run_guarded(&gen);
        assert_eq!(status.code(), Some(2), "{rel}: gen's status; stderr: {err}");
        assert!(
            err.contains(rel) && !err.contains("panicked"),
            "{rel}: {err}"
        );
        let check = ["gen", "--check", "--csrs", arg(&csrs), "--out", arg(&out)];
        let (status, stdout, err) = run_guarded(&check);
        assert_ne!(
            status.code(),
            Some(0),
            "{rel}: --check passed: {stdout}{err}"
        );
        assert!(
            format!("{stdout}{err}").contains(rel) && !err.contains("panicked"),
            "{rel}: --check should name it: {stdout}{err}"
        );
        std::fs::remove_file(&fifo).expect("remove FIFO");
        std::fs::write(&fifo, kept).expect("restore generated file");
    }
}
