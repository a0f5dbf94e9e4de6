//! Ring descriptors as the model writes and the engines read them: the fields xdie uses, packed
//! at the positions of `csrs/descriptors.yaml`.

use crate::error::{ModelError, Result};
use crate::layout::{Layout, Side};

/// What a ring entry is for (the model's bookkeeping; not in the 16 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EntryKind {
    /// Bytes [chunk * max_len, ...) of one partition.
    Data { partition: u64, chunk: u64 },
    /// The 4-byte increment of TX's local_sem.
    LocalSem,
    /// The 4-byte increment of RX's remote_sem (write_barrier on the M2S entry).
    RemoteSem,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Descriptor {
    /// Bytes moved (1..=max_len).
    pub len: u64,
    pub ring_id: u64,
    pub write_barrier: bool,
    pub buf_ptr: u64,
}

impl Layout {
    /// The descriptor's bytes (little-endian words).
    pub fn encode_desc(&self, side: Side, d: &Descriptor) -> Result<Vec<u8>> {
        let fmt = self.desc(side);
        let mut w: u128 = 0;
        w = fmt.len.set(w, self.len_code(d.len) as u128);
        w = fmt.ring_id.set(w, d.ring_id as u128);
        w = fmt.buf_ptr.set(w, d.buf_ptr as u128);
        if d.write_barrier {
            // Only the M2S format carries the barrier; asking for it on S2M is a model bug
            // surfaced as a CSR gap rather than silently dropped.
            let f = fmt.write_barrier.as_ref().ok_or_else(|| {
                ModelError::Csrs(format!("descriptor {}: no write barrier", fmt.format.name))
            })?;
            w = f.set(w, 1);
        }
        let bytes = w.to_le_bytes();
        Ok(bytes[..fmt.format.bytes as usize].to_vec())
    }

    pub fn decode_desc(&self, side: Side, bytes: &[u8]) -> Result<Descriptor> {
        let fmt = self.desc(side);
        let mut b = [0u8; 16];
        let n = bytes.len().min(16);
        b[..n].copy_from_slice(&bytes[..n]);
        let w = u128::from_le_bytes(b);
        Ok(Descriptor {
            len: self.len_bytes(fmt.len.get(w) as u64),
            ring_id: fmt.ring_id.get(w) as u64,
            write_barrier: fmt.write_barrier.as_ref().is_some_and(|f| f.get(w) == 1),
            buf_ptr: fmt.buf_ptr.get(w) as u64,
        })
    }
}
