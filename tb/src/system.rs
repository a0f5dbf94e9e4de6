//! A system of dies composed at run time: one model of `xdie_die_node` (a die with its ends of
//! its links, rtl/sim/xdie_die_node.sv) per die of a topology, and the links' wires in software.
//! Any topology file runs with no model of its own: the dies are N instances of one model.
//!
//! **Wires.** Each link carries, per direction, a request and a response channel, and each
//! channel two wires: the flit wire (sender to receiver) and the DLLP wire (acknowledgements and
//! credits back). The die node's wire ports are the wires' ends; a word a die drives in cycle t
//! enters the peer in cycle t + delay: LATENCY - 2 for a flit (the receiver's input register is
//! the link's last stage, inside the node) and LATENCY - 1 for a DLLP, exactly as
//! `xdie_d2d_wire` delays them in the two-die link. A DLLP is sent every cycle and mostly
//! repeats itself: only changes travel, and the receiving port holds the last word.
//!
//! **Parallel and deterministic.** No wire output of a node depends on a wire input in the same
//! cycle, so a die needs nothing from its peers for the next `min(delay)` cycles (the lookahead):
//! every die advances that many cycles on its own, on a thread pool, then the words each drove
//! are delivered (conservative parallel simulation with a fixed lookahead, as FireSim's and
//! SST's links do). A die's run in a window reads only its own model and the words delivered
//! before the window, and the words are delivered in die order afterwards, so every cycle of
//! every die is the same for any thread count and any scheduling.
//!
//! Host accesses need a cycle-by-cycle exchange with one die; [`System::clk_low`] and
//! [`System::clk_high`] clock every die one cycle (in order, on the calling thread) for that.

use crate::duts::DutKind;
use crate::sim::{Clocked, Port, Sim, SimError};
use std::collections::VecDeque;
use std::fmt;
use std::path::{Path, PathBuf};
use xdie_model::AddrView;

/// The module every die of a composed system is an instance of.
pub const NODE: &str = "xdie_die_node";

/// The model of [`NODE`] built for the neighbor view (tb/build.rs builds the module once per
/// address view; both models have the module's scopes, `TOP.xdie_die_node...`).
pub const NODE_NEIGHBOR: &str = "xdie_die_node_neighbor";

/// Longest wire word the system carries, in 32-bit words (a flit of a 64-byte beat is 22).
const MAX_WORDS: usize = 32;

/// The four wires of a link end, by the node's port names (`<name>_o` leaves, `<name>_i`
/// arrives; `<name>_valid_o/_i` are their strobes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Wire {
    ReqFlit,
    RspFlit,
    ReqDllp,
    RspDllp,
}

impl Wire {
    const ALL: [Wire; 4] = [Wire::ReqFlit, Wire::RspFlit, Wire::ReqDllp, Wire::RspDllp];

    fn name(self) -> &'static str {
        match self {
            Wire::ReqFlit => "req_flit",
            Wire::RspFlit => "rsp_flit",
            Wire::ReqDllp => "req_dllp",
            Wire::RspDllp => "rsp_dllp",
        }
    }

    fn is_flit(self) -> bool {
        matches!(self, Wire::ReqFlit | Wire::RspFlit)
    }

    /// Cycles a word takes to the peer over a link of `latency` (see the module comment).
    fn delay(self, latency: u64) -> u64 {
        if self.is_flit() {
            latency - 2
        } else {
            latency - 1
        }
    }
}

/// One wire word: its bits, least significant word first.
type Word = [u32; MAX_WORDS];

/// Why a system cannot be composed.
#[derive(Debug)]
pub enum SystemError {
    /// This build has no die node model for the view.
    NoModel(AddrView),
    Sim(SimError),
    /// The topology asks for something the die node cannot be, or a die cannot be set up.
    Topology(String),
}

impl fmt::Display for SystemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SystemError::NoModel(v) => write!(
                f,
                "this build has no model of {NODE} for the {v} view ({})",
                node_name(*v)
            ),
            SystemError::Sim(e) => write!(f, "{e}"),
            SystemError::Topology(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for SystemError {}

impl From<SimError> for SystemError {
    fn from(e: SimError) -> Self {
        SystemError::Sim(e)
    }
}

/// A die of the system and the link it has on one of its ports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinkEnd {
    /// Die (index in the system) and C2C port.
    pub die: usize,
    pub port: u32,
}

/// A link between two ports, with its latency in cycles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SysLink {
    pub a: LinkEnd,
    pub b: LinkEnd,
    pub latency: u64,
}

/// What the system is made of: per die its identity, and the links.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The address view the dies' decoders are built for (picks the node model).
    pub view: AddrView,
    /// (CAYMAN_ID, DIE) of each die, in host-port order.
    pub dies: Vec<(u64, u64)>,
    pub links: Vec<SysLink>,
}

/// Where one wire's ends sit in the node's ports.
#[derive(Debug, Clone, Copy)]
struct WirePorts {
    valid_out: Port,
    data_out: Port,
    valid_in: Port,
    data_in: Port,
    /// Bits of one port's word.
    width: usize,
}

/// Words arriving on one wire of one port, due cycle first.
#[derive(Debug)]
struct Inbound {
    port: u32,
    wire: Wire,
    queue: VecDeque<(u64, Word)>,
    /// A flit was presented last cycle (its strobe must fall).
    shown: bool,
}

/// Words leaving on one wire of one port.
#[derive(Debug)]
struct Outbound {
    port: u32,
    wire: Wire,
    /// Where they go: die, that die's inbound index, delay.
    to: (usize, usize, u64),
    /// The last DLLP sent (DLLPs travel only when they change); none since reset yet.
    last: Option<Word>,
}

/// A die's host driver inside the windows of [`System::run_agents`]: it sees only its die.
pub trait DieAgent: Send {
    /// Whether the die must wait before cycle `t` (its driver needs the coordinator first).
    fn must_stop(&mut self, t: u64) -> bool;
    /// Before cycle `t`'s falling edge: set the host inputs.
    fn drive(&mut self, t: u64);
    /// After the falling edge of cycle `t`: sample the host outputs.
    fn sample(&mut self, t: u64);
}

/// One die: its model and its link ends.
pub struct Node {
    pub sim: Sim,
    /// The next cycle this die runs (all dies agree outside [`System::run_agents`]).
    now: u64,
    inbound: Vec<Inbound>,
    outbound: Vec<Outbound>,
    /// Words driven this window: (cycle, outbound index, word).
    sent: Vec<(u64, usize, Word)>,
}

/// A system of die nodes and their links.
pub struct System {
    nodes: Vec<Node>,
    wires: [WirePorts; 4],
    /// Cycles every die may run ahead of its peers' words (the smallest wire delay).
    lookahead: u64,
    /// Clock cycles since the system was created.
    cycle: u64,
    /// Whether the dies are held in reset (their wires carry nothing then, as a reset wire).
    in_reset: bool,
    pool: Option<rayon::ThreadPool>,
    threads: usize,
}

/// The die node's model in this build (the chip-id view's).
pub fn node_kind() -> Option<DutKind> {
    node_kind_for(AddrView::ChipId)
}

/// The die node's model built for `view`, in this build.
pub fn node_kind_for(view: AddrView) -> Option<DutKind> {
    let name = node_name(view);
    DutKind::ALL.iter().copied().find(|k| k.name() == name)
}

/// The name of the die node's model built for `view`.
pub fn node_name(view: AddrView) -> &'static str {
    match view {
        AddrView::ChipId => NODE,
        AddrView::Neighbor => NODE_NEIGHBOR,
    }
}

/// Threads of a system run when none are asked for: the machine's cores.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Bits `[lsb, lsb + width)` of `src` into `dst` (from bit 0), a word at a time.
fn get_field(src: &[u32], lsb: usize, width: usize, dst: &mut Word) {
    dst.fill(0);
    let (base, sh) = (lsb / 32, lsb % 32);
    for (i, d) in dst.iter_mut().enumerate().take(width.div_ceil(32)) {
        let lo = src[base + i] >> sh;
        let hi = if sh == 0 {
            0
        } else {
            src.get(base + i + 1).map_or(0, |w| w << (32 - sh))
        };
        *d = lo | hi;
    }
    if !width.is_multiple_of(32) {
        dst[width / 32] &= (1 << (width % 32)) - 1;
    }
}

/// `src`'s low `width` bits into bits `[lsb, lsb + width)` of `dst`, the other bits unchanged.
fn set_field(dst: &mut [u32], lsb: usize, width: usize, src: &Word) {
    let mut done = 0;
    while done < width {
        let b = lsb + done;
        let (at, sh) = (b / 32, b % 32);
        let n = (32 - sh).min(width - done);
        // The n source bits from bit `done` on.
        let (w, s) = (done / 32, done % 32);
        let mut bits = src[w] >> s;
        if s != 0 && w + 1 < MAX_WORDS {
            bits |= src[w + 1] << (32 - s);
        }
        let mask = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        dst[at] = (dst[at] & !(mask << sh)) | ((bits & mask) << sh);
        done += n;
    }
}

impl Node {
    /// Presents the words due in cycle `t` on the node's wire inputs.
    fn arrive(&mut self, t: u64, wires: &[WirePorts; 4]) {
        for inb in &mut self.inbound {
            let w = &wires[inb.wire as usize];
            let due = inb.queue.front().is_some_and(|(at, _)| *at == t);
            let c = inb.port as usize;
            if due {
                let (_, word) = inb.queue.pop_front().expect("due word");
                let (ptr, n) = self.sim.words_ptr(w.data_in);
                // SAFETY: the port's words inside the live model; no other reference to them.
                let data = unsafe { std::slice::from_raw_parts_mut(ptr, n) };
                set_field(data, c * w.width, w.width, &word);
                let valid = self.sim.get_u64(w.valid_in) | 1 << c;
                self.sim.set_u64(w.valid_in, valid);
                inb.shown = true;
            } else if inb.shown && inb.wire.is_flit() {
                let valid = self.sim.get_u64(w.valid_in) & !(1 << c);
                self.sim.set_u64(w.valid_in, valid);
                inb.shown = false;
            }
        }
    }

    /// Takes the words the node drives in cycle `t` (after the falling edge's evaluation).
    fn leave(&mut self, t: u64, wires: &[WirePorts; 4]) {
        for (k, out) in self.outbound.iter_mut().enumerate() {
            let w = &wires[out.wire as usize];
            let c = out.port as usize;
            let valid = self.sim.get_u64(w.valid_out) >> c & 1 != 0;
            if out.wire.is_flit() && !valid {
                continue;
            }
            let (ptr, n) = self.sim.words_ptr(w.data_out);
            // SAFETY: the port's words inside the live model, read only.
            let data = unsafe { std::slice::from_raw_parts(ptr as *const u32, n) };
            let mut word = [0u32; MAX_WORDS];
            get_field(data, c * w.width, w.width, &mut word);
            if !out.wire.is_flit() {
                // Only a changed DLLP travels; an invalid one never does (the strobe stays).
                if !valid || out.last == Some(word) {
                    continue;
                }
                out.last = Some(word);
            }
            self.sent.push((t, k, word));
        }
    }

    /// Cycle `t`'s falling edge: the words due are presented, the model evaluates, and (out of
    /// reset, when the wires carry words) what it drives is taken.
    fn falling(&mut self, t: u64, wires: &[WirePorts; 4], in_reset: bool) {
        self.arrive(t, wires);
        self.sim.clk_low();
        if !in_reset {
            self.leave(t, wires);
        }
    }

    /// Runs cycles `[t, t + n)` with every wire word due in them already delivered.
    fn run(&mut self, t: u64, n: u64, wires: &[WirePorts; 4], in_reset: bool) {
        for i in t..t + n {
            self.falling(i, wires, in_reset);
            self.sim.clk_high();
        }
        self.now = t + n;
    }

    /// Runs from its own time up to `end` with `agent` driving the host port, or until the
    /// agent asks to stop.
    fn run_agent<A: DieAgent>(&mut self, agent: &mut A, end: u64, wires: &[WirePorts; 4]) {
        while self.now < end {
            let t = self.now;
            if agent.must_stop(t) {
                return;
            }
            agent.drive(t);
            self.falling(t, wires, false);
            agent.sample(t);
            self.sim.clk_high();
            self.now = t + 1;
        }
    }

    /// The next cycle this die runs.
    pub fn now(&self) -> u64 {
        self.now
    }
}

impl System {
    /// Builds the dies of `plan` (one model each, traced to `<trace>.die<N>.fst` when `trace` is
    /// given) and joins their ports; `threads` dies run at once. `fresh` sees each model as soon
    /// as it is built (before the next one is). Nothing is clocked yet.
    pub fn new(
        plan: &Plan,
        threads: usize,
        trace: Option<&Path>,
        mut fresh: impl FnMut(&mut Sim) -> Result<(), String>,
    ) -> Result<System, SystemError> {
        let kind = node_kind_for(plan.view).ok_or(SystemError::NoModel(plan.view))?;
        let n = plan.dies.len();
        if n == 0 {
            return Err(SystemError::Topology(
                "a system needs at least one die".into(),
            ));
        }
        // The node's ports from its port table: the plan is checked before any model is built.
        let port = |name: &str| -> Result<Port, SystemError> {
            kind.ports()
                .iter()
                .position(|p| p.name == name)
                .map(|id| Port {
                    dut: kind,
                    id: id as u32,
                })
                .ok_or_else(|| {
                    SystemError::Sim(SimError::NoPort {
                        dut: kind.name(),
                        port: name.to_string(),
                    })
                })
        };
        let ports_per_die = port("linked_i")?.info().width;
        let wire = |w: Wire| -> Result<WirePorts, SystemError> {
            let data_out = port(&format!("{}_o", w.name()))?;
            let width = (data_out.info().width / ports_per_die) as usize;
            if width > 32 * MAX_WORDS {
                return Err(SystemError::Topology(format!(
                    "{NODE}'s {} words are {width} bits; the system carries at most {}",
                    w.name(),
                    32 * MAX_WORDS
                )));
            }
            Ok(WirePorts {
                valid_out: port(&format!("{}_valid_o", w.name()))?,
                data_out,
                valid_in: port(&format!("{}_valid_i", w.name()))?,
                data_in: port(&format!("{}_i", w.name()))?,
                width,
            })
        };
        let wires = [
            wire(Wire::ReqFlit)?,
            wire(Wire::RspFlit)?,
            wire(Wire::ReqDllp)?,
            wire(Wire::RspDllp)?,
        ];
        let mut lookahead = u64::MAX;
        let mut linked = vec![0u64; n];
        let mut inbound: Vec<Vec<Inbound>> = (0..n).map(|_| Vec::new()).collect();
        let mut outbound: Vec<Vec<Outbound>> = (0..n).map(|_| Vec::new()).collect();
        for (i, l) in plan.links.iter().enumerate() {
            for end in [l.a, l.b] {
                if end.die >= n || end.port >= ports_per_die {
                    return Err(SystemError::Topology(format!(
                        "links[{i}]: die {} port {} is not in the system ({n} dies of \
                         {ports_per_die} ports)",
                        end.die, end.port
                    )));
                }
                if linked[end.die] >> end.port & 1 != 0 {
                    return Err(SystemError::Topology(format!(
                        "links[{i}]: die {} port {} has a link already",
                        end.die, end.port
                    )));
                }
                linked[end.die] |= 1 << end.port;
            }
            // The flit wire needs a stage outside the node (the receiver's input register is
            // the last one inside), and a stage is what lets the dies run apart.
            if l.latency < 3 {
                return Err(SystemError::Topology(format!(
                    "links[{i}]: latency {} cycles; a composed system needs at least 3 (two \
                     stages are inside the dies, the rest is the wires' lookahead)",
                    l.latency
                )));
            }
            lookahead = lookahead.min(Wire::ReqFlit.delay(l.latency));
            for (from, to) in [(l.a, l.b), (l.b, l.a)] {
                for w in Wire::ALL {
                    outbound[from.die].push(Outbound {
                        port: from.port,
                        wire: w,
                        to: (to.die, inbound[to.die].len(), w.delay(l.latency)),
                        last: None,
                    });
                    inbound[to.die].push(Inbound {
                        port: to.port,
                        wire: w,
                        queue: VecDeque::new(),
                        shown: false,
                    });
                }
            }
        }
        let mut nodes = Vec::with_capacity(n);
        let ends = inbound.into_iter().zip(outbound);
        for (i, ((&(chip, die), &mask), (inbound, outbound))) in
            plan.dies.iter().zip(&linked).zip(ends).enumerate()
        {
            let mut sim = match trace {
                Some(p) => Sim::traced(kind, &die_trace(p, i))?,
                None => Sim::new(kind)?,
            };
            fresh(&mut sim).map_err(SystemError::Topology)?;
            sim.set_by_name("my_chip_i", chip)?;
            sim.set_by_name("my_die_i", die)?;
            sim.set_by_name("linked_i", mask)?;
            sim.set_by_name("tx_stall_i", 0)?;
            nodes.push(Node {
                sim,
                now: 0,
                inbound,
                outbound,
                sent: Vec::new(),
            });
        }
        let threads = threads.max(1);
        let pool = if threads > 1 && nodes.len() > 1 {
            Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .thread_name(|i| format!("xdie-die-{i}"))
                    .build()
                    .map_err(|e| SystemError::Topology(format!("cannot start threads: {e}")))?,
            )
        } else {
            None
        };
        Ok(System {
            nodes,
            wires,
            lookahead: if lookahead == u64::MAX {
                1 << 20
            } else {
                lookahead
            },
            cycle: 0,
            in_reset: false,
            pool,
            threads,
        })
    }

    /// Every die, by host port.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    pub fn node_mut(&mut self, die: usize) -> &mut Node {
        &mut self.nodes[die]
    }

    /// Threads the dies run on.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Cycles the dies run apart between two exchanges of wire words.
    pub fn lookahead(&self) -> u64 {
        self.lookahead
    }

    /// Clock cycles since the system was created.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// Delivers the words every die drove since the last delivery, in die order.
    fn deliver(&mut self) {
        for d in 0..self.nodes.len() {
            // Taken out and put back: the buffer keeps its capacity from window to window.
            let mut sent = std::mem::take(&mut self.nodes[d].sent);
            for (t, k, word) in sent.drain(..) {
                let (to, inbound, delay) = self.nodes[d].outbound[k].to;
                self.nodes[to].inbound[inbound]
                    .queue
                    .push_back((t + delay, word));
            }
            self.nodes[d].sent = sent;
        }
    }

    /// The end of the window that starts now: every die may run up to it on its own.
    pub fn window_end(&self) -> u64 {
        self.cycle + self.lookahead
    }

    /// Runs every die from its own time towards `end` (at most [`System::window_end`]), die `d`
    /// driven by `agents[d]`, the dies in parallel; returns when each has reached `end` or
    /// stopped where its agent asked. What the dies drive on their wires is delivered by
    /// [`System::close_window`], once all have reached `end`.
    pub fn run_agents<A: DieAgent>(&mut self, agents: &mut [A], end: u64) {
        assert!(
            end <= self.window_end(),
            "a window ends at most a lookahead ahead"
        );
        assert_eq!(agents.len(), self.nodes.len(), "one agent per die");
        let wires = self.wires;
        // After the first run of a window most dies are at its end already; a die or two that
        // go on after their contexts were resumed run here, without waking the pool.
        let behind = self.nodes.iter().filter(|n| n.now < end).count();
        match &self.pool {
            Some(pool) if behind > 1 => {
                let nodes = &mut self.nodes;
                pool.install(|| {
                    use rayon::prelude::*;
                    nodes
                        .par_iter_mut()
                        .zip(agents.par_iter_mut())
                        .filter(|(node, _)| node.now < end)
                        .for_each(|(node, agent)| node.run_agent(agent, end, &wires));
                });
            }
            _ => {
                for (node, agent) in self.nodes.iter_mut().zip(agents.iter_mut()) {
                    node.run_agent(agent, end, &wires);
                }
            }
        }
    }

    /// Ends the window at `end` (every die has run up to it): delivers the words they drove.
    pub fn close_window(&mut self, end: u64) {
        assert!(
            self.nodes.iter().all(|n| n.now == end),
            "every die reaches the window's end before it closes"
        );
        self.cycle = end;
        self.deliver();
    }

    /// Runs `n` clock cycles, every die on its own for up to the lookahead at a time, the dies
    /// in parallel.
    pub fn ticks(&mut self, n: u64) {
        let mut left = n;
        while left > 0 {
            let w = left.min(self.lookahead);
            let (t, wires, in_reset) = (self.cycle, self.wires, self.in_reset);
            match &self.pool {
                Some(pool) => {
                    let nodes = &mut self.nodes;
                    pool.install(|| {
                        use rayon::prelude::*;
                        nodes
                            .par_iter_mut()
                            .for_each(|node| node.run(t, w, &wires, in_reset));
                    });
                }
                None => {
                    for node in &mut self.nodes {
                        node.run(t, w, &wires, in_reset);
                    }
                }
            }
            self.cycle += w;
            self.deliver();
            left -= w;
        }
    }

    /// One clock cycle.
    pub fn tick(&mut self) {
        self.clk_low();
        self.clk_high();
    }

    /// Holds every die in reset for `cycles` cycles, then releases them all. Wires carry
    /// nothing during reset and start empty (as the link's wire stages, which reset clears).
    pub fn reset(&mut self, cycles: u64) {
        for node in &mut self.nodes {
            node.sim
                .set_by_name("rst_ni", 0)
                .expect("die node has rst_ni");
            for inb in &mut node.inbound {
                inb.queue.clear();
            }
            for out in &mut node.outbound {
                out.last = None;
            }
        }
        self.in_reset = true;
        self.ticks(cycles.max(1));
        self.in_reset = false;
        for node in &mut self.nodes {
            node.sim
                .set_by_name("rst_ni", 1)
                .expect("die node has rst_ni");
        }
    }

    /// Flushes and closes every die's trace; the first die's path.
    pub fn stop_trace(&mut self) -> Option<PathBuf> {
        let mut first = None;
        for node in &mut self.nodes {
            let p = node.sim.stop_trace();
            first = first.or(p);
        }
        first
    }

    /// Whether any die hit `$stop`, `$fatal` or `$finish`.
    pub fn got_error(&self) -> bool {
        self.nodes.iter().any(|n| n.sim.got_error())
    }
}

impl Clocked for System {
    /// Falling edge of every die, with this cycle's wire words presented first and the words
    /// they drive taken after.
    fn clk_low(&mut self) {
        let (t, wires, in_reset) = (self.cycle, self.wires, self.in_reset);
        for node in &mut self.nodes {
            node.falling(t, &wires, in_reset);
        }
    }

    /// Rising edge of every die; the words they drove are delivered.
    fn clk_high(&mut self) {
        for node in &mut self.nodes {
            node.sim.clk_high();
            node.now += 1;
        }
        self.cycle += 1;
        self.deliver();
    }
}

/// The trace file of die `i` of a system traced to `path`: `<stem>.die<i>.<ext>`.
pub fn die_trace(path: &Path, i: usize) -> PathBuf {
    let stem = path
        .file_stem()
        .map_or_else(|| "trace".into(), |s| s.to_string_lossy().into_owned());
    let ext = path
        .extension()
        .map_or_else(|| "fst".into(), |s| s.to_string_lossy().into_owned());
    path.with_file_name(format!("{stem}.die{i}.{ext}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time copies agree with a bit-by-bit copy for every alignment.
    #[test]
    fn fields_copy_like_bits_at_any_alignment() {
        let mut rng = crate::Rng::new(7);
        for lsb in 0..70 {
            for width in [1, 5, 31, 32, 33, 64, 95, 130] {
                let mut port: Vec<u32> = (0..8).map(|_| rng.next_u64() as u32).collect();
                let before = port.clone();
                let mut word = [0u32; MAX_WORDS];
                for w in word.iter_mut().take(8) {
                    *w = rng.next_u64() as u32;
                }
                set_field(&mut port, lsb, width, &word);
                let bit = |v: &[u32], i: usize| v[i / 32] >> (i % 32) & 1;
                for i in 0..256 {
                    let want = if i >= lsb && i < lsb + width {
                        bit(&word, i - lsb)
                    } else {
                        bit(&before, i)
                    };
                    assert_eq!(bit(&port, i), want, "set bit {i}, field [{lsb}, +{width})");
                }
                let mut back = [0u32; MAX_WORDS];
                get_field(&port, lsb, width, &mut back);
                for i in 0..32 * MAX_WORDS {
                    let want = if i < width { bit(&word, i) } else { 0 };
                    assert_eq!(bit(&back, i), want, "get bit {i}, field [{lsb}, +{width})");
                }
            }
        }
    }

    #[test]
    fn fields_round_trip_across_word_boundaries() {
        let mut port = [0xffff_ffffu32; 8];
        let mut word = [0u32; MAX_WORDS];
        word[0] = 0xdead_beef;
        word[1] = 0x5;
        set_field(&mut port, 29, 35, &word);
        let mut back = [0u32; MAX_WORDS];
        get_field(&port, 29, 35, &mut back);
        assert_eq!(back[0], 0xdead_beef);
        assert_eq!(back[1], 0x5);
        // The bits around the field are untouched.
        assert_eq!(port[0] & ((1 << 29) - 1), (1 << 29) - 1);
        assert_eq!(port[2], 0xffff_ffff);
    }
}
