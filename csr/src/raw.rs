//! The input schemas, exactly as written in `csrs/`. serde checks types and rejects unknown
//! keys; `load` turns these into the validated model of `model.rs`. Nothing outside the loader
//! sees these types.

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;

/// An unsigned number written as a number or as a string (`"0x1C00"`, `"4096"`, `"0x1_0000"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Num(pub u64);

impl<'de> Deserialize<'de> for Num {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Num;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an unsigned number or a string such as \"0x1000\"")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Num, E> {
                Ok(Num(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Num, E> {
                u64::try_from(v)
                    .map(Num)
                    .map_err(|_| E::custom(format!("{v} is negative")))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Num, E> {
                parse_num(s).map(Num).ok_or_else(|| {
                    E::custom(format!("`{s}` is not a number (write 4096 or \"0x1000\")"))
                })
            }
        }
        d.deserialize_any(V)
    }
}

pub fn parse_num(s: &str) -> Option<u64> {
    let t: String = s.trim().chars().filter(|c| *c != '_').collect();
    if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        u64::from_str_radix(hex, 16).ok()
    } else {
        t.parse().ok()
    }
}

// ---------------------------------------------------------------- soc_address.yaml

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SocFile {
    pub name: String,
    pub width: u32,
    pub views: Vec<RawView>,
    pub folds: Vec<RawFold>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawView {
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub fields: Vec<RawBitField>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawBitField {
    pub name: String,
    pub lsb: u32,
    pub width: u32,
    #[serde(default)]
    pub description: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFold {
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub args: Vec<String>,
    pub steps: Vec<RawFoldStep>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFoldStep {
    pub view: String,
    pub field: String,
    #[serde(default)]
    pub arg: Option<String>,
    #[serde(default)]
    pub value: Option<Num>,
}

// ---------------------------------------------------------------- address_map.yaml

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapFile {
    pub name: String,
    pub local_width: u32,
    pub parameters: Vec<RawParam>,
    pub apertures: Vec<RawAperture>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawParam {
    pub name: String,
    pub value: Num,
    #[serde(default)]
    pub description: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawAperture {
    pub name: String,
    pub base: Num,
    pub size: Num,
    #[serde(default)]
    pub count: Option<Num>,
    #[serde(default)]
    pub stride: Option<Num>,
    pub kind: String,
    #[serde(default)]
    pub block: Option<String>,
    #[serde(default)]
    pub description: String,
}

// ---------------------------------------------------------------- blocks/*.json

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "PascalCase")]
pub struct BlockFile {
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub kind: String,
    pub size_in_bytes: Num,
    #[serde(default)]
    pub parameters: BTreeMap<String, serde_json::Value>,
    #[serde(default)]
    pub registers: Vec<RawRegister>,
    #[serde(default)]
    pub bundles: Vec<RawBundle>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "PascalCase")]
pub struct RawBundle {
    pub name: String,
    #[serde(default)]
    pub role: Option<String>,
    pub address_offset: Num,
    pub array_size: Num,
    pub bundle_size_in_bytes: Num,
    pub registers: Vec<RawRegister>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "PascalCase")]
pub struct RawRegister {
    pub name: String,
    pub address_offset: Num,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub role: Option<String>,
    pub fields: Vec<RawField>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "PascalCase")]
pub struct RawField {
    pub name: String,
    /// `"hi:lo"` or `"bit"`.
    pub bits: String,
    pub access: String,
    #[serde(default)]
    pub reset: Option<Num>,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub role: Option<String>,
}

// ---------------------------------------------------------------- descriptors.yaml

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DescFile {
    pub descriptors: Vec<RawDesc>,
    pub ring: RawRing,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawDesc {
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub bytes: u32,
    pub fields: Vec<RawBitField>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRing {
    pub initial_ring_id: u32,
    pub ring_id_width: u32,
    pub base_align: Num,
    pub max_len_code: Num,
}

// ---------------------------------------------------------------- ext_inst.yaml

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtFile {
    pub words: Vec<RawWord>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawWord {
    pub name: String,
    pub sub_opcode: u32,
    pub bytes: u32,
    #[serde(default)]
    pub description: String,
    pub fields: Vec<RawWordField>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawWordField {
    pub name: String,
    pub offset: u32,
    pub bytes: u32,
    #[serde(default)]
    pub description: String,
}

// ---------------------------------------------------------------- profiles.yaml

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProfileFile {
    pub default: String,
    pub profiles: Vec<RawProfile>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawProfile {
    pub name: String,
    pub sb2sb: bool,
    pub d2d_ip: String,
    pub d2d_controllers: u32,
    #[serde(default)]
    pub description: String,
}
