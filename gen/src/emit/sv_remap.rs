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
use super::sv_regs::{err, field_reset, flag, index_bits, value_field, zext, HwInputs, RegFile};
use super::{finish, sv_hex, OutFile, DO_NOT_EDIT};
use askama::Template;
use xdie_csr::{Block, Csrs, Register, RemapLayout};

/// Index signal of the winning window, and the same as a one-hot vector.
const SEL: &str = "win_sel";
const FIRST: &str = "win_first";

#[derive(Template)]
#[template(path = "sv/remap_windows.sv")]
struct Remap {
    header: &'static str,
    module: String,
    description: Vec<String>,
    rf: RegFile,
    count_name: String,
    /// Decode signals of a register request: window selected, and its index.
    req_sel: String,
    req_idx: String,
    idx_w: u32,
    xt_w: u32,
    soc_w: u32,
    /// Valid, mode and the four words of the two match rules, of the window a register request
    /// addresses, as they stand after the request.
    valid_nx: String,
    mode_nx: String,
    xt_nx: String,
    u_mask_nx: String,
    mask_nx: String,
    match_nx: String,
    /// Reset values of a window's compare rule: valid, compare mask, compare value.
    valid_reset: String,
    cmp_mask_reset: String,
    cmp_val_reset: String,
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
    // The rule update below reads every rule word of the addressed window; its written-since-
    // reset flags come from flops decoded ahead (timing).
    rf.decode_ok_ahead(bundle)?;
    // Every window compares at once, so each keeps its rule in flops: valid, and one compare
    // mask and value (mask and match in match mode, u_mask and xt_addr & u_mask in range mode),
    // rewritten from the window's words as they stand after a write to it. Those words and the
    // winning window's rule words are read from the memories; the winner's written-since-reset
    // flags are picked by its one-hot vector (`win_first`).
    let xt_f = value_field(&l.xt_addr)?;
    let xt_w = xt_f.width;
    let xt_nx = rf.next_field(bundle, &l.xt_addr, xt_f)?;
    let mut nexts = Vec::new();
    let mut resets = Vec::new();
    for r in [&l.u_mask, &l.mask, &l.match_] {
        let f = value_field(r)?;
        check_width(block, r, f.width, xt_w)?;
        nexts.push(rf.next_field(bundle, r, f)?);
        resets.push(field_reset(r, f));
    }
    let [u_mask_nx, mask_nx, match_nx] =
        <[String; 3]>::try_from(nexts).map_err(|_| err("internal: word count"))?;
    let [u_mask_r, mask_r, match_r] =
        <[u32; 3]>::try_from(resets).map_err(|_| err("internal: word count"))?;
    // Both control bits are checked as flags (single RW bits).
    flag(bundle, &l.ctrl, &l.valid, SEL)?;
    flag(bundle, &l.ctrl, &l.mode, SEL)?;
    let valid_nx = rf.next_field(bundle, &l.ctrl, &l.valid)?;
    let mode_nx = rf.next_field(bundle, &l.ctrl, &l.mode)?;
    let (cmp_mask_r, cmp_val_r) = if field_reset(&l.ctrl, &l.mode) != 0 {
        (mask_r, match_r)
    } else {
        (u_mask_r, field_reset(&l.xt_addr, xt_f) & u_mask_r)
    };
    let mut sel_word = |r: &Register| -> Result<String, askama::Error> {
        let f = value_field(r)?;
        check_width(block, r, f.width, xt_w)?;
        rf.pick_field_onehot(bundle, r, f, SEL, FIRST)
    };
    let l_mask_sel = sel_word(&l.l_mask)?;
    let mask_sel = sel_word(&l.mask)?;
    let (soc_sel, w1) = rf.pick_split_onehot(bundle, &l.soc_lo, &l.soc_hi, SEL, FIRST)?;
    let (replace_sel, w2) =
        rf.pick_split_onehot(bundle, &l.replace_lo, &l.replace_hi, SEL, FIRST)?;
    // The mode bit of the winner, read from the memory.
    let mode_sel = rf.pick_field_onehot(bundle, &l.ctrl, &l.mode, SEL, FIRST)?;
    if w1 != soc_w || w2 != soc_w {
        return Err(err(format!(
            "remap block `{}`: soc_lo/soc_hi ({w1} bits) and replace_lo/replace_hi ({w2} bits) \
             must together be as wide as the SoC address ({soc_w} bits)",
            block.name
        )));
    }
    let a = rf.array(bundle).ok_or_else(|| missing("window storage"))?;
    let t = Remap {
        header: DO_NOT_EDIT,
        module: format!("xdie_{}", block.name),
        description: comment_lines(&block.description, 0, 100),
        count_name: a.count_name.clone(),
        req_sel: format!("{}_sel", a.prefix),
        req_idx: format!("{}_idx", a.prefix),
        idx_w: index_bits(bundle.count),
        xt_w,
        soc_w,
        valid_nx,
        mode_nx,
        xt_nx,
        u_mask_nx,
        mask_nx,
        match_nx,
        valid_reset: sv_hex(1, field_reset(&l.ctrl, &l.valid) as u128),
        cmp_mask_reset: sv_hex(xt_w, cmp_mask_r as u128),
        cmp_val_reset: sv_hex(xt_w, cmp_val_r as u128),
        mode_sel,
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

/// A rule word of the remap block must be as wide as the xt address.
fn check_width(block: &Block, r: &Register, w: u32, xt_w: u32) -> Result<(), askama::Error> {
    if w == xt_w {
        return Ok(());
    }
    let role = r.role.map_or("", |x| x.as_str());
    Err(err(format!(
        "remap block `{}`: `{role}` is {w} bits but xt_addr is {xt_w}",
        block.name
    )))
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
