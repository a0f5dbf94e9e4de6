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
    /// A scenario's RTL run at several thread counts (a topology's composed system): transfer
    /// cycles per second and die-cycles per second per thread, medians of interleaved repeats,
    /// and whether every run gave the same cycles.
    Scenario(ScenarioArgs),
}

#[derive(Args)]
pub struct ScenarioArgs {
    /// Scenario file (YAML, see scenarios/).
    scenario: std::path::PathBuf,
    /// Thread counts to run at.
    #[arg(long, value_delimiter = ',', default_values = ["1", "2"], value_parser = numbers::positive_usize)]
    threads: Vec<usize>,
    /// Rounds over all thread counts (interleaved, alternating the order); figures are medians
    /// with min and max.
    #[arg(long, default_value = "3", value_parser = numbers::positive_usize)]
    repeats: usize,
    /// Seed of the scenario's data and the host ports' timing.
    #[arg(long, default_value = "1", value_parser = numbers::number)]
    seed: u64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
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
    let checked = match cmd {
        BenchCmd::Copy(_) => Ok(()),
        BenchCmd::Scenario(a) => check_repeats(a.repeats).and_then(|()| {
            if a.threads.len() > MAX_LIST {
                return Err(format!(
                    "--threads lists {} counts; at most {MAX_LIST}",
                    a.threads.len()
                ));
            }
            match a.threads.iter().find(|&&t| t > MAX_THREADS) {
                Some(t) => Err(format!("--threads {t}: at most {MAX_THREADS}")),
                None => Ok(()),
            }
        }),
        BenchCmd::Regs(a) if a.writes > MAX_REGS_WRITES => {
            Err(format!("--writes {}: at most {MAX_REGS_WRITES}", a.writes))
        }
        BenchCmd::Regs(a) => check_repeats(a.repeats),
    };
    if let Err(msg) = checked {
        errln!("error: {msg}");
        return ExitCode::from(2);
    }
    match cmd {
        BenchCmd::Copy(a) => copy(a),
        BenchCmd::Scenario(a) => scenario(a),
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
                errln!("error: {e}");
                ExitCode::from(1)
            }
        },
    }
}

/// Most rounds of a benchmark (`--repeats`): each round is a full run.
pub const MAX_REPEATS: usize = 100;
/// Most INC-window writes of `bench regs` (`--writes`): about a minute of simulation.
pub const MAX_REGS_WRITES: u64 = 1 << 30;
/// Most entries of a list option (`--engines`, `--threads`).
pub const MAX_LIST: usize = 64;
/// Most threads of `bench scenario` (as `xdie sim --threads`).
pub const MAX_THREADS: usize = 1024;

/// `--repeats` within `1..=MAX_REPEATS` (clap has made sure it is at least 1).
fn check_repeats(repeats: usize) -> Result<(), String> {
    if repeats > MAX_REPEATS {
        return Err(format!("--repeats {repeats}: at most {MAX_REPEATS} rounds"));
    }
    Ok(())
}

/// The arguments of `bench copy` against the die: every engine count between 1 and the die's
/// engines; `--bytes` a nonzero multiple of the bus beat that fits the half of the SBUF the copy
/// reads from (it writes the other half of the other die's). Checked before any model is
/// built. The message names the flag and the limit.
fn check_copy(a: &CopyArgs) -> Result<(), String> {
    let p = &xdie_tb::regmodel::views().params;
    let engines = p.sdma_engines;
    if a.engines.len() > MAX_LIST {
        return Err(format!(
            "--engines lists {} counts; at most {MAX_LIST}",
            a.engines.len()
        ));
    }
    if let Some(&bad) = a.engines.iter().find(|&&e| e == 0 || e > engines) {
        return Err(format!(
            "--engines {bad}: an engine count is 1..={engines} (the die's SDMA engines)"
        ));
    }
    let beat = p.data_bytes.max(1);
    let most = (p.sbuf_partitions / 2).saturating_mul(p.sbuf_backing_bytes) / beat * beat;
    if a.bytes == 0 || !a.bytes.is_multiple_of(beat) || a.bytes > most {
        return Err(format!(
            "--bytes {:#x}: a copy is a nonzero multiple of the {beat}-byte bus beat and at most \
             {most:#x} bytes (half the SBUF: {} partitions of {:#x} bytes; the copy writes the \
             other half)",
            a.bytes,
            p.sbuf_partitions / 2,
            p.sbuf_backing_bytes
        ));
    }
    check_repeats(a.repeats)
}

fn copy(a: &CopyArgs) -> ExitCode {
    if let Err(msg) = check_copy(a) {
        errln!("error: {msg}");
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
            errln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

fn scenario(a: &ScenarioArgs) -> ExitCode {
    use xdie_tb::driver::{self, RunOptions};
    use xdie_tb::stats::Summary;
    let sc = match xdie_model::scenario::Scenario::load(&a.scenario) {
        Ok(s) => s,
        Err(e) => {
            errln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let csrs = xdie_tb::regmodel::csrs();
    let model = match sc.run_model(csrs, a.seed) {
        Ok(m) => m,
        Err(e) => {
            errln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    // Per thread count: transfer cycles/s and die-cycles/s per thread of every run; the cycles
    // of the first run, which every other must repeat.
    let mut speed = vec![Vec::new(); a.threads.len()];
    let mut die_speed = vec![Vec::new(); a.threads.len()];
    let mut first: Option<(u64, u64)> = None;
    let mut same = true;
    let mut dies = 0;
    for round in 0..a.repeats {
        let order: Vec<usize> = if round % 2 == 0 {
            (0..a.threads.len()).collect()
        } else {
            (0..a.threads.len()).rev().collect()
        };
        for k in order {
            let opts = RunOptions {
                seed: a.seed,
                timing: driver::HOST_TIMING,
                trace: None,
                threads: a.threads[k],
            };
            let o = match driver::run_with(&sc, &model, &opts, &mut |_| {}) {
                Ok(o) => o,
                Err(e) => {
                    errln!("error: {}: {e}", a.scenario.display());
                    return ExitCode::from(1);
                }
            };
            if !o.mismatches.is_empty() {
                errln!("error: {}: {}", a.scenario.display(), o.mismatches[0]);
                return ExitCode::from(1);
            }
            let cycles = (o.transfer_cycles, o.total_cycles);
            same &= *first.get_or_insert(cycles) == cycles;
            dies = o.dies;
            let s = o.transfer_cycles as f64 / o.transfer_seconds.max(1e-9);
            speed[k].push(s);
            die_speed[k].push(s * f64::from(o.dies) / o.threads as f64);
        }
    }
    let (transfer, total) = first.unwrap_or_default();
    let rows: Vec<(usize, Summary, Summary)> = a
        .threads
        .iter()
        .zip(speed.iter().zip(&die_speed))
        .filter_map(|(&t, (s, d))| Some((t, Summary::of(s)?, Summary::of(d)?)))
        .collect();
    if a.json {
        let runs: Vec<String> = rows
            .iter()
            .map(|(t, s, d)| {
                format!(
                    "{{\"threads\": {t}, {}, {}}}",
                    s.json_fields("transfer_cycles_per_second", 0),
                    d.json_fields("die_cycles_per_second_per_thread", 0)
                )
            })
            .collect();
        outln!(
            "{{\"scenario\": {:?}, \"dies\": {dies}, \"transfer_cycles\": {transfer}, \
             \"total_cycles\": {total}, \"identical\": {same}, \"repeats\": {}, \"runs\": [{}]}}",
            a.scenario.display().to_string(),
            a.repeats,
            runs.join(", ")
        );
    } else {
        outln!(
            "{}: {dies} dies, {transfer} transfer cycles, {total} total; every run {}",
            crate::printable::path(&a.scenario),
            if same {
                "gave the same cycles"
            } else {
                "did NOT give the same cycles"
            }
        );
        for (t, s, d) in &rows {
            outln!(
                "{t} thread{}: {:.0} transfer cycles/s (median of {}, {:.0}-{:.0}), {:.0} die-cycles/s per thread",
                if *t == 1 { "" } else { "s" },
                s.median,
                s.runs,
                s.min,
                s.max,
                d.median
            );
        }
    }
    if same {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
