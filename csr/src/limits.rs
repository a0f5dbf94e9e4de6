//! Bounds on what an input file may ask for, checked before anything is built from it: a
//! careless or hostile file must be refused quickly and in bounded memory, never by running out
//! of memory or time. Every bound is far above what a real die needs (the shipped CSRs use a few
//! percent of each) and is named in the error that enforces it.

use std::io::Read;
use std::path::Path;
use yaml_rust2::parser::{Event, Parser};

/// Largest input file (CSR description or scenario). The shipped files are under 10 KiB.
pub const MAX_FILE_BYTES: u64 = 1 << 20;
/// Deepest nesting of mappings and sequences. The shipped files nest 6 deep.
pub const MAX_DEPTH: usize = 32;
/// Most instances of one aperture (the decoder and the die build one port per instance).
pub const MAX_APERTURE_COUNT: u64 = 1024;
/// Most aperture instances of a die map in all.
pub const MAX_INSTANCES: u64 = 4096;
/// Most instances of one bundle (the RTL and the golden model keep state per instance).
pub const MAX_ARRAY_SIZE: u64 = 1 << 16;
/// Widest internal bus beat (DATA_BYTES): 8192 bits.
pub const MAX_DATA_BYTES: u64 = 1024;
/// Deepest receive buffer of a link channel (LINK_CREDITS, one flit each); with the round-trip
/// rule it bounds LINK_LATENCY to 2047 cycles. The shipped map uses 40.
pub const MAX_LINK_CREDITS: u64 = 4096;
/// Longest name (identifiers of the generated code are built from names).
pub const MAX_NAME_LEN: usize = 64;

/// The loader's number rule, for numbers given elsewhere (the command line): decimal or one
/// `0x` prefix and hex digits, `_` only between digits; no sign, no second prefix, no empty
/// digits, no overflow. None when `s` breaks it.
pub fn parse_number(s: &str) -> Option<u64> {
    crate::raw::parse_num(s)
}

/// Why a file's text was refused, and the 1-based line when one is to blame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextError {
    pub message: String,
    pub line: Option<usize>,
}

impl TextError {
    fn new(message: String, line: Option<usize>) -> Self {
        TextError { message, line }
    }
}

/// Read `path` as the text of an input file: a regular file of at most `MAX_FILE_BYTES` bytes,
/// valid UTF-8. Every input file of the CLI is read here (CSR files, scenarios, topologies).
///
/// Anything but a regular file is refused by its metadata before it is opened: opening a FIFO
/// for reading waits for a writer, forever if none comes, and a device (`/dev/zero`,
/// `/dev/null`) holds no description. The size is checked while reading, so a file that grows
/// past the limit after the check still costs at most `MAX_FILE_BYTES` of memory. Nesting is the
/// parser's caller's to check ([`check_depth`]), once, where text from a file and text given in
/// memory meet.
pub fn read_text(path: &Path) -> Result<String, TextError> {
    let meta =
        std::fs::metadata(path).map_err(|e| TextError::new(format!("cannot read: {e}"), None))?;
    regular_file(&meta.file_type())?;
    let file =
        std::fs::File::open(path).map_err(|e| TextError::new(format!("cannot read: {e}"), None))?;
    // And what was opened, in case the path was replaced since (a FIFO swapped in between the
    // two would still hold the open; only a race with a writer of the directory gets there).
    let meta = file
        .metadata()
        .map_err(|e| TextError::new(format!("cannot read: {e}"), None))?;
    regular_file(&meta.file_type())?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| TextError::new(format!("cannot read: {e}"), None))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(TextError::new(
            format!("file is larger than the {MAX_FILE_BYTES}-byte limit for an input file"),
            None,
        ));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = 1 + e.as_bytes()[..at].iter().filter(|b| **b == b'\n').count();
        TextError::new(
            format!("not valid UTF-8 (byte {at} of the file)"),
            Some(line),
        )
    })?;
    Ok(text)
}

/// Ok for a regular file; else an error naming what `t` is.
fn regular_file(t: &std::fs::FileType) -> Result<(), TextError> {
    if t.is_file() {
        return Ok(());
    }
    if t.is_dir() {
        return Err(TextError::new("is a directory, not a file".into(), None));
    }
    #[cfg(unix)]
    let kind = {
        use std::os::unix::fs::FileTypeExt;
        [
            (t.is_fifo(), "is a FIFO, "),
            (t.is_char_device(), "is a character device, "),
            (t.is_block_device(), "is a block device, "),
            (t.is_socket(), "is a socket, "),
        ]
        .into_iter()
        .find_map(|(is, kind)| is.then_some(kind))
        .unwrap_or("is ")
    };
    #[cfg(not(unix))]
    let kind = "is ";
    Err(TextError::new(
        format!("{kind}not a regular file (inputs are read from files, not pipes or devices)"),
        None,
    ))
}

/// Refuse text nested deeper than `MAX_DEPTH`. The event stream is read only until the limit is
/// passed, so the check costs a few dozen events however deep the file goes (a full parse of
/// 50,000 nested brackets took seconds). Syntax errors are left to the real parser, which
/// reports them with their position.
pub fn check_depth(text: &str) -> Result<(), TextError> {
    let mut parser = Parser::new_from_str(text);
    let mut depth = 0usize;
    loop {
        let (ev, mark) = match parser.next_token() {
            Ok(x) => x,
            // The scanner's own flow-nesting limit (255) is past ours: too deep as well.
            Err(e) if e.info().contains("recursion limit") => {
                return Err(too_deep(Some(e.marker().line())))
            }
            Err(_) => return Ok(()),
        };
        match ev {
            Event::MappingStart(..) | Event::SequenceStart(..) => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(too_deep(Some(mark.line())));
                }
            }
            Event::MappingEnd | Event::SequenceEnd => depth = depth.saturating_sub(1),
            Event::StreamEnd => return Ok(()),
            _ => {}
        }
    }
}

fn too_deep(line: Option<usize>) -> TextError {
    TextError::new(
        format!(
            "mappings and lists nest deeper than {MAX_DEPTH} levels (the limit for an input file)"
        ),
        line,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shallow_text_passes_and_deep_text_is_refused_fast() {
        assert!(check_depth("a: [1, {b: [2]}]\n").is_ok());
        let deep = format!("a: {}{}\n", "[".repeat(100_000), "]".repeat(100_000));
        let t = std::time::Instant::now();
        let e = check_depth(&deep).expect_err("too deep");
        assert!(t.elapsed().as_millis() < 500, "took {:?}", t.elapsed());
        assert_eq!(e.line, Some(1));
        let block: String = (0..200).map(|i| format!("{}- \n", " ".repeat(i))).collect();
        assert!(check_depth(&block).is_err());
    }
}
