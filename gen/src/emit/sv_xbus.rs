//! `rtl/gen/xdie_xbus_pkg.sv`: the internal bus as a type (request and response structs, response
//! codes, widths) for the hand-written RTL. Generated rather than hand-written only because its
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
}

pub fn render(csrs: &Csrs) -> Result<Vec<OutFile>, askama::Error> {
    let data_bytes = csrs.views.params.data_bytes;
    let t = XbusPkg {
        header: DO_NOT_EDIT,
        pkg: PKG,
        addr_w: csrs.soc.width,
        data_bytes,
    };
    Ok(vec![OutFile::new(
        format!("rtl/gen/{PKG}.sv"),
        finish(t.render()?),
    )])
}
