//! The invariant checkers pass on the model's own log and fail on deliberately wrong logs.

mod common;
use common::*;
use xdie_model::*;

/// A small cross-die leg's landed writes and its expectation.
fn run_leg() -> (Vec<Landed>, LegExpect) {
    let csrs = csrs();
    let mut sys = System::new(&csrs, Topology::package(0x12)).expect("system");
    let s = LegSpec {
        tx: Core { chip: 0x12, id: 5 },
        rx: Core { chip: 0x12, id: 7 },
        mask: 0b1011,
        partitions: 6,
        free: 0x80,
        src: 0x10,
        dst: 0x200,
        local_sem: 12,
        remote_sem: 20,
        go_sem: 3,
        queue: 0,
    };
    fill_src(&mut sys, &s);
    issue(&mut sys, &s).expect("issue");
    sys.run_to_completion().expect("run");
    let leg = sys.leg_expect(0).expect("leg");
    (landed(sys.events()), leg)
}

fn is_kind(w: &Landed, k: fn(&EntryKind) -> bool) -> bool {
    matches!(&w.by, Writer::Engine { kind: Some(kind), .. } if k(kind))
}

fn is_data(w: &Landed) -> bool {
    is_kind(w, |k| matches!(k, EntryKind::Data { .. }))
}

fn is_remote(w: &Landed) -> bool {
    is_kind(w, |k| *k == EntryKind::RemoteSem)
}

fn is_local(w: &Landed) -> bool {
    is_kind(w, |k| *k == EntryKind::LocalSem)
}

/// Strip the model's tags, as a bus monitor would see the writes.
fn untagged(writes: &[Landed]) -> Vec<Landed> {
    writes
        .iter()
        .map(|w| Landed {
            by: match &w.by {
                Writer::Engine {
                    die, engine, queue, ..
                } => Writer::Engine {
                    die: *die,
                    engine: *engine,
                    queue: *queue,
                    leg: None,
                    kind: None,
                },
                other => other.clone(),
            },
            ..w.clone()
        })
        .collect()
}

#[test]
fn the_models_own_log_passes_tagged_and_untagged() {
    let (writes, leg) = run_leg();
    check_leg(&writes, &leg).expect("tagged");
    check_leg(&untagged(&writes), &leg).expect("untagged");
}

#[test]
fn remote_sem_before_the_last_data_byte_fails() {
    let (mut writes, leg) = run_leg();
    let last_remote = writes.iter().rposition(is_remote).expect("remote");
    let first_data = writes.iter().position(is_data).expect("data");
    let w = writes.remove(last_remote);
    writes.insert(first_data, w);
    let v = check_leg(&writes, &leg).expect_err("early remote_sem");
    assert!(v.what.contains("before"), "{v}");
    check_leg(&untagged(&writes), &leg).expect_err("early remote_sem, untagged");
}

#[test]
fn a_byte_landing_twice_fails() {
    let (mut writes, leg) = run_leg();
    let i = writes.iter().position(is_data).expect("data");
    let dup = writes[i].clone();
    writes.insert(i + 1, dup);
    let v = check_leg(&writes, &leg).expect_err("duplicate");
    assert!(v.what.contains("more than once"), "{v}");
}

#[test]
fn a_missing_or_misplaced_data_write_fails() {
    let (writes, leg) = run_leg();
    let i = writes.iter().position(is_data).expect("data");
    let mut dropped = writes.clone();
    dropped.remove(i);
    check_leg(&dropped, &leg).expect_err("a write missing");

    let mut shifted = writes.clone();
    shifted[i].local += leg.dst[0].1;
    check_leg(&shifted, &leg).expect_err("a write outside the destination");
}

#[test]
fn local_sem_must_rise_by_the_engine_count() {
    let (mut writes, leg) = run_leg();
    let i = writes.iter().position(is_local).expect("local");
    writes.remove(i);
    let v = check_leg(&writes, &leg).expect_err("one local increment missing");
    assert!(v.what.contains("local_sem"), "{v}");
}

/// An RTL monitor sees neither the engine nor the leg: with every engine write marked
/// `Writer::Unknown` the log still passes, and a data write that lands after the remote
/// semaphore completed is still caught.
#[test]
fn a_monitor_log_without_writers_is_checked_by_address() {
    let (writes, leg) = run_leg();
    let anonymous: Vec<Landed> = writes
        .iter()
        .map(|w| Landed {
            by: match w.by {
                Writer::Engine { .. } => Writer::Unknown,
                ref other => other.clone(),
            },
            ..w.clone()
        })
        .collect();
    check_leg(&anonymous, &leg).expect("anonymous log");

    let last_data = writes.iter().rposition(is_data).expect("data");
    let last_remote = writes.iter().rposition(is_remote).expect("remote");
    assert!(last_data < last_remote);
    let mut late = anonymous;
    let w = late.remove(last_data);
    late.push(w);
    let v = check_leg(&late, &leg).expect_err("late data write");
    assert!(v.what.contains("before the last data byte"), "{v}");
}
