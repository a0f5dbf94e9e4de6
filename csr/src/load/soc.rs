//! `soc_address.*`: the routed address, its views and folds.

use super::checks::{bit_fields, ident, unique_names, unique_names_by};
use super::Source;
use crate::error::{ErrorKind, Result};
use crate::model::{BitField, Fold, FoldSource, FoldStep, SocAddress, View};
use crate::raw::{self, Num};
use crate::views::{LocalView, NeighborView, SocLayout};

pub(super) fn build_soc(src: &Source, raw: raw::SocFile) -> Result<SocLayout> {
    if raw.width == 0 || raw.width > 64 {
        return Err(src.err(ErrorKind::BadValue, "width", "address width must be 1..=64"));
    }
    ident(src, "SoC address", "name", &raw.name)?;
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
    unique_names_by(
        src,
        "view",
        views
            .iter()
            .enumerate()
            .map(|(i, v)| (format!("views[{i}].name"), v.name.as_str())),
        crate::ident::syntax_problem,
    )?;
    let mut folds = Vec::new();
    for (i, f) in raw.folds.into_iter().enumerate() {
        // Arguments are parameters of the generated SV and C functions.
        unique_names(
            src,
            "fold argument",
            f.args
                .iter()
                .enumerate()
                .map(|(j, a)| (format!("folds[{i}].args[{j}]"), a.as_str())),
        )?;
        let mut steps: Vec<FoldStep> = Vec::new();
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
            // Views are views of the same bits: two steps writing one bit contradict each other
            // (the later silently wins in the RTL, the C header and the model alike).
            let (lo, hi) = (field.lsb, field.lsb + field.width);
            if let Some((j0, prev)) = steps
                .iter()
                .enumerate()
                .find(|(_, p)| p.field.lsb < hi && lo < p.field.lsb + p.field.width)
            {
                return Err(src.err(
                    ErrorKind::Overlap,
                    format!("{k}.field"),
                    format!(
                        "fold `{}`: this step sets {}.{} [{}:{lo}], which step {j0} ({}.{}) \
                         already sets",
                        f.name,
                        view.name,
                        field.name,
                        hi - 1,
                        prev.view,
                        prev.field.name
                    ),
                ));
            }
            steps.push(FoldStep {
                view: view.name.clone(),
                field: field.clone(),
                source,
            });
        }
        for (j, a) in f.args.iter().enumerate() {
            if !steps.iter().any(|s| s.source == FoldSource::Arg(a.clone())) {
                return Err(src.err(
                    ErrorKind::BadReference,
                    format!("folds[{i}].args[{j}]"),
                    format!("fold `{}`: argument `{a}` is used by no step", f.name),
                ));
            }
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
    resolve(src, soc)
}

/// The views, fields and folds the decoder, the folds' users and the die decode rely on.
fn resolve(src: &Source, soc: SocAddress) -> Result<SocLayout> {
    let field = |view: &str, f: &str| -> Result<BitField> {
        let v = soc.view(view).ok_or_else(|| {
            src.err(
                ErrorKind::BadReference,
                "views",
                format!("missing view `{view}`"),
            )
        })?;
        v.field(f).cloned().ok_or_else(|| {
            src.err(
                ErrorKind::BadReference,
                "views",
                format!("view `{view}` needs a field `{f}`"),
            )
        })
    };
    let local = LocalView {
        name: "local".into(),
        local: field("local", "LOCAL")?,
        die: field("local", "DIE")?,
        cayman_id: field("local", "CAYMAN_ID")?,
        cayman_id_valid: field("local", "CAYMAN_ID_VALID")?,
    };
    let neighbor = NeighborView {
        name: "neighbor".into(),
        local: field("neighbor", "LOCAL")?,
        die: field("neighbor", "DIE")?,
        exit_seng: field("neighbor", "EXIT_SENG")?,
        exit_die: field("neighbor", "EXIT_DIE")?,
        neighbor_route: field("neighbor", "NEIGHBOR_ROUTE")?,
        id_valid: field("neighbor", "ID_VALID")?,
    };
    check_shared_bits(src, &soc)?;
    let fold = |name: &str, args: usize| -> Result<Fold> {
        let f = soc.fold(name).ok_or_else(|| {
            src.err(
                ErrorKind::BadReference,
                "folds",
                format!("missing fold `{name}`"),
            )
        })?;
        if f.args.len() != args {
            return Err(src.err(
                ErrorKind::BadValue,
                "folds",
                format!("fold `{name}` takes {args} args, not {}", f.args.len()),
            ));
        }
        Ok(f.clone())
    };
    Ok(SocLayout {
        local,
        neighbor,
        fold_neighbor: fold("fold_neighbor", 2)?,
        fold_chip_id: fold("fold_chip_id", 3)?,
        address: soc,
    })
}
/// Fields that must sit on the same bits in both views: the routing decision reads them before
/// it knows which view the address was built with.
const SHARED_SOC_FIELDS: &[(&str, &str)] = &[
    ("LOCAL", "LOCAL"),
    ("DIE", "DIE"),
    ("CAYMAN_ID_VALID", "ID_VALID"),
];

fn check_shared_bits(src: &Source, soc: &SocAddress) -> Result<()> {
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
