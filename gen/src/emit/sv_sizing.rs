//! `rtl/gen/xdie_sizing_pkg.sv` and `rtl/gen/xdie_die_<name>.sv`: the die sizing profiles of
//! `csrs/sizing.*`. The package holds one constant set per profile and the default profile's set
//! under `DEFAULT_*` (the parameter defaults of `xdie_die`); every profile other than the default
//! gets a wrapper top that instantiates `xdie_die` with its set, so an FPGA build names a top
//! (or a FuseSoC target) instead of editing parameters.

use super::escape::sv_comment;
use super::{finish, OutFile, DO_NOT_EDIT};
use askama::Template;
use xdie_csr::{Csrs, Sizing};

/// Package name; users write qualified names (`xdie_sizing_pkg::FPGA_SDMA_ENGINES`).
pub const PKG: &str = "xdie_sizing_pkg";

/// Free text as `// ` comment lines of at most 100 columns, indented by `indent`.
fn comment_lines(text: &str, indent: &str) -> String {
    let mut lines = Vec::new();
    let mut cur = String::new();
    for w in sv_comment(text).split_whitespace() {
        if !cur.is_empty() && indent.len() + 3 + cur.len() + 1 + w.len() > 100 {
            lines.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(w);
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
        .iter()
        .map(|l| format!("{indent}// {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// One constant of a profile.
struct Const {
    name: String,
    value: u64,
    comment: &'static str,
}

/// One profile's constant set.
struct ProfileSet {
    name: String,
    description: String,
    is_default: bool,
    consts: Vec<Const>,
}

#[derive(Template)]
#[template(path = "sv/sizing_pkg.sv")]
struct SizingPkg {
    header: &'static str,
    pkg: &'static str,
    profiles: Vec<ProfileSet>,
    default_name: String,
    defaults: Vec<Const>,
}

#[derive(Template)]
#[template(path = "sv/die_sized.sv")]
struct DieSized {
    header: &'static str,
    pkg: &'static str,
    module: String,
    name: String,
    description: String,
    prefix: String,
}

/// What each sizing key sizes, for the package's comments.
fn comment(key: &str) -> &'static str {
    match key {
        "cores" => "NeuronCores wired (each with its SBUF, EVT_SEM and accumulate apertures)",
        "sdma_engines" => "SDMA engines wired (each with its M2S and S2M queue groups)",
        "d2d_controllers" => "D2D controller register blocks wired (controller 0 serves the port)",
        "sbuf_backing_bytes" => "bytes backed per SBUF partition",
        "hbm_bytes" => "bytes of HBM backed",
        "link_credits" => "receive buffer depth per link channel (credits)",
        "outstanding" => "requests in flight per crossbar master and slave, writes per engine",
        "shared_crossbar" => "1: one request and one response path shared by all crossbar ports",
        "select_arbiters" => "1: the engines' queue round robin in the select form (FPGA timing)",
        "timing_registers" => "1: register stages for FPGA timing, a cycle of latency each",
        "engine_read_beats" => "source beats an engine buffers (its reads in flight)",
        _ => "",
    }
}

fn consts(prefix: &str, s: &Sizing) -> Vec<Const> {
    s.values()
        .iter()
        .map(|(k, v)| Const {
            name: format!("{prefix}_{}", k.to_ascii_uppercase()),
            value: *v,
            comment: comment(k),
        })
        .collect()
}

/// The module name of a profile's wrapper top.
pub fn wrapper_module(s: &Sizing) -> String {
    format!("xdie_die_{}", s.name)
}

/// The profiles that get a wrapper top (every one but the default, which is `xdie_die` itself).
pub fn wrapped(csrs: &Csrs) -> impl Iterator<Item = &Sizing> {
    csrs.sizings
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != csrs.default_sizing)
        .map(|(_, s)| s)
}

pub fn render(csrs: &Csrs) -> Result<Vec<OutFile>, askama::Error> {
    let profiles = csrs
        .sizings
        .iter()
        .enumerate()
        .map(|(i, s)| ProfileSet {
            consts: consts(&s.name.to_ascii_uppercase(), s),
            name: s.name.clone(),
            description: comment_lines(&s.description, "  "),
            is_default: i == csrs.default_sizing,
        })
        .collect();
    let t = SizingPkg {
        header: DO_NOT_EDIT,
        pkg: PKG,
        profiles,
        default_name: csrs.sizing().name.clone(),
        defaults: consts("DEFAULT", csrs.sizing()),
    };
    let mut out = vec![OutFile::new(
        format!("rtl/gen/{PKG}.sv"),
        finish(t.render()?),
    )];
    for s in wrapped(csrs) {
        let w = DieSized {
            header: DO_NOT_EDIT,
            pkg: PKG,
            module: wrapper_module(s),
            name: s.name.clone(),
            description: comment_lines(&s.description, ""),
            prefix: s.name.to_ascii_uppercase(),
        };
        out.push(OutFile::new(
            format!("rtl/gen/{}.sv", wrapper_module(s)),
            finish(w.render()?),
        ));
    }
    Ok(out)
}
