//! Text from input files (descriptions, paths, values quoted in errors) shown safely. A
//! terminal acts on control characters (ESC starts an escape sequence that can rewrite the
//! screen or the window title), so the text reports and the error messages show them escaped,
//! as Rust writes them in a string literal (`\u{1b}`, `\n`, `\t`), and so are the Unicode
//! direction overrides, which reorder what is shown. SVG and HTML output escape them through
//! [`xml`], which keeps the document well-formed XML.

use std::path::Path;

/// Whether `c` is shown escaped: control characters (C0, DEL, C1) and the bidirectional
/// overrides and isolates.
fn hostile(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `s` with every control character and direction override escaped.
pub fn text(s: &str) -> String {
    if !s.chars().any(hostile) {
        return s.to_string();
    }
    s.chars()
        .map(|c| {
            if hostile(c) {
                c.escape_debug().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// [`text`] that keeps line breaks: for messages of several lines.
pub fn lines(s: &str) -> String {
    s.split('\n').map(text).collect::<Vec<_>>().join("\n")
}

/// A path as the reports show it ([`text`] of its display).
pub fn path(p: &Path) -> String {
    text(&p.display().to_string())
}

/// `s` as XML character data or an attribute value: `&`, `<`, `>`, `"` and `'` as entities,
/// and every character XML 1.0 does not allow (C0 controls but tab, line feed and carriage
/// return; U+FFFE, U+FFFF) as well as the other control characters and direction overrides
/// written as [`text`] does.
pub fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\u{fffe}' | '\u{ffff}' => out.push_str(&c.escape_unicode().to_string()),
            c if hostile(c) => out.push_str(&c.escape_debug().to_string()),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(text("plain ü"), "plain ü");
        assert_eq!(text("a\u{1b}[2Jb"), "a\\u{1b}[2Jb");
        assert_eq!(text("a\nb\r\t\u{7f}\u{9b}"), "a\\nb\\r\\t\\u{7f}\\u{9b}");
        assert_eq!(text("x\u{202e}y"), "x\\u{202e}y");
        assert_eq!(lines("a\u{7}\nb"), "a\\u{7}\nb");
        assert_eq!(
            xml("<a href='x'>&\u{0}\u{1b}</a>\n"),
            "&lt;a href=&apos;x&apos;&gt;&amp;\\0\\u{1b}&lt;/a&gt;\\n"
        );
    }
}
