//! The arithmetic of the SBUF accumulate apertures (docs/collectives.md): int32 lanes add with
//! wrap-around; fp32 lanes add as IEEE 754 binary32 with round-to-nearest-even, subnormal
//! inputs and results kept (no flush to zero), infinities as IEEE 754 says (inf + -inf is
//! invalid), and every NaN result replaced by the one canonical quiet NaN [`F32_CANONICAL_NAN`].
//!
//! [`f32_add`] works on the bit patterns with integer operations only, the way a hardware adder
//! does, so that the model does not depend on the host's floating point; the tests compare it
//! with the host's binary32 addition (which rounds to nearest even) on edge cases and random
//! operands.

pub use xdie_csr::AccDtype;

/// The NaN every fp32 accumulate that yields a NaN stores: quiet, positive, zero payload.
pub const F32_CANONICAL_NAN: u32 = 0x7fc0_0000;

const MANT_BITS: u32 = 23;
const MANT_MASK: u32 = (1 << MANT_BITS) - 1;
const EXP_MAX: u32 = 0xff;
/// Guard, round and sticky bits below the significand while adding.
const GRS: u32 = 3;

/// `a + b` in IEEE 754 binary32, round to nearest even, NaN results canonical.
pub fn f32_add(a: u32, b: u32) -> u32 {
    let fields = |x: u32| (x >> 31, (x >> MANT_BITS) & EXP_MAX, x & MANT_MASK);
    let (sa, ea, ma) = fields(a);
    let (sb, eb, mb) = fields(b);
    let nan = |e: u32, m: u32| e == EXP_MAX && m != 0;
    if nan(ea, ma) || nan(eb, mb) {
        return F32_CANONICAL_NAN;
    }
    if ea == EXP_MAX {
        // inf + -inf is invalid; inf + anything else is that inf.
        return if eb == EXP_MAX && sa != sb {
            F32_CANONICAL_NAN
        } else {
            a
        };
    }
    if eb == EXP_MAX {
        return b;
    }
    // Significand with its hidden bit, and the exponent a subnormal shares with the smallest
    // normal numbers.
    let sig = |e: u32, m: u32| {
        if e == 0 {
            (m, 1)
        } else {
            (m | (1 << MANT_BITS), e)
        }
    };
    let (xa, xea) = sig(ea, ma);
    let (xb, xeb) = sig(eb, mb);
    if xa == 0 && xb == 0 {
        // Zeros: -0 + -0 = -0; every other sum of zeros is +0 (round to nearest).
        return if sa == sb { a } else { 0 };
    }
    // The larger magnitude first; the result takes its sign (or +0 on exact cancellation).
    let ((s1, e1, m1), (s2, e2, m2)) = if (xeb, xb) > (xea, xa) {
        ((sb, xeb, xb), (sa, xea, xa))
    } else {
        ((sa, xea, xa), (sb, xeb, xb))
    };
    let big = (m1 as u64) << GRS;
    let small = (m2 as u64) << GRS;
    let d = e1 - e2;
    // Align the smaller operand; every bit shifted out is kept as the sticky bit.
    let small = if d >= 64 {
        u64::from(small != 0)
    } else {
        let kept = small >> d;
        let lost = small & ((1u64 << d) - 1);
        kept | u64::from(lost != 0)
    };
    let top = 1u64 << (MANT_BITS + GRS); // the hidden bit's position
    let mut e = e1;
    let mut m = if s1 == s2 { big + small } else { big - small };
    if m == 0 {
        return 0;
    }
    if m >= top << 1 {
        // Carry out: one place right, keeping the sticky bit.
        m = (m >> 1) | (m & 1);
        e += 1;
    }
    while m < top && e > 1 {
        m <<= 1;
        e -= 1;
    }
    // Round to nearest, ties to even, on the GRS bits.
    let rest = m & ((1 << GRS) - 1);
    let half = 1u64 << (GRS - 1);
    m >>= GRS;
    if rest > half || (rest == half && m & 1 == 1) {
        m += 1;
        if m == 1u64 << (MANT_BITS + 1) {
            m >>= 1;
            e += 1;
        }
    }
    if e >= EXP_MAX {
        return (s1 << 31) | (EXP_MAX << MANT_BITS);
    }
    // Without the hidden bit the result is subnormal (exponent field 0).
    let exp_field = if m & (1 << MANT_BITS) != 0 { e } else { 0 };
    (s1 << 31) | (exp_field << MANT_BITS) | (m as u32 & MANT_MASK)
}

/// One lane of `dtype`: `old + new`.
pub fn add_lane(dtype: AccDtype, old: u32, new: u32) -> u32 {
    match dtype {
        AccDtype::I32 => old.wrapping_add(new),
        AccDtype::F32 => f32_add(old, new),
    }
}

/// Adds `data` (little-endian lanes) into `acc` lane by lane; both hold whole lanes.
pub fn accumulate(dtype: AccDtype, acc: &mut [u8], data: &[u8]) {
    let n = dtype.lane_bytes() as usize;
    for (a, d) in acc.chunks_exact_mut(n).zip(data.chunks_exact(n)) {
        let old = u32::from_le_bytes([a[0], a[1], a[2], a[3]]);
        let new = u32::from_le_bytes([d[0], d[1], d[2], d[3]]);
        a.copy_from_slice(&add_lane(dtype, old, new).to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// The host's binary32 sum (IEEE 754, round to nearest even), NaN made canonical.
    fn reference(a: u32, b: u32) -> u32 {
        let s = f32::from_bits(a) + f32::from_bits(b);
        if s.is_nan() {
            F32_CANONICAL_NAN
        } else {
            s.to_bits()
        }
    }

    fn check(a: u32, b: u32) {
        assert_eq!(
            f32_add(a, b),
            reference(a, b),
            "{a:#010x} + {b:#010x} ({:e} + {:e})",
            f32::from_bits(a),
            f32::from_bits(b)
        );
    }

    /// Bit patterns at every boundary of the format, both signs.
    fn edges() -> Vec<u32> {
        let mags = [
            0u32, // zero
            1,    // smallest subnormal
            2,
            3,
            MANT_MASK >> 1,
            MANT_MASK - 1,
            MANT_MASK,      // largest subnormal
            1 << MANT_BITS, // smallest normal
            (1 << MANT_BITS) | 1,
            (2 << MANT_BITS) | MANT_MASK,
            0x3f80_0000, // 1.0
            0x3f80_0001, // 1 + ulp
            0x3fff_ffff,
            0x4000_0000,
            0x4b00_0000, // 2^23: ulp 1
            0x4b7f_ffff,
            0x3300_0000, // 2^-25: below half an ulp of 1
            0x3380_0000, // 2^-24: half an ulp of 1 (a tie)
            0x3380_0001,
            0x3400_0000, // 2^-23: one ulp of 1
            0x7f00_0000,
            0x7f7f_fffe,
            0x7f7f_ffff, // largest finite
            0x7f80_0000, // inf
            0x7f80_0001, // signalling NaN
            0x7fc0_0000, // quiet NaN
            0x7fff_ffff,
        ];
        mags.iter().flat_map(|&m| [m, m | 0x8000_0000]).collect()
    }

    #[test]
    fn edge_cases_match_ieee() {
        let e = edges();
        for &a in &e {
            for &b in &e {
                check(a, b);
            }
        }
    }

    #[test]
    fn named_rules() {
        let (pz, nz) = (0u32, 0x8000_0000u32);
        let (inf, ninf) = (0x7f80_0000u32, 0xff80_0000u32);
        assert_eq!(f32_add(pz, nz), pz, "+0 + -0 = +0");
        assert_eq!(f32_add(nz, nz), nz, "-0 + -0 = -0");
        assert_eq!(f32_add(inf, ninf), F32_CANONICAL_NAN, "inf + -inf is NaN");
        assert_eq!(
            f32_add(0xffc1_2345, pz),
            F32_CANONICAL_NAN,
            "NaN payloads vanish"
        );
        assert_eq!(
            f32_add(0x7f7f_ffff, 0x7f7f_ffff),
            inf,
            "overflow rounds to inf"
        );
        assert_eq!(f32_add(1, 1), 2, "subnormals are not flushed");
        let x = 0x3fc0_0000u32; // 1.5
        assert_eq!(f32_add(x, x ^ 0x8000_0000), pz, "x + -x = +0");
    }

    #[test]
    fn random_operands_match_ieee() {
        let mut r = Rng::new(0x5eed);
        for i in 0..400_000u32 {
            let a = r.next_u64() as u32;
            // Half the pairs close in exponent, where cancellation and ties happen.
            let b = if i % 2 == 0 {
                r.next_u64() as u32
            } else {
                let near = (a & 0xff80_0000) ^ ((r.next_u64() as u32 & 0x3) << MANT_BITS);
                near | (r.next_u64() as u32 & MANT_MASK) | (r.next_u64() as u32 & 0x8000_0000)
            };
            check(a, b);
        }
    }

    #[test]
    fn int32_wraps() {
        assert_eq!(add_lane(AccDtype::I32, i32::MAX as u32, 1), i32::MIN as u32);
        let mut acc = 5i32.to_le_bytes().to_vec();
        accumulate(AccDtype::I32, &mut acc, &(-7i32).to_le_bytes());
        assert_eq!(acc, (-2i32).to_le_bytes());
    }
}
