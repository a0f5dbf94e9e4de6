//! The register benchmark behind `xdie bench regs`: the same EVT_SEM workload driven by the Rust
//! harness and by a plain C++ loop compiled into the shim.

use crate::axil::{AxilMaster, Resp, Timing};
use crate::duts::DutKind;
use crate::ffi::bridge;
use crate::regmodel::{block_of, csrs};
use crate::rng::Rng;
use crate::sim::Sim;
use std::fmt;
use std::time::Instant;
use xdie_csr::SemOp;

#[derive(Debug, Clone, Copy)]
pub struct RegsReport {
    pub writes: u64,
    pub rust_txn_per_s: f64,
    pub rust_cycles_per_s: f64,
    pub cpp_txn_per_s: f64,
    pub cpp_cycles_per_s: f64,
    /// Rust cycles/s over C++ cycles/s.
    pub ratio: f64,
}

impl RegsReport {
    pub fn json(&self) -> String {
        format!(
            "{{\"rust_txn_per_s\": {:.0}, \"rust_cycles_per_s\": {:.0}, \"cpp_cycles_per_s\": {:.0}, \"ratio\": {:.3}, \"cpp_txn_per_s\": {:.0}, \"writes\": {}}}",
            self.rust_txn_per_s,
            self.rust_cycles_per_s,
            self.cpp_cycles_per_s,
            self.ratio,
            self.cpp_txn_per_s,
            self.writes
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
/// every semaphore through the READ window.
pub fn regs(writes: u64, seed: u64) -> Result<RegsReport, BenchError> {
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

    let (rust_cycles, rust_secs) = rust_loop(kind, &params)?;
    let cpp = bridge::cpp_axil_bench(kind.id(), &params)
        .map_err(|e| BenchError::Sim(e.what().to_string()))?;
    if cpp.mismatches != 0 {
        return Err(BenchError::Mismatch {
            harness: "C++",
            count: cpp.mismatches,
        });
    }
    let txns = (writes + params.sems as u64) as f64;
    let rust_cycles_per_s = rust_cycles as f64 / rust_secs;
    let cpp_cycles_per_s = cpp.cycles as f64 / cpp.seconds;
    Ok(RegsReport {
        writes,
        rust_txn_per_s: txns / rust_secs,
        rust_cycles_per_s,
        cpp_txn_per_s: cpp.txns as f64 / cpp.seconds,
        cpp_cycles_per_s,
        ratio: rust_cycles_per_s / cpp_cycles_per_s,
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
