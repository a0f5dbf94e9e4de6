//! SDMA engine: the engine alone, with its two queue groups and its two bus ports modelled here.
//! The queue-group model keeps base, head, head ring id, used and enable per queue and applies
//! the engine's head pulses the way the generated blocks do (one descriptor per pulse, ring id
//! steps on wrap). One byte memory answers both bus ports, each with random request stalls and
//! random response delays (in order); a write lands when its response is given.
//!
//! Expected memory contents are computed here: after every batch the whole memory must equal
//! the initial contents with exactly the described copies applied, which checks the copied
//! bytes and every guard byte around each destination. Descriptor layouts come from the model.

use std::collections::VecDeque;
use xdie_csr::{DescLayout, Side};
use xdie_tb::regmodel::csrs;
use xdie_tb::sim::Port;
use xdie_tb::{harness, Ctx, DutKind, Rng, Sim};

const MEM_BYTES: usize = 1 << 20;
const RING_BASE: u64 = 0x1000;
const RING_SLOTS: u64 = 8;
const SRC_BASE: u64 = 0x4_0000;
const DST_BASE: u64 = 0x8_0000;
const SEM_ADDR: u64 = 0xF_0000;

fn kind() -> Option<DutKind> {
    DutKind::ALL
        .iter()
        .copied()
        .find(|k| k.name() == "xdie_sdma_engine")
}

fn desc(side: Side) -> &'static DescLayout {
    csrs().views.desc(side)
}

/// Packs per-queue values of `w` bits into 32-bit words.
fn pack(values: &[u64], w: u32) -> Vec<u32> {
    let total = values.len() as u32 * w;
    let mut out = vec![0u32; total.div_ceil(32) as usize];
    for (i, &v) in values.iter().enumerate() {
        for b in 0..w {
            if b < 64 && (v >> b) & 1 == 1 {
                let bit = i as u32 * w + b;
                out[(bit / 32) as usize] |= 1 << (bit % 32);
            }
        }
    }
    out
}

/// One ring of one queue group, as the generated block keeps it.
#[derive(Clone)]
struct Ring {
    base: u64,
    head: u64,
    head_id: u64,
    tail: u64,
    tail_id: u64,
    used: u64,
    enable: bool,
}

impl Ring {
    fn new(base: u64) -> Ring {
        let init = u64::from(csrs().ring.initial_ring_id);
        Ring {
            base,
            head: 0,
            head_id: init,
            tail: 0,
            tail_id: init,
            used: 0,
            enable: true,
        }
    }
    fn id_mask() -> u64 {
        (1 << csrs().ring.ring_id_width) - 1
    }
    fn pop(&mut self) {
        assert!(self.used > 0, "head pulse on an empty ring");
        self.used -= 1;
        self.head += 1;
        if self.head == RING_SLOTS {
            self.head = 0;
            self.head_id = (self.head_id + 1) & Ring::id_mask();
        }
    }
    /// Writes a descriptor at the tail (stamped with `id`, or the tail's ring id) and posts it.
    fn post(&mut self, mem: &mut [u8], word: u128, d: &DescLayout, id: Option<u64>) {
        let stamp = id.unwrap_or(self.tail_id);
        let word = d.ring_id.set(word, stamp.into());
        let at = (self.base + self.tail * u64::from(d.format.bytes)) as usize;
        mem[at..at + 16].copy_from_slice(&word.to_le_bytes());
        self.tail += 1;
        self.used += 1;
        if self.tail == RING_SLOTS {
            self.tail = 0;
            self.tail_id = (self.tail_id + 1) & Ring::id_mask();
        }
    }
    /// rst_q of the block: empty, pointers and ids back to their reset values.
    fn reset(&mut self) {
        *self = Ring {
            enable: self.enable,
            ..Ring::new(self.base)
        };
    }
}

struct Pending {
    due: u64,
    data: Vec<u8>,
    err: u64,
    write: Option<(u64, Vec<u8>, u64)>,
}

/// One bus slave port on the shared memory.
struct BusPort {
    req_valid: Port,
    req_ready: Port,
    req_write: Port,
    req_addr: Port,
    req_wdata: Port,
    req_wstrb: Port,
    rsp_valid: Port,
    rsp_ready: Port,
    rsp_rdata: Port,
    rsp_err: Port,
    pending: VecDeque<Pending>,
    presented: bool,
    ready_now: bool,
    accept_pct: u32,
    rsp_pct: u32,
    max_delay: u64,
}

impl BusPort {
    fn new(sim: &Sim, p: &str) -> BusPort {
        let port = |s: &str| {
            sim.require_port(&format!("m_{p}_{s}"))
                .expect("engine port")
        };
        BusPort {
            req_valid: port("req_valid_o"),
            req_ready: port("req_ready_i"),
            req_write: port("req_write_o"),
            req_addr: port("req_addr_o"),
            req_wdata: port("req_wdata_o"),
            req_wstrb: port("req_wstrb_o"),
            rsp_valid: port("rsp_valid_i"),
            rsp_ready: port("rsp_ready_o"),
            rsp_rdata: port("rsp_rdata_i"),
            rsp_err: port("rsp_err_i"),
            pending: VecDeque::new(),
            presented: false,
            ready_now: false,
            accept_pct: 100,
            rsp_pct: 100,
            max_delay: 0,
        }
    }
}

/// What the bus saw, for ordering and throughput checks.
#[derive(Default)]
struct Log {
    /// Cycles at which a data write (not a semaphore write) was accepted.
    write_cycles: Vec<u64>,
    /// Writes accepted and not yet answered when each semaphore write was accepted.
    sem_write_outstanding: Vec<usize>,
    data_reads: u64,
}

struct Tb {
    sim: Sim,
    dw: usize,
    q: usize,
    mem: Vec<u8>,
    m2s: Vec<Ring>,
    s2m: Vec<Ring>,
    rd: BusPort,
    wr: BusPort,
    rng: Rng,
    cycle: u64,
    log: Log,
    head_incs: u64,
    rid_err_m: u64,
    rid_err_s: u64,
    p: Ports,
}

/// The engine's queue-group side: per side, the parallel enable and non-empty vectors and the
/// read port's data; for both sides, the read index and the head pulse.
struct Ports {
    en: [Port; 2],
    nonempty: [Port; 2],
    rd_idx: Port,
    base: [Port; 2],
    head: [Port; 2],
    hid: [Port; 2],
    inc_valid: Port,
    inc_idx: Port,
    rid_err: [Port; 2],
    err: Port,
}

impl Tb {
    fn new(ctx: &mut Ctx, kind: DutKind) -> Tb {
        let mut sim = ctx.sim(kind).expect("engine model");
        let p2 = |s: &str| {
            [
                sim.require_port(&format!("m2s_{s}")).expect("port"),
                sim.require_port(&format!("s2m_{s}")).expect("port"),
            ]
        };
        let p = Ports {
            en: p2("enable_i"),
            nonempty: p2("nonempty_i"),
            rd_idx: sim.require_port("rd_idx_o").expect("port"),
            base: p2("rd_ring_base_i"),
            head: p2("rd_head_i"),
            hid: p2("rd_head_ring_id_i"),
            inc_valid: sim.require_port("head_inc_valid_o").expect("port"),
            inc_idx: sim.require_port("head_inc_idx_o").expect("port"),
            rid_err: p2("ring_id_err_o"),
            err: sim.require_port("err_o").expect("port"),
        };
        let rd = BusPort::new(&sim, "rd");
        let wr = BusPort::new(&sim, "wr");
        let dw = rd.req_wstrb.info().width as usize;
        let q = p.en[0].info().width as usize;
        let mut rng = Rng::new(ctx.sub_seed());
        let mut mem = vec![0u8; MEM_BYTES];
        for b in mem.iter_mut() {
            *b = rng.next_u32() as u8;
        }
        let ring_bytes = RING_SLOTS * u64::from(desc(Side::M2s).format.bytes);
        let m2s = (0..q as u64)
            .map(|i| Ring::new(RING_BASE + 2 * i * ring_bytes))
            .collect();
        let s2m = (0..q as u64)
            .map(|i| Ring::new(RING_BASE + (2 * i + 1) * ring_bytes))
            .collect();
        sim.reset(2);
        Tb {
            sim,
            dw,
            q,
            mem,
            m2s,
            s2m,
            rd,
            wr,
            rng,
            cycle: 0,
            log: Log::default(),
            head_incs: 0,
            rid_err_m: 0,
            rid_err_s: 0,
            p,
        }
    }

    fn stalls(&mut self, accept_pct: u32, rsp_pct: u32, max_delay: u64) {
        for bp in [&mut self.rd, &mut self.wr] {
            bp.accept_pct = accept_pct;
            bp.rsp_pct = rsp_pct;
            bp.max_delay = max_delay;
        }
    }

    /// Drives the queue groups' outputs: the parallel vectors, then (once the engine has
    /// settled on the queue it reads) the read port's data for that queue.
    fn drive_rings(&mut self) {
        for (side, rings) in [&self.m2s, &self.s2m].into_iter().enumerate() {
            let v = |f: &dyn Fn(&Ring) -> u64| rings.iter().map(f).collect::<Vec<_>>();
            let en = pack(&v(&|r| u64::from(r.enable)), 1);
            let nonempty = pack(&v(&|r| u64::from(r.used != 0)), 1);
            self.sim.set(self.p.en[side], &en);
            self.sim.set(self.p.nonempty[side], &nonempty);
        }
        self.sim.eval();
        let idx = self.sim.get_u64(self.p.rd_idx) as usize;
        for side in 0..2 {
            let ring = if side == 0 { &self.m2s } else { &self.s2m };
            // An index past the last queue reads what a queue group's array holds there: nothing
            // defined, so the engine must not use it; zeros here.
            let r = ring
                .get(idx)
                .map_or((0, 0, 0), |r| (r.base, r.head, r.head_id));
            self.sim.set_u64(self.p.base[side], r.0);
            self.sim.set_u64(self.p.head[side], r.1);
            self.sim.set_u64(self.p.hid[side], r.2);
        }
    }

    fn beat_bytes(&self, addr: u64) -> Vec<u8> {
        let a = (addr as usize) & !(self.dw - 1);
        self.mem[a..a + self.dw].to_vec()
    }

    /// One clock cycle of the whole bench.
    fn step(&mut self) {
        self.drive_rings();
        // Present responses and ready.
        for is_wr in [false, true] {
            let (bp, rng, sim) = if is_wr {
                (&mut self.wr, &mut self.rng, &mut self.sim)
            } else {
                (&mut self.rd, &mut self.rng, &mut self.sim)
            };
            bp.ready_now = rng.chance(bp.accept_pct);
            sim.set_u64(bp.req_ready, u64::from(bp.ready_now));
            let due = bp.pending.front().is_some_and(|p| p.due <= self.cycle);
            if !bp.presented && due && rng.chance(bp.rsp_pct) {
                bp.presented = true;
            }
            sim.set_u64(bp.rsp_valid, u64::from(bp.presented));
            if let Some(p) = bp.pending.front().filter(|_| bp.presented) {
                let words: Vec<u32> = p
                    .data
                    .chunks(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect();
                sim.set(bp.rsp_rdata, &words);
                sim.set_u64(bp.rsp_err, p.err);
            }
        }
        self.sim.eval();

        // Head pulses and ring-id errors (registered outputs: the blocks apply them this edge).
        if self.sim.get_u64(self.p.inc_valid) == 1 {
            let qi = self.sim.get_u64(self.p.inc_idx) as usize;
            assert!(qi < self.q, "head pulse for queue {qi} of {}", self.q);
            self.m2s[qi].pop();
            self.s2m[qi].pop();
            self.head_incs += 1;
        }
        self.rid_err_m += self.sim.get_u64(self.p.rid_err[0]);
        self.rid_err_s += self.sim.get_u64(self.p.rid_err[1]);

        // Requests and responses that fire at this edge.
        for is_wr in [false, true] {
            let dw = self.dw;
            let cycle = self.cycle;
            let (valid, write, addr, wdata, wstrb, rsp_ready) = {
                let bp = if is_wr { &self.wr } else { &self.rd };
                (
                    self.sim.get_u64(bp.req_valid) == 1,
                    self.sim.get_u64(bp.req_write) == 1,
                    self.sim.get_u64(bp.req_addr),
                    self.sim.get(bp.req_wdata),
                    self.sim.get_u64(bp.req_wstrb),
                    self.sim.get_u64(bp.rsp_ready) == 1,
                )
            };
            let outstanding = if is_wr { self.wr.pending.len() } else { 0 };
            let ready = if is_wr {
                self.wr.ready_now
            } else {
                self.rd.ready_now
            };
            if valid && ready {
                assert_eq!(write, is_wr, "request on the wrong port");
                let data = if write {
                    vec![0u8; dw]
                } else {
                    self.beat_bytes(addr)
                };
                let w = write.then(|| {
                    let bytes: Vec<u8> = wdata.iter().flat_map(|x| x.to_le_bytes()).collect();
                    (addr, bytes[..dw].to_vec(), wstrb)
                });
                if write {
                    if addr & !(dw as u64 - 1) == SEM_ADDR {
                        self.log.sem_write_outstanding.push(outstanding);
                    } else {
                        self.log.write_cycles.push(cycle);
                    }
                } else if addr >= SRC_BASE {
                    self.log.data_reads += 1;
                }
                let bp = if is_wr { &mut self.wr } else { &mut self.rd };
                let last_due = bp.pending.back().map_or(0, |p| p.due);
                let delay = 1 + self.rng.below(bp.max_delay + 1);
                bp.pending.push_back(Pending {
                    due: (cycle + delay).max(last_due),
                    data,
                    err: 0,
                    write: w,
                });
            }
            let bp = if is_wr { &mut self.wr } else { &mut self.rd };
            if bp.presented && rsp_ready {
                let p = bp.pending.pop_front().expect("presented response");
                bp.presented = false;
                if let Some((a, bytes, strb)) = p.write {
                    let base = (a as usize) & !(dw - 1);
                    for (i, b) in bytes.iter().enumerate() {
                        if (strb >> i) & 1 == 1 {
                            self.mem[base + i] = *b;
                        }
                    }
                }
            }
        }
        self.sim.tick();
        self.cycle += 1;
    }

    /// Runs until `done` or the cycle budget runs out (a hang fails the test, not a timing goal).
    fn run_until(&mut self, budget: u64, what: &str, done: impl Fn(&Tb) -> bool) {
        for _ in 0..budget {
            if done(self) {
                return;
            }
            self.step();
        }
        panic!("{what}: not done after {budget} cycles");
    }

    fn quiet(&self) -> bool {
        self.rd.pending.is_empty() && self.wr.pending.is_empty()
    }

    fn post_pair(&mut self, qi: usize, src: u64, dst: u64, len: u64, barrier: bool) {
        let (m, s) = (desc(Side::M2s), desc(Side::S2m));
        let code = if len == csrs().ring.max_len_code {
            0
        } else {
            len
        };
        let mut w = m.len.set(0, code.into());
        w = m.buf_ptr.set(w, src.into());
        let barrier_f = m.write_barrier.as_ref().expect("M2S write barrier");
        w = barrier_f.set(w, u128::from(barrier));
        let mut ws = s.len.set(0, code.into());
        ws = s.buf_ptr.set(ws, dst.into());
        self.s2m[qi].post(&mut self.mem, ws, s, None);
        self.m2s[qi].post(&mut self.mem, w, m, None);
    }
}

fn copy_expected(exp: &mut [u8], src: u64, dst: u64, len: u64) {
    let (s, d, l) = (src as usize, dst as usize, len as usize);
    let tmp = exp[s..s + l].to_vec();
    exp[d..d + l].copy_from_slice(&tmp);
}

fn open(ctx: &mut Ctx) -> Option<Tb> {
    let Some(k) = kind() else {
        eprintln!("xdie_sdma_engine is not in rtl/xdie.f: nothing to test");
        return None;
    };
    Some(Tb::new(ctx, k))
}

/// Copies one pair at a time on queue `qi`, checking the whole memory after each.
fn copies(tb: &mut Tb, cases: &[(u64, u64, u64)]) {
    for (n, &(src, dst, len)) in cases.iter().enumerate() {
        let qi = n % tb.q;
        let mut exp = tb.mem.clone();
        copy_expected(&mut exp, src, dst, len);
        let before = tb.head_incs;
        tb.post_pair(qi, src, dst, len, false);
        // Ring writes changed memory after the clone: mirror them.
        exp[RING_BASE as usize..SRC_BASE as usize]
            .copy_from_slice(&tb.mem[RING_BASE as usize..SRC_BASE as usize]);
        tb.run_until(20 * len + 2000, "copy", |t| {
            t.head_incs == before + 1 && t.quiet()
        });
        assert!(
            tb.mem == exp,
            "copy {n}: src {src:#x} dst {dst:#x} len {len}: memory differs from the expected \
             copy (first difference at {:#x})",
            tb.mem
                .iter()
                .zip(&exp)
                .position(|(a, b)| a != b)
                .unwrap_or(0)
        );
    }
    assert_eq!(tb.sim.get_u64(tb.p.err), 0, "no error response was given");
}

#[test]
fn length_sweep_with_random_alignment_and_stalls() {
    harness::run(1, |ctx| {
        let Some(mut tb) = open(ctx) else { return };
        tb.stalls(70, 70, 4);
        let dw = tb.dw as u64;
        let mut cases = Vec::new();
        for len in 1..=4 * dw + 3 {
            let so = tb.rng.below(dw);
            let d = tb.rng.below(dw);
            cases.push((SRC_BASE + 4 * dw + so, DST_BASE + 4 * dw + d, len));
        }
        copies(&mut tb, &cases);
    });
}

#[test]
fn alignment_sweep() {
    harness::run(2, |ctx| {
        let Some(mut tb) = open(ctx) else { return };
        tb.stalls(80, 80, 3);
        let dw = tb.dw as u64;
        let mut cases = Vec::new();
        for so in 0..dw {
            for d in 0..dw {
                let len = [1, dw - 1, dw + 1, 3 * dw][((so + d) % 4) as usize];
                cases.push((SRC_BASE + 64 + so, DST_BASE + 64 + d, len));
            }
        }
        copies(&mut tb, &cases);
    });
}

#[test]
fn around_4k_and_64k() {
    harness::run(3, |ctx| {
        let Some(mut tb) = open(ctx) else { return };
        tb.stalls(85, 85, 3);
        let dw = tb.dw as u64;
        let mut cases = Vec::new();
        for len in 4093..=4099u64 {
            cases.push((
                SRC_BASE + tb.rng.below(dw),
                DST_BASE + tb.rng.below(dw),
                len,
            ));
        }
        let max = csrs().ring.max_len_code;
        cases.push((SRC_BASE + 5, DST_BASE + 17, max));
        copies(&mut tb, &cases);
    });
}

#[test]
fn m2s_posted_before_s2m_is_held() {
    harness::run(4, |ctx| {
        let Some(mut tb) = open(ctx) else { return };
        let (src, dst, len) = (SRC_BASE + 3, DST_BASE + 9, 100);
        let mut exp = tb.mem.clone();
        copy_expected(&mut exp, src, dst, len);
        // Post the M2S descriptor alone, as software arming the source first would.
        let m = desc(Side::M2s);
        let mut w = m.len.set(0, len.into());
        w = m.buf_ptr.set(w, src.into());
        tb.m2s[0].post(&mut tb.mem, w, m, None);
        for _ in 0..500 {
            tb.step();
        }
        assert_eq!(tb.log.data_reads, 0, "no source read before S2M is armed");
        assert_eq!(tb.head_incs, 0);
        assert_eq!(tb.m2s[0].used, 1, "the M2S descriptor is still posted");
        let s = desc(Side::S2m);
        let mut ws = s.len.set(0, len.into());
        ws = s.buf_ptr.set(ws, dst.into());
        tb.s2m[0].post(&mut tb.mem, ws, s, None);
        exp[RING_BASE as usize..SRC_BASE as usize]
            .copy_from_slice(&tb.mem[RING_BASE as usize..SRC_BASE as usize]);
        tb.run_until(5000, "held copy", |t| t.head_incs == 1 && t.quiet());
        assert!(tb.mem == exp, "the held copy moved the right bytes");
    });
}

#[test]
fn write_barrier_orders_semaphore_after_data() {
    harness::run(5, |ctx| {
        let Some(mut tb) = open(ctx) else { return };
        assert!(tb.q >= 2, "needs two queues");
        // Slow write responses, so data writes are still in flight when the barrier pair is
        // scheduled on the other queue.
        tb.stalls(100, 30, 12);
        let mut exp = tb.mem.clone();
        copy_expected(&mut exp, SRC_BASE + 1, DST_BASE + 2, 3000);
        copy_expected(&mut exp, SRC_BASE + 0x8000, SEM_ADDR, 4);
        tb.post_pair(0, SRC_BASE + 1, DST_BASE + 2, 3000, false);
        tb.post_pair(1, SRC_BASE + 0x8000, SEM_ADDR, 4, true);
        exp[RING_BASE as usize..SRC_BASE as usize]
            .copy_from_slice(&tb.mem[RING_BASE as usize..SRC_BASE as usize]);
        tb.run_until(100_000, "barrier", |t| t.head_incs == 2 && t.quiet());
        assert!(tb.mem == exp);
        assert_eq!(
            tb.log.sem_write_outstanding,
            vec![0],
            "the barrier write is issued only when every earlier write was answered"
        );
        let last_data = *tb.log.write_cycles.last().expect("data writes");
        assert!(!tb.log.write_cycles.is_empty() && last_data > 0);
    });
}

#[test]
fn ring_id_mismatch_halts_the_queue_until_reset() {
    harness::run(6, |ctx| {
        let Some(mut tb) = open(ctx) else { return };
        let (m, s) = (desc(Side::M2s), desc(Side::S2m));
        let bad = (tb.m2s[0].tail_id + 1) & Ring::id_mask();
        let mut w = m.len.set(0, 64);
        w = m.buf_ptr.set(w, SRC_BASE.into());
        let mut ws = s.len.set(0, 64);
        ws = s.buf_ptr.set(ws, DST_BASE.into());
        let before = tb.mem.clone();
        tb.s2m[0].post(&mut tb.mem, ws, s, None);
        tb.m2s[0].post(&mut tb.mem, w, m, Some(bad));
        let rings = tb.mem.clone();
        for _ in 0..500 {
            tb.step();
        }
        assert_eq!(tb.rid_err_m, 1, "one M2S ring-id error pulse");
        assert_eq!(tb.rid_err_s, 0, "the S2M descriptor was stamped right");
        assert_eq!(tb.head_incs, 0, "nothing consumed");
        assert!(tb.mem == rings, "nothing written");
        // Another queue still runs while queue 0 is halted.
        tb.post_pair(1, SRC_BASE + 7, DST_BASE + 0x1000, 50, false);
        tb.run_until(5000, "other queue", |t| t.head_incs == 1 && t.quiet());
        assert_eq!(tb.rid_err_m, 1, "queue 0 stays halted");
        // Software resets queue 0 on both sides; a correct pair then runs.
        tb.m2s[0].reset();
        tb.s2m[0].reset();
        tb.step();
        let mut exp = tb.mem.clone();
        copy_expected(&mut exp, SRC_BASE + 9, DST_BASE + 0x2003, 200);
        tb.post_pair(0, SRC_BASE + 9, DST_BASE + 0x2003, 200, false);
        exp[RING_BASE as usize..SRC_BASE as usize]
            .copy_from_slice(&tb.mem[RING_BASE as usize..SRC_BASE as usize]);
        tb.run_until(5000, "after reset", |t| t.head_incs == 2 && t.quiet());
        assert!(tb.mem == exp);
        let _ = before;
    });
}

/// Beats written per cycle over a 64 KiB copy with no stalls (reported, not asserted: the test
/// suite has no timing goals).
#[test]
fn long_copy_throughput() {
    harness::run(7, |ctx| {
        let Some(mut tb) = open(ctx) else { return };
        tb.stalls(100, 100, 0);
        let max = csrs().ring.max_len_code;
        copies(&mut tb, &[(SRC_BASE + 3, DST_BASE + 29, max)]);
        let w = &tb.log.write_cycles;
        let span = w.last().expect("writes") - w.first().expect("writes") + 1;
        eprintln!(
            "sdma engine: {} beats in {span} cycles = {:.3} beats/cycle (DW {} bytes)",
            w.len(),
            w.len() as f64 / span as f64,
            tb.dw
        );
    });
}
