//! Sparse byte memory: pages allocated on first write, unwritten bytes read as zero.

use std::collections::BTreeMap;

const PAGE_BITS: u32 = 12;
const PAGE: u64 = 1 << PAGE_BITS;

#[derive(Debug, Clone, Default)]
pub struct Mem {
    pages: BTreeMap<u64, Box<[u8]>>,
}

impl Mem {
    pub fn write(&mut self, addr: u64, data: &[u8]) {
        let mut a = addr;
        let mut rest = data;
        while !rest.is_empty() {
            let off = (a % PAGE) as usize;
            let n = rest.len().min(PAGE as usize - off);
            let page = self
                .pages
                .entry(a >> PAGE_BITS)
                .or_insert_with(|| vec![0u8; PAGE as usize].into_boxed_slice());
            page[off..off + n].copy_from_slice(&rest[..n]);
            rest = &rest[n..];
            a += n as u64;
        }
    }

    pub fn read(&self, addr: u64, len: u64) -> Vec<u8> {
        let mut out = vec![0u8; len as usize];
        let mut a = addr;
        let mut done = 0usize;
        while done < out.len() {
            let off = (a % PAGE) as usize;
            let n = (out.len() - done).min(PAGE as usize - off);
            if let Some(page) = self.pages.get(&(a >> PAGE_BITS)) {
                out[done..done + n].copy_from_slice(&page[off..off + n]);
            }
            done += n;
            a += n as u64;
        }
        out
    }
}
