//! Numbers on the command line follow the CSR loader's number rule (`xdie_csr::limits`): decimal
//! or one `0x` prefix and hex digits, `_` only between digits, no sign, no empty digits, no
//! overflow. clap names the option in its error (`invalid value '+1' for '--die <DIE>'`) and
//! exits 2, as for any bad input. Rust's own `u64` parser takes `+1`, so no numeric option uses
//! it.

use xdie_csr::limits::parse_number;

const RULE: &str = "decimal, or 0x and hex digits; `_` only between digits; no sign";

/// A count or index: decimal or `0x` hex.
pub fn number(s: &str) -> Result<u64, String> {
    parse_number(s).ok_or_else(|| format!("`{s}` is not a number ({RULE}) that fits 64 bits"))
}

/// A number of repetitions or a size in memory: as [`number`], and at least 1.
pub fn positive(s: &str) -> Result<u64, String> {
    match number(s)? {
        0 => Err(format!("`{s}` must be at least 1")),
        n => Ok(n),
    }
}

/// [`positive`] for a count held in a `usize`.
#[cfg_attr(not(feature = "sim"), allow(dead_code))]
pub fn positive_usize(s: &str) -> Result<usize, String> {
    let n = positive(s)?;
    usize::try_from(n).map_err(|_| format!("`{s}` is too large"))
}

/// A hex number, `0x` optional: the loader's number rule with the prefix implied, so `0x0x10`,
/// `0x+10`, `-1`, `0x` and overflow are refused as in csrs/.
pub fn hex(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let hex = if t.starts_with("0x") || t.starts_with("0X") {
        t.to_string()
    } else {
        format!("0x{t}")
    };
    parse_number(&hex).ok_or_else(|| {
        format!(
            "`{s}` is not a hex number (one optional 0x, then hex digits that fit 64 bits, `_` only \
             between digits, no sign)"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict() {
        assert_eq!(number("12"), Ok(12));
        assert_eq!(number("0x1_0"), Ok(16));
        for bad in [
            "+1",
            "-1",
            "",
            " ",
            "0x",
            "1e3",
            "0x+1",
            "1__0",
            "_1",
            "18446744073709551616",
        ] {
            assert!(number(bad).is_err(), "{bad:?}");
        }
        assert!(positive("0").is_err());
        assert_eq!(hex("10"), Ok(16));
        assert!(hex("+10").is_err());
    }
}
