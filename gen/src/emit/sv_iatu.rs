//! `xdie_d2d_iatu`: the D2D controller's iATU outbound regions and link status. Storage and
//! readback come from the shared register macros; this module adds the region lookup.

use super::sv_regs::{err, flag, range, split_value, HwInputs, RegFile};
use super::{finish, OutFile, DO_NOT_EDIT};
use crate::model::{Block, BlockKind, Csrs};
use askama::Template;

/// Index variable of the per-region loops in the template.
const IDX: &str = "i";
/// Index signal of the winning region.
const SEL: &str = "region_sel";

#[derive(Template)]
#[template(path = "sv/iatu.sv")]
struct Iatu<'a> {
    header: &'static str,
    module: String,
    description: &'a str,
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
        .filter(|b| b.kind == BlockKind::Iatu)
        .map(render_block)
        .collect()
}

fn render_block(block: &Block) -> Result<OutFile, askama::Error> {
    let missing = |what: &str| err(format!("iatu block `{}` has no {what}", block.name));
    let link = block
        .reg_by_role("link_status")
        .ok_or_else(|| missing("link_status register"))?;
    let link_up = link
        .field_by_role("link_up")
        .ok_or_else(|| missing("link_up field"))?;
    let credits = link
        .field_by_role("credits")
        .ok_or_else(|| missing("credits field"))?;
    let hw: HwInputs = [("link_up", "link_up_i"), ("credits", "credits_i")]
        .into_iter()
        .collect();
    let rf = RegFile::new(block, &hw)?;

    let bundle = block
        .bundle_by_role("region")
        .ok_or_else(|| missing("region bundle"))?;
    let reg = |role: &str| {
        bundle
            .reg_by_role(role)
            .ok_or_else(|| missing(&format!("{role} register")))
    };
    let value = |lo: &str, hi: &str, idx: &str| split_value(bundle, reg(lo)?, reg(hi)?, idx);
    let (base_i, addr_w) = value("base_lo", "base_hi", IDX)?;
    let (limit_i, limit_w) = value("limit_lo", "limit_hi", IDX)?;
    let (base_sel, _) = value("base_lo", "base_hi", SEL)?;
    let (target_sel, target_w) = value("target_lo", "target_hi", SEL)?;
    if limit_w != addr_w || target_w != addr_w {
        return Err(err(format!(
            "iatu block `{}`: base ({addr_w} bits), limit ({limit_w}) and target ({target_w}) \
             must have the same width",
            block.name
        )));
    }
    let enable_i = flag(bundle, "ctrl", "enable", IDX)?;

    let regions = rf.array(bundle).ok_or_else(|| missing("region storage"))?;
    let (count_name, idx_w) = (regions.count_name.clone(), regions.idx_w);
    let t = Iatu {
        header: DO_NOT_EDIT,
        module: format!("xdie_{}", block.name),
        description: &block.description,
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
        format!("rtl/xdie_{}.sv", block.name),
        finish(t.render()?),
    ))
}
