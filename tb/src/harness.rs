//! Test wrapper: seeds, tracing and reproduction.
//!
//! [`run`] gives a test its seed (`XDIE_SEED` overrides the test's own) and creates every model
//! through [`Ctx`]. Tracing is off unless `XDIE_TRACE=1`; when the test fails untraced it is run
//! once more with the same seed and tracing on (the stimulus is deterministic), so the FST of
//! the failure is written without paying for tracing in passing runs. The seed, the trace paths
//! and the command that reproduces the failure are printed before the panic propagates.
//!
//! The package tops are verilated with tracing only when the build itself runs with
//! `XDIE_TRACE=1` (tb/build.rs), so the printed command, which sets it, builds a traced model.
//! A test whose models are all untraced is not rerun: the rerun could write no waveform.

use crate::duts::DutKind;
use crate::rng::Rng;
use crate::sim::{Sim, SimError};
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::path::PathBuf;

pub struct Ctx {
    pub seed: u64,
    pub rng: Rng,
    test: String,
    trace: bool,
    traces: Vec<PathBuf>,
    /// Models created that this build can trace, and the kinds created that it cannot.
    traceable: usize,
    untraced: Vec<&'static str>,
}

impl Ctx {
    fn new(test: &str, seed: u64, trace: bool) -> Ctx {
        Ctx {
            seed,
            rng: Rng::new(seed),
            test: test.to_string(),
            trace,
            traces: Vec::new(),
            traceable: 0,
            untraced: Vec::new(),
        }
    }

    /// A model for this test, traced when the run asks for it.
    pub fn sim(&mut self, kind: DutKind) -> Result<Sim, SimError> {
        if kind.traced() {
            self.traceable += 1;
        } else if !self.untraced.contains(&kind.name()) {
            self.untraced.push(kind.name());
        }
        if !self.trace || !kind.traced() {
            return Sim::new(kind);
        }
        let file = format!(
            "{}-{}-{}.fst",
            sanitize(&self.test),
            kind.name(),
            self.traces.len()
        );
        let path = trace_dir().join(file);
        self.traces.push(path.clone());
        Sim::traced(kind, &path)
    }

    /// A derived seed for a sub-component (e.g. the bus master), stable for a given test seed.
    pub fn sub_seed(&mut self) -> u64 {
        self.rng.next_u64()
    }

    pub fn test_name(&self) -> &str {
        &self.test
    }
}

fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// `XDIE_TRACE_DIR`, else `xdie-traces` under the system temporary directory.
pub fn trace_dir() -> PathBuf {
    std::env::var_os("XDIE_TRACE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("xdie-traces"))
}

/// Seed from `XDIE_SEED` (decimal or 0x-hex), if set.
pub fn env_seed() -> Option<u64> {
    let s = std::env::var("XDIE_SEED").ok()?;
    let s = s.trim();
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

pub fn env_trace() -> bool {
    std::env::var("XDIE_TRACE").is_ok_and(|v| v == "1")
}

/// The libtest name of the running test (its thread name), e.g. `evt_sem_windows::case_2`.
fn current_test() -> String {
    match std::thread::current().name() {
        Some(n) if n != "main" => n.to_string(),
        _ => "<test name>".to_string(),
    }
}

/// Runs `body` as a seeded test; see the module documentation.
pub fn run<F: Fn(&mut Ctx)>(default_seed: u64, body: F) {
    let test = current_test();
    let seed = env_seed().unwrap_or(default_seed);
    let trace = env_trace();
    let mut ctx = Ctx::new(&test, seed, trace);
    let first = catch_unwind(AssertUnwindSafe(|| body(&mut ctx)));
    let Err(panic) = first else { return };
    let mut traces = ctx.traces;
    // Rerun traced unless every model of the test is built without tracing.
    if !trace && (ctx.traceable > 0 || ctx.untraced.is_empty()) {
        let mut again = Ctx::new(&test, seed, true);
        let _ = catch_unwind(AssertUnwindSafe(|| body(&mut again)));
        traces = again.traces;
    }
    eprintln!("xdie-tb: test {test} failed with seed {seed:#x}");
    for t in &traces {
        eprintln!("xdie-tb: trace written to {}", t.display());
    }
    // The untraced models are the large ones (the package top, built by the `package` feature,
    // and the die node).
    let mut build = String::new();
    for m in &ctx.untraced {
        eprintln!("xdie-tb: {m} is built without tracing: the command below builds it traced");
        if build.is_empty() {
            build.push_str(" --features package");
        }
    }
    if !build.is_empty() {
        build.insert_str(0, " --release");
    }
    eprintln!(
        "xdie-tb: reproduce with: XDIE_SEED={seed:#x} XDIE_TRACE=1 cargo test{build} -p xdie-tb -- --exact {test}"
    );
    resume_unwind(panic);
}
