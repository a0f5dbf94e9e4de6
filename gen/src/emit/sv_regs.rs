//! Plain register storage that several register blocks share: RW words with resets and byte
//! strobes, RO words read from hardware inputs, address decode and readback. The block is
//! flattened here into arrays (one per bundle) and single registers;
//! `gen/templates/sv/regs.sv` holds the askama macros that turn that list into SystemVerilog, so
//! a block template only adds its own hardware behaviour on top.
//!
//! Decode is hierarchical so that readback is a mux, not an OR over every register: an address is
//! first placed in one bundle (a subtract and a compare), then the instance index and the offset
//! inside the instance are bit slices, and a `case` on the offset picks the word of that instance.
//!
//! Storage of a bundle (FPGA area): every stored register of a bundle is a memory (`<sig>_m`,
//! written by index, no reset: LUT-RAM on an FPGA) with one flop per instance saying whether it
//! was written since reset (`<sig>_ok`; unwritten entries read as the reset value). Readback and
//! every lookup that needs one instance (the winning region or window) read that memory, so they
//! cost a LUT-RAM read port instead of an N-way multiplexer per bit. Only the registers a block
//! compares in every instance at once (`RegFile::keep_flops`) also keep a copy in flops (`<sig>_q`,
//! reset), which is what a parallel lookup needs. A block that keeps state of its own derived from
//! several words of an instance reads those words as they stand after the request of this cycle
//! (`RegFile::next_field`: the merged write value if the request writes that word, else the
//! stored one), at the decoded index, and updates its state in the cycle any of them is written.

use super::sv_hex;
use std::collections::BTreeMap;
use xdie_csr::{Access, Block, Bundle, Field, FieldRole, Register};

/// A render-time error: the model is valid but a template cannot express it.
pub fn err(msg: impl Into<String>) -> askama::Error {
    askama::Error::custom(msg.into())
}

/// Bits needed to index `n` things (at least 1, so that the signal exists).
pub fn index_bits(n: u64) -> u32 {
    if n <= 2 {
        1
    } else {
        64 - (n - 1).leading_zeros()
    }
}

/// `[w-1:0] ` for a vector, nothing for a single bit: the packed range of a port or signal.
pub fn range(w: u32) -> String {
    if w == 1 {
        String::new()
    } else {
        format!("[{}:0] ", w - 1)
    }
}

/// Zero-extend the `from`-bit expression `e` to `to` bits.
pub fn zext(e: &str, from: u32, to: u32) -> Result<String, askama::Error> {
    match to.cmp(&from) {
        std::cmp::Ordering::Equal => Ok(e.to_string()),
        std::cmp::Ordering::Greater => Ok(format!("{{{}, {e}}}", sv_hex(to - from, 0))),
        std::cmp::Ordering::Less => Err(err(format!(
            "cannot zero-extend a {from}-bit value to {to} bits"
        ))),
    }
}

/// Name of the storage signal of `reg` (without `_q`/`_d`).
fn storage_name(bundle: Option<&Bundle>, reg: &Register) -> String {
    match bundle {
        Some(b) => format!("{}_{}", b.name.to_lowercase(), reg.name.to_lowercase()),
        None => reg.name.to_lowercase(),
    }
}

/// A register as the templates see it.
pub struct Reg {
    pub name: String,
    /// Storage signal base name: `<sig>_q` / `<sig>_d`.
    pub sig: String,
    /// Offset literal: within one bundle instance for arrays, within the block for singles.
    pub off: String,
    /// The register holds RW bits.
    pub stored: bool,
    /// Writable bits.
    pub wmask: String,
    pub reset: String,
    /// SystemVerilog expression of the 32-bit read value.
    pub read: String,
    /// Bundle registers: also kept in flops (`<sig>_q`), for lookups of every instance at once.
    pub flops: bool,
}

/// One instance of a stored bundle register (or one field of it) read from its memory: `name`
/// is the signal `<ok> ? <sig>_m[idx]<slice> : reset`, where `ok` says whether that instance
/// was written since reset (`<sig>_ok[idx]`, or see `RegFile::decode_ok_ahead` and
/// `RegFile::pick_field_onehot`).
pub struct Pick {
    pub name: String,
    /// Packed range of the signal (empty for one bit).
    pub range: String,
    /// Bit slice of the stored word (empty for the whole word).
    pub slice: String,
    pub sig: String,
    pub idx: String,
    pub ok: String,
    pub reset: String,
}

/// One field of a stored bundle register in the instance a register request addresses, as it
/// stands after this cycle's request: `name` is the signal `<sig>_rb<slice>` with the strobed
/// write bits merged in when the request writes the register (offset `off`).
pub struct NextPick {
    pub name: String,
    /// Packed range of the signal (empty for one bit).
    pub range: String,
    /// Bit slice of the stored word.
    pub slice: String,
    pub sig: String,
    pub off: String,
}

/// One bundle: `count` instances of the same registers.
pub struct RegArray {
    pub name: String,
    /// Prefix of the decode signals (`<prefix>_sel`, `_idx`, `_off`, `_rel`).
    pub prefix: String,
    pub count: u64,
    /// Constant name of the instance count (a localparam of the block).
    pub count_name: String,
    pub idx_w: u32,
    pub off_w: u32,
    pub base: String,
    /// Bytes the bundle spans, one bit wider than the address so that a full-block span fits.
    pub span: String,
    pub regs: Vec<Reg>,
    /// Any register of the bundle holds storage (else no storage loops are emitted).
    pub stored: bool,
    /// Any register of the bundle keeps flops.
    pub flops: bool,
    /// Single-instance reads of the memories: readback at the decoded index, and the block's own.
    pub picks: Vec<Pick>,
    /// Fields of the addressed instance after this cycle's request (`RegFile::next_field`).
    pub nexts: Vec<NextPick>,
    /// The written-since-reset flags of the addressed instance are decoded ahead into flops
    /// (`<sig>_okq`, `RegFile::decode_ok_ahead`).
    pub ok_ahead: bool,
}

/// Everything the shared register macros need.
pub struct RegFile {
    /// Address bits the block decodes.
    pub aw: u32,
    pub arrays: Vec<RegArray>,
    pub singles: Vec<Reg>,
    /// Any single register holds storage.
    pub singles_stored: bool,
}

/// Hardware sources of RO fields, by field role. For a bundle register the source is an array
/// input indexed by the bundle's instance.
pub type HwInputs<'a> = BTreeMap<FieldRole, &'a str>;

impl RegFile {
    pub fn new(block: &Block, hw: &HwInputs) -> Result<RegFile, askama::Error> {
        let aw = block.addr_bits();
        let mut arrays = Vec::new();
        for b in &block.bundles {
            if !b.stride.is_power_of_two() || !b.offset.is_multiple_of(b.stride) {
                return Err(err(format!(
                    "bundle `{}` of block `{}`: the instance stride must be a power of two and \
                     the bundle aligned to it, so that the instance index is a bit slice",
                    b.name, block.name
                )));
            }
            let off_w = b.stride.trailing_zeros();
            let idx_w = index_bits(b.count);
            if off_w + idx_w > aw {
                return Err(err(format!(
                    "bundle `{}` of block `{}` does not fit the block's {aw} address bits",
                    b.name, block.name
                )));
            }
            // Decode signals start with `reg_` so that they cannot clash with a block's own.
            let prefix = format!("reg_{}", b.name.to_lowercase());
            let idx = format!("{prefix}_idx");
            let regs = b
                .registers
                .iter()
                .map(|r| reg(Some(b), r, sv_hex(off_w, r.offset as u128), Some(&idx), hw))
                .collect::<Result<Vec<_>, _>>()?;
            let picks = regs
                .iter()
                .filter(|r| r.stored)
                .map(|r| Pick {
                    name: format!("{}_rb", r.sig),
                    range: range(32),
                    slice: String::new(),
                    sig: r.sig.clone(),
                    idx: idx.clone(),
                    ok: format!("{}_ok[{idx}]", r.sig),
                    reset: r.reset.clone(),
                })
                .collect();
            arrays.push(RegArray {
                name: b.name.clone(),
                flops: false,
                picks,
                nexts: Vec::new(),
                ok_ahead: false,
                count_name: format!("{}_N", b.name.to_uppercase()),
                prefix,
                count: b.count,
                idx_w,
                off_w,
                base: sv_hex(aw, b.offset as u128),
                span: sv_hex(aw + 1, (b.count * b.stride) as u128),
                stored: regs.iter().any(|r| r.stored),
                regs,
            });
        }
        let singles = block
            .registers
            .iter()
            .map(|r| reg(None, r, sv_hex(aw, r.offset as u128), None, hw))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(RegFile {
            aw,
            arrays,
            singles_stored: singles.iter().any(|r| r.stored),
            singles,
        })
    }

    /// The array built from `bundle`.
    pub fn array(&self, bundle: &Bundle) -> Option<&RegArray> {
        self.arrays.iter().find(|a| a.name == bundle.name)
    }

    fn array_mut(&mut self, bundle: &Bundle) -> Result<&mut RegArray, askama::Error> {
        self.arrays
            .iter_mut()
            .find(|a| a.name == bundle.name)
            .ok_or_else(|| err(format!("no storage for bundle `{}`", bundle.name)))
    }

    /// The registers of `bundle` that a lookup compares in every instance at once also keep a
    /// copy in flops (`field_expr` reads them); the others live in the memory only.
    pub fn keep_flops(&mut self, bundle: &Bundle, regs: &[&Register]) -> Result<(), askama::Error> {
        let a = self.array_mut(bundle)?;
        for r in regs {
            let sig = storage_name(Some(bundle), r);
            let reg = a
                .regs
                .iter_mut()
                .find(|x| x.sig == sig && x.stored)
                .ok_or_else(|| err(format!("register `{}` holds no storage", r.name)))?;
            reg.flops = true;
        }
        a.flops = a.regs.iter().any(|r| r.flops);
        Ok(())
    }

    /// The written-since-reset flag of every stored register of `bundle` in the instance a
    /// register request addresses is decoded with the instance index, a cycle ahead, into a flop
    /// (`<sig>_okq`; a write in the cycle of the decode is forwarded), so that the readback and
    /// the merge of a write start at flops instead of behind an N-way select of the flags.
    pub fn decode_ok_ahead(&mut self, bundle: &Bundle) -> Result<(), askama::Error> {
        let a = self.array_mut(bundle)?;
        a.ok_ahead = true;
        let idx = format!("{}_idx", a.prefix);
        for p in a.picks.iter_mut().filter(|p| p.idx == idx) {
            p.ok = format!("{}_okq", p.sig);
        }
        Ok(())
    }

    /// Field `f` of `reg` in instance `idx` (a signal of the block), read from the memory: the
    /// name of a signal as wide as the field that holds it.
    pub fn pick_field(
        &mut self,
        bundle: &Bundle,
        reg: &Register,
        f: &Field,
        idx: &str,
    ) -> Result<String, askama::Error> {
        self.pick_with(bundle, reg, f, idx, None)
    }

    /// As `pick_field`, for an instance the block also names as a one-hot vector `onehot` (bit i
    /// set for instance `idx`): the written-since-reset flag is taken as `|(onehot & <sig>_ok)`,
    /// an AND-OR of the flags, instead of a select by the index. (For a winner found by a
    /// priority search, synthesis otherwise rebuilds the search into every bit's select.)
    pub fn pick_field_onehot(
        &mut self,
        bundle: &Bundle,
        reg: &Register,
        f: &Field,
        idx: &str,
        onehot: &str,
    ) -> Result<String, askama::Error> {
        self.pick_with(bundle, reg, f, idx, Some(onehot))
    }

    fn pick_with(
        &mut self,
        bundle: &Bundle,
        reg: &Register,
        f: &Field,
        idx: &str,
        onehot: Option<&str>,
    ) -> Result<String, askama::Error> {
        let a = self.array_mut(bundle)?;
        let sig = storage_name(Some(bundle), reg);
        if !a.regs.iter().any(|x| x.sig == sig && x.stored) {
            return Err(err(format!("register `{}` holds no storage", reg.name)));
        }
        let name = format!("{sig}_{}_at_{idx}", f.name.to_lowercase());
        if !a.picks.iter().any(|p| p.name == name) {
            let ok = match onehot {
                Some(v) => format!("|({v} & {sig}_ok)"),
                None => format!("{sig}_ok[{idx}]"),
            };
            a.picks.push(Pick {
                name: name.clone(),
                range: range(f.width),
                slice: bit_slice(f),
                sig,
                idx: idx.to_string(),
                ok,
                reset: sv_hex(f.width, field_reset(reg, f) as u128),
            });
        }
        Ok(name)
    }

    /// Field `f` of `reg` in the instance that this cycle's register request addresses, as it
    /// stands after the request (written or not): the name of a signal as wide as the field. The
    /// field must be RW (every bit writable). For state a block derives from several words of an
    /// instance and updates when any of them is written.
    pub fn next_field(
        &mut self,
        bundle: &Bundle,
        reg: &Register,
        f: &Field,
    ) -> Result<String, askama::Error> {
        if f.access != Access::Rw {
            return Err(err(format!(
                "field `{}.{}` must be RW to be read as written",
                reg.name, f.name
            )));
        }
        let a = self.array_mut(bundle)?;
        let sig = storage_name(Some(bundle), reg);
        let off = a
            .regs
            .iter()
            .find(|x| x.sig == sig && x.stored)
            .ok_or_else(|| err(format!("register `{}` holds no storage", reg.name)))?
            .off
            .clone();
        let name = format!("{sig}_{}_nx", f.name.to_lowercase());
        if !a.nexts.iter().any(|p| p.name == name) {
            a.nexts.push(NextPick {
                name: name.clone(),
                range: range(f.width),
                slice: bit_slice(f),
                sig,
                off,
            });
        }
        Ok(name)
    }

    /// A number split over a low and a high register of `bundle`, instance `idx`, read from the
    /// memories: `{hi, lo}` and its width.
    pub fn pick_split(
        &mut self,
        bundle: &Bundle,
        lo: &Register,
        hi: &Register,
        idx: &str,
    ) -> Result<(String, u32), askama::Error> {
        self.pick_split_with(bundle, lo, hi, idx, None)
    }

    /// `pick_split` for an instance also named as a one-hot vector (see `pick_field_onehot`).
    pub fn pick_split_onehot(
        &mut self,
        bundle: &Bundle,
        lo: &Register,
        hi: &Register,
        idx: &str,
        onehot: &str,
    ) -> Result<(String, u32), askama::Error> {
        self.pick_split_with(bundle, lo, hi, idx, Some(onehot))
    }

    fn pick_split_with(
        &mut self,
        bundle: &Bundle,
        lo: &Register,
        hi: &Register,
        idx: &str,
        onehot: Option<&str>,
    ) -> Result<(String, u32), askama::Error> {
        let (fl, fh) = (value_field(lo)?, value_field(hi)?);
        let h = self.pick_with(bundle, hi, fh, idx, onehot)?;
        let l = self.pick_with(bundle, lo, fl, idx, onehot)?;
        Ok((format!("{{{h}, {l}}}"), fl.width + fh.width))
    }
}

/// `[lsb]` or `[msb:lsb]`: the bits of field `f` in its register's word.
fn bit_slice(f: &Field) -> String {
    if f.width == 1 {
        format!("[{}]", f.lsb)
    } else {
        format!("[{}:{}]", f.msb(), f.lsb)
    }
}

/// The reset value of the stored bits of field `f` of `reg`, right-aligned.
pub fn field_reset(reg: &Register, f: &Field) -> u32 {
    let reset = (reg.reset() & reg.write_mask()) >> f.lsb;
    if f.width >= 32 {
        reset
    } else {
        reset & ((1u32 << f.width) - 1)
    }
}

fn reg(
    bundle: Option<&Bundle>,
    r: &Register,
    off: String,
    idx: Option<&str>,
    hw: &HwInputs,
) -> Result<Reg, askama::Error> {
    let sig = storage_name(bundle, r);
    let sel = idx.map(|i| format!("[{i}]")).unwrap_or_default();
    // A bundle register reads back from its memory (the `_rb` pick), a single one from its flops.
    let stored_word = if bundle.is_some() {
        format!("{sig}_rb")
    } else {
        format!("{sig}_q")
    };
    let mut parts = Vec::new();
    for f in &r.fields {
        match f.access {
            Access::Rw | Access::Ro => {}
            other => {
                return Err(err(format!(
                    "register `{}`: field `{}` is {}, which the shared register storage does \
                     not implement (RW and RO only)",
                    r.name,
                    f.name,
                    other.as_str()
                )))
            }
        }
    }
    let wmask = r.write_mask();
    let stored = wmask != 0;
    if stored {
        if wmask == u32::MAX {
            parts.push(stored_word);
        } else {
            parts.push(format!("({stored_word} & {})", sv_hex(32, wmask as u128)));
        }
    }
    if let Some(ro) = ro_word(r, &sel, hw)? {
        parts.push(ro);
    }
    let read = if parts.is_empty() {
        sv_hex(32, 0)
    } else {
        parts.join(" | ")
    };
    Ok(Reg {
        name: r.name.clone(),
        sig,
        off,
        stored,
        wmask: sv_hex(32, wmask as u128),
        reset: sv_hex(32, (r.reset() & wmask) as u128),
        read,
        flops: false,
    })
}

/// The RO fields of `r` as one 32-bit concatenation of hardware inputs, or None if it has none.
fn ro_word(r: &Register, sel: &str, hw: &HwInputs) -> Result<Option<String>, askama::Error> {
    let mut ro: Vec<&Field> = r.fields.iter().filter(|f| f.access == Access::Ro).collect();
    if ro.is_empty() {
        return Ok(None);
    }
    ro.sort_by_key(|f| std::cmp::Reverse(f.lsb));
    let mut parts = Vec::new();
    let mut next = 32; // first bit above the part still to fill
    for f in ro {
        let src = f.role.and_then(|role| hw.get(&role)).ok_or_else(|| {
            err(format!(
                "register `{}`: RO field `{}` has no hardware source (no known Role)",
                r.name, f.name
            ))
        })?;
        if next > f.msb() + 1 {
            parts.push(sv_hex(next - f.msb() - 1, 0));
        }
        parts.push(format!("{src}{sel}"));
        next = f.lsb;
    }
    if next > 0 {
        parts.push(sv_hex(next, 0));
    }
    Ok(Some(format!("{{{}}}", parts.join(", "))))
}

/// A field of the stored word of `reg` in instance `idx` of `bundle`, from its flops (the
/// register must be one that `RegFile::keep_flops` named), as an SV expression.
pub fn field_expr(bundle: &Bundle, reg: &Register, field: &Field, idx: &str) -> String {
    let sig = storage_name(Some(bundle), reg);
    if field.width == 1 {
        format!("{sig}_q[{idx}][{}]", field.lsb)
    } else {
        format!("{sig}_q[{idx}][{}:{}]", field.msb(), field.lsb)
    }
}

/// The single value field of a register that holds one number (an address or mask word).
pub fn value_field(reg: &Register) -> Result<&Field, askama::Error> {
    match reg.fields.as_slice() {
        [f] if f.access == Access::Rw => Ok(f),
        _ => Err(err(format!(
            "register `{}` must hold exactly one RW field (its value)",
            reg.name
        ))),
    }
}

/// A number split over a low and a high register of `bundle`, as `{hi, lo}` and its width.
pub fn split_value(
    bundle: &Bundle,
    lo: &Register,
    hi: &Register,
    idx: &str,
) -> Result<(String, u32), askama::Error> {
    let (fl, fh) = (value_field(lo)?, value_field(hi)?);
    Ok((
        format!(
            "{{{}, {}}}",
            field_expr(bundle, hi, fh, idx),
            field_expr(bundle, lo, fl, idx)
        ),
        fl.width + fh.width,
    ))
}

/// A one-bit control field `f` of the bundle's register `reg` (from the block's layout).
pub fn flag(
    bundle: &Bundle,
    reg: &Register,
    f: &Field,
    idx: &str,
) -> Result<String, askama::Error> {
    if f.width != 1 || f.access != Access::Rw {
        return Err(err(format!(
            "field `{}.{}` must be a single RW bit",
            reg.name, f.name
        )));
    }
    Ok(field_expr(bundle, reg, f, idx))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_bits_cover_count() {
        for n in 1..600u64 {
            let w = index_bits(n);
            assert!(w >= 1);
            assert!(1u64 << w >= n, "n={n} w={w}");
            if n > 2 {
                assert!(1u64 << (w - 1) < n, "n={n} w={w}");
            }
        }
    }

    #[test]
    fn zext_pads_or_refuses() {
        assert_eq!(zext("x", 4, 4).ok().as_deref(), Some("x"));
        assert_eq!(zext("x", 4, 6).ok().as_deref(), Some("{2'h0, x}"));
        assert!(zext("x", 6, 4).is_err());
    }
}
