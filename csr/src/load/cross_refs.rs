//! Names that emitters, the model and the testbench look up in the loaded files (parameters,
//! apertures, descriptor and word fields), checked once everything is loaded.

use super::Source;
use crate::error::{ErrorKind, Result};
use crate::model::Csrs;

/// Names the code relies on across files: checked once here so that emitters, the model and the
/// testbench can look them up without failing.
pub(super) fn check_cross_references(
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
