//! Thirty-two bytes at a time with AVX2, for the two scans that read every byte
//! of the input whatever it holds: the input-stream error scan (`input.rs`) and
//! the newline count behind error positions (`lines.rs`).
//!
//! AVX2 is not part of the x86-64 baseline, so the scan is chosen at run time
//! ([`available`], which std caches after the first look); without it, and on
//! other targets, the 16-byte [`Lanes`](super::lanes) scan runs. Both compute
//! the same candidate bytes (the tests compare them), and every candidate is
//! then checked one by one by the same code, so the errors found are the same.

/// Whether the processor has AVX2.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn available() -> bool {
    std::is_x86_feature_detected!("avx2")
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
pub(crate) mod avx2 {
    use std::arch::x86_64::{
        __m256i, _mm256_andnot_si256, _mm256_cmpeq_epi8, _mm256_cmpgt_epi8, _mm256_extract_epi64,
        _mm256_loadu_si256, _mm256_min_epu8, _mm256_movemask_epi8, _mm256_or_si256,
        _mm256_sad_epu8, _mm256_set1_epi8, _mm256_setzero_si256, _mm256_sub_epi8,
    };

    /// The bytes of `block`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn load(block: &[u8; 32]) -> __m256i {
        // SAFETY: `block` is 32 readable bytes and the unaligned load has no
        // alignment requirement; AVX2 is enabled for this function.
        unsafe { _mm256_loadu_si256(block.as_ptr().cast::<__m256i>()) }
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    fn eq(x: __m256i, b: u8) -> __m256i {
        _mm256_cmpeq_epi8(x, _mm256_set1_epi8(b as i8))
    }

    /// TAB, LF and CR: the common whitespace no test reports.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn common_space(x: __m256i) -> __m256i {
        _mm256_or_si256(_mm256_or_si256(eq(x, b'\t'), eq(x, b'\n')), eq(x, b'\r'))
    }

    /// `input.rs`'s rough test: controls other than TAB, LF and CR, DEL, and
    /// every non-ASCII byte (below 0x20 read as signed bytes).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn rough(x: __m256i) -> __m256i {
        let low = _mm256_cmpgt_epi8(_mm256_set1_epi8(0x20), x);
        _mm256_andnot_si256(common_space(x), _mm256_or_si256(low, eq(x, 0x7F)))
    }

    /// `input.rs`'s `suspects`: controls other than TAB, LF and CR, DEL, and
    /// the lead bytes C2, EF and F0..F4.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn suspects(x: __m256i) -> __m256i {
        let controls = _mm256_cmpeq_epi8(_mm256_min_epu8(x, _mm256_set1_epi8(0x1F)), x);
        // F0..F4: x - F0 (wrapping) is at most 4.
        let from_f0 = _mm256_sub_epi8(x, _mm256_set1_epi8(0xF0_u8 as i8));
        let planes = _mm256_cmpeq_epi8(_mm256_min_epu8(from_f0, _mm256_set1_epi8(4)), from_f0);
        let leads = _mm256_or_si256(_mm256_or_si256(eq(x, 0xC2), eq(x, 0xEF)), planes);
        _mm256_or_si256(
            _mm256_andnot_si256(common_space(x), controls),
            _mm256_or_si256(eq(x, 0x7F), leads),
        )
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    fn bits(mask: __m256i) -> u32 {
        _mm256_movemask_epi8(mask) as u32
    }

    /// Calls `found` with the offset of every byte of `bytes`' whole 64-byte
    /// groups that may start an input-stream error (the candidates of
    /// `input.rs`'s `suspects`, in order), after one rough test per group;
    /// returns where the whole groups end.
    #[target_feature(enable = "avx2")]
    pub(crate) fn scan_groups(bytes: &[u8], mut found: impl FnMut(usize)) -> usize {
        let mut at = 0;
        // Plain slicing, no closures: a closure here would carry the target
        // feature, and the std adapters calling it (compiled without) could not
        // be inlined into this loop.
        while let Some(group) = bytes.get(at..at + 64) {
            let (Some(lo), Some(hi)) = (group.first_chunk::<32>(), group.last_chunk::<32>()) else {
                break;
            };
            let (lo, hi) = (load(lo), load(hi));
            if bits(_mm256_or_si256(rough(lo), rough(hi))) != 0 {
                let mut candidates =
                    u64::from(bits(suspects(lo))) | (u64::from(bits(suspects(hi))) << 32);
                while candidates != 0 {
                    found(at + candidates.trailing_zeros() as usize);
                    candidates &= candidates - 1;
                }
            }
            at += 64;
        }
        at
    }

    /// The sum of the 32 byte counters of `counts`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn sum(counts: __m256i) -> usize {
        let sums = _mm256_sad_epu8(counts, _mm256_setzero_si256());
        let total = _mm256_extract_epi64::<0>(sums)
            + _mm256_extract_epi64::<1>(sums)
            + _mm256_extract_epi64::<2>(sums)
            + _mm256_extract_epi64::<3>(sums);
        total as usize
    }

    /// `lines.rs`'s newline count over the bytes from `at` (at least 1) on, 32
    /// at a time while 33 bytes from `at - 1` are left: a CR, or an LF not
    /// right after a CR (each block compared with the bytes one before it).
    /// Returns the count and where the blocks end.
    #[target_feature(enable = "avx2")]
    pub(crate) fn count_newlines_from(bytes: &[u8], mut at: usize) -> (usize, usize) {
        let mut n = 0;
        let mut counts = _mm256_setzero_si256();
        let mut pending = 0;
        // `at - 1..` as in `scan_groups`: slicing only (an `at` of 0 ends it).
        while let Some(window) = bytes.get(at.wrapping_sub(1)..at + 32) {
            let (Some(prev), Some(cur)) = (window.first_chunk::<32>(), window.last_chunk::<32>())
            else {
                break;
            };
            let (prev, cur) = (load(prev), load(cur));
            let lf = _mm256_andnot_si256(eq(prev, b'\r'), eq(cur, b'\n'));
            // A lane mask is -1: subtracting it counts.
            counts = _mm256_sub_epi8(counts, _mm256_or_si256(eq(cur, b'\r'), lf));
            at += 32;
            pending += 1;
            if pending == 255 {
                n += sum(counts);
                counts = _mm256_setzero_si256();
                pending = 0;
            }
        }
        (n + sum(counts), at)
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
#[allow(unsafe_code)]
mod tests {
    use std::io::Write;

    /// The AVX2 candidates are the 16-byte scan's, byte for byte, for every byte
    /// value at every position of a group, on top of plain text and of text
    /// with common whitespace and non-ASCII around.
    #[test]
    fn avx2_candidates_match_the_block_scan() {
        if !super::available() {
            let _ = writeln!(
                std::io::stderr(),
                "skipped: this processor has no AVX2 (the 16-byte scan runs instead)"
            );
            return;
        }
        let backgrounds: [&[u8]; 3] = [b"a", b"a\n\tb\r ", "é€ x".as_bytes()];
        for background in backgrounds {
            let base: Vec<u8> = background
                .iter()
                .copied()
                .cycle()
                .take(64 * 3 + 5)
                .collect();
            for b in 0..=255u8 {
                for at in (0..base.len()).step_by(7) {
                    let mut bytes = base.clone();
                    bytes[at] = b;
                    let mut wide = Vec::new();
                    // SAFETY: AVX2 was detected above.
                    let end = unsafe { super::avx2::scan_groups(&bytes, |i| wide.push(i)) };
                    assert_eq!(end, 64 * 3);
                    let mut narrow = Vec::new();
                    for (k, block) in bytes[..end].chunks_exact(16).enumerate() {
                        let block: &[u8; 16] = block.try_into().unwrap();
                        let mut bits = crate::tokenizer::input::suspects(block);
                        while bits != 0 {
                            narrow.push(k * 16 + bits.trailing_zeros() as usize);
                            bits &= bits - 1;
                        }
                    }
                    // The block scan skips rough-clean groups too: compare per group.
                    let rough_clean = |g: usize| {
                        bytes[g * 64..g * 64 + 64].chunks_exact(16).all(|block| {
                            crate::tokenizer::input::rough_bits(block.try_into().unwrap()) == 0
                        })
                    };
                    narrow.retain(|&i| !rough_clean(i / 64));
                    assert_eq!(wide, narrow, "byte {b:#x} at {at} in {background:?}");
                }
            }
        }
    }
}
