//! The 64-byte op 8 / op 9 words: field offsets from csrs/ext_inst.yaml, round trips, refusals.

mod common;
use common::*;
use xdie_model::*;

/// The seed §8 word.
fn seed_gen() -> GenWord {
    GenWord {
        role: 1,
        dma_engine_mask: 0x000F,
        free_dim_bytes: 0x4000,
        partitions: 128,
        queue: 0,
        accumulate: 0,
        local_sem: 12,
        remote_sem: 20,
        remote_core_id: 7,
        remote_routing_id: 0x12,
        src_addr: 0x100000,
        dst_addr: 0x100000,
        peer_base: 0,
    }
}

fn le_at(buf: &[u8], f: &xdie_csr::WordField) -> u64 {
    let (o, n) = (f.offset as usize, f.bytes as usize);
    buf[o..o + n]
        .iter()
        .rev()
        .fold(0u64, |a, &b| (a << 8) | b as u64)
}

#[test]
fn seed_gen_word_round_trips_at_the_csrs_offsets() {
    let csrs = csrs();
    let w = seed_gen();
    let buf = w.encode(&csrs).expect("encode");
    let spec = &csrs.views.gen_word;
    assert_eq!(buf.len() as u32, spec.word.bytes);
    assert_eq!(le_at(&buf, &spec.sub_opcode), spec.word.sub_opcode as u64);
    for (field, v) in [
        (&spec.local_sem, w.local_sem),
        (&spec.remote_sem, w.remote_sem),
        (&spec.remote_core_id, w.remote_core_id),
        (&spec.remote_routing_id, w.remote_routing_id),
        (&spec.dma_engine_mask, w.dma_engine_mask),
        (&spec.src_addr, w.src_addr),
        (&spec.dst_addr, w.dst_addr),
        (&spec.free_dim_bytes, w.free_dim_bytes),
    ] {
        assert_eq!(le_at(&buf, field), v, "{}", field.name);
    }
    assert_eq!(GenWord::decode(&csrs, &buf).expect("decode"), w);
}

#[test]
fn start_word_round_trips() {
    let csrs = csrs();
    let w = StartWord {
        role: 0,
        dma_engine_mask: 0x8421,
        num_descriptors: 136,
        queue: 5,
        launch: 1,
        go_sem: 3,
        local_sem: 12,
        remote_sem: 20,
        remote_core_id: 5,
        remote_routing_id: 0x12,
        dst_addr: 0x100000,
    };
    let buf = w.encode(&csrs).expect("encode");
    let spec = &csrs.views.start_word;
    assert_eq!(le_at(&buf, &spec.sub_opcode), spec.word.sub_opcode as u64);
    assert_eq!(le_at(&buf, &spec.go_sem), w.go_sem);
    assert_eq!(StartWord::decode(&csrs, &buf).expect("decode"), w);
}

#[test]
fn words_refuse_overflow_wrong_opcode_and_length() {
    let csrs = csrs();
    let mask_bytes = csrs.views.gen_word.dma_engine_mask.bytes;
    let w = GenWord {
        dma_engine_mask: 1 << (8 * mask_bytes),
        ..seed_gen()
    };
    assert!(matches!(
        w.encode(&csrs),
        Err(ModelError::FieldOverflow { .. })
    ));
    // A gen word is not a start word.
    let buf = seed_gen().encode(&csrs).expect("encode");
    assert!(matches!(
        StartWord::decode(&csrs, &buf),
        Err(ModelError::WrongSubOpcode { .. })
    ));
    assert!(matches!(
        GenWord::decode(&csrs, &buf[1..]),
        Err(ModelError::WordLength { .. })
    ));
}
