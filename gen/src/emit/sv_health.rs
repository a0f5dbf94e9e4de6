//! `xdie_d2d_health`: the link-health interrupt block of one D2D controller. Its only inputs
//! besides the bus are the fields of the link's health report (`xdie_d2d_pkg::health_t`), so no
//! data-plane event can reach it. Offsets, bit positions, widths and resets all come from the
//! block's typed layout.

use super::sv_hex;
use super::sv_regpkg::comment_lines;
use super::sv_regs::err;
use super::{finish, OutFile, DO_NOT_EDIT};
use askama::Template;
use xdie_csr::{Block, Csrs, Field, HealthLayout, HealthTrigger, Register};

/// A stored number (the threshold or the timeout) or a counter: its register offset, field
/// position, width and reset.
struct Num {
    off: String,
    lsb: u32,
    width: u32,
    reset: String,
}

fn num(aw: u32, r: &Register, f: &Field) -> Num {
    Num {
        off: sv_hex(aw, u128::from(r.offset as u32)),
        lsb: f.lsb,
        width: f.width,
        reset: sv_hex(f.width, u128::from(f.reset)),
    }
}

/// A counter with its event input and its clear bit.
struct Counter {
    name: &'static str,
    input: &'static str,
    n: Num,
    clear_lsb: u32,
    /// Its crossing of the threshold raises CRC_ERR.
    crc: bool,
}

#[derive(Template)]
#[template(path = "sv/link_health.sv")]
struct Health {
    header: &'static str,
    module: String,
    description: Vec<String>,
    aw: u32,
    raw_off: String,
    mask_off: String,
    status_off: String,
    clear_off: String,
    /// Trigger bit positions.
    t_crc: u32,
    t_replay: u32,
    t_down: u32,
    t_up: u32,
    t_timeout: u32,
    /// All trigger bits, and the mask register's reset.
    trig_mask: String,
    mask_reset: String,
    threshold: Num,
    timeout: Num,
    counters: Vec<Counter>,
}

pub fn render(csrs: &Csrs) -> Result<Vec<OutFile>, askama::Error> {
    csrs.blocks
        .iter()
        .filter_map(|b| b.health().map(|l| render_block(b, l)))
        .collect()
}

fn render_block(block: &Block, l: &HealthLayout) -> Result<OutFile, askama::Error> {
    let aw = block.addr_bits();
    let off = |r: &Register| sv_hex(aw, u128::from(r.offset as u32));
    let bit = |t: HealthTrigger| l.trigger(t).lsb;
    let threshold = num(aw, &l.crc_threshold, &l.threshold);
    let counters = vec![
        Counter {
            name: "flit_crc",
            input: "flit_crc_err_i",
            n: num(aw, &l.flit_crc_count, &l.flit_crc),
            clear_lsb: l.clear_flit_crc.lsb,
            crc: true,
        },
        Counter {
            name: "dllp_crc",
            input: "dllp_crc_err_i",
            n: num(aw, &l.dllp_crc_count, &l.dllp_crc),
            clear_lsb: l.clear_dllp_crc.lsb,
            crc: true,
        },
        Counter {
            name: "replays",
            input: "replay_i",
            n: num(aw, &l.replay_count, &l.replays),
            clear_lsb: l.clear_replay.lsb,
            crc: false,
        },
    ];
    if counters
        .iter()
        .any(|c| c.crc && c.n.width < threshold.width)
    {
        return Err(err(format!(
            "link_health block `{}`: the threshold is wider than a CRC error counter",
            block.name
        )));
    }
    let t = Health {
        header: DO_NOT_EDIT,
        module: format!("xdie_{}", block.name),
        description: comment_lines(&block.description, 0, 100),
        aw,
        raw_off: off(&l.intr_raw),
        mask_off: off(&l.intr_mask),
        status_off: off(&l.intr_status),
        clear_off: off(&l.counter_clear),
        t_crc: bit(HealthTrigger::CrcErr),
        t_replay: bit(HealthTrigger::Replay),
        t_down: bit(HealthTrigger::LinkDown),
        t_up: bit(HealthTrigger::LinkUp),
        t_timeout: bit(HealthTrigger::CreditTimeout),
        trig_mask: sv_hex(32, u128::from(l.all_bits())),
        mask_reset: sv_hex(32, u128::from(l.intr_mask.reset() & l.all_bits())),
        timeout: num(aw, &l.credit_timeout, &l.timeout),
        threshold,
        counters,
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

    #[test]
    fn offsets_and_bits_follow_the_model() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../csrs");
        let csrs = xdie_csr::load(&dir).expect("the repository's csrs/ load");
        let (block, l) = csrs
            .blocks
            .iter()
            .find_map(|b| b.health().map(|l| (b, l)))
            .expect("a link_health block");
        let text = render_block(block, l).expect("renders").contents;
        let aw = block.addr_bits();
        for r in [
            &l.intr_raw,
            &l.intr_status,
            &l.flit_crc_count,
            &l.counter_clear,
        ] {
            let lit = sv_hex(aw, u128::from(r.offset as u32));
            assert!(
                text.contains(&lit),
                "offset {lit} of `{}` not decoded",
                r.name
            );
        }
        let all = sv_hex(32, u128::from(l.all_bits()));
        assert!(text.contains(&all), "trigger mask {all} missing");
    }
}
