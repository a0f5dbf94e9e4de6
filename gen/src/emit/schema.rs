//! `docs/csr-schema.md`: the reference of the CSR input format, rendered from
//! `xdie_csr::schema::schema()` (the loader's own key tables, role lists and rules), with an
//! example of each file kind cut from the CSR files being generated from.

use super::{finish, OutFile, DO_NOT_EDIT};
use askama::Template;
use std::path::Path;
use xdie_csr::schema::{schema, BlockKindSchema, FileKind, Key};
use xdie_csr::Csrs;

/// An example longer than this is cut to its first `EXAMPLE_LINES` lines.
const EXAMPLE_LINES: usize = 40;

#[derive(Template)]
#[template(path = "md/csr_schema.md", escape = "none")]
struct SchemaDoc {
    header: &'static str,
    files: Vec<FileDoc>,
    kinds: Vec<KindDoc>,
    names: String,
    rules: String,
}

struct FileDoc {
    stem: &'static str,
    anchor: String,
    about: String,
    tables: Vec<TableDoc>,
    example_note: String,
    lang: &'static str,
    example: String,
    /// The code fence around the example: longer than any run of backticks in it, so that no
    /// line of the input file can close the fence and turn the rest into Markdown.
    fence: String,
}

struct TableDoc {
    title: String,
    table: String,
}

struct KindDoc {
    kind: &'static str,
    params: String,
    bundles: String,
    roles: String,
}

/// Phrases of the key tables' prose that name another section of the page, with its anchor.
const SEE_ALSO: &[(&str, &str)] = &[
    ("the block kinds", "#block-kinds"),
    ("the required parameters", "#required-names"),
    ("the required apertures", "#required-names"),
    ("the required descriptors", "#required-names"),
    ("the required words", "#required-names"),
];

/// `text` with every "see <phrase>" turned into a link to the section it names.
fn link_sections(text: &str) -> String {
    SEE_ALSO
        .iter()
        .fold(text.to_string(), |t, (phrase, anchor)| {
            t.replace(
                &format!("see {phrase}"),
                &format!("see [{phrase}]({anchor})"),
            )
        })
}

/// Table cells must not break the Markdown table.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn md_table(head: &[&str], rows: &[Vec<String>]) -> String {
    let mut out = format!(
        "| {} |\n|{}|\n",
        head.join(" | "),
        vec!["---"; head.len()].join("|")
    );
    for r in rows {
        let cells: Vec<String> = r.iter().map(|c| cell(c)).collect();
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    out.trim_end().to_string()
}

fn key_rows(keys: &[Key]) -> Vec<Vec<String>> {
    keys.iter()
        .map(|k| {
            vec![
                format!("`{}`", k.name),
                k.ty.describe(),
                k.unit.to_string(),
                if k.required { "yes" } else { "no" }.to_string(),
                k.allowed.to_string(),
                link_sections(k.about),
            ]
        })
        .collect()
}

const KEY_HEAD: &[&str] = &["key", "type", "unit", "required", "allowed", "meaning"];

/// The CSR file of this kind among the files the model was loaded from; for register blocks the
/// shortest one, so the example stays small.
fn example_source<'a>(csrs: &'a Csrs, f: &FileKind) -> Option<&'a Path> {
    let is_kind = |p: &&std::path::PathBuf| match f.stem.strip_prefix("blocks/") {
        Some(_) => p
            .parent()
            .and_then(Path::file_name)
            .is_some_and(|d| d == "blocks"),
        None => p.file_stem().is_some_and(|s| s == f.stem),
    };
    csrs.sources
        .iter()
        .filter(is_kind)
        .min_by_key(|p| {
            xdie_csr::limits::read_text(p)
                .map(|t| t.lines().count())
                .unwrap_or(usize::MAX)
        })
        .map(|p| p.as_path())
}

/// (note, code-fence language, text) of the example of one file kind.
fn example(csrs: &Csrs, f: &FileKind) -> (String, &'static str, String) {
    let Some(path) = example_source(csrs, f) else {
        return (
            "none (no such file was loaded).".into(),
            "text",
            String::new(),
        );
    };
    // Name the file as it sits in the CSR directory, whatever directory was passed.
    let name = match f.stem.strip_prefix("blocks/") {
        Some(_) => format!(
            "blocks/{}",
            path.file_name().unwrap_or_default().to_string_lossy()
        ),
        None => path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned(),
    };
    let lang = if path.extension().is_some_and(|e| e == "json") {
        "json"
    } else {
        "yaml"
    };
    let text = xdie_csr::limits::read_text(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() <= EXAMPLE_LINES {
        (format!("`csrs/{name}` as shipped."), lang, lines.join("\n"))
    } else {
        (
            format!(
                "the first {EXAMPLE_LINES} of the {} lines of `csrs/{name}` as shipped.",
                lines.len()
            ),
            lang,
            lines[..EXAMPLE_LINES].join("\n"),
        )
    }
}

/// A backtick fence longer than the longest backtick run of `text` (at least three).
fn fence_for(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    "`".repeat((longest + 1).max(3))
}

fn file_doc(csrs: &Csrs, f: &FileKind) -> FileDoc {
    let (example_note, lang, example) = example(csrs, f);
    FileDoc {
        stem: f.stem,
        anchor: f.stem.replace('/', "").to_lowercase(),
        about: link_sections(f.about),
        tables: f
            .tables
            .iter()
            .map(|t| TableDoc {
                title: if t.path.is_empty() {
                    "Top level".to_string()
                } else {
                    format!("`{}`", t.path)
                },
                table: md_table(KEY_HEAD, &key_rows(t.keys)),
            })
            .collect(),
        example_note,
        fence: fence_for(&example),
        lang,
        example,
    }
}

fn kind_doc(k: &BlockKindSchema) -> KindDoc {
    let params = if k.parameters.is_empty() {
        String::new()
    } else {
        md_table(KEY_HEAD, &key_rows(k.parameters))
    };
    let quoted = |v: &[&str]| {
        v.iter()
            .map(|s| format!("`{s}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let rows: Vec<Vec<String>> = k
        .registers
        .iter()
        .map(|(bundle, reg, fields)| {
            vec![
                if bundle.is_empty() {
                    "top level".to_string()
                } else {
                    format!("bundle `{bundle}`")
                },
                format!("`{reg}`"),
                if fields.is_empty() {
                    "(none required)".to_string()
                } else {
                    quoted(fields)
                },
            ]
        })
        .collect();
    KindDoc {
        kind: k.kind,
        params,
        bundles: quoted(&k.bundles),
        roles: if rows.is_empty() {
            String::new()
        } else {
            md_table(&["in", "register role", "field roles"], &rows)
        },
    }
}

pub fn render(csrs: &Csrs) -> Result<Vec<OutFile>, askama::Error> {
    let s = schema();
    let quoted = |v: &[&str]| {
        v.iter()
            .map(|s| format!("`{s}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut names = vec![
        vec!["address_map `parameters`".to_string(), quoted(&s.params)],
        vec!["address_map `apertures`".to_string(), quoted(&s.apertures)],
    ];
    for (d, fields) in &s.descriptor_fields {
        names.push(vec![
            format!("descriptors: format `{d}`"),
            format!("fields {}", quoted(fields)),
        ]);
    }
    for (w, fields) in &s.word_fields {
        names.push(vec![
            format!("ext_inst: word `{w}`"),
            format!("fields {}", quoted(fields)),
        ]);
    }
    let rules: Vec<Vec<String>> = s
        .rules
        .iter()
        .map(|(n, r)| vec![format!("`{n}`"), r.to_string()])
        .collect();
    let doc = SchemaDoc {
        header: DO_NOT_EDIT,
        files: s.files.iter().map(|f| file_doc(csrs, f)).collect(),
        kinds: s.block_kinds.iter().map(kind_doc).collect(),
        names: md_table(&["where", "names"], &names),
        rules: md_table(&["rule", "requires"], &rules),
    };
    Ok(vec![OutFile::new(
        "docs/csr-schema.md",
        finish(doc.render()?),
    )])
}
