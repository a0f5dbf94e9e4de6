//! Collectives compiled into legs: every shipped collective scenario runs on the model and its
//! result is checked; the check catches a reduction that did not happen; the semaphore reuse
//! rule refuses what it must; the timing estimate never beats the analytic bound.

mod common;
use common::*;
use rstest::rstest;
use std::path::PathBuf;
use xdie_model::collective::{Collective, Kind};
use xdie_model::scenario::{Scenario, ScenarioErrorKind};
use xdie_model::timing;
use xdie_model::{Core, DieId};

fn scenario_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../scenarios")
        .join(name)
}

fn load(name: &str) -> Scenario {
    Scenario::load(&scenario_path(name)).unwrap_or_else(|e| panic!("{e}"))
}

fn coll(sc: &Scenario) -> &Collective {
    sc.collective.as_ref().expect("a collective scenario")
}

#[rstest]
#[case("allgather-ring8.yaml", Kind::AllGather)]
#[case("alltoall-ring8.yaml", Kind::AllToAll)]
#[case("reducescatter-ring8.yaml", Kind::ReduceScatter)]
#[case("allreduce-ring8-int32.yaml", Kind::AllReduce)]
#[case("allreduce-ring8-fp32.yaml", Kind::AllReduce)]
fn ring8_collectives_run_and_check_on_the_model(#[case] name: &str, #[case] kind: Kind) {
    let sc = load(name);
    let c = coll(&sc);
    assert_eq!(c.kind, kind);
    assert_eq!(c.ranks.len(), 8);
    // The legs: N-1 ring steps of `streams` legs per rank (twice for all-reduce), or N^2 pairs.
    let n = c.ranks.len() as u64;
    let want = match kind {
        Kind::AllToAll => n * n,
        Kind::AllReduce => 2 * (n - 1) * n * c.streams(),
        _ => (n - 1) * n * c.streams(),
    };
    assert_eq!(sc.legs.len() as u64, want);
    // run_model checks every rank's buffer against the result and every leg's invariants.
    let run = sc.run_model(&csrs(), 7).unwrap_or_else(|e| panic!("{e}"));
    // The estimate moves every byte at most at link speed: never below the bound.
    let est = timing::estimate(&sc, &run);
    let bound = c
        .bound_cycles(est.link_width)
        .unwrap_or(est.busiest_bytes as f64 / est.busiest_width as f64);
    assert!(est.cycles >= bound, "{} < bound {bound}", est.cycles);
}

/// Two ranks on each die of a package (cores 0, 1 on die 0 and 2, 3 on die 1): every kind and
/// dtype gives the collective's result (run_model checks every rank's buffer), each rank's
/// semaphores sit in its own core's EVT_SEM, and the two cores of a die hold different buffers.
#[rstest]
#[case("cores4-allreduce-int32.yaml")]
#[case("cores4-allreduce-fp32.yaml")]
#[case("cores4-reducescatter.yaml")]
#[case("cores4-alltoall.yaml")]
fn two_ranks_per_die_run_on_their_own_cores(#[case] name: &str) {
    let sc = load(name);
    let c = coll(&sc);
    let run = sc.run_model(&csrs(), 5).unwrap_or_else(|e| panic!("{e}"));
    let sys = &run.sys;
    let (a, b) = (c.ranks[0], c.ranks[1]);
    assert_eq!(sys.die_of(a), sys.die_of(b), "cores 0 and 1 share die 0");
    assert_ne!(sys.tpb_of(a), sys.tpb_of(b));
    let ranks: Vec<(DieId, u64)> = c
        .ranks
        .iter()
        .map(|&r| (sys.die_of(r), sys.tpb_of(r)))
        .collect();
    for v in &sys.end_state().sems {
        assert!(
            ranks.contains(&(v.die, v.tpb)),
            "semaphore on a core without a rank: {v:?}"
        );
    }
    let w = c.width();
    let read = |r: Core| {
        sys.read_local(
            sys.die_of(r),
            sys.layout.sbuf_addr(sys.tpb_of(r), 0, c.offset),
            w,
        )
    };
    if c.kind != Kind::AllReduce {
        assert_ne!(
            read(a),
            read(b),
            "the two cores of die 0 hold their own results"
        );
    }
}

/// Without the accumulate the reduce-scatter legs overwrite instead of adding: the result check
/// must notice.
#[rstest]
#[case("reducescatter-ring8.yaml")]
#[case("allreduce-ring8-fp32.yaml")]
fn a_missing_reduction_is_caught(#[case] name: &str) {
    let mut sc = load(name);
    let mut changed = 0;
    for l in &mut sc.legs {
        if l.accumulate.take().is_some() {
            changed += 1;
        }
    }
    assert!(changed > 0);
    let e = match sc.run_model(&csrs(), 1) {
        Err(e) => e,
        Ok(_) => panic!("a reduction without adds passed"),
    };
    assert_eq!(e.at.key, "collective");
    assert!(e.message.contains("result wrong"), "{e}");
}

/// All-reduce leaves the same reduced buffer on every rank, and it is the ring-order sum of the
/// inputs (recomputed here from the fills with host integer adds for int32).
#[test]
fn int32_all_reduce_is_the_sum_of_the_inputs() {
    let sc = load("allreduce-ring8-int32.yaml");
    let c = coll(&sc);
    let run = sc.run_model(&csrs(), 3).unwrap_or_else(|e| panic!("{e}"));
    let sys = &run.sys;
    let w = c.width();
    for p in [0, c.partitions - 1] {
        let mut sum = vec![0u32; (w / 4) as usize];
        for f in run.fills.iter().filter(|f| f.partition == p) {
            for (s, b) in sum.iter_mut().zip(f.bytes.chunks_exact(4)) {
                *s = s.wrapping_add(u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
            }
        }
        for &rank in &c.ranks {
            let got = sys.read_local(
                sys.die_of(rank),
                sys.layout.sbuf_addr(sys.tpb_of(rank), p, c.offset),
                w,
            );
            let got: Vec<u32> = got
                .chunks_exact(4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            assert!(got == sum, "{rank} partition {p}");
        }
    }
}

/// The fp32 inputs hold the cases the rules are about.
#[test]
fn fp32_inputs_hold_zeros_subnormals_and_huge_values() {
    let sc = load("allreduce-ring8-fp32.yaml");
    let fills = coll(&sc).fills(1);
    let lanes: Vec<u32> = fills
        .iter()
        .flat_map(|f| f.bytes.chunks_exact(4))
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    let has = |what: &str, pred: &dyn Fn(u32) -> bool| {
        assert!(lanes.iter().any(|&x| pred(x)), "no {what}");
    };
    has("+0", &|x| x == 0);
    has("-0", &|x| x == 0x8000_0000);
    has("subnormal", &|x| {
        (x >> 23) & 0xff == 0 && x & 0x7f_ffff != 0
    });
    has("huge", &|x| {
        (x >> 23) & 0xff >= 0xf0 && (x >> 23) & 0xff != 0xff
    });
    has("infinity", &|x| x & 0x7fff_ffff == 0x7f80_0000);
}

/// A ring all-gather on the 64-package torus (16 of its dies), model only.
#[test]
fn all_gather_on_the_torus() {
    let full = std::fs::read_to_string(scenario_path("allgather-mesh64.yaml")).expect("read");
    // The first 16 ranks of the 128-rank scenario.
    let mut out = String::new();
    let mut ranks = 0;
    for line in full.lines() {
        if line.trim_start().starts_with("- {chip:") {
            ranks += 1;
            if ranks > 16 {
                continue;
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    let sc = Scenario::parse(&scenario_path("allgather-mesh64.yaml"), &out)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(coll(&sc).ranks.len(), 16);
    sc.run_model(&csrs(), 1).unwrap_or_else(|e| panic!("{e}"));
}

/// The whole 128-rank all-gather (about 20 s in release).
#[test]
#[ignore]
fn all_gather_on_all_128_dies_of_the_torus() {
    let sc = load("allgather-mesh64.yaml");
    assert_eq!(coll(&sc).ranks.len(), 128);
    sc.run_model(&csrs(), 1).unwrap_or_else(|e| panic!("{e}"));
}

/// Two chained streams between core 5 (die 0) and core 7 (die 1): `a` legs 5 -> 7, each `b` leg
/// 7 -> 5 after one `a` leg. `{A1}` and `{B0}`/`{B1}` are replaced per test.
const STREAMS: &str = r#"description: "streams"
packages: [0x12]
legs:
  - {name: a0, tx: {chip: 0x12, core: 5}, rx: {chip: 0x12, core: 7}, dma_engine_mask: {MASK}, partitions: 4, free_dim_bytes: 0x100, src_addr: 0x0, dst_addr: 0x1000, local_sem: 1, remote_sem: 2, go_sem: 3}
  - {name: a1, tx: {chip: 0x12, core: 5}, rx: {chip: 0x12, core: 7}, dma_engine_mask: {MASK}, partitions: 4, free_dim_bytes: 0x100, src_addr: 0x100, dst_addr: 0x1100, local_sem: 1, remote_sem: 2, go_sem: 3}
  - {name: b0, after: {B0}, tx: {chip: 0x12, core: 7}, rx: {chip: 0x12, core: 5}, dma_engine_mask: 0x1, partitions: 4, free_dim_bytes: 0x100, src_addr: 0x1000, dst_addr: 0x2000, local_sem: 4, remote_sem: 5, go_sem: 6}
  - {name: b1, after: {B1}, tx: {chip: 0x12, core: {B1CORE}}, rx: {chip: 0x12, core: 5}, dma_engine_mask: 0x1, partitions: 4, free_dim_bytes: 0x100, src_addr: 0x1100, dst_addr: 0x2100, local_sem: 7, remote_sem: 8, go_sem: 9}
"#;

fn streams(mask: &str, b0: &str, b1: &str, b1_core: &str) -> String {
    STREAMS
        .replace("{MASK}", mask)
        .replace("{B0}", b0)
        .replace("{B1}", b1)
        .replace("{B1CORE}", b1_core)
}

fn run_text(text: &str) -> Result<(), Box<xdie_model::ScenarioError>> {
    // A path in scenarios/, so that `topology:` finds topologies/.
    let sc = Scenario::parse(&scenario_path("edited.yaml"), text)?;
    sc.run_model(&csrs(), 1).map(|_| ())
}

#[test]
fn a_stream_reuses_its_semaphores() {
    run_text(&streams("0x1", "a0", "a1", "7")).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn legs_of_several_engines_share_no_semaphore() {
    let e = run_text(&streams("0x3", "a0", "a1", "7")).expect_err("two engines per leg");
    assert_eq!(e.kind, ScenarioErrorKind::SharedSemaphore);
    assert_eq!(e.at.key, "legs[1].local_sem");
    assert!(e.message.contains("not one stream"), "{e}");
}

#[test]
fn waits_on_a_shared_semaphore_follow_its_legs_in_order() {
    let e = run_text(&streams("0x1", "a1", "a0", "7")).expect_err("waits out of order");
    assert_eq!(e.kind, ScenarioErrorKind::SharedSemaphore);
    assert_eq!(e.at.key, "legs[2].after");
    assert!(e.message.contains("in the order they land"), "{e}");
}

#[test]
fn one_context_takes_a_shared_semaphore() {
    // b1 waits from core 6, the other core of die 1.
    let e = run_text(&streams("0x1", "a0", "a1", "6")).expect_err("two waiting cores");
    assert_eq!(e.kind, ScenarioErrorKind::SharedSemaphore);
    assert!(e.message.contains("from different cores"), "{e}");
}

#[test]
fn bad_collectives_name_their_key() {
    let base = std::fs::read_to_string(scenario_path("allgather-ring8.yaml")).expect("read");
    let cases = [
        (
            "bytes_per_rank: 0x10000",
            "bytes_per_rank: 0x10001",
            "collective.bytes_per_rank",
        ),
        ("engines: 4", "engines: 0", "collective.engines"),
        ("kind: all_gather", "kind: all_sum", "collective.kind"),
        ("engines: 4", "engines: 4\n  root: 1", "collective.root"),
        (
            "dtype: int32",
            "dtype: int32\n  sem_base: 250",
            "collective.sem_base",
        ),
        ("partitions: 16", "partitions: 256", "collective.partitions"),
        (
            "partitions: 16",
            "partitions: 6\n  split: partitions",
            "collective.split",
        ),
        (
            "kind: all_gather",
            "kind: all_to_all\n  split: partitions",
            "collective.split",
        ),
        (
            "engines: 4",
            "engines: 4\n  split: rows",
            "collective.split",
        ),
    ];
    for (from, to, key) in cases {
        assert!(base.contains(from));
        let text = base.replacen(from, to, 1);
        let e = run_text(&text).expect_err(to);
        assert_eq!(e.at.key, key, "{to}: {e}");
        assert!(e.at.line.is_some(), "{to}: {e}");
    }
    // Both legs and a collective.
    let text = base.replacen(
        "collective:",
        "legs:\n  - {name: x, tx: {chip: 0x10, core: 0}, rx: {chip: 0x10, core: 2}, dma_engine_mask: 1, partitions: 1, free_dim_bytes: 4, src_addr: 0, dst_addr: 0, local_sem: 1, remote_sem: 2, go_sem: 3}\ncollective:",
        1,
    );
    let e = run_text(&text).expect_err("legs and collective");
    assert_eq!(e.at.key, "collective");
}

/// The model's landed writes with every engine write's leg tag taken away, as a bus monitor
/// sees them.
fn untagged_log(sys: &xdie_model::System) -> Vec<xdie_model::events::Landed> {
    use xdie_model::events::{landed, Writer};
    let mut log = landed(sys.events());
    for w in &mut log {
        if matches!(w.by, Writer::Engine { .. }) {
            w.by = Writer::Unknown;
        }
    }
    log
}

/// From an untagged log, each leg's increments of the semaphores it shares with other legs
/// (remote ones on its RX die, local ones on its TX die) are found by their place in the
/// stream, and every leg passes its checks. All-to-all sends from a die to several dies and
/// receives from several, so a leg's local batch differs from its remote one there.
#[rstest]
#[case("allgather-ring8.yaml")]
#[case("alltoall-ring8.yaml")]
#[case("ring4-all-to-all.yaml")]
fn every_leg_passes_from_an_untagged_log(#[case] scenario: &str) {
    let run = load(scenario)
        .run_model(&csrs(), 1)
        .unwrap_or_else(|e| panic!("{e}"));
    let log = untagged_log(&run.sys);
    for leg in run.sys.legs() {
        let expect = run.sys.leg_expect(leg.id).expect("leg");
        xdie_model::events::check_leg(&log, &expect).unwrap_or_else(|v| panic!("{v}"));
    }
}

/// From an untagged log, a leg's remote_sem increment moved before its data fails its check.
#[test]
fn an_early_increment_fails_from_an_untagged_log() {
    use xdie_model::events::check_leg;
    let run = load("allgather-ring8.yaml")
        .run_model(&csrs(), 1)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut log = untagged_log(&run.sys);
    // The second leg of a stream: move its remote_sem increment (the stream's second) before
    // its first data byte.
    let second = run
        .sys
        .legs()
        .iter()
        .map(|l| run.sys.leg_expect(l.id).expect("leg"))
        .find(|e| e.remote_batch == 1)
        .expect("a stream's second leg");
    let inc = log
        .iter()
        .enumerate()
        .filter(|(_, w)| w.die == second.rx_die && w.local == second.remote_sem_addr)
        .nth(1)
        .map(|(i, _)| i)
        .expect("its increment");
    let first_data = log
        .iter()
        .position(|w| {
            w.die == second.rx_die
                && second
                    .dst
                    .iter()
                    .any(|&(s, n)| w.local >= s && w.local < s + n)
        })
        .expect("its data");
    assert!(first_data < inc);
    let w = log.remove(inc);
    log.insert(first_data, w);
    assert!(
        check_leg(&log, &second).is_err(),
        "an early increment passed"
    );
}

/// All-reduce writes the same bytes twice on each rank: a reduce-scatter leg adds into a chunk,
/// a later all-gather leg overwrites it with the result. A bus monitor sees both land in SBUF
/// untagged; each leg's writes are told apart by when they land (after the earlier leg's
/// completion), so every leg passes, and an all-gather write moved before that completion fails.
#[test]
fn overlapping_phases_are_told_apart_in_an_untagged_log() {
    use xdie_model::events::{check_leg, landed, Writer};
    let sc = load("allreduce-ring8-int32.yaml");
    let run = sc.run_model(&csrs(), 3).unwrap_or_else(|e| panic!("{e}"));
    let layout = &run.sys.layout;
    let sbuf = layout.apertures.sbuf.base;
    let acc = layout.acc_aperture(xdie_model::reduce::AccDtype::I32);
    // What the monitor sees: sums land in SBUF at the aperture offset, no writer known.
    let mut log = landed(run.sys.events());
    for w in &mut log {
        if matches!(w.by, Writer::Engine { .. }) {
            w.by = Writer::Unknown;
            if (acc.base..acc.base + acc.size).contains(&w.local) {
                w.local = w.local - acc.base + sbuf;
            }
        }
    }
    let expects: Vec<_> = run
        .sys
        .legs()
        .iter()
        .map(|leg| {
            let mut e = run.sys.leg_expect(leg.id).expect("leg");
            if leg.accumulate.is_some() {
                for r in &mut e.dst {
                    r.0 = r.0 - acc.base + sbuf;
                }
            }
            e
        })
        .collect();
    for e in &expects {
        check_leg(&log, e).unwrap_or_else(|v| panic!("{v}"));
    }
    // A leg that rewrites an earlier leg's bytes: land its first data write before that
    // earlier leg completed.
    let later = expects
        .iter()
        .find(|e| !e.dst_after.is_empty())
        .expect("a leg after an overlapping one");
    let in_later = |w: &xdie_model::Landed| {
        w.die == later.rx_die
            && later
                .dst
                .iter()
                .any(|&(s, n)| w.local >= s && w.local < s + n)
    };
    let earlier_done = log
        .iter()
        .position(|w| w.die == later.rx_die && w.local == later.dst_after[0].addr)
        .expect("the earlier leg's increment");
    let moved = (earlier_done..log.len())
        .rev()
        .find(|&i| in_later(&log[i]))
        .expect("the later leg's data");
    let w = log.remove(moved);
    log.insert(earlier_done, w);
    let broken = expects
        .iter()
        .filter(|e| check_leg(&log, e).is_err())
        .count();
    assert!(
        broken > 0,
        "a write landing before the leg it rewrites passed"
    );
}

/// Broadcast from a rank other than the first: every rank ends with the root's buffer (the
/// result check), in a pipeline of N chunks, each hop after the previous hop of its chunk.
#[test]
fn broadcast_from_any_root() {
    let base = std::fs::read_to_string(scenario_path("allgather-ring8.yaml")).expect("read");
    let text = base
        .replacen("kind: all_gather", "kind: broadcast", 1)
        .replacen("engines: 4", "engines: 2\n  root: 3", 1);
    let sc =
        Scenario::parse(&scenario_path("edited.yaml"), &text).unwrap_or_else(|e| panic!("{e}"));
    let c = coll(&sc);
    assert_eq!((c.kind, c.root), (Kind::Broadcast, 3));
    let n = c.ranks.len() as u64;
    assert_eq!(sc.legs.len() as u64, n * (n - 1) * c.engines);
    // Only the root's buffer is filled.
    assert!(c.fills(1).iter().all(|f| f.die == run_die(&sc, 3)));
    sc.run_model(&csrs(), 5).unwrap_or_else(|e| panic!("{e}"));
}

fn run_die(sc: &Scenario, rank: usize) -> xdie_model::DieId {
    let r = coll(sc).ranks[rank];
    xdie_model::Topology::package(r.chip).die_of(r)
}

/// `split: partitions`: one leg per rank and step over all engines, each engine a share of the
/// partitions at the chunk's whole width, with semaphores of its own; the result and every leg's
/// invariants hold on the model, and a step writes a third of the descriptors `width` writes.
#[rstest]
#[case("allgather-ring8.yaml")]
#[case("reducescatter-ring8.yaml")]
#[case("allreduce-ring8-fp32.yaml")]
fn split_by_partitions(#[case] name: &str) {
    let base = std::fs::read_to_string(scenario_path(name)).expect("read");
    assert!(base.contains("engines: 4"));
    let text = base.replacen("engines: 4", "engines: 4\n  split: partitions", 1);
    let sc = Scenario::parse(&scenario_path(name), &text).unwrap_or_else(|e| panic!("{e}"));
    let wide = load(name);
    let (c, w) = (coll(&sc), coll(&wide));
    assert_eq!(c.streams(), 1);
    assert_eq!(sc.legs.len() as u64 * c.engines, wide.legs.len() as u64);
    let all = (1u64 << c.engines) - 1;
    for l in &sc.legs {
        assert_eq!(l.dma_engine_mask, all << c.first_engine, "{}", l.name);
        assert_eq!(l.free_dim_bytes, w.chunk_width(), "{}", l.name);
    }
    // No two legs share a semaphore of the same die.
    let mut seen = std::collections::BTreeSet::new();
    for l in &sc.legs {
        for (core, sem) in [(l.tx, l.go_sem), (l.tx, l.local_sem), (l.rx, l.remote_sem)] {
            let die = xdie_model::Topology::package(core.chip).die_of(core);
            assert!(seen.insert((die, sem)), "{}: sem {sem} again", l.name);
        }
    }
    let run = sc.run_model(&csrs(), 3).unwrap_or_else(|e| panic!("{e}"));
    let wrun = wide.run_model(&csrs(), 3).expect("width split");
    let descs = |r: &xdie_model::scenario::ModelRun| -> u64 {
        r.legs
            .iter()
            .map(|l| l.tx_gen.num_descriptors * l.tx_gen.engines.len() as u64)
            .sum()
    };
    // Per step and rank 4 engines x (4 partitions + 2 semaphore entries) instead of 4 legs x (16
    // partitions + 2): a third.
    assert_eq!(3 * descs(&run), descs(&wrun));
}
