//! The dies of the sizing profiles other than the simulated one (`xdie_die_<profile>`, the FPGA
//! builds: fewer engines, small memories, the shared crossbar, the select round robins and
//! whatever else a profile switches on), each simulated alone: driven only through its host
//! port, as firmware would, with every D2D link down. The package and mesh tests cover the
//! default profile; these cover the build choices that only the other profiles make.
//!
//! Every engine of the die runs, on two queues: a copy between SBUF partitions (checked
//! with guard bytes against a shadow computed here), an fp32 accumulate into SBUF (checked
//! against the model's lane adder, `xdie_model::reduce`) and a semaphore increment that follows
//! them. The sequencer slots contend for one semaphore as on the package, and a copy past the
//! profile's SBUF backing is refused. Addresses, sizes and engine counts come from the profile
//! in `csrs/sizing.*`.

use xdie_csr::{SemOp, Sizing};
use xdie_model::reduce::{accumulate, AccDtype};
use xdie_tb::checks::{self, f32_lanes, pattern};
use xdie_tb::package::{Copy, Package, Side};
use xdie_tb::regmodel::{csrs, views};
use xdie_tb::{harness, Ctx, DutKind, Timing};

const CHIP: u64 = 1;
/// Guard bytes checked on each side of a destination.
const GUARD: u64 = 32;
/// Ring slots per queue.
const SLOTS: u64 = 8;
/// The queues each engine serves.
const QUEUES: [u64; 2] = [0, 1];

/// The wrapper tops this build simulates, with their profiles.
fn profile_dies() -> Vec<(DutKind, &'static Sizing)> {
    DutKind::ALL
        .iter()
        .filter_map(|&k| {
            let name = k.name().strip_prefix("xdie_die_")?;
            let s = csrs().sizings.iter().find(|s| s.name == name)?;
            Some((k, s))
        })
        .collect()
}

/// Every sizing profile but the simulated one has its wrapper top among this build's models (a
/// profile added to `csrs/sizing.*` is simulated without an edit here).
#[test]
fn every_profile_die_is_simulated() {
    let built: Vec<&str> = profile_dies()
        .iter()
        .map(|(_, s)| s.name.as_str())
        .collect();
    for s in &csrs().sizings {
        if s.name != csrs().sizing().name {
            assert!(
                built.contains(&s.name.as_str()),
                "profile {} has no simulated wrapper top (built: {built:?})",
                s.name
            );
        }
    }
}

/// A fresh model of profile die `kind`, alone, with random handshake timing on its host port.
fn open(ctx: &mut Ctx, kind: DutKind) -> Package {
    let sim = ctx.sim(kind).expect("die model");
    Package::die(sim, ctx.sub_seed(), Timing::RANDOM, CHIP).expect("die up")
}

/// HBM offsets of the M2S and S2M rings of ring pair `n`: after the first word (the tests'
/// constant 1), at the ring base's alignment, inside the profile's HBM.
fn ring_pair(sz: &Sizing, n: u64) -> (u64, u64) {
    let v = views();
    let align = 1u64 << v.side(Side::M2s).layout.ring_base_lo_addr.lsb;
    let stride = (SLOTS * u64::from(v.m2s_desc.format.bytes)).next_multiple_of(align);
    let at = align + 2 * n * stride;
    assert!(
        at + 2 * stride <= sz.hbm_bytes,
        "{}: HBM too small",
        sz.name
    );
    (at, at + stride)
}

#[test]
fn engines_copy_accumulate_and_count() {
    let dies = profile_dies();
    assert!(!dies.is_empty(), "no profile die in this build");
    harness::run(0xf9a, |ctx| {
        for &(kind, sz) in &dies {
            let mut pkg = open(ctx, kind);
            let v = views();
            let dw = v.params.data_bytes;
            // Within the profile's backing: a copy and an accumulate per engine, each in a
            // partition of its own, lane aligned but not beat aligned.
            let (len, dst_off) = (2 * dw + 12, dw + 8);
            assert!(
                dst_off + len + GUARD <= sz.sbuf_backing_bytes,
                "{}: SBUF backing too small for the test",
                sz.name
            );
            let one = v.hbm_addr(0);
            pkg.write32(0, one, 1).expect("constant 1");
            let sem = |e: u64| 3 + e;
            let mut checks = Vec::new();
            for e in 0..sz.sdma_engines {
                let p = 4 * e;
                let (src, dst) = (v.sbuf_addr(0, p, 4), v.sbuf_addr(0, p + 1, dst_off));
                let (fdst_p, f_off) = (p + 2, dw + 4);
                let f_dst = v.sbuf_addr(0, fdst_p, f_off);
                let bytes = pattern(&mut ctx.rng, len);
                pkg.write_bytes(0, src, &bytes).expect("source");
                let mut shadow = pkg
                    .read_bytes(0, dst - GUARD, len + 2 * GUARD)
                    .expect("window");
                shadow[GUARD as usize..][..len as usize].copy_from_slice(&bytes);
                let fsrc = f32_lanes(&mut ctx.rng, len / 4);
                let fbase = f32_lanes(&mut ctx.rng, len / 4);
                pkg.write_bytes(0, v.sbuf_addr(0, p + 3, 0), &fsrc)
                    .expect("fp32 source");
                pkg.write_bytes(0, f_dst, &fbase).expect("fp32 destination");
                let mut fwant = fbase.clone();
                accumulate(AccDtype::F32, &mut fwant, &fsrc);
                let before = pkg
                    .read32(0, v.sem_addr(0, SemOp::Read, sem(e)))
                    .expect("sem");

                // Two queues per engine (the round robin alternates between them).
                for q in QUEUES {
                    let (m2s, s2m) = ring_pair(sz, e * QUEUES.len() as u64 + q);
                    pkg.setup_queue(0, e, q, SLOTS, m2s, s2m).expect("queue");
                }
                let soc = |local| v.soc.soc_local(0, local);
                let copies = [
                    (0, src, dst, len, false),
                    (
                        1,
                        v.sbuf_addr(0, p + 3, 0),
                        v.sbuf_acc_addr(AccDtype::F32, 0, fdst_p, f_off),
                        len,
                        false,
                    ),
                    (0, one, v.sem_addr(0, SemOp::Inc, sem(e)), 4, true),
                ];
                for (q, s, d, n, barrier) in copies {
                    let c = Copy {
                        src: soc(s),
                        dst: soc(d),
                        len: n,
                        write_barrier: barrier,
                    };
                    pkg.post_copy(0, e, q, c).expect("post");
                }
                checks.push((e, dst, shadow, f_dst, fwant, before));
            }
            // Every engine at once.
            for e in 0..sz.sdma_engines {
                for q in QUEUES {
                    pkg.doorbell(0, Side::S2m, e, q).expect("S2M doorbell");
                    pkg.doorbell(0, Side::M2s, e, q).expect("M2S doorbell");
                }
            }
            for e in 0..sz.sdma_engines {
                for q in QUEUES {
                    pkg.wait_drained(0, e, q).expect("queue drains");
                }
            }
            for (e, dst, shadow, f_dst, fwant, before) in checks {
                let what = format!("{} engine {e}", sz.name);
                let got = pkg
                    .read_bytes(0, dst - GUARD, shadow.len() as u64)
                    .expect("window");
                assert_eq!(got, shadow, "{what}: copy and its guard bytes");
                let got = pkg.read_bytes(0, f_dst, len).expect("fp32 window");
                assert_eq!(got, fwant, "{what}: fp32 accumulate");
                let after = pkg
                    .read32(0, v.sem_addr(0, SemOp::Read, sem(e)))
                    .expect("sem");
                assert_eq!(after, before.wrapping_add(1), "{what}: semaphore");
            }
            assert_eq!(pkg.err(0), 0, "{}: engine errors", sz.name);
        }
    });
}

/// The sequencer slots of each profile die contend for one semaphore, as on the package
/// (`checks::sequencer_slots_contend`).
#[test]
fn sequencer_slots_contend_for_one_semaphore() {
    harness::run(0x5e9, |ctx| {
        for (kind, sz) in profile_dies() {
            let mut pkg = open(ctx, kind);
            checks::sequencer_slots_contend(&mut pkg, 0, sz.cores, &mut ctx.rng);
        }
    });
}

/// A copy whose destination runs past the end of the profile's SBUF backing (a smaller backing
/// than the simulated die's, so a boundary only these dies have): the bytes inside the backing
/// land, the beat past it is refused (DECERR), and the engine logs a write error and no read
/// error.
#[test]
fn copy_past_the_backing_is_a_write_error() {
    harness::run(0xbac, |ctx| {
        for (kind, sz) in profile_dies() {
            let mut pkg = open(ctx, kind);
            let v = views();
            let e = sz.sdma_engines - 1;
            let (inside, len) = (8, 16);
            let src = v.sbuf_addr(0, 9, 0);
            let dst = v.sbuf_addr(0, 10, sz.sbuf_backing_bytes - inside);
            let bytes = pattern(&mut ctx.rng, len);
            pkg.write_bytes(0, src, &bytes).expect("source");
            let mut shadow = pkg
                .read_bytes(0, dst - GUARD, GUARD + inside)
                .expect("window");
            shadow[GUARD as usize..].copy_from_slice(&bytes[..inside as usize]);
            let (m2s, s2m) = ring_pair(sz, 0);
            pkg.setup_queue(0, e, 0, SLOTS, m2s, s2m).expect("queue");
            let c = Copy {
                src: v.soc.soc_local(0, src),
                dst: v.soc.soc_local(0, dst),
                len,
                write_barrier: false,
            };
            pkg.post_copy(0, e, 0, c).expect("post");
            pkg.doorbell(0, Side::S2m, e, 0).expect("S2M doorbell");
            pkg.doorbell(0, Side::M2s, e, 0).expect("M2S doorbell");
            pkg.wait_drained(0, e, 0).expect("queue drains");
            let got = pkg
                .read_bytes(0, dst - GUARD, GUARD + inside)
                .expect("window");
            assert_eq!(got, shadow, "{}: the bytes inside the backing", sz.name);
            let err = pkg.err(0) >> (2 * e);
            assert_eq!(err & 3, 2, "{}: engine {e} errors (read, write)", sz.name);
        }
    });
}
