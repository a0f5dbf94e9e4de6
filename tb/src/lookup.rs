//! Reference lookups of the translation blocks, computed from the reference register model:
//! iATU outbound regions and xt remap windows. Register and field positions come from the
//! blocks' typed layouts.

use crate::regmodel::{Expect, RegModel};
use xdie_csr::{Bundle, Field, Register};

fn value(model: &RegModel, bundle: &Bundle, i: u64, reg: &Register) -> u64 {
    match model.read(bundle.reg_offset(i, reg)) {
        Expect::Value(v) => u64::from(v),
        other => panic!("{}[{i}].{} reads {other:?}", bundle.name, reg.name),
    }
}

fn flag(model: &RegModel, bundle: &Bundle, i: u64, reg: &Register, f: &Field) -> bool {
    value(model, bundle, i, reg) & u64::from(f.reg_mask()) != 0
}

fn pair(model: &RegModel, bundle: &Bundle, i: u64, lo: &Register, hi: &Register) -> u64 {
    value(model, bundle, i, lo) | (value(model, bundle, i, hi) << 32)
}

/// iATU: the lowest enabled region with base <= addr <= limit translates addr - base + target.
pub fn iatu(model: &RegModel, addr: u64) -> Option<(u64, u64)> {
    let l = model.block.iatu()?;
    let b = &l.region;
    (0..b.count).find_map(|i| {
        let base = pair(model, b, i, &l.base_lo, &l.base_hi);
        let limit = pair(model, b, i, &l.limit_lo, &l.limit_hi);
        let target = pair(model, b, i, &l.target_lo, &l.target_hi);
        (flag(model, b, i, &l.ctrl, &l.enable) && base <= addr && addr <= limit)
            .then(|| (i, addr.wrapping_sub(base).wrapping_add(target)))
    })
}

/// Remap windows: the lowest valid window that matches `x` (range or match mode) maps it onto
/// a SoC address of `soc_width` bits.
pub fn remap(model: &RegModel, x: u32, soc_width: u32) -> Option<(u64, u64)> {
    let r = model.block.remap()?;
    let b = &r.window;
    let soc_mask = (1u64 << soc_width) - 1;
    let x = u64::from(x);
    (0..b.count).find_map(|i| {
        if !flag(model, b, i, &r.ctrl, &r.valid) {
            return None;
        }
        if flag(model, b, i, &r.ctrl, &r.mode) {
            let mask = value(model, b, i, &r.mask);
            let keep = !mask & 0xFFFF_FFFF;
            let repl = pair(model, b, i, &r.replace_lo, &r.replace_hi);
            ((x & mask) == value(model, b, i, &r.match_))
                .then_some((i, ((repl & !keep) | (x & keep)) & soc_mask))
        } else {
            let u = value(model, b, i, &r.u_mask);
            let l = value(model, b, i, &r.l_mask);
            let soc = pair(model, b, i, &r.soc_lo, &r.soc_hi);
            ((x & u) == (value(model, b, i, &r.xt_addr) & u))
                .then_some((i, ((soc & !l) | (x & l)) & soc_mask))
        }
    })
}
