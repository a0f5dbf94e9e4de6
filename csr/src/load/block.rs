//! `blocks/NAME.*`: one register block per file, its bundles and kind parameters.

use super::checks::{ident, no_overlap, unique_names};
use super::layouts::resolve_kind;
use super::read::{read, MISSING};
use super::register::{build_registers, parse_role};
use super::roles::check_roles;
use super::Source;
use crate::error::{ErrorKind, Result};
use crate::layouts::EvtSemParams;
use crate::limits::MAX_ARRAY_SIZE;
use crate::model::{Block, Bundle, Register, Side};
use crate::raw;
use crate::roles::{BundleRole, RegRole};
use crate::schema::{Key, Ty};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Read the block files the address map names, in the order it first names them, and index them
/// by name.
pub(super) fn read_blocks(
    dir: &Path,
    map_src: &Source,
    map_raw: &raw::MapFile,
    sources: &mut Vec<PathBuf>,
) -> Result<(Vec<Block>, HashMap<String, usize>)> {
    let mut blocks: Vec<Block> = Vec::new();
    let mut block_index: HashMap<String, usize> = HashMap::new();
    for (i, ap) in map_raw.apertures.iter().enumerate() {
        let Some(name) = &ap.block else { continue };
        if block_index.contains_key(name) {
            continue;
        }
        // The name becomes a file name here and in the outputs: it must be a name, not a path.
        ident(map_src, "block", &format!("apertures[{i}].block"), name)?;
        let stem = format!("blocks/{name}");
        let (src, raw_block): (_, raw::BlockFile) = read(dir, &stem, sources).map_err(|e| {
            // Only a missing file is the map's fault; an unreadable one is the file's own.
            if e.kind == ErrorKind::Io && e.message.starts_with(MISSING) {
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
                    block.name.escape_debug()
                ),
            ));
        }
        block_index.insert(name.clone(), blocks.len());
        blocks.push(block);
    }
    Ok((blocks, block_index))
}

/// The block kinds by name, before their parameters are read: what selects a block's template,
/// its `Parameters` keys (`KindName::parameters`) and its roles (`roles::role_needs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KindName {
    EvtSem,
    UdmaQueueGroup,
    SdmaBcast,
    Iatu,
    RemapWindows,
    SemSeq,
    RouteTable,
    LinkHealth,
    InboundWindows,
}

impl KindName {
    pub(crate) const ALL: &'static [KindName] = &[
        KindName::EvtSem,
        KindName::UdmaQueueGroup,
        KindName::SdmaBcast,
        KindName::Iatu,
        KindName::RemapWindows,
        KindName::SemSeq,
        KindName::RouteTable,
        KindName::LinkHealth,
        KindName::InboundWindows,
    ];

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            KindName::EvtSem => "evt_sem",
            KindName::UdmaQueueGroup => "udma_queue_group",
            KindName::SdmaBcast => "sdma_bcast",
            KindName::Iatu => "iatu",
            KindName::RemapWindows => "remap_windows",
            KindName::SemSeq => "sem_seq",
            KindName::RouteTable => "route_table",
            KindName::LinkHealth => "link_health",
            KindName::InboundWindows => "inbound_windows",
        }
    }

    /// The `Parameters` keys a block of this kind must have (and the only ones it may have).
    pub(crate) fn parameters(self) -> &'static [Key] {
        match self {
            KindName::EvtSem => EVT_SEM_PARAMS,
            KindName::UdmaQueueGroup => UDMA_PARAMS,
            KindName::InboundWindows => INBOUND_PARAMS,
            KindName::SdmaBcast
            | KindName::Iatu
            | KindName::RemapWindows
            | KindName::SemSeq
            | KindName::RouteTable
            | KindName::LinkHealth => &[],
        }
    }
}

/// A numeric parameter's accepted range and its spelling in the schema, from one pair of
/// literals so the two cannot drift.
macro_rules! span {
    ($lo:literal ..= $hi:literal) => {
        Span {
            range: $lo..=$hi,
            text: concat!($lo, "..=", $hi),
        }
    };
}

struct Span {
    range: std::ops::RangeInclusive<u64>,
    text: &'static str,
}

const HW_INC_PORTS: &str = "HwIncPorts";
const SEQ_SUBOP_BITS: &str = "SeqSubopBits";
const SEQ_SUBOP_WAIT_GE_DEC: &str = "SeqSubopWaitGeDec";
const SEQ_SUBOP_INC: &str = "SeqSubopInc";
const SIDE: &str = "Side";
const HW_INC_PORTS_SPAN: Span = span!(1..=8);
const SEQ_SUBOP_BITS_SPAN: Span = span!(1..=16);
/// The sides a UDMA queue group may drive, in the order the schema lists them.
const SIDES: [Side; 2] = [Side::M2s, Side::S2m];

const EVT_SEM_PARAMS: &[Key] = &[
    Key::req(
        HW_INC_PORTS,
        Ty::Uint,
        "Hardware increment ports (DMA semaphore writes arriving beside the bus).",
    )
    .allowed(HW_INC_PORTS_SPAN.text),
    Key::req(
        SEQ_SUBOP_BITS,
        Ty::Uint,
        "Width of the sequencer port's subop code.",
    )
    .unit("bits")
    .allowed(SEQ_SUBOP_BITS_SPAN.text),
    Key::req(
        SEQ_SUBOP_WAIT_GE_DEC,
        Ty::Uint,
        "Sequencer subop code: wait until sem >= val, then subtract val atomically.",
    )
    .allowed("a SeqSubopBits-bit code, not SeqSubopInc"),
    Key::req(SEQ_SUBOP_INC, Ty::Uint, "Sequencer subop code: add val.")
        .allowed("a SeqSubopBits-bit code, not SeqSubopWaitGeDec"),
];

const DEFAULT_WINDOWS: &str = "DefaultWindows";

const INBOUND_PARAMS: &[Key] = &[Key::req(
    DEFAULT_WINDOWS,
    Ty::Strings,
    "Windows enabled (READ and WRITE) at reset, in window order: an aperture of the die map (every instance) or `APERTURE/BUNDLE`, one bundle of the aperture's block (e.g. EVT_SEM/SEM_INC).",
)
.allowed("at most the window count; each must be expressible as one base/mask window and must not cover the inbound block's own aperture")];

const UDMA_PARAMS: &[Key] = &[Key::req(
    SIDE,
    Ty::Str,
    "Direction of the engine's queues: memory to stream or stream to memory.",
)
.allowed("M2S, S2M")];

/// A block kind and its parameters as the file gives them, before its layout is resolved.
pub(super) enum Kind {
    EvtSem(EvtSemParams),
    UdmaQueueGroup { side: Side },
    SdmaBcast,
    Iatu,
    RemapWindows,
    SemSeq,
    RouteTable,
    LinkHealth,
    InboundWindows { defaults: Vec<String> },
}

impl Kind {
    pub(super) fn name(&self) -> KindName {
        match self {
            Kind::EvtSem(_) => KindName::EvtSem,
            Kind::UdmaQueueGroup { .. } => KindName::UdmaQueueGroup,
            Kind::SdmaBcast => KindName::SdmaBcast,
            Kind::Iatu => KindName::Iatu,
            Kind::RemapWindows => KindName::RemapWindows,
            Kind::SemSeq => KindName::SemSeq,
            Kind::RouteTable => KindName::RouteTable,
            Kind::LinkHealth => KindName::LinkHealth,
            Kind::InboundWindows { .. } => KindName::InboundWindows,
        }
    }
    pub(super) fn as_str(&self) -> &'static str {
        self.name().as_str()
    }
}

/// A block's registers and bundles with its kind, as the shape and role checks see them.
pub(super) struct Shape<'a> {
    pub kind: &'a Kind,
    pub registers: &'a [Register],
    pub bundles: &'a [Bundle],
}

impl Shape<'_> {
    pub(super) fn bundle_by_role(&self, role: BundleRole) -> Option<&Bundle> {
        self.bundles.iter().find(|b| b.role == Some(role))
    }
    pub(super) fn reg_by_role(&self, role: RegRole) -> Option<&Register> {
        self.registers.iter().find(|r| r.role == Some(role))
    }
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
        if count == 0 || count > MAX_ARRAY_SIZE {
            return Err(src.err(
                ErrorKind::BadArray,
                format!("{key}.ArraySize"),
                format!(
                    "bundle `{}` has ArraySize {count}; it must be 1..={MAX_ARRAY_SIZE}",
                    b.name
                ),
            ));
        }
        // A power of two, and the bundle aligned to it: the generated decoders take the
        // instance index as a bit slice of the address.
        if stride < 4 || !stride.is_power_of_two() {
            return Err(src.err(
                ErrorKind::BadArray,
                format!("{key}.BundleSizeInBytes"),
                format!(
                    "bundle `{}` size {stride:#x} must be a power of two of at least 4",
                    b.name
                ),
            ));
        }
        if !b.address_offset.0.is_multiple_of(stride) {
            return Err(src.err(
                ErrorKind::BadArray,
                format!("{key}.AddressOffset"),
                format!(
                    "bundle `{}` at {:#x} must be aligned to its size {stride:#x}",
                    b.name, b.address_offset.0
                ),
            ));
        }
        let regs = build_registers(src, &format!("{key}.Registers"), b.registers)?;
        for (j, r) in regs.iter().enumerate() {
            if r.offset.checked_add(4).is_none_or(|end| end > stride) {
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
                .map(|(j, r)| register_extent(&format!("{key}.Registers"), j, r))
                .collect(),
        )?;
        let role = parse_role(
            src,
            &format!("{key}.Role"),
            "bundle",
            b.role.as_deref(),
            BundleRole::parse,
            BundleRole::spellings,
        )?;
        bundles.push(Bundle {
            name: b.name,
            role,
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
        .map(|(i, r)| register_extent("Registers", i, r))
        .collect();
    for (i, b) in bundles.iter().enumerate() {
        let span = b.count as u128 * b.stride as u128;
        if span > size as u128 {
            // Too many instances for the block wherever the bundle starts: the size is to blame.
            return Err(src.err(
                ErrorKind::OutOfRange,
                format!("Bundles[{i}].ArraySize"),
                format!(
                    "bundle `{}`: {} instances of {:#x} bytes take {span:#x} bytes, more than \
                     the {size:#x}-byte block",
                    b.name, b.count, b.stride
                ),
            ));
        }
        extents.push((
            format!("Bundles[{i}].AddressOffset"),
            b.name.clone(),
            b.offset as u128,
            b.offset as u128 + span,
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
    let shape = Shape {
        kind: &kind,
        registers: &registers,
        bundles: &bundles,
    };
    check_roles(src, &shape)?;
    let kind = resolve_kind(src, &shape)?;
    Ok(Block {
        name: raw.name,
        description: raw.description,
        kind,
        size,
        registers,
        bundles,
        source: src.path.clone(),
    })
}

fn block_kind(src: &Source, raw: &raw::BlockFile) -> Result<Kind> {
    let Some(name) = KindName::ALL
        .iter()
        .copied()
        .find(|k| k.as_str() == raw.kind)
    else {
        let known: Vec<&str> = KindName::ALL.iter().map(|k| k.as_str()).collect();
        return Err(src.err(
            ErrorKind::BadValue,
            "Kind",
            format!(
                "unknown block kind `{}` (one of {})",
                raw.kind,
                known.join(", ")
            ),
        ));
    };
    let allowed: Vec<&str> = name.parameters().iter().map(|k| k.name).collect();
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
    Ok(match name {
        KindName::EvtSem => {
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
            let hw_inc_ports = uint(HW_INC_PORTS, HW_INC_PORTS_SPAN.range)? as u32;
            let seq_subop_bits = uint(SEQ_SUBOP_BITS, SEQ_SUBOP_BITS_SPAN.range)? as u32;
            let codes = 0..=(1u64 << seq_subop_bits) - 1;
            let seq_subop_wait_ge_dec = uint(SEQ_SUBOP_WAIT_GE_DEC, codes.clone())?;
            let seq_subop_inc = uint(SEQ_SUBOP_INC, codes)?;
            if seq_subop_inc == seq_subop_wait_ge_dec {
                return Err(src.err(
                    ErrorKind::BadValue,
                    format!("Parameters.{SEQ_SUBOP_INC}"),
                    format!("{SEQ_SUBOP_INC} and {SEQ_SUBOP_WAIT_GE_DEC} must differ"),
                ));
            }
            Kind::EvtSem(EvtSemParams {
                hw_inc_ports,
                seq_subop_bits,
                seq_subop_wait_ge_dec,
                seq_subop_inc,
            })
        }
        KindName::UdmaQueueGroup => {
            let given = param(SIDE)?.as_str();
            let Some(side) = SIDES.into_iter().find(|s| Some(s.as_str()) == given) else {
                let names: Vec<String> = SIDES
                    .iter()
                    .map(|s| format!("\"{}\"", s.as_str()))
                    .collect();
                return Err(src.err(
                    ErrorKind::BadValue,
                    format!("Parameters.{SIDE}"),
                    format!("{SIDE} must be {}", names.join(" or ")),
                ));
            };
            Kind::UdmaQueueGroup { side }
        }
        KindName::SdmaBcast => Kind::SdmaBcast,
        KindName::Iatu => Kind::Iatu,
        KindName::RemapWindows => Kind::RemapWindows,
        KindName::SemSeq => Kind::SemSeq,
        KindName::RouteTable => Kind::RouteTable,
        KindName::LinkHealth => Kind::LinkHealth,
        KindName::InboundWindows => {
            let key = format!("Parameters.{DEFAULT_WINDOWS}");
            let bad = || {
                src.err(
                    ErrorKind::BadValue,
                    key.clone(),
                    format!("{DEFAULT_WINDOWS} must be a list of aperture names"),
                )
            };
            let list = param(DEFAULT_WINDOWS)?.as_array().ok_or_else(bad)?;
            let defaults = list
                .iter()
                .map(|v| v.as_str().map(str::to_string).ok_or_else(bad))
                .collect::<Result<Vec<_>>>()?;
            Kind::InboundWindows { defaults }
        }
    })
}

/// A 32-bit register's byte extent, keyed by its offset's path (`<list>[i].AddressOffset`).
fn register_extent(list: &str, i: usize, r: &Register) -> (String, String, u128, u128) {
    (
        format!("{list}[{i}].AddressOffset"),
        r.name.clone(),
        r.offset as u128,
        r.offset as u128 + 4,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The schema spells the Side values out; they must be the ones the loader accepts.
    #[test]
    fn side_allowed_text_lists_the_accepted_sides() {
        let names: Vec<&str> = SIDES.iter().map(|s| s.as_str()).collect();
        assert_eq!(UDMA_PARAMS[0].allowed, names.join(", "));
    }
}
