//! Every refusal class of gen and start.

mod common;
use common::*;
use xdie_model::*;

fn setup() -> (System, LegSpec) {
    let csrs = csrs();
    let sys = System::new(&csrs, Topology::package(0x12)).expect("system");
    let s = LegSpec {
        tx: Core { chip: 0x12, id: 5 },
        rx: Core { chip: 0x12, id: 7 },
        mask: 0b11,
        partitions: 4,
        free: 0x100,
        src: 0,
        dst: 0x400,
        local_sem: 12,
        remote_sem: 20,
        go_sem: 3,
        queue: 0,
    };
    (sys, s)
}

fn gen_err(sys: &mut System, s: &LegSpec) -> ModelError {
    match sys.gen(s.tx, &gen_word(s, Lane::Tx)) {
        Ok(_) => panic!("gen accepted an impossible leg"),
        Err(e) => e,
    }
}

#[test]
fn partitions_out_of_range() {
    let (mut sys, s) = setup();
    let max = sys.layout.params.sbuf_partitions;
    for p in [0, max + 1] {
        let e = gen_err(&mut sys, &LegSpec { partitions: p, ..s });
        assert!(matches!(e, ModelError::PartitionsOutOfRange { .. }), "{e}");
    }
}

#[test]
fn destination_outside_sbuf_backing() {
    let (mut sys, s) = setup();
    let backing = sys.layout.params.sbuf_backing_bytes;
    let e = gen_err(
        &mut sys,
        &LegSpec {
            dst: backing - s.free + 1,
            ..s
        },
    );
    assert!(
        matches!(
            e,
            ModelError::OutsideSbufBacking {
                which: "destination",
                ..
            }
        ),
        "{e}"
    );
    // Exactly at the end is fine.
    sys.gen(
        s.tx,
        &gen_word(
            &LegSpec {
                dst: backing - s.free,
                ..s
            },
            Lane::Tx,
        ),
    )
    .expect("last bytes of the backing");
}

#[test]
fn engine_mask_naming_a_missing_engine() {
    let (mut sys, s) = setup();
    let engines = sys.layout.engine_count();
    let e = gen_err(
        &mut sys,
        &LegSpec {
            mask: 1 << engines,
            ..s
        },
    );
    assert!(
        matches!(e, ModelError::MissingEngine { engine, .. } if engine == engines),
        "{e}"
    );
    let e = gen_err(&mut sys, &LegSpec { mask: 0, ..s });
    assert!(matches!(e, ModelError::Impossible(_)), "{e}");
}

#[test]
fn queue_and_semaphore_out_of_range() {
    let (mut sys, s) = setup();
    let queues = sys.layout.queues();
    let sems = sys.layout.sem_count();
    let e = gen_err(&mut sys, &LegSpec { queue: queues, ..s });
    assert!(matches!(e, ModelError::QueueOutOfRange { .. }), "{e}");
    let e = gen_err(
        &mut sys,
        &LegSpec {
            remote_sem: sems,
            ..s
        },
    );
    assert!(matches!(e, ModelError::SemOutOfRange { .. }), "{e}");
}

#[test]
fn unknown_peer_and_unroutable_chip() {
    let (mut sys, s) = setup();
    let cores = sys.topology.cores_per_package;
    let e = gen_err(
        &mut sys,
        &LegSpec {
            rx: Core {
                chip: 0x12,
                id: cores,
            },
            ..s
        },
    );
    assert!(matches!(e, ModelError::UnknownCore(_)), "{e}");
    // In the neighbor view, a package that no C2C port of this die or its sibling reaches
    // cannot be named (the view names paths, not chip ids).
    let l = &sys.layout;
    let far_chip = 1u64 << (l.soc.neighbor.neighbor_route.lsb - l.soc.local.cayman_id.lsb);
    let csrs = csrs();
    let topo = Topology::packages(&[0x1, far_chip]).with_view(xdie_model::AddrView::Neighbor);
    let mut sys2 = System::new(&csrs, topo).expect("system");
    let e = gen_err(
        &mut sys2,
        &LegSpec {
            tx: Core { chip: 0x1, id: 0 },
            rx: Core {
                chip: far_chip,
                id: 0,
            },
            ..s
        },
    );
    assert!(matches!(e, ModelError::Unroutable { .. }), "{e}");
}

#[test]
fn role_prid_mismatch_is_a_hard_error() {
    let (mut sys, s) = setup();
    let txg = sys.gen(s.tx, &gen_word(&s, Lane::Tx)).expect("gen");
    let w = start_word(&s, Lane::Tx, txg.num_descriptors);
    let e = sys
        .start(s.tx, s.tx.prid(Lane::Rx), &w)
        .expect_err("even PRID, TX role");
    assert!(matches!(e, ModelError::RoleParity { .. }), "{e}");
    let other = Core {
        chip: s.tx.chip,
        id: s.tx.id + 1,
    };
    let e = sys
        .start(s.tx, other.prid(Lane::Tx), &w)
        .expect_err("PRID of another core");
    assert!(matches!(e, ModelError::PridNotOfCore { .. }), "{e}");
    let e = sys
        .start(s.tx, s.tx.prid(Lane::Tx), &StartWord { role: 3, ..w })
        .expect_err("role 3");
    assert!(matches!(e, ModelError::BadRole(3)), "{e}");
}

#[test]
fn descriptor_stream_count_guard() {
    let (mut sys, s) = setup();
    let txg = sys.gen(s.tx, &gen_word(&s, Lane::Tx)).expect("gen");
    let e = sys
        .start(
            s.tx,
            s.tx.prid(Lane::Tx),
            &start_word(&s, Lane::Tx, txg.num_descriptors + 1),
        )
        .expect_err("count off by one");
    assert!(
        matches!(e, ModelError::DescriptorCount { engine: None, .. }),
        "{e}"
    );

    // A second gen of the same context before the start is a leg written ahead: each start
    // posts the oldest pending gen's entries.
    sys.gen(s.tx, &gen_word(&s, Lane::Tx)).expect("gen again");
    for _ in 0..2 {
        sys.start(
            s.tx,
            s.tx.prid(Lane::Tx),
            &start_word(&s, Lane::Tx, txg.num_descriptors),
        )
        .expect("the gens' starts, in order");
    }

    // Entries another context wrote into the same rings belong to no pending gen of this one.
    let tx_die = sys.die_of(s.tx);
    let cores = sys.topology.cores_per_package;
    let other = (0..cores)
        .map(|id| Core {
            chip: s.tx.chip,
            id,
        })
        .find(|&c| c != s.tx && sys.die_of(c) == tx_die)
        .expect("another core on the TX die");
    sys.gen(s.tx, &gen_word(&s, Lane::Tx)).expect("gen");
    sys.gen(other, &gen_word(&LegSpec { tx: other, ..s }, Lane::Tx))
        .expect("another core's gen on the same rings");
    let e = sys
        .start(
            s.tx,
            s.tx.prid(Lane::Tx),
            &start_word(&s, Lane::Tx, txg.num_descriptors),
        )
        .expect_err("rings hold another context's leg");
    match e {
        ModelError::DescriptorCount {
            engine: Some(_),
            wrote,
            expected,
        } => assert_eq!(wrote, 2 * expected),
        other => panic!("{other}"),
    }
}

#[test]
fn start_without_gen_and_mismatched_start() {
    let (mut sys, s) = setup();
    let e = sys
        .start(s.rx, s.rx.prid(Lane::Rx), &start_word(&s, Lane::Rx, 1))
        .expect_err("no gen");
    assert!(matches!(e, ModelError::StartWithoutGen { .. }), "{e}");
    let rxg = sys.gen(s.rx, &gen_word(&s, Lane::Rx)).expect("gen");
    let w = StartWord {
        dma_engine_mask: s.mask << 1,
        ..start_word(&s, Lane::Rx, rxg.num_descriptors)
    };
    let e = sys
        .start(s.rx, s.rx.prid(Lane::Rx), &w)
        .expect_err("other mask");
    assert!(matches!(e, ModelError::StartMismatch { .. }), "{e}");
}

#[test]
fn tx_and_rx_gens_must_agree() {
    let (mut sys, s) = setup();
    sys.gen(s.tx, &gen_word(&s, Lane::Tx)).expect("gen tx");
    let e = sys
        .gen(
            s.rx,
            &gen_word(
                &LegSpec {
                    free: s.free * 2,
                    ..s
                },
                Lane::Rx,
            ),
        )
        .expect_err("other free_dim");
    assert!(
        matches!(e, ModelError::LegMismatch("free_dim_bytes")),
        "{e}"
    );
}

#[test]
fn a_full_ring_refuses_the_gen() {
    let csrs = csrs();
    let (_, s) = setup();
    let per_engine = s.partitions / s.mask.count_ones() as u64 + 2;
    let mut sys = System::with_config(
        &csrs,
        Topology::package(0x12),
        Config {
            ring_len: per_engine + 1,
        },
    )
    .expect("system");
    sys.gen(s.tx, &gen_word(&s, Lane::Tx))
        .expect("first gen fits");
    let e = gen_err(&mut sys, &s);
    assert!(matches!(e, ModelError::RingFull { .. }), "{e}");
}

#[test]
fn a_never_started_rx_leaves_the_run_stalled() {
    let (mut sys, s) = setup();
    let txg = sys.gen(s.tx, &gen_word(&s, Lane::Tx)).expect("gen");
    sys.gen(s.rx, &gen_word(&s, Lane::Rx)).expect("gen");
    sys.start(
        s.tx,
        s.tx.prid(Lane::Tx),
        &start_word(&s, Lane::Tx, txg.num_descriptors),
    )
    .expect("start");
    let e = sys.run_to_completion().expect_err("TX waits forever");
    assert!(matches!(e, ModelError::Stalled(_)), "{e}");
}

#[test]
fn go_sem_may_not_be_local_sem_and_peer_base_must_name_the_peer_die() {
    let (mut sys, s) = setup();
    let rxg = sys.gen(s.rx, &gen_word(&s, Lane::Rx)).expect("gen");
    let w = StartWord {
        go_sem: s.local_sem,
        ..start_word(&s, Lane::Rx, rxg.num_descriptors)
    };
    let e = sys
        .start(s.rx, s.rx.prid(Lane::Rx), &w)
        .expect_err("go_sem = local_sem");
    assert!(matches!(e, ModelError::Impossible(_)), "{e}");

    let l = sys.layout.clone();
    let rx_die = sys.die_of(s.rx).die;
    let wrong = l
        .soc
        .local
        .die
        .set(l.soc.local.local.set(0, 1), (rx_die ^ 1) as u128) as u64;
    let right = l
        .soc
        .local
        .die
        .set(l.soc.local.local.set(0, 1), rx_die as u128) as u64;
    let e = sys
        .gen(
            s.tx,
            &GenWord {
                peer_base: wrong,
                ..gen_word(&s, Lane::Tx)
            },
        )
        .expect_err("peer_base on the wrong die");
    assert!(matches!(e, ModelError::Impossible(_)), "{e}");
    sys.gen(
        s.tx,
        &GenWord {
            peer_base: right,
            ..gen_word(&s, Lane::Tx)
        },
    )
    .expect("peer_base on the peer's die");
}

#[test]
fn num_descriptors_is_each_engines_count() {
    let (mut sys, s) = setup();
    let txg = sys.gen(s.tx, &gen_word(&s, Lane::Tx)).expect("gen");
    assert!(txg.engines.len() > 1, "the leg spans several engines");
    for e in &txg.engines {
        assert_eq!(
            e.entries.len() as u64,
            txg.num_descriptors,
            "engine {}",
            e.engine
        );
    }
    // The total over engines (the old reading) is refused by the stream guard.
    let total: u64 = txg.engines.iter().map(|e| e.entries.len() as u64).sum();
    let e = sys
        .start(s.tx, s.tx.prid(Lane::Tx), &start_word(&s, Lane::Tx, total))
        .expect_err("total over engines");
    assert!(
        matches!(e, ModelError::DescriptorCount { engine: None, wrote, expected }
            if wrote == total && expected == txg.num_descriptors),
        "{e}"
    );
    // Each doorbell of the start advances its queue by num_descriptors.
    let steps = sys
        .start(
            s.tx,
            s.tx.prid(Lane::Tx),
            &start_word(&s, Lane::Tx, txg.num_descriptors),
        )
        .expect("start");
    let inc = &sys.layout.m2s.layout.inc;
    let stores: Vec<_> = steps
        .iter()
        .filter_map(|st| match st {
            FwStep::Store(w) => Some(w),
            FwStep::WaitGeDec { .. } => None,
        })
        .collect();
    assert_eq!(stores.len(), txg.engines.len());
    for w in stores {
        let v = u32::from_le_bytes(w.bytes[..4].try_into().expect("4 bytes"));
        assert_eq!(
            u64::from((v & inc.reg_mask()) >> inc.lsb),
            txg.num_descriptors
        );
    }
}

#[test]
fn partitions_must_split_evenly_over_the_engines() {
    let (mut sys, s) = setup();
    let n = u64::from(s.mask.count_ones());
    let e = gen_err(
        &mut sys,
        &LegSpec {
            partitions: s.partitions + 1,
            ..s
        },
    );
    assert!(
        matches!(e, ModelError::UnevenSplit { partitions, engines }
            if partitions == s.partitions + 1 && engines == n),
        "{e}"
    );
}
