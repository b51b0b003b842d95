//! Sixteen bytes at a time: the byte-class tests of the tokenizer's scans.
//!
//! [`Lanes`] holds a block of 16 input bytes; each test (`eq`, `le`, `between`)
//! gives a lane mask, masks combine with `or`/`and_not`, and [`Lanes::bits`] turns
//! the result into one bit per byte (bit *i* for byte *i*). The scanners
//! (the tokenizer's `run`, the input-stream error scan, the line counter) test a block
//! with a handful of instructions and look at single bytes only where a bit is set.
//!
//! On x86-64 this is SSE2, which every x86-64 processor has (the module is only
//! compiled with SSE2 when the target enables it statically, so no runtime
//! detection is needed). Elsewhere a portable version computes the same bits a
//! byte at a time; the tests check both against each other.

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
pub use sse2::Lanes;

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
pub use portable::Lanes;

/// The number of bytes in a block.
pub const WIDTH: usize = 16;

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[allow(unsafe_code)]
mod sse2 {
    use std::arch::x86_64::{
        __m128i, _mm_andnot_si128, _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_cvtsi128_si64,
        _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128, _mm_sad_epu8,
        _mm_set1_epi8, _mm_setzero_si128, _mm_srli_si128, _mm_sub_epi8,
    };

    // SAFETY (every `unsafe` block below): the intrinsics need SSE2, which this
    // module is only compiled with (`cfg(target_feature = "sse2")`: the whole
    // program is built for processors that have it). None of them touches memory
    // except `_mm_loadu_si128`, whose argument is a `&[u8; 16]`: 16 readable bytes,
    // and the unaligned load has no alignment requirement.

    /// 16 bytes, or a mask over them (each lane 0x00 or 0xFF).
    #[derive(Clone, Copy)]
    pub struct Lanes(__m128i);

    impl Lanes {
        /// The bytes of `block`.
        #[inline(always)]
        pub fn load(block: &[u8; 16]) -> Lanes {
            // SAFETY: see the module note (a 16-byte reference, unaligned load).
            Lanes(unsafe { _mm_loadu_si128(block.as_ptr().cast::<__m128i>()) })
        }

        /// The empty mask.
        #[inline(always)]
        pub fn none() -> Lanes {
            // SAFETY: see the module note (SSE2 only, no memory access).
            Lanes(unsafe { _mm_setzero_si128() })
        }

        /// The lanes equal to `b`.
        #[inline(always)]
        pub fn eq(self, b: u8) -> Lanes {
            // SAFETY: see the module note (SSE2 only, no memory access).
            Lanes(unsafe { _mm_cmpeq_epi8(self.0, _mm_set1_epi8(b as i8)) })
        }

        /// The lanes at most `b` (unsigned).
        #[inline(always)]
        pub fn le(self, b: u8) -> Lanes {
            // SAFETY: see the module note (SSE2 only, no memory access).
            Lanes(unsafe { _mm_cmpeq_epi8(_mm_min_epu8(self.0, _mm_set1_epi8(b as i8)), self.0) })
        }

        /// The lanes below `b` read as signed bytes (for `b` > 0: the ASCII
        /// bytes below `b` and every byte from 0x80 on).
        #[inline(always)]
        pub fn lt_signed(self, b: i8) -> Lanes {
            // SAFETY: see the module note (SSE2 only, no memory access).
            Lanes(unsafe { _mm_cmplt_epi8(self.0, _mm_set1_epi8(b)) })
        }

        /// The lanes in `lo..=hi` (unsigned, `lo <= hi`).
        #[inline(always)]
        pub fn between(self, lo: u8, hi: u8) -> Lanes {
            // SAFETY: see the module note (SSE2 only, no memory access).
            let shifted = Lanes(unsafe { _mm_sub_epi8(self.0, _mm_set1_epi8(lo as i8)) });
            shifted.le(hi.wrapping_sub(lo))
        }

        /// Lanes set in either mask.
        #[inline(always)]
        pub fn or(self, other: Lanes) -> Lanes {
            // SAFETY: see the module note (SSE2 only, no memory access).
            Lanes(unsafe { _mm_or_si128(self.0, other.0) })
        }

        /// Lanes set in this mask and not in `other`.
        #[inline(always)]
        pub fn and_not(self, other: Lanes) -> Lanes {
            // SAFETY: see the module note (SSE2 only, no memory access).
            Lanes(unsafe { _mm_andnot_si128(other.0, self.0) })
        }

        /// One bit per lane (bit *i* for lane *i*), set where the lane's high bit is.
        #[inline(always)]
        pub fn bits(self) -> u32 {
            // SAFETY: see the module note (SSE2 only, no memory access).
            (unsafe { _mm_movemask_epi8(self.0) }) as u32
        }

        /// Adds one to each lane (a counter, wrapping) where `mask` is set.
        #[inline(always)]
        pub fn count(self, mask: Lanes) -> Lanes {
            // SAFETY: see the module note (SSE2 only, no memory access).
            Lanes(unsafe { _mm_sub_epi8(self.0, mask.0) })
        }

        /// The sum of the lanes as unsigned bytes.
        #[inline(always)]
        pub fn sum(self) -> u32 {
            // SAFETY: see the module note (SSE2 only, no memory access).
            unsafe {
                let halves = _mm_sad_epu8(self.0, _mm_setzero_si128());
                let high = _mm_srli_si128::<8>(halves);
                (_mm_cvtsi128_si64(halves) + _mm_cvtsi128_si64(high)) as u32
            }
        }
    }
}

/// The same operations a byte at a time (other targets, and the reference the
/// tests compare the SIMD version with).
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
mod portable {
    /// 16 bytes, or a mask over them (each lane 0x00 or 0xFF).
    #[derive(Clone, Copy)]
    pub struct Lanes([u8; 16]);

    impl Lanes {
        #[inline(always)]
        fn map(self, f: impl Fn(u8) -> bool) -> Lanes {
            Lanes(self.0.map(|b| if f(b) { 0xFF } else { 0 }))
        }

        #[inline(always)]
        pub fn load(block: &[u8; 16]) -> Lanes {
            Lanes(*block)
        }

        #[inline(always)]
        pub fn none() -> Lanes {
            Lanes([0; 16])
        }

        #[inline(always)]
        pub fn eq(self, b: u8) -> Lanes {
            self.map(|x| x == b)
        }

        #[inline(always)]
        pub fn le(self, b: u8) -> Lanes {
            self.map(|x| x <= b)
        }

        #[inline(always)]
        pub fn lt_signed(self, b: i8) -> Lanes {
            self.map(|x| (x as i8) < b)
        }

        #[inline(always)]
        pub fn between(self, lo: u8, hi: u8) -> Lanes {
            self.map(|x| (lo..=hi).contains(&x))
        }

        #[inline(always)]
        pub fn or(self, other: Lanes) -> Lanes {
            let mut out = self.0;
            for (o, b) in out.iter_mut().zip(other.0) {
                *o |= b;
            }
            Lanes(out)
        }

        #[inline(always)]
        pub fn and_not(self, other: Lanes) -> Lanes {
            let mut out = self.0;
            for (o, b) in out.iter_mut().zip(other.0) {
                *o &= !b;
            }
            Lanes(out)
        }

        #[inline(always)]
        pub fn bits(self) -> u32 {
            self.0
                .iter()
                .enumerate()
                .fold(0, |bits, (i, &b)| bits | (u32::from(b >> 7) << i))
        }

        #[inline(always)]
        pub fn count(self, mask: Lanes) -> Lanes {
            let mut out = self.0;
            for (o, m) in out.iter_mut().zip(mask.0) {
                *o = o.wrapping_add(m & 1);
            }
            Lanes(out)
        }

        #[inline(always)]
        pub fn sum(self) -> u32 {
            self.0.iter().map(|&b| u32::from(b)).sum()
        }
    }
}

/// The first `WIDTH` bytes of `bytes` from `at`, if there are that many.
#[inline(always)]
pub fn block_at(bytes: &[u8], at: usize) -> Option<&[u8; WIDTH]> {
    bytes.get(at..)?.first_chunk::<WIDTH>()
}

#[cfg(test)]
mod tests {
    use super::{Lanes, portable};

    /// Every operation agrees with the portable reference on blocks holding every
    /// byte value at every lane.
    #[test]
    fn simd_matches_the_portable_reference() {
        let params: [u8; 10] = [0, 1, 0x1F, 0x20, 0x41, 0x5A, 0x7F, 0x80, 0xC2, 0xFF];
        for start in 0..=255u8 {
            let block: [u8; 16] = std::array::from_fn(|i| start.wrapping_add((i as u8) * 17));
            let (a, b) = (Lanes::load(&block), portable::Lanes::load(&block));
            assert_eq!(a.bits(), b.bits());
            assert_eq!(Lanes::none().bits(), 0);
            for &p in &params {
                for &q in &params {
                    let (lo, hi) = (p.min(q), p.max(q));
                    let x = a.eq(p).or(a.le(q)).and_not(a.between(lo, hi));
                    let y = b.eq(p).or(b.le(q)).and_not(b.between(lo, hi));
                    assert_eq!(x.bits(), y.bits(), "{block:?} {p} {q}");
                    assert_eq!(a.eq(p).bits(), b.eq(p).bits());
                    assert_eq!(a.le(p).bits(), b.le(p).bits());
                    assert_eq!(a.lt_signed(p as i8).bits(), b.lt_signed(p as i8).bits());
                    assert_eq!(a.between(lo, hi).bits(), b.between(lo, hi).bits());
                }
            }
        }
    }

    #[test]
    fn counters_match_the_portable_reference() {
        let (mut a, mut b) = (Lanes::none(), portable::Lanes::none());
        for round in 0..300u32 {
            let block: [u8; 16] = std::array::from_fn(|i| ((i as u32 * 7 + round) % 5) as u8);
            a = a.count(Lanes::load(&block).le(1));
            b = b.count(portable::Lanes::load(&block).le(1));
            assert_eq!(a.sum(), b.sum(), "{round}");
        }
    }

    #[test]
    fn bits_follow_byte_order() {
        let mut block = [b'a'; 16];
        block[3] = b'<';
        block[15] = b'<';
        assert_eq!(Lanes::load(&block).eq(b'<').bits(), (1 << 3) | (1 << 15));
        assert_eq!(Lanes::load(&block).le(b'<').bits(), (1 << 3) | (1 << 15));
        assert_eq!(
            Lanes::load(&block).between(b'a', b'z').bits(),
            0xFFFF & !((1 << 3) | (1 << 15))
        );
    }
}
