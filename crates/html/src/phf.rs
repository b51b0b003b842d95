//! The perfect-hash lookup behind the generated tables (static atoms, named
//! character references). `tools/gen_tables.py` searches a seed and displacements
//! for which every key lands in its own slot, and emits only the data: one
//! [`PerfectHash`] constant per table. The hash here must match the generator's
//! `hash64` bit for bit.

const K1: u64 = 0x9E37_79B9_7F4A_7C15;
const K2: u64 = 0xBF58_476D_1CE4_E5B9;
const K3: u64 = 0x94D0_49BB_1331_11EB;
const FNV_PRIME: u64 = 0x100_0000_01B3;

/// One generated table: a key's slot holds the index of the only key that can live
/// there (`u16::MAX` when empty); the caller compares that key with the name.
pub(crate) struct PerfectHash {
    /// The seed the generator found.
    pub(crate) seed: u64,
    /// Number of high hash bits that select the bucket.
    pub(crate) bucket_bits: u32,
    /// The longest key, in bytes; longer input misses without hashing.
    pub(crate) longest: usize,
    /// Per bucket: XOR-ed into the low hash bits to give the slot.
    pub(crate) displacements: &'static [u16],
    /// Per slot (a power of two of them): a key index or `u16::MAX`.
    pub(crate) slots: &'static [u16],
}

impl PerfectHash {
    /// The index of the only key `name` can be, or `None`.
    #[inline]
    pub(crate) fn find(&self, name: &[u8]) -> Option<usize> {
        if name.len() > self.longest {
            return None;
        }
        let h = hash(self.seed, name);
        let bucket = usize::try_from(h >> (64 - self.bucket_bits)).ok()?;
        let displacement = *self.displacements.get(bucket)?;
        let slot = (h as usize ^ usize::from(displacement)) & (self.slots.len() - 1);
        match *self.slots.get(slot)? {
            u16::MAX => None,
            index => Some(usize::from(index)),
        }
    }
}

/// The seeded hash: names of up to 16 bytes are read as two (possibly overlapping)
/// little-endian words, the first and the last 8 (or 4) bytes, so every byte counts
/// and no loop runs; longer names also fold in their middle bytes one by one.
#[inline]
fn hash(seed: u64, name: &[u8]) -> u64 {
    let len = name.len();
    let (a, b) = if let (Some(first), Some(last)) =
        (name.first_chunk::<8>(), name.last_chunk::<8>())
    {
        (u64::from_le_bytes(*first), u64::from_le_bytes(*last))
    } else if let (Some(first), Some(last)) = (name.first_chunk::<4>(), name.last_chunk::<4>()) {
        (
            u64::from(u32::from_le_bytes(*first)),
            u64::from(u32::from_le_bytes(*last)),
        )
    } else {
        (
            name.iter()
                .fold(0, |acc, &byte| (acc << 8) | u64::from(byte)),
            0,
        )
    };
    let mut h = (seed ^ a ^ ((len as u64) << 56)).wrapping_mul(K1);
    h ^= h >> 32;
    h = (h ^ b).wrapping_mul(K2);
    if let Some(middle) = name.get(8..len.saturating_sub(8)) {
        for &byte in middle {
            h = (h ^ u64::from(byte)).wrapping_mul(FNV_PRIME);
        }
    }
    h ^= h >> 29;
    h = h.wrapping_mul(K3);
    h ^ (h >> 32)
}
