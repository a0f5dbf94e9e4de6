//! `rtl/gen/xdie_xbus_pkg.sv`: the internal bus as a type (request and response structs, response
//! codes, widths) and the link layer's CRCs over its flits, for the hand-written RTL. Generated rather than hand-written only because its
//! widths come from csrs/ and Yosys 0.23 cannot read another package's constant inside a package.

use super::{finish, OutFile, DO_NOT_EDIT};
use askama::Template;
use xdie_csr::Csrs;

/// Package name; users write qualified names (`xdie_xbus_pkg::req_t`).
pub const PKG: &str = "xdie_xbus_pkg";

#[derive(Template)]
#[template(path = "sv/xbus_pkg.sv")]
struct XbusPkg {
    header: &'static str,
    pkg: &'static str,
    addr_w: u32,
    data_bytes: u64,
    seq_max_w: u32,
    flit_max_w: u64,
    flit_crc_in: u64,
}

/// Bits of the widest link sequence number (CREDITS below 2^15).
const SEQ_MAX_W: u32 = 16;

pub fn render(csrs: &Csrs) -> Result<Vec<OutFile>, askama::Error> {
    let data_bytes = csrs.views.params.data_bytes;
    let addr_w = csrs.soc.width;
    // The flits as the template's structs pack them: {write, addr, wdata, wstrb}, {rdata, err}.
    let req_w = 1 + u64::from(addr_w) + 8 * data_bytes + data_bytes;
    let rsp_w = 8 * data_bytes + 2;
    let flit_max_w = req_w.max(rsp_w);
    let t = XbusPkg {
        header: DO_NOT_EDIT,
        pkg: PKG,
        addr_w,
        data_bytes,
        seq_max_w: SEQ_MAX_W,
        flit_max_w,
        flit_crc_in: (u64::from(SEQ_MAX_W) + flit_max_w).div_ceil(64) * 64,
    };
    Ok(vec![OutFile::new(
        format!("rtl/gen/{PKG}.sv"),
        finish(t.render()?),
    )])
}
