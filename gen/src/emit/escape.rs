//! Free text of `csrs/` (descriptions) made safe for the comment or document it lands in. Names
//! need nothing here: the loader admits only plain identifiers (`xdie_csr::ident`). A
//! description is anything, so each output gets its own escape, applied by the emitter before
//! the text reaches a template:
//!
//! - `sv_comment`: text after `// ` in SystemVerilog. A newline would end the comment and make
//!   the rest live code; a comment starting with a tool's pragma word (`verilator lint_off`,
//!   `synopsys translate_off`, ...) would steer the tools.
//! - `c_comment`: text inside `/* ... */` in C. `*/` would end the comment, `/*` inside one is a
//!   `-Wcomment` error under `-Werror`, `??` could form a trigraph.
//! - `markdown`: text of a Markdown paragraph or table cell. `|` would split a table row, `<`
//!   opens raw HTML, `[...](...)` makes links, a leading `#`, `-`, `1.` ... starts a block.
//!   (Emphasis marks are left alone: they change how text looks, not what the page holds.)
//! - HTML: askama escapes every value of an `.html` template; `html_text` takes out the control
//!   characters first, which no escape makes legal in HTML.
//!
//! Every escape returns one line (control characters and line breaks become spaces) and keeps
//! plain ASCII prose as it is, so descriptions that need no escaping render unchanged.

/// Words that make a comment a directive when they open it (Verilator, Yosys, Synopsys and
/// other tools' pragmas), lower-cased.
const PRAGMA_WORDS: &[&str] = &[
    "verilator",
    "synopsys",
    "synthesis",
    "pragma",
    "translate_off",
    "translate_on",
    "lint_off",
    "lint_on",
    "coverage",
    "cadence",
    "ambit",
    "xilinx",
    "altera",
    "spyglass",
    "vcs",
    "rtl_synthesis",
];

/// One line of text: every control character and every Unicode line or paragraph break becomes
/// a space; non-ASCII characters become `U+XXXX` (some tools read only ASCII sources).
fn one_ascii_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() || c.is_whitespace() {
            out.push(' ');
        } else if c.is_ascii() {
            out.push(c);
        } else {
            out.push_str(&format!("U+{:04X}", c as u32));
        }
    }
    out
}

/// `text` as the body of one SystemVerilog `//` comment line.
pub fn sv_comment(text: &str) -> String {
    let line = one_ascii_line(text);
    let first: String = line
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect::<String>()
        .to_ascii_lowercase();
    if PRAGMA_WORDS.contains(&first.as_str()) {
        // Tools look for the pragma word right after `//`; text in front of it disarms it.
        format!("(text) {line}")
    } else {
        line
    }
}

/// `text` as the body of a C `/* ... */` comment (one line).
pub fn c_comment(text: &str) -> String {
    let mut s = one_ascii_line(text);
    // Repeat until stable: replacing one pair can create another (`*/*/`).
    loop {
        let next = s
            .replace("*/", "* /")
            .replace("/*", "/ *")
            .replace("??", "? ?");
        if next == s {
            return s;
        }
        s = next;
    }
}

/// `text` as Markdown inline text (a paragraph or a table cell). Code spans (`` `x` ``) are
/// kept as code; only `|` is escaped inside them (GFM splits table rows before reading spans).
pub fn markdown(text: &str) -> String {
    let line = one_line(text);
    let spans_close = line.matches('`').count() % 2 == 0;
    let mut out = String::with_capacity(line.len());
    let mut in_code = false;
    let chars: Vec<char> = line.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        match c {
            '`' if spans_close => {
                in_code = !in_code;
                out.push(c);
            }
            '`' => out.push_str("\\`"),
            '|' => out.push_str("\\|"),
            _ if in_code => out.push(c),
            // A bracket pair is a link only when `(`, `[` or `:` follows the `]` (inline,
            // full reference, definition): escaping that `]` leaves `[31:6]` as written.
            ']' if matches!(chars.get(i + 1), Some('(' | '[' | ':')) => out.push_str("\\]"),
            '\\' if matches!(chars.get(i + 1), Some(c) if c.is_ascii_punctuation()) => {
                out.push_str("\\\\")
            }
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            _ => out.push(c),
        }
    }
    // A line opening with a block marker would become a heading, quote, list or rule.
    let starts_block = out.starts_with(['#', '-', '+', '=', '~'])
        || out
            .split_once(['.', ')'])
            .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    if starts_block {
        out.insert(0, '\\');
    }
    out
}

/// Text of an HTML page before askama escapes it: a control character (ESC, NUL, ...) is not
/// allowed in an HTML or XML document, and no escape makes it so: it becomes a space (line
/// breaks and tabs stay, they are whitespace there).
pub fn html_text(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() && !matches!(c, '\n' | '\t') {
                ' '
            } else {
                c
            }
        })
        .collect()
}

/// One line, Unicode kept (Markdown and HTML are UTF-8 documents).
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() || c.is_whitespace() {
                ' '
            } else {
                c
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sv_comment_is_one_disarmed_line() {
        assert_eq!(sv_comment("Plain text (0 = off)."), "Plain text (0 = off).");
        let s = sv_comment("x\nassign y = 1;\r\u{2028}z\u{1b}é");
        assert!(!s.contains(['\n', '\r', '\u{2028}', '\u{1b}']), "{s}");
        assert!(s.is_ascii());
        assert!(sv_comment(" verilator lint_off WIDTH").starts_with("(text)"));
        assert!(sv_comment("synopsys translate_off").starts_with("(text)"));
    }

    #[test]
    fn c_comment_cannot_close_or_nest() {
        for bad in ["a */ int x; /*", "*/*/", "/*/", "??/", "a\nb"] {
            let s = c_comment(bad);
            assert!(
                !s.contains("*/") && !s.contains("/*") && !s.contains("??"),
                "{s}"
            );
            assert!(!s.contains('\n'));
        }
        assert_eq!(c_comment("Bytes (0 = 64 KiB)."), "Bytes (0 = 64 KiB).");
    }

    #[test]
    fn markdown_cannot_break_out() {
        assert_eq!(markdown("Plain, text (1 = on)."), "Plain, text (1 = on).");
        assert_eq!(markdown("a | b"), "a \\| b");
        assert_eq!(markdown("<script>"), "&lt;script&gt;");
        assert_eq!(markdown("[x](javascript:y)"), "[x\\](javascript:y)");
        assert_eq!(markdown("[r]: http://x"), "[r\\]: http://x");
        assert_eq!(markdown("bits [31:6]"), "bits [31:6]");
        assert_eq!(markdown("a\\|b"), "a\\\\\\|b");
        assert_eq!(markdown("# h"), "\\# h");
        assert_eq!(markdown("1. item"), "\\1. item");
        assert_eq!(markdown("see `a|b[0]`"), "see `a\\|b[0]`");
        assert_eq!(markdown("odd ` tick"), "odd \\` tick");
        assert!(!markdown("a\nb").contains('\n'));
    }
}
