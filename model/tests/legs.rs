//! Whole legs through the model: the seed's worked example, cross-package, same-die, chains,
//! split descriptors, ring-id wrap and ring-id errors.

mod common;
use common::*;
use xdie_model::*;

/// The seed §8 leg: core 5 (die 0) to its d2d peer 7 (die 1) in package 0x12.
fn seed_leg(sys: &System) -> LegSpec {
    LegSpec {
        tx: Core { chip: 0x12, id: 5 },
        rx: Core { chip: 0x12, id: 7 },
        mask: 0x000F,
        partitions: sys.layout.params.sbuf_partitions,
        free: 0x4000,
        src: 0x100000,
        dst: 0x100000,
        local_sem: 12,
        remote_sem: 20,
        go_sem: 3,
        queue: 0,
    }
}

#[test]
fn seed_worked_example_end_to_end() {
    let csrs = csrs();
    let mut sys = System::new(&csrs, Topology::package(0x12)).expect("system");
    let s = seed_leg(&sys);
    let (td, rd) = (sys.die_of(s.tx), sys.die_of(s.rx));
    assert_ne!(
        td.die, rd.die,
        "core 5 and its peer 7 sit on different dies"
    );
    fill_src(&mut sys, &s);
    let (txg, rxg) = issue(&mut sys, &s).expect("issue");

    // The published fold of LOCAL 0x100000 to die 1, from the fold in csrs/; the leg's
    // destination is that offset in core 7's SBUF aperture, folded the same way.
    let soc = &csrs.views.soc;
    assert_eq!(soc.fold_neighbor(s.dst, rd.die), 0x58800000100000);
    let l = &sys.layout;
    let folded = soc.fold_neighbor(l.sbuf_addr(sys.tpb_of(s.rx), 0, s.dst), rd.die);
    assert_eq!(rxg.dst_soc, folded);
    assert_eq!(txg.dst_soc, folded);
    let first_s2m = &rxg.engines[0].entries[0];
    assert_eq!(first_s2m.desc.buf_ptr, folded);

    sys.run_to_completion().expect("run");
    assert_data(&sys, &s);
    let n = n_engines(s.mask);
    assert_eq!(sem_of(&sys, s.rx, s.remote_sem), n);
    assert_eq!(sem_of(&sys, s.tx, s.local_sem), n);
    assert_eq!(
        sem_of(&sys, s.tx, s.go_sem),
        0,
        "left_pop consumed right_push"
    );
    // Only the leg's two cores' EVT_SEMs changed: every other core of the package is untouched.
    for id in 0..sys.topology.cores_per_package {
        let core = Core { chip: 0x12, id };
        if core != s.tx && core != s.rx {
            for sem in [s.local_sem, s.remote_sem, s.go_sem] {
                assert_eq!(sem_of(&sys, core, sem), 0, "core {id} sem {sem}");
            }
        }
    }
    assert_invariants(&sys);
}

#[test]
fn seed_example_rings_and_end_state() {
    let csrs = csrs();
    let mut sys = System::new(&csrs, Topology::package(0x12)).expect("system");
    let s = seed_leg(&sys);
    let (txg, rxg) = issue(&mut sys, &s).expect("issue");
    let l = sys.layout.clone();
    let engines: Vec<u32> = (0..l.engine_count())
        .filter(|e| (s.mask >> e) & 1 == 1)
        .collect();
    assert_eq!(
        txg.engines.iter().map(|r| r.engine).collect::<Vec<_>>(),
        engines
    );
    let share = s.partitions / engines.len() as u64;
    for (t, r) in txg.engines.iter().zip(&rxg.engines) {
        assert_eq!(t.side, Side::M2s);
        assert_eq!(r.side, Side::S2m);
        assert_eq!(t.entries.len() as u64, share + 2);
        assert_eq!(r.entries.len() as u64, share + 2);
        let k = t.entries.len();
        assert_eq!(t.entries[k - 2].kind, EntryKind::LocalSem);
        assert_eq!(t.entries[k - 1].kind, EntryKind::RemoteSem);
        assert!(t.entries[k - 1].desc.write_barrier);
        assert!(!t.entries[k - 2].desc.write_barrier);
        // Entries sit in the TX die's ring of their engine, side and queue.
        for (i, e) in t.entries.iter().enumerate() {
            let base = sys.ring_base(t.engine, Side::M2s, t.queue);
            assert_eq!(e.slot, base + i as u64 * l.params.desc_bytes);
        }
    }
    sys.run_to_completion().expect("run");
    let end = sys.end_state();
    let per_engine = share + 2;
    let len = sys.config.ring_len;
    let used: Vec<_> = end.queues.iter().collect();
    assert_eq!(used.len(), engines.len() * 2);
    for q in used {
        assert_eq!(q.die, sys.die_of(s.tx));
        assert_eq!(
            (q.head, q.tail, q.used),
            (per_engine % len, per_engine % len, 0)
        );
        assert_eq!(q.head_ring_id, l.ring_id(per_engine, len));
    }
    // Both dies' touched SBUF: source on TX, destination on RX, one range per partition each.
    assert_eq!(end.sbuf.len() as u64, 2 * s.partitions);
    let sems: Vec<(u64, i64)> = end.sems.iter().map(|v| (v.sem, v.value)).collect();
    let n = n_engines(s.mask);
    assert_eq!(sems, vec![(s.local_sem, n), (s.remote_sem, n)]);
}

#[test]
fn cross_package_leg_uses_the_chip_id_fold() {
    let csrs = csrs();
    let chips = [0x1, 0x2];
    let mut sys = System::new(&csrs, Topology::packages(&chips)).expect("system");
    let s = LegSpec {
        tx: Core {
            chip: chips[0],
            id: 0,
        },
        rx: Core {
            chip: chips[1],
            id: 2,
        },
        mask: 0b0110,
        partitions: 6,
        free: 0x300,
        src: 0x40,
        dst: 0x1000,
        local_sem: 1,
        remote_sem: 2,
        go_sem: 0,
        queue: 3,
    };
    fill_src(&mut sys, &s);
    let (_, rxg) = issue(&mut sys, &s).expect("issue");
    let rd = sys.die_of(s.rx);
    let l = &sys.layout;
    let want =
        csrs.views
            .soc
            .fold_chip_id(l.sbuf_addr(sys.tpb_of(s.rx), 0, s.dst), rd.die, rd.chip);
    assert_eq!(rxg.dst_soc, want);
    assert_eq!(rxg.engines[0].entries[0].desc.buf_ptr, want);
    sys.run_to_completion().expect("run");
    assert_data(&sys, &s);
    assert_eq!(sem_of(&sys, s.rx, s.remote_sem), n_engines(s.mask));
    assert_eq!(sem_of(&sys, s.tx, s.local_sem), n_engines(s.mask));
    assert_invariants(&sys);
}

#[test]
fn same_die_leg_uses_die_local_addresses() {
    let csrs = csrs();
    let mut sys = System::new(&csrs, Topology::package(0x3)).expect("system");
    let s = LegSpec {
        tx: Core { chip: 0x3, id: 0 },
        rx: Core { chip: 0x3, id: 1 },
        mask: 0x8001,
        partitions: 8,
        free: 0x123,
        src: 0x10,
        dst: 0x2005,
        local_sem: 200,
        remote_sem: 201,
        go_sem: 202,
        queue: 1,
    };
    let die = sys.die_of(s.tx);
    assert_eq!(die, sys.die_of(s.rx));
    fill_src(&mut sys, &s);
    let (_, rxg) = issue(&mut sys, &s).expect("issue");
    let l = &sys.layout;
    assert_eq!(
        rxg.dst_soc,
        l.soc
            .soc_local(die.die, l.sbuf_addr(sys.tpb_of(s.rx), 0, s.dst))
    );
    sys.run_to_completion().expect("run");
    assert_data(&sys, &s);
    assert_eq!(sem_of(&sys, s.rx, s.remote_sem), n_engines(s.mask));
    assert_eq!(sem_of(&sys, s.tx, s.local_sem), n_engines(s.mask));
    // Two cores of one die: each semaphore sits in its own core's EVT_SEM only.
    assert_eq!(sem_of(&sys, s.tx, s.remote_sem), 0);
    assert_eq!(sem_of(&sys, s.rx, s.local_sem), 0);
    assert_invariants(&sys);
}

#[test]
fn two_legs_chained_by_wait_ge_and_dec() {
    let csrs = csrs();
    let mut sys = System::new(&csrs, Topology::package(0x12)).expect("system");
    let a = seed_leg(&sys);
    let a = LegSpec {
        partitions: 16,
        free: 0x200,
        ..a
    };
    // Leg B forwards what A delivered: core 7 sends A's destination back to core 5.
    let b = LegSpec {
        tx: a.rx,
        rx: a.tx,
        mask: 0b1_0000_0001,
        partitions: a.partitions,
        free: a.free,
        src: a.dst,
        dst: 0x8000,
        local_sem: 30,
        remote_sem: 31,
        go_sem: 32,
        queue: 2,
    };
    fill_src(&mut sys, &a);
    // B is issued before anything ran: its TX context must hold on A's remote_sem.
    let n_a = n_engines(a.mask) as u64;
    issue(&mut sys, &a).expect("issue A");
    sys.wait_ge_and_dec(b.tx, Lane::Tx, a.remote_sem, n_a)
        .expect("wait");
    issue(&mut sys, &b).expect("issue B");
    sys.run_to_completion().expect("run");

    let (d0, d1) = (sys.die_of(a.tx), sys.die_of(a.rx));
    for p in 0..a.partitions {
        let got = sys.read_local(d0, sys.layout.sbuf_addr(sys.tpb_of(b.rx), p, b.dst), b.free);
        assert!(got == pattern(d0, p, a.src, a.free), "partition {p}");
    }
    assert_eq!(
        sem_of(&sys, a.rx, a.remote_sem),
        0,
        "B's wait consumed A's target"
    );
    assert_eq!(sem_of(&sys, b.rx, b.remote_sem), n_engines(b.mask));
    assert_eq!(sem_of(&sys, b.tx, b.local_sem), n_engines(b.mask));
    assert_invariants(&sys);
    // B's launch (its M2S doorbells) came only after A's last remote_sem increment.
    let ev = sys.events();
    let a_done = ev
        .iter()
        .rposition(|e| matches!(e, Event::Landed(l) if l.die == d1 && l.local == sys.layout.sem_addr(sys.tpb_of(a.rx), SemOp::Inc, a.remote_sem)))
        .expect("A's remote_sem");
    let b_launch = ev
        .iter()
        .position(|e| matches!(e, Event::Doorbell { die, side: Side::M2s, .. } if *die == d1))
        .expect("B's launch");
    assert!(a_done < b_launch);
}

#[test]
fn a_tx_without_its_rx_is_held_not_lost() {
    let csrs = csrs();
    let mut sys = System::new(&csrs, Topology::package(0x12)).expect("system");
    let s = LegSpec {
        partitions: 4,
        free: 0x40,
        ..seed_leg(&sys)
    };
    fill_src(&mut sys, &s);
    let txg = sys.gen(s.tx, &gen_word(&s, Lane::Tx)).expect("gen tx");
    let rxg = sys.gen(s.rx, &gen_word(&s, Lane::Rx)).expect("gen rx");
    sys.start(
        s.tx,
        s.tx.prid(Lane::Tx),
        &start_word(&s, Lane::Tx, txg.num_descriptors),
    )
    .expect("start tx");
    let r = sys.run().expect("run");
    assert_eq!(r.blocked.len(), 1, "TX waits for right_push");
    sys.start(
        s.rx,
        s.rx.prid(Lane::Rx),
        &start_word(&s, Lane::Rx, rxg.num_descriptors),
    )
    .expect("start rx");
    sys.run_to_completion().expect("run");
    assert_data(&sys, &s);
    assert_invariants(&sys);
}

#[test]
fn free_dim_above_max_len_splits_descriptors() {
    let csrs = csrs();
    let mut sys = System::new(&csrs, Topology::package(0x12)).expect("system");
    let max = sys.layout.ring.max_len_code;
    let s = LegSpec {
        partitions: 3,
        mask: 0b10,
        free: max + 0x30,
        src: 0,
        dst: 0x20,
        ..seed_leg(&sys)
    };
    fill_src(&mut sys, &s);
    let (txg, _) = issue(&mut sys, &s).expect("issue");
    let entries = &txg.engines[0].entries;
    assert_eq!(entries.len() as u64, s.partitions * 2 + 2);
    // A full chunk is encoded with LEN = 0.
    let len_field = &sys.layout.m2s_desc.len;
    let word = u128::from_le_bytes(entries[0].bytes.clone().try_into().expect("16 bytes"));
    assert_eq!(len_field.get(word), 0);
    assert_eq!(entries[0].desc.len, max);
    assert_eq!(entries[1].desc.len, s.free - max);
    sys.run_to_completion().expect("run");
    assert_data(&sys, &s);
    assert_invariants(&sys);
}

#[test]
fn ring_ids_advance_when_the_ring_wraps() {
    let csrs = csrs();
    let s0 = LegSpec {
        partitions: 4,
        mask: 1,
        free: 0x10,
        ..seed_leg(&System::new(&csrs, Topology::package(0x12)).expect("system"))
    };
    let per_leg = s0.partitions + 2;
    let len = per_leg + per_leg / 2;
    let mut sys = System::with_config(&csrs, Topology::package(0x12), Config { ring_len: len })
        .expect("system");
    fill_src(&mut sys, &s0);
    issue(&mut sys, &s0).expect("leg 1");
    sys.run_to_completion().expect("run 1");
    let s1 = LegSpec {
        local_sem: 40,
        remote_sem: 41,
        dst: 0x3000,
        ..s0
    };
    let (txg, _) = issue(&mut sys, &s1).expect("leg 2");
    let l = sys.layout.clone();
    let ids: Vec<u64> = txg.engines[0]
        .entries
        .iter()
        .map(|e| e.desc.ring_id)
        .collect();
    let want: Vec<u64> = (per_leg..2 * per_leg).map(|p| l.ring_id(p, len)).collect();
    assert_eq!(ids, want);
    assert!(ids.first() != ids.last(), "the second leg crosses the wrap");
    sys.run_to_completion().expect("run 2");
    assert_data(&sys, &s1);
    for q in sys.end_state().queues {
        assert_eq!(q.head, (2 * per_leg) % len);
        assert_eq!(q.head_ring_id, l.ring_id(2 * per_leg, len));
        assert_eq!(q.tail_ring_id, q.head_ring_id);
    }
    assert_invariants(&sys);
}

#[test]
fn a_wrong_ring_id_halts_the_queue() {
    let csrs = csrs();
    let mut sys = System::new(&csrs, Topology::package(0x12)).expect("system");
    let s = LegSpec {
        partitions: 2,
        mask: 1,
        free: 0x10,
        ..seed_leg(&sys)
    };
    let (txg, _) = {
        let txg = sys.gen(s.tx, &gen_word(&s, Lane::Tx)).expect("gen");
        let rxg = sys.gen(s.rx, &gen_word(&s, Lane::Rx)).expect("gen");
        (txg, rxg)
    };
    // Corrupt the first M2S entry's ring id.
    let e = &txg.engines[0].entries[0];
    let f = sys.layout.m2s_desc.ring_id.clone();
    let word = u128::from_le_bytes(e.bytes.clone().try_into().expect("16 bytes"));
    let bad = f.set(word, f.get(word) ^ 1).to_le_bytes();
    let td = sys.die_of(s.tx);
    sys.poke(td, e.slot, &bad).expect("poke");
    let rxg_n = s.partitions + 2;
    sys.start(s.rx, s.rx.prid(Lane::Rx), &start_word(&s, Lane::Rx, rxg_n))
        .expect("start rx");
    sys.start(
        s.tx,
        s.tx.prid(Lane::Tx),
        &start_word(&s, Lane::Tx, txg.num_descriptors),
    )
    .expect("start tx");
    let r = sys.run().expect("run");
    assert!(sys.events().iter().any(|e| matches!(
        e,
        Event::RingIdError {
            side: Side::M2s,
            ..
        }
    )));
    assert!(!r.stranded.is_empty());
    assert!(sys.end_state().queues.iter().any(|q| q.halted));
}

#[test]
fn interleaved_gens_on_one_queue_are_reported() {
    let csrs = csrs();
    let mut sys = System::new(&csrs, Topology::package(0x12)).expect("system");
    let a = LegSpec {
        partitions: 2,
        mask: 1,
        free: 0x10,
        ..seed_leg(&sys)
    };
    // Another RX core on die 1 receives from the same TX engine and queue.
    let b = LegSpec {
        rx: Core { chip: 0x12, id: 6 },
        dst: 0x800,
        local_sem: 50,
        remote_sem: 51,
        go_sem: 52,
        ..a
    };
    // Each side starts what it generated before its next gen (the stream guard allows no
    // more), but the RX sides run in the other order: S2M positions no longer match M2S ones.
    let n = a.partitions + 2;
    for (s, role) in [
        (&a, Lane::Tx),
        (&b, Lane::Tx),
        (&b, Lane::Rx),
        (&a, Lane::Rx),
    ] {
        let core = if role == Lane::Tx { s.tx } else { s.rx };
        sys.gen(core, &gen_word(s, role)).expect("gen");
        sys.start(core, core.prid(role), &start_word(s, role, n))
            .expect("start");
    }
    sys.run().expect("run");
    assert!(sys
        .events()
        .iter()
        .any(|e| matches!(e, Event::Fault { what, .. } if what.contains("paired with"))));
}

#[test]
fn back_to_back_legs_on_one_queue_before_any_run() {
    let csrs = csrs();
    let mut sys = System::new(&csrs, Topology::package(0x12)).expect("system");
    let a = LegSpec {
        partitions: 6,
        mask: 0b101,
        free: 0x44,
        ..seed_leg(&sys)
    };
    let b = LegSpec {
        src: 0x9000,
        dst: 0x7000,
        local_sem: 60,
        remote_sem: 61,
        go_sem: 62,
        ..a
    };
    fill_src(&mut sys, &a);
    fill_src(&mut sys, &b);
    issue(&mut sys, &a).expect("A");
    issue(&mut sys, &b).expect("B");
    sys.run_to_completion().expect("run");
    assert_data(&sys, &a);
    assert_data(&sys, &b);
    assert_invariants(&sys);
}
