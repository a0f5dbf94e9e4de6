//! The hand-written datapath blocks on the xbus: crossbar, memory, SBUF mapping, CSR bridge and
//! host port. Every test runs a cycle loop in which Rust models drive the DUT's ports (masters
//! with random gaps, slaves with random backpressure and response delays) and check what comes
//! out against a Rust model of memory. Widths and counts come from the DUT's port table or the
//! CSR model, never from numbers copied here.

use std::collections::{HashMap, VecDeque};
use xdie_csr::SemOp;
use xdie_tb::block::dut;
use xdie_tb::regmodel::views;
use xdie_tb::sim::Port;
use xdie_tb::{harness, Ctx, Rng, Sim};

const OKAY: u64 = 0;
const SLVERR: u64 = 2;
const DECERR: u64 = 3;

// ------------------------------------------------------------------ bit slices of wide ports

fn get_bits(w: &[u32], lsb: usize, width: usize) -> Vec<u8> {
    let mut out = vec![0u8; width.div_ceil(8)];
    for i in 0..width {
        let b = lsb + i;
        if (w[b / 32] >> (b % 32)) & 1 != 0 {
            out[i / 8] |= 1 << (i % 8);
        }
    }
    out
}

fn set_bits(w: &mut [u32], lsb: usize, width: usize, v: &[u8]) {
    for i in 0..width {
        let b = lsb + i;
        let bit = v.get(i / 8).is_some_and(|x| (x >> (i % 8)) & 1 != 0);
        if bit {
            w[b / 32] |= 1 << (b % 32);
        } else {
            w[b / 32] &= !(1 << (b % 32));
        }
    }
}

fn to_u64(v: &[u8]) -> u64 {
    v.iter()
        .take(8)
        .enumerate()
        .fold(0, |a, (i, b)| a | (u64::from(*b) << (8 * i)))
}

fn from_u64(v: u64) -> Vec<u8> {
    v.to_le_bytes().to_vec()
}

/// The ports of one DUT as word buffers: inputs are staged here and written before `eval`.
struct Pins {
    ports: HashMap<&'static str, (Port, Vec<u32>)>,
}

impl Pins {
    fn new(sim: &Sim) -> Pins {
        let ports = sim
            .kind()
            .ports()
            .iter()
            .map(|p| {
                let port = sim.port(p.name).expect("port");
                (p.name, (port, vec![0u32; p.width.div_ceil(32) as usize]))
            })
            .collect();
        Pins { ports }
    }

    fn width(&self, name: &str) -> usize {
        self.ports[name].0.info().width as usize
    }

    fn set(&mut self, name: &str, lsb: usize, width: usize, v: &[u8]) {
        let (_, w) = self
            .ports
            .get_mut(name)
            .unwrap_or_else(|| panic!("no {name}"));
        set_bits(w, lsb, width, v);
    }

    fn set_u(&mut self, name: &str, lsb: usize, width: usize, v: u64) {
        self.set(name, lsb, width, &from_u64(v));
    }

    /// Writes every staged input (the clock and reset stay with the harness) and settles the
    /// model.
    fn apply(&self, sim: &mut Sim) {
        for (name, (port, w)) in &self.ports {
            if port.info().input && *name != "clk_i" && *name != "rst_ni" {
                sim.set(*port, w);
            }
        }
        sim.eval();
    }

    fn get(sim: &Sim, p: &Pins, name: &str, lsb: usize, width: usize) -> Vec<u8> {
        get_bits(&sim.get(p.ports[name].0), lsb, width)
    }

    fn get_u(sim: &Sim, p: &Pins, name: &str, lsb: usize, width: usize) -> u64 {
        to_u64(&Self::get(sim, p, name, lsb, width))
    }
}

// ------------------------------------------------------------------ xbus models

#[derive(Clone, Debug)]
struct Req {
    write: bool,
    addr: u64,
    wdata: Vec<u8>,
    wstrb: Vec<bool>,
}

#[derive(Clone, Debug, PartialEq)]
struct Rsp {
    rdata: Vec<u8>,
    err: u64,
}

/// A byte-addressed memory answering whole beats.
#[derive(Default)]
struct Mem {
    bytes: HashMap<u64, u8>,
}

impl Mem {
    fn beat(&self, addr: u64, dw: usize) -> Vec<u8> {
        let base = addr & !(dw as u64 - 1);
        (0..dw as u64)
            .map(|i| *self.bytes.get(&(base + i)).unwrap_or(&0))
            .collect()
    }

    fn write(&mut self, addr: u64, dw: usize, data: &[u8], strb: &[bool]) {
        let base = addr & !(dw as u64 - 1);
        for i in 0..dw {
            if strb[i] {
                self.bytes.insert(base + i as u64, data[i]);
            }
        }
    }

    /// The response a memory gives: reads return the beat; writes return the old beat.
    fn access(&mut self, r: &Req, dw: usize) -> Rsp {
        let old = self.beat(r.addr, dw);
        if r.write {
            self.write(r.addr, dw, &r.wdata, &r.wstrb);
        }
        Rsp {
            rdata: old,
            err: OKAY,
        }
    }
}

fn random_req(rng: &mut Rng, addr: u64, dw: usize) -> Req {
    let write = rng.chance(50);
    Req {
        write,
        addr,
        wdata: (0..dw).map(|_| rng.next_u32() as u8).collect(),
        wstrb: (0..dw).map(|_| write && rng.chance(70)).collect(),
    }
}

/// A slave on port index `idx` of a `s_*` xbus port group (prefix "s"), or the single slave
/// port of a DUT's memory side (prefix "m", ports `m_req_*_o`/`m_rsp_*_i`).
struct SlaveModel {
    idx: usize,
    ready_pct: u32,
    max_delay: u64,
    /// Accepted requests' responses, with the cycle they may be presented from.
    queue: VecDeque<(u64, Rsp)>,
    presenting: bool,
}

impl SlaveModel {
    fn new(idx: usize, ready_pct: u32, max_delay: u64) -> SlaveModel {
        SlaveModel {
            idx,
            ready_pct,
            max_delay,
            queue: VecDeque::new(),
            presenting: false,
        }
    }
}

/// Names of an xbus port group: the side facing the model.
struct Names {
    req_valid: &'static str,
    req_ready: &'static str,
    req_write: &'static str,
    req_addr: &'static str,
    req_wdata: &'static str,
    req_wstrb: &'static str,
    rsp_valid: &'static str,
    rsp_ready: &'static str,
    rsp_rdata: &'static str,
    rsp_err: &'static str,
}

/// The DUT's master-side ports (a Rust slave sits behind them).
const DUT_MASTER_SIDE: Names = Names {
    req_valid: "m_req_valid_o",
    req_ready: "m_req_ready_i",
    req_write: "m_req_write_o",
    req_addr: "m_req_addr_o",
    req_wdata: "m_req_wdata_o",
    req_wstrb: "m_req_wstrb_o",
    rsp_valid: "m_rsp_valid_i",
    rsp_ready: "m_rsp_ready_o",
    rsp_rdata: "m_rsp_rdata_i",
    rsp_err: "m_rsp_err_i",
};

/// The crossbar's slave-side ports.
const XBAR_SLAVE_SIDE: Names = Names {
    req_valid: "s_req_valid_o",
    req_ready: "s_req_ready_i",
    req_write: "s_req_write_o",
    req_addr: "s_req_addr_o",
    req_wdata: "s_req_wdata_o",
    req_wstrb: "s_req_wstrb_o",
    rsp_valid: "s_rsp_valid_i",
    rsp_ready: "s_rsp_ready_o",
    rsp_rdata: "s_rsp_rdata_i",
    rsp_err: "s_rsp_err_i",
};

/// The DUT's slave-side ports (a Rust master drives them).
const DUT_SLAVE_SIDE: Names = Names {
    req_valid: "s_req_valid_i",
    req_ready: "s_req_ready_o",
    req_write: "s_req_write_i",
    req_addr: "s_req_addr_i",
    req_wdata: "s_req_wdata_i",
    req_wstrb: "s_req_wstrb_i",
    rsp_valid: "s_rsp_valid_o",
    rsp_ready: "s_rsp_ready_i",
    rsp_rdata: "s_rsp_rdata_o",
    rsp_err: "s_rsp_err_o",
};

const XBAR_MASTER_SIDE: Names = Names {
    req_valid: "m_req_valid_i",
    req_ready: "m_req_ready_o",
    req_write: "m_req_write_i",
    req_addr: "m_req_addr_i",
    req_wdata: "m_req_wdata_i",
    req_wstrb: "m_req_wstrb_i",
    rsp_valid: "m_rsp_valid_o",
    rsp_ready: "m_rsp_ready_i",
    rsp_rdata: "m_rsp_rdata_o",
    rsp_err: "m_rsp_err_o",
};

/// Geometry of an xbus port group, from the port widths: (count, data bytes, address bits).
fn geometry(p: &Pins, n: &Names) -> (usize, usize, usize) {
    let count = p.width(n.req_valid);
    let dw = p.width(n.req_wstrb) / count;
    let aw = p.width(n.req_addr) / count;
    (count, dw, aw)
}

impl SlaveModel {
    /// Stage this slave's inputs for the coming edge.
    fn drive(&mut self, p: &mut Pins, n: &Names, rng: &mut Rng, cycle: u64, dw: usize) {
        let i = self.idx;
        p.set_u(n.req_ready, i, 1, u64::from(rng.chance(self.ready_pct)));
        if !self.presenting {
            self.presenting = self
                .queue
                .front()
                .is_some_and(|(t, _)| *t <= cycle && rng.chance(70));
        }
        p.set_u(n.rsp_valid, i, 1, u64::from(self.presenting));
        let (rdata, err) = match (self.presenting, self.queue.front()) {
            (true, Some((_, r))) => (r.rdata.clone(), r.err),
            _ => (vec![0; dw], 0),
        };
        p.set(n.rsp_rdata, i * dw * 8, dw * 8, &rdata);
        p.set_u(n.rsp_err, i * 2, 2, err);
    }

    /// After `eval`: the request taken and whether the response was taken at this edge.
    fn sample(&self, sim: &Sim, p: &Pins, n: &Names, dw: usize, aw: usize) -> (Option<Req>, bool) {
        let i = self.idx;
        let ready = Pins::get_u(sim, p, n.req_ready, i, 1) != 0;
        let valid = Pins::get_u(sim, p, n.req_valid, i, 1) != 0;
        let req = (valid && ready).then(|| Req {
            write: Pins::get_u(sim, p, n.req_write, i, 1) != 0,
            addr: Pins::get_u(sim, p, n.req_addr, i * aw, aw),
            wdata: Pins::get(sim, p, n.req_wdata, i * dw * 8, dw * 8),
            wstrb: {
                let s = Pins::get(sim, p, n.req_wstrb, i * dw, dw);
                (0..dw).map(|b| (s[b / 8] >> (b % 8)) & 1 != 0).collect()
            },
        });
        let popped = self.presenting && Pins::get_u(sim, p, n.rsp_ready, i, 1) != 0;
        (req, popped)
    }

    fn commit(&mut self, popped: bool, accepted: Option<Rsp>, rng: &mut Rng, cycle: u64) {
        if popped {
            self.queue.pop_front();
            self.presenting = false;
        }
        if let Some(r) = accepted {
            let delay = 1 + rng.below(self.max_delay + 1);
            self.queue.push_back((cycle + delay, r));
        }
    }
}

/// A master issuing `ops` in order with random gaps and random response backpressure.
struct MasterModel {
    idx: usize,
    ops: VecDeque<(Req, u64)>,
    current: Option<(Req, u64)>,
    expect: VecDeque<Rsp>,
    got: usize,
    gap_pct: u32,
    rsp_ready_pct: u32,
    rsp_ready: bool,
}

impl MasterModel {
    fn drive(&mut self, p: &mut Pins, n: &Names, rng: &mut Rng, dw: usize, aw: usize) {
        let i = self.idx;
        if self.current.is_none() && !rng.chance(self.gap_pct) {
            self.current = self.ops.pop_front();
        }
        let (valid, r, sel) = match &self.current {
            Some((r, sel)) => (true, r.clone(), *sel),
            None => (false, random_req(rng, 0, dw), 0),
        };
        p.set_u(n.req_valid, i, 1, u64::from(valid));
        p.set_u(n.req_write, i, 1, u64::from(r.write));
        p.set_u(n.req_addr, i * aw, aw, r.addr);
        p.set(n.req_wdata, i * dw * 8, dw * 8, &r.wdata);
        let strb: Vec<u8> = (0..dw.div_ceil(8))
            .map(|b| {
                (0..8).fold(0u8, |a, k| {
                    a | (u8::from(r.wstrb.get(b * 8 + k).copied().unwrap_or(false)) << k)
                })
            })
            .collect();
        p.set(n.req_wstrb, i * dw, dw, &strb);
        if p.ports.contains_key("m_sel_i") {
            set_sel(p, i, sel);
        }
        self.rsp_ready = rng.chance(self.rsp_ready_pct);
        p.set_u(n.rsp_ready, i, 1, u64::from(self.rsp_ready));
    }

    /// After `eval`: did the request go, and check a response taken at this edge.
    fn sample(&mut self, sim: &Sim, p: &Pins, n: &Names, dw: usize) -> bool {
        let i = self.idx;
        let went = self.current.is_some() && Pins::get_u(sim, p, n.req_ready, i, 1) != 0;
        if self.rsp_ready && Pins::get_u(sim, p, n.rsp_valid, i, 1) != 0 {
            let got = Rsp {
                rdata: Pins::get(sim, p, n.rsp_rdata, i * dw * 8, dw * 8),
                err: Pins::get_u(sim, p, n.rsp_err, i * 2, 2),
            };
            let want = self
                .expect
                .pop_front()
                .unwrap_or_else(|| panic!("master {i}: response with none outstanding"));
            assert_eq!(
                got, want,
                "master {i}: response {} out of order or wrong",
                self.got
            );
            self.got += 1;
        }
        went
    }

    fn done(&self) -> bool {
        self.current.is_none() && self.ops.is_empty() && self.expect.is_empty()
    }
}

// ------------------------------------------------------------------ crossbar

/// Puts master `m`'s slave index on the crossbar's `m_sel_i`, which holds bit planes: bit b of
/// master m's index at b * masters + m.
fn set_sel(p: &mut Pins, m: usize, sel: u64) {
    let masters = p.width("m_req_valid_i");
    let planes = p.width("m_sel_i") / masters;
    for b in 0..planes {
        p.set_u("m_sel_i", b * masters + m, 1, (sel >> b) & 1);
    }
}

/// Master m owns a region in every slave; the expected read data follows from m's own program
/// order. The slave index sits in the address too, so a misrouted request is caught.
fn xbar_traffic(
    ctx: &mut Ctx,
    module: &str,
    ops_per_master: usize,
    slave_ready_pct: u32,
    max_delay: u64,
) {
    let kind = dut(module);
    let mut sim = ctx.sim(kind).expect("xbar model");
    let mut p = Pins::new(&sim);
    let (nm, dw, aw) = geometry(&p, &XBAR_MASTER_SIDE);
    let ns = p.width("s_req_valid_o");
    let region_beats = 16u64;
    let slave_shift = 20;
    let region =
        |s: u64, m: u64, beat: u64| (s << slave_shift) | ((m * region_beats + beat) * dw as u64);
    let rng = &mut ctx.rng;
    let mut masters: Vec<MasterModel> = (0..nm)
        .map(|m| {
            let mut model: HashMap<u64, Mem> = HashMap::new();
            let mut ops = VecDeque::new();
            let mut expect = VecDeque::new();
            let mut s = rng.below(ns as u64);
            for _ in 0..ops_per_master {
                // Bursts to one slave, then a switch: exercises the one-slave-at-a-time rule.
                if rng.chance(20) {
                    s = rng.below(ns as u64);
                }
                let beat = rng.below(region_beats);
                let addr = region(s, m as u64, beat) + rng.below(dw as u64);
                let r = random_req(rng, addr, dw);
                expect.push_back(model.entry(s).or_default().access(&r, dw));
                ops.push_back((r, s));
            }
            MasterModel {
                idx: m,
                ops,
                current: None,
                expect,
                got: 0,
                gap_pct: 30,
                rsp_ready_pct: 75,
                rsp_ready: false,
            }
        })
        .collect();
    let mut slaves: Vec<SlaveModel> = (0..ns)
        .map(|s| SlaveModel::new(s, slave_ready_pct, max_delay))
        .collect();
    let mut mems: Vec<Mem> = (0..ns).map(|_| Mem::default()).collect();
    sim.reset(2);
    let budget = 200 * ops_per_master as u64 * nm as u64;
    let mut cycle = 0;
    while !masters.iter().all(MasterModel::done) {
        assert!(cycle < budget, "crossbar stalled");
        for m in &mut masters {
            m.drive(&mut p, &XBAR_MASTER_SIDE, rng, dw, aw);
        }
        for s in &mut slaves {
            s.drive(&mut p, &XBAR_SLAVE_SIDE, rng, cycle, dw);
        }
        p.apply(&mut sim);
        for m in &mut masters {
            if m.sample(&sim, &p, &XBAR_MASTER_SIDE, dw) {
                m.current = None;
            }
        }
        for (s, model) in slaves.iter_mut().enumerate() {
            let (req, popped) = model.sample(&sim, &p, &XBAR_SLAVE_SIDE, dw, aw);
            let rsp = req.map(|r| {
                assert_eq!(
                    r.addr >> slave_shift,
                    s as u64,
                    "request routed to the wrong slave"
                );
                mems[s].access(&r, dw)
            });
            model.commit(popped, rsp, rng, cycle);
        }
        sim.tick();
        cycle += 1;
    }
}

#[test]
fn xbar_random_traffic_with_backpressure() {
    harness::run(0x5ba2, |ctx| xbar_traffic(ctx, "xdie_xbar", 300, 60, 4));
}

#[test]
fn xbar_random_traffic_always_ready_slaves() {
    harness::run(0x5ba3, |ctx| xbar_traffic(ctx, "xdie_xbar", 300, 100, 0));
}

/// The shared-path crossbar (FPGA sizing profiles) under the same traffic: same ports, same
/// ordering rules, same expected data.
#[test]
fn xbar_shared_random_traffic_with_backpressure() {
    harness::run(0x5ba4, |ctx| {
        xbar_traffic(ctx, "xdie_xbar_shared", 300, 60, 4)
    });
}

#[test]
fn xbar_shared_random_traffic_always_ready_slaves() {
    harness::run(0x5ba5, |ctx| {
        xbar_traffic(ctx, "xdie_xbar_shared", 300, 100, 0)
    });
}

/// One master streaming to one slave that accepts every cycle and answers the next: a request
/// is accepted on every cycle of the stream.
#[test]
fn xbar_single_stream_moves_one_beat_per_cycle() {
    harness::run(1, |ctx| {
        let mut sim = ctx.sim(dut("xdie_xbar")).expect("xbar model");
        let mut p = Pins::new(&sim);
        let (_, dw, aw) = geometry(&p, &XBAR_MASTER_SIDE);
        let ns = p.width("s_req_valid_o");
        sim.reset(2);
        let beats = 64u64;
        let target = (ns - 1) as u64;
        set_sel(&mut p, 0, target);
        p.set_u("m_rsp_ready_i", 0, 1, 1);
        p.set_u("s_req_ready_i", 0, ns, u64::MAX);
        let (mut sent, mut answered, mut pending) = (0u64, 0u64, VecDeque::new());
        let mut cycles = 0u64;
        while answered < beats {
            assert!(cycles < 4 * beats, "stream stalled");
            p.set_u("m_req_valid_i", 0, 1, u64::from(sent < beats));
            p.set_u("m_req_addr_i", 0, aw, sent * dw as u64);
            let head = pending.front().copied();
            p.set_u(
                "s_rsp_valid_i",
                target as usize,
                1,
                u64::from(head.is_some()),
            );
            p.apply(&mut sim);
            if sent < beats {
                assert_eq!(
                    Pins::get_u(&sim, &p, "m_req_ready_o", 0, 1),
                    1,
                    "beat {sent} not accepted at once"
                );
                sent += 1;
                pending.push_back(sent);
            }
            if head.is_some() {
                assert_eq!(
                    Pins::get_u(&sim, &p, "m_rsp_valid_o", 0, 1),
                    1,
                    "response lost"
                );
                pending.pop_front();
                answered += 1;
            }
            sim.tick();
            cycles += 1;
        }
        // Accepted at cycle i, answered at cycle i + 1: the stream takes one cycle more than it has beats.
        assert_eq!(cycles, beats + 1);
    });
}

/// The shared crossbar's rates as its RTL states them: a slave takes at most one request every
/// `SHARED_INTERVAL` cycles and a master receives at most one response every `SHARED_INTERVAL`
/// cycles (a grant is registered and its transfer follows; a port is granted again in the
/// transfer's cycle at the earliest), and the die moves one request and one response per cycle.
const SHARED_INTERVAL: u64 = 2;
/// At most this many cycles from a stream's first request to its last response beyond the
/// stream's rate: the master's request register (`M_REG`, the crossbar's default), request grant
/// and transfer, the slave's cycle, response grant and transfer, the master's cycle.
const SHARED_LATENCY: u64 = 8;

/// `streams` masters each stream to a slave of their own (master i to slave i), the slaves take
/// every request at once and answer it in the next cycle, the masters take every response. The
/// streams must overlap: together they finish within the rate the shared paths allow (each
/// slave and master its interval, the die one transfer per cycle each way), not one after another.
fn xbar_shared_streams(ctx: &mut Ctx, streams: usize) {
    let mut sim = ctx.sim(dut("xdie_xbar_shared")).expect("xbar model");
    let mut p = Pins::new(&sim);
    let (nm, dw, aw) = geometry(&p, &XBAR_MASTER_SIDE);
    let ns = p.width("s_req_valid_o");
    assert!(
        streams <= nm.min(ns),
        "{streams} streams need as many masters and slaves"
    );
    sim.reset(2);
    let beats = 48u64;
    for m in 0..streams {
        set_sel(&mut p, m, m as u64);
    }
    p.set_u("m_rsp_ready_i", 0, nm, u64::MAX);
    p.set_u("s_req_ready_i", 0, ns, u64::MAX);
    let mut sent = vec![0u64; streams];
    let mut answered = vec![0u64; streams];
    // Per slave: the cycles from which its accepted requests' responses may be presented.
    let mut pending: Vec<VecDeque<u64>> = vec![VecDeque::new(); streams];
    let bound = beats * SHARED_INTERVAL.max(streams as u64) + SHARED_LATENCY;
    let mut cycle = 0u64;
    while answered.iter().any(|&a| a < beats) {
        assert!(
            cycle <= bound,
            "streams not done after {bound} cycles: answered {answered:?}"
        );
        for m in 0..streams {
            p.set_u("m_req_valid_i", m, 1, u64::from(sent[m] < beats));
            p.set_u("m_req_addr_i", m * aw, aw, sent[m] * dw as u64);
            let ready = pending[m].front().is_some_and(|&c| c <= cycle);
            p.set_u("s_rsp_valid_i", m, 1, u64::from(ready));
        }
        p.apply(&mut sim);
        for m in 0..streams {
            if sent[m] < beats && Pins::get_u(&sim, &p, "m_req_ready_o", m, 1) != 0 {
                sent[m] += 1;
            }
            // Slave m takes a request the cycle it is shown (its ready is always set).
            if Pins::get_u(&sim, &p, "s_req_valid_o", m, 1) != 0 {
                pending[m].push_back(cycle + 1);
            }
            let shown = pending[m].front().is_some_and(|&c| c <= cycle);
            if shown && Pins::get_u(&sim, &p, "s_rsp_ready_o", m, 1) != 0 {
                pending[m].pop_front();
            }
            if Pins::get_u(&sim, &p, "m_rsp_valid_o", m, 1) != 0 {
                answered[m] += 1;
                assert!(
                    answered[m] <= sent[m],
                    "master {m}: response without a request"
                );
            }
        }
        sim.tick();
        cycle += 1;
    }
}

#[test]
fn xbar_shared_single_stream_rate() {
    harness::run(2, |ctx| xbar_shared_streams(ctx, 1));
}

/// Two streams fit the die's one transfer per cycle each way at their interval, the third
/// makes the shared paths the limit.
#[test]
fn xbar_shared_streams_overlap() {
    harness::run(3, |ctx| {
        xbar_shared_streams(ctx, 2);
        xbar_shared_streams(ctx, 3);
    });
}

// ------------------------------------------------------------------ memory

/// Random reads and writes from one master with random gaps against a Rust memory, responses
/// held under random backpressure, beside random port-B writes. Port A's addresses span more
/// beats than the lower half of the array has, so they alias there; port B writes the upper
/// half, so its writes and port A's never meet on a beat: a port-A write lost to a port-B write
/// in the same cycle (the array has one write port, port B goes first) shows as a wrong read.
/// At the end every upper beat reads back as port B last wrote it.
#[test]
fn mem_random_access_with_backpressure() {
    harness::run(0x3e3, |ctx| {
        let mut sim = ctx.sim(dut("xdie_mem")).expect("mem model");
        let mut p = Pins::new(&sim);
        let (_, dw, aw) = geometry(&p, &DUT_SLAVE_SIDE);
        let words = mem_words(&mut sim, &mut p, dw, aw);
        assert!(words >= 4, "the array is too small to split: {words} words");
        let half = words / 2;
        let rng = &mut ctx.rng;
        let mut model = Mem::default();
        let mut ops = VecDeque::new();
        let mut expect = VecDeque::new();
        for _ in 0..2000 {
            // Beat b of the lower half at one of four aliases (the array wraps at `words`).
            let (alias, b, off) = (rng.below(4), rng.below(half), rng.below(dw as u64));
            let r = random_req(rng, (alias * words + b) * dw as u64 + off, dw);
            let mut aliased = r.clone();
            aliased.addr = b * dw as u64;
            expect.push_back(model.access(&aliased, dw));
            ops.push_back((r, 0));
        }
        let mut m = MasterModel {
            idx: 0,
            ops,
            current: None,
            expect,
            got: 0,
            gap_pct: 20,
            rsp_ready_pct: 60,
            rsp_ready: false,
        };
        let mut upper = Mem::default();
        let (mut cycle, mut b_writes) = (0, 0);
        while !m.done() {
            assert!(cycle < 20_000, "memory stalled");
            m.drive(&mut p, &DUT_SLAVE_SIDE, rng, dw, aw);
            let b = rng.chance(30).then(|| {
                let beat = half + rng.below(half);
                let mut r = random_req(rng, beat * dw as u64, dw);
                r.wstrb = (0..dw).map(|_| rng.chance(70)).collect();
                r
            });
            p.set_u("w_valid_i", 0, 1, u64::from(b.is_some()));
            if let Some(r) = &b {
                p.set_u("w_addr_i", 0, aw, r.addr);
                p.set("w_wdata_i", 0, dw * 8, &r.wdata);
                p.set("w_wstrb_i", 0, dw, &strobe_bytes(&r.wstrb));
                upper.write(r.addr, dw, &r.wdata, &r.wstrb);
                b_writes += 1;
            }
            p.apply(&mut sim);
            if m.sample(&sim, &p, &DUT_SLAVE_SIDE, dw) {
                m.current = None;
            }
            sim.tick();
            cycle += 1;
        }
        assert!(b_writes > 100, "too few port-B writes ({b_writes})");
        p.set_u("w_valid_i", 0, 1, 0);
        for beat in half..words {
            let at = beat * dw as u64;
            assert_eq!(
                mem_access(&mut sim, &mut p, false, at, &vec![0; dw], dw, aw),
                upper.beat(at, dw),
                "beat {beat}: port B's last write"
            );
        }
    });
}

/// Byte strobes as the bytes of a strobe port, bit i for byte i.
fn strobe_bytes(strb: &[bool]) -> Vec<u8> {
    strb.chunks(8)
        .map(|c| {
            c.iter()
                .enumerate()
                .fold(0u8, |a, (k, &on)| a | (u8::from(on) << k))
        })
        .collect()
}

/// Port R beside port A with one shared array read (READ_PORTS 1, the default): random reads on
/// R and random reads and writes on A, random gaps and backpressure on both. Each port's
/// request waits in its register until it goes to the array, A first, so an R read returns the
/// beat as it was at some point from its acceptance (after A's request of that cycle) to its
/// response: one of the values A's accepted writes gave the beat in that window (a Rust memory
/// applies them at their acceptance). R answers in order, held while not taken.
#[test]
fn mem_read_port_shares_the_array_read() {
    harness::run(0x3e4, |ctx| {
        let mut sim = ctx.sim(dut("xdie_mem")).expect("mem model");
        let mut p = Pins::new(&sim);
        let (_, dw, aw) = geometry(&p, &DUT_SLAVE_SIDE);
        let words = mem_words(&mut sim, &mut p, dw, aw);
        let rng = &mut ctx.rng;
        let span = words * dw as u64;
        let (a_ops, reads) = (1500, 1500);
        let mut model = Mem::default();
        let mut ops = VecDeque::new();
        let mut expect = VecDeque::new();
        for _ in 0..a_ops {
            let addr = rng.below(span);
            let r = random_req(rng, addr, dw);
            expect.push_back(model.access(&r, dw));
            ops.push_back((r, 0));
        }
        let mut a = MasterModel {
            idx: 0,
            ops,
            current: None,
            expect,
            got: 0,
            gap_pct: 40,
            rsp_ready_pct: 60,
            rsp_ready: false,
        };
        // What the array holds: A's requests applied as they are accepted.
        let mut live = Mem::default();
        let mut r_addr: Option<u64> = None;
        // Per R read in flight: its address and the values it may return.
        let mut r_pending: VecDeque<(u64, Vec<Vec<u8>>)> = VecDeque::new();
        let (mut r_issued, mut r_got, mut r_beside_a, mut r_moved) = (0, 0, 0, 0);
        let mut cycle = 0;
        while !a.done() || r_got < reads {
            assert!(cycle < 50_000, "memory stalled");
            a.drive(&mut p, &DUT_SLAVE_SIDE, rng, dw, aw);
            if r_addr.is_none() && r_issued < reads && rng.chance(70) {
                r_addr = Some(rng.below(span));
            }
            p.set_u("r_req_valid_i", 0, 1, u64::from(r_addr.is_some()));
            p.set_u("r_req_addr_i", 0, aw, r_addr.unwrap_or(0));
            let r_rsp_ready = rng.chance(60);
            p.set_u("r_rsp_ready_i", 0, 1, u64::from(r_rsp_ready));
            p.apply(&mut sim);
            let a_req = a.current.clone();
            let a_went = a.sample(&sim, &p, &DUT_SLAVE_SIDE, dw);
            let r_went = r_addr.is_some() && Pins::get_u(&sim, &p, "r_req_ready_o", 0, 1) != 0;
            if r_rsp_ready && Pins::get_u(&sim, &p, "r_rsp_valid_o", 0, 1) != 0 {
                let (addr, may) = r_pending
                    .pop_front()
                    .unwrap_or_else(|| panic!("cycle {cycle}: port R answered nothing asked"));
                let got = Pins::get(&sim, &p, "r_rsp_rdata_o", 0, dw * 8);
                assert!(
                    may.contains(&got),
                    "cycle {cycle}: port R read {r_got} of {addr:#x}: {got:02x?} is none of the \
                     beat's values since the read was accepted"
                );
                r_moved += usize::from(got != may[0]);
                r_got += 1;
            }
            if r_addr.is_some() && a_req.is_some() {
                r_beside_a += 1;
            }
            if a_went {
                let (r, _) = a_req.expect("a request went");
                live.access(&r, dw);
                if r.write {
                    let now = live.beat(r.addr, dw);
                    for (at, may) in r_pending.iter_mut() {
                        if *at / dw as u64 == r.addr / dw as u64 {
                            may.push(now.clone());
                        }
                    }
                }
                a.current = None;
            }
            if let Some(addr) = r_addr.filter(|_| r_went) {
                r_pending.push_back((addr, vec![live.beat(addr, dw)]));
                r_issued += 1;
                r_addr = None;
            }
            sim.tick();
            cycle += 1;
        }
        assert!(
            r_beside_a > 100,
            "the ports met too rarely ({r_beside_a} cycles)"
        );
        // The window is not vacuous: some reads saw a write accepted after them.
        assert!(r_moved > 0, "no R read returned a later write's value");
    });
}

/// One access on port A: present it until accepted, then wait for its response (taken at once)
/// and return its data.
fn mem_access(
    sim: &mut Sim,
    p: &mut Pins,
    write: bool,
    addr: u64,
    data: &[u8],
    dw: usize,
    aw: usize,
) -> Vec<u8> {
    let n = &DUT_SLAVE_SIDE;
    p.set_u(n.req_valid, 0, 1, 1);
    p.set_u(n.req_write, 0, 1, u64::from(write));
    p.set_u(n.req_addr, 0, aw, addr);
    p.set(n.req_wdata, 0, dw * 8, data);
    p.set(
        n.req_wstrb,
        0,
        dw,
        &vec![if write { 0xff } else { 0 }; dw.div_ceil(8)],
    );
    p.set_u(n.rsp_ready, 0, 1, 1);
    for _ in 0..16 {
        p.apply(sim);
        let accepted = Pins::get_u(sim, p, n.req_ready, 0, 1) != 0;
        sim.tick();
        if accepted {
            p.set_u(n.req_valid, 0, 1, 0);
            for _ in 0..16 {
                p.apply(sim);
                if Pins::get_u(sim, p, n.rsp_valid, 0, 1) != 0 {
                    let out = Pins::get(sim, p, n.rsp_rdata, 0, dw * 8);
                    sim.tick();
                    return out;
                }
                sim.tick();
            }
            panic!("no response to the access of {addr:#x}");
        }
    }
    panic!("the access of {addr:#x} was not accepted");
}

/// The memory's word count: write a marker to beat 0, then walk powers of two until the
/// marker reads back (the array wraps there). Leaves the memory reset.
fn mem_words(sim: &mut Sim, p: &mut Pins, dw: usize, aw: usize) -> u64 {
    sim.reset(2);
    let zero = vec![0u8; dw];
    let mark: Vec<u8> = (0..dw).map(|i| i as u8 ^ 0xa5).collect();
    let mut words = 1u64;
    loop {
        mem_access(sim, p, true, 0, &zero, dw, aw);
        mem_access(sim, p, true, words * dw as u64, &mark, dw, aw);
        if mem_access(sim, p, false, 0, &zero, dw, aw) == mark {
            break;
        }
        words *= 2;
        assert!(words < 1 << 24, "memory does not wrap");
    }
    for b in 0..=words {
        mem_access(sim, p, true, b * dw as u64, &zero, dw, aw);
    }
    words
}

/// Requests every cycle, responses always taken: the memory accepts on every cycle.
#[test]
fn mem_sustains_one_beat_per_cycle() {
    harness::run(2, |ctx| {
        let mut sim = ctx.sim(dut("xdie_mem")).expect("mem model");
        let mut p = Pins::new(&sim);
        let (_, dw, aw) = geometry(&p, &DUT_SLAVE_SIDE);
        sim.reset(2);
        p.set_u("s_rsp_ready_i", 0, 1, 1);
        p.set_u("s_req_valid_i", 0, 1, 1);
        for i in 0..100u64 {
            p.set_u("s_req_write_i", 0, 1, i % 2);
            p.set_u("s_req_addr_i", 0, aw, i * dw as u64);
            p.apply(&mut sim);
            assert_eq!(
                Pins::get_u(&sim, &p, "s_req_ready_o", 0, 1),
                1,
                "stall at {i}"
            );
            // A cycle in the request register, one in the array read.
            if i > 1 {
                assert_eq!(
                    Pins::get_u(&sim, &p, "s_rsp_valid_o", 0, 1),
                    1,
                    "no response {i}"
                );
            }
            sim.tick();
        }
    });
}

// ------------------------------------------------------------------ SBUF mapping

/// SBUF offsets through the mapping into a Rust memory: partition p byte b lands at
/// p * BACKING + b; past the backing (or past the last partition) the answer is DECERR and the
/// memory sees no byte strobe. Covers the seed's example span (the last 16 KiB below the
/// backing end of every partition) and random offsets, with random backpressure both sides.
#[test]
fn sbuf_mapping_and_decode_errors() {
    harness::run(0x5b, |ctx| {
        let mut sim = ctx.sim(dut("xdie_sbuf")).expect("sbuf model");
        let mut p = Pins::new(&sim);
        let (_, dw, aw) = geometry(&p, &DUT_SLAVE_SIDE);
        let parts = views().params.sbuf_partitions;
        let stride = views().params.sbuf_partition_stride;
        let backing = views().params.sbuf_backing_bytes;
        let rng = &mut ctx.rng;
        let mut ops = VecDeque::new();
        let mut expect = VecDeque::new();
        let mut model = Mem::default();
        let mut offsets = Vec::new();
        for part in 0..parts {
            // first and last beat backed, the first beat past the backing, the partition's end
            offsets.extend(
                [0, backing - dw as u64, backing, stride - dw as u64].map(|b| part * stride + b),
            );
        }
        for _ in 0..1500 {
            let part = rng.below(parts);
            let b = backing.saturating_sub(2 * dw as u64 * 16) + rng.below(4 * dw as u64 * 16);
            offsets.push(part * stride + b.min(stride - 1));
        }
        for off in offsets {
            let r = random_req(rng, off, dw);
            let (part, b) = (off / stride, off % stride);
            let bad = b >= backing || part >= parts;
            let rsp = if bad {
                Rsp {
                    rdata: vec![0; dw],
                    err: DECERR,
                }
            } else {
                let mut mapped = r.clone();
                mapped.addr = part * backing + b;
                model.access(&mapped, dw)
            };
            expect.push_back(rsp);
            ops.push_back((r, 0));
        }
        let mem = drive_sbuf(
            &mut sim,
            &mut p,
            rng,
            ops,
            expect,
            (dw, aw),
            |_, _, r, _| {
                assert!(
                    r.addr < parts * backing,
                    "mapped address {:#x} past the memory",
                    r.addr
                );
            },
        );
        assert_eq!(
            mem.bytes, model.bytes,
            "memory contents differ from the model"
        );
    });
}

/// Runs one master's `ops` through the SBUF mapping (`xdie_sbuf`) into a memory model with
/// random handshakes on both sides; the master checks every response against `expect`, and
/// `on_request` sees each request the memory side takes (with its cycle) before the memory
/// model serves it. Returns the memory model.
fn drive_sbuf(
    sim: &mut Sim,
    p: &mut Pins,
    rng: &mut Rng,
    ops: VecDeque<(Req, u64)>,
    expect: VecDeque<Rsp>,
    (dw, aw): (usize, usize),
    mut on_request: impl FnMut(&Sim, &Pins, &Req, u64),
) -> Mem {
    let mut m = MasterModel {
        idx: 0,
        ops,
        current: None,
        expect,
        got: 0,
        gap_pct: 20,
        rsp_ready_pct: 70,
        rsp_ready: false,
    };
    let mut slave = SlaveModel::new(0, 70, 2);
    let mut mem = Mem::default();
    sim.reset(2);
    let mut cycle = 0;
    while !m.done() {
        assert!(cycle < 100_000, "sbuf stalled");
        m.drive(p, &DUT_SLAVE_SIDE, rng, dw, aw);
        slave.drive(p, &DUT_MASTER_SIDE, rng, cycle, dw);
        p.apply(sim);
        if m.sample(sim, p, &DUT_SLAVE_SIDE, dw) {
            m.current = None;
        }
        let (req, popped) = slave.sample(sim, p, &DUT_MASTER_SIDE, dw, aw);
        let rsp = req.map(|r| {
            on_request(sim, p, &r, cycle);
            mem.access(&r, dw)
        });
        slave.commit(popped, rsp, rng, cycle);
        sim.tick();
        cycle += 1;
    }
    mem
}

// ------------------------------------------------------------------ CSR bridge

/// An AXI4-Lite slave register file behind the bridge: random ready, random response delay,
/// SLVERR for addresses with bit 2 of the word index set in the top quarter of a window (so
/// errors pass through), everything logged.
struct AxilSlave {
    regs: HashMap<u64, u32>,
    aw: Option<u64>,
    w: Option<(u32, u8)>,
    ar: Option<u64>,
    b: Option<(u64, u64)>,
    r: Option<(u64, u32, u64)>,
}

fn err_addr(a: u64) -> bool {
    a & 0x40 != 0 && a & 0x80 != 0
}

/// The CSR bridge (its block default, INC_REG) under random requests, strobes, holds and AXI
/// handshakes against a register model: a write lands in the lowest lane its strobes touch,
/// stray strobes and erroring addresses answer SLVERR, and a full-word write into the INC
/// window leaves as an increment at most a cycle after its acceptance, in order.
#[test]
fn csr_bridge_lanes_errors_and_inc_fast_path() {
    harness::run(0xc5, |ctx| {
        let mut sim = ctx.sim(dut("xdie_xbus_csr")).expect("csr bridge model");
        let mut p = Pins::new(&sim);
        let (_, dw, aw) = geometry(&p, &DUT_SLAVE_SIDE);
        let v = views();
        let evt = &v.apertures.evt_sem;
        let inc = &v.evt_sem.window(SemOp::Inc).bundle;
        let inc_base = evt.base + inc.offset;
        let idx_w = p.width("inc_idx_o");
        let rng = &mut ctx.rng;
        // Word addresses: EVT_SEM INC window, the rest of EVT_SEM, another block aperture.
        let other = v.apertures.xt_window.base;
        let mut reqs = Vec::new();
        for _ in 0..600 {
            let addr = match rng.below(3) {
                0 => inc_base + rng.below(inc.count) * inc.stride,
                1 => evt.base + rng.below(evt.size / 4) * 4,
                _ => other + rng.below(0x400) * 4,
            };
            let lane = (addr as usize % dw) / 4;
            let mut r = random_req(rng, addr, dw);
            if r.write {
                // Mostly the word's own lane, full or partial, sometimes stray strobes.
                let full = rng.chance(60);
                for (i, s) in r.wstrb.iter_mut().enumerate() {
                    *s = if i / 4 == lane {
                        full || rng.chance(50)
                    } else {
                        rng.chance(3)
                    };
                }
            }
            reqs.push(r);
        }
        // Expected effects, in order.
        let mut regs: HashMap<u64, u32> = HashMap::new();
        let mut expect = VecDeque::new();
        let mut incs = VecDeque::new();
        // Per request in order: whether it takes the fast path.
        let mut fast = Vec::new();
        for r in &reqs {
            // A write's word is the lowest lane its strobes touch; a read's comes from the
            // address.
            let lane = if r.write {
                r.wstrb.iter().position(|s| *s).map_or(0, |i| i / 4)
            } else {
                (r.addr as usize % dw) / 4
            };
            let word = (r.addr & !(dw as u64 - 1)) | (lane as u64 * 4);
            let stray = r.wstrb.iter().enumerate().any(|(i, s)| *s && i / 4 != lane);
            let lane_strb: Vec<bool> = r.wstrb[lane * 4..lane * 4 + 4].to_vec();
            let lane_data =
                u32::from_le_bytes(r.wdata[lane * 4..lane * 4 + 4].try_into().expect("4"));
            let in_inc = word >= inc_base && word < inc_base + inc.count * inc.stride;
            fast.push(r.write && !stray && in_inc && lane_strb.iter().all(|s| *s));
            let mut rdata = vec![0u8; dw];
            let err = if r.write && stray {
                SLVERR
            } else if *fast.last().expect("pushed") {
                incs.push_back(((word - inc_base) / inc.stride, lane_data));
                OKAY
            } else if err_addr(word) {
                SLVERR
            } else if r.write {
                let old = regs.get(&word).copied().unwrap_or(0).to_le_bytes();
                let new = lane_data.to_le_bytes();
                let v: Vec<u8> = (0..4)
                    .map(|i| if lane_strb[i] { new[i] } else { old[i] })
                    .collect();
                regs.insert(word, u32::from_le_bytes(v.try_into().expect("4")));
                OKAY
            } else {
                let v = regs.get(&word).copied().unwrap_or(0);
                rdata[lane * 4..lane * 4 + 4].copy_from_slice(&v.to_le_bytes());
                OKAY
            };
            expect.push_back(Rsp { rdata, err });
        }
        let mut m = MasterModel {
            idx: 0,
            ops: reqs.into_iter().map(|r| (r, 0)).collect(),
            current: None,
            expect,
            got: 0,
            gap_pct: 20,
            rsp_ready_pct: 70,
            rsp_ready: false,
        };
        let mut s = AxilSlave {
            regs: HashMap::new(),
            aw: None,
            w: None,
            ar: None,
            b: None,
            r: None,
        };
        let local_w = views().soc.local.local.width as usize;
        sim.reset(2);
        let mut cycle = 0u64;
        // The cycles fast-path requests were accepted in, not yet seen as increments; requests
        // accepted so far. The last increment may follow its response: a cycle more at the end.
        let mut fast_accepted = VecDeque::new();
        let mut accepted = 0usize;
        let mut tail = 1;
        while !m.done() || tail > 0 {
            if m.done() {
                tail -= 1;
            }
            assert!(cycle < 100_000, "bridge stalled");
            m.drive(&mut p, &DUT_SLAVE_SIDE, rng, dw, aw);
            let (awr, wr, arr) = (rng.chance(60), rng.chance(60), rng.chance(60));
            p.set_u("m_axil_awready_i", 0, 1, u64::from(awr && s.aw.is_none()));
            p.set_u("m_axil_wready_i", 0, 1, u64::from(wr && s.w.is_none()));
            p.set_u("m_axil_arready_i", 0, 1, u64::from(arr && s.ar.is_none()));
            let bv = s.b.is_some_and(|(t, _)| t <= cycle);
            let rv = s.r.is_some_and(|(t, _, _)| t <= cycle);
            p.set_u("m_axil_bvalid_i", 0, 1, u64::from(bv));
            p.set_u("m_axil_bresp_i", 0, 2, s.b.map_or(0, |b| b.1));
            p.set_u("m_axil_rvalid_i", 0, 1, u64::from(rv));
            p.set_u("m_axil_rdata_i", 0, 32, s.r.map_or(0, |r| u64::from(r.1)));
            p.set_u("m_axil_rresp_i", 0, 2, s.r.map_or(0, |r| r.2));
            // Now and then the die holds the bridge (EVT_SEM still initialising).
            let hold = rng.chance(15);
            p.set_u("hold_i", 0, 1, u64::from(hold));
            p.apply(&mut sim);
            let g = |n: &str, w: usize| Pins::get_u(&sim, &p, n, 0, w);
            if hold {
                assert_eq!(g("s_req_ready_o", 1), 0, "cycle {cycle}: ready while held");
            }
            if g("s_req_valid_i", 1) != 0 && g("s_req_ready_o", 1) != 0 {
                if fast[accepted] {
                    fast_accepted.push_back(cycle);
                }
                accepted += 1;
            }
            // An increment pulses in the cycle its request is accepted, or with INC_REG the
            // next one; never later, since EVT_SEM must see it before any later access.
            if g("inc_valid_o", 1) != 0 {
                let want = incs.pop_front().expect("unexpected increment");
                assert_eq!(
                    (g("inc_idx_o", idx_w), g("inc_val_o", 32) as u32),
                    want,
                    "increment"
                );
                let at = fast_accepted
                    .pop_front()
                    .expect("an increment before its request");
                assert!(
                    cycle - at <= 1,
                    "cycle {cycle}: increment of a request accepted at {at}"
                );
            }
            if awr && s.aw.is_none() && g("m_axil_awvalid_o", 1) != 0 {
                s.aw = Some(g("m_axil_awaddr_o", local_w));
            }
            if wr && s.w.is_none() && g("m_axil_wvalid_o", 1) != 0 {
                s.w = Some((g("m_axil_wdata_o", 32) as u32, g("m_axil_wstrb_o", 4) as u8));
            }
            if arr && s.ar.is_none() && g("m_axil_arvalid_o", 1) != 0 {
                s.ar = Some(g("m_axil_araddr_o", local_w));
            }
            if bv && g("m_axil_bready_o", 1) != 0 {
                s.b = None;
            }
            if rv && g("m_axil_rready_o", 1) != 0 {
                s.r = None;
            }
            if m.sample(&sim, &p, &DUT_SLAVE_SIDE, dw) {
                m.current = None;
            }
            // The slave answers a complete write or a read after a random delay.
            if s.b.is_none() {
                if let (Some(a), Some((d, st))) = (s.aw, s.w) {
                    assert_eq!(a & 3, 0, "unaligned AXI address");
                    let resp = if err_addr(a) {
                        SLVERR
                    } else {
                        let old = s.regs.get(&a).copied().unwrap_or(0).to_le_bytes();
                        let new = d.to_le_bytes();
                        let v: Vec<u8> = (0..4)
                            .map(|i| if st >> i & 1 != 0 { new[i] } else { old[i] })
                            .collect();
                        s.regs
                            .insert(a, u32::from_le_bytes(v.try_into().expect("4")));
                        OKAY
                    };
                    s.b = Some((cycle + 1 + rng.below(3), resp));
                    s.aw = None;
                    s.w = None;
                }
            }
            if s.r.is_none() {
                if let Some(a) = s.ar.take() {
                    let resp = if err_addr(a) { SLVERR } else { OKAY };
                    let v = if resp == OKAY {
                        s.regs.get(&a).copied().unwrap_or(0)
                    } else {
                        0
                    };
                    s.r = Some((cycle + 1 + rng.below(3), v, resp));
                }
            }
            sim.tick();
            cycle += 1;
        }
        assert!(incs.is_empty(), "increments missing");
        assert_eq!(s.regs, regs, "register contents");
    });
}

// ------------------------------------------------------------------ host port

/// The host port against a Rust remap lookup and a Rust memory on its xbus side: direct
/// addresses, window hits and misses (DECERR, no bus request), word lanes, random stalls.
#[test]
fn host_port_direct_remapped_and_missing() {
    harness::run(0x4057, |ctx| {
        let mut sim = ctx.sim(dut("xdie_host_port")).expect("host port model");
        let mut p = Pins::new(&sim);
        let (_, dw, aw) = geometry(&p, &DUT_MASTER_SIDE);
        let direct = views().params.host_direct_base;
        let die_f = views().soc.local.die.clone();
        let my_die = 1u64 & die_f.value_mask() as u64;
        // One window: xt [0x1000_0000, +0x100000) -> SoC 0x2_0000_0000 + offset.
        let (win_xt, win_len, win_soc) = (0x1000_0000u64, 0x10_0000u64, 0x2_0000_0000u64);
        let lookup =
            |xt: u64| (xt >= win_xt && xt < win_xt + win_len).then(|| win_soc + (xt - win_xt));
        let rng = &mut ctx.rng;
        let mut mem = Mem::default();
        let mut model = Mem::default();
        let mut ops = Vec::new();
        for _ in 0..400 {
            let xt = match rng.below(3) {
                0 => direct + rng.below(0x40) * 4,
                1 => win_xt + rng.below(0x40) * 4,
                _ => win_xt + win_len + rng.below(0x40) * 4,
            };
            ops.push((rng.chance(50), xt, rng.next_u32(), rng.below(16) as u8));
        }
        sim.reset(2);
        let mut cycle = 0u64;
        let mut slave = SlaveModel::new(0, 70, 2);
        for &(write, xt, data, strb) in &ops {
            let soc = if xt >= direct {
                Some(die_f.set((xt - direct) as u128, my_die as u128) as u64)
            } else {
                lookup(xt)
            };
            // expected
            let lane = (soc.unwrap_or(0) as usize % dw) / 4;
            let want = soc.map(|a| {
                let mut wstrb = vec![false; dw];
                for i in 0..4 {
                    wstrb[lane * 4 + i] = write && (strb >> i) & 1 != 0;
                }
                let wdata: Vec<u8> = (0..dw).map(|i| data.to_le_bytes()[i % 4]).collect();
                let r = model.access(
                    &Req {
                        write,
                        addr: a,
                        wdata,
                        wstrb,
                    },
                    dw,
                );
                u32::from_le_bytes(r.rdata[lane * 4..lane * 4 + 4].try_into().expect("4"))
            });
            // drive one AXI4-Lite transaction, with the xbus slave and the lookup running
            let (mut addr_done, mut resp) = (false, None);
            let mut bus_reqs = 0;
            while resp.is_none() {
                assert!(cycle < 200_000, "host port stalled");
                p.set_u("my_die_i", 0, p.width("my_die_i"), my_die);
                p.set_u("s_axil_awvalid_i", 0, 1, u64::from(write && !addr_done));
                p.set_u("s_axil_wvalid_i", 0, 1, u64::from(write && !addr_done));
                p.set_u("s_axil_arvalid_i", 0, 1, u64::from(!write && !addr_done));
                p.set_u("s_axil_awaddr_i", 0, 32, xt);
                p.set_u("s_axil_araddr_i", 0, 32, xt);
                p.set_u("s_axil_wdata_i", 0, 32, u64::from(data));
                p.set_u("s_axil_wstrb_i", 0, 4, u64::from(strb));
                let rdy = rng.chance(70);
                p.set_u("s_axil_bready_i", 0, 1, u64::from(rdy));
                p.set_u("s_axil_rready_i", 0, 1, u64::from(rdy));
                let xt_o = Pins::get_u(&sim, &p, "xt_addr_o", 0, 32);
                let hit = lookup(xt_o);
                p.set_u("hit_i", 0, 1, u64::from(hit.is_some()));
                p.set_u("soc_addr_i", 0, aw, hit.unwrap_or(0));
                slave.drive(&mut p, &DUT_MASTER_SIDE, rng, cycle, dw);
                p.apply(&mut sim);
                let g = |n: &str, w: usize| Pins::get_u(&sim, &p, n, 0, w);
                if !addr_done
                    && g(
                        if write {
                            "s_axil_awready_o"
                        } else {
                            "s_axil_arready_o"
                        },
                        1,
                    ) != 0
                {
                    if write {
                        assert_eq!(g("s_axil_wready_o", 1), 1, "AW and W are taken together");
                    }
                    addr_done = true;
                }
                if rdy && write && g("s_axil_bvalid_o", 1) != 0 {
                    resp = Some((0, g("s_axil_bresp_o", 2)));
                }
                if rdy && !write && g("s_axil_rvalid_o", 1) != 0 {
                    resp = Some((g("s_axil_rdata_o", 32) as u32, g("s_axil_rresp_o", 2)));
                }
                let (req, popped) = slave.sample(&sim, &p, &DUT_MASTER_SIDE, dw, aw);
                let rsp = req.map(|r| {
                    bus_reqs += 1;
                    assert_eq!(Some(r.addr), soc, "bus address for xt {xt:#x}");
                    mem.access(&r, dw)
                });
                slave.commit(popped, rsp, rng, cycle);
                sim.tick();
                cycle += 1;
            }
            let (rdata, err) = resp.expect("response");
            match want {
                None => {
                    assert_eq!(err, DECERR, "xt {xt:#x} maps nowhere");
                    assert_eq!(bus_reqs, 0, "a miss must not reach the bus");
                }
                Some(v) => {
                    assert_eq!(err, OKAY, "xt {xt:#x}");
                    assert_eq!(bus_reqs, 1);
                    if !write {
                        assert_eq!(rdata, v, "read of xt {xt:#x}");
                    }
                }
            }
        }
        assert_eq!(mem.bytes, model.bytes, "memory contents");
    });
}

// ------------------------------------------------------------------ SBUF accumulate path

/// binary32 operands at every boundary of the format, both signs: zeros, the smallest and
/// largest subnormals, the smallest normals, 1 and its neighbours, values a quarter and half an
/// ulp of 1 (ties), integers where the ulp reaches 1, the largest finite value, infinity,
/// signalling and quiet NaNs. Only operands: every expected sum comes from the model's adder.
fn f32_boundaries() -> Vec<u32> {
    let bits = |x: f32| x.to_bits();
    let frac = (1u32 << (f32::MANTISSA_DIGITS - 1)) - 1;
    let inf = bits(f32::INFINITY);
    let min_normal = bits(f32::MIN_POSITIVE);
    let ulp1 = f32::EPSILON;
    let mags = [
        0,
        1,
        2,
        3,
        frac >> 1,
        min_normal - 2,
        min_normal - 1,
        min_normal,
        min_normal + 1,
        bits(2.0 * f32::MIN_POSITIVE) - 1,
        bits(1.0) - 1,
        bits(1.0),
        bits(1.0) + 1,
        bits(1.5),
        bits(2.0) - 1,
        bits(2.0),
        bits(ulp1 / 4.0),
        bits(ulp1 / 2.0),
        bits(ulp1 / 2.0) + 1,
        bits(ulp1),
        bits((1u32 << (f32::MANTISSA_DIGITS - 1)) as f32),
        bits(((1u32 << f32::MANTISSA_DIGITS) - 1) as f32),
        bits(f32::MAX) - 1,
        bits(f32::MAX),
        inf,
        inf + 1,
        bits(f32::NAN),
        inf | frac,
    ];
    let sign = bits(-0.0);
    mags.iter().flat_map(|&m| [m, m | sign]).collect()
}

/// The fp32 adder against the model's (xdie_model::reduce::f32_add, bit for bit): every pair of
/// boundary operands, then random pairs, half of them close in exponent (cancellation, ties).
/// The pairs enter one per cycle with gaps (every fifth cycle without the enable); each result
/// leaves with valid_o, in order, a fixed number of cycles later (the adder's latency), and y_o
/// holds between them.
#[test]
fn fp32_adder_matches_the_model() {
    use xdie_model::reduce::f32_add;
    harness::run(0xf32, |ctx| {
        let mut sim = ctx.sim(dut("xdie_fp32_add")).expect("fp32 adder model");
        let (a, b, en, valid, y) = (
            sim.port("a_i").expect("a_i"),
            sim.port("b_i").expect("b_i"),
            sim.port("en_i").expect("en_i"),
            sim.port("valid_o").expect("valid_o"),
            sim.port("y_o").expect("y_o"),
        );
        let edges = f32_boundaries();
        let mut pairs: Vec<(u32, u32)> = edges
            .iter()
            .flat_map(|&x| edges.iter().map(move |&z| (x, z)))
            .collect();
        let rng = &mut ctx.rng;
        let exp_mask = f32::INFINITY.to_bits() | (-0.0f32).to_bits();
        for i in 0..200_000 {
            let x = rng.next_u32();
            let z = if i % 2 == 0 {
                rng.next_u32()
            } else {
                // the same exponent give or take a few, random fraction and sign
                let near = (x & exp_mask) ^ ((rng.next_u32() & 3) << (f32::MANTISSA_DIGITS - 1));
                near | (rng.next_u32() & !exp_mask)
            };
            pairs.push((x, z));
        }
        sim.reset(2);
        // (cycle the pair entered, a, b), oldest first
        let mut in_flight = VecDeque::new();
        let mut next = pairs.iter();
        let mut held = None;
        let mut latency = None;
        let mut checked = 0;
        for cycle in 0u64.. {
            // Every fifth cycle presents a pair without the enable: it must not come out.
            let load = cycle % 5 != 0;
            let pair = if load { next.next() } else { None };
            if pair.is_none() && in_flight.is_empty() && cycle % 5 != 0 {
                break;
            }
            let (x, z) = pair.copied().unwrap_or((rng.next_u32(), rng.next_u32()));
            sim.set_u64(a, u64::from(x));
            sim.set_u64(b, u64::from(z));
            sim.set_u64(en, u64::from(pair.is_some()));
            sim.tick();
            if pair.is_some() {
                in_flight.push_back((cycle, x, z));
            }
            let got = sim.get_u64(y) as u32;
            if sim.get_u64(valid) != 0 {
                let (entered, x, z) = in_flight
                    .pop_front()
                    .expect("a result without an operand pair");
                let took = cycle + 1 - entered;
                assert_eq!(
                    *latency.get_or_insert(took),
                    took,
                    "{x:#010x} + {z:#010x} left after {took} cycles, the first sum after another number"
                );
                let want = f32_add(x, z);
                assert_eq!(
                    got,
                    want,
                    "{x:#010x} + {z:#010x} ({:e} + {:e}): RTL {got:#010x}, model {want:#010x}",
                    f32::from_bits(x),
                    f32::from_bits(z)
                );
                held = Some(got);
                checked += 1;
            } else if let Some(h) = held {
                assert_eq!(got, h, "the sum changed without valid_o");
            }
        }
        assert_eq!(checked, pairs.len(), "every pair's sum came out");
    });
}

/// Lane `l` (4 little-endian bytes) of a beat.
fn lane_of(beat: &[u8], l: usize) -> u32 {
    u32::from_le_bytes([
        beat[4 * l],
        beat[4 * l + 1],
        beat[4 * l + 2],
        beat[4 * l + 3],
    ])
}

/// Lane modes of the read-modify-write stage's requests (the master model's `sel`).
const PLAIN: u64 = 0;
const ACC_I32: u64 = 1;
const ACC_F32: u64 = 2;

/// A word-addressed memory with the two ports of xdie_mem behind xdie_sbuf_acc: port A
/// answers in order after random delays (reads first: the answer is the beat before this
/// edge's writes) and takes no write while port B writes, port B writes in the cycle it is
/// valid. Random requests (plain reads and
/// writes, int32 and fp32 accumulates with whole-lane strobes) to a few beats, so that most
/// requests meet a pending accumulate of their beat; the expected responses and final contents
/// come from a Rust memory that applies the requests in order with the model's lane adder.
#[rstest::rstest]
fn sbuf_acc_random_traffic_matches_the_model(#[values(0, 1, 2)] seed: u64) {
    use xdie_model::reduce::{add_lane, AccDtype};
    harness::run(0xacc0 + seed, |ctx| {
        let mut sim = ctx.sim(dut("xdie_sbuf_acc")).expect("sbuf acc model");
        let mut p = Pins::new(&sim);
        let (_, dw, aw) = geometry(&p, &DUT_SLAVE_SIDE);
        let lanes = dw / 4;
        let rng = &mut ctx.rng;
        let beats = 4u64;
        let mut model = Mem::default();
        let mut ops = VecDeque::new();
        let mut expect = VecDeque::new();
        let specials = f32_boundaries();
        for _ in 0..3000 {
            let addr = rng.below(beats) * dw as u64;
            let mode = match rng.below(10) {
                0..=1 => PLAIN,
                2..=5 => ACC_I32,
                _ => ACC_F32,
            };
            let mut r = random_req(rng, addr, dw);
            if mode != PLAIN {
                r.write = true;
                let on: Vec<bool> = (0..lanes).map(|_| rng.chance(80)).collect();
                r.wstrb = (0..dw).map(|i| on[i / 4]).collect();
                if mode == ACC_F32 {
                    for l in 0..lanes {
                        if rng.chance(30) {
                            let v = specials[rng.below(specials.len() as u64) as usize];
                            r.wdata[4 * l..4 * l + 4].copy_from_slice(&v.to_le_bytes());
                        }
                    }
                }
            }
            let rsp = if mode == PLAIN {
                model.access(&r, dw)
            } else {
                let dtype = if mode == ACC_I32 {
                    AccDtype::I32
                } else {
                    AccDtype::F32
                };
                let old = model.beat(addr, dw);
                let mut sum = old.clone();
                for l in (0..lanes).filter(|&l| r.wstrb[4 * l]) {
                    sum[4 * l..4 * l + 4].copy_from_slice(
                        &add_lane(dtype, lane_of(&old, l), lane_of(&r.wdata, l)).to_le_bytes(),
                    );
                }
                model.write(addr, dw, &sum, &vec![true; dw]);
                Rsp {
                    rdata: old,
                    err: OKAY,
                }
            };
            expect.push_back(rsp);
            ops.push_back((r, mode));
        }
        let mut m = MasterModel {
            idx: 0,
            ops,
            current: None,
            expect,
            got: 0,
            gap_pct: 15,
            rsp_ready_pct: 75,
            rsp_ready: false,
        };
        let mut slave = SlaveModel::new(0, 75, 2);
        let mut mem = Mem::default();
        sim.reset(2);
        let mut cycle = 0;
        while !m.done() {
            assert!(cycle < 100_000, "sbuf acc stalled");
            m.drive(&mut p, &DUT_SLAVE_SIDE, rng, dw, aw);
            let mode = m.current.as_ref().map_or(PLAIN, |(_, s)| *s);
            p.set_u("s_req_acc_i", 0, 1, u64::from(mode != PLAIN));
            p.set_u("s_req_fp_i", 0, 1, u64::from(mode == ACC_F32));
            slave.drive(&mut p, &DUT_MASTER_SIDE, rng, cycle, dw);
            // The memory gives its one array write port to port B first: it takes no plain
            // write (the accumulates' reads are reads) in a cycle a sum is written.
            let plain_write = m
                .current
                .as_ref()
                .is_some_and(|(r, s)| *s == PLAIN && r.write);
            if plain_write && Pins::get_u(&sim, &p, "m_wr_valid_o", 0, 1) != 0 {
                p.set_u("m_req_ready_i", 0, 1, 0);
            }
            p.apply(&mut sim);
            if m.sample(&sim, &p, &DUT_SLAVE_SIDE, dw) {
                m.current = None;
            }
            let (req, popped) = slave.sample(&sim, &p, &DUT_MASTER_SIDE, dw, aw);
            let wr = (Pins::get_u(&sim, &p, "m_wr_valid_o", 0, 1) != 0).then(|| {
                let s = Pins::get(&sim, &p, "m_wr_wstrb_o", 0, dw);
                (
                    Pins::get_u(&sim, &p, "m_wr_addr_o", 0, aw),
                    Pins::get(&sim, &p, "m_wr_wdata_o", 0, dw * 8),
                    (0..dw)
                        .map(|b| (s[b / 8] >> (b % 8)) & 1 != 0)
                        .collect::<Vec<_>>(),
                )
            });
            // Port A reads before this edge's writes land.
            let rsp = req.map(|r| mem.access(&r, dw));
            if let Some((addr, data, strb)) = wr {
                mem.write(addr, dw, &data, &strb);
            }
            slave.commit(popped, rsp, rng, cycle);
            sim.tick();
            cycle += 1;
        }
        // The last sums are still in the add pipeline: let them land (no new requests, and the
        // slave has answered everything: no response is presented).
        p.set_u("s_req_valid_i", 0, 1, 0);
        p.set_u("m_rsp_valid_i", 0, 1, 0);
        for _ in 0..32 {
            p.apply(&mut sim);
            if Pins::get_u(&sim, &p, "m_wr_valid_o", 0, 1) != 0 {
                let s = Pins::get(&sim, &p, "m_wr_wstrb_o", 0, dw);
                let strb: Vec<bool> = (0..dw).map(|b| (s[b / 8] >> (b % 8)) & 1 != 0).collect();
                mem.write(
                    Pins::get_u(&sim, &p, "m_wr_addr_o", 0, aw),
                    dw,
                    &Pins::get(&sim, &p, "m_wr_wdata_o", 0, dw * 8),
                    &strb,
                );
            }
            sim.tick();
        }
        for b in 0..beats {
            let at = b * dw as u64;
            assert_eq!(
                mem.beat(at, dw),
                model.beat(at, dw),
                "beat {b} differs from the model"
            );
        }
    });
}

/// Always-ready memory with a latency of one cycle, responses always taken: plain writes and
/// accumulates to distinct beats are accepted on every cycle.
#[test]
fn sbuf_acc_streams_one_beat_per_cycle() {
    harness::run(3, |ctx| {
        let mut sim = ctx.sim(dut("xdie_sbuf_acc")).expect("sbuf acc model");
        let mut p = Pins::new(&sim);
        let (_, dw, aw) = geometry(&p, &DUT_SLAVE_SIDE);
        sim.reset(2);
        p.set_u("s_rsp_ready_i", 0, 1, 1);
        p.set_u("m_req_ready_i", 0, 1, 1);
        p.set_u("s_req_valid_i", 0, 1, 1);
        p.set_u("s_req_write_i", 0, 1, 1);
        p.set("s_req_wstrb_i", 0, dw, &vec![0xff; dw.div_ceil(8)]);
        let mut in_flight = false;
        for i in 0..100u64 {
            // a run of plain writes, then a run of int32 and fp32 accumulates
            let mode = if i < 30 { PLAIN } else { 1 + i % 2 };
            p.set_u("s_req_acc_i", 0, 1, u64::from(mode != PLAIN));
            p.set_u("s_req_fp_i", 0, 1, u64::from(mode == ACC_F32));
            p.set_u("s_req_addr_i", 0, aw, (i % 16) * dw as u64);
            p.set_u("m_rsp_valid_i", 0, 1, u64::from(in_flight));
            p.apply(&mut sim);
            // The first accumulate after the plain writes may wait for none of them.
            assert_eq!(
                Pins::get_u(&sim, &p, "s_req_ready_o", 0, 1),
                1,
                "stall at beat {i}"
            );
            in_flight = Pins::get_u(&sim, &p, "m_req_valid_o", 0, 1) != 0;
            sim.tick();
        }
    });
}

/// The accumulate stage after reset with everything ready, a Rust array of `beats` random beats
/// as its memory, and a random operand on the request port with every strobe set: `want` is
/// beat 1 with the operand added as int32 lanes (the model's lane adder).
struct AccFixture {
    sim: Sim,
    p: Pins,
    dw: usize,
    aw: usize,
    beats: usize,
    mem: Vec<Vec<u8>>,
    want: Vec<u8>,
}

fn acc_fixture(ctx: &mut harness::Ctx) -> AccFixture {
    use xdie_model::reduce::{add_lane, AccDtype};
    let mut sim = ctx.sim(dut("xdie_sbuf_acc")).expect("sbuf acc model");
    let mut p = Pins::new(&sim);
    let (_, dw, aw) = geometry(&p, &DUT_SLAVE_SIDE);
    let rng = &mut ctx.rng;
    let beats = 4usize;
    let mem: Vec<Vec<u8>> = (0..beats)
        .map(|_| (0..dw).map(|_| rng.next_u32() as u8).collect())
        .collect();
    let opd: Vec<u8> = (0..dw).map(|_| rng.next_u32() as u8).collect();
    let want: Vec<u8> = (0..dw / 4)
        .flat_map(|l| add_lane(AccDtype::I32, lane_of(&mem[1], l), lane_of(&opd, l)).to_le_bytes())
        .collect();
    sim.reset(2);
    p.set_u("s_rsp_ready_i", 0, 1, 1);
    p.set_u("m_req_ready_i", 0, 1, 1);
    p.set("s_req_wstrb_i", 0, dw, &vec![0xff; dw.div_ceil(8)]);
    p.set("s_req_wdata_i", 0, dw * 8, &opd);
    AccFixture {
        sim,
        p,
        dw,
        aw,
        beats,
        mem,
        want,
    }
}

/// An accumulate is answered as its read passes, before its sum lands; a read of the same beat
/// presented right behind it waits for the sum and returns it, and a read of another beat is
/// not held up. Always-ready memory with a latency of one cycle (a Rust array here, written by
/// port B and read by port A at the edge a request is accepted).
#[test]
fn sbuf_acc_read_behind_an_accumulate_sees_the_sum() {
    harness::run(4, |ctx| {
        let AccFixture {
            mut sim,
            mut p,
            dw,
            aw,
            beats,
            mut mem,
            want,
        } = acc_fixture(ctx);
        // an int32 accumulate to beat 1, then reads of beat 2 and of beat 1
        let reqs = [(true, 1usize), (false, 2), (false, 1)];
        let mut next = 0;
        let mut in_flight: Option<Vec<u8>> = None;
        let mut answers = Vec::new();
        for cycle in 0..40u64 {
            let (acc, beat) = reqs.get(next).copied().unwrap_or((false, 0));
            p.set_u("s_req_valid_i", 0, 1, u64::from(next < reqs.len()));
            p.set_u("s_req_write_i", 0, 1, u64::from(acc));
            p.set_u("s_req_acc_i", 0, 1, u64::from(acc));
            p.set_u("s_req_fp_i", 0, 1, 0);
            p.set_u("s_req_addr_i", 0, aw, (beat * dw) as u64);
            p.set_u("m_rsp_valid_i", 0, 1, u64::from(in_flight.is_some()));
            p.set(
                "m_rsp_rdata_i",
                0,
                dw * 8,
                in_flight.as_deref().unwrap_or(&vec![0; dw]),
            );
            p.apply(&mut sim);
            if Pins::get_u(&sim, &p, "s_rsp_valid_o", 0, 1) != 0 {
                answers.push((cycle, Pins::get(&sim, &p, "s_rsp_rdata_o", 0, dw * 8)));
            }
            let accepted = Pins::get_u(&sim, &p, "m_req_valid_o", 0, 1) != 0;
            let read_beat = Pins::get_u(&sim, &p, "m_req_addr_o", 0, aw) as usize / dw % beats;
            // Port A reads before this edge's port-B write lands.
            in_flight = accepted.then(|| mem[read_beat].clone());
            if Pins::get_u(&sim, &p, "m_wr_valid_o", 0, 1) != 0 {
                let at = Pins::get_u(&sim, &p, "m_wr_addr_o", 0, aw) as usize / dw % beats;
                mem[at] = Pins::get(&sim, &p, "m_wr_wdata_o", 0, dw * 8);
            }
            if Pins::get_u(&sim, &p, "s_req_ready_o", 0, 1) != 0 && next < reqs.len() {
                next += 1;
            }
            sim.tick();
        }
        assert_eq!(answers.len(), 3, "every request answered once");
        assert!(
            answers[1].0 < answers[2].0 && answers[2].0 > answers[0].0 + 2,
            "the read of another beat went by, the read of the accumulated beat waited: {:?}",
            answers.iter().map(|a| a.0).collect::<Vec<_>>()
        );
        assert_eq!(
            answers[2].1, want,
            "the read behind the accumulate returns the sum"
        );
    });
}

/// The read side (port R's pass-through) meets the accumulate hazard: after an int32 accumulate
/// to beat 1 on port A, a read of beat 2 on R goes to the memory at once, a read of beat 1 only
/// after the edge the sum is written (port B), so it reads the sum. Always-ready memory with a
/// latency of one cycle (a Rust array, read at the edge a read passes, before that edge's write).
#[test]
fn sbuf_acc_read_side_waits_for_a_pending_sum() {
    harness::run(5, |ctx| {
        let AccFixture {
            mut sim,
            mut p,
            dw,
            aw,
            beats,
            mut mem,
            want,
        } = acc_fixture(ctx);
        p.set_u("m_rd_ready_i", 0, 1, 1);
        p.set_u("s_req_write_i", 0, 1, 1);
        p.set_u("s_req_acc_i", 0, 1, 1);
        p.set_u("s_req_fp_i", 0, 1, 0);
        p.set_u("s_req_addr_i", 0, aw, dw as u64);
        let mut acc_pending = true;
        let reads = [2usize, 1];
        let mut next = 0;
        let mut in_flight: Option<Vec<u8>> = None;
        let (mut passed, mut sum_at) = (Vec::new(), None);
        for cycle in 0..40u64 {
            p.set_u("s_req_valid_i", 0, 1, u64::from(acc_pending));
            // the reads start in the cycle after the accumulate
            let r = (cycle > 0).then(|| reads.get(next).copied()).flatten();
            p.set_u("r_req_valid_i", 0, 1, u64::from(r.is_some()));
            p.set_u("r_req_addr_i", 0, aw, (r.unwrap_or(0) * dw) as u64);
            p.set_u("m_rsp_valid_i", 0, 1, u64::from(in_flight.is_some()));
            p.set(
                "m_rsp_rdata_i",
                0,
                dw * 8,
                in_flight.as_deref().unwrap_or(&vec![0; dw]),
            );
            p.apply(&mut sim);
            if acc_pending && Pins::get_u(&sim, &p, "s_req_ready_o", 0, 1) != 0 {
                let at = Pins::get_u(&sim, &p, "m_req_addr_o", 0, aw) as usize / dw % beats;
                in_flight = Some(mem[at].clone());
                acc_pending = false;
            } else {
                in_flight = None;
            }
            if Pins::get_u(&sim, &p, "m_rd_valid_o", 0, 1) != 0 {
                assert_eq!(Pins::get_u(&sim, &p, "r_req_ready_o", 0, 1), 1);
                let at = Pins::get_u(&sim, &p, "m_rd_addr_o", 0, aw) as usize / dw % beats;
                passed.push((cycle, at, mem[at].clone()));
                next += 1;
            }
            if Pins::get_u(&sim, &p, "m_wr_valid_o", 0, 1) != 0 {
                let at = Pins::get_u(&sim, &p, "m_wr_addr_o", 0, aw) as usize / dw % beats;
                mem[at] = Pins::get(&sim, &p, "m_wr_wdata_o", 0, dw * 8);
                sum_at = Some(cycle);
            }
            sim.tick();
        }
        let sum_at = sum_at.expect("the sum was written");
        assert_eq!(passed.len(), 2, "both reads went to the memory");
        assert_eq!((passed[0].1, passed[1].1), (reads[0], reads[1]));
        assert!(
            passed[0].0 == 1 && passed[1].0 > sum_at,
            "the read of beat 2 went at once (cycle {}), the read of beat 1 after the sum's \
             edge {sum_at} (cycle {})",
            passed[0].0,
            passed[1].0
        );
        assert_eq!(passed[1].2, want, "the read side reads the sum");
    });
}

/// The SBUF mapping in front of the accumulate path: a write into SBUF_ACC_I32 or SBUF_ACC_F32
/// reaches the memory side at the mapped address with m_req_acc_o set (m_req_fp_o for fp32);
/// a read there, or a write with a partly strobed lane, is refused SLVERR and reaches the memory
/// as a write without strobes; past the backing it is DECERR as in SBUF. Plain SBUF traffic in
/// between keeps its mapping and m_req_acc_o clear.
#[test]
fn sbuf_accumulate_apertures_and_refusals() {
    use xdie_model::reduce::AccDtype;
    harness::run(0x5bacc, |ctx| {
        let mut sim = ctx.sim(dut("xdie_sbuf")).expect("sbuf model");
        let mut p = Pins::new(&sim);
        let (_, dw, aw) = geometry(&p, &DUT_SLAVE_SIDE);
        let v = views();
        let (parts, backing) = (v.params.sbuf_partitions, v.params.sbuf_backing_bytes);
        let rng = &mut ctx.rng;
        let mut ops = VecDeque::new();
        let mut expect = VecDeque::new();
        // (mapped address, write, strobes, acc, fp) of each request the memory side must see
        let mut mem_side = VecDeque::new();
        let mut model = Mem::default();
        for _ in 0..1500 {
            let part = rng.below(parts);
            let b = rng.below(backing / dw as u64 + 2) * dw as u64;
            let dtype = match rng.below(3) {
                0 => None,
                1 => Some(AccDtype::I32),
                _ => Some(AccDtype::F32),
            };
            let addr = match dtype {
                None => v.sbuf_addr(0, part, b),
                Some(d) => v.sbuf_acc_addr(d, 0, part, b),
            };
            let mut r = random_req(rng, addr, dw);
            if dtype.is_some() && r.write && rng.chance(70) {
                let on: Vec<bool> = (0..dw / 4).map(|_| rng.chance(60)).collect();
                r.wstrb = (0..dw).map(|i| on[i / 4]).collect();
            }
            let partial = (0..dw / 4).any(|l| (1..4).any(|k| r.wstrb[4 * l + k] != r.wstrb[4 * l]));
            let (rsp, side) = if b >= backing {
                (
                    Rsp {
                        rdata: vec![0; dw],
                        err: DECERR,
                    },
                    (0, true, vec![false; dw], false, false),
                )
            } else if dtype.is_some() && (!r.write || partial) {
                (
                    Rsp {
                        rdata: vec![0; dw],
                        err: SLVERR,
                    },
                    (0, true, vec![false; dw], false, false),
                )
            } else {
                let mut mapped = r.clone();
                mapped.addr = part * backing + b;
                let acc = dtype.is_some();
                (
                    model.access(&mapped, dw),
                    (
                        mapped.addr,
                        r.write,
                        r.wstrb.clone(),
                        acc,
                        dtype == Some(AccDtype::F32),
                    ),
                )
            };
            expect.push_back(rsp);
            mem_side.push_back(side);
            ops.push_back((r, 0));
        }
        // The memory stands in for the accumulate path: an accumulate writes its data.
        let mem = drive_sbuf(
            &mut sim,
            &mut p,
            rng,
            ops,
            expect,
            (dw, aw),
            |sim, p, r, cycle| {
                let acc = Pins::get_u(sim, p, "m_req_acc_o", 0, 1) != 0;
                let fp = Pins::get_u(sim, p, "m_req_fp_o", 0, 1) != 0;
                let want = mem_side
                    .pop_front()
                    .expect("a request the master did not make");
                // The lane type matters only for an accumulate.
                let got = (r.addr, r.write, r.wstrb.clone(), acc, acc && fp);
                assert_eq!(got, want, "memory-side request at cycle {cycle}");
            },
        );
        assert_eq!(
            mem.bytes, model.bytes,
            "memory contents differ from the model"
        );
    });
}
