//! The package top's one iATU region (the neighbor view's translation, docs/mesh.md): the golden
//! model routes through the same region the driver programs (`Fabric::neighbor` of the package,
//! read back from the RTL's registers), and a store or an engine copy to a routed address
//! outside it — which the view's decoders alone would deliver — is refused DECERR on the RTL and
//! by the model alike, landing nothing.
//!
//! Built with the package model only: `cargo test -p xdie-tb --features package --test neighbor_iatu`.
#![cfg(feature = "package")]

use xdie_model::mesh::fabric::Fabric;
use xdie_model::{DieId, System, Topology};
use xdie_tb::package::{Copy, Package, Side};
use xdie_tb::regmodel::{csrs, views};
use xdie_tb::{harness, Resp, Timing};

const CHIP: u64 = 0x12;

#[test]
fn outside_the_programmed_region_model_and_rtl_both_refuse() {
    harness::run(23, |ctx| {
        let kind = Package::kind().expect("xdie_pkg_top is simulated");
        let sim = ctx.sim(kind).expect("package model");
        let mut pkg = Package::new(sim, ctx.sub_seed(), Timing::FAST, CHIP).expect("package up");
        for die in 0..2 {
            pkg.program_iatu(die, 0).expect("iATU region 0");
        }
        let v = views();
        let (soc, l) = (&v.soc, &v.iatu);
        let topo = Topology::package(CHIP);
        let sys = System::new(csrs(), topo.clone()).expect("model");
        let fabric = sys
            .fabric()
            .expect("a neighbor system routes through its fabric");
        let layout = xdie_model::Layout::new(csrs());
        assert_eq!(
            fabric.iatu,
            Fabric::neighbor(&topo, &layout).iatu,
            "the system's fabric"
        );
        // What the driver programmed is the model's region, register by register.
        for (port, regions) in &fabric.iatu {
            let die = pkg.index(port.die).expect("a die of the package");
            let c = u64::from(port.port);
            for (k, r) in regions.iter().enumerate() {
                let mut rd = |reg| pkg.read32(die, v.iatu_reg(c, k as u64, reg)).expect("iATU");
                let pair = |lo: u32, hi: u32| u64::from(lo) | u64::from(hi) << 32;
                assert_eq!(
                    pair(rd(&l.base_lo), rd(&l.base_hi)),
                    r.base,
                    "{port:?} base"
                );
                assert_eq!(
                    pair(rd(&l.limit_lo), rd(&l.limit_hi)),
                    r.limit,
                    "{port:?} limit"
                );
                assert_eq!(
                    pair(rd(&l.target_lo), rd(&l.target_hi)),
                    r.target,
                    "{port:?} target"
                );
                assert_eq!(
                    rd(&l.ctrl) & l.enable.reg_mask() != 0,
                    r.enabled,
                    "{port:?} enable"
                );
            }
        }
        let nv = &soc.neighbor;
        let mut value = 0x1a7u32 << 20;
        let (mut okay, mut refused) = (0, 0);
        for die in 0..2u32 {
            let me = DieId {
                chip: CHIP,
                die: u64::from(die),
            };
            let other = 1 - me.die;
            let local = v.sbuf_addr(0, 2, 0x40 + 4 * u64::from(die));
            let inside = soc.fold_neighbor(local, other);
            let cases = [
                ("the in-package form", inside),
                ("own die, plain", soc.soc_local(me.die, local)),
                (
                    "EXIT_DIE naming the issuing die",
                    soc.fold_neighbor(local, me.die),
                ),
                (
                    "EXIT_DIE and a package exit",
                    nv.exit_seng.set(inside as u128, 1) as u64,
                ),
                ("the other die, plain", soc.soc_local(other, local)),
                (
                    "the other die, routed with no exit",
                    nv.exit_die.set(inside as u128, 0) as u64,
                ),
            ];
            for (what, addr) in cases {
                value += 1;
                let rtl = pkg.write_soc(die, 0, addr, value).expect("host write");
                match (sys.route(me, addr), rtl) {
                    (Ok((to, at)), Resp::Okay) => {
                        let t = pkg.index(to).expect("a die");
                        assert_eq!(
                            pkg.peek(t, at, 4).expect("peek"),
                            value.to_le_bytes(),
                            "{me}: {what} ({addr:#x})"
                        );
                        okay += 1;
                    }
                    (Err(e), Resp::DecErr) => {
                        assert!(e.to_string().contains("DECERR"), "{what}: {e}");
                        // The view's decoders alone would not refuse every one of them.
                        refused += 1;
                    }
                    (m, r) => panic!("{me}: {what} ({addr:#x}): RTL {r:?}, model {m:?}"),
                }
            }
        }
        assert!(
            okay >= 4 && refused >= 6,
            "{okay} delivered, {refused} refused"
        );
        // An engine copy into the region lands; one to the other die's plain address is
        // refused by the region: the engine's write error, the model's DECERR, nothing landed.
        let beat = v.params.data_bytes;
        pkg.setup_packed_queue(0, 0, 0, 8, 0x1_0000).expect("queue");
        let src = v.sbuf_addr(0, 0, 0);
        let data: Vec<u8> = (0..beat).map(|i| (i as u8) ^ 0x96).collect();
        pkg.poke(0, src, &data).expect("source");
        let me = DieId { chip: CHIP, die: 0 };
        let copy = |pkg: &mut Package, dst: u64| {
            let c = Copy {
                src: soc.soc_local(0, src),
                dst,
                len: beat,
                write_barrier: false,
            };
            pkg.post_copy(0, 0, 0, c).expect("post");
            pkg.doorbell(0, Side::S2m, 0, 0).expect("S2M doorbell");
            pkg.doorbell(0, Side::M2s, 0, 0).expect("M2S doorbell");
            pkg.wait_drained(0, 0, 0).expect("the copy ends");
            pkg.tick_until("engine idle", |p| p.idle(0)).expect("idle");
            pkg.err(0)
        };
        let good = v.sbuf_addr(0, 5, 0x400);
        let addr = soc.fold_neighbor(good, 1);
        assert_eq!(
            sys.route(me, addr).expect("routed"),
            (DieId { chip: CHIP, die: 1 }, good)
        );
        assert_eq!(copy(&mut pkg, addr), 0, "no engine error");
        assert_eq!(pkg.peek(1, good, beat).expect("peek"), data);
        let bad = v.sbuf_addr(0, 5, 0x800);
        let addr = soc.soc_local(1, bad);
        let why = sys.route(me, addr).expect_err("outside the region");
        assert!(why.to_string().contains("DECERR"), "{why}");
        assert!(
            topo.route(&layout, me, addr).is_ok(),
            "the decoders alone would deliver it"
        );
        let err = copy(&mut pkg, addr);
        assert_ne!(err & 0b10, 0, "the engine's write error ({why})");
        for d in 0..2 {
            assert!(
                pkg.peek(d, bad, beat)
                    .expect("peek")
                    .iter()
                    .all(|&b| b == 0),
                "nothing landed on die {d}"
            );
        }
    });
}
