//! The reference of the CSR input format: per file kind, every key with its type, unit, whether
//! it is required and its allowed values, plus the roles, parameters and cross-file rules the
//! loader requires. `xdie gen` renders it as docs/csr-schema.md.
//!
//! Nothing here is a second copy of the loader's knowledge: the key tables sit beside the serde
//! types in `raw.rs` (a test there fails when a type gains a key its table lacks, or when a
//! table's required flag disagrees with serde), and the role, parameter, aperture and rule lists
//! are the loader's own constants.

use crate::raw;

/// How a value is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    Str,
    /// A plain unsigned integer.
    Uint,
    /// An unsigned integer, or a string such as "0x1000" / "4_096".
    Num,
    Bool,
    /// A bit range of a 32-bit register: "hi:lo" or "bit".
    Bits,
    /// A list of the entries of another table (named by its path).
    List(&'static str),
    /// A list of strings.
    Strings,
    /// One nested map, described by another table (named by its path).
    Entry(&'static str),
    /// A map whose keys depend on another key (see the block kinds).
    Map,
}

impl Ty {
    pub fn describe(self) -> String {
        match self {
            Ty::Str => "string".into(),
            Ty::Uint => "unsigned integer".into(),
            Ty::Num => "unsigned integer or string (\"0x1000\", \"4_096\")".into(),
            Ty::Bool => "true / false".into(),
            Ty::Bits => "string \"hi:lo\" or \"bit\"".into(),
            Ty::List(of) => format!("list of `{of}` entries"),
            Ty::Strings => "list of strings".into(),
            Ty::Entry(of) => format!("map (`{of}`)"),
            Ty::Map => "map".into(),
        }
    }
}

/// One key of one table.
#[derive(Debug, Clone, Copy)]
pub struct Key {
    pub name: &'static str,
    pub ty: Ty,
    /// "bytes", "bits", ... or "" when the value has no unit.
    pub unit: &'static str,
    pub required: bool,
    /// Allowed values or range, "" when any value of the type is accepted.
    pub allowed: &'static str,
    pub about: &'static str,
}

impl Key {
    pub const fn req(name: &'static str, ty: Ty, about: &'static str) -> Key {
        Key {
            name,
            ty,
            unit: "",
            required: true,
            allowed: "",
            about,
        }
    }
    pub const fn opt(name: &'static str, ty: Ty, about: &'static str) -> Key {
        Key {
            required: false,
            ..Key::req(name, ty, about)
        }
    }
    pub const fn unit(self, unit: &'static str) -> Key {
        Key { unit, ..self }
    }
    pub const fn allowed(self, allowed: &'static str) -> Key {
        Key { allowed, ..self }
    }
}

/// The keys of one kind of entry: the file's top level (path "") or the entries of a list
/// (path "views[]", "views[].fields[]", ...).
#[derive(Debug, Clone)]
pub struct Table {
    pub path: &'static str,
    pub keys: &'static [Key],
}

/// One kind of input file.
#[derive(Debug, Clone)]
pub struct FileKind {
    /// File name without extension ("blocks/NAME" for register blocks).
    pub stem: &'static str,
    pub about: &'static str,
    pub tables: Vec<Table>,
}

/// What a register block of one `Kind` must hold: the bundles, registers and fields (by role)
/// its template gives behaviour to, and its `Parameters` keys.
#[derive(Debug, Clone)]
pub struct BlockKindSchema {
    pub kind: &'static str,
    pub parameters: &'static [Key],
    pub bundles: Vec<&'static str>,
    /// (bundle role or "" for the top level, register role, field roles)
    pub registers: Vec<(&'static str, &'static str, Vec<&'static str>)>,
}

/// The whole reference.
#[derive(Debug, Clone)]
pub struct Schema {
    pub files: Vec<FileKind>,
    pub block_kinds: Vec<BlockKindSchema>,
    /// Die-map parameters the code reads by name (address_map `parameters`).
    pub params: Vec<&'static str>,
    /// Apertures the code addresses by name (address_map `apertures`).
    pub apertures: Vec<&'static str>,
    /// Descriptor formats and the fields each must have.
    pub descriptor_fields: Vec<(&'static str, Vec<&'static str>)>,
    /// ExtendedInst words and the fields each must have.
    pub word_fields: Vec<(&'static str, Vec<&'static str>)>,
    /// Rules across files and keys, checked after everything is loaded: (name, rule).
    pub rules: &'static [(&'static str, &'static str)],
}

/// The reference, built from the raw types' key tables and the loader's requirement lists.
pub fn schema() -> Schema {
    let t = |path, keys| Table { path, keys };
    let files = vec![
        FileKind {
            stem: "soc_address",
            about: "The routed SoC address: its width, its views (named bit fields over the same \
                    bits) and its folds (recipes that build a routed address from arguments).",
            tables: vec![
                t("", raw::SocFile::KEYS),
                t("views[]", raw::RawView::KEYS),
                t("views[].fields[]", raw::RawBitField::KEYS),
                t("folds[]", raw::RawFold::KEYS),
                t("folds[].steps[]", raw::RawFoldStep::KEYS),
            ],
        },
        FileKind {
            stem: "address_map",
            about: "The die-local address map: named parameters of the die and the apertures \
                    (memories and register-block instances) of the LOCAL field.",
            tables: vec![
                t("", raw::MapFile::KEYS),
                t("parameters[]", raw::RawParam::KEYS),
                t("apertures[]", raw::RawAperture::KEYS),
            ],
        },
        FileKind {
            stem: "blocks/NAME",
            about: "One register block per file, named by an aperture's `block`. Keys are \
                    PascalCase. `Kind` selects the block's template and what it must hold (see \
                    the block kinds below).",
            tables: vec![
                t("", raw::BlockFile::KEYS),
                t("Bundles[]", raw::RawBundle::KEYS),
                t(
                    "Registers[] and Bundles[].Registers[]",
                    raw::RawRegister::KEYS,
                ),
                t("Registers[].Fields[]", raw::RawField::KEYS),
            ],
        },
        FileKind {
            stem: "descriptors",
            about: "Ring descriptor formats (bit fields of a little-endian word of `bytes` bytes) \
                    and the ring rules shared by all rings.",
            tables: vec![
                t("", raw::DescFile::KEYS),
                t("descriptors[]", raw::RawDesc::KEYS),
                t("descriptors[].fields[]", raw::RawBitField::KEYS),
                t("ring", raw::RawRing::KEYS),
            ],
        },
        FileKind {
            stem: "ext_inst",
            about: "ExtendedInst words: little-endian integers at byte offsets of a fixed-size \
                    instruction word.",
            tables: vec![
                t("", raw::ExtFile::KEYS),
                t("words[]", raw::RawWord::KEYS),
                t("words[].fields[]", raw::RawWordField::KEYS),
                t("words[].fields[].values[]", raw::RawWordValue::KEYS),
            ],
        },
        FileKind {
            stem: "profiles",
            about: "Accelerator generations; the generated RTL follows the default profile.",
            tables: vec![
                t("", raw::ProfileFile::KEYS),
                t("profiles[]", raw::RawProfile::KEYS),
            ],
        },
        FileKind {
            stem: "sizing",
            about: "Die sizing profiles: engines and D2D controllers wired, SBUF and HBM backing, \
                    link buffers and requests in flight, per build (the register map is the same \
                    in every profile). `xdie gen` writes one constant set per profile and a \
                    wrapper top `xdie_die_<name>` per profile other than the default.",
            tables: vec![
                t("", raw::SizingFile::KEYS),
                t("profiles[]", raw::RawSizing::KEYS),
            ],
        },
    ];
    Schema {
        files,
        block_kinds: crate::load::KindName::ALL
            .iter()
            .map(|&k| {
                let (bundles, registers) = crate::load::required_roles(k);
                BlockKindSchema {
                    kind: k.as_str(),
                    parameters: k.parameters(),
                    bundles,
                    registers,
                }
            })
            .collect(),
        params: crate::views::DieParams::NAMES.to_vec(),
        apertures: crate::roles::ApertureId::ALL
            .iter()
            .map(|a| a.as_str())
            .collect(),
        descriptor_fields: crate::load::DESCRIPTOR_FIELDS
            .iter()
            .map(|(d, fields)| (*d, fields.to_vec()))
            .collect(),
        word_fields: vec![
            (
                crate::views::GenWordLayout::WORD,
                crate::views::GenWordLayout::FIELDS.to_vec(),
            ),
            (
                crate::views::StartWordLayout::WORD,
                crate::views::StartWordLayout::FIELDS.to_vec(),
            ),
        ],
        rules: crate::load::RULES,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_table_has_unique_keys_and_every_list_names_a_table() {
        let s = schema();
        for f in &s.files {
            let paths: Vec<&str> = f.tables.iter().map(|t| t.path).collect();
            for t in &f.tables {
                let mut names: Vec<&str> = t.keys.iter().map(|k| k.name).collect();
                names.sort_unstable();
                names.dedup();
                assert_eq!(names.len(), t.keys.len(), "{} {}", f.stem, t.path);
                for k in t.keys {
                    if let Ty::List(of) | Ty::Entry(of) = k.ty {
                        assert!(
                            paths.iter().any(|p| p.contains(of)),
                            "{}: `{}` lists `{of}` entries but no table describes them",
                            f.stem,
                            k.name
                        );
                    }
                }
            }
        }
        assert!(!s.rules.is_empty());
    }
}
