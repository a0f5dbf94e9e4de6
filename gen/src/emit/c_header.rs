//! The firmware view, C99: `include/xdie_soc_addr.h` (the SoC-address view of the system the
//! firmware is built for, chosen with `XDIE_SYSTEM_VIEW`, as prefixed GET/SET macros and the
//! view's folds as static inline functions; the other view's macros are not defined) and
//! `include/xdie_regs.h` (die map, register blocks, descriptor fields, ExtendedInst words).
//! Every number is computed here; the templates print `#define NAME VALUE` lines.

use super::escape;
use super::names::{self, Origin, Origins};
use super::sv_soc::SYSTEM_VIEWS;
use super::{finish, OutFile, DO_NOT_EDIT};
use askama::Template;
use xdie_csr::{BitField, Block, Csrs, Field, FoldSource, Register};

/// `#define name value` with an optional trailing comment.
#[derive(Clone)]
pub struct Define {
    pub name: String,
    pub value: String,
    pub comment: String,
    /// The CSR name this define is made from (none: the generator's own).
    pub origin: Option<Origin>,
}

impl Define {
    fn new(name: impl Into<String>, value: impl Into<String>) -> Self {
        Define {
            name: name.into(),
            value: value.into(),
            comment: String::new(),
            origin: None,
        }
    }
    fn from(mut self, origin: &Origin) -> Self {
        self.origin = Some(origin.clone());
        self
    }
    fn doc(mut self, comment: &str) -> Self {
        // A description must not end, nest or break the `/* */` comment it lands in.
        self.comment = escape::c_comment(comment);
        self
    }
    /// Name padded so that values line up within a section.
    pub fn padded(&self, width: &usize) -> String {
        format!("{:<w$}", self.name, w = *width)
    }
}

pub struct Section {
    pub title: String,
    pub defines: Vec<Define>,
}

impl Section {
    fn new(title: impl Into<String>) -> Self {
        Section {
            title: escape::c_comment(&title.into()),
            defines: Vec::new(),
        }
    }
    pub fn name_width(&self) -> usize {
        self.defines.iter().map(|d| d.name.len()).max().unwrap_or(0)
    }
}

/// A 64-bit constant.
fn u64c(v: u64) -> String {
    format!("UINT64_C({v:#x})")
}

/// A constant that fits `unsigned int` on every C99 target xdie supports (>= 32 bits); wider
/// values fall back to UINT64_C.
fn u32c(v: u64) -> String {
    if v <= u32::MAX as u64 {
        format!("{v:#x}u")
    } else {
        u64c(v)
    }
}

/// Counts read best in decimal, sizes and strides in hex.
fn num(v: u64) -> String {
    if v < 0x1000 {
        dec(v)
    } else {
        u32c(v)
    }
}

fn dec(v: u64) -> String {
    format!("{v}u")
}

fn ident(parts: &[&str]) -> String {
    let mut s = String::from("XDIE");
    for p in parts {
        s.push('_');
        s.push_str(&p.to_uppercase());
    }
    s
}

// ---------------------------------------------------------------- xdie_soc_addr.h

#[derive(Clone)]
pub struct CFoldStep {
    pub setter: String,
    pub value: String,
}

#[derive(Clone)]
pub struct CFold {
    pub name: String,
    pub description: String,
    pub params: String,
    pub steps: Vec<CFoldStep>,
}

#[derive(Template)]
#[template(path = "c/xdie_soc_addr.h")]
struct SocHeader {
    header: &'static str,
    sections: Vec<Section>,
    views: Vec<CView>,
}

/// One system address view: its selector value, the SoC-address view it reads, its folds.
pub struct CView {
    /// `XDIE_VIEW_CHIP_ID`, the value `XDIE_SYSTEM_VIEW` is defined to.
    pub code: String,
    pub value: usize,
    pub section: Section,
    pub folds: Vec<CFold>,
}

/// The system views in the decoder's code order, each with the SoC-address view (of csrs/) it
/// routes by and that view's folds. A fold belongs to the view its steps set.
fn soc_views(csrs: &Csrs) -> Vec<CView> {
    let sv = &csrs.views.soc;
    let sections = soc_sections(csrs);
    let folds = soc_folds(csrs);
    SYSTEM_VIEWS
        .iter()
        .enumerate()
        .map(|(value, (name, _))| {
            let csr_view = if *name == "CHIP_ID" {
                &sv.local.name
            } else {
                &sv.neighbor.name
            };
            let idx = csrs
                .soc
                .views
                .iter()
                .position(|v| &v.name == csr_view)
                .unwrap_or(0);
            CView {
                code: format!("XDIE_VIEW_{name}"),
                value,
                section: Section {
                    title: sections[idx + 1].title.clone(),
                    defines: sections[idx + 1].defines.clone(),
                },
                folds: csrs
                    .soc
                    .folds
                    .iter()
                    .zip(&folds)
                    .filter(|(f, _)| f.steps.iter().all(|s| &s.view == csr_view))
                    .map(|(_, c)| c.clone())
                    .collect(),
            }
        })
        .collect()
}

fn value_mask(f: &BitField) -> u64 {
    f.value_mask() as u64
}

fn soc_sections(csrs: &Csrs) -> Vec<Section> {
    let soc = &csrs.soc;
    let mut top = Section::new(format!("{} ({} bits)", soc.name, soc.width));
    top.defines
        .push(Define::new("XDIE_SOC_ADDR_WIDTH", dec(soc.width as u64)));
    top.defines.push(
        Define::new("XDIE_SOC_ADDR_MASK", u64c(soc.mask())).doc("All bits of a routed address."),
    );
    // Packages are named by CAYMAN_ID in every system (a neighbor system's topology too), so
    // the count of ids is defined outside the views: bookkeeping per package sizes by it.
    top.defines.push(
        Define::new(
            "XDIE_SOC_CHIP_IDS",
            dec(1u64 << csrs.views.soc.local.cayman_id.width),
        )
        .doc("CAYMAN_IDs a system can name (2^width of the chip-id view's CAYMAN_ID)."),
    );
    let mut out = vec![top];
    let file = names::source(csrs, "soc_address");
    for (vi, v) in soc.views.iter().enumerate() {
        let mut s = Section::new(format!("{} view: {}", v.name, v.description));
        for (fi, f) in v.fields.iter().enumerate() {
            let o = Origin::new(&file, format!("views[{vi}].fields[{fi}].name"));
            let p = |suffix: &str| ident(&[&v.name, &f.name, suffix]);
            let get = ident(&[&v.name, "GET", &f.name]);
            let set = ident(&[&v.name, "SET", &f.name]);
            s.defines.push(
                Define::new(p("LSB"), dec(f.lsb as u64))
                    .doc(&format!("[{}:{}] {}", f.msb(), f.lsb, f.description))
                    .from(&o),
            );
            s.defines
                .push(Define::new(p("WIDTH"), dec(f.width as u64)).from(&o));
            s.defines
                .push(Define::new(p("MASK"), u64c(value_mask(f))).from(&o));
            s.defines.push(
                Define::new(
                    format!("{get}(a)"),
                    format!("(((uint64_t)(a) >> {}) & {})", p("LSB"), p("MASK")),
                )
                .from(&o),
            );
            s.defines.push(
                Define::new(
                    format!("{set}(a, v)"),
                    format!(
                        "(((uint64_t)(a) & ~({m} << {l})) | (((uint64_t)(v) & {m}) << {l}))",
                        m = p("MASK"),
                        l = p("LSB")
                    ),
                )
                .from(&o),
            );
        }
        // An X-macro list of the view's fields, so code can walk every field without naming
        // each: `#define SHOW(F) ... XDIE_LOCAL_GET_##F(a) ...` then `XDIE_LOCAL_FIELDS(SHOW)`.
        s.defines.push(
            Define::new(
                format!("{}(X)", ident(&[&v.name, "FIELDS"])),
                v.fields
                    .iter()
                    .map(|f| format!("X({})", f.name.to_uppercase()))
                    .collect::<Vec<_>>()
                    .join(" "),
            )
            .doc("Every field of this view, in bit order of the description.")
            .from(&Origin::new(&file, format!("views[{vi}].name"))),
        );
        out.push(s);
    }
    out
}

fn soc_folds(csrs: &Csrs) -> Vec<CFold> {
    csrs.soc
        .folds
        .iter()
        .map(|fold| CFold {
            name: format!("xdie_{}", fold.name),
            description: escape::c_comment(&fold.description),
            params: fold
                .args
                .iter()
                .map(|a| format!("uint64_t {a}"))
                .collect::<Vec<_>>()
                .join(", "),
            steps: fold
                .steps
                .iter()
                .map(|s| CFoldStep {
                    setter: ident(&[&s.view, "SET", &s.field.name]),
                    value: match &s.source {
                        FoldSource::Arg(a) => a.clone(),
                        FoldSource::Const(c) => u64c(*c),
                    },
                })
                .collect(),
        })
        .collect()
}

// ---------------------------------------------------------------- xdie_regs.h

#[derive(Template)]
#[template(path = "c/xdie_regs.h")]
struct RegsHeader {
    header: &'static str,
    sections: Vec<Section>,
}

fn map_section(csrs: &Csrs) -> Section {
    let map = &csrs.map;
    let mut s = Section::new(format!(
        "die map `{}`: die-local ({}-bit) apertures and parameters",
        map.name, map.local_width
    ));
    s.defines.push(Define::new(
        "XDIE_MAP_LOCAL_WIDTH",
        dec(map.local_width as u64),
    ));
    s.defines.push(Define::new(
        "XDIE_MAP_APERTURES",
        dec(map.apertures.len() as u64),
    ));
    let file = names::source(csrs, "address_map");
    for (i, p) in map.params.iter().enumerate() {
        s.defines.push(
            Define::new(ident(&["MAP", &p.name]), num(p.value))
                .doc(&p.description)
                .from(&Origin::new(&file, format!("parameters[{i}].name"))),
        );
    }
    for (i, a) in map.apertures.iter().enumerate() {
        let o = Origin::new(&file, format!("apertures[{i}].name"));
        let p = |suffix: &str| ident(&["AP", &a.name, suffix]);
        s.defines.push(
            Define::new(p("INDEX"), dec(i as u64))
                .doc(&format!("{} (decoder aperture index)", a.description))
                .from(&o),
        );
        s.defines
            .push(Define::new(p("BASE"), u64c(a.base)).from(&o));
        s.defines
            .push(Define::new(p("SIZE"), u64c(a.size)).from(&o));
        s.defines
            .push(Define::new(p("COUNT"), dec(a.count)).from(&o));
        s.defines
            .push(Define::new(p("STRIDE"), u64c(a.stride)).from(&o));
        s.defines.push(
            Define::new(
                format!("{}(i)", p("INST")),
                format!("({} + (uint64_t)(i) * {})", p("BASE"), p("STRIDE")),
            )
            .doc("Base of instance i.")
            .from(&o),
        );
    }
    s
}

fn field_defines(out: &mut Vec<Define>, prefix: &[&str], f: &Field, o: &Origin) {
    let mut parts = prefix.to_vec();
    parts.push(&f.name);
    let p = |suffix: &str| {
        let mut q = parts.clone();
        q.push(suffix);
        ident(&q)
    };
    out.push(
        Define::new(p("LSB"), dec(f.lsb as u64))
            .doc(&format!(
                "[{}:{}] {} {}",
                f.msb(),
                f.lsb,
                f.access.as_str(),
                f.description
            ))
            .from(o),
    );
    out.push(Define::new(p("WIDTH"), dec(f.width as u64)).from(o));
    out.push(Define::new(p("MASK"), u32c((1u64 << f.width) - 1)).from(o));
    out.push(Define::new(p("RESET"), u32c(f.reset)).from(o));
}

/// `o` is the origin of the register's name; its fields' names are `Fields[i]` below it.
fn register_defines(
    out: &mut Vec<Define>,
    prefix: &[&str],
    r: &Register,
    offset_doc: &str,
    o: &Origin,
) {
    let mut parts = prefix.to_vec();
    parts.push(&r.name);
    let name = |suffix: &str| {
        let mut q = parts.clone();
        q.push(suffix);
        ident(&q)
    };
    out.push(
        Define::new(name("OFFSET"), u32c(r.offset))
            .doc(&format!("{offset_doc}{}", r.description))
            .from(o),
    );
    out.push(Define::new(name("RESET"), u32c(r.reset() as u64)).from(o));
    let reg_key = o.key.strip_suffix(".Name").unwrap_or(&o.key);
    for (i, f) in r.fields.iter().enumerate() {
        let fo = Origin::new(&o.file, format!("{reg_key}.Fields[{i}].Name"));
        field_defines(out, &parts, f, &fo);
    }
}

fn block_section(b: &Block, views: &xdie_csr::Views) -> Section {
    let mut s = Section::new(format!("block `{}`: {}", b.name, b.description));
    let src = &b.source;
    s.defines
        .push(Define::new(ident(&[&b.name, "SIZE"]), u32c(b.size)).from(&Origin::new(src, "Name")));
    if let Some(p) = b.evt_sem().map(|l| &l.params) {
        // The sequencer subop codes (the sem_seq block's CMD.SUBOP carries them).
        let o = Origin::new(src, "Parameters");
        s.defines.push(
            Define::new(
                ident(&[&b.name, "SEQ_SUBOP_WAIT_GE_DEC"]),
                u32c(p.seq_subop_wait_ge_dec),
            )
            .doc("sequencer subop: wait until sem >= val, then subtract val")
            .from(&o),
        );
        s.defines.push(
            Define::new(ident(&[&b.name, "SEQ_SUBOP_INC"]), u32c(p.seq_subop_inc))
                .doc("sequencer subop: add val")
                .from(&o),
        );
    }
    if b.inbound().is_some() {
        // The windows enabled at reset, as the loader resolved them from the die map.
        let o = Origin::new(src, "Parameters");
        s.defines.push(
            Define::new(
                ident(&[&b.name, "DEFAULT_WINDOWS"]),
                dec(views.inbound_defaults.len() as u64),
            )
            .doc("windows 0 .. n-1 are enabled (READ and WRITE) at reset")
            .from(&o),
        );
        for (i, d) in views.inbound_defaults.iter().enumerate() {
            let n = format!("DEFAULT{i}");
            s.defines.push(
                Define::new(ident(&[&b.name, &n, "BASE"]), u64c(d.window.base))
                    .doc(&format!("reset base of window {i}: {}", d.name))
                    .from(&o),
            );
            s.defines.push(
                Define::new(ident(&[&b.name, &n, "MASK"]), u64c(d.window.mask))
                    .doc(&format!("reset mask of window {i}"))
                    .from(&o),
            );
        }
    }
    for (i, r) in b.registers.iter().enumerate() {
        let o = Origin::new(src, format!("Registers[{i}].Name"));
        register_defines(&mut s.defines, &[&b.name], r, "", &o);
    }
    for (bi, bu) in b.bundles.iter().enumerate() {
        let bo = Origin::new(src, format!("Bundles[{bi}].Name"));
        let p = |suffix: &str| ident(&[&b.name, &bu.name, suffix]);
        s.defines.push(
            Define::new(p("BASE"), u32c(bu.offset))
                .doc(&format!("bundle {} x {}", bu.name, bu.count))
                .from(&bo),
        );
        s.defines
            .push(Define::new(p("STRIDE"), u32c(bu.stride)).from(&bo));
        s.defines
            .push(Define::new(p("COUNT"), dec(bu.count)).from(&bo));
        for (ri, r) in bu.registers.iter().enumerate() {
            let o = Origin::new(src, format!("Bundles[{bi}].Registers[{ri}].Name"));
            register_defines(
                &mut s.defines,
                &[&b.name, &bu.name],
                r,
                "offset within one bundle instance. ",
                &o,
            );
            s.defines.push(
                Define::new(
                    format!("{}(i)", ident(&[&b.name, &bu.name, &r.name])),
                    format!(
                        "({} + (i) * {} + {})",
                        p("BASE"),
                        p("STRIDE"),
                        ident(&[&b.name, &bu.name, &r.name, "OFFSET"])
                    ),
                )
                .doc("Block offset of this register of instance i.")
                .from(&o),
            );
        }
    }
    s
}

fn descriptor_sections(csrs: &Csrs) -> Vec<Section> {
    let mut out = Vec::new();
    let file = names::source(csrs, "descriptors");
    for (di, d) in csrs.descriptors.iter().enumerate() {
        let mut s = Section::new(format!(
            "descriptor `{}` ({} bytes, little-endian 32-bit words; BIT is the bit of the whole \
             descriptor, WORD/WORD_LSB the word holding the LSB and the bit within it): {}",
            d.name, d.bytes, d.description
        ));
        s.defines.push(
            Define::new(ident(&["DESC", &d.name, "BYTES"]), dec(d.bytes as u64))
                .from(&Origin::new(&file, format!("descriptors[{di}].name"))),
        );
        for (fi, f) in d.fields.iter().enumerate() {
            let o = Origin::new(&file, format!("descriptors[{di}].fields[{fi}].name"));
            let p = |suffix: &str| ident(&["DESC", &d.name, &f.name, suffix]);
            s.defines.push(
                Define::new(p("BIT"), dec(f.lsb as u64))
                    .doc(&format!("[{}:{}] {}", f.msb(), f.lsb, f.description))
                    .from(&o),
            );
            s.defines
                .push(Define::new(p("WIDTH"), dec(f.width as u64)).from(&o));
            s.defines
                .push(Define::new(p("WORD"), dec((f.lsb / 32) as u64)).from(&o));
            s.defines
                .push(Define::new(p("WORD_LSB"), dec((f.lsb % 32) as u64)).from(&o));
            s.defines
                .push(Define::new(p("MASK"), u64c(value_mask(f))).from(&o));
        }
        out.push(s);
    }
    let r = &csrs.ring;
    let mut s = Section::new("ring rules");
    s.defines.push(
        Define::new("XDIE_RING_INITIAL_RING_ID", dec(r.initial_ring_id as u64))
            .doc("Ring id of the first pass; it advances on every wrap."),
    );
    s.defines.push(Define::new(
        "XDIE_RING_ID_WIDTH",
        dec(r.ring_id_width as u64),
    ));
    s.defines.push(
        Define::new("XDIE_RING_BASE_ALIGN", u32c(r.base_align))
            .doc("Required alignment of a ring base (bytes)."),
    );
    s.defines.push(
        Define::new("XDIE_RING_MAX_LEN_CODE", u32c(r.max_len_code))
            .doc("Bytes a LEN of 0 encodes."),
    );
    out.push(s);
    out
}

fn word_sections(csrs: &Csrs) -> Vec<Section> {
    let file = names::source(csrs, "ext_inst");
    csrs.words
        .iter()
        .enumerate()
        .map(|(wi, w)| {
            let o = Origin::new(&file, format!("words[{wi}].name"));
            let mut s = Section::new(format!(
                "ExtendedInst word `{}` (sub-opcode {}, {} bytes; OFFSET/SIZE in bytes, \
                 little-endian): {}",
                w.name, w.sub_opcode, w.bytes, w.description
            ));
            s.defines.push(
                Define::new(
                    ident(&["EXT", &w.name, "SUB_OPCODE"]),
                    dec(w.sub_opcode as u64),
                )
                .from(&o),
            );
            s.defines
                .push(Define::new(ident(&["EXT", &w.name, "BYTES"]), dec(w.bytes as u64)).from(&o));
            for (fi, f) in w.fields.iter().enumerate() {
                let fo = Origin::new(&file, format!("words[{wi}].fields[{fi}].name"));
                s.defines.push(
                    Define::new(
                        ident(&["EXT", &w.name, &f.name, "OFFSET"]),
                        dec(f.offset as u64),
                    )
                    .doc(&f.description)
                    .from(&fo),
                );
                s.defines.push(
                    Define::new(
                        ident(&["EXT", &w.name, &f.name, "SIZE"]),
                        dec(f.bytes as u64),
                    )
                    .from(&fo),
                );
                for (vi, v) in f.values.iter().enumerate() {
                    let vo =
                        Origin::new(&file, format!("words[{wi}].fields[{fi}].values[{vi}].name"));
                    s.defines.push(
                        Define::new(ident(&["EXT", &w.name, &f.name, &v.name]), dec(v.value))
                            .doc(&v.description)
                            .from(&vo),
                    );
                }
            }
            s
        })
        .collect()
}

/// Where each name of the C headers comes from, for [`names::check`].
pub fn origins(csrs: &Csrs) -> Origins {
    let mut o = Origins::default();
    let mut sections = soc_sections(csrs);
    sections.push(map_section(csrs));
    sections.extend(csrs.blocks.iter().map(|b| block_section(b, &csrs.views)));
    sections.extend(descriptor_sections(csrs));
    sections.extend(word_sections(csrs));
    for d in sections.iter().flat_map(|s| &s.defines) {
        if let Some(origin) = &d.origin {
            let name = d.name.split('(').next().unwrap_or(&d.name);
            o.add(name, origin);
        }
    }
    let file = names::source(csrs, "soc_address");
    for (i, f) in csrs.soc.folds.iter().enumerate() {
        o.add(
            format!("xdie_{}", f.name),
            &Origin::new(&file, format!("folds[{i}].name")),
        );
    }
    o
}

/// Names a fold function's parameter may not take: the type and the local the body uses.
pub const FOLD_BODY_NAMES: &[&str] = &["a", "uint64_t", "UINT64_C"];

pub fn render(csrs: &Csrs) -> Result<Vec<OutFile>, askama::Error> {
    let soc = SocHeader {
        header: DO_NOT_EDIT,
        sections: soc_sections(csrs).into_iter().take(1).collect(),
        views: soc_views(csrs),
    };
    let mut sections = vec![map_section(csrs)];
    sections.extend(csrs.blocks.iter().map(|b| block_section(b, &csrs.views)));
    sections.extend(descriptor_sections(csrs));
    sections.extend(word_sections(csrs));
    let regs = RegsHeader {
        header: DO_NOT_EDIT,
        sections,
    };
    Ok(vec![
        OutFile::new("include/xdie_soc_addr.h", finish(soc.render()?)),
        OutFile::new("include/xdie_regs.h", finish(regs.render()?)),
    ])
}
