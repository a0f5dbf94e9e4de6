//! `rtl/gen/xdie_desc_pkg.sv`: the ring descriptor formats of `csrs/descriptors.yaml` and the ring
//! rules the engine checks (ring-id width, the LEN = 0 code). Every descriptor field gets an
//! LSB/WIDTH pair and a get function over the whole descriptor, so the hand-written engine never
//! restates a field position.
//! Every constant is a plain `localparam`; rtl/lint.vlt waives UNUSEDPARAM for the generated
//! packages (a module reads only some of them).

use super::sv_soc::{clog2, wrap};
use super::{finish, OutFile, DO_NOT_EDIT};
use askama::Template;
use xdie_csr::{BitField, Csrs, DescFormat};

/// Package name; users write qualified names (`xdie_desc_pkg::m2s_get_len`).
pub const PKG: &str = "xdie_desc_pkg";

pub struct SvConst {
    pub name: String,
    pub value: u64,
    pub comment: String,
}

pub struct SvDescField {
    pub prefix: String,
    pub getter: String,
    pub lsb: u32,
    pub width: u32,
    pub comment: Vec<String>,
}

pub struct SvLenDecode {
    pub func: String,
    pub getter: String,
    pub width_param: String,
}

pub struct SvFormat {
    pub name: String,
    pub comment: Vec<String>,
    pub fields: Vec<SvDescField>,
    pub len: Option<SvLenDecode>,
}

#[derive(Template)]
#[template(path = "sv/desc_pkg.sv")]
struct DescPkg<'a> {
    header: &'static str,
    pkg: &'static str,
    consts: &'a [SvConst],
    formats: &'a [SvFormat],
}

/// Width of the decoded byte count: enough for the LEN = 0 code itself.
pub fn len_bytes_w(csrs: &Csrs) -> u32 {
    clog2(csrs.ring.max_len_code + 1)
}

/// Descriptor bits: the largest format (every format is read as one vector of this width).
pub fn desc_bits(csrs: &Csrs) -> u32 {
    csrs.descriptors
        .iter()
        .map(|d| d.bytes * 8)
        .max()
        .unwrap_or(0)
}

fn consts(csrs: &Csrs) -> Vec<SvConst> {
    let desc_bytes = csrs.descriptors.iter().map(|d| d.bytes).max().unwrap_or(0);
    vec![
        SvConst {
            name: "DESC_BYTES".into(),
            value: desc_bytes.into(),
            comment: "bytes per descriptor (ring slot)".into(),
        },
        SvConst {
            name: "DESC_W".into(),
            value: desc_bits(csrs).into(),
            comment: "bits per descriptor, the width the get functions take".into(),
        },
        SvConst {
            name: "RING_ID_W".into(),
            value: csrs.ring.ring_id_width.into(),
            comment: "ring-id bits of a descriptor and of a queue's head ring id".into(),
        },
        SvConst {
            name: "RING_ID_INIT".into(),
            value: csrs.ring.initial_ring_id.into(),
            comment: "ring id of a freshly reset ring".into(),
        },
        SvConst {
            name: "MAX_LEN_CODE".into(),
            value: csrs.ring.max_len_code,
            comment: "bytes a LEN field of 0 stands for".into(),
        },
        SvConst {
            name: "LEN_BYTES_W".into(),
            value: len_bytes_w(csrs).into(),
            comment: "bits of a decoded byte count (1 .. MAX_LEN_CODE)".into(),
        },
    ]
}

/// Where each name of the package made from a CSR name comes from, for
/// [`super::names::check`].
pub fn origins(csrs: &Csrs) -> super::names::Origins {
    use super::names::{source, Origin, Origins};
    let mut o = Origins::default();
    let file = source(csrs, "descriptors");
    for (di, d) in csrs.descriptors.iter().enumerate() {
        let f = format(d, None);
        o.add(
            format!("{}_len_bytes", f.name),
            &Origin::new(&file, format!("descriptors[{di}].name")),
        );
        for (fi, x) in f.fields.iter().enumerate() {
            let at = Origin::new(&file, format!("descriptors[{di}].fields[{fi}].name"));
            for n in [
                format!("{}_LSB", x.prefix),
                format!("{}_WIDTH", x.prefix),
                x.getter.clone(),
            ] {
                o.add(n, &at);
            }
        }
    }
    o
}

/// `len` is the format's LEN field when the loader resolved one (the formats the engines read).
fn format(d: &DescFormat, len: Option<&BitField>) -> SvFormat {
    let fmt_uc = d.name.to_ascii_uppercase();
    let fmt_lc = d.name.to_ascii_lowercase();
    let fields: Vec<SvDescField> = d
        .fields
        .iter()
        .map(|f| SvDescField {
            prefix: format!("{fmt_uc}_{}", f.name.to_ascii_uppercase()),
            getter: format!("{fmt_lc}_get_{}", f.name.to_ascii_lowercase()),
            lsb: f.lsb,
            width: f.width,
            comment: wrap(
                &format!(
                    "{fmt_lc}.{} [{}:{}]: {}",
                    f.name,
                    f.msb(),
                    f.lsb,
                    f.description
                ),
                96,
            ),
        })
        .collect();
    let len = len.map(|f| SvLenDecode {
        func: format!("{fmt_lc}_len_bytes"),
        getter: format!("{fmt_lc}_get_len"),
        width_param: format!("{fmt_uc}_{}_WIDTH", f.name.to_ascii_uppercase()),
    });
    SvFormat {
        name: fmt_lc,
        comment: wrap(&format!("{} ({} bytes)", d.description, d.bytes), 96),
        fields,
        len,
    }
}

pub fn render(csrs: &Csrs) -> Result<Vec<OutFile>, askama::Error> {
    let consts = consts(csrs);
    let typed = [&csrs.views.m2s_desc, &csrs.views.s2m_desc];
    let formats: Vec<SvFormat> = csrs
        .descriptors
        .iter()
        .map(|d| {
            let len = typed
                .iter()
                .find(|t| t.format.name == d.name)
                .map(|t| &t.len);
            format(d, len)
        })
        .collect();
    let t = DescPkg {
        header: DO_NOT_EDIT,
        pkg: PKG,
        consts: &consts,
        formats: &formats,
    };
    Ok(vec![OutFile::new(
        format!("rtl/gen/{PKG}.sv"),
        finish(t.render()?),
    )])
}
