//! Reference lookups of the translation blocks, computed from the reference register model:
//! iATU outbound regions and xt remap windows. Register and field positions come by role.

use crate::regmodel::{Expect, RegModel};
use xdie_csr::Bundle;

fn value(model: &RegModel, bundle: &Bundle, i: u64, role: &str) -> u64 {
    let reg = bundle
        .reg_by_role(role)
        .unwrap_or_else(|| panic!("{} has no {role} register", bundle.name));
    match model.read(bundle.reg_offset(i, reg)) {
        Expect::Value(v) => u64::from(v),
        other => panic!("{}[{i}].{role} reads {other:?}", bundle.name),
    }
}

fn flag(model: &RegModel, bundle: &Bundle, i: u64, reg: &str, field: &str) -> bool {
    let r = bundle.reg_by_role(reg).expect("register role");
    let f = r.field_by_role(field).expect("field role");
    value(model, bundle, i, reg) & u64::from(f.reg_mask()) != 0
}

fn pair(model: &RegModel, bundle: &Bundle, i: u64, lo: &str, hi: &str) -> u64 {
    value(model, bundle, i, lo) | (value(model, bundle, i, hi) << 32)
}

/// iATU: the lowest enabled region with base <= addr <= limit translates addr - base + target.
pub fn iatu(model: &RegModel, addr: u64) -> Option<(u64, u64)> {
    let b = model.block.bundle_by_role("region")?;
    (0..b.count).find_map(|i| {
        let base = pair(model, b, i, "base_lo", "base_hi");
        let limit = pair(model, b, i, "limit_lo", "limit_hi");
        let target = pair(model, b, i, "target_lo", "target_hi");
        (flag(model, b, i, "ctrl", "enable") && base <= addr && addr <= limit)
            .then(|| (i, addr.wrapping_sub(base).wrapping_add(target)))
    })
}

/// Remap windows: the lowest valid window that matches `x` (range or match mode) maps it onto
/// a SoC address of `soc_width` bits.
pub fn remap(model: &RegModel, x: u32, soc_width: u32) -> Option<(u64, u64)> {
    let b = model.block.bundle_by_role("window")?;
    let soc_mask = (1u64 << soc_width) - 1;
    let x = u64::from(x);
    (0..b.count).find_map(|i| {
        if !flag(model, b, i, "ctrl", "valid") {
            return None;
        }
        if flag(model, b, i, "ctrl", "mode") {
            let mask = value(model, b, i, "mask");
            let keep = !mask & 0xFFFF_FFFF;
            let repl = pair(model, b, i, "replace_lo", "replace_hi");
            ((x & mask) == value(model, b, i, "match"))
                .then_some((i, ((repl & !keep) | (x & keep)) & soc_mask))
        } else {
            let u = value(model, b, i, "u_mask");
            let l = value(model, b, i, "l_mask");
            let soc = pair(model, b, i, "soc_lo", "soc_hi");
            ((x & u) == (value(model, b, i, "xt_addr") & u))
                .then_some((i, ((soc & !l) | (x & l)) & soc_mask))
        }
    })
}
