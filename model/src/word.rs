//! The 64-byte ExtendedInst words of rdma_desc_gen (op 8) and rdma_desc_start (op 9), encoded and
//! decoded at the byte offsets `csrs/ext_inst.yaml` gives (little-endian integers).

use crate::error::{ModelError, Result};
use xdie_csr::{Csrs, ExtWord, WordField};

/// rdma_desc_gen: build one side of a leg's rings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GenWord {
    /// 0 = RX (sink), 1 = TX (source).
    pub role: u64,
    pub dma_engine_mask: u64,
    pub free_dim_bytes: u64,
    pub partitions: u64,
    pub queue: u64,
    /// How the data lands on the RX side: 0 = written, else an accumulate lane type's code
    /// (`xdie_csr::AccDtype::code`).
    pub accumulate: u64,
    pub local_sem: u64,
    pub remote_sem: u64,
    pub remote_core_id: u64,
    pub remote_routing_id: u64,
    pub src_addr: u64,
    pub dst_addr: u64,
    pub peer_base: u64,
}

/// rdma_desc_start: arm (RX) or launch (TX) one side of a leg.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StartWord {
    pub role: u64,
    pub dma_engine_mask: u64,
    /// Descriptors each engine's ring holds for this leg (the tail increment of each doorbell).
    pub num_descriptors: u64,
    pub queue: u64,
    /// 0: one tail increment per engine; 1: one broadcast-doorbell write for all engines.
    pub launch: u64,
    pub go_sem: u64,
    pub local_sem: u64,
    pub remote_sem: u64,
    pub remote_core_id: u64,
    pub remote_routing_id: u64,
    pub dst_addr: u64,
}

fn put(w: &ExtWord, f: &WordField, buf: &mut [u8], value: u64) -> Result<()> {
    if f.bytes < 8 && value >> (8 * f.bytes) != 0 {
        return Err(ModelError::FieldOverflow {
            word: w.name.clone(),
            field: f.name.clone(),
            value,
            bytes: f.bytes,
        });
    }
    let le = value.to_le_bytes();
    let (o, n) = (f.offset as usize, f.bytes as usize);
    buf.get_mut(o..o + n)
        .ok_or_else(|| ModelError::Csrs(format!("{}: field {} past the word", w.name, f.name)))?
        .copy_from_slice(&le[..n]);
    Ok(())
}

fn get(w: &ExtWord, f: &WordField, buf: &[u8]) -> Result<u64> {
    let (o, n) = (f.offset as usize, f.bytes as usize);
    let bytes = buf
        .get(o..o + n)
        .ok_or_else(|| ModelError::Csrs(format!("{}: field {} past the word", w.name, f.name)))?;
    Ok(bytes
        .iter()
        .rev()
        .fold(0u64, |acc, &b| (acc << 8) | b as u64))
}

fn new_buf(w: &ExtWord, sub_opcode: &WordField) -> Result<Vec<u8>> {
    let mut buf = vec![0u8; w.bytes as usize];
    put(w, sub_opcode, &mut buf, w.sub_opcode as u64)?;
    Ok(buf)
}

fn check_buf(w: &ExtWord, sub_opcode: &WordField, buf: &[u8]) -> Result<()> {
    if buf.len() != w.bytes as usize {
        return Err(ModelError::WordLength {
            word: w.name.clone(),
            expected: w.bytes as usize,
            found: buf.len(),
        });
    }
    let found = get(w, sub_opcode, buf)?;
    if found != w.sub_opcode as u64 {
        return Err(ModelError::WrongSubOpcode {
            word: w.name.clone(),
            expected: w.sub_opcode as u64,
            found,
        });
    }
    Ok(())
}

/// The fields of a word, in one list so encode and decode cannot diverge; each is a field of the
/// word's typed layout in `Csrs::views`.
macro_rules! word_codec {
    ($ty:ident, $layout:ident, [$($f:ident),* $(,)?]) => {
        impl $ty {
            pub fn encode(&self, csrs: &Csrs) -> Result<Vec<u8>> {
                let l = &csrs.views.$layout;
                let mut buf = new_buf(&l.word, &l.sub_opcode)?;
                $(put(&l.word, &l.$f, &mut buf, self.$f)?;)*
                Ok(buf)
            }

            pub fn decode(csrs: &Csrs, buf: &[u8]) -> Result<$ty> {
                let l = &csrs.views.$layout;
                check_buf(&l.word, &l.sub_opcode, buf)?;
                Ok($ty { $($f: get(&l.word, &l.$f, buf)?,)* })
            }
        }
    };
}

word_codec!(
    GenWord,
    gen_word,
    [
        role,
        dma_engine_mask,
        free_dim_bytes,
        partitions,
        queue,
        accumulate,
        local_sem,
        remote_sem,
        remote_core_id,
        remote_routing_id,
        src_addr,
        dst_addr,
        peer_base,
    ]
);

word_codec!(
    StartWord,
    start_word,
    [
        role,
        dma_engine_mask,
        num_descriptors,
        queue,
        launch,
        go_sem,
        local_sem,
        remote_sem,
        remote_core_id,
        remote_routing_id,
        dst_addr,
    ]
);
