//! Ring descriptors as the model writes and the engines read them: the fields xdie uses, packed
//! at the positions of `csrs/descriptors.yaml`.

use crate::error::{ModelError, Result};
use crate::layout::{Layout, Side};
use xdie_csr::DescFormat;

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

fn field<'a>(fmt: &'a DescFormat, name: &str) -> Result<&'a xdie_csr::BitField> {
    fmt.field(name)
        .ok_or_else(|| ModelError::Csrs(format!("descriptor {}: field {name}", fmt.name)))
}

impl Layout {
    fn desc_format(&self, side: Side) -> &DescFormat {
        match side {
            Side::M2s => &self.m2s_desc,
            Side::S2m => &self.s2m_desc,
        }
    }

    /// The descriptor's bytes (little-endian words).
    pub fn encode_desc(&self, side: Side, d: &Descriptor) -> Result<Vec<u8>> {
        let fmt = self.desc_format(side);
        let mut w: u128 = 0;
        w = field(fmt, "LEN")?.set(w, self.len_code(d.len) as u128);
        w = field(fmt, "RING_ID")?.set(w, d.ring_id as u128);
        w = field(fmt, "BUF_PTR")?.set(w, d.buf_ptr as u128);
        if d.write_barrier {
            // Only the M2S format carries the barrier; asking for it on S2M is a model bug
            // surfaced as a CSR gap rather than silently dropped.
            w = field(fmt, "WRITE_BARRIER")?.set(w, 1);
        }
        let bytes = w.to_le_bytes();
        Ok(bytes[..fmt.bytes as usize].to_vec())
    }

    pub fn decode_desc(&self, side: Side, bytes: &[u8]) -> Result<Descriptor> {
        let fmt = self.desc_format(side);
        let mut b = [0u8; 16];
        let n = bytes.len().min(16);
        b[..n].copy_from_slice(&bytes[..n]);
        let w = u128::from_le_bytes(b);
        let barrier = match fmt.field("WRITE_BARRIER") {
            Some(f) => f.get(w) == 1,
            None => false,
        };
        Ok(Descriptor {
            len: self.len_bytes(field(fmt, "LEN")?.get(w) as u64),
            ring_id: field(fmt, "RING_ID")?.get(w) as u64,
            write_barrier: barrier,
            buf_ptr: field(fmt, "BUF_PTR")?.get(w) as u64,
        })
    }
}
