//! Inbound permissions on the package top (docs/link.md, csrs/blocks/d2d_inbound.json): a
//! request that arrives over the die-to-die link and lands on a die is served only when one of
//! that die's inbound windows grants it; anything else is answered DECERR, lands nothing, is
//! counted and (the first one) captured.
//!
//! Every address, window, field position and expected verdict comes from the CSR model and the
//! golden model (`System::route_access` with the same windows); nothing is typed in here.
//!
//! Built with the package model only: `cargo test -p xdie-tb --features package --test permissions`.
#![cfg(feature = "package")]

use xdie_csr::{Access, InboundWindow, Register, SemOp};
use xdie_model::inbound::{InboundWindows, Window};
use xdie_model::{DieId, System, Topology};
use xdie_tb::package::{field_of, field_value, Copy, Package, Side};
use xdie_tb::regmodel::{csrs, views};
use xdie_tb::{harness, Ctx, Resp, Rng, Timing};

const CHIP: u64 = 2;
/// The die whose host port sprays, and the die that receives.
const TX: u32 = 0;
const RX: u32 = 1;
/// Percent of cycles each die's link send side is held.
const LINK_STALL_PCT: u32 = 20;
/// Requests the hostile test sends.
const SPRAY: usize = 600;

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

fn die_id(die: u32) -> DieId {
    DieId {
        chip: CHIP,
        die: u64::from(die),
    }
}

fn model() -> System {
    System::new(csrs(), Topology::package(CHIP)).expect("model")
}

fn local_mask() -> u64 {
    views().soc.local.local.value_mask() as u64
}

/// The window of `len` bytes (a power of two) at `base` (aligned to it).
fn range(base: u64, len: u64) -> InboundWindow {
    assert!(len.is_power_of_two() && base % len == 0);
    InboundWindow {
        base,
        mask: local_mask() & !(len - 1),
    }
}

/// Offsets `[off, off + len)` in every SBUF partition (len a power of two, off aligned to it).
fn every_partition(off: u64, len: u64) -> InboundWindow {
    let p = &views().params;
    assert!(p.sbuf_partitions.is_power_of_two() && p.sbuf_partition_stride.is_power_of_two());
    let w = range(views().sbuf_addr(0, 0, off), len);
    InboundWindow {
        base: w.base,
        mask: w.mask & !((p.sbuf_partitions - 1) * p.sbuf_partition_stride),
    }
}

/// The EVT_SEM INC window, as one window (its span rounded up to a power of two).
fn sem_inc_window() -> InboundWindow {
    let v = views();
    let len = (v.sem_count() * v.evt_sem.sem_bytes()).next_power_of_two();
    range(v.sem_addr(0, SemOp::Inc, 0), len)
}

/// Programs window `i` of `die`'s inbound block (disabled while its match changes).
fn program(pkg: &mut Package, die: u32, i: u64, w: &Window) {
    let (v, l) = (views(), &views().inbound);
    let ctrl = |w: &Window| l.ctrl_value(w.enabled, w.read, w.write);
    pkg.write32(die, v.inbound_win_reg(i, &l.ctrl), 0)
        .expect("window ctrl");
    for (lo, hi, value) in [
        (&l.base_lo, &l.base_hi, w.window.base),
        (&l.mask_lo, &l.mask_hi, w.window.mask),
    ] {
        let lo_w = lo.fields[0].width;
        pkg.write32(
            die,
            v.inbound_win_reg(i, lo),
            field_value(&lo.fields[0], value),
        )
        .expect("window lo");
        pkg.write32(
            die,
            v.inbound_win_reg(i, hi),
            field_value(&hi.fields[0], value >> lo_w),
        )
        .expect("window hi");
    }
    pkg.write32(die, v.inbound_win_reg(i, &l.ctrl), ctrl(w))
        .expect("window ctrl");
}

/// Programs every window of `die` to `ws` (the rest disabled) and the model to match.
fn program_all(pkg: &mut Package, sys: &mut System, die: u32, ws: &[Window]) {
    let n = views().inbound.windows() as usize;
    let off = Window {
        enabled: false,
        read: false,
        write: false,
        window: InboundWindow { base: 0, mask: 0 },
    };
    let mut all = InboundWindows {
        windows: vec![off; n],
    };
    for i in 0..n {
        let w = ws.get(i).copied().unwrap_or(off);
        program(pkg, die, i as u64, &w);
        all.set(i, w);
    }
    sys.set_inbound_windows(die_id(die), all);
}

fn reg(pkg: &mut Package, die: u32, r: &Register) -> u32 {
    pkg.read32(die, views().inbound_reg(r))
        .expect("inbound register")
}

/// Every register of plain RW fields of every block instance a die wires, except EVT_SEM (its semaphores
/// and events are compared on their own) and the inbound block's capture and counter (which the
/// refusals change): die-local addresses.
fn register_addresses() -> Vec<u64> {
    let c = csrs();
    let v = views();
    let sizing = c.sizing();
    let mut out = Vec::new();
    for ap in &c.map.apertures {
        let Some(block) = c.aperture_block(ap) else {
            continue;
        };
        if ap.name == v.apertures.evt_sem.name {
            continue;
        }
        let wired = if ap.name == v.apertures.sdma_m2s.name || ap.name == v.apertures.sdma_s2m.name
        {
            sizing.sdma_engines
        } else if ap.name == v.apertures.d2d.name || ap.name == v.apertures.d2d_health.name {
            sizing.d2d_controllers
        } else {
            ap.count
        };
        for i in 0..ap.count.min(wired) {
            let base = ap.instance_base(i);
            for r in &block.registers {
                let capture = ap.name == v.apertures.inbound.name;
                if capture || !plain(r) {
                    continue;
                }
                out.push(base + r.offset);
            }
            for b in &block.bundles {
                for k in 0..b.count {
                    for r in b.registers.iter().filter(|r| plain(r)) {
                        out.push(base + b.reg_offset(k, r));
                    }
                }
            }
        }
    }
    out
}

/// A register of RW fields only: it holds what was written and nothing changes it by itself.
fn plain(r: &Register) -> bool {
    r.fields.iter().all(|f| f.access == Access::Rw)
}

/// Everything a stray request could change on `die`: SBUF, HBM (backdoor), every semaphore and
/// event, every stored register.
#[derive(Debug, PartialEq, Eq)]
struct Snapshot {
    sbuf: Vec<Vec<u8>>,
    hbm: Vec<u8>,
    sems: Vec<u32>,
    regs: Vec<(u64, u32, Resp)>,
}

fn snapshot(pkg: &mut Package, die: u32, regs: &[u64]) -> Snapshot {
    let v = views();
    let backing = v.params.sbuf_backing_bytes;
    let sbuf = (0..v.params.sbuf_partitions)
        .map(|p| {
            pkg.peek(die, v.sbuf_addr(0, p, 0), backing)
                .expect("SBUF peek")
        })
        .collect();
    let hbm = pkg
        .peek(die, v.hbm_addr(0), csrs().sizing().hbm_bytes)
        .expect("HBM peek");
    pkg.set_timing(Timing::FAST);
    let ev = &v.evt_sem;
    let mut sems: Vec<u32> = (0..v.sem_count())
        .map(|s| pkg.read32(die, v.sem_addr(0, SemOp::Read, s)).expect("sem"))
        .collect();
    for e in 0..ev.events.count {
        let at = v.apertures.evt_sem.base + ev.events.reg_offset(e, &ev.event_reg);
        sems.push(pkg.read32(die, at).expect("event"));
    }
    let regs = regs
        .iter()
        .map(|&a| {
            let (value, resp) = pkg.read_raw(die, a).expect("register read");
            (a, value, resp)
        })
        .collect();
    pkg.set_timing(Timing::RANDOM);
    Snapshot {
        sbuf,
        hbm,
        sems,
        regs,
    }
}

/// The first difference between two snapshots, named.
fn diff(want: &Snapshot, got: &Snapshot) -> Option<String> {
    let v = views();
    for (p, (w, g)) in want.sbuf.iter().zip(&got.sbuf).enumerate() {
        if let Some(i) = (0..w.len()).find(|&i| w[i] != g[i]) {
            return Some(format!(
                "SBUF {:#x}: {:#04x}, expected {:#04x}",
                v.sbuf_addr(0, p as u64, i as u64),
                g[i],
                w[i]
            ));
        }
    }
    if let Some(i) = (0..want.hbm.len()).find(|&i| want.hbm[i] != got.hbm[i]) {
        return Some(format!(
            "HBM {:#x}: {:#04x}, expected {:#04x}",
            v.hbm_addr(i as u64),
            got.hbm[i],
            want.hbm[i]
        ));
    }
    if let Some(i) = (0..want.sems.len()).find(|&i| want.sems[i] != got.sems[i]) {
        return Some(format!(
            "semaphore/event {i}: {:#x}, expected {:#x}",
            got.sems[i], want.sems[i]
        ));
    }
    want.regs
        .iter()
        .zip(&got.regs)
        .find(|(w, g)| w != g)
        .map(|(w, g)| format!("register {:#x}: {:?}, expected {:?}", w.0, g, w))
}

/// One hostile request: a die-local address of the receiving die, and a store or a read.
#[derive(Debug, Clone, Copy)]
struct Op {
    local: u64,
    write: bool,
}

/// A random word-aligned die-local address in `[lo, lo + len)`.
fn word_in(rng: &mut Rng, lo: u64, len: u64) -> u64 {
    (lo + rng.below(len)) & !3
}

/// Draws a request: inside and outside the windows, in SBUF, EVT_SEM, HBM, every register
/// aperture (the inbound block's own included) and the gaps of the die map.
fn draw(rng: &mut Rng, w_sbuf: (u64, u64), w_hbm: (u64, u64)) -> Op {
    let c = csrs();
    let v = views();
    let p = &v.params;
    let write = !rng.chance(15);
    let local = match rng.below(9) {
        // SBUF inside the narrowed window, any partition
        0 | 1 => v.sbuf_addr(
            0,
            rng.below(p.sbuf_partitions),
            word_in(rng, w_sbuf.0, w_sbuf.1),
        ),
        // SBUF anywhere backed
        2 => v.sbuf_addr(
            0,
            rng.below(p.sbuf_partitions),
            word_in(rng, 0, p.sbuf_backing_bytes),
        ),
        // A semaphore's INC register
        3 => v.sem_addr(0, SemOp::Inc, rng.below(v.sem_count())),
        // Anywhere in EVT_SEM (events, READ/SET/INC/DEC windows)
        4 => word_in(rng, v.apertures.evt_sem.base, v.apertures.evt_sem.size),
        // HBM inside the read-only window, or anywhere
        5 => word_in(rng, w_hbm.0, w_hbm.1),
        6 => word_in(rng, v.apertures.hbm.base, csrs().sizing().hbm_bytes),
        // Any register aperture, any instance
        7 => {
            let blocks: Vec<_> = c
                .map
                .apertures
                .iter()
                .filter(|a| a.block.is_some())
                .collect();
            let a = *rng.pick(&blocks);
            let base = a.instance_base(rng.below(a.count));
            word_in(rng, base, a.size)
        }
        // A gap of the die map (in no aperture)
        _ => loop {
            let a = rng.below(local_mask() + 1) & !3;
            if !xdie_model::mesh::fabric::in_aperture(&xdie_model::Layout::new(c), a) {
                break a;
            }
        },
    };
    Op { local, write }
}

/// Hostile traffic: die 0 sprays seeded random stores and reads across the link at die 1, whose
/// windows are narrowed (one offset range of every SBUF partition, the INC window, a read-only
/// HBM range, nothing else). Each response must be the golden model's verdict (OKAY where a
/// window grants the request, DECERR elsewhere); afterwards every byte of die 1's SBUF and HBM,
/// every semaphore and event and every stored register must equal the state before the spray
/// with exactly the granted stores applied; every refusal is counted, the first captured, and
/// the capture raises the interrupt when enabled and re-arms on W1C.
#[test]
fn hostile_traffic_lands_only_in_permitted_windows() {
    harness::run(0x5eed, |ctx| {
        let mut pkg = open(ctx);
        let mut sys = model();
        let mut rng = Rng::new(ctx.sub_seed());
        let v = views();
        let l = &v.inbound;
        let p = &v.params;

        // Die 1's windows: a 4 KiB offset range of every partition, the INC window, a
        // read-only 4 KiB of HBM.
        let chunk = 0x1000u64;
        let w_sbuf = (rng.below(p.sbuf_backing_bytes / chunk) * chunk, chunk);
        let hbm_len = csrs().sizing().hbm_bytes;
        let w_hbm = (v.hbm_addr(rng.below(hbm_len / chunk) * chunk), chunk);
        let rw = |window| Window {
            enabled: true,
            read: true,
            write: true,
            window,
        };
        let windows = [
            rw(every_partition(w_sbuf.0, w_sbuf.1)),
            rw(sem_inc_window()),
            Window {
                write: false,
                ..rw(range(w_hbm.0, w_hbm.1))
            },
        ];
        program_all(&mut pkg, &mut sys, RX, &windows);

        // Something to find in the windows: random SBUF contents in and around window 0.
        for part in 0..p.sbuf_partitions {
            let at = v.sbuf_addr(0, part, w_sbuf.0.saturating_sub(64));
            let bytes: Vec<u8> = (0..chunk + 128).map(|_| rng.below(256) as u8).collect();
            let len = bytes
                .len()
                .min((p.sbuf_backing_bytes - (at - v.sbuf_addr(0, part, 0))) as usize);
            pkg.poke(RX, at, &bytes[..len]).expect("poke");
        }

        let regs = register_addresses();
        let before = snapshot(&mut pkg, RX, &regs);
        let mut want = Snapshot {
            sbuf: before.sbuf.clone(),
            hbm: before.hbm.clone(),
            sems: before.sems.clone(),
            regs: before.regs.clone(),
        };
        assert_eq!(reg(&mut pkg, RX, &l.err_count), 0, "no refusal yet");
        assert!(!pkg.irq(RX).expect("irq"), "interrupt at rest");

        let (me, peer) = (die_id(TX), die_id(RX));
        let mut refused: Vec<Op> = Vec::new();
        let mut granted = 0usize;
        for n in 0..SPRAY {
            let op = draw(&mut rng, w_sbuf, w_hbm);
            let soc = v.soc.fold_neighbor(op.local, peer.die);
            let verdict = sys.route_access(me, soc, op.write);
            let value = rng.next_u32();
            let (resp, data) = if op.write {
                let resp = pkg.write_soc(TX, 0, soc, value).expect("host write");
                (resp, 0)
            } else {
                let (data, resp) = pkg.read_soc(TX, 0, soc).expect("host read");
                (resp, data)
            };
            match verdict {
                Ok((die, local)) => {
                    assert_eq!((die, local), (peer, op.local));
                    assert_eq!(
                        resp,
                        Resp::Okay,
                        "request {n} {op:x?}: granted by the model"
                    );
                    granted += 1;
                    match v.decode_local(local) {
                        Some(xdie_csr::Target::Sbuf {
                            core: 0,
                            partition,
                            offset,
                        }) => {
                            let row = &mut want.sbuf[partition as usize];
                            let o = offset as usize;
                            if op.write {
                                row[o..o + 4].copy_from_slice(&value.to_le_bytes());
                            } else {
                                let got = u32::from_le_bytes(row[o..o + 4].try_into().unwrap());
                                assert_eq!(data, got, "request {n}: read {local:#x}");
                            }
                        }
                        Some(xdie_csr::Target::Sem {
                            op: SemOp::Inc,
                            sem,
                            ..
                        }) => {
                            let s = &mut want.sems[sem as usize];
                            if op.write {
                                *s = s.wrapping_add(value);
                            } else {
                                assert_eq!(data, *s, "request {n}: read of sem {sem}");
                            }
                        }
                        Some(xdie_csr::Target::Hbm) if !op.write => {
                            let o = (local - v.hbm_addr(0)) as usize;
                            let got = u32::from_le_bytes(want.hbm[o..o + 4].try_into().unwrap());
                            assert_eq!(data, got, "request {n}: read {local:#x}");
                        }
                        other => panic!("request {n} {op:x?} granted into {other:?}"),
                    }
                }
                Err(e) => {
                    assert_eq!(resp, Resp::DecErr, "request {n} {op:x?}: model says {e}");
                    refused.push(op);
                }
            }
        }
        assert!(
            granted > SPRAY / 5 && refused.len() > SPRAY / 5,
            "{granted} granted, {} refused",
            refused.len()
        );

        // Nothing but the granted stores changed anything.
        let after = snapshot(&mut pkg, RX, &regs);
        if let Some(d) = diff(&want, &after) {
            panic!("die {RX} after {SPRAY} hostile requests: {d}");
        }

        // Every refusal counted, the first captured.
        let count_max = (1u64 << l.count.width) - 1;
        let count = field_of(&l.count, reg(&mut pkg, RX, &l.err_count));
        assert_eq!(
            count,
            (refused.len() as u64).min(count_max),
            "refusals counted"
        );
        let status = reg(&mut pkg, RX, &l.err_status);
        let first = refused[0];
        assert_eq!(field_of(&l.err_valid, status), 1, "a refusal captured");
        assert_eq!(
            field_of(&l.err_write, status),
            u64::from(first.write),
            "direction"
        );
        let port = pkg.linked(RX)[0];
        assert_eq!(
            field_of(&l.err_port, status),
            u64::from(port),
            "arrival port"
        );
        // The address as it arrived: the sender's iATU translated the fold to die 1's own.
        let arrived = v.soc.soc_local(peer.die, first.local);
        let lo = field_of(&l.err_addr_lo.fields[0], reg(&mut pkg, RX, &l.err_addr_lo));
        let hi = field_of(&l.err_addr_hi.fields[0], reg(&mut pkg, RX, &l.err_addr_hi));
        assert_eq!(
            hi << l.err_addr_lo.fields[0].width | lo,
            arrived,
            "captured address"
        );

        // The interrupt follows VALID and IRQ_EN; W1C re-arms the capture; the counter clears.
        assert!(!pkg.irq(RX).expect("irq"), "IRQ_EN is clear at reset");
        pkg.write32(RX, v.inbound_reg(&l.err_ctrl), l.irq_enable.reg_mask())
            .expect("irq enable");
        assert!(
            pkg.irq(RX).expect("irq"),
            "capture with IRQ_EN raises the interrupt"
        );
        pkg.write32(RX, v.inbound_reg(&l.err_status), l.err_valid.reg_mask())
            .expect("W1C");
        assert_eq!(field_of(&l.err_valid, reg(&mut pkg, RX, &l.err_status)), 0);
        assert!(!pkg.irq(RX).expect("irq"), "W1C drops the interrupt");
        let stray = v.hbm_addr(0) + if w_hbm.0 == v.hbm_addr(0) { chunk } else { 0 };
        let resp = pkg
            .write_soc(TX, 0, v.soc.fold_neighbor(stray, peer.die), 1)
            .expect("host write");
        assert_eq!(resp, Resp::DecErr);
        let status = reg(&mut pkg, RX, &l.err_status);
        assert_eq!(field_of(&l.err_valid, status), 1, "re-armed capture");
        assert_eq!(field_of(&l.err_write, status), 1);
        let lo = field_of(&l.err_addr_lo.fields[0], reg(&mut pkg, RX, &l.err_addr_lo));
        assert_eq!(lo, v.soc.soc_local(peer.die, stray) & u64::from(u32::MAX));
        assert!(pkg.irq(RX).expect("irq"));
        pkg.write32(RX, v.inbound_reg(&l.err_ctrl), l.count_clear.reg_mask())
            .expect("count clear");
        assert_eq!(
            field_of(&l.count, reg(&mut pkg, RX, &l.err_count)),
            0,
            "cleared"
        );
        // Die 0 refused nothing: only die 1 was a target.
        assert_eq!(field_of(&l.count, reg(&mut pkg, TX, &l.err_count)), 0);
    });
}

/// The windows come out of reset as the die map's default windows on both dies (read back
/// through the registers); an engine copy across the link lands with them, is refused (DECERR,
/// the engine logs a write error, not a byte lands) once die 1's SBUF window is narrowed to an
/// offset range that misses the destination, and lands again when the narrowed window is moved
/// over the destination (one window covering that range in every partition). Each outcome is
/// the model's verdict for the destination under the same windows.
#[test]
fn narrowed_window_refuses_what_it_excludes() {
    harness::run(0xa11, |ctx| {
        let mut pkg = open(ctx);
        let mut sys = model();
        let v = views();
        let l = &v.inbound;
        for die in [TX, RX] {
            for (i, (w, read, write)) in v.inbound_reset().into_iter().enumerate() {
                let i = i as u64;
                let ctrl = pkg
                    .read32(die, v.inbound_win_reg(i, &l.ctrl))
                    .expect("ctrl");
                assert_eq!(
                    ctrl,
                    l.ctrl_value(read || write, read, write),
                    "window {i} ctrl"
                );
                for (lo, hi, value) in [
                    (&l.base_lo, &l.base_hi, w.base),
                    (&l.mask_lo, &l.mask_hi, w.mask),
                ] {
                    let got_lo = field_of(
                        &lo.fields[0],
                        pkg.read32(die, v.inbound_win_reg(i, lo)).expect("lo"),
                    );
                    let got_hi = field_of(
                        &hi.fields[0],
                        pkg.read32(die, v.inbound_win_reg(i, hi)).expect("hi"),
                    );
                    assert_eq!(
                        got_hi << lo.fields[0].width | got_lo,
                        value,
                        "window {i} of die {die}"
                    );
                }
            }
        }

        let e = v.engines() - 1;
        pkg.setup_packed_queue(TX, e, 2, 16, 0x1_0000)
            .expect("queue");
        let len = 3 * v.params.data_bytes + 8;
        let chunk = 0x1000u64;
        let dst_off = 2 * chunk + 0x40;
        let (src, dst) = (v.sbuf_addr(0, 5, 0x80), v.sbuf_addr(0, 17, dst_off));
        let copy = |pkg: &mut Package, sys: &System, fill: u8| -> (bool, bool) {
            let bytes: Vec<u8> = (0..len).map(|i| fill ^ i as u8).collect();
            pkg.write_bytes(TX, src, &bytes).expect("source");
            let before = pkg.peek(RX, dst, len).expect("peek");
            let soc = v.soc.fold_neighbor(dst, 1);
            let granted = sys.route_access(die_id(TX), soc, true).is_ok();
            let err0 = pkg.err(TX);
            let c = Copy {
                src: v.soc.soc_local(u64::from(TX), src),
                dst: soc,
                len,
                write_barrier: false,
            };
            pkg.post_copy(TX, e, 2, c).expect("post");
            pkg.doorbell(TX, Side::S2m, e, 2).expect("S2M doorbell");
            pkg.doorbell(TX, Side::M2s, e, 2).expect("M2S doorbell");
            pkg.wait_drained(TX, e, 2).expect("queue drains");
            let after = pkg.peek(RX, dst, len).expect("peek");
            let landed = after == bytes;
            if !landed {
                assert_eq!(after, before, "a refused copy wrote something");
            }
            assert_eq!(
                pkg.err(TX) & 2 != 0,
                !granted || err0 & 2 != 0,
                "write error iff refused"
            );
            (granted, landed)
        };
        assert_eq!(copy(&mut pkg, &sys, 0x11), (true, true), "default windows");

        // Narrowed: one 4 KiB range of every partition, next to the destination's.
        let rw = |window| Window {
            enabled: true,
            read: true,
            write: true,
            window,
        };
        let keep_inc = rw(sem_inc_window());
        program_all(
            &mut pkg,
            &mut sys,
            RX,
            &[
                rw(every_partition(dst_off / chunk * chunk + chunk, chunk)),
                keep_inc,
            ],
        );
        let refused_before = field_of(&l.count, reg(&mut pkg, RX, &l.err_count));
        assert_eq!(copy(&mut pkg, &sys, 0x22), (false, false), "narrowed away");
        let refused = field_of(&l.count, reg(&mut pkg, RX, &l.err_count)) - refused_before;
        let beats = len.div_ceil(v.params.data_bytes);
        assert!(
            refused >= 1 && refused <= beats + 1,
            "{refused} refusals for {beats} beats"
        );

        // Moved over the destination's range.
        program_all(
            &mut pkg,
            &mut sys,
            RX,
            &[
                rw(every_partition(dst_off / chunk * chunk, chunk)),
                keep_inc,
            ],
        );
        assert_eq!(
            copy(&mut pkg, &sys, 0x33),
            (true, true),
            "window over the destination"
        );
    });
}
