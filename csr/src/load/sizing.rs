//! `sizing.*`: die sizing profiles. A profile says how much of the register map a build wires up
//! (engines, D2D controllers) and how much memory and buffering stands behind it; the register
//! map itself is the same in every profile. A key left out takes the die map's value in the
//! default profile and the default profile's value in any other. The default profile must agree
//! with the die map where both give a number, because the model and the testbench read the die
//! map and simulate `xdie_die` with its defaults (the default profile's values).

use super::checks::unique_names_by;
use super::Source;
use crate::error::{ErrorKind, Result};
use crate::ident;
use crate::model::Sizing;
use crate::raw::{self, Num};
use crate::views::Views;

/// Upper bound of the depth and count keys (link credits, outstanding requests, read beats): far
/// above any useful buffer, low enough that no width the RTL derives from one overflows.
pub const MAX_DEPTH: u64 = 1 << 16;

pub(super) fn build_sizings(
    src: &Source,
    raw: raw::SizingFile,
    views: &Views,
) -> Result<(Vec<Sizing>, usize)> {
    unique_names_by(
        src,
        "sizing profile",
        raw.profiles
            .iter()
            .enumerate()
            .map(|(i, p)| (format!("profiles[{i}].name"), p.name.as_str())),
        ident::syntax_problem,
    )?;
    let di = raw
        .profiles
        .iter()
        .position(|p| p.name == raw.default)
        .ok_or_else(|| {
            src.err(
                ErrorKind::BadReference,
                "default",
                format!("default sizing profile `{}` is not defined", raw.default),
            )
        })?;
    for (i, p) in raw.profiles.iter().enumerate() {
        if p.name.len() > 32
            || p.name.chars().any(|c| c.is_ascii_uppercase())
            || p.name == "default"
        {
            return Err(src.err(
                ErrorKind::BadValue,
                format!("profiles[{i}].name"),
                format!(
                    "sizing profile name `{}` must be lower case, at most 32 characters and not \
                     `default` (it names the wrapper module xdie_die_<name> and the constants \
                     <NAME>_* next to DEFAULT_*)",
                    p.name
                ),
            ));
        }
    }
    let d = &views.params;
    let ap = &views.apertures;
    // The die map's value of each key, where it has one.
    let map_value = |key: &str| -> Option<u64> {
        match key {
            "cores" => Some(ap.sbuf.count),
            "sdma_engines" => Some(d.sdma_engines),
            "d2d_controllers" => Some(ap.d2d.count),
            "sbuf_backing_bytes" => Some(d.sbuf_backing_bytes),
            "hbm_bytes" => Some(ap.hbm.size),
            "link_credits" => Some(d.link_credits),
            _ => None,
        }
    };
    // The value a key the die map has no value for takes in the default profile when left out
    // (None: the default profile must give it).
    let builtin = |key: &str| -> Option<u64> {
        match key {
            "shared_crossbar" | "select_arbiters" | "timing_registers" => Some(0),
            _ => None,
        }
    };
    let map_name = |key: &str| -> &'static str {
        match key {
            "cores" => "the SBUF aperture's instance count (cores per die)",
            "sdma_engines" => "address_map's SDMA_ENGINES",
            "d2d_controllers" => "the D2D aperture's instance count",
            "sbuf_backing_bytes" => "address_map's SBUF_BACKING_BYTES",
            "hbm_bytes" => "the HBM aperture's size",
            _ => "address_map's LINK_CREDITS",
        }
    };
    // The default profile first: the others inherit from it.
    let mut order: Vec<usize> = vec![di];
    order.extend((0..raw.profiles.len()).filter(|&i| i != di));
    let mut out: Vec<Option<Sizing>> = vec![None; raw.profiles.len()];
    for i in order {
        let p = &raw.profiles[i];
        let base = out[di].clone();
        let keys = [
            ("cores", p.cores, base.as_ref().map(|b| b.cores)),
            (
                "sdma_engines",
                p.sdma_engines,
                base.as_ref().map(|b| b.sdma_engines),
            ),
            (
                "d2d_controllers",
                p.d2d_controllers,
                base.as_ref().map(|b| b.d2d_controllers),
            ),
            (
                "sbuf_backing_bytes",
                p.sbuf_backing_bytes,
                base.as_ref().map(|b| b.sbuf_backing_bytes),
            ),
            ("hbm_bytes", p.hbm_bytes, base.as_ref().map(|b| b.hbm_bytes)),
            (
                "link_credits",
                p.link_credits,
                base.as_ref().map(|b| b.link_credits),
            ),
            (
                "outstanding",
                p.outstanding,
                base.as_ref().map(|b| b.outstanding),
            ),
            (
                "engine_read_beats",
                p.engine_read_beats,
                base.as_ref().map(|b| b.engine_read_beats),
            ),
            (
                "shared_crossbar",
                p.shared_crossbar,
                base.as_ref().map(|b| b.shared_crossbar),
            ),
            (
                "select_arbiters",
                p.select_arbiters,
                base.as_ref().map(|b| b.select_arbiters),
            ),
            (
                "timing_registers",
                p.timing_registers,
                base.as_ref().map(|b| b.timing_registers),
            ),
        ];
        let mut v = [0u64; 11];
        for (n, (key, given, from_default)) in keys.into_iter().enumerate() {
            // The value a left-out key takes.
            let inherit = if i == di {
                map_value(key).or_else(|| builtin(key))
            } else {
                from_default
            };
            let at = format!("profiles[{i}].{key}");
            v[n] = match (given, inherit) {
                (Some(Num(x)), Some(m)) if i == di && map_value(key).is_some() && x != m => {
                    return Err(src.err(
                        ErrorKind::BadValue,
                        at,
                        format!(
                            "the default sizing profile `{}` gives {} = {x:#x} but {} is {m:#x}: \
                             the model and the testbench simulate the default profile with the \
                             die map's numbers (leave the key out, or change the die map)",
                            p.name,
                            key,
                            map_name(key)
                        ),
                    ))
                }
                (Some(Num(x)), _) => x,
                (None, Some(m)) => m,
                (None, None) => {
                    return Err(src.err(
                        ErrorKind::Syntax,
                        format!("profiles[{i}]"),
                        format!(
                            "the default sizing profile `{}` must give `{}` (the die map has no \
                             value for it)",
                            p.name, key
                        ),
                    ))
                }
            };
        }
        let s = Sizing {
            name: p.name.clone(),
            description: p.description.clone(),
            cores: v[0],
            sdma_engines: v[1],
            d2d_controllers: v[2],
            sbuf_backing_bytes: v[3],
            hbm_bytes: v[4],
            link_credits: v[5],
            outstanding: v[6],
            engine_read_beats: v[7],
            shared_crossbar: v[8],
            select_arbiters: v[9],
            timing_registers: v[10],
        };
        check(src, i, &s, views)?;
        out[i] = Some(s);
    }
    Ok((out.into_iter().flatten().collect(), di))
}

/// The bounds every profile keeps; the message names the key (and, through the source, its line
/// or the profile's line when the key was inherited).
fn check(src: &Source, i: usize, s: &Sizing, views: &Views) -> Result<()> {
    let d = &views.params;
    let ap = &views.apertures;
    let engines_max = ap
        .sdma_m2s
        .count
        .min(ap.sdma_s2m.count)
        .min(u64::from(views.bcast.mask.width));
    let dw = d.data_bytes;
    let rules: [(&str, u64, bool, String); 11] = [
        (
            "cores",
            s.cores,
            (1..=ap.sbuf.count).contains(&s.cores),
            format!(
                "1 ..= {} (the SBUF aperture's instances: one SBUF, EVT_SEM and pair of \
                 accumulate apertures per core)",
                ap.sbuf.count
            ),
        ),
        (
            "sdma_engines",
            s.sdma_engines,
            (1..=engines_max).contains(&s.sdma_engines),
            format!(
                "1 ..= {engines_max} (the SDMA_M2S and SDMA_S2M instance counts and the broadcast \
                 mask width)"
            ),
        ),
        (
            "d2d_controllers",
            s.d2d_controllers,
            (1..=ap.d2d.count).contains(&s.d2d_controllers),
            format!(
                "1 ..= {} (the D2D aperture's instances; controller 0 serves the D2D port)",
                ap.d2d.count
            ),
        ),
        (
            "sbuf_backing_bytes",
            s.sbuf_backing_bytes,
            s.sbuf_backing_bytes > 0
                && s.sbuf_backing_bytes % dw == 0
                && s.sbuf_backing_bytes <= d.sbuf_partition_stride,
            format!(
                "a nonzero multiple of DATA_BYTES ({dw}) and at most SBUF_PARTITION_STRIDE ({:#x})",
                d.sbuf_partition_stride
            ),
        ),
        (
            "hbm_bytes",
            s.hbm_bytes,
            s.hbm_bytes > 0 && s.hbm_bytes % dw == 0 && s.hbm_bytes <= ap.hbm.size,
            format!(
                "a nonzero multiple of DATA_BYTES ({dw}) and at most the HBM aperture ({:#x})",
                ap.hbm.size
            ),
        ),
        (
            "link_credits",
            s.link_credits,
            // The link layer numbers flits modulo twice the credits: at least two.
            (2..=MAX_DEPTH).contains(&s.link_credits),
            format!("2 ..= {MAX_DEPTH}"),
        ),
        (
            "outstanding",
            s.outstanding,
            (1..=MAX_DEPTH).contains(&s.outstanding),
            format!("1 ..= {MAX_DEPTH}"),
        ),
        (
            "engine_read_beats",
            s.engine_read_beats,
            (1..=MAX_DEPTH).contains(&s.engine_read_beats),
            format!("1 ..= {MAX_DEPTH}"),
        ),
        (
            "shared_crossbar",
            s.shared_crossbar,
            s.shared_crossbar <= 1,
            "0 (a full crossbar) or 1 (one shared request and response path)".to_string(),
        ),
        (
            "select_arbiters",
            s.select_arbiters,
            s.select_arbiters <= 1,
            "0 (the word-wide round robin) or 1 (the select form)".to_string(),
        ),
        (
            "timing_registers",
            s.timing_registers,
            s.timing_registers <= 1,
            "0 (none) or 1 (the FPGA register stages)".to_string(),
        ),
    ];
    for (key, value, ok, allowed) in rules {
        if !ok {
            return Err(src.err(
                ErrorKind::BadValue,
                format!("profiles[{i}].{key}"),
                format!(
                    "sizing profile `{}`: {key} = {value:#x} is out of range: it must be {allowed}",
                    s.name
                ),
            ));
        }
    }
    Ok(())
}
