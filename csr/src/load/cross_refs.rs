//! Names the code relies on across files (die parameters, apertures and the kinds of their
//! blocks, descriptor and word fields), resolved into the typed `Views` once everything is
//! loaded. A missing name is an error here, at the file and key that should hold it.

use super::Source;
use crate::error::{ErrorKind, Result};
use crate::layouts::EvtSemLayout;
use crate::model::{Aperture, Block, DescFormat, DieMap, ExtWord, RingRules, Side, WordField};
use crate::roles::ApertureId;
use crate::views::{
    AccCodes, AccDtype, DescLayout, DieApertures, DieParams, GenWordLayout, SideView, SocLayout,
    StartWordLayout, Views,
};

const LEN: &str = "LEN";
const RING_ID: &str = "RING_ID";
const BUF_PTR: &str = "BUF_PTR";
const WRITE_BARRIER: &str = "WRITE_BARRIER";
/// The descriptor formats the code drives and the fields each must have: the M2S side honours a
/// write barrier, the S2M side may carry one but does not need it.
const M2S_DESC: (&str, &[&str]) = ("m2s", &[LEN, RING_ID, BUF_PTR, WRITE_BARRIER]);
const S2M_DESC: (&str, &[&str]) = ("s2m", &[LEN, RING_ID, BUF_PTR]);

/// Every descriptor format `resolve_views` requires, with its required fields (for the schema
/// reference).
pub(crate) const DESCRIPTOR_FIELDS: &[(&str, &[&str])] = &[M2S_DESC, S2M_DESC];

/// Everything loaded before the views, with the files to blame.
pub(super) struct Loaded<'a> {
    pub map: &'a DieMap,
    pub blocks: &'a [Block],
    pub descriptors: &'a [DescFormat],
    pub ring: &'a RingRules,
    pub words: &'a [ExtWord],
    pub soc: SocLayout,
    pub map_src: &'a Source,
    pub desc_src: &'a Source,
    pub word_src: &'a Source,
}

pub(super) fn resolve_views(l: Loaded) -> Result<Views> {
    let params = DieParams::resolve(|name| {
        l.map.param(name).ok_or_else(|| {
            l.map_src.err(
                ErrorKind::BadReference,
                "parameters",
                format!("missing parameter `{name}`"),
            )
        })
    })?;
    let apertures = DieApertures::resolve(|id| {
        l.map.aperture(id.as_str()).cloned().ok_or_else(|| {
            l.map_src.err(
                ErrorKind::BadReference,
                "apertures",
                format!("missing aperture `{id}`"),
            )
        })
    })?;
    // The block behind an aperture must be of the kind the code drives it as.
    // The key of aperture `id`'s `key` in the address map.
    let aperture_key = |id: ApertureId, key: &str| {
        let i = l
            .map
            .apertures
            .iter()
            .position(|a| a.name == id.as_str())
            .unwrap_or(0);
        format!("apertures[{i}].{key}")
    };
    let wrong_kind = |id: ApertureId, want: &str| {
        l.map_src.err(
            ErrorKind::BadReference,
            aperture_key(id, "block"),
            format!("aperture `{id}` must instantiate {want}"),
        )
    };
    let block_of =
        |id: ApertureId| -> Option<&Block> { apertures.get(id).block.map(|i| &l.blocks[i]) };
    let evt_sem: EvtSemLayout = block_of(ApertureId::EvtSem)
        .and_then(Block::evt_sem)
        .cloned()
        .ok_or_else(|| wrong_kind(ApertureId::EvtSem, "an evt_sem block"))?;
    let sem_seq = block_of(ApertureId::SemSeq)
        .and_then(Block::sem_seq)
        .cloned()
        .ok_or_else(|| wrong_kind(ApertureId::SemSeq, "a sem_seq block"))?;
    // Per-core apertures: SBUF's instance count is the number of cores of a die; EVT_SEM and the
    // accumulate apertures have one instance per core too, and the sequencer offers a slot to
    // each of the two contexts (lanes) of every core.
    let cores = apertures.sbuf.count;
    for id in [
        ApertureId::EvtSem,
        ApertureId::SbufAccI32,
        ApertureId::SbufAccF32,
    ] {
        let n = apertures.get(id).count;
        if n != cores {
            return Err(l.map_src.err(
                ErrorKind::BadValue,
                aperture_key(id, "count"),
                format!(
                    "aperture `{id}` has {n} instances but SBUF has {cores}: each core of a die \
                     has one SBUF, one EVT_SEM and one of each accumulate aperture"
                ),
            ));
        }
    }
    if sem_seq.slots() < 2 * cores {
        return Err(l.map_src.err(
            ErrorKind::BadValue,
            aperture_key(ApertureId::SemSeq, "block"),
            format!(
                "block sem_seq has {} command slots but the die's {cores} cores have {} \
                 contexts (two each, one slot per context)",
                sem_seq.slots(),
                2 * cores
            ),
        ));
    }
    let side = |id: ApertureId, want: Side| -> Result<SideView> {
        let layout = block_of(id)
            .and_then(Block::udma)
            .filter(|u| u.side == want)
            .cloned()
            .ok_or_else(|| {
                wrong_kind(
                    id,
                    &format!("a udma_queue_group block with Side {}", want.as_str()),
                )
            })?;
        let aperture: Aperture = apertures.get(id).clone();
        if aperture.count < params.sdma_engines {
            // Blame the value of SDMA_ENGINES (the list as a whole when it cannot be found).
            let key = l
                .map
                .params
                .iter()
                .position(|p| p.name == "SDMA_ENGINES")
                .map_or("parameters".to_string(), |i| {
                    format!("parameters[{i}].value")
                });
            return Err(l.map_src.err(
                ErrorKind::BadValue,
                key,
                format!(
                    "SDMA_ENGINES is {} but aperture `{id}` has only {} instances",
                    params.sdma_engines, aperture.count
                ),
            ));
        }
        Ok(SideView { aperture, layout })
    };
    let m2s = side(ApertureId::SdmaM2s, Side::M2s)?;
    let s2m = side(ApertureId::SdmaS2m, Side::S2m)?;
    let bcast = block_of(ApertureId::SdmaBcast)
        .and_then(Block::bcast)
        .cloned()
        .ok_or_else(|| wrong_kind(ApertureId::SdmaBcast, "an sdma_bcast block"))?;
    let iatu = block_of(ApertureId::D2d)
        .and_then(Block::iatu)
        .cloned()
        .ok_or_else(|| wrong_kind(ApertureId::D2d, "an iatu block"))?;
    let remap = block_of(ApertureId::XtWindow)
        .and_then(Block::remap)
        .cloned()
        .ok_or_else(|| wrong_kind(ApertureId::XtWindow, "a remap_windows block"))?;
    let route = block_of(ApertureId::Route)
        .and_then(Block::route)
        .cloned()
        .ok_or_else(|| wrong_kind(ApertureId::Route, "a route_table block"))?;
    let health = block_of(ApertureId::D2dHealth)
        .and_then(Block::health)
        .cloned()
        .ok_or_else(|| wrong_kind(ApertureId::D2dHealth, "a link_health block"))?;
    // One health block per D2D controller.
    {
        let (ctrls, hl) = (
            apertures.get(ApertureId::D2d).count,
            apertures.get(ApertureId::D2dHealth).count,
        );
        if ctrls != hl {
            let i = l
                .map
                .apertures
                .iter()
                .position(|a| a.name == ApertureId::D2dHealth.as_str())
                .unwrap_or(0);
            return Err(l.map_src.err(
                ErrorKind::BadValue,
                format!("apertures[{i}].count"),
                format!(
                    "aperture `{}` has {hl} instances but `{}` has {ctrls}: one link-health block per D2D controller",
                    ApertureId::D2dHealth,
                    ApertureId::D2d
                ),
            ));
        }
    }
    let inbound = block_of(ApertureId::Inbound)
        .and_then(Block::inbound)
        .cloned()
        .ok_or_else(|| wrong_kind(ApertureId::Inbound, "an inbound_windows block"))?;
    let inbound_defaults = {
        let file = block_of(ApertureId::Inbound)
            .map(|b| b.source.clone())
            .unwrap_or_else(|| l.map_src.path.clone());
        let fail = |key: String, message: String| crate::error::Error {
            kind: ErrorKind::BadValue,
            at: crate::error::Location {
                file: file.clone(),
                key,
                line: None,
            },
            message,
        };
        let local_w = l.soc.local.local.width;
        if inbound.addr_width() != local_w {
            return Err(fail(
                "Bundles".into(),
                format!(
                    "the windows' base and mask are {} bits but the die-local address is {local_w}",
                    inbound.addr_width()
                ),
            ));
        }
        let addr_w: u32 = [&inbound.err_addr_lo, &inbound.err_addr_hi]
            .iter()
            .map(|r| r.fields[0].width)
            .sum();
        if addr_w != l.soc.address.width {
            return Err(fail(
                "Registers".into(),
                format!(
                    "the captured address holds {addr_w} bits but the SoC address is {} bits wide",
                    l.soc.address.width
                ),
            ));
        }
        let ports = apertures.get(ApertureId::D2d).count;
        if ports > 1u64 << inbound.err_port.width.min(63) {
            return Err(fail(
                "Registers".into(),
                format!(
                    "the PORT field is {} bits but the D2D aperture has {ports} controllers",
                    inbound.err_port.width
                ),
            ));
        }
        let own = apertures.get(ApertureId::Inbound).clone();
        let local_mask = if local_w >= 64 {
            u64::MAX
        } else {
            (1u64 << local_w) - 1
        };
        let mut out = Vec::new();
        for (i, name) in inbound.default_names.iter().enumerate() {
            let key = format!("Parameters.DefaultWindows[{i}]");
            let (ap_name, bundle) = match name.split_once('/') {
                Some((a, b)) => (a, Some(b)),
                None => (name.as_str(), None),
            };
            let ap = l.map.aperture(ap_name).ok_or_else(|| {
                fail(
                    key.clone(),
                    format!("no aperture `{ap_name}` in the die map"),
                )
            })?;
            // First address, bytes, instances and their distance.
            let (base, size) = match bundle {
                None => (ap.base, ap.size),
                Some(bn) => {
                    let blk = ap.block.map(|k| &l.blocks[k]);
                    let b = blk
                        .and_then(|blk| blk.bundles.iter().find(|b| b.name == bn))
                        .ok_or_else(|| {
                            fail(
                                key.clone(),
                                format!("aperture `{ap_name}` has no block bundle `{bn}`"),
                            )
                        })?;
                    // A bundle whose span is not a power of two (e.g. 100 semaphores) takes the
                    // power of two above it, if that adds no other register of the block.
                    let span = (b.count * b.stride).next_power_of_two();
                    let (lo, hi) = (b.offset, b.offset + span);
                    let other = blk.into_iter().flat_map(|blk| {
                        blk.bundles
                            .iter()
                            .filter(|o| o.name != b.name)
                            .map(|o| (o.name.clone(), o.offset, o.offset + o.count * o.stride))
                            .chain(
                                blk.registers
                                    .iter()
                                    .map(|r| (r.name.clone(), r.offset, r.offset + 4)),
                            )
                    });
                    for (name2, s, e) in other {
                        if s < hi && lo < e {
                            return Err(fail(
                                key,
                                format!(
                                    "`{name}` rounded to a {span:#x}-byte window would also cover `{name2}` of its block"
                                ),
                            ));
                        }
                    }
                    (ap.base + b.offset, span)
                }
            };
            let (count, stride) = (ap.count, ap.stride.max(size));
            let free = (count - 1) * stride;
            let ok = size.is_power_of_two()
                && base % size == 0
                && count.is_power_of_two()
                && (count == 1 || (stride.is_power_of_two() && stride >= size))
                && base & free == 0;
            if !ok {
                return Err(fail(
                    key,
                    format!(
                        "`{name}` ({count} x {size:#x} bytes from {base:#x}, {stride:#x} apart) is not one base/mask window: sizes, counts and strides must be powers of two and the base aligned"
                    ),
                ));
            }
            let window = crate::layouts::InboundWindow {
                base,
                mask: local_mask & !((size - 1) | free),
            };
            // The block's own registers stay out of reach of the link.
            let own_free = own.size.next_power_of_two() - 1;
            if (own.base ^ window.base) & window.mask & !own_free == 0 {
                return Err(fail(
                    key,
                    format!(
                        "`{name}` covers aperture `{}`: a remote die could rewrite its own permissions",
                        ApertureId::Inbound
                    ),
                ));
            }
            out.push(crate::layouts::InboundDefault {
                name: name.clone(),
                window,
            });
        }
        out
    };
    // One entry per destination die of the chip-id view, and a port field that names every D2D
    // controller.
    {
        let entries = (1u64 << l.soc.local.cayman_id.width) * l.soc.dies_per_package();
        let ports = apertures.get(ApertureId::D2d).count;
        let port_bits = 64 - (ports.max(2) - 1).leading_zeros();
        let problem = if route.route.count != entries {
            Some(format!(
                "the route table has {} entries but the chip-id view names {entries} dies \
                 (2^CAYMAN_ID width * dies per package)",
                route.route.count
            ))
        } else if route.port.width < port_bits {
            Some(format!(
                "the PORT field is {} bits but the D2D aperture has {ports} controllers",
                route.port.width
            ))
        } else {
            None
        };
        if let Some(message) = problem {
            let file = block_of(ApertureId::Route)
                .map(|b| b.source.clone())
                .unwrap_or_else(|| l.map_src.path.clone());
            return Err(crate::error::Error {
                kind: ErrorKind::BadValue,
                at: crate::error::Location {
                    file,
                    key: "Bundles".into(),
                    line: None,
                },
                message,
            });
        }
    }
    // A window's SoC address and replacement are whole SoC addresses (lo and hi words).
    let soc_w = l.soc.address.width;
    for (what, lo, hi) in [
        ("soc_lo/soc_hi", &remap.soc_lo, &remap.soc_hi),
        (
            "replace_lo/replace_hi",
            &remap.replace_lo,
            &remap.replace_hi,
        ),
    ] {
        let w: u32 = [lo, hi]
            .iter()
            .flat_map(|r| &r.fields)
            .map(|f| f.width)
            .sum();
        if w != soc_w {
            let file = block_of(ApertureId::XtWindow)
                .map(|b| b.source.clone())
                .unwrap_or_else(|| l.map_src.path.clone());
            return Err(crate::error::Error {
                kind: ErrorKind::BadValue,
                at: crate::error::Location {
                    file,
                    key: "Bundles".into(),
                    line: None,
                },
                message: format!(
                    "{what} hold {w} bits together but the SoC address is {soc_w} bits wide"
                ),
            });
        }
    }
    let desc = |(name, required): (&str, &[&str])| -> Result<DescLayout> {
        let fmt = l
            .descriptors
            .iter()
            .find(|d| d.name == name)
            .ok_or_else(|| {
                l.desc_src.err(
                    ErrorKind::BadReference,
                    "descriptors",
                    format!("missing descriptor `{name}`"),
                )
            })?;
        let field = |f: &str| {
            fmt.field(f).cloned().ok_or_else(|| {
                l.desc_src.err(
                    ErrorKind::BadReference,
                    "descriptors",
                    format!("descriptor `{name}` needs a field `{f}`"),
                )
            })
        };
        for f in required {
            field(f)?;
        }
        Ok(DescLayout {
            len: field(LEN)?,
            ring_id: field(RING_ID)?,
            buf_ptr: field(BUF_PTR)?,
            // Optional where the format does not require it (checked above where it does).
            write_barrier: fmt.field(WRITE_BARRIER).cloned(),
            format: fmt.clone(),
        })
    };
    let word = |name: &str| -> Result<&ExtWord> {
        l.words.iter().find(|w| w.name == name).ok_or_else(|| {
            l.word_src.err(
                ErrorKind::BadReference,
                "words",
                format!("missing word `{name}`"),
            )
        })
    };
    let word_field = |w: &ExtWord, f: &str| {
        w.field(f).cloned().ok_or_else(|| {
            l.word_src.err(
                ErrorKind::BadReference,
                "words",
                format!("word `{}` needs a field `{f}`", w.name),
            )
        })
    };
    let gen = word(GenWordLayout::WORD)?;
    let start = word(StartWordLayout::WORD)?;
    let gen_word = GenWordLayout::resolve(gen, |f| word_field(gen, f))?;
    let acc_codes = acc_codes(&l, gen, &gen_word.accumulate)?;
    Ok(Views {
        m2s_desc: desc(M2S_DESC)?,
        s2m_desc: desc(S2M_DESC)?,
        gen_word,
        acc_codes,
        start_word: StartWordLayout::resolve(start, |f| word_field(start, f))?,
        ring: l.ring.clone(),
        params,
        apertures,
        evt_sem,
        sem_seq,
        m2s,
        s2m,
        bcast,
        iatu,
        remap,
        route,
        health,
        inbound,
        inbound_defaults,
        soc: l.soc,
    })
}

/// The gen word's `accumulate` codes: the field must name a value `write` and one per lane type.
fn acc_codes(l: &Loaded<'_>, gen: &ExtWord, field: &WordField) -> Result<AccCodes> {
    let fi = gen
        .fields
        .iter()
        .position(|f| f.name == field.name)
        .unwrap_or_default();
    let wi = l
        .words
        .iter()
        .position(|w| w.name == gen.name)
        .unwrap_or_default();
    let code = |name: &str| {
        field.value(name).ok_or_else(|| {
            l.word_src.err(
                ErrorKind::BadReference,
                format!("words[{wi}].fields[{fi}].values"),
                format!(
                    "field `{}` of word `{}` needs a value `{name}` (it names how the RX side \
                     lands data: {}, {}, {})",
                    field.name,
                    gen.name,
                    AccCodes::WRITE,
                    AccDtype::I32.name(),
                    AccDtype::F32.name()
                ),
            )
        })
    };
    Ok(AccCodes {
        write: code(AccCodes::WRITE)?,
        i32: code(AccDtype::I32.name())?,
        f32: code(AccDtype::F32.name())?,
    })
}
