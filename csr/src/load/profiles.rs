//! `profiles.*`: accelerator generations.

use super::checks::unique_names;
use super::Source;
use crate::error::{ErrorKind, Result};
use crate::model::{D2dIp, Profile};
use crate::raw;

pub(super) fn build_profiles(src: &Source, raw: raw::ProfileFile) -> Result<(Vec<Profile>, usize)> {
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
                format!(
                    "default profile `{}` is not defined",
                    raw.default.escape_debug()
                ),
            )
        })?;
    Ok((out, default))
}
