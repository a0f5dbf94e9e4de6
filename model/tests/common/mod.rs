#![allow(dead_code)]

use std::path::PathBuf;
use xdie_model::*;

pub fn csrs() -> xdie_csr::Csrs {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../csrs");
    match xdie_csr::load(&dir) {
        Ok(c) => c,
        Err(e) => panic!("csrs do not load: {e}"),
    }
}

/// A byte pattern that differs per die, partition and offset.
pub fn pattern(die: DieId, p: u64, offset: u64, n: u64) -> Vec<u8> {
    (0..n)
        .map(|i| {
            let x = (offset + i)
                .wrapping_mul(0x9e37_79b9)
                .wrapping_add(p * 0x3d)
                .wrapping_add(die.die * 0x51 + die.chip * 0x17);
            (x >> 7) as u8
        })
        .collect()
}

#[derive(Debug, Clone, Copy)]
pub struct LegSpec {
    pub tx: Core,
    pub rx: Core,
    pub mask: u64,
    pub partitions: u64,
    pub free: u64,
    pub src: u64,
    pub dst: u64,
    pub local_sem: u64,
    pub remote_sem: u64,
    pub go_sem: u64,
    pub queue: u64,
}

pub fn gen_word(s: &LegSpec, role: Lane) -> GenWord {
    let peer = if role == Lane::Tx { s.rx } else { s.tx };
    GenWord {
        role: role as u64,
        dma_engine_mask: s.mask,
        free_dim_bytes: s.free,
        partitions: s.partitions,
        queue: s.queue,
        accumulate: 0,
        local_sem: s.local_sem,
        remote_sem: s.remote_sem,
        remote_core_id: peer.id,
        remote_routing_id: peer.chip,
        src_addr: s.src,
        dst_addr: s.dst,
        peer_base: 0,
    }
}

pub fn start_word(s: &LegSpec, role: Lane, num_descriptors: u64) -> StartWord {
    let peer = if role == Lane::Tx { s.rx } else { s.tx };
    StartWord {
        role: role as u64,
        dma_engine_mask: s.mask,
        num_descriptors,
        queue: s.queue,
        launch: 0,
        go_sem: s.go_sem,
        local_sem: s.local_sem,
        remote_sem: s.remote_sem,
        remote_core_id: peer.id,
        remote_routing_id: peer.chip,
        dst_addr: s.dst,
    }
}

/// Fill the leg's source with the pattern.
pub fn fill_src(sys: &mut System, s: &LegSpec) {
    let (die, tpb) = (sys.die_of(s.tx), sys.tpb_of(s.tx));
    for p in 0..s.partitions {
        let data = pattern(die, p, s.src, s.free);
        sys.fill_sbuf(die, tpb, p, s.src, &data).expect("fill");
    }
}

/// Both gens, both starts (RX first); returns (TX gen, RX gen).
pub fn issue(sys: &mut System, s: &LegSpec) -> Result<(GenOutput, GenOutput)> {
    let txg = sys.gen(s.tx, &gen_word(s, Lane::Tx))?;
    let rxg = sys.gen(s.rx, &gen_word(s, Lane::Rx))?;
    sys.start(
        s.rx,
        s.rx.prid(Lane::Rx),
        &start_word(s, Lane::Rx, rxg.num_descriptors),
    )?;
    sys.start(
        s.tx,
        s.tx.prid(Lane::Tx),
        &start_word(s, Lane::Tx, txg.num_descriptors),
    )?;
    Ok((txg, rxg))
}

/// The destination of every partition holds the source pattern.
pub fn assert_data(sys: &System, s: &LegSpec) {
    let (td, rd) = (sys.die_of(s.tx), sys.die_of(s.rx));
    let rx_tpb = sys.tpb_of(s.rx);
    for p in 0..s.partitions {
        let got = sys.read_local(rd, sys.layout.sbuf_addr(rx_tpb, p, s.dst), s.free);
        assert!(
            got == pattern(td, p, s.src, s.free),
            "partition {p}: destination differs from the source"
        );
    }
}

pub fn assert_invariants(sys: &System) {
    let writes = landed(sys.events());
    for id in 0..sys.legs().len() {
        let leg = sys.leg_expect(id).expect("leg");
        if let Err(v) = check_leg(&writes, &leg) {
            panic!("{v}");
        }
    }
}

pub fn n_engines(mask: u64) -> i64 {
    mask.count_ones() as i64
}

/// Semaphore `sem` in the EVT_SEM of `core`.
pub fn sem_of(sys: &System, core: Core, sem: u64) -> i64 {
    sys.sem(sys.die_of(core), sys.tpb_of(core), sem)
}
