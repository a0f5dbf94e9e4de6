//! `rtl/gen/xdie_soc_addr_pkg.sv`: the routed SoC address (both views, GET/SET), the folds, the
//! die-local map (aperture match/instance/offset functions), the die decode and the decoder's
//! route codes. The decoder module and the C header read the same facts through this file's
//! helpers, so every position and base below comes from the model exactly once.

use super::escape;
use super::{finish, sv_hex, OutFile, DO_NOT_EDIT};
use askama::Template;
use xdie_csr::{Aperture, ApertureId, Csrs, FoldSource};

/// Package name every generated module refers to by explicit scope (`pkg::name`). Yosys 0.23
/// rejects `import pkg::*;` in a module header and in a module body, so nothing imports it.
pub const PKG: &str = "xdie_soc_addr_pkg";

/// What the decoder says about an address, in code order.
pub const ROUTES: &[(&str, &str)] = &[
    (
        "LOCAL",
        "The address targets this die; aperture/instance/offset say where.",
    ),
    (
        "PEER_DIE",
        "The address targets the other die of this package.",
    ),
    (
        "REMOTE_PKG",
        "The address targets another package (chip id).",
    ),
    (
        "DECERR",
        "Decode error: no aperture, a stride gap, or stray routing bits.",
    ),
];

/// Apertures whose hit makes an address a TPB address for the die decode (the seed's is_tpb
/// "targets a TPB SBUF aperture"; xdie counts the TPB's semaphores too).
const TPB_APERTURES: &[ApertureId] = &[ApertureId::Sbuf, ApertureId::EvtSem];

/// Bits needed to count `n` distinct values (at least 1, so a port never has width 0).
pub fn clog2(n: u64) -> u32 {
    if n <= 2 {
        1
    } else {
        64 - (n - 1).leading_zeros()
    }
}

pub struct SvField {
    pub view_uc: String,
    pub view_lc: String,
    pub name_uc: String,
    pub name_lc: String,
    pub lsb: u32,
    pub width: u32,
    pub description: String,
}

impl SvField {
    pub fn getter(&self) -> String {
        format!("{}_get_{}", self.view_lc, self.name_lc)
    }
    pub fn setter(&self) -> String {
        format!("{}_set_{}", self.view_lc, self.name_lc)
    }
    pub fn width_param(&self) -> String {
        format!("{}_{}_WIDTH", self.view_uc, self.name_uc)
    }
}

pub struct SvFoldArg {
    pub name: String,
    pub width: u32,
}

pub struct SvFoldStep {
    pub setter: String,
    pub value: String,
}

pub struct SvFold {
    pub name: String,
    pub description: String,
    pub args: Vec<SvFoldArg>,
    pub steps: Vec<SvFoldStep>,
}

pub struct SvAperture {
    pub name: String,
    pub name_uc: String,
    pub name_lc: String,
    pub index: usize,
    pub index_lit: String,
    pub base: String,
    pub size: String,
    pub count: u64,
    pub stride: String,
    pub repeated: bool,
    pub description: String,
}

impl SvAperture {
    pub fn hit_fn(&self) -> String {
        format!("ap_{}_hit", self.name_lc)
    }
    pub fn inst_fn(&self) -> String {
        format!("ap_{}_inst", self.name_lc)
    }
    pub fn off_fn(&self) -> String {
        format!("ap_{}_off", self.name_lc)
    }
    pub fn index_param(&self) -> String {
        format!("AP_{}", self.name_uc)
    }
}

/// A die-map parameter as a package constant `P_<NAME>`.
pub struct SvParam {
    pub name: String,
    pub ty: &'static str,
    pub value: String,
    /// Comment lines.
    pub description: Vec<String>,
}

/// Die-map parameters: 32-bit where the value fits, else 64-bit.
fn sv_params(csrs: &Csrs) -> Vec<SvParam> {
    csrs.map
        .params
        .iter()
        .map(|p| {
            let (ty, w) = if p.value <= u64::from(u32::MAX) {
                ("int unsigned", 32)
            } else {
                ("longint unsigned", 64)
            };
            SvParam {
                name: format!("P_{}", p.name.to_uppercase()),
                ty,
                value: sv_hex(w, p.value as u128),
                description: wrap(&p.description, 95),
            }
        })
        .collect()
}

pub struct SvRoute {
    pub name: String,
    pub code: String,
    pub description: String,
}

/// Everything the package declares, computed once; the decoder reuses it.
pub struct SocFacts {
    pub addr_w: u32,
    pub local_w: u32,
    pub route_w: u32,
    pub ap_w: u32,
    pub inst_w: u32,
    pub off_w: u32,
    pub fields: Vec<SvField>,
    pub folds: Vec<SvFold>,
    pub apertures: Vec<SvAperture>,
    pub routes: Vec<SvRoute>,
    pub params: Vec<SvParam>,
    /// The fields the routing decision and the die decode read.
    pub local_field: SvField,
    pub die_field: SvField,
    pub n_die_field: SvField,
    pub chip_field: SvField,
    pub valid_field: SvField,
    pub route_field: SvField,
    /// Die decode inputs: hit functions of TPB apertures, (hit, inst) of engine apertures.
    pub tpb_hits: Vec<String>,
    pub engine_aps: Vec<(String, String)>,
    pub exit_die_field: SvField,
    pub exit_seng_field: SvField,
    /// Overlay bits the neighbor view leaves unnamed (PEB), reserved: a mask over the address.
    pub reserved_overlay: String,
    /// `AP_<D2D>_COUNT`: C2C ports per die (D2D controllers).
    pub ports_param: String,
    pub view_w: u32,
    pub views: Vec<SvRoute>,
    pub default_view: String,
}

/// The address views a system can route in (seed §2.2: the two decoders are alternatives), in
/// code order: the decoder's VIEW parameter takes one of these codes. The first name is the
/// one topology files and the CLI use; the second is the SoC-address view (csrs/) it reads.
pub const SYSTEM_VIEWS: &[(&str, &str)] = &[
    (
        "CHIP_ID",
        "CAYMAN_ID names the target package; every chip id is reachable.",
    ),
    (
        "NEIGHBOR",
        "The overlay names a path (EXIT_DIE, EXIT_SENG) from the issuing die.",
    ),
];

/// The view a decoder is built for when nothing says otherwise: the package top is the
/// single-package topology (topologies/package.yaml), whose worked example folds with
/// fold_neighbor.
pub const DEFAULT_VIEW: &str = "NEIGHBOR";

/// Greedy word wrap for generated comments.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for w in text.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + w.len() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(w);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    // Each line opens a `//` comment of its own.
    lines.iter().map(|l| escape::sv_comment(l)).collect()
}

fn sv_field(view: &str, f: &xdie_csr::BitField) -> SvField {
    SvField {
        view_uc: view.to_uppercase(),
        view_lc: view.to_lowercase(),
        name_uc: f.name.to_uppercase(),
        name_lc: f.name.to_lowercase(),
        lsb: f.lsb,
        width: f.width,
        description: escape::sv_comment(&f.description),
    }
}

fn sv_aperture(index: usize, ap: &Aperture, local_w: u32, ap_w: u32) -> SvAperture {
    SvAperture {
        name: ap.name.clone(),
        name_uc: ap.name.to_uppercase(),
        name_lc: ap.name.to_lowercase(),
        index,
        index_lit: sv_hex(ap_w, index as u128),
        base: sv_hex(local_w, ap.base as u128),
        size: sv_hex(local_w, ap.size as u128),
        count: ap.count,
        stride: sv_hex(local_w, ap.stride as u128),
        repeated: ap.count > 1,
        description: escape::sv_comment(&ap.description),
    }
}

/// Where each name of the package made from a CSR name comes from (fields, apertures,
/// parameters, folds), for [`super::names::check`].
pub fn origins(csrs: &Csrs) -> super::names::Origins {
    use super::names::{source, Origin, Origins};
    let mut o = Origins::default();
    let soc = source(csrs, "soc_address");
    for (vi, v) in csrs.soc.views.iter().enumerate() {
        for (fi, f) in v.fields.iter().enumerate() {
            let x = sv_field(&v.name, f);
            let at = Origin::new(&soc, format!("views[{vi}].fields[{fi}].name"));
            for n in [
                format!("{}_{}_LSB", x.view_uc, x.name_uc),
                x.width_param(),
                x.getter(),
                x.setter(),
            ] {
                o.add(n, &at);
            }
        }
    }
    for (i, f) in csrs.soc.folds.iter().enumerate() {
        o.add(
            f.name.clone(),
            &Origin::new(&soc, format!("folds[{i}].name")),
        );
    }
    let map = source(csrs, "address_map");
    for (i, p) in sv_params(csrs).iter().enumerate() {
        o.add(
            p.name.clone(),
            &Origin::new(&map, format!("parameters[{i}].name")),
        );
    }
    for (i, ap) in csrs.map.apertures.iter().enumerate() {
        let a = sv_aperture(i, ap, csrs.map.local_width, 1);
        let at = Origin::new(&map, format!("apertures[{i}].name"));
        for n in [a.index_param(), a.hit_fn(), a.inst_fn(), a.off_fn()] {
            o.add(n, &at);
        }
        for s in ["BASE", "SIZE", "COUNT", "STRIDE", "SHIFT"] {
            o.add(format!("AP_{}_{s}", a.name_uc), &at);
        }
    }
    o
}

pub fn facts(csrs: &Csrs) -> Result<SocFacts, askama::Error> {
    let soc = &csrs.soc;
    let map = &csrs.map;
    let local_w = map.local_width;
    let ap_w = clog2(map.apertures.len() as u64);
    let inst_w = clog2(map.apertures.iter().map(|a| a.count).max().unwrap_or(1));
    let off_w = map
        .apertures
        .iter()
        .map(|a| a.size.trailing_zeros())
        .max()
        .unwrap_or(1)
        .max(1);
    let fields = soc
        .views
        .iter()
        .flat_map(|v| v.fields.iter().map(move |f| sv_field(&v.name, f)))
        .collect();
    let folds = soc
        .folds
        .iter()
        .map(|fold| {
            // An argument is as wide as the widest field it feeds; narrower fields get a slice.
            let args: Vec<SvFoldArg> = fold
                .args
                .iter()
                .map(|a| SvFoldArg {
                    name: a.clone(),
                    width: fold
                        .steps
                        .iter()
                        .filter(|s| s.source == FoldSource::Arg(a.clone()))
                        .map(|s| s.field.width)
                        .max()
                        .unwrap_or(1),
                })
                .collect();
            let steps = fold
                .steps
                .iter()
                .map(|s| {
                    let f = sv_field(&s.view, &s.field);
                    let value = match &s.source {
                        FoldSource::Const(c) => sv_hex(f.width, *c as u128),
                        FoldSource::Arg(a) => {
                            let w = args.iter().find(|x| &x.name == a).map_or(1, |x| x.width);
                            if w == f.width {
                                a.clone()
                            } else {
                                format!("{a}[{}:0]", f.width - 1)
                            }
                        }
                    };
                    SvFoldStep {
                        setter: f.setter(),
                        value,
                    }
                })
                .collect();
            SvFold {
                name: fold.name.clone(),
                description: escape::sv_comment(&fold.description),
                args,
                steps,
            }
        })
        .collect();
    let apertures: Vec<SvAperture> = map
        .apertures
        .iter()
        .enumerate()
        .map(|(i, a)| sv_aperture(i, a, local_w, ap_w))
        .collect();
    let route_w = clog2(ROUTES.len() as u64);
    let routes = ROUTES
        .iter()
        .enumerate()
        .map(|(i, (n, d))| SvRoute {
            name: format!("ROUTE_{n}"),
            code: sv_hex(route_w, i as u128),
            description: d.to_string(),
        })
        .collect();
    let tpb_hits = apertures
        .iter()
        .filter(|a| ApertureId::parse(&a.name).is_some_and(|id| TPB_APERTURES.contains(&id)))
        .map(|a| a.hit_fn())
        .collect();
    let engine_aps = map
        .apertures
        .iter()
        .zip(&apertures)
        .filter(|(a, _)| csrs.aperture_block(a).and_then(|b| b.udma()).is_some())
        .map(|(_, s)| (s.hit_fn(), s.inst_fn()))
        .collect();
    // The fields the loader resolved into the typed SoC layout.
    let (lv, nv) = (&csrs.views.soc.local, &csrs.views.soc.neighbor);
    let chip_field = sv_field(&lv.name, &lv.cayman_id);
    let route_field = sv_field(&nv.name, &nv.neighbor_route);
    let named = [&nv.exit_seng, &nv.exit_die, &nv.neighbor_route]
        .iter()
        .fold(0u128, |m, f| m | (f.value_mask() << f.lsb));
    let reserved = (lv.cayman_id.value_mask() << lv.cayman_id.lsb) & !named;
    let view_w = clog2(SYSTEM_VIEWS.len() as u64);
    let views = SYSTEM_VIEWS
        .iter()
        .enumerate()
        .map(|(i, (n, d))| SvRoute {
            name: format!("VIEW_{n}"),
            code: sv_hex(view_w, i as u128),
            description: d.to_string(),
        })
        .collect();
    Ok(SocFacts {
        exit_die_field: sv_field(&nv.name, &nv.exit_die),
        exit_seng_field: sv_field(&nv.name, &nv.exit_seng),
        reserved_overlay: sv_hex(soc.width, reserved),
        ports_param: format!("AP_{}_COUNT", csrs.views.apertures.d2d.name.to_uppercase()),
        view_w,
        views,
        default_view: format!("VIEW_{DEFAULT_VIEW}"),
        addr_w: soc.width,
        local_w,
        route_w,
        ap_w,
        inst_w,
        off_w,
        fields,
        folds,
        apertures,
        routes,
        params: sv_params(csrs),
        local_field: sv_field(&lv.name, &lv.local),
        die_field: sv_field(&lv.name, &lv.die),
        n_die_field: sv_field(&nv.name, &nv.die),
        chip_field,
        valid_field: sv_field(&lv.name, &lv.cayman_id_valid),
        route_field,
        tpb_hits,
        engine_aps,
    })
}

#[derive(Template)]
#[template(path = "sv/soc_addr_pkg.sv")]
struct SocPkg<'a> {
    header: &'static str,
    pkg: &'static str,
    f: &'a SocFacts,
}

pub fn render(csrs: &Csrs) -> Result<Vec<OutFile>, askama::Error> {
    let f = facts(csrs)?;
    let t = SocPkg {
        header: DO_NOT_EDIT,
        pkg: PKG,
        f: &f,
    };
    Ok(vec![OutFile::new(
        format!("rtl/gen/{PKG}.sv"),
        finish(t.render()?),
    )])
}
