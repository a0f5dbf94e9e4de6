//! The copy benchmark behind `xdie bench copy`: cross-die SBUF-to-SBUF copies on the package top
//! (die 0 engines, die 1 destination through the neighbor fold), timed in clock cycles.
//!
//! A copy of `bytes` is cut into descriptors of the largest length a descriptor encodes, dealt
//! round-robin to the engines and, within an engine, to its queues (pairs of different queues
//! overlap; one queue holds one pair in flight). Every S2M ring is armed first; the clock starts
//! at the first M2S doorbell (the launch) and stops when every engine of die 0 is idle again with
//! every head at its tail, i.e. when the last write has been acknowledged by die 1. Sources are
//! loaded through the SBUF backdoor and every destination byte is checked on die 1 afterwards.
//! The wall-clock rate of the simulated transfer (cycles per second) is reported too.

use crate::axil::Timing;
use crate::package::{Copy, Package, PkgError, Side};
use crate::regmodel::views;
use crate::sim::Sim;
use crate::stats::Summary;
use std::fmt::Write as _;

#[derive(Debug, Clone, Copy)]
pub struct CopyRun {
    pub engines: u64,
    pub bytes: u64,
    pub cycles: u64,
    pub bytes_per_cycle: f64,
    pub link_peak_bytes_per_cycle: f64,
    pub link_utilization: f64,
    /// Simulated cycles per wall-clock second during the transfer.
    pub sim_cycles_per_second: f64,
    /// Simulated cycles per second of CPU time the simulating thread used during the transfer:
    /// on a loaded machine the wall-clock rate also counts time spent waiting for a core.
    pub sim_cycles_per_cpu_second: f64,
}

/// One engine count over all repeats: the transfer figures (cycles are the same in every
/// repeat: the simulation is deterministic) and the wall-clock simulation rate of each repeat.
#[derive(Debug, Clone, Copy)]
pub struct CopyCase {
    pub run: CopyRun,
    pub sim_cycles_per_second: Summary,
    pub sim_cycles_per_cpu_second: Summary,
}

#[derive(Debug, Clone)]
pub struct CopyReport {
    pub repeats: usize,
    pub copies: Vec<CopyCase>,
    /// Simulation rate over every run of every engine count.
    pub sim_cycles_per_second: Summary,
    pub sim_cycles_per_cpu_second: Summary,
    /// Cycles from the launching doorbell of a 64-byte cross-die copy to its last write's
    /// acknowledgement (the bytes landed on die 1 one link crossing earlier).
    pub latency_64b_cycles: u64,
}

impl CopyReport {
    pub fn json(&self) -> String {
        let mut s = format!("{{\"repeats\": {}, \"copies\": [", self.repeats);
        for (i, case) in self.copies.iter().enumerate() {
            let c = &case.run;
            if i > 0 {
                s.push_str(", ");
            }
            write!(
                s,
                "{{\"engines\": {}, \"bytes\": {}, \"cycles\": {}, \"bytes_per_cycle\": {:.3}, \"link_peak_bytes_per_cycle\": {:.1}, \"link_utilization\": {:.4}, {}, {}}}",
                c.engines,
                c.bytes,
                c.cycles,
                c.bytes_per_cycle,
                c.link_peak_bytes_per_cycle,
                c.link_utilization,
                case.sim_cycles_per_second.json_fields("sim_cycles_per_second", 0),
                case.sim_cycles_per_cpu_second
                    .json_fields("sim_cycles_per_cpu_second", 0)
            )
            .expect("write to String");
        }
        write!(
            s,
            "], {}, {}, \"latency_64b_cycles\": {}}}",
            self.sim_cycles_per_second
                .json_fields("sim_cycles_per_second", 0),
            self.sim_cycles_per_cpu_second
                .json_fields("sim_cycles_per_cpu_second", 0),
            self.latency_64b_cycles
        )
        .expect("write");
        s
    }
}

const CHIP: u64 = 0;
/// Ring slots per queue.
const SLOTS: u64 = 64;

fn open() -> Result<Package, PkgError> {
    let kind = Package::kind().ok_or(PkgError::NoPackage)?;
    let sim = Sim::new(kind)?;
    let mut pkg = Package::new(sim, 1, Timing::FAST, CHIP)?;
    pkg.program_iatu(0, 0)?;
    Ok(pkg)
}

fn setup(pkg: &mut Package, e: u64, q: u64) -> Result<(), PkgError> {
    pkg.setup_packed_queue(0, e, q, SLOTS, 0)
}

/// Where descriptor `i` of a copy reads on die 0 and writes on die 1 (die-local, core 0's SBUF):
/// `chunk`-byte buffers packed into the backed bytes of successive SBUF partitions.
fn buffers(i: u64, chunk: u64) -> (u64, u64) {
    let per_part = (views().params.sbuf_backing_bytes / chunk).max(1);
    let parts = views().params.sbuf_partitions;
    let (p, b) = (i / per_part, (i % per_part) * chunk);
    (
        views().sbuf_addr(0, p, b),
        views().sbuf_addr(0, parts / 2 + p, b),
    )
}

/// Source bytes of descriptor `i`: never zero, different for every descriptor and offset.
fn source_bytes(i: u64, len: u64) -> Vec<u8> {
    (0..len)
        .map(|b| (0x9e37_79b9u64.wrapping_mul(i * 0x1_0000 + b + 1) >> 11) as u8 | 1)
        .collect()
}

/// Compares a destination with what was copied there; the first differing word is the error.
fn check_dst(pkg: &mut Package, dst: u64, want: &[u8]) -> Result<(), PkgError> {
    let got = pkg.peek(1, dst, want.len() as u64)?;
    let Some(i) = got.iter().zip(want).position(|(a, b)| a != b) else {
        return Ok(());
    };
    let w = i & !3;
    let word = |b: &[u8]| {
        (0..4).fold(0u32, |v, k| {
            v | u32::from(b.get(w + k).copied().unwrap_or(0)) << (8 * k)
        })
    };
    Err(PkgError::Mismatch {
        die: 1,
        local: dst + w as u64,
        expected: word(want),
        got: word(&got),
    })
}

/// One timed copy of `bytes` over `engines` engines.
pub fn copy_run(engines: u64, bytes: u64) -> Result<CopyRun, PkgError> {
    let mut pkg = open()?;
    pkg.budget = 50 * bytes + 100_000;
    let chunk = views().ring.max_len_code.min(bytes);
    let n = bytes.div_ceil(chunk);
    let mut used = Vec::new();
    let mut expected = Vec::new();
    for i in 0..n {
        let len = chunk.min(bytes - i * chunk);
        let (src, dst) = buffers(i, chunk);
        let (e, q) = (i % engines, (i / engines) % views().queues());
        if !used.contains(&(e, q)) {
            setup(&mut pkg, e, q)?;
            used.push((e, q));
        }
        let data = source_bytes(i, len);
        pkg.poke(0, src, &data)?;
        expected.push((dst, data));
        let c = Copy {
            src: views().soc.soc_local(0, src),
            dst: views().soc.fold_neighbor(dst, 1),
            len,
            write_barrier: false,
        };
        pkg.post_copy(0, e, q, c)?;
    }
    for &(e, q) in &used {
        pkg.doorbell(0, Side::S2m, e, q)?;
    }
    let start = pkg.cycle();
    let wall = std::time::Instant::now();
    let cpu_ns = crate::ffi::bridge::thread_cpu_ns();
    for &(e, q) in &used {
        pkg.doorbell(0, Side::M2s, e, q)?;
    }
    let end = loop {
        pkg.tick_until("die 0 engines idle", |p| p.idle(0))?;
        let end = pkg.cycle();
        let mut drained = true;
        for &(e, q) in &used {
            for side in [Side::M2s, Side::S2m] {
                drained &= pkg.head(0, side, e, q)? == pkg.ring(0, side, e, q).tail;
            }
        }
        if drained {
            break end;
        }
        if pkg.cycle() - start > pkg.budget {
            return Err(PkgError::Timeout {
                what: "every queue drained".to_string(),
                cycles: pkg.budget,
            });
        }
        pkg.sim.tick();
    };
    let seconds = wall.elapsed().as_secs_f64();
    let cpu_seconds = (crate::ffi::bridge::thread_cpu_ns() - cpu_ns) as f64 * 1e-9;
    for (dst, data) in &expected {
        check_dst(&mut pkg, *dst, data)?;
    }
    let cycles = end - start;
    let peak = views().params.data_bytes as f64;
    let bpc = bytes as f64 / cycles as f64;
    Ok(CopyRun {
        engines,
        bytes,
        cycles,
        bytes_per_cycle: bpc,
        link_peak_bytes_per_cycle: peak,
        link_utilization: bpc / peak,
        sim_cycles_per_second: (pkg.cycle() - start) as f64 / seconds,
        sim_cycles_per_cpu_second: (pkg.cycle() - start) as f64 / cpu_seconds,
    })
}

/// Cycles from the launching M2S doorbell of one `bytes`-byte cross-die copy until the engine
/// is idle again (its last write acknowledged).
pub fn latency(bytes: u64) -> Result<u64, PkgError> {
    let mut pkg = open()?;
    setup(&mut pkg, 0, 0)?;
    let (src, dst) = buffers(0, bytes);
    let c = Copy {
        src: views().soc.soc_local(0, src),
        dst: views().soc.fold_neighbor(dst, 1),
        len: bytes,
        write_barrier: false,
    };
    pkg.post_copy(0, 0, 0, c)?;
    pkg.doorbell(0, Side::S2m, 0, 0)?;
    let start = pkg.cycle();
    let idle = pkg.idle_bits(0);
    let mut busy = false;
    pkg.doorbell_observed(0, Side::M2s, 0, 0, |sim| busy |= idle.read(sim) == 0)?;
    if !busy {
        pkg.tick_until("engine start", |p| !p.idle(0))?;
    }
    pkg.tick_until("engine idle", |p| p.idle(0))?;
    Ok(pkg.cycle() - start)
}

/// The full benchmark: `bytes` over each engine count, `repeats` rounds interleaved (every
/// engine count once per round, so load that drifts over the run touches all alike), and the
/// 64-byte latency.
pub fn copy(engine_counts: &[u64], bytes: u64, repeats: usize) -> Result<CopyReport, PkgError> {
    let repeats = repeats.max(1);
    let mut runs: Vec<Vec<CopyRun>> = vec![Vec::new(); engine_counts.len()];
    for _ in 0..repeats {
        for (k, &e) in engine_counts.iter().enumerate() {
            runs[k].push(copy_run(e, bytes)?);
        }
    }
    let rate = |rs: &[CopyRun], f: fn(&CopyRun) -> f64| {
        Summary::of(&rs.iter().map(f).collect::<Vec<_>>()).expect("at least one run")
    };
    let wall = |r: &CopyRun| r.sim_cycles_per_second;
    let cpu = |r: &CopyRun| r.sim_cycles_per_cpu_second;
    let all: Vec<CopyRun> = runs.iter().flatten().copied().collect();
    Ok(CopyReport {
        repeats,
        copies: runs
            .iter()
            .map(|rs| CopyCase {
                run: rs[0],
                sim_cycles_per_second: rate(rs, wall),
                sim_cycles_per_cpu_second: rate(rs, cpu),
            })
            .collect(),
        sim_cycles_per_second: rate(&all, wall),
        sim_cycles_per_cpu_second: rate(&all, cpu),
        latency_64b_cycles: latency(64)?,
    })
}
