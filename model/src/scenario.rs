//! Transfer scenarios: the YAML files under `scenarios/` that `xdie sim` runs.
//!
//! A scenario names the packages (chip ids), optionally the address view (`view: chip_id` or
//! `neighbor`; default neighbor for one package, chip_id for more) — or instead a topology
//! (`topology: ring4`: `topologies/ring4.yaml` beside the scenario folder, which gives the
//! packages, their links and the view) — and a list of legs, each a
//! gen/start pair between a TX core and an RX core. A leg may name an earlier leg in `after`:
//! its TX context then first waits for that leg's remote_sem to reach its engine count and
//! decrements it (wait_ge_and_dec), which chains legs the way a ring collective does. Legs not
//! chained run at the same time, so they may share no semaphore of a die. Unknown and repeated
//! keys are rejected; every error names the file, the key path and the line.
//!
//! Running a scenario on the model ([`Scenario::run_model`]) is also its validation: the model's
//! typed errors (impossible geometry, missing engines, unknown cores, destinations the view
//! cannot name) come back with the key of the leg field they concern.

use crate::error::ModelError;
use crate::events::{check_leg, landed};
use crate::route::Reach;
use crate::system::{Config, FwStep, GenOutput, System};
use crate::topology::{AddrView, Core, DieId, Lane, Topology};
use crate::word::{GenWord, StartWord};
use serde::Deserialize;
use std::fmt;
use std::path::{Path, PathBuf};
use xdie_csr::locate::LineIndex;
use xdie_csr::AccCodes;
use xdie_csr::{Csrs, Location};

/// Most packages of one scenario (the model keeps every die's state).
pub const MAX_PACKAGES: usize = 64;
/// Most legs of one scenario.
pub const MAX_LEGS: usize = 1024;
/// Most legs a collective compiles to (a 128-rank ring all-gather with one engine: 16256).
pub const MAX_COMPILED_LEGS: usize = 1 << 15;
/// Most bytes all legs of a scenario move together: the model and the source data hold each
/// byte in memory (the worked example moves 2 MiB).
pub const MAX_SCENARIO_BYTES: u64 = 256 << 20;

/// The classes of bad scenario. Each has its own test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScenarioErrorKind {
    /// The file could not be read.
    Io,
    /// Not YAML, an unknown key, a missing key or a value of the wrong type.
    Syntax,
    /// A leg name is used twice, or `after` names no earlier leg or a leg on another die.
    Reference,
    /// Two legs that run at the same time (or one leg with itself) count into the same
    /// semaphore of the same die: each would reach its target early and end at the sum.
    SharedSemaphore,
    /// The model refuses the transfer (the typed reason).
    Model(ModelError),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioError {
    pub kind: ScenarioErrorKind,
    pub at: Location,
    pub message: String,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.message)
    }
}

impl std::error::Error for ScenarioError {}

/// Scenario errors are boxed: they carry a location and a model error, and travel rarely.
pub type Result<T> = std::result::Result<T, Box<ScenarioError>>;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScenario {
    #[serde(default)]
    description: String,
    /// Chip ids of the packages; none when `topology` names them.
    #[serde(default)]
    packages: Option<Vec<u64>>,
    /// A topology file of `topologies/` (by name, without `.yaml`).
    #[serde(default)]
    topology: Option<String>,
    /// Percentage of cycles each link's receive side is held (random backpressure), on the
    /// RTL (the package top or a topology's composed system); the model's results do not depend on timing.
    #[serde(default)]
    link_backpressure: Option<u32>,
    /// The address view the system routes in; default: neighbor for one package, chip_id for
    /// more (see `Topology::packages`).
    #[serde(default)]
    view: Option<AddrView>,
    #[serde(default)]
    ring_len: Option<u64>,
    #[serde(default)]
    legs: Vec<RawLeg>,
    /// A collective the compiler turns into legs (instead of `legs`).
    #[serde(default)]
    collective: Option<crate::collective::RawCollective>,
    #[serde(default)]
    faults: Option<RawFaults>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFaults {
    #[serde(default)]
    bit_flip: f64,
    #[serde(default)]
    drop: f64,
    #[serde(default)]
    lost_credits: f64,
    #[serde(default)]
    link_down: Vec<RawLinkDown>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLinkDown {
    at: u64,
    /// Absent: the link stays down.
    #[serde(default)]
    cycles: Option<u64>,
}

/// Faults the RTL's die-to-die link suffers during a scenario's legs (`faults:`). They act on the
/// link's wires only (the testbench drives the link's fault-injection inputs); the golden model
/// has an ideal link, and a link that loses nothing ends in the same state, so model and RTL are
/// compared as without faults. Rates are probabilities per word entering a wire, which is a
/// probability per flit (a flit is one word) and per DLLP (one per cycle and channel).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Faults {
    /// A bit of a flit or a DLLP flipped.
    pub bit_flip: f64,
    /// A flit or a DLLP lost.
    pub drop: f64,
    /// A DLLP (the credit and acknowledgement update) lost.
    pub lost_credits: f64,
    /// Spells during which every word on every wire is lost, counted from the first firmware
    /// step of the legs.
    pub link_down: Vec<LinkDown>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinkDown {
    pub at: u64,
    /// None: down for good.
    pub cycles: Option<u64>,
}

impl Faults {
    /// No fault at all.
    pub fn is_none(&self) -> bool {
        self.bit_flip == 0.0
            && self.drop == 0.0
            && self.lost_credits == 0.0
            && self.link_down.is_empty()
    }

    /// Whether the link is held down in cycle `c`.
    pub fn down_at(&self, c: u64) -> bool {
        self.link_down
            .iter()
            .any(|d| c >= d.at && d.cycles.is_none_or(|n| c - d.at < n))
    }
}

/// Most link-down spells a scenario may list.
pub const MAX_LINK_DOWN: usize = 64;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCore {
    chip: u64,
    core: u64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLeg {
    name: String,
    tx: RawCore,
    rx: RawCore,
    dma_engine_mask: u64,
    partitions: u64,
    free_dim_bytes: u64,
    src_addr: u64,
    dst_addr: u64,
    local_sem: u64,
    remote_sem: u64,
    go_sem: u64,
    #[serde(default)]
    queue: u64,
    #[serde(default)]
    after: Option<String>,
    #[serde(default)]
    launch: LaunchMode,
    /// Land the data by adding it into the destination as lanes of this type (the SBUF
    /// accumulate apertures) instead of writing it.
    #[serde(default)]
    accumulate: Option<crate::collective::Dtype>,
}

/// One leg of a scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LegSpec {
    pub name: String,
    pub tx: Core,
    pub rx: Core,
    pub dma_engine_mask: u64,
    pub partitions: u64,
    pub free_dim_bytes: u64,
    pub src_addr: u64,
    pub dst_addr: u64,
    pub local_sem: u64,
    pub remote_sem: u64,
    pub go_sem: u64,
    pub queue: u64,
    /// Index of the earlier leg whose remote_sem this leg's TX context waits on.
    pub after: Option<usize>,
    /// How both starts of the leg announce their descriptors.
    pub launch: LaunchMode,
    /// The RX side adds the data into its SBUF as lanes of this type (None: writes it).
    pub accumulate: Option<crate::reduce::AccDtype>,
}

/// How a start announces its descriptors (the start word's `launch` field).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LaunchMode {
    /// One tail-increment store per engine of the mask.
    #[default]
    PerEngine = 0,
    /// One store to the die's broadcast doorbell (seed 4.4), after setting its engine mask and
    /// queue, for every engine of the mask at once.
    Broadcast = 1,
}

impl LegSpec {
    fn peer(&self, role: Lane) -> Core {
        match role {
            Lane::Tx => self.rx,
            Lane::Rx => self.tx,
        }
    }

    pub fn core(&self, role: Lane) -> Core {
        match role {
            Lane::Tx => self.tx,
            Lane::Rx => self.rx,
        }
    }

    /// The leg's gen word for `role`; `codes` are the `accumulate` codes of the CSRs.
    pub fn gen_word(&self, role: Lane, codes: &AccCodes) -> GenWord {
        let peer = self.peer(role);
        GenWord {
            role: role as u64,
            dma_engine_mask: self.dma_engine_mask,
            free_dim_bytes: self.free_dim_bytes,
            partitions: self.partitions,
            queue: self.queue,
            accumulate: codes.code(self.accumulate),
            local_sem: self.local_sem,
            remote_sem: self.remote_sem,
            remote_core_id: peer.id,
            remote_routing_id: peer.chip,
            src_addr: self.src_addr,
            dst_addr: self.dst_addr,
            peer_base: 0,
        }
    }

    pub fn start_word(&self, role: Lane, num_descriptors: u64) -> StartWord {
        let peer = self.peer(role);
        StartWord {
            role: role as u64,
            dma_engine_mask: self.dma_engine_mask,
            num_descriptors,
            queue: self.queue,
            launch: self.launch as u64,
            go_sem: self.go_sem,
            local_sem: self.local_sem,
            remote_sem: self.remote_sem,
            remote_core_id: peer.id,
            remote_routing_id: peer.chip,
            dst_addr: self.dst_addr,
        }
    }

    pub fn n_engines(&self) -> u64 {
        u64::from(self.dma_engine_mask.count_ones())
    }

    pub fn bytes(&self) -> u64 {
        self.partitions.saturating_mul(self.free_dim_bytes)
    }
}

#[derive(Debug, Clone)]
pub struct Scenario {
    pub path: PathBuf,
    pub description: String,
    /// Chip ids of the packages as the file lists them (empty when a topology names them: see
    /// [`ModelRun::mesh`]).
    pub packages: Vec<u64>,
    /// The topology the scenario runs on: its name and file.
    pub topology: Option<(String, PathBuf)>,
    /// Percentage of cycles each link's receive side is held on the RTL (0: never).
    pub link_backpressure: u32,
    /// The address view, when the scenario names one.
    pub view: Option<AddrView>,
    pub ring_len: u64,
    /// Whether the file gave `ring_len` (else a collective's rings are sized to hold it).
    pub ring_len_given: bool,
    pub legs: Vec<LegSpec>,
    /// The collective the legs were compiled from, if the scenario names one.
    pub collective: Option<crate::collective::Collective>,
    /// Link faults the RTL run suffers (none when the scenario has no `faults:`).
    pub faults: Faults,
    index: LineIndex,
}

/// SBUF bytes stored before the run (the source data), identical for the model and the RTL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fill {
    pub die: DieId,
    /// The core of `die` whose SBUF is filled.
    pub tpb: u64,
    pub partition: u64,
    pub offset: u64,
    pub bytes: Vec<u8>,
}

/// What the model did for one leg.
#[derive(Debug, Clone)]
pub struct LegRun {
    pub tx_die: DieId,
    pub rx_die: DieId,
    /// The TX and RX cores' indices on their dies (`Topology::tpb_of`).
    pub tx_tpb: u64,
    pub rx_tpb: u64,
    pub reach: Reach,
    /// Destination as the TX engines address it (partition 0, byte dst_addr).
    pub dst_soc: u64,
    pub tx_gen: GenOutput,
    pub rx_gen: GenOutput,
    pub rx_start: Vec<FwStep>,
    pub tx_start: Vec<FwStep>,
}

/// A scenario run on the golden model: the system at the end, per-leg records and the fills.
pub struct ModelRun {
    /// The topology the scenario named, loaded and checked.
    pub mesh: Option<crate::mesh::Mesh>,
    pub sys: System,
    pub legs: Vec<LegRun>,
    pub fills: Vec<Fill>,
}

/// Source bytes: a splitmix-style hash of (seed, die, partition, offset), so every run with the
/// same seed stores the same data and a misplaced byte is unlikely to look right.
pub fn pattern(seed: u64, die: DieId, tpb: u64, partition: u64, offset: u64, n: u64) -> Vec<u8> {
    let key = seed
        ^ die.chip.wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ die.die.wrapping_mul(0xbf58_476d_1ce4_e5b9)
        ^ tpb.wrapping_mul(0xd6e8_feb8_6659_fd93)
        ^ partition.wrapping_mul(0x94d0_49bb_1331_11eb);
    (offset..offset + n)
        .map(|i| {
            let mut z = key.wrapping_add(i.wrapping_mul(0x9e37_79b9_7f4a_7c15));
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            (z ^ (z >> 31)) as u8
        })
        .collect()
}

/// Whether two legs form one stream: the same TX and RX core, the same queue and the same
/// single engine. Their descriptors sit in one ring pair, written by one context per side, so
/// the engine runs them one after the other, and each adds exactly one increment to each of its
/// semaphores (one engine), the REMOTE one after its data (write_barrier): the increments of a
/// semaphore the stream shares come one per leg, in leg order. That is what lets the legs of a
/// stream share go_sem, local_sem and remote_sem (docs/collectives.md); a leg of several engines
/// adds several increments that may interleave with the next leg's, so it shares none.
pub fn same_stream(a: &LegSpec, b: &LegSpec) -> bool {
    a.tx == b.tx
        && a.rx == b.rx
        && a.queue == b.queue
        && a.dma_engine_mask == b.dma_engine_mask
        && a.n_engines() == 1
}

impl Scenario {
    /// Reads and parses a scenario file (no model checks yet: see [`Scenario::run_model`]).
    pub fn load(path: &Path) -> Result<Scenario> {
        // Bounded like a CSR file: size, UTF-8 (with the line of a bad byte) and nesting.
        let text = xdie_csr::limits::read_text(path).map_err(|e| {
            Box::new(ScenarioError {
                kind: ScenarioErrorKind::Io,
                at: Location {
                    file: path.to_path_buf(),
                    key: String::new(),
                    line: e.line,
                },
                message: e.message,
            })
        })?;
        Scenario::parse(path, &text)
    }

    /// Parses scenario text; `path` names it in errors.
    pub fn parse(path: &Path, text: &str) -> Result<Scenario> {
        xdie_csr::limits::check_depth(text).map_err(|e| {
            Box::new(ScenarioError {
                kind: ScenarioErrorKind::Syntax,
                at: Location {
                    file: path.to_path_buf(),
                    key: String::new(),
                    line: e.line,
                },
                message: e.message,
            })
        })?;
        let index = LineIndex::new(text);
        // Before serde, which blames a repeated leg field on the whole leg at the wrong line.
        if let Some(d) = index.duplicate() {
            return Err(Box::new(ScenarioError {
                kind: ScenarioErrorKind::Syntax,
                at: Location {
                    file: path.to_path_buf(),
                    key: d.key.clone(),
                    line: Some(d.line),
                },
                message: d.message(),
            }));
        }
        // Every error serde finds, each at its key and line (xdie_csr::locate).
        let raw: RawScenario =
            xdie_csr::locate::deserialize_all(text, &index).map_err(|errors| {
                Box::new(ScenarioError {
                    kind: ScenarioErrorKind::Syntax,
                    at: errors[0].at(path),
                    message: xdie_csr::locate::joined_message(path, &errors),
                })
            })?;
        let topology = raw.topology.as_ref().map(|name| {
            let dir = path.parent().unwrap_or(Path::new("."));
            let dir = if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            };
            (
                name.clone(),
                dir.join("..")
                    .join("topologies")
                    .join(format!("{name}.yaml")),
            )
        });
        let mut sc = Scenario {
            path: path.to_path_buf(),
            description: raw.description,
            packages: raw.packages.clone().unwrap_or_default(),
            topology,
            link_backpressure: raw.link_backpressure.unwrap_or(0),
            view: raw.view,
            ring_len: raw.ring_len.unwrap_or(Config::default().ring_len),
            ring_len_given: raw.ring_len.is_some(),
            legs: Vec::new(),
            collective: None,
            faults: Faults::default(),
            index,
        };
        if let Some(f) = raw.faults {
            if raw.topology.is_some() {
                return Err(sc.error(
                    ScenarioErrorKind::Reference,
                    "faults".into(),
                    "link faults are injected on the package top only (a composed system's \
                     wires inject none yet): remove `faults` or `topology`"
                        .into(),
                ));
            }
            sc.faults = sc.check_faults(f)?;
        }
        if let Some(pct) = raw.link_backpressure {
            if pct >= 100 {
                return Err(sc.error(
                    ScenarioErrorKind::Syntax,
                    "link_backpressure".into(),
                    format!("{pct} %: a link held every cycle never moves (give 0..=99)"),
                ));
            }
        }
        match (&raw.topology, &raw.packages) {
            (Some(name), Some(_)) => {
                return Err(sc.error(
                    ScenarioErrorKind::Reference,
                    "packages".into(),
                    format!(
                        "`packages` and `topology` both given: topology `{name}` names the \
                         packages (remove `packages`)"
                    ),
                ))
            }
            (Some(name), None) => {
                let plain = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
                if name.is_empty() || !name.chars().all(plain) {
                    return Err(sc.error(
                        ScenarioErrorKind::Syntax,
                        "topology".into(),
                        format!(
                            "bad topology name `{}`: the name of a file of topologies/ without \
                             `.yaml` (letters, digits, `_`, `-`)",
                            name.escape_debug()
                        ),
                    ));
                }
                if let Some(why) = xdie_csr::ident::label_problem(name) {
                    return Err(sc.error(
                        ScenarioErrorKind::Syntax,
                        "topology".into(),
                        format!("bad topology name: {why}"),
                    ));
                }
                if let Some((_, file)) = &sc.topology {
                    sc.check_topology_name(name, file)?;
                }
                if raw.view.is_some() {
                    return Err(sc.error(
                        ScenarioErrorKind::Reference,
                        "view".into(),
                        format!(
                            "`view` and `topology` both given: topology `{name}` names the view"
                        ),
                    ));
                }
            }
            (None, None) => {
                return Err(sc.error(
                    ScenarioErrorKind::Syntax,
                    String::new(),
                    "missing field `packages` (or a `topology` that names them)".into(),
                ))
            }
            (None, Some(_)) => {}
        }
        if sc.topology.is_none() && (sc.packages.is_empty() || sc.packages.len() > MAX_PACKAGES) {
            return Err(sc.error(
                ScenarioErrorKind::Reference,
                "packages".into(),
                format!(
                    "{} packages; a scenario has 1..={MAX_PACKAGES}",
                    sc.packages.len()
                ),
            ));
        }
        for (i, p) in sc.packages.iter().enumerate() {
            if let Some(first) = sc.packages[..i].iter().position(|q| q == p) {
                return Err(sc.error(
                    ScenarioErrorKind::Reference,
                    format!("packages[{i}]"),
                    format!("package {p:#x} is listed twice (first as packages[{first}])"),
                ));
            }
        }
        if raw.legs.len() > MAX_LEGS {
            return Err(sc.error(
                ScenarioErrorKind::Reference,
                "legs".into(),
                format!("{} legs; a scenario has at most {MAX_LEGS}", raw.legs.len()),
            ));
        }
        for (i, l) in raw.legs.into_iter().enumerate() {
            if let Some(why) = xdie_csr::ident::label_problem(&l.name) {
                return Err(sc.error(
                    ScenarioErrorKind::Syntax,
                    format!("legs[{i}].name"),
                    format!("bad leg name: {why}"),
                ));
            }
            if let Some(first) = sc.legs.iter().position(|p| p.name == l.name) {
                return Err(sc.error(
                    ScenarioErrorKind::Reference,
                    format!("legs[{i}].name"),
                    format!(
                        "leg name `{}` is used twice (first by legs[{first}])",
                        l.name
                    ),
                ));
            }
            let after = match &l.after {
                None => None,
                Some(name) => match sc.legs.iter().position(|p| &p.name == name) {
                    Some(j) => Some(j),
                    None => {
                        return Err(sc.error(
                            ScenarioErrorKind::Reference,
                            format!("legs[{i}].after"),
                            format!(
                                "`after` names `{}`, which is no earlier leg",
                                name.escape_debug()
                            ),
                        ))
                    }
                },
            };
            sc.legs.push(LegSpec {
                name: l.name,
                tx: Core {
                    chip: l.tx.chip,
                    id: l.tx.core,
                },
                rx: Core {
                    chip: l.rx.chip,
                    id: l.rx.core,
                },
                dma_engine_mask: l.dma_engine_mask,
                partitions: l.partitions,
                free_dim_bytes: l.free_dim_bytes,
                src_addr: l.src_addr,
                dst_addr: l.dst_addr,
                local_sem: l.local_sem,
                remote_sem: l.remote_sem,
                go_sem: l.go_sem,
                queue: l.queue,
                after,
                launch: l.launch,
                accumulate: l.accumulate.map(|d| d.acc()),
            });
        }
        match (raw.collective, sc.legs.is_empty()) {
            (Some(_), false) => {
                return Err(sc.error(
                    ScenarioErrorKind::Reference,
                    "collective".into(),
                    "`legs` and `collective` both given: the collective compiles to its own legs \
                     (remove one)"
                        .into(),
                ))
            }
            (None, true) => {
                return Err(sc.error(
                    ScenarioErrorKind::Syntax,
                    String::new(),
                    "missing field `legs` (or a `collective` that compiles to legs)".into(),
                ))
            }
            (Some(raw), true) => {
                let c = crate::collective::Collective::from_raw(raw)
                    .map_err(|e| sc.error(ScenarioErrorKind::Reference, e.key, e.message))?;
                sc.legs = c.compile();
                if sc.legs.len() > MAX_COMPILED_LEGS {
                    return Err(sc.error(
                        ScenarioErrorKind::Reference,
                        "collective.ranks".into(),
                        format!(
                            "the collective compiles to {} legs; at most {MAX_COMPILED_LEGS} \
                             (fewer ranks or engines)",
                            sc.legs.len()
                        ),
                    ));
                }
                sc.collective = Some(c);
            }
            (None, false) => {}
        }
        Ok(sc)
    }

    /// `topology: NAME` against the other files of its folder: two files whose names differ
    /// only by case or by `-`/`_` (`ring-4.yaml`, `Ring_4.yaml`) are one name to a reader and
    /// on a case-insensitive file system, so a name that matches several is refused, naming
    /// them; a name that matches none but one such file suggests it.
    fn check_topology_name(&self, name: &str, file: &Path) -> Result<()> {
        let fold = |n: &str| n.to_ascii_lowercase().replace('-', "_");
        let Some(dir) = file.parent() else {
            return Ok(());
        };
        let Ok(entries) = std::fs::read_dir(dir) else {
            return Ok(());
        };
        let mut alike: Vec<String> = entries
            .flatten()
            .take(10_000)
            .filter_map(|e| {
                let f = e.file_name().to_str()?.to_string();
                let stem = f.strip_suffix(".yaml")?;
                (fold(stem) == fold(name)).then(|| stem.to_string())
            })
            .collect();
        alike.sort();
        let exists = alike.iter().any(|a| a == name);
        let shown = |a: &str| dir.join(format!("{a}.yaml")).display().to_string();
        if alike.len() > 1 {
            let files: Vec<String> = alike.iter().map(|a| shown(a)).collect();
            return Err(self.error(
                ScenarioErrorKind::Reference,
                "topology".into(),
                format!(
                    "topology `{name}` is ambiguous: {} differ only by case or `-`/`_` (rename \
                     one of them)",
                    files.join(" and ")
                ),
            ));
        }
        if !exists {
            if let Some(other) = alike.first() {
                return Err(self.error(
                    ScenarioErrorKind::Reference,
                    "topology".into(),
                    format!(
                        "there is no {}; did you mean `{other}` ({})?",
                        file.display(),
                        shown(other)
                    ),
                ));
            }
        }
        Ok(())
    }

    fn check_faults(&self, f: RawFaults) -> Result<Faults> {
        for (key, rate) in [
            ("bit_flip", f.bit_flip),
            ("drop", f.drop),
            ("lost_credits", f.lost_credits),
        ] {
            if !(0.0..=1.0).contains(&rate) {
                return Err(self.error(
                    ScenarioErrorKind::Reference,
                    format!("faults.{key}"),
                    format!("{rate} is not a probability (0 to 1 per word)"),
                ));
            }
        }
        if f.bit_flip + f.drop + f.lost_credits >= 1.0 {
            return Err(self.error(
                ScenarioErrorKind::Reference,
                "faults".into(),
                "bit_flip + drop + lost_credits reach 1: no word would ever cross the link".into(),
            ));
        }
        if f.link_down.len() > MAX_LINK_DOWN {
            return Err(self.error(
                ScenarioErrorKind::Reference,
                "faults.link_down".into(),
                format!(
                    "{} spells; a scenario has at most {MAX_LINK_DOWN}",
                    f.link_down.len()
                ),
            ));
        }
        let mut link_down = Vec::new();
        for (i, d) in f.link_down.iter().enumerate() {
            if d.cycles == Some(0) || d.at.checked_add(d.cycles.unwrap_or(0)).is_none() {
                return Err(self.error(
                    ScenarioErrorKind::Reference,
                    format!("faults.link_down[{i}].cycles"),
                    "a spell lasts at least one cycle and ends within 2^64 cycles (leave `cycles` \
                     out for a link that stays down)"
                        .into(),
                ));
            }
            link_down.push(LinkDown {
                at: d.at,
                cycles: d.cycles,
            });
        }
        Ok(Faults {
            bit_flip: f.bit_flip,
            drop: f.drop,
            lost_credits: f.lost_credits,
            link_down,
        })
    }

    /// An error at `key` of this file, with the key's line.
    pub fn error(
        &self,
        kind: ScenarioErrorKind,
        key: String,
        message: String,
    ) -> Box<ScenarioError> {
        Box::new(ScenarioError {
            kind,
            at: Location {
                file: self.path.clone(),
                line: self.index.line_of(&key),
                key,
            },
            message,
        })
    }

    fn model_error(&self, leg: Option<usize>, e: ModelError) -> Box<ScenarioError> {
        let key = match leg {
            None => match &e {
                ModelError::Topology(m) if m.contains("ring_len") => "ring_len".to_string(),
                _ => "packages".to_string(),
            },
            Some(i) => {
                let l = &self.legs[i];
                let field = match &e {
                    ModelError::UnknownCore(c) if *c == l.tx => "tx",
                    ModelError::UnknownCore(_) => "rx",
                    ModelError::PartitionsOutOfRange { .. } => "partitions",
                    ModelError::UnevenSplit { .. } => "partitions",
                    // A length that alone exceeds what a partition backs is the length's fault,
                    // whatever the offset.
                    ModelError::OutsideSbufBacking { len, backing, .. } if len > backing => {
                        "free_dim_bytes"
                    }
                    ModelError::OutsideSbufBacking { which, .. } if *which == "source" => {
                        "src_addr"
                    }
                    ModelError::OutsideSbufBacking { .. } => "dst_addr",
                    ModelError::MissingEngine { .. } => "dma_engine_mask",
                    ModelError::QueueOutOfRange { .. } => "queue",
                    ModelError::SemOutOfRange { sem, .. } if *sem == l.local_sem => "local_sem",
                    ModelError::SemOutOfRange { sem, .. } if *sem == l.remote_sem => "remote_sem",
                    ModelError::SemOutOfRange { .. } => "go_sem",
                    ModelError::Unroutable { .. } => "rx",
                    ModelError::Impossible(m) if m.contains("free_dim_bytes") => "free_dim_bytes",
                    ModelError::Impossible(m) if m.contains("dma_engine_mask") => "dma_engine_mask",
                    ModelError::Impossible(m) if m.contains("go_sem") => "go_sem",
                    ModelError::RingFull { .. } => "partitions",
                    _ => "",
                };
                if field.is_empty() {
                    format!("legs[{i}]")
                } else {
                    format!("legs[{i}].{field}")
                }
            }
        };
        // A compiled leg's problem is the collective's: name the key the user wrote.
        let key = match (&self.collective, leg) {
            (Some(_), Some(_)) => match &e {
                ModelError::PartitionsOutOfRange { .. } | ModelError::RingFull { .. } => {
                    "collective.partitions"
                }
                ModelError::OutsideSbufBacking { .. } => "collective.bytes_per_rank",
                ModelError::MissingEngine { .. } => "collective.engines",
                ModelError::SemOutOfRange { .. } => "collective.sem_base",
                ModelError::UnknownCore(_) | ModelError::QueueOutOfRange { .. } => {
                    "collective.ranks"
                }
                _ => "collective",
            }
            .to_string(),
            _ => key,
        };
        let message = match leg {
            Some(i) if self.collective.is_some() => {
                format!("collective leg `{}`: {e}", self.legs[i].name)
            }
            Some(i) => format!("leg `{}`: {e}", self.legs[i].name),
            None => e.to_string(),
        };
        self.error(ScenarioErrorKind::Model(e), key, message)
    }

    /// A collective against the system and the die, before any model state is made: every
    /// error names the key of `collective:` at fault (a rank's chip or core, the engines, the
    /// partitions, the buffer's size or offset, the queues and semaphores the ranks of one die
    /// need).
    fn check_collective_fit(
        &self,
        c: &crate::collective::Collective,
        topology: &Topology,
        csrs: &Csrs,
    ) -> Result<()> {
        let v = &csrs.views;
        let p = &v.params;
        let fail = |key: String, message: String| {
            Err(self.error(
                ScenarioErrorKind::Reference,
                format!("collective.{key}"),
                message,
            ))
        };
        for (i, r) in c.ranks.iter().enumerate() {
            if !topology.chips.contains(&r.chip) {
                let chips: Vec<String> = topology.chips.iter().map(|c| format!("{c:#x}")).collect();
                let shown = if chips.len() > 8 {
                    format!("{}, ...", chips[..8].join(", "))
                } else {
                    chips.join(", ")
                };
                return fail(
                    format!("ranks[{i}].chip"),
                    format!(
                        "rank {i} is on chip {:#x}, which the system does not have (its chips: \
                         {shown})",
                        r.chip
                    ),
                );
            }
            if r.id >= topology.cores_per_package {
                return fail(
                    format!("ranks[{i}].core"),
                    format!(
                        "rank {i} is core {}; a package has cores 0..{}",
                        r.id, topology.cores_per_package
                    ),
                );
            }
        }
        let engines = v.engines();
        if c.engines > engines {
            return fail(
                "engines".into(),
                format!(
                    "{} engines per step; a die has {engines} SDMA engines",
                    c.engines
                ),
            );
        }
        if c.first_engine + c.engines > engines {
            return fail(
                "first_engine".into(),
                format!(
                    "engines {}..={} do not exist: a die has engines 0..={}",
                    c.first_engine,
                    c.first_engine + c.engines - 1,
                    engines - 1
                ),
            );
        }
        if c.partitions > p.sbuf_partitions {
            return fail(
                "partitions".into(),
                format!(
                    "{} partitions; the SBUF has {}",
                    c.partitions, p.sbuf_partitions
                ),
            );
        }
        // The buffer's bytes in each partition (all-to-all: input and output).
        let span = match c.kind {
            crate::collective::Kind::AllToAll => 2 * c.width(),
            _ => c.width(),
        };
        let backing = p.sbuf_backing_bytes;
        if span > backing {
            return fail(
                "bytes_per_rank".into(),
                format!(
                    "a rank's buffer takes {span:#x} bytes of each of its {} partitions; the \
                     SBUF backs {backing:#x} per partition (more partitions or fewer bytes)",
                    c.partitions
                ),
            );
        }
        if c.offset + span > backing {
            return fail(
                "offset".into(),
                format!(
                    "the buffer [{:#x}, {:#x}) of every partition leaves the {backing:#x} bytes \
                     the SBUF backs per partition",
                    c.offset,
                    c.offset + span
                ),
            );
        }
        // Queues and semaphores the compiled legs use, per die: too many ranks on one die (or a
        // sem_base too high) run out of them.
        let queues = v.queues();
        let sems = v.sem_count();
        for (leg, role) in self.legs.iter().zip(&c.roles) {
            if leg.queue >= queues {
                let die = topology.die_of(leg.tx);
                let on_die = c
                    .ranks
                    .iter()
                    .filter(|&&r| topology.die_of(r) == die)
                    .count();
                return fail(
                    format!("ranks[{}]", role.from),
                    format!(
                        "{on_die} ranks share {die}, and {} needs queue {} for them; an engine \
                         has {queues} queues (put fewer ranks on one die)",
                        c.kind.name(),
                        leg.queue
                    ),
                );
            }
            let top = leg.local_sem.max(leg.remote_sem).max(leg.go_sem);
            if top >= sems {
                let key = if c.sem_base > 0 {
                    "sem_base".to_string()
                } else {
                    format!("ranks[{}]", role.from)
                };
                return fail(
                    key,
                    format!(
                        "the collective needs semaphore {top} (sem_base {} and up, one set per \
                         stream and rank of a die); a die has {sems} (a lower sem_base, fewer \
                         ranks per die or fewer engines)",
                        c.sem_base
                    ),
                );
            }
        }
        Ok(())
    }

    /// Every leg's size against the SBUF, and all legs together against `MAX_SCENARIO_BYTES`,
    /// before the source data is made: the fills allocate `partitions * free_dim_bytes` bytes
    /// per leg, and the model would refuse an oversized leg only after that. Same errors as the
    /// model's own geometry check.
    fn check_sizes(&self, csrs: &Csrs) -> Result<()> {
        let p = &csrs.views.params;
        let mut total: u64 = 0;
        for (i, l) in self.legs.iter().enumerate() {
            let me = |e| self.model_error(Some(i), e);
            if l.partitions == 0 || l.partitions > p.sbuf_partitions {
                return Err(me(ModelError::PartitionsOutOfRange {
                    partitions: l.partitions,
                    max: p.sbuf_partitions,
                }));
            }
            for (which, off) in [("source", l.src_addr), ("destination", l.dst_addr)] {
                if off
                    .checked_add(l.free_dim_bytes)
                    .is_none_or(|e| e > p.sbuf_backing_bytes)
                {
                    return Err(me(ModelError::OutsideSbufBacking {
                        which,
                        offset: off,
                        len: l.free_dim_bytes,
                        backing: p.sbuf_backing_bytes,
                    }));
                }
            }
            total = total.saturating_add(l.bytes());
            if total > MAX_SCENARIO_BYTES {
                let key = match self.collective {
                    Some(_) => "collective.bytes_per_rank".to_string(),
                    None => format!("legs[{i}].partitions"),
                };
                return Err(self.error(
                    ScenarioErrorKind::Reference,
                    key,
                    format!(
                        "the legs up to `{}` move {total:#x} bytes; a scenario moves at most \
                         {MAX_SCENARIO_BYTES:#x} (the model holds every byte in memory)",
                        l.name
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The ring length of the run: the file's `ring_len`, or for a collective the smallest
    /// power of two (at least the default) that holds every leg of the busiest ring at once
    /// (the model writes every gen before the engines run).
    fn ring_len_for(&self, csrs: &Csrs) -> u64 {
        let default = Config::default().ring_len;
        if self.ring_len_given || self.collective.is_none() {
            return self.ring_len;
        }
        let max_len = csrs.views.ring.max_len_code.max(1);
        let mut per_ring: std::collections::BTreeMap<(u64, u64, u64, u64), u64> =
            std::collections::BTreeMap::new();
        for l in &self.legs {
            let n = l.n_engines().max(1);
            let entries = l.partitions / n * l.free_dim_bytes.div_ceil(max_len) + 2;
            for e in (0..64).filter(|e| (l.dma_engine_mask >> e) & 1 == 1) {
                let die = Topology::package(l.tx.chip).die_of(l.tx);
                *per_ring.entry((die.chip, die.die, e, l.queue)).or_default() += entries;
            }
        }
        let need = per_ring.values().copied().max().unwrap_or(0);
        need.next_power_of_two().max(default)
    }

    /// Every rank's buffer against the collective's result in the model's arithmetic.
    fn check_collective(
        &self,
        c: &crate::collective::Collective,
        sys: &System,
        seed: u64,
    ) -> Result<()> {
        for (r, p, off, want) in c.expected(seed) {
            let die = sys.die_of(c.ranks[r]);
            let tpb = sys.topology.tpb_of(c.ranks[r]);
            let got = sys.read_local(die, sys.layout.sbuf_addr(tpb, p, off), want.len() as u64);
            if let Some(b) = (0..want.len()).find(|&b| got[b] != want[b]) {
                let lane = b / 4 * 4;
                let word =
                    |v: &[u8]| u32::from_le_bytes([v[lane], v[lane + 1], v[lane + 2], v[lane + 3]]);
                return Err(self.error(
                    ScenarioErrorKind::Model(ModelError::Stalled("collective result".into())),
                    "collective".into(),
                    format!(
                        "{} result wrong: rank {r} ({}), partition {p}, byte {:#x}: lane \
                         {:#010x}, expected {:#010x}",
                        c.kind.name(),
                        c.ranks[r],
                        off + lane as u64,
                        word(&got),
                        word(&want)
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Whether leg `j` starts only after leg `i` finished: `j` follows `i` through a chain of
    /// `after` (its TX context waits for the remote_sem of the leg it names).
    fn chained_after(&self, j: usize, i: usize) -> bool {
        let mut at = self.legs[j].after;
        while let Some(k) = at {
            if k == i {
                return true;
            }
            // `after` names only earlier legs, so the walk ends.
            at = self.legs[k].after;
        }
        false
    }

    /// No semaphore is counted by two legs at once. A leg's local_sem and go_sem live on its TX
    /// die and its remote_sem on its RX die (the RX context stores go_sem into the TX die's
    /// EVT_SEM). Two legs run at the same time unless one is chained after the other, and then
    /// only what the chain consumed may be used again: the earlier leg's go_sem (its own TX took
    /// it) and remote_sem (the wait of the chain took it), never its local_sem, which stays at
    /// its target. The later leg's go_sem is raised at the start of the run (its RX side waits
    /// for nothing), so it may be no semaphore of the earlier leg. A leg's own three differ.
    ///
    /// At most one leg names a given leg in `after`: each follower's wait_ge_and_dec takes the
    /// whole count the leg's engines add to its remote_sem (one increment per engine), so a
    /// second follower would wait for increments the first already took and never start.
    /// Two legs that follow different legs, or one that follows the other, are fine.
    fn check_semaphores(&self, sys: &System) -> Result<()> {
        for (j, lj) in self.legs.iter().enumerate() {
            let Some(a) = lj.after else { continue };
            if let Some(i) = self.legs[..j].iter().position(|l| l.after == Some(a)) {
                let prev = &self.legs[a];
                return Err(self.error(
                    ScenarioErrorKind::SharedSemaphore,
                    format!("legs[{j}].after"),
                    format!(
                        "leg `{}` follows `{}`, which leg `{}` already follows (legs[{i}].after): \
                         both would wait for semaphore {} of {} to reach {} and take those {} \
                         increments, which come once, so one of them would never start; chain \
                         `{}` after `{}` instead",
                        lj.name,
                        prev.name,
                        self.legs[i].name,
                        prev.remote_sem,
                        sys.die_of(prev.rx),
                        prev.n_engines(),
                        prev.n_engines(),
                        lj.name,
                        self.legs[i].name
                    ),
                ));
            }
        }
        let uses = |l: &LegSpec| {
            let (tx, rx) = (sys.die_of(l.tx), sys.die_of(l.rx));
            [
                ("local_sem", tx, l.local_sem),
                ("remote_sem", rx, l.remote_sem),
                ("go_sem", tx, l.go_sem),
            ]
        };
        // Only legs that share a semaphore with leg j can conflict with it.
        let mut by_sem: std::collections::BTreeMap<(DieId, u64), Vec<usize>> =
            std::collections::BTreeMap::new();
        for (i, l) in self.legs.iter().enumerate() {
            for (_, d, s) in uses(l) {
                let v = by_sem.entry((d, s)).or_default();
                if v.last() != Some(&i) {
                    v.push(i);
                }
            }
        }
        for (j, lj) in self.legs.iter().enumerate() {
            let mine = uses(lj);
            for (a, &(fa, da, sa)) in mine.iter().enumerate() {
                if let Some(&(fb, ..)) = mine[..a].iter().find(|&&(_, d, s)| (d, s) == (da, sa)) {
                    return Err(self.error(
                        ScenarioErrorKind::SharedSemaphore,
                        format!("legs[{j}].{fa}"),
                        format!(
                            "leg `{}` uses semaphore {sa} of {da} as both {fb} and {fa}: \
                             give each its own",
                            lj.name
                        ),
                    ));
                }
            }
            let mut sharing: Vec<usize> = mine
                .iter()
                .flat_map(|&(_, d, s)| by_sem[&(d, s)].iter().copied().filter(|&i| i < j))
                .collect();
            sharing.sort_unstable();
            sharing.dedup();
            for i in sharing {
                let li = &self.legs[i];
                let stream = same_stream(li, lj);
                let mut chained_memo = None;
                let mut chained = || *chained_memo.get_or_insert_with(|| self.chained_after(j, i));
                for &(fj, dj, sj) in &mine {
                    for &(fi, di, si) in &uses(li) {
                        if (di, si) != (dj, sj)
                            || (stream && fi == fj)
                            || (chained() && fj != "go_sem" && fi != "local_sem")
                        {
                            continue;
                        }
                        let chained = chained();
                        let why = match (chained, fj) {
                            (false, _) if fi == fj => {
                                "the two run at the same time and are not one stream (a stream: \
                                 same TX and RX core, same queue, the same single engine; chain \
                                 them with `after` or make them one stream)"
                                    .to_string()
                            }
                            (false, _) => {
                                "the two run at the same time (chain them with `after`)".to_string()
                            }
                            (true, "go_sem") => {
                                "its go_sem is raised at the start of the run, chain or not".into()
                            }
                            (true, _) => format!(
                                "it follows `{}`, but nothing consumes that local_sem",
                                li.name
                            ),
                        };
                        return Err(self.error(
                            ScenarioErrorKind::SharedSemaphore,
                            format!("legs[{j}].{fj}"),
                            format!(
                                "leg `{}` counts semaphore {sj} of {dj} as its {fj}, which leg \
                                 `{}` counts as its {fi} (legs[{i}].{fi}); {why}: the semaphore \
                                 would reach its target early and end above it",
                                lj.name, li.name
                            ),
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    /// A remote_sem several legs count into (a stream's, see [`same_stream`]) is taken by
    /// waits in the order the increments come: one context does all the waits on it, and its
    /// k-th wait follows the k-th leg counting into it. (Legs that reuse a semaphore after a
    /// chain consumed it, one after the other, are the older case and need nothing more.)
    fn check_stream_waits(&self, sys: &System) -> Result<()> {
        let mut groups: std::collections::BTreeMap<(DieId, u64), Vec<usize>> =
            std::collections::BTreeMap::new();
        for (i, l) in self.legs.iter().enumerate() {
            groups
                .entry((sys.die_of(l.rx), l.remote_sem))
                .or_default()
                .push(i);
        }
        for ((die, sem), members) in groups {
            if members.len() < 2 || members.windows(2).all(|w| self.chained_after(w[1], w[0])) {
                continue;
            }
            let followers: Vec<(usize, usize)> = self
                .legs
                .iter()
                .enumerate()
                .filter_map(|(j, l)| {
                    let a = l.after?;
                    members.iter().position(|&m| m == a).map(|k| (j, k))
                })
                .collect();
            for (k, &(j, pos)) in followers.iter().enumerate() {
                let (first, _) = followers[0];
                if self.legs[j].tx != self.legs[first].tx {
                    return Err(self.error(
                        ScenarioErrorKind::SharedSemaphore,
                        format!("legs[{j}].after"),
                        format!(
                            "leg `{}` and leg `{}` both wait on semaphore {sem} of {die}, which \
                             several legs count into, from different cores ({} and {}): one \
                             context must take all of a shared semaphore's increments, in order",
                            self.legs[j].name,
                            self.legs[first].name,
                            self.legs[j].tx,
                            self.legs[first].tx
                        ),
                    ));
                }
                if pos != k {
                    let m = members[k.min(members.len() - 1)];
                    return Err(self.error(
                        ScenarioErrorKind::SharedSemaphore,
                        format!("legs[{j}].after"),
                        format!(
                            "leg `{}` follows `{}`, leg {pos} of those counting into semaphore \
                             {sem} of {die}, but it is wait {k} on that semaphore: waits take a \
                             shared semaphore's increments in the order they land, so wait {k} \
                             would be satisfied by leg `{}` (follow the legs in their order, \
                             skipping none)",
                            self.legs[j].name, self.legs[members[pos]].name, self.legs[m].name
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The system of a scenario that lists its packages (a scenario naming a topology gets
    /// the topology's, see [`Scenario::mesh`]).
    pub fn topology(&self) -> Topology {
        let t = Topology::packages(&self.packages);
        match self.view {
            Some(v) => t.with_view(v),
            None => t,
        }
    }

    /// The topology the scenario names, loaded and checked against the die of `csrs` (its
    /// errors name the topology file; the scenario's `topology` key is where it came from).
    pub fn mesh(&self, csrs: &Csrs) -> Result<Option<crate::mesh::Mesh>> {
        let Some((name, path)) = &self.topology else {
            return Ok(None);
        };
        crate::mesh::load(path, &crate::Layout::new(csrs))
            .map(Some)
            .map_err(|e| {
                self.error(
                    ScenarioErrorKind::Reference,
                    "topology".into(),
                    format!("topology `{name}`: {e}"),
                )
            })
    }

    /// The source bytes of every leg, skipping legs whose source is an earlier leg's
    /// destination on the same die (a chain forwards what arrived; its bytes come from the run).
    pub fn fills(&self, sys: &System, seed: u64) -> Vec<Fill> {
        if let Some(c) = &self.collective {
            return c.fills(seed);
        }
        let mut out = Vec::new();
        for (i, l) in self.legs.iter().enumerate() {
            let die = sys.die_of(l.tx);
            let tpb = sys.topology.tpb_of(l.tx);
            let fed = self.legs[..i].iter().any(|p| {
                p.rx == l.tx
                    && p.dst_addr < l.src_addr + l.free_dim_bytes
                    && l.src_addr < p.dst_addr + p.free_dim_bytes
                    && p.partitions > 0
            });
            if fed {
                continue;
            }
            for p in 0..l.partitions {
                out.push(Fill {
                    die,
                    tpb,
                    partition: p,
                    offset: l.src_addr,
                    bytes: pattern(seed, die, tpb, p, l.src_addr, l.free_dim_bytes),
                });
            }
        }
        out
    }

    /// Runs every leg on the golden model: fills, then per leg (in file order) the chain wait,
    /// both gens and both starts (RX first), then the engines to completion; checks every leg's
    /// invariants on the model's own log.
    pub fn run_model(&self, csrs: &Csrs, seed: u64) -> Result<ModelRun> {
        let mesh = self.mesh(csrs)?;
        let topology = match &mesh {
            Some(m) => m.topology(),
            None => self.topology(),
        };
        if let Some(c) = &self.collective {
            self.check_collective_fit(c, &topology, csrs)?;
        }
        let ring_len = self.ring_len_for(csrs);
        let mut sys = System::with_config(csrs, topology, Config { ring_len }).map_err(|e| {
            if self.collective.is_some() && !self.ring_len_given {
                self.error(
                    ScenarioErrorKind::Model(e.clone()),
                    "collective.partitions".into(),
                    format!(
                        "the collective's busiest ring must hold {ring_len} descriptors at once \
                         (the model writes every leg's before the engines run): {e}; give fewer \
                         partitions, steps or bigger chunks per descriptor"
                    ),
                )
            } else {
                self.model_error(None, e)
            }
        })?;
        if let Some(m) = mesh.as_ref().filter(|m| m.view == AddrView::ChipId) {
            // Stores travel hop by hop through the tables the driver programs.
            let tables = crate::mesh::routes::RouteTables::compute(m);
            let f = crate::mesh::fabric::Fabric::new(m, &tables, &sys.layout);
            sys.set_fabric(f);
        }
        for (i, l) in self.legs.iter().enumerate() {
            for core in [l.tx, l.rx] {
                sys.topology
                    .check_core(core)
                    .map_err(|e| self.model_error(Some(i), e))?;
            }
        }
        self.check_sizes(csrs)?;
        self.check_semaphores(&sys)?;
        self.check_stream_waits(&sys)?;
        let fills = self.fills(&sys, seed);
        for f in &fills {
            sys.fill_sbuf(f.die, f.tpb, f.partition, f.offset, &f.bytes)
                .map_err(|e| self.model_error(None, e))?;
        }
        let mut legs = Vec::new();
        for (i, l) in self.legs.iter().enumerate() {
            let me = |e| self.model_error(Some(i), e);
            if let Some(j) = l.after {
                let prev = &self.legs[j];
                // A context waits on its own core's EVT_SEM (its sequencer slot's).
                if prev.rx != l.tx {
                    return Err(self.error(
                        ScenarioErrorKind::Reference,
                        format!("legs[{i}].after"),
                        format!(
                            "leg `{}` waits on the remote_sem of `{}`, which lives in the EVT_SEM \
                             of {}; a context waits on its own core's only, and its TX core is {}",
                            l.name, prev.name, prev.rx, l.tx
                        ),
                    ));
                }
                sys.wait_ge_and_dec(l.tx, Lane::Tx, prev.remote_sem, prev.n_engines())
                    .map_err(me)?;
            }
            let codes = sys.layout.acc_codes;
            let tx_gen = sys.gen(l.tx, &l.gen_word(Lane::Tx, &codes)).map_err(me)?;
            let rx_gen = sys.gen(l.rx, &l.gen_word(Lane::Rx, &codes)).map_err(me)?;
            let rx_start = sys
                .start(
                    l.rx,
                    l.rx.prid(Lane::Rx),
                    &l.start_word(Lane::Rx, rx_gen.num_descriptors),
                )
                .map_err(me)?;
            let tx_start = sys
                .start(
                    l.tx,
                    l.tx.prid(Lane::Tx),
                    &l.start_word(Lane::Tx, tx_gen.num_descriptors),
                )
                .map_err(me)?;
            let id = tx_gen.leg;
            legs.push(LegRun {
                tx_die: sys.die_of(l.tx),
                rx_die: sys.die_of(l.rx),
                tx_tpb: sys.topology.tpb_of(l.tx),
                rx_tpb: sys.topology.tpb_of(l.rx),
                reach: sys.leg_reach(id).unwrap_or(Reach::SameDie),
                dst_soc: rx_gen.dst_soc,
                tx_gen,
                rx_gen,
                rx_start,
                tx_start,
            });
        }
        sys.run_to_completion().map_err(|e| {
            let key = "legs".to_string();
            self.error(ScenarioErrorKind::Model(e.clone()), key, e.to_string())
        })?;
        if let Some(c) = &self.collective {
            self.check_collective(c, &sys, seed)?;
        }
        let writes = landed(sys.events());
        for (i, run) in legs.iter().enumerate() {
            if let Some(expect) = sys.leg_expect(run.tx_gen.leg) {
                check_leg(&writes, &expect).map_err(|v| {
                    self.error(
                        ScenarioErrorKind::Model(ModelError::Stalled(v.to_string())),
                        format!("legs[{i}]"),
                        format!("the model breaks an invariant: {v}"),
                    )
                })?;
            }
        }
        Ok(ModelRun {
            mesh,
            sys,
            legs,
            fills,
        })
    }
}
