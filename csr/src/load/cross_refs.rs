//! Names the code relies on across files (die parameters, apertures and the kinds of their
//! blocks, descriptor and word fields), resolved into the typed `Views` once everything is
//! loaded. A missing name is an error here, at the file and key that should hold it.

use super::Source;
use crate::error::{ErrorKind, Result};
use crate::layouts::EvtSemLayout;
use crate::model::{Aperture, Block, DescFormat, DieMap, ExtWord, RingRules, Side};
use crate::roles::ApertureId;
use crate::views::{
    DescLayout, DieApertures, DieParams, GenWordLayout, SideView, SocLayout, StartWordLayout, Views,
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
    let wrong_kind = |id: ApertureId, want: &str| {
        let i = l
            .map
            .apertures
            .iter()
            .position(|a| a.name == id.as_str())
            .unwrap_or(0);
        l.map_src.err(
            ErrorKind::BadReference,
            format!("apertures[{i}].block"),
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
    Ok(Views {
        m2s_desc: desc(M2S_DESC)?,
        s2m_desc: desc(S2M_DESC)?,
        gen_word: GenWordLayout::resolve(gen, |f| word_field(gen, f))?,
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
        soc: l.soc,
    })
}
