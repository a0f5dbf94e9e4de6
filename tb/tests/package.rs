//! The package top: two dies and their link, driven only through the two host ports, the way
//! each die's firmware would: iATU regions, SBUF contents, rings in HBM, queue registers,
//! doorbells, head polling, read-back.
//!
//! Addresses come from the die map and the folds of the CSR model, register offsets and fields
//! by role, descriptor layouts from the descriptor formats. Every check compares a destination
//! window (with guard bytes around each copy) against a shadow computed here: the initial
//! contents with exactly the described copies applied.
//!
//! The package model is built only with the `package` feature:
//! `cargo test -p xdie-tb --features package --test package`.
#![cfg(feature = "package")]

use rstest::rstest;
use xdie_csr::SemOp;
use xdie_tb::checks::{self, f32_lanes, pattern};
use xdie_tb::package::{field_of, field_value, Copy, Package, Side};
use xdie_tb::regmodel::{csrs, views};
use xdie_tb::{harness, Ctx, Rng, Timing};

const CHIP: u64 = 2;
/// Guard bytes checked on each side of a destination.
const GUARD: u64 = 64;

fn dw() -> u64 {
    views().params.data_bytes
}

fn engines() -> u64 {
    views().params.sdma_engines
}

/// Percent of cycles each die's link send side is held (random link backpressure).
const LINK_STALL_PCT: u32 = 20;

/// A package with backpressure on every port: every host access (the bulk source loads and the
/// window read-backs included) under random handshake delays and ready stalls, and each die's
/// link send side held in a random fifth of the cycles.
fn open(ctx: &mut Ctx) -> Package {
    let kind = Package::kind().expect("xdie_pkg_top is simulated");
    let sim = ctx.sim(kind).expect("package model");
    let mut pkg = Package::new(sim, ctx.sub_seed(), Timing::RANDOM, CHIP).expect("package up");
    for die in 0..2 {
        pkg.program_iatu(die, 0).expect("iATU region 0");
    }
    pkg.stall_links(LINK_STALL_PCT, ctx.sub_seed())
        .expect("link backpressure");
    pkg
}

/// Ring slots per queue in these tests.
const SLOTS: u64 = 32;

/// Rings of (engine, queue) in HBM: one M2S and one S2M ring each, never overlapping.
fn setup(pkg: &mut Package, die: u32, e: u64, q: u64) {
    pkg.setup_packed_queue(die, e, q, SLOTS, 0x1_0000)
        .expect("queue setup");
}

/// Destination bytes (die-local window) as they must be: `shadow` starts as the window's initial
/// contents; `apply` writes a copy into it.
struct Window {
    die: u32,
    local: u64,
    shadow: Vec<u8>,
}

impl Window {
    fn new(pkg: &mut Package, die: u32, local: u64, len: u64) -> Window {
        let shadow = pkg.read_bytes(die, local, len).expect("window read");
        Window { die, local, shadow }
    }
    fn apply(&mut self, at_local: u64, bytes: &[u8]) {
        let off = (at_local - self.local) as usize;
        self.shadow[off..off + bytes.len()].copy_from_slice(bytes);
    }
    fn check(&self, pkg: &mut Package) {
        let got = pkg
            .read_bytes(self.die, self.local, self.shadow.len() as u64)
            .expect("window read");
        if let Some(i) = (0..got.len()).find(|&i| got[i] != self.shadow[i]) {
            panic!(
                "die {} byte {:#x}: got {:#04x}, expected {:#04x}",
                self.die,
                self.local + i as u64,
                got[i],
                self.shadow[i]
            );
        }
    }
}

/// Source bytes placed on `die` at die-local `src`, returned for the shadow.
fn source(pkg: &mut Package, rng: &mut Rng, die: u32, src: u64, len: u64) -> Vec<u8> {
    let bytes = pattern(rng, len);
    pkg.write_bytes(die, src, &bytes).expect("source write");
    bytes
}

fn run_queue(pkg: &mut Package, die: u32, e: u64, q: u64) {
    pkg.doorbell(die, Side::S2m, e, q).expect("S2M doorbell");
    pkg.doorbell(die, Side::M2s, e, q).expect("M2S doorbell");
    pkg.wait_drained(die, e, q).expect("queue drains");
}

#[rstest]
fn local_copy(#[values(1, 2)] seed: u64) {
    harness::run(seed, |ctx| {
        let mut pkg = open(ctx);
        let len = 3 * dw() + 5;
        let (src, dst) = (
            views().sbuf_addr(0, 3, 0x101),
            views().sbuf_addr(0, 4, 0x207),
        );
        let bytes = source(&mut pkg, &mut ctx.rng, 0, src, len);
        let mut win = Window::new(&mut pkg, 0, dst - GUARD, len + 2 * GUARD);
        setup(&mut pkg, 0, 0, 0);
        let c = Copy {
            src: views().soc.soc_local(0, src),
            dst: views().soc.soc_local(0, dst),
            len,
            write_barrier: false,
        };
        pkg.post_copy(0, 0, 0, c).expect("post");
        run_queue(&mut pkg, 0, 0, 0);
        win.apply(dst, &bytes);
        win.check(&mut pkg);
        assert_eq!(pkg.err(0), 0, "engine errors");
    });
}

/// Die `from` copies its SBUF into the other die's SBUF through the neighbor fold.
#[rstest]
fn cross_die_copy(#[values(0, 1)] from: u32) {
    harness::run(10 + u64::from(from), |ctx| {
        let mut pkg = open(ctx);
        let to = 1 - from;
        let len = 5 * dw() + 3;
        let (src, dst) = (
            views().sbuf_addr(0, 7, 0x33),
            views().sbuf_addr(0, 9, 0x1005),
        );
        let bytes = source(&mut pkg, &mut ctx.rng, from, src, len);
        let mut win = Window::new(&mut pkg, to, dst - GUARD, len + 2 * GUARD);
        let e = engines() - 1;
        setup(&mut pkg, from, e, 1);
        let c = Copy {
            src: views().soc.soc_local(from.into(), src),
            dst: views().soc.fold_neighbor(dst, to.into()),
            len,
            write_barrier: false,
        };
        pkg.post_copy(from, e, 1, c).expect("post");
        run_queue(&mut pkg, from, e, 1);
        win.apply(dst, &bytes);
        win.check(&mut pkg);
        assert_eq!(pkg.err(from), 0, "engine errors");
    });
}

/// Lengths and alignments around the beat and 4 KiB boundaries, cross-die, one ring.
#[test]
fn length_alignment_sweep() {
    harness::run(20, |ctx| {
        let mut pkg = open(ctx);
        let dw = dw();
        let page = 4096;
        let cases: Vec<(u64, u64, u64)> = vec![
            // (len, src offset, dst offset) relative to beat / page starts
            (1, 0, 0),
            (1, dw - 1, 1),
            (dw - 1, 1, 0),
            (dw, 0, 0),
            (dw, 1, dw - 1),
            (dw + 1, dw - 1, 3),
            (2 * dw, 7, 9),
            (page - 1, 0, 1),
            (page, 0, 0),
            (page + 1, 3, dw - 2),
            (page, page - 5, page - dw + 1),
            (2 * page + dw + 3, 13, 17),
        ];
        let (src_base, dst_base) = (views().sbuf_addr(0, 2, 0), views().sbuf_addr(0, 6, 0));
        setup(&mut pkg, 0, 2, 5);
        let mut wins = Vec::new();
        // Each case starts on its own page: offsets are relative to a page (and so to a beat).
        // The first page is skipped so that the guard bytes before the first destination stay
        // inside the partition's backed bytes.
        let mut at = page;
        for &(len, so, d_o) in &cases {
            let (s, d) = (src_base + at + so, dst_base + at + d_o);
            let bytes = source(&mut pkg, &mut ctx.rng, 0, s, len);
            let mut win = Window::new(&mut pkg, 1, d - GUARD, len + 2 * GUARD);
            win.apply(d, &bytes);
            wins.push(win);
            let c = Copy {
                src: views().soc.soc_local(0, s),
                dst: views().soc.fold_neighbor(d, 1),
                len,
                write_barrier: false,
            };
            pkg.post_copy(0, 2, 5, c).expect("post");
            at += (so.max(d_o) + len + GUARD).div_ceil(page) * page + page;
        }
        run_queue(&mut pkg, 0, 2, 5);
        for w in &wins {
            w.check(&mut pkg);
        }
        assert_eq!(pkg.err(0), 0, "engine errors");
    });
}

/// Several engines and queues armed together, each with its own copy.
#[test]
fn engines_and_queues_at_once() {
    harness::run(30, |ctx| {
        let mut pkg = open(ctx);
        let (e_last, q_last) = (engines() - 1, views().queues() - 1);
        let pairs = [
            (0, 0),
            (0, q_last),
            (1, 3),
            (e_last / 2, 1),
            (e_last, 0),
            (e_last, q_last),
        ];
        let len = 3 * dw() + 11;
        let mut wins = Vec::new();
        for (i, &(e, q)) in pairs.iter().enumerate() {
            let i = i as u64;
            let (src, dst) = (
                views().sbuf_addr(0, 10 + i, 0x40 + i),
                views().sbuf_addr(0, 20 + i, 0x80 + 3 * i),
            );
            let bytes = source(&mut pkg, &mut ctx.rng, 0, src, len);
            let mut win = Window::new(&mut pkg, 1, dst - GUARD, len + 2 * GUARD);
            win.apply(dst, &bytes);
            wins.push(win);
            setup(&mut pkg, 0, e, q);
            let c = Copy {
                src: views().soc.soc_local(0, src),
                dst: views().soc.fold_neighbor(dst, 1),
                len,
                write_barrier: false,
            };
            pkg.post_copy(0, e, q, c).expect("post");
        }
        for &(e, q) in &pairs {
            pkg.doorbell(0, Side::S2m, e, q).expect("S2M doorbell");
        }
        for &(e, q) in &pairs {
            pkg.doorbell(0, Side::M2s, e, q).expect("M2S doorbell");
        }
        for &(e, q) in &pairs {
            pkg.wait_drained(0, e, q).expect("drained");
        }
        for w in &wins {
            w.check(&mut pkg);
        }
        assert_eq!(pkg.err(0), 0, "engine errors");
    });
}

/// A data copy then two semaphore copies (4 bytes of value 1): into the peer's EVT_SEM INC
/// window with write_barrier (remote_sem) and into this die's own (local_sem). When the peer's
/// semaphore is seen, every data byte must already be there.
#[test]
fn semaphore_increment_after_data() {
    harness::run(40, |ctx| {
        let mut pkg = open(ctx);
        let len = 8192 + 7;
        let (src, dst) = (
            views().sbuf_addr(0, 1, 0x10),
            views().sbuf_addr(0, 1, 0x4000),
        );
        let bytes = source(&mut pkg, &mut ctx.rng, 0, src, len);
        let mut win = Window::new(&mut pkg, 1, dst - GUARD, len + 2 * GUARD);
        win.apply(dst, &bytes);
        let one = views().hbm_addr(0x8000);
        pkg.write32(0, one, 1).expect("constant 1");
        let (remote_sem, local_sem) = (17, 4);
        let before_remote = pkg
            .read32(1, views().sem_addr(0, SemOp::Read, remote_sem))
            .expect("sem");
        let before_local = pkg
            .read32(0, views().sem_addr(0, SemOp::Read, local_sem))
            .expect("sem");
        setup(&mut pkg, 0, 3, 2);
        let copies = [
            Copy {
                src: views().soc.soc_local(0, src),
                dst: views().soc.fold_neighbor(dst, 1),
                len,
                write_barrier: false,
            },
            Copy {
                src: views().soc.soc_local(0, one),
                dst: views()
                    .soc
                    .soc_local(0, views().sem_addr(0, SemOp::Inc, local_sem)),
                len: 4,
                write_barrier: false,
            },
            Copy {
                src: views().soc.soc_local(0, one),
                dst: views()
                    .soc
                    .fold_neighbor(views().sem_addr(0, SemOp::Inc, remote_sem), 1),
                len: 4,
                write_barrier: true,
            },
        ];
        for c in copies {
            pkg.post_copy(0, 3, 2, c).expect("post");
        }
        pkg.doorbell(0, Side::S2m, 3, 2).expect("S2M doorbell");
        pkg.doorbell(0, Side::M2s, 3, 2).expect("M2S doorbell");
        let start = pkg.cycle();
        loop {
            let v = pkg
                .read32(1, views().sem_addr(0, SemOp::Read, remote_sem))
                .expect("sem");
            if v != before_remote {
                assert_eq!(v, before_remote.wrapping_add(1), "remote semaphore");
                break;
            }
            assert!(
                pkg.cycle() - start < pkg.budget,
                "remote semaphore never rose"
            );
        }
        win.check(&mut pkg);
        pkg.wait_drained(0, 3, 2).expect("drained");
        let local = pkg
            .read32(0, views().sem_addr(0, SemOp::Read, local_sem))
            .expect("sem");
        assert_eq!(local, before_local.wrapping_add(1), "local semaphore");
        let remote = pkg
            .read32(1, views().sem_addr(0, SemOp::Read, remote_sem))
            .expect("sem");
        assert_eq!(
            remote,
            before_remote.wrapping_add(1),
            "remote semaphore counted once"
        );
        assert_eq!(pkg.err(0), 0, "engine errors");
    });
}

/// The M2S doorbell rings before any S2M descriptor is posted: nothing moves, nothing is
/// dropped; once the S2M side is armed the copy completes.
#[test]
fn m2s_before_s2m_is_held() {
    harness::run(50, |ctx| {
        let mut pkg = open(ctx);
        let len = 2 * dw() + 9;
        let (src, dst) = (
            views().sbuf_addr(0, 5, 0x300),
            views().sbuf_addr(0, 11, 0x500),
        );
        let bytes = source(&mut pkg, &mut ctx.rng, 0, src, len);
        let mut win = Window::new(&mut pkg, 1, dst - GUARD, len + 2 * GUARD);
        setup(&mut pkg, 0, 4, 0);
        let c = Copy {
            src: views().soc.soc_local(0, src),
            dst: views().soc.fold_neighbor(dst, 1),
            len,
            write_barrier: false,
        };
        pkg.post_copy(0, 4, 0, c).expect("post");
        pkg.doorbell(0, Side::M2s, 4, 0).expect("M2S doorbell");
        // Long enough for the copy to have finished several times over had it started.
        pkg.sim.ticks(2_000);
        assert_eq!(
            pkg.head(0, Side::M2s, 4, 0).expect("head"),
            0,
            "M2S head moved"
        );
        assert!(pkg.idle(0), "an engine started without its S2M descriptor");
        win.check(&mut pkg);
        pkg.doorbell(0, Side::S2m, 4, 0).expect("S2M doorbell");
        pkg.wait_drained(0, 4, 0).expect("drained");
        win.apply(dst, &bytes);
        win.check(&mut pkg);
    });
}

/// Copies to routed addresses that reach nothing: outside every iATU region, into an aperture
/// gap of the peer, to another package. Each is answered DECERR (the engine logs a write
/// error), the queue still drains, and nothing is written where the LOCAL field points.
#[rstest]
fn unmapped_routed_copy_is_decerr(#[values("iatu_miss", "peer_gap", "remote_pkg")] case: &str) {
    harness::run(60, |ctx| {
        let mut pkg = open(ctx);
        let len = dw() + 4;
        let (src, dst) = (
            views().sbuf_addr(0, 8, 0x40),
            views().sbuf_addr(0, 12, 0x80),
        );
        source(&mut pkg, &mut ctx.rng, 0, src, len);
        let win = Window::new(&mut pkg, 1, dst - GUARD, len + 2 * GUARD);
        let win0 = Window::new(&mut pkg, 0, dst - GUARD, len + 2 * GUARD);
        let target = match case {
            // EXIT_SENG bits set: above the region's limit.
            "iatu_miss" => {
                let f = &views().soc.neighbor.exit_seng;
                f.set(u128::from(views().soc.fold_neighbor(dst, 1)), 1) as u64
            }
            // One past the highest aperture of the die map.
            "peer_gap" => {
                let top = csrs()
                    .map
                    .apertures
                    .iter()
                    .map(|a| a.end())
                    .max()
                    .expect("apertures");
                views().soc.fold_neighbor(top, 1)
            }
            _ => views().soc.fold_chip_id(dst, 1, CHIP + 1),
        };
        assert!(pkg.err(0) == 0);
        setup(&mut pkg, 0, 6, 3);
        let c = Copy {
            src: views().soc.soc_local(0, src),
            dst: target,
            len,
            write_barrier: false,
        };
        pkg.post_copy(0, 6, 3, c).expect("post");
        run_queue(&mut pkg, 0, 6, 3);
        assert_eq!(pkg.err(0) & 2, 2, "write error logged");
        assert_eq!(pkg.err(0) & 1, 0, "no read error");
        win.check(&mut pkg);
        win0.check(&mut pkg);
    });
}

/// The memories' backdoor and the host port see the same bytes, in both directions, in SBUF
/// (across a partition boundary of the packed array) and in HBM.
#[test]
fn backdoor_and_host_port_agree() {
    harness::run(3, |ctx| {
        let mut pkg = open(ctx);
        let mut rng = Rng::new(ctx.sub_seed());
        let backing = views().params.sbuf_backing_bytes;
        for (die, local, len) in [
            (0, views().sbuf_addr(0, 3, backing - 40), 36),
            (1, views().sbuf_addr(0, 0, 5), 36),
            (1, views().hbm_addr(0x3_0000 + 7), 64),
        ] {
            let poked = pattern(&mut rng, len);
            pkg.poke(die, local, &poked).expect("poke");
            assert_eq!(pkg.read_bytes(die, local, len).expect("read"), poked);
            let written = pattern(&mut rng, len);
            pkg.write_bytes(die, local, &written).expect("write");
            assert_eq!(pkg.peek(die, local, len).expect("peek"), written);
        }
        // A partition's unbacked tail is refused, not wrapped into the next partition.
        assert!(pkg
            .peek(0, views().sbuf_addr(0, 2, backing - 4), 8)
            .is_err());
    });
}

/// The write monitor reports a host SBUF store and a semaphore increment where and as they land.
#[test]
fn monitor_sees_sbuf_writes_and_increments() {
    use xdie_tb::hooks::MonKind;
    harness::run(3, |ctx| {
        let mut pkg = open(ctx);
        pkg.monitor().expect("monitor");
        let at = views().sbuf_addr(0, 9, 0x123);
        pkg.write_bytes(1, at, &[0xa1, 0xa2, 0xa3]).expect("store");
        let inc = views().sem_addr(0, SemOp::Inc, 17);
        pkg.write32(0, inc, 5).expect("increment");
        let seen = pkg.take_writes();
        let sbuf: Vec<_> = seen.iter().filter(|w| w.what == MonKind::Sbuf).collect();
        let sems: Vec<_> = seen.iter().filter(|w| w.what == MonKind::SemInc).collect();
        // The host port stores words: one strobed write per touched word.
        let bytes: Vec<u8> = sbuf.iter().flat_map(|w| w.bytes.clone()).collect();
        assert_eq!(bytes, [0xa1, 0xa2, 0xa3]);
        assert!(sbuf.iter().all(|w| w.die == 1));
        assert_eq!(sbuf[0].local, at);
        assert_eq!(sems.len(), 1);
        assert_eq!((sems[0].die, sems[0].local), (0, inc));
        assert_eq!(sems[0].bytes, 5u32.to_le_bytes());
        assert!(sbuf[0].cycle < sems[0].cycle);
    });
}

/// The sequencer slots of a die contend for one semaphore (`checks::sequencer_slots_contend`).
#[test]
fn sequencer_slots_contend_for_one_semaphore() {
    harness::run(61, |ctx| {
        let mut pkg = open(ctx);
        let die = ctx.rng.below(2) as u32;
        checks::sequencer_slots_contend(&mut pkg, die, views().cores(), &mut ctx.rng);
    });
}

/// The firmware of all sixteen contexts of the package contends for one semaphore number in
/// every core's EVT_SEM: each context takes from its own core's (wait_ge_and_dec through its
/// sequencer slot) and gives to random cores' (sem_inc: through its slot for its own core, a
/// store to the INC window of another core of its die or, through its remap window, of a core of
/// the other die), all at once. Every core's semaphore starts with enough for its own waits, so
/// every wait returns, and each ends at its start plus what it was given less what was taken.
#[test]
fn firmware_contexts_contend_for_one_semaphore() {
    use std::sync::Arc;
    use xdie_model::topology::{Core, Lane, Topology};
    use xdie_tb::fw::{self, FwSystem, Op, Program, WaitMode};
    harness::run(62, |ctx| {
        let mut pkg = open(ctx);
        let v = views();
        let sys = xdie_model::System::new(csrs(), Topology::package(CHIP)).expect("system");
        let sem = ctx.rng.below(v.sem_count());
        let cores: Vec<Core> = (0..sys.topology.cores_per_package)
            .map(|id| Core { chip: CHIP, id })
            .collect();
        let n = cores.len();
        let (mut taken, mut given) = (vec![0u64; n], vec![0u64; n]);
        let mut progs = Vec::new();
        for (i, c) in cores.iter().enumerate() {
            for lane in [Lane::Rx, Lane::Tx] {
                let mut ops = Vec::new();
                for _ in 0..3 {
                    let a = 1 + ctx.rng.below(3);
                    if ctx.rng.chance(50) {
                        taken[i] += a;
                        ops.push(Op::WaitGeDec {
                            sem: sem as u32,
                            value: a as u32,
                        });
                    } else {
                        let to = ctx.rng.below(n as u64) as usize;
                        given[to] += a;
                        ops.push(Op::SemInc {
                            core: cores[to].id as u32,
                            sem: sem as u32,
                            value: a as u32,
                        });
                    }
                }
                progs.push(Program {
                    core: *c,
                    lane,
                    ops,
                    wait_mode: WaitMode::Sequencer,
                });
            }
        }
        let at = |c: &Core, op| {
            let die = sys.die_of(*c).die as u32;
            (die, v.sem_addr(sys.tpb_of(*c), op, sem))
        };
        let mut start = Vec::new();
        for (i, c) in cores.iter().enumerate() {
            let s = taken[i] + ctx.rng.below(4);
            let (die, a) = at(c, SemOp::Set);
            pkg.write32(die, a, s as u32).expect("SET");
            start.push(s);
        }
        let fw_sys = Arc::new(
            FwSystem::new(sys.config.ring_len, sys.topology.die_bit, CHIP).expect("fw system"),
        );
        fw::run(&mut pkg, &sys, &fw_sys, progs, 2_000_000).expect("firmware");
        for (i, c) in cores.iter().enumerate() {
            let (die, a) = at(c, SemOp::Read);
            let end = pkg.read32(die, a).expect("READ");
            assert_eq!(
                i64::from(end as i32),
                (start[i] + given[i]) as i64 - taken[i] as i64,
                "core {} (given {}, taken {})",
                c.id,
                given[i],
                taken[i]
            );
        }
    });
}

/// Address of register `r` of die `die`'s link-health block on its sibling link.
fn health_reg(pkg: &Package, die: u32, r: &xdie_csr::Register) -> u64 {
    let port = u64::from(pkg.linked(die)[0]);
    views().apertures.d2d_health.instance_base(port) + r.offset
}

/// The link-health interrupt block of both dies under faults: every trigger it records agrees
/// with what the link's health report said (counted by the fault injector), the counters equal
/// the reported events, the mask keeps a recorded trigger off the interrupt, a write of 1 to the
/// status clears it, counter_clear clears one counter. Nothing here is a number of its own: the
/// expectations come from the health report and the field positions.
#[test]
fn link_health_interrupts() {
    use xdie_csr::HealthTrigger as T;
    use xdie_model::scenario::{Faults, LinkDown};
    harness::run(31, |ctx| {
        let mut pkg = open(ctx);
        let h = &views().health;
        let all = h.all_bits();
        let bit = |t: T| h.bit(t);
        let rd = |pkg: &mut Package, d: u32, r: &xdie_csr::Register| {
            let a = health_reg(pkg, d, r);
            pkg.read32(d, a).expect("health register read")
        };
        let wr = |pkg: &mut Package, d: u32, r: &xdie_csr::Register, v: u32| {
            let a = health_reg(pkg, d, r);
            pkg.write32(d, a, v).expect("health register write")
        };

        // After bring-up: LINK_UP recorded, masked at reset, so nothing pending.
        for d in 0..2 {
            assert_eq!(
                rd(&mut pkg, d, &h.intr_raw) & all,
                bit(T::LinkUp),
                "die {d} raw"
            );
            assert_eq!(rd(&mut pkg, d, &h.intr_status), 0, "die {d} status");
            assert_eq!(
                rd(&mut pkg, d, &h.intr_mask),
                h.intr_mask.reset(),
                "die {d} mask"
            );
            assert!(!pkg.irq(d).unwrap(), "die {d} irq while masked");
        }
        // Unmasked on die 0 only: pending and raised there; W1C clears both views.
        wr(&mut pkg, 0, &h.intr_mask, all & !bit(T::LinkUp));
        assert_eq!(rd(&mut pkg, 0, &h.intr_status), bit(T::LinkUp));
        assert!(pkg.irq(0).unwrap() && !pkg.irq(1).unwrap());
        wr(&mut pkg, 0, &h.intr_status, bit(T::LinkUp));
        assert_eq!(rd(&mut pkg, 0, &h.intr_raw) & all, 0);
        assert!(!pkg.irq(0).unwrap());

        // Faults and traffic both ways, everything masked, counters and triggers from zero.
        let threshold = 2u64;
        let timeout = 1u64;
        let clear_all =
            h.clear_flit_crc.reg_mask() | h.clear_dllp_crc.reg_mask() | h.clear_replay.reg_mask();
        for d in 0..2 {
            wr(&mut pkg, d, &h.intr_mask, all);
            wr(
                &mut pkg,
                d,
                &h.crc_threshold,
                field_value(&h.threshold, threshold),
            );
            wr(
                &mut pkg,
                d,
                &h.credit_timeout,
                field_value(&h.timeout, timeout),
            );
            wr(&mut pkg, d, &h.counter_clear, clear_all);
            wr(&mut pkg, d, &h.intr_status, all);
        }
        let faults = Faults {
            bit_flip: 0.01,
            drop: 0.005,
            ..Faults::default()
        };
        pkg.inject_faults(faults, ctx.sub_seed()).expect("faults");
        let len = 64 * dw();
        for from in 0..2u32 {
            let to = 1 - from;
            let (src, dst) = (views().sbuf_addr(0, 5, 0x40), views().sbuf_addr(0, 6, 0x80));
            let bytes = source(&mut pkg, &mut ctx.rng, from, src, len);
            let mut win = Window::new(&mut pkg, to, dst, len);
            setup(&mut pkg, from, 2, 0);
            let c = Copy {
                src: views().soc.soc_local(from.into(), src),
                dst: views().soc.fold_neighbor(dst, to.into()),
                len,
                write_barrier: false,
            };
            pkg.post_copy(from, 2, 0, c).expect("post");
            run_queue(&mut pkg, from, 2, 0);
            win.apply(dst, &bytes);
            win.check(&mut pkg);
        }
        // No new faults; words already hit drain within a few replay timeouts.
        pkg.calm_faults();
        let quiet = pkg.cycle() + 4_000;
        pkg.tick_until("faults drained", |p| p.cycle() >= quiet)
            .expect("ticks");
        let st = pkg.link_stats().expect("stats");
        eprintln!("link under faults: {st:?}");
        let mut crc_over = false;
        for d in 0..2u32 {
            let s = &st.dies[d as usize];
            let sat = |f: &xdie_csr::Field, n: u64| n.min((1u64 << f.width) - 1);
            let count = |pkg: &mut Package, r: &xdie_csr::Register, f: &xdie_csr::Field| {
                field_of(f, rd(pkg, d, r))
            };
            let (flit, dllp, rep) = (
                count(&mut pkg, &h.flit_crc_count, &h.flit_crc),
                count(&mut pkg, &h.dllp_crc_count, &h.dllp_crc),
                count(&mut pkg, &h.replay_count, &h.replays),
            );
            assert_eq!(
                flit,
                sat(&h.flit_crc, s.flit_crc),
                "die {d} flit CRC errors"
            );
            assert_eq!(
                dllp,
                sat(&h.dllp_crc, s.dllp_crc),
                "die {d} DLLP CRC errors"
            );
            assert_eq!(rep, sat(&h.replays, s.replays), "die {d} replays");
            let raw = rd(&mut pkg, d, &h.intr_raw);
            let want = [
                (T::CrcErr, s.flit_crc > threshold || s.dllp_crc > threshold),
                (T::Replay, s.replays > 0),
                (T::LinkDown, s.downs > 0),
                (T::LinkUp, s.ups > 0),
                (T::CreditTimeout, s.longest_wait >= timeout),
            ];
            for (t, on) in want {
                assert_eq!(raw & bit(t) != 0, on, "die {d} raw {t:?} ({raw:#x})");
            }
            assert_eq!(rd(&mut pkg, d, &h.intr_status), 0, "die {d}: all masked");
            assert!(!pkg.irq(d).unwrap(), "die {d}: irq while masked");
            crc_over |= raw & bit(T::CrcErr) != 0 && raw & bit(T::Replay) != 0;
        }
        assert!(
            crc_over,
            "the faults raised no CRC_ERR and REPLAY: the test shows nothing"
        );

        // Mask gating and W1C on a die that recorded CRC_ERR.
        let d = (0..2u32)
            .find(|&d| rd(&mut pkg, d, &h.intr_raw) & bit(T::CrcErr) != 0)
            .expect("a die with CRC_ERR");
        wr(&mut pkg, d, &h.intr_mask, all & !bit(T::CrcErr));
        assert_eq!(rd(&mut pkg, d, &h.intr_status), bit(T::CrcErr));
        assert!(pkg.irq(d).unwrap(), "unmasked CRC_ERR raises the irq");
        wr(&mut pkg, d, &h.intr_mask, all);
        assert!(!pkg.irq(d).unwrap(), "masked again: irq low");
        wr(&mut pkg, d, &h.intr_mask, all & !bit(T::CrcErr));
        wr(&mut pkg, d, &h.intr_status, bit(T::CrcErr));
        assert_eq!(
            rd(&mut pkg, d, &h.intr_raw) & bit(T::CrcErr),
            0,
            "W1C clears raw"
        );
        assert!(!pkg.irq(d).unwrap(), "W1C lowers the irq");
        // counter_clear: one counter cleared, the others kept.
        let dllp_before = field_of(&h.dllp_crc, rd(&mut pkg, d, &h.dllp_crc_count));
        wr(&mut pkg, d, &h.counter_clear, h.clear_flit_crc.reg_mask());
        assert_eq!(field_of(&h.flit_crc, rd(&mut pkg, d, &h.flit_crc_count)), 0);
        assert_eq!(
            field_of(&h.dllp_crc, rd(&mut pkg, d, &h.dllp_crc_count)),
            dllp_before
        );
        pkg.stop_faults();

        // The link held down, then back: LINK_DOWN and LINK_UP on both dies.
        for d in 0..2 {
            wr(&mut pkg, d, &h.intr_status, all);
            wr(
                &mut pkg,
                d,
                &h.intr_mask,
                all & !(bit(T::LinkDown) | bit(T::LinkUp)),
            );
        }
        let outage = Faults {
            link_down: vec![LinkDown {
                at: 10,
                cycles: Some(2_000),
            }],
            ..Faults::default()
        };
        pkg.inject_faults(outage, ctx.sub_seed()).expect("outage");
        let back = pkg.cycle() + 4_000;
        pkg.tick_until("link back", |p| p.cycle() >= back)
            .expect("ticks");
        let st = pkg.stop_faults().expect("stats");
        for d in 0..2u32 {
            let s = &st.dies[d as usize];
            assert!(
                s.downs > 0 && s.ups > 0,
                "die {d}: the report saw the outage"
            );
            let want = bit(T::LinkDown) | bit(T::LinkUp);
            assert_eq!(
                rd(&mut pkg, d, &h.intr_status) & want,
                want,
                "die {d} status"
            );
            assert!(pkg.irq(d).unwrap(), "die {d} irq");
            wr(&mut pkg, d, &h.intr_status, want);
            assert!(!pkg.irq(d).unwrap(), "die {d} irq after W1C");
        }
    });
}

/// The SBUF accumulate apertures on the package: host stores (one lane each, some lanes hit
/// twice in a row), four engines adding one source into the same int32 destination at once
/// (their beats interleave at the SBUF, int32 addition commutes), a copy from the other die
/// through the link into the int32 aperture, and two fp32 copies one after the other (fp32
/// addition does not associate, so their order is fixed). Destinations start with random data
/// and fp32 boundary values, are lane aligned but not beat aligned, and must end as the model's
/// lane adder (xdie_model::reduce) makes them. A partly strobed lane and a read of an aperture
/// are SLVERR, a lane past the partition's backing DECERR, and none of them changes anything.
#[test]
fn accumulate_apertures_add_into_sbuf() {
    use xdie_model::reduce::{accumulate, AccDtype};
    use xdie_tb::axil::Resp;
    harness::run(0xacc, |ctx| {
        let mut pkg = open(ctx);
        let v = views();
        let rng = &mut ctx.rng;
        let len = 4 * dw() + 12;
        let lanes = len / 4;
        let (pi, oi) = (5, 0x408);
        let (pf, of) = (6, 0x80c);
        let (i_dst, f_dst) = (v.sbuf_addr(0, pi, oi), v.sbuf_addr(0, pf, of));
        let (i_acc, f_acc) = (
            v.sbuf_acc_addr(AccDtype::I32, 0, pi, oi),
            v.sbuf_acc_addr(AccDtype::F32, 0, pf, of),
        );
        let mut si = pattern(rng, len);
        let mut sf = f32_lanes(rng, lanes);
        pkg.write_bytes(0, i_dst, &si).expect("int32 destination");
        pkg.write_bytes(0, f_dst, &sf).expect("fp32 destination");

        // Host stores, one lane at a time.
        for k in 0..12u64 {
            let lane = if k % 3 == 2 {
                (k - 1) % lanes
            } else {
                rng.below(lanes)
            };
            let x = rng.next_u32().to_le_bytes();
            pkg.write32(0, i_acc + 4 * lane, u32::from_le_bytes(x))
                .expect("int32 store");
            accumulate(AccDtype::I32, &mut si[4 * lane as usize..][..4], &x);
            let y = f32_lanes(rng, 1);
            pkg.write32(
                0,
                f_acc + 4 * lane,
                u32::from_le_bytes([y[0], y[1], y[2], y[3]]),
            )
            .expect("fp32 store");
            accumulate(AccDtype::F32, &mut sf[4 * lane as usize..][..4], &y);
        }
        // Read back through the bus: a store is answered before its sum lands, and a read of
        // its beat waits for the sum (xdie_sbuf_acc), which a direct look at SBUF would not.
        assert_eq!(
            pkg.read_bytes(0, i_dst, len).expect("read back"),
            si,
            "host int32 adds"
        );
        assert_eq!(
            pkg.read_bytes(0, f_dst, len).expect("read back"),
            sf,
            "host fp32 adds"
        );

        // Four engines into one int32 destination at once, then die 1 over the link.
        let src = v.sbuf_addr(0, 7, 0x100);
        let bytes = source(&mut pkg, rng, 0, src, len);
        for e in 0..4 {
            setup(&mut pkg, 0, e, 0);
            let c = Copy {
                src: v.soc.soc_local(0, src),
                dst: v.soc.soc_local(0, i_acc),
                len,
                write_barrier: false,
            };
            pkg.post_copy(0, e, 0, c).expect("post");
            accumulate(AccDtype::I32, &mut si, &bytes);
        }
        for e in 0..4 {
            pkg.doorbell(0, Side::S2m, e, 0).expect("S2M doorbell");
            pkg.doorbell(0, Side::M2s, e, 0).expect("M2S doorbell");
        }
        for e in 0..4 {
            pkg.wait_drained(0, e, 0).expect("queue drains");
        }
        let remote = source(&mut pkg, rng, 1, src, len);
        setup(&mut pkg, 1, 2, 1);
        let c = Copy {
            src: v.soc.soc_local(1, src),
            dst: v.soc.fold_neighbor(i_acc, 0),
            len,
            write_barrier: false,
        };
        pkg.post_copy(1, 2, 1, c).expect("post");
        run_queue(&mut pkg, 1, 2, 1);
        accumulate(AccDtype::I32, &mut si, &remote);
        assert_eq!(
            pkg.peek(0, i_dst, len).expect("peek"),
            si,
            "engine int32 adds"
        );

        // Two fp32 copies in turn.
        for round in 0..2 {
            let src = v.sbuf_addr(0, 8 + round, 0x20);
            let b = f32_lanes(rng, lanes);
            pkg.poke(0, src, &b).expect("fp32 source");
            let c = Copy {
                src: v.soc.soc_local(0, src),
                dst: v.soc.soc_local(0, f_acc),
                len,
                write_barrier: false,
            };
            pkg.post_copy(0, 1, 0, c).expect("post");
            run_queue(&mut pkg, 0, 1, 0);
            accumulate(AccDtype::F32, &mut sf, &b);
        }
        assert_eq!(
            pkg.peek(0, f_dst, len).expect("peek"),
            sf,
            "engine fp32 adds"
        );
        assert_eq!(pkg.err(0), 0, "engine errors on die 0");
        assert_eq!(pkg.err(1), 0, "engine errors on die 1");

        // Refusals: nothing changes.
        let backing = v.params.sbuf_backing_bytes;
        let cases = [
            (i_acc, 0x3, Resp::SlvErr),
            (f_acc + 4, 0x6, Resp::SlvErr),
            (
                v.sbuf_acc_addr(AccDtype::I32, 0, pi, backing),
                0xf,
                Resp::DecErr,
            ),
            (
                v.sbuf_acc_addr(AccDtype::F32, 0, pf, backing + 8),
                0xf,
                Resp::DecErr,
            ),
        ];
        for (at, strb, want) in cases {
            let got = pkg.write_raw(0, at, 0x1234_5678, strb).expect("store");
            assert_eq!(got, want, "store to {at:#x} with strobes {strb:#x}");
        }
        for at in [i_acc, f_acc] {
            let (_, got) = pkg.read_raw(0, at).expect("read");
            assert_eq!(got, Resp::SlvErr, "read of {at:#x}");
        }
        assert_eq!(
            pkg.peek(0, i_dst, len).expect("peek"),
            si,
            "int32 after refusals"
        );
        assert_eq!(
            pkg.peek(0, f_dst, len).expect("peek"),
            sf,
            "fp32 after refusals"
        );
    });
}
