//! Systems of packages on the RTL, composed from one die-node model per die (xdie_tb::system):
//! the ring of four packages (topologies/ring4.yaml: 8 dies, chip-id view) with scenarios that
//! name `topology: ring4`, driven by the reference firmware of every context and checked by the
//! scoreboard against the golden model; the latency a hop adds; model parity of routed and
//! refused stores; a topology that ships nowhere; and the same results on one thread and two.
//! The neighbor view on the die node built for it (topologies/pair-neighbor.yaml: paths of one,
//! two and three hops, refusals outside the iATU regions, in-package firmware legs), and the
//! sequencer slots two packages' contexts use.

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

/// The ring of four packages.
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

/// The cross-package scenario (three hops between packages 0x11 and 0x12) on the ring.
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
        let mut pkg =
            Package::composed(&mesh, ctx.sub_seed(), Timing::FAST, 2, None).expect("mesh up");
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
            let (src, dst) = (v.sbuf_addr(0, 0, 0), v.sbuf_addr(0, 0, 0x100 * hops as u64));
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
            pkg.doorbell_observed(0, Side::M2s, 0, 0, |m| busy |= idle.read(m.model(0)) == 0)
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

/// Model parity: host stores from several dies to a set of addresses (every die's SBUF, a chip
/// id the ring does not have, routing bits without the id-valid bit, a local address in no
/// aperture of a remote die), on the tables the driver programs and after changing them the
/// way a wrong driver could (an invalidated entry, an entry naming an unlinked port, an entry
/// that sends a forwarded store back where it came from, a disabled iATU region). The RTL's
/// response (OKAY or DECERR) and, for a delivered store, the die and word it landed in must be
/// the golden model's hop-by-hop verdict (`Fabric::deliver`) on the same state.
#[test]
fn model_and_rtl_agree_on_delivered_and_refused_stores() {
    use xdie_model::mesh::fabric::{Delivery, Fabric};
    use xdie_tb::axil::Resp;
    harness::run(11, |ctx| {
        let mesh = ring4();
        let tables = RouteTables::compute(&mesh);
        let layout = xdie_model::Layout::new(csrs());
        let mut fabric = Fabric::new(&mesh, &tables, &layout);
        let mut pkg =
            Package::composed(&mesh, ctx.sub_seed(), Timing::FAST, 2, None).expect("mesh up");
        pkg.program_mesh(&tables).expect("routes and iATU");
        let v = views();
        let soc = &v.soc;
        let dies = pkg.dies().to_vec();
        let ports = v.apertures.d2d.count as u32;
        // A die-local address in no aperture (the first gap above SBUF), and one in SBUF.
        let gap = (0..=soc.local.local.value_mask() as u64)
            .step_by(0x1000)
            .find(|&a| !xdie_model::mesh::fabric::in_aperture(&layout, a))
            .expect("the local space has a gap");
        let absent_chip = (0..=soc.local.cayman_id.value_mask() as u64)
            .find(|c| !dies.iter().any(|d| d.chip == *c))
            .expect("a chip id the ring does not use");
        let mut value = 0x5eed_0000u32;
        let mut compare = |pkg: &mut Package, fabric: &Fabric, what: &str| {
            let mut checked = 0;
            for from in [0u32, 3, 6] {
                let me = dies[from as usize];
                let mut addrs: Vec<u64> = dies
                    .iter()
                    .map(|d| {
                        soc.fold_chip_id(
                            v.sbuf_addr(0, 1, 0x40 + 4 * u64::from(from)),
                            d.die,
                            d.chip,
                        )
                    })
                    .collect();
                addrs.push(soc.fold_chip_id(v.sbuf_addr(0, 0, 0), 0, absent_chip));
                addrs.push(soc.fold_chip_id(gap, dies[5].die, dies[5].chip));
                // Routing bits without the id-valid bit.
                let c = &soc.local.cayman_id;
                addrs.push(c.set(
                    u128::from(soc.soc_local(1 - me.die, v.sbuf_addr(0, 0, 0))),
                    1,
                ) as u64);
                for addr in addrs {
                    value = value.wrapping_add(1);
                    let rtl = pkg.write_soc(from, 0, addr, value).expect("host write");
                    let model = fabric.deliver(&layout, me, addr);
                    match (&model, rtl) {
                        (Delivery::Delivered { die, local, .. }, Resp::Okay) => {
                            let t = pkg.index(*die).expect("simulated");
                            let backed = matches!(
                                v.decode_local(*local),
                                Some(xdie_csr::Target::Sbuf { offset, .. })
                                    if offset < v.params.sbuf_backing_bytes
                            );
                            if backed {
                                let got = pkg.peek(t, *local, 4).expect("peek");
                                assert_eq!(
                                    got,
                                    value.to_le_bytes(),
                                    "{what}: {me} store {addr:#x} landed elsewhere than {die} {local:#x}"
                                );
                            }
                        }
                        (Delivery::DecErr { .. }, Resp::DecErr) => {}
                        (m, r) => panic!("{what}: {me} store {addr:#x}: RTL {r:?}, model {m:?}"),
                    }
                    checked += 1;
                }
            }
            checked
        };
        let mut n = compare(&mut pkg, &fabric, "as programmed");
        // A destination two or more hops from die 0, and the die its path takes first.
        let d0 = dies[0];
        let far = *dies
            .iter()
            .find(|&&t| tables.path(d0, t).is_some_and(|p| p.len() >= 3))
            .expect("a die two hops away");
        let next = tables.path(d0, far).expect("path")[1];
        let first_port = tables.egress[&(d0, far)];
        let set = |pkg: &mut Package,
                   fabric: &mut Fabric,
                   die: xdie_model::DieId,
                   dest: xdie_model::DieId,
                   port: Option<u32>| {
            let i = pkg.index(die).expect("simulated");
            let reg = v.route_reg(dest.chip, dest.die);
            let value = port.map_or(0, |p| v.route.entry_value(u64::from(p)));
            pkg.write32(i, reg, value).expect("route entry");
            fabric.set_entry(die, dest, port);
        };
        // An invalidated entry on the issuer.
        set(&mut pkg, &mut fabric, d0, dies[5], None);
        // An entry naming a port without a link.
        let unlinked = (0..ports)
            .find(|p| !pkg.linked(0).contains(p))
            .expect("an unlinked port");
        set(&mut pkg, &mut fabric, d0, dies[6], Some(unlinked));
        // A U-turn: the next die sends `far` back out of the port it arrived on.
        let back = mesh
            .port_links()
            .iter()
            .find(|(p, (f, _))| p.die == d0 && p.port == first_port && f.die == next)
            .map(|(_, (f, _))| f.port)
            .expect("the link to the next die");
        set(&mut pkg, &mut fabric, next, far, Some(back));
        n += compare(&mut pkg, &fabric, "with wrong entries");
        // A disabled iATU region on die 3's first linked port.
        let p3 = pkg.linked(3)[0];
        let ctrl = v.iatu_reg(u64::from(p3), 0, &v.iatu.ctrl);
        pkg.write32(3, ctrl, 0).expect("iATU off");
        let port = xdie_model::PortId {
            die: dies[3],
            port: p3,
        };
        fabric.iatu.get_mut(&port).expect("linked")[0].enabled = false;
        n += compare(&mut pkg, &fabric, "with an iATU region off");
        assert!(n > 0);
    });
}

/// The collectives of the ring, one rank per die, on the RTL: every rank's buffer (the model
/// checks it against the collective's result), every semaphore and every leg's invariants on the
/// monitor's log against the model. Prints the RTL's cycles next to the analytic bound.
#[rstest::rstest]
#[case::all_gather("allgather-ring8.yaml")]
#[case::all_to_all("alltoall-ring8.yaml")]
#[case::reduce_scatter("reducescatter-ring8.yaml")]
#[case::all_reduce_int32("allreduce-ring8-int32.yaml")]
#[case::all_reduce_fp32("allreduce-ring8-fp32.yaml")]
fn ring8_collective(#[case] file: &str) {
    harness::run(7, |ctx| ring8(file, ctx.seed));
}

/// The 1 MiB benchmarks of the bound ratio (docs/collectives.md), checked as
/// [`ring8_collective`]: minutes of simulation each, so run on demand (`-- --ignored ring8`).
#[rstest::rstest]
#[case::all_gather("allgather-ring8-1mib.yaml")]
#[case::all_reduce("allreduce-ring8-1mib.yaml")]
#[ignore = "minutes of simulation each; run with --ignored"]
fn ring8_collective_1mib(#[case] file: &str) {
    harness::run(7, |ctx| ring8(file, ctx.seed));
}

fn ring8(file: &str, seed: u64) {
    let sc = scenario(file);
    let c = sc.collective.as_ref().expect("a collective scenario");
    let out = check(&sc, seed);
    let slots = xdie_tb::checks::sequencer_slot_owners(&out.fw_stores)
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    let model = sc.run_model(csrs(), seed).expect("model");
    let est = xdie_model::timing::estimate(&sc, &model);
    eprintln!(
        "{file}: {} sequencer slots, each used by one context",
        slots.len()
    );
    let bound = c
        .bound_cycles(est.link_width.max(1))
        .unwrap_or(est.busiest_bytes as f64 / est.busiest_width.max(1) as f64);
    eprintln!(
        "{file}: {} cycles on the RTL, bound {bound:.0}, ratio {:.3} (model estimate {:.0}); \
         {} cycles of firmware before the first launch",
        out.transfer_cycles,
        out.transfer_cycles as f64 / bound,
        est.cycles,
        out.launch_cycle
    );
    // Where launching costs: the firmware's bus accesses (through a remap window: to another
    // die) and, per chained leg, the cycles from the completion of the leg it follows to its
    // launch doorbell.
    let local = out.fw_accesses - out.fw_window_accesses;
    let mut gaps: Vec<i64> = out.launch_gaps.iter().map(|g| g.1).collect();
    gaps.sort_unstable();
    let pick = |q: usize| gaps.get(gaps.len().saturating_sub(1) * q / 100).copied();
    eprintln!(
        "{file}: {} MMIO accesses ({local} direct, {:.1} cycles each; {} through a window, {:.1} \
         cycles each) for {} legs; launch gap of {} chained legs: median {:?}, 90th percentile \
         {:?}, max {:?} cycles",
        out.fw_accesses,
        (out.fw_bus_cycles - out.fw_window_bus_cycles) as f64 / local.max(1) as f64,
        out.fw_window_accesses,
        out.fw_window_bus_cycles as f64 / out.fw_window_accesses.max(1) as f64,
        sc.legs.len(),
        gaps.len(),
        pick(50),
        pick(90),
        gaps.last()
    );
}

/// A topology that ships nowhere in the repository (a line of three packages, written here)
/// runs on the RTL as it is: no generated top, no new model, the same die model as every other
/// system. A leg from one end of the line to the other crosses both packages' links.
#[test]
fn a_topology_written_here_runs_on_the_rtl() {
    harness::run(13, |ctx| {
        let dir = std::env::temp_dir().join(format!("xdie-line3-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("topologies")).expect("temp dir");
        std::fs::create_dir_all(dir.join("scenarios")).expect("temp dir");
        std::fs::write(
            dir.join("topologies/line3.yaml"),
            "description: \"a line of three packages, chip-id view\"\n\
             view: chip_id\n\
             packages:\n\
             \x20 - {name: a, cayman_id: 0x01}\n\
             \x20 - {name: b, cayman_id: 0x02}\n\
             \x20 - {name: c, cayman_id: 0x03}\n\
             links:\n\
             \x20 - {a: a.0.0, b: a.1.0}\n\
             \x20 - {a: b.0.0, b: b.1.0}\n\
             \x20 - {a: c.0.0, b: c.1.0}\n\
             \x20 - {a: a.1.1, b: b.0.1}\n\
             \x20 - {a: b.1.1, b: c.0.1}\n",
        )
        .expect("topology");
        let sc_path = dir.join("scenarios/line3-cross.yaml");
        std::fs::write(
            &sc_path,
            "description: \"end to end of a line of three packages\"\n\
             topology: line3\n\
             legs:\n\
             \x20 - name: across\n\
             \x20   tx: {chip: 0x01, core: 0}\n\
             \x20   rx: {chip: 0x03, core: 2}\n\
             \x20   dma_engine_mask: 0b0011\n\
             \x20   partitions: 4\n\
             \x20   free_dim_bytes: 0x200\n\
             \x20   src_addr: 0x40\n\
             \x20   dst_addr: 0x1000\n\
             \x20   local_sem: 1\n\
             \x20   remote_sem: 2\n\
             \x20   go_sem: 0\n\
             \x20   queue: 1\n",
        )
        .expect("scenario");
        let sc = Scenario::load(&sc_path).unwrap_or_else(|e| panic!("{e}"));
        let out = check(&sc, ctx.seed);
        let mesh = sc
            .mesh(csrs())
            .expect("the line loads")
            .expect("a topology");
        assert_eq!(out.rtl_system, "composed system");
        assert_eq!(
            out.models as usize,
            mesh.dies().len(),
            "one model per die of the line"
        );
        let _ = std::fs::remove_dir_all(&dir);
    });
}

/// The same collective on one thread and on two gives the same run: every cycle count, every
/// semaphore, every store's issue and response cycle, every launch gap. The dies of a window
/// read only words delivered before it, so the schedule cannot show.
#[test]
fn one_thread_and_two_give_the_same_run() {
    harness::run(17, |ctx| {
        let sc = scenario("allgather-ring8.yaml");
        let model = sc
            .run_model(csrs(), ctx.seed)
            .unwrap_or_else(|e| panic!("{e}"));
        let run = |threads: usize| {
            let opts = driver::RunOptions {
                seed: ctx.seed,
                timing: driver::HOST_TIMING,
                trace: None,
                threads,
            };
            driver::run_with(&sc, &model, &opts, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"))
        };
        let (one, two) = (run(1), run(2));
        assert_eq!((one.threads, two.threads), (1, 2));
        assert!(one.mismatches.is_empty(), "{}", one.mismatches.join("\n"));
        assert_eq!(one.total_cycles, two.total_cycles);
        assert_eq!(one.transfer_cycles, two.transfer_cycles);
        assert_eq!(one.launch_cycle, two.launch_cycle);
        assert_eq!(one.sems, two.sems);
        assert_eq!(one.mismatches, two.mismatches);
        assert_eq!(
            (one.fw_accesses, one.fw_bus_cycles),
            (two.fw_accesses, two.fw_bus_cycles)
        );
        assert_eq!(one.launch_gaps, two.launch_gaps);
        let stores = |o: &driver::RtlOutcome| -> Vec<(u32, u64, (u64, u64))> {
            o.fw_stores
                .iter()
                .map(|s| (s.die, s.local, s.cycles))
                .collect()
        };
        assert_eq!(stores(&one), stores(&two));
    });
}

/// A topology the composed system cannot build is refused before any model is built, naming the
/// topology file and the link at fault: a link of 2 cycles leaves no wire stage outside the dies
/// (and no lookahead).
#[test]
fn a_link_too_short_to_compose_is_refused_naming_it() {
    let dir = std::env::temp_dir().join(format!("xdie-short-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("short.yaml");
    std::fs::write(
        &path,
        "description: \"two packages, one short link\"\n\
         view: chip_id\n\
         packages:\n\
         \x20 - {name: a, cayman_id: 0x01}\n\
         \x20 - {name: b, cayman_id: 0x02}\n\
         links:\n\
         \x20 - {a: a.0.0, b: a.1.0}\n\
         \x20 - {a: b.0.0, b: b.1.0}\n\
         \x20 - {a: a.1.1, b: b.0.1, latency: 2}\n",
    )
    .expect("topology");
    let mesh = xdie_model::mesh::load(&path, &xdie_model::Layout::new(csrs()))
        .unwrap_or_else(|e| panic!("the model takes a 2-cycle link: {e}"));
    let err = match Package::composed(&mesh, 1, Timing::FAST, 1, None) {
        Ok(_) => panic!("a 2-cycle link was composed"),
        Err(e) => e.to_string(),
    };
    assert!(err.contains(&path.display().to_string()), "{err}");
    assert!(err.contains("links[2]: latency 2 cycles"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The two packages of topologies/pair-neighbor.yaml (neighbor view).
fn pair_neighbor() -> xdie_model::mesh::Mesh {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../topologies/pair-neighbor.yaml");
    xdie_model::mesh::load(&p, &xdie_model::Layout::new(csrs())).unwrap_or_else(|e| panic!("{e}"))
}

/// Posts one copy on engine 0 queue 0 of `die`, rings both doorbells and waits until both heads
/// reach their tails; the die's sticky engine errors after it.
fn copy_once(pkg: &mut Package, die: u32, c: Copy) -> u64 {
    pkg.post_copy(die, 0, 0, c).expect("post");
    pkg.doorbell(die, Side::S2m, 0, 0).expect("S2M doorbell");
    pkg.doorbell(die, Side::M2s, 0, 0).expect("M2S doorbell");
    pkg.wait_drained(die, 0, 0).expect("the copy ends");
    pkg.tick_until("engine idle", |p| p.idle(die))
        .expect("idle");
    pkg.err(die)
}

/// Neighbor-view paths on the RTL (the die node built for the neighbor view), checked against
/// the golden model's hop-by-hop verdict (`Fabric::neighbor`: the decoders, port 0 or EXIT_SENG
/// as the egress, the U-turn rule and the iATU regions the driver programs from it). On
/// pair-neighbor.yaml, from every die: the fold of every die (the one-, two- and three-hop forms),
/// and every combination of EXIT_DIE, EXIT_SENG and DIE in the routed form plus the plain form of
/// every DIE, stored through the host port: the RTL's OKAY/DECERR, and for a delivered store the
/// die and word it landed in, are the model's each time. Then engines copy a beat along the
/// one-, two- and three-hop forms from die a.0 (bytes checked, no engine error), and one copy to
/// an address the regions refuse ends with the engine's write error, as the model refuses it.
#[test]
fn neighbor_paths_of_one_two_and_three_hops_run_on_the_rtl() {
    use xdie_model::mesh::fabric::{Delivery, Fabric};
    use xdie_tb::axil::Resp;
    harness::run(17, |ctx| {
        let mesh = pair_neighbor();
        let layout = xdie_model::Layout::new(csrs());
        let topo = mesh.topology();
        let fabric = Fabric::neighbor(&topo, &layout);
        let t0 = std::time::Instant::now();
        let mut pkg =
            Package::composed(&mesh, ctx.sub_seed(), Timing::FAST, 2, None).expect("system up");
        pkg.program_iatu_regions(&fabric).expect("iATU regions");
        let v = views();
        let (soc, nv) = (&v.soc, &v.soc.neighbor);
        let dies = pkg.dies().to_vec();
        let ports = v.apertures.d2d.count as u64;
        let mut value = 0x7e57_0000u32;
        let mut hops_seen = std::collections::BTreeSet::new();
        let (mut okay, mut decerr) = (0, 0);
        for (from, &me) in dies.iter().enumerate() {
            let from = from as u32;
            let local = v.sbuf_addr(0, 1, 0x80 + 4 * u64::from(from));
            let mut addrs: Vec<u64> = dies
                .iter()
                .map(|&d| topo.fold(&layout, me, d, local).expect("names every die"))
                .collect();
            let routed = nv.neighbor_route.set(nv.id_valid.set(0, 1), 1);
            // Every EXIT_SENG value the field holds: ports the die has and ports it has not.
            let sengs = nv.exit_seng.value_mask() as u64 + 1;
            assert!(
                sengs > ports,
                "EXIT_SENG can name a port a die does not have"
            );
            for exit_die in 0..2u64 {
                for seng in 0..sengs {
                    for die in 0..soc.dies_per_package() {
                        let a = nv.exit_die.set(routed, u128::from(exit_die));
                        let a = nv.exit_seng.set(a, u128::from(seng));
                        let a = nv.die.set(a, u128::from(die));
                        addrs.push(nv.local.set(a, u128::from(local)) as u64);
                    }
                }
            }
            for die in 0..soc.dies_per_package() {
                addrs.push(soc.soc_local(die, local));
            }
            // The folds with NEIGHBOR_ROUTE cleared, and with the reserved overlay bits (PEB,
            // the overlay bits the neighbor view does not name) set.
            let c = &soc.local.cayman_id;
            let named = [&nv.exit_seng, &nv.exit_die, &nv.neighbor_route]
                .iter()
                .fold(0u128, |m, f| m | (f.value_mask() << f.lsb));
            let reserved = (c.value_mask() << c.lsb) & !named;
            assert_ne!(reserved, 0, "the neighbor view leaves overlay bits unnamed");
            for &d in &dies {
                let a = topo.fold(&layout, me, d, local).expect("fold") as u128;
                if d != me {
                    addrs.push(nv.neighbor_route.set(a, 0) as u64);
                    addrs.push((a | reserved) as u64);
                }
            }
            for addr in addrs {
                value = value.wrapping_add(1);
                let rtl = pkg.write_soc(from, 0, addr, value).expect("host write");
                match (fabric.deliver(&layout, me, addr), rtl) {
                    (Delivery::Delivered { die, local, hops }, Resp::Okay) => {
                        let t = pkg.index(die).expect("simulated");
                        assert_eq!(
                            pkg.peek(t, local, 4).expect("peek"),
                            value.to_le_bytes(),
                            "{me} store {addr:#x} landed elsewhere than {die} {local:#x}"
                        );
                        hops_seen.insert(hops);
                        okay += 1;
                    }
                    (Delivery::DecErr { .. }, Resp::DecErr) => decerr += 1,
                    (m, r) => panic!("{me} store {addr:#x}: RTL {r:?}, model {m:?}"),
                }
            }
        }
        assert_eq!(
            hops_seen,
            std::collections::BTreeSet::from([0, 1, 2, 3]),
            "stores of zero to three hops"
        );
        assert!(okay > 0 && decerr > 0, "{okay} delivered, {decerr} refused");
        // Engine copies from a.0 along each form.
        let beat = v.params.data_bytes;
        let from = dies[0];
        pkg.setup_packed_queue(0, 0, 0, 8, 0x1_0000).expect("queue");
        let mut copied = Vec::new();
        for (k, &to) in dies.iter().enumerate().skip(1) {
            let (src, dst) = (v.sbuf_addr(0, 0, 0), v.sbuf_addr(0, 3, 0x200 * k as u64));
            let data: Vec<u8> = (0..beat).map(|i| (i as u8) ^ (k as u8) ^ 0x3c).collect();
            pkg.poke(0, src, &data).expect("source");
            let addr = topo.fold(&layout, from, to, dst).expect("fold");
            let Delivery::Delivered { hops, .. } = fabric.deliver(&layout, from, addr) else {
                panic!("the model refuses the fold of {to}");
            };
            let c = Copy {
                src: soc.soc_local(from.die, src),
                dst: addr,
                len: beat,
                write_barrier: false,
            };
            assert_eq!(copy_once(&mut pkg, 0, c), 0, "engine errors ({hops} hops)");
            let t = pkg.index(to).expect("simulated");
            assert_eq!(pkg.peek(t, dst, beat).expect("peek"), data, "{hops} hops");
            copied.push(hops);
        }
        copied.sort_unstable();
        assert_eq!(copied, vec![1, 2, 3], "copies of one, two and three hops");
        // A copy the regions refuse: EXIT_DIE naming the issuing die (the sibling would send it
        // back out of the port it came in on).
        let dst = v.sbuf_addr(0, 3, 0x1000);
        let bad = soc.fold_neighbor(dst, from.die);
        let model = fabric.deliver(&layout, from, bad);
        assert!(matches!(model, Delivery::DecErr { .. }), "{model:?}");
        let c = Copy {
            src: soc.soc_local(from.die, v.sbuf_addr(0, 0, 0)),
            dst: bad,
            len: beat,
            write_barrier: false,
        };
        let err = copy_once(&mut pkg, 0, c);
        assert_ne!(
            err & 0b10,
            0,
            "the engine reports the refused write (model: {model:?})"
        );
        for d in 0..2 {
            assert!(
                pkg.peek(d, dst, beat)
                    .expect("peek")
                    .iter()
                    .all(|&b| b == 0),
                "the refused copy landed nothing on die {d}"
            );
        }
        eprintln!(
            "pair-neighbor on the RTL: {okay} stores delivered, {decerr} refused, copies of {copied:?} hops; {:.1} s",
            t0.elapsed().as_secs_f64()
        );
    });
}

/// A store of context (`core`, `lane`) into the CMD register of sequencer slot `slot` of the die
/// with host port `die`, as the driver records one.
fn slot_store(
    die: u32,
    core: xdie_model::Core,
    lane: xdie_model::Lane,
    slot: u64,
) -> driver::FwStore {
    let v = views();
    driver::FwStore {
        core,
        lane,
        die,
        local: v.sem_seq_reg(slot, &v.sem_seq.cmd),
        len: 4,
        cycles: (0, 1),
    }
}

/// The slot checker (`checks::sequencer_slot_owners`) on assignments made here: the firmware's
/// key (2 * core index on the die + PRID parity, `Views::sem_seq_slot`) gives every context of
/// every die of two packages a slot of its own; keyed by PRID alone (folded into the die's
/// slots), two contexts of one die share one and the checker names them; and two packages'
/// contexts of equal PRID on one slot are caught as well.
#[test]
fn the_sequencer_slot_checker_catches_shared_slots() {
    use xdie_model::{Core, Lane, Topology};
    use xdie_tb::checks::sequencer_slot_owners;
    let v = views();
    let slots = v.sem_seq.slots();
    let chips = [0x10u64, 0x11];
    let topo = Topology::packages(&chips);
    let cores = topo.cores_per_package;
    let dies = v.soc.dies_per_package();
    // Host port of a die: packages in order, dies in order.
    let port = |c: Core| {
        let d = topo.die_of(c);
        (chips.iter().position(|&x| x == d.chip).expect("chip") as u64 * dies + d.die) as u32
    };
    let contexts: Vec<(Core, Lane)> = chips
        .iter()
        .flat_map(|&chip| (0..cores).map(move |id| Core { chip, id }))
        .flat_map(|c| [(c, Lane::Rx), (c, Lane::Tx)])
        .collect();
    let firmware: Vec<driver::FwStore> = contexts
        .iter()
        .map(|&(c, lane)| {
            slot_store(
                port(c),
                c,
                lane,
                v.sem_seq_slot(topo.tpb_of(c), lane as u64),
            )
        })
        .collect();
    let owners = sequencer_slot_owners(&firmware).expect("the firmware's key");
    assert_eq!(owners.len(), contexts.len(), "one slot per context");
    let by_prid: Vec<driver::FwStore> = contexts
        .iter()
        .map(|&(c, lane)| slot_store(port(c), c, lane, c.prid(lane) % slots))
        .collect();
    let err = sequencer_slot_owners(&by_prid).expect_err("PRID-keyed slots collide");
    assert!(err.contains("slot"), "{err}");
    eprintln!("keyed by PRID: {err}");
    let same_prid = [
        slot_store(
            0,
            Core {
                chip: chips[0],
                id: 0,
            },
            Lane::Rx,
            0,
        ),
        slot_store(
            0,
            Core {
                chip: chips[1],
                id: 0,
            },
            Lane::Rx,
            0,
        ),
    ];
    let err = sequencer_slot_owners(&same_prid).expect_err("two packages on one slot");
    assert!(err.contains(&format!("{:#x}", chips[1])), "{err}");
}

/// Two packages' contexts use distinct sequencer slots on the RTL: a reduce-scatter of eight
/// ranks on cores 0 and 4 (die 0) and 2 and 6 (die 1) of two linked packages, every context
/// waiting through its sequencer slot (the driver's wait mode), passes against the model, and
/// the stores the firmware made into the slots' registers show each (die, slot) used by one
/// context, the one the firmware's key names. The same contexts keyed by PRID alone would
/// share slots (cores 0 and 4 of a die have PRIDs 8 apart): the checker refuses that.
#[test]
fn two_packages_contexts_use_distinct_sequencer_slots() {
    harness::run(19, |ctx| {
        let dir = std::env::temp_dir().join(format!("xdie-slots-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("topologies")).expect("temp dir");
        std::fs::create_dir_all(dir.join("scenarios")).expect("temp dir");
        std::fs::write(
            dir.join("topologies/pair.yaml"),
            "description: \"two linked packages, chip-id view\"\n\
             view: chip_id\n\
             packages:\n\
             \x20 - {name: a, cayman_id: 0x10}\n\
             \x20 - {name: b, cayman_id: 0x11}\n\
             links:\n\
             \x20 - {a: a.0.0, b: a.1.0}\n\
             \x20 - {a: b.0.0, b: b.1.0}\n\
             \x20 - {a: a.1.1, b: b.0.1}\n",
        )
        .expect("topology");
        let sc_path = dir.join("scenarios/pair-reducescatter.yaml");
        let mut text = String::from(
            "description: \"reduce_scatter, eight ranks on two cores of each die\"\n\
             topology: pair\n\
             collective:\n\
             \x20 kind: reduce_scatter\n\
             \x20 bytes_per_rank: 0x800\n\
             \x20 dtype: int32\n\
             \x20 partitions: 4\n\
             \x20 engines: 2\n\
             \x20 ranks:\n",
        );
        for chip in [0x10, 0x11] {
            for core in [0, 4, 2, 6] {
                text.push_str(&format!("    - {{chip: {chip:#x}, core: {core}}}\n"));
            }
        }
        std::fs::write(&sc_path, text).expect("scenario");
        let sc = Scenario::load(&sc_path).unwrap_or_else(|e| panic!("{e}"));
        let out = check(&sc, ctx.seed);
        let model = sc.run_model(csrs(), ctx.seed).expect("model");
        let topo = &model.sys.topology;
        let owners = xdie_tb::checks::sequencer_slot_owners(&out.fw_stores)
            .unwrap_or_else(|e| panic!("{e}"));
        let v = views();
        let chips: std::collections::BTreeSet<u64> = owners.values().map(|(c, _)| c.chip).collect();
        assert_eq!(
            chips.len(),
            2,
            "both packages' contexts used slots: {owners:?}"
        );
        for (&(die, slot), &(core, lane)) in &owners {
            assert_eq!(
                slot,
                v.sem_seq_slot(topo.tpb_of(core), lane as u64),
                "{core} {lane:?} on die {die}"
            );
        }
        // The contexts of cores 0 and 4 of a die (PRIDs 8 apart) used their slots: keyed by PRID
        // alone (folded into the die's slots) they would share one.
        let slots = v.sem_seq.slots();
        let by_prid: Vec<driver::FwStore> = out
            .fw_stores
            .iter()
            .filter_map(|s| {
                let (&(die, _), _) = owners
                    .iter()
                    .find(|(k, o)| k.0 == s.die && **o == (s.core, s.lane))?;
                (0..slots)
                    .any(|k| v.sem_seq_reg(k, &v.sem_seq.cmd) == s.local)
                    .then(|| slot_store(die, s.core, s.lane, s.core.prid(s.lane) % slots))
            })
            .collect();
        assert!(
            xdie_tb::checks::sequencer_slot_owners(&by_prid).is_err(),
            "keyed by PRID, the same contexts would share slots"
        );
        eprintln!(
            "{} sequencer slots used by {} contexts of two packages; {} firmware stores",
            owners.len(),
            owners.len(),
            out.fw_stores.len()
        );
        let _ = std::fs::remove_dir_all(&dir);
    });
}

/// The reference firmware on a composed neighbor-view system (the neighbor die node and the
/// firmware's neighbor build): a leg inside each package of pair-neighbor.yaml runs and matches
/// the model. A leg between the two packages is refused by that firmware with its error (it
/// folds only the in-package form, docs/mesh.md): the RTL run says so instead of hanging.
#[test]
fn neighbor_view_firmware_runs_in_package_legs_on_the_composed_system() {
    harness::run(29, |ctx| {
        let dir = std::env::temp_dir().join(format!("xdie-nbr-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("topologies")).expect("temp dir");
        std::fs::create_dir_all(dir.join("scenarios")).expect("temp dir");
        let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
        std::fs::copy(
            repo.join("topologies/pair-neighbor.yaml"),
            dir.join("topologies/pair-neighbor.yaml"),
        )
        .expect("topology");
        let leg = |name: &str, tx: (u64, u64), rx: (u64, u64), queue: u32| {
            format!(
                "  - name: {name}\n    tx: {{chip: {:#x}, core: {}}}\n    rx: {{chip: {:#x}, core: {}}}\n\
                 \x20   dma_engine_mask: 0b0011\n    partitions: 4\n    free_dim_bytes: 0x200\n\
                 \x20   src_addr: 0x40\n    dst_addr: 0x1000\n    local_sem: 1\n    remote_sem: 2\n\
                 \x20   go_sem: 0\n    queue: {queue}\n",
                tx.0, tx.1, rx.0, rx.1
            )
        };
        let write = |file: &str, legs: &[String]| {
            let p = dir.join("scenarios").join(file);
            let text = format!(
                "description: \"legs on pair-neighbor\"\ntopology: pair-neighbor\nlegs:\n{}",
                legs.concat()
            );
            std::fs::write(&p, text).expect("scenario");
            Scenario::load(&p).unwrap_or_else(|e| panic!("{e}"))
        };
        // Core 0 is on die 0 and core 2 on die 1 (bit 1 of a core id is its die).
        let sc = write(
            "in-package.yaml",
            &[
                leg("a", (0x12, 0), (0x12, 2), 1),
                leg("b", (0x13, 3), (0x13, 1), 2),
            ],
        );
        let out = check(&sc, ctx.seed);
        assert_eq!(out.rtl_system, "composed system");
        let sc = write("across.yaml", &[leg("across", (0x12, 0), (0x13, 2), 1)]);
        let model = sc
            .run_model(csrs(), ctx.seed)
            .unwrap_or_else(|e| panic!("{e}"));
        let err = driver::run(&sc, &model, ctx.seed, None, &mut |_| {})
            .err()
            .expect("the neighbor firmware folds no cross-package path");
        assert!(
            err.to_string().contains("not routable"),
            "the firmware's error: {err}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    });
}
