//! Modules every register block shares: the AXI4-Lite front-end.

use super::{finish, OutFile, DO_NOT_EDIT};
use askama::Template;

#[derive(Template)]
#[template(path = "sv/axil_regif.sv")]
struct AxilRegif {
    header: &'static str,
}

pub fn render() -> Result<Vec<OutFile>, askama::Error> {
    let t = AxilRegif {
        header: DO_NOT_EDIT,
    };
    Ok(vec![OutFile::new(
        "rtl/gen/xdie_axil_regif.sv",
        finish(t.render()?),
    )])
}
