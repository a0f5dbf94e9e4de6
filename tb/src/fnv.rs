//! The hash of the RTL fingerprint (FNV-1a, 64 bits). One copy, included by the build script
//! (`build/fingerprint.rs`, which records the hashes) and by the library (`rtl_fingerprint`,
//! which compares against them), so both sides hash alike.

/// FNV-1a over `bytes`.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}
