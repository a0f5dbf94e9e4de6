//! `xdie_sem_seq`: the sequencer command slots in front of EVT_SEM's sequencer port. A write to a
//! slot's CMD posts one command (semaphore, subop, the slot's VALUE); the slots take turns on the
//! port and a command that EVT_SEM does not take (a wait not yet satisfied) gives the port to the
//! next slot and is retried on its next turn. STATUS shows busy and err per slot.

use super::sv_regpkg::{package, qualified};
use super::sv_regs::index_bits;
use super::{finish, OutFile, DO_NOT_EDIT};
use askama::Template;
use xdie_csr::{Block, Csrs, Field, Register, SemSeqLayout};

/// A register of the slot bundle and one field of it, by package constant names.
struct FieldRef {
    offset: String,
    lsb: String,
    width: u32,
    reset: String,
}

#[derive(Template)]
#[template(path = "sv/sem_seq.sv")]
struct SemSeq<'a> {
    header: &'static str,
    pkg: String,
    block: &'a Block,
    aw: u32,
    n_slot: u64,
    slot_iw: u32,
    slot_base: String,
    slot_last: String,
    /// log2 of the slot stride: the slot index starts at this address bit.
    shift: u32,
    /// The slot-range condition (bounds that are constant are left out: Verilator flags them).
    hit: String,
    check_hi: bool,
    value: FieldRef,
    sem: FieldRef,
    subop: FieldRef,
    /// Semaphores of the die's EVT_SEM, and the bits of its sequencer index.
    n_sem: u64,
    evt_iw: u32,
    /// The SEM field can name a semaphore past the last: check on posting.
    sem_check: bool,
    status: String,
    busy_lsb: String,
    err_lsb: String,
}

fn field_ref(block: &Block, bundle: &str, r: &Register, f: &Field) -> FieldRef {
    FieldRef {
        offset: qualified(block, &[bundle, &r.name, "OFFSET"]),
        lsb: qualified(block, &[bundle, &r.name, &f.name, "LSB"]),
        width: f.width,
        reset: qualified(block, &[bundle, &r.name, &f.name, "RESET"]),
    }
}

fn render_block(block: &Block, l: &SemSeqLayout, n_sem: u64) -> Result<OutFile, askama::Error> {
    let b = &l.slot;
    let last = b.offset + b.count * b.stride - 1;
    let t = SemSeq {
        header: DO_NOT_EDIT,
        pkg: package(block),
        block,
        aw: block.addr_bits(),
        n_slot: b.count,
        slot_iw: index_bits(b.count),
        slot_base: qualified(block, &[&b.name, "BASE"]),
        slot_last: qualified(block, &[&b.name, "LAST"]),
        shift: b.stride.trailing_zeros(),
        hit: {
            let mut c = Vec::new();
            if b.offset != 0 {
                c.push("(req_addr >= SLOT_BASE)");
            }
            if last != block.size - 1 {
                c.push("(req_addr <= SLOT_LAST)");
            }
            if c.is_empty() {
                "1'b1".to_string()
            } else {
                c.join(" && ")
            }
        },
        check_hi: last != block.size - 1,
        value: field_ref(block, &b.name, &l.value_reg, &l.value),
        sem: field_ref(block, &b.name, &l.cmd, &l.sem),
        subop: field_ref(block, &b.name, &l.cmd, &l.subop),
        n_sem,
        evt_iw: index_bits(n_sem),
        sem_check: (1u128 << l.sem.width) > u128::from(n_sem),
        status: qualified(block, &[&b.name, &l.status.name, "OFFSET"]),
        busy_lsb: qualified(block, &[&b.name, &l.status.name, &l.busy.name, "LSB"]),
        err_lsb: qualified(block, &[&b.name, &l.status.name, &l.err.name, "LSB"]),
    };
    Ok(OutFile::new(
        format!("rtl/gen/xdie_{}.sv", block.name),
        finish(t.render()?),
    ))
}

pub fn render(csrs: &Csrs) -> Result<Vec<OutFile>, askama::Error> {
    csrs.blocks
        .iter()
        .filter_map(|b| {
            b.sem_seq()
                .map(|l| render_block(b, l, csrs.views.evt_sem.sem_count()))
        })
        .collect()
}
