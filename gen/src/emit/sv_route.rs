//! `xdie_route_table`: the route table of one die (destination (CAYMAN_ID, DIE) -> egress C2C
//! port). Storage and readback come from the shared register macros; this module adds the
//! lookup ports, one per bus master of the die that may send a request off the die.

use super::sv_hex;
use super::sv_regpkg::comment_lines;
use super::sv_regs::{err, index_bits, HwInputs, RegFile};
use super::{finish, OutFile, DO_NOT_EDIT};
use askama::Template;
use xdie_csr::{Access, Block, Csrs, RouteLayout};

#[derive(Template)]
#[template(path = "sv/route_table.sv")]
struct Route {
    header: &'static str,
    module: String,
    description: Vec<String>,
    rf: RegFile,
    /// Bits of an entry index and of a port number.
    idx_w: u32,
    port_w: u32,
    /// Decode signals of the entry bundle (`<prefix>_sel`, `_idx`, `_off`), its instance count
    /// constant, the entry's storage signal, its offset literal and writable bits.
    prefix: String,
    count_name: String,
    sig: String,
    off: String,
    wmask: String,
    /// Bit positions of VALID and PORT in the entry word, and their reset values.
    valid_lsb: u32,
    port_msb: u32,
    port_lsb: u32,
    valid_reset: String,
    port_reset: String,
}

pub fn render(csrs: &Csrs) -> Result<Vec<OutFile>, askama::Error> {
    csrs.blocks
        .iter()
        .filter_map(|b| b.route().map(|l| render_block(b, l)))
        .collect()
}

fn render_block(block: &Block, l: &RouteLayout) -> Result<OutFile, askama::Error> {
    let rf = RegFile::new(block, &HwInputs::new())?;
    let bundle = &l.route;
    if l.valid.width != 1 || l.valid.access != Access::Rw || l.port.access != Access::Rw {
        return Err(err(format!(
            "route block `{}`: VALID must be one RW bit and PORT RW",
            block.name
        )));
    }
    let a = rf
        .array(bundle)
        .ok_or_else(|| err(format!("route block `{}` has no entry storage", block.name)))?;
    let entry = a
        .regs
        .iter()
        .find(|r| r.name == l.entry.name && r.stored)
        .ok_or_else(|| {
            err(format!(
                "route block `{}`: the entry holds no storage",
                block.name
            ))
        })?;
    let (prefix, count_name, sig, off, wmask) = (
        a.prefix.clone(),
        a.count_name.clone(),
        entry.sig.clone(),
        entry.off.clone(),
        entry.wmask.clone(),
    );
    let t = Route {
        header: DO_NOT_EDIT,
        module: format!("xdie_{}", block.name),
        description: comment_lines(&block.description, 0, 100),
        idx_w: index_bits(bundle.count),
        port_w: l.port.width,
        prefix,
        count_name,
        sig,
        off,
        wmask,
        valid_lsb: l.valid.lsb,
        port_msb: l.port.msb(),
        port_lsb: l.port.lsb,
        valid_reset: sv_hex(1, u128::from(l.valid.reset)),
        port_reset: sv_hex(l.port.width, u128::from(l.port.reset)),
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

    #[test]
    fn entry_count_and_port_width_follow_the_model() {
        let csrs = csrs();
        let (block, l) = csrs
            .blocks
            .iter()
            .find_map(|b| b.route().map(|l| (b, l)))
            .expect("a route block");
        let text = render_block(block, l).expect("renders").contents;
        assert!(text.contains(&format!("_N = {};", l.route.count)));
        let pw = l.port.width;
        assert!(text.contains(&format!("localparam int unsigned PORT_W = {pw}\n")));
        let field = format!("[{}:{}]", l.port.msb(), l.port.lsb);
        assert!(text.contains(&field), "port field {field} not read");
    }
}
