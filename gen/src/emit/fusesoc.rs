//! `xdie.core`: a FuseSoC (CAPI2) core description of the RTL, so an FPGA engineer adds xdie to a
//! project with the package manager they already use. Written from the rendered filelist, so the
//! core lists exactly the files of `rtl/xdie.f`, in the same compile order.

use super::filelist::LINT_CONFIG;
use super::{sv_sizing, OutFile, DO_NOT_EDIT};
use xdie_csr::Csrs;

/// The core's name: vendor:library:name:version. The version follows the crate's.
fn vlnv() -> String {
    format!("xdie:rtl:xdie:{}", env!("CARGO_PKG_VERSION"))
}

pub fn render(filelist: &OutFile, csrs: &Csrs) -> OutFile {
    let files: Vec<&str> = filelist
        .contents
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//"))
        .collect();
    let mut t = String::new();
    t.push_str("CAPI=2:\n");
    t.push_str(&format!("# {DO_NOT_EDIT}\n"));
    t.push_str(&format!("name: {}\n", vlnv()));
    t.push_str(
        "description: Cross-die SBUF-to-SBUF remote-DMA fabric (two dies and their link)\n\n",
    );
    t.push_str("filesets:\n  rtl:\n    file_type: systemVerilogSource\n    files:\n");
    for f in &files {
        t.push_str(&format!("      - {f}\n"));
    }
    t.push_str(&format!(
        "  lint_config:\n    files:\n      - {LINT_CONFIG}: {{file_type: vlt}}\n\n"
    ));
    t.push_str(
        "targets:\n\
         \x20 # The package top: two dies and their die-to-die link.\n\
         \x20 default: &default\n\
         \x20   filesets: [rtl]\n\
         \x20   toplevel: xdie_pkg_top\n\
         \x20 # One die at the default sizing (csrs/sizing.*).\n\
         \x20 die:\n\
         \x20   <<: *default\n\
         \x20   toplevel: xdie_die\n",
    );
    // One target per sizing profile with a wrapper top (csrs/sizing.*).
    for sz in sv_sizing::wrapped(csrs) {
        t.push_str(&format!(
            "  # One die sized by profile `{name}` (csrs/sizing.*), for an FPGA build.\n\
             \x20 die_{name}:\n\
             \x20   <<: *default\n\
             \x20   toplevel: {top}\n",
            name = sz.name,
            top = sv_sizing::wrapper_module(sz)
        ));
    }
    t.push_str(
        "\x20 # `fusesoc run --target lint xdie:rtl:xdie`: Verilator lint of the package top.\n\
         \x20 lint:\n\
         \x20   filesets: [rtl, lint_config]\n\
         \x20   toplevel: xdie_pkg_top\n\
         \x20   default_tool: verilator\n\
         \x20   tools:\n\
         \x20     verilator:\n\
         \x20       mode: lint-only\n\
         \x20       verilator_options: [-Wall]\n",
    );
    OutFile::new("xdie.core", t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emit::filelist;

    #[test]
    fn lists_the_filelist_in_order() {
        let fl = OutFile::new(
            filelist::FILELIST,
            "// header\nrtl/gen/a_pkg.sv\nrtl/core/b.sv\n".into(),
        );
        let csrs =
            xdie_csr::load(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../csrs"))
                .expect("the repository's csrs/ load");
        let core = render(&fl, &csrs).contents;
        let a = core.find("- rtl/gen/a_pkg.sv").expect("a listed");
        let b = core.find("- rtl/core/b.sv").expect("b listed");
        assert!(a < b);
        assert!(core.starts_with("CAPI=2:\n"));
    }
}
