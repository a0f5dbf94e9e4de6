//! EVT_SEM: the four semaphore windows, signed wrap, and increments arriving in the same cycle
//! from the bus and from every hardware increment port.

use rstest::rstest;
use xdie_csr::{EvtSemLayout, SemOp};
use xdie_tb::block::{dut, BlockTb};
use xdie_tb::regmodel::{block_of, strobe_mask, Expect};
use xdie_tb::sim::Port;
use xdie_tb::{harness, Ctx, DutKind, Resp};

fn evt_sem() -> (DutKind, &'static EvtSemLayout) {
    let kind = dut("xdie_evt_sem");
    let l = block_of(kind).and_then(|b| b.evt_sem());
    (kind, l.expect("evt_sem block"))
}

fn sem_addr(l: &EvtSemLayout, op: SemOp, sem: u64) -> u64 {
    l.sem_offset(op, sem)
}

fn open(ctx: &mut Ctx) -> (BlockTb, &'static EvtSemLayout) {
    let (kind, block) = evt_sem();
    (BlockTb::new(ctx, kind), block)
}

/// Every semaphore, through `op`'s window, then read back through all four windows.
#[rstest]
fn window_op_on_every_semaphore(
    #[values(SemOp::Read, SemOp::Set, SemOp::Inc, SemOp::Dec)] op: SemOp,
    #[values(1, 2)] seed: u64,
) {
    harness::run(seed, |ctx| {
        let (mut tb, block) = open(ctx);
        let count = block.sem_count();
        for sem in 0..count {
            let start = ctx.rng.next_u32();
            assert_eq!(
                tb.write(sem_addr(block, SemOp::Set, sem), start),
                Resp::Okay
            );
            let v = ctx.rng.next_u32();
            assert_eq!(
                tb.write(sem_addr(block, op, sem), v),
                Resp::Okay,
                "{op:?} write"
            );
            for w in SemOp::ALL {
                tb.check(sem_addr(block, w, sem));
            }
        }
        // Only the semaphores written were touched.
        for sem in 0..count {
            tb.check(sem_addr(block, SemOp::Read, sem));
        }
    });
}

#[rstest]
#[case::inc_past_max(i32::MAX, SemOp::Inc, 1)]
#[case::dec_past_min(i32::MIN, SemOp::Dec, 1)]
#[case::dec_below_zero(0, SemOp::Dec, 1)]
#[case::inc_minus_one(0, SemOp::Inc, -1)]
#[case::dec_minus_one(-1, SemOp::Dec, -1)]
#[case::inc_min_plus_min(i32::MIN, SemOp::Inc, i32::MIN)]
fn signed_wrap(#[case] start: i32, #[case] op: SemOp, #[case] amount: i32) {
    harness::run(7, |ctx| {
        let (mut tb, block) = open(ctx);
        let count = block.sem_count();
        for sem in [0, count / 2, count - 1] {
            tb.write(sem_addr(block, SemOp::Set, sem), start as u32);
            tb.write(sem_addr(block, op, sem), amount as u32);
            let want = match op {
                SemOp::Inc => start.wrapping_add(amount),
                _ => start.wrapping_sub(amount),
            };
            let (got, resp) = tb.read(sem_addr(block, SemOp::Read, sem));
            assert_eq!((got as i32, resp), (want, Resp::Okay), "sem {sem}");
            tb.check(sem_addr(block, SemOp::Read, sem));
        }
    });
}

/// Hardware increment ports: `<n>` ports packed into `hw_inc_{valid,idx,val}_i`.
struct HwInc {
    ports: u32,
    idx_w: u32,
    val_w: u32,
}

fn hw_inc(block: &EvtSemLayout, tb: &BlockTb) -> HwInc {
    let params = &block.params;
    let width = |n: &str| tb.sim.require_port(n).expect("hw inc port").info().width;
    let hw_inc_ports = params.hw_inc_ports;
    assert_eq!(width("hw_inc_valid_i"), hw_inc_ports);
    HwInc {
        ports: hw_inc_ports,
        idx_w: width("hw_inc_idx_i") / hw_inc_ports,
        val_w: width("hw_inc_val_i") / hw_inc_ports,
    }
}

fn pack(fields: &[u64], w: u32) -> Vec<u32> {
    let total = fields.len() as u32 * w;
    let mut words = vec![0u32; total.div_ceil(32) as usize];
    for (i, &f) in fields.iter().enumerate() {
        for b in 0..w {
            if f >> b & 1 == 1 {
                let bit = i as u32 * w + b;
                words[(bit / 32) as usize] |= 1 << (bit % 32);
            }
        }
    }
    words
}

/// The bus and every hardware port increment one semaphore in the same cycles: none is lost.
#[rstest]
fn same_cycle_increments_from_bus_and_every_port(
    #[values(0, 1, 2)] which: u64,
    #[values(21, 22)] seed: u64,
) {
    harness::run(seed, |ctx| {
        let (mut tb, block) = open(ctx);
        let hw = hw_inc(block, &tb);
        let count = block.sem_count();
        let sem = [0, count - 1, 1 + ctx.rng.below(count - 2)][which as usize];
        let start = ctx.rng.next_u32();
        tb.write(sem_addr(block, SemOp::Set, sem), start);
        let mut want = start;
        let val_mask = if hw.val_w >= 32 {
            u32::MAX
        } else {
            (1 << hw.val_w) - 1
        };
        let vals: Vec<u64> = (0..hw.ports)
            .map(|_| u64::from(ctx.rng.next_u32() & val_mask))
            .collect();
        let (valid, idx, val) = (
            tb.sim.require_port("hw_inc_valid_i").unwrap(),
            tb.sim.require_port("hw_inc_idx_i").unwrap(),
            tb.sim.require_port("hw_inc_val_i").unwrap(),
        );
        tb.sim
            .set(idx, &pack(&vec![sem; hw.ports as usize], hw.idx_w));
        tb.sim.set(val, &pack(&vals, hw.val_w));
        let all = (1u64 << hw.ports) - 1;
        for _ in 0..20 {
            let amount = ctx.rng.next_u32();
            let dec = ctx.rng.chance(30);
            tb.sim.set_u64(valid, all);
            let t0 = tb.sim.time();
            let role = if dec { SemOp::Dec } else { SemOp::Inc };
            assert_eq!(tb.write(sem_addr(block, role, sem), amount), Resp::Okay);
            tb.sim.set_u64(valid, 0);
            // The ports were valid on every rising edge the write took.
            let edges = (tb.sim.time() - t0) / 2;
            let hw_sum = vals.iter().fold(0u32, |a, v| a.wrapping_add(*v as u32));
            want = want.wrapping_add(hw_sum.wrapping_mul(edges as u32));
            want = if dec {
                want.wrapping_sub(amount)
            } else {
                want.wrapping_add(amount)
            };
            let (got, resp) = tb.read(sem_addr(block, SemOp::Read, sem));
            assert_eq!(
                (got, resp),
                (want, Resp::Okay),
                "sem {sem} after {edges} cycles"
            );
        }
        // Each port alone, too.
        for p in 0..hw.ports {
            let t0 = tb.sim.time();
            tb.sim.set_u64(valid, 1 << p);
            tb.sim.ticks(3);
            tb.sim.set_u64(valid, 0);
            let edges = (tb.sim.time() - t0) / 2;
            want = want.wrapping_add((vals[p as usize] as u32).wrapping_mul(edges as u32));
            let (got, _) = tb.read(sem_addr(block, SemOp::Read, sem));
            assert_eq!(got, want, "port {p} alone");
        }
    });
}

/// Hardware ports, the bus and the sequencer update different semaphores, and sometimes the same
/// one, in the same cycles (each source has its own bank, so nothing merges or waits except the
/// sequencer, which yields to the bus); afterwards every semaphore touched reads back the sum of
/// all updates: none is lost.
#[rstest]
fn same_cycle_updates_to_different_semaphores(#[values(41, 42)] seed: u64) {
    harness::run(seed, |ctx| {
        let (mut tb, block) = open(ctx);
        let hw = hw_inc(block, &tb);
        let params = &block.params;
        let count = block.sem_count();
        // A few semaphores, both ends included, so random picks collide often.
        let mut sems = vec![0, count - 1];
        while sems.len() < 4 {
            let s = ctx.rng.below(count);
            if !sems.contains(&s) {
                sems.push(s);
            }
        }
        let mut want = vec![0u32; sems.len()];
        for (k, &s) in sems.iter().enumerate() {
            want[k] = ctx.rng.next_u32();
            assert_eq!(
                tb.write(sem_addr(block, SemOp::Set, s), want[k]),
                Resp::Okay
            );
        }
        let val_mask = if hw.val_w >= 32 {
            u32::MAX
        } else {
            (1 << hw.val_w) - 1
        };
        let (valid, idx, val) = (
            tb.sim.require_port("hw_inc_valid_i").unwrap(),
            tb.sim.require_port("hw_inc_idx_i").unwrap(),
            tb.sim.require_port("hw_inc_val_i").unwrap(),
        );
        // Random hardware increments on random semaphores of the set: `(valid mask, picks, vals)`.
        let draw = |ctx: &mut Ctx| {
            let mask = ctx.rng.below(1 << hw.ports);
            let picks: Vec<usize> = (0..hw.ports)
                .map(|_| ctx.rng.below(sems.len() as u64) as usize)
                .collect();
            let vals: Vec<u32> = (0..hw.ports)
                .map(|_| ctx.rng.next_u32() & val_mask)
                .collect();
            (mask, picks, vals)
        };
        let apply = |want: &mut [u32], mask: u64, picks: &[usize], vals: &[u32], edges: u64| {
            for p in 0..hw.ports as usize {
                if mask >> p & 1 == 1 {
                    want[picks[p]] =
                        want[picks[p]].wrapping_add(vals[p].wrapping_mul(edges as u32));
                }
            }
        };
        // Bus INC/DEC while the hardware ports increment (held for the whole write).
        for _ in 0..24 {
            let (mask, picks, vals) = draw(ctx);
            let idxs: Vec<u64> = picks.iter().map(|&k| sems[k]).collect();
            tb.sim.set(idx, &pack(&idxs, hw.idx_w));
            tb.sim.set(
                val,
                &pack(
                    &vals.iter().map(|&v| u64::from(v)).collect::<Vec<_>>(),
                    hw.val_w,
                ),
            );
            tb.sim.set_u64(valid, mask);
            let k = ctx.rng.below(sems.len() as u64) as usize;
            let amount = ctx.rng.next_u32();
            let dec = ctx.rng.chance(40);
            let t0 = tb.sim.time();
            let op = if dec { SemOp::Dec } else { SemOp::Inc };
            assert_eq!(tb.write(sem_addr(block, op, sems[k]), amount), Resp::Okay);
            tb.sim.set_u64(valid, 0);
            let edges = (tb.sim.time() - t0) / 2;
            apply(&mut want, mask, &picks, &vals, edges);
            want[k] = if dec {
                want[k].wrapping_sub(amount)
            } else {
                want[k].wrapping_add(amount)
            };
        }
        // Sequencer increments in the same cycles as the hardware ports, one cycle at a time.
        for _ in 0..40 {
            let (mask, picks, vals) = draw(ctx);
            let idxs: Vec<u64> = picks.iter().map(|&k| sems[k]).collect();
            tb.sim.set(idx, &pack(&idxs, hw.idx_w));
            tb.sim.set(
                val,
                &pack(
                    &vals.iter().map(|&v| u64::from(v)).collect::<Vec<_>>(),
                    hw.val_w,
                ),
            );
            tb.sim.set_u64(valid, mask);
            let k = ctx.rng.below(sems.len() as u64) as usize;
            let amount = ctx.rng.next_u32();
            let s = &mut tb.sim;
            s.set_by_name("seq_subop_i", params.seq_subop_inc)
                .expect("seq_subop_i");
            s.set_by_name("seq_idx_i", sems[k]).expect("seq_idx_i");
            s.set_by_name("seq_val_i", u64::from(amount))
                .expect("seq_val_i");
            s.set_by_name("seq_valid_i", 1).expect("seq_valid_i");
            s.eval();
            let ready = s.get_by_name("seq_ready_o").expect("seq_ready_o") == 1;
            assert!(ready, "an idle bus leaves the sequencer ready for inc");
            s.tick();
            s.set_by_name("seq_valid_i", 0).expect("seq_valid_i");
            s.set_u64(valid, 0);
            s.eval();
            apply(&mut want, mask, &picks, &vals, 1);
            want[k] = want[k].wrapping_add(amount);
        }
        for (k, &s) in sems.iter().enumerate() {
            let (got, resp) = tb.read(sem_addr(block, SemOp::Read, s));
            assert_eq!((got, resp), (want[k], Resp::Okay), "sem {s}");
        }
    });
}

// ---------------------------------------------------------------- cycle-level tests
//
// The tests below drive every port themselves, one clock cycle at a time, so they know in which
// cycle each update is presented: hardware increments and sequencer requests are taken at the
// rising edge that ends the cycle they are driven in, and a bus request is presented by the
// AXI4-Lite front-end `ANSWER_CYCLES` cycles before its response appears: the block reads the
// semaphore in the request's first cycle and answers at the end of its second (the front-end
// waits one cycle for read data), and the request sees the state before its first cycle.

/// Cycles from a bus request's first cycle to its response's.
const ANSWER_CYCLES: u64 = 2;

/// Every port of the block, looked up once.
struct Pins {
    awvalid: Port,
    awready: Port,
    awaddr: Port,
    wvalid: Port,
    wready: Port,
    wdata: Port,
    wstrb: Port,
    bvalid: Port,
    bready: Port,
    bresp: Port,
    arvalid: Port,
    arready: Port,
    araddr: Port,
    rvalid: Port,
    rready: Port,
    rdata: Port,
    rresp: Port,
    hw_valid: Port,
    hw_idx: Port,
    hw_val: Port,
    seq_valid: Port,
    seq_ready: Port,
    seq_subop: Port,
    seq_idx: Port,
    seq_val: Port,
    init_done: Port,
}

impl Pins {
    fn new(tb: &BlockTb) -> Pins {
        let p = |n: &str| tb.sim.require_port(n).expect("evt_sem port");
        Pins {
            awvalid: p("s_axil_awvalid_i"),
            awready: p("s_axil_awready_o"),
            awaddr: p("s_axil_awaddr_i"),
            wvalid: p("s_axil_wvalid_i"),
            wready: p("s_axil_wready_o"),
            wdata: p("s_axil_wdata_i"),
            wstrb: p("s_axil_wstrb_i"),
            bvalid: p("s_axil_bvalid_o"),
            bready: p("s_axil_bready_i"),
            bresp: p("s_axil_bresp_o"),
            arvalid: p("s_axil_arvalid_i"),
            arready: p("s_axil_arready_o"),
            araddr: p("s_axil_araddr_i"),
            rvalid: p("s_axil_rvalid_o"),
            rready: p("s_axil_rready_i"),
            rdata: p("s_axil_rdata_o"),
            rresp: p("s_axil_rresp_o"),
            hw_valid: p("hw_inc_valid_i"),
            hw_idx: p("hw_inc_idx_i"),
            hw_val: p("hw_inc_val_i"),
            seq_valid: p("seq_valid_i"),
            seq_ready: p("seq_ready_o"),
            seq_subop: p("seq_subop_i"),
            seq_idx: p("seq_idx_i"),
            seq_val: p("seq_val_i"),
            init_done: p("init_done_o"),
        }
    }

    /// Drives this cycle's hardware increments: `(port, semaphore, amount)`.
    fn hw(&self, tb: &mut BlockTb, hw: &HwInc, incs: &[(u32, u64, u32)]) {
        let mut valid = 0u64;
        let mut idx = vec![0u64; hw.ports as usize];
        let mut val = vec![0u64; hw.ports as usize];
        for &(p, s, v) in incs {
            valid |= 1 << p;
            idx[p as usize] = s;
            val[p as usize] = u64::from(v);
        }
        tb.sim.set_u64(self.hw_valid, valid);
        tb.sim.set(self.hw_idx, &pack(&idx, hw.idx_w));
        tb.sim.set(self.hw_val, &pack(&val, hw.val_w));
    }

    /// Clocks until the reset sweep has ended; more than a few cycles per semaphore is a hang.
    fn wait_init(&self, tb: &mut BlockTb, sems: u64) {
        let mut cycles = 0;
        tb.sim.eval();
        while tb.sim.get_u64(self.init_done) == 0 {
            assert!(cycles < 4 * sems + 16, "init_done_o never rose");
            tb.sim.tick();
            cycles += 1;
        }
    }
}

/// A bus transaction driven cycle by cycle.
#[derive(Clone, Copy, Debug)]
enum Bus {
    Idle,
    Write {
        op: SemOp,
        sem: u64,
        data: u32,
        strb: u8,
        aw: bool,
        w: bool,
    },
    Read {
        op: SemOp,
        sem: u64,
        ar: bool,
    },
}

/// Reference semaphores, modulo the value field's width.
struct Model {
    sems: Vec<u32>,
    mask: u32,
}

impl Model {
    fn new(block: &EvtSemLayout, tb: &BlockTb) -> Model {
        let f = &block.window(SemOp::Read).value;
        let sems = (0..block.sem_count())
            .map(
                |s| match tb.model.reset_value(sem_addr(block, SemOp::Read, s)) {
                    Expect::Value(v) => (v & f.reg_mask()) >> f.lsb,
                    e => panic!("reset of semaphore {s}: {e:?}"),
                },
            )
            .collect();
        Model {
            sems,
            mask: f.reg_mask() >> f.lsb,
        }
    }

    fn add(&mut self, s: u64, v: u32) {
        let x = &mut self.sems[s as usize];
        *x = x.wrapping_add(v) & self.mask;
    }

    /// A bus write's effect (before the same cycle's hardware increments).
    fn bus_write(&mut self, block: &EvtSemLayout, op: SemOp, s: u64, data: u32, strb: u8) {
        let f = &block.window(op).value;
        let lanes = (strobe_mask(strb) & f.reg_mask()) >> f.lsb;
        let v = (data & f.reg_mask()) >> f.lsb & lanes;
        let x = &mut self.sems[s as usize];
        *x = match op {
            SemOp::Set => (*x & !lanes) | v,
            SemOp::Inc => x.wrapping_add(v),
            SemOp::Dec => x.wrapping_sub(v),
            SemOp::Read => *x,
        } & self.mask;
    }

    /// The value as a signed number.
    fn signed(&self, s: u64) -> i64 {
        let w = self.mask.count_ones();
        let v = i64::from(self.sems[s as usize]);
        if w < 64 && v >> (w - 1) & 1 == 1 {
            v - (1i64 << w)
        } else {
            v
        }
    }
}

/// A SET overwrites every update presented before its cycle and keeps every hardware increment
/// of its own cycle and later: each port adds a different power of two in each cycle, so the
/// value read back names exactly the increments that survived. An increment still in the
/// read-modify-write pipeline when the SET is presented must be overwritten too.
#[rstest]
fn set_keeps_exactly_the_increments_from_its_cycle_on(#[values(51, 52, 53)] seed: u64) {
    harness::run(seed, |ctx| {
        let (mut tb, block) = open(ctx);
        let hw = hw_inc(block, &tb);
        let pins = Pins::new(&tb);
        let count = block.sem_count();
        pins.wait_init(&mut tb, count);
        let f = &block.window(SemOp::Set).value;
        let bits = f.width.min(32);
        // Cycles in which every port still has a fresh bit for its increment.
        let fresh = u64::from(bits / hw.ports);
        let mut covered = (false, false);
        for trial in 0..12 {
            let sem = ctx.rng.below(count);
            let start = ctx.rng.next_u32() & (f.reg_mask() >> f.lsb);
            // Hold AW/W back a random number of cycles while the ports increment.
            let delay = ctx.rng.below(4);
            let mut bit_of_cycle = Vec::new();
            let (mut aw, mut w) = (false, false);
            let mut cyc = 0u64;
            let presented = loop {
                assert!(cyc < 64, "trial {trial}: no write response");
                let mut incs = Vec::new();
                let mut cycle_bits = 0u32;
                if cyc < fresh {
                    for p in 0..hw.ports {
                        let b = 1u32 << (cyc as u32 * hw.ports + p);
                        incs.push((p, sem, b));
                        cycle_bits |= b;
                    }
                }
                bit_of_cycle.push(cycle_bits);
                pins.hw(&mut tb, &hw, &incs);
                let s = &mut tb.sim;
                let (awv, wv) = (!aw && cyc >= delay, !w && cyc >= delay);
                s.set_u64(pins.awaddr, sem_addr(block, SemOp::Set, sem));
                s.set_u64(pins.wdata, u64::from(start << f.lsb));
                s.set_u64(pins.wstrb, 0xF);
                s.set_u64(pins.bready, 1);
                s.set_u64(pins.awvalid, u64::from(awv));
                s.set_u64(pins.wvalid, u64::from(wv));
                s.eval();
                let b = s.get_u64(pins.bvalid) == 1;
                if b {
                    assert_eq!(Resp::from_bits(s.get_u64(pins.bresp)), Resp::Okay);
                }
                aw |= awv && s.get_u64(pins.awready) == 1;
                w |= wv && s.get_u64(pins.wready) == 1;
                s.tick();
                if b {
                    // The write was presented ANSWER_CYCLES cycles before its response.
                    break cyc - ANSWER_CYCLES;
                }
                cyc += 1;
            };
            pins.hw(&mut tb, &hw, &[]);
            tb.sim.set_u64(pins.bready, 0);
            let survivors: u32 = bit_of_cycle[presented as usize..]
                .iter()
                .fold(0, |a, b| a | b);
            let lost: u32 = bit_of_cycle[..presented as usize]
                .iter()
                .fold(0, |a, b| a | b);
            covered.0 |= survivors != 0;
            covered.1 |= lost != 0;
            let want = start.wrapping_add(survivors) & (f.reg_mask() >> f.lsb);
            let (got, resp) = tb.read(sem_addr(block, SemOp::Read, sem));
            let got = (got & f.reg_mask()) >> f.lsb;
            assert_eq!(
                (got, resp),
                (want, Resp::Okay),
                "trial {trial}: SET presented in cycle {presented}: kept {:#x}, expected {survivors:#x}",
                got.wrapping_sub(start)
            );
        }
        assert!(
            covered.0 && covered.1,
            "the trials must overwrite some increments and keep others: {covered:?}"
        );
    });
}

/// Random traffic on every source, cycle by cycle, against a reference model: every hardware
/// port increments a random semaphore of a small set in most cycles (so ports collide with each
/// other and with themselves in back-to-back cycles), bus SET/INC/DEC writes (random strobes) and
/// reads run alongside, and between bus transactions the sequencer increments or waits. Every
/// bus read and every sequencer ready decision is checked against the model in its cycle, and
/// every semaphore at the end. A sequencer command stays on the port until taken, for at most
/// one to three cycles (the sequencer slots hold one for two), so waits are decided from the
/// value read in the cycle before: taken only if the same command was presented then, nothing
/// updated its semaphore in that cycle, and the value reaches it.
#[rstest]
fn random_updates_from_every_source_match_the_model(#[values(61, 62, 63)] seed: u64) {
    harness::run(seed, |ctx| {
        let (mut tb, block) = open(ctx);
        let hw = hw_inc(block, &tb);
        let params = &block.params;
        let pins = Pins::new(&tb);
        let count = block.sem_count();
        pins.wait_init(&mut tb, count);
        let mut model = Model::new(block, &tb);
        let val_mask = if hw.val_w >= 32 {
            u32::MAX
        } else {
            (1 << hw.val_w) - 1
        };
        let mut sems = vec![0, count - 1];
        while sems.len() < 3 {
            let s = ctx.rng.below(count);
            if !sems.contains(&s) {
                sems.push(s);
            }
        }
        let unknown = (0..1u64 << params.seq_subop_bits)
            .find(|c| *c != params.seq_subop_inc && *c != params.seq_subop_wait_ge_dec)
            .expect("a free subop code");
        // Small amounts keep the sequencer's compare close to the values, so it passes and
        // refuses about equally often.
        let amount = |ctx: &mut Ctx| -> u32 {
            if ctx.rng.chance(10) {
                ctx.rng.next_u32()
            } else {
                (ctx.rng.below(9) as i32 - 4) as u32
            }
        };
        let mut bus = Bus::Idle;
        // The state before each of the last ANSWER_CYCLES cycles' updates, and that cycle's
        // hardware increments, oldest first.
        let mut hist: std::collections::VecDeque<(Vec<u32>, Vec<(u32, u64, u32)>)> =
            std::collections::VecDeque::new();
        // The sequencer command on the port (subop, semaphore, value, cycles left), and the one
        // of the previous cycle with whether it was taken and the semaphores updated then.
        let mut seq: Option<(u64, u64, u32, u32)> = None;
        let mut prev_seq: Option<(u64, u64, u32)> = None;
        let mut prev_updated: Vec<u64> = Vec::new();
        let (mut refused, mut accepted_waits, mut bus_ops) = (0, 0, 0);
        // Bus transactions start only in the first `cycles` cycles; the run goes on until the
        // last one has answered.
        let cycles = 3000u32;
        let mut cyc = 0u32;
        while cyc < cycles || !matches!(bus, Bus::Idle) {
            assert!(cyc < 2 * cycles, "a bus transaction never completed");
            // This cycle's hardware increments.
            let mut incs = Vec::new();
            for p in 0..hw.ports {
                if ctx.rng.chance(70) {
                    let s = *ctx.rng.pick(&sems);
                    incs.push((p, s, amount(ctx) & val_mask));
                }
            }
            pins.hw(&mut tb, &hw, &incs);
            // Start a bus transaction now and then.
            if matches!(bus, Bus::Idle) && cyc < cycles && ctx.rng.chance(15) {
                let sem = *ctx.rng.pick(&sems);
                let op = *ctx.rng.pick(&SemOp::ALL);
                bus = if op == SemOp::Read || ctx.rng.chance(30) {
                    Bus::Read { op, sem, ar: false }
                } else {
                    let strb = if ctx.rng.chance(75) {
                        0xF
                    } else {
                        ctx.rng.below(16) as u8
                    };
                    Bus::Write {
                        op,
                        sem,
                        data: amount(ctx),
                        strb,
                        aw: false,
                        w: false,
                    }
                };
            }
            let s = &mut tb.sim;
            s.set_u64(pins.bready, 1);
            s.set_u64(pins.rready, 1);
            let (mut awv, mut wv, mut arv) = (false, false, false);
            match bus {
                Bus::Write {
                    op,
                    sem,
                    data,
                    strb,
                    aw,
                    w,
                } => {
                    s.set_u64(pins.awaddr, sem_addr(block, op, sem));
                    s.set_u64(pins.wdata, u64::from(data));
                    s.set_u64(pins.wstrb, u64::from(strb));
                    awv = !aw;
                    wv = !w;
                }
                Bus::Read { op, sem, ar } => {
                    s.set_u64(pins.araddr, sem_addr(block, op, sem));
                    arv = !ar;
                }
                Bus::Idle => {}
            }
            s.set_u64(pins.awvalid, u64::from(awv));
            s.set_u64(pins.wvalid, u64::from(wv));
            s.set_u64(pins.arvalid, u64::from(arv));
            // The sequencer only between bus transactions (it yields to the bus).
            if !matches!(bus, Bus::Idle) {
                seq = None;
            } else if seq.is_none() && ctx.rng.chance(60) {
                let sem = *ctx.rng.pick(&sems);
                let r = ctx.rng.below(10);
                let (subop, val) = if r < 5 {
                    // A threshold near the value: passes or waits.
                    let near = model.signed(sem) + ctx.rng.below(5) as i64 - 2;
                    (params.seq_subop_wait_ge_dec, near as u32)
                } else if r < 9 {
                    (params.seq_subop_inc, amount(ctx))
                } else {
                    (unknown, amount(ctx))
                };
                seq = Some((subop, sem, val, 1 + ctx.rng.below(3) as u32));
            }
            s.set_u64(pins.seq_valid, u64::from(seq.is_some()));
            if let Some((subop, sem, val, _)) = seq {
                s.set_u64(pins.seq_subop, subop);
                s.set_u64(pins.seq_idx, sem);
                s.set_u64(pins.seq_val, u64::from(val));
            }
            s.eval();
            // Responses: the request was presented ANSWER_CYCLES cycles ago (`hist[0]`), so it
            // saw the state before that cycle's updates and a write applies ahead of the hardware
            // increments of that cycle and the next.
            let b = s.get_u64(pins.bvalid) == 1;
            let r = s.get_u64(pins.rvalid) == 1;
            match bus {
                Bus::Write {
                    op,
                    sem,
                    data,
                    strb,
                    ..
                } if b => {
                    assert_eq!(Resp::from_bits(s.get_u64(pins.bresp)), Resp::Okay);
                    let mut m = Model {
                        sems: hist[0].0.clone(),
                        mask: model.mask,
                    };
                    m.bus_write(block, op, sem, data, strb);
                    for (_, incs) in &hist {
                        for &(_, si, v) in incs {
                            m.add(si, v);
                        }
                    }
                    model.sems = m.sems;
                    bus = Bus::Idle;
                    bus_ops += 1;
                }
                Bus::Read { op, sem, .. } if r => {
                    let f = &block.window(op).value;
                    let got = s.get(pins.rdata)[0];
                    assert_eq!(Resp::from_bits(s.get_u64(pins.rresp)), Resp::Okay);
                    assert_eq!(
                        (got & f.reg_mask()) >> f.lsb,
                        hist[0].0[sem as usize],
                        "cycle {cyc}: {op:?} read of semaphore {sem}"
                    );
                    bus = Bus::Idle;
                    bus_ops += 1;
                }
                _ => {}
            }
            assert!(!(b && r), "one response per cycle here");
            let mut taken = false;
            if let Some((subop, sem, val, _)) = seq {
                let ready = s.get_u64(pins.seq_ready) == 1;
                taken = ready;
                if subop == params.seq_subop_wait_ge_dec {
                    // Decided from the previous cycle's read of the same command.
                    let pass = prev_seq == Some((subop, sem, val))
                        && !prev_updated.contains(&sem)
                        && model.signed(sem) >= i64::from(val as i32);
                    assert_eq!(
                        ready,
                        pass,
                        "cycle {cyc}: wait_ge_and_dec({}) on semaphore {sem} = {}",
                        val as i32,
                        model.signed(sem)
                    );
                    if pass {
                        accepted_waits += 1;
                    } else {
                        refused += 1;
                    }
                } else {
                    assert!(ready, "cycle {cyc}: subop {subop} refused");
                }
            }
            // Handshakes at this edge.
            if let Bus::Write { aw, w, .. } = &mut bus {
                *aw |= awv && s.get_u64(pins.awready) == 1;
                *w |= wv && s.get_u64(pins.wready) == 1;
            }
            if let Bus::Read { ar, .. } = &mut bus {
                *ar |= arv && s.get_u64(pins.arready) == 1;
            }
            s.tick();
            // This cycle's updates, in the model.
            hist.push_back((model.sems.clone(), incs.clone()));
            if hist.len() > ANSWER_CYCLES as usize {
                hist.pop_front();
            }
            prev_updated = incs.iter().map(|&(_, si, _)| si).collect();
            prev_seq = None;
            if let Some((subop, sem, val, left)) = seq {
                if taken {
                    if subop == params.seq_subop_inc {
                        model.add(sem, val);
                        prev_updated.push(sem);
                    } else if subop == params.seq_subop_wait_ge_dec {
                        model.add(sem, val.wrapping_neg());
                        prev_updated.push(sem);
                    }
                    seq = None;
                } else {
                    prev_seq = Some((subop, sem, val));
                    seq = (left > 1).then_some((subop, sem, val, left - 1));
                }
            }
            for &(_, si, v) in &incs {
                model.add(si, v);
            }
            cyc += 1;
        }
        let s = &mut tb.sim;
        s.set_u64(pins.seq_valid, 0);
        s.set_u64(pins.awvalid, 0);
        s.set_u64(pins.wvalid, 0);
        s.set_u64(pins.arvalid, 0);
        pins.hw(&mut tb, &hw, &[]);
        assert!(
            refused > 0 && accepted_waits > 0 && bus_ops > 0,
            "traffic must exercise refusals ({refused}), accepted waits ({accepted_waits}) and the bus ({bus_ops})"
        );
        for &sem in &sems {
            let (got, resp) = tb.read(sem_addr(block, SemOp::Read, sem));
            let f = &block.window(SemOp::Read).value;
            assert_eq!(
                ((got & f.reg_mask()) >> f.lsb, resp),
                (model.sems[sem as usize], Resp::Okay),
                "semaphore {sem} at the end"
            );
        }
    });
}

/// After a second reset, the sweep returns every semaphore to its reset value (the storage has
/// no reset of its own): nothing written before the reset survives, and an increment presented
/// while the sweep runs is dropped. The first increment after init_done_o lands.
#[test]
fn reset_sweep_restores_every_semaphore() {
    harness::run(71, |ctx| {
        let (mut tb, block) = open(ctx);
        let hw = hw_inc(block, &tb);
        let pins = Pins::new(&tb);
        let count = block.sem_count();
        for sem in 0..count {
            tb.write(sem_addr(block, SemOp::Set, sem), ctx.rng.next_u32() | 1);
        }
        let mut incs = Vec::new();
        for p in 0..hw.ports {
            incs.push((p, ctx.rng.below(count), 1 + ctx.rng.next_u32() % 100));
        }
        pins.hw(&mut tb, &hw, &incs);
        tb.sim.tick();
        pins.hw(&mut tb, &hw, &[]);
        tb.sim.reset(xdie_tb::block::RESET_CYCLES);
        tb.model.reset();
        tb.sim.eval();
        assert_eq!(
            tb.sim.get_u64(pins.init_done),
            0,
            "init_done_o right after reset"
        );
        // During the sweep: increments are dropped, the bus is not ready.
        pins.hw(&mut tb, &hw, &incs);
        tb.sim.set_u64(pins.arvalid, 1);
        tb.sim.eval();
        assert_eq!(
            tb.sim.get_u64(pins.arready),
            0,
            "AXI ready during the sweep"
        );
        tb.sim.set_u64(pins.arvalid, 0);
        tb.sim.tick();
        pins.hw(&mut tb, &hw, &[]);
        pins.wait_init(&mut tb, count);
        // The first increment after the sweep lands.
        let (p, sem, v) = incs[0];
        pins.hw(&mut tb, &hw, &[(p, sem, v)]);
        tb.sim.tick();
        pins.hw(&mut tb, &hw, &[]);
        let mut model = Model::new(block, &tb);
        model.add(sem, v);
        let f = &block.window(SemOp::Read).value;
        for s in 0..count {
            let (got, resp) = tb.read(sem_addr(block, SemOp::Read, s));
            assert_eq!(
                ((got & f.reg_mask()) >> f.lsb, resp),
                (model.sems[s as usize], Resp::Okay),
                "semaphore {s} after the second reset"
            );
        }
    });
}
