//! `xdie_remap_windows`: the xt remap windows. Storage and readback come from the shared register
//! macros; this module adds the xt -> SoC lookup.
//!
//! Lookup semantics (xdie's reconstruction of the seed's program_window, also in the block
//! description): a window takes part when VALID is set.
//!   MODE = 0 (range): matches when (x & u_mask) == (xt_addr & u_mask);
//!                     soc = (soc_addr & ~L) | (x & L), L = l_mask zero-extended.
//!   MODE = 1 (match): matches when (x & mask) == match;
//!                     soc = (replace & ~K) | (x & K), K = ~mask zero-extended: the bits the
//!                     match ignores pass through from the xt address.
//! The lowest-numbered valid matching window wins; with none, hit is 0 and the SoC address 0.

use super::sv_regpkg::comment_lines;
use super::sv_regs::{err, flag, index_bits, value_field, zext, HwInputs, RegFile};
use super::{finish, OutFile, DO_NOT_EDIT};
use askama::Template;
use xdie_csr::{Block, Csrs, Register, RemapLayout};

/// Index variable of the per-window loops in the template.
const IDX: &str = "i";
/// Index signal of the winning window.
const SEL: &str = "win_sel";

#[derive(Template)]
#[template(path = "sv/remap_windows.sv")]
struct Remap {
    header: &'static str,
    module: String,
    description: Vec<String>,
    rf: RegFile,
    count_name: String,
    idx_w: u32,
    xt_w: u32,
    soc_w: u32,
    /// Per window `i`: valid, mode, and the four words of the two match rules.
    valid_i: String,
    mode_i: String,
    xt_i: String,
    u_mask_i: String,
    mask_i: String,
    match_i: String,
    /// Rule words of the winning window.
    mode_sel: String,
    l_mask_sel: String,
    mask_sel: String,
    soc_sel: String,
    replace_sel: String,
    /// `keep` and `xt_addr_i & keep` zero-extended to the SoC width.
    keep_ext: String,
    pass_ext: String,
}

pub fn render(csrs: &Csrs) -> Result<Vec<OutFile>, askama::Error> {
    csrs.blocks
        .iter()
        .filter_map(|b| b.remap().map(|l| render_block(b, l, csrs.soc.width)))
        .collect()
}

fn render_block(block: &Block, l: &RemapLayout, soc_w: u32) -> Result<OutFile, askama::Error> {
    let missing = |what: &str| err(format!("remap block `{}` has no {what}", block.name));
    let mut rf = RegFile::new(block, &HwInputs::new())?;
    let bundle = &l.window;
    // Every window compares its control, xt address and masks at once: those keep flops. The
    // winning window's rule words are read from the memories at its index.
    rf.keep_flops(
        bundle,
        &[&l.ctrl, &l.xt_addr, &l.u_mask, &l.mask, &l.match_],
    )?;
    // One xt-wide word of window `idx`: from the flops for every window, else from the memory.
    let mut word = |r: &Register, idx: &str| -> Result<(String, u32), askama::Error> {
        let f = value_field(r)?;
        let e = if idx == IDX {
            super::sv_regs::field_expr(bundle, r, f, idx)
        } else {
            rf.pick_field(bundle, r, f, idx)?
        };
        Ok((e, f.width))
    };
    let (xt_i, xt_w) = word(&l.xt_addr, IDX)?;
    let mut words = Vec::new();
    for (r, idx) in [
        (&l.u_mask, IDX),
        (&l.mask, IDX),
        (&l.match_, IDX),
        (&l.l_mask, SEL),
        (&l.mask, SEL),
    ] {
        let (e, w) = word(r, idx)?;
        if w != xt_w {
            let role = r.role.map_or("", |x| x.as_str());
            return Err(err(format!(
                "remap block `{}`: `{role}` is {w} bits but xt_addr is {xt_w}",
                block.name
            )));
        }
        words.push(e);
    }
    let [u_mask_i, mask_i, match_i, l_mask_sel, mask_sel] =
        <[String; 5]>::try_from(words).map_err(|_| err("internal: word count"))?;
    let (soc_sel, w1) = rf.pick_split(bundle, &l.soc_lo, &l.soc_hi, SEL)?;
    let (replace_sel, w2) = rf.pick_split(bundle, &l.replace_lo, &l.replace_hi, SEL)?;
    // The mode bit of the winner: checked as a flag, read from the memory.
    flag(bundle, &l.ctrl, &l.mode, SEL)?;
    let mode_sel = rf.pick_field(bundle, &l.ctrl, &l.mode, SEL)?;
    if w1 != soc_w || w2 != soc_w {
        return Err(err(format!(
            "remap block `{}`: soc_lo/soc_hi ({w1} bits) and replace_lo/replace_hi ({w2} bits) \
             must together be as wide as the SoC address ({soc_w} bits)",
            block.name
        )));
    }
    let t = Remap {
        header: DO_NOT_EDIT,
        module: format!("xdie_{}", block.name),
        description: comment_lines(&block.description, 0, 100),
        count_name: rf
            .array(bundle)
            .ok_or_else(|| missing("window storage"))?
            .count_name
            .clone(),
        idx_w: index_bits(bundle.count),
        xt_w,
        soc_w,
        valid_i: flag(bundle, &l.ctrl, &l.valid, IDX)?,
        mode_i: flag(bundle, &l.ctrl, &l.mode, IDX)?,
        mode_sel,
        xt_i,
        u_mask_i,
        mask_i,
        match_i,
        l_mask_sel,
        mask_sel,
        soc_sel,
        replace_sel,
        keep_ext: zext("keep", xt_w, soc_w)?,
        pass_ext: zext("(xt_addr_i & keep)", xt_w, soc_w)?,
        rf,
    };
    Ok(OutFile::new(
        format!("rtl/gen/xdie_{}.sv", block.name),
        finish(t.render()?),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn csrs() -> Csrs {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../csrs");
        xdie_csr::load(&dir).expect("the repository's csrs/ load")
    }

    fn remap(csrs: &Csrs) -> (&Block, &RemapLayout) {
        csrs.blocks
            .iter()
            .find_map(|b| b.remap().map(|l| (b, l)))
            .expect("a remap block")
    }

    #[test]
    fn ports_follow_the_model() {
        let csrs = csrs();
        let (block, l) = remap(&csrs);
        let text = render_block(block, l, csrs.soc.width)
            .expect("renders")
            .contents;
        let win = &l.window;
        let xt = value_field(&l.xt_addr).expect("one field");
        assert!(text.contains(&format!("[{}:0] xt_addr_i", xt.width - 1)));
        assert!(text.contains(&format!("[{}:0] soc_addr_o", csrs.soc.width - 1)));
        assert!(text.contains(&format!("[{}:0]  win_o", index_bits(win.count) - 1)));
    }

    #[test]
    fn a_soc_split_that_does_not_cover_the_soc_width_is_refused() {
        let csrs = csrs();
        let (block, l) = remap(&csrs);
        assert!(render_block(block, l, csrs.soc.width + 1).is_err());
    }
}
