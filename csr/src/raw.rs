//! The input schemas, exactly as written in `csrs/`. serde checks types and rejects unknown
//! keys; `load` turns these into the validated model of `model.rs`. Nothing outside the loader
//! sees these types.
//!
//! Each type carries `KEYS`, its documentation for the schema reference (`schema.rs`,
//! docs/csr-schema.md). The test at the end fails when a type gains a key its table lacks (or
//! the reverse) or when a table's required flag disagrees with serde, so the reference cannot
//! drift from what the loader accepts.

use crate::schema::{Key, Ty};
use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;

/// An unsigned number written as a number or as a string (`"0x1C00"`, `"4096"`, `"0x1_0000"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(test, derive(Default))]
pub struct Num(pub u64);

/// Only the schema test serializes: it lists the keys a default value of each raw type has.
#[cfg(test)]
impl serde::Serialize for Num {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(self.0)
    }
}

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

/// `4096`, `0x1000`, `0X1_000`: decimal or `0x` hex digits, `_` between digits allowed. Nothing
/// else: no sign (`0x+2000`, `+5`), no second prefix, no empty digits, no overflow.
pub fn parse_num(s: &str) -> Option<u64> {
    let t = s.trim();
    let (digits, radix) = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => (hex, 16),
        None => (t, 10),
    };
    if digits.starts_with('_') || digits.ends_with('_') || digits.contains("__") {
        return None;
    }
    let clean: String = digits.chars().filter(|c| *c != '_').collect();
    if clean.is_empty() || !clean.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    u64::from_str_radix(&clean, radix).ok()
}

/// A map whose keys must be distinct. serde's own maps keep the last of two equal keys silently
/// (serde_json does so for any object); a duplicate here is an error at the map's key path.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct UniqueMap(pub BTreeMap<String, serde_json::Value>);

#[cfg(test)]
impl serde::Serialize for UniqueMap {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de> Deserialize<'de> for UniqueMap {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = UniqueMap;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map with distinct keys")
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut m: A) -> Result<UniqueMap, A::Error> {
                let mut out = BTreeMap::new();
                while let Some(k) = m.next_key::<String>()? {
                    let v: serde_json::Value = m.next_value()?;
                    if out.contains_key(&k) {
                        return Err(de::Error::custom(format!("key `{k}` is given twice")));
                    }
                    out.insert(k, v);
                }
                Ok(UniqueMap(out))
            }
        }
        d.deserialize_map(V)
    }
}

impl std::ops::Deref for UniqueMap {
    type Target = BTreeMap<String, serde_json::Value>;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

// ---------------------------------------------------------------- soc_address.yaml

#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(serde::Serialize, Default))]
#[serde(deny_unknown_fields)]
pub struct SocFile {
    pub name: String,
    pub width: u32,
    pub views: Vec<RawView>,
    pub folds: Vec<RawFold>,
}

impl SocFile {
    /// The keys of this table for the schema reference (`schema.rs`).
    pub const KEYS: &'static [Key] = &[
        Key::req(
            "name",
            Ty::Str,
            "Name of the address (prefix of generated names).",
        ),
        Key::req("width", Ty::Uint, "Bits of the routed address.")
            .unit("bits")
            .allowed("1..=64"),
        Key::req(
            "views",
            Ty::List("views[]"),
            "Views of the same bits; the first is the local (chip-id) view and holds LOCAL.",
        ),
        Key::req(
            "folds",
            Ty::List("folds[]"),
            "Recipes that build a routed address.",
        ),
    ];
}

#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(serde::Serialize, Default))]
#[serde(deny_unknown_fields)]
pub struct RawView {
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub fields: Vec<RawBitField>,
}

impl RawView {
    /// The keys of this table for the schema reference (`schema.rs`).
    pub const KEYS: &'static [Key] = &[
        Key::req("name", Ty::Str, "View name."),
        Key::opt("description", Ty::Str, "What the view is for."),
        Key::req(
            "fields",
            Ty::List("fields[]"),
            "Bit fields; they must not overlap and must lie inside `width`.",
        ),
    ];
}

#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(serde::Serialize, Default))]
#[serde(deny_unknown_fields)]
pub struct RawBitField {
    pub name: String,
    pub lsb: u32,
    pub width: u32,
    #[serde(default)]
    pub description: String,
}

impl RawBitField {
    /// The keys of this table for the schema reference (`schema.rs`).
    pub const KEYS: &'static [Key] = &[
        Key::req("name", Ty::Str, "Field name, unique in its word."),
        Key::req("lsb", Ty::Uint, "Lowest bit.").unit("bits"),
        Key::req("width", Ty::Uint, "Bits of the field.")
            .unit("bits")
            .allowed(">= 1, lsb + width within the word"),
        Key::opt("description", Ty::Str, "What the field means."),
    ];
}

#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(serde::Serialize, Default))]
#[serde(deny_unknown_fields)]
pub struct RawFold {
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub args: Vec<String>,
    pub steps: Vec<RawFoldStep>,
}

impl RawFold {
    /// The keys of this table for the schema reference (`schema.rs`).
    pub const KEYS: &'static [Key] = &[
        Key::req(
            "name",
            Ty::Str,
            "Fold name (a function of the generated packages and headers).",
        ),
        Key::opt("description", Ty::Str, "When the fold is used."),
        Key::req("args", Ty::Strings, "Argument names, in call order."),
        Key::req("steps", Ty::List("steps[]"), "Fields to set, in order."),
    ];
}

#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(serde::Serialize, Default))]
#[serde(deny_unknown_fields)]
pub struct RawFoldStep {
    pub view: String,
    pub field: String,
    #[serde(default)]
    pub arg: Option<String>,
    #[serde(default)]
    pub value: Option<Num>,
}

impl RawFoldStep {
    /// The keys of this table for the schema reference (`schema.rs`).
    pub const KEYS: &'static [Key] = &[
        Key::req("view", Ty::Str, "View holding the field.").allowed("a view name"),
        Key::req("field", Ty::Str, "Field to set.").allowed("a field of `view`"),
        Key::opt("arg", Ty::Str, "Set the field to this argument.")
            .allowed("one of the fold's args; exactly one of arg / value"),
        Key::opt("value", Ty::Num, "Set the field to this constant.")
            .allowed("fits the field; exactly one of arg / value"),
    ];
}

// ---------------------------------------------------------------- address_map.yaml

#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(serde::Serialize, Default))]
#[serde(deny_unknown_fields)]
pub struct MapFile {
    pub name: String,
    pub local_width: u32,
    pub parameters: Vec<RawParam>,
    pub apertures: Vec<RawAperture>,
}

impl MapFile {
    /// The keys of this table for the schema reference (`schema.rs`).
    pub const KEYS: &'static [Key] = &[
        Key::req("name", Ty::Str, "Name of the map."),
        Key::req("local_width", Ty::Uint, "Bits of a die-local address.")
            .unit("bits")
            .allowed("the width of the SoC address field LOCAL"),
        Key::req(
            "parameters",
            Ty::List("parameters[]"),
            "Named numbers of the die (see the required parameters).",
        ),
        Key::req(
            "apertures",
            Ty::List("apertures[]"),
            "Address ranges of the die; they must not overlap.",
        ),
    ];
}

#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(serde::Serialize, Default))]
#[serde(deny_unknown_fields)]
pub struct RawParam {
    pub name: String,
    pub value: Num,
    #[serde(default)]
    pub description: String,
}

impl RawParam {
    /// The keys of this table for the schema reference (`schema.rs`).
    pub const KEYS: &'static [Key] = &[
        Key::req("name", Ty::Str, "Parameter name, unique."),
        Key::req("value", Ty::Num, "Its value."),
        Key::opt("description", Ty::Str, "What it sizes, with its unit."),
    ];
}

#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(serde::Serialize, Default))]
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

impl RawAperture {
    /// The keys of this table for the schema reference (`schema.rs`).
    pub const KEYS: &'static [Key] = &[
        Key::req(
            "name",
            Ty::Str,
            "Aperture name, unique (see the required apertures).",
        ),
        Key::req("base", Ty::Num, "First address of instance 0.")
            .unit("bytes")
            .allowed("a multiple of size"),
        Key::req("size", Ty::Num, "Bytes of one instance.")
            .unit("bytes")
            .allowed("a power of two, at least the block's SizeInBytes"),
        Key::opt("count", Ty::Num, "Instances (default 1).").allowed(">= 1"),
        Key::opt(
            "stride",
            Ty::Num,
            "Distance between instances; required when count > 1.",
        )
        .unit("bytes")
        .allowed("a multiple of size"),
        Key::req("kind", Ty::Str, "What the aperture holds.").allowed("memory, block"),
        Key::opt(
            "block",
            Ty::Str,
            "Register block of a `block` aperture (file blocks/NAME.*); absent for memory.",
        ),
        Key::opt("description", Ty::Str, "What lives there."),
    ];
}

// ---------------------------------------------------------------- blocks/*.json

#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(serde::Serialize, Default))]
#[serde(deny_unknown_fields, rename_all = "PascalCase")]
pub struct BlockFile {
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub kind: String,
    pub size_in_bytes: Num,
    #[serde(default)]
    pub parameters: UniqueMap,
    #[serde(default)]
    pub registers: Vec<RawRegister>,
    #[serde(default)]
    pub bundles: Vec<RawBundle>,
}

impl BlockFile {
    /// The keys of this table for the schema reference (`schema.rs`).
    pub const KEYS: &'static [Key] = &[
        Key::req(
            "Name",
            Ty::Str,
            "Block name; equals the aperture's `block` and the file name.",
        ),
        Key::opt("Description", Ty::Str, "What the block does."),
        Key::req(
            "Kind",
            Ty::Str,
            "Selects the template and the roles the block must hold.",
        )
        .allowed(
            "evt_sem, udma_queue_group, sdma_bcast, iatu, remap_windows, sem_seq, route_table, link_health, inbound_windows",
        ),
        Key::req("SizeInBytes", Ty::Num, "Bytes the block decodes.")
            .unit("bytes")
            .allowed("a power of two, >= 4"),
        Key::opt(
            "Parameters",
            Ty::Map,
            "Kind-specific parameters (see the block kinds).",
        ),
        Key::opt("Registers", Ty::List("Registers[]"), "Top-level registers."),
        Key::opt(
            "Bundles",
            Ty::List("Bundles[]"),
            "Arrays of register groups.",
        ),
    ];
}

#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(serde::Serialize, Default))]
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

impl RawBundle {
    /// The keys of this table for the schema reference (`schema.rs`).
    pub const KEYS: &'static [Key] = &[
        Key::req(
            "Name",
            Ty::Str,
            "Bundle name, unique among the block's registers and bundles.",
        ),
        Key::opt(
            "Role",
            Ty::Str,
            "What the bundle is for (see the block kinds).",
        ),
        Key::req(
            "AddressOffset",
            Ty::Num,
            "Offset of instance 0 in the block.",
        )
        .unit("bytes"),
        Key::req("ArraySize", Ty::Num, "Instances.").allowed(">= 1"),
        Key::req("BundleSizeInBytes", Ty::Num, "Distance between instances.")
            .unit("bytes")
            .allowed("a power of two of at least 4, holding every register of the bundle; the bundle's AddressOffset a multiple of it"),
        Key::req(
            "Registers",
            Ty::List("Registers[]"),
            "Registers of one instance (offsets relative to it).",
        ),
    ];
}

#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(serde::Serialize, Default))]
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

impl RawRegister {
    /// The keys of this table for the schema reference (`schema.rs`).
    pub const KEYS: &'static [Key] = &[
        Key::req("Name", Ty::Str, "Register name, unique in its scope."),
        Key::req(
            "AddressOffset",
            Ty::Num,
            "Offset in the block, or in one bundle instance.",
        )
        .unit("bytes")
        .allowed("a multiple of 4"),
        Key::opt("Description", Ty::Str, "What the register does."),
        Key::opt(
            "Role",
            Ty::Str,
            "What the register is for (see the block kinds).",
        ),
        Key::req(
            "Fields",
            Ty::List("Fields[]"),
            "Fields of the 32-bit register; they must not overlap.",
        ),
    ];
}

#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(serde::Serialize, Default))]
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

impl RawField {
    /// The keys of this table for the schema reference (`schema.rs`).
    pub const KEYS: &'static [Key] = &[
        Key::req("Name", Ty::Str, "Field name, unique in its register."),
        Key::req("Bits", Ty::Bits, "Bit range in the 32-bit register.")
            .allowed("31 >= hi >= lo >= 0"),
        Key::req("Access", Ty::Str, "Software access.").allowed(crate::model::Access::ALL),
        Key::opt("Reset", Ty::Num, "Reset value (default 0).").allowed("fits the field"),
        Key::opt("Description", Ty::Str, "What the field means."),
        Key::opt(
            "Role",
            Ty::Str,
            "What the field is for (see the block kinds).",
        ),
    ];
}

// ---------------------------------------------------------------- descriptors.yaml

#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(serde::Serialize, Default))]
#[serde(deny_unknown_fields)]
pub struct DescFile {
    pub descriptors: Vec<RawDesc>,
    pub ring: RawRing,
}

impl DescFile {
    /// The keys of this table for the schema reference (`schema.rs`).
    pub const KEYS: &'static [Key] = &[
        Key::req(
            "descriptors",
            Ty::List("descriptors[]"),
            "Descriptor formats (see the required descriptors).",
        ),
        Key::req("ring", Ty::Entry("ring"), "Ring rules."),
    ];
}

#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(serde::Serialize, Default))]
#[serde(deny_unknown_fields)]
pub struct RawDesc {
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub bytes: u32,
    pub fields: Vec<RawBitField>,
}

impl RawDesc {
    /// The keys of this table for the schema reference (`schema.rs`).
    pub const KEYS: &'static [Key] = &[
        Key::req("name", Ty::Str, "Format name, unique."),
        Key::opt("description", Ty::Str, "What the descriptor describes."),
        Key::req("bytes", Ty::Uint, "Size of one descriptor.")
            .unit("bytes")
            .allowed("a nonzero multiple of 4; equal to DESC_BYTES"),
        Key::req(
            "fields",
            Ty::List("fields[]"),
            "Bit fields of the little-endian descriptor.",
        ),
    ];
}

#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(serde::Serialize, Default))]
#[serde(deny_unknown_fields)]
pub struct RawRing {
    pub initial_ring_id: u32,
    pub ring_id_width: u32,
    pub base_align: Num,
    pub max_len_code: Num,
}

impl RawRing {
    /// The keys of this table for the schema reference (`schema.rs`).
    pub const KEYS: &'static [Key] = &[
        Key::req(
            "initial_ring_id",
            Ty::Uint,
            "Ring id of a freshly reset ring.",
        )
        .allowed("fits ring_id_width"),
        Key::req(
            "ring_id_width",
            Ty::Uint,
            "Bits of a ring id (queue head/tail and descriptor RING_ID).",
        )
        .unit("bits")
        .allowed("1..=8"),
        Key::req("base_align", Ty::Num, "Alignment of a ring base.")
            .unit("bytes")
            .allowed("a power of two, a multiple of DESC_BYTES"),
        Key::req(
            "max_len_code",
            Ty::Num,
            "Bytes a LEN field of 0 stands for.",
        )
        .unit("bytes")
        .allowed("2^(width of LEN)"),
    ];
}

// ---------------------------------------------------------------- ext_inst.yaml

#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(serde::Serialize, Default))]
#[serde(deny_unknown_fields)]
pub struct ExtFile {
    pub words: Vec<RawWord>,
}

impl ExtFile {
    /// The keys of this table for the schema reference (`schema.rs`).
    pub const KEYS: &'static [Key] = &[Key::req(
        "words",
        Ty::List("words[]"),
        "ExtendedInst words (see the required words).",
    )];
}

#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(serde::Serialize, Default))]
#[serde(deny_unknown_fields)]
pub struct RawWord {
    pub name: String,
    pub sub_opcode: u32,
    pub bytes: u32,
    #[serde(default)]
    pub description: String,
    pub fields: Vec<RawWordField>,
}

impl RawWord {
    /// The keys of this table for the schema reference (`schema.rs`).
    pub const KEYS: &'static [Key] = &[
        Key::req("name", Ty::Str, "Word name, unique."),
        Key::req("sub_opcode", Ty::Uint, "ExtendedInst sub-opcode."),
        Key::req("bytes", Ty::Uint, "Size of the word.").unit("bytes"),
        Key::opt("description", Ty::Str, "What the instruction does."),
        Key::req(
            "fields",
            Ty::List("fields[]"),
            "Little-endian integers of the word; they must not overlap.",
        ),
    ];
}

#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(serde::Serialize, Default))]
#[serde(deny_unknown_fields)]
pub struct RawWordField {
    pub name: String,
    pub offset: u32,
    pub bytes: u32,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub values: Vec<RawWordValue>,
}

impl RawWordField {
    /// The keys of this table for the schema reference (`schema.rs`).
    pub const KEYS: &'static [Key] = &[
        Key::req("name", Ty::Str, "Field name, unique in its word."),
        Key::req("offset", Ty::Uint, "First byte.").unit("bytes"),
        Key::req("bytes", Ty::Uint, "Size.")
            .unit("bytes")
            .allowed("1, 2, 4 or 8; inside the word"),
        Key::opt("description", Ty::Str, "What the field carries."),
        Key::opt(
            "values",
            Ty::List("values[]"),
            "Named codes of the field (an enumeration); the C header names each one.",
        ),
    ];
}

#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(serde::Serialize, Default))]
#[serde(deny_unknown_fields)]
pub struct RawWordValue {
    pub name: String,
    pub value: Num,
    #[serde(default)]
    pub description: String,
}

impl RawWordValue {
    /// The keys of this table for the schema reference (`schema.rs`).
    pub const KEYS: &'static [Key] = &[
        Key::req("name", Ty::Str, "Code name, unique in its field."),
        Key::req("value", Ty::Num, "The code.").allowed("unique in its field; fits the field"),
        Key::opt("description", Ty::Str, "What the code means."),
    ];
}

// ---------------------------------------------------------------- profiles.yaml

#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(serde::Serialize, Default))]
#[serde(deny_unknown_fields)]
pub struct ProfileFile {
    pub default: String,
    pub profiles: Vec<RawProfile>,
}

impl ProfileFile {
    /// The keys of this table for the schema reference (`schema.rs`).
    pub const KEYS: &'static [Key] = &[
        Key::req("default", Ty::Str, "Profile the generated RTL follows.")
            .allowed("a profile name"),
        Key::req("profiles", Ty::List("profiles[]"), "The generations."),
    ];
}

#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(serde::Serialize, Default))]
#[serde(deny_unknown_fields)]
pub struct RawProfile {
    pub name: String,
    pub sb2sb: bool,
    pub d2d_ip: String,
    pub d2d_controllers: u32,
    #[serde(default)]
    pub description: String,
}

impl RawProfile {
    /// The keys of this table for the schema reference (`schema.rs`).
    pub const KEYS: &'static [Key] = &[
        Key::req("name", Ty::Str, "Generation name, unique."),
        Key::req("sb2sb", Ty::Bool, "Has the 0xBF SB2SB op."),
        Key::req("d2d_ip", Ty::Str, "Die-to-die controller IP.")
            .allowed("none, dwc_pcie_xsr, ucie"),
        Key::req("d2d_controllers", Ty::Uint, "D2D controllers per die.").allowed(
            "0 exactly when d2d_ip is none; the default profile's equals the D2D aperture's count",
        ),
        Key::opt("description", Ty::Str, "What differs."),
    ];
}

// ---------------------------------------------------------------- sizing.yaml

#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(serde::Serialize, Default))]
#[serde(deny_unknown_fields)]
pub struct SizingFile {
    pub default: String,
    pub profiles: Vec<RawSizing>,
}

impl SizingFile {
    /// The keys of this table for the schema reference (`schema.rs`).
    pub const KEYS: &'static [Key] = &[
        Key::req(
            "default",
            Ty::Str,
            "Sizing the model, the testbench and `xdie_die`'s parameter defaults follow.",
        )
        .allowed("a sizing profile name"),
        Key::req("profiles", Ty::List("profiles[]"), "The sizing profiles."),
    ];
}

#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(serde::Serialize, Default))]
#[serde(deny_unknown_fields)]
pub struct RawSizing {
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub cores: Option<Num>,
    #[serde(default)]
    pub sdma_engines: Option<Num>,
    #[serde(default)]
    pub d2d_controllers: Option<Num>,
    #[serde(default)]
    pub sbuf_backing_bytes: Option<Num>,
    #[serde(default)]
    pub hbm_bytes: Option<Num>,
    #[serde(default)]
    pub link_credits: Option<Num>,
    #[serde(default)]
    pub outstanding: Option<Num>,
    #[serde(default)]
    pub engine_read_beats: Option<Num>,
    #[serde(default)]
    pub shared_crossbar: Option<Num>,
    #[serde(default)]
    pub select_arbiters: Option<Num>,
    #[serde(default)]
    pub timing_registers: Option<Num>,
}

impl RawSizing {
    /// The keys of this table for the schema reference (`schema.rs`).
    pub const KEYS: &'static [Key] = &[
        Key::req("name", Ty::Str, "Profile name, unique; names the wrapper top `xdie_die_<name>`.")
            .allowed("lower-case letter, then lower-case letters, digits, `_`; at most 32"),
        Key::opt("description", Ty::Str, "What the profile is for."),
        Key::opt("cores", Ty::Num, "NeuronCores wired per die, each with its own SBUF, EVT_SEM and accumulate apertures (cores past it answer DECERR).")
            .allowed("1 ..= the SBUF aperture's count; default profile: equal to it"),
        Key::opt("sdma_engines", Ty::Num, "SDMA engines wired (each with its two queue groups).")
            .allowed("1 ..= SDMA_ENGINES of the die map; default profile: equal to it"),
        Key::opt("d2d_controllers", Ty::Num, "D2D controller register blocks wired (controller 0 serves the port).")
            .allowed("1 ..= the D2D aperture's count; default profile: equal to it"),
        Key::opt("sbuf_backing_bytes", Ty::Num, "Bytes backed per SBUF partition.")
            .unit("bytes")
            .allowed("nonzero multiple of DATA_BYTES, at most SBUF_PARTITION_STRIDE; default profile: SBUF_BACKING_BYTES"),
        Key::opt("hbm_bytes", Ty::Num, "Bytes of HBM backed (from the aperture base).")
            .unit("bytes")
            .allowed("nonzero multiple of DATA_BYTES, at most the HBM aperture; default profile: its size"),
        Key::opt("link_credits", Ty::Num, "Receive buffer depth per link channel (credits).")
            .allowed("2 ..= 2^16; default profile: LINK_CREDITS"),
        Key::opt("outstanding", Ty::Num, "Requests in flight per crossbar master and slave, writes in flight per engine.")
            .allowed("1 ..= 2^16; required in the default profile"),
        Key::opt("engine_read_beats", Ty::Num, "Source beats an engine buffers (its reads in flight).")
            .allowed("1 ..= 2^16; required in the default profile"),
        Key::opt("shared_crossbar", Ty::Num, "1: one request and one response path shared by all crossbar ports (`xdie_xbar_shared`, a fraction of the area, one request and one response per cycle); 0: a full crossbar (`xdie_xbar`).")
            .allowed("0 or 1; default profile: 0"),
        Key::opt("select_arbiters", Ty::Num, "1: the SDMA engines pick their queue with the round-robin arbiter's select form (`xdie_rr_arbiter` SELECT: no carry chains, shorter logic paths on an FPGA, more simulation work because a simulator evaluates the select bit by bit); 0: the word-wide form.")
            .allowed("0 or 1; default profile: 0"),
        Key::opt("timing_registers", Ty::Num, "1: register stages that shorten paths between blocks on an FPGA, each at a cycle of latency (the SDMA engines' queue pick registered before the queue groups are read; docs/fpga-fit.md lists them); 0: none.")
            .allowed("0 or 1; default profile: 0"),
    ];
}

#[cfg(test)]
mod schema_tests {
    use super::*;
    use serde::de::DeserializeOwned;
    use serde::Serialize;
    use serde_json::{Map, Value};
    use std::collections::BTreeSet;

    /// A value of the documented type that serde accepts.
    fn placeholder(ty: Ty) -> Value {
        match ty {
            Ty::Str => Value::from("x"),
            Ty::Uint => Value::from(1u32),
            Ty::Num => Value::from("0x1"),
            Ty::Bool => Value::from(true),
            Ty::Bits => Value::from("0:0"),
            Ty::List(_) | Ty::Strings => Value::Array(vec![]),
            Ty::Map => Value::Object(Map::new()),
            // A nested map is checked through its own table; any valid entry will do here.
            Ty::Entry(_) => serde_json::to_value(RawRing::default()).expect("ring"),
        }
    }

    /// The keys of `T` (as serde spells them) are exactly the documented ones, an entry with
    /// every documented key deserializes, and leaving out a key fails exactly when it is
    /// documented as required.
    fn check<T: Serialize + Default + DeserializeOwned>(keys: &[Key]) {
        let name = std::any::type_name::<T>();
        let actual: BTreeSet<String> = serde_json::to_value(T::default())
            .expect("serialize")
            .as_object()
            .expect("an object")
            .keys()
            .cloned()
            .collect();
        let documented: BTreeSet<String> = keys.iter().map(|k| k.name.to_string()).collect();
        assert_eq!(
            actual, documented,
            "{name}: the keys serde accepts (left) differ from its KEYS table (right)"
        );
        let full: Map<String, Value> = keys
            .iter()
            .map(|k| (k.name.to_string(), placeholder(k.ty)))
            .collect();
        if let Err(e) = serde_json::from_value::<T>(Value::Object(full.clone())) {
            panic!("{name}: an entry with every documented key is rejected: {e}");
        }
        for k in keys {
            let mut m = full.clone();
            m.remove(k.name);
            let rejected = serde_json::from_value::<T>(Value::Object(m)).is_err();
            assert_eq!(
                rejected,
                k.required,
                "{name}: key `{}` is documented as {} but serde {} an entry without it",
                k.name,
                if k.required { "required" } else { "optional" },
                if rejected { "rejects" } else { "accepts" }
            );
        }
    }

    #[test]
    fn every_raw_key_is_documented() {
        check::<SocFile>(SocFile::KEYS);
        check::<RawView>(RawView::KEYS);
        check::<RawBitField>(RawBitField::KEYS);
        check::<RawFold>(RawFold::KEYS);
        check::<RawFoldStep>(RawFoldStep::KEYS);
        check::<MapFile>(MapFile::KEYS);
        check::<RawParam>(RawParam::KEYS);
        check::<RawAperture>(RawAperture::KEYS);
        check::<BlockFile>(BlockFile::KEYS);
        check::<RawBundle>(RawBundle::KEYS);
        check::<RawRegister>(RawRegister::KEYS);
        check::<RawField>(RawField::KEYS);
        check::<DescFile>(DescFile::KEYS);
        check::<RawDesc>(RawDesc::KEYS);
        check::<RawRing>(RawRing::KEYS);
        check::<ExtFile>(ExtFile::KEYS);
        check::<RawWord>(RawWord::KEYS);
        check::<RawWordField>(RawWordField::KEYS);
        check::<ProfileFile>(ProfileFile::KEYS);
        check::<RawProfile>(RawProfile::KEYS);
        check::<SizingFile>(SizingFile::KEYS);
        check::<RawSizing>(RawSizing::KEYS);
    }
}
