//! The register benchmark behind `xdie bench regs`: the same EVT_SEM workload driven by the Rust
//! harness and by a plain C++ loop compiled into the shim.

use crate::axil::{AxilMaster, Resp, Timing};
use crate::duts::DutKind;
use crate::ffi::bridge;
use crate::regmodel::{block_of, csrs};
use crate::rng::Rng;
use crate::sim::Sim;
use crate::stats::Summary;
use std::fmt;
use std::time::Instant;
use xdie_csr::SemOp;

/// Rates of `repeats` interleaved Rust/C++ pairs on the same workload.
#[derive(Debug, Clone, Copy)]
pub struct RegsReport {
    pub writes: u64,
    pub repeats: usize,
    pub rust_txn_per_s: Summary,
    pub rust_cycles_per_s: Summary,
    pub cpp_txn_per_s: Summary,
    pub cpp_cycles_per_s: Summary,
    /// Rust cycles/s over C++ cycles/s of each pair (both ran back to back, so machine load
    /// that drifts over the run affects both halves of a pair alike).
    pub pair_ratio: Summary,
}

impl RegsReport {
    pub fn json(&self) -> String {
        format!(
            "{{\"writes\": {}, \"repeats\": {}, {}, {}, {}, {}, {}, \"pair_ratio_median\": {:.3}}}",
            self.writes,
            self.repeats,
            self.rust_txn_per_s.json_fields("rust_txn_per_s", 0),
            self.rust_cycles_per_s.json_fields("rust_cycles_per_s", 0),
            self.cpp_txn_per_s.json_fields("cpp_txn_per_s", 0),
            self.cpp_cycles_per_s.json_fields("cpp_cycles_per_s", 0),
            self.pair_ratio.json_fields("pair_ratio", 3),
            self.pair_ratio.median
        )
    }
}

#[derive(Debug)]
pub enum BenchError {
    /// No EVT_SEM block is among the simulated DUTs.
    NoEvtSem,
    Sim(String),
    /// A read returned something other than the sum of the increments.
    Mismatch {
        harness: &'static str,
        count: u64,
    },
}

impl fmt::Display for BenchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BenchError::NoEvtSem => write!(f, "no EVT_SEM block among the simulated DUTs"),
            BenchError::Sim(m) => write!(f, "simulation: {m}"),
            BenchError::Mismatch { harness, count } => {
                write!(
                    f,
                    "{harness} harness: {count} reads differed from the expected value"
                )
            }
        }
    }
}

impl std::error::Error for BenchError {}

/// `writes` increments at random semaphores through the INC window, then one checked read of
/// every semaphore through the READ window; `repeats` pairs of runs (Rust harness, C++ loop),
/// alternating which of the two goes first.
pub fn regs(writes: u64, seed: u64, repeats: usize) -> Result<RegsReport, BenchError> {
    let _ = csrs();
    let (kind, layout) = DutKind::ALL
        .iter()
        .find_map(|&k| block_of(k).and_then(|b| b.evt_sem()).map(|l| (k, l)))
        .ok_or(BenchError::NoEvtSem)?;
    let inc = &layout.window(SemOp::Inc).bundle;
    let read = &layout.window(SemOp::Read).bundle;
    let params = bridge::BenchParams {
        writes,
        sems: read.count as u32,
        inc_base: inc.offset as u32,
        read_base: read.offset as u32,
        stride: read.stride as u32,
        seed,
    };
    let txns = (writes + params.sems as u64) as f64;
    let cpp_run = || -> Result<(f64, f64), BenchError> {
        let cpp = bridge::cpp_axil_bench(kind.id(), &params)
            .map_err(|e| BenchError::Sim(e.what().to_string()))?;
        if cpp.mismatches != 0 {
            return Err(BenchError::Mismatch {
                harness: "C++",
                count: cpp.mismatches,
            });
        }
        Ok((
            cpp.txns as f64 / cpp.seconds,
            cpp.cycles as f64 / cpp.seconds,
        ))
    };
    let rust_run = || -> Result<(f64, f64), BenchError> {
        let (cycles, secs) = rust_loop(kind, &params)?;
        Ok((txns / secs, cycles as f64 / secs))
    };
    let mut rust = Vec::new();
    let mut cpp = Vec::new();
    for i in 0..repeats.max(1) {
        if i % 2 == 0 {
            rust.push(rust_run()?);
            cpp.push(cpp_run()?);
        } else {
            cpp.push(cpp_run()?);
            rust.push(rust_run()?);
        }
    }
    let summary = |v: Vec<f64>| Summary::of(&v).expect("at least one run");
    let pair: Vec<f64> = rust.iter().zip(&cpp).map(|(r, c)| r.1 / c.1).collect();
    Ok(RegsReport {
        writes,
        repeats: rust.len(),
        rust_txn_per_s: summary(rust.iter().map(|r| r.0).collect()),
        rust_cycles_per_s: summary(rust.iter().map(|r| r.1).collect()),
        cpp_txn_per_s: summary(cpp.iter().map(|c| c.0).collect()),
        cpp_cycles_per_s: summary(cpp.iter().map(|c| c.1).collect()),
        pair_ratio: summary(pair),
    })
}

fn rust_loop(kind: DutKind, p: &bridge::BenchParams) -> Result<(u64, f64), BenchError> {
    let err = |e: &dyn fmt::Display| BenchError::Sim(e.to_string());
    let mut sim = Sim::new(kind).map_err(|e| err(&e))?;
    let mut bus = AxilMaster::new(&mut sim, p.seed, Timing::FAST).map_err(|e| err(&e))?;
    sim.reset(4);
    let mut expect = vec![0u32; p.sems as usize];
    let mut rng = Rng::new(p.seed);
    let mut mismatches = 0;
    let t0 = Instant::now();
    for _ in 0..p.writes {
        let r = rng.next_u64();
        let sem = (r % u64::from(p.sems)) as u32;
        let val = (r >> 32) as u32;
        expect[sem as usize] = expect[sem as usize].wrapping_add(val);
        let addr = u64::from(p.inc_base + sem * p.stride);
        if bus.write(&mut sim, addr, val).map_err(|e| err(&e))? != Resp::Okay {
            mismatches += 1;
        }
    }
    for (sem, want) in expect.iter().enumerate() {
        let addr = u64::from(p.read_base + sem as u32 * p.stride);
        let (got, resp) = bus.read(&mut sim, addr).map_err(|e| err(&e))?;
        if resp != Resp::Okay || got != *want {
            mismatches += 1;
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    if mismatches != 0 {
        return Err(BenchError::Mismatch {
            harness: "Rust",
            count: mismatches,
        });
    }
    Ok((bus.cycles, secs))
}
