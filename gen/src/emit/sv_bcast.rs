//! `xdie_sdma_bcast`: the broadcast doorbell. A nonzero write to the m2s_inc or s2m_inc register
//! pulses, for one cycle, the increment valid of every engine the group mask selects, with the
//! selected queue and the written value; UDMA queue groups take it on their `bcast_inc_*` inputs.

use super::sv_regpkg::{package, qualified};
use super::{finish, OutFile, DO_NOT_EDIT};
use askama::Template;
use xdie_csr::{BcastLayout, Block, Csrs, Field, Register};

/// A top-level register and the field the template drives, by package constant names.
struct RegRef {
    offset: String,
    lsb: String,
    reset: String,
}

#[derive(Template)]
#[template(path = "sv/sdma_bcast.sv")]
struct Bcast<'a> {
    header: &'static str,
    pkg: String,
    block: &'a Block,
    aw: u32,
    engines: u32,
    queue_w: u32,
    inc_w: u32,
    group: RegRef,
    queue: RegRef,
    m2s: RegRef,
    s2m: RegRef,
}

fn reg_ref(block: &Block, r: &Register, f: &Field) -> RegRef {
    RegRef {
        offset: qualified(block, &[&r.name, "OFFSET"]),
        lsb: qualified(block, &[&r.name, &f.name, "LSB"]),
        reset: qualified(block, &[&r.name, &f.name, "RESET"]),
    }
}

fn render_block(block: &Block, l: &BcastLayout) -> Result<OutFile, askama::Error> {
    let (group_r, queue_r, m2s_r, s2m_r) = (&l.group, &l.queue_reg, &l.m2s_inc, &l.s2m_inc);
    let (mask, queue) = (&l.mask, &l.queue);
    let (m2s_f, s2m_f) = (&l.inc, &l.s2m_inc_field);
    let t = Bcast {
        header: DO_NOT_EDIT,
        pkg: package(block),
        block,
        aw: block.addr_bits(),
        engines: mask.width,
        queue_w: queue.width,
        inc_w: m2s_f.width,
        group: reg_ref(block, group_r, mask),
        queue: reg_ref(block, queue_r, queue),
        m2s: reg_ref(block, m2s_r, m2s_f),
        s2m: reg_ref(block, s2m_r, s2m_f),
    };
    Ok(OutFile::new(
        format!("rtl/gen/xdie_{}.sv", block.name),
        finish(t.render()?),
    ))
}

pub fn render(csrs: &Csrs) -> Result<Vec<OutFile>, askama::Error> {
    csrs.blocks
        .iter()
        .filter_map(|b| b.bcast().map(|l| render_block(b, l)))
        .collect()
}
