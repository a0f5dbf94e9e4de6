//! The ring of four packages (`xdie_mesh_ring4`: 8 dies, chip-id view) on the RTL: scenarios
//! that name `topology: ring4`, driven by the reference firmware of every context and checked
//! by the scoreboard against the golden model, and the latency a hop adds. Built only with the
//! `mesh` feature: `cargo test --release -p xdie-tb --features mesh --test mesh`.
#![cfg(feature = "mesh")]

use std::path::PathBuf;
use xdie_model::mesh::routes::RouteTables;
use xdie_model::scenario::Scenario;
use xdie_model::DieId;
use xdie_tb::driver;
use xdie_tb::package::{Copy, Package, Side};
use xdie_tb::regmodel::{csrs, views};
use xdie_tb::{harness, Timing};

fn scenario(name: &str) -> Scenario {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../scenarios")
        .join(name);
    Scenario::load(&p).unwrap_or_else(|e| panic!("{e}"))
}

/// The topology of the simulated mesh top.
fn ring4() -> xdie_model::mesh::Mesh {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../topologies/ring4.yaml");
    xdie_model::mesh::load(&p, &xdie_model::Layout::new(csrs())).unwrap_or_else(|e| panic!("{e}"))
}

/// Runs `sc` on the model and the RTL; every byte, semaphore, queue register and the model's
/// invariants on the monitor's log must agree.
fn check(sc: &Scenario, seed: u64) -> driver::RtlOutcome {
    let name = sc.path.display().to_string();
    let model = sc.run_model(csrs(), seed).unwrap_or_else(|e| panic!("{e}"));
    assert!(model.mesh.is_some(), "{name} names a topology");
    let out =
        driver::run(sc, &model, seed, None, &mut |_| {}).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(
        out.mismatches.is_empty(),
        "{name}: {}",
        out.mismatches.join("\n")
    );
    assert_eq!(out.sems, model.sys.end_state().sems);
    assert!(out.transfer_cycles > 0);
    eprintln!(
        "{name}: {} transfer cycles, {:.0} simulated cycles/s",
        out.transfer_cycles,
        out.transfer_cycles as f64 / out.transfer_seconds.max(1e-9)
    );
    out
}

/// The cross-package scenario (three hops between packages 0x11 and 0x12) on the mesh top.
#[test]
fn cross_package_leg_on_the_ring() {
    harness::run(3, |ctx| {
        let sc = scenario("cross-package.yaml");
        let out = check(&sc, ctx.seed);
        let model = sc.run_model(csrs(), ctx.seed).expect("model");
        let (leg, run) = (&sc.legs[0], &model.legs[0]);
        assert_ne!(run.tx_die.chip, run.rx_die.chip, "a cross-package leg");
        let sem = |die: DieId, s: u64| {
            out.sems
                .iter()
                .find(|v| v.die == die && v.sem == s)
                .map_or(0, |v| v.value)
        };
        assert_eq!(sem(run.rx_die, leg.remote_sem), leg.n_engines() as i64);
    });
}

/// Every die to every other at once, with random backpressure on every link.
#[test]
fn ring4_all_to_all() {
    harness::run(5, |ctx| {
        let sc = scenario("ring4-all-to-all.yaml");
        assert!(sc.link_backpressure > 0);
        check(&sc, ctx.seed);
    });
}

/// Cycles from the launching M2S doorbell of one beat's copy from die 0 to a die `hops` links
/// away until die 0's engine is idle again (its write acknowledged back over the same hops), for
/// the nearest die at each distance the route tables give. Each extra hop must cost cycles:
/// the request and its response cross one more link each way.
#[test]
fn each_hop_adds_latency() {
    harness::run(9, |ctx| {
        let mesh = ring4();
        let tables = RouteTables::compute(&mesh);
        let kind = Package::mesh_kind().expect("mesh top built");
        let mut pkg = Package::mesh(
            ctx.sim(kind).expect("model"),
            ctx.sub_seed(),
            Timing::FAST,
            &mesh,
        )
        .expect("mesh up");
        pkg.program_mesh(&tables).expect("routes and iATU");
        let v = views();
        let beat = v.params.data_bytes;
        let from = pkg.dies()[0];
        pkg.setup_packed_queue(0, 0, 0, 8, 0x1_0000).expect("queue");
        let mut lat: Vec<(usize, u64)> = Vec::new();
        for hops in 1..=3usize {
            let Some(&to) = pkg
                .dies()
                .iter()
                .find(|&&t| t != from && tables.path(from, t).is_some_and(|p| p.len() == hops + 1))
            else {
                continue;
            };
            let (src, dst) = (v.sbuf_addr(0, 0), v.sbuf_addr(0, 0x100 * hops as u64));
            let data: Vec<u8> = (0..beat).map(|i| (i as u8) ^ (hops as u8) ^ 0xa5).collect();
            pkg.poke(0, src, &data).expect("source");
            let c = Copy {
                src: v.soc.soc_local(from.die, src),
                dst: v.soc.fold_chip_id(dst, to.die, to.chip),
                len: beat,
                write_barrier: false,
            };
            pkg.post_copy(0, 0, 0, c).expect("post");
            pkg.doorbell(0, Side::S2m, 0, 0).expect("S2M doorbell");
            let start = pkg.cycle();
            let idle = pkg.idle_bits(0);
            let mut busy = false;
            pkg.doorbell_observed(0, Side::M2s, 0, 0, |sim| busy |= idle.read(sim) == 0)
                .expect("M2S doorbell");
            if !busy {
                pkg.tick_until("engine start", |p| !p.idle(0))
                    .expect("starts");
            }
            pkg.tick_until("engine idle", |p| p.idle(0)).expect("ends");
            let cycles = pkg.cycle() - start;
            let t = pkg.index(to).expect("simulated");
            assert_eq!(pkg.peek(t, dst, beat).expect("peek"), data, "{hops} hops");
            assert_eq!(pkg.err(0), 0, "engine errors");
            lat.push((hops, cycles));
        }
        eprintln!("copy latency by hops (cycles): {lat:?}");
        let t = std::time::Instant::now();
        pkg.sim.ticks(2000);
        eprintln!(
            "idle mesh: {:.0} cycles/s",
            2000.0 / t.elapsed().as_secs_f64()
        );
        assert_eq!(lat.len(), 3, "the ring has dies 1, 2 and 3 hops from die 0");
        for w in lat.windows(2) {
            assert!(
                w[1].1 > w[0].1,
                "{} hops not slower than {}: {lat:?}",
                w[1].0,
                w[0].0
            );
        }
    });
}

