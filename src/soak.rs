//! `xdie soak`: random scenarios (see `xdie_model::soak`) run on the golden model and the RTL and
//! compared, run after run, with random host-port backpressure and optional link faults.

use clap::Args;
use serde_json::json;
use std::process::ExitCode;
use xdie_model::soak::random_scenario;
use xdie_tb::driver::{self, RtlError};
use xdie_tb::{Rng, Timing};

#[derive(Args)]
pub struct SoakArgs {
    /// Legs to run in all.
    #[arg(long, default_value = "100", value_parser = crate::numbers::number)]
    legs: u64,
    /// Seed of the first run; run r uses seed + r (its own scenario, data and delays).
    #[arg(long, default_value = "1", value_parser = crate::numbers::number)]
    seed: u64,
    /// Legs per run at most (they run concurrently, chained ones after their predecessor).
    #[arg(long, default_value = "6", value_parser = crate::numbers::number)]
    per_run: u64,
    /// Link faults per flit (bit flips and drops, each at this rate).
    #[arg(long, default_value = "0")]
    faults: f64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// The chip id of the package the runs use (the package top's).
const CHIP: u64 = 0x12;

/// A run that failed: its seed and what went wrong.
struct Failure {
    seed: u64,
    /// Legs the run asked the generator for.
    want: usize,
    what: String,
    scenario: String,
}

/// Most legs of one soak (`--legs`): days of simulation at the shipped sizes.
pub const MAX_LEGS: u64 = 1_000_000;
/// Most legs of one run (`--per-run`); a run holds at most one leg per TX context of the package
/// (8 with the shipped CSRs), so more would only be drawn and dropped.
pub const MAX_PER_RUN: u64 = 64;

/// The soak's arguments; the message names the flag and the limit.
fn check(a: &SoakArgs) -> Result<(), String> {
    if a.legs == 0 || a.legs > MAX_LEGS {
        return Err(format!("--legs {}: give 1..={MAX_LEGS}", a.legs));
    }
    if a.per_run == 0 || a.per_run > MAX_PER_RUN {
        return Err(format!("--per-run {}: give 1..={MAX_PER_RUN}", a.per_run));
    }
    if !(0.0..0.5).contains(&a.faults) {
        return Err(format!(
            "--faults {}: a rate per flit, 0 or more and below 0.5",
            a.faults
        ));
    }
    Ok(())
}

pub fn run(a: &SoakArgs) -> ExitCode {
    if let Err(msg) = check(a) {
        errln!("error: {msg}");
        return ExitCode::from(2);
    }
    let csrs = xdie_tb::regmodel::csrs();
    let (mut legs, mut runs, mut cycles, mut mismatches) = (0u64, 0u64, 0u64, 0u64);
    let mut first: Option<Failure> = None;
    let wall = std::time::Instant::now();
    while legs < a.legs {
        let seed = a.seed.wrapping_add(runs);
        let want = (a.legs - legs).min(a.per_run) as usize;
        let soak = match random_scenario(csrs, CHIP, want, seed, a.faults) {
            Ok(s) => s,
            Err(e) => {
                errln!("error: the soak generator drew a bad scenario (seed {seed:#x}): {e}");
                return ExitCode::from(1);
            }
        };
        let sc = &soak.scenario;
        let mut rng = Rng::new(seed);
        let timing = Timing::drawn(&mut rng);
        let outcome = sc
            .run_model(csrs, seed)
            .map_err(|e| format!("model: {e}"))
            .and_then(|model| {
                driver::run_timed(sc, &model, seed, timing, None, &mut |_| {})
                    .map_err(|e| match e {
                        RtlError::NotAvailable(m) => format!("RTL not available: {m}"),
                        RtlError::Driver(m) => m,
                    })
                    .map(|o| (model, o))
            });
        let n = sc.legs.len() as u64;
        legs += n;
        runs += 1;
        let failed = match outcome {
            Ok((_, o)) => {
                cycles += o.transfer_cycles;
                (!o.mismatches.is_empty()).then(|| o.mismatches.join("; "))
            }
            Err(m) => Some(m),
        };
        if !a.json {
            let verdict = failed
                .as_deref()
                .map_or("PASS".to_string(), |m| format!("FAIL: {m}"));
            outln!("run {runs} (seed {seed:#x}): {n} legs, {verdict}");
        }
        if let Some(what) = failed {
            mismatches += 1;
            first.get_or_insert(Failure {
                seed,
                want,
                what,
                scenario: soak.text.clone(),
            });
        }
    }
    let secs = wall.elapsed().as_secs_f64();
    let repro = first.as_ref().map(|f| {
        format!(
            "xdie soak --legs {} --per-run {} --seed {:#x} --faults {}",
            f.want, f.want, f.seed, a.faults
        )
    });
    if a.json {
        let out = json!({
            "legs": legs,
            "runs": runs,
            "mismatches": mismatches,
            "cycles": cycles,
            "seed": a.seed,
            "faults": a.faults,
            "seconds": secs,
            "first_failure": first.as_ref().map(|f| json!({
                "seed": f.seed,
                "what": f.what,
                "reproduce": repro,
                "scenario": f.scenario,
            })),
        });
        outln!("{out}");
    } else {
        outln!(
            "soak: {legs} legs in {runs} runs, {mismatches} failed runs, {cycles} transfer cycles, \
             {secs:.0} s"
        );
        if let (Some(f), Some(r)) = (&first, &repro) {
            outln!("first failure: seed {:#x}: {}", f.seed, f.what);
            outln!("reproduce: {r}");
            outln!(
                "its scenario (`xdie sim FILE --seed {:#x}` reruns it with the default host-port \
                 timing):",
                f.seed
            );
            out!("{}", f.scenario);
        }
    }
    if mismatches == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
