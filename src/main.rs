//! The `xdie` command line.

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

// First: its `out!` and `outln!` are how the commands print.
#[macro_use]
mod out;
#[cfg(feature = "sim")]
mod bench;
mod fold;
mod numbers;
mod outpath;
mod printable;
mod route;
mod sim;
#[cfg(feature = "sim")]
mod soak;
mod timeline;

#[derive(Parser)]
#[command(
    name = "xdie",
    version,
    about = "Cross-die SBUF-to-SBUF RDMA fabric: RTL generator, golden model and cosimulation"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Regenerate rtl/, include/ and docs/ from csrs/.
    Gen {
        /// Directory of the CSR descriptions.
        #[arg(long, default_value = "csrs")]
        csrs: PathBuf,
        /// Output root (rtl/, include/, docs/ are created below it).
        #[arg(long, default_value = ".")]
        out: PathBuf,
        /// Write nothing; exit 1 if any output differs from what csrs/ generates.
        #[arg(long)]
        check: bool,
    },
    /// Compute or decode a routed SoC address.
    Fold(fold::FoldArgs),
    /// Route tables of a topology (destination -> egress port per die), deadlock-checked.
    Route(route::RouteArgs),
    /// Run a transfer scenario on the golden model and the RTL; report and compare.
    Sim(sim::SimArgs),
    /// Cosimulation benchmarks on the Verilated RTL.
    #[cfg(feature = "sim")]
    #[command(subcommand)]
    Bench(bench::BenchCmd),
    /// Random scenarios on the model and the RTL, compared run after run (random cores, engine
    /// masks, sizes, offsets, queues, launches, chains; random host-port backpressure; optional
    /// link faults).
    #[cfg(feature = "sim")]
    Soak(soak::SoakArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.cmd {
        Cmd::Gen { csrs, out, check } => gen(&csrs, &out, check),
        Cmd::Fold(args) => fold::run(&args),
        Cmd::Route(args) => route::run(&args),
        Cmd::Sim(args) => sim::run(&args),
        #[cfg(feature = "sim")]
        Cmd::Bench(cmd) => bench::run(&cmd),
        #[cfg(feature = "sim")]
        Cmd::Soak(args) => soak::run(&args),
    };
    out::finish(code)
}

fn gen(csrs_dir: &std::path::Path, out: &std::path::Path, check: bool) -> ExitCode {
    let start = Instant::now();
    let csrs = match xdie_csr::load(csrs_dir) {
        Ok(c) => c,
        Err(e) => {
            errln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut files = match xdie_gen::emit::render_all(&csrs) {
        Ok(f) => f,
        Err(xdie_gen::emit::RenderError::Input(e)) => {
            errln!("error: {e}");
            return ExitCode::from(2);
        }
        Err(e) => {
            // The loader checks every rule an emitter relies on, so this is a missing check: name
            // the input set at least, and exit as for bad input.
            errln!("error: {}: rendering failed: {e}", csrs_dir.display());
            return ExitCode::from(2);
        }
    };
    // The manifest of this run's outputs, and the files an earlier run wrote that this one
    // does not (a bad manifest entry refuses the run before anything is written).
    files.push(xdie_gen::manifest::render(&files));
    let orphans = match xdie_gen::manifest::orphans(out, &files) {
        Ok(o) => o,
        Err(e) => {
            errln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if check {
        let drift = xdie_gen::output::check(out, &files);
        if drift.is_empty() && orphans.is_empty() {
            outln!("xdie gen --check: {} files up to date", files.len());
            return ExitCode::SUCCESS;
        }
        if !drift.is_empty() {
            errln!(
                "xdie gen --check: {} of {} generated files are stale:",
                drift.len(),
                files.len()
            );
            for d in &drift {
                errln!("  {d}");
            }
        }
        if !orphans.is_empty() {
            errln!(
                "xdie gen --check: {} files csrs/ no longer generates are still there:",
                orphans.len()
            );
            for o in &orphans {
                errln!("  {o}");
            }
        }
        errln!("regenerate with: cargo run --release -- gen");
        return ExitCode::from(1);
    }
    // No output may be written over (or through a link to) a file of the CSRs it is made from.
    let inputs = outpath::inputs(&[], &[csrs_dir]);
    for f in &files {
        let dest = out.join(&f.path);
        if let Some(input) = outpath::input_at(&dest, &inputs) {
            errln!(
                "error: writing outputs under {}: {} is {}, an input of this run; no output was \
                 changed (the previous files are as they were)",
                printable::path(out),
                printable::path(&dest),
                printable::path(input)
            );
            return ExitCode::from(2);
        }
    }
    // Only files with the generated header go; a listed one written by hand since stays.
    let mut remove = Vec::new();
    for o in &orphans {
        if o.generated {
            remove.push(o.path.clone());
        } else {
            errln!(
                "xdie gen: kept {} (listed in {} but without the `xdie gen` header)",
                o.path.display(),
                xdie_gen::manifest::PATH
            );
        }
    }
    match xdie_gen::output::apply(out, &files, &remove) {
        Ok(done) => {
            for p in &done.removed {
                errln!(
                    "xdie gen: removed {} (no longer generated from csrs/)",
                    p.display()
                );
            }
            let removed = match done.removed.len() {
                0 => String::new(),
                n => format!(", {n} removed"),
            };
            outln!(
                "xdie gen: {} files, {} changed{removed}, {:.1} ms",
                files.len(),
                done.changed,
                start.elapsed().as_secs_f64() * 1e3
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            errln!("error: writing outputs under {}: {e}", out.display());
            ExitCode::from(2)
        }
    }
}
