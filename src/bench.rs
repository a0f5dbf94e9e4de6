//! `xdie bench`: cosimulation throughput of the Rust harness against a plain C++ loop.

use clap::{Args, Subcommand};
use std::process::ExitCode;

#[derive(Subcommand)]
pub enum BenchCmd {
    /// AXI4-Lite register workload on the EVT_SEM block: random INC-window writes, then a
    /// checked read of every semaphore; Rust harness and C++ loop on the same workload.
    Regs(RegsArgs),
}

#[derive(Args)]
pub struct RegsArgs {
    /// Number of INC-window writes.
    #[arg(long, default_value_t = 1_000_000)]
    writes: u64,
    /// Workload seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(cmd: &BenchCmd) -> ExitCode {
    match cmd {
        BenchCmd::Regs(a) => match xdie_tb::bench::regs(a.writes, a.seed) {
            Ok(r) if a.json => {
                println!("{}", r.json());
                ExitCode::SUCCESS
            }
            Ok(r) => {
                println!(
                    "{} writes: Rust {:.2} Mtxn/s, {:.2} Mcycles/s; C++ {:.2} Mcycles/s; ratio {:.2}",
                    r.writes,
                    r.rust_txn_per_s / 1e6,
                    r.rust_cycles_per_s / 1e6,
                    r.cpp_cycles_per_s / 1e6,
                    r.ratio
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
