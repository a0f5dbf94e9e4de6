//! `xdie bench`: cosimulation throughput of the Rust harness against a plain C++ loop.

use crate::numbers;
use clap::{Args, Subcommand};
use std::process::ExitCode;

#[derive(Subcommand)]
pub enum BenchCmd {
    /// AXI4-Lite register workload on the EVT_SEM block: random INC-window writes, then a
    /// checked read of every semaphore; Rust harness and C++ loop on the same workload.
    Regs(RegsArgs),
    /// Cross-die SBUF-to-SBUF copies on the package top: bytes per cycle against the link peak
    /// over several engine counts, and the latency of one 64-byte copy (doorbell to last write
    /// acknowledged).
    Copy(CopyArgs),
}

#[derive(Args)]
pub struct CopyArgs {
    /// Bytes per copy.
    #[arg(long, default_value = "0x200000", value_parser = numbers::positive)]
    bytes: u64,
    /// Engine counts to run the copy over.
    #[arg(long, value_delimiter = ',', default_values = ["1", "4", "16"], value_parser = numbers::positive)]
    engines: Vec<u64>,
    /// Rounds over all engine counts (interleaved); figures are medians with min and max.
    #[arg(long, default_value = "3", value_parser = numbers::positive_usize)]
    repeats: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct RegsArgs {
    /// Number of INC-window writes.
    #[arg(long, default_value = "1000000", value_parser = numbers::positive)]
    writes: u64,
    /// Workload seed.
    #[arg(long, default_value = "1", value_parser = numbers::number)]
    seed: u64,
    /// Rust/C++ pairs to run (interleaved, alternating which goes first); figures are medians.
    #[arg(long, default_value = "5", value_parser = numbers::positive_usize)]
    repeats: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(cmd: &BenchCmd) -> ExitCode {
    match cmd {
        BenchCmd::Copy(a) => copy(a),
        BenchCmd::Regs(a) => match xdie_tb::bench::regs(a.writes, a.seed, a.repeats) {
            Ok(r) if a.json => {
                outln!("{}", r.json());
                ExitCode::SUCCESS
            }
            Ok(r) => {
                let m = |s: &xdie_tb::stats::Summary| {
                    format!(
                        "{:.2} ({:.2}-{:.2})",
                        s.median / 1e6,
                        s.min / 1e6,
                        s.max / 1e6
                    )
                };
                outln!(
                    "{} writes, medians (min-max) of {} interleaved pairs: Rust {} Mtxn/s, {} Mcycles/s; C++ {} Mcycles/s; pairwise ratio {:.2} ({:.2}-{:.2})",
                    r.writes,
                    r.repeats,
                    m(&r.rust_txn_per_s),
                    m(&r.rust_cycles_per_s),
                    m(&r.cpp_cycles_per_s),
                    r.pair_ratio.median,
                    r.pair_ratio.min,
                    r.pair_ratio.max
                );
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(1)
            }
        },
    }
}

fn copy(a: &CopyArgs) -> ExitCode {
    let engines = xdie_tb::regmodel::views().params.sdma_engines;
    if let Some(&bad) = a.engines.iter().find(|&&e| e == 0 || e > engines) {
        eprintln!("error: engine count {bad} is not between 1 and the die's engines");
        return ExitCode::from(2);
    }
    match xdie_tb::bench_copy::copy(&a.engines, a.bytes, a.repeats) {
        Ok(r) if a.json => {
            outln!("{}", r.json());
            ExitCode::SUCCESS
        }
        Ok(r) => {
            for case in &r.copies {
                let (c, s) = (&case.run, &case.sim_cycles_per_second);
                let cpu = &case.sim_cycles_per_cpu_second;
                outln!(
                    "{} engines: {} bytes in {} cycles, {:.2} B/cycle = {:.1}% of the link peak ({} B/cycle); simulated at {:.0} cycles/s (median of {}, {:.0}-{:.0}), {:.0} per CPU second",
                    c.engines,
                    c.bytes,
                    c.cycles,
                    c.bytes_per_cycle,
                    100.0 * c.link_utilization,
                    c.link_peak_bytes_per_cycle,
                    s.median,
                    s.runs,
                    s.min,
                    s.max,
                    cpu.median
                );
            }
            outln!(
                "64-byte copy: {} cycles, doorbell to last write acknowledged",
                r.latency_64b_cycles
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}
