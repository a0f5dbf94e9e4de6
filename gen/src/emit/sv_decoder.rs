//! `rtl/gen/xdie_addr_decoder.sv`: the combinational SoC-address decoder. It routes an address
//! (local, peer die, remote package, decode error) and, for local addresses, names the aperture,
//! the instance within a repeated aperture and the byte offset within that instance. The rule is
//! documented in the package header (`sv_soc`); every field and aperture comes from the model.

use super::sv_soc::{facts, SocFacts, PKG};
use super::{finish, OutFile, DO_NOT_EDIT};
use askama::Template;
use xdie_csr::Csrs;

#[derive(Template)]
#[template(path = "sv/addr_decoder.sv")]
struct Decoder<'a> {
    header: &'static str,
    pkg: &'static str,
    f: &'a SocFacts,
}

pub fn render(csrs: &Csrs) -> Result<Vec<OutFile>, askama::Error> {
    let f = facts(csrs)?;
    let t = Decoder {
        header: DO_NOT_EDIT,
        pkg: PKG,
        f: &f,
    };
    Ok(vec![OutFile::new(
        "rtl/gen/xdie_addr_decoder.sv",
        finish(t.render()?),
    )])
}
