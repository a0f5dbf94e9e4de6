//! Shared helpers of the integration tests: scratch directories, copies of csrs/ with one edit,
//! running the built `xdie` binary, and snapshots of generated trees.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The repository root (the `xdie` package's manifest directory).
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A scratch directory removed when dropped. Named by test and process so parallel tests and
/// parallel `cargo test` runs never share one.
pub struct Scratch {
    pub path: PathBuf,
}

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::SeqCst);
        let path =
            std::env::temp_dir().join(format!("xdie-test-{}-{n}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("create scratch directory");
        Scratch { path }
    }

    pub fn join(&self, p: impl AsRef<Path>) -> PathBuf {
        self.path.join(p)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create directory");
    for entry in std::fs::read_dir(from).expect("read directory") {
        let entry = entry.expect("directory entry");
        let dest = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_dir(&entry.path(), &dest);
        } else {
            std::fs::copy(entry.path(), &dest).expect("copy file");
        }
    }
}

/// A scratch directory holding a copy of the repository's csrs/ as `<scratch>/csrs`.
pub fn csrs_copy(name: &str) -> (Scratch, PathBuf) {
    let s = Scratch::new(name);
    let csrs = s.join("csrs");
    copy_dir(&repo().join("csrs"), &csrs);
    (s, csrs)
}

/// 1-based line of byte offset `at` in `text`.
pub fn line_at(text: &str, at: usize) -> usize {
    text[..at].matches('\n').count() + 1
}

/// Replace the first `from` that follows the first `anchor` in `file` by `to`, and return the
/// line where `to` now starts (found by searching for the written text after the anchor).
pub fn edit_after(file: &Path, anchor: &str, from: &str, to: &str) -> usize {
    let text = std::fs::read_to_string(file).expect("read file to edit");
    let a = text
        .find(anchor)
        .unwrap_or_else(|| panic!("`{anchor}` not in {}", file.display()));
    let at = a + text[a..]
        .find(from)
        .unwrap_or_else(|| panic!("`{from}` not after `{anchor}` in {}", file.display()));
    let edited = format!("{}{}{}", &text[..at], to, &text[at + from.len()..]);
    std::fs::write(file, &edited).expect("write edited file");
    let found = a + edited[a..].find(to).expect("written text is there");
    line_at(&edited, found)
}

/// Replace the only occurrence of `from` in `file` by `to`; return the line of `to`.
pub fn edit(file: &Path, from: &str, to: &str) -> usize {
    let text = std::fs::read_to_string(file).expect("read file to edit");
    assert_eq!(
        text.matches(from).count(),
        1,
        "`{from}` must occur exactly once in {}",
        file.display()
    );
    edit_after(file, from, from, to)
}

/// The built `xdie` binary.
pub fn xdie() -> Command {
    Command::new(env!("CARGO_BIN_EXE_xdie"))
}

/// Wait for `child`, killing it and failing the test if it runs past `guard` (a hang).
pub fn wait_guarded(child: &mut Child, what: &str, guard: Duration) -> ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("poll xdie") {
            return status;
        }
        if start.elapsed() > guard {
            let _ = child.kill();
            let _ = child.wait();
            panic!("`{what}` still ran after {guard:?}: it hangs");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Run `xdie ARGS` in the repository with no standard input, failing the test if it runs past
/// `guard`; (status, stdout, stderr).
pub fn run_guarded(args: &[&str], guard: Duration) -> (ExitStatus, String, String) {
    let what = format!("xdie {}", args.join(" "));
    let mut child = xdie()
        .current_dir(repo())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn xdie");
    // Drained on threads, so a chatty child never blocks on a full pipe while we poll.
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = Vec::new();
            let _ = r.read_to_end(&mut s);
            String::from_utf8_lossy(&s).into_owned()
        })
    };
    let out = drain(Box::new(child.stdout.take().expect("stdout")));
    let err = drain(Box::new(child.stderr.take().expect("stderr")));
    let status = wait_guarded(&mut child, &what, guard);
    (
        status,
        out.join().expect("stdout thread"),
        err.join().expect("stderr thread"),
    )
}

pub fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("run xdie")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `xdie gen --csrs <csrs> --out <out>`, asserting success.
pub fn gen_into(csrs: &Path, out: &Path) {
    let o = run(xdie()
        .args(["gen", "--csrs"])
        .arg(csrs)
        .arg("--out")
        .arg(out));
    assert!(
        o.status.success(),
        "xdie gen failed: {}{}",
        stdout(&o),
        stderr(&o)
    );
}

/// Every file below `root` (relative path → bytes), for byte-exact comparisons of whole trees.
pub fn snapshot(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .expect("read directory")
            .map(|e| e.expect("directory entry").path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p.strip_prefix(root).expect("below root").to_path_buf();
                out.insert(rel, std::fs::read(&p).expect("read file"));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

/// The generated trees `xdie gen` writes (everything but the inputs).
pub const OUTPUT_DIRS: [&str; 3] = ["rtl", "include", "docs"];

/// Says that part of a test did not run, and how to make it run. Written to the process's
/// standard error directly rather than with `eprintln!`, which the test harness captures and
/// shows only for failing tests: a skip must be seen in the output of a passing run too.
pub fn skipped(test: &str, what: &str, how: &str) {
    use std::io::Write;
    let line = format!("SKIPPED {test}: {what} ({how})\n");
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
}
