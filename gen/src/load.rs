//! Reads `csrs/`, checks every rule, and builds the model. Nothing is written here; a bad input
//! stops the run before any emitter runs.
//!
//! Layout of the CSR directory (each file may be JSON or YAML; the extension decides):
//!   soc_address.*   the routed address, its views and folds
//!   address_map.*   the die-local map, its parameters, and the blocks it instantiates
//!   blocks/NAME.*   one register block per file, named by the map's `block:` keys
//!   descriptors.*   ring descriptor formats and ring rules
//!   ext_inst.*      ExtendedInst words
//!   profiles.*      accelerator generations

use crate::error::{Error, ErrorKind, Location, Result};
use crate::locate::LineIndex;
use crate::model::*;
use crate::raw::{self, Num};
use serde::de::DeserializeOwned;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

mod udma;

/// One input file, kept with its line index so that checks made after parsing can say where.
struct Source {
    path: PathBuf,
    index: LineIndex,
}

impl Source {
    fn err(&self, kind: ErrorKind, key: impl Into<String>, message: impl Into<String>) -> Error {
        let key = key.into();
        Error {
            kind,
            at: Location {
                file: self.path.clone(),
                line: self.index.line_of(&key),
                key,
            },
            message: message.into(),
        }
    }
}

/// Load and validate the CSR directory.
pub fn load(dir: &Path) -> Result<Csrs> {
    let mut sources = Vec::new();
    let (soc_src, soc_raw): (_, raw::SocFile) = read(dir, "soc_address", &mut sources)?;
    let soc = build_soc(&soc_src, soc_raw)?;

    let (map_src, map_raw): (_, raw::MapFile) = read(dir, "address_map", &mut sources)?;
    // Blocks are read in the order the map first names them.
    let mut blocks: Vec<Block> = Vec::new();
    let mut block_index: HashMap<String, usize> = HashMap::new();
    for (i, ap) in map_raw.apertures.iter().enumerate() {
        let Some(name) = &ap.block else { continue };
        if block_index.contains_key(name) {
            continue;
        }
        let stem = format!("blocks/{name}");
        let (src, raw_block): (_, raw::BlockFile) =
            read(dir, &stem, &mut sources).map_err(|e| {
                if e.kind == ErrorKind::Io {
                    map_src.err(
                        ErrorKind::BadReference,
                        format!("apertures[{i}].block"),
                        format!("block `{name}` has no file: {}", e.message),
                    )
                } else {
                    e
                }
            })?;
        let block = build_block(&src, raw_block)?;
        if &block.name != name {
            return Err(src.err(
                ErrorKind::BadReference,
                "Name",
                format!(
                    "block file is named `{}` but the address map refers to it as `{name}`",
                    block.name
                ),
            ));
        }
        block_index.insert(name.clone(), blocks.len());
        blocks.push(block);
    }
    let map = build_map(&map_src, map_raw, &soc, &blocks, &block_index)?;

    let (desc_src, desc_raw): (_, raw::DescFile) = read(dir, "descriptors", &mut sources)?;
    let (descriptors, ring) = build_descriptors(&desc_src, desc_raw)?;
    let (word_src, word_raw): (_, raw::ExtFile) = read(dir, "ext_inst", &mut sources)?;
    let words = build_words(&word_src, word_raw)?;
    let (prof_src, prof_raw): (_, raw::ProfileFile) = read(dir, "profiles", &mut sources)?;
    let (profiles, default_profile) = build_profiles(&prof_src, prof_raw)?;

    let csrs = Csrs {
        soc,
        map,
        blocks,
        descriptors,
        ring,
        words,
        profiles,
        default_profile,
        sources,
    };
    check_cross_references(&csrs, &map_src, &desc_src, &word_src)?;
    udma::check_ring_ids(&csrs)?;
    Ok(csrs)
}

// ---------------------------------------------------------------- reading

const EXTENSIONS: [&str; 3] = ["json", "yaml", "yml"];

/// Find `dir/stem.{json,yaml,yml}`, parse it with serde (path-tracking), and index its lines.
fn read<T: DeserializeOwned>(
    dir: &Path,
    stem: &str,
    sources: &mut Vec<PathBuf>,
) -> Result<(Source, T)> {
    let found: Vec<PathBuf> = EXTENSIONS
        .iter()
        .map(|ext| dir.join(format!("{stem}.{ext}")))
        .filter(|p| p.is_file())
        .collect();
    let path = match found.as_slice() {
        [one] => one.clone(),
        [] => {
            return Err(Error {
                kind: ErrorKind::Io,
                at: Location {
                    file: dir.join(format!("{stem}.yaml")),
                    key: String::new(),
                    line: None,
                },
                message: format!(
                    "missing: expected {stem}.json or {stem}.yaml in {}",
                    dir.display()
                ),
            })
        }
        many => {
            return Err(Error {
                kind: ErrorKind::DuplicateName,
                at: Location {
                    file: many[1].clone(),
                    key: String::new(),
                    line: None,
                },
                message: format!(
                    "{stem} is described twice ({} and this file)",
                    many[0].display()
                ),
            })
        }
    };
    let text = std::fs::read_to_string(&path).map_err(|e| Error {
        kind: ErrorKind::Io,
        at: Location {
            file: path.clone(),
            key: String::new(),
            line: None,
        },
        message: format!("cannot read: {e}"),
    })?;
    sources.push(path.clone());
    let is_json = path.extension().is_some_and(|e| e == "json");
    let value = if is_json {
        let mut de = serde_json::Deserializer::from_str(&text);
        serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let (line, msg) = (e.inner().line(), strip_position(&e.inner().to_string()));
            syntax_error(&path, e.path().to_string(), Some(line), msg)
        })?
    } else {
        let de = serde_yaml::Deserializer::from_str(&text);
        serde_path_to_error::deserialize(de).map_err(|e| {
            let line = e.inner().location().map(|l| l.line());
            let msg = strip_position(&e.inner().to_string());
            syntax_error(&path, e.path().to_string(), line, msg)
        })?
    };
    Ok((
        Source {
            path,
            index: LineIndex::new(&text),
        },
        value,
    ))
}

fn syntax_error(path: &Path, key: String, line: Option<usize>, message: String) -> Error {
    let key = if key == "." { String::new() } else { key };
    Error {
        kind: ErrorKind::Syntax,
        at: Location {
            file: path.to_path_buf(),
            key,
            line: line.filter(|l| *l > 0),
        },
        message,
    }
}

/// serde messages end in " at line L column C"; the location already says where.
fn strip_position(msg: &str) -> String {
    match msg.find(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

// ---------------------------------------------------------------- shared checks

/// Names must be unique within one scope. `items` yields (key path of the name, name).
fn unique_names<'a>(
    src: &Source,
    what: &str,
    items: impl IntoIterator<Item = (String, &'a str)>,
) -> Result<()> {
    let mut seen: HashMap<&str, String> = HashMap::new();
    for (key, name) in items {
        if let Some(first) = seen.get(name) {
            return Err(src.err(
                ErrorKind::DuplicateName,
                key,
                format!("duplicate {what} name `{name}` (first used at `{first}`)"),
            ));
        }
        if name.is_empty() {
            return Err(src.err(ErrorKind::BadValue, key, format!("empty {what} name")));
        }
        seen.insert(name, key);
    }
    Ok(())
}

/// Half-open ranges must not intersect. `items` yields (key path, label, start, end).
fn no_overlap(
    src: &Source,
    what: &str,
    mut items: Vec<(String, String, u128, u128)>,
) -> Result<()> {
    items.sort_by_key(|i| (i.2, i.3));
    for pair in items.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        if b.2 < a.3 {
            return Err(src.err(
                ErrorKind::Overlap,
                b.0.clone(),
                format!(
                    "{what} `{}` [{:#x}, {:#x}) overlaps `{}` [{:#x}, {:#x})",
                    b.1, b.2, b.3, a.1, a.2, a.3
                ),
            ));
        }
    }
    Ok(())
}

fn bit_fields(
    src: &Source,
    key: &str,
    what: &str,
    word_bits: u32,
    raw: Vec<raw::RawBitField>,
) -> Result<Vec<BitField>> {
    let mut out = Vec::new();
    for (i, f) in raw.into_iter().enumerate() {
        let k = format!("{key}[{i}]");
        if f.width == 0 {
            return Err(src.err(
                ErrorKind::BadValue,
                format!("{k}.width"),
                "field width is 0",
            ));
        }
        if f.lsb as u64 + f.width as u64 > word_bits as u64 {
            return Err(src.err(
                ErrorKind::OutOfRange,
                format!("{k}.width"),
                format!(
                    "field `{}` [{}:{}] extends past the {word_bits}-bit {what}",
                    f.name,
                    f.lsb as u64 + f.width as u64 - 1,
                    f.lsb
                ),
            ));
        }
        out.push(BitField {
            name: f.name,
            lsb: f.lsb,
            width: f.width,
            description: f.description,
        });
    }
    unique_names(
        src,
        "field",
        out.iter()
            .enumerate()
            .map(|(i, f)| (format!("{key}[{i}].name"), f.name.as_str())),
    )?;
    no_overlap(
        src,
        "field",
        out.iter()
            .enumerate()
            .map(|(i, f)| {
                (
                    format!("{key}[{i}].lsb"),
                    f.name.clone(),
                    f.lsb as u128,
                    (f.lsb + f.width) as u128,
                )
            })
            .collect(),
    )?;
    Ok(out)
}

// ---------------------------------------------------------------- soc_address

fn build_soc(src: &Source, raw: raw::SocFile) -> Result<SocAddress> {
    if raw.width == 0 || raw.width > 64 {
        return Err(src.err(ErrorKind::BadValue, "width", "address width must be 1..=64"));
    }
    let mut views = Vec::new();
    for (i, v) in raw.views.into_iter().enumerate() {
        let fields = bit_fields(
            src,
            &format!("views[{i}].fields"),
            "SoC address",
            raw.width,
            v.fields,
        )?;
        views.push(View {
            name: v.name,
            description: v.description,
            fields,
        });
    }
    unique_names(
        src,
        "view",
        views
            .iter()
            .enumerate()
            .map(|(i, v)| (format!("views[{i}].name"), v.name.as_str())),
    )?;
    let mut folds = Vec::new();
    for (i, f) in raw.folds.into_iter().enumerate() {
        let mut steps = Vec::new();
        for (j, s) in f.steps.into_iter().enumerate() {
            let k = format!("folds[{i}].steps[{j}]");
            let view = views.iter().find(|v| v.name == s.view).ok_or_else(|| {
                src.err(
                    ErrorKind::BadReference,
                    format!("{k}.view"),
                    format!("no view named `{}`", s.view),
                )
            })?;
            let field = view.field(&s.field).ok_or_else(|| {
                src.err(
                    ErrorKind::BadReference,
                    format!("{k}.field"),
                    format!("view `{}` has no field `{}`", view.name, s.field),
                )
            })?;
            let source = match (s.arg, s.value) {
                (Some(a), None) => {
                    if !f.args.contains(&a) {
                        return Err(src.err(
                            ErrorKind::BadReference,
                            format!("{k}.arg"),
                            format!("`{a}` is not one of the fold's args {:?}", f.args),
                        ));
                    }
                    FoldSource::Arg(a)
                }
                (None, Some(Num(v))) => {
                    if (v as u128) > field.value_mask() {
                        return Err(src.err(
                            ErrorKind::ResetTooWide,
                            format!("{k}.value"),
                            format!(
                                "{v:#x} does not fit the {}-bit field `{}`",
                                field.width, field.name
                            ),
                        ));
                    }
                    FoldSource::Const(v)
                }
                _ => {
                    return Err(src.err(
                        ErrorKind::BadValue,
                        k,
                        "a fold step takes exactly one of `arg` and `value`",
                    ))
                }
            };
            steps.push(FoldStep {
                view: view.name.clone(),
                field: field.clone(),
                source,
            });
        }
        folds.push(Fold {
            name: f.name,
            description: f.description,
            args: f.args,
            steps,
        });
    }
    unique_names(
        src,
        "fold",
        folds
            .iter()
            .enumerate()
            .map(|(i, f)| (format!("folds[{i}].name"), f.name.as_str())),
    )?;
    let soc = SocAddress {
        name: raw.name,
        width: raw.width,
        views,
        folds,
    };
    check_soc_roles(src, &soc)?;
    Ok(soc)
}

/// SoC-address fields the decoder, the folds' users and the die decode read by name.
pub const REQUIRED_SOC_FIELDS: &[(&str, &[&str])] = &[
    ("local", &["LOCAL", "DIE", "CAYMAN_ID", "CAYMAN_ID_VALID"]),
    ("neighbor", &["LOCAL", "DIE", "NEIGHBOR_ROUTE", "ID_VALID"]),
];
/// Fields that must sit on the same bits in both views: the routing decision reads them before
/// it knows which view the address was built with.
const SHARED_SOC_FIELDS: &[(&str, &str)] = &[
    ("LOCAL", "LOCAL"),
    ("DIE", "DIE"),
    ("CAYMAN_ID_VALID", "ID_VALID"),
];

fn check_soc_roles(src: &Source, soc: &SocAddress) -> Result<()> {
    for (view, fields) in REQUIRED_SOC_FIELDS {
        let v = soc.view(view).ok_or_else(|| {
            src.err(
                ErrorKind::BadReference,
                "views",
                format!("missing view `{view}`"),
            )
        })?;
        for f in *fields {
            if v.field(f).is_none() {
                return Err(src.err(
                    ErrorKind::BadReference,
                    "views",
                    format!("view `{view}` needs a field `{f}`"),
                ));
            }
        }
    }
    for (l, n) in SHARED_SOC_FIELDS {
        let (Some(a), Some(b)) = (soc.field("local", l), soc.field("neighbor", n)) else {
            continue;
        };
        if (a.lsb, a.width) != (b.lsb, b.width) {
            return Err(src.err(
                ErrorKind::BadValue,
                "views",
                format!("local.{l} and neighbor.{n} must occupy the same bits"),
            ));
        }
    }
    for name in ["NEIGHBOR_ROUTE", "ID_VALID"] {
        if soc.field("neighbor", name).is_some_and(|f| f.width != 1) {
            return Err(src.err(
                ErrorKind::BadValue,
                "views",
                format!("neighbor.{name} must be one bit wide"),
            ));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------- blocks

/// `"hi:lo"` or `"bit"` → (lsb, width).
fn parse_bits(s: &str) -> Option<(u32, u32)> {
    let (hi, lo) = match s.split_once(':') {
        Some((h, l)) => (h.trim().parse::<u32>().ok()?, l.trim().parse::<u32>().ok()?),
        None => {
            let b = s.trim().parse::<u32>().ok()?;
            (b, b)
        }
    };
    (hi >= lo).then_some((lo, hi - lo + 1))
}

fn build_register(src: &Source, key: &str, r: raw::RawRegister) -> Result<Register> {
    if !r.address_offset.0.is_multiple_of(4) {
        return Err(src.err(
            ErrorKind::BadValue,
            format!("{key}.AddressOffset"),
            format!(
                "register `{}` offset {:#x} is not 4-byte aligned",
                r.name, r.address_offset.0
            ),
        ));
    }
    let mut fields = Vec::new();
    for (i, f) in r.fields.into_iter().enumerate() {
        let k = format!("{key}.Fields[{i}]");
        let (lsb, width) = parse_bits(&f.bits).ok_or_else(|| {
            src.err(
                ErrorKind::BadValue,
                format!("{k}.Bits"),
                format!(
                    "`{}` is not a bit range (write \"hi:lo\" or \"bit\")",
                    f.bits
                ),
            )
        })?;
        if lsb + width > 32 {
            return Err(src.err(
                ErrorKind::OutOfRange,
                format!("{k}.Bits"),
                format!(
                    "field `{}` [{}] extends past the 32-bit register `{}`",
                    f.name, f.bits, r.name
                ),
            ));
        }
        let access = crate::model::Access::parse(&f.access).ok_or_else(|| {
            src.err(
                ErrorKind::BadValue,
                format!("{k}.Access"),
                format!("unknown access `{}` (one of {})", f.access, Access::ALL),
            )
        })?;
        let reset = f.reset.map(|n| n.0).unwrap_or(0);
        if width < 64 && reset >> width != 0 {
            return Err(src.err(
                ErrorKind::ResetTooWide,
                format!("{k}.Reset"),
                format!(
                    "reset {reset:#x} does not fit the {width}-bit field `{}`",
                    f.name
                ),
            ));
        }
        fields.push(Field {
            name: f.name,
            lsb,
            width,
            access,
            reset,
            description: f.description,
            role: f.role,
        });
    }
    if fields.is_empty() {
        return Err(src.err(
            ErrorKind::BadValue,
            format!("{key}.Fields"),
            format!("register `{}` has no fields", r.name),
        ));
    }
    unique_names(
        src,
        "field",
        fields
            .iter()
            .enumerate()
            .map(|(i, f)| (format!("{key}.Fields[{i}].Name"), f.name.as_str())),
    )?;
    no_overlap(
        src,
        "field",
        fields
            .iter()
            .enumerate()
            .map(|(i, f)| {
                (
                    format!("{key}.Fields[{i}].Bits"),
                    f.name.clone(),
                    f.lsb as u128,
                    (f.lsb + f.width) as u128,
                )
            })
            .collect(),
    )?;
    Ok(Register {
        name: r.name,
        offset: r.address_offset.0,
        description: r.description,
        role: r.role,
        fields,
    })
}

fn build_registers(src: &Source, key: &str, raw: Vec<raw::RawRegister>) -> Result<Vec<Register>> {
    let regs = raw
        .into_iter()
        .enumerate()
        .map(|(i, r)| build_register(src, &format!("{key}[{i}]"), r))
        .collect::<Result<Vec<_>>>()?;
    unique_names(
        src,
        "register",
        regs.iter()
            .enumerate()
            .map(|(i, r)| (format!("{key}[{i}].Name"), r.name.as_str())),
    )?;
    Ok(regs)
}

fn build_block(src: &Source, raw: raw::BlockFile) -> Result<Block> {
    let size = raw.size_in_bytes.0;
    if size < 4 || !size.is_power_of_two() {
        return Err(src.err(
            ErrorKind::BadArray,
            "SizeInBytes",
            format!("block size {size:#x} must be a power of two of at least 4"),
        ));
    }
    let kind = block_kind(src, &raw)?;
    let registers = build_registers(src, "Registers", raw.registers)?;
    let mut bundles = Vec::new();
    for (i, b) in raw.bundles.into_iter().enumerate() {
        let key = format!("Bundles[{i}]");
        let (count, stride) = (b.array_size.0, b.bundle_size_in_bytes.0);
        if count == 0 {
            return Err(src.err(
                ErrorKind::BadArray,
                format!("{key}.ArraySize"),
                format!("bundle `{}` has ArraySize 0", b.name),
            ));
        }
        if stride < 4 || stride % 4 != 0 {
            return Err(src.err(
                ErrorKind::BadArray,
                format!("{key}.BundleSizeInBytes"),
                format!(
                    "bundle `{}` size {stride:#x} must be a nonzero multiple of 4",
                    b.name
                ),
            ));
        }
        let regs = build_registers(src, &format!("{key}.Registers"), b.registers)?;
        for (j, r) in regs.iter().enumerate() {
            if r.offset + 4 > stride {
                return Err(src.err(
                    ErrorKind::OutOfRange,
                    format!("{key}.Registers[{j}].AddressOffset"),
                    format!(
                        "register `{}` at {:#x} lies outside the {stride:#x}-byte bundle `{}`",
                        r.name, r.offset, b.name
                    ),
                ));
            }
        }
        no_overlap(
            src,
            "register",
            regs.iter()
                .enumerate()
                .map(|(j, r)| {
                    (
                        format!("{key}.Registers[{j}].AddressOffset"),
                        r.name.clone(),
                        r.offset as u128,
                        r.offset as u128 + 4,
                    )
                })
                .collect(),
        )?;
        bundles.push(Bundle {
            name: b.name,
            role: b.role,
            offset: b.address_offset.0,
            count,
            stride,
            registers: regs,
        });
    }
    unique_names(
        src,
        "register or bundle",
        registers
            .iter()
            .enumerate()
            .map(|(i, r)| (format!("Registers[{i}].Name"), r.name.as_str()))
            .chain(
                bundles
                    .iter()
                    .enumerate()
                    .map(|(i, b)| (format!("Bundles[{i}].Name"), b.name.as_str())),
            ),
    )?;
    // Every register and every bundle's whole extent must fit the block and not overlap.
    let mut extents: Vec<(String, String, u128, u128)> = registers
        .iter()
        .enumerate()
        .map(|(i, r)| {
            (
                format!("Registers[{i}].AddressOffset"),
                r.name.clone(),
                r.offset as u128,
                r.offset as u128 + 4,
            )
        })
        .collect();
    for (i, b) in bundles.iter().enumerate() {
        extents.push((
            format!("Bundles[{i}].AddressOffset"),
            b.name.clone(),
            b.offset as u128,
            b.offset as u128 + b.count as u128 * b.stride as u128,
        ));
    }
    for (key, name, _, end) in &extents {
        if *end > size as u128 {
            return Err(src.err(
                ErrorKind::OutOfRange,
                key.clone(),
                format!("`{name}` ends at {end:#x}, past the {size:#x}-byte block"),
            ));
        }
    }
    no_overlap(src, "register or bundle", extents)?;
    let block = Block {
        name: raw.name,
        description: raw.description,
        kind,
        size,
        registers,
        bundles,
        source: src.path.clone(),
    };
    check_roles(src, &block)?;
    Ok(block)
}

fn block_kind(src: &Source, raw: &raw::BlockFile) -> Result<BlockKind> {
    let allowed: &[&str] = match raw.kind.as_str() {
        "evt_sem" => &[
            "HwIncPorts",
            "SeqSubopBits",
            "SeqSubopWaitGeDec",
            "SeqSubopInc",
        ],
        "udma_queue_group" => &["Side"],
        "sdma_bcast" | "iatu" | "remap_windows" => &[],
        other => {
            return Err(src.err(
                ErrorKind::BadValue,
                "Kind",
                format!(
                    "unknown block kind `{other}` (one of evt_sem, udma_queue_group, sdma_bcast, iatu, remap_windows)"
                ),
            ))
        }
    };
    for k in raw.parameters.keys() {
        if !allowed.contains(&k.as_str()) {
            return Err(src.err(
                ErrorKind::Syntax,
                format!("Parameters.{k}"),
                format!(
                    "unknown parameter `{k}` for a {} block (expected: {allowed:?})",
                    raw.kind
                ),
            ));
        }
    }
    let param = |name: &str| {
        raw.parameters.get(name).ok_or_else(|| {
            src.err(
                ErrorKind::BadValue,
                "Parameters",
                format!("missing parameter `{name}`"),
            )
        })
    };
    Ok(match raw.kind.as_str() {
        "evt_sem" => {
            let uint = |name: &str, range: std::ops::RangeInclusive<u64>| {
                param(name)?
                    .as_u64()
                    .filter(|n| range.contains(n))
                    .ok_or_else(|| {
                        src.err(
                            ErrorKind::BadValue,
                            format!("Parameters.{name}"),
                            format!(
                                "{name} must be an integer in {}..={}",
                                range.start(),
                                range.end()
                            ),
                        )
                    })
            };
            let hw_inc_ports = uint("HwIncPorts", 1..=8)? as u32;
            let seq_subop_bits = uint("SeqSubopBits", 1..=16)? as u32;
            let codes = 0..=(1u64 << seq_subop_bits) - 1;
            let seq_subop_wait_ge_dec = uint("SeqSubopWaitGeDec", codes.clone())?;
            let seq_subop_inc = uint("SeqSubopInc", codes)?;
            if seq_subop_inc == seq_subop_wait_ge_dec {
                return Err(src.err(
                    ErrorKind::BadValue,
                    "Parameters.SeqSubopInc",
                    "SeqSubopInc and SeqSubopWaitGeDec must differ",
                ));
            }
            BlockKind::EvtSem(EvtSemParams {
                hw_inc_ports,
                seq_subop_bits,
                seq_subop_wait_ge_dec,
                seq_subop_inc,
            })
        }
        "udma_queue_group" => {
            let side = match param("Side")?.as_str() {
                Some("M2S") => Side::M2s,
                Some("S2M") => Side::S2m,
                _ => {
                    return Err(src.err(
                        ErrorKind::BadValue,
                        "Parameters.Side",
                        "Side must be \"M2S\" or \"S2M\"",
                    ))
                }
            };
            BlockKind::UdmaQueueGroup { side }
        }
        "sdma_bcast" => BlockKind::SdmaBcast,
        "iatu" => BlockKind::Iatu,
        _ => BlockKind::RemapWindows,
    })
}

/// What the templates of each block kind rely on. Checked here so that a template never meets a
/// missing role.
struct RoleNeeds {
    bundles: &'static [&'static str],
    /// (bundle role or "" for top-level, register role, field roles)
    registers: &'static [(&'static str, &'static str, &'static [&'static str])],
}

fn role_needs(kind: &BlockKind) -> RoleNeeds {
    match kind {
        BlockKind::EvtSem(_) => RoleNeeds {
            bundles: &["event", "sem_read", "sem_set", "sem_inc", "sem_dec"],
            registers: &[],
        },
        BlockKind::UdmaQueueGroup { .. } => RoleNeeds {
            bundles: &["queue"],
            registers: &[
                ("queue", "cfg", &["enable"]),
                ("queue", "status", &["used", "overrun", "full"]),
                ("queue", "ring_base_lo", &["addr"]),
                ("queue", "ring_base_hi", &["addr"]),
                ("queue", "ring_len", &["len"]),
                ("queue", "head", &["offset", "ring_id"]),
                ("queue", "tail_inc", &["inc"]),
                ("queue", "tail", &["offset", "ring_id"]),
                ("queue", "sw_ctrl", &["rst_tail", "rst_head", "rst_q"]),
                ("", "err_log", &["overrun", "ring_id_err"]),
            ],
        },
        BlockKind::SdmaBcast => RoleNeeds {
            bundles: &[],
            registers: &[
                ("", "group", &["mask"]),
                ("", "queue", &["queue"]),
                ("", "m2s_inc", &[]),
                ("", "s2m_inc", &[]),
            ],
        },
        BlockKind::Iatu => RoleNeeds {
            bundles: &["region"],
            registers: &[
                ("region", "ctrl", &["enable"]),
                ("region", "base_lo", &[]),
                ("region", "base_hi", &[]),
                ("region", "limit_lo", &[]),
                ("region", "limit_hi", &[]),
                ("region", "target_lo", &[]),
                ("region", "target_hi", &[]),
                ("", "link_status", &["link_up", "credits"]),
            ],
        },
        BlockKind::RemapWindows => RoleNeeds {
            bundles: &["window"],
            registers: &[
                ("window", "ctrl", &["valid", "mode"]),
                ("window", "xt_addr", &[]),
                ("window", "soc_lo", &[]),
                ("window", "soc_hi", &[]),
                ("window", "u_mask", &[]),
                ("window", "l_mask", &[]),
                ("window", "mask", &[]),
                ("window", "match", &[]),
                ("window", "replace_lo", &[]),
                ("window", "replace_hi", &[]),
            ],
        },
    }
}

fn check_roles(src: &Source, block: &Block) -> Result<()> {
    let needs = role_needs(&block.kind);
    // A missing role is reported at the nearest thing that should hold it: the register for a
    // field role, the bundle for a register role, the block's bundle list for a bundle role.
    let missing = |key: String, what: String| {
        src.err(
            ErrorKind::BadReference,
            key,
            format!("a {} block needs {what}", block.kind.as_str()),
        )
    };
    for role in needs.bundles {
        if block.bundle_by_role(role).is_none() {
            return Err(missing(
                "Bundles".into(),
                format!("a bundle with Role \"{role}\""),
            ));
        }
    }
    for (bundle_role, reg_role, field_roles) in needs.registers {
        let (list_key, regs) = if bundle_role.is_empty() {
            ("Registers".to_string(), &block.registers)
        } else {
            let i = block
                .bundles
                .iter()
                .position(|b| b.role.as_deref() == Some(*bundle_role))
                .unwrap_or(0);
            (
                format!("Bundles[{i}].Registers"),
                &block.bundles[i].registers,
            )
        };
        let where_ = if bundle_role.is_empty() {
            "at the top level".to_string()
        } else {
            format!("in its \"{bundle_role}\" bundle")
        };
        let Some(ri) = regs
            .iter()
            .position(|r| r.role.as_deref() == Some(*reg_role))
        else {
            return Err(missing(
                list_key,
                format!("a register with Role \"{reg_role}\" {where_}"),
            ));
        };
        let reg = &regs[ri];
        for f in *field_roles {
            if reg.field_by_role(f).is_none() {
                return Err(missing(
                    format!("{list_key}[{ri}].Fields"),
                    format!("a field with Role \"{f}\" in register `{}`", reg.name),
                ));
            }
        }
    }
    if let BlockKind::EvtSem(_) = block.kind {
        check_evt_sem(src, block)?;
    }
    if let BlockKind::UdmaQueueGroup { .. } = block.kind {
        udma::check_shape(src, block)?;
    }
    if let BlockKind::SdmaBcast = block.kind {
        check_sdma_bcast(src, block)?;
    }
    Ok(())
}

/// The broadcast doorbell drives one increment value for both directions from the INC field of
/// the m2s_inc / s2m_inc registers, and stores the mask and queue fields as RW.
fn check_sdma_bcast(src: &Source, block: &Block) -> Result<()> {
    let bad = |msg: String| Err(src.err(ErrorKind::BadValue, "Registers", msg));
    let mut inc: Option<(u32, u32)> = None;
    for role in ["m2s_inc", "s2m_inc"] {
        let Some(reg) = block.reg_by_role(role) else {
            continue;
        };
        let incs: Vec<&Field> = reg
            .fields
            .iter()
            .filter(|f| f.access == Access::Inc)
            .collect();
        let [f] = incs.as_slice() else {
            return bad(format!(
                "register `{}` needs exactly one INC field",
                reg.name
            ));
        };
        if inc.is_some_and(|i| i != (f.lsb, f.width)) {
            return bad(format!(
                "the INC fields of the m2s_inc and s2m_inc registers must have the same bits (`{}`)",
                reg.name
            ));
        }
        inc = Some((f.lsb, f.width));
    }
    for (reg_role, field_role) in [("group", "mask"), ("queue", "queue")] {
        let f = block
            .reg_by_role(reg_role)
            .and_then(|r| r.field_by_role(field_role));
        if f.is_some_and(|f| f.access != Access::Rw) {
            return bad(format!("the `{field_role}` field must be RW"));
        }
    }
    Ok(())
}

/// The EVT_SEM template indexes its windows by address bits and keeps one storage behind the
/// four semaphore windows, so each window is one register of one field, a power-of-two stride,
/// and all semaphore windows agree on count and value field.
fn check_evt_sem(src: &Source, block: &Block) -> Result<()> {
    let sem = block.bundle_by_role("sem_read");
    for (i, b) in block.bundles.iter().enumerate() {
        let Some(role) = b.role.as_deref() else {
            continue;
        };
        let is_sem = role.starts_with("sem_");
        if !is_sem && role != "event" {
            continue;
        }
        let bad = |key: &str, msg: String| {
            Err(src.err(ErrorKind::BadArray, format!("Bundles[{i}].{key}"), msg))
        };
        if b.count < 2 {
            return bad(
                "ArraySize",
                format!("`{}` needs at least 2 entries", b.name),
            );
        }
        if !b.stride.is_power_of_two() {
            return bad(
                "BundleSizeInBytes",
                format!("`{}` needs a power-of-two stride", b.name),
            );
        }
        if b.offset % b.stride != 0 {
            return bad(
                "AddressOffset",
                format!("`{}` must start at a multiple of its stride", b.name),
            );
        }
        let [reg] = b.registers.as_slice() else {
            return bad(
                "Registers",
                format!("`{}` must hold exactly one register", b.name),
            );
        };
        let [field] = reg.fields.as_slice() else {
            return bad(
                "Registers[0].Fields",
                format!("register `{}` must hold exactly one field", reg.name),
            );
        };
        if !is_sem {
            if field.width != 1 || field.access != Access::Rw {
                return bad(
                    "Registers[0].Fields[0]",
                    format!("event field `{}` must be a 1-bit RW flag", field.name),
                );
            }
            continue;
        }
        let Some(sem) = sem else { continue };
        let first = &sem.registers[0].fields[0];
        if b.count != sem.count {
            return bad(
                "ArraySize",
                format!(
                    "semaphore window `{}` has {} entries but SEM_READ has {}",
                    b.name, b.count, sem.count
                ),
            );
        }
        if (field.lsb, field.width, field.reset) != (first.lsb, first.width, first.reset) {
            return bad(
                "Registers[0].Fields[0]",
                format!(
                    "semaphore window `{}` must place its value like `{}` (same bits and reset)",
                    b.name, sem.name
                ),
            );
        }
        if field.width < 2 {
            return bad(
                "Registers[0].Fields[0]",
                format!("semaphore value `{}` needs at least 2 bits", field.name),
            );
        }
    }
    Ok(())
}

// ---------------------------------------------------------------- address map

fn build_map(
    src: &Source,
    raw: raw::MapFile,
    soc: &SocAddress,
    blocks: &[Block],
    block_index: &HashMap<String, usize>,
) -> Result<DieMap> {
    let local = soc.views.first().and_then(|v| v.field("LOCAL"));
    if local.map(|f| f.width) != Some(raw.local_width) {
        return Err(src.err(
            ErrorKind::BadValue,
            "local_width",
            format!(
                "local_width {} differs from the width of the SoC address field LOCAL ({})",
                raw.local_width,
                local.map(|f| f.width).unwrap_or(0)
            ),
        ));
    }
    let params: Vec<Param> = raw
        .parameters
        .into_iter()
        .map(|p| Param {
            name: p.name,
            value: p.value.0,
            description: p.description,
        })
        .collect();
    unique_names(
        src,
        "parameter",
        params
            .iter()
            .enumerate()
            .map(|(i, p)| (format!("parameters[{i}].name"), p.name.as_str())),
    )?;
    let limit: u128 = 1u128 << raw.local_width;
    let mut apertures = Vec::new();
    for (i, a) in raw.apertures.into_iter().enumerate() {
        let key = format!("apertures[{i}]");
        let count = a.count.map(|n| n.0).unwrap_or(1);
        let size = a.size.0;
        if count == 0 {
            return Err(src.err(ErrorKind::BadArray, format!("{key}.count"), "count is 0"));
        }
        if size == 0 || !size.is_power_of_two() || a.base.0 % size != 0 {
            return Err(src.err(
                ErrorKind::BadArray,
                format!("{key}.size"),
                format!(
                    "aperture `{}`: size {size:#x} must be a power of two and base {:#x} a multiple of it",
                    a.name, a.base.0
                ),
            ));
        }
        let stride = match (count, a.stride) {
            (1, None) => size,
            (_, Some(Num(s))) if s >= size && s % size == 0 => s,
            (_, None) => {
                return Err(src.err(
                    ErrorKind::BadArray,
                    format!("{key}.count"),
                    format!("aperture `{}` has count {count} but no stride", a.name),
                ))
            }
            (_, Some(Num(s))) => {
                return Err(src.err(
                    ErrorKind::BadArray,
                    format!("{key}.stride"),
                    format!("stride {s:#x} must be a multiple of the size {size:#x}"),
                ))
            }
        };
        let (kind, block) = match (a.kind.as_str(), &a.block) {
            ("memory", None) => (ApertureKind::Memory, None),
            ("block", Some(b)) => {
                let bi = block_index[b];
                if blocks[bi].size > size {
                    return Err(src.err(
                        ErrorKind::OutOfRange,
                        format!("{key}.size"),
                        format!(
                            "aperture `{}` ({size:#x} bytes) is smaller than block `{b}` ({:#x} bytes)",
                            a.name, blocks[bi].size
                        ),
                    ));
                }
                (ApertureKind::Block, Some(bi))
            }
            ("memory", Some(_)) | ("block", None) => {
                return Err(src.err(
                    ErrorKind::BadValue,
                    format!("{key}.kind"),
                    "a `block` aperture names a block; a `memory` aperture does not",
                ))
            }
            (other, _) => {
                return Err(src.err(
                    ErrorKind::BadValue,
                    format!("{key}.kind"),
                    format!("unknown aperture kind `{other}` (memory or block)"),
                ))
            }
        };
        let ap = Aperture {
            name: a.name,
            base: a.base.0,
            size,
            count,
            stride,
            kind,
            block,
            description: a.description,
        };
        if ap.end() as u128 > limit {
            return Err(src.err(
                ErrorKind::OutOfRange,
                format!("{key}.base"),
                format!(
                    "aperture `{}` ends at {:#x}, past the {}-bit die-local space",
                    ap.name,
                    ap.end(),
                    raw.local_width
                ),
            ));
        }
        apertures.push(ap);
    }
    unique_names(
        src,
        "aperture",
        apertures
            .iter()
            .enumerate()
            .map(|(i, a)| (format!("apertures[{i}].name"), a.name.as_str())),
    )?;
    let mut extents = Vec::new();
    for (i, a) in apertures.iter().enumerate() {
        for n in 0..a.count {
            let label = if a.count > 1 {
                format!("{}[{n}]", a.name)
            } else {
                a.name.clone()
            };
            let b = a.instance_base(n) as u128;
            extents.push((format!("apertures[{i}].base"), label, b, b + a.size as u128));
        }
    }
    no_overlap(src, "aperture", extents)?;
    Ok(DieMap {
        name: raw.name,
        local_width: raw.local_width,
        params,
        apertures,
    })
}

// ---------------------------------------------------------------- descriptors, words, profiles

fn build_descriptors(src: &Source, raw: raw::DescFile) -> Result<(Vec<DescFormat>, RingRules)> {
    let mut out = Vec::new();
    for (i, d) in raw.descriptors.into_iter().enumerate() {
        if d.bytes == 0 || d.bytes % 4 != 0 {
            return Err(src.err(
                ErrorKind::BadValue,
                format!("descriptors[{i}].bytes"),
                "descriptor size must be a nonzero multiple of 4 bytes",
            ));
        }
        let fields = bit_fields(
            src,
            &format!("descriptors[{i}].fields"),
            "descriptor",
            d.bytes * 8,
            d.fields,
        )?;
        out.push(DescFormat {
            name: d.name,
            description: d.description,
            bytes: d.bytes,
            fields,
        });
    }
    unique_names(
        src,
        "descriptor",
        out.iter()
            .enumerate()
            .map(|(i, d)| (format!("descriptors[{i}].name"), d.name.as_str())),
    )?;
    let r = raw.ring;
    if r.ring_id_width == 0 || r.ring_id_width > 8 || r.initial_ring_id >> r.ring_id_width != 0 {
        return Err(src.err(
            ErrorKind::BadValue,
            "ring.initial_ring_id",
            "initial_ring_id must fit ring_id_width (1..=8 bits)",
        ));
    }
    if !r.base_align.0.is_power_of_two() {
        return Err(src.err(
            ErrorKind::BadValue,
            "ring.base_align",
            "base_align must be a power of two",
        ));
    }
    Ok((
        out,
        RingRules {
            initial_ring_id: r.initial_ring_id,
            ring_id_width: r.ring_id_width,
            base_align: r.base_align.0,
            max_len_code: r.max_len_code.0,
        },
    ))
}

fn build_words(src: &Source, raw: raw::ExtFile) -> Result<Vec<ExtWord>> {
    let mut out = Vec::new();
    for (i, w) in raw.words.into_iter().enumerate() {
        let mut fields = Vec::new();
        for (j, f) in w.fields.into_iter().enumerate() {
            let k = format!("words[{i}].fields[{j}]");
            if ![1, 2, 4, 8].contains(&f.bytes) {
                return Err(src.err(
                    ErrorKind::BadValue,
                    format!("{k}.bytes"),
                    "bytes must be 1, 2, 4 or 8",
                ));
            }
            if f.offset % f.bytes != 0 {
                return Err(src.err(
                    ErrorKind::BadValue,
                    format!("{k}.offset"),
                    format!(
                        "field `{}` at byte {} is not aligned to its size {}",
                        f.name, f.offset, f.bytes
                    ),
                ));
            }
            if f.offset + f.bytes > w.bytes {
                return Err(src.err(
                    ErrorKind::OutOfRange,
                    format!("{k}.offset"),
                    format!(
                        "field `{}` ends at byte {}, past the {}-byte word",
                        f.name,
                        f.offset + f.bytes,
                        w.bytes
                    ),
                ));
            }
            fields.push(WordField {
                name: f.name,
                offset: f.offset,
                bytes: f.bytes,
                description: f.description,
            });
        }
        unique_names(
            src,
            "field",
            fields
                .iter()
                .enumerate()
                .map(|(j, f)| (format!("words[{i}].fields[{j}].name"), f.name.as_str())),
        )?;
        no_overlap(
            src,
            "field",
            fields
                .iter()
                .enumerate()
                .map(|(j, f)| {
                    (
                        format!("words[{i}].fields[{j}].offset"),
                        f.name.clone(),
                        f.offset as u128,
                        (f.offset + f.bytes) as u128,
                    )
                })
                .collect(),
        )?;
        out.push(ExtWord {
            name: w.name,
            sub_opcode: w.sub_opcode,
            bytes: w.bytes,
            description: w.description,
            fields,
        });
    }
    unique_names(
        src,
        "word",
        out.iter()
            .enumerate()
            .map(|(i, w)| (format!("words[{i}].name"), w.name.as_str())),
    )?;
    Ok(out)
}

fn build_profiles(src: &Source, raw: raw::ProfileFile) -> Result<(Vec<Profile>, usize)> {
    let mut out = Vec::new();
    for (i, p) in raw.profiles.into_iter().enumerate() {
        let d2d_ip = match p.d2d_ip.as_str() {
            "none" => D2dIp::None,
            "dwc_pcie_xsr" => D2dIp::DwcPcieXsr,
            "ucie" => D2dIp::Ucie,
            other => {
                return Err(src.err(
                    ErrorKind::BadValue,
                    format!("profiles[{i}].d2d_ip"),
                    format!("unknown d2d_ip `{other}` (none, dwc_pcie_xsr, ucie)"),
                ))
            }
        };
        out.push(Profile {
            name: p.name,
            sb2sb: p.sb2sb,
            d2d_ip,
            d2d_controllers: p.d2d_controllers,
            description: p.description,
        });
    }
    unique_names(
        src,
        "profile",
        out.iter()
            .enumerate()
            .map(|(i, p)| (format!("profiles[{i}].name"), p.name.as_str())),
    )?;
    let default = out
        .iter()
        .position(|p| p.name == raw.default)
        .ok_or_else(|| {
            src.err(
                ErrorKind::BadReference,
                "default",
                format!("default profile `{}` is not defined", raw.default),
            )
        })?;
    Ok((out, default))
}

/// Names the code relies on across files: checked once here so that emitters, the model and the
/// testbench can look them up without failing.
fn check_cross_references(
    csrs: &Csrs,
    map_src: &Source,
    desc_src: &Source,
    word_src: &Source,
) -> Result<()> {
    for p in REQUIRED_PARAMS {
        if csrs.map.param(p).is_none() {
            return Err(map_src.err(
                ErrorKind::BadReference,
                "parameters",
                format!("missing parameter `{p}`"),
            ));
        }
    }
    for a in REQUIRED_APERTURES {
        if csrs.map.aperture(a).is_none() {
            return Err(map_src.err(
                ErrorKind::BadReference,
                "apertures",
                format!("missing aperture `{a}`"),
            ));
        }
    }
    for (d, fields) in REQUIRED_DESC_FIELDS {
        let fmt = csrs.descriptor(d).ok_or_else(|| {
            desc_src.err(
                ErrorKind::BadReference,
                "descriptors",
                format!("missing descriptor `{d}`"),
            )
        })?;
        for f in *fields {
            if fmt.field(f).is_none() {
                return Err(desc_src.err(
                    ErrorKind::BadReference,
                    "descriptors",
                    format!("descriptor `{d}` needs a field `{f}`"),
                ));
            }
        }
    }
    for (w, fields) in REQUIRED_WORD_FIELDS {
        let word = csrs.word(w).ok_or_else(|| {
            word_src.err(
                ErrorKind::BadReference,
                "words",
                format!("missing word `{w}`"),
            )
        })?;
        for f in *fields {
            if word.field(f).is_none() {
                return Err(word_src.err(
                    ErrorKind::BadReference,
                    "words",
                    format!("word `{w}` needs a field `{f}`"),
                ));
            }
        }
    }
    Ok(())
}

/// Die-map parameters the RTL and the model read by name.
pub const REQUIRED_PARAMS: &[&str] = &[
    "SBUF_PARTITIONS",
    "SBUF_PARTITION_STRIDE",
    "SDMA_ENGINES",
    "DESC_BYTES",
    "SBUF_BACKING_BYTES",
    "DATA_BYTES",
    "HOST_DIRECT_BASE",
];
/// Apertures the decoder and the datapath address by name.
pub const REQUIRED_APERTURES: &[&str] = &[
    "SBUF",
    "HBM",
    "EVT_SEM",
    "SDMA_M2S",
    "SDMA_S2M",
    "SDMA_BCAST",
    "D2D",
    "XT_WINDOW",
];
const REQUIRED_DESC_FIELDS: &[(&str, &[&str])] = &[
    ("m2s", &["LEN", "RING_ID", "WRITE_BARRIER", "BUF_PTR"]),
    ("s2m", &["LEN", "RING_ID", "BUF_PTR"]),
];
const REQUIRED_WORD_FIELDS: &[(&str, &[&str])] = &[
    (
        "rdma_desc_gen",
        &[
            "local_sem",
            "remote_sem",
            "remote_core_id",
            "remote_routing_id",
            "dst_addr",
        ],
    ),
    (
        "rdma_desc_start",
        &["local_sem", "remote_sem", "num_descriptors"],
    ),
];
