//! `xdie_evt_sem`: events and semaphores. Four address windows (READ, SET, INC, DEC) share one
//! storage of signed semaphores; bus writes, hardware increment ports and the sequencer port all
//! land in the same cycle without losing an update. The storage is memories FPGA tools map to
//! LUT-RAM: a semaphore is the sum of a main bank (bus or sequencer) and one bank per hardware
//! increment port, each bank with one write port and one adder; valid flops stand in for a reset
//! of the banks (see the template's header for why).

use super::sv_regpkg::{package, qualified};
use super::sv_regs::index_bits;
use super::{finish, OutFile, DO_NOT_EDIT};
use askama::Template;
use xdie_csr::{Block, Bundle, Csrs, EvtSemLayout, SemOp};

/// One address window the bus decodes (the event bundle or a semaphore window).
struct Window {
    /// Local prefix of the window's signals and localparams.
    tag: &'static str,
    base: String,
    last: String,
    offset: String,
    /// log2 of the stride: the index starts at this address bit.
    shift: u32,
    /// Index bits.
    iw: u32,
    /// Skip bound checks that are constant (Verilator flags `addr >= 0`).
    check_lo: bool,
    check_hi: bool,
}

#[derive(Template)]
#[template(path = "sv/evt_sem.sv")]
struct EvtSem<'a> {
    header: &'static str,
    pkg: String,
    block: &'a Block,
    aw: u32,
    n_evt: u64,
    evt_iw: u32,
    evt_lsb: u32,
    evt_reset: String,
    n_sem: u64,
    sem_iw: u32,
    sem_w: u32,
    sem_lsb: u32,
    sem_reset: String,
    /// N is a power of two: every index is in range, no check needed.
    sem_pow2: bool,
    hw_ports: u32,
    subop_bits: u32,
    subop_wait: String,
    subop_inc: String,
    windows: Vec<Window>,
}

fn window(block: &Block, tag: &'static str, b: &Bundle) -> Window {
    let reg = &b.registers[0];
    let last = b.offset + b.count * b.stride - 1;
    Window {
        tag,
        base: qualified(block, &[&b.name, "BASE"]),
        last: qualified(block, &[&b.name, "LAST"]),
        offset: qualified(block, &[&b.name, &reg.name, "OFFSET"]),
        shift: b.stride.trailing_zeros(),
        iw: index_bits(b.count),
        check_lo: b.offset != 0,
        check_hi: last != block.size - 1,
    }
}

fn render_block(block: &Block, l: &EvtSemLayout) -> Result<OutFile, askama::Error> {
    let p = &l.params;
    let evt = &l.events;
    let rd = &l.window(SemOp::Read).bundle;
    // The loader resolved each window's only register and field.
    let (evt_reg, evt_field) = (&l.event_reg, &l.event_flag);
    let (sem_reg, sem_field) = (&l.window(SemOp::Read).reg, &l.window(SemOp::Read).value);
    let windows = vec![
        window(block, "EVT", evt),
        window(block, "RD", rd),
        window(block, "SET", &l.window(SemOp::Set).bundle),
        window(block, "INC", &l.window(SemOp::Inc).bundle),
        window(block, "DEC", &l.window(SemOp::Dec).bundle),
    ];
    let t = EvtSem {
        header: DO_NOT_EDIT,
        pkg: package(block),
        block,
        aw: block.addr_bits(),
        n_evt: evt.count,
        evt_iw: index_bits(evt.count),
        evt_lsb: evt_field.lsb,
        evt_reset: qualified(block, &[&evt.name, &evt_reg.name, &evt_field.name, "RESET"]),
        n_sem: rd.count,
        sem_iw: index_bits(rd.count),
        sem_w: sem_field.width,
        sem_lsb: sem_field.lsb,
        sem_reset: qualified(block, &[&rd.name, &sem_reg.name, &sem_field.name, "RESET"]),
        sem_pow2: rd.count.is_power_of_two(),
        hw_ports: p.hw_inc_ports,
        subop_bits: p.seq_subop_bits,
        subop_wait: qualified(block, &["SEQ_SUBOP_WAIT_GE_DEC"]),
        subop_inc: qualified(block, &["SEQ_SUBOP_INC"]),
        windows,
    };
    Ok(OutFile::new(
        format!("rtl/gen/xdie_{}.sv", block.name),
        finish(t.render()?),
    ))
}

pub fn render(csrs: &Csrs) -> Result<Vec<OutFile>, askama::Error> {
    csrs.blocks
        .iter()
        .filter_map(|b| b.evt_sem().map(|l| render_block(b, l)))
        .collect()
}
