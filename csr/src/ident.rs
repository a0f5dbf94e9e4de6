//! The one rule every name in `csrs/` follows, because names become identifiers of the generated
//! SystemVerilog and C (and file names of the generated RTL): an ASCII letter, then ASCII
//! letters, digits or underscores, at most `MAX_NAME_LEN` characters, and not a keyword of
//! SystemVerilog-2017 or C11. Names of one scope must also differ after the case mapping the
//! outputs apply (the C header upper-cases, the RTL lower-cases): `checks::unique_names` compares
//! them without case.
//!
//! A name that passes can be pasted into any output as is: it holds no space, quote, slash,
//! backslash, comment marker or newline, and it is no path (`/`, `..`).

use crate::limits::MAX_NAME_LEN;

/// Keywords of IEEE 1800-2017 (Annex B).
const SV_KEYWORDS: &[&str] = &[
    "accept_on",
    "alias",
    "always",
    "always_comb",
    "always_ff",
    "always_latch",
    "and",
    "assert",
    "assign",
    "assume",
    "automatic",
    "before",
    "begin",
    "bind",
    "bins",
    "binsof",
    "bit",
    "break",
    "buf",
    "bufif0",
    "bufif1",
    "byte",
    "case",
    "casex",
    "casez",
    "cell",
    "chandle",
    "checker",
    "class",
    "clocking",
    "cmos",
    "config",
    "const",
    "constraint",
    "context",
    "continue",
    "cover",
    "covergroup",
    "coverpoint",
    "cross",
    "deassign",
    "default",
    "defparam",
    "design",
    "disable",
    "dist",
    "do",
    "edge",
    "else",
    "end",
    "endcase",
    "endchecker",
    "endclass",
    "endclocking",
    "endconfig",
    "endfunction",
    "endgenerate",
    "endgroup",
    "endinterface",
    "endmodule",
    "endpackage",
    "endprimitive",
    "endprogram",
    "endproperty",
    "endspecify",
    "endsequence",
    "endtable",
    "endtask",
    "enum",
    "event",
    "eventually",
    "expect",
    "export",
    "extends",
    "extern",
    "final",
    "first_match",
    "for",
    "force",
    "foreach",
    "forever",
    "fork",
    "forkjoin",
    "function",
    "generate",
    "genvar",
    "global",
    "highz0",
    "highz1",
    "if",
    "iff",
    "ifnone",
    "ignore_bins",
    "illegal_bins",
    "implements",
    "implies",
    "import",
    "incdir",
    "include",
    "initial",
    "inout",
    "input",
    "inside",
    "instance",
    "int",
    "integer",
    "interconnect",
    "interface",
    "intersect",
    "join",
    "join_any",
    "join_none",
    "large",
    "let",
    "liblist",
    "library",
    "local",
    "localparam",
    "logic",
    "longint",
    "macromodule",
    "matches",
    "medium",
    "modport",
    "module",
    "nand",
    "negedge",
    "nettype",
    "new",
    "nexttime",
    "nmos",
    "nor",
    "noshowcancelled",
    "not",
    "notif0",
    "notif1",
    "null",
    "or",
    "output",
    "package",
    "packed",
    "parameter",
    "pmos",
    "posedge",
    "primitive",
    "priority",
    "program",
    "property",
    "protected",
    "pull0",
    "pull1",
    "pulldown",
    "pullup",
    "pulsestyle_ondetect",
    "pulsestyle_onevent",
    "pure",
    "rand",
    "randc",
    "randcase",
    "randsequence",
    "rcmos",
    "real",
    "realtime",
    "ref",
    "reg",
    "reject_on",
    "release",
    "repeat",
    "restrict",
    "return",
    "rnmos",
    "rpmos",
    "rtran",
    "rtranif0",
    "rtranif1",
    "s_always",
    "s_eventually",
    "s_nexttime",
    "s_until",
    "s_until_with",
    "scalared",
    "sequence",
    "shortint",
    "shortreal",
    "showcancelled",
    "signed",
    "small",
    "soft",
    "solve",
    "specify",
    "specparam",
    "static",
    "string",
    "strong",
    "strong0",
    "strong1",
    "struct",
    "super",
    "supply0",
    "supply1",
    "sync_accept_on",
    "sync_reject_on",
    "table",
    "tagged",
    "task",
    "this",
    "throughout",
    "time",
    "timeprecision",
    "timeunit",
    "tran",
    "tranif0",
    "tranif1",
    "tri",
    "tri0",
    "tri1",
    "triand",
    "trior",
    "trireg",
    "type",
    "typedef",
    "union",
    "unique",
    "unique0",
    "unsigned",
    "until",
    "until_with",
    "untyped",
    "use",
    "uwire",
    "var",
    "vectored",
    "virtual",
    "void",
    "wait",
    "wait_order",
    "wand",
    "weak",
    "weak0",
    "weak1",
    "while",
    "wildcard",
    "wire",
    "with",
    "within",
    "wor",
    "xnor",
    "xor",
];

/// Keywords of ISO C11 (6.4.1) that the syntax rule lets through (the `_Xxx` ones cannot start a
/// name here).
const C_KEYWORDS: &[&str] = &[
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
    "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
    "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef",
    "union", "unsigned", "void", "volatile", "while",
];

/// Why `name` is not a valid identifier, or None when it is.
pub fn problem(name: &str) -> Option<String> {
    let syntax = syntax_problem(name);
    if syntax.is_some() {
        return syntax;
    }
    if SV_KEYWORDS.contains(&name) || C_KEYWORDS.contains(&name) {
        return Some(format!(
            "`{name}` is a keyword of SystemVerilog or C and cannot name anything"
        ));
    }
    None
}

/// The syntax half of the rule alone, for names that only ever appear inside a longer generated
/// identifier (a view name is always a prefix: `<view>_get_<field>`, `<VIEW>_<FIELD>_LSB`), where
/// a keyword is harmless and the required view `local` is one.
pub fn syntax_problem(name: &str) -> Option<String> {
    let shown: String = name
        .chars()
        .take(MAX_NAME_LEN)
        .flat_map(char::escape_debug)
        .collect();
    let mut chars = name.chars();
    match chars.next() {
        None => return Some("the name is empty".into()),
        Some(c) if !c.is_ascii_alphabetic() => {
            return Some(format!(
                "`{shown}` must start with an ASCII letter (names are identifiers of the \
                 generated code, never paths)"
            ))
        }
        _ => {}
    }
    if let Some(c) = chars.find(|c| !(c.is_ascii_alphanumeric() || *c == '_')) {
        return Some(format!(
            "`{shown}` holds `{}`: a name is ASCII letters, digits and underscores only (names \
             are identifiers of the generated code, never paths)",
            c.escape_debug()
        ));
    }
    if name.len() > MAX_NAME_LEN {
        return Some(format!(
            "`{shown}...` is longer than {MAX_NAME_LEN} characters"
        ));
    }
    None
}

/// The rule for labels that name things in reports and other input files but never become
/// identifiers of generated code (scenario legs, topology packages): 1 to `MAX_NAME_LEN` ASCII
/// letters, digits, `_` and `-`. A label holds no newline, control character, quote or dot, so
/// it can neither forge a line of a report nor be misread where `PACKAGE.DIE` is parsed.
pub fn label_problem(name: &str) -> Option<String> {
    let shown: String = name
        .chars()
        .take(MAX_NAME_LEN)
        .flat_map(char::escape_debug)
        .collect();
    if name.is_empty() {
        return Some("the name is empty".into());
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
    {
        return Some(format!(
            "`{shown}` holds `{}`: a name is ASCII letters, digits, `_` and `-` only",
            c.escape_debug()
        ));
    }
    if name.len() > MAX_NAME_LEN {
        return Some(format!(
            "`{shown}...` is longer than {MAX_NAME_LEN} characters"
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule() {
        for ok in ["a", "SEM_READ", "x9_", "local_sem"] {
            assert_eq!(problem(ok), None, "{ok}");
        }
        for bad in [
            "",
            "9a",
            "_a",
            "a b",
            "a/b",
            "..",
            "a\nb",
            "é",
            "a-b",
            "X = 1; Y",
            "a*/",
            "module",
            "int",
            "volatile",
            "endmodule",
        ] {
            assert!(problem(bad).is_some(), "{bad:?} accepted");
        }
        assert!(problem(&"a".repeat(MAX_NAME_LEN + 1)).is_some());
        assert_eq!(syntax_problem("local"), None);
        assert_eq!(label_problem("seed-leg"), None);
        for bad in ["", "a.b", "a\nPASS", "a\u{1b}[31m", "a b", "\"a\""] {
            assert!(label_problem(bad).is_some(), "{bad:?} accepted");
        }
        assert!(problem("local").is_some());
    }
}
