//! `xdie sim SCENARIO`: run a scenario on the golden model and on the RTL, compare, report.

use clap::Args;
use serde_json::{json, Value};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use xdie_model::collective::Kind;
use xdie_model::events::{Event, Writer};
use xdie_model::mesh::routes::RouteTables;
use xdie_model::route::Reach;
use xdie_model::scenario::{ModelRun, Scenario};
use xdie_model::state::SemValue;
use xdie_model::DieId;

#[derive(Args)]
#[command(after_help = EXIT_HELP)]
pub struct SimArgs {
    /// Scenario file (YAML, see scenarios/).
    scenario: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Seed of the source data and of the host ports' random handshake delays.
    #[arg(long, default_value = "1", value_parser = crate::numbers::number)]
    seed: u64,
    /// Write an FST trace of the RTL run to this file (needs a package model built with tracing:
    /// build xdie with XDIE_TRACE=1 in the environment).
    #[arg(long)]
    trace: Option<PathBuf>,
    /// Directory of the CSR descriptions.
    #[arg(long, default_value = "csrs")]
    csrs: PathBuf,
    /// Draw the legs over time (one lane per sending core, from the model's timing estimate)
    /// into this SVG file.
    #[arg(long)]
    timeline: Option<PathBuf>,
    /// Run the golden model only (needed when --csrs names CSRs other than the ones the RTL
    /// models were built from).
    #[arg(long)]
    model_only: bool,
    /// Threads the dies of a topology's composed system run on (default: the machine's cores).
    /// Every result is the same for any count; only the wall clock differs.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
}

/// What `xdie sim --help` says about the outcome (README's "Reading a failure" says the same).
const EXIT_HELP: &str = "\
Exit status: 0 the model passed and, if the RTL ran, matched it; 1 a mismatch or an RTL failure;
2 bad input (the error names the scenario file, key and line), CSRs the RTL was not built from, or
an output that cannot be written; 141 the reader of the standard output went away before the end
of the report.

A scenario that names a topology (`topology: ring4`) runs on the RTL of a system composed from
that topology file (one die model per die, --threads dies at once); one of a single package on the
package top. When the RTL cannot run (several packages and no topology, a neighbor-view
topology of several packages, --model-only, a build without the simulator) only the golden model
runs: the text report ends in `MODEL ONLY: PASS ...` instead of `PASS`, and the JSON report has \"rtl\": \"not run\", \"rtl_ran\": false and the reason in
\"rtl_not_run\". The exit status is then 0 too: check `rtl_ran` before taking a pass as an RTL
pass.";

/// Legs of a collective the text report lists.
const COLLECTIVE_LEGS_SHOWN: usize = 4;

/// Mismatches listed after the first one in the text report.
const MORE_MISMATCHES: usize = 9;

/// What became of the RTL side of a run.
enum Rtl {
    NotAvailable(String),
    #[cfg_attr(not(feature = "sim"), allow(dead_code))]
    Failed(String),
    #[cfg_attr(not(feature = "sim"), allow(dead_code))]
    Ran {
        transfer_cycles: u64,
        /// Cycles from the legs' first firmware step to the first launch doorbell: the
        /// descriptors the firmware writes before anything moves.
        launch_cycles: u64,
        /// Wall-clock seconds the transfer took to simulate (a speed figure, not a verdict).
        transfer_seconds: f64,
        /// Wall-clock seconds of the legs phase (firmware setup and transfer).
        legs_seconds: f64,
        total_cycles: u64,
        sems: Vec<SemValue>,
        mismatches: Vec<String>,
        monitor: String,
        /// What drove the RTL ("firmware": the reference C firmware of every context).
        driver: String,
        /// MMIO accesses the firmware made, and the bus cycles they took together.
        fw_accesses: u64,
        fw_bus_cycles: u64,
        /// What the die-to-die link went through, when the scenario injects faults.
        link_faults: Option<LinkFaults>,
        trace: Option<PathBuf>,
        /// What ran ("package top" or "composed system"), its models (one per die when
        /// composed) and the threads they ran on.
        system: String,
        models: u32,
        threads: usize,
        /// Dies simulated.
        dies: u32,
    },
}

/// The link's side of a run with `faults:`: what was injected and what the dies reported.
#[cfg_attr(not(feature = "sim"), allow(dead_code))]
struct LinkFaults {
    flips: u64,
    drops: u64,
    crc_errors: u64,
    replays: u64,
    down_cycles: u64,
}

pub fn run(a: &SimArgs) -> ExitCode {
    let csrs = match xdie_csr::load(&a.csrs) {
        Ok(c) => c,
        Err(e) => {
            errln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    // The inputs first, before the RTL side is rendered and compared with the models.
    let sc = match Scenario::load(&a.scenario) {
        Ok(s) => s,
        Err(e) => {
            errln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    // The outputs before any work: a bad one (a directory, a FIFO, one of the run's inputs)
    // costs no simulation, and nothing is written over an input.
    let topology_file = sc.topology.as_ref().map(|(_, p)| p.as_path());
    let inputs = crate::outpath::inputs(
        &[Some(a.scenario.as_path()), topology_file]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>(),
        &[a.csrs.as_path()],
    );
    let outputs: Vec<(&str, &Path)> = [
        a.timeline.as_deref().map(|p| ("--timeline", p)),
        a.trace.as_deref().map(|p| ("--trace", p)),
    ]
    .into_iter()
    .flatten()
    .collect();
    for (i, (flag, path)) in outputs.iter().enumerate() {
        if let Err(msg) = crate::outpath::check(flag, path, &inputs, &outputs[..i]) {
            errln!("error: {msg}");
            return ExitCode::from(2);
        }
    }
    if !a.model_only {
        if let Err(msg) = same_rtl(&csrs, &a.csrs) {
            errln!("error: {msg}");
            return ExitCode::from(2);
        }
    }
    let model = match sc.run_model(&csrs, a.seed) {
        Ok(m) => m,
        Err(e) => {
            errln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    // A composed system traces every die to `<stem>.die<N>.<ext>` beside --trace.
    if let (Some(trace), Some(mesh)) = (&a.trace, &model.mesh) {
        for i in 0..mesh.dies().len() {
            let die = crate::outpath::die_trace(trace, i);
            if let Err(msg) = crate::outpath::check("--trace", &die, &inputs, &outputs) {
                errln!("error: {msg}");
                return ExitCode::from(2);
            }
        }
    }
    let rtl = if a.model_only {
        Rtl::NotAvailable("--model-only".into())
    } else {
        let threads = a.threads.map(usize::from);
        rtl(&sc, &model, a.seed, a.trace.as_deref(), threads)
    };
    if let Some(path) = &a.timeline {
        let est = xdie_model::timing::estimate(&sc, &model);
        let text = crate::timeline::svg(&sc, &model, &est);
        if let Err(msg) = crate::outpath::write("--timeline", path, text) {
            errln!("error: {msg}");
            return ExitCode::from(2);
        }
    }
    let peak = csrs.views.params.data_bytes;
    let report = Report::new(&sc, &model, rtl, peak, a.seed);
    if a.json {
        outln!("{}", report.json());
    } else {
        out!("{}", report.text());
    }
    if report.pass {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// The RTL side runs the models compiled into the testbench, so it may only run when `csrs`
/// (loaded from `dir`) generates exactly the RTL those models were built from; the testbench
/// then reads `csrs` too, not the repository's csrs/.
#[cfg(feature = "sim")]
fn same_rtl(csrs: &xdie_csr::Csrs, dir: &Path) -> Result<(), String> {
    let files = xdie_gen::emit::render_all(csrs)
        .map_err(|e| format!("cannot render the RTL of {}: {e}", dir.display()))?;
    let differ = xdie_tb::rtl_fingerprint::differing(
        files
            .iter()
            .map(|f| (f.path.as_path(), f.contents.as_str())),
    );
    if let Some(first) = differ.first() {
        let d = dir.display();
        return Err(format!(
            "the RTL model was built from other CSRs than {d} ({} generated RTL file(s) differ, \
             first {}): regenerate rtl/ from {d} (`xdie gen --csrs {d}`) and rebuild, or pass \
             --model-only",
            differ.len(),
            first.display()
        ));
    }
    xdie_tb::regmodel::use_csrs(csrs.clone())
}

#[cfg(not(feature = "sim"))]
fn same_rtl(_: &xdie_csr::Csrs, _: &Path) -> Result<(), String> {
    // Without the testbench there is no RTL side to disagree.
    Ok(())
}

#[cfg(feature = "sim")]
fn rtl(
    sc: &Scenario,
    model: &ModelRun,
    seed: u64,
    trace: Option<&Path>,
    threads: Option<usize>,
) -> Rtl {
    use xdie_tb::driver::{self, RtlError};
    let mut bar = ProgressBar::new();
    let opts = driver::RunOptions {
        seed,
        timing: driver::HOST_TIMING,
        trace: trace.map(Path::to_path_buf),
        threads: threads.unwrap_or_else(xdie_tb::system::default_threads),
    };
    let res = driver::run_with(sc, model, &opts, &mut |p| {
        bar.show(p.phase, p.done, p.total)
    });
    bar.finish();
    match res {
        Ok(o) => Rtl::Ran {
            transfer_cycles: o.transfer_cycles,
            launch_cycles: o.launch_cycle,
            transfer_seconds: o.transfer_seconds,
            legs_seconds: o.legs_seconds,
            total_cycles: o.total_cycles,
            sems: o.sems,
            mismatches: o.mismatches,
            monitor: o.monitor.to_string(),
            driver: o.driver.to_string(),
            fw_accesses: o.fw_accesses,
            fw_bus_cycles: o.fw_bus_cycles,
            link_faults: o.link.map(|l| LinkFaults {
                flips: l.flips_injected,
                drops: l.drops_injected,
                crc_errors: l.crc_errors,
                replays: l.replays,
                down_cycles: l.down_cycles,
            }),
            trace: o.trace,
            system: o.rtl_system.to_string(),
            models: o.models,
            threads: o.threads,
            dies: o.dies,
        },
        Err(RtlError::NotAvailable(m)) => Rtl::NotAvailable(m),
        Err(RtlError::Driver(m)) => Rtl::Failed(m),
    }
}

#[cfg(not(feature = "sim"))]
fn rtl(_: &Scenario, _: &ModelRun, _: u64, _: Option<&Path>, _: Option<usize>) -> Rtl {
    Rtl::NotAvailable("built without the `sim` feature (no Verilator)".into())
}

/// A one-line bar on stderr, drawn only when stderr is a terminal.
#[cfg_attr(not(feature = "sim"), allow(dead_code))]
struct ProgressBar {
    on: bool,
    last: Option<(String, u64)>,
}

#[cfg_attr(not(feature = "sim"), allow(dead_code))]
impl ProgressBar {
    fn new() -> ProgressBar {
        ProgressBar {
            on: std::io::stderr().is_terminal(),
            last: None,
        }
    }

    fn show(&mut self, phase: &str, done: u64, total: u64) {
        if !self.on {
            return;
        }
        let pct = (done * 100).checked_div(total).unwrap_or(100).min(100);
        if self
            .last
            .as_ref()
            .is_some_and(|(p, v)| p == phase && *v == pct)
        {
            return;
        }
        let width = 30;
        let fill = (pct * width / 100) as usize;
        eprint!(
            "\r{phase:<16} [{}{}] {pct:>3}%",
            "#".repeat(fill),
            ".".repeat(width as usize - fill)
        );
        self.last = Some((phase.to_string(), pct));
    }

    fn finish(&mut self) {
        if self.on && self.last.is_some() {
            eprint!("\r{:<60}\r", "");
        }
    }
}

struct LegLine {
    name: String,
    tx: (u64, u64, DieId),
    rx: (u64, u64, DieId),
    reach: Reach,
    dst_soc: u64,
    engines: u64,
    bytes: u64,
}

struct Report {
    scenario: String,
    description: String,
    seed: u64,
    pass: bool,
    rtl: Rtl,
    bytes: u64,
    /// Engine payload bytes over the busiest link direction (a topology's busiest channel).
    link_bytes: u64,
    /// That direction: "die -> die" on a package, the egress port on a topology.
    link_busiest: Option<String>,
    link_peak: u64,
    legs: Vec<LegLine>,
    sems: Vec<SemValue>,
    first_mismatch: Option<String>,
    collectives: Vec<CollectiveLine>,
}

/// A collective's time next to its analytic bound.
struct CollectiveLine {
    kind: &'static str,
    ranks: u64,
    bytes_per_rank: u64,
    dtype: &'static str,
    legs: usize,
    /// The RTL's transfer cycles when it ran, else the model's estimate.
    cycles: u64,
    /// "rtl" or "model estimate".
    cycles_from: &'static str,
    model_cycles: u64,
    bound_cycles: f64,
    /// How the bound is computed.
    bound_rule: &'static str,
    link_bytes_per_cycle: u64,
}

impl CollectiveLine {
    fn ratio(&self) -> Option<f64> {
        (self.bound_cycles > 0.0).then(|| self.cycles as f64 / self.bound_cycles)
    }
}

/// The collective of `sc`, timed by the RTL (`rtl_cycles`) or the model's estimate.
fn collective_line(
    sc: &Scenario,
    model: &ModelRun,
    rtl_cycles: Option<u64>,
) -> Option<CollectiveLine> {
    let c = sc.collective.as_ref()?;
    let est = xdie_model::timing::estimate(sc, model);
    let b = est.link_width.max(1);
    let (bound_cycles, bound_rule) = match c.bound_cycles(b) {
        Some(v) => (
            v,
            match c.kind {
                Kind::AllGather => "(N-1)*S/B",
                Kind::ReduceScatter => "(N-1)/N*S/B",
                Kind::AllReduce => "2*(N-1)/N*S/B",
                _ => "S/B",
            },
        ),
        None => (
            est.busiest_bytes as f64 / est.busiest_width.max(1) as f64,
            "busiest link's bytes / its width",
        ),
    };
    let model_cycles = est.cycles.ceil() as u64;
    Some(CollectiveLine {
        kind: c.kind.name(),
        ranks: c.n(),
        bytes_per_rank: c.bytes_per_rank,
        dtype: c.dtype.name(),
        legs: sc.legs.len(),
        cycles: rtl_cycles.unwrap_or(model_cycles),
        cycles_from: if rtl_cycles.is_some() {
            "rtl"
        } else {
            "model estimate"
        },
        model_cycles,
        bound_cycles,
        bound_rule,
        link_bytes_per_cycle: b,
    })
}

fn reach_name(r: Reach) -> &'static str {
    match r {
        Reach::SameDie => "same die",
        Reach::Neighbor => "neighbor fold",
        Reach::ChipId => "chip-id fold",
    }
}

/// Engine payload bytes per link direction, and the busiest direction with its bytes. On a
/// topology every write that leaves its die is charged to every channel (egress port) of the
/// route tables' path; on a package, to the die-to-die link in the writer's direction.
fn link_bytes(model: &ModelRun) -> (Option<String>, u64) {
    let tables = model.mesh.as_ref().map(RouteTables::compute);
    let mut per_channel = std::collections::BTreeMap::<String, u64>::new();
    for e in model.sys.events() {
        let Event::Landed(l) = e else { continue };
        let Writer::Engine { die, .. } = &l.by else {
            continue;
        };
        if *die == l.die {
            continue;
        }
        let bytes = l.bytes.len() as u64;
        match tables.as_ref().and_then(|t| t.channels(*die, l.die)) {
            Some(channels) => {
                for c in channels {
                    *per_channel.entry(c.to_string()).or_default() += bytes;
                }
            }
            None if die.chip == l.die.chip => {
                *per_channel
                    .entry(format!("{die} -> {}", l.die))
                    .or_default() += bytes;
            }
            None => {}
        }
    }
    per_channel
        .into_iter()
        .max_by_key(|(_, b)| *b)
        .map_or((None, 0), |(c, b)| (Some(c), b))
}

impl Report {
    fn new(sc: &Scenario, model: &ModelRun, rtl: Rtl, link_peak: u64, seed: u64) -> Report {
        let (link_busiest, link_bytes) = link_bytes(model);
        let legs = sc
            .legs
            .iter()
            .zip(&model.legs)
            .map(|(l, r)| LegLine {
                name: l.name.clone(),
                tx: (l.tx.chip, l.tx.id, r.tx_die),
                rx: (l.rx.chip, l.rx.id, r.rx_die),
                reach: r.reach,
                dst_soc: r.dst_soc,
                engines: l.n_engines(),
                bytes: l.bytes(),
            })
            .collect();
        let (sems, first_mismatch, pass) = match &rtl {
            Rtl::Ran {
                sems, mismatches, ..
            } => (
                sems.clone(),
                mismatches.first().cloned(),
                mismatches.is_empty(),
            ),
            Rtl::Failed(m) => (model.sys.end_state().sems, Some(m.clone()), false),
            Rtl::NotAvailable(_) => (model.sys.end_state().sems, None, true),
        };
        let rtl_cycles = match &rtl {
            Rtl::Ran {
                transfer_cycles, ..
            } => Some(*transfer_cycles),
            _ => None,
        };
        let collectives = collective_line(sc, model, rtl_cycles).into_iter().collect();
        Report {
            collectives,
            scenario: sc.path.display().to_string(),
            description: sc.description.clone(),
            seed,
            pass,
            bytes: sc.legs.iter().map(|l| l.bytes()).sum(),
            link_bytes,
            link_busiest,
            link_peak,
            legs,
            sems,
            first_mismatch,
            rtl,
        }
    }

    fn cycles(&self) -> Option<u64> {
        match &self.rtl {
            Rtl::Ran {
                transfer_cycles, ..
            } => Some(*transfer_cycles),
            _ => None,
        }
    }

    /// Simulated cycles per wall-clock second during the transfer (None without an RTL run).
    /// What ran the RTL: the system, its models and the threads they ran on.
    fn rtl_system(&self) -> Option<(&str, u32, usize)> {
        match &self.rtl {
            Rtl::Ran {
                system,
                models,
                threads,
                ..
            } => Some((system.as_str(), *models, *threads)),
            _ => None,
        }
    }

    /// Die-cycles per second per thread during the transfer: the speed of one die's model on
    /// one core, comparable between the package top and a composed system.
    fn die_speed(&self) -> Option<f64> {
        let Rtl::Ran { dies, threads, .. } = &self.rtl else {
            return None;
        };
        Some(self.speed()? * f64::from(*dies) / *threads as f64)
    }

    fn speed(&self) -> Option<f64> {
        match &self.rtl {
            Rtl::Ran {
                transfer_cycles,
                transfer_seconds,
                ..
            } if *transfer_seconds > 0.0 => Some(*transfer_cycles as f64 / transfer_seconds),
            _ => None,
        }
    }

    /// Wall-clock seconds of the transfer and of the whole legs phase.
    fn seconds(&self) -> Option<(f64, f64)> {
        match &self.rtl {
            Rtl::Ran {
                transfer_seconds,
                legs_seconds,
                ..
            } => Some((*transfer_seconds, *legs_seconds)),
            _ => None,
        }
    }

    /// " (WHICH)" for the text report, or nothing when no engine write left its die.
    fn busiest(&self) -> String {
        self.link_busiest
            .as_ref()
            .map_or(String::new(), |c| format!(" ({c})"))
    }

    fn utilization(&self) -> Option<f64> {
        let c = self.cycles()?;
        (c > 0 && self.link_peak > 0)
            .then(|| self.link_bytes as f64 / (c as f64 * self.link_peak as f64))
    }

    fn rtl_status(&self) -> String {
        match &self.rtl {
            Rtl::NotAvailable(m) => format!("not run ({m})"),
            Rtl::Failed(m) => format!("FAIL: {m}"),
            Rtl::Ran { mismatches, .. } if mismatches.is_empty() => "PASS".into(),
            Rtl::Ran { mismatches, .. } => format!("FAIL ({} mismatches)", mismatches.len()),
        }
    }

    fn text(&self) -> String {
        let mut s = String::new();
        let mut line = |t: String| {
            s.push_str(&t);
            s.push('\n');
        };
        // The file's own text (its path, its description) may hold anything: escaped.
        line(format!(
            "scenario {}: {}",
            crate::printable::text(&self.scenario),
            crate::printable::text(&self.description)
        ));
        // A collective's legs are many and alike: the first few stand for them.
        let shown = if self.collectives.is_empty() {
            self.legs.len()
        } else {
            COLLECTIVE_LEGS_SHOWN.min(self.legs.len())
        };
        for (i, l) in self.legs.iter().enumerate().take(shown) {
            line(format!(
                "leg {i} `{}`: core {} of chip {:#x} (die {}) -> core {} of chip {:#x} (die {}), {}",
                l.name, l.tx.1, l.tx.0, l.tx.2.die, l.rx.1, l.rx.0, l.rx.2.die,
                reach_name(l.reach)
            ));
            line(format!(
                "  dst_soc {:#x}, {} engines, {} bytes",
                l.dst_soc, l.engines, l.bytes
            ));
        }
        if shown < self.legs.len() {
            line(format!(
                "... and {} more legs compiled from the collective (`--json` lists every leg)",
                self.legs.len() - shown
            ));
        }
        line("model: PASS (end state and invariants)".into());
        for c in &self.collectives {
            line(format!(
                "collective {}: {} ranks, {} bytes per rank ({}), {} legs: {} cycles ({}), bound \
                 {:.0} cycles ({}, B = {} B/cycle), ratio {}",
                c.kind,
                c.ranks,
                c.bytes_per_rank,
                c.dtype,
                c.legs,
                c.cycles,
                if c.cycles_from == "rtl" {
                    format!("RTL; model estimate {}", c.model_cycles)
                } else {
                    "model estimate".to_string()
                },
                c.bound_cycles,
                c.bound_rule,
                c.link_bytes_per_cycle,
                c.ratio().map_or("n/a".into(), |r| format!("{r:.3}"))
            ));
        }
        line(format!("RTL: {}", self.rtl_status()));
        if let Rtl::Ran {
            total_cycles,
            launch_cycles,
            monitor,
            driver,
            fw_accesses,
            fw_bus_cycles,
            link_faults,
            trace,
            ..
        } = &self.rtl
        {
            line(format!(
                "driver: {driver} (the reference C firmware of every context: {fw_accesses} MMIO \
                 accesses over the host ports, {:.1} cycles each on average)",
                *fw_bus_cycles as f64 / (*fw_accesses).max(1) as f64
            ));
            line(format!(
                "cycles: {} transfer (first launch to last completion), {launch_cycles} of \
                 firmware before the first launch, {} total",
                self.cycles().unwrap_or(0),
                total_cycles
            ));
            if let Some(speed) = self.speed() {
                line(format!(
                    "speed: {speed:.0} simulated cycles/s during the transfer (wall clock on this \
                     machine, firmware threads included; varies with the machine's load)"
                ));
            }
            if let Some((system, models, threads)) = self.rtl_system() {
                line(format!(
                    "rtl: {system}, {models} model{} on {threads} thread{}",
                    if models == 1 { "" } else { "s" },
                    if threads == 1 { "" } else { "s" }
                ));
            }
            line(format!("monitor: {monitor}"));
            if let Some(f) = link_faults {
                line(format!(
                    "faults: {} bit flips and {} lost words injected on the link's wires; the \
                     dies detected {} CRC errors and started {} replays; link down {} cycles",
                    f.flips, f.drops, f.crc_errors, f.replays, f.down_cycles
                ));
            }
            if let Some(t) = trace {
                line(format!("trace: {}", crate::printable::path(t)));
            }
        }
        line(format!("bytes: {}", self.bytes));
        match self.utilization() {
            Some(u) => line(format!(
                "link: {} payload bytes over the busiest link direction{}, peak {} B/cycle, \
                 utilization {:.1}%",
                self.link_bytes,
                self.busiest(),
                self.link_peak,
                100.0 * u
            )),
            None => line(format!(
                "link: {} payload bytes over the busiest link direction{}, peak {} B/cycle, \
                 utilization n/a (no RTL run)",
                self.link_bytes,
                self.busiest(),
                self.link_peak
            )),
        }
        let sems: Vec<String> = self
            .sems
            .iter()
            .map(|v| {
                format!(
                    "chip {:#x} die {} core {} sem {} = {}",
                    v.die.chip, v.die.die, v.core, v.sem, v.value
                )
            })
            .collect();
        line(format!("semaphores: {}", sems.join(", ")));
        if let Some(m) = &self.first_mismatch {
            line(format!("first mismatch: {}", crate::printable::text(m)));
        }
        if let Rtl::Ran { mismatches, .. } = &self.rtl {
            for m in mismatches.iter().skip(1).take(MORE_MISMATCHES) {
                line(format!("  then: {}", crate::printable::text(m)));
            }
            if mismatches.len() > MORE_MISMATCHES + 1 {
                line(format!(
                    "  ({} more)",
                    mismatches.len() - MORE_MISMATCHES - 1
                ));
            }
        }
        match &self.rtl {
            Rtl::NotAvailable(why) => line(format!(
                "MODEL ONLY: PASS of the golden model; the RTL did not run ({why}), so nothing \
                 was checked against it (seed {})",
                self.seed
            )),
            _ => line(format!(
                "{} (seed {})",
                if self.pass { "PASS" } else { "FAIL" },
                self.seed
            )),
        }
        s
    }

    fn json(&self) -> Value {
        let core = |c: &(u64, u64, DieId)| json!({"chip": c.0, "core": c.1, "die": c.2.die});
        let legs: Vec<Value> = self
            .legs
            .iter()
            .map(|l| {
                json!({
                    "name": l.name,
                    "tx": core(&l.tx),
                    "rx": core(&l.rx),
                    "reach": reach_name(l.reach),
                    "dst_soc": format!("{:#x}", l.dst_soc),
                    "engines": l.engines,
                    "bytes": l.bytes,
                })
            })
            .collect();
        let sems: Vec<Value> = self
            .sems
            .iter()
            .map(|v| {
                json!({"chip": v.die.chip, "die": v.die.die, "core": v.core, "index": v.sem,
                           "value": v.value})
            })
            .collect();
        let faults = match &self.rtl {
            Rtl::Ran {
                link_faults: Some(f),
                ..
            } => json!({
                "bit_flips_injected": f.flips,
                "words_lost_injected": f.drops,
                "crc_errors": f.crc_errors,
                "replays": f.replays,
                "link_down_cycles": f.down_cycles,
            }),
            _ => Value::Null,
        };
        let (total, launch, monitor, driver, accesses, bus) = match &self.rtl {
            Rtl::Ran {
                total_cycles,
                launch_cycles,
                monitor,
                driver,
                fw_accesses,
                fw_bus_cycles,
                ..
            } => (
                Some(*total_cycles),
                Some(*launch_cycles),
                Some(monitor.clone()),
                Some(driver.clone()),
                Some(*fw_accesses),
                Some(*fw_bus_cycles),
            ),
            _ => (None, None, None, None, None, None),
        };
        // A pass of the model alone is flagged: `pass` is true, `rtl_ran` false.
        let (rtl, rtl_ran, not_run) = match &self.rtl {
            Rtl::NotAvailable(why) => ("not run".to_string(), false, Some(why.clone())),
            _ => (self.rtl_status(), true, None),
        };
        let collectives: Vec<Value> = self
            .collectives
            .iter()
            .map(|c| {
                json!({
                    "kind": c.kind,
                    "ranks": c.ranks,
                    "bytes_per_rank": c.bytes_per_rank,
                    "dtype": c.dtype,
                    "legs": c.legs,
                    "cycles": c.cycles,
                    "cycles_from": c.cycles_from,
                    "model_cycles": c.model_cycles,
                    "bound_cycles": c.bound_cycles,
                    "bound_rule": c.bound_rule,
                    "link_bytes_per_cycle": c.link_bytes_per_cycle,
                    "bound_ratio": c.ratio(),
                })
            })
            .collect();
        json!({
            "collectives": collectives,
            "scenario": self.scenario,
            "seed": self.seed,
            "pass": self.pass,
            "model": "PASS",
            "rtl": rtl,
            "rtl_ran": rtl_ran,
            "rtl_not_run": not_run,
            "cycles": self.cycles(),
            "total_cycles": total,
            "launch_cycles": launch,
            "transfer_cycles_per_second": self.speed(),
            "transfer_seconds": self.seconds().map(|s| s.0),
            "legs_seconds": self.seconds().map(|s| s.1),
            "die_cycles_per_second_per_thread": self.die_speed(),
            "rtl_system": self.rtl_system().map(|r| r.0),
            "rtl_models": self.rtl_system().map(|r| r.1),
            "threads": self.rtl_system().map(|r| r.2),
            "bytes": self.bytes,
            "link_bytes": self.link_bytes,
            "link_busiest": self.link_busiest,
            "link_peak_bytes_per_cycle": self.link_peak,
            "link_utilization": self.utilization(),
            "legs": legs,
            "semaphores": sems,
            "first_mismatch": self.first_mismatch,
            "monitor": monitor,
            "driver": driver,
            "fw_accesses": accesses,
            "fw_bus_cycles": bus,
            "link_faults": faults,
        })
    }
}
