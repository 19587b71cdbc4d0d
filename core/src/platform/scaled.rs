//! A hash key spread evenly over a table of any length, in the product the target computes
//! best: `key * len / 2^64`. On wasm32 a 128-bit product is a call into compiler-rt
//! (`__multi3`), so there it is two 64-bit products, exact while `len` has 32 bits (every
//! table a wasm32 build can hold); elsewhere it is one 64x64-bit multiplication.

/// `key * len / 2^64`: an index below `len` (for `len` above 0), the same on every target.
#[inline]
pub fn scaled_index(key: u64, len: usize) -> usize {
    if cfg!(target_arch = "wasm32") {
        scaled_by_halves(key, len as u32) as usize
    } else {
        ((u128::from(key) * len as u128) >> 64) as usize
    }
}

#[inline]
fn scaled_by_halves(key: u64, len: u32) -> u64 {
    let n = u64::from(len);
    ((key >> 32) * n + (((key & 0xffff_ffff) * n) >> 32)) >> 32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_products_give_the_128_bit_one() {
        let keys = [
            0u64,
            1,
            u64::MAX,
            0x9e37_79b9_7f4a_7c15,
            0xffff_ffff,
            1 << 63,
        ];
        for key in keys {
            for len in [1u32, 2, 1000, 65_536, 0x7fff_ffff, u32::MAX] {
                let wide = (u128::from(key) * u128::from(len)) >> 64;
                assert_eq!(
                    u128::from(scaled_by_halves(key, len)),
                    wide,
                    "{key:#x} * {len}"
                );
                assert_eq!(scaled_index(key, len as usize) as u128, wide);
            }
        }
    }
}
