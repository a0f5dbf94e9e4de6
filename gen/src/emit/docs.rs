//! `docs/register-map.md`: the human-readable view of everything csrs/ describes. Every number in
//! it is computed here from the model; the template only lays out rows.

use super::escape;
use super::{finish, OutFile, DO_NOT_EDIT};
use askama::Template;
use std::result::Result;
use xdie_csr::*;

/// Inputs of the worked fold examples. They are the seed's example (a peer SBUF offset of
/// 0x100000 on die 1; chip id 0x12 for the cross-package case), not CSR facts: the results are
/// computed from the fold steps in csrs/. A fold whose argument has no example value here gets
/// no worked example.
const EXAMPLE_ARGS: &[(&str, u64)] =
    &[("dst_local", 0x10_0000), ("peer_die", 1), ("chip_id", 0x12)];

/// What software sees for each access kind. Kept next to `Access` in spirit; written here because
/// only the docs need prose.
fn access_meaning(a: Access) -> &'static str {
    match a {
        Access::Rw => "Read/write storage; byte strobes are honoured. Reads return the stored value.",
        Access::Ro => "Read-only; hardware supplies the value. Writes are ignored.",
        Access::Wo => "Write-only storage; reads return 0.",
        Access::Inc => {
            "Increment doorbell: writing N adds N to a hardware counter (e.g. a ring tail); reads return 0."
        }
        Access::W1p => "Write 1 to pulse an action for one clock cycle; writing 0 does nothing; reads return 0.",
        Access::W1c => "Sticky flag set by hardware; write 1 to clear it, writing 0 leaves it; reads return the flag.",
    }
}

fn d2d_ip_name(ip: D2dIp) -> &'static str {
    match ip {
        D2dIp::None => "none",
        D2dIp::DwcPcieXsr => "DWC-PCIe over XSR SerDes",
        D2dIp::Ucie => "UCIe",
    }
}

/// Table cells must not break the Markdown table: one line, every `|` escaped (descriptions
/// arrive escaped by `escape::markdown`; their `\\|` is kept as is).
fn cell(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut escaped = false;
    for c in s.chars() {
        match c {
            '|' if !escaped => out.push_str("\\|"),
            '\n' => out.push(' '),
            _ => out.push(c),
        }
        escaped = c == '\\' && !escaped;
    }
    out
}

fn hex(v: u64) -> String {
    format!("0x{v:X}")
}

/// `[msb:lsb]`, or `[lsb]` for one bit (also used by the HTML map).
pub(super) fn bits(msb: u32, lsb: u32) -> String {
    if msb == lsb {
        format!("[{lsb}]")
    } else {
        format!("[{msb}:{lsb}]")
    }
}

// ---------------------------------------------------------------- view-model

struct Row(Vec<String>);

struct Table {
    head: Vec<String>,
    rows: Vec<Row>,
}

impl Table {
    fn new(head: &[&str]) -> Self {
        Table {
            head: head.iter().map(|h| h.to_string()).collect(),
            rows: Vec::new(),
        }
    }
    fn push(&mut self, cells: Vec<String>) {
        self.rows.push(Row(cells.iter().map(|c| cell(c)).collect()));
    }
    /// `| a | b |` header and separator lines plus one line per row.
    fn markdown(&self) -> String {
        let mut out = format!("| {} |\n", self.head.join(" | "));
        out.push_str(&format!(
            "|{}|\n",
            self.head
                .iter()
                .map(|_| "---")
                .collect::<Vec<_>>()
                .join("|")
        ));
        for r in &self.rows {
            out.push_str(&format!("| {} |\n", r.0.join(" | ")));
        }
        out.trim_end().to_string()
    }
}

struct ViewDoc {
    name: String,
    description: String,
    table: String,
}

struct FoldDoc {
    signature: String,
    description: String,
    steps: String,
    example: Option<FoldExample>,
}

struct FoldExample {
    call: String,
    steps: String,
    result: String,
    set_bits: String,
}

struct RegDoc {
    title: String,
    description: String,
    reset: String,
    fields: String,
}

struct BundleDoc {
    name: String,
    layout: String,
    registers: Vec<RegDoc>,
}

struct BlockDoc {
    name: String,
    description: String,
    facts: String,
    summary: String,
    registers: Vec<RegDoc>,
    bundles: Vec<BundleDoc>,
}

struct NamedTable {
    name: String,
    description: String,
    facts: String,
    table: String,
}

#[derive(Template)]
#[template(path = "md/register_map.md")]
struct RegisterMap {
    header: &'static str,
    soc_name: String,
    soc_width: u32,
    views: Vec<ViewDoc>,
    overlay: String,
    shared: Vec<String>,
    folds: Vec<FoldDoc>,
    map_name: String,
    local_width: u32,
    params: String,
    apertures: String,
    access: String,
    blocks: Vec<BlockDoc>,
    descriptors: Vec<NamedTable>,
    ring: String,
    words: Vec<NamedTable>,
    profiles: String,
    profile_diffs: Vec<String>,
    sizing: String,
    sizing_tops: String,
}

pub fn render(csrs: &Csrs) -> Result<Vec<OutFile>, askama::Error> {
    let soc = &csrs.soc;
    let t = RegisterMap {
        header: DO_NOT_EDIT,
        soc_name: soc.name.clone(),
        soc_width: soc.width,
        views: soc.views.iter().map(view_doc).collect(),
        overlay: overlay_table(soc),
        shared: shared_bits(soc),
        folds: soc.folds.iter().map(|f| fold_doc(soc, f)).collect(),
        map_name: csrs.map.name.clone(),
        local_width: csrs.map.local_width,
        params: params_table(&csrs.map),
        apertures: apertures_table(csrs),
        access: access_table(),
        blocks: csrs.blocks.iter().map(|b| block_doc(csrs, b)).collect(),
        descriptors: csrs.descriptors.iter().map(desc_doc).collect(),
        ring: ring_table(&csrs.ring),
        words: csrs.words.iter().map(word_doc).collect(),
        profiles: profiles_table(csrs),
        profile_diffs: profile_diffs(csrs),
        sizing: sizing_table(csrs),
        sizing_tops: sizing_tops(csrs),
    };
    Ok(vec![OutFile::new(
        "docs/register-map.md",
        finish(t.render()?),
    )])
}

// ---------------------------------------------------------------- SoC address

fn view_doc(v: &View) -> ViewDoc {
    let mut t = Table::new(&["Bits", "Field", "Width", "Description"]);
    let mut fields: Vec<&BitField> = v.fields.iter().collect();
    fields.sort_by_key(|f| std::cmp::Reverse(f.lsb));
    for f in fields {
        t.push(vec![
            bits(f.msb(), f.lsb),
            format!("`{}`", f.name),
            f.width.to_string(),
            escape::markdown(&f.description),
        ]);
    }
    ViewDoc {
        name: v.name.clone(),
        description: escape::markdown(&v.description),
        table: t.markdown(),
    }
}

/// One row per bit segment that no field boundary of any view splits; one column per view.
fn overlay_table(soc: &SocAddress) -> String {
    let mut cuts: Vec<u32> = vec![0, soc.width];
    for v in &soc.views {
        for f in &v.fields {
            cuts.push(f.lsb);
            cuts.push(f.lsb + f.width);
        }
    }
    cuts.sort_unstable();
    cuts.dedup();
    let mut head = vec!["Bits".to_string()];
    head.extend(soc.views.iter().map(|v| format!("{} view", v.name)));
    let mut t = Table {
        head,
        rows: Vec::new(),
    };
    for w in cuts.windows(2).rev() {
        let (lo, hi) = (w[0], w[1] - 1);
        let mut row = vec![bits(hi, lo)];
        for v in &soc.views {
            let name = v
                .fields
                .iter()
                .find(|f| f.lsb <= lo && hi <= f.msb())
                .map(|f| {
                    if f.lsb == lo && f.msb() == hi {
                        format!("`{}`", f.name)
                    } else {
                        format!("`{}`{}", f.name, bits(hi - f.lsb, lo - f.lsb))
                    }
                })
                .unwrap_or_else(|| "(unused)".to_string());
            row.push(name);
        }
        t.push(row);
    }
    t.markdown()
}

/// Bits that two views give different names at the same position: the same wire, two meanings
/// of its name (the seed's "bit 54 is shared").
fn shared_bits(soc: &SocAddress) -> Vec<String> {
    let mut out = Vec::new();
    for (i, a) in soc.views.iter().enumerate() {
        for b in &soc.views[i + 1..] {
            for fa in &a.fields {
                for fb in &b.fields {
                    if fa.lsb == fb.lsb && fa.width == fb.width && fa.name != fb.name {
                        out.push(format!(
                            "Bit{} {} is one physical bit{}: `{}` in the {} view and `{}` in the {} view. \
                             An address is read through one view at a time; setting either name sets both.",
                            if fa.width > 1 { "s" } else { "" },
                            bits(fa.msb(), fa.lsb),
                            if fa.width > 1 { "s" } else { "" },
                            fa.name,
                            a.name,
                            fb.name,
                            b.name
                        ));
                    }
                }
            }
        }
    }
    out
}

fn step_value(step: &FoldStep) -> String {
    match &step.source {
        FoldSource::Arg(a) => format!("argument `{a}`"),
        FoldSource::Const(c) => format!("constant {}", hex(*c)),
    }
}

fn fold_doc(soc: &SocAddress, fold: &Fold) -> FoldDoc {
    let mut steps = Table::new(&["Step", "View", "Field", "Bits", "Set to"]);
    for (i, s) in fold.steps.iter().enumerate() {
        steps.push(vec![
            (i + 1).to_string(),
            s.view.clone(),
            format!("`{}`", s.field.name),
            bits(s.field.msb(), s.field.lsb),
            step_value(s),
        ]);
    }
    FoldDoc {
        signature: format!("{}({})", fold.name, fold.args.join(", ")),
        description: escape::markdown(&fold.description),
        steps: steps.markdown(),
        example: fold_example(soc, fold),
    }
}

fn fold_example(soc: &SocAddress, fold: &Fold) -> Option<FoldExample> {
    let args: Vec<u64> = fold
        .args
        .iter()
        .map(|a| EXAMPLE_ARGS.iter().find(|(n, _)| n == a).map(|(_, v)| *v))
        .collect::<Option<_>>()?;
    let mut t = Table::new(&["Step", "Field", "Value", "Address after the step"]);
    // Replay the fold one step at a time so the reader can follow each insertion; the last row
    // equals `apply_fold` on the whole fold.
    for n in 1..=fold.steps.len() {
        let partial = Fold {
            steps: fold.steps[..n].to_vec(),
            ..fold.clone()
        };
        let s = &fold.steps[n - 1];
        let value = s.field.get(soc.apply_fold(&partial, &args) as u128) as u64;
        t.push(vec![
            n.to_string(),
            format!("`{}`{}", s.field.name, bits(s.field.msb(), s.field.lsb)),
            hex(value),
            format!("`{}`", hex(soc.apply_fold(&partial, &args))),
        ]);
    }
    let result = soc.apply_fold(fold, &args);
    let set: Vec<String> = (0..soc.width)
        .filter(|b| result >> b & 1 == 1)
        .map(|b| b.to_string())
        .collect();
    Some(FoldExample {
        call: format!(
            "{}({})",
            fold.name,
            fold.args
                .iter()
                .zip(&args)
                .map(|(n, v)| format!("{n} = {}", hex(*v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        steps: t.markdown(),
        result: hex(result),
        set_bits: set.join(", "),
    })
}

// ---------------------------------------------------------------- die map

fn params_table(map: &DieMap) -> String {
    let mut t = Table::new(&["Parameter", "Value", "Description"]);
    for p in &map.params {
        t.push(vec![
            format!("`{}`", p.name),
            format!("{} ({})", p.value, hex(p.value)),
            escape::markdown(&p.description),
        ]);
    }
    t.markdown()
}

fn apertures_table(csrs: &Csrs) -> String {
    let mut t = Table::new(&[
        "Aperture",
        "Base",
        "Size",
        "Count",
        "Stride",
        "End (exclusive)",
        "Contents",
        "Description",
    ]);
    for a in &csrs.map.apertures {
        let contents = match csrs.aperture_block(a) {
            Some(b) => format!("block [`{0}`](#block-{0})", b.name),
            None => "memory".to_string(),
        };
        t.push(vec![
            format!("`{}`", a.name),
            hex(a.base),
            hex(a.size),
            a.count.to_string(),
            if a.count > 1 {
                hex(a.stride)
            } else {
                "-".to_string()
            },
            hex(a.end()),
            contents,
            escape::markdown(&a.description),
        ]);
    }
    t.markdown()
}

// ---------------------------------------------------------------- blocks

fn access_table() -> String {
    let mut t = Table::new(&["Access", "Meaning"]);
    for a in Access::ALL.split(", ").filter_map(Access::parse) {
        t.push(vec![
            format!("`{}`", a.as_str()),
            access_meaning(a).to_string(),
        ]);
    }
    t.markdown()
}

fn reg_doc(title: String, r: &Register) -> RegDoc {
    let mut t = Table::new(&["Bits", "Field", "Access", "Reset", "Description"]);
    let mut fields: Vec<&Field> = r.fields.iter().collect();
    fields.sort_by_key(|f| std::cmp::Reverse(f.lsb));
    for f in fields {
        t.push(vec![
            bits(f.msb(), f.lsb),
            format!("`{}`", f.name),
            f.access.as_str().to_string(),
            hex(f.reset),
            escape::markdown(&f.description),
        ]);
    }
    RegDoc {
        title,
        description: escape::markdown(&r.description),
        reset: format!("0x{:08X}", r.reset()),
        fields: t.markdown(),
    }
}

fn block_doc(csrs: &Csrs, b: &Block) -> BlockDoc {
    let instances: Vec<String> = csrs
        .map
        .apertures
        .iter()
        .filter(|a| csrs.aperture_block(a).is_some_and(|x| x.name == b.name))
        .map(|a| {
            if a.count > 1 {
                format!(
                    "`{}` ({} instances at {} + i × {})",
                    a.name,
                    a.count,
                    hex(a.base),
                    hex(a.stride)
                )
            } else {
                format!("`{}` at {}", a.name, hex(a.base))
            }
        })
        .collect();
    let source = b
        .source
        .file_name()
        .map(|n| format!("csrs/blocks/{}", n.to_string_lossy()))
        .unwrap_or_default();
    let facts = format!(
        "- Kind: `{}`; size {} bytes ({} address bits); described in `{}`.\n- Instantiated by: {}.",
        b.kind.as_str(),
        hex(b.size),
        b.addr_bits(),
        source,
        if instances.is_empty() {
            "no aperture".to_string()
        } else {
            instances.join(", ")
        }
    );
    let mut summary = Table::new(&["Offset", "Name", "Count", "Stride", "Description"]);
    // Sorted by offset so the summary reads as an address map of the block.
    let mut entries: Vec<(u64, Vec<String>)> = Vec::new();
    for r in &b.registers {
        entries.push((
            r.offset,
            vec![
                hex(r.offset),
                format!("`{}`", r.name),
                "1".to_string(),
                "-".to_string(),
                escape::markdown(&r.description),
            ],
        ));
    }
    for bu in &b.bundles {
        let names: Vec<String> = bu
            .registers
            .iter()
            .map(|r| format!("`{}`", r.name))
            .collect();
        entries.push((
            bu.offset,
            vec![
                format!(
                    "{} .. {}",
                    hex(bu.offset),
                    hex(bu.offset + bu.count * bu.stride - 1)
                ),
                format!("bundle `{}`", bu.name),
                bu.count.to_string(),
                hex(bu.stride),
                format!("Registers {}", names.join(", ")),
            ],
        ));
    }
    entries.sort_by_key(|e| e.0);
    for (_, row) in entries {
        summary.push(row);
    }
    let mut regs: Vec<&Register> = b.registers.iter().collect();
    regs.sort_by_key(|r| r.offset);
    BlockDoc {
        name: b.name.clone(),
        description: escape::markdown(&b.description),
        facts,
        summary: summary.markdown(),
        registers: regs
            .into_iter()
            .map(|r| reg_doc(format!("`{}` at {}", r.name, hex(r.offset)), r))
            .collect(),
        bundles: b.bundles.iter().map(bundle_doc).collect(),
    }
}

fn bundle_doc(bu: &Bundle) -> BundleDoc {
    let mut regs: Vec<&Register> = bu.registers.iter().collect();
    regs.sort_by_key(|r| r.offset);
    let last = bu.count - 1;
    BundleDoc {
        name: bu.name.clone(),
        layout: format!(
            "Base {}, {} instances, stride {}: register R of instance i is at {} + i × {} + offset(R) \
             (instance 0 at {}, instance {last} at {}).",
            hex(bu.offset),
            bu.count,
            hex(bu.stride),
            hex(bu.offset),
            hex(bu.stride),
            hex(bu.offset),
            hex(bu.offset + last * bu.stride),
        ),
        registers: regs
            .into_iter()
            .map(|r| {
                let first = bu.reg_offset(0, r);
                reg_doc(
                    format!(
                        "`{}.{}` at +{} (instance i: {} + i × {})",
                        bu.name,
                        r.name,
                        hex(r.offset),
                        hex(first),
                        hex(bu.stride)
                    ),
                    r,
                )
            })
            .collect(),
    }
}

// ---------------------------------------------------------------- descriptors and words

/// Where a field of a little-endian word array lies: `w1[7:0]`, or `w3[31:0] : w2[31:0]` when it
/// spans words (most significant part first).
fn word_bits(f: &BitField) -> String {
    let mut parts = Vec::new();
    let (first, last) = (f.lsb / 32, f.msb() / 32);
    for w in (first..=last).rev() {
        let lo = if w == first { f.lsb % 32 } else { 0 };
        let hi = if w == last { f.msb() % 32 } else { 31 };
        parts.push(format!("w{w}{}", bits(hi, lo)));
    }
    parts.join(" : ")
}

fn desc_doc(d: &DescFormat) -> NamedTable {
    let mut t = Table::new(&["Bits", "Word bits", "Field", "Width", "Description"]);
    for f in &d.fields {
        t.push(vec![
            bits(f.msb(), f.lsb),
            word_bits(f),
            format!("`{}`", f.name),
            f.width.to_string(),
            escape::markdown(&f.description),
        ]);
    }
    let used: u32 = d.fields.iter().map(|f| f.width).sum();
    NamedTable {
        name: d.name.clone(),
        description: escape::markdown(&d.description),
        facts: format!(
            "{} bytes = {} little-endian 32-bit words (word w holds bits [32w+31:32w]); \
             {} of {} bits assigned, the rest reserved (write 0).",
            d.bytes,
            d.bytes / 4,
            used,
            d.bytes * 8
        ),
        table: t.markdown(),
    }
}

fn ring_table(r: &RingRules) -> String {
    let mut t = Table::new(&["Rule", "Value"]);
    t.push(vec![
        "Ring id width".to_string(),
        format!("{} bits", r.ring_id_width),
    ]);
    t.push(vec![
        "Ring id of the first pass".to_string(),
        r.initial_ring_id.to_string(),
    ]);
    t.push(vec![
        "Ring id on each wrap".to_string(),
        format!("previous + 1 modulo {}", 1u64 << r.ring_id_width),
    ]);
    t.push(vec![
        "Ring base alignment".to_string(),
        format!("{} bytes", r.base_align),
    ]);
    t.push(vec![
        "`LEN` = 0 means".to_string(),
        format!("{} bytes", r.max_len_code),
    ]);
    t.markdown()
}

/// A word field's description, followed by its named codes, one per line of the cell.
fn field_doc(f: &WordField) -> String {
    let mut text = escape::markdown(&f.description);
    for v in &f.values {
        text.push_str(&format!(
            "<br>{} `{}`: {}",
            v.value,
            v.name,
            escape::markdown(&v.description)
        ));
    }
    text
}

fn word_doc(w: &ExtWord) -> NamedTable {
    let mut t = Table::new(&["Bytes", "Size", "Field", "Description"]);
    let mut fields: Vec<&WordField> = w.fields.iter().collect();
    fields.sort_by_key(|f| f.offset);
    let mut next = 0;
    let reserved = |t: &mut Table, from: u32, to: u32| {
        if to > from {
            t.push(vec![
                format!("{from}..{}", to - 1),
                (to - from).to_string(),
                "(reserved)".to_string(),
                "Write 0.".to_string(),
            ]);
        }
    };
    for f in fields {
        reserved(&mut t, next, f.offset);
        t.push(vec![
            if f.bytes > 1 {
                format!("{}..{}", f.offset, f.offset + f.bytes - 1)
            } else {
                f.offset.to_string()
            },
            f.bytes.to_string(),
            format!("`{}`", f.name),
            field_doc(f),
        ]);
        next = f.offset + f.bytes;
    }
    reserved(&mut t, next, w.bytes);
    NamedTable {
        name: w.name.clone(),
        description: escape::markdown(&w.description),
        facts: format!(
            "Sub-opcode {}; {} bytes; multi-byte fields are little-endian.",
            w.sub_opcode, w.bytes
        ),
        table: t.markdown(),
    }
}

// ---------------------------------------------------------------- profiles

fn yes_no(b: bool) -> String {
    if b { "yes" } else { "no" }.to_string()
}

fn profiles_table(csrs: &Csrs) -> String {
    let default = csrs.profile();
    let mut t = Table::new(&[
        "Profile",
        "0xBF SB2SB op",
        "D2D IP",
        "D2D controllers",
        "Differs from the default in",
        "Description",
    ]);
    for p in &csrs.profiles {
        let name = if p.name == default.name {
            format!("**{}** (default)", p.name)
        } else {
            p.name.clone()
        };
        t.push(vec![
            name,
            yes_no(p.sb2sb),
            d2d_ip_name(p.d2d_ip).to_string(),
            p.d2d_controllers.to_string(),
            {
                let d = differences(default, p);
                if d.is_empty() {
                    "nothing".to_string()
                } else {
                    d.join(", ")
                }
            },
            escape::markdown(&p.description),
        ]);
    }
    t.markdown()
}

/// One column per sizing profile, one row per key (as `csrs/sizing.*` spells it).
fn sizing_table(csrs: &Csrs) -> String {
    let mut head = vec!["Key".to_string()];
    for (i, s) in csrs.sizings.iter().enumerate() {
        head.push(if i == csrs.default_sizing {
            format!("**{}** (default)", s.name)
        } else {
            format!("`{}`", s.name)
        });
    }
    let head_refs: Vec<&str> = head.iter().map(String::as_str).collect();
    let mut t = Table::new(&head_refs);
    let keys = csrs.sizing().values();
    for (k, (key, _)) in keys.iter().enumerate() {
        let mut row = vec![format!("`{key}`")];
        for s in &csrs.sizings {
            let v = s.values()[k].1;
            row.push(if key.ends_with("_bytes") {
                bytes_text(v)
            } else {
                v.to_string()
            });
        }
        t.push(row);
    }
    t.markdown()
}

/// `4096 (4 KiB)` for a byte count that is a whole number of KiB or MiB, else the number.
fn bytes_text(v: u64) -> String {
    if v >= 1 << 20 && v % (1 << 20) == 0 {
        format!("{v:#x} ({} MiB)", v >> 20)
    } else if v >= 1 << 10 && v % (1 << 10) == 0 {
        format!("{v:#x} ({} KiB)", v >> 10)
    } else {
        format!("{v:#x}")
    }
}

/// The wrapper top and FuseSoC target of every profile but the default, with its description.
fn sizing_tops(csrs: &Csrs) -> String {
    let mut out = Vec::new();
    for (i, s) in csrs.sizings.iter().enumerate() {
        let what = if i == csrs.default_sizing {
            "`xdie_die` itself (FuseSoC target `die`)".to_string()
        } else {
            format!(
                "top `{}` (rtl/gen/{}.sv, FuseSoC target `die_{}`)",
                super::sv_sizing::wrapper_module(s),
                super::sv_sizing::wrapper_module(s),
                s.name
            )
        };
        let desc = escape::markdown(&s.description);
        out.push(format!(
            "- `{}`: {what}.{}",
            s.name,
            if desc.is_empty() {
                String::new()
            } else {
                format!(" {desc}")
            }
        ));
    }
    out.join("\n")
}

fn differences(a: &Profile, b: &Profile) -> Vec<String> {
    let mut d = Vec::new();
    if a.sb2sb != b.sb2sb {
        d.push("SB2SB op".to_string());
    }
    if a.d2d_ip != b.d2d_ip {
        d.push("D2D IP".to_string());
    }
    if a.d2d_controllers != b.d2d_controllers {
        d.push("D2D controllers".to_string());
    }
    d
}

/// Groups of profiles that share one data plane, in the order they first appear.
fn profile_diffs(csrs: &Csrs) -> Vec<String> {
    let mut groups: Vec<Vec<&Profile>> = Vec::new();
    for p in &csrs.profiles {
        match groups.iter_mut().find(|g| differences(g[0], p).is_empty()) {
            Some(g) => g.push(p),
            None => groups.push(vec![p]),
        }
    }
    groups
        .iter()
        .map(|g| {
            let names: Vec<String> = g.iter().map(|p| p.name.clone()).collect();
            let p = g[0];
            let d2d = match (p.d2d_ip, p.d2d_controllers) {
                (D2dIp::None, _) | (_, 0) => "no D2D controller".to_string(),
                (ip, n) => format!(
                    "{n} D2D controller{} ({})",
                    if n == 1 { "" } else { "s" },
                    d2d_ip_name(ip)
                ),
            };
            let sb2sb = if p.sb2sb { "with" } else { "without" };
            format!("{}: {sb2sb} the SB2SB op, {d2d}.", names.join(" = "))
        })
        .collect()
}
