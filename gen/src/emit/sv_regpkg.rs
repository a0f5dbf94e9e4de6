//! One SystemVerilog package per register block, `xdie_<block>_pkg`: the block's geometry,
//! register offsets and resets, bundle layout and field positions as named localparams, so that
//! every generated or hand-written module refers to the register map by name. Yosys 0.23 does
//! not parse `import` clauses, so users write qualified names (`xdie_evt_sem_pkg::SEM_SET_BASE`).

use super::escape;
use super::names::{Origin, Origins};
use super::{finish, sv_hex, OutFile, DO_NOT_EDIT};
use askama::Template;
use xdie_csr::{Block, Csrs, Field, Register};

/// One `localparam` line.
pub struct Const {
    pub ty: String,
    pub name: String,
    pub value: String,
    pub comment: String,
}

#[derive(Template)]
#[template(path = "sv/regpkg.sv")]
struct RegPkg<'a> {
    header: &'static str,
    package: String,
    block: &'a Block,
    description: Vec<String>,
    consts: Vec<Const>,
}

/// Package name of a block.
pub fn package(block: &Block) -> String {
    format!("xdie_{}_pkg", block.name)
}

/// UPPER_CASE SystemVerilog constant name from CSR name parts.
pub fn ident(parts: &[&str]) -> String {
    parts
        .iter()
        .map(|p| {
            p.chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() {
                        c.to_ascii_uppercase()
                    } else {
                        '_'
                    }
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("_")
}

/// Qualified reference to a package constant.
pub fn qualified(block: &Block, parts: &[&str]) -> String {
    format!("{}::{}", package(block), ident(parts))
}

/// Counts, widths and bit positions read best in decimal.
impl Const {
    /// Whether `  localparam TY NAME = VALUE;` fits 100 columns.
    pub fn one_line(&self) -> bool {
        2 + 11 + self.ty.len() + 1 + self.name.len() + 3 + self.value.len() + 1 <= 100
    }
}

fn uint(name: String, value: u64, comment: impl Into<String>) -> Const {
    Const {
        ty: "int unsigned".into(),
        name,
        value: value.to_string(),
        comment: comment.into(),
    }
}

/// Byte sizes read best in hex.
fn bytes(name: String, value: u64, comment: impl Into<String>) -> Const {
    Const {
        value: format!("32'h{value:x}"),
        ..uint(name, value, comment)
    }
}

/// `text` as `// ` comment lines of at most `width` columns (after `indent`).
pub fn comment_lines(text: &str, indent: usize, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = String::new();
    for word in text.split_whitespace() {
        if !cur.is_empty() && indent + 3 + cur.len() + 1 + word.len() > width {
            lines.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    // Each line opens a `//` comment of its own.
    lines.iter().map(|l| escape::sv_comment(l)).collect()
}

fn sized(name: String, width: u32, value: u64, comment: impl Into<String>) -> Const {
    Const {
        ty: if width == 1 {
            "logic".into()
        } else {
            format!("logic [{}:0]", width - 1)
        },
        name,
        value: sv_hex(width, value as u128),
        comment: comment.into(),
    }
}

fn field_consts(out: &mut Vec<Const>, prefix: &[&str], f: &Field) {
    let mut p = prefix.to_vec();
    p.push(&f.name);
    let what = format!("{} ({})", f.name, f.access.as_str());
    out.push(uint(
        ident(&[&p[..], &["LSB"]].concat()),
        f.lsb as u64,
        what,
    ));
    out.push(uint(
        ident(&[&p[..], &["WIDTH"]].concat()),
        f.width as u64,
        "",
    ));
    out.push(sized(
        ident(&[&p[..], &["RESET"]].concat()),
        f.width,
        f.reset,
        "",
    ));
}

/// Names made from one CSR name (key path `key` of the block file) go to `o`.
fn record(o: &mut Origins, block: &Block, key: String, made: &[Const]) {
    let origin = Origin::new(&block.source, key);
    for c in made {
        o.add(c.name.clone(), &origin);
    }
}

#[allow(clippy::too_many_arguments)]
fn reg_consts(
    out: &mut Vec<Const>,
    o: &mut Origins,
    block: &Block,
    key: &str,
    aw: u32,
    prefix: &[&str],
    r: &Register,
    within: &str,
) {
    let start = out.len();
    let mut p = prefix.to_vec();
    p.push(&r.name);
    out.push(sized(
        ident(&[&p[..], &["OFFSET"]].concat()),
        aw,
        r.offset,
        format!("register {} (offset {within})", r.name),
    ));
    out.push(sized(
        ident(&[&p[..], &["RESET"]].concat()),
        32,
        r.reset() as u64,
        "",
    ));
    record(o, block, format!("{key}.Name"), &out[start..]);
    for (i, f) in r.fields.iter().enumerate() {
        let start = out.len();
        field_consts(out, &p, f);
        record(o, block, format!("{key}.Fields[{i}].Name"), &out[start..]);
    }
}

/// Every constant of a block's package, in model order.
pub fn consts(block: &Block) -> Vec<Const> {
    consts_and_origins(block).0
}

/// The constants and, for each name made from a CSR name, where that name is.
pub fn consts_and_origins(block: &Block) -> (Vec<Const>, Origins) {
    let mut o = Origins::default();
    let aw = block.addr_bits();
    let mut out = vec![
        bytes("BLOCK_SIZE".into(), block.size, "bytes the block decodes"),
        uint(
            "ADDR_WIDTH".into(),
            aw as u64,
            "address bits of its bus port",
        ),
    ];
    if let Some(p) = block.evt_sem().map(|l| &l.params) {
        out.push(uint(
            "HW_INC_PORTS".into(),
            p.hw_inc_ports as u64,
            "hardware increment ports",
        ));
        out.push(uint(
            "SEQ_SUBOP_BITS".into(),
            p.seq_subop_bits as u64,
            "sequencer subop width",
        ));
        out.push(sized(
            "SEQ_SUBOP_WAIT_GE_DEC".into(),
            p.seq_subop_bits,
            p.seq_subop_wait_ge_dec,
            "wait until sem >= val, then subtract val",
        ));
        out.push(sized(
            "SEQ_SUBOP_INC".into(),
            p.seq_subop_bits,
            p.seq_subop_inc,
            "add val",
        ));
    }
    if block.udma().is_some() {
        out.push(uint(
            "RING_BASE_W".into(),
            super::sv_udma::RING_BASE_W.into(),
            "bits of the ring base the engine reads (high and low register side by side)",
        ));
    }
    for (i, r) in block.registers.iter().enumerate() {
        let key = format!("Registers[{i}]");
        reg_consts(
            &mut out,
            &mut o,
            block,
            &key,
            aw,
            &[],
            r,
            "within the block",
        );
    }
    for (bi, b) in block.bundles.iter().enumerate() {
        let n = b.name.as_str();
        let start = out.len();
        out.push(sized(
            ident(&[n, "BASE"]),
            aw,
            b.offset,
            format!("bundle {n}: first instance"),
        ));
        out.push(sized(
            ident(&[n, "LAST"]),
            aw,
            b.offset + b.count * b.stride - 1,
            "last byte of the last instance",
        ));
        out.push(bytes(ident(&[n, "STRIDE"]), b.stride, "bytes per instance"));
        out.push(uint(ident(&[n, "COUNT"]), b.count, "instances"));
        record(&mut o, block, format!("Bundles[{bi}].Name"), &out[start..]);
        for (ri, r) in b.registers.iter().enumerate() {
            let key = format!("Bundles[{bi}].Registers[{ri}]");
            reg_consts(
                &mut out,
                &mut o,
                block,
                &key,
                aw,
                &[n],
                r,
                "within one instance",
            );
        }
    }
    (out, o)
}

pub fn render(csrs: &Csrs) -> Result<Vec<OutFile>, askama::Error> {
    let mut files = Vec::new();
    for block in &csrs.blocks {
        // CSR names are unique per scope, but joined with `_` two may still meet: the name
        // check (`names::check`) reads the rendered package.
        let consts = consts(block);
        let t = RegPkg {
            header: DO_NOT_EDIT,
            package: package(block),
            block,
            description: comment_lines(&block.description, 0, 100),
            consts,
        };
        files.push(OutFile::new(
            format!("rtl/gen/{}.sv", package(block)),
            finish(t.render()?),
        ));
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ident_upper_cases_and_joins() {
        assert_eq!(ident(&["m2s_tdrtp_inc", "VAL"]), "M2S_TDRTP_INC_VAL");
        assert_eq!(ident(&["a.b"]), "A_B");
    }
}
