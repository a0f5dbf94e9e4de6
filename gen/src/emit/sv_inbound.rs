//! `xdie_d2d_inbound`: the inbound permission windows of a die. One check port per D2D port
//! (combinational: does some enabled window match this die-local address and grant this
//! direction), the first-refusal capture, the refusal counter and the interrupt. The windows
//! keep flops (every window is compared at once); their reset values are the default windows the
//! loader resolved from `Parameters.DefaultWindows` against the die map. Offsets, bit positions,
//! widths and resets all come from the block's typed layout.

use super::sv_hex;
use super::sv_regpkg::comment_lines;
use super::sv_regs::{err, value_field};
use super::{finish, OutFile, DO_NOT_EDIT};
use askama::Template;
use xdie_csr::{Block, Csrs, Field, InboundLayout, Register, Views};

/// A number split over a low and a high register: offsets and field positions.
struct Split {
    lo_off: String,
    hi_off: String,
    lo_lsb: u32,
    lo_w: u32,
    hi_lsb: u32,
    hi_w: u32,
}

fn split(off_w: u32, lo: &Register, hi: &Register) -> Result<Split, askama::Error> {
    let (fl, fh) = (value_field(lo)?, value_field(hi)?);
    Ok(Split {
        lo_off: sv_hex(off_w, u128::from(lo.offset as u32)),
        hi_off: sv_hex(off_w, u128::from(hi.offset as u32)),
        lo_lsb: fl.lsb,
        lo_w: fl.width,
        hi_lsb: fh.lsb,
        hi_w: fh.width,
    })
}

/// A read-only field placed in a 32-bit word.
fn ro(f: &Field) -> (u32, u32) {
    (f.lsb, f.width)
}

#[derive(Template)]
#[template(path = "sv/inbound_windows.sv")]
struct Inbound {
    header: &'static str,
    module: String,
    description: Vec<String>,
    aw: u32,
    /// Windows, their first offset, the instance stride's bits, and the window part's size.
    n: u64,
    win_base: String,
    win_span: String,
    off_w: u32,
    idx_w: u32,
    /// Die-local address bits (base and mask), SoC address bits (the capture).
    lw: u32,
    sw: u32,
    /// Per-window resets, window N-1 first (packed constants).
    rst_en: String,
    rst_base: String,
    rst_mask: String,
    /// One line per default window for the header comment.
    defaults: Vec<String>,
    ctrl_off: String,
    en_lsb: u32,
    rd_lsb: u32,
    wr_lsb: u32,
    base: Split,
    mask: Split,
    status_off: String,
    valid_lsb: u32,
    write_lsb: u32,
    port_lsb: u32,
    port_w: u32,
    addr_lo_off: String,
    addr_hi_off: String,
    addr_lo: (u32, u32),
    addr_hi: (u32, u32),
    count_off: String,
    count_lsb: u32,
    count_w: u32,
    ctrl2_off: String,
    irq_lsb: u32,
    irq_reset: u32,
    clear_lsb: u32,
}

pub fn render(csrs: &Csrs) -> Result<Vec<OutFile>, askama::Error> {
    csrs.blocks
        .iter()
        .filter_map(|b| b.inbound().map(|l| render_block(b, l, &csrs.views)))
        .collect()
}

fn render_block(block: &Block, l: &InboundLayout, v: &Views) -> Result<OutFile, askama::Error> {
    let aw = block.addr_bits();
    let off = |r: &Register| sv_hex(aw, u128::from(r.offset as u32));
    let w = &l.window;
    let off_w = w.stride.trailing_zeros();
    let n = w.count;
    let idx_w = super::sv_regs::index_bits(n);
    let lw = l.addr_width();
    let (base, mask) = (
        split(off_w, &l.base_lo, &l.base_hi)?,
        split(off_w, &l.mask_lo, &l.mask_hi)?,
    );
    if base.lo_w + base.hi_w != lw || mask.lo_w + mask.hi_w != lw {
        return Err(err(format!(
            "inbound block `{}`: base and mask must each hold {lw} bits",
            block.name
        )));
    }
    let sw = l.err_addr_lo.fields[0].width + l.err_addr_hi.fields[0].width;
    let reset = v.inbound_reset();
    if reset.len() as u64 != n {
        return Err(err(format!(
            "inbound block `{}`: {} reset windows for {n} windows",
            block.name,
            reset.len()
        )));
    }
    let packed = |width: u32, f: &dyn Fn(&(xdie_csr::InboundWindow, bool, bool)) -> u128| {
        let parts: Vec<String> = reset.iter().rev().map(|r| sv_hex(width, f(r))).collect();
        format!("{{{}}}", parts.join(", "))
    };
    let defaults = v
        .inbound_defaults
        .iter()
        .enumerate()
        .map(|(i, d)| {
            format!(
                "window {i}: {:<16} base {:#x}, mask {:#x}",
                d.name, d.window.base, d.window.mask
            )
        })
        .collect();
    let t = Inbound {
        header: DO_NOT_EDIT,
        module: format!("xdie_{}", block.name),
        description: comment_lines(&block.description, 0, 100),
        aw,
        n,
        win_base: sv_hex(aw, u128::from(w.offset)),
        win_span: sv_hex(aw + 1, u128::from(w.count * w.stride)),
        off_w,
        idx_w,
        lw,
        sw,
        rst_en: packed(1, &|r| u128::from(r.1 || r.2)),
        rst_base: packed(lw, &|r| u128::from(r.0.base)),
        rst_mask: packed(lw, &|r| u128::from(r.0.mask)),
        defaults,
        ctrl_off: sv_hex(off_w, u128::from(l.ctrl.offset as u32)),
        en_lsb: l.enable.lsb,
        rd_lsb: l.read.lsb,
        wr_lsb: l.write.lsb,
        base,
        mask,
        status_off: off(&l.err_status),
        valid_lsb: l.err_valid.lsb,
        write_lsb: l.err_write.lsb,
        port_lsb: l.err_port.lsb,
        port_w: l.err_port.width,
        addr_lo_off: off(&l.err_addr_lo),
        addr_hi_off: off(&l.err_addr_hi),
        addr_lo: ro(&l.err_addr_lo.fields[0]),
        addr_hi: ro(&l.err_addr_hi.fields[0]),
        count_off: off(&l.err_count),
        count_lsb: l.count.lsb,
        count_w: l.count.width,
        ctrl2_off: off(&l.err_ctrl),
        irq_lsb: l.irq_enable.lsb,
        irq_reset: (l.irq_enable.reset & 1) as u32,
        clear_lsb: l.count_clear.lsb,
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

    #[test]
    fn window_count_and_resets_follow_the_model() {
        let csrs = csrs();
        let (block, l) = csrs
            .blocks
            .iter()
            .find_map(|b| b.inbound().map(|l| (b, l)))
            .expect("an inbound_windows block");
        let text = render_block(block, l, &csrs.views)
            .expect("renders")
            .contents;
        assert!(text.contains(&format!("localparam int unsigned N  = {};", l.windows())));
        for d in &csrs.views.inbound_defaults {
            let lit = sv_hex(l.addr_width(), u128::from(d.window.base));
            assert!(
                text.contains(&lit),
                "default base {lit} of {} missing",
                d.name
            );
        }
        for r in [&l.err_status, &l.err_count, &l.err_ctrl] {
            let lit = sv_hex(block.addr_bits(), u128::from(r.offset as u32));
            assert!(text.contains(&lit), "offset {lit} of `{}` missing", r.name);
        }
    }
}
