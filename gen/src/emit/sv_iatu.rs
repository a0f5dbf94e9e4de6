//! `xdie_d2d_iatu`: the D2D controller's iATU outbound regions and link status. Storage and
//! readback come from the shared register macros; this module adds the region lookup.

use super::sv_regpkg::comment_lines;
use super::sv_regs::{err, flag, range, split_value, HwInputs, RegFile};
use super::{finish, OutFile, DO_NOT_EDIT};
use askama::Template;
use xdie_csr::{Block, Csrs, FieldRole, IatuLayout};

/// Index variable of the per-region loops in the template.
const IDX: &str = "i";
/// Index signal of the winning region.
const SEL: &str = "region_sel";

#[derive(Template)]
#[template(path = "sv/iatu.sv")]
struct Iatu {
    header: &'static str,
    module: String,
    description: Vec<String>,
    rf: RegFile,
    /// Constant naming the region count, and the width of a region index.
    count_name: String,
    idx_w: u32,
    /// Address width of the lookup port (the hi and lo words of a base).
    addr_w: u32,
    link_up_range: String,
    credits_range: String,
    /// Per region `i`: enable bit, base, limit (each an SV expression).
    enable_i: String,
    base_i: String,
    limit_i: String,
    /// The winning region's base and target.
    base_sel: String,
    target_sel: String,
}

pub fn render(csrs: &Csrs) -> Result<Vec<OutFile>, askama::Error> {
    csrs.blocks
        .iter()
        .filter_map(|b| b.iatu().map(|l| render_block(b, l)))
        .collect()
}

fn render_block(block: &Block, l: &IatuLayout) -> Result<OutFile, askama::Error> {
    let missing = |what: &str| err(format!("iatu block `{}` has no {what}", block.name));
    let (link_up, credits) = (&l.link_up, &l.credits);
    let hw: HwInputs = [
        (FieldRole::LinkUp, "link_up_i"),
        (FieldRole::Credits, "credits_i"),
    ]
    .into_iter()
    .collect();
    let mut rf = RegFile::new(block, &hw)?;

    let bundle = &l.region;
    // Every region compares its enable, base and limit at once: those keep flops. The winning
    // region's base and target are read from the memories at its index.
    rf.keep_flops(
        bundle,
        &[&l.ctrl, &l.base_lo, &l.base_hi, &l.limit_lo, &l.limit_hi],
    )?;
    let value = |lo, hi, idx: &str| split_value(bundle, lo, hi, idx);
    let (base_i, addr_w) = value(&l.base_lo, &l.base_hi, IDX)?;
    let (limit_i, limit_w) = value(&l.limit_lo, &l.limit_hi, IDX)?;
    let (base_sel, _) = rf.pick_split(bundle, &l.base_lo, &l.base_hi, SEL)?;
    let (target_sel, target_w) = rf.pick_split(bundle, &l.target_lo, &l.target_hi, SEL)?;
    if limit_w != addr_w || target_w != addr_w {
        return Err(err(format!(
            "iatu block `{}`: base ({addr_w} bits), limit ({limit_w}) and target ({target_w}) \
             must have the same width",
            block.name
        )));
    }
    let enable_i = flag(bundle, &l.ctrl, &l.enable, IDX)?;

    let regions = rf.array(bundle).ok_or_else(|| missing("region storage"))?;
    let (count_name, idx_w) = (regions.count_name.clone(), regions.idx_w);
    let t = Iatu {
        header: DO_NOT_EDIT,
        module: format!("xdie_{}", block.name),
        description: comment_lines(&block.description, 0, 100),
        rf,
        count_name,
        idx_w,
        addr_w,
        link_up_range: range(link_up.width),
        credits_range: range(credits.width),
        enable_i,
        base_i,
        limit_i,
        base_sel,
        target_sel,
    };
    Ok(OutFile::new(
        format!("rtl/gen/xdie_{}.sv", block.name),
        finish(t.render()?),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emit::sv_hex;
    use crate::emit::sv_regs::index_bits;
    use std::path::Path;

    fn csrs() -> Csrs {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../csrs");
        xdie_csr::load(&dir).expect("the repository's csrs/ load")
    }

    fn iatu(csrs: &Csrs) -> (&Block, &IatuLayout) {
        csrs.blocks
            .iter()
            .find_map(|b| b.iatu().map(|l| (b, l)))
            .expect("an iatu block")
    }

    #[test]
    fn every_region_register_is_decoded_at_its_model_offset() {
        let csrs = csrs();
        let (block, l) = iatu(&csrs);
        let text = render_block(block, l).expect("renders").contents;
        let regions = &l.region;
        let off_w = regions.stride.trailing_zeros();
        for r in &regions.registers {
            let item = format!("{}: begin", sv_hex(off_w, r.offset as u128));
            assert!(text.contains(&item), "no readback case for {}", r.name);
        }
        let link = &l.link_status;
        let item = format!("{}: begin", sv_hex(block.addr_bits(), link.offset as u128));
        assert!(text.contains(&item));
    }

    #[test]
    fn region_count_follows_the_model() {
        let csrs = csrs();
        let (block, l) = iatu(&csrs);
        // The same edit in the generic bundle (storage) and the layout (lookup).
        let (mut block, mut l) = (block.clone(), l.clone());
        l.region.count /= 2;
        let count = l.region.count;
        let b = block
            .bundles
            .iter_mut()
            .find(|b| b.name == l.region.name)
            .expect("region bundle");
        b.count = count;
        let text = render_block(&block, &l).expect("renders").contents;
        assert!(text.contains(&format!("_N = {count};")));
        let w = index_bits(count);
        assert!(text.contains(&format!("[{}:0]  lookup_region_o", w - 1)));
    }
}
